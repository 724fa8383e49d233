/* SPDX-License-Identifier: MIT */
/* Replay driver for libFuzzer targets when not building with clang's
 * -fsanitize=fuzzer (see slog2_add_fuzzer in Slog2Testing.cmake): runs
 * LLVMFuzzerTestOneInput once on every file named on the command line and on
 * every regular file in every directory named there. A crash or a sanitizer /
 * Valgrind report is the failure; the target's return value is ignored as
 * libFuzzer does. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            fclose(f);
            fprintf(stderr, "%s: out of memory\n", path);
            return 1;
        }
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        cap *= 2;
        uint8_t *nb = realloc(buf, cap);
        if (!nb) free(buf);
        buf = nb;
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        fprintf(stderr, "%s: read error\n", path);
        free(buf);
        return 1;
    }
    /* An exact-size copy so ASan/Valgrind see reads past the input's end. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_path(const char *path, unsigned *n_run)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        ++*n_run;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    /* Sorted, so a failing run is reproducible and its log reads in order. */
    char **names = NULL;
    size_t n_names = 0, cap = 0;
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        if (n_names == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *nn);
            if (!nn) {
                rc = 1;
                break;
            }
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n_names] = malloc(len);
        if (!names[n_names]) {
            rc = 1;
            break;
        }
        snprintf(names[n_names], len, "%s/%s", path, e->d_name);
        n_names++;
    }
    closedir(d);
    if (names) qsort(names, n_names, sizeof *names, cmp_str);
    for (size_t i = 0; i < n_names; i++) {
        if (rc == 0 && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            ++*n_run;
            rc |= run_file(names[i]);
        }
        free(names[i]);
    }
    free(names);
    return rc;
}

int main(int argc, char **argv)
{
    unsigned n_run = 0;
    int rc = 0;
    for (int i = 1; i < argc; i++) rc |= run_path(argv[i], &n_run);
    fprintf(stderr, "fuzz-replay: %u input(s) run\n", n_run);
    return rc;
}
