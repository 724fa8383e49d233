/* SPDX-License-Identifier: MIT */
/* fold.c - see fold.h. */
#include "fold.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raster.h"

#define THEME (*sv_theme_current())

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The window, columns and timelines of a fold. The grid takes whole
 * nanoseconds; the window is widened to them so its columns cover what the
 * viewport shows. */
static void fold_set_window(sv_fold *f, double t0, double t1, int width, uint32_t first, uint32_t last)
{
    if (width < 1) width = 1;
    int64_t a = (int64_t)floor(t0), b = (int64_t)ceil(t1);
    if (b <= a) b = a + 1;
    f->t0 = (double)a;
    f->t1 = (double)b;
    f->width = width;
    f->pixel_ns = (f->t1 - f->t0) / width;
    f->tl_first = first;
    f->tl_last = last;
}

const float *sv_fold_values(const sv_fold *f, uint32_t row, uint32_t category);

/* The runs of every row (fold.h). Whether two columns differ is asked of a
 * category at a time over the whole row: a loop without branches, which
 * the compiler vectorises, over every value of the fold. */
static int fold_index(sv_fold *f)
{
    uint32_t w = (uint32_t)f->width, nk = f->n_categories;
    size_t cap_r = 256, cap_s = 256, n_r = 0, n_s = 0;
    const float **vv = malloc(sizeof *vv * ((size_t)nk + 1));
    uint32_t *cat = malloc(sizeof *cat * ((size_t)nk + 1));
    uint8_t *chg = malloc((size_t)w + 1);
    f->run_first = malloc(sizeof *f->run_first * ((size_t)f->n_rows + 1));
    f->runs = malloc(sizeof *f->runs * cap_r);
    f->shares = malloc(sizeof *f->shares * cap_s);
    int rc = -1;
    if (!vv || !cat || !chg || !f->run_first || !f->runs || !f->shares) goto out;
    for (uint32_t row = 0; row < f->n_rows; row++) {
        f->run_first[row] = (uint32_t)n_r;
        uint32_t n = 0;
        for (uint32_t k = 0; k < nk; k++) {
            if (f->cat_kind[k] != SLOG_KIND_STATE) continue;
            const float *v = sv_fold_values(f, row, k);
            if (!v) continue;
            vv[n] = v;
            cat[n++] = k;
        }
        if (!n) continue;
        memset(chg, 0, w);
        chg[0] = 1;
        for (uint32_t q = 0; q < n; q++) {
            const float *v = vv[q];
            for (uint32_t c = 1; c < w; c++) chg[c] |= v[c] != v[c - 1];
        }
        for (uint32_t c = 0; c < w;) {
            uint32_t c1 = c + 1;
            while (c1 < w && !chg[c1]) c1++;
            uint32_t m = 0;
            for (uint32_t q = 0; q < n; q++) m += vv[q][c] > 0;
            if (m) {
                if (n_r == cap_r || n_s + m > cap_s) {
                    size_t nr = n_r == cap_r ? cap_r * 2 : cap_r, ns = cap_s;
                    while (n_s + m > ns) ns *= 2;
                    sv_fold_run *pr = realloc(f->runs, sizeof *pr * nr);
                    if (pr) f->runs = pr;
                    sv_fold_share *ps = pr ? realloc(f->shares, sizeof *ps * ns) : NULL;
                    if (ps) f->shares = ps;
                    if (!pr || !ps || nr > UINT32_MAX || ns > UINT32_MAX) goto out;
                    cap_r = nr;
                    cap_s = ns;
                }
                f->runs[n_r++] = (sv_fold_run){c, c1, (uint32_t)n_s, m};
                for (uint32_t q = 0; q < n; q++)
                    if (vv[q][c] > 0) f->shares[n_s++] = (sv_fold_share){cat[q], vv[q][c]};
            }
            c = c1;
        }
    }
    f->run_first[f->n_rows] = (uint32_t)n_r;
    rc = 0;
out:
    free(vv);
    free(cat);
    free(chg);
    return rc;
}

int sv_fold_serves(const sv_fold *f, const slog_file_info *fi, double t0, double t1, int width, uint32_t first,
                   uint32_t last, uint32_t max_rows)
{
    if (!f) return 0;
    if (width < 1) width = 1;
    if (width > 65536) width = 65536;
    if (max_rows < 1) max_rows = 1;
    if (max_rows > 65536) max_rows = 65536;
    double a = floor(t0), b = ceil(t1);
    if (b <= a) b = a + 1;
    if (f->t0 != a || f->t1 != b || f->width != width || f->tl_first != first || f->tl_last != last) return 0;
    if (f->max_rows == max_rows) return 1;
    /* Rows of whole overview groups: the grid is the same while the rows
     * asked for still let the overview answer (at least half as many
     * groups as rows) and give as many groups per row. */
    if (!f->grid || f->unit <= 1 || !fi->n_timelines || first >= fi->n_timelines) return 0;
    uint64_t end = (uint64_t)(last < fi->n_timelines ? last : fi->n_timelines - 1) + 1;
    uint64_t units = (end - first + f->unit - 1) / f->unit;
    if (2 * units < max_rows) return 0;
    return (units + f->max_rows - 1) / f->max_rows == (units + max_rows - 1) / max_rows;
}

/* A fold that ran out of memory: NULL, with err saying so (may be NULL). */
static sv_fold *fold_nomem(slog_reader *r, slog_error *err)
{
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = SLOG_ERR_NOMEM;
        err->offset = SLOG_NO_OFFSET;
        snprintf(err->message, sizeof err->message, "%s: out of memory folding rows", slog_reader_path(r));
    }
    return NULL;
}

sv_fold *sv_fold_query(slog_reader *r, double t0, double t1, int width, uint32_t first, uint32_t last,
                       uint32_t max_rows, slog_error *err)
{
    double start = now_ms();
    const slog_file_info *fi = slog_reader_info(r);
    sv_fold *f = calloc(1, sizeof *f);
    if (!f) goto nomem;
    if (max_rows < 1) max_rows = 1;
    if (max_rows > 65536) max_rows = 65536;
    fold_set_window(f, t0, t1, width, first, last);
    f->max_rows = max_rows;
    f->n_categories = fi->n_categories;
    f->cat_kind = calloc(fi->n_categories + 1, 1);
    if (!f->cat_kind) goto nomem;
    for (uint32_t k = 0; k < fi->n_categories; k++) {
        const slog_category *c = slog_reader_category(r, k);
        f->cat_kind[k] = c ? (uint8_t)c->kind : SLOG_KIND_STATE;
    }
    slog_grid_query q = {.t0 = (int64_t)f->t0,
                         .t1 = (int64_t)f->t1,
                         .tl_first = first,
                         .tl_last = last,
                         .n_cols = (uint32_t)(f->width > 65536 ? 65536 : f->width),
                         .n_rows = max_rows};
    if (slog_reader_grid(r, &q, &f->grid, &f->stats, err) != SLOG_OK) {
        sv_fold_free(f);
        return NULL;
    }
    f->width = (int)slog_grid_n_cols(f->grid);
    f->n_rows = slog_grid_n_rows(f->grid);
    f->unit = slog_grid_unit(f->grid);
    f->row_first = malloc(sizeof *f->row_first * ((size_t)f->n_rows + 1));
    if (!f->row_first) goto nomem;
    for (uint32_t i = 0; i < f->n_rows; i++) {
        uint32_t lo, hi;
        slog_grid_row_range(f->grid, i, &lo, &hi);
        f->row_first[i] = lo;
        f->row_first[i + 1] = hi + 1;
    }
    if (f->n_rows == 0) f->row_first[0] = first;
    if (fold_index(f) != 0) goto nomem;
    f->query_ms = now_ms() - start;
    return f;
nomem:
    sv_fold_free(f);
    return fold_nomem(r, err);
}

/* ------------------------------------------------------ folds of a list */

typedef struct list_ctx {
    sv_fold *f;
    const int32_t *row_of; /* per timeline: its row, -1 */
    double col_ns;
    uint32_t n_pool, cap_pool;
    int failed;
} list_ctx;

static float *list_cols(list_ctx *x, uint32_t tl, uint32_t cat)
{
    sv_fold *f = x->f;
    if (cat >= f->n_categories || x->row_of[tl] < 0) return NULL;
    uint32_t *k = &f->own_slot[(size_t)x->row_of[tl] * f->n_categories + cat];
    if (!*k) {
        if (x->n_pool == x->cap_pool) {
            uint32_t cap = x->cap_pool ? x->cap_pool * 2 : 64;
            float *p = realloc(f->own, (size_t)cap * f->width * sizeof *p);
            if (!p) {
                x->failed = 1;
                return NULL;
            }
            f->own = p;
            x->cap_pool = cap;
        }
        memset(f->own + (size_t)x->n_pool * f->width, 0, (size_t)f->width * sizeof *f->own);
        *k = ++x->n_pool;
    }
    return f->own + (size_t)(*k - 1) * f->width;
}

static slog_cb_result list_preview(void *user, const slog_preview *p)
{
    list_ctx *x = user;
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const slog_preview_row *row = &p->rows[i];
        if (row->timeline >= x->f->n_tl_file) continue;
        float *v = list_cols(x, row->timeline, row->category);
        if (v)
            slog_spread_bins(v, (uint32_t)x->f->width, x->f->t0, x->col_ns, p->lo, p->hi, p->n_bins, row->values,
                             x->f->cat_kind[row->category] == SLOG_KIND_STATE);
    }
    return SLOG_CONTINUE;
}

static slog_cb_result list_drawable(void *user, const slog_drawable *d)
{
    list_ctx *x = user;
    if (d->timeline >= x->f->n_tl_file) return SLOG_CONTINUE;
    float *v = list_cols(x, d->timeline, d->category);
    if (!v) return SLOG_CONTINUE;
    if (d->kind == SLOG_KIND_STATE) {
        slog_spread(v, (uint32_t)x->f->width, x->f->t0, x->col_ns, (double)d->start, (double)d->end, 1.0 / x->col_ns);
    } else {
        double c = ((double)d->start - x->f->t0) / x->col_ns;
        if (c >= 0 && c < x->f->width) v[(uint32_t)c] += 1.0f;
    }
    return SLOG_CONTINUE;
}

sv_fold *sv_fold_query_list(slog_reader *r, double t0, double t1, int width, const uint32_t *list, uint32_t n,
                            uint32_t first, uint32_t last, uint32_t max_rows, slog_error *err)
{
    double start = now_ms();
    const slog_file_info *fi = slog_reader_info(r);
    uint32_t nt = fi->n_timelines;
    sv_fold *f = calloc(1, sizeof *f);
    int32_t *row_of = NULL;
    uint8_t *mask = NULL;
    if (!f) goto nomem;
    if (!n || first > last || first >= n) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = SLOG_ERR_ARG;
            err->offset = SLOG_NO_OFFSET;
            snprintf(err->message, sizeof err->message, "%s: no timelines to fold", slog_reader_path(r));
        }
        free(f);
        return NULL;
    }
    if (last >= n) last = n - 1;
    if (width > 65536) width = 65536;
    if (max_rows < 1) max_rows = 1;
    if (max_rows > 65536) max_rows = 65536;
    fold_set_window(f, t0, t1, width, first, last);
    f->max_rows = max_rows;
    f->unit = 1;
    f->n_tl_file = nt;
    f->n_categories = fi->n_categories;
    uint32_t count = last - first + 1;
    uint32_t per_row = (count + max_rows - 1) / max_rows;
    f->n_rows = (count + per_row - 1) / per_row;
    f->cat_kind = calloc(fi->n_categories + 1, 1);
    f->row_first = malloc(sizeof *f->row_first * ((size_t)f->n_rows + 1));
    f->list_tl = malloc(sizeof *f->list_tl * (size_t)count);
    f->own_slot = calloc((size_t)f->n_rows * f->n_categories + 1, sizeof *f->own_slot);
    row_of = malloc(sizeof *row_of * ((size_t)nt + 1));
    mask = calloc((size_t)nt + 1, 1);
    if (!f->cat_kind || !f->row_first || !f->list_tl || !f->own_slot || !row_of || !mask) goto nomem;
    for (uint32_t k = 0; k < fi->n_categories; k++) {
        const slog_category *c = slog_reader_category(r, k);
        f->cat_kind[k] = c ? (uint8_t)c->kind : SLOG_KIND_STATE;
    }
    for (uint32_t i = 0; i <= f->n_rows; i++) {
        uint64_t p = first + (uint64_t)i * per_row;
        f->row_first[i] = (uint32_t)(p > (uint64_t)last + 1 ? (uint64_t)last + 1 : p);
    }
    for (uint32_t t = 0; t < nt; t++) row_of[t] = -1;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t tl = list[first + i];
        f->list_tl[i] = tl;
        if (tl < nt && row_of[tl] < 0) {
            row_of[tl] = (int32_t)(i / per_row);
            mask[tl] = 1;
        }
    }
    list_ctx x = {.f = f, .row_of = row_of, .col_ns = f->pixel_ns};
    int64_t px = (int64_t)floor(f->pixel_ns);
    slog_query q = {.t0 = (int64_t)f->t0,
                    .t1 = (int64_t)f->t1,
                    .timelines = mask,
                    .pixel_ns = px > 0 ? px : 1,
                    .flags = SLOG_QUERY_NARROW_NO_INFO};
    if (slog_reader_query(r, &q, list_drawable, list_preview, &x, &f->stats, err) != SLOG_OK) {
        free(row_of);
        free(mask);
        sv_fold_free(f);
        return NULL;
    }
    if (x.failed) goto nomem;
    /* sums over a row's timelines become means, as the grid's */
    for (uint32_t row = 0; row < f->n_rows; row++) {
        float inv = 1.0f / (float)(f->row_first[row + 1] - f->row_first[row]);
        for (uint32_t k = 0; k < f->n_categories; k++) {
            uint32_t sl = f->own_slot[(size_t)row * f->n_categories + k];
            if (!sl || f->cat_kind[k] != SLOG_KIND_STATE) continue;
            float *v = f->own + (size_t)(sl - 1) * f->width;
            for (int j = 0; j < f->width; j++) {
                float m = v[j] * inv;
                v[j] = m < 1 ? m : 1;
            }
        }
    }
    free(row_of);
    row_of = NULL;
    free(mask);
    mask = NULL;
    if (fold_index(f) != 0) goto nomem;
    f->query_ms = now_ms() - start;
    return f;
nomem:
    free(row_of);
    free(mask);
    sv_fold_free(f);
    return fold_nomem(r, err);
}

void sv_fold_rows_label(const sv_fold *f, uint32_t i, uint32_t j, const uint64_t *keys, const char *const *labels,
                        char *buf, size_t size)
{
    uint32_t a = f->row_first[i], b = f->row_first[j + 1] - 1;
    if (!f->list_tl) {
        sv_fold_range_label(a, b, keys, labels, buf, size);
        return;
    }
    char one[96];
    sv_fold_range_label(f->list_tl[a - f->tl_first], f->list_tl[a - f->tl_first], keys, labels, one, sizeof one);
    if (a == b)
        snprintf(buf, size, "%s", one);
    else
        snprintf(buf, size, "%s +%u", one, b - a);
}

void sv_fold_free(sv_fold *f)
{
    if (!f) return;
    free(f->list_tl);
    free(f->own);
    free(f->own_slot);
    slog_grid_free(f->grid);
    free(f->run_first);
    free(f->runs);
    free(f->shares);
    free(f->row_first);
    free(f->cat_kind);
    free(f);
}

const float *sv_fold_values(const sv_fold *f, uint32_t row, uint32_t category)
{
    if (row >= f->n_rows || category >= f->n_categories) return NULL;
    if (!f->grid) {
        uint32_t k = f->own_slot ? f->own_slot[(size_t)row * f->n_categories + category] : 0;
        return k ? f->own + (size_t)(k - 1) * f->width : NULL;
    }
    return slog_grid_values(f->grid, row, category);
}

long sv_fold_row_of(const sv_fold *f, uint32_t tl)
{
    if (!f->n_rows || tl < f->row_first[0] || tl >= f->row_first[f->n_rows]) return -1;
    uint32_t lo = 0, hi = f->n_rows; /* row_first[lo] <= tl < row_first[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (f->row_first[mid] <= tl)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

long sv_fold_col_of(const sv_fold *f, double t)
{
    double c = floor((t - f->t0) / f->pixel_ns);
    return c >= 0 && c < f->width ? (long)c : -1;
}

int sv_fold_snap(const slog_file_info *fi, uint32_t *first, uint32_t *last, uint32_t *rows)
{
    uint32_t gt = fi->group_timelines, nt = fi->n_timelines;
    if (gt <= 1 || !nt || *first > *last || *first >= nt) return 0;
    uint32_t b = *last < nt ? *last : nt - 1;
    double per_tl = (double)fi->n_drawables / nt;
    if (((double)b - *first + 1) * per_tl <= SV_FOLD_DIRECT_DRAWABLES) return 0;
    uint32_t a = *first - *first % gt;
    uint64_t e = ((uint64_t)b / gt + 1) * gt; /* end of b's group */
    b = e >= nt ? nt - 1 : (uint32_t)e - 1;
    uint32_t units = (uint32_t)(((uint64_t)b - a + gt) / gt);
    uint32_t r = *rows < units ? *rows : units;
    *first = a;
    *last = b;
    *rows = r;
    return 1;
}

void sv_fold_want(const slog_file_info *fi, const sv_rank_axis *ax, double height, double t0, double t1, int width,
                  uint32_t *first, uint32_t *last, uint32_t *rows)
{
    uint32_t nt = fi->n_timelines;
    sv_rank_axis_visible(ax, first, last);
    if (nt && *last >= nt) *last = nt - 1;
    *rows = height < 1 ? 1 : (uint32_t)height;
    if (!sv_fold_snap(fi, first, last, rows)) return;
    /* A group a row of every timeline, which the overview answers (its
     * lowest level's bins at most four columns wide, as slog_reader_grid
     * asks) at a cost that does not depend on the range, and whose rows
     * are few enough to keep: whether the rank axis is zoomed or shows
     * every timeline, so going back to all of them keeps the fold too
     * (bands of less than a pixel mix their colours). */
    uint32_t gt = fi->group_timelines;
    uint32_t units = (uint32_t)(((uint64_t)nt + gt - 1) / gt);
    double col_ns = (t1 - t0) / (width > 0 ? width : 1);
    double bin = fi->overview_depth && fi->depth >= fi->overview_depth
                     ? ldexp(1.0, fi->leaf_shift + (int)(fi->depth - fi->overview_depth)) / fi->preview_bins
                     : HUGE_VAL;
    if (bin > 4 * col_ns || units > 4 * (double)(height < 1 ? 1 : height) || units > 65536) return;
    *first = 0;
    *last = nt - 1;
    *rows = units;
}

uint32_t sv_fold_rows_for(uint32_t first, uint32_t last, double height, uint32_t rows_opt)
{
    double n = (double)last - first + 1;
    if (rows_opt > 0) return rows_opt;
    if (n * SV_FOLD_MIN_ROW_H <= height) return 0;
    double rows = floor(height);
    return rows < 1 ? 1 : (uint32_t)rows;
}

void sv_fold_band(const sv_fold *f, const sv_rank_axis *ax, uint32_t row, double *y0, double *y1)
{
    *y0 = sv_rank_axis_to_y(ax, f->row_first[row]);
    *y1 = sv_rank_axis_to_y(ax, f->row_first[row + 1]);
}

long sv_fold_row_at(const sv_fold *f, const sv_rank_axis *ax, double y)
{
    double r = sv_rank_axis_y_to_rank(ax, y);
    if (!(r >= 0) || r >= 4294967295.0) return -1;
    return sv_fold_row_of(f, (uint32_t)r);
}

uint32_t sv_fold_shares(const sv_fold *f, uint32_t row, long col, float *shares)
{
    if (row >= f->n_rows || col < 0 || col >= f->width) return 0;
    for (uint32_t k = 0; k < f->n_categories; k++) {
        const float *v = sv_fold_values(f, row, k);
        shares[k] = v ? v[col] : 0;
    }
    return f->row_first[row + 1] - f->row_first[row];
}

/* ------------------------------------------------------------ drawing */

/* One premultiplied colour as floats 0..1. */
typedef struct rgbf {
    float r, g, b;
} rgbf;

static rgbf rgbf_of_theme(const double *c)
{
    return (rgbf){(float)c[0], (float)c[1], (float)c[2]};
}

/* A state's colour as the histograms draw it: 90 % of the category's
 * colour over the (near white) row. */
static rgbf rgbf_of_state(uint32_t rgba)
{
    double a = (rgba & 255) / 255.0;
    return (rgbf){(float)((((rgba >> 24) & 255) / 255.0 * a) * 0.9 + 0.1),
                  (float)((((rgba >> 16) & 255) / 255.0 * a) * 0.9 + 0.1),
                  (float)((((rgba >> 8) & 255) / 255.0 * a) * 0.9 + 0.1)};
}

/* Accumulated coverage of pixel rows: premultiplied colour and how much of
 * the pixel is covered. */
typedef struct accum {
    float r, g, b, a;
} accum;

static uint32_t pack(float r, float g, float b)
{
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    g = g < 0 ? 0 : g > 1 ? 1 : g;
    b = b < 0 ? 0 : b > 1 ? 1 : b;
    return 0xff000000u | (uint32_t)(r * 255 + 0.5f) << 16 | (uint32_t)(g * 255 + 0.5f) << 8 |
           (uint32_t)(b * 255 + 0.5f);
}

/* A band on the canvas: where it and its stack stand. */
typedef struct band {
    double y0, y1, hh; /* top, bottom, height of the stack */
} band;

static void fill_px(uint32_t *px, int x0, int x1, uint32_t c)
{
    for (int x = x0; x < x1; x++) px[x] = c;
}

/* Each band's stack is drawn with exact vertical coverage: a band of one
 * pixel mixes its categories' colours in proportion to their shares, a
 * tall one shows crisp stacks. A pixel row is made of the runs (fold.h) of
 * the bands that overlap it, split where any of them starts or ends: each
 * piece is one colour, worked out once and filled. Working it out per
 * pixel (a column's categories, then the pixel's colour) was most of a
 * folded frame. The colour of a piece is computed as it was per pixel,
 * band after band and category after category, so the picture is the
 * same. */
int sv_fold_draw_bands(uint32_t *pxs, int stride, int W, int H, const sv_fold_params *p)
{
    const sv_fold *f = p->fold;
    const sv_palette *pal = p->pal;
    if (!f || W < 1 || H < 1) return -1;
    int rc = -1;
    long *colmap = malloc(sizeof *colmap * (size_t)W);
    int *xfirst = malloc(sizeof *xfirst * ((size_t)f->width + 1));
    band *bands = malloc(sizeof *bands * ((size_t)f->n_rows + 1));
    uint32_t *act = malloc(sizeof *act * ((size_t)f->n_rows + 1));
    uint32_t *cur = malloc(sizeof *cur * ((size_t)f->n_rows + 1));
    uint8_t *on = malloc((size_t)f->n_rows + 1);
    rgbf *cc = malloc(sizeof *cc * ((size_t)f->n_categories + 1));
    uint8_t *shown = calloc((size_t)f->n_categories + 1, 1);
    if (!colmap || !xfirst || !bands || !act || !cur || !on || !cc || !shown) goto out;
    rc = 0;
    rgbf bg = rgbf_of_theme(THEME.bg), alt = rgbf_of_theme(THEME.alt_bg);
    uint32_t bg_px = pack(bg.r, bg.g, bg.b), alt_px = pack(alt.r, alt.g, alt.b);
    for (uint32_t k = 0; k < f->n_categories && k < pal->n; k++) {
        shown[k] = f->cat_kind[k] == SLOG_KIND_STATE && pal->visible[k];
        if (shown[k]) cc[k] = rgbf_of_state(pal->rgba[k]);
    }
    /* canvas pixel x shows the fold's column under its centre: the frame
     * stays right while the next one is folded for a moved window. The
     * columns grow with x, so column c is shown on [xfirst[c],
     * xfirst[c + 1]). */
    for (int x = 0; x < W; x++) colmap[x] = sv_fold_col_of(f, sv_viewport_x_to_time(p->vp, x + 0.5));
    {
        int xa = 0, xb = W;
        while (xa < W && colmap[xa] < 0) xa++;
        while (xb > xa && colmap[xb - 1] < 0) xb--;
        long c = 0;
        for (int x = xa; x < xb; x++)
            while (c <= colmap[x]) xfirst[c++] = x;
        while (c <= f->width) xfirst[c++] = xb;
    }
    /* bands on the canvas, in order of y: [band_lo, band_hi) */
    uint32_t band_lo = f->n_rows, band_hi = 0;
    for (uint32_t row = 0; row < f->n_rows; row++) {
        double y0, y1;
        sv_fold_band(f, p->ax, row, &y0, &y1);
        band *bd = &bands[row];
        /* a band's stack leaves a pixel of the row free at its top when it
         * is tall, so stacked bands stay apart */
        double top = y1 - y0 >= 6 ? y0 + 1 : y0;
        bd->y0 = y0;
        bd->y1 = y1;
        bd->hh = y1 - top;
        if (y1 <= 0 || y0 >= H) continue;
        if (row < band_lo) band_lo = row;
        band_hi = row + 1;
    }
    const sv_fold_run *runs = f->runs;
    const sv_fold_share *shares = f->shares;
    uint32_t next = band_lo; /* first band not wholly above the pixel row */
    for (int y = 0; y < H; y++) {
        uint32_t *px = pxs + (size_t)y * stride;
        rgbf b = bg;
        uint32_t b_px = bg_px, n_act = 0;
        while (next < band_hi && bands[next].y1 <= y) next++;
        for (uint32_t row = next; row < band_hi; row++) {
            const band *bd = &bands[row];
            if (bd->y0 >= y + 1) break;
            /* bands tall enough to tell apart alternate their background,
             * as timeline rows do */
            if (bd->y1 - bd->y0 >= 4 && row % 2 && ceil(bd->y0) <= y) {
                b = alt;
                b_px = alt_px;
            }
            if (f->run_first[row] == f->run_first[row + 1]) continue;
            act[n_act] = row;
            cur[n_act++] = f->run_first[row];
        }
        if (!n_act) {
            fill_px(px, 0, W, b_px);
            continue;
        }
        for (int x = 0; x < W;) {
            /* the piece [x, nx): runs of the bands marked on */
            int nx = W, any = 0;
            for (uint32_t i = 0; i < n_act; i++) {
                uint32_t end = f->run_first[act[i] + 1];
                while (cur[i] < end && xfirst[runs[cur[i]].c1] <= x) cur[i]++;
                on[i] = 0;
                if (cur[i] == end) continue;
                int s = xfirst[runs[cur[i]].c0], t = xfirst[runs[cur[i]].c1];
                if (s <= x) {
                    on[i] = 1;
                    any = 1;
                    if (t < nx) nx = t;
                } else if (s < nx) {
                    nx = s;
                }
            }
            if (!any) {
                fill_px(px, x, nx, b_px);
                x = nx;
                continue;
            }
            accum a = {0, 0, 0, 0};
            for (uint32_t i = 0; i < n_act; i++) {
                if (!on[i]) continue;
                const band *bd = &bands[act[i]];
                const sv_fold_run *run = &runs[cur[i]];
                double bot = bd->y1, hh = bd->hh;
                float base = 0;
                for (uint32_t e = run->first; e < run->first + run->n; e++) {
                    uint32_t k = shares[e].category;
                    float v = shares[e].value;
                    if (!shown[k]) continue;
                    float t = base + v > 1 ? 1 : base + v;
                    double s0 = bot - t * hh, s1 = bot - base * hh;
                    base = t;
                    double lo = s0 > y ? s0 : y, hi = s1 < y + 1 ? s1 : y + 1;
                    if (!(hi > lo)) continue;
                    float ov = (float)(hi - lo);
                    a.r += ov * cc[k].r;
                    a.g += ov * cc[k].g;
                    a.b += ov * cc[k].b;
                    a.a += ov;
                }
            }
            uint32_t c;
            if (a.a <= 0) {
                c = b_px;
            } else if (a.a >= 1) {
                float inv = 1 / a.a;
                c = pack(a.r * inv, a.g * inv, a.b * inv);
            } else {
                float rest = 1 - a.a;
                c = pack(a.r + rest * b.r, a.g + rest * b.g, a.b + rest * b.b);
            }
            fill_px(px, x, nx, c);
            x = nx;
        }
    }
    /* events: a tick along the top of bands tall enough to show one */
    sv_raster ras = {.px = pxs, .w = W, .h = H, .stride = stride};
    for (uint32_t row = band_lo; row < band_hi; row++) {
        double y0 = bands[row].y0, y1 = bands[row].y1;
        if (y1 <= 0 || y0 >= H || y1 - y0 < 8) continue;
        for (uint32_t k = 0; k < f->n_categories && k < pal->n; k++) {
            if (f->cat_kind[k] != SLOG_KIND_EVENT || !pal->visible[k]) continue;
            const float *v = sv_fold_values(f, row, k);
            if (!v) continue;
            uint32_t col = sv_premul(pal->rgba[k], 0.8, 1);
            int ty = (int)round(y0) + 1;
            for (int x = 0; x < W; x++)
                if (colmap[x] >= 0 && v[colmap[x]] > 0.01f) sv_raster_fill(&ras, x, x + 1, ty, ty + 2, col);
        }
    }
out:
    free(colmap);
    free(xfirst);
    free(bands);
    free(act);
    free(cur);
    free(on);
    free(cc);
    free(shown);
    return rc;
}

void sv_render_fold(cairo_t *cr, double w, double h, const sv_fold_params *p)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    /* the bands write every pixel: the background only where they cannot */
    sv_raster ras;
    int drawn = 0;
    if (p->fold && sv_raster_init_on(&ras, cr, w, h)) {
        sv_raster_direct(&ras);
        drawn = sv_fold_draw_bands(ras.px, ras.stride, ras.w, ras.h, p) == 0;
        sv_raster_cairo(&ras);
        if (drawn) sv_raster_paint(&ras, cr);
        sv_raster_free(&ras);
    }
    if (!drawn) {
        sv_theme_source(cr, THEME.bg, 1);
        cairo_paint(cr);
    }
    /* vertical grid at the ruler's major ticks, light enough to read the
     * shares through */
    sv_ticks tk;
    sv_ticks_choose(p->vp->t0, p->vp->t1, w, 90, &tk);
    sv_theme_source(cr, THEME.grid, 0.6);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < tk.n; i++) {
        double x = floor(sv_viewport_time_to_x(p->vp, tk.first + i * tk.step)) + 0.5;
        cairo_move_to(cr, x, 0);
        cairo_line_to(cr, x, h);
    }
    cairo_stroke(cr);
    if (p->fold && p->hover_row >= 0 && (uint32_t)p->hover_row < p->fold->n_rows) {
        double y0, y1;
        sv_fold_band(p->fold, p->ax, (uint32_t)p->hover_row, &y0, &y1);
        sv_theme_source(cr, THEME.accent, 0.9);
        cairo_set_line_width(cr, 1);
        double a = floor(y0) - 0.5, b = ceil(y1) + 0.5;
        cairo_move_to(cr, 0, a);
        cairo_line_to(cr, w, a);
        cairo_move_to(cr, 0, b);
        cairo_line_to(cr, w, b);
        cairo_stroke(cr);
    }
    if (p->have_range) sv_render_range(cr, w, h, p->vp, p->range_t0, p->range_t1);
    cairo_restore(cr);
}

void sv_fold_range_label(uint32_t a, uint32_t b, const uint64_t *keys, const char *const *labels, char *buf,
                         size_t size)
{
    if (a == b) {
        if (labels && labels[a] && labels[a][0])
            snprintf(buf, size, "%s", labels[a]);
        else
            snprintf(buf, size, "timeline %u", a);
        return;
    }
    /* ranks when the range is one timeline per rank, numbered as the
     * timelines are */
    if (keys && (keys[a] & 0xffffffffu) == 0 && (keys[b] & 0xffffffffu) == 0 &&
        (keys[b] >> 32) - (keys[a] >> 32) == (uint64_t)(b - a))
        snprintf(buf, size, "ranks %u\xe2\x80\x93%u", (unsigned)(keys[a] >> 32), (unsigned)(keys[b] >> 32));
    else
        snprintf(buf, size, "timelines %u\xe2\x80\x93%u", a, b);
}

uint32_t sv_fold_label_rows(const sv_fold *f, const sv_rank_axis *ax, uint32_t i, double min_h)
{
    double s0, s1, e0, e1;
    sv_fold_band(f, ax, i, &s0, &s1);
    uint32_t j = i;
    e1 = s1;
    while (j + 1 < f->n_rows && e1 - s0 < min_h) {
        j++;
        sv_fold_band(f, ax, j, &e0, &e1);
    }
    /* Rows left after j too few for a label of their own (the last group
     * of 100,000 ranks is 160 timelines where the others are 1,920) join
     * this one: their label, centred on them, was drawn over this one's. */
    if (j + 1 < f->n_rows) {
        double l0, l1;
        sv_fold_band(f, ax, f->n_rows - 1, &l0, &l1);
        if (l1 - e1 < min_h) j = f->n_rows - 1;
    }
    return j;
}

void sv_render_fold_labels(cairo_t *cr, double w, double h, const sv_fold *f, const sv_rank_axis *ax,
                           const uint64_t *keys, const char *const *labels, long hover_row)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    if (f && hover_row >= 0 && (uint32_t)hover_row < f->n_rows) {
        double y0, y1;
        sv_fold_band(f, ax, (uint32_t)hover_row, &y0, &y1);
        sv_theme_source(cr, THEME.accent, 0.18);
        cairo_rectangle(cr, 0, floor(y0), w, fmax(1, ceil(y1) - floor(y0)));
        cairo_fill(cr);
    }
    uint32_t i = 0;
    while (f && i < f->n_rows) {
        double s0, s1, e0, e1;
        sv_fold_band(f, ax, i, &s0, &s1);
        uint32_t j = sv_fold_label_rows(f, ax, i, SV_FOLD_LABEL_H);
        sv_fold_band(f, ax, j, &e0, &e1);
        if (e1 > 0 && s0 < h) {
            char buf[96];
            sv_fold_rows_label(f, i, j, keys, labels, buf, sizeof buf);
            double size = e1 - s0 >= 18 ? 8 : 7, text_h = size * 1.6;
            double ty = fmax(0, fmin(s0 + (e1 - s0 - text_h) / 2, h - text_h));
            if (ty + text_h > s0 - 2 || s0 < 0) {
                sv_theme_source(cr, THEME.text, 1);
                sv_draw_text_clipped(cr, buf, 6, ty, w - 18, 0, size);
            }
            /* a bracket along the rows the label names */
            sv_theme_source(cr, THEME.dim_text, 1);
            double a = floor(s0) + 1, b = fmax(a + 1, ceil(e1) - 1);
            cairo_rectangle(cr, w - 5, a, 1, b - a);
            cairo_rectangle(cr, w - 8, a, 3, 1);
            cairo_rectangle(cr, w - 8, b - 1, 3, 1);
            cairo_fill(cr);
        }
        if (s0 >= h) break;
        i = j + 1;
    }
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, w - 0.5, 0);
    cairo_line_to(cr, w - 0.5, h);
    cairo_stroke(cr);
    cairo_restore(cr);
}

sv_overview *sv_overview_from_fold(const sv_fold *f)
{
    sv_overview *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->width = f->width;
    o->t0 = f->t0;
    o->t1 = f->t1;
    o->n_categories = f->n_categories;
    o->bytes_read = f->stats.bytes_read;
    o->cols = calloc((size_t)f->n_categories * f->width + 1, sizeof(float));
    if (!o->cols) {
        free(o);
        return NULL;
    }
    /* rows of one fold of every timeline are means over the timelines,
     * what the strip shows; several rows (a fold asked for more) are
     * weighted by their timelines */
    double total = 0;
    for (uint32_t row = 0; row < f->n_rows; row++) total += f->row_first[row + 1] - f->row_first[row];
    for (uint32_t row = 0; row < f->n_rows; row++) {
        float wgt = (float)((f->row_first[row + 1] - f->row_first[row]) / (total > 0 ? total : 1));
        for (uint32_t k = 0; k < f->n_categories; k++) {
            const float *v = sv_fold_values(f, row, k);
            if (!v || f->cat_kind[k] != SLOG_KIND_STATE) continue;
            float *dst = o->cols + (size_t)k * f->width;
            for (int i = 0; i < f->width; i++) dst[i] += wgt * v[i];
        }
    }
    return o;
}

void sv_render_overview_ranks(cairo_t *cr, double w, double h, const sv_rank_axis *ax)
{
    double ext = ax->hi - ax->lo;
    if (!(ext > 0)) return;
    double y0 = (ax->r0 - ax->lo) / ext * h, y1 = (ax->r1 - ax->lo) / ext * h;
    if (y1 - y0 < 3) {
        double c = (y0 + y1) / 2;
        y0 = c - 1.5;
        y1 = c + 1.5;
    }
    cairo_save(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_rectangle(cr, w - 6, 0, 6, h);
    cairo_fill(cr);
    sv_theme_source(cr, THEME.accent, 1);
    cairo_rectangle(cr, w - 5, fmax(0, y0), 4, fmin(h, y1) - fmax(0, y0));
    cairo_fill(cr);
    cairo_restore(cr);
}
