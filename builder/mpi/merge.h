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

#endif
