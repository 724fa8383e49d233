/* SPDX-License-Identifier: MIT */
/* ruler.c - sv_render_ruler (render.h): the time ruler. */
#include "render.h"

#include <math.h>
#include <stdio.h>

#define THEME (*sv_theme_current())

void sv_render_ruler(cairo_t *cr, double w, double h, const sv_viewport *vp, double label_offset, int have_range,
                     double r0, double r1)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    if (have_range) {
        double x0 = sv_viewport_time_to_x(vp, fmin(r0, r1));
        double x1 = sv_viewport_time_to_x(vp, fmax(r0, r1));
        sv_theme_source(cr, THEME.accent, 0.25);
        cairo_rectangle(cr, x0, 0, x1 - x0, h);
        cairo_fill(cr);
    }
    sv_ticks tk;
    sv_ticks_choose(vp->t0 + label_offset, vp->t1 + label_offset, w, 90, &tk);
    cairo_set_line_width(cr, 1);
    sv_theme_source(cr, THEME.tick, 1);
    /* minor ticks */
    double m0 = ceil((vp->t0 + label_offset) / tk.minor_step) * tk.minor_step;
    for (double t = m0; t <= vp->t1 + label_offset; t += tk.minor_step) {
        double x = floor(sv_viewport_time_to_x(vp, t - label_offset)) + 0.5;
        cairo_move_to(cr, x, h - 4);
        cairo_line_to(cr, x, h);
        if (tk.minor_step <= 0) break;
    }
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.major_tick, 1);
    for (int i = 0; i < tk.n; i++) {
        double x = floor(sv_viewport_time_to_x(vp, tk.first + i * tk.step - label_offset)) + 0.5;
        cairo_move_to(cr, x, h - 10);
        cairo_line_to(cr, x, h);
    }
    cairo_stroke(cr);
    sv_theme_source(cr, THEME.text, 1);
    double left_limit = 0;
    if (tk.anchor != 0) {
        char ab[64], buf[80];
        sv_format_time((int64_t)tk.anchor, ab, sizeof ab);
        snprintf(buf, sizeof buf, "%s", ab);
        sv_theme_source(cr, THEME.accent, 1);
        left_limit = 6 + sv_draw_text(cr, buf, 4, 3, 0, 1, 8) + 8;
        sv_theme_source(cr, THEME.text, 1);
    }
    for (int i = 0; i < tk.n; i++) {
        double t = tk.first + i * tk.step;
        double x = floor(sv_viewport_time_to_x(vp, t - label_offset)) + 0.5;
        char buf[48];
        sv_ticks_label(&tk, t, buf, sizeof buf);
        if (x + 3 < left_limit) continue;
        /* A label that would run past the right edge (its unit cut off)
         * goes left of its tick, where it is whole, unless the label
         * before it is there. */
        double tw = sv_text_width(cr, buf, 0, 8);
        if (x + 3 + tw <= w)
            left_limit = x + 3 + sv_draw_text(cr, buf, x + 3, 3, 0, 0, 8) + 6;
        else if (x - 3 - tw >= left_limit)
            sv_draw_text(cr, buf, x - 3, 3, 2, 0, 8);
    }
    sv_theme_source(cr, THEME.border, 1);
    cairo_move_to(cr, 0, h - 0.5);
    cairo_line_to(cr, w, h - 0.5);
    cairo_stroke(cr);
    cairo_restore(cr);
}
