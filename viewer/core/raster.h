/* SPDX-License-Identifier: MIT */
/* raster.h - a pixel buffer the canvas writes boxes, lines and event
 * diamonds into directly, Cairo drawing text and small shapes on the same
 * surface. Internal to the drawing files (canvas.c); one raster per frame,
 * written by two threads only where their pixels do not meet (rows or
 * bands of rows) and only between sv_raster_direct() and sv_raster_cairo()
 * on the thread that owns the frame. */
#ifndef SV_RASTER_H
#define SV_RASTER_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

/* A raster the histograms are written into pixel by pixel and then painted
 * in one operation. With 64 timelines at 1920 columns a stacked histogram
 * is hundreds of thousands of one-pixel-wide boxes; as Cairo paths they were
 * half of every frame, written directly they cost about a millisecond. */
typedef struct sv_raster {
    cairo_surface_t *surf;
    uint32_t *px;        /* premultiplied ARGB32 */
    int w, h, stride;    /* stride in pixels */
    cairo_surface_t *on; /* the target image drawn in place, or NULL */
    int on_x, on_y;      /* where on it */
} sv_raster;

/* 0xRRGGBBAA scaled by shade, its alpha by alpha: premultiplied ARGB32. */
uint32_t sv_premul(uint32_t rgba, double shade, double alpha);

/* Premultiplied "over" of c on d, keep = 256 - alpha(c) - (alpha > 0):
 * ~(255 - a) / 255 in 1/256; two channels per multiply. */
static inline uint32_t sv_over_keep(uint32_t d, uint32_t c, uint32_t keep)
{
    uint32_t rb = (((d & 0x00ff00ffu) * keep) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((d >> 8) & 0x00ff00ffu) * keep) & 0xff00ff00u;
    return c + (rb | ag);
}

static inline uint32_t sv_keep_of(uint32_t c)
{
    uint32_t a = c >> 24;
    return 256 - a - (a > 0 ? 1 : 0);
}

/* Blend premultiplied colour c at coverage cov (0..1) into pixel (x, y). */
static inline void sv_raster_plot(sv_raster *ras, int x, int y, uint32_t c, double cov)
{
    if (x < 0 || y < 0 || x >= ras->w || y >= ras->h || cov <= 0) return;
    uint32_t k = (uint32_t)(cov * 256);
    if (k > 256) k = 256;
    /* scale the premultiplied source by the coverage, then "over" */
    uint32_t srb = (((c & 0x00ff00ffu) * k) >> 8) & 0x00ff00ffu;
    uint32_t sag = ((((c >> 8) & 0x00ff00ffu) * k)) & 0xff00ff00u;
    uint32_t src = srb | sag, a = src >> 24, keep = 255 - a;
    uint32_t *px = ras->px + (size_t)y * ras->stride + x;
    uint32_t d = *px;
    uint32_t rb = (((d & 0x00ff00ffu) * keep) >> 8) & 0x00ff00ffu;
    uint32_t ag = (((d >> 8) & 0x00ff00ffu) * keep) & 0xff00ff00u;
    *px = src + (rb | ag);
}

/* A raster of w x h pixels (rounded up): 0 when it cannot be had (nothing
 * to draw into; the caller draws without it). */
int sv_raster_init(sv_raster *ras, double w, double h);
/* The same raster as the part of cr's target at user (0, 0), when that
 * target is an ARGB32 image the w x h canvas lies on whole pixels of (no
 * scale, no group, inside the image): the canvas is then drawn in place
 * and painting it (sv_raster_paint) only marks the image dirty. Else as
 * sv_raster_init. */
int sv_raster_init_on(sv_raster *ras, cairo_t *cr, double w, double h);
/* The raster as the pixels of cr's clip at user (0, 0), replacing them. */
void sv_raster_paint(sv_raster *ras, cairo_t *cr);
void sv_raster_free(sv_raster *ras);
/* Fill [x0,x1) x [y0,y1) with a premultiplied colour, "over" when it is
 * translucent. */
void sv_raster_fill(sv_raster *ras, int x0, int x1, int y0, int y1, uint32_t c);
/* The canvas layers are written into the raster in drawing order: boxes
 * and lines directly into its pixels, text and small shapes through a Cairo
 * context on the same surface. sv_raster_direct() must precede direct
 * writes and sv_raster_cairo() Cairo drawing, so each sees the other's
 * work; the finished raster is painted onto the widget once. */
void sv_raster_direct(sv_raster *ras);
void sv_raster_cairo(sv_raster *ras);
/* An anti-aliased 1 px line of premultiplied colour c. */
void sv_raster_line(sv_raster *ras, double x0, double y0, double x1, double y1, uint32_t c);
/* Lines a then b ({x0, y0, x1, y1} each) in one walk along their major
 * axis, the pixels as sv_raster_line(a) then sv_raster_line(b) leave them:
 * a pixel lies at one step of the walk, where a is blended before b (two
 * calls when the lines' major axes differ). For the two copies of a line
 * that make its halo, whose pixels share rows or cache lines. */
void sv_raster_line_pair(sv_raster *ras, const double a[4], const double b[4], uint32_t c);
/* The same, writing only the pixel rows [r0, r1): a line drawn in bands,
 * band by band, leaves every pixel as drawn whole (the walk is the whole
 * line's, the pixels outside the band skipped). */
void sv_raster_line_band(sv_raster *ras, double x0, double y0, double x1, double y1, uint32_t c, int r0, int r1);
void sv_raster_line_pair_band(sv_raster *ras, const double a[4], const double b[4], uint32_t c, int r0, int r1);

/* Event diamonds (|x - cx| + |y - cy| <= SV_EVENT_R, filled, with a 1 px
 * outline) written into the raster. A Cairo fill and stroke per diamond
 * cost ~50,000 instructions each, most of a frame when a thousand
 * checkpoints are in view, even batched into one path. The outline of a
 * mitred 1 px stroke around a diamond is the band between the diamonds of
 * radius r - sqrt(2)/2 and r + sqrt(2)/2, so each pixel needs only the
 * covered area of three nested diamonds. Those depend on where the centre
 * lies within its pixel, quantised to 1/16 pixel (a quarter moved edges by
 * up to 65 of 255 levels against Cairo's, a sixteenth by at most 20): one
 * stamp of 11 x 11 pixels per phase, made when first used and kept for
 * the life of the process (they depend on nothing else; made again for
 * every frame, they had been half of the diamonds' cost). */
#define SV_STAMP_N      11 /* pixels -5..5 around the centre's pixel: r + 0.71 < 5 */
#define SV_STAMP_PHASES 16

/* An event diamond of radius SV_EVENT_R centred at (cx, cy). Thread-safe. */
void sv_raster_diamond(sv_raster *ras, double cx, double cy, uint32_t fill, uint32_t line);

#endif
