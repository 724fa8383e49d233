/* SPDX-License-Identifier: MIT */
/* msgs.c - the overview's message counts (msgs.h): the writer's
 * accumulators and the block's encoding, its decoding, and the query of
 * messages between groups per slice of a window
 * (slog_reader_group_messages). */
#include "msgs.h"

#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

/* ------------------------------------------------------------------ map */

static uint64_t mix2(uint64_t a, uint64_t b)
{
    uint64_t k = a * 0x9e3779b97f4a7c15ull ^ b;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static bool map_grow(msgs_map *m)
{
    size_t nc = m->cap ? m->cap * 2 : 64;
    uint64_t *k = calloc(nc * 2, sizeof *k), *c = malloc(nc * sizeof *c);
    if (!k || !c) {
        free(k);
        free(c);
        m->failed = true;
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[2 * i + 1]) continue;
        size_t j = mix2(m->keys[2 * i], m->keys[2 * i + 1]) & (nc - 1);
        while (k[2 * j + 1]) j = (j + 1) & (nc - 1);
        k[2 * j] = m->keys[2 * i];
        k[2 * j + 1] = m->keys[2 * i + 1];
        c[j] = m->counts[i];
    }
    free(m->keys);
    free(m->counts);
    m->keys = k;
    m->counts = c;
    m->cap = nc;
    return true;
}

bool msgs_map_add(msgs_map *m, uint64_t a, uint64_t b, uint64_t count)
{
    if (m->failed) return false;
    if (2 * (m->n + 1) > m->cap && !map_grow(m)) return false;
    size_t j = mix2(a, b + 1) & (m->cap - 1);
    while (m->keys[2 * j + 1]) {
        if (m->keys[2 * j] == a && m->keys[2 * j + 1] == b + 1) {
            m->counts[j] += count;
            return true;
        }
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[2 * j] = a;
    m->keys[2 * j + 1] = b + 1;
    m->counts[j] = count;
    m->n++;
    return true;
}

uint64_t msgs_map_get(const msgs_map *m, uint64_t a, uint64_t b)
{
    if (!m->cap) return 0;
    size_t j = mix2(a, b + 1) & (m->cap - 1);
    while (m->keys[2 * j + 1]) {
        if (m->keys[2 * j] == a && m->keys[2 * j + 1] == b + 1) return m->counts[j];
        j = (j + 1) & (m->cap - 1);
    }
    return 0;
}

void msgs_map_reset(msgs_map *m)
{
    if (m->n) memset(m->keys, 0, m->cap * 2 * sizeof *m->keys);
    m->n = 0;
    m->failed = false;
}

void msgs_map_free(msgs_map *m)
{
    free(m->keys);
    free(m->counts);
    memset(m, 0, sizeof *m);
}

/* ----------------------------------------------------------- accumulator */

void msgs_add_own(msgs_acc *a, int64_t start, uint32_t sender, uint32_t receiver)
{
    msgs_own *v = slog_grow(a->own, &a->cap_own, a->n_own, sizeof *v, 16);
    if (!v) {
        a->failed = true;
        return;
    }
    a->own = v;
    a->own[a->n_own++] = (msgs_own){start, sender, receiver};
}

void msgs_merge(msgs_acc *parent, const msgs_acc *child)
{
    const msgs_map *m = &child->pairs;
    for (size_t i = 0; i < m->cap && m->n; i++)
        if (m->keys[2 * i + 1] && !msgs_map_add(&parent->pairs, m->keys[2 * i], m->keys[2 * i + 1] - 1, m->counts[i]))
            parent->failed = true;
    if (child->failed) parent->failed = true;
}

void msgs_reset(msgs_acc *a)
{
    msgs_map_reset(&a->pairs);
    a->n_own = 0;
    a->failed = false;
}

void msgs_free(msgs_acc *a)
{
    msgs_map_free(&a->pairs);
    free(a->own);
    memset(a, 0, sizeof *a);
}

size_t msgs_pairs_estimate(const msgs_acc *a)
{
    /* a sender's delta (mostly 0), the receiver from it and the count:
     * about a byte, a byte or two and one to three bytes */
    return a->pairs.n * 4;
}

static int cmp_pair(const void *x, const void *y)
{
    const msgs_pair *a = x, *b = y;
    if (a->sender != b->sender) return a->sender < b->sender ? -1 : 1;
    return a->receiver < b->receiver ? -1 : a->receiver > b->receiver;
}

static int cmp_own(const void *x, const void *y)
{
    const msgs_own *a = x, *b = y;
    if (a->start != b->start) return a->start < b->start ? -1 : 1;
    if (a->sender != b->sender) return a->sender < b->sender ? -1 : 1;
    return a->receiver < b->receiver ? -1 : a->receiver > b->receiver;
}

void msgs_encode(msgs_acc *a, bool with_pairs, uint32_t level, uint64_t index, int64_t lo, slog_buf *out)
{
    const msgs_map *m = &a->pairs;
    size_t n = with_pairs ? m->n : 0;
    if (n > UINT32_MAX) {
        out->failed = true;
        return;
    }
    msgs_pair *v = n ? malloc(n * sizeof *v) : NULL;
    if (n && !v) {
        out->failed = true;
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < m->cap && k < n; i++)
        if (m->keys[2 * i + 1])
            v[k++] = (msgs_pair){(uint32_t)m->keys[2 * i], (uint32_t)(m->keys[2 * i + 1] - 1), m->counts[i]};
    if (n > 1) qsort(v, n, sizeof *v, cmp_pair);
    if (a->n_own > 1) qsort(a->own, a->n_own, sizeof *a->own, cmp_own);
    uint8_t fixed[16] = {0};
    fixed[0] = (uint8_t)level;
    fixed[1] = with_pairs ? MSGS_HAS_PAIRS : 0;
    put_u32le(fixed + 4, (uint32_t)n);
    put_u64le(fixed + 8, index);
    buf_put(out, fixed, sizeof fixed);
    buf_put_uvar(out, a->n_own);
    uint32_t prev = 0;
    for (size_t i = 0; i < n; i++) {
        buf_put_uvar(out, v[i].sender - prev);
        buf_put_zvar(out, (int64_t)v[i].receiver - (int64_t)v[i].sender);
        buf_put_uvar(out, v[i].count - 1);
        prev = v[i].sender;
    }
    int64_t at = lo;
    for (uint32_t i = 0; i < a->n_own; i++) {
        buf_put_uvar(out, (uint64_t)(a->own[i].start - at));
        buf_put_uvar(out, a->own[i].sender);
        buf_put_zvar(out, (int64_t)a->own[i].receiver - (int64_t)a->own[i].sender);
        at = a->own[i].start;
    }
    free(v);
}

/* --------------------------------------------------------------- decode */

/* The receiver's group: sender (a group) + dr, where that is a group. dr
 * is compared before it is added: a corrupt one may lie near the ends of
 * int64. */
static bool receiver_of(uint64_t sender, int64_t dr, uint64_t n_groups, uint32_t *out)
{
    if (dr < -(int64_t)sender || (dr >= 0 && (uint64_t)dr >= n_groups - sender)) return false;
    *out = (uint32_t)((int64_t)sender + dr);
    return true;
}

int msgs_decode(msgs_block *b, const uint8_t *body, size_t len, uint32_t level, uint64_t index, int64_t lo, int64_t hi,
                uint64_t n_groups, uint64_t max_msgs, uint64_t max_own)
{
    b->n_pairs = b->n_own = 0;
    if (len < 17 || body[0] != level || (body[1] & ~MSGS_HAS_PAIRS) || get_u16le(body + 2) ||
        get_u64le(body + 8) != index)
        return 0;
    b->flags = body[1];
    uint32_t np = get_u32le(body + 4);
    bool pairs = b->flags & MSGS_HAS_PAIRS;
    slog_cur c = cur_make(body + 16, len - 16);
    uint64_t no = cur_uvar(&c);
    /* a pair or an own message takes at least 3 bytes */
    if (!cur_ok(&c) || (pairs ? np == 0 : np != 0) || no > max_own || np > cur_left(&c) / 3 || no > cur_left(&c) / 3)
        return 0;
    if (np > b->cap_pairs) {
        msgs_pair *v = realloc(b->pairs, (size_t)np * sizeof *v);
        if (!v) return -1;
        b->pairs = v;
        b->cap_pairs = np;
    }
    if (no > b->cap_own) {
        msgs_own *v = realloc(b->own, (size_t)no * sizeof *v);
        if (!v) return -1;
        b->own = v;
        b->cap_own = (uint32_t)no;
    }
    uint64_t sender = 0, total = 0;
    for (uint32_t i = 0; i < np; i++) {
        uint64_t ds = cur_uvar(&c);
        int64_t dr = cur_zvar(&c);
        uint64_t count = cur_uvar(&c);
        uint32_t recv;
        if (!cur_ok(&c) || ds >= n_groups - sender || !receiver_of(sender + ds, dr, n_groups, &recv) ||
            count >= max_msgs - total || (i && !ds && recv <= b->pairs[i - 1].receiver))
            return 0;
        sender += ds;
        total += count + 1;
        b->pairs[i] = (msgs_pair){(uint32_t)sender, recv, count + 1};
    }
    b->n_pairs = np;
    int64_t at = lo;
    for (uint64_t i = 0; i < no; i++) {
        uint64_t d = cur_uvar(&c), s = cur_uvar(&c);
        int64_t dr = cur_zvar(&c);
        uint32_t recv;
        if (!cur_ok(&c) || d >= (uint64_t)(hi - at) || s >= n_groups || !receiver_of(s, dr, n_groups, &recv)) return 0;
        at += (int64_t)d;
        b->own[i] = (msgs_own){at, (uint32_t)s, recv};
    }
    b->n_own = (uint32_t)no;
    return cur_left(&c) == 0 ? 1 : 0;
}

void msgs_block_free(msgs_block *b)
{
    free(b->pairs);
    free(b->own);
    memset(b, 0, sizeof *b);
}

/* ---------------------------------------------------------------- query */

/* Slices a query gives at most (min_slices is capped at half of it). */
#define MAX_SLICES (1u << 20)

typedef struct gctx {
    slog_reader *r;
    uint32_t level;  /* the slices' */
    uint64_t k0, k1; /* the slices' nodes on that level */
    uint64_t n_groups;
    msgs_map cells; /* (slice, sender << 32 | receiver) */
    msgs_block blk;
    slog_query_stats stats;
    bool unavailable; /* the slices cannot be told on this level */
    bool from_blocks; /* told from the blocks' arrows */
    uint32_t retry;   /* then the lowest level that may tell them */
    slog_error *err;
} gctx;

/* The overview cannot tell the slices: node d (on the slices' level or
 * below it) cannot be summed, or d (above it) cannot be split; slices no
 * lower than `from` may do. */
static void g_cannot(gctx *x, uint32_t from)
{
    x->unavailable = true;
    if (from > x->retry) x->retry = from;
}

/* The overview's groups of timelines (rows). */
static uint64_t n_groups_of(const slog_reader *r)
{
    return ((uint64_t)r->info.n_timelines + r->info.group_timelines - 1) / r->info.group_timelines;
}

static int64_t g_bound(const slog_reader *r, uint32_t level, uint64_t k)
{
    uint32_t s = (uint32_t)r->info.leaf_shift + level;
    if (s >= 63) return k ? INT64_MAX : 0;
    return k > (uint64_t)(INT64_MAX >> s) ? INT64_MAX : (int64_t)(k << s);
}

/* Node d's message block into x->blk (none: n_pairs = n_own = 0). */
static slog_status g_load(gctx *x, const rd_node *d)
{
    x->blk.n_pairs = x->blk.n_own = 0;
    x->blk.flags = 0;
    if (!d->summ_off) return SLOG_OK;
    uint8_t *own;
    const uint8_t *body;
    size_t len;
    slog_status st = rd_block(x->r, SLOG_TAG_MESSAGES, d->summ_off, d->summ_size, &own, &body, &len, NULL, x->err);
    if (st) return st;
    x->stats.nodes_read++;
    x->stats.bytes_read += d->summ_size;
    int ok = msgs_decode(&x->blk, body, len, d->level, d->index, g_bound(x->r, d->level, d->index),
                         g_bound(x->r, d->level, d->index + 1), x->n_groups, d->n_subtree, d->n_drawables);
    free(own);
    if (ok < 0) return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "message block");
    if (!ok)
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, x->r->path, d->summ_off,
                              "malformed message block of overview node (%u, %llu)", d->level,
                              (unsigned long long)d->index);
    return SLOG_OK;
}

static bool g_add(gctx *x, uint64_t slice, uint32_t sender, uint32_t receiver, uint64_t count)
{
    return msgs_map_add(&x->cells, slice, (uint64_t)sender << 32 | receiver, count);
}

/* A node of own mode 1: its preview stands for its whole subtree, which
 * the overview does not split. */
static bool all_own(const rd_node *d)
{
    return !d->node_off && d->n_drawables;
}

/* Child `side` of d: its entry, or NULL; *gone when it holds drawables
 * that the overview left out. */
static const rd_node *g_child(gctx *x, const rd_node *d, unsigned side, bool *gone)
{
    const rd_node *c = rd_find_node(x->r, SLOG_TREE_OVERVIEW, d->level - 1u, d->index * 2 + side);
    *gone = !c && (d->flags & (side ? SLOG_DIRENT_OV_LEFT1 : SLOG_DIRENT_OV_LEFT0));
    return c;
}

/* All of d's subtree's messages into slice. */
static slog_status g_subtree(gctx *x, const rd_node *d, uint64_t slice)
{
    if (!d->summ_off) return SLOG_OK; /* no message in its subtree */
    slog_status st = g_load(x, d);
    if (st) return st;
    if (x->blk.flags & MSGS_HAS_PAIRS) {
        for (uint32_t i = 0; i < x->blk.n_pairs; i++)
            if (!g_add(x, slice, x->blk.pairs[i].sender, x->blk.pairs[i].receiver, x->blk.pairs[i].count))
                return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "group messages");
        return SLOG_OK;
    }
    if (all_own(d)) {
        g_cannot(x, x->level + 1);
        return SLOG_OK;
    }
    for (uint32_t i = 0; i < x->blk.n_own; i++)
        if (!g_add(x, slice, x->blk.own[i].sender, x->blk.own[i].receiver, 1))
            return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "group messages");
    for (unsigned side = 0; d->level > 0 && side < 2 && !x->unavailable; side++) {
        bool gone;
        const rd_node *c = g_child(x, d, side, &gone);
        if (gone) g_cannot(x, x->level + 1);
        if (c && (st = g_subtree(x, c, slice))) return st;
    }
    return SLOG_OK;
}

/* Node d, above the slices' level or on it, of the slices' range. */
static slog_status g_visit(gctx *x, const rd_node *d)
{
    if (d->level == x->level) return g_subtree(x, d, d->index - x->k0);
    if (!d->summ_off) return SLOG_OK; /* no message in its subtree */
    if (all_own(d)) {
        g_cannot(x, d->level);
        return SLOG_OK;
    }
    slog_status st = g_load(x, d);
    if (st) return st;
    /* its own messages go to the slice of their send time */
    uint32_t s = (uint32_t)x->r->info.leaf_shift + x->level;
    for (uint32_t i = 0; i < x->blk.n_own; i++) {
        uint64_t k = (uint64_t)x->blk.own[i].start >> s;
        if (k < x->k0 || k > x->k1) continue;
        if (!g_add(x, k - x->k0, x->blk.own[i].sender, x->blk.own[i].receiver, 1))
            return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "group messages");
    }
    uint32_t down = d->level - x->level - 1; /* a child's descendants on the slices' level: 2^down */
    for (unsigned side = 0; side < 2 && !x->unavailable; side++) {
        uint64_t ci = d->index * 2 + side;
        uint64_t first = down >= 63 ? 0 : ci << down, last = down >= 63 ? UINT64_MAX : first + ((1ull << down) - 1);
        if (last < x->k0 || first > x->k1) continue;
        bool gone;
        const rd_node *c = g_child(x, d, side, &gone);
        if (gone) g_cannot(x, d->level);
        if (c && (st = g_visit(x, c))) return st;
    }
    return SLOG_OK;
}

/* The messages of n even slices of [lo, hi] (edges: n + 1 starts, the
 * last one past hi) counted from the blocks' arrows: a query of the
 * window that decodes no values, each arrow in the slice of its send time,
 * as the overview counts them. */
typedef struct g_arrows {
    gctx *x;
    uint32_t group_timelines;
    const int64_t *edges;
    uint64_t n;
} g_arrows;

static slog_cb_result on_arrow(void *user, const slog_drawable *d)
{
    g_arrows *a = user;
    if (d->kind != SLOG_KIND_ARROW || d->start < a->edges[0] || d->start >= a->edges[a->n]) return SLOG_CONTINUE;
    uint64_t k = 0, hi = a->n; /* edges[k] <= start < edges[hi] */
    while (hi - k > 1) {
        uint64_t mid = k + (hi - k) / 2;
        if (a->edges[mid] <= d->start)
            k = mid;
        else
            hi = mid;
    }
    return g_add(a->x, k, d->timeline / a->group_timelines, d->end_timeline / a->group_timelines, 1) ? SLOG_CONTINUE
                                                                                                     : SLOG_STOP;
}

static slog_status g_from_arrows(gctx *x, const int64_t *edges, uint64_t n)
{
    g_arrows a = {.x = x, .group_timelines = x->r->info.group_timelines, .edges = edges, .n = n};
    /* every drawable narrower than pixel_ns: none has its values decoded */
    slog_query q = {.t0 = edges[0],
                    .t1 = edges[n] - 1,
                    .pixel_ns = INT64_MAX,
                    .flags = SLOG_QUERY_NO_PREVIEW | SLOG_QUERY_NARROW_NO_INFO};
    uint8_t *blocks = rd_blocks_of(x->r, NULL);
    if (!blocks) return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "group messages");
    slog_status st = rd_query_subtree(x->r, &q, blocks, UINT32_MAX, 0, on_arrow, NULL, &a, &x->stats, x->err);
    free(blocks);
    return st;
}

static int cmp_cell(const void *a, const void *b)
{
    const slog_group_cell *x = a, *y = b;
    if (x->slice != y->slice) return x->slice < y->slice ? -1 : 1;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

void slog_group_messages_free(slog_group_messages *m)
{
    if (!m) return;
    free(m->edges);
    free(m->cells);
    free(m);
}

slog_status slog_reader_group_messages(slog_reader *r, int64_t t0, int64_t t1, uint32_t min_slices,
                                       slog_group_messages **out, slog_query_stats *stats, slog_error *err)
{
    slog_clear_error(err);
    if (stats) memset(stats, 0, sizeof *stats);
    if (!out) return slog_set_error(err, SLOG_ERR_ARG, r ? r->path : NULL, SLOG_NO_OFFSET, "NULL argument");
    *out = NULL;
    if (!r || t1 < t0 || !min_slices)
        return slog_set_error(err, SLOG_ERR_ARG, r ? r->path : NULL, SLOG_NO_OFFSET, "bad group messages query");
    const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
    const slog_file_info *fi = &r->info;
    /* Only 5.x overviews count messages; none may fall outside the span. */
    if (fi->version_major < 5 || fi->group_timelines <= 1 || !t->count || !fi->n_arrows) return SLOG_OK;
    if (t0 < fi->t_min) t0 = fi->t_min;
    if (t1 > fi->t_max) t1 = fi->t_max;
    if (t1 < t0) return SLOG_OK;
    /* The slices' level: the highest that has at least min_slices nodes
     * in the window (or level 0). */
    if (min_slices > MAX_SLICES / 2) min_slices = MAX_SLICES / 2; /* at most MAX_SLICES + 1 of them */
    uint32_t want = t->top;
    for (;;) {
        uint32_t s = (uint32_t)fi->leaf_shift + want;
        if (want == 0 || ((uint64_t)t1 >> s) - ((uint64_t)t0 >> s) + 1 >= min_slices) break;
        want--;
    }
    gctx x = {.r = r, .err = err};
    x.n_groups = n_groups_of(r);
    slog_status st = SLOG_OK;
    uint64_t n_slices = 0;
    int64_t *edges = NULL;
    /* From the overview on the slices' level or, half as many, the next
     * one up; where it cannot tell those (a window narrower than the nodes
     * of a busy stretch), from the blocks' arrows in min_slices even
     * slices of the window, at the cost of a query of it. */
    for (uint32_t level = want;; level = x.retry > level + 1 ? x.retry : level + 1) {
        msgs_map_reset(&x.cells);
        x.unavailable = false;
        if (level > t->top || level > want + 1) {
            uint64_t span = (uint64_t)(t1 - t0) + 1;
            n_slices = span < min_slices ? span : min_slices;
            edges = malloc((n_slices + 1) * sizeof *edges);
            if (!edges) goto nomem;
            for (uint64_t i = 0; i <= n_slices; i++) /* no overflow: span and n_slices below 2^63 and 2^20 */
                edges[i] = t0 + (int64_t)(span / n_slices * i + span % n_slices * i / n_slices);
            x.from_blocks = true;
            st = g_from_arrows(&x, edges, n_slices);
        } else {
            uint32_t s = (uint32_t)fi->leaf_shift + level;
            x.level = level;
            x.k0 = (uint64_t)t0 >> s;
            x.k1 = (uint64_t)t1 >> s;
            n_slices = x.k1 - x.k0 + 1;
            st = g_visit(&x, &r->nodes[t->first]); /* from the root */
        }
        if (x.cells.failed) goto nomem;
        if (st) goto done;
        if (x.from_blocks || !x.unavailable) break;
    }
    slog_group_messages *m = calloc(1, sizeof *m);
    if (m) {
        m->group_timelines = fi->group_timelines;
        m->n_slices = (uint32_t)n_slices;
        m->from_blocks = x.from_blocks;
        m->edges = edges ? edges : malloc((n_slices + 1) * sizeof *m->edges);
        edges = NULL;
        m->cells = malloc((x.cells.n ? x.cells.n : 1) * sizeof *m->cells);
    }
    if (!m || !m->edges || !m->cells) {
        slog_group_messages_free(m);
        goto nomem;
    }
    if (!m->from_blocks)
        for (uint64_t i = 0; i <= n_slices; i++) m->edges[i] = g_bound(r, x.level, x.k0 + i);
    for (size_t i = 0; i < x.cells.cap && x.cells.n; i++) {
        if (!x.cells.keys[2 * i + 1]) continue;
        uint64_t b = x.cells.keys[2 * i + 1] - 1;
        m->cells[m->n_cells++] =
            (slog_group_cell){(uint32_t)x.cells.keys[2 * i], (uint32_t)(b >> 32), (uint32_t)b, x.cells.counts[i]};
    }
    if (m->n_cells > 1) qsort(m->cells, m->n_cells, sizeof *m->cells, cmp_cell);
    *out = m;
    goto done;
nomem:
    st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "group messages");
done:
    free(edges);
    msgs_map_free(&x.cells);
    msgs_block_free(&x.blk);
    if (stats) *stats = x.stats;
    return st;
}

/* ---------------------------------------------------------------- check */

/* An overview node's message block as decoded, and what the blocks'
 * records say it should hold. */
typedef struct chk_node {
    msgs_block blk;
    bool has_block;
    uint64_t expected; /* messages in its subtree */
    msgs_own *own;     /* its own messages found in the blocks */
    uint32_t n_own, cap_own;
} chk_node;

struct msgs_check {
    slog_reader *r;
    const rd_tree *ov;
    chk_node *nodes;                 /* by entry, from the overview's first */
    msgs_map exp;                    /* (entry, sender << 32 | receiver) */
    uint32_t chain[SLOG_MAX_LEVELS]; /* the overview's nodes above a block's node */
    bool counted[SLOG_MAX_LEVELS];   /* whose pairs are kept */
    uint32_t n_chain;
    uint32_t own_at; /* entry taking a record's own messages, UINT32_MAX: none */
    uint32_t g_shift;
    uint32_t chain_level; /* the chain is (chain_level, chain_index)'s */
    uint64_t chain_index; /* (chain_level UINT32_MAX: no chain yet) */
};

slog_status msgs_check_new(slog_reader *r, msgs_check **out, slog_query_stats *stats, slog_error *err)
{
    *out = NULL;
    const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
    if (r->info.version_major < 5 || !t->count) return SLOG_OK;
    msgs_check *c = calloc(1, sizeof *c);
    if (c) c->nodes = calloc(t->count, sizeof *c->nodes);
    if (!c || !c->nodes) {
        free(c);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "message check");
    }
    c->r = r;
    c->ov = t;
    c->chain_level = UINT32_MAX;
    while ((1u << c->g_shift) < r->info.group_timelines) c->g_shift++;
    gctx x = {.r = r, .err = err};
    x.n_groups = n_groups_of(r);
    slog_status st = SLOG_OK;
    for (uint64_t i = 0; i < t->count && !st; i++) {
        const rd_node *d = &r->nodes[t->first + i];
        if (!d->summ_off) continue;
        if ((st = g_load(&x, d))) break;
        chk_node *n = &c->nodes[i];
        n->has_block = true;
        n->blk = x.blk;
        memset(&x.blk, 0, sizeof x.blk);
        if (all_own(d) && n->blk.n_own)
            st = slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->summ_off,
                                "message block of overview node (%u, %llu) lists own messages of a node that has none",
                                d->level, (unsigned long long)d->index);
    }
    msgs_block_free(&x.blk);
    if (stats) {
        stats->nodes_read += x.stats.nodes_read;
        stats->bytes_read += x.stats.bytes_read;
    }
    if (st) {
        msgs_check_free(c);
        return st;
    }
    *out = c;
    return SLOG_OK;
}

/* The overview's nodes at and above (level, index), unless they are the
 * last arrow's. */
static void check_chain(msgs_check *c, uint32_t level, uint64_t index)
{
    if (c->chain_level == level && c->chain_index == index) return;
    c->chain_level = level;
    c->chain_index = index;
    c->n_chain = 0;
    c->own_at = UINT32_MAX;
    const rd_node *top = &c->r->nodes[c->ov->first];
    for (uint32_t l = level; l <= top->level; l++) {
        const rd_node *o = rd_find_node(c->r, SLOG_TREE_OVERVIEW, l, index >> (l - level));
        if (!o) continue;
        uint32_t at = (uint32_t)(o - c->r->nodes - c->ov->first);
        if (l == level && o->node_off) c->own_at = at;
        c->counted[c->n_chain] = c->nodes[at].has_block && (c->nodes[at].blk.flags & MSGS_HAS_PAIRS);
        c->chain[c->n_chain++] = at;
    }
}

bool msgs_check_arrow(msgs_check *c, uint32_t level, uint64_t index, const slog_drawable *dr)
{
    check_chain(c, level, index);
    uint32_t s = dr->timeline >> c->g_shift, rc = dr->end_timeline >> c->g_shift;
    for (uint32_t i = 0; i < c->n_chain; i++) {
        if (c->counted[i] && !msgs_map_add(&c->exp, c->chain[i], (uint64_t)s << 32 | rc, 1)) return false;
        c->nodes[c->chain[i]].expected++;
    }
    if (c->own_at != UINT32_MAX) {
        chk_node *n = &c->nodes[c->own_at];
        msgs_own *v = slog_grow(n->own, &n->cap_own, n->n_own, sizeof *v, 16);
        if (!v) return false;
        n->own = v;
        n->own[n->n_own++] = (msgs_own){dr->start, s, rc};
    }
    return true;
}

slog_status msgs_check_finish(msgs_check *c, slog_error *err)
{
    slog_reader *r = c->r;
    for (uint64_t i = 0; i < c->ov->count; i++) {
        const rd_node *d = &r->nodes[c->ov->first + i];
        chk_node *n = &c->nodes[i];
        const char *why = NULL;
        if (n->has_block != (n->expected > 0))
            why = n->has_block ? "a block for a subtree without messages" : "no block for a subtree with messages";
        else if (n->has_block && (n->blk.flags & MSGS_HAS_PAIRS)) {
            uint64_t sum = 0;
            for (uint32_t k = 0; k < n->blk.n_pairs && !why; k++) {
                const msgs_pair *p = &n->blk.pairs[k];
                sum += p->count;
                if (msgs_map_get(&c->exp, i, (uint64_t)p->sender << 32 | p->receiver) != p->count)
                    why = "a pair's count differs from the messages in the blocks";
            }
            if (!why && sum != n->expected) why = "its pairs' counts differ from the messages in the blocks";
        }
        if (!why) {
            uint32_t listed = n->has_block ? n->blk.n_own : 0;
            if (listed != n->n_own)
                why = "its own messages differ from the blocks'";
            else if (listed) {
                qsort(n->own, n->n_own, sizeof *n->own, cmp_own);
                qsort(n->blk.own, listed, sizeof *n->blk.own, cmp_own);
                if (memcmp(n->own, n->blk.own, listed * sizeof *n->own))
                    why = "its own messages differ from the blocks'";
            }
        }
        if (why)
            return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, d->summ_off ? d->summ_off : d->prev_off,
                                  "message block of overview node (%u, %llu): %s", d->level,
                                  (unsigned long long)d->index, why);
    }
    return SLOG_OK;
}

void msgs_check_free(msgs_check *c)
{
    if (!c) return;
    for (uint64_t i = 0; c->nodes && i < c->ov->count; i++) {
        msgs_block_free(&c->nodes[i].blk);
        free(c->nodes[i].own);
    }
    free(c->nodes);
    msgs_map_free(&c->exp);
    free(c);
}
