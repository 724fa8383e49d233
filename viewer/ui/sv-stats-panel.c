/* SPDX-License-Identifier: MIT */
/* sv-stats-panel.c - see sv-stats-panel.h. */
#include "sv-stats-panel.h"

#include "render.h"
#include "sv-style.h"

struct _SvStatsPanel {
    GtkWidget parent_instance;
    /* template children (sv-stats-panel.ui) */
    GtkWidget *scroller, *hint, *range_box;
    GtkLabel *range_label, *duration_label, *messages_label;
    GtkGrid *category_grid, *timeline_grid;
};

G_DEFINE_FINAL_TYPE(SvStatsPanel, sv_stats_panel, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_HAS_RANGE, N_PROPS };
static GParamSpec *props[N_PROPS];

static void clear_grid(GtkGrid *g)
{
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(g)))) gtk_grid_remove(g, c);
}

static GtkWidget *cell_label(const char *text, const char *cls, float xalign)
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

/* A row of a grid: name, bar, value (right-aligned, taking the width). */
static void grid_row(GtkGrid *g, int row, const char *name, GtkWidget *meter, const char *value)
{
    gtk_grid_attach(g, cell_label(name, NULL, 0), 0, row, 1, 1);
    gtk_grid_attach(g, meter, 1, row, 1, 1);
    GtkWidget *v = cell_label(value, "numeric", 1);
    gtk_widget_set_hexpand(v, TRUE);
    gtk_grid_attach(g, v, 2, row, 1, 1);
}

/* Most time first, then most drawables. */
static int cmp_cat_time(gconstpointer a, gconstpointer b, gpointer user)
{
    const sv_range_stats *st = user;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    if (st->cat_ns[x] != st->cat_ns[y]) return st->cat_ns[x] > st->cat_ns[y] ? -1 : 1;
    return st->cat_count[x] > st->cat_count[y] ? -1 : st->cat_count[x] < st->cat_count[y];
}

static void show_hint(SvStatsPanel *self, const char *text)
{
    gboolean had = gtk_widget_get_visible(self->range_box);
    gtk_label_set_text(GTK_LABEL(self->hint), text);
    gtk_widget_set_visible(self->hint, TRUE);
    gtk_widget_set_visible(self->range_box, FALSE);
    clear_grid(self->category_grid);
    clear_grid(self->timeline_grid);
    if (had) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_HAS_RANGE]);
}

void sv_stats_panel_show_none(SvStatsPanel *self)
{
    show_hint(self, "Shift+drag on the timeline to select a range.");
}

void sv_stats_panel_show_computing(SvStatsPanel *self)
{
    show_hint(self, "Computing…");
}

void sv_stats_panel_show_stats(SvStatsPanel *self, const SvDocRef *doc, const sv_range_stats *st)
{
    gboolean had = gtk_widget_get_visible(self->range_box);
    char a[64], b[64], d[64], buf[256];
    sv_format_time(st->t0, a, sizeof a);
    sv_format_time(st->t1, b, sizeof b);
    sv_format_duration((double)(st->t1 - st->t0), d, sizeof d);
    g_snprintf(buf, sizeof buf, "%s – %s", a, b);
    gtk_label_set_text(self->range_label, buf);
    g_snprintf(buf, sizeof buf, "Duration %s", d);
    gtk_label_set_text(self->duration_label, buf);

    char bytes[32];
    sv_format_bytes((double)st->msg_bytes, bytes, sizeof bytes);
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT " sent, %s%s", st->n_messages, bytes,
               st->n_unknown_bytes ? " (some sizes unknown)" : "");
    gtk_label_set_text(self->messages_label, buf);

    clear_grid(self->category_grid);
    uint32_t *idx = g_new(uint32_t, st->n_categories + 1);
    uint32_t n = 0;
    for (uint32_t i = 0; i < st->n_categories; i++)
        if (st->cat_count[i]) idx[n++] = i;
    g_qsort_with_data(idx, (gint)n, sizeof *idx, cmp_cat_time, (gpointer)st);
    double span = (double)(st->t1 - st->t0) * (st->n_timelines ? st->n_timelines : 1);
    for (uint32_t k = 0; k < n && k < 40; k++) {
        uint32_t c = idx[k];
        gboolean state = doc->pal.kind[c] == SLOG_KIND_STATE;
        if (state)
            sv_format_duration((double)st->cat_ns[c], buf, sizeof buf);
        else
            g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT "×", st->cat_count[c]);
        grid_row(self->category_grid, (int)k, doc->cat_names[c],
                 bar(state ? st->cat_ns[c] / span : 0, doc->pal.rgba[c]), buf);
    }
    g_free(idx);

    clear_grid(self->timeline_grid);
    double len = (double)(st->t1 - st->t0);
    for (uint32_t t = 0; t < st->n_timelines && t < 256; t++) {
        double frac = len > 0 ? st->tl_busy_ns[t] / len : 0;
        g_snprintf(buf, sizeof buf, "%.1f %% · %" G_GUINT64_FORMAT " msgs", frac * 100, st->tl_messages[t]);
        grid_row(self->timeline_grid, (int)t, doc->tl_labels[t], bar(frac, 0x3584e4ff), buf);
    }
    gtk_widget_set_visible(self->hint, FALSE);
    gtk_widget_set_visible(self->range_box, TRUE);
    if (!had) g_object_notify_by_pspec(G_OBJECT(self), props[PROP_HAS_RANGE]);
}

gboolean sv_stats_panel_get_has_range(SvStatsPanel *self)
{
    return gtk_widget_get_visible(self->range_box);
}

GtkWidget *sv_stats_panel_new(void)
{
    return g_object_new(SV_TYPE_STATS_PANEL, NULL);
}

static void sv_stats_panel_get_property(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    switch (id) {
    case PROP_HAS_RANGE: g_value_set_boolean(v, sv_stats_panel_get_has_range(SV_STATS_PANEL(o))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
    }
}

static void sv_stats_panel_dispose(GObject *o)
{
    gtk_widget_dispose_template(GTK_WIDGET(o), SV_TYPE_STATS_PANEL);
    G_OBJECT_CLASS(sv_stats_panel_parent_class)->dispose(o);
}

static void sv_stats_panel_class_init(SvStatsPanelClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = sv_stats_panel_dispose;
    oc->get_property = sv_stats_panel_get_property;
    props[PROP_HAS_RANGE] = g_param_spec_boolean("has-range", NULL, NULL, FALSE, G_PARAM_READABLE);
    g_object_class_install_properties(oc, N_PROPS, props);
    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_template_from_resource(wc, "/org/slog2/View/sv-stats-panel.ui");
#define BIND(x) gtk_widget_class_bind_template_child(wc, SvStatsPanel, x)
    BIND(scroller);
    BIND(hint);
    BIND(range_box);
    BIND(range_label);
    BIND(duration_label);
    BIND(messages_label);
    BIND(category_grid);
    BIND(timeline_grid);
#undef BIND
}

static void sv_stats_panel_init(SvStatsPanel *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    sv_stats_panel_show_none(self);
}
