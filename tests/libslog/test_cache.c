/* SPDX-License-Identifier: MIT */
/* test_cache.c - the reader's node cache (slog_reader_set_cache, slog.h):
 * a cached reader delivers what an uncached one does, drawable for drawable,
 * in the same order and with the same info values (or none, for narrow ones
 * under SLOG_QUERY_NARROW_NO_INFO), for sequences of overlapping windows
 * that hit the cache and random ones, against the brute-force model too;
 * it stays within its bound and lets the oldest nodes go; it is off (all
 * counters 0) when turned off; queries from several threads sharing a
 * small cache (entries pushed out while another thread delivers them) get
 * the uncached results; a damaged node fails as it does uncached and is not
 * kept.
 *
 *   test_cache [SEED [N_DRAWABLES [N_QUERIES]]]
 */
#include "testutil.h"

#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>

static slog_cb_result count_preview(void *user, const slog_preview *p)
{
    (void)p;
    ((got_vec *)user)->previews++;
    return SLOG_CONTINUE;
}

/* The two deliveries are the same; returns a message or NULL. */
static const char *same(const got_vec *a, const got_vec *b, size_t *at)
{
    *at = 0;
    if (a->n != b->n) return "a different number of drawables";
    if (a->previews != b->previews) return "a different number of previews";
    for (size_t i = 0; i < a->n; i++) {
        const got *x = &a->g[i], *y = &b->g[i];
        *at = i;
        if (x->d.kind != y->d.kind || x->d.category != y->d.category || x->d.timeline != y->d.timeline ||
            x->d.end_timeline != y->d.end_timeline || x->d.start != y->d.start || x->d.end != y->d.end)
            return "a different drawable";
        if (x->d.n_info != y->d.n_info || x->info_null != y->info_null) return "different info counts";
        for (uint32_t f = 0; f < x->d.n_info; f++)
            if (x->info[f] != y->info[f]) return "different info values";
    }
    return NULL;
}

static void query_into(slog_reader *rd, const slog_query *q, got_vec *v)
{
    slog_error err;
    memset(v, 0, sizeof *v);
    CHECK_OK(slog_reader_query(rd, q, t_collect, count_preview, v, NULL, &err), &err);
}

/* The next window of a viewer-like walk: zoom in or out around a point,
 * pan, or jump. */
static void next_window(t_rng *r, int64_t tmin, int64_t tmax, slog_query *q)
{
    int64_t w = q->t1 - q->t0 + 1, c = q->t0 + w / 2;
    switch (t_below(r, 5)) {
    case 0: w = w * 2 / 3 + 1; break;
    case 1: w = w * 3 / 2 + 1; break;
    case 2: c += (t_chance(r, 50) ? 1 : -1) * (w / 5); break;
    case 3: c = t_range(r, tmin, tmax); break;
    default: c = (tmin + tmax) / 2, w = tmax - tmin + 1; break;
    }
    q->t0 = c - w / 2;
    q->t1 = q->t0 + w - 1;
    if (q->t0 < tmin) q->t0 = tmin;
    if (q->t1 > tmax) q->t1 = tmax;
    if (q->t1 < q->t0) q->t1 = q->t0;
}

static void check_within(slog_reader *rd, uint64_t bound)
{
    slog_cache_stats cs;
    slog_reader_cache_stats(rd, &cs);
    CHECKF(cs.max_bytes == bound, "max_bytes %" PRIu64 ", set to %" PRIu64, cs.max_bytes, bound);
    CHECKF(cs.bytes <= bound, "the cache holds %" PRIu64 " bytes over its bound of %" PRIu64, cs.bytes, bound);
    CHECKF(cs.entries <= cs.misses, "%" PRIu64 " entries from %" PRIu64 " misses", cs.entries, cs.misses);
}

static void run_seed(uint64_t seed, size_t n_draw, unsigned n_queries, const char *dir)
{
    t_rng r = {seed};
    t_model m;
    t_gen_params gp = {n_draw, 8, 6};
    CHECK_CONTEXT("seed %" PRIu64 " (rerun: test_cache %" PRIu64 " %zu %u)", seed, seed, n_draw, n_queries);
    char *path = t_write_random(&m, &r, &gp, 0, 16, dir, "cache.slog2");
    slog_error err;
    slog_reader *plain, *big, *small;
    CHECK_OK(slog_reader_open(&plain, path, &err), &err);
    CHECK_OK(slog_reader_open(&big, path, &err), &err);
    CHECK_OK(slog_reader_open(&small, path, &err), &err);
    slog_cache_stats cs;
    slog_reader_cache_stats(big, &cs);
    CHECK(cs.max_bytes == 0 && cs.entries == 0 && cs.hits == 0 && cs.misses == 0);
    /* big holds the whole file; small a few nodes, so it evicts all along */
    const uint64_t big_bound = (uint64_t)1 << 30, small_bound = 4096;
    CHECK(slog_reader_set_cache(big, big_bound) == SLOG_OK);
    CHECK(slog_reader_set_cache(small, small_bound) == SLOG_OK);
    const slog_file_info *fi = slog_reader_info(plain);
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    uint8_t *mask = malloc(m.n_tls + 1);
    CHECK(mask);
    slog_query walk = {.t0 = fi->t_min, .t1 = fi->t_max};
    for (unsigned qi = 0; qi < n_queries; qi++) {
        slog_query q;
        if (qi % 2) {
            t_random_query(&r, &m, fi->t_min, fi->t_max, &q, mask);
        } else {
            next_window(&r, fi->t_min, fi->t_max, &walk);
            q = walk;
            q.pixel_ns = t_chance(&r, 20) ? 0 : 1 + (q.t1 - q.t0) / (int64_t)(8 + t_below(&r, 200));
            q.flags = t_chance(&r, 50) ? SLOG_QUERY_NARROW_NO_INFO : 0;
            if (t_chance(&r, 20)) {
                for (uint32_t i = 0; i < m.n_tls; i++) mask[i] = (uint8_t)t_chance(&r, 60);
                q.timelines = mask;
            }
        }
        got_vec want, a, b;
        query_into(plain, &q, &want);
        /* twice: a fill, then (mostly) hits */
        for (int rep = 0; rep < 2; rep++) {
            query_into(big, &q, &a);
            query_into(small, &q, &b);
            size_t at;
            const char *why = same(&want, &a, &at);
            CHECKF(!why, "query %u (round %d), cache of the whole file: %s at drawable %zu", qi, rep, why, at);
            why = same(&want, &b, &at);
            CHECKF(!why, "query %u (round %d), small cache: %s at drawable %zu", qi, rep, why, at);
            free(a.g);
            free(b.g);
            check_within(big, big_bound);
            check_within(small, small_bound);
        }
        free(want.g);
        t_result res = {0};
        slog_query_stats st;
        CHECK_OK(slog_reader_query(big, &q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
        /* the model knows nothing of stats from the cache: compare what
         * was delivered only */
        CHECKF(st.drawables == res.dv.n, "query %u: stats count %" PRIu64 " drawables, %zu delivered", qi, st.drawables,
               res.dv.n);
        t_result_free(&res);
    }
    slog_reader_cache_stats(big, &cs);
    CHECKF(cs.hits > 0 && cs.misses > 0 && cs.evictions == 0 && cs.entries == cs.misses,
           "whole-file cache: %" PRIu64 " hits, %" PRIu64 " misses, %" PRIu64 " evictions, %" PRIu64 " entries",
           cs.hits, cs.misses, cs.evictions, cs.entries);
    slog_cache_stats ss;
    slog_reader_cache_stats(small, &ss);
    CHECKF(ss.evictions > 0 && ss.misses > cs.misses,
           "small cache: %" PRIu64 " evictions, %" PRIu64 " misses (whole-file cache: %" PRIu64 ")", ss.evictions,
           ss.misses, cs.misses);
    /* a second query of what is all in the big cache reads nothing */
    slog_query all = {.t0 = fi->t_min, .t1 = fi->t_max, .flags = SLOG_QUERY_NO_PREVIEW};
    got_vec g;
    query_into(big, &all, &g);
    free(g.g);
    slog_query_stats st;
    g = (got_vec){0};
    uint64_t hits_before;
    slog_reader_cache_stats(big, &cs);
    hits_before = cs.hits;
    CHECK_OK(slog_reader_query(big, &all, t_collect, count_preview, &g, &st, &err), &err);
    free(g.g);
    slog_reader_cache_stats(big, &cs);
    CHECKF(st.bytes_read == 0 && st.nodes_read == 0 && cs.hits > hits_before,
           "the whole file again from the cache read %" PRIu64 " bytes of %" PRIu64 " nodes", st.bytes_read,
           st.nodes_read);
    /* shrinking lets the oldest go at once; 0 turns it off */
    CHECK(slog_reader_set_cache(big, small_bound) == SLOG_OK);
    check_within(big, small_bound);
    CHECK(slog_reader_set_cache(big, 0) == SLOG_OK);
    slog_reader_cache_stats(big, &cs);
    CHECK(cs.max_bytes == 0 && cs.entries == 0 && cs.bytes == 0 && cs.hits == 0);
    free(mask);
    t_index_free(&ix);
    slog_reader_close(plain);
    slog_reader_close(big);
    slog_reader_close(small);
    unlink(path);
    free(path);
    t_model_free(&m);
}

/* ------------------------------------------------------------ threads */

typedef struct job {
    slog_reader *rd;
    const slog_query *qs;
    const got_vec *want;
    unsigned n, first;
    int bad;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    for (unsigned k = 0; k < 4 * j->n && !j->bad; k++) {
        unsigned i = (j->first + k) % j->n;
        got_vec v = {0};
        slog_error err;
        if (slog_reader_query(j->rd, &j->qs[i], t_collect, count_preview, &v, NULL, &err) != SLOG_OK) j->bad = 1;
        size_t at;
        if (same(&j->want[i], &v, &at)) j->bad = 1;
        free(v.g);
    }
    return NULL;
}

static void run_threads(uint64_t seed, const char *dir)
{
    t_rng r = {seed};
    t_model m;
    t_gen_params gp = {3000, 8, 6};
    CHECK_CONTEXT("threads, seed %" PRIu64, seed);
    char *path = t_write_random(&m, &r, &gp, 16, 0, dir, "threads.slog2");
    slog_error err;
    slog_reader *plain, *cached;
    CHECK_OK(slog_reader_open(&plain, path, &err), &err);
    CHECK_OK(slog_reader_open(&cached, path, &err), &err);
    CHECK(slog_reader_set_cache(cached, 16384) == SLOG_OK);
    const slog_file_info *fi = slog_reader_info(plain);
    enum { NQ = 24, NT = 4 };
    slog_query qs[NQ];
    got_vec want[NQ];
    slog_query w = {.t0 = fi->t_min, .t1 = fi->t_max};
    for (unsigned i = 0; i < NQ; i++) {
        next_window(&r, fi->t_min, fi->t_max, &w);
        qs[i] = w;
        qs[i].pixel_ns = i % 3 ? 1 + (w.t1 - w.t0) / 64 : 0;
        qs[i].flags = i % 2 ? SLOG_QUERY_NARROW_NO_INFO : 0;
        query_into(plain, &qs[i], &want[i]);
    }
    pthread_t th[NT];
    job jobs[NT];
    for (unsigned t = 0; t < NT; t++) {
        jobs[t] = (job){cached, qs, want, NQ, t * 5, 0};
        CHECK(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
    }
    for (unsigned t = 0; t < NT; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
        CHECKF(!jobs[t].bad, "thread %u got something else than the uncached reader", t);
    }
    slog_cache_stats cs;
    slog_reader_cache_stats(cached, &cs);
    CHECKF(cs.hits > 0 && cs.evictions > 0 && cs.bytes <= 16384,
           "%" PRIu64 " hits, %" PRIu64 " evictions, %" PRIu64 " bytes", cs.hits, cs.evictions, cs.bytes);
    for (unsigned i = 0; i < NQ; i++) free(want[i].g);
    slog_reader_close(plain);
    slog_reader_close(cached);
    unlink(path);
    free(path);
    t_model_free(&m);
}

/* ------------------------------------------------------------ damage */

/* A node block with a flipped byte: the cached reader fails with the
 * uncached one's status and offset, and does not keep the node. */
static void run_damaged(uint64_t seed, const char *dir)
{
    t_rng r = {seed};
    t_model m;
    t_gen_params gp = {2000, 4, 4};
    CHECK_CONTEXT("damaged node, seed %" PRIu64, seed);
    char *path = t_write_random(&m, &r, &gp, 8, 0, dir, "damaged.slog2");
    slog_error err;
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    /* the middle of the largest node's records */
    slog_node_info ni, best = {0};
    for (uint64_t i = 0; i < slog_reader_info(rd)->n_nodes; i++)
        if (slog_reader_node(rd, i, &ni) == SLOG_OK && ni.tree != SLOG_TREE_OVERVIEW && ni.size > best.size) best = ni;
    slog_reader_close(rd);
    CHECK(best.size > 64);
    size_t len;
    unsigned char *bytes = t_read_file(path, &len);
    CHECK(bytes && best.offset + best.size <= len);
    bytes[best.offset + best.size / 2] ^= 0x5a;
    CHECK(t_write_file(path, bytes, len) == 0);
    free(bytes);
    slog_reader *plain, *cached;
    CHECK_OK(slog_reader_open(&plain, path, &err), &err);
    CHECK_OK(slog_reader_open(&cached, path, &err), &err);
    CHECK(slog_reader_set_cache(cached, (uint64_t)1 << 30) == SLOG_OK);
    slog_query q = {.t0 = best.lo, .t1 = best.hi - 1, .flags = SLOG_QUERY_NO_PREVIEW};
    slog_error e1, e2;
    got_vec a = {0}, b = {0};
    slog_status s1 = slog_reader_query(plain, &q, t_collect, NULL, &a, NULL, &e1);
    for (int rep = 0; rep < 2; rep++) {
        free(b.g);
        b = (got_vec){0};
        slog_status s2 = slog_reader_query(cached, &q, t_collect, NULL, &b, NULL, &e2);
        CHECKF(s1 != SLOG_OK && s2 == s1 && e2.offset == e1.offset,
               "round %d: uncached %s at %" PRIu64 ", cached %s at %" PRIu64, rep, slog_strerror(s1), e1.offset,
               slog_strerror(s2), e2.offset);
    }
    free(a.g);
    free(b.g);
    slog_reader_close(plain);
    slog_reader_close(cached);
    unlink(path);
    free(path);
    t_model_free(&m);
}

static void run_more(uint64_t base, const char *dir)
{
    run_threads(base, dir);
    run_damaged(base, dir);
}

int main(int argc, char **argv)
{
    t_seed_plan p = {"cache", 20261127, 8, 2, 2000, 300, 60, 20};
    return t_seed_main(argc, argv, &p, run_seed, run_more);
}
