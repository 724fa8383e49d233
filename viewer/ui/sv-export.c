/* SPDX-License-Identifier: MIT */
/* sv-export.c - the view saved as PNG, SVG or PDF (win.export, Ctrl+E):
 * the window's time window, rows on screen, colours, hidden categories and
 * style, drawn by the code of `slog2-view --render --legend` on a worker
 * thread (it reads the file again). */
#include "sv-window-private.h"

#include <stdio.h>

#include "export.h"

typedef struct export_job {
    char *file, *out, *msg_filter;
    sv_headless_opts o;
    uint32_t *rgba;
    uint8_t *visible;
} export_job;

static void export_job_free(export_job *j)
{
    g_free(j->file);
    g_free(j->out);
    g_free(j->msg_filter);
    g_free(j->rgba);
    g_free(j->visible);
    g_free(j);
}

static void export_thread(GTask *task, gpointer src, gpointer data, GCancellable *c)
{
    export_job *j = data;
    char *msg = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&msg, &n);
    int rc = err ? sv_headless_render(&j->o, err) : 1;
    if (err) fclose(err);
    if (rc == 0)
        g_task_return_boolean(task, TRUE);
    else
        g_task_return_new_error(task, G_IO_ERROR, G_IO_ERROR_FAILED, "%s",
                                msg && *msg ? g_strstrip(msg) : "the image could not be written");
    free(msg);
}

static void export_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = SV_WINDOW(src);
    GError *error = NULL;
    export_job *j = g_task_get_task_data(G_TASK(res));
    self->export_busy = FALSE;
    if (g_task_propagate_boolean(G_TASK(res), &error)) {
        char *base = g_path_get_basename(j->out);
        char *s = g_strdup_printf("Exported the view to %s", base);
        gtk_label_set_text(self->status_frame, s);
        if (self->script) printf("exported %s\n", j->out), fflush(stdout);
        g_free(s);
        g_free(base);
    } else {
        sv_window_error_dialog(self, "Cannot export the view", error->message);
        if (self->script) sv_script_exit_status = 1;
    }
    g_clear_error(&error);
}

void sv_window_export(SvWindow *self, const char *out)
{
    if (!self->doc || !self->path || self->export_busy) return;
    export_job *j = g_new0(export_job, 1);
    j->file = g_strdup(self->path);
    j->out = g_strdup(out);
    const sv_palette *pal = &self->doc->pal;
    j->rgba = g_memdup2(pal->rgba, sizeof *pal->rgba * (pal->n + 1));
    j->visible = g_memdup2(pal->visible, pal->n + 1);
    sv_headless_opts *o = &j->o;
    o->file = j->file;
    o->out = j->out;
    o->rgba = j->rgba;
    o->visible = j->visible;
    o->legend = 1;
    o->arrows = pal->arrows;
    o->message_filter = j->msg_filter = g_strdup(self->msg_filter);
    o->dark = sv_style_is_dark(GTK_WIDGET(self));
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    o->t0_s = vp->t0 / 1e9;
    o->t1_s = vp->t1 / 1e9;
    /* the rows on screen (their ids' span) */
    const sv_layout *lay = sv_timeline_get_layout(self->timeline);
    double top = sv_timeline_get_scroll(self->timeline);
    double bottom = top + gtk_widget_get_height(GTK_WIDGET(self->timeline)) - SV_RULER_H;
    int64_t lo = -1, hi = -1;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        if (r->timeline >= 0 && r->y + r->h > top && r->y < bottom) {
            lo = lo < 0 || r->timeline < lo ? r->timeline : lo;
            hi = r->timeline > hi ? r->timeline : hi;
        }
    }
    if (lo >= 0 && !sv_timeline_rows_fit(self->timeline)) {
        o->have_timelines = 1;
        o->tl_first = (unsigned)lo;
        o->tl_last = (unsigned)hi;
    }
    /* the picture the size of the label column and canvas, the legend
     * below it */
    int w = gtk_widget_get_width(GTK_WIDGET(self->label_paned));
    int h = gtk_widget_get_height(GTK_WIDGET(self->label_paned));
    o->width = CLAMP(w, 400, SV_SIZE_MAX);
    o->height = CLAMP(h, 300, SV_SIZE_MAX);
    o->height = CLAMP(o->height + (int)sv_legend_height(o->width, pal, self->doc->cat_names, "caption", NULL),
                      SV_SIZE_MIN, SV_SIZE_MAX);
    self->export_busy = TRUE;
    GTask *t = g_task_new(self, NULL, export_done, NULL);
    g_task_set_task_data(t, j, (GDestroyNotify)export_job_free);
    g_task_run_in_thread(t, export_thread);
    g_object_unref(t);
}

static void export_response_cb(GtkNativeDialog *d, int response, SvWindow *self)
{
    if (response == GTK_RESPONSE_ACCEPT) {
        GFile *f = gtk_file_chooser_get_file(GTK_FILE_CHOOSER(d));
        char *path = f ? g_file_get_path(f) : NULL;
        if (path) sv_window_export(self, path);
        g_free(path);
        g_clear_object(&f);
    }
    g_object_unref(d);
}

void sv_window_export_dialog(SvWindow *self)
{
    if (!self->doc) return;
    GtkFileChooserNative *d = gtk_file_chooser_native_new("Export View", GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                          "_Export", "_Cancel");
    static const char *const kinds[][2] = {{"PNG image", "*.png"}, {"SVG drawing", "*.svg"}, {"PDF document", "*.pdf"}};
    GtkFileFilter *all = gtk_file_filter_new();
    gtk_file_filter_set_name(all, "Images (the format by the extension: .png, .svg, .pdf)");
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) gtk_file_filter_add_pattern(all, kinds[i][1]);
    gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), all);
    g_object_unref(all);
    for (size_t i = 0; i < G_N_ELEMENTS(kinds); i++) {
        GtkFileFilter *f = gtk_file_filter_new();
        gtk_file_filter_set_name(f, kinds[i][0]);
        gtk_file_filter_add_pattern(f, kinds[i][1]);
        gtk_file_chooser_add_filter(GTK_FILE_CHOOSER(d), f);
        g_object_unref(f);
    }
    /* next to the trace, named after it and the window's start */
    char *dir = g_path_get_dirname(self->path), *base = g_path_get_basename(self->path);
    char *dot = strrchr(base, '.');
    if (dot) *dot = 0;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    char *name = g_strdup_printf("%s-%.6fs.png", base, vp->t0 / 1e9);
    GFile *folder = g_file_new_for_path(dir);
    gtk_file_chooser_set_current_folder(GTK_FILE_CHOOSER(d), folder, NULL);
    gtk_file_chooser_set_current_name(GTK_FILE_CHOOSER(d), name);
    g_object_unref(folder);
    g_free(name);
    g_free(dir);
    g_free(base);
    g_signal_connect(d, "response", G_CALLBACK(export_response_cb), self);
    gtk_native_dialog_show(GTK_NATIVE_DIALOG(d));
}
