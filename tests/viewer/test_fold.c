/* SPDX-License-Identifier: MIT */
/* test_fold.c - timelines folded into rows (fold.h): the rank axis, a
 * fold's rows and values against slog_reader_grid's, its runs against its
 * values, when a kept fold serves a view, the shares a drawn folded frame
 * shows against those values, the bands drawn from runs against the bands
 * drawn pixel by pixel (fold_ref.h), and `--render` of a generated file of
 * many timelines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "doc.h"
#include "fold.h"
#include "fold_ref.h"
#include "gen.h"

static void test_rank_axis(void)
{
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, 2048, 512);
    CHECK_NEAR(sv_rank_axis_row_h(&ax), 0.25, 1e-12);
    CHECK_NEAR(sv_rank_axis_to_y(&ax, 1024), 256, 1e-9);
    CHECK_NEAR(sv_rank_axis_y_to_rank(&ax, 128), 512, 1e-9);
    /* zoom keeps the timeline under the pointer in place */
    double r = sv_rank_axis_y_to_rank(&ax, 100);
    CHECK(sv_rank_axis_zoom_at(&ax, 8, 100));
    CHECK_NEAR(sv_rank_axis_y_to_rank(&ax, 100), r, 1e-6);
    CHECK_NEAR(ax.r1 - ax.r0, 256, 1e-9);
    /* no narrower than one timeline, no wider than the extent */
    sv_rank_axis_zoom_at(&ax, 1e9, 300);
    CHECK_NEAR(ax.r1 - ax.r0, 1, 1e-9);
    sv_rank_axis_zoom_at(&ax, 1e-9, 300);
    CHECK(ax.r0 == 0 && ax.r1 == 2048);
    /* pan is clamped */
    sv_rank_axis_set_range(&ax, 0, 64);
    CHECK(sv_rank_axis_pan_px(&ax, 512 * 100) && ax.r1 == 2048 && ax.r0 == 2048 - 64);
    CHECK(!sv_rank_axis_pan_px(&ax, 10));
    uint32_t a, b;
    sv_rank_axis_set_range(&ax, 10.5, 20.25);
    sv_rank_axis_visible(&ax, &a, &b);
    CHECK(a == 10 && b == 20);
    sv_rank_axis_fit(&ax);
    CHECK(ax.r0 == 0 && ax.r1 == 2048);
    /* folding: only when the rows would be lower than readable */
    CHECK(sv_fold_rows_for(0, 99, 600, 0) == 0);
    CHECK(sv_fold_rows_for(0, 2047, 600, 0) == 600);
    CHECK(sv_fold_rows_for(0, 9, 600, 4) == 4);
    char buf[64];
    uint64_t keys[4] = {0ull << 32, 1ull << 32, 2ull << 32, 2ull << 32 | 1};
    sv_fold_range_label(0, 2, keys, NULL, buf, sizeof buf);
    CHECK_STR(buf, "ranks 0\xe2\x80\x93"
                   "2");
    sv_fold_range_label(1, 3, keys, NULL, buf, sizeof buf);
    CHECK_STR(buf, "timelines 1\xe2\x80\x93"
                   "3");
}

/* A rectangle dragged on the canvas zooms both axes to what it covers;
 * a thin one leaves the axis it is thin along. */
static void test_zoom_to_rect(void)
{
    sv_viewport vp;
    sv_viewport_init(&vp, 0, 1e6, 100);
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, 100, 200);
    CHECK(sv_zoom_to_rect(&vp, &ax, 30, 60, 10, 21) == 1);
    CHECK_NEAR(vp.t0, 1e5, 1e-6);
    CHECK_NEAR(vp.t1, 3e5, 1e-6);
    CHECK(ax.r0 == 10 && ax.r1 == 30); /* rows 10.5 .. 30 touched: 10 .. 29 */
    sv_viewport before = vp;
    CHECK(sv_zoom_to_rect(&vp, &ax, 50, 0, 51, 100) == 1); /* thin in x: ranks only */
    CHECK(sv_viewport_equal(&before, &vp));
    CHECK(ax.r0 == 10 && ax.r1 == 20);
    CHECK(sv_zoom_to_rect(&vp, &ax, 50, 50, 51, 51) == 0);
    CHECK(sv_zoom_to_rect(&vp, NULL, 0, 50, 50, 51) == 1); /* time only */
    CHECK_NEAR(vp.t0, 1e5, 1e-6);
    CHECK_NEAR(vp.t1, 2e5, 1e-6);
}

/* Snapping widens a range to whole overview groups where reading it one
 * timeline at a time would decode too much, and leaves small ones. */
static void test_snap(void)
{
    slog_file_info fi = {0};
    fi.n_timelines = 16384;
    fi.group_timelines = 16;
    fi.n_drawables = 16384 * 150;
    uint32_t a = 1000, b = 2000, rows = 1000;
    CHECK(sv_fold_snap(&fi, &a, &b, &rows) == 1);
    CHECK(a == 992 && b == 2015 && rows == 64);
    a = 16380, b = 16383, rows = 1000;
    fi.n_drawables = (uint64_t)16384 * 100000;
    CHECK(sv_fold_snap(&fi, &a, &b, &rows) == 1);
    CHECK(a == 16368 && b == 16383 && rows == 1);
    fi.n_drawables = 16384 * 150;
    a = 10, b = 20, rows = 500;
    CHECK(sv_fold_snap(&fi, &a, &b, &rows) == 0 && a == 10 && b == 20 && rows == 500);
    fi.group_timelines = 1; /* no overview */
    a = 1000, b = 9000;
    CHECK(sv_fold_snap(&fi, &a, &b, &rows) == 0 && a == 1000 && b == 9000);
}

/* The fold a rank axis wants: every timeline a group a row while the
 * overview answers the window and the groups are at most four rows a
 * pixel, zoomed or not; the visible ones where it does not. */
static void test_want(void)
{
    slog_file_info fi = {0};
    fi.n_timelines = 16384;
    fi.group_timelines = 16;
    fi.n_drawables = 16384 * 150;
    fi.leaf_shift = 16;
    fi.depth = 14;
    fi.overview_depth = 11; /* the overview's lowest level a few above the leaves: bins finer than a column */
    fi.preview_bins = 64;
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, 16384, 700);
    uint32_t a, b, rows;
    sv_fold_want(&fi, &ax, 700, 0, 4e8, 1600, &a, &b, &rows);
    CHECK(a == 0 && b == 16383 && rows == 1024); /* all: the same fold as zoomed */
    sv_rank_axis_set_range(&ax, 3000, 5000);
    sv_fold_want(&fi, &ax, 700, 0, 4e8, 1600, &a, &b, &rows);
    CHECK(a == 0 && b == 16383 && rows == 1024);
    /* a window too narrow for the overview's bins: the visible groups */
    sv_fold_want(&fi, &ax, 700, 0, 1e6, 1600, &a, &b, &rows);
    CHECK(a == 2992 && b == 5007 && rows == 126);
    /* few drawables: the visible timelines, read one by one */
    fi.n_drawables = 16384;
    sv_fold_want(&fi, &ax, 700, 0, 4e8, 1600, &a, &b, &rows);
    CHECK(a == 3000 && b == 4999 && rows == 700);
    /* groups more than four rows a pixel: the visible ones, a row a pixel */
    fi.n_drawables = 16384 * 150;
    sv_rank_axis_fit(&ax);
    sv_fold_want(&fi, &ax, 200, 0, 4e8, 1600, &a, &b, &rows);
    CHECK(a == 0 && b == 16383 && rows == 200);
}

/* Label slots over n rows of `per` timelines each but the last, of
 * `last` timelines, on an axis of h pixels: they cover the rows in order,
 * each at least SV_FOLD_LABEL_H high unless it is the only one, and each
 * but the last ends on the first row that makes it so high. Returns how
 * many slots there are. */
static uint32_t check_label_slots(uint32_t n, uint32_t per, uint32_t last, double h)
{
    uint32_t *first = malloc((n + 1) * sizeof *first);
    if (!first) return 0;
    for (uint32_t i = 0; i <= n; i++) first[i] = i < n ? i * per : (n - 1) * per + last;
    sv_fold f = {.n_rows = n, .row_first = first};
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, first[n], h);
    uint32_t slots = 0, i = 0;
    while (i < n) {
        uint32_t j = sv_fold_label_rows(&f, &ax, i, SV_FOLD_LABEL_H);
        CHECK(j >= i && j < n);
        double s0, s1, e0, e1;
        sv_fold_band(&f, &ax, i, &s0, &s1);
        sv_fold_band(&f, &ax, j, &e0, &e1);
        if (i > 0 || j + 1 < n) CHECK(e1 - s0 >= SV_FOLD_LABEL_H);
        if (j + 1 < n) CHECK(e0 - s0 < SV_FOLD_LABEL_H); /* one row fewer would not do */
        slots++;
        i = j + 1;
    }
    free(first);
    return slots;
}

/* The labels of folded rows: a short last group (100,000 ranks in groups
 * of 1,920 leave 160) is named with the slot before it, not by a label
 * of its own drawn over that slot's. */
static void test_label_slots(void)
{
    /* 52 groups of 1,920 and one of 160 on 760 pixels: 14.6 pixels a
     * group, so slots of two groups, the last 1.2 pixels joining the one
     * before (26 slots, not 27) */
    CHECK(check_label_slots(53, 1920, 160, 760) == 26);
    /* rows of 10 pixels: slots of two, the last two rows a slot */
    CHECK(check_label_slots(64, 1, 1, 640) == 32);
    /* rows of 30 pixels with a last of 3: a slot a row, the last two one */
    CHECK(check_label_slots(10, 10, 1, 273) == 9);
    /* one short row: one slot */
    CHECK(check_label_slots(1, 5, 5, 8) == 1);
}

/* A snapped fold of a generated file is read from its overview: rows of
 * whole groups, as the grid of the same range says. */
static void test_snap_file(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    uint32_t a = 300, b = 1700, rows = 200;
    if (fi->group_timelines <= 1) return;
    int snapped = sv_fold_snap(fi, &a, &b, &rows);
    if (!snapped) { /* a file this small may be read directly */
        CHECK(1401.0 * fi->n_drawables / fi->n_timelines <= SV_FOLD_DIRECT_DRAWABLES);
        return;
    }
    CHECK(a % fi->group_timelines == 0 && (b + 1) % fi->group_timelines == 0 && a <= 300 && b >= 1700);
    sv_fold *f = sv_fold_query(r, 0, (double)fi->t_max, 200, a, b, rows, NULL);
    CHECK(f != NULL);
    if (!f) return;
    CHECK(f->unit == fi->group_timelines && f->row_first[0] == a && f->row_first[f->n_rows] == b + 1);
    sv_fold_free(f);
}

/* The fold's rows are the grid's rows, its values the grid's values. */
static void test_fold_vs_grid(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    const int W = 300;
    const uint32_t first = 100, last = 1500, rows = 50;
    sv_fold *f = sv_fold_query(r, 0, (double)fi->t_max, W, first, last, rows, NULL);
    CHECK(f != NULL);
    if (!f) return;
    slog_grid_query q = {.t0 = 0, .t1 = fi->t_max, .tl_first = first, .tl_last = last, .n_cols = W, .n_rows = rows};
    slog_grid *g = NULL;
    CHECK(slog_reader_grid(r, &q, &g, NULL, NULL) == SLOG_OK);
    if (!g) {
        sv_fold_free(f);
        return;
    }
    CHECK(f->n_rows == slog_grid_n_rows(g) && f->n_rows <= rows && f->n_rows > 0);
    CHECK(f->row_first[0] == first && f->row_first[f->n_rows] == last + 1);
    float *sh = calloc(fi->n_categories, sizeof *sh);
    for (uint32_t i = 0; i < f->n_rows; i++) {
        uint32_t a, b;
        slog_grid_row_range(g, i, &a, &b);
        CHECK(f->row_first[i] == a && f->row_first[i + 1] == b + 1);
        CHECK(sv_fold_row_of(f, a) == (long)i && sv_fold_row_of(f, b) == (long)i);
        for (long c = 0; c < W; c += 7) {
            CHECK(sv_fold_shares(f, i, c, sh) == b - a + 1);
            for (uint32_t k = 0; k < fi->n_categories; k++) {
                const float *v = slog_grid_values(g, i, k);
                CHECK(sh[k] == (v ? v[c] : 0));
            }
        }
    }
    CHECK(sv_fold_row_of(f, first - 1) == -1 && sv_fold_row_of(f, last + 1) == -1);
    free(sh);
    slog_grid_free(g);
    sv_fold_free(f);
}

/* The runs say what the values say: every state category's value at every
 * column, 0 outside the runs, runs in order of columns and apart. */
static void test_runs(slog_reader *r, uint32_t first, uint32_t last, uint32_t rows, int width)
{
    const slog_file_info *fi = slog_reader_info(r);
    sv_fold *f = sv_fold_query(r, 0, (double)fi->t_max, width, first, last, rows, NULL);
    CHECK(f != NULL);
    if (!f) return;
    float *want = calloc((size_t)f->n_categories * f->width + 1, sizeof *want);
    float *got = calloc((size_t)f->n_categories * f->width + 1, sizeof *got);
    CHECK(want && got);
    size_t bad = 0, n_runs = 0;
    for (uint32_t row = 0; want && got && row < f->n_rows; row++) {
        memset(want, 0, sizeof *want * f->n_categories * f->width);
        memset(got, 0, sizeof *got * f->n_categories * f->width);
        for (uint32_t k = 0; k < f->n_categories; k++) {
            const float *v = sv_fold_values(f, row, k);
            if (v && f->cat_kind[k] == SLOG_KIND_STATE)
                for (int c = 0; c < f->width; c++) want[(size_t)k * f->width + c] = v[c] > 0 ? v[c] : 0;
        }
        uint32_t end = 0;
        for (uint32_t i = f->run_first[row]; i < f->run_first[row + 1]; i++) {
            const sv_fold_run *run = &f->runs[i];
            CHECK(run->c0 >= end && run->c1 > run->c0 && run->c1 <= (uint32_t)f->width && run->n > 0);
            end = run->c1;
            n_runs++;
            for (uint32_t e = run->first; e < run->first + run->n; e++) {
                const sv_fold_share *sh = &f->shares[e];
                CHECK(sh->category < f->n_categories && sh->value > 0);
                CHECK(e == run->first || sh->category > f->shares[e - 1].category);
                if (sh->category >= f->n_categories) continue;
                for (uint32_t c = run->c0; c < run->c1 && c < (uint32_t)f->width; c++)
                    got[(size_t)sh->category * f->width + c] = sh->value;
            }
        }
        for (size_t i = 0; i < (size_t)f->n_categories * f->width; i++) bad += want[i] != got[i];
    }
    CHECK_EQ(bad, 0);
    CHECK(n_runs > 0);
    free(want);
    free(got);
    sv_fold_free(f);
}

static int same_fold(const sv_fold *a, const sv_fold *b)
{
    if (a->n_rows != b->n_rows || a->width != b->width || a->unit != b->unit) return 0;
    for (uint32_t i = 0; i <= a->n_rows; i++)
        if (a->row_first[i] != b->row_first[i]) return 0;
    for (uint32_t row = 0; row < a->n_rows; row++)
        for (uint32_t k = 0; k < a->n_categories; k++) {
            const float *u = sv_fold_values(a, row, k), *v = sv_fold_values(b, row, k);
            if (!u != !v || (u && memcmp(u, v, sizeof *u * (size_t)a->width) != 0)) return 0;
        }
    return 1;
}

/* A kept fold serves a view when a fold queried for it would be the same,
 * value for value; not for another window, width or range of timelines. */
static void test_serves(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    uint32_t nt = fi->n_timelines, gt = fi->group_timelines;
    double t1 = (double)fi->t_max;
    /* columns no narrower than the overview's bins: read from it */
    const int W = 200;
    sv_fold *f = sv_fold_query(r, 0, t1, W, 0, nt - 1, nt / gt, NULL);
    CHECK(f != NULL);
    if (!f) return;
    CHECK(gt <= 1 || f->unit == gt);
    CHECK(sv_fold_serves(f, fi, 0, t1, W, 0, nt - 1, nt / gt));
    CHECK(!sv_fold_serves(f, fi, 0, t1 / 2, W, 0, nt - 1, nt / gt));
    CHECK(!sv_fold_serves(f, fi, 0, t1, W + 1, 0, nt - 1, nt / gt));
    CHECK(!sv_fold_serves(f, fi, 0, t1, W, gt, nt - 1, nt / gt));
    CHECK(!sv_fold_serves(NULL, fi, 0, t1, W, 0, nt - 1, nt / gt));
    if (f->unit > 1) {
        /* more rows asked for than groups, less than twice: the same grid */
        uint32_t more = nt / gt + nt / gt / 2;
        CHECK(sv_fold_serves(f, fi, 0, t1, W, 0, nt - 1, more));
        sv_fold *g = sv_fold_query(r, 0, t1, W, 0, nt - 1, more, NULL);
        CHECK(g != NULL && same_fold(f, g));
        sv_fold_free(g);
        /* half the rows: two groups a row, another grid */
        CHECK(!sv_fold_serves(f, fi, 0, t1, W, 0, nt - 1, nt / gt / 2));
        g = sv_fold_query(r, 0, t1, W, 0, nt - 1, nt / gt / 2, NULL);
        CHECK(g != NULL && !same_fold(f, g));
        sv_fold_free(g);
        /* over twice as many rows as groups: read timeline by timeline */
        CHECK(!sv_fold_serves(f, fi, 0, t1, W, 0, nt - 1, 2 * (nt / gt) + 1));
    } else {
        CHECK(!sv_fold_serves(f, fi, 0, t1, W, 0, nt - 1, nt / gt + 1));
    }
    sv_fold_free(f);
}

/* The bands drawn from runs are the bands drawn pixel by pixel from the
 * values (fold_ref.h), pixel for pixel: bands of a pixel and less, tall
 * ones on alternating backgrounds with event ticks, a hidden category, and
 * a fold drawn for a window it was not made for (as the window does while
 * the next one is read). */
static void test_draw_runs(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    const int W = 320, H = 300;
    uint32_t nt = fi->n_timelines;
    sv_palette pal;
    CHECK(sv_palette_init(&pal, r) == 0);
    uint32_t *a = malloc(sizeof *a * W * H), *b = malloc(sizeof *b * W * H);
    CHECK(a && b);
    struct {
        double r0, r1;              /* rank axis */
        uint32_t first, last, rows; /* fold */
        double v0, v1;              /* viewport, fractions of the fold's window */
        int hide;                   /* a category hidden */
    } cases[] = {
        {0, nt, 0, nt - 1, H, 0, 1, 0},            /* a row a pixel */
        {0, nt, 0, nt - 1, 2 * H, 0, 1, 0},        /* two rows a pixel */
        {0, nt, 0, nt - 1, 97, 0, 1, 0},           /* bands of about 3 px */
        {100, 140, 96, 160, 64, 0, 1, 0},          /* tall bands, ticks */
        {100, 166.6, 96, 180, 85, 0, 1, 0},        /* bands of 4.5 px */
        {100.5, 123.7, 96, 160, 64, 0, 1, 1},      /* cut bands, hidden */
        {0, nt, 0, nt - 1, H, 0.2, 1.2, 0},        /* panned past the end */
        {0, nt, 0, nt - 1, H, -0.3, 0.5, 0},       /* zoomed out, panned */
        {200, 260, 0, nt - 1, 100, 0.31, 0.37, 0}, /* zoomed into both */
    };
    int n_cases = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; a && b && i < n_cases; i++) {
        sv_fold *f = sv_fold_query(r, 0, (double)fi->t_max, W, cases[i].first, cases[i].last, cases[i].rows, NULL);
        CHECK(f != NULL);
        if (!f) continue;
        sv_viewport vp;
        sv_viewport_init(&vp, f->t0, f->t1, W);
        double span = f->t1 - f->t0;
        vp.t0 = f->t0 + cases[i].v0 * span;
        vp.t1 = f->t0 + cases[i].v1 * span;
        sv_rank_axis ax;
        sv_rank_axis_init(&ax, 0, nt, H);
        sv_rank_axis_set_range(&ax, cases[i].r0, cases[i].r1);
        for (uint32_t k = 0; k < pal.n; k++) pal.visible[k] = 1;
        if (cases[i].hide)
            for (uint32_t k = 0; k < pal.n; k++)
                if (pal.kind[k] == SLOG_KIND_STATE) {
                    pal.visible[k] = 0;
                    break;
                }
        sv_fold_params p = {.vp = &vp, .ax = &ax, .fold = f, .pal = &pal, .hover_row = -1};
        memset(a, 0, sizeof *a * W * H);
        memset(b, 0, sizeof *b * W * H);
        sv_fold_draw_bands(a, W, W, H, &p);
        CHECK(ref_fold_bands(b, W, W, H, &p) == 0);
        size_t diff = 0, distinct = 0;
        for (size_t j = 0; j < (size_t)W * H; j++) {
            diff += a[j] != b[j];
            distinct += j && b[j] != b[j - 1];
        }
        CHECKF(diff == 0, "case %d: %zu pixels differ", i, diff);
        CHECKF(distinct > 100, "case %d: %zu changes along the pixels", i, distinct); /* a picture */
        sv_fold_free(f);
    }
    free(a);
    free(b);
    sv_palette_clear(&pal);
}

/* Drawn with one category visible at a time, each band's column shows that
 * category's share of the band's height: the picture says what the grid
 * says. Bands are 20 px (2048 timelines, 32 rows of 64, 640 px). */
static void test_fold_pixels(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    const int W = 240, H = 640;
    sv_fold *f = sv_fold_query(r, 0, (double)fi->t_max, W, 0, fi->n_timelines - 1, 32, NULL);
    CHECK(f != NULL && f->n_rows == 32);
    if (!f || f->n_rows != 32) goto out_fold;
    sv_palette pal;
    CHECK(sv_palette_init(&pal, r) == 0);
    sv_viewport vp;
    sv_viewport_init(&vp, f->t0, f->t1, W);
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, fi->n_timelines, H);
    sv_theme_set_dark(0);
    const double *bgc = sv_theme_current()->bg;
    cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, W, H);
    int checked = 0;
    for (uint32_t k = 0; k < fi->n_categories; k++) {
        if (pal.kind[k] != SLOG_KIND_STATE) continue;
        for (uint32_t j = 0; j < pal.n; j++) pal.visible[j] = j == k;
        cairo_t *cr = cairo_create(surf);
        sv_fold_params p = {.vp = &vp, .ax = &ax, .fold = f, .pal = &pal, .hover_row = -1};
        sv_render_fold(cr, W, H, &p);
        cairo_destroy(cr);
        cairo_surface_flush(surf);
        const unsigned char *data = cairo_image_surface_get_data(surf);
        int stride = cairo_image_surface_get_stride(surf);
        /* the channel where the category differs most from the row */
        uint32_t c = pal.rgba[k];
        double a = (c & 255) / 255.0, col[3], bg[3] = {bgc[0], bgc[1], bgc[2]};
        for (int ch = 0; ch < 3; ch++) col[ch] = ((c >> (24 - 8 * ch)) & 255) / 255.0 * a * 0.9 + 0.1;
        int best = 0;
        for (int ch = 1; ch < 3; ch++)
            if (fabs(col[ch] - bg[ch]) > fabs(col[best] - bg[best])) best = ch;
        double diff = col[best] - bg[best];
        if (fabs(diff) < 0.15) continue;
        for (uint32_t row = 0; row < f->n_rows; row++) {
            const float *v = sv_fold_values(f, row, k);
            double y0, y1;
            sv_fold_band(f, &ax, row, &y0, &y1);
            /* odd bands sit on the alternate background; read even ones */
            if (row % 2) continue;
            for (int x = 3; x < W; x += 11) {
                /* skip the grid lines drawn over the shares */
                double want = v ? v[x] : 0;
                double cov = 0;
                for (int y = (int)y0 + 1; y < (int)y1; y++) {
                    const unsigned char *px = data + (size_t)y * stride + 4 * x;
                    double got = px[2 - best] / 255.0; /* BGRx in memory */
                    cov += (got - bg[best]) / diff;
                }
                double hh = (y1 - y0) - 1;
                if (fabs(cov / hh - want) > 0.03 + 1.0 / hh) {
                    /* a ruler grid line may cross this column */
                    const unsigned char *px = data + (size_t)((int)y1 - 1) * stride + 4 * x;
                    const unsigned char *nb = data + (size_t)((int)y1 - 1) * stride + 4 * (x + 1);
                    if (memcmp(px, nb, 3) != 0 && want > 0) continue;
                }
                CHECK_NEAR(cov / hh, want, 0.03 + 1.0 / hh);
                checked++;
            }
        }
    }
    CHECK(checked > 100);
    cairo_surface_destroy(surf);
    sv_palette_clear(&pal);
out_fold:
    sv_fold_free(f);
}

/* --render of the many-timeline file folds it and says so in --stats. */
static void test_render(const char *file, const char *dir)
{
    char png[4096], out[4096];
    snprintf(png, sizeof png, "%s/fold_render.png", dir);
    snprintf(out, sizeof out, "%s/fold_render.txt", dir);
    sv_headless_opts o = {.file = file, .out = png, .all = 1, .width = 800, .height = 600, .print_stats = 1};
    fflush(stdout);
    int saved = dup(1);
    FILE *f = fopen(out, "w");
    CHECK(f != NULL);
    if (!f) return;
    dup2(fileno(f), 1);
    int rc = sv_headless_render(&o, stderr);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(f);
    CHECK(rc == 0);
    char line[1024] = "";
    f = fopen(out, "r");
    if (f) {
        if (!fgets(line, sizeof line, f)) line[0] = 0;
        fclose(f);
    }
    unsigned n_tl = 0, rows = 0;
    const char *p = strstr(line, " timelines, rows ");
    CHECK(p != NULL);
    if (p) {
        while (p > line && p[-1] != ' ') p--;
        CHECK(sscanf(p, "%u timelines, rows %u", &n_tl, &rows) == 2);
    }
    CHECK(n_tl == 2048);
    CHECK(rows > 0 && rows <= 600);
    CHECK(strstr(line, "bytes_read") != NULL);
    cairo_surface_t *s = cairo_image_surface_create_from_png(png);
    CHECK(cairo_surface_status(s) == CAIRO_STATUS_SUCCESS);
    if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS) {
        CHECK(cairo_image_surface_get_width(s) == 800 && cairo_image_surface_get_height(s) == 600);
        /* the last rows are drawn: colour other than the background near
         * the canvas bottom */
        sv_compose_geom g;
        sv_compose_geom_for(800, 600, &g);
        const unsigned char *d = cairo_image_surface_get_data(s);
        int stride = cairo_image_surface_get_stride(s), coloured = 0;
        int y = (int)(g.canvas_y + g.canvas_h) - 2;
        for (int x = (int)g.canvas_x + 2; x < 798; x++) {
            const unsigned char *px = d + (size_t)y * stride + 4 * x;
            coloured += abs(px[0] - px[1]) + abs(px[1] - px[2]) > 30;
        }
        CHECK(coloured > 50);
    }
    cairo_surface_destroy(s);
    /* --rows R asks for at most R rows, --timelines A-B folds a part */
    o.rows = 8;
    o.have_timelines = 1;
    o.tl_first = 512;
    o.tl_last = 1023;
    o.print_stats = 0;
    CHECK(sv_headless_render(&o, stderr) == 0);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    test_rank_axis();
    test_zoom_to_rect();
    test_snap();
    test_want();
    test_label_slots();
    char path[4096];
    snprintf(path, sizeof path, "%s/fold_2048.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 2048;
    o.n_iterations = 20;
    o.per_host = 64;
    /* ranks start 3 µs apart: 2,048 of them need iterations long enough
     * for the last to finish before the next begins (gen.c writes each
     * iteration in end order) */
    o.iteration_ns = 24000000;
    slog_error err = {0};
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    slog_reader *r = NULL;
    CHECK(slog_reader_open(&r, path, &err) == SLOG_OK);
    if (r) {
        test_fold_vs_grid(r);
        test_fold_pixels(r);
        test_runs(r, 0, 2047, 300, 500);
        test_runs(r, 100, 1500, 50, 300);
        test_serves(r);
        test_draw_runs(r);
        test_snap_file(r);
        slog_reader_close(r);
        test_render(path, dir);
    }
    unlink(path);
    printf("fold: all checks passed\n");
    return 0;
}
