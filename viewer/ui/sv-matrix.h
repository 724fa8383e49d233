/* SPDX-License-Identifier: MIT */
/* sv-matrix.h - the Communication Matrix window (menu, Ctrl+M): a heat map
 * of the messages sent from each timeline (rows) to each other (columns)
 * in the time window, the selected range or the whole trace, coloured by
 * messages, bytes, mean size, transfer time or mean transfer time (log
 * scale); timelines folded into groups when they outnumber the plot's
 * pixels. Hover: a cell's figures; click: its first message is selected
 * in the main window and its rows brought into view. It follows the main
 * window's view; the analysis runs on a worker (sv-query.c), the drawing
 * is viewer/core/matrix.c's. */
#ifndef SV_MATRIX_WINDOW_H
#define SV_MATRIX_WINDOW_H

#include <gtk/gtk.h>

#include "matrix.h"
#include "sv-analysis.h"
#include "sv-window.h"

G_BEGIN_DECLS

#define SV_TYPE_MATRIX_WINDOW (sv_matrix_window_get_type())
G_DECLARE_FINAL_TYPE(SvMatrixWindow, sv_matrix_window, SV, MATRIX_WINDOW, GtkWindow)

/* A new window over main (shown by the caller). */
SvMatrixWindow *sv_matrix_window_new(SvWindow *main);
void sv_matrix_window_set_metric(SvMatrixWindow *self, sv_matrix_metric m);
void sv_matrix_window_set_scope(SvMatrixWindow *self, sv_span_scope s);
/* An analysis or a search is running, or the result is not drawn yet. */
gboolean sv_matrix_window_busy(SvMatrixWindow *self);
/* The analysed span, and the matrix as slog2-print --matrix --format csv
 * writes it into path; FALSE (error set) when it cannot be written or
 * nothing is analysed yet. */
gboolean sv_matrix_window_write_csv(SvMatrixWindow *self, const char *path, int64_t *t0, int64_t *t1, GError **error);
/* The cell holding timelines (sender, receiver) as drawn now: its tooltip
 * text (free it), or NULL outside the matrix. */
char *sv_matrix_window_describe(SvMatrixWindow *self, uint32_t sender, uint32_t receiver);
/* Click that cell, as the pointer would (FALSE outside the matrix). */
gboolean sv_matrix_window_click(SvMatrixWindow *self, uint32_t sender, uint32_t receiver);
/* Groups per side of the matrix on screen, and timelines per group. */
void sv_matrix_window_folding(SvMatrixWindow *self, uint32_t *n_groups, uint32_t *group);

G_END_DECLS

#endif
