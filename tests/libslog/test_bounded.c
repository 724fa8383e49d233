/* SPDX-License-Identifier: MIT */
/* test_bounded.c - reads are bounded by the window's pixel columns, not by
 * the trace length (slog.h above slog_reader_query). Two files of the same
 * density (64 timelines, same drawables per second per timeline), one 100x
 * longer: a full-span query at the same pixel width (span/1920) must read
 * bytes of the same order (within 2x), and a window of 1/1000 of the span
 * far fewer bytes than the file.
 *
 * Default sizes ~10 MB and ~1 GB; SLOG2_BIG_TEST=0 (or the valgrind env)
 * shrinks them 10x. SLOG2_BOUNDED_NS overrides the short trace's length. */
#include "testutil.h"

#include <inttypes.h>
#include <unistd.h>

#define N_TL 64

typedef struct pend {
    int64_t s, e;
    uint32_t tl, etl;
} pend;
typedef struct item {
    int64_t key;
    slog_drawable d;
    int64_t info[2];
} item;

static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

/* Stream a trace of the given length straight into the writer (no model in
 * memory): per timeline back-to-back states of 1..10 us with small gaps,
 * an arrow to another timeline after every 4th state, an event every 8th. */
static void write_trace(const char *path, int64_t length_ns, uint64_t seed, uint64_t *n_out)
{
    slog_writer *w;
    slog_error err;
    CHECK_OK(slog_writer_open(&w, path, NULL, &err), &err);
    const char *fn[] = {"bytes", "tag"};
    const uint8_t ft[] = {SLOG_FIELD_BYTES, SLOG_FIELD_INT};
    slog_category cats[] = {{SLOG_KIND_STATE, "compute", "", 0x808080ff, 0, NULL, NULL},
                            {SLOG_KIND_STATE, "MPI_Send", "p2p", 0xff0000ff, 2, fn, ft},
                            {SLOG_KIND_ARROW, "message", "p2p", 0xffffffff, 2, fn, ft},
                            {SLOG_KIND_EVENT, "marker", "", 0x00ff00ff, 0, NULL, NULL}};
    uint32_t id;
    for (int i = 0; i < 4; i++) CHECK_OK(slog_writer_add_category(w, &cats[i], &id), NULL);
    for (uint32_t t = 0; t < N_TL; t++) {
        char label[32];
        snprintf(label, sizeof label, "rank %u", t);
        slog_timeline tl = {t, 0, label, "node0"};
        CHECK_OK(slog_writer_add_timeline(w, &tl, &id), NULL);
    }
    t_rng r = {seed};
    int64_t next_s[N_TL], next_e[N_TL];
    uint32_t count[N_TL] = {0};
    for (int t = 0; t < N_TL; t++) {
        next_s[t] = (int64_t)t_below(&r, 1000);
        next_e[t] = next_s[t] + 1000 + (int64_t)t_below(&r, 9000);
    }
    pend *pa = malloc(4096 * sizeof *pa);
    size_t n_pa = 0;
    size_t cap = 1 << 16;
    item *batch = malloc(cap * sizeof *batch);
    CHECK(pa && batch);
    const int64_t slice = 100000; /* 100 us */
    uint64_t n = 0;
    for (int64_t s0 = 0; s0 < length_ns; s0 += slice) {
        int64_t s1 = s0 + slice;
        size_t nb = 0;
        for (int t = 0; t < N_TL; t++) {
            while (next_e[t] < s1 && next_e[t] <= length_ns) {
                CHECK(nb + 4 < cap);
                item *it = &batch[nb++];
                uint32_t c = count[t]++;
                it->key = next_e[t];
                it->info[0] = (int64_t)t_below(&r, 1 << 20);
                it->info[1] = c & 7 ? (int64_t)c : SLOG_INFO_UNKNOWN;
                it->d = (slog_drawable){SLOG_KIND_STATE, c & 1,     (uint32_t)t,   (uint32_t)t,
                                        next_s[t],       next_e[t], c & 1 ? 2 : 0, NULL};
                if ((c & 7) == 0) {
                    item *ev = &batch[nb++];
                    ev->key = next_e[t]; /* at the state's end: keys of a slice stay >= its start */
                    ev->d =
                        (slog_drawable){SLOG_KIND_EVENT, 3, (uint32_t)t, (uint32_t)t, next_e[t], next_e[t], 0, NULL};
                }
                if ((c & 3) == 3 && n_pa < 4096) {
                    uint32_t to = (uint32_t)((t + 1 + t_below(&r, N_TL - 1)) % N_TL);
                    int64_t lat = 500 + (int64_t)t_below(&r, 4000);
                    pa[n_pa++] = (pend){next_e[t], next_e[t] + lat, (uint32_t)t, to};
                }
                next_s[t] = next_e[t] + (int64_t)t_below(&r, 2000);
                next_e[t] = next_s[t] + 1000 + (int64_t)t_below(&r, 9000);
            }
        }
        for (size_t k = 0; k < n_pa;) {
            if (pa[k].e < s1 && pa[k].e <= length_ns) {
                CHECK(nb < cap);
                item *it = &batch[nb++];
                it->key = pa[k].e;
                it->info[0] = 1024;
                it->info[1] = (int64_t)k;
                it->d = (slog_drawable){SLOG_KIND_ARROW, 2, pa[k].tl, pa[k].etl, pa[k].s, pa[k].e, 2, NULL};
                pa[k] = pa[--n_pa];
            } else {
                k++;
            }
        }
        /* emit in end order */
        t_qsort(batch, nb, sizeof *batch, cmp_item);
        for (size_t i = 0; i < nb; i++) {
            batch[i].d.info = batch[i].info;
            slog_status st = slog_writer_add(w, &batch[i].d);
            if (st != SLOG_OK) {
                err = *slog_writer_error(w);
                CHECK_OK(st, &err);
            }
        }
        n += nb;
    }
    CHECK_OK(slog_writer_finish(w, &err), &err);
    free(pa);
    free(batch);
    *n_out = n;
}

typedef struct figures {
    uint64_t size, n, full_bytes, full_nodes, full_draw, full_prev, win_bytes, win_nodes;
    double write_s, full_s, win_s;
} figures;

static slog_cb_result count_d(void *u, const slog_drawable *d)
{
    (void)u, (void)d;
    return SLOG_CONTINUE;
}
static slog_cb_result count_p(void *u, const slog_preview *p)
{
    (void)u, (void)p;
    return SLOG_CONTINUE;
}

static void measure(const char *path, figures *f)
{
    slog_reader *rd;
    slog_error err;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    const slog_file_info *fi = slog_reader_info(rd);
    f->size = fi->file_size;
    int64_t span = fi->t_max - fi->t_min;
    slog_query q = {fi->t_min, fi->t_max, NULL, span / 1920, 0};
    slog_query_stats st;
    double t0 = t_now();
    CHECK_OK(slog_reader_query(rd, &q, count_d, count_p, NULL, &st, &err), &err);
    f->full_s = t_now() - t0;
    f->full_bytes = st.bytes_read, f->full_nodes = st.nodes_read;
    f->full_draw = st.drawables, f->full_prev = st.previews;
    int64_t w = span / 1000;
    q.t0 = fi->t_min + span / 2 - w / 2 + 12345;
    q.t1 = q.t0 + w;
    q.pixel_ns = w / 1920;
    t0 = t_now();
    CHECK_OK(slog_reader_query(rd, &q, count_d, count_p, NULL, &st, &err), &err);
    f->win_s = t_now() - t0;
    f->win_bytes = st.bytes_read, f->win_nodes = st.nodes_read;
    slog_reader_close(rd);
}

static void print_fig(const char *name, int64_t len, const figures *f)
{
    printf("%s trace: %.3f s, %" PRIu64 " drawables, %.1f MB (write %.1f s)\n", name, (double)len * 1e-9, f->n,
           (double)f->size / 1e6, f->write_s);
    printf("  full span at span/1920: %" PRIu64 " bytes in %" PRIu64 " nodes (%" PRIu64 " drawables, %" PRIu64
           " previews) %.3f s\n",
           f->full_bytes, f->full_nodes, f->full_draw, f->full_prev, f->full_s);
    printf("  1/1000 window:          %" PRIu64 " bytes in %" PRIu64 " nodes (%.4f%% of the file) %.3f s\n",
           f->win_bytes, f->win_nodes, 100.0 * (double)f->win_bytes / (double)f->size, f->win_s);
}

int main(void)
{
    int small = t_under_valgrind() || t_env_ll("SLOG2_BIG_TEST", 1) == 0;
    /* ~10 MB / 1 GB (~15 bytes a drawable): 64 timelines x (states ~6.5 us
     * apart + arrows + events) for 50 ms / 5 s */
    int64_t len = t_env_ll("SLOG2_BOUNDED_NS", small ? 5000000 : 50000000);
    char *dir = t_mkdtemp("bounded");
    char *p1 = t_path(dir, "short.slog2"), *p2 = t_path(dir, "long.slog2");
    figures a = {0}, b = {0};
    double t0 = t_now();
    write_trace(p1, len, 1, &a.n);
    a.write_s = t_now() - t0;
    measure(p1, &a);
    print_fig("short", len, &a);
    fflush(stdout);
    t0 = t_now();
    write_trace(p2, len * 100, 2, &b.n);
    b.write_s = t_now() - t0;
    measure(p2, &b);
    print_fig("long ", len * 100, &b);
    double ratio = (double)b.full_bytes / (double)a.full_bytes;
    printf("full-span bytes long/short = %.2f (must be within [0.5, 2])\n", ratio);
    fflush(stdout);
    CHECKF(ratio <= 2.0 && ratio >= 0.5,
           "full-span query reads %" PRIu64 " bytes on the 100x longer trace vs %" PRIu64 " (ratio %.2f)", b.full_bytes,
           a.full_bytes, ratio);
    /* far fewer: < 1% of the long file; the short one is bounded by leaf
     * granularity (a leaf holds thousands of drawables), so < 10% */
    CHECKF(b.win_bytes * 100 < b.size, "1/1000 window read %" PRIu64 " of %" PRIu64 " bytes", b.win_bytes, b.size);
    CHECKF(a.win_bytes * 10 < a.size, "1/1000 window read %" PRIu64 " of %" PRIu64 " bytes", a.win_bytes, a.size);
    CHECKF(b.full_bytes * 20 < b.size, "full-span query at 1920 px read %" PRIu64 " of %" PRIu64 " bytes", b.full_bytes,
           b.size);
    unlink(p1);
    unlink(p2);
    t_rmtree(dir);
    free(p1);
    free(p2);
    free(dir);
    printf("PASS\n");
    return 0;
}
