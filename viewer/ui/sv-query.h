/* SPDX-License-Identifier: MIT */
/* sv-query.h - run window queries and analyses on worker threads (GTask),
 * so the main loop only ever draws what is ready (STYLE.md, "I/O happens
 * off the main thread"). Each job holds a reference on the document. */
#ifndef SV_QUERY_H
#define SV_QUERY_H

#include <gio/gio.h>

#include "analysis.h"
#include "sv-doc-ref.h"

#define SV_ERROR (sv_error_quark())
GQuark sv_error_quark(void);

/* Build a scene for [t0, t1] at width columns over the flagged timelines
 * (want: NULL = all; copied). Finish with sv_query_scene_finish, which
 * returns the scene (free with sv_scene_free) or NULL with error set
 * (G_IO_ERROR_CANCELLED when cancelled, SV_ERROR/slog_status otherwise). */
void sv_query_scene_async(SvDocRef *doc, double t0, double t1, int width, const uint8_t *want,
                          GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user);
sv_scene *sv_query_scene_finish(GAsyncResult *res, GError **error);
/* The scene's msg_density for the message filter q (NULL: none; a scan
 * over budget leaves it NULL), and the filter generation gen it is for. */
void sv_query_scan_density(sv_scene *s, slog_reader *r, const sv_search *q, unsigned gen, const uint8_t *want,
                           const uint8_t *visible, GCancellable *c);

/* Fold timelines [first, last] over [t0, t1] into at most max_rows rows of
 * width columns (sv_fold_query) on a worker. Finish with
 * sv_query_fold_finish: the fold (sv_fold_free) or NULL with error set,
 * G_IO_ERROR_CANCELLED when cancelled before it ran or while it ran. */
void sv_query_fold_async(SvDocRef *doc, double t0, double t1, int width, uint32_t first, uint32_t last,
                         uint32_t max_rows, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user);
/* The same for positions [first, last] of list (n timeline ids, copied):
 * sv_fold_query_list. */
void sv_query_fold_list_async(SvDocRef *doc, double t0, double t1, int width, const uint32_t *list, uint32_t n,
                              uint32_t first, uint32_t last, uint32_t max_rows, GCancellable *cancellable,
                              GAsyncReadyCallback cb, gpointer user);
struct sv_fold *sv_query_fold_finish(GAsyncResult *res, GError **error);

/* The flows between row groups (sv_flows_compute) of [t0, t1] in n_slices
 * slices over the n_groups groups group_first (n_groups + 1, copied) on a
 * worker, checking cancellable between slices. Finish: the flows
 * (sv_flows_free) or NULL with error set, G_IO_ERROR_CANCELLED when
 * cancelled. */
void sv_query_flows_async(SvDocRef *doc, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first,
                          uint32_t n_groups, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user);
struct sv_flows *sv_query_flows_finish(GAsyncResult *res, GError **error);

/* Range statistics (sv_range_stats_compute) on a worker. The result is a
 * newly allocated sv_range_stats; free with sv_query_stats_free. */
void sv_query_range_stats_async(SvDocRef *doc, int64_t t0, int64_t t1, GCancellable *cancellable,
                                GAsyncReadyCallback cb, gpointer user);
sv_range_stats *sv_query_range_stats_finish(GAsyncResult *res, GError **error);
void sv_query_stats_free(sv_range_stats *st);

/* Search (sv_search_find) on a worker. Result: a newly allocated sv_found
 * (g_free), or NULL without error when nothing matches. */
void sv_query_search_async(SvDocRef *doc, const sv_search *q, int64_t from, int dir, GCancellable *cancellable,
                           GAsyncReadyCallback cb, gpointer user);
sv_found *sv_query_search_finish(GAsyncResult *res, gboolean *found, GError **error);

/* slog_reader_analyse (flags SLOG_ANALYSIS_*) of [t0, t1] on a worker.
 * Finish: the analysis (slog_analysis_free) or NULL with error set; stats
 * (may be NULL) gets what it read and ms (may be NULL) its time. */
void sv_query_analyse_async(SvDocRef *doc, int64_t t0, int64_t t1, uint32_t flags, GCancellable *cancellable,
                            GAsyncReadyCallback cb, gpointer user);
slog_analysis *sv_query_analyse_finish(GAsyncResult *res, slog_query_stats *stats, double *ms, GError **error);

/* Open a document on a worker. Result: SvDocRef (release with
 * sv_doc_ref_release) or NULL with error (message = slog_error.message). */
void sv_query_open_async(const char *path, GCancellable *cancellable, GAsyncReadyCallback cb, gpointer user);
SvDocRef *sv_query_open_finish(GAsyncResult *res, GError **error);

#endif
