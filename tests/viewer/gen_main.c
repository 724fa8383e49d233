/* SPDX-License-Identifier: MIT */
/* gen_main.c - slog2-view-gen OUT.slog2 [TIMELINES [ITERATIONS [PER_HOST [ITERATION_NS]]]]:
 * write a deterministic synthetic file (see gen.h).
 * slog2-view-gen --corrupt-leaf IN.slog2 OUT.slog2: a copy of IN with one
 * byte flipped in the leaf node of block 0 nearest the middle of the trace
 * (its checksum then fails); prints that node's interval "T0 T1" in
 * seconds from the trace start. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static int corrupt_leaf(const char *in, const char *out)
{
    slog_reader *r;
    slog_error err = {0};
    if (slog_reader_open(&r, in, &err) != SLOG_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    const slog_file_info *fi = slog_reader_info(r);
    double mid = (fi->t_min + fi->t_max) / 2.0, best_d = -1;
    slog_node_info best = {0}, ni;
    for (uint64_t i = 0; i < fi->n_nodes; i++)
        if (slog_reader_node(r, i, &ni) == SLOG_OK && ni.tree == 0 && ni.level == 0 && ni.n_drawables) {
            double d = (ni.lo + ni.hi) / 2.0 - mid;
            d = d < 0 ? -d : d;
            if (best_d < 0 || d < best_d) best_d = d, best = ni;
        }
    slog_reader_close(r);
    FILE *f = fopen(in, "rb");
    if (best_d < 0 || !f) {
        fprintf(stderr, "%s: no leaf node to corrupt\n", in);
        if (f) fclose(f);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    unsigned char *b = malloc((size_t)n);
    int ok = b && fread(b, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (ok) {
        b[best.offset + best.size / 2] ^= 0x5a;
        f = fopen(out, "wb");
        ok = f && fwrite(b, 1, (size_t)n, f) == (size_t)n;
        if (f) ok &= fclose(f) == 0;
    }
    free(b);
    if (!ok) {
        fprintf(stderr, "%s: cannot write\n", out);
        return 1;
    }
    printf("%.9f %.9f\n", best.lo / 1e9, best.hi / 1e9);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--corrupt-leaf") == 0) return corrupt_leaf(argv[2], argv[3]);
    if (argc < 2 || argc > 6) {
        fprintf(stderr, "usage: %s OUT.slog2 [TIMELINES [ITERATIONS [PER_HOST [ITERATION_NS]]]]\n", argv[0]);
        return 2;
    }
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    if (argc > 2) o.n_timelines = (uint32_t)strtoul(argv[2], NULL, 10);
    if (argc > 3) o.n_iterations = (uint32_t)strtoul(argv[3], NULL, 10);
    if (argc > 4) o.per_host = (uint32_t)strtoul(argv[4], NULL, 10);
    /* ranks start 3 µs apart, so thousands need iterations of tens of ms */
    if (argc > 5) o.iteration_ns = (int64_t)strtoll(argv[5], NULL, 10);
    slog_error err = {0};
    if (sv_gen_write(argv[1], &o, &err) != SLOG_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], err.message);
        return 1;
    }
    return 0;
}
