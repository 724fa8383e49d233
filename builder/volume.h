/* SPDX-License-Identifier: MIT */
/* volume.h - how many bytes an MPI call moves, seen from the calling rank:
 * out of its send buffer ("sent") and into its receive buffer
 * ("received").
 *
 * For the collectives and Sendrecv, whose one "bytes" figure would hide
 * which way the data went and how much of it (a Gather's root receives
 * commsize times what each member sends). One table row per function
 * gives a rule for each direction; volume_of() applies them to a decoded
 * record. Sizes come from the trace's own datatype table, so only
 * predefined datatypes have a size; anything that depends on a derived
 * datatype, an unresolved communicator or a missing argument is
 * SLOG_INFO_UNKNOWN, never a guess.
 */
#ifndef SLOG2_VOLUME_H
#define SLOG2_VOLUME_H

#include <stdint.h>

#include "comm_view.h"
#include "dumpi.h"
#include "fn_args.h"

typedef struct volume_plan {
    uint8_t sent, received; /* volume_rule, see volume.c */
} volume_plan;

/* Fill *p for the function with this label. Returns 1 when the function
 * gets "sent"/"received" fields (collectives that move data, Sendrecv,
 * Sendrecv_replace), else 0. */
int volume_plan_for(uint16_t label, volume_plan *p);

/* The calling rank's sent and received bytes for record c (whose
 * function's arguments a locates; of file f, whose datatype sizes are
 * used); cv answers the size of the record's communicator and the caller's
 * rank in it. */
void volume_of(const volume_plan *p, const fn_args *a, const dumpi_file *f, const comm_view *cv, const dumpi_call *c,
               int64_t *sent, int64_t *received);

#endif
