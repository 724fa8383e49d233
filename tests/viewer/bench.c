/* bench.c - slog2-view-bench [WORK_DIR]: figures for docs/VIEWER.md.
 * For a small and a large generated file with 64 timelines, through the
 * --render path (scene query + Cairo drawing into a 1920x1080 image):
 *   first frame: open + overview query + window query + draw
 *   zoom/pan frames: median and 90th percentile over a scripted sequence
 *   of zooms around points and pans, split into query and draw. */
#include <cairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "doc.h"
#include "gen.h"

#define W 1920
#define H 1080

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double pct(double *v, int n, double p)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    int i = (int)(p * (n - 1) + 0.5);
    return v[i];
}

static void bench(const char *path, const char *label)
{
    double t0 = now_ms();
    sv_doc d;
    slog_error err = {0};
    if (sv_doc_open(&d, path, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    sv_layout lay;
    sv_layout_build(&lay, d.fi->n_timelines, d.tl_groups, 0, d.fi->n_timelines - 1, 20, 16);
    size_t nt = sv_layout_n_timeline_rows(&lay);
    double rh = sv_fit_row_height(g.canvas_h, nt, lay.n_rows - nt, 3);
    sv_layout_set_heights(&lay, rh, rh < 16 ? rh : 16);
    double lo, hi;
    sv_doc_extent(&d, &lo, &hi);
    sv_viewport vp;
    sv_viewport_init(&vp, lo, hi, g.canvas_w);
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    cairo_t *cr = cairo_create(surf);
    sv_scene *ovs = sv_scene_query(d.r, lo, hi, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
    sv_overview *ov = sv_overview_from_scene(ovs, d.fi->n_timelines);
    sv_scene_free(ovs);
    sv_scene *s = sv_scene_query(d.r, vp.t0, vp.t1, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
    sv_compose(cr, W, H, &d, &vp, &lay, s, ov);
    cairo_surface_flush(surf);
    double first = now_ms() - t0;
    uint64_t first_bytes = s->stats.bytes_read;
    sv_scene_free(s);

    enum { N = 40 };
    double q[N], r[N], tot[N];
    uint64_t bytes[N];
    unsigned seed = 12345;
    for (int i = 0; i < N; i++) {
        /* zoom in 1.5x around a pseudo-random point for 3 frames out of 4,
         * pan by a fifth of the window otherwise; refit every 16 frames */
        seed = seed * 1103515245u + 12345u;
        double x = (seed >> 8) % (unsigned)g.canvas_w;
        if (i % 16 == 15)
            sv_viewport_fit(&vp);
        else if (i % 4 == 3)
            sv_viewport_pan_px(&vp, (seed & 1) ? g.canvas_w / 5 : -g.canvas_w / 5);
        else
            sv_viewport_zoom_at(&vp, 1.5, x);
        double a = now_ms();
        s = sv_scene_query(d.r, vp.t0, vp.t1, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
        double b = now_ms();
        sv_compose(cr, W, H, &d, &vp, &lay, s, ov);
        cairo_surface_flush(surf);
        double c = now_ms();
        q[i] = b - a;
        r[i] = c - b;
        tot[i] = c - a;
        bytes[i] = s->stats.bytes_read;
        sv_scene_free(s);
    }
    uint64_t max_bytes = 0;
    for (int i = 0; i < N; i++)
        if (bytes[i] > max_bytes)
            max_bytes = bytes[i];
    printf("%-6s %8.1f MiB %9llu drawables | first frame %7.1f ms (%.1f KiB read) | "
           "zoom/pan frame median %6.1f ms (query %5.1f, draw %5.1f), p90 %6.1f ms, "
           "max read %.1f KiB\n",
           label, d.fi->file_size / 1048576.0, (unsigned long long)d.fi->n_drawables, first,
           first_bytes / 1024.0, pct(tot, N, 0.5), pct(q, N, 0.5), pct(r, N, 0.5),
           pct(tot, N, 0.9), max_bytes / 1024.0);
    cairo_destroy(cr);
    cairo_surface_destroy(surf);
    sv_overview_free(ov);
    sv_layout_clear(&lay);
    sv_doc_close(&d);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char small[4096], large[4096];
    snprintf(small, sizeof small, "%s/bench-small.slog2", dir);
    snprintf(large, sizeof large, "%s/bench-large.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 64;
    o.per_host = 16;
    o.n_iterations = 200;
    slog_error err = {0};
    double a = now_ms();
    if (sv_gen_write(small, &o, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    o.n_iterations = 20000;
    double b = now_ms();
    if (sv_gen_write(large, &o, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double c = now_ms();
    printf("generated: small in %.0f ms, large in %.0f ms; frames at %dx%d, 64 timelines\n",
           b - a, c - b, W, H);
    bench(small, "small");
    bench(large, "large");
    remove(small);
    remove(large);
    return 0;
}
