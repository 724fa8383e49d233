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
#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

struct slog_grid {
    uint32_t n_rows, n_cols, n_cats, unit, per_row;
    uint32_t tl_first, tl_end; /* timelines [tl_first, tl_end) */
    int64_t t0;
    double col_ns;
    bool *is_state;
    uint32_t *slot; /* n_rows x n_cats: 1 + index into pool, 0: none */
    float *pool;
    uint32_t n_pool, cap_pool;
    bool failed;
};

void slog_grid_free(slog_grid *g)
{
    if (!g) return;
    free(g->is_state);
    free(g->slot);
    free(g->pool);
    free(g);
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

/* The columns of (row of timeline or group `who`, category), made zero on
 * first use; NULL outside the grid's timelines or when out of memory. */
static float *cols_for(slog_grid *g, uint32_t who, uint32_t category)
{
    uint64_t tl = (uint64_t)who * g->unit;
    if (tl < g->tl_first || tl >= g->tl_end || category >= g->n_cats) return NULL;
    uint32_t row = (uint32_t)((tl - g->tl_first) / g->unit / g->per_row);
    uint32_t *k = &g->slot[(size_t)row * g->n_cats + category];
    if (!*k) {
        if (g->n_pool == g->cap_pool) {
            uint32_t cap = g->cap_pool ? g->cap_pool * 2 : 64;
            float *p = realloc(g->pool, (size_t)cap * g->n_cols * sizeof *p);
            if (!p) {
                g->failed = true;
                return NULL;
            }
            g->pool = p;
            g->cap_pool = cap;
        }
        memset(g->pool + (size_t)g->n_pool * g->n_cols, 0, (size_t)g->n_cols * sizeof *g->pool);
        *k = ++g->n_pool;
    }
    return g->pool + (size_t)(*k - 1) * g->n_cols;
}

static void add_rows(slog_grid *g, const slog_preview *p, uint32_t first, uint32_t n)
{
    for (uint32_t i = first; i < first + n; i++) {
        const slog_preview_row *r = &p->rows[i];
        float *v = cols_for(g, r->timeline, r->category);
        if (v)
            slog_spread_bins(v, g->n_cols, (double)g->t0, g->col_ns, p->lo, p->hi, p->n_bins, r->values,
                             g->is_state[r->category]);
    }
}

static slog_cb_result on_preview(void *user, const slog_preview *p)
{
    add_rows(user, p, 0, p->n_rows);
    return SLOG_CONTINUE;
}

static slog_cb_result on_drawable(void *user, const slog_drawable *d)
{
    slog_grid *g = user;
    float *v = cols_for(g, d->timeline, d->category);
    if (!v) return SLOG_CONTINUE; /* an arrow from outside the rows */
    if (d->kind == SLOG_KIND_STATE) {
        slog_spread(v, g->n_cols, (double)g->t0, g->col_ns, (double)d->start, (double)d->end, 1.0 / g->col_ns);
    } else {
        double x = ((double)d->start - (double)g->t0) / g->col_ns;
        if (x >= 0 && x < g->n_cols) v[(uint32_t)x] += 1.0f;
    }
    return SLOG_CONTINUE;
}

typedef struct ovctx {
    slog_reader *r;
    slog_grid *g;
    int64_t t0, t1;
    rd_scratch s;
    slog_query_stats stats;
    slog_error *err;
} ovctx;

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
    bool fine = (double)(hi - lo) / r->info.preview_bins <= x->g->col_ns;
    bool complete = level && d->n_drawables + (c0 ? c0->n_subtree : 0) + (c1 ? c1->n_subtree : 0) == d->n_subtree;
    slog_status st;
    if (r->info.version_major >= 3 && !fine && complete && (d->node_off || !d->n_drawables)) {
        /* Passed through: its own records (their block) or none; not its
         * rows, which would be most of the bytes read. (No block and
         * some drawables: a base-level node, whose preview is all.) */
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
        if (fine || !complete || own_all) {
            add_rows(x->g, &p, 0, p.n_rows);
            return SLOG_OK;
        }
    }
    /* What the children do not hold: the drawables across the middle,
     * each at its exact times. */
    for (size_t i = 0; i < x->s.n_own; i++) {
        const rd_own *o = &x->s.own[i];
        float *v = cols_for(x->g, o->group, o->category);
        if (!v) continue;
        if (x->g->is_state[o->category]) {
            slog_spread(v, x->g->n_cols, (double)x->g->t0, x->g->col_ns, (double)o->start, (double)o->end,
                        1.0 / x->g->col_ns);
        } else {
            double col = ((double)o->start - (double)x->g->t0) / x->g->col_ns;
            if (col >= 0 && col < x->g->n_cols) v[(uint32_t)col] += 1.0f;
        }
    }
    if ((st = ov_visit(x, level - 1, index * 2))) return st;
    return ov_visit(x, level - 1, index * 2 + 1);
}

/* The overview can answer q: the range is whole groups, as rows they are at
 * least half the rows asked for, and its lowest level's bins are at most
 * four columns wide. */
static bool overview_fits(const slog_reader *r, const slog_grid_query *q, uint32_t tl_last, double col_ns)
{
    uint32_t gt = r->info.group_timelines;
    const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
    if (gt <= 1 || !t->count || (q->flags & SLOG_GRID_NO_OVERVIEW)) return false;
    uint64_t units = ((uint64_t)tl_last + 1 - q->tl_first + gt - 1) / gt;
    if (q->tl_first % gt || ((tl_last + 1) % gt && tl_last + 1 != r->info.n_timelines)) return false;
    /* Rows of whole groups: at least half as many rows as asked for (a
     * 1,080-row screen of 16,384 timelines in groups of 16 gets 1,024). */
    if (2 * units < q->n_rows) return false;
    uint32_t lowest = r->nodes[t->first + t->count - 1].level;
    double bin = ldexp(1.0, r->info.leaf_shift + (int)lowest) / r->info.preview_bins;
    return bin <= 4 * col_ns;
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
    bool ov = overview_fits(r, q, tl_last, g->col_ns);
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
     * large allocation is mapped, and its pages cost only where columns are
     * written, while growing by doubling copied the columns of a thousand
     * rows several times per grid. */
    size_t all = (size_t)g->n_rows * g->n_cats;
    if (all && all <= ((size_t)1 << 28) / sizeof(float) / g->n_cols) {
        g->pool = malloc(all * g->n_cols * sizeof *g->pool);
        if (g->pool) g->cap_pool = (uint32_t)all;
    }
    slog_status st;
    slog_query_stats qs = {0};
    if (ov) {
        ovctx x = {.r = r, .g = g, .t0 = q->t0, .t1 = q->t1, .err = err};
        const rd_tree *t = rd_tree_of(r, SLOG_TREE_OVERVIEW);
        st = ov_visit(&x, t->top, 0);
        free(x.s.rows);
        free(x.s.values);
        free(x.s.own);
        qs = x.stats;
    } else {
        uint8_t *mask = calloc(fi->n_timelines, 1);
        if (!mask) {
            slog_grid_free(g);
            return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid");
        }
        memset(mask + g->tl_first, 1, g->tl_end - g->tl_first);
        int64_t px = (int64_t)floor(g->col_ns);
        slog_query wq = {.t0 = q->t0,
                         .t1 = q->t1,
                         .timelines = mask,
                         .pixel_ns = px > 0 ? px : 1,
                         .flags = SLOG_QUERY_NARROW_NO_INFO};
        st = slog_reader_query(r, &wq, on_drawable, on_preview, g, &qs, err);
        free(mask);
    }
    if (!st && g->failed) st = slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "grid columns");
    if (st) {
        slog_grid_free(g);
        return st;
    }
    /* Sums over the row's timelines become means; a timeline's nested
     * states of one category may overlap, so a mean is at most 1. */
    for (uint32_t row = 0; row < g->n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        float inv = 1.0f / (float)(b - a + 1);
        for (uint32_t k = 0; k < g->n_cats; k++) {
            uint32_t s = g->slot[(size_t)row * g->n_cats + k];
            if (!s || !g->is_state[k]) continue;
            float *v = g->pool + (size_t)(s - 1) * g->n_cols;
            for (uint32_t j = 0; j < g->n_cols; j++) v[j] = v[j] * inv > 1 ? 1 : v[j] * inv;
        }
    }
    if (stats) *stats = qs;
    *out = g;
    return SLOG_OK;
}
