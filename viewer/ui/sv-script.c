/* sv-script.c - the test-script interpreter (SLOG2_VIEW_SCRIPT). */
#include "sv-window-private.h"

#include <math.h>
#include <stdio.h>

int sv_script_exit_status = 0;

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
        if (!sv_window_drop_cb(NULL, &v, 0, 0, self))
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
        sv_window_find(self, 1);
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
