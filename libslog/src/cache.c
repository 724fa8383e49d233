/* SPDX-License-Identifier: MIT */
/* cache.c - decoded tree nodes kept between queries (slog_reader_set_cache).
 *
 * Zooming in keeps most of the window a frame just decoded, and panning
 * all but a strip of it, so a viewer's next query mostly asks for nodes it
 * has already read; decoding their records was most of a query's work.
 * Entries are found by node number in an array the size of the directory,
 * kept in order of use on a doubly linked list, and reference-counted so
 * that a query still delivering an entry keeps it alive when another
 * thread's query pushes it out. One mutex guards the table, the list and
 * the counters; it is held only to find, insert or let go of an entry,
 * never while records are decoded or delivered.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "reader_internal.h"

typedef struct rd_cache {
    pthread_mutex_t mu;
    uint64_t max_bytes, bytes;
    uint64_t hits, misses, evictions, entries;
    rd_centry **by_node; /* r->info.n_nodes slots */
    rd_centry *newest, *oldest;
} rd_cache;

rd_centry *rd_centry_new(uint64_t node, uint32_t n)
{
    rd_centry *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->recs = malloc(sizeof *e->recs * (n ? n : 1));
    if (!e->recs) {
        free(e);
        return NULL;
    }
    e->node = node;
    e->n = n;
    e->refs = 1;
    return e;
}

static void centry_free(rd_centry *e)
{
    free(e->own);
    free(e->recs);
    free(e);
}

static void unlink_entry(rd_cache *c, rd_centry *e)
{
    if (e->newer)
        e->newer->older = e->older;
    else
        c->newest = e->older;
    if (e->older)
        e->older->newer = e->newer;
    else
        c->oldest = e->newer;
    e->newer = e->older = NULL;
}

static void push_newest(rd_cache *c, rd_centry *e)
{
    e->older = c->newest;
    e->newer = NULL;
    if (c->newest) c->newest->newer = e;
    c->newest = e;
    if (!c->oldest) c->oldest = e;
}

/* Take e out of the table (under the lock); true when nothing holds it
 * any more and the caller is to free it. */
static bool drop_entry(rd_cache *c, rd_centry *e)
{
    unlink_entry(c, e);
    c->by_node[e->node] = NULL;
    c->bytes -= e->bytes;
    c->entries--;
    e->in_table = false;
    return --e->refs == 0;
}

/* Let the oldest entries go until the cache holds at most limit bytes;
 * the ones nobody holds are chained on *dead to be freed unlocked. */
static void trim(rd_cache *c, uint64_t limit, rd_centry **dead)
{
    while (c->bytes > limit && c->oldest) {
        rd_centry *e = c->oldest;
        c->evictions++;
        if (drop_entry(c, e)) {
            e->older = *dead;
            *dead = e;
        }
    }
}

static void free_chain(rd_centry *e)
{
    while (e) {
        rd_centry *next = e->older;
        centry_free(e);
        e = next;
    }
}

rd_centry *rd_cache_get(slog_reader *r, uint64_t node)
{
    rd_cache *c = r->cache;
    pthread_mutex_lock(&c->mu);
    rd_centry *e = node < r->info.n_nodes ? c->by_node[node] : NULL;
    if (e) {
        e->refs++;
        c->hits++;
        unlink_entry(c, e);
        push_newest(c, e);
    } else {
        c->misses++;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

void rd_cache_put(slog_reader *r, rd_centry *e)
{
    rd_cache *c = r->cache;
    e->bytes = sizeof *e + (size_t)e->n * sizeof *e->recs + (size_t)(e->recs_len + (size_t)(e->recs_at - e->own));
    rd_centry *dead = NULL;
    pthread_mutex_lock(&c->mu);
    if (e->node < r->info.n_nodes && !c->by_node[e->node] && e->bytes <= c->max_bytes) {
        trim(c, c->max_bytes - e->bytes, &dead);
        c->by_node[e->node] = e;
        e->in_table = true;
        e->refs++;
        c->bytes += e->bytes;
        c->entries++;
        push_newest(c, e);
    }
    pthread_mutex_unlock(&c->mu);
    free_chain(dead);
}

void rd_cache_release(slog_reader *r, rd_centry *e)
{
    if (!e) return;
    rd_cache *c = r->cache;
    bool last;
    if (c) {
        pthread_mutex_lock(&c->mu);
        last = --e->refs == 0;
        pthread_mutex_unlock(&c->mu);
    } else {
        last = --e->refs == 0;
    }
    if (last) centry_free(e);
}

void rd_cache_free(slog_reader *r)
{
    rd_cache *c = r->cache;
    if (!c) return;
    rd_centry *dead = NULL;
    trim(c, 0, &dead);
    free_chain(dead);
    pthread_mutex_destroy(&c->mu);
    free(c->by_node);
    free(c);
    r->cache = NULL;
}

slog_status slog_reader_set_cache(slog_reader *r, uint64_t max_bytes)
{
    if (!r) return SLOG_ERR_ARG;
    if (!max_bytes) {
        rd_cache_free(r);
        return SLOG_OK;
    }
    if (!r->cache) {
        rd_cache *c = calloc(1, sizeof *c);
        if (!c) return SLOG_ERR_NOMEM;
        c->by_node = calloc(r->info.n_nodes ? r->info.n_nodes : 1, sizeof *c->by_node);
        if (!c->by_node || pthread_mutex_init(&c->mu, NULL) != 0) {
            free(c->by_node);
            free(c);
            return SLOG_ERR_NOMEM;
        }
        r->cache = c;
    }
    rd_centry *dead = NULL;
    r->cache->max_bytes = max_bytes;
    trim(r->cache, max_bytes, &dead);
    free_chain(dead);
    return SLOG_OK;
}

void slog_reader_cache_stats(const slog_reader *r, slog_cache_stats *out)
{
    memset(out, 0, sizeof *out);
    rd_cache *c = r ? r->cache : NULL;
    if (!c) return;
    pthread_mutex_lock(&c->mu);
    *out = (slog_cache_stats){c->hits, c->misses, c->evictions, c->entries, c->bytes, c->max_bytes};
    pthread_mutex_unlock(&c->mu);
}
