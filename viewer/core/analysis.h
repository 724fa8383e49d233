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

/* A search: space separated terms that must all match (docs/VIEWER.md,
 * "Search"). A term NAME OP VALUE, OP one of = == != < <= > >=, compares a
 * field: the category's field NAME (case-insensitive); for `bytes` with no
 * such field the category's first BYTES field; `duration` is end - start
 * (an arrow's latency); `peer` with no such field is an arrow's sender or
 * receiver rank. A value is an integer (0x.. too) or a decimal with a unit:
 * ns us µs ms s for times, k K KiB M MiB G GiB for sizes. A drawable
 * without the field, or with its value unknown, does not match. Any other
 * term matches category names containing it (case-insensitive). */
#define SV_SEARCH_MAX_TERMS 8
enum { SV_OP_EQ, SV_OP_NE, SV_OP_LT, SV_OP_LE, SV_OP_GT, SV_OP_GE };
enum { SV_SUBJ_NAME, SV_SUBJ_FIELD, SV_SUBJ_DURATION };
typedef struct sv_search_term {
    char text[96]; /* name substring, or field name */
    int is_field;  /* subject != SV_SUBJ_NAME */
    uint8_t subject, op;
    int64_t value;
} sv_search_term;

typedef struct sv_search {
    int n_terms;
    sv_search_term terms[SV_SEARCH_MAX_TERMS];
} sv_search;

/* Why a text is not a query: pos is the byte offset in it of what is
 * wrong, message says what (no position in it). */
typedef struct sv_search_error {
    int pos;
    char message[160];
} sv_search_error;

/* Parse text; returns 0, or -1 when empty or malformed (e.g. "tag=x"),
 * with e (may be NULL) filled. */
int sv_search_parse_ex(const char *text, sv_search *out, sv_search_error *e);
int sv_search_parse(const char *text, sv_search *out);

/* A query bound to one file's categories and timelines: the per-drawable
 * test then compares integers only (the message filter runs it for every
 * arrow drawn). Immutable once made; free with sv_search_bound_free. */
typedef struct sv_search_bound sv_search_bound;
sv_search_bound *sv_search_bind(const sv_search *q, const slog_reader *r);
void sv_search_bound_free(sv_search_bound *b);
/* The query it was bound from. */
const sv_search *sv_search_bound_query(const sv_search_bound *b);
/* Does a drawable match? info may be NULL when n_info is 0. */
int sv_search_bound_match(const sv_search_bound *b, uint32_t kind, uint32_t category, uint32_t timeline,
                          uint32_t end_timeline, int64_t start, int64_t end, const int64_t *info, uint32_t n_info);
/* Could any drawable of the category match (its name terms and fields)? */
int sv_search_bound_category(const sv_search_bound *b, uint32_t category);

/* Does d (of reader r's categories) match? */
int sv_search_match(const sv_search *q, const slog_reader *r, const slog_drawable *d);

typedef struct sv_found {
    sv_item item; /* info_off = 0, values in info[] */
    int64_t info[SLOG_MAX_FIELDS];
} sv_found;

/* out = the drawable d, its info fields copied (at most SLOG_MAX_FIELDS). */
void sv_found_set(sv_found *out, const slog_drawable *d);

/* Find the matching drawable with the smallest start > from (dir > 0) or
 * the largest start < from (dir < 0), scanning outward from `from` in
 * growing windows so a near hit costs little. Returns 1 found, 0 none,
 * negative slog_status on error (err filled). */
int sv_search_find(slog_reader *r, const sv_search *q, int64_t from, int dir, sv_cancel_fn cancel, void *cancel_user,
                   sv_found *out, slog_error *err);

/* Count the matches of a bound query over the whole file, in time order,
 * and how many of them start before `at`: stops once `limit` matches are
 * counted past `at` or `budget` drawables were examined, then *complete
 * is 0 and the counts are lower bounds (*before is exact if
 * *before_exact). Returns 0 or a negative slog_status (err filled); a
 * cancelled count returns 0 with *complete 0. */
int sv_search_count(slog_reader *r, const sv_search_bound *b, int64_t at, uint64_t limit, uint64_t budget,
                    sv_cancel_fn cancel, void *cancel_user, uint64_t *total, uint64_t *before, int *before_exact,
                    int *complete, slog_error *err);

#endif
