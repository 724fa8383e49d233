/* SPDX-License-Identifier: MIT */
/* test_edge.c - edge cases of the writer and reader: empty trace, one
 * drawable, one timeline, 10^5 timelines, times 0 and 2^50, writer argument
 * errors (order, negative time, unknown ids), abort and failed finish leave no
 * file, callbacks that stop, extreme windows; CRC32C against a bitwise one. */
#include "testutil.h"

#include "format.h" /* slog_crc32c, slog_crc32c_sw */

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char *g_dir;

static slog_cb_result count_cb(void *user, const slog_drawable *d)
{
    (void)d;
    ++*(uint64_t *)user;
    return SLOG_CONTINUE;
}

/* Write m, reopen, check info + slog_reader_check, run some fixed and some
 * random queries against the brute-force model. */
static void roundtrip(const t_model *m, const slog_writer_options *o, const char *name)
{
    CHECK_CONTEXT("edge case '%s'", name);
    printf("%s: %zu drawables, %u timelines\n", name, m->n, m->n_tls);
    char *path = t_path(g_dir, "edge.slog2");
    slog_error err;
    CHECK_OK(t_model_write(m, path, o, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    CHECKF(fi->n_drawables == m->n, "n_drawables %" PRIu64, fi->n_drawables);
    CHECK(fi->n_timelines == m->n_tls && fi->n_categories == m->n_cats);
    int64_t tmin = INT64_MAX, tmax = INT64_MIN;
    for (size_t i = 0; i < m->n; i++) {
        tmin = t_dlo(&m->d[i]) < tmin ? t_dlo(&m->d[i]) : tmin;
        tmax = t_dhi(&m->d[i]) > tmax ? t_dhi(&m->d[i]) : tmax;
    }
    if (m->n) CHECKF(fi->t_min == tmin && fi->t_max == tmax, "t_min %" PRId64 " t_max %" PRId64, fi->t_min, fi->t_max);
    slog_query_stats st;
    CHECK_OK(slog_reader_check(rd, &st, &err), &err);

    t_index ix;
    t_model_index_by_lo(m, &ix);
    uint8_t *mask = malloc(m->n_tls + 1);
    CHECK(mask);
    t_rng r = {m->n * 31 + m->n_tls};
    int64_t lo = m->n ? tmin : 0, hi = m->n ? tmax : 100;
    for (int qi = 0; qi < 40; qi++) {
        slog_query q = {0};
        switch (qi % 8) {
        case 0: q.t0 = INT64_MIN, q.t1 = INT64_MAX; break;
        case 1: q.t0 = lo, q.t1 = hi; break;
        case 2: q.t0 = lo, q.t1 = lo; break;
        case 3: q.t0 = hi, q.t1 = hi; break;
        case 4: q.t0 = hi + 1, q.t1 = INT64_MAX; break;
        case 5: q.t0 = INT64_MIN, q.t1 = lo - 1; break;
        default:
            q.t0 = t_range(&r, lo, hi);
            q.t1 = t_range(&r, q.t0, hi);
            break;
        }
        switch ((qi / 8) % 5) {
        case 0: q.pixel_ns = 0; break;
        case 1: q.pixel_ns = INT64_MAX; break;
        case 2: q.pixel_ns = 1; break;
        case 3: q.pixel_ns = (hi - lo) / 1920 + 1; break;
        default: q.pixel_ns = (hi - lo) / 3 + 1; break;
        }
        if (qi & 1) {
            for (uint32_t i = 0; i < m->n_tls; i++) mask[i] = t_chance(&r, 30);
            q.timelines = mask;
        }
        t_result res = {0};
        CHECK_OK(slog_reader_query(rd, &q, t_res_drawable, t_res_preview, &res, &st, &err), &err);
        t_verify_query(m, &ix, fi, &q, &res, &st);
        t_result_free(&res);
    }
    /* both callbacks NULL: fine, stats still filled */
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    CHECK_OK(slog_reader_query(rd, &q, NULL, NULL, NULL, &st, &err), &err);
    /* slog_query_stats: drawables counts the matching ones, delivered or not */
    CHECKF(st.drawables == m->n, "NULL callbacks: stats.drawables %" PRIu64 ", want %zu", st.drawables, m->n);
    CHECK_OK(slog_reader_query(rd, &q, NULL, NULL, NULL, NULL, NULL), NULL);
    free(mask);
    t_index_free(&ix);
    slog_reader_close(rd);
    unlink(path);
    free(path);
}

static void basic_model(t_model *m, uint32_t n_tls)
{
    t_model_init(m);
    t_model_add_cat(m, SLOG_KIND_STATE, "state", 1);
    t_model_add_cat(m, SLOG_KIND_ARROW, "arrow", 2);
    t_model_add_cat(m, SLOG_KIND_EVENT, "event", 0);
    for (uint32_t i = 0; i < n_tls; i++) t_model_add_tl(m, i, 0);
}

static t_draw *add(t_model *m, uint32_t cat, uint32_t tl, uint32_t etl, int64_t s, int64_t e)
{
    t_draw *d = t_model_push(m);
    d->cat = cat;
    d->kind = m->cats[cat].kind;
    d->tl = tl;
    d->etl = etl;
    d->start = s;
    d->end = e;
    d->n_info = m->cats[cat].n_fields;
    for (uint32_t i = 0; i < d->n_info; i++) d->info[i] = (int64_t)(s ^ e) + i;
    return d;
}

static void test_shapes(void)
{
    t_model m;
    slog_writer_options o;
    slog_writer_options_init(&o);

    /* nothing at all */
    t_model_init(&m);
    roundtrip(&m, NULL, "no categories, no timelines, no drawables");
    t_model_free(&m);

    basic_model(&m, 3);
    roundtrip(&m, NULL, "empty trace");
    t_model_free(&m);

    for (uint32_t c = 0; c < 3; c++) {
        basic_model(&m, 2);
        add(&m, c, 1, c == 1 ? 0 : 1, 1000, c == 2 ? 1000 : 5000);
        roundtrip(&m, NULL, c == 0 ? "one state" : c == 1 ? "one arrow" : "one event");
        t_model_free(&m);
    }
    basic_model(&m, 1);
    add(&m, 0, 0, 0, 0, 0);
    roundtrip(&m, NULL, "one zero-length state at 0");
    t_model_free(&m);

    /* one timeline, consecutive + nested states, events at equal times */
    basic_model(&m, 1);
    for (int i = 0; i < 2000; i++) {
        add(&m, 0, 0, 0, i * 100, i * 100 + 100);
        add(&m, 0, 0, 0, i * 100 + 10, i * 100 + 90);
        add(&m, 2, 0, 0, i * 100 + 100, i * 100 + 100);
        add(&m, 1, 0, 0, i * 100 + 100, i * 100 + 50);
    }
    t_model_sort_end_order(&m);
    roundtrip(&m, NULL, "one timeline");
    o.leaf_shift = 0;
    roundtrip(&m, &o, "one timeline, leaf_shift 0");
    slog_writer_options_init(&o);
    t_model_free(&m);

    /* 0 and 2^50 in one file; whole-span states */
    basic_model(&m, 4);
    int64_t big = (int64_t)1 << 50;
    add(&m, 2, 0, 0, 0, 0);
    add(&m, 0, 1, 1, 0, 1);
    add(&m, 1, 2, 3, 0, big);
    add(&m, 0, 3, 3, 0, big);
    add(&m, 0, 0, 0, big - 1, big);
    add(&m, 1, 1, 0, big, big - 12345);
    add(&m, 2, 2, 2, big, big);
    t_model_sort_end_order(&m);
    roundtrip(&m, NULL, "times 0 and 2^50");
    o.leaf_shift = 0;
    roundtrip(&m, &o, "times 0 and 2^50, leaf_shift 0 (51 levels)");
    slog_writer_options_init(&o);
    t_model_free(&m);

    /* Times up to 2^62 - 1 are legal, 2^62 is not (slog_writer_add: [0, 2^62)). */
    basic_model(&m, 1);
    add(&m, 0, 0, 0, ((int64_t)1 << 62) - 5, ((int64_t)1 << 62) - 1);
    roundtrip(&m, NULL, "state ending at 2^62 - 1");
    t_model_free(&m);
    basic_model(&m, 1);
    add(&m, 0, 0, 0, ((int64_t)1 << 62) - 5, (int64_t)1 << 62);
    {
        char *path = t_path(g_dir, "huge.slog2");
        slog_error err;
        slog_status st = t_model_write(&m, path, NULL, &err);
        CHECKF(st == SLOG_ERR_ARG, "state ending at 2^62: writer returned %d %s", (int)st, slog_strerror(st));
        unlink(path);
        free(path);
    }
    t_model_free(&m);

    /* 10^5 timelines, few drawables; masks of 10^5 flags */
    uint32_t n_tl = t_under_valgrind() ? 20000 : 100000;
    basic_model(&m, n_tl);
    t_rng r = {99};
    for (int i = 0; i < 300; i++) {
        uint32_t c = (uint32_t)t_below(&r, 3);
        uint32_t tl = (uint32_t)t_below(&r, n_tl);
        int64_t s = t_range(&r, 0, 1000000);
        add(&m, c, tl, c == 1 ? (uint32_t)t_below(&r, n_tl) : tl, s, c == 2 ? s : s + t_range(&r, 0, 5000));
    }
    add(&m, 0, n_tl - 1, n_tl - 1, 10, 20);
    add(&m, 1, 0, n_tl - 1, 10, 20);
    t_model_sort_end_order(&m);
    roundtrip(&m, NULL, "1e5 timelines");
    t_model_free(&m);
}

/* ------------------------------------------------------------ writer errors */

static slog_writer *open_basic(const char *path, uint32_t n_tls)
{
    slog_writer *w = NULL;
    slog_error err;
    CHECK_OK(slog_writer_open(&w, path, NULL, &err), &err);
    CHECK(w != NULL);
    CHECK(slog_writer_error(w)->status == SLOG_OK);
    const char *fn[] = {"a", "b"};
    const uint8_t ft[] = {SLOG_FIELD_INT, SLOG_FIELD_BYTES};
    slog_category cs = {SLOG_KIND_STATE, "s", "", 0xff0000ff, 1, fn, ft};
    slog_category ca = {SLOG_KIND_ARROW, "a", "p2p", 0x00ff00ff, 2, fn, ft};
    slog_category ce = {SLOG_KIND_EVENT, "e", "", 0x0000ffff, 0, NULL, NULL};
    uint32_t id;
    CHECK_OK(slog_writer_add_category(w, &cs, &id), NULL);
    CHECK(id == 0);
    CHECK_OK(slog_writer_add_category(w, &ca, &id), NULL);
    CHECK(id == 1);
    CHECK_OK(slog_writer_add_category(w, &ce, &id), NULL);
    CHECK(id == 2);
    for (uint32_t i = 0; i < n_tls; i++) {
        slog_timeline tl = {i, 0, "t", ""};
        CHECK_OK(slog_writer_add_timeline(w, &tl, &id), NULL);
        CHECK(id == i);
    }
    return w;
}

static slog_drawable mk(slog_kind k, uint32_t cat, uint32_t tl, uint32_t etl, int64_t s, int64_t e, const int64_t *info)
{
    slog_drawable d = {k, cat, tl, etl, s, e, (uint32_t)(cat == 0 ? 1 : cat == 1 ? 2 : 0), info};
    return d;
}

/* want SLOG_OK: any error will do. */
static void expect_rejected(slog_writer *w, slog_drawable d, slog_status want, const char *what)
{
    slog_status st = slog_writer_add(w, &d);
    CHECKF(st != SLOG_OK, "writer accepted %s", what);
    if (want != SLOG_OK)
        CHECKF(st == want, "%s: got %d %s, expected %s", what, (int)st, slog_strerror(st), slog_strerror(want));
    const slog_error *e = slog_writer_error(w);
    CHECKF(e->status == st, "slog_writer_error status %d after %s (returned %d)", (int)e->status, what, (int)st);
    CHECKF(e->message[0] != 0, "empty writer error message after %s", what);
}

/* Category totals saturate: three states of ~2^62 ns each on one category
 * sum past INT64_MAX (slog2-build's fuzzer fed it such times). The total
 * reads back as INT64_MAX, a second category's stays exact, and the file
 * checks clean. */
static void test_total_saturates(void)
{
    CHECK_CONTEXT("category total saturates");
    char *path = t_path(g_dir, "total.slog2");
    int64_t info[1] = {1};
    slog_writer *w = open_basic(path, 2);
    const int64_t big = INT64_MAX >> 1; /* the largest time the writer takes */
    slog_drawable d = mk(SLOG_KIND_STATE, 0, 0, 0, 0, big - 2, info);
    CHECK_OK(slog_writer_add(w, &d), NULL);
    d = mk(SLOG_KIND_STATE, 0, 1, 1, 1, big - 1, info);
    CHECK_OK(slog_writer_add(w, &d), NULL);
    d = mk(SLOG_KIND_STATE, 0, 0, 0, 2, big, info);
    CHECK_OK(slog_writer_add(w, &d), NULL);
    slog_error err;
    CHECK_OK(slog_writer_finish(w, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_category_stats *cs = slog_reader_category_stats(rd, 0);
    CHECK(cs != NULL);
    CHECKF(cs && cs->count == 3 && cs->total_ns == INT64_MAX, "count %" PRIu64 " total %" PRId64, cs ? cs->count : 0,
           cs ? cs->total_ns : 0);
    slog_query_stats st;
    CHECK_OK(slog_reader_check(rd, &st, &err), &err);
    slog_reader_close(rd);
    unlink(path);
    free(path);
}

static void test_writer_errors(void)
{
    CHECK_CONTEXT("writer argument errors");
    char *path = t_path(g_dir, "errors.slog2");
    int64_t info[2] = {1, SLOG_INFO_UNKNOWN};
    slog_writer *w = open_basic(path, 3);

    slog_drawable ok1 = mk(SLOG_KIND_STATE, 0, 0, 0, 100, 200, info);
    CHECK_OK(slog_writer_add(w, &ok1), NULL);
    /* end order: max(start,end) must not decrease */
    expect_rejected(w, mk(SLOG_KIND_STATE, 0, 1, 1, 50, 150, info), SLOG_ERR_ORDER, "out-of-order state");
    expect_rejected(w, mk(SLOG_KIND_ARROW, 1, 1, 2, 199, 10, info), SLOG_ERR_ORDER, "out-of-order backwards arrow");
    expect_rejected(w, mk(SLOG_KIND_STATE, 0, 0, 0, -5, 300, info), SLOG_ERR_ARG, "negative start");
    expect_rejected(w, mk(SLOG_KIND_ARROW, 1, 0, 1, 300, -1, info), SLOG_ERR_ARG, "negative arrow end");
    expect_rejected(w, mk(SLOG_KIND_EVENT, 2, 0, 0, INT64_MIN, INT64_MIN, info), SLOG_ERR_ARG, "INT64_MIN event");
    expect_rejected(w, mk(SLOG_KIND_STATE, 3, 0, 0, 250, 300, info), SLOG_OK, "unknown category 3");
    expect_rejected(w, mk(SLOG_KIND_STATE, UINT32_MAX, 0, 0, 250, 300, info), SLOG_OK, "category UINT32_MAX");
    expect_rejected(w, mk(SLOG_KIND_STATE, 0, 3, 3, 250, 300, info), SLOG_OK, "unknown timeline 3");
    expect_rejected(w, mk(SLOG_KIND_ARROW, 1, 0, 7, 250, 300, info), SLOG_OK, "unknown end_timeline 7");
    /* slog_drawable: n_info is the category's n_fields, with that many values */
    slog_drawable d = mk(SLOG_KIND_STATE, 0, 0, 0, 250, 300, info);
    d.n_info = 2;
    expect_rejected(w, d, SLOG_ERR_ARG, "n_info != category n_fields");
    d = mk(SLOG_KIND_STATE, 0, 0, 0, 250, 300, info);
    d.n_info = 1, d.info = NULL;
    expect_rejected(w, d, SLOG_ERR_ARG, "n_info 1 with info NULL");
    /* slog_writer_add: the category's kind, event end == start, state end >= start */
    expect_rejected(w, mk(SLOG_KIND_ARROW, 0, 0, 1, 250, 300, info), SLOG_ERR_ARG, "kind arrow with a state category");
    expect_rejected(w, mk(SLOG_KIND_EVENT, 2, 0, 0, 250, 300, info), SLOG_ERR_ARG, "event with start != end");
    expect_rejected(w, mk(SLOG_KIND_STATE, 0, 0, 0, 300, 250, info), SLOG_ERR_ARG, "state with end < start");
    expect_rejected(w, mk((slog_kind)7, 0, 0, 0, 250, 300, info), SLOG_ERR_ARG, "kind 7");
    /* slog_writer_add: end_timeline is ignored except for arrows, so this
     * state is accepted and reads back on its own timeline */
    slog_drawable st_etl = mk(SLOG_KIND_STATE, 0, 0, 1, 250, 300, info);
    CHECK_OK(slog_writer_add(w, &st_etl), slog_writer_error(w));

    /* a rejected drawable (ARG, ORDER) leaves the writer usable: the file
     * holds exactly the accepted ones */
    slog_drawable ok2 = mk(SLOG_KIND_ARROW, 1, 2, 0, 400, 200, info);
    CHECK_OK(slog_writer_add(w, &ok2), slog_writer_error(w));
    slog_error err;
    CHECK_OK(slog_writer_finish(w, &err), &err);
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    CHECK(slog_reader_info(rd)->n_drawables == 3);
    t_dvec v = {0};
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    CHECK_OK(slog_reader_query(rd, &q, t_collect_drawable, NULL, &v, NULL, &err), &err);
    CHECK(v.n == 3);
    t_qsort(v.d, v.n, sizeof *v.d, t_draw_cmp);
    CHECK(v.d[0].start == 100 && v.d[0].end == 200 && v.d[0].n_info == 1 && v.d[0].info[0] == 1);
    CHECKF(v.d[1].kind == SLOG_KIND_STATE && v.d[1].start == 250 && v.d[1].end == 300 && v.d[1].tl == 0 &&
               v.d[1].etl == 0,
           "state given end_timeline 1 read back: kind %d %" PRId64 "..%" PRId64 " timeline %u end_timeline %u",
           (int)v.d[1].kind, v.d[1].start, v.d[1].end, v.d[1].tl, v.d[1].etl);
    CHECK(v.d[2].start == 400 && v.d[2].end == 200 && v.d[2].tl == 2 && v.d[2].etl == 0 && v.d[2].n_info == 2 &&
          v.d[2].info[1] == SLOG_INFO_UNKNOWN);
    t_dvec_free(&v);
    CHECK_OK(slog_reader_check(rd, NULL, &err), &err);
    slog_reader_close(rd);
    unlink(path);

    /* categories/timelines: bad arguments */
    w = open_basic(path, 1);
    const char *fn[SLOG_MAX_FIELDS + 1];
    uint8_t ft[SLOG_MAX_FIELDS + 1];
    for (int i = 0; i <= SLOG_MAX_FIELDS; i++) fn[i] = "f", ft[i] = 0;
    slog_category c = {SLOG_KIND_STATE, "too many", "", 0, SLOG_MAX_FIELDS + 1, fn, ft};
    uint32_t id = 12345;
    CHECK(slog_writer_add_category(w, &c, &id) != SLOG_OK);
    c.n_fields = SLOG_MAX_FIELDS;
    CHECK_OK(slog_writer_add_category(w, &c, &id), NULL);
    CHECK(id == 3); /* the refused one took no id */
    c.kind = (slog_kind)9;
    c.n_fields = 0;
    CHECKF(slog_writer_add_category(w, &c, &id) == SLOG_ERR_ARG, "category of kind 9 not refused with SLOG_ERR_ARG");
    /* a drawable may name a category added after earlier drawables */
    slog_drawable e0 = mk(SLOG_KIND_EVENT, 2, 0, 0, 10, 10, info);
    CHECK_OK(slog_writer_add(w, &e0), NULL);
    slog_category c2 = {SLOG_KIND_EVENT, "late", "", 0, 0, NULL, NULL};
    uint32_t late;
    CHECK_OK(slog_writer_add_category(w, &c2, &late), NULL);
    slog_timeline tl = {77, 1, "late timeline", "h"};
    uint32_t late_tl;
    CHECK_OK(slog_writer_add_timeline(w, &tl, &late_tl), NULL);
    CHECK(late_tl == 1);
    slog_drawable e1 = {SLOG_KIND_EVENT, late, late_tl, late_tl, 10, 10, 0, NULL};
    CHECK_OK(slog_writer_add(w, &e1), NULL);
    CHECK_OK(slog_writer_finish(w, &err), &err);
    unlink(path);
    free(path);
}

/* ------------------------------------------------------------ files */

static void check_err_names(const slog_error *err, const char *path, const char *what)
{
    CHECKF(err->status != SLOG_OK, "%s: err.status is SLOG_OK", what);
    CHECKF(err->message[0] != 0, "%s: empty message", what);
    CHECKF(strstr(err->message, path) != NULL, "%s: message '%s' does not name %s", what, err->message, path);
}

static void test_files(void)
{
    CHECK_CONTEXT("abort / failed finish / bad paths");
    char *sub = t_path(g_dir, "files");
    CHECK(mkdir(sub, 0700) == 0);
    char *path = t_path(sub, "x.slog2");
    slog_error err;
    int64_t info[2] = {0, 0};

    /* abort leaves nothing, also after nodes were streamed out */
    slog_writer *w = open_basic(path, 2);
    for (int i = 0; i < 20000; i++) {
        slog_drawable d = mk(SLOG_KIND_STATE, 0, (uint32_t)(i & 1), (uint32_t)(i & 1), i * 10, i * 10 + 9, info);
        CHECK_OK(slog_writer_add(w, &d), NULL);
    }
    slog_writer_abort(w);
    CHECKF(t_count_entries(sub) == 0, "abort left %d files in %s", t_count_entries(sub), sub);
    slog_writer_abort(NULL);

    /* finish writes only PATH; no temporary remains */
    w = open_basic(path, 1);
    CHECKF(t_count_entries(sub) <= 1, "open created %d files", t_count_entries(sub));
    CHECK(!t_file_exists(path)); /* not before finish */
    /* the temporary file is PATH.tmp.XXXXXX and exists while writing (a
     * caller's signal handler removes it by this name) */
    const char *tmp = slog_writer_temp_path(w);
    CHECK(tmp != NULL && strncmp(tmp, path, strlen(path)) == 0 && strstr(tmp + strlen(path), ".tmp.") != NULL);
    CHECK(tmp != NULL && t_file_exists(tmp));
    CHECK(slog_writer_temp_path(NULL) == NULL);
    CHECK_OK(slog_writer_finish(w, &err), &err);
    CHECK(t_file_exists(path) && t_count_entries(sub) == 1);
    /* overwriting an existing file works (rename over it) */
    w = open_basic(path, 2);
    slog_drawable d1 = mk(SLOG_KIND_EVENT, 2, 1, 1, 5, 5, info);
    CHECK_OK(slog_writer_add(w, &d1), NULL);
    CHECK_OK(slog_writer_finish(w, &err), &err);
    CHECK(t_count_entries(sub) == 1);
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    CHECK(slog_reader_info(rd)->n_drawables == 1 && slog_reader_info(rd)->n_timelines == 2);
    slog_reader_close(rd);
    unlink(path);

    /* a path in a directory that does not exist: error at open */
    char *nodir = t_path(sub, "no/such/dir/x.slog2");
    w = (slog_writer *)&err; /* must be set to NULL */
    memset(&err, 0, sizeof err);
    slog_status st = slog_writer_open(&w, nodir, NULL, &err);
    CHECK(st != SLOG_OK);
    CHECKF(st == SLOG_ERR_IO, "open in missing dir: %s, expected SLOG_ERR_IO", slog_strerror(st));
    CHECK(w == NULL);
    CHECK(err.status == st);
    check_err_names(&err, nodir, "writer open in missing directory");
    CHECK(slog_writer_open(&w, nodir, NULL, NULL) != SLOG_OK); /* err NULL is fine */
    free(nodir);

    /* PATH is an existing directory: rename onto it fails, so finish (or
     * open) must fail and leave no temporary behind */
    char *isdir = t_path(sub, "adir.slog2");
    CHECK(mkdir(isdir, 0700) == 0);
    char *inner = t_path(isdir, "keep");
    CHECK(t_write_file(inner, "k", 1) == 0);
    w = NULL;
    st = slog_writer_open(&w, isdir, NULL, &err);
    if (st == SLOG_OK) {
        slog_category ce = {SLOG_KIND_EVENT, "e", "", 0, 0, NULL, NULL};
        slog_timeline tl = {0, 0, "t", ""};
        uint32_t id;
        CHECK_OK(slog_writer_add_category(w, &ce, &id), NULL);
        CHECK_OK(slog_writer_add_timeline(w, &tl, &id), NULL);
        slog_drawable e = {SLOG_KIND_EVENT, 0, 0, 0, 1, 1, 0, NULL};
        CHECK_OK(slog_writer_add(w, &e), NULL);
        st = slog_writer_finish(w, &err);
        CHECKF(st != SLOG_OK, "finish onto a directory succeeded");
        check_err_names(&err, isdir, "finish onto a directory");
    } else {
        check_err_names(&err, isdir, "open onto a directory");
    }
    struct stat sb;
    CHECK(stat(isdir, &sb) == 0 && S_ISDIR(sb.st_mode) && t_count_entries(isdir) == 1);
    CHECKF(t_count_entries(sub) == 1, "failed finish left %d entries in %s (expected only the directory)",
           t_count_entries(sub), sub);
    unlink(inner);
    rmdir(isdir);
    free(inner);
    free(isdir);

    /* reader: missing file, a directory, NULL out */
    char *missing = t_path(sub, "missing.slog2");
    rd = (slog_reader *)&err;
    st = slog_reader_open(&rd, missing, &err);
    CHECK(st == SLOG_ERR_IO);
    CHECK(rd == NULL);
    check_err_names(&err, missing, "reader open of a missing file");
    CHECK(slog_reader_open(&rd, missing, NULL) == SLOG_ERR_IO);
    st = slog_reader_open(&rd, sub, &err);
    CHECK(st != SLOG_OK);
    free(missing);
    /* an output that exists and is not a regular file: refused at open,
     * before any temporary is made (renamed over it at finish, a directory
     * fails then and a device would be replaced) */
    const char *not_files[] = {sub, "/dev/null"};
    for (size_t i = 0; i < sizeof not_files / sizeof not_files[0]; i++) {
        int before = t_count_entries(sub);
        w = (slog_writer *)&err;
        st = slog_writer_open(&w, not_files[i], NULL, &err);
        CHECKF(st == SLOG_ERR_IO && w == NULL, "writer open of %s: status %d", not_files[i], (int)st);
        check_err_names(&err, not_files[i], "writer open of a non-regular output");
        CHECKF(strstr(err.message, "regular file") != NULL, "message '%s'", err.message);
        CHECK(t_count_entries(sub) == before);
    }
    struct stat null_st;
    CHECK(stat("/dev/null", &null_st) == 0 && S_ISCHR(null_st.st_mode));
    /* a named pipe: refused at once (opening it for reading would wait
     * for a writer, for ever) */
    char *pipe_path = t_path(sub, "pipe.slog2");
    CHECK(mkfifo(pipe_path, 0600) == 0);
    st = slog_reader_open(&rd, pipe_path, &err);
    CHECK(st == SLOG_ERR_IO);
    check_err_names(&err, pipe_path, "reader open of a FIFO");
    CHECK(strstr(err.message, "regular") != NULL);
    unlink(pipe_path);
    free(pipe_path);

    rmdir(sub);
    free(path);
    free(sub);
}

/* A write the system refuses part-way (here the file size limit, EFBIG
 * after a short write) fails the writer with SLOG_ERR_IO naming the file,
 * at an add or at finish, and leaves no file. The limit is met both inside
 * a buffered flush and inside a node body written straight from its buffer
 * (bodies of about 100 KiB). */
static void test_write_fails(void)
{
    static const rlim_t limits[] = {100000, 150001, 333333};
    for (size_t li = 0; li < sizeof limits / sizeof limits[0]; li++) {
        CHECK_CONTEXT("write fails at %lu bytes", (unsigned long)limits[li]);
        char *sub = t_path(g_dir, "wfail");
        CHECK(mkdir(sub, 0700) == 0);
        char *path = t_path(sub, "x.slog2");
        struct rlimit old;
        CHECK(getrlimit(RLIMIT_FSIZE, &old) == 0);
        void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
        struct rlimit lim = {limits[li], old.rlim_max};
        CHECK(setrlimit(RLIMIT_FSIZE, &lim) == 0);
        slog_writer *w = open_basic(path, 2);
        int64_t info[2] = {7, 1 << 20};
        slog_status st = SLOG_OK;
        for (int i = 0; i < 200000 && st == SLOG_OK; i++) {
            slog_drawable d = mk(SLOG_KIND_STATE, 0, (uint32_t)(i & 1), (uint32_t)(i & 1), i * 100, i * 100 + 57, info);
            st = slog_writer_add(w, &d);
        }
        slog_error err;
        memset(&err, 0, sizeof err);
        /* about 2 MB of nodes stream out while drawables come in */
        CHECKF(st != SLOG_OK, "%s", "200000 drawables went in past the limit");
        if (st == SLOG_OK) {
            st = slog_writer_finish(w, &err);
        } else {
            err = *slog_writer_error(w);
            slog_writer_abort(w);
        }
        CHECK(setrlimit(RLIMIT_FSIZE, &old) == 0);
        signal(SIGXFSZ, old_handler);
        CHECKF(st == SLOG_ERR_IO, "status %s, expected SLOG_ERR_IO", slog_strerror(st));
        check_err_names(&err, path, "write over the file size limit");
        CHECKF(strstr(err.message, "write") != NULL, "message '%s' does not say write", err.message);
        CHECKF(t_count_entries(sub) == 0, "a failed write left %d files in %s", t_count_entries(sub), sub);
        rmdir(sub);
        free(path);
        free(sub);
    }
}

/* Finish w, reopen path and tally its leaves (those ending after t_from):
 * how many, drawables in them, the most in one. */
typedef struct leaf_tally {
    int32_t leaf_shift;
    uint64_t leaves, drawables;
    uint32_t most;
    uint32_t blocks;
} leaf_tally;

static leaf_tally finish_and_tally_leaves(slog_writer *w, slog_status st, const char *path, int64_t t_from)
{
    leaf_tally t = {0};
    CHECK_OK(st, slog_writer_error(w));
    slog_error err;
    CHECK_OK(slog_writer_finish(w, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    t.leaf_shift = fi->leaf_shift;
    t.blocks = fi->n_blocks;
    for (uint64_t i = 0; i < fi->n_nodes; i++) {
        slog_node_info ni;
        CHECK_OK(slog_reader_node(rd, i, &ni), NULL);
        if (ni.tree == SLOG_TREE_OVERVIEW || ni.level != 0 || ni.hi <= t_from) continue;
        t.leaves++;
        t.drawables += ni.n_drawables;
        if (ni.n_drawables > t.most) t.most = ni.n_drawables;
    }
    slog_reader_close(rd);
    return t;
}

/* A trace that starts slowly, as MPI programs do (MPI_Init, communicator
 * setup) and then runs a thousand times denser: its leaves must hold about
 * leaf_drawables (8,192 by default) of the dense part, not the whole dense
 * part as when the width came from the first drawables' density. */
static void test_leaf_width_slow_start(void)
{
    CHECK_CONTEXT("leaf width after a slow start");
    char *path = t_path(g_dir, "slow.slog2");
    slog_writer *w = open_basic(path, 2);
    int64_t info[2] = {1, 2};
    slog_status st = SLOG_OK;
    const int n_slow = 30000, n_dense = 300000;
    const int64_t dense_at = (int64_t)n_slow * 100000; /* 3 s of one per 100 us */
    for (int i = 0; i < n_slow && st == SLOG_OK; i++) {
        slog_drawable d = mk(SLOG_KIND_STATE, 0, (uint32_t)(i & 1), (uint32_t)(i & 1), (int64_t)i * 100000,
                             (int64_t)i * 100000 + 50000, info);
        st = slog_writer_add(w, &d);
    }
    for (int i = 0; i < n_dense && st == SLOG_OK; i++) { /* one per 100 ns */
        slog_drawable d = mk(SLOG_KIND_STATE, 0, (uint32_t)(i & 1), (uint32_t)(i & 1), dense_at + (int64_t)i * 100,
                             dense_at + (int64_t)i * 100 + 60, info);
        st = slog_writer_add(w, &d);
    }
    leaf_tally t = finish_and_tally_leaves(w, st, path, dense_at);
    printf("slow start: leaf width 2^%d ns, %" PRIu64 " leaves in the dense part, at most %u drawables in one\n",
           t.leaf_shift, t.leaves, t.most);
    CHECKF(t.most <= 2 * 8192, "a leaf holds %u drawables (aim: 8192)", t.most);
    CHECKF(t.leaves >= (uint64_t)n_dense / 8192, "the dense part has only %" PRIu64 " leaves", t.leaves);
    free(path);
}

/* Many timelines: they are cut into blocks of 64, each with a tree of its
 * own, and a block's leaf holds its share of a default leaf of 8,192
 * drawables, but no fewer than 512 (docs/FORMAT.md, "Blocks"). 4,096
 * timelines take turns: 64 blocks, whose leaves aim at 512 drawables each
 * (the leaf width is a power of two: from half that to twice). */
static void test_leaf_width_many_rows(void)
{
    CHECK_CONTEXT("leaf width with many timelines");
    char *path = t_path(g_dir, "rows.slog2");
    const uint32_t n_tls = 4096;
    slog_writer *w = NULL;
    slog_error err;
    CHECK_OK(slog_writer_open(&w, path, NULL, &err), &err);
    slog_category cs = {SLOG_KIND_STATE, "s", "", 0xff0000ff, 0, NULL, NULL};
    CHECK_OK(slog_writer_add_category(w, &cs, NULL), NULL);
    for (uint32_t t = 0; t < n_tls; t++) {
        slog_timeline tl = {t, 0, "r", ""};
        CHECK_OK(slog_writer_add_timeline(w, &tl, NULL), NULL);
    }
    slog_status st = SLOG_OK;
    for (int i = 0; i < 400000 && st == SLOG_OK; i++) { /* one per 100 ns */
        slog_drawable d = {SLOG_KIND_STATE,
                           0,
                           (uint32_t)i % n_tls,
                           (uint32_t)i % n_tls,
                           (int64_t)i * 100,
                           (int64_t)i * 100 + 60,
                           0,
                           NULL};
        st = slog_writer_add(w, &d);
    }
    leaf_tally t = finish_and_tally_leaves(w, st, path, INT64_MIN);
    uint64_t avg = t.leaves ? t.drawables / t.leaves : 0;
    printf("many rows: leaf width 2^%d ns, %" PRIu64 " leaves, %" PRIu64 " drawables each on average\n", t.leaf_shift,
           t.leaves, avg);
    CHECKF(avg >= 256 && avg <= 1024, "blocks' leaves hold %" PRIu64 " drawables on average (aim: 512)", avg);
    CHECKF(t.blocks == 64, "%u blocks for %u timelines (want 64)", t.blocks, n_tls);
    free(path);
}

/* ------------------------------------------------------------ queries */

static slog_cb_result count_prev_cb(void *user, const slog_preview *p)
{
    (void)p;
    ++*(uint64_t *)user;
    return SLOG_CONTINUE;
}

static slog_cb_result stop_after(void *user, const slog_drawable *d)
{
    (void)d;
    uint64_t *n = user;
    return ++n[0] >= n[1] ? SLOG_STOP : SLOG_CONTINUE;
}

static slog_cb_result stop_preview(void *user, const slog_preview *p)
{
    (void)p;
    ++*(uint64_t *)user;
    return SLOG_STOP;
}

static void test_query_misc(void)
{
    CHECK_CONTEXT("query callbacks / windows");
    t_model m;
    basic_model(&m, 4);
    for (int i = 0; i < 5000; i++)
        add(&m, (uint32_t)(i % 3), (uint32_t)(i % 4), (uint32_t)((i + 1) % 4), i * 1000,
            i * 1000 + (i % 3 == 2 ? 0 : 500));
    t_model_sort_end_order(&m);
    char *path = t_path(g_dir, "q.slog2");
    slog_error err;
    /* fine leaves, and previews on every node that holds a drawable, so that
     * some pixel_ns gives several previews */
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.leaf_shift = 8;
    o.preview_min_subtree = 1;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);

    /* SLOG_STOP ends the query: no further callbacks */
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    uint64_t n[2] = {0, 10};
    slog_status st = slog_reader_query(rd, &q, stop_after, NULL, n, NULL, &err);
    CHECKF(st == SLOG_OK, "query stopped by callback returned %s", slog_strerror(st));
    CHECKF(n[0] == 10, "callback called %" PRIu64 " times after SLOG_STOP at 10", n[0]);
    slog_query_stats qs;
    uint64_t np = 0;
    for (q.pixel_ns = 1000; q.pixel_ns < 100000000; q.pixel_ns *= 2) {
        CHECK_OK(slog_reader_query(rd, &q, count_cb, count_prev_cb, &np, &qs, &err), &err);
        if (qs.previews >= 2) break;
    }
    /* (else the SLOG_STOP check below would prove nothing) */
    CHECKF(qs.previews >= 2, "5000 drawables: at most %" PRIu64 " previews at any pixel_ns", qs.previews);
    np = 0;
    st = slog_reader_query(rd, &q, NULL, stop_preview, &np, NULL, &err);
    CHECKF(np == 1, "preview callback called %" PRIu64 " times after SLOG_STOP", np);

    /* t0 > t1: nothing, or an argument error */
    q.t0 = 2000000, q.t1 = 1000000, q.pixel_ns = 0;
    uint64_t cnt = 0;
    st = slog_reader_query(rd, &q, count_cb, NULL, &cnt, NULL, &err);
    CHECK(st == SLOG_OK || st == SLOG_ERR_ARG);
    CHECKF(cnt == 0, "t0 > t1 delivered %" PRIu64 " drawables", cnt);
    /* negative pixel_ns: argument error or treated as 0 */
    q.t0 = 0, q.t1 = INT64_MAX, q.pixel_ns = -5;
    cnt = 0;
    st = slog_reader_query(rd, &q, count_cb, NULL, &cnt, NULL, &err);
    CHECK(st == SLOG_ERR_ARG || (st == SLOG_OK && cnt == m.n));

    slog_reader_close(rd);
    unlink(path);
    free(path);
    t_model_free(&m);
}

static void test_strerror(void)
{
    slog_status all[] = {SLOG_OK,          SLOG_ERR_IO,        SLOG_ERR_NOMEM,   SLOG_ERR_NOT_SLOG,
                         SLOG_ERR_VERSION, SLOG_ERR_TRUNCATED, SLOG_ERR_CORRUPT, SLOG_ERR_CHECKSUM,
                         SLOG_ERR_ARG,     SLOG_ERR_ORDER,     SLOG_ERR_LIMIT};
    size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        CHECK(slog_strerror(all[i]) != NULL && slog_strerror(all[i])[0]);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(slog_strerror(all[i]), slog_strerror(all[j])) != 0);
    }
    CHECK(slog_strerror((slog_status)12345) != NULL);
    CHECK(slog_strerror((slog_status)-1) != NULL);
}

static void test_options(void)
{
    CHECK_CONTEXT("writer options");
    slog_writer_options o;
    memset(&o, 0x5a, sizeof o);
    slog_writer_options_init(&o);
    CHECK(o.preview_bins == 0 || o.preview_bins == 64);
    CHECK(o.leaf_shift == -1);
    CHECK(o.time_origin_ns == 0);
    char *path = t_path(g_dir, "opt.slog2");
    slog_writer *w = NULL;
    slog_error err;
    o.preview_bins = 1000000;
    slog_status st = slog_writer_open(&w, path, &o, &err);
    CHECKF(st == SLOG_ERR_ARG && w == NULL, "preview_bins 1000000 accepted (reader limit SLOG_MAX_BINS)");
    slog_writer_abort(w);
    slog_writer_options_init(&o);
    o.leaf_shift = 70;
    w = NULL;
    st = slog_writer_open(&w, path, &o, &err);
    CHECKF(st == SLOG_ERR_ARG && w == NULL, "leaf_shift 70 accepted");
    slog_writer_abort(w);
    slog_writer_options_init(&o);
    o.leaf_shift = -7;
    w = NULL;
    st = slog_writer_open(&w, path, &o, &err);
    CHECKF(st == SLOG_ERR_ARG && w == NULL, "leaf_shift -7 accepted");
    slog_writer_abort(w);
    CHECK(t_count_entries(g_dir) == 0);
    free(path);
}

/* Run last: fails while the reader compares an integer-truncated bin width. */
static void test_nondividing_bins(void)
{
    t_model m;
    slog_writer_options o;
    slog_writer_options_init(&o);
    /* bin counts that do not divide the node width: a preview is used only if
     * its real-valued bin width (hi-lo)/n_bins <= pixel_ns (128/100 > 1) */
    basic_model(&m, 2);
    for (int i = 0; i < 300; i++)
        add(&m, (uint32_t)(i % 3), (uint32_t)(i & 1), i % 3 == 1 ? (uint32_t)((i >> 1) & 1) : (uint32_t)(i & 1), i / 2,
            i / 2 + (i % 3 == 2 ? 0 : 1));
    t_model_sort_end_order(&m);
    o.preview_bins = 100, o.leaf_shift = 0, o.preview_min_subtree = 1;
    roundtrip(&m, &o, "preview_bins 100, leaf_shift 0");
    o.preview_bins = 6;
    roundtrip(&m, &o, "preview_bins 6, leaf_shift 0");
    slog_writer_options_init(&o);
    t_model_free(&m);
}

/* CRC32C: the library's (the CPU instruction where there is one) and its
 * portable tables against the tests' own bitwise version, at every length
 * up to 300 and every alignment, whole and in two pieces. */
static void test_crc32c(void)
{
    static const char check[] = "123456789";
    CHECK(slog_crc32c(0, check, 9) == 0xE3069283u); /* the standard check value */
    CHECK(slog_crc32c_sw(0, check, 9) == 0xE3069283u);
    uint8_t buf[320];
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof buf; i++) {
        x = x * 1103515245u + 12345u;
        buf[i] = (uint8_t)(x >> 16);
    }
    for (size_t off = 0; off < 8; off++) {
        for (size_t len = 0; len + off <= 300; len++) {
            uint32_t want = t_crc32c(buf + off, len);
            CHECK(slog_crc32c(0, buf + off, len) == want);
            CHECK(slog_crc32c_sw(0, buf + off, len) == want);
            size_t cut = len / 3;
            CHECK(slog_crc32c(slog_crc32c(0, buf + off, cut), buf + off + cut, len - cut) == want);
        }
    }
    /* Long buffers take three blocks at a time (8,192 and 256 bytes each,
     * joined by linearity): every length around those multiples, and
     * random ones, from a random register, against the tables. */
    enum { BIG = 3 * 8192 * 3 + 1000 };
    uint8_t *big = malloc(BIG + 8);
    CHECK(big != NULL);
    if (!big) return;
    for (size_t i = 0; i < BIG + 8; i++) {
        x = x * 1103515245u + 12345u;
        big[i] = (uint8_t)(x >> 16);
    }
    static const size_t around[] = {3 * 256, 3 * 8192, 2 * 3 * 8192, 3 * 8192 + 3 * 256, 3 * 8192 + 2 * 3 * 256};
    for (size_t a = 0; a < sizeof around / sizeof *around; a++) {
        for (size_t len = around[a] - 17; len <= around[a] + 17; len++) {
            for (size_t off = 0; off < 8; off += 3) {
                uint32_t seed = x = x * 1103515245u + 12345u;
                CHECK(slog_crc32c(seed, big + off, len) == slog_crc32c_sw(seed, big + off, len));
            }
        }
    }
    for (int i = 0; i < 200; i++) {
        x = x * 1103515245u + 12345u;
        size_t len = x % BIG, off = (x >> 20) % 8;
        CHECK(slog_crc32c(x, big + off, len) == slog_crc32c_sw(x, big + off, len));
    }
    CHECK(slog_crc32c(0, big, BIG) == t_crc32c(big, BIG)); /* the bitwise reference too */
    free(big);
}

int main(void)
{
    g_dir = t_mkdtemp("edge");
    test_crc32c();
    test_strerror();
    test_options();
    test_shapes();
    test_writer_errors();
    test_total_saturates();
    test_files();
    test_write_fails();
    test_leaf_width_slow_start();
    test_leaf_width_many_rows();
    test_query_misc();
    test_nondividing_bins();
    t_rmtree(g_dir);
    free(g_dir);
    printf("PASS\n");
    return 0;
}
