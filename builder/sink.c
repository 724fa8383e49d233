/* sink.c - see sink.h. */
#include "sink.h"

#include <glib.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reorder.h"

/* GLib's GMutex and GCond are futexes ThreadSanitizer cannot see, so under
 * it every queue hand-off also goes through a pthread mutex: the order the
 * queue gives is then visible, and only real races are reported (the
 * builder.tsan tests; ordinary builds use the queue alone). */
#if defined(__SANITIZE_THREAD__)
#define SINK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define SINK_TSAN 1
#endif
#endif
#ifdef SINK_TSAN
#include <pthread.h>
static pthread_mutex_t tsan_order = PTHREAD_MUTEX_INITIALIZER;
static void queue_push(GAsyncQueue *q, gpointer b) {
    pthread_mutex_lock(&tsan_order);
    g_async_queue_push(q, b);
    pthread_mutex_unlock(&tsan_order);
}
static gpointer queue_try_pop(GAsyncQueue *q) {
    pthread_mutex_lock(&tsan_order);
    gpointer b = g_async_queue_try_pop(q);
    pthread_mutex_unlock(&tsan_order);
    return b;
}
static gpointer queue_pop(GAsyncQueue *q) {
    gpointer b;
    while (!(b = queue_try_pop(q))) g_usleep(20);
    return b;
}
#else
#define queue_push g_async_queue_push
#define queue_try_pop g_async_queue_try_pop
#define queue_pop g_async_queue_pop
#endif

#define BATCH 2048
/* At most this many batches (7 MB) in flight. Fewer let one thread's bursts
 * (the writer's leaf-width replay, node closes) stall the other: with 4, 16
 * ranks built 4 % slower. They are made as the producer gets ahead, not up
 * front: zeroing 7 MB of pages it never needed cost a small trace 1.5 ms. */
#define N_BATCHES 16

enum { OP_DRAWABLE, OP_CATEGORY, OP_TIMELINE, OP_ADVANCE, OP_CALL };

#define NO_WM INT64_MIN

typedef struct meta_copy {
    slog_category c;
    slog_timeline t;
    char *strings[2 + SLOG_MAX_FIELDS];
    const char *field_names[SLOG_MAX_FIELDS];
    uint8_t field_types[SLOG_MAX_FIELDS];
} meta_copy;

/* A drawable as the reorder buffer holds it: only n_info values copied. */
typedef struct held {
    slog_drawable d;
    int64_t info[SLOG_MAX_FIELDS];
} held;

typedef struct call {
    sink_call_fn fn;
    void *user;
    max_align_t payload[(SINK_CALL_BYTES + sizeof(max_align_t) - 1) / sizeof(max_align_t)];
} call;

typedef struct item {
    uint8_t op;
    int64_t wm;   /* then release up to wm (NO_WM: not now) */
    union {
        held h;   /* OP_DRAWABLE */
        call c;   /* OP_CALL */
    };
    meta_copy *meta;
} item;

typedef struct batch {
    uint32_t n;
    int last;   /* end of stream */
    item items[BATCH];
} batch;

/* The producer's fields and the thread's are on separate cache lines: the
 * producer writes its own on every MPI call, and sharing a line with what
 * the thread reads per item cost a cache miss each time on both sides. */
struct sink {
    /* shared, read-only while the thread runs */
    slog_writer *w;
    GThread *thread;
    GAsyncQueue *full, *empty;
    /* producer */
    _Alignas(64) batch *cur;
    uint32_t n_categories, n_timelines;
    uint32_t n_batches;  /* made so far (threaded), up to N_BATCHES */
    int64_t last_wm;     /* the last watermark queued */
    int added;           /* drawables queued since then */
    /* the sink's thread (the caller's without one) */
    _Alignas(64) reorder *ro;
    uint64_t n_clamped;
    int64_t cur_wm;           /* the last watermark applied (NO_WM: none yet) */
    const int64_t *low_wm;    /* sink_set_low_watermark's, or NULL */
    uint32_t *cat_map;        /* producer's category id -> writer's */
    uint32_t n_cat_map, cap_cat_map, w_cats; /* producer ids mapped; writer's count */
    uint32_t *thread_cats;    /* [UINT32_MAX - id] -> writer's, for sink_emit_category's ids */
    uint32_t n_thread_cats;
    uint32_t w_tls;           /* the writer's timelines */
    GHashTable *tl_ids;       /* rank << 16 | thread (> 0) -> writer id + 1 */
    slog_error err;      /* written before failed is set */
    _Alignas(64) atomic_int failed;
    double producer_wait_s;   /* the producer's */
    double writer_wait_s, writer_cpu_s; /* the thread's, read after the join */
};

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Pop from q, adding the time spent blocked to *waited: how much each side
 * waits for the other says which one bounds the build. */
static batch *pop_timed(GAsyncQueue *q, double *waited) {
    batch *b = queue_try_pop(q);
    if (b) return b;
    double t0 = clock_s(CLOCK_MONOTONIC);
    b = queue_pop(q);
    *waited += clock_s(CLOCK_MONOTONIC) - t0;
    return b;
}

static void meta_free(meta_copy *m) {
    if (!m) return;
    for (size_t i = 0; i < G_N_ELEMENTS(m->strings); i++) g_free(m->strings[i]);
    g_free(m);
}

static void fail_with_writer(sink *s) {
    s->err = *slog_writer_error(s->w);
    atomic_store(&s->failed, 1);
}

/* Hand h to the writer; false (and the sink failed) on its error. */
static bool write_held(sink *s, const held *h) {
    slog_drawable d = h->d;
    d.info = h->info;
    /* Mapped on this copy: the item's own cache lines stay clean (below). */
    uint32_t c = d.category, t = UINT32_MAX - c;
    d.category = c < s->n_cat_map ? s->cat_map[c] : t < s->n_thread_cats ? s->thread_cats[t] : c;
    if (slog_writer_add(s->w, &d) == SLOG_OK) return true;
    fail_with_writer(s);
    return false;
}

static slog_cb_result release(void *user, int64_t key, const void *data, size_t len) {
    (void)key;
    (void)len;
    return write_held(user, data) ? SLOG_CONTINUE : SLOG_STOP;
}

/* Reorder h, then release up to wm (NO_WM: not now). Inlined into the
 * writer thread's loop, which runs it for every state; hold() for the
 * others. */
static inline __attribute__((always_inline)) void hold_inline(sink *s, held *h, int64_t wm) {
    slog_drawable *d = &h->d;
    int64_t key = d->start > d->end ? d->start : d->end;
    int64_t last = reorder_last_key(s->ro);
    if (key < last) {
        s->n_clamped++;
        if (d->kind == SLOG_KIND_EVENT)
            d->start = d->end = last;
        else if (d->end >= d->start)
            d->end = last;
        else
            d->start = last;
        key = last;
    }
    if (wm != NO_WM && reorder_bypass(s->ro, key, wm)) { /* most drawables: no copy, no callback */
        write_held(s, h);
        return;
    }
    size_t len = offsetof(held, info) + d->n_info * sizeof *d->info;
    slog_status st = wm == NO_WM ? reorder_push(s->ro, key, h, len) : reorder_pass(s->ro, key, wm, h, len);
    if (st != SLOG_OK) {
        s->err.status = st;
        s->err.offset = SLOG_NO_OFFSET;
        snprintf(s->err.message, sizeof s->err.message, "reorder buffer: %s", slog_strerror(st));
        atomic_store(&s->failed, 1);
    }
}

static void hold(sink *s, held *h, int64_t wm) { hold_inline(s, h, wm); }

/* The watermark an item carries, lowered by the low watermark function;
 * it stays valid for every later item (nothing added afterwards ends before
 * it), so items without one are held against it. An item at that edge then
 * goes straight to the writer instead of through the reorder heap: most
 * arrows, which are made here mid-record. */
static int64_t apply_wm(sink *s, int64_t wm) {
    if (wm == NO_WM) return s->cur_wm;
    if (s->low_wm && *s->low_wm < wm) wm = *s->low_wm;
    return s->cur_wm = wm;
}

static void add_category(sink *s, const slog_category *c) {
    if (slog_writer_add_category(s->w, c, NULL) != SLOG_OK) fail_with_writer(s);
    s->w_cats++;
}

static void run_item(sink *s, item *it) {
    slog_status st = SLOG_OK;
    if (it->op == OP_CALL) {
        /* Always run: a call may own memory only it frees; what it adds
         * after a failure is dropped (sink_emit). */
        it->c.fn(it->c.user, it->c.payload);
        if (it->wm != NO_WM && !atomic_load(&s->failed)) reorder_advance(s->ro, apply_wm(s, it->wm));
    } else if (!atomic_load(&s->failed)) {
        if (it->op == OP_DRAWABLE) {
            hold(s, &it->h, apply_wm(s, it->wm));
        } else if (it->op == OP_ADVANCE) {
            reorder_advance(s->ro, apply_wm(s, it->wm));
        } else if (it->op == OP_CATEGORY) {
            /* producer ids count up from sink_new()'s n_categories */
            if (s->n_cat_map == s->cap_cat_map) {
                s->cap_cat_map = 2 * s->cap_cat_map + 16;
                s->cat_map = g_renew(uint32_t, s->cat_map, s->cap_cat_map);
            }
            s->cat_map[s->n_cat_map++] = s->w_cats;
            add_category(s, &it->meta->c);
        } else {
            st = slog_writer_add_timeline(s->w, &it->meta->t, NULL);
            if (it->meta->t.thread)
                g_hash_table_insert(s->tl_ids, GSIZE_TO_POINTER(((gsize)it->meta->t.rank << 16) | it->meta->t.thread),
                                    GSIZE_TO_POINTER((gsize)s->w_tls + 1));
            s->w_tls++;
        }
        if (st != SLOG_OK) fail_with_writer(s);
    }
    /* No write to the item itself: its cache lines stay clean here, so the
     * producer refilling them does not have to fetch them back from this
     * core first. */
    meta_free(it->meta);
}

static gpointer writer_main(gpointer data) {
    sink *s = data;
    for (;;) {
        batch *b = pop_timed(s->full, &s->writer_wait_s);
        for (uint32_t i = 0; i < b->n; i++) {
            item *it = &b->items[i];
            /* The common item here, the rest through run_item(). */
            if (it->op == OP_DRAWABLE && !atomic_load(&s->failed))
                hold_inline(s, &it->h, apply_wm(s, it->wm));
            else
                run_item(s, it);
        }
        int last = b->last;
        if (last) s->writer_cpu_s = clock_s(CLOCK_THREAD_CPUTIME_ID);
        b->n = 0;
        queue_push(s->empty, b);
        if (last) return NULL;
    }
}

sink *sink_new(slog_writer *w, uint32_t n_categories, uint32_t n_timelines, int threaded) {
    sink *s = aligned_alloc(_Alignof(sink), sizeof(sink)); /* sizeof is a multiple of it */
    if (!s) g_error("out of memory");
    memset(s, 0, sizeof *s);
    s->w = w;
    s->n_categories = n_categories;
    s->n_timelines = n_timelines;
    s->last_wm = NO_WM;
    s->cur_wm = NO_WM;
    s->ro = reorder_new(release, s);
    s->cap_cat_map = n_categories + 1;
    s->cat_map = g_new(uint32_t, s->cap_cat_map);
    for (uint32_t i = 0; i < n_categories; i++) s->cat_map[i] = i;
    s->n_cat_map = s->w_cats = n_categories;
    s->w_tls = n_timelines;
    s->tl_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
    s->cur = g_new0(batch, 1);
    if (!threaded) return s; /* no thread, no queues: next_item() writes as it goes */
    s->full = g_async_queue_new();
    s->empty = g_async_queue_new();
    s->n_batches = 1;
    s->thread = g_thread_new("slog-writer", writer_main, s);
    return s;
}

static item *next_item(sink *s) {
    if (s->cur->n == BATCH) {
        if (s->thread) {
            queue_push(s->full, s->cur);
            s->cur = queue_try_pop(s->empty);
            if (!s->cur && s->n_batches < N_BATCHES) { /* ahead of the writer: one more batch */
                s->cur = g_new0(batch, 1);
                s->n_batches++;
            }
            if (!s->cur) s->cur = pop_timed(s->empty, &s->producer_wait_s); /* waits when the writer is behind */
        } else {
            for (uint32_t i = 0; i < BATCH; i++) run_item(s, &s->cur->items[i]);
            s->cur->n = 0;
        }
    }
    return &s->cur->items[s->cur->n++];
}

uint32_t sink_add_category(sink *s, const slog_category *c) {
    meta_copy *m = g_new0(meta_copy, 1);
    m->c = *c;
    m->c.name = m->strings[0] = g_strdup(c->name);
    m->c.group = m->strings[1] = g_strdup(c->group);
    for (uint32_t i = 0; i < c->n_fields && i < SLOG_MAX_FIELDS; i++) {
        m->field_names[i] = m->strings[2 + i] = g_strdup(c->field_names[i]);
        m->field_types[i] = c->field_types[i];
    }
    m->c.field_names = m->field_names;
    m->c.field_types = m->field_types;
    item *it = next_item(s);
    it->op = OP_CATEGORY;
    it->wm = NO_WM;
    it->meta = m;
    return s->n_categories++;
}

uint32_t sink_add_timeline(sink *s, const slog_timeline *t) {
    meta_copy *m = g_new0(meta_copy, 1);
    m->t = *t;
    m->t.label = m->strings[0] = g_strdup(t->label);
    m->t.group = m->strings[1] = g_strdup(t->group);
    item *it = next_item(s);
    it->op = OP_TIMELINE;
    it->wm = NO_WM;
    it->meta = m;
    return s->n_timelines++;
}

slog_drawable *sink_next(sink *s) {
    item *it = next_item(s);
    it->op = OP_DRAWABLE;
    it->wm = NO_WM;
    it->meta = NULL;
    it->h.d.info = it->h.info;
    s->added = 1;
    return &it->h.d;
}

void sink_advance(sink *s, int64_t wm) {
    if (wm == s->last_wm && !s->added) return;
    /* Ride on the last drawable when it is still in the batch: one item
     * per MPI call instead of two. */
    item *last = s->cur->n ? &s->cur->items[s->cur->n - 1] : NULL;
    if (!last || last->op != OP_DRAWABLE || last->wm != NO_WM) {
        last = next_item(s);
        last->op = OP_ADVANCE;
        last->meta = NULL;
    }
    last->wm = wm;
    s->last_wm = wm;
    s->added = 0;
}

void *sink_call(sink *s, sink_call_fn fn, void *user) {
    item *it = next_item(s);
    it->op = OP_CALL;
    it->wm = NO_WM;
    it->meta = NULL;
    it->c.fn = fn;
    it->c.user = user;
    s->added = 1;
    return it->c.payload;
}

void sink_set_low_watermark(sink *s, const int64_t *lw) { s->low_wm = lw; }

void sink_emit(sink *s, const slog_drawable *d) {
    if (atomic_load(&s->failed)) return;
    held h;
    h.d = *d;
    for (uint32_t i = 0; i < d->n_info && i < SLOG_MAX_FIELDS; i++) h.info[i] = d->info[i];
    h.d.info = h.info;
    hold(s, &h, s->cur_wm);
}

uint32_t sink_emit_category(sink *s, const slog_category *c) {
    s->thread_cats = g_renew(uint32_t, s->thread_cats, s->n_thread_cats + 1); /* a few at most */
    s->thread_cats[s->n_thread_cats] = s->w_cats;
    if (!atomic_load(&s->failed)) add_category(s, c);
    return UINT32_MAX - s->n_thread_cats++;
}

uint32_t sink_timeline_of(const sink *s, uint32_t rank, uint32_t thread) {
    if (thread == 0) return rank;
    gpointer v = g_hash_table_lookup(s->tl_ids, GSIZE_TO_POINTER(((gsize)rank << 16) | thread));
    return v ? (uint32_t)GPOINTER_TO_SIZE(v) - 1 : UINT32_MAX;
}

int sink_failed(const sink *s) { return atomic_load(&((sink *)s)->failed); }

slog_status sink_close(sink *s, slog_error *err, sink_stats *stats) {
    if (s->thread) {
        s->cur->last = 1;
        queue_push(s->full, s->cur);
        g_thread_join(s->thread);
        batch *b;
        while ((b = queue_try_pop(s->empty))) g_free(b);
        g_async_queue_unref(s->full);
        g_async_queue_unref(s->empty);
    } else {
        for (uint32_t i = 0; i < s->cur->n; i++) run_item(s, &s->cur->items[i]);
        g_free(s->cur);
    }
    /* The thread has ended (or never was): finish its reordering here. */
    if (!atomic_load(&s->failed)) reorder_flush(s->ro);
    if (stats) {
        stats->n_clamped = s->n_clamped;
        stats->max_pending = reorder_max_pending(s->ro);
        stats->producer_wait_s = s->producer_wait_s;
        stats->writer_wait_s = s->writer_wait_s;
        stats->writer_cpu_s = s->writer_cpu_s;
    }
    reorder_free(s->ro);
    g_free(s->cat_map);
    g_free(s->thread_cats);
    g_hash_table_destroy(s->tl_ids);
    slog_status st = atomic_load(&s->failed) ? s->err.status : SLOG_OK;
    if (st && err) *err = s->err;
    free(s);
    return st;
}
