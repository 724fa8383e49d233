/* SPDX-License-Identifier: MIT */
/* test_merge.c - the k-way merge's tournament tree against a brute-force
 * model: at every step the winner must be the live stream with the
 * smallest (key, index). */
#include <glib.h>

#include "check.h"
#include "merge.h"

/* The model's answer: smallest (key, index) among live streams, or -1. */
static int64_t model_winner(uint32_t k, const int64_t *key, const bool *live)
{
    int64_t best = -1;
    for (uint32_t i = 0; i < k; i++)
        if (live[i] && (best < 0 || key[i] < key[best])) best = i;
    return best;
}

/* k streams with keys drawn from [0, span): small spans make many ties,
 * so the index tie-break is exercised. The winner's key grows or jumps
 * anywhere (the tree must not assume merged streams are sorted). */
static void run(uint32_t k, int64_t span, uint32_t seed)
{
    GRand *rng = g_rand_new_with_seed(seed);
    int64_t *key = g_new(int64_t, k);
    bool *live = g_new(bool, k);
    for (uint32_t i = 0; i < k; i++) {
        key[i] = g_rand_int_range(rng, 0, (gint32)span);
        live[i] = g_rand_int_range(rng, 0, 8) != 0;
    }
    merge *m = merge_new(k, key, live);
    int steps = 0;
    for (;;) {
        int64_t want = model_winner(k, key, live);
        CHECK_EQ(merge_winner(m), want);
        CHECK_EQ(merge_min_key(m), want < 0 ? INT64_MAX : key[want]);
        if (want < 0 || merge_winner(m) != want) break;
        if (g_rand_int_range(rng, 0, 20) == 0) {
            live[want] = false;
            merge_finish_winner(m);
        } else {
            key[want] = g_rand_int_range(rng, 0, 3) ? key[want] + g_rand_int_range(rng, 0, (gint32)span)
                                                    : g_rand_int_range(rng, 0, (gint32)span);
            merge_update_winner(m, key[want]);
        }
        steps++;
    }
    CHECK(steps > 0 || model_winner(k, key, live) < 0);
    /* Nothing left: updates and finishes are ignored. */
    merge_update_winner(m, 5);
    merge_finish_winner(m);
    CHECK_EQ(merge_winner(m), -1);
    merge_free(m);
    g_free(key);
    g_free(live);
    g_rand_free(rng);
}

static void test_sizes(void)
{
    /* every k up to 70 (odd, even, powers of two and not), then larger */
    for (uint32_t k = 1; k <= 70; k++) run(k, 1000, k);
    run(256, 1 << 20, 1);
    run(1000, 1 << 20, 2);
}

static void test_ties(void)
{
    for (uint32_t k = 1; k <= 40; k++) run(k, 3, 100 + k);
}

static void test_all_finished(void)
{
    int64_t keys[3] = {1, 2, 3};
    bool live[3] = {false, false, false};
    merge *m = merge_new(3, keys, live);
    CHECK_EQ(merge_winner(m), -1);
    CHECK_EQ(merge_min_key(m), INT64_MAX);
    merge_free(m);
    merge_free(NULL);
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_ties);
    RUN(test_all_finished);
    return 0;
}
