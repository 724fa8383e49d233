/* SPDX-License-Identifier: MIT */
/* sv-analysis.h - what the Matrix and Profile windows share: which span of
 * the trace they analyse (the view, the selected range, the whole trace),
 * going to timelines' rows in the main window, and the timing line of
 * SLOG2_VIEW_TIMING. */
#ifndef SV_ANALYSIS_UI_H
#define SV_ANALYSIS_UI_H

#include <gtk/gtk.h>

#include <slog2/slog.h>

#include "sv-doc-ref.h"
#include "sv-window.h"

G_BEGIN_DECLS

typedef enum sv_span_scope {
    SV_SCOPE_VIEW = 0,  /* the time window on screen (follows zoom and pan) */
    SV_SCOPE_SELECTION, /* the selected range; the view while there is none */
    SV_SCOPE_TRACE,     /* the whole trace */
    SV_N_SCOPES
} sv_span_scope;

/* "view", "selection", "trace"; parse: -1 for another word. Labels for
 * the drop-down. */
const char *sv_scope_name(sv_span_scope s);
int sv_scope_parse(const char *s);
extern const char *const sv_scope_labels[SV_N_SCOPES + 1];

/* The span scope means in w now: [*t0, *t1] in ns, inclusive; FALSE
 * without an open file. *what (may be NULL) says what it is ("the
 * selection"; "the view (no range selected)"). */
gboolean sv_analysis_span(SvWindow *w, sv_span_scope scope, int64_t *t0, int64_t *t1, const char **what);

/* An analysis window's request: the result on screen (of doc over [t0,
 * t1]) and the next one asked for, computed off the main thread
 * (sv_query_analyse_async), asked again when the span changes, at once or
 * once the view stops moving, and dropped when superseded. The owner gives
 * what it does with a new result (shown: doc_changed when it is of another
 * file) and with any change of state (status: busy, a result, a failure). */
typedef struct sv_analysis_req {
    /* the result on screen */
    SvDocRef *doc;
    slog_analysis *an;
    int64_t t0, t1;
    char *what;        /* what the span was (sv_analysis_span) */
    double analyse_ms; /* the analysis' own time */
    slog_query_stats stats;
    /* the next one */
    SvDocRef *want_doc;
    int64_t want_t0, want_t1;
    GCancellable *cancel;
    gboolean busy;
    guint pending;   /* a timeout before asking (the view is moving) */
    gint64 asked_us; /* when the span changed, 0 once the owner reported it */
    /* the owner's */
    GObject *owner;        /* the request lives in it */
    SvWindow *const *main; /* the owner's (weak) main window, for errors */
    uint32_t flags;        /* SLOG_ANALYSIS_* */
    const char *failed;
    void (*shown)(GObject *owner, gboolean doc_changed);
    void (*status)(GObject *owner);
} sv_analysis_req;

/* r for owner, whose main window *main shows errors (flags: what to
 * analyse; failed: the error dialog's title). */
void sv_analysis_req_init(sv_analysis_req *r, GObject *owner, SvWindow *const *main, uint32_t flags, const char *failed,
                          void (*shown)(GObject *, gboolean), void (*status)(GObject *));
/* The span of scope in main now, asked for when it is not what r shows or
 * asked last. TRUE when what the span is (r->what) changed. */
gboolean sv_analysis_req_refresh(sv_analysis_req *r, SvWindow *main, sv_span_scope scope, gboolean now);
/* A request asked and not answered yet, or about to be. */
gboolean sv_analysis_req_waiting(const sv_analysis_req *r);
/* No more asking (the owner's dispose), then let go of everything (its
 * finalize). */
void sv_analysis_req_stop(sv_analysis_req *r);
void sv_analysis_req_clear(sv_analysis_req *r);

/* Bring timelines [first, last] into the main window's view: the rank axis
 * narrowed to them (a history entry) when it shows ranks, else the rows
 * scrolled to their middle; the window raised. */
void sv_analysis_show_timelines(SvWindow *w, uint32_t first, uint32_t last);

/* "WHAT – FILE", FILE the main window's (main may be NULL). */
void sv_analysis_set_title(GtkWindow *w, const char *what, SvWindow *main);

/* With SLOG2_VIEW_TIMING: "slog2-view: NAME shown N ms after asked
 * (analysis M ms, B blocks, K bytes read)" on stderr. */
void sv_analysis_report_timing(const char *name, gint64 asked_us, double analysis_ms, const slog_query_stats *st);

/* Export CSV: a save chooser titled TITLE over PARENT proposing NAME; the
 * chosen path goes to WRITE(OBJ, path, NULL, NULL, &error), whose failure
 * is shown as FAILED over the main window MAIN (may be NULL: then nothing
 * is shown). OBJ is kept alive while the chooser is open. */
typedef gboolean (*sv_analysis_csv_writer)(gpointer obj, const char *path, int64_t *t0, int64_t *t1, GError **error);
void sv_analysis_export_csv(GtkWindow *parent, const char *title, const char *name, const char *failed, SvWindow *main,
                            sv_analysis_csv_writer write, gpointer obj);

/* The test script's verbs (sv-script.c's table; docs/VIEWER.md). */
gboolean sv_analysis_script_busy(SvWindow *w);
gboolean sv_script_matrix(SvWindow *w, const char *arg);
gboolean sv_script_matrix_csv(SvWindow *w, const char *arg);
gboolean sv_script_matrix_cell(SvWindow *w, const char *arg);
gboolean sv_script_profile(SvWindow *w, const char *arg);
gboolean sv_script_profile_csv(SvWindow *w, const char *arg);
gboolean sv_script_profile_do(SvWindow *w, const char *arg);
gboolean sv_script_screenshot_analysis(SvWindow *w, const char *arg);

G_END_DECLS

#endif
