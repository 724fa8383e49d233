/* SPDX-License-Identifier: MIT */
/* slog_testgen.c - write small valid .slog2 files for tests.
 *
 *   slog_testgen OUT [N_DRAWABLES [SEED]]      one file (t_model_small model)
 *   slog_testgen --corpus DIR [FIXTURE_DIR]    a libFuzzer seed corpus: small
 *       files of several shapes and writer options, plus every file of
 *       FIXTURE_DIR (the committed malformed fixtures) */
#include "testutil.h"

#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>

static int write_one(const char *path, size_t n, uint64_t seed, const slog_writer_options *o)
{
    t_model m;
    t_model_small(&m, seed, n);
    slog_error err;
    slog_status st = t_model_write(&m, path, o, &err);
    t_model_free(&m);
    if (st != SLOG_OK) {
        fprintf(stderr, "slog_testgen: %s\n", err.message);
        return 1;
    }
    return 0;
}

static int corpus(const char *dir, const char *fixtures)
{
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "slog_testgen: mkdir %s: %s\n", dir, strerror(errno));
        return 1;
    }
    static const size_t sizes[] = {0, 1, 3, 10, 30, 100};
    int rc = 0, k = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int v = 0; v < 4; v++) {
            slog_writer_options o;
            slog_writer_options_init(&o);
            if (v == 1) o.preview_bins = 4, o.leaf_drawables = 2, o.preview_min_subtree = 1;
            if (v == 2) o.preview_bins = 6, o.leaf_shift = 0;
            if (v == 3) /* blocks of one timeline (mirrored arrows), an overview of pairs */
                o.preview_bins = 4, o.leaf_drawables = 2, o.block_timelines = 1, o.group_timelines = 2;
            char name[64];
            snprintf(name, sizeof name, "seed-%02d.slog2", k++);
            char *p = t_path(dir, name);
            rc |= write_one(p, sizes[i], 100 + (uint64_t)k, &o);
            free(p);
        }
    if (fixtures) {
        DIR *d = opendir(fixtures);
        struct dirent *e;
        while (d && (e = readdir(d)) != NULL) {
            if (e->d_name[0] == '.') continue;
            char *src = t_path(fixtures, e->d_name);
            size_t len;
            unsigned char *b = t_read_file(src, &len);
            if (b && len <= 65536) {
                char name[300];
                snprintf(name, sizeof name, "fixture-%s", e->d_name);
                char *dst = t_path(dir, name);
                rc |= t_write_file(dst, b, len) != 0;
                free(dst);
            }
            free(b);
            free(src);
        }
        if (d) closedir(d);
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "--corpus") == 0) return corpus(argv[2], argc > 3 ? argv[3] : NULL);
    if (argc < 2 || argv[1][0] == '-') {
        fprintf(stderr, "usage: slog_testgen OUT [N [SEED]] | --corpus DIR [FIXTURE_DIR]\n");
        return 2;
    }
    size_t n = argc > 2 ? (size_t)strtoull(argv[2], NULL, 0) : 200;
    uint64_t seed = argc > 3 ? strtoull(argv[3], NULL, 0) : 1;
    return write_one(argv[1], n, seed, NULL);
}
