/* SPDX-License-Identifier: MIT */
/* test_merge.c - the k-way merge's tournament tree against a brute-force
 * model: at every step the winner must be the live stream with the
 * smallest (key, index). And the sort that stands in for it
 * (merge_sort_ents) against the tree: streams of non-decreasing keys,
 * laid one after the other and sorted, must come in the tree's order. */
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

/* k streams of random lengths (some empty), keys non-decreasing with steps
 * drawn from [0, step): small steps make ties within and across streams.
 * The tree takes a stream's next entry as seq.c does: its key changes
 * only when the next key differs. */
static void run_sorted(uint32_t k, int64_t base, int64_t step, uint32_t seed)
{
    GRand *rng = g_rand_new_with_seed(seed);
    uint32_t *start = g_new(uint32_t, k + 1);
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(int64_t));
    for (uint32_t i = 0; i < k; i++) {
        start[i] = keys->len;
        int64_t key = base + g_rand_int_range(rng, 0, (gint32)step * 4);
        for (int n = g_rand_int_range(rng, 0, 12); n > 0; n--) {
            g_array_append_val(keys, key);
            key += g_rand_int_range(rng, 0, (gint32)step);
        }
    }
    start[k] = keys->len;
    const int64_t *key = (const int64_t *)(void *)keys->data;
    size_t n = keys->len;
    /* The sort: each entry tagged with its stream, p its place. */
    merge_ent *v = g_new(merge_ent, 2 * n + 1);
    uint32_t max_off = 0;
    for (uint32_t i = 0; i < k; i++)
        for (uint32_t j = start[i]; j < start[i + 1]; j++) {
            uint32_t off = (uint32_t)(key[j] - base);
            if (off > max_off) max_off = off;
            v[j] = (merge_ent){off, i, GSIZE_TO_POINTER((gsize)j)};
        }
    merge_ent *sorted = merge_sort_ents(v, v + n, n, max_off);
    CHECK(sorted == v || sorted == v + n);
    /* The tree over the streams with entries. */
    int64_t *first = g_new(int64_t, k);
    bool *live = g_new(bool, k);
    uint32_t *at = g_new(uint32_t, k);
    for (uint32_t i = 0; i < k; i++) {
        at[i] = start[i];
        live[i] = start[i] < start[i + 1];
        first[i] = live[i] ? key[start[i]] : 0;
    }
    merge *m = merge_new(k, first, live);
    size_t taken = 0;
    int64_t w;
    while ((w = merge_winner(m)) >= 0) {
        uint32_t j = at[w]++;
        CHECK(taken < n);
        CHECK_EQ(sorted[taken].tag, (uint32_t)w);
        CHECK_EQ(GPOINTER_TO_SIZE(sorted[taken].p), (gsize)j);
        taken++;
        if (at[w] == start[w + 1])
            merge_finish_winner(m);
        else if (key[at[w]] != key[j])
            merge_update_winner(m, key[at[w]]);
    }
    CHECK_EQ(taken, n);
    merge_free(m);
    g_free(first);
    g_free(live);
    g_free(at);
    g_free(v);
    g_free(start);
    g_array_free(keys, TRUE);
    g_rand_free(rng);
}

static void test_sorted(void)
{
    for (uint32_t k = 1; k <= 40; k++) run_sorted(k, 1000, 3, 200 + k);
    run_sorted(300, 1 << 30, 50, 1);                  /* offsets of one radix digit */
    run_sorted(3000, 5, 1000, 2);                     /* two digits */
    run_sorted(2000, -7, 1 << 20, 3);                 /* three: the top digit's bits */
    CHECK(merge_sort_ents(NULL, NULL, 0, 0) == NULL); /* nothing to sort */
}

/* Offsets whose low or middle digit every entry shares (a pass that would
 * move nothing), in any order: the sort must still be by offset, equal
 * offsets in their places' order. */
static void run_shared_digit(uint32_t shared_mask, uint32_t shared_bits, uint32_t seed)
{
    GRand *rng = g_rand_new_with_seed(seed);
    size_t n = 5000;
    merge_ent *v = g_new(merge_ent, 2 * n);
    uint32_t max_off = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t off = (g_rand_int(rng) & ~shared_mask & 0x7ffffffu) | shared_bits;
        if (i % 3 == 1) off = v[i - 1].off; /* ties */
        if (off > max_off) max_off = off;
        v[i] = (merge_ent){off, (uint32_t)i, NULL};
    }
    merge_ent *s = merge_sort_ents(v, v + n, n, max_off);
    CHECK(s == v || s == v + n);
    for (size_t i = 1; i < n; i++) {
        CHECK(s[i - 1].off <= s[i].off);
        if (s[i - 1].off == s[i].off) CHECK(s[i - 1].tag < s[i].tag);
    }
    /* Every entry once: the tags are 0..n-1. */
    bool *seen = g_new0(bool, n);
    for (size_t i = 0; i < n; i++) {
        CHECK((s[i].off & shared_mask) == shared_bits);
        CHECK(!seen[s[i].tag]);
        seen[s[i].tag] = true;
    }
    g_free(seen);
    g_free(v);
    g_rand_free(rng);
}

static void test_shared_digit(void)
{
    /* 27 bits: three digits of 9. */
    run_shared_digit(0x1ffu, 0x155u, 1);         /* the low digit */
    run_shared_digit(0x3fe00u, 0x2a00u, 2);      /* the middle one */
    run_shared_digit(0x3ffffu, 0x3ffffu, 3);     /* both */
    run_shared_digit(0x7fc0000u, 0x4000000u, 4); /* the top one */
}

int main(void)
{
    RUN(test_sizes);
    RUN(test_sorted);
    RUN(test_shared_digit);
    RUN(test_ties);
    RUN(test_all_finished);
    return 0;
}
