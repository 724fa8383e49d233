/* SPDX-License-Identifier: MIT */
/* overview.c - sv_overview (render.h): the whole trace at a glance. */
#include "render.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"

#define THEME (*sv_theme_current())

sv_overview *sv_overview_from_scene(const sv_scene *s, uint32_t n_timelines)
{
    sv_overview *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->width = s->width;
    o->t0 = s->t0;
    o->t1 = s->t1;
    o->n_categories = s->n_categories;
    o->bytes_read = s->stats.bytes_read;
    o->cols = calloc((size_t)s->n_categories * s->width + 1, sizeof(float));
    if (!o->cols) {
        free(o);
        return NULL;
    }
    for (size_t k = 0; k < s->n_slots; k++) {
        uint32_t cat = s->slot_cat[k];
        if (s->cat_kind[cat] != SLOG_KIND_STATE) continue;
        float *dst = o->cols + (size_t)cat * s->width;
        const float *src = s->cols + k * (size_t)s->width;
        for (int i = 0; i < s->width; i++) dst[i] += src[i];
    }
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        if (it->kind != SLOG_KIND_STATE) continue;
        sv_aggregate_interval(o->cols + (size_t)it->category * s->width, s->width, s->t0, s->pixel_ns,
                              (double)it->start, (double)it->end, 1);
    }
    double norm = n_timelines ? 1.0 / n_timelines : 1;
    for (size_t i = 0; i < (size_t)s->n_categories * s->width; i++) o->cols[i] *= (float)norm;
    return o;
}

void sv_overview_free(sv_overview *o)
{
    if (!o) return;
    free(o->cols);
    free(o);
}

/* The stacked histogram of the overview, into cr (background included). */
static void overview_histogram(cairo_t *cr, double w, double h, const sv_overview *o, const sv_palette *pal)
{
    sv_theme_source(cr, THEME.overview_bg, 1);
    cairo_paint(cr);
    double pad = 3, H = h - 2 * pad;
    if (!o || o->width <= 0) return;
    double dx = w / o->width;
    float *base = calloc((size_t)o->width, sizeof(float));
    for (uint32_t c = 0; base && c < o->n_categories && c < pal->n; c++) {
        if (!pal->visible[c] || pal->kind[c] != SLOG_KIND_STATE) continue;
        const float *v = o->cols + (size_t)c * o->width;
        int any = 0;
        for (int i = 0; i < o->width; i++) {
            if (v[i] <= 0) continue;
            float b = base[i], t = b + v[i] > 1 ? 1 : b + v[i];
            /* whole pixels: Cairo fills aligned boxes without
             * tessellating them */
            double x0 = floor(i * dx), x1 = floor((i + 1) * dx);
            double y0 = round(h - pad - t * H), y1 = round(h - pad - b * H);
            if (x1 > x0 && y1 > y0) cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0);
            base[i] = t;
            any = 1;
        }
        if (any) {
            sv_set_rgba(cr, pal->rgba[c], 1, 0.95);
            cairo_fill(cr);
        }
    }
    free(base);
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* What the histogram image depends on: the columns, the size, the device
 * scale, the palette (colours, visibility) and the theme. */
static uint64_t overview_key(double w, double h, double sx, double sy, const sv_overview *o, const sv_palette *pal)
{
    uint64_t k = 0xcbf29ce484222325ull;
    double dims[4] = {w, h, sx, sy};
    k = fnv1a(k, dims, sizeof dims);
    if (o && o->width > 0) {
        k = fnv1a(k, &o->width, sizeof o->width);
        k = fnv1a(k, &o->n_categories, sizeof o->n_categories);
        k = fnv1a(k, o->cols, sizeof(float) * (size_t)o->width * o->n_categories);
    }
    const sv_theme *t = sv_theme_current();
    k = fnv1a(k, &t, sizeof t);
    k = fnv1a(k, pal->rgba, sizeof *pal->rgba * pal->n);
    k = fnv1a(k, pal->visible, sizeof *pal->visible * pal->n);
    return fnv1a(k, pal->kind, sizeof *pal->kind * pal->n);
}

void sv_render_overview(cairo_t *cr, double w, double h, const sv_overview *o, const sv_viewport *vp,
                        const sv_palette *pal)
{
    /* The histogram changes with the document, the size and the palette;
     * the visible window moves on every pan and zoom. So it is drawn once
     * into an image kept for the next frames (one per thread: frames are
     * drawn on the UI thread, or the headless renderer's), and each frame
     * only paints that and the window. */
    static _Thread_local cairo_surface_t *cache;
    static _Thread_local uint64_t cache_key;
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    double sx = 1, sy = 1;
    cairo_surface_get_device_scale(cairo_get_target(cr), &sx, &sy);
    uint64_t key = overview_key(w, h, sx, sy, o, pal);
    if (!cache || key != cache_key) {
        if (cache) cairo_surface_destroy(cache);
        cache = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)ceil(w * sx), (int)ceil(h * sy));
        cairo_surface_set_device_scale(cache, sx, sy);
        cairo_t *c2 = cairo_create(cache);
        overview_histogram(c2, w, h, o, pal);
        cairo_destroy(c2);
        cache_key = key;
    }
    if (cairo_surface_status(cache) == CAIRO_STATUS_SUCCESS) {
        cairo_set_source_surface(cr, cache, 0, 0);
        cairo_paint(cr);
    } else {
        overview_histogram(cr, w, h, o, pal);
    }
    /* dim outside the visible window; outline the window */
    double x0 = (vp->t0 - vp->lo) / (vp->hi - vp->lo) * w;
    double x1 = (vp->t1 - vp->lo) / (vp->hi - vp->lo) * w;
    if (x1 - x0 < 3) {
        double c = (x0 + x1) / 2;
        x0 = c - 1.5;
        x1 = c + 1.5;
    }
    sv_theme_source(cr, THEME.dim_window, 1);
    cairo_rectangle(cr, 0, 0, x0, h);
    cairo_rectangle(cr, x1, 0, w - x1, h);
    cairo_fill(cr);
    sv_theme_source(cr, THEME.accent, 1);
    cairo_set_line_width(cr, 2);
    cairo_rectangle(cr, x0 + 1, 1, x1 - x0 - 2, h - 2);
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, 0, h - 0.5);
    cairo_line_to(cr, w, h - 0.5);
    cairo_stroke(cr);
    cairo_restore(cr);
}
