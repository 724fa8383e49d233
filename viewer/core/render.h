/* render.h - all drawing of slog2-view, on a cairo_t. GTK-free: the widgets
 * call it from snapshot() through gtk_snapshot_append_cairo(), and
 * `slog2-view --render` calls it on an image surface without a display, so
 * the headless picture is the interactive one (Sysprof and gtk-demo draw
 * the same way). Each function draws one part in its own coordinates with
 * the origin at the part's top-left corner.
 */
#ifndef SV_RENDER_H
#define SV_RENDER_H

#include <cairo.h>
#include <stdint.h>

#include "scene.h"
#include <slog2/slog.h>
#include "viewport.h"

/* Category colours and visibility, indexed by category id. */
typedef struct sv_palette {
    uint32_t n;
    uint32_t *rgba;     /* 0xRRGGBBAA */
    uint8_t *visible;
    uint8_t *kind;      /* slog_kind */
} sv_palette;

int sv_palette_init(sv_palette *p, const slog_reader *r);
void sv_palette_clear(sv_palette *p);
/* Set cairo's source to a 0xRRGGBBAA colour scaled by `shade` (1 = as is,
 * < 1 darker) with extra alpha multiplier. */
void sv_set_rgba(cairo_t *cr, uint32_t rgba, double shade, double alpha);

/* Colours of everything but the data (RGBA, 0..1): the light theme is
 * GNOME's palette, the dark one Adwaita's dark variant. Category colours
 * are the same in both: the legend's colours mean what they meant. */
typedef struct sv_theme {
    double bg[4], alt_bg[4], header_bg[4]; /* canvas: rows, every other row, host headers */
    double chrome_bg[4];                   /* ruler, label column, around the picture */
    double overview_bg[4];
    double grid[4];                        /* vertical lines at the ruler's major ticks */
    double border[4];                      /* separators */
    double tick[4], major_tick[4];
    double text[4], dim_text[4], accent[4];
    double veil[4];                        /* over what lies outside a selected range */
    double dim_window[4];                  /* the overview outside the shown window */
    double strong[4];                      /* outline of the selected item */
    double meter_bg[4];                    /* behind a statistics bar */
    double arrow_lift;                     /* arrows: colour x 0.55 + this (on dark rows
                                              a dark message colour must still show) */
} sv_theme;
/* The theme frames are drawn with: light unless sv_theme_set_dark(1). One
 * per process (frames are drawn on the UI thread, or by the headless
 * renderer); the window follows GTK's theme (sv-app.c). */
const sv_theme *sv_theme_current(void);
void sv_theme_set_dark(int dark);
/* Cairo's source := c, its alpha multiplied by alpha. */
void sv_theme_source(cairo_t *cr, const double *c, double alpha);

typedef struct sv_canvas_params {
    const sv_viewport *vp;
    const sv_layout *lay;
    double scroll_y;
    const sv_scene *scene;        /* may be NULL (nothing loaded yet) */
    const sv_palette *pal;
    const char *const *cat_names; /* names drawn inside wide states; may be NULL */
    const sv_item *hover;         /* may be NULL */
    const sv_item *selected;      /* may be NULL */
    int have_range;
    double range_t0, range_t1;    /* selected time range (ns) */
    long hover_row;               /* layout row under the pointer or -1 */
} sv_canvas_params;

/* The timeline rows: backgrounds, grid, preview histograms, states,
 * events, arrows, highlights and the selected range. */
void sv_render_canvas(cairo_t *cr, double w, double h, const sv_canvas_params *p);

/* The time ruler. label_offset (ns) is added to the printed times (0 =
 * relative to the trace start). */
void sv_render_ruler(cairo_t *cr, double w, double h, const sv_viewport *vp,
                     double label_offset, int have_range, double r0, double r1);

/* Timeline labels column (group headers bold). labels[i] for timeline i. */
void sv_render_labels(cairo_t *cr, double w, double h, const sv_layout *lay,
                      double scroll_y, const char *const *labels, long hover_row);

/* Whole-trace overview: per pixel column and category the fraction of all
 * timelines busy in that category (states), built from one preview query. */
typedef struct sv_overview {
    int width;
    double t0, t1;
    uint32_t n_categories;
    float *cols;            /* n_categories * width */
    uint64_t bytes_read;
} sv_overview;

sv_overview *sv_overview_from_scene(const sv_scene *s, uint32_t n_timelines);
void sv_overview_free(sv_overview *o);
/* Draw it with the visible window of vp highlighted. */
void sv_render_overview(cairo_t *cr, double w, double h, const sv_overview *o,
                        const sv_viewport *vp, const sv_palette *pal);

/* Sizes of the parts in the composed (headless) picture. */
typedef struct sv_frame_geometry {
    double overview_h, ruler_h, label_w;
    double row_h, header_h;
} sv_frame_geometry;

/* Height of the timeline rows when n_rows of them and n_headers group
 * headers (header_h high) share avail pixels: the rows fill avail, at least
 * min_h high (more rows scroll) and at most a quarter of avail or 96 px,
 * whichever is more (fewer than 4 rows leave the rest empty). Whole pixels. */
double sv_fit_row_height(double avail, size_t n_rows, size_t n_headers, double header_h,
                         double min_h);
/* The group headers' height that goes with rows row_h high in that rule:
 * header_h, or three quarters of a row (at least 1 px) when rows are lower. */
double sv_fit_header_height(double row_h, double header_h);

/* Draw text with the UI font. align: 0 left, 1 centre, 2 right of x.
 * y is the top. Returns the width in pixels. size in points (0 = 9). */
double sv_draw_text(cairo_t *cr, const char *text, double x, double y, int align,
                    int bold, double size);
double sv_text_width(cairo_t *cr, const char *text, int bold, double size);

#endif
