/* SPDX-License-Identifier: MIT */
/* A program outside the project that uses an installed libslog: writes a
 * file with one state and reads it back. Built by check_install.sh with
 * pkg-config and with find_package(slog2). */
#include <slog2/slog.h>

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer FILE.slog2\n");
        return 2;
    }
    slog_error err;
    slog_writer *w;
    if (slog_writer_open(&w, argv[1], NULL, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    slog_category cat = {.kind = SLOG_KIND_STATE, .name = "compute", .group = "", .rgba = 0x336699ffu};
    slog_timeline tl = {.rank = 0, .thread = 0, .label = "rank 0", .group = ""};
    uint32_t c, t;
    slog_drawable d = {.kind = SLOG_KIND_STATE, .start = 10, .end = 20};
    if (slog_writer_add_category(w, &cat, &c) != SLOG_OK || slog_writer_add_timeline(w, &tl, &t) != SLOG_OK) return 1;
    d.category = c;
    d.timeline = d.end_timeline = t;
    if (slog_writer_add(w, &d) != SLOG_OK || slog_writer_finish(w, &err) != SLOG_OK) {
        fprintf(stderr, "write: %s\n", err.message);
        return 1;
    }
    slog_reader *r;
    if (slog_reader_open(&r, argv[1], &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    unsigned long long n = (unsigned long long)slog_reader_info(r)->n_drawables;
    slog_reader_close(r);
    printf("%llu drawable\n", n);
    return n == 1 ? 0 : 1;
}
