/* SPDX-License-Identifier: MIT */
/* density.c - see density.h. */
#include "density.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewport.h"

int sv_msg_filter_item(const sv_search_bound *f, const sv_scene *s, const sv_item *it)
{
    if (!f || it->kind != SLOG_KIND_ARROW) return 1;
    return sv_search_bound_match(f, it->kind, it->category, it->timeline, it->end_timeline, it->start, it->end,
                                 it->n_info ? s->info + it->info_off : NULL, it->n_info);
}

void sv_density_clear(sv_density *d)
{
    free(d->drawn);
    free(d->folded);
    memset(d, 0, sizeof *d);
}

void sv_density_free(sv_density *d)
{
    if (!d) return;
    sv_density_clear(d);
    free(d);
}

static int density_alloc(sv_density *d, uint32_t tl_first, uint32_t n_timelines, int width)
{
    size_t n = (size_t)n_timelines * (size_t)width;
    d->drawn = calloc(n + 1, sizeof(float));
    d->folded = calloc(n + 1, sizeof(float));
    if (!d->drawn || !d->folded) {
        sv_density_clear(d);
        return -1;
    }
    d->width = width;
    d->tl_first = tl_first;
    d->n_timelines = n_timelines;
    return 0;
}

typedef struct scan_ctx {
    const sv_search_bound *f;
    const uint8_t *visible;
    uint32_t n_categories;
    sv_density *d;
    double t0, pixel_ns;
    uint64_t seen, budget;
    sv_cancel_fn cancel;
    void *cancel_user;
    int stopped;
} scan_ctx;

static slog_cb_result scan_cb(void *user, const slog_drawable *dr)
{
    scan_ctx *c = user;
    if (++c->seen > c->budget || (c->cancel && (c->seen & 4095) == 0 && c->cancel(c->cancel_user))) {
        c->stopped = 1;
        return SLOG_STOP;
    }
    if (dr->kind != SLOG_KIND_ARROW || dr->timeline - c->d->tl_first >= c->d->n_timelines) return SLOG_CONTINUE;
    if (c->visible && (dr->category >= c->n_categories || !c->visible[dr->category])) return SLOG_CONTINUE;
    double x = ((double)dr->start - c->t0) / c->pixel_ns;
    if (!(x >= 0 && x < c->d->width)) return SLOG_CONTINUE;
    if (!sv_search_bound_match(c->f, dr->kind, dr->category, dr->timeline, dr->end_timeline, dr->start, dr->end,
                               dr->info, dr->n_info))
        return SLOG_CONTINUE;
    c->d->drawn[(size_t)(dr->timeline - c->d->tl_first) * (size_t)c->d->width + (size_t)x] += 1;
    c->d->n_drawn++;
    return SLOG_CONTINUE;
}

sv_density *sv_density_scan(slog_reader *r, const sv_search_bound *f, double t0, double t1, int width,
                            const uint8_t *want, const uint8_t *visible, uint64_t budget, sv_cancel_fn cancel,
                            void *cancel_user, slog_error *err)
{
    if (err) memset(err, 0, sizeof *err);
    const slog_file_info *fi = slog_reader_info(r);
    if (width <= 0 || !(t1 > t0) || !fi->n_timelines) return NULL;
    /* the wanted timelines' span */
    uint32_t a = 0, b = fi->n_timelines;
    if (want) {
        while (a < b && !want[a]) a++;
        while (b > a && !want[b - 1]) b--;
    }
    sv_density *d = calloc(1, sizeof *d);
    if (!d || density_alloc(d, a, b - a, width)) {
        free(d);
        return NULL;
    }
    scan_ctx c = {.f = f,
                  .visible = visible,
                  .n_categories = fi->n_categories,
                  .d = d,
                  .t0 = t0,
                  .pixel_ns = (t1 - t0) / width,
                  .budget = budget,
                  .cancel = cancel,
                  .cancel_user = cancel_user};
    slog_query q = {
        .t0 = (int64_t)floor(t0), .t1 = (int64_t)ceil(t1), .timelines = want, .flags = SLOG_QUERY_NO_PREVIEW};
    slog_status st = slog_reader_query(r, &q, scan_cb, NULL, &c, NULL, err);
    if (st != SLOG_OK || c.stopped) {
        sv_density_free(d);
        return NULL;
    }
    size_t n = (size_t)d->n_timelines * (size_t)width;
    for (size_t i = 0; i < n; i++)
        if (d->drawn[i] > d->max) d->max = d->drawn[i];
    return d;
}

int sv_density_build(sv_density *d, const sv_scene *s, const sv_palette *pal)
{
    memset(d, 0, sizeof *d);
    if (!s || s->width <= 0 || !s->n_timelines || s->pixel_ns <= 0) return 0;
    /* the span of the timelines that hold messages */
    uint32_t a = s->n_timelines, b = 0;
    for (size_t k = 0; k < s->n_items; k++) {
        const sv_item *it = &s->items[k];
        if (it->kind != SLOG_KIND_ARROW || it->timeline >= s->n_timelines) continue;
        if (it->timeline < a) a = it->timeline;
        if (it->timeline >= b) b = it->timeline + 1;
    }
    for (size_t k = 0; k < s->n_slots; k++) {
        uint32_t cat = s->slot_cat[k], tl = s->slot_tl[k];
        if (cat >= pal->n || pal->kind[cat] != SLOG_KIND_ARROW || tl >= s->n_timelines) continue;
        if (tl < a) a = tl;
        if (tl >= b) b = tl + 1;
    }
    if (b <= a) a = b = 0;
    size_t n = (size_t)(b - a) * (size_t)s->width;
    if (density_alloc(d, a, b - a, s->width)) return -1;
    for (size_t k = 0; k < s->n_items; k++) {
        const sv_item *it = &s->items[k];
        if (it->kind != SLOG_KIND_ARROW || it->timeline >= s->n_timelines) continue;
        if (it->category < pal->n && !pal->visible[it->category]) continue;
        if (!sv_msg_filter_item(pal->msg_filter, s, it)) continue;
        double x = ((double)it->start - s->t0) / s->pixel_ns;
        if (!(x >= 0 && x < s->width)) continue;
        d->drawn[(size_t)(it->timeline - a) * (size_t)s->width + (size_t)x] += 1;
        d->n_drawn++;
    }
    for (size_t k = 0; k < s->n_slots; k++) {
        uint32_t cat = s->slot_cat[k], tl = s->slot_tl[k];
        if (cat >= pal->n || pal->kind[cat] != SLOG_KIND_ARROW || !pal->visible[cat] || tl >= s->n_timelines) continue;
        /* a category the filter's name terms or fields rule out contributes
         * nothing, folded or not */
        if (pal->msg_filter && !sv_search_bound_category(pal->msg_filter, cat)) continue;
        const float *c = s->cols + k * (size_t)s->width;
        float *o = d->folded + (size_t)(tl - a) * (size_t)s->width;
        for (int i = 0; i < s->width; i++) {
            o[i] += c[i];
            d->n_folded += c[i];
        }
    }
    d->folded_unfiltered = pal->msg_filter && d->n_folded > 0;
    for (size_t i = 0; i < n; i++)
        if (d->drawn[i] + d->folded[i] > d->max) d->max = d->drawn[i] + d->folded[i];
    return 0;
}

typedef struct share {
    uint32_t cat;
    int state;
    float v;
} share;

/* states first, by their share of the time, then the counts */
static int cmp_share(const void *a, const void *b)
{
    const share *x = a, *y = b;
    if (x->state != y->state) return x->state ? -1 : 1;
    if (x->v != y->v) return x->v > y->v ? -1 : 1;
    return x->cat < y->cat ? -1 : x->cat > y->cat;
}

int sv_column_describe(const sv_scene *s, const sv_palette *pal, const char *const *names, const sv_density *dens,
                       double offset, uint32_t timeline, int column, char *buf, size_t size)
{
    if (size) buf[0] = 0;
    if (!s || !size || timeline >= s->n_timelines || column < 0 || column >= s->width || !s->tl_first_slot) return -1;
    size_t a = s->tl_first_slot[timeline], b = s->tl_first_slot[timeline + 1];
    share *sh = malloc(sizeof *sh * (b - a + 1));
    if (!sh) return -1;
    size_t n = 0;
    for (size_t k = a; k < b; k++) {
        uint32_t cat = s->slot_cat[k];
        float v = s->cols[k * (size_t)s->width + (size_t)column];
        /* folded messages are told in the messages line */
        if (dens && cat < pal->n && pal->kind[cat] == SLOG_KIND_ARROW) continue;
        if (cat < pal->n && pal->visible[cat] && v > 0.0005f)
            sh[n++] = (share){cat, pal->kind[cat] == SLOG_KIND_STATE, v};
    }
    float drawn = 0, folded = 0;
    if (dens && dens->drawn && timeline - dens->tl_first < dens->n_timelines && column < dens->width) {
        size_t at = (size_t)(timeline - dens->tl_first) * (size_t)dens->width + (size_t)column;
        drawn = dens->drawn[at];
        folded = dens->folded[at];
    }
    if (!n && folded <= 0) {
        free(sh);
        return -1;
    }
    qsort(sh, n, sizeof *sh, cmp_share);
    char t0[32], t1[32], w[32];
    double c0 = s->t0 + column * s->pixel_ns;
    sv_format_time((int64_t)llround(c0 + offset), t0, sizeof t0);
    sv_format_time((int64_t)llround(c0 + s->pixel_ns + offset), t1, sizeof t1);
    sv_format_duration(s->pixel_ns, w, sizeof w);
    size_t len = (size_t)snprintf(buf, size, "%s – %s (%s, one pixel)", t0, t1, w);
    for (size_t i = 0; i < n && len < size; i++) {
        const char *name = names && names[sh[i].cat] ? names[sh[i].cat] : "?";
        if (sh[i].state && sh[i].v < 0.005f)
            len += (size_t)snprintf(buf + len, size - len, "\n%s: < 1 %% of the time", name);
        else if (sh[i].state)
            len += (size_t)snprintf(buf + len, size - len, "\n%s: %.0f %% of the time", name, sh[i].v * 100.0);
        else
            len += (size_t)snprintf(buf + len, size - len, "\n%s: %.0f", name, (double)sh[i].v);
    }
    if (len < size && (drawn > 0 || folded > 0))
        snprintf(buf + len, size - len, "\nmessages sent: %.0f drawn, %.0f folded%s", (double)drawn, (double)folded,
                 dens->folded_unfiltered ? " (not filtered: zoom in)" : "");
    free(sh);
    return 0;
}

const sv_density *sv_density_for(const sv_scene *s, const sv_palette *pal, sv_density *tmp, int *show)
{
    *show = 0;
    if (sv_density_build(tmp, s, pal)) return NULL;
    *show = tmp->n_folded > 0 || tmp->n_drawn > SV_DENSITY_ARROWS;
    if (pal->msg_filter && s->msg_density && s->msg_filter_gen == pal->msg_filter_gen &&
        s->msg_density->width == s->width &&
        (uint64_t)s->msg_density->tl_first + s->msg_density->n_timelines <= s->n_timelines)
        return s->msg_density;
    return tmp;
}
