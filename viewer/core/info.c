/* SPDX-License-Identifier: MIT */
/* info.c - see info.h. */
#include "info.h"

#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>

#include "viewport.h"

static void add(GArray *rows, const char *section, const char *key, char *value /* taken */)
{
    sv_info_row r = {section, g_strdup(key), value};
    g_array_append_val(rows, r);
}

/* Annotations slog2-build writes as "a; b; c" lists (docs/FORMAT.md):
 * shown one item per line. */
static bool is_list(const char *key)
{
    return g_str_equal(key, "messages.unmatched") || g_str_equal(key, "time.clock_offsets_ns");
}

sv_info_row *sv_info_rows(const sv_doc *d, const char *path, size_t *n)
{
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(sv_info_row));
    const slog_file_info *fi = d->fi;
    char a[64], b[64];
    add(rows, "File", "Path", g_strdup(path ? path : ""));
    sv_format_bytes((double)fi->file_size, a, sizeof a);
    add(rows, "File", "Size", g_strdup_printf("%s (%" PRIu64 " bytes)", a, fi->file_size));
    add(rows, "File", "Format", g_strdup_printf(".slog2 %u.%u", fi->version_major, fi->version_minor));
    sv_format_time(fi->t_min, a, sizeof a);
    sv_format_time(fi->t_max, b, sizeof b);
    char span[64];
    sv_format_duration((double)(fi->t_max - fi->t_min), span, sizeof span);
    add(rows, "File", "Span", g_strdup_printf("%s – %s (%s)", a, b, span));
    add(rows, "File", "Timelines", g_strdup_printf("%u", fi->n_timelines));
    add(rows, "File", "Categories", g_strdup_printf("%u", fi->n_categories));
    add(rows, "File", "Drawables",
        g_strdup_printf("%" PRIu64 ": %" PRIu64 " states, %" PRIu64 " arrows, %" PRIu64 " events", fi->n_drawables,
                        fi->n_states, fi->n_arrows, fi->n_events));
    add(rows, "File", "Tree",
        g_strdup_printf("%" PRIu64 " node%s in %u level%s, %u preview bins per node", fi->n_nodes,
                        fi->n_nodes == 1 ? "" : "s", fi->depth, fi->depth == 1 ? "" : "s", fi->preview_bins));
    for (uint32_t i = 0; i < fi->n_annotations; i++) {
        const char *k, *v;
        if (slog_reader_annotation(d->r, i, &k, &v) != SLOG_OK) continue;
        char *value;
        if (is_list(k)) {
            char **items = g_strsplit(v, "; ", -1);
            value = g_strjoinv("\n", items);
            g_strfreev(items);
        } else {
            value = g_strdup(v);
        }
        add(rows, "Annotations", k, value);
    }
    *n = rows->len;
    return (sv_info_row *)(void *)g_array_free(rows, FALSE);
}

void sv_info_rows_free(sv_info_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        g_free(rows[i].key);
        g_free(rows[i].value);
    }
    g_free(rows);
}
