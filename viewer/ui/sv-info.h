/* SPDX-License-Identifier: MIT */
/* sv-info.h - the Trace Information window (menu "Trace Information",
 * Ctrl+I): the open file's facts and every annotation the builder wrote
 * (command line, source, clocks, unmatched messages), selectable, with a
 * button that copies them all. The rows come from info.h. */
#ifndef SV_INFO_WINDOW_H
#define SV_INFO_WINDOW_H

#include <gtk/gtk.h>

#include "sv-doc-ref.h"

G_BEGIN_DECLS
#define SV_TYPE_INFO_WINDOW (sv_info_window_get_type())
G_DECLARE_FINAL_TYPE(SvInfoWindow, sv_info_window, SV, INFO_WINDOW, GtkWindow)

/* A new window for doc, opened from path, over parent (not shown yet). */
GtkWindow *sv_info_window_new(GtkWindow *parent, const SvDocRef *doc, const char *path);
/* For tests: whether it shows a row with this key whose value contains
 * value_part (NULL: any value). */
gboolean sv_info_window_has(GtkWindow *w, const char *key, const char *value_part);

G_END_DECLS

#endif
