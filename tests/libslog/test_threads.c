/* SPDX-License-Identifier: MIT */
/* test_threads.c - several threads querying one reader at once get the same
 * results as sequential queries (slog.h: "safe to query from several threads
 * at once"). Results are compared as order-independent digests of every
 * delivered drawable and preview row.
 *
 *   test_threads [SEED] */
#include "testutil.h"

#include <inttypes.h>
#include <pthread.h>
#include <unistd.h>

typedef struct digest {
    uint64_t n_draw, n_prev, sum, xr;
    slog_status st;
} digest;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

static void add_hash(digest *d, uint64_t h)
{
    d->sum += h;
    d->xr ^= h * 0xc4ceb9fe1a85ec53ull;
}

static slog_cb_result dg_drawable(void *user, const slog_drawable *s)
{
    digest *d = user;
    uint64_t h = mix(mix(mix(mix(1, (uint64_t)s->start), (uint64_t)s->end), s->timeline),
                     ((uint64_t)s->end_timeline << 32) | s->category);
    h = mix(h, ((uint64_t)s->kind << 32) | s->n_info);
    for (uint32_t i = 0; i < s->n_info; i++) h = mix(h, (uint64_t)s->info[i]);
    add_hash(d, h);
    d->n_draw++;
    return SLOG_CONTINUE;
}

static slog_cb_result dg_preview(void *user, const slog_preview *p)
{
    digest *d = user;
    uint64_t base = mix(mix(mix(2, (uint64_t)p->lo), (uint64_t)p->hi), ((uint64_t)p->level << 32) | p->n_bins);
    add_hash(d, base);
    for (uint32_t r = 0; r < p->n_rows; r++) {
        uint64_t h = mix(base, ((uint64_t)p->rows[r].timeline << 32) | p->rows[r].category);
        for (uint32_t j = 0; j < p->n_bins; j++) {
            uint32_t bits;
            memcpy(&bits, &p->rows[r].values[j], 4);
            h = mix(h, bits);
        }
        add_hash(d, h);
    }
    d->n_prev++;
    return SLOG_CONTINUE;
}

static int dg_equal(const digest *a, const digest *b)
{
    return a->n_draw == b->n_draw && a->n_prev == b->n_prev && a->sum == b->sum && a->xr == b->xr && a->st == b->st;
}

typedef struct job {
    slog_reader *rd;
    const slog_query *qs;
    const digest *want;
    unsigned n_q, rounds, tid;
    unsigned mismatches;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    t_rng r = {1000 + j->tid};
    for (unsigned round = 0; round < j->rounds; round++)
        for (unsigned k = 0; k < j->n_q; k++) {
            unsigned qi = (unsigned)((k * 7919u + j->tid * 104729u + round * 31u + t_below(&r, 3)) % j->n_q);
            digest d = {0};
            slog_error err;
            d.st = slog_reader_query(j->rd, &j->qs[qi], dg_drawable, dg_preview, &d, NULL, &err);
            if (!dg_equal(&d, &j->want[qi])) {
                if (j->mismatches++ < 5)
                    fprintf(stderr,
                            "thread %u query %u: %" PRIu64 " drawables %" PRIu64 " previews st %d, "
                            "sequential gave %" PRIu64 " / %" PRIu64 " st %d\n",
                            j->tid, qi, d.n_draw, d.n_prev, (int)d.st, j->want[qi].n_draw, j->want[qi].n_prev,
                            (int)j->want[qi].st);
            }
        }
    return NULL;
}

int main(int argc, char **argv)
{
    int vg = t_under_valgrind();
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 777;
    char *dir = t_mkdtemp("threads");
    char *path = t_path(dir, "threads.slog2");
    t_rng r = {seed};
    t_model m;
    t_model_init(&m);
    t_gen_params gp = {vg ? 1500 : 20000, 16, 6};
    t_model_random(&m, &r, &gp);
    CHECK_CONTEXT("threads seed %" PRIu64 ", %zu drawables", seed, m.n);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.leaf_drawables = 16;
    slog_error err;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);

    unsigned n_q = vg ? 24 : 150, n_threads = vg ? 3 : 6, rounds = vg ? 1 : 2;
    slog_query *qs = calloc(n_q, sizeof *qs);
    digest *want = calloc(n_q, sizeof *want);
    uint8_t *masks = calloc((size_t)n_q * m.n_tls + 1, 1);
    CHECK(qs && want && masks);
    int64_t span = fi->t_max - fi->t_min;
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    for (unsigned i = 0; i < n_q; i++) {
        slog_query *q = &qs[i];
        q->t0 = fi->t_min + (int64_t)t_below(&r, (uint64_t)span + 1);
        q->t1 = i % 5 == 0 ? fi->t_max : q->t0 + (int64_t)t_below(&r, (uint64_t)(fi->t_max - q->t0) + 1);
        q->pixel_ns = i % 3 == 0 ? 0 : (q->t1 - q->t0) / (1 + (int64_t)t_below(&r, 4000)) + 1;
        if (i % 2) {
            for (uint32_t k = 0; k < m.n_tls; k++) masks[(size_t)i * m.n_tls + k] = t_chance(&r, 50);
            q->timelines = masks + (size_t)i * m.n_tls;
        }
        /* sequential reference, itself checked against the model */
        want[i].st = slog_reader_query(rd, q, dg_drawable, dg_preview, &want[i], NULL, &err);
        CHECK_OK(want[i].st, &err);
        if (i < (vg ? 4u : 40u)) {
            t_result res = {0};
            slog_query_stats st;
            CHECK_OK(slog_reader_query(rd, q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
            t_verify_query(&m, &ix, fi, q, &res, &st);
            t_result_free(&res);
        }
    }
    uint64_t bytes_before = slog_reader_bytes_read(rd);
    double t0 = t_now();
    pthread_t th[16];
    job jobs[16];
    for (unsigned t = 0; t < n_threads; t++) {
        jobs[t] = (job){rd, qs, want, n_q, rounds, t, 0};
        CHECK(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
    }
    unsigned bad = 0;
    for (unsigned t = 0; t < n_threads; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
        bad += jobs[t].mismatches;
    }
    double dt = t_now() - t0;
    CHECKF(bad == 0, "%u concurrent query results differ from sequential ones", bad);
    CHECK(slog_reader_bytes_read(rd) >= bytes_before);
    printf("%u threads x %u rounds x %u queries: all equal to sequential (%.2f s); reader read %" PRIu64
           " bytes in %" PRIu64 " nodes over its lifetime\n",
           n_threads, rounds, n_q, dt, slog_reader_bytes_read(rd), slog_reader_nodes_read(rd));
    /* slog_reader_check concurrently with queries as well */
    for (unsigned t = 0; t < n_threads; t++) {
        jobs[t] = (job){rd, qs, want, n_q, 1, t, 0};
        CHECK(pthread_create(&th[t], NULL, worker, &jobs[t]) == 0);
    }
    CHECK_OK(slog_reader_check(rd, NULL, &err), &err);
    for (unsigned t = 0; t < n_threads; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
        CHECKF(jobs[t].mismatches == 0, "thread %u: results differ while slog_reader_check ran", t);
    }

    t_index_free(&ix);
    free(qs);
    free(want);
    free(masks);
    slog_reader_close(rd);
    t_model_free(&m);
    t_rmtree(dir);
    free(dir);
    free(path);
    printf("PASS\n");
    return 0;
}
