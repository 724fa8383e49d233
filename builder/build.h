/* SPDX-License-Identifier: MIT */
/* build.h - the slog2-build pipeline: DUMPI ranks -> states/events on
 * lanes of ranks, message matching and communicator replay in exit-time
 * order -> libslog writer, in time slabs on several threads
 * (build_internal.h). main.c only parses the command line. */
#ifndef SLOG2_BUILD_H
#define SLOG2_BUILD_H

#include <stdint.h>
#include <stdio.h>

#include "clocks.h"
#include "dumpi.h"

typedef struct build_options {
    const char *output;       /* .slog2 path */
    int quiet;                /* no progress bar */
    int progress;             /* draw a progress bar on stderr */
    int lenient;              /* an unknown label stops only that rank */
    int allow_missing;        /* build even if rank files are missing */
    int poll_states;          /* keep unsuccessful polls as states, not events */
    uint32_t preview_bins;    /* 0 = libslog default */
    int threads;              /* threads that decode and write (default 2;
                                at most BUILD_MAX_THREADS). Same output. */
    clock_align align_clocks; /* hosts' clocks onto one (clocks.h); 0 = auto */
    int pin_threads;          /* with a thread per allowed CPU, keep each on
                                its own CPU (pipeline.c); 0: the scheduler's */
    const char *command_line; /* recorded as an annotation */
    int remove_on_signal;     /* a termination signal removes the temporary
                                output (signals.h); for the command line,
                                not for a caller with handlers of its own */
    int leave_memory;         /* the caller exits right after: the builder's
                                memory and rank files are left to the
                                process's end, not freed one by one */
    /* Opens rank r's .bin in place of dumpi_file_open (slog2-build-mpi:
     * files other processes read, builder/cluster/); NULL: that. */
    int (*open_rank)(void *ctx, uint32_t rank, const char *path, dumpi_file **f, dumpi_error *e);
    void *open_ctx;
} build_options;

#define BUILD_MAX_THREADS 64

typedef struct build_summary {
    uint32_t n_ranks, n_timelines;
    uint64_t n_calls, n_states, n_events, n_arrows;
    uint64_t n_unmatched_sends, n_unmatched_recvs, n_unmatched_other;
    uint64_t n_cancelled; /* operations cancelled (by status, or presumed) */
    uint64_t n_clamped;   /* drawables that arrived after later ones were written */
    uint64_t input_bytes, output_bytes;
    int64_t span_ns;
    double seconds;
    uint32_t n_warnings;
    /* Each thread's CPU seconds and the seconds it waited for work, and
     * the CPU seconds of the two chains of sequential steps
     * (build_internal.h), each of which runs on one thread at a time. */
    uint32_t n_threads;
    bool pinned; /* each thread kept to its own CPU */
    double thread_cpu_s[BUILD_MAX_THREADS], thread_wait_s[BUILD_MAX_THREADS];
    double match_cpu_s, write_cpu_s;
    /* Hosts named in the ranks' headers (clocks.h) and what was done to
     * their clocks. */
    uint32_t n_hosts;
    int clocks_aligned;
    int64_t max_clock_shift_ns;
    int64_t max_clock_error_ns;     /* INT64_MAX: a host only roughly */
    const char *clocks_not_aligned; /* why, with several hosts (static text) */
} build_summary;

enum { BUILD_OK = 0, BUILD_FAILED = 1, BUILD_WARNINGS = 2 };

/* Build o->output from the ranks of meta. Warnings and errors go to err_out
 * (file and offset named). Returns BUILD_OK, BUILD_WARNINGS (built, but some
 * rank was truncated, skipped or inconsistent) or BUILD_FAILED (no file). */
int build_run(const dumpi_meta *meta, const build_options *o, build_summary *s, FILE *err_out);

/* Print the end-of-run summary (human readable). */
void build_print_summary(const build_summary *s, const char *output, FILE *out);

#endif
