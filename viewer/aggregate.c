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
    if (n_bins == 0 || hi <= lo || !(pixel_ns > 0) || width <= 0)
        return;
    double bw = (double)(hi - lo) / n_bins;
    /* In pixel units: bin b covers [x + b*dx, x + (b+1)*dx). A bin is at
     * most a pixel wide here (the query hands out previews only then), so
     * it usually falls inside one column or straddles two: handle those
     * without the general loop. FRACTION: v of the bin is covered, so a
     * column gets v * overlap (px); COUNT: v items spread over dx. */
    double x = ((double)lo - t0) / pixel_ns, dx = bw / pixel_ns;
    for (uint32_t b = 0; b < n_bins; b++) {
        float v = values[b];
        if (v == 0)
            continue;
        double per_px = mode == SV_AGG_FRACTION ? v : v / dx;
        double x0 = x + b * dx, x1 = x0 + dx;
        if (x1 <= 0 || x0 >= width)
            continue;
        double f0 = floor(x0);
        if (x0 >= 0 && x1 <= width && x1 <= f0 + 2) {
            int i = (int)f0;
            if (x1 <= f0 + 1) {
                cols[i] += (float)(per_px * dx);
            } else {
                cols[i] += (float)(per_px * (f0 + 1 - x0));
                cols[i + 1] += (float)(per_px * (x1 - f0 - 1));
            }
            continue;
        }
        double s = lo + b * bw, e = s + bw;
        spread(cols, width, t0, pixel_ns, s, e, mode == SV_AGG_FRACTION ? v / pixel_ns : v / bw);
    }
}

void sv_aggregate_interval(float *cols, int width, double t0, double pixel_ns,
                           double s, double e, double weight)
{
    spread(cols, width, t0, pixel_ns, s, e, weight / pixel_ns);
}
