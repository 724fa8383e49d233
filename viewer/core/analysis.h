/* SPDX-License-Identifier: MIT */
/* analysis.h - questions answered by a full (no preview) query: statistics
 * of a selected time range, and search for the next/previous drawable
 * matching a category name or field=value. Run on worker threads; GTK-free.
 */
#ifndef SV_ANALYSIS_H
#define SV_ANALYSIS_H

#include <stdint.h>

#include "scene.h"
#include <slog2/slog.h>

typedef struct sv_range_stats {
    int64_t t0, t1;
    uint32_t n_categories, n_timelines;
    int64_t *cat_ns;          /* states: time inside [t0,t1]; others 0 */
    uint64_t *cat_count;      /* drawables of the category intersecting the range
                               (arrows/events: starting inside it) */
    int64_t *tl_busy_ns;      /* per timeline: time covered by any state */
    uint64_t *tl_messages;    /* per timeline: arrows sent in the range */
    uint64_t n_messages;      /* arrows sent inside the range */
    uint64_t msg_bytes;       /* their sizes (first BYTES field), known ones */
    uint64_t n_unknown_bytes; /* arrows without a known size */
    slog_query_stats qstats;
} sv_range_stats;

/* Fill st for [t0, t1] over the timelines flagged in `timelines` (NULL =
 * all). Returns SLOG_OK, a reader error (err filled), or SLOG_ERR_ARG if
 * cancelled. Free with sv_range_stats_clear. */
slog_status sv_range_stats_compute(slog_reader *r, int64_t t0, int64_t t1, const uint8_t *timelines,
                                   sv_cancel_fn cancel, void *cancel_user, sv_range_stats *st, slog_error *err);
void sv_range_stats_clear(sv_range_stats *st);

/* A search: space separated terms that must all match. A term NAME=VALUE
 * matches drawables whose category has a field NAME (case-insensitive) with
 * that integer value; any other term matches category names containing it
 * (case-insensitive). */
#define SV_SEARCH_MAX_TERMS 8
typedef struct sv_search_term {
    char text[96]; /* name substring, or field name */
    int is_field;
    int64_t value;
} sv_search_term;

typedef struct sv_search {
    int n_terms;
    sv_search_term terms[SV_SEARCH_MAX_TERMS];
} sv_search;

/* Parse text; returns 0, or -1 when empty or malformed (e.g. "tag=x"). */
int sv_search_parse(const char *text, sv_search *out);
/* Does d (of reader r's categories) match? */
int sv_search_match(const sv_search *q, const slog_reader *r, const slog_drawable *d);

typedef struct sv_found {
    sv_item item; /* info_off = 0, values in info[] */
    int64_t info[SLOG_MAX_FIELDS];
} sv_found;

/* Find the matching drawable with the smallest start > from (dir > 0) or
 * the largest start < from (dir < 0), scanning outward from `from` in
 * growing windows so a near hit costs little. Returns 1 found, 0 none,
 * negative slog_status on error (err filled). */
int sv_search_find(slog_reader *r, const sv_search *q, int64_t from, int dir, sv_cancel_fn cancel, void *cancel_user,
                   sv_found *out, slog_error *err);

#endif
