/* SPDX-License-Identifier: MIT */
/* fn_args.h - where, in a DUMPI function's argument list, the arguments
 * the builder reads sit.
 *
 * Looked up once per function (by name in the table, dumpi_fn_arg_index),
 * so that the per-record path indexes dumpi_call.args directly; -1 where
 * the function has no such argument. Shared by the state fields and
 * matching (build.c) and the byte volumes (volume.c).
 */
#ifndef SLOG2_FN_ARGS_H
#define SLOG2_FN_ARGS_H

#include <stdint.h>

typedef struct fn_args {
    int8_t i_count, i_datatype, i_sendcount, i_sendtype, i_recvcount, i_recvtype;
    int8_t i_sendcounts, i_recvcounts, i_sendtypes, i_recvtypes;
    int8_t i_root, i_commrank, i_commsize, i_comm, i_dest, i_source, i_status;
    int8_t i_tag, i_sendtag, i_recvtag, i_request, i_requests, i_flag, i_outcount;
} fn_args;

/* Fill *a for the function with this label. */
void fn_args_find(uint16_t label, fn_args *a);

#endif
