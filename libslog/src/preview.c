/* SPDX-License-Identifier: MIT */
/* preview.c - SLOG-1 style preview bins, accumulated while a node is open.
 *
 * A node's preview summarises its whole subtree: per (timeline, category) the
 * fraction of each of n_bins time bins covered by states (partial overlap
 * counts fractionally, as in SLOG-1's statistics section) and the number
 * of arrows/events starting in
 * each bin. Values are kept as floats while open (counts are exact up to
 * 2^24 per bin and row) and quantised only when a
 * node is written, so merging children into parents loses nothing.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void prev_init(slog_prev_acc *a, uint32_t n_bins)
{
    memset(a, 0, sizeof *a);
    a->n_bins = n_bins;
}

void prev_init_chunked(slog_prev_acc *a, uint32_t n_bins)
{
    prev_init(a, n_bins);
    a->chunked = true;
}

void prev_free(slog_prev_acc *a)
{
    free(a->rows);
    free(a->slots);
    free(a->direct);
    free(a->pool);
    free(a->ctab);
    for (uint32_t i = 0; i < a->n_slabs; i++) free(a->slabs[i]);
    free(a->slabs);
    uint32_t n = a->n_bins, direct_max = a->direct_max;
    bool chunked = a->chunked;
    memset(a, 0, sizeof *a);
    a->n_bins = n;
    a->chunked = chunked;
    a->direct_max = direct_max;
}

/* ---------------------------------------------------------- chunked bins
 *
 * A row's bins in chunks of PREV_CHUNK floats, made (zero) when first
 * touched. A tree node above the leaves sees every (timeline, category)
 * of its subtree, and at thousands of timelines most rows touch a few of
 * its bins (a rank's calls of one kind in a short phase): dense rows were
 * most of the writer's memory. Chunks live in slabs that double in size
 * (no copy when more are needed) and are all given back at once when the
 * node is reset. The arithmetic on a bin is the dense rows', so the bytes
 * written do not depend on the storage. */
#define PREV_CHUNK      16u
/* Slabs 0 .. PREV_SLAB_GROW - 1 double from PREV_SLAB_FIRST chunks (a
 * small node stays small); the later ones all hold PREV_SLAB_MAX, so that
 * no more than one slab's worth lies unused. */
#define PREV_SLAB_FIRST 16u
#define PREV_SLAB_GROW  4u
#define PREV_SLAB_MAX   (PREV_SLAB_FIRST << PREV_SLAB_GROW)
#define PREV_SLAB_FLAT  (PREV_SLAB_FIRST * ((1u << PREV_SLAB_GROW) - 1)) /* chunks before the first large slab */

static inline uint32_t row_chunks(const slog_prev_acc *a)
{
    return (a->n_bins + PREV_CHUNK - 1) / PREV_CHUNK;
}

/* Slab and place in it of storage index k. */
static inline uint32_t slab_of(uint32_t k, uint32_t *off)
{
    if (k >= PREV_SLAB_FLAT) {
        *off = (k - PREV_SLAB_FLAT) % PREV_SLAB_MAX;
        return PREV_SLAB_GROW + (k - PREV_SLAB_FLAT) / PREV_SLAB_MAX;
    }
    uint32_t s = 31u - (uint32_t)__builtin_clz(k / PREV_SLAB_FIRST + 1);
    *off = k - PREV_SLAB_FIRST * ((1u << s) - 1);
    return s;
}

static inline float *chunk_at(const slog_prev_acc *a, uint32_t number)
{
    uint32_t off, s = slab_of(number - 1, &off);
    return a->slabs[s] + (size_t)off * PREV_CHUNK;
}

/* Bin j of row ri, its chunk made if there is none; NULL (and a->failed)
 * when out of memory. */
static float *cbin(slog_prev_acc *a, uint32_t ri, uint32_t j)
{
    uint32_t *slot = &a->ctab[(size_t)ri * row_chunks(a) + j / PREV_CHUNK];
    if (!*slot) {
        uint32_t k = a->n_chunks, off;
        uint32_t sl = slab_of(k, &off);
        if (sl >= a->n_slabs) {
            if (k >= UINT32_MAX - 1) { /* no chunk number left */
                a->failed = true;
                return NULL;
            }
            float **v = realloc(a->slabs, (size_t)(sl + 1) * sizeof *v);
            if (!v) {
                a->failed = true;
                return NULL;
            }
            a->slabs = v;
            v[sl] = malloc((size_t)(sl < PREV_SLAB_GROW ? PREV_SLAB_FIRST << sl : PREV_SLAB_MAX) * PREV_CHUNK *
                           sizeof(float));
            if (!v[sl]) {
                a->failed = true;
                return NULL;
            }
            a->n_slabs = sl + 1;
        }
        a->n_chunks++;
        *slot = k + 1;
        memset(chunk_at(a, *slot), 0, PREV_CHUNK * sizeof(float));
    }
    return chunk_at(a, *slot) + j % PREV_CHUNK;
}

/* cbin() through a cache of one chunk (*base: its bin 0, *cur: its number
 * in the row, UINT32_MAX for none): the bins a loop adds to one after the
 * other mostly share a chunk, and finding it for every bin was most of the
 * overview's previews. */
static inline float *cbin_near(slog_prev_acc *a, uint32_t ri, uint32_t j, float **base, uint32_t *cur)
{
    if (j / PREV_CHUNK != *cur) {
        float *p = cbin(a, ri, j);
        if (!p) return NULL;
        *base = p - j % PREV_CHUNK;
        *cur = j / PREV_CHUNK;
    }
    return *base + j % PREV_CHUNK;
}

/* Bin j of row ri, 0 where it has no chunk. */
static inline float cget(const slog_prev_acc *a, uint32_t ri, uint32_t j)
{
    uint32_t c = a->ctab[(size_t)ri * row_chunks(a) + j / PREV_CHUNK];
    return c ? chunk_at(a, c)[j % PREV_CHUNK] : 0.0f;
}

/* Bins [lo, hi) of chunked row ri into out (n_bins floats; zeros where
 * untouched), a chunk at a time: a bin at a time looked its chunk up again
 * for every bin, and the bins outside the row's touched ones are never
 * read. */
static void row_values(const slog_prev_acc *a, uint32_t ri, float *out, uint32_t lo, uint32_t hi)
{
    const uint32_t *tab = a->ctab + (size_t)ri * row_chunks(a);
    for (uint32_t j = lo / PREV_CHUNK * PREV_CHUNK; j < hi; j += PREV_CHUNK) {
        uint32_t c = tab[j / PREV_CHUNK];
        if (j + PREV_CHUNK <= a->n_bins) {
            if (c)
                memcpy(out + j, chunk_at(a, c), PREV_CHUNK * sizeof *out);
            else
                memset(out + j, 0, PREV_CHUNK * sizeof *out);
        } else {
            for (uint32_t k = j; k < a->n_bins; k++) out[k] = c ? chunk_at(a, c)[k - j] : 0.0f;
        }
    }
}

static inline bool in_direct(const slog_prev_acc *a, uint32_t timeline, uint32_t category)
{
    size_t cell;
    return prev_direct_cell(a, timeline, category, &cell);
}

static void clear_hashed(slog_prev_acc *a);

void prev_reset(slog_prev_acc *a)
{
    if (a->n_rows && a->chunked) {
        memset(a->ctab, 0, (size_t)a->n_rows * row_chunks(a) * sizeof *a->ctab);
        for (uint32_t i = 0; i < a->n_rows; i++) {
            const slog_prev_row *r = &a->rows[i];
            size_t cell;
            if (prev_direct_cell(a, r->timeline, r->category, &cell)) a->direct[cell] = 0;
        }
        clear_hashed(a);
        a->n_chunks = 0;
    } else if (a->n_rows) {
        /* Only bins in [lo_bin, hi_bin) of a row were ever written, and a
         * merge into the parent zeroed those already (bins_zero): only the
         * root and a node whose merge ran out of memory come here with
         * bins to clear. */
        for (uint32_t i = 0; i < a->n_rows; i++) {
            const slog_prev_row *r = &a->rows[i];
            float *bins = a->pool + (size_t)i * a->n_bins;
            if (!a->bins_zero)
                for (uint32_t j = r->lo_bin; j < r->hi_bin; j++) bins[j] = 0;
            size_t cell;
            if (prev_direct_cell(a, r->timeline, r->category, &cell)) a->direct[cell] = 0;
        }
        clear_hashed(a);
    }
    a->n_rows = 0;
    a->n_hashed = 0;
    a->bins_zero = false;
    a->failed = false;
}

/* Up to this many (timeline, category) pairs get the direct table: 256 KiB
 * per open level at most, and no hashing on the hot path. */
#define DIRECT_MAX (1u << 16)

static uint32_t hash_key(uint32_t timeline, uint32_t category)
{
    uint64_t k = ((uint64_t)timeline << 32) | category;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (uint32_t)k;
}

/* The hash's slots all zero again: the few rows in it found and cleared
 * one by one, or all slots at once. The writer's leaf accumulator hashes
 * the rows of batches of thousands of timelines, in slots sized for its
 * largest, and clearing all of them for every batch was a twentieth of
 * the write step with thousands of ranks. */
static void clear_hashed(slog_prev_acc *a)
{
    if (!a->n_hashed) return; /* none in it: every slot is zero */
    uint32_t mask = a->n_slots - 1, left = a->n_hashed;
    if ((uint64_t)left * 8 < a->n_slots)
        for (uint32_t i = 0; i < a->n_rows && left; i++) {
            const slog_prev_row *r = &a->rows[i];
            if (in_direct(a, r->timeline, r->category)) continue; /* not hashed */
            uint32_t h = hash_key(r->timeline, r->category) & mask, probes = 0;
            while (a->slots[h] != i + 1 && ++probes < a->n_slots) h = (h + 1) & mask;
            if (a->slots[h] != i + 1) break; /* not there after all: all at once below */
            a->slots[h] = 0;
            left--;
        }
    if (left) memset(a->slots, 0, (size_t)a->n_slots * sizeof *a->slots);
    a->n_hashed = 0;
}

/* The hash holds only the rows the direct table cannot: with it, a node
 * that touches thousands of rows (1,024 ranks) neither probes nor clears
 * a hash at every close. Rebuilt from the rows (slots has room for all). */
static void rehash(slog_prev_acc *a)
{
    if (!a->n_slots) return;
    clear_hashed(a);
    a->n_hashed = 0;
    for (uint32_t i = 0; i < a->n_rows; i++) {
        const slog_prev_row *r = &a->rows[i];
        if (in_direct(a, r->timeline, r->category)) continue;
        uint32_t h = hash_key(r->timeline, r->category) & (a->n_slots - 1);
        while (a->slots[h]) h = (h + 1) & (a->n_slots - 1);
        a->slots[h] = i + 1;
        a->n_hashed++;
    }
}

/* Slots for every row the accumulator has room for, at most half full.
 * Made only when a row lies outside the direct table: a tree node's rows
 * all lie inside it, and the slots were a fifth of its memory. */
static bool ensure_slots(slog_prev_acc *a)
{
    uint32_t n_slots = 32; /* a power of two */
    while (n_slots < a->cap_rows * 2) n_slots *= 2;
    if (a->n_slots >= n_slots) return true;
    uint32_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots) return false;
    free(a->slots);
    a->slots = slots;
    a->n_slots = n_slots;
    rehash(a);
    return true;
}

void prev_resize_dims(slog_prev_acc *a, uint32_t first_timeline, uint32_t n_timelines, uint32_t n_categories)
{
    uint64_t cells = (uint64_t)n_timelines * n_categories;
    bool fits = cells <= (a->direct_max ? a->direct_max : DIRECT_MAX) && cells;
    a->dir_tl0 = first_timeline;
    a->dir_tl = n_timelines;
    a->dir_cat = n_categories;
    /* With no rows the table is all zeros (prev_reset clears the cells
     * of its rows): one accumulator serves the batches of every lane in
     * turn, each with its own timelines, and clearing a new table for
     * each batch was a twentieth of a build with thousands of ranks. */
    if (fits && a->direct && !a->n_rows && cells <= a->dir_cap) {
        if (a->n_hashed) rehash(a); /* none: the hash is all zeros too */
        return;
    }
    free(a->direct);
    a->direct = NULL;
    a->dir_cap = 0;
    if (fits && (a->direct = calloc((size_t)cells, sizeof *a->direct))) a->dir_cap = (uint32_t)cells;
    for (uint32_t i = 0; a->direct && i < a->n_rows; i++) {
        const slog_prev_row *r = &a->rows[i];
        size_t cell;
        if (prev_direct_cell(a, r->timeline, r->category, &cell)) a->direct[cell] = i + 1;
    }
    /* without the table (none, or out of memory) every row is hashed */
    bool outside = false;
    for (uint32_t i = 0; i < a->n_rows && !outside; i++)
        outside = !in_direct(a, a->rows[i].timeline, a->rows[i].category);
    if (outside && !ensure_slots(a))
        a->failed = true;
    else
        rehash(a);
}

static bool grow(slog_prev_acc *a)
{
    /* x1.5: the top levels hold every (timeline, category) row at full
     * width, so rounding their capacity up to a power of two wasted memory
     * that grows with tree depth */
    uint32_t cap = a->cap_rows ? a->cap_rows + a->cap_rows / 2 : 16;
    if (a->direct) {
        /* Every row then lies inside the table: start with up to 4,096 of
         * its cells and never go past them (with many timelines, growing
         * by halves reallocated and copied the bins again and again). */
        uint32_t cells = a->dir_tl * a->dir_cat; /* at most direct_max */
        if (!a->cap_rows)
            cap = a->first_rows ? a->first_rows : cells < 4096 ? cells : 4096;
        else if (cap > cells && cells > a->cap_rows)
            cap = cells;
    }
    slog_prev_row *rows = realloc(a->rows, (size_t)cap * sizeof *rows);
    if (!rows) return false;
    a->rows = rows;
    if (a->chunked) {
        uint32_t nc = row_chunks(a);
        uint32_t *ctab = realloc(a->ctab, (size_t)cap * nc * sizeof *ctab);
        if (!ctab) return false;
        memset(ctab + (size_t)a->cap_rows * nc, 0, (size_t)(cap - a->cap_rows) * nc * sizeof *ctab);
        a->ctab = ctab;
    } else {
        float *pool = realloc(a->pool, (size_t)cap * a->n_bins * sizeof(float));
        if (!pool) return false;
        memset(pool + (size_t)a->cap_rows * a->n_bins, 0, (size_t)(cap - a->cap_rows) * a->n_bins * sizeof(float));
        a->pool = pool;
    }
    a->cap_rows = cap;
    return a->n_slots || !a->direct ? ensure_slots(a) : true;
}

/* Find or create the row; NULL (and a->failed) when out of memory. A row
 * inside the direct table's dimensions is found there, any other through
 * the hash. */
static slog_prev_row *row_get(slog_prev_acc *a, uint32_t timeline, uint32_t category)
{
    uint32_t *dslot = NULL;
    size_t cell;
    if (prev_direct_cell(a, timeline, category, &cell)) {
        dslot = &a->direct[cell];
        if (*dslot) return &a->rows[*dslot - 1];
    } else if (a->n_hashed) {
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
    if (dslot) {
        *dslot = a->n_rows + 1;
    } else {
        if (!ensure_slots(a)) {
            a->failed = true;
            return NULL;
        }
        uint32_t h = hash_key(timeline, category) & (a->n_slots - 1);
        while (a->slots[h]) h = (h + 1) & (a->n_slots - 1);
        a->slots[h] = a->n_rows + 1;
        a->n_hashed++;
    }
    slog_prev_row *r = &a->rows[a->n_rows++];
    r->timeline = timeline;
    r->category = category;
    r->lo_bin = a->n_bins;
    r->hi_bin = 0;
    return r;
}

/* The common case inline: a row that exists, found through the direct
 * table. */
static inline slog_prev_row *row_find(slog_prev_acc *a, uint32_t timeline, uint32_t category)
{
    size_t cell;
    if (prev_direct_cell(a, timeline, category, &cell)) {
        uint32_t k = a->direct[cell];
        if (k) return &a->rows[k - 1];
    }
    return row_get(a, timeline, category);
}

static inline float *row_bins(const slog_prev_acc *a, const slog_prev_row *r)
{
    return a->pool + (size_t)(r - a->rows) * a->n_bins;
}

static inline void touch(slog_prev_row *r, uint32_t lo, uint32_t hi)
{
    prev_touch(r, lo, hi);
}

static uint32_t bin_of(double rel, double w, uint32_t n_bins)
{
    double j = floor(rel / w);
    if (j < 0) return 0;
    if (j >= n_bins) return n_bins - 1;
    return (uint32_t)j;
}

/* prev_add()'s arithmetic, bin by bin, on a chunked row. */
static void add_chunked(slog_prev_acc *a, slog_prev_row *r, int64_t lo, int64_t width, bool is_state, int64_t start,
                        int64_t end)
{
    uint32_t ri = (uint32_t)(r - a->rows), n = a->n_bins;
    float *p;
    if (!(n & (n - 1)) && width >= (int64_t)n && !(width & (width - 1))) {
        if (width != a->pow2_width) {
            int bshift = 0;
            while (((int64_t)n << bshift) < width) bshift++;
            a->pow2_width = width;
            a->pow2_shift = bshift;
            a->pow2_inv = 1.0f / (float)((int64_t)1 << bshift);
        }
        int bshift = a->pow2_shift;
        float inv = a->pow2_inv;
        int64_t s = start - lo, e = end - lo;
        uint64_t j0 = (uint64_t)s >> bshift;
        if (!is_state) {
            if (j0 >= n) j0 = n - 1;
            if (!(p = cbin(a, ri, (uint32_t)j0))) return;
            *p += 1.0f;
            prev_touch(r, (uint32_t)j0, (uint32_t)j0 + 1);
            return;
        }
        uint64_t j1 = (uint64_t)(e - 1) >> bshift;
        if (j1 >= n) j1 = n - 1;
        if (j0 > j1) j0 = j1;
        if (j0 == j1) {
            if (!(p = cbin(a, ri, (uint32_t)j0))) return;
            *p += (float)(e - s) * inv;
        } else {
            float *base = NULL;
            uint32_t cur = UINT32_MAX;
            if (!(p = cbin_near(a, ri, (uint32_t)j0, &base, &cur))) return;
            *p += (float)((int64_t)((j0 + 1) << bshift) - s) * inv;
            for (uint64_t j = j0 + 1; j < j1; j++) {
                if (!(p = cbin_near(a, ri, (uint32_t)j, &base, &cur))) return;
                *p += 1.0f;
            }
            if (!(p = cbin_near(a, ri, (uint32_t)j1, &base, &cur))) return;
            *p += (float)(e - (int64_t)(j1 << bshift)) * inv;
        }
        prev_touch(r, (uint32_t)j0, (uint32_t)j1 + 1);
        return;
    }
    double w = (double)width / n;
    if (!is_state) {
        uint32_t j = bin_of((double)(start - lo), w, n);
        if (!(p = cbin(a, ri, j))) return;
        *p += 1.0;
        touch(r, j, j + 1);
        return;
    }
    double s = (double)(start - lo), e = (double)(end - lo);
    uint32_t j0 = bin_of(s, w, n), j1 = bin_of(e, w, n);
    for (uint32_t j = j0; j <= j1; j++) {
        double b0 = j * w, b1 = (j + 1) * w;
        double ov = fmin(e, b1) - fmax(s, b0);
        if (ov > 0) {
            if (!(p = cbin(a, ri, j))) return;
            *p += ov / w;
        }
    }
    touch(r, j0, j1 + 1);
}

void prev_add(slog_prev_acc *a, int64_t lo, int64_t width, uint32_t timeline, uint32_t category, bool is_state,
              int64_t start, int64_t end)
{
    if (is_state && end <= start) return; /* zero-length states cover nothing */
    slog_prev_row *r = row_find(a, timeline, category);
    if (!r) return;
    if (a->chunked) {
        add_chunked(a, r, lo, width, is_state, start, end);
        return;
    }
    float *bins = row_bins(a, r);
    /* start and end lie in [lo, lo + width] (the writer's placement rule) */
    if (width != a->pow2_width && !(a->n_bins & (a->n_bins - 1)) && width >= (int64_t)a->n_bins &&
        !(width & (width - 1))) { /* once per node width, not per drawable */
        int bshift = 0;
        while (((int64_t)a->n_bins << bshift) < width) bshift++;
        a->pow2_width = width;
        a->pow2_shift = bshift;
        a->pow2_inv = 1.0f / (float)((int64_t)1 << bshift);
    }
    if (width == a->pow2_width) {
        prev_add_pow2(bins, r, a->pow2_shift, a->pow2_inv, a->n_bins, is_state, start - lo, end - lo);
        return;
    }
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

void prev_merge_child(slog_prev_acc *parent, slog_prev_acc *child, unsigned child_half, const bool *cat_is_state)
{
    uint32_t n = child->n_bins, half = n / 2;
    for (uint32_t i = 0; i < child->n_rows; i++) {
        const slog_prev_row *cr = &child->rows[i];
        if (cr->hi_bin <= cr->lo_bin) continue;
        slog_prev_row *pr = row_find(parent, cr->timeline, cr->category);
        if (!pr) return;
        uint32_t m0 = cr->lo_bin / 2, m1 = (cr->hi_bin + 1) / 2;
        if (parent->chunked || child->chunked) {
            float scale = cat_is_state[cr->category] ? 0.5f : 1.0f;
            uint32_t pri = (uint32_t)(pr - parent->rows), cur = UINT32_MAX;
            float *base = NULL;
            for (uint32_t m = m0; m < m1; m++) {
                float x = child->chunked ? cget(child, i, 2 * m) + cget(child, i, 2 * m + 1)
                                         : child->pool[(size_t)i * n + 2 * m] + child->pool[(size_t)i * n + 2 * m + 1];
                if (x == 0.0f) continue; /* adds nothing; no chunk made for it */
                float *pb = parent->chunked ? cbin_near(parent, pri, child_half * half + m, &base, &cur)
                                            : row_bins(parent, pr) + child_half * half + m;
                if (!pb) return;
                *pb += x * scale;
            }
            touch(pr, child_half * half + m0, child_half * half + m1);
            if (!child->chunked)
                for (uint32_t j = 2 * m0; j < 2 * m1 && j < n; j++) child->pool[(size_t)i * n + j] = 0;
            continue;
        }
        float *restrict cb = child->pool + (size_t)i * n;
        /* Child bins 2m and 2m+1 make parent bin half*child_half + m; walk
         * whole pairs so the loop has no division and vectorises. */
        float *restrict pb = row_bins(parent, pr) + (size_t)child_half * half; /* another accumulator */
        /* In float, so it vectorises: halving is exact, and a float sum
         * rounds as the double sum rounded to float did. */
        float scale = cat_is_state[cr->category] ? 0.5f : 1.0f;
        /* The child's bins are zeroed as they are read: the merge is their
         * last use, and prev_reset() then need not come back to them. */
        for (uint32_t m = m0; m < m1; m++) {
            float x = cb[2 * m] + cb[2 * m + 1];
            cb[2 * m] = cb[2 * m + 1] = 0;
            pb[m] += x * scale;
        }
        touch(pr, child_half * half + m0, child_half * half + m1);
    }
    child->bins_zero = true;
}

bool prev_absorb(slog_prev_acc *dst, slog_prev_acc *src)
{
    uint32_t n = src->n_bins;
    for (uint32_t i = 0; i < src->n_rows; i++) {
        const slog_prev_row *sr = &src->rows[i];
        if (sr->hi_bin <= sr->lo_bin) continue;
        slog_prev_row *dr = row_find(dst, sr->timeline, sr->category);
        if (!dr) return false;
        float *restrict sb = src->pool + (size_t)i * n;
        if (dst->chunked) {
            uint32_t di = (uint32_t)(dr - dst->rows);
            for (uint32_t j = sr->lo_bin; j < sr->hi_bin; j++) {
                float *p = sb[j] != 0.0f ? cbin(dst, di, j) : NULL;
                if (sb[j] != 0.0f && !p) return false;
                if (p) *p += sb[j];
                sb[j] = 0;
            }
            touch(dr, sr->lo_bin, sr->hi_bin);
            continue;
        }
        float *restrict db = row_bins(dst, dr);
        for (uint32_t j = sr->lo_bin; j < sr->hi_bin; j++) {
            db[j] += sb[j];
            sb[j] = 0;
        }
        touch(dr, sr->lo_bin, sr->hi_bin);
    }
    src->bins_zero = true;
    return true;
}

bool prev_add_bins(slog_prev_acc *dst, uint32_t timeline, uint32_t category, const float *src, uint32_t lo, uint32_t hi,
                   uint32_t up, uint64_t pos, bool is_state)
{
    if (hi <= lo) return true;
    slog_prev_row *dr = row_find(dst, timeline, category);
    if (!dr) return false;
    /* A state bin of the source covers 1/2^up of a destination bin. */
    float scale = is_state ? ldexpf(1.0f, -(int)up) : 1.0f;
    uint64_t first = (pos + lo) >> up, last = (pos + hi - 1) >> up;
    if (dst->chunked) {
        uint32_t di = (uint32_t)(dr - dst->rows), cur = UINT32_MAX;
        float *base = NULL;
        for (uint32_t j = lo; j < hi; j++) {
            if (src[j] == 0.0f) continue; /* adds nothing; no chunk made for it */
            float *p = cbin_near(dst, di, (uint32_t)((pos + j) >> up), &base, &cur);
            if (!p) return false;
            if (!up)
                *p += src[j];
            else
                *p += src[j] * scale;
        }
        touch(dr, (uint32_t)first, (uint32_t)last + 1);
        return true;
    }
    float *db = row_bins(dst, dr);
    if (!up) {
        for (uint32_t j = lo; j < hi; j++) db[pos + j] += src[j];
    } else {
        for (uint32_t j = lo; j < hi; j++) db[(pos + j) >> up] += src[j] * scale;
    }
    touch(dr, (uint32_t)first, (uint32_t)last + 1);
    return true;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

/* Quantised value of bin j of a row: 0..255 for states, counts otherwise. */
static uint64_t quantise(double v, bool is_state)
{
    if (v <= 0) return 0;
    if (is_state) return v >= 1.0 ? 255 : (uint64_t)(v * 255.0 + 0.5);
    return (uint64_t)(v + 0.5);
}

/* quantise(v, true) for n bins, in a loop GCC vectorises: the clamp to
 * [0, 1] is done on the bits as int32 (ordered as the floats are when not
 * negative; a negative float is a negative int32 and becomes 0). A float
 * compare there was compiled to branches, and the bytes of a node with
 * thousands of rows (1,024 ranks) were a twentieth of the build. Same
 * bytes as quantise() for every float but a NaN with its sign bit set,
 * which no sum of coverages makes. */
_Static_assert(sizeof(float) == sizeof(int32_t), "coverage_bytes() reads floats as int32");

static void coverage_bytes(uint8_t *restrict out, const float *restrict bins, uint32_t n)
{
    const int32_t one = 0x3f800000; /* 1.0f */
    for (uint32_t j = 0; j < n; j++) {
        int32_t b;
        memcpy(&b, &bins[j], sizeof b);
        b = b > 0 ? b : 0;
        b = b < one ? b : one;
        float c;
        memcpy(&c, &b, sizeof c);
        out[j] = (uint8_t)(int32_t)((double)c * 255.0 + 0.5);
    }
}

uint64_t prev_estimate(const slog_prev_acc *a)
{
    uint64_t bytes = 8;
    for (uint32_t i = 0; i < a->n_rows; i++)
        if (a->rows[i].hi_bin > a->rows[i].lo_bin) bytes += 4 + a->rows[i].hi_bin - a->rows[i].lo_bin;
    return bytes;
}

/* Row indexes in (timeline, category) order into order[]: the file must
 * not depend on the order rows were first touched. Where the direct table
 * is small next to the rows, walking it yields that order with no sort
 * (qsort was a tenth of the writer's time on 16 ranks); otherwise, or if
 * a row lies outside it, sort (key, row) pairs. Keys are unique. */
static bool rows_in_order(const slog_prev_acc *a, uint32_t *order)
{
    uint64_t cells = (uint64_t)a->dir_tl * a->dir_cat;
    if (a->direct && cells <= 16ull * a->n_rows + 1024) {
        uint32_t k = 0;
        for (uint64_t i = 0; i < cells && k < a->n_rows; i++)
            if (a->direct[i]) order[k++] = a->direct[i] - 1;
        if (k == a->n_rows) return true;
    }
    uint64_t *keys = malloc((size_t)(a->n_rows ? a->n_rows : 1) * 2 * sizeof *keys);
    if (!keys) return false;
    for (uint32_t i = 0; i < a->n_rows; i++) {
        keys[2 * i] = ((uint64_t)a->rows[i].timeline << 32) | a->rows[i].category;
        keys[2 * i + 1] = i;
    }
    qsort(keys, a->n_rows, 2 * sizeof *keys, cmp_u64);
    for (uint32_t i = 0; i < a->n_rows; i++) order[i] = (uint32_t)keys[2 * i + 1];
    free(keys);
    return true;
}

/* A state sum (the overview's rows: fractions summed over a group of
 * timelines) in units of 1/255. */
static uint64_t quantise_sum(double v)
{
    return v <= 0 ? 0 : (uint64_t)(v * 255.0 + 0.5);
}

uint32_t prev_encode(const slog_prev_acc *a, const bool *cat_is_state, bool state_sums, slog_buf *out)
{
    uint32_t *order = malloc((size_t)(a->n_rows ? a->n_rows : 1) * sizeof *order);
    float *tmp = a->chunked ? malloc((size_t)a->n_bins * sizeof *tmp) : NULL;
    if (!order || (a->chunked && !tmp) || !rows_in_order(a, order)) {
        free(order);
        free(tmp);
        out->failed = true;
        return 0;
    }
    buf_put_u32(out, a->n_bins);
    size_t count_at = out->len;
    buf_put_u32(out, 0);
    uint32_t written = 0;
    for (uint32_t k = 0; k < a->n_rows; k++) {
        uint32_t ri = order[k];
        const slog_prev_row *r = &a->rows[ri];
        const float *bins = tmp; /* a chunked accumulator has no pool */
        if (a->chunked)
            row_values(a, ri, tmp, r->lo_bin, r->hi_bin);
        else
            bins = a->pool + (size_t)ri * a->n_bins;
        bool st = cat_is_state[r->category];
        bool sum = st && state_sums;
        uint32_t lo = r->lo_bin, hi = r->hi_bin;
        while (lo < hi && (sum ? quantise_sum(bins[lo]) : quantise(bins[lo], st)) == 0) lo++;
        while (hi > lo && (sum ? quantise_sum(bins[hi - 1]) : quantise(bins[hi - 1], st)) == 0) hi--;
        if (lo >= hi) continue;
        if (!buf_reserve(out, 40 + (size_t)(hi - lo) * 10)) break;
        uint8_t *p = out->data + out->len;
        p = put_uvar(p, r->timeline);
        p = put_uvar(p, r->category);
        p = put_uvar(p, lo);
        p = put_uvar(p, hi - lo);
        if (sum) {
            for (uint32_t j = lo; j < hi; j++) p = put_uvar(p, quantise_sum(bins[j]));
        } else if (st) {
            coverage_bytes(p, bins + lo, hi - lo);
            p += hi - lo;
        } else {
            for (uint32_t j = lo; j < hi; j++) p = put_uvar(p, quantise(bins[j], false));
        }
        out->len = (size_t)(p - out->data);
        written++;
    }
    if (!out->failed) put_u32le(out->data + count_at, written);
    free(order);
    free(tmp);
    return written;
}
