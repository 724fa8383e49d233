/* SPDX-License-Identifier: MIT */
/* sv-matrix.c - see sv-matrix.h. */
#include "sv-matrix.h"

#include <math.h>
#include <stdio.h>

#include "sv-window-private.h"

struct _SvMatrixWindow {
    GtkWindow parent_instance;

    SvWindow *main; /* weak */
    GtkDropDown *scope_dd, *metric_dd;
    GtkWidget *area;
    GtkLabel *status;

    sv_span_scope scope;
    sv_matrix_metric metric;

    sv_analysis_req req; /* the analysis on screen and the next one */
    sv_matrix m;
    uint32_t m_max; /* the max_groups m was folded for */
    gboolean m_valid;
    long hover_s, hover_r;

    gboolean undrawn; /* a result not drawn yet */

    GCancellable *find_cancel;
    gboolean find_busy;
};

G_DEFINE_FINAL_TYPE(SvMatrixWindow, sv_matrix_window, GTK_TYPE_WINDOW)

static void fold_for(SvMatrixWindow *self, uint32_t max_groups)
{
    if (self->m_valid && self->m_max == max_groups) return;
    sv_matrix_clear(&self->m);
    self->m_valid = FALSE;
    if (!self->req.an) return;
    size_t n;
    const slog_matrix_cell *c = slog_analysis_matrix(self->req.an, &n);
    if (sv_matrix_fold(&self->m, c, n, self->req.doc->fi->n_timelines, max_groups) == 0) {
        self->m_valid = TRUE;
        self->m_max = max_groups;
    }
}

static void geom(SvMatrixWindow *self, sv_matrix_geom *g)
{
    sv_matrix_geom_for(gtk_widget_get_width(self->area), gtk_widget_get_height(self->area), g);
    fold_for(self, sv_matrix_geom_max_groups(g));
}

static char *caption(SvMatrixWindow *self)
{
    if (!self->req.an) return g_strdup(self->req.busy ? "Computing…" : "");
    char a[64], b[64], d[64];
    sv_format_time(self->req.t0, a, sizeof a);
    sv_format_time(self->req.t1, b, sizeof b);
    sv_format_duration((double)(self->req.t1 - self->req.t0), d, sizeof d);
    return g_strdup_printf("%" G_GUINT64_FORMAT " messages between %" G_GUINT64_FORMAT
                           " timeline pairs, sent in %s: %s – %s (%s)",
                           self->m.total.messages, self->m.n_pairs, self->req.what, a, b, d);
}

static void draw_cb(GtkDrawingArea *area, cairo_t *cr, int w, int h, gpointer user)
{
    SvMatrixWindow *self = user;
    sv_style_follow(GTK_WIDGET(area));
    sv_matrix_geom g;
    geom(self, &g);
    char *cap = caption(self);
    sv_render_matrix(cr, w, h, self->m_valid ? &self->m : NULL, self->metric, self->hover_s, self->hover_r, cap);
    g_free(cap);
    if (self->undrawn && self->req.an) {
        self->undrawn = FALSE;
        if (self->req.asked_us)
            sv_analysis_report_timing("matrix", self->req.asked_us, self->req.analyse_ms, &self->req.stats);
        self->req.asked_us = 0;
    }
}

static void update_status(SvMatrixWindow *self)
{
    char bytes[32];
    sv_format_bytes((double)self->req.stats.bytes_read, bytes, sizeof bytes);
    char *s = self->req.an ? g_strdup_printf("Read %s in %" G_GUINT64_FORMAT " blocks, %.1f ms%s", bytes,
                                             self->req.stats.nodes_read, self->req.analyse_ms,
                                             self->req.busy ? " · computing…" : "")
                           : g_strdup(self->req.busy ? "Computing…" : "");
    gtk_label_set_text(self->status, s);
    g_free(s);
}

/* ------------------------------------------------------------ analysis */

static void shown(GObject *owner, gboolean doc_changed)
{
    SvMatrixWindow *self = SV_MATRIX_WINDOW(owner);
    if (doc_changed) sv_analysis_set_title(GTK_WINDOW(self), "Communication Matrix", self->main);
    self->m_valid = FALSE;
    self->hover_s = self->hover_r = -1;
    self->undrawn = TRUE;
}

static void status_changed(GObject *owner)
{
    SvMatrixWindow *self = SV_MATRIX_WINDOW(owner);
    update_status(self);
    gtk_widget_queue_draw(self->area);
}

/* The span (or the file) changed: ask again, at once or once the view
 * has stopped moving (a zoom is a stream of changes). */
static void refresh(SvMatrixWindow *self, gboolean now)
{
    if (sv_analysis_req_refresh(&self->req, self->main, self->scope, now)) gtk_widget_queue_draw(self->area);
}

static void view_changed_cb(SvTimeline *tl, SvMatrixWindow *self)
{
    refresh(self, FALSE);
}

static void range_selected_cb(SvTimeline *tl, double t0, double t1, SvMatrixWindow *self)
{
    if (self->scope == SV_SCOPE_SELECTION) refresh(self, TRUE);
}

/* ------------------------------------------------------------ cells */

static char *describe_cell(SvMatrixWindow *self, uint32_t gs, uint32_t gr)
{
    const sv_matrix_sum *c = sv_matrix_cell(&self->m, gs, gr);
    if (!c) return NULL;
    uint32_t s0, s1, r0, r1;
    sv_matrix_group_range(&self->m, gs, &s0, &s1);
    sv_matrix_group_range(&self->m, gr, &r0, &r1);
    const char *const *names = self->req.doc->tl_labels;
    GString *t = g_string_new(NULL);
    if (s0 == s1)
        g_string_append_printf(t, "From %u (%s)", s0, names[s0]);
    else
        g_string_append_printf(t, "From %u–%u (%u timelines)", s0, s1, s1 - s0 + 1);
    if (r0 == r1)
        g_string_append_printf(t, " to %u (%s)\n", r0, names[r0]);
    else
        g_string_append_printf(t, " to %u–%u (%u timelines)\n", r0, r1, r1 - r0 + 1);
    if (!c->messages) {
        g_string_append(t, "No messages");
        return g_string_free(t, FALSE);
    }
    char b[32], mb[32], tt[32], mt[32];
    double v;
    sv_format_bytes((double)c->bytes, b, sizeof b);
    if (sv_matrix_value(c, SV_MATRIX_MEAN_BYTES, &v))
        sv_format_bytes(v, mb, sizeof mb);
    else
        g_strlcpy(mb, "unknown", sizeof mb);
    sv_format_duration((double)c->time_ns, tt, sizeof tt);
    sv_format_duration((double)c->time_ns / (double)c->messages, mt, sizeof mt);
    g_string_append_printf(t, "%" G_GUINT64_FORMAT " messages · %s (mean %s)", c->messages, b, mb);
    if (c->unknown_bytes) g_string_append_printf(t, ", %" G_GUINT64_FORMAT " of unknown size", c->unknown_bytes);
    g_string_append_printf(t, "\nTransfer time %s in all, %s mean\nClick: select the first one", tt, mt);
    return g_string_free(t, FALSE);
}

static gboolean query_tooltip_cb(GtkWidget *w, int x, int y, gboolean kb, GtkTooltip *tip, SvMatrixWindow *self)
{
    sv_matrix_geom g;
    geom(self, &g);
    uint32_t gs, gr;
    if (!self->m_valid || !sv_matrix_hit(&self->m, &g, x, y, &gs, &gr)) return FALSE;
    char *t = describe_cell(self, gs, gr);
    gtk_tooltip_set_text(tip, t);
    g_free(t);
    return TRUE;
}

static void motion_cb(GtkEventControllerMotion *m, double x, double y, SvMatrixWindow *self)
{
    sv_matrix_geom g;
    geom(self, &g);
    uint32_t gs = 0, gr = 0;
    int hit = self->m_valid && sv_matrix_hit(&self->m, &g, x, y, &gs, &gr);
    long hs = hit ? (long)gs : -1, hr = hit ? (long)gr : -1;
    if (hs != self->hover_s || hr != self->hover_r) {
        self->hover_s = hs;
        self->hover_r = hr;
        gtk_widget_queue_draw(self->area);
    }
}

static void leave_cb(GtkEventControllerMotion *m, SvMatrixWindow *self)
{
    self->hover_s = self->hover_r = -1;
    gtk_widget_queue_draw(self->area);
}

typedef struct find_job {
    SvDocRef *doc;
    int64_t t0, t1;
    uint32_t s0, s1, r0, r1;
    sv_found found;
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

static void find_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    find_job *j = data;
    slog_error err;
    memset(&err, 0, sizeof err);
    int rc = sv_matrix_find(j->doc->r, j->t0, j->t1, j->s0, j->s1, j->r0, j->r1, c ? is_cancelled : NULL, c, &j->found,
                            &err);
    if (rc < 0)
        g_task_return_new_error(task, SV_ERROR, -rc, "%s", err.message[0] ? err.message : slog_strerror(rc));
    else
        g_task_return_boolean(task, rc == 1);
}

static void find_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvMatrixWindow *self = user;
    GError *error = NULL;
    gboolean found = g_task_propagate_boolean(G_TASK(res), &error);
    const find_job *j = g_task_get_task_data(G_TASK(res));
    if (g_task_get_cancellable(G_TASK(res)) == self->find_cancel) {
        self->find_busy = FALSE;
        if (error) {
            if (self->main && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
                sv_window_error_dialog(self->main, "The messages could not be searched", error->message);
        } else if (self->main && self->main->doc == j->doc) {
            if (found) {
                sv_timeline_select(self->main->timeline, &j->found, FALSE);
                sv_analysis_show_timelines(self->main, MIN(j->s0, j->r0), MAX(j->s1, j->r1));
            }
            if (self->main->script) {
                char t[64];
                sv_format_time(j->found.item.start, t, sizeof t);
                if (found)
                    printf("matrix cell %u-%u -> %u-%u: first message %u -> %u at %s\n", j->s0, j->s1, j->r0, j->r1,
                           j->found.item.timeline, j->found.item.end_timeline, t);
                else
                    printf("matrix cell %u-%u -> %u-%u: no message\n", j->s0, j->s1, j->r0, j->r1);
                fflush(stdout);
            }
        }
    }
    g_clear_error(&error);
    g_object_unref(self);
}

static void find_cell(SvMatrixWindow *self, uint32_t gs, uint32_t gr)
{
    if (!self->req.an || !self->m_valid) return;
    find_job *j = g_new0(find_job, 1);
    j->doc = sv_doc_ref_acquire(self->req.doc);
    j->t0 = self->req.t0;
    j->t1 = self->req.t1;
    sv_matrix_group_range(&self->m, gs, &j->s0, &j->s1);
    sv_matrix_group_range(&self->m, gr, &j->r0, &j->r1);
    if (self->find_cancel) g_cancellable_cancel(self->find_cancel);
    g_clear_object(&self->find_cancel);
    self->find_cancel = g_cancellable_new();
    self->find_busy = TRUE;
    GTask *task = g_task_new(NULL, self->find_cancel, find_done, g_object_ref(self));
    g_task_set_task_data(task, j, find_job_free);
    g_task_run_in_thread(task, find_thread);
    g_object_unref(task);
}

static void click_cb(GtkGestureClick *g, int n, double x, double y, SvMatrixWindow *self)
{
    sv_matrix_geom geo;
    geom(self, &geo);
    uint32_t gs, gr;
    if (self->m_valid && sv_matrix_hit(&self->m, &geo, x, y, &gs, &gr)) find_cell(self, gs, gr);
}

/* ------------------------------------------------------------ export */

gboolean sv_matrix_window_write_csv(SvMatrixWindow *self, const char *path, int64_t *t0, int64_t *t1, GError **error)
{
    if (!self->req.an) {
        g_set_error(error, SV_ERROR, 1, "No matrix computed yet");
        return FALSE;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "%s: %s", path, g_strerror(errno));
        return FALSE;
    }
    size_t n;
    const slog_matrix_cell *c = slog_analysis_matrix(self->req.an, &n);
    int bad = sv_matrix_write_csv(f, c, n);
    if (fclose(f) != 0 || bad) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot be written", path);
        return FALSE;
    }
    if (t0) *t0 = self->req.t0;
    if (t1) *t1 = self->req.t1;
    return TRUE;
}

static gboolean write_csv(gpointer obj, const char *path, int64_t *t0, int64_t *t1, GError **error)
{
    return sv_matrix_window_write_csv(obj, path, t0, t1, error);
}

static void export_clicked_cb(GtkButton *b, SvMatrixWindow *self)
{
    sv_analysis_export_csv(GTK_WINDOW(self), "Export Matrix as CSV", "matrix.csv", "The matrix could not be exported",
                           self->main, write_csv, self);
}

/* ------------------------------------------------------------ API */

void sv_matrix_window_set_metric(SvMatrixWindow *self, sv_matrix_metric m)
{
    if (m >= SV_N_MATRIX_METRICS) return;
    gtk_drop_down_set_selected(self->metric_dd, m);
}

void sv_matrix_window_set_scope(SvMatrixWindow *self, sv_span_scope s)
{
    if (s >= SV_N_SCOPES) return;
    gtk_drop_down_set_selected(self->scope_dd, s);
}

gboolean sv_matrix_window_busy(SvMatrixWindow *self)
{
    return sv_analysis_req_waiting(&self->req) || self->find_busy ||
           (self->undrawn && gtk_widget_get_mapped(GTK_WIDGET(self)));
}

static gboolean cell_of(SvMatrixWindow *self, uint32_t sender, uint32_t receiver, uint32_t *gs, uint32_t *gr)
{
    sv_matrix_geom g;
    geom(self, &g);
    if (!self->m_valid || !self->m.group) return FALSE;
    *gs = sender / self->m.group;
    *gr = receiver / self->m.group;
    return *gs < self->m.n_groups && *gr < self->m.n_groups;
}

char *sv_matrix_window_describe(SvMatrixWindow *self, uint32_t sender, uint32_t receiver)
{
    uint32_t gs, gr;
    return cell_of(self, sender, receiver, &gs, &gr) ? describe_cell(self, gs, gr) : NULL;
}

gboolean sv_matrix_window_click(SvMatrixWindow *self, uint32_t sender, uint32_t receiver)
{
    uint32_t gs, gr;
    if (!cell_of(self, sender, receiver, &gs, &gr)) return FALSE;
    find_cell(self, gs, gr);
    return TRUE;
}

void sv_matrix_window_folding(SvMatrixWindow *self, uint32_t *n_groups, uint32_t *group)
{
    sv_matrix_geom g;
    geom(self, &g);
    *n_groups = self->m_valid ? self->m.n_groups : 0;
    *group = self->m_valid ? self->m.group : 0;
}

/* ------------------------------------------------------------ class */

static void scope_changed_cb(GtkDropDown *dd, GParamSpec *ps, SvMatrixWindow *self)
{
    self->scope = (sv_span_scope)gtk_drop_down_get_selected(dd);
    refresh(self, TRUE);
}

static void metric_changed_cb(GtkDropDown *dd, GParamSpec *ps, SvMatrixWindow *self)
{
    self->metric = (sv_matrix_metric)gtk_drop_down_get_selected(dd);
    gtk_widget_queue_draw(self->area);
}

static void sv_matrix_window_dispose(GObject *o)
{
    SvMatrixWindow *self = SV_MATRIX_WINDOW(o);
    sv_analysis_req_stop(&self->req);
    if (self->find_cancel) g_cancellable_cancel(self->find_cancel);
    g_clear_object(&self->find_cancel);
    if (self->main) g_object_remove_weak_pointer(G_OBJECT(self->main), (gpointer *)&self->main);
    self->main = NULL;
    G_OBJECT_CLASS(sv_matrix_window_parent_class)->dispose(o);
}

static void sv_matrix_window_finalize(GObject *o)
{
    SvMatrixWindow *self = SV_MATRIX_WINDOW(o);
    sv_analysis_req_clear(&self->req);
    sv_matrix_clear(&self->m);
    G_OBJECT_CLASS(sv_matrix_window_parent_class)->finalize(o);
}

static void sv_matrix_window_class_init(SvMatrixWindowClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = sv_matrix_window_dispose;
    G_OBJECT_CLASS(klass)->finalize = sv_matrix_window_finalize;
}

static void sv_matrix_window_init(SvMatrixWindow *self)
{
    sv_analysis_req_init(&self->req, G_OBJECT(self), &self->main, SLOG_ANALYSIS_MATRIX,
                         "The communication matrix could not be computed", shown, status_changed);
    self->hover_s = self->hover_r = -1;
}

static GtkWidget *labelled(const char *text, GtkWidget *w)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *l = gtk_label_new(text);
    gtk_widget_add_css_class(l, "dim-label");
    gtk_box_append(GTK_BOX(box), l);
    gtk_box_append(GTK_BOX(box), w);
    return box;
}

SvMatrixWindow *sv_matrix_window_new(SvWindow *main)
{
    SvMatrixWindow *self = g_object_new(SV_TYPE_MATRIX_WINDOW, NULL);
    self->main = main;
    g_object_add_weak_pointer(G_OBJECT(main), (gpointer *)&self->main);
    sv_analysis_set_title(GTK_WINDOW(self), "Communication Matrix", main);
    gtk_window_set_transient_for(GTK_WINDOW(self), GTK_WINDOW(main));
    gtk_window_set_destroy_with_parent(GTK_WINDOW(self), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(self), 760, 820);

    GtkWidget *header = gtk_header_bar_new();
    self->scope_dd = GTK_DROP_DOWN(gtk_drop_down_new_from_strings(sv_scope_labels));
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->scope_dd), "The messages sent in which span of the trace");
    static const char *metrics[SV_N_MATRIX_METRICS + 1];
    for (int i = 0; i < SV_N_MATRIX_METRICS; i++) metrics[i] = sv_matrix_metric_label((sv_matrix_metric)i);
    self->metric_dd = GTK_DROP_DOWN(gtk_drop_down_new_from_strings(metrics));
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->metric_dd), "What a cell's colour says");
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), labelled("Span", GTK_WIDGET(self->scope_dd)));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), labelled("Colour by", GTK_WIDGET(self->metric_dd)));
    GtkWidget *export = gtk_button_new_with_mnemonic("_Export CSV…");
    gtk_widget_set_tooltip_text(export, "Save the matrix as slog2-print --matrix --format csv writes it");
    g_signal_connect(export, "clicked", G_CALLBACK(export_clicked_cb), self);
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), export);
    gtk_window_set_titlebar(GTK_WINDOW(self), header);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    self->area = gtk_drawing_area_new();
    gtk_widget_set_vexpand(self->area, TRUE);
    gtk_widget_set_hexpand(self->area, TRUE);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->area), draw_cb, self, NULL);
    gtk_widget_set_has_tooltip(self->area, TRUE);
    g_signal_connect(self->area, "query-tooltip", G_CALLBACK(query_tooltip_cb), self);
    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "motion", G_CALLBACK(motion_cb), self);
    g_signal_connect(motion, "leave", G_CALLBACK(leave_cb), self);
    gtk_widget_add_controller(self->area, motion);
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "released", G_CALLBACK(click_cb), self);
    gtk_widget_add_controller(self->area, GTK_EVENT_CONTROLLER(click));
    gtk_box_append(GTK_BOX(box), self->area);
    self->status = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_xalign(self->status, 0);
    gtk_widget_add_css_class(GTK_WIDGET(self->status), "dim-label");
    gtk_widget_add_css_class(GTK_WIDGET(self->status), "numeric");
    gtk_widget_set_margin_start(GTK_WIDGET(self->status), 8);
    gtk_widget_set_margin_end(GTK_WIDGET(self->status), 8);
    gtk_widget_set_margin_top(GTK_WIDGET(self->status), 4);
    gtk_widget_set_margin_bottom(GTK_WIDGET(self->status), 4);
    gtk_box_append(GTK_BOX(box), GTK_WIDGET(self->status));
    gtk_window_set_child(GTK_WINDOW(self), box);

    g_signal_connect(self->scope_dd, "notify::selected", G_CALLBACK(scope_changed_cb), self);
    g_signal_connect(self->metric_dd, "notify::selected", G_CALLBACK(metric_changed_cb), self);
    g_signal_connect_object(main->timeline, "view-changed", G_CALLBACK(view_changed_cb), self, 0);
    g_signal_connect_object(main->timeline, "range-selected", G_CALLBACK(range_selected_cb), self, 0);
    refresh(self, TRUE);
    return self;
}
