/* SPDX-License-Identifier: MIT */
/* test_raster.c - the canvas drawn in place on an image target
 * (sv_raster_init_on) against the canvas drawn into a raster of its own and
 * painted (the path of any other target): the same pixels, for frames with
 * preview columns, state boxes and arrows, in both themes and both image
 * formats; and which targets are drawn in place. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "doc.h"
#include "fold.h"
#include "gen.h"
#include "raster.h"
#include "scene.h"
#include "theme.h"

enum { W = 900, H = 500 };

/* Whether sv_raster_init_on(cr) draws on cr's target, undone. */
static int in_place(cairo_t *cr, double w, double h)
{
    sv_raster ras;
    if (!sv_raster_init_on(&ras, cr, w, h)) return -1;
    int on = ras.on != NULL;
    sv_raster_free(&ras);
    return on;
}

static void test_targets(void)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 100);
    cairo_t *cr = cairo_create(s);
    CHECK_EQ(in_place(cr, 200, 100), 1);
    CHECK_EQ(in_place(cr, 199.5, 100), 0); /* not whole pixels */
    CHECK_EQ(in_place(cr, 201, 100), 0);   /* beyond the image */
    cairo_save(cr);
    cairo_translate(cr, 20, 10);
    CHECK_EQ(in_place(cr, 180, 90), 1);
    CHECK_EQ(in_place(cr, 181, 90), 0);
    cairo_translate(cr, 0.5, 0);
    CHECK_EQ(in_place(cr, 100, 50), 0);
    cairo_restore(cr);
    cairo_save(cr);
    cairo_scale(cr, 2, 2);
    CHECK_EQ(in_place(cr, 50, 20), 0);
    cairo_restore(cr);
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, 50, 50);
    cairo_clip(cr);
    CHECK_EQ(in_place(cr, 100, 100), 0); /* pixels outside the clip */
    cairo_restore(cr);
    cairo_push_group(cr);
    CHECK_EQ(in_place(cr, 100, 100), 0);
    cairo_pattern_destroy(cairo_pop_group(cr));
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    cairo_surface_t *a8 = cairo_image_surface_create(CAIRO_FORMAT_A8, 200, 100);
    cr = cairo_create(a8);
    CHECK_EQ(in_place(cr, 100, 100), 0);
    cairo_destroy(cr);
    cairo_surface_destroy(a8);
}

/* A frame: rows of a scene, or folded rows (fold not NULL). */
typedef struct frame {
    const sv_doc *d;
    const sv_viewport *vp;
    const sv_layout *lay;
    const sv_scene *sc;
    const sv_rank_axis *ax;
    const sv_fold *fold;
} frame;

static void compose_frame(cairo_t *cr, const frame *fr)
{
    if (fr->fold)
        sv_compose_fold(cr, W, H, fr->d, fr->vp, fr->ax, fr->fold, NULL, NULL);
    else
        sv_compose(cr, W, H, fr->d, fr->vp, fr->lay, fr->sc, NULL);
}

/* The frame composed on a surface of format fmt, in place (direct) or
 * through a group, which the canvas cannot draw on in place. */
static cairo_surface_t *compose(const frame *fr, cairo_format_t fmt, int direct)
{
    cairo_surface_t *s = cairo_image_surface_create(fmt, W, H);
    cairo_t *cr = cairo_create(s);
    if (direct) {
        compose_frame(cr, fr);
    } else {
        cairo_push_group(cr);
        compose_frame(cr, fr);
        cairo_pop_group_to_source(cr);
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
        cairo_paint(cr);
    }
    cairo_destroy(cr);
    cairo_surface_flush(s);
    return s;
}

/* Pixels that differ (RGB24: the colour bytes only). */
static long n_differ(cairo_surface_t *a, cairo_surface_t *b, cairo_format_t fmt)
{
    uint32_t mask = fmt == CAIRO_FORMAT_RGB24 ? 0x00ffffffu : 0xffffffffu;
    long n = 0;
    for (int y = 0; y < H; y++) {
        const uint32_t *pa = (const uint32_t *)(void *)(cairo_image_surface_get_data(a) +
                                                        (size_t)y * (size_t)cairo_image_surface_get_stride(a));
        const uint32_t *pb = (const uint32_t *)(void *)(cairo_image_surface_get_data(b) +
                                                        (size_t)y * (size_t)cairo_image_surface_get_stride(b));
        for (int x = 0; x < W; x++) n += ((pa[x] ^ pb[x]) & mask) != 0;
    }
    return n;
}

static void test_frames(const char *path)
{
    sv_doc d;
    slog_error err = {0};
    CHECK(sv_doc_open(&d, path, &err) == SLOG_OK);
    uint32_t nt = d.fi->n_timelines;
    sv_compose_geom g;
    sv_compose_geom_for(W, H, &g);
    sv_layout lay;
    sv_layout_build(&lay, nt, d.tl_groups, d.tl_keys, 0, nt - 1, 20, 16);
    sv_layout_set_heights(&lay, 24, 16);
    double lo, hi;
    sv_doc_extent(&d, &lo, &hi);
    /* the whole span (preview columns), a window of state boxes and arrows */
    const double windows[][2] = {{lo, hi}, {lo + (hi - lo) * 0.4, lo + (hi - lo) * 0.41}};
    for (int dark = 0; dark < 2; dark++) {
        sv_theme_set_dark(dark);
        for (size_t k = 0; k < sizeof windows / sizeof windows[0]; k++) {
            sv_viewport vp;
            sv_viewport_init(&vp, windows[k][0], windows[k][1], g.canvas_w);
            sv_scene *sc = sv_scene_query(d.r, vp.t0, vp.t1, (int)g.canvas_w, NULL, 0, NULL, NULL, &err);
            CHECK(sc != NULL);
            if (!sc) continue;
            CHECK(sc->n_items > 0 || sc->n_slots > 0);
            /* and the timelines folded into rows of three */
            sv_rank_axis ax;
            sv_rank_axis_init(&ax, 0, nt, g.canvas_h);
            sv_fold *fold = sv_fold_query(d.r, vp.t0, vp.t1, (int)g.canvas_w, 0, nt - 1, nt / 3, &err);
            CHECK(fold != NULL && fold->n_rows > 1);
            const frame frames[] = {{&d, &vp, &lay, sc, NULL, NULL}, {&d, &vp, NULL, NULL, &ax, fold}};
            const cairo_format_t fmts[] = {CAIRO_FORMAT_ARGB32, CAIRO_FORMAT_RGB24};
            for (int m = 0; m < 2; m++) {
                for (int f = 0; f < 2; f++) {
                    cairo_surface_t *a = compose(&frames[m], fmts[f], 1);
                    cairo_surface_t *b = compose(&frames[m], fmts[f], 0);
                    CHECKF(n_differ(a, b, fmts[f]) == 0, "dark %d window %zu folded %d format %d: %ld pixels differ",
                           dark, k, m, f, n_differ(a, b, fmts[f]));
                    cairo_surface_destroy(a);
                    cairo_surface_destroy(b);
                }
            }
            sv_fold_free(fold);
            sv_scene_free(sc);
        }
    }
    sv_theme_set_dark(0);
    sv_layout_clear(&lay);
    sv_doc_close(&d);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/raster_16.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 16;
    o.n_iterations = 60;
    slog_error err = {0};
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    test_targets();
    test_frames(path);
    remove(path);
    printf("raster: all checks passed\n");
    return 0;
}
