/* SPDX-License-Identifier: MIT */
/* render.h - the drawing of slog2-view's parts, on a cairo_t. GTK-free: the widgets
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
#include "text.h"
#include "theme.h"
#include "viewport.h"
#include <slog2/slog.h>

typedef struct sv_canvas_params {
    const sv_viewport *vp;
    const sv_layout *lay;
    double scroll_y;
    const sv_scene *scene; /* may be NULL (nothing loaded yet) */
    const sv_palette *pal;
    const char *const *cat_names; /* names drawn inside wide states; may be NULL */
    const sv_item *hover;         /* may be NULL */
    const sv_item *selected;      /* may be NULL */
    int have_range;
    double range_t0, range_t1; /* selected time range (ns) */
    long hover_row;            /* layout row under the pointer or -1 */
} sv_canvas_params;

/* The timeline rows: backgrounds, grid, preview histograms, states,
 * events, arrows, highlights and the selected range. */
void sv_render_canvas(cairo_t *cr, double w, double h, const sv_canvas_params *p);

/* The time ruler. label_offset (ns) is added to the printed times (0 =
 * relative to the trace start). */
void sv_render_ruler(cairo_t *cr, double w, double h, const sv_viewport *vp, double label_offset, int have_range,
                     double r0, double r1);

/* Timeline labels column (group headers bold). labels[i] for timeline i. */
void sv_render_labels(cairo_t *cr, double w, double h, const sv_layout *lay, double scroll_y, const char *const *labels,
                      long hover_row);

/* Whole-trace overview: per pixel column and category the fraction of all
 * timelines busy in that category (states), built from one preview query. */
typedef struct sv_overview {
    int width;
    double t0, t1;
    uint32_t n_categories;
    float *cols; /* n_categories * width */
    uint64_t bytes_read;
} sv_overview;

sv_overview *sv_overview_from_scene(const sv_scene *s, uint32_t n_timelines);
void sv_overview_free(sv_overview *o);
/* Draw it with the visible window of vp highlighted. */
void sv_render_overview(cairo_t *cr, double w, double h, const sv_overview *o, const sv_viewport *vp,
                        const sv_palette *pal);

/* The legend band of an exported picture: caption (file and time window,
 * bold), then every visible category's colour and whole name, wrapped to
 * w, then the messages line (how arrows are coloured; may be NULL).
 * sv_legend_height: the band's height for that width. */
double sv_legend_height(double w, const sv_palette *pal, const char *const *names, const char *caption,
                        const char *messages);
void sv_render_legend(cairo_t *cr, double w, double h, const sv_palette *pal, const char *const *names,
                      const char *caption, const char *messages);

/* Sizes of the parts in the composed (headless) picture. */
typedef struct sv_frame_geometry {
    double overview_h, ruler_h, label_w;
    double row_h, header_h;
} sv_frame_geometry;

/* The selected range [t0, t1] on a canvas w x h: the rest veiled, its
 * edges marked (the timeline's and the folded view's). canvas.c. */
void sv_render_range(cairo_t *cr, double w, double h, const sv_viewport *vp, double t0, double t1);

#endif
