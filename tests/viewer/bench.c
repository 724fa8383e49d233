/* SPDX-License-Identifier: MIT */
/* bench.c - slog2-view-bench [--huge] [--only NAME] [--frames N] [--verbose] [WORK_DIR]:
 * figures for docs/VIEWER.md. Nothing here passes or fails.
 * slog2-view-bench --ranks FILE.slog2... [--frames N] [--verbose]: frames of
 * the given files (thousands of ranks) in both axes, folded (fold.h) where
 * the visible timelines do not fit 3 px high, as the window draws them,
 * keeping the fold and the scene of rows while they serve the view as the
 * window keeps them (sv_fold_serves, sv_scene_covers).
 *
 * Generated files with 64 timelines (gen.h): small (200 iterations,
 * 1.4 MiB), large (20,000, 140 MiB) and with --huge a ~10 GB one
 * (1,400,000). They are written into WORK_DIR once and reused while their
 * generator parameters match (an annotation records them), since the huge
 * one takes minutes to write. Through the --render path (scene query +
 * Cairo drawing into a 1920x1080 image) it measures per file:
 *   first frame: open + overview query + window query + draw, once with the
 *     file evicted from the page cache (posix_fadvise DONTNEED on this file
 *     only: what a freshly copied or long-unused file costs) and once warm;
 *   zoom/pan frames: median and 90th percentile over a scripted sequence of
 *     zooms around points and pans, split into query and draw. */
#define _POSIX_C_SOURCE 200809L
#include <cairo.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "doc.h"
#include "gen.h"

#define W 1920
#define H 1080

typedef struct bench_file {
    const char *name;
    uint32_t n_iterations;
    double est_bytes; /* for the free-space check: ~7.4 KB per iteration */
} bench_file;

static const bench_file FILES[] = {
    {"small", 200, 1.5e6},
    {"large", 20000, 1.5e8},
    {"huge", 1400000, 1.05e10},
};
enum { N_FILES = sizeof FILES / sizeof FILES[0] };

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

static double pct(const double *v, int n, double p)
{
    double *s = malloc(sizeof *s * (size_t)n);
    if (!s) abort();
    memcpy(s, v, sizeof *s * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmpd);
    double r = s[(int)(p * (n - 1) + 0.5)];
    free(s);
    return r;
}

static void gen_opts(const bench_file *f, sv_gen_opts *o)
{
    sv_gen_opts_small(o);
    o->n_timelines = 64;
    o->per_host = 16;
    o->n_iterations = f->n_iterations;
}

/* An existing file is reused if it opens and was generated with o. */
static int reusable(const char *path, const sv_gen_opts *o)
{
    slog_reader *r;
    if (access(path, R_OK) != 0 || slog_reader_open(&r, path, NULL) != SLOG_OK) return 0;
    char want[256];
    sv_gen_params(o, want, sizeof want);
    const char *got = slog_reader_annotation_get(r, SV_GEN_PARAMS_KEY);
    int same = got && strcmp(got, want) == 0;
    slog_reader_close(r);
    return same;
}

/* 0: path holds f's file; -1: it could not be written. */
static int ensure_file(const char *dir, const bench_file *f, const char *path)
{
    sv_gen_opts o;
    gen_opts(f, &o);
    if (reusable(path, &o)) return 0;
    struct statvfs vfs;
    /* the file plus 2 GB left over for everything else on the disk */
    if (statvfs(dir, &vfs) == 0 && (double)vfs.f_bavail * vfs.f_frsize < f->est_bytes + 2e9) {
        fprintf(stderr, "%s: %.1f GB free, the %s file needs about %.1f GB plus 2 GB to spare\n", dir,
                (double)vfs.f_bavail * vfs.f_frsize / 1e9, f->name, f->est_bytes / 1e9);
        return -1;
    }
    slog_error err = {0};
    double a = now_ms();
    if (sv_gen_write(path, &o, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return -1;
    }
    printf("generated %s in %.1f s\n", path, (now_ms() - a) / 1e3);
    return 0;
}

static void evict(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        close(fd);
    }
}

/* What the first frame costs, by phase. */
typedef struct first_frame {
    double open, overview, query, draw, total;
    uint64_t bytes;
} first_frame;

typedef struct view {
    sv_doc d;
    sv_layout lay;
    sv_viewport vp;
    sv_overview *ov;
    cairo_surface_t *surf;
    cairo_t *cr;
    double canvas_w;
    sv_fold *fold;  /* --ranks: the last fold, reused while it is still the one wanted */
    sv_scene *rows; /* --ranks: the last scene of rows, kept while it holds them */
} view;

static void view_open(view *v, const char *path, first_frame *ff)
{
    v->fold = NULL;
    v->rows = NULL;
    double t0 = now_ms();
    slog_error err = {0};
    if (sv_doc_open(&v->d, path, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    double t1 = now_ms();
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    v->canvas_w = g.canvas_w;
    uint32_t nt = v->d.fi->n_timelines;
    sv_layout_build(&v->lay, nt, v->d.tl_groups, v->d.tl_keys, 0, nt - 1, 20, 16);
    size_t n_rows = sv_layout_n_timeline_rows(&v->lay);
    double rh = sv_fit_row_height(g.canvas_h, n_rows, v->lay.n_rows - n_rows, 16, 3);
    sv_layout_set_heights(&v->lay, rh, rh < 16 ? rh : 16);
    double lo, hi;
    sv_doc_extent(&v->d, &lo, &hi);
    sv_viewport_init(&v->vp, lo, hi, g.canvas_w);
    v->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    v->cr = cairo_create(v->surf);
    sv_scene *ovs = sv_scene_query(v->d.r, lo, hi, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
    if (!ovs) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    v->ov = sv_overview_from_scene(ovs, nt);
    sv_scene_free(ovs);
    double t2 = now_ms();
    sv_scene *s = sv_scene_query(v->d.r, v->vp.t0, v->vp.t1, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    double t3 = now_ms();
    sv_compose(v->cr, W, H, &v->d, &v->vp, &v->lay, s, v->ov);
    cairo_surface_flush(v->surf);
    double t4 = now_ms();
    *ff = (first_frame){t1 - t0, t2 - t1, t3 - t2, t4 - t3, t4 - t0, s->stats.bytes_read};
    sv_scene_free(s);
}

static void view_close(view *v)
{
    cairo_destroy(v->cr);
    cairo_surface_destroy(v->surf);
    sv_fold_free(v->fold);
    sv_scene_free(v->rows);
    sv_overview_free(v->ov);
    sv_layout_clear(&v->lay);
    sv_doc_close(&v->d);
}

static void bench(const char *path, const char *label, int n, int verbose)
{
    view v;
    first_frame cold, warm;
    evict(path);
    view_open(&v, path, &cold);
    view_close(&v);
    view_open(&v, path, &warm);

    double *q = malloc(sizeof(double) * 3 * (size_t)n), *r = q + n, *tot = r + n;
    if (!q) abort();
    uint64_t max_bytes = 0;
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        /* zoom in 1.5x around a pseudo-random point for 3 frames out of 4,
         * pan by a fifth of the window otherwise; refit every 16 frames */
        seed = seed * 1103515245u + 12345u;
        double x = (seed >> 8) % (unsigned)v.canvas_w;
        if (i % 16 == 15)
            sv_viewport_fit(&v.vp);
        else if (i % 4 == 3)
            sv_viewport_pan_px(&v.vp, (seed & 1) ? v.canvas_w / 5 : -v.canvas_w / 5);
        else
            sv_viewport_zoom_at(&v.vp, 1.5, x);
        slog_error err = {0};
        double a = now_ms();
        sv_scene *s = sv_scene_query(v.d.r, v.vp.t0, v.vp.t1, (int)v.canvas_w, NULL, 0, NULL, NULL, &err);
        if (!s) {
            fprintf(stderr, "%s\n", err.message);
            exit(1);
        }
        double b = now_ms();
        sv_compose(v.cr, W, H, &v.d, &v.vp, &v.lay, s, v.ov);
        cairo_surface_flush(v.surf);
        double c = now_ms();
        if (verbose)
            printf("  frame %2d: window %10.6f s, %7zu drawables, %4llu previews, %6.1f KiB read, "
                   "query %5.1f ms, draw %5.1f ms\n",
                   i, (v.vp.t1 - v.vp.t0) / 1e9, s->n_items, (unsigned long long)s->stats.previews,
                   s->stats.bytes_read / 1024.0, b - a, c - b);
        q[i] = b - a;
        r[i] = c - b;
        tot[i] = c - a;
        if (s->stats.bytes_read > max_bytes) max_bytes = s->stats.bytes_read;
        sv_scene_free(s);
    }
    printf("%-6s %9.1f MiB %10llu drawables | first frame cold %6.1f ms, warm %6.1f ms "
           "(%.1f KiB read) | zoom/pan frame median %6.1f ms (query %5.1f, draw %5.1f), "
           "p90 %6.1f ms, max read %.1f KiB\n",
           label, v.d.fi->file_size / 1048576.0, (unsigned long long)v.d.fi->n_drawables, cold.total, warm.total,
           warm.bytes / 1024.0, pct(tot, n, 0.5), pct(q, n, 0.5), pct(r, n, 0.5), pct(tot, n, 0.9), max_bytes / 1024.0);
    printf("       first frame by phase, cold / warm: open %.1f / %.1f, overview query "
           "%.1f / %.1f, window query %.1f / %.1f, draw %.1f / %.1f ms\n",
           cold.open, warm.open, cold.overview, warm.overview, cold.query, warm.query, cold.draw, warm.draw);
    free(q);
    view_close(&v);
}

/* One frame of a many-rank view: folded from the grid, or the visible
 * timelines as rows of their own from a scene. Returns the query and draw
 * times and bytes read. */
static void ranks_frame(view *v, const sv_rank_axis *ax, double *q_ms, double *d_ms, uint64_t *bytes, int *folded)
{
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    uint32_t a, b, nt = v->d.fi->n_timelines;
    sv_rank_axis_visible(ax, &a, &b);
    if (b >= nt) b = nt - 1;
    slog_error err = {0};
    double t0 = now_ms();
    *folded = (ax->r1 - ax->r0) * SV_FOLD_MIN_ROW_H > g.canvas_h;
    if (*folded) {
        /* as the window does: the fold it wants, kept while that does not
         * change (rank zooms and pans inside one time window) */
        uint32_t rows;
        sv_fold_want(v->d.fi, ax, g.canvas_h, v->vp.t0, v->vp.t1, (int)g.canvas_w, &a, &b, &rows);
        sv_fold *f = v->fold;
        if (!sv_fold_serves(f, v->d.fi, v->vp.t0, v->vp.t1, (int)g.canvas_w, a, b, rows)) {
            sv_fold_free(v->fold);
            f = v->fold = sv_fold_query(v->d.r, v->vp.t0, v->vp.t1, (int)g.canvas_w, a, b, rows, &err);
            *bytes = f ? f->stats.bytes_read : 0;
        } else {
            *bytes = 0;
        }
        if (!f) {
            fprintf(stderr, "%s\n", err.message);
            exit(1);
        }
        double t1 = now_ms();
        sv_compose_fold(v->cr, W, H, &v->d, &v->vp, ax, f, NULL, v->ov);
        cairo_surface_flush(v->surf);
        *q_ms = t1 - t0;
        *d_ms = now_ms() - t1;
        return;
    }
    sv_layout lay = {0};
    double rh = sv_rank_axis_row_h(ax);
    sv_layout_build(&lay, nt, NULL, NULL, a, b, rh, rh);
    uint8_t *want = calloc(nt, 1);
    if (!want) abort();
    memset(want + a, 1, b - a + 1);
    /* as the window does (frame_holds): the scene in hand while it is of
     * this time window and holds the rows on screen (rank zooms and pans
     * inside the timelines it was read for) */
    sv_scene *s = v->rows;
    *bytes = 0;
    if (!s || s->t0 != v->vp.t0 || s->t1 != v->vp.t1 || s->width != (int)g.canvas_w || !sv_scene_covers(s, want)) {
        sv_scene_free(v->rows);
        s = v->rows = sv_scene_query(v->d.r, v->vp.t0, v->vp.t1, (int)g.canvas_w, want, 0, NULL, NULL, &err);
        *bytes = s ? s->stats.bytes_read : 0;
    }
    free(want);
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    double t1 = now_ms();
    /* the layout starts at timeline a: shift by the part of it above */
    cairo_save(v->cr);
    sv_compose(v->cr, W, H, &v->d, &v->vp, &lay, s, v->ov);
    cairo_restore(v->cr);
    cairo_surface_flush(v->surf);
    *q_ms = t1 - t0;
    *d_ms = now_ms() - t1;
    sv_layout_clear(&lay);
}

static void bench_ranks(const char *path, int n, int verbose)
{
    view v;
    memset(&v, 0, sizeof v);
    slog_error err = {0};
    double t_open = now_ms();
    if (sv_doc_open(&v.d, path, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    v.canvas_w = g.canvas_w;
    double lo, hi;
    sv_doc_extent(&v.d, &lo, &hi);
    sv_viewport_init(&v.vp, lo, hi, g.canvas_w);
    v.surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    v.cr = cairo_create(v.surf);
    uint32_t nt = v.d.fi->n_timelines;
    sv_fold *ovf = sv_fold_query(v.d.r, lo, hi, (int)g.canvas_w, 0, nt - 1, 1, &err);
    if (!ovf) {
        fprintf(stderr, "%s\n", err.message);
        exit(1);
    }
    v.ov = sv_overview_from_fold(ovf);
    sv_fold_free(ovf);
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, nt, g.canvas_h);
    double q, d;
    uint64_t bytes;
    int folded;
    ranks_frame(&v, &ax, &q, &d, &bytes, &folded);
    double first = now_ms() - t_open;
    /* time axis, then rank axis: zoom 1.5x around a pseudo-random point 3
     * frames out of 4, pan a fifth otherwise, refit every 16 */
    double *tot = malloc(sizeof(double) * 2 * (size_t)n);
    if (!tot) abort();
    for (int axis = 0; axis < 2; axis++) {
        unsigned seed = 12345;
        sv_viewport_fit(&v.vp);
        sv_rank_axis_fit(&ax);
        uint64_t max_bytes = 0;
        int n_folded = 0;
        for (int i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            double x = (seed >> 8) % (unsigned)(axis ? g.canvas_h : g.canvas_w);
            if (i % 16 == 15) {
                sv_viewport_fit(&v.vp);
                sv_rank_axis_fit(&ax);
            } else if (axis == 0 && i % 4 == 3) {
                sv_viewport_pan_px(&v.vp, (seed & 1) ? v.canvas_w / 5 : -v.canvas_w / 5);
            } else if (axis == 0) {
                sv_viewport_zoom_at(&v.vp, 1.5, x);
            } else if (i % 4 == 3) {
                sv_rank_axis_pan_px(&ax, (seed & 1) ? g.canvas_h / 5 : -g.canvas_h / 5);
            } else {
                sv_rank_axis_zoom_at(&ax, 1.5, x);
            }
            ranks_frame(&v, &ax, &q, &d, &bytes, &folded);
            tot[axis * n + i] = q + d;
            n_folded += folded;
            if (bytes > max_bytes) max_bytes = bytes;
            if (verbose)
                printf("  %s frame %2d: %s, timelines %.0f-%.0f, window %.6f s, %.1f KiB read, query %5.1f ms, "
                       "draw %5.1f ms\n",
                       axis ? "rank" : "time", i, folded ? "folded" : "rows", ax.r0, ax.r1, (v.vp.t1 - v.vp.t0) / 1e9,
                       bytes / 1024.0, q, d);
        }
        printf("%-24s %6u ranks %8.1f MiB | first frame %6.1f ms | %s zoom/pan frame median %6.1f ms, "
               "p90 %6.1f ms, %d of %d folded, max read %.1f KiB\n",
               strrchr(path, '/') ? strrchr(path, '/') + 1 : path, nt, v.d.fi->file_size / 1048576.0, first,
               axis ? "rank" : "time", pct(tot + axis * n, n, 0.5), pct(tot + axis * n, n, 0.9), n_folded, n,
               max_bytes / 1024.0);
    }
    free(tot);
    view_close(&v);
}

static int usage(const char *argv0)
{
    fprintf(stderr,
            "usage: %s [--huge] [--only small|large|huge] [--frames N] [--verbose] [WORK_DIR]\n"
            "       %s --ranks FILE.slog2... [--frames N] [--verbose]\n"
            "  --huge     also the ~10 GB file (written once into WORK_DIR, then reused)\n"
            "  --only     just one file\n"
            "  --frames   zoom/pan frames per file (default 40)\n"
            "  --verbose  a line per zoom/pan frame\n"
            "  --ranks    frames of the given files in both axes, folded where the\n"
            "             timelines do not fit 3 px high\n",
            argv0, argv0);
    return 2;
}

int main(int argc, char **argv)
{
    const char *dir = ".", *only = NULL;
    int huge = 0, frames = 40, verbose = 0, ranks = 0, n_files = 0;
    const char *files[64];
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--ranks") == 0)
            ranks = 1;
        else if (strcmp(argv[i], "--huge") == 0)
            huge = 1;
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--verbose") == 0)
            verbose = 1;
        else if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (argv[i][0] == '-')
            return usage(argv[0]);
        else if (n_files < 64)
            files[n_files++] = dir = argv[i];
    }
    if (frames < 1) return usage(argv[0]);
    if (ranks) {
        printf("frames at %dx%d, %d zoom/pan frames per axis and file\n", W, H, frames);
        for (int i = 0; i < n_files; i++) bench_ranks(files[i], frames, verbose);
        return n_files ? 0 : usage(argv[0]);
    }
    printf("frames at %dx%d, 64 timelines, %d zoom/pan frames per file\n", W, H, frames);
    int ran = 0;
    for (int k = 0; k < N_FILES; k++) {
        const bench_file *f = &FILES[k];
        if (only ? strcmp(only, f->name) != 0 : strcmp(f->name, "huge") == 0 && !huge) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/bench-%s.slog2", dir, f->name);
        if (ensure_file(dir, f, path) == 0) bench(path, f->name, frames, verbose);
        ran = 1;
    }
    return ran ? 0 : usage(argv[0]);
}
