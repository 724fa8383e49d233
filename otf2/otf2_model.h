/* otf2_model.h - what otf2_read.c keeps of an archive, for otf2_map.c.
 *
 * Definitions are kept whole (they are small). Events are kept per
 * location as the records that become drawables: a frame per ENTER/LEAVE
 * pair, a send per MPI_SEND/MPI_ISEND, a receive per MPI_RECV, MPI_IRECV or
 * MPI_IRECV_REQUEST, an event per MPI_REQUEST_TEST. Inferring EZTrace's
 * missing receive completions and pairing messages need every location's
 * records (docs/OTF2.md), so the whole archive is held: memory grows with
 * the number of regions entered and messages, about 100 bytes each.
 *
 * Times are nanoseconds from the archive's global offset, on each
 * location's clock as corrected by the ClockOffset definitions libotf2
 * applies; otf2_map.c may shift a process's clock (collectives). */
#ifndef SLOG2_OTF2_MODEL_H
#define SLOG2_OTF2_MODEL_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "otf2_skip.h"

#define O2_NONE UINT32_MAX
#define O2_UNKNOWN INT64_MIN /* == SLOG_INFO_UNKNOWN */
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
    uint32_t name;       /* string ref */
    uint32_t paradigm;   /* OTF2_Paradigm */
    uint32_t role;       /* OTF2_RegionRole */
    uint32_t file;       /* string ref */
    uint32_t line;
    uint32_t category;   /* set by otf2_map.c */
    bool defined;
} o2_region;

typedef struct o2_group {
    uint8_t type;        /* OTF2_GroupType */
    uint8_t paradigm;
    uint32_t n;
    uint64_t *members;   /* COMM_LOCATIONS: location ids; COMM_GROUP: ranks */
} o2_group;

typedef struct o2_comm {
    uint32_t group;      /* group ref */
    uint32_t name;
    bool defined;
} o2_comm;

/* An ENTER .. LEAVE pair, with what MPI records inside it said. */
typedef struct o2_frame {
    int64_t t0, t1;
    uint32_t region;
    uint32_t depth;
    int32_t dest, source;  /* world ranks, -1 unknown */
    int32_t root;          /* world rank, -1 */
    int64_t tag;           /* O2_UNKNOWN */
    int64_t bytes, sent, received;
    int64_t comm;          /* comm ref, O2_UNKNOWN */
    int64_t request;       /* O2_UNKNOWN */
    uint32_t completed;    /* requests recorded as completed in it */
    bool open;             /* no LEAVE seen */
} o2_frame;

typedef struct o2_send {
    int64_t t;             /* entry of the enclosing region (else the record) */
    uint32_t frame;        /* O2_NONE outside any region */
    uint32_t comm;
    uint32_t peer;         /* rank in comm */
    uint32_t tag;
    uint64_t bytes;
    uint64_t request;      /* isends; 0 for blocking sends */
    bool cancelled;
    bool completed;        /* MPI_ISEND_COMPLETE seen, or inferred */
} o2_send;

typedef struct o2_recv {
    int64_t post_t;        /* entry of the posting region */
    uint32_t post_frame;
    uint32_t done_frame;   /* the region that completed it, O2_NONE unknown */
    int64_t done_t;        /* its exit */
    uint32_t comm;         /* valid when exact */
    uint32_t peer;         /* rank in comm, when exact */
    uint32_t tag;
    uint64_t bytes;
    uint64_t request;
    bool exact;            /* the envelope was recorded (MPI_RECV, MPI_IRECV) */
    bool inferred_done;    /* done_frame chosen by otf2_map.c */
    bool cancelled;
} o2_recv;

typedef struct o2_poll {
    int64_t t;
    uint32_t frame;        /* the region it happened in, O2_NONE */
} o2_poll;

#define O2_VEC(T) struct { T *v; size_t n, cap; }

typedef struct o2_loc {
    uint64_t id;
    uint32_t name;         /* string ref */
    uint32_t type;         /* OTF2_LocationType */
    uint32_t group;        /* location group ref */
    uint64_t n_events_declared;
    uint32_t rank;         /* world rank (MPI) or n_world + process index */
    uint32_t thread;       /* index among its process's locations */
    uint32_t timeline;
    bool mpi;              /* in MPI COMM_WORLD's location list */
    bool defined;
    int64_t shift_ns;      /* added to every time (clock alignment) */
    /* events */
    O2_VEC(o2_frame) frames;
    O2_VEC(uint32_t) stack;
    O2_VEC(o2_send) sends;
    O2_VEC(o2_recv) recvs;
    O2_VEC(o2_poll) polls;
    GHashTable *isend_req, *irecv_req; /* request id -> index + 1 */
    uint64_t n_read, n_handled, n_unknown;
    uint64_t skipped[O2_N_SKIP];
    uint64_t n_unbalanced;     /* LEAVE without its ENTER */
    uint64_t n_bad_time;       /* records with an implausible time */
    uint64_t n_misnested;      /* LEAVE of a region not the innermost open one */
    uint64_t n_reused;         /* a request id posted again while pending */
    uint64_t n_stray;          /* completions/cancels of unknown requests */
    uint64_t n_clock_offsets;  /* ClockOffset definitions read */
    int64_t last_t;
    char *error;               /* why reading stopped early, or NULL */
} o2_loc;

typedef struct o2_archive {
    char *anchor;
    char *creator;
    uint64_t tps;              /* ticks per second */
    uint64_t global_offset;
    bool have_clock;
    GHashTable *strings;       /* ref -> char* */
    GHashTable *regions;       /* ref -> o2_region* */
    GHashTable *groups;        /* ref -> o2_group* (COMM_GROUP preferred) */
    GHashTable *comms;         /* ref -> o2_comm* */
    GHashTable *tree;          /* system tree ref -> uint32_t[3] {name, class, parent} */
    GHashTable *lgroups;       /* location group ref -> uint32_t[3] {name, type, parent} */
    GHashTable *loc_index;     /* location id -> index + 1 */
    o2_group *world;           /* MPI COMM_LOCATIONS, or NULL */
    o2_loc *locs;
    size_t n_locs, cap_locs;
    uint64_t n_duplicate_defs; /* a definition given twice (EZTrace) */
    uint64_t n_missing_defs;   /* references to nothing defined */
} o2_archive;

/* otf2_read.c: the whole archive into a; false (err filled, naming the
 * file) when nothing usable could be read. Locations whose events stop
 * early keep what was read and carry loc->error. */
bool o2_read(const char *anchor, o2_archive *a, char *err, size_t err_len);
void o2_archive_free(o2_archive *a);

const char *o2_string(const o2_archive *a, uint32_t ref); /* "" when unknown */
o2_loc *o2_loc_by_id(const o2_archive *a, uint64_t id);
/* World rank of rank `local` of comm `comm`, or -1 (unknown comm or rank). */
int32_t o2_world_rank(const o2_archive *a, uint32_t comm, uint32_t local);
/* Ticks (after the global offset) to ns. */
int64_t o2_ns(const o2_archive *a, uint64_t ticks);

#endif
