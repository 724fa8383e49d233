/* preview.c - SLOG-1 style preview bins, accumulated while a node is open.
 *
 * A node's preview summarises its whole subtree: per (timeline, category) the
 * fraction of each of n_bins time bins covered by states (partial overlap
 * counts fractionally, as in SLOG-1's statistics section; see the SLOG
 * review in ../shared/seeds/003) and the number of arrows/events starting in
 * each bin. Values are kept as doubles while open and quantised only when a
 * node is written, so merging children into parents loses nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void prev_init(slog_prev_acc *a, uint32_t n_bins) {
    memset(a, 0, sizeof *a);
    a->n_bins = n_bins;
}

void prev_free(slog_prev_acc *a) {
    free(a->rows);
    free(a->slots);
    free(a->pool);
    uint32_t n = a->n_bins;
    memset(a, 0, sizeof *a);
    a->n_bins = n;
}

void prev_reset(slog_prev_acc *a) {
    if (a->n_rows) {
        memset(a->pool, 0, (size_t)a->n_rows * a->n_bins * sizeof(double));
        memset(a->slots, 0, (size_t)a->n_slots * sizeof(uint32_t));
    }
    a->n_rows = 0;
    a->failed = false;
}

static uint32_t hash_key(uint32_t timeline, uint32_t category) {
    uint64_t k = ((uint64_t)timeline << 32) | category;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k;
}

static bool grow(slog_prev_acc *a) {
    uint32_t cap = a->cap_rows ? a->cap_rows * 2 : 16;
    slog_prev_row *rows = realloc(a->rows, (size_t)cap * sizeof *rows);
    if (!rows) return false;
    a->rows = rows;
    double *pool = realloc(a->pool, (size_t)cap * a->n_bins * sizeof(double));
    if (!pool) return false;
    memset(pool + (size_t)a->cap_rows * a->n_bins, 0, (size_t)(cap - a->cap_rows) * a->n_bins * sizeof(double));
    a->pool = pool;
    a->cap_rows = cap;
    uint32_t n_slots = cap * 2;
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots) return false;
    for (uint32_t i = 0; i < a->n_rows; i++) {
        uint32_t h = hash_key(a->rows[i].timeline, a->rows[i].category) & (n_slots - 1);
        while (slots[h]) h = (h + 1) & (n_slots - 1);
        slots[h] = i + 1;
    }
    free(a->slots);
    a->slots = slots;
    a->n_slots = n_slots;
    return true;
}

/* Find or create the row; NULL (and a->failed) when out of memory. */
static slog_prev_row *row_get(slog_prev_acc *a, uint32_t timeline, uint32_t category) {
    if (a->n_slots) {
        uint32_t h = hash_key(timeline, category) & (a->n_slots - 1);
        while (a->slots[h]) {
            slog_prev_row *r = &a->rows[a->slots[h] - 1];
            if (r->timeline == timeline && r->category == category) return r;
            h = (h + 1) & (a->n_slots - 1);
        }
    }
    if (a->n_rows == a->cap_rows && !grow(a)) {
        a->failed = true;
        return NULL;
    }
    uint32_t h = hash_key(timeline, category) & (a->n_slots - 1);
    while (a->slots[h]) h = (h + 1) & (a->n_slots - 1);
    a->slots[h] = a->n_rows + 1;
    slog_prev_row *r = &a->rows[a->n_rows++];
    r->timeline = timeline;
    r->category = category;
    r->lo_bin = a->n_bins;
    r->hi_bin = 0;
    return r;
}

static inline double *row_bins(const slog_prev_acc *a, const slog_prev_row *r) {
    return a->pool + (size_t)(r - a->rows) * a->n_bins;
}

static inline void touch(slog_prev_row *r, uint32_t lo, uint32_t hi) {
    if (lo < r->lo_bin) r->lo_bin = lo;
    if (hi > r->hi_bin) r->hi_bin = hi;
}

static uint32_t bin_of(double rel, double w, uint32_t n_bins) {
    double j = floor(rel / w);
    if (j < 0) return 0;
    if (j >= n_bins) return n_bins - 1;
    return (uint32_t)j;
}

void prev_add(slog_prev_acc *a, int64_t lo, int64_t width, uint32_t timeline, uint32_t category,
              bool is_state, int64_t start, int64_t end) {
    if (is_state && end <= start) return; /* zero-length states cover nothing */
    slog_prev_row *r = row_get(a, timeline, category);
    if (!r) return;
    double *bins = row_bins(a, r);
    double w = (double)width / a->n_bins;
    if (!is_state) {
        uint32_t j = bin_of((double)(start - lo), w, a->n_bins);
        bins[j] += 1.0;
        touch(r, j, j + 1);
        return;
    }
    double s = (double)(start - lo), e = (double)(end - lo);
    uint32_t j0 = bin_of(s, w, a->n_bins), j1 = bin_of(e, w, a->n_bins);
    for (uint32_t j = j0; j <= j1; j++) {
        double b0 = j * w, b1 = (j + 1) * w;
        double ov = fmin(e, b1) - fmax(s, b0);
        if (ov > 0) bins[j] += ov / w;
    }
    touch(r, j0, j1 + 1);
}

void prev_merge_child(slog_prev_acc *parent, const slog_prev_acc *child, unsigned child_half,
                      const bool *cat_is_state) {
    uint32_t n = child->n_bins;
    for (uint32_t i = 0; i < child->n_rows; i++) {
        const slog_prev_row *cr = &child->rows[i];
        if (cr->hi_bin <= cr->lo_bin) continue;
        slog_prev_row *pr = row_get(parent, cr->timeline, cr->category);
        if (!pr) return;
        const double *cb = child->pool + (size_t)i * n;
        double *pb = row_bins(parent, pr);
        double scale = cat_is_state[cr->category] ? 0.5 : 1.0;
        for (uint32_t j = cr->lo_bin; j < cr->hi_bin; j++)
            if (cb[j] != 0) pb[(child_half * n + j) / 2] += cb[j] * scale;
        touch(pr, (child_half * n + cr->lo_bin) / 2, (child_half * n + cr->hi_bin - 1) / 2 + 1);
    }
}

static _Thread_local const slog_prev_row *sort_base;
static int cmp_rows(const void *x, const void *y) {
    const slog_prev_row *a = &sort_base[*(const uint32_t *)x], *b = &sort_base[*(const uint32_t *)y];
    if (a->timeline != b->timeline) return a->timeline < b->timeline ? -1 : 1;
    if (a->category != b->category) return a->category < b->category ? -1 : 1;
    return 0;
}

/* Quantised value of bin j of a row: 0..255 for states, counts otherwise. */
static uint64_t quantise(double v, bool is_state) {
    if (v <= 0) return 0;
    if (is_state) return v >= 1.0 ? 255 : (uint64_t)(v * 255.0 + 0.5);
    return (uint64_t)(v + 0.5);
}

uint64_t prev_estimate(const slog_prev_acc *a) {
    uint64_t bytes = 8;
    for (uint32_t i = 0; i < a->n_rows; i++)
        if (a->rows[i].hi_bin > a->rows[i].lo_bin) bytes += 4 + a->rows[i].hi_bin - a->rows[i].lo_bin;
    return bytes;
}

uint32_t prev_encode(const slog_prev_acc *a, const bool *cat_is_state, slog_buf *out) {
    uint32_t *order = malloc((size_t)(a->n_rows ? a->n_rows : 1) * sizeof *order);
    if (!order) {
        out->failed = true;
        return 0;
    }
    for (uint32_t i = 0; i < a->n_rows; i++) order[i] = i;
    /* Sorting makes the file independent of hash order; the writer is single
     * threaded, so a file-static base pointer is safe here. */
    sort_base = a->rows;
    qsort(order, a->n_rows, sizeof *order, cmp_rows);
    buf_put_u32(out, a->n_bins);
    size_t count_at = out->len;
    buf_put_u32(out, 0);
    uint32_t written = 0;
    for (uint32_t k = 0; k < a->n_rows; k++) {
        const slog_prev_row *r = &a->rows[order[k]];
        const double *bins = a->pool + (size_t)order[k] * a->n_bins;
        bool st = cat_is_state[r->category];
        uint32_t lo = r->lo_bin, hi = r->hi_bin;
        while (lo < hi && quantise(bins[lo], st) == 0) lo++;
        while (hi > lo && quantise(bins[hi - 1], st) == 0) hi--;
        if (lo >= hi) continue;
        buf_put_uvar(out, r->timeline);
        buf_put_uvar(out, r->category);
        buf_put_uvar(out, lo);
        buf_put_uvar(out, hi - lo);
        for (uint32_t j = lo; j < hi; j++) {
            if (st)
                buf_put_u8(out, (uint8_t)quantise(bins[j], true));
            else
                buf_put_uvar(out, quantise(bins[j], false));
        }
        written++;
    }
    if (!out->failed) put_u32le(out->data + count_at, written);
    free(order);
    return written;
}
