/* SPDX-License-Identifier: MIT */
/* testutil.h - shared helpers for the libslog tests: CHECK macros, a seeded
 * RNG, temp directories, and an in-memory model of a trace (categories,
 * timelines, drawables) that can be written with the writer and compared
 * with what the reader delivers (brute-force filter, preview bins).
 *
 * The tests check the contract in <slog2/slog.h> ("Exact semantics" above
 * slog_reader_query); they use only the public API. */
#ifndef SLOG_TESTUTIL_H
#define SLOG_TESTUTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slog2/slog.h>

#include "check.h"

/* ------------------------------------------------------------ checks */

/* CHECK, CHECKF and check_context come from tests/check.h; CHECK_OK is
 * CHECK_STATUS for a slog_status that also prints the slog_error's message. */
#define CHECK_OK(st, errp)                                                                                  \
    do {                                                                                                    \
        slog_status st_ = (st);                                                                             \
        if (st_ != SLOG_OK)                                                                                 \
            check_fail(__FILE__, __LINE__, #st, "%d %s: %s", (int)st_, slog_strerror(st_), t_errmsg(errp)); \
    } while (0)
static inline const char *t_errmsg(const slog_error *e)
{
    return e ? e->message : "";
}
/* preview bins compared by t_verify_query (and how many were non-zero) */
extern uint64_t t_bins_checked, t_bins_nonzero;

/* qsort that accepts (NULL, 0) (glibc declares base nonnull; UBSan checks). */
static inline void t_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n > 1) qsort(base, n, size, cmp);
}

/* 1 when SLOG2_UNDER_VALGRIND=1 (the memcheck ctest variant): shrink work. */
int t_under_valgrind(void);
/* Integer from the environment, or def. */
long long t_env_ll(const char *name, long long def);
/* The seeded model tests replay one case from their command line,
 * "SEED [N_DRAWABLES [N_QUERIES]]": returns 1 and fills what is given
 * (the rest keeps the caller's defaults), or 0 without arguments. */
int t_seed_args(int argc, char **argv, uint64_t *seed, size_t *n, unsigned *n_queries);
double t_now(void);
/* A seeded model test's main: "SEED [N [N_QUERIES]]" on the command line
 * runs that one case (n and nq its defaults); otherwise `seeds` cases
 * from SLOG2_SEED (default `base`), fewer and smaller under Valgrind, then
 * more(base, dir) when given. Runs in a temporary directory named after
 * the test; prints PASS and returns main's status. */
typedef struct t_seed_plan {
    const char *name;
    uint64_t base;
    unsigned seeds, vg_seeds;
    size_t n, vg_n;
    unsigned nq, vg_nq;
} t_seed_plan;
int t_seed_main(int argc, char **argv, const t_seed_plan *p, void (*run)(uint64_t, size_t, unsigned, const char *),
                void (*more)(uint64_t, const char *));

/* ------------------------------------------------------------ collecting */

/* One delivered drawable with a copy of its info, or info_null when the
 * query handed out a NULL pointer. */
typedef struct got {
    slog_drawable d;
    int info_null;
    int64_t info[SLOG_MAX_FIELDS];
} got;

typedef struct got_vec {
    size_t n, cap, previews;
    got *g;
} got_vec;

/* A query's drawable callback appending to the got_vec at user. */
slog_cb_result t_collect(void *user, const slog_drawable *d);

/* ------------------------------------------------------------ rng */

typedef struct t_rng {
    uint64_t s;
} t_rng;
static inline uint64_t t_rand(t_rng *r) /* splitmix64 */
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
/* Uniform in [0, n); n > 0. */
static inline uint64_t t_below(t_rng *r, uint64_t n)
{
    return t_rand(r) % n;
}
/* Uniform in [lo, hi]. */
static inline int64_t t_range(t_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(t_rand(r) % ((uint64_t)(hi - lo) + 1));
}
static inline int t_chance(t_rng *r, unsigned percent)
{
    return t_below(r, 100) < percent;
}

/* ------------------------------------------------------------ files */

/* mkdtemp under $TMPDIR or /tmp; returns malloc'd path. */
char *t_mkdtemp(const char *tag);
/* Remove every entry of dir (one level) and dir itself. */
void t_rmtree(const char *dir);
/* Number of entries in dir (excluding . and ..). */
int t_count_entries(const char *dir);
/* malloc'd dir + "/" + name. */
char *t_path(const char *dir, const char *name);
/* Whole file into malloc'd buffer; NULL on error. */
unsigned char *t_read_file(const char *path, size_t *len);
int t_write_file(const char *path, const void *data, size_t len);
int t_file_exists(const char *path);

/* ------------------------------------------------------------ model */

typedef struct t_draw {
    slog_kind kind;
    uint32_t cat, tl, etl;
    int64_t start, end;
    uint32_t n_info;
    int64_t info[SLOG_MAX_FIELDS];
} t_draw;

typedef struct t_cat {
    slog_kind kind;
    char name[48], group[32];
    uint32_t rgba;
    uint32_t n_fields;
    char field_name_buf[SLOG_MAX_FIELDS][24]; /* (no pointers: cats[] is realloc'd) */
    uint8_t field_types[SLOG_MAX_FIELDS];
} t_cat;

typedef struct t_tl {
    uint32_t rank, thread;
    char label[48], group[32];
} t_tl;

typedef struct t_model {
    uint32_t n_cats, n_tls;
    t_cat *cats;
    t_tl *tls;
    size_t n, cap;
    t_draw *d;
    uint32_t n_ann;
    char (*ann_key)[32];
    char (*ann_val)[64];
} t_model;

void t_model_init(t_model *m);
void t_model_free(t_model *m);
uint32_t t_model_add_cat(t_model *m, slog_kind kind, const char *name, uint32_t n_fields);
uint32_t t_model_add_tl(t_model *m, uint32_t rank, uint32_t thread);
t_draw *t_model_push(t_model *m);
void t_model_add_ann(t_model *m, const char *key, const char *val);
/* Sort drawables into writer order: non-decreasing max(start, end). */
void t_model_sort_end_order(t_model *m);

static inline int64_t t_dlo(const t_draw *d)
{
    return d->start < d->end ? d->start : d->end;
}
static inline int64_t t_dhi(const t_draw *d)
{
    return d->start < d->end ? d->end : d->start;
}

/* Parameters of t_model_random. */
typedef struct t_gen_params {
    size_t n_drawables;
    uint32_t max_timelines;
    uint32_t max_categories;
} t_gen_params;
/* Random categories (all kinds, 0..5 fields), timelines and drawables: zero-
 * length and whole-span states, equal timestamps, nested states, arrows across
 * timelines (also end < start), events, extreme info values. Sorted in end
 * order. */
void t_model_random(t_model *m, t_rng *rng, const t_gen_params *p);

/* Open a writer (opt may be NULL) and give it the model's categories,
 * timelines and annotations; *out NULL on failure (err filled). */
slog_status t_model_open_writer(const t_model *m, const char *path, const slog_writer_options *opt, slog_writer **out,
                                slog_error *err);
/* Write the model with the writer (opt may be NULL). Returns the status of
 * the first failing call; err filled. */
slog_status t_model_write(const t_model *m, const char *path, const slog_writer_options *opt, slog_error *err);
/* A random model of gp (m initialised here) written to dir/name, leaves of
 * `leaf` drawables (0: 2 to 41, drawn from r after the model) and `bins`
 * preview bins (0: the writer's default); the file's path, which the
 * caller frees. */
char *t_write_random(t_model *m, t_rng *r, const t_gen_params *gp, uint32_t leaf, uint32_t bins, const char *dir,
                     const char *name);

/* Total order on drawables (all fields) for multiset comparison. */
int t_draw_cmp(const void *a, const void *b);
void t_draw_from(t_draw *out, const slog_drawable *d);
void t_draw_print(FILE *f, const t_draw *d);

/* Growable array of drawables collected from callbacks. */
typedef struct t_dvec {
    size_t n, cap;
    t_draw *d;
} t_dvec;
void t_dvec_push(t_dvec *v, const t_draw *d);
void t_dvec_free(t_dvec *v);
/* slog_drawable_cb appending to a t_dvec (user). */
slog_cb_result t_collect_drawable(void *user, const slog_drawable *d);

/* A deep copy of a delivered preview. */
typedef struct t_prev {
    int64_t lo, hi;
    uint32_t tree;
    uint32_t level, n_bins, n_rows;
    uint32_t *row_tl, *row_cat;
    float *values; /* n_rows * n_bins */
} t_prev;
typedef struct t_pvec {
    size_t n, cap;
    t_prev *p;
} t_pvec;
void t_pvec_free(t_pvec *v);
slog_cb_result t_collect_preview(void *user, const slog_preview *p);

/* Both collected by one query. */
typedef struct t_result {
    t_dvec dv;
    t_pvec pv;
} t_result;
slog_cb_result t_res_drawable(void *user, const slog_drawable *d);
slog_cb_result t_res_preview(void *user, const slog_preview *p);
void t_result_free(t_result *r);

/* Does d match window [t0,t1] and timeline flags (NULL = all)? */
int t_matches(const t_draw *d, int64_t t0, int64_t t1, const uint8_t *tls);

/* Check one query result against the model (brute force): exact multiset
 * when no previews may be used, else the XOR rule plus preview bins. Fails
 * the test (CHECK) on a mismatch. sorted_by_lo: model drawables sorted by
 * t_dlo (index array), built by t_model_index_by_lo. */
typedef struct t_index {
    size_t n;
    uint32_t *idx;
} t_index;
void t_model_index_by_lo(const t_model *m, t_index *ix);
void t_index_free(t_index *ix);
void t_verify_query(const t_model *m, const t_index *ix, const slog_file_info *fi, const slog_query *q,
                    const t_result *res, const slog_query_stats *st);

/* A random query over [tmin, tmax] of m's drawables: whole span, points and
 * edges on drawable boundaries, windows beyond the ends, random timeline
 * sets (in mask, n_tls bytes) and pixel widths, sometimes NO_PREVIEW. */
void t_random_query(t_rng *r, const t_model *m, int64_t tmin, int64_t tmax, slog_query *q, uint8_t *mask);

/* Folded grids (slog.h "folded grids"). t_grid: the grid of q's fields,
 * checked to have cols columns and 1 to rows rows. t_grid_rows: the row of
 * each of m's timelines in g (UINT32_MAX: none), checking that the rows
 * tile [first, last] with consecutive ranges of whole units. t_root_hi:
 * the end of the highest root's interval. t_verify_root_grid: the whole
 * trace folded into a row per overview group (per timeline with
 * SLOG_GRID_NO_OVERVIEW) and a column per preview bin of that root,
 * every value checked against a brute-force fold of m's drawables to the
 * previews' quantisation; returns the grid's unit. */
slog_grid *t_grid(slog_reader *rd, int64_t t0, int64_t t1, uint32_t first, uint32_t last, uint32_t cols, uint32_t rows,
                  uint32_t flags, slog_query_stats *qs);
uint32_t *t_grid_rows(const t_model *m, const slog_grid *g, uint32_t first, uint32_t last);
int64_t t_root_hi(const slog_file_info *fi);
uint32_t t_verify_root_grid(const t_model *m, slog_reader *rd, uint32_t flags);

/* CRC32C (Castagnoli), bitwise: an independent implementation for tests
 * that patch file bytes (format.h: header and postamble CRCs). */
uint32_t t_crc32c(const void *data, size_t len);

/* A small deterministic random model: t_model_random with seed, n drawables,
 * at most 4 timelines and 4 categories. */
void t_model_small(t_model *m, uint64_t seed, size_t n);

/* One drawable as a text line (for committed expectation files). */
void t_draw_line(char *buf, size_t len, const t_draw *d);

#endif
