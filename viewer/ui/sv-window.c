/* sv-window.c - see sv-window.h.
 *
 * Actions (tests drive them by name): win.open, win.open-recent(s),
 * win.zoom-in, win.zoom-out, win.zoom-fit, win.back, win.forward,
 * win.pan-left, win.pan-right, win.go-start, win.go-end, win.search,
 * win.find-next, win.find-prev, win.zoom-to-range, win.show-sidebar,
 * win.show-statusbar, win.absolute-time, win.compact-rows, win.dark-style,
 * win.show-info;
 * GtkApplication adds win.show-help-overlay (help-overlay.ui, Ctrl+?).
 */
#include "sv-window.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "render.h"
#include "sv-info.h"
#include "sv-labels.h"
#include "sv-legend.h"
#include "sv-overview.h"
#include "sv-query.h"
#include "sv-style.h"
#include "sv-timeline.h"

int sv_script_exit_status = 0;

struct _SvWindow {
    GtkApplicationWindow parent_instance;

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
    SvOverviewWidget *overview;
    SvTimeline *timeline;
    SvLegend *legend;
    GtkBox *stats_box;
    GtkLabel *status_window, *status_frame, *status_file;

    SvDocRef *doc;
    char *path;
    GtkWindow *info;          /* Trace Information, while open (weak) */
    GCancellable *open_cancel, *stats_cancel, *search_cancel;
    gboolean opening, stats_busy, search_busy;

    /* slog2-build for .meta files */
    GSubprocess *build;
    guint pulse_id;
    char *build_out;

    /* script */
    char **script;
    guint script_i, script_timer;
    slog_query_stats mark;
    gint64 sleep_until;
    gboolean script_waiting_frame;
};

G_DEFINE_FINAL_TYPE(SvWindow, sv_window, GTK_TYPE_APPLICATION_WINDOW)

static void error_dialog(SvWindow *self, const char *primary, const char *secondary)
{
    g_printerr("slog2-view: %s: %s\n", primary, secondary);
    if (self->script)
        return; /* scripted runs report on stderr and go on */
    GtkWidget *d = gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL |
                                          GTK_DIALOG_DESTROY_WITH_PARENT, GTK_MESSAGE_ERROR,
                                          GTK_BUTTONS_CLOSE, "%s", primary);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", secondary);
    g_signal_connect(d, "response", G_CALLBACK(gtk_window_destroy), NULL);
    gtk_window_present(GTK_WINDOW(d));
}

/* ------------------------------------------------------------ status */

static void update_status(SvWindow *self)
{
    if (!self->doc)
        return;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    char a[64], b[64], d[64];
    sv_format_time((int64_t)vp->t0, a, sizeof a);
    sv_format_time((int64_t)vp->t1, b, sizeof b);
    sv_format_duration(sv_viewport_span(vp), d, sizeof d);
    char *s = g_strdup_printf("%s – %s  (%s)", a, b, d);
    gtk_label_set_text(self->status_window, s);
    g_free(s);
    double ms;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, NULL, NULL);
    char bytes[32];
    sv_format_bytes((double)st->bytes_read, bytes, sizeof bytes);
    s = g_strdup_printf("last frame: %s in %" G_GUINT64_FORMAT " nodes, %" G_GUINT64_FORMAT
                        " drawables, %" G_GUINT64_FORMAT " previews, %.1f ms%s",
                        bytes, st->nodes_read, st->drawables, st->previews, ms,
                        sv_timeline_is_busy(self->timeline) ? "  · loading…" : "");
    gtk_label_set_text(self->status_frame, s);
    g_free(s);
}

static void update_history_actions(SvWindow *self)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), "back");
    g_simple_action_set_enabled(G_SIMPLE_ACTION(a), sv_timeline_can_back(self->timeline));
    a = g_action_map_lookup_action(G_ACTION_MAP(self), "forward");
    g_simple_action_set_enabled(G_SIMPLE_ACTION(a), sv_timeline_can_forward(self->timeline));
}

/* ------------------------------------------------------------ recent */

static void rebuild_recent_menu(SvWindow *self)
{
    GMenu *menu = g_menu_new();
    GtkRecentManager *rm = gtk_recent_manager_get_default();
    GList *items = gtk_recent_manager_get_items(rm);
    int n = 0;
    for (GList *l = items; l && n < 10; l = l->next) {
        GtkRecentInfo *ri = l->data;
        const char *uri = gtk_recent_info_get_uri(ri);
        if (!g_str_has_suffix(uri, ".slog2") && !g_str_has_suffix(uri, ".meta"))
            continue;
        if (!gtk_recent_info_exists(ri))
            continue;
        char *label = g_uri_unescape_string(strrchr(uri, '/') ? strrchr(uri, '/') + 1 : uri, NULL);
        GMenuItem *it = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target(it, "win.open-recent", "s", uri);
        g_menu_append_item(menu, it);
        g_object_unref(it);
        g_free(label);
        n++;
    }
    g_list_free_full(items, (GDestroyNotify)gtk_recent_info_unref);
    if (n == 0)
        g_menu_append(menu, "No recent files", "win.none");
    gtk_menu_button_set_menu_model(self->recent_button, G_MENU_MODEL(menu));
    g_object_unref(menu);
}

/* ------------------------------------------------------------ open */

/* The Trace Information window belongs to the file it was opened on. */
static void close_info(SvWindow *self)
{
    if (self->info)
        gtk_window_destroy(self->info);
}

static void set_doc(SvWindow *self, SvDocRef *doc, const char *path)
{
    close_info(self);
    sv_doc_ref_release(self->doc);
    self->doc = doc ? sv_doc_ref_acquire(doc) : NULL;
    g_free(self->path);
    self->path = g_strdup(path);
    sv_legend_set_doc(self->legend, doc);
    sv_timeline_set_doc(self->timeline, doc);
    sv_overview_widget_reload(self->overview);
    char *base = g_path_get_basename(path);
    gtk_label_set_text(self->title_label, base);
    gtk_window_set_title(GTK_WINDOW(self), base);
    const slog_file_info *fi = doc->fi;
    char dur[32], size[32];
    sv_format_duration((double)(fi->t_max - fi->t_min), dur, sizeof dur);
    sv_format_bytes((double)fi->file_size, size, sizeof size);
    char *sub = g_strdup_printf("%u timelines · %" G_GUINT64_FORMAT " drawables · %s", fi->n_timelines,
                                fi->n_drawables, dur);
    gtk_label_set_text(self->subtitle_label, sub);
    g_free(sub);
    char *f = g_strdup_printf("%s · %s · format %u.%u", path, size, fi->version_major,
                              fi->version_minor);
    gtk_label_set_text(self->status_file, f);
    g_free(f);
    g_free(base);
    gtk_stack_set_visible_child_name(self->main_stack, "view");
    gtk_widget_grab_focus(GTK_WIDGET(self->timeline));
}

static void open_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    GError *error = NULL;
    SvDocRef *doc = sv_query_open_finish(res, &error);
    const char *path = g_task_get_task_data(G_TASK(res));
    if (g_task_get_cancellable(G_TASK(res)) != self->open_cancel) {
        sv_doc_ref_release(doc); /* superseded by a newer open */
        g_clear_error(&error);
        g_object_unref(self);
        return;
    }
    self->opening = FALSE;
    gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
    if (doc) {
        set_doc(self, doc, path);
        char *uri = g_filename_to_uri(path, NULL, NULL);
        if (uri && !self->script)
            gtk_recent_manager_add_item(gtk_recent_manager_get_default(), uri);
        g_free(uri);
        rebuild_recent_menu(self);
        sv_doc_ref_release(doc);
    } else if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        /* libslog's message names the file and the byte offset */
        error_dialog(self, "Cannot open the file", error->message);
        if (self->script)
            sv_script_exit_status = 3;
    }
    g_clear_error(&error);
    g_object_unref(self);
}

static void open_slog2(SvWindow *self, const char *path)
{
    if (self->open_cancel)
        g_cancellable_cancel(self->open_cancel);
    g_clear_object(&self->open_cancel);
    self->open_cancel = g_cancellable_new();
    self->opening = TRUE;
    char *base = g_path_get_basename(path);
    char *msg = g_strdup_printf("Opening %s…", base);
    gtk_label_set_text(self->progress_label, msg);
    gtk_progress_bar_pulse(self->progress_bar);
    g_free(msg);
    g_free(base);
    sv_query_open_async(path, self->open_cancel, open_done, g_object_ref(self));
}

/* ---- DUMPI .meta through slog2-build ---- */

static char *find_builder(void)
{
    char *exe = g_file_read_link("/proc/self/exe", NULL);
    if (exe) {
        char *dir = g_path_get_dirname(exe);
        char *cand = g_build_filename(dir, "..", "builder", "slog2-build", NULL);
        g_free(exe);
        if (g_file_test(cand, G_FILE_TEST_IS_EXECUTABLE)) {
            g_free(dir);
            return cand;
        }
        g_free(cand);
        cand = g_build_filename(dir, "slog2-build", NULL);
        g_free(dir);
        if (g_file_test(cand, G_FILE_TEST_IS_EXECUTABLE))
            return cand;
        g_free(cand);
    }
    return g_find_program_in_path("slog2-build");
}

static char *cache_path_for(const char *meta)
{
    char *dir = g_path_get_dirname(meta);
    char *base = g_path_get_basename(meta);
    if (g_str_has_suffix(base, ".meta"))
        base[strlen(base) - 5] = 0;
    char *out = NULL;
    if (g_access(dir, W_OK) == 0) {
        char *name = g_strconcat(base, ".slog2", NULL);
        out = g_build_filename(dir, name, NULL);
        g_free(name);
    } else {
        char *sum = g_compute_checksum_for_string(G_CHECKSUM_SHA1, meta, -1);
        char *name = g_strdup_printf("%s-%.12s.slog2", base, sum);
        char *cdir = g_build_filename(g_get_user_cache_dir(), "slog2", NULL);
        g_mkdir_with_parents(cdir, 0700);
        out = g_build_filename(cdir, name, NULL);
        g_free(cdir);
        g_free(name);
        g_free(sum);
    }
    g_free(dir);
    g_free(base);
    return out;
}

static gboolean pulse_cb(gpointer user)
{
    SvWindow *self = user;
    gtk_progress_bar_pulse(self->progress_bar);
    return G_SOURCE_CONTINUE;
}

/* A running conversion: slog2-build --progress writes "... 45.3% ..." to
 * stderr (carriage-return separated) as it goes; its warnings and errors
 * are the "slog2-build:" lines. */
typedef struct build_job {
    SvWindow *self;
    GSubprocess *proc;
    GString *err;
} build_job;

static void build_job_free(build_job *job)
{
    g_object_unref(job->self);
    g_object_unref(job->proc);
    g_string_free(job->err, TRUE);
    g_free(job);
}

/* The last "NN.N%" in the text so far, as a fraction; -1 if none. */
static double last_percent(const GString *s)
{
    for (gssize i = (gssize)s->len - 1; i > 0 && i > (gssize)s->len - 400; i--) {
        if (s->str[i] != '%')
            continue;
        gssize j = i;
        while (j > 0 && (g_ascii_isdigit(s->str[j - 1]) || s->str[j - 1] == '.'))
            j--;
        if (j < i)
            return g_ascii_strtod(s->str + j, NULL) / 100.0;
    }
    return -1;
}

/* The "slog2-build: ..." lines (warnings, errors), without progress bars. */
static char *builder_messages(const GString *s)
{
    GString *out = g_string_new(NULL);
    char **lines = g_strsplit_set(s->str, "\r\n", -1);
    for (char **l = lines; *l; l++) {
        const char *t = *l;
        if (g_str_has_prefix(t, "\033[K")) /* the progress bar's line clear */
            t += 3;
        if (g_str_has_prefix(t, "slog2-build:") || g_str_has_prefix(t, "  "))
            g_string_append_printf(out, "%s\n", t);
    }
    g_strfreev(lines);
    return g_string_free(out, FALSE);
}

static void build_waited(GObject *src, GAsyncResult *res, gpointer user)
{
    build_job *job = user;
    SvWindow *self = job->self;
    GError *error = NULL;
    g_subprocess_wait_finish(G_SUBPROCESS(src), res, &error);
    if (self->pulse_id)
        g_source_remove(self->pulse_id);
    self->pulse_id = 0;
    gboolean cancelled = self->build != job->proc;
    int status = g_subprocess_get_if_exited(job->proc) ? g_subprocess_get_exit_status(job->proc) : -1;
    char *msgs = builder_messages(job->err);
    if (!cancelled && (status == 0 || status == 3)) {
        open_slog2(self, self->build_out);
        /* exit 3: built, but some rank was truncated or inconsistent */
        if (status == 3)
            error_dialog(self, "slog2-build finished with warnings", msgs);
    } else if (!cancelled) {
        gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
        error_dialog(self, "slog2-build failed",
                     error ? error->message : (*msgs ? msgs : "unknown error"));
    }
    if (!cancelled)
        g_clear_object(&self->build);
    g_free(msgs);
    g_clear_error(&error);
    build_job_free(job);
}

static void build_read(GObject *src, GAsyncResult *res, gpointer user)
{
    build_job *job = user;
    GBytes *b = g_input_stream_read_bytes_finish(G_INPUT_STREAM(src), res, NULL);
    gsize n = b ? g_bytes_get_size(b) : 0;
    if (n > 0) {
        g_string_append_len(job->err, g_bytes_get_data(b, NULL), (gssize)n);
        double f = last_percent(job->err);
        if (f >= 0 && job->self->build == job->proc) {
            if (job->self->pulse_id)
                g_source_remove(job->self->pulse_id);
            job->self->pulse_id = 0;
            gtk_progress_bar_set_fraction(job->self->progress_bar, CLAMP(f, 0, 1));
        }
        g_bytes_unref(b);
        g_input_stream_read_bytes_async(G_INPUT_STREAM(src), 4096, G_PRIORITY_DEFAULT, NULL, build_read, job);
        return;
    }
    if (b)
        g_bytes_unref(b);
    g_subprocess_wait_async(job->proc, NULL, build_waited, job);
}

static void open_meta(SvWindow *self, const char *meta)
{
    char *out = cache_path_for(meta);
    GStatBuf a, b;
    if (g_stat(out, &b) == 0 && g_stat(meta, &a) == 0 && b.st_mtime >= a.st_mtime) {
        open_slog2(self, out); /* cached conversion is up to date */
        g_free(out);
        return;
    }
    char *builder = find_builder();
    if (!builder) {
        error_dialog(self, "Cannot convert the DUMPI trace",
                     "slog2-build was not found next to slog2-view nor in PATH.");
        g_free(out);
        return;
    }
    GError *error = NULL;
    self->build = g_subprocess_new(G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                   G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                                   builder, "--progress", meta, "-o", out, NULL);
    g_free(builder);
    if (!self->build) {
        error_dialog(self, "Cannot start slog2-build", error->message);
        g_error_free(error);
        g_free(out);
        return;
    }
    g_free(self->build_out);
    self->build_out = out;
    char *base = g_path_get_basename(meta);
    char *msg = g_strdup_printf("Converting %s with slog2-build…", base);
    gtk_label_set_text(self->progress_label, msg);
    g_free(msg);
    g_free(base);
    gtk_progress_bar_set_fraction(self->progress_bar, 0);
    gtk_revealer_set_reveal_child(self->progress_revealer, TRUE);
    /* pulse until the first percentage arrives */
    self->pulse_id = g_timeout_add(120, pulse_cb, self);
    build_job *job = g_new0(build_job, 1);
    job->self = g_object_ref(self);
    job->proc = g_object_ref(self->build);
    job->err = g_string_new(NULL);
    g_input_stream_read_bytes_async(g_subprocess_get_stderr_pipe(self->build), 4096, G_PRIORITY_DEFAULT,
                                    NULL, build_read, job);
}

/* Stop a running conversion. SIGTERM, not force_exit's SIGKILL:
 * slog2-build then removes its half-written temporary file before it ends.
 * self->build goes NULL first, which marks the build as cancelled for
 * build_done. */
static void stop_build(SvWindow *self)
{
    GSubprocess *p = g_steal_pointer(&self->build);
    if (p) {
        g_subprocess_send_signal(p, SIGTERM);
        g_object_unref(p);
    }
}

void sv_window_cancel_clicked_cb(GtkButton *b, SvWindow *self)
{
    stop_build(self);
    if (self->open_cancel)
        g_cancellable_cancel(self->open_cancel);
    gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
}

void sv_window_open_file(SvWindow *self, GFile *file)
{
    char *path = g_file_get_path(file);
    if (!path) {
        error_dialog(self, "Cannot open the file", "Only local files can be opened.");
        return;
    }
    if (g_str_has_suffix(path, ".meta"))
        open_meta(self, path);
    else
        open_slog2(self, path);
    g_free(path);
}

static void chooser_response_cb(GtkNativeDialog *d, int response, SvWindow *self)
{
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(d));
        if (f) {
            sv_window_open_file(self, f);
            g_object_unref(f);
        }
    }
    g_object_unref(d);
}

static void open_action(GSimpleAction *a, GVariant *p, gpointer user)
{
    SvWindow *self = user;
    GtkFileChooserNative *d = gtk_file_chooser_native_new(
        "Open Trace", GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
    GtkFileFilter *f = gtk_file_filter_new();
    gtk_file_filter_set_name(f, "Traces (*.slog2, *.meta)");
    gtk_file_filter_add_pattern(f, "*.slog2");
    gtk_file_filter_add_pattern(f, "*.meta");
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
    g_object_unref(f);
    f = gtk_file_filter_new();
    gtk_file_filter_set_name(f, "All files");
    gtk_file_filter_add_pattern(f, "*");
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
    g_object_unref(f);
    g_signal_connect(d, "response", G_CALLBACK(chooser_response_cb), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}

static void open_recent_action(GSimpleAction *a, GVariant *p, gpointer user)
{
    GFile *f = g_file_new_for_uri(g_variant_get_string(p, NULL));
    sv_window_open_file(user, f);
    g_object_unref(f);
}

static gboolean drop_cb(GtkDropTarget *t, const GValue *v, double x, double y, SvWindow *self)
{
    if (G_VALUE_HOLDS(v, GDK_TYPE_FILE_LIST)) {
        GSList *l = g_value_get_boxed(v);
        if (l) {
            sv_window_open_file(self, l->data);
            return TRUE;
        }
    } else if (G_VALUE_HOLDS(v, G_TYPE_FILE)) {
        sv_window_open_file(self, g_value_get_object(v));
        return TRUE;
    }
    return FALSE;
}

/* ------------------------------------------------------------ view actions */

#define TL self->timeline
static void zoom_in_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_zoom(TL, 2); }
static void zoom_out_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_zoom(TL, 0.5); }
static void zoom_fit_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_fit(TL); }
static void back_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_back(TL); }
static void forward_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_forward(TL); }
static void pan_left_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_pan(TL, -0.2); }
static void pan_right_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_pan(TL, 0.2); }
static void go_start_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_go_start(TL); }
static void go_end_action(GSimpleAction *a, GVariant *p, gpointer u) { SvWindow *self = u; sv_timeline_go_end(TL); }

static void search_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    gtk_widget_grab_focus(GTK_WIDGET(self->search_entry));
}

static void search_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    GError *error = NULL;
    gboolean found = FALSE;
    sv_found *f = sv_query_search_finish(res, &found, &error);
    self->search_busy = FALSE;
    if (f) {
        sv_timeline_select(self->timeline, f, FALSE);
        gtk_widget_remove_css_class(GTK_WIDGET(self->search_entry), "error");
        char t[64];
        sv_format_time(f->item.start, t, sizeof t);
        if (self->script)
            printf("found %s on timeline %u at %s\n", self->doc->cat_names[f->item.category],
                   f->item.timeline, t), fflush(stdout);
        g_free(f);
    } else if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        error_dialog(self, "Search failed", error->message);
    } else if (!error) {
        gtk_widget_add_css_class(GTK_WIDGET(self->search_entry), "error");
        gtk_widget_error_bell(GTK_WIDGET(self));
        if (self->script)
            printf("not found\n"), fflush(stdout);
    }
    g_clear_error(&error);
    g_object_unref(self);
}

static void find(SvWindow *self, int dir)
{
    if (!self->doc)
        return;
    sv_search q;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->search_entry));
    if (sv_search_parse(text, &q)) {
        if (*text)
            gtk_widget_add_css_class(GTK_WIDGET(self->search_entry), "error");
        return;
    }
    /* scan from the selected match, else from the view's edge */
    sv_found cur;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    int64_t from = dir > 0 ? (int64_t)vp->t0 - 1 : (int64_t)vp->t1 + 1;
    if (sv_timeline_get_selected(self->timeline, &cur) && cur.item.start >= vp->t0 &&
        cur.item.start <= vp->t1)
        from = cur.item.start;
    if (self->search_cancel)
        g_cancellable_cancel(self->search_cancel);
    g_clear_object(&self->search_cancel);
    self->search_cancel = g_cancellable_new();
    self->search_busy = TRUE;
    sv_query_search_async(self->doc, &q, from, dir, self->search_cancel, search_done,
                          g_object_ref(self));
}

static void find_next_action(GSimpleAction *a, GVariant *p, gpointer u) { find(u, 1); }
static void find_prev_action(GSimpleAction *a, GVariant *p, gpointer u) { find(u, -1); }

static void zoom_to_range_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    double t0, t1;
    if (sv_timeline_get_range(self->timeline, &t0, &t1)) {
        sv_timeline_set_window(self->timeline, t0, t1, TRUE);
        sv_timeline_clear_range(self->timeline);
    }
}

static void info_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    if (!self->doc)
        return;
    if (!self->info) {
        self->info = sv_info_window_new(GTK_WINDOW(self), self->doc, self->path);
        g_object_add_weak_pointer(G_OBJECT(self->info), (gpointer *)&self->info);
    }
    gtk_window_present(self->info);
}

static void toggle_state(GSimpleAction *a, GVariant *p, gpointer u)
{
    g_simple_action_set_state(a, p);
    SvWindow *self = u;
    const char *name = g_action_get_name(G_ACTION(a));
    gboolean on = g_variant_get_boolean(p);
    if (g_str_equal(name, "show-sidebar"))
        gtk_widget_set_visible(self->sidebar, on);
    else if (g_str_equal(name, "show-statusbar"))
        gtk_revealer_set_reveal_child(self->status_revealer, on);
    else if (g_str_equal(name, "absolute-time"))
        sv_timeline_set_absolute_time(self->timeline, on);
    else if (g_str_equal(name, "compact-rows"))
        sv_timeline_set_compact_rows(self->timeline, on);
    else if (g_str_equal(name, "dark-style") && on != sv_style_get_prefer_dark())
        sv_style_set_prefer_dark(on);
}

/* The choice is the application's: every window's menu shows it, whichever
 * window made it. */
static void prefer_dark_changed_cb(GtkSettings *s, GParamSpec *ps, SvWindow *self)
{
    GAction *a = g_action_map_lookup_action(G_ACTION_MAP(self), "dark-style");
    g_simple_action_set_state(G_SIMPLE_ACTION(a), g_variant_new_boolean(sv_style_get_prefer_dark()));
}

static const GActionEntry ACTIONS[] = {
    {"open", open_action, NULL, NULL, NULL, {0}},
    {"open-recent", open_recent_action, "s", NULL, NULL, {0}},
    {"zoom-in", zoom_in_action, NULL, NULL, NULL, {0}},
    {"zoom-out", zoom_out_action, NULL, NULL, NULL, {0}},
    {"zoom-fit", zoom_fit_action, NULL, NULL, NULL, {0}},
    {"back", back_action, NULL, NULL, NULL, {0}},
    {"forward", forward_action, NULL, NULL, NULL, {0}},
    {"pan-left", pan_left_action, NULL, NULL, NULL, {0}},
    {"pan-right", pan_right_action, NULL, NULL, NULL, {0}},
    {"go-start", go_start_action, NULL, NULL, NULL, {0}},
    {"go-end", go_end_action, NULL, NULL, NULL, {0}},
    {"search", search_action, NULL, NULL, NULL, {0}},
    {"find-next", find_next_action, NULL, NULL, NULL, {0}},
    {"find-prev", find_prev_action, NULL, NULL, NULL, {0}},
    {"zoom-to-range", zoom_to_range_action, NULL, NULL, NULL, {0}},
    {"show-info", info_action, NULL, NULL, NULL, {0}},
    {"show-sidebar", NULL, NULL, "true", toggle_state, {0}},
    {"show-statusbar", NULL, NULL, "true", toggle_state, {0}},
    {"absolute-time", NULL, NULL, "false", toggle_state, {0}},
    {"compact-rows", NULL, NULL, "false", toggle_state, {0}},
    {"dark-style", NULL, NULL, "false", toggle_state, {0}},
};

/* ------------------------------------------------------------ selection */

static void clear_box(GtkBox *b)
{
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(b))))
        gtk_box_remove(b, c);
}

static GtkWidget *label(const char *text, const char *cls, float xalign)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), xalign);
    gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
    if (cls)
        gtk_widget_add_css_class(l, cls);
    return l;
}

typedef struct bar_data {
    double frac;
    uint32_t rgba;
} bar_data;

static void bar_draw(GtkDrawingArea *a, cairo_t *cr, int w, int h, gpointer user)
{
    bar_data *b = user;
    sv_style_follow(GTK_WIDGET(a));
    sv_theme_source(cr, sv_theme_current()->meter_bg, 1);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    sv_set_rgba(cr, b->rgba, 1, 1);
    cairo_rectangle(cr, 0, 0, w * CLAMP(b->frac, 0, 1), h);
    cairo_fill(cr);
}

static GtkWidget *bar(double frac, uint32_t rgba)
{
    GtkWidget *a = gtk_drawing_area_new();
    bar_data *b = g_new(bar_data, 1);
    b->frac = frac;
    b->rgba = rgba;
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(a), bar_draw, b, g_free);
    gtk_widget_set_size_request(a, 60, 10);
    gtk_widget_set_valign(a, GTK_ALIGN_CENTER);
    return a;
}

static SvWindow *sort_win;
static const sv_range_stats *sort_stats;
static int cmp_cat_time(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (sort_stats->cat_ns[x] != sort_stats->cat_ns[y])
        return sort_stats->cat_ns[x] > sort_stats->cat_ns[y] ? -1 : 1;
    return sort_stats->cat_count[x] > sort_stats->cat_count[y] ? -1 : sort_stats->cat_count[x] < sort_stats->cat_count[y];
}

static void show_stats(SvWindow *self, const sv_range_stats *st)
{
    clear_box(self->stats_box);
    char a[64], b[64], d[64], buf[256];
    sv_format_time(st->t0, a, sizeof a);
    sv_format_time(st->t1, b, sizeof b);
    sv_format_duration((double)(st->t1 - st->t0), d, sizeof d);
    gtk_box_append(self->stats_box, label("Selected range", "stats-title", 0));
    g_snprintf(buf, sizeof buf, "%s – %s", a, b);
    gtk_box_append(self->stats_box, label(buf, "numeric", 0));
    g_snprintf(buf, sizeof buf, "Duration %s", d);
    gtk_box_append(self->stats_box, label(buf, "dim-label", 0));
    GtkWidget *zb = gtk_button_new_with_label("Zoom to Range");
    gtk_actionable_set_action_name(GTK_ACTIONABLE(zb), "win.zoom-to-range");
    gtk_widget_add_css_class(zb, "suggested-action");
    gtk_widget_set_halign(zb, GTK_ALIGN_START);
    gtk_widget_set_margin_top(zb, 6);
    gtk_box_append(self->stats_box, zb);

    char bytes[32];
    sv_format_bytes((double)st->msg_bytes, bytes, sizeof bytes);
    gtk_box_append(self->stats_box, label("Messages", "stats-section", 0));
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT " sent, %s%s", st->n_messages, bytes,
               st->n_unknown_bytes ? " (some sizes unknown)" : "");
    gtk_box_append(self->stats_box, label(buf, NULL, 0));

    gtk_box_append(self->stats_box, label("Time per category", "stats-section", 0));
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 3);
    uint32_t *idx = g_new(uint32_t, st->n_categories + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->n_categories; i++)
        if (st->cat_count[i])
            idx[n++] = i;
    sort_win = self;
    sort_stats = st;
    qsort(idx, n, sizeof *idx, cmp_cat_time);
    double span = (double)(st->t1 - st->t0) * (st->n_timelines ? st->n_timelines : 1);
    for (uint32_t k = 0; k < n && k < 40; k++) {
        uint32_t c = idx[k];
        gtk_grid_attach(GTK_GRID(grid), label(self->doc->cat_names[c], NULL, 0), 0, k, 1, 1);
        if (self->doc->pal.kind[c] == SLOG_KIND_STATE) {
            sv_format_duration((double)st->cat_ns[c], d, sizeof d);
            g_snprintf(buf, sizeof buf, "%s", d);
            gtk_grid_attach(GTK_GRID(grid), bar(st->cat_ns[c] / span, self->doc->pal.rgba[c]),
                            1, k, 1, 1);
        } else {
            g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT "×", st->cat_count[c]);
            gtk_grid_attach(GTK_GRID(grid), bar(0, self->doc->pal.rgba[c]), 1, k, 1, 1);
        }
        GtkWidget *v = label(buf, "numeric", 1);
        gtk_widget_set_hexpand(v, TRUE);
        gtk_grid_attach(GTK_GRID(grid), v, 2, k, 1, 1);
    }
    g_free(idx);
    gtk_box_append(self->stats_box, grid);

    gtk_box_append(self->stats_box, label("Busy time per timeline", "stats-section", 0));
    grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 3);
    double len = (double)(st->t1 - st->t0);
    for (uint32_t t = 0; t < st->n_timelines && t < 256; t++) {
        double frac = len > 0 ? st->tl_busy_ns[t] / len : 0;
        gtk_grid_attach(GTK_GRID(grid), label(self->doc->tl_labels[t], NULL, 0), 0, t, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), bar(frac, 0x3584e4ff), 1, t, 1, 1);
        g_snprintf(buf, sizeof buf, "%.1f %% · %" G_GUINT64_FORMAT " msgs", frac * 100,
                   st->tl_messages[t]);
        GtkWidget *v = label(buf, "numeric", 1);
        gtk_widget_set_hexpand(v, TRUE);
        gtk_grid_attach(GTK_GRID(grid), v, 2, t, 1, 1);
    }
    gtk_box_append(self->stats_box, grid);
    if (self->script)
        printf("range stats: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT " bytes\n",
               st->n_messages, st->msg_bytes), fflush(stdout);
}

static void stats_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    GError *error = NULL;
    sv_range_stats *st = sv_query_range_stats_finish(res, &error);
    if (g_task_get_cancellable(G_TASK(res)) == self->stats_cancel)
        self->stats_busy = FALSE;
    if (st && g_task_get_cancellable(G_TASK(res)) == self->stats_cancel && self->doc)
        show_stats(self, st);
    else if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        error_dialog(self, "Statistics failed", error->message);
    sv_query_stats_free(st);
    g_clear_error(&error);
    g_object_unref(self);
}

static void range_selected_cb(SvTimeline *tl, double t0, double t1, SvWindow *self)
{
    if (self->stats_cancel)
        g_cancellable_cancel(self->stats_cancel);
    g_clear_object(&self->stats_cancel);
    if (!(t1 > t0) || !self->doc) {
        gtk_stack_set_visible_child_name(self->side_stack, "legend");
        return;
    }
    self->stats_cancel = g_cancellable_new();
    self->stats_busy = TRUE;
    clear_box(self->stats_box);
    gtk_box_append(self->stats_box, label("Computing…", "dim-label", 0));
    g_action_group_change_action_state(G_ACTION_GROUP(self), "show-sidebar",
                                       g_variant_new_boolean(TRUE));
    gtk_stack_set_visible_child_name(self->side_stack, "selection");
    sv_query_range_stats_async(self->doc, (int64_t)floor(t0), (int64_t)ceil(t1),
                               self->stats_cancel, stats_done, g_object_ref(self));
}

/* ------------------------------------------------------------ signals */

static void view_changed_cb(SvTimeline *tl, SvWindow *self)
{
    update_status(self);
}

static void history_cb(SvTimeline *tl, SvWindow *self)
{
    update_history_actions(self);
}

static void timeline_error_cb(SvTimeline *tl, const char *msg, SvWindow *self)
{
    error_dialog(self, "Cannot read the file", msg);
}

static void legend_changed_cb(SvLegend *l, SvWindow *self)
{
    sv_timeline_palette_changed(self->timeline);
    gtk_widget_queue_draw(GTK_WIDGET(self->overview));
}

static gboolean entry_key_cb(GtkEventControllerKey *k, guint keyval, guint code,
                             GdkModifierType st, SvWindow *self)
{
    if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (st & GDK_SHIFT_MASK)) {
        find(self, -1);
        return TRUE;
    }
    return FALSE;
}

static void entry_activate_cb(GtkSearchEntry *e, SvWindow *self)
{
    find(self, 1);
}

static void entry_stop_cb(GtkSearchEntry *e, SvWindow *self)
{
    gtk_widget_grab_focus(GTK_WIDGET(self->timeline));
}

static void entry_changed_cb(GtkSearchEntry *e, SvWindow *self)
{
    gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
}

/* ------------------------------------------------------------ script */

/* Nothing running, and an open file is on screen: a command looks at the
 * window as a user would see it (the first one once ran before the window
 * was laid out, and found the status bar without a size). */
static gboolean script_idle(SvWindow *self)
{
    return !self->opening && !self->build && !self->stats_busy && !self->search_busy &&
           !sv_timeline_is_busy(self->timeline) && (!self->doc || sv_timeline_has_drawn(self->timeline));
}

static int save_screenshot(GtkWidget *w, const char *file)
{
    GdkTexture *t = sv_style_render_widget(w);
    int ok = t && gdk_texture_save_to_png(t, file);
    if (t)
        g_object_unref(t);
    return ok;
}

static void script_fail(SvWindow *self, const char *what)
{
    printf("FAIL: %s\n", what);
    fflush(stdout);
    sv_script_exit_status = 1;
}

static void count_visible_nodes(SvWindow *self, double t0, double t1, uint64_t *n, uint64_t *bytes)
{
    *n = *bytes = 0;
    for (uint64_t i = 0; i < self->doc->fi->n_nodes; i++) {
        slog_node_info ni;
        if (slog_reader_node(self->doc->r, i, &ni) != SLOG_OK)
            continue;
        if (ni.lo <= (int64_t)ceil(t1) && ni.hi > (int64_t)floor(t0)) {
            (*n)++;
            *bytes += ni.size;
        }
    }
}

static gboolean script_step(gpointer user)
{
    SvWindow *self = user;
    /* Commands wait until the window is idle, except "cancel", which is
     * for a running conversion (the progress bar's Cancel button). */
    char *next = self->script[self->script_i];
    gboolean cancel_now = next && self->build && g_str_equal(g_strstrip(next), "cancel");
    if (g_get_monotonic_time() < self->sleep_until || (!script_idle(self) && !cancel_now))
        return G_SOURCE_CONTINUE;
    if (!self->script[self->script_i]) {
        self->script_timer = 0;
        gtk_window_destroy(GTK_WINDOW(self));
        return G_SOURCE_REMOVE;
    }
    char *cmd = g_strstrip(g_strdup(self->script[self->script_i++]));
    char **argv = g_strsplit(cmd, " ", 2);
    const char *verb = argv[0], *arg = argv[1] ? g_strstrip(argv[1]) : "";
    printf("> %s\n", cmd);
    fflush(stdout);
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    if (!*verb) {
    } else if (g_str_equal(verb, "action")) {
        g_action_group_activate_action(G_ACTION_GROUP(self), arg, NULL);
    } else if (g_str_equal(verb, "drop")) {
        /* what the window's drop target hands drop_cb for a file dragged
         * from a file manager */
        GFile *f = g_file_new_for_commandline_arg(arg);
        GSList *l = g_slist_prepend(NULL, f);
        GValue v = G_VALUE_INIT;
        g_value_init(&v, GDK_TYPE_FILE_LIST);
        g_value_take_boxed(&v, gdk_file_list_new_from_list(l));
        if (!drop_cb(NULL, &v, 0, 0, self))
            script_fail(self, "the drop was refused");
        g_value_unset(&v);
        g_slist_free(l);
        g_object_unref(f);
    } else if (g_str_equal(verb, "cancel")) {
        if (!self->build)
            script_fail(self, "cancel: no conversion running");
        sv_window_cancel_clicked_cb(NULL, self);
    } else if (g_str_equal(verb, "quit")) {
        g_strfreev(argv);
        g_free(cmd);
        self->script_timer = 0;
        /* popover down first, window gone on the next turn of the loop */
        sv_timeline_close_popover(self->timeline);
        g_idle_add_once((GSourceOnceFunc)gtk_window_destroy, self);
        return G_SOURCE_REMOVE;
    } else if (!self->doc) {
        script_fail(self, "no document open");
    } else if (g_str_equal(verb, "select")) {
        double a = 0, b = 0;
        if (sscanf(arg, "%lf %lf", &a, &b) == 2)
            sv_timeline_set_range(self->timeline, a * 1e9, b * 1e9);
        else
            script_fail(self, "select wants T0 T1 (seconds)");
    } else if (g_str_equal(verb, "window")) {
        double a = 0, b = 0;
        if (sscanf(arg, "%lf %lf", &a, &b) == 2)
            sv_timeline_set_window(self->timeline, a * 1e9, b * 1e9, TRUE);
    } else if (g_str_equal(verb, "search")) {
        gtk_editable_set_text(GTK_EDITABLE(self->search_entry), arg);
        find(self, 1);
    } else if (g_str_equal(verb, "popover")) {
        if (!sv_timeline_popover_any(self->timeline))
            script_fail(self, "no drawable for a popover");
    } else if (g_str_equal(verb, "legend")) {
        g_action_group_change_action_state(G_ACTION_GROUP(self), "show-sidebar",
                                           g_variant_new_boolean(TRUE));
        gtk_stack_set_visible_child_name(self->side_stack, "legend");
    } else if (g_str_equal(verb, "screenshot")) {
        if (!save_screenshot(GTK_WIDGET(self), arg))
            script_fail(self, "screenshot");
    } else if (g_str_equal(verb, "screenshot-info")) {
        if (!self->info || !save_screenshot(GTK_WIDGET(self->info), arg))
            script_fail(self, "screenshot-info: no Trace Information window");
    } else if (g_str_equal(verb, "screenshot-shortcuts")) {
        GtkShortcutsWindow *h = gtk_application_window_get_help_overlay(GTK_APPLICATION_WINDOW(self));
        if (!h || !gtk_widget_get_visible(GTK_WIDGET(h)) || !save_screenshot(GTK_WIDGET(h), arg))
            script_fail(self, "screenshot-shortcuts: the Keyboard Shortcuts window is not shown");
    } else if (g_str_equal(verb, "expect-info")) {
        /* KEY [VALUE-PART]: a row of the Trace Information window */
        char **kv = g_strsplit(arg, " ", 2);
        gboolean ok = self->info && kv[0] && sv_info_window_has(self->info, kv[0], kv[1]);
        printf("info %s%s%s: %s\n", kv[0] ? kv[0] : "", kv[0] && kv[1] ? " ~ " : "", kv[0] && kv[1] ? kv[1] : "",
               ok ? "shown" : "not shown");
        if (!ok)
            script_fail(self, "expect-info");
        g_strfreev(kv);
    } else if (g_str_equal(verb, "stats")) {
        printf("frame window %.9f:%.9f nodes_read %" G_GUINT64_FORMAT " bytes_read %" G_GUINT64_FORMAT
               " drawables %" G_GUINT64_FORMAT " previews %" G_GUINT64_FORMAT " ms %.2f\n",
               ft0 / 1e9, ft1 / 1e9, st->nodes_read, st->bytes_read, st->drawables,
               st->previews, ms);
    } else if (g_str_equal(verb, "mark")) {
        self->mark = *st;
    } else if (g_str_equal(verb, "expect-visible-nodes")) {
        uint64_t n, bytes;
        count_visible_nodes(self, ft0, ft1, &n, &bytes);
        printf("visible nodes %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " bytes); frame read %"
               G_GUINT64_FORMAT " nodes, %" G_GUINT64_FORMAT " bytes\n", n, bytes,
               st->nodes_read, st->bytes_read);
        if (st->nodes_read > n || st->bytes_read > bytes)
            script_fail(self, "the frame read more than the nodes intersecting the window");
    } else if (g_str_equal(verb, "expect-fewer-bytes")) {
        printf("bytes: marked %" G_GUINT64_FORMAT ", now %" G_GUINT64_FORMAT "\n",
               self->mark.bytes_read, st->bytes_read);
        if (st->bytes_read > self->mark.bytes_read)
            script_fail(self, "the frame read more bytes than the marked one");
    } else if (g_str_equal(verb, "expect-bytes-below")) {
        double frac = g_ascii_strtod(arg, NULL);
        printf("bytes: frame %" G_GUINT64_FORMAT ", file %" G_GUINT64_FORMAT "\n",
               st->bytes_read, self->doc->fi->file_size);
        if (st->bytes_read > frac * self->doc->fi->file_size)
            script_fail(self, "the frame read too much of the file");
    } else if (g_str_equal(verb, "scroll")) {
        /* PX: the rows' vertical scroll, as the wheel over the labels */
        sv_timeline_set_scroll(self->timeline, g_ascii_strtod(arg, NULL));
    } else if (g_str_equal(verb, "expect-rows-drawn")) {
        /* the frame on screen was queried for every row now on screen */
        gboolean drawn = sv_timeline_rows_drawn(self->timeline);
        printf("rows on screen drawn: %s\n", drawn ? "yes" : "no");
        if (!drawn)
            script_fail(self, "rows on screen are not in the frame");
    } else if (g_str_equal(verb, "expect-rows-fit")) {
        /* yes|no: every timeline row within the canvas (no vertical scroll) */
        gboolean fit = sv_timeline_rows_fit(self->timeline);
        printf("rows fit: %s\n", fit ? "yes" : "no");
        if (fit != g_str_equal(arg, "yes"))
            script_fail(self, fit ? "the rows fit" : "the rows do not fit");
    } else if (g_str_equal(verb, "expect-file")) {
        char *base = self->path ? g_path_get_basename(self->path) : g_strdup("");
        printf("file %s\n", base);
        if (!g_str_equal(base, arg))
            script_fail(self, "another file is open");
        g_free(base);
    } else if (g_str_equal(verb, "set-colour") || g_str_equal(verb, "expect-colour")) {
        /* CATEGORY NAME (may hold spaces) then a colour GdkRGBA parses */
        const char *sp = strrchr(arg, ' ');
        char *cat = sp ? g_strndup(arg, (gsize)(sp - arg)) : NULL;
        GdkRGBA want;
        if (!cat || !gdk_rgba_parse(&want, sp + 1)) {
            script_fail(self, "set-colour/expect-colour want CATEGORY COLOUR");
        } else if (verb[0] == 's') {
            if (!sv_legend_set_color(self->legend, cat, &want))
                script_fail(self, "no such category");
        } else {
            guint32 have = 0, w = sv_legend_rgba_to_u32(&want);
            gboolean found = FALSE;
            for (uint32_t i = 0; i < self->doc->pal.n && !found; i++)
                if (g_str_equal(self->doc->cat_names[i], cat)) {
                    have = self->doc->pal.rgba[i];
                    found = TRUE;
                }
            printf("colour of %s: #%08x\n", cat, have);
            if (!found || have != w)
                script_fail(self, found ? "the category has another colour" : "no such category");
        }
        g_free(cat);
    } else if (g_str_equal(verb, "expect-style")) {
        /* light|dark: the label column (drawn by us) is light or dark as
         * the theme is, and the status bar (the theme's colours through
         * style.css) has its text in contrast with its background */
        gboolean want_dark = g_str_equal(arg, "dark");
        double labels = sv_style_mean_luminance(GTK_WIDGET(self->labels));
        GtkWidget *bar = gtk_widget_get_parent(GTK_WIDGET(self->status_window));
        double bar_bg = sv_style_mean_luminance(bar);
        double bar_fg = sv_style_text_luminance(GTK_WIDGET(self->status_window));
        printf("style %s: labels luminance %.2f, status bar background %.2f, text %.2f\n",
               sv_style_is_dark(GTK_WIDGET(self)) ? "dark" : "light", labels, bar_bg, bar_fg);
        if (!g_str_equal(arg, "light") && !want_dark)
            script_fail(self, "expect-style wants light or dark");
        else if (sv_style_is_dark(GTK_WIDGET(self)) != want_dark)
            script_fail(self, "the window has the other style");
        else if (labels < 0 || (want_dark ? labels > 0.35 : labels < 0.65))
            script_fail(self, "the label column does not follow the style");
        else if (bar_bg < 0 || fabs(bar_bg - bar_fg) < 0.4)
            script_fail(self, "the status bar's text does not stand out from its background");
    } else if (g_str_equal(verb, "sleep")) {
        self->sleep_until = g_get_monotonic_time() + 1000 * (gint64)g_ascii_strtoll(arg, NULL, 10);
    } else {
        script_fail(self, "unknown script command");
    }
    g_strfreev(argv);
    g_free(cmd);
    return G_SOURCE_CONTINUE;
}

void sv_window_run_script(SvWindow *self, const char *script)
{
    g_strfreev(self->script);
    self->script = g_strsplit(script, ";", -1);
    self->script_i = 0;
    if (!self->script_timer)
        self->script_timer = g_timeout_add(100, script_step, self);
}

/* ------------------------------------------------------------ class */

static void sv_window_dispose(GObject *o)
{
    SvWindow *self = SV_WINDOW(o);
    if (self->script_timer)
        g_source_remove(self->script_timer);
    self->script_timer = 0;
    if (self->pulse_id)
        g_source_remove(self->pulse_id);
    self->pulse_id = 0;
    stop_build(self);
    close_info(self);
    GCancellable *cs[] = {self->open_cancel, self->stats_cancel, self->search_cancel};
    for (size_t i = 0; i < G_N_ELEMENTS(cs); i++)
        if (cs[i])
            g_cancellable_cancel(cs[i]);
    g_clear_object(&self->open_cancel);
    g_clear_object(&self->stats_cancel);
    g_clear_object(&self->search_cancel);
    gtk_widget_dispose_template(GTK_WIDGET(self), SV_TYPE_WINDOW);
    G_OBJECT_CLASS(sv_window_parent_class)->dispose(o);
}

static void sv_window_finalize(GObject *o)
{
    SvWindow *self = SV_WINDOW(o);
    sv_doc_ref_release(self->doc);
    g_free(self->path);
    g_free(self->build_out);
    g_strfreev(self->script);
    G_OBJECT_CLASS(sv_window_parent_class)->finalize(o);
}

static void sv_window_class_init(SvWindowClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = sv_window_dispose;
    G_OBJECT_CLASS(klass)->finalize = sv_window_finalize;
    gtk_widget_class_set_template_from_resource(wc, "/org/slog2/View/sv-window.ui");
#define BIND(x) gtk_widget_class_bind_template_child(wc, SvWindow, x)
    BIND(title_label);
    BIND(subtitle_label);
    BIND(recent_button);
    BIND(search_entry);
    BIND(progress_revealer);
    BIND(status_revealer);
    BIND(progress_label);
    BIND(progress_bar);
    BIND(main_stack);
    BIND(side_stack);
    BIND(outer_paned);
    BIND(label_paned);
    BIND(sidebar);
    BIND(labels);
    BIND(overview);
    BIND(timeline);
    BIND(legend);
    BIND(stats_box);
    BIND(status_window);
    BIND(status_frame);
    BIND(status_file);
#undef BIND
    gtk_widget_class_bind_template_callback(wc, sv_window_cancel_clicked_cb);
}

static gboolean close_request_cb(GtkWindow *w, gpointer data)
{
    (void)data;
    sv_timeline_close_popover(SV_WINDOW(w)->timeline);
    return FALSE; /* go on closing */
}

static void sv_window_init(SvWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    g_signal_connect(self, "close-request", G_CALLBACK(close_request_cb), NULL);
    g_action_map_add_action_entries(G_ACTION_MAP(self), ACTIONS, G_N_ELEMENTS(ACTIONS), self);
    prefer_dark_changed_cb(NULL, NULL, self);
    g_signal_connect_object(gtk_settings_get_default(), "notify::gtk-application-prefer-dark-theme",
                            G_CALLBACK(prefer_dark_changed_cb), self, 0);
    if (sv_style_is_forced()) /* GTK_THEME decides */
        g_simple_action_set_enabled(
            G_SIMPLE_ACTION(g_action_map_lookup_action(G_ACTION_MAP(self), "dark-style")), FALSE);
    sv_labels_set_timeline(self->labels, self->timeline);
    sv_overview_widget_set_timeline(self->overview, self->timeline);
    g_signal_connect(self->timeline, "view-changed", G_CALLBACK(view_changed_cb), self);
    g_signal_connect(self->timeline, "frame-ready", G_CALLBACK(view_changed_cb), self);
    g_signal_connect(self->timeline, "history-changed", G_CALLBACK(history_cb), self);
    g_signal_connect(self->timeline, "range-selected", G_CALLBACK(range_selected_cb), self);
    g_signal_connect(self->timeline, "error", G_CALLBACK(timeline_error_cb), self);
    g_signal_connect(self->legend, "changed", G_CALLBACK(legend_changed_cb), self);
    g_signal_connect(self->search_entry, "activate", G_CALLBACK(entry_activate_cb), self);
    g_signal_connect(self->search_entry, "stop-search", G_CALLBACK(entry_stop_cb), self);
    g_signal_connect(self->search_entry, "search-changed", G_CALLBACK(entry_changed_cb), self);
    g_signal_connect(self->search_entry, "next-match", G_CALLBACK(entry_activate_cb), self);
    GtkEventController *k = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(k, GTK_PHASE_CAPTURE);
    g_signal_connect(k, "key-pressed", G_CALLBACK(entry_key_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self->search_entry), k);

    GtkDropTarget *drop = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[] = {GDK_TYPE_FILE_LIST, G_TYPE_FILE};
    gtk_drop_target_set_gtypes(drop, types, G_N_ELEMENTS(types));
    g_signal_connect(drop, "drop", G_CALLBACK(drop_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drop));

    gtk_paned_set_position(self->outer_paned, 1000);
    update_history_actions(self);
    rebuild_recent_menu(self);
    gtk_stack_set_visible_child_name(self->main_stack, "empty");
}

SvWindow *sv_window_new(GtkApplication *app)
{
    return g_object_new(SV_TYPE_WINDOW, "application", app, NULL);
}
