/* SPDX-License-Identifier: MIT */
/* otf2_stream.h - the state slog2-build keeps while it streams an OTF2
 * archive (private to otf2/): categories, the drawables waiting to be
 * written in end order, and the messages and receives in flight.
 * otf2_stream.c turns records into drawables; otf2_map.c reads the
 * locations in turn and writes what no later record can precede. */
#ifndef SLOG2_OTF2_STREAM_H
#define SLOG2_OTF2_STREAM_H

#include "otf2_build.h"
#include "otf2_model.h"

#include <slog2/slog.h>

#define O2_MAX_FIELDS 6

typedef struct o2_cat {
    slog_kind kind;
    char *name;
    const char *group;
    uint32_t rgba;
    uint32_t n_fields;
    uint8_t fields[O2_MAX_FIELDS]; /* field_id */
    uint8_t family;                /* dumpi_family (states) */
    uint32_t file_id;              /* id in the file, O2_NONE until first written */
    uint64_t count;
} o2_cat;

/* A drawable waiting for its turn. Ties of end (max(start, end)) are
 * broken as a sort of the whole trace would: states, then polls, of each
 * timeline in its order, by index on their location; then arrows, by
 * receiving timeline and receive index. */
typedef struct o2_draw {
    int64_t start, end;
    uint32_t kind, category, timeline, end_timeline;
    uint8_t cls, sub;
    uint32_t tl_order;
    uint64_t idx;
    uint32_t n_info;
    int64_t info[O2_MAX_FIELDS];
    o2_cat *cat; /* the category's, set by o2_emit */
} o2_draw;

typedef struct o2_done o2_done;

typedef struct mapper {
    o2_archive *a;
    const otf2_build_options *o;
    FILE *err;
    int status;
    GPtrArray *cats;         /* o2_cat* */
    GHashTable *cat_by_name; /* "kind:name" -> id + 1 */
    uint32_t msg_cat, inferred_cat;
    struct o2_out *out; /* where drawables go (otf2_out.h) */
    size_t max_wait;    /* the most drawables that waited to be written */
    /* messages in flight */
    GHashTable *chans;  /* chan_key -> chan* */
    GPtrArray **by_dst; /* per rank: the channels to it */
    o2_ring *fifo;      /* per rank: its receives to match, in posting order */
    /* receives of the fifos done but not cancelled, in order of done_t: the
     * watermark waits for the earliest */
    struct o2_done {
        int64_t t; /* r->done_t */
        o2_recv *r;
    } * done_heap;
    /* caches by id (otf2_stream.c) */
    const o2_group **comm_groups; /* a communicator's COMM_GROUP, or NULL */
    uint32_t n_comm_groups;
    uint32_t *region_cats; /* a region's category, or O2_NONE */
    uint32_t n_region_cats;
    /* sends and receives let go, for reuse */
    O2_VEC(o2_send *) free_sends;
    O2_VEC(o2_recv *) free_recvs;
    size_t n_done_heap, cap_done_heap;
    uint32_t n_rank_slots;
    bool all_read;
    /* the location being read, and the send watermark of all the others */
    const o2_loc *reading;
    int64_t others_send_w;
    /* counts for the summary */
    uint64_t n_states, n_arrows, n_inferred, n_events, n_cancelled;
    uint64_t n_inferred_done; /* receive completions inferred */
    uint64_t n_open_closed;   /* frames never left */
    GHashTable *unmatched;    /* description -> count */
    uint32_t n_ranks, n_timelines, n_processes;
    bool aligned;
    int64_t max_shift, max_error;
    uint32_t n_conflicts;
    uint32_t n_warnings;
} mapper;

uint32_t o2_category(mapper *m, slog_kind kind, const char *name, const char *group, uint32_t rgba,
                     const uint8_t *fields, uint32_t n_fields, uint8_t family);
/* Queue a drawable for the writer (its cat is set here). */
void o2_emit(mapper *m, const o2_draw *d);
void o2_unmatched(mapper *m, const char *kind, int32_t src, int32_t dst, int64_t tag, int64_t comm);

/* The event callbacks of the pass that makes drawables; user data: the
 * location's stream context (o2_stream_ctx). */
typedef struct o2_stream_ctx {
    mapper *m;
    o2_loc *l;
} o2_stream_ctx;
OTF2_EvtReaderCallbacks *o2_stream_callbacks(void);
void o2_stream_init(mapper *m);
/* Location l has no more records: close what it left open. */
void o2_stream_end_location(mapper *m, o2_loc *l);
/* Match what can be matched; with m->all_read, everything, listing the rest. */
void o2_stream_match(mapper *m);
/* A chunk of l is read next (NULL: none): no other location moves till
 * then. */
void o2_stream_reading(mapper *m, const o2_loc *l);
/* The earliest end of a drawable that can still be made (INT64_MAX: none). */
int64_t o2_stream_watermark(mapper *m);
void o2_stream_free(mapper *m);

/* The clock pass: the first synchronising collectives of each location
 * (otf2_map.c aligns clocks with them). */
#define O2_SYNC_MAX 4096
typedef struct o2_sync_ctx {
    const o2_archive *a;
    o2_loc *l;
    uint32_t n_world;
    O2_VEC(struct {
        uint32_t region;
        int64_t t0;
        int64_t comm;
    })
    stack;
    int64_t *enter, *leave;
    size_t n;
} o2_sync_ctx;
OTF2_EvtReaderCallbacks *o2_sync_callbacks(void);

#endif
