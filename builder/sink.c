/* sink.c - see sink.h. */
#include "sink.h"

#include <glib.h>
#include <stdatomic.h>
#include <string.h>

#define BATCH 2048
#define N_BATCHES 4     /* bounds memory: at most this many batches in flight */

enum { OP_DRAWABLE, OP_CATEGORY, OP_TIMELINE };

typedef struct meta_copy {
    slog_category c;
    slog_timeline t;
    char *strings[2 + SLOG_MAX_FIELDS];
    const char *field_names[SLOG_MAX_FIELDS];
    uint8_t field_types[SLOG_MAX_FIELDS];
} meta_copy;

typedef struct item {
    uint8_t op;
    slog_drawable d;
    int64_t info[SLOG_MAX_FIELDS];
    meta_copy *meta;
} item;

typedef struct batch {
    uint32_t n;
    int last;   /* end of stream */
    item items[BATCH];
} batch;

struct sink {
    slog_writer *w;
    GThread *thread;
    GAsyncQueue *full, *empty;
    batch *cur;
    uint32_t n_categories, n_timelines;
    atomic_int failed;
    slog_error err;   /* written by the thread before failed is set */
};

static void meta_free(meta_copy *m) {
    if (!m) return;
    for (size_t i = 0; i < G_N_ELEMENTS(m->strings); i++) g_free(m->strings[i]);
    g_free(m);
}

static void run_item(sink *s, item *it) {
    slog_status st = SLOG_OK;
    if (!atomic_load(&s->failed)) {
        if (it->op == OP_DRAWABLE) {
            it->d.info = it->info;
            st = slog_writer_add(s->w, &it->d);
        } else if (it->op == OP_CATEGORY) {
            st = slog_writer_add_category(s->w, &it->meta->c, NULL);
        } else {
            st = slog_writer_add_timeline(s->w, &it->meta->t, NULL);
        }
        if (st != SLOG_OK) {
            s->err = *slog_writer_error(s->w);
            atomic_store(&s->failed, 1);
        }
    }
    meta_free(it->meta);
    it->meta = NULL;
}

static gpointer writer_main(gpointer data) {
    sink *s = data;
    for (;;) {
        batch *b = g_async_queue_pop(s->full);
        for (uint32_t i = 0; i < b->n; i++) run_item(s, &b->items[i]);
        int last = b->last;
        b->n = 0;
        g_async_queue_push(s->empty, b);
        if (last) return NULL;
    }
}

sink *sink_new(slog_writer *w, uint32_t n_categories, uint32_t n_timelines, int threaded) {
    sink *s = g_new0(sink, 1);
    s->w = w;
    s->n_categories = n_categories;
    s->n_timelines = n_timelines;
    s->cur = g_new0(batch, 1);
    if (!threaded) return s; /* no thread, no queues: next_item() writes as it goes */
    s->full = g_async_queue_new();
    s->empty = g_async_queue_new();
    for (int i = 0; i < N_BATCHES - 1; i++) g_async_queue_push(s->empty, g_new0(batch, 1));
    s->thread = g_thread_new("slog-writer", writer_main, s);
    return s;
}

static item *next_item(sink *s) {
    if (s->cur->n == BATCH) {
        if (s->thread) {
            g_async_queue_push(s->full, s->cur);
            s->cur = g_async_queue_pop(s->empty); /* waits when the writer is behind */
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
    it->meta = m;
    return s->n_timelines++;
}

void sink_add(sink *s, const slog_drawable *d) {
    item *it = next_item(s);
    it->op = OP_DRAWABLE;
    it->d = *d;
    it->meta = NULL;
    if (d->n_info) memcpy(it->info, d->info, d->n_info * sizeof *d->info);
}

int sink_failed(const sink *s) { return atomic_load(&((sink *)s)->failed); }

slog_status sink_close(sink *s, slog_error *err) {
    if (s->thread) {
        s->cur->last = 1;
        g_async_queue_push(s->full, s->cur);
        g_thread_join(s->thread);
        batch *b;
        while ((b = g_async_queue_try_pop(s->empty))) g_free(b);
        g_async_queue_unref(s->full);
        g_async_queue_unref(s->empty);
    } else {
        for (uint32_t i = 0; i < s->cur->n; i++) run_item(s, &s->cur->items[i]);
        g_free(s->cur);
    }
    slog_status st = atomic_load(&s->failed) ? s->err.status : SLOG_OK;
    if (st && err) *err = s->err;
    g_free(s);
    return st;
}
