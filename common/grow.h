/* SPDX-License-Identifier: MIT */
/* grow.h - one step of a growable array, header only and plain C: libslog
 * uses it, and so does the builder (its lanes' lists and the match step's
 * arrows), which links libslog but needs no more of its internals. Not
 * installed: it is not part of the .slog2 API. */
#ifndef SLOG_GROW_H
#define SLOG_GROW_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Room for one element more than n in array v (elem bytes each, *cap of
 * them, doubled from first when full): the array, moved or not, or NULL
 * when out of memory (v and *cap unchanged). */
static inline void *slog_grow(void *v, uint32_t *cap, uint32_t n, size_t elem, uint32_t first)
{
    if (n < *cap) return v;
    if (*cap > UINT32_MAX / 2) return NULL;
    uint32_t c = *cap ? 2 * *cap : first;
    void *g = realloc(v, (size_t)c * elem);
    if (g) *cap = c;
    return g;
}

#endif
