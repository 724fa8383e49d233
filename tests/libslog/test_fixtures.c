/* SPDX-License-Identifier: MIT */
/* test_fixtures.c - the committed fixtures in tests/data/ (made once by
 * gen_fixtures.c): a good file whose drawables are listed in
 * slog_good.expect, and truncated, bit-flipped, wrong-version and foreign
 * files with the error each must give; a 2.0 file with an overview, folded
 * as the same data written now.
 *
 *   test_fixtures DATA_DIR */
#include "testutil.h"

#include <inttypes.h>
#include <stdbool.h>

static const char *g_data;

typedef enum { OPEN_FAILS, CHECK_FAILS, READS_OK } outcome;

static const char *sname(slog_status st)
{
    switch (st) {
    case SLOG_OK: return "OK";
    case SLOG_ERR_NOT_SLOG: return "NOT_SLOG";
    case SLOG_ERR_VERSION: return "VERSION";
    case SLOG_ERR_TRUNCATED: return "TRUNCATED";
    case SLOG_ERR_CORRUPT: return "CORRUPT";
    case SLOG_ERR_CHECKSUM: return "CHECKSUM";
    case SLOG_ERR_IO: return "IO";
    default: return slog_strerror(st);
    }
}

/* want: acceptable statuses (up to 3, 0-terminated list uses SLOG_OK as end
 * only when outcome is READS_OK). */
static slog_reader *fixture(const char *name, outcome oc, slog_status w1, slog_status w2, int need_offset)
{
    char *path = t_path(g_data, name);
    CHECK_CONTEXT("fixture %s", path);
    CHECKF(t_file_exists(path), "fixture missing (run gen_fixtures %s)", g_data);
    slog_reader *rd = NULL;
    slog_error err;
    memset(&err, 0, sizeof err);
    slog_status st = slog_reader_open(&rd, path, &err);
    slog_status got = st;
    if (st == SLOG_OK && oc != OPEN_FAILS) {
        slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
        got = slog_reader_check(rd, NULL, &err);
        if (got == SLOG_OK) got = slog_reader_query(rd, &q, NULL, NULL, NULL, NULL, &err);
    }
    printf("%-28s open %-9s -> %-9s %s\n", name, sname(st), sname(got), got ? err.message : "");
    switch (oc) {
    case OPEN_FAILS:
        CHECKF(st == w1 || st == w2, "%s: open gave %s, expected %s or %s", name, sname(st), sname(w1), sname(w2));
        CHECK(rd == NULL);
        break;
    case CHECK_FAILS:
        CHECKF(got == w1 || got == w2, "%s: open+check gave %s, expected %s or %s", name, sname(got), sname(w1),
               sname(w2));
        break;
    case READS_OK: CHECK_OK(got, &err); break;
    }
    if (got != SLOG_OK) {
        CHECK(err.status == got);
        CHECKF(strstr(err.message, path) != NULL, "message '%s' does not name %s", err.message, path);
        if (need_offset) CHECKF(err.offset != SLOG_NO_OFFSET, "%s: no byte offset in the error", name);
    }
    free(path);
    if (oc != READS_OK && rd) {
        slog_reader_close(rd);
        rd = NULL;
    }
    return rd;
}

static void check_good(slog_reader *rd)
{
    char *p = t_path(g_data, "slog_good.expect");
    size_t len;
    char *txt = (char *)t_read_file(p, &len);
    CHECKF(txt, "missing %s", p);
    txt = realloc(txt, len + 1);
    txt[len] = 0;

    t_dvec v = {0};
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    slog_error err;
    CHECK_OK(slog_reader_query(rd, &q, t_collect_drawable, NULL, &v, NULL, &err), &err);
    t_qsort(v.d, v.n, sizeof *v.d, t_draw_cmp);
    const slog_file_info *fi = slog_reader_info(rd);
    char line[512];
    snprintf(line, sizeof line, "drawables %zu timelines %u categories %u", v.n, fi->n_timelines, fi->n_categories);
    char *save = NULL, *l = strtok_r(txt, "\n", &save);
    size_t i = 0;
    int header = 0;
    for (; l; l = strtok_r(NULL, "\n", &save)) {
        if (l[0] == '#') continue;
        if (!header) {
            CHECKF(strcmp(l, line) == 0, "slog_good: '%s', expected '%s'", line, l);
            header = 1;
            continue;
        }
        CHECKF(i < v.n, "slog_good: fewer drawables than slog_good.expect");
        t_draw_line(line, sizeof line, &v.d[i]);
        CHECKF(strcmp(l, line) == 0, "slog_good drawable %zu: '%s', expected '%s'", i, line, l);
        i++;
    }
    CHECKF(i == v.n && header, "slog_good: %zu drawables, %zu expected", v.n, i);
    CHECK(fi->time_origin_ns == 1700000000000000000ll);
    t_dvec_free(&v);
    free(txt);
    free(p);
}

/* The grid of timelines [0, n) folded at `cols` columns over the whole
 * span, and its stats. */
static slog_grid *fold(slog_reader *rd, uint32_t cols, slog_query_stats *qs)
{
    const slog_file_info *fi = slog_reader_info(rd);
    slog_grid_query q = {.t0 = fi->t_min,
                         .t1 = fi->t_max,
                         .tl_first = 0,
                         .tl_last = fi->n_timelines - 1,
                         .n_cols = cols,
                         .n_rows = fi->n_timelines};
    slog_grid *g = NULL;
    slog_error err;
    CHECK_OK(slog_reader_grid(rd, &q, &g, qs, &err), &err);
    return g;
}

/* slog_v2_overview.bin: a 2.0 file with an overview whose own records are
 * the tails of its preview blocks, written by slog_testgen at format 2.0
 * (its corpus file seed-23: t_model_small(&m, 124, 100), blocks of one
 * timeline, groups of two). The same model written now (own records in
 * OWNR blocks) folds into the same grids, coarse and fine; the fine ones,
 * passing through nodes, read fewer previews. */
static void check_v2_overview(void)
{
    char *p2 = t_path(g_data, "slog_v2_overview.bin");
    char *dir = t_mkdtemp("fixtures");
    char *p3 = t_path(dir, "v3.slog2");
    t_model m;
    t_model_small(&m, 124, 100);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.preview_bins = 4, o.leaf_drawables = 2, o.block_timelines = 1, o.group_timelines = 2;
    slog_error err;
    CHECK_OK(t_model_write(&m, p3, &o, &err), &err);
    slog_reader *r2, *r3;
    CHECK_OK(slog_reader_open(&r2, p2, &err), &err);
    CHECK_OK(slog_reader_open(&r3, p3, &err), &err);
    const slog_file_info *f2 = slog_reader_info(r2), *f3 = slog_reader_info(r3);
    CHECK(f2->version_major == 2 && f3->version_major == SLOG_FORMAT_MAJOR && f2->overview_depth > 1);
    CHECK(f2->n_drawables == m.n && f3->n_drawables == m.n && f2->n_timelines == f3->n_timelines &&
          f2->t_min == f3->t_min && f2->t_max == f3->t_max && f2->overview_depth == f3->overview_depth);
    CHECK_OK(slog_reader_check(r2, NULL, &err), &err);
    bool cheaper = false;
    for (uint32_t cols = 4; cols <= 4096; cols *= 2) {
        CHECK_CONTEXT("slog_v2_overview.bin folded at %u columns", cols);
        slog_query_stats q2, q3;
        slog_grid *g2 = fold(r2, cols, &q2), *g3 = fold(r3, cols, &q3);
        /* past the overview's finest bins both fold the blocks' trees */
        CHECK(slog_grid_unit(g2) == slog_grid_unit(g3) && slog_grid_n_rows(g2) == slog_grid_n_rows(g3));
        for (uint32_t row = 0; row < slog_grid_n_rows(g2); row++)
            for (uint32_t k = 0; k < f2->n_categories; k++) {
                const float *a = slog_grid_values(g2, row, k), *b = slog_grid_values(g3, row, k);
                CHECKF(!a == !b && (!a || memcmp(a, b, cols * sizeof *a) == 0),
                       "row %u category %u differs between the 2.0 and the %d.%d file", row, k, SLOG_FORMAT_MAJOR,
                       SLOG_FORMAT_MINOR);
            }
        CHECK(q3.previews <= q2.previews);
        cheaper |= slog_grid_unit(g3) == 2 && q3.previews < q2.previews;
        slog_grid_free(g2);
        slog_grid_free(g3);
    }
    CHECKF(cheaper, "no grid passed through an overview node");
    printf("slog_v2_overview.bin         grids as from the %d.%d file\n", SLOG_FORMAT_MAJOR, SLOG_FORMAT_MINOR);
    slog_reader_close(r2);
    slog_reader_close(r3);
    t_model_free(&m);
    remove(p3);
    t_rmtree(dir);
    free(dir);
    free(p3);
    free(p2);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fixtures DATA_DIR\n");
        return 2;
    }
    g_data = argv[1];
    slog_reader *rd = fixture("slog_good.bin", READS_OK, SLOG_OK, SLOG_OK, 0);
    check_good(rd);
    slog_reader_close(rd);
    /* A newer minor version reads as the file it extends. */
    rd = fixture("slog_minor1.bin", READS_OK, SLOG_OK, SLOG_OK, 0);
    check_good(rd);
    slog_reader_close(rd);
    /* The good file as format 1.0 wrote it: refused, saying what to do. */
    {
        char *path = t_path(g_data, "slog_v1.bin");
        slog_error err;
        slog_reader *old = NULL;
        CHECK(slog_reader_open(&old, path, &err) == SLOG_ERR_VERSION && old == NULL);
        CHECKF(strstr(err.message, "format 1.0") && strstr(err.message, "rebuild the file with slog2-build"),
               "format 1.0 refused with '%s'", err.message);
        printf("slog_v1.bin                  open VERSION   %s\n", err.message);
        free(path);
    }
    fixture("slog_truncated_half.bin", OPEN_FAILS, SLOG_ERR_TRUNCATED, SLOG_ERR_CORRUPT, 0);
    fixture("slog_truncated_last_byte.bin", OPEN_FAILS, SLOG_ERR_TRUNCATED, SLOG_ERR_CORRUPT, 0);
    fixture("slog_bitflip_node.bin", CHECK_FAILS, SLOG_ERR_CHECKSUM, SLOG_ERR_CHECKSUM, 1);
    fixture("slog_bitflip_header.bin", OPEN_FAILS, SLOG_ERR_CHECKSUM, SLOG_ERR_CHECKSUM, 1);
    fixture("slog_major6.bin", OPEN_FAILS, SLOG_ERR_VERSION, SLOG_ERR_VERSION, 0);
    check_v2_overview();
    fixture("slog_bad_dir_offset.bin", OPEN_FAILS, SLOG_ERR_CORRUPT, SLOG_ERR_TRUNCATED, 1);
    fixture("foreign.png", OPEN_FAILS, SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    fixture("foreign.txt", OPEN_FAILS, SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    fixture("empty.bin", OPEN_FAILS, SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    printf("PASS\n");
    return 0;
}
