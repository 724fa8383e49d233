/* SPDX-License-Identifier: MIT */
/* sv-style.h - light or dark: the window's own drawing follows GTK's theme,
 * and the menu's "Dark Style" asks GTK for its dark variant and is
 * remembered ($XDG_CONFIG_HOME/slog2/view.ini). */
#ifndef SV_STYLE_H
#define SV_STYLE_H

#include <gtk/gtk.h>

/* Once, at application startup: the style sheets (style.css, which takes
 * its colours from the theme's named colours) and the saved choice. */
void sv_style_init(void);

/* Whether w is drawn in a dark theme: its text colour is light. This sees
 * every way a theme turns dark (GTK_THEME=Adwaita:dark, a *-dark theme,
 * gtk-application-prefer-dark-theme, high contrast inverse). */
gboolean sv_style_is_dark(GtkWidget *w);
/* The luminance (0..1) of w's text colour. */
double sv_style_text_luminance(GtkWidget *w);

/* The Cairo drawing of w (canvas, ruler, labels, overview, bars) uses the
 * theme w is in: call at the start of each snapshot. */
void sv_style_follow(GtkWidget *w);

/* The "Dark Style" choice: GtkSettings' gtk-application-prefer-dark-theme.
 * Setting it saves it (sv-config.c); an error (config not writable) is
 * reported on stderr and the choice still applies to this run. */
gboolean sv_style_get_prefer_dark(void);
void sv_style_set_prefer_dark(gboolean dark);

/* GTK_THEME is set: it decides, and the choice above changes nothing. */
gboolean sv_style_is_forced(void);

/* w as it is drawn now (NULL when it is not shown), for the scripts'
 * screenshots and checks; and its mean luminance (0..1, -1: not shown). */
GdkTexture *sv_style_render_widget(GtkWidget *w);
double sv_style_mean_luminance(GtkWidget *w);

#endif
