/* reader_internal.h - the reader's state, shared by reader.c and query.c. */
#ifndef SLOG_READER_INTERNAL_H
#define SLOG_READER_INTERNAL_H

#include <stdatomic.h>

#include "internal.h"

enum { SEC_CATEGORIES = 0, SEC_TIMELINES = 1, SEC_ANNOTATIONS = 2, SEC_DIRECTORY = 3 };

typedef struct rd_node {
    uint8_t level, flags;
    uint32_t n_drawables;
    uint64_t index;
    uint64_t node_off;
    uint32_t node_size, node_crc;
    uint64_t n_subtree;
    uint64_t prev_off;
    uint32_t prev_size, prev_crc;
} rd_node;

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
    rd_node *nodes; /* level descending, index ascending */
    uint64_t level_first[SLOG_MAX_LEVELS], level_count[SLOG_MAX_LEVELS];
    _Atomic uint64_t bytes_read, nodes_read;
};

slog_status rd_pread(slog_reader *r, void *dst, size_t n, uint64_t off, slog_error *err);
slog_status rd_block(slog_reader *r, const char *tag, uint64_t off, uint64_t size, uint8_t **owner,
                     const uint8_t **body, size_t *body_len, uint32_t *crc_out, slog_error *err);

#endif
