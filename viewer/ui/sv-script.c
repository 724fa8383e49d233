/* SPDX-License-Identifier: MIT */
/* sv-script.c - the test-script interpreter (SLOG2_VIEW_SCRIPT). */
#include "sv-analysis.h"
#include "sv-script-verbs.h"

#include <math.h>
#include <stdio.h>

int sv_script_exit_status = 0;

/* Nothing running, and an open file is on screen: a command looks at the
 * window as a user would see it (the first one once ran before the window
 * was laid out, and found the status bar without a size). */
static gboolean script_idle(SvWindow *self)
{
    return !self->opening && !self->build && !self->stats_busy && !self->search_busy && !self->export_busy &&
           !sv_timeline_is_busy(self->timeline) && !sv_rowbar_is_busy(self->rowbar) &&
           (!self->doc || sv_timeline_has_drawn(self->timeline)) && !sv_analysis_script_busy(self);
}

static int save_screenshot(GtkWidget *w, const char *file)
{
    GdkTexture *t = sv_style_render_widget(w);
    int ok = t && gdk_texture_save_to_png(t, file);
    if (t) g_object_unref(t);
    return ok;
}

void sv_script_fail(SvWindow *self, const char *what)
{
    printf("FAIL: %s\n", what);
    fflush(stdout);
    sv_script_exit_status = 1;
}

/* the name the verbs of this file call it by */
#define script_fail sv_script_fail

static void count_visible_nodes(SvWindow *self, double t0, double t1, uint64_t *n, uint64_t *bytes)
{
    *n = *bytes = 0;
    for (uint64_t i = 0; i < self->doc->fi->n_nodes; i++) {
        slog_node_info ni;
        if (slog_reader_node(self->doc->r, i, &ni) != SLOG_OK) continue;
        if (ni.lo <= (int64_t)ceil(t1) && ni.hi > (int64_t)floor(t0)) {
            (*n)++;
            *bytes += ni.size;
        }
    }
}

typedef sv_script_verb script_verb;

static gboolean verb_action(SvWindow *self, const char *arg)
{
    g_action_group_activate_action(G_ACTION_GROUP(self), arg, NULL);
    return TRUE;
}

static gboolean verb_drop(SvWindow *self, const char *arg)
{
    /* what the window's drop target hands drop_cb for a file dragged
     * from a file manager */
    GFile *f = g_file_new_for_commandline_arg(arg);
    GSList *l = g_slist_prepend(NULL, f);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GDK_TYPE_FILE_LIST);
    g_value_take_boxed(&v, gdk_file_list_new_from_list(l));
    if (!sv_window_drop_cb(NULL, &v, 0, 0, self)) script_fail(self, "the drop was refused");
    g_value_unset(&v);
    g_slist_free(l);
    g_object_unref(f);
    return TRUE;
}

static gboolean verb_cancel(SvWindow *self, const char *arg)
{
    if (!self->build) script_fail(self, "cancel: no conversion running");
    sv_window_cancel_clicked_cb(NULL, self);
    return TRUE;
}

static gboolean verb_quit(SvWindow *self, const char *arg)
{
    (void)arg;
    self->script_timer = 0;
    /* popover down first, window gone on the next turn of the loop */
    sv_timeline_close_popover(self->timeline);
    g_idle_add_once((GSourceOnceFunc)gtk_window_destroy, self);
    return FALSE;
}

static gboolean verb_select(SvWindow *self, const char *arg)
{
    double a = 0, b = 0;
    if (sscanf(arg, "%lf %lf", &a, &b) == 2)
        sv_timeline_set_range(self->timeline, a * 1e9, b * 1e9);
    else
        script_fail(self, "select wants T0 T1 (seconds)");
    return TRUE;
}

static gboolean verb_window(SvWindow *self, const char *arg)
{
    double a = 0, b = 0;
    if (sscanf(arg, "%lf %lf", &a, &b) == 2) sv_timeline_set_window(self->timeline, a * 1e9, b * 1e9, TRUE);
    return TRUE;
}

static gboolean verb_search(SvWindow *self, const char *arg)
{
    gtk_editable_set_text(GTK_EDITABLE(self->search_entry), arg);
    sv_window_find(self, 1);
    return TRUE;
}

static gboolean verb_popover(SvWindow *self, const char *arg)
{
    if (!sv_timeline_popover_any(self->timeline)) script_fail(self, "no drawable for a popover");
    return TRUE;
}

static gboolean verb_legend(SvWindow *self, const char *arg)
{
    g_action_group_change_action_state(G_ACTION_GROUP(self), "show-sidebar", g_variant_new_boolean(TRUE));
    gtk_stack_set_visible_child_name(self->side_stack, "legend");
    return TRUE;
}

/* Tries at a screenshot before it fails: a widget's render has come back
 * empty once, under a CI host's load, where the next frame had one. */
#define SCREENSHOT_TRIES 5

static gboolean verb_screenshot(SvWindow *self, const char *arg)
{
    static int failed;
    if (save_screenshot(GTK_WIDGET(self), arg)) {
        failed = 0;
    } else if (++failed < SCREENSHOT_TRIES) {
        self->script_i--; /* again at the next step, once the window is idle */
    } else {
        failed = 0;
        script_fail(self, "screenshot");
    }
    return TRUE;
}

static gboolean verb_screenshot_info(SvWindow *self, const char *arg)
{
    if (!self->info || !save_screenshot(GTK_WIDGET(self->info), arg))
        script_fail(self, "screenshot-info: no Trace Information window");
    return TRUE;
}

static gboolean verb_screenshot_shortcuts(SvWindow *self, const char *arg)
{
    GtkShortcutsWindow *h = gtk_application_window_get_help_overlay(GTK_APPLICATION_WINDOW(self));
    if (!h || !gtk_widget_get_visible(GTK_WIDGET(h)) || !save_screenshot(GTK_WIDGET(h), arg))
        script_fail(self, "screenshot-shortcuts: the Keyboard Shortcuts window is not shown");
    return TRUE;
}

static gboolean verb_expect_info(SvWindow *self, const char *arg)
{
    /* KEY [VALUE-PART]: a row of the Trace Information window */
    char **kv = g_strsplit(arg, " ", 2);
    gboolean ok = self->info && kv[0] && sv_info_window_has(self->info, kv[0], kv[1]);
    printf("info %s%s%s: %s\n", kv[0] ? kv[0] : "", kv[0] && kv[1] ? " ~ " : "", kv[0] && kv[1] ? kv[1] : "",
           ok ? "shown" : "not shown");
    if (!ok) script_fail(self, "expect-info");
    g_strfreev(kv);
    return TRUE;
}

static gboolean verb_stats(SvWindow *self, const char *arg)
{
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    printf("frame window %.9f:%.9f nodes_read %" G_GUINT64_FORMAT " bytes_read %" G_GUINT64_FORMAT
           " drawables %" G_GUINT64_FORMAT " previews %" G_GUINT64_FORMAT " ms %.2f\n",
           ft0 / 1e9, ft1 / 1e9, st->nodes_read, st->bytes_read, st->drawables, st->previews, ms);
    return TRUE;
}

static gboolean verb_mark(SvWindow *self, const char *arg)
{
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    self->mark = *st;
    return TRUE;
}

static gboolean verb_expect_visible_nodes(SvWindow *self, const char *arg)
{
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    uint64_t n, bytes;
    count_visible_nodes(self, ft0, ft1, &n, &bytes);
    printf("visible nodes %" G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " bytes); frame read %" G_GUINT64_FORMAT
           " nodes, %" G_GUINT64_FORMAT " bytes\n",
           n, bytes, st->nodes_read, st->bytes_read);
    if (st->nodes_read > n || st->bytes_read > bytes)
        script_fail(self, "the frame read more than the nodes intersecting the window");
    return TRUE;
}

static gboolean verb_expect_fewer_bytes(SvWindow *self, const char *arg)
{
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    printf("bytes: marked %" G_GUINT64_FORMAT ", now %" G_GUINT64_FORMAT "\n", self->mark.bytes_read, st->bytes_read);
    if (st->bytes_read > self->mark.bytes_read) script_fail(self, "the frame read more bytes than the marked one");
    return TRUE;
}

static gboolean verb_expect_bytes_below(SvWindow *self, const char *arg)
{
    double ms, ft0, ft1;
    const slog_query_stats *st = sv_timeline_get_frame_stats(self->timeline, &ms, &ft0, &ft1);
    double frac = g_ascii_strtod(arg, NULL);
    printf("bytes: frame %" G_GUINT64_FORMAT ", file %" G_GUINT64_FORMAT "\n", st->bytes_read,
           self->doc->fi->file_size);
    if (st->bytes_read > frac * self->doc->fi->file_size) script_fail(self, "the frame read too much of the file");
    return TRUE;
}

static gboolean verb_scroll(SvWindow *self, const char *arg)
{
    /* PX: the rows' vertical scroll, as the wheel over the labels */
    sv_timeline_set_scroll(self->timeline, g_ascii_strtod(arg, NULL));
    return TRUE;
}

static gboolean verb_expect_rows_drawn(SvWindow *self, const char *arg)
{
    /* the frame on screen was queried for every row now on screen */
    gboolean drawn = sv_timeline_rows_drawn(self->timeline);
    printf("rows on screen drawn: %s\n", drawn ? "yes" : "no");
    if (!drawn) script_fail(self, "rows on screen are not in the frame");
    return TRUE;
}

static gboolean verb_expect_rows_fit(SvWindow *self, const char *arg)
{
    /* yes|no: every timeline row within the canvas (no vertical scroll) */
    gboolean fit = sv_timeline_rows_fit(self->timeline);
    printf("rows fit: %s\n", fit ? "yes" : "no");
    if (fit != g_str_equal(arg, "yes")) script_fail(self, fit ? "the rows fit" : "the rows do not fit");
    return TRUE;
}

static gboolean verb_ranks(SvWindow *self, const char *arg)
{
    /* A B: show timelines [A, B) on the rank axis (a history entry), as a
     * Shift+wheel zoom would */
    char *end;
    double a = g_ascii_strtod(arg, &end), b = g_ascii_strtod(end, NULL);
    sv_timeline_set_ranks(self->timeline, a, b, TRUE);
    return TRUE;
}

static gboolean verb_expect_folded(SvWindow *self, const char *arg)
{
    /* yes|no: the canvas shows folded rows; with yes, the fold on screen
     * is of the current view */
    gboolean folded = sv_timeline_is_folded(self->timeline);
    const sv_rank_axis *ax = sv_timeline_get_rank_axis(self->timeline);
    printf("folded: %s, timelines %.0f-%.0f\n", folded ? "yes" : "no", ax->r0, ax->r1);
    if (folded != g_str_equal(arg, "yes"))
        script_fail(self, folded ? "the rows are folded" : "the rows are not folded");
    else if (folded && !sv_timeline_fold_drawn(self->timeline))
        script_fail(self, "the fold on screen is not of the current view");
    return TRUE;
}

static gboolean verb_rows(SvWindow *self, const char *arg)
{
    /* EXPR: choose rows as Enter in the entry above the labels does; an
     * empty EXPR shows every timeline */
    if (!sv_rowbar_apply(self->rowbar, arg)) printf("rows: %s\n", sv_rowbar_get_error(self->rowbar));
    return TRUE;
}

static gboolean verb_expect_rows(SvWindow *self, const char *arg)
{
    /* N [TL] | error: N rows chosen (all: every timeline), the first
     * being timeline TL; or the entry says the expression is wrong */
    const sv_rowsel *s = sv_timeline_get_rowsel(self->timeline);
    const char *err = sv_rowbar_get_error(self->rowbar);
    char desc[320];
    sv_rowsel_describe(s, desc, sizeof desc);
    printf("rows: %s%s%s\n", desc, err ? "; error: " : "", err ? err : "");
    if (g_str_equal(arg, "error")) {
        if (!err) script_fail(self, "the expression was taken");
        return TRUE;
    }
    char *end;
    guint64 n = g_ascii_strtoull(arg, &end, 10);
    if (g_str_has_prefix(arg, "all") ? s != NULL : (!s || s->n != n))
        script_fail(self, "another number of rows");
    else if (s && *end && s->n && s->list[0] != g_ascii_strtoull(end, NULL, 10))
        script_fail(self, "another first row");
    return TRUE;
}

static gboolean verb_rubber_band(SvWindow *self, const char *arg)
{
    /* FX0 FY0 FX1 FY1: a Ctrl+drag between these fractions of the canvas
     * (below the ruler) */
    double f[4] = {0};
    char *p = (char *)arg;
    for (int i = 0; i < 4; i++) f[i] = g_ascii_strtod(p, &p);
    GtkWidget *w = GTK_WIDGET(self->timeline);
    double cw = gtk_widget_get_width(w), ch = gtk_widget_get_height(w) - SV_RULER_H;
    if (!sv_timeline_zoom_to_rect(self->timeline, f[0] * cw, f[1] * ch, f[2] * cw, f[3] * ch))
        script_fail(self, "the rubber band changed nothing");
    return TRUE;
}

static gboolean verb_expect_ranks(SvWindow *self, const char *arg)
{
    /* A B: the rank axis shows [A, B) */
    char *end;
    double a = g_ascii_strtod(arg, &end), b = g_ascii_strtod(end, NULL);
    const sv_rank_axis *ax = sv_timeline_get_rank_axis(self->timeline);
    printf("ranks %.2f-%.2f\n", ax->r0, ax->r1);
    if (fabs(ax->r0 - a) > 0.01 || fabs(ax->r1 - b) > 0.01) script_fail(self, "another range of ranks");
    return TRUE;
}

static gboolean verb_expect_flows(SvWindow *self, const char *arg)
{
    /* N | none: the flows drawn over the fold (flows.h) are those of the
     * view on screen and sum N messages, or none are drawn (not folded,
     * the arrows hidden); waits for the flows of the view to come in */
    gboolean current = FALSE;
    const sv_flows *fl = sv_timeline_get_flows(self->timeline, &current);
    gboolean shown = fl && sv_flows_visible(&self->doc->pal);
    gboolean want_none = g_str_equal(arg, "none");
    if (!current || sv_timeline_flows_busy(self->timeline)) {
        self->script_i--; /* again at the next step */
        return TRUE;
    }
    if (shown)
        printf("flows: %u groups, %u slices, %zu lines, %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT
               " outside, %.1f ms\n",
               fl->n_groups, fl->n_slices, fl->n_flows, fl->total, fl->outside, fl->query_ms);
    else
        printf("flows: none\n");
    char *end;
    guint64 n = g_ascii_strtoull(arg, &end, 10);
    if (want_none) {
        if (shown) script_fail(self, "flows are drawn");
    } else if (end == arg || *end) {
        script_fail(self, "expect-flows wants N or none");
    } else if (!shown || fl->total != n) {
        script_fail(self, "the flows sum another number of messages");
    }
    return TRUE;
}

static gboolean verb_expect_file(SvWindow *self, const char *arg)
{
    char *base = self->path ? g_path_get_basename(self->path) : g_strdup("");
    printf("file %s\n", base);
    if (!g_str_equal(base, arg)) script_fail(self, "another file is open");
    g_free(base);
    return TRUE;
}

/* "CATEGORY NAME COLOUR" (the name may hold spaces, the colour is what
 * GdkRGBA parses): the name (to free) or NULL after a failure. */
static char *category_and_colour(SvWindow *self, const char *arg, GdkRGBA *rgba)
{
    const char *sp = strrchr(arg, ' ');
    if (sp && gdk_rgba_parse(rgba, sp + 1)) return g_strndup(arg, (gsize)(sp - arg));
    script_fail(self, "set-colour/expect-colour want CATEGORY COLOUR");
    return NULL;
}

static gboolean verb_set_colour(SvWindow *self, const char *arg)
{
    GdkRGBA want;
    char *cat = category_and_colour(self, arg, &want);
    if (cat && !sv_legend_set_color(self->legend, cat, &want)) script_fail(self, "no such category");
    g_free(cat);
    return TRUE;
}

static gboolean verb_expect_colour(SvWindow *self, const char *arg)
{
    GdkRGBA want;
    char *cat = category_and_colour(self, arg, &want);
    if (!cat) return TRUE;
    guint32 have = 0, w = sv_legend_rgba_to_u32(&want);
    gboolean found = FALSE;
    for (uint32_t i = 0; i < self->doc->pal.n && !found; i++)
        if (g_str_equal(self->doc->cat_names[i], cat)) {
            have = self->doc->pal.rgba[i];
            found = TRUE;
        }
    printf("colour of %s: #%08x\n", cat, have);
    if (!found || have != w) script_fail(self, found ? "the category has another colour" : "no such category");
    g_free(cat);
    return TRUE;
}

static gboolean verb_expect_style(SvWindow *self, const char *arg)
{
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
    return TRUE;
}

static gboolean verb_sleep(SvWindow *self, const char *arg)
{
    self->sleep_until = g_get_monotonic_time() + 1000 * (gint64)g_ascii_strtoll(arg, NULL, 10);
    return TRUE;
}

static gboolean verb_expect_selection(SvWindow *self, const char *arg)
{
    /* none|range: a selected range, and the Selection tab showing one */
    double t0, t1;
    gboolean range = sv_timeline_get_range(self->timeline, &t0, &t1);
    gboolean panel = sv_stats_panel_get_has_range(self->stats_panel);
    printf("selection: range %s, panel %s\n", range ? "yes" : "no", panel ? "shows a range" : "empty");
    gboolean want = g_str_equal(arg, "range");
    if (range != want || panel != want)
        script_fail(self, want ? "no range selected and shown" : "a range is still selected or shown");
    return TRUE;
}

static gboolean verb_expect_search_error(SvWindow *self, const char *arg)
{
    /* yes|no: the search entry marked "not found" */
    gboolean err = gtk_widget_has_css_class(GTK_WIDGET(self->search_entry), "error");
    printf("search entry: %s\n", err ? "error" : "no error");
    if (err != g_str_equal(arg, "yes"))
        script_fail(self, err ? "the search entry shows an error" : "the search entry shows no error");
    return TRUE;
}

static gboolean verb_expect_status(SvWindow *self, const char *arg)
{
    /* TEXT: part of the status bar's time window */
    const char *have = gtk_label_get_text(self->status_window);
    printf("status window: %s\n", have);
    if (!strstr(have, arg)) script_fail(self, "the status bar shows another window");
    return TRUE;
}

static gboolean verb_pointer(SvWindow *self, const char *arg)
{
    /* FX FY: the pointer over the timeline at fractions of its size, as
     * its motion controller reports it; the time there is remembered */
    double fx = 0, fy = 0;
    if (sscanf(arg, "%lf %lf", &fx, &fy) != 2) {
        script_fail(self, "pointer wants FX FY (fractions of the timeline)");
        return TRUE;
    }
    GtkWidget *tl = GTK_WIDGET(self->timeline);
    self->script_px = fx * gtk_widget_get_width(tl);
    sv_timeline_pointer_moved(self->timeline, self->script_px, fy * gtk_widget_get_height(tl));
    self->script_pt = sv_viewport_x_to_time(sv_timeline_get_viewport(self->timeline), self->script_px);
    return TRUE;
}

static gboolean verb_expect_pointer_time(SvWindow *self, const char *arg)
{
    /* the time under the "pointer" is still the one it had (within a pixel) */
    (void)arg;
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    double x = sv_viewport_time_to_x(vp, self->script_pt);
    printf("time under the pointer now at x %.1f, pointer at %.1f\n", x, self->script_px);
    if (fabs(x - self->script_px) > 1) script_fail(self, "the time under the pointer moved");
    return TRUE;
}

static gboolean verb_expect_popover(SvWindow *self, const char *arg)
{
    /* shown|hidden: the timeline's details popover */
    gboolean shown = sv_timeline_popover_shown(self->timeline);
    printf("popover %s\n", shown ? "shown" : "hidden");
    if (shown != g_str_equal(arg, "shown"))
        script_fail(self, shown ? "the popover is shown" : "the popover is not shown");
    return TRUE;
}

static gboolean verb_timeline_action(SvWindow *self, const char *arg)
{
    /* NAME: one of the timeline's own actions (timeline.NAME) */
    char *name = g_strconcat("timeline.", arg, NULL);
    if (!gtk_widget_activate_action(GTK_WIDGET(self->timeline), name, NULL))
        script_fail(self, "no such timeline action");
    g_free(name);
    return TRUE;
}

static gboolean verb_expect_legend_sort(SvWindow *self, const char *arg)
{
    /* TEXT: part of what the legend shows of its order (sort arrows, first
     * and last row) */
    char *d = sv_legend_describe_sort(self->legend);
    printf("legend sort: %s\n", d);
    if (!strstr(d, arg)) script_fail(self, "the legend shows another order");
    if (strstr(d, "clipped")) script_fail(self, "a sort arrow is clipped");
    g_free(d);
    return TRUE;
}

/* The first widget of type t at or below w, depth first. */
static GtkWidget *find_descendant(GtkWidget *w, GType t)
{
    if (G_TYPE_CHECK_INSTANCE_TYPE(w, t)) return w;
    for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) {
        GtkWidget *hit = find_descendant(c, t);
        if (hit) return hit;
    }
    return NULL;
}

static gboolean verb_where(SvWindow *self, const char *arg)
{
    /* NAME: where a part of the window is, for real input from outside
     * (xdotool): "NAME at X Y" in the window's X11 coordinates, its
     * middle (timeline: 10 px into the canvas, below the ruler, where a
     * Shift+drag starts) */
    GtkWidget *w = NULL;
    if (g_str_equal(arg, "timeline"))
        w = GTK_WIDGET(self->timeline);
    else if (g_str_equal(arg, "legend-check"))
        w = find_descendant(GTK_WIDGET(self->legend), GTK_TYPE_CHECK_BUTTON);
    else if (g_str_equal(arg, "legend-filter"))
        w = GTK_WIDGET(sv_legend_get_filter(self->legend));
    else if (g_str_equal(arg, "legend-tab"))
        w = find_descendant(find_descendant(self->sidebar, GTK_TYPE_STACK_SWITCHER), GTK_TYPE_TOGGLE_BUTTON);
    else if (g_str_equal(arg, "search"))
        w = GTK_WIDGET(self->search_entry);
    else if (g_str_equal(arg, "msgfilter"))
        w = GTK_WIDGET(self->msgfilter_button);
    else if (g_str_equal(arg, "rows-entry"))
        w = find_descendant(GTK_WIDGET(self->rowbar), GTK_TYPE_ENTRY);
    graphene_point_t p;
    double sx = 0, sy = 0;
    gtk_native_get_surface_transform(GTK_NATIVE(self), &sx, &sy);
    gboolean tl = w == GTK_WIDGET(self->timeline);
    double x = tl ? 10 : w ? gtk_widget_get_width(w) / 2.0 : 0;
    double y = tl ? SV_RULER_H + 40 : w ? gtk_widget_get_height(w) / 2.0 : 0;
    if (!w || !gtk_widget_compute_point(w, GTK_WIDGET(self), &GRAPHENE_POINT_INIT(x, y), &p)) {
        script_fail(self, "where: no such part of the window");
        return TRUE;
    }
    printf("%s at %d %d\n", arg, (int)lround(p.x + sx), (int)lround(p.y + sy));
    fflush(stdout);
    return TRUE;
}

static gboolean verb_wait_file(SvWindow *self, const char *arg)
{
    /* PATH: go on once it exists (what drives the window from outside
     * is done) */
    g_free(self->wait_path);
    self->wait_path = g_strdup(arg);
    return TRUE;
}

static gboolean verb_expect_zoom(SvWindow *self, const char *arg)
{
    /* N: the window shows 1/N of the whole trace */
    const sv_viewport *vp = sv_timeline_get_viewport(self->timeline);
    double n = (vp->hi - vp->lo) / sv_viewport_span(vp), want = g_ascii_strtod(arg, NULL);
    printf("zoom: 1/%.2f of the trace\n", n);
    if (fabs(n - want) > 0.02 * want) script_fail(self, "the window shows another share of the trace");
    return TRUE;
}

static gboolean verb_expect_splitter(SvWindow *self, const char *arg)
{
    /* PX: the label column's width (the label/canvas splitter) */
    int have = gtk_paned_get_position(self->label_paned);
    printf("label column: %d px\n", have);
    if (have != (int)g_ascii_strtoll(arg, NULL, 10)) script_fail(self, "the label/canvas splitter moved");
    return TRUE;
}

static gboolean verb_expect_loading(SvWindow *self, const char *arg)
{
    /* yes|no: the status bar says a frame is loading */
    gboolean loading = strstr(gtk_label_get_text(self->status_frame), "loading") != NULL;
    printf("status: %s\n", gtk_label_get_text(self->status_frame));
    if (loading != g_str_equal(arg, "yes"))
        script_fail(self, loading ? "the status bar says loading" : "the status bar does not say loading");
    return TRUE;
}

static gboolean verb_add_recent(SvWindow *self, const char *arg)
{
    /* PATH: into GTK's recent files, as a file chooser puts it there */
    char *uri = g_filename_to_uri(arg, NULL, NULL);
    if (!uri || !gtk_recent_manager_add_item(gtk_recent_manager_get_default(), uri))
        script_fail(self, "add-recent: not added");
    g_free(uri);
    return TRUE;
}

static gboolean verb_expect_recent(SvWindow *self, const char *arg)
{
    /* [!]TEXT: a line of the Recent files menu is (is not, with !) TEXT */
    gboolean negate = arg[0] == '!';
    const char *want = negate ? arg + 1 : arg;
    char *d = sv_window_describe_recent(self);
    char *line = g_strconcat("\n", want, "\n", NULL), *all = g_strconcat("\n", d, NULL);
    gboolean has = strstr(all, line) != NULL;
    printf("recent files:\n%s", d);
    if (has == negate) script_fail(self, negate ? "the recent files show it" : "the recent files do not show it");
    g_free(line);
    g_free(all);
    g_free(d);
    return TRUE;
}

static gboolean verb_build_missing(SvWindow *self, const char *arg)
{
    /* the missing-ranks question's "Build with the Ranks That Are There" */
    if (!self->missing_meta) script_fail(self, "build-missing: no missing ranks were reported");
    sv_window_build_missing(self);
    return TRUE;
}

static gboolean verb_export(SvWindow *self, const char *arg)
{
    /* PATH: as Export View with that file chosen */
    sv_window_export(self, arg);
    return TRUE;
}

static gboolean verb_set_visible(SvWindow *self, const char *arg)
{
    /* CATEGORY yes|no: its check box in the legend */
    const char *sp = strrchr(arg, ' ');
    char *cat = sp ? g_strndup(arg, (gsize)(sp - arg)) : NULL;
    if (!cat || !sv_legend_set_visible(self->legend, cat, g_str_equal(sp + 1, "yes")))
        script_fail(self, "set-visible: no such category");
    g_free(cat);
    return TRUE;
}

static gboolean verb_message_colour(SvWindow *self, const char *arg)
{
    /* size|tag|latency|category: the legend's "Messages by" */
    int c = sv_arrow_colour_parse(arg);
    if (c < 0)
        script_fail(self, "message-colour wants size, tag, latency or category");
    else
        sv_legend_set_arrow_colour(self->legend, (sv_arrow_colour)c);
    return TRUE;
}

static gboolean verb_expect_legend_names_whole(SvWindow *self, const char *arg)
{
    char *cut = NULL;
    gboolean whole = sv_legend_names_whole(self->legend, &cut);
    printf("legend names: %s%s\n", whole ? "whole" : "cut: ", cut);
    if (!whole) script_fail(self, "a category name in the legend is cut off");
    g_free(cut);
    return TRUE;
}

static const script_verb VERBS[] = {
    /* the Communication Matrix and Profile windows (sv-analysis.c) */
    {"matrix", 1, sv_script_matrix},
    {"matrix-csv", 1, sv_script_matrix_csv},
    {"matrix-cell", 1, sv_script_matrix_cell},
    {"profile", 1, sv_script_profile},
    {"profile-csv", 1, sv_script_profile_csv},
    {"profile-do", 1, sv_script_profile_do},
    {"screenshot-analysis", 1, sv_script_screenshot_analysis},
    {"message-colour", 1, verb_message_colour},
    {"expect-legend-names-whole", 1, verb_expect_legend_names_whole},
    {"set-visible", 1, verb_set_visible},
    {"export", 1, verb_export},
    {"build-missing", 0, verb_build_missing},
    {"add-recent", 0, verb_add_recent},
    {"expect-recent", 0, verb_expect_recent},
    {"expect-loading", 1, verb_expect_loading},
    {"where", 1, verb_where},
    {"wait-file", 0, verb_wait_file},
    {"expect-zoom", 1, verb_expect_zoom},
    {"expect-splitter", 1, verb_expect_splitter},
    {"expect-legend-sort", 1, verb_expect_legend_sort},
    {"expect-selection", 1, verb_expect_selection},
    {"expect-search-error", 1, verb_expect_search_error},
    {"expect-status", 1, verb_expect_status},
    {"pointer", 1, verb_pointer},
    {"expect-pointer-time", 1, verb_expect_pointer_time},
    {"expect-popover", 1, verb_expect_popover},
    {"timeline-action", 1, verb_timeline_action},
    {"action", 0, verb_action},
    {"drop", 0, verb_drop},
    {"cancel", 0, verb_cancel},
    {"quit", 0, verb_quit},
    {"select", 1, verb_select},
    {"window", 1, verb_window},
    {"search", 1, verb_search},
    {"popover", 1, verb_popover},
    {"legend", 1, verb_legend},
    {"screenshot", 1, verb_screenshot},
    {"screenshot-info", 1, verb_screenshot_info},
    {"screenshot-shortcuts", 1, verb_screenshot_shortcuts},
    {"expect-info", 1, verb_expect_info},
    {"stats", 1, verb_stats},
    {"mark", 1, verb_mark},
    {"expect-visible-nodes", 1, verb_expect_visible_nodes},
    {"expect-fewer-bytes", 1, verb_expect_fewer_bytes},
    {"expect-bytes-below", 1, verb_expect_bytes_below},
    {"scroll", 1, verb_scroll},
    {"expect-rows-drawn", 1, verb_expect_rows_drawn},
    {"expect-rows-fit", 1, verb_expect_rows_fit},
    {"ranks", 1, verb_ranks},
    {"rows", 1, verb_rows},
    {"expect-rows", 1, verb_expect_rows},
    {"rubber-band", 1, verb_rubber_band},
    {"expect-ranks", 1, verb_expect_ranks},
    {"expect-flows", 1, verb_expect_flows},
    {"expect-folded", 1, verb_expect_folded},
    {"expect-file", 1, verb_expect_file},
    {"set-colour", 1, verb_set_colour},
    {"expect-colour", 1, verb_expect_colour},
    {"expect-style", 1, verb_expect_style},
    {"sleep", 0, verb_sleep},
};

static gboolean script_step(gpointer user)
{
    SvWindow *self = user;
    /* Commands wait until the window is idle, except "cancel", which is
     * for a running conversion (the progress bar's Cancel button). */
    char *next = self->script[self->script_i];
    gboolean cancel_now = next && self->build && g_str_equal(g_strstrip(next), "cancel");
    if (g_get_monotonic_time() < self->sleep_until || (!script_idle(self) && !cancel_now)) return G_SOURCE_CONTINUE;
    if (self->wait_path && !g_file_test(self->wait_path, G_FILE_TEST_EXISTS)) return G_SOURCE_CONTINUE;
    g_clear_pointer(&self->wait_path, g_free);
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
    const script_verb *sv = NULL;
    for (size_t i = 0; i < G_N_ELEMENTS(VERBS) && !sv; i++)
        if (g_str_equal(verb, VERBS[i].name)) sv = &VERBS[i];
    for (size_t i = 0; i < sv_script_n_message_verbs && !sv; i++)
        if (g_str_equal(verb, sv_script_message_verbs[i].name)) sv = &sv_script_message_verbs[i];
    gboolean go_on = TRUE;
    if (!*verb)
        ;
    else if (!sv)
        script_fail(self, "unknown script command");
    else if (sv->needs_doc && !self->doc)
        script_fail(self, "no document open");
    else
        go_on = sv->run(self, arg);
    g_strfreev(argv);
    g_free(cmd);
    return go_on ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

void sv_window_run_script(SvWindow *self, const char *script)
{
    g_strfreev(self->script);
    self->script = g_strsplit(script, ";", -1);
    self->script_i = 0;
    if (!self->script_timer) self->script_timer = g_timeout_add(100, script_step, self);
}
