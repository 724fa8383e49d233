/* SPDX-License-Identifier: MIT */
/* merge.c - see merge.h.
 *
 * Leaves are streams 0..k-1 at virtual positions k..2k-1 of an implicit
 * binary tree whose node p has children 2p and 2p+1; node[p] (1 <= p < k)
 * is the stream that lost the match played at p, node[0] the overall
 * winner. This shape works for any k, not only powers of two. Only the
 * winner's key may change: every match on its path was played against it,
 * so replaying that path alone restores every match.
 */
#include "merge.h"

#include <glib.h>
#include <string.h>

/* A player: a stream's key and index, the index's top bit set once the
 * stream is finished. Kept in the node, not only its stream's index: a
 * match then reads one entry of the tree, where it read the loser's index
 * and then its key, a load that waited for the one before. */
typedef struct player {
    int64_t key;
    uint32_t id;
} player;

#define FINISHED 0x80000000u

struct merge {
    uint32_t k;
    uint32_t n_live;
    player *node; /* k entries: [0] the winner, [p] the loser at p */
};

/* (key, stream) order, finished streams after every live one. A finished
 * stream's key is INT64_MAX, so the key alone decides nearly every match
 * and the index, with its finished bit, only a tie. */
static inline bool before(player a, player b)
{
    return a.key != b.key ? a.key < b.key : a.id < b.id;
}

merge *merge_new(uint32_t k, const int64_t *keys, const bool *live)
{
    g_assert(k < FINISHED);
    merge *m = g_new0(merge, 1);
    m->k = k ? k : 1;
    m->node = g_new0(player, m->k);
    /* Play every match once, bottom-up, winners in a scratch array. */
    player *win = g_new(player, 2 * (size_t)m->k);
    for (uint32_t i = 0; i < m->k; i++) {
        bool on = i < k && live[i];
        win[m->k + i] = (player){on ? keys[i] : INT64_MAX, on ? i : i | FINISHED};
        m->n_live += on;
    }
    for (uint32_t p = m->k - 1; p >= 1; p--) {
        player a = win[2 * p], b = win[2 * p + 1];
        bool a_wins = before(a, b);
        win[p] = a_wins ? a : b;
        m->node[p] = a_wins ? b : a;
    }
    m->node[0] = m->k > 1 ? win[1] : win[m->k];
    g_free(win);
    return m;
}

void merge_free(merge *m)
{
    if (!m) return;
    g_free(m->node);
    g_free(m);
}

int64_t merge_winner(const merge *m)
{
    return m->n_live ? (int64_t)(m->node[0].id & ~FINISHED) : -1;
}

int64_t merge_min_key(const merge *m)
{
    return m->n_live ? m->node[0].key : INT64_MAX;
}

/* The winner's key changed: replay its path to the root. */
static void replay_winner(merge *m)
{
    player w = m->node[0];
    for (uint32_t p = ((w.id & ~FINISHED) + m->k) >> 1; p > 0; p >>= 1) {
        if (before(m->node[p], w)) {
            player t = m->node[p];
            m->node[p] = w;
            w = t;
        }
    }
    m->node[0] = w;
}

void merge_update_winner(merge *m, int64_t key)
{
    if (!m->n_live) return;
    m->node[0].key = key;
    replay_winner(m);
}

void merge_finish_winner(merge *m)
{
    if (!m->n_live) return;
    m->node[0].key = INT64_MAX;
    m->node[0].id |= FINISHED;
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
