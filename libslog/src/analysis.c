/* SPDX-License-Identifier: MIT */
/* analysis.c - slog_reader_analyse: the communication matrix and the state
 * profile of a window, exact, from the summaries of the nodes that lie
 * inside it and the records of the others (docs/ANALYSIS.md for what
 * counts, docs/FORMAT.md "Summary block" for why it is exact). */
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "reader_internal.h"
#include "summary.h"

struct slog_analysis {
    slog_matrix_cell *cells;
    size_t n_cells, cap_cells;
    slog_profile_row *rows;
    size_t n_rows, cap_rows;
};

/* A map from a pair of ids to an index into cells or rows. */
typedef struct pair_map {
    uint64_t *keys; /* key + 1; 0 = empty */
    uint32_t *vals;
    size_t n, cap; /* cap a power of two */
} pair_map;

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

/* Index of key in m, inserting next as its value when absent; -1 no memory. */
static int64_t map_get(pair_map *m, uint64_t key, size_t next)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 256;
        uint64_t *k = calloc(nc, sizeof *k);
        uint32_t *v = malloc(nc * sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return -1;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t j = mix(m->keys[i] - 1) & (nc - 1);
                while (k[j]) j = (j + 1) & (nc - 1);
                k[j] = m->keys[i];
                v[j] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = nc;
    }
    size_t j = mix(key) & (m->cap - 1);
    while (m->keys[j]) {
        if (m->keys[j] == key + 1) return m->vals[j];
        j = (j + 1) & (m->cap - 1);
    }
    m->keys[j] = key + 1;
    m->vals[j] = (uint32_t)next;
    m->n++;
    return (int64_t)next;
}

/* A state decoded from a node's records. */
typedef struct dstate {
    uint32_t timeline, category;
    int64_t start, end;
    int64_t child_ns; /* time of the states whose parent it is */
} dstate;

typedef struct actx {
    slog_reader *r;
    int64_t t0, t1;
    bool matrix, profile, use_summary;
    slog_analysis *a;
    pair_map cell_map, row_map;
    dstate *ds;
    size_t n_ds, cap_ds;
    size_t *path; /* indexes into ds of the states of the nodes above */
    size_t n_path, cap_path;
    /* finish_region's room: a timeline's extent among the region's states
     * (ext_at[timeline] into ext while ext_gen[timeline] is gen), the
     * state above that takes its tops, and the nesting stack */
    uint32_t *ext_at, *ext_gen, gen;
    slog_summ_ext *ext;
    size_t *ext_best;
    uint32_t cap_ext;
    dstate **stack;
    size_t cap_stack;
    slog_summ summ;
    slog_query_stats stats;
    bool nomem;
    slog_error *err;
} actx;

static slog_matrix_cell *cell(actx *x, uint32_t s, uint32_t r)
{
    slog_analysis *a = x->a;
    int64_t i = map_get(&x->cell_map, (uint64_t)s << 32 | r, a->n_cells);
    if (i < 0) return NULL;
    if ((size_t)i == a->n_cells) {
        if (a->n_cells == a->cap_cells) {
            size_t nc = a->cap_cells ? a->cap_cells * 2 : 64;
            void *p = realloc(a->cells, nc * sizeof *a->cells);
            if (!p) return NULL;
            a->cells = p;
            a->cap_cells = nc;
        }
        a->cells[a->n_cells++] = (slog_matrix_cell){.sender = s, .receiver = r};
    }
    return &a->cells[i];
}

static slog_profile_row *row(actx *x, uint32_t tl, uint32_t cat)
{
    slog_analysis *a = x->a;
    int64_t i = map_get(&x->row_map, (uint64_t)tl << 32 | cat, a->n_rows);
    if (i < 0) return NULL;
    if ((size_t)i == a->n_rows) {
        if (a->n_rows == a->cap_rows) {
            size_t nc = a->cap_rows ? a->cap_rows * 2 : 64;
            void *p = realloc(a->rows, nc * sizeof *a->rows);
            if (!p) return NULL;
            a->rows = p;
            a->cap_rows = nc;
        }
        a->rows[a->n_rows++] = (slog_profile_row){.timeline = tl, .category = cat, .min_ns = INT64_MAX};
    }
    return &a->rows[i];
}

static bool add_message(actx *x, uint32_t s, uint32_t r, uint64_t count, uint64_t bytes, uint64_t unknown,
                        int64_t time_ns)
{
    slog_matrix_cell *c = cell(x, s, r);
    if (!c) return false;
    c->messages += count;
    c->bytes += bytes;
    c->unknown_bytes += unknown;
    c->time_ns += time_ns;
    return true;
}

static bool add_states(actx *x, uint32_t tl, uint32_t cat, uint64_t calls, int64_t incl, int64_t excl, int64_t mn,
                       int64_t mx)
{
    slog_profile_row *p = row(x, tl, cat);
    if (!p) return false;
    p->calls += calls;
    p->inclusive_ns += incl;
    p->exclusive_ns += excl;
    if (mn < p->min_ns) p->min_ns = mn;
    if (mx > p->max_ns) p->max_ns = mx;
    return true;
}

/* The first BYTES field of category k, or -1. */
static int bytes_field(const slog_reader *r, uint32_t k)
{
    const slog_category *c = &r->cats[k];
    for (uint32_t f = 0; f < c->n_fields; f++)
        if (c->field_types[f] == SLOG_FIELD_BYTES) return (int)f;
    return -1;
}

static bool on_record(void *user, const slog_drawable *d, bool mirror)
{
    actx *x = user;
    if (mirror) return true; /* counted in its sender's block */
    x->stats.drawables++;
    if (d->kind == SLOG_KIND_ARROW) {
        if (!x->matrix || d->start < x->t0 || d->start > x->t1) return true;
        int f = bytes_field(x->r, d->category);
        int64_t b = f >= 0 ? d->info[f] : SLOG_INFO_UNKNOWN;
        if (!add_message(x, d->timeline, d->end_timeline, 1, b >= 0 ? (uint64_t)b : 0, b >= 0 ? 0 : 1,
                         d->end - d->start)) {
            x->nomem = true;
            return false;
        }
    } else if (d->kind == SLOG_KIND_STATE && x->profile) {
        if (x->n_ds == x->cap_ds || x->n_path == x->cap_path) {
            size_t nc = x->cap_ds ? x->cap_ds * 2 : 1024;
            void *p = realloc(x->ds, nc * sizeof *x->ds), *q = p ? realloc(x->path, nc * sizeof *x->path) : NULL;
            if (p) x->ds = p;
            if (q) x->path = q;
            if (!p || !q) {
                x->nomem = true;
                return false;
            }
            x->cap_ds = x->cap_path = nc;
        }
        x->path[x->n_path++] = x->n_ds;
        x->ds[x->n_ds++] = (dstate){d->timeline, d->category, d->start, d->end, 0};
    }
    return true;
}

static slog_status nomem(actx *x)
{
    return slog_set_error(x->err, SLOG_ERR_NOMEM, x->r->path, SLOG_NO_OFFSET, "out of memory analysing a window");
}

/* Can the summary in x->summ stand for its subtree? Every state of the
 * nodes above must nest all of a timeline's states there or none (then
 * their parents are known: summary.h). */
static bool summary_fits(actx *x)
{
    if (!x->profile) return true;
    if (x->summ.unresolved) return false;
    for (uint32_t i = 0; i < x->summ.n_ext; i++)
        for (size_t p = 0; p < x->n_path; p++) {
            const dstate *s = &x->ds[x->path[p]];
            if (s->timeline == x->summ.ext[i].timeline && slog_summ_nests(s->start, s->end, &x->summ.ext[i]) < 0)
                return false;
        }
    return true;
}

static bool apply_summary(actx *x)
{
    const slog_summ *s = &x->summ;
    if (x->matrix)
        for (uint32_t i = 0; i < s->n_msg; i++) {
            const slog_summ_msg *m = &s->msg[i];
            if (!add_message(x, m->sender, m->receiver, m->count, m->bytes, m->unknown, m->time_ns)) return false;
        }
    if (!x->profile) return true;
    for (uint32_t i = 0; i < s->n_st; i++) {
        const slog_summ_state *a = &s->st[i];
        if (!add_states(x, a->timeline, a->category, a->calls, (int64_t)a->incl_ns,
                        (int64_t)a->incl_ns - (int64_t)a->child_ns, (int64_t)a->min_ns, (int64_t)a->max_ns))
            return false;
    }
    /* The states of a timeline with no parent in the subtree: their parent
     * is the last, in parent order, of the states above that nest them. */
    for (uint32_t i = 0; i < s->n_ext; i++) {
        const slog_summ_ext *e = &s->ext[i];
        dstate *best = NULL;
        for (size_t p = 0; p < x->n_path; p++) {
            dstate *c = &x->ds[x->path[p]];
            if (c->timeline != e->timeline || slog_summ_nests(c->start, c->end, e) != 1) continue;
            if (!best || slog_summ_key_cmp(best->start, best->end, best->category, c->start, c->end, c->category) < 0)
                best = c;
        }
        if (best) best->child_ns += (int64_t)e->top_ns;
    }
    return true;
}

static int cmp_dstate(const void *a, const void *b)
{
    const dstate *x = a, *y = b;
    if (x->timeline != y->timeline) return x->timeline < y->timeline ? -1 : 1;
    return slog_summ_key_cmp(x->start, x->end, x->category, y->start, y->end, y->category);
}

/* Keeps, of the decoded states from m on, those that meet the window (the
 * others count nowhere); how many there are then. */
static size_t keep_meeting(actx *x, size_t m)
{
    size_t n = m;
    for (size_t i = m; i < x->n_ds; i++)
        if (x->ds[i].start <= x->t1 && x->ds[i].end >= x->t0) x->ds[n++] = x->ds[i];
    return x->n_ds = n;
}

/* The decoded states from m on, cut to the window, each with its parent
 * among them found as slog_summ_key_cmp says (on a stack in parent order)
 * and added to its row. tops: a state with no parent among them gives
 * its time to its timeline's extent (finish_region), else to nobody. */
static bool nest_and_add(actx *x, size_t m, bool tops)
{
    size_t n = x->n_ds;
    if (n - m > x->cap_stack) {
        void *st = realloc(x->stack, (n - m) * sizeof *x->stack);
        if (!st) return false;
        x->stack = st;
        x->cap_stack = n - m;
    }
    if (n - m > 1) /* base may be NULL when empty */
        qsort(x->ds + m, n - m, sizeof *x->ds, cmp_dstate);
    size_t top = 0;
    for (size_t i = m; i < n; i++) {
        dstate *d = &x->ds[i];
        if (i > m && x->ds[i - 1].timeline != d->timeline) top = 0;
        while (top && x->stack[top - 1]->end < d->end) top--;
        int64_t a = d->start > x->t0 ? d->start : x->t0, b = d->end < x->t1 ? d->end : x->t1;
        if (top)
            x->stack[top - 1]->child_ns += b - a;
        else if (tops)
            x->ext[x->ext_at[d->timeline]].top_ns += (uint64_t)(b - a);
        x->stack[top++] = d;
    }
    for (size_t i = m; i < n; i++) {
        const dstate *d = &x->ds[i];
        int64_t a = d->start > x->t0 ? d->start : x->t0, b = d->end < x->t1 ? d->end : x->t1;
        if (!add_states(x, d->timeline, d->category, 1, b - a, b - a - d->child_ns, b - a, b - a)) return false;
    }
    return true;
}

/* Subtrees' states finished where they hold at least this many, and as
 * many as the states of the nodes above (each finish walks those). */
#define FINISH_MIN 64

/* The states decoded in a subtree (ds from m on), finished as a summary
 * stands for its subtree: their parents among themselves, their tops' in
 * the states of the nodes above (path, below pm), each added to its row
 * and dropped. Without this every decoded state of the window waited for
 * finish_states: gigabytes for a wide window of a wide file. Only where each
 * state above nests all of a timeline's states here or none (as
 * summary_fits asks); else they wait for the subtree above, or for
 * finish_states. The same parents either way: a state of another
 * subtree holds none of these (their nodes' intervals are apart) and a
 * state above that holds one comes before it in slog_summ_key_cmp's
 * order. False only when out of memory. */
static bool finish_region(actx *x, size_t m, size_t pm)
{
    if (x->n_ds - m < FINISH_MIN || x->n_ds - m < pm) return true;
    size_t n = keep_meeting(x, m);
    uint32_t n_tl = x->r->info.n_timelines; /* the reader took no record past it */
    if (!x->ext_at) {
        x->ext_at = calloc(n_tl ? n_tl : 1, sizeof *x->ext_at);
        x->ext_gen = calloc(n_tl ? n_tl : 1, sizeof *x->ext_gen);
        if (!x->ext_at || !x->ext_gen) return false;
    }
    if (++x->gen == 0) { /* stamps wrapped: none is current */
        memset(x->ext_gen, 0, (size_t)(n_tl ? n_tl : 1) * sizeof *x->ext_gen);
        x->gen = 1;
    }
    uint32_t n_ext = 0;
    for (size_t i = m; i < n; i++) {
        const dstate *d = &x->ds[i];
        if (x->ext_gen[d->timeline] != x->gen) {
            if (n_ext == x->cap_ext) {
                uint32_t nc = x->cap_ext ? x->cap_ext * 2 : 64;
                void *e = realloc(x->ext, nc * sizeof *x->ext),
                     *b = e ? realloc(x->ext_best, nc * sizeof *x->ext_best) : NULL;
                if (e) x->ext = e;
                if (b) x->ext_best = b;
                if (!e || !b) return false;
                x->cap_ext = nc;
            }
            x->ext_gen[d->timeline] = x->gen;
            x->ext_at[d->timeline] = n_ext;
            x->ext[n_ext] = (slog_summ_ext){d->timeline, d->start, d->start, d->end, d->end, 0};
            x->ext_best[n_ext++] = SIZE_MAX;
            continue;
        }
        slog_summ_ext *e = &x->ext[x->ext_at[d->timeline]];
        if (d->start < e->min_start) e->min_start = d->start;
        if (d->start > e->max_start) e->max_start = d->start;
        if (d->end < e->min_end) e->min_end = d->end;
        if (d->end > e->max_end) e->max_end = d->end;
    }
    /* the states above: each nests all of a timeline's here or none, and
     * the last in key order of those that nest them takes their tops */
    for (size_t p = 0; p < pm; p++) {
        const dstate *c = &x->ds[x->path[p]];
        if (x->ext_gen[c->timeline] != x->gen) continue;
        uint32_t k = x->ext_at[c->timeline];
        int nests = slog_summ_nests(c->start, c->end, &x->ext[k]);
        if (nests < 0) return true;
        if (!nests) continue;
        const dstate *b = x->ext_best[k] == SIZE_MAX ? NULL : &x->ds[x->ext_best[k]];
        if (!b || slog_summ_key_cmp(b->start, b->end, b->category, c->start, c->end, c->category) < 0)
            x->ext_best[k] = x->path[p];
    }
    if (!nest_and_add(x, m, true)) return false;
    for (uint32_t k = 0; k < n_ext; k++)
        if (x->ext_best[k] != SIZE_MAX) x->ds[x->ext_best[k]].child_ns += (int64_t)x->ext[k].top_ns;
    x->n_ds = m;
    return true;
}

static slog_status visit(actx *x, uint32_t tree, uint32_t level, uint64_t index)
{
    const rd_node *d = rd_find_node(x->r, tree, level, index);
    if (!d) return SLOG_OK;
    uint32_t sh = (uint32_t)x->r->info.leaf_shift + level;
    int64_t lo = (int64_t)(index << sh), hi = lo + (int64_t)(1ull << sh);
    if (hi - 1 < x->t0 || lo > x->t1) return SLOG_OK;
    slog_status st;
    /* Inside the window: no drawable lies outside [t_min, t_max], so a
     * window reaching past either end takes in what lies beyond it. */
    const slog_file_info *fi = &x->r->info;
    bool inside = (lo >= x->t0 || x->t0 <= fi->t_min) && (hi - 1 <= x->t1 || x->t1 >= fi->t_max);
    if (x->use_summary && d->summ_off && inside) {
        uint8_t *own;
        const uint8_t *body;
        size_t len;
        if ((st = rd_block(x->r, SLOG_TAG_SUMMARY, d->summ_off, d->summ_size, &own, &body, &len, NULL, x->err)))
            return st;
        x->stats.nodes_read++;
        x->stats.bytes_read += d->summ_size;
        bool ok = slog_summ_decode(&x->summ, body, len, level, index, lo, hi, x->r->info.n_timelines,
                                   x->r->info.n_categories, x->r->cat_is_state);
        free(own);
        if (!ok)
            return slog_set_error(x->err, x->summ.failed ? SLOG_ERR_NOMEM : SLOG_ERR_CORRUPT, x->r->path, d->summ_off,
                                  "malformed summary of node (%u, %u, %llu)", tree, level, (unsigned long long)index);
        if (summary_fits(x)) {
            x->stats.previews++;
            return apply_summary(x) ? SLOG_OK : nomem(x);
        }
    }
    size_t mark = x->n_path, ds_mark = x->n_ds;
    if ((st = rd_node_records(x->r, d, on_record, x, x->err))) return st;
    if (x->nomem) return nomem(x);
    x->stats.nodes_read++;
    x->stats.bytes_read += d->node_size;
    if (level > 0) {
        if ((st = visit(x, tree, level - 1, index * 2))) return st;
        if ((st = visit(x, tree, level - 1, index * 2 + 1))) return st;
    }
    x->n_path = mark;
    if (x->profile && !finish_region(x, ds_mark, mark)) return nomem(x);
    return SLOG_OK;
}

static int cmp_cell(const void *a, const void *b)
{
    const slog_matrix_cell *x = a, *y = b;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static int cmp_row(const void *a, const void *b)
{
    const slog_profile_row *x = a, *y = b;
    if (x->timeline != y->timeline) return x->timeline < y->timeline ? -1 : 1;
    return x->category < y->category ? -1 : x->category > y->category;
}

/* The decoded states left when every block is visited (the subtrees that
 * finish_region left), finished with no state above them. */
static bool finish_states(actx *x)
{
    keep_meeting(x, 0);
    return nest_and_add(x, 0, false);
}

slog_status slog_reader_analyse(slog_reader *r, const slog_analysis_query *q, slog_analysis **out,
                                slog_query_stats *stats, slog_error *err)
{
    slog_clear_error(err);
    *out = NULL;
    if (stats) memset(stats, 0, sizeof *stats);
    if (!q || q->t0 > q->t1 || (q->flags & ~(SLOG_ANALYSIS_MATRIX | SLOG_ANALYSIS_PROFILE | SLOG_ANALYSIS_NO_SUMMARY)))
        return slog_set_error(err, SLOG_ERR_ARG, r->path, SLOG_NO_OFFSET, "bad analysis query");
    actx x = {.r = r, .t0 = q->t0, .t1 = q->t1, .err = err};
    x.matrix = q->flags & SLOG_ANALYSIS_MATRIX;
    x.profile = q->flags & SLOG_ANALYSIS_PROFILE;
    if (!x.matrix && !x.profile) x.matrix = x.profile = true;
    x.use_summary = !(q->flags & SLOG_ANALYSIS_NO_SUMMARY);
    x.a = calloc(1, sizeof *x.a);
    slog_status st = x.a ? SLOG_OK : nomem(&x);
    for (uint32_t b = 0; b < r->info.n_blocks && !st; b++) {
        const rd_tree *t = rd_tree_of(r, b);
        if (!t->count) continue;
        st = visit(&x, b, t->top, 0);
        x.n_path = 0;
    }
    if (!st && x.profile && !finish_states(&x)) st = nomem(&x);
    free(x.ds);
    free(x.path);
    free(x.ext_at);
    free(x.ext_gen);
    free(x.ext);
    free(x.ext_best);
    free(x.stack);
    free(x.cell_map.keys);
    free(x.cell_map.vals);
    free(x.row_map.keys);
    free(x.row_map.vals);
    slog_summ_free(&x.summ);
    if (stats) *stats = x.stats;
    if (st) {
        slog_analysis_free(x.a);
        return st;
    }
    if (x.a->n_cells > 1) /* base may be NULL when empty */
        qsort(x.a->cells, x.a->n_cells, sizeof *x.a->cells, cmp_cell);
    if (x.a->n_rows > 1) /* base may be NULL when empty */
        qsort(x.a->rows, x.a->n_rows, sizeof *x.a->rows, cmp_row);
    *out = x.a;
    return SLOG_OK;
}

void slog_analysis_free(slog_analysis *a)
{
    if (!a) return;
    free(a->cells);
    free(a->rows);
    free(a);
}

const slog_matrix_cell *slog_analysis_matrix(const slog_analysis *a, size_t *n)
{
    *n = a->n_cells;
    return a->cells;
}

const slog_profile_row *slog_analysis_profile(const slog_analysis *a, size_t *n)
{
    *n = a->n_rows;
    return a->rows;
}

/* ------------------------------------------------------------ summary check */

typedef struct schk {
    slog_reader *r;
    slog_summ_cats cats;
    slog_query_stats stats;
    uint64_t checked;
    slog_error *err;
} schk;

/* A node's bound as the writer computes it (writer.c node_bound). */
static int64_t schk_bound(const slog_reader *r, uint32_t level, uint64_t k)
{
    const int64_t limit = (int64_t)1 << 62;
    uint32_t s = (uint32_t)r->info.leaf_shift + level;
    if (s >= 63) return k ? limit : 0;
    return k > (uint64_t)(limit >> s) ? limit : (int64_t)(k << s);
}

/* Node (tree, level, index)'s summary recomputed into out (zeroed by the
 * caller) as the writer makes it: its children's first, merged, then its
 * own records; compared with its summary block where it has one. */
static slog_status schk_node(schk *x, const rd_node *d, slog_summ *out)
{
    slog_reader *r = x->r;
    slog_status st;
    for (unsigned side = 0; d->level > 0 && side < 2; side++) {
        uint64_t ci = d->index * 2 + side;
        const rd_node *c = rd_find_node(r, d->tree, d->level - 1u, ci);
        if (!c) continue;
        slog_summ cs;
        memset(&cs, 0, sizeof cs);
        if ((st = schk_node(x, c, &cs))) {
            slog_summ_free(&cs);
            return st;
        }
        slog_summ_merge_child(out, &cs, side, d->level - 1u, ci, schk_bound(r, d->level - 1u, ci),
                              schk_bound(r, d->level - 1u, ci + 1), false);
    }
    uint8_t *own;
    const uint8_t *b;
    size_t len;
    uint32_t crc;
    if ((st = rd_block(r, SLOG_TAG_NODE, d->node_off, d->node_size, &own, &b, &len, &crc, x->err))) return st;
    x->stats.nodes_read++;
    x->stats.bytes_read += d->node_size;
    /* the node's 16 fixed bytes come before its records */
    if (crc != d->node_crc || len < 16) {
        free(own);
        return slog_set_error(x->err, crc != d->node_crc ? SLOG_ERR_CHECKSUM : SLOG_ERR_CORRUPT, r->path, d->node_off,
                              "node (%u, %u, %llu): bad block", d->tree, d->level, (unsigned long long)d->index);
    }
    int64_t lo = schk_bound(r, d->level, d->index), hi = schk_bound(r, d->level, d->index + 1);
    slog_summ_close(out, NULL, d->level, b + 16, len - 16, d->n_drawables, lo, hi, &x->cats);
    free(own);
    if (out->failed) return slog_set_error(x->err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "summary check");
    if (!d->summ_off) return SLOG_OK;
    const uint8_t *sb;
    size_t slen;
    if ((st = rd_block(r, SLOG_TAG_SUMMARY, d->summ_off, d->summ_size, &own, &sb, &slen, NULL, x->err))) return st;
    x->stats.nodes_read++;
    x->stats.bytes_read += d->summ_size;
    uint8_t fixed[16] = {0};
    fixed[0] = (uint8_t)d->level;
    put_u32le(fixed + 4, d->n_drawables);
    put_u64le(fixed + 8, d->index);
    slog_buf e = {0};
    slog_summ_encode(out, fixed, lo, &e);
    bool same = !e.failed && e.len == slen && (slen == 0 || memcmp(e.data, sb, slen) == 0);
    bool failed = e.failed;
    buf_free(&e);
    free(own);
    if (failed) return slog_set_error(x->err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "summary check");
    if (!same)
        return slog_set_error(x->err, SLOG_ERR_CORRUPT, r->path, d->summ_off,
                              "summary of node (%u, %u, %llu) differs from the one its subtree's records give", d->tree,
                              d->level, (unsigned long long)d->index);
    x->checked++;
    return SLOG_OK;
}

slog_status slog_reader_check_summaries(slog_reader *r, uint64_t *n_checked, slog_query_stats *stats, slog_error *err)
{
    slog_clear_error(err);
    if (n_checked) *n_checked = 0;
    if (stats) memset(stats, 0, sizeof *stats);
    uint32_t nc = r->info.n_categories;
    int *bytes_field = malloc(((size_t)nc + 1) * sizeof *bytes_field);
    if (!bytes_field) return slog_set_error(err, SLOG_ERR_NOMEM, r->path, SLOG_NO_OFFSET, "summary check");
    for (uint32_t k = 0; k < nc; k++) {
        const slog_category *c = slog_reader_category(r, k);
        bytes_field[k] = -1;
        for (uint32_t f = 0; c && f < c->n_fields && bytes_field[k] < 0; f++)
            if (c->field_types[f] == SLOG_FIELD_BYTES) bytes_field[k] = (int)f;
    }
    schk x = {.r = r, .cats = {nc, r->cat_is_state, bytes_field}, .err = err};
    slog_status st = SLOG_OK;
    for (uint32_t t = 0; !st && t < r->info.n_blocks; t++) {
        const rd_tree *tr = rd_tree_of(r, t);
        /* the roots: the nodes of the top level (entries go by level, then index) */
        for (uint64_t i = 0; !st && i < tr->count; i++) {
            const rd_node *d = &r->nodes[tr->first + i];
            if (d->level != tr->top) continue;
            slog_summ s;
            memset(&s, 0, sizeof s);
            st = schk_node(&x, d, &s);
            slog_summ_free(&s);
        }
    }
    free(bytes_field);
    if (n_checked) *n_checked = x.checked;
    if (stats) *stats = x.stats;
    return st;
}
