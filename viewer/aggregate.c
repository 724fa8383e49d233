/* aggregate.c - see aggregate.h. */
#include "aggregate.h"

#include <math.h>

/* Add `amount_per_ns * overlap` for [s, e) into the columns it overlaps. */
static void spread(float *cols, int width, double t0, double pixel_ns, double s,
                   double e, double amount_per_ns)
{
    if (!(e > s) || !(pixel_ns > 0) || width <= 0)
        return;
    double x0 = (s - t0) / pixel_ns, x1 = (e - t0) / pixel_ns;
    if (x1 <= 0 || x0 >= width)
        return;
    if (x0 < 0)
        x0 = 0;
    if (x1 > width)
        x1 = width;
    int i0 = (int)floor(x0), i1 = (int)ceil(x1);
    if (i1 > width)
        i1 = width;
    for (int i = i0; i < i1; i++) {
        double a = i > x0 ? i : x0;
        double b = i + 1 < x1 ? i + 1 : x1;
        if (b > a)
            cols[i] += (float)(amount_per_ns * (b - a) * pixel_ns);
    }
}

void sv_aggregate_bins(float *cols, int width, double t0, double pixel_ns,
                       int64_t lo, int64_t hi, uint32_t n_bins,
                       const float *values, sv_agg_mode mode)
{
    if (n_bins == 0 || hi <= lo || !(pixel_ns > 0))
        return;
    double bw = (double)(hi - lo) / n_bins;
    for (uint32_t b = 0; b < n_bins; b++) {
        float v = values[b];
        if (v == 0)
            continue;
        double s = lo + b * bw, e = s + bw;
        /* FRACTION: v of the bin is covered, spread evenly; per column
         * divide by the column width. COUNT: v items spread over bw. */
        double per_ns = mode == SV_AGG_FRACTION ? v / pixel_ns : v / bw;
        spread(cols, width, t0, pixel_ns, s, e, per_ns);
    }
}

void sv_aggregate_interval(float *cols, int width, double t0, double pixel_ns,
                           double s, double e, double weight)
{
    spread(cols, width, t0, pixel_ns, s, e, weight / pixel_ns);
}
