/* SPDX-License-Identifier: MIT */
/* dumpi.h - reading Sandia DUMPI traces (.meta + one .bin per rank).
 *
 * Plain C11, libc only (no GLib): the decoder is fuzzed on its own and can
 * be reused. Layout facts: docs/DUMPI.md, sst-dumpi common/io.c,
 * common/iodefs.h, common/dumpiio.c.
 *
 *   dumpi_meta  the run: .meta keys and where each rank's .bin is
 *   dumpi_file  one rank's .bin: header, footer, keyvals, datatype sizes,
 *               and an iterator over the call stream
 *   dumpi_call  one decoded record; its argument values live in the
 *               file's scratch arena and stay valid until the next
 *               dumpi_file_next() / dumpi_file_close() on that file
 *
 * Errors are values: functions return DUMPI_OK (0) or a negative
 * dumpi_code and fill a caller-provided dumpi_error whose message names
 * the file and byte offset. Nothing here exits or aborts on bad data.
 * Thread safety: distinct dumpi_file / dumpi_meta objects may be used from
 * distinct threads at once; one object must not be shared without a lock.
 */
#ifndef SLOG2_DUMPI_H
#define SLOG2_DUMPI_H

#include <stddef.h>
#include <stdint.h>

#include "dumpi_table.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- special values (sst-dumpi common/constants.h, docs/DUMPI.md) ----- */
enum {
  DUMPI_COMM_NULL = 1, /* MPI_COMM_NULL */
  DUMPI_COMM_WORLD = 2,
  DUMPI_COMM_SELF = 3,    /* user communicators start at 4 */
  DUMPI_REQUEST_NULL = 1, /* also for MPIO requests */
  DUMPI_ANY_SOURCE = -1,
  DUMPI_ANY_TAG = -1,
  DUMPI_PROC_NULL = -2,    /* Open MPI value, stored as is; also ROOT */
  DUMPI_UNDEFINED = -32766 /* Open MPI MPI_UNDEFINED (index/outcount) */
};

/* ---- errors ------------------------------------------------------------ */

typedef enum dumpi_code {
  DUMPI_OK = 0,
  DUMPI_ERR_IO = -1,            /* open/stat/mmap/read failed (errno text) */
  DUMPI_ERR_NOT_DUMPI = -2,     /* no DUMPI lead-in magic: foreign file */
  DUMPI_ERR_TRUNCATED = -3,     /* stream cut short (rank killed mid-run):
                                 every complete record before it was
                                 returned; offset = first missing byte */
  DUMPI_ERR_CORRUPT = -4,       /* index/section/length makes no sense */
  DUMPI_ERR_UNKNOWN_LABEL = -5, /* function label not in the table */
  DUMPI_ERR_NOMEM = -6,
  DUMPI_ERR_NOT_FOUND = -7, /* no .meta in directory, missing key, ... */
  DUMPI_ERR_INVALID = -8    /* bad argument from the caller */
} dumpi_code;

typedef struct dumpi_error {
  int code;          /* dumpi_code */
  uint64_t offset;   /* byte offset in the file, or DUMPI_NO_OFFSET */
  char message[512]; /* "path: offset 1234: what went wrong", or
                                 "path: what went wrong" without an offset */
} dumpi_error;

/* For errors about a file as a whole (cannot open it, not a regular file,
 * out of memory): no offset would mean anything, so the message has none. */
#define DUMPI_NO_OFFSET UINT64_MAX

/* Static text for a code ("truncated stream", ...). */
const char *dumpi_strerror(int code);

/* ---- .meta ------------------------------------------------------------- */

typedef struct dumpi_meta dumpi_meta;

/* Open a run. path is a .meta file or a directory holding exactly one
 * .meta. The per-rank files are looked for NEXT TO the .meta as
 * <metadir>/<basename(fileprefix)>-NNNN.bin (the recorded fileprefix often
 * names a directory of the recording machine). Ranks whose .bin is
 * missing are listed by dumpi_meta_missing(), not an error.
 * On success *out owns the run; free with dumpi_meta_free(). */
int dumpi_meta_open(const char *path, dumpi_meta **out, dumpi_error *err);

/* A run from an explicit list of .bin paths (no .meta). The rank of each
 * file is taken from its "-NNNN.bin" suffix, else its position in the
 * list; numprocs = highest rank + 1, gaps are reported missing. */
int dumpi_meta_from_bins(const char *const *paths, size_t n_paths, dumpi_meta **out, dumpi_error *err);

void dumpi_meta_free(dumpi_meta *m);

/* Value of a .meta key ("hostname", "numprocs", "username", "startime",
 * "fileprefix", "version", ...), NULL if absent. */
const char *dumpi_meta_get(const dumpi_meta *m, const char *key);
/* Number of key=value lines and the i-th pair, for listing them all. */
size_t dumpi_meta_n_keys(const dumpi_meta *m);
int dumpi_meta_key_at(const dumpi_meta *m, size_t i, const char **key, const char **value);

/* Number of ranks (numprocs). */
int dumpi_meta_n_ranks(const dumpi_meta *m);
/* Path of rank's .bin, NULL when that rank's file is missing. */
const char *dumpi_meta_bin_path(const dumpi_meta *m, int rank);
/* Ranks with no .bin, ascending; *n_missing gets their count. */
const int *dumpi_meta_missing(const dumpi_meta *m, size_t *n_missing);
/* Path of the .meta read, NULL for dumpi_meta_from_bins(). */
const char *dumpi_meta_path(const dumpi_meta *m);

/* ---- .bin -------------------------------------------------------------- */

typedef struct dumpi_file dumpi_file;

/* One MPI_Status as libdumpi stores it. */
typedef struct dumpi_status {
  int32_t bytes;  /* count in bytes (meaningless for a send's status) */
  int32_t source; /* -1 for a completed send, -2 MPI_PROC_NULL */
  int32_t tag;    /* -1 (ANY_TAG) in traces older than 0.6.3 */
  int8_t cancelled;
  int8_t error;
} dumpi_status;

/* One row of a 2-D int array / one list of a 2-D string array. */
typedef struct dumpi_int_row {
  int32_t n;
  const int32_t *v;
} dumpi_int_row;
typedef struct dumpi_string_list {
  int32_t n;
  const char *const *v;
} dumpi_string_list;

/* One decoded argument (internal representation, use the accessors).
 * Whether it is on the stream is the call's (dumpi_arg_present()): the
 * value is then 16 bytes, not 24. */
typedef struct dumpi_value {
  int64_t i;     /* scalar value / array element count */
  const void *p; /* array data in the arena, NULL for scalars */
} dumpi_value;

/* Record mask bits (sst-dumpi common/settings.h). */
enum {
  DUMPI_MASK_STATUS = 0x03, /* statuses were written */
  DUMPI_MASK_CPUTIME = 0x04,
  DUMPI_MASK_WALLTIME = 0x08,
  DUMPI_MASK_THREADID = 0x40,
  DUMPI_MASK_PERFINFO = 0x80
};

/* One call record. Times are nanoseconds: wall times on the recording
 * host's clock (CLOCK_MONOTONIC for recent libdumpi, epoch for old
 * traces), cpu times per process; a time the record does not carry
 * (see mask) is 0. */
typedef struct dumpi_call {
  uint16_t label;
  uint8_t mask;            /* DUMPI_MASK_* */
  uint8_t n_perf;          /* perf counter pairs */
  uint16_t thread;         /* 0 when the record has no thread id */
  uint16_t present;        /* bit i: args[i] is on the stream (0: root-only
                            * on a non-root, statuses disabled, legacy
                            * layout) */
  const dumpi_fn_info *fn; /* table row of label, never NULL */
  uint64_t offset;         /* file offset of the record's label */
  uint32_t size;           /* record length in bytes */
  int64_t wall_start, wall_stop;
  int64_t cpu_start, cpu_stop;
  const int64_t *perf_in;           /* n_perf values at entry (arena) */
  const int64_t *perf_out;          /* n_perf values at exit (arena) */
  dumpi_value args[DUMPI_MAX_ARGS]; /* fn->n_args used, table order */
} dumpi_call;
_Static_assert(DUMPI_MAX_ARGS <= 16, "a bit of dumpi_call.present per argument");

/* Whether argument i (0 <= i < DUMPI_MAX_ARGS) of c is on the stream. */
static inline int dumpi_arg_present(const dumpi_call *c, int i) {
  return (c->present >> i) & 1;
}

/* Open one rank's .bin and read its index, header, footer,
 * keyvals, perf labels, function names and datatype sizes.
 * A file with a good lead-in magic but no usable index (rank killed
 * mid-run) still opens: dumpi_file_has_index() is then 0, the header
 * and footer are empty and the stream is read from offset 8 until it
 * ends; a sane-looking index pointing outside the file is an error.
 * Errors: DUMPI_ERR_IO, _NOT_DUMPI, _CORRUPT, _NOMEM. */
int dumpi_file_open(const char *path, dumpi_file **out, dumpi_error *err);
/* dumpi_file_open() and dumpi_file_set_window(window) in one: the first
 * bytes of the stream that opening a small file reads become the window's
 * first fill instead of being read again (up to window bytes; all of a
 * stream under twice that). */
int dumpi_file_open_window(const char *path, size_t window, dumpi_file **out, dumpi_error *err);
void dumpi_file_close(dumpi_file *f);
/* Ask the kernel to start reading what dumpi_file_open_window(path,
 * window) reads, and return without waiting for it: a caller opening
 * thousands of files that come from storage, not the page cache, hints
 * the next ones while it opens one, so that their reads overlap. A hint:
 * it reports nothing (the open reports any error) and holds no
 * descriptor. */
void dumpi_file_prefetch(const char *path, size_t window);
/* Opening a run of a trace's rank files, with dumpi_file_prefetch() ahead
 * of the opens once they show that the files come from storage, not the
 * page cache (several slow opens in a row: from the cache the hints would
 * cost about half as much as the opens). For each rank in turn:
 * dumpi_read_ahead_before(), its open, dumpi_read_ahead_after(). */
typedef struct dumpi_read_ahead {
  const dumpi_meta *meta;
  size_t window;    /* as given to dumpi_file_open_window() */
  uint32_t last;    /* the end of the ranks opened: no hint reaches it */
  uint32_t hinted;  /* ranks below it hinted; UINT32_MAX: no hints yet */
  uint32_t slow;    /* the last opens that were slow */
  int64_t start_ns; /* the open being timed */
} dumpi_read_ahead;
void dumpi_read_ahead_init(dumpi_read_ahead *a, const dumpi_meta *meta, uint32_t last, size_t window);
void dumpi_read_ahead_before(dumpi_read_ahead *a, uint32_t rank);
void dumpi_read_ahead_after(dumpi_read_ahead *a, uint32_t rank);

/* A rank file whose bytes the caller supplies (slog2-build-mpi: another
 * process reads the file and sends them). size is the file's; fill puts
 * the bytes outside the call stream, [0, begin) and [end, size) of
 * dumpi_file_stream_range() on the reading side, at their offsets into
 * map (size bytes, zero elsewhere) and returns 0 or -errno; read gives up
 * to n bytes at off (the stream, through the read window): the count, 0
 * past the end, or -errno. close, if set, is called with ctx when the file
 * closes (or its open fails). The same checks and messages as
 * dumpi_file_open() follow. */
typedef struct dumpi_source {
  void *ctx;
  uint64_t size;
  int (*fill)(void *ctx, uint8_t *map);
  int64_t (*read)(void *ctx, void *buf, size_t n, uint64_t off);
  void (*close)(void *ctx);
} dumpi_source;
int dumpi_file_open_source(const char *path, const dumpi_source *src, dumpi_file **out, dumpi_error *err);
/* The call stream's bytes, [*begin, *end) of the file. */
void dumpi_file_stream_range(const dumpi_file *f, uint64_t *begin, uint64_t *end);

/* Decode the next call record into *call.
 * Returns 1 = a record, 0 = clean end of stream (end label, or the end of
 * the stream section), or a negative dumpi_code with *err filled:
 * DUMPI_ERR_TRUNCATED (the stream stops inside a record or without an end
 * label: every complete record before it has been returned),
 * DUMPI_ERR_UNKNOWN_LABEL, DUMPI_ERR_CORRUPT. After an error further calls
 * return the same error. Does not allocate once the arena is warm. */
int dumpi_file_next(dumpi_file *f, dumpi_call *call, dumpi_error *err);
/* dumpi_file_next() for a look at records' functions, threads and times
 * only: label, fn, mask, thread, offset, size and the times are set; the
 * arguments and perf counters are stepped over, and what call->args holds
 * is undefined. The same records and the same errors as dumpi_file_next(). */
int dumpi_file_next_times(dumpi_file *f, dumpi_call *call, dumpi_error *err);
/* Hints for a caller that decodes a few records from each of many files
 * in turn: fetch into the cache what dumpi_file_next() reads of f itself,
 * and (once that is in) the bytes of f's next record. Neither changes f. */
void dumpi_file_prefetch_state(const dumpi_file *f);
void dumpi_file_prefetch_next(const dumpi_file *f);

/* Read on until a record whose label is in the set (labels[label] != 0,
 * DUMPI_N_LABELS entries), reading at most *budget records (*budget is
 * decreased by those read): 1 (it is in *call), 0 when the budget or the
 * stream ends first, or an error as dumpi_file_next() returns it. For a
 * look ahead, undone by dumpi_file_rewind(). */
int dumpi_file_find(dumpi_file *f, const uint8_t *labels, int *budget, dumpi_call *call, dumpi_error *err);

/* Start the stream over from the first record. */
void dumpi_file_rewind(dumpi_file *f);
/* Bytes of the stream read ahead at a time (default 256 KiB; at least 1).
 * A record that does not fit is read whole anyway: tests set tiny windows
 * to exercise that. */
void dumpi_file_set_window(dumpi_file *f, size_t bytes);
/* Transient (on != 0): the file keeps no descriptor open between reads
 * of its window; each read opens it again (and checks it is the same
 * file) and closes it after. For a reader of more files than the process
 * may hold open. An open that fails is the read's error (DUMPI_ERR_IO). */
void dumpi_file_set_transient(dumpi_file *f, int on);
/* Leave cpu_start/cpu_stop at 0: a reader that draws wall time only
 * saves their decoding. Bounds are still checked. */
void dumpi_file_skip_cpu_times(dumpi_file *f);
/* Add ns to every wall time decoded from now on (0 at open): the
 * builder's shift of a host's clock onto another's (clocks.h). Times a
 * record does not carry stay 0. */
void dumpi_file_set_wall_offset(dumpi_file *f, int64_t ns);

const char *dumpi_file_path(const dumpi_file *f);
uint64_t dumpi_file_size(const dumpi_file *f);
/* Bytes of the call stream section (for progress / speed figures). */
uint64_t dumpi_file_stream_bytes(const dumpi_file *f);
/* The device and inode of the file open found (so a caller can tell
 * whether another path names it without a stat): 1, or 0 for a file whose
 * bytes a source supplies. */
int dumpi_file_identity(const dumpi_file *f, uint64_t *dev, uint64_t *ino);
/* 1 if the trailing index record was found (file finished cleanly). */
int dumpi_file_has_index(const dumpi_file *f);

/* Header (T.2). version: {major, minor, sub}; all zero when missing. */
void dumpi_file_version(const dumpi_file *f, uint8_t version[3]);
uint64_t dumpi_file_start_time(const dumpi_file *f);  /* epoch seconds */
const char *dumpi_file_hostname(const dumpi_file *f); /* "" if none */
const char *dumpi_file_username(const dumpi_file *f);
/* Mesh position and size arrays, both *n_dims long (usually 0). */
int32_t dumpi_file_mesh(const dumpi_file *f, const int32_t **coords, const int32_t **size);
/* Time biases (seconds) added to the 16-bit stored seconds. */
int32_t dumpi_file_wall_bias(const dumpi_file *f);
int32_t dumpi_file_cpu_bias(const dumpi_file *f);

/* Footer (T.3): per-label call and ignore counts for labels
 * 0 .. DUMPI_LABEL_ALL_FUNCTIONS (the last entry is the total).
 * Returns the number of entries (DUMPI_LABEL_ALL_FUNCTIONS + 1), or 0 when
 * the file has no footer (then the pointers are NULL). */
int dumpi_file_footer_counts(const dumpi_file *f, const uint32_t **calls, const uint32_t **ignored);
/* Let go of the footer's tables (a reader of thousands of files that has
 * taken what it needs of them): dumpi_file_footer_counts then returns 0. */
void dumpi_file_drop_footer(dumpi_file *f);

/* Keyval record (T.4). */
size_t dumpi_file_n_keyvals(const dumpi_file *f);
int dumpi_file_keyval(const dumpi_file *f, size_t i, const char **key, const char **value);

/* Perf counter labels (T.6); n_perf of each record matches this. */
size_t dumpi_file_n_perf_labels(const dumpi_file *f);
const char *dumpi_file_perf_label(const dumpi_file *f, size_t i);

/* Instrumented function addresses and names (T.7), for Function_enter /
 * Function_exit records (arg "fn" is the address). */
size_t dumpi_file_n_functions(const dumpi_file *f);
int dumpi_file_function(const dumpi_file *f, size_t i, uint64_t *address, const char **name);
/* Name for an address, NULL if unknown. */
const char *dumpi_file_function_name(const dumpi_file *f, uint64_t address);

/* Datatype sizes (since 0.6.6): bytes of datatype id, for bytes =
 * count * size. Ids 0..27 are the predefined types (2 MPI_CHAR,
 * 9 MPI_INT, 14 MPI_DOUBLE, ...), user types follow. Returns -1 when the
 * id is outside the recorded table (or the file has none). */
int32_t dumpi_file_datatype_size(const dumpi_file *f, int32_t datatype);
int32_t dumpi_file_n_datatypes(const dumpi_file *f);

/* ---- call accessors ---------------------------------------------------- *
 * idx is a table index (dumpi_fn_arg_index(label, "count")). Out of range
 * or absent arguments read as 0 / NULL with *n = 0. */

/* 1 if argument idx was on the stream for this record. */
int dumpi_call_has(const dumpi_call *c, int idx);
/* Any scalar argument (int, handle, 8-bit enum, int64). */
int64_t dumpi_call_int(const dumpi_call *c, int idx);
/* Any 1-D integer array (int, request, errcode, datatype, info,
 * distribution arrays), decoded to int32_t. */
const int32_t *dumpi_call_int_array(const dumpi_call *c, int idx, int32_t *n);
/* A copy of c that owns its arrays and strings (the decoder's are valid
 * only until its next record), in one block: free() it. NULL when out of
 * memory. Of args it holds the arguments c's function has; the rest is
 * not written. */
dumpi_call *dumpi_call_clone(const dumpi_call *c);
/* 2-D int array (Group_range_incl "ranges"): *n rows. */
const dumpi_int_row *dumpi_call_int_array_2d(const dumpi_call *c, int idx, int32_t *n);
/* STATUS (n is 0 or 1) or STATUS_ARRAY. NULL when statuses were not
 * recorded or MPI_STATUS(ES)_IGNORE was passed. */
const dumpi_status *dumpi_call_statuses(const dumpi_call *c, int idx, int32_t *n);
/* The single status of a STATUS argument, or NULL. */
const dumpi_status *dumpi_call_status(const dumpi_call *c, int idx);
/* NUL-terminated string, NULL if absent. */
const char *dumpi_call_string(const dumpi_call *c, int idx);
const char *const *dumpi_call_string_array(const dumpi_call *c, int idx, int32_t *n);
const dumpi_string_list *dumpi_call_string_array_2d(const dumpi_call *c, int idx, int32_t *n);
/* Value by argument name (slower: a table lookup); 0 if none. */
int64_t dumpi_call_int_by_name(const dumpi_call *c, const char *name);

/* ---- completion info for message matching ------------------------------
 * The requests a Wait/Test-family record (incl. MPIO_*) completed, in
 * order, with their statuses. Wait: its request. Test: its request if
 * flag. Waitany/Testany: requests[index] unless index is MPI_UNDEFINED
 * (-32766) or (Testany) flag is 0. Waitall: all requests; Testall: all if
 * flag. Waitsome/Testsome: requests[indices[i]] for i < outcount.
 * Request_get_status completes nothing (it does not free the request).
 * Other labels: 0. Requests equal to MPI_REQUEST_NULL are included; the
 * caller decides. */
int32_t dumpi_call_n_completed(const dumpi_call *c);
/* i-th completed request id; *status (may be NULL) gets its status or
 * NULL when statuses were not recorded. Returns 0 on success, -1 if i is
 * out of range. */
int dumpi_call_completed(const dumpi_call *c, int32_t i, int32_t *request, const dumpi_status **status);

/* The same, resolved once per record for callers that walk every
 * completion (the builder, for every Wait/Test record): fill d, then
 * dumpi_completion_at(d, i, ...) for i < d->n costs an array read. */
typedef struct dumpi_completions {
  int32_t n;               /* completed requests (0 for other labels) */
  const int32_t *requests; /* requests[] argument, or NULL */
  int32_t n_requests;
  const int32_t *indices;       /* Waitsome/Testsome: indices[], else NULL */
  int32_t single;               /* Wait/Test: request; *any: index */
  int kind;                     /* internal: which rule applies */
  const dumpi_status *statuses; /* NULL when not recorded */
  int32_t n_statuses;
} dumpi_completions;
int32_t dumpi_call_completions(const dumpi_call *c, dumpi_completions *d);
int dumpi_completion_at(const dumpi_completions *d, int32_t i, int32_t *request, const dumpi_status **status);
/* How many of d's completions dumpi_completion_at() gives with a request
 * other than MPI_REQUEST_NULL, in one pass. */
int32_t dumpi_completions_live(const dumpi_completions *d);

#ifdef __cplusplus
}
#endif
#endif /* SLOG2_DUMPI_H */
