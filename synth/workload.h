/* SPDX-License-Identifier: MIT */
/* workload.h - the simulated MPI program behind slog2-synth.
 *
 * All ranks run one SPMD stencil-like program in lock step, one iteration at
 * a time, against one simulated CLOCK_MONOTONIC shared by every rank (they
 * are modelled as living on one host, as in the real traces the tests use). Within each
 * phase the generator first computes when every rank starts its sends, then
 * when every receive and collective can complete, so a receive always ends
 * after the matching send started and a collective ends after its last
 * member entered. Records are staged per rank for one iteration, then encoded
 * and streamed out, so memory does not grow with the trace size.
 *
 * docs/SYNTH.md lists the phases and their periods.
 */
#ifndef SLOG2_SYNTH_WORKLOAD_H
#define SLOG2_SYNTH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#define SYNTH_MAX_THREADS 16

typedef struct synth_config {
  int ranks;               /* >= 1 */
  int threads;             /* worker threads per rank, 0..SYNTH_MAX_THREADS */
  uint64_t calls_per_rank; /* stop at about this many calls per rank ... */
  uint64_t size;           /* ... or at about this many .bin bytes in total
                                (used when non-zero) */
  uint64_t seed;
  int cpu_times;          /* record CPU times (libdumpi "timestamp full") */
  int statuses;           /* record statuses ("statuses enable") */
  int user_functions;     /* also record instrumented user functions
                                (Function_enter/exit, function names) */
  int hosts;              /* ranks spread over this many simulated hosts,
                                each with its own boot clock (1..ranks;
                                0 counts as 1) */
  const char *out_prefix; /* "DIR/PREFIX" */
  int progress;           /* print progress to stderr */
  int remove_on_signal;   /* a fatal signal removes the temporary files
                              * (signals.h); for the program, not tests */
  size_t buffer_budget;   /* total bytes of output buffers */
  size_t max_open_files;  /* rank files open at once: 0 for as many as
                              RLIMIT_NOFILE allows; fewer are reopened
                              (O_APPEND) when written, the same bytes */
  int otf2;               /* write an OTF2 archive instead (otf2_write.h;
                                --size then counts the DUMPI bytes the same
                                run would take) */
} synth_config;

typedef struct synth_result {
  uint64_t bytes; /* total .bin bytes */
  uint64_t calls; /* total call records */
  uint64_t iterations;
  double seconds; /* wall time spent */
} synth_result;

/* Whether this slog2-synth can write OTF2 (built with libotf2). */
int synth_has_otf2(void);

/* Generates the .meta and every rank's .bin (or, with cfg->otf2, the OTF2
 * archive DIR/PREFIX.otf2). Returns 0, or -1 with a message
 * in err (the partial temporary files are removed). */
int synth_run(const synth_config *cfg, synth_result *res, char *err, size_t errlen);

#endif
