/* internal.h - declarations shared by libslog's source files, not public. */
#ifndef SLOG_INTERNAL_H
#define SLOG_INTERNAL_H

#include "slog.h"
#include "format.h"
#include "buf.h"

#if defined(__GNUC__)
#define SLOG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SLOG_PRINTF(a, b)
#endif

/* Fill err (may be NULL) and return st. */
slog_status slog_set_error(slog_error *err, slog_status st, const char *path, uint64_t offset,
                           const char *fmt, ...) SLOG_PRINTF(5, 6);
void slog_clear_error(slog_error *err);

/* A category's total state time plus one more state's duration d (>= 0),
 * saturating at INT64_MAX: every duration is below 2^62 but their sum need
 * not be (docs/FORMAT.md, category statistics). The writer sums with it and
 * the check recomputes with it. */
static inline int64_t slog_add_duration(int64_t total, int64_t d) {
    return d > INT64_MAX - total ? INT64_MAX : total + d;
}

/* Level of the smallest node containing [a,b] (0 <= a <= b) with leaf width 2^shift. */
static inline uint32_t slog_place_level(uint64_t a, uint64_t b, int shift) {
    uint64_t x = (a ^ b) >> shift;
#if defined(__GNUC__) || defined(__clang__)
    return x ? (uint32_t)(64 - __builtin_clzll(x)) : 0;
#else
    uint32_t n = 0; /* portable C11: count the significant bits */
    while (x) {
        n++;
        x >>= 1;
    }
    return n;
#endif
}

/* Encode one drawable record into a node body (see FORMAT.md "Node body").
 * prev_start is updated. */
void slog_encode_drawable(slog_buf *b, const slog_drawable *d, int64_t *prev_start);

/* Preview accumulation: a sparse set of (timeline, category) rows of n_bins
 * doubles over a node interval. preview.c. */
typedef struct slog_prev_row {
    uint32_t timeline, category;
    uint32_t lo_bin, hi_bin;   /* touched range [lo_bin, hi_bin) */
} slog_prev_row;            /* its bins: pool[row_index * n_bins ...] */

typedef struct slog_prev_acc {
    uint32_t n_bins;
    uint32_t n_rows, cap_rows;   /* rows[] in insertion order */
    slog_prev_row *rows;
    uint32_t *slots;             /* open-addressing hash of the rows outside
                                    direct: row index+1, 0 = empty */
    uint32_t n_slots, n_hashed;
    uint32_t *direct;            /* when timelines x categories is small: row
                                    index+1 at [timeline * dir_cat + category] */
    uint32_t dir_tl, dir_cat;    /* dimensions direct was made for */
    float *pool;                 /* bin storage, n_bins per row, cap_rows rows */
    bool failed;
    bool bins_zero;              /* every bin is 0 again (merged into the parent) */
    int64_t pow2_width;          /* prev_add: the last node width seen with power-of-two bins... */
    int pow2_shift;              /* ...log2 of its bin width... */
    float pow2_inv;              /* ...and 1 / bin width (exact) */
} slog_prev_acc;

void prev_init(slog_prev_acc *a, uint32_t n_bins);
void prev_reset(slog_prev_acc *a);
/* Tell the accumulator how many timelines and categories exist, so small
 * (timeline, category) spaces use a plain array instead of the hash. */
void prev_resize_dims(slog_prev_acc *a, uint32_t n_timelines, uint32_t n_categories);
/* Inline: the writer calls it for every drawable and the dimensions rarely
 * change. */
static inline void prev_set_dims(slog_prev_acc *a, uint32_t n_timelines, uint32_t n_categories) {
    if (n_timelines != a->dir_tl || n_categories != a->dir_cat) prev_resize_dims(a, n_timelines, n_categories);
}
void prev_free(slog_prev_acc *a);
/* Add a drawable's contribution to a node [lo, lo+width). is_state selects
 * coverage (states) versus counts (arrows, events). */
void prev_add(slog_prev_acc *a, int64_t lo, int64_t width, uint32_t timeline, uint32_t category,
              bool is_state, int64_t start, int64_t end);
/* Merge a child's rows into its parent's; child_half is 0/1 (left/right). The
 * child's bins are left zero (prev_reset() still clears its rows). */
void prev_merge_child(slog_prev_acc *parent, slog_prev_acc *child, unsigned child_half,
                      const bool *cat_is_state);
/* Upper estimate of the encoded size, cheap: decides whether a node carries
 * a preview at all. */
uint64_t prev_estimate(const slog_prev_acc *a);
/* Encode as a preview body (sorted rows, quantised); returns rows written. */
uint32_t prev_encode(const slog_prev_acc *a, const bool *cat_is_state, slog_buf *out);

#endif
