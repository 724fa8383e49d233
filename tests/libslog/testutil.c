/* SPDX-License-Identifier: MIT */
/* testutil.c - see testutil.h. */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t t_bins_checked, t_bins_nonzero;

int t_under_valgrind(void)
{
    const char *v = getenv("SLOG2_UNDER_VALGRIND");
    return v && *v && strcmp(v, "0") != 0;
}

int t_seed_args(int argc, char **argv, uint64_t *seed, size_t *n, unsigned *n_queries)
{
    if (argc < 2) return 0;
    *seed = strtoull(argv[1], NULL, 0);
    if (argc > 2) *n = (size_t)strtoull(argv[2], NULL, 0);
    if (argc > 3) *n_queries = (unsigned)strtoul(argv[3], NULL, 0);
    return 1;
}

long long t_env_ll(const char *name, long long def)
{
    const char *v = getenv(name);
    if (!v || !*v) return def;
    return strtoll(v, NULL, 0);
}

int t_seed_main(int argc, char **argv, const t_seed_plan *p, void (*run)(uint64_t, size_t, unsigned, const char *),
                void (*more)(uint64_t, const char *))
{
    int vg = t_under_valgrind();
    char *dir = t_mkdtemp(p->name);
    uint64_t seed = 0;
    size_t n = p->n;
    unsigned nq = p->nq;
    if (t_seed_args(argc, argv, &seed, &n, &nq)) {
        run(seed, n, nq, dir);
    } else {
        uint64_t base = (uint64_t)t_env_ll("SLOG2_SEED", (long long)p->base);
        unsigned n_seeds = vg ? p->vg_seeds : p->seeds;
        for (unsigned s = 0; s < n_seeds; s++) run(base + s, vg ? p->vg_n : p->n, vg ? p->vg_nq : p->nq, dir);
        if (more) more(base, dir);
    }
    t_rmtree(dir);
    free(dir);
    printf("PASS\n");
    return 0;
}

double t_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------ files */

char *t_mkdtemp(const char *tag)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    size_t n = strlen(base) + strlen(tag) + 32;
    char *p = malloc(n);
    CHECK(p);
    snprintf(p, n, "%s/slogtest-%s-XXXXXX", base, tag);
    CHECKF(mkdtemp(p) != NULL, "mkdtemp %s: %s", p, strerror(errno));
    return p;
}

void t_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            char *p = t_path(dir, e->d_name);
            struct stat sb;
            if (lstat(p, &sb) == 0 && S_ISDIR(sb.st_mode))
                t_rmtree(p);
            else
                unlink(p);
            free(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

int t_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

char *t_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    CHECK(p);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

unsigned char *t_read_file(const char *path, size_t *len)
{
    /* Regular files only: a directory opens, and its "size" is not one. */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long sz = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *buf = malloc(sz > 0 ? (size_t)sz : 1);
    if (buf && sz > 0 && fread(buf, 1, (size_t)sz, f) != (size_t)sz) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) *len = (size_t)sz;
    return buf;
}

int t_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    int ok = len == 0 || fwrite(data, 1, len, f) == len;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int t_file_exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

/* ------------------------------------------------------------ model */

void t_model_init(t_model *m)
{
    memset(m, 0, sizeof *m);
}

void t_model_free(t_model *m)
{
    free(m->cats);
    free(m->tls);
    free(m->d);
    free(m->ann_key);
    free(m->ann_val);
    memset(m, 0, sizeof *m);
}

uint32_t t_model_add_cat(t_model *m, slog_kind kind, const char *name, uint32_t n_fields)
{
    m->cats = realloc(m->cats, (m->n_cats + 1) * sizeof *m->cats);
    CHECK(m->cats);
    t_cat *c = &m->cats[m->n_cats];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->rgba = 0x10203040u + m->n_cats * 0x01010101u;
    c->n_fields = n_fields;
    for (uint32_t i = 0; i < n_fields; i++) {
        snprintf(c->field_name_buf[i], sizeof c->field_name_buf[i], "field%u", i);
        c->field_types[i] = (uint8_t)(i % 5);
    }
    return m->n_cats++;
}

uint32_t t_model_add_tl(t_model *m, uint32_t rank, uint32_t thread)
{
    if ((m->n_tls & (m->n_tls - 1)) == 0) { /* grow at powers of two */
        uint32_t cap = m->n_tls ? m->n_tls * 2 : 1;
        m->tls = realloc(m->tls, cap * sizeof *m->tls);
        CHECK(m->tls);
    }
    t_tl *t = &m->tls[m->n_tls];
    memset(t, 0, sizeof *t);
    t->rank = rank;
    t->thread = thread;
    snprintf(t->label, sizeof t->label, "rank %u / thread %u", rank, thread);
    snprintf(t->group, sizeof t->group, "host%u", rank % 7);
    return m->n_tls++;
}

t_draw *t_model_push(t_model *m)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 64;
        m->d = realloc(m->d, m->cap * sizeof *m->d);
        CHECK(m->d);
    }
    t_draw *d = &m->d[m->n++];
    memset(d, 0, sizeof *d);
    return d;
}

void t_model_add_ann(t_model *m, const char *key, const char *val)
{
    m->ann_key = realloc(m->ann_key, (m->n_ann + 1) * sizeof *m->ann_key);
    m->ann_val = realloc(m->ann_val, (m->n_ann + 1) * sizeof *m->ann_val);
    CHECK(m->ann_key && m->ann_val);
    snprintf(m->ann_key[m->n_ann], sizeof m->ann_key[0], "%s", key);
    snprintf(m->ann_val[m->n_ann], sizeof m->ann_val[0], "%s", val);
    m->n_ann++;
}

static int cmp_end_order(const void *a, const void *b)
{
    const t_draw *x = a, *y = b;
    int64_t ex = t_dhi(x), ey = t_dhi(y);
    if (ex != ey) return ex < ey ? -1 : 1;
    return t_draw_cmp(a, b);
}

void t_model_sort_end_order(t_model *m)
{
    t_qsort(m->d, m->n, sizeof *m->d, cmp_end_order);
}

static int64_t pick_info(t_rng *r)
{
    switch (t_below(r, 10)) {
    case 0: return SLOG_INFO_UNKNOWN;
    case 1: return INT64_MAX;
    case 2: return INT64_MIN + 1;
    case 3: return 0;
    case 4: return -1;
    case 5: return (int64_t)t_rand(r);
    case 6: return (int64_t)(t_rand(r) >> t_below(r, 64));
    default: return (int64_t)t_below(r, 1000);
    }
}

static void fill_info(t_rng *r, const t_model *m, t_draw *d)
{
    d->n_info = m->cats[d->cat].n_fields;
    for (uint32_t i = 0; i < d->n_info; i++) d->info[i] = pick_info(r);
}

static int64_t pick_time(t_rng *r, int ticks, int64_t T, int64_t cluster, int64_t cluster_w)
{
    if (ticks) return t_range(r, 0, 16) * (T / 16);
    if (t_chance(r, 50)) return t_range(r, 0, T);
    int64_t t = cluster + t_range(r, 0, cluster_w);
    return t > T ? T : t;
}

void t_model_random(t_model *m, t_rng *r, const t_gen_params *p)
{
    uint32_t n_tl = t_chance(r, 10) ? 1 : 1 + (uint32_t)t_below(r, p->max_timelines);
    uint32_t n_cat = 1 + (uint32_t)t_below(r, p->max_categories);
    for (uint32_t i = 0; i < n_tl; i++) t_model_add_tl(m, i / 2, i % 2);
    for (uint32_t i = 0; i < n_cat; i++) {
        /* the first three cover every kind, the rest are random */
        slog_kind k = i < 3 ? (slog_kind)i : (slog_kind)t_below(r, 3);
        char name[32];
        snprintf(name, sizeof name, "cat%u_%c", i, "sae"[k]);
        uint32_t id = t_model_add_cat(m, k, name, (uint32_t)t_below(r, 6));
        t_cat *c = &m->cats[id];
        snprintf(c->group, sizeof c->group, "%s", i % 3 == 0 ? "" : i % 3 == 1 ? "p2p" : "coll");
        c->rgba = (uint32_t)t_rand(r);
        for (uint32_t f = 0; f < c->n_fields; f++) c->field_types[f] = (uint8_t)t_below(r, 5);
    }

    int shift = t_chance(r, 10) ? 50 : 4 + (int)t_below(r, 41);
    int64_t T = (int64_t)1 << shift;
    int ticks = t_chance(r, 30); /* snap times to T/16: many equal timestamps */
    /* one or two dense clusters exercise deep subtrees */
    int64_t cluster = t_range(r, 0, T), cluster_w = (int64_t)1 << t_below(r, (uint64_t)shift + 1);

#define PICK_TIME() pick_time(r, ticks, T, cluster, cluster_w)
#define PICK_LEN()  (t_chance(r, 10) ? 0 : t_range(r, 0, ((int64_t)1 << t_below(r, (uint64_t)shift + 1)) - 1))

    while (m->n < p->n_drawables) {
        uint32_t cat = (uint32_t)t_below(r, n_cat);
        uint32_t tl = (uint32_t)t_below(r, n_tl);
        slog_kind k = m->cats[cat].kind;
        if (k == SLOG_KIND_STATE) {
            unsigned mode = (unsigned)t_below(r, 10);
            if (mode == 0) { /* zero length */
                t_draw *d = t_model_push(m);
                d->start = d->end = PICK_TIME();
                d->kind = k, d->cat = cat, d->tl = d->etl = tl;
                fill_info(r, m, d);
            } else if (mode == 1) { /* whole span */
                t_draw *d = t_model_push(m);
                d->start = 0, d->end = T;
                d->kind = k, d->cat = cat, d->tl = d->etl = tl;
                fill_info(r, m, d);
            } else if (mode <= 3) { /* nested group on one timeline */
                int64_t a = PICK_TIME(), len = PICK_LEN();
                int64_t b = a + len > T ? T : a + len;
                unsigned depth = 1 + (unsigned)t_below(r, 5);
                for (unsigned j = 0; j < depth && m->n < p->n_drawables; j++) {
                    t_draw *d = t_model_push(m);
                    d->start = a, d->end = b;
                    d->kind = k, d->cat = (uint32_t)t_below(r, n_cat), d->tl = d->etl = tl;
                    if (m->cats[d->cat].kind != SLOG_KIND_STATE) d->cat = cat;
                    fill_info(r, m, d);
                    int64_t w = b - a;
                    if (w > 0) { /* shrink inside, sometimes sharing an end */
                        int64_t na = t_chance(r, 30) ? a : a + t_range(r, 0, w);
                        int64_t nb = t_chance(r, 30) ? b : na + t_range(r, 0, b - na);
                        a = na, b = nb;
                    }
                }
            } else {
                t_draw *d = t_model_push(m);
                d->start = PICK_TIME();
                int64_t len = PICK_LEN();
                d->end = d->start + len > T ? T : d->start + len;
                d->kind = k, d->cat = cat, d->tl = d->etl = tl;
                fill_info(r, m, d);
            }
        } else if (k == SLOG_KIND_ARROW) {
            t_draw *d = t_model_push(m);
            d->kind = k, d->cat = cat, d->tl = tl;
            d->etl = (uint32_t)t_below(r, n_tl);
            d->start = PICK_TIME();
            int64_t len = PICK_LEN();
            if (t_chance(r, 20)) /* clock skew: received before sent */
                d->end = d->start - len < 0 ? 0 : d->start - len;
            else
                d->end = d->start + len > T ? T : d->start + len;
            fill_info(r, m, d);
        } else {
            t_draw *d = t_model_push(m);
            d->kind = k, d->cat = cat, d->tl = d->etl = tl;
            d->start = d->end = PICK_TIME();
            fill_info(r, m, d);
        }
    }
#undef PICK_TIME
#undef PICK_LEN
    t_model_add_ann(m, "generator", "t_model_random");
    t_model_sort_end_order(m);
}

slog_status t_model_open_writer(const t_model *m, const char *path, const slog_writer_options *opt, slog_writer **out,
                                slog_error *err)
{
    slog_writer *w = NULL;
    *out = NULL;
    slog_status st = slog_writer_open(&w, path, opt, err);
    if (st != SLOG_OK) return st;
    for (uint32_t i = 0; i < m->n_cats; i++) {
        const t_cat *c = &m->cats[i];
        const char *fnames[SLOG_MAX_FIELDS];
        for (uint32_t f = 0; f < c->n_fields; f++) fnames[f] = c->field_name_buf[f];
        slog_category sc = {c->kind, c->name, c->group, c->rgba, c->n_fields, fnames, c->field_types};
        uint32_t id = UINT32_MAX;
        st = slog_writer_add_category(w, &sc, &id);
        if (st != SLOG_OK) goto fail;
        CHECKF(id == i, "category id %u, expected %u", id, i);
    }
    for (uint32_t i = 0; i < m->n_tls; i++) {
        const t_tl *t = &m->tls[i];
        slog_timeline tl = {t->rank, t->thread, t->label, t->group};
        uint32_t id = UINT32_MAX;
        st = slog_writer_add_timeline(w, &tl, &id);
        if (st != SLOG_OK) goto fail;
        CHECKF(id == i, "timeline id %u, expected %u", id, i);
    }
    for (uint32_t i = 0; i < m->n_ann; i++) {
        st = slog_writer_add_annotation(w, m->ann_key[i], m->ann_val[i]);
        if (st != SLOG_OK) goto fail;
    }
    *out = w;
    return SLOG_OK;
fail:
    if (err) *err = *slog_writer_error(w);
    slog_writer_abort(w);
    return st;
}

slog_status t_model_write(const t_model *m, const char *path, const slog_writer_options *opt, slog_error *err)
{
    slog_writer *w = NULL;
    slog_status st = t_model_open_writer(m, path, opt, &w, err);
    if (st != SLOG_OK) return st;
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        slog_drawable sd = {d->kind, d->cat, d->tl, d->etl, d->start, d->end, d->n_info, d->info};
        st = slog_writer_add(w, &sd);
        if (st != SLOG_OK) goto fail;
    }
    return slog_writer_finish(w, err);
fail:
    if (err) *err = *slog_writer_error(w);
    slog_writer_abort(w);
    return st;
}

int t_draw_cmp(const void *a, const void *b)
{
    const t_draw *x = a, *y = b;
#define CMPF(f) \
    if (x->f != y->f) return x->f < y->f ? -1 : 1
    CMPF(start);
    CMPF(end);
    CMPF(tl);
    CMPF(etl);
    CMPF(cat);
    CMPF(kind);
    CMPF(n_info);
    for (uint32_t i = 0; i < x->n_info && i < SLOG_MAX_FIELDS; i++) CMPF(info[i]);
#undef CMPF
    return 0;
}

void t_draw_from(t_draw *out, const slog_drawable *d)
{
    memset(out, 0, sizeof *out);
    out->kind = d->kind;
    out->cat = d->category;
    out->tl = d->timeline;
    out->etl = d->end_timeline;
    out->start = d->start;
    out->end = d->end;
    out->n_info = d->n_info;
    CHECKF(d->n_info <= SLOG_MAX_FIELDS, "delivered n_info %u", d->n_info);
    CHECKF(d->n_info == 0 || d->info != NULL, "delivered n_info %u with info NULL", d->n_info);
    for (uint32_t i = 0; i < d->n_info; i++) out->info[i] = d->info[i];
}

void t_draw_print(FILE *f, const t_draw *d)
{
    fprintf(f, "{kind %d cat %u tl %u etl %u start %lld end %lld info[%u]", (int)d->kind, d->cat, d->tl, d->etl,
            (long long)d->start, (long long)d->end, d->n_info);
    for (uint32_t i = 0; i < d->n_info; i++) fprintf(f, " %lld", (long long)d->info[i]);
    fputc('}', f);
}

void t_dvec_push(t_dvec *v, const t_draw *d)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 64;
        v->d = realloc(v->d, v->cap * sizeof *v->d);
        CHECK(v->d);
    }
    v->d[v->n++] = *d;
}

void t_dvec_free(t_dvec *v)
{
    free(v->d);
    memset(v, 0, sizeof *v);
}

slog_cb_result t_collect_drawable(void *user, const slog_drawable *d)
{
    t_draw td;
    t_draw_from(&td, d);
    t_dvec_push(user, &td);
    return SLOG_CONTINUE;
}

slog_cb_result t_collect_preview(void *user, const slog_preview *p)
{
    t_pvec *v = user;
    if (v->n == v->cap) {
        v->cap = v->cap ? v->cap * 2 : 16;
        v->p = realloc(v->p, v->cap * sizeof *v->p);
        CHECK(v->p);
    }
    t_prev *c = &v->p[v->n++];
    memset(c, 0, sizeof *c);
    c->lo = p->lo, c->hi = p->hi, c->level = p->level, c->tree = p->tree;
    c->n_bins = p->n_bins, c->n_rows = p->n_rows;
    CHECKF(p->n_rows == 0 || p->rows != NULL, "preview with %u rows and rows NULL", p->n_rows);
    CHECKF(p->n_bins <= (1u << 20), "preview n_bins %u", p->n_bins);
    c->row_tl = malloc((p->n_rows + 1) * sizeof *c->row_tl);
    c->row_cat = malloc((p->n_rows + 1) * sizeof *c->row_cat);
    c->values = malloc(((size_t)p->n_rows * p->n_bins + 1) * sizeof *c->values);
    CHECK(c->row_tl && c->row_cat && c->values);
    for (uint32_t i = 0; i < p->n_rows; i++) {
        c->row_tl[i] = p->rows[i].timeline;
        c->row_cat[i] = p->rows[i].category;
        CHECKF(p->n_bins == 0 || p->rows[i].values != NULL, "preview row %u values NULL", i);
        memcpy(c->values + (size_t)i * p->n_bins, p->rows[i].values, p->n_bins * sizeof(float));
    }
    return SLOG_CONTINUE;
}

void t_pvec_free(t_pvec *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->p[i].row_tl);
        free(v->p[i].row_cat);
        free(v->p[i].values);
    }
    free(v->p);
    memset(v, 0, sizeof *v);
}

slog_cb_result t_res_drawable(void *user, const slog_drawable *d)
{
    return t_collect_drawable(&((t_result *)user)->dv, d);
}

slog_cb_result t_res_preview(void *user, const slog_preview *p)
{
    return t_collect_preview(&((t_result *)user)->pv, p);
}

void t_result_free(t_result *r)
{
    t_dvec_free(&r->dv);
    t_pvec_free(&r->pv);
}

int t_matches(const t_draw *d, int64_t t0, int64_t t1, const uint8_t *tls)
{
    if (!(t_dlo(d) <= t1 && t_dhi(d) >= t0)) return 0;
    if (!tls) return 1;
    return tls[d->tl] || (d->kind == SLOG_KIND_ARROW && tls[d->etl]);
}

/* ------------------------------------------------------------ verification */

static const t_model *g_ix_model;
static int cmp_ix_lo(const void *a, const void *b)
{
    const t_draw *x = &g_ix_model->d[*(const uint32_t *)a];
    const t_draw *y = &g_ix_model->d[*(const uint32_t *)b];
    int64_t lx = t_dlo(x), ly = t_dlo(y);
    return lx < ly ? -1 : lx > ly;
}

void t_model_index_by_lo(const t_model *m, t_index *ix)
{
    ix->n = m->n;
    ix->idx = malloc((m->n + 1) * sizeof *ix->idx);
    CHECK(ix->idx);
    for (size_t i = 0; i < m->n; i++) ix->idx[i] = (uint32_t)i;
    g_ix_model = m;
    t_qsort(ix->idx, m->n, sizeof *ix->idx, cmp_ix_lo);
    g_ix_model = NULL;
}

void t_index_free(t_index *ix)
{
    free(ix->idx);
    ix->idx = NULL;
    ix->n = 0;
}

/* First position in ix whose drawable's lo >= t. */
static size_t ix_lower(const t_model *m, const t_index *ix, int64_t t)
{
    size_t a = 0, b = ix->n;
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (t_dlo(&m->d[ix->idx[mid]]) < t)
            a = mid + 1;
        else
            b = mid;
    }
    return a;
}

static int cmp_prev_lo(const void *a, const void *b)
{
    const t_prev *x = *(t_prev *const *)a, *y = *(t_prev *const *)b;
    if (x->tree != y->tree) return x->tree < y->tree ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void print_query(const slog_query *q, uint32_t n_tls)
{
    fprintf(stderr, "  query t0=%lld t1=%lld pixel_ns=%lld flags=%u timelines=", (long long)q->t0, (long long)q->t1,
            (long long)q->pixel_ns, q->flags);
    if (!q->timelines)
        fprintf(stderr, "all");
    else
        for (uint32_t i = 0; i < n_tls && i < 64; i++) fputc(q->timelines[i] ? '1' : '0', stderr);
    fputc('\n', stderr);
}

/* Compare two sorted drawable lists; on mismatch print the differences. */
static void compare_sorted(const t_draw *exp, size_t ne, const t_draw *got, size_t ng, const slog_query *q,
                           uint32_t n_tls, const char *what)
{
    size_t i = 0, j = 0, shown = 0, bad = 0;
    while (i < ne || j < ng) {
        int c = i == ne ? 1 : j == ng ? -1 : t_draw_cmp(&exp[i], &got[j]);
        if (c == 0) {
            i++, j++;
            continue;
        }
        bad++;
        if (shown++ < 8) {
            fprintf(stderr, "  %s: %s ", what, c < 0 ? "missing" : "unexpected/duplicate");
            t_draw_print(stderr, c < 0 ? &exp[i] : &got[j]);
            fputc('\n', stderr);
        }
        if (c < 0)
            i++;
        else
            j++;
    }
    if (bad) {
        print_query(q, n_tls);
        check_fail(__FILE__, __LINE__, "delivered drawables == brute force",
                   "%s: %zu expected, %zu delivered, %zu differences", what, ne, ng, bad);
    }
}

typedef struct {
    uint32_t tl, cat;
    int64_t lo, hi, start;
    slog_kind kind;
} contained_t;
static int cmp_contained(const void *a, const void *b)
{
    const contained_t *x = a, *y = b;
    if (x->tl != y->tl) return x->tl < y->tl ? -1 : 1;
    if (x->cat != y->cat) return x->cat < y->cat ? -1 : 1;
    return 0;
}

/* Brute-force bins of one (timeline, category) group into out[n_bins]. */
static void group_bins(const t_model *m, const t_prev *p, const contained_t *g, size_t n, double *out)
{
    uint32_t nb = p->n_bins;
    long double span = (long double)(p->hi - p->lo);
    long double w = span / nb;
    for (uint32_t j = 0; j < nb; j++) out[j] = 0;
    int is_state = m->cats[g[0].cat].kind == SLOG_KIND_STATE;
    for (size_t k = 0; k < n; k++) {
        if (is_state) {
            if (g[k].hi <= g[k].lo) continue; /* zero-length states contribute nothing */
            /* bins touched: from floor((lo-plo)/w) to floor((hi-plo)/w) */
            __int128 rel_lo = (__int128)(g[k].lo - p->lo) * nb / (p->hi - p->lo);
            __int128 rel_hi = (__int128)(g[k].hi - p->lo) * nb / (p->hi - p->lo);
            for (uint32_t j = (uint32_t)rel_lo; j <= (uint32_t)rel_hi && j < nb; j++) {
                long double bl = (long double)p->lo + w * j, bh = (long double)p->lo + w * (j + 1);
                long double a = (long double)g[k].lo > bl ? (long double)g[k].lo : bl;
                long double b = (long double)g[k].hi < bh ? (long double)g[k].hi : bh;
                if (b > a) out[j] += (double)((b - a) / w);
            }
        } else {
            /* counted in the bin holding its start (arrows: sender timeline) */
            uint32_t j = (uint32_t)((__int128)(g[k].start - p->lo) * nb / (p->hi - p->lo));
            CHECK(j < nb);
            out[j] += 1;
        }
    }
    if (is_state)
        for (uint32_t j = 0; j < nb; j++)
            if (out[j] > 1) out[j] = 1;
}

static void verify_preview_bins(const t_model *m, const t_index *ix, const slog_query *q, const t_prev *p,
                                uint32_t block_timelines)
{
    /* every drawable of the preview's block contained in [lo, hi), whatever
     * the timeline set */
    size_t cap = 64, n = 0;
    contained_t *c = malloc(cap * sizeof *c);
    CHECK(c);
    for (size_t k = ix_lower(m, ix, p->lo); k < ix->n; k++) {
        const t_draw *d = &m->d[ix->idx[k]];
        if (t_dlo(d) >= p->hi) break;
        if (t_dhi(d) >= p->hi || d->tl / block_timelines != p->tree) continue;
        if (n == cap) {
            cap *= 2;
            c = realloc(c, cap * sizeof *c);
            CHECK(c);
        }
        c[n++] = (contained_t){d->tl, d->cat, t_dlo(d), t_dhi(d), d->start, d->kind};
    }
    t_qsort(c, n, sizeof *c, cmp_contained);

    const double tol = 1.0 / 255 + 1e-4;
    double *exp = malloc((p->n_bins + 1) * sizeof *exp);
    CHECK(exp);
    uint8_t *seen = calloc(p->n_rows + 1, 1);
    CHECK(seen);
    /* duplicate rows and rows of unwanted timelines */
    for (uint32_t r = 0; r < p->n_rows; r++) {
        CHECKF(p->row_tl[r] < m->n_tls && p->row_cat[r] < m->n_cats, "preview row timeline %u category %u out of range",
               p->row_tl[r], p->row_cat[r]);
        if (q->timelines && !q->timelines[p->row_tl[r]]) {
            print_query(q, m->n_tls);
            check_fail(__FILE__, __LINE__, "row timeline wanted",
                       "preview [%lld,%lld) has a row for unwanted timeline %u", (long long)p->lo, (long long)p->hi,
                       p->row_tl[r]);
        }
        for (uint32_t s = 0; s < r; s++)
            CHECKF(!(p->row_tl[s] == p->row_tl[r] && p->row_cat[s] == p->row_cat[r]),
                   "preview [%lld,%lld) has two rows for timeline %u category %u", (long long)p->lo, (long long)p->hi,
                   p->row_tl[r], p->row_cat[r]);
    }
    for (size_t g = 0; g < n;) {
        size_t e = g;
        while (e < n && c[e].tl == c[g].tl && c[e].cat == c[g].cat) e++;
        if (q->timelines && !q->timelines[c[g].tl]) {
            g = e;
            continue;
        }
        group_bins(m, p, &c[g], e - g, exp);
        const float *got = NULL;
        for (uint32_t r = 0; r < p->n_rows; r++)
            if (p->row_tl[r] == c[g].tl && p->row_cat[r] == c[g].cat) {
                got = p->values + (size_t)r * p->n_bins;
                seen[r] = 1;
            }
        int is_state = m->cats[c[g].cat].kind == SLOG_KIND_STATE;
        for (uint32_t j = 0; j < p->n_bins; j++) {
            double v = got ? got[j] : 0.0;
            t_bins_checked++;
            t_bins_nonzero += exp[j] != 0;
            int ok = is_state ? (v >= 0 && v <= 1 + 1e-6 && (v - exp[j] <= tol && exp[j] - v <= tol)) : v == exp[j];
            if (!ok) {
                print_query(q, m->n_tls);
                check_fail(__FILE__, __LINE__, "preview bin == brute force",
                           "preview [%lld,%lld) level %u bins %u: timeline %u category %u (%s) bin %u: "
                           "got %.6f%s, expected %.6f (%zu drawables in group)",
                           (long long)p->lo, (long long)p->hi, p->level, p->n_bins, c[g].tl, c[g].cat,
                           is_state ? "state" : "count", j, v, got ? "" : " (row absent)", exp[j], e - g);
            }
        }
        g = e;
    }
    /* rows with no contained drawable must be all zero -- and then absent */
    for (uint32_t r = 0; r < p->n_rows; r++) {
        if (seen[r]) continue;
        for (uint32_t j = 0; j < p->n_bins; j++)
            CHECKF(p->values[(size_t)r * p->n_bins + j] == 0.0f,
                   "preview [%lld,%lld) row timeline %u category %u bin %u = %g but no drawable of "
                   "that row lies in the node",
                   (long long)p->lo, (long long)p->hi, p->row_tl[r], p->row_cat[r], j,
                   p->values[(size_t)r * p->n_bins + j]);
        CHECKF(0,
               "preview [%lld,%lld) has an all-zero row (timeline %u category %u); slog.h says "
               "such rows are not present",
               (long long)p->lo, (long long)p->hi, p->row_tl[r], p->row_cat[r]);
    }
    free(seen);
    free(exp);
    free(c);
}

void t_verify_query(const t_model *m, const t_index *ix, const slog_file_info *fi, const slog_query *q,
                    const t_result *res, const slog_query_stats *st)
{
    int exact = q->pixel_ns == 0 || (q->flags & SLOG_QUERY_NO_PREVIEW);
    if (exact && res->pv.n) {
        print_query(q, m->n_tls);
        check_fail(__FILE__, __LINE__, "no previews", "%zu previews delivered although pixel_ns=%lld flags=%u",
                   res->pv.n, (long long)q->pixel_ns, q->flags);
    }
    if (st) {
        CHECKF(st->drawables == res->dv.n, "stats.drawables %llu, delivered %zu", (unsigned long long)st->drawables,
               res->dv.n);
        CHECKF(st->previews == res->pv.n, "stats.previews %llu, delivered %zu", (unsigned long long)st->previews,
               res->pv.n);
    }

    /* previews: node-shaped, intersect the window, fine enough, disjoint */
    size_t np = res->pv.n;
    const t_prev **ps = malloc((np + 1) * sizeof *ps);
    CHECK(ps);
    for (size_t i = 0; i < np; i++) {
        const t_prev *p = &res->pv.p[i];
        ps[i] = p;
        uint64_t w = (uint64_t)(p->hi - p->lo);
        if (!(p->lo < p->hi && p->n_bins > 0 && (w & (w - 1)) == 0 && p->lo >= 0 && (uint64_t)p->lo % w == 0 &&
              fi->leaf_shift + (int64_t)p->level < 63 && w == (uint64_t)1 << (fi->leaf_shift + (int)p->level) &&
              p->lo <= q->t1 && p->hi - 1 >= q->t0 && (__int128)w <= (__int128)q->pixel_ns * p->n_bins)) {
            print_query(q, m->n_tls);
            check_fail(__FILE__, __LINE__, "preview shape",
                       "preview lo=%lld hi=%lld level=%u n_bins=%u (leaf_shift %d): must be a tree node "
                       "[index<<s, (index+1)<<s) with s = leaf_shift+level, intersect the window, and "
                       "have bins no wider than pixel_ns",
                       (long long)p->lo, (long long)p->hi, p->level, p->n_bins, fi->leaf_shift);
        }
        CHECKF(p->n_bins == fi->preview_bins, "preview n_bins %u != file preview_bins %u", p->n_bins, fi->preview_bins);
    }
    t_qsort(ps, np, sizeof *ps, cmp_prev_lo);
    for (size_t i = 0; i + 1 < np; i++)
        CHECKF(ps[i]->tree != ps[i + 1]->tree || ps[i]->hi <= ps[i + 1]->lo,
               "previews [%lld,%lld) and [%lld,%lld) of block %u overlap", (long long)ps[i]->lo, (long long)ps[i]->hi,
               (long long)ps[i + 1]->lo, (long long)ps[i + 1]->hi, ps[i]->tree);
    /* The blocks the query reads: those with a wanted timeline. A drawable
     * is in its timeline's block; an arrow whose sender's block is not read
     * is found through its mirror, in its receiver's block. */
    uint32_t tb = fi->block_timelines ? fi->block_timelines : 1;
    uint8_t *read = calloc((size_t)fi->n_blocks + 1, 1);
    CHECK(read);
    for (uint32_t t = 0; t < m->n_tls; t++)
        if (!q->timelines || q->timelines[t]) read[t / tb] = 1;

    /* expected drawables: matching and not inside a delivered preview */
    t_dvec exp = {0};
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        if (!t_matches(d, q->t0, q->t1, q->timelines)) continue;
        if (np) {
            int64_t lo = t_dlo(d), hi = t_dhi(d);
            uint32_t home = read[d->tl / tb] ? d->tl / tb : d->etl / tb;
            size_t a = 0, b = np; /* last preview of home with p.lo <= lo */
            while (a < b) {
                size_t mid = a + (b - a) / 2;
                if (ps[mid]->tree < home || (ps[mid]->tree == home && ps[mid]->lo <= lo))
                    a = mid + 1;
                else
                    b = mid;
            }
            if (a > 0 && ps[a - 1]->tree == home && hi < ps[a - 1]->hi) continue; /* covered by that preview */
        }
        t_dvec_push(&exp, d);
    }
    t_draw *got = malloc((res->dv.n + 1) * sizeof *got);
    CHECK(got);
    if (res->dv.n) memcpy(got, res->dv.d, res->dv.n * sizeof *got);
    t_qsort(exp.d, exp.n, sizeof *exp.d, t_draw_cmp);
    t_qsort(got, res->dv.n, sizeof *got, t_draw_cmp);
    compare_sorted(exp.d, exp.n, got, res->dv.n, q, m->n_tls, exact ? "exact query" : "query with previews");
    free(got);
    t_dvec_free(&exp);

    for (size_t i = 0; i < np; i++) verify_preview_bins(m, ix, q, ps[i], tb);
    free(ps);
    free(read);
}

uint32_t t_crc32c(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint32_t crc = 0xFFFFFFFFu;
    for (size_t i = 0; i < len; i++) {
        crc ^= p[i];
        for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0x82F63B78u & (0u - (crc & 1u)));
    }
    return crc ^ 0xFFFFFFFFu;
}

void t_model_small(t_model *m, uint64_t seed, size_t n)
{
    t_rng r = {seed};
    t_gen_params gp = {n, 4, 4};
    t_model_init(m);
    t_model_random(m, &r, &gp);
}

void t_draw_line(char *buf, size_t len, const t_draw *d)
{
    int o = snprintf(buf, len, "%d %u %u %u %lld %lld %u", (int)d->kind, d->cat, d->tl, d->etl, (long long)d->start,
                     (long long)d->end, d->n_info);
    for (uint32_t i = 0; i < d->n_info && o > 0 && (size_t)o < len; i++)
        o += snprintf(buf + o, len - (size_t)o, " %lld", (long long)d->info[i]);
}

/* ------------------------------------------------------------ queries */

static int64_t log_uniform(t_rng *r, int64_t max)
{
    if (max <= 0) return 0;
    int bits = 64 - __builtin_clzll((unsigned long long)max);
    int64_t v = t_range(r, 0, ((int64_t)1 << t_below(r, (uint64_t)bits)) - 1);
    return v > max ? max : v;
}

void t_random_query(t_rng *r, const t_model *m, int64_t tmin, int64_t tmax, slog_query *q, uint8_t *mask)
{
    int64_t span = tmax - tmin;
    memset(q, 0, sizeof *q);
    switch (t_below(r, 8)) {
    case 0: /* whole span */ q->t0 = tmin, q->t1 = tmax; break;
    case 1: { /* a point window on some drawable boundary */
        const t_draw *d = &m->d[t_below(r, m->n)];
        q->t0 = q->t1 = t_chance(r, 50) ? d->start : d->end;
        break;
    }
    case 2: { /* window ending / starting exactly on a drawable boundary */
        const t_draw *d = &m->d[t_below(r, m->n)];
        int64_t len = log_uniform(r, span);
        if (t_chance(r, 50))
            q->t1 = t_dlo(d), q->t0 = q->t1 - len;
        else
            q->t0 = t_dhi(d), q->t1 = q->t0 + len;
        break;
    }
    case 3: /* beyond both ends */
        q->t0 = tmin - 1 - log_uniform(r, span / 8 + 1);
        q->t1 = tmax + 1 + log_uniform(r, span / 8 + 1);
        break;
    default:
        q->t0 = t_range(r, tmin - span / 8, tmax);
        q->t1 = q->t0 + log_uniform(r, span);
        break;
    }
    if (q->t0 < -((int64_t)1 << 60)) q->t0 = -((int64_t)1 << 60);
    if (t_chance(r, 50)) {
        q->timelines = NULL;
    } else {
        unsigned dens = (unsigned)t_below(r, 101);
        for (uint32_t i = 0; i < m->n_tls; i++) mask[i] = (uint8_t)(t_chance(r, dens) ? 1 + t_below(r, 255) : 0);
        q->timelines = mask;
    }
    int64_t w = q->t1 - q->t0 + 1;
    switch (t_below(r, 6)) {
    case 0:
    case 1: q->pixel_ns = 0; break;
    case 2: q->pixel_ns = w / 1920 + 1; break;
    case 3: q->pixel_ns = 1; break;
    case 4: q->pixel_ns = span + 1; break;
    default: q->pixel_ns = 1 + log_uniform(r, w); break;
    }
    if (q->pixel_ns && t_chance(r, 15)) q->flags = SLOG_QUERY_NO_PREVIEW;
}

slog_cb_result t_collect(void *user, const slog_drawable *d)
{
    got_vec *v = user;
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->g = realloc(v->g, v->cap * sizeof *v->g);
        CHECK(v->g);
    }
    got *g = &v->g[v->n++];
    CHECKF(d->n_info <= SLOG_MAX_FIELDS, "n_info %u", d->n_info);
    g->d = *d;
    g->d.info = NULL;
    g->info_null = d->info == NULL;
    if (d->n_info) {
        CHECKF(d->info != NULL, "n_info %u with a NULL info pointer", d->n_info);
        memcpy(g->info, d->info, d->n_info * sizeof *d->info);
    }
    return SLOG_CONTINUE;
}

char *t_write_random(t_model *m, t_rng *r, const t_gen_params *gp, uint32_t leaf, uint32_t bins, const char *dir,
                     const char *name)
{
    t_model_init(m);
    t_model_random(m, r, gp);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.leaf_drawables = leaf ? leaf : (uint32_t)(2 + t_below(r, 40));
    if (bins) o.preview_bins = bins;
    char *path = t_path(dir, name);
    slog_error err;
    CHECK_OK(t_model_write(m, path, &o, &err), &err);
    return path;
}

/* ------------------------------------------------------------ folded grids */

/* Brute force: the grid's rows (as the grid reports them) and columns
 * over [t0, t0 + n_cols * col_ns). out[(row * n_cats + cat) * n_cols + j]:
 * states the summed coverage fraction (divided by the row's timelines at
 * the end), others counts. */
static double *brute_grid(const t_model *m, const slog_grid *g, int64_t t0, double col_ns, uint32_t n_cols,
                          const uint32_t *row_of)
{
    uint32_t n_rows = slog_grid_n_rows(g);
    double *out = calloc((size_t)n_rows * m->n_cats * n_cols + 1, sizeof *out);
    CHECK(out);
    for (size_t i = 0; i < m->n; i++) {
        const t_draw *d = &m->d[i];
        uint32_t row = row_of[d->tl];
        if (row == UINT32_MAX) continue;
        double *v = out + ((size_t)row * m->n_cats + d->cat) * n_cols;
        if (d->kind == SLOG_KIND_STATE) {
            for (uint32_t j = 0; j < n_cols; j++) {
                double a = t0 + j * col_ns, b = a + col_ns;
                double ov = fmin((double)d->end, b) - fmax((double)d->start, a);
                if (ov > 0) v[j] += ov / col_ns;
            }
        } else {
            double x = ((double)d->start - (double)t0) / col_ns;
            if (x >= 0 && x < n_cols) v[(uint32_t)x] += 1;
        }
    }
    for (uint32_t row = 0; row < n_rows; row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        for (uint32_t k = 0; k < m->n_cats; k++)
            if (m->cats[k].kind == SLOG_KIND_STATE)
                for (uint32_t j = 0; j < n_cols; j++) out[((size_t)row * m->n_cats + k) * n_cols + j] /= (b - a + 1);
    }
    return out;
}

/* Row of each timeline in g (UINT32_MAX: none), checking that the rows
 * tile [first, last] with consecutive ranges of whole units. */
uint32_t *t_grid_rows(const t_model *m, const slog_grid *g, uint32_t first, uint32_t last)
{
    uint32_t *row_of = malloc((m->n_tls + 1) * sizeof *row_of);
    CHECK(row_of);
    for (uint32_t t = 0; t < m->n_tls; t++) row_of[t] = UINT32_MAX;
    uint32_t next = first, unit = slog_grid_unit(g);
    for (uint32_t row = 0; row < slog_grid_n_rows(g); row++) {
        uint32_t a, b;
        slog_grid_row_range(g, row, &a, &b);
        CHECKF(a == next && b >= a && b <= last, "row %u holds %u-%u, expected from %u up to %u", row, a, b, next,
               last);
        CHECKF(b == last || (b + 1 - a) % unit == 0, "row %u (%u-%u) is not whole units of %u", row, a, b, unit);
        for (uint32_t t = a; t <= b; t++) row_of[t] = row;
        next = b + 1;
    }
    CHECKF(next == last + 1, "rows end at %u, timelines at %u", next - 1, last);
    return row_of;
}

slog_grid *t_grid(slog_reader *rd, int64_t t0, int64_t t1, uint32_t first, uint32_t last, uint32_t cols, uint32_t rows,
                  uint32_t flags, slog_query_stats *qs)
{
    slog_grid_query q = {t0, t1, first, last, cols, rows, flags};
    slog_grid *g = NULL;
    slog_error err;
    CHECK_OK(slog_reader_grid(rd, &q, &g, qs, &err), &err);
    CHECK(g && slog_grid_n_cols(g) == cols && slog_grid_n_rows(g) >= 1 && slog_grid_n_rows(g) <= rows);
    return g;
}

/* Every value of g against brute force; tol for states. */
static void compare_values(const t_model *m, const slog_grid *g, const double *exp, uint32_t n_cols, double tol,
                           const char *what)
{
    for (uint32_t row = 0; row < slog_grid_n_rows(g); row++)
        for (uint32_t k = 0; k < m->n_cats; k++) {
            const float *v = slog_grid_values(g, row, k);
            const double *e = exp + ((size_t)row * m->n_cats + k) * n_cols;
            bool st = m->cats[k].kind == SLOG_KIND_STATE;
            for (uint32_t j = 0; j < n_cols; j++) {
                double got = v ? v[j] : 0, want = st && e[j] > 1 ? 1 : e[j];
                CHECKF(st ? fabs(got - want) <= tol : fabs(got - want) <= 1e-3 * (1 + want),
                       "%s: row %u category %u column %u: %.6f, brute force %.6f", what, row, k, j, got, want);
            }
        }
}

int64_t t_root_hi(const slog_file_info *fi)
{
    uint32_t top = fi->depth > fi->overview_depth ? fi->depth : fi->overview_depth;
    return top ? (int64_t)1 << (fi->leaf_shift + (int)top - 1) : 1;
}

uint32_t t_verify_root_grid(const t_model *m, slog_reader *rd, uint32_t flags)
{
    const slog_file_info *fi = slog_reader_info(rd);
    int64_t root_hi = t_root_hi(fi);
    uint32_t bins = fi->preview_bins, gt = fi->group_timelines ? fi->group_timelines : 1;
    uint32_t n_tls = m->n_tls ? m->n_tls : 1, n_groups = (n_tls + gt - 1) / gt;
    double col_ns = (double)root_hi / bins;
    slog_query_stats qs;
    /* [0, root_hi]: columns tile the window's ends, so they are the root's
     * bins exactly */
    slog_grid *g = t_grid(rd, 0, root_hi, 0, n_tls - 1, bins, n_groups, flags, &qs);
    uint32_t *row_of = t_grid_rows(m, g, 0, n_tls - 1);
    double *exp = brute_grid(m, g, 0, col_ns, bins, row_of);
    compare_values(m, g, exp, bins, 1.0 / 255 + 1e-4,
                   flags & SLOG_GRID_NO_OVERVIEW ? "grid from the blocks" : "grid from the overview");
    uint32_t unit = slog_grid_unit(g);
    free(exp);
    free(row_of);
    slog_grid_free(g);
    return unit;
}
