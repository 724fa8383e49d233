/* SPDX-License-Identifier: MIT */
/* fold.h - timelines folded into rows. When more timelines are shown than
 * fit at a readable height, each row of the canvas (a band of one or more
 * pixels) stands for a range of consecutive timelines and shows, per pixel
 * column, the share of those timelines in each state category, stacked
 * from the band's bottom: a phase where half the ranks wait is a
 * half-height band of the wait colour. Built from slog_reader_grid(), whose
 * cost follows rows x columns rather than the number of timelines, on a
 * worker thread; afterwards read-only, like sv_scene. GTK-free.
 */
#ifndef SV_FOLD_H
#define SV_FOLD_H

#include <cairo.h>
#include <stdint.h>

#include "render.h"
#include "scene.h"
#include "viewport.h"
#include <slog2/slog.h>

/* Rows lower than this (pixels per timeline) are not readable one by one:
 * below it the view folds. */
#define SV_FOLD_MIN_ROW_H 3.0

/* Columns [c0, c1) of a row over which every state category's value is the
 * same and some are above 0: its shares are fold->shares[first, first + n),
 * in the order of the categories. */
typedef struct sv_fold_run {
    uint32_t c0, c1, first, n;
} sv_fold_run;

typedef struct sv_fold_share {
    uint32_t category;
    float value;
} sv_fold_share;

typedef struct sv_fold {
    double t0, t1; /* window the columns cover */
    int width;     /* pixel columns */
    double pixel_ns;
    uint32_t tl_first, tl_last; /* the timelines asked for, inclusive */
    uint32_t n_rows, n_categories;
    uint32_t unit;       /* timelines per unit the rows are made of */
    uint32_t *row_first; /* n_rows + 1: row i holds [row_first[i], row_first[i + 1]) */
    slog_grid *grid;     /* NULL for a fold of a list */
    uint8_t *cat_kind;   /* n_categories slog_kind */
    /* A fold of a list of timelines (sv_fold_query_list): tl_first..tl_last
     * and row_first are positions in the list, list_tl[i] the timeline at
     * position tl_first + i; the values are in own (n_rows x n_categories
     * slots of width floats, own_slot 1 + index, 0: none). */
    uint32_t *list_tl;
    float *own;
    uint32_t *own_slot;
    uint32_t n_tl_file; /* timelines in the file */
    uint32_t max_rows;  /* the rows asked for */
    /* What the canvas draws, built with the fold (on the worker): row i's
     * runs are runs[run_first[i], run_first[i + 1]), in order of columns;
     * columns in none hold no state. A band's pixel row is then a few
     * runs to colour instead of every column's categories. */
    uint32_t *run_first;
    sv_fold_run *runs;
    sv_fold_share *shares;
    slog_query_stats stats;
    double query_ms;
} sv_fold;

/* Fold timelines [first, last] over [t0, t1] into at most max_rows rows of
 * width columns. NULL on error (err filled). Thread-safe with respect to r. */
sv_fold *sv_fold_query(slog_reader *r, double t0, double t1, int width, uint32_t first, uint32_t last,
                       uint32_t max_rows, slog_error *err);
/* Fold positions [first, last] of list (n timeline ids, the order the rows
 * show, e.g. chosen by rowfilter.h) into at most max_rows rows of
 * consecutive positions. Read from the blocks' trees of those timelines
 * alone. NULL on error (err filled). */
sv_fold *sv_fold_query_list(slog_reader *r, double t0, double t1, int width, const uint32_t *list, uint32_t n,
                            uint32_t first, uint32_t last, uint32_t max_rows, slog_error *err);
void sv_fold_free(sv_fold *f);
/* Whether f is what a fold of [first, last] over [t0, t1] in width columns
 * into at most max_rows rows would give: the same window, columns and
 * timelines, and rows asked for or, read from the overview a group a row,
 * as many rows that the overview still answers. The window and the bench
 * keep a fold while this holds. */
int sv_fold_serves(const sv_fold *f, const slog_file_info *fi, double t0, double t1, int width, uint32_t first,
                   uint32_t last, uint32_t max_rows);
/* A label names the rows from its first to just before the next one's,
 * each at least SV_FOLD_LABEL_H pixels high: with bands of a pixel or two
 * a label covers dozens of rows, with tall bands one. Slots start at row 0
 * of the fold, so they do not shift as the rows pan. The last row of the
 * slot that starts at row i: the first row whose band ends min_h below
 * row i's start (the fold's last if none does), or the fold's last row
 * when the rows after that one end less than min_h below it. */
#define SV_FOLD_LABEL_H 15.0
uint32_t sv_fold_label_rows(const sv_fold *f, const sv_rank_axis *ax, uint32_t i, double min_h);

/* Label of rows i..j of f into buf (sv_fold_range_label, or for a list
 * the first timeline's label and how many more). */
void sv_fold_rows_label(const sv_fold *f, uint32_t i, uint32_t j, const uint64_t *keys, const char *const *labels,
                        char *buf, size_t size);
/* The width values of (row, category), or NULL where all are 0. */
const float *sv_fold_values(const sv_fold *f, uint32_t row, uint32_t category);
/* Row holding timeline tl, or -1. */
long sv_fold_row_of(const sv_fold *f, uint32_t tl);
/* Column of time t, or -1 outside the window. */
long sv_fold_col_of(const sv_fold *f, double t);

/* Above this many drawables (estimated from the file's mean per timeline)
 * a fold of a range of timelines is snapped to the overview's groups. */
#define SV_FOLD_DIRECT_DRAWABLES 50000.0

/* Widen timelines [*first, *last] to whole overview groups and make *rows
 * at most their number, when reading them one by one from the blocks'
 * trees would decode more than SV_FOLD_DIRECT_DRAWABLES: the grid is then
 * read from the overview tree, at a cost that follows rows x columns
 * (rows of a group or more instead of one timeline). Returns 1 when it
 * did so (the range may have been whole groups already), 0 when the range
 * is to be read timeline by timeline. */
int sv_fold_snap(const slog_file_info *fi, uint32_t *first, uint32_t *last, uint32_t *rows);

/* The fold a canvas height pixels high shows for the rank axis ax and the
 * window [t0, t1] over width columns: the visible timelines, a row a pixel,
 * snapped (sv_fold_snap). Where it snaps and the overview can answer the
 * window, every timeline a group a row (at most four rows a pixel): one
 * fold then serves every rank zoom and pan of that time window, and its
 * fit (the canvas clips the bands it does not show). */
void sv_fold_want(const slog_file_info *fi, const sv_rank_axis *ax, double height, double t0, double t1, int width,
                  uint32_t *first, uint32_t *last, uint32_t *rows);

/* How many rows to fold timelines [first, last] into for a canvas
 * height pixels high: 0 when they fit at SV_FOLD_MIN_ROW_H each (no
 * folding), else one row per pixel. rows_opt (--rows) > 0 forces folding
 * into at most that many. */
uint32_t sv_fold_rows_for(uint32_t first, uint32_t last, double height, uint32_t rows_opt);

/* The rows' band [*y0, *y1) on the canvas (real-valued, may lie outside). */
void sv_fold_band(const sv_fold *f, const sv_rank_axis *ax, uint32_t row, double *y0, double *y1);
/* Row whose band holds canvas y, or -1. */
long sv_fold_row_at(const sv_fold *f, const sv_rank_axis *ax, double y);

typedef struct sv_fold_params {
    const sv_viewport *vp;
    const sv_rank_axis *ax;
    const sv_fold *fold; /* may be NULL (nothing loaded yet) */
    const sv_palette *pal;
    long hover_row; /* fold row under the pointer or -1 */
    int have_range;
    double range_t0, range_t1;
} sv_fold_params;

/* The folded canvas: background, grid, each row's stacked shares (drawn
 * with exact vertical coverage, so a band of a pixel mixes the colours in
 * proportion), event counts as ticks where bands are tall enough. */
void sv_render_fold(cairo_t *cr, double w, double h, const sv_fold_params *p);
/* The bands and event ticks of sv_render_fold (no grid, hover or range)
 * into w x h pixels (premultiplied ARGB32, stride in pixels), every pixel
 * written. -1 (nothing written) without a fold or memory. */
int sv_fold_draw_bands(uint32_t *px, int stride, int w, int h, const sv_fold_params *p);

/* Label text of timelines [a, b] into buf: "ranks 0–127" where the
 * timelines are ranks' only threads (keys: rank << 32 | thread; may be
 * NULL), else "timelines 0–127"; one timeline gets its own label. */
void sv_fold_range_label(uint32_t a, uint32_t b, const uint64_t *keys, const char *const *labels, char *buf,
                         size_t size);

/* The labels column beside a folded canvas: ranges at least a label's
 * height apart, each with a bracket along the rows it names. */
void sv_render_fold_labels(cairo_t *cr, double w, double h, const sv_fold *f, const sv_rank_axis *ax,
                           const uint64_t *keys, const char *const *labels, long hover_row);

/* The whole-trace overview strip from a one-row grid of every timeline
 * (sv_fold_query with max_rows 1). */
sv_overview *sv_overview_from_fold(const sv_fold *f);
/* Mark on the overview strip (w x h) which timelines the canvas shows,
 * as a bar along its right edge: the extent is the strip's height. */
void sv_render_overview_ranks(cairo_t *cr, double w, double h, const sv_rank_axis *ax);

/* Shares of row at column col: the states' values (0..1) into shares
 * (n_categories floats; arrows and events get their counts). Returns the
 * number of timelines the row holds, 0 when row or col is out of range. */
uint32_t sv_fold_shares(const sv_fold *f, uint32_t row, long col, float *shares);

#endif
