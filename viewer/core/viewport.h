/* SPDX-License-Identifier: MIT */
/* viewport.h - the pure geometry of the timeline view: time <-> pixel
 * mapping, zoom around a point, pan clamping, ruler tick choice and the
 * vertical row layout. Plain C11, no GTK, no Cairo, so it is unit-tested
 * without a display (libshumate keeps ShumateViewport apart from ShumateMap
 * for the same reason).
 *
 * Times are nanoseconds from the trace start, kept as double so that zoom is
 * smooth; a double holds every integer ns up to 2^53 ns (104 days) exactly.
 */
#ifndef SV_VIEWPORT_H
#define SV_VIEWPORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Narrowest window we zoom to: at this span one pixel is well below 1 ns. */
#define SV_MIN_SPAN_NS 50.0

typedef struct sv_viewport {
    double lo, hi; /* extent the window may move in (the trace span) */
    double t0, t1; /* visible window, lo <= t0 < t1 <= hi */
    double width;  /* canvas width in pixels (> 0) */
} sv_viewport;

/* Set the extent [lo, hi] and show all of it ("fit"). An empty or inverted
 * extent is widened to SV_MIN_SPAN_NS. width <= 0 is taken as 1. */
void sv_viewport_init(sv_viewport *vp, double lo, double hi, double width);
void sv_viewport_set_width(sv_viewport *vp, double width);
void sv_viewport_fit(sv_viewport *vp);

/* Show [t0, t1], clamped into the extent; the span is at least
 * SV_MIN_SPAN_NS and at most the extent. */
void sv_viewport_set_window(sv_viewport *vp, double t0, double t1);

double sv_viewport_span(const sv_viewport *vp);
/* Nanoseconds per pixel. */
double sv_viewport_pixel_ns(const sv_viewport *vp);
double sv_viewport_time_to_x(const sv_viewport *vp, double t);
double sv_viewport_x_to_time(const sv_viewport *vp, double x);

/* Zoom by factor (> 1 zooms in) keeping the time under pixel x where it is
 * (as far as clamping allows). Returns 1 if the window changed. */
int sv_viewport_zoom_at(sv_viewport *vp, double factor, double x);
/* Move the window by dx pixels (positive = later times appear, i.e. the
 * content moves left), clamped at the extent. Returns 1 if it changed. */
int sv_viewport_pan_px(sv_viewport *vp, double dx);
/* Same in nanoseconds. */
int sv_viewport_pan_ns(sv_viewport *vp, double dt);
/* Center the window on t keeping its span. */
void sv_viewport_center_on(sv_viewport *vp, double t);
int sv_viewport_equal(const sv_viewport *a, const sv_viewport *b);

/* ------------------------------------------------------------------ ticks */

typedef struct sv_unit {
    const char *name; /* "s", "ms", "µs", "ns" */
    double ns;        /* nanoseconds per unit */
} sv_unit;

/* Ruler ticks: major ticks at first + i*step (i < n) carry labels; a label
 * for tick time t is (t - anchor) / unit.ns printed with `decimals`
 * decimals, followed by the unit name. When the window is far from 0 the
 * labels would be long ("12345678.1 µs"), so an anchor is chosen and shown
 * once at the left of the ruler; otherwise anchor is 0. */
typedef struct sv_ticks {
    double step;       /* ns between major ticks: 1, 2 or 5 x 10^k */
    double minor_step; /* ns between minor ticks */
    double first;      /* first major tick >= t0 */
    int n;             /* number of major ticks in [t0, t1] */
    sv_unit unit;
    int decimals;
    double anchor; /* ns subtracted before printing */
} sv_ticks;

/* Smallest 1-2-5 x 10^k value >= raw (raw > 0). Sets *mantissa to 1, 2 or 5
 * when mantissa is non-NULL. */
double sv_nice_step(double raw, int *mantissa);
/* Unit to print a step of `step` ns in: the largest unit u with
 * step >= u.ns, or ns. */
sv_unit sv_unit_for(double step);
/* Choose ticks for [t0, t1] drawn over width pixels with at least
 * min_px pixels between labelled ticks. */
void sv_ticks_choose(double t0, double t1, double width, double min_px, sv_ticks *out);
/* Label for a major tick: "12.5 ms" style, into buf (>= 32 bytes). */
void sv_ticks_label(const sv_ticks *tk, double t, char *buf, size_t size);

/* Human duration with 3 significant digits: "1.23 ms", "15 ns", "2.50 s". */
void sv_format_duration(double ns, char *buf, size_t size);
/* Exact time from trace start: "1.234567890 s" (always seconds, 9 decimals
 * trimmed to what is needed, at least 3). */
void sv_format_time(int64_t ns, char *buf, size_t size);
/* Bytes: "512 B", "1.5 KiB", "3.20 MiB". */
void sv_format_bytes(double bytes, char *buf, size_t size);

/* ------------------------------------------------------------------ rows */

/* Vertical layout: timelines in rows, grouped under a header row per group
 * (host) when any timeline has a non-empty group. */
typedef struct sv_row {
    int32_t timeline; /* timeline id, or -1 for a group header */
    int32_t group;    /* index into sv_layout.group_names */
    double y, h;      /* content coordinates (before scrolling) */
} sv_row;

typedef struct sv_layout {
    size_t n_rows;
    sv_row *rows;
    size_t n_groups;
    char **group_names;
    uint32_t n_timelines;     /* timelines in the file */
    int32_t *row_of_timeline; /* n_timelines entries, -1 = not shown */
    double total_h;
} sv_layout;

/* Build rows for the timelines [first, last] (inclusive, clamped) out of
 * n_timelines, whose groups are given by groups[i] (NULL or "" = none).
 * Groups come in order of first appearance; within a group the rows go by
 * keys[i], then timeline id (keys NULL: by id). Header rows are header_h
 * high, timeline rows row_h. Returns 0 or -1 on allocation failure. Free
 * with sv_layout_clear. */
int sv_layout_build(sv_layout *lay, uint32_t n_timelines, const char *const *groups, const uint64_t *keys,
                    uint32_t first, uint32_t last, double row_h, double header_h);
/* Rows for the timelines of list[0..n), in that order, row_h high, with no
 * headers (rows chosen by an expression, rowfilter.h). Returns 0 or -1. */
int sv_layout_build_list(sv_layout *lay, uint32_t n_timelines, const uint32_t *list, uint32_t n, double row_h);
void sv_layout_clear(sv_layout *lay);
/* Row at content coordinate y, or -1. */
long sv_layout_row_at(const sv_layout *lay, double y);
/* Timeline tl's row, or NULL when it is not shown. */
const sv_row *sv_layout_row_of(const sv_layout *lay, uint32_t tl);
/* Change the row heights keeping the structure. */
void sv_layout_set_heights(sv_layout *lay, double row_h, double header_h);
/* Number of timeline rows (not headers). */
size_t sv_layout_n_timeline_rows(const sv_layout *lay);

/* Clamp a vertical scroll offset so that [off, off+view_h] stays in the
 * content (0 when everything fits). */
double sv_clamp_scroll(double off, double content_h, double view_h);

#ifdef __cplusplus
}
#endif
/* Height of the timeline rows when n_rows of them and n_headers group
 * headers (header_h high) share avail pixels: the rows fill avail, at least
 * min_h high (more rows scroll) and at most a quarter of avail or 96 px,
 * whichever is more (fewer than 4 rows leave the rest empty). Whole pixels. */
double sv_fit_row_height(double avail, size_t n_rows, size_t n_headers, double header_h, double min_h);
/* The group headers' height that goes with rows row_h high in that rule:
 * header_h, or three quarters of a row (at least 1 px) when rows are lower. */
double sv_fit_header_height(double row_h, double header_h);

/* ------------------------------------------------------------- rank axis */

/* The vertical counterpart of sv_viewport when timelines are too many for
 * a row each: which timelines the canvas shows, as a continuous range so
 * that zooming is smooth. Timeline k occupies [k, k + 1) on the axis. */
typedef struct sv_rank_axis {
    double lo, hi; /* extent: the timelines that can be shown, [lo, hi) */
    double r0, r1; /* visible range, lo <= r0 < r1 <= hi, at least one timeline */
    double height; /* canvas height in pixels (> 0) */
} sv_rank_axis;

/* Show timelines [lo, hi) over height pixels ("fit"); hi <= lo is widened
 * to one timeline, height <= 0 taken as 1. */
void sv_rank_axis_init(sv_rank_axis *ax, double lo, double hi, double height);
void sv_rank_axis_set_height(sv_rank_axis *ax, double height);
void sv_rank_axis_fit(sv_rank_axis *ax);
/* Show [r0, r1), clamped into the extent, at least one timeline wide. */
void sv_rank_axis_set_range(sv_rank_axis *ax, double r0, double r1);
double sv_rank_axis_to_y(const sv_rank_axis *ax, double r);
double sv_rank_axis_y_to_rank(const sv_rank_axis *ax, double y);
/* Zoom by factor (> 1 zooms in) keeping the timeline under pixel y where it
 * is; pan by dy pixels (positive: later timelines come into view). Both
 * return 1 when the range changed. */
int sv_rank_axis_zoom_at(sv_rank_axis *ax, double factor, double y);
int sv_rank_axis_pan_px(sv_rank_axis *ax, double dy);
int sv_rank_axis_equal(const sv_rank_axis *a, const sv_rank_axis *b);
/* Pixels per timeline. */
double sv_rank_axis_row_h(const sv_rank_axis *ax);
/* Whole timelines at least partly visible: [*first, *last]. */
void sv_rank_axis_visible(const sv_rank_axis *ax, uint32_t *first, uint32_t *last);

/* A rubber band smaller than this (pixels) along an axis leaves that axis. */
#define SV_RECT_MIN_PX 3.0
/* Zoom to the rectangle between canvas points (x0, y0) and (x1, y1) (y
 * from the canvas top, below the ruler): the time window its x extent
 * covers and, with ax, the whole timelines its y extent touches. An extent
 * under SV_RECT_MIN_PX leaves its axis as it is. Returns 1 when either
 * changed. */
int sv_zoom_to_rect(sv_viewport *vp, sv_rank_axis *ax, double x0, double y0, double x1, double y1);

#endif
