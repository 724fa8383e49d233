/* SPDX-License-Identifier: MIT */
/* test_matrix.c SLOG2_PRINT SLOG2_BUILD WORK_DIR [TRACES_DIR] - the viewer's
 * matrix and profile (matrix.h, profile.h) against slog2-print's CSV of the
 * same file and window: the CSV the windows export is slog2-print's byte
 * for byte; every folded cell of the heat map, for many group sizes, is
 * the sum of slog2-print's rows of its sender and receiver ranges; the
 * picture shows each cell in its value's colour and the empty ones empty,
 * and a cell's centre hits that cell; a cell's first message
 * (sv_matrix_find) is the earliest one a full query finds. On a generated
 * file, and on lulesh-64r built with slog2-build when the traces are
 * there. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "gen.h"
#include "matrix.h"
#include "profile.h"
#include "theme.h"

static char *run(const char *cmd, size_t *len)
{
    FILE *p = popen(cmd, "r");
    CHECKF(p, "popen %s", cmd);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    CHECK(buf);
    size_t k;
    while ((k = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += k;
        if (cap - n < 4096) {
            cap *= 2;
            buf = realloc(buf, cap);
            CHECK(buf);
        }
    }
    buf[n] = 0;
    CHECKF(pclose(p) == 0, "%s failed", cmd);
    *len = n;
    return buf;
}

static char *memstream_text(void (*write)(FILE *, const void *), const void *arg, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    CHECK(f);
    write(f, arg);
    CHECK(fclose(f) == 0);
    return buf;
}

typedef struct csv_cell {
    uint32_t s, r;
    uint64_t messages, bytes, unknown;
    double time_s;
} csv_cell;

static size_t parse_matrix_csv(const char *text, csv_cell **out)
{
    size_t cap = 64, n = 0;
    csv_cell *c = malloc(cap * sizeof *c);
    CHECK(c);
    const char *line = strchr(text, '\n');
    CHECK(line);
    for (line++; *line; line = strchr(line, '\n') + 1) {
        if (n == cap) {
            cap *= 2;
            c = realloc(c, cap * sizeof *c);
            CHECK(c);
        }
        /* sender,receiver,messages,bytes,time_s,mean_bytes,mean_time_s,unknown_bytes */
        csv_cell x;
        const char *p = line;
        char *end;
        x.s = (uint32_t)strtoul(p, &end, 10);
        x.r = (uint32_t)strtoul(end + 1, &end, 10);
        x.messages = strtoull(end + 1, &end, 10);
        x.bytes = strtoull(end + 1, &end, 10);
        x.time_s = strtod(end + 1, &end);
        const char *last = strchr(line, '\n');
        CHECK(last);
        const char *comma = last;
        while (comma > line && comma[-1] != ',') comma--;
        x.unknown = strtoull(comma, NULL, 10);
        c[n++] = x;
        if (!last[1]) break;
    }
    *out = c;
    return n;
}

typedef struct ctx {
    const char *print;
    const char *path;
    slog_reader *r;
    const slog_file_info *fi;
    const char **names;
    int64_t t0, t1;
    char window[96];
    slog_analysis *an;
} ctx;

static void write_matrix(FILE *f, const void *arg)
{
    const ctx *c = arg;
    size_t n;
    const slog_matrix_cell *cells = slog_analysis_matrix(c->an, &n);
    CHECK(sv_matrix_write_csv(f, cells, n) == 0);
}

static void write_profile(FILE *f, const void *arg)
{
    const ctx *c = arg;
    size_t n;
    const slog_profile_row *rows = slog_analysis_profile(c->an, &n);
    slog_profile_row *cat;
    size_t m = sv_profile_by_category(rows, n, c->fi->n_categories, &cat);
    CHECK(m != (size_t)-1);
    CHECK(sv_profile_write_csv(f, cat, m, c->names, c->t0, c->t1, c->fi->n_timelines) == 0);
    free(cat);
}

/* The folded cells against the sums of slog2-print's rows. */
static void check_fold(const ctx *c, const csv_cell *rows, size_t n_rows, uint32_t max_groups)
{
    size_t n;
    const slog_matrix_cell *cells = slog_analysis_matrix(c->an, &n);
    sv_matrix m;
    CHECK(sv_matrix_fold(&m, cells, n, c->fi->n_timelines, max_groups) == 0);
    CHECKF(m.n_groups <= (max_groups ? max_groups : c->fi->n_timelines), "%u groups for at most %u", m.n_groups,
           max_groups);
    CHECK_EQ(m.n_pairs, n_rows);
    uint64_t total = 0;
    for (uint32_t gs = 0; gs < m.n_groups; gs++)
        for (uint32_t gr = 0; gr < m.n_groups; gr++) {
            uint32_t s0, s1, r0, r1;
            sv_matrix_group_range(&m, gs, &s0, &s1);
            sv_matrix_group_range(&m, gr, &r0, &r1);
            sv_matrix_sum want = {0};
            double time_s = 0;
            for (size_t i = 0; i < n_rows; i++)
                if (rows[i].s >= s0 && rows[i].s <= s1 && rows[i].r >= r0 && rows[i].r <= r1) {
                    want.messages += rows[i].messages;
                    want.bytes += rows[i].bytes;
                    want.unknown_bytes += rows[i].unknown;
                    time_s += rows[i].time_s;
                }
            const sv_matrix_sum *have = sv_matrix_cell(&m, gs, gr);
            CHECKF(have->messages == want.messages && have->bytes == want.bytes &&
                       have->unknown_bytes == want.unknown_bytes,
                   "groups of %u: cell %u-%u x %u-%u: %" PRIu64 " messages %" PRIu64 " bytes, slog2-print %" PRIu64
                   " / %" PRIu64,
                   m.group, s0, s1, r0, r1, have->messages, have->bytes, want.messages, want.bytes);
            /* slog2-print prints each row's seconds to the nanosecond */
            CHECKF(fabs(have->time_ns / 1e9 - time_s) < 1e-9 * (double)(n_rows + 1), "time %.9f vs %.9f",
                   have->time_ns / 1e9, time_s);
            total += have->messages;
        }
    CHECK_EQ(total, m.total.messages);
    sv_matrix_clear(&m);
}

static uint32_t pixel(cairo_surface_t *s, double x, double y)
{
    const unsigned char *d = cairo_image_surface_get_data(s);
    int stride = cairo_image_surface_get_stride(s);
    uint32_t p;
    memcpy(&p, d + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
    return p; /* 0xAARRGGBB, opaque */
}

static int near_rgba(uint32_t argb, uint32_t rgba)
{
    for (int k = 0; k < 3; k++) {
        int a = (int)((argb >> (16 - 8 * k)) & 255), b = (int)((rgba >> (24 - 8 * k)) & 255);
        if (abs(a - b) > 2) return 0;
    }
    return 1;
}

/* The picture at a size that folds (or not): every cell's centre pixel. */
static void check_picture(const ctx *c, int w, int h, sv_matrix_metric metric)
{
    size_t n;
    const slog_matrix_cell *cells = slog_analysis_matrix(c->an, &n);
    sv_matrix_geom g;
    sv_matrix_geom_for(w, h, &g);
    sv_matrix m;
    CHECK(sv_matrix_fold(&m, cells, n, c->fi->n_timelines, sv_matrix_geom_max_groups(&g)) == 0);
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
    cairo_t *cr = cairo_create(s);
    sv_render_matrix(cr, w, h, &m, metric, -1, -1, c->window);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    double lo, hi;
    uint64_t other;
    uint64_t n_pos = sv_matrix_range(&m, metric, &lo, &hi, &other);
    CHECK(n_pos > 0);
    const sv_theme *th = sv_theme_current();
    uint32_t bg = (uint32_t)lround(th->bg[0] * 255) << 24 | (uint32_t)lround(th->bg[1] * 255) << 16 |
                  (uint32_t)lround(th->bg[2] * 255) << 8 | 255u;
    uint64_t coloured = 0;
    for (uint32_t gs = 0; gs < m.n_groups; gs++)
        for (uint32_t gr = 0; gr < m.n_groups; gr++) {
            double x, y, cw, ch;
            sv_matrix_cell_rect(&m, &g, gs, gr, &x, &y, &cw, &ch);
            if (cw < 1 || ch < 1) continue;
            double cx = x + floor(cw / 2), cy = y + floor(ch / 2);
            uint32_t hs, hr;
            CHECKF(sv_matrix_hit(&m, &g, cx + 0.5, cy + 0.5, &hs, &hr) && hs == gs && hr == gr,
                   "cell %u,%u: its centre hits %u,%u", gs, gr, hs, hr);
            double v;
            uint32_t want = sv_matrix_value(sv_matrix_cell(&m, gs, gr), metric, &v) ? sv_matrix_colour(v, lo, hi) : bg;
            uint32_t have = pixel(s, cx, cy);
            CHECKF(near_rgba(have, want), "%ux%u, groups of %u, %s: cell %u,%u is #%06x, want #%08x", w, h, m.group,
                   sv_matrix_metric_name(metric), gs, gr, have & 0xffffffu, want);
            coloured += want != bg;
        }
    CHECK(coloured >= n_pos);
    /* the scale's ends are the smallest and largest values' colours */
    CHECK(lo == hi || sv_matrix_colour(lo, lo, hi) == sv_ramp_rgba(0));
    CHECK(sv_matrix_colour(hi, lo, hi) == sv_ramp_rgba(1));
    cairo_surface_destroy(s);
    sv_matrix_clear(&m);
}

typedef struct first_ctx {
    int64_t t0, t1;
    uint32_t s0, s1, r0, r1;
    int64_t first;
} first_ctx;

static slog_cb_result first_cb(void *user, const slog_drawable *d)
{
    first_ctx *f = user;
    if (d->kind == SLOG_KIND_ARROW && d->start >= f->t0 && d->start <= f->t1 && d->timeline >= f->s0 &&
        d->timeline <= f->s1 && d->end_timeline >= f->r0 && d->end_timeline <= f->r1 && d->start < f->first)
        f->first = d->start;
    return SLOG_CONTINUE;
}

static void check_find(const ctx *c)
{
    size_t n;
    const slog_matrix_cell *cells = slog_analysis_matrix(c->an, &n);
    sv_matrix m;
    CHECK(sv_matrix_fold(&m, cells, n, c->fi->n_timelines, 5) == 0);
    int found_any = 0;
    for (uint32_t gs = 0; gs < m.n_groups; gs++)
        for (uint32_t gr = 0; gr < m.n_groups; gr++) {
            first_ctx f = {.t0 = c->t0, .t1 = c->t1, .first = INT64_MAX};
            sv_matrix_group_range(&m, gs, &f.s0, &f.s1);
            sv_matrix_group_range(&m, gr, &f.r0, &f.r1);
            slog_query q = {.t0 = c->t0, .t1 = c->t1, .flags = SLOG_QUERY_NO_PREVIEW};
            slog_error err;
            CHECK(slog_reader_query(c->r, &q, first_cb, NULL, &f, NULL, &err) == SLOG_OK);
            sv_found out;
            int rc = sv_matrix_find(c->r, c->t0, c->t1, f.s0, f.s1, f.r0, f.r1, NULL, NULL, &out, &err);
            CHECKF(rc == (f.first != INT64_MAX), "cell %u-%u x %u-%u: find %d", f.s0, f.s1, f.r0, f.r1, rc);
            CHECK((sv_matrix_cell(&m, gs, gr)->messages > 0) == (rc == 1));
            if (rc != 1) continue;
            found_any = 1;
            CHECKF(out.item.start == f.first, "first message at %" PRId64 ", want %" PRId64, out.item.start, f.first);
            CHECK(out.item.timeline >= f.s0 && out.item.timeline <= f.s1);
            CHECK(out.item.end_timeline >= f.r0 && out.item.end_timeline <= f.r1);
            CHECK(out.item.kind == SLOG_KIND_ARROW);
        }
    CHECK(found_any);
    sv_matrix_clear(&m);
}

/* Checks the window; returns whether it has messages. */
static int check_window(ctx *c, int64_t t0, int64_t t1)
{
    c->t0 = t0;
    c->t1 = t1;
    snprintf(c->window, sizeof c->window, "%.9f:%.9f", t0 / 1e9, t1 / 1e9);
    /* slog2-print reads the window back as llround(s * 1e9) */
    c->t0 = (int64_t)llround(strtod(c->window, NULL) * 1e9);
    c->t1 = (int64_t)llround(strtod(strchr(c->window, ':') + 1, NULL) * 1e9);
    CHECK_CONTEXT("%s --window %s", c->path, c->window);
    slog_analysis_query q = {.t0 = c->t0, .t1 = c->t1};
    slog_error err;
    CHECK(slog_reader_analyse(c->r, &q, &c->an, NULL, &err) == SLOG_OK);

    char cmd[8192];
    size_t len_print, len_ours;
    snprintf(cmd, sizeof cmd, "'%s' '%s' --matrix --window %s --format csv", c->print, c->path, c->window);
    char *want = run(cmd, &len_print);
    char *have = memstream_text(write_matrix, c, &len_ours);
    CHECKF(len_print == len_ours && memcmp(want, have, len_ours) == 0, "matrix CSV differs:\n%s\nvs slog2-print's\n%s",
           have, want);
    csv_cell *rows;
    size_t n_rows = parse_matrix_csv(want, &rows);
    uint32_t nt = c->fi->n_timelines;
    uint32_t sizes[] = {0, 1, 2, 3, 5, 7, nt / 2 ? nt / 2 : 1, nt - 1 ? nt - 1 : 1, nt, nt + 5};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) check_fold(c, rows, n_rows, sizes[i]);
    free(rows);
    free(want);
    free(have);

    snprintf(cmd, sizeof cmd, "'%s' '%s' --profile --window %s --format csv", c->print, c->path, c->window);
    want = run(cmd, &len_print);
    have = memstream_text(write_profile, c, &len_ours);
    CHECKF(len_print == len_ours && memcmp(want, have, len_ours) == 0, "profile CSV differs:\n%s\nvs slog2-print's\n%s",
           have, want);
    free(want);
    free(have);

    /* a plot of fewer pixels than timelines folds; a large one does not */
    for (int metric = 0; n_rows && metric < SV_N_MATRIX_METRICS; metric++) {
        check_picture(c, 600, 660, (sv_matrix_metric)metric);
        check_picture(c, 90, 130, (sv_matrix_metric)metric);
    }
    if (n_rows) check_find(c);
    slog_analysis_free(c->an);
    c->an = NULL;
    return n_rows > 0;
}

static void check_file(const char *print, const char *path)
{
    ctx c = {.print = print, .path = path};
    slog_error err;
    CHECK_CONTEXT("%s", path);
    CHECK(slog_reader_open(&c.r, path, &err) == SLOG_OK);
    c.fi = slog_reader_info(c.r);
    c.names = calloc(c.fi->n_categories + 1, sizeof *c.names);
    CHECK(c.names);
    for (uint32_t k = 0; k < c.fi->n_categories; k++) c.names[k] = slog_reader_category(c.r, k)->name;
    int64_t a = c.fi->t_min, b = c.fi->t_max, span = b - a;
    int with = check_window(&c, a, b);
    with += check_window(&c, a + span / 3, a + span / 2);
    with += check_window(&c, a + span * 3 / 5, a + span * 4 / 5);
    with += check_window(&c, a + span / 10, b - span / 7);
    CHECKF(with >= 3, "only %d of the windows have messages", with);
    free(c.names);
    slog_reader_close(c.r);
    printf("ok %s\n", path);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_matrix SLOG2_PRINT SLOG2_BUILD WORK_DIR [TRACES_DIR]\n");
        return 2;
    }
    const char *print = argv[1], *build = argv[2], *work = argv[3];
    char path[4096];
    snprintf(path, sizeof path, "%s/matrix.slog2", work);
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    o.n_timelines = 23;
    o.n_iterations = 60;
    o.per_host = 4;
    slog_error err;
    CHECK_CONTEXT("generating %.200s", path);
    CHECK(sv_gen_write(path, &o, &err) == SLOG_OK);
    check_file(print, path);

    const char *traces = argc > 4 ? argv[4] : "";
    char meta[4096], cmd[16384];
    snprintf(cmd, sizeof cmd, "ls '%s'/lulesh-64r/*.meta 2>/dev/null", traces);
    FILE *p = *traces ? popen(cmd, "r") : NULL;
    if (!p || !fgets(meta, sizeof meta, p)) {
        if (p) pclose(p);
        printf("lulesh-64r not found under '%s': the real trace is skipped\n", traces);
        return 0;
    }
    pclose(p);
    meta[strcspn(meta, "\n")] = 0;
    snprintf(path, sizeof path, "%s/matrix-lulesh.slog2", work);
    snprintf(cmd, sizeof cmd, "'%s' -q '%s' -o '%s'", build, meta, path);
    CHECK_CONTEXT("%.240s", cmd);
    CHECK(system(cmd) == 0);
    check_file(print, path);
    return 0;
}
