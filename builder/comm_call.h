/* comm_call.h - replay one DUMPI record's communicator or group call
 * (Comm_dup/split/create/free, Group_*, Cart_create/sub, Graph_create,
 * Intercomm_create/merge) into a comm_ctx.
 *
 * The builder keeps two replays of the same calls in the same order: its
 * own, for the world ranks and sizes in the states' info fields, and the
 * matching engine's on the writer's thread (relay.c), so neither thread
 * touches the other's communicator state.
 */
#ifndef SLOG2_COMM_CALL_H
#define SLOG2_COMM_CALL_H

#include <stdint.h>

#include "comm.h"
#include "dumpi.h"

/* Records of other functions are ignored. */
void comm_replay_call(comm_ctx *ctx, uint32_t rank, const dumpi_call *c);

#endif
