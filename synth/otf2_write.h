/* SPDX-License-Identifier: MIT */
/* otf2_write.h - slog2-synth's OTF2 output (--format otf2): the simulated
 * program of workload.c written with libotf2 as Score-P records an MPI run.
 * Each MPI call is a region (ENTER/LEAVE) with the MPI records Score-P puts
 * inside it: MPI_SEND/MPI_RECV, MPI_ISEND + MPI_ISEND_COMPLETE,
 * MPI_IRECV_REQUEST + MPI_IRECV (in the MPI_Waitall that completes it),
 * MPI_COLLECTIVE_BEGIN/END; user functions are regions of the compiler
 * paradigm. The definitions (system tree, location groups, locations,
 * regions, MPI's location list, a group and communicator per communicator
 * the program makes, clock properties) are written at the end, when all
 * are known. Times are the simulated clock's, in ns, shared by every rank
 * (Score-P's corrected timestamps). Built when libotf2 is found
 * (SLOG2_HAVE_OTF2). docs/SYNTH.md. */
#ifndef SLOG2_SYNTH_OTF2_WRITE_H
#define SLOG2_SYNTH_OTF2_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "dumpi_write.h"

typedef struct synth_otf2 synth_otf2;

/* Create the archive DIR/PREFIX.otf2 (+ DIR/PREFIX.def, DIR/PREFIX/) for
 * ranks single-threaded ranks; rank_host[r] indexes host_names. NULL with
 * a message in err on failure. */
synth_otf2 *synth_otf2_open(const char *out_prefix, int ranks, const int *rank_host, const char *const *host_names,
                            int n_hosts, char *err, size_t errlen);
/* Record one call of rank r (calls of a rank in order of entry). */
void synth_otf2_call(synth_otf2 *o, int r, const synth_call *c);
/* Write the definitions and close; user functions are named by address.
 * Returns 0, or -1 with a message in err. Frees o either way. */
int synth_otf2_finish(synth_otf2 *o, const uint64_t *fn_addr, const char *const *fn_name, int n_fns, char *err,
                      size_t errlen);
/* Close and leave what was written; frees o (NULL is fine). */
void synth_otf2_abort(synth_otf2 *o);

#endif
