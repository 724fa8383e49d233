/* SPDX-License-Identifier: MIT */
/* test_grid.c - folded grids of states that cover many columns, against a
 * brute-force fold in double precision.
 *
 *   test_grid [SEED]
 *
 * Each case draws long states that all cross one time C, a power of two:
 * every one of them is held by the node whose middle is C, in the blocks'
 * trees and in the overview, as a record (exact times), not in a preview.
 * So a grid over a window around C, from the overview or from the blocks,
 * reads no preview, and every value must equal the brute-force mean of
 * the columns' coverage up to float rounding: a state's whole columns
 * (counted apart from its two partly covered ones when they are many) and
 * its partial ends, states cut by the window's edges, ends on column edges,
 * nested states of one category on one timeline (a mean of at most 1).
 * The first two grids of a case are large: the room of the first one's
 * values is kept when it is freed and given to the second, which must not
 * see them. */
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>

#define C_NS ((int64_t)1 << 24)

static char *g_dir;

/* States of 3 categories crossing C on n_tls timelines: widths from under
 * a column to most of the window, some ends on multiples of edge_ns (the
 * columns' edges when the grid's column is edge_ns wide), some nested. */
static void make_model(t_model *m, t_rng *r, uint32_t n_tls, int64_t edge_ns)
{
    t_model_init(m);
    uint32_t cs[3] = {t_model_add_cat(m, SLOG_KIND_STATE, "compute", 0), t_model_add_cat(m, SLOG_KIND_STATE, "wait", 0),
                      t_model_add_cat(m, SLOG_KIND_STATE, "init", 0)};
    for (uint32_t t = 0; t < n_tls; t++) t_model_add_tl(m, t, 0);
    for (uint32_t t = 0; t < n_tls; t++) {
        for (int k = 0; k < 3; k++) {
            if (t_chance(r, 20)) continue;
            /* widths: a third narrow (under 8 columns of edge_ns), the rest
             * up to the whole of [0, 2C) */
            int64_t left = t_chance(r, 33) ? 1 + t_range(r, 0, 8 * edge_ns) : 1 + t_range(r, 0, C_NS - 1);
            int64_t right = t_chance(r, 33) ? 1 + t_range(r, 0, 8 * edge_ns) : 1 + t_range(r, 0, C_NS - 1);
            int64_t a = C_NS - left, b = C_NS + right;
            if (t_chance(r, 30)) a = a / edge_ns * edge_ns;
            if (t_chance(r, 30)) b = (b + edge_ns - 1) / edge_ns * edge_ns;
            if (b > 2 * C_NS) b = 2 * C_NS;
            t_draw *d = t_model_push(m);
            d->kind = SLOG_KIND_STATE;
            d->cat = cs[k];
            d->tl = d->etl = t;
            d->start = a;
            d->end = b;
            d->n_info = 0;
            if (t_chance(r, 15)) { /* nested: inside the one before, also across C */
                t_draw *e = t_model_push(m);
                *e = m->d[m->n - 2];
                e->start = a + (C_NS - a) / 3;
                e->end = b - (b - C_NS) / 2;
            }
        }
    }
    t_model_sort_end_order(m);
}

/* The grid of q against brute force: per row the mean over its timelines
 * of each column's coverage, at most 1. */
static void check_grid(const t_model *m, slog_reader *rd, const slog_grid_query *q, uint32_t want_unit,
                       const char *what)
{
    slog_grid *g = NULL;
    slog_query_stats qs;
    slog_error err;
    CHECK_OK(slog_reader_grid(rd, q, &g, &qs, &err), &err);
    CHECKF(slog_grid_unit(g) == want_unit, "%s: read with unit %u, not %u", what, slog_grid_unit(g), want_unit);
    CHECKF(qs.previews == 0, "%s: %" PRIu64 " previews read: the states should all be records", what, qs.previews);
    uint32_t n_rows = slog_grid_n_rows(g), n_cols = q->n_cols;
    CHECK(slog_grid_n_cols(g) == n_cols);
    double t0 = (double)q->t0, col_ns = ((double)q->t1 - t0) / n_cols; /* as the grid tiles [t0, t1] */
    double *want = calloc((size_t)n_rows * m->n_cats * n_cols, sizeof *want);
    uint32_t *row_of = malloc(m->n_tls * sizeof *row_of);
    CHECK(want && row_of);
    for (uint32_t t = 0; t < m->n_tls; t++) row_of[t] = UINT32_MAX;
    for (uint32_t row = 0; row < n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        CHECK(a <= b && b < m->n_tls);
        for (uint32_t t = a; t <= b; t++) row_of[t] = row;
    }
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        if (row_of[d->tl] == UINT32_MAX) continue;
        double *v = want + ((size_t)row_of[d->tl] * m->n_cats + d->cat) * n_cols;
        for (uint32_t j = 0; j < n_cols; j++) {
            double lo = t0 + j * col_ns, hi = lo + col_ns;
            double ov = fmin((double)d->end, hi) - fmax((double)d->start, lo);
            if (ov > 0) v[j] += ov / col_ns;
        }
    }
    size_t cells = 0, partial = 0;
    for (uint32_t row = 0; row < n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        for (uint32_t k = 0; k < m->n_cats; k++) {
            const float *v = slog_grid_values(g, row, k);
            const double *w = want + ((size_t)row * m->n_cats + k) * n_cols;
            for (uint32_t j = 0; j < n_cols; j++) {
                double x = w[j] / (b - a + 1), got = v ? v[j] : 0;
                if (x > 1) x = 1;
                cells += x > 0;
                partial += x > 0 && x < 1 && fabs(x * (b - a + 1) - round(x * (b - a + 1))) > 1e-6;
                /* float sums of at most a few dozen terms below 2^6 */
                CHECKF(fabs(got - x) <= 2e-6, "%s: row %u (%u-%u) category %u column %u: %.9f, brute force %.9f", what,
                       row, a, b, k, j, got, x);
            }
        }
    }
    CHECKF(cells > (size_t)n_cols && partial > 0, "%s: %zu cells covered, %zu partly: the case tests nothing", what,
           cells, partial);
    free(want);
    free(row_of);
    slog_grid_free(g);
}

static void run_case(uint64_t seed)
{
    t_rng r = {seed};
    uint32_t gt = t_chance(&r, 50) ? 4 : 2, n_tls = gt * (uint32_t)t_range(&r, 4, 24);
    t_model m;
    make_model(&m, &r, n_tls, 2 * C_NS / 256);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.block_timelines = 16;
    o.group_timelines = gt;
    o.leaf_shift = 14;
    CHECK_CONTEXT("seed %" PRIu64 " (rerun: test_grid %" PRIu64 "), %u timelines in groups of %u, %zu states", seed,
                  seed, n_tls, gt, m.n);
    char *path = t_path(g_dir, "grid.slog2");
    slog_error err;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    CHECK(fi->overview_depth > 0 && fi->group_timelines == gt);
    uint32_t groups = n_tls / gt;
    /* The overview is read where its finest bins (here its one node's, 2C /
     * 64 wide) are at most four columns wide, and passed through (its
     * records read) where they are wider than a column: 64 to 256 columns.
     * The window [0, 2C] in 256 columns (edges on multiples of 2C / 256),
     * and a window around C cut through most states, in a number of
     * columns that puts no edge on a whole nanosecond. */
    slog_grid_query qs[2] = {{0, 2 * C_NS, 0, n_tls - 1, 256, groups, 0},
                             {C_NS / 4 - 77, C_NS + C_NS / 2, 0, n_tls - 1, 97, groups / 2, 0}};
    /* First two grids of many columns: the room of the first one's values
     * (over a MiB) is kept when it is freed and given to the second, which
     * must not see what it held. */
    slog_grid_query big[2] = {{0, 2 * C_NS, 0, n_tls - 1, 16384, n_tls, SLOG_GRID_NO_OVERVIEW},
                              {C_NS / 4 - 77, C_NS + C_NS / 2, 0, n_tls - 1, 16001, n_tls, SLOG_GRID_NO_OVERVIEW}};
    check_grid(&m, rd, &big[0], 1, "whole window, 16,384 columns");
    check_grid(&m, rd, &big[1], 1, "window around C, 16,001 columns");
    for (int i = 0; i < 2; i++) {
        check_grid(&m, rd, &qs[i], gt, i ? "window around C, overview" : "whole window, overview");
        slog_grid_query q = qs[i];
        q.flags = SLOG_GRID_NO_OVERVIEW;
        q.n_rows = n_tls / (i + 1);
        check_grid(&m, rd, &q, 1, i ? "window around C, blocks" : "whole window, blocks");
    }
    slog_reader_close(rd);
    remove(path);
    free(path);
    t_model_free(&m);
}

int main(int argc, char **argv)
{
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 0;
    g_dir = t_mkdtemp("grid");
    if (seed) {
        run_case(seed);
    } else {
        for (uint64_t s = 1; s <= (t_under_valgrind() ? 3u : 12u); s++) run_case(s);
    }
    t_rmtree(g_dir);
    free(g_dir);
    printf("PASS\n");
    return 0;
}
