/* SPDX-License-Identifier: MIT */
/* sv-window-private.h - what the window's helper files (sv-build.c,
 * sv-script.c, sv-export.c) share with sv-window.c. */
#ifndef SV_WINDOW_PRIVATE_H
#define SV_WINDOW_PRIVATE_H

#include "sv-window.h"

#include "render.h"
#include "sv-info.h"
#include "sv-labels.h"
#include "sv-legend.h"
#include "sv-overview.h"
#include "sv-query.h"
#include "sv-rowbar.h"
#include "sv-stats-panel.h"
#include "sv-style.h"
#include "sv-timeline.h"

G_BEGIN_DECLS

struct _SvWindow {
    GtkApplicationWindow parent_instance;

    GtkHeaderBar *header; /* the titlebar (bound as a template child, it
                             gave a critical warning on close) */
    GtkLabel *title_label, *subtitle_label;
    GtkMenuButton *recent_button;
    GtkSearchEntry *search_entry;
    GtkRevealer *progress_revealer, *status_revealer;
    GtkLabel *progress_label;
    GtkProgressBar *progress_bar;
    GtkStack *main_stack, *side_stack;
    GtkPaned *outer_paned, *label_paned;
    GtkWidget *sidebar;
    SvLabels *labels;
    SvRowbar *rowbar;
    SvOverviewWidget *overview;
    SvTimeline *timeline;
    SvLegend *legend;
    SvStatsPanel *stats_panel;
    GtkLabel *status_window, *status_frame, *status_file;

    SvDocRef *doc;
    char *path;
    GtkWindow *info;             /* Trace Information, while open (weak) */
    GtkWindow *matrix, *profile; /* Communication Matrix, Profile, until destroyed */
    GCancellable *open_cancel, *stats_cancel, *search_cancel;
    gboolean opening, stats_busy, search_busy, export_busy;
    char *searched;          /* the text of the last search */
    char *read_error;        /* the last unreadable-node message shown */
    GtkLabel *search_status; /* "3 of 120", "no match", "not a valid query" */

    /* the message filter (sv-msgfilter.c): its text, bound to doc */
    char *msg_filter;
    sv_search_bound *msg_bound;
    GtkMenuButton *msgfilter_button;
    GtkWidget *msgfilter_clear;
    GtkEntry *msgfilter_entry;
    GtkLabel *msgfilter_error;

    /* slog2-build for .meta files */
    GSubprocess *build;
    guint pulse_id;
    char *build_out;
    char *missing_meta; /* a .meta slog2-build stopped on for missing ranks */

    /* script */
    char **script;
    guint script_i, script_timer;
    slog_query_stats mark;
    gint64 sleep_until;
    char *wait_path; /* wait-file: until this exists */
    gboolean script_waiting_frame;
    double script_px, script_pt; /* "pointer": where, and the time there */
};

/* sv-window.c */
/* GCompareFunc of GtkRecentInfo: the more recently modified first. */
int sv_window_recent_newer(gconstpointer a, gconstpointer b);
/* The labels of the Recent files menu, one a line (free it). */
char *sv_window_describe_recent(SvWindow *self);
void sv_window_error_dialog(SvWindow *self, const char *primary, const char *secondary);
void sv_window_close_info(SvWindow *self);
void sv_window_open_slog2(SvWindow *self, const char *path);
gboolean sv_window_drop_cb(GtkDropTarget *t, const GValue *v, double x, double y, SvWindow *self);
void sv_window_find(SvWindow *self, int dir);
void sv_window_cancel_clicked_cb(GtkButton *b, SvWindow *self);
/* sv-search.c */
void sv_window_search_init(SvWindow *self);
/* Another file: stop the running search and clear its status. */
void sv_window_search_reset(SvWindow *self);
/* The search's status beside its entry; text NULL hides it. */
void sv_window_search_status(SvWindow *self, const char *text, gboolean error);
/* sv-msgfilter.c */
void sv_window_msgfilter_init(SvWindow *self);
/* Set the message filter (NULL or blank: none). FALSE with *why (g_free)
 * when the text is not a query; the filter is then unchanged. */
gboolean sv_window_set_message_filter(SvWindow *self, const char *text, char **why);
/* Before the window's document changes or goes / after it changed. */
void sv_window_msgfilter_detach(SvWindow *self);
void sv_window_msgfilter_attach(SvWindow *self);
/* What the popover's Apply does with text (the script's message-filter). */
void sv_window_msgfilter_apply_text(SvWindow *self, const char *text);
/* sv-link.c */
void sv_window_link_init(SvWindow *self);
/* The time window changed: pass it on to the linked windows. */
void sv_window_link_view_changed(SvWindow *self);
/* What Open in New Window does with the chosen file. */
SvWindow *sv_window_open_in_new_window(SvWindow *self, GFile *file);
/* sv-build.c */
gboolean sv_window_pulse_cb(gpointer user);
void sv_window_open_meta(SvWindow *self, const char *meta);
/* Whether path is a trace slog2-build converts first (a DUMPI .meta, an
 * OTF2 anchor file) rather than a .slog2 file. */
gboolean sv_window_needs_build(const char *path);
void sv_window_stop_build(SvWindow *self);
/* Convert the .meta the missing-ranks question was about with
 * --allow-missing (its dialog's button; the script's build-missing). */
void sv_window_build_missing(SvWindow *self);
/* sv-export.c */
/* Save the view as out (PNG, SVG or PDF by its extension), on a worker
 * thread; export_busy until it is written. */
void sv_window_export(SvWindow *self, const char *out);
/* The Export View file chooser (win.export). */
void sv_window_export_dialog(SvWindow *self);
/* The Selection tab without a range (and the legend shown instead). */
void sv_window_show_no_range(SvWindow *self);

G_END_DECLS

#endif
