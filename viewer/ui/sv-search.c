/* SPDX-License-Identifier: MIT */
/* sv-search.c - the header's search: find the next or previous match on a
 * worker (going round to the other end of the trace when there is none
 * that way), then count the matches and say where this one is among them
 * ("3 of 120"), and say why a text is not a query. */
#include "sv-window-private.h"

#include <string.h>

#include "density.h"

/* Past this many matches after the current one the count stops ("of ≥"). */
#define COUNT_LIMIT 1000

typedef struct find_job {
    SvDocRef *doc;
    sv_search q;
    int64_t from, at;
    int dir;
    /* results */
    sv_found found;
    gboolean wrapped;
    uint64_t total, before;
    int before_exact, complete;
} find_job;

static void find_job_free(gpointer p)
{
    find_job *j = p;
    sv_doc_ref_release(j->doc);
    g_free(j);
}

static int is_cancelled(void *user)
{
    return g_cancellable_is_cancelled(user);
}

static void return_error(GTask *task, const slog_error *err)
{
    g_task_return_new_error(task, SV_ERROR, -err->status, "%s",
                            err->message[0] ? err->message : slog_strerror(err->status));
}

static void find_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    find_job *j = data;
    slog_error err;
    memset(&err, 0, sizeof err);
    int rc = sv_search_find(j->doc->r, &j->q, j->from, j->dir, c ? is_cancelled : NULL, c, &j->found, &err);
    if (rc == 0 && !(c && g_cancellable_is_cancelled(c))) {
        /* nothing that way: go round from the other end */
        const slog_file_info *fi = j->doc->fi;
        int64_t edge = j->dir > 0 ? fi->t_min - 1 : fi->t_max + 1;
        rc = sv_search_find(j->doc->r, &j->q, edge, j->dir, c ? is_cancelled : NULL, c, &j->found, &err);
        j->wrapped = rc == 1;
    }
    if (rc < 0)
        return_error(task, &err);
    else
        g_task_return_boolean(task, rc == 1);
}

static void count_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    find_job *j = data;
    slog_error err;
    memset(&err, 0, sizeof err);
    sv_search_bound *b = sv_search_bind(&j->q, j->doc->r);
    if (!b) {
        g_task_return_new_error(task, SV_ERROR, -SLOG_ERR_NOMEM, "out of memory counting the matches");
        return;
    }
    int rc = sv_search_count(j->doc->r, b, j->at, COUNT_LIMIT, 4 * SV_DENSITY_SCAN_BUDGET, c ? is_cancelled : NULL, c,
                             &j->total, &j->before, &j->before_exact, &j->complete, &err);
    sv_search_bound_free(b);
    if (rc < 0)
        return_error(task, &err);
    else
        g_task_return_boolean(task, TRUE);
}

void sv_window_search_status(SvWindow *self, const char *text, gboolean error)
{
    gtk_label_set_text(self->search_status, text ? text : "");
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->search_status), text);
    gtk_widget_set_visible(GTK_WIDGET(self->search_status), text && *text);
    if (error)
        gtk_widget_add_css_class(GTK_WIDGET(self->search_status), "error");
    else
        gtk_widget_remove_css_class(GTK_WIDGET(self->search_status), "error");
    if (self->script && text) printf("search: %s\n", text), fflush(stdout);
}

static const char *wrap_note(const find_job *j)
{
    if (!j->wrapped) return "";
    return j->dir > 0 ? " · wrapped to the start" : " · wrapped to the end";
}

static void count_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    find_job *j = g_task_get_task_data(G_TASK(res));
    GError *error = NULL;
    gboolean ok = g_task_propagate_boolean(G_TASK(res), &error);
    if (g_task_get_cancellable(G_TASK(res)) == self->search_cancel &&
        !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        self->search_busy = FALSE;
        char *s;
        if (!ok)
            s = g_strdup_printf("match%s (not counted: %s)", wrap_note(j), error ? error->message : "?");
        else if (j->complete)
            s = g_strdup_printf("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT "%s", j->before + 1, j->total,
                                wrap_note(j));
        else if (j->before_exact)
            s = g_strdup_printf("%" G_GUINT64_FORMAT " of ≥ %" G_GUINT64_FORMAT "%s", j->before + 1, j->total,
                                wrap_note(j));
        else
            s = g_strdup_printf("≥ %" G_GUINT64_FORMAT " of ≥ %" G_GUINT64_FORMAT "%s", j->before + 1, j->total,
                                wrap_note(j));
        sv_window_search_status(self, s, FALSE);
        g_free(s);
    }
    g_clear_error(&error);
    g_object_unref(self);
}

static void find_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    find_job *j = g_task_get_task_data(G_TASK(res));
    GError *error = NULL;
    gboolean found = g_task_propagate_boolean(G_TASK(res), &error);
    gboolean current = g_task_get_cancellable(G_TASK(res)) == self->search_cancel;
    if (!current || g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        /* a newer search runs */
    } else if (error) {
        self->search_busy = FALSE;
        sv_window_search_status(self, NULL, FALSE);
        sv_window_error_dialog(self, "Search failed", error->message);
    } else if (found) {
        sv_timeline_select(self->timeline, &j->found, FALSE);
        gtk_widget_remove_css_class(GTK_WIDGET(self->search_entry), "error");
        char t[64];
        sv_format_time(j->found.item.start, t, sizeof t);
        if (self->script)
            printf("found %s on timeline %u at %s\n", self->doc->cat_names[j->found.item.category],
                   j->found.item.timeline, t),
                fflush(stdout);
        char *s = g_strdup_printf("… of …%s", wrap_note(j));
        sv_window_search_status(self, s, FALSE);
        g_free(s);
        /* the count, on the same cancellable: a new search stops it */
        find_job *c = g_new0(find_job, 1);
        *c = *j;
        c->doc = sv_doc_ref_acquire(j->doc);
        c->at = j->found.item.start;
        GTask *task = g_task_new(NULL, self->search_cancel, count_done, g_object_ref(self));
        g_task_set_task_data(task, c, find_job_free);
        g_task_run_in_thread(task, count_thread);
        g_object_unref(task);
    } else {
        self->search_busy = FALSE;
        gtk_widget_add_css_class(GTK_WIDGET(self->search_entry), "error");
        gtk_widget_error_bell(GTK_WIDGET(self));
        sv_window_search_status(self, "no match", TRUE);
        if (self->script) printf("not found\n"), fflush(stdout);
    }
    g_clear_error(&error);
    g_object_unref(self);
}

void sv_window_find(SvWindow *self, int dir)
{
    if (!self->doc) return;
    sv_search q;
    sv_search_error se;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->search_entry));
    g_free(self->searched);
    self->searched = g_strdup(text);
    if (sv_search_parse_ex(text, &q, &se)) {
        if (self->search_cancel) g_cancellable_cancel(self->search_cancel);
        self->search_busy = FALSE;
        if (*text) {
            gtk_widget_add_css_class(GTK_WIDGET(self->search_entry), "error");
            char *s = g_strdup_printf("not a valid query: %s (at character %d)", se.message, se.pos + 1);
            sv_window_search_status(self, s, TRUE);
            g_free(s);
        } else {
            sv_window_search_status(self, NULL, FALSE);
        }
        return;
    }
    /* scan from the selected match, else from the view's edge */
    sv_found cur;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    int64_t from = dir > 0 ? (int64_t)vp->t0 - 1 : (int64_t)vp->t1 + 1;
    if (sv_timeline_get_selected(self->timeline, &cur) && cur.item.start >= vp->t0 && cur.item.start <= vp->t1)
        from = cur.item.start;
    if (self->search_cancel) g_cancellable_cancel(self->search_cancel);
    g_clear_object(&self->search_cancel);
    self->search_cancel = g_cancellable_new();
    self->search_busy = TRUE;
    find_job *j = g_new0(find_job, 1);
    j->doc = sv_doc_ref_acquire(self->doc);
    j->q = q;
    j->from = from;
    j->dir = dir;
    GTask *task = g_task_new(NULL, self->search_cancel, find_done, g_object_ref(self));
    g_task_set_task_data(task, j, find_job_free);
    g_task_run_in_thread(task, find_thread);
    g_object_unref(task);
}

void sv_window_search_reset(SvWindow *self)
{
    /* a match or a count of the last file is no answer about this one */
    if (self->search_cancel) g_cancellable_cancel(self->search_cancel);
    self->search_busy = FALSE;
    sv_window_search_status(self, NULL, FALSE);
}

void sv_window_search_init(SvWindow *self)
{
    self->search_status = GTK_LABEL(gtk_label_new(NULL));
    gtk_label_set_ellipsize(self->search_status, PANGO_ELLIPSIZE_END);
    gtk_label_set_width_chars(self->search_status, 16);
    gtk_label_set_max_width_chars(self->search_status, 36);
    gtk_widget_add_css_class(GTK_WIDGET(self->search_status), "dim-label");
    gtk_widget_set_visible(GTK_WIDGET(self->search_status), FALSE);
    gtk_header_bar_pack_end(self->header, GTK_WIDGET(self->search_status));
}
