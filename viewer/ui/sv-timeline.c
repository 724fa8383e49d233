/* SPDX-License-Identifier: MIT */
/* sv-timeline.c - see sv-timeline.h. */
#include "sv-timeline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "density.h"
#include "launch.h"
#include "render.h"
#include "sv-item-popover.h"
#include "sv-query.h"
#include "sv-style.h"

#define HISTORY_MAX 64

struct _SvTimeline {
    GtkWidget parent_instance;

    SvDocRef *doc;
    sv_viewport vp;
    sv_layout lay;
    double scroll_y;
    double row_h;

    /* frames */
    sv_scene *scene;
    GCancellable *cancel;
    gboolean in_flight, dirty;
    slog_query_stats frame_stats;
    double frame_ms, frame_t0, frame_t1;

    /* pointer */
    double px, py;
    gboolean pointer_in; /* px, py are where the pointer is now */
    gboolean have_hover;
    sv_item hover;
    long hover_row;

    gboolean have_sel;
    sv_found sel;
    gboolean have_range;
    double r0, r1;

    /* gestures */
    int drag_mode; /* 0 none, 1 pan, 2 select, 3 rubber band (zoom to a rectangle) */
    double drag_x0, drag_y0, drag_scroll0;
    double drag_x1, drag_y1; /* the rubber band's other corner */
    sv_viewport drag_vp;
    double zoom_scale;
    gint64 last_record_us;

    GArray *back, *fwd; /* of double[2] windows */
    GtkWidget *popover;
    gboolean absolute;
    gboolean compact; /* rows down to 1 px, so hundreds of ranks fit */
    gboolean drawn;   /* a frame of the open file is on screen */

    /* Too many timelines for a row each even at 1 px (rank mode): the
     * rank axis says which the canvas shows; folded while they do not fit
     * SV_FOLD_MIN_ROW_H high, else laid out as rows of their own. */
    sv_rank_axis ax;
    sv_fold *fold;
    GCancellable *fold_cancel;
    gboolean fold_in_flight, fold_dirty;
    /* Messages between the folded bands (flows.h), asked for after a
     * folded frame is drawn; flows_want is what the running job computes
     * (its window and groups), to tell a view that moved on. */
    sv_flows *flows;
    GCancellable *flows_cancel;
    gboolean flows_in_flight;
    int64_t flows_want_t0, flows_want_t1;
    uint32_t *flows_want, flows_want_n;
    gboolean lay_ranks; /* the layout is rank mode's (visible timelines only) */
    /* Rows chosen by an expression (rowfilter.h), NULL: every timeline.
     * With it the rank axis counts positions in its list. */
    sv_rowsel *rowsel;
};

enum { SIG_VIEW_CHANGED, SIG_FRAME_READY, SIG_RANGE_SELECTED, SIG_HOVER_ROW, SIG_HISTORY, SIG_ERROR, N_SIGNALS };
static guint signals[N_SIGNALS];

/* What others bind to: whether the history goes back or forward, and the
 * time window shown (ns from the trace's clock origin). */
enum { PROP_0, PROP_CAN_BACK, PROP_CAN_FORWARD, PROP_TIME_START, PROP_TIME_END, N_PROPS };
static GParamSpec *props[N_PROPS];

G_DEFINE_FINAL_TYPE(SvTimeline, sv_timeline, GTK_TYPE_WIDGET)

/* A history entry: the time window and the timelines shown. */
typedef struct win2 {
    double t0, t1;
    double r0, r1;
} win2;

static void request_frame(SvTimeline *self);
static void relayout(SvTimeline *self);
static void history_changed(SvTimeline *self);

static double canvas_h(SvTimeline *self)
{
    double h = gtk_widget_get_height(GTK_WIDGET(self)) - SV_RULER_H;
    return h > 1 ? h : 1;
}

/* Rank mode: more timelines than pixel rows, or a part of them chosen on
 * the rank axis (a rubber band, the script's ranks) however few they are. */
gboolean sv_timeline_rank_mode(SvTimeline *self)
{
    return self->doc && (self->rowsel || self->doc->fi->n_timelines > canvas_h(self) || self->ax.r0 > self->ax.lo ||
                         self->ax.r1 < self->ax.hi);
}

gboolean sv_timeline_is_folded(SvTimeline *self)
{
    return sv_timeline_rank_mode(self) && (self->ax.r1 - self->ax.r0) * SV_FOLD_MIN_ROW_H > canvas_h(self);
}

const sv_fold *sv_timeline_get_fold(SvTimeline *self)
{
    return sv_timeline_is_folded(self) ? self->fold : NULL;
}

const sv_rank_axis *sv_timeline_get_rank_axis(SvTimeline *self)
{
    return &self->ax;
}

static void view_changed(SvTimeline *self)
{
    if (sv_timeline_rank_mode(self))
        relayout(self);
    else
        self->scroll_y = sv_clamp_scroll(self->scroll_y, self->lay.total_h, canvas_h(self));
    gtk_widget_queue_draw(GTK_WIDGET(self));
    request_frame(self);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TIME_START]);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_TIME_END]);
    g_signal_emit(self, signals[SIG_VIEW_CHANGED], 0);
}

/* ------------------------------------------------------------ history */

static void record(SvTimeline *self)
{
    win2 w = {self->vp.t0, self->vp.t1, self->ax.r0, self->ax.r1};
    if (self->back->len) {
        win2 *last = &g_array_index(self->back, win2, self->back->len - 1);
        if (last->t0 == w.t0 && last->t1 == w.t1 && last->r0 == w.r0 && last->r1 == w.r1) return;
    }
    g_array_append_val(self->back, w);
    if (self->back->len > HISTORY_MAX) g_array_remove_index(self->back, 0);
    g_array_set_size(self->fwd, 0);
    history_changed(self);
}

/* Continuous zooming (scroll, pinch) records once per gesture: a pause of
 * more than 0.8 s starts a new history entry. */
static void record_debounced(SvTimeline *self)
{
    gint64 now = g_get_monotonic_time();
    if (now - self->last_record_us > 800000) record(self);
    self->last_record_us = now;
}

gboolean sv_timeline_can_back(SvTimeline *self)
{
    return self->back->len > 0;
}

gboolean sv_timeline_can_forward(SvTimeline *self)
{
    return self->fwd->len > 0;
}

/* The history's ends moved: its actions, properties and signal follow. */
static void history_changed(SvTimeline *self)
{
    gtk_widget_action_set_enabled(GTK_WIDGET(self), "timeline.back", sv_timeline_can_back(self));
    gtk_widget_action_set_enabled(GTK_WIDGET(self), "timeline.forward", sv_timeline_can_forward(self));
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CAN_BACK]);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_CAN_FORWARD]);
    g_signal_emit(self, signals[SIG_HISTORY], 0);
}

static gboolean history_step(SvTimeline *self, GArray *from, GArray *to)
{
    if (!from->len || !self->doc) return FALSE;
    win2 cur = {self->vp.t0, self->vp.t1, self->ax.r0, self->ax.r1};
    win2 w = g_array_index(from, win2, from->len - 1);
    g_array_set_size(from, from->len - 1);
    g_array_append_val(to, cur);
    sv_viewport_set_window(&self->vp, w.t0, w.t1);
    sv_rank_axis_set_range(&self->ax, w.r0, w.r1);
    view_changed(self);
    history_changed(self);
    return TRUE;
}

gboolean sv_timeline_back(SvTimeline *self)
{
    return history_step(self, self->back, self->fwd);
}

gboolean sv_timeline_forward(SvTimeline *self)
{
    return history_step(self, self->fwd, self->back);
}

/* ------------------------------------------------------------ frames */

static void frame_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvTimeline *self = user;
    GError *error = NULL;
    sv_scene *s = sv_query_scene_finish(res, &error);
    /* each request has its own cancellable: a result from an older request
     * (e.g. for the previous file) is dropped */
    gboolean current = g_task_get_cancellable(G_TASK(res)) == self->cancel;
    if (current) self->in_flight = FALSE;
    if (s && current) {
        sv_scene_free(self->scene);
        self->scene = s;
        self->frame_stats = s->stats;
        self->frame_ms = s->query_ms;
        self->frame_t0 = s->t0;
        self->frame_t1 = s->t1;
        gtk_widget_queue_draw(GTK_WIDGET(self));
        g_signal_emit(self, signals[SIG_FRAME_READY], 0);
        if (s->n_bad) /* drawn around an unreadable node */
            g_signal_emit(self, signals[SIG_ERROR], 0, s->bad_msg);
    } else {
        sv_scene_free(s);
        if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_signal_emit(self, signals[SIG_ERROR], 0, error->message);
    }
    g_clear_error(&error);
    if (current && self->dirty && self->doc) request_frame(self);
    g_object_unref(self);
}

static void fold_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvTimeline *self = user;
    GError *error = NULL;
    sv_fold *f = sv_query_fold_finish(res, &error);
    gboolean current = g_task_get_cancellable(G_TASK(res)) == self->fold_cancel;
    if (current) self->fold_in_flight = FALSE;
    if (f && current) {
        sv_fold_free(self->fold);
        self->fold = f;
        self->frame_stats = f->stats;
        self->frame_ms = f->query_ms;
        self->frame_t0 = f->t0;
        self->frame_t1 = f->t1;
        gtk_widget_queue_draw(GTK_WIDGET(self));
        g_signal_emit(self, signals[SIG_FRAME_READY], 0);
    } else {
        sv_fold_free(f);
        if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_signal_emit(self, signals[SIG_ERROR], 0, error->message);
    }
    g_clear_error(&error);
    if (current && self->fold_dirty && self->doc) request_frame(self);
    g_object_unref(self);
}

/* The fold asked for: sv_fold_want's, or with a choice of rows its visible
 * positions, a row per pixel. */
static void fold_want(SvTimeline *self, uint32_t *first, uint32_t *last, uint32_t *rows)
{
    double h = canvas_h(self);
    if (!self->rowsel) {
        sv_fold_want(self->doc->fi, &self->ax, h, self->vp.t0, self->vp.t1, (int)self->vp.width, first, last, rows);
        return;
    }
    sv_rank_axis_visible(&self->ax, first, last);
    uint32_t n = self->rowsel->n;
    if (*last >= n) *last = n ? n - 1 : 0;
    *rows = h < 1 ? 1 : (uint32_t)h;
}

static gboolean fold_matches(SvTimeline *self)
{
    if (!self->fold) return FALSE;
    uint32_t a, b, rows;
    fold_want(self, &a, &b, &rows);
    return sv_fold_serves(self->fold, self->doc->fi, self->vp.t0, self->vp.t1, (int)self->vp.width, a, b, rows);
}

gboolean sv_timeline_fold_drawn(SvTimeline *self)
{
    return sv_timeline_is_folded(self) && fold_matches(self);
}

static void request_fold(SvTimeline *self)
{
    if (self->fold_in_flight) {
        /* The running fold is for a view already left: it is dropped as
         * soon as it ends (or never starts), and the newest view asked for
         * then. */
        self->fold_dirty = TRUE;
        if (!fold_matches(self) && self->fold_cancel) g_cancellable_cancel(self->fold_cancel);
        return;
    }
    self->fold_dirty = FALSE;
    if (fold_matches(self)) return;
    uint32_t a, b, rows;
    fold_want(self, &a, &b, &rows);
    self->fold_in_flight = TRUE;
    g_clear_object(&self->fold_cancel);
    self->fold_cancel = g_cancellable_new();
    if (self->rowsel)
        sv_query_fold_list_async(self->doc, self->vp.t0, self->vp.t1, (int)self->vp.width, self->rowsel->list,
                                 self->rowsel->n, a, b, rows, self->fold_cancel, fold_done, g_object_ref(self));
    else
        sv_query_fold_async(self->doc, self->vp.t0, self->vp.t1, (int)self->vp.width, a, b, rows, self->fold_cancel,
                            fold_done, g_object_ref(self));
}

static void flows_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvTimeline *self = user;
    GError *error = NULL;
    sv_flows *fl = sv_query_flows_finish(res, &error);
    gboolean current = g_task_get_cancellable(G_TASK(res)) == self->flows_cancel;
    if (current) self->flows_in_flight = FALSE;
    if (fl && current) {
        sv_flows_free(self->flows);
        self->flows = fl;
        gtk_widget_queue_draw(GTK_WIDGET(self));
    } else {
        sv_flows_free(fl);
        if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            g_signal_emit(self, signals[SIG_ERROR], 0, error->message);
    }
    g_clear_error(&error);
    g_object_unref(self);
}

/* The flows' window and groups equal t0, t1 and gf (n groups). */
static gboolean flows_are(int64_t ft0, int64_t ft1, const uint32_t *fgf, uint32_t fn, int64_t t0, int64_t t1,
                          const uint32_t *gf, uint32_t n)
{
    return fgf && ft0 == t0 && ft1 == t1 && fn == n && memcmp(fgf, gf, sizeof *gf * ((size_t)n + 1)) == 0;
}

/* The flows the folded frame on screen wants: its window, the groups of
 * its bands as the axis shows them. 0 groups when there are none to show
 * (no fold yet, a fold of chosen rows, the arrows hidden). */
static uint32_t flows_wanted(SvTimeline *self, int64_t *t0, int64_t *t1, uint32_t **gf)
{
    *gf = NULL;
    if (!self->doc || !self->fold || !fold_matches(self) || !sv_flows_visible(&self->doc->pal)) return 0;
    *t0 = (int64_t)self->fold->t0;
    *t1 = (int64_t)self->fold->t1;
    return sv_flows_groups_for_fold(self->fold, &self->ax, SV_FLOWS_MIN_GROUP_PX, gf);
}

/* After a folded frame: compute the flows of what it shows on a worker,
 * unless they are in hand or on their way; a job for a view left behind is
 * cancelled. */
static void request_flows(SvTimeline *self)
{
    int64_t t0 = 0, t1 = 0;
    uint32_t *gf = NULL;
    uint32_t n = flows_wanted(self, &t0, &t1, &gf);
    if (!n) {
        free(gf);
        return;
    }
    const sv_flows *fl = self->flows;
    if ((fl && flows_are(fl->t0, fl->t1, fl->group_first, fl->n_groups, t0, t1, gf, n)) ||
        (self->flows_in_flight &&
         flows_are(self->flows_want_t0, self->flows_want_t1, self->flows_want, self->flows_want_n, t0, t1, gf, n))) {
        free(gf);
        return;
    }
    if (self->flows_cancel) g_cancellable_cancel(self->flows_cancel);
    g_clear_object(&self->flows_cancel);
    self->flows_cancel = g_cancellable_new();
    self->flows_in_flight = TRUE;
    self->flows_want_t0 = t0;
    self->flows_want_t1 = t1;
    g_free(self->flows_want);
    self->flows_want = g_memdup2(gf, sizeof *gf * ((size_t)n + 1));
    self->flows_want_n = n;
    sv_query_flows_async(self->doc, t0, t1, SV_FLOWS_SLICES, gf, n, self->flows_cancel, flows_done, g_object_ref(self));
    free(gf);
}

/* Drop the flows and any job computing them (another file, other rows). */
static void clear_flows(SvTimeline *self)
{
    if (self->flows_cancel) g_cancellable_cancel(self->flows_cancel);
    g_clear_object(&self->flows_cancel);
    self->flows_in_flight = FALSE;
    g_clear_pointer(&self->flows_want, g_free);
    self->flows_want_n = 0;
    sv_flows_free(self->flows);
    self->flows = NULL;
}

const sv_flows *sv_timeline_get_flows(SvTimeline *self, gboolean *current)
{
    int64_t t0 = 0, t1 = 0;
    uint32_t *gf = NULL;
    uint32_t n = flows_wanted(self, &t0, &t1, &gf);
    const sv_flows *fl = self->flows;
    if (current)
        *current = !n || (!self->flows_in_flight && fl &&
                          flows_are(fl->t0, fl->t1, fl->group_first, fl->n_groups, t0, t1, gf, n));
    free(gf);
    return sv_timeline_is_folded(self) ? fl : NULL;
}

gboolean sv_timeline_flows_busy(SvTimeline *self)
{
    return self->flows_in_flight;
}

static gboolean scene_matches(SvTimeline *self)
{
    return self->scene && self->scene->t0 == self->vp.t0 && self->scene->t1 == self->vp.t1 &&
           self->scene->width == (int)self->vp.width;
}

/* Flags of the timelines whose rows are on screen (g_free it). */
static uint8_t *visible_timelines(SvTimeline *self)
{
    uint32_t nt = self->doc->fi->n_timelines;
    uint8_t *want = g_malloc0(nt ? nt : 1);
    double top = self->scroll_y, bottom = top + canvas_h(self);
    for (size_t i = 0; i < self->lay.n_rows; i++) {
        const sv_row *r = &self->lay.rows[i];
        if (r->timeline >= 0 && r->y + r->h > top && r->y < bottom) want[r->timeline] = 1;
    }
    return want;
}

/* The frame in hand is of the current window and holds the timelines in
 * want (rows scrolled into view since it was queried may not be in it). */
static gboolean frame_holds(SvTimeline *self, const uint8_t *want)
{
    return scene_matches(self) && self->scene->n_timelines == self->doc->fi->n_timelines &&
           sv_scene_covers(self->scene, want) && self->scene->msg_filter_gen == self->doc->pal.msg_filter_gen;
}

gboolean sv_timeline_rows_drawn(SvTimeline *self)
{
    if (!self->doc) return FALSE;
    uint8_t *want = visible_timelines(self);
    gboolean ok = frame_holds(self, want);
    g_free(want);
    return ok;
}

static void request_frame(SvTimeline *self)
{
    if (!self->doc || gtk_widget_get_width(GTK_WIDGET(self)) <= 1) return;
    if (sv_timeline_is_folded(self)) {
        request_fold(self);
        return;
    }
    if (self->in_flight) {
        /* Let the running query finish and show it, then ask for the
         * newest window: during a continuous zoom the screen keeps
         * updating instead of cancelling every frame. */
        self->dirty = TRUE;
        return;
    }
    self->dirty = FALSE;
    uint8_t *want = visible_timelines(self);
    if (frame_holds(self, want)) {
        g_free(want);
        return;
    }
    self->in_flight = TRUE;
    g_clear_object(&self->cancel);
    self->cancel = g_cancellable_new();
    sv_query_scene_async(self->doc, self->vp.t0, self->vp.t1, (int)self->vp.width, want, self->cancel, frame_done,
                         g_object_ref(self));
    g_free(want);
}

gboolean sv_timeline_is_busy(SvTimeline *self)
{
    return self->in_flight || self->dirty || self->fold_in_flight || self->fold_dirty;
}

gboolean sv_timeline_has_drawn(SvTimeline *self)
{
    return self->drawn;
}

const slog_query_stats *sv_timeline_get_frame_stats(SvTimeline *self, double *ms, double *t0, double *t1)
{
    if (ms) *ms = self->frame_ms;
    if (t0) *t0 = self->frame_t0;
    if (t1) *t1 = self->frame_t1;
    return &self->frame_stats;
}

/* ------------------------------------------------------------ layout */

static void relayout(SvTimeline *self)
{
    if (!self->doc) return;
    sv_rank_axis_set_height(&self->ax, canvas_h(self));
    if (sv_timeline_rank_mode(self)) {
        /* Rank mode: the layout holds the visible timelines alone, as high
         * as the rank axis makes them, scrolled by the part of the first
         * one above the top; folded, it is not drawn but still says which
         * rows a frame would need. */
        uint32_t a, b;
        sv_rank_axis_visible(&self->ax, &a, &b);
        uint32_t n = self->rowsel ? self->rowsel->n : self->doc->fi->n_timelines;
        if (b >= n) b = n ? n - 1 : 0;
        double rh = sv_rank_axis_row_h(&self->ax);
        if (sv_timeline_is_folded(self)) b = a; /* the rows are the fold's */
        sv_layout_clear(&self->lay);
        if (self->rowsel)
            sv_layout_build_list(&self->lay, self->doc->fi->n_timelines, self->rowsel->list + (n ? a : 0),
                                 n ? b - a + 1 : 0, rh);
        else
            sv_layout_build(&self->lay, self->doc->fi->n_timelines, NULL, NULL, a, b, rh, rh);
        self->lay_ranks = TRUE;
        self->row_h = rh;
        self->scroll_y = (self->ax.r0 - a) * rh;
        return;
    }
    if (self->lay_ranks) {
        /* the canvas grew past rank mode (a window's first sizes are
         * small): every timeline, grouped by host, again */
        uint32_t nt = self->doc->fi->n_timelines;
        sv_layout_clear(&self->lay);
        sv_layout_build(&self->lay, nt, self->doc->tl_groups, self->doc->tl_keys, 0, nt ? nt - 1 : 0, 24, 18);
        self->lay_ranks = FALSE;
        self->scroll_y = 0;
    }
    size_t n_tl = sv_layout_n_timeline_rows(&self->lay);
    /* Compact: rows down to 1 px, host headers shrinking with them to
     * three quarters of a row, as sv_fit_row_height counts them */
    double header_h = self->compact ? 16 : 18;
    double rh = sv_fit_row_height(canvas_h(self), n_tl, self->lay.n_rows - n_tl, header_h, self->compact ? 1 : 18);
    self->row_h = rh;
    sv_layout_set_heights(&self->lay, rh, sv_fit_header_height(rh, header_h));
}

static void sv_timeline_size_allocate(GtkWidget *w, int width, int height, int baseline)
{
    SvTimeline *self = SV_TIMELINE(w);
    sv_viewport_set_width(&self->vp, width);
    relayout(self);
    if (!sv_timeline_rank_mode(self))
        self->scroll_y = sv_clamp_scroll(self->scroll_y, self->lay.total_h, canvas_h(self));
    if (self->popover) gtk_popover_present(GTK_POPOVER(self->popover));
    request_frame(self);
}

/* ------------------------------------------------------------ drawing */

/* The rectangle a Ctrl+drag will zoom to, on the canvas (cr below the
 * ruler). */
static void draw_rubber_band(SvTimeline *self, cairo_t *cr)
{
    if (self->drag_mode != 3) return;
    double x = fmin(self->drag_x0, self->drag_x1), y = fmin(self->drag_y0, self->drag_y1) - SV_RULER_H;
    double w = fabs(self->drag_x1 - self->drag_x0), h = fabs(self->drag_y1 - self->drag_y0);
    sv_theme_source(cr, sv_theme_current()->accent, 0.15);
    cairo_rectangle(cr, x, y, w, h);
    cairo_fill(cr);
    sv_theme_source(cr, sv_theme_current()->accent, 0.9);
    cairo_set_line_width(cr, 1);
    cairo_rectangle(cr, floor(x) + 0.5, floor(y) + 0.5, floor(w), floor(h));
    cairo_stroke(cr);
}

static void sv_timeline_snapshot(GtkWidget *w, GtkSnapshot *snapshot)
{
    sv_style_follow(w);
    SvTimeline *self = SV_TIMELINE(w);
    double width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    if (width <= 0 || height <= 0) return;
    cairo_t *cr = gtk_snapshot_append_cairo(snapshot, &GRAPHENE_RECT_INIT(0, 0, width, height));
    if (!self->doc) {
        sv_theme_source(cr, sv_theme_current()->bg, 1);
        cairo_paint(cr);
        cairo_destroy(cr);
        return;
    }
    double offset = sv_timeline_get_time_offset(self);
    sv_render_ruler(cr, width, SV_RULER_H, &self->vp, offset, self->have_range, self->r0, self->r1);
    cairo_translate(cr, 0, SV_RULER_H);
    if (sv_timeline_is_folded(self)) {
        sv_fold_params fp = {.vp = &self->vp,
                             .ax = &self->ax,
                             .fold = self->fold,
                             .pal = &self->doc->pal,
                             .hover_row = self->hover_row,
                             .have_range = self->have_range,
                             .range_t0 = self->r0,
                             .range_t1 = self->r1};
        sv_render_fold(cr, width, height - SV_RULER_H, &fp);
        /* flows of another window or other groups still sit where their
         * times and timelines are, until the current ones are in */
        sv_render_flows(cr, width, height - SV_RULER_H, self->flows, &self->vp, &self->ax, &self->doc->pal);
        draw_rubber_band(self, cr);
        cairo_destroy(cr);
        if (self->fold) {
            self->drawn = TRUE;
            sv_launch_first_frame();
            request_flows(self);
        }
        return;
    }
    sv_canvas_params p = {
        .vp = &self->vp,
        .lay = &self->lay,
        .scroll_y = self->scroll_y,
        .scene = self->scene,
        .pal = &self->doc->pal,
        .cat_names = self->doc->cat_names,
        .hover = self->have_hover ? &self->hover : NULL,
        .selected = self->have_sel ? &self->sel.item : NULL,
        .have_range = self->have_range,
        .range_t0 = self->r0,
        .range_t1 = self->r1,
        .hover_row = self->hover_row,
    };
    sv_render_canvas(cr, width, height - SV_RULER_H, &p);
    draw_rubber_band(self, cr);
    cairo_destroy(cr);
    if (self->scene) {
        self->drawn = TRUE;
        sv_launch_first_frame();
    }
}

/* ------------------------------------------------------------ popover */

static void zoom_to_item(SvTimeline *self, const sv_item *it)
{
    double a = (double)MIN(it->start, it->end), b = (double)MAX(it->start, it->end);
    double d = b - a;
    if (d < 1000) d = 1000;
    record(self);
    sv_viewport_set_window(&self->vp, a - d * 0.25, b + d * 0.25);
    view_changed(self);
}

/* timeline.zoom-to-item: the selected drawable (the popover's Zoom to) */
static void zoom_to_item_action(GtkWidget *w, const char *name, GVariant *p)
{
    SvTimeline *self = SV_TIMELINE(w);
    if (!self->doc || !self->have_sel) return;
    sv_timeline_close_popover(self);
    zoom_to_item(self, &self->sel.item);
}

static void other_end_action(GtkWidget *w, const char *name, GVariant *p)
{
    SvTimeline *self = SV_TIMELINE(w);
    if (!self->doc || !self->have_sel || self->sel.item.kind != SLOG_KIND_ARROW) return;
    const sv_item *it = &self->sel.item;
    double c = (self->vp.t0 + self->vp.t1) / 2;
    double target = fabs(c - it->start) < fabs(c - it->end) ? it->end : it->start;
    uint32_t tl = target == (double)it->end ? it->end_timeline : it->timeline;
    record(self);
    sv_viewport_center_on(&self->vp, target);
    const sv_row *r = sv_layout_row_of(&self->lay, tl);
    if (r) {
        double ch = canvas_h(self);
        if (r->y < self->scroll_y || r->y + r->h > self->scroll_y + ch) self->scroll_y = r->y - ch / 2;
    }
    view_changed(self);
    /* shown again it would point at the end just left, and cover the one
     * the view is now centred on */
    sv_timeline_close_popover(self);
}

static gboolean item_anchor(SvTimeline *self, const sv_item *it, GdkRectangle *r)
{
    sv_geom g = {&self->vp, &self->lay, self->scroll_y, NULL};
    double x = 0, y = 0, w = 1, h = 1;
    if (it->kind == SLOG_KIND_STATE) {
        sv_rect rc;
        if (!sv_geom_state(&g, it, &rc)) return FALSE;
        double x0 = MAX(rc.x, 0), x1 = MIN(rc.x + rc.w, self->vp.width);
        /* point at the pointer when it is on the state, else its middle */
        x = (self->px >= x0 && self->px <= x1) ? self->px : (x0 + x1) / 2;
        y = rc.y;
        h = rc.h;
    } else if (it->kind == SLOG_KIND_EVENT) {
        if (!sv_geom_event(&g, it, &x, &y)) return FALSE;
        y -= SV_EVENT_R;
        h = 2 * SV_EVENT_R;
    } else {
        double x0, y0, x1, y1;
        if (!sv_geom_arrow(&g, it, &x0, &y0, &x1, &y1)) return FALSE;
        x = (x0 + x1) / 2;
        y = (y0 + y1) / 2;
    }
    x = CLAMP(x, 0, self->vp.width - 1);
    y = CLAMP(y + SV_RULER_H, SV_RULER_H, gtk_widget_get_height(GTK_WIDGET(self)) - 1);
    r->x = (int)x;
    r->y = (int)y;
    r->width = (int)MAX(w, 1);
    r->height = (int)MAX(h, 1);
    return TRUE;
}

static void show_popover(SvTimeline *self)
{
    if (!self->have_sel || !self->doc) return;
    /* one popover, reused; closing it keeps the highlight */
    if (!self->popover) {
        self->popover = sv_item_popover_new();
        gtk_widget_set_parent(self->popover, GTK_WIDGET(self));
    }
    if (!sv_item_popover_set_item(SV_ITEM_POPOVER(self->popover), self->doc, &self->sel)) return;
    GdkRectangle r;
    if (item_anchor(self, &self->sel.item, &r)) {
        gtk_popover_set_pointing_to(GTK_POPOVER(self->popover), &r);
        gtk_popover_popup(GTK_POPOVER(self->popover));
    }
}

static void set_selected_item(SvTimeline *self, const sv_scene *s, long idx)
{
    const sv_item *it = &s->items[idx];
    self->have_sel = TRUE;
    self->sel.item = *it;
    self->sel.item.info_off = 0;
    memset(self->sel.info, 0, sizeof self->sel.info);
    for (uint16_t i = 0; i < it->n_info && i < SLOG_MAX_FIELDS; i++) self->sel.info[i] = s->info[it->info_off + i];
}

void sv_timeline_select(SvTimeline *self, const sv_found *f, gboolean popover)
{
    self->have_sel = TRUE;
    self->sel = *f;
    const sv_item *it = &f->item;
    double a = (double)MIN(it->start, it->end), b = (double)MAX(it->start, it->end);
    double span = sv_viewport_span(&self->vp);
    if (a < self->vp.t0 || b > self->vp.t1) {
        record(self);
        if (b - a > span * 0.8)
            sv_viewport_set_window(&self->vp, a - (b - a) * 0.25, b + (b - a) * 0.25);
        else
            sv_viewport_center_on(&self->vp, (a + b) / 2);
    }
    const sv_row *r = sv_layout_row_of(&self->lay, it->timeline);
    if (r) {
        double ch = canvas_h(self);
        if (r->y < self->scroll_y || r->y + r->h > self->scroll_y + ch) self->scroll_y = r->y - ch / 3;
    }
    view_changed(self);
    if (popover) show_popover(self);
}

gboolean sv_timeline_get_selected(SvTimeline *self, sv_found *out)
{
    if (self->have_sel && out) *out = self->sel;
    return self->have_sel;
}

gboolean sv_timeline_popover_any(SvTimeline *self)
{
    if (!self->scene) return FALSE;
    if (self->have_sel) { /* e.g. what a search found */
        self->px = sv_viewport_time_to_x(&self->vp, self->sel.item.start);
        show_popover(self);
        return TRUE;
    }
    long best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++) {
        for (size_t i = 0; i < self->scene->n_items; i++) {
            const sv_item *it = &self->scene->items[i];
            if (pass == 0 && it->kind != SLOG_KIND_ARROW) continue;
            double x0 = sv_viewport_time_to_x(&self->vp, it->start);
            double x1 = sv_viewport_time_to_x(&self->vp, it->end);
            if (x0 > self->vp.width * 0.3 && x1 < self->vp.width * 0.7 &&
                (pass == 1 || it->timeline != it->end_timeline)) {
                best = (long)i;
                break;
            }
        }
    }
    if (best < 0) return FALSE;
    set_selected_item(self, self->scene, best);
    self->px = sv_viewport_time_to_x(&self->vp, self->sel.item.start);
    gtk_widget_queue_draw(GTK_WIDGET(self));
    show_popover(self);
    return TRUE;
}

/* ------------------------------------------------------------ input */

static long hit(SvTimeline *self, double x, double y)
{
    if (!self->scene || !self->doc || y < SV_RULER_H || sv_timeline_is_folded(self)) return -1;
    sv_geom g = {&self->vp, &self->lay, self->scroll_y, self->doc->pal.msg_filter};
    return sv_scene_hit(self->scene, &g, self->doc->pal.visible, x, y - SV_RULER_H);
}

static void update_hover(SvTimeline *self)
{
    long r = -1;
    if (self->py >= SV_RULER_H && sv_timeline_is_folded(self)) {
        r = self->fold ? sv_fold_row_at(self->fold, &self->ax, self->py - SV_RULER_H) : -1;
    } else if (self->py >= SV_RULER_H) {
        r = sv_layout_row_at(&self->lay, self->py - SV_RULER_H + self->scroll_y);
    }
    if (r != self->hover_row) {
        self->hover_row = r;
        g_signal_emit(self, signals[SIG_HOVER_ROW], 0);
        gtk_widget_queue_draw(GTK_WIDGET(self));
    }
    long i = self->drag_mode ? -1 : hit(self, self->px, self->py);
    gboolean had = self->have_hover;
    sv_item old = self->hover;
    self->have_hover = i >= 0;
    if (i >= 0) self->hover = self->scene->items[i];
    if (had != self->have_hover || (i >= 0 && memcmp(&old, &self->hover, sizeof old) != 0))
        gtk_widget_queue_draw(GTK_WIDGET(self));
}

void sv_timeline_pointer_moved(SvTimeline *self, double x, double y)
{
    self->px = x;
    self->py = y;
    self->pointer_in = TRUE;
    update_hover(self);
}

static void motion_cb(GtkEventControllerMotion *c, double x, double y, SvTimeline *self)
{
    sv_timeline_pointer_moved(self, x, y);
}

static void leave_cb(GtkEventControllerMotion *c, SvTimeline *self)
{
    self->pointer_in = FALSE;
    self->have_hover = FALSE;
    self->hover_row = -1;
    g_signal_emit(self, signals[SIG_HOVER_ROW], 0);
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static gboolean scroll_cb(GtkEventControllerScroll *c, double dx, double dy, SvTimeline *self)
{
    if (!self->doc) return FALSE;
    GdkModifierType st = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(c));
    gboolean wheel = gtk_event_controller_scroll_get_unit(c) == GDK_SCROLL_UNIT_WHEEL;
    if (st & GDK_CONTROL_MASK) {
        double f = wheel ? pow(1.25, -dy) : exp(-dy * 0.01);
        record_debounced(self);
        if (sv_viewport_zoom_at(&self->vp, f, self->px)) view_changed(self);
        return TRUE;
    }
    double step = wheel ? 60 : 1;
    if (sv_timeline_rank_mode(self) && fabs(dy) >= fabs(dx)) {
        /* rank mode: Shift zooms the rank axis around the pointer, the
         * plain wheel moves along it */
        if (st & GDK_SHIFT_MASK) {
            sv_timeline_zoom_ranks(self, wheel ? pow(1.25, -dy) : exp(-dy * 0.01), self->py - SV_RULER_H);
        } else if (sv_rank_axis_pan_px(&self->ax, dy * (wheel ? 48 : 1))) {
            view_changed(self);
        }
        return TRUE;
    }
    if ((st & GDK_SHIFT_MASK) || fabs(dx) > fabs(dy)) {
        double d = fabs(dx) > fabs(dy) ? dx : dy;
        if (sv_viewport_pan_px(&self->vp, d * step)) view_changed(self);
        return TRUE;
    }
    if (self->lay.total_h > canvas_h(self)) {
        double old = self->scroll_y;
        self->scroll_y = sv_clamp_scroll(self->scroll_y + dy * (wheel ? 48 : 1), self->lay.total_h, canvas_h(self));
        if (old != self->scroll_y) view_changed(self);
    } else if (sv_viewport_pan_px(&self->vp, dy * step)) {
        view_changed(self);
    }
    return TRUE;
}

static void drag_begin(SvTimeline *self, double x, double y, gboolean select)
{
    gtk_widget_grab_focus(GTK_WIDGET(self));
    self->drag_x0 = x;
    self->drag_y0 = y;
    self->drag_vp = self->vp;
    self->drag_scroll0 = self->scroll_y;
    self->drag_mode = select ? 2 : 1;
}

static void drag_begin_cb(GtkGestureDrag *g, double x, double y, SvTimeline *self)
{
    GdkModifierType st = gtk_event_controller_get_current_event_state(GTK_EVENT_CONTROLLER(g));
    guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
    drag_begin(self, x, y, (st & GDK_SHIFT_MASK) || button == 3 || y < SV_RULER_H);
    if (button == 1 && (st & GDK_CONTROL_MASK) && y >= SV_RULER_H) {
        self->drag_mode = 3;
        self->drag_x1 = x;
        self->drag_y1 = y;
    }
}

static void drag_update_cb(GtkGestureDrag *g, double ox, double oy, SvTimeline *self)
{
    if (!self->doc) return;
    if (self->drag_mode == 1) {
        self->vp = self->drag_vp;
        self->vp.width = gtk_widget_get_width(GTK_WIDGET(self));
        sv_viewport_pan_px(&self->vp, -ox);
        self->scroll_y = sv_clamp_scroll(self->drag_scroll0 - oy, self->lay.total_h, canvas_h(self));
        view_changed(self);
    } else if (self->drag_mode == 3) {
        self->drag_x1 = CLAMP(self->drag_x0 + ox, 0, self->vp.width);
        self->drag_y1 = CLAMP(self->drag_y0 + oy, SV_RULER_H, gtk_widget_get_height(GTK_WIDGET(self)));
        gtk_widget_queue_draw(GTK_WIDGET(self));
    } else if (self->drag_mode == 2 && fabs(ox) >= 3) {
        self->have_range = TRUE;
        self->r0 = sv_viewport_x_to_time(&self->vp, self->drag_x0);
        self->r1 = sv_viewport_x_to_time(&self->vp, CLAMP(self->drag_x0 + ox, 0, self->vp.width));
        gtk_widget_queue_draw(GTK_WIDGET(self));
    }
}

static void click_at(SvTimeline *self, double x, double y)
{
    long i = hit(self, x, y);
    if (i >= 0) {
        set_selected_item(self, self->scene, i);
        self->px = x;
        self->py = y;
        show_popover(self);
    } else {
        self->have_sel = FALSE;
        if (self->have_range) {
            self->have_range = FALSE;
            g_signal_emit(self, signals[SIG_RANGE_SELECTED], 0, 0.0, 0.0);
        }
    }
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

static void drag_end_cb(GtkGestureDrag *g, double ox, double oy, SvTimeline *self)
{
    int mode = self->drag_mode;
    self->drag_mode = 0;
    if (!self->doc) return;
    if (mode == 3) {
        gtk_widget_queue_draw(GTK_WIDGET(self));
        sv_timeline_zoom_to_rect(self, self->drag_x0, self->drag_y0 - SV_RULER_H, self->drag_x1,
                                 self->drag_y1 - SV_RULER_H);
        return;
    }
    if (fabs(ox) < 3 && fabs(oy) < 3) {
        guint button = gtk_gesture_single_get_current_button(GTK_GESTURE_SINGLE(g));
        if (button == 1) click_at(self, self->drag_x0, self->drag_y0);
        return;
    }
    if (mode == 2 && self->have_range)
        g_signal_emit(self, signals[SIG_RANGE_SELECTED], 0, MIN(self->r0, self->r1), MAX(self->r0, self->r1));
}

static void zoom_begin_cb(GtkGesture *g, GdkEventSequence *seq, SvTimeline *self)
{
    self->zoom_scale = 1;
    record(self);
}

static void zoom_scale_cb(GtkGestureZoom *g, double scale, SvTimeline *self)
{
    double cx, cy;
    if (!gtk_gesture_get_bounding_box_center(GTK_GESTURE(g), &cx, &cy)) cx = self->vp.width / 2;
    if (self->zoom_scale > 0 && sv_viewport_zoom_at(&self->vp, scale / self->zoom_scale, cx)) view_changed(self);
    self->zoom_scale = scale;
}

typedef struct share {
    float v;
    uint32_t cat;
} share;

static int share_cmp(const void *a, const void *b)
{
    float x = ((const share *)a)->v, y = ((const share *)b)->v;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* A folded row under the pointer: its range, and at the pointer's column
 * the states' shares, largest first, and the events counted there. */
static gboolean fold_tooltip(SvTimeline *self, int x, int y, GtkTooltip *tip)
{
    const sv_fold *f = self->fold;
    long row = f && y >= SV_RULER_H ? sv_fold_row_at(f, &self->ax, y - SV_RULER_H) : -1;
    if (row < 0) return FALSE;
    long col = sv_fold_col_of(f, sv_viewport_x_to_time(&self->vp, x + 0.5));
    float *v = g_new0(float, f->n_categories + 1);
    share *sh = g_new0(share, f->n_categories + 1);
    uint32_t n = sv_fold_shares(f, (uint32_t)row, col, v), k = 0;
    char range[96];
    sv_fold_rows_label(f, (uint32_t)row, (uint32_t)row, self->doc->tl_keys, self->doc->tl_labels, range, sizeof range);
    GString *s = g_string_new(range);
    for (uint32_t c = 0; c < f->n_categories; c++)
        if (v[c] > 0 && self->doc->pal.visible[c]) sh[k++] = (share){v[c], c};
    qsort(sh, k, sizeof *sh, share_cmp);
    for (uint32_t i = 0; i < k && i < 8; i++) {
        if (f->cat_kind[sh[i].cat] == SLOG_KIND_STATE)
            g_string_append_printf(s, "\n%s: %.0f %% (%.0f of %u)", self->doc->cat_names[sh[i].cat], sh[i].v * 100,
                                   sh[i].v * n, n);
        else
            g_string_append_printf(s, "\n%s: %.0f", self->doc->cat_names[sh[i].cat], sh[i].v);
    }
    if (!k) g_string_append(s, "\nno calls in this column");
    gtk_tooltip_set_text(tip, s->str);
    g_string_free(s, TRUE);
    g_free(v);
    g_free(sh);
    return TRUE;
}

/* Over a preview column (nothing drawn as itself there): what it folds. */
char *sv_timeline_column_text(SvTimeline *self, double x, double y)
{
    if (!self->scene || !self->doc || y < SV_RULER_H || self->scene->pixel_ns <= 0) return NULL;
    long r = sv_layout_row_at(&self->lay, y - SV_RULER_H + self->scroll_y);
    if (r < 0 || self->lay.rows[r].timeline < 0) return NULL;
    int col = (int)floor((sv_viewport_x_to_time(&self->vp, x) - self->scene->t0) / self->scene->pixel_ns);
    char buf[2048];
    sv_density tmp;
    int show;
    const sv_density *d = sv_density_for(self->scene, &self->doc->pal, &tmp, &show);
    int ok =
        sv_column_describe(self->scene, &self->doc->pal, self->doc->cat_names, d, sv_timeline_get_time_offset(self),
                           (uint32_t)self->lay.rows[r].timeline, col, buf, sizeof buf) == 0;
    sv_density_clear(&tmp);
    return ok ? g_strdup(buf) : NULL;
}

static gboolean column_tooltip(SvTimeline *self, int x, int y, GtkTooltip *tip)
{
    char *s = sv_timeline_column_text(self, x, y);
    if (s) gtk_tooltip_set_text(tip, s);
    g_free(s);
    return s != NULL;
}

static gboolean query_tooltip_cb(GtkWidget *w, int x, int y, gboolean kb, GtkTooltip *tip, SvTimeline *self)
{
    if (self->doc && sv_timeline_is_folded(self)) return fold_tooltip(self, x, y, tip);
    long i = hit(self, x, y);
    if (i < 0) return column_tooltip(self, x, y, tip);
    const sv_item *it = &self->scene->items[i];
    char d[64];
    sv_format_duration((double)(it->end - it->start), d, sizeof d);
    char *s;
    if (it->kind == SLOG_KIND_ARROW)
        s = g_strdup_printf("%s: %s → %s, %s", self->doc->cat_names[it->category], self->doc->tl_labels[it->timeline],
                            self->doc->tl_labels[it->end_timeline], d);
    else if (it->kind == SLOG_KIND_EVENT)
        s = g_strdup_printf("%s on %s", self->doc->cat_names[it->category], self->doc->tl_labels[it->timeline]);
    else
        s = g_strdup_printf("%s, %s", self->doc->cat_names[it->category], d);
    gtk_tooltip_set_text(tip, s);
    g_free(s);
    return TRUE;
}

/* ------------------------------------------------------------ public */

void sv_timeline_set_doc(SvTimeline *self, SvDocRef *doc)
{
    if (self->cancel) g_cancellable_cancel(self->cancel);
    self->in_flight = FALSE; /* a late result for the old doc is dropped */
    self->dirty = FALSE;
    sv_scene_free(self->scene);
    self->scene = NULL;
    if (self->fold_cancel) g_cancellable_cancel(self->fold_cancel);
    self->fold_in_flight = self->fold_dirty = FALSE;
    sv_fold_free(self->fold);
    self->fold = NULL;
    clear_flows(self);
    self->drawn = FALSE;
    sv_rowsel_free(self->rowsel);
    self->rowsel = NULL;
    sv_doc_ref_release(self->doc);
    self->doc = doc ? sv_doc_ref_acquire(doc) : NULL;
    sv_layout_clear(&self->lay);
    self->lay_ranks = FALSE;
    self->have_sel = self->have_hover = self->have_range = FALSE;
    g_array_set_size(self->back, 0);
    g_array_set_size(self->fwd, 0);
    self->scroll_y = 0;
    memset(&self->frame_stats, 0, sizeof self->frame_stats);
    if (self->popover) gtk_popover_popdown(GTK_POPOVER(self->popover));
    if (doc) {
        sv_layout_build(&self->lay, doc->fi->n_timelines, doc->tl_groups, doc->tl_keys, 0,
                        doc->fi->n_timelines ? doc->fi->n_timelines - 1 : 0, 24, 18);
        double lo, hi;
        sv_doc_extent(doc, &lo, &hi);
        sv_viewport_init(&self->vp, lo, hi, MAX(gtk_widget_get_width(GTK_WIDGET(self)), 1));
        sv_rank_axis_init(&self->ax, 0, doc->fi->n_timelines, canvas_h(self));
        relayout(self);
    }
    history_changed(self);
    view_changed(self);
}

SvDocRef *sv_timeline_get_doc(SvTimeline *self)
{
    return self->doc;
}

const sv_viewport *sv_timeline_get_viewport(SvTimeline *self)
{
    return &self->vp;
}

const sv_layout *sv_timeline_get_layout(SvTimeline *self)
{
    return &self->lay;
}

double sv_timeline_get_scroll(SvTimeline *self)
{
    return self->scroll_y;
}

void sv_timeline_set_scroll(SvTimeline *self, double y)
{
    double n = sv_clamp_scroll(y, self->lay.total_h, canvas_h(self));
    if (n != self->scroll_y) {
        self->scroll_y = n;
        view_changed(self);
    }
}

long sv_timeline_get_hover_row(SvTimeline *self)
{
    return self->hover_row;
}

void sv_timeline_set_window(SvTimeline *self, double t0, double t1, gboolean rec)
{
    if (!self->doc) return;
    if (rec) record(self);
    sv_viewport_set_window(&self->vp, t0, t1);
    view_changed(self);
}

void sv_timeline_zoom(SvTimeline *self, double factor)
{
    if (!self->doc) return;
    record_debounced(self);
    /* + and - keep the time under the pointer where it is, as the wheel
     * does; from the toolbar or with the pointer elsewhere, the centre */
    double x = self->pointer_in && self->px >= 0 && self->px <= self->vp.width ? self->px : self->vp.width / 2;
    if (sv_viewport_zoom_at(&self->vp, factor, x)) view_changed(self);
}

void sv_timeline_pan(SvTimeline *self, double frac)
{
    if (self->doc && sv_viewport_pan_ns(&self->vp, frac * sv_viewport_span(&self->vp))) view_changed(self);
}

void sv_timeline_fit(SvTimeline *self)
{
    if (!self->doc) return;
    record(self);
    sv_viewport_fit(&self->vp);
    sv_rank_axis_fit(&self->ax);
    view_changed(self);
}

void sv_timeline_zoom_ranks(SvTimeline *self, double factor, double y)
{
    if (!self->doc || !sv_timeline_rank_mode(self)) return;
    record_debounced(self);
    if (sv_rank_axis_zoom_at(&self->ax, factor, y)) view_changed(self);
}

gboolean sv_timeline_zoom_to_rect(SvTimeline *self, double x0, double y0, double x1, double y1)
{
    if (!self->doc) return FALSE;
    sv_viewport vp = self->vp;
    sv_rank_axis ax = self->ax;
    if (sv_timeline_rank_mode(self)) {
        if (!sv_zoom_to_rect(&vp, &ax, x0, y0, x1, y1)) return FALSE;
    } else {
        /* Rows laid out by host and scrolled: the timelines of the rows the
         * rectangle touches (headers left out), from the lowest id to the
         * highest, become the rank axis's range, which starts rank mode. */
        gboolean rows = fabs(y1 - y0) >= SV_RECT_MIN_PX;
        long lo = -1, hi = -1;
        for (size_t i = 0; rows && i < self->lay.n_rows; i++) {
            const sv_row *r = &self->lay.rows[i];
            double top = r->y - self->scroll_y;
            if (r->timeline < 0 || top + r->h <= fmin(y0, y1) || top >= fmax(y0, y1)) continue;
            if (lo < 0 || r->timeline < lo) lo = r->timeline;
            if (r->timeline > hi) hi = r->timeline;
        }
        int changed = sv_zoom_to_rect(&vp, NULL, x0, y0, x1, y1);
        if (lo >= 0 && (lo > ax.lo || hi + 1 < ax.hi)) {
            sv_rank_axis_set_range(&ax, (double)lo, (double)hi + 1);
            changed = 1;
        }
        if (!changed) return FALSE;
    }
    record(self);
    self->vp = vp;
    self->ax = ax;
    view_changed(self);
    return TRUE;
}

void sv_timeline_set_rowsel(SvTimeline *self, sv_rowsel *sel)
{
    if (!self->doc) {
        sv_rowsel_free(sel);
        return;
    }
    /* what is on screen or on its way is of the other rows */
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    self->in_flight = self->dirty = FALSE;
    sv_scene_free(self->scene);
    self->scene = NULL;
    if (self->fold_cancel) g_cancellable_cancel(self->fold_cancel);
    g_clear_object(&self->fold_cancel);
    self->fold_in_flight = self->fold_dirty = FALSE;
    sv_fold_free(self->fold);
    self->fold = NULL;
    clear_flows(self);
    self->have_hover = self->have_sel = FALSE;
    self->hover_row = -1;
    sv_rowsel_free(self->rowsel);
    self->rowsel = sel;
    /* positions change meaning: the rank history is of the old rows */
    g_array_set_size(self->back, 0);
    g_array_set_size(self->fwd, 0);
    g_signal_emit(self, signals[SIG_HISTORY], 0);
    uint32_t n = sel ? sel->n : self->doc->fi->n_timelines;
    sv_rank_axis_init(&self->ax, 0, n ? n : 1, canvas_h(self));
    self->lay_ranks = TRUE; /* relayout rebuilds the whole layout when rank mode ends */
    relayout(self);
    view_changed(self);
}

const sv_rowsel *sv_timeline_get_rowsel(SvTimeline *self)
{
    return self->rowsel;
}

void sv_timeline_set_ranks(SvTimeline *self, double r0, double r1, gboolean rec)
{
    if (!self->doc) return;
    if (rec) record(self);
    sv_rank_axis_set_range(&self->ax, r0, r1);
    view_changed(self);
}

void sv_timeline_go_start(SvTimeline *self)
{
    if (self->doc && sv_viewport_pan_ns(&self->vp, self->vp.lo - self->vp.t0)) view_changed(self);
}

void sv_timeline_go_end(SvTimeline *self)
{
    if (self->doc && sv_viewport_pan_ns(&self->vp, self->vp.hi - self->vp.t1)) view_changed(self);
}

gboolean sv_timeline_get_range(SvTimeline *self, double *t0, double *t1)
{
    if (self->have_range) {
        *t0 = MIN(self->r0, self->r1);
        *t1 = MAX(self->r0, self->r1);
    }
    return self->have_range;
}

void sv_timeline_set_range(SvTimeline *self, double t0, double t1)
{
    self->have_range = TRUE;
    self->r0 = t0;
    self->r1 = t1;
    gtk_widget_queue_draw(GTK_WIDGET(self));
    g_signal_emit(self, signals[SIG_RANGE_SELECTED], 0, MIN(t0, t1), MAX(t0, t1));
}

void sv_timeline_clear_range(SvTimeline *self)
{
    self->have_range = FALSE;
    gtk_widget_queue_draw(GTK_WIDGET(self));
}

const sv_scene *sv_timeline_get_scene(SvTimeline *self)
{
    return self->scene;
}

void sv_timeline_palette_changed(SvTimeline *self)
{
    self->have_hover = FALSE;
    gtk_widget_queue_draw(GTK_WIDGET(self));
    request_frame(self); /* a new message filter counts its density anew */
}

void sv_timeline_set_compact_rows(SvTimeline *self, gboolean compact)
{
    self->compact = compact;
    relayout(self);
    view_changed(self);
}

gboolean sv_timeline_rows_fit(SvTimeline *self)
{
    return self->lay.total_h <= canvas_h(self);
}

void sv_timeline_set_absolute_time(SvTimeline *self, gboolean absolute)
{
    self->absolute = absolute;
    gtk_widget_queue_draw(GTK_WIDGET(self));
    g_signal_emit(self, signals[SIG_VIEW_CHANGED], 0); /* the status bar's times */
}

double sv_timeline_get_time_offset(SvTimeline *self)
{
    if (!self->absolute || !self->doc) return 0;
    return (double)(self->doc->fi->time_origin_ns % 86400000000000LL);
}

GtkWidget *sv_timeline_new(void)
{
    return g_object_new(SV_TYPE_TIMELINE, NULL);
}

/* ------------------------------------------------------------ actions */

/* The view's actions, timeline.NAME: zoom, pan, history, the selected
 * range. The window's win.NAME (header buttons, accelerators, bare keys)
 * run them. */
static const char *const VIEW_ACTIONS[] = {
    "zoom-in",  "zoom-out",  "zoom-fit", "back",   "forward",
    "pan-left", "pan-right", "go-start", "go-end", "zoom-to-range",
};

static void view_action(GtkWidget *w, const char *name, GVariant *p)
{
    SvTimeline *self = SV_TIMELINE(w);
    const char *a = name + strlen("timeline.");
    double t0, t1;
    if (g_str_equal(a, "zoom-in"))
        sv_timeline_zoom(self, 2);
    else if (g_str_equal(a, "zoom-out"))
        sv_timeline_zoom(self, 0.5);
    else if (g_str_equal(a, "zoom-fit"))
        sv_timeline_fit(self);
    else if (g_str_equal(a, "back"))
        sv_timeline_back(self);
    else if (g_str_equal(a, "forward"))
        sv_timeline_forward(self);
    else if (g_str_equal(a, "pan-left"))
        sv_timeline_pan(self, -0.2);
    else if (g_str_equal(a, "pan-right"))
        sv_timeline_pan(self, 0.2);
    else if (g_str_equal(a, "go-start"))
        sv_timeline_go_start(self);
    else if (g_str_equal(a, "go-end"))
        sv_timeline_go_end(self);
    else if (g_str_equal(a, "zoom-to-range") && sv_timeline_get_range(self, &t0, &t1)) {
        sv_timeline_set_window(self, t0, t1, TRUE);
        sv_timeline_clear_range(self);
    }
}

static void sv_timeline_get_property(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    SvTimeline *self = SV_TIMELINE(o);
    switch (id) {
    case PROP_CAN_BACK: g_value_set_boolean(v, sv_timeline_can_back(self)); break;
    case PROP_CAN_FORWARD: g_value_set_boolean(v, sv_timeline_can_forward(self)); break;
    case PROP_TIME_START: g_value_set_double(v, self->vp.t0); break;
    case PROP_TIME_END: g_value_set_double(v, self->vp.t1); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
    }
}

/* ------------------------------------------------------------ class */

void sv_timeline_close_popover(SvTimeline *self)
{
    if (self->popover && gtk_widget_get_visible(self->popover)) gtk_popover_popdown(GTK_POPOVER(self->popover));
}

gboolean sv_timeline_popover_shown(SvTimeline *self)
{
    return self->popover && gtk_widget_get_visible(self->popover);
}

static void sv_timeline_dispose(GObject *o)
{
    SvTimeline *self = SV_TIMELINE(o);
    if (self->cancel) g_cancellable_cancel(self->cancel);
    g_clear_object(&self->cancel);
    if (self->fold_cancel) g_cancellable_cancel(self->fold_cancel);
    g_clear_object(&self->fold_cancel);
    if (self->flows_cancel) g_cancellable_cancel(self->flows_cancel);
    g_clear_object(&self->flows_cancel);
    g_clear_pointer(&self->popover, gtk_widget_unparent);
    G_OBJECT_CLASS(sv_timeline_parent_class)->dispose(o);
}

static void sv_timeline_finalize(GObject *o)
{
    SvTimeline *self = SV_TIMELINE(o);
    sv_scene_free(self->scene);
    sv_fold_free(self->fold);
    sv_flows_free(self->flows);
    g_free(self->flows_want);
    sv_rowsel_free(self->rowsel);
    sv_layout_clear(&self->lay);
    sv_doc_ref_release(self->doc);
    g_array_unref(self->back);
    g_array_unref(self->fwd);
    G_OBJECT_CLASS(sv_timeline_parent_class)->finalize(o);
}

static void sv_timeline_measure(GtkWidget *w, GtkOrientation o, int for_size, int *min, int *nat, int *min_b,
                                int *nat_b)
{
    *min = o == GTK_ORIENTATION_HORIZONTAL ? 200 : 120;
    *nat = o == GTK_ORIENTATION_HORIZONTAL ? 900 : 500;
}

static void sv_timeline_class_init(SvTimelineClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = sv_timeline_dispose;
    oc->finalize = sv_timeline_finalize;
    wc->snapshot = sv_timeline_snapshot;
    wc->size_allocate = sv_timeline_size_allocate;
    wc->measure = sv_timeline_measure;
    gtk_widget_class_set_css_name(wc, "timeline");
    gtk_widget_class_install_action(wc, "timeline.other-end", NULL, other_end_action);
    for (size_t i = 0; i < G_N_ELEMENTS(VIEW_ACTIONS); i++) {
        char *name = g_strconcat("timeline.", VIEW_ACTIONS[i], NULL);
        gtk_widget_class_install_action(wc, name, NULL, view_action);
        g_free(name);
    }
    oc->get_property = sv_timeline_get_property;
    props[PROP_CAN_BACK] = g_param_spec_boolean("can-back", NULL, NULL, FALSE, G_PARAM_READABLE);
    props[PROP_CAN_FORWARD] = g_param_spec_boolean("can-forward", NULL, NULL, FALSE, G_PARAM_READABLE);
    props[PROP_TIME_START] =
        g_param_spec_double("time-start", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, G_PARAM_READABLE);
    props[PROP_TIME_END] = g_param_spec_double("time-end", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0, G_PARAM_READABLE);
    g_object_class_install_properties(oc, N_PROPS, props);
    gtk_widget_class_install_action(wc, "timeline.zoom-to-item", NULL, zoom_to_item_action);

    signals[SIG_VIEW_CHANGED] =
        g_signal_new("view-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_FRAME_READY] =
        g_signal_new("frame-ready", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_RANGE_SELECTED] = g_signal_new("range-selected", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                               NULL, NULL, G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
    signals[SIG_HOVER_ROW] = g_signal_new("hover-row-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                          NULL, NULL, G_TYPE_NONE, 0);
    signals[SIG_HISTORY] = g_signal_new("history-changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                        NULL, G_TYPE_NONE, 0);
    signals[SIG_ERROR] = g_signal_new("error", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                      G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void sv_timeline_init(SvTimeline *self)
{
    GtkWidget *w = GTK_WIDGET(self);
    self->back = g_array_new(FALSE, FALSE, sizeof(win2));
    self->fwd = g_array_new(FALSE, FALSE, sizeof(win2));
    self->hover_row = -1;
    sv_viewport_init(&self->vp, 0, 1e6, 1);
    sv_rank_axis_init(&self->ax, 0, 1, 1);
    gtk_widget_set_focusable(w, TRUE);
    gtk_widget_set_hexpand(w, TRUE);
    gtk_widget_set_vexpand(w, TRUE);
    gtk_widget_set_overflow(w, GTK_OVERFLOW_HIDDEN);
    gtk_widget_action_set_enabled(w, "timeline.back", FALSE);
    gtk_widget_action_set_enabled(w, "timeline.forward", FALSE);

    GtkEventController *motion = gtk_event_controller_motion_new();
    g_signal_connect(motion, "enter", G_CALLBACK(motion_cb), self);
    g_signal_connect(motion, "motion", G_CALLBACK(motion_cb), self);
    g_signal_connect(motion, "leave", G_CALLBACK(leave_cb), self);
    gtk_widget_add_controller(w, motion);

    GtkEventController *scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
    g_signal_connect(scroll, "scroll", G_CALLBACK(scroll_cb), self);
    gtk_widget_add_controller(w, scroll);

    GtkGesture *drag = gtk_gesture_drag_new();
    gtk_gesture_single_set_button(GTK_GESTURE_SINGLE(drag), 0); /* primary and secondary */
    g_signal_connect(drag, "drag-begin", G_CALLBACK(drag_begin_cb), self);
    g_signal_connect(drag, "drag-update", G_CALLBACK(drag_update_cb), self);
    g_signal_connect(drag, "drag-end", G_CALLBACK(drag_end_cb), self);
    gtk_widget_add_controller(w, GTK_EVENT_CONTROLLER(drag));

    GtkGesture *zoom = gtk_gesture_zoom_new();
    g_signal_connect(zoom, "begin", G_CALLBACK(zoom_begin_cb), self);
    g_signal_connect(zoom, "scale-changed", G_CALLBACK(zoom_scale_cb), self);
    gtk_widget_add_controller(w, GTK_EVENT_CONTROLLER(zoom));

    gtk_widget_set_has_tooltip(w, TRUE);
    g_signal_connect(w, "query-tooltip", G_CALLBACK(query_tooltip_cb), self);
}
