/* SPDX-License-Identifier: MIT */
/* sv-profile.h - the Profile window (menu, Ctrl+P): per state category the
 * calls, inclusive and exclusive time, min / mean / max duration and share
 * of the span (the time window, the selected range or the whole trace),
 * in a sortable, filterable table; below it one category per timeline
 * (the calls, times and a bar of each timeline's inclusive time), sortable
 * so that imbalance shows, where a click brings the timeline's row into
 * view. It follows the main window's view; the analysis runs on a worker
 * (sv-query.c), the sums are viewer/core/profile.c's. */
#ifndef SV_PROFILE_WINDOW_H
#define SV_PROFILE_WINDOW_H

#include <gtk/gtk.h>

#include "sv-analysis.h"
#include "sv-window.h"

G_BEGIN_DECLS

#define SV_TYPE_PROFILE_WINDOW (sv_profile_window_get_type())
G_DECLARE_FINAL_TYPE(SvProfileWindow, sv_profile_window, SV, PROFILE_WINDOW, GtkWindow)

SvProfileWindow *sv_profile_window_new(SvWindow *main);
void sv_profile_window_set_scope(SvProfileWindow *self, sv_span_scope s);
gboolean sv_profile_window_busy(SvProfileWindow *self);
/* The category table's filter text (what the search entry does). */
void sv_profile_window_set_filter(SvProfileWindow *self, const char *text);
/* The category shown per timeline, by name; FALSE when the span has no
 * state of it. */
gboolean sv_profile_window_set_category(SvProfileWindow *self, const char *name);
/* Sort a table ("categories" or "timelines") by a column's title, as a
 * click on its header does; FALSE for no such column. */
gboolean sv_profile_window_sort(SvProfileWindow *self, const char *table, const char *column, gboolean descending);
/* A table's rows as shown (filtered and sorted), a line each, cells
 * separated by " | " (free it). */
char *sv_profile_window_describe(SvProfileWindow *self, const char *table);
/* Activate row i of the per-timeline table as shown, as a click does. */
gboolean sv_profile_window_activate_timeline_row(SvProfileWindow *self, guint i);
/* The analysed span and the category table as slog2-print --profile
 * --format csv writes it, into path. */
gboolean sv_profile_window_write_csv(SvProfileWindow *self, const char *path, int64_t *t0, int64_t *t1, GError **error);

G_END_DECLS

#endif
