/* SPDX-License-Identifier: MIT */
/* sv-link.c - two traces side by side: Open in New Window (another
 * window of the app, for a before/after run), and Link Time Window: while
 * it is on in two or more windows, a zoom or pan in one shows the same
 * time window in the others: the same times on their rulers, which count
 * from each trace's start (slog2-build puts the time origin there). */
#include "sv-window-private.h"

#include <math.h>

/* Set while a window passes its time window on, so that the windows it
 * sets do not pass theirs back. */
static gboolean propagating;

static gboolean is_linked(SvWindow *w)
{
    GVariant *v = g_action_group_get_action_state(G_ACTION_GROUP(w), "link-windows");
    gboolean on = v && g_variant_get_boolean(v);
    if (v) g_variant_unref(v);
    return on;
}

/* A linked window that has not drawn its file yet (it was just opened, or
 * another file was dropped on it) takes the time window of a linked one
 * that has, rather than giving them its whole trace. */
static gboolean adopt(SvWindow *self, GtkApplication *app)
{
    for (GList *l = gtk_application_get_windows(app); l; l = l->next) {
        if (!SV_IS_WINDOW(l->data) || l->data == (gpointer)self) continue;
        SvWindow *o = l->data;
        if (!o->doc || !is_linked(o) || !sv_timeline_has_drawn(o->timeline)) continue;
        const sv_viewport *ov = sv_timeline_get_viewport(o->timeline);
        propagating = TRUE;
        sv_timeline_set_window(self->timeline, ov->t0, ov->t1, FALSE);
        propagating = FALSE;
        return TRUE;
    }
    return FALSE;
}

void sv_window_link_view_changed(SvWindow *self)
{
    if (propagating || !self->doc || !is_linked(self)) return;
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    if (!app) return;
    if (!sv_timeline_has_drawn(self->timeline) && adopt(self, app)) return;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    double r0 = vp->t0, r1 = vp->t1;
    propagating = TRUE;
    for (GList *l = gtk_application_get_windows(app); l; l = l->next) {
        if (!SV_IS_WINDOW(l->data) || l->data == (gpointer)self) continue;
        SvWindow *o = l->data;
        if (!o->doc || !is_linked(o)) continue;
        const sv_viewport *ov = sv_timeline_get_viewport(o->timeline);
        /* already there (within a fraction of a pixel): nothing to do */
        double px = ov->width > 0 ? (ov->t1 - ov->t0) / ov->width : 0;
        if (fabs(ov->t0 - r0) <= px / 4 && fabs(ov->t1 - r1) <= px / 4) continue;
        sv_timeline_set_window(o->timeline, r0, r1, FALSE);
    }
    propagating = FALSE;
}

static void link_change_state(GSimpleAction *a, GVariant *v, gpointer user)
{
    g_simple_action_set_state(a, v);
    /* the newly linked window takes the others' time window: it joins them */
    SvWindow *self = user;
    if (!g_variant_get_boolean(v) || !self->doc) return;
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    for (GList *l = app ? gtk_application_get_windows(app) : NULL; l; l = l->next)
        if (SV_IS_WINDOW(l->data) && l->data != (gpointer)self && SV_WINDOW(l->data)->doc && is_linked(l->data)) {
            sv_window_link_view_changed(l->data);
            break;
        }
}

static void new_window_response_cb(GtkNativeDialog *d, int response, SvWindow *self)
{
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(d));
        if (f) sv_window_open_in_new_window(self, f);
        g_clear_object(&f);
    }
    g_object_unref(d);
}

SvWindow *sv_window_open_in_new_window(SvWindow *self, GFile *file)
{
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    if (!app) return NULL;
    SvWindow *w = sv_window_new(app);
    gtk_window_present(GTK_WINDOW(w));
    sv_window_open_file(w, file);
    return w;
}

static void open_new_window_action(GSimpleAction *a, GVariant *p, gpointer user)
{
    SvWindow *self = user;
    GtkFileChooserNative *d = gtk_file_chooser_native_new("Open Trace in New Window", GTK_WINDOW(self),
                                                          GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
    static const char *const names[] = {"Traces (*.slog2, *.meta)", "All files"};
    static const char *const patterns[][3] = {{"*.slog2", "*.meta", NULL}, {"*", NULL, NULL}};
    for (int i = 0; i < 2; i++) {
        GtkFileFilter *f = gtk_file_filter_new();
        gtk_file_filter_set_name(f, names[i]);
        for (int k = 0; patterns[i][k]; k++) gtk_file_filter_add_pattern(f, patterns[i][k]);
        gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
        g_object_unref(f);
    }
    g_signal_connect(d, "response", G_CALLBACK(new_window_response_cb), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static const GActionEntry LINK_ACTIONS[] = {
    {"open-new-window", open_new_window_action, NULL, NULL, NULL, {0}},
    {"link-windows", NULL, NULL, "false", link_change_state, {0}},
};

void sv_window_link_init(SvWindow *self)
{
    g_action_map_add_action_entries(G_ACTION_MAP(self), LINK_ACTIONS, G_N_ELEMENTS(LINK_ACTIONS), self);
}
