/* SPDX-License-Identifier: MIT */
/* text.c - see text.h. */
#include "text.h"

#include <math.h>

PangoLayout *sv_text_layout(cairo_t *cr, const char *text, int bold, double size)
{
    PangoLayout *l = pango_cairo_create_layout(cr);
    PangoFontDescription *fd = pango_font_description_new();
    pango_font_description_set_family(fd, "Cantarell, DejaVu Sans, Sans");
    pango_font_description_set_size(fd, (int)((size > 0 ? size : 9) * PANGO_SCALE));
    if (bold) pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
    pango_layout_set_font_description(l, fd);
    pango_font_description_free(fd);
    pango_layout_set_text(l, text, -1);
    return l;
}

double sv_text_width(cairo_t *cr, const char *text, int bold, double size)
{
    PangoLayout *l = sv_text_layout(cr, text, bold, size);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    g_object_unref(l);
    return w;
}

double sv_draw_text(cairo_t *cr, const char *text, double x, double y, int align, int bold, double size)
{
    PangoLayout *l = sv_text_layout(cr, text, bold, size);
    int w, h;
    pango_layout_get_pixel_size(l, &w, &h);
    double x0 = align == 1 ? x - w / 2.0 : align == 2 ? x - w : x;
    cairo_move_to(cr, round(x0), round(y));
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
    return w;
}

void sv_draw_text_clipped(cairo_t *cr, const char *text, double x, double y, double max_w, int bold, double size)
{
    if (max_w < 8) return;
    PangoLayout *l = sv_text_layout(cr, text, bold, size);
    pango_layout_set_width(l, (int)(max_w * PANGO_SCALE));
    pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
    cairo_move_to(cr, round(x), round(y));
    pango_cairo_show_layout(cr, l);
    g_object_unref(l);
}
