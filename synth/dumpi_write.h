/* SPDX-License-Identifier: MIT */
/* dumpi_write.h - writes one rank's DUMPI .bin file, as libdumpi 13.0.0 does.
 *
 * File layout (sst-dumpi common/io.c; all integers big-endian):
 *
 *   OFFSET  SIZE  DESCRIPTION
 *   0       8     lead-in magic 0xffaadd44554d5049 ("\xff\xaa\xddDUMPI")
 *   8       4     body: CPU time bias, whole seconds (index "body" = 8)
 *   12      4     body: wall time bias, whole seconds
 *   16      ...   call records, one per MPI call, in order of return
 *   H-2     2     label 293 (DUMPI_END_OF_STREAM)
 *   H       ...   header: version u8[3], starttime u64 (epoch s),
 *                 hostname, username (u16 length + bytes each),
 *                 meshcrd and meshsize (u32 count + u32 each)
 *   F       8     footer magic 0x00000000f007fee7
 *   F+8     4*291 call count per label 0..290 (290 = total)
 *   ...     4*291 ignored count per label (always 0 from libdumpi)
 *   K       4     keyval record: u32 count = 0 (libdumpi never sets the
 *                 index's keyval pointer, so the index says 0)
 *   P       4     perf-counter labels: u32 count (+ u16 strings)
 *   S       4+4n  datatype sizes: u32 count n, u32 size of each datatype
 *   A       4     function addresses: u32 count (+ u64 addr, u16 string)
 *   end-64  64    index: u64 magic, sizes S, addresses A, perf labels P,
 *                 header H, body 8, footer F, keyval 0
 *
 * Call record (common/iodefs.h STARTWRITE, put_times):
 *
 *   SIZE  DESCRIPTION
 *   2     function label (common/funclabels.h)
 *   1     mask: statuses (bits 0-1), CPU time (bit 2), wall time (bit 3),
 *         thread id present (bit 6, always set by libdumpi 13)
 *   2     thread id
 *   12    CPU start and stop if bit 2: u16 seconds minus the CPU bias,
 *         u32 nanoseconds, each
 *   12    wall start and stop if bit 3, same encoding
 *   ...   arguments in the order of dumpi/dumpi_table.h
 *
 * The argument lists come from the project's DUMPI function table
 * (dumpi_table.h), so the generator and the decoder share one statement of
 * the format.
 */
#ifndef SLOG2_SYNTH_DUMPI_WRITE_H
#define SLOG2_SYNTH_DUMPI_WRITE_H

#include <stdint.h>

#include "out.h"

/* Labels the generator emits (common/funclabels.h). */
enum synth_label {
  SYNTH_SEND = 0,
  SYNTH_RECV = 1,
  SYNTH_ISEND = 8,
  SYNTH_IRECV = 12,
  SYNTH_WAITALL = 18,
  SYNTH_IPROBE = 22,
  SYNTH_PROBE = 23,
  SYNTH_SENDRECV = 33,
  SYNTH_BARRIER = 52,
  SYNTH_BCAST = 53,
  SYNTH_GATHERV = 55,
  SYNTH_REDUCE = 62,
  SYNTH_ALLREDUCE = 65,
  SYNTH_COMM_SIZE = 81,
  SYNTH_COMM_RANK = 82,
  SYNTH_COMM_DUP = 84,
  SYNTH_COMM_SPLIT = 86,
  SYNTH_COMM_FREE = 87,
  SYNTH_INIT = 124,
  SYNTH_FINALIZE = 125,
  SYNTH_INIT_THREAD = 171,
  SYNTH_ALL_FUNCTIONS = 290,  /* footer counters are labels 0..290 */
  SYNTH_FUNCTION_ENTER = 291, /* instrumented user function (-finstrument- */
  SYNTH_FUNCTION_EXIT = 292,  /* functions): one i64 address argument */
  SYNTH_END_OF_STREAM = 293
};

/* Named argument slots a generated call fills in. The encoder maps each
 * argument name of the function table onto one of these. */
enum synth_slot {
  SL_COUNT,
  SL_DATATYPE,
  SL_DEST,
  SL_SOURCE,
  SL_TAG,
  SL_COMM,
  SL_REQUEST,
  SL_FLAG,
  SL_OP,
  SL_ROOT,
  SL_COMMRANK,
  SL_COMMSIZE,
  SL_SENDCOUNT,
  SL_SENDTYPE,
  SL_RECVCOUNT,
  SL_RECVTYPE,
  SL_SENDTAG,
  SL_RECVTAG,
  SL_COLOR,
  SL_KEY,
  SL_OLDCOMM,
  SL_NEWCOMM,
  SL_RANK,
  SL_SIZE,
  SL_ARGC,
  SL_REQUIRED,
  SL_PROVIDED,
  /* arrays */
  SL_REQUESTS,
  SL_STATUS,
  SL_STATUSES,
  SL_RECVCOUNTS,
  SL_DISPLS,
  SL_ARGV,
  SL_N_SLOTS
};

typedef struct synth_status {
  int32_t bytes;
  int32_t source;
  int32_t tag;
  uint8_t cancelled;
  uint8_t error;
} synth_status;

#define SYNTH_MAX_REQ 16

/* One MPI call as the workload describes it. Times are nanoseconds on the
 * simulated CLOCK_MONOTONIC / CLOCK_PROCESS_CPUTIME_ID. Only the slots the
 * function's argument list names are read. */
typedef struct synth_call {
  uint16_t label;
  uint16_t thread;
  int64_t wall_start, wall_stop;
  int64_t cpu_start, cpu_stop;
  int32_t v[SL_REQUESTS]; /* scalar slots */
  int32_t n_req;          /* SL_REQUESTS */
  int32_t req[SYNTH_MAX_REQ];
  int32_t n_status; /* SL_STATUS(ES): 0 = MPI_STATUS_IGNORE */
  synth_status st[SYNTH_MAX_REQ];
  int32_t n_counts; /* SL_RECVCOUNTS / SL_DISPLS length */
  const int32_t *counts;
  const int32_t *displs;
  int32_t argc; /* SL_ARGV */
  const char *const *argv;
  uint64_t fn; /* FUNCTION_ENTER/EXIT: the address */
} synth_call;

/* Per-rank writing context. */
typedef struct synth_dumpi {
  synth_out out;
  uint8_t mask;       /* record mask: see the table above */
  int32_t cpu_bias;   /* seconds subtracted from CPU times */
  int32_t wall_bias;  /* seconds subtracted from wall times */
  int64_t wall_shift; /* ns added to every wall time written: the
                             rank's host clock minus the simulated one */
  uint32_t counts[SYNTH_ALL_FUNCTIONS + 1];
} synth_dumpi;

/* Checks the function table once: every function the generator emits must
 * be present and use only argument names and types the encoder knows.
 * Returns NULL, or a static message naming the offending function/argument. */
const char *synth_dumpi_prepare(void);
/* Bytes of a built-in datatype (the datatype-sizes section's), 0 unknown. */
uint32_t synth_dumpi_type_size(int32_t datatype);

/* Writes the lead-in magic and the stream start (time biases). The sink
 * must already be open. with_cpu/with_status select the record mask. */
void synth_dumpi_begin(synth_dumpi *d, int32_t cpu_bias, int32_t wall_bias, int with_cpu, int with_status);

/* Encodes one call record and counts it for the footer (MPI labels only:
 * the footer has no counters for FUNCTION_ENTER/EXIT). */
void synth_dumpi_call(synth_dumpi *d, const synth_call *c);

typedef struct synth_header {
  uint64_t starttime; /* epoch seconds */
  const char *hostname;
  const char *username;
  /* the function-address section: instrumented functions and their names
   * (libdumpi writes u32 count, then u64 address + u16-length name each) */
  int n_functions;
  const uint64_t *fn_addresses;
  const char *const *fn_names;
} synth_header;

/* Writes end-of-stream, header, footer, keyval, perf labels, datatype
 * sizes, function addresses and the index. */
void synth_dumpi_finish(synth_dumpi *d, const synth_header *h);

/* Bytes synth_dumpi_finish() will add (for --size budgeting). */
uint64_t synth_dumpi_trailer_size(const synth_header *h);

#endif
