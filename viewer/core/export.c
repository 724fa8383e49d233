/* SPDX-License-Identifier: MIT */
/* export.c - see export.h. */
#include "export.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

sv_image_format sv_image_format_for(const char *path)
{
    const char *dot = strrchr(path, '.');
    if (dot && strchr(dot, '/') == NULL) {
        if (g_ascii_strcasecmp(dot, ".svg") == 0) return SV_IMAGE_SVG;
        if (g_ascii_strcasecmp(dot, ".pdf") == 0) return SV_IMAGE_PDF;
    }
    return SV_IMAGE_PNG;
}

const char *sv_image_format_name(sv_image_format f)
{
    return f == SV_IMAGE_SVG ? "SVG" : f == SV_IMAGE_PDF ? "PDF" : "PNG";
}

/* Where Cairo's stream goes: a file descriptor, or memory (SVG, which gets
 * its title inserted before it is written). The first write error's errno
 * is kept for the message. */
typedef struct sink {
    int fd;
    int err;
    GByteArray *mem;
} sink;

static int write_all(sink *k, const unsigned char *data, size_t len)
{
    while (len) {
        ssize_t n = write(k->fd, data, len);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            k->err = n < 0 ? errno : EIO;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

static cairo_status_t to_sink(void *closure, const unsigned char *data, unsigned int len)
{
    sink *k = closure;
    if (k->mem) {
        g_byte_array_append(k->mem, data, len);
        return CAIRO_STATUS_SUCCESS;
    }
    return write_all(k, data, len) ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* The SVG with <title> and <desc> right after its <svg ...> tag. */
static int write_svg(sink *k, const char *title, const char *keywords)
{
    const char *s = (const char *)k->mem->data;
    size_t n = k->mem->len;
    const char *tag = g_strstr_len(s, (gssize)n, "<svg");
    const char *end = tag ? memchr(tag, '>', n - (size_t)(tag - s)) : NULL;
    if (!end) return write_all(k, k->mem->data, n);
    size_t head = (size_t)(end + 1 - s);
    char *t = g_markup_escape_text(title ? title : "", -1), *d = g_markup_escape_text(keywords ? keywords : "", -1);
    char *meta = g_strdup_printf("\n<title>%s</title>\n<desc>%s</desc>", t, d);
    int rc = write_all(k, k->mem->data, head) || write_all(k, (const unsigned char *)meta, strlen(meta)) ||
             write_all(k, k->mem->data + head, n - head);
    g_free(meta);
    g_free(t);
    g_free(d);
    return rc ? -1 : 0;
}

/* Draw and write into k; NULL or why not. */
static const char *draw_into(sink *k, sv_image_format f, int w, int h, sv_draw_fn draw, void *user, const char *title,
                             const char *keywords)
{
    cairo_surface_t *surf;
    if (f == SV_IMAGE_PDF) {
        surf = cairo_pdf_surface_create_for_stream(to_sink, k, w, h);
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_TITLE, title ? title : "");
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_KEYWORDS, keywords ? keywords : "");
        cairo_pdf_surface_set_metadata(surf, CAIRO_PDF_METADATA_CREATOR, "slog2-view");
    } else if (f == SV_IMAGE_SVG) {
        k->mem = g_byte_array_new();
        surf = cairo_svg_surface_create_for_stream(to_sink, k, w, h);
        cairo_svg_surface_set_document_unit(surf, CAIRO_SVG_UNIT_PX);
    } else {
        surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    }
    cairo_t *cr = cairo_create(surf);
    draw(cr, user);
    cairo_destroy(cr);
    cairo_status_t cs;
    if (f == SV_IMAGE_PNG) {
        cairo_surface_flush(surf);
        cs = cairo_surface_status(surf);
        if (cs == CAIRO_STATUS_SUCCESS) cs = cairo_surface_write_to_png_stream(surf, to_sink, k);
    } else {
        cairo_surface_finish(surf);
        cs = cairo_surface_status(surf);
    }
    cairo_surface_destroy(surf);
    const char *why = NULL;
    if (cs != CAIRO_STATUS_SUCCESS)
        why = k->err ? strerror(k->err) : cairo_status_to_string(cs);
    else if (k->mem && write_svg(k, title, keywords))
        why = strerror(k->err);
    if (k->mem) g_byte_array_unref(k->mem);
    k->mem = NULL;
    return why;
}

int sv_image_write(const char *path, sv_image_format f, int w, int h, sv_draw_fn draw, void *user, const char *title,
                   const char *keywords, char *why, size_t n_why)
{
    sink k = {.fd = -1};
    if (strcmp(path, "-") == 0) {
        /* a pipe has no name to rename over: written as it comes */
        fflush(stdout);
        k.fd = STDOUT_FILENO;
        const char *e = draw_into(&k, f, w, h, draw, user, title, keywords);
        if (e) snprintf(why, n_why, "%s", e);
        return e ? -1 : 0;
    }
    size_t n = strlen(path) + 16;
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(why, n_why, "out of memory");
        return -1;
    }
    snprintf(tmp, n, "%s.tmp.XXXXXX", path);
    k.fd = mkstemp(tmp);
    if (k.fd < 0) {
        snprintf(why, n_why, "%s", strerror(errno));
        free(tmp);
        return -1;
    }
    fchmod(k.fd, 0644); /* mkstemp's 0600 is for secrets; an image is not one */
    const char *e = draw_into(&k, f, w, h, draw, user, title, keywords);
    if (close(k.fd) != 0 && !e) e = strerror(errno);
    if (!e && rename(tmp, path) != 0) e = strerror(errno);
    if (e) {
        snprintf(why, n_why, "%s", e);
        unlink(tmp);
    }
    free(tmp);
    return e ? -1 : 0;
}
