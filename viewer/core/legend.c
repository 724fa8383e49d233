/* SPDX-License-Identifier: MIT */
/* legend.c - sv_render_legend (render.h): the legend band of an exported
 * picture: what the window shows and where, then each shown category's
 * colour and name, as many to a line as fit. */
#include "render.h"

#include <math.h>
#include <stdio.h>

#define THEME (*sv_theme_current())

#define PAD     8.0
#define LINE_H  18.0
#define SWATCH  11.0
#define NAME_PT 8.0

/* Lay the entries out (draw when cr_draw is set); returns the height. */
static double layout_legend(cairo_t *cr, int draw, double w, const sv_palette *pal, const char *const *names,
                            const char *caption, const char *messages)
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
        if (!pal->visible[i]) continue;
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
                if (pal->arrows == SV_ARROWS_CATEGORY)
                    sv_set_rgba(cr, pal->rgba[i], 0.55, 1);
                else
                    sv_set_rgba(cr, sv_ramp_rgba(0.5), 1, 1);
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
    if (any) y += LINE_H;
    /* how the arrows are coloured, when it is not by category */
    int arrows = 0;
    for (uint32_t i = 0; i < pal->n; i++) arrows |= pal->visible[i] && pal->kind[i] == SLOG_KIND_ARROW;
    if (arrows && pal->arrows != SV_ARROWS_CATEGORY) {
        if (draw) {
            char what[64];
            snprintf(what, sizeof what, "Messages by %s:", sv_arrow_colour_name(pal->arrows));
            sv_theme_source(cr, THEME.text, 1);
            double x0 = PAD + sv_draw_text(cr, what, PAD, y, 0, 0, NAME_PT) + 8;
            double sy = y + (LINE_H - SWATCH) / 2 - 2;
            if (pal->arrows == SV_ARROWS_TAG) {
                /* a swatch per colour, tag 0 to 9 (then again): an arrow
                 * category's own mapping */
                uint32_t cat = 0;
                for (uint32_t i = 0; i < pal->n; i++)
                    if (pal->kind[i] == SLOG_KIND_ARROW && pal->tag_field[i] >= 0 && pal->tag_field[i] < 32) cat = i;
                int64_t info[32] = {0};
                int tf = pal->tag_field[cat] >= 0 && pal->tag_field[cat] < 32 ? pal->tag_field[cat] : 0;
                for (int t = 0; t < 10; t++) {
                    info[tf] = t;
                    sv_set_rgba(cr, sv_arrow_rgba(pal, cat, 0, info, 32), 1, 1);
                    cairo_rectangle(cr, x0 + t * (SWATCH + 3), sy, SWATCH, SWATCH);
                    cairo_fill(cr);
                }
                sv_theme_source(cr, THEME.dim_text, 1);
                sv_draw_text(cr, "tag 0 to 9, then again", x0 + 10 * (SWATCH + 3) + 6, y, 0, 0, NAME_PT);
            } else {
                sv_theme_source(cr, THEME.dim_text, 1);
                x0 += sv_draw_text(cr, sv_arrow_scale_low(pal->arrows), x0, y, 0, 0, NAME_PT) + 6;
                for (int k = 0; k < 120; k++) {
                    sv_set_rgba(cr, sv_ramp_rgba(k / 119.0), 1, 1);
                    cairo_rectangle(cr, x0 + k, sy + 2, 1.2, SWATCH - 4);
                    cairo_fill(cr);
                }
                sv_theme_source(cr, THEME.dim_text, 1);
                sv_draw_text(cr, sv_arrow_scale_high(pal->arrows), x0 + 126, y, 0, 0, NAME_PT);
                sv_draw_text(cr, "(log scale)",
                             x0 + 126 + sv_text_width(cr, sv_arrow_scale_high(pal->arrows), 0, NAME_PT) + 6, y, 0, 0,
                             NAME_PT);
            }
        }
        y += LINE_H;
    }
    (void)messages;
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
