/* SPDX-License-Identifier: MIT */
/* slog.h - public API of libslog, the .slog2 timeline file format.
 *
 * libslog is plain C11 with no dependencies. A .slog2 file holds drawables
 * (states, arrows, events) in a binary time tree with per-node preview bins,
 * so that a viewer can show any time window reading only the nodes that
 * intersect it. The byte layout is documented in docs/FORMAT.md and in
 * libslog/src/format.h.
 *
 * Timelines are cut into blocks of consecutive ids, each block with a time
 * tree of its own, so that a query for some timelines reads only their
 * blocks; an overview tree holds previews of groups of timelines, so that
 * a picture of every timeline folded into screen rows reads a bounded
 * number of bytes however many timelines there are (slog_reader_grid).
 *
 * Times are signed 64-bit nanoseconds relative to the trace start
 * (slog_file_info.time_origin_ns gives the absolute time of 0). All times
 * written must be >= 0.
 *
 * Errors: every function returning slog_status returns SLOG_OK (0) or a
 * negative code; functions that take a slog_error* fill it with the code, the
 * byte offset concerned (or SLOG_NO_OFFSET) and a message naming the file.
 */
#ifndef SLOG_H
#define SLOG_H

#include <stddef.h>
#include <stdint.h>

/* SLOG_API marks the functions libslog exports: the shared library is built
 * with hidden visibility, so whatever lacks it stays private to libslog. */
#ifndef SLOG_API
#if defined(__GNUC__) || defined(__clang__)
#define SLOG_API __attribute__((visibility("default")))
#else
#define SLOG_API
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define SLOG_FORMAT_MAJOR 5
#define SLOG_FORMAT_MINOR 1

typedef enum slog_status {
    SLOG_OK = 0,
    SLOG_ERR_IO = -30001,        /* open/read/write/rename failed (errno in message) */
    SLOG_ERR_NOMEM = -30002,     /* allocation failed */
    SLOG_ERR_NOT_SLOG = -30003,  /* wrong magic: not a .slog2 file */
    SLOG_ERR_VERSION = -30004,   /* a .slog2 file of an unsupported major version */
    SLOG_ERR_TRUNCATED = -30005, /* file shorter than its own structures say */
    SLOG_ERR_CORRUPT = -30006,   /* a structure is inconsistent or out of bounds */
    SLOG_ERR_CHECKSUM = -30007,  /* a CRC32C does not match */
    SLOG_ERR_ARG = -30008,       /* bad argument from the caller */
    SLOG_ERR_ORDER = -30009,     /* drawable added out of end-time order */
    SLOG_ERR_LIMIT = -30010      /* a count exceeds a format limit */
} slog_status;

/* Callbacks return one of these explicitly. */
typedef enum slog_cb_result { SLOG_CONTINUE = 0, SLOG_STOP = 1 } slog_cb_result;

#define SLOG_NO_OFFSET UINT64_MAX

typedef struct slog_error {
    slog_status status;
    uint64_t offset;   /* byte offset in the file, or SLOG_NO_OFFSET */
    char message[512]; /* "FILE: offset N: what went wrong" */
} slog_error;

/* Static string for a status code; never NULL. */
SLOG_API
const char *slog_strerror(slog_status status);

typedef enum slog_kind {
    SLOG_KIND_STATE = 0, /* an interval on one timeline */
    SLOG_KIND_ARROW = 1, /* from (timeline,start) to (end_timeline,end) */
    SLOG_KIND_EVENT = 2  /* an instant: start == end */
} slog_kind;

/* How a viewer should format an info field value. */
typedef enum slog_field_type {
    SLOG_FIELD_INT = 0,      /* plain integer */
    SLOG_FIELD_BYTES = 1,    /* a size in bytes */
    SLOG_FIELD_TIMELINE = 2, /* a rank / timeline number */
    SLOG_FIELD_HANDLE = 3,   /* an opaque id (communicator, request, ...) */
    SLOG_FIELD_DURATION = 4  /* nanoseconds */
} slog_field_type;

/* Info value meaning "not known / not applicable" (e.g. bytes of a derived
 * datatype). It costs one bit on disk. */
#define SLOG_INFO_UNKNOWN INT64_MIN
#define SLOG_MAX_FIELDS   16

typedef struct slog_category {
    slog_kind kind;
    const char *name;  /* legend label, e.g. "MPI_Send" */
    const char *group; /* family for palettes/grouping, e.g. "point-to-point"; may be "" */
    uint32_t rgba;     /* 0xRRGGBBAA */
    uint32_t n_fields; /* <= SLOG_MAX_FIELDS */
    const char *const *field_names;
    const uint8_t *field_types; /* slog_field_type each */
} slog_category;

typedef struct slog_timeline {
    uint32_t rank;
    uint32_t thread;
    const char *label; /* e.g. "rank 3" or "rank 3 / thread 1" */
    const char *group; /* host name when known, else "" */
} slog_timeline;

typedef struct slog_drawable {
    slog_kind kind;
    uint32_t category;
    uint32_t timeline;
    uint32_t end_timeline; /* arrows: receiver timeline; otherwise == timeline */
    int64_t start;         /* ns from trace start; arrows: send time */
    int64_t end;           /* ns; arrows: receive time (may be < start with clock skew) */
    uint32_t n_info;       /* == category's n_fields; from a query 0 where
                              SLOG_QUERY_NARROW_NO_INFO left the values out */
    const int64_t *info;   /* values (NULL where the flag left them out);
                              SLOG_INFO_UNKNOWN = absent */
} slog_drawable;

/* ------------------------------------------------------------------ writer */

typedef struct slog_writer slog_writer;

/* Bins per node preview when a writer is not given a number. */
#define SLOG_DEFAULT_PREVIEW_BINS 64

typedef struct slog_writer_options {
    uint32_t preview_bins;         /* bins per node preview: even, 2..4096; 0 = SLOG_DEFAULT_PREVIEW_BINS */
    uint32_t leaf_drawables;       /* target drawables per leaf; 0 = default: 8192,
                                 and at least 4 per (timeline, category) pair
                                 seen in the first drawables (docs/FORMAT.md) */
    int32_t leaf_shift;            /* log2 of the leaf width in ns, 0..62; -1 = choose from data */
    int64_t time_origin_ns;        /* absolute time of t=0 (informational) */
    uint64_t preview_min_subtree;  /* nodes whose subtree holds fewer drawables
                                     carry no preview (readers descend instead);
                                     0 = default */
    uint32_t expected_timelines;   /* how many timelines the trace will have, a
                                     hint for the two below; 0 = unknown */
    uint32_t block_timelines;      /* timelines per block (each block has a time
                                     tree of its own): a power of two up to
                                     65,536; 0 = slog_block_timelines_for(
                                     expected_timelines) */
    uint32_t group_timelines;      /* timelines per row of the overview tree: a
                                     power of two up to 65,536; 1 = no
                                     overview; 0 = slog_group_timelines_for(
                                     expected_timelines) */
    uint32_t preview_level;        /* blocks' nodes below this level carry no
                                     preview (their drawables are previewed
                                     by their ancestor there): saves the
                                     memory of previews that would not pay;
                                     0 = every level, or chosen from the
                                     first drawables when the writer
                                     chooses the leaf width;
                                     SLOG_PREVIEW_NONE: no block node has
                                     one (the overview's still do) */
    uint32_t overview_level;       /* the same for the overview tree (which
                                     SLOG_PREVIEW_NONE does not take) */
    uint32_t overview_fine_levels; /* on this many levels below
                                      overview_level the overview's nodes
                                      are written only where their preview
                                      (and own records) cost at most half a
                                      byte a drawable of their subtree (busy
                                      stretches): 0 = default (2),
                                      SLOG_OVERVIEW_FINE_NONE = none */
    uint32_t no_summaries_below;   /* a block whose timelines all lie below
                                     this id has no summary, and the writer
                                     makes none there (its work on every
                                     node), for blocks where none would pay
                                     but the root's (slog_summaries_may_pay
                                     says where none below the root pays
                                     on its states); 0 = none such,
                                     UINT32_MAX = every block */
} slog_writer_options;

/* slog_writer_options.overview_fine_levels: every overview node is on
 * overview_level or above. */
#define SLOG_OVERVIEW_FINE_NONE UINT32_MAX

/* slog_writer_options.preview_level: the blocks' trees carry no preview
 * and the writer keeps no preview bins for them. */
#define SLOG_PREVIEW_NONE UINT32_MAX

/* Bytes the blocks' open preview bins may take, a float a bin of
 * SLOG_DEFAULT_PREVIEW_BINS for each (timeline, category) row on each
 * level from a block's base to its root (slog_preview_levels_for). */
#define SLOG_PREVIEW_OPEN_MAX (64.0 * 1024 * 1024)

/* The preview levels (above) for leaves of leaf_drawables drawables (over
 * all blocks) and n_rows (timeline, category) pairs on n_timelines
 * timelines: the lowest levels whose nodes can afford previews of those
 * rows (docs/FORMAT.md, "Previews"). n_drawables, the whole trace's
 * drawables when known (else 0), bounds what a block's node can hold: when
 * not even a block's root can afford a preview, block_level is
 * SLOG_PREVIEW_NONE. Neither level lies above max_level (UINT32_MAX: no
 * such limit), but for this: n_drawables also bounds the writer's memory,
 * and the block level then rises until the bins open from it up to a
 * block's root fit in SLOG_PREVIEW_OPEN_MAX, and is SLOG_PREVIEW_NONE
 * where even the root's level alone does not. */
SLOG_API
void slog_preview_levels_for(double leaf_drawables, double n_drawables, double n_rows, uint32_t n_timelines,
                             uint32_t max_level, uint32_t *block_level, uint32_t *overview_level);

/* Whether a summary may pay (docs/FORMAT.md, "Summary block") at the
 * rate of the nodes below a block's root in a block's tree of at most
 * n_drawables drawables, at least n_rows (timeline, state category) pairs
 * and at most max_row states in one of them, with the default
 * preview_min_subtree. 0 when the root cannot pay for the smallest
 * summary of those rows at that rate and no row holds enough states to
 * pay for its own: then no node pays on its states, but for the root at
 * its own rate. A judgement, not a proof, for events and arrows: a
 * summary has no row for events, and many arrows crowded into one node
 * could pay for their few message rows. A caller that knows this of
 * blocks may set no_summaries_below past them, giving up their roots'
 * summaries for the work of making every node's. */
SLOG_API
int slog_summaries_may_pay(double n_drawables, double n_rows, double max_row);

/* The block and overview group sizes the writer uses for a trace of n
 * timelines when the options leave them 0 (docs/FORMAT.md, "Blocks"). */
SLOG_API
uint32_t slog_block_timelines_for(uint32_t n_timelines);
SLOG_API
uint32_t slog_group_timelines_for(uint32_t n_timelines);

/* Initialise options to defaults. */
SLOG_API
void slog_writer_options_init(slog_writer_options *opt);

/* Create PATH (written as PATH.tmp.XXXXXX and renamed on finish). opt may be
 * NULL; an option outside its range (slog_writer_options) is SLOG_ERR_ARG,
 * a file that cannot be created SLOG_ERR_IO. On error *out is NULL and err
 * (may be NULL) is filled. */
SLOG_API
slog_status slog_writer_open(slog_writer **out, const char *path, const slog_writer_options *opt, slog_error *err);

/* Register a category / timeline; ids are assigned 0,1,2,... in call order.
 * A category whose kind is not a slog_kind, with more than SLOG_MAX_FIELDS
 * fields or a field type that is not a slog_field_type is SLOG_ERR_ARG and
 * takes no id. Strings are copied. May be called at any time before
 * finish, but a drawable may only name ids that already exist. */
SLOG_API
slog_status slog_writer_add_category(slog_writer *w, const slog_category *cat, uint32_t *id);
SLOG_API
slog_status slog_writer_add_timeline(slog_writer *w, const slog_timeline *tl, uint32_t *id);
SLOG_API
slog_status slog_writer_add_annotation(slog_writer *w, const char *key, const char *value);

/* Add one drawable. Times must be in [0, 2^62) ns (else SLOG_ERR_ARG); a
 * state needs end >= start, an event end == start, and the category's kind
 * must be the drawable's; end_timeline is ignored except for arrows.
 * Drawables must come in non-decreasing order of
 * max(start, end) ("end order"), else SLOG_ERR_ORDER. A rejected drawable
 * (ARG, ORDER) leaves the writer usable; any other error breaks it. Memory stays bounded:
 * finished tree nodes are written out as soon as no later drawable can land
 * in them. */
SLOG_API
slog_status slog_writer_add(slog_writer *w, const slog_drawable *d);

/* ----------------------------------------------------------------- batches
 *
 * For producers that make drawables on several threads (slog2-build decodes
 * ranks in parallel). A batch collects drawables on any one thread at a
 * time, in any order; the writer's thread then hands whole batches to the
 * writer, in an order of its choosing, and says with slog_writer_advance()
 * how far in time nothing more will come. A node's records are then in the
 * order their batches were added (and within a batch, the order of adds),
 * not in end order: docs/FORMAT.md, "Node block".
 *
 * A batch is aimed at one leaf node (slog_batch_begin): drawables inside
 * that leaf are encoded and their preview accumulated at once, on the
 * batch's thread; any other drawable (one crossing a leaf boundary, or in
 * another leaf) is kept and placed by slog_writer_add_batch. Batches need a
 * fixed leaf width (slog_writer_options.leaf_shift >= 0; see
 * slog_leaf_shift_for). The output depends only on the sequence of calls
 * into the writer, not on which threads filled the batches. */
typedef struct slog_batch slog_batch;

/* A batch for w's file, made on the writer's thread. SLOG_ERR_ARG when w
 * chooses its leaf width from the data (leaf_shift -1). */
SLOG_API
slog_status slog_batch_new(slog_writer *w, slog_batch **out);
SLOG_API
void slog_batch_free(slog_batch *b); /* NULL is fine */
/* Empty b and aim it at leaf node `leaf`, which covers
 * [leaf << leaf_shift, (leaf + 1) << leaf_shift). */
SLOG_API
void slog_batch_begin(slog_batch *b, uint64_t leaf);
/* Add a copy of d. The checks of slog_writer_add that need no writer are
 * made here (SLOG_ERR_ARG, the batch unchanged): kind, times, info count
 * and, within the batch, one kind and one info count per category. Whether
 * the category and timelines exist is checked by slog_writer_add_batch.
 * SLOG_ERR_NOMEM leaves the batch failed: slog_writer_add_batch refuses it. */
SLOG_API
slog_status slog_batch_add(slog_batch *b, const slog_drawable *d);
/* Drawables in b. */
SLOG_API
uint64_t slog_batch_count(const slog_batch *b);
/* The smallest max(start, end) in b (INT64_MAX when empty). */
SLOG_API
int64_t slog_batch_min_key(const slog_batch *b);

/* Writer's thread: add b's drawables to w and empty b. Every drawable must
 * end at or after the writer's floor (the largest key added with
 * slog_writer_add and watermark given to slog_writer_advance), else
 * SLOG_ERR_ORDER; a category or timeline w does not have, or a category
 * used with another kind or info count, SLOG_ERR_ARG. On those errors
 * nothing of b is added (b keeps its drawables) and w stays usable. */
SLOG_API
slog_status slog_writer_add_batch(slog_writer *w, slog_batch *b);
/* Promise that every drawable added from now on ends at or after watermark:
 * the nodes that cannot receive any are written out. A watermark below the
 * floor changes nothing. */
SLOG_API
slog_status slog_writer_advance(slog_writer *w, int64_t watermark);

/* The leaf width rule the writer applies when it chooses from the data
 * (docs/FORMAT.md, "The time tree"): log2 of a width that holds about
 * leaf_drawables (0: the default, 8192) of n drawables spread over span_ns,
 * and, with the default, at least 4 per (timeline, category) pair when
 * n_rows such pairs were seen among them. For producers that fix
 * leaf_shift themselves (batches) from a sample of their data. */
SLOG_API
int32_t slog_leaf_shift_for(double n, double span_ns, double n_rows, uint32_t leaf_drawables);
/* The leaf width rule for a whole trace with the default options: n
 * drawables over span_ns, n_rows (timeline, category) pairs, on n_timelines
 * timelines. Leaves are shared by every block's tree, and sized for one
 * block's share of the drawables and rows (docs/FORMAT.md, "The time
 * trees"). What slog2-build gives slog_writer_options.leaf_shift. */
SLOG_API
int32_t slog_leaf_shift_for_trace(double n, double span_ns, double n_rows, uint32_t n_timelines);

/* Write the remaining nodes, sections, directory and postamble, fsync-free
 * close, rename into place, free w. On failure the temporary file is removed
 * and no file exists under PATH. Always frees w. */
SLOG_API
slog_status slog_writer_finish(slog_writer *w, slog_error *err);
/* The same, and on success info says what was written, as a reader of the
 * file would (slog_reader_info): counts, span, tree, file size. For
 * producers that report it without opening the file again. */
struct slog_file_info;
SLOG_API
slog_status slog_writer_finish_info(slog_writer *w, struct slog_file_info *info, slog_error *err);

/* Discard everything, remove the temporary file, free w. NULL is fine. */
SLOG_API
void slog_writer_abort(slog_writer *w);

/* The last error recorded by w (status SLOG_OK if none). */
SLOG_API
const slog_error *slog_writer_error(const slog_writer *w);

/* Why a finished file cannot be renamed over path, or NULL when it can
 * (path does not exist, or is a regular file, or a symbolic link, which is
 * replaced itself): "a directory" or "not a regular file" (a device, a
 * pipe). slog_writer_open refuses such a path with it; other tools that
 * write a temporary file and rename it into place use the same rule. */
SLOG_API
const char *slog_rename_target_problem(const char *path);

/* The temporary file w writes (PATH.tmp.XXXXXX): the same string from open
 * until finish or abort, which rename or remove it. For a caller that
 * must remove it itself, e.g. from a signal handler. */
SLOG_API
const char *slog_writer_temp_path(const slog_writer *w);

/* ------------------------------------------------------------------ reader */

typedef struct slog_reader slog_reader;

typedef struct slog_file_info {
    uint16_t version_major, version_minor;
    uint32_t flags;
    uint32_t children_per_node; /* 2 */
    uint32_t preview_bins;
    int32_t leaf_shift; /* leaf width = 2^leaf_shift ns */
    uint32_t depth;     /* levels: root level = depth-1 */
    int64_t time_origin_ns;
    int64_t t_min, t_max; /* span of all drawables (ns) */
    uint64_t n_drawables, n_states, n_arrows, n_events;
    uint64_t n_nodes;
    uint32_t n_categories, n_timelines, n_annotations;
    uint64_t file_size;
    uint32_t block_timelines; /* timelines per block */
    uint32_t n_blocks;        /* ceil(n_timelines / block_timelines) */
    uint32_t group_timelines; /* timelines per overview row; 1: no overview */
    uint32_t overview_depth;  /* levels of the overview tree; 0: none */
    uint64_t n_mirrors;       /* arrow records stored twice (FORMAT.md) */
} slog_file_info;

typedef struct slog_category_stats {
    uint64_t count;   /* drawables of this category */
    int64_t total_ns; /* sum of durations (states) */
} slog_category_stats;

/* slog_node_info.tree of the overview tree's nodes. */
#define SLOG_TREE_OVERVIEW UINT32_MAX

typedef struct slog_node_info {
    uint32_t tree;        /* block number, or SLOG_TREE_OVERVIEW */
    uint32_t level;       /* 0 = leaf level */
    uint64_t index;       /* node covers [index<<s, (index+1)<<s), s = leaf_shift+level */
    int64_t lo, hi;       /* that interval */
    uint64_t offset;      /* byte offset of the node block (the overview's: its own
                             records' block, format 3.x; 0 without one) */
    uint32_t size;        /* bytes */
    uint32_t n_drawables; /* drawables stored in this node itself */
    uint64_t n_subtree;   /* drawables in this node and its descendants */
    uint32_t crc32c;      /* of the node block */
    uint32_t has_preview; /* 1 if the block holds preview bins */
    uint32_t left_out;    /* the overview's (format 4.x): children that hold
                             drawables but are not in the overview, whose part
                             readers take from the blocks (bit 0: child 2k,
                             bit 1: 2k+1) */
} slog_node_info;

/* Open and validate header, postamble, sections and directory. Node blocks are
 * read and checksummed lazily by queries. The reader is safe to query from
 * several threads at once (pread, no shared cursor). */
SLOG_API
slog_status slog_reader_open(slog_reader **out, const char *path, slog_error *err);
SLOG_API
void slog_reader_close(slog_reader *r);

SLOG_API
const char *slog_reader_path(const slog_reader *r);
SLOG_API
const slog_file_info *slog_reader_info(const slog_reader *r);
/* Returned pointers live as long as r; NULL when id is not below
 * n_categories (n_timelines). */
SLOG_API
const slog_category *slog_reader_category(const slog_reader *r, uint32_t id);
SLOG_API
const slog_category_stats *slog_reader_category_stats(const slog_reader *r, uint32_t id);
SLOG_API
const slog_timeline *slog_reader_timeline(const slog_reader *r, uint32_t id);
SLOG_API
slog_status slog_reader_annotation(const slog_reader *r, uint32_t i, const char **key, const char **value);
/* Look up an annotation by key; NULL if absent. */
SLOG_API
const char *slog_reader_annotation_get(const slog_reader *r, const char *key);
/* Directory entry i (0 <= i < n_nodes), ordered by tree (blocks, then the
 * overview), then level descending, then index. */
SLOG_API
slog_status slog_reader_node(const slog_reader *r, uint64_t i, slog_node_info *out);

/* A preview: for one tree node that is too fine to draw, per (timeline,
 * category) row the value of each of n_bins equal bins over [lo, hi):
 *   state categories: the fraction of the bin covered (0..1, quantised to
 *                     1/255; nested states may sum past 1 across rows)
 *   arrow/event categories: the number of drawables starting in the bin
 *                     (arrows counted on their sender timeline)
 * Rows with all-zero values are not present. n_bins is the file's
 * preview_bins (slog_file_info). */
typedef struct slog_preview_row {
    uint32_t timeline;
    uint32_t category;
    const float *values; /* n_bins values */
} slog_preview_row;

typedef struct slog_preview {
    int64_t lo, hi;
    uint32_t level;
    uint32_t n_bins;
    uint32_t n_rows;
    const slog_preview_row *rows;
    uint32_t tree; /* the block whose node it is (its rows are that
                             block's timelines) */
} slog_preview;

typedef struct slog_query {
    int64_t t0, t1;           /* window, inclusive; drawables with start<=t1 && end>=t0 */
    const uint8_t *timelines; /* NULL = all, else n_timelines flags (non-zero = wanted) */
    int64_t pixel_ns;         /* duration of one screen pixel; 0 = never use previews */
    uint32_t flags;           /* SLOG_QUERY_* */
} slog_query;

#define SLOG_QUERY_NO_PREVIEW     1u /* always descend to drawables */
/* States and arrows shorter than pixel_ns (|end - start| < pixel_ns) are
 * delivered without their info values: n_info 0, info NULL, the values not
 * decoded (they are still checked). For a caller that folds such drawables
 * into pixel columns and needs only the wider ones, and every event, as
 * individual objects with their fields; a frame that decodes whole leaves
 * is mostly such drawables. No effect when pixel_ns is 0. */
#define SLOG_QUERY_NARROW_NO_INFO 2u

typedef struct slog_query_stats {
    uint64_t nodes_read;
    uint64_t bytes_read;
    uint64_t drawables; /* matching the query (delivered if a callback is set) */
    uint64_t previews;  /* likewise */
} slog_query_stats;

typedef slog_cb_result (*slog_drawable_cb)(void *user, const slog_drawable *d);
typedef slog_cb_result (*slog_preview_cb)(void *user, const slog_preview *p);

/* Exact semantics (what the tests check against a brute-force model):
 *  - A drawable's interval is [min(start,end), max(start,end)]. It is stored
 *    in the smallest tree node whose interval [lo,hi) contains it entirely,
 *    so N's subtree holds exactly the drawables contained in [N.lo, N.hi).
 *  - A drawable matches the query if its interval intersects [t0,t1] and its
 *    timeline (or, for arrows, its timeline or end_timeline) is wanted.
 *  - With pixel_ns == 0 or SLOG_QUERY_NO_PREVIEW, exactly the matching
 *    drawables are delivered, each once.
 *  - Otherwise every matching drawable is either delivered once, or lies in
 *    the subtree of exactly one delivered preview, never both.
 *  - Preview bins: bin j of node N covers [lo + j*w, lo + (j+1)*w) with
 *    w = (hi-lo)/n_bins (real-valued). For a state row the value is
 *    min(1, sum of overlap(state, bin) / w) over the subtree's states of that
 *    (timeline, category), quantised to multiples of 1/255 (error <= 1/510 +
 *    float rounding). Arrow/event rows count drawables whose start lies in
 *    the bin (arrows on their `timeline`, i.e. the sender). Zero-length states
 *    contribute nothing. Previews are not filtered by the timeline set; rows
 *    of unwanted timelines are dropped.
 *  - A delivered drawable carries all its category's info values, except
 *    the states and arrows shorter than pixel_ns under
 *    SLOG_QUERY_NARROW_NO_INFO, which carry none. Which drawables are
 *    delivered does not depend on that flag.
 *
 * Visit the tree nodes that intersect [t0,t1]. A node whose preview bins are
 * no wider than pixel_ns (and which carries a preview) is delivered as a
 * preview instead of being read further; otherwise its drawables that
 * intersect the window and the timeline set are delivered and its children
 * visited. Hence the cost is bounded by the window's pixel columns, not the
 * trace length. Delivered pointers are valid during the callback only.
 * Either callback may be NULL. A callback that returns SLOG_STOP ends the
 * query, which then returns SLOG_OK. stats (may be NULL) is filled. */
SLOG_API
slog_status slog_reader_query(slog_reader *r, const slog_query *q, slog_drawable_cb on_drawable,
                              slog_preview_cb on_preview, void *user, slog_query_stats *stats, slog_error *err);

/* Read every node, verify checksums and the placement invariants (each
 * drawable inside its node's interval and in the smallest such node; counts
 * match the directory). Returns SLOG_OK or the first violation. */
SLOG_API
slog_status slog_reader_check(slog_reader *r, slog_query_stats *stats, slog_error *err);

/* ------------------------------------------------------- folded grids */

/* A window of timelines folded into rows and of time into pixel columns:
 * what a picture of thousands of timelines at one pixel row each needs.
 * Row i holds the consecutive timelines first(i) .. last(i); its value in
 * column j for a category is
 *   states:         the mean over the row's timelines of the fraction of the
 *                   column covered by that category (0..1, previews
 *                   quantised to 1/255 of a group of timelines);
 *   arrows, events: the number starting in the column on the row's
 *                   timelines (arrows on their sender's).
 * The rows are made of whole units: single timelines where the grid was
 * read from the blocks' trees, groups of group_timelines where it was read
 * from the overview tree (slog_grid_unit). So a grid may have fewer rows
 * than asked for: down to half of them when the overview is read. */
typedef struct slog_grid slog_grid;

typedef struct slog_grid_query {
    int64_t t0, t1;             /* window, inclusive */
    uint32_t tl_first, tl_last; /* timelines, inclusive; tl_last is clamped
                                    to the last timeline */
    uint32_t n_cols;            /* columns over [t0, t1], 1..65,536 */
    uint32_t n_rows;            /* at most this many rows, 1..65,536 */
    uint32_t flags;             /* SLOG_GRID_* */
} slog_grid_query;

/* Read from the blocks' trees even where the overview would do (tests
 * compare the two). */
#define SLOG_GRID_NO_OVERVIEW 1u

/* Fill a new grid for q; *out NULL on error. Reads the overview tree when
 * the timelines are whole overview groups that make at least half the rows
 * asked for (and the overview's finest bins are at most four columns wide),
 * else the trees of the blocks that hold the timelines. stats as for
 * slog_reader_query. */
SLOG_API
slog_status slog_reader_grid(slog_reader *r, const slog_grid_query *q, slog_grid **out, slog_query_stats *stats,
                             slog_error *err);
/* NULL is fine. The room of a large grid's values (from 1 MiB) is kept
 * for the next grid that fits in it instead of given back: the room of the
 * large grid freed last, one in the process. */
SLOG_API
void slog_grid_free(slog_grid *g);
SLOG_API
uint32_t slog_grid_n_rows(const slog_grid *g);
SLOG_API
uint32_t slog_grid_n_cols(const slog_grid *g);
/* Timelines per unit the rows are made of: 1, or the overview's group. */
SLOG_API
uint32_t slog_grid_unit(const slog_grid *g);
/* The timelines of row i, inclusive. */
SLOG_API
void slog_grid_row_range(const slog_grid *g, uint32_t row, uint32_t *first, uint32_t *last);
/* The n_cols values of (row, category), or NULL where all are 0. */
SLOG_API
const float *slog_grid_values(const slog_grid *g, uint32_t row, uint32_t category);

/* ------------------------------------------------------- pixel columns */

/* Aggregates query results into n_cols equal pixel columns over [t0, t1] per
 * (timeline, category): for states the covered fraction of each column, for
 * arrows and events the number starting in it. Previews are spread over the
 * columns their bins overlap, drawables from their exact times, so a picture
 * made from previews and one made from drawables agree (to quantisation).
 * Used by slog2-print --preview and the viewer; not thread safe per object. */
typedef struct slog_columns slog_columns;

SLOG_API
slog_columns *slog_columns_new(int64_t t0, int64_t t1, uint32_t n_cols);
SLOG_API
void slog_columns_free(slog_columns *c);
/* cat_is_state: is category k a state category (from slog_reader_category). */
SLOG_API
void slog_columns_add_preview(slog_columns *c, const slog_preview *p, const uint8_t *cat_is_state);
SLOG_API
void slog_columns_add_drawable(slog_columns *c, const slog_drawable *d);
/* Clamp state rows to 1 (nested states of one category overlap) and order
 * rows by (timeline, category). The columns tile [t0, t1] exactly. */
SLOG_API
void slog_columns_finish(slog_columns *c);
SLOG_API
uint32_t slog_columns_n_rows(const slog_columns *c);
/* Returns the n_cols values of row i and its keys. */
SLOG_API
const float *slog_columns_row(const slog_columns *c, uint32_t i, uint32_t *timeline, uint32_t *category);
SLOG_API
uint32_t slog_columns_n_cols(const slog_columns *c);
/* False if an allocation failed at any point. */
SLOG_API
int slog_columns_ok(const slog_columns *c);

/* The primitives both of the above and the viewer use, so there is one
 * definition of how a window is read into columns. n_cols equal columns of
 * col_ns each tile [t0, t0 + n_cols * col_ns):
 * slog_spread adds amount_per_ns times the overlap of [a, b) to each column;
 * slog_spread_bins adds a preview row's n_bins values over [lo, hi) - for a
 * state row the covered fraction of each column, otherwise counts split by
 * overlap. */
SLOG_API
void slog_spread(float *cols, uint32_t n_cols, double t0, double col_ns, double a, double b, double amount_per_ns);
SLOG_API
void slog_spread_bins(float *cols, uint32_t n_cols, double t0, double col_ns, int64_t lo, int64_t hi, uint32_t n_bins,
                      const float *values, int is_state);

/* ------------------------------------------------------------ analysis */

/* The communication matrix and the state profile of a window [t0, t1]
 * (inclusive), exact (docs/ANALYSIS.md):
 *  - a message (an arrow of any category) counts when its send time
 *    (start) lies in the window, in the cell (sender timeline, receiver
 *    timeline); its size is its category's first field of type
 *    SLOG_FIELD_BYTES, and one without a known size adds 0 to bytes and 1
 *    to unknown_bytes; its transfer time is end - start (negative where
 *    clocks disagree);
 *  - a state counts, as in the viewer's range statistics, when it meets the
 *    window (start <= t1 and end >= t0), with the part of it inside:
 *    min(end, t1) - max(start, t0) is its inclusive time; its exclusive
 *    time is that minus the inside parts of the states directly nested in
 *    it. A state's parent is, among the other states of its timeline that
 *    contain it (start <= its start, its end <= end), the one with the
 *    largest start, then the smallest end, then the largest category id:
 *    the innermost where states nest.
 * Events count in neither. The file's node summaries (docs/FORMAT.md,
 * "Summary block") answer for the nodes that lie inside the window, so a
 * window of the whole trace reads a few blocks whatever the file's size;
 * the nodes the window's edges cut are read record by record. */
typedef struct slog_matrix_cell {
    uint32_t sender, receiver; /* timelines */
    uint64_t messages;
    uint64_t bytes;         /* sum of the known sizes */
    uint64_t unknown_bytes; /* messages whose size is not known */
    int64_t time_ns;        /* sum of receive - send */
} slog_matrix_cell;

typedef struct slog_profile_row {
    uint32_t timeline, category; /* a state category */
    uint64_t calls;
    int64_t inclusive_ns, exclusive_ns;
    int64_t min_ns, max_ns; /* shortest and longest (inside parts) */
} slog_profile_row;

#define SLOG_ANALYSIS_MATRIX     1u /* the matrix (with neither flag: both) */
#define SLOG_ANALYSIS_PROFILE    2u /* the profile */
#define SLOG_ANALYSIS_NO_SUMMARY 4u /* read every record, no summary (tests) */

typedef struct slog_analysis_query {
    int64_t t0, t1; /* window, inclusive, t0 <= t1 */
    uint32_t flags; /* SLOG_ANALYSIS_* */
} slog_analysis_query;

typedef struct slog_analysis slog_analysis;

/* Analyse q's window of r into a new *out (NULL on error): SLOG_ERR_ARG for
 * a bad query, a reader error for a bad file. stats (may be NULL): nodes
 * and bytes read (node and summary blocks), records decoded, and in
 * `previews` the summaries used. Safe on several threads at once. */
SLOG_API
slog_status slog_reader_analyse(slog_reader *r, const slog_analysis_query *q, slog_analysis **out,
                                slog_query_stats *stats, slog_error *err);
SLOG_API
void slog_analysis_free(slog_analysis *a); /* NULL is fine */
/* The cells with messages, by (sender, receiver); *n of them. Valid until
 * slog_analysis_free. */
SLOG_API
const slog_matrix_cell *slog_analysis_matrix(const slog_analysis *a, size_t *n);
/* The (timeline, category) rows with calls, by (timeline, category). */
SLOG_API
const slog_profile_row *slog_analysis_profile(const slog_analysis *a, size_t *n);

/* ------------------------------------------------------ group messages */

/* The messages sent between the overview's groups of timelines (group g:
 * timelines [g * group_timelines, (g + 1) * group_timelines)) in slices
 * of a window, from the overview's message blocks (format 5.x,
 * docs/FORMAT.md "Message block"): what a picture of thousands of
 * timelines folded into rows draws as flows, at a cost that follows the
 * slices and the pairs of groups, not the messages. The slices are the
 * time tree's nodes of one level that meet [t0, t1] clipped to the file's
 * span, so they may reach past the window; slice i is [edges[i],
 * edges[i + 1]). The level is the highest with at least min_slices such
 * nodes (or level 0; min_slices above 2^19 counts as 2^19). The counts
 * come from the overview on that level or, half as many slices, the next
 * one up; where it does not count that finely (a window narrower than
 * the nodes of a busy stretch), from the blocks' arrows in the slices,
 * at the cost of a query of the window (from_blocks).
 * A message (an arrow) counts in the slice holding its send time (start)
 * and in the cell (slice, sender's group, receiver's group); the counts
 * are exact. */
typedef struct slog_group_cell {
    uint32_t slice, sender, receiver; /* receiver, sender: groups */
    uint64_t messages;
} slog_group_cell;

typedef struct slog_group_messages {
    uint32_t group_timelines;
    uint32_t n_slices;
    int64_t *edges;         /* n_slices + 1 */
    slog_group_cell *cells; /* by (slice, sender, receiver), messages > 0 */
    size_t n_cells;
    int from_blocks; /* 1: counted from the blocks' arrows, 0: from the overview */
} slog_group_messages;

/* The messages between groups per slice of [t0, t1] into a new *out, or
 * *out NULL with SLOG_OK where the file has no such counts: a file
 * before 5.0, no overview, no message, or a window outside the span.
 * Then slog_reader_analyse gives them per timeline. SLOG_ERR_ARG for a
 * bad query, a reader error for a bad file. stats (may be NULL): the
 * blocks and bytes read (and with from_blocks the drawables). Safe on
 * several threads at once. */
SLOG_API
slog_status slog_reader_group_messages(slog_reader *r, int64_t t0, int64_t t1, uint32_t min_slices,
                                       slog_group_messages **out, slog_query_stats *stats, slog_error *err);
SLOG_API
void slog_group_messages_free(slog_group_messages *m); /* NULL is fine */

/* Recompute every summary block (docs/FORMAT.md, "Summary block") from the
 * records of its node's subtree, as the writer makes them, and compare it
 * with the one stored, byte for byte: SLOG_OK, SLOG_ERR_CORRUPT naming the
 * first node whose summary differs, or a reader error for a bad file.
 * Reads every block tree's nodes once. n_checked (may be NULL): the
 * summaries compared; stats (may be NULL): blocks and bytes read. */
SLOG_API
slog_status slog_reader_check_summaries(slog_reader *r, uint64_t *n_checked, slog_query_stats *stats, slog_error *err);

/* Cumulative counters over the reader's lifetime (atomic). */
SLOG_API
uint64_t slog_reader_bytes_read(const slog_reader *r);
SLOG_API
uint64_t slog_reader_nodes_read(const slog_reader *r);

/* A cache of decoded tree nodes, off when a reader is opened. With it on,
 * a query keeps the nodes whose drawables it decodes (the verified block
 * and its records), and later queries deliver those nodes from memory
 * without reading or decoding them again: a viewer's zooms and pans ask
 * for overlapping windows. The nodes used least recently are let go to
 * keep the memory at most max_bytes (a node larger than that is not
 * kept). What a query delivers is the same with or without the cache;
 * only its stats differ (a node from the cache adds nothing to nodes_read
 * and bytes_read). Queries from several threads share the cache.
 * max_bytes 0 turns it off and frees it. Call it while no query of r
 * runs. */
typedef struct slog_cache_stats {
    uint64_t hits;      /* nodes delivered from the cache */
    uint64_t misses;    /* nodes read and decoded while it was on */
    uint64_t evictions; /* nodes let go to stay within max_bytes */
    uint64_t entries;   /* nodes held now */
    uint64_t bytes;     /* what they take, counted against max_bytes */
    uint64_t max_bytes;
} slog_cache_stats;

SLOG_API
slog_status slog_reader_set_cache(slog_reader *r, uint64_t max_bytes);
/* The counters since the cache was turned on (all 0 when it is off). */
SLOG_API
void slog_reader_cache_stats(const slog_reader *r, slog_cache_stats *out);

#ifdef __cplusplus
}
#endif
#endif /* SLOG_H */
