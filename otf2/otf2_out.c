/* SPDX-License-Identifier: MIT */
/* otf2_out.c - the OTF2 input's drawables into end order and into the
 * file, on a thread of their own or the caller's. The caller's requests
 * (a drawable, the file, a watermark) are items; with a thread they go to
 * it in blocks through a ring of a few blocks (the caller waits when all
 * are full, the thread when all are empty), without one they are done at
 * once. */
#include "otf2_out.h"

#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "call_plan.h"

/* Items a block holds, and blocks in the ring: enough that the two
 * threads meet about once per block, few enough to stay small. */
#define OUT_BLOCK  4096
#define OUT_BLOCKS 4

/* A drawable's place in end order: key, then tie (cls, tl_order, sub: the
 * order of o2_draw's fields), then idx; no two drawables share all three. */
typedef struct hkey {
    int64_t key; /* max(start, end) */
    uint64_t tie;
    uint64_t idx;
    uint32_t at; /* a run (RUN | run index) or a pool slot */
} hkey;

#define RUN 0x80000000u

/* Drawables of one timeline and class (states and polls, or arrows) in the
 * order they were made, while that is end order: most are, so the heap
 * holds a run's first drawable rather than all of them. A list of blocks,
 * which the runs share through a pool: what waits costs its own size, not
 * that of the most a run ever held. */
#define RUN_BLOCK 16

typedef struct rblock {
    struct rblock *next;
    uint32_t head, n; /* the first drawable still waiting; drawables put in */
    o2_draw v[RUN_BLOCK];
} rblock;

typedef struct run {
    rblock *first, *last;
    size_t n;
    hkey last_key; /* the key of the last drawable appended */
} run;

enum { ITEM_DRAW, ITEM_FILE, ITEM_ADVANCE };

typedef struct out_item {
    uint32_t op;
    int64_t t; /* ITEM_FILE: origin; ITEM_ADVANCE: watermark */
    slog_writer *w;
    o2_draw d;
} out_item;

/* What sorts and writes: the thread's, or the caller's without one. */
typedef struct sink {
    run *runs;
    uint32_t n_runs;
    rblock *free_blocks;
    hkey *heap; /* every run's first drawable and the pool's, in end order */
    size_t n_heap, cap_heap;
    o2_draw *pool; /* drawables out of their run's order */
    uint32_t *free_slots;
    size_t n_free, cap_pool;
    size_t n_wait, max_wait;
    slog_writer *w;
    int64_t origin;
    uint32_t n_cats; /* categories registered */
    bool failed;
    char *why;
} sink;

struct o2_out {
    sink s;
    bool threaded;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    out_item *blocks[OUT_BLOCKS];
    size_t fill[OUT_BLOCKS];
    /* under lock: blocks handed over and blocks done, counted from the
     * start (block k is blocks[k % OUT_BLOCKS]); no more to come; the
     * thread's failure */
    uint64_t submitted, consumed;
    bool closing;
    bool failed;
    /* the caller's own */
    out_item *cur;
    size_t n_cur;
    bool failed_seen;
};

slog_status o2_out_register(slog_writer *w, const o2_cat *c, uint32_t *id)
{
    const char *names[O2_MAX_FIELDS];
    uint8_t types[O2_MAX_FIELDS];
    call_field_columns(c->fields, c->n_fields, names, types);
    slog_category sc = {c->kind, c->name, c->group, c->rgba, c->n_fields, names, types};
    return slog_writer_add_category(w, &sc, id);
}

/* ------------------------------------------------------------ end order */

static inline bool key_before(const hkey *a, const hkey *b)
{
    if (a->key != b->key) return a->key < b->key;
    if (a->tie != b->tie) return a->tie < b->tie;
    return a->idx < b->idx;
}

static void heap_push(sink *s, hkey k)
{
    if (s->n_heap == s->cap_heap) {
        s->cap_heap = s->cap_heap ? 2 * s->cap_heap : 256;
        s->heap = g_realloc_n(s->heap, s->cap_heap, sizeof *s->heap);
    }
    size_t i = s->n_heap++;
    while (i > 0 && key_before(&k, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = k;
}

/* Put k in the heap's top entry's place and sift it down. */
static void heap_replace_top(sink *s, hkey k)
{
    size_t i = 0, n = s->n_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && key_before(&s->heap[c + 1], &s->heap[c])) c++;
        if (!key_before(&s->heap[c], &k)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = k;
}

static hkey key_of(const o2_draw *d)
{
    return (hkey){.key = MAX(d->start, d->end),
                  .tie = (uint64_t)d->cls << 33 | (uint64_t)d->tl_order << 1 | d->sub,
                  .idx = d->idx};
}

static void sink_emit(sink *s, const o2_draw *d)
{
    hkey k = key_of(d);
    uint32_t ri = d->tl_order * 2 + d->cls;
    if (ri >= s->n_runs) {
        uint32_t n = MAX(ri + 1, 2 * s->n_runs);
        s->runs = g_realloc_n(s->runs, n, sizeof *s->runs);
        memset(s->runs + s->n_runs, 0, (n - s->n_runs) * sizeof *s->runs);
        s->n_runs = n;
    }
    run *r = &s->runs[ri];
    if (r->n == 0 || !key_before(&k, &r->last_key)) {
        rblock *b = r->last;
        if (!b || b->n == RUN_BLOCK) {
            b = s->free_blocks;
            if (b)
                s->free_blocks = b->next;
            else
                b = g_new(rblock, 1);
            b->next = NULL;
            b->head = b->n = 0;
            if (r->last)
                r->last->next = b;
            else
                r->first = b;
            r->last = b;
        }
        b->v[b->n++] = *d;
        r->last_key = k;
        if (r->n++ == 0) {
            k.at = RUN | ri;
            heap_push(s, k);
        }
    } else {
        /* Out of end order on its run: a heap entry of its own. */
        if (s->n_free == 0) {
            size_t old = s->cap_pool;
            s->cap_pool = old ? 2 * old : 256;
            s->pool = g_realloc_n(s->pool, s->cap_pool, sizeof *s->pool);
            s->free_slots = g_realloc_n(s->free_slots, s->cap_pool, sizeof *s->free_slots);
            for (size_t i = s->cap_pool; i > old; i--) s->free_slots[s->n_free++] = (uint32_t)(i - 1);
        }
        uint32_t slot = s->free_slots[--s->n_free];
        s->pool[slot] = *d;
        k.at = slot;
        heap_push(s, k);
    }
    s->n_wait++;
    s->max_wait = MAX(s->max_wait, s->n_wait);
}

/* The first drawable in end order leaves; a run's next one takes its
 * place in the heap. The drawable stays where it was, its block or slot
 * free for reuse, until the next sink_emit: valid till then. */
static const o2_draw *heap_pop(sink *s)
{
    hkey top = s->heap[0];
    const o2_draw *d;
    s->n_wait--;
    if (top.at & RUN) {
        run *r = &s->runs[top.at & ~RUN];
        rblock *b = r->first;
        d = &b->v[b->head++];
        if (b->head == b->n) {
            if (b->n == RUN_BLOCK && b->next) {
                /* Used up: back to the pool. */
                r->first = b->next;
                b->next = s->free_blocks;
                s->free_blocks = b;
            } else {
                b->head = b->n = 0; /* the run is empty: its last block stays */
            }
        }
        if (--r->n) {
            hkey k = key_of(&r->first->v[r->first->head]);
            k.at = top.at;
            heap_replace_top(s, k);
            return d;
        }
    } else {
        d = &s->pool[top.at];
        s->free_slots[s->n_free++] = top.at;
    }
    hkey last = s->heap[--s->n_heap];
    if (s->n_heap) heap_replace_top(s, last);
    return d;
}

/* ------------------------------------------------------------ writing */

static void sink_fail(sink *s, slog_status st)
{
    const slog_error *e = slog_writer_error(s->w);
    s->why = g_strdup(e->status != SLOG_OK ? e->message : slog_strerror(st));
    s->failed = true;
}

static void sink_advance(sink *s, int64_t watermark)
{
    while (!s->failed && s->n_heap && s->heap[0].key < watermark) {
        const o2_draw *d = heap_pop(s);
        o2_cat *c = d->cat;
        slog_status st = SLOG_OK;
        if (c->file_id == O2_NONE) {
            /* The writer numbers categories in the order registered. */
            st = o2_out_register(s->w, c, &c->file_id);
            if (st == SLOG_OK && c->file_id != s->n_cats) st = SLOG_ERR_ARG;
            s->n_cats++;
        }
        slog_drawable sd = {(slog_kind)d->kind,   c->file_id,         d->timeline, d->end_timeline,
                            d->start - s->origin, d->end - s->origin, d->n_info,   d->n_info ? d->info : NULL};
        if (st == SLOG_OK) st = slog_writer_add(s->w, &sd);
        if (st != SLOG_OK) sink_fail(s, st);
    }
}

static void sink_do(sink *s, const out_item *it)
{
    switch (it->op) {
    case ITEM_DRAW: sink_emit(s, &it->d); break;
    case ITEM_FILE:
        s->w = it->w;
        s->origin = it->t;
        break;
    case ITEM_ADVANCE:
        if (s->w) sink_advance(s, it->t);
        break;
    default: break;
    }
}

static void sink_free(sink *s)
{
    for (uint32_t i = 0; i < s->n_runs; i++)
        for (rblock *b = s->runs[i].first, *next; b; b = next) {
            next = b->next;
            g_free(b);
        }
    for (rblock *b = s->free_blocks, *next; b; b = next) {
        next = b->next;
        g_free(b);
    }
    g_free(s->runs);
    g_free(s->heap);
    g_free(s->pool);
    g_free(s->free_slots);
}

/* ------------------------------------------------------------ the thread */

static void *out_main(void *arg)
{
    o2_out *o = arg;
    pthread_mutex_lock(&o->lock);
    for (;;) {
        while (o->consumed == o->submitted && !o->closing) pthread_cond_wait(&o->cond, &o->lock);
        if (o->consumed == o->submitted) break;
        size_t k = o->consumed % OUT_BLOCKS;
        size_t n = o->fill[k];
        pthread_mutex_unlock(&o->lock);
        /* After a failure the blocks are only taken, so that the caller
         * never waits for good. */
        for (size_t i = 0; i < n && !o->s.failed; i++) sink_do(&o->s, &o->blocks[k][i]);
        pthread_mutex_lock(&o->lock);
        o->failed = o->s.failed;
        o->consumed++;
        pthread_cond_broadcast(&o->cond);
    }
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

o2_out *o2_out_new(bool thread)
{
    o2_out *o = g_new0(o2_out, 1);
    if (!thread) return o;
    for (size_t i = 0; i < OUT_BLOCKS; i++) o->blocks[i] = g_new(out_item, OUT_BLOCK);
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->cond, NULL);
    o->threaded = pthread_create(&o->thread, NULL, out_main, o) == 0;
    if (!o->threaded) {
        pthread_mutex_destroy(&o->lock);
        pthread_cond_destroy(&o->cond);
        for (size_t i = 0; i < OUT_BLOCKS; i++) g_free(o->blocks[i]);
    }
    return o;
}

/* Hand the block being filled to the thread. */
static void submit(o2_out *o)
{
    pthread_mutex_lock(&o->lock);
    o->fill[o->submitted % OUT_BLOCKS] = o->n_cur;
    o->submitted++;
    o->failed_seen = o->failed;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->lock);
    o->cur = NULL;
    o->n_cur = 0;
}

/* The next item to fill, or NULL once writing has failed. */
static out_item *next_item(o2_out *o)
{
    if (o->failed_seen) return NULL;
    if (!o->cur) {
        pthread_mutex_lock(&o->lock);
        while (o->submitted - o->consumed >= OUT_BLOCKS) pthread_cond_wait(&o->cond, &o->lock);
        o->failed_seen = o->failed;
        o->cur = o->blocks[o->submitted % OUT_BLOCKS];
        pthread_mutex_unlock(&o->lock);
        if (o->failed_seen) return NULL;
    }
    return &o->cur[o->n_cur++];
}

static void item_done(o2_out *o)
{
    if (o->n_cur == OUT_BLOCK) submit(o);
}

void o2_out_emit(o2_out *o, const o2_draw *d, o2_cat *cat)
{
    if (!o->threaded) {
        o2_draw x = *d;
        x.cat = cat;
        sink_emit(&o->s, &x);
        return;
    }
    out_item *it = next_item(o);
    if (!it) return;
    it->op = ITEM_DRAW;
    it->d = *d;
    it->d.cat = cat;
    item_done(o);
}

void o2_out_file(o2_out *o, slog_writer *w, int64_t origin)
{
    out_item x = {.op = ITEM_FILE, .t = origin, .w = w};
    if (!o->threaded) {
        sink_do(&o->s, &x);
        return;
    }
    out_item *it = next_item(o);
    if (!it) return;
    it->op = x.op, it->t = x.t, it->w = x.w;
    item_done(o);
}

bool o2_out_advance(o2_out *o, int64_t watermark)
{
    if (!o->threaded) {
        sink_advance(&o->s, watermark);
        return !o->s.failed;
    }
    out_item *it = next_item(o);
    if (!it) return false;
    it->op = ITEM_ADVANCE;
    it->t = watermark;
    item_done(o);
    return !o->failed_seen;
}

bool o2_out_close(o2_out *o, char **why, size_t *max_wait)
{
    if (o->threaded) {
        if (o->cur && o->n_cur) submit(o);
        pthread_mutex_lock(&o->lock);
        o->closing = true;
        pthread_cond_broadcast(&o->cond);
        pthread_mutex_unlock(&o->lock);
        pthread_join(o->thread, NULL);
        pthread_mutex_destroy(&o->lock);
        pthread_cond_destroy(&o->cond);
        for (size_t i = 0; i < OUT_BLOCKS; i++) g_free(o->blocks[i]);
    }
    bool ok = !o->s.failed;
    if (max_wait) *max_wait = o->s.max_wait;
    if (why) *why = g_steal_pointer(&o->s.why);
    g_free(o->s.why);
    sink_free(&o->s);
    g_free(o);
    return ok;
}
