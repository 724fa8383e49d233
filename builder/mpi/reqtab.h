/* SPDX-License-Identifier: MIT */
/* reqtab.h - one rank's request slots, for the matcher (match.c).
 *
 * Why not a hash or an array of pointers: with thousands of ranks every
 * matching operation is another rank's, and each pointer followed from
 * the rank to its request was a cache miss (the table, its array, the
 * request). libdumpi numbers a rank's requests from 0 and reuses freed
 * ids, so the live ids stay small: the first REQTAB_INLINE slots lie in
 * the table itself, whose place follows from the rank alone, so reaching
 * one reads nothing before it (the matcher's array of tables is indexed
 * by rank). Ids up to
 * MATCH_REQ_DENSE go to an array grown on demand, any other id (larger,
 * negative: other tracers, a corrupt file) to a hash of slots.
 *
 * A slot is plain data: what the matcher keeps for a request (match.c
 * says what cur means there). Slots in the grown array move when it
 * grows: hold no slot pointer across a reqtab_slot() call.
 */
#ifndef SLOG2_REQTAB_H
#define SLOG2_REQTAB_H

#include <stdbool.h>
#include <stdint.h>

#include "htab.h"
#include "match.h"

struct mop;

typedef struct rslot {
    struct mop *cur; /* the matcher's: its operation (match.c, req_cur) */
    uint32_t init;   /* the matcher's: a persistent request's envelope, 0 none */
    uint8_t kind;    /* the matcher's: op_kind */
    bool used;       /* the id is in the table */
    bool persistent;
} rslot;
_Static_assert(sizeof(rslot) == 16, "four slots a cache line");

/* Slots in the table itself: ids 0 .. REQTAB_INLINE - 1, three cache
 * lines when the table starts on one (the matcher's per-rank record keeps
 * its own fields on the fourth, after the header). */
#define REQTAB_INLINE 12

typedef struct reqtab {
    rslot slot[REQTAB_INLINE];
    rslot *grown;     /* ids REQTAB_INLINE .. REQTAB_INLINE + n_grown - 1 */
    htab *other;      /* any other id -> rslot* (owned); NULL until needed */
    uint32_t n_grown; /* at most MATCH_REQ_DENSE - REQTAB_INLINE */
} reqtab;

void reqtab_init(reqtab *t);
void reqtab_free(reqtab *t);

/* The slot of id if it is in the table, else NULL. */
static inline rslot *reqtab_get(reqtab *t, int id)
{
    uint32_t u = (uint32_t)id;
    rslot *s;
    if (u < REQTAB_INLINE)
        s = &t->slot[u];
    else if (u - REQTAB_INLINE < t->n_grown)
        s = &t->grown[u - REQTAB_INLINE];
    else
        s = t->other ? htab_get(t->other, u) : NULL;
    return s && s->used ? s : NULL;
}

/* The slot of id, made (zeroed, not used) when absent. Aborts when out of
 * memory, as GLib does in the rest of the builder. */
rslot *reqtab_slot(reqtab *t, int id);

/* Take id out: its slot is zeroed (and given back when it was hashed). */
void reqtab_remove(reqtab *t, int id);

#endif
