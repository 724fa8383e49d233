/* query.c - window queries and the full-file check.
 *
 * A query walks the tree from the root through the directory, visiting only
 * nodes whose interval meets the window. A node whose preview bins are no
 * wider than a screen pixel is answered from its preview block; otherwise its
 * own drawables are decoded and its two children visited. The nodes that are
 * visited are therefore about twice the window's pixel columns divided by the
 * bins per node, plus one path per level, whatever the trace length.
 */
#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

typedef struct qctx {
    slog_reader *r;
    const slog_query *q;
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
#define FRAC1(i) ((float)(i) / 255.0f)
#define FRAC4(i) FRAC1(i), FRAC1((i) + 1), FRAC1((i) + 2), FRAC1((i) + 3)
#define FRAC16(i) FRAC4(i), FRAC4((i) + 4), FRAC4((i) + 8), FRAC4((i) + 12)
#define FRAC64(i) FRAC16(i), FRAC16((i) + 16), FRAC16((i) + 32), FRAC16((i) + 48)
static const float u8_frac[256] = {FRAC64(0), FRAC64(64), FRAC64(128), FRAC64(192)};

static const rd_node *find_node(const slog_reader *r, uint32_t level, uint64_t index) {
    if (level >= SLOG_MAX_LEVELS) return NULL;
    uint64_t lo = r->level_first[level], n = r->level_count[level];
    const rd_node *base = r->nodes + lo;
    uint64_t a = 0, b = n;
    while (a < b) {
        uint64_t m = a + (b - a) / 2;
        if (base[m].index < index)
            a = m + 1;
        else
            b = m;
    }
    return a < n && base[a].index == index ? &base[a] : NULL;
}

/* Read and verify a node's block; fixed header must agree with the entry. */
static slog_status load_block(slog_reader *r, const rd_node *d, bool preview, uint8_t **own, slog_cur *body,
                              slog_error *err) {
    const uint8_t *b;
    size_t len;
    uint32_t crc;
    uint64_t off = preview ? d->prev_off : d->node_off;
    slog_status st = rd_block(r, preview ? SLOG_TAG_PREVIEW : SLOG_TAG_NODE, off, preview ? d->prev_size : d->node_size,
                              own, &b, &len, &crc, err);
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
                            int64_t *prev_start, slog_drawable *d, int64_t *info) {
    uint8_t head = cur_u8(c);
    uint64_t cat = cur_uvar(c), tl = cur_uvar(c);
    if (!cur_ok(c) || (head & SLOG_REC_RESERVED) || (head & SLOG_REC_KIND_MASK) > SLOG_KIND_EVENT) return false;
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

static bool wanted(const slog_query *q, const slog_drawable *d) {
    int64_t a = d->start < d->end ? d->start : d->end, b = d->start < d->end ? d->end : d->start;
    if (a > q->t1 || b < q->t0) return false;
    if (!q->timelines) return true;
    return q->timelines[d->timeline] || (d->kind == SLOG_KIND_ARROW && q->timelines[d->end_timeline]);
}

static slog_status deliver_node(qctx *x, const rd_node *d, int64_t lo, int64_t hi) {
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
    for (uint32_t i = 0; i < d->n_drawables; i++) {
        slog_drawable dr;
        if (!decode_drawable(x->r, &c, lo, hi, narrow_ns, &prev, &dr, x->info)) {
            uint64_t at = body_start + (uint64_t)(c.p - base);
            free(own);
            return slog_set_error(x->err, SLOG_ERR_CORRUPT, x->r->path, at, "malformed drawable %u of node (%u, %llu)",
                                  i, d->level, (unsigned long long)d->index);
        }
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
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, x->r->path, body_start, "trailing bytes in node (%u, %llu)",
                              d->level, (unsigned long long)d->index);
    }
    free(own);
    return SLOG_OK;
}

/* Decode a preview block into x->rows / x->values (rows of unwanted
 * timelines skipped when mask is non-NULL). */
static slog_status decode_preview(qctx *x, const rd_node *d, const uint8_t *mask, slog_preview *p) {
    slog_reader *r = x->r;
    uint8_t *own;
    slog_cur c;
    slog_status st = load_block(r, d, true, &own, &c, x->err);
    if (st) return st;
    uint32_t bins = cur_u32(&c), n = cur_u32(&c);
    /* A row takes at least 5 bytes: bounds the allocations. */
    if (!cur_ok(&c) || bins != r->info.preview_bins || n > cur_left(&c) / 5) {
        free(own);
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, d->prev_off, "preview header out of range");
    }
    if ((uint64_t)n * bins > (64u << 20))
        return free(own), slog_set_error(x->err, SLOG_ERR_LIMIT, r->path, d->prev_off,
                                         "preview of %u rows x %u bins exceeds 64 Mi values", n, bins);
    if (n > x->cap_rows) {
        slog_preview_row *nr = realloc(x->rows, n * sizeof *nr);
        float *nv = realloc(x->values, (size_t)n * bins * sizeof *nv);
        if (nr) x->rows = nr;
        if (nv) x->values = nv;
        if (!nr || !nv) {
            free(own);
            return slog_set_error(x->err, SLOG_ERR_NOMEM, r->path, d->prev_off, "preview rows");
        }
        x->cap_rows = n;
    }
    uint32_t kept = 0;
    uint64_t last = 0;
    bool bad = false;
    for (uint32_t i = 0; i < n && !bad; i++) {
        uint64_t tl = cur_uvar(&c), cat = cur_uvar(&c), first = cur_uvar(&c), cnt = cur_uvar(&c);
        uint64_t key = (tl << 32) | cat;
        if (!cur_ok(&c) || tl >= r->info.n_timelines || cat >= r->info.n_categories || cnt == 0 || first >= bins ||
            cnt > bins - first || (i && key <= last)) {
            bad = true;
            break;
        }
        last = key;
        bool st_row = r->cat_is_state[cat];
        bool keep = !mask || mask[tl];
        float *v = x->values + (size_t)kept * bins;
        if (keep) {
            memset(v, 0, first * sizeof *v);
            memset(v + first + cnt, 0, (bins - first - cnt) * sizeof *v);
        }
        if (st_row) {
            /* one bounds check for the row's bytes */
            const uint8_t *b = cur_bytes(&c, cnt);
            if (!b) break;
            for (uint64_t j = 0; keep && j < cnt; j++) v[first + j] = u8_frac[b[j]];
        } else {
            for (uint64_t j = first; j < first + cnt; j++) {
                float val = (float)cur_uvar(&c);
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
    if (bad || !cur_ok(&c) || cur_left(&c)) {
        free(own);
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, d->prev_off, "malformed preview of node (%u, %llu)",
                              d->level, (unsigned long long)d->index);
    }
    free(own);
    p->level = d->level;
    p->n_bins = bins;
    p->n_rows = kept;
    p->rows = x->rows;
    return SLOG_OK;
}

static slog_status visit(qctx *x, uint32_t level, uint64_t index) {
    const rd_node *d = find_node(x->r, level, index);
    if (!d) return SLOG_OK;
    uint32_t s = (uint32_t)x->r->info.leaf_shift + level;
    int64_t lo = (int64_t)(index << s), hi = lo + (int64_t)(1ull << s);
    if (hi - 1 < x->q->t0 || lo > x->q->t1) return SLOG_OK;
    slog_status st;
    /* Bins no wider than a pixel: (hi-lo)/bins <= pixel_ns as real numbers,
     * compared without division; a pixel_ns so large that pixel_ns * bins
     * overflows is wider than any node (widths are below 2^62). */
    int64_t bins = (int64_t)x->r->info.preview_bins;
    bool fine = x->q->pixel_ns > INT64_MAX / bins || hi - lo <= x->q->pixel_ns * bins;
    bool use_preview = x->q->pixel_ns > 0 && !(x->q->flags & SLOG_QUERY_NO_PREVIEW) &&
                       (d->flags & SLOG_DIRENT_HAS_PREVIEW) && fine;
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

slog_status slog_reader_query(slog_reader *r, const slog_query *q, slog_drawable_cb on_drawable,
                              slog_preview_cb on_preview, void *user, slog_query_stats *stats, slog_error *err) {
    slog_clear_error(err);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!r || !q) return slog_set_error(err, SLOG_ERR_ARG, r ? r->path : NULL, SLOG_NO_OFFSET, "NULL argument");
    if (q->t1 < q->t0 || q->pixel_ns < 0)
        return slog_set_error(err, SLOG_ERR_ARG, r->path, SLOG_NO_OFFSET, "empty window or negative pixel_ns");
    qctx x = {.r = r, .q = q, .on_drawable = on_drawable, .on_preview = on_preview, .user = user, .err = err};
    slog_status st = SLOG_OK;
    if (r->info.n_nodes) st = visit(&x, r->info.depth - 1, 0);
    free(x.rows);
    free(x.values);
    if (stats) *stats = x.stats;
    return st;
}

/* ------------------------------------------------------------------ check */

slog_status slog_reader_check(slog_reader *r, slog_query_stats *stats, slog_error *err) {
    slog_clear_error(err);
    if (stats) memset(stats, 0, sizeof *stats);
    slog_query all = {.t0 = INT64_MIN, .t1 = INT64_MAX};
    qctx x = {.r = r, .q = &all, .err = err};
    uint64_t kinds[3] = {0};
    uint64_t *per_cat = calloc(r->info.n_categories + 1u, sizeof *per_cat);
    int64_t *cat_ns = calloc(r->info.n_categories + 1u, sizeof *cat_ns);
    slog_status st = SLOG_OK;
    int64_t t_min = INT64_MAX, t_max = INT64_MIN;
    uint64_t total = 0;
    if (!per_cat || !cat_ns) st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "check");
    for (uint64_t i = 0; !st && i < r->info.n_nodes; i++) {
        const rd_node *d = &r->nodes[i];
        uint32_t s = (uint32_t)r->info.leaf_shift + d->level;
        int64_t lo = (int64_t)(d->index << s), hi = lo + (int64_t)(1ull << s);
        uint8_t *own;
        slog_cur c;
        if ((st = load_block(r, d, false, &own, &c, err))) break;
        x.stats.nodes_read++;
        x.stats.bytes_read += d->node_size;
        int64_t prev = lo;
        for (uint32_t k = 0; k < d->n_drawables && !st; k++) {
            slog_drawable dr;
            if (!decode_drawable(r, &c, lo, hi, 0, &prev, &dr, x.info)) {
                st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "malformed drawable %u of node (%u, %llu)",
                                    k, d->level, (unsigned long long)d->index);
                break;
            }
            int64_t a = dr.start < dr.end ? dr.start : dr.end, b = dr.start < dr.end ? dr.end : dr.start;
            if (slog_place_level((uint64_t)a, (uint64_t)b, r->info.leaf_shift) != d->level)
                st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off,
                                    "drawable %u of node (%u, %llu) is not in the smallest node containing it", k,
                                    d->level, (unsigned long long)d->index);
            kinds[dr.kind]++;
            per_cat[dr.category]++;
            if (dr.kind == SLOG_KIND_STATE) cat_ns[dr.category] = slog_add_duration(cat_ns[dr.category], dr.end - dr.start);
            if (a < t_min) t_min = a;
            if (b > t_max) t_max = b;
            x.stats.drawables++;
        }
        if (!st && cur_left(&c))
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "trailing bytes in node (%u, %llu)", d->level,
                                (unsigned long long)d->index);
        free(own);
        if (st) break;
        total += d->n_drawables;
        /* Subtree count = own + children's. */
        uint64_t sub = d->n_drawables;
        if (d->level > 0) {
            const rd_node *c0 = find_node(r, d->level - 1, d->index * 2), *c1 = find_node(r, d->level - 1, d->index * 2 + 1);
            sub += (c0 ? c0->n_subtree : 0) + (c1 ? c1->n_subtree : 0);
        }
        if (sub != d->n_subtree || sub == 0) {
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "node (%u, %llu) subtree count %llu, directory says %llu",
                                d->level, (unsigned long long)d->index, (unsigned long long)sub,
                                (unsigned long long)d->n_subtree);
            break;
        }
        if (d->level + 1u < r->info.depth && !find_node(r, d->level + 1, d->index / 2)) {
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->node_off, "node (%u, %llu) has no parent", d->level,
                                (unsigned long long)d->index);
            break;
        }
        if (d->flags & SLOG_DIRENT_HAS_PREVIEW) {
            slog_preview p;
            if ((st = decode_preview(&x, d, NULL, &p))) break;
            x.stats.nodes_read++;
            x.stats.bytes_read += d->prev_size;
            x.stats.previews++;
        }
    }
    if (!st && (total != r->info.n_drawables || kinds[0] != r->info.n_states || kinds[1] != r->info.n_arrows ||
                kinds[2] != r->info.n_events))
        st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, HDR_N_DRAWABLES, "drawable counts differ from the header");
    if (!st && total && (t_min != r->info.t_min || t_max != r->info.t_max))
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
