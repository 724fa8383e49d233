/* SPDX-License-Identifier: MIT */
/* sv-build.c - a DUMPI .meta or an OTF2 archive converted by slog2-build
 * in the background. */
#include "sv-window-private.h"

#include "otf2_build.h"

#include <glib/gstdio.h>
#include <signal.h>
#include <unistd.h>

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
        if (g_file_test(cand, G_FILE_TEST_IS_EXECUTABLE)) return cand;
        g_free(cand);
    }
    return g_find_program_in_path("slog2-build");
}

gboolean sv_window_needs_build(const char *path)
{
    /* An OTF2 archive is told by its anchor file's first bytes, as
     * slog2-build tells it, not by its name. */
    return g_str_has_suffix(path, ".meta") || otf2_is_anchor(path);
}

static char *cache_path_for(const char *meta)
{
    char *dir = g_path_get_dirname(meta);
    char *base = g_path_get_basename(meta);
    if (g_str_has_suffix(base, ".meta") || g_str_has_suffix(base, ".otf2")) base[strlen(base) - 5] = 0;
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

gboolean sv_window_pulse_cb(gpointer user)
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
    char *meta;
    gboolean allow_missing;
} build_job;

static void build_job_free(build_job *job)
{
    g_object_unref(job->self);
    g_object_unref(job->proc);
    g_string_free(job->err, TRUE);
    g_free(job->meta);
    g_free(job);
}

static void start_build(SvWindow *self, const char *meta, gboolean allow_missing);

/* The trace, again, without the ranks whose files are missing (what
 * slog2-build --allow-missing does; its advice named the option, which
 * the window had no way to pass). */
void sv_window_build_missing(SvWindow *self)
{
    char *meta = g_steal_pointer(&self->missing_meta);
    if (meta) start_build(self, meta, TRUE);
    g_free(meta);
}

static void missing_response_cb(GtkDialog *d, int response, SvWindow *self)
{
    gtk_window_destroy(GTK_WINDOW(d));
    if (response == GTK_RESPONSE_ACCEPT)
        sv_window_build_missing(self);
    else
        g_clear_pointer(&self->missing_meta, g_free);
}

/* slog2-build stopped for missing rank files: say which, and offer the
 * build from the ranks that are there. */
static void offer_missing(SvWindow *self, const char *meta, const char *msgs)
{
    g_free(self->missing_meta);
    self->missing_meta = g_strdup(meta);
    /* the builder's line, without its advice for the command line */
    char *what = g_strdup(msgs);
    char *cut = strstr(what, "; use --allow-missing");
    if (cut) strcpy(cut, "\n");
    g_strstrip(what);
    const char *line = g_str_has_prefix(what, "slog2-build: error: ") ? what + 20 : what;
    char *text = g_strdup_printf("%s.\n\nThe trace can be converted from the ranks that are there; the "
                                 "missing ones are left out and the file says so.",
                                 line);
    text[0] = g_ascii_toupper(text[0]);
    g_printerr("slog2-view: some rank files are missing: %s\n", line);
    if (self->script) {
        printf("missing ranks: offered a build without them\n");
        fflush(stdout);
    } else {
        GtkWidget *d =
            gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE, "Some ranks of the trace are missing");
        gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", text);
        gtk_dialog_add_button(GTK_DIALOG(d), "_Cancel", GTK_RESPONSE_CANCEL);
        GtkWidget *b =
            gtk_dialog_add_button(GTK_DIALOG(d), "_Build with the Ranks That Are There", GTK_RESPONSE_ACCEPT);
        gtk_widget_add_css_class(b, "suggested-action");
        gtk_dialog_set_default_response(GTK_DIALOG(d), GTK_RESPONSE_ACCEPT);
        g_signal_connect(d, "response", G_CALLBACK(missing_response_cb), self);
        gtk_window_present(GTK_WINDOW(d));
    }
    g_free(text);
    g_free(what);
}

/* The last "NN.N%" in the text so far, as a fraction; -1 if none. */
static double last_percent(const GString *s)
{
    for (gssize i = (gssize)s->len - 1; i > 0 && i > (gssize)s->len - 400; i--) {
        if (s->str[i] != '%') continue;
        gssize j = i;
        while (j > 0 && (g_ascii_isdigit(s->str[j - 1]) || s->str[j - 1] == '.')) j--;
        if (j < i) return g_ascii_strtod(s->str + j, NULL) / 100.0;
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
        if (g_str_has_prefix(t, "slog2-build:") || g_str_has_prefix(t, "  ")) g_string_append_printf(out, "%s\n", t);
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
    if (self->pulse_id) g_source_remove(self->pulse_id);
    self->pulse_id = 0;
    gboolean cancelled = self->build != job->proc;
    int status = g_subprocess_get_if_exited(job->proc) ? g_subprocess_get_exit_status(job->proc) : -1;
    char *msgs = builder_messages(job->err);
    if (!cancelled && (status == 0 || status == 3)) {
        sv_window_open_slog2(self, self->build_out);
        /* exit 3: built, but some rank was truncated or inconsistent */
        if (status == 3) sv_window_error_dialog(self, "slog2-build finished with warnings", msgs);
    } else if (!cancelled && status == 1 && !job->allow_missing && strstr(msgs, "--allow-missing")) {
        gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
        offer_missing(self, job->meta, msgs);
    } else if (!cancelled) {
        gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
        sv_window_error_dialog(self, "slog2-build failed", error ? error->message : (*msgs ? msgs : "unknown error"));
    }
    if (!cancelled) g_clear_object(&self->build);
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
            if (job->self->pulse_id) g_source_remove(job->self->pulse_id);
            job->self->pulse_id = 0;
            gtk_progress_bar_set_fraction(job->self->progress_bar, CLAMP(f, 0, 1));
        }
        g_bytes_unref(b);
        g_input_stream_read_bytes_async(G_INPUT_STREAM(src), 4096, G_PRIORITY_DEFAULT, NULL, build_read, job);
        return;
    }
    if (b) g_bytes_unref(b);
    g_subprocess_wait_async(job->proc, NULL, build_waited, job);
}

void sv_window_open_meta(SvWindow *self, const char *meta)
{
    char *out = cache_path_for(meta);
    GStatBuf a, b;
    if (g_stat(out, &b) == 0 && g_stat(meta, &a) == 0 && b.st_mtime >= a.st_mtime) {
        sv_window_open_slog2(self, out); /* cached conversion is up to date */
        g_free(out);
        return;
    }
    g_free(out);
    start_build(self, meta, FALSE);
}

static void start_build(SvWindow *self, const char *meta, gboolean allow_missing)
{
    char *out = cache_path_for(meta);
    char *builder = find_builder();
    if (!builder) {
        sv_window_error_dialog(self, "Cannot convert the trace",
                               "slog2-build was not found next to slog2-view nor in PATH.");
        g_free(out);
        return;
    }
    GError *error = NULL;
    self->build = g_subprocess_new(G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error, builder,
                                   "--progress", meta, "-o", out, allow_missing ? "--allow-missing" : NULL, NULL);
    g_free(builder);
    if (!self->build) {
        sv_window_error_dialog(self, "Cannot start slog2-build", error->message);
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
    self->pulse_id = g_timeout_add(120, sv_window_pulse_cb, self);
    build_job *job = g_new0(build_job, 1);
    job->self = g_object_ref(self);
    job->proc = g_object_ref(self->build);
    job->err = g_string_new(NULL);
    job->meta = g_strdup(meta);
    job->allow_missing = allow_missing;
    g_input_stream_read_bytes_async(g_subprocess_get_stderr_pipe(self->build), 4096, G_PRIORITY_DEFAULT, NULL,
                                    build_read, job);
}

/* Stop a running conversion. SIGTERM, not force_exit's SIGKILL:
 * slog2-build then removes its half-written temporary file before it ends.
 * self->build goes NULL first, which marks the build as cancelled for
 * build_done. */
void sv_window_stop_build(SvWindow *self)
{
    GSubprocess *p = g_steal_pointer(&self->build);
    if (p) {
        g_subprocess_send_signal(p, SIGTERM);
        g_object_unref(p);
    }
}
