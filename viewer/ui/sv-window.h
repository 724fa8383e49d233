/* SPDX-License-Identifier: MIT */
/* sv-window.h - the main window: header bar, overview, labels, timeline,
 * legend/selection sidebar, status bar; actions win.* (see sv-window.c). */
#ifndef SV_WINDOW_H
#define SV_WINDOW_H

#include <gtk/gtk.h>

G_BEGIN_DECLS
#define SV_TYPE_WINDOW (sv_window_get_type())
G_DECLARE_FINAL_TYPE(SvWindow, sv_window, SV, WINDOW, GtkApplicationWindow)

SvWindow *sv_window_new(GtkApplication *app);
/* Open a .slog2 file, or convert a DUMPI .meta with slog2-build first. */
void sv_window_open_file(SvWindow *self, GFile *file);
/* Run the test script (SLOG2_VIEW_SCRIPT syntax) once the file is open. */
void sv_window_run_script(SvWindow *self, const char *script);

/* Exit status the script asked for (0 when no expectation failed). */
extern int sv_script_exit_status;
G_END_DECLS

#endif
