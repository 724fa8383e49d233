/* SPDX-License-Identifier: MIT */
/* comm_view.h - what a state's info fields need to know of the
 * communicator its call names: world ranks of its members, its size, the
 * caller's rank in it.
 *
 * The sequential step asks the communicator replay (comm.h) at the
 * record's place in exit-time order. A lane cannot: the replay is the
 * sequential step's, and lanes run ahead of it. So each rank's lane keeps
 * its own table of the rank's handles (it sees the rank's own creation and
 * free calls in order, as the replay does) pointing at snapshots, and the
 * sequential step fills a snapshot when the replay resolves that
 * communicator (or finds it failed), publishing it with the leaf it was
 * resolved in. A lane uses a snapshot for records from the publish lag's
 * leaves later on (build_internal.h), as it uses plans (call_plan.h); before that, or for a communicator
 * that never resolves, the record goes to the sequential step whole. Both
 * give the answers comm.h gives at the record's place: a communicator
 * resolved before it stays resolved, a failed one stays failed.
 */
#ifndef SLOG2_COMM_VIEW_H
#define SLOG2_COMM_VIEW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "comm.h"
#include "htab.h"

/* One rank's instance of a communicator, as a lane sees it. Made by the
 * lane when the rank's creation call binds a handle (two references: the
 * lane's table and the sequential step), filled and published by the
 * sequential step. */
typedef struct comm_snap {
    _Atomic uint64_t usable_from; /* the first leaf lanes may use it in; UINT64_MAX until published */
    atomic_int refs;
    int state; /* comm_ref_state once published */
    bool is_inter;
    int size;            /* the local group's, -1 unless resolved */
    int own_rank;        /* the rank's place in it, -1 unknown */
    int n_peers;         /* the group p2p peers are in (the remote
                                  * one of an intercommunicator) */
    comm_peers *held;    /* their world ranks (comm_ref_peers_hold);
                           * NULL when they step evenly: */
    int32_t first, step; /* peer i is first + i * step */
} comm_snap;

comm_snap *comm_snap_new(void);
void comm_snap_unref(comm_snap *s); /* NULL is fine */
/* Sequential step: fill s from ref (resolved or failed; NULL: an unknown
 * handle), as the rank holding ref sees it, and publish it for lanes'
 * records in leaf `from` on (the builder's publish lag after the step's
 * own leaf, build_internal.h). Drops the sequential step's reference. */
void comm_snap_publish(comm_snap *s, const comm_ref *ref, uint64_t from);

/* A rank's handles as its lane sees them. WORLD and SELF are implicit
 * until a creation call rebinds them (comm.c replaces bindings too). */
/* What a lane reads of a published snapshot, copied out of it: the
 * rank's last one lives in its table and travels in its views. */
typedef struct comm_shape {
    int state, size, own_rank, n_peers;
    const int32_t *peers;
    int32_t first, step;
} comm_shape;

typedef struct comm_table {
    htab handles;      /* handle -> comm_snap* (references) */
    bool predef_bound; /* WORLD or SELF rebound: look them up too */
    /* The handle last found published, so that the common case reads
     * neither the table's slots nor the snapshot (a lane visits thousands
     * of ranks a slab, each for a few records): a published snapshot no
     * longer changes, and a published snapshot stays usable in later
     * leaves. last_snap NULL: none. */
    int last_handle;
    const comm_snap *last_snap;
    uint64_t last_from;
    comm_shape last;
} comm_table;

void comm_table_init(comm_table *t);
void comm_table_free(comm_table *t);
/* The rank's creation call bound `handle` (not COMM_HANDLE_NULL) to s:
 * takes s's lane reference. */
void comm_table_bind(comm_table *t, int handle, comm_snap *s);
/* Comm_free (predefined communicators cannot be freed). */
void comm_table_unbind(comm_table *t, int handle);

/* The communicator a record names, for call_state_info() and volume_of(). */
typedef enum comm_view_kind { VIEW_REPLAY, VIEW_WORLD, VIEW_SELF, VIEW_SNAP, VIEW_NONE } comm_view_kind;

typedef struct comm_view {
    comm_view_kind kind;
    uint32_t rank;    /* the caller's world rank */
    uint32_t n_ranks; /* VIEW_WORLD */
    comm_ctx *ctx;    /* VIEW_REPLAY: asked for (rank, comm) */
    int comm;
    /* VIEW_SNAP: the snapshot's fields, copied (comm_table's last
     * handle holds them without reading the snapshot) */
    comm_shape sh;
} comm_view;

/* The sequential step's view of handle comm on rank. */
comm_view comm_view_replay(comm_ctx *ctx, uint32_t rank, int comm);
/* A lane's: false when the record must go to the sequential step (the
 * handle's communicator is not published for leaf yet). */
bool comm_view_lane(comm_table *t, uint32_t rank, uint32_t n_ranks, int comm, uint64_t leaf, comm_view *out);

/* comm_world_rank() of comm.h for the viewed communicator. */
int comm_view_world_rank(const comm_view *v, int local_rank);
/* The local group's size; -1 when unknown or an intercommunicator. */
int comm_view_size(const comm_view *v);
/* The caller's rank in the local group; -1 when unknown. */
int comm_view_own_rank(const comm_view *v);

#endif
