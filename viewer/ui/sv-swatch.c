/* SPDX-License-Identifier: MIT */
/* sv-swatch.c - see sv-swatch.h. */
#include "sv-swatch.h"

/* GNOME's palette, a column per hue from light to dark, then greys: the
 * colours the default categories are drawn from, so a changed one still
 * sits among them. */
static const char *const PALETTE[] = {
    "#99c1f1", "#8ff0a4", "#f9f06b", "#ffbe6f", "#f66151", "#dc8add", "#cdab8f", "#ffffff", "#62a0ea", "#57e389",
    "#f8e45c", "#ffa348", "#ed333b", "#c061cb", "#b5835a", "#deddda", "#3584e4", "#33d17a", "#f6d32d", "#ff7800",
    "#e01b24", "#9141ac", "#986a44", "#9a9996", "#1c71d8", "#2ec27e", "#f5c211", "#e66100", "#c01c28", "#813d9c",
    "#865e3c", "#5e5c64", "#1a5fb4", "#26a269", "#e5a50a", "#c64600", "#a51d2d", "#613583", "#63452c", "#000000",
};
#define PALETTE_COLUMNS 8

struct _SvSwatch {
    GtkWidget parent_instance;
    GtkWidget *button;  /* GtkMenuButton */
    GtkWidget *chip;    /* its face: a GtkDrawingArea in the colour */
    GtkWidget *popover; /* NULL until first opened */
    GtkWidget *entry;   /* #rrggbb */
    GdkRGBA rgba;
};

enum { PROP_0, PROP_RGBA, N_PROPS };
static GParamSpec *props[N_PROPS];
enum { SIG_COLOR_SET, N_SIGS };
static guint signals[N_SIGS];

G_DEFINE_FINAL_TYPE(SvSwatch, sv_swatch, GTK_TYPE_WIDGET)

static void chip_draw(GtkDrawingArea *a, cairo_t *cr, int w, int h, gpointer user)
{
    const GdkRGBA *c = user;
    /* a thin frame keeps white and black swatches visible on either theme */
    cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.8);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_fill(cr);
    gdk_cairo_set_source_rgba(cr, c);
    cairo_rectangle(cr, 1, 1, w - 2, h - 2);
    cairo_fill(cr);
}

static GtkWidget *chip_new(const GdkRGBA *rgba, int w, int h)
{
    GtkWidget *a = gtk_drawing_area_new();
    GdkRGBA *c = gdk_rgba_copy(rgba);
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(a), chip_draw, c, (GDestroyNotify)gdk_rgba_free);
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(a), w);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(a), h);
    return a;
}

static void choose(SvSwatch *self, const GdkRGBA *rgba)
{
    sv_swatch_set_rgba(self, rgba);
    if (self->popover) gtk_popover_popdown(GTK_POPOVER(self->popover));
    g_signal_emit(self, signals[SIG_COLOR_SET], 0);
}

static void sv_swatch_palette_clicked_cb(GtkButton *b, SvSwatch *self)
{
    GdkRGBA c;
    if (gdk_rgba_parse(&c, g_object_get_data(G_OBJECT(b), "colour"))) choose(self, &c);
}

static void sv_swatch_entry_activate_cb(GtkEntry *e, SvSwatch *self)
{
    GdkRGBA c;
    if (gdk_rgba_parse(&c, gtk_editable_get_text(GTK_EDITABLE(e)))) {
        gtk_widget_remove_css_class(GTK_WIDGET(e), "error");
        choose(self, &c);
    } else {
        gtk_widget_add_css_class(GTK_WIDGET(e), "error");
    }
}

static void sv_swatch_popover_show_cb(GtkWidget *p, SvSwatch *self)
{
    char *s = g_strdup_printf("#%02x%02x%02x", (int)(self->rgba.red * 255 + 0.5), (int)(self->rgba.green * 255 + 0.5),
                              (int)(self->rgba.blue * 255 + 0.5));
    gtk_editable_set_text(GTK_EDITABLE(self->entry), s);
    gtk_widget_remove_css_class(self->entry, "error");
    g_free(s);
}

void sv_swatch_set_rgba(SvSwatch *self, const GdkRGBA *rgba)
{
    if (gdk_rgba_equal(&self->rgba, rgba)) return;
    self->rgba = *rgba;
    gtk_widget_queue_draw(self->chip);
    g_object_notify_by_pspec(G_OBJECT(self), props[PROP_RGBA]);
}

void sv_swatch_get_rgba(SvSwatch *self, GdkRGBA *rgba)
{
    *rgba = self->rgba;
}

static void sv_swatch_get_property(GObject *o, guint id, GValue *v, GParamSpec *ps)
{
    SvSwatch *self = SV_SWATCH(o);
    if (id == PROP_RGBA)
        g_value_set_boxed(v, &self->rgba);
    else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void sv_swatch_set_property(GObject *o, guint id, const GValue *v, GParamSpec *ps)
{
    SvSwatch *self = SV_SWATCH(o);
    if (id == PROP_RGBA && g_value_get_boxed(v))
        sv_swatch_set_rgba(self, g_value_get_boxed(v));
    else if (id != PROP_RGBA)
        G_OBJECT_WARN_INVALID_PROPERTY_ID(o, id, ps);
}

static void sv_swatch_dispose(GObject *o)
{
    SvSwatch *self = SV_SWATCH(o);
    g_clear_pointer(&self->button, gtk_widget_unparent);
    G_OBJECT_CLASS(sv_swatch_parent_class)->dispose(o);
}

static void sv_swatch_class_init(SvSwatchClass *klass)
{
    GObjectClass *oc = G_OBJECT_CLASS(klass);
    oc->get_property = sv_swatch_get_property;
    oc->set_property = sv_swatch_set_property;
    oc->dispose = sv_swatch_dispose;
    props[PROP_RGBA] =
        g_param_spec_boxed("rgba", NULL, NULL, GDK_TYPE_RGBA, G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY);
    g_object_class_install_properties(oc, N_PROPS, props);
    signals[SIG_COLOR_SET] =
        g_signal_new("color-set", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
    gtk_widget_class_set_layout_manager_type(GTK_WIDGET_CLASS(klass), GTK_TYPE_BIN_LAYOUT);
    gtk_widget_class_set_css_name(GTK_WIDGET_CLASS(klass), "swatch");
}

/* The palette popover, made the first time the button opens it: a legend
 * has a swatch per category, and forty palette buttons and a popover
 * surface for each, made at start, had cost most of the first frame of a
 * file with many categories. */
static void sv_swatch_create_popup(GtkMenuButton *button, gpointer user)
{
    SvSwatch *self = user;
    if (self->popover) return;
    GtkWidget *box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6);
    GtkWidget *grid = gtk_grid_new();
    gtk_grid_set_row_spacing(GTK_GRID(grid), 2);
    gtk_grid_set_column_spacing(GTK_GRID(grid), 2);
    for (size_t i = 0; i < G_N_ELEMENTS(PALETTE); i++) {
        GdkRGBA c;
        gdk_rgba_parse(&c, PALETTE[i]);
        GtkWidget *b = gtk_button_new();
        gtk_widget_add_css_class(b, "swatch-button");
        gtk_widget_add_css_class(b, "flat");
        gtk_button_set_child(GTK_BUTTON(b), chip_new(&c, 20, 16));
        gtk_widget_set_tooltip_text(b, PALETTE[i]);
        g_object_set_data(G_OBJECT(b), "colour", (gpointer)PALETTE[i]);
        g_signal_connect(b, "clicked", G_CALLBACK(sv_swatch_palette_clicked_cb), self);
        gtk_grid_attach(GTK_GRID(grid), b, (int)(i % PALETTE_COLUMNS), (int)(i / PALETTE_COLUMNS), 1, 1);
    }
    gtk_box_append(GTK_BOX(box), grid);
    self->entry = gtk_entry_new();
    gtk_entry_set_placeholder_text(GTK_ENTRY(self->entry), "#rrggbb");
    gtk_widget_set_tooltip_text(self->entry, "Any colour: #rrggbb or a CSS name, then Enter");
    g_signal_connect(self->entry, "activate", G_CALLBACK(sv_swatch_entry_activate_cb), self);
    gtk_box_append(GTK_BOX(box), self->entry);
    self->popover = gtk_popover_new();
    gtk_popover_set_child(GTK_POPOVER(self->popover), box);
    g_signal_connect(self->popover, "show", G_CALLBACK(sv_swatch_popover_show_cb), self);
    gtk_menu_button_set_popover(GTK_MENU_BUTTON(self->button), self->popover);
}

static void sv_swatch_init(SvSwatch *self)
{
    self->rgba = (GdkRGBA){0.5, 0.5, 0.5, 1};
    self->button = gtk_menu_button_new();
    gtk_widget_add_css_class(self->button, "swatch-button");
    gtk_widget_set_tooltip_text(self->button, "Change the colour");
    gtk_widget_set_valign(self->button, GTK_ALIGN_CENTER);
    self->chip = gtk_drawing_area_new();
    gtk_drawing_area_set_draw_func(GTK_DRAWING_AREA(self->chip), chip_draw, &self->rgba, NULL);
    gtk_drawing_area_set_content_width(GTK_DRAWING_AREA(self->chip), 14);
    gtk_drawing_area_set_content_height(GTK_DRAWING_AREA(self->chip), 12);
    gtk_menu_button_set_child(GTK_MENU_BUTTON(self->button), self->chip);
    gtk_menu_button_set_always_show_arrow(GTK_MENU_BUTTON(self->button), FALSE);

    gtk_menu_button_set_create_popup_func(GTK_MENU_BUTTON(self->button), sv_swatch_create_popup, self, NULL);
    gtk_widget_set_parent(self->button, GTK_WIDGET(self));
}

GtkWidget *sv_swatch_new(void)
{
    return g_object_new(SV_TYPE_SWATCH, NULL);
}
