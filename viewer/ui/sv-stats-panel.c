/* SPDX-License-Identifier: MIT */
/* sv-stats-panel.c - the Selection tab: statistics of a selected range. */
#include "sv-window-private.h"

#include <stdlib.h>

void sv_window_clear_box(GtkBox *b)
{
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(b)))) gtk_box_remove(b, c);
}

GtkWidget *sv_window_label(const char *text, const char *cls, float xalign)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), xalign);
    gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
    if (cls) gtk_widget_add_css_class(l, cls);
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
    if (sort_stats->cat_ns[x] != sort_stats->cat_ns[y]) return sort_stats->cat_ns[x] > sort_stats->cat_ns[y] ? -1 : 1;
    return sort_stats->cat_count[x] > sort_stats->cat_count[y] ? -1
                                                               : sort_stats->cat_count[x] < sort_stats->cat_count[y];
}

void sv_window_show_stats(SvWindow *self, const sv_range_stats *st)
{
    sv_window_clear_box(self->stats_box);
    char a[64], b[64], d[64], buf[256];
    sv_format_time(st->t0, a, sizeof a);
    sv_format_time(st->t1, b, sizeof b);
    sv_format_duration((double)(st->t1 - st->t0), d, sizeof d);
    gtk_box_append(self->stats_box, sv_window_label("Selected range", "stats-title", 0));
    g_snprintf(buf, sizeof buf, "%s – %s", a, b);
    gtk_box_append(self->stats_box, sv_window_label(buf, "numeric", 0));
    g_snprintf(buf, sizeof buf, "Duration %s", d);
    gtk_box_append(self->stats_box, sv_window_label(buf, "dim-label", 0));
    GtkWidget *zb = gtk_button_new_with_label("Zoom to Range");
    gtk_actionable_set_action_name(GTK_ACTIONABLE(zb), "win.zoom-to-range");
    gtk_widget_add_css_class(zb, "suggested-action");
    gtk_widget_set_halign(zb, GTK_ALIGN_START);
    gtk_widget_set_margin_top(zb, 6);
    gtk_box_append(self->stats_box, zb);

    char bytes[32];
    sv_format_bytes((double)st->msg_bytes, bytes, sizeof bytes);
    gtk_box_append(self->stats_box, sv_window_label("Messages", "stats-section", 0));
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT " sent, %s%s", st->n_messages, bytes,
               st->n_unknown_bytes ? " (some sizes unknown)" : "");
    gtk_box_append(self->stats_box, sv_window_label(buf, NULL, 0));

    gtk_box_append(self->stats_box, sv_window_label("Time per category", "stats-section", 0));
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 3);
    uint32_t *idx = g_new(uint32_t, st->n_categories + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->n_categories; i++)
        if (st->cat_count[i]) idx[n++] = i;
    sort_win = self;
    sort_stats = st;
    qsort(idx, n, sizeof *idx, cmp_cat_time);
    double span = (double)(st->t1 - st->t0) * (st->n_timelines ? st->n_timelines : 1);
    for (uint32_t k = 0; k < n && k < 40; k++) {
        uint32_t c = idx[k];
        gtk_grid_attach(GTK_GRID(grid), sv_window_label(self->doc->cat_names[c], NULL, 0), 0, k, 1, 1);
        if (self->doc->pal.kind[c] == SLOG_KIND_STATE) {
            sv_format_duration((double)st->cat_ns[c], d, sizeof d);
            g_snprintf(buf, sizeof buf, "%s", d);
            gtk_grid_attach(GTK_GRID(grid), bar(st->cat_ns[c] / span, self->doc->pal.rgba[c]), 1, k, 1, 1);
        } else {
            g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT "×", st->cat_count[c]);
            gtk_grid_attach(GTK_GRID(grid), bar(0, self->doc->pal.rgba[c]), 1, k, 1, 1);
        }
        GtkWidget *v = sv_window_label(buf, "numeric", 1);
        gtk_widget_set_hexpand(v, TRUE);
        gtk_grid_attach(GTK_GRID(grid), v, 2, k, 1, 1);
    }
    g_free(idx);
    gtk_box_append(self->stats_box, grid);

    gtk_box_append(self->stats_box, sv_window_label("Busy time per timeline", "stats-section", 0));
    grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 8);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 3);
    double len = (double)(st->t1 - st->t0);
    for (uint32_t t = 0; t < st->n_timelines && t < 256; t++) {
        double frac = len > 0 ? st->tl_busy_ns[t] / len : 0;
        gtk_grid_attach(GTK_GRID(grid), sv_window_label(self->doc->tl_labels[t], NULL, 0), 0, t, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), bar(frac, 0x3584e4ff), 1, t, 1, 1);
        g_snprintf(buf, sizeof buf, "%.1f %% · %" G_GUINT64_FORMAT " msgs", frac * 100, st->tl_messages[t]);
        GtkWidget *v = sv_window_label(buf, "numeric", 1);
        gtk_widget_set_hexpand(v, TRUE);
        gtk_grid_attach(GTK_GRID(grid), v, 2, t, 1, 1);
    }
    gtk_box_append(self->stats_box, grid);
    if (self->script)
        printf("range stats: %" G_GUINT64_FORMAT " messages, %" G_GUINT64_FORMAT " bytes\n", st->n_messages,
               st->msg_bytes),
            fflush(stdout);
}

void sv_window_show_no_range(SvWindow *self)
{
    if (self->stats_cancel) g_cancellable_cancel(self->stats_cancel);
    g_clear_object(&self->stats_cancel);
    self->stats_busy = FALSE;
    sv_window_clear_box(self->stats_box);
    gtk_box_append(self->stats_box, sv_window_label("Shift+drag on the timeline to select a range.", "dim-label", 0));
    gtk_stack_set_visible_child_name(self->side_stack, "legend");
}
