/* SPDX-License-Identifier: MIT */
/* test_print_cli.c - slog2-print on a generated file: overview, --window
 * csv/json, --category, --preview, --matrix --slices, --check (good and
 * bit-flipped), --stats,
 * --help, a missing file.
 *
 *   test_print_cli SLOG2_PRINT SLOG_TESTGEN [VALGRIND]
 *
 * Under the memcheck ctest variant (SLOG2_UNDER_VALGRIND=1) the children are
 * run under VALGRIND too, since valgrind does not follow them. */
#include "testutil.h"

#include <math.h>

#include <fcntl.h>
#include <inttypes.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#define VG_EXIT 99

static const char *g_print, *g_vg;
static char *g_dir;

typedef struct run {
    int status; /* exit code, or 128+signal */
    char *out, *err;
    size_t out_len, err_len;
} run;

static void run_free(run *r)
{
    free(r->out);
    free(r->err);
}

/* Run argv (NULL-terminated, argv[0] = program) with stdout/stderr captured. */
static run spawn(const char *prog, const char *const *args)
{
    const char *argv[64];
    int n = 0;
    if (g_vg) {
        argv[n++] = g_vg;
        argv[n++] = "--error-exitcode=99";
        argv[n++] = "--leak-check=full";
        argv[n++] = "--errors-for-leak-kinds=definite";
        argv[n++] = "--quiet";
    }
    argv[n++] = prog;
    for (int i = 0; args[i]; i++) argv[n++] = args[i];
    argv[n] = NULL;
    char *outp = t_path(g_dir, "stdout"), *errp = t_path(g_dir, "stderr");
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t pid;
    int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    CHECKF(rc == 0, "posix_spawn %s: %s", argv[0], strerror(rc));
    int ws;
    CHECK(waitpid(pid, &ws, 0) == pid);
    run r = {0};
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
    r.out = (char *)t_read_file(outp, &r.out_len);
    r.err = (char *)t_read_file(errp, &r.err_len);
    CHECK(r.out && r.err);
    r.out = realloc(r.out, r.out_len + 1);
    r.err = realloc(r.err, r.err_len + 1);
    r.out[r.out_len] = 0;
    r.err[r.err_len] = 0;
    printf("$ %s", prog);
    for (int i = 0; args[i]; i++) printf(" %s", args[i]);
    printf("  -> exit %d, %zu bytes stdout, %zu bytes stderr\n", r.status, r.out_len, r.err_len);
    CHECKF(r.status < 128, "slog2-print killed by signal %d; stderr:\n%s", r.status - 128, r.err);
    CHECKF(r.status != VG_EXIT || !g_vg, "valgrind reported errors in slog2-print:\n%s", r.err);
    unlink(outp);
    unlink(errp);
    free(outp);
    free(errp);
    return r;
}

#define PRINT(...) spawn(g_print, (const char *const[]){__VA_ARGS__, NULL})

static size_t count_lines(const char *s)
{
    size_t n = 0;
    const char *l = s;
    while (*l) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len > 0) n++;
        if (!e) break;
        l = e + 1;
    }
    return n;
}

/* Every csv row against the library's own query: kind, timeline, start,
 * end (seconds from t = 0, 9 decimals), end_timeline (arrows only). */
typedef struct row {
    int kind;
    long long tl, etl, start, end;
} row;
static int cmp_row(const void *a, const void *b)
{
    const row *x = a, *y = b;
#define C(f) \
    if (x->f != y->f) return x->f < y->f ? -1 : 1
    C(start);
    C(end);
    C(tl);
    C(etl);
    C(kind);
#undef C
    return 0;
}

static long long sec_to_ns(const char *s)
{
    /* exact decimal parse: [-]S.FFFFFFFFF */
    int neg = *s == '-';
    if (neg) s++;
    long long sec = 0, frac = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9') sec = sec * 10 + (*s++ - '0');
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++, digits++)
            if (digits < 9) frac = frac * 10 + (*s - '0');
    for (; digits < 9; digits++) frac *= 10;
    long long v = sec * 1000000000LL + frac;
    return neg ? -v : v;
}

static void check_csv_rows(slog_reader *rd, const char *csv)
{
    t_dvec v = {0};
    slog_error err;
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    CHECK_OK(slog_reader_query(rd, &q, t_collect_drawable, NULL, &v, NULL, &err), &err);
    row *want = calloc(v.n + 1, sizeof *want), *got = calloc(v.n + 1, sizeof *got);
    CHECK(want && got);
    for (size_t i = 0; i < v.n; i++)
        want[i] = (row){(int)v.d[i].kind, v.d[i].tl, v.d[i].kind == SLOG_KIND_ARROW ? (long long)v.d[i].etl : -1,
                        v.d[i].start, v.d[i].end};
    char *copy = strdup(csv), *save = NULL;
    size_t n = 0;
    int first = 1;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        if (first) {
            first = 0;
            continue;
        }
        char *f[8] = {0}, *p = l;
        for (int k = 0; k < 7 && p; k++) {
            f[k] = p;
            p = strchr(p, ',');
            if (p) *p++ = 0;
        }
        CHECKF(f[5] != NULL, "csv row with fewer than 6 columns: '%s'", l);
        CHECKF(n < v.n, "more csv rows than drawables");
        row *r = &got[n++];
        r->kind = !strcmp(f[0], "state") ? 0 : !strcmp(f[0], "arrow") ? 1 : !strcmp(f[0], "event") ? 2 : -1;
        CHECKF(r->kind >= 0, "csv kind '%s'", f[0]);
        r->tl = atoll(f[2]);
        r->start = sec_to_ns(f[3]);
        r->end = sec_to_ns(f[4]);
        r->etl = f[5][0] ? atoll(f[5]) : -1;
    }
    CHECK(n == v.n);
    t_qsort(want, n, sizeof *want, cmp_row);
    t_qsort(got, n, sizeof *got, cmp_row);
    for (size_t i = 0; i < n; i++)
        CHECKF(cmp_row(&want[i], &got[i]) == 0,
               "csv row %zu: kind %d tl %lld etl %lld start %lld end %lld, "
               "library: kind %d tl %lld etl %lld start %lld end %lld",
               i, got[i].kind, got[i].tl, got[i].etl, got[i].start, got[i].end, want[i].kind, want[i].tl, want[i].etl,
               want[i].start, want[i].end);
    free(copy);
    free(want);
    free(got);
    t_dvec_free(&v);
}

/* --preview text: lines "TIMELINE CATEGORY v v v ...": state rows are
 * fractions covered (slog.h: min(1, ...)), so never above 1. */
static void check_preview_text(slog_reader *rd, const char *out)
{
    const slog_file_info *fi = slog_reader_info(rd);
    char *copy = strdup(out), *save = NULL;
    unsigned state_rows = 0;
    for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        unsigned tl;
        char name[128];
        int used = 0;
        if (sscanf(l, " %u %127s%n", &tl, name, &used) != 2) continue;
        int is_state = 0;
        for (uint32_t c = 0; c < fi->n_categories; c++)
            if (!strcmp(slog_reader_category(rd, c)->name, name))
                is_state = slog_reader_category(rd, c)->kind == SLOG_KIND_STATE;
        if (!is_state) continue;
        state_rows++;
        const char *p = l + used;
        char *end;
        for (double x = strtod(p, &end); end != p; p = end, x = strtod(p, &end))
            CHECKF(x >= 0 && x <= 1.0 + 1e-6, "--preview state row '%s': value %g is not a fraction in [0,1]:\n%s",
                   name, x, l);
    }
    CHECKF(state_rows > 0, "--preview: no state rows recognised in:\n%s", out);
    free(copy);
}

/* --matrix --slices on a file with an overview of groups of 4 timelines:
 * each CSV line's count equals the model's arrows sent in its slice from
 * its sender group to its receiver group, and the lines hold every arrow
 * sent in the slices; the whole span (from the overview) and a window of
 * a hundredth of it (finer than the overview counts, in a file whose
 * overview starts three levels above the leaves). */
static void check_slices(void)
{
    char *path = t_path(g_dir, "groups.slog2");
    t_model m;
    t_rng rng = {11};
    t_gen_params gp = {.n_drawables = 4000, .max_timelines = 40, .max_categories = 4};
    t_model_init(&m);
    t_model_random(&m, &rng, &gp);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.block_timelines = 8;
    o.group_timelines = 4;
    o.overview_level = 3;
    o.leaf_drawables = 16;
    slog_error err;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    slog_reader *rd = NULL;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    CHECKF(fi->overview_depth > 0 && fi->group_timelines == 4 && fi->n_arrows > 0,
           "overview depth %u, groups of %u, %" PRIu64 " arrows", fi->overview_depth, fi->group_timelines,
           fi->n_arrows);
    char win[64];
    int64_t span = fi->t_max - fi->t_min;
    snprintf(win, sizeof win, "%.9f:%.9f", (fi->t_min + span / 2) / 1e9, (fi->t_min + span / 2 + span / 100) / 1e9);
    const char *windows[] = {"all", win};
    const char *from[] = {"overview", "blocks"}, *slices[] = {"2", "5"};
    for (int w = 0; w < 2; w++) {
        run r = PRINT(path, "--matrix", "--slices", slices[w], "--window", windows[w], "--format", "csv");
        CHECKF(r.status == 0, "--matrix --slices %s --window %s: exit %d: %s", slices[w], windows[w], r.status, r.err);
        CHECKF(
            !strncmp(r.out, "slice,start_s,end_s,sender_first,sender_last,receiver_first,receiver_last,messages\n", 81),
            "--slices CSV header:\n%.100s", r.out);
        char *copy = strdup(r.out), *save = NULL;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        uint64_t listed = 0;
        for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            if (l == copy) continue; /* the header */
            unsigned slice;
            double a, b;
            unsigned long long sa, sb, ra, rb, n;
            CHECKF(sscanf(l, "%u,%lf,%lf,%llu,%llu,%llu,%llu,%llu", &slice, &a, &b, &sa, &sb, &ra, &rb, &n) == 8,
                   "--slices CSV line '%s'", l);
            int64_t t0 = llround(a * 1e9), t1 = llround(b * 1e9);
            unsigned long long last = fi->n_timelines - 1u;
            CHECKF(sa % 4 == 0 && ra % 4 == 0 && sb == (sa + 3 < last ? sa + 3 : last) &&
                       rb == (ra + 3 < last ? ra + 3 : last),
                   "groups %llu-%llu, %llu-%llu", sa, sb, ra, rb);
            uint64_t want = 0;
            for (size_t k = 0; k < m.n; k++) {
                const t_draw *d = &m.d[k];
                want += d->kind == SLOG_KIND_ARROW && d->start >= t0 && d->start <= t1 && d->tl / 4 == sa / 4 &&
                        d->etl / 4 == ra / 4;
            }
            CHECKF(n == want && n > 0, "slice %u [%s]: %llu messages %llu-%llu -> %llu-%llu, brute force %" PRIu64,
                   slice, l, n, sa, sb, ra, rb, want);
            listed += n;
            lo = t0 < lo ? t0 : lo;
            hi = t1 > hi ? t1 : hi;
        }
        uint64_t in = 0;
        for (size_t k = 0; k < m.n; k++)
            in += m.d[k].kind == SLOG_KIND_ARROW && m.d[k].start >= lo && m.d[k].start <= hi;
        CHECKF(listed == in && in > 0, "--window %s: %" PRIu64 " messages listed, %" PRIu64 " sent in the slices",
               windows[w], listed, in);
        free(copy);
        run_free(&r);
        r = PRINT(path, "--matrix", "--slices", slices[w], "--window", windows[w]);
        CHECKF(r.status == 0 && strstr(r.out, from[w]),
               "--window %s: the text should say the counts are from the %s:\n%.200s", windows[w], from[w], r.out);
        run_free(&r);
    }
    slog_reader_close(rd);
    t_model_free(&m);
    remove(path);
    free(path);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_print_cli SLOG2_PRINT SLOG_TESTGEN [VALGRIND]\n");
        return 2;
    }
    g_print = argv[1];
    if (argc > 3 && t_under_valgrind() && access(argv[3], X_OK) == 0) g_vg = argv[3];
    g_dir = t_mkdtemp("printcli");
    char *file = t_path(g_dir, "cli.slog2");
    CHECK_CONTEXT("slog2-print on %s", file);

    /* the test file, written by slog_testgen (a separate program, as a user
     * would); the first seed giving several timelines */
    slog_reader *rd = NULL;
    slog_error err;
    for (int seed = 5; seed < 40; seed++) {
        char seed_s[16];
        snprintf(seed_s, sizeof seed_s, "%d", seed);
        const char *gen_args[] = {file, "300", seed_s, NULL};
        const char *saved = g_vg;
        g_vg = NULL;
        run r = spawn(argv[2], gen_args);
        g_vg = saved;
        CHECKF(r.status == 0, "slog_testgen failed: %s", r.err);
        run_free(&r);
        CHECK_OK(slog_reader_open(&rd, file, &err), &err);
        if (slog_reader_info(rd)->n_timelines >= 3 && slog_reader_info(rd)->n_arrows > 0) break;
        slog_reader_close(rd);
        rd = NULL;
    }
    CHECK(rd != NULL);
    const slog_file_info *fi = slog_reader_info(rd);
    uint64_t n_draw = fi->n_drawables;
    const char *cat0 = slog_reader_category(rd, 0)->name;
    uint64_t cat0_count = slog_reader_category_stats(rd, 0)->count;
    slog_node_info ni;
    CHECK_OK(slog_reader_node(rd, fi->n_nodes - 1, &ni), NULL);

    run r = PRINT("--help");
    CHECKF(r.status == 0, "--help exit %d", r.status);
    CHECK(r.out_len + r.err_len > 0);
    run_free(&r);
    r = PRINT("--version");
    CHECKF(r.status == 0, "--version exit %d", r.status);
    CHECKF(strncmp(r.out, "slog2-print ", 12) == 0 && strstr(r.out, ".slog2 format") != NULL, "--version: '%s'", r.out);
    run_free(&r);

    /* overview: header, categories with counts, timelines, tree shape, annotations */
    r = PRINT(file);
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECKF(strstr(r.out, cat0) != NULL, "overview does not list category '%s':\n%s", cat0, r.out);
    CHECKF(strstr(r.out, slog_reader_timeline(rd, 0)->label) != NULL, "overview does not list timeline label");
    CHECKF(strstr(r.out, "generator") != NULL, "overview does not list the annotation 'generator'");
    run_free(&r);

    /* csv: header + one row per drawable */
    r = PRINT(file, "--window", "all", "--format", "csv");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECKF(strncmp(r.out, "kind,category,timeline,start,end,end_timeline", 45) == 0, "csv header: '%.80s'", r.out);
    CHECKF(count_lines(r.out) == n_draw + 1, "csv: %zu lines for %" PRIu64 " drawables", count_lines(r.out), n_draw);
    check_csv_rows(rd, r.out);
    run_free(&r);

    r = PRINT(file, "--window", "all", "--category", cat0, "--format", "csv");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECKF(count_lines(r.out) == cat0_count + 1, "--category %s: %zu lines for %" PRIu64 " drawables", cat0,
           count_lines(r.out), cat0_count);
    run_free(&r);

    /* --timeline 1: drawables on timeline 1, arrows also by receiver */
    {
        uint8_t *mask = calloc(fi->n_timelines, 1);
        CHECK(mask);
        mask[1] = 1;
        slog_query q = {INT64_MIN, INT64_MAX, mask, 0, 0};
        t_dvec v = {0};
        CHECK_OK(slog_reader_query(rd, &q, t_collect_drawable, NULL, &v, NULL, &err), &err);
        r = PRINT(file, "--window", "all", "--timeline", "1", "--format", "csv");
        CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
        CHECKF(count_lines(r.out) == v.n + 1, "--timeline 1: %zu lines for %zu drawables", count_lines(r.out), v.n);
        CHECK(v.n < n_draw);
        run_free(&r);
        t_dvec_free(&v);
        free(mask);
    }

    r = PRINT(file, "--window", "all", "--format", "json");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    {
        const char *s = r.out;
        while (*s == ' ' || *s == '\n') s++;
        CHECKF(*s == '[' || *s == '{', "json output starts with '%.20s'", s);
    }
    run_free(&r);

    r = PRINT(file, "--window", "all");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK(count_lines(r.out) >= n_draw);
    run_free(&r);

    /* a window in seconds from the trace start */
    r = PRINT(file, "--window", "0:0.000001", "--format", "csv");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK(count_lines(r.out) >= 1 && count_lines(r.out) <= n_draw + 1);
    run_free(&r);

    r = PRINT(file, "--preview", "all", "--bins", "50");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    CHECK(r.out_len > 0);
    check_preview_text(rd, r.out);
    run_free(&r);

    r = PRINT(file, "--window", "all", "--format", "csv", "--stats");
    CHECKF(r.status == 0, "exit %d: %s", r.status, r.err);
    {
        const char *s = strstr(r.err, "nodes_read=");
        unsigned long long nr = 0, br = 0;
        CHECKF(s && sscanf(s, "nodes_read=%llu bytes_read=%llu", &nr, &br) == 2,
               "--stats: no 'nodes_read=N bytes_read=N' on stderr:\n%s", r.err);
        CHECKF(nr > 0 && br > 0, "--stats: nodes_read=%llu bytes_read=%llu", nr, br);
        CHECK(strstr(r.out, "nodes_read=") == NULL);
    }
    run_free(&r);

    r = PRINT("--check", file);
    CHECKF(r.status == 0, "--check on a good file: exit %d: %s", r.status, r.err);
    run_free(&r);

    /* flip one bit in the middle of the last directory entry's node block */
    size_t size;
    unsigned char *b = t_read_file(file, &size);
    CHECK(b);
    b[ni.offset + ni.size / 2 + 8] ^= 0x04;
    char *bad = t_path(g_dir, "flipped.slog2");
    CHECK(t_write_file(bad, b, size) == 0);
    free(b);
    r = PRINT("--check", bad);
    CHECKF(r.status != 0, "--check on a bit-flipped file exits 0:\n%s", r.out);
    CHECKF(strstr(r.err, bad) != NULL || strstr(r.out, bad) != NULL, "--check error does not name the file:\n%s",
           r.err);
    run_free(&r);

    char *missing = t_path(g_dir, "missing.slog2");
    r = PRINT(missing);
    CHECKF(r.status != 0, "missing file: exit 0");
    CHECKF(strstr(r.err, missing) != NULL, "missing file: stderr does not name it:\n%s", r.err);
    CHECKF(strstr(r.err, "input/output error") == NULL && strstr(r.err, "No such file") != NULL,
           "missing file: stderr should say it does not exist, not an I/O error:\n%s", r.err);
    run_free(&r);

    /* One rule for requests the file cannot answer: a usage error (exit 2)
     * that says what the file has. */
    {
        char win[64], tl[32];
        snprintf(win, sizeof win, "%.9f:%.9f", fi->t_max / 1e9 + 5, fi->t_max / 1e9 + 6);
        snprintf(tl, sizeof tl, "%u", fi->n_timelines);
        const char *cases[][4] = {
            {"--window", win, "outside the trace", NULL},
            {"--preview", win, "outside the trace", NULL},
            {"--window", "0.6:0.5", "T0 must not be after T1", NULL},
            {"--timeline", tl, "timelines", NULL},
        };
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            r = PRINT(file, cases[i][0], cases[i][1]);
            CHECKF(r.status == 2 && strstr(r.err, cases[i][2]) != NULL,
                   "%s %s: exit %d (expected 2), stderr should say '%s':\n%s", cases[i][0], cases[i][1], r.status,
                   cases[i][2], r.err);
            run_free(&r);
        }
    }

    /* --rows: the timelines folded into rows (slog_reader_grid): one CSV
     * line per (row, category), rows of consecutive timelines that cover
     * them all, values as the library gives them */
    {
        r = PRINT(file, "--preview", "all", "--bins", "8", "--rows", "2", "--format", "csv");
        CHECKF(r.status == 0, "--rows: exit %d: %s", r.status, r.err);
        CHECKF(!strncmp(r.out, "first_timeline,last_timeline,category,c0,", 41), "--rows CSV header:\n%s", r.out);
        slog_grid_query gq = {fi->t_min, fi->t_max, 0, fi->n_timelines - 1, 8, 2, 0};
        slog_grid *g = NULL;
        CHECK_OK(slog_reader_grid(rd, &gq, &g, NULL, &err), &err);
        char *copy = strdup(r.out), *save = NULL;
        unsigned lines = 0, covered = 0;
        for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            unsigned a, b;
            char name[128];
            int used = 0;
            if (sscanf(l, "%u,%u,%127[^,]%n", &a, &b, name, &used) != 3) continue;
            lines++;
            uint32_t row = 0, ga = 0, gb = 0;
            for (; row < slog_grid_n_rows(g); row++) {
                slog_grid_row_range(g, row, &ga, &gb);
                if (ga == a) break;
            }
            CHECKF(row < slog_grid_n_rows(g) && gb == b, "--rows line for timelines %u-%u is not a row of the grid", a,
                   b);
            uint32_t cat = UINT32_MAX;
            for (uint32_t c = 0; c < fi->n_categories; c++)
                if (!strcmp(slog_reader_category(rd, c)->name, name)) cat = c;
            const float *v = cat == UINT32_MAX ? NULL : slog_grid_values(g, row, cat);
            CHECKF(v, "--rows line for %u-%u %s: the grid has no values there", a, b, name);
            const char *p = l + used;
            for (uint32_t j = 0; j < 8; j++) {
                double x = strtod(p + 1, (char **)&p);
                CHECKF(fabs(x - v[j]) <= 1e-4 * (1 + fabs(v[j])), "--rows %u-%u %s column %u: printed %g, grid %g", a,
                       b, name, j, x, v[j]);
            }
            covered |= 1u << (row & 31);
        }
        CHECKF(lines > 0 && covered == (1u << slog_grid_n_rows(g)) - 1, "--rows: %u lines, rows covered %#x of %u:\n%s",
               lines, covered, slog_grid_n_rows(g), r.out);
        free(copy);
        run_free(&r);
        /* the text form: the same values with three decimals, a line per
         * (row, category), the values of a line written at once */
        r = PRINT(file, "--preview", "all", "--bins", "8", "--rows", "2");
        CHECKF(r.status == 0, "--rows text: exit %d: %s", r.status, r.err);
        copy = strdup(r.out);
        save = NULL;
        unsigned text_lines = 0;
        for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            unsigned a, b;
            char name[128];
            int used = 0;
            if (l[0] == '#' || sscanf(l, "%u-%u %127s%n", &a, &b, name, &used) != 3) continue;
            text_lines++;
            uint32_t row = 0, ga = 0, gb = 0;
            for (; row < slog_grid_n_rows(g); row++) {
                slog_grid_row_range(g, row, &ga, &gb);
                if (ga == a) break;
            }
            CHECKF(row < slog_grid_n_rows(g) && gb == b, "--rows text line %u-%u is not a row of the grid", a, b);
            uint32_t cat = UINT32_MAX;
            for (uint32_t c = 0; c < fi->n_categories; c++)
                if (!strcmp(slog_reader_category(rd, c)->name, name)) cat = c;
            const float *v = cat == UINT32_MAX ? NULL : slog_grid_values(g, row, cat);
            CHECKF(v, "--rows text line %u-%u %s: the grid has no values there", a, b, name);
            char *p = l + used, *end = NULL;
            for (uint32_t j = 0; j < 8; j++) {
                double x = strtod(p, &end);
                CHECKF(end != p, "--rows text %u-%u %s: column %u missing:\n%s", a, b, name, j, l);
                CHECKF(fabs(x - v[j]) <= 5e-4 + 1e-6 * fabs(v[j]),
                       "--rows text %u-%u %s column %u: printed %g, grid %g", a, b, name, j, x, v[j]);
                p = end;
            }
            while (*p == ' ') p++;
            CHECKF(*p == 0, "--rows text %u-%u %s: more than 8 columns:\n%s", a, b, name, l);
        }
        CHECKF(text_lines == lines, "--rows: %u text lines, %u CSV lines", text_lines, lines);
        free(copy);
        slog_grid_free(g);
        run_free(&r);
        /* usage errors: no rows, --rows without --preview, two ranges */
        for (int i = 0; i < 3; i++) {
            if (i == 0)
                r = PRINT(file, "--preview", "all", "--rows", "0");
            else if (i == 1)
                r = PRINT(file, "--rows", "3");
            else
                r = PRINT(file, "--preview", "all", "--rows", "2", "-t", "0", "-t", "1");
            CHECKF(r.status == 2 && strstr(r.err, "--rows"), "bad --rows case %d: exit %d (want 2):\n%s", i, r.status,
                   r.err);
            run_free(&r);
        }
    }

    /* A DUMPI trace's .meta, whatever its name, gets told to slog2-build. */
    char *meta = t_path(g_dir, "trace.txt");
    const char meta_text[] = "hostname=vm\nnumprocs=4\nusername=u\nstartime=1\nfileprefix=/tmp/t\nversion=13\n";
    CHECK(t_write_file(meta, meta_text, sizeof meta_text - 1) == 0);
    r = PRINT(meta);
    CHECKF(r.status == 1 && strstr(r.err, "DUMPI trace") && strstr(r.err, "slog2-build"),
           "a .meta: exit %d, stderr should point to slog2-build:\n%s", r.status, r.err);
    run_free(&r);
    free(meta);

    r = PRINT(file, "--no-such-option");
    CHECKF(r.status != 0, "unknown option: exit 0");
    run_free(&r);
    r = PRINT("-");
    CHECKF(r.status == 2, "'-' (standard input): exit %d, expected 2 (usage)", r.status);
    CHECKF(strstr(r.err, "standard input") != NULL, "'-': stderr does not say why:\n%s", r.err);
    run_free(&r);

    check_slices();
    r = PRINT(file, "--matrix", "--slices", "4");
    CHECKF(r.status == 2 && strstr(r.err, "no message counts between groups"),
           "--slices on a file without an overview: exit %d, stderr:\n%s", r.status, r.err);
    run_free(&r);
    r = PRINT(file, "--slices", "4");
    CHECKF(r.status == 2 && strstr(r.err, "--slices goes with --matrix"), "--slices alone: exit %d:\n%s", r.status,
           r.err);
    run_free(&r);

    slog_reader_close(rd);
    t_rmtree(g_dir);
    free(g_dir);
    free(file);
    free(bad);
    free(missing);
    printf("PASS\n");
    return 0;
}
