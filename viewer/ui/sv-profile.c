/* SPDX-License-Identifier: MIT */
/* sv-profile.c - see sv-profile.h. */
#include "sv-profile.h"

#include <stdio.h>

#include "profile.h"
#include "sv-window-private.h"

/* ------------------------------------------------------------ rows */

/* A row of either table: a category over every timeline, or a timeline's
 * part of one category. */
#define SV_TYPE_PROFILE_ITEM (sv_profile_item_get_type())
G_DECLARE_FINAL_TYPE(SvProfileItem, sv_profile_item, SV, PROFILE_ITEM, GObject)

struct _SvProfileItem {
    GObject parent_instance;
    slog_profile_row row;
    char *name; /* category or timeline */
    double share, bar;
};

G_DEFINE_FINAL_TYPE(SvProfileItem, sv_profile_item, G_TYPE_OBJECT)

static void sv_profile_item_finalize(GObject *o)
{
    g_free(SV_PROFILE_ITEM(o)->name);
    G_OBJECT_CLASS(sv_profile_item_parent_class)->finalize(o);
}

static void sv_profile_item_class_init(SvProfileItemClass *k)
{
    G_OBJECT_CLASS(k)->finalize = sv_profile_item_finalize;
}

static void sv_profile_item_init(SvProfileItem *self) {}

static SvProfileItem *item_new(const slog_profile_row *row, const char *name, double share)
{
    SvProfileItem *it = g_object_new(SV_TYPE_PROFILE_ITEM, NULL);
    it->row = *row;
    it->name = g_strdup(name);
    it->share = share;
    return it;
}

typedef enum col_id { COL_NAME, COL_CALLS, COL_INCL, COL_BAR, COL_EXCL, COL_MIN, COL_MEAN, COL_MAX, COL_SHARE } col_id;

static const struct {
    col_id id;
    const char *title;
    const char *tooltip;
} CAT_COLS[] =
    {
        {COL_NAME, "Category", NULL},
        {COL_CALLS, "Calls", "States of the category that meet the span"},
        {COL_INCL, "Inclusive", "Their time inside the span"},
        {COL_EXCL, "Exclusive", "Inclusive time minus that of the states nested directly in them"},
        {COL_MIN, "Min", "The shortest (its part inside the span)"},
        {COL_MEAN, "Mean", NULL},
        {COL_MAX, "Max", NULL},
        {COL_SHARE, "Share", "Inclusive time over the span × the timelines"},
},
  TL_COLS[] = {
      {COL_NAME, "Timeline", NULL},
      {COL_CALLS, "Calls", NULL},
      {COL_INCL, "Inclusive", "The timeline's time in the category inside the span"},
      {COL_BAR, "", NULL},
      {COL_EXCL, "Exclusive", NULL},
      {COL_MEAN, "Mean", NULL},
      {COL_MAX, "Max", NULL},
      {COL_SHARE, "Share", "Inclusive time over the span"},
};

static void format_cell(const SvProfileItem *it, col_id c, char *buf, size_t size)
{
    const slog_profile_row *p = &it->row;
    switch (c) {
    case COL_NAME: g_strlcpy(buf, it->name, size); break;
    case COL_CALLS: snprintf(buf, size, "%" G_GUINT64_FORMAT, p->calls); break;
    case COL_INCL: sv_format_duration((double)p->inclusive_ns, buf, size); break;
    case COL_EXCL: sv_format_duration((double)p->exclusive_ns, buf, size); break;
    case COL_MIN:
        if (p->calls)
            sv_format_duration((double)p->min_ns, buf, size);
        else
            g_strlcpy(buf, "–", size);
        break;
    case COL_MEAN:
        if (p->calls)
            sv_format_duration(sv_profile_mean_ns(p), buf, size);
        else
            g_strlcpy(buf, "–", size);
        break;
    case COL_MAX:
        if (p->calls)
            sv_format_duration((double)p->max_ns, buf, size);
        else
            g_strlcpy(buf, "–", size);
        break;
    case COL_SHARE: snprintf(buf, size, "%.2f %%", 100 * it->share); break;
    default: buf[0] = 0; break;
    }
}

static int cmp_num(double a, double b)
{
    return a < b ? -1 : a > b;
}

static int compare_items(gconstpointer a, gconstpointer b, gpointer user)
{
    const SvProfileItem *x = a, *y = b;
    switch ((col_id)GPOINTER_TO_INT(user)) {
    case COL_NAME:
        /* timelines by id, categories by name */
        if (x->row.timeline != y->row.timeline) return x->row.timeline < y->row.timeline ? -1 : 1;
        return g_utf8_collate(x->name, y->name);
    case COL_CALLS: return cmp_num((double)x->row.calls, (double)y->row.calls);
    case COL_BAR:
    case COL_INCL: return cmp_num((double)x->row.inclusive_ns, (double)y->row.inclusive_ns);
    case COL_EXCL: return cmp_num((double)x->row.exclusive_ns, (double)y->row.exclusive_ns);
    case COL_MIN: return cmp_num((double)x->row.min_ns, (double)y->row.min_ns);
    case COL_MEAN: return cmp_num(sv_profile_mean_ns(&x->row), sv_profile_mean_ns(&y->row));
    case COL_MAX: return cmp_num((double)x->row.max_ns, (double)y->row.max_ns);
    case COL_SHARE: return cmp_num(x->share, y->share);
    }
    return 0;
}

static void setup_cb(GtkSignalListItemFactory *f, GtkListItem *li, gpointer user)
{
    col_id c = (col_id)GPOINTER_TO_INT(user);
    if (c == COL_BAR) {
        GtkWidget *bar = gtk_progress_bar_new();
        gtk_widget_set_valign(bar, GTK_ALIGN_CENTER);
        gtk_widget_set_size_request(bar, 160, -1);
        gtk_list_item_set_child(li, bar);
        return;
    }
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), c == COL_NAME ? 0 : 1);
    if (c == COL_NAME) gtk_label_set_ellipsize(GTK_LABEL(l), PANGO_ELLIPSIZE_END);
    if (c != COL_NAME) gtk_widget_add_css_class(l, "numeric");
    gtk_list_item_set_child(li, l);
}

static void bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, gpointer user)
{
    col_id c = (col_id)GPOINTER_TO_INT(user);
    SvProfileItem *it = gtk_list_item_get_item(li);
    GtkWidget *w = gtk_list_item_get_child(li);
    if (c == COL_BAR) {
        gtk_progress_bar_set_fraction(GTK_PROGRESS_BAR(w), it->bar);
        return;
    }
    char buf[256];
    format_cell(it, c, buf, sizeof buf);
    gtk_label_set_text(GTK_LABEL(w), buf);
    if (c == COL_NAME) gtk_widget_set_tooltip_text(w, it->name);
}

/* ------------------------------------------------------------ window */

struct _SvProfileWindow {
    GtkWindow parent_instance;

    SvWindow *main; /* weak */
    GtkDropDown *scope_dd;
    GtkSearchEntry *filter_entry;
    GtkColumnView *cat_view, *tl_view;
    GListStore *cat_store, *tl_store;
    GtkFilter *filter;
    GtkSingleSelection *cat_sel;
    GtkLabel *tl_title, *status;

    sv_span_scope scope;
    int64_t category; /* shown per timeline, -1 = the largest */
    gboolean filling;

    sv_analysis_req req; /* the analysis on screen and the next one */
    gboolean undrawn;    /* a result not drawn yet */
};

G_DEFINE_FINAL_TYPE(SvProfileWindow, sv_profile_window, GTK_TYPE_WINDOW)

static void fill_timelines(SvProfileWindow *self)
{
    g_list_store_remove_all(self->tl_store);
    if (!self->req.an || self->category < 0) {
        gtk_label_set_text(self->tl_title, "Per timeline: choose a category above");
        return;
    }
    size_t n;
    const slog_profile_row *src = slog_analysis_profile(self->req.an, &n);
    uint32_t nt = self->req.doc->fi->n_timelines;
    slog_profile_row *rows = sv_profile_per_timeline(src, n, (uint32_t)self->category, nt);
    if (!rows) return;
    int64_t top = 0;
    for (uint32_t t = 0; t < nt; t++)
        if (rows[t].inclusive_ns > top) top = rows[t].inclusive_ns;
    GPtrArray *items = g_ptr_array_new_with_free_func(g_object_unref);
    for (uint32_t t = 0; t < nt; t++) {
        char name[160];
        snprintf(name, sizeof name, "%u  %s", t, self->req.doc->tl_labels[t] ? self->req.doc->tl_labels[t] : "");
        SvProfileItem *it = item_new(&rows[t], name, sv_profile_share(&rows[t], self->req.t0, self->req.t1, 1));
        it->bar = top > 0 ? (double)rows[t].inclusive_ns / (double)top : 0;
        g_ptr_array_add(items, it);
    }
    g_list_store_splice(self->tl_store, 0, 0, items->pdata, items->len);
    g_ptr_array_unref(items);
    free(rows);
    char *t = g_strdup_printf("Per timeline: %s", self->req.doc->cat_names[self->category]);
    gtk_label_set_text(self->tl_title, t);
    g_free(t);
}

/* Select the category's row in the (sorted, filtered) table. */
static void select_category_row(SvProfileWindow *self)
{
    GListModel *m = G_LIST_MODEL(self->cat_sel);
    guint n = g_list_model_get_n_items(m);
    for (guint i = 0; i < n; i++) {
        SvProfileItem *it = g_list_model_get_item(m, i);
        gboolean hit = (int64_t)it->row.category == self->category;
        g_object_unref(it);
        if (hit) {
            gtk_single_selection_set_selected(self->cat_sel, i);
            return;
        }
    }
    gtk_single_selection_set_selected(self->cat_sel, GTK_INVALID_LIST_POSITION);
}

static void fill(SvProfileWindow *self)
{
    self->filling = TRUE;
    g_list_store_remove_all(self->cat_store);
    size_t n = 0;
    const slog_profile_row *src = self->req.an ? slog_analysis_profile(self->req.an, &n) : NULL;
    slog_profile_row *rows = NULL;
    size_t m = self->req.an ? sv_profile_by_category(src, n, self->req.doc->fi->n_categories, &rows) : 0;
    if (m == (size_t)-1) m = 0;
    GPtrArray *items = g_ptr_array_new_with_free_func(g_object_unref);
    gboolean have = FALSE;
    int64_t largest = -1, top = -1;
    for (size_t i = 0; i < m; i++) {
        rows[i].timeline = 0;
        g_ptr_array_add(
            items, item_new(&rows[i], self->req.doc->cat_names[rows[i].category],
                            sv_profile_share(&rows[i], self->req.t0, self->req.t1, self->req.doc->fi->n_timelines)));
        if ((int64_t)rows[i].category == self->category) have = TRUE;
        if (rows[i].inclusive_ns > top) top = rows[i].inclusive_ns, largest = rows[i].category;
    }
    g_list_store_splice(self->cat_store, 0, 0, items->pdata, items->len);
    g_ptr_array_unref(items);
    free(rows);
    if (!have) self->category = largest;
    select_category_row(self);
    self->filling = FALSE;
    fill_timelines(self);
}

static void update_status(SvProfileWindow *self)
{
    char bytes[32], a[64], b[64], d[64];
    sv_format_bytes((double)self->req.stats.bytes_read, bytes, sizeof bytes);
    sv_format_time(self->req.t0, a, sizeof a);
    sv_format_time(self->req.t1, b, sizeof b);
    sv_format_duration((double)(self->req.t1 - self->req.t0), d, sizeof d);
    char *s = self->req.an
                  ? g_strdup_printf("States in %s: %s – %s (%s) · read %s in %" G_GUINT64_FORMAT " blocks, %.1f ms%s",
                                    self->req.what, a, b, d, bytes, self->req.stats.nodes_read, self->req.analyse_ms,
                                    self->req.busy ? " · computing…" : "")
                  : g_strdup(self->req.busy ? "Computing…" : "");
    gtk_label_set_text(self->status, s);
    g_free(s);
}

/* The frame after a result came: the table shows it (the timing line). */
static gboolean shown_tick_cb(GtkWidget *w, GdkFrameClock *fc, gpointer user)
{
    SvProfileWindow *self = user;
    if (self->undrawn && self->req.an) {
        self->undrawn = FALSE;
        if (self->req.asked_us)
            sv_analysis_report_timing("profile", self->req.asked_us, self->req.analyse_ms, &self->req.stats);
        self->req.asked_us = 0;
    }
    return G_SOURCE_REMOVE;
}

static void shown(GObject *owner, gboolean doc_changed)
{
    SvProfileWindow *self = SV_PROFILE_WINDOW(owner);
    if (doc_changed) {
        self->category = -1;
        sv_analysis_set_title(GTK_WINDOW(self), "Profile", self->main);
    }
    fill(self);
    self->undrawn = TRUE;
    gtk_widget_add_tick_callback(GTK_WIDGET(self->cat_view), shown_tick_cb, self, NULL);
}

static void status_changed(GObject *owner)
{
    update_status(SV_PROFILE_WINDOW(owner));
}

static void refresh(SvProfileWindow *self, gboolean now)
{
    sv_analysis_req_refresh(&self->req, self->main, self->scope, now);
}

static void view_changed_cb(SvTimeline *tl, SvProfileWindow *self)
{
    refresh(self, FALSE);
}

static void range_selected_cb(SvTimeline *tl, double t0, double t1, SvProfileWindow *self)
{
    if (self->scope == SV_SCOPE_SELECTION) refresh(self, TRUE);
}

/* ------------------------------------------------------------ tables */

static gboolean filter_cb(gpointer item, gpointer user)
{
    SvProfileWindow *self = user;
    const char *text = gtk_editable_get_text(GTK_EDITABLE(self->filter_entry));
    if (!text || !*text) return TRUE;
    char *a = g_utf8_casefold(SV_PROFILE_ITEM(item)->name, -1), *b = g_utf8_casefold(text, -1);
    gboolean hit = strstr(a, b) != NULL;
    g_free(a);
    g_free(b);
    return hit;
}

static void filter_changed_cb(GtkSearchEntry *e, SvProfileWindow *self)
{
    gtk_filter_changed(self->filter, GTK_FILTER_CHANGE_DIFFERENT);
}

static void cat_selected_cb(GtkSingleSelection *sel, GParamSpec *ps, SvProfileWindow *self)
{
    if (self->filling) return;
    SvProfileItem *it = gtk_single_selection_get_selected_item(sel);
    if (!it || (int64_t)it->row.category == self->category) return;
    self->category = it->row.category;
    fill_timelines(self);
}

static void tl_activate_cb(GtkColumnView *v, guint pos, SvProfileWindow *self)
{
    GListModel *m = G_LIST_MODEL(gtk_column_view_get_model(v));
    SvProfileItem *it = g_list_model_get_item(m, pos);
    if (!it) return;
    if (self->main) {
        sv_analysis_show_timelines(self->main, it->row.timeline, it->row.timeline);
        if (self->main->script) printf("profile: went to timeline %u\n", it->row.timeline), fflush(stdout);
    }
    g_object_unref(it);
}

static GtkColumnView *make_table(SvProfileWindow *self, GListModel *model, gboolean categories, GtkWidget **scroll)
{
    GtkColumnView *v = GTK_COLUMN_VIEW(gtk_column_view_new(NULL));
    gtk_column_view_set_show_column_separators(v, TRUE);
    gtk_widget_add_css_class(GTK_WIDGET(v), "data-table");
    size_t n = categories ? G_N_ELEMENTS(CAT_COLS) : G_N_ELEMENTS(TL_COLS);
    GtkColumnViewColumn *first_sort = NULL;
    for (size_t i = 0; i < n; i++) {
        col_id id = categories ? CAT_COLS[i].id : TL_COLS[i].id;
        const char *title = categories ? CAT_COLS[i].title : TL_COLS[i].title;
        GtkListItemFactory *f = gtk_signal_list_item_factory_new();
        g_signal_connect(f, "setup", G_CALLBACK(setup_cb), GINT_TO_POINTER(id));
        g_signal_connect(f, "bind", G_CALLBACK(bind_cb), GINT_TO_POINTER(id));
        GtkColumnViewColumn *c = gtk_column_view_column_new(title, f);
        GtkSorter *s = GTK_SORTER(gtk_custom_sorter_new(compare_items, GINT_TO_POINTER(id), NULL));
        gtk_column_view_column_set_sorter(c, s);
        g_object_unref(s);
        gtk_column_view_column_set_resizable(c, TRUE);
        if (id == COL_NAME) gtk_column_view_column_set_expand(c, TRUE);
        if (id == COL_INCL) first_sort = c;
        gtk_column_view_append_column(v, c);
        g_object_unref(c);
    }
    GtkSortListModel *sorted = gtk_sort_list_model_new(model, g_object_ref(gtk_column_view_get_sorter(v)));
    if (categories) {
        self->cat_sel = gtk_single_selection_new(G_LIST_MODEL(sorted));
        gtk_single_selection_set_autoselect(self->cat_sel, FALSE);
        gtk_single_selection_set_can_unselect(self->cat_sel, TRUE);
        gtk_column_view_set_model(v, GTK_SELECTION_MODEL(self->cat_sel));
    } else {
        GtkSingleSelection *sel = gtk_single_selection_new(G_LIST_MODEL(sorted));
        gtk_single_selection_set_autoselect(sel, FALSE);
        gtk_column_view_set_model(v, GTK_SELECTION_MODEL(sel));
        g_object_unref(sel);
        gtk_column_view_set_single_click_activate(v, TRUE);
        g_signal_connect(v, "activate", G_CALLBACK(tl_activate_cb), self);
    }
    /* the largest time first: where the time goes, and the most loaded
     * timelines on top */
    gtk_column_view_sort_by_column(v, first_sort, GTK_SORT_DESCENDING);
    *scroll = gtk_scrolled_window_new();
    gtk_scrolled_window_set_child(GTK_SCROLLED_WINDOW(*scroll), GTK_WIDGET(v));
    gtk_widget_set_vexpand(*scroll, TRUE);
    return v;
}

static GtkColumnViewColumn *column_titled(GtkColumnView *v, const char *title)
{
    GListModel *cols = gtk_column_view_get_columns(v);
    for (guint i = 0; i < g_list_model_get_n_items(cols); i++) {
        GtkColumnViewColumn *c = g_list_model_get_item(cols, i);
        const char *t = gtk_column_view_column_get_title(c);
        g_object_unref(c);
        if (t && g_ascii_strcasecmp(t, title) == 0) return c;
    }
    return NULL;
}

/* ------------------------------------------------------------ export */

gboolean sv_profile_window_write_csv(SvProfileWindow *self, const char *path, int64_t *t0, int64_t *t1, GError **error)
{
    if (!self->req.an) {
        g_set_error(error, SV_ERROR, 1, "No profile computed yet");
        return FALSE;
    }
    size_t n;
    const slog_profile_row *src = slog_analysis_profile(self->req.an, &n);
    slog_profile_row *rows;
    size_t m = sv_profile_by_category(src, n, self->req.doc->fi->n_categories, &rows);
    if (m == (size_t)-1) {
        g_set_error(error, SV_ERROR, 1, "Out of memory");
        return FALSE;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        g_set_error(error, G_IO_ERROR, g_io_error_from_errno(errno), "%s: %s", path, g_strerror(errno));
        free(rows);
        return FALSE;
    }
    int bad = sv_profile_write_csv(f, rows, m, (const char *const *)self->req.doc->cat_names, self->req.t0,
                                   self->req.t1, self->req.doc->fi->n_timelines);
    free(rows);
    if (fclose(f) != 0 || bad) {
        g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot be written", path);
        return FALSE;
    }
    if (t0) *t0 = self->req.t0;
    if (t1) *t1 = self->req.t1;
    return TRUE;
}

static gboolean write_csv(gpointer obj, const char *path, int64_t *t0, int64_t *t1, GError **error)
{
    return sv_profile_window_write_csv(obj, path, t0, t1, error);
}

static void export_clicked_cb(GtkButton *b, SvProfileWindow *self)
{
    sv_analysis_export_csv(GTK_WINDOW(self), "Export Profile as CSV", "profile.csv",
                           "The profile could not be exported", self->main, write_csv, self);
}

/* ------------------------------------------------------------ API */

void sv_profile_window_set_scope(SvProfileWindow *self, sv_span_scope s)
{
    if (s < SV_N_SCOPES) gtk_drop_down_set_selected(self->scope_dd, s);
}

gboolean sv_profile_window_busy(SvProfileWindow *self)
{
    return sv_analysis_req_waiting(&self->req) || (self->undrawn && gtk_widget_get_mapped(GTK_WIDGET(self)));
}

void sv_profile_window_set_filter(SvProfileWindow *self, const char *text)
{
    gtk_editable_set_text(GTK_EDITABLE(self->filter_entry), text);
    gtk_filter_changed(self->filter, GTK_FILTER_CHANGE_DIFFERENT);
}

gboolean sv_profile_window_set_category(SvProfileWindow *self, const char *name)
{
    GListModel *m = G_LIST_MODEL(self->cat_store);
    for (guint i = 0; i < g_list_model_get_n_items(m); i++) {
        SvProfileItem *it = g_list_model_get_item(m, i);
        gboolean hit = g_str_equal(it->name, name);
        uint32_t k = it->row.category;
        g_object_unref(it);
        if (hit) {
            self->category = k;
            self->filling = TRUE;
            select_category_row(self);
            self->filling = FALSE;
            fill_timelines(self);
            return TRUE;
        }
    }
    return FALSE;
}

gboolean sv_profile_window_sort(SvProfileWindow *self, const char *table, const char *column, gboolean descending)
{
    GtkColumnView *v = g_str_equal(table, "timelines") ? self->tl_view : self->cat_view;
    GtkColumnViewColumn *c = column_titled(v, column);
    if (!c) return FALSE;
    gtk_column_view_sort_by_column(v, c, descending ? GTK_SORT_DESCENDING : GTK_SORT_ASCENDING);
    return TRUE;
}

char *sv_profile_window_describe(SvProfileWindow *self, const char *table)
{
    gboolean tl = g_str_equal(table, "timelines");
    GtkColumnView *v = tl ? self->tl_view : self->cat_view;
    GListModel *m = G_LIST_MODEL(gtk_column_view_get_model(v));
    GString *s = g_string_new(NULL);
    size_t n_cols = tl ? G_N_ELEMENTS(TL_COLS) : G_N_ELEMENTS(CAT_COLS);
    for (guint i = 0; i < g_list_model_get_n_items(m); i++) {
        SvProfileItem *it = g_list_model_get_item(m, i);
        for (size_t k = 0; k < n_cols; k++) {
            col_id c = tl ? TL_COLS[k].id : CAT_COLS[k].id;
            char buf[256];
            if (c == COL_BAR)
                snprintf(buf, sizeof buf, "bar %.3f", it->bar);
            else
                format_cell(it, c, buf, sizeof buf);
            g_string_append_printf(s, "%s%s", k ? " | " : "", buf);
        }
        g_string_append_c(s, '\n');
        g_object_unref(it);
    }
    return g_string_free(s, FALSE);
}

gboolean sv_profile_window_activate_timeline_row(SvProfileWindow *self, guint i)
{
    GListModel *m = G_LIST_MODEL(gtk_column_view_get_model(self->tl_view));
    if (i >= g_list_model_get_n_items(m)) return FALSE;
    g_signal_emit_by_name(self->tl_view, "activate", i);
    return TRUE;
}

/* ------------------------------------------------------------ class */

static void scope_changed_cb(GtkDropDown *dd, GParamSpec *ps, SvProfileWindow *self)
{
    self->scope = (sv_span_scope)gtk_drop_down_get_selected(dd);
    refresh(self, TRUE);
}

static void sv_profile_window_dispose(GObject *o)
{
    SvProfileWindow *self = SV_PROFILE_WINDOW(o);
    sv_analysis_req_stop(&self->req);
    if (self->main) g_object_remove_weak_pointer(G_OBJECT(self->main), (gpointer *)&self->main);
    self->main = NULL;
    G_OBJECT_CLASS(sv_profile_window_parent_class)->dispose(o);
}

static void sv_profile_window_finalize(GObject *o)
{
    SvProfileWindow *self = SV_PROFILE_WINDOW(o);
    sv_analysis_req_clear(&self->req);
    g_clear_object(&self->cat_store);
    g_clear_object(&self->tl_store);
    g_clear_object(&self->filter);
    g_clear_object(&self->cat_sel);
    G_OBJECT_CLASS(sv_profile_window_parent_class)->finalize(o);
}

static void sv_profile_window_class_init(SvProfileWindowClass *klass)
{
    G_OBJECT_CLASS(klass)->dispose = sv_profile_window_dispose;
    G_OBJECT_CLASS(klass)->finalize = sv_profile_window_finalize;
}

static void sv_profile_window_init(SvProfileWindow *self)
{
    sv_analysis_req_init(&self->req, G_OBJECT(self), &self->main, SLOG_ANALYSIS_PROFILE,
                         "The profile could not be computed", shown, status_changed);
    self->category = -1;
}

static GtkWidget *margins(GtkWidget *w, int top)
{
    gtk_widget_set_margin_start(w, 8);
    gtk_widget_set_margin_end(w, 8);
    gtk_widget_set_margin_top(w, top);
    gtk_widget_set_margin_bottom(w, 4);
    return w;
}

SvProfileWindow *sv_profile_window_new(SvWindow *main)
{
    SvProfileWindow *self = g_object_new(SV_TYPE_PROFILE_WINDOW, NULL);
    self->main = main;
    g_object_add_weak_pointer(G_OBJECT(main), (gpointer *)&self->main);
    sv_analysis_set_title(GTK_WINDOW(self), "Profile", main);
    gtk_window_set_transient_for(GTK_WINDOW(self), GTK_WINDOW(main));
    gtk_window_set_destroy_with_parent(GTK_WINDOW(self), TRUE);
    gtk_window_set_default_size(GTK_WINDOW(self), 980, 820);

    GtkWidget *header = gtk_header_bar_new();
    self->scope_dd = GTK_DROP_DOWN(gtk_drop_down_new_from_strings(sv_scope_labels));
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->scope_dd), "The states in which span of the trace");
    GtkWidget *sb = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *sl = gtk_label_new("Span");
    gtk_widget_add_css_class(sl, "dim-label");
    gtk_box_append(GTK_BOX(sb), sl);
    gtk_box_append(GTK_BOX(sb), GTK_WIDGET(self->scope_dd));
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), sb);
    self->filter_entry = GTK_SEARCH_ENTRY(gtk_search_entry_new());
    g_object_set(self->filter_entry, "placeholder-text", "Filter categories", NULL);
    gtk_header_bar_pack_start(GTK_HEADER_BAR(header), GTK_WIDGET(self->filter_entry));
    GtkWidget *export = gtk_button_new_with_mnemonic("_Export CSV…");
    gtk_widget_set_tooltip_text(export, "Save the category table as slog2-print --profile --format csv writes it");
    g_signal_connect(export, "clicked", G_CALLBACK(export_clicked_cb), self);
    gtk_header_bar_pack_end(GTK_HEADER_BAR(header), export);
    gtk_window_set_titlebar(GTK_WINDOW(self), header);

    self->cat_store = g_list_store_new(SV_TYPE_PROFILE_ITEM);
    self->tl_store = g_list_store_new(SV_TYPE_PROFILE_ITEM);
    self->filter = GTK_FILTER(gtk_custom_filter_new(filter_cb, self, NULL));
    GtkFilterListModel *filtered =
        gtk_filter_list_model_new(G_LIST_MODEL(g_object_ref(self->cat_store)), g_object_ref(self->filter));
    GtkWidget *cat_scroll, *tl_scroll;
    self->cat_view = make_table(self, G_LIST_MODEL(filtered), TRUE, &cat_scroll);
    self->tl_view = make_table(self, G_LIST_MODEL(g_object_ref(self->tl_store)), FALSE, &tl_scroll);

    GtkWidget *top = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    GtkWidget *h1 = gtk_label_new("Per category, over every timeline (select one to see it per timeline)");
    gtk_label_set_xalign(GTK_LABEL(h1), 0);
    gtk_widget_add_css_class(h1, "heading");
    gtk_box_append(GTK_BOX(top), margins(h1, 6));
    gtk_box_append(GTK_BOX(top), cat_scroll);
    GtkWidget *bottom = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    self->tl_title = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_xalign(self->tl_title, 0);
    gtk_widget_add_css_class(GTK_WIDGET(self->tl_title), "heading");
    gtk_widget_set_tooltip_text(GTK_WIDGET(self->tl_title),
                                "Click a header to sort; click a timeline to bring its row into view");
    gtk_box_append(GTK_BOX(bottom), margins(GTK_WIDGET(self->tl_title), 6));
    gtk_box_append(GTK_BOX(bottom), tl_scroll);
    GtkWidget *paned = gtk_paned_new(GTK_ORIENTATION_VERTICAL);
    gtk_paned_set_start_child(GTK_PANED(paned), top);
    gtk_paned_set_end_child(GTK_PANED(paned), bottom);
    gtk_paned_set_position(GTK_PANED(paned), 340);
    gtk_widget_set_vexpand(paned, TRUE);
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0);
    gtk_box_append(GTK_BOX(box), paned);
    self->status = GTK_LABEL(gtk_label_new(""));
    gtk_label_set_xalign(self->status, 0);
    gtk_label_set_ellipsize(self->status, PANGO_ELLIPSIZE_END);
    gtk_widget_add_css_class(GTK_WIDGET(self->status), "dim-label");
    gtk_widget_add_css_class(GTK_WIDGET(self->status), "numeric");
    gtk_box_append(GTK_BOX(box), margins(GTK_WIDGET(self->status), 4));
    gtk_window_set_child(GTK_WINDOW(self), box);

    g_signal_connect(self->filter_entry, "search-changed", G_CALLBACK(filter_changed_cb), self);
    g_signal_connect(self->cat_sel, "notify::selected-item", G_CALLBACK(cat_selected_cb), self);
    g_signal_connect(self->scope_dd, "notify::selected", G_CALLBACK(scope_changed_cb), self);
    g_signal_connect_object(main->timeline, "view-changed", G_CALLBACK(view_changed_cb), self, 0);
    g_signal_connect_object(main->timeline, "range-selected", G_CALLBACK(range_selected_cb), self, 0);
    refresh(self, TRUE);
    return self;
}
