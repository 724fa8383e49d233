/* SPDX-License-Identifier: MIT */
/* sv-analysis.c - see sv-analysis.h. */
#include "sv-analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sv-matrix.h"
#include "sv-profile.h"
#include "sv-script-verbs.h"
#include "sv-window-private.h"

static const char *const NAMES[] = {"view", "selection", "trace"};
const char *const sv_scope_labels[SV_N_SCOPES + 1] = {"Time Window", "Selected Range", "Whole Trace", NULL};

/* ------------------------------------------------------------ requests */

void sv_analysis_req_init(sv_analysis_req *r, GObject *owner, SvWindow *const *main, uint32_t flags, const char *failed,
                          void (*shown)(GObject *, gboolean), void (*status)(GObject *))
{
    *r = (sv_analysis_req){
        .owner = owner, .main = main, .flags = flags, .failed = failed, .shown = shown, .status = status};
}

static void req_done(GObject *src, GAsyncResult *res, gpointer user)
{
    (void)src;
    sv_analysis_req *r = user; /* its owner is held for the call */
    GObject *owner = r->owner;
    GError *error = NULL;
    slog_query_stats st;
    double ms;
    slog_analysis *an = sv_query_analyse_finish(res, &st, &ms, &error);
    if (g_task_get_cancellable(G_TASK(res)) != r->cancel) { /* superseded */
        slog_analysis_free(an);
        g_clear_error(&error);
        g_object_unref(owner);
        return;
    }
    r->busy = FALSE;
    if (an) {
        slog_analysis_free(r->an);
        r->an = an;
        gboolean doc_changed = r->doc != r->want_doc;
        if (doc_changed) {
            sv_doc_ref_release(r->doc);
            r->doc = sv_doc_ref_acquire(r->want_doc);
        }
        r->t0 = r->want_t0;
        r->t1 = r->want_t1;
        r->stats = st;
        r->analyse_ms = ms;
        r->shown(owner, doc_changed);
    } else if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && *r->main) {
        sv_window_error_dialog(*r->main, r->failed, error->message);
    }
    r->status(owner);
    g_clear_error(&error);
    g_object_unref(owner);
}

static void req_ask(sv_analysis_req *r)
{
    if (r->cancel) g_cancellable_cancel(r->cancel);
    g_clear_object(&r->cancel);
    r->cancel = g_cancellable_new();
    r->busy = TRUE;
    g_object_ref(r->owner);
    sv_query_analyse_async(r->want_doc, r->want_t0, r->want_t1, r->flags, r->cancel, req_done, r);
    r->status(r->owner);
}

static gboolean req_pending_cb(gpointer user)
{
    sv_analysis_req *r = user;
    r->pending = 0;
    req_ask(r);
    return G_SOURCE_REMOVE;
}

gboolean sv_analysis_req_refresh(sv_analysis_req *r, SvWindow *main, sv_span_scope scope, gboolean now)
{
    int64_t t0, t1;
    const char *what;
    if (!main || !sv_analysis_span(main, scope, &t0, &t1, &what)) return FALSE;
    SvDocRef *doc = main->doc;
    gboolean what_changed = g_strcmp0(what, r->what) != 0;
    if (what_changed) {
        g_free(r->what);
        r->what = g_strdup(what);
    }
    gboolean same_as_asked = (r->busy || r->pending) && doc == r->want_doc && t0 == r->want_t0 && t1 == r->want_t1;
    gboolean same_as_shown = !r->busy && !r->pending && r->an && doc == r->doc && t0 == r->t0 && t1 == r->t1;
    if (same_as_asked || same_as_shown) return what_changed;
    if (doc != r->want_doc) {
        sv_doc_ref_release(r->want_doc);
        r->want_doc = sv_doc_ref_acquire(doc);
    }
    r->want_t0 = t0;
    r->want_t1 = t1;
    if (!r->asked_us) r->asked_us = g_get_monotonic_time();
    if (r->pending) g_source_remove(r->pending);
    r->pending = 0;
    if (now)
        req_ask(r);
    else
        r->pending = g_timeout_add(120, req_pending_cb, r);
    return what_changed;
}

gboolean sv_analysis_req_waiting(const sv_analysis_req *r)
{
    return r->busy || r->pending;
}

void sv_analysis_req_stop(sv_analysis_req *r)
{
    if (r->pending) g_source_remove(r->pending);
    r->pending = 0;
    if (r->cancel) g_cancellable_cancel(r->cancel);
    g_clear_object(&r->cancel);
}

void sv_analysis_req_clear(sv_analysis_req *r)
{
    sv_analysis_req_stop(r);
    slog_analysis_free(r->an);
    r->an = NULL;
    sv_doc_ref_release(r->doc);
    sv_doc_ref_release(r->want_doc);
    r->doc = r->want_doc = NULL;
    g_free(r->what);
    r->what = NULL;
}

const char *sv_scope_name(sv_span_scope s)
{
    return s < SV_N_SCOPES ? NAMES[s] : NAMES[0];
}

int sv_scope_parse(const char *s)
{
    for (int i = 0; i < SV_N_SCOPES; i++)
        if (g_str_equal(s, NAMES[i])) return i;
    return -1;
}

gboolean sv_analysis_span(SvWindow *w, sv_span_scope scope, int64_t *t0, int64_t *t1, const char **what)
{
    if (!w->doc) return FALSE;
    const char *said = "the time window";
    double a, b;
    if (scope == SV_SCOPE_TRACE) {
        *t0 = w->doc->fi->t_min;
        *t1 = w->doc->fi->t_max;
        said = "the whole trace";
    } else if (scope == SV_SCOPE_SELECTION && sv_timeline_get_range(w->timeline, &a, &b) && b > a) {
        *t0 = (int64_t)floor(a);
        *t1 = (int64_t)ceil(b);
        said = "the selected range";
    } else {
        const sv_viewport *vp = sv_timeline_get_viewport(w->timeline);
        *t0 = (int64_t)floor(vp->t0);
        *t1 = (int64_t)ceil(vp->t1);
        if (scope == SV_SCOPE_SELECTION) said = "the time window (no range selected)";
    }
    if (*t1 < *t0) *t1 = *t0;
    if (what) *what = said;
    return TRUE;
}

void sv_analysis_show_timelines(SvWindow *w, uint32_t first, uint32_t last)
{
    if (!w->doc || first > last || last >= w->doc->fi->n_timelines) return;
    if (sv_timeline_rank_mode(w->timeline)) {
        sv_timeline_set_ranks(w->timeline, first, (double)last + 1, TRUE);
    } else {
        const sv_layout *lay = sv_timeline_get_layout(w->timeline);
        const sv_row *a = sv_layout_row_of(lay, first), *b = sv_layout_row_of(lay, last);
        if (a && b) {
            double top = fmin(a->y, b->y), bottom = fmax(a->y + a->h, b->y + b->h);
            double view = gtk_widget_get_height(GTK_WIDGET(w->timeline)) - SV_RULER_H;
            sv_timeline_set_scroll(w->timeline, (top + bottom) / 2 - view / 2);
        }
    }
    gtk_window_present(GTK_WINDOW(w));
}

void sv_analysis_report_timing(const char *name, gint64 asked_us, double analysis_ms, const slog_query_stats *st)
{
    if (!g_getenv("SLOG2_VIEW_TIMING")) return;
    fprintf(stderr,
            "slog2-view: %s shown %.0f ms after asked (analysis %.1f ms, %" G_GUINT64_FORMAT
            " blocks, %" G_GUINT64_FORMAT " bytes read)\n",
            name, (double)(g_get_monotonic_time() - asked_us) / 1000.0, analysis_ms, st->nodes_read, st->bytes_read);
}

void sv_analysis_set_title(GtkWindow *w, const char *what, SvWindow *main)
{
    char *base = main && main->path ? g_path_get_basename(main->path) : NULL;
    char *title = base ? g_strdup_printf("%s – %s", what, base) : g_strdup(what);
    gtk_window_set_title(w, title);
    g_free(title);
    g_free(base);
}

/* ------------------------------------------------------------ script verbs */

static SvMatrixWindow *matrix_of(SvWindow *w)
{
    if (!w->matrix) sv_script_fail(w, "the Communication Matrix window is not open (verb matrix)");
    return w->matrix ? SV_MATRIX_WINDOW(w->matrix) : NULL;
}

static SvProfileWindow *profile_of(SvWindow *w)
{
    if (!w->profile) sv_script_fail(w, "the Profile window is not open (verb profile)");
    return w->profile ? SV_PROFILE_WINDOW(w->profile) : NULL;
}

gboolean sv_analysis_script_busy(SvWindow *w)
{
    return (w->matrix && sv_matrix_window_busy(SV_MATRIX_WINDOW(w->matrix))) ||
           (w->profile && sv_profile_window_busy(SV_PROFILE_WINDOW(w->profile)));
}

gboolean sv_script_matrix(SvWindow *w, const char *arg)
{
    g_action_group_activate_action(G_ACTION_GROUP(w), "show-matrix", NULL);
    SvMatrixWindow *m = matrix_of(w);
    char **words = g_strsplit(arg, " ", -1);
    for (char **p = words; m && *p; p++) {
        int k;
        if (!**p)
            continue;
        else if ((k = sv_matrix_metric_parse(*p)) >= 0)
            sv_matrix_window_set_metric(m, (sv_matrix_metric)k);
        else if ((k = sv_scope_parse(*p)) >= 0)
            sv_matrix_window_set_scope(m, (sv_span_scope)k);
        else
            sv_script_fail(w, "matrix takes messages|bytes|mean-bytes|time|mean-time and view|selection|trace");
    }
    g_strfreev(words);
    return TRUE;
}

gboolean sv_script_profile(SvWindow *w, const char *arg)
{
    g_action_group_activate_action(G_ACTION_GROUP(w), "show-profile", NULL);
    SvProfileWindow *p = profile_of(w);
    if (p && *arg) {
        int k = sv_scope_parse(arg);
        if (k < 0)
            sv_script_fail(w, "profile takes view|selection|trace");
        else
            sv_profile_window_set_scope(p, (sv_span_scope)k);
    }
    return TRUE;
}

/* "NAME csv FILE window T0:T1" in seconds, as slog2-print --window takes
 * them back to the nanosecond. */
static void print_csv_line(const char *name, const char *file, int64_t t0, int64_t t1)
{
    printf("%s csv %s window %.9f:%.9f\n", name, file, t0 / 1e9, t1 / 1e9);
    fflush(stdout);
}

gboolean sv_script_matrix_csv(SvWindow *w, const char *arg)
{
    SvMatrixWindow *m = matrix_of(w);
    int64_t t0, t1;
    GError *e = NULL;
    if (m && !sv_matrix_window_write_csv(m, arg, &t0, &t1, &e)) {
        sv_script_fail(w, e->message);
        g_clear_error(&e);
    } else if (m) {
        uint32_t n, g;
        sv_matrix_window_folding(m, &n, &g);
        printf("matrix: %u groups of %u timelines a side\n", n, g);
        print_csv_line("matrix", arg, t0, t1);
    }
    return TRUE;
}

gboolean sv_script_profile_csv(SvWindow *w, const char *arg)
{
    SvProfileWindow *p = profile_of(w);
    int64_t t0, t1;
    GError *e = NULL;
    if (p && !sv_profile_window_write_csv(p, arg, &t0, &t1, &e)) {
        sv_script_fail(w, e->message);
        g_clear_error(&e);
    } else if (p) {
        print_csv_line("profile", arg, t0, t1);
    }
    return TRUE;
}

gboolean sv_script_matrix_cell(SvWindow *w, const char *arg)
{
    /* SENDER RECEIVER (timelines): the cell's tooltip, then a click on it */
    SvMatrixWindow *m = matrix_of(w);
    unsigned s, r;
    if (!m) return TRUE;
    if (sscanf(arg, "%u %u", &s, &r) != 2) {
        sv_script_fail(w, "matrix-cell wants SENDER RECEIVER (timeline ids)");
        return TRUE;
    }
    char *t = sv_matrix_window_describe(m, s, r);
    if (!t) {
        sv_script_fail(w, "matrix-cell: no such cell");
        return TRUE;
    }
    char **lines = g_strsplit(t, "\n", -1);
    for (char **l = lines; *l; l++) printf("matrix tooltip: %s\n", *l);
    g_strfreev(lines);
    g_free(t);
    fflush(stdout);
    sv_matrix_window_click(m, s, r);
    return TRUE;
}

gboolean sv_script_screenshot_analysis(SvWindow *w, const char *arg)
{
    /* matrix|profile FILE */
    char **kv = g_strsplit(arg, " ", 2);
    GtkWindow *win = g_strcmp0(kv[0], "matrix") == 0 ? w->matrix : g_strcmp0(kv[0], "profile") == 0 ? w->profile : NULL;
    GdkTexture *t = win && kv[1] ? sv_style_render_widget(GTK_WIDGET(win)) : NULL;
    if (!t || !gdk_texture_save_to_png(t, kv[1])) sv_script_fail(w, "screenshot-analysis matrix|profile FILE");
    if (t) g_object_unref(t);
    g_strfreev(kv);
    return TRUE;
}

gboolean sv_script_profile_do(SvWindow *w, const char *arg)
{
    /* filter TEXT | category NAME | sort TABLE COLUMN asc|desc | rows TABLE
     * | go I (row I of the per-timeline table, as shown) */
    SvProfileWindow *p = profile_of(w);
    if (!p) return TRUE;
    char **a = g_strsplit(arg, " ", 2);
    const char *rest = a[0] && a[1] ? a[1] : "";
    if (g_strcmp0(a[0], "filter") == 0) {
        sv_profile_window_set_filter(p, rest);
    } else if (g_strcmp0(a[0], "category") == 0) {
        if (!sv_profile_window_set_category(p, rest)) sv_script_fail(w, "profile category: not in the table");
    } else if (g_strcmp0(a[0], "sort") == 0) {
        char **b = g_strsplit(rest, " ", 3);
        if (!b[0] || !b[1] || !b[2] || !sv_profile_window_sort(p, b[0], b[1], g_str_equal(b[2], "desc")))
            sv_script_fail(w, "profile sort TABLE COLUMN asc|desc: no such column");
        g_strfreev(b);
    } else if (g_strcmp0(a[0], "rows") == 0) {
        char *d = sv_profile_window_describe(p, rest);
        char **lines = g_strsplit(d, "\n", -1);
        for (char **l = lines; *l && **l; l++) printf("profile %s: %s\n", rest, *l);
        g_strfreev(lines);
        g_free(d);
        fflush(stdout);
    } else if (g_strcmp0(a[0], "go") == 0) {
        if (!sv_profile_window_activate_timeline_row(p, (guint)g_ascii_strtoull(rest, NULL, 10)))
            sv_script_fail(w, "profile go I: no such row");
    } else {
        sv_script_fail(w, "profile-do filter|category|sort|rows|go ...");
    }
    g_strfreev(a);
    return TRUE;
}

typedef struct export_ctx {
    char *failed;
    SvWindow *main; /* weak pointer: NULL once the main window is gone */
    sv_analysis_csv_writer write;
    gpointer obj;
} export_ctx;

static void export_response_cb(GtkNativeDialog *d, int response, export_ctx *x)
{
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(d));
        char *path = f ? g_file_get_path(f) : NULL;
        GError *error = NULL;
        if (path && !x->write(x->obj, path, NULL, NULL, &error) && x->main)
            sv_window_error_dialog(x->main, x->failed, error->message);
        g_clear_error(&error);
        g_free(path);
        if (f) g_object_unref(f);
    }
    if (x->main) g_object_remove_weak_pointer(G_OBJECT(x->main), (gpointer *)&x->main);
    g_object_unref(x->obj);
    g_free(x->failed);
    g_free(x);
    g_object_unref(d);
}

void sv_analysis_export_csv(GtkWindow *parent, const char *title, const char *name, const char *failed, SvWindow *main,
                            sv_analysis_csv_writer write, gpointer obj)
{
    GtkFileChooserNative *d =
        gtk_file_chooser_native_new(title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, "_Export", "_Cancel");
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), name);
    export_ctx *x = g_new0(export_ctx, 1);
    x->failed = g_strdup(failed);
    x->main = main;
    if (main) g_object_add_weak_pointer(G_OBJECT(main), (gpointer *)&x->main);
    x->write = write;
    x->obj = g_object_ref(obj);
    g_signal_connect(d, "response", G_CALLBACK(export_response_cb), x);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}
