/* SPDX-License-Identifier: MIT */
/* rowfilter.h - choosing the rows of a view of many timelines: which
 * timelines it shows and in what order. An expression of clauses, all of
 * which a timeline must meet:
 *
 *   ranks 0-63,512-575    ranks (timelines where the file has no ranks);
 *                         the word "ranks" may be left out
 *   host=nid0012          the timeline's host (group); '*' and '?' match
 *                         as in a shell pattern
 *   MPI_Wait>N%           a state category's share of the time window
 *                         (also <, >=, <=); an arrow or event category
 *                         compares its count in the window: message>N
 *   sort=MPI_Wait         order by that figure for the window, largest
 *                         first (outliers at the top); sort=rank (default)
 *
 * Category names match whole, ignoring case, or as a unique prefix.
 * Figures are those of the time window the expression was applied to,
 * summed from every drawable in it (exact, and a read of the whole window).
 * GTK-free. */
#ifndef SV_ROWFILTER_H
#define SV_ROWFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "doc.h"

typedef struct sv_rowsel {
    uint32_t n;       /* timelines shown */
    uint32_t *list;   /* n timeline ids, in the order shown */
    uint32_t n_total; /* timelines in the file */
    double t0, t1;    /* window the figures are of */
    char text[256];   /* the expression, as applied */
    int sort_cat;     /* category sorted by, -1: by rank */
    int uses_window;  /* a clause or the sort reads figures of the window */
} sv_rowsel;

/* Parse expr without reading the file: 0, or -1 with a message naming the
 * clause at fault in err. */
int sv_rowsel_check(const sv_doc *d, const char *expr, char *err, size_t err_size);

/* Apply expr to d over the window [t0, t1] (ns): a new selection, or NULL
 * with a message in err (a bad expression, an unreadable file, no memory).
 * No timeline matching is not an error: n is 0. Reads the file only when a
 * clause or the sort needs figures of the window. */
sv_rowsel *sv_rowsel_apply(const sv_doc *d, const char *expr, double t0, double t1, char *err, size_t err_size);
void sv_rowsel_free(sv_rowsel *s);

/* What the chip above the labels says: "412 of 16,384 timelines · EXPR". */
void sv_rowsel_describe(const sv_rowsel *s, char *buf, size_t size);

#endif
