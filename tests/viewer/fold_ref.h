/* SPDX-License-Identifier: MIT */
/* fold_ref.h - the folded bands drawn pixel by pixel, straight from the
 * fold's values (sv_fold_values), as the canvas drew them before it drew
 * runs: the reference sv_fold_draw_bands is compared with. For tests. */
#ifndef SV_FOLD_REF_H
#define SV_FOLD_REF_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "raster.h"
#include "theme.h"

static uint32_t ref_pack(float r, float g, float b)
{
    r = r < 0 ? 0 : r > 1 ? 1 : r;
    g = g < 0 ? 0 : g > 1 ? 1 : g;
    b = b < 0 ? 0 : b > 1 ? 1 : b;
    return 0xff000000u | (uint32_t)(r * 255 + 0.5f) << 16 | (uint32_t)(g * 255 + 0.5f) << 8 |
           (uint32_t)(b * 255 + 0.5f);
}

/* Bands and event ticks into px (w x h, stride in pixels); 0, or -1 when
 * out of memory. */
static int ref_fold_bands(uint32_t *px, int stride, int w, int h, const sv_fold_params *p)
{
    const sv_fold *f = p->fold;
    const sv_palette *pal = p->pal;
    const sv_theme *th = sv_theme_current();
    float *acc = malloc(sizeof *acc * 4 * (size_t)w);
    long *colmap = malloc(sizeof *colmap * (size_t)w);
    if (!acc || !colmap) {
        free(acc);
        free(colmap);
        return -1;
    }
    float bg[3] = {(float)th->bg[0], (float)th->bg[1], (float)th->bg[2]};
    float alt[3] = {(float)th->alt_bg[0], (float)th->alt_bg[1], (float)th->alt_bg[2]};
    for (int x = 0; x < w; x++) colmap[x] = sv_fold_col_of(f, sv_viewport_x_to_time(p->vp, x + 0.5));
    for (int y = 0; y < h; y++) {
        const float *b = bg;
        memset(acc, 0, sizeof *acc * 4 * (size_t)w);
        for (uint32_t row = 0; row < f->n_rows; row++) {
            double y0, y1;
            sv_fold_band(f, p->ax, row, &y0, &y1);
            if (y1 <= 0 || y0 >= h || y1 <= y || y0 >= y + 1) continue;
            if (y1 - y0 >= 4 && row % 2 && ceil(y0) <= y) b = alt;
            double top = y1 - y0 >= 6 ? y0 + 1 : y0, hh = y1 - top;
            for (int x = 0; x < w; x++) {
                if (colmap[x] < 0) continue;
                float base = 0;
                for (uint32_t k = 0; k < f->n_categories && k < pal->n; k++) {
                    if (f->cat_kind[k] != SLOG_KIND_STATE || !pal->visible[k]) continue;
                    const float *v = sv_fold_values(f, row, k);
                    if (!v || v[colmap[x]] <= 0) continue;
                    float t = base + v[colmap[x]] > 1 ? 1 : base + v[colmap[x]];
                    double s0 = y1 - t * hh, s1 = y1 - base * hh;
                    base = t;
                    double lo = s0 > y ? s0 : y, hi = s1 < y + 1 ? s1 : y + 1;
                    if (!(hi > lo)) continue;
                    /* the category's colour as the histograms draw it */
                    uint32_t c = pal->rgba[k];
                    double al = (c & 255) / 255.0;
                    float cr = (float)((((c >> 24) & 255) / 255.0 * al) * 0.9 + 0.1);
                    float cg = (float)((((c >> 16) & 255) / 255.0 * al) * 0.9 + 0.1);
                    float cb = (float)((((c >> 8) & 255) / 255.0 * al) * 0.9 + 0.1);
                    float ov = (float)(hi - lo);
                    float *a = acc + 4 * (size_t)x;
                    a[0] += ov * cr;
                    a[1] += ov * cg;
                    a[2] += ov * cb;
                    a[3] += ov;
                }
            }
        }
        uint32_t *line = px + (size_t)y * stride;
        for (int x = 0; x < w; x++) {
            const float *a = acc + 4 * (size_t)x;
            if (a[3] <= 0) {
                line[x] = ref_pack(b[0], b[1], b[2]);
            } else if (a[3] >= 1) {
                float inv = 1 / a[3];
                line[x] = ref_pack(a[0] * inv, a[1] * inv, a[2] * inv);
            } else {
                float rest = 1 - a[3];
                line[x] = ref_pack(a[0] + rest * b[0], a[1] + rest * b[1], a[2] + rest * b[2]);
            }
        }
    }
    /* event ticks along the top of bands at least 8 px high */
    sv_raster ras = {.px = px, .w = w, .h = h, .stride = stride};
    for (uint32_t row = 0; row < f->n_rows; row++) {
        double y0, y1;
        sv_fold_band(f, p->ax, row, &y0, &y1);
        if (y1 <= 0 || y0 >= h || y1 - y0 < 8) continue;
        for (uint32_t k = 0; k < f->n_categories && k < pal->n; k++) {
            if (f->cat_kind[k] != SLOG_KIND_EVENT || !pal->visible[k]) continue;
            const float *v = sv_fold_values(f, row, k);
            if (!v) continue;
            uint32_t col = sv_premul(pal->rgba[k], 0.8, 1);
            int ty = (int)round(y0) + 1;
            for (int x = 0; x < w; x++)
                if (colmap[x] >= 0 && v[colmap[x]] > 0.01f) sv_raster_fill(&ras, x, x + 1, ty, ty + 2, col);
        }
    }
    free(acc);
    free(colmap);
    return 0;
}

#endif
