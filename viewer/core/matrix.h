/* SPDX-License-Identifier: MIT */
/* matrix.h - the communication matrix of the viewer's Matrix window:
 * slog_reader_analyse's cells (sender timeline x receiver timeline) folded
 * into groups of consecutive timelines when there are more timelines than
 * the plot has pixels, its heat map drawn with Cairo (log colour scale,
 * legend, hover outline), hit testing, the search for a cell's messages
 * and the CSV slog2-print --matrix writes. GTK-free: tests draw it on an
 * image surface (docs/ANALYSIS.md, "Viewer"). */
#ifndef SV_MATRIX_H
#define SV_MATRIX_H

#include <cairo.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include <slog2/slog.h>

/* What a cell's colour says. */
typedef enum sv_matrix_metric {
    SV_MATRIX_MESSAGES = 0, /* messages sent (the default) */
    SV_MATRIX_BYTES,        /* their known sizes, summed */
    SV_MATRIX_MEAN_BYTES,   /* bytes over the messages of known size */
    SV_MATRIX_TIME,         /* transfer time (receive - send), summed */
    SV_MATRIX_MEAN_TIME,    /* transfer time over the messages */
    SV_N_MATRIX_METRICS
} sv_matrix_metric;

/* "messages", "bytes", "mean-bytes", "time", "mean-time"; the parser
 * returns -1 for another word. The label is what a user reads. */
const char *sv_matrix_metric_name(sv_matrix_metric m);
const char *sv_matrix_metric_label(sv_matrix_metric m);
int sv_matrix_metric_parse(const char *s);

/* One cell's (or a group of cells') sums. */
typedef struct sv_matrix_sum {
    uint64_t messages, bytes, unknown_bytes;
    int64_t time_ns;
} sv_matrix_sum;

/* A metric's value for s into *v: 0 when it has none (no messages; for
 * the mean size, none of known size), else 1. */
int sv_matrix_value(const sv_matrix_sum *s, sv_matrix_metric m, double *v);
/* The value as text ("1.2 MiB", "3.4 ms", "120"). */
void sv_matrix_format_value(sv_matrix_metric m, double v, char *buf, size_t size);

/* A cell with messages: its sender and receiver groups and its sums. */
typedef struct sv_matrix_cell_sum {
    uint32_t sender, receiver;
    sv_matrix_sum sum;
} sv_matrix_cell_sum;

/* The cells folded: timeline t is in group t / group, rows are senders and
 * columns receivers. Only the cells with messages are kept (a side of
 * thousands of groups would take gigabytes as a square). */
typedef struct sv_matrix {
    uint32_t n_timelines;
    uint32_t group;            /* timelines per group (1: not folded) */
    uint32_t n_groups;         /* per side */
    sv_matrix_cell_sum *cells; /* by (sender, receiver) */
    size_t n_cells;
    sv_matrix_sum total;
    uint64_t n_pairs; /* (sender, receiver) timeline pairs with messages */
} sv_matrix;

/* Fold the n cells c (slog_analysis_matrix) over n_timelines into at most
 * max_groups groups per side (0 = one per timeline). Cells naming a
 * timeline >= n_timelines are left out. 0, or -1 when out of memory (m
 * then empty). Free with sv_matrix_clear. */
int sv_matrix_fold(sv_matrix *m, const slog_matrix_cell *c, size_t n, uint32_t n_timelines, uint32_t max_groups);
void sv_matrix_clear(sv_matrix *m);
/* The timelines of group g: [*first, *last]. */
void sv_matrix_group_range(const sv_matrix *m, uint32_t g, uint32_t *first, uint32_t *last);
/* A cell's sums (zero for an empty cell), NULL outside the matrix. */
const sv_matrix_sum *sv_matrix_cell(const sv_matrix *m, uint32_t sender_group, uint32_t receiver_group);
/* The smallest and largest positive value of the metric over the cells;
 * returns how many cells have a positive value (0: lo = hi = 0). *n_other:
 * cells with a value that is not positive (transfer times where clocks
 * disagree), may be NULL. */
uint64_t sv_matrix_range(const sv_matrix *m, sv_matrix_metric metric, double *lo, double *hi, uint64_t *n_other);
/* The colour (0xRRGGBBAA) of a value on the log scale [lo, hi]: the
 * message scale of the timeline (theme.h sv_ramp_rgba), low blue to high
 * orange. */
uint32_t sv_matrix_colour(double v, double lo, double hi);
/* The colour of a cell whose value is not positive. */
#define SV_MATRIX_OTHER_RGBA 0x9a9996ffu

/* Where the parts go in a w x h picture: the square plot, the axis labels
 * left and above it, the legend below. */
typedef struct sv_matrix_geom {
    double x, y, side; /* the plot */
    double legend_x, legend_y, legend_w, legend_h;
} sv_matrix_geom;
void sv_matrix_geom_for(double w, double h, sv_matrix_geom *g);
/* The most groups per side the plot can show, a pixel each. */
uint32_t sv_matrix_geom_max_groups(const sv_matrix_geom *g);
/* The cell under (x, y): 1 and its groups, or 0 outside the plot. */
int sv_matrix_hit(const sv_matrix *m, const sv_matrix_geom *g, double x, double y, uint32_t *sender_group,
                  uint32_t *receiver_group);
/* Cell (sender_group, receiver_group)'s rectangle in the picture. */
void sv_matrix_cell_rect(const sv_matrix *m, const sv_matrix_geom *g, uint32_t sender_group, uint32_t receiver_group,
                         double *x, double *y, double *w, double *h);

/* Draw the heat map into cr (w x h, origin top-left) in the current theme
 * (theme.h): the cells of m by metric, a cell's value outside [lo, hi] of
 * sv_matrix_range never; axis labels (timeline ids); the legend (the
 * scale with its ends, and the colour of non-positive values when there
 * are some). hover_s / hover_r: a cell to outline, or -1. caption (may be
 * NULL): a line above the legend (the window). */
void sv_render_matrix(cairo_t *cr, double w, double h, const sv_matrix *m, sv_matrix_metric metric, long hover_s,
                      long hover_r, const char *caption);

/* The first message (arrow of any category) sent in [t0, t1] by a
 * timeline in [s0, s1] to one in [r0, r1], scanning forward from t0 in
 * growing windows over the senders' timelines only, so that a cell's
 * first message costs little whatever the window. 1 found (out filled, as
 * sv_search_find fills it), 0 none, a negative slog_status on error (err
 * filled). cancel may be NULL. */
int sv_matrix_find(slog_reader *r, int64_t t0, int64_t t1, uint32_t s0, uint32_t s1, uint32_t r0, uint32_t r1,
                   sv_cancel_fn cancel, void *cancel_user, sv_found *out, slog_error *err);

/* The CSV of `slog2-print --matrix --format csv` for the n cells c, byte
 * for byte. Returns 0, or -1 on a write error. */
int sv_matrix_write_csv(FILE *f, const slog_matrix_cell *c, size_t n);

#endif
