/* SPDX-License-Identifier: MIT */
/* sv-script-messages.c - the test-script verbs of the message filter, the
 * density band, a preview column's tooltip, the search's status and two
 * linked windows (docs/VIEWER.md lists them). */
#include "sv-script-verbs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "density.h"

static gboolean verb_message_filter(SvWindow *self, const char *arg)
{
    /* the popover's Apply with this query; empty: all messages */
    sv_window_msgfilter_apply_text(self, arg);
    return TRUE;
}

static gboolean verb_expect_message_filter(SvWindow *self, const char *arg)
{
    /* none | QUERY | error PART: the header button's label and clear
     * button, or the popover's error */
    const char *label = gtk_menu_button_get_label(self->msgfilter_button);
    gboolean clear = gtk_widget_get_visible(self->msgfilter_clear);
    const char *err =
        gtk_widget_get_visible(GTK_WIDGET(self->msgfilter_error)) ? gtk_label_get_text(self->msgfilter_error) : "";
    printf("message filter button: %s%s%s%s\n", label ? label : "", clear ? " (clear button)" : "", *err ? "; " : "",
           err);
    if (g_str_has_prefix(arg, "error ")) {
        if (!strstr(err, arg + 6)) sv_script_fail(self, "the message filter does not show that error");
    } else if (g_str_equal(arg, "none")) {
        if (clear || self->msg_filter || !label || strcmp(label, "All messages") != 0)
            sv_script_fail(self, "a message filter is shown");
    } else if (!clear || !self->msg_filter || strcmp(self->msg_filter, arg) != 0 || !label || !strstr(label, arg)) {
        sv_script_fail(self, "the message filter is not shown as set");
    }
    return TRUE;
}

static gboolean verb_expect_search(SvWindow *self, const char *arg)
{
    /* part of the search's status ("3 of 120", "wrapped", "no match") */
    const char *t =
        gtk_widget_get_visible(GTK_WIDGET(self->search_status)) ? gtk_label_get_text(self->search_status) : "";
    printf("search status: %s\n", t);
    if (!strstr(t, arg)) sv_script_fail(self, "the search status says something else");
    return TRUE;
}

static gboolean verb_expect_column(SvWindow *self, const char *arg)
{
    /* FX FY PART: the tooltip over the timeline at fractions of its size
     * (a zoomed-out histogram column) says PART */
    double fx = 0, fy = 0;
    int n = 0;
    if (sscanf(arg, "%lf %lf %n", &fx, &fy, &n) != 2 || !arg[n]) {
        sv_script_fail(self, "expect-column wants FX FY TEXT");
        return TRUE;
    }
    GtkWidget *tl = GTK_WIDGET(self->timeline);
    char *t = sv_timeline_column_text(self->timeline, fx * gtk_widget_get_width(tl), fy * gtk_widget_get_height(tl));
    printf("column: %s\n", t ? t : "(no tooltip)");
    if (!t || !strstr(t, arg + n)) sv_script_fail(self, "the column's tooltip says something else");
    g_free(t);
    return TRUE;
}

static gboolean verb_new_window(SvWindow *self, const char *arg)
{
    /* PATH: what Open in New Window does with the chosen file */
    GFile *f = g_file_new_for_path(arg);
    if (!sv_window_open_in_new_window(self, f)) sv_script_fail(self, "no new window");
    g_object_unref(f);
    return TRUE;
}

static SvWindow *other_window(SvWindow *self)
{
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    for (GList *l = app ? gtk_application_get_windows(app) : NULL; l; l = l->next)
        if (SV_IS_WINDOW(l->data) && l->data != (gpointer)self) return l->data;
    return NULL;
}

static gboolean verb_link(SvWindow *self, const char *arg)
{
    /* yes|no: this window's Link Time Window; all: every window's */
    gboolean all = g_str_equal(arg, "all");
    GVariant *on = g_variant_new_boolean(all || g_str_equal(arg, "yes"));
    g_variant_ref_sink(on);
    GtkApplication *app = gtk_window_get_application(GTK_WINDOW(self));
    for (GList *l = app ? gtk_application_get_windows(app) : NULL; l; l = l->next)
        if (SV_IS_WINDOW(l->data) && (all || l->data == (gpointer)self))
            g_action_group_change_action_state(G_ACTION_GROUP(l->data), "link-windows", on);
    g_variant_unref(on);
    return TRUE;
}

static gboolean verb_close_other(SvWindow *self, const char *arg)
{
    /* close the other windows (quit then ends the app) */
    SvWindow *o;
    while ((o = other_window(self))) gtk_window_destroy(GTK_WINDOW(o));
    return TRUE;
}

static gboolean verb_expect_other_window(SvWindow *self, const char *arg)
{
    /* T0 T1 | same: the other window shows this time window (seconds on
     * its ruler), or this window's (within a pixel); waits for it to have
     * opened its file */
    double a = 0, b = 0;
    const sv_viewport *me = sv_timeline_get_viewport(self->timeline);
    if (g_str_equal(arg, "same")) {
        a = me->t0 / 1e9;
        b = me->t1 / 1e9;
    } else if (sscanf(arg, "%lf %lf", &a, &b) != 2) {
        sv_script_fail(self, "expect-other-window wants T0 T1 (seconds) or same");
        return TRUE;
    }
    SvWindow *o = other_window(self);
    if (o && (!o->doc || o->opening || sv_timeline_is_busy(o->timeline))) {
        self->script_i--; /* again at the next step */
        return TRUE;
    }
    if (!o) {
        sv_script_fail(self, "no other window");
        return TRUE;
    }
    const sv_viewport *vp = sv_timeline_get_viewport(o->timeline);
    double px = (vp->t1 - vp->t0) / (vp->width > 0 ? vp->width : 1);
    double t0 = vp->t0 / 1e9, t1 = vp->t1 / 1e9;
    printf("other window: %.9f %.9f s (%s)\n", t0, t1, o->path ? o->path : "no file");
    if (fabs(t0 * 1e9 - a * 1e9) > px || fabs(t1 * 1e9 - b * 1e9) > px)
        sv_script_fail(self, "the other window shows another time window");
    return TRUE;
}

static gboolean verb_expect_density(SvWindow *self, const char *arg)
{
    /* filtered | unfiltered | all | none: the frame's density band counted
     * through the filter from every drawable, drawn with its folded part
     * unfiltered, drawn without a filter, or not drawn */
    const sv_scene *s = sv_timeline_get_scene(self->timeline);
    if (!s) {
        sv_script_fail(self, "no frame");
        return TRUE;
    }
    sv_density tmp;
    int show;
    const sv_density *d = sv_density_for(s, &self->doc->pal, &tmp, &show);
    const char *what = !d || !show                 ? "none"
                       : d == s->msg_density       ? "filtered"
                       : tmp.folded_unfiltered     ? "unfiltered"
                       : self->doc->pal.msg_filter ? "filtered"
                                                   : "all";
    double n = 0;
    for (size_t i = 0; d && i < (size_t)d->n_timelines * (size_t)d->width; i++)
        n += d->drawn[i] + (d->folded_unfiltered ? 0 : d->folded[i]);
    printf("density band: %s, %.0f messages\n", what, n);
    sv_density_clear(&tmp);
    if (!g_str_equal(what, arg)) sv_script_fail(self, "the density band is not as expected");
    return TRUE;
}

const sv_script_verb sv_script_message_verbs[] = {
    {"message-filter", 1, verb_message_filter},
    {"expect-message-filter", 0, verb_expect_message_filter},
    {"expect-search", 1, verb_expect_search},
    {"expect-density", 1, verb_expect_density},
    {"expect-column", 1, verb_expect_column},
    {"new-window", 0, verb_new_window},
    {"link", 0, verb_link},
    {"expect-other-window", 0, verb_expect_other_window},
    {"close-other", 0, verb_close_other},
};
const size_t sv_script_n_message_verbs = sizeof sv_script_message_verbs / sizeof sv_script_message_verbs[0];
