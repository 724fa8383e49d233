/* SPDX-License-Identifier: MIT */
/* gen.h - deterministic synthetic .slog2 files for the viewer tests and the
 * benchmark, written with the libslog writer: a ring exchange per
 * iteration (MPI_Send / MPI_Recv states, message arrows), an MPI_Allreduce
 * with a nested MPI_Wait, periodic Checkpoint events, timelines grouped by
 * host. */
#ifndef SV_TEST_GEN_H
#define SV_TEST_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <slog2/slog.h>

typedef struct sv_gen_opts {
    uint32_t n_timelines;  /* e.g. 4 */
    uint32_t n_iterations; /* e.g. 20 */
    uint32_t per_host;     /* timelines per host group; 0 = no groups */
    uint64_t seed;
    int64_t iteration_ns;              /* length of one iteration */
    uint32_t preview_bins;             /* writer option; 0 = default */
    const slog_writer_options *writer; /* the writer's options, NULL: defaults (not in sv_gen_params) */
} sv_gen_opts;

void sv_gen_opts_small(sv_gen_opts *o);
/* The options as text, e.g. "timelines=64 iterations=200 ...". The file
 * records it as the annotation SV_GEN_PARAMS_KEY, so that a program keeping
 * generated files (the benchmark) can tell whether one is still current. */
#define SV_GEN_PARAMS_KEY "generator.params"
void sv_gen_params(const sv_gen_opts *o, char *buf, size_t size);
/* Write path; returns SLOG_OK or the writer's error (err filled). */
slog_status sv_gen_write(const char *path, const sv_gen_opts *o, slog_error *err);

/* Category ids written by sv_gen_write. */
enum { GEN_CAT_SEND, GEN_CAT_RECV, GEN_CAT_ALLREDUCE, GEN_CAT_WAIT, GEN_CAT_MSG, GEN_CAT_CHECKPOINT, GEN_N_CATS };

#endif
