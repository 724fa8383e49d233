/* SPDX-License-Identifier: MIT */
/* theme.c - see theme.h. */
#include "theme.h"

#include <math.h>
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
    .halo = {1, 1, 1, 0.9},
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
    .halo = {0, 0, 0, 0.85},
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
    p->size_field = malloc(sizeof(int16_t) * (p->n + 1));
    p->tag_field = malloc(sizeof(int16_t) * (p->n + 1));
    if (!p->rgba || !p->visible || !p->kind || !p->size_field || !p->tag_field) {
        sv_palette_clear(p);
        return -1;
    }
    for (uint32_t i = 0; i < p->n; i++) {
        const slog_category *c = slog_reader_category(r, i);
        p->rgba[i] = c->rgba;
        p->visible[i] = 1;
        p->kind[i] = (uint8_t)c->kind;
        p->size_field[i] = p->tag_field[i] = -1;
        for (uint32_t f = 0; f < c->n_fields && f < 32767; f++) {
            if (c->field_types[f] == SLOG_FIELD_BYTES && p->size_field[i] < 0) p->size_field[i] = (int16_t)f;
            if (strcmp(c->field_names[f], "tag") == 0 && p->tag_field[i] < 0) p->tag_field[i] = (int16_t)f;
        }
    }
    p->arrows = SV_ARROWS_SIZE;
    return 0;
}

void sv_palette_clear(sv_palette *p)
{
    free(p->rgba);
    free(p->visible);
    free(p->kind);
    free(p->size_field);
    free(p->tag_field);
    memset(p, 0, sizeof *p);
}

void sv_set_rgba(cairo_t *cr, uint32_t rgba, double shade, double alpha)
{
    double r = ((rgba >> 24) & 255) / 255.0, g = ((rgba >> 16) & 255) / 255.0, b = ((rgba >> 8) & 255) / 255.0,
           a = (rgba & 255) / 255.0;
    cairo_set_source_rgba(cr, r * shade, g * shade, b * shade, a * alpha);
}

/* Blue, violet, crimson, orange: ordered by lightness and hue alike, and
 * each clear of white and of near-black rows. */
static const uint32_t RAMP[] = {0x2f6fdfffu, 0x8a3fc7ffu, 0xd6336cffu, 0xf08c00ffu};

uint32_t sv_ramp_rgba(double t)
{
    if (!(t > 0)) t = 0;
    if (t > 1) t = 1;
    double x = t * 3;
    int i = x >= 3 ? 2 : (int)x;
    double f = x - i;
    uint32_t out = 0xff;
    for (int sh = 8; sh <= 24; sh += 8) {
        double a = (RAMP[i] >> sh) & 255, b = (RAMP[i + 1] >> sh) & 255;
        out |= (uint32_t)lround(a + (b - a) * f) << sh;
    }
    return out;
}

uint32_t sv_value_rgba(uint32_t rgba)
{
    if (sv_theme_current()->arrow_lift <= 0) return rgba;
    uint32_t out = rgba & 255;
    for (int sh = 8; sh <= 24; sh += 8) {
        double v = (rgba >> sh) & 255;
        out |= (uint32_t)lround(v + (255 - v) * 0.35) << sh;
    }
    return out;
}

/* Tags: few in a program, told apart by a colour each (Tableau's ten). */
static const uint32_t TAGS[] = {0x4e79a7ffu, 0xf28e2bffu, 0xe15759ffu, 0x76b7b2ffu, 0x59a14fffu,
                                0xedc948ffu, 0xb07aa1ffu, 0xff9da7ffu, 0x9c755fffu, 0x79706effu};

uint32_t sv_arrow_rgba(const sv_palette *p, uint32_t cat, int64_t dur, const int64_t *info, uint16_t n_info)
{
    uint32_t own = cat < p->n ? p->rgba[cat] : 0x808080ffu;
    if (cat >= p->n) return own;
    switch (p->arrows) {
    case SV_ARROWS_SIZE: {
        int f = p->size_field[cat];
        if (f < 0 || f >= n_info || info[f] == SLOG_INFO_UNKNOWN || info[f] < 0) return own;
        /* 1 B .. 16 MiB: a power of two a step */
        return sv_ramp_rgba(log2((double)(info[f] > 1 ? info[f] : 1)) / 24);
    }
    case SV_ARROWS_TAG: {
        int f = p->tag_field[cat];
        if (f < 0 || f >= n_info || info[f] == SLOG_INFO_UNKNOWN) return own;
        uint64_t t = (uint64_t)info[f];
        return TAGS[t % (sizeof TAGS / sizeof TAGS[0])];
    }
    case SV_ARROWS_LATENCY:
        /* 100 ns .. 100 ms, a decade a step */
        return sv_ramp_rgba((log10((double)(dur > 100 ? dur : 100)) - 2) / 6);
    default: return own;
    }
}

static const char *const ARROW_NAMES[] = {"size", "tag", "latency", "category"};

const char *sv_arrow_colour_name(sv_arrow_colour c)
{
    return c < SV_N_ARROW_COLOURS ? ARROW_NAMES[c] : "size";
}

int sv_arrow_colour_parse(const char *s)
{
    for (int i = 0; i < SV_N_ARROW_COLOURS; i++)
        if (strcmp(s, ARROW_NAMES[i]) == 0) return i;
    return -1;
}

const char *sv_arrow_scale_low(sv_arrow_colour c)
{
    return c == SV_ARROWS_SIZE ? "1 B" : c == SV_ARROWS_LATENCY ? "100 ns" : NULL;
}

const char *sv_arrow_scale_high(sv_arrow_colour c)
{
    return c == SV_ARROWS_SIZE ? "16 MiB" : c == SV_ARROWS_LATENCY ? "100 ms" : NULL;
}
