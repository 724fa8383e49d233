/* SPDX-License-Identifier: MIT */
/* theme.h - the colours slog2-view draws with: the categories' (the
 * palette, from the file, changed in the legend) and everything else's
 * (the light or dark theme). */
#ifndef SV_THEME_H
#define SV_THEME_H

#include <cairo.h>
#include <stdint.h>

#include <slog2/slog.h>

/* What a message arrow's colour says. */
typedef enum sv_arrow_colour {
    SV_ARROWS_SIZE = 0, /* its byte count, log scale (the default) */
    SV_ARROWS_TAG,      /* its tag: one of a few colours */
    SV_ARROWS_LATENCY,  /* receive minus send, log scale */
    SV_ARROWS_CATEGORY, /* its category's colour, as the legend shows it */
    SV_N_ARROW_COLOURS
} sv_arrow_colour;

/* Category colours and visibility, indexed by category id. */
typedef struct sv_palette {
    uint32_t n;
    uint32_t *rgba; /* 0xRRGGBBAA */
    uint8_t *visible;
    uint8_t *kind;                   /* slog_kind */
    int16_t *size_field, *tag_field; /* arrows: the index of their BYTES
                                        field and of "tag", or -1 */
    sv_arrow_colour arrows;
    /* The message filter (analysis.h): arrows it rejects are not drawn,
     * hit or counted in the density; NULL = all. Not owned. */
    const struct sv_search_bound *msg_filter;
    unsigned msg_filter_gen; /* changed with msg_filter */
} sv_palette;

int sv_palette_init(sv_palette *p, const slog_reader *r);
void sv_palette_clear(sv_palette *p);
/* A message arrow's colour by p->arrows: cat its category, dur its latency
 * (ns), info its n_info field values. The category's colour where the
 * value is unknown. */
uint32_t sv_arrow_rgba(const sv_palette *p, uint32_t cat, int64_t dur, const int64_t *info, uint16_t n_info);
/* The size and latency scale at t (0..1), low blue to high orange. */
uint32_t sv_ramp_rgba(double t);
/* A value's colour (size, tag, latency: arrows, flows) as the current
 * theme draws it: on dark rows a third of the way to white, as the darker
 * end of the scale sank into them. */
uint32_t sv_value_rgba(uint32_t rgba);
/* "size", "tag", "latency", "category"; parse: -1 for another word. */
const char *sv_arrow_colour_name(sv_arrow_colour c);
int sv_arrow_colour_parse(const char *s);
/* The ends of the scale for size or latency ("1 B", "16 MiB"); NULL for
 * the others. */
const char *sv_arrow_scale_low(sv_arrow_colour c);
const char *sv_arrow_scale_high(sv_arrow_colour c);

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
    double grid[4];   /* vertical lines at the ruler's major ticks */
    double border[4]; /* separators */
    double tick[4], major_tick[4];
    double text[4], dim_text[4], accent[4];
    double veil[4];       /* over what lies outside a selected range */
    double dim_window[4]; /* the overview outside the shown window */
    double strong[4];     /* outline of the selected item */
    double meter_bg[4];   /* behind a statistics bar */
    double arrow_lift;    /* arrows: colour x 0.55 + this (on dark rows
                                              a dark message colour must still show) */
    double halo[4];       /* drawn around arrows, over the states */
} sv_theme;
/* The theme frames are drawn with: light unless sv_theme_set_dark(1). One
 * per process (frames are drawn on the UI thread, or by the headless
 * renderer); the window follows GTK's theme (sv-app.c). */
const sv_theme *sv_theme_current(void);
void sv_theme_set_dark(int dark);
/* Cairo's source := c, its alpha multiplied by alpha. */
void sv_theme_source(cairo_t *cr, const double *c, double alpha);

#endif
