/* SPDX-License-Identifier: MIT */
/* scene.c - see scene.h. */
#include "scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aggregate.h"
#include "density.h"

sv_scene *sv_scene_new(double t0, double t1, int width, uint32_t n_timelines, uint32_t n_categories,
                       const uint8_t *cat_kind)
{
    sv_scene *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    if (width < 1) width = 1;
    s->t0 = t0;
    s->t1 = t1 > t0 ? t1 : t0 + 1;
    s->width = width;
    s->pixel_ns = (s->t1 - s->t0) / width;
    s->n_timelines = n_timelines;
    s->n_categories = n_categories;
    s->complete = 1;
    size_t cells = (size_t)n_timelines * n_categories;
    s->slot_of = malloc(sizeof(int32_t) * (cells ? cells : 1));
    uint8_t *kinds = malloc(n_categories ? n_categories : 1);
    if (!s->slot_of || !kinds) {
        free(kinds);
        sv_scene_free(s);
        return NULL;
    }
    for (size_t i = 0; i < cells; i++) s->slot_of[i] = -1;
    if (cat_kind)
        memcpy(kinds, cat_kind, n_categories);
    else
        memset(kinds, SLOG_KIND_STATE, n_categories);
    s->cat_kind = kinds;
    return s;
}

void sv_scene_free(sv_scene *s)
{
    if (!s) return;
    free(s->items);
    free(s->info);
    free(s->order);
    free(s->slot_of);
    free(s->slot_tl);
    free(s->slot_cat);
    free(s->cols);
    free(s->tl_first_slot);
    free((void *)s->cat_kind);
    free(s->covered);
    sv_density_free(s->msg_density);
    free(s);
}

int sv_scene_covers(const sv_scene *s, const uint8_t *want)
{
    if (!s->covered) return 1;
    for (uint32_t t = 0; t < s->n_timelines; t++)
        if ((!want || want[t]) && !s->covered[t]) return 0;
    return 1;
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

int sv_scene_add_item(sv_scene *s, const slog_drawable *d)
{
    if (d->timeline >= s->n_timelines || d->category >= s->n_categories)
        return 0; /* the reader validated ids; be defensive anyway */
    if (grow((void **)&s->items, &s->cap_items, s->n_items + 1, sizeof(sv_item)) ||
        grow((void **)&s->info, &s->cap_info, s->n_info + d->n_info, sizeof(int64_t)))
        return -1;
    sv_item *it = &s->items[s->n_items++];
    it->start = d->start;
    it->end = d->end;
    it->category = d->category;
    it->timeline = d->timeline;
    it->end_timeline = d->end_timeline < s->n_timelines ? d->end_timeline : d->timeline;
    it->kind = (uint8_t)d->kind;
    it->depth = 0;
    it->info_off = (uint32_t)s->n_info;
    it->n_info = (uint16_t)d->n_info;
    if (d->n_info) memcpy(s->info + s->n_info, d->info, sizeof(int64_t) * d->n_info);
    s->n_info += d->n_info;
    return 0;
}

/* Out of line: fold_narrow finds an existing slot itself, and only a new
 * one comes here. */
__attribute__((noinline)) static float *slot_for(sv_scene *s, uint32_t tl, uint32_t cat)
{
    if (tl >= s->n_timelines || cat >= s->n_categories) return NULL;
    int32_t *so = &s->slot_of[(size_t)tl * s->n_categories + cat];
    if (*so < 0) {
        if (s->n_slots == s->cap_slots) {
            size_t nc = s->cap_slots ? s->cap_slots * 2 : 16;
            uint32_t *a = realloc(s->slot_tl, sizeof(uint32_t) * nc);
            if (!a) return NULL;
            s->slot_tl = a;
            uint32_t *b = realloc(s->slot_cat, sizeof(uint32_t) * nc);
            if (!b) return NULL;
            s->slot_cat = b;
            float *c = realloc(s->cols, sizeof(float) * (size_t)s->width * nc);
            if (!c) return NULL;
            s->cols = c;
            s->cap_slots = nc;
        }
        memset(s->cols + s->n_slots * (size_t)s->width, 0, sizeof(float) * (size_t)s->width);
        s->slot_tl[s->n_slots] = tl;
        s->slot_cat[s->n_slots] = cat;
        *so = (int32_t)s->n_slots++;
    }
    return s->cols + (size_t)*so * s->width;
}

int sv_scene_add_preview(sv_scene *s, const slog_preview *p)
{
    for (uint32_t i = 0; i < p->n_rows; i++) {
        const slog_preview_row *row = &p->rows[i];
        float *cols = slot_for(s, row->timeline, row->category);
        if (!cols) {
            if (row->timeline >= s->n_timelines || row->category >= s->n_categories) continue;
            return -1;
        }
        sv_agg_mode mode = s->cat_kind[row->category] == SLOG_KIND_STATE ? SV_AGG_FRACTION : SV_AGG_COUNT;
        sv_aggregate_bins(cols, s->width, s->t0, s->pixel_ns, p->lo, p->hi, p->n_bins, row->values, mode);
    }
    return 0;
}

const float *sv_scene_cols(const sv_scene *s, uint32_t timeline, uint32_t category)
{
    if (timeline >= s->n_timelines || category >= s->n_categories) return NULL;
    int32_t so = s->slot_of[(size_t)timeline * s->n_categories + category];
    return so < 0 ? NULL : s->cols + (size_t)so * s->width;
}

/* Sort keys: (a, b, c, idx) in lexicographic order; idx (the item's
 * index) makes the order total, so any correct sort gives the same one. A
 * merge sort over the keys themselves: qsort on item indices, with a call
 * per comparison and its two indirections, was a twentieth of a zoomed
 * frame with tens of thousands of items. */
typedef struct sort_key {
    uint64_t a;
    int64_t b, c;
    uint32_t idx;
} sort_key;

static inline int key_before(const sort_key *x, const sort_key *y)
{
    if (x->a != y->a) return x->a < y->a;
    if (x->b != y->b) return x->b < y->b;
    if (x->c != y->c) return x->c < y->c;
    return x->idx < y->idx;
}

/* Sort k[0..n) using tmp (n keys); the result is in k. */
static void sort_keys(sort_key *k, sort_key *tmp, size_t n)
{
    /* runs of 16 by insertion, then bottom-up merges */
    for (size_t lo = 0; lo < n; lo += 16) {
        size_t hi = lo + 16 < n ? lo + 16 : n;
        for (size_t i = lo + 1; i < hi; i++) {
            sort_key v = k[i];
            size_t j = i;
            for (; j > lo && key_before(&v, &k[j - 1]); j--) k[j] = k[j - 1];
            k[j] = v;
        }
    }
    sort_key *src = k, *dst = tmp;
    for (size_t w = 16; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = key_before(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        sort_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != k) memcpy(k, src, n * sizeof *k);
}

static int draw_rank(const sv_item *it)
{
    return it->kind == SLOG_KIND_STATE ? 0 : it->kind == SLOG_KIND_EVENT ? 1 : 2;
}

/* qsort has no user pointer in C11; the slot comparator reads this. It is
 * only used inside sv_scene_finish, which sorts index arrays of one scene,
 * so a thread-local is enough. */
static _Thread_local const sv_scene *sort_scene;

static int cmp_slot(const void *a, const void *b)
{
    uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
    if (sort_scene->slot_tl[i] != sort_scene->slot_tl[j])
        return sort_scene->slot_tl[i] < sort_scene->slot_tl[j] ? -1 : 1;
    return sort_scene->slot_cat[i] < sort_scene->slot_cat[j] ? -1 : sort_scene->slot_cat[i] > sort_scene->slot_cat[j];
}

int sv_scene_finish(sv_scene *s)
{
    sort_scene = s;
    free(s->order);
    s->order = malloc(sizeof(uint32_t) * (s->n_items ? s->n_items : 1));
    sort_key *keys = malloc(sizeof *keys * (s->n_items ? 2 * s->n_items : 1));
    if (!s->order || !keys) {
        free(keys);
        return -1;
    }
    /* Nesting: per timeline, states by start then longest first (~end
     * orders ends the other way without overflow); a stack of open end
     * times gives the depth (a state that starts before the one on top
     * ends is drawn inside it, even if it overlaps only partly). */
    size_t n_states = 0;
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        if (it->kind == SLOG_KIND_STATE) keys[n_states++] = (sort_key){it->timeline, it->start, ~it->end, (uint32_t)i};
    }
    sort_keys(keys, keys + s->n_items, n_states);
    int64_t stack[256];
    int sp = 0;
    uint32_t cur_tl = UINT32_MAX;
    s->max_depth = 0;
    for (size_t k = 0; k < n_states; k++) {
        sv_item *it = &s->items[keys[k].idx];
        if (it->timeline != cur_tl) {
            cur_tl = it->timeline;
            sp = 0;
        }
        while (sp > 0 && stack[sp - 1] <= it->start) sp--;
        it->depth = (uint8_t)(sp < 255 ? sp : 255);
        if (it->depth > s->max_depth) s->max_depth = it->depth;
        if (sp < 256) stack[sp++] = it->end;
    }
    /* draw order: states by depth, then events, then arrows, each by start */
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        keys[i] = (sort_key){(uint64_t)draw_rank(it) << 8 | it->depth, it->start, 0, (uint32_t)i};
    }
    sort_keys(keys, keys + s->n_items, s->n_items);
    for (size_t i = 0; i < s->n_items; i++) s->order[i] = keys[i].idx;
    free(keys);

    /* Slots sorted by (timeline, category) so the renderer stacks them in
     * legend order; rebuild cols in that order. */
    free(s->tl_first_slot);
    s->tl_first_slot = calloc((size_t)s->n_timelines + 1, sizeof(size_t));
    if (!s->tl_first_slot) return -1;
    if (s->n_slots) {
        /* The rows are put in order where they are, a cycle of the
         * permutation at a time through one spare row: a second array of
         * every row would be new pages to fault in and clear each frame. */
        size_t w = (size_t)s->width;
        uint32_t *perm = malloc(sizeof(uint32_t) * s->n_slots);
        uint8_t *placed = calloc(s->n_slots, 1);
        float *spare = malloc(sizeof(float) * w);
        uint32_t *tl = malloc(sizeof(uint32_t) * s->n_slots);
        uint32_t *cat = malloc(sizeof(uint32_t) * s->n_slots);
        if (!perm || !placed || !spare || !tl || !cat) {
            free(perm);
            free(placed);
            free(spare);
            free(tl);
            free(cat);
            return -1;
        }
        for (size_t i = 0; i < s->n_slots; i++) perm[i] = (uint32_t)i;
        qsort(perm, s->n_slots, sizeof(uint32_t), cmp_slot);
        for (size_t i = 0; i < s->n_slots; i++) {
            uint32_t o = perm[i];
            tl[i] = s->slot_tl[o];
            cat[i] = s->slot_cat[o];
            s->slot_of[(size_t)tl[i] * s->n_categories + cat[i]] = (int32_t)i;
        }
        /* row i takes row perm[i]: follow each cycle from its first row */
        for (size_t i = 0; i < s->n_slots; i++) {
            if (placed[i] || perm[i] == i) continue;
            memcpy(spare, s->cols + i * w, sizeof(float) * w);
            size_t j = i;
            while (perm[j] != i) {
                memcpy(s->cols + j * w, s->cols + (size_t)perm[j] * w, sizeof(float) * w);
                placed[j] = 1;
                j = perm[j];
            }
            memcpy(s->cols + j * w, spare, sizeof(float) * w);
            placed[j] = 1;
        }
        free(perm);
        free(placed);
        free(spare);
        free(s->slot_tl);
        free(s->slot_cat);
        s->slot_tl = tl;
        s->slot_cat = cat;
        if (s->cap_slots > s->n_slots) {
            float *c = realloc(s->cols, sizeof(float) * s->n_slots * w);
            if (c) s->cols = c;
        }
        s->cap_slots = s->n_slots;
    }
    /* counting pass for the per-timeline slot ranges */
    for (size_t i = 0; i < s->n_slots; i++) s->tl_first_slot[s->slot_tl[i] + 1]++;
    for (uint32_t t = 0; t < s->n_timelines; t++) s->tl_first_slot[t + 1] += s->tl_first_slot[t];
    return 0;
}

/* ------------------------------------------------------------ query */

typedef struct query_ctx {
    sv_scene *s;
    sv_cancel_fn cancel;
    void *cancel_user;
    int failed;  /* allocation failure */
    int stopped; /* cancelled or too many */
    unsigned tick;
    /* Querying the window in pieces around unreadable nodes: a drawable
     * that starts at or before skip_upto crossed into an earlier piece
     * and was delivered with it. */
    int skip;
    int64_t skip_upto;
    double per_ns; /* 1 / s->pixel_ns: a state's weight per ns */
    /* The scene's window as on_drawable's narrow path reads it: t0 and
     * pixel_ns, the width as a double, per_ns * pixel_ns (what slog_spread
     * adds per column), and whether narrow drawables are folded at all. */
    double t0, pixel_ns, width, per_col;
    int fold;
} query_ctx;

static int should_stop(query_ctx *c)
{
    /* Checking the cancel flag every call would cost an atomic read per
     * drawable; every 256 calls is responsive enough. */
    if (c->cancel && (++c->tick & 255) == 0 && c->cancel(c->cancel_user)) {
        c->stopped = 1;
        return 1;
    }
    return 0;
}

/* A drawable narrower than a pixel into its slot's columns: the arithmetic
 * of slog_spread (states) and of a count at the start's column (arrows),
 * with the window's values read once per query rather than per call. */
static slog_cb_result fold_narrow(query_ctx *c, const slog_drawable *d)
{
    sv_scene *s = c->s;
    if (d->timeline >= s->n_timelines || d->category >= s->n_categories) return SLOG_CONTINUE;
    int32_t so = s->slot_of[(size_t)d->timeline * s->n_categories + d->category];
    float *cols = so >= 0 ? s->cols + (size_t)so * s->width : slot_for(s, d->timeline, d->category);
    if (!cols) {
        c->failed = 1;
        return SLOG_STOP;
    }
    double a = (double)d->start;
    if (d->kind == SLOG_KIND_STATE) {
        double b = (double)d->end;
        if (b > a) {
            double x0 = (a - c->t0) / c->pixel_ns, x1 = (b - c->t0) / c->pixel_ns;
            if (x1 > 0 && x0 < c->width) {
                if (x0 < 0) x0 = 0;
                if (x1 > c->width) x1 = c->width;
                uint32_t i0 = (uint32_t)x0;
                if (x1 <= (double)i0 + 1)
                    cols[i0] += (float)(c->per_col * (x1 - x0));
                else /* across a column boundary: the general case */
                    slog_spread(cols, (uint32_t)s->width, c->t0, c->pixel_ns, a, b, c->per_ns);
            }
        }
    } else {
        double x = (a - c->t0) / c->pixel_ns;
        if (x >= 0 && x < c->width) cols[(int)x] += 1;
    }
    return should_stop(c) ? SLOG_STOP : SLOG_CONTINUE;
}

/* A drawable kept as an item. Out of line: the narrow path, taken by most
 * drawables of a wide window, then saves no registers for it. */
__attribute__((noinline)) static slog_cb_result add_wide(query_ctx *c, const slog_drawable *d)
{
    if (sv_scene_add_item(c->s, d)) {
        c->failed = 1;
        return SLOG_STOP;
    }
    if (c->s->n_items >= SV_SCENE_MAX_ITEMS) {
        c->stopped = 1;
        return SLOG_STOP;
    }
    return should_stop(c) ? SLOG_STOP : SLOG_CONTINUE;
}

static slog_cb_result on_drawable(void *user, const slog_drawable *d)
{
    query_ctx *c = user;
    if (c->skip && (d->start < d->end ? d->start : d->end) <= c->skip_upto) return SLOG_CONTINUE;
    /* A drawable narrower than a pixel (stored high in the tree because it
     * straddles a node boundary) is folded into the pixel columns like the
     * previews around it; it is drawn as itself once it is wide enough. */
    double dur = (double)(d->end > d->start ? d->end - d->start : d->start - d->end);
    if (c->fold && dur < c->pixel_ns && d->kind != SLOG_KIND_EVENT) return fold_narrow(c, d);
    return add_wide(c, d);
}

static slog_cb_result on_preview(void *user, const slog_preview *p)
{
    query_ctx *c = user;
    if (sv_scene_add_preview(c->s, p)) {
        c->failed = 1;
        return SLOG_STOP;
    }
    return should_stop(c) ? SLOG_STOP : SLOG_CONTINUE;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The node whose block holds byte off; 0 or -1. */
static int node_at(slog_reader *r, uint64_t off, slog_node_info *out)
{
    const slog_file_info *fi = slog_reader_info(r);
    for (uint64_t i = 0; i < fi->n_nodes; i++)
        if (slog_reader_node(r, i, out) == SLOG_OK && off >= out->offset && off < out->offset + out->size) return 0;
    return -1;
}

/* q's window in pieces around the bad ranges (sorted by lo), one query
 * each, in time order. */
static slog_status query_pieces(slog_reader *r, const slog_query *q, const sv_bad_range *bad, size_t n_bad,
                                query_ctx *c, slog_query_stats *stats, slog_error *e)
{
    int64_t a = q->t0;
    memset(stats, 0, sizeof *stats);
    for (size_t k = 0; k <= n_bad && a <= q->t1; k++) {
        int64_t b = k < n_bad && bad[k].lo - 1 < q->t1 ? bad[k].lo - 1 : q->t1;
        if (b >= a) {
            slog_query p = *q;
            p.t0 = a;
            p.t1 = b;
            slog_query_stats ps = {0};
            slog_status st = slog_reader_query(r, &p, on_drawable, on_preview, c, &ps, e);
            stats->nodes_read += ps.nodes_read;
            stats->bytes_read += ps.bytes_read;
            stats->drawables += ps.drawables;
            stats->previews += ps.previews;
            if (st != SLOG_OK || c->failed || c->stopped) return st;
            c->skip = 1;
            c->skip_upto = b;
        }
        if (k < n_bad && bad[k].hi > a) a = bad[k].hi;
    }
    return SLOG_OK;
}

static int cmp_bad(const void *x, const void *y)
{
    const sv_bad_range *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

sv_scene *sv_scene_query(slog_reader *r, double t0, double t1, int width, const uint8_t *timelines, uint32_t flags,
                         sv_cancel_fn cancel, void *cancel_user, slog_error *err)
{
    double start = now_ms();
    const slog_file_info *fi = slog_reader_info(r);
    sv_bad_range bad[SV_SCENE_MAX_BAD];
    size_t n_bad = 0;
    char bad_msg[sizeof err->message] = "";
    sv_scene *s;
    query_ctx c;
    for (;;) {
        uint8_t *kinds = malloc(fi->n_categories ? fi->n_categories : 1);
        if (!kinds) goto nomem;
        for (uint32_t i = 0; i < fi->n_categories; i++) kinds[i] = (uint8_t)slog_reader_category(r, i)->kind;
        s = sv_scene_new(t0, t1, width, fi->n_timelines, fi->n_categories, kinds);
        free(kinds);
        if (!s) goto nomem;
        if (timelines) {
            s->covered = malloc(fi->n_timelines ? fi->n_timelines : 1);
            if (!s->covered) goto nomem_scene;
            memcpy(s->covered, timelines, fi->n_timelines);
        }
        c = (query_ctx){.s = s,
                        .cancel = cancel,
                        .cancel_user = cancel_user,
                        .per_ns = 1 / s->pixel_ns,
                        .t0 = s->t0,
                        .pixel_ns = s->pixel_ns,
                        .width = (double)(uint32_t)s->width,
                        .per_col = 1 / s->pixel_ns * s->pixel_ns,
                        .fold = s->pixel_ns >= 1};
        slog_query q = {0};
        q.t0 = (int64_t)floor(s->t0);
        q.t1 = (int64_t)ceil(s->t1);
        q.timelines = timelines;
        /* Previews only when a pixel is at least 1 ns wide; finer than that the
         * drawables themselves are few. */
        q.pixel_ns = s->pixel_ns >= 1 ? (int64_t)s->pixel_ns : 0;
        /* on_drawable folds states and arrows shorter than s->pixel_ns into the
         * columns without looking at their fields, so the query need not decode
         * them; the ones it keeps as items are at least s->pixel_ns >= q.pixel_ns
         * long and so come with all their fields. */
        q.flags = flags | SLOG_QUERY_NARROW_NO_INFO;
        slog_error e;
        memset(&e, 0, sizeof e);
        slog_status st = query_pieces(r, &q, bad, n_bad, &c, &s->stats, &e);
        if (c.failed) goto nomem_scene;
        slog_node_info ni;
        /* An unreadable node: the same window again, around it. Whether a
         * node is read or delivered as a preview depends on pixel_ns alone,
         * so the next round reads the same nodes but this one. */
        if ((st == SLOG_ERR_CHECKSUM || st == SLOG_ERR_CORRUPT || st == SLOG_ERR_TRUNCATED) &&
            e.offset != SLOG_NO_OFFSET && n_bad < SV_SCENE_MAX_BAD && node_at(r, e.offset, &ni) == 0) {
            sv_scene_free(s);
            if (!n_bad) memcpy(bad_msg, e.message, sizeof bad_msg);
            bad[n_bad++] = (sv_bad_range){ni.lo, ni.hi};
            qsort(bad, n_bad, sizeof bad[0], cmp_bad);
            continue;
        }
        if (st != SLOG_OK) {
            if (err) *err = e;
            sv_scene_free(s);
            return NULL;
        }
        break;
    }
    memcpy(s->bad, bad, n_bad * sizeof bad[0]);
    s->n_bad = n_bad;
    memcpy(s->bad_msg, bad_msg, sizeof s->bad_msg);
    if (c.stopped && cancel && cancel(cancel_user)) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = SLOG_OK;
        }
        sv_scene_free(s);
        return NULL;
    }
    s->complete = !c.stopped;
    if (sv_scene_finish(s)) goto nomem_scene;
    s->query_ms = now_ms() - start;
    return s;
nomem_scene:
    sv_scene_free(s);
nomem:
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = SLOG_ERR_NOMEM;
        err->offset = SLOG_NO_OFFSET;
        strcpy(err->message, "out of memory while building the view");
    }
    return NULL;
}

/* ------------------------------------------------------------ geometry */

int sv_geom_state(const sv_geom *g, const sv_item *it, sv_rect *out)
{
    const sv_row *row = sv_layout_row_of(g->lay, it->timeline);
    if (!row) return 0;
    double x0 = sv_viewport_time_to_x(g->vp, (double)it->start);
    double x1 = sv_viewport_time_to_x(g->vp, (double)it->end);
    /* keep coordinates in a range Cairo handles (it uses 24.8 fixed point) */
    if (x0 < -10) x0 = -10;
    if (x1 > g->vp->width + 10) x1 = g->vp->width + 10;
    if (x1 - x0 < 1) {
        double c = (x0 + x1) / 2;
        x0 = c - 0.5;
        x1 = c + 0.5;
    }
    /* Nested states are inset from the top and bottom by a step per level
     * so the enclosing state stays visible around them. */
    double pad = 1.5;
    double step = row->h / 7 < 3 ? row->h / 7 : 3;
    double inset = pad + step * it->depth;
    double h = row->h - 2 * inset;
    if (h < 2) {
        inset = (row->h - 2) / 2;
        h = 2;
    }
    out->x = x0;
    out->w = x1 - x0;
    out->y = row->y - g->scroll_y + inset;
    out->h = h;
    return 1;
}

int sv_geom_event(const sv_geom *g, const sv_item *it, double *x, double *y)
{
    const sv_row *row = sv_layout_row_of(g->lay, it->timeline);
    if (!row) return 0;
    *x = sv_viewport_time_to_x(g->vp, (double)it->start);
    /* a row lower than a marker (Compact Rows) has a tick at its middle */
    *y = row->y - g->scroll_y + (row->h < SV_EVENT_ROW_MIN ? row->h / 2 : SV_EVENT_R + 1);
    return 1;
}

int sv_geom_arrow(const sv_geom *g, const sv_item *it, double *x0, double *y0, double *x1, double *y1)
{
    const sv_row *a = sv_layout_row_of(g->lay, it->timeline);
    const sv_row *b = sv_layout_row_of(g->lay, it->end_timeline);
    if (!a || !b) return 0;
    *x0 = sv_viewport_time_to_x(g->vp, (double)it->start);
    *x1 = sv_viewport_time_to_x(g->vp, (double)it->end);
    *y0 = a->y - g->scroll_y + a->h / 2;
    *y1 = b->y - g->scroll_y + b->h / 2;
    return 1;
}

double sv_segment_distance(double px, double py, double x0, double y0, double x1, double y1)
{
    double dx = x1 - x0, dy = y1 - y0;
    double len2 = dx * dx + dy * dy;
    double t = len2 > 0 ? ((px - x0) * dx + (py - y0) * dy) / len2 : 0;
    if (t < 0) t = 0;
    if (t > 1) t = 1;
    double cx = x0 + t * dx - px, cy = y0 + t * dy - py;
    return sqrt(cx * cx + cy * cy);
}

long sv_scene_hit(const sv_scene *s, const sv_geom *g, const uint8_t *visible, double x, double y)
{
    long best = -1;
    double best_d = 5.0; /* pixels of slack for thin things */
    int best_depth = -1;
    long best_state = -1;
    for (size_t i = 0; i < s->n_items; i++) {
        const sv_item *it = &s->items[i];
        if (visible && !visible[it->category]) continue;
        if (it->kind == SLOG_KIND_STATE) {
            sv_rect r;
            if (!sv_geom_state(g, it, &r)) continue;
            if (x >= r.x - 0.5 && x <= r.x + r.w + 0.5 && y >= r.y && y <= r.y + r.h && (int)it->depth > best_depth) {
                best_depth = it->depth;
                best_state = (long)i;
            }
        } else if (it->kind == SLOG_KIND_EVENT) {
            double ex, ey;
            if (!sv_geom_event(g, it, &ex, &ey)) continue;
            double d = hypot(ex - x, ey - y);
            if (d <= best_d) {
                best_d = d;
                best = (long)i;
            }
        } else {
            double x0, y0, x1, y1;
            if (!sv_geom_arrow(g, it, &x0, &y0, &x1, &y1)) continue;
            if (g->msg_filter && !sv_msg_filter_item(g->msg_filter, s, it)) continue;
            double d = sv_segment_distance(x, y, x0, y0, x1, y1);
            /* a little less slack for arrows than markers, and an arrow
             * only wins over a state when the pointer is really on it */
            if (d <= 3.0 && d <= best_d) {
                best_d = d;
                best = (long)i;
            }
        }
    }
    return best >= 0 ? best : best_state;
}
