/* SPDX-License-Identifier: MIT */
/* sv-legend.c - see sv-legend.h. */
#include "sv-legend.h"

#include "sv-config.h"
#include "sv-swatch.h"
#include "viewport.h"

/* ------------------------------------------------------------ item */

#define SV_TYPE_CAT_ITEM (sv_cat_item_get_type())
G_DECLARE_FINAL_TYPE(SvCatItem, sv_cat_item, SV, CAT_ITEM, GObject)

struct _SvCatItem {
    GObject parent_instance;
    guint id;
    char *name, *kind;
    guint64 count;
    gint64 total;
    gboolean visible;
};

enum { P_0, P_NAME, P_KIND, P_COUNT, P_TOTAL, P_VISIBLE, N_P };
static GParamSpec *cat_props[N_P];

G_DEFINE_FINAL_TYPE(SvCatItem, sv_cat_item, G_TYPE_OBJECT)

static void cat_get(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    SvCatItem *c = SV_CAT_ITEM(o);
    switch (id) {
    case P_NAME: g_value_set_string(v, c->name); break;
    case P_KIND: g_value_set_string(v, c->kind); break;
    case P_COUNT: g_value_set_uint64(v, c->count); break;
    case P_TOTAL: g_value_set_int64(v, c->total); break;
    case P_VISIBLE: g_value_set_boolean(v, c->visible); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
    }
}

static void cat_finalize(GObject *o)
{
    SvCatItem *c = SV_CAT_ITEM(o);
    g_free(c->name);
    g_free(c->kind);
    G_OBJECT_CLASS(sv_cat_item_parent_class)->finalize(o);
}

static void sv_cat_item_class_init(SvCatItemClass *k)
{
    GObjectClass *oc = G_OBJECT_CLASS(k);
    oc->get_property = cat_get;
    oc->finalize = cat_finalize;
    cat_props[P_NAME] = g_param_spec_string("name", NULL, NULL, NULL, G_PARAM_READABLE);
    cat_props[P_KIND] = g_param_spec_string("kind", NULL, NULL, NULL, G_PARAM_READABLE);
    cat_props[P_COUNT] = g_param_spec_uint64("count", NULL, NULL, 0, G_MAXUINT64, 0, G_PARAM_READABLE);
    cat_props[P_TOTAL] = g_param_spec_int64("total", NULL, NULL, G_MININT64, G_MAXINT64, 0, G_PARAM_READABLE);
    cat_props[P_VISIBLE] = g_param_spec_boolean("visible", NULL, NULL, TRUE, G_PARAM_READABLE);
    g_object_class_install_properties(oc, N_P, cat_props);
}

static void sv_cat_item_init(SvCatItem *c)
{
    c->visible = TRUE;
}

/* ------------------------------------------------------------ legend */

struct _SvLegend {
    GtkWidget parent_instance;
    /* template children (sv-legend.ui) */
    GtkWidget *box, *entry, *view, *scroller;
    GtkWidget *arrows_dd, *arrows_scale, *arrows_low, *arrows_high;
    GtkColumnViewColumn *total_col;

    sv_arrow_colour arrows;
    GListStore *store;
    GtkFilterListModel *filtered;
    GtkCustomFilter *filter;
    SvDocRef *doc;
};

G_DEFINE_FINAL_TYPE(SvLegend, sv_legend, GTK_TYPE_WIDGET)

enum { SIG_CHANGED, N_SIG };
static guint legend_signals[N_SIG];

enum { PROP_0, PROP_MESSAGES_BY, N_PROPS };
static GParamSpec *legend_props[N_PROPS];

#define COLORS_FILE "colors.ini"

static void save_color(const char *name, const GdkRGBA *c)
{
    GKeyFile *kf = sv_config_load(COLORS_FILE);
    char *s = gdk_rgba_to_string(c);
    g_key_file_set_string(kf, "colors", name, s);
    g_free(s);
    sv_config_save(kf, COLORS_FILE);
    g_key_file_free(kf);
}

uint32_t sv_legend_rgba_to_u32(const GdkRGBA *c)
{
    return ((uint32_t)(c->red * 255 + 0.5) << 24) | ((uint32_t)(c->green * 255 + 0.5) << 16) |
           ((uint32_t)(c->blue * 255 + 0.5) << 8) | (uint32_t)(c->alpha * 255 + 0.5);
}

static GdkRGBA u32_to_rgba(uint32_t v)
{
    GdkRGBA c = {((v >> 24) & 255) / 255.0f, ((v >> 16) & 255) / 255.0f, ((v >> 8) & 255) / 255.0f, (v & 255) / 255.0f};
    return c;
}

static void apply_saved_colors(SvDocRef *doc)
{
    GKeyFile *kf = sv_config_load(COLORS_FILE);
    for (uint32_t i = 0; i < doc->pal.n; i++) {
        char *s = g_key_file_get_string(kf, "colors", doc->cat_names[i], NULL);
        GdkRGBA c;
        if (s && gdk_rgba_parse(&c, s))
            doc->pal.rgba[i] = sv_legend_rgba_to_u32(&c);
        else if (s)
            sv_config_bad_value(COLORS_FILE, "colors", doc->cat_names[i], "not a colour");
        g_free(s);
    }
    g_key_file_free(kf);
}

static gboolean filter_func(gpointer item, gpointer user)
{
    SvLegend *self = user;
    const char *t = gtk_editable_get_text(GTK_EDITABLE(self->entry));
    if (!t || !*t) return TRUE;
    char *a = g_utf8_casefold(SV_CAT_ITEM(item)->name, -1), *b = g_utf8_casefold(t, -1);
    gboolean ok = strstr(a, b) != NULL;
    g_free(a);
    g_free(b);
    return ok;
}

static void sv_legend_search_changed_cb(GtkSearchEntry *e, SvLegend *self)
{
    gtk_filter_changed(GTK_FILTER(self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

/* --- cells --- */

static void visible_toggled_cb(GtkCheckButton *b, SvLegend *self)
{
    SvCatItem *c = g_object_get_data(G_OBJECT(b), "item");
    if (!c || !self->doc) return;
    c->visible = gtk_check_button_get_active(b);
    if (c->id < self->doc->pal.n) self->doc->pal.visible[c->id] = (uint8_t)c->visible;
    g_object_notify_by_pspec(G_OBJECT(c), cat_props[P_VISIBLE]);
    g_signal_emit(self, legend_signals[SIG_CHANGED], 0);
}

static void sv_legend_visible_setup_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    GtkWidget *b = gtk_check_button_new();
    gtk_widget_set_tooltip_text(b, "Show or hide this category");
    g_signal_connect(b, "toggled", G_CALLBACK(visible_toggled_cb), self);
    gtk_list_item_set_child(li, b);
}

static void sv_legend_visible_bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    SvCatItem *c = gtk_list_item_get_item(li);
    GtkWidget *b = gtk_list_item_get_child(li);
    g_object_set_data(G_OBJECT(b), "item", NULL);
    gtk_check_button_set_active(GTK_CHECK_BUTTON(b), c->visible);
    g_object_set_data(G_OBJECT(b), "item", c);
}

static void apply_color(SvLegend *self, SvCatItem *c, const GdkRGBA *rgba)
{
    self->doc->pal.rgba[c->id] = sv_legend_rgba_to_u32(rgba);
    save_color(c->name, rgba);
    g_signal_emit(self, legend_signals[SIG_CHANGED], 0);
}

static void sv_legend_color_set_cb(SvSwatch *b, SvLegend *self)
{
    SvCatItem *c = g_object_get_data(G_OBJECT(b), "item");
    if (!c || !self->doc || c->id >= self->doc->pal.n) return;
    GdkRGBA rgba;
    sv_swatch_get_rgba(b, &rgba);
    apply_color(self, c, &rgba);
}

gboolean sv_legend_set_color(SvLegend *self, const char *category, const GdkRGBA *rgba)
{
    GListModel *m = G_LIST_MODEL(self->store);
    for (guint i = 0; self->doc && i < g_list_model_get_n_items(m); i++) {
        SvCatItem *c = g_list_model_get_item(m, i);
        gboolean hit = g_str_equal(c->name, category) && c->id < self->doc->pal.n;
        if (hit) {
            apply_color(self, c, rgba);
            g_list_model_items_changed(m, i, 1, 1); /* rebinds its swatch */
        }
        g_object_unref(c);
        if (hit) return TRUE;
    }
    return FALSE;
}

gboolean sv_legend_set_visible(SvLegend *self, const char *category, gboolean visible)
{
    GListModel *m = G_LIST_MODEL(self->store);
    for (guint i = 0; self->doc && i < g_list_model_get_n_items(m); i++) {
        SvCatItem *c = g_list_model_get_item(m, i);
        gboolean hit = g_str_equal(c->name, category) && c->id < self->doc->pal.n;
        if (hit) {
            c->visible = visible;
            self->doc->pal.visible[c->id] = (uint8_t)visible;
            g_list_model_items_changed(m, i, 1, 1); /* rebinds its check box */
            g_signal_emit(self, legend_signals[SIG_CHANGED], 0);
        }
        g_object_unref(c);
        if (hit) return TRUE;
    }
    return FALSE;
}

static void sv_legend_name_setup_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6);
    GtkWidget *cb = sv_swatch_new();
    g_signal_connect(cb, "color-set", G_CALLBACK(sv_legend_color_set_cb), self);
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), 0);
    /* whole names, on two lines if need be: an ellipsis cut the long ones
     * (MPI_Group_translate_ranks) to where they could not be told apart */
    gtk_label_set_wrap(GTK_LABEL(l), TRUE);
    gtk_label_set_wrap_mode(GTK_LABEL(l), PANGO_WRAP_WORD_CHAR);
    PangoAttrList *al = pango_attr_list_new();
    pango_attr_list_insert(al, pango_attr_insert_hyphens_new(FALSE)); /* a hyphen is not in the name */
    gtk_label_set_attributes(GTK_LABEL(l), al);
    pango_attr_list_unref(al);
    gtk_widget_set_hexpand(l, TRUE);
    gtk_box_append(GTK_BOX(box), cb);
    gtk_box_append(GTK_BOX(box), l);
    gtk_list_item_set_child(li, box);
}

static void sv_legend_name_bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    SvCatItem *c = gtk_list_item_get_item(li);
    GtkWidget *box = gtk_list_item_get_child(li);
    GtkWidget *cb = gtk_widget_get_first_child(box);
    GtkWidget *l = gtk_widget_get_next_sibling(cb);
    g_object_set_data(G_OBJECT(cb), "item", NULL);
    if (self->doc && c->id < self->doc->pal.n) {
        GdkRGBA rgba = u32_to_rgba(self->doc->pal.rgba[c->id]);
        sv_swatch_set_rgba(SV_SWATCH(cb), &rgba);
    }
    /* lines break after an underscore (a zero-width space there) rather
     * than anywhere in a word */
    char **parts = g_strsplit(c->name, "_", -1);
    char *shown = g_strjoinv("_\u200b", parts);
    gtk_label_set_text(GTK_LABEL(l), shown);
    g_free(shown);
    g_strfreev(parts);
    gtk_widget_set_tooltip_text(l, c->name);
    g_object_set_data(G_OBJECT(cb), "item", c);
}

static void setup_label(GtkListItem *li, gboolean right)
{
    GtkWidget *l = gtk_label_new(NULL);
    gtk_label_set_xalign(GTK_LABEL(l), right ? 1 : 0);
    if (right)
        gtk_widget_add_css_class(l, "numeric");
    else
        gtk_widget_add_css_class(l, "dim-label");
    gtk_list_item_set_child(li, l);
}

static void sv_legend_text_setup_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    setup_label(li, FALSE);
}

static void sv_legend_number_setup_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    setup_label(li, TRUE);
}

static void sv_legend_kind_bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(li)), SV_CAT_ITEM(gtk_list_item_get_item(li))->kind);
}

static void sv_legend_count_bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    char buf[32];
    g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT, SV_CAT_ITEM(gtk_list_item_get_item(li))->count);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(li)), buf);
}

static void sv_legend_total_bind_cb(GtkSignalListItemFactory *f, GtkListItem *li, SvLegend *self)
{
    SvCatItem *c = gtk_list_item_get_item(li);
    char buf[32] = "";
    if (g_strcmp0(c->kind, "state") == 0)
        sv_format_duration((double)c->total, buf, sizeof buf);
    else
        g_strlcpy(buf, "\xe2\x80\x94", sizeof buf);
    gtk_label_set_text(GTK_LABEL(gtk_list_item_get_child(li)), buf);
}

/* --------------------------------------------------------- messages */

static void arrows_scale_draw(GtkDrawingArea *a, cairo_t *cr, int w, int h, gpointer user)
{
    SvLegend *self = user;
    if (self->arrows == SV_ARROWS_TAG) {
        double sw = w / 10.0;
        for (int t = 0; t < 10; t++) {
            sv_palette one = {0};
            uint8_t kind = SLOG_KIND_ARROW;
            int16_t tf = 0, sf = -1;
            uint32_t rgba = 0x808080ffu;
            one.n = 1, one.rgba = &rgba, one.kind = &kind, one.tag_field = &tf, one.size_field = &sf;
            one.arrows = SV_ARROWS_TAG;
            int64_t tag = t;
            sv_set_rgba(cr, sv_arrow_rgba(&one, 0, 0, &tag, 1), 1, 1);
            cairo_rectangle(cr, t * sw + 1, 1, sw - 2, h - 2);
            cairo_fill(cr);
        }
        return;
    }
    for (int x = 0; x < w; x++) {
        sv_set_rgba(cr, sv_ramp_rgba(w > 1 ? x / (double)(w - 1) : 0), 1, 1);
        cairo_rectangle(cr, x, 2, 1, h - 4);
        cairo_fill(cr);
    }
}

static void show_arrows(SvLegend *self)
{
    const char *lo = sv_arrow_scale_low(self->arrows), *hi = sv_arrow_scale_high(self->arrows);
    gboolean tag = self->arrows == SV_ARROWS_TAG;
    gtk_widget_set_visible(self->arrows_scale, lo != NULL || tag);
    gtk_label_set_text(GTK_LABEL(self->arrows_low), lo ? lo : tag ? "0" : "");
    gtk_label_set_text(GTK_LABEL(self->arrows_high), hi ? hi : tag ? "9, then again" : "");
    gtk_widget_set_tooltip_text(self->arrows_scale, tag ? "The tag's colour: tag 0 to 9, then again" : "Log scale");
    gtk_widget_queue_draw(self->arrows_scale);
}

static void sv_legend_arrows_selected_cb(GtkDropDown *dd, GParamSpec *ps, SvLegend *self)
{
    sv_legend_set_arrow_colour(self, (sv_arrow_colour)gtk_drop_down_get_selected(dd));
}

void sv_legend_set_arrow_colour(SvLegend *self, sv_arrow_colour c)
{
    if (c >= SV_N_ARROW_COLOURS) return;
    gboolean changed = self->arrows != c;
    self->arrows = c;
    if (gtk_drop_down_get_selected(GTK_DROP_DOWN(self->arrows_dd)) != (guint)c)
        gtk_drop_down_set_selected(GTK_DROP_DOWN(self->arrows_dd), (guint)c);
    show_arrows(self);
    if (changed) g_object_notify_by_pspec(G_OBJECT(self), legend_props[PROP_MESSAGES_BY]);
    if (self->doc && self->doc->pal.arrows != c) {
        self->doc->pal.arrows = c;
        g_signal_emit(self, legend_signals[SIG_CHANGED], 0);
    }
}

gboolean sv_legend_names_whole(SvLegend *self, char **cut)
{
    GString *out = g_string_new(NULL);
    GtkWidget *stack[64];
    int sp = 0;
    stack[sp++] = self->view;
    while (sp) {
        GtkWidget *w = stack[--sp];
        for (GtkWidget *c = gtk_widget_get_first_child(w); c && sp < 63; c = gtk_widget_get_next_sibling(c))
            stack[sp++] = c;
        if (!GTK_IS_LABEL(w) || !gtk_widget_get_mapped(w) || !gtk_widget_get_tooltip_text(w)) continue;
        /* a category name: its tooltip is the name */
        int min = 0;
        gtk_widget_measure(w, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
        PangoLayout *l = gtk_label_get_layout(GTK_LABEL(w));
        GtkWidget *cell = gtk_widget_get_parent(gtk_widget_get_parent(w));
        graphene_rect_t b, cb;
        gboolean out_of_cell = gtk_widget_compute_bounds(w, self->view, &b) &&
                               gtk_widget_compute_bounds(cell, self->view, &cb) &&
                               b.origin.x + b.size.width > cb.origin.x + cb.size.width + 0.5;
        if (pango_layout_is_ellipsized(l) || gtk_widget_get_width(w) < min || out_of_cell)
            g_string_append_printf(out, "%s%s", out->len ? ", " : "", gtk_label_get_text(GTK_LABEL(w)));
    }
    gboolean whole = out->len == 0;
    *cut = g_string_free(out, FALSE);
    return whole;
}

void sv_legend_set_doc(SvLegend *self, SvDocRef *doc)
{
    sv_doc_ref_release(self->doc);
    self->doc = doc ? sv_doc_ref_acquire(doc) : NULL;
    g_list_store_remove_all(self->store);
    if (!doc) return;
    doc->pal.arrows = self->arrows;
    apply_saved_colors(doc);
    static const char *const kinds[] = {"state", "arrow", "event"};
    /* One splice, not an append per row: appended rows sorted in above the
     * view's anchor left the list scrolled to its end. */
    GPtrArray *items = g_ptr_array_new_with_free_func(g_object_unref);
    for (uint32_t i = 0; i < doc->pal.n; i++) {
        const slog_category *cat = slog_reader_category(doc->r, i);
        const slog_category_stats *st = slog_reader_category_stats(doc->r, i);
        SvCatItem *c = g_object_new(SV_TYPE_CAT_ITEM, NULL);
        c->id = i;
        c->name = g_strdup(cat->name);
        c->kind = g_strdup(kinds[cat->kind % 3]);
        c->count = st ? st->count : 0;
        c->total = st ? st->total_ns : 0;
        c->visible = doc->pal.visible[i];
        g_ptr_array_add(items, c);
    }
    g_list_store_splice(self->store, 0, 0, items->pdata, items->len);
    g_ptr_array_unref(items);
    GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment(GTK_SCROLLED_WINDOW(self->scroller));
    gtk_adjustment_set_value(adj, gtk_adjustment_get_lower(adj));
}

GtkWidget *sv_legend_new(void)
{
    return g_object_new(SV_TYPE_LEGEND, NULL);
}

static void sv_legend_get_property(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    SvLegend *self = SV_LEGEND(o);
    switch (id) {
    case PROP_MESSAGES_BY: g_value_set_uint(v, self->arrows); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
    }
}

static void sv_legend_set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
    switch (id) {
    case PROP_MESSAGES_BY: sv_legend_set_arrow_colour(SV_LEGEND(o), (sv_arrow_colour)g_value_get_uint(v)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
    }
}

static void sv_legend_dispose(GObject *o)
{
    SvLegend *self = SV_LEGEND(o);
    sv_doc_ref_release(self->doc);
    self->doc = NULL;
    gtk_widget_dispose_template(GTK_WIDGET(self), SV_TYPE_LEGEND);
    G_OBJECT_CLASS(sv_legend_parent_class)->dispose(o);
}

static void sv_legend_class_init(SvLegendClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    GtkWidgetClass *wc = GTK_WIDGET_CLASS(klass);
    oc->dispose = sv_legend_dispose;
    oc->get_property = sv_legend_get_property;
    oc->set_property = sv_legend_set_property;
    /* what the message arrows' colour says (an sv_arrow_colour) */
    legend_props[PROP_MESSAGES_BY] = g_param_spec_uint("messages-by", NULL, NULL, 0, SV_N_ARROW_COLOURS - 1,
                                                       SV_ARROWS_SIZE, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY);
    g_object_class_install_properties(oc, N_PROPS, legend_props);
    legend_signals[SIG_CHANGED] =
        g_signal_new("changed", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);

    gtk_widget_class_set_layout_manager_type(wc, GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(wc, "legend");
    g_type_ensure(SV_TYPE_CAT_ITEM); /* the sorters' expressions name it */
    gtk_widget_class_set_template_from_resource(wc, "/org/slog2/View/sv-legend.ui");
#define BIND(x) gtk_widget_class_bind_template_child(wc, SvLegend, x)
    BIND(box);
    BIND(entry);
    BIND(view);
    BIND(scroller);
    BIND(arrows_dd);
    BIND(arrows_scale);
    BIND(arrows_low);
    BIND(arrows_high);
    BIND(total_col);
#undef BIND
#define CB(x) gtk_widget_class_bind_template_callback(wc, x)
    CB(sv_legend_search_changed_cb);
    CB(sv_legend_arrows_selected_cb);
    CB(sv_legend_visible_setup_cb);
    CB(sv_legend_visible_bind_cb);
    CB(sv_legend_name_setup_cb);
    CB(sv_legend_name_bind_cb);
    CB(sv_legend_text_setup_cb);
    CB(sv_legend_number_setup_cb);
    CB(sv_legend_kind_bind_cb);
    CB(sv_legend_count_bind_cb);
    CB(sv_legend_total_bind_cb);
#undef CB
}

static void sv_legend_init(SvLegend *self)
{
    gtk_widget_init_template(GTK_WIDGET(self));
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->arrows_scale), arrows_scale_draw, self, NULL);
    show_arrows(self);

    self->store = g_list_store_new(SV_TYPE_CAT_ITEM);
    self->filter = gtk_custom_filter_new(filter_func, self, NULL);
    self->filtered = gtk_filter_list_model_new(G_LIST_MODEL(self->store), GTK_FILTER(self->filter));
    GtkSorter *sorter = gtk_column_view_get_sorter(GTK_COLUMN_VIEW(self->view));
    GtkSortListModel *sorted = gtk_sort_list_model_new(G_LIST_MODEL(self->filtered), g_object_ref(sorter));
    GtkNoSelection *sel = gtk_no_selection_new(G_LIST_MODEL(sorted));
    gtk_column_view_set_model(GTK_COLUMN_VIEW(self->view), GTK_SELECTION_MODEL(sel));
    g_object_unref(sel);
    /* biggest time consumers first */
    gtk_column_view_sort_by_column(GTK_COLUMN_VIEW(self->view), self->total_col, GTK_SORT_DESCENDING);
}

GtkSearchEntry *sv_legend_get_filter(SvLegend *self)
{
    return GTK_SEARCH_ENTRY(self->entry);
}

/* The sort arrows shown in the column titles, depth first. */
static void sort_arrows(GtkWidget *w, GString *out)
{
    for (GtkWidget *c = gtk_widget_get_first_child(w); c; c = gtk_widget_get_next_sibling(c)) {
        if (g_str_equal(gtk_widget_get_css_name(c), "sort-indicator") &&
            (gtk_widget_has_css_class(c, "ascending") || gtk_widget_has_css_class(c, "descending"))) {
            /* the title holding it: the label and the arrow within its width? */
            GtkWidget *title = gtk_widget_get_parent(c);
            int min = 0;
            gtk_widget_measure(title, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
            GtkWidget *col = gtk_widget_get_parent(title);
            g_string_append_printf(out, "%s%s", out->len ? "," : "",
                                   gtk_widget_has_css_class(c, "ascending") ? "ascending" : "descending");
            if (gtk_widget_get_width(col ? col : title) < min) g_string_append(out, " clipped");
        }
        sort_arrows(c, out);
    }
}

char *sv_legend_describe_sort(SvLegend *self)
{
    GString *out = g_string_new(NULL);
    sort_arrows(self->view, out);
    GListModel *m = G_LIST_MODEL(gtk_column_view_get_model(GTK_COLUMN_VIEW(self->view)));
    guint n = g_list_model_get_n_items(m);
    for (guint i = 0; i<n; i += n> 1 ? n - 1 : 1) {
        SvCatItem *c = g_list_model_get_item(m, i);
        g_string_append_printf(out, "%s%s", i ? " ... " : ", rows ", c->name);
        g_object_unref(c);
    }
    return g_string_free(out, FALSE);
}
