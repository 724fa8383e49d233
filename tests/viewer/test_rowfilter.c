/* SPDX-License-Identifier: MIT */
/* test_rowfilter.c - choosing rows (rowfilter.h) on a generated file:
 * expressions that do not parse are refused with the clause named; ranks
 * and hosts choose what the file says; a share of the window and the sort
 * agree with the states' exact durations summed from a full query; a fold
 * of a list shows each listed timeline's own values; a layout of a list
 * keeps its order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "doc.h"
#include "fold.h"
#include "gen.h"
#include "rowfilter.h"

typedef struct sums {
    double *ns; /* n_timelines x categories: state time inside the window */
    uint32_t n_cats;
    double t0, t1;
} sums;

static slog_cb_result add_drawable(void *user, const slog_drawable *d)
{
    sums *s = user;
    if (d->kind != SLOG_KIND_STATE) return SLOG_CONTINUE;
    double a = fmax((double)d->start, s->t0), b = fmin((double)d->end, s->t1);
    if (b > a) s->ns[(size_t)d->timeline * s->n_cats + d->category] += b - a;
    return SLOG_CONTINUE;
}

static void test_parse(const sv_doc *d)
{
    char err[256];
    CHECK(sv_rowsel_check(d, "ranks 0-3,8 host=node01 MPI_Wait>30% sort=MPI_Wait", err, sizeof err) == 0);
    CHECK(sv_rowsel_check(d, "", err, sizeof err) == 0);
    CHECK(sv_rowsel_check(d, "bogus>1", err, sizeof err) == -1 && strstr(err, "bogus"));
    CHECK(sv_rowsel_check(d, "ranks", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "ranks x", err, sizeof err) == -1 && strstr(err, "\"x\""));
    CHECK(sv_rowsel_check(d, "5-2", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "1-", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "MPI_Wait>", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "MPI_Wait>3x", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "MPI>3%", err, sizeof err) == -1 && strstr(err, "more than one"));
    CHECK(sv_rowsel_check(d, "message>5%", err, sizeof err) == -1); /* an arrow category has a count, not a share */
    CHECK(sv_rowsel_check(d, "message>5", err, sizeof err) == 0);
    CHECK(sv_rowsel_check(d, "sort=nothing", err, sizeof err) == -1);
    CHECK(sv_rowsel_check(d, "mpi_wait<=0.5", err, sizeof err) == 0); /* case, seconds */
}

static void test_ranks_hosts(const sv_doc *d)
{
    char err[256];
    uint32_t nt = d->fi->n_timelines;
    sv_rowsel *s = sv_rowsel_apply(d, "  ranks 0-3,8,40-41 ", 0, 1e6, err, sizeof err);
    CHECK(s != NULL);
    if (s) {
        CHECK(s->n == 7 && s->n_total == nt && !s->uses_window && strcmp(s->text, "ranks 0-3,8,40-41") == 0);
        uint32_t want[] = {0, 1, 2, 3, 8, 40, 41};
        for (uint32_t i = 0; i < 7 && i < s->n; i++) CHECK(s->list[i] == want[i]);
        char desc[320];
        sv_rowsel_describe(s, desc, sizeof desc);
        CHECK(strstr(desc, "7 of") != NULL);
    }
    sv_rowsel_free(s);
    /* a host, and a pattern of hosts, as the file names them */
    const char *host = d->tl_groups[nt - 1];
    char expr[160];
    snprintf(expr, sizeof expr, "host=%s", host);
    s = sv_rowsel_apply(d, expr, 0, 1e6, err, sizeof err);
    uint32_t n_host = 0;
    for (uint32_t t = 0; t < nt; t++) n_host += strcmp(d->tl_groups[t], host) == 0;
    CHECK(s && s->n == n_host && n_host > 0 && n_host < nt);
    for (uint32_t i = 0; s && i < s->n; i++) CHECK(strcmp(d->tl_groups[s->list[i]], host) == 0);
    sv_rowsel_free(s);
    s = sv_rowsel_apply(d, "host=node* ranks 0-1000000", 0, 1e6, err, sizeof err);
    CHECK(s && s->n == nt);
    sv_rowsel_free(s);
    s = sv_rowsel_apply(d, "host=none", 0, 1e6, err, sizeof err);
    CHECK(s && s->n == 0);
    sv_rowsel_free(s);
}

/* MPI_Wait>X% and sort=MPI_Wait against the exact time each timeline spent
 * in MPI_Wait inside the window; X is the median share, so both sides are
 * met. */
static void test_figures(const sv_doc *d)
{
    uint32_t nt = d->fi->n_timelines, nc = d->fi->n_categories;
    double t0 = d->fi->t_max * 0.2, t1 = d->fi->t_max * 0.7;
    sums su = {calloc((size_t)nt * nc, sizeof(double)), nc, floor(t0), ceil(t1)};
    CHECK(su.ns != NULL);
    if (!su.ns) return;
    slog_query q = {.t0 = (int64_t)su.t0, .t1 = (int64_t)su.t1, .pixel_ns = 1};
    CHECK(slog_reader_query(d->r, &q, add_drawable, NULL, &su, NULL, NULL) == SLOG_OK);
    double span = su.t1 - su.t0;
    double *share = malloc(sizeof *share * nt), *sorted = malloc(sizeof *sorted * nt);
    for (uint32_t t = 0; t < nt; t++) sorted[t] = share[t] = su.ns[(size_t)t * nc + GEN_CAT_WAIT] / span;
    for (uint32_t i = 1; i < nt; i++) /* insertion sort: nt is small */
        for (uint32_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            double x = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = x;
        }
    double median = sorted[nt / 2];
    CHECK(sorted[nt - 1] > sorted[0]); /* the generator varies it */
    char expr[96], err[256];
    snprintf(expr, sizeof expr, "MPI_Wait>%.6f%% sort=MPI_Wait", median * 100);
    sv_rowsel *s = sv_rowsel_apply(d, expr, t0, t1, err, sizeof err);
    CHECK(s != NULL && s->uses_window && s->sort_cat == GEN_CAT_WAIT);
    if (s) {
        uint8_t *in = calloc(nt, 1);
        for (uint32_t i = 0; i < s->n; i++) {
            in[s->list[i]] = 1;
            CHECK(share[s->list[i]] > median - 1e-4);
            if (i) CHECK(share[s->list[i]] <= share[s->list[i - 1]] + 1e-4); /* largest first */
        }
        for (uint32_t t = 0; t < nt; t++)
            if (!in[t]) CHECK(share[t] <= median + 1e-4);
        CHECK(s->n > 0 && s->n < nt);
        free(in);
    }
    sv_rowsel_free(s);
    /* seconds without the percent sign */
    snprintf(expr, sizeof expr, "MPI_Wait<=%.9f", median * span / 1e9);
    s = sv_rowsel_apply(d, expr, t0, t1, err, sizeof err);
    CHECK(s != NULL);
    for (uint32_t i = 0; s && i < s->n; i++) CHECK(share[s->list[i]] <= median + 1e-4);
    sv_rowsel_free(s);
    free(share);
    free(sorted);
    free(su.ns);
}

/* Each row of a fold of a list of single positions holds the values a fold
 * of that timeline alone has. */
static void test_fold_list(const sv_doc *d)
{
    const uint32_t list[] = {9, 2, 30, 5};
    const int W = 120;
    double t1 = (double)d->fi->t_max;
    sv_fold *f = sv_fold_query_list(d->r, 0, t1, W, list, 4, 0, 3, 16, NULL);
    CHECK(f != NULL && f->n_rows == 4 && f->list_tl && f->row_first[0] == 0 && f->row_first[4] == 4);
    if (!f) return;
    for (uint32_t i = 0; i < 4; i++) {
        sv_fold *one = sv_fold_query(d->r, 0, t1, W, list[i], list[i], 1, NULL);
        CHECK(one && one->n_rows == 1 && one->width == f->width);
        for (uint32_t k = 0; one && k < f->n_categories; k++) {
            const float *a = sv_fold_values(f, i, k), *b = sv_fold_values(one, 0, k);
            for (int c = 0; c < W; c++) CHECK_NEAR(a ? a[c] : 0, b ? b[c] : 0, 1e-4);
        }
        sv_fold_free(one);
    }
    char buf[96];
    sv_fold_rows_label(f, 0, 0, d->tl_keys, d->tl_labels, buf, sizeof buf);
    CHECK_STR(buf, d->tl_labels[9]);
    sv_fold_rows_label(f, 1, 3, d->tl_keys, d->tl_labels, buf, sizeof buf);
    CHECK(strstr(buf, d->tl_labels[2]) == buf && strstr(buf, "+2"));
    sv_fold_free(f);
    /* two positions a row */
    f = sv_fold_query_list(d->r, 0, t1, W, list, 4, 0, 3, 2, NULL);
    CHECK(f && f->n_rows == 2 && f->row_first[1] == 2);
    sv_fold_free(f);
    CHECK(sv_fold_query_list(d->r, 0, t1, W, list, 0, 0, 0, 2, NULL) == NULL);
    /* a layout of the list keeps its order */
    sv_layout lay;
    CHECK(sv_layout_build_list(&lay, d->fi->n_timelines, list, 4, 5) == 0);
    CHECK(lay.n_rows == 4 && lay.rows[1].timeline == 2 && lay.rows[3].y == 15 && lay.total_h == 20);
    CHECK(sv_layout_row_of(&lay, 30) == &lay.rows[2] && sv_layout_row_of(&lay, 1) == NULL);
    sv_layout_clear(&lay);
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/rowfilter.slog2", dir);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 64;
    o.per_host = 16;
    o.n_iterations = 40;
    slog_error err = {0};
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    sv_doc d;
    if (sv_doc_open(&d, path, &err) == SLOG_OK) {
        test_parse(&d);
        test_ranks_hosts(&d);
        test_figures(&d);
        test_fold_list(&d);
        sv_doc_close(&d);
    } else {
        CHECK(!"open");
    }
    unlink(path);
    printf("rowfilter: all checks passed\n");
    return 0;
}
