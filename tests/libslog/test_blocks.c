/* SPDX-License-Identifier: MIT */
/* test_blocks.c - many timelines: blocks, mirrored arrows, the overview and
 * folded grids (slog.h "folded grids"), against brute force.
 *
 *   test_blocks [SEED [N_TIMELINES [STATES_PER_TIMELINE [DEEP]]]]
 *
 * Each case draws a trace over a random number of timelines (1 to 70,000):
 * states one after another on each timeline, messages to near and far
 * timelines (so across blocks), events. It is written with the default or
 * random block and group sizes, checked (slog_reader_check), queried with
 * random windows and timeline sets (t_verify_query: every drawable once,
 * mirrors included, or inside exactly one preview of its block), and folded
 * into grids, from the overview and from the blocks' trees:
 *   - at the root's resolution (one column per preview bin of the root),
 *     every value equals a brute-force fold of the drawables into those
 *     columns (to the previews' quantisation);
 *   - at a finer resolution, each row's total per category (coverage in
 *     ns, or count) equals the brute-force total, and the two ways of
 *     reading agree. */
#include "testutil.h"

#include <inttypes.h>
#include <math.h>
#include <stdbool.h>

static char *g_dir;

typedef struct gcase {
    uint64_t seed;
    uint32_t n_tls;
    size_t per_tl; /* states per timeline (about) */
    int deep;      /* blocks of 64, groups of 4 and narrow leaves: deep trees */
} gcase;

/* The trace: per timeline consecutive states of 3 categories with gaps,
 * arrows from some states' ends to a neighbour (same block mostly) or a
 * far timeline (another block), events. */
static void make_model(t_model *m, t_rng *r, uint32_t n_tls, size_t per_tl)
{
    t_model_init(m);
    uint32_t cs[3] = {t_model_add_cat(m, SLOG_KIND_STATE, "compute", 0), t_model_add_cat(m, SLOG_KIND_STATE, "wait", 1),
                      t_model_add_cat(m, SLOG_KIND_STATE, "send", 2)};
    uint32_t ca = t_model_add_cat(m, SLOG_KIND_ARROW, "message", 2);
    uint32_t ce = t_model_add_cat(m, SLOG_KIND_EVENT, "mark", 0);
    for (uint32_t t = 0; t < n_tls; t++) t_model_add_tl(m, t, 0);
    for (uint32_t t = 0; t < n_tls; t++) {
        int64_t now = (int64_t)t_below(r, 5000);
        size_t n = per_tl / 2 + t_below(r, per_tl + 1);
        for (size_t i = 0; i < n; i++) {
            t_draw *d = t_model_push(m);
            d->kind = SLOG_KIND_STATE;
            d->cat = cs[t_below(r, 3)];
            d->tl = d->etl = t;
            d->start = now;
            d->end = now + 1 + (int64_t)t_below(r, 40000);
            d->n_info = m->cats[d->cat].n_fields;
            for (uint32_t k = 0; k < d->n_info; k++) d->info[k] = (int64_t)t_below(r, 1000);
            int64_t sent = d->end; /* d moves when the model grows */
            now = sent + (int64_t)t_below(r, 20000);
            if (n_tls > 1 && t_chance(r, 30)) {
                t_draw *a = t_model_push(m);
                a->kind = SLOG_KIND_ARROW;
                a->cat = ca;
                a->tl = t;
                uint32_t peer = t_chance(r, 70) ? (t + 1) % n_tls : (uint32_t)t_below(r, n_tls);
                a->etl = peer;
                a->start = sent;
                a->end = sent + (int64_t)t_below(r, 30000) - 2000; /* some arrive "before" they leave */
                if (a->end < 0) a->end = 0;
                a->n_info = 2;
                a->info[0] = (int64_t)t_below(r, 1 << 20);
                a->info[1] = (int64_t)t_below(r, 100);
            }
            if (t_chance(r, 5)) {
                t_draw *e = t_model_push(m);
                e->kind = SLOG_KIND_EVENT;
                e->cat = ce;
                e->tl = e->etl = t;
                e->start = e->end = now;
                e->n_info = 0;
            }
        }
    }
    t_model_sort_end_order(m);
}

/* The messages between groups in slices of random windows
 * (slog_reader_group_messages) against brute force: every cell, where the
 * overview can tell them. */
static uint64_t g_group_msgs_answered, g_group_msgs_cells, g_group_msgs_from_blocks;

static int cmp_group_cell(const void *a, const void *b)
{
    const slog_group_cell *x = a, *y = b;
    if (x->slice != y->slice) return x->slice < y->slice ? -1 : 1;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static void check_group_messages(const t_model *m, slog_reader *rd, t_rng *r)
{
    const slog_file_info *fi = slog_reader_info(rd);
    uint32_t gt = fi->group_timelines;
    uint64_t n_groups = ((uint64_t)fi->n_timelines + gt - 1) / gt;
    for (unsigned i = 0; i < (t_under_valgrind() ? 3u : 12u); i++) {
        /* the whole span, wide windows (the flows of a zoomed-out view)
         * and any window */
        int64_t t0 = i ? t_range(r, 0, fi->t_max) : fi->t_min,
                t1 = i ? t0 + t_range(r, 0, fi->t_max - t0 + 1) : fi->t_max;
        if (i % 2) {
            t0 = t_range(r, 0, fi->t_max / 2);
            t1 = t0 + fi->t_max / 4 + t_range(r, 0, fi->t_max / 4);
        }
        if (i % 3 == 2) /* a few leaves: finer than the overview may count */
            t1 = t0 + ((int64_t)1 << fi->leaf_shift) * (1 + t_range(r, 0, 4));
        uint32_t min_slices = 1 + (uint32_t)t_below(r, 16);
        slog_group_messages *gm = NULL;
        slog_query_stats qs;
        slog_error err;
        CHECK_OK(slog_reader_group_messages(rd, t0, t1, min_slices, &gm, &qs, &err), &err);
        int64_t lo = t0 > fi->t_min ? t0 : fi->t_min, hi = t1 < fi->t_max ? t1 : fi->t_max;
        bool counted = fi->overview_depth > 0 && gt > 1 && fi->n_arrows > 0 && lo <= hi;
        CHECKF((gm != NULL) == counted, "group messages %s for a file with%s counts", gm ? "given" : "not given",
               counted ? "" : "out");
        if (!gm) continue;
        CHECKF(gm->group_timelines == gt && gm->n_slices >= 1, "group messages: groups of %u, %u slices",
               gm->group_timelines, gm->n_slices);
        CHECKF(gm->edges[0] <= lo && gm->edges[gm->n_slices] > hi,
               "slices [%" PRId64 ", %" PRId64 ") miss [%" PRId64 ", %" PRId64 "]", gm->edges[0],
               gm->edges[gm->n_slices], lo, hi);
        /* the slices' level: the highest with at least min_slices nodes
         * in the window (or the leaves'); from the overview its nodes or
         * those of the one above it, from the blocks' arrows min_slices
         * even slices of the window (the analysis's) */
        uint32_t level = fi->overview_depth - 1;
        while (level &&
               ((uint64_t)hi >> (fi->leaf_shift + level)) - ((uint64_t)lo >> (fi->leaf_shift + level)) + 1 < min_slices)
            level--;
        int64_t w_want = (int64_t)1 << (fi->leaf_shift + level), width = gm->edges[1] - gm->edges[0];
        if (gm->from_blocks) {
            uint64_t span = (uint64_t)(hi - lo) + 1;
            CHECKF(gm->n_slices == (span < min_slices ? span : min_slices) && gm->edges[0] == lo &&
                       gm->edges[gm->n_slices] == hi + 1,
                   "%u slices of [%" PRId64 ", %" PRId64 ") from the blocks, %u asked", gm->n_slices, gm->edges[0],
                   gm->edges[gm->n_slices], min_slices);
            for (uint32_t k = 0; k < gm->n_slices; k++) {
                int64_t wk = gm->edges[k + 1] - gm->edges[k];
                CHECKF(wk == (int64_t)(span / gm->n_slices) || wk == (int64_t)(span / gm->n_slices) + 1,
                       "slice %u of %" PRId64 " ns, %" PRIu64 " ns in %u slices", k, wk, span, gm->n_slices);
            }
        } else {
            CHECKF(width == w_want || width == 2 * w_want,
                   "slices of %" PRId64 " ns from the overview, %u asked: level %u's are %" PRId64 " ns", width,
                   min_slices, level, w_want);
            for (uint32_t k = 0; k < gm->n_slices; k++)
                CHECKF(gm->edges[k + 1] - gm->edges[k] == width && gm->edges[k] % width == 0, "slice %u uneven", k);
        }
        g_group_msgs_from_blocks += gm->from_blocks != 0;
        /* brute force: the window's arrows as cells of one message,
         * sorted as the answer's cells are, then counted in runs */
        slog_group_cell *want = malloc((m->n ? m->n : 1) * sizeof *want);
        CHECK(want);
        size_t n_want = 0;
        for (size_t k = 0; want && k < m->n; k++) {
            const t_draw *d = &m->d[k];
            if (d->kind != SLOG_KIND_ARROW || d->start < gm->edges[0] || d->start >= gm->edges[gm->n_slices]) continue;
            uint32_t s = 0;
            while (d->start >= gm->edges[s + 1]) s++;
            want[n_want++] = (slog_group_cell){s, d->tl / gt, d->etl / gt, 1};
        }
        if (n_want > 1) qsort(want, n_want, sizeof *want, cmp_group_cell);
        size_t seen = 0;
        for (size_t k = 0, j = 0; k < gm->n_cells; k++) {
            const slog_group_cell *c = &gm->cells[k];
            CHECKF(c->slice < gm->n_slices && c->sender < n_groups && c->receiver < n_groups, "cell %zu out of range",
                   k);
            CHECKF(!k || cmp_group_cell(&gm->cells[k - 1], c) < 0, "cell %zu out of order", k);
            uint64_t w = 0;
            for (; j < n_want && !cmp_group_cell(&want[j], c); j++) w++;
            CHECKF(c->messages == w && w > 0,
                   "[%" PRId64 ", %" PRId64 "] slice %u, groups %u -> %u: %" PRIu64 " messages, brute force %" PRIu64,
                   t0, t1, c->slice, c->sender, c->receiver, c->messages, w);
            seen++;
        }
        size_t distinct = 0;
        for (size_t k = 0; k < n_want; k++) distinct += !k || cmp_group_cell(&want[k - 1], &want[k]) != 0;
        CHECKF(seen == distinct, "%zu cells, brute force %zu", seen, distinct);
        g_group_msgs_answered++;
        g_group_msgs_cells += seen;
        free(want);
        slog_group_messages_free(gm);
    }
}

/* The overview's nodes a grid reads, from the directory: a node whose
 * bins are wider than a column and whose children hold the rest of its
 * subtree is passed through (its own records' block, if any); one whose
 * children are not in the overview (all its own) or some of them left out
 * to the blocks gives its preview where its bins are at most four columns
 * wide, else the blocks give that part (to_blocks); any other gives its
 * preview. */
typedef struct ov_walk {
    slog_reader *rd;
    double col_ns;
    uint64_t previews, own_blocks, to_blocks;
} ov_walk;

static uint64_t g_own_blocks_read;
/* grids read from the overview that took parts from the blocks (format
 * 4.x: children left out, or coarse nodes with nothing below them) */
static uint64_t g_ov_grids_from_blocks;

static const slog_node_info *ov_node(ov_walk *w, uint32_t level, uint64_t index, slog_node_info *ni)
{
    const slog_file_info *fi = slog_reader_info(w->rd);
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        CHECK(slog_reader_node(w->rd, i, ni) == SLOG_OK);
        if (ni->tree == SLOG_TREE_OVERVIEW && ni->level == level && ni->index == index) return ni;
    }
    return NULL;
}

static void ov_expect(ov_walk *w, uint32_t level, uint64_t index)
{
    slog_node_info n, c;
    if (!ov_node(w, level, index, &n)) return;
    double bin = (double)(n.hi - n.lo) / slog_reader_info(w->rd)->preview_bins;
    bool fine = bin <= w->col_ns, coarse_ok = bin <= 4 * w->col_ns;
    uint64_t below = 0;
    for (uint64_t k = 0; level && k < 2; k++)
        if (ov_node(w, level - 1, 2 * index + k, &c)) below += c.n_subtree;
    bool complete = level && n.n_drawables + below == n.n_subtree;
    bool all_own = !n.size && n.n_drawables; /* nothing below it in the overview */
    if (fine || (!all_own && !n.left_out && !complete) || ((all_own || n.left_out) && coarse_ok)) {
        w->previews++;
        return;
    }
    if (all_own) { /* its subtree from the blocks */
        w->to_blocks++;
        return;
    }
    w->own_blocks += n.size != 0;
    for (unsigned k = 0; k < 2; k++) {
        if (n.left_out >> k & 1)
            w->to_blocks++;
        else
            ov_expect(w, level - 1, 2 * index + k);
    }
}

/* Per row and category, the total over the columns (states: in
 * timeline-ns, i.e. fraction x column width x the row's timelines). */
static double *row_totals(const t_model *m, const slog_grid *g, double col_ns)
{
    uint32_t n_rows = slog_grid_n_rows(g), n_cols = slog_grid_n_cols(g);
    double *t = calloc((size_t)n_rows * m->n_cats + 1, sizeof *t);
    CHECK(t);
    for (uint32_t row = 0; row < n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        for (uint32_t k = 0; k < m->n_cats; k++) {
            const float *v = slog_grid_values(g, row, k);
            double s = 0;
            for (uint32_t j = 0; v && j < n_cols; j++) s += v[j];
            t[(size_t)row * m->n_cats + k] = m->cats[k].kind == SLOG_KIND_STATE ? s * col_ns * (b - a + 1) : s;
        }
    }
    return t;
}

/* At the window's edges a preview bin that straddles an edge is split in
 * proportion: the totals may differ there by what lies within a few
 * columns of an edge (edge: per (row, category), brute force). */
static void compare_totals(const t_model *m, const slog_grid *g, const double *got, const double *want,
                           const double *edge, double span, uint32_t levels, const char *what)
{
    for (uint32_t row = 0; row < slog_grid_n_rows(g); row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        for (uint32_t k = 0; k < m->n_cats; k++) {
            double x = got[(size_t)row * m->n_cats + k], y = want[(size_t)row * m->n_cats + k];
            /* states: each preview bin is quantised to 1/255 of its width
             * (per timeline, or per group for the overview) */
            /* states: a preview bin is quantised to 1/510 of a timeline's
             * (a group's sum: of one timeline's) bin width, at each level
             * whose rows are added */
            double units = (double)(b - a + 1) / slog_grid_unit(g);
            double tol =
                (m->cats[k].kind == SLOG_KIND_STATE ? ceil(units) * span * levels / 510.0 + 1 : 1e-3 * (1 + y)) +
                edge[(size_t)row * m->n_cats + k];
            CHECKF(fabs(x - y) <= tol, "%s: row %u (%u-%u) category %u total %.1f, brute force %.1f (tolerance %.1f)",
                   what, row, a, b, k, x, y, tol);
        }
    }
}

/* Brute-force totals per (row, category): states' ns and counts; and in
 * *edge what lies within `near` ns of either end of the window. */
static double *brute_totals(const t_model *m, const slog_grid *g, const uint32_t *row_of, int64_t t0, int64_t t1,
                            double near, double **edge)
{
    size_t n = (size_t)slog_grid_n_rows(g) * m->n_cats + 1;
    double *t = calloc(n, sizeof *t), *e = calloc(n, sizeof *e);
    CHECK(t && e);
    double a0 = (double)t0, a1 = (double)t1 + 1;
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        uint32_t row = row_of[d->tl];
        if (row == UINT32_MAX) continue;
        size_t at = (size_t)row * m->n_cats + d->cat;
        double s = (double)d->start, f = (double)d->end;
        if (d->kind == SLOG_KIND_STATE) {
            t[at] += fmax(0, fmin(f, a1) - fmax(s, a0));
            e[at] +=
                fmax(0, fmin(f, a0 + near) - fmax(s, a0 - near)) + fmax(0, fmin(f, a1 + near) - fmax(s, a1 - near));
        } else {
            t[at] += s >= a0 && s < a1;
            e[at] += fabs(s - a0) < near || fabs(s - a1) < near;
        }
    }
    *edge = e;
    return t;
}

static uint64_t g_small_left; /* cases where small nodes left their records up */

/* rd, written without summaries: its block nodes hold the same drawables
 * as the file written with them (where every record is in the smallest
 * node holding it), in fewer nodes where some were small. Without an
 * overview, every block node but a root or one with a child in the file
 * holds at least 64 records (docs/FORMAT.md, 5.1). */
static void check_small_nodes(const t_model *m, slog_reader *rd, const slog_writer_options *o)
{
    const slog_file_info *fi = slog_reader_info(rd);
    slog_writer_options so = *o;
    so.no_summaries_below = 0;
    char *path = t_path(g_dir, "summed.slog2");
    slog_error err;
    CHECK_OK(t_model_write(m, path, &so, &err), &err);
    slog_reader *sr = NULL;
    CHECK_OK(slog_reader_open(&sr, path, &err), &err);
    uint64_t blocks[2] = {0}, records[2] = {0};
    const slog_reader *both[2] = {rd, sr};
    uint32_t *top = calloc(fi->n_blocks + 1, sizeof *top); /* a block's root level */
    CHECK(top);
    for (int pass = 0; pass < 3; pass++) {
        const slog_reader *x = both[pass == 2];
        const slog_file_info *f = slog_reader_info(x);
        for (uint64_t i = 0; i < f->n_nodes; i++) {
            slog_node_info ni;
            CHECK_OK(slog_reader_node(x, i, &ni), &err);
            if (ni.tree == SLOG_TREE_OVERVIEW) continue;
            if (pass == 0) {
                if (ni.level > top[ni.tree]) top[ni.tree] = ni.level;
                continue;
            }
            blocks[pass - 1]++;
            records[pass - 1] += ni.n_drawables;
            if (pass == 2 || fi->overview_depth) continue;
            bool kids = ni.n_subtree > ni.n_drawables; /* a child in the file */
            CHECKF(ni.level == top[ni.tree] || kids || ni.n_drawables >= 64,
                   "block %u node (%u, %" PRIu64 ") of %u records stands alone", ni.tree, ni.level, ni.index,
                   ni.n_drawables);
        }
    }
    free(top);
    CHECK_EQ(records[0], records[1]);
    CHECKF(blocks[0] <= blocks[1], "%" PRIu64 " block nodes, %" PRIu64 " with every record in its smallest node",
           blocks[0], blocks[1]);
    g_small_left += blocks[0] < blocks[1];
    slog_reader_close(sr);
    remove(path);
    free(path);
}

static void run_case(const gcase *c)
{
    t_rng r = {c->seed};
    t_model m;
    make_model(&m, &r, c->n_tls, c->per_tl);
    slog_writer_options o;
    slog_writer_options_init(&o);
    bool defaults = !c->deep && t_chance(&r, 50);
    if (c->deep) {
        o.block_timelines = 64;
        o.group_timelines = 4;
        o.leaf_shift = 11;
    } else if (defaults) {
        o.expected_timelines = c->n_tls;
    } else {
        static const uint32_t sizes[] = {1, 2, 4, 16, 64, 256};
        o.block_timelines = sizes[t_below(&r, 6)];
        o.group_timelines = sizes[t_below(&r, 6)];
        o.preview_bins = t_chance(&r, 50) ? 16 : 64;
        /* narrow leaves: deep trees, states crossing many nodes */
        if (t_chance(&r, 70)) o.leaf_shift = 10 + (int32_t)t_below(&r, 6);
        /* an overview from a level above the leaves, with finer levels
         * below it where they pay and children left out elsewhere; or
         * without them */
        if (t_chance(&r, 50)) {
            o.overview_level = 1 + (uint32_t)t_below(&r, 5);
            o.preview_min_subtree = t_chance(&r, 50) ? 64 : 0;
            if (t_chance(&r, 25)) o.overview_fine_levels = SLOG_OVERVIEW_FINE_NONE;
        }
        /* small subtrees pay for previews and message counts: the
         * overview tells the messages between groups at most zooms */
        if (t_chance(&r, 30)) o.preview_min_subtree = 1 + (uint32_t)t_below(&r, 8);
    }
    /* Odd seeds: no summaries, as slog2-build writes thousands of ranks,
     * so that small nodes leave their records to their parents. */
    if (c->seed & 1) o.no_summaries_below = UINT32_MAX;
    CHECK_CONTEXT("seed %" PRIu64 " (rerun: test_blocks %" PRIu64
                  " %u %zu %d) %u timelines, %zu drawables, blocks of %u, "
                  "groups of %u, leaf_shift %d",
                  c->seed, c->seed, c->n_tls, c->per_tl, c->deep, c->n_tls, m.n, o.block_timelines, o.group_timelines,
                  o.leaf_shift);
    char *path = t_path(g_dir, "blocks.slog2");
    slog_error err;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    uint32_t tb = fi->block_timelines, gt = fi->group_timelines;
    if (!defaults) CHECK(tb == o.block_timelines && gt == o.group_timelines);
    if (defaults) {
        CHECK(tb == slog_block_timelines_for(c->n_tls) && gt == slog_group_timelines_for(c->n_tls));
        CHECKF(c->n_tls <= 1024 || fi->overview_depth > 0, "no overview for %u timelines", c->n_tls);
    }
    CHECK(fi->n_blocks == (c->n_tls + tb - 1) / tb);
    CHECK(fi->n_drawables == m.n);
    uint64_t cross = 0;
    for (size_t i = 0; i < m.n; i++) cross += m.d[i].kind == SLOG_KIND_ARROW && m.d[i].tl / tb != m.d[i].etl / tb;
    CHECKF(fi->n_mirrors == cross, "%" PRIu64 " mirrors, %" PRIu64 " arrows cross blocks", fi->n_mirrors, cross);
    slog_query_stats qs;
    CHECK_OK(slog_reader_check(rd, &qs, &err), &err);
    if (o.no_summaries_below) check_small_nodes(&m, rd, &o);

    /* window queries with timeline sets, against brute force */
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    uint8_t *mask = calloc(m.n_tls + 1, 1);
    CHECK(mask);
    int64_t tmin = fi->t_min, tmax = fi->t_max;
    unsigned n_queries = t_under_valgrind() ? 6 : 40;
    for (unsigned i = 0; i < n_queries; i++) {
        slog_query q;
        t_random_query(&r, &m, tmin, tmax, &q, mask);
        if (t_chance(&r, 50) && m.n_tls > 1) { /* a range of timelines, as a viewer asks */
            uint32_t a = (uint32_t)t_below(&r, m.n_tls), b = a + (uint32_t)t_below(&r, m.n_tls - a);
            memset(mask, 0, m.n_tls);
            memset(mask + a, 1, b - a + 1);
            q.timelines = mask;
        }
        t_result res = {0};
        CHECK_OK(slog_reader_query(rd, &q, t_res_drawable, t_res_preview, &res, &qs, &err), &err);
        t_verify_query(&m, &ix, fi, &q, &res, &qs);
        t_result_free(&res);
    }

    check_group_messages(&m, rd, &r);

    /* grids at the root's resolution: exact to quantisation */
    for (int pass = 0; pass < 2; pass++) {
        uint32_t unit = t_verify_root_grid(&m, rd, pass ? SLOG_GRID_NO_OVERVIEW : 0);
        if (!pass && fi->overview_depth && gt > 1)
            CHECKF(unit == gt, "grid read from unit %u, the overview has groups of %u", unit, gt);
        if (pass) CHECK(unit == 1);
    }

    /* a grid about four times finer than the overview's root (its bins at
     * most four columns wide) passes through the nodes whose bins are
     * wider than a column: of those it reads the own records' block alone,
     * not the preview, and no block's node (what the reader should read,
     * walked here from the directory) */
    if (fi->overview_depth && gt > 1) {
        int64_t root_hi = t_root_hi(fi);
        uint32_t bins = fi->preview_bins, n_groups = (c->n_tls + gt - 1) / gt;
        slog_grid *g = t_grid(rd, 0, root_hi - 1, 0, c->n_tls - 1, 4 * bins - 1, n_groups, 0, &qs);
        CHECKF(slog_grid_unit(g) == gt, "grid of whole groups read from unit %u, groups of %u", slog_grid_unit(g), gt);
        slog_grid_free(g);
        ov_walk wk = {.rd = rd, .col_ns = (double)(root_hi - 1) / (4 * bins - 1)}; /* as the grid tiles it */
        ov_expect(&wk, fi->overview_depth - 1, 0);
        CHECKF(!wk.to_blocks && qs.previews == wk.previews && qs.nodes_read == wk.previews + wk.own_blocks,
               "fine grid read %" PRIu64 " previews of %" PRIu64 " nodes, expected %" PRIu64 " previews, %" PRIu64
               " own-record blocks and %" PRIu64 " parts from the blocks",
               qs.previews, qs.nodes_read, wk.previews, wk.own_blocks, wk.to_blocks);
        g_own_blocks_read += wk.own_blocks;
    }

    /* grids over random windows, timeline ranges, columns and rows:
     * totals per row, and the overview and the blocks agree */
    for (unsigned i = 0; i < (t_under_valgrind() ? 2u : 8u); i++) {
        int64_t t0 = t_range(&r, 0, tmax), t1 = t0 + t_range(&r, 0, tmax - t0 + 1);
        uint32_t first = i % 2 ? 0 : (uint32_t)t_below(&r, c->n_tls) / gt * gt;
        uint32_t last = i % 2 ? c->n_tls - 1 : first + (uint32_t)t_below(&r, c->n_tls - first);
        uint32_t cols = 1 + (uint32_t)t_below(&r, 2000), rows = 1 + (uint32_t)t_below(&r, 300);
        if (i % 4 < 2) /* as many rows as whole groups, or half: the overview is read */
            rows = (uint32_t)((last - first + gt) / gt) / (1 + i % 2);
        rows = rows ? rows : 1;
        double span = (double)(t1 - t0 + 1);
        slog_grid *ga = t_grid(rd, t0, t1, first, last, cols, rows, 0, &qs);
        g_ov_grids_from_blocks += slog_grid_unit(ga) > 1 && qs.drawables > 0;
        slog_grid *gb = t_grid(rd, t0, t1, first, last, cols, rows, SLOG_GRID_NO_OVERVIEW, &qs);
        const char *what[2] = {"grid totals (first way)", "grid totals (from the blocks)"};
        slog_grid *gs[2] = {ga, gb};
        double cns = (t1 > t0 ? (double)(t1 - t0) : 1.0) / cols;
        for (int k = 0; k < 2; k++) {
            uint32_t *row_of = t_grid_rows(&m, gs[k], first, last);
            double *edge;
            double *want = brute_totals(&m, gs[k], row_of, t0, t1 > t0 ? t1 - 1 : t0, 4 * cns, &edge);
            double *got = row_totals(&m, gs[k], cns);
            compare_totals(&m, gs[k], got, want, edge, span,
                           (fi->overview_depth > fi->depth ? fi->overview_depth : fi->depth) + 1, what[k]);
            free(want);
            free(edge);
            free(got);
            free(row_of);
        }
        slog_grid_free(ga);
        slog_grid_free(gb);
    }
    printf("  ok: %u timelines (%u blocks of %u, groups of %u, overview depth %u), %zu drawables, %" PRIu64
           " mirrors, %" PRIu64 " bytes\n",
           c->n_tls, fi->n_blocks, tb, gt, fi->overview_depth, m.n, fi->n_mirrors, fi->file_size);
    free(mask);
    t_index_free(&ix);
    slog_reader_close(rd);
    remove(path);
    free(path);
    t_model_free(&m);
}

/* Model m (sorted here) written with blocks of 16 timelines, groups of 4,
 * the leaf width and overview level given, opened and checked clean; its
 * *path (free). */
static slog_reader *write_fine(t_model *m, int32_t leaf_shift, uint32_t ov_level, const char *name, char **path)
{
    t_model_sort_end_order(m);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.block_timelines = 16;
    o.group_timelines = 4;
    o.leaf_shift = leaf_shift;
    o.overview_level = ov_level;
    *path = t_path(g_dir, name);
    slog_error err;
    CHECK_OK(t_model_write(m, *path, &o, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, *path, &err), &err);
    slog_query_stats qs;
    CHECK_OK(slog_reader_check(rd, &qs, &err), &err);
    return rd;
}

/* Grid totals of [t0, t1] (whole groups, as many rows) against brute
 * force; returns the grid's stats. */
static slog_query_stats fine_grid(const t_model *m, slog_reader *rd, int64_t t0, int64_t t1, uint32_t cols,
                                  uint32_t levels, const char *what)
{
    const slog_file_info *fi = slog_reader_info(rd);
    uint32_t gt = fi->group_timelines;
    slog_query_stats qs;
    slog_grid *g = t_grid(rd, t0, t1, 0, m->n_tls - 1, cols, m->n_tls / gt, 0, &qs);
    CHECKF(slog_grid_unit(g) == gt, "%s: read with unit %u, groups of %u", what, slog_grid_unit(g), gt);
    double cns = (double)(t1 - t0) / cols;
    uint32_t *row_of = t_grid_rows(m, g, 0, m->n_tls - 1);
    double *edge;
    double *want = brute_totals(m, g, row_of, t0, t1 - 1, 4 * cns, &edge);
    double *got = row_totals(m, g, cns);
    compare_totals(m, g, got, want, edge, (double)(t1 - t0 + 1), levels, what);
    free(want);
    free(edge);
    free(got);
    free(row_of);
    slog_grid_free(g);
    return qs;
}

/* The overview's levels below overview_level (format 4.x): a burst of
 * short states on every timeline, then a sparse stretch. In the burst
 * the fine nodes pay and are written; in the sparse stretch they are
 * left out, and the node over the boundary leaves its right child out.
 * A zoomed grid of the burst reads previews only; one of the sparse
 * stretch takes its drawables from the blocks under the overview; both
 * and one across the boundary equal brute force. */
static void run_fine_case(void)
{
    enum { N_TLS = 64, LEAF_SHIFT = 12, OV_LEVEL = 6 };
    const int64_t burst_end = ((int64_t)1 << 20) + ((int64_t)1 << 17), span = (int64_t)1 << 24;
    t_model m;
    t_model_init(&m);
    uint32_t busy = t_model_add_cat(&m, SLOG_KIND_STATE, "busy", 0),
             quiet = t_model_add_cat(&m, SLOG_KIND_STATE, "quiet", 0);
    for (uint32_t t = 0; t < N_TLS; t++) t_model_add_tl(&m, t, 0);
    for (uint32_t t = 0; t < N_TLS; t++) {
        for (int64_t a = 0; a + 200 <= burst_end; a += 512) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = busy, .tl = t, .etl = t, .start = a + t, .end = a + t + 200};
        }
        for (int64_t a = burst_end; a + 1000 <= span; a += (int64_t)1 << 18) {
            t_draw *d = t_model_push(&m);
            *d =
                (t_draw){.kind = SLOG_KIND_STATE, .cat = quiet, .tl = t, .etl = t, .start = a + 7 * t, .end = a + 1000};
        }
    }
    CHECK_CONTEXT("fine overview case: %u timelines, %zu states", N_TLS, m.n);
    char *path;
    slog_reader *rd = write_fine(&m, LEAF_SHIFT, OV_LEVEL, "fine.slog2", &path);
    slog_query_stats qs;
    const slog_file_info *fi = slog_reader_info(rd);
    uint64_t fine = 0, left = 0;
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        slog_node_info ni;
        CHECK(slog_reader_node(rd, i, &ni) == SLOG_OK);
        if (ni.tree != SLOG_TREE_OVERVIEW) continue;
        fine += ni.level < OV_LEVEL;
        left += ni.left_out != 0;
        /* below its level, the overview holds only the burst */
        CHECKF(ni.level >= OV_LEVEL || ni.hi <= burst_end,
               "overview node (%u, %" PRIu64 ") below level %u in the sparse stretch", ni.level, ni.index, OV_LEVEL);
    }
    CHECKF(fine > 0 && left > 0, "%" PRIu64 " overview nodes below level %u, %" PRIu64 " leave children out", fine,
           OV_LEVEL, left);
    uint32_t levels = (fi->overview_depth > fi->depth ? fi->overview_depth : fi->depth) + 1;
    /* a zoomed window of the burst: its columns narrower than the bins of
     * the lowest level written there, but within four of them */
    qs = fine_grid(&m, rd, (int64_t)1 << 16, ((int64_t)1 << 16) + ((int64_t)1 << 14), 64, levels, "burst, zoomed");
    CHECKF(qs.drawables == 0 && qs.previews > 0, "burst, zoomed: %" PRIu64 " drawables read, %" PRIu64 " previews",
           qs.drawables, qs.previews);
    /* 64 columns around the twelfth sparse state */
    int64_t q12 = burst_end + 12 * ((int64_t)1 << 18);
    qs = fine_grid(&m, rd, q12 - ((int64_t)1 << 13), q12 + ((int64_t)1 << 13), 64, levels, "sparse, zoomed");
    CHECKF(qs.drawables > 0, "sparse, zoomed: no drawable read from the blocks (%" PRIu64 " previews)", qs.previews);
    qs = fine_grid(&m, rd, burst_end - ((int64_t)1 << 14), burst_end + ((int64_t)1 << 16), 300, levels,
                   "across the burst's end");
    CHECKF(qs.drawables > 0, "across the burst's end: no drawable read from the blocks");
    fine_grid(&m, rd, 0, span, 1000, levels, "whole span");
    printf("  ok: fine overview levels: %" PRIu64 " nodes below level %u, %" PRIu64 " leaving children out\n", fine,
           OV_LEVEL, left);
    slog_reader_close(rd);
    remove(path);
    free(path);
    t_model_free(&m);
}

/* A fine node that pays under a parent that does not: a burst in the
 * left half of node (5, 0), and many messages crossing that node's middle
 * (its own records, which cost more than its subtree allows), then a
 * sparse stretch, so that (5, 0) is not the root. The parent is written
 * all the same (no orphan in the overview), the file checks clean, its
 * grids fold as brute force does and its messages between groups are
 * exact. */
static void run_orphan_case(void)
{
    enum { N_TLS = 16, LEAF_SHIFT = 12, OV_LEVEL = 6 };
    const int64_t mid = (int64_t)1 << (LEAF_SHIFT + 4); /* the middle of node (5, 0) */
    t_model m;
    t_model_init(&m);
    uint32_t busy = t_model_add_cat(&m, SLOG_KIND_STATE, "busy", 0),
             msg = t_model_add_cat(&m, SLOG_KIND_ARROW, "msg", 0),
             quiet = t_model_add_cat(&m, SLOG_KIND_STATE, "quiet", 0);
    for (uint32_t t = 0; t < N_TLS; t++) t_model_add_tl(&m, t, 0);
    for (uint32_t t = 0; t < N_TLS; t++) {
        for (int64_t a = 0; a + 200 < mid - 2000; a += 512) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = busy, .tl = t, .etl = t, .start = a + t, .end = a + t + 200};
        }
        for (int64_t i = 0; i < 400; i++) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_ARROW,
                          .cat = msg,
                          .tl = t,
                          .etl = (t + 1 + (uint32_t)i % 7) % N_TLS,
                          .start = mid - 1000 - i,
                          .end = mid + 10 + i};
        }
        for (int64_t a = 4 * mid; a < 32 * mid; a += mid) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = quiet, .tl = t, .etl = t, .start = a + t, .end = a + 1000};
        }
    }
    CHECK_CONTEXT("orphan case: %u timelines, %zu states", N_TLS, m.n);
    char *path;
    slog_reader *rd = write_fine(&m, LEAF_SHIFT, OV_LEVEL, "orphan.slog2", &path);
    const slog_file_info *fi = slog_reader_info(rd);
    bool child = false, parent = false;
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        slog_node_info ni;
        CHECK(slog_reader_node(rd, i, &ni) == SLOG_OK);
        if (ni.tree != SLOG_TREE_OVERVIEW) continue;
        if (ni.index) continue;
        child |= ni.level == OV_LEVEL - 2;
        parent |= ni.level == OV_LEVEL - 1;
    }
    CHECKF(child && parent, "overview nodes (4, 0) %s, (5, 0) %s", child ? "written" : "left out",
           parent ? "written" : "left out");
    uint32_t levels = (fi->overview_depth > fi->depth ? fi->overview_depth : fi->depth) + 1;
    fine_grid(&m, rd, 0, 2 * mid, 1000, levels, "orphan case, node (5, 0)");
    fine_grid(&m, rd, mid / 4, mid / 4 + mid / 16, 64, levels, "orphan case, the burst zoomed");
    fine_grid(&m, rd, 0, 32 * mid, 1000, levels, "orphan case, whole span");
    t_rng r = {99};
    check_group_messages(&m, rd, &r);
    printf("  ok: a fine node under a parent that does not pay: both written\n");
    slog_reader_close(rd);
    remove(path);
    free(path);
    t_model_free(&m);
}

int main(int argc, char **argv)
{
    g_dir = t_mkdtemp("blocks");
    if (argc > 1) {
        gcase c = {strtoull(argv[1], NULL, 10), argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 100,
                   argc > 3 ? strtoul(argv[3], NULL, 10) : 8, argc > 4 ? atoi(argv[4]) : 0};
        run_case(&c);
    } else {
        bool vg = t_under_valgrind();
        gcase cases[] = {{1, 1, 200, 0},    {2, 2, 100, 0},    {3, 63, 30, 0},   {4, 64, 30, 0},  {5, 65, 30, 0},
                         {6, 1000, 6, 0},   {7, 1025, 6, 0},   {8, 2048, 4, 0},  {9, 4100, 3, 0}, {10, 3000, 4, 0},
                         {11, 70000, 1, 0}, {12, 16384, 2, 0}, {13, 777, 10, 0}, {14, 5, 400, 0}, {15, 2048, 20, 1},
                         {16, 300, 60, 1},  {17, 1500, 30, 0}, {18, 4096, 8, 1}};
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            if (vg && cases[i].n_tls * cases[i].per_tl > 20000) continue;
            run_case(&cases[i]);
        }
        run_fine_case();
        run_orphan_case();
        CHECKF(g_own_blocks_read > 0, "no case passed through an overview node with own records");
        CHECKF(g_ov_grids_from_blocks > 0, "no grid read from the overview took a part from the blocks");
        CHECKF(g_small_left > 0, "no case left a small node's records to its parent");
        CHECKF(g_group_msgs_answered > g_group_msgs_from_blocks && g_group_msgs_cells > 0,
               "no group messages told by the overview");
        CHECKF(g_group_msgs_from_blocks > 0, "no group messages counted from the blocks' arrows");
        printf("  %" PRIu64 " windows' group messages (%" PRIu64 " cells), %" PRIu64
               " of them from the blocks' arrows\n",
               g_group_msgs_answered, g_group_msgs_cells, g_group_msgs_from_blocks);
        printf("  %" PRIu64 " overview grids read parts from the blocks\n", g_ov_grids_from_blocks);
    }
    t_rmtree(g_dir);
    free(g_dir);
    printf("PASS\n");
    return 0;
}
