/* SPDX-License-Identifier: MIT */
/* batch.c - drawables collected on a producer's thread for the writer (see
 * slog.h "batches").
 *
 * A batch does on its own thread what is per drawable and needs nothing of
 * the writer: the checks and the record encoding. What is left for the
 * writer's thread is one copy of the encoded records into the leaf's body
 * (rebasing the first record's start delta on the record before it
 * there), the preview of the one leaf the batch is aimed at, made in one
 * accumulator for every batch and merged, and the statistics. The few drawables outside the leaf
 * (crossing its edges, or in another leaf) are kept as they are and placed
 * by the writer one by one.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

const char *slog_drawable_problem(const slog_drawable *d)
{
    if (!d || d->kind > SLOG_KIND_EVENT) return "invalid drawable kind";
    if (d->n_info > SLOG_MAX_FIELDS || (d->n_info && !d->info)) return "invalid info values";
    /* As unsigned, a negative time is out of range too. */
    if ((uint64_t)d->start > (uint64_t)(INT64_MAX >> 1) || (uint64_t)d->end > (uint64_t)(INT64_MAX >> 1))
        return "time out of range (must be 0 <= t < 2^62 ns)";
    if (d->end < d->start && d->kind == SLOG_KIND_STATE) return "state ends before it starts";
    if (d->kind == SLOG_KIND_EVENT && d->end != d->start) return "event with end != start";
    return NULL;
}

slog_status slog_batch_new(slog_writer *w, slog_batch **out)
{
    *out = NULL;
    int32_t shift;
    uint32_t bins, tb_shift;
    bool msgs;
    if (!w || !slog_writer_batch_geometry(w, &shift, &bins, &tb_shift, &msgs)) return SLOG_ERR_ARG;
    slog_batch *b = calloc(1, sizeof *b);
    if (!b) return SLOG_ERR_NOMEM;
    b->shift = shift;
    b->n_bins = bins;
    b->tb_shift = tb_shift;
    b->msgs = msgs;
    slog_batch_begin(b, 0);
    *out = b;
    return SLOG_OK;
}

void slog_batch_free(slog_batch *b)
{
    if (!b) return;
    for (uint32_t i = 0; i < b->cap_segs; i++) buf_free(&b->segs[i].seg);
    free(b->segs);
    free(b->seg_at);
    free(b->pv);
    free(b->other);
    free(b->msg);
    free(b->other_info);
    free(b->cats);
    free(b->used);
    free(b);
}

void slog_batch_begin(slog_batch *b, uint64_t leaf)
{
    b->leaf = leaf;
    /* Leaves start below 2^62 (every time does); a leaf past that holds
     * nothing and its interval is clamped rather than overflowed. */
    uint64_t lo = leaf << b->shift;
    b->lo = (leaf >> (62 - b->shift)) ? INT64_MAX : (int64_t)lo;
    b->hi = (leaf >> (62 - b->shift)) || lo + ((uint64_t)1 << b->shift) > (uint64_t)INT64_MAX
                ? INT64_MAX
                : (int64_t)(lo + ((uint64_t)1 << b->shift));
    /* Bins of a power-of-two width (n_bins a power of two dividing the
     * leaf, the usual case): prev_add_pow2, inline below. */
    b->bshift = -1;
    if (!(b->n_bins & (b->n_bins - 1)) && ((uint64_t)1 << b->shift) >= b->n_bins && b->hi != INT64_MAX) {
        int bs = 0;
        while (((uint64_t)b->n_bins << bs) < ((uint64_t)1 << b->shift)) bs++;
        b->bshift = bs;
        b->inv = 1.0f / (float)((int64_t)1 << bs);
    }
    for (uint32_t i = 0; i < b->n_segs; i++) {
        batch_seg *g = &b->segs[i];
        if (g->block < b->cap_seg_at) b->seg_at[g->block] = 0;
        g->seg.len = 0;
        g->seg.failed = false;
        g->n_seg = g->n_mirror = 0;
    }
    b->n_segs = 0;
    b->last_seg = 0;
    b->n_seg = 0;
    b->n_pv = 0;
    b->n_msg = 0;
    b->n_other = 0;
    b->n_other_info = 0;
    memset(b->n_by_kind, 0, sizeof b->n_by_kind);
    b->t_min = b->min_key = INT64_MAX;
    b->t_max = INT64_MIN;
    b->tl_limit = 0;
    for (uint32_t i = 0; i < b->n_used; i++) {
        batch_cat *c = &b->cats[b->used[i]];
        c->count = 0;
        c->total_ns = 0;
        c->used = false;
    }
    b->n_used = 0;
    b->failed = false;
}

uint64_t slog_batch_count(const slog_batch *b)
{
    return (uint64_t)b->n_by_kind[0] + b->n_by_kind[1] + b->n_by_kind[2];
}

int64_t slog_batch_min_key(const slog_batch *b)
{
    return b->min_key;
}

/* The statistics entry of category id, made on first use: NULL when out of
 * memory (b->failed). */
static batch_cat *cat_entry(slog_batch *b, uint32_t id)
{
    if (id >= b->cap_cats) {
        uint32_t cap = b->cap_cats ? b->cap_cats : 64;
        while (cap <= id) cap *= 2;
        batch_cat *c = realloc(b->cats, (size_t)cap * sizeof *c);
        if (!c) return NULL;
        memset(c + b->cap_cats, 0, (size_t)(cap - b->cap_cats) * sizeof *c);
        b->cats = c;
        b->cap_cats = cap;
    }
    batch_cat *c = &b->cats[id];
    if (!c->used) {
        uint32_t *u = slog_grow(b->used, &b->cap_used, b->n_used, sizeof *u, 32);
        if (!u) return NULL;
        b->used = u;
        b->used[b->n_used++] = id;
    }
    return c;
}

/* Blocks up to this are found through seg_at; any beyond (a file of
 * millions of blocks) by the search below. */
#define SEG_AT_MAX (1u << 20)

/* The segment of block k, made if there is none; NULL when out of memory.
 * A batch of the sequential step holds drawables of every block: searching
 * the segments for each one was a twentieth of a build with thousands of
 * ranks, hence the index by block. */
static batch_seg *seg_of(slog_batch *b, uint32_t k)
{
    if (b->last_seg < b->n_segs && b->segs[b->last_seg].block == k) return &b->segs[b->last_seg];
    if (k < b->cap_seg_at) {
        if (b->seg_at[k]) {
            b->last_seg = b->seg_at[k] - 1;
            return &b->segs[b->last_seg];
        }
    } else if (k >= SEG_AT_MAX) {
        for (uint32_t i = 0; i < b->n_segs; i++)
            if (b->segs[i].block == k) {
                b->last_seg = i;
                return &b->segs[i];
            }
    } else {
        uint32_t cap = b->cap_seg_at ? b->cap_seg_at : 64;
        while (cap <= k) cap *= 2;
        uint32_t *v = realloc(b->seg_at, (size_t)cap * sizeof *v);
        if (!v) return NULL;
        memset(v + b->cap_seg_at, 0, (size_t)(cap - b->cap_seg_at) * sizeof *v);
        b->seg_at = v;
        b->cap_seg_at = cap;
    }
    if (b->n_segs == b->cap_segs) {
        uint32_t cap = b->cap_segs ? 2 * b->cap_segs : 4;
        batch_seg *g = realloc(b->segs, (size_t)cap * sizeof *g);
        if (!g) return NULL;
        memset(g + b->cap_segs, 0, (size_t)(cap - b->cap_segs) * sizeof *g);
        b->segs = g;
        b->cap_segs = cap;
    }
    batch_seg *g = &b->segs[b->n_segs];
    g->block = k;
    g->seg.len = 0;
    g->seg.failed = false;
    g->n_seg = g->n_mirror = 0;
    b->last_seg = b->n_segs++;
    if (k < b->cap_seg_at) b->seg_at[k] = b->n_segs;
    return g;
}

/* Encode d at the end of segment g; false when out of memory. */
static bool seg_put(batch_seg *g, const slog_drawable *d, int64_t lo, bool mirror)
{
    if (g->seg.cap - g->seg.len < SLOG_RECORD_MAX && !buf_reserve(&g->seg, SLOG_RECORD_MAX)) return false;
    uint8_t *p = g->seg.data + g->seg.len, *delta_at;
    uint8_t *head = p;
    if (!g->n_seg) {
        p = slog_record_put(p, d, lo, &delta_at);
        g->first_start = d->start;
        g->first_delta_at = (size_t)(delta_at - g->seg.data);
    } else {
        p = slog_record_put(p, d, g->last_start, &delta_at);
    }
    if (mirror) {
        *head |= SLOG_REC_MIRROR;
        g->n_mirror++;
    }
    g->last_start = d->start;
    g->seg.len = (size_t)(p - g->seg.data);
    g->n_seg++;
    return true;
}

/* Keep d for the writer to place: it is not inside the leaf. */
static bool keep_other(slog_batch *b, const slog_drawable *d)
{
    slog_drawable *o = slog_grow(b->other, &b->cap_other, b->n_other, sizeof *o, 16);
    if (!o) return false;
    b->other = o;
    if (b->n_other_info + d->n_info > b->cap_other_info) {
        size_t cap = b->cap_other_info ? 2 * b->cap_other_info : 64;
        while (cap < b->n_other_info + d->n_info) cap *= 2;
        int64_t *v = realloc(b->other_info, cap * sizeof *v);
        if (!v) return false;
        b->other_info = v;
        b->cap_other_info = cap;
    }
    o = &b->other[b->n_other++];
    *o = *d;
    if (d->n_info) memcpy(b->other_info + b->n_other_info, d->info, d->n_info * sizeof *d->info);
    /* An offset until the writer places it: other_info may move. */
    o->info = (const int64_t *)(uintptr_t)b->n_other_info;
    b->n_other_info += d->n_info;
    return true;
}

/* An arrow inside the leaf, for the overview's message counts. */
static bool keep_message(slog_batch *b, const slog_drawable *d)
{
    batch_msg *v = slog_grow(b->msg, &b->cap_msg, b->n_msg, sizeof *v, 64);
    if (!v) return false;
    b->msg = v;
    b->msg[b->n_msg++] = (batch_msg){d->timeline, d->end_timeline};
    return true;
}

/* A category's first drawable in the batch; NULL when out of memory. */
static batch_cat *cat_first(slog_batch *b, const slog_drawable *d)
{
    batch_cat *c = cat_entry(b, d->category);
    if (!c) return NULL;
    c->used = true;
    c->kind = (uint8_t)d->kind;
    c->n_info = (uint8_t)d->n_info;
    return c;
}

/* The preview of a drawable inside the leaf, for batch_preview. Zero-length
 * states cover nothing. False when out of memory. */
static inline bool leaf_preview(slog_batch *b, const slog_drawable *d)
{
    bool is_state = d->kind == SLOG_KIND_STATE;
    if (is_state && d->end <= d->start) return true;
    if (b->n_pv == b->cap_pv) {
        batch_pv *v = slog_grow(b->pv, &b->cap_pv, b->n_pv, sizeof *v, 64);
        if (!v) return false;
        b->pv = v;
    }
    b->pv[b->n_pv++] = (batch_pv){d->timeline, d->category | (is_state ? BATCH_PV_STATE : 0), d->start, d->end};
    return true;
}

bool batch_preview(slog_batch *b, slog_prev_acc *acc, uint32_t shift)
{
    prev_reset(acc);
    for (uint32_t i = 0; i < b->n_pv; i++) {
        const batch_pv *p = &b->pv[i];
        uint32_t tl = p->timeline >> shift, cat = p->category & ~BATCH_PV_STATE;
        bool is_state = (p->category & BATCH_PV_STATE) != 0;
        slog_prev_row *row;
        float *bins;
        if (b->bshift >= 0 && (bins = prev_bins_direct(acc, tl, cat, &row))) {
            prev_add_pow2(bins, row, b->bshift, b->inv, b->n_bins, is_state, p->start - b->lo, p->end - b->lo);
            continue;
        }
        if (!b->prev_tl || tl < b->prev_tl0 || tl - b->prev_tl0 >= b->prev_tl || cat >= b->prev_cat) {
            /* The direct table covers the timelines from the lowest seen on
             * (a producer's lane of ranks, not every rank below it: 128 KiB a
             * batch with 1,024 ranks), grown by doubling so that it is rebuilt
             * a few times at the start, not for every new id. Too many cells
             * for a table (prev_resize_dims): the rows are hashed. */
            uint64_t lo = b->prev_tl ? b->prev_tl0 : tl, top = b->prev_tl ? (uint64_t)b->prev_tl0 + b->prev_tl : 0;
            if (tl < lo) lo = tl;
            if ((uint64_t)tl + 1 > top) top = (uint64_t)tl + 1;
            uint64_t span = b->prev_tl ? b->prev_tl : 16;
            while (span < top - lo) span *= 2;
            b->prev_tl0 = (uint32_t)lo;
            b->prev_tl = span > UINT32_MAX ? UINT32_MAX : (uint32_t)span;
            while (b->prev_cat <= cat) b->prev_cat = b->prev_cat ? 2 * b->prev_cat : 32;
        }
        /* The accumulator serves every batch: its table follows this one's. */
        prev_set_dims(acc, b->prev_tl0, b->prev_tl, b->prev_cat);
        prev_add(acc, b->lo, b->hi - b->lo, tl, cat, is_state, p->start, p->end);
        if (acc->failed) return false;
    }
    return !acc->failed;
}

slog_status slog_batch_add(slog_batch *b, const slog_drawable *d)
{
    /* One test for what is never wrong in a working producer; the reasons
     * are told apart only when one is. */
    const uint64_t limit = (uint64_t)(INT64_MAX >> 1);
    uint32_t kind = d ? (uint32_t)d->kind : 3u;
    if (kind > SLOG_KIND_EVENT || ((uint64_t)d->start | (uint64_t)d->end) > limit || d->n_info > SLOG_MAX_FIELDS ||
        d->category >= SLOG_BATCH_MAX_CATEGORY || (d->end < d->start && kind == SLOG_KIND_STATE) ||
        (kind == SLOG_KIND_EVENT && d->end != d->start) || (d->n_info && !d->info))
        return SLOG_ERR_ARG;
    if (b->failed) return SLOG_ERR_NOMEM;
    batch_cat *c;
    if (d->category < b->cap_cats && b->cats[d->category].used) {
        c = &b->cats[d->category];
        if (c->kind != (uint8_t)kind || c->n_info != d->n_info) return SLOG_ERR_ARG;
    } else if (!(c = cat_first(b, d))) {
        goto nomem;
    }
    bool backwards = d->end < d->start;
    int64_t a = backwards ? d->end : d->start, key = backwards ? d->start : d->end;
    if (a >= b->lo && key < b->hi) {
        uint32_t k = d->timeline >> b->tb_shift;
        batch_seg *g = seg_of(b, k);
        if (!g || !seg_put(g, d, b->lo, false)) goto nomem;
        if (kind == SLOG_KIND_ARROW) {
            if ((d->end_timeline >> b->tb_shift) != k) {
                batch_seg *m = seg_of(b, d->end_timeline >> b->tb_shift);
                if (!m || !seg_put(m, d, b->lo, true)) goto nomem;
            }
            if (b->msgs && !keep_message(b, d)) goto nomem;
        }
        b->n_seg++;
        if (!leaf_preview(b, d)) goto nomem;
    } else if (!keep_other(b, d)) {
        goto nomem;
    }
    c->count++;
    if (kind == SLOG_KIND_STATE) c->total_ns = slog_add_duration(c->total_ns, d->end - d->start);
    b->n_by_kind[kind]++;
    b->t_min = a < b->t_min ? a : b->t_min;
    b->t_max = key > b->t_max ? key : b->t_max;
    b->min_key = key < b->min_key ? key : b->min_key;
    uint64_t tl_max = kind == SLOG_KIND_ARROW && d->end_timeline > d->timeline ? d->end_timeline : d->timeline;
    b->tl_limit = tl_max >= b->tl_limit ? tl_max + 1 : b->tl_limit;
    return SLOG_OK;
nomem:
    b->failed = true;
    return SLOG_ERR_NOMEM;
}
