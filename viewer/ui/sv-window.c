/* SPDX-License-Identifier: MIT */
/* sv-window.c - see sv-window.h.
 *
 * Actions (tests drive them by name): win.open, win.open-recent(s),
 * win.zoom-in, win.zoom-out, win.zoom-fit, win.back, win.forward,
 * win.pan-left, win.pan-right, win.go-start, win.go-end, win.search,
 * win.find-next, win.find-prev, win.zoom-to-range, win.show-sidebar,
 * win.show-statusbar, win.absolute-time, win.compact-rows, win.dark-style,
 * win.show-info, win.show-matrix, win.show-profile, win.export;
 * GtkApplication adds win.show-help-overlay (help-overlay.ui, Ctrl+?).
 */
#include "sv-window.h"

#include <glib/gstdio.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "sv-matrix.h"
#include "sv-profile.h"
#include "sv-window-private.h"

G_DEFINE_FINAL_TYPE(SvWindow, sv_window, GTK_TYPE_APPLICATION_WINDOW)

void sv_window_error_dialog(SvWindow *self, const char *primary, const char *secondary)
{
    g_printerr("slog2-view: %s: %s\n", primary, secondary);
    if (self->script) return; /* scripted runs report on stderr and go on */
    GtkWidget *d = gtk_message_dialog_new(GTK_WINDOW(self), GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                          GTK_MESSAGE_ERROR, GTK_BUTTONS_CLOSE, "%s", primary);
    gtk_message_dialog_format_secondary_text(GTK_MESSAGE_DIALOG(d), "%s", secondary);
    g_signal_connect(d, "response", G_CALLBACK(gtk_window_destroy), NULL);
    gtk_window_present(GTK_WINDOW(d));
}

/* ------------------------------------------------------------ status */

static void update_status(SvWindow *self)
{
    if (!self->doc) return;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    char a[64], b[64], d[64];
    double offset = sv_timeline_get_time_offset(self->timeline); /* as the ruler */
    sv_format_time((int64_t)(vp->t0 + offset), a, sizeof a);
    sv_format_time((int64_t)(vp->t1 + offset), b, sizeof b);
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

/* ------------------------------------------------------------ recent */

/* The folder of path for a menu: "~/..." under the home directory. */
static char *folder_label(const char *path)
{
    char *dir = g_path_get_dirname(path);
    const char *home = g_get_home_dir();
    size_t n = strlen(home);
    if (n > 1 && g_str_has_prefix(dir, home) && (dir[n] == '/' || !dir[n])) {
        char *t = g_strconcat("~", dir + n, NULL);
        g_free(dir);
        dir = t;
    }
    return dir;
}

/* The last ten traces opened that still exist, newest first. A name that
 * is there twice (runs of one code in two folders) gets its folder: the
 * menu showed two identical lines. */
static void rebuild_recent_menu(SvWindow *self)
{
    GMenu *menu = g_menu_new();
    GtkRecentManager *rm = gtk_recent_manager_get_default();
    GList *items = gtk_recent_manager_get_items(rm);
    items = g_list_sort(items, (GCompareFunc)sv_window_recent_newer);
    GPtrArray *uris = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
    for (GList *l = items; l && uris->len < 10; l = l->next) {
        GtkRecentInfo *ri = l->data;
        const char *uri = gtk_recent_info_get_uri(ri);
        if (!g_str_has_suffix(uri, ".slog2") && !g_str_has_suffix(uri, ".meta")) continue;
        char *path = g_filename_from_uri(uri, NULL, NULL);
        if (!path || !g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
            g_free(path);
            continue;
        }
        g_ptr_array_add(uris, g_strdup(uri));
        g_ptr_array_add(paths, path);
    }
    g_list_free_full(items, (GDestroyNotify)gtk_recent_info_unref);
    for (guint i = 0; i < uris->len; i++) {
        char *base = g_path_get_basename(paths->pdata[i]);
        gboolean twice = FALSE;
        for (guint k = 0; k < uris->len && !twice; k++) {
            char *other = g_path_get_basename(paths->pdata[k]);
            twice = k != i && g_str_equal(base, other);
            g_free(other);
        }
        char *folder = twice ? folder_label(paths->pdata[i]) : NULL;
        char *label = twice ? g_strdup_printf("%s — %s", base, folder) : g_strdup(base);
        GMenuItem *it = g_menu_item_new(label, NULL);
        g_menu_item_set_action_and_target(it, "win.open-recent", "s", uris->pdata[i]);
        g_menu_append_item(menu, it);
        g_object_unref(it);
        g_free(label);
        g_free(folder);
        g_free(base);
    }
    if (uris->len == 0) g_menu_append(menu, "No recent files", "win.none");
    gtk_menu_button_set_menu_model(self->recent_button, G_MENU_MODEL(menu));
    g_object_unref(menu);
    g_ptr_array_unref(uris);
    g_ptr_array_unref(paths);
}

int sv_window_recent_newer(gconstpointer a, gconstpointer b)
{
    GDateTime *ta = gtk_recent_info_get_modified((GtkRecentInfo *)a);
    GDateTime *tb = gtk_recent_info_get_modified((GtkRecentInfo *)b);
    return ta && tb ? g_date_time_compare(tb, ta) : 0;
}

char *sv_window_describe_recent(SvWindow *self)
{
    rebuild_recent_menu(self);
    GMenuModel *m = gtk_menu_button_get_menu_model(self->recent_button);
    GString *out = g_string_new(NULL);
    for (int i = 0; m && i < g_menu_model_get_n_items(m); i++) {
        char *label = NULL;
        g_menu_model_get_item_attribute(m, i, G_MENU_ATTRIBUTE_LABEL, "s", &label);
        g_string_append_printf(out, "%s\n", label ? label : "");
        g_free(label);
    }
    return g_string_free(out, FALSE);
}

/* GTK reads its list of recent files after the window is made (the first
 * run's menu said "No recent files" with the file in the list): the menu
 * is built as it opens, and again whenever the list changes. */
static void recent_popup_cb(GtkMenuButton *b, gpointer user)
{
    rebuild_recent_menu(user);
}

static void recent_changed_cb(GtkRecentManager *rm, SvWindow *self)
{
    rebuild_recent_menu(self);
}

/* ------------------------------------------------------------ open */

/* The Trace Information window belongs to the file it was opened on. */
void sv_window_close_info(SvWindow *self)
{
    if (self->info) gtk_window_destroy(self->info);
}

static void set_doc(SvWindow *self, SvDocRef *doc, const char *path)
{
    sv_window_close_info(self);
    g_clear_pointer(&self->read_error, g_free);
    sv_window_msgfilter_detach(self);
    sv_window_search_reset(self);
    sv_doc_ref_release(self->doc);
    self->doc = doc ? sv_doc_ref_acquire(doc) : NULL;
    sv_window_msgfilter_attach(self);
    g_free(self->path);
    self->path = g_strdup(path);
    sv_legend_set_doc(self->legend, doc);
    sv_timeline_set_doc(self->timeline, doc);
    /* the range selected in the last file is gone with it */
    sv_window_show_no_range(self);
    sv_overview_widget_reload(self->overview);
    char *base = g_path_get_basename(path);
    gtk_label_set_text(self->title_label, base);
    gtk_window_set_title(GTK_WINDOW(self), base);
    const slog_file_info *fi = doc->fi;
    char dur[32], size[32];
    sv_format_duration((double)(fi->t_max - fi->t_min), dur, sizeof dur);
    sv_format_bytes((double)fi->file_size, size, sizeof size);
    char *sub =
        g_strdup_printf("%u timelines · %" G_GUINT64_FORMAT " drawables · %s", fi->n_timelines, fi->n_drawables, dur);
    gtk_label_set_text(self->subtitle_label, sub);
    g_free(sub);
    char *f = g_strdup_printf("%s · %s · format %u.%u", path, size, fi->version_major, fi->version_minor);
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
        if (uri && !self->script) gtk_recent_manager_add_item(gtk_recent_manager_get_default(), uri);
        g_free(uri);
        rebuild_recent_menu(self);
        sv_doc_ref_release(doc);
    } else if (!g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
        /* libslog's message names the file and the byte offset; a file
         * that does not open is no recent file (the file chooser may have
         * put it in the list) */
        char *uri = g_filename_to_uri(path, NULL, NULL);
        if (uri) gtk_recent_manager_remove_item(gtk_recent_manager_get_default(), uri, NULL);
        g_free(uri);
        sv_window_error_dialog(self, "Cannot open the file", error->message);
        if (self->script) sv_script_exit_status = 3;
    }
    g_clear_error(&error);
    g_object_unref(self);
}

void sv_window_open_slog2(SvWindow *self, const char *path)
{
    if (self->open_cancel) g_cancellable_cancel(self->open_cancel);
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

void sv_window_cancel_clicked_cb(GtkButton *b, SvWindow *self)
{
    sv_window_stop_build(self);
    if (self->open_cancel) g_cancellable_cancel(self->open_cancel);
    gtk_revealer_set_reveal_child(self->progress_revealer, FALSE);
}

void sv_window_open_file(SvWindow *self, GFile *file)
{
    char *path = g_file_get_path(file);
    if (!path) {
        sv_window_error_dialog(self, "Cannot open the file", "Only local files can be opened.");
        return;
    }
    if (sv_window_needs_build(path))
        sv_window_open_meta(self, path);
    else
        sv_window_open_slog2(self, path);
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
    GtkFileChooserNative *d =
        gtk_file_chooser_native_new("Open Trace", GTK_WINDOW(self), GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
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

gboolean sv_window_drop_cb(GtkDropTarget *t, const GValue *v, double x, double y, SvWindow *self)
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

/* win.NAME of the view (header buttons, accelerators, bare keys, the
 * Selection tab's Zoom to Range, scripts): the timeline's own action. */
static void timeline_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    char *name = g_strconcat("timeline.", g_action_get_name(G_ACTION(a)), NULL);
    gtk_widget_activate_action(GTK_WIDGET(self->timeline), name, NULL);
    g_free(name);
}

static void search_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    gtk_widget_grab_focus(GTK_WIDGET(self->search_entry));
}

static void find_next_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    sv_window_find(u, 1);
}
static void find_prev_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    sv_window_find(u, -1);
}

static void export_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    sv_window_export_dialog(u);
}

static void info_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    if (!self->doc) return;
    if (!self->info) {
        self->info = sv_info_window_new(GTK_WINDOW(self), self->doc, self->path);
        g_object_add_weak_pointer(G_OBJECT(self->info), (gpointer *)&self->info);
    }
    gtk_window_present(self->info);
}

/* The analysis windows follow the view and survive a change of file.
 * Forgotten once destroyed (a worker's reference may keep one alive for
 * a while), so that the menu makes a new one. */
static void analysis_destroyed_cb(GtkWidget *w, SvWindow *self)
{
    if (self->matrix == GTK_WINDOW(w)) self->matrix = NULL;
    if (self->profile == GTK_WINDOW(w)) self->profile = NULL;
}

static void matrix_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    if (!self->doc) return;
    if (!self->matrix) {
        self->matrix = GTK_WINDOW(sv_matrix_window_new(self));
        g_signal_connect_object(self->matrix, "destroy", G_CALLBACK(analysis_destroyed_cb), self, 0);
    }
    gtk_window_present(self->matrix);
}

static void profile_action(GSimpleAction *a, GVariant *p, gpointer u)
{
    SvWindow *self = u;
    if (!self->doc) return;
    if (!self->profile) {
        self->profile = GTK_WINDOW(sv_profile_window_new(self));
        g_signal_connect_object(self->profile, "destroy", G_CALLBACK(analysis_destroyed_cb), self, 0);
    }
    gtk_window_present(self->profile);
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
    {"zoom-in", timeline_action, NULL, NULL, NULL, {0}},
    {"zoom-out", timeline_action, NULL, NULL, NULL, {0}},
    {"zoom-fit", timeline_action, NULL, NULL, NULL, {0}},
    {"back", timeline_action, NULL, NULL, NULL, {0}},
    {"forward", timeline_action, NULL, NULL, NULL, {0}},
    {"pan-left", timeline_action, NULL, NULL, NULL, {0}},
    {"pan-right", timeline_action, NULL, NULL, NULL, {0}},
    {"go-start", timeline_action, NULL, NULL, NULL, {0}},
    {"go-end", timeline_action, NULL, NULL, NULL, {0}},
    {"search", search_action, NULL, NULL, NULL, {0}},
    {"find-next", find_next_action, NULL, NULL, NULL, {0}},
    {"find-prev", find_prev_action, NULL, NULL, NULL, {0}},
    {"zoom-to-range", timeline_action, NULL, NULL, NULL, {0}},
    {"show-info", info_action, NULL, NULL, NULL, {0}},
    {"show-matrix", matrix_action, NULL, NULL, NULL, {0}},
    {"show-profile", profile_action, NULL, NULL, NULL, {0}},
    {"export", export_action, NULL, NULL, NULL, {0}},
    {"show-sidebar", NULL, NULL, "true", toggle_state, {0}},
    {"show-statusbar", NULL, NULL, "true", toggle_state, {0}},
    {"absolute-time", NULL, NULL, "false", toggle_state, {0}},
    {"compact-rows", NULL, NULL, "false", toggle_state, {0}},
    {"dark-style", NULL, NULL, "false", toggle_state, {0}},
};

static void stats_done(GObject *src, GAsyncResult *res, gpointer user)
{
    SvWindow *self = user;
    GError *error = NULL;
    sv_range_stats *st = sv_query_range_stats_finish(res, &error);
    if (g_task_get_cancellable(G_TASK(res)) == self->stats_cancel) self->stats_busy = FALSE;
    if (st && g_task_get_cancellable(G_TASK(res)) == self->stats_cancel && self->doc) {
        sv_stats_panel_show_stats(self->stats_panel, self->doc, st);
        if (self->script)
            printf("range stats: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT " bytes\n", st->n_messages,
                   st->msg_bytes),
                fflush(stdout);
    } else if (error && !g_error_matches(error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        sv_window_error_dialog(self, "Statistics failed", error->message);
    sv_query_stats_free(st);
    g_clear_error(&error);
    g_object_unref(self);
}

void sv_window_show_no_range(SvWindow *self)
{
    if (self->stats_cancel) g_cancellable_cancel(self->stats_cancel);
    g_clear_object(&self->stats_cancel);
    self->stats_busy = FALSE;
    sv_stats_panel_show_none(self->stats_panel);
    gtk_stack_set_visible_child_name(self->side_stack, "legend");
}

static void range_selected_cb(SvTimeline *tl, double t0, double t1, SvWindow *self)
{
    if (self->stats_cancel) g_cancellable_cancel(self->stats_cancel);
    g_clear_object(&self->stats_cancel);
    if (!(t1 > t0) || !self->doc) {
        sv_window_show_no_range(self);
        return;
    }
    self->stats_cancel = g_cancellable_new();
    self->stats_busy = TRUE;
    sv_stats_panel_show_computing(self->stats_panel);
    g_action_group_change_action_state(G_ACTION_GROUP(self), "show-sidebar", g_variant_new_boolean(TRUE));
    gtk_stack_set_visible_child_name(self->side_stack, "selection");
    sv_query_range_stats_async(self->doc, (int64_t)floor(t0), (int64_t)ceil(t1), self->stats_cancel, stats_done,
                               g_object_ref(self));
}

/* ------------------------------------------------------------ signals */

static void view_changed_cb(SvTimeline *tl, SvWindow *self)
{
    update_status(self);
    sv_window_link_view_changed(self);
}

/* Each frame that meets an unreadable node says so; the user is told once
 * per file (on every pan the dialog came back), the canvas hatches the
 * rest. The status bar drops its "loading…". */
static void timeline_error_cb(SvTimeline *tl, const char *msg, SvWindow *self)
{
    update_status(self);
    if (self->read_error) return;
    g_free(self->read_error);
    self->read_error = g_strdup(msg);
    sv_window_error_dialog(self, "Cannot read part of the file", *msg ? msg : "unknown error");
    if (self->script) printf("read error: %s\n", msg), fflush(stdout);
}

static void legend_changed_cb(SvLegend *l, SvWindow *self)
{
    sv_timeline_palette_changed(self->timeline);
    gtk_widget_queue_draw(GTK_WIDGET(self->overview));
}

static gboolean entry_key_cb(GtkEventControllerKey *k, guint keyval, guint code, GdkModifierType st, SvWindow *self)
{
    if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter) && (st & GDK_SHIFT_MASK)) {
        sv_window_find(self, -1);
        return TRUE;
    }
    return FALSE;
}

static void entry_stop_cb(GtkSearchEntry *e, SvWindow *self)
{
    gtk_widget_grab_focus(GTK_WIDGET(self->timeline));
}

/* Enter searches and hands the keys back to the canvas: + zooms again
 * instead of going on typing into the entry. F3 / Ctrl+G (and with
 * Shift) find the next (previous) match from anywhere. */
static void entry_activate_cb(GtkSearchEntry *e, SvWindow *self)
{
    sv_window_find(self, 1);
    gtk_widget_grab_focus(GTK_WIDGET(self->timeline));
}

/* Ctrl+G, Shift+Ctrl+G in the entry (GtkSearchEntry's own keys) */
static void entry_next_cb(GtkSearchEntry *e, SvWindow *self)
{
    sv_window_find(self, 1);
}

static void entry_previous_cb(GtkSearchEntry *e, SvWindow *self)
{
    sv_window_find(self, -1);
}

/* The window's bare keys (+ - 0, arrows, Home, End) work wherever the
 * focus is, but in a text entry: they once lived on the canvas alone and
 * died after a click on the legend, its tab or its filter. Taken in the
 * capture phase, before a focused button or list uses an arrow to move
 * the focus. */
static gboolean window_key_cb(GtkEventControllerKey *k, guint keyval, guint code, GdkModifierType st, SvWindow *self)
{
    static const struct {
        guint key;
        const char *action;
    } KEYS[] = {
        {GDK_KEY_plus, "zoom-in"},    {GDK_KEY_equal, "zoom-in"},        {GDK_KEY_KP_Add, "zoom-in"},
        {GDK_KEY_minus, "zoom-out"},  {GDK_KEY_KP_Subtract, "zoom-out"}, {GDK_KEY_0, "zoom-fit"},
        {GDK_KEY_KP_0, "zoom-fit"},   {GDK_KEY_Left, "pan-left"},        {GDK_KEY_KP_Left, "pan-left"},
        {GDK_KEY_Right, "pan-right"}, {GDK_KEY_KP_Right, "pan-right"},   {GDK_KEY_Home, "go-start"},
        {GDK_KEY_End, "go-end"},
    };
    if (!self->doc || (st & (GDK_CONTROL_MASK | GDK_ALT_MASK | GDK_SUPER_MASK))) return FALSE;
    GtkWidget *focus = gtk_root_get_focus(GTK_ROOT(self));
    if (focus && GTK_IS_EDITABLE(focus)) return FALSE;
    for (size_t i = 0; i < G_N_ELEMENTS(KEYS); i++)
        if (KEYS[i].key == keyval) {
            g_action_group_activate_action(G_ACTION_GROUP(self), KEYS[i].action, NULL);
            return TRUE;
        }
    return FALSE;
}

/* search-changed comes ~150 ms after the last key: Enter within that
 * time has searched already, and its "not found" is about this text. */
static void entry_changed_cb(GtkSearchEntry *e, SvWindow *self)
{
    if (self->searched && g_str_equal(self->searched, gtk_editable_get_text(GTK_EDITABLE(e)))) return;
    gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
    sv_window_search_status(self, NULL, FALSE);
}

/* Adwaita's label/canvas splitter takes presses up to 16 px right of its
 * line, in the canvas: a Shift+drag to select from the first time on
 * screen moved the splitter instead (leaving a sliver of canvas). Its drag
 * is given up when it starts inside the timeline or overview, which then
 * gets the press; the line and the label column still move it. */
static void label_paned_drag_begin_cb(GtkGestureDrag *g, double x, double y, SvWindow *self)
{
    graphene_point_t canvas;
    if (gtk_widget_compute_point(GTK_WIDGET(self->timeline), GTK_WIDGET(self->label_paned), &GRAPHENE_POINT_INIT(0, 0),
                                 &canvas) &&
        x >= canvas.x + 1)
        gtk_gesture_set_state(GTK_GESTURE(g), GTK_EVENT_SEQUENCE_DENIED);
}

static void guard_label_paned(SvWindow *self)
{
    GListModel *cs = gtk_widget_observe_controllers(GTK_WIDGET(self->label_paned));
    for (guint i = 0; i < g_list_model_get_n_items(cs); i++) {
        GObject *c = g_list_model_get_item(cs, i);
        if (GTK_IS_GESTURE_DRAG(c)) g_signal_connect(c, "drag-begin", G_CALLBACK(label_paned_drag_begin_cb), self);
        g_object_unref(c);
    }
    g_object_unref(cs);
}

/* ------------------------------------------------------------ class */

static void sv_window_dispose(GObject *o)
{
    SvWindow *self = SV_WINDOW(o);
    if (self->script_timer) g_source_remove(self->script_timer);
    self->script_timer = 0;
    if (self->pulse_id) g_source_remove(self->pulse_id);
    self->pulse_id = 0;
    sv_window_stop_build(self);
    sv_window_close_info(self);
    if (self->matrix) gtk_window_destroy(self->matrix);
    if (self->profile) gtk_window_destroy(self->profile);
    GCancellable *cs[] = {self->open_cancel, self->stats_cancel, self->search_cancel};
    for (size_t i = 0; i < G_N_ELEMENTS(cs); i++)
        if (cs[i]) g_cancellable_cancel(cs[i]);
    g_clear_object(&self->open_cancel);
    g_clear_object(&self->stats_cancel);
    g_clear_object(&self->search_cancel);
    gtk_widget_dispose_template(GTK_WIDGET(self), SV_TYPE_WINDOW);
    G_OBJECT_CLASS(sv_window_parent_class)->dispose(o);
}

static void sv_window_finalize(GObject *o)
{
    SvWindow *self = SV_WINDOW(o);
    sv_window_msgfilter_detach(self);
    g_free(self->msg_filter);
    sv_doc_ref_release(self->doc);
    g_free(self->path);
    g_free(self->build_out);
    g_free(self->missing_meta);
    g_free(self->searched);
    g_strfreev(self->script);
    g_free(self->wait_path);
    g_free(self->read_error);
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
    BIND(rowbar);
    BIND(overview);
    BIND(timeline);
    BIND(legend);
    BIND(stats_panel);
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
    self->header = GTK_HEADER_BAR(gtk_window_get_titlebar(GTK_WINDOW(self)));
    sv_window_search_init(self);
    sv_window_msgfilter_init(self);
    sv_window_link_init(self);
    g_signal_connect(self, "close-request", G_CALLBACK(close_request_cb), NULL);
    g_action_map_add_action_entries(G_ACTION_MAP(self), ACTIONS, G_N_ELEMENTS(ACTIONS), self);
    prefer_dark_changed_cb(NULL, NULL, self);
    g_signal_connect_object(gtk_settings_get_default(), "notify::gtk-application-prefer-dark-theme",
                            G_CALLBACK(prefer_dark_changed_cb), self, 0);
    if (sv_style_is_forced()) /* GTK_THEME decides */
        g_simple_action_set_enabled(G_SIMPLE_ACTION(g_action_map_lookup_action(G_ACTION_MAP(self), "dark-style")),
                                    FALSE);
    sv_labels_set_timeline(self->labels, self->timeline);
    sv_rowbar_set_timeline(self->rowbar, self->timeline);
    sv_overview_widget_set_timeline(self->overview, self->timeline);
    g_signal_connect(self->timeline, "view-changed", G_CALLBACK(view_changed_cb), self);
    g_signal_connect(self->timeline, "frame-ready", G_CALLBACK(view_changed_cb), self);
    /* back and forward are there when the timeline's history has them */
    g_object_bind_property(self->timeline, "can-back", g_action_map_lookup_action(G_ACTION_MAP(self), "back"),
                           "enabled", G_BINDING_SYNC_CREATE);
    g_object_bind_property(self->timeline, "can-forward", g_action_map_lookup_action(G_ACTION_MAP(self), "forward"),
                           "enabled", G_BINDING_SYNC_CREATE);
    g_signal_connect(self->timeline, "range-selected", G_CALLBACK(range_selected_cb), self);
    g_signal_connect(self->timeline, "error", G_CALLBACK(timeline_error_cb), self);
    g_signal_connect(self->legend, "changed", G_CALLBACK(legend_changed_cb), self);
    g_signal_connect(self->search_entry, "activate", G_CALLBACK(entry_activate_cb), self);
    g_signal_connect(self->search_entry, "stop-search", G_CALLBACK(entry_stop_cb), self);
    g_signal_connect(self->search_entry, "search-changed", G_CALLBACK(entry_changed_cb), self);
    g_signal_connect(self->search_entry, "next-match", G_CALLBACK(entry_next_cb), self);
    g_signal_connect(self->search_entry, "previous-match", G_CALLBACK(entry_previous_cb), self);
    GtkSearchEntry *filter = sv_legend_get_filter(self->legend);
    g_signal_connect(filter, "activate", G_CALLBACK(entry_stop_cb), self);
    g_signal_connect(filter, "stop-search", G_CALLBACK(entry_stop_cb), self);
    GtkEventController *wk = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(wk, GTK_PHASE_CAPTURE);
    g_signal_connect(wk, "key-pressed", G_CALLBACK(window_key_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), wk);
    GtkEventController *k = gtk_event_controller_key_new();
    gtk_event_controller_set_propagation_phase(k, GTK_PHASE_CAPTURE);
    g_signal_connect(k, "key-pressed", G_CALLBACK(entry_key_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self->search_entry), k);

    GtkDropTarget *drop = gtk_drop_target_new(G_TYPE_INVALID, GDK_ACTION_COPY);
    GType types[] = {GDK_TYPE_FILE_LIST, G_TYPE_FILE};
    gtk_drop_target_set_gtypes(drop, types, G_N_ELEMENTS(types));
    g_signal_connect(drop, "drop", G_CALLBACK(sv_window_drop_cb), self);
    gtk_widget_add_controller(GTK_WIDGET(self), GTK_EVENT_CONTROLLER(drop));

    guard_label_paned(self);
    gtk_paned_set_position(self->outer_paned, 1000);
    rebuild_recent_menu(self);
    gtk_menu_button_set_create_popup_func(self->recent_button, recent_popup_cb, self, NULL);
    g_signal_connect_object(gtk_recent_manager_get_default(), "changed", G_CALLBACK(recent_changed_cb), self, 0);
    gtk_stack_set_visible_child_name(self->main_stack, "empty");
}

SvWindow *sv_window_new(GtkApplication *app)
{
    return g_object_new(SV_TYPE_WINDOW, "application", app, NULL);
}
