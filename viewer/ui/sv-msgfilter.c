/* SPDX-License-Identifier: MIT */
/* sv-msgfilter.c - the header's message filter: a button that says which
 * messages are drawn ("All messages", or the filter, highlighted), a
 * popover with the query, what is wrong with it, and Apply, and a button
 * beside it that takes the filter away. The filter is a search query
 * (analysis.h) bound to the open file and put in its palette, where the
 * drawing, the hit test and the density band read it. */
#include "sv-window-private.h"

#include <string.h>

static void update_button(SvWindow *self)
{
    gboolean on = self->msg_filter != NULL;
    char *label = on ? g_strdup_printf("Messages: %s", self->msg_filter) : g_strdup("All messages");
    gtk_menu_button_set_label(self->msgfilter_button, label);
    g_free(label);
    /* the class goes on the menu button's own button: Adwaita styles
     * buttons, not menu buttons */
    GtkWidget *b = gtk_widget_get_first_child(GTK_WIDGET(self->msgfilter_button));
    if (b && on)
        gtk_widget_add_css_class(b, "suggested-action");
    else if (b)
        gtk_widget_remove_css_class(b, "suggested-action");
    gtk_widget_set_visible(self->msgfilter_clear, on);
}

void sv_window_msgfilter_detach(SvWindow *self)
{
    if (self->doc) {
        self->doc->pal.msg_filter = NULL;
        self->doc->pal.msg_filter_gen++;
    }
    g_clear_pointer(&self->msg_bound, sv_search_bound_free);
}

void sv_window_msgfilter_attach(SvWindow *self)
{
    if (!self->doc || !self->msg_filter) return;
    sv_search q;
    if (sv_search_parse(self->msg_filter, &q)) return; /* checked when set */
    self->msg_bound = sv_search_bind(&q, self->doc->r);
    self->doc->pal.msg_filter = self->msg_bound;
    self->doc->pal.msg_filter_gen++;
}

gboolean sv_window_set_message_filter(SvWindow *self, const char *text, char **why)
{
    char *t = text ? g_strstrip(g_strdup(text)) : NULL;
    if (t && !*t) g_clear_pointer(&t, g_free);
    if (t) {
        sv_search q;
        sv_search_error se;
        if (sv_search_parse_ex(t, &q, &se)) {
            if (why) *why = g_strdup_printf("not a valid query: %s (at character %d)", se.message, se.pos + 1);
            g_free(t);
            return FALSE;
        }
    }
    sv_window_msgfilter_detach(self);
    g_free(self->msg_filter);
    self->msg_filter = t;
    sv_window_msgfilter_attach(self);
    update_button(self);
    if (self->doc) sv_timeline_palette_changed(self->timeline);
    return TRUE;
}

static void apply(SvWindow *self)
{
    char *why = NULL;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->msgfilter_entry));
    gboolean ok = sv_window_set_message_filter(self, text, &why);
    gtk_label_set_text(self->msgfilter_error, why ? why : "");
    gtk_widget_set_visible(GTK_WIDGET(self->msgfilter_error), !ok);
    if (ok) {
        gtk_widget_remove_css_class(GTK_WIDGET(self->msgfilter_entry), "error");
        gtk_menu_button_popdown(self->msgfilter_button);
    } else {
        gtk_widget_add_css_class(GTK_WIDGET(self->msgfilter_entry), "error");
    }
    if (self->script)
        printf("message filter: %s\n", ok ? (self->msg_filter ? self->msg_filter : "none") : why), fflush(stdout);
    g_free(why);
}

static void entry_activate_cb(GtkEntry *e, SvWindow *self)
{
    apply(self);
}

static void apply_clicked_cb(GtkButton *b, SvWindow *self)
{
    apply(self);
}

static void clear_clicked_cb(GtkButton *b, SvWindow *self)
{
    gtk_editable_set_text(GTK_EDITABLE(self->msgfilter_entry), "");
    apply(self);
}

static void popover_show_cb(GtkWidget *pop, SvWindow *self)
{
    gtk_widget_grab_focus(GTK_WIDGET(self->msgfilter_entry));
}

static GtkWidget *dim(const char *text)
{
    GtkWidget *l = gtk_label_new(text);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_max_width_chars(GTK_LABEL(l), 40);
    gtk_widget_add_css_class(l, "dim-label");
    return l;
}

void sv_window_msgfilter_init(SvWindow *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    gtk_widget_set_margin_start(box, 6);
    gtk_widget_set_margin_end(box, 6);
    gtk_widget_set_margin_top(box, 6);
    gtk_widget_set_margin_bottom(box, 6);
    GtkWidget *head = gtk_label_new("Draw only the messages matching");
    gtk_label_set_xalign(GTK_LABEL(head), 0);
    gtk_widget_add_css_class(head, "heading");
    gtk_box_append(GTK_BOX(box), head);
    GtkWidget *row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    self->msgfilter_entry = GTK_ENTRY(gtk_entry_new());
    gtk_entry_set_placeholder_text(self->msgfilter_entry, "tag=5 comm=2 peer=3");
    gtk_editable_set_width_chars(GTK_EDITABLE(self->msgfilter_entry), 28);
    gtk_widget_set_hexpand(GTK_WIDGET(self->msgfilter_entry), TRUE);
    g_signal_connect(self->msgfilter_entry, "activate", G_CALLBACK(entry_activate_cb), self);
    gtk_box_append(GTK_BOX(row), GTK_WIDGET(self->msgfilter_entry));
    GtkWidget *ap = gtk_button_new_with_label("Apply");
    g_signal_connect(ap, "clicked", G_CALLBACK(apply_clicked_cb), self);
    gtk_box_append(GTK_BOX(row), ap);
    gtk_box_append(GTK_BOX(box), row);
    self->msgfilter_error = GTK_LABEL(gtk_label_new(NULL));
    gtk_label_set_xalign(self->msgfilter_error, 0);
    gtk_label_set_wrap(self->msgfilter_error, TRUE);
    gtk_label_set_max_width_chars(self->msgfilter_error, 40);
    gtk_widget_add_css_class(GTK_WIDGET(self->msgfilter_error), "error");
    gtk_widget_set_visible(GTK_WIDGET(self->msgfilter_error), FALSE);
    gtk_box_append(GTK_BOX(box), GTK_WIDGET(self->msgfilter_error));
    gtk_box_append(GTK_BOX(box), dim("The search's terms: tag, comm, peer (the sender's or receiver's rank), "
                                     "bytes, duration (the latency), compared with = != < <= > >=, e.g. "
                                     "\"bytes>=4KiB\" or \"duration>1ms\"; a word keeps the message "
                                     "categories whose name holds it. Empty: all messages."));
    GtkWidget *pop = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(pop), box);
    g_signal_connect(pop, "show", G_CALLBACK(popover_show_cb), self);

    self->msgfilter_button = GTK_MENU_BUTTON(gtk_menu_button_new());
    gtk_menu_button_set_popover(self->msgfilter_button, pop);
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->msgfilter_button),
                                "Filter the messages drawn by tag, communicator or peer");
    self->msgfilter_clear = gtk_button_new_from_icon_name("edit-clear-symbolic");
    gtk_widget_set_tooltip_text(self->msgfilter_clear, "Draw all messages again");
    g_signal_connect(self->msgfilter_clear, "clicked", G_CALLBACK(clear_clicked_cb), self);
    GtkWidget *linked = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0);
    gtk_widget_add_css_class(linked, "linked");
    gtk_box_append(GTK_BOX(linked), GTK_WIDGET(self->msgfilter_button));
    gtk_box_append(GTK_BOX(linked), self->msgfilter_clear);
    gtk_header_bar_pack_start(self->header, linked);
    update_button(self);
}

/* The script's message-filter: what the popover's Apply does with text. */
void sv_window_msgfilter_apply_text(SvWindow *self, const char *text)
{
    gtk_editable_set_text(GTK_EDITABLE(self->msgfilter_entry), text);
    apply(self);
}
