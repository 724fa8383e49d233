/* SPDX-License-Identifier: MIT */
/* query.c - window queries and the full-file check.
 *
 * A query walks the tree from the root through the directory, visiting only
 * nodes whose interval meets the window. A node whose preview bins are no
 * wider than a screen pixel is answered from its preview block; otherwise its
 * own drawables are decoded and its two children visited. The nodes that are
 * visited are therefore about twice the window's pixel columns divided by the
 * bins per node, plus one path per level, whatever the trace length.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "msgs.h"
#include "reader_internal.h"

typedef struct qctx {
    slog_reader *r;
    const slog_query *q;
    const uint8_t *visited; /* blocks this query reads, NULL: all */
    uint32_t tree;          /* the block being read */
    uint32_t shift;         /* block_shift */
    slog_drawable_cb on_drawable;
    slog_preview_cb on_preview;
    void *user;
    slog_query_stats stats;
    slog_error *err;
    bool stopped;
    /* scratch */
    int64_t info[SLOG_MAX_FIELDS];
    slog_preview_row *rows;
    size_t cap_rows;
    float *values;
    size_t cap_values;
} qctx;

/* State preview values are multiples of 1/255 stored as bytes: v / 255.0f
 * for every byte, a table lookup instead of a division per bin (computed
 * by the compiler with the same IEEE single-precision rounding). */
#define FRAC1(i)  ((float)(i) / 255.0f)
#define FRAC4(i)  FRAC1(i), FRAC1((i) + 1), FRAC1((i) + 2), FRAC1((i) + 3)
#define FRAC16(i) FRAC4(i), FRAC4((i) + 4), FRAC4((i) + 8), FRAC4((i) + 12)
#define FRAC64(i) FRAC16(i), FRAC16((i) + 16), FRAC16((i) + 32), FRAC16((i) + 48)
static const float u8_frac[256] = {FRAC64(0), FRAC64(64), FRAC64(128), FRAC64(192)};

const rd_node *rd_find_node(const slog_reader *r, uint32_t tree, uint32_t level, uint64_t index)
{
    if (level >= SLOG_MAX_LEVELS || (tree != SLOG_TREE_OVERVIEW && tree >= r->info.n_blocks)) return NULL;
    const rd_tree *t = rd_tree_of(r, tree);
    const rd_node *base = r->nodes + t->first;
    uint64_t a = 0, b = t->count;
    while (a < b) { /* the first entry not before (level, index) */
        uint64_t m = a + (b - a) / 2;
        if (base[m].level > level || (base[m].level == level && base[m].index < index))
            a = m + 1;
        else
            b = m;
    }
    return a < t->count && base[a].level == level && base[a].index == index ? &base[a] : NULL;
}

/* Read and verify a node's block (its preview block when preview, else
 * the one the node fields point to: records, or an overview node's own
 * records); fixed header must agree with the entry. */
static slog_status load_block(slog_reader *r, const rd_node *d, bool preview, uint8_t **own, slog_cur *body,
                              slog_error *err)
{
    const uint8_t *b;
    size_t len;
    uint32_t crc;
    uint64_t off = preview ? d->prev_off : d->node_off;
    const char *tag = preview ? SLOG_TAG_PREVIEW : d->tree == SLOG_TREE_OVERVIEW ? SLOG_TAG_OWN : SLOG_TAG_NODE;
    slog_status st = rd_block(r, tag, off, preview ? d->prev_size : d->node_size, own, &b, &len, &crc, err);
    if (st) return st;
    atomic_fetch_add(&r->nodes_read, 1);
    if (crc != (preview ? d->prev_crc : d->node_crc)) {
        free(*own);
        *own = NULL;
        return slog_set_error(err, SLOG_ERR_CHECKSUM, r->path, off, "block CRC32C differs from its directory entry");
    }
    *body = cur_make(b, len);
    uint8_t level = cur_u8(body);
    cur_u8(body);
    cur_u16(body);
    uint32_t n = cur_u32(body);
    uint64_t index = cur_u64(body);
    if (!cur_ok(body) || level != d->level || index != d->index || (!preview && n != d->n_drawables)) {
        free(*own);
        *own = NULL;
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "block header disagrees with the directory");
    }
    return SLOG_OK;
}

/* Decode one drawable record; false on malformed data. A state or arrow
 * shorter than narrow_ns comes without its info values
 * (SLOG_QUERY_NARROW_NO_INFO; 0 decodes every record's). */
static bool decode_drawable(const slog_reader *r, slog_cur *c, int64_t lo, int64_t hi, int64_t narrow_ns,
                            int64_t *prev_start, slog_drawable *d, int64_t *info, bool *mirror)
{
    uint8_t head = cur_u8(c);
    uint64_t cat = cur_uvar(c), tl = cur_uvar(c);
    if (!cur_ok(c) || (head & SLOG_REC_RESERVED) || (head & SLOG_REC_KIND_MASK) > SLOG_KIND_EVENT) return false;
    *mirror = (head & SLOG_REC_MIRROR) != 0;
    if (*mirror && (head & SLOG_REC_KIND_MASK) != SLOG_KIND_ARROW) return false;
    d->kind = (slog_kind)(head & SLOG_REC_KIND_MASK);
    if (cat >= r->info.n_categories || tl >= r->info.n_timelines || r->cats[cat].kind != d->kind) return false;
    d->category = (uint32_t)cat;
    d->timeline = (uint32_t)tl;
    d->end_timeline = d->timeline;
    if (d->kind == SLOG_KIND_ARROW) {
        uint64_t et = cur_uvar(c);
        if (et >= r->info.n_timelines) return false;
        d->end_timeline = (uint32_t)et;
    } else if (head & SLOG_REC_BACKWARDS) {
        return false;
    }
    int64_t delta = cur_zvar(c);
    uint64_t dur = cur_uvar(c);
    if (!cur_ok(c)) return false;
    /* Both ends must lie in [lo, hi): bounds every addition below. */
    if (delta < lo - *prev_start || delta >= hi - *prev_start) return false;
    d->start = *prev_start + delta;
    *prev_start = d->start;
    if (head & SLOG_REC_BACKWARDS) {
        if (dur == 0 || dur > (uint64_t)(d->start - lo)) return false;
        d->end = d->start - (int64_t)dur;
    } else {
        if (dur >= (uint64_t)(hi - d->start)) return false;
        d->end = d->start + (int64_t)dur;
    }
    if (d->kind == SLOG_KIND_EVENT && dur) return false;
    uint32_t nf = r->cats[cat].n_fields;
    /* dur is |end - start| whichever way an arrow points */
    bool narrow = d->kind != SLOG_KIND_EVENT && dur < (uint64_t)narrow_ns;
    d->n_info = narrow ? 0 : nf;
    d->info = narrow ? NULL : info;
    for (uint32_t i = 0; i < d->n_info; i++) info[i] = SLOG_INFO_UNKNOWN;
    if (head & SLOG_REC_HAS_INFO) {
        uint64_t mask = cur_uvar(c);
        if (!mask || (nf < 64 && (mask >> nf))) return false;
        if (narrow) {
            /* Records carry no length, so the values are still stepped
             * over, and checked as decoding would check them. */
            for (; mask; mask &= mask - 1) cur_skip_uvar(c);
        } else {
            for (uint32_t i = 0; i < nf; i++)
                if (mask >> i & 1) info[i] = cur_zvar(c);
        }
    }
    return cur_ok(c);
}

static bool wanted(const slog_query *q, const slog_drawable *d)
{
    int64_t a = d->start < d->end ? d->start : d->end, b = d->start < d->end ? d->end : d->start;
    if (a > q->t1 || b < q->t0) return false;
    if (!q->timelines) return true;
    return q->timelines[d->timeline] || (d->kind == SLOG_KIND_ARROW && q->timelines[d->end_timeline]);
}

static void node_bounds(const slog_reader *r, const rd_node *d, int64_t *lo, int64_t *hi)
{
    uint32_t s = (uint32_t)r->info.leaf_shift + d->level;
    *lo = (int64_t)(d->index << s);
    *hi = *lo + (int64_t)(1ull << s);
}

/* log2 of the timelines per block (a power of two): a record's block is
 * its timeline shifted right by this. */
static uint32_t block_shift(const slog_reader *r)
{
    uint32_t shift = 0;
    while ((1u << shift) < r->info.block_timelines) shift++;
    return shift;
}

/* A decoded record belongs in block tree `tree`: its own timeline's block,
 * or for a mirror its receiver's (and not its sender's). */
static bool in_block(uint32_t shift, uint32_t tree, const slog_drawable *d, bool mirror)
{
    if (!mirror) return (d->timeline >> shift) == tree;
    return (d->end_timeline >> shift) == tree && (d->timeline >> shift) != tree;
}

/* Node d read and decoded into a cache entry (its records' fields, not
 * their info values, which are checked and stepped over); the same checks
 * and errors as deliver_node, made over the whole node before anything of
 * it is delivered. */
static slog_status cache_fill(qctx *x, const rd_node *d, int64_t lo, int64_t hi, rd_centry **out)
{
    *out = NULL;
    slog_reader *r = x->r;
    rd_centry *e = rd_centry_new((uint64_t)(d - r->nodes), d->n_drawables);
    if (!e) return slog_set_error(x->err, SLOG_ERR_NOMEM, r->path, d->node_off, "node cache");
    slog_cur c;
    slog_status st = load_block(r, d, false, &e->own, &c, x->err);
    if (st) {
        rd_cache_release(r, e);
        return st;
    }
    uint64_t body_start = d->node_off + SLOG_BLOCK_HEADER_SIZE;
    const uint8_t *base = c.p - 16;
    e->recs_at = c.p;
    int64_t prev = lo;
    for (uint32_t i = 0; i < d->n_drawables; i++) {
        slog_drawable dr;
        bool mirror;
        const uint8_t *at = c.p;
        if (!decode_drawable(r, &c, lo, hi, INT64_MAX, &prev, &dr, x->info, &mirror) ||
            !in_block(x->shift, d->tree, &dr, mirror)) {
            rd_cache_release(r, e);
            return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, body_start + (uint64_t)(c.p - base),
                                  "malformed drawable %u of node (%u, %u, %llu)", i, d->tree, d->level,
                                  (unsigned long long)d->index);
        }
        e->recs[i] =
            (rd_rec){dr.start,         dr.end, dr.timeline, dr.end_timeline, dr.category, (uint32_t)(at - e->recs_at),
                     (uint8_t)dr.kind, mirror};
    }
    if (cur_left(&c)) {
        rd_cache_release(r, e);
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, body_start, "trailing bytes in node (%u, %u, %llu)",
                              d->tree, d->level, (unsigned long long)d->index);
    }
    e->recs_len = (size_t)(c.end - e->recs_at);
    *out = e;
    return SLOG_OK;
}

/* deliver_node through the reader's cache: the node's entry, made first on
 * a miss. A record's info values, when it is delivered with them, are
 * decoded again from the block (the previous record's start is the base of
 * its delta), so what is delivered is what deliver_node delivers. */
static slog_status deliver_cached(qctx *x, const rd_node *d, int64_t lo, int64_t hi)
{
    slog_reader *r = x->r;
    rd_centry *e = rd_cache_get(r, (uint64_t)(d - r->nodes));
    if (!e) {
        slog_status st = cache_fill(x, d, lo, hi, &e);
        if (st) return st;
        rd_cache_put(r, e);
        x->stats.nodes_read++;
        x->stats.bytes_read += d->node_size;
    }
    int64_t narrow_ns = x->q->flags & SLOG_QUERY_NARROW_NO_INFO ? x->q->pixel_ns : 0;
    /* wanted() with the query's fields read once per node, and each
     * record's interval found once for the window and its width */
    const int64_t t0 = x->q->t0, t1 = x->q->t1;
    const uint8_t *tls = x->q->timelines, *visited = x->visited;
    const uint32_t shift = x->shift;
    slog_drawable_cb cb = x->on_drawable;
    uint64_t delivered = 0;
    for (uint32_t i = 0; i < e->n; i++) {
        const rd_rec *k = &e->recs[i];
        /* A mirror stands for its arrow only where the sender's block is
         * not read by this query. */
        if (k->mirror && (!visited || visited[k->timeline >> shift])) continue;
        int64_t a = k->start < k->end ? k->start : k->end, b = k->start < k->end ? k->end : k->start;
        if (a > t1 || b < t0) continue;
        if (tls && !tls[k->timeline] && !(k->kind == SLOG_KIND_ARROW && tls[k->end_timeline])) continue;
        slog_drawable dr = {.start = k->start,
                            .end = k->end,
                            .timeline = k->timeline,
                            .end_timeline = k->end_timeline,
                            .category = k->category,
                            .kind = (slog_kind)k->kind};
        if (k->kind != SLOG_KIND_EVENT && (uint64_t)(b - a) < (uint64_t)narrow_ns) {
            dr.n_info = 0;
            dr.info = NULL;
        } else {
            slog_cur c = cur_make(e->recs_at + k->pos, e->recs_len - k->pos);
            int64_t prev = i ? e->recs[i - 1].start : lo;
            bool mirror;
            /* checked when the entry was made */
            (void)decode_drawable(r, &c, lo, hi, 0, &prev, &dr, x->info, &mirror);
        }
        delivered++;
        if (cb && cb(x->user, &dr) == SLOG_STOP) {
            x->stopped = true;
            break;
        }
    }
    x->stats.drawables += delivered;
    rd_cache_release(r, e);
    return SLOG_OK;
}

static slog_status deliver_node(qctx *x, const rd_node *d, int64_t lo, int64_t hi)
{
    if (x->r->cache) return deliver_cached(x, d, lo, hi);
    uint8_t *own;
    slog_cur c;
    slog_status st = load_block(x->r, d, false, &own, &c, x->err);
    if (st) return st;
    x->stats.nodes_read++;
    x->stats.bytes_read += d->node_size;
    int64_t prev = lo;
    int64_t narrow_ns = x->q->flags & SLOG_QUERY_NARROW_NO_INFO ? x->q->pixel_ns : 0;
    uint64_t body_start = d->node_off + SLOG_BLOCK_HEADER_SIZE;
    const uint8_t *base = c.p - 16;
    uint32_t shift = x->shift;
    for (uint32_t i = 0; i < d->n_drawables; i++) {
        slog_drawable dr;
        bool mirror;
        if (!decode_drawable(x->r, &c, lo, hi, narrow_ns, &prev, &dr, x->info, &mirror) ||
            !in_block(shift, d->tree, &dr, mirror)) {
            uint64_t at = body_start + (uint64_t)(c.p - base);
            free(own);
            return slog_set_error(x->err, SLOG_ERR_CORRUPT, x->r->path, at,
                                  "malformed drawable %u of node (%u, %u, %llu)", i, d->tree, d->level,
                                  (unsigned long long)d->index);
        }
        /* A mirror stands for its arrow only where the sender's block is
         * not read by this query. */
        if (mirror && (!x->visited || x->visited[dr.timeline >> shift])) continue;
        if (wanted(x->q, &dr)) {
            x->stats.drawables++;
            if (x->on_drawable && x->on_drawable(x->user, &dr) == SLOG_STOP) {
                x->stopped = true;
                break;
            }
        }
    }
    if (!x->stopped && cur_left(&c)) {
        free(own);
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, x->r->path, body_start, "trailing bytes in node (%u, %u, %llu)",
                              d->tree, d->level, (unsigned long long)d->index);
    }
    free(own);
    return SLOG_OK;
}

slog_status rd_node_records(slog_reader *r, const rd_node *d, rd_record_cb cb, void *user, slog_error *err)
{
    uint8_t *own;
    slog_cur c;
    slog_status st = load_block(r, d, false, &own, &c, err);
    if (st) return st;
    int64_t lo, hi, prev;
    node_bounds(r, d, &lo, &hi);
    prev = lo;
    uint64_t body_start = d->node_off + SLOG_BLOCK_HEADER_SIZE;
    const uint8_t *base = c.p - 16;
    int64_t info[SLOG_MAX_FIELDS];
    bool stopped = false;
    uint32_t shift = block_shift(r);
    for (uint32_t i = 0; i < d->n_drawables && !stopped; i++) {
        slog_drawable dr;
        bool mirror;
        if (!decode_drawable(r, &c, lo, hi, 0, &prev, &dr, info, &mirror) || !in_block(shift, d->tree, &dr, mirror)) {
            uint64_t at = body_start + (uint64_t)(c.p - base);
            free(own);
            return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, at, "malformed drawable %u of node (%u, %u, %llu)", i,
                                  d->tree, d->level, (unsigned long long)d->index);
        }
        stopped = !cb(user, &dr, mirror);
    }
    if (!stopped && cur_left(&c)) {
        free(own);
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, body_start, "trailing bytes in node (%u, %u, %llu)",
                              d->tree, d->level, (unsigned long long)d->index);
    }
    free(own);
    return SLOG_OK;
}

/* One set of preview rows at c into x->rows / x->values from row `kept`
 * on (rows of unwanted timelines skipped when mask is non-NULL; an
 * overview's rows are groups of timelines, their state values multiplied
 * by the group's size). */
static bool decode_rows(qctx *x, slog_cur *c, const rd_node *d, const uint8_t *mask, uint32_t *kept_io)
{
    slog_reader *r = x->r;
    bool overview = d->tree == SLOG_TREE_OVERVIEW;
    uint32_t bins = cur_u32(c), n = cur_u32(c);
    /* A row takes at least 5 bytes: bounds the allocations. */
    if (!cur_ok(c) || bins != r->info.preview_bins || n > cur_left(c) / 5) return false;
    uint32_t kept = *kept_io;
    if ((uint64_t)(kept + n) * bins > (64u << 20)) return false;
    if (kept + n > x->cap_rows) {
        slog_preview_row *nr = realloc(x->rows, (kept + n) * sizeof *nr);
        if (nr) x->rows = nr;
        float *nv = realloc(x->values, (size_t)(kept + n) * bins * sizeof *nv);
        if (nv) x->values = nv;
        if (!nr || !nv) return false;
        x->cap_rows = kept + n;
        for (uint32_t i = 0; i < kept; i++) x->rows[i].values = x->values + (size_t)i * bins;
    }
    uint32_t tl_limit, tl_first = 0, shift = 0;
    while ((1u << shift) < r->info.block_timelines) shift++;
    if (overview) {
        uint32_t g = r->info.group_timelines;
        tl_limit = r->info.n_timelines ? (uint32_t)(((uint64_t)r->info.n_timelines + g - 1) / g) : 0;
    } else {
        tl_first = d->tree << shift;
        tl_limit = tl_first + r->info.block_timelines;
        if (tl_limit > r->info.n_timelines || tl_limit < tl_first) tl_limit = r->info.n_timelines;
    }
    uint64_t last = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t tl = cur_uvar(c), cat = cur_uvar(c), first = cur_uvar(c), cnt = cur_uvar(c);
        uint64_t key = (tl << 32) | cat;
        if (!cur_ok(c) || tl < tl_first || tl >= tl_limit || cat >= r->info.n_categories || cnt == 0 || first >= bins ||
            cnt > bins - first || (i && key <= last))
            return false;
        last = key;
        bool st_row = r->cat_is_state[cat];
        bool keep = overview || !mask || mask[tl];
        float *v = x->values + (size_t)kept * bins;
        if (keep) {
            memset(v, 0, first * sizeof *v);
            memset(v + first + cnt, 0, (bins - first - cnt) * sizeof *v);
        }
        if (st_row && overview) {
            /* sums over the group, in 1/255 (nested states of one
             * category may take a timeline past one) */
            for (uint64_t j = first; j < first + cnt; j++) {
                float q = (float)cur_uvar(c);
                if (keep) v[j] = q / 255.0f;
            }
        } else if (st_row) {
            /* one bounds check for the row's bytes */
            const uint8_t *b = cur_bytes(c, cnt);
            if (!b) return false;
            for (uint64_t j = 0; keep && j < cnt; j++) v[first + j] = u8_frac[b[j]];
        } else {
            for (uint64_t j = first; j < first + cnt; j++) {
                float val = (float)cur_uvar(c);
                if (keep) v[j] = val;
            }
        }
        if (keep) {
            x->rows[kept].timeline = (uint32_t)tl;
            x->rows[kept].category = (uint32_t)cat;
            x->rows[kept].values = v;
            kept++;
        }
    }
    *kept_io = kept;
    return cur_ok(c);
}

/* An overview preview's own records at c (count already read: n) into s;
 * false on malformed data. */
static bool decode_own(const slog_reader *r, slog_cur *c, const rd_node *d, uint32_t n, rd_scratch *s)
{
    /* A record takes at least 4 bytes: bounds the allocation. */
    if (n > cur_left(c) / 4) return false;
    if (n > s->cap_own) {
        rd_own *o = realloc(s->own, (size_t)n * sizeof *o);
        if (!o) return false;
        s->own = o;
        s->cap_own = n;
    }
    uint32_t g = r->info.group_timelines;
    uint64_t groups = r->info.n_timelines ? ((uint64_t)r->info.n_timelines + g - 1) / g : 0;
    uint32_t sh = (uint32_t)r->info.leaf_shift + d->level;
    int64_t lo = (int64_t)(d->index << sh);
    uint64_t width = 1ull << sh;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t grp = cur_uvar(c), cat = cur_uvar(c), at = cur_uvar(c), dur = cur_uvar(c);
        if (!cur_ok(c) || grp >= groups || cat >= r->info.n_categories || at >= width || dur > width - at ||
            (dur && !r->cat_is_state[cat]))
            return false;
        s->own[i] = (rd_own){(uint32_t)grp, (uint32_t)cat, lo + (int64_t)at, lo + (int64_t)(at + dur)};
    }
    s->n_own = n;
    return true;
}

slog_status rd_own_records(slog_reader *r, const rd_node *d, rd_scratch *s, slog_error *err)
{
    s->n_own = 0;
    if (d->tree != SLOG_TREE_OVERVIEW || !d->node_off) return SLOG_OK;
    uint8_t *own;
    slog_cur c;
    slog_status st = load_block(r, d, false, &own, &c, err);
    if (st) return st;
    bool ok = decode_own(r, &c, d, d->n_drawables, s) && !cur_left(&c);
    free(own);
    if (!ok)
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "malformed own records of node (%u, %llu)",
                              d->level, (unsigned long long)d->index);
    return SLOG_OK;
}

/* Decode a preview block into x->rows / x->values. An overview's block
 * also says what was previewed at the node itself (own_all, and in 2.x
 * files s->own, when s is given; in 3.x rd_own_records reads them). */
static slog_status decode_preview_own(qctx *x, const rd_node *d, const uint8_t *mask, slog_preview *p, rd_scratch *s,
                                      bool *own_all)
{
    slog_reader *r = x->r;
    uint8_t *own;
    slog_cur c;
    slog_status st = load_block(r, d, true, &own, &c, x->err);
    if (st) return st;
    uint32_t kept = 0;
    bool ok = decode_rows(x, &c, d, mask, &kept);
    if (ok && d->tree == SLOG_TREE_OVERVIEW) {
        uint8_t mode = cur_u8(&c);
        bool v3 = r->info.version_major >= 3;
        ok = cur_ok(&c) && (mode == OWN_ALL || mode == (v3 ? OWN_BLOCK : OWN_RECORDS));
        /* 3.x: own records have a block exactly when there are some, and
         * a node that previews all of its subtree has none; 4.x: such a
         * node counts all of its subtree as its own. */
        if (ok && v3) ok = mode == OWN_ALL ? !d->node_off : (d->node_off != 0) == (d->n_drawables != 0);
        if (ok && r->info.version_major >= 4 && mode == OWN_ALL) ok = d->n_drawables == d->n_subtree;
        if (own_all) *own_all = mode == OWN_ALL;
        if (ok && mode == OWN_RECORDS) {
            uint32_t n = cur_u32(&c);
            rd_scratch tmp = {0};
            ok = cur_ok(&c) && decode_own(r, &c, d, n, s ? s : &tmp);
            free(tmp.own);
        } else if (s) {
            s->n_own = 0;
        }
    }
    if (!ok || cur_left(&c)) {
        free(own);
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, d->prev_off,
                              "malformed preview of node (%u, %u, %llu)", d->tree, d->level,
                              (unsigned long long)d->index);
    }
    free(own);
    p->tree = d->tree;
    p->level = d->level;
    p->n_bins = r->info.preview_bins;
    p->n_rows = kept;
    p->rows = x->rows;
    return SLOG_OK;
}

slog_status rd_preview(slog_reader *r, const rd_node *d, rd_scratch *s, slog_preview *p, bool *own_all, slog_error *err)
{
    qctx x = {.r = r, .err = err, .rows = s->rows, .cap_rows = s->cap_rows, .values = s->values};
    node_bounds(r, d, &p->lo, &p->hi);
    slog_status st = decode_preview_own(&x, d, NULL, p, s, own_all);
    s->rows = x.rows;
    s->values = x.values;
    s->cap_rows = x.cap_rows;
    return st;
}

static slog_status decode_preview(qctx *x, const rd_node *d, const uint8_t *mask, slog_preview *p)
{
    return decode_preview_own(x, d, mask, p, NULL, NULL);
}

/* Preview bins no wider than a pixel: (hi-lo)/bins <= pixel_ns as real
 * numbers, compared without division; a pixel_ns so large that pixel_ns *
 * bins overflows is wider than any node (widths are below 2^62). */
static bool fine_enough(const slog_reader *r, int64_t width, int64_t pixel_ns)
{
    int64_t bins = (int64_t)r->info.preview_bins;
    return pixel_ns > INT64_MAX / bins || width <= pixel_ns * bins;
}

static slog_status visit(qctx *x, uint32_t level, uint64_t index)
{
    const rd_node *d = rd_find_node(x->r, x->tree, level, index);
    if (!d) return SLOG_OK;
    int64_t lo, hi;
    node_bounds(x->r, d, &lo, &hi);
    if (hi - 1 < x->q->t0 || lo > x->q->t1) return SLOG_OK;
    slog_status st;
    bool use_preview = x->q->pixel_ns > 0 && !(x->q->flags & SLOG_QUERY_NO_PREVIEW) &&
                       (d->flags & SLOG_DIRENT_HAS_PREVIEW) && fine_enough(x->r, hi - lo, x->q->pixel_ns);
    if (use_preview) {
        slog_preview p = {.lo = lo, .hi = hi};
        if ((st = decode_preview(x, d, x->q->timelines, &p))) return st;
        x->stats.nodes_read++;
        x->stats.bytes_read += d->prev_size;
        x->stats.previews++;
        if (x->on_preview && x->on_preview(x->user, &p) == SLOG_STOP) x->stopped = true;
        return SLOG_OK;
    }
    if (d->n_drawables && (st = deliver_node(x, d, lo, hi))) return st;
    if (x->stopped || level == 0) return SLOG_OK;
    if ((st = visit(x, level - 1, index * 2))) return st;
    if (x->stopped) return SLOG_OK;
    return visit(x, level - 1, index * 2 + 1);
}

uint8_t *rd_blocks_of(const slog_reader *r, const uint8_t *mask)
{
    uint8_t *v = calloc((size_t)r->info.n_blocks + 1, 1);
    if (!v) return NULL;
    uint32_t tb = r->info.block_timelines;
    for (uint32_t k = 0; k < r->info.n_blocks; k++) {
        if (!mask) {
            v[k] = 1;
            continue;
        }
        uint64_t end = (uint64_t)(k + 1) * tb;
        if (end > r->info.n_timelines) end = r->info.n_timelines;
        for (uint64_t t = (uint64_t)k * tb; t < end && !v[k]; t++) v[k] = mask[t] != 0;
    }
    return v;
}

/* q over the subtree of node (level, index) of each block flagged in
 * blocks; a block whose root lies below that level holds it all when the
 * index is 0 (level UINT32_MAX: every block's whole tree). */
static slog_status run_query(slog_reader *r, const slog_query *q, const uint8_t *blocks, uint32_t level, uint64_t index,
                             slog_drawable_cb on_drawable, slog_preview_cb on_preview, void *user,
                             slog_query_stats *stats, slog_error *err)
{
    qctx x = {.r = r,
              .q = q,
              .visited = q->timelines ? blocks : NULL,
              .shift = block_shift(r),
              .on_drawable = on_drawable,
              .on_preview = on_preview,
              .user = user,
              .err = err};
    slog_status st = SLOG_OK;
    for (uint32_t k = 0; !st && !x.stopped && k < r->info.n_blocks; k++) {
        const rd_tree *t = rd_tree_of(r, k);
        if (!blocks[k] || !t->count) continue;
        x.tree = k;
        if (level <= t->top)
            st = visit(&x, level, index);
        else if (!index)
            st = visit(&x, t->top, 0);
    }
    free(x.rows);
    free(x.values);
    *stats = x.stats;
    return st;
}

slog_status slog_reader_query(slog_reader *r, const slog_query *q, slog_drawable_cb on_drawable,
                              slog_preview_cb on_preview, void *user, slog_query_stats *stats, slog_error *err)
{
    slog_clear_error(err);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!r || !q) return slog_set_error(err, SLOG_ERR_ARG, r ? r->path : NULL, SLOG_NO_OFFSET, "NULL argument");
    if (q->t1 < q->t0 || q->pixel_ns < 0)
        return slog_set_error(err, SLOG_ERR_ARG, r->path, SLOG_NO_OFFSET, "empty window or negative pixel_ns");
    uint8_t *visited = rd_blocks_of(r, q->timelines);
    if (!visited) return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "query");
    slog_query_stats qs;
    slog_status st = run_query(r, q, visited, UINT32_MAX, 0, on_drawable, on_preview, user, &qs, err);
    free(visited);
    if (stats) *stats = qs;
    return st;
}

slog_status rd_query_subtree(slog_reader *r, const slog_query *q, const uint8_t *blocks, uint32_t level, uint64_t index,
                             slog_drawable_cb on_drawable, slog_preview_cb on_preview, void *user,
                             slog_query_stats *acc, slog_error *err)
{
    slog_query_stats qs;
    slog_status st = run_query(r, q, blocks, level, index, on_drawable, on_preview, user, &qs, err);
    acc->nodes_read += qs.nodes_read;
    acc->bytes_read += qs.bytes_read;
    acc->drawables += qs.drawables;
    acc->previews += qs.previews;
    return st;
}

/* ------------------------------------------------------------------ check */

/* The overview's node d against its children: counts add up. */
static slog_status check_overview_node(slog_reader *r, const rd_node *d, slog_error *err)
{
    uint64_t sub = d->n_drawables;
    bool short_ok = false; /* children left out: the blocks hold the rest */
    if (d->level > 0) {
        const rd_node *c0 = rd_find_node(r, d->tree, d->level - 1, d->index * 2),
                      *c1 = rd_find_node(r, d->tree, d->level - 1, d->index * 2 + 1);
        sub += (c0 ? c0->n_subtree : 0) + (c1 ? c1->n_subtree : 0);
        if (((d->flags & SLOG_DIRENT_OV_LEFT0) && c0) || ((d->flags & SLOG_DIRENT_OV_LEFT1) && c1))
            return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->prev_off,
                                  "overview node (%u, %llu) leaves out a child that it has", d->level,
                                  (unsigned long long)d->index);
        short_ok = d->flags & (SLOG_DIRENT_OV_LEFT0 | SLOG_DIRENT_OV_LEFT1);
    }
    if (short_ok ? sub >= d->n_subtree : sub != d->n_subtree || sub == 0)
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->prev_off,
                              "overview node (%u, %llu) subtree count %llu, directory says %llu", d->level,
                              (unsigned long long)d->index, (unsigned long long)sub, (unsigned long long)d->n_subtree);
    const rd_tree *t = rd_tree_of(r, d->tree);
    if (d->level < t->top && !rd_find_node(r, d->tree, d->level + 1, d->index / 2))
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->prev_off, "overview node (%u, %llu) has no parent",
                              d->level, (unsigned long long)d->index);
    return SLOG_OK;
}

slog_status slog_reader_check(slog_reader *r, slog_query_stats *stats, slog_error *err)
{
    slog_clear_error(err);
    if (stats) memset(stats, 0, sizeof *stats);
    slog_query all = {.t0 = INT64_MIN, .t1 = INT64_MAX};
    qctx x = {.r = r, .q = &all, .shift = block_shift(r), .err = err};
    uint64_t kinds[3] = {0};
    uint64_t *per_cat = calloc(r->info.n_categories + 1u, sizeof *per_cat);
    int64_t *cat_ns = calloc(r->info.n_categories + 1u, sizeof *cat_ns);
    slog_status st = SLOG_OK;
    int64_t t_min = INT64_MAX, t_max = INT64_MIN;
    uint64_t total = 0, mirrors = 0;
    if (!per_cat || !cat_ns) st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "check");
    msgs_check *mc = NULL;
    if (!st) st = msgs_check_new(r, &mc, &x.stats, err);
    bool strict_place = r->info.version_major < 5 || (r->info.version_major == 5 && r->info.version_minor < 1);
    for (uint64_t i = 0; !st && i < r->info.n_nodes; i++) {
        const rd_node *d = &r->nodes[i];
        int64_t lo, hi;
        node_bounds(r, d, &lo, &hi);
        if (d->flags & SLOG_DIRENT_HAS_PREVIEW) {
            slog_preview p;
            if ((st = decode_preview_own(&x, d, NULL, &p, NULL, NULL))) break;
            x.stats.nodes_read++;
            x.stats.bytes_read += d->prev_size;
            x.stats.previews++;
        }
        if (d->tree == SLOG_TREE_OVERVIEW) {
            if ((st = check_overview_node(r, d, err))) break;
            if (d->node_off) {
                rd_scratch tmp = {0};
                st = rd_own_records(r, d, &tmp, err);
                free(tmp.own);
                if (st) break;
                x.stats.nodes_read++;
                x.stats.bytes_read += d->node_size;
            }
            continue;
        }
        uint8_t *own;
        slog_cur c;
        if ((st = load_block(r, d, false, &own, &c, err))) break;
        x.stats.nodes_read++;
        x.stats.bytes_read += d->node_size;
        int64_t prev = lo;
        for (uint32_t k = 0; k < d->n_drawables && !st; k++) {
            slog_drawable dr;
            bool mirror;
            if (!decode_drawable(r, &c, lo, hi, 0, &prev, &dr, x.info, &mirror) ||
                !in_block(x.shift, d->tree, &dr, mirror)) {
                st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off,
                                    "malformed drawable %u of node (%u, %u, %llu)", k, d->tree, d->level,
                                    (unsigned long long)d->index);
                break;
            }
            int64_t a = dr.start < dr.end ? dr.start : dr.end, b = dr.start < dr.end ? dr.end : dr.start;
            /* From 5.1 a small node's records may lie in an ancestor
             * (docs/FORMAT.md): inside the node, checked above. */
            uint32_t place = slog_place_level((uint64_t)a, (uint64_t)b, r->info.leaf_shift);
            if (strict_place && place != d->level)
                st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off,
                                    "drawable %u of node (%u, %u, %llu) is not in the smallest node containing it", k,
                                    d->tree, d->level, (unsigned long long)d->index);
            if (mirror) {
                mirrors++;
                continue;
            }
            if (mc && dr.kind == SLOG_KIND_ARROW &&
                !msgs_check_arrow(mc, place, (uint64_t)a >> (r->info.leaf_shift + place), &dr))
                st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "check");
            kinds[dr.kind]++;
            per_cat[dr.category]++;
            if (dr.kind == SLOG_KIND_STATE)
                cat_ns[dr.category] = slog_add_duration(cat_ns[dr.category], dr.end - dr.start);
            if (a < t_min) t_min = a;
            if (b > t_max) t_max = b;
            x.stats.drawables++;
        }
        if (!st && cur_left(&c))
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "trailing bytes in node (%u, %u, %llu)",
                                d->tree, d->level, (unsigned long long)d->index);
        free(own);
        if (st) break;
        total += d->n_drawables;
        /* Subtree count = own + children's. */
        uint64_t sub = d->n_drawables;
        if (d->level > 0) {
            const rd_node *c0 = rd_find_node(r, d->tree, d->level - 1, d->index * 2),
                          *c1 = rd_find_node(r, d->tree, d->level - 1, d->index * 2 + 1);
            sub += (c0 ? c0->n_subtree : 0) + (c1 ? c1->n_subtree : 0);
        }
        if (sub != d->n_subtree || sub == 0) {
            st =
                slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off,
                               "node (%u, %u, %llu) subtree count %llu, directory says %llu", d->tree, d->level,
                               (unsigned long long)d->index, (unsigned long long)sub, (unsigned long long)d->n_subtree);
            break;
        }
        if (d->level < rd_tree_of(r, d->tree)->top && !rd_find_node(r, d->tree, d->level + 1, d->index / 2)) {
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "node (%u, %u, %llu) has no parent",
                                d->tree, d->level, (unsigned long long)d->index);
            break;
        }
    }
    if (!st && mc) st = msgs_check_finish(mc, err);
    msgs_check_free(mc);
    if (!st && (total != r->info.n_drawables + r->info.n_mirrors || mirrors != r->info.n_mirrors ||
                kinds[0] != r->info.n_states || kinds[1] != r->info.n_arrows || kinds[2] != r->info.n_events))
        st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, HDR_N_DRAWABLES, "drawable counts differ from the header");
    if (!st && r->info.n_drawables && (t_min != r->info.t_min || t_max != r->info.t_max))
        st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, HDR_TMIN, "span differs from the header");
    for (uint32_t k = 0; !st && k < r->info.n_categories; k++)
        if (per_cat[k] != r->cstats[k].count || cat_ns[k] != r->cstats[k].total_ns)
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, r->sec_off[SEC_CATEGORIES],
                                "category %u statistics differ from its drawables", k);
    free(per_cat);
    free(cat_ns);
    free(x.rows);
    free(x.values);
    if (stats) *stats = x.stats;
    return st;
}
