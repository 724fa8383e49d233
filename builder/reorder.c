/* reorder.c - end-order reorder buffer (see reorder.h): individually
 * allocated copies, ordered on (key, push sequence).
 *
 * Most items come in key order already (a producer's states, by exit
 * time) and wait only behind a few late ones (arrows). Those in order since
 * the last one go to a run, a FIFO whose head is its smallest: pushing and
 * popping there is O(1). Only an item with a key below the run's tail goes
 * to a binary min-heap. The smallest item is the smaller of the run's head
 * and the heap's top, so items come out in the one order a single heap
 * gives, with far fewer comparisons and moves when nearly all are in
 * order. */
#include "reorder.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct item {
    int64_t key;
    uint64_t seq;  /* push order: equal keys stay FIFO */
    size_t len;
    struct item *next_free; /* free-list link while recycled */
    max_align_t data[]; /* payload copy, aligned for any type */
} item;

/* Items of at most POOL_LEN payload bytes are recycled through a free list:
 * the builder pushes one item per MPI call, and a malloc/free pair each was
 * a tenth of its time. */
#define POOL_LEN 256

struct reorder {
    reorder_release_cb cb;
    void *user;
    item *free_items;   /* recycled items, linked by next_free */
    item **run;         /* ring of run_cap (a power of two) slots */
    size_t run_head, run_n, run_cap;
    item **heap;
    size_t heap_n, heap_cap;
    size_t n, max_n;    /* held: run_n + heap_n */
    uint64_t next_seq;
    int64_t last_key;
    int stopped;
};

reorder *reorder_new(reorder_release_cb cb, void *user)
{
    reorder *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->cb = cb;
    r->user = user;
    r->last_key = INT64_MIN;
    return r;
}

void reorder_free(reorder *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->heap_n; i++)
        free(r->heap[i]);
    for (size_t i = 0; i < r->run_n; i++)
        free(r->run[(r->run_head + i) & (r->run_cap - 1)]);
    free(r->run);
    while (r->free_items) {
        item *next = r->free_items->next_free;
        free(r->free_items);
        r->free_items = next;
    }
    free(r->heap);
    free(r);
}

static int item_less(const item *a, const item *b)
{
    return a->key != b->key ? a->key < b->key : a->seq < b->seq;
}

/* Room for one more pointer in *v (capacity *cap); false when out of
 * memory. A ring keeps its order: the wrapped part moves up. */
static bool grow(item ***v, size_t *cap, size_t head)
{
    size_t cap2 = *cap ? 2 * *cap : 64;
    if (cap2 > SIZE_MAX / sizeof(item *))
        return false;
    item **g = realloc(*v, cap2 * sizeof *g);
    if (!g)
        return false;
    if (head) /* ring: slots [0, head) follow [head, cap) */
        memcpy(g + *cap, g, head * sizeof *g);
    *v = g;
    *cap = cap2;
    return true;
}

static item *run_tail(const reorder *r)
{
    return r->run[(r->run_head + r->run_n - 1) & (r->run_cap - 1)];
}

static item *run_front(const reorder *r)
{
    return r->run[r->run_head];
}

static void heap_insert(reorder *r, item *it)
{
    size_t i = r->heap_n++;
    while (i > 0 && item_less(it, r->heap[(i - 1) / 2])) {
        r->heap[i] = r->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    r->heap[i] = it;
}

slog_status reorder_push(reorder *r, int64_t key, const void *data, size_t len)
{
    if (!r || (len > 0 && !data))
        return SLOG_ERR_ARG;
    if (r->stopped)
        return SLOG_OK;
    if (key < r->last_key)
        return SLOG_ERR_ORDER;
    if (len > SIZE_MAX - sizeof(item))
        return SLOG_ERR_LIMIT;
    bool in_run = r->run_n == 0 || key >= run_tail(r)->key;
    if (in_run ? r->run_n == r->run_cap && !grow(&r->run, &r->run_cap, r->run_head)
               : r->heap_n == r->heap_cap && !grow(&r->heap, &r->heap_cap, 0))
        return SLOG_ERR_NOMEM;
    item *it;
    if (len <= POOL_LEN && r->free_items) {
        it = r->free_items;
        r->free_items = it->next_free;
    } else {
        it = malloc(sizeof(item) + (len <= POOL_LEN ? POOL_LEN : len));
        if (!it)
            return SLOG_ERR_NOMEM;
    }
    it->key = key;
    it->seq = r->next_seq++;
    it->len = len;
    if (len)
        memcpy(it->data, data, len);
    if (in_run)
        r->run[(r->run_head + r->run_n++) & (r->run_cap - 1)] = it;
    else
        heap_insert(r, it);
    if (++r->n > r->max_n)
        r->max_n = r->n;
    return SLOG_OK;
}

static item *heap_pop(reorder *r)
{
    item *top = r->heap[0];
    item *last = r->heap[--r->heap_n];
    size_t i = 0;
    for (;;) {
        size_t l = 2 * i + 1, s = l;
        if (l >= r->heap_n)
            break;
        if (l + 1 < r->heap_n && item_less(r->heap[l + 1], r->heap[l]))
            s = l + 1;
        if (!item_less(r->heap[s], last))
            break;
        r->heap[i] = r->heap[s];
        i = s;
    }
    if (r->heap_n > 0)
        r->heap[i] = last;
    return top;
}

/* The smallest held item (r->n > 0), not removed. */
static item *peek_min(const reorder *r)
{
    if (!r->heap_n)
        return run_front(r);
    if (!r->run_n || item_less(r->heap[0], run_front(r)))
        return r->heap[0];
    return run_front(r);
}

/* Take out it, the item peek_min() gave. */
static void take(reorder *r, const item *it)
{
    if (r->run_n && it == run_front(r)) {
        r->run_head = (r->run_head + 1) & (r->run_cap - 1);
        r->run_n--;
    } else {
        heap_pop(r);
    }
    r->n--;
}

slog_status reorder_advance(reorder *r, int64_t watermark)
{
    if (!r)
        return SLOG_ERR_ARG;
    item *it;
    while (!r->stopped && r->n > 0 && (it = peek_min(r))->key <= watermark) {
        take(r, it);
        r->last_key = it->key;
        if (r->cb && r->cb(r->user, it->key, it->data, it->len) == SLOG_STOP)
            r->stopped = 1;
        if (it->len <= POOL_LEN) {
            it->next_free = r->free_items;
            r->free_items = it;
        } else {
            free(it);
        }
    }
    return SLOG_OK;
}

int reorder_bypass(reorder *r, int64_t key, int64_t watermark)
{
    /* Held items go first only when they sort before this one: an arrow
     * whose receive waited for its send comes out below everything held
     * behind it meanwhile, and need not pass through the heap. */
    if ((r->n && key >= peek_min(r)->key) || r->stopped || key < r->last_key || key > watermark)
        return 0;
    /* In order already: the common case when a producer's drawables
     * mostly arrive by end time. */
    r->next_seq++;
    r->last_key = key;
    if (r->max_n == 0)
        r->max_n = 1;
    return 1;
}

slog_status reorder_pass(reorder *r, int64_t key, int64_t watermark, const void *data, size_t len)
{
    if (!r || (len > 0 && !data))
        return SLOG_ERR_ARG;
    if (reorder_bypass(r, key, watermark)) {
        if (r->cb && r->cb(r->user, key, data, len) == SLOG_STOP)
            r->stopped = 1;
        return SLOG_OK;
    }
    slog_status st = reorder_push(r, key, data, len);
    return st != SLOG_OK ? st : reorder_advance(r, watermark);
}

slog_status reorder_flush(reorder *r)
{
    return reorder_advance(r, INT64_MAX);
}

size_t reorder_pending(const reorder *r)
{
    return r->n;
}

size_t reorder_max_pending(const reorder *r)
{
    return r->max_n;
}

int64_t reorder_last_key(const reorder *r)
{
    return r->last_key;
}

int reorder_stopped(const reorder *r)
{
    return r->stopped;
}
