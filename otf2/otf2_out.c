/* SPDX-License-Identifier: MIT */
/* otf2_out.c - the writer's thread of the OTF2 input: blocks of drawables
 * go from the reading thread to it through a ring of a few blocks; the
 * reader waits when all are full, the writer when all are empty. */
#include "otf2_out.h"

#include <glib.h>
#include <pthread.h>
#include <string.h>

#include "call_plan.h"

/* Drawables a block holds, and blocks in the ring: enough that the two
 * threads meet about once per block, few enough to stay small. */
#define OUT_BLOCK  4096
#define OUT_BLOCKS 4

typedef struct out_item {
    const o2_cat *reg; /* registered before the drawable, or NULL */
    slog_drawable d;
    int64_t info[O2_MAX_FIELDS];
} out_item;

struct o2_out {
    slog_writer *w;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    out_item *blocks[OUT_BLOCKS];
    size_t fill[OUT_BLOCKS];
    /* under lock: blocks handed over and blocks written, counted from the
     * start (block k is blocks[k % OUT_BLOCKS]); no more to come; failed */
    uint64_t submitted, consumed;
    bool closing;
    bool failed;
    char *why;
    /* the reading thread's own */
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

/* Write one block; the first error stops the writing and is kept. */
static void write_block(o2_out *o, out_item *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out_item *it = &v[i];
        slog_status st = SLOG_OK;
        if (it->reg) {
            uint32_t id = O2_NONE;
            st = o2_out_register(o->w, it->reg, &id);
            if (st == SLOG_OK && id != it->reg->file_id) st = SLOG_ERR_ARG;
        }
        it->d.info = it->d.n_info ? it->info : NULL;
        if (st == SLOG_OK) st = slog_writer_add(o->w, &it->d);
        if (st != SLOG_OK) {
            const slog_error *e = slog_writer_error(o->w);
            char *why = g_strdup(e->status != SLOG_OK ? e->message : slog_strerror(st));
            pthread_mutex_lock(&o->lock);
            o->failed = true;
            o->why = why;
            pthread_mutex_unlock(&o->lock);
            return;
        }
    }
}

static void *writer_main(void *arg)
{
    o2_out *o = arg;
    bool failed = false;
    pthread_mutex_lock(&o->lock);
    for (;;) {
        while (o->consumed == o->submitted && !o->closing) pthread_cond_wait(&o->cond, &o->lock);
        if (o->consumed == o->submitted) break;
        size_t k = o->consumed % OUT_BLOCKS;
        size_t n = o->fill[k];
        pthread_mutex_unlock(&o->lock);
        /* After a failure the blocks are only taken, so that the reader
         * never waits for good. */
        if (!failed) {
            write_block(o, o->blocks[k], n);
            pthread_mutex_lock(&o->lock);
            failed = o->failed;
        } else {
            pthread_mutex_lock(&o->lock);
        }
        o->consumed++;
        pthread_cond_broadcast(&o->cond);
    }
    pthread_mutex_unlock(&o->lock);
    return NULL;
}

o2_out *o2_out_start(slog_writer *w)
{
    o2_out *o = g_new0(o2_out, 1);
    o->w = w;
    for (size_t i = 0; i < OUT_BLOCKS; i++) o->blocks[i] = g_new(out_item, OUT_BLOCK);
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->cond, NULL);
    if (pthread_create(&o->thread, NULL, writer_main, o) != 0) {
        pthread_mutex_destroy(&o->lock);
        pthread_cond_destroy(&o->cond);
        for (size_t i = 0; i < OUT_BLOCKS; i++) g_free(o->blocks[i]);
        g_free(o);
        return NULL;
    }
    return o;
}

/* Hand the block being filled to the writer. */
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

bool o2_out_add(o2_out *o, const o2_cat *reg, const slog_drawable *d)
{
    if (o->failed_seen) return false;
    if (!o->cur) {
        pthread_mutex_lock(&o->lock);
        while (o->submitted - o->consumed >= OUT_BLOCKS) pthread_cond_wait(&o->cond, &o->lock);
        o->failed_seen = o->failed;
        o->cur = o->blocks[o->submitted % OUT_BLOCKS];
        pthread_mutex_unlock(&o->lock);
        if (o->failed_seen) return false;
    }
    out_item *it = &o->cur[o->n_cur++];
    it->reg = reg;
    it->d = *d;
    if (d->n_info) memcpy(it->info, d->info, d->n_info * sizeof *d->info);
    if (o->n_cur == OUT_BLOCK) submit(o);
    return !o->failed_seen;
}

bool o2_out_close(o2_out *o, char **why)
{
    if (o->cur && o->n_cur) submit(o);
    pthread_mutex_lock(&o->lock);
    o->closing = true;
    pthread_cond_broadcast(&o->cond);
    pthread_mutex_unlock(&o->lock);
    pthread_join(o->thread, NULL);
    bool ok = !o->failed;
    if (why) *why = g_steal_pointer(&o->why);
    g_free(o->why);
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->cond);
    for (size_t i = 0; i < OUT_BLOCKS; i++) g_free(o->blocks[i]);
    g_free(o);
    return ok;
}
