/* SPDX-License-Identifier: MIT */
/* aggregate.h - fold preview bins and intervals into screen pixel columns.
 *
 * A query in preview mode returns, per tree node too fine to draw, bins of
 * equal width over [lo, hi) per (timeline, category) row (slog.h,
 * slog_preview). The viewer draws one value per pixel column, so bins are
 * re-sampled onto the columns of the window by overlap. Pure C, tested in
 * tests/viewer/test_aggregate.c.
 */
#ifndef SV_AGGREGATE_H
#define SV_AGGREGATE_H

#include <stdint.h>

typedef enum sv_agg_mode {
    /* Bin values are the fraction of the bin covered (states). A column
     * receives sum(value * overlap) / column_width: the fraction of the
     * column covered. */
    SV_AGG_FRACTION = 0,
    /* Bin values are counts (arrows, events). A bin's count is split over
     * the columns it overlaps in proportion to the overlap, so the column
     * totals sum to the bin totals inside the window. */
    SV_AGG_COUNT = 1
} sv_agg_mode;

/* Columns: cols[i] covers [t0 + i*pixel_ns, t0 + (i+1)*pixel_ns), i < width.
 * Add the n_bins bins of [lo, hi) into them. Parts outside are dropped. */
void sv_aggregate_bins(float *cols, int width, double t0, double pixel_ns, int64_t lo, int64_t hi, uint32_t n_bins,
                       const float *values, sv_agg_mode mode);

/* Add the coverage of the interval [s, e] (a state) into columns as
 * fractions (weight 1 = fully covered). */
void sv_aggregate_interval(float *cols, int width, double t0, double pixel_ns, double s, double e, double weight);

#endif
