/* SPDX-License-Identifier: MIT */
/* sv-style.c - see sv-style.h. */
#include "sv-style.h"

#include "render.h"
#include "sv-config.h"

#define FILE_NAME "view.ini"
#define GROUP     "view"
#define KEY       "dark-style"

static void add_css(GtkCssProvider *css, guint priority)
{
    gtk_style_context_add_provider_for_display(gdk_display_get_default(), GTK_STYLE_PROVIDER(css), priority);
    g_object_unref(css);
}

void sv_style_init(void)
{
    GtkCssProvider *css = gtk_css_provider_new();
    gtk_css_provider_load_from_resource(css, "/org/slog2/View/style.css");
    add_css(css, GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    /* Without a compositing manager (bare X servers, many remote desktops
     * and VNC sessions on clusters, Xvfb) the translucent margin GTK leaves
     * around a popover for its shadow and round corners is painted black:
     * square popovers without shadows (and arrows, sv-timeline.c) then. */
    GdkDisplay *display = gdk_display_get_default();
    if (display && !gdk_display_is_composited(display)) {
        GtkCssProvider *flat = gtk_css_provider_new();
        gtk_css_provider_load_from_data(flat, "popover > contents { box-shadow: none; border-radius: 0; }", -1);
        add_css(flat, GTK_STYLE_PROVIDER_PRIORITY_APPLICATION + 1);
    }
    /* The saved choice, if any; without one GTK's own settings stand. */
    GKeyFile *kf = sv_config_load(FILE_NAME);
    GError *e = NULL;
    if (g_key_file_has_key(kf, GROUP, KEY, NULL)) {
        gboolean dark = g_key_file_get_boolean(kf, GROUP, KEY, &e);
        if (e)
            sv_config_bad_value(FILE_NAME, GROUP, KEY, e->message);
        else
            g_object_set(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", dark, NULL);
        g_clear_error(&e);
    }
    g_key_file_free(kf);
}

double sv_style_text_luminance(GtkWidget *w)
{
    GdkRGBA fg;
#if GTK_CHECK_VERSION(4, 10, 0)
    gtk_widget_get_color(w, &fg);
#else
    gtk_style_context_get_color(gtk_widget_get_style_context(w), &fg);
#endif
    return 0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue;
}

gboolean sv_style_is_dark(GtkWidget *w)
{
    return sv_style_text_luminance(w) > 0.5;
}

void sv_style_follow(GtkWidget *w)
{
    sv_theme_set_dark(sv_style_is_dark(w));
}

gboolean sv_style_get_prefer_dark(void)
{
    gboolean dark = FALSE;
    g_object_get(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", &dark, NULL);
    return dark;
}

void sv_style_set_prefer_dark(gboolean dark)
{
    g_object_set(gtk_settings_get_default(), "gtk-application-prefer-dark-theme", dark, NULL);
    GKeyFile *kf = sv_config_load(FILE_NAME);
    g_key_file_set_boolean(kf, GROUP, KEY, dark);
    sv_config_save(kf, FILE_NAME);
    g_key_file_free(kf);
}

gboolean sv_style_is_forced(void)
{
    const char *t = g_getenv("GTK_THEME");
    return t && *t;
}

GdkTexture *sv_style_render_widget(GtkWidget *w)
{
    int width = gtk_widget_get_width(w), height = gtk_widget_get_height(w);
    GtkNative *native = gtk_widget_get_native(w);
    if (width <= 0 || height <= 0 || !native) return NULL;
    GdkPaintable *p = gtk_widget_paintable_new(w);
    GtkSnapshot *s = gtk_snapshot_new();
    gdk_paintable_snapshot(p, s, width, height);
    GskRenderNode *node = gtk_snapshot_free_to_node(s);
    GdkTexture *t = NULL;
    if (node) {
        t = gsk_renderer_render_texture(gtk_native_get_renderer(native), node,
                                        &GRAPHENE_RECT_INIT(0, 0, width, height));
        gsk_render_node_unref(node);
    }
    g_object_unref(p);
    return t;
}

double sv_style_mean_luminance(GtkWidget *w)
{
    GdkTexture *t = sv_style_render_widget(w);
    if (!t) return -1;
    int tw = gdk_texture_get_width(t), th = gdk_texture_get_height(t);
    guint32 *px = g_malloc((gsize)tw * th * 4);
    /* premultiplied ARGB32 in native order, as Cairo's; what the widget
     * leaves transparent counts as black */
    gdk_texture_download(t, (guchar *)px, (gsize)tw * 4);
    double sum = 0;
    for (gsize i = 0; i < (gsize)tw * th; i++)
        sum += 0.299 * (px[i] >> 16 & 255) + 0.587 * (px[i] >> 8 & 255) + 0.114 * (px[i] & 255);
    g_free(px);
    g_object_unref(t);
    return sum / 255.0 / ((double)tw * th);
}
