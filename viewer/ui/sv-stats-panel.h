/* SPDX-License-Identifier: MIT */
/* sv-stats-panel.h - the Selection tab: statistics of a selected range
 * (time per category, busy time per timeline, messages), a hint while no
 * range is selected, "Computing…" while a worker counts. */
#ifndef SV_STATS_PANEL_H
#define SV_STATS_PANEL_H

#include <gtk/gtk.h>

#include "analysis.h"
#include "sv-doc-ref.h"

G_BEGIN_DECLS
#define SV_TYPE_STATS_PANEL (sv_stats_panel_get_type())
G_DECLARE_FINAL_TYPE(SvStatsPanel, sv_stats_panel, SV, STATS_PANEL, GtkWidget)

GtkWidget *sv_stats_panel_new(void);
/* No range: the hint how to select one. */
void sv_stats_panel_show_none(SvStatsPanel *self);
/* A range is being counted. */
void sv_stats_panel_show_computing(SvStatsPanel *self);
/* The statistics of a range of doc (names and colours from it). */
void sv_stats_panel_show_stats(SvStatsPanel *self, const SvDocRef *doc, const sv_range_stats *st);
/* Whether it shows a range's statistics (property "has-range"). */
gboolean sv_stats_panel_get_has_range(SvStatsPanel *self);
G_END_DECLS

#endif
