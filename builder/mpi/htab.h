/* SPDX-License-Identifier: MIT */
/* htab.h - an open-addressing hash map from 64-bit keys to non-NULL pointers.
 *
 * Why not GHashTable: the builder looks up a request, a communicator or a
 * message channel for every MPI call, and GHashTable's hash and equality
 * callbacks, called through pointers, showed in every profile. Here the hash is a multiply-shift on
 * the key itself and a probe is an inline loop over a flat array.
 *
 * Linear probing with backward-shift deletion (no tombstones), capacity a
 * power of two, at most half full. Values are never NULL: NULL means
 * "absent". Allocation failure aborts, as GLib's does in the rest of the
 * builder.
 */
#ifndef SLOG2_HTAB_H
#define SLOG2_HTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct htab_entry {
    uint64_t key;
    void *val; /* NULL: slot empty */
} htab_entry;

typedef struct htab {
    htab_entry *slots;
    size_t mask; /* capacity - 1; 0 with no slots */
    size_t n;
} htab;

void htab_init(htab *t);
void htab_free(htab *t);

static inline size_t htab_slot_of(const htab *t, uint64_t key)
{
    /* Fibonacci hashing: the top bits of key * 2^64/phi. */
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & t->mask;
}

static inline void *htab_get(const htab *t, uint64_t key)
{
    if (!t->n) return NULL;
    for (size_t i = htab_slot_of(t, key);; i = (i + 1) & t->mask) {
        const htab_entry *e = &t->slots[i];
        if (!e->val) return NULL;
        if (e->key == key) return e->val;
    }
}

/* Insert or replace; returns the value it replaced (NULL if none). */
void *htab_put(htab *t, uint64_t key, void *val);
/* Remove; returns the removed value (NULL if absent). */
void *htab_remove(htab *t, uint64_t key);
static inline size_t htab_size(const htab *t)
{
    return t->n;
}

/* Iteration: slots 0..htab_capacity()-1, skipping empty ones. Do not insert
 * or remove while iterating; collect, then change. */
static inline size_t htab_capacity(const htab *t)
{
    return t->slots ? t->mask + 1 : 0;
}
static inline const htab_entry *htab_at(const htab *t, size_t i)
{
    return &t->slots[i];
}

#endif
