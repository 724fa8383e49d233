/* SPDX-License-Identifier: MIT */
/* comm_call.h - replay one DUMPI record's communicator or group call
 * (Comm_dup/split/create/free, Comm_group/remote_group, Group_*, Cart_create/sub, Graph_create,
 * Intercomm_create/merge) into a comm_ctx.
 *
 * The builder's sequential step keeps one replay, in exit-time order, for
 * matching and for the info fields of the records it makes states of;
 * lanes see its results through snapshots (comm_view.h).
 */
#ifndef SLOG2_COMM_CALL_H
#define SLOG2_COMM_CALL_H

#include <stdint.h>

#include "comm.h"
#include "dumpi.h"

/* Records of other functions are ignored. */
void comm_replay_call(comm_ctx *ctx, uint32_t rank, const dumpi_call *c);

#endif
