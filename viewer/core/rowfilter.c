/* SPDX-License-Identifier: MIT */
/* rowfilter.c - see rowfilter.h. */
#include "rowfilter.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_CLAUSES = 32, MAX_RANGES = 256 };

typedef enum clause_kind { CL_RANKS, CL_HOST, CL_FIGURE } clause_kind;
typedef enum cmp_op { OP_GT, OP_GE, OP_LT, OP_LE } cmp_op;

typedef struct clause {
    clause_kind kind;
    /* CL_RANKS */
    uint32_t n_ranges;
    uint64_t lo[MAX_RANGES], hi[MAX_RANGES];
    /* CL_HOST */
    char pattern[128];
    /* CL_FIGURE: category, comparison, value (a fraction of the window for
     * a percentage, else seconds of a state or a count) */
    uint32_t cat;
    cmp_op op;
    double value;
    int percent;
} clause;

typedef struct parsed {
    uint32_t n;
    clause c[MAX_CLAUSES];
    int sort_cat; /* -1: by rank */
} parsed;

static void set_err(char *err, size_t size, const char *fmt, const char *what)
{
    if (err && size) snprintf(err, size, fmt, what);
}

/* Category named s (length n): exact ignoring case, else a unique prefix;
 * -1 none, -2 ambiguous. */
static int find_category(const sv_doc *d, const char *s, size_t n)
{
    int found = -1;
    for (uint32_t k = 0; k < d->fi->n_categories; k++) {
        const char *name = d->cat_names[k];
        if (!name) continue;
        if (strlen(name) == n && strncasecmp(name, s, n) == 0) return (int)k;
        if (strncasecmp(name, s, n) == 0) found = found == -1 ? (int)k : -2;
    }
    return found;
}

/* "0-63,512-575,9": ranges into c; 0 or -1. */
static int parse_ranges(const char *s, clause *c)
{
    c->kind = CL_RANKS;
    c->n_ranges = 0;
    while (*s) {
        if (c->n_ranges == MAX_RANGES || !isdigit((unsigned char)*s)) return -1;
        char *end;
        errno = 0;
        unsigned long long a = strtoull(s, &end, 10), b = a;
        if (errno) return -1;
        s = end;
        if (*s == '-') {
            s++;
            if (!isdigit((unsigned char)*s)) return -1;
            b = strtoull(s, &end, 10);
            if (errno || b < a) return -1;
            s = end;
        }
        c->lo[c->n_ranges] = a;
        c->hi[c->n_ranges++] = b;
        if (*s == ',')
            s++;
        else if (*s)
            return -1;
    }
    return c->n_ranges ? 0 : -1;
}

/* One clause from token tok; 0 or -1 (err set). */
static int parse_token(const sv_doc *d, const char *tok, parsed *p, char *err, size_t es)
{
    if (strncasecmp(tok, "sort=", 5) == 0) {
        const char *name = tok + 5;
        if (strcasecmp(name, "rank") == 0 || strcasecmp(name, "ranks") == 0) {
            p->sort_cat = -1;
            return 0;
        }
        int k = find_category(d, name, strlen(name));
        if (k < 0) {
            set_err(err, es, k == -2 ? "\"%s\": more than one category starts so" : "\"%s\": no such category", name);
            return -1;
        }
        p->sort_cat = k;
        return 0;
    }
    if (p->n == MAX_CLAUSES) {
        set_err(err, es, "%s: too many clauses", tok);
        return -1;
    }
    clause *c = &p->c[p->n];
    memset(c, 0, sizeof *c);
    if (isdigit((unsigned char)tok[0])) {
        if (parse_ranges(tok, c)) {
            set_err(err, es, "\"%s\": ranks are written 0-63,512-575", tok);
            return -1;
        }
        p->n++;
        return 0;
    }
    if (strncasecmp(tok, "host=", 5) == 0) {
        c->kind = CL_HOST;
        if (!tok[5] || strlen(tok + 5) >= sizeof c->pattern) {
            set_err(err, es, "\"%s\": host=NAME, NAME up to 127 characters", tok);
            return -1;
        }
        snprintf(c->pattern, sizeof c->pattern, "%s", tok + 5);
        p->n++;
        return 0;
    }
    const char *op = strpbrk(tok, "<>");
    if (!op || op == tok) {
        set_err(err, es,
                "\"%s\": not a clause (ranks 0-63, host=NAME, CATEGORY>30%%, CATEGORY<0.1, message>100, "
                "sort=CATEGORY)",
                tok);
        return -1;
    }
    int k = find_category(d, tok, (size_t)(op - tok));
    if (k < 0) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(op - tok < 127 ? op - tok : 127), tok);
        set_err(err, es, k == -2 ? "\"%s\": more than one category starts so" : "\"%s\": no such category", name);
        return -1;
    }
    c->kind = CL_FIGURE;
    c->cat = (uint32_t)k;
    c->op = op[0] == '>' ? (op[1] == '=' ? OP_GE : OP_GT) : (op[1] == '=' ? OP_LE : OP_LT);
    const char *num = op + (op[1] == '=' ? 2 : 1);
    char *end;
    errno = 0;
    c->value = strtod(num, &end);
    if (errno || end == num || !isfinite(c->value) || c->value < 0) {
        set_err(err, es, "\"%s\": a number after the comparison", tok);
        return -1;
    }
    if (*end == '%') {
        c->percent = 1;
        end++;
        c->value /= 100;
    }
    if (*end) {
        set_err(err, es, "\"%s\": a number after the comparison", tok);
        return -1;
    }
    const slog_category *cat = slog_reader_category(d->r, (uint32_t)k);
    if (c->percent && cat && cat->kind != SLOG_KIND_STATE) {
        set_err(err, es, "\"%s\": a percentage is of a state's time; arrows and events are counted", tok);
        return -1;
    }
    p->n++;
    return 0;
}

static int parse(const sv_doc *d, const char *expr, parsed *p, char *err, size_t es)
{
    memset(p, 0, sizeof *p);
    p->sort_cat = -1;
    if (!expr) expr = "";
    const char *s = expr;
    int ranks_word = 0;
    while (*s) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        const char *e = s;
        while (*e && !isspace((unsigned char)*e)) e++;
        char tok[256];
        if ((size_t)(e - s) >= sizeof tok) {
            set_err(err, es, "%s", "a clause is too long");
            return -1;
        }
        memcpy(tok, s, (size_t)(e - s));
        tok[e - s] = 0;
        s = e;
        if (strcasecmp(tok, "ranks") == 0 || strcasecmp(tok, "rank") == 0) {
            ranks_word = 1;
            continue;
        }
        if (ranks_word && !isdigit((unsigned char)tok[0])) {
            set_err(err, es, "\"%s\": ranks are written 0-63,512-575", tok);
            return -1;
        }
        ranks_word = 0;
        if (parse_token(d, tok, p, err, es)) return -1;
    }
    if (ranks_word) {
        set_err(err, es, "%s", "ranks: which? (ranks 0-63,512-575)");
        return -1;
    }
    return 0;
}

int sv_rowsel_check(const sv_doc *d, const char *expr, char *err, size_t err_size)
{
    parsed *p = malloc(sizeof *p);
    if (!p) {
        set_err(err, err_size, "%s", "out of memory");
        return -1;
    }
    int rc = parse(d, expr, p, err, err_size);
    free(p);
    return rc;
}

static uint64_t rank_of(const sv_doc *d, uint32_t tl)
{
    return d->tl_keys ? d->tl_keys[tl] >> 32 : tl;
}

typedef struct keyed {
    float v;
    uint32_t tl;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->v != y->v) return x->v < y->v ? 1 : -1;
    return x->tl < y->tl ? -1 : x->tl > y->tl;
}

/* The figures of every (timeline, category) in a window: a state's time
 * inside it, else how many start in it. Summed from every drawable (no
 * previews: a preview's bins at the window's edges would only be
 * estimates, and a sort by them put neighbours out of order). */
typedef struct figures {
    double *v; /* n_timelines x n_cats */
    uint8_t *is_state;
    uint32_t n_timelines, n_cats;
    double t0, t1;
} figures;

static slog_cb_result add_figure(void *user, const slog_drawable *d)
{
    figures *f = user;
    if (d->timeline >= f->n_timelines || d->category >= f->n_cats) return SLOG_CONTINUE;
    double *v = &f->v[(size_t)d->timeline * f->n_cats + d->category];
    if (d->kind == SLOG_KIND_STATE) {
        double a = fmax((double)d->start, f->t0), b = fmin((double)d->end, f->t1);
        if (b > a) *v += b - a;
    } else if ((double)d->start >= f->t0 && (double)d->start < f->t1) {
        *v += 1;
    }
    return SLOG_CONTINUE;
}

/* Figure of category k for timeline tl: a state's share of the window
 * (0..1; nested calls of one category counted once at most), else a
 * count. */
static double figure(const figures *g, uint32_t tl, uint32_t k)
{
    double v = g->v[(size_t)tl * g->n_cats + k];
    if (!g->is_state[k]) return v;
    v /= g->t1 - g->t0;
    return v < 1 ? v : 1;
}

static int meets(const sv_doc *d, const clause *c, uint32_t tl, const figures *g, double window_s)
{
    switch (c->kind) {
    case CL_RANKS: {
        uint64_t r = rank_of(d, tl);
        for (uint32_t i = 0; i < c->n_ranges; i++)
            if (r >= c->lo[i] && r <= c->hi[i]) return 1;
        return 0;
    }
    case CL_HOST: {
        const char *h = d->tl_groups ? d->tl_groups[tl] : NULL;
        return h && fnmatch(c->pattern, h, 0) == 0;
    }
    case CL_FIGURE: {
        double v = figure(g, tl, c->cat);
        if (!c->percent && g->is_state[c->cat]) v *= window_s; /* seconds */
        switch (c->op) {
        case OP_GT: return v > c->value;
        case OP_GE: return v >= c->value;
        case OP_LT: return v < c->value;
        case OP_LE: return v <= c->value;
        }
    }
    }
    return 0;
}

sv_rowsel *sv_rowsel_apply(const sv_doc *d, const char *expr, double t0, double t1, char *err, size_t err_size)
{
    parsed *p = malloc(sizeof *p);
    sv_rowsel *s = calloc(1, sizeof *s);
    keyed *keys = NULL;
    figures fg = {0};
    figures *g = &fg;
    uint32_t nt = d->fi->n_timelines;
    if (!p || !s) goto nomem;
    if (parse(d, expr, p, err, err_size)) goto fail;
    s->n_total = nt;
    s->t0 = t0;
    s->t1 = t1;
    s->sort_cat = p->sort_cat;
    snprintf(s->text, sizeof s->text, "%s", expr ? expr : "");
    /* trim the text's ends for the chip */
    size_t len = strlen(s->text);
    while (len && isspace((unsigned char)s->text[len - 1])) s->text[--len] = 0;
    size_t lead = strspn(s->text, " \t");
    memmove(s->text, s->text + lead, strlen(s->text + lead) + 1);
    int need = p->sort_cat >= 0;
    for (uint32_t i = 0; i < p->n; i++) need |= p->c[i].kind == CL_FIGURE;
    s->uses_window = need;
    if (need && nt) {
        int64_t a = (int64_t)floor(t0), b = (int64_t)ceil(t1);
        if (b <= a) b = a + 1;
        fg.n_timelines = nt;
        fg.n_cats = d->fi->n_categories;
        fg.t0 = (double)a;
        fg.t1 = (double)b;
        fg.v = calloc((size_t)nt * fg.n_cats + 1, sizeof *fg.v);
        fg.is_state = calloc((size_t)fg.n_cats + 1, 1);
        if (!fg.v || !fg.is_state) goto nomem;
        for (uint32_t k = 0; k < fg.n_cats; k++) {
            const slog_category *c = slog_reader_category(d->r, k);
            fg.is_state[k] = c && c->kind == SLOG_KIND_STATE;
        }
        slog_query q = {.t0 = a, .t1 = b, .pixel_ns = 0};
        slog_error e = {0};
        if (slog_reader_query(d->r, &q, add_figure, NULL, &fg, NULL, &e) != SLOG_OK) {
            set_err(err, err_size, "%s", e.message);
            goto fail;
        }
    }
    keys = malloc(sizeof *keys * ((size_t)nt + 1));
    s->list = malloc(sizeof *s->list * ((size_t)nt + 1));
    if (!keys || !s->list) goto nomem;
    double window_s = (t1 - t0) / 1e9;
    uint32_t n = 0;
    for (uint32_t tl = 0; tl < nt; tl++) {
        int ok = 1;
        for (uint32_t i = 0; ok && i < p->n; i++) ok = meets(d, &p->c[i], tl, g, window_s);
        if (!ok) continue;
        keys[n].tl = tl;
        keys[n++].v = p->sort_cat >= 0 ? (float)figure(g, tl, (uint32_t)p->sort_cat) : 0;
    }
    if (p->sort_cat >= 0 && n > 1) qsort(keys, n, sizeof *keys, keyed_cmp);
    for (uint32_t i = 0; i < n; i++) s->list[i] = keys[i].tl;
    s->n = n;
    free(keys);
    free(p);
    free(fg.v);
    free(fg.is_state);
    return s;
nomem:
    set_err(err, err_size, "%s", "out of memory choosing rows");
fail:
    free(keys);
    free(p);
    free(fg.v);
    free(fg.is_state);
    sv_rowsel_free(s);
    return NULL;
}

void sv_rowsel_free(sv_rowsel *s)
{
    if (!s) return;
    free(s->list);
    free(s);
}

void sv_rowsel_describe(const sv_rowsel *s, char *buf, size_t size)
{
    if (!s) {
        snprintf(buf, size, "all timelines");
        return;
    }
    snprintf(buf, size, "%u of %u timelines \xc2\xb7 %s", s->n, s->n_total, s->text);
}
