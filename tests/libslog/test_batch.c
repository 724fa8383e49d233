/* SPDX-License-Identifier: MIT */
/* test_batch.c - the writer's batches (slog.h "batches") against the
 * brute-force model and against the ordered writer.
 *
 *   test_batch [SEED [N_DRAWABLES [N_QUERIES]]]
 *
 * Each seed draws a random model and writes it twice with the same leaf
 * width: once with slog_writer_add in end order, once through batches the
 * way a parallel producer uses them: the drawables go out in rounds; a
 * round's drawables are spread over a few batches in random order, some
 * aimed at the round's last leaf, some at other leaves, and some drawables
 * are held back to a later round (late, but never below the watermark);
 * after each round the writer is told a watermark no later drawable ends
 * before. Then:
 *   - the batch file checks clean and answers random window queries as the
 *     model says (t_verify_query: drawables, XOR rule, preview bins), and
 *     its grid of the whole trace from the overview is the model's folded
 *     by brute force;
 *   - it has the same tree as the ordered file: the same nodes with the same
 *     counts, in the same directory order, and the same drawables in each
 *     node (as multisets);
 *   - the same calls give the same bytes;
 *   - the checks slog_writer_add_batch makes: unknown categories and
 *     timelines, kind and info count, drawables below the floor, a writer
 *     that chooses its own leaf width. */
#include "testutil.h"

#include <inttypes.h>
#include <stdbool.h>
#include <unistd.h>

/* A drawable of the model as the writer takes it. */
static slog_drawable as_drawable(const t_draw *d)
{
    slog_drawable sd = {d->kind, d->cat, d->tl, d->etl, d->start, d->end, d->n_info, d->info};
    return sd;
}

static int64_t key_of(const t_draw *d)
{
    return t_dhi(d);
}

/* Write m (in end order) through batches, drawing the rounds from rng.
 * Every drawable is added exactly once. */
static void write_batches(const t_model *m, const char *path, const slog_writer_options *o, uint64_t seed)
{
    t_rng r = {seed};
    slog_writer *w = NULL;
    slog_error err;
    CHECK_OK(t_model_open_writer(m, path, o, &w, &err), &err);
    enum { N_BATCH = 4 };
    slog_batch *b[N_BATCH];
    for (int i = 0; i < N_BATCH; i++) CHECK_OK(slog_batch_new(w, &b[i]), slog_writer_error(w));
    int shift = o->leaf_shift;
    /* Held back: indexes of drawables to add in a later round. */
    size_t *held = malloc((m->n + 1) * sizeof *held), n_held = 0;
    size_t *order = malloc((m->n + 1) * sizeof *order);
    CHECK(held && order);
    size_t i = 0;
    int64_t floor = INT64_MIN;
    bool lanes = seed % 2;
    while (i < m->n || n_held) {
        size_t take = i < m->n ? 1 + t_below(&r, m->n / 8 + 2) : 0;
        if (take > m->n - i) take = m->n - i;
        /* This round: the held ones and the next `take`. */
        size_t n_round = 0;
        for (size_t k = 0; k < n_held; k++) order[n_round++] = held[k];
        n_held = 0;
        for (size_t k = 0; k < take; k++) order[n_round++] = i + k;
        i += take;
        int64_t last_key = n_round ? key_of(&m->d[order[n_round - 1]]) : 0;
        for (size_t k = 0; k < n_round; k++)
            if (key_of(&m->d[order[k]]) > last_key) last_key = key_of(&m->d[order[k]]);
        uint64_t leaf = (uint64_t)last_key >> shift;
        for (int k = 0; k < N_BATCH; k++) {
            /* Mostly the round's last leaf (the fast path), sometimes the
             * one before or a random one of the round (drawables placed
             * one by one). */
            uint64_t aim = leaf;
            unsigned c = (unsigned)t_below(&r, 10);
            if (c == 0 && leaf)
                aim = leaf - 1;
            else if (c == 1 && n_round)
                aim = (uint64_t)t_dlo(&m->d[order[t_below(&r, n_round)]]) >> shift;
            slog_batch_begin(b[k], aim);
        }
        /* Shuffle, then hold some back (while more rounds follow). */
        for (size_t k = n_round; k > 1; k--) {
            size_t j = t_below(&r, k);
            size_t t = order[k - 1];
            order[k - 1] = order[j];
            order[j] = t;
        }
        int64_t next_min = INT64_MAX; /* smallest key still to come */
        if (i < m->n) next_min = key_of(&m->d[i]);
        for (size_t k = 0; k < n_round; k++) {
            const t_draw *d = &m->d[order[k]];
            if (i < m->n && t_chance(&r, 5)) {
                held[n_held++] = order[k];
                if (key_of(d) < next_min) next_min = key_of(d);
                continue;
            }
            slog_drawable sd = as_drawable(d);
            /* Any batch, or (lanes) the batch of the drawable's quarter of
             * the timelines: each batch's preview then sees a range that
             * does not start at 0 (its direct table is based there). */
            int k_batch =
                lanes ? (int)((uint64_t)d->tl * N_BATCH / (m->n_tls ? m->n_tls : 1)) : (int)t_below(&r, N_BATCH);
            CHECK_OK(slog_batch_add(b[k_batch < N_BATCH ? k_batch : N_BATCH - 1], &sd), NULL);
        }
        /* Batches in a random order. */
        int perm[N_BATCH] = {0, 1, 2, 3};
        for (int k = N_BATCH; k > 1; k--) {
            int j = (int)t_below(&r, (uint64_t)k);
            int t = perm[k - 1];
            perm[k - 1] = perm[j];
            perm[j] = t;
        }
        for (int k = 0; k < N_BATCH; k++) {
            CHECK(slog_batch_min_key(b[perm[k]]) >= floor || !slog_batch_count(b[perm[k]]));
            CHECK_OK(slog_writer_add_batch(w, b[perm[k]]), slog_writer_error(w));
            CHECK(slog_batch_count(b[perm[k]]) == 0);
        }
        /* A watermark anywhere up to the next key, sometimes none. */
        if (next_min != INT64_MAX && t_chance(&r, 80)) {
            int64_t lo = floor > 0 ? floor : 0;
            int64_t wm = next_min <= lo ? next_min : t_range(&r, lo, next_min);
            CHECK_OK(slog_writer_advance(w, wm), slog_writer_error(w));
            if (wm > floor) floor = wm;
        }
    }
    for (int k = 0; k < N_BATCH; k++) slog_batch_free(b[k]);
    free(held);
    free(order);
    CHECK_OK(slog_writer_finish(w, &err), &err);
}

/* The drawables of node i, sorted. */
static void node_drawables(slog_reader *rd, uint64_t i, t_dvec *out)
{
    slog_node_info ni;
    slog_error err;
    CHECK_OK(slog_reader_node(rd, i, &ni), NULL);
    /* A window inside the node's interval that only this node's own
     * drawables of that level match exactly is not expressible, so query
     * everything and keep the drawables whose smallest node is this one. */
    slog_query q = {.t0 = ni.lo, .t1 = ni.hi - 1};
    t_dvec all = {0};
    CHECK_OK(slog_reader_query(rd, &q, t_collect_drawable, NULL, &all, NULL, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    for (size_t k = 0; k < all.n; k++) {
        const t_draw *d = &all.d[k];
        uint64_t a = (uint64_t)t_dlo(d), b = (uint64_t)t_dhi(d);
        uint32_t s = (uint32_t)fi->leaf_shift;
        uint64_t x = (a ^ b) >> s;
        uint32_t level = x ? (uint32_t)(64 - __builtin_clzll(x)) : 0;
        if (level == ni.level && (a >> (s + level)) == ni.index) t_dvec_push(out, d);
    }
    t_dvec_free(&all);
    t_qsort(out->d, out->n, sizeof *out->d, t_draw_cmp);
}

static void same_tree(const char *ordered, const char *batched)
{
    slog_reader *a = NULL, *b = NULL;
    slog_error err;
    CHECK_OK(slog_reader_open(&a, ordered, &err), &err);
    CHECK_OK(slog_reader_open(&b, batched, &err), &err);
    const slog_file_info *fa = slog_reader_info(a), *fb = slog_reader_info(b);
    CHECKF(fa->n_nodes == fb->n_nodes, "nodes %" PRIu64 " vs %" PRIu64, fa->n_nodes, fb->n_nodes);
    CHECK(fa->depth == fb->depth && fa->leaf_shift == fb->leaf_shift);
    CHECK(fa->t_min == fb->t_min && fa->t_max == fb->t_max && fa->n_drawables == fb->n_drawables);
    for (uint32_t c = 0; c < fa->n_categories; c++) {
        const slog_category_stats *sa = slog_reader_category_stats(a, c), *sb = slog_reader_category_stats(b, c);
        CHECK(sa->count == sb->count && sa->total_ns == sb->total_ns);
    }
    for (uint64_t i = 0; i < fa->n_nodes; i++) {
        slog_node_info na, nb;
        CHECK_OK(slog_reader_node(a, i, &na), NULL);
        CHECK_OK(slog_reader_node(b, i, &nb), NULL);
        CHECKF(na.level == nb.level && na.index == nb.index && na.n_drawables == nb.n_drawables &&
                   na.n_subtree == nb.n_subtree && na.has_preview == nb.has_preview,
               "node %" PRIu64 ": (%u, %" PRIu64 ") %u/%" PRIu64 " vs (%u, %" PRIu64 ") %u/%" PRIu64, i, na.level,
               na.index, na.n_drawables, na.n_subtree, nb.level, nb.index, nb.n_drawables, nb.n_subtree);
        if (na.n_drawables) {
            t_dvec da = {0}, db = {0};
            node_drawables(a, i, &da);
            node_drawables(b, i, &db);
            CHECK(da.n == db.n);
            for (size_t k = 0; k < da.n; k++) CHECK(t_draw_cmp(&da.d[k], &db.d[k]) == 0);
            t_dvec_free(&da);
            t_dvec_free(&db);
        }
    }
    slog_reader_close(a);
    slog_reader_close(b);
}

static void run_seed(uint64_t seed, size_t n_draw, unsigned n_queries, const char *dir)
{
    t_rng r = {seed};
    t_model m;
    t_model_init(&m);
    /* Drawn apart from r, so that the seeds draw the options they always
     * did: a few timelines (batches of many drawables a timeline, whose
     * leaf preview the writer makes first), and blocks without previews
     * (the writer then makes a batch's leaf preview by overview group). */
    t_rng pr = {seed ^ 0x5107};
    bool few_timelines = t_chance(&pr, 25);
    t_gen_params gp = {n_draw, few_timelines ? 3 : 40, 8};
    t_model_random(&m, &r, &gp);
    slog_writer_options o;
    slog_writer_options_init(&o);
    static const uint32_t bins[] = {0, 2, 6, 64, 256};
    o.preview_bins = bins[t_below(&r, sizeof bins / sizeof bins[0])];
    o.preview_min_subtree = t_chance(&r, 50) ? 1 : 0;
    static const uint32_t sizes[] = {0, 1, 2, 8};
    o.block_timelines = sizes[t_below(&r, sizeof sizes / sizeof sizes[0])];
    o.group_timelines = sizes[t_below(&r, sizeof sizes / sizeof sizes[0])];
    if (t_chance(&pr, 30)) o.preview_level = SLOG_PREVIEW_NONE;
    int64_t span = 1;
    for (size_t i = 0; i < m.n; i++)
        if (t_dhi(&m.d[i]) > span) span = t_dhi(&m.d[i]);
    o.leaf_shift = t_chance(&r, 50) ? slog_leaf_shift_for((double)m.n, (double)span, 0, 64) : (int32_t)t_below(&r, 28);
    CHECK_CONTEXT("seed %" PRIu64 " (rerun: test_batch %" PRIu64
                  " %zu %u) preview_bins %u leaf_shift %d blocks of %u%s, groups of %u; "
                  "%zu drawables",
                  seed, seed, n_draw, n_queries, o.preview_bins, o.leaf_shift, o.block_timelines,
                  o.preview_level == SLOG_PREVIEW_NONE ? " without previews" : "", o.group_timelines, m.n);
    printf("%s\n", check_context);
    fflush(stdout);

    char *ordered = t_path(dir, "ordered.slog2"), *batched = t_path(dir, "batched.slog2"),
         *again = t_path(dir, "again.slog2");
    slog_error err;
    CHECK_OK(t_model_write(&m, ordered, &o, &err), &err);
    write_batches(&m, batched, &o, seed ^ 0x5eed);
    write_batches(&m, again, &o, seed ^ 0x5eed);

    size_t la, lb;
    unsigned char *ba = t_read_file(batched, &la), *bb = t_read_file(again, &lb);
    CHECK(ba && bb && la == lb && memcmp(ba, bb, la) == 0);
    free(ba);
    free(bb);

    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, batched, &err), &err);
    CHECK_OK(slog_reader_check(rd, NULL, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    CHECK(fi->n_drawables == m.n);
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    uint8_t *mask = malloc(m.n_tls + 1);
    CHECK(mask);
    for (unsigned qi = 0; qi < n_queries && m.n; qi++) {
        slog_query q;
        t_random_query(&r, &m, fi->t_min, fi->t_max, &q, mask);
        t_result res = {0};
        slog_query_stats st;
        CHECK_OK(slog_reader_query(rd, &q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
        t_verify_query(&m, &ix, fi, &q, &res, &st);
        t_result_free(&res);
    }
    /* The overview's previews as the batches made them. (Not the blocks':
     * the model nests states of one category on a timeline, and a block's
     * preview bin holds at most full coverage, where an overview's sums
     * over its group do not saturate.) */
    if (m.n && fi->overview_depth) {
        uint32_t unit = t_verify_root_grid(&m, rd, 0);
        CHECKF(unit == fi->group_timelines, "grid read from unit %u, the overview has groups of %u", unit,
               fi->group_timelines);
    }
    printf("  ok: %u queries, %" PRIu64 " nodes, depth %u\n", n_queries, fi->n_nodes, fi->depth);
    free(mask);
    t_index_free(&ix);
    slog_reader_close(rd);
    same_tree(ordered, batched);
    unlink(ordered);
    unlink(batched);
    unlink(again);
    free(ordered);
    free(batched);
    free(again);
    t_model_free(&m);
}

/* What slog_writer_add_batch and slog_batch_add refuse. */
static void test_refusals(const char *dir)
{
    CHECK_CONTEXT("batch refusals");
    char *path = t_path(dir, "refuse.slog2");
    slog_writer *w = NULL;
    slog_error err;
    slog_batch *b = NULL;
    /* A writer that chooses its leaf width cannot make batches. */
    CHECK_OK(slog_writer_open(&w, path, NULL, &err), &err);
    CHECK(slog_batch_new(w, &b) == SLOG_ERR_ARG && b == NULL);
    slog_writer_abort(w);

    slog_writer_options o;
    slog_writer_options_init(&o);
    o.leaf_shift = 10;
    CHECK_OK(slog_writer_open(&w, path, &o, &err), &err);
    const char *fn[] = {"x"};
    const uint8_t ft[] = {SLOG_FIELD_INT};
    slog_category cs = {SLOG_KIND_STATE, "s", "", 0xff0000ffu, 1, fn, ft};
    slog_category ce = {SLOG_KIND_EVENT, "e", "", 0x00ff00ffu, 0, NULL, NULL};
    uint32_t id;
    CHECK_OK(slog_writer_add_category(w, &cs, &id), NULL);
    CHECK_OK(slog_writer_add_category(w, &ce, &id), NULL);
    slog_timeline tl = {0, 0, "t", ""};
    CHECK_OK(slog_writer_add_timeline(w, &tl, &id), NULL);
    CHECK_OK(slog_batch_new(w, &b), NULL);
    slog_batch_begin(b, 1);
    int64_t info[1] = {7};
    slog_drawable s = {SLOG_KIND_STATE, 0, 0, 0, 1100, 1200, 1, info};
    slog_drawable e = {SLOG_KIND_EVENT, 1, 0, 0, 1300, 1300, 0, NULL};
    /* Checked by the batch: times, kinds, one kind and count per category. */
    slog_drawable bad = s;
    bad.end = 1000;
    CHECK(slog_batch_add(b, &bad) == SLOG_ERR_ARG);
    bad = e;
    bad.end = 1301;
    CHECK(slog_batch_add(b, &bad) == SLOG_ERR_ARG);
    bad = s;
    bad.start = -1;
    CHECK(slog_batch_add(b, &bad) == SLOG_ERR_ARG);
    CHECK_OK(slog_batch_add(b, &s), NULL);
    bad = s;
    bad.n_info = 0;
    CHECK(slog_batch_add(b, &bad) == SLOG_ERR_ARG);
    CHECK(slog_batch_count(b) == 1);
    /* Checked by the writer: unknown ids, kind against the category. */
    bad = e;
    bad.category = 0; /* a state category used for an event */
    slog_batch *b2 = NULL;
    CHECK_OK(slog_batch_new(w, &b2), NULL);
    slog_batch_begin(b2, 1);
    CHECK_OK(slog_batch_add(b2, &bad), NULL);
    CHECK(slog_writer_add_batch(w, b2) == SLOG_ERR_ARG);
    slog_batch_begin(b2, 1);
    bad = e;
    bad.category = 5;
    CHECK_OK(slog_batch_add(b2, &bad), NULL);
    CHECK(slog_writer_add_batch(w, b2) == SLOG_ERR_ARG);
    slog_batch_begin(b2, 1);
    bad = e;
    bad.timeline = 3;
    CHECK_OK(slog_batch_add(b2, &bad), NULL);
    CHECK(slog_writer_add_batch(w, b2) == SLOG_ERR_ARG);
    CHECK(slog_batch_count(b2) == 1); /* refused: nothing was taken */
    /* Below the floor. */
    CHECK_OK(slog_writer_advance(w, 1250), slog_writer_error(w));
    CHECK(slog_writer_add_batch(w, b) == SLOG_ERR_ORDER);
    slog_batch_begin(b, 1);
    CHECK_OK(slog_batch_add(b, &e), NULL);
    CHECK_OK(slog_writer_add_batch(w, b), slog_writer_error(w));
    /* A lower watermark changes nothing; the writer is still usable. */
    CHECK_OK(slog_writer_advance(w, 5), slog_writer_error(w));
    /* Batches raise no floor: an ordered add may end before a batch's. */
    slog_drawable late = e;
    late.start = late.end = 1240;
    CHECK(slog_writer_add(w, &late) == SLOG_ERR_ORDER);
    late.start = late.end = 1260;
    CHECK_OK(slog_writer_add(w, &late), slog_writer_error(w));
    slog_batch_free(b);
    slog_batch_free(b2);
    CHECK_OK(slog_writer_finish(w, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    CHECK(slog_reader_info(rd)->n_drawables == 2);
    CHECK_OK(slog_reader_check(rd, NULL, &err), &err);
    slog_reader_close(rd);
    unlink(path);
    free(path);
}

int main(int argc, char **argv)
{
    int vg = t_under_valgrind();
    char *dir = t_mkdtemp("batch");
    uint64_t seed = 0;
    size_t n = 3000;
    unsigned nq = 200;
    if (t_seed_args(argc, argv, &seed, &n, &nq)) {
        run_seed(seed, n, nq, dir);
    } else {
        test_refusals(dir);
        uint64_t base = (uint64_t)t_env_ll("SLOG2_SEED", 20261126);
        int seeds = vg ? 3 : 24;
        for (int k = 0; k < seeds; k++) {
            size_t nd = k % 4 == 0 ? 40 : (k % 4 == 1 ? 700 : (vg ? 1500 : 6000));
            run_seed(base + (uint64_t)k, nd, vg ? 40 : nq, dir);
        }
    }
    t_rmtree(dir);
    free(dir);
    printf("batch: ok\n");
    return 0;
}
