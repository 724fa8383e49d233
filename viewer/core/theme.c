/* theme.c - see theme.h. */
#include "theme.h"

#include <stdlib.h>
#include <string.h>

static const sv_theme LIGHT = {
    .bg = {1, 1, 1, 1},
    .alt_bg = {0.965, 0.965, 0.972, 1},
    .header_bg = {0.918, 0.918, 0.929, 1},
    .chrome_bg = {0.98, 0.98, 0.984, 1},
    .overview_bg = {0.965, 0.965, 0.972, 1},
    .grid = {0, 0, 0, 0.07},
    .border = {0, 0, 0, 0.18},
    .tick = {0, 0, 0, 0.25},
    .major_tick = {0, 0, 0, 0.45},
    .text = {0.180, 0.204, 0.212, 1},
    .dim_text = {0.467, 0.463, 0.482, 1},
    .accent = {0.208, 0.518, 0.894, 1},
    .veil = {1, 1, 1, 0.6},
    .dim_window = {0.2, 0.2, 0.25, 0.28},
    .strong = {0.1, 0.1, 0.12, 1},
    .meter_bg = {0, 0, 0, 0.06},
    .arrow_lift = 0,
};

/* Adwaita dark: view #1e1e1e, window #242424, headers #303030, accent
 * #78aeed; text and lines are the light theme's turned over. */
static const sv_theme DARK = {
    .bg = {0.118, 0.118, 0.118, 1},
    .alt_bg = {0.153, 0.153, 0.157, 1},
    .header_bg = {0.188, 0.188, 0.196, 1},
    .chrome_bg = {0.141, 0.141, 0.141, 1},
    .overview_bg = {0.165, 0.165, 0.169, 1},
    .grid = {1, 1, 1, 0.08},
    .border = {1, 1, 1, 0.15},
    .tick = {1, 1, 1, 0.3},
    .major_tick = {1, 1, 1, 0.5},
    .text = {0.93, 0.93, 0.93, 1},
    .dim_text = {0.64, 0.64, 0.66, 1},
    .accent = {0.471, 0.682, 0.929, 1},
    .veil = {0, 0, 0, 0.55},
    .dim_window = {0, 0, 0, 0.45},
    .strong = {0.96, 0.96, 0.97, 1},
    .meter_bg = {1, 1, 1, 0.08},
    .arrow_lift = 0.4,
};

static const sv_theme *theme = &LIGHT;

const sv_theme *sv_theme_current(void)
{
    return theme;
}

void sv_theme_set_dark(int dark)
{
    theme = dark ? &DARK : &LIGHT;
}

void sv_theme_source(cairo_t *cr, const double *c, double alpha)
{
    cairo_set_source_rgba(cr, c[0], c[1], c[2], c[3] * alpha);
}

int sv_palette_init(sv_palette *p, const slog_reader *r)
{
    const slog_file_info *fi = slog_reader_info(r);
    memset(p, 0, sizeof *p);
    p->n = fi->n_categories;
    p->rgba = malloc(sizeof(uint32_t) * (p->n + 1));
    p->visible = malloc(p->n + 1);
    p->kind = malloc(p->n + 1);
    if (!p->rgba || !p->visible || !p->kind) {
        sv_palette_clear(p);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        const slog_category *c = slog_reader_category(r, i);
        p->rgba[i] = c->rgba;
        p->visible[i] = 1;
        p->kind[i] = (uint8_t)c->kind;
    }
    return 0;
}

void sv_palette_clear(sv_palette *p)
{
    free(p->rgba);
    free(p->visible);
    free(p->kind);
    memset(p, 0, sizeof *p);
}

void sv_set_rgba(cairo_t *cr, uint32_t rgba, double shade, double alpha)
{
    double r = ((rgba >> 24) & 255) / 255.0, g = ((rgba >> 16) & 255) / 255.0,
           b = ((rgba >> 8) & 255) / 255.0, a = (rgba & 255) / 255.0;
    cairo_set_source_rgba(cr, r * shade, g * shade, b * shade, a * alpha);
}
