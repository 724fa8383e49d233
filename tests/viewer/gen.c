/* SPDX-License-Identifier: MIT */
/* gen.c - see gen.h. */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sv_gen_opts_small(sv_gen_opts *o)
{
    memset(o, 0, sizeof *o);
    o->n_timelines = 4;
    o->n_iterations = 12;
    o->per_host = 2;
    o->seed = 42;
    o->iteration_ns = 1000000;
}

void sv_gen_params(const sv_gen_opts *o, char *buf, size_t size)
{
    /* v1: the drawables this file's sv_gen_write makes; bump it when they
     * change, so kept files are regenerated */
    snprintf(buf, size, "v1 timelines=%u iterations=%u per_host=%u seed=%llu iteration_ns=%lld bins=%u", o->n_timelines,
             o->n_iterations, o->per_host, (unsigned long long)o->seed, (long long)o->iteration_ns, o->preview_bins);
}

static uint64_t rng_next(uint64_t *s)
{
    /* xorshift64*: deterministic across platforms */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

static double rnd(uint64_t *s)
{
    return (rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

typedef struct gd {
    slog_drawable d;
    int64_t info[4];
} gd;

static int cmp_gd(const void *a, const void *b)
{
    const gd *x = a, *y = b;
    int64_t kx = x->d.end > x->d.start ? x->d.end : x->d.start;
    int64_t ky = y->d.end > y->d.start ? y->d.end : y->d.start;
    return kx < ky ? -1 : kx > ky;
}

static gd *push(gd **v, size_t *n, size_t *cap)
{
    if (*n == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        *v = realloc(*v, *cap * sizeof **v);
        if (!*v) abort();
    }
    gd *g = &(*v)[(*n)++];
    memset(g, 0, sizeof *g);
    return g;
}

static void set(gd *g, slog_kind k, uint32_t cat, uint32_t tl, uint32_t etl, int64_t s, int64_t e, uint32_t n_info)
{
    g->d.kind = k;
    g->d.category = cat;
    g->d.timeline = tl;
    g->d.end_timeline = etl;
    g->d.start = s;
    g->d.end = e;
    g->d.n_info = n_info;
}

slog_status sv_gen_write(const char *path, const sv_gen_opts *o, slog_error *err)
{
    slog_writer_options wo;
    if (o->writer)
        wo = *o->writer;
    else
        slog_writer_options_init(&wo);
    wo.time_origin_ns = 1700000000000000000LL;
    if (o->preview_bins) wo.preview_bins = o->preview_bins;
    slog_writer *w;
    slog_status st = slog_writer_open(&w, path, &wo, err);
    if (st != SLOG_OK) return st;

    static const char *const f_p2p[] = {"peer", "tag", "bytes", "comm"};
    static const uint8_t t_p2p[] = {SLOG_FIELD_TIMELINE, SLOG_FIELD_INT, SLOG_FIELD_BYTES, SLOG_FIELD_HANDLE};
    static const char *const f_coll[] = {"bytes", "comm"};
    static const uint8_t t_coll[] = {SLOG_FIELD_BYTES, SLOG_FIELD_HANDLE};
    static const char *const f_wait[] = {"request"};
    static const uint8_t t_wait[] = {SLOG_FIELD_HANDLE};
    static const char *const f_msg[] = {"tag", "bytes", "comm"};
    static const uint8_t t_msg[] = {SLOG_FIELD_INT, SLOG_FIELD_BYTES, SLOG_FIELD_HANDLE};
    static const char *const f_ev[] = {"id", "elapsed"};
    static const uint8_t t_ev[] = {SLOG_FIELD_INT, SLOG_FIELD_DURATION};
    const slog_category cats[GEN_N_CATS] = {
        {SLOG_KIND_STATE, "MPI_Send", "point-to-point", 0x3584e4ff, 4, f_p2p, t_p2p},
        {SLOG_KIND_STATE, "MPI_Recv", "point-to-point", 0x2ec27eff, 4, f_p2p, t_p2p},
        {SLOG_KIND_STATE, "MPI_Allreduce", "collective", 0xe66100ff, 2, f_coll, t_coll},
        {SLOG_KIND_STATE, "MPI_Wait", "completion", 0xf6d32dff, 1, f_wait, t_wait},
        {SLOG_KIND_ARROW, "message", "message", 0x241f31ff, 3, f_msg, t_msg},
        {SLOG_KIND_EVENT, "Checkpoint", "user", 0xc01c28ff, 2, f_ev, t_ev},
    };
    for (int i = 0; i < GEN_N_CATS; i++)
        if ((st = slog_writer_add_category(w, &cats[i], NULL)) != SLOG_OK) goto fail;
    for (uint32_t r = 0; r < o->n_timelines; r++) {
        char label[32], group[32] = "";
        snprintf(label, sizeof label, "rank %u", r);
        if (o->per_host) snprintf(group, sizeof group, "node%02u", r / o->per_host);
        slog_timeline t = {r, 0, label, group};
        if ((st = slog_writer_add_timeline(w, &t, NULL)) != SLOG_OK) goto fail;
    }
    char params[256];
    sv_gen_params(o, params, sizeof params);
    if ((st = slog_writer_add_annotation(w, "generator", "tests/viewer/gen.c")) != SLOG_OK ||
        (st = slog_writer_add_annotation(w, SV_GEN_PARAMS_KEY, params)) != SLOG_OK)
        goto fail;

    uint32_t n = o->n_timelines;
    uint64_t seed = o->seed ? o->seed : 1;
    int64_t L = o->iteration_ns;
    int64_t *send_s = calloc(n, sizeof(int64_t)), *send_e = calloc(n, sizeof(int64_t));
    int64_t *recv_e = calloc(n, sizeof(int64_t)), *t_arr = calloc(n, sizeof(int64_t));
    gd *v = NULL;
    size_t nv = 0, cap = 0;
    for (uint32_t it = 0; it < o->n_iterations; it++) {
        nv = 0;
        int64_t base = (int64_t)it * L + L / 50;
        for (uint32_t r = 0; r < n; r++) {
            int64_t t = base + r * 3000 + (int64_t)(rnd(&seed) * 20000);
            int64_t c = (int64_t)(L * (0.30 + 0.25 * rnd(&seed)));
            send_s[r] = t + c;
            send_e[r] = send_s[r] + 20000 + (int64_t)(rnd(&seed) * 40000);
        }
        int64_t ar_start_max = 0;
        for (uint32_t r = 0; r < n; r++) {
            uint32_t from = (r + n - 1) % n;
            int64_t lat = 5000 + (int64_t)(rnd(&seed) * 10000);
            int64_t rs = send_e[r];
            int64_t re = send_s[from] + lat + 2000;
            if (re < rs + 5000) re = rs + 5000;
            recv_e[r] = re;
            int64_t bytes = 1024LL << (it % 8);
            int64_t tag = (it == o->n_iterations / 2 && r == 1) ? 1337 : it % 100;
            gd *g = push(&v, &nv, &cap);
            set(g, SLOG_KIND_STATE, GEN_CAT_SEND, r, r, send_s[r], send_e[r], 4);
            g->info[0] = (r + 1) % n;
            g->info[1] = tag;
            g->info[2] = bytes;
            g->info[3] = 0x44000000;
            g = push(&v, &nv, &cap);
            set(g, SLOG_KIND_STATE, GEN_CAT_RECV, r, r, rs, re, 4);
            g->info[0] = from;
            g->info[1] = (it == o->n_iterations / 2 && from == 1) ? 1337 : it % 100;
            g->info[2] = bytes;
            g->info[3] = 0x44000000;
            g = push(&v, &nv, &cap);
            set(g, SLOG_KIND_ARROW, GEN_CAT_MSG, from, r, send_s[from], re, 3);
            g->info[0] = (it == o->n_iterations / 2 && from == 1) ? 1337 : it % 100;
            g->info[1] = bytes;
            g->info[2] = 0x44000000;
            t_arr[r] = re + 3000 + (int64_t)(rnd(&seed) * 30000);
            if (t_arr[r] > ar_start_max) ar_start_max = t_arr[r];
        }
        int64_t ar_end = ar_start_max + 40000;
        for (uint32_t r = 0; r < n; r++) {
            gd *g = push(&v, &nv, &cap);
            set(g, SLOG_KIND_STATE, GEN_CAT_ALLREDUCE, r, r, t_arr[r], ar_end, 2);
            g->info[0] = it % 7 == 3 ? SLOG_INFO_UNKNOWN : 8 * (int64_t)n;
            g->info[1] = 0x44000000;
            g = push(&v, &nv, &cap);
            int64_t ws = t_arr[r] + (ar_end - t_arr[r]) / 3;
            set(g, SLOG_KIND_STATE, GEN_CAT_WAIT, r, r, ws, ar_end - 5000, 1);
            g->info[0] = 0x10000 + it;
            if (it % 5 == 0) {
                g = push(&v, &nv, &cap);
                set(g, SLOG_KIND_EVENT, GEN_CAT_CHECKPOINT, r, r, ar_end + 10000, ar_end + 10000, 2);
                g->info[0] = it / 5;
                g->info[1] = ar_end + 10000;
            }
        }
        qsort(v, nv, sizeof *v, cmp_gd);
        for (size_t i = 0; i < nv; i++) {
            v[i].d.info = v[i].info;
            if ((st = slog_writer_add(w, &v[i].d)) != SLOG_OK) {
                free(v);
                free(send_s);
                free(send_e);
                free(recv_e);
                free(t_arr);
                goto fail;
            }
        }
    }
    free(v);
    free(send_s);
    free(send_e);
    free(recv_e);
    free(t_arr);
    return slog_writer_finish(w, err);
fail:
    if (err) *err = *slog_writer_error(w);
    slog_writer_abort(w);
    return st;
}
