/* SPDX-License-Identifier: MIT */
/* labels.c - sv_render_labels (render.h): the timeline labels column. */
#include "render.h"

#include <math.h>
#include <stdio.h>

#define THEME (*sv_theme_current())

void sv_render_labels(cairo_t *cr, double w, double h, const sv_layout *lay, double scroll_y, const char *const *labels,
                      long hover_row)
{
    cairo_save(cr);
    cairo_rectangle(cr, 0, 0, w, h);
    cairo_clip(cr);
    sv_theme_source(cr, THEME.chrome_bg, 1);
    cairo_paint(cr);
    /* Backgrounds first, then the labels: a label may be taller than its
     * row (below), and the next row's background must not cut it. */
    size_t k = 0;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - scroll_y;
        k = r->timeline < 0 ? 0 : k + 1;
        if (y + r->h < 0 || y > h) continue;
        if (r->timeline < 0) {
            sv_theme_source(cr, THEME.header_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
            sv_theme_source(cr, THEME.text, 1);
            if (r->h >= 9)
                sv_draw_text_clipped(cr, lay->group_names[r->group][0] ? lay->group_names[r->group] : "(no host)", 6,
                                     y + (r->h - 13) / 2, w - 10, 1, r->h >= 14 ? 8.5 : 7);
        } else if ((long)i == hover_row) {
            sv_theme_source(cr, THEME.accent, 0.12);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        } else if (k % 2 == 0) {
            sv_theme_source(cr, THEME.alt_bg, 1);
            cairo_rectangle(cr, 0, y, w, r->h);
            cairo_fill(cr);
        }
    }
    /* Rows too low for a label each (hundreds of ranks): a row gets one
     * when its centre is 14 px below the last labelled one's (counted from
     * the top of the file, so labels do not move as rows scroll), centred
     * on it, with a tick pointing at its row. */
    double last_cy = -INFINITY;
    for (size_t i = 0; i < lay->n_rows; i++) {
        const sv_row *r = &lay->rows[i];
        double y = r->y - scroll_y, cy = r->y + r->h / 2;
        int small = r->h < 8;
        if (r->timeline < 0 || (small && cy - last_cy < 14)) continue;
        last_cy = cy;
        if (y + r->h < -16 || y > h + 16) continue;
        if (small) {
            sv_theme_source(cr, THEME.dim_text, 1);
            cairo_rectangle(cr, w - 5, floor(y + r->h / 2), 4, 1);
            cairo_fill(cr);
        }
        double size = r->h >= 16 ? 8.5 : r->h >= 11 ? 7 : r->h >= 8 ? 5.5 : 6;
        double text_h = size * 1.6;
        sv_theme_source(cr, THEME.text, 1);
        char fallback[32];
        const char *l = labels ? labels[r->timeline] : NULL;
        if (!l || !*l) {
            snprintf(fallback, sizeof fallback, "timeline %d", r->timeline);
            l = fallback;
        }
        double ty = y + (r->h - text_h) / 2;
        if (small) /* taller than its row: kept whole at the edges */
            ty = fmax(0, fmin(ty, h - text_h));
        sv_draw_text_clipped(cr, l, lay->n_groups > 1 || lay->group_names[0][0] ? 14 : 8, ty, w - 18, 0, size);
    }
    sv_theme_source(cr, THEME.border, 1);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, w - 0.5, 0);
    cairo_line_to(cr, w - 0.5, h);
    cairo_stroke(cr);
    cairo_restore(cr);
}
