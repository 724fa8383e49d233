/* SPDX-License-Identifier: MIT */
/* test_flows.c - messages between folded row groups (flows.h): the flows'
 * counts per slice and pair of groups against a brute-force fold of every
 * arrow a query delivers, the groups made for a fold as a canvas shows it,
 * and the drawing (lines where flows are, nothing with the arrows hidden). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "flows.h"
#include "fold.h"
#include "gen.h"

/* Every arrow sent in [t0, t1] counted by (slice, sender group, receiver
 * group), the slice found by scanning the flows' own slice windows. */
typedef struct model {
    const sv_flows *fl;
    int64_t t0, t1;
    uint64_t *counts; /* n_slices x n_groups x n_groups */
    uint64_t total, outside, arrows;
} model;

static slog_cb_result model_cb(void *user, const slog_drawable *d)
{
    model *m = user;
    if (d->kind != SLOG_KIND_ARROW || d->start < m->t0 || d->start > m->t1) return SLOG_CONTINUE;
    m->arrows++;
    long s = sv_flows_group_of(m->fl, d->timeline), r = sv_flows_group_of(m->fl, d->end_timeline);
    if (s < 0 || r < 0) {
        m->outside++;
        return SLOG_CONTINUE;
    }
    uint32_t slice = UINT32_MAX;
    for (uint32_t i = 0; i < m->fl->n_slices; i++) {
        int64_t a, b;
        sv_flows_slice(m->fl, i, &a, &b);
        if (d->start >= a && d->start <= b) slice = i;
    }
    CHECK(slice != UINT32_MAX);
    if (slice == UINT32_MAX) return SLOG_CONTINUE;
    size_t g = m->fl->n_groups;
    m->counts[((size_t)slice * g + (size_t)s) * g + (size_t)r]++;
    m->total++;
    return SLOG_CONTINUE;
}

static uint64_t g_from[3]; /* flows by source (sv_flows_source) */

/* The flows of [t0, t1] in n_slices slices over groups gf (n + 1) equal a
 * brute-force count; returns the flows' total. */
static uint64_t check_against_model(slog_reader *r, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *gf,
                                    uint32_t n)
{
    CHECK_CONTEXT("window %" PRId64 ":%" PRId64 ", %u slices, %u groups", t0, t1, n_slices, n);
    slog_error err;
    sv_flows *fl = sv_flows_compute(r, t0, t1, n_slices, gf, n, NULL, NULL, &err);
    CHECKF(fl != NULL, "%s", err.message);
    if (!fl) return 0;
    /* the slices tile the window, or from the file's counts the nodes
     * that meet it within the file's span */
    if (fl->edges) {
        const slog_file_info *fi = slog_reader_info(r);
        CHECK(fl->edges[0] <= (t0 > fi->t_min ? t0 : fi->t_min) &&
              fl->edges[fl->n_slices] > (t1 < fi->t_max ? t1 : fi->t_max));
        t0 = fl->edges[0];
        t1 = fl->edges[fl->n_slices] - 1;
    }
    int64_t prev = t0 - 1;
    for (uint32_t i = 0; i < fl->n_slices; i++) {
        int64_t a, b;
        sv_flows_slice(fl, i, &a, &b);
        CHECK(a == prev + 1 && b >= a);
        prev = b;
    }
    CHECK(prev == t1);
    model m = {.fl = fl, .t0 = t0, .t1 = t1};
    m.counts = calloc((size_t)fl->n_slices * n * n, sizeof *m.counts);
    slog_query q = {.t0 = t0, .t1 = t1, .flags = SLOG_QUERY_NO_PREVIEW};
    CHECK(slog_reader_query(r, &q, model_cb, NULL, &m, NULL, &err) == SLOG_OK);
    size_t cells = 0;
    for (uint32_t s = 0; s < fl->n_slices; s++)
        for (uint32_t a = 0; a < n; a++)
            for (uint32_t b = 0; b < n; b++) {
                uint64_t want = m.counts[((size_t)s * n + a) * n + b], got = sv_flows_count(fl, s, a, b);
                CHECKF(want == got, "slice %u groups %u->%u: %" PRIu64 " flows, %" PRIu64 " arrows", s, a, b, got,
                       want);
                if (want) cells++;
            }
    CHECK(cells == fl->n_flows);
    CHECK(fl->total == m.total && fl->outside == m.outside);
    CHECK(m.arrows > 0);
    /* slices of the time tree's nodes exactly when the file counted them */
    CHECK((fl->edges != NULL) == (fl->source != SV_FLOWS_FROM_ANALYSIS));
    uint64_t max = 0;
    for (size_t i = 0; i < fl->n_flows; i++) {
        CHECK(fl->flows[i].messages > 0);
        if (fl->flows[i].messages > max) max = fl->flows[i].messages;
    }
    CHECK(fl->max == max);
    uint64_t total = fl->total;
    g_from[fl->source]++;
    free(m.counts);
    sv_flows_free(fl);
    check_context[0] = 0;
    return total;
}

static void test_counts(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    int64_t span = fi->t_max - fi->t_min;
    uint32_t nt = fi->n_timelines;
    /* uneven groups over every timeline */
    uint32_t all[] = {0, 5, 17, 40, nt};
    uint64_t whole = check_against_model(r, fi->t_min, fi->t_max, SV_FLOWS_SLICES, all, 4);
    /* a single slice sums what the slices do */
    CHECK(check_against_model(r, fi->t_min, fi->t_max, 1, all, 4) == whole);
    /* a window cutting the tree's nodes, and groups leaving timelines out */
    uint32_t some[] = {3, 10, 30, 31};
    check_against_model(r, fi->t_min + span * 13 / 100, fi->t_min + span * 77 / 100, 5, some, 3);
    /* a timeline a group */
    uint32_t one[65];
    for (uint32_t i = 0; i <= 64 && i <= nt; i++) one[i] = i;
    check_against_model(r, fi->t_min + span / 3, fi->t_min + span / 3 + span / 50, 3, one, nt < 64 ? nt : 64);
    /* bad groups are refused */
    uint32_t bad[] = {0, 5, 5};
    CHECK(sv_flows_new(0, 10, 2, bad, 2) == NULL);
    CHECK(sv_flows_new(10, 0, 2, all, 4) == NULL);
    /* a window of fewer nanoseconds than slices gets a slice a nanosecond */
    sv_flows *fl = sv_flows_new(100, 102, 8, all, 4);
    CHECK(fl && fl->n_slices == 3);
    /* slices are added in order */
    slog_matrix_cell c = {.sender = 1, .receiver = 20, .messages = 4};
    CHECK(fl && sv_flows_add_slice(fl, 1, &c, 1) == 0);
    CHECK(fl && sv_flows_add_slice(fl, 0, &c, 1) == -1);
    CHECK(fl && sv_flows_count(fl, 1, 0, 2) == 4 && sv_flows_count(fl, 1, 2, 0) == 0);
    sv_flows_free(fl);
}

/* The groups for a fold: consecutive visible bands, at least min_px high
 * but for the last, covering the bands the canvas shows. */
static void test_groups(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    slog_error err;
    uint32_t nt = fi->n_timelines;
    sv_fold *f = sv_fold_query(r, (double)fi->t_min, (double)fi->t_max, 200, 0, nt - 1, 40, &err);
    CHECKF(f != NULL, "%s", err.message);
    if (!f) return;
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, nt, 40);
    uint32_t *gf = NULL;
    uint32_t n = sv_flows_groups_for_fold(f, &ax, 10, &gf);
    CHECK(n >= 3 && n <= 4);
    CHECK(gf && gf[0] == f->row_first[0] && gf[n] == f->row_first[f->n_rows]);
    for (uint32_t g = 0; gf && g < n; g++) {
        double h = sv_rank_axis_to_y(&ax, gf[g + 1]) - sv_rank_axis_to_y(&ax, gf[g]);
        CHECKF(h >= 10 - 1e-9 || g == n - 1, "group %u is %.2f px", g, h);
        CHECK(sv_fold_row_of(f, gf[g]) >= 0 && f->row_first[sv_fold_row_of(f, gf[g])] == gf[g]);
    }
    free(gf);
    /* zoomed to the middle: only the bands on the canvas */
    sv_rank_axis_set_range(&ax, nt / 4.0, nt / 2.0);
    n = sv_flows_groups_for_fold(f, &ax, 10, &gf);
    CHECK(n >= 1 && gf && gf[0] <= nt / 4 && gf[0] + nt / 20 >= nt / 4 && gf[n] >= nt / 2 && gf[n] <= nt / 2 + nt / 20);
    free(gf);
    sv_fold_free(f);
}

static int differs(cairo_surface_t *a, cairo_surface_t *b)
{
    cairo_surface_flush(a);
    cairo_surface_flush(b);
    int h = cairo_image_surface_get_height(a), st = cairo_image_surface_get_stride(a);
    return memcmp(cairo_image_surface_get_data(a), cairo_image_surface_get_data(b), (size_t)h * (size_t)st) != 0;
}

/* Lines are drawn where flows are: a pixel on the heaviest flow's line
 * changes; with the arrow category hidden nothing is drawn. */
static void test_draw(slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    uint32_t nt = fi->n_timelines;
    uint32_t gf[] = {0, nt / 4, nt / 2, 3 * nt / 4, nt};
    slog_error err;
    sv_flows *fl = sv_flows_compute(r, fi->t_min, fi->t_max, 4, gf, 4, NULL, NULL, &err);
    CHECK(fl && fl->n_flows > 0);
    if (!fl) return;
    sv_palette pal;
    CHECK(sv_palette_init(&pal, r) == 0);
    const int W = 400, H = 200;
    sv_viewport vp;
    sv_viewport_init(&vp, (double)fi->t_min, (double)fi->t_max + 1, W);
    sv_rank_axis ax;
    sv_rank_axis_init(&ax, 0, nt, H);
    cairo_surface_t *blank = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cairo_t *cr = cairo_create(s);
    size_t drawn = sv_render_flows(cr, W, H, fl, &vp, &ax, &pal);
    CHECK(drawn == fl->n_flows);
    CHECK(differs(s, blank));
    /* the middle of the heaviest flow between different groups is inked */
    const sv_flow *big = NULL;
    for (size_t i = 0; i < fl->n_flows; i++)
        if (fl->flows[i].sender != fl->flows[i].receiver && (!big || fl->flows[i].messages > big->messages))
            big = &fl->flows[i];
    CHECK(big != NULL);
    if (big) {
        int64_t a, b;
        sv_flows_slice(fl, big->slice, &a, &b);
        double x = (sv_viewport_time_to_x(&vp, (double)a) + sv_viewport_time_to_x(&vp, (double)b + 1)) / 2;
        double y = (sv_rank_axis_to_y(&ax, (gf[big->sender] + gf[big->sender + 1]) / 2.0) +
                    sv_rank_axis_to_y(&ax, (gf[big->receiver] + gf[big->receiver + 1]) / 2.0)) /
                   2;
        cairo_surface_flush(s);
        const uint32_t *px = (const uint32_t *)(void *)(cairo_image_surface_get_data(s) +
                                                        (size_t)y * (size_t)cairo_image_surface_get_stride(s));
        CHECKF(px[(int)x] >> 24 > 0x80, "pixel %d,%d alpha %u", (int)x, (int)y, px[(int)x] >> 24);
    }
    cairo_destroy(cr);
    /* the arrow category hidden: no flows */
    for (uint32_t c = 0; c < pal.n; c++)
        if (pal.kind[c] == SLOG_KIND_ARROW) pal.visible[c] = 0;
    CHECK(!sv_flows_visible(&pal));
    cairo_surface_t *s2 = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, W, H);
    cr = cairo_create(s2);
    CHECK(sv_render_flows(cr, W, H, fl, &vp, &ax, &pal) == 0);
    CHECK(!differs(s2, blank));
    cairo_destroy(cr);
    cairo_surface_destroy(s2);
    cairo_surface_destroy(s);
    cairo_surface_destroy(blank);
    sv_palette_clear(&pal);
    sv_flows_free(fl);
}

/* Windows of one to four leaves over the middle half of the span. */
static void check_narrow(slog_reader *r, const uint32_t *quarters)
{
    const slog_file_info *fi = slog_reader_info(r);
    int64_t span = fi->t_max - fi->t_min, leaf = (int64_t)1 << fi->leaf_shift;
    for (int k = 0; k < 24; k++) {
        int64_t a = fi->t_min + span / 4 + (span / 2) / 24 * k;
        check_against_model(r, a, a + leaf * (1 + k % 4), SV_FLOWS_SLICES, quarters, 4);
    }
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/flows_64.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 64;
    o.n_iterations = 40;
    o.per_host = 8;
    slog_error err = {0};
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    slog_reader *r = NULL;
    CHECK(slog_reader_open(&r, path, &err) == SLOG_OK);
    if (r) {
        test_counts(r);
        test_groups(r);
        test_draw(r);
        slog_reader_close(r);
    }
    unlink(path);
    CHECKF(!g_from[SV_FLOWS_FROM_OVERVIEW] && !g_from[SV_FLOWS_FROM_BLOCKS],
           "%" PRIu64 " flows of 64 timelines from an overview", g_from[SV_FLOWS_FROM_OVERVIEW]);

    /* thousands of timelines: whole overview groups take the flows from
     * the overview's message blocks, exact in the slices they give */
    o.n_timelines = 2048;
    o.n_iterations = 8;
    o.per_host = 64;
    /* longer than the stagger of the ranks' starts, which grows with
     * their number */
    o.iteration_ns = 20000000;
    /* an overview of a few levels, counting messages in small subtrees:
     * the file is small */
    slog_writer_options wo;
    slog_writer_options_init(&wo);
    wo.overview_level = 1;
    wo.preview_min_subtree = 64;
    o.writer = &wo;
    CHECKF(sv_gen_write(path, &o, &err) == SLOG_OK, "%s", err.message);
    r = NULL;
    CHECK(slog_reader_open(&r, path, &err) == SLOG_OK);
    if (r) {
        const slog_file_info *fi = slog_reader_info(r);
        uint32_t gt = fi->group_timelines, nt = fi->n_timelines;
        CHECKF(gt > 1 && fi->overview_depth > 0, "groups of %u, overview depth %u", gt, fi->overview_depth);
        uint32_t quarters[] = {0, nt / 4, nt / 2, 3 * nt / 4, nt};
        check_against_model(r, fi->t_min, fi->t_max, SV_FLOWS_SLICES, quarters, 4);
        CHECKF(g_from[SV_FLOWS_FROM_OVERVIEW] == 1, "the whole span's flows not from the overview");
        int64_t span = fi->t_max - fi->t_min;
        check_against_model(r, fi->t_min + span / 5, fi->t_min + span * 3 / 5, SV_FLOWS_SLICES, quarters, 4);
        /* groups that cut an overview group: the analysis */
        uint32_t cut[] = {0, gt * 3 + 1, nt / 2, nt};
        uint64_t before = g_from[SV_FLOWS_FROM_ANALYSIS];
        check_against_model(r, fi->t_min, fi->t_max, SV_FLOWS_SLICES, cut, 3);
        CHECK(g_from[SV_FLOWS_FROM_ANALYSIS] == before + 1);
        check_narrow(r, quarters);
        slog_reader_close(r);
    }
    /* an overview that does not count messages below its base level (a
     * subtree pays for its counts from 1,024 drawables): narrow windows
     * take one pass over the blocks' arrows, exact all the same */
    wo.overview_level = 2;
    wo.preview_min_subtree = 0;
    CHECKF(sv_gen_write(path, &o, &err) == SLOG_OK, "%s", err.message);
    r = NULL;
    CHECK(slog_reader_open(&r, path, &err) == SLOG_OK);
    if (r) {
        uint32_t nt = slog_reader_info(r)->n_timelines;
        uint32_t quarters[] = {0, nt / 4, nt / 2, 3 * nt / 4, nt};
        check_narrow(r, quarters);
        CHECKF(g_from[SV_FLOWS_FROM_BLOCKS] > 0, "no narrow window's flows from the blocks' arrows");
        slog_reader_close(r);
    }
    unlink(path);
    printf("flows: all checks passed (%" PRIu64 " from the overview, %" PRIu64 " from the blocks' arrows, %" PRIu64
           " from analyses)\n",
           g_from[SV_FLOWS_FROM_OVERVIEW], g_from[SV_FLOWS_FROM_BLOCKS], g_from[SV_FLOWS_FROM_ANALYSIS]);
    return 0;
}
