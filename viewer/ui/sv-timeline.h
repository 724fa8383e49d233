/* SPDX-License-Identifier: MIT */
/* sv-timeline.h - the timeline canvas: time ruler on top, one row per
 * timeline below. Draws with render.c through gtk_snapshot_append_cairo;
 * queries run on worker threads and the last finished frame is drawn
 * (re-mapped to the current window) until the next one is ready. */
#ifndef SV_TIMELINE_H
#define SV_TIMELINE_H

#include <gtk/gtk.h>

#include "analysis.h"
#include "rowfilter.h"
#include "sv-doc-ref.h"

G_BEGIN_DECLS

#define SV_RULER_H       24.0
#define SV_TYPE_TIMELINE (sv_timeline_get_type())
G_DECLARE_FINAL_TYPE(SvTimeline, sv_timeline, SV, TIMELINE, GtkWidget)

GtkWidget *sv_timeline_new(void);
/* Show doc (a reference is taken; NULL clears), fit the whole trace. */
void sv_timeline_set_doc(SvTimeline *self, SvDocRef *doc);
SvDocRef *sv_timeline_get_doc(SvTimeline *self);

const sv_viewport *sv_timeline_get_viewport(SvTimeline *self);
const sv_layout *sv_timeline_get_layout(SvTimeline *self);
double sv_timeline_get_scroll(SvTimeline *self);
void sv_timeline_set_scroll(SvTimeline *self, double y);
long sv_timeline_get_hover_row(SvTimeline *self);

/* Window changes. `record` pushes the current window on the back history. */
void sv_timeline_set_window(SvTimeline *self, double t0, double t1, gboolean record);
void sv_timeline_zoom(SvTimeline *self, double factor); /* around the centre */
void sv_timeline_pan(SvTimeline *self, double frac);    /* fraction of the span */
void sv_timeline_fit(SvTimeline *self);
void sv_timeline_go_start(SvTimeline *self);
void sv_timeline_go_end(SvTimeline *self);
gboolean sv_timeline_back(SvTimeline *self);
gboolean sv_timeline_forward(SvTimeline *self);
gboolean sv_timeline_can_back(SvTimeline *self);
gboolean sv_timeline_can_forward(SvTimeline *self);

/* Range selection. */
gboolean sv_timeline_get_range(SvTimeline *self, double *t0, double *t1);
void sv_timeline_set_range(SvTimeline *self, double t0, double t1);
void sv_timeline_clear_range(SvTimeline *self);

/* Select (highlight) a drawable, centre it if off screen, optionally open
 * its popover. */
void sv_timeline_select(SvTimeline *self, const sv_found *f, gboolean popover);
gboolean sv_timeline_get_selected(SvTimeline *self, sv_found *out);
/* Pop the details popover down (before the window goes: GTK 4.8 warns when a
 * popover is still mapped while its parent surface is destroyed). */
void sv_timeline_close_popover(SvTimeline *self);
/* Open the popover of the selected drawable (say, what a search found), or
 * else of some drawable in the middle of the view (arrow preferred); for
 * scripts. */
gboolean sv_timeline_popover_any(SvTimeline *self);

/* A frame query is running or queued. */
gboolean sv_timeline_is_busy(SvTimeline *self);
/* A frame of the open file has been drawn: the window is laid out and on
 * screen (tests wait for it before they look at it). */
gboolean sv_timeline_has_drawn(SvTimeline *self);
/* Stats of the last finished frame and its query time. */
const slog_query_stats *sv_timeline_get_frame_stats(SvTimeline *self, double *ms, double *t0, double *t1);
/* Colours / visibility changed in the document palette. */
void sv_timeline_palette_changed(SvTimeline *self);
/* The frame drawn now (NULL before the first); owned by the timeline. */
const sv_scene *sv_timeline_get_scene(SvTimeline *self);
/* The tooltip over a preview column at widget point (x, y): its time
 * span, what it folds and its messages; NULL where there is none. */
char *sv_timeline_column_text(SvTimeline *self, double x, double y);
void sv_timeline_set_absolute_time(SvTimeline *self, gboolean absolute);
/* What is added to times shown (ns): the time of day of the trace's start
 * with Absolute Time, else 0. */
double sv_timeline_get_time_offset(SvTimeline *self);
/* The pointer is at (x, y) over the widget (its motion controller; the
 * test script's "pointer"). */
void sv_timeline_pointer_moved(SvTimeline *self, double x, double y);
/* Whether the details popover is up. */
gboolean sv_timeline_popover_shown(SvTimeline *self);
/* Rows as low as 1 px (labels then on every few rows) so hundreds of
 * timelines fit the canvas; off: at least 18 px, and they scroll. */
void sv_timeline_set_compact_rows(SvTimeline *self, gboolean compact);
/* The last frame holds every row on screen now, for the current window. */
gboolean sv_timeline_rows_drawn(SvTimeline *self);
/* Every row fits the canvas: no vertical scrolling. */
gboolean sv_timeline_rows_fit(SvTimeline *self);

G_END_DECLS

/* Rank mode: more timelines than the canvas has pixel rows. The rank
 * axis then says which timelines are shown; folded (fold.h) while they
 * are too many for rows SV_FOLD_MIN_ROW_H high. */
gboolean sv_timeline_rank_mode(SvTimeline *self);
gboolean sv_timeline_is_folded(SvTimeline *self);
/* The fold on screen while folded, else NULL. */
const sv_fold *sv_timeline_get_fold(SvTimeline *self);
const sv_rank_axis *sv_timeline_get_rank_axis(SvTimeline *self);
/* The flows drawn over the fold (flows.h) while folded, else NULL; they
 * may be of a view left behind while the current one's are computed.
 * current (may be NULL): they are those of the view on screen, or it
 * wants none (not folded yet, rows chosen by an expression, the arrows
 * hidden). */
const sv_flows *sv_timeline_get_flows(SvTimeline *self, gboolean *current);
/* The flows of a folded frame are being computed. */
gboolean sv_timeline_flows_busy(SvTimeline *self);
/* The fold on screen was made for the current view. */
gboolean sv_timeline_fold_drawn(SvTimeline *self);
/* Zoom the rank axis by factor around canvas y (Shift+wheel, the wheel
 * over the labels); show timelines [r0, r1) (record: a history entry). */
void sv_timeline_zoom_ranks(SvTimeline *self, double factor, double y);
/* Zoom to the canvas rectangle (x0, y0)-(x1, y1) (y below the ruler) in
 * time and timelines, recorded in the history (the Ctrl+drag rubber band).
 * FALSE when it was too small to change anything. */
gboolean sv_timeline_zoom_to_rect(SvTimeline *self, double x0, double y0, double x1, double y1);
/* Show the rows of sel (rowfilter.h; taken over, NULL: every timeline) in
 * its order, on a rank axis of its positions. */
void sv_timeline_set_rowsel(SvTimeline *self, sv_rowsel *sel);
const sv_rowsel *sv_timeline_get_rowsel(SvTimeline *self);
void sv_timeline_set_ranks(SvTimeline *self, double r0, double r1, gboolean record);

#endif
