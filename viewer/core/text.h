/* SPDX-License-Identifier: MIT */
/* text.h - text in the UI font, drawn with Pango on a cairo_t. */
#ifndef SV_TEXT_H
#define SV_TEXT_H

#include <cairo.h>
#include <pango/pangocairo.h>

/* Draw text with the UI font. align: 0 left, 1 centre, 2 right of x.
 * y is the top. Returns the width in pixels. size in points (0 = 9). */
double sv_draw_text(cairo_t *cr, const char *text, double x, double y, int align, int bold, double size);
double sv_text_width(cairo_t *cr, const char *text, int bold, double size);
/* A layout of text in the UI font (size in points, 0 = 9); the caller
 * unrefs it. */
PangoLayout *sv_text_layout(cairo_t *cr, const char *text, int bold, double size);
/* Text that must fit in max_w pixels: drawn ellipsised at the end. */
void sv_draw_text_clipped(cairo_t *cr, const char *text, double x, double y, double max_w, int bold, double size);

#endif
