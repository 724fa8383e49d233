/* SPDX-License-Identifier: MIT */
/* merge.c - see merge.h.
 *
 * Leaves are streams 0..k-1 at virtual positions k..2k-1 of an implicit
 * binary tree whose node p has children 2p and 2p+1; loser[p] (1 <= p < k)
 * is the stream that lost the match played at p, loser[0] the overall
 * winner. This shape works for any k, not only powers of two. Only the
 * winner's key may change: every match on its path was played against it,
 * so replaying that path alone restores every match.
 */
#include "merge.h"

#include <glib.h>
#include <string.h>

struct merge {
    uint32_t k;
    uint32_t n_live;
    uint32_t *loser; /* k entries: [0] the winner, [p] the loser at p */
    int64_t *key;    /* per stream; only live streams' keys are compared */
    bool *live;
};

/* (key, stream) order, finished streams after every live one. A finished
 * stream's key is INT64_MAX, so the key alone decides nearly every match
 * and liveness is looked at only on a tie. */
static inline bool before(const merge *m, uint32_t a, uint32_t b)
{
    if (m->key[a] != m->key[b]) return m->key[a] < m->key[b];
    if (m->live[a] != m->live[b]) return m->live[a];
    return a < b;
}

merge *merge_new(uint32_t k, const int64_t *keys, const bool *live)
{
    merge *m = g_new0(merge, 1);
    m->k = k ? k : 1;
    m->loser = g_new0(uint32_t, m->k);
    m->key = g_new0(int64_t, m->k);
    m->live = g_new0(bool, m->k);
    for (uint32_t i = 0; i < k; i++) {
        m->key[i] = live[i] ? keys[i] : INT64_MAX;
        m->live[i] = live[i];
        m->n_live += live[i];
    }
    /* Play every match once, bottom-up, winners in a scratch array. */
    uint32_t *win = g_new(uint32_t, 2 * (size_t)m->k);
    for (uint32_t i = 0; i < m->k; i++) win[m->k + i] = i;
    for (uint32_t p = m->k - 1; p >= 1; p--) {
        uint32_t a = win[2 * p], b = win[2 * p + 1];
        bool a_wins = before(m, a, b);
        win[p] = a_wins ? a : b;
        m->loser[p] = a_wins ? b : a;
    }
    m->loser[0] = m->k > 1 ? win[1] : 0;
    g_free(win);
    return m;
}

void merge_free(merge *m)
{
    if (!m) return;
    g_free(m->loser);
    g_free(m->key);
    g_free(m->live);
    g_free(m);
}

int64_t merge_winner(const merge *m)
{
    return m->n_live ? (int64_t)m->loser[0] : -1;
}

int64_t merge_min_key(const merge *m)
{
    return m->n_live ? m->key[m->loser[0]] : INT64_MAX;
}

/* The winner's key changed: replay its path to the root. */
static void replay_winner(merge *m)
{
    uint32_t w = m->loser[0];
    for (uint32_t p = (w + m->k) >> 1; p > 0; p >>= 1) {
        if (before(m, m->loser[p], w)) {
            uint32_t t = m->loser[p];
            m->loser[p] = w;
            w = t;
        }
    }
    m->loser[0] = w;
}

void merge_update_winner(merge *m, int64_t key)
{
    if (!m->n_live) return;
    m->key[m->loser[0]] = key;
    replay_winner(m);
}

void merge_finish_winner(merge *m)
{
    if (!m->n_live) return;
    m->live[m->loser[0]] = false;
    m->key[m->loser[0]] = INT64_MAX;
    m->n_live--;
    replay_winner(m);
}

/* Digits of equal width, at most MERGE_DIGIT_MAX bits: where a slab's
 * offsets need three digits, digits of the full width scattered each entry
 * to one of 2,048 places, more than the first-level cache keeps lines
 * (and the TLB pages) for; three narrower ones scatter to fewer. All
 * digits are counted in one pass, and a digit every entry shares moves
 * nothing, so its pass is skipped. */
#define MERGE_DIGIT_MAX 11

merge_ent *merge_sort_ents(merge_ent *v, merge_ent *tmp, size_t n, uint32_t max_off)
{
    int bits = max_off ? 32 - __builtin_clz(max_off) : 0;
    if (n < 2 || !bits) return v;
    int passes = (bits + MERGE_DIGIT_MAX - 1) / MERGE_DIGIT_MAX; /* at most 3 */
    int width = (bits + passes - 1) / passes;
    uint32_t mask = (1u << width) - 1;
    size_t at[3][1u << MERGE_DIGIT_MAX];
    memset(at, 0, sizeof at);
    /* A loop per digit count: with the passes a loop of its own inside,
     * the count was slower than counting each digit in a pass apart. */
    if (passes == 1) {
        for (size_t i = 0; i < n; i++) at[0][v[i].off & mask]++;
    } else if (passes == 2) {
        for (size_t i = 0; i < n; i++) {
            uint32_t off = v[i].off;
            at[0][off & mask]++;
            at[1][off >> width & mask]++;
        }
    } else {
        for (size_t i = 0; i < n; i++) {
            uint32_t off = v[i].off;
            at[0][off & mask]++;
            at[1][off >> width & mask]++;
            at[2][off >> 2 * width & mask]++;
        }
    }
    merge_ent *src = v, *dst = tmp;
    for (int p = 0; p < passes; p++) {
        int shift = p * width;
        size_t *c = at[p];
        if (c[src[0].off >> shift & mask] == n) continue; /* one value: the order stands */
        size_t sum = 0;
        for (uint32_t d = 0; d <= mask; d++) {
            size_t k = c[d];
            c[d] = sum;
            sum += k;
        }
        for (size_t i = 0; i < n; i++) dst[c[src[i].off >> shift & mask]++] = src[i];
        merge_ent *t = src;
        src = dst;
        dst = t;
    }
    return src;
}
