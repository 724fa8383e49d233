/* SPDX-License-Identifier: MIT */
/* grid.c - a window of timelines folded into rows, of time into columns.
 *
 * With more timelines than screen rows, a picture shows each row as what
 * its timelines do together. Where rows of whole overview groups are at
 * least half the rows asked for, the grid is read from the overview tree, whose previews sum groups of
 * timelines: the bytes read then follow rows x columns, not the number of
 * timelines. Elsewhere (a few timelines per row, or a window narrower than
 * the overview's finest bins) the blocks' trees of the wanted timelines are
 * read as a window query reads them, and folded.
 *
 * Overview reading: a node whose bins are no wider than a column gives its
 * subtree's preview, and so does a node of the tree's lowest level (the
 * base: nothing lies below it). Any other node gives the drawables that
 * cross its middle, which it holds as records ("own" records, exact at any
 * resolution), and its children are visited. In 3.x files those records
 * have a block of their own, so passing through a node does not read its
 * preview's rows.
 */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

/* The whole columns [a, b) that a state covers in pool slot `slot` (1 +
 * index), each worth one: counted over all spans of the slot instead of
 * added column by column (finish). `next`: the slot's next span + 1. */
typedef struct grid_span {
    uint32_t slot, a, b, next;
} grid_span;

struct slog_grid {
    uint32_t n_rows, n_cols, n_cats, unit, per_row;
    uint32_t tl_first, tl_end; /* timelines [tl_first, tl_end) */
    int64_t t0;
    double col_ns;
    bool *is_state;
    uint32_t *slot; /* n_rows x n_cats: 1 + index into pool, 0: none */
    float *pool;
    uint32_t n_pool, cap_pool;
    grid_span *spans;
    size_t n_spans, cap_spans;
    bool failed;
};

/* The pool of the large grid freed last, kept for the next large grid
 * (whichever reader or thread makes it). A large pool is mapped afresh by
 * each malloc: every page written is a page fault, and the free unmaps
 * them all again; a zoomed frame's grid spent as long on that as on its
 * columns. A kept pool holds the pages its grids wrote, no more. */
static _Atomic(slog_grid *) spare;

/* Pools smaller than this come from the heap: not kept. */
#define SPARE_MIN_BYTES ((size_t)1 << 20)

void slog_grid_free(slog_grid *g)
{
    if (!g) return;
    free(g->is_state);
    free(g->slot);
    free(g->spans);
    if (g->pool && (size_t)g->cap_pool * g->n_cols * sizeof *g->pool >= SPARE_MIN_BYTES) {
        g->is_state = NULL;
        g->slot = NULL;
        g->spans = NULL;
        g = atomic_exchange(&spare, g);
        if (!g) return;
    }
    free(g->pool);
    free(g);
}

/* Room for n floats, *have of them: for a large grid the kept pool when it
 * has as many, else a new one (a small grid leaves the kept pool alone). */
static float *pool_alloc(size_t n, size_t *have)
{
    *have = n;
    if (n * sizeof(float) < SPARE_MIN_BYTES) return malloc(n * sizeof(float));
    slog_grid *s = atomic_exchange(&spare, NULL);
    float *p;
    if (s && (size_t)s->cap_pool * s->n_cols >= n) {
        p = s->pool;
        *have = (size_t)s->cap_pool * s->n_cols;
    } else {
        if (s) free(s->pool);
        p = malloc(n * sizeof *p);
    }
    free(s);
    return p;
}

uint32_t slog_grid_n_rows(const slog_grid *g)
{
    return g->n_rows;
}
uint32_t slog_grid_n_cols(const slog_grid *g)
{
    return g->n_cols;
}
uint32_t slog_grid_unit(const slog_grid *g)
{
    return g->unit;
}

void slog_grid_row_range(const slog_grid *g, uint32_t row, uint32_t *first, uint32_t *last)
{
    uint64_t a = g->tl_first + (uint64_t)row * g->per_row * g->unit;
    uint64_t b = a + (uint64_t)g->per_row * g->unit;
    if (b > g->tl_end) b = g->tl_end;
    *first = (uint32_t)a;
    *last = (uint32_t)b - 1;
}

const float *slog_grid_values(const slog_grid *g, uint32_t row, uint32_t category)
{
    if (row >= g->n_rows || category >= g->n_cats) return NULL;
    uint32_t k = g->slot[(size_t)row * g->n_cats + category];
    return k ? g->pool + (size_t)(k - 1) * g->n_cols : NULL;
}

/* The slot (1 + index into the pool) of (row of timeline or group `who`,
 * category), its columns made zero on first use; 0 outside the grid's
 * timelines or when out of memory. */
static uint32_t slot_for(slog_grid *g, uint32_t who, uint32_t category)
{
    uint64_t tl = (uint64_t)who * g->unit;
    if (tl < g->tl_first || tl >= g->tl_end || category >= g->n_cats) return 0;
    uint32_t row = (uint32_t)((tl - g->tl_first) / g->unit / g->per_row);
    uint32_t *k = &g->slot[(size_t)row * g->n_cats + category];
    if (!*k) {
        if (g->n_pool == g->cap_pool) {
            uint32_t cap = g->cap_pool ? g->cap_pool * 2 : 64;
            float *p = realloc(g->pool, (size_t)cap * g->n_cols * sizeof *p);
            if (!p) {
                g->failed = true;
                return 0;
            }
            g->pool = p;
            g->cap_pool = cap;
        }
        memset(g->pool + (size_t)g->n_pool * g->n_cols, 0, (size_t)g->n_cols * sizeof *g->pool);
        *k = ++g->n_pool;
    }
    return *k;
}

static float *cols_for(slog_grid *g, uint32_t who, uint32_t category)
{
    uint32_t k = slot_for(g, who, category);
    return k ? g->pool + (size_t)(k - 1) * g->n_cols : NULL;
}

/* Whole columns of one state below this many are added one by one: a
 * span costs about as much as that many adds when it is counted. */
#define SPAN_MIN_COLS 8

/* A state [a, b) into slot k's columns, as slog_spread with one per ns
 * adds it: the partly covered columns at either end at once, the whole
 * ones between as a span when they are many. A whole column is worth
 * (float)(1 / col_ns * col_ns), which is 1, so a column's count of spans
 * is exact; adding it at the end instead of one by one differs only in
 * the float rounding of sums that also hold fractions (a last bit). */
static void add_state(slog_grid *g, uint32_t k, double a, double b)
{
    if (!k || !(b > a)) return;
    float *v = g->pool + (size_t)(k - 1) * g->n_cols;
    double x0 = (a - (double)g->t0) / g->col_ns, x1 = (b - (double)g->t0) / g->col_ns; /* in columns */
    if (x1 <= 0 || x0 >= g->n_cols) return;
    if (x0 < 0) x0 = 0;
    if (x1 > g->n_cols) x1 = g->n_cols;
    double per_col = 1.0 / g->col_ns * g->col_ns;
    uint32_t i0 = (uint32_t)x0; /* x0 >= 0: the cast is floor */
    if (x1 <= (double)i0 + 1) {
        v[i0] += (float)(per_col * (x1 - x0));
        return;
    }
    uint32_t i1 = (uint32_t)ceil(x1);
    if (i1 > g->n_cols) i1 = g->n_cols;
    v[i0] += (float)(per_col * ((double)i0 + 1 - x0));
    uint32_t wa = i0 + 1, wb = i1 - 1; /* the whole columns [wa, wb) */
    if (wb >= wa + SPAN_MIN_COLS && (float)per_col == 1.0f) {
        if (g->n_spans == g->cap_spans) {
            size_t cap = g->cap_spans ? g->cap_spans * 2 : 1024;
            grid_span *p = realloc(g->spans, cap * sizeof *p);
            if (!p) {
                g->failed = true;
                return;
            }
            g->spans = p;
            g->cap_spans = cap;
        }
        g->spans[g->n_spans++] = (grid_span){k, wa, wb, 0};
    } else {
        for (uint32_t i = wa; i < wb; i++) v[i] += (float)per_col;
    }
    v[i1 - 1] += (float)(per_col * (x1 - (double)(i1 - 1)));
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

/* The grid's last pass, per slot: its spans' counts added (between two
 * consecutive ends of its spans the count is the same) and, for states,
 * sums over the row's timelines made means. Non-zero when out of memory. */
static int finish(slog_grid *g)
{
    uint32_t *head = NULL; /* per slot: its first span + 1 */
    uint32_t *ends = NULL; /* a slot's spans' ends: column << 1 | 1 (start) or 0 (end) */
    if (g->n_spans) {
        head = calloc((size_t)g->n_pool + 1, sizeof *head);
        ends = malloc(g->n_spans * 2 * sizeof *ends);
        if (!head || !ends) {
            free(head);
            free(ends);
            return -1;
        }
        for (size_t i = 0; i < g->n_spans; i++) {
            grid_span *sp = &g->spans[i];
            sp->next = head[sp->slot];
            head[sp->slot] = (uint32_t)i + 1;
        }
    }
    for (uint32_t row = 0; row < g->n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        float inv = 1.0f / (float)(b - a + 1);
        for (uint32_t k = 0; k < g->n_cats; k++) {
            uint32_t s = g->slot[(size_t)row * g->n_cats + k];
            if (!s) continue;
            size_t n = 0;
            for (uint32_t i = head ? head[s] : 0; i; i = g->spans[i - 1].next) {
                ends[n++] = g->spans[i - 1].a << 1 | 1;
                ends[n++] = g->spans[i - 1].b << 1;
            }
            if (!n && !g->is_state[k]) continue;
            if (n > 64) {
                qsort(ends, n, sizeof *ends, cmp_u32);
            } else { /* a few: insertion */
                for (size_t i = 1; i < n; i++) {
                    uint32_t e = ends[i];
                    size_t j = i;
                    for (; j && ends[j - 1] > e; j--) ends[j] = ends[j - 1];
                    ends[j] = e;
                }
            }
            float *v = g->pool + (size_t)(s - 1) * g->n_cols;
            int32_t c = 0;
            for (uint32_t j = 0, e = 0; j < g->n_cols;) {
                for (; e < n && ends[e] >> 1 <= j; e++) c += ends[e] & 1 ? 1 : -1;
                uint32_t next = e < n ? ends[e] >> 1 : g->n_cols;
                float add = (float)c;
                if (!g->is_state[k]) {
                    for (; j < next; j++) v[j] += add;
                    continue;
                }
                /* a timeline's nested states of one category may
                 * overlap: a mean is at most 1 */
                for (; j < next; j++) {
                    float m = (v[j] + add) * inv;
                    v[j] = m > 1 ? 1 : m;
                }
            }
        }
    }
    free(head);
    free(ends);
    return 0;
}

/* A preview's rows [first, first + n) into the grid; a row's "timeline"
 * is a grid unit times div (an overview's rows are groups: div 1). */
static void add_rows(slog_grid *g, const slog_preview *p, uint32_t first, uint32_t n, uint32_t div)
{
    for (uint32_t i = first; i < first + n; i++) {
        const slog_preview_row *r = &p->rows[i];
        float *v = cols_for(g, r->timeline / div, r->category);
        if (v)
            slog_spread_bins(v, g->n_cols, (double)g->t0, g->col_ns, p->lo, p->hi, p->n_bins, r->values,
                             g->is_state[r->category]);
    }
}

/* A block's preview: its rows are timelines, in units of the grid's. */
static slog_cb_result on_preview(void *user, const slog_preview *p)
{
    slog_grid *g = user;
    add_rows(g, p, 0, p->n_rows, g->unit);
    return SLOG_CONTINUE;
}

static slog_cb_result on_drawable(void *user, const slog_drawable *d)
{
    slog_grid *g = user;
    uint32_t who = d->timeline / g->unit;
    if (d->kind == SLOG_KIND_STATE) {
        add_state(g, slot_for(g, who, d->category), (double)d->start, (double)d->end);
        return SLOG_CONTINUE;
    }
    float *v = cols_for(g, who, d->category);
    if (!v) return SLOG_CONTINUE; /* an arrow from outside the rows */
    double x = ((double)d->start - (double)g->t0) / g->col_ns;
    if (x >= 0 && x < g->n_cols) v[(uint32_t)x] += 1.0f;
    return SLOG_CONTINUE;
}

/* The grid's timelines as flags; NULL when out of memory. */
static uint8_t *grid_mask(const slog_reader *r, const slog_grid *g)
{
    uint8_t *mask = calloc(r->info.n_timelines, 1);
    if (mask) memset(mask + g->tl_first, 1, g->tl_end - g->tl_first);
    return mask;
}

/* The blocks' window query for the grid's columns and timelines. */
static slog_query grid_window(const slog_grid *g, int64_t t0, int64_t t1, const uint8_t *mask)
{
    int64_t px = (int64_t)floor(g->col_ns);
    return (slog_query){
        .t0 = t0, .t1 = t1, .timelines = mask, .pixel_ns = px > 0 ? px : 1, .flags = SLOG_QUERY_NARROW_NO_INFO};
}

typedef struct ovctx {
    slog_reader *r;
    slog_grid *g;
    int64_t t0, t1;
    rd_scratch s;
    uint8_t *mask, *blocks; /* the grid's timelines and their blocks, made
                               when a part is first read from the blocks */
    slog_query_stats stats;
    slog_error *err;
} ovctx;

/* A preview's bins this many columns wide are taken rather than the
 * records below it, where the overview holds nothing finer. */
#define OV_COARSE_COLS 4

/* The part of the picture under overview node (level, index) that the
 * overview does not hold finely enough: from the blocks' subtrees there,
 * exact (their previews where no wider than a column). */
static slog_status ov_blocks(ovctx *x, uint32_t level, uint64_t index)
{
    if (!x->blocks) {
        x->mask = grid_mask(x->r, x->g);
        x->blocks = x->mask ? rd_blocks_of(x->r, x->mask) : NULL;
        if (!x->blocks) return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "grid");
    }
    slog_query wq = grid_window(x->g, x->t0, x->t1, x->mask);
    return rd_query_subtree(x->r, &wq, x->blocks, level, index, on_drawable, on_preview, x->g, &x->stats, x->err);
}

static slog_status ov_visit(ovctx *x, uint32_t level, uint64_t index)
{
    slog_reader *r = x->r;
    const rd_node *d = rd_find_node(r, SLOG_TREE_OVERVIEW, level, index);
    if (!d) return SLOG_OK;
    uint32_t sh = (uint32_t)r->info.leaf_shift + level;
    int64_t lo = (int64_t)(index << sh), hi = lo + (int64_t)(1ull << sh);
    if (hi - 1 < x->t0 || lo > x->t1) return SLOG_OK;
    const rd_node *c0 = level ? rd_find_node(r, SLOG_TREE_OVERVIEW, level - 1, index * 2) : NULL;
    const rd_node *c1 = level ? rd_find_node(r, SLOG_TREE_OVERVIEW, level - 1, index * 2 + 1) : NULL;
    double bin = (double)(hi - lo) / r->info.preview_bins;
    bool fine = bin <= x->g->col_ns, coarse_ok = bin <= OV_COARSE_COLS * x->g->col_ns;
    bool complete = level && d->n_drawables + (c0 ? c0->n_subtree : 0) + (c1 ? c1->n_subtree : 0) == d->n_subtree;
    uint8_t left = d->flags & (SLOG_DIRENT_OV_LEFT0 | SLOG_DIRENT_OV_LEFT1);
    slog_status st;
    if (r->info.version_major >= 3) {
        /* No own block and some drawables: all of its subtree is in its
         * preview (nothing below it is in the overview). */
        bool all_own = !d->node_off && d->n_drawables;
        bool gap = !all_own && !left && !complete; /* nothing says where the rest is */
        if (fine || gap || ((all_own || left) && coarse_ok)) {
            slog_preview p;
            if ((st = rd_preview(r, d, &x->s, &p, NULL, x->err))) return st;
            x->stats.nodes_read++;
            x->stats.bytes_read += d->prev_size;
            x->stats.previews++;
            add_rows(x->g, &p, 0, p.n_rows, 1);
            return SLOG_OK;
        }
        if (all_own) return ov_blocks(x, level, index);
        /* Passed through: its own records (their block) or none; not its
         * rows, which would be most of the bytes read. */
        if ((st = rd_own_records(r, d, &x->s, x->err))) return st;
        if (d->node_off) {
            x->stats.nodes_read++;
            x->stats.bytes_read += d->node_size;
        }
    } else {
        slog_preview p;
        bool own_all = false;
        if ((st = rd_preview(r, d, &x->s, &p, &own_all, x->err))) return st;
        x->stats.nodes_read++;
        x->stats.bytes_read += d->prev_size;
        x->stats.previews++;
        if (own_all && !fine && !coarse_ok) return ov_blocks(x, level, index);
        if (fine || !complete || own_all) {
            add_rows(x->g, &p, 0, p.n_rows, 1);
            return SLOG_OK;
        }
    }
    /* What the children do not hold: the drawables across the middle,
     * each at its exact times. */
    slog_grid *g = x->g;
    for (size_t i = 0; i < x->s.n_own; i++) {
        const rd_own *o = &x->s.own[i];
        if (o->category < g->n_cats && g->is_state[o->category]) {
            add_state(g, slot_for(g, o->group, o->category), (double)o->start, (double)o->end);
            continue;
        }
        float *v = cols_for(g, o->group, o->category);
        if (!v) continue;
        double col = ((double)o->start - (double)g->t0) / g->col_ns;
        if (col >= 0 && col < g->n_cols) v[(uint32_t)col] += 1.0f;
    }
    for (unsigned k = 0; k < 2; k++) {
        uint64_t ci = index * 2 + k;
        st = left & (k ? SLOG_DIRENT_OV_LEFT1 : SLOG_DIRENT_OV_LEFT0) ? ov_blocks(x, level - 1, ci)
                                                                      : ov_visit(x, level - 1, ci);
        if (st) return st;
    }
    return SLOG_OK;
}

/* The overview can answer q: the range is whole groups, and as rows they
 * are at least half the rows asked for. (Where its previews are coarser
 * than the columns, ov_visit reads the blocks under them.) */
static bool overview_fits(const slog_reader *r, const slog_grid_query *q, uint32_t tl_last)
{
    uint32_t gt = r->info.group_timelines;
    const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
    if (gt <= 1 || !t->count || (q->flags & SLOG_GRID_NO_OVERVIEW)) return false;
    uint64_t units = ((uint64_t)tl_last + 1 - q->tl_first + gt - 1) / gt;
    if (q->tl_first % gt || ((tl_last + 1) % gt && tl_last + 1 != r->info.n_timelines)) return false;
    /* Rows of whole groups: at least half as many rows as asked for (a
     * 1,080-row screen of 16,384 timelines in groups of 16 gets 1,024). */
    return 2 * units >= q->n_rows;
}

slog_status slog_reader_grid(slog_reader *r, const slog_grid_query *q, slog_grid **out, slog_query_stats *stats,
                             slog_error *err)
{
    slog_clear_error(err);
    if (out) *out = NULL;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!r || !q || !out) return slog_set_error(err, SLOG_ERR_ARG, r ? r->path : NULL, SLOG_NO_OFFSET, "NULL argument");
    const slog_file_info *fi = &r->info;
    if (q->t1 < q->t0 || !q->n_cols || q->n_cols > 65536 || !q->n_rows || q->n_rows > 65536 ||
        q->tl_first > q->tl_last || q->tl_first >= fi->n_timelines)
        return slog_set_error(err, SLOG_ERR_ARG, r->path, SLOG_NO_OFFSET,
                              "grid: empty window, timelines outside 0..%u, or columns/rows not in 1..65536",
                              fi->n_timelines ? fi->n_timelines - 1 : 0);
    uint32_t tl_last = q->tl_last < fi->n_timelines ? q->tl_last : fi->n_timelines - 1;
    slog_grid *g = calloc(1, sizeof *g);
    if (!g) return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid");
    g->n_cols = q->n_cols;
    g->n_cats = fi->n_categories;
    g->t0 = q->t0;
    /* Columns tile [t0, t1] exactly, as slog_columns' do. */
    double t_end = q->t1 > q->t0 ? (double)q->t1 : (double)q->t0 + 1.0;
    g->col_ns = (t_end - (double)q->t0) / q->n_cols;
    bool ov = overview_fits(r, q, tl_last);
    g->unit = ov ? fi->group_timelines : 1;
    g->tl_first = q->tl_first;
    g->tl_end = tl_last + 1;
    uint64_t units = ((uint64_t)g->tl_end - g->tl_first + g->unit - 1) / g->unit;
    g->per_row = (uint32_t)((units + q->n_rows - 1) / q->n_rows);
    g->n_rows = (uint32_t)((units + g->per_row - 1) / g->per_row);
    g->is_state = calloc((size_t)g->n_cats + 1, sizeof *g->is_state);
    g->slot = calloc((size_t)g->n_rows * g->n_cats + 1, sizeof *g->slot);
    if (!g->is_state || !g->slot) {
        slog_grid_free(g);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid");
    }
    for (uint32_t k = 0; k < g->n_cats; k++) g->is_state[k] = r->cat_is_state[k];
    /* Room for every (row, category) at once, when that is not absurd: a
     * large allocation's pages cost only where columns are written, while
     * growing by doubling copied the columns of a thousand rows several
     * times per grid. */
    size_t all = (size_t)g->n_rows * g->n_cats;
    if (all && all <= ((size_t)1 << 28) / sizeof(float) / g->n_cols) {
        size_t have;
        g->pool = pool_alloc(all * g->n_cols, &have);
        /* its room as slots, all of them (kept for a later grid) */
        if (g->pool) g->cap_pool = have / g->n_cols < UINT32_MAX ? (uint32_t)(have / g->n_cols) : UINT32_MAX;
    }
    slog_status st;
    slog_query_stats qs = {0};
    if (ov) {
        ovctx x = {.r = r, .g = g, .t0 = q->t0, .t1 = q->t1, .err = err};
        const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
        st = ov_visit(&x, t->top, 0);
        free(x.mask);
        free(x.blocks);
        free(x.s.rows);
        free(x.s.values);
        free(x.s.own);
        qs = x.stats;
    } else {
        uint8_t *mask = grid_mask(r, g);
        if (!mask) {
            slog_grid_free(g);
            return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid");
        }
        slog_query wq = grid_window(g, q->t0, q->t1, mask);
        st = slog_reader_query(r, &wq, on_drawable, on_preview, g, &qs, err);
        free(mask);
    }
    if (!st && g->failed) st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid columns");
    if (st) {
        slog_grid_free(g);
        return st;
    }
    if (finish(g)) {
        slog_grid_free(g);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid columns");
    }
    if (stats) *stats = qs;
    *out = g;
    return SLOG_OK;
}
