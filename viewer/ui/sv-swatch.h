/* SPDX-License-Identifier: MIT */
/* sv-swatch.h - a category's colour in the legend: a small button showing
 * it that opens a palette of colours (and a field for any #rrggbb).
 * GtkColorButton and the GtkColorChooser family are deprecated since
 * GTK 4.10 and GtkColorDialog is newer than 4.8, hence our own. */
#ifndef SV_SWATCH_H
#define SV_SWATCH_H

#include <gtk/gtk.h>

G_BEGIN_DECLS
#define SV_TYPE_SWATCH (sv_swatch_get_type())
G_DECLARE_FINAL_TYPE(SvSwatch, sv_swatch, SV, SWATCH, GtkWidget)

GtkWidget *sv_swatch_new(void);
/* The colour shown (property "rgba"); setting it emits no "color-set". */
void sv_swatch_set_rgba(SvSwatch *self, const GdkRGBA *rgba);
void sv_swatch_get_rgba(SvSwatch *self, GdkRGBA *rgba);
/* Signal "color-set" (no arguments): the user picked a colour. */
G_END_DECLS

#endif
