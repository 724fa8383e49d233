/* SPDX-License-Identifier: MIT */
/* htab.c - see htab.h. */
#include "htab.h"

#include <stdio.h>
#include <stdlib.h>

void htab_init(htab *t)
{
    t->slots = NULL;
    t->mask = 0;
    t->n = 0;
}

void htab_free(htab *t)
{
    free(t->slots);
    htab_init(t);
}

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n, size);
    if (!p) {
        fprintf(stderr, "slog2-build: out of memory (hash table of %zu entries)\n", n);
        abort();
    }
    return p;
}

static void place(htab *t, uint64_t key, void *val)
{
    size_t i = htab_slot_of(t, key);
    while (t->slots[i].val) i = (i + 1) & t->mask;
    t->slots[i].key = key;
    t->slots[i].val = val;
}

static void grow(htab *t)
{
    /* Small first: thousands of ranks each keep tables (handles, other
     * requests) of a few entries. */
    size_t old_cap = htab_capacity(t), cap = old_cap ? 2 * old_cap : 4;
    htab_entry *old = t->slots;
    t->slots = xcalloc(cap, sizeof *t->slots);
    t->mask = cap - 1;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].val) place(t, old[i].key, old[i].val);
    free(old);
}

void *htab_put(htab *t, uint64_t key, void *val)
{
    if (!val) return NULL;
    if (2 * (t->n + 1) > htab_capacity(t)) grow(t);
    size_t i = htab_slot_of(t, key);
    for (; t->slots[i].val; i = (i + 1) & t->mask) {
        if (t->slots[i].key == key) {
            void *old = t->slots[i].val;
            t->slots[i].val = val;
            return old;
        }
    }
    t->slots[i].key = key;
    t->slots[i].val = val;
    t->n++;
    return NULL;
}

void *htab_remove(htab *t, uint64_t key)
{
    if (!t->n) return NULL;
    size_t i = htab_slot_of(t, key);
    while (t->slots[i].val && t->slots[i].key != key) i = (i + 1) & t->mask;
    void *old = t->slots[i].val;
    if (!old) return NULL;
    /* Backward shift: pull later entries of the probe run into the hole
     * when their home slot does not lie cyclically in (hole, j]. */
    size_t hole = i;
    for (size_t j = (i + 1) & t->mask; t->slots[j].val; j = (j + 1) & t->mask) {
        size_t home = htab_slot_of(t, t->slots[j].key);
        if (((j - home) & t->mask) >= ((j - hole) & t->mask)) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole].val = NULL;
    t->n--;
    return old;
}
