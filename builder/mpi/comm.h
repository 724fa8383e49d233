/* SPDX-License-Identifier: MIT */
/* comm.h - communicator translation for slog2-build.
 *
 * Every world rank names communicators and groups by small local handles
 * that are reused after a free (docs/MATCHING.md, docs/DUMPI.md): rank 0's
 * comm 4 need not be rank 1's comm 4, and comm 4 of rank 0 today need not be
 * comm 4 of rank 0 tomorrow. This module replays each rank's communicator
 * and group calls and answers "which world rank is local rank L of comm C on
 * rank R" and "which global communicator is it".
 *
 * Collective creation calls (dup, split, create, cart, graph, intercomm) only
 * determine the new membership once every member has reported. Records come
 * rank-interleaved from a k-way merge, so resolution is deferred: the n-th
 * creation call a rank makes on a parent communicator is matched with the
 * n-th creation call of every other member on the same parent (MPI-3.1
 * section 6.4: collective calls on a communicator are ordered identically on
 * all members). Until then the new handle exists but is "unresolved".
 *
 * The module knows nothing of DUMPI: handles and ranks are plain ints, with
 * the Open MPI / libdumpi values as defaults (COMM_HANDLE_*).
 *
 * Thread safety: none; one comm_ctx is driven by one thread (held peer
 * arrays aside: comm_ref_peers_hold).
 */
#ifndef SLOG2_COMM_H
#define SLOG2_COMM_H

#include <stdbool.h>
#include <stdint.h>

#include <slog2/slog.h>

/* Handle values fixed by libdumpi (docs/DUMPI.md). */
#define COMM_HANDLE_NULL   1
#define COMM_HANDLE_WORLD  2
#define COMM_HANDLE_SELF   3
#define GROUP_HANDLE_NULL  1
#define GROUP_HANDLE_EMPTY 2

/* Open MPI values stored as they are in the traces. */
#define COMM_UNDEFINED (-32766) /* MPI_UNDEFINED, e.g. split color */
#define COMM_PROC_NULL (-2)     /* MPI_PROC_NULL */

/* Results of comm_world_rank() / comm_ref_world_rank() that are not ranks. */
#define COMM_RANK_PROC_NULL  COMM_PROC_NULL /* the peer was MPI_PROC_NULL */
#define COMM_RANK_UNRESOLVED (-100)         /* membership not known yet; ask again later */
#define COMM_RANK_INVALID    (-101)         /* unknown handle, freed, or rank out of range */

/* Global ids of the predefined communicators; user ones follow. */
#define COMM_ID_WORLD            0u
#define COMM_ID_SELF(world_rank) (1u + (uint64_t)(world_rank))

typedef struct comm_ctx comm_ctx;

/* One rank's instance of one communicator: what a handle referred to at the
 * moment it was looked up. It outlives comm_free() while held, so an engine
 * that deferred work on it can still translate ranks when it resolves. */
typedef struct comm_ref comm_ref;

/* Called once for every comm_ref that becomes resolved (or fails), after the
 * whole creation call it belongs to has been resolved. ref is borrowed. */
typedef void (*comm_resolved_cb)(void *user, comm_ref *ref);

typedef struct comm_stats {
    uint64_t n_created;        /* communicators resolved (global objects) */
    uint64_t n_pending;        /* per-rank creation records not resolved yet */
    uint64_t n_failed;         /* creation calls whose members disagreed */
    uint64_t n_unknown_handle; /* calls naming a handle the rank does not hold */
} comm_stats;

/* A context for n_ranks world ranks, with WORLD and SELF bound on each. */
comm_ctx *comm_ctx_new(uint32_t n_ranks);
void comm_ctx_free(comm_ctx *c); /* NULL is fine */
uint32_t comm_ctx_n_ranks(const comm_ctx *c);
void comm_ctx_set_resolved_cb(comm_ctx *c, comm_resolved_cb cb, void *user);
void comm_ctx_stats(const comm_ctx *c, comm_stats *out);

/* ---------------------------------------------------------------- events
 * Call these in each rank's own call order (ranks may interleave freely).
 * newcomm/newgroup are the handles the call returned on that rank;
 * COMM_HANDLE_NULL means the rank got MPI_COMM_NULL but still took part.
 * All return SLOG_OK or SLOG_ERR_ARG (rank out of range, bad array). A handle
 * the rank does not hold is counted in comm_stats and otherwise ignored,
 * because a trace may start or lose records mid-run. */
slog_status comm_record_dup(comm_ctx *c, uint32_t rank, int comm, int newcomm);
/* On an intercommunicator (dup, split, create, MPI-3.1 6.4.2) the result is an
 * intercommunicator: split splits each side by colour and pairs equal colours
 * across the sides; create takes, from each side, the subgroup of its own
 * group that side's members passed. */
slog_status comm_record_split(comm_ctx *c, uint32_t rank, int comm, int color, int key, int newcomm);
slog_status comm_record_create(comm_ctx *c, uint32_t rank, int comm, int group, int newcomm);
/* reorder is ignored: members keep their parent order (what Open MPI does for
 * the cartesian and graph components it ships by default). */
slog_status comm_record_cart_create(comm_ctx *c, uint32_t rank, int comm, int ndims, const int *dims, int newcomm);
/* ndims: length of remain_dims (the parent's number of dimensions). */
slog_status comm_record_cart_sub(comm_ctx *c, uint32_t rank, int comm, int ndims, const int *remain_dims, int newcomm);
slog_status comm_record_graph_create(comm_ctx *c, uint32_t rank, int comm, int nnodes, int newcomm);
/* Best effort: the two halves are paired by their leaders and the tag. */
slog_status comm_record_intercomm_create(comm_ctx *c, uint32_t rank, int local_comm, int local_leader, int peer_comm,
                                         int remote_leader, int tag, int newcomm);
/* The high = false side first; equal values: the side whose local rank 0 has
 * the lower world rank first (what Open MPI does). */
slog_status comm_record_intercomm_merge(comm_ctx *c, uint32_t rank, int intercomm, int high, int newcomm);
slog_status comm_record_free(comm_ctx *c, uint32_t rank, int comm);

/* Groups are local (not collective) but may derive from a communicator that
 * is not resolved yet; they are then evaluated when first needed. ranks are
 * ranks in the source group; ranges are n triples (first, last, stride). */
slog_status comm_record_comm_group(comm_ctx *c, uint32_t rank, int comm, int newgroup);
/* MPI_Comm_remote_group: the remote group of an intercommunicator (a failed
 * group on an intracommunicator, as MPI-3.1 6.6.1 makes that an error). */
slog_status comm_record_comm_remote_group(comm_ctx *c, uint32_t rank, int comm, int newgroup);
slog_status comm_record_group_incl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranks, int newgroup);
slog_status comm_record_group_excl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranks, int newgroup);
slog_status comm_record_group_range_incl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranges, int newgroup);
slog_status comm_record_group_range_excl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranges, int newgroup);
slog_status comm_record_group_union(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup);
slog_status comm_record_group_intersection(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup);
slog_status comm_record_group_difference(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup);
slog_status comm_record_group_free(comm_ctx *c, uint32_t rank, int group);

/* ---------------------------------------------------------------- queries */

/* World rank of local_rank in comm as rank currently holds it. For an
 * intercommunicator local_rank is in the remote group (as in MPI p2p).
 * Returns >= 0, COMM_RANK_PROC_NULL (for local_rank -2), COMM_RANK_UNRESOLVED
 * or COMM_RANK_INVALID. */
int comm_world_rank(const comm_ctx *c, uint32_t rank, int comm, int local_rank);

/* Size of rank's group handle, and world rank of its i-th member (for
 * MPI_Group_translate_ranks and tests); COMM_RANK_* when not known. */
int comm_group_size(comm_ctx *c, uint32_t rank, int group);
int comm_group_world_rank(comm_ctx *c, uint32_t rank, int group, int i);

/* The instance rank's handle refers to now, or NULL (unknown handle, NULL).
 * Borrowed: valid until the next comm_record_* call unless held. */
comm_ref *comm_ref_lookup(comm_ctx *c, uint32_t rank, int comm);
comm_ref *comm_ref_hold(comm_ref *r);
/* A count that grows whenever an instance leaves COMM_REF_PENDING (its
 * resolved callback runs then too): while it stays the same, every pending
 * instance is still pending. */
uint64_t comm_ctx_settled(const comm_ctx *c);
/* A count that grows whenever any rank's handle is bound or freed: while
 * it stays the same, comm_ref_lookup() gives what it gave (the matcher
 * keeps the instances of each rank's last handles on that word). */
uint64_t comm_ctx_bindings(const comm_ctx *c);
void comm_ref_release(comm_ref *r); /* NULL is fine */

typedef enum comm_ref_state {
    COMM_REF_PENDING = 0,  /* waiting for other members' creation records */
    COMM_REF_RESOLVED = 1, /* membership known */
    COMM_REF_FAILED = 2    /* members disagreed; will never resolve */
} comm_ref_state;

comm_ref_state comm_ref_get_state(const comm_ref *r);
uint32_t comm_ref_rank(const comm_ref *r); /* world rank holding it */
int comm_ref_handle(const comm_ref *r);    /* handle at creation */
/* Global id shared by all members (resolved only; else UINT64_MAX). */
uint64_t comm_ref_id(const comm_ref *r);
/* Like comm_world_rank() on this instance. */
int comm_ref_world_rank(const comm_ref *r, int local_rank);
/* Size of the local group, or -1 while unresolved. */
int comm_ref_size(const comm_ref *r);
/* Size of the group comm_ref_world_rank() takes ranks in (the remote one
 * of an intercommunicator), or -1 while unresolved. */
int comm_ref_peer_size(const comm_ref *r);
/* That group's world ranks, comm_ref_peer_size() of them, or NULL while
 * unresolved; they stay as they are while r is held. */
const int *comm_ref_peers(const comm_ref *r);
/* comm_ref_peers(), held: comm_peers_ranks() gives them, as they are,
 * whatever becomes of r, until comm_peers_release(); these two any thread
 * may call (the one thing of this module that may). NULL while
 * unresolved. */
typedef struct comm_peers comm_peers;
comm_peers *comm_ref_peers_hold(const comm_ref *r);
const int *comm_peers_ranks(const comm_peers *p);
void comm_peers_release(comm_peers *p); /* NULL is fine */
/* The holding rank's place in the local group, or -1 while unresolved. */
int comm_ref_local_rank(const comm_ref *r);
/* When those are consecutive world ranks in order (peer i is world rank
 * run + i), the first of them; else, or while unresolved, -1. */
int comm_ref_run(const comm_ref *r);
/* When that group steps evenly (peer i is world rank
 * comm_ref_world_rank(r, 0) + i * *step), true with *step; else, or while
 * unresolved, false. */
bool comm_ref_stride(const comm_ref *r, int32_t *step);
bool comm_ref_is_inter(const comm_ref *r);
/* One pointer per instance for the context's one user of it, the matcher
 * (which also holds its resolved callback): its state for the instance,
 * found without hashing. NULL until set. */
void *comm_ref_user(const comm_ref *r);
void comm_ref_set_user(comm_ref *r, void *p);

#endif /* SLOG2_COMM_H */
