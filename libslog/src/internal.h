/* SPDX-License-Identifier: MIT */
/* internal.h - declarations shared by libslog's source files, not public. */
#ifndef SLOG_INTERNAL_H
#define SLOG_INTERNAL_H

#include <stdbool.h>

#include "buf.h"
#include "format.h"
#include <slog2/slog.h>

#if defined(__GNUC__)
#define SLOG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SLOG_PRINTF(a, b)
#endif

/* Fill err (may be NULL) and return st. */
slog_status slog_set_error(slog_error *err, slog_status st, const char *path, uint64_t offset, const char *fmt, ...)
    SLOG_PRINTF(5, 6);
void slog_clear_error(slog_error *err);

/* A category's total state time plus one more state's duration d (>= 0),
 * saturating at INT64_MAX: every duration is below 2^62 but their sum need
 * not be (docs/FORMAT.md, category statistics). The writer sums with it and
 * the check recomputes with it. */
static inline int64_t slog_add_duration(int64_t total, int64_t d)
{
    return d > INT64_MAX - total ? INT64_MAX : total + d;
}

/* Level of the smallest node containing [a,b] (0 <= a <= b) with leaf width 2^shift. */
static inline uint32_t slog_place_level(uint64_t a, uint64_t b, int shift)
{
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

/* The fields of a header block h (SLOG_HEADER_SIZE bytes) into info, as
 * stored, without checking them (the reader checks; the writer reads back
 * what it wrote). file_size is left alone: the postamble has it. */
static inline void slog_header_decode(const uint8_t *h, slog_file_info *info)
{
    info->version_major = get_u16le(h + HDR_MAJOR);
    info->version_minor = get_u16le(h + HDR_MINOR);
    info->flags = get_u32le(h + HDR_FLAGS);
    info->children_per_node = get_u32le(h + HDR_CHILDREN);
    info->preview_bins = get_u32le(h + HDR_BINS);
    info->leaf_shift = (int32_t)get_u32le(h + HDR_LEAF_SHIFT);
    info->depth = get_u32le(h + HDR_DEPTH);
    info->time_origin_ns = (int64_t)get_u64le(h + HDR_ORIGIN);
    info->t_min = (int64_t)get_u64le(h + HDR_TMIN);
    info->t_max = (int64_t)get_u64le(h + HDR_TMAX);
    info->n_drawables = get_u64le(h + HDR_N_DRAWABLES);
    info->n_states = get_u64le(h + HDR_N_STATES);
    info->n_arrows = get_u64le(h + HDR_N_ARROWS);
    info->n_events = get_u64le(h + HDR_N_EVENTS);
    info->n_nodes = get_u64le(h + HDR_N_NODES);
    info->n_categories = get_u32le(h + HDR_N_CATEGORIES);
    info->n_timelines = get_u32le(h + HDR_N_TIMELINES);
    info->n_annotations = get_u32le(h + HDR_N_ANNOTATIONS);
    info->block_timelines = get_u32le(h + HDR_BLOCK_TIMELINES);
    info->n_blocks = get_u32le(h + HDR_N_BLOCKS);
    info->group_timelines = get_u32le(h + HDR_GROUP_TIMELINES);
    info->overview_depth = get_u32le(h + HDR_OVERVIEW_DEPTH);
    info->n_mirrors = get_u64le(h + HDR_N_MIRRORS);
}

/* Bytes one encoded drawable record can take: head, 5 varints, the info
 * mask and up to SLOG_MAX_FIELDS values of at most 10 bytes each. */
#define SLOG_RECORD_MAX (1 + 6 * 10 + 10 * SLOG_MAX_FIELDS)

/* Encode d at p (SLOG_RECORD_MAX bytes of room) as a node record (FORMAT.md
 * "Node block") whose start delta is from prev_start; returns the byte after
 * it. *delta_at: where the start delta begins (the writer rebases a batch's
 * first record there). */
static inline uint8_t *slog_record_put(uint8_t *p, const slog_drawable *d, int64_t prev_start, uint8_t **delta_at)
{
    uint8_t *head = p++;
    *head = (uint8_t)((uint8_t)d->kind | (d->end < d->start ? SLOG_REC_BACKWARDS : 0));
    p = put_uvar(p, d->category);
    p = put_uvar(p, d->timeline);
    if (d->kind == SLOG_KIND_ARROW) p = put_uvar(p, d->end_timeline);
    *delta_at = p;
    p = put_uvar(p, zigzag_encode(d->start - prev_start));
    p = put_uvar(p, d->end >= d->start ? (uint64_t)(d->end - d->start) : (uint64_t)(d->start - d->end));
    uint64_t mask = 0;
    if (d->n_info <= 7) {
        /* The mask is then one varint byte: keep its place and write the
         * values in the same pass that finds them. */
        uint8_t *at = p++;
        for (uint32_t i = 0; i < d->n_info; i++)
            if (d->info[i] != SLOG_INFO_UNKNOWN) {
                mask |= 1u << i;
                p = put_uvar(p, zigzag_encode(d->info[i]));
            }
        if (mask)
            *at = (uint8_t)mask;
        else
            p = at;
    } else {
        for (uint32_t i = 0; i < d->n_info; i++)
            if (d->info[i] != SLOG_INFO_UNKNOWN) mask |= 1ull << i;
        if (mask) {
            p = put_uvar(p, mask);
            for (uint64_t m = mask; m; m &= m - 1) p = put_uvar(p, zigzag_encode(d->info[__builtin_ctzll(m)]));
        }
    }
    if (mask) *head |= SLOG_REC_HAS_INFO;
    return p;
}

/* Encode one drawable record into a node body (see FORMAT.md "Node block").
 * prev_start is updated. Returns where in the body the record's start
 * delta lies (unset when out of memory: b->failed). */
size_t slog_encode_drawable(slog_buf *b, const slog_drawable *d, int64_t *prev_start);

/* A drawable's earlier and later time (an arrow may end before it starts):
 * it is ordered by the later one ("key") and placed over both. */
static inline void slog_drawable_span(const slog_drawable *d, int64_t *a, int64_t *key)
{
    bool backwards = d->end < d->start;
    *a = backwards ? d->end : d->start;
    *key = backwards ? d->start : d->end;
}

/* The checks of slog_writer_add that need no writer state: kind, times, info
 * pointer. NULL when d is fine, else what is wrong. */
const char *slog_drawable_problem(const slog_drawable *d);

/* Preview accumulation: a sparse set of (timeline, category) rows of n_bins
 * doubles over a node interval. preview.c. */
typedef struct slog_prev_row {
    uint32_t timeline, category;
    uint32_t lo_bin, hi_bin; /* touched range [lo_bin, hi_bin) */
} slog_prev_row;             /* its bins: pool[row_index * n_bins ...] */

typedef struct slog_prev_acc {
    uint32_t n_bins;
    uint32_t n_rows, cap_rows; /* rows[] in insertion order */
    slog_prev_row *rows;
    uint32_t *slots; /* open-addressing hash of the rows outside
                                    direct: row index+1, 0 = empty */
    uint32_t n_slots, n_hashed;
    uint32_t *direct;         /* when timelines x categories is small: row
                                    index+1 at [(timeline - dir_tl0) * dir_cat
                                    + category] */
    uint32_t dir_tl0;         /* the first timeline direct covers (a
                                    batch's lane of ranks; 0 in the writer) */
    uint32_t dir_tl, dir_cat; /* dimensions direct was made for */
    uint32_t dir_cap;         /* cells allocated (at least dir_tl x dir_cat) */
    uint32_t direct_max;      /* most cells for direct (0: preview.c's default) */
    float *pool;              /* bin storage, n_bins per row, cap_rows rows
                                    (not chunked) */
    /* chunked: a row's bins in chunks of PREV_CHUNK, made where the row
     * is touched: a tree node's rows (thousands of timelines) each touch
     * a few of its bins, where a dense row kept them all. */
    bool chunked;
    uint32_t *ctab;      /* per row, its chunks' numbers (1 + storage index; 0: none) */
    float **slabs;       /* storage: slab s holds PREV_CHUNK x (16 << s) floats */
    uint32_t n_slabs;    /* slabs allocated */
    uint32_t n_chunks;   /* chunks in use (storage indexes 0 .. n_chunks - 1) */
    uint32_t first_rows; /* rows to make room for at first, 0: as
                                    many as the direct table holds, up to
                                    4,096 (a tree node sees every pair) */
    bool failed;
    bool bins_zero;     /* every bin is 0 again (merged into the parent) */
    int64_t pow2_width; /* prev_add: the last node width seen with power-of-two bins... */
    int pow2_shift;     /* ...log2 of its bin width... */
    float pow2_inv;     /* ...and 1 / bin width (exact) */
} slog_prev_acc;

/* The bins of row (timeline, category) when the direct table holds it
 * (the common case once a node has seen the pair), else NULL. */
/* Where the direct table keeps (timeline, category), or false when it does
 * not (no table, or outside its dimensions). */
static inline bool prev_direct_cell(const slog_prev_acc *a, uint32_t timeline, uint32_t category, size_t *cell)
{
    uint32_t t = timeline - a->dir_tl0; /* below dir_tl0: wraps past dir_tl */
    if (!a->direct || t >= a->dir_tl || category >= a->dir_cat) return false;
    *cell = (size_t)t * a->dir_cat + category;
    return true;
}

static inline float *prev_bins_direct(const slog_prev_acc *a, uint32_t timeline, uint32_t category, slog_prev_row **row)
{
    size_t cell;
    if (!prev_direct_cell(a, timeline, category, &cell)) return NULL;
    uint32_t k = a->direct[cell];
    if (!k) return NULL;
    *row = &a->rows[k - 1];
    return a->pool + (size_t)(k - 1) * a->n_bins;
}

static inline void prev_touch(slog_prev_row *r, uint32_t lo, uint32_t hi)
{
    if (lo < r->lo_bin) r->lo_bin = lo;
    if (hi > r->hi_bin) r->hi_bin = hi;
}

/* prev_add()'s arithmetic for bins 2^bshift ns wide (n_bins of them) and
 * [s, e) relative to the node's start, into one row: the writer's usual
 * case, inline for batches. */
static inline void prev_add_pow2(float *bins, slog_prev_row *r, int bshift, float inv, uint32_t n_bins, bool is_state,
                                 int64_t s, int64_t e)
{
    uint64_t j0 = (uint64_t)s >> bshift;
    if (!is_state) {
        if (j0 >= n_bins) j0 = n_bins - 1;
        bins[j0] += 1.0f;
        prev_touch(r, (uint32_t)j0, (uint32_t)j0 + 1);
        return;
    }
    uint64_t j1 = (uint64_t)(e - 1) >> bshift; /* the bin holding the last covered ns */
    if (j1 >= n_bins) j1 = n_bins - 1;
    if (j0 > j1) j0 = j1;
    if (j0 == j1) {
        bins[j0] += (float)(e - s) * inv;
    } else {
        bins[j0] += (float)((int64_t)((j0 + 1) << bshift) - s) * inv;
        for (uint64_t j = j0 + 1; j < j1; j++) bins[j] += 1.0f;
        bins[j1] += (float)(e - (int64_t)(j1 << bshift)) * inv;
    }
    prev_touch(r, (uint32_t)j0, (uint32_t)j1 + 1);
}

void prev_init(slog_prev_acc *a, uint32_t n_bins);
/* As prev_init, with the bins in chunks made where touched (tree nodes'
 * accumulators; batches keep dense rows, which prev_bins_direct hands
 * out). */
void prev_init_chunked(slog_prev_acc *a, uint32_t n_bins);
void prev_reset(slog_prev_acc *a);
/* Tell the accumulator how many timelines and categories exist, so small
 * (timeline, category) spaces use a plain array instead of the hash. */
void prev_resize_dims(slog_prev_acc *a, uint32_t first_timeline, uint32_t n_timelines, uint32_t n_categories);
/* Inline: the writer calls it for every drawable and the dimensions rarely
 * change. Timelines first_timeline .. first_timeline + n_timelines - 1. */
static inline void prev_set_dims(slog_prev_acc *a, uint32_t first_timeline, uint32_t n_timelines, uint32_t n_categories)
{
    if (first_timeline != a->dir_tl0 || n_timelines != a->dir_tl || n_categories != a->dir_cat)
        prev_resize_dims(a, first_timeline, n_timelines, n_categories);
}
void prev_free(slog_prev_acc *a);
/* Add a drawable's contribution to a node [lo, lo+width). is_state selects
 * coverage (states) versus counts (arrows, events). */
void prev_add(slog_prev_acc *a, int64_t lo, int64_t width, uint32_t timeline, uint32_t category, bool is_state,
              int64_t start, int64_t end);
/* Merge a child's rows into its parent's; child_half is 0/1 (left/right). The
 * child's bins are left zero (prev_reset() still clears its rows). */
void prev_merge_child(slog_prev_acc *parent, slog_prev_acc *child, unsigned child_half, const bool *cat_is_state);
/* Upper estimate of the encoded size, cheap: decides whether a node carries
 * a preview at all. */
uint64_t prev_estimate(const slog_prev_acc *a);
/* Encode as a preview body (sorted rows, quantised); returns rows written.
 * state_sums: state values are sums over a group of timelines (the
 * overview's rows), stored as varints in 1/255, not bytes. */
uint32_t prev_encode(const slog_prev_acc *a, const bool *cat_is_state, bool state_sums, slog_buf *out);
/* Add the bins [lo, hi) of a row of a node `up` levels below dst's node to
 * dst's row (timeline, category): source bin j goes to destination bin
 * (pos + j) >> up, where pos is where the source node starts in source-bin
 * widths from the start of dst's node; state fractions are scaled by
 * 2^-up. False when out of memory (dst->failed). */
bool prev_add_bins(slog_prev_acc *dst, uint32_t timeline, uint32_t category, const float *src, uint32_t lo, uint32_t hi,
                   uint32_t up, uint64_t pos, bool is_state);
/* Add src's bins to dst's (the same node geometry: a batch's leaf preview
 * into the leaf's), leaving src's bins zero. False when out of memory
 * (dst->failed). */
bool prev_absorb(slog_prev_acc *dst, slog_prev_acc *src);

/* ----------------------------------------------------------------- batch */

/* Category ids a batch accepts: it keeps per-category statistics in arrays
 * indexed by id (the writer then checks the id exists). */
#define SLOG_BATCH_MAX_CATEGORY (1u << 20)

typedef struct batch_cat {
    uint64_t count;
    int64_t total_ns; /* states' durations, saturating (slog_add_duration) */
    uint8_t kind;
    uint8_t n_info;
    bool used;
} batch_cat;

/* The leaf width, preview bins and log2 of the timelines per block of w's
 * batches (w's block geometry is fixed from then on); false when w chooses
 * its leaf width from the data. writer.c. */
bool slog_writer_batch_geometry(slog_writer *w, int32_t *shift, uint32_t *bins, uint32_t *tb_shift, bool *msgs);

/* A batch's records for one block's leaf: the first one's start delta from
 * the leaf's start, each next one's from the one before. */
typedef struct batch_seg {
    uint32_t block;
    slog_buf seg;
    uint32_t n_seg; /* records, mirrors among them */
    uint32_t n_mirror;
    int64_t first_start, last_start;
    size_t first_delta_at; /* offset of the first record's start delta */
} batch_seg;

/* A drawable's share of a batch's leaf preview. */
typedef struct batch_pv {
    uint32_t timeline;
    uint32_t category; /* bit 31: a state */
    int64_t start, end;
} batch_pv;
#define BATCH_PV_STATE 0x80000000u

/* A message inside a batch's leaf: its sender's and receiver's timelines. */
typedef struct batch_msg {
    uint32_t sender, receiver;
} batch_msg;

/* Make b's leaf preview in acc (reset first): the rows in the order of
 * b's drawables, as the writer absorbs them, one a (timeline >> shift,
 * category). False when out of memory. */
bool batch_preview(slog_batch *b, slog_prev_acc *acc, uint32_t shift);

struct slog_batch {
    int shift;
    uint32_t n_bins;
    uint64_t leaf;
    int64_t lo, hi;    /* the leaf's interval */
    uint32_t tb_shift; /* log2 timelines per block */
    /* Records of the drawables inside the leaf, per block (an arrow to
     * another block's timeline also in that block's, as a mirror). segs
     * beyond n_segs keep their buffers for reuse. */
    batch_seg *segs;
    uint32_t n_segs, cap_segs;
    uint32_t last_seg; /* the segment used last (lanes go rank by rank) */
    uint32_t *seg_at;  /* by block: 1 + its segment's index, 0: none */
    uint32_t cap_seg_at;
    uint64_t n_seg; /* drawables among the records (no mirrors) */
    /* What their preview over the leaf needs of them, in order: the
     * writer makes the preview when it takes the batch (batch_preview),
     * so that the bins of a row, hundreds of bytes where a rank has a
     * few records in a leaf, exist for one batch at a time, not for every
     * batch in flight (thousands of ranks). */
    batch_pv *pv;
    uint32_t n_pv, cap_pv;
    uint32_t prev_tl0;          /* dimensions given to the preview: */
    uint32_t prev_tl, prev_cat; /* timelines from prev_tl0 on (grown by doubling) */
    int bshift;                 /* bins are 2^bshift ns wide; -1: not a power of two */
    float inv;                  /* 1 / bin width */
    /* The messages inside the leaf, for the overview's counts (msgs: the
     * writer keeps an overview, which counts them). */
    bool msgs;
    batch_msg *msg;
    uint32_t n_msg, cap_msg;
    /* The others, copied (info: offsets into other_info until placed). */
    slog_drawable *other;
    int64_t *other_info;
    uint32_t n_other, cap_other;
    size_t n_other_info, cap_other_info;
    /* Statistics, merged into the writer's when the batch is added. */
    uint64_t n_by_kind[3];
    int64_t t_min, t_max, min_key;
    uint64_t tl_limit; /* 1 + the largest timeline named */
    batch_cat *cats;   /* by category id, cap_cats entries */
    uint32_t cap_cats;
    uint32_t *used; /* the ids used, in first-use order */
    uint32_t n_used, cap_used;
    bool failed; /* an allocation failed: refused by the writer */
};

#endif
