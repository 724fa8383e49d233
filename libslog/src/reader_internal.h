/* SPDX-License-Identifier: MIT */
/* reader_internal.h - the reader's state, shared by reader.c and query.c. */
#ifndef SLOG_READER_INTERNAL_H
#define SLOG_READER_INTERNAL_H

#include <stdatomic.h>

#include "internal.h"

enum { SEC_CATEGORIES = 0, SEC_TIMELINES = 1, SEC_ANNOTATIONS = 2, SEC_DIRECTORY = 3 };

typedef struct rd_node {
    uint32_t tree; /* block number, or SLOG_TREE_OVERVIEW */
    uint8_t level, flags;
    uint32_t n_drawables;
    uint64_t index;
    uint64_t node_off;
    uint32_t node_size, node_crc;
    uint64_t n_subtree;
    uint64_t prev_off;
    uint32_t prev_size, prev_crc;
    uint64_t summ_off; /* summary block, 0 if none */
    uint32_t summ_size;
} rd_node;

/* A tree's run of r->nodes. */
typedef struct rd_tree {
    uint64_t first, count;
    uint32_t top; /* its root's level (count > 0) */
} rd_tree;

struct slog_reader {
    char *path;
    int fd;
    slog_file_info info;
    uint64_t sec_off[4], sec_size[4];
    slog_category *cats;
    slog_category_stats *cstats;
    bool *cat_is_state;
    uint32_t n_cats_alloc;
    slog_timeline *tls;
    uint32_t n_tls_alloc;
    char **ann; /* key, value, key, value, ... */
    uint32_t n_ann_alloc;
    rd_node *nodes; /* by tree (blocks, then the overview), level descending, index */
    rd_tree *trees; /* n_blocks + 1: the blocks', then the overview's */
    _Atomic uint64_t bytes_read, nodes_read;
    struct rd_cache *cache; /* decoded nodes kept across queries; NULL: none */
};

/* The tree's entry for a block number or SLOG_TREE_OVERVIEW. */
static inline const rd_tree *rd_tree_of(const slog_reader *r, uint32_t tree)
{
    return &r->trees[tree == SLOG_TREE_OVERVIEW ? r->info.n_blocks : tree];
}

/* Directory entry (tree, level, index), or NULL. query.c. */
const rd_node *rd_find_node(const slog_reader *r, uint32_t tree, uint32_t level, uint64_t index);

/* An overview node's own record: a drawable previewed at the node itself
 * (group of timelines, category, times; arrows and events: start only). */
typedef struct rd_own {
    uint32_t group, category;
    int64_t start, end;
} rd_own;

/* Room for decoded preview rows and own records, reused from call to call. */
typedef struct rd_scratch {
    slog_preview_row *rows;
    float *values;
    size_t cap_rows;
    rd_own *own;
    size_t n_own, cap_own;
} rd_scratch;

/* Node d's preview block into p (its subtree's rows) and, for the
 * overview's, what was previewed at the node itself: *own_all (all of p),
 * or in a 2.x file s->own[0 .. s->n_own) (3.x: rd_own_records). query.c. */
slog_status rd_preview(slog_reader *r, const rd_node *d, rd_scratch *s, slog_preview *p, bool *own_all,
                       slog_error *err);

/* An overview node's own records (3.x: its OWNR block; none without
 * one) into s->own[0 .. s->n_own). query.c. */
slog_status rd_own_records(slog_reader *r, const rd_node *d, rd_scratch *s, slog_error *err);

/* Query q over the subtree of node (level, index) of each block whose flag
 * is set in blocks (rd_blocks_of), as slog_reader_query visits a tree from
 * its root; stats are added to *acc. query.c. */
slog_status rd_query_subtree(slog_reader *r, const slog_query *q, const uint8_t *blocks, uint32_t level, uint64_t index,
                             slog_drawable_cb on_drawable, slog_preview_cb on_preview, void *user,
                             slog_query_stats *acc, slog_error *err);

/* The blocks holding a timeline set in mask (every block when NULL), as
 * flags; NULL when out of memory. query.c. */
uint8_t *rd_blocks_of(const slog_reader *r, const uint8_t *mask);

/* Node d's records (a block tree's) decoded one by one, mirrors
 * included (*mirror set), with their info values: for analysis.c. cb
 * returns false to stop. query.c. */
typedef bool (*rd_record_cb)(void *user, const slog_drawable *d, bool mirror);
slog_status rd_node_records(slog_reader *r, const rd_node *d, rd_record_cb cb, void *user, slog_error *err);

/* A node's record as the cache keeps it: its fields without info values,
 * and where it starts in the block (decoded again when its values are
 * wanted). */
typedef struct rd_rec {
    int64_t start, end;
    uint32_t timeline, end_timeline, category;
    uint32_t pos; /* bytes from the node's first record (blocks < 2^31) */
    uint8_t kind, mirror;
} rd_rec;

/* A decoded node: the verified block and its records. Shared by the
 * queries holding it (refs), immutable once made. cache.c. */
typedef struct rd_centry {
    uint64_t node;          /* index into r->nodes */
    uint8_t *own;           /* the block as read */
    const uint8_t *recs_at; /* its first record */
    size_t recs_len;        /* bytes from there to the end of the block */
    uint32_t n;
    rd_rec *recs;
    size_t bytes; /* what it counts against the cache's bound */
    unsigned refs;
    bool in_table;
    struct rd_centry *newer, *older; /* recency list */
} rd_centry;

/* An entry of n records for node (its block and records still to be
 * filled in), or NULL when out of memory. */
rd_centry *rd_centry_new(uint64_t node, uint32_t n);
/* The cached entry of node, held for the caller, or NULL (a miss). */
rd_centry *rd_cache_get(slog_reader *r, uint64_t node);
/* Offer a filled entry, held by the caller, to the cache: kept unless it
 * alone exceeds the bound or the node was cached meanwhile; older entries
 * are let go until the cache is within its bound. */
void rd_cache_put(slog_reader *r, rd_centry *e);
/* Let go of an entry from rd_cache_get, rd_cache_put or rd_centry_new:
 * freed once neither the cache nor any query holds it. */
void rd_cache_release(slog_reader *r, rd_centry *e);
void rd_cache_free(slog_reader *r);

slog_status rd_pread(slog_reader *r, void *dst, size_t n, uint64_t off, slog_error *err);
slog_status rd_block(slog_reader *r, const char *tag, uint64_t off, uint64_t size, uint8_t **owner,
                     const uint8_t **body, size_t *body_len, uint32_t *crc_out, slog_error *err);

#endif
