/* SPDX-License-Identifier: MIT */
/* merge.h - the k-way merge of the ranks' record streams: which rank's
 * next record exits first.
 *
 * A tournament ("loser") tree over k keys: after the winner's key changes,
 * one pass from its leaf to the root plays ceil(log2 k) matches, one
 * comparison each, where a binary heap makes up to two per level, and the
 * merge runs once per record on the sequential match step.
 * Keys are compared with the stream index as the tie-break, so the order is
 * total and does not depend on how the tree was built.
 */
#ifndef SLOG2_MERGE_H
#define SLOG2_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct merge merge;

/* k streams (k >= 1) with their first keys; stream i takes part when
 * live[i]. Never NULL (GLib aborts when memory runs out). */
merge *merge_new(uint32_t k, const int64_t *keys, const bool *live);
void merge_free(merge *m); /* NULL is fine */

/* The stream with the smallest (key, index) among the live ones, or -1
 * when none is left. */
int64_t merge_winner(const merge *m);
/* Its key (INT64_MAX when none is left). */
int64_t merge_min_key(const merge *m);

/* The winner's next key; or the winner has no more records. */
void merge_update_winner(merge *m, int64_t key);
void merge_finish_winner(merge *m);

/* The same order by sorting, when every stream's keys never decrease:
 * the streams' entries laid one after the other, stream by stream, each
 * with its key's offset from a base, then sorted stably by that offset
 * (an LSD radix sort of digits of up to 11 bits), come in the order the tree gives
 * (key, then stream, then place in the stream). With thousands of streams
 * the tree's path and each stream's next key are cache misses at every
 * entry, where the sort streams through them. tag and p are the caller's. */
typedef struct merge_ent {
    uint32_t off; /* key - base */
    uint32_t tag;
    void *p;
} merge_ent;

/* Sort v[0..n) by off, stably; tmp holds n more; max_off: the largest off.
 * Returns where the sorted entries are: v or tmp (each pass moves them from
 * one to the other, and copying them back cost a pass). */
merge_ent *merge_sort_ents(merge_ent *v, merge_ent *tmp, size_t n, uint32_t max_off);

#endif
