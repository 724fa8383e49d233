/* SPDX-License-Identifier: MIT */
/* sv-overview.c - see sv-overview.h. */
#include "sv-overview.h"

#include "render.h"
#include "sv-query.h"
#include "sv-style.h"

struct _SvOverviewWidget {
    GtkWidget parent_instance;
    SvTimeline *tl;
    sv_overview *ov;
    SvDocRef *ov_doc; /* doc the overview was built for (not a reference) */
    int ov_width;
    GCancellable *cancel;
    double drag_x0;
};

G_DEFINE_FINAL_TYPE(SvOverviewWidget, sv_overview_widget, GTK_TYPE_WIDGET)

static void build_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvOverviewWidget *self = user;
    GError *error = NULL;
    sv_scene *s = sv_query_scene_finish(res, &error);
    if (s && g_task_get_cancellable(G_TASK(res)) == self->cancel && self->tl) {
        SvDocRef *doc = sv_timeline_get_doc(self->tl);
        sv_overview_free(self->ov);
        self->ov = doc ? sv_overview_from_scene(s, doc->fi->n_timelines) : NULL;
        gtk_widget_queue_draw(GTK_WIDGET(self));
    }
    sv_scene_free(s);
    g_clear_error(&error);
    g_object_unref(self);
}

static void fold_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvOverviewWidget *self = user;
    GError *error = NULL;
    sv_fold *f = sv_query_fold_finish(res, &error);
    if (f && g_task_get_cancellable(G_TASK(res)) == self->cancel && self->tl) {
        sv_overview_free(self->ov);
        self->ov = sv_overview_from_fold(f);
        gtk_widget_queue_draw(GTK_WIDGET(self));
    }
    sv_fold_free(f);
    g_clear_error(&error);
    g_object_unref(self);
}

static void rebuild(SvOverviewWidget *self)
{
    SvDocRef *doc = self->tl ? sv_timeline_get_doc(self->tl) : NULL;
    int w = gtk_widget_get_width(GTK_WIDGET(self));
    if (!doc || w <= 1) return;
    if (doc == self->ov_doc && w == self->ov_width) return;
    self->ov_doc = doc;
    self->ov_width = w;
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    self->cancel = g_cancellable_new();
    double lo, hi;
    sv_doc_extent(doc, &lo, &hi);
    /* Thousands of timelines: one row of all of them from the grid reads a
     * bounded number of bytes where a scene of every timeline would read
     * every block. */
    if (doc->fi->n_timelines > 1024)
        sv_query_fold_async(doc, lo, hi, w, 0, doc->fi->n_timelines - 1, 1, self->cancel, fold_done,
                            g_object_ref(self));
    else
        sv_query_scene_async(doc, lo, hi, w, NULL, self->cancel, build_done, g_object_ref(self));
}

void sv_overview_widget_reload(SvOverviewWidget *self)
{
    SvDocRef *doc = self->tl ? sv_timeline_get_doc(self->tl) : NULL;
    if (doc != self->ov_doc) {
        sv_overview_free(self->ov);
        self->ov = NULL;
        self->ov_doc = NULL;
    }
    rebuild(self);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void sv_overview_snapshot(GtkWidget *w, GtkSnapshot *snapshot)
{
    sv_style_follow(w);
    SvOverviewWidget *self = SV_OVERVIEW_WIDGET(w);
    double width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    SvDocRef *doc = self->tl ? sv_timeline_get_doc(self->tl) : NULL;
    if (width <= 0 || height <= 0 || !doc) return;
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, width, height));
    sv_render_overview(cr, width, height, self->ov, sv_timeline_get_viewport(self->tl), &doc->pal);
    const sv_rank_axis *ax = sv_timeline_get_rank_axis(self->tl);
    if (sv_timeline_rank_mode(self->tl) && (ax->r0 > ax->lo || ax->r1 < ax->hi))
        sv_render_overview_ranks(cr, width, height, ax);
    cairo_destroy(cr);
}

static void sv_overview_size_allocate(GtkWidget *w, int width, int height, int baseline)
{
    rebuild(SV_OVERVIEW_WIDGET(w));
}

static void move_to_x(SvOverviewWidget *self, double x)
{
    if (!self->tl || !sv_timeline_get_doc(self->tl)) return;
    const sv_viewport *vp = sv_timeline_get_viewport(self->tl);
    double w = gtk_widget_get_width(GTK_WIDGET(self));
    double t = vp->lo + x / w * (vp->hi - vp->lo);
    double span = sv_viewport_span(vp);
    sv_timeline_set_window(self->tl, t - span / 2, t + span / 2, FALSE);
}

static void drag_begin_cb(GtkGestureDrag *g, double x, double y, SvOverviewWidget *self)
{
    self->drag_x0 = x;
    move_to_x(self, x);
}

static void drag_update_cb(GtkGestureDrag *g, double ox, double oy, SvOverviewWidget *self)
{
    move_to_x(self, self->drag_x0 + ox);
}

static void redraw(gpointer unused, SvOverviewWidget *self)
{
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void sv_overview_widget_set_timeline(SvOverviewWidget *self, SvTimeline *tl)
{
    self->tl = tl;
    g_signal_connect_object(tl, "view-changed", G_CALLBACK(redraw), self, 0);
}

static void sv_overview_measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat, int *min_b,
                                int *nat_b)
{
    *min = o == GTK_ORIENTATION_HORIZONTAL ? 100 : 44;
    *nat = o == GTK_ORIENTATION_HORIZONTAL ? 800 : 44;
}

static void sv_overview_dispose(GObject *o)
{
    SvOverviewWidget *self = SV_OVERVIEW_WIDGET(o);
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    self->tl = NULL;
    G_OBJECT_CLASS(sv_overview_widget_parent_class)->dispose(o);
}

static void sv_overview_finalize(GObject *o)
{
    sv_overview_free(SV_OVERVIEW_WIDGET(o)->ov);
    G_OBJECT_CLASS(sv_overview_widget_parent_class)->finalize(o);
}

static void sv_overview_widget_class_init(SvOverviewWidgetClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = sv_overview_dispose;
    G_OBJECT_CLASS(klass)->finalize = sv_overview_finalize;
    wc->snapshot = sv_overview_snapshot;
    wc->measure = sv_overview_measure;
    wc->size_allocate = sv_overview_size_allocate;
    gtk_widget_class_set_css_name(wc, "overview");
}

static void sv_overview_widget_init(SvOverviewWidget *self)
{
    GtkGesture *drag = gtk_gesture_drag_new();
    g_signal_connect(drag, "drag-begin", G_CALLBACK(drag_begin_cb), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(drag_update_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drag));
    gtk_widget_set_hexpand(GTK_WIDGET(self), TRUE);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self), "Whole trace: click or drag to move the view");
}
