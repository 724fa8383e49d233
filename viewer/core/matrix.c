/* SPDX-License-Identifier: MIT */
/* matrix.c - see matrix.h. */
#include "matrix.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "theme.h"
#include "viewport.h"

static const char *const NAMES[] = {"messages", "bytes", "mean-bytes", "time", "mean-time"};
static const char *const LABELS[] = {"Messages", "Bytes", "Mean size", "Transfer time", "Mean transfer time"};

const char *sv_matrix_metric_name(sv_matrix_metric m)
{
    return m < SV_N_MATRIX_METRICS ? NAMES[m] : NAMES[0];
}

const char *sv_matrix_metric_label(sv_matrix_metric m)
{
    return m < SV_N_MATRIX_METRICS ? LABELS[m] : LABELS[0];
}

int sv_matrix_metric_parse(const char *s)
{
    for (int i = 0; i < SV_N_MATRIX_METRICS; i++)
        if (strcmp(s, NAMES[i]) == 0) return i;
    return -1;
}

int sv_matrix_value(const sv_matrix_sum *s, sv_matrix_metric m, double *v)
{
    *v = 0;
    if (!s->messages) return 0;
    switch (m) {
    case SV_MATRIX_BYTES: *v = (double)s->bytes; return 1;
    case SV_MATRIX_MEAN_BYTES: {
        uint64_t known = s->messages - s->unknown_bytes;
        if (!known) return 0;
        *v = (double)s->bytes / (double)known;
        return 1;
    }
    case SV_MATRIX_TIME: *v = (double)s->time_ns; return 1;
    case SV_MATRIX_MEAN_TIME: *v = (double)s->time_ns / (double)s->messages; return 1;
    default: *v = (double)s->messages; return 1;
    }
}

void sv_matrix_format_value(sv_matrix_metric m, double v, char *buf, size_t size)
{
    switch (m) {
    case SV_MATRIX_BYTES:
    case SV_MATRIX_MEAN_BYTES: sv_format_bytes(v, buf, size); break;
    case SV_MATRIX_TIME:
    case SV_MATRIX_MEAN_TIME: sv_format_duration(v, buf, size); break;
    default: snprintf(buf, size, "%.0f", v); break;
    }
}

/* ------------------------------------------------------------ folding */

void sv_matrix_clear(sv_matrix *m)
{
    free(m->cells);
    memset(m, 0, sizeof *m);
}

static int cmp_cell(const void *a, const void *b)
{
    const sv_matrix_cell_sum *x = a, *y = b;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

static void add_sum(sv_matrix_sum *to, const sv_matrix_sum *s)
{
    to->messages += s->messages;
    to->bytes += s->bytes;
    to->unknown_bytes += s->unknown_bytes;
    to->time_ns += s->time_ns;
}

int sv_matrix_fold(sv_matrix *m, const slog_matrix_cell *c, size_t n, uint32_t n_timelines, uint32_t max_groups)
{
    memset(m, 0, sizeof *m);
    if (!n_timelines) return 0;
    if (max_groups == 0 || max_groups > n_timelines) max_groups = n_timelines;
    uint32_t group = (uint32_t)(((uint64_t)n_timelines + max_groups - 1) / max_groups);
    m->cells = malloc((n ? n : 1) * sizeof *m->cells);
    if (!m->cells) return -1;
    m->n_timelines = n_timelines;
    m->group = group;
    m->n_groups = (uint32_t)(((uint64_t)n_timelines + group - 1) / group);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (c[i].sender >= n_timelines || c[i].receiver >= n_timelines || !c[i].messages) continue;
        sv_matrix_cell_sum *x = &m->cells[k++];
        x->sender = c[i].sender / group;
        x->receiver = c[i].receiver / group;
        x->sum = (sv_matrix_sum){c[i].messages, c[i].bytes, c[i].unknown_bytes, c[i].time_ns};
        add_sum(&m->total, &x->sum);
        m->n_pairs++;
    }
    if (k > 1) qsort(m->cells, k, sizeof *m->cells, cmp_cell);
    /* the timeline pairs of one group pair make one cell */
    size_t out = 0;
    for (size_t i = 0; i < k; i++) {
        if (out && !cmp_cell(&m->cells[out - 1], &m->cells[i]))
            add_sum(&m->cells[out - 1].sum, &m->cells[i].sum);
        else
            m->cells[out++] = m->cells[i];
    }
    m->n_cells = out;
    return 0;
}

void sv_matrix_group_range(const sv_matrix *m, uint32_t g, uint32_t *first, uint32_t *last)
{
    uint64_t a = (uint64_t)g * m->group, b = a + m->group - 1;
    if (b >= m->n_timelines) b = m->n_timelines ? m->n_timelines - 1 : 0;
    *first = (uint32_t)a;
    *last = (uint32_t)b;
}

const sv_matrix_sum *sv_matrix_cell(const sv_matrix *m, uint32_t sender_group, uint32_t receiver_group)
{
    static const sv_matrix_sum empty;
    if (sender_group >= m->n_groups || receiver_group >= m->n_groups) return NULL;
    sv_matrix_cell_sum key = {.sender = sender_group, .receiver = receiver_group};
    const sv_matrix_cell_sum *hit = m->n_cells ? bsearch(&key, m->cells, m->n_cells, sizeof *m->cells, cmp_cell) : NULL;
    return hit ? &hit->sum : &empty;
}

uint64_t sv_matrix_range(const sv_matrix *m, sv_matrix_metric metric, double *lo, double *hi, uint64_t *n_other)
{
    uint64_t n = 0, other = 0;
    *lo = *hi = 0;
    for (size_t i = 0; i < m->n_cells; i++) {
        double v;
        if (!sv_matrix_value(&m->cells[i].sum, metric, &v)) continue;
        if (!(v > 0)) {
            other++;
            continue;
        }
        if (!n || v < *lo) *lo = v;
        if (!n || v > *hi) *hi = v;
        n++;
    }
    if (n_other) *n_other = other;
    return n;
}

uint32_t sv_matrix_colour(double v, double lo, double hi)
{
    if (!(v > 0)) return SV_MATRIX_OTHER_RGBA;
    if (!(hi > lo) || !(lo > 0)) return sv_ramp_rgba(1);
    return sv_ramp_rgba((log(v) - log(lo)) / (log(hi) - log(lo)));
}

/* ------------------------------------------------------------ geometry */

#define LEFT_W   66.0 /* sender labels */
#define TOP_H    34.0 /* receiver labels */
#define LEGEND_H 58.0
#define MARGIN   10.0

void sv_matrix_geom_for(double w, double h, sv_matrix_geom *g)
{
    double side = fmin(w - LEFT_W - MARGIN, h - TOP_H - LEGEND_H - MARGIN);
    g->side = side > 1 ? floor(side) : 1;
    g->x = LEFT_W;
    g->y = TOP_H;
    g->legend_x = LEFT_W;
    g->legend_y = g->y + g->side + 12;
    g->legend_w = fmax(g->side, fmin(360, w - LEFT_W - MARGIN));
    g->legend_h = LEGEND_H - 12;
}

uint32_t sv_matrix_geom_max_groups(const sv_matrix_geom *g)
{
    return g->side >= 1 ? (uint32_t)g->side : 1;
}

/* Group k's edge: whole pixels, so cells meet without seams. */
static double edge(const sv_matrix *m, double origin, double side, uint32_t k)
{
    return origin + floor(side * k / (m->n_groups ? m->n_groups : 1));
}

int sv_matrix_hit(const sv_matrix *m, const sv_matrix_geom *g, double x, double y, uint32_t *sender_group,
                  uint32_t *receiver_group)
{
    if (!m->n_groups || x < g->x || y < g->y || x >= g->x + g->side || y >= g->y + g->side) return 0;
    uint32_t c = (uint32_t)((x - g->x) * m->n_groups / g->side), r = (uint32_t)((y - g->y) * m->n_groups / g->side);
    /* the floor()ed edges: a pixel belongs to the cell whose span holds it */
    while (c + 1 < m->n_groups && x >= edge(m, g->x, g->side, c + 1)) c++;
    while (c > 0 && x < edge(m, g->x, g->side, c)) c--;
    while (r + 1 < m->n_groups && y >= edge(m, g->y, g->side, r + 1)) r++;
    while (r > 0 && y < edge(m, g->y, g->side, r)) r--;
    *sender_group = r < m->n_groups ? r : m->n_groups - 1;
    *receiver_group = c < m->n_groups ? c : m->n_groups - 1;
    return 1;
}

void sv_matrix_cell_rect(const sv_matrix *m, const sv_matrix_geom *g, uint32_t sender_group, uint32_t receiver_group,
                         double *x, double *y, double *w, double *h)
{
    *x = edge(m, g->x, g->side, receiver_group);
    *w = edge(m, g->x, g->side, receiver_group + 1) - *x;
    *y = edge(m, g->y, g->side, sender_group);
    *h = edge(m, g->y, g->side, sender_group + 1) - *y;
}

/* ------------------------------------------------------------ drawing */

/* Axis labels: a group's first timeline id every few groups, far enough
 * apart to be read. */
static void draw_axes(cairo_t *cr, const sv_matrix *m, const sv_matrix_geom *g, const sv_theme *th)
{
    double cell = g->side / m->n_groups;
    uint32_t step = 1;
    while (cell * step < 28) step *= 2;
    sv_theme_source(cr, th->dim_text, 1);
    for (uint32_t k = 0; k < m->n_groups; k += step) {
        uint32_t a, b;
        sv_matrix_group_range(m, k, &a, &b);
        char t[24];
        snprintf(t, sizeof t, "%u", a);
        double x0 = edge(m, g->x, g->side, k), x1 = edge(m, g->x, g->side, k + 1);
        double y0 = edge(m, g->y, g->side, k), y1 = edge(m, g->y, g->side, k + 1);
        sv_draw_text(cr, t, (x0 + x1) / 2, g->y - 16, 1, 0, 8);
        sv_draw_text(cr, t, g->x - 6, (y0 + y1) / 2 - 6, 2, 0, 8);
    }
    sv_theme_source(cr, th->text, 1);
    sv_draw_text(cr, "receiver →", g->x, 2, 0, 1, 8);
    sv_draw_text(cr, "sender ↓", 4, g->y - 16, 0, 1, 8);
}

static void draw_legend(cairo_t *cr, const sv_matrix_geom *g, sv_matrix_metric metric, double lo, double hi,
                        uint64_t n_pos, uint64_t n_other, const char *caption, const sv_theme *th)
{
    double x = g->legend_x, y = g->legend_y;
    double bar_w = fmin(g->legend_w * 0.6, 240), bar_h = 10;
    sv_theme_source(cr, th->text, 1);
    if (caption) sv_draw_text_clipped(cr, caption, x, y, g->legend_w, 0, 8);
    y += 16;
    char t[64];
    snprintf(t, sizeof t, "%s%s", sv_matrix_metric_label(metric), n_pos ? " (log scale)" : ": none");
    double tw = sv_draw_text(cr, t, x, y - 1, 0, 1, 8);
    if (!n_pos) return;
    double bx = x + tw + 12;
    cairo_pattern_t *p = cairo_pattern_create_linear(bx, 0, bx + bar_w, 0);
    for (int i = 0; i <= 12; i++) {
        uint32_t c = sv_ramp_rgba(i / 12.0);
        cairo_pattern_add_color_stop_rgb(p, i / 12.0, ((c >> 24) & 255) / 255.0, ((c >> 16) & 255) / 255.0,
                                         ((c >> 8) & 255) / 255.0);
    }
    cairo_rectangle(cr, bx, y, bar_w, bar_h);
    cairo_set_source(cr, p);
    cairo_fill(cr);
    cairo_pattern_destroy(p);
    sv_theme_source(cr, th->text, 1);
    sv_matrix_format_value(metric, lo, t, sizeof t);
    sv_draw_text(cr, t, bx, y + bar_h + 2, 0, 0, 8);
    sv_matrix_format_value(metric, hi, t, sizeof t);
    sv_draw_text(cr, t, bx + bar_w, y + bar_h + 2, 2, 0, 8);
    if (n_other) {
        double ox = bx + bar_w + 16;
        sv_set_rgba(cr, SV_MATRIX_OTHER_RGBA, 1, 1);
        cairo_rectangle(cr, ox, y, bar_h, bar_h);
        cairo_fill(cr);
        sv_theme_source(cr, th->text, 1);
        sv_draw_text(cr, "≤ 0 (clocks disagree)", ox + bar_h + 4, y - 1, 0, 0, 8);
    }
}

void sv_render_matrix(cairo_t *cr, double w, double h, const sv_matrix *m, sv_matrix_metric metric, long hover_s,
                      long hover_r, const char *caption)
{
    const sv_theme *th = sv_theme_current();
    sv_matrix_geom g;
    sv_matrix_geom_for(w, h, &g);
    cairo_save(cr);
    sv_theme_source(cr, th->chrome_bg, 1);
    cairo_paint(cr);
    sv_theme_source(cr, th->bg, 1);
    cairo_rectangle(cr, g.x, g.y, g.side, g.side);
    cairo_fill(cr);
    double lo = 0, hi = 0;
    uint64_t n_other = 0, n_pos = 0;
    if (m && m->n_groups) {
        n_pos = sv_matrix_range(m, metric, &lo, &hi, &n_other);
        /* cells are opaque rectangles on whole pixels: no anti-aliased
         * seams between neighbours */
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
        for (size_t i = 0; i < m->n_cells; i++) {
            double v;
            if (!sv_matrix_value(&m->cells[i].sum, metric, &v)) continue;
            double x, y, cw, ch;
            sv_matrix_cell_rect(m, &g, m->cells[i].sender, m->cells[i].receiver, &x, &y, &cw, &ch);
            if (cw < 1) cw = 1;
            if (ch < 1) ch = 1;
            sv_set_rgba(cr, sv_matrix_colour(v, lo, hi), 1, 1);
            cairo_rectangle(cr, x, y, cw, ch);
            cairo_fill(cr);
        }
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
        if (hover_s >= 0 && hover_r >= 0 && (uint64_t)hover_s < m->n_groups && (uint64_t)hover_r < m->n_groups) {
            double x, y, cw, ch;
            sv_matrix_cell_rect(m, &g, (uint32_t)hover_s, (uint32_t)hover_r, &x, &y, &cw, &ch);
            /* the row and column of the cell, faintly, then the cell */
            sv_theme_source(cr, th->strong, 0.35);
            cairo_set_line_width(cr, 1);
            cairo_rectangle(cr, g.x + 0.5, y + 0.5, g.side - 1, fmax(ch - 1, 0));
            cairo_rectangle(cr, x + 0.5, g.y + 0.5, fmax(cw - 1, 0), g.side - 1);
            cairo_stroke(cr);
            sv_theme_source(cr, th->strong, 1);
            cairo_set_line_width(cr, 2);
            cairo_rectangle(cr, x - 1, y - 1, cw + 2, ch + 2);
            cairo_stroke(cr);
        }
        draw_axes(cr, m, &g, th);
    }
    sv_theme_source(cr, th->border, 1);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, g.x - 0.5, g.y - 0.5, g.side + 1, g.side + 1);
    cairo_stroke(cr);
    draw_legend(cr, &g, metric, lo, hi, n_pos, n_other, caption, th);
    cairo_restore(cr);
}

/* ------------------------------------------------------------ find */

typedef struct find_ctx {
    int64_t t0, t1;
    uint32_t r0, r1;
    uint32_t s0, s1;
    int found;
    sv_found *out;
} find_ctx;

static slog_cb_result find_cb(void *user, const slog_drawable *d)
{
    find_ctx *c = user;
    if (d->kind != SLOG_KIND_ARROW || d->start < c->t0 || d->start > c->t1) return SLOG_CONTINUE;
    if (d->timeline < c->s0 || d->timeline > c->s1 || d->end_timeline < c->r0 || d->end_timeline > c->r1)
        return SLOG_CONTINUE;
    if (c->found && d->start >= c->out->item.start) return SLOG_CONTINUE;
    sv_found_set(c->out, d);
    c->found = 1;
    return SLOG_CONTINUE;
}

int sv_matrix_find(slog_reader *r, int64_t t0, int64_t t1, uint32_t s0, uint32_t s1, uint32_t r0, uint32_t r1,
                   sv_cancel_fn cancel, void *cancel_user, sv_found *out, slog_error *err)
{
    const slog_file_info *fi = slog_reader_info(r);
    if (!fi->n_timelines || s0 > s1 || r0 > r1 || t0 > t1 || s0 >= fi->n_timelines) return 0;
    if (s1 >= fi->n_timelines) s1 = fi->n_timelines - 1;
    uint8_t *mask = calloc(fi->n_timelines, 1);
    if (!mask) {
        err->status = SLOG_ERR_NOMEM;
        snprintf(err->message, sizeof err->message, "out of memory");
        return SLOG_ERR_NOMEM;
    }
    memset(mask + s0, 1, (size_t)(s1 - s0) + 1);
    memset(out, 0, sizeof *out);
    find_ctx c = {.t0 = t0, .t1 = t1, .r0 = r0, .r1 = r1, .s0 = s0, .s1 = s1, .out = out};
    int64_t span = fi->t_max - fi->t_min;
    int64_t w = span / 1024 > 1000 ? span / 1024 : 1000;
    int64_t edge_t = t0;
    int rc = 0;
    for (;;) {
        if (cancel && cancel(cancel_user)) break;
        if (edge_t > t1) break;
        slog_query q = {.t0 = edge_t, .t1 = w > t1 - edge_t ? t1 : edge_t + w, .timelines = mask};
        q.flags = SLOG_QUERY_NO_PREVIEW;
        slog_status s = slog_reader_query(r, &q, find_cb, NULL, &c, NULL, err);
        if (s != SLOG_OK) {
            rc = s;
            break;
        }
        /* a message of a later window starts later: the first hit wins */
        if (c.found) {
            rc = 1;
            break;
        }
        if (q.t1 >= t1) break;
        edge_t = q.t1 + 1;
        if (w < INT64_MAX / 4) w *= 2;
    }
    free(mask);
    return rc;
}

/* ------------------------------------------------------------ CSV */

int sv_matrix_write_csv(FILE *f, const slog_matrix_cell *c, size_t n)
{
    fprintf(f, "sender,receiver,messages,bytes,time_s,mean_bytes,mean_time_s,unknown_bytes\n");
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%u,%u,%" PRIu64 ",%" PRIu64 ",%.9f", c[i].sender, c[i].receiver, c[i].messages, c[i].bytes,
                (double)c[i].time_ns / 1e9);
        uint64_t known = c[i].messages - c[i].unknown_bytes;
        if (known)
            fprintf(f, ",%.3f,", (double)c[i].bytes / (double)known);
        else
            fprintf(f, ",,");
        fprintf(f, "%.9f,%" PRIu64 "\n", (double)c[i].time_ns / (double)c[i].messages / 1e9, c[i].unknown_bytes);
    }
    return ferror(f) ? -1 : 0;
}
