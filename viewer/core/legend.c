/* legend.c - sv_render_legend (render.h): the legend band of an exported
 * picture: what the window shows and where, then each shown category's
 * colour and name, as many to a line as fit. */
#include "render.h"

#include <math.h>

#define THEME (*sv_theme_current())

#define PAD 8.0
#define LINE_H 18.0
#define SWATCH 11.0
#define NAME_PT 8.0

/* Lay the entries out (draw when cr_draw is set); returns the height. */
static double layout_legend(cairo_t *cr, int draw, double w, const sv_palette *pal,
                            const char *const *names, const char *caption, const char *messages)
{
    double y = PAD;
    if (caption && *caption) {
        if (draw) {
            sv_theme_source(cr, THEME.text, 1);
            sv_draw_text_clipped(cr, caption, PAD, y, w - 2 * PAD, 1, NAME_PT);
        }
        y += LINE_H;
    }
    double x = PAD;
    int any = 0;
    for (uint32_t i = 0; i < pal->n; i++) {
        if (!pal->visible[i])
            continue;
        /* names whole: a legend is read for them */
        double tw = sv_text_width(cr, names[i], 0, NAME_PT);
        double ew = SWATCH + 5 + tw + 16;
        if (x > PAD && x + ew > w - PAD) {
            x = PAD;
            y += LINE_H;
        }
        if (draw) {
            double sy = y + (LINE_H - SWATCH) / 2 - 2;
            if (pal->kind[i] == SLOG_KIND_ARROW) {
                sv_set_rgba(cr, pal->rgba[i], 0.55, 1);
                cairo_set_line_width(cr, 2);
                cairo_move_to(cr, x, sy + SWATCH - 1);
                cairo_line_to(cr, x + SWATCH, sy + 1);
                cairo_stroke(cr);
            } else {
                sv_set_rgba(cr, pal->rgba[i], 1, 1);
                cairo_rectangle(cr, x, sy, SWATCH, SWATCH);
                cairo_fill_preserve(cr);
                sv_theme_source(cr, THEME.border, 1);
                cairo_set_line_width(cr, 1);
                cairo_stroke(cr);
            }
            sv_theme_source(cr, THEME.text, 1);
            sv_draw_text(cr, names[i], x + SWATCH + 5, y, 0, 0, NAME_PT);
        }
        x += ew;
        any = 1;
    }
    if (any)
        y += LINE_H;
    if (messages && *messages) {
        if (draw) {
            sv_theme_source(cr, THEME.dim_text, 1);
            sv_draw_text_clipped(cr, messages, PAD, y, w - 2 * PAD, 0, NAME_PT);
        }
        y += LINE_H;
    }
    return y + PAD / 2;
}

double sv_legend_height(double w, const sv_palette *pal, const char *const *names, const char *caption,
                        const char *messages)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(s);
    double h = layout_legend(cr, 0, w, pal, names, caption, messages);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
    return ceil(h);
}

void sv_render_legend(cairo_t *cr, double w, double h, const sv_palette *pal, const char *const *names,
                      const char *caption, const char *messages)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, 0, 0.5);
    cairo_line_to(cr, w, 0.5);
    cairo_stroke(cr);
    layout_legend(cr, 1, w, pal, names, caption, messages);
    cairo_restore(cr);
}
