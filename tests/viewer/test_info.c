/* SPDX-License-Identifier: MIT */
/* test_info.c - the rows of the Trace Information window (info.h) for a
 * file written here: the file's facts as the reader and stat() give them,
 * then every annotation in file order, the builder's "a; b" lists one item
 * per line and any other value as written. */
#include <glib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "doc.h"
#include "info.h"
#include "viewport.h"

static const char *const ann[][2] = {
    {"builder.command", "slog2-build run/x.meta"},
    {"messages.unmatched", "send 0->1 tag 0 comm 2 x1; recv 2->0 tag 7 comm 2 x3"},
    {"note", "a; b stays one line"},
    {"time.clock_offsets_ns", "node-a=+0 (reference); node-b=-42 (collectives, within 9 ns)"},
};

static const char *find(const sv_info_row *rows, size_t n, const char *section, const char *key)
{
    for (size_t i = 0; i < n; i++)
        if (g_str_equal(rows[i].section, section) && g_str_equal(rows[i].key, key)) return rows[i].value;
    return NULL;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[4096];
    snprintf(path, sizeof path, "%s/info.slog2", dir);
    slog_writer *w;
    slog_error err;
    slog_writer_options o;
    slog_writer_options_init(&o);
    CHECK(slog_writer_open(&w, path, &o, &err) == SLOG_OK);
    slog_category c = {SLOG_KIND_STATE, "MPI_Send", "p2p", 0x3584e4ff, 0, NULL, NULL};
    uint32_t cat;
    CHECK(slog_writer_add_category(w, &c, &cat) == SLOG_OK);
    for (uint32_t t = 0; t < 2; t++) {
        slog_timeline tl = {t, 0, t ? "rank 1" : "rank 0", "host"};
        CHECK(slog_writer_add_timeline(w, &tl, NULL) == SLOG_OK);
    }
    for (int i = 0; i < 3; i++) {
        slog_drawable d = {.kind = SLOG_KIND_STATE,
                           .category = cat,
                           .timeline = (uint32_t)(i & 1),
                           .start = 1000 * i,
                           .end = 1000 * i + 500};
        CHECK(slog_writer_add(w, &d) == SLOG_OK);
    }
    for (size_t i = 0; i < G_N_ELEMENTS(ann); i++)
        CHECK(slog_writer_add_annotation(w, ann[i][0], ann[i][1]) == SLOG_OK);
    CHECK(slog_writer_finish(w, &err) == SLOG_OK);

    sv_doc d;
    CHECK(sv_doc_open(&d, path, &err) == SLOG_OK);
    size_t n;
    sv_info_row *rows = sv_info_rows(&d, path, &n);
    CHECK(n == 8 + G_N_ELEMENTS(ann));
    CHECK_STR(rows[0].key, "Path");
    CHECK_STR(rows[0].value, path);
    struct stat st;
    CHECK(stat(path, &st) == 0);
    char bytes[64];
    snprintf(bytes, sizeof bytes, "(%lld bytes)", (long long)st.st_size);
    const char *v = find(rows, n, "File", "Size");
    CHECK(v && strstr(v, bytes));
    char format[32];
    snprintf(format, sizeof format, ".slog2 %d.%d", SLOG_FORMAT_MAJOR, SLOG_FORMAT_MINOR);
    CHECK_STR(find(rows, n, "File", "Format"), format);
    CHECK_STR(find(rows, n, "File", "Timelines"), "2");
    CHECK_STR(find(rows, n, "File", "Categories"), "1");
    CHECK_STR(find(rows, n, "File", "Drawables"), "3: 3 states, 0 arrows, 0 events");
    /* drawables from 0 to 2500 ns: the span is that long, as the
     * window's other duration labels write it */
    char span[80], dur[64];
    sv_format_duration(2500, dur, sizeof dur);
    snprintf(span, sizeof span, "(%s)", dur);
    v = find(rows, n, "File", "Span");
    CHECK(v && strstr(v, span) && strstr(v, "0.0000025 s"));
    /* the annotations follow the file rows, in file order */
    for (size_t i = 0; i < G_N_ELEMENTS(ann) && 8 + i < n; i++) {
        CHECK_STR(rows[8 + i].section, "Annotations");
        CHECK_STR(rows[8 + i].key, ann[i][0]);
    }
    CHECK_STR(find(rows, n, "Annotations", "builder.command"), "slog2-build run/x.meta");
    CHECK_STR(find(rows, n, "Annotations", "messages.unmatched"),
              "send 0->1 tag 0 comm 2 x1\nrecv 2->0 tag 7 comm 2 x3");
    CHECK_STR(find(rows, n, "Annotations", "note"), "a; b stays one line");
    CHECK_STR(find(rows, n, "Annotations", "time.clock_offsets_ns"),
              "node-a=+0 (reference)\nnode-b=-42 (collectives, within 9 ns)");
    sv_info_rows_free(rows, n);
    sv_doc_close(&d);
    remove(path);
    return 0;
}
