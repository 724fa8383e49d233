/* SPDX-License-Identifier: MIT */
/* sv-legend.h - the legend: every category with colour, name, kind,
 * visibility, count and total time, sortable (GtkColumnView) and
 * filterable. Emits "changed" when a colour or visibility changes; colours
 * are remembered in g_get_user_config_dir()/slog2/colors.ini. */
#ifndef SV_LEGEND_H
#define SV_LEGEND_H

#include <gtk/gtk.h>

#include "sv-doc-ref.h"

G_BEGIN_DECLS
#define SV_TYPE_LEGEND (sv_legend_get_type())
G_DECLARE_FINAL_TYPE(SvLegend, sv_legend, SV, LEGEND, GtkWidget)

GtkWidget *sv_legend_new(void);
/* Show doc's categories; applies remembered colours to doc->pal. */
void sv_legend_set_doc(SvLegend *self, SvDocRef *doc);
/* Give the named category a colour, as its colour button does (remembered,
 * "changed" emitted). FALSE when the document has no such category. */
gboolean sv_legend_set_color(SvLegend *self, const char *category, const GdkRGBA *rgba);
/* Show or hide the named category, as its check box does. FALSE when the
 * document has no such category. */
gboolean sv_legend_set_visible(SvLegend *self, const char *category, gboolean visible);
/* What the message arrows' colour says (its "Messages by" list): set on
 * the document's palette, "changed" emitted. */
void sv_legend_set_arrow_colour(SvLegend *self, sv_arrow_colour c);
/* Every category name on screen is shown whole (not ellipsised, not
 * clipped); else FALSE and cut the names that are not. Free cut. */
gboolean sv_legend_names_whole(SvLegend *self, char **cut);
/* What the legend shows of its order (for the test script): the sort
 * arrows ("ascending"/"descending", " clipped" when the title is narrower
 * than it needs), then the first and last rows' names. Free it. */
char *sv_legend_describe_sort(SvLegend *self);
/* The category filter's entry (the window hands the keys back to the
 * canvas when it is done with). */
GtkSearchEntry *sv_legend_get_filter(SvLegend *self);
/* A colour as the palette holds it (0xRRGGBBAA). */
uint32_t sv_legend_rgba_to_u32(const GdkRGBA *c);
G_END_DECLS

#endif
