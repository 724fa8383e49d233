/* SPDX-License-Identifier: MIT */
/* sv-info.c - see sv-info.h. */
#include "sv-info.h"

#include <string.h>

#include "info.h"

typedef struct info_data {
    sv_info_row *rows;
    size_t n;
} info_data;

static void info_data_free(gpointer p)
{
    info_data *d = p;
    sv_info_rows_free(d->rows, d->n);
    g_free(d);
}

static void copy_clicked(GtkButton *b, gpointer user)
{
    const info_data *d = user;
    GString *s = g_string_new(NULL);
    const char *section = NULL;
    for (size_t i = 0; i < d->n; i++) {
        if (section != d->rows[i].section)
            g_string_append_printf(s, "%s[%s]\n", section ? "\n" : "", d->rows[i].section);
        section = d->rows[i].section;
        g_string_append_printf(s, "%s = %s\n", d->rows[i].key, d->rows[i].value);
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

GtkWindow *sv_info_window_new(GtkWindow *parent, const SvDocRef *doc, const char *path)
{
    info_data *d = g_new0(info_data, 1);
    d->rows = sv_info_rows(doc, path, &d->n);

    GtkWidget *win = gtk_window_new();
    char *base = g_path_get_basename(path);
    char *title = g_strdup_printf("Trace Information – %s", base);
    gtk_window_set_title(GTK_WINDOW(win), title);
    g_free(title);
    g_free(base);
    gtk_window_set_transient_for(GTK_WINDOW(win), parent);
    gtk_window_set_destroy_with_parent(GTK_WINDOW(win), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(win), 820, 720);
    g_object_set_data_full(G_OBJECT(win), "sv-info", d, info_data_free);

    GtkWidget *header = gtk_header_bar_new();
    GtkWidget *copy = gtk_button_new_with_mnemonic("_Copy All");
    gtk_widget_set_tooltip_text(copy, "Copy every row as key = value lines");
    g_signal_connect(copy, "clicked", G_CALLBACK(copy_clicked), d);
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), copy);
    gtk_window_set_titlebar(GTK_WINDOW(win), header);

    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12);
    gtk_widget_set_margin_start(box, 18);
    gtk_widget_set_margin_end(box, 18);
    gtk_widget_set_margin_top(box, 12);
    gtk_widget_set_margin_bottom(box, 18);
    /* one grid, so the sections' values line up */
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_column_spacing(GTK_GRID(grid), 18);
    gtk_grid_set_row_spacing(GTK_GRID(grid), 6);
    gtk_box_append(GTK_BOX(box), grid);
    const char *section = NULL;
    int row = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (section != d->rows[i].section) {
            section = d->rows[i].section;
            GtkWidget *h = gtk_label_new(section);
            gtk_label_set_xalign(GTK_LABEL(h), 0);
            gtk_widget_add_css_class(h, "heading");
            if (row) gtk_widget_set_margin_top(h, 12);
            gtk_grid_attach(GTK_GRID(grid), h, 0, row++, 2, 1);
        }
        gtk_grid_attach(GTK_GRID(grid), cell(d->rows[i].key, TRUE), 0, row, 1, 1);
        gtk_grid_attach(GTK_GRID(grid), cell(d->rows[i].value, FALSE), 1, row, 1, 1);
        row++;
    }
    GtkWidget *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_policy(GTK_SCROLLED_WINDOW(scroll), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(scroll), box);
    gtk_window_set_child(GTK_WINDOW(win), scroll);
    /* not the first selectable value, which would open all selected */
    gtk_window_set_focus(GTK_WINDOW(win), copy);
    return GTK_WINDOW(win);
}

gboolean sv_info_window_has(GtkWindow *w, const char *key, const char *value_part)
{
    const info_data *d = g_object_get_data(G_OBJECT(w), "sv-info");
    for (size_t i = 0; d && i < d->n; i++)
        if (g_str_equal(d->rows[i].key, key) && (!value_part || strstr(d->rows[i].value, value_part))) return TRUE;
    return FALSE;
}
