/* SPDX-License-Identifier: MIT */
/* reqtab.c - see reqtab.h. */
#include "reqtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(MATCH_REQ_DENSE > REQTAB_INLINE, "the grown array follows the table's own slots");

static void *xalloc(void *p, size_t n)
{
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "slog2-build: out of memory (request table of %zu bytes)\n", n);
        abort();
    }
    return q;
}

void reqtab_init(reqtab *t)
{
    memset(t, 0, sizeof *t);
}

void reqtab_free(reqtab *t)
{
    free(t->grown);
    if (t->other) {
        for (size_t i = 0; i < htab_capacity(t->other); i++) free(htab_at(t->other, i)->val);
        htab_free(t->other);
        free(t->other);
    }
    reqtab_init(t);
}

rslot *reqtab_slot(reqtab *t, int id)
{
    uint32_t u = (uint32_t)id;
    if (u < REQTAB_INLINE) return &t->slot[u];
    if (u < MATCH_REQ_DENSE) {
        uint32_t i = u - REQTAB_INLINE;
        if (i >= t->n_grown) {
            uint32_t n = t->n_grown ? t->n_grown : 16;
            while (n <= i) n *= 2;
            if (n > MATCH_REQ_DENSE - REQTAB_INLINE) n = MATCH_REQ_DENSE - REQTAB_INLINE;
            t->grown = xalloc(t->grown, n * sizeof *t->grown);
            memset(t->grown + t->n_grown, 0, (n - t->n_grown) * sizeof *t->grown);
            t->n_grown = n;
        }
        return &t->grown[i];
    }
    if (!t->other) {
        t->other = xalloc(NULL, sizeof *t->other);
        htab_init(t->other);
    }
    rslot *s = htab_get(t->other, u);
    if (!s) {
        s = xalloc(NULL, sizeof *s);
        memset(s, 0, sizeof *s);
        htab_put(t->other, u, s);
    }
    return s;
}

void reqtab_remove(reqtab *t, int id)
{
    uint32_t u = (uint32_t)id;
    if (u < REQTAB_INLINE) {
        memset(&t->slot[u], 0, sizeof t->slot[u]);
    } else if (u - REQTAB_INLINE < t->n_grown) {
        memset(&t->grown[u - REQTAB_INLINE], 0, sizeof t->grown[0]);
    } else if (t->other) {
        free(htab_remove(t->other, u));
    }
}
