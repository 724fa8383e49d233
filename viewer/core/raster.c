/* SPDX-License-Identifier: MIT */
/* raster.c - see raster.h. */
#include "raster.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "scene.h"

/* lround() of v in [0, 2^31) without the library call (which showed in
 * profiles: a state's colours are worked out per state). The cast
 * truncates to i <= v < i + 1, and v - i is exact there (v < 1: i = 0;
 * v >= 1: i >= v / 2, Sterbenz), so the halfway case rounds up as
 * lround() does. */
static inline uint32_t round_nonneg(double v)
{
    uint32_t i = (uint32_t)v;
    return i + (v - (double)i >= 0.5);
}

uint32_t sv_premul(uint32_t rgba, double shade, double alpha)
{
    double a = (rgba & 255) / 255.0 * alpha;
    /* callers pass shade and alpha in [0, 1]: every value is in [0, 255] */
    if (!(shade >= 0 && shade <= 1 && a >= 0 && a <= 1)) {
        uint32_t r = (uint32_t)lround(((rgba >> 24) & 255) * shade * a);
        uint32_t g = (uint32_t)lround(((rgba >> 16) & 255) * shade * a);
        uint32_t b = (uint32_t)lround(((rgba >> 8) & 255) * shade * a);
        return ((uint32_t)lround(a * 255) << 24) | (r << 16) | (g << 8) | b;
    }
    uint32_t r = round_nonneg(((rgba >> 24) & 255) * shade * a);
    uint32_t g = round_nonneg(((rgba >> 16) & 255) * shade * a);
    uint32_t b = round_nonneg(((rgba >> 8) & 255) * shade * a);
    return (round_nonneg(a * 255) << 24) | (r << 16) | (g << 8) | b;
}

void sv_raster_fill(sv_raster *ras, int x0, int x1, int y0, int y1, uint32_t c)
{
    if (x0 < 0) x0 = 0;
    if (y0 < 0) y0 = 0;
    if (x1 > ras->w) x1 = ras->w;
    if (y1 > ras->h) y1 = ras->h;
    if (x1 <= x0 || y1 <= y0) return;
    uint32_t keep = sv_keep_of(c);
    for (int y = y0; y < y1; y++) {
        uint32_t *row = ras->px + (size_t)y * ras->stride;
        if (keep == 0) {
            for (int x = x0; x < x1; x++) row[x] = c;
            continue;
        }
        for (int x = x0; x < x1; x++) row[x] = sv_over_keep(row[x], c, keep);
    }
}

int sv_raster_init(sv_raster *ras, double w, double h)
{
    memset(ras, 0, sizeof *ras);
    if (w < 1 || h < 1) return 0;
    ras->w = (int)ceil(w);
    ras->h = (int)ceil(h);
    ras->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, ras->w, ras->h);
    if (cairo_surface_status(ras->surf) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(ras->surf);
        ras->surf = NULL;
        return 0;
    }
    cairo_surface_flush(ras->surf);
    ras->px = (uint32_t *)(void *)cairo_image_surface_get_data(ras->surf);
    ras->stride = cairo_image_surface_get_stride(ras->surf) / 4;
    return 1;
}

int sv_raster_init_on(sv_raster *ras, cairo_t *cr, double w, double h)
{
    cairo_surface_t *t = cairo_get_target(cr);
    double x = 0, y = 0, sx = 1, sy = 1;
    cairo_user_to_device(cr, &x, &y);
    cairo_user_to_device_distance(cr, &sx, &sy);
    double dox, doy, dsx, dsy;
    cairo_surface_get_device_offset(t, &dox, &doy);
    cairo_surface_get_device_scale(t, &dsx, &dsy);
    int whole = w >= 1 && h >= 1 && w == floor(w) && h == floor(h) && x == floor(x) && y == floor(y) && x >= 0 &&
                y >= 0 && sx == 1 && sy == 1 && dox == 0 && doy == 0 && dsx == 1 && dsy == 1;
    cairo_matrix_t m;
    cairo_get_matrix(cr, &m);
    double c0, c1, c2, c3;
    cairo_clip_extents(cr, &c0, &c1, &c2, &c3);
    whole = whole && m.xy == 0 && m.yx == 0 && c0 <= 0 && c1 <= 0 && c2 >= w && c3 >= h;
    if (!whole || cairo_get_group_target(cr) != t || cairo_surface_get_type(t) != CAIRO_SURFACE_TYPE_IMAGE ||
        (cairo_image_surface_get_format(t) != CAIRO_FORMAT_ARGB32 &&
         cairo_image_surface_get_format(t) != CAIRO_FORMAT_RGB24) ||
        x + w > cairo_image_surface_get_width(t) || y + h > cairo_image_surface_get_height(t))
        return sv_raster_init(ras, w, h);
    memset(ras, 0, sizeof *ras);
    cairo_surface_flush(t);
    int stride = cairo_image_surface_get_stride(t);
    unsigned char *data = cairo_image_surface_get_data(t);
    if (!data) return sv_raster_init(ras, w, h);
    ras->w = (int)w;
    ras->h = (int)h;
    ras->surf = cairo_image_surface_create_for_data(data + (size_t)y * (size_t)stride + (size_t)x * 4,
                                                    CAIRO_FORMAT_ARGB32, ras->w, ras->h, stride);
    if (cairo_surface_status(ras->surf) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(ras->surf);
        return sv_raster_init(ras, w, h);
    }
    ras->px = (uint32_t *)(void *)cairo_image_surface_get_data(ras->surf);
    ras->stride = stride / 4;
    ras->on = t;
    ras->on_x = (int)x;
    ras->on_y = (int)y;
    return 1;
}

void sv_raster_paint(sv_raster *ras, cairo_t *cr)
{
    if (ras->on) {
        cairo_surface_flush(ras->surf);
        cairo_surface_mark_dirty_rectangle(ras->on, ras->on_x, ras->on_y, ras->w, ras->h);
        return;
    }
    cairo_set_source_surface(cr, ras->surf, 0, 0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
}

void sv_raster_direct(sv_raster *ras)
{
    cairo_surface_flush(ras->surf);
}

void sv_raster_cairo(sv_raster *ras)
{
    cairo_surface_mark_dirty(ras->surf);
}

void sv_raster_free(sv_raster *ras)
{
    if (ras->surf) cairo_surface_destroy(ras->surf);
    memset(ras, 0, sizeof *ras);
}

/* sv_raster_plot at a pixel known to be on the raster, cov > 0. */
static inline void line_blend(uint32_t *px, uint32_t c, double cov)
{
    uint32_t k = (uint32_t)(cov * 256);
    if (k > 256) k = 256;
    uint32_t srb = (((c & 0x00ff00ffu) * k) >> 8) & 0x00ff00ffu;
    uint32_t sag = ((((c >> 8) & 0x00ff00ffu) * k)) & 0xff00ff00u;
    uint32_t src = srb | sag, a = src >> 24, keep = 255 - a;
    uint32_t d = *px;
    uint32_t rb = (((d & 0x00ff00ffu) * keep) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((d >> 8) & 0x00ff00ffu) * keep) & 0xff00ff00u;
    *px = src + (rb | ag);
}

/* An anti-aliased 1 px line (Xiaolin Wu): each step along the major axis
 * splits its ink between the two pixels nearest the exact line. Clipped to
 * the raster first, so a line far outside costs nothing. wu_setup works
 * out the steps (0: nothing to draw), wu_step draws one. */
typedef struct wu_line {
    int steep, xs, xe;
    double y, grad;
} wu_line;

static int wu_setup(const sv_raster *ras, double x0, double y0, double x1, double y1, wu_line *l)
{
    /* Liang-Barsky clip to [-1, w] x [-1, h] */
    double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
    double p[4] = {-dx, dx, -dy, dy}, q[4] = {x0 + 1, ras->w - x0, y0 + 1, ras->h - y0};
    for (int i = 0; i < 4; i++) {
        if (p[i] == 0) {
            if (q[i] < 0) return 0;
        } else {
            double r = q[i] / p[i];
            if (p[i] < 0) {
                if (r > t1) return 0;
                if (r > t0) t0 = r;
            } else {
                if (r < t0) return 0;
                if (r < t1) t1 = r;
            }
        }
    }
    double ax = x0 + t0 * dx, ay = y0 + t0 * dy, bx = x0 + t1 * dx, by = y0 + t1 * dy;
    int steep = fabs(by - ay) > fabs(bx - ax);
    if (steep) {
        double t = ax;
        ax = ay;
        ay = t;
        t = bx;
        bx = by;
        by = t;
    }
    if (ax > bx) {
        double t = ax;
        ax = bx;
        bx = t;
        t = ay;
        ay = by;
        by = t;
    }
    l->steep = steep;
    l->grad = bx - ax > 1e-9 ? (by - ay) / (bx - ax) : 0;
    l->xs = (int)floor(ax + 0.5);
    l->xe = (int)floor(bx + 0.5);
    l->y = ay + l->grad * (l->xs - ax);
    return 1;
}

/* What sv_raster_plot does at each of the two pixels of major step x, with
 * the raster's bounds and the pixel's address worked out per step rather
 * than per pixel: the lines of a frame's messages are millions of pixels.
 * Only rows [r0, r1) are written (a band of the raster). */
static inline void wu_step(const sv_raster *ras, int steep, int x, double y, uint32_t c, int r0, int r1)
{
    int lo_maj = steep ? r0 : 0, hi_maj = steep ? r1 : ras->w;
    int lo_min = steep ? 0 : r0, hi_min = steep ? ras->w : r1;
    if (x < lo_maj || x >= hi_maj) return;
    size_t maj_step = steep ? (size_t)ras->stride : 1, min_step = steep ? 1 : (size_t)ras->stride;
    int yi = (int)floor(y);
    double f = y - yi;
    uint32_t *px = ras->px + (size_t)x * maj_step;
    if (yi >= lo_min && yi < hi_min && 1 - f > 0) line_blend(px + (size_t)yi * min_step, c, 1 - f);
    if (yi + 1 >= lo_min && yi + 1 < hi_min && f > 0) line_blend(px + (size_t)(yi + 1) * min_step, c, f);
}

void sv_raster_line_band(sv_raster *ras, double x0, double y0, double x1, double y1, uint32_t c, int r0, int r1)
{
    wu_line l;
    if (!wu_setup(ras, x0, y0, x1, y1, &l)) return;
    double y = l.y;
    if (r0 < 0) r0 = 0;
    if (r1 > ras->h) r1 = ras->h;
    /* steep a constant in each loop: the step's strides and bounds are
     * then fixed, not chosen per step. A steep line's steps are rows: the
     * ones above the band only advance y (as many adds as drawing them, so
     * the same y after them), the ones below it are not walked. */
    if (l.steep) {
        int x = l.xs, x_end = l.xe < r1 - 1 ? l.xe : r1 - 1;
        for (; x < r0 && x <= x_end; x++) y += l.grad;
        for (; x <= x_end; x++, y += l.grad) wu_step(ras, 1, x, y, c, r0, r1);
    } else {
        /* y moves one way (adding grad never turns back): past the band,
         * no later step reaches it */
        for (int x = l.xs; x <= l.xe; x++, y += l.grad) {
            int yi = (int)floor(y);
            if (l.grad >= 0 ? yi >= r1 : yi + 1 < r0) break;
            wu_step(ras, 0, x, y, c, r0, r1);
        }
    }
}

void sv_raster_line(sv_raster *ras, double x0, double y0, double x1, double y1, uint32_t c)
{
    sv_raster_line_band(ras, x0, y0, x1, y1, c, 0, ras->h);
}

/* The pair's walk (sv_raster_line_pair) for one value of steep. */
static inline void wu_pair(sv_raster *ras, const wu_line *la, const wu_line *lb, int steep, uint32_t c, int r0, int r1)
{
    /* each line's y advances over its own steps exactly as alone; steep
     * lines skip the rows above the band (advancing y) and below it */
    int lo = la->xs < lb->xs ? la->xs : lb->xs, hi = la->xe > lb->xe ? la->xe : lb->xe;
    double ya = la->y, yb = lb->y;
    if (steep) {
        if (hi > r1 - 1) hi = r1 - 1;
        for (; lo < r0 && lo <= hi; lo++) {
            if (lo >= la->xs && lo <= la->xe) ya += la->grad;
            if (lo >= lb->xs && lo <= lb->xe) yb += lb->grad;
        }
    }
    for (int x = lo; x <= hi; x++) {
        if (x >= la->xs && x <= la->xe) {
            wu_step(ras, steep, x, ya, c, r0, r1);
            ya += la->grad;
        }
        if (x >= lb->xs && x <= lb->xe) {
            wu_step(ras, steep, x, yb, c, r0, r1);
            yb += lb->grad;
        }
    }
}

void sv_raster_line_pair_band(sv_raster *ras, const double a[4], const double b[4], uint32_t c, int r0, int r1)
{
    wu_line la, lb;
    int oa = wu_setup(ras, a[0], a[1], a[2], a[3], &la), ob = wu_setup(ras, b[0], b[1], b[2], b[3], &lb);
    if (!oa || !ob || la.steep != lb.steep) {
        if (oa) sv_raster_line_band(ras, a[0], a[1], a[2], a[3], c, r0, r1);
        if (ob) sv_raster_line_band(ras, b[0], b[1], b[2], b[3], c, r0, r1);
        return;
    }
    if (r0 < 0) r0 = 0;
    if (r1 > ras->h) r1 = ras->h;
    if (la.steep)
        wu_pair(ras, &la, &lb, 1, c, r0, r1);
    else
        wu_pair(ras, &la, &lb, 0, c, r0, r1);
}

void sv_raster_line_pair(sv_raster *ras, const double a[4], const double b[4], uint32_t c)
{
    sv_raster_line_pair_band(ras, a, b, c, 0, ras->h);
}

/* Area of the pixel [px, px+1) x [py, py+1) inside the diamond of radius
 * rad at (cx, cy): exact along y, 16 samples along x. */
static double diamond_cover(double px, double py, double cx, double cy, double rad)
{
    double sum = 0;
    for (int i = 0; i < 16; i++) {
        double half = rad - fabs(px + (i + 0.5) / 16 - cx);
        double a = fmax(py, cy - half), b = fmin(py + 1, cy + half);
        if (b > a) sum += b - a;
    }
    return sum / 16;
}

/* The stamps, made one phase at a time under the lock and published by
 * their flag (release), read after it (acquire). */
static struct {
    float fill[SV_STAMP_PHASES * SV_STAMP_PHASES][SV_STAMP_N * SV_STAMP_N];
    float line[SV_STAMP_PHASES * SV_STAMP_PHASES][SV_STAMP_N * SV_STAMP_N];
} stamps;
static _Atomic uint8_t stamp_made[SV_STAMP_PHASES * SV_STAMP_PHASES];
static pthread_mutex_t stamp_lock = PTHREAD_MUTEX_INITIALIZER;

static void make_stamp(int ph, int qx, int qy)
{
    double fx = (qx + 0.5) / SV_STAMP_PHASES, fy = (qy + 0.5) / SV_STAMP_PHASES, h = M_SQRT1_2;
    for (int j = 0; j < SV_STAMP_N; j++)
        for (int i = 0; i < SV_STAMP_N; i++) {
            double px = i - SV_STAMP_N / 2, py = j - SV_STAMP_N / 2;
            double in = diamond_cover(px, py, fx, fy, SV_EVENT_R - h);
            stamps.fill[ph][j * SV_STAMP_N + i] = (float)diamond_cover(px, py, fx, fy, SV_EVENT_R);
            stamps.line[ph][j * SV_STAMP_N + i] = (float)(diamond_cover(px, py, fx, fy, SV_EVENT_R + h) - in);
        }
}

void sv_raster_diamond(sv_raster *ras, double cx, double cy, uint32_t fill, uint32_t line)
{
    int ix = (int)floor(cx), iy = (int)floor(cy);
    int qx = (int)((cx - ix) * SV_STAMP_PHASES), qy = (int)((cy - iy) * SV_STAMP_PHASES);
    int ph = qy * SV_STAMP_PHASES + qx;
    if (!atomic_load_explicit(&stamp_made[ph], memory_order_acquire)) {
        pthread_mutex_lock(&stamp_lock);
        if (!atomic_load_explicit(&stamp_made[ph], memory_order_relaxed)) {
            make_stamp(ph, qx, qy);
            atomic_store_explicit(&stamp_made[ph], 1, memory_order_release);
        }
        pthread_mutex_unlock(&stamp_lock);
    }
    const float *sf = stamps.fill[ph], *sl = stamps.line[ph];
    int x0 = ix - SV_STAMP_N / 2, y0 = iy - SV_STAMP_N / 2;
    if (x0 < 0 || y0 < 0 || x0 + SV_STAMP_N > ras->w || y0 + SV_STAMP_N > ras->h) {
        for (int j = 0; j < SV_STAMP_N; j++)
            for (int i = 0; i < SV_STAMP_N; i++) {
                sv_raster_plot(ras, x0 + i, y0 + j, fill, sf[j * SV_STAMP_N + i]);
                sv_raster_plot(ras, x0 + i, y0 + j, line, sl[j * SV_STAMP_N + i]);
            }
        return;
    }
    /* the whole stamp on the raster: sv_raster_plot without its bounds */
    for (int j = 0; j < SV_STAMP_N; j++) {
        uint32_t *row = ras->px + (size_t)(y0 + j) * ras->stride + x0;
        for (int i = 0; i < SV_STAMP_N; i++) {
            float f = sf[j * SV_STAMP_N + i], l = sl[j * SV_STAMP_N + i];
            if (f > 0) line_blend(row + i, fill, f);
            if (l > 0) line_blend(row + i, line, l);
        }
    }
}
