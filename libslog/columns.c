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

#include "slog.h"

typedef struct col_row {
    uint32_t timeline, category;
    int is_state;   /* clamp to 1 at finish: a fraction covered */
    double *v;
} col_row;

struct slog_columns {
    int64_t t0, t1;
    double t_end;      /* t1 + 1: the window is inclusive */
    double width;      /* of one column, ns */
    uint32_t n_cols;
    col_row *rows;
    uint32_t n_rows, cap_rows;
    uint32_t *slots;
    uint32_t n_slots;
    int ok;
};

slog_columns *slog_columns_new(int64_t t0, int64_t t1, uint32_t n_cols) {
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

void slog_columns_free(slog_columns *c) {
    if (!c) return;
    for (uint32_t i = 0; i < c->n_rows; i++) free(c->rows[i].v);
    free(c->rows);
    free(c->slots);
    free(c);
}

static uint32_t hash2(uint32_t a, uint32_t b) {
    uint64_t k = ((uint64_t)a << 32) | b;
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ull;
    return (uint32_t)(k >> 32);
}

static double *row_for(slog_columns *c, uint32_t timeline, uint32_t category, int is_state) {
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
    double *v = calloc(c->n_cols, sizeof *v);
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

/* Spread amount over [a, b) onto the columns it overlaps, proportionally to
 * overlap / scale. */
static void spread(const slog_columns *c, double *v, double a, double b, double amount_per_ns) {
    if (b <= (double)c->t0 || a >= c->t_end) return;
    if (a < (double)c->t0) a = (double)c->t0;
    if (b > c->t_end) b = c->t_end;
    uint32_t j0 = (uint32_t)fmin(c->n_cols - 1, floor((a - (double)c->t0) / c->width));
    uint32_t j1 = (uint32_t)fmin(c->n_cols - 1, floor((b - (double)c->t0) / c->width));
    for (uint32_t j = j0; j <= j1; j++) {
        double c0 = (double)c->t0 + j * c->width, c1 = c0 + c->width;
        double ov = fmin(b, c1) - fmax(a, c0);
        if (ov > 0) v[j] += ov * amount_per_ns;
    }
}

static void add_point(const slog_columns *c, double *v, double t, double amount) {
    if (t < (double)c->t0 || t >= c->t_end) return;
    uint32_t j = (uint32_t)fmin(c->n_cols - 1, floor((t - (double)c->t0) / c->width));
    v[j] += amount;
}

void slog_columns_add_preview(slog_columns *c, const slog_preview *p, const uint8_t *cat_is_state) {
    double bw = ((double)p->hi - (double)p->lo) / p->n_bins;
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const slog_preview_row *r = &p->rows[i];
        bool st = cat_is_state[r->category];
        double *v = row_for(c, r->timeline, r->category, st);
        if (!v) return;
        for (uint32_t j = 0; j < p->n_bins; j++) {
            if (r->values[j] == 0) continue;
            double a = (double)p->lo + j * bw;
            /* A state bin's fraction f covers f*bw ns: per column that is
             * f * overlap / column width. A count is spread by overlap too. */
            spread(c, v, a, a + bw, st ? r->values[j] / c->width : r->values[j] / bw);
        }
    }
}

void slog_columns_add_drawable(slog_columns *c, const slog_drawable *d) {
    double *v = row_for(c, d->timeline, d->category, d->kind == SLOG_KIND_STATE);
    if (!v) return;
    if (d->kind == SLOG_KIND_STATE) {
        if (d->end > d->start) spread(c, v, (double)d->start, (double)d->end, 1.0 / c->width);
    } else {
        add_point(c, v, (double)d->start, 1.0);
    }
}

static int cmp_row(const void *x, const void *y) {
    const col_row *a = x, *b = y;
    if (a->timeline != b->timeline) return a->timeline < b->timeline ? -1 : 1;
    return a->category < b->category ? -1 : a->category > b->category;
}

void slog_columns_finish(slog_columns *c) {
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

uint32_t slog_columns_n_rows(const slog_columns *c) { return c->n_rows; }
uint32_t slog_columns_n_cols(const slog_columns *c) { return c->n_cols; }
int slog_columns_ok(const slog_columns *c) { return c->ok; }

const double *slog_columns_row(const slog_columns *c, uint32_t i, uint32_t *timeline, uint32_t *category) {
    if (i >= c->n_rows) return NULL;
    if (timeline) *timeline = c->rows[i].timeline;
    if (category) *category = c->rows[i].category;
    return c->rows[i].v;
}
