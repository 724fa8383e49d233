/* SPDX-License-Identifier: MIT */
/* export.h - a picture as an image file, its format taken from the file
 * name: PNG, SVG or PDF (Cairo's image, SVG and PDF surfaces draw the
 * same calls). GTK-free; `--render` and the window's Export use it. */
#ifndef SV_EXPORT_H
#define SV_EXPORT_H

#include <cairo.h>
#include <stddef.h>

typedef enum sv_image_format { SV_IMAGE_PNG, SV_IMAGE_SVG, SV_IMAGE_PDF } sv_image_format;

/* By the extension (.svg, .pdf, case-insensitive); PNG otherwise and for
 * "-" (standard output). */
sv_image_format sv_image_format_for(const char *path);
const char *sv_image_format_name(sv_image_format f); /* "PNG", "SVG", "PDF" */

typedef void (*sv_draw_fn)(cairo_t *cr, void *user);

/* Draw a w x h picture with draw(cr, user) into path in format f. Written
 * as path.tmp.XXXXXX and renamed into place once complete (a full disk
 * leaves no half image under path); "-" is standard output. title and
 * keywords (may be NULL) go into the file: SVG <title> and <desc> (Cairo
 * draws text as glyph outlines, so the names are otherwise not in it), PDF
 * Title and Keywords. 0, or -1 with why (n_why bytes) saying what failed. */
int sv_image_write(const char *path, sv_image_format f, int w, int h, sv_draw_fn draw, void *user, const char *title,
                   const char *keywords, char *why, size_t n_why);

#endif
