/* SPDX-License-Identifier: MIT */
/* test_narrow_info.c - SLOG_QUERY_NARROW_NO_INFO (slog.h): the same window
 * query with and without the flag delivers the same drawables in the same
 * order; under the flag the states and arrows shorter than pixel_ns carry no
 * info (n_info 0, info NULL) and every other drawable carries exactly the
 * values it carries without the flag, which t_verify_query checks against
 * the brute-force model.
 *
 *   test_narrow_info [SEED [N_DRAWABLES [N_QUERIES]]]
 *
 * Random models (t_model_random: extreme info values, so varints of every
 * length, up to 10 bytes) with small leaves, so that many records sit at the
 * end of a node block, where skipping takes the checked path. pixel_ns is
 * often a drawable's own duration or one more, to hit the boundary. */
#include "testutil.h"

#include <inttypes.h>
#include <unistd.h>

static int is_narrow(const slog_drawable *d, int64_t pixel_ns)
{
    uint64_t dur = d->end > d->start ? (uint64_t)(d->end - d->start) : (uint64_t)(d->start - d->end);
    return d->kind != SLOG_KIND_EVENT && dur < (uint64_t)pixel_ns;
}

static void random_query(t_rng *r, const t_model *m, int64_t tmin, int64_t tmax, slog_query *q, uint8_t *mask)
{
    memset(q, 0, sizeof *q);
    int64_t span = tmax - tmin;
    if (t_chance(r, 30)) {
        q->t0 = tmin, q->t1 = tmax;
    } else {
        q->t0 = t_range(r, tmin, tmax);
        q->t1 = q->t0 + t_range(r, 0, span / 4 + 1);
    }
    if (t_chance(r, 25)) {
        for (uint32_t i = 0; i < m->n_tls; i++) mask[i] = (uint8_t)t_chance(r, 50);
        q->timelines = mask;
    }
    const t_draw *d = &m->d[t_below(r, m->n)];
    int64_t dur = t_dhi(d) - t_dlo(d);
    switch (t_below(r, 6)) {
    case 0: q->pixel_ns = 0; break;
    case 1: q->pixel_ns = dur; break;     /* d itself is not narrow */
    case 2: q->pixel_ns = dur + 1; break; /* d is (unless an event) */
    case 3: q->pixel_ns = INT64_MAX; break;
    default: q->pixel_ns = 1 + t_range(r, 0, (q->t1 - q->t0) / 64 + 1); break;
    }
    /* NO_PREVIEW: every matching drawable is delivered, so most of them
     * pass through the flag's test */
    if (t_chance(r, 50)) q->flags = SLOG_QUERY_NO_PREVIEW;
}

static void run_seed(uint64_t seed, size_t n_draw, unsigned n_queries, const char *dir)
{
    t_rng r = {seed};
    t_model m;
    t_gen_params gp = {n_draw, 8, 6};
    CHECK_CONTEXT("seed %" PRIu64 " (rerun: test_narrow_info %" PRIu64 " %zu %u)", seed, seed, n_draw, n_queries);
    char *path = t_write_random(&m, &r, &gp, 0, 16, dir, "narrow.slog2");
    slog_error err;
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    t_index ix;
    t_model_index_by_lo(&m, &ix);
    uint8_t *mask = malloc(m.n_tls + 1);
    CHECK(mask);
    unsigned long long n_narrow = 0, n_full = 0;
    for (unsigned qi = 0; qi < n_queries; qi++) {
        slog_query q;
        random_query(&r, &m, fi->t_min, fi->t_max, &q, mask);
        t_result res = {0};
        slog_query_stats st, st_flag;
        CHECK_OK(slog_reader_query(rd, &q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
        t_verify_query(&m, &ix, fi, &q, &res, &st);
        got_vec plain = {0}, flag = {0};
        CHECK_OK(slog_reader_query(rd, &q, t_collect, NULL, &plain, NULL, &err), &err);
        slog_query qf = q;
        qf.flags |= SLOG_QUERY_NARROW_NO_INFO;
        CHECK_OK(slog_reader_query(rd, &qf, t_collect, NULL, &flag, &st_flag, &err), &err);
        CHECKF(plain.n == res.dv.n, "query %u: %zu drawables, then %zu", qi, res.dv.n, plain.n);
        CHECKF(flag.n == plain.n, "query %u (pixel_ns %" PRId64 "): %zu drawables with the flag, %zu without", qi,
               q.pixel_ns, flag.n, plain.n);
        CHECK(st_flag.drawables == st.drawables && st_flag.previews == st.previews &&
              st_flag.nodes_read == st.nodes_read && st_flag.bytes_read == st.bytes_read);
        for (size_t i = 0; i < flag.n; i++) {
            const got *a = &plain.g[i], *b = &flag.g[i];
            CHECKF(a->d.kind == b->d.kind && a->d.category == b->d.category && a->d.timeline == b->d.timeline &&
                       a->d.end_timeline == b->d.end_timeline && a->d.start == b->d.start && a->d.end == b->d.end,
                   "query %u drawable %zu differs with the flag", qi, i);
            uint32_t nf = slog_reader_category(rd, a->d.category)->n_fields;
            CHECKF(a->d.n_info == nf && !a->info_null, "query %u drawable %zu: n_info %u of %u without the flag", qi, i,
                   a->d.n_info, nf);
            if (is_narrow(&b->d, q.pixel_ns)) {
                CHECKF(b->d.n_info == 0 && b->info_null,
                       "query %u drawable %zu (kind %d, %" PRId64 "..%" PRId64 ", pixel_ns %" PRId64
                       "): narrow but n_info %u, info %s",
                       qi, i, (int)b->d.kind, b->d.start, b->d.end, q.pixel_ns, b->d.n_info,
                       b->info_null ? "NULL" : "set");
                n_narrow++;
                continue;
            }
            CHECKF(b->d.n_info == nf && !b->info_null,
                   "query %u drawable %zu (kind %d, %" PRId64 "..%" PRId64 ", pixel_ns %" PRId64
                   "): not narrow but n_info %u of %u",
                   qi, i, (int)b->d.kind, b->d.start, b->d.end, q.pixel_ns, b->d.n_info, nf);
            for (uint32_t f = 0; f < nf; f++)
                CHECKF(a->info[f] == b->info[f],
                       "query %u drawable %zu field %u: %" PRId64 " with the flag, %" PRId64 " without", qi, i, f,
                       b->info[f], a->info[f]);
            n_full++;
        }
        free(plain.g);
        free(flag.g);
        t_result_free(&res);
    }
    printf("%s: %zu drawables, %u queries; delivered under the flag: %llu without info, %llu with\n", check_context,
           m.n, n_queries, n_narrow, n_full);
    CHECKF(m.n < 50 || (n_narrow > 0 && n_full > 0), "the queries exercised only one side of the flag");
    free(mask);
    t_index_free(&ix);
    slog_reader_close(rd);
    unlink(path);
    free(path);
    t_model_free(&m);
}

int main(int argc, char **argv)
{
    t_seed_plan p = {"narrow", 20261124, 12, 3, 2000, 300, 100, 30};
    return t_seed_main(argc, argv, &p, run_seed, NULL);
}
