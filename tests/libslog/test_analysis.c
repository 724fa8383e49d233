/* SPDX-License-Identifier: MIT */
/* test_analysis.c - slog_reader_analyse (matrix and profile of a window)
 * against a brute-force model over the drawables written: random traces
 * with deeply nested states, states of equal intervals, zero-length
 * states, arrows across blocks (mirrors) and backwards, unknown sizes;
 * many windows, whole span and edges that cut states. Written with small
 * leaves and summaries on small subtrees so that answers mix summaries and
 * records; each is also compared with the answer read without summaries.
 * Every summary written is what slog_reader_check_summaries recomputes from
 * the records, and one changed (its checksum made right) is found. Files
 * written with no_summaries_below have none in those blocks and give the
 * same answers; the
 * writer's summaries pay only where slog_summaries_may_pay says they may. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

typedef struct cell {
    uint32_t s, r;
    uint64_t n, bytes, unknown;
    int64_t time;
} cell;

typedef struct prow {
    uint32_t tl, cat;
    uint64_t calls;
    int64_t incl, excl, mn, mx;
} prow;

static const t_model *g_m;

static int bytes_field(const t_model *m, uint32_t k)
{
    for (uint32_t f = 0; f < m->cats[k].n_fields; f++)
        if (m->cats[k].field_types[f] == SLOG_FIELD_BYTES) return (int)f;
    return -1;
}

/* The parent order of docs/ANALYSIS.md: timeline, start, end descending,
 * category. */
static int cmp_state_ix(const void *a, const void *b)
{
    const t_draw *x = &g_m->d[*(const size_t *)a], *y = &g_m->d[*(const size_t *)b];
    if (x->tl != y->tl) return x->tl < y->tl ? -1 : 1;
    if (x->start != y->start) return x->start < y->start ? -1 : 1;
    if (x->end != y->end) return x->end > y->end ? -1 : 1;
    return x->cat < y->cat ? -1 : x->cat > y->cat;
}

/* Brute force: check a's matrix and profile for [t0, t1]. */
static void check_window(const t_model *m, const slog_analysis *a, int64_t t0, int64_t t1)
{
    size_t nc, np;
    const slog_matrix_cell *gc = slog_analysis_matrix(a, &nc);
    const slog_profile_row *gp = slog_analysis_profile(a, &np);
    uint32_t T = m->n_tls, K = m->n_cats;
    cell *cells = calloc((size_t)T * T + 1, sizeof *cells);
    prow *rows = calloc((size_t)T * K + 1, sizeof *rows);
    size_t *ix = malloc((m->n + 1) * sizeof *ix), n = 0;
    int64_t *child = calloc(m->n + 1, sizeof *child);
    size_t *stack = malloc((m->n + 1) * sizeof *stack);
    CHECK(cells && rows && ix && child && stack);
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        if (d->kind == SLOG_KIND_ARROW && d->start >= t0 && d->start <= t1) {
            cell *c = &cells[(size_t)d->tl * T + d->etl];
            int f = bytes_field(m, d->cat);
            int64_t b = f >= 0 && (uint32_t)f < d->n_info ? d->info[f] : SLOG_INFO_UNKNOWN;
            c->n++;
            if (b >= 0)
                c->bytes += (uint64_t)b;
            else
                c->unknown++;
            c->time += d->end - d->start;
        }
        if (d->kind == SLOG_KIND_STATE && d->start <= t1 && d->end >= t0) ix[n++] = i;
    }
    g_m = m;
    qsort(ix, n, sizeof *ix, cmp_state_ix);
    size_t top = 0;
    for (size_t k = 0; k < n; k++) {
        const t_draw *d = &m->d[ix[k]];
        if (k && m->d[ix[k - 1]].tl != d->tl) top = 0;
        while (top && m->d[stack[top - 1]].end < d->end) top--;
        int64_t clip = (d->end < t1 ? d->end : t1) - (d->start > t0 ? d->start : t0);
        if (top) child[stack[top - 1]] += clip;
        stack[top++] = ix[k];
    }
    for (size_t k = 0; k < n; k++) {
        const t_draw *d = &m->d[ix[k]];
        int64_t clip = (d->end < t1 ? d->end : t1) - (d->start > t0 ? d->start : t0);
        prow *p = &rows[(size_t)d->tl * K + d->cat];
        if (!p->calls) p->mn = INT64_MAX;
        p->calls++;
        p->incl += clip;
        p->excl += clip - child[ix[k]];
        if (clip < p->mn) p->mn = clip;
        if (clip > p->mx) p->mx = clip;
    }
    size_t want = 0;
    for (size_t i = 0; i < (size_t)T * T; i++)
        if (cells[i].n) {
            CHECKF(want < nc, "window %" PRId64 ":%" PRId64 ": fewer cells than %zu", t0, t1, want + 1);
            const slog_matrix_cell *g = &gc[want++];
            CHECKF(g->sender == i / T && g->receiver == i % T && g->messages == cells[i].n &&
                       g->bytes == cells[i].bytes && g->unknown_bytes == cells[i].unknown &&
                       g->time_ns == cells[i].time,
                   "window %" PRId64 ":%" PRId64 " cell %zu->%zu: got %u->%u n %" PRIu64 " bytes %" PRIu64
                   " unknown %" PRIu64 " time %" PRId64 ", want n %" PRIu64 " bytes %" PRIu64 " unknown %" PRIu64
                   " time %" PRId64,
                   t0, t1, i / T, i % T, g->sender, g->receiver, g->messages, g->bytes, g->unknown_bytes, g->time_ns,
                   cells[i].n, cells[i].bytes, cells[i].unknown, cells[i].time);
        }
    CHECK_EQ(nc, want);
    want = 0;
    for (size_t i = 0; i < (size_t)T * K; i++)
        if (rows[i].calls) {
            CHECKF(want < np, "window %" PRId64 ":%" PRId64 ": fewer rows", t0, t1);
            const slog_profile_row *g = &gp[want++];
            const prow *w = &rows[i];
            CHECKF(g->timeline == i / K && g->category == i % K && g->calls == w->calls && g->inclusive_ns == w->incl &&
                       g->exclusive_ns == w->excl && g->min_ns == w->mn && g->max_ns == w->mx,
                   "window %" PRId64 ":%" PRId64 " row (%zu, %zu): got (%u, %u) calls %" PRIu64 " incl %" PRId64
                   " excl %" PRId64 " min %" PRId64 " max %" PRId64 ", want calls %" PRIu64 " incl %" PRId64
                   " excl %" PRId64 " min %" PRId64 " max %" PRId64,
                   t0, t1, i / K, i % K, g->timeline, g->category, g->calls, g->inclusive_ns, g->exclusive_ns,
                   g->min_ns, g->max_ns, w->calls, w->incl, w->excl, w->mn, w->mx);
        }
    CHECK_EQ(np, want);
    free(cells);
    free(rows);
    free(ix);
    free(child);
    free(stack);
}

/* States nested to depth 6 on each timeline, some of equal intervals,
 * zero-length ones and ones that touch; messages between timelines, some
 * of unknown size; events. */
static void nest(t_model *m, t_rng *r, uint32_t tl, int64_t a, int64_t b, int depth, const uint32_t *cats)
{
    int64_t t = a;
    while (t < b) {
        int64_t s = t + (t_chance(r, 30) ? 0 : t_range(r, 0, (b - a) / 8 + 1));
        int64_t e = s + t_range(r, 0, (b - a) / 3 + 1);
        if (e > b) e = b;
        if (s > e) break;
        t_draw *d = t_model_push(m);
        *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = cats[t_below(r, 4)], .tl = tl, .etl = tl, .start = s, .end = e};
        if (t_chance(r, 5)) {
            t_draw *e2 = t_model_push(m);
            *e2 = m->d[m->n - 2];
            e2->cat = cats[t_below(r, 4)];
        }
        if (depth < 6 && e - s > 4 && t_chance(r, 60)) nest(m, r, tl, s, e, depth + 1, cats);
        t = e + (t_chance(r, 30) ? 0 : 1);
    }
}

static void gen_nested(t_model *m, t_rng *r, uint32_t n_tl, int64_t span)
{
    t_model_init(m);
    uint32_t cats[4];
    for (int i = 0; i < 4; i++) {
        char name[16];
        snprintf(name, sizeof name, "S%d", i);
        cats[i] = t_model_add_cat(m, SLOG_KIND_STATE, name, 0);
    }
    uint32_t msg = t_model_add_cat(m, SLOG_KIND_ARROW, "message", 2);
    m->cats[msg].field_types[0] = SLOG_FIELD_INT;
    m->cats[msg].field_types[1] = SLOG_FIELD_BYTES;
    uint32_t ev = t_model_add_cat(m, SLOG_KIND_EVENT, "E", 0);
    for (uint32_t i = 0; i < n_tl; i++) t_model_add_tl(m, i, 0);
    for (uint32_t i = 0; i < n_tl; i++) nest(m, r, i, 0, span, 0, cats);
    for (int i = 0; i < 3000; i++) {
        t_draw *d = t_model_push(m);
        int64_t s = t_range(r, 0, span), e = s + t_range(r, -span / 100, span / 20);
        if (e < 0) e = 0;
        *d = (t_draw){.kind = SLOG_KIND_ARROW,
                      .cat = msg,
                      .tl = (uint32_t)t_below(r, n_tl),
                      .etl = (uint32_t)t_below(r, n_tl),
                      .start = s,
                      .end = e,
                      .n_info = 2};
        d->info[0] = 7;
        d->info[1] = t_chance(r, 10) ? SLOG_INFO_UNKNOWN : t_range(r, 0, 1 << 20);
    }
    for (int i = 0; i < 200; i++) {
        t_draw *d = t_model_push(m);
        int64_t s = t_range(r, 0, span);
        *d = (t_draw){.kind = SLOG_KIND_EVENT, .cat = ev, .tl = (uint32_t)t_below(r, n_tl), .start = s, .end = s};
        d->etl = d->tl;
    }
    t_model_sort_end_order(m);
}

static uint64_t summaries_used, summaries_checked, summaries_damaged;

static uint64_t le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* The file with its first summary block's "nesting incomplete" flag (the
 * byte after its 16 fixed ones) flipped and its CRC32C made right: a
 * summary that decodes but is not its records' one. 0 when the file has
 * no summary. The blocks are found by their tag, length and checksum. */
static int damage_summary(const char *path)
{
    size_t n;
    unsigned char *b = t_read_file(path, &n);
    CHECK(b);
    int done = 0;
    for (size_t off = 0; !done && off + 16 + 17 <= n; off++) {
        if (memcmp(b + off, "SUMM", 4) != 0) continue;
        uint64_t len = le64(b + off + 8);
        if (len < 17 || len > n - off - 16) continue;
        uint32_t crc =
            (uint32_t)b[off + 4] | (uint32_t)b[off + 5] << 8 | (uint32_t)b[off + 6] << 16 | (uint32_t)b[off + 7] << 24;
        if (t_crc32c(b + off + 16, (size_t)len) != crc) continue;
        b[off + 16 + 16] ^= 1;
        crc = t_crc32c(b + off + 16, (size_t)len);
        for (int i = 0; i < 4; i++) b[off + 4 + i] = (unsigned char)(crc >> (8 * i));
        done = 1;
    }
    if (done) CHECK(t_write_file(path, b, n) == 0);
    free(b);
    return done;
}

static void run_model(const t_model *m, t_rng *r, const slog_writer_options *o, unsigned n_windows)
{
    char *dir = t_mkdtemp("analysis");
    char *path = t_path(dir, "a.slog2");
    slog_error err;
    CHECKF(t_model_write(m, path, o, &err) == SLOG_OK, "%s", err.message);
    slog_reader *rd;
    CHECKF(slog_reader_open(&rd, path, &err) == SLOG_OK, "%s", err.message);
    CHECKF(slog_reader_check(rd, NULL, &err) == SLOG_OK, "%s", err.message);
    uint64_t n_checked;
    CHECKF(slog_reader_check_summaries(rd, &n_checked, NULL, &err) == SLOG_OK, "%s", err.message);
    summaries_checked += n_checked;
    const slog_file_info *fi = slog_reader_info(rd);
    for (unsigned w = 0; w < n_windows + 2; w++) {
        int64_t t0, t1;
        if (w == 0) {
            t0 = fi->t_min, t1 = fi->t_max;
        } else if (w == 1) {
            t0 = 0, t1 = INT64_MAX / 2;
        } else {
            t0 = t_range(r, fi->t_min, fi->t_max + 1);
            t1 = t_chance(r, 20) ? t0 : t_range(r, t0, fi->t_max + 2);
        }
        for (int mode = 0; mode < 3; mode++) {
            slog_analysis_query q = {.t0 = t0, .t1 = t1};
            q.flags = mode == 0 ? 0 : mode == 1 ? SLOG_ANALYSIS_NO_SUMMARY : SLOG_ANALYSIS_PROFILE;
            slog_analysis *a;
            slog_query_stats qs;
            CHECKF(slog_reader_analyse(rd, &q, &a, &qs, &err) == SLOG_OK, "%s", err.message);
            if (mode == 1) CHECK_EQ(qs.previews, 0);
            summaries_used += qs.previews;
            if (mode == 2) {
                size_t n;
                slog_analysis_matrix(a, &n);
                CHECK_EQ(n, 0);
                slog_analysis_free(a);
                continue;
            }
            check_window(m, a, t0, t1);
            slog_analysis_free(a);
        }
    }
    slog_reader_close(rd);
    if (n_checked && damage_summary(path)) {
        CHECKF(slog_reader_open(&rd, path, &err) == SLOG_OK, "%s", err.message);
        CHECKF(slog_reader_check(rd, NULL, &err) == SLOG_OK, "%s", err.message); /* blocks are sound */
        CHECK(slog_reader_check_summaries(rd, NULL, NULL, &err) == SLOG_ERR_CORRUPT);
        CHECKF(strstr(err.message, "differs from the one its subtree's records give"), "%s", err.message);
        summaries_damaged++;
        slog_reader_close(rd);
    }
    t_rmtree(dir);
    free(dir);
    free(path);
}

static void test_nested(void)
{
    t_rng r = {11};
    for (int round = 0; round < 6; round++) {
        t_model m;
        gen_nested(&m, &r, 3 + (uint32_t)t_below(&r, 10), 1 << 22);
        slog_writer_options o;
        slog_writer_options_init(&o);
        o.leaf_shift = 12 + (int32_t)t_below(&r, 5);
        o.preview_min_subtree = 1 + t_below(&r, 64);
        o.block_timelines = round & 1 ? 4 : 0;
        CHECK_CONTEXT("nested round %d: %u timelines, %zu drawables, leaf_shift %d", round, m.n_tls, m.n, o.leaf_shift);
        run_model(&m, &r, &o, 40);
        t_model_free(&m);
    }
}

static void test_random(void)
{
    t_rng r = {5};
    for (int round = 0; round < 10; round++) {
        t_model m;
        t_model_init(&m);
        t_gen_params p = {.n_drawables = 2000 + t_below(&r, 20000), .max_timelines = 40, .max_categories = 12};
        t_model_random(&m, &r, &p);
        slog_writer_options o;
        slog_writer_options_init(&o);
        o.preview_min_subtree = 1 + t_below(&r, 256);
        o.block_timelines = round & 1 ? 8 : 0;
        /* without summaries, in some blocks or all, every answer is
         * still exact */
        o.no_summaries_below = round == 8 ? UINT32_MAX : round == 9 ? 16 : 0;
        CHECK_CONTEXT("random round %d: %u timelines, %zu drawables, no summaries below timeline %u", round, m.n_tls,
                      m.n, o.no_summaries_below);
        uint64_t before = summaries_checked;
        run_model(&m, &r, &o, 30);
        if (o.no_summaries_below == UINT32_MAX) CHECK_EQ(summaries_checked, before);
        t_model_free(&m);
    }
}

/* (timeline, state category) pairs with a state in m; the most states or
 * events of one (timeline, category) in *max_row (at least the most
 * states of one pair, as slog_summaries_may_pay asks). */
static double state_rows(const t_model *m, double *max_row)
{
    uint32_t *count = calloc((size_t)m->n_tls * m->n_cats, sizeof *count);
    CHECK(count);
    double n = 0;
    *max_row = 0;
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        if (d->kind == SLOG_KIND_ARROW) continue;
        uint32_t c = ++count[(size_t)d->tl * m->n_cats + d->cat];
        if (c > *max_row) *max_row = c;
        n += d->kind == SLOG_KIND_STATE && c == 1;
    }
    free(count);
    return n;
}

/* n states of a few ns each, one after another on n_tl timelines of n_cat
 * categories: summaries of rows near their smallest bytes. */
static void gen_short_states(t_model *m, t_rng *r, size_t n, uint32_t n_tl, uint32_t n_cat)
{
    t_model_init(m);
    for (uint32_t i = 0; i < n_tl; i++) t_model_add_tl(m, i, 0);
    for (uint32_t k = 0; k < n_cat; k++) {
        char name[32];
        snprintf(name, sizeof name, "state%u", k);
        t_model_add_cat(m, SLOG_KIND_STATE, name, 0);
    }
    int64_t t = 0;
    for (size_t i = 0; i < n; i++) {
        t_draw *d = t_model_push(m);
        d->kind = SLOG_KIND_STATE;
        d->tl = d->etl = (uint32_t)t_below(r, n_tl);
        d->cat = (uint32_t)t_below(r, n_cat);
        d->start = t;
        d->end = t + t_range(r, 0, 3);
        t = d->end + 1;
    }
}

/* Every (timeline, category) of n_tl timelines and n_cat categories with a
 * state of a few ns, then `busy` more on timeline 0, category 0: fewer
 * drawables than 56 a row in all, but the busy row's nodes hold little
 * else. */
static void gen_busy_row(t_model *m, t_rng *r, uint32_t n_tl, uint32_t n_cat, size_t busy)
{
    gen_short_states(m, r, 0, n_tl, n_cat);
    int64_t t = 0;
    for (size_t i = 0; i < (size_t)n_tl * n_cat + busy; i++) {
        t_draw *d = t_model_push(m);
        d->kind = SLOG_KIND_STATE;
        d->tl = d->etl = i < (size_t)n_tl * n_cat ? (uint32_t)(i / n_cat) : 0;
        d->cat = i < (size_t)n_tl * n_cat ? (uint32_t)(i % n_cat) : 0;
        d->start = t;
        d->end = t + 2;
        t += 3;
    }
}

/* slog_summaries_may_pay never says no where the writer, with its default
 * options, wrote a summary below a block's root: models of one block whose drawables per
 * (timeline, state category) pair lie on both sides of its bound, random
 * ones, ones of short states whose rows are near their smallest, and ones
 * where one busy row holds most of the states (its nodes pay, the root
 * does not: the block's drawables alone would say none may). With no
 * summaries asked for, a file where none paid has the same bytes. */
static void test_may_pay(void)
{
    t_rng r = {23};
    unsigned wrote = 0, refused = 0, roots = 0;
    char *dir = t_mkdtemp("maypay");
    char *path = t_path(dir, "a.slog2"), *none = t_path(dir, "b.slog2");
    for (int round = 0; round < 24; round++) {
        t_model m;
        size_t n = 600 + t_below(&r, 30000);
        uint32_t n_tl = 1 + (uint32_t)t_below(&r, 48), n_cat = 2 + (uint32_t)t_below(&r, 10);
        if (round % 6 == 0) {
            n_tl = 40 + (uint32_t)t_below(&r, 9);
            n_cat = 10 + (uint32_t)t_below(&r, 3);
            gen_busy_row(&m, &r, n_tl, n_cat, (size_t)n_tl * n_cat * (40 + t_below(&r, 15)));
        } else if (round & 1) {
            gen_short_states(&m, &r, n, n_tl, n_cat);
        } else {
            t_model_init(&m);
            t_gen_params p = {.n_drawables = n, .max_timelines = n_tl, .max_categories = n_cat};
            t_model_random(&m, &r, &p);
        }
        double max_row, rows = state_rows(&m, &max_row);
        int may = slog_summaries_may_pay((double)m.n, rows, max_row);
        CHECK_CONTEXT("may-pay round %d: %u timelines, %zu drawables, %.0f state rows, %.0f in the busiest, may pay %d",
                      round, m.n_tls, m.n, rows, max_row, may);
        slog_error err;
        CHECKF(t_model_write(&m, path, NULL, &err) == SLOG_OK, "%s", err.message);
        slog_reader *rd;
        CHECKF(slog_reader_open(&rd, path, &err) == SLOG_OK, "%s", err.message);
        uint64_t n_summ;
        CHECKF(slog_reader_check_summaries(rd, &n_summ, NULL, &err) == SLOG_OK, "%s", err.message);
        /* A block's root pays at a rate of its own (a byte a drawable), so
         * where no node may pay, the root still may: one summary, which a
         * window of the whole span takes alone. */
        CHECKF(may || n_summ <= 1, "%" PRIu64 " summaries written where none but the root's may pay", n_summ);
        if (!may && n_summ) {
            const slog_file_info *fi = slog_reader_info(rd);
            slog_analysis_query q = {.t0 = fi->t_min, .t1 = fi->t_max};
            slog_analysis *a;
            slog_query_stats qs;
            CHECKF(slog_reader_analyse(rd, &q, &a, &qs, &err) == SLOG_OK, "%s", err.message);
            CHECK_EQ(qs.previews, 1);
            CHECK_EQ(qs.drawables, 0);
            check_window(&m, a, q.t0, q.t1);
            slog_analysis_free(a);
            roots++;
        }
        slog_reader_close(rd);
        /* the busy row's nodes pay, though its block has fewer than 56
         * drawables a row */
        if (round % 6 == 0) CHECK(n_summ > 0 && (double)m.n < 56 * rows);
        wrote += n_summ > 0;
        refused += !may;
        if (!n_summ) {
            slog_writer_options o;
            slog_writer_options_init(&o);
            o.no_summaries_below = UINT32_MAX;
            CHECKF(t_model_write(&m, none, &o, &err) == SLOG_OK, "%s", err.message);
            size_t na, nb;
            unsigned char *a = t_read_file(path, &na), *b = t_read_file(none, &nb);
            CHECK(a && b);
            CHECK(na == nb && !memcmp(a, b, na));
            free(a);
            free(b);
        }
        t_model_free(&m);
    }
    /* both sides met, or the bound went untested */
    CHECKF(wrote > 0 && refused > 0 && roots > 0,
           "%u files with summaries, %u where none may pay, %u with the root's alone", wrote, refused, roots);
    t_rmtree(dir);
    free(dir);
    free(path);
    free(none);
}

static void test_empty_and_args(void)
{
    t_model m;
    t_model_init(&m);
    char *dir = t_mkdtemp("analysis");
    char *path = t_path(dir, "e.slog2");
    slog_error err;
    CHECK(t_model_write(&m, path, NULL, &err) == SLOG_OK);
    slog_reader *rd;
    CHECK(slog_reader_open(&rd, path, &err) == SLOG_OK);
    slog_analysis *a;
    slog_analysis_query q = {.t0 = 0, .t1 = 100};
    CHECK(slog_reader_analyse(rd, &q, &a, NULL, &err) == SLOG_OK);
    size_t n;
    CHECK(slog_analysis_matrix(a, &n) == NULL || n == 0);
    CHECK_EQ(n, 0);
    slog_analysis_free(a);
    q.t0 = 5, q.t1 = 4;
    CHECK(slog_reader_analyse(rd, &q, &a, NULL, &err) == SLOG_ERR_ARG && a == NULL);
    q.t0 = 0, q.flags = 64;
    CHECK(slog_reader_analyse(rd, &q, &a, NULL, &err) == SLOG_ERR_ARG);
    slog_analysis_free(NULL);
    slog_reader_close(rd);
    t_model_free(&m);
    t_rmtree(dir);
    free(dir);
    free(path);
}

int main(void)
{
    RUN(test_empty_and_args);
    RUN(test_nested);
    /* nested states must not leave every summary incomplete */
    CHECKF(summaries_used > 0, "no summary was used with nested states");
    printf("summaries used with nested states: %" PRIu64 "\n", summaries_used);
    RUN(test_random);
    /* the summaries must have been read somewhere, or this tested records only */
    CHECKF(summaries_used > 0, "no summary was used");
    printf("summaries used: %" PRIu64 "\n", summaries_used);
    CHECKF(summaries_checked > 0 && summaries_damaged > 0, "no summary was recomputed, or none damaged");
    printf("summaries recomputed from the records: %" PRIu64 "\n", summaries_checked);
    RUN(test_may_pay);
    return 0;
}
