/* SPDX-License-Identifier: MIT */
/* info.h - what the Trace information window lists about an open file:
 * the file itself (path, size, format, span, counts, tree) and then every
 * annotation the builder wrote (how it was built, from what, the clocks,
 * the unmatched messages), in file order. GTK-free, so it is tested
 * without a display; sv-info.c lays the rows out.
 */
#ifndef SV_INFO_H
#define SV_INFO_H

#include <stddef.h>

#include "doc.h"

typedef struct sv_info_row {
    const char *section; /* "File" or "Annotations" (static) */
    char *key;
    char *value;
} sv_info_row;

/* The rows for d, opened from path (shown as given): "File" rows (Path,
 * Size, Format, Span, Timelines, Categories, Drawables, Tree), then one
 * "Annotations" row per annotation, the builder's "a; b" lists
 * (messages.unmatched, time.clock_offsets_ns) one item per line. Free
 * with sv_info_rows_free(). */
sv_info_row *sv_info_rows(const sv_doc *d, const char *path, size_t *n);
void sv_info_rows_free(sv_info_row *rows, size_t n);

#endif
