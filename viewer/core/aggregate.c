/* SPDX-License-Identifier: MIT */
/* aggregate.c - see aggregate.h. */
#include "aggregate.h"

#include <slog2/slog.h>

/* The arithmetic is libslog's (slog_spread*), shared with slog2-print
 * --preview, so what is printed is what is drawn. */
void sv_aggregate_bins(float *cols, int width, double t0, double pixel_ns, int64_t lo, int64_t hi, uint32_t n_bins,
                       const float *values, sv_agg_mode mode)
{
    if (width <= 0) return;
    slog_spread_bins(cols, (uint32_t)width, t0, pixel_ns, lo, hi, n_bins, values, mode == SV_AGG_FRACTION);
}

void sv_aggregate_interval(float *cols, int width, double t0, double pixel_ns, double s, double e, double weight)
{
    if (width <= 0 || !(pixel_ns > 0)) return;
    slog_spread(cols, (uint32_t)width, t0, pixel_ns, s, e, weight / pixel_ns);
}
