/* SPDX-License-Identifier: MIT */
/* columns.c - aggregate previews and drawables into pixel columns.
 *
 * The viewer and slog2-print --preview read a window the same way: the query
 * returns previews for subtrees too fine to draw and drawables elsewhere; both
 * are folded into one value per pixel column per (timeline, category), so
 * that what is printed is what is drawn.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <slog2/slog.h>

typedef struct col_row {
    uint32_t timeline, category;
    int is_state; /* clamp to 1 at finish: a fraction covered */
    float *v;
} col_row;

struct slog_columns {
    int64_t t0, t1;
    double t_end; /* t1 + 1: the window is inclusive */
    double width; /* of one column, ns */
    uint32_t n_cols;
    col_row *rows;
    uint32_t n_rows, cap_rows;
    uint32_t *slots;
    uint32_t n_slots;
    int ok;
};

slog_columns *slog_columns_new(int64_t t0, int64_t t1, uint32_t n_cols)
{
    if (t1 < t0 || n_cols == 0) return NULL;
    slog_columns *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->t0 = t0;
    c->t1 = t1;
    /* Columns tile [t0, t1] exactly; a zero-width window gets 1 ns. */
    c->t_end = t1 > t0 ? (double)t1 : (double)t0 + 1.0;
    c->n_cols = n_cols;
    c->width = (c->t_end - (double)t0) / n_cols;
    c->ok = 1;
    return c;
}

void slog_columns_free(slog_columns *c)
{
    if (!c) return;
    for (uint32_t i = 0; i < c->n_rows; i++) free(c->rows[i].v);
    free(c->rows);
    free(c->slots);
    free(c);
}

static uint32_t hash2(uint32_t a, uint32_t b)
{
    uint64_t k = ((uint64_t)a << 32) | b;
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(k >> 32);
}

static float *row_for(slog_columns *c, uint32_t timeline, uint32_t category, int is_state)
{
    if (c->n_slots) {
        uint32_t h = hash2(timeline, category) & (c->n_slots - 1);
        while (c->slots[h]) {
            col_row *r = &c->rows[c->slots[h] - 1];
            if (r->timeline == timeline && r->category == category) return r->v;
            h = (h + 1) & (c->n_slots - 1);
        }
    }
    if (c->n_rows == c->cap_rows) {
        uint32_t cap = c->cap_rows ? c->cap_rows * 2 : 16;
        col_row *nr = realloc(c->rows, cap * sizeof *nr);
        uint32_t *ns = calloc((size_t)cap * 2, sizeof *ns);
        if (!nr || !ns) {
            if (nr) c->rows = nr;
            free(ns);
            c->ok = 0;
            return NULL;
        }
        c->rows = nr;
        c->cap_rows = cap;
        free(c->slots);
        c->slots = ns;
        c->n_slots = cap * 2;
        for (uint32_t i = 0; i < c->n_rows; i++) {
            uint32_t h = hash2(c->rows[i].timeline, c->rows[i].category) & (c->n_slots - 1);
            while (c->slots[h]) h = (h + 1) & (c->n_slots - 1);
            c->slots[h] = i + 1;
        }
    }
    float *v = calloc(c->n_cols, sizeof *v);
    if (!v) {
        c->ok = 0;
        return NULL;
    }
    uint32_t h = hash2(timeline, category) & (c->n_slots - 1);
    while (c->slots[h]) h = (h + 1) & (c->n_slots - 1);
    c->slots[h] = c->n_rows + 1;
    c->rows[c->n_rows].timeline = timeline;
    c->rows[c->n_rows].category = category;
    c->rows[c->n_rows].is_state = is_state;
    c->rows[c->n_rows].v = v;
    c->n_rows++;
    return v;
}

/* Add per_col times the overlap of [x0, x1) (in columns, 0 <= x0 < x1 <=
 * n_cols) to each column. */
static inline void spread_cols(float *cols, uint32_t n_cols, double x0, double x1, double per_col)
{
    uint32_t i0 = (uint32_t)x0; /* x0 >= 0: the cast is floor */
    /* Preview bins are at most a column wide: most fall inside one. */
    if (x1 <= (double)i0 + 1) {
        cols[i0] += (float)(per_col * (x1 - x0));
        return;
    }
    uint32_t i1 = (uint32_t)ceil(x1);
    if (i1 > n_cols) i1 = n_cols;
    cols[i0] += (float)(per_col * ((double)i0 + 1 - x0));
    for (uint32_t i = i0 + 1; i + 1 < i1; i++) cols[i] += (float)per_col;
    if (i1 > i0 + 1) cols[i1 - 1] += (float)(per_col * (x1 - (double)(i1 - 1)));
}

void slog_spread(float *cols, uint32_t n_cols, double t0, double col_ns, double a, double b, double amount_per_ns)
{
    if (!(b > a) || !(col_ns > 0) || n_cols == 0) return;
    double x0 = (a - t0) / col_ns, x1 = (b - t0) / col_ns; /* in columns */
    if (x1 <= 0 || x0 >= n_cols) return;
    if (x0 < 0) x0 = 0;
    if (x1 > n_cols) x1 = n_cols;
    spread_cols(cols, n_cols, x0, x1, amount_per_ns * col_ns);
}

void slog_spread_bins(float *cols, uint32_t n_cols, double t0, double col_ns, int64_t lo, int64_t hi, uint32_t n_bins,
                      const float *values, int is_state)
{
    if (n_bins == 0 || hi <= lo || !(col_ns > 0) || n_cols == 0) return;
    /* Bin j covers columns [x_lo + j dx, x_lo + (j+1) dx): one division
     * per row, not per bin, and the bins outside the columns are skipped. */
    double bw = ((double)hi - (double)lo) / n_bins;
    double x_lo = ((double)lo - t0) / col_ns, dx = bw / col_ns;
    double j_first = floor(-x_lo / dx), j_end = ceil(((double)n_cols - x_lo) / dx);
    uint32_t j0 = j_first > 0 ? (j_first < n_bins ? (uint32_t)j_first : n_bins) : 0;
    uint32_t j1 = j_end < n_bins ? (j_end > 0 ? (uint32_t)j_end : 0) : n_bins;
    /* A state bin's fraction f covers f*bw ns: per column that is
     * f * overlap (in columns). A count is spread by overlap too: per
     * column, f / dx. */
    double count_scale = 1.0 / dx;
    for (uint32_t j = j0; j < j1; j++) {
        if (values[j] == 0) continue;
        double x0 = x_lo + j * dx, x1 = x0 + dx;
        double per_col = is_state ? values[j] : values[j] * count_scale;
        if (dx <= 1 && x0 >= 0 && x1 <= n_cols) {
            /* A window query's bins are at most a column wide (it stops
             * descending there), so a bin inside the columns meets one or
             * two: spread_cols without its general case, same arithmetic.
             * Half a zoomed-out frame's query was spent here. */
            uint32_t i0 = (uint32_t)x0;
            double edge = (double)i0 + 1;
            if (x1 <= edge) {
                cols[i0] += (float)(per_col * (x1 - x0));
            } else {
                cols[i0] += (float)(per_col * (edge - x0));
                cols[i0 + 1] += (float)(per_col * (x1 - edge));
            }
            continue;
        }
        if (x1 <= 0 || x0 >= n_cols) continue;
        if (x0 < 0) x0 = 0;
        if (x1 > n_cols) x1 = n_cols;
        spread_cols(cols, n_cols, x0, x1, per_col);
    }
}

static void add_point(const slog_columns *c, float *v, double t, double amount)
{
    if (t < (double)c->t0 || t >= c->t_end) return;
    uint32_t j = (uint32_t)fmin(c->n_cols - 1, floor((t - (double)c->t0) / c->width));
    v[j] += (float)amount;
}

void slog_columns_add_preview(slog_columns *c, const slog_preview *p, const uint8_t *cat_is_state)
{
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const slog_preview_row *r = &p->rows[i];
        bool st = cat_is_state[r->category];
        float *v = row_for(c, r->timeline, r->category, st);
        if (!v) return;
        slog_spread_bins(v, c->n_cols, (double)c->t0, c->width, p->lo, p->hi, p->n_bins, r->values, st);
    }
}

void slog_columns_add_drawable(slog_columns *c, const slog_drawable *d)
{
    float *v = row_for(c, d->timeline, d->category, d->kind == SLOG_KIND_STATE);
    if (!v) return;
    if (d->kind == SLOG_KIND_STATE)
        slog_spread(v, c->n_cols, (double)c->t0, c->width, (double)d->start, (double)d->end, 1.0 / c->width);
    else
        add_point(c, v, (double)d->start, 1.0);
}

static int cmp_row(const void *x, const void *y)
{
    const col_row *a = x, *b = y;
    if (a->timeline != b->timeline) return a->timeline < b->timeline ? -1 : 1;
    return a->category < b->category ? -1 : a->category > b->category;
}

void slog_columns_finish(slog_columns *c)
{
    /* Nested states of one category may overlap: a column is at most full. */
    for (uint32_t i = 0; i < c->n_rows; i++)
        if (c->rows[i].is_state)
            for (uint32_t j = 0; j < c->n_cols; j++)
                if (c->rows[i].v[j] > 1) c->rows[i].v[j] = 1;
    qsort(c->rows, c->n_rows, sizeof *c->rows, cmp_row);
    /* The hash now points at stale positions; rebuild it. */
    if (c->n_slots) {
        memset(c->slots, 0, c->n_slots * sizeof *c->slots);
        for (uint32_t i = 0; i < c->n_rows; i++) {
            uint32_t h = hash2(c->rows[i].timeline, c->rows[i].category) & (c->n_slots - 1);
            while (c->slots[h]) h = (h + 1) & (c->n_slots - 1);
            c->slots[h] = i + 1;
        }
    }
}

uint32_t slog_columns_n_rows(const slog_columns *c)
{
    return c->n_rows;
}
uint32_t slog_columns_n_cols(const slog_columns *c)
{
    return c->n_cols;
}
int slog_columns_ok(const slog_columns *c)
{
    return c->ok;
}

const float *slog_columns_row(const slog_columns *c, uint32_t i, uint32_t *timeline, uint32_t *category)
{
    if (i >= c->n_rows) return NULL;
    if (timeline) *timeline = c->rows[i].timeline;
    if (category) *category = c->rows[i].category;
    return c->rows[i].v;
}
