/* SPDX-License-Identifier: MIT */
/* otf2_model.h - what slog2-build keeps of an OTF2 archive while it
 * streams it (otf2_read.c reads, otf2_stream.c turns records into
 * drawables, otf2_map.c writes them).
 *
 * Definitions are kept whole (they are small). Events are not kept: each
 * location has a stack of open regions, and messages live from their send
 * until a receive takes them, receives from their posting until their
 * arrow is drawn. Memory follows what is open and in flight, not the
 * length of the trace (docs/OTF2.md).
 *
 * Times are nanoseconds from the archive's global offset, on each
 * location's clock as corrected by the ClockOffset definitions libotf2
 * applies, plus the location's shift_ns when processes' clocks are aligned
 * on collectives (found by a first pass over them, otf2_stream.c). */
#ifndef SLOG2_OTF2_MODEL_H
#define SLOG2_OTF2_MODEL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include <otf2/otf2.h>

#include "otf2_skip.h"

#define O2_NONE          UINT32_MAX
#define O2_UNKNOWN       INT64_MIN /* == SLOG_INFO_UNKNOWN */
/* Record times further than this from the clock's origin (2^50 ns, 13
 * days) are taken as damage (otf2_read.c). */
#define O2_TIME_LIMIT_NS (INT64_C(1) << 50)

/* The skipped record kinds, in otf2_skip.h's order. */
enum {
#define O2_SKIP_ENUM(name, rec, fam, params) O2_SKIP_##name,
    OTF2_SKIPPED_RECORDS(O2_SKIP_ENUM)
#undef O2_SKIP_ENUM
        O2_N_SKIP
};

typedef struct o2_region {
    uint32_t name;     /* string ref */
    uint32_t paradigm; /* OTF2_Paradigm */
    uint32_t role;     /* OTF2_RegionRole */
    uint32_t file;     /* string ref */
    uint32_t line;
    uint32_t category; /* set by otf2_map.c */
    bool defined;
} o2_region;

typedef struct o2_group {
    uint8_t type; /* OTF2_GroupType */
    uint8_t paradigm;
    uint32_t n;
    uint64_t *members; /* COMM_LOCATIONS: location ids; COMM_GROUP: ranks */
} o2_group;

typedef struct o2_comm {
    uint32_t group; /* group ref */
    uint32_t name;
    bool defined;
} o2_comm;

/* An ENTER .. LEAVE pair, with what MPI records inside it said; kept on
 * its location's stack while open. */
typedef struct o2_frame {
    int64_t t0, t1;
    uint64_t idx; /* ENTER index on its location */
    uint32_t region;
    int32_t dest, source; /* world ranks, -1 unknown */
    int32_t root;         /* world rank, -1 */
    int64_t tag;          /* O2_UNKNOWN */
    int64_t bytes, sent, received;
    int64_t comm;       /* comm ref, O2_UNKNOWN */
    int64_t request;    /* O2_UNKNOWN */
    uint32_t completed; /* requests recorded as completed in it */
    /* receives (held) completed by this frame's exit: the first, then any
     * others (most frames complete one at most) */
    struct o2_recv *await1;
    GPtrArray *await_more;
} o2_frame;

struct o2_loc;

/* A sent message, from its record until a receive takes it. */
typedef struct o2_send {
    int64_t t;    /* entry of the enclosing region (else the record): the arrow's start */
    uint64_t seq; /* send index on its location */
    struct o2_loc *l;
    uint32_t comm;
    uint32_t peer; /* rank in comm */
    uint32_t tag;
    uint64_t bytes;
    uint64_t request; /* isends; 0 for blocking sends */
    bool cancelled;
} o2_send;

/* A receive, from its posting until its arrow is drawn or it is listed as
 * unmatched. Held (refs) by its rank's queue of receives to match, its
 * location's queue of completions to infer, its request's entry and the
 * frame whose exit completes it; freed when none holds it. */
typedef struct o2_recv {
    int64_t post_t;    /* entry of the posting region */
    uint64_t post_idx; /* that region's ENTER index, UINT64_MAX outside any */
    uint64_t idx;      /* receive index on its location */
    struct o2_loc *l;
    int64_t done_t; /* the exit of the region that completed it */
    uint32_t comm;  /* valid when exact */
    uint32_t peer;  /* rank in comm, when exact */
    uint32_t tag;
    uint64_t bytes;
    uint64_t request;
    uint32_t refs;
    bool exact;         /* the envelope was recorded (MPI_RECV, MPI_IRECV) */
    bool final;         /* no envelope can come any more */
    bool done;          /* done_t known */
    bool inferred_done; /* completion chosen by inference */
    bool cancelled;
    bool matched; /* the message below is known */
    bool drawn;
    bool in_fifo;     /* in its rank's queue of receives to match */
    uint32_t at_done; /* its place in the mapper's done heap, or O2_NONE */
    /* an exact receive's channel once found (it lives till the end), and
     * its source's world rank: a receive that waits is matched again
     * after every chunk */
    void *chan;
    int32_t src;
    /* the message, once matched */
    int64_t m_start;
    uint32_t m_timeline;
    int32_t m_src;
    uint32_t m_tag, m_comm;
    uint64_t m_bytes;
} o2_recv;

/* A single wait after an MPI_Waitall, kept until the next one says how many
 * there are (docs/OTF2.md, "Messages"). */
typedef struct o2_wait {
    int64_t t1;
    uint64_t idx;
} o2_wait;

/* A queue of pointers: a ring of a power of two, grown by doubling. */
typedef struct o2_ring {
    void **v;
    size_t head, n, cap;
} o2_ring;

static inline void *o2_ring_peek(const o2_ring *q)
{
    return q->n ? q->v[q->head] : NULL;
}

static inline void *o2_ring_at(const o2_ring *q, size_t i)
{
    return q->v[(q->head + i) & (q->cap - 1)];
}

static inline void *o2_ring_pop(o2_ring *q)
{
    if (!q->n) return NULL;
    void *p = q->v[q->head];
    q->head = (q->head + 1) & (q->cap - 1);
    q->n--;
    return p;
}

static inline void o2_ring_push(o2_ring *q, void *p)
{
    if (q->n == q->cap) {
        size_t cap = q->cap ? 2 * q->cap : 16;
        void **v = g_new(void *, cap);
        for (size_t i = 0; i < q->n; i++) v[i] = o2_ring_at(q, i);
        g_free(q->v);
        q->v = v, q->cap = cap, q->head = 0;
    }
    q->v[(q->head + q->n) & (q->cap - 1)] = p;
    q->n++;
}

/* Request id -> pointer (never NULL): open addressing with linear probing
 * in a power of two of slots, at most half full; a slot is free when its
 * value is NULL, so any id, 0 too, is a key. A location's requests in
 * flight come and go by the million: a GHashTable's calls and nodes cost
 * several times the probe. */
typedef struct o2_reqmap {
    uint64_t *keys;
    void **vals;
    uint32_t cap, n;
    uint32_t shift; /* 64 - log2(cap) */
} o2_reqmap;

/* Fibonacci hashing: the top bits of the product, which every bit of the
 * id moves (ids that are addresses differ in their middle bits). */
static inline uint32_t o2_reqmap_home(const o2_reqmap *h, uint64_t k)
{
    return (uint32_t)((k * UINT64_C(0x9E3779B97F4A7C15)) >> h->shift);
}

static inline void *o2_reqmap_get(const o2_reqmap *h, uint64_t k)
{
    if (!h->n) return NULL;
    for (uint32_t i = o2_reqmap_home(h, k);; i = (i + 1) & (h->cap - 1)) {
        if (!h->vals[i]) return NULL;
        if (h->keys[i] == k) return h->vals[i];
    }
}

/* Set k's value to v (v not NULL), replacing any. */
void o2_reqmap_put(o2_reqmap *h, uint64_t k, void *v);
/* Remove k; its value, or NULL when absent. */
void *o2_reqmap_take(o2_reqmap *h, uint64_t k);
void o2_reqmap_free(o2_reqmap *h);

#define O2_VEC(T)      \
    struct {           \
        T *v;          \
        size_t n, cap; \
    }

typedef struct o2_loc {
    uint64_t id;
    uint32_t name;  /* string ref */
    uint32_t type;  /* OTF2_LocationType */
    uint32_t group; /* location group ref */
    uint64_t n_events_declared;
    uint32_t rank;   /* world rank (MPI) or n_world + process index */
    uint32_t thread; /* index among its process's locations */
    uint32_t timeline;
    bool mpi; /* in MPI COMM_WORLD's location list */
    bool defined;
    int64_t shift_ns; /* added to every time (clock alignment) */
    /* reading */
    bool started, finished;
    bool saw_completions; /* MPI_IRECV or MPI_ISEND_COMPLETE records: nothing to infer */
    int64_t first_start;  /* time of the first record that starts a drawable, INT64_MAX */
    O2_VEC(o2_frame) stack;
    uint64_t n_frames, n_sends, n_recvs, n_polls;
    o2_reqmap isend_req; /* request id -> o2_send*, or O2_SENT once matched */
    o2_reqmap irecv_req; /* request id -> o2_recv* (held) */
    o2_ring recvq;       /* o2_recv* (held) whose completion may be inferred */
    bool wa_open;        /* an MPI_Waitall whose share is not decided yet */
    int64_t wa_t1;
    uint64_t wa_idx;
    uint32_t wa_q;           /* receives pending at it */
    O2_VEC(o2_wait) wa_ones; /* single waits after it */
    uint64_t n_read, n_handled, n_unknown;
    uint64_t skipped[O2_N_SKIP];
    uint64_t n_unbalanced;    /* LEAVE without its ENTER */
    uint64_t n_bad_time;      /* records with an implausible time */
    uint64_t n_misnested;     /* LEAVE of a region not the innermost open one */
    uint64_t n_reused;        /* a request id posted again while pending */
    uint64_t n_stray;         /* completions/cancels of unknown requests */
    uint64_t n_clock_offsets; /* ClockOffset definitions read */
    int64_t last_t;           /* on the location's own clock (no shift) */
    char *error;              /* why reading stopped early, or NULL */
} o2_loc;

typedef struct o2_archive {
    char *anchor;
    char *creator;
    uint64_t tps; /* ticks per second */
    uint64_t global_offset;
    bool have_clock;
    GHashTable *strings;   /* ref -> char* */
    GHashTable *regions;   /* ref -> o2_region* */
    GHashTable *groups;    /* ref -> o2_group* (COMM_GROUP preferred) */
    GHashTable *comms;     /* ref -> o2_comm* */
    GHashTable *tree;      /* system tree ref -> uint32_t[3] {name, class, parent} */
    GHashTable *lgroups;   /* location group ref -> uint32_t[3] {name, type, parent} */
    GHashTable *loc_index; /* location id -> index + 1 */
    o2_group *world;       /* MPI COMM_LOCATIONS, or NULL */
    o2_loc *locs;
    size_t n_locs, cap_locs;
    uint64_t n_duplicate_defs; /* a definition given twice (EZTrace) */
    uint64_t n_missing_defs;   /* references to nothing defined */
} o2_archive;

/* otf2_read.c: the definitions of the archive into a; false (err filled,
 * naming the file) when nothing usable can be read. */
bool o2_read_defs(const char *anchor, o2_archive *a, char *err, size_t err_len);
void o2_archive_free(o2_archive *a);

/* The event files of an archive, open with one reader per location.
 * Opening reads the locations' local definitions (libotf2 applies their
 * mapping tables and clock offsets to the events) and counts their
 * ClockOffsets into n_clock_offsets. user[i] is handed to the callbacks of
 * location i. */
typedef struct o2_events o2_events;
o2_events *o2_events_open(o2_archive *a, const OTF2_EvtReaderCallbacks *cb, void *const *user, char *err,
                          size_t err_len);
/* Read up to n records of location i; true while more may come. A read
 * error sets the location's error and ends it. */
bool o2_events_read(o2_events *e, size_t i, uint64_t n);
void o2_events_close(o2_events *e);

const char *o2_string(const o2_archive *a, uint32_t ref); /* "" when unknown */
o2_loc *o2_loc_by_id(const o2_archive *a, uint64_t id);
/* World rank of rank `local` of comm `comm`, or -1 (unknown comm or rank). */
int32_t o2_world_rank(const o2_archive *a, uint32_t comm, uint32_t local);
/* Ticks (after the global offset) to ns. */
int64_t o2_ns(const o2_archive *a, uint64_t ticks);

#endif
