/* SPDX-License-Identifier: MIT */
/* send_reqs.h - a rank's active nonblocking sends, as its lane sees them.
 *
 * The completion of a send (MPI_Wait on an Isend's request) tells matching
 * nothing: the send took its place in its channel when it was posted, and
 * its completion only lets go of the request, which the matcher also does
 * when the id is posted again (match.h). So a lane leaves those completions
 * out of its list: on a trace of Isend/Irecv/Waitall exchanges they were a
 * quarter of the matching operations. Not when the status says the send
 * was cancelled or MPI_Cancel was called on it, and only for ids below
 * MATCH_REQ_DENSE, which the matcher keeps in an array: a request it is not
 * told about costs it a slot until its id comes back. The output is the
 * same bytes either way.
 *
 * The lane keeps the set from every record of the rank, in the order of
 * the rank's file, whether it handles the record (call_ops) or defers it
 * (send_reqs_note).
 */
#ifndef SLOG2_SEND_REQS_H
#define SLOG2_SEND_REQS_H

#include <stdbool.h>
#include <stdint.h>

#include "call_plan.h"
#include "dumpi.h"
#include "match.h"

typedef struct send_reqs {
    uint64_t bits[MATCH_REQ_DENSE / 64];
    uint32_t n; /* bits set (with none, only an Isend changes any) */
} send_reqs;

void send_reqs_set(send_reqs *s, int64_t req, bool on);

/* Request id req now names a call of role (R_ISEND, R_IRECV, R_CANCEL,
 * ...): an Isend's completion will be left out, any other's not. */
static inline void send_reqs_post(send_reqs *s, uint8_t role, int64_t req)
{
    if (role == R_ISEND || s->n) send_reqs_set(s, req, role == R_ISEND);
}

/* Request req completed with status st (NULL: none recorded): whether its
 * completion may be left out. Its id names nothing after this. */
static inline bool send_reqs_done(send_reqs *s, int32_t req, const dumpi_status *st)
{
    if (!s->n || req < 0 || (uint32_t)req >= MATCH_REQ_DENSE || !(s->bits[req >> 6] >> (req & 63) & 1)) return false;
    send_reqs_set(s, req, false);
    return !(st && st->cancelled);
}

/* What a function does to request ids (per label, made once). */
typedef struct req_use {
    uint8_t role;      /* role_id */
    int8_t i_request;  /* its request argument, -1: none */
    int8_t i_requests; /* its request array (Startall), -1: none */
} req_use;
void req_use_of(uint16_t label, req_use *out);

/* A record the lane defers (u: its label's use): what call_ops() would have
 * done to the set. */
void send_reqs_note(send_reqs *s, const req_use *u, const dumpi_call *c);

#endif
