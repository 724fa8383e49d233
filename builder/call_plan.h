/* SPDX-License-Identifier: MIT */
/* call_plan.h - what one MPI function's records mean to the builder: the
 * state's category and info fields, and the operations message matching
 * gets from them.
 *
 * A plan is worked out once per function label, the first time a record of
 * it is met (its categories appear in the legend only if it is called), so
 * the per-record path compares no strings. call_state() and call_ops() are
 * that path: the same for a record decoded on a rank's lane (lane.c) and one
 * deferred to the sequential step (seq.c); they differ only in the
 * communicator context they are given.
 */
#ifndef SLOG2_CALL_PLAN_H
#define SLOG2_CALL_PLAN_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "comm.h"
#include "comm_view.h"
#include "dumpi.h"
#include "fn_args.h"
#include "match.h"
#include "volume.h"
#include <slog2/slog.h>

/* Info fields a function's state may carry (field_defs in call_plan.c). */
typedef enum field_id {
    F_BYTES,
    F_SENT,
    F_RECEIVED,
    F_DEST,
    F_SOURCE,
    F_TAG,
    F_COMM,
    F_ROOT,
    F_REQUEST,
    F_COMPLETED,
    N_FIELD_IDS
} field_id;

/* What an arrow carries: the message's bytes, tag and (receiver's)
 * communicator. */
#define N_ARROW_FIELDS 3
extern const uint8_t call_arrow_fields[N_ARROW_FIELDS];

/* The names and types of the info fields fields[0..n). */
void call_field_columns(const uint8_t *fields, uint32_t n, const char **names, uint8_t *types);

/* What a call means to matching. */
typedef enum role_id {
    R_NONE,
    R_SEND,
    R_ISEND,
    R_SEND_INIT,
    R_RECV,
    R_IRECV,
    R_RECV_INIT,
    R_SENDRECV,
    R_START,
    R_STARTALL,
    R_CANCEL,
    R_REQ_FREE,
    R_COMPLETE
} role_id;

/* A plan made by the sequential step is published for records from
 * the publish lag's leaves after its own on (usable_from; build_internal.h), so whether a lane
 * uses it depends on the trace alone, not on which thread got there first
 * (docs/MATCHING.md, "Threads and order"). The plans of the functions in
 * the leaf width's sample are made before the first leaf, usable from 0. */
#define PLAN_NOT_READY UINT64_MAX

typedef struct fn_plan {
    _Atomic uint64_t usable_from; /* the first leaf lanes may use it for;
                                   * PLAN_NOT_READY until made */
    uint32_t category;            /* state category */
    uint32_t poll_category;       /* event category (polls), UINT32_MAX if none */
    uint32_t n_fields;
    uint8_t fields[N_FIELD_IDS]; /* field_id per slot */
    int8_t arg[N_FIELD_IDS];     /* arg index per slot, -1 if derived */
    /* The slots split by how they are filled, so the per-record path runs
     * no switch for the common kind: a plain copy of one argument (tag,
     * comm, request) or a computed value (bytes, ranks, volumes, counts). */
    uint8_t n_plain, n_computed;
    uint8_t plain_slot[N_FIELD_IDS], computed_slot[N_FIELD_IDS];
    uint8_t plain_arg[N_FIELD_IDS]; /* a plain slot's argument (always one) */
    bool bytes_shared;              /* count and datatype: one bytes value serves
                                  * the bytes field and matching */
    bool needs_comm;                /* a field depends on the communicator's
                                  * members (peer/root ranks, volumes) */
    bool is_poll;                   /* Test*, Iprobe: may be an event */
    bool comm_op;                   /* creates/frees communicators or groups */
    fn_args a;                      /* where its arguments are */
    int8_t i_bytes_type;            /* datatype of the bytes field */
    uint8_t role;                   /* role_id */
    volume_plan volume;             /* for F_SENT / F_RECEIVED */
} fn_plan;

/* What records of label do in matching. */
role_id call_role(uint16_t label);

/* Whether records of label are polls (Test*, Iprobe), which may be events
 * rather than states (build_options.poll_states). */
bool call_is_poll(uint16_t label);

/* Fill p for label: everything but the two category ids and usable_from,
 * which the caller sets once it has registered the categories. */
void call_plan_make(fn_plan *p, uint16_t label);

/* One matching operation: the match_* call a record makes (match.h), with
 * the rank left out (the caller knows it). */
typedef enum match_op_kind {
    OP_SEND,
    OP_SEND_INIT,
    OP_RECV,
    OP_RECV_POST,
    OP_RECV_INIT,
    OP_START,
    OP_CANCEL,
    OP_REQUEST_FREE,
    OP_COMPLETE,
    OP_DEFERRED /* not an operation: a seq_item's whole record (build_internal.h) */
} match_op_kind;

/* 56 bytes, so that a lane's list entry (its key and this) is one cache
 * line: the lists are written on one core and read by the match step on
 * another, and that traffic was a large share of a build on two cores.
 * Hence the status's fields inline and no completion time: a RECV or
 * COMPLETE completes when its record exits, which the caller knows. */
typedef struct match_op {
    uint8_t kind; /* match_op_kind */
    bool has_status;
    bool st_cancelled; /* status: cancelled, nothing matched */
    uint16_t thread;
    int32_t comm, peer, tag, request;
    int32_t st_source, st_tag; /* status (if has_status): comm-local source, tag */
    int64_t bytes;
    int64_t time;     /* entry time of the posting call (START: of the Start) */
    int64_t st_bytes; /* status: bytes received, or MATCH_BYTES_UNKNOWN */
} match_op;

/* Run op (of world rank `rank`, made by a record exiting at done_time) on
 * m. */
void match_op_run(match_ctx *m, uint32_t rank, const match_op *op, int64_t done_time);

/* count x datatype size (ts: the rank file's, volume.h) of the record's
 * count/datatype pair, or SLOG_INFO_UNKNOWN. */
int64_t call_bytes(const type_sizes *ts, const dumpi_call *c, int i_count, int i_type);

/* Where call_ops() puts each operation: a slot to fill, valid until the
 * next call. */
typedef match_op *(*op_slot_fn)(void *user);

typedef struct send_reqs send_reqs;

/* The matching operations of record c of `rank` (t0: its entry on the
 * build's time axis; dc: its completions; bytes: the plan's shared count x
 * size). With sends (a lane's, send_reqs.h), it keeps that set and leaves
 * out the completions of the sends in it; NULL: every operation. */
void call_ops(const fn_plan *p, const type_sizes *ts, const dumpi_call *c, const dumpi_completions *dc, int64_t t0,
              int64_t bytes, send_reqs *sends, op_slot_fn slot, void *user);

/* A poll that found nothing: Test/Testany/Testall/Iprobe flag 0, Testsome
 * outcount 0 or MPI_UNDEFINED. */
bool call_poll_failed(const dumpi_call *c, const fn_plan *p);

/* The info values (p->n_fields of them) of record c's state; cv is the
 * communicator the record names (comm_view.h). */
void call_state_info(const fn_plan *p, const type_sizes *ts, const comm_view *cv, const dumpi_call *c,
                     const dumpi_completions *dc, int64_t bytes, int64_t *info);

/* The communicator handle record c names (COMM_WORLD when none). */
static inline int call_comm(const fn_plan *p, const dumpi_call *c)
{
    return p->a.i_comm >= 0 && dumpi_arg_present(c, p->a.i_comm) ? (int)c->args[p->a.i_comm].i : COMM_HANDLE_WORLD;
}

/* How a function's records change the rank's communicator handles, as the
 * replay (comm_call.c) sees them: the argument a creation call binds
 * (-1: none), and whether it frees its "comm". Per label, made once. */
typedef struct comm_binding {
    int8_t i_newcomm, i_freed;
    bool replayed; /* the replay takes it (comm_replay_call) */
} comm_binding;
void call_comm_binding(uint16_t label, comm_binding *out);

#endif
