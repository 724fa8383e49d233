/* SPDX-License-Identifier: MIT */
/* sv-app.c - see sv-app.h. */
#include "sv-app.h"

#include <gtk/gtk.h>

#include "sv-labels.h"
#include "sv-legend.h"
#include "sv-overview.h"
#include "sv-rowbar.h"
#include "sv-stats-panel.h"
#include "sv-style.h"
#include "sv-timeline.h"
#include "sv-window.h"

static void startup_cb(GApplication *app, gpointer u)
{
    sv_style_init();
    static const struct {
        const char *action;
        const char *accels[4];
    } A[] = {
        {"win.zoom-in", {"<Control>plus", "<Control>equal", "<Control>KP_Add", NULL}},
        {"win.zoom-out", {"<Control>minus", "<Control>KP_Subtract", NULL}},
        {"win.zoom-fit", {"<Control>0", NULL}},
        {"win.back", {"<Alt>Left", NULL}},
        {"win.forward", {"<Alt>Right", NULL}},
        {"win.open", {"<Control>o", NULL}},
        {"win.open-new-window", {"<Shift><Control>o", NULL}},
        {"win.search", {"<Control>f", NULL}},
        {"win.find-next", {"F3", "<Control>g", NULL}},
        {"win.find-prev", {"<Shift>F3", "<Shift><Control>g", NULL}},
        {"win.show-info", {"<Control>i", NULL}},
        {"win.show-matrix", {"<Control>m", NULL}},
        {"win.show-profile", {"<Control>p", NULL}},
        {"win.export", {"<Control>e", NULL}},
        {"win.show-sidebar", {"F9", NULL}},
        {"window.close", {"<Control>w", NULL}},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(A); i++)
        gtk_application_set_accels_for_action(GTK_APPLICATION(app), A[i].action, A[i].accels);
}

static void maybe_script(SvWindow *w)
{
    const char *script = g_getenv("SLOG2_VIEW_SCRIPT");
    if (script && *script) sv_window_run_script(w, script);
}

static void activate_cb(GApplication *app, gpointer u)
{
    SvWindow *w = sv_window_new(GTK_APPLICATION(app));
    gtk_window_present(GTK_WINDOW(w));
    maybe_script(w);
}

static void open_cb(GApplication *app, GFile **files, int n, const char *hint, gpointer u)
{
    for (int i = 0; i < n; i++) {
        SvWindow *w = sv_window_new(GTK_APPLICATION(app));
        gtk_window_present(GTK_WINDOW(w));
        sv_window_open_file(w, files[i]);
        if (i == 0) maybe_script(w);
    }
}

int sv_app_run(int argc, char **argv)
{
    /* the widget types used in sv-window.ui */
    g_type_ensure(SV_TYPE_TIMELINE);
    g_type_ensure(SV_TYPE_LABELS);
    g_type_ensure(SV_TYPE_ROWBAR);
    g_type_ensure(SV_TYPE_OVERVIEW);
    g_type_ensure(SV_TYPE_LEGEND);
    g_type_ensure(SV_TYPE_STATS_PANEL);
    GtkApplication *app = gtk_application_new("org.slog2.View", G_APPLICATION_HANDLES_OPEN | G_APPLICATION_NON_UNIQUE);
    g_signal_connect(app, "startup", G_CALLBACK(startup_cb), NULL);
    g_signal_connect(app, "activate", G_CALLBACK(activate_cb), NULL);
    g_signal_connect(app, "open", G_CALLBACK(open_cb), NULL);
    int rc = g_application_run(G_APPLICATION(app), argc, argv);
    g_object_unref(app);
    return rc ? rc : sv_script_exit_status;
}
