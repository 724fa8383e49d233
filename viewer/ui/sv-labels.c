/* SPDX-License-Identifier: MIT */
/* sv-labels.c - see sv-labels.h. */
#include "sv-labels.h"

#include <math.h>

#include "render.h"
#include "sv-style.h"

struct _SvLabels {
    GtkWidget parent_instance;
    SvTimeline *tl; /* weak: the window owns both */
};

G_DEFINE_FINAL_TYPE(SvLabels, sv_labels, GTK_TYPE_WIDGET)

static void sv_labels_snapshot(GtkWidget *w, GtkSnapshot *snapshot)
{
    sv_style_follow(w);
    SvLabels *self = SV_LABELS(w);
    double width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    if (width <= 0 || height <= 0 || !self->tl) return;
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, width, height));
    const sv_theme *th = sv_theme_current();
    sv_theme_source(cr, th->chrome_bg, 1);
    cairo_paint(cr);
    SvDocRef *doc = sv_timeline_get_doc(self->tl);
    if (doc) {
        const sv_fold *fold = sv_timeline_get_fold(self->tl);
        gboolean folded = sv_timeline_is_folded(self->tl);
        const sv_rowsel *sel = sv_timeline_get_rowsel(self->tl);
        if (sel) {
            /* the chip: which rows are chosen, and a cross that shows every
             * timeline again (a click on the chip, or Escape in the entry) */
            char desc[320];
            sv_rowsel_describe(sel, desc, sizeof desc);
            sv_theme_source(cr, th->accent, 0.18);
            cairo_rectangle(cr, 2, 2, width - 4, SV_RULER_H - 5);
            cairo_fill(cr);
            sv_theme_source(cr, th->text, 1);
            sv_draw_text_clipped(cr, desc, 6, 4, width - 26, 0, 8);
            sv_draw_text(cr, "\xe2\x9c\x95", width - 16, 4, 0, 1, 8);
        } else {
            sv_theme_source(cr, th->dim_text, 1);
            sv_draw_text(cr, folded ? "Timelines (folded)" : "Timeline", 8, 4, 0, 1, 8);
        }
        sv_theme_source(cr, th->border, 1);
        cairo_set_line_width(cr, 1);
        cairo_move_to(cr, 0, SV_RULER_H - 0.5);
        cairo_line_to(cr, width, SV_RULER_H - 0.5);
        cairo_stroke(cr);
        cairo_translate(cr, 0, SV_RULER_H);
        if (folded)
            sv_render_fold_labels(cr, width, height - SV_RULER_H, fold, sv_timeline_get_rank_axis(self->tl),
                                  doc->tl_keys, doc->tl_labels, sv_timeline_get_hover_row(self->tl));
        else
            sv_render_labels(cr, width, height - SV_RULER_H, sv_timeline_get_layout(self->tl),
                             sv_timeline_get_scroll(self->tl), doc->tl_labels, sv_timeline_get_hover_row(self->tl));
    }
    cairo_destroy(cr);
}

static gboolean scroll_cb(GtkEventControllerScroll *c, double dx, double dy, SvLabels *self)
{
    if (!self->tl) return FALSE;
    gboolean wheel = gtk_event_controller_scroll_get_unit(c) == GDK_SCROLL_UNIT_WHEEL;
    if (sv_timeline_rank_mode(self->tl)) {
        /* the labels are the rank axis: the wheel zooms it around the
         * pointer */
        double y = 0;
        GdkEvent *ev = gtk_event_controller_get_current_event(GTK_EVENT_CONTROLLER(c));
        double ex, ey;
        if (ev && gdk_event_get_position(ev, &ex, &ey)) {
            graphene_point_t pt = GRAPHENE_POINT_INIT((float)ex, (float)ey), out;
            GtkNative *nat = gtk_widget_get_native(GTK_WIDGET(self));
            if (nat && gtk_widget_compute_point(GTK_WIDGET(nat), GTK_WIDGET(self), &pt, &out)) y = out.y;
        }
        sv_timeline_zoom_ranks(self->tl, wheel ? pow(1.25, -dy) : exp(-dy * 0.01), y - SV_RULER_H);
        return TRUE;
    }
    sv_timeline_set_scroll(self->tl, sv_timeline_get_scroll(self->tl) + dy * (wheel ? 48 : 1));
    return TRUE;
}

static void pressed_cb(GtkGestureClick *g, int n, double x, double y, SvLabels *self)
{
    if (self->tl && y < SV_RULER_H && sv_timeline_get_rowsel(self->tl)) sv_timeline_set_rowsel(self->tl, NULL);
}

static void redraw(gpointer unused, SvLabels *self)
{
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

void sv_labels_set_timeline(SvLabels *self, SvTimeline *tl)
{
    self->tl = tl;
    g_signal_connect_object(tl, "view-changed", G_CALLBACK(redraw), self, 0);
    g_signal_connect_object(tl, "hover-row-changed", G_CALLBACK(redraw), self, 0);
    g_signal_connect_object(tl, "frame-ready", G_CALLBACK(redraw), self, 0);
}

static void sv_labels_measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat, int *min_b, int *nat_b)
{
    *min = o == GTK_ORIENTATION_HORIZONTAL ? 60 : 50;
    *nat = o == GTK_ORIENTATION_HORIZONTAL ? 140 : 200;
}

static void sv_labels_class_init(SvLabelsClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    wc->snapshot = sv_labels_snapshot;
    wc->measure = sv_labels_measure;
    gtk_widget_class_set_css_name(wc, "timeline-labels");
}

static void sv_labels_init(SvLabels *self)
{
    GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
    g_signal_connect(scroll, "scroll", G_CALLBACK(scroll_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), scroll);
    GtkGesture *click = gtk_gesture_click_new();
    g_signal_connect(click, "pressed", G_CALLBACK(pressed_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(click));
    gtk_widget_set_vexpand(GTK_WIDGET(self), TRUE);
}
