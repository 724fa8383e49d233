/* SPDX-License-Identifier: MIT */
/* doc.h - an open .slog2 file as the viewer sees it: the reader plus the
 * per-category and per-timeline strings the drawing code wants as arrays,
 * and the composition of the whole picture used by `--render` and the
 * benchmark. GTK-free.
 */
#ifndef SV_DOC_H
#define SV_DOC_H

#include <cairo.h>
#include <stdio.h>

#include "flows.h"
#include "fold.h"
#include "render.h"
#include "scene.h"
#include "viewport.h"
#include <slog2/slog.h>

typedef struct sv_doc {
    slog_reader *r;
    const slog_file_info *fi;
    sv_palette pal;
    const char **tl_labels; /* n_timelines, owned by the reader */
    const char **tl_groups;
    uint64_t *tl_keys; /* n_timelines: rank << 32 | thread, the row order */
    const char **cat_names;
} sv_doc;

/* Open path; on failure returns the status and fills err (message names
 * the file). */
slog_status sv_doc_open(sv_doc *d, const char *path, slog_error *err);
void sv_doc_close(sv_doc *d);
/* The time extent to show: [min(0, t_min), t_max], at least 1 µs wide. */
void sv_doc_extent(const sv_doc *d, double *lo, double *hi);

/* Sizes of the composed picture's parts for a W x H image. */
typedef struct sv_compose_geom {
    double overview_h, ruler_h, label_w, gap;
    double canvas_x, canvas_y, canvas_w, canvas_h;
} sv_compose_geom;
void sv_compose_geom_for(double W, double H, sv_compose_geom *g);

/* Draw overview strip, ruler, labels and canvas into cr (W x H). The
 * layout must be built for d; scene and ov may be NULL. */
void sv_compose(cairo_t *cr, double W, double H, const sv_doc *d, const sv_viewport *vp, const sv_layout *lay,
                const sv_scene *scene, const sv_overview *ov);

/* The same with the timelines folded into rows (fold.h); ax places them
 * on the canvas, flows (flows.h) are drawn over them. fold, flows and ov
 * may be NULL. */
void sv_compose_fold(cairo_t *cr, double W, double H, const sv_doc *d, const sv_viewport *vp, const sv_rank_axis *ax,
                     const sv_fold *fold, const sv_flows *flows, const sv_overview *ov);

/* Options of `slog2-view --render`. */
typedef struct sv_headless_opts {
    const char *file;
    const char *out;
    int all;           /* --window all */
    double t0_s, t1_s; /* --window T0:T1 in seconds from trace start */
    int width, height; /* --size */
    int have_timelines;
    unsigned tl_first, tl_last; /* --timelines A-B */
    int print_stats;            /* --stats */
    int dark;                   /* --theme dark */
    unsigned rows;              /* --rows R: fold into at most R rows; 0 = fold
                                only when the timelines do not fit */
    int legend;                 /* --legend: a legend band at the bottom */
    sv_arrow_colour arrows;     /* --messages: what the arrows' colour says */
    const char *message_filter; /* --message-filter: a search (analysis.h)
                                   the drawn messages must match; NULL = all */
    /* The window's Export: its colours and hidden categories (n_categories
     * each; NULL: the file's, all shown), and the scroll of its rows. */
    const uint32_t *rgba;
    const uint8_t *visible;
} sv_headless_opts;

/* --size's bounds, in pixels, for each side. */
#define SV_SIZE_MIN 16
#define SV_SIZE_MAX 16384

/* Parse the argument of --window / --size / --timelines. 0, or -1 when it
 * does not parse; --window also -2 when T0 is not before T1, --size -2
 * when a side is outside SV_SIZE_MIN..SV_SIZE_MAX. */
int sv_parse_window(const char *s, sv_headless_opts *o);
int sv_parse_size(const char *s, sv_headless_opts *o);
int sv_parse_timelines(const char *s, sv_headless_opts *o);
int sv_parse_theme(const char *s, sv_headless_opts *o);
/* --rows R: 1..65536. */
int sv_parse_rows(const char *s, sv_headless_opts *o);
int sv_parse_messages(const char *s, sv_headless_opts *o);

/* Render to out: PNG, or SVG / PDF by its extension (export.h). Errors
 * to errf; returns 0, 1 (the file cannot be read or the image written) or
 * 2 (--window or --timelines outside the file). */
int sv_headless_render(const sv_headless_opts *o, FILE *errf);

#endif
