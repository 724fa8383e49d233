/* SPDX-License-Identifier: MIT */
/* cluster.h - slog2-build-mpi: slog2-build's command line (builder/main.c,
 * compiled a second time with its build_run and otf2_build_run calls
 * renamed to the functions here) run by every process of an MPI job.
 *
 * The ranks' .bin files are shared out in contiguous blocks, one per
 * process: each process opens, checks and reads only its own block.
 * Process 0 runs the builder's pipeline (build.c) over all of them, the
 * others' files through dumpi_file_open_source(), whose bytes their owners
 * send on request, so the output is the serial build's by construction
 * (docs/CLUSTER.md says what is distributed and what is not yet).
 *
 * Every process parses the same command line and reaches the same
 * decisions; process 0 alone prints, the others' messages are kept and
 * shown only when a process stopped where process 0 did not.
 */
#ifndef SLOG2_CLUSTER_H
#define SLOG2_CLUSTER_H

#include <stdio.h>

#include "build.h"
#ifdef SLOG2_HAVE_OTF2
#include "otf2_build.h"
#endif

/* After MPI_Init_thread (provided: the thread level MPI gave): the job's
 * size and this process's place, its standard streams (processes but 0
 * print nothing of their own), process 0's CPUs. */
void cluster_begin(int provided);

/* slog2-build's main, with its build_run and otf2_build_run in place. */
int slog2_build_main(int argc, char **argv);

/* build_run on every process: 0 builds, the others serve their files. */
int cluster_build_run(const dumpi_meta *meta, const build_options *o, build_summary *s, FILE *err_out);
#ifdef SLOG2_HAVE_OTF2
/* otf2_build_run on process 0 alone (an archive is not shared out). */
int cluster_otf2_build_run(const char *anchor, const otf2_build_options *o, FILE *err, FILE *out);
#endif

/* The exit status of the job, process 0's, for every process (status: this
 * one's); a process that stopped before the build shows its messages. */
int cluster_end(int status);

#endif
