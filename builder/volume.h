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

/* A rank file's sizes of the predefined datatypes (ids below
 * N_PREDEF_TYPES, the only ones whose size is the payload's), -1 where the
 * file gives none. The builder keeps one table for all the ranks whose
 * files agree (nearly always all): one table stays in the cache where
 * thousands of ranks' own tables each missed it. */
#define N_PREDEF_TYPES 28
typedef struct type_sizes {
    int32_t size[N_PREDEF_TYPES];
} type_sizes;

/* f's table (dumpi_file_datatype_size()). */
void type_sizes_of(const dumpi_file *f, type_sizes *out);
/* type's size, or -1 when type is not predefined or has no size (ts
 * NULL: none has). */
static inline int32_t type_size(const type_sizes *ts, int64_t type)
{
    return ts && type >= 0 && type < N_PREDEF_TYPES ? ts->size[type] : -1;
}

typedef struct volume_plan {
    uint8_t sent, received; /* volume_rule, see volume.c */
} volume_plan;

/* Fill *p for the function with this label. Returns 1 when the function
 * gets "sent"/"received" fields (collectives that move data, Sendrecv,
 * Sendrecv_replace), else 0. */
int volume_plan_for(uint16_t label, volume_plan *p);

/* The calling rank's sent and received bytes for record c (whose
 * function's arguments a locates; ts: its rank file's datatype sizes); cv answers the size of the record's communicator and the caller's
 * rank in it. */
void volume_of(const volume_plan *p, const fn_args *a, const type_sizes *ts, const comm_view *cv, const dumpi_call *c,
               int64_t *sent, int64_t *received);

#endif
