/* SPDX-License-Identifier: MIT */
/* clocks.h - one time axis for ranks that ran on different hosts.
 *
 * libdumpi records wall time from CLOCK_MONOTONIC: seconds since the host
 * booted. Ranks on one host share that clock; ranks on two hosts do not,
 * and their times can be hours or days apart. Drawn as recorded, each host
 * would sit in its own stretch of a mostly empty timeline, every message
 * between hosts would be an arrow across that gap, and the matcher would
 * hold every send of the "earlier" host until the other host's records
 * came up in the merge: memory growing with the trace.
 *
 * So the hosts' clocks are shifted onto one. Two facts about MPI bound
 * each shift:
 *   - every rank leaves MPI_Init (or MPI_Init_thread) after the
 *     synchronisation it ends with, and leaves a Barrier, Allreduce,
 *     Allgather(v), Alltoall(v,w) or Reduce_scatter on COMM_WORLD only
 *     after every rank entered it: so for hosts A and B, in the same call,
 *     A's exit + A's shift >= B's entry + B's shift;
 *   - the k-th of those calls on COMM_WORLD is the same call on every
 *     rank (collectives on a communicator are ordered).
 * Every rank is read up to its MPI_Init and its first CLOCK_SYNC_MAX such
 * collectives. The latest entry and the earliest exit of each call on each
 * host give an interval of shifts against the reference host (the one of
 * the lowest rank with an MPI_Init). The shift is the middle of that
 * interval, which the collectives make a few microseconds wide. With
 * MPI_Init alone (no collective found), whose exits are about a
 * millisecond apart even on one host (docs/DUMPI.md), it is the shift
 * that makes the hosts' earliest MPI_Init exits coincide, kept inside the
 * interval. An empty interval (clocks that drift, a program outside these
 * rules) falls back to that too, and is reported.
 */
#ifndef SLOG2_CLOCKS_H
#define SLOG2_CLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dumpi.h"

typedef enum clock_align {
    CLOCK_ALIGN_AUTO,   /* when the ranks ran on more than one host and
                           the clock is a boot clock (CLOCK_MONOTONIC) */
    CLOCK_ALIGN_ALWAYS, /* whenever there is more than one entry (a
                           rank of unknown host is one) */
    CLOCK_ALIGN_NEVER   /* times as recorded */
} clock_align;

/* Parses "auto", "always" or "never"; false for anything else. */
bool clock_align_parse(const char *s, clock_align *out);

/* Wall times below this are a boot clock, not epoch time: 10^9 s is 2001
 * as epoch time and 31 years of uptime as a boot clock. */
#define CLOCK_EPOCH_MIN_NS 1000000000000000000LL

/* Records read from the start of each rank for its MPI_Init (first, but
 * for MPI_Initialized, MPI_Wtime and the like before it) and its first
 * CLOCK_SYNC_MAX synchronising collectives on COMM_WORLD. */
#define CLOCK_PROBE_RECORDS 2048
#define CLOCK_SYNC_MAX      8
#define CLOCK_POINTS        (1 + CLOCK_SYNC_MAX) /* MPI_Init, then the collectives */

typedef enum clock_method {
    CLOCK_BY_NONE,         /* no MPI_Init found: left as recorded */
    CLOCK_BY_REFERENCE,    /* the reference host: shift 0 */
    CLOCK_BY_COLLECTIVES,  /* middle of the interval the collectives give */
    CLOCK_BY_INIT,         /* earliest MPI_Init exits coincide (clamped into
                             the interval MPI_Init gives) */
    CLOCK_BY_INIT_CONFLICT /* as CLOCK_BY_INIT, the interval being empty */
} clock_method;

/* A host is a distinct DUMPI header hostname. The header is written at
 * the end of a rank's file, so a rank killed mid-run has none: its host
 * is unknown, and it is an entry of its own here, aligned by its own
 * MPI_Init when the named hosts are. A rank without a file is in none. */
typedef struct clock_host {
    char *name;          /* the ranks' DUMPI header hostname ("" if none) */
    uint32_t first_rank; /* its lowest rank */
    uint32_t n_ranks;
    /* Per point (MPI_Init, then the collectives): the latest entry and the
     * earliest exit among its ranks, on its own clock; INT64_MIN and
     * INT64_MAX where no rank of it got there (exit_ns[0]: its earliest
     * MPI_Init exit). */
    int64_t entry_ns[CLOCK_POINTS], exit_ns[CLOCK_POINTS];
    clock_method method;
    int64_t offset_ns; /* added to its ranks' wall times */
    int64_t error_ns;  /* half the interval's width: the most the shift
                              can be off (INT64_MAX: unknown) */
} clock_host;

typedef struct clock_plan {
    clock_host *hosts;    /* in order of first rank */
    size_t n_hosts;       /* entries, named or not */
    size_t n_named;       /* hosts with a name */
    uint32_t *host_of;    /* [rank] -> index in hosts; UINT32_MAX: no file */
    bool aligned;         /* offsets were set (some may still be 0) */
    const char *why_not;  /* when not aligned and there are several hosts */
    int64_t max_shift_ns; /* largest |offset_ns| */
    int64_t max_error_ns; /* largest error_ns of a shifted host */
    size_t n_conflicts;   /* hosts with CLOCK_BY_INIT_CONFLICT */
} clock_plan;

/* Group the ranks by host and, when mode asks for it, read up to
 * CLOCK_PROBE_RECORDS records of each rank (files[i] NULL: a missing rank,
 * left out) for its MPI_Init and collectives, rewind it, and set each
 * file's wall offset (dumpi_file_set_wall_offset). A record that fails to
 * decode ends that rank's search quietly: the build reads it again and
 * reports it. */
void clock_plan_make(dumpi_file *const *files, uint32_t n_ranks, clock_align mode, clock_plan *out);
void clock_plan_free(clock_plan *p);

#endif
