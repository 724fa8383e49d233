/* SPDX-License-Identifier: MIT */
/* match.h - point-to-point message matching for slog2-build.
 *
 * Pairs every send with the receive that got it, following MPI's rules
 * (MPI-3.1 section 3.5): a message is identified by (communicator, source,
 * destination, tag); messages between one pair on one communicator do not
 * overtake each other; a receive takes the earliest matching message, and a
 * message goes to the earliest posted matching receive. Wildcard receives
 * (MPI_ANY_SOURCE, MPI_ANY_TAG) are resolved from the completion status;
 * one completed without a status has its message inferred (below).
 * docs/MATCHING.md explains the design; the short version:
 *
 *   - sends go into a FIFO per exact envelope ("channel") when posted;
 *   - a receive joins its channel once its envelope is known (posted with no
 *     wildcard, or completed with a status) and no earlier posted, still
 *     uncompleted wildcard receive on the same communicator could take that
 *     envelope first;
 *   - a channel pairs its head send with its head receive once that receive
 *     has completed, and reports an arrow;
 *   - a wildcard receive completed without a status, once no earlier posted
 *     receive could take the same messages, joins the channel of the
 *     earliest (send start time, then posting order) send to it that no
 *     receive already queued there will take; with none yet, it waits for
 *     the first such send. Its arrow is marked inferred.
 * Communicators that are not resolved yet (comm.h) hold their operations
 * back in posting order until they are.
 *
 * Integration, per MPI function (rank/thread/time of the record; "post"
 * fields: comm handle, peer as a comm-local rank, tag, bytes, request id):
 *   Send, Bsend, Ssend, Rsend            match_send(request = MATCH_NO_REQUEST)
 *   Isend, Ibsend, Issend, Irsend        match_send(request = the new id)
 *   Recv                                 match_recv(post, status, exit time)
 *   Irecv                                match_recv_post(request = the new id)
 *   Sendrecv, Sendrecv_replace           match_send(entry time) then
 *                                        match_recv(entry time, status, exit time)
 *   Send_init, Bsend_init, Ssend_init,
 *   Rsend_init                           match_send_init
 *   Recv_init                            match_recv_init
 *   Start, Startall (each request)       match_start(entry time)
 *   Wait, Test(flag), Waitany, Testany,
 *   Waitall, Testall(flag), Waitsome,
 *   Testsome (each completed request)    match_complete(status or NULL, exit time)
 *   Cancel                               match_cancel (the completion that
 *                                        follows carries status.cancelled)
 *   Request_free                         match_request_free
 *   Probe, Iprobe, Test_cancelled        nothing: they consume no message
 *   end of input                         match_finish, then match_unmatched()
 * Times are the integrator's (ns); sends use the call's entry time, receive
 * completions the exit time of the completing call. Blocking calls record
 * post and completion together. Feed each rank's records in its own order;
 * ranks may interleave in any way (a k-way merge by exit time is expected by
 * match_low_watermark(), not by the matching itself).
 *
 * Thread safety: none. Memory: proportional to operations in flight.
 */
#ifndef SLOG2_MATCH_H
#define SLOG2_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "comm.h"
#include <slog2/slog.h>

#define MATCH_ANY_SOURCE    (-1) /* Open MPI's MPI_ANY_SOURCE, as in the traces */
#define MATCH_ANY_TAG       (-1) /* Open MPI's MPI_ANY_TAG */
#define MATCH_PROC_NULL     (-2) /* MPI_PROC_NULL: such peers never match */
#define MATCH_NO_REQUEST    INT32_MIN
#define MATCH_BYTES_UNKNOWN INT64_MIN /* == SLOG_INFO_UNKNOWN */
/* Request ids below this are kept in an array per rank (match.c): a
 * request left active costs a slot until its id is posted again. */
#define MATCH_REQ_DENSE     1024u

typedef struct match_ctx match_ctx;

/* One posted operation, as recorded. */
typedef struct match_post {
    uint32_t rank;   /* world rank making the call */
    uint32_t thread; /* timeline thread of the call */
    int comm;        /* communicator handle on that rank */
    int peer;        /* sends: dest; receives: source or MATCH_ANY_SOURCE;
                      * comm-local (remote group for intercomms); or MATCH_PROC_NULL */
    int tag;         /* receives may use MATCH_ANY_TAG */
    int64_t bytes;   /* sends: count * type size, or MATCH_BYTES_UNKNOWN */
    int64_t time;    /* ns: entry time of the posting call */
    int request;     /* request id, or MATCH_NO_REQUEST for blocking calls */
} match_post;

/* A completion status. source is comm-local, as MPI reports it. */
typedef struct match_status {
    int source;
    int tag;
    int64_t bytes; /* or MATCH_BYTES_UNKNOWN */
    int cancelled; /* non-zero: the request was cancelled, nothing matched */
} match_status;

/* One matched message. */
typedef struct match_arrow {
    uint32_t send_rank, send_thread;
    int64_t send_time; /* entry of the send (or of its Start) */
    uint32_t recv_rank, recv_thread;
    int64_t recv_time; /* exit of the call that completed the receive */
    int64_t bytes;     /* received bytes from the status, else the send's */
    int32_t tag;
    bool inferred;    /* the receive had no status (a wildcard completed
                          * with MPI_STATUS_IGNORE or statuses disabled): the
                          * pairing follows MPI's ordering rules, not a
                          * recorded envelope (docs/MATCHING.md) */
    uint64_t comm_id; /* global communicator id (comm_ref_id) */
    int send_comm;    /* handle on the sending rank */
    int recv_comm;    /* handle on the receiving rank */
} match_arrow;

/* Called from inside the match_* / comm_record_* call that completed the
 * pair; it must not call back into the engines. Return SLOG_STOP to stop: no
 * further arrows are delivered and match_stopped() becomes true; the
 * integrator keeps its own error. */
typedef slog_cb_result (*match_arrow_cb)(void *user, const match_arrow *a);

typedef enum match_unmatched_kind {
    MATCH_UNMATCHED_SEND = 0,       /* a send no receive took */
    MATCH_UNMATCHED_RECV = 1,       /* a completed receive with no send */
    MATCH_UNMATCHED_INCOMPLETE = 2, /* a receive never completed, or freed while active */
    MATCH_UNMATCHED_NO_STATUS = 3,  /* a wildcard receive completed without a status
                                     * for which no send could be inferred, or on
                                     * which MPI_Cancel was called */
    MATCH_UNMATCHED_BAD_COMM = 4    /* unknown/unresolved communicator or peer rank */
} match_unmatched_kind;

/* One line of the summary: count operations with the same description. */
typedef struct match_unmatched {
    match_unmatched_kind kind;
    int32_t src, dst; /* world ranks; -1 when unknown (e.g. ANY_SOURCE) */
    int32_t tag;      /* MATCH_ANY_TAG when unknown */
    uint64_t comm_id; /* UINT64_MAX when not resolved */
    int comm;         /* handle on the posting rank */
    uint64_t count;
} match_unmatched;

typedef struct match_stats {
    uint64_t n_sends, n_recvs;           /* posted, PROC_NULL excluded */
    uint64_t n_arrows;                   /* delivered (or suppressed after STOP) */
    uint64_t n_inferred;                 /* inferred receives placed with their send; after
                                     * match_finish() exactly the arrows (of n_arrows)
                                     * with inferred set */
    uint64_t n_matched_no_arrow;         /* send taken by a receive with no completion time */
    uint64_t n_proc_null;                /* operations with an MPI_PROC_NULL peer */
    uint64_t n_cancelled;                /* completions with status.cancelled */
    uint64_t n_unmatched;                /* operations in the unmatched list */
    uint64_t n_unknown_request;          /* completions/starts naming no known request */
    uint64_t n_request_reused;           /* an active request id given out again */
    uint64_t n_in_flight, max_in_flight; /* operations held now / at most */
} match_stats;

/* comms must outlive the context; the context installs itself as comms'
 * resolved callback (comm_ctx_set_resolved_cb) to release deferred work. */
match_ctx *match_ctx_new(comm_ctx *comms, match_arrow_cb cb, void *user);
void match_ctx_free(match_ctx *m); /* NULL is fine; drops what is pending */

/* All return SLOG_OK, or SLOG_ERR_ARG (rank out of range, after finish). */
slog_status match_send(match_ctx *m, const match_post *p);
slog_status match_recv_post(match_ctx *m, const match_post *p);
/* Blocking receive: post and completion at once. st NULL = not recorded. */
slog_status match_recv(match_ctx *m, const match_post *p, const match_status *st, int64_t done_time,
                       uint32_t done_thread);
/* Persistent requests: p->time is ignored; each Start posts anew. */
slog_status match_send_init(match_ctx *m, const match_post *p);
slog_status match_recv_init(match_ctx *m, const match_post *p);
slog_status match_start(match_ctx *m, uint32_t rank, uint32_t thread, int request, int64_t time);
/* Request completed (Wait/Test family). st NULL = status not recorded. */
slog_status match_complete(match_ctx *m, uint32_t rank, uint32_t thread, int request, const match_status *st,
                           int64_t time);
slog_status match_cancel(match_ctx *m, uint32_t rank, int request);
slog_status match_request_free(match_ctx *m, uint32_t rank, int request);

/* Hints, for a caller that knows its next operations: fetch what an
 * operation of rank will read, a step at a time, each step a few
 * operations after the one before, reading only what that one fetched.
 * First match_prefetch_record(): the line of its record that says where
 * its request's slot is (the record's own slots, or an array of more);
 * then match_prefetch_rank(): that slot (request may be
 * MATCH_NO_REQUEST); then match_chase_start(): for a send or
 * receive posted on comm to peer with tag, its communicator instance and
 * channel cache slot; for a completion, the request's operation; then
 * match_chase_step() twice: the channel, then the operation it would pair
 * with. Nothing changes. */
typedef enum match_hint { MATCH_HINT_SEND, MATCH_HINT_RECV, MATCH_HINT_COMPLETE } match_hint;
typedef struct match_chase {
    const void *const *at; /* where the pointer to fetch next is, or NULL */
    uint8_t state;         /* what it points to (match.c) */
} match_chase;
void match_prefetch_record(const match_ctx *m, uint32_t rank);
void match_prefetch_rank(const match_ctx *m, uint32_t rank, int request);
void match_chase_start(const match_ctx *m, uint32_t rank, match_hint h, int comm, int peer, int tag, int request,
                       match_chase *c);
void match_chase_step(match_chase *c);
/* For a completion of rank's request coming a few operations later, a
 * step of the chain it will read, each step reading only what the one
 * before fetched: step 0 the request's operation, 1 its channel, 2 the
 * send at the channel's head. Nothing changes. */
void match_fetch_completion(const match_ctx *m, uint32_t rank, int request, int step);

/* Smallest completion time among completed receives still waiting for their
 * send, or INT64_MAX. No arrow delivered later ends before it, so nodes
 * ending at or before min(merge time, this) can be written (seq.c gives it
 * to slog_writer_advance). */
int64_t match_low_watermark(const match_ctx *m);

/* End of input: pair what can still be paired and build the unmatched list.
 * Arrows may be delivered. Afterwards only queries are allowed. */
slog_status match_finish(match_ctx *m);
/* Sorted by kind, src, dst, comm, tag. Valid until match_ctx_free(). */
const match_unmatched *match_unmatched_list(const match_ctx *m, size_t *n);
void match_get_stats(const match_ctx *m, match_stats *out);
int match_stopped(const match_ctx *m);

#endif /* SLOG2_MATCH_H */
