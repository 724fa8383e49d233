/* SPDX-License-Identifier: MIT */
/* build_internal.h - the state slog2-build's pipeline shares between its
 * files: build.c (setup, finish), lane.c (a group of ranks over one time
 * slab, on any thread), seq.c (the sequential step of a slab) and
 * pipeline.c (who runs what when).
 *
 * The trace is cut into slabs, one leaf node of the output's time tree
 * each. For every slab, each lane (a few ranks) decodes its ranks' records
 * that end in the slab, makes their states and events straight into a
 * libslog batch, and lists what needs all ranks in time order: matching
 * operations, and whole records the lane may not handle itself (the first
 * records of a function, other threads' records, calls on user
 * communicators, communicator calls, user functions). The sequential step
 * then merges those lists by exit time, as one k-way merge over all records
 * would have met them, runs matching and the deferred records, adds the
 * lanes' batches and its own to the writer in a fixed order, and advances
 * the writer's watermark. Lanes of a slab run in parallel, and beside the
 * sequential step of an earlier one; the output depends on the trace alone
 * (docs/MATCHING.md, "Threads and order").
 */
#ifndef SLOG2_BUILD_INTERNAL_H
#define SLOG2_BUILD_INTERNAL_H

#include <glib.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "call_plan.h"
#include "clocks.h"
#include "comm.h"
#include "comm_view.h"
#include "dumpi.h"
#include "grow.h" /* slog_grow, from libslog */
#include "match.h"
#include "send_reqs.h"
#include <slog2/slog.h>

#define N_LABELS       DUMPI_N_LABELS
/* The publish lag: leaves between the sequential step that publishes a
 * plan or a snapshot and the first records a lane may use it for. A lane
 * over a leaf waits until every match step up to the lag's leaves before
 * it is done, so the larger it is, the further lanes may run ahead of
 * matching (the other thread waits less), and the more leaves after a
 * function's first call the match step does alone (the functions of the
 * leaf width's sample have plans before the first leaf: seq_begin). A
 * slab in flight keeps its lanes' batches and lists until its write step,
 * and lanes at the lag's limit need lag + 2 slabs (the write step's, the
 * match step's and the lanes' own), so the slots follow it.
 *
 * With few ranks the match step is most of a thread's work and lanes at
 * a lag of 2 waited for it: a lag of 3 shortens such builds. With many
 * ranks, whose slabs are larger, a lag of 3 was slower and took more
 * memory (docs/PERFORMANCE.md). The lag depends on the trace alone, never
 * on the threads: which records lanes take, so the bytes written, must
 * not. */
#define LAG_FEW_RANKS  3
#define LAG_MANY_RANKS 2
#define FEW_RANKS      16
#define SLOTS_MAX      SLOTS_FOR(LAG_FEW_RANKS)

/* An entry of a rank's list for the sequential step: a matching operation,
 * or (op.kind OP_DEFERRED) a whole record. One cache line (call_plan.h). */
typedef struct seq_item {
    int64_t key; /* the record's exit time on the build's axis */
    union {
        match_op op;
        struct {
            uint8_t kind;     /* OP_DEFERRED (match_op's first member) */
            dumpi_call *call; /* the record (owned) */
            comm_snap *snap;  /* a creation call's new handle's snapshot
                                * (the sequential step's reference), or NULL */
        } def;
    };
} seq_item;
_Static_assert(sizeof(seq_item) == 64, "a list entry is one cache line");

typedef struct item_list {
    seq_item *v;
    uint32_t n, cap;
} item_list;

/* Slabs in flight for publish lag `lag` (above), and the slot of slab k's
 * lists, batches and outputs. */
#define SLOTS_FOR(lag) ((lag) + 2)
#define SLOT_OF(b, k)  ((int)((uint64_t)(k) % SLOTS_FOR((b)->lag)))

typedef enum rank_state {
    RANK_READING,   /* head holds its next record */
    RANK_DONE,      /* end of its stream */
    RANK_TRUNCATED, /* cut mid-record: what came before is kept (warning) */
    RANK_SKIPPED,   /* unknown label under --lenient (warning) */
    RANK_FAILED     /* any other decoding error: the build fails */
} rank_state;

typedef struct rank_in {
    dumpi_file *f;
    const type_sizes *types; /* f's, shared (builder's type_tables) */
    dumpi_call head;
    uint32_t rank;
    rank_state state;
    dumpi_error *err;            /* when TRUNCATED, SKIPPED or FAILED (rank_error) */
    uint64_t n_calls;            /* MPI calls decoded (its lane's) */
    _Atomic uint64_t pos;        /* progress, for another thread, once a slab: */
    _Atomic uint64_t calls_done; /* bytes read (tail included) and n_calls done */
    uint64_t n_states, n_events; /* made on its lanes */
    bool has_footer;
    uint32_t tail;       /* bytes after the call stream, read at open (at most 2^32 - 1 counted) */
    uint64_t footer_sum; /* the footer check: label_tag() summed over */
    uint64_t label_sum;  /* the footer's counts, and over the records */
    comm_table comms;    /* its handles, as its lane sees them */
    send_reqs sends;     /* its active Isends, as its lane sees them */
    GArray *user_stack;  /* open user functions (sequential step) */
} rank_in;

/* A lane: ranks [first, first + n) share a batch and a list per slab
 * (a rank's entries lie together there: with thousands of ranks a list
 * per rank and slot kept room for entries most ranks had only in some
 * slabs). At most
 * MAX_LANES: enough tasks per slab to keep many threads busy, few enough that
 * a task is thousands of records even with thousands of ranks. */
#define MAX_LANES 64
typedef struct lane {
    uint32_t first, n;
    slog_batch *batch[SLOTS_MAX];   /* per slab slot (SLOTS_FOR(lag) of them made) */
    item_list items[SLOTS_MAX];     /* per slot: its ranks' entries, by rank */
    uint32_t *listed[SLOTS_MAX];    /* per slot: its ranks with entries,
                                   * ascending (room for n) */
    uint32_t *listed_at[SLOTS_MAX]; /* and where each one's entries start */
    uint32_t n_listed[SLOTS_MAX];
    int64_t done_slab; /* the last slab it finished, -1 before */
    int64_t next_key;  /* its ranks' earliest next exit, INT64_MAX: none */
    int64_t *keys;     /* each of its ranks' next exit (INT64_MAX: none), so
                        * that a slab visits only the ranks it holds records
                        * of (lane_run) */
    uint32_t *due;     /* room for n: the ranks a slab visits */
    /* A list the match step gave back, for the lane's next slab to take
     * (seq.c, release_lists; spare_put) */
    _Atomic(void *) spare;
    size_t items_used; /* entries its recent slabs listed (the match step's) */
} lane;

/* Entries a lane's list keeps room for in its slot between its slabs. */
#define ITEMS_KEEP 1024

/* A list's room (v, cap entries) one step gives back for another
 * thread's next slab to take rather than grow a list on fresh pages: one
 * in reserve, the one held before freed; its room is kept in its first
 * bytes. */
static inline void spare_put(_Atomic(void *) *spare, void *v, uint32_t cap)
{
    memcpy(v, &cap, sizeof cap);
    free(atomic_exchange_explicit(spare, v, memory_order_release));
}

/* The room spare_put left, its cap entries in *cap; NULL when none. */
static inline void *spare_take(_Atomic(void *) *spare, uint32_t *cap)
{
    void *v = atomic_exchange_explicit(spare, NULL, memory_order_acquire);
    if (v) memcpy(cap, v, sizeof *cap);
    return v;
}

typedef struct slab {
    int64_t k; /* sequence number; slot SLOT_OF(b, k) */
    uint64_t leaf;
    int64_t lo, hi;   /* the leaf's interval: records ending there */
    uint64_t claimed; /* lanes taken (bit i: lane i) */
    uint32_t lanes_done;
} slab;

/* A category or timeline the match step numbered, for the write step to
 * give the writer (strings owned). */
typedef struct pending_meta {
    bool is_category;
    uint8_t kind; /* category: slog_kind */
    uint8_t n_fields;
    uint8_t fields[N_FIELD_IDS]; /* field_id */
    uint32_t rgba;
    uint32_t rank, thread; /* timeline */
    char *name;            /* category name / timeline label */
    char *group;           /* category group / timeline host */
} pending_meta;

/* A matched message, as the match step found it: the write step encodes
 * it (times already clamped to the watermark). */
typedef struct arrow_rec {
    uint32_t category, timeline, end_timeline;
    int32_t tag;
    int64_t start, end, bytes;
    int64_t comm;
} arrow_rec;

typedef struct arrow_list {
    arrow_rec *v;
    uint32_t n, cap;
} arrow_list;

/* What a slab's match step leaves for its write step. */
typedef struct slab_out {
    bool live; /* false: an empty slab, nothing to write */
    uint64_t leaf;
    int64_t watermark; /* for slog_writer_advance, INT64_MIN: none */
    slog_batch *batch; /* the deferred records' states and events */
    arrow_list arrows;
    GArray *meta; /* pending_meta, in id order */
} slab_out;

/* A lane's snapshot of a communicator the replay has not resolved yet. */
typedef struct snap_wait {
    comm_snap *snap;
    comm_ref *ref; /* held */
} snap_wait;

typedef struct user_frame {
    uint16_t thread;
    uint64_t fn;
    int64_t start;
} user_frame;

typedef struct builder {
    GPtrArray *type_tables; /* the ranks' distinct type_sizes (owned) */
    const build_options *o;
    build_summary *s;
    FILE *err;
    slog_writer *w;
    int shift;               /* the output's leaf width, log2 ns */
    uint32_t preview_level;  /* the writer's preview levels (slog.h) */
    double footer_records;   /* the footers' records in all, 0: a rank has none */
    double footer_rows;      /* and (rank, function) pairs with calls */
    uint32_t summaries_from; /* the blocks' timelines below it: no node
                              * summary would pay there (build.c) */
    uint32_t overview_level;
    rank_in *ranks;
    uint32_t n_ranks;
    uint32_t lag; /* the publish lag (above) */
    lane *lanes;
    uint32_t n_lanes;
    int64_t origin;
    fn_plan plans[N_LABELS];
    bool sampled[N_LABELS]; /* MPI functions in the leaf width's sample
                             * or in a rank's footer */
    comm_binding bindings[N_LABELS];
    req_use req_uses[N_LABELS];
    uint64_t label_tags[N_LABELS]; /* label_tag() of each, looked up per record */
    /* The match step's (one thread at a time, in slab order). */
    comm_ctx *comms; /* every communicator call, in merge order */
    match_ctx *match;
    slab_out outs[SLOTS_MAX + 1]; /* per slab slot, and the end's ([SLOTS_MAX]) */
    slab_out *cur_out;            /* the slab being matched */
    GArray *pending_snaps;        /* snap_wait: creation calls not resolved yet */
    uint64_t snaps_settled;       /* comm_ctx_settled() when they were last looked at */
    bool lists_unmapped;          /* large freed blocks go back to the system
                                   * (plan_heap): lists are worth a spare */
    void *merge_room;             /* seq_match's per-rank arrays, for n_ranks */
    struct merge_ent *ents;       /* and its entries to sort, kept between slabs: */
    size_t ents_cap, ents_used;   /* room and recent use (ents_kept) */
    GHashTable *timelines;        /* (rank << 16 | thread) -> id + 1, threads > 0 only */
    GHashTable *user_cats;        /* name -> category id + 1 */
    uint32_t n_categories;        /* numbered so far */
    uint32_t n_timelines;
    uint32_t arrow_category;
    uint32_t inferred_category; /* UINT32_MAX until the first inferred message */
    slog_error merr;            /* its error, when a batch refused a drawable */
    int64_t floor;              /* the last watermark it set for the writer */
    uint64_t n_clamped;         /* drawables stretched up to the floor */
    /* The write step's. */
    slog_batch *arrow_batch;
    double last_progress;
    size_t arrows_used; /* arrows its recent slabs encoded */
    /* An arrow list the write step gave back, for the match step's next
     * slab to take (seq.c, encode_arrows; spare_put) */
    _Atomic(void *) arrows_spare;
    /* Anyone: the build stops (a rank failed, the writer failed). */
    atomic_int stop;
    slog_error werr; /* the writer's error, when it failed */
    double t_start;
    /* When the pipeline started: the bar's ETA follows its rate alone, not
     * the set-up's (thousands of files opened before any call is read). */
    double t_pipeline;
    uint64_t read_at_open; /* the bytes of the files open read: ranks' pos then */
    clock_plan clocks;     /* the hosts and their clock offsets */
} builder;

/* The footer check's word for a label: the sum of a rank's records' words
 * equals its footer's (sum of count x word) unless a count differs, save
 * with odds of 2^-64, and a rank then keeps 16 bytes rather than a count
 * per label, its file none of its footer (thousands of ranks). */
static inline uint64_t label_tag(uint32_t label)
{
    uint64_t z = (uint64_t)label + 0x9e3779b97f4a7c15ull; /* splitmix64 */
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* lane.c */
/* Decode rank r's next record into its head; on the end or an error the
 * rank's state says which. Any thread, one rank at a time. */
/* Room for r's error, kept out of line: few ranks ever have one. When
 * even that is out of memory, r's message says so and what is written to
 * the room returned is lost. */
dumpi_error *rank_error(rank_in *r);
void rank_error_free(rank_in *r);
void lane_advance_rank(builder *b, rank_in *r);
/* Lane l's ranks' records that end in slab s: states and events into the
 * lane's batch for s, the rest onto the ranks' lists. */
void lane_run(builder *b, lane *l, const slab *s);

/* Threads the build runs on: -j, within 1 .. BUILD_MAX_THREADS. */
static inline uint32_t build_threads(const builder *b)
{
    int t = b->o->threads;
    return t < 1 ? 1 : t > BUILD_MAX_THREADS ? BUILD_MAX_THREADS : (uint32_t)t;
}

/* seq.c */
/* The communicator replay and the matcher, before the first slab. */
void seq_begin(builder *b);
/* The match step of slab s. A slab where no lane found a record is left
 * not live: its write step writes nothing, not even a watermark. */
void seq_match(builder *b, const slab *s);
/* The write step of slab s, after its match step. */
void seq_write(builder *b, const slab *s);
/* After the last slab: pair what can still be paired and write it. */
void seq_finish(builder *b);
/* Let go of the snapshots of communicators that never resolved. */
void seq_drop_snaps(builder *b);
/* Free what seq_begin() made. */
void seq_end(builder *b);
/* Note a writer error and stop the build (write step). */
void seq_writer_failed(builder *b);

/* pipeline.c */
/* Run every slab on o->threads threads; the first slab is the one of the
 * earliest record. False when the build stopped (b->stop). */
bool pipeline_run(builder *b);

/* build.c */
void build_warn(builder *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
void build_progress(builder *b, int final);
/* The set-up's line on the bar's place while rank i of n opens. */
void build_opening(builder *b, uint32_t i, uint32_t n);

#endif
