/* SPDX-License-Identifier: MIT */
/* analysis.c - see analysis.h. */
#include "analysis.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct span {
    int64_t s, e;
    uint32_t tl;
} span;

typedef struct stats_ctx {
    sv_range_stats *st;
    const slog_reader *r;
    span *spans;
    size_t n_spans, cap_spans;
    int failed, cancelled;
    sv_cancel_fn cancel;
    void *cancel_user;
    unsigned tick;
} stats_ctx;

static int bytes_field(const slog_category *c)
{
    for (uint32_t i = 0; i < c->n_fields; i++)
        if (c->field_types[i] == SLOG_FIELD_BYTES) return (int)i;
    return -1;
}

static slog_cb_result stats_cb(void *user, const slog_drawable *d)
{
    stats_ctx *c = user;
    sv_range_stats *st = c->st;
    if (c->cancel && (++c->tick & 1023) == 0 && c->cancel(c->cancel_user)) {
        c->cancelled = 1;
        return SLOG_STOP;
    }
    if (d->category >= st->n_categories || d->timeline >= st->n_timelines) return SLOG_CONTINUE;
    if (d->kind == SLOG_KIND_STATE) {
        int64_t s = d->start > st->t0 ? d->start : st->t0;
        int64_t e = d->end < st->t1 ? d->end : st->t1;
        if (e < s) return SLOG_CONTINUE;
        /* saturating: clipped states of several timelines can sum past
         * 2^63 in a crafted file whose span nears 2^62 ns */
        int64_t *ns = &st->cat_ns[d->category];
        *ns = e - s > INT64_MAX - *ns ? INT64_MAX : *ns + (e - s);
        st->cat_count[d->category]++;
        if (c->n_spans == c->cap_spans) {
            size_t n = c->cap_spans ? c->cap_spans * 2 : 1024;
            span *p = realloc(c->spans, n * sizeof *p);
            if (!p) {
                c->failed = 1;
                return SLOG_STOP;
            }
            c->spans = p;
            c->cap_spans = n;
        }
        c->spans[c->n_spans++] = (span){s, e, d->timeline};
        return SLOG_CONTINUE;
    }
    /* arrows and events count where they start (the send side) */
    if (d->start < st->t0 || d->start > st->t1) return SLOG_CONTINUE;
    st->cat_count[d->category]++;
    if (d->kind == SLOG_KIND_ARROW) {
        st->n_messages++;
        st->tl_messages[d->timeline]++;
        int f = bytes_field(slog_reader_category(c->r, d->category));
        if (f >= 0 && (uint32_t)f < d->n_info && d->info[f] != SLOG_INFO_UNKNOWN && d->info[f] >= 0)
            st->msg_bytes += (uint64_t)d->info[f];
        else
            st->n_unknown_bytes++;
    }
    return SLOG_CONTINUE;
}

static int cmp_span(const void *a, const void *b)
{
    const span *x = a, *y = b;
    if (x->tl != y->tl) return x->tl < y->tl ? -1 : 1;
    return x->s < y->s ? -1 : x->s > y->s;
}

void sv_range_stats_clear(sv_range_stats *st)
{
    free(st->cat_ns);
    free(st->cat_count);
    free(st->tl_busy_ns);
    free(st->tl_messages);
    memset(st, 0, sizeof *st);
}

slog_status sv_range_stats_compute(slog_reader *r, int64_t t0, int64_t t1, const uint8_t *timelines,
                                   sv_cancel_fn cancel, void *cancel_user, sv_range_stats *st, slog_error *err)
{
    const slog_file_info *fi = slog_reader_info(r);
    memset(st, 0, sizeof *st);
    st->t0 = t0 < t1 ? t0 : t1;
    st->t1 = t0 < t1 ? t1 : t0;
    st->n_categories = fi->n_categories;
    st->n_timelines = fi->n_timelines;
    st->cat_ns = calloc(fi->n_categories + 1, sizeof(int64_t));
    st->cat_count = calloc(fi->n_categories + 1, sizeof(uint64_t));
    st->tl_busy_ns = calloc(fi->n_timelines + 1, sizeof(int64_t));
    st->tl_messages = calloc(fi->n_timelines + 1, sizeof(uint64_t));
    stats_ctx c = {.st = st, .r = r, .cancel = cancel, .cancel_user = cancel_user};
    if (!st->cat_ns || !st->cat_count || !st->tl_busy_ns || !st->tl_messages) goto nomem;
    slog_query q = {.t0 = st->t0, .t1 = st->t1, .timelines = timelines, .pixel_ns = 0, .flags = SLOG_QUERY_NO_PREVIEW};
    slog_status s = slog_reader_query(r, &q, stats_cb, NULL, &c, &st->qstats, err);
    if (c.failed) goto nomem;
    if (s != SLOG_OK || c.cancelled) {
        free(c.spans);
        sv_range_stats_clear(st);
        return s != SLOG_OK ? s : SLOG_ERR_ARG;
    }
    /* busy time per timeline: the union of its (clipped) state intervals,
     * so nested states are not counted twice */
    qsort(c.spans, c.n_spans, sizeof(span), cmp_span);
    for (size_t i = 0; i < c.n_spans;) {
        uint32_t tl = c.spans[i].tl;
        int64_t cs = c.spans[i].s, ce = c.spans[i].e;
        size_t j = i + 1;
        for (; j < c.n_spans && c.spans[j].tl == tl; j++) {
            if (c.spans[j].s > ce) {
                st->tl_busy_ns[tl] += ce - cs;
                cs = c.spans[j].s;
                ce = c.spans[j].e;
            } else if (c.spans[j].e > ce) {
                ce = c.spans[j].e;
            }
        }
        st->tl_busy_ns[tl] += ce - cs;
        i = j;
    }
    free(c.spans);
    return SLOG_OK;
nomem:
    free(c.spans);
    sv_range_stats_clear(st);
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = SLOG_ERR_NOMEM;
        err->offset = SLOG_NO_OFFSET;
        strcpy(err->message, "out of memory computing range statistics");
    }
    return SLOG_ERR_NOMEM;
}

/* ------------------------------------------------------------ search */

int sv_search_parse(const char *text, sv_search *out)
{
    memset(out, 0, sizeof *out);
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *b = p;
        while (*p && !isspace((unsigned char)*p)) p++;
        size_t len = (size_t)(p - b);
        if (out->n_terms == SV_SEARCH_MAX_TERMS || len >= sizeof out->terms[0].text) return -1;
        char tok[96];
        memcpy(tok, b, len);
        tok[len] = 0;
        char *eq = strchr(tok, '=');
        sv_search_term *t = &out->terms[out->n_terms];
        if (eq) {
            *eq = 0;
            const char *v = eq + 1;
            if (!*tok || !*v) return -1;
            errno = 0;
            char *end;
            long long x = strtoll(v, &end, 0);
            if (errno || *end) return -1;
            t->is_field = 1;
            t->value = x;
        }
        strcpy(t->text, tok);
        out->n_terms++;
    }
    return out->n_terms > 0 ? 0 : -1;
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return n == 0;
}

int sv_search_match(const sv_search *q, const slog_reader *r, const slog_drawable *d)
{
    const slog_category *c = slog_reader_category(r, d->category);
    if (!c) return 0;
    for (int i = 0; i < q->n_terms; i++) {
        if (!q->terms[i].is_field) {
            if (!contains_ci(c->name, q->terms[i].text)) return 0;
            continue;
        }
        int ok = 0;
        for (uint32_t f = 0; f < c->n_fields && f < d->n_info; f++)
            if (strcasecmp(c->field_names[f], q->terms[i].text) == 0 && d->info[f] == q->terms[i].value) ok = 1;
        if (!ok) return 0;
    }
    return 1;
}

typedef struct find_ctx {
    const sv_search *q;
    const slog_reader *r;
    int64_t from;
    int dir;
    int found;
    sv_found *out;
} find_ctx;

static slog_cb_result find_cb(void *user, const slog_drawable *d)
{
    find_ctx *c = user;
    if (c->dir > 0 ? d->start <= c->from : d->start >= c->from) return SLOG_CONTINUE;
    if (c->found && (c->dir > 0 ? d->start >= c->out->item.start : d->start <= c->out->item.start))
        return SLOG_CONTINUE;
    if (!sv_search_match(c->q, c->r, d)) return SLOG_CONTINUE;
    sv_item *it = &c->out->item;
    it->start = d->start;
    it->end = d->end;
    it->category = d->category;
    it->timeline = d->timeline;
    it->end_timeline = d->end_timeline;
    it->kind = (uint8_t)d->kind;
    it->depth = 0;
    it->info_off = 0;
    it->n_info = (uint16_t)(d->n_info < SLOG_MAX_FIELDS ? d->n_info : SLOG_MAX_FIELDS);
    memcpy(c->out->info, d->info, sizeof(int64_t) * it->n_info);
    c->found = 1;
    return SLOG_CONTINUE;
}

int sv_search_find(slog_reader *r, const sv_search *q, int64_t from, int dir, sv_cancel_fn cancel, void *cancel_user,
                   sv_found *out, slog_error *err)
{
    const slog_file_info *fi = slog_reader_info(r);
    int64_t span = fi->t_max - fi->t_min;
    int64_t w = span / 1024 > 1000 ? span / 1024 : 1000;
    find_ctx c = {.q = q, .r = r, .from = from, .dir = dir, .out = out};
    int64_t edge = from;
    for (;;) {
        if (cancel && cancel(cancel_user)) return 0;
        slog_query qu = {0};
        qu.flags = SLOG_QUERY_NO_PREVIEW;
        if (dir > 0) {
            if (edge > fi->t_max) return 0;
            qu.t0 = edge;
            qu.t1 = edge + w;
        } else {
            if (edge < fi->t_min) return c.found;
            qu.t0 = edge - w;
            qu.t1 = edge;
        }
        slog_status s = slog_reader_query(r, &qu, find_cb, NULL, &c, NULL, err);
        if (s != SLOG_OK) return s;
        /* Backward, a hit that started before this window (a long state)
         * may still be beaten by something inside the next one. */
        if (c.found && (dir > 0 || out->item.start >= qu.t0)) return 1;
        edge = dir > 0 ? qu.t1 + 1 : qu.t0 - 1;
        if (w < INT64_MAX / 4) w *= 2;
    }
}
