/* SPDX-License-Identifier: MIT */
/* sv-info.c - see sv-info.h. */
#include "sv-info.h"

#include <string.h>

#include "info.h"

struct _SvInfoWindow {
    GtkWindow parent_instance;
    /* template children (sv-info.ui) */
    GtkWidget *copy_button;
    GtkGrid *grid;

    sv_info_row *rows;
    size_t n;
};

G_DEFINE_FINAL_TYPE(SvInfoWindow, sv_info_window, GTK_TYPE_WINDOW)

static void sv_info_window_copy_clicked_cb(GtkButton *b, SvInfoWindow *self)
{
    GString *s = g_string_new(NULL);
    const char *section = NULL;
    for (size_t i = 0; i < self->n; i++) {
        if (section != self->rows[i].section)
            g_string_append_printf(s, "%s[%s]\n", section ? "\n" : "", self->rows[i].section);
        section = self->rows[i].section;
        g_string_append_printf(s, "%s = %s\n", self->rows[i].key, self->rows[i].value);
    }
    gdk_clipboard_set_text(gtk_widget_get_clipboard(GTK_WIDGET(b)), s->str);
    g_string_free(s, TRUE);
}

static GtkWidget *cell(const char *text, gboolean is_key)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_yalign(GTK_LABEL(l), 0);
    if (is_key) {
        gtk_widget_add_css_class(l, "dim-label");
    } else {
        /* long values (the unmatched-message list, paths) wrap anywhere */
        gtk_label_set_selectable(GTK_LABEL(l), TRUE);
        gtk_label_set_wrap(GTK_LABEL(l), TRUE);
        gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
        gtk_label_set_max_width_chars(GTK_LABEL(l), 90);
        gtk_widget_set_hexpand(l, TRUE);
    }
    return l;
}

/* A heading per section, then its key and value rows. */
static void fill_grid(SvInfoWindow *self)
{
    const char *section = NULL;
    int row = 0;
    for (size_t i = 0; i < self->n; i++) {
        if (section != self->rows[i].section) {
            section = self->rows[i].section;
            GtkWidget *h = gtk_label_new(section);
            gtk_label_set_xalign(GTK_LABEL(h), 0);
            gtk_widget_add_css_class(h, "heading");
            if (row) gtk_widget_set_margin_top(h, 12);
            gtk_grid_attach(self->grid, h, 0, row++, 2, 1);
        }
        gtk_grid_attach(self->grid, cell(self->rows[i].key, TRUE), 0, row, 1, 1);
        gtk_grid_attach(self->grid, cell(self->rows[i].value, FALSE), 1, row, 1, 1);
        row++;
    }
}

GtkWindow *sv_info_window_new(GtkWindow *parent, const SvDocRef *doc, const char *path)
{
    char *base = g_path_get_basename(path);
    char *title = g_strdup_printf("Trace Information – %s", base);
    SvInfoWindow *self = g_object_new(SV_TYPE_INFO_WINDOW, "title", title, "transient-for", parent, NULL);
    g_free(title);
    g_free(base);
    self->rows = sv_info_rows(doc, path, &self->n);
    fill_grid(self);
    /* not the first selectable value, which would open all selected */
    gtk_window_set_focus(GTK_WINDOW(self), self->copy_button);
    return GTK_WINDOW(self);
}

gboolean sv_info_window_has(GtkWindow *w, const char *key, const char *value_part)
{
    SvInfoWindow *self = SV_INFO_WINDOW(w);
    for (size_t i = 0; i < self->n; i++)
        if (g_str_equal(self->rows[i].key, key) && (!value_part || strstr(self->rows[i].value, value_part)))
            return TRUE;
    return FALSE;
}

static void sv_info_window_dispose(GObject *o)
{
    gtk_widget_dispose_template(GTK_WIDGET(o), SV_TYPE_INFO_WINDOW);
    G_OBJECT_CLASS(sv_info_window_parent_class)->dispose(o);
}

static void sv_info_window_finalize(GObject *o)
{
    SvInfoWindow *self = SV_INFO_WINDOW(o);
    sv_info_rows_free(self->rows, self->n);
    G_OBJECT_CLASS(sv_info_window_parent_class)->finalize(o);
}

static void sv_info_window_class_init(SvInfoWindowClass *klass)
{
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = sv_info_window_dispose;
    G_OBJECT_CLASS(klass)->finalize = sv_info_window_finalize;
    gtk_widget_class_set_template_from_resource(wc, "/org/slog2/View/sv-info.ui");
    gtk_widget_class_bind_template_child(wc, SvInfoWindow, copy_button);
    gtk_widget_class_bind_template_child(wc, SvInfoWindow, grid);
    gtk_widget_class_bind_template_callback(wc, sv_info_window_copy_clicked_cb);
}

static void sv_info_window_init(SvInfoWindow *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
}
