/* SPDX-License-Identifier: MIT */
/* msgs.h - the overview's message counts (format 5.x, docs/FORMAT.md
 * "Message block"): an overview node's messages by (sender group,
 * receiver group) over its subtree, and the messages placed at the node
 * itself one by one. The writer accumulates them (msgs_acc), the reader
 * decodes them (msgs_decode) for slog_reader_group_messages and checks
 * them against the blocks' records (slog_reader_check). */
#ifndef SLOG_MSGS_H
#define SLOG_MSGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include <slog2/slog.h>

/* A map from two 64-bit keys to a count (open addressing). */
typedef struct msgs_map {
    uint64_t *keys; /* 2 a slot: (a, b + 1); b + 1 == 0: empty */
    uint64_t *counts;
    size_t n, cap; /* cap a power of two, or 0 */
    bool failed;
} msgs_map;

/* Add count to (a, b); false (m->failed) when out of memory. b < 2^64 - 1. */
bool msgs_map_add(msgs_map *m, uint64_t a, uint64_t b, uint64_t count);
/* The count of (a, b), 0 when absent. */
uint64_t msgs_map_get(const msgs_map *m, uint64_t a, uint64_t b);
void msgs_map_reset(msgs_map *m);
void msgs_map_free(msgs_map *m);

/* A message placed at an overview node itself (one that crosses its
 * middle): its send time and its groups. */
typedef struct msgs_own {
    int64_t start;
    uint32_t sender, receiver;
} msgs_own;

/* An open overview node's messages: its subtree's pairs (a: sender
 * group, b: receiver group) and its own messages. */
typedef struct msgs_acc {
    msgs_map pairs;
    msgs_own *own;
    uint32_t n_own, cap_own;
    bool failed;
} msgs_acc;

static inline void msgs_add(msgs_acc *a, uint32_t sender, uint32_t receiver)
{
    if (!msgs_map_add(&a->pairs, sender, receiver, 1)) a->failed = true;
}
void msgs_add_own(msgs_acc *a, int64_t start, uint32_t sender, uint32_t receiver);
/* A child's pairs into its parent's. */
void msgs_merge(msgs_acc *parent, const msgs_acc *child);
void msgs_reset(msgs_acc *a);
void msgs_free(msgs_acc *a);

/* The block body: 16 fixed bytes (level, flags, pairs, index), then the
 * pairs (when with_pairs) and the own messages (sorted here by start),
 * relative to the node's lo. */
void msgs_encode(msgs_acc *a, bool with_pairs, uint32_t level, uint64_t index, int64_t lo, slog_buf *out);
/* The pairs' share of msgs_encode's bytes, about (to judge whether they
 * pay before encoding them). */
size_t msgs_pairs_estimate(const msgs_acc *a);

#define MSGS_HAS_PAIRS 1u

/* A decoded block. */
typedef struct msgs_pair {
    uint32_t sender, receiver;
    uint64_t count;
} msgs_pair;

typedef struct msgs_block {
    uint8_t flags;
    msgs_pair *pairs; /* by (sender, receiver), strictly increasing */
    uint32_t n_pairs, cap_pairs;
    msgs_own *own; /* by start */
    uint32_t n_own, cap_own;
} msgs_block;

/* Decode body (len bytes) of the block of overview node (level, index)
 * covering [lo, hi), groups below n_groups, at most max_msgs messages in
 * the pairs and max_own own messages. 1 ok, 0 malformed, -1 out of
 * memory. */
int msgs_decode(msgs_block *b, const uint8_t *body, size_t len, uint32_t level, uint64_t index, int64_t lo, int64_t hi,
                uint64_t n_groups, uint64_t max_msgs, uint64_t max_own);
void msgs_block_free(msgs_block *b);

/* slog_reader_check's part (msgs.c): the overview's message blocks
 * decoded first (msgs_check_new; *out NULL where the file has none to
 * check), then every block node's arrows (msgs_check_arrow for each of
 * its arrows that is not a mirror, with the level and index of the
 * smallest node holding it, where the overview counts it; false when out
 * of memory), then compared (msgs_check_finish). */
typedef struct msgs_check msgs_check;
struct slog_reader;
struct rd_node;
slog_status msgs_check_new(struct slog_reader *r, msgs_check **out, slog_query_stats *stats, slog_error *err);
bool msgs_check_arrow(msgs_check *c, uint32_t level, uint64_t index, const slog_drawable *dr);
slog_status msgs_check_finish(msgs_check *c, slog_error *err);
void msgs_check_free(msgs_check *c);

#endif
