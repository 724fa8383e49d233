/* SPDX-License-Identifier: MIT */
/* slog_bench.c - libslog's own figures, without DUMPI in the way:
 *
 *   slog-bench write N T FILE   write N drawables on T timelines (MPI-like:
 *                               states of 0.5-4.5 us with 4 info fields,
 *                               every 10th an arrow to the next timeline),
 *                               print drawables/s, bytes/drawable, peak RSS
 *   slog-bench query FILE       full span, 1/1000 and 1/10^6 of it (centred)
 *                               at 1920 pixel columns: nodes, bytes, time
 *
 * Nothing here passes or fails; bench/run calls it. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <slog2/slog.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int bench_write(uint64_t n, uint32_t t, const char *path)
{
    slog_writer *w;
    slog_error e;
    if (slog_writer_open(&w, path, NULL, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    const char *fn[] = {"bytes", "peer", "tag", "comm"};
    uint8_t ft[] = {SLOG_FIELD_BYTES, SLOG_FIELD_TIMELINE, SLOG_FIELD_INT, SLOG_FIELD_HANDLE};
    static const char *names[] = {"MPI_Send",  "MPI_Recv",      "MPI_Wait",    "MPI_Isend",
                                  "MPI_Irecv", "MPI_Allreduce", "MPI_Barrier", "MPI_Bcast"};
    for (int k = 0; k < 8; k++) {
        slog_category c = {SLOG_KIND_STATE, names[k], "mpi", 0x4080c0ffu + (uint32_t)k * 0x10000000u, 4, fn, ft};
        slog_writer_add_category(w, &c, NULL);
    }
    slog_category ca = {SLOG_KIND_ARROW, "message", "message", 0xffffffffu, 2, fn, ft};
    slog_writer_add_category(w, &ca, NULL);
    for (uint32_t i = 0; i < t; i++) {
        char l[32];
        snprintf(l, sizeof l, "rank %u", i);
        slog_timeline tl = {i, 0, l, ""};
        slog_writer_add_timeline(w, &tl, NULL);
    }
    uint64_t seed = 1;
    int64_t info[4], now = 100000;
    double a = now_s();
    for (uint64_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        uint32_t tl = (uint32_t)(i % t);
        int64_t dur = 500 + (int64_t)((seed >> 33) % 4000);
        slog_drawable d = {SLOG_KIND_STATE, (uint32_t)((seed >> 40) % 8), tl, tl, now - dur, now, 4, info};
        info[0] = 8 << ((seed >> 20) % 8);
        info[1] = (tl + 1) % t;
        info[2] = (int64_t)((seed >> 50) % 16);
        info[3] = 2;
        if (i % 10 == 9) {
            d.kind = SLOG_KIND_ARROW;
            d.category = 8;
            d.end_timeline = (tl + 1) % t;
            d.n_info = 2;
        }
        if (slog_writer_add(w, &d)) {
            fprintf(stderr, "%s\n", slog_writer_error(w)->message);
            slog_writer_abort(w);
            return 1;
        }
        now += 30;
    }
    if (slog_writer_finish(w, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    double s = now_s() - a;
    slog_reader *r;
    if (slog_reader_open(&r, path, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    uint64_t size = slog_reader_info(r)->file_size;
    slog_reader_close(r);
    printf("write  drawables=%" PRIu64 " timelines=%u seconds=%.3f drawables_per_s=%.0f bytes=%" PRIu64
           " bytes_per_drawable=%.2f peak_rss_kb=%ld\n",
           n, t, s, n / s, size, (double)size / n, peak_rss_kb());
    return 0;
}

static slog_cb_result count_d(void *u, const slog_drawable *d)
{
    (void)d;
    ++*(uint64_t *)u;
    return SLOG_CONTINUE;
}

static int bench_query(const char *path)
{
    slog_reader *r;
    slog_error e;
    if (slog_reader_open(&r, path, &e)) {
        fprintf(stderr, "%s\n", e.message);
        return 1;
    }
    const slog_file_info *fi = slog_reader_info(r);
    double span = (double)(fi->t_max - fi->t_min);
    double fracs[] = {1.0, 1e-3, 1e-6};
    for (int i = 0; i < 3; i++) {
        double mid = fi->t_min + span / 2, half = span * fracs[i] / 2;
        slog_query q = {(int64_t)(mid - half), (int64_t)(mid + half), NULL, 0, 0};
        if (q.t1 <= q.t0) q.t1 = q.t0 + 1;
        q.pixel_ns = (q.t1 - q.t0) / 1920;
        if (q.pixel_ns < 1) q.pixel_ns = 1;
        uint64_t nd = 0;
        slog_query_stats st;
        double best = 1e9;
        for (int rep = 0; rep < 3; rep++) {
            double a = now_s();
            if (slog_reader_query(r, &q, count_d, NULL, &nd, &st, &e)) {
                fprintf(stderr, "%s\n", e.message);
                slog_reader_close(r);
                return 1;
            }
            double t = now_s() - a;
            if (t < best) best = t;
        }
        printf("query  file_bytes=%" PRIu64 " window=%g nodes_read=%" PRIu64 " bytes_read=%" PRIu64
               " drawables=%" PRIu64 " previews=%" PRIu64 " ms=%.3f\n",
               fi->file_size, fracs[i], st.nodes_read, st.bytes_read, st.drawables, st.previews, best * 1e3);
    }
    slog_reader_close(r);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && !strcmp(argv[1], "write"))
        return bench_write(strtoull(argv[2], NULL, 10), (uint32_t)strtoul(argv[3], NULL, 10), argv[4]);
    if (argc == 3 && !strcmp(argv[1], "query")) return bench_query(argv[2]);
    fprintf(stderr, "usage: slog-bench write N TIMELINES FILE | slog-bench query FILE\n"
                    "  write: N drawables on TIMELINES timelines; prints drawables/s, bytes/drawable, peak RSS\n"
                    "  query: full span, 1/1000 and 1/10^6 of it at 1920 columns; prints nodes/bytes read, ms\n");
    return 2;
}
