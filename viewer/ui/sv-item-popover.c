/* SPDX-License-Identifier: MIT */
/* sv-item-popover.c - see sv-item-popover.h. */
#include "sv-item-popover.h"

#include "viewport.h"

struct _SvItemPopover {
    GtkPopover parent_instance;
    /* template children (sv-item-popover.ui) */
    GtkLabel *title_label, *kind_label;
    GtkGrid *grid;
    GtkWidget *other_end_button;
};

G_DEFINE_FINAL_TYPE(SvItemPopover, sv_item_popover, GTK_TYPE_POPOVER)

static char *format_field(const SvDocRef *doc, uint8_t type, int64_t v)
{
    char buf[96];
    if (v == SLOG_INFO_UNKNOWN) return g_strdup("unknown");
    switch (type) {
    case SLOG_FIELD_BYTES:
        sv_format_bytes((double)v, buf, sizeof buf);
        return v >= 1024 ? g_strdup_printf("%s (%" G_GINT64_FORMAT " B)", buf, v) : g_strdup(buf);
    case SLOG_FIELD_TIMELINE:
        if (v >= 0 && (uint64_t)v < doc->fi->n_timelines && doc->tl_labels[v][0])
            return g_strdup_printf("%s", doc->tl_labels[v]);
        return g_strdup_printf("%" G_GINT64_FORMAT, v);
    case SLOG_FIELD_HANDLE: return g_strdup_printf("0x%" G_GINT64_MODIFIER "x", v);
    case SLOG_FIELD_DURATION: sv_format_duration((double)v, buf, sizeof buf); return g_strdup(buf);
    default: return g_strdup_printf("%" G_GINT64_FORMAT, v);
    }
}

static void grid_row(GtkGrid *g, int *row, const char *key, const char *val, gboolean dim)
{
    GtkWidget *k = gtk_label_new(key);
    gtk_widget_add_css_class(k, "dim-label");
    gtk_label_set_xalign(GTK_LABEL(k), 1);
    GtkWidget *v = gtk_label_new(val);
    gtk_label_set_xalign(GTK_LABEL(v), 0);
    gtk_widget_add_css_class(v, "numeric");
    if (dim) gtk_widget_add_css_class(v, "dim-label");
    gtk_grid_attach(g, k, 0, *row, 1, 1);
    gtk_grid_attach(g, v, 1, *row, 1, 1);
    (*row)++;
}

/* A time row, formatted as the ruler does. */
static void time_row(GtkGrid *g, int *row, const char *key, int64_t t)
{
    char a[64];
    sv_format_time(t, a, sizeof a);
    grid_row(g, row, key, a, FALSE);
}

gboolean sv_item_popover_set_item(SvItemPopover *self, const SvDocRef *doc, const sv_found *f)
{
    const sv_item *it = &f->item;
    const slog_category *cat = slog_reader_category(doc->r, it->category);
    if (!cat) return FALSE;
    static const char *const kinds[] = {"state", "message", "event"};
    gtk_label_set_text(self->title_label, cat->name);
    gtk_label_set_text(self->kind_label, kinds[it->kind % 3]);
    gtk_widget_set_visible(self->other_end_button, it->kind == SLOG_KIND_ARROW);

    GtkGrid *g = self->grid;
    GtkWidget *c;
    while ((c = gtk_widget_get_first_child(GTK_WIDGET(g)))) gtk_grid_remove(g, c);
    int row = 0;
    char a[64], b[64];
    const char *tl = doc->tl_labels[it->timeline];
    if (it->kind == SLOG_KIND_ARROW) {
        grid_row(g, &row, "From", tl, FALSE);
        grid_row(g, &row, "To", doc->tl_labels[it->end_timeline], FALSE);
        time_row(g, &row, "Sent", it->start);
        time_row(g, &row, "Received", it->end);
        sv_format_duration((double)(it->end - it->start), a, sizeof a);
        if (it->end < it->start)
            g_snprintf(b, sizeof b, "%s (clock skew)", a);
        else
            g_snprintf(b, sizeof b, "%s", a);
        grid_row(g, &row, "Latency", b, FALSE);
    } else if (it->kind == SLOG_KIND_EVENT) {
        grid_row(g, &row, "Timeline", tl, FALSE);
        time_row(g, &row, "Time", it->start);
    } else {
        grid_row(g, &row, "Timeline", tl, FALSE);
        time_row(g, &row, "Start", it->start);
        time_row(g, &row, "End", it->end);
        sv_format_duration((double)(it->end - it->start), a, sizeof a);
        grid_row(g, &row, "Duration", a, FALSE);
    }
    if (cat->n_fields) gtk_grid_attach(g, gtk_separator_new(GTK_ORIENTATION_HORIZONTAL), 0, row++, 2, 1);
    for (uint32_t i = 0; i < cat->n_fields && i < it->n_info; i++) {
        int64_t v = f->info[i];
        char *s = format_field(doc, cat->field_types[i], v);
        grid_row(g, &row, cat->field_names[i], s, v == SLOG_INFO_UNKNOWN);
        g_free(s);
    }
    return TRUE;
}

GtkWidget *sv_item_popover_new(void)
{
    return g_object_new(SV_TYPE_ITEM_POPOVER, NULL);
}

static void sv_item_popover_dispose(GObject *o)
{
    gtk_widget_dispose_template(GTK_WIDGET(o), SV_TYPE_ITEM_POPOVER);
    G_OBJECT_CLASS(sv_item_popover_parent_class)->dispose(o);
}

static void sv_item_popover_class_init(SvItemPopoverClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = sv_item_popover_dispose;
    gtk_widget_class_set_template_from_resource(wc, "/org/slog2/View/sv-item-popover.ui");
    gtk_widget_class_bind_template_child(wc, SvItemPopover, title_label);
    gtk_widget_class_bind_template_child(wc, SvItemPopover, kind_label);
    gtk_widget_class_bind_template_child(wc, SvItemPopover, grid);
    gtk_widget_class_bind_template_child(wc, SvItemPopover, other_end_button);
}

static void sv_item_popover_init(SvItemPopover *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    /* the arrow's band is translucent, painted black without a
     * compositing manager (see sv-app.c) */
    if (!gdk_display_is_composited(gtk_widget_get_display(GTK_WIDGET(self))))
        gtk_popover_set_has_arrow(GTK_POPOVER(self), FALSE);
}
