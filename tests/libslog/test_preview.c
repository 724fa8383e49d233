/* SPDX-License-Identifier: MIT */
/* test_preview.c - a tree node's preview accumulator with its bins in
 * chunks made where touched (the overview's nodes, preview.c) encodes to
 * the same bytes as one with dense rows, through every way bins are
 * added: drawables over power-of-two and other node widths, a batch's
 * leaf rows folded up some levels, children merged into their parent;
 * with rows in the direct table and in the hash; and again after a reset,
 * when the chunks are reused, and after a free. And the bound on the
 * blocks' open bins that slog_preview_levels_for keeps. */
#include "internal.h"
#include "testutil.h"

#include <inttypes.h>
#include <math.h>

#define MAX_CATS 8

static void add_both(slog_prev_acc *a, int64_t lo, int64_t width, uint32_t tl, uint32_t cat, bool st, int64_t s,
                     int64_t e)
{
    for (int k = 0; k < 2; k++) prev_add(&a[k], lo, width, tl, cat, st, s, e);
}

static void run(uint64_t seed)
{
    t_rng r = {seed};
    uint32_t n_bins = t_chance(&r, 50) ? 64 : 2 * (1 + (uint32_t)t_below(&r, 40));
    uint32_t n_tl = 1 + (uint32_t)t_below(&r, 300), n_cat = 1 + (uint32_t)t_below(&r, MAX_CATS);
    bool is_state[MAX_CATS];
    for (uint32_t k = 0; k < n_cat; k++) is_state[k] = t_chance(&r, 60);
    CHECK_CONTEXT("seed %" PRIu64 ": %u bins, %u timelines, %u categories", seed, n_bins, n_tl, n_cat);
    /* [0]: dense rows, [1]: chunks; a parent and its two children */
    slog_prev_acc par[2], ch[2][2];
    prev_init(&par[0], n_bins);
    prev_init_chunked(&par[1], n_bins);
    for (int h = 0; h < 2; h++) {
        prev_init(&ch[h][0], n_bins);
        prev_init_chunked(&ch[h][1], n_bins);
    }
    float *src = calloc(n_bins, sizeof *src);
    CHECK(src);
    for (int round = 0; round < 4; round++) {
        /* half the timelines in the direct table, the others hashed */
        uint32_t dir_tl = t_chance(&r, 50) ? n_tl : n_tl / 2;
        for (int k = 0; k < 2; k++) {
            prev_set_dims(&par[k], 0, dir_tl, n_cat);
            for (int h = 0; h < 2; h++) prev_set_dims(&ch[h][k], 0, dir_tl, n_cat);
        }
        int64_t width = t_chance(&r, 60) ? (int64_t)n_bins << t_below(&r, 12)
                                         : (int64_t)n_bins * (1 + (int64_t)t_below(&r, 1000)) + 1;
        /* children [0, width) and [width, 2 width), the parent over both */
        unsigned n = 1 + (unsigned)t_below(&r, 3000);
        for (unsigned i = 0; i < n; i++) {
            uint32_t tl = (uint32_t)t_below(&r, n_tl), cat = (uint32_t)t_below(&r, n_cat);
            int h = (int)t_below(&r, 3); /* 2: the parent itself */
            int64_t lo = h == 1 ? width : 0, w = h == 2 ? 2 * width : width;
            int64_t s = lo + t_range(&r, 0, w - 1);
            int64_t e = t_chance(&r, 70) ? s + t_range(&r, 0, (lo + w - s) / (t_chance(&r, 80) ? 50 : 1)) : s;
            if (e > lo + w) e = lo + w;
            add_both(h == 2 ? par : ch[h], lo, w, tl, cat, is_state[cat], s, e);
        }
        /* a batch's leaf rows, some levels below the parent */
        for (unsigned i = 0; i < 20; i++) {
            uint32_t up = (uint32_t)t_below(&r, 4);
            uint64_t pos = t_below(&r, ((uint64_t)n_bins << up) - n_bins + 1);
            uint32_t a = (uint32_t)t_below(&r, n_bins), b = a + 1 + (uint32_t)t_below(&r, n_bins - a);
            for (uint32_t j = 0; j < n_bins; j++) src[j] = t_chance(&r, 30) ? 0.0f : (float)t_below(&r, 1000) / 997.0f;
            uint32_t tl = (uint32_t)t_below(&r, n_tl), cat = (uint32_t)t_below(&r, n_cat);
            for (int k = 0; k < 2; k++) CHECK(prev_add_bins(&par[k], tl, cat, src, a, b, up, pos, is_state[cat]));
        }
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 2; k++)
                if (ch[h][k].n_rows) prev_merge_child(&par[k], &ch[h][k], (unsigned)h, is_state);
        CHECK(!par[0].failed && !par[1].failed);
        CHECK_EQ(prev_estimate(&par[0]), prev_estimate(&par[1]));
        for (int sums = 0; sums < 2; sums++) {
            slog_buf b[2] = {{0}, {0}};
            uint32_t rows[2];
            for (int k = 0; k < 2; k++) {
                rows[k] = prev_encode(&par[k], is_state, sums, &b[k]);
                CHECK(!b[k].failed);
            }
            CHECK_EQ(rows[0], rows[1]);
            CHECKF(b[0].len == b[1].len && (!b[0].len || memcmp(b[0].data, b[1].data, b[0].len) == 0),
                   "round %d: chunked bins encode differently (%zu bytes, dense %zu)", round, b[1].len, b[0].len);
            buf_free(&b[0]);
            buf_free(&b[1]);
        }
        for (int k = 0; k < 2; k++) {
            if (round == 2)
                prev_free(&par[k]); /* as the writer's overview nodes above the base */
            else
                prev_reset(&par[k]);
            for (int h = 0; h < 2; h++) prev_reset(&ch[h][k]);
        }
    }
    free(src);
    for (int k = 0; k < 2; k++) {
        prev_free(&par[k]);
        for (int h = 0; h < 2; h++) prev_free(&ch[h][k]);
    }
}

/* slog_preview_levels_for keeps the blocks' open bins (a float a bin, on
 * every level from the base to a block's root) within
 * SLOG_PREVIEW_OPEN_MAX bytes, by raising the base or leaving the blocks
 * without previews, even past max_level, leaves alone a base whose bins
 * fit, and never changes the overview's level: random traces of 1 to
 * 70,000 timelines, with and without a max_level. */
static void levels_budget(void)
{
    t_rng r = {77};
    unsigned none = 0, raised = 0, kept = 0;
    for (int i = 0; i < 4000; i++) {
        uint32_t n_tl = 1 + (uint32_t)t_below(&r, 70000);
        double rows = (double)n_tl * (double)(1 + t_below(&r, 20));
        double n = (double)n_tl * (double)(1 + t_below(&r, 20000));
        double leaf = (double)(512 + t_below(&r, 32768));
        uint32_t b0, o0, b, o;
        uint32_t cap = t_chance(&r, 50) ? UINT32_MAX : (uint32_t)t_below(&r, 16); /* as slog2-build's deep sample */
        slog_preview_levels_for(leaf, 0, rows, n_tl, cap, &b0, &o0); /* the trace's size unknown: no bound */
        slog_preview_levels_for(leaf, n, rows, n_tl, cap, &b, &o);
        CHECK(o == o0 && o <= cap && b0 <= cap);
        uint32_t tb = slog_block_timelines_for(n_tl);
        double blocks = n_tl > tb ? (double)n_tl / tb : 1, per_block = leaf / blocks, whole = n / blocks;
        uint32_t root = 0;
        while (ldexp(per_block, (int)root) < whole) root++;
        double per_level = rows * SLOG_DEFAULT_PREVIEW_BINS * sizeof(float);
        if (b == SLOG_PREVIEW_NONE) {
            none++;
            continue;
        }
        CHECKF(b >= b0 && (root - b + 1.0) * per_level <= SLOG_PREVIEW_OPEN_MAX,
               "%u timelines, %.0f rows, %.0f drawables, leaves of %.0f: level %u (%u unbounded), root %u", n_tl, rows,
               n, leaf, b, b0, root);
        CHECKF(b == b0 || (root - b0 + 1.0) * per_level > SLOG_PREVIEW_OPEN_MAX,
               "%u timelines: level %u raised from %u whose bins fit", n_tl, b, b0);
        if (b > b0)
            raised++;
        else
            kept++;
    }
    CHECKF(none && raised && kept, "none %u, raised %u, kept %u: a case of each", none, raised, kept);
}

int main(int argc, char **argv)
{
    levels_budget();
    if (argc > 1) {
        run(strtoull(argv[1], NULL, 10));
    } else {
        unsigned n = t_under_valgrind() ? 10 : 200;
        for (unsigned i = 1; i <= n; i++) run(i);
    }
    printf("PASS\n");
    return 0;
}
