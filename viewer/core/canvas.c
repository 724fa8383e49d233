/* SPDX-License-Identifier: MIT */
/* canvas.c - sv_render_canvas (render.h): the timeline rows. */
#include "render.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "aggregate.h"
#include "density.h"
#include "helper.h"
#include "raster.h"

#define THEME (*sv_theme_current())

static int same_item(const sv_item *a, const sv_item *b)
{
    return a && b && a->start == b->start && a->end == b->end && a->category == b->category &&
           a->timeline == b->timeline && a->kind == b->kind && a->end_timeline == b->end_timeline;
}

static void draw_rows_background(cairo_t *cr, double w, double h, const sv_canvas_params *p)
{
    const sv_layout *lay = p->lay;
    sv_theme_source(cr, THEME.bg, 1);
    cairo_paint(cr);
    size_t k = 0;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - p->scroll_y;
        if (r->timeline < 0) {
            k = 0;
            if (y + r->h < 0 || y > h) continue;
            sv_theme_source(cr, THEME.header_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
            continue;
        }
        k++;
        if (y + r->h < 0 || y > h) continue;
        if ((long)i == p->hover_row) {
            sv_theme_source(cr, THEME.accent, 0.07);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        } else if (k % 2 == 0) {
            sv_theme_source(cr, THEME.alt_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        }
    }
    /* vertical grid at the ruler's major ticks */
    sv_ticks tk;
    sv_ticks_choose(p->vp->t0, p->vp->t1, w, 90, &tk);
    sv_theme_source(cr, THEME.grid, 1);
    cairo_set_line_width(cr, 1);
    for (int i = 0; i < tk.n; i++) {
        double x = floor(sv_viewport_time_to_x(p->vp, tk.first + i * tk.step)) + 0.5;
        cairo_move_to(cr, x, 0);
        cairo_line_to(cr, x, fmin(h, lay->total_h - p->scroll_y));
    }
    cairo_stroke(cr);
}

/* States are drawn at 90 % of their colour over the (near white) row,
 * opaque so the fill is a plain store. */
static uint32_t histogram_colour(uint32_t rgba)
{
    uint32_t c = sv_premul(rgba, 1, 1), mixed = 0xff000000u;
    for (int sh = 0; sh < 24; sh += 8) mixed |= (uint32_t)lround(((c >> sh) & 255) * 0.9 + 25.5) << sh;
    return mixed;
}

/* Pixel row of the top of a stack reaching v (0..1): round half up;
 * lround() per column showed in profiles. */
static inline int stack_y(double bottom, double H, float v)
{
    return (int)floor(bottom - v * H + 0.5);
}

/* The state stack of one timeline row for any mapping of scene columns to
 * pixels (a frame drawn re-mapped while the next is queried may put
 * several columns on a pixel, or a column over several): column by column,
 * all categories of a column together, the pixels of one column being a
 * few cache lines the next columns reuse. */
static void stack_columns(sv_raster *ras, const int *xs, int i_lo, int i_hi, double bottom, double H, uint32_t n_st,
                          const float *const *st_cols, const uint32_t *st_c)
{
    for (int i = i_lo; i < i_hi; i++) {
        int x0 = xs[i], x1 = xs[i + 1];
        if (x1 <= x0) x1 = x0 + 1;
        if (x0 < 0) x0 = 0;
        if (x1 > ras->w) x1 = ras->w;
        if (x1 <= x0) continue;
        float bse = 0;
        for (uint32_t q = 0; q < n_st; q++) {
            float v = st_cols[q][i];
            if (v <= 0) continue;
            float top_v = bse + v > 1 ? 1 : bse + v;
            int y0 = stack_y(bottom, H, top_v), y1 = stack_y(bottom, H, bse);
            bse = top_v;
            if (y0 < 0) y0 = 0;
            if (y1 > ras->h) y1 = ras->h;
            uint32_t c = st_c[q];
            for (int y = y0; y < y1; y++) {
                uint32_t *px = ras->px + (size_t)y * ras->stride;
                for (int x = x0; x < x1; x++) px[x] = c;
            }
        }
    }
}

/* One category's span of a run of columns, from its top (clamped to the
 * raster) up to below: where the next category's span ends. */
static inline int fill_span(sv_raster *ras, int xa, int xb, int top, int below, uint32_t c)
{
    int above = top > 0 ? top : 0;
    if (above >= below) return below;
    for (int y = above; y < below; y++) {
        uint32_t *px = ras->px + (size_t)y * ras->stride;
        for (int x = xa; x < xb; x++) px[x] = c;
    }
    return above;
}

/* The same stack when scene column i_first + k is exactly pixel x_first + k
 * (the scene was queried for this viewport: the usual case). Category q of
 * column k spans rows [top(q, k), top(q-1, k)) with top(-1, k) = y_base.
 * The tops are worked out a category at a time over all columns (tops[q *
 * n + k], the running sums in bse), a loop without branches the compiler
 * vectorises: column by column, a branch on each category's value (most
 * are absent from a given column) mispredicted and floor() took its
 * steps. Neighbouring columns often stack alike (a state longer than a
 * column): a run of columns with the same tops (starts) is filled once, a
 * box per non-empty span. tops: n * n_st; bse: n; same: n; starts: n + 1; mask_buf
 * (a bit per category, used up to 32 categories): n. */
static void stack_rows(sv_raster *ras, int x_first, int i_first, int n, double bottom, double H, uint32_t n_st,
                       const float *const *st_cols, const uint32_t *st_c, int *tops, float *bse, uint8_t *same,
                       int *starts, uint32_t *mask_buf)
{
    uint32_t *mask = n_st <= 32 ? mask_buf : NULL;
    int y_base = stack_y(bottom, H, 0), n_runs = 0;
    /* Where every top is at least a pixel below y = 0 (the stack is at
     * most H high; only a row partly above the canvas is not) the cast
     * truncates as stack_y's floor() rounds. */
    int trunc = bottom + 0.5 - (H > 0 ? H : 0) >= 1;
    for (int k = 0; k < n; k++) bse[k] = 0, same[k] = k > 0;
    for (uint32_t q = 0; q < n_st; q++) {
        const float *col = st_cols[q] + i_first;
        int *t = tops + (size_t)q * n;
        if (trunc) {
            for (int k = 0; k < n; k++) {
                /* as `if (v > 0) bse = min(1, bse + v)`, as selects */
                float v = col[k], nb = bse[k] + v;
                nb = nb > 1 ? 1.0f : nb;
                float b = v > 0 ? nb : bse[k];
                bse[k] = b;
                t[k] = (int)(bottom - b * H + 0.5);
            }
        } else {
            for (int k = 0; k < n; k++) {
                float v = col[k], nb = bse[k] + v;
                nb = nb > 1 ? 1.0f : nb;
                float b = v > 0 ? nb : bse[k];
                bse[k] = b;
                t[k] = stack_y(bottom, H, b);
            }
        }
        for (int k = 1; k < n; k++) same[k] &= t[k] == t[k - 1];
        /* categories whose top moves in the column: the only spans that
         * can be non-empty (a top equal to the one below gives none) */
        if (mask && q == 0)
            for (int k = 0; k < n; k++) mask[k] = t[k] != y_base;
        else if (mask)
            for (int k = 0; k < n; k++) mask[k] |= (uint32_t)(t[k] != t[k - (ptrdiff_t)n]) << q;
    }
    for (int k = 0; k < n; k++)
        if (!same[k]) starts[n_runs++] = k;
    starts[n_runs] = n;
    int y_end = y_base < ras->h ? y_base : ras->h;
    for (int r = 0; r < n_runs; r++) {
        int k0 = starts[r], xa = x_first + k0, xb = x_first + starts[r + 1];
        /* tops do not rise with q: the spans go up the column */
        int below = y_end;
        if (mask) {
            /* the categories of mask only: a skipped one's span is empty,
             * its top being the one below it, so the spans are as those
             * of the loop over all */
            for (uint32_t m = mask[k0]; m && below > 0; m &= m - 1) {
                uint32_t q = (uint32_t)__builtin_ctz(m);
                below = fill_span(ras, xa, xb, tops[(size_t)q * n + k0], below, st_c[q]);
            }
            continue;
        }
        for (uint32_t q = 0; q < n_st && below > 0; q++)
            below = fill_span(ras, xa, xb, tops[(size_t)q * n + k0], below, st_c[q]);
    }
}

/* Timelines per unit of work on the rows (helper.h). */
#define ROWS_UNIT 4

/* Every row on the canvas at least 4 px high: then a row's pixels are its
 * own (the stack, the event ticks reaching 3 px below its top, the density
 * band and the state boxes stay inside it), and rows may be drawn in any
 * order. */
static int rows_apart(const sv_canvas_params *p, double h)
{
    const sv_scene *s = p->scene;
    for (uint32_t tl = 0; tl < s->n_timelines; tl++) {
        const sv_row *row = sv_layout_row_of(p->lay, tl);
        if (row && row->y - p->scroll_y + row->h >= 0 && row->y - p->scroll_y <= h && row->h < 4) return 0;
    }
    return 1;
}

/* What the rows' histograms and density band share in a frame, read-only
 * while the bands are drawn: the scene columns' pixel edges and the part of
 * them on the raster (hist: 0 when there are no preview columns), the
 * density's columns and colour (dens: NULL when it is not shown). */
typedef struct rows_frame {
    sv_raster *ras;
    double h;
    const sv_canvas_params *p;
    int hist;
    int *xs;
    int i_lo, i_hi, one_to_one, x_first, i_first, n;
    const sv_density *dens;
    double d_cx0, d_cdx;
    int d_lo, d_hi;
    uint32_t d_base;
} rows_frame;

/* Scratch of one thread drawing rows: the stack's tops and runs. */
typedef struct rows_band {
    const rows_frame *f;
    const float **st_cols;
    uint32_t *st_c;
    int *tops;
    float *bse;
    uint8_t *same;
    uint32_t *mask;
} rows_band;

static void band_free(rows_band *b)
{
    free(b->st_cols);
    free(b->st_c);
    free(b->tops);
    free(b->bse);
    free(b->same);
    free(b->mask);
}

static int band_alloc(rows_band *b, const rows_frame *f)
{
    const sv_scene *s = f->p->scene;
    size_t n_pal = f->p->pal->n;
    *b = (rows_band){.f = f};
    if (!f->hist) return 0;
    b->st_cols = malloc(sizeof *b->st_cols * (n_pal + 1));
    b->st_c = malloc(sizeof *b->st_c * (n_pal + 1));
    b->tops = malloc(sizeof(int) * ((size_t)s->width * (n_pal + 1) + 2));
    b->bse = malloc(sizeof(float) * ((size_t)s->width + 1));
    b->same = malloc((size_t)s->width + 1);
    b->mask = malloc(sizeof(uint32_t) * ((size_t)s->width + 1));
    if (b->st_cols && b->st_c && b->tops && b->bse && b->same && b->mask) return 0;
    band_free(b);
    return -1;
}

/* Preview columns of one timeline as a stacked histogram: category
 * fractions (states) stacked from the row bottom, legend order; counts
 * (events, arrows) as a tick along the row top (events) or bottom
 * (arrows), over the stack. */
static void draw_histogram_row(const rows_band *bd, uint32_t tl)
{
    const rows_frame *f = bd->f;
    const sv_canvas_params *p = f->p;
    const sv_scene *s = p->scene;
    sv_raster *ras = f->ras;
    const int *xs = f->xs;
    int i_lo = f->i_lo, i_hi = f->i_hi, x_first = f->x_first, i_first = f->i_first, n = f->n;
    size_t a = s->tl_first_slot[tl], b = s->tl_first_slot[tl + 1];
    const sv_row *row = sv_layout_row_of(p->lay, tl);
    if (a == b || !row) return;
    double top = row->y - p->scroll_y;
    if (top + row->h < 0 || top > f->h) return;
    double bottom = top + row->h - 1, H = row->h - 2;
    uint32_t n_st = 0;
    for (size_t k = a; k < b && n_st < p->pal->n; k++) {
        uint32_t cat = s->slot_cat[k];
        if (cat < p->pal->n && p->pal->visible[cat] && p->pal->kind[cat] == SLOG_KIND_STATE) {
            bd->st_cols[n_st] = s->cols + k * (size_t)s->width;
            bd->st_c[n_st++] = histogram_colour(p->pal->rgba[cat]);
        }
    }
    if (n_st && f->one_to_one)
        stack_rows(ras, x_first, i_first, n, bottom, H, n_st, bd->st_cols, bd->st_c, bd->tops, bd->bse, bd->same,
                   bd->tops + (size_t)s->width * p->pal->n, bd->mask);
    else if (n_st)
        stack_columns(ras, xs, i_lo, i_hi, bottom, H, n_st, bd->st_cols, bd->st_c);
    for (size_t k = a; k < b; k++) {
        uint32_t cat = s->slot_cat[k];
        /* folded messages: the density band (density_row) */
        if (cat >= p->pal->n || !p->pal->visible[cat] || p->pal->kind[cat] != SLOG_KIND_EVENT) continue;
        const float *cols = s->cols + k * (size_t)s->width;
        uint32_t c = sv_premul(p->pal->rgba[cat], 0.8, 1);
        int y0 = (int)round(top + 1), y1 = y0 + 3;
        if (!f->one_to_one) {
            for (int i = i_lo; i < i_hi; i++) {
                if (cols[i] > 0.01f) {
                    int x0 = xs[i], x1 = xs[i + 1];
                    sv_raster_fill(ras, x0, x1 > x0 ? x1 : x0 + 1, y0, y1, c);
                }
            }
            continue;
        }
        /* raster_fill of each column's pixel, without a call per pixel */
        uint32_t keep = sv_keep_of(c);
        for (int y = y0 < 0 ? 0 : y0; y < y1 && y < ras->h; y++) {
            uint32_t *px = ras->px + (size_t)y * ras->stride + x_first;
            for (int k2 = 0; k2 < n; k2++)
                if (cols[i_first + k2] > 0.01f) px[k2] = keep == 0 ? c : sv_over_keep(px[k2], c, keep);
        }
    }
}

/* Messages per pixel column along the bottom of timeline tl's row, darker
 * for more (square root of the count over the frame's largest): where
 * arrows are folded into preview columns or too many to draw, this is what
 * shows where communication happens. With a message filter, folded
 * messages (the filter cannot see their fields) are a faint hatch of their
 * own. memo: the band's colours kept by count. */
enum { N_MEMO = 256 };
typedef struct density_memo {
    uint32_t bits[N_MEMO], c[N_MEMO];
    uint8_t set[N_MEMO];
} density_memo;

static void density_row(const rows_frame *f, uint32_t tl, density_memo *memo)
{
    const sv_canvas_params *p = f->p;
    const sv_density *d = f->dens;
    sv_raster *ras = f->ras;
    uint32_t i_tl = tl - d->tl_first;
    const sv_row *row = sv_layout_row_of(p->lay, tl);
    if (!row) return;
    double top = row->y - p->scroll_y;
    if (top + row->h < 0 || top > f->h) return;
    /* rows too low to hold states and a band keep the states */
    if (row->h < 4) return;
    int bh = (int)(row->h / 4);
    bh = row->h < 8 ? 1 : bh < 2 ? 2 : bh > 5 ? 5 : bh;
    int y1 = (int)floor(top + row->h - 1), y0 = y1 - bh;
    const float *dr = d->drawn + (size_t)i_tl * (size_t)d->width;
    const float *fo = d->folded + (size_t)i_tl * (size_t)d->width;
    double cx0 = f->d_cx0, cdx = f->d_cdx;
    for (int i = f->d_lo; i < f->d_hi; i++) {
        float n = d->folded_unfiltered ? dr[i] : dr[i] + fo[i];
        /* most columns carry no message: their edges are not needed */
        if (!(n > 0) && !(d->folded_unfiltered && fo[i] > 0)) continue;
        int x0 = (int)floor(cx0 + i * cdx), x1 = (int)floor(cx0 + (i + 1) * cdx);
        if (x1 <= x0) x1 = x0 + 1;
        if (n > 0) {
            uint32_t bits;
            memcpy(&bits, &n, sizeof bits);
            uint32_t slot = (bits ^ bits >> 8 ^ bits >> 16) & (N_MEMO - 1);
            if (!memo->set[slot] || memo->bits[slot] != bits) {
                memo->set[slot] = 1;
                memo->bits[slot] = bits;
                memo->c[slot] = sv_premul(f->d_base, 1, 0.25 + 0.75 * sqrt(n / d->max));
            }
            uint32_t c = memo->c[slot];
            if (x0 >= 0 && x1 == x0 + 1 && x1 <= ras->w && y0 >= 0 && y1 <= ras->h) {
                /* sv_raster_fill of a one-pixel column, without its call */
                uint32_t keep = sv_keep_of(c), *px = ras->px + (size_t)y0 * ras->stride + x0;
                for (int y = y0; y < y1; y++, px += ras->stride) *px = keep == 0 ? c : sv_over_keep(*px, c, keep);
            } else {
                sv_raster_fill(ras, x0, x1, y0, y1, c);
            }
        } else if (x0 & 2) {
            sv_raster_fill(ras, x0, x1, y0, y1, sv_premul(f->d_base, 1, 0.18));
        }
    }
}

/* The rows of a frame as units of unit_tl timelines, claimed by the
 * threads drawing them. */
typedef struct rows_job {
    const rows_frame *f;
    uint32_t unit_tl, n_units;
    atomic_uint next;
} rows_job;

/* A unit of timelines: their histograms, then their density bands (each
 * row's over its histogram, as when drawn one layer at a time). */
static void draw_unit(const rows_band *bd, uint32_t tl_lo, uint32_t tl_hi, density_memo *memo)
{
    const rows_frame *f = bd->f;
    if (f->hist)
        for (uint32_t tl = tl_lo; tl < tl_hi; tl++) draw_histogram_row(bd, tl);
    if (f->dens) {
        uint32_t lo = tl_lo > f->dens->tl_first ? tl_lo : f->dens->tl_first;
        uint32_t hi = f->dens->tl_first + f->dens->n_timelines;
        if (hi > tl_hi) hi = tl_hi;
        for (uint32_t tl = lo; tl < hi; tl++) density_row(f, tl, memo);
    }
}

static void draw_units(void *arg)
{
    rows_job *job = arg;
    const rows_frame *f = job->f;
    uint32_t n_tl = f->p->scene->n_timelines;
    rows_band bd;
    if (band_alloc(&bd, f)) {
        /* no scratch: the other thread, or the caller again, draws them */
        return;
    }
    density_memo memo;
    memset(memo.set, 0, sizeof memo.set);
    for (uint32_t u; (u = atomic_fetch_add(&job->next, 1)) < job->n_units;) {
        uint32_t lo = u * job->unit_tl, hi = lo + job->unit_tl < n_tl ? lo + job->unit_tl : n_tl;
        draw_unit(&bd, lo, hi, &memo);
    }
    band_free(&bd);
}

/* Rows' histograms and message density (dens: NULL = no band), written
 * into the raster over the background. A row's pixels are its own when
 * every row drawn is at least 4 px high (the event ticks reach 3 px below
 * its top, the stack and the band stay inside it); then units of a few
 * timelines are drawn by the frame's thread and the helper (helper.h), the
 * second core being otherwise idle during a frame, and the pixels are
 * those of one thread. */
static void draw_rows(sv_raster *ras, double w, double h, const sv_canvas_params *p, const sv_density *dens)
{
    const sv_scene *s = p->scene;
    rows_frame f = {.ras = ras, .h = h, .p = p, .dens = dens};
    f.hist = s->n_slots > 0;
    if (!ras->surf || (!f.hist && !dens)) return;
    if (f.hist) {
        f.xs = malloc(sizeof(int) * ((size_t)s->width + 1));
        if (!f.xs) f.hist = 0;
    }
    if (f.hist) {
        /* canvas x of scene column i */
        double cx0 = sv_viewport_time_to_x(p->vp, s->t0);
        double cdx = s->pixel_ns * p->vp->width / sv_viewport_span(p->vp);
        f.i_lo = (int)floor((0 - cx0) / cdx) - 1, f.i_hi = (int)ceil((w - cx0) / cdx) + 1;
        if (f.i_lo < 0) f.i_lo = 0;
        if (f.i_hi > s->width) f.i_hi = s->width;
        /* pixel edges of the columns, once per frame rather than per slot */
        f.one_to_one = 1;
        for (int i = f.i_lo; i <= f.i_hi; i++) {
            f.xs[i] = (int)floor(cx0 + i * cdx);
            f.one_to_one &= i == f.i_lo || f.xs[i] == f.xs[i - 1] + 1;
        }
        /* with one_to_one: the columns on the raster, x_first + k = xs[i_first + k] */
        f.i_first = f.i_lo;
        if (f.one_to_one && f.i_hi > f.i_lo) {
            f.x_first = f.xs[f.i_lo] > 0 ? f.xs[f.i_lo] : 0;
            f.i_first = f.i_lo + (f.x_first - f.xs[f.i_lo]);
            int i_end = f.i_first + (ras->w - f.x_first) < f.i_hi ? f.i_first + (ras->w - f.x_first) : f.i_hi;
            f.n = i_end > f.i_first ? i_end - f.i_first : 0;
        }
    }
    if (dens) {
        f.d_cx0 = sv_viewport_time_to_x(p->vp, s->t0);
        f.d_cdx = s->pixel_ns * p->vp->width / sv_viewport_span(p->vp);
        const double *ink = THEME.text;
        f.d_base = (uint32_t)lround(ink[0] * 255) << 24 | (uint32_t)lround(ink[1] * 255) << 16 |
                   (uint32_t)lround(ink[2] * 255) << 8 | 255u;
        f.d_lo = (int)floor(-f.d_cx0 / f.d_cdx) - 1, f.d_hi = (int)ceil((w - f.d_cx0) / f.d_cdx) + 1;
        if (f.d_lo < 0) f.d_lo = 0;
        if (f.d_hi > dens->width) f.d_hi = dens->width;
    }
    sv_raster_direct(ras);
    rows_job job = {.f = &f};
    job.unit_tl = rows_apart(p, h) ? ROWS_UNIT : (s->n_timelines ? s->n_timelines : 1);
    job.n_units = (s->n_timelines + job.unit_tl - 1) / job.unit_tl;
    atomic_init(&job.next, 0);
    if (job.n_units > 1)
        sv_helper_run(draw_units, &job);
    else
        draw_units(&job);
    if (atomic_load(&job.next) < job.n_units) {
        /* neither thread could have its scratch: one unit, serially */
        rows_band bd;
        if (band_alloc(&bd, &f) == 0) {
            density_memo memo;
            memset(memo.set, 0, sizeof memo.set);
            draw_unit(&bd, 0, s->n_timelines, &memo);
            band_free(&bd);
        }
    }
    free(f.xs);
    sv_raster_cairo(ras);
}

static void draw_arrowhead(cairo_t *cr, double x0, double y0, double x1, double y1, double sz)
{
    double dx = x1 - x0, dy = y1 - y0, len = hypot(dx, dy);
    if (len < 1e-6) return;
    dx /= len;
    dy /= len;
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x1 - sz * dx + sz * 0.45 * dy, y1 - sz * dy - sz * 0.45 * dx);
    cairo_line_to(cr, x1 - sz * dx - sz * 0.45 * dy, y1 - sz * dy + sz * 0.45 * dx);
    cairo_close_path(cr);
}

#define ARROW_BUDGET 3000

typedef struct arrow_seg {
    double x0, y0, x1, y1;
    uint32_t rgba;
} arrow_seg;

/* The arrows' lines of a frame in bands of pixel rows (units, helper.h):
 * in each band all halos, then all lines, in draw order, so every pixel
 * sees the blends it sees when the lines are drawn whole. */
typedef struct lines_job {
    sv_raster *ras;
    const struct arrow_seg *segs;
    size_t n;
    uint32_t halo;
    int own;
    double shade, ink;
    int band_h, n_bands;
    atomic_int next;
} lines_job;

static uint32_t arrow_colour(uint32_t rgba);

static void line_bands(void *arg)
{
    lines_job *job = arg;
    for (int u; (u = atomic_fetch_add(&job->next, 1)) < job->n_bands;) {
        int r0 = u * job->band_h, r1 = u + 1 == job->n_bands ? job->ras->h : r0 + job->band_h;
        for (size_t i = 0; i < job->n; i++) {
            const struct arrow_seg *g = &job->segs[i];
            /* one pixel either side, across the line */
            int steep = fabs(g->y1 - g->y0) > fabs(g->x1 - g->x0);
            double ox = steep ? 1 : 0, oy = steep ? 0 : 1;
            const double below[4] = {g->x0 - ox, g->y0 - oy, g->x1 - ox, g->y1 - oy},
                         above[4] = {g->x0 + ox, g->y0 + oy, g->x1 + ox, g->y1 + oy};
            /* one walk for both (each pixel of the one's written once,
             * the line's rows read once rather than twice) */
            sv_raster_line_pair_band(job->ras, below, above, job->halo, r0, r1);
        }
        for (size_t i = 0; i < job->n; i++) {
            const struct arrow_seg *g = &job->segs[i];
            uint32_t c = job->own ? arrow_colour(g->rgba) : sv_value_rgba(g->rgba);
            sv_raster_line_band(job->ras, g->x0, g->y0, g->x1, g->y1, sv_premul(c, job->shade, job->ink), r0, r1);
        }
    }
}

/* With a lift (dark theme) each channel c becomes c x 0.55 + lift; without
 * one rgba is returned as it is and drawn shaded by 0.55. */
static uint32_t arrow_colour(uint32_t rgba)
{
    if (THEME.arrow_lift <= 0) return rgba;
    uint32_t out = rgba & 255;
    for (int sh = 8; sh <= 24; sh += 8) {
        double v = ((rgba >> sh) & 255) * 0.55 + THEME.arrow_lift * 255;
        out |= (uint32_t)lround(v > 255 ? 255 : v) << sh;
    }
    return out;
}

/* Arrow lines go through the raster (thousands of Cairo strokes were a
 * fifth of a frame); heads and sender dots stay Cairo paths, filled once
 * per run of equal colour. Thousands of overlapping arrows would paint a
 * solid slab over the states: the ink is kept roughly constant instead,
 * so dense exchanges read as a haze and sparse ones stay crisp. Each line
 * has a halo of the row colour under it, so that it stands out from the
 * state boxes it crosses in either theme. own: the arrows have their
 * category's colour, darkened to stand out from the states' bright fills
 * (on dark rows lifted too: arrow_colour() then applies the 0.55 itself);
 * otherwise they carry a value's colour (size, tag, latency) as it is. */
static void draw_arrow_segs(cairo_t *cr, sv_raster *ras, const arrow_seg *segs, size_t n, size_t n_arrows, double w,
                            double h, int own)
{
    /* Ink by coverage: if the arrows' strokes would cover more than 4 % of
     * the canvas, lower their alpha so the covered share stays about that. */
    double area = 0;
    for (size_t i = 0; i < n; i++) area += hypot(segs[i].x1 - segs[i].x0, segs[i].y1 - segs[i].y0);
    double cover = area / fmax(1.0, w * h);
    double ink = cover > 0.04 ? fmax(0.10, 0.04 / cover) : 1.0;
    int heads = n_arrows < 2000;
    double shade = own && THEME.arrow_lift <= 0 ? 0.55 : 1;
    if (ras->surf) {
        sv_raster_direct(ras);
        uint32_t halo =
            sv_premul(((uint32_t)lround(THEME.halo[0] * 255) << 24) | ((uint32_t)lround(THEME.halo[1] * 255) << 16) |
                          ((uint32_t)lround(THEME.halo[2] * 255) << 8) | 255u,
                      1, THEME.halo[3] * ink);
        /* many lines: four bands, drawn by the frame's thread and the
         * helper (a helper slowed by other work holds up at most one) */
        lines_job job = {.ras = ras,
                         .segs = segs,
                         .n = n,
                         .halo = halo,
                         .own = own,
                         .shade = shade,
                         .ink = ink,
                         .n_bands = n >= 64 && ras->h >= 64 && sv_helper_ready() ? 4 : 1};
        job.band_h = (ras->h + job.n_bands - 1) / job.n_bands;
        atomic_init(&job.next, 0);
        if (job.n_bands > 1)
            sv_helper_run(line_bands, &job);
        else
            line_bands(&job);
        sv_raster_cairo(ras);
    }
    for (size_t a = 0; heads && a < n;) {
        size_t b = a;
        while (b < n && segs[b].rgba == segs[a].rgba) b++;
        int any = 0;
        for (size_t i = a; i < b; i++) {
            const arrow_seg *g = &segs[i];
            if (hypot(g->x1 - g->x0, g->y1 - g->y0) <= 12) continue;
            draw_arrowhead(cr, g->x0, g->y0, g->x1, g->y1, 7);
            /* a dot marks the sending end */
            cairo_new_sub_path(cr);
            cairo_arc(cr, g->x0, g->y0, 1.8, 0, 2 * M_PI);
            any = 1;
        }
        if (any) {
            sv_theme_source(cr, THEME.halo, ink);
            cairo_set_line_width(cr, 1.5);
            cairo_stroke_preserve(cr);
            sv_set_rgba(cr, own ? arrow_colour(segs[a].rgba) : sv_value_rgba(segs[a].rgba), shade, ink);
            cairo_fill(cr);
        }
        a = b;
    }
}

/* Names inside wide states of one nesting level, over their visible part. */
static void draw_state_names(cairo_t *cr, double w, const sv_canvas_params *p, const sv_geom *g, size_t k0, size_t k1,
                             PangoLayout **name_layout, size_t *n_names)
{
    const sv_scene *s = p->scene;
    for (size_t k = k0; k < k1 && p->cat_names && *n_names < 3000; k++) {
        const sv_item *it = &s->items[s->order[k]];
        if (it->category >= p->pal->n || !p->pal->visible[it->category]) continue;
        sv_rect r;
        if (!sv_geom_state(g, it, &r) || r.w <= 40 || r.h < 11) continue;
        double vx0 = fmax(r.x, 0), vx1 = fmin(r.x + r.w, w);
        if (vx1 - vx0 <= 40) continue;
        uint32_t c = p->pal->rgba[it->category];
        double lum = 0.299 * (c >> 24 & 255) + 0.587 * (c >> 16 & 255) + 0.114 * (c >> 8 & 255);
        if (lum > 150)
            cairo_set_source_rgba(cr, 0, 0, 0, 0.85);
        else
            cairo_set_source_rgba(cr, 1, 1, 1, 0.95);
        int big = r.h >= 16;
        double size = big ? 8 : 6.5;
        /* one layout per size for the whole frame: creating a PangoLayout
         * per label dominated the draw time */
        if (!name_layout[big]) {
            name_layout[big] = sv_text_layout(cr, "", 0, size);
            pango_layout_set_ellipsize(name_layout[big], PANGO_ELLIPSIZE_END);
        }
        PangoLayout *l = name_layout[big];
        pango_layout_set_text(l, p->cat_names[it->category], -1);
        pango_layout_set_width(l, (int)((vx1 - vx0 - 8) * PANGO_SCALE));
        cairo_move_to(cr, round(vx0 + 4), round(r.y + (r.h - size * 1.6) / 2));
        pango_cairo_show_layout(cr, l);
        (*n_names)++;
    }
}

/* A state's boxes (a darker border box under a 1 px smaller one when there
 * is room); col: the last colour and its two shades, kept across calls. */
static void fill_state(sv_raster *ras, double w, double h, const sv_canvas_params *p, const sv_geom *g,
                       const sv_item *it, uint32_t col[3])
{
    if (it->category >= p->pal->n || !p->pal->visible[it->category]) return;
    sv_rect r;
    if (!sv_geom_state(g, it, &r) || r.x > w || r.x + r.w < 0 || r.y > h || r.y + r.h < 0) return;
    uint32_t rgba = p->pal->rgba[it->category];
    if (rgba != col[0]) {
        col[0] = rgba;
        col[1] = sv_premul(rgba, 0.6, 1);
        col[2] = sv_premul(rgba, 1, 1);
    }
    int bx0 = (int)round(fmax(r.x, -2)), bx1 = (int)round(fmin(r.x + r.w, w + 2));
    int by0 = (int)round(r.y), by1 = (int)round(r.y + r.h);
    if (bx1 <= bx0) bx1 = bx0 + 1;
    if (bx1 - bx0 >= 4 && by1 - by0 >= 4) {
        sv_raster_fill(ras, bx0, bx1, by0, by1, col[1]);
        sv_raster_fill(ras, bx0 + 1, bx1 - 1, by0 + 1, by1 - 1, col[2]);
    } else {
        sv_raster_fill(ras, bx0, bx1, by0, by1, col[2]);
    }
}

/* A nesting level's states as units of ROWS_UNIT timelines (rows apart):
 * unit u's states are idx[first[u] .. first[u + 1]), in draw order. */
typedef struct states_job {
    sv_raster *ras;
    double w, h;
    const sv_canvas_params *p;
    const sv_geom *g;
    const uint32_t *idx;
    const size_t *first;
    uint32_t n_units;
    atomic_uint next;
} states_job;

static void state_units(void *arg)
{
    states_job *job = arg;
    /* neighbours in draw order mostly share a colour: its two shades are
     * worked out when it changes, not per state */
    uint32_t col[3] = {0, sv_premul(0, 0.6, 1), sv_premul(0, 1, 1)};
    for (uint32_t u; (u = atomic_fetch_add(&job->next, 1)) < job->n_units;)
        for (size_t k = job->first[u]; k < job->first[u + 1]; k++)
            fill_state(job->ras, job->w, job->h, job->p, job->g, &job->p->scene->items[job->idx[k]], col);
}

/* States of one nesting level, written into the raster, then their names;
 * the next level is drawn over both, so nesting shows. With rows apart and
 * many states, rows' states are written by units (helper.h): a state's
 * boxes lie in its row, and each row's go in draw order. */
static void draw_state_group(cairo_t *cr, sv_raster *ras, double w, double h, const sv_canvas_params *p,
                             const sv_geom *g, size_t k0, size_t k1, int apart, PangoLayout **name_layout,
                             size_t *n_names)
{
    const sv_scene *s = p->scene;
    sv_raster_direct(ras);
    uint32_t n_units = (s->n_timelines + ROWS_UNIT - 1) / ROWS_UNIT;
    uint32_t *idx =
        apart && k1 - k0 >= 256 && n_units > 1 && sv_helper_ready() ? malloc(sizeof(uint32_t) * (k1 - k0)) : NULL;
    size_t *first = idx ? calloc((size_t)n_units + 2, sizeof(size_t)) : NULL;
    if (first) {
        for (size_t k = k0; k < k1; k++) first[s->items[s->order[k]].timeline / ROWS_UNIT + 2]++;
        for (uint32_t u = 0; u < n_units; u++) first[u + 2] += first[u + 1];
        for (size_t k = k0; k < k1; k++) idx[first[s->items[s->order[k]].timeline / ROWS_UNIT + 1]++] = s->order[k];
        states_job job = {.ras = ras, .w = w, .h = h, .p = p, .g = g, .idx = idx, .first = first, .n_units = n_units};
        atomic_init(&job.next, 0);
        sv_helper_run(state_units, &job);
    } else {
        uint32_t col[3] = {0, sv_premul(0, 0.6, 1), sv_premul(0, 1, 1)};
        for (size_t k = k0; k < k1; k++) fill_state(ras, w, h, p, g, &s->items[s->order[k]], col);
    }
    free(first);
    free(idx);
    sv_raster_cairo(ras);
    draw_state_names(cr, w, p, g, k0, k1, name_layout, n_names);
}

/* Height of timeline tl's row (0 when it is not shown). */
static double row_height(const sv_layout *lay, uint32_t tl)
{
    const sv_row *r = sv_layout_row_of(lay, tl);
    return r ? r->h : 0;
}

/* Markers of a run of events of one category (consecutive in draw order):
 * ticks on timelines with more than one event per 12 pixels or rows lower
 * than a diamond, as one Cairo path, and outlined diamonds elsewhere, into
 * the raster. */
static void draw_event_run(cairo_t *cr, sv_raster *ras, double w, double h, const sv_canvas_params *p, const sv_geom *g,
                           size_t k0, size_t k1, const uint32_t *n_ev)
{
    const sv_scene *s = p->scene;
    uint32_t cat = s->items[s->order[k0]].category;
    if (cat >= p->pal->n || !p->pal->visible[cat]) return;
    uint32_t rgba = p->pal->rgba[cat];
    double r = SV_EVENT_R;
    int any_tick = 0;
    for (size_t k = k0; k < k1; k++) {
        const sv_item *it = &s->items[s->order[k]];
        double x, y, rh = row_height(p->lay, it->timeline);
        if ((rh < SV_EVENT_ROW_MIN || (n_ev && n_ev[it->timeline] * 12.0 > w)) && sv_geom_event(g, it, &x, &y) &&
            x >= -8 && x <= w + 8 && y >= -8 && y <= h + 8) {
            double th = rh < SV_EVENT_ROW_MIN ? rh / 2 : r;
            cairo_rectangle(cr, floor(x), y - th, 1, 2 * th);
            any_tick = 1;
        }
    }
    if (any_tick) {
        sv_set_rgba(cr, rgba, 0.8, 1);
        cairo_fill(cr);
    }
    uint32_t fill = sv_premul(rgba, 1, 1), line = sv_premul(rgba, 0.45, 1);
    sv_raster_direct(ras);
    for (size_t k = k0; k < k1; k++) {
        const sv_item *it = &s->items[s->order[k]];
        double x, y;
        if (!(n_ev && n_ev[it->timeline] * 12.0 > w) && row_height(p->lay, it->timeline) >= SV_EVENT_ROW_MIN &&
            sv_geom_event(g, it, &x, &y) && x >= -8 && x <= w + 8 && y >= -8 && y <= h + 8)
            sv_raster_diamond(ras, x, y, fill, line);
    }
    sv_raster_cairo(ras);
}

static void draw_items(cairo_t *cr, sv_raster *ras, double w, double h, const sv_canvas_params *p)
{
    const sv_scene *s = p->scene;
    sv_geom g = {p->vp, p->lay, p->scroll_y, p->pal->msg_filter};
    size_t n_arrows = 0, n_names = 0, i_arrow = 0;
    arrow_seg *segs = NULL;
    size_t n_seg = 0, cap_seg = 0;
    PangoLayout *name_layout[2] = {NULL, NULL};
    /* Dense events become ticks instead of overlapping diamonds: a
     * timeline with more than one event per 12 pixels gets ticks. */
    uint32_t *n_ev = calloc((size_t)s->n_timelines + 1, sizeof(uint32_t));
    const sv_search_bound *mf = p->pal->msg_filter;
    int apart = rows_apart(p, h);
    for (size_t k = 0; k < s->n_items; k++) {
        n_arrows += s->items[k].kind == SLOG_KIND_ARROW && sv_msg_filter_item(mf, s, &s->items[k]);
        if (n_ev && s->items[k].kind == SLOG_KIND_EVENT) n_ev[s->items[k].timeline]++;
    }
    for (size_t k = 0; k < s->n_items; k++) {
        const sv_item *it = &s->items[s->order[k]];
        if (it->kind == SLOG_KIND_STATE && ras->surf) {
            /* the scene orders states first, by nesting depth */
            size_t e = k;
            while (e < s->n_items && s->items[s->order[e]].kind == SLOG_KIND_STATE &&
                   s->items[s->order[e]].depth == it->depth)
                e++;
            draw_state_group(cr, ras, w, h, p, &g, k, e, apart, name_layout, &n_names);
            k = e - 1;
            continue;
        }
        if (it->category >= p->pal->n || !p->pal->visible[it->category]) continue;
        if (it->kind == SLOG_KIND_STATE) {
            continue; /* no raster (allocation failed): states are skipped */
        } else if (it->kind == SLOG_KIND_EVENT) {
            size_t e = k;
            while (e < s->n_items && s->items[s->order[e]].kind == SLOG_KIND_EVENT &&
                   s->items[s->order[e]].category == it->category)
                e++;
            draw_event_run(cr, ras, w, h, p, &g, k, e, n_ev);
            k = e - 1;
        } else {
            double x0, y0, x1, y1;
            if (!sv_msg_filter_item(mf, s, it)) continue;
            /* Past a few thousand arrows individual lines carry no more
             * information, only ink: draw an even sample of them. */
            size_t stride = n_arrows / ARROW_BUDGET + 1;
            if (i_arrow++ % stride) continue;
            if (!sv_geom_arrow(&g, it, &x0, &y0, &x1, &y1)) continue;
            if ((x0 < 0 && x1 < 0) || (x0 > w && x1 > w) || (y0 < 0 && y1 < 0) || (y0 > h && y1 > h)) continue;
            /* Zoomed out, messages become vertical strokes that fuse into a
             * grey wall hiding the states; the preview already shows where
             * the time goes, so draw such arrows only when they are few. */
            if (n_arrows > SV_DENSITY_ARROWS && fabs(x1 - x0) < 2) continue;
            /* Thousands of overlapping arrows would paint a solid grey slab
             * over the states: keep the total ink roughly constant instead,
             * so dense exchanges read as a haze and sparse ones stay crisp. */
            if (n_seg == cap_seg) {
                size_t cap = cap_seg ? 2 * cap_seg : 256;
                arrow_seg *ns = realloc(segs, cap * sizeof *ns);
                if (!ns) continue;
                segs = ns;
                cap_seg = cap;
            }
            segs[n_seg++] = (arrow_seg){
                x0, y0, x1, y1,
                sv_arrow_rgba(p->pal, it->category, it->end - it->start, s->info + it->info_off, it->n_info)};
        }
    }
    draw_arrow_segs(cr, ras, segs, n_seg, n_arrows, w, h, p->pal->arrows == SV_ARROWS_CATEGORY);
    free(segs);
    free(n_ev);
    for (int i = 0; i < 2; i++)
        if (name_layout[i]) g_object_unref(name_layout[i]);
}

static void outline_item(cairo_t *cr, const sv_canvas_params *p, const sv_item *it, int strong)
{
    sv_geom g = {p->vp, p->lay, p->scroll_y, p->pal->msg_filter};
    cairo_set_line_width(cr, strong ? 2.5 : 2);
    if (strong)
        sv_theme_source(cr, THEME.strong, 1);
    else
        sv_theme_source(cr, THEME.accent, 1);
    if (it->kind == SLOG_KIND_STATE) {
        sv_rect r;
        if (sv_geom_state(&g, it, &r)) {
            cairo_rectangle(cr, r.x - 1, r.y - 1, r.w + 2, r.h + 2);
            cairo_stroke(cr);
        }
    } else if (it->kind == SLOG_KIND_EVENT) {
        double x, y;
        if (sv_geom_event(&g, it, &x, &y)) {
            cairo_arc(cr, x, y, SV_EVENT_R + 2.5, 0, 2 * M_PI);
            cairo_stroke(cr);
        }
    } else {
        double x0, y0, x1, y1;
        if (sv_geom_arrow(&g, it, &x0, &y0, &x1, &y1)) {
            cairo_set_line_width(cr, strong ? 3 : 2.5);
            cairo_move_to(cr, x0, y0);
            cairo_line_to(cr, x1, y1);
            cairo_stroke(cr);
            draw_arrowhead(cr, x0, y0, x1, y1, 9);
            cairo_fill(cr);
        }
    }
}

/* Time ranges the file could not be read in (sv_scene.bad): hatched over
 * every row, so that an empty stretch is not taken for idle time. */
void sv_render_range(cairo_t *cr, double w, double h, const sv_viewport *vp, double t0, double t1)
{
    double x0 = sv_viewport_time_to_x(vp, fmin(t0, t1));
    double x1 = sv_viewport_time_to_x(vp, fmax(t0, t1));
    x0 = fmax(x0, -2);
    x1 = fmin(x1, w + 2);
    /* Veil what lies outside the range rather than tint what lies inside:
     * over rows full of coloured states a light tint vanishes, a washed-out
     * surround does not. */
    sv_theme_source(cr, THEME.veil, 1);
    cairo_rectangle(cr, -2, 0, x0 + 2, h);
    cairo_rectangle(cr, x1, 0, w + 2 - x1, h);
    cairo_fill(cr);
    sv_theme_source(cr, THEME.accent, 0.9);
    cairo_set_line_width(cr, 2);
    cairo_move_to(cr, floor(x0), 0);
    cairo_line_to(cr, floor(x0), h);
    cairo_move_to(cr, floor(x1), 0);
    cairo_line_to(cr, floor(x1), h);
    cairo_stroke(cr);
}

static void draw_bad_ranges(cairo_t *cr, double w, double h, const sv_canvas_params *p)
{
    for (size_t i = 0; p->scene && i < p->scene->n_bad; i++) {
        double x0 = fmax(sv_viewport_time_to_x(p->vp, (double)p->scene->bad[i].lo), -2);
        double x1 = fmin(sv_viewport_time_to_x(p->vp, (double)p->scene->bad[i].hi), w + 2);
        if (x1 - x0 < 1) x1 = x0 + 1;
        if (x1 < 0 || x0 > w) continue;
        cairo_save(cr);
        cairo_rectangle(cr, x0, 0, x1 - x0, h);
        cairo_clip(cr);
        sv_theme_source(cr, THEME.header_bg, 1);
        cairo_paint(cr);
        sv_theme_source(cr, THEME.dim_text, 0.6);
        cairo_set_line_width(cr, 1.5);
        for (double x = floor(x0 / 10) * 10 - h; x < x1; x += 10) {
            cairo_move_to(cr, x, h);
            cairo_line_to(cr, x + h, 0);
        }
        cairo_stroke(cr);
        cairo_restore(cr);
    }
}

void sv_render_canvas(cairo_t *cr, double w, double h, const sv_canvas_params *p)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_raster ras;
    if (p->scene && sv_raster_init_on(&ras, cr, w, h)) {
        /* Everything goes into the raster, the row background first: it is
         * opaque then, and a copy (SOURCE) replaces blending 8 MiB of
         * mostly transparent pixels over a background painted beneath. */
        cairo_t *rc = cairo_create(ras.surf);
        draw_rows_background(rc, w, h, p);
        sv_density tmp;
        int show;
        const sv_density *dens = sv_density_for(p->scene, p->pal, &tmp, &show);
        draw_rows(&ras, w, h, p, dens && show && dens->drawn && dens->max > 0 ? dens : NULL);
        sv_density_clear(&tmp);
        draw_items(rc, &ras, w, h, p);
        cairo_destroy(rc);
        sv_raster_cairo(&ras);
        sv_raster_paint(&ras, cr);
        sv_raster_free(&ras);
    } else {
        draw_rows_background(cr, w, h, p);
    }
    draw_bad_ranges(cr, w, h, p);
    if (p->have_range) sv_render_range(cr, w, h, p->vp, p->range_t0, p->range_t1);
    if (p->hover && !same_item(p->hover, p->selected)) outline_item(cr, p, p->hover, 0);
    if (p->selected) outline_item(cr, p, p->selected, 1);
    cairo_restore(cr);
}
