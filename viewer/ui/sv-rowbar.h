/* SPDX-License-Identifier: MIT */
/* sv-rowbar.h - the entry above the label column that chooses the rows of
 * a view of many timelines (rowfilter.h): Enter applies the expression to
 * the current time window on a worker, Escape or its clear icon shows every
 * timeline again. */
#ifndef SV_ROWBAR_H
#define SV_ROWBAR_H

#include "sv-timeline.h"

G_BEGIN_DECLS
#define SV_TYPE_ROWBAR (sv_rowbar_get_type())
G_DECLARE_FINAL_TYPE(SvRowbar, sv_rowbar, SV, ROWBAR, GtkWidget)

void sv_rowbar_set_timeline(SvRowbar *self, SvTimeline *tl);
/* Apply expr as Enter in the entry does ("" clears); FALSE when it does not
 * parse (the entry then says why). */
gboolean sv_rowbar_apply(SvRowbar *self, const char *expr);
void sv_rowbar_clear(SvRowbar *self);
/* An expression is being applied. */
gboolean sv_rowbar_is_busy(SvRowbar *self);
/* The last error, or NULL. */
const char *sv_rowbar_get_error(SvRowbar *self);
G_END_DECLS

#endif
