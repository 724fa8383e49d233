/* SPDX-License-Identifier: MIT */
/* sv-overview.h - the whole-trace preview strip above the canvas: a
 * stacked histogram by category with the visible window highlighted;
 * click or drag moves the window. Its query runs on a worker. */
#ifndef SV_OVERVIEW_H
#define SV_OVERVIEW_H

#include "sv-timeline.h"

G_BEGIN_DECLS
#define SV_TYPE_OVERVIEW (sv_overview_widget_get_type())
G_DECLARE_FINAL_TYPE(SvOverviewWidget, sv_overview_widget, SV, OVERVIEW_WIDGET, GtkWidget)

void sv_overview_widget_set_timeline(SvOverviewWidget *self, SvTimeline *tl);
/* The document changed (or its palette): rebuild / redraw. */
void sv_overview_widget_reload(SvOverviewWidget *self);
G_END_DECLS

#endif
