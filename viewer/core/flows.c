/* SPDX-License-Identifier: MIT */
/* flows.c - messages between folded row groups, summed per slice and pair
 * of groups from slog_reader_analyse's matrix (flows.h). */
#define _POSIX_C_SOURCE 200809L
#include "flows.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define THEME (*sv_theme_current())

/* A dense square of counts per slice is kept while adding; beyond this many
 * groups a side it would take too much memory. */
#define MAX_GROUPS 2048u

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

sv_flows *sv_flows_new(int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first, uint32_t n_groups)
{
    if (t1 < t0 || !n_slices || !n_groups || n_groups > MAX_GROUPS || !group_first) return NULL;
    for (uint32_t g = 0; g < n_groups; g++)
        if (group_first[g] >= group_first[g + 1]) return NULL;
    /* a slice is at least a nanosecond */
    if ((uint64_t)(t1 - t0) + 1 < n_slices) n_slices = (uint32_t)((uint64_t)(t1 - t0) + 1);
    sv_flows *fl = calloc(1, sizeof *fl);
    if (!fl) return NULL;
    fl->group_first = malloc(((size_t)n_groups + 1) * sizeof *fl->group_first);
    if (!fl->group_first) {
        free(fl);
        return NULL;
    }
    memcpy(fl->group_first, group_first, ((size_t)n_groups + 1) * sizeof *fl->group_first);
    fl->t0 = t0;
    fl->t1 = t1;
    fl->n_slices = n_slices;
    fl->n_groups = n_groups;
    return fl;
}

const char *sv_flows_source_name(sv_flows_source s)
{
    switch (s) {
    case SV_FLOWS_FROM_OVERVIEW: return "overview";
    case SV_FLOWS_FROM_BLOCKS: return "blocks";
    case SV_FLOWS_FROM_ANALYSIS: break;
    }
    return "analysis";
}

void sv_flows_free(sv_flows *fl)
{
    if (!fl) return;
    free(fl->group_first);
    free(fl->flows);
    free(fl->edges);
    free(fl);
}

/* Start of slice i (i == n_slices: one past t1), without overflowing
 * for spans near the range of int64. */
static int64_t slice_start(const sv_flows *fl, uint32_t i)
{
    if (fl->edges) return fl->edges[i];
    uint64_t span = (uint64_t)(fl->t1 - fl->t0) + 1, n = fl->n_slices;
    uint64_t off = span / n * i + span % n * i / n;
    return fl->t0 + (int64_t)off;
}

void sv_flows_slice(const sv_flows *fl, uint32_t i, int64_t *a, int64_t *b)
{
    *a = slice_start(fl, i);
    *b = slice_start(fl, i + 1) - 1;
}

long sv_flows_group_of(const sv_flows *fl, uint32_t tl)
{
    if (tl < fl->group_first[0] || tl >= fl->group_first[fl->n_groups]) return -1;
    uint32_t lo = 0, hi = fl->n_groups; /* group_first[lo] <= tl < group_first[hi] */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (fl->group_first[mid] <= tl)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

int sv_flows_add_slice(sv_flows *fl, uint32_t slice, const slog_matrix_cell *c, size_t n)
{
    if (slice >= fl->n_slices || (fl->n_flows && fl->flows[fl->n_flows - 1].slice >= slice)) return -1;
    size_t side = fl->n_groups;
    uint64_t *sq = calloc(side * side, sizeof *sq);
    if (!sq) return -1;
    size_t n_new = 0;
    for (size_t i = 0; i < n; i++) {
        long s = sv_flows_group_of(fl, c[i].sender), r = sv_flows_group_of(fl, c[i].receiver);
        if (s < 0 || r < 0) {
            fl->outside += c[i].messages;
            continue;
        }
        uint64_t *v = &sq[(size_t)s * side + (size_t)r];
        if (!*v && c[i].messages) n_new++;
        *v += c[i].messages;
    }
    if (n_new) {
        sv_flow *grown = realloc(fl->flows, (fl->n_flows + n_new) * sizeof *grown);
        if (!grown) {
            free(sq);
            return -1;
        }
        fl->flows = grown;
        for (size_t k = 0; k < side * side; k++) {
            if (!sq[k]) continue;
            sv_flow *f = &fl->flows[fl->n_flows++];
            f->slice = slice;
            f->sender = (uint32_t)(k / side);
            f->receiver = (uint32_t)(k % side);
            f->messages = sq[k];
            fl->total += sq[k];
            if (sq[k] > fl->max) fl->max = sq[k];
        }
    }
    free(sq);
    return 0;
}

static int cmp_flow_key(const void *a, const void *b)
{
    const sv_flow *x = a, *y = b;
    if (x->slice != y->slice) return x->slice < y->slice ? -1 : 1;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    if (x->receiver != y->receiver) return x->receiver < y->receiver ? -1 : 1;
    return 0;
}

uint64_t sv_flows_count(const sv_flows *fl, uint32_t slice, uint32_t sender, uint32_t receiver)
{
    if (!fl->n_flows) return 0;
    sv_flow key = {.slice = slice, .sender = sender, .receiver = receiver};
    const sv_flow *f = bsearch(&key, fl->flows, fl->n_flows, sizeof key, cmp_flow_key);
    return f ? f->messages : 0;
}

uint32_t sv_flows_groups_for_fold(const sv_fold *f, const sv_rank_axis *ax, double min_px, uint32_t **group_first)
{
    *group_first = NULL;
    if (!f || f->list_tl || !f->n_rows) return 0;
    uint32_t *gf = malloc(((size_t)f->n_rows + 1) * sizeof *gf);
    if (!gf) return 0;
    /* the visible bands are consecutive: a group is open from gy0 to gy1
     * and takes the next band while it is lower than min_px */
    uint32_t n = 0;
    double gy0 = 0, gy1 = 0;
    for (uint32_t row = 0; row < f->n_rows; row++) {
        double y0, y1;
        sv_fold_band(f, ax, row, &y0, &y1);
        if (y1 <= 0 || y0 >= ax->height) continue;
        if (!n || gy1 - gy0 >= min_px) {
            if (!n) gf[0] = f->row_first[row];
            gy0 = y0;
            n++;
        }
        gf[n] = f->row_first[row + 1];
        gy1 = y1;
    }
    if (!n) {
        free(gf);
        return 0;
    }
    /* a last group thinner than the others joins the one before */
    if (n > 1) {
        double a = sv_rank_axis_to_y(ax, gf[n - 1]), b = sv_rank_axis_to_y(ax, gf[n]);
        if (b - a < min_px / 2) {
            gf[n - 1] = gf[n];
            n--;
        }
    }
    *group_first = gf;
    return n;
}

/* The flows from slog_reader_group_messages (flows.h), or NULL where the
 * groups are not whole overview groups or the file has no such counts
 * (*failed: a reader error in err, or no memory). */
static sv_flows *flows_of_groups(slog_reader *r, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first,
                                 uint32_t n_groups, bool *failed, slog_error *err)
{
    *failed = false;
    const slog_file_info *fi = slog_reader_info(r);
    uint32_t gt = fi->group_timelines;
    if (gt <= 1 || !n_groups) return NULL;
    for (uint32_t g = 0; g <= n_groups; g++)
        if (group_first[g] % gt && group_first[g] != fi->n_timelines) return NULL;
    slog_group_messages *gm = NULL;
    if (slog_reader_group_messages(r, t0, t1, n_slices, &gm, NULL, err) != SLOG_OK) {
        *failed = true;
        return NULL;
    }
    if (!gm) return NULL;
    sv_flows *fl = sv_flows_new(t0, t1, 1, group_first, n_groups);
    slog_matrix_cell *cells = malloc((gm->n_cells ? gm->n_cells : 1) * sizeof *cells);
    if (fl) fl->edges = malloc(((size_t)gm->n_slices + 1) * sizeof *fl->edges);
    if (!fl || !cells || !fl->edges) goto nomem;
    memcpy(fl->edges, gm->edges, ((size_t)gm->n_slices + 1) * sizeof *fl->edges);
    fl->n_slices = gm->n_slices;
    fl->source = gm->from_blocks ? SV_FLOWS_FROM_BLOCKS : SV_FLOWS_FROM_OVERVIEW;
    for (size_t i = 0; i < gm->n_cells;) {
        size_t j = i, n = 0;
        for (; j < gm->n_cells && gm->cells[j].slice == gm->cells[i].slice; j++)
            cells[n++] = (slog_matrix_cell){.sender = gm->cells[j].sender * gt,
                                            .receiver = gm->cells[j].receiver * gt,
                                            .messages = gm->cells[j].messages};
        if (sv_flows_add_slice(fl, gm->cells[i].slice, cells, n)) goto nomem;
        i = j;
    }
    free(cells);
    slog_group_messages_free(gm);
    return fl;
nomem:
    free(cells);
    sv_flows_free(fl);
    slog_group_messages_free(gm);
    *failed = true;
    err->status = SLOG_ERR_NOMEM;
    snprintf(err->message, sizeof err->message, "flows: out of memory");
    return NULL;
}

sv_flows *sv_flows_compute(slog_reader *r, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first,
                           uint32_t n_groups, sv_cancel_fn cancel, void *cancel_user, slog_error *err)
{
    double start = now_ms();
    memset(err, 0, sizeof *err);
    if (t1 >= t0 && n_slices && group_first) {
        bool failed;
        sv_flows *ov = flows_of_groups(r, t0, t1, n_slices, group_first, n_groups, &failed, err);
        if (failed) return NULL;
        if (ov) {
            ov->query_ms = now_ms() - start;
            return ov;
        }
    }
    sv_flows *fl = sv_flows_new(t0, t1, n_slices, group_first, n_groups);
    if (!fl) {
        err->status = SLOG_ERR_ARG;
        snprintf(err->message, sizeof err->message, "flows: bad window or groups, or out of memory");
        return NULL;
    }
    for (uint32_t i = 0; i < fl->n_slices; i++) {
        if (cancel && cancel(cancel_user)) {
            sv_flows_free(fl);
            return NULL;
        }
        slog_analysis_query q = {.flags = SLOG_ANALYSIS_MATRIX};
        sv_flows_slice(fl, i, &q.t0, &q.t1);
        slog_analysis *a = NULL;
        if (slog_reader_analyse(r, &q, &a, NULL, err) != SLOG_OK) {
            sv_flows_free(fl);
            return NULL;
        }
        size_t n = 0;
        const slog_matrix_cell *c = slog_analysis_matrix(a, &n);
        int rc = sv_flows_add_slice(fl, i, c, n);
        slog_analysis_free(a);
        if (rc) {
            err->status = SLOG_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "flows: out of memory");
            sv_flows_free(fl);
            return NULL;
        }
    }
    fl->query_ms = now_ms() - start;
    return fl;
}

int sv_flows_visible(const sv_palette *pal)
{
    for (uint32_t c = 0; c < pal->n; c++)
        if (pal->kind[c] == SLOG_KIND_ARROW && pal->visible[c]) return 1;
    return 0;
}

/* A flow's colour: the message scale (theme.h sv_ramp_rgba) at its share
 * of the largest count, low blue to high orange, lifted towards white on
 * dark rows as the arrows' values are. */
static uint32_t flow_colour(double t)
{
    return sv_value_rgba(sv_ramp_rgba(t));
}

/* Thin and faint flows first, so the heavy ones lie on top. */
static int cmp_flow_count(const void *a, const void *b)
{
    const sv_flow *x = *(const sv_flow *const *)a, *y = *(const sv_flow *const *)b;
    if (x->messages != y->messages) return x->messages < y->messages ? -1 : 1;
    return cmp_flow_key(x, y);
}

static double group_mid_y(const sv_flows *fl, const sv_rank_axis *ax, uint32_t g)
{
    return (sv_rank_axis_to_y(ax, fl->group_first[g]) + sv_rank_axis_to_y(ax, fl->group_first[g + 1])) / 2;
}

size_t sv_render_flows(cairo_t *cr, double w, double h, const sv_flows *fl, const sv_viewport *vp,
                       const sv_rank_axis *ax, const sv_palette *pal)
{
    if (!fl || !fl->n_flows || !sv_flows_visible(pal)) return 0;
    const sv_flow **order = malloc(fl->n_flows * sizeof *order);
    if (!order) return 0;
    for (size_t i = 0; i < fl->n_flows; i++) order[i] = &fl->flows[i];
    qsort(order, fl->n_flows, sizeof *order, cmp_flow_count);
    double lmax = log1p((double)fl->max);
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    size_t drawn = 0;
    for (size_t i = 0; i < fl->n_flows; i++) {
        const sv_flow *f = order[i];
        int64_t a, b;
        sv_flows_slice(fl, f->slice, &a, &b);
        /* the overview's slices may reach past the window: a line spans
         * the part on the window, where its messages are drawn */
        a = a > fl->t0 ? a : fl->t0;
        b = b < fl->t1 ? b : fl->t1;
        double x0 = sv_viewport_time_to_x(vp, (double)a), x1 = sv_viewport_time_to_x(vp, (double)b + 1);
        double y0 = group_mid_y(fl, ax, f->sender), y1 = group_mid_y(fl, ax, f->receiver);
        double t = lmax > 0 ? log1p((double)f->messages) / lmax : 1;
        double lw = 0.75 + 3.25 * t, alpha = 0.3 + 0.65 * t;
        if (f->sender == f->receiver) {
            /* within a group: a short tick in the slice's middle */
            double xm = (x0 + x1) / 2, half = 2 + 4 * t;
            x0 = xm - half;
            x1 = xm + half;
        }
        cairo_move_to(cr, x0, y0);
        cairo_line_to(cr, x1, y1);
        cairo_set_line_width(cr, lw + 2);
        cairo_set_source_rgba(cr, THEME.halo[0], THEME.halo[1], THEME.halo[2], THEME.halo[3] * alpha * 0.7);
        cairo_stroke_preserve(cr);
        cairo_set_line_width(cr, lw);
        sv_set_rgba(cr, flow_colour(t), 1, alpha);
        cairo_stroke(cr);
        drawn++;
    }
    cairo_restore(cr);
    free(order);
    return drawn;
}
