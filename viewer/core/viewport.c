/* SPDX-License-Identifier: MIT */
/* viewport.c - see viewport.h. */
#include "viewport.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Keep the window inside the extent, preserving its span where possible. */
static void viewport_clamp(sv_viewport *vp)
{
    double ext = vp->hi - vp->lo;
    double span = vp->t1 - vp->t0;
    if (!(span >= SV_MIN_SPAN_NS)) span = SV_MIN_SPAN_NS;
    if (span > ext) span = ext;
    if (vp->t0 < vp->lo) vp->t0 = vp->lo;
    if (vp->t0 + span > vp->hi) vp->t0 = vp->hi - span;
    vp->t1 = vp->t0 + span;
}

void sv_viewport_init(sv_viewport *vp, double lo, double hi, double width)
{
    if (!(hi - lo >= SV_MIN_SPAN_NS)) hi = lo + SV_MIN_SPAN_NS;
    vp->lo = lo;
    vp->hi = hi;
    vp->width = width > 0 ? width : 1;
    sv_viewport_fit(vp);
}

void sv_viewport_set_width(sv_viewport *vp, double width)
{
    vp->width = width > 0 ? width : 1;
}

void sv_viewport_fit(sv_viewport *vp)
{
    vp->t0 = vp->lo;
    vp->t1 = vp->hi;
}

void sv_viewport_set_window(sv_viewport *vp, double t0, double t1)
{
    if (t1 < t0) {
        double s = t0;
        t0 = t1;
        t1 = s;
    }
    if (t1 - t0 < SV_MIN_SPAN_NS) {
        double c = (t0 + t1) / 2;
        t0 = c - SV_MIN_SPAN_NS / 2;
        t1 = c + SV_MIN_SPAN_NS / 2;
    }
    vp->t0 = t0;
    vp->t1 = t1;
    viewport_clamp(vp);
}

double sv_viewport_span(const sv_viewport *vp)
{
    return vp->t1 - vp->t0;
}

double sv_viewport_pixel_ns(const sv_viewport *vp)
{
    return (vp->t1 - vp->t0) / vp->width;
}

double sv_viewport_time_to_x(const sv_viewport *vp, double t)
{
    return (t - vp->t0) * vp->width / (vp->t1 - vp->t0);
}

double sv_viewport_x_to_time(const sv_viewport *vp, double x)
{
    return vp->t0 + x * (vp->t1 - vp->t0) / vp->width;
}

int sv_viewport_zoom_at(sv_viewport *vp, double factor, double x)
{
    if (!(factor > 0)) return 0;
    sv_viewport old = *vp;
    double ext = vp->hi - vp->lo;
    double span = clampd((vp->t1 - vp->t0) / factor, SV_MIN_SPAN_NS, ext);
    double frac = clampd(x / vp->width, 0, 1);
    double t = vp->t0 + frac * (vp->t1 - vp->t0);
    vp->t0 = t - frac * span;
    vp->t1 = vp->t0 + span;
    viewport_clamp(vp);
    return !sv_viewport_equal(&old, vp);
}

int sv_viewport_pan_ns(sv_viewport *vp, double dt)
{
    sv_viewport old = *vp;
    double span = vp->t1 - vp->t0;
    vp->t0 = clampd(vp->t0 + dt, vp->lo, vp->hi - span);
    vp->t1 = vp->t0 + span;
    return !sv_viewport_equal(&old, vp);
}

int sv_viewport_pan_px(sv_viewport *vp, double dx)
{
    return sv_viewport_pan_ns(vp, dx * sv_viewport_pixel_ns(vp));
}

void sv_viewport_center_on(sv_viewport *vp, double t)
{
    double span = vp->t1 - vp->t0;
    vp->t0 = t - span / 2;
    vp->t1 = vp->t0 + span;
    viewport_clamp(vp);
}

int sv_viewport_equal(const sv_viewport *a, const sv_viewport *b)
{
    return a->t0 == b->t0 && a->t1 == b->t1 && a->width == b->width;
}

/* ------------------------------------------------------------------ ticks */

static const sv_unit UNITS[] = {
    {"s", 1e9},
    {"ms", 1e6},
    {"\xc2\xb5s", 1e3},
    {"ns", 1},
};

double sv_nice_step(double raw, int *mantissa)
{
    if (!(raw > 0)) raw = 1;
    double p = pow(10, floor(log10(raw)));
    /* Guard against log10 rounding: p must satisfy p <= raw < 10p. */
    if (p > raw) p /= 10;
    if (p * 10 <= raw) p *= 10;
    static const int M[] = {1, 2, 5, 10};
    for (int i = 0; i < 4; i++) {
        /* A relative epsilon keeps an exact 2e6 from becoming 5e6. */
        if (M[i] * p >= raw * (1 - 1e-12)) {
            if (mantissa) *mantissa = M[i] == 10 ? 1 : M[i];
            return M[i] * p;
        }
    }
    if (mantissa) *mantissa = 1;
    return 10 * p;
}

sv_unit sv_unit_for(double step)
{
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++)
        if (step >= UNITS[i].ns) return UNITS[i];
    return UNITS[3];
}

static int decimals_for(double step, double unit_ns)
{
    double v = step / unit_ns;
    int d = 0;
    while (d < 9 && fabs(v * pow(10, d) - floor(v * pow(10, d) + 0.5)) > 1e-6) d++;
    return d;
}

void sv_ticks_choose(double t0, double t1, double width, double min_px, sv_ticks *out)
{
    memset(out, 0, sizeof *out);
    if (!(t1 > t0)) t1 = t0 + 1;
    if (!(width > 0)) width = 1;
    if (!(min_px > 0)) min_px = 80;
    int m = 1;
    double raw = (t1 - t0) * min_px / width;
    if (raw < 1) raw = 1; /* never below one nanosecond */
    out->step = sv_nice_step(raw, &m);
    /* 1 -> 5 minor, 2 -> 4 minor (0.5 apart), 5 -> 5 minor */
    out->minor_step = m == 2 ? out->step / 4 : out->step / 5;
    if (out->minor_step < 1) out->minor_step = out->step;
    out->first = ceil(t0 / out->step) * out->step;
    out->n = (int)floor((t1 - out->first) / out->step) + 1;
    if (out->n < 0) out->n = 0;
    out->unit = sv_unit_for(out->step);
    out->decimals = decimals_for(out->step, out->unit.ns);
    /* Labels longer than ~6 integer digits get an anchor: a multiple of
     * 1000 units below t0, so labels stay short and still unambiguous. */
    double far = fmax(fabs(t0), fabs(t1)) / out->unit.ns;
    out->anchor = 0;
    if (far >= 1e5) {
        double block = out->unit.ns * 1000;
        out->anchor = floor(t0 / block) * block;
    }
}

static void trim_zeros(char *s)
{
    char *dot = strchr(s, '.');
    if (!dot) return;
    char *e = s + strlen(s) - 1;
    while (e > dot && *e == '0') *e-- = 0;
    if (e == dot) *e = 0;
}

void sv_ticks_label(const sv_ticks *tk, double t, char *buf, size_t size)
{
    double v = (t - tk->anchor) / tk->unit.ns;
    if (fabs(v) < 1e-9) v = 0;
    snprintf(buf, size, "%s%.*f %s", tk->anchor != 0 ? "+" : "", tk->decimals, v, tk->unit.name);
}

void sv_format_duration(double ns, char *buf, size_t size)
{
    double a = fabs(ns);
    sv_unit u = sv_unit_for(a > 0 ? a : 1);
    double v = ns / u.ns;
    int d = fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2;
    if (u.ns == 1) d = 0;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", d, v);
    trim_zeros(tmp);
    snprintf(buf, size, "%s %s", tmp, u.name);
}

void sv_format_time(int64_t ns, char *buf, size_t size)
{
    const char *sign = ns < 0 ? "-" : "";
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    char frac[16];
    snprintf(frac, sizeof frac, "%09llu", (unsigned long long)(a % 1000000000ull));
    int len = 9;
    while (len > 3 && frac[len - 1] == '0') frac[--len] = 0;
    snprintf(buf, size, "%s%llu.%s s", sign, (unsigned long long)(a / 1000000000ull), frac);
}

void sv_format_bytes(double bytes, char *buf, size_t size)
{
    static const char *const U[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    double v = bytes;
    while (fabs(v) >= 1024 && i < 4) {
        v /= 1024;
        i++;
    }
    if (i == 0)
        snprintf(buf, size, "%.0f B", bytes);
    else {
        char tmp[64];
        snprintf(tmp, sizeof tmp, "%.*f", fabs(v) >= 100 ? 0 : fabs(v) >= 10 ? 1 : 2, v);
        trim_zeros(tmp);
        snprintf(buf, size, "%s %s", tmp, U[i]);
    }
}

/* ------------------------------------------------------------------ rows */

void sv_layout_clear(sv_layout *lay)
{
    free(lay->rows);
    for (size_t i = 0; i < lay->n_groups; i++) free(lay->group_names[i]);
    free(lay->group_names);
    free(lay->row_of_timeline);
    memset(lay, 0, sizeof *lay);
}

/* qsort context: C11 has no qsort_r, and layouts are built on the UI
 * thread only. */
static const uint64_t *sort_keys;

static int by_key(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_keys[x] != sort_keys[y]) return sort_keys[x] < sort_keys[y] ? -1 : 1;
    return x < y ? -1 : x > y;
}

int sv_layout_build(sv_layout *lay, uint32_t n_timelines, const char *const *groups, const uint64_t *keys,
                    uint32_t first, uint32_t last, double row_h, double header_h)
{
    memset(lay, 0, sizeof *lay);
    lay->n_timelines = n_timelines;
    if (n_timelines == 0) return 0;
    if (last >= n_timelines) last = n_timelines - 1;
    if (first > last) first = last;
    uint32_t n = last - first + 1;
    lay->row_of_timeline = malloc(sizeof(int32_t) * n_timelines);
    /* Group index per shown timeline, in order of first appearance. */
    int32_t *gi = malloc(sizeof(int32_t) * n);
    /* The shown timelines in row order (by key: a rank's threads under
     * it, whatever order the builder met them in). */
    uint32_t *order = malloc(sizeof(uint32_t) * n);
    lay->group_names = calloc(n, sizeof(char *));
    lay->rows = malloc(sizeof(sv_row) * (2 * (size_t)n));
    if (!lay->row_of_timeline || !gi || !order || !lay->group_names || !lay->rows) {
        free(gi);
        free(order);
        sv_layout_clear(lay);
        return -1;
    }
    for (uint32_t k = 0; k < n; k++) order[k] = first + k;
    if (keys) {
        sort_keys = keys;
        qsort(order, n, sizeof *order, by_key);
        sort_keys = NULL;
    }
    for (uint32_t i = 0; i < n_timelines; i++) lay->row_of_timeline[i] = -1;
    int any_group = 0;
    for (uint32_t k = 0; k < n; k++) {
        const char *g = groups ? groups[first + k] : NULL;
        if (!g) g = "";
        if (*g) any_group = 1;
        size_t j = 0;
        while (j < lay->n_groups && strcmp(lay->group_names[j], g) != 0) j++;
        if (j == lay->n_groups) lay->group_names[lay->n_groups++] = strdup(g);
        gi[k] = (int32_t)j;
    }
    double y = 0;
    for (size_t g = 0; g < lay->n_groups; g++) {
        if (any_group) {
            sv_row *r = &lay->rows[lay->n_rows++];
            r->timeline = -1;
            r->group = (int32_t)g;
            r->y = y;
            r->h = header_h;
            y += header_h;
        }
        for (uint32_t k = 0; k < n; k++) {
            uint32_t t = order[k];
            if (gi[t - first] != (int32_t)g) continue;
            sv_row *r = &lay->rows[lay->n_rows];
            r->timeline = (int32_t)t;
            r->group = (int32_t)g;
            r->y = y;
            r->h = row_h;
            lay->row_of_timeline[t] = (int32_t)lay->n_rows++;
            y += row_h;
        }
    }
    lay->total_h = y;
    free(gi);
    free(order);
    return 0;
}

int sv_layout_build_list(sv_layout *lay, uint32_t n_timelines, const uint32_t *list, uint32_t n, double row_h)
{
    memset(lay, 0, sizeof *lay);
    lay->n_timelines = n_timelines;
    if (n_timelines == 0) return 0;
    lay->row_of_timeline = malloc(sizeof(int32_t) * n_timelines);
    lay->rows = malloc(sizeof(sv_row) * ((size_t)n + 1));
    lay->group_names = calloc(1, sizeof(char *));
    if (lay->group_names) lay->group_names[0] = strdup(""); /* one unnamed group, as sv_layout_build makes */
    if (!lay->row_of_timeline || !lay->rows || !lay->group_names || !lay->group_names[0]) {
        sv_layout_clear(lay);
        return -1;
    }
    lay->n_groups = 1;
    for (uint32_t i = 0; i < n_timelines; i++) lay->row_of_timeline[i] = -1;
    double y = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint32_t t = list[k];
        if (t >= n_timelines || lay->row_of_timeline[t] >= 0) continue; /* one row a timeline */
        sv_row *r = &lay->rows[lay->n_rows];
        r->timeline = (int32_t)t;
        r->group = 0;
        r->y = y;
        r->h = row_h;
        lay->row_of_timeline[t] = (int32_t)lay->n_rows++;
        y += row_h;
    }
    lay->total_h = y;
    return 0;
}

void sv_layout_set_heights(sv_layout *lay, double row_h, double header_h)
{
    double y = 0;
    for (size_t i = 0; i < lay->n_rows; i++) {
        lay->rows[i].y = y;
        lay->rows[i].h = lay->rows[i].timeline < 0 ? header_h : row_h;
        y += lay->rows[i].h;
    }
    lay->total_h = y;
}

const sv_row *sv_layout_row_of(const sv_layout *lay, uint32_t tl)
{
    int32_t r = tl < lay->n_timelines ? lay->row_of_timeline[tl] : -1;
    return r < 0 ? NULL : &lay->rows[r];
}

long sv_layout_row_at(const sv_layout *lay, double y)
{
    if (lay->n_rows == 0 || y < 0 || y >= lay->total_h) return -1;
    size_t lo = 0, hi = lay->n_rows; /* rows sorted by y: binary search */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (lay->rows[mid].y <= y)
            lo = mid;
        else
            hi = mid;
    }
    return (long)lo;
}

size_t sv_layout_n_timeline_rows(const sv_layout *lay)
{
    size_t n = 0;
    for (size_t i = 0; i < lay->n_rows; i++) n += lay->rows[i].timeline >= 0;
    return n;
}

double sv_clamp_scroll(double off, double content_h, double view_h)
{
    double max = content_h - view_h;
    if (max < 0) max = 0;
    return clampd(off, 0, max);
}

double sv_fit_header_height(double row_h, double header_h)
{
    return row_h >= header_h ? header_h : fmax(1, floor(row_h * 0.75));
}

double sv_fit_row_height(double avail, size_t n_rows, size_t n_headers, double header_h, double min_h)
{
    if (n_rows == 0) return 24;
    double h = (avail - n_headers * header_h) / n_rows;
    /* Rows smaller than headers: the picture's headers shrink with the rows
     * (doc.c), to about three quarters of one. */
    if (h < header_h) h = avail / (n_rows + n_headers * 0.75);
    /* Few timelines: the rows share the whole canvas (4 ranks, the usual
     * real trace, fill it), but none is taller than a quarter of it, so one
     * to three timelines keep bars that read as bars and the rest stays
     * empty; 96 px (the old cap) still when a quarter is less. */
    double cap = fmax(96, avail / 4);
    if (h > cap) h = cap;
    if (h < min_h) h = min_h;
    return floor(h);
}

/* ------------------------------------------------------------- rank axis */

static void rank_axis_clamp(sv_rank_axis *ax)
{
    double ext = ax->hi - ax->lo, span = clampd(ax->r1 - ax->r0, 1, ext);
    ax->r0 = clampd(ax->r0, ax->lo, ax->hi - span);
    ax->r1 = ax->r0 + span;
}

void sv_rank_axis_init(sv_rank_axis *ax, double lo, double hi, double height)
{
    if (!(hi > lo)) hi = lo + 1;
    ax->lo = lo;
    ax->hi = hi;
    ax->height = height > 0 ? height : 1;
    sv_rank_axis_fit(ax);
}

void sv_rank_axis_set_height(sv_rank_axis *ax, double height)
{
    ax->height = height > 0 ? height : 1;
}

void sv_rank_axis_fit(sv_rank_axis *ax)
{
    ax->r0 = ax->lo;
    ax->r1 = ax->hi;
}

void sv_rank_axis_set_range(sv_rank_axis *ax, double r0, double r1)
{
    if (r1 < r0) {
        double s = r0;
        r0 = r1;
        r1 = s;
    }
    if (r1 - r0 < 1) {
        double c = (r0 + r1) / 2;
        r0 = c - 0.5;
        r1 = c + 0.5;
    }
    ax->r0 = r0;
    ax->r1 = r1;
    rank_axis_clamp(ax);
}

double sv_rank_axis_row_h(const sv_rank_axis *ax)
{
    return ax->height / (ax->r1 - ax->r0);
}

double sv_rank_axis_to_y(const sv_rank_axis *ax, double r)
{
    return (r - ax->r0) * sv_rank_axis_row_h(ax);
}

double sv_rank_axis_y_to_rank(const sv_rank_axis *ax, double y)
{
    return ax->r0 + y / sv_rank_axis_row_h(ax);
}

int sv_rank_axis_equal(const sv_rank_axis *a, const sv_rank_axis *b)
{
    return a->r0 == b->r0 && a->r1 == b->r1 && a->height == b->height && a->lo == b->lo && a->hi == b->hi;
}

int sv_rank_axis_zoom_at(sv_rank_axis *ax, double factor, double y)
{
    if (!(factor > 0)) return 0;
    sv_rank_axis old = *ax;
    double span = clampd((ax->r1 - ax->r0) / factor, 1, ax->hi - ax->lo);
    double frac = clampd(y / ax->height, 0, 1);
    double r = ax->r0 + frac * (ax->r1 - ax->r0);
    ax->r0 = r - frac * span;
    ax->r1 = ax->r0 + span;
    rank_axis_clamp(ax);
    return !sv_rank_axis_equal(&old, ax);
}

int sv_rank_axis_pan_px(sv_rank_axis *ax, double dy)
{
    sv_rank_axis old = *ax;
    double span = ax->r1 - ax->r0;
    ax->r0 = clampd(ax->r0 + dy / sv_rank_axis_row_h(ax), ax->lo, ax->hi - span);
    ax->r1 = ax->r0 + span;
    return !sv_rank_axis_equal(&old, ax);
}

void sv_rank_axis_visible(const sv_rank_axis *ax, uint32_t *first, uint32_t *last)
{
    double a = floor(ax->r0), b = ceil(ax->r1) - 1;
    if (b < a) b = a;
    *first = (uint32_t)a;
    *last = (uint32_t)b;
}

int sv_zoom_to_rect(sv_viewport *vp, sv_rank_axis *ax, double x0, double y0, double x1, double y1)
{
    int changed = 0;
    if (fabs(x1 - x0) >= SV_RECT_MIN_PX) {
        double a = sv_viewport_x_to_time(vp, fmin(x0, x1)), b = sv_viewport_x_to_time(vp, fmax(x0, x1));
        sv_viewport old = *vp;
        sv_viewport_set_window(vp, a, b);
        changed |= !sv_viewport_equal(&old, vp);
    }
    if (ax && fabs(y1 - y0) >= SV_RECT_MIN_PX) {
        /* whole timelines: those the rectangle touches */
        double a = floor(sv_rank_axis_y_to_rank(ax, fmin(y0, y1)));
        double b = ceil(sv_rank_axis_y_to_rank(ax, fmax(y0, y1)));
        sv_rank_axis old = *ax;
        sv_rank_axis_set_range(ax, a, b);
        changed |= !sv_rank_axis_equal(&old, ax);
    }
    return changed;
}
