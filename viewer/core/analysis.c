/* SPDX-License-Identifier: MIT */
/* analysis.c - see analysis.h. */
#include "analysis.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
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

static int fail(sv_search_error *e, int pos, const char *fmt, const char *arg)
{
    if (e) {
        e->pos = pos;
        snprintf(e->message, sizeof e->message, fmt, arg ? arg : "");
    }
    return -1;
}

/* Multipliers of the units a value may carry: times to ns, sizes to bytes. */
static const struct {
    const char *unit;
    double mult;
} UNITS[] = {
    {"", 1},         {"ns", 1},           {"us", 1e3},           {"\xc2\xb5s", 1e3},   {"ms", 1e6},    {"s", 1e9},
    {"b", 1},        {"k", 1024.0},       {"kib", 1024.0},       {"kb", 1024.0},       {"m", 1048576}, {"mib", 1048576},
    {"mb", 1048576}, {"g", 1073741824.0}, {"gib", 1073741824.0}, {"gb", 1073741824.0},
};

/* v: a value of token text starting at byte `pos` of the query. */
static int parse_value(const char *v, int pos, int64_t *out, sv_search_error *e)
{
    errno = 0;
    char *end;
    long long x = strtoll(v, &end, 0);
    if (end == v && *v != '.') return fail(e, pos, "\"%s\" is not a number", v);
    if (errno) return fail(e, pos, "%s is out of range", v);
    double d = (double)x;
    const char *unit = end;
    if (*end == '.' || *end == 'e' || *end == 'E') {
        errno = 0;
        d = strtod(v, &end);
        if (end == v || errno) return fail(e, pos, "\"%s\" is not a number", v);
        unit = end;
    }
    for (size_t i = 0; i < sizeof UNITS / sizeof UNITS[0]; i++) {
        if (strcasecmp(unit, UNITS[i].unit) != 0) continue;
        if (!*unit && unit == v + strlen(v) && d == (double)x) {
            *out = x; /* exact: integers beyond 2^53 stay exact */
            return 0;
        }
        double r = d * UNITS[i].mult;
        if (!(r > -9.2e18 && r < 9.2e18)) return fail(e, pos, "%s is out of range", v);
        *out = (int64_t)llround(r);
        return 0;
    }
    return fail(e, pos + (int)(unit - v), "unknown unit \"%s\" (ns us ms s, k M G)", unit);
}

int sv_search_parse_ex(const char *text, sv_search *out, sv_search_error *e)
{
    memset(out, 0, sizeof *out);
    if (e) memset(e, 0, sizeof *e);
    const char *p = text;
    while (*p) {
        while (*p && isspace((unsigned char)*p)) p++;
        if (!*p) break;
        const char *b = p;
        int pos = (int)(b - text);
        while (*p && !isspace((unsigned char)*p)) p++;
        size_t len = (size_t)(p - b);
        if (out->n_terms == SV_SEARCH_MAX_TERMS) return fail(e, pos, "more than %s terms", "8");
        if (len >= sizeof out->terms[0].text) return fail(e, pos, "a term longer than %s characters", "95");
        char tok[96];
        memcpy(tok, b, len);
        tok[len] = 0;
        sv_search_term *t = &out->terms[out->n_terms];
        size_t o = strcspn(tok, "<>=!");
        if (tok[o]) {
            static const struct {
                const char *s;
                uint8_t op;
            } OPS[] = {{"==", SV_OP_EQ}, {"!=", SV_OP_NE}, {"<=", SV_OP_LE}, {">=", SV_OP_GE},
                       {"=", SV_OP_EQ},  {"<", SV_OP_LT},  {">", SV_OP_GT}};
            size_t n_op = 0;
            for (size_t i = 0; i < sizeof OPS / sizeof OPS[0] && !n_op; i++)
                if (strncmp(tok + o, OPS[i].s, strlen(OPS[i].s)) == 0) {
                    n_op = strlen(OPS[i].s);
                    t->op = OPS[i].op;
                }
            char ops[3] = {tok[o], 0, 0};
            if (!n_op) return fail(e, pos + (int)o, "\"%s\" is not a comparison (= != < <= > >=)", ops);
            if (n_op == 2) ops[1] = tok[o + 1];
            if (o == 0) return fail(e, pos, "no field name before \"%s\"", ops);
            const char *v = tok + o + n_op;
            if (!*v) return fail(e, pos + (int)len, "no value after \"%s\"", ops);
            if (strcspn(v, "<>=!") != strlen(v))
                return fail(e, pos + (int)(o + n_op + strcspn(v, "<>=!")), "a second comparison in \"%s\"", tok);
            if (parse_value(v, pos + (int)(o + n_op), &t->value, e)) return -1;
            tok[o] = 0;
            t->is_field = 1;
            t->subject = strcasecmp(tok, "duration") == 0 ? SV_SUBJ_DURATION : SV_SUBJ_FIELD;
        }
        strcpy(t->text, tok);
        out->n_terms++;
    }
    if (out->n_terms == 0) return fail(e, 0, "an empty query", NULL);
    return 0;
}

int sv_search_parse(const char *text, sv_search *out)
{
    return sv_search_parse_ex(text, out, NULL);
}

static int contains_ci(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0) return 1;
    return n == 0;
}

static int compare(uint8_t op, int64_t a, int64_t b)
{
    switch (op) {
    case SV_OP_EQ: return a == b;
    case SV_OP_NE: return a != b;
    case SV_OP_LT: return a < b;
    case SV_OP_LE: return a <= b;
    case SV_OP_GT: return a > b;
    default: return a >= b;
    }
}

/* field index per (category, term): a field, or one of these */
#define FIELD_NONE (-1)
#define FIELD_PEER (-2)

struct sv_search_bound {
    sv_search q;
    uint32_t n_categories, n_timelines;
    uint8_t *cat_ok; /* name terms hold and every field term has a field */
    int16_t *field;  /* n_categories * n_terms */
    int64_t *rank;   /* per timeline */
};

sv_search_bound *sv_search_bind(const sv_search *q, const slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    sv_search_bound *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->q = *q;
    b->n_categories = fi->n_categories;
    b->n_timelines = fi->n_timelines;
    b->cat_ok = calloc((size_t)fi->n_categories + 1, 1);
    b->field = calloc(((size_t)fi->n_categories + 1) * (SV_SEARCH_MAX_TERMS), sizeof(int16_t));
    b->rank = calloc((size_t)fi->n_timelines + 1, sizeof(int64_t));
    if (!b->cat_ok || !b->field || !b->rank) {
        sv_search_bound_free(b);
        return NULL;
    }
    for (uint32_t t = 0; t < fi->n_timelines; t++) {
        const slog_timeline *tl = slog_reader_timeline(r, t);
        b->rank[t] = tl ? tl->rank : t;
    }
    for (uint32_t c = 0; c < fi->n_categories; c++) {
        const slog_category *cat = slog_reader_category(r, c);
        int ok = cat != NULL;
        for (int i = 0; ok && i < q->n_terms; i++) {
            const sv_search_term *t = &q->terms[i];
            int16_t *f = &b->field[(size_t)c * SV_SEARCH_MAX_TERMS + (size_t)i];
            *f = FIELD_NONE;
            if (t->subject == SV_SUBJ_NAME) {
                ok = contains_ci(cat->name, t->text);
                continue;
            }
            if (t->subject == SV_SUBJ_DURATION) continue;
            for (uint32_t k = 0; k < cat->n_fields && *f == FIELD_NONE && k < 32767; k++)
                if (strcasecmp(cat->field_names[k], t->text) == 0) *f = (int16_t)k;
            for (uint32_t k = 0; k < cat->n_fields && *f == FIELD_NONE && k < 32767; k++)
                if (strcasecmp(t->text, "bytes") == 0 && cat->field_types[k] == SLOG_FIELD_BYTES) *f = (int16_t)k;
            if (*f == FIELD_NONE && strcasecmp(t->text, "peer") == 0 && cat->kind == SLOG_KIND_ARROW) *f = FIELD_PEER;
            ok = *f != FIELD_NONE;
        }
        b->cat_ok[c] = (uint8_t)ok;
    }
    return b;
}

void sv_search_bound_free(sv_search_bound *b)
{
    if (!b) return;
    free(b->cat_ok);
    free(b->field);
    free(b->rank);
    free(b);
}

const sv_search *sv_search_bound_query(const sv_search_bound *b)
{
    return &b->q;
}

int sv_search_bound_category(const sv_search_bound *b, uint32_t category)
{
    return category < b->n_categories && b->cat_ok[category];
}

int sv_search_bound_match(const sv_search_bound *b, uint32_t kind, uint32_t category, uint32_t timeline,
                          uint32_t end_timeline, int64_t start, int64_t end, const int64_t *info, uint32_t n_info)
{
    if (category >= b->n_categories || !b->cat_ok[category]) return 0;
    const int16_t *fs = b->field + (size_t)category * SV_SEARCH_MAX_TERMS;
    for (int i = 0; i < b->q.n_terms; i++) {
        const sv_search_term *t = &b->q.terms[i];
        if (t->subject == SV_SUBJ_NAME) continue;
        if (t->subject == SV_SUBJ_DURATION) {
            /* saturating: a crafted file's times may lie 2^63 apart */
            int64_t d = end >= start ? (start < 0 && end > INT64_MAX + start ? INT64_MAX : end - start)
                                     : (end < 0 && start > INT64_MAX + end ? INT64_MAX : start - end);
            if (!compare(t->op, d, t->value)) return 0;
            continue;
        }
        if (fs[i] == FIELD_PEER) {
            (void)kind;
            int a = timeline < b->n_timelines && compare(t->op, b->rank[timeline], t->value);
            int z = end_timeline < b->n_timelines && compare(t->op, b->rank[end_timeline], t->value);
            if (!a && !z) return 0;
            continue;
        }
        if (fs[i] < 0 || (uint32_t)fs[i] >= n_info || !info || info[fs[i]] == SLOG_INFO_UNKNOWN) return 0;
        if (!compare(t->op, info[fs[i]], t->value)) return 0;
    }
    return 1;
}

int sv_search_match(const sv_search *q, const slog_reader *r, const slog_drawable *d)
{
    sv_search_bound *b = sv_search_bind(q, r);
    int m = b && sv_search_bound_match(b, d->kind, d->category, d->timeline, d->end_timeline, d->start, d->end, d->info,
                                       d->n_info);
    sv_search_bound_free(b);
    return m;
}

typedef struct find_ctx {
    const sv_search_bound *b;
    int64_t from;
    int dir;
    int found;
    sv_found *out;
} find_ctx;

void sv_found_set(sv_found *out, const slog_drawable *d)
{
    sv_item *it = &out->item;
    it->start = d->start;
    it->end = d->end;
    it->category = d->category;
    it->timeline = d->timeline;
    it->end_timeline = d->end_timeline;
    it->kind = (uint8_t)d->kind;
    it->depth = 0;
    it->info_off = 0;
    it->n_info = (uint16_t)(d->n_info < SLOG_MAX_FIELDS ? d->n_info : SLOG_MAX_FIELDS);
    if (d->info && it->n_info) memcpy(out->info, d->info, sizeof(int64_t) * it->n_info);
}

static slog_cb_result find_cb(void *user, const slog_drawable *d)
{
    find_ctx *c = user;
    if (c->dir > 0 ? d->start <= c->from : d->start >= c->from) return SLOG_CONTINUE;
    if (c->found && (c->dir > 0 ? d->start >= c->out->item.start : d->start <= c->out->item.start))
        return SLOG_CONTINUE;
    if (!sv_search_bound_match(c->b, d->kind, d->category, d->timeline, d->end_timeline, d->start, d->end, d->info,
                               d->n_info))
        return SLOG_CONTINUE;
    sv_found_set(c->out, d);
    c->found = 1;
    return SLOG_CONTINUE;
}

static int find_bound(slog_reader *r, const sv_search_bound *b, int64_t from, int dir, sv_cancel_fn cancel,
                      void *cancel_user, sv_found *out, slog_error *err)
{
    const slog_file_info *fi = slog_reader_info(r);
    int64_t span = fi->t_max - fi->t_min;
    int64_t w = span / 1024 > 1000 ? span / 1024 : 1000;
    find_ctx c = {.b = b, .from = from, .dir = dir, .out = out};
    int64_t edge = from;
    for (;;) {
        if (cancel && cancel(cancel_user)) return 0;
        slog_query qu = {0};
        qu.flags = SLOG_QUERY_NO_PREVIEW;
        if (dir > 0) {
            if (edge > fi->t_max) return 0;
            qu.t0 = edge;
            qu.t1 = edge > INT64_MAX - w ? INT64_MAX : edge + w;
        } else {
            if (edge < fi->t_min) return c.found;
            qu.t0 = edge < INT64_MIN + w ? INT64_MIN : edge - w;
            qu.t1 = edge;
        }
        slog_status s = slog_reader_query(r, &qu, find_cb, NULL, &c, NULL, err);
        if (s != SLOG_OK) return s;
        /* Backward, a hit that started before this window (a long state)
         * may still be beaten by something inside the next one. */
        if (c.found && (dir > 0 || out->item.start >= qu.t0)) return 1;
        if (dir > 0 ? qu.t1 == INT64_MAX : qu.t0 == INT64_MIN) return c.found;
        edge = dir > 0 ? qu.t1 + 1 : qu.t0 - 1;
        if (w < INT64_MAX / 4) w *= 2;
    }
}

int sv_search_find(slog_reader *r, const sv_search *q, int64_t from, int dir, sv_cancel_fn cancel, void *cancel_user,
                   sv_found *out, slog_error *err)
{
    sv_search_bound *b = sv_search_bind(q, r);
    if (!b) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = SLOG_ERR_NOMEM;
            err->offset = SLOG_NO_OFFSET;
            strcpy(err->message, "out of memory for a search");
        }
        return SLOG_ERR_NOMEM;
    }
    int rc = find_bound(r, b, from, dir, cancel, cancel_user, out, err);
    sv_search_bound_free(b);
    return rc;
}

typedef struct count_ctx {
    const sv_search_bound *b;
    int64_t t0, t1, at;
    uint64_t total, before, seen;
    sv_cancel_fn cancel;
    void *cancel_user;
    int cancelled;
} count_ctx;

static slog_cb_result count_cb(void *user, const slog_drawable *d)
{
    count_ctx *c = user;
    if (c->cancel && (++c->seen & 4095) == 0 && c->cancel(c->cancel_user)) {
        c->cancelled = 1;
        return SLOG_STOP;
    }
    if (!c->cancel) c->seen++;
    /* windows overlap in the drawables they deliver: each is counted in
     * the window holding its earlier end */
    int64_t key = d->start < d->end ? d->start : d->end;
    if (key < c->t0 || key > c->t1) return SLOG_CONTINUE;
    if (!sv_search_bound_match(c->b, d->kind, d->category, d->timeline, d->end_timeline, d->start, d->end, d->info,
                               d->n_info))
        return SLOG_CONTINUE;
    c->total++;
    c->before += d->start < c->at;
    return SLOG_CONTINUE;
}

int sv_search_count(slog_reader *r, const sv_search_bound *b, int64_t at, uint64_t limit, uint64_t budget,
                    sv_cancel_fn cancel, void *cancel_user, uint64_t *total, uint64_t *before, int *before_exact,
                    int *complete, slog_error *err)
{
    const slog_file_info *fi = slog_reader_info(r);
    count_ctx c = {.b = b, .at = at, .cancel = cancel, .cancel_user = cancel_user};
    *complete = 0;
    *before_exact = 0;
    *total = *before = 0;
    if (fi->t_max < fi->t_min) {
        *complete = *before_exact = 1;
        return 0;
    }
    /* Windows in time order, growing: the count can stop after any of
     * them with `before` exact up to its end. */
    uint64_t span = (uint64_t)fi->t_max - (uint64_t)fi->t_min;
    uint64_t w = span / 4096 > 1000 ? span / 4096 : 1000;
    int64_t edge = fi->t_min;
    for (;;) {
        c.t0 = edge;
        c.t1 = (uint64_t)fi->t_max - (uint64_t)edge <= w ? fi->t_max : (int64_t)((uint64_t)edge + w);
        slog_query qu = {.t0 = c.t0, .t1 = c.t1, .flags = SLOG_QUERY_NO_PREVIEW};
        slog_status s = slog_reader_query(r, &qu, count_cb, NULL, &c, NULL, err);
        if (s != SLOG_OK) return s;
        *total = c.total;
        *before = c.before;
        if (c.cancelled) return 0;
        *before_exact = c.t1 >= at || c.t1 == fi->t_max;
        if (c.t1 == fi->t_max) {
            *complete = 1;
            return 0;
        }
        if ((*before_exact && c.total - c.before >= limit) || c.seen >= budget) return 0;
        edge = c.t1 + 1;
        if (w < span / 16) w *= 2;
    }
}
