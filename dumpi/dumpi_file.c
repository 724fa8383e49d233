/* SPDX-License-Identifier: MIT */
/* dumpi_file.c - open a DUMPI .bin: reading, index record and the small
 * sections around the call stream (header, footer, keyvals, perf labels,
 * function names, datatype sizes). The call stream itself is decoded in
 * dumpi_stream.c.
 *
 * File layout (seed 001 "TRACEFILE", sst-dumpi common/io.c):
 *   0       8   lead-in magic ff aa dd 'D' 'U' 'M' 'P' 'I'
 *   body    8   cpu bias (i32), wall bias (i32) in seconds, then records,
 *               then the u16 END_OF_STREAM label
 *   header  .   version[3], start time u64, hostname, username (u16-length
 *               strings), mesh coords and size (u32 count + i32 each)
 *   footer  .   u64 0xf007fee7, u32 calls[291], u32 ignored[291]
 *   perflbl .   u32 n, n strings        (absent before Oct 2009)
 *   addrlbl .   u32 n, n × (u64 address, string)  (absent before Dec 2009)
 *   sizelbl .   u32 n, n × i32 datatype size       (absent before 0.6.6)
 *   keyval  .   u32 n, n × (string key, string value)
 *   end-64  64  index: magic, sizelbl, addrlbl, perflbl, header, body,
 *               footer, keyval (u64 each); older files lack the leading
 *               entries, down to magic + the four original ones.
 */
#include "dumpi_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *dumpi_strerror(int code) {
  switch (code) {
  case DUMPI_OK: return "success";
  case DUMPI_ERR_IO: return "I/O error";
  case DUMPI_ERR_NOT_DUMPI: return "not a DUMPI trace file";
  case DUMPI_ERR_TRUNCATED: return "truncated trace";
  case DUMPI_ERR_CORRUPT: return "corrupt trace";
  case DUMPI_ERR_UNKNOWN_LABEL: return "unknown function label";
  case DUMPI_ERR_NOMEM: return "out of memory";
  case DUMPI_ERR_NOT_FOUND: return "not found";
  case DUMPI_ERR_INVALID: return "invalid argument";
  default: return "unknown error";
  }
}

int dumpi_set_error(dumpi_error *err, int code, const char *path, uint64_t offset, const char *fmt, ...) {
  if (!err) return code;
  err->code = code;
  err->offset = offset;
  int n = offset == DUMPI_NO_OFFSET ? snprintf(err->message, sizeof err->message, "%s: ", path ? path : "?")
                                    : snprintf(err->message, sizeof err->message,
                                               "%s: offset %llu: ", path ? path : "?", (unsigned long long)offset);
  if (n < 0 || (size_t)n >= sizeof err->message) return code;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
  va_end(ap);
  return code;
}

/* ---- reading what open needs ------------------------------------------ */

/* What open reads of a file: its head (the lead-in magic, the time biases
 * and, given a window of at most OPEN_HEAD_MAX, the stream's first window)
 * and its tail (OPEN_TAIL), where libdumpi writes the index and the
 * sections after the stream (a few KiB); a file little longer than both,
 * or of at most OPEN_WHOLE bytes, whole in one read. What the head holds
 * of the stream becomes the read window's first fill. A section elsewhere
 * is read when it is reached, LOAD_MORE bytes at a time at least. Reads,
 * not a mapping: with thousands of small rank files, mapping each one,
 * its page faults and its unmapping (a TLB shootdown once other threads
 * run) cost more than the reads. */
#define OPEN_WHOLE    (16u << 10)
#define OPEN_TAIL     (8u << 10)
#define OPEN_HEAD_MAX (64u << 10)
#define LOAD_MORE     (4u << 10)
#define LEAD_BYTES    16u          /* the lead-in magic and the time biases */
#define FADVISE_MIN   (256u << 10) /* below, the kernel's readahead covers it */
#define PREFETCH_HEAD (128u << 10) /* dumpi_file_prefetch's least head */

/* What open reads of a file of size bytes opened with a window of
 * win_bytes: [0, *head) and, when *tail is not 0, its last *tail bytes
 * (read_file, dumpi_file_prefetch). */
static void open_ranges(uint64_t size, size_t win_bytes, uint64_t *head, uint64_t *tail) {
  uint64_t n = LEAD_BYTES + (win_bytes <= OPEN_HEAD_MAX ? win_bytes : 0);
  if (size <= OPEN_WHOLE || size <= n + 2 * OPEN_TAIL) {
    *head = size;
    *tail = 0;
  } else {
    *head = n;
    *tail = OPEN_TAIL;
  }
}

/* n bytes at off into buf, or an I/O error naming the first byte missing. */
static int read_at(const dumpi_file *f, uint8_t *buf, size_t n, uint64_t off, dumpi_error *err) {
  size_t have = 0;
  while (have < n) {
    ssize_t k = pread(f->fd, buf + have, n - have, (off_t)(off + have));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0)
      return dumpi_set_error(err, DUMPI_ERR_IO, f->path, off + have, "read: %s",
                             k < 0 ? strerror(errno) : "file shrank while read");
    have += (size_t)k;
  }
  return DUMPI_OK;
}

/* Make file bytes [pos, pos + n) readable at f->map + (pos - f->map_off).
 * Callers have checked that they lie in the file (need(), the index and
 * stream checks); a source's map holds all of it, so only a file reads. */
static __attribute__((noinline)) int load_more(dumpi_file *f, uint64_t pos, uint64_t n, dumpi_error *err);
static inline int load(dumpi_file *f, uint64_t pos, uint64_t n, dumpi_error *err) {
  if (pos >= f->map_off && pos - f->map_off <= f->map_len && n <= f->map_len - (pos - f->map_off)) return DUMPI_OK;
  return load_more(f, pos, n, err);
}

static int load_more(dumpi_file *f, uint64_t pos, uint64_t n, dumpi_error *err) {
  uint64_t len = n > LOAD_MORE ? n : LOAD_MORE;
  if (len > f->size - pos) len = f->size - pos;
  if (len > SIZE_MAX / 2) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, pos, "out of memory");
  uint8_t *m = realloc(f->map, (size_t)len);
  if (!m) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, pos, "out of memory");
  f->map = m;
  f->map_off = pos;
  f->map_len = 0; /* until the read succeeds */
  int rc = read_at(f, m, (size_t)len, pos, err);
  if (!rc) f->map_len = (size_t)len;
  return rc;
}

/* ---- bounded reading of the metadata sections ------------------------- */

typedef struct section {
  dumpi_file *f;
  const char *name;  /* "header", "footer", ... for messages */
  uint64_t pos, end; /* file offsets; end = where the index starts */
  const uint8_t *p;  /* the bytes at pos, once need() has made them readable */
} section;

/* The one bounds check of every read in this file: n more bytes must lie
 * before s->end. Callers pass the full size of what they read next
 * (count × element size computed in 64 bits, counts are ≤ 2^32); those
 * bytes are then at s->p. */
static int need(section *s, uint64_t n, dumpi_error *err) {
  if (s->pos > s->end || s->end - s->pos < n)
    return dumpi_set_error(err, DUMPI_ERR_CORRUPT, s->f->path, s->pos, "%s section needs %llu bytes, %llu left",
                           s->name, (unsigned long long)n,
                           (unsigned long long)(s->pos <= s->end ? s->end - s->pos : 0));
  if (!n) return DUMPI_OK;
  int rc = load(s->f, s->pos, n, err);
  if (rc) return rc;
  s->p = s->f->map + (s->pos - s->f->map_off);
  return DUMPI_OK;
}

static void skip(section *s, uint64_t n) {
  s->p += n;
  s->pos += n;
}

static uint32_t take_u32(section *s) {
  uint32_t v = dumpi_get_u32(s->p);
  skip(s, 4);
  return v;
}

static uint64_t take_u64(section *s) {
  uint64_t v = dumpi_get_u64(s->p);
  skip(s, 8);
  return v;
}

/* Section strings: u16 length + bytes (iodefs.h put_string). */
static int read_string(section *s, char **out, dumpi_error *err) {
  int rc = need(s, 2, err);
  if (rc) return rc;
  uint16_t len = dumpi_get_u16(s->p);
  skip(s, 2);
  if ((rc = need(s, len, err))) return rc;
  char *str = malloc((size_t)len + 1);
  if (!str) return dumpi_set_error(err, DUMPI_ERR_NOMEM, s->f->path, s->pos, "out of memory");
  if (len) memcpy(str, s->p, len);
  str[len] = '\0';
  skip(s, len);
  *out = str;
  return DUMPI_OK;
}

/* u32 count + count × i32 (iodefs.h get32arr). */
static int read_i32_array(section *s, int32_t *n, int32_t **out, dumpi_error *err) {
  int rc = need(s, 4, err);
  if (rc) return rc;
  uint32_t count = take_u32(s);
  /* covers all count elements */
  if ((rc = need(s, (uint64_t)count * 4, err))) return rc;
  int32_t *v = malloc(((size_t)count + 1) * sizeof *v);
  if (!v) return dumpi_set_error(err, DUMPI_ERR_NOMEM, s->f->path, s->pos, "out of memory");
  for (uint32_t i = 0; i < count; i++) v[i] = (int32_t)take_u32(s);
  *n = (int32_t)count;
  *out = v;
  return DUMPI_OK;
}

static section section_at(dumpi_file *f, const char *name, uint64_t off, uint64_t end) {
  section s = {f, name, off, end, NULL};
  return s;
}

/* ---- the sections ------------------------------------------------------ */

static int read_header(dumpi_file *f, uint64_t end, dumpi_error *err) {
  section s = section_at(f, "header", f->off_header, end);
  int rc = need(&s, 3 + 8, err);
  if (rc) return rc;
  memcpy(f->version, s.p, 3);
  skip(&s, 3);
  f->version_num = DUMPI_VERSION(f->version[0], f->version[1], f->version[2]);
  f->start_time = take_u64(&s);
  free(f->hostname);
  free(f->username);
  f->hostname = f->username = NULL;
  if ((rc = read_string(&s, &f->hostname, err)) || (rc = read_string(&s, &f->username, err)) ||
      (rc = read_i32_array(&s, &f->mesh_dim, &f->mesh_coords, err)))
    return rc;
  /* Mesh size follows only when there is a mesh, and only since 0.5
   * (io.c dumpi_read_header); its count repeats mesh_dim. */
  if (f->mesh_dim > 0 && f->version_num >= DUMPI_VERSION(0, 5, 0)) {
    int32_t n = 0;
    if ((rc = read_i32_array(&s, &n, &f->mesh_size, err))) return rc;
    if (n != f->mesh_dim)
      return dumpi_set_error(err, DUMPI_ERR_CORRUPT, f->path, s.pos,
                             "mesh size has %d entries, mesh has %d "
                             "dimensions",
                             (int)n, (int)f->mesh_dim);
  } else if (f->mesh_dim > 0) {
    f->mesh_size = calloc((size_t)f->mesh_dim, sizeof *f->mesh_size);
    if (!f->mesh_size) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, s.pos, "out of memory");
  }
  return DUMPI_OK;
}

static int read_footer(dumpi_file *f, uint64_t end, dumpi_error *err) {
  enum { N = DUMPI_LABEL_ALL_FUNCTIONS + 1 };
  section s = section_at(f, "footer", f->off_footer, end);
  /* covers the magic and both count tables */
  int rc = need(&s, 8 + 2 * 4 * (uint64_t)N, err);
  if (rc) return rc;
  uint64_t magic = take_u64(&s);
  if (magic != DUMPI_FOOT_MAGIC)
    return dumpi_set_error(err, DUMPI_ERR_CORRUPT, f->path, s.pos - 8, "footer magic is 0x%llx, expected 0x%llx",
                           (unsigned long long)magic, (unsigned long long)DUMPI_FOOT_MAGIC);
  f->footer_calls = malloc(2 * N * sizeof(uint32_t));
  if (!f->footer_calls) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, s.pos, "out of memory");
  f->footer_ignored = f->footer_calls + N;
  for (int i = 0; i < N; i++) f->footer_calls[i] = take_u32(&s);
  for (int i = 0; i < N; i++) f->footer_ignored[i] = take_u32(&s);
  return DUMPI_OK;
}

/* Count of a list section, checked against the smallest possible entry so
 * a corrupt count cannot ask for a huge allocation. */
static int read_count(section *s, uint64_t min_entry, uint32_t *count, dumpi_error *err) {
  int rc = need(s, 4, err);
  if (rc) return rc;
  *count = take_u32(s);
  /* covers count × the smallest entry */
  return need(s, (uint64_t)*count * min_entry, err);
}

static int read_keyvals(dumpi_file *f, uint64_t end, dumpi_error *err) {
  section s = section_at(f, "keyval", f->off_keyval, end);
  uint32_t n;
  int rc = read_count(&s, 4, &n, err);
  if (rc) return rc;
  f->keys = calloc((size_t)n + 1, sizeof *f->keys);
  f->values = calloc((size_t)n + 1, sizeof *f->values);
  if (!f->keys || !f->values) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, s.pos, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    f->n_keyvals = i + 1; /* so close() frees what was read */
    if ((rc = read_string(&s, &f->keys[i], err)) || (rc = read_string(&s, &f->values[i], err))) return rc;
  }
  return DUMPI_OK;
}

static int read_perf_labels(dumpi_file *f, uint64_t end, dumpi_error *err) {
  section s = section_at(f, "perf label", f->off_perflbl, end);
  uint32_t n;
  int rc = read_count(&s, 2, &n, err);
  if (rc) return rc;
  f->perf_labels = calloc((size_t)n + 1, sizeof *f->perf_labels);
  if (!f->perf_labels) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, s.pos, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    f->n_perf = i + 1;
    if ((rc = read_string(&s, &f->perf_labels[i], err))) return rc;
  }
  return DUMPI_OK;
}

static int read_functions(dumpi_file *f, uint64_t end, dumpi_error *err) {
  section s = section_at(f, "function address", f->off_addrlbl, end);
  uint32_t n;
  int rc = read_count(&s, 8 + 2, &n, err);
  if (rc) return rc;
  f->fn_addresses = calloc((size_t)n + 1, sizeof *f->fn_addresses);
  f->fn_names = calloc((size_t)n + 1, sizeof *f->fn_names);
  if (!f->fn_addresses || !f->fn_names) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, s.pos, "out of memory");
  for (uint32_t i = 0; i < n; i++) {
    f->n_functions = i + 1;
    if ((rc = need(&s, 8, err))) return rc;
    f->fn_addresses[i] = take_u64(&s);
    if ((rc = read_string(&s, &f->fn_names[i], err))) return rc;
  }
  return DUMPI_OK;
}

static int read_sizes(dumpi_file *f, uint64_t end, dumpi_error *err) {
  section s = section_at(f, "datatype size", f->off_sizelbl, end);
  int32_t n = 0;
  int rc = read_i32_array(&s, &n, &f->type_sizes, err);
  if (rc) return rc;
  f->n_types = n;
  return DUMPI_OK;
}

/* ---- index ------------------------------------------------------------- */

/* The index is the last record: up to 8 u64 entries, the first of them
 * the lead-in magic. Older writers had fewer entries in front (io.c
 * dumpi_open_input_file), so the magic is looked for 8, 7, 6 then 5
 * entries from the end. A file cut inside its index also ends in a magic
 * followed by too few entries, which would shift every offset; libdumpi
 * always writes the body right after the lead-in magic (io.c
 * dumpi_alloc_output_profile), so a candidate counts only if its body
 * entry is 8. A full 8-entry index with another body is returned too, so
 * that damage there is reported instead of silently salvaged.
 * Returns the index length in bytes, 0 if there is none. */
static uint64_t find_index(const dumpi_file *f, uint64_t entries[8]) {
  uint64_t full = 0;
  for (int n = 8; n >= 5; n--) {
    uint64_t len = 8 * (uint64_t)n;
    if (f->size < 8 + len) continue;
    const uint8_t *p = f->map + (f->size - len - f->map_off);
    if (dumpi_get_u64(p) != DUMPI_HEAD_MAGIC) continue;
    memset(entries, 0, 8 * sizeof entries[0]);
    /* right-align: entries[8-n+1 .. 7] */
    for (int i = 1; i < n; i++) entries[8 - n + i] = dumpi_get_u64(p + 8 * i);
    if (entries[5] == 8) return len;
    if (n == 8) full = len;
  }
  if (full) {
    const uint8_t *p = f->map + (f->size - full - f->map_off);
    for (int i = 1; i < 8; i++) entries[i] = dumpi_get_u64(p + 8 * i);
  }
  return full;
}

static int read_index(dumpi_file *f, uint64_t *sections_end, dumpi_error *err) {
  uint64_t e[8], last = f->size < 64 ? f->size : 64;
  int rc = load(f, f->size - last, last, err); /* what open read holds them */
  if (rc) return rc;
  uint64_t index_len = find_index(f, e);
  uint64_t limit = f->size - index_len;
  *sections_end = limit;
  if (!index_len) {
    /* Rank killed mid-run: no index, no header or footer. Salvage the
     * stream, which starts right after the lead-in magic. */
    f->has_index = 0;
    f->off_body = 8;
    f->stream_end = f->size;
    return DUMPI_OK;
  }
  f->has_index = 1;
  f->off_sizelbl = e[1];
  f->off_addrlbl = e[2];
  f->off_perflbl = e[3];
  f->off_header = e[4];
  f->off_body = e[5];
  f->off_footer = e[6];
  f->off_keyval = e[7];
  static const char *const names[8] = {"magic",  "datatype size", "function address", "perf label",
                                       "header", "body",          "footer",           "keyval"};
  for (int i = 1; i < 8; i++)
    if (e[i] != 0 && (e[i] < 8 || e[i] >= limit))
      return dumpi_set_error(err, DUMPI_ERR_CORRUPT, f->path, limit + index_len - 8 * (uint64_t)(8 - i),
                             "index: %s offset %llu outside the file "
                             "(8..%llu)",
                             names[i], (unsigned long long)e[i], (unsigned long long)limit);
  if (f->off_body == 0)
    return dumpi_set_error(err, DUMPI_ERR_CORRUPT, f->path, f->size - index_len, "index has no body offset");
  /* The stream runs up to the first section written after it. */
  f->stream_end = limit;
  for (int i = 1; i < 8; i++)
    if (e[i] > f->off_body && e[i] < f->stream_end) f->stream_end = e[i];
  return DUMPI_OK;
}

/* ---- open / close ------------------------------------------------------ */

/* The file's first bytes as open read them: *own (allocated) or, when
 * NULL, f->map from offset 0 (a file read whole, a source). */
typedef struct head {
  uint8_t *own;
  size_t len;
} head;

static const uint8_t *head_bytes(const dumpi_file *f, const head *h) {
  return h->own ? h->own : f->map;
}

/* Open the file and read what open needs of it (see OPEN_WHOLE): *h its
 * head, f->map the whole file or its tail. */
static int read_file(dumpi_file *f, head *h, dumpi_error *err) {
  /* O_NONBLOCK: a FIFO would block open() until a writer came; it fails
   * the regular-file test instead. No effect on regular files. */
  int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    /* Out of descriptors: say what to change. */
    struct rlimit rl;
    if (e == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
      return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET,
                             "open: %s (the limit is %llu: raise it with "
                             "'ulimit -n')",
                             strerror(e), (unsigned long long)rl.rlim_cur);
    return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET, "open: %s", strerror(e));
  }
  f->fd = fd; /* closed with f from here on */
  struct stat st;
  if (fstat(fd, &st) != 0)
    return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET, "stat: %s", strerror(errno));
  if (!S_ISREG(st.st_mode)) return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET, "not a regular file");
  f->dev = (uint64_t)st.st_dev;
  f->ino = (uint64_t)st.st_ino;
  f->size = (uint64_t)st.st_size;
  if (f->size < 8)
    return dumpi_set_error(err, DUMPI_ERR_NOT_DUMPI, f->path, 0, "%llu bytes, too short for a DUMPI trace",
                           (unsigned long long)f->size);
  uint64_t n, tail;
  open_ranges(f->size, f->win_bytes, &n, &tail);
  if (!tail) {
    int rc = load(f, 0, f->size, err);
    if (!rc) h->len = f->map_len;
    return rc;
  }
  if (!(h->own = malloc((size_t)n)))
    return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, DUMPI_NO_OFFSET, "out of memory");
  int rc = read_at(f, h->own, (size_t)n, 0, err);
  if (!rc) h->len = (size_t)n;
  if (!rc) rc = load(f, f->size - tail, tail, err);
  if (!rc && f->size >= FADVISE_MIN) posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return rc;
}

void dumpi_file_prefetch(const char *path, size_t window) {
  if (!path) return;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return;
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    uint64_t head, tail, size = (uint64_t)st.st_size;
    open_ranges(size, window ? window : 1, &head, &tail);
    /* The stream's start too, as the kernel reads ahead of a first read
     * (128 KiB by default): the reads right after the open need it. */
    if (head < PREFETCH_HEAD) head = size < PREFETCH_HEAD ? size : PREFETCH_HEAD;
    posix_fadvise(fd, 0, (off_t)head, POSIX_FADV_WILLNEED);
    if (tail) posix_fadvise(fd, (off_t)(size - tail), (off_t)tail, POSIX_FADV_WILLNEED);
  }
  close(fd);
}

/* A file from the page cache opens in microseconds, one from storage
 * waits for its reads (the head, the tail) in turn, an order of magnitude
 * longer. One slow open is no sign: the first (the reader's set-up), the
 * one that grows the descriptor table, one the scheduler preempted. So
 * the hints start after SLOW_OPENS opens in a row of SLOW_OPEN_NS each,
 * and keep OPEN_AHEAD files hinted ahead, enough for the device to serve
 * many reads at once. */
#define SLOW_OPEN_NS 50000
#define SLOW_OPENS   8u
#define OPEN_AHEAD   64u

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

void dumpi_read_ahead_init(dumpi_read_ahead *a, const dumpi_meta *meta, uint32_t last, size_t window) {
  *a = (dumpi_read_ahead){.meta = meta, .window = window, .last = last, .hinted = UINT32_MAX};
}

void dumpi_read_ahead_before(dumpi_read_ahead *a, uint32_t rank) {
  if (a->hinted == UINT32_MAX) {
    a->start_ns = now_ns();
    return;
  }
  for (; a->hinted < a->last && a->hinted <= rank + OPEN_AHEAD; a->hinted++)
    dumpi_file_prefetch(dumpi_meta_bin_path(a->meta, (int)a->hinted), a->window);
}

void dumpi_read_ahead_after(dumpi_read_ahead *a, uint32_t rank) {
  if (a->hinted != UINT32_MAX) return;
  a->slow = now_ns() - a->start_ns >= SLOW_OPEN_NS ? a->slow + 1 : 0;
  if (a->slow == SLOW_OPENS) a->hinted = rank + 1;
}

int dumpi_file_reopen(dumpi_file *f, dumpi_error *err) {
  int fd = open(f->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    struct rlimit rl;
    if (e == EMFILE && getrlimit(RLIMIT_NOFILE, &rl) == 0)
      return dumpi_set_error(err, DUMPI_ERR_IO, f->path, f->pos,
                             "open: %s (the limit is %llu even with one rank file "
                             "open at a time: raise it with 'ulimit -n')",
                             strerror(e), (unsigned long long)rl.rlim_cur);
    return dumpi_set_error(err, DUMPI_ERR_IO, f->path, f->pos, "open: %s", strerror(e));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != f->dev || (uint64_t)st.st_ino != f->ino) {
    close(fd);
    return dumpi_set_error(err, DUMPI_ERR_IO, f->path, f->pos, "the file was replaced while it was read");
  }
  return fd;
}

void dumpi_file_set_transient(dumpi_file *f, int on) {
  f->transient = on != 0 && !f->src.read; /* a source holds no descriptor */
  if (f->transient && f->fd >= 0) {
    close(f->fd);
    f->fd = -1;
  }
}

/* The bytes of a file the caller supplies: anonymous memory, untouched
 * (so not resident) where the stream lies. */
static int map_source(dumpi_file *f, const dumpi_source *src, head *h, dumpi_error *err) {
  f->size = src->size;
  if (f->size < 8)
    return dumpi_set_error(err, DUMPI_ERR_NOT_DUMPI, f->path, 0, "%llu bytes, too short for a DUMPI trace",
                           (unsigned long long)f->size);
  if (f->size > SIZE_MAX / 2) return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, DUMPI_NO_OFFSET, "out of memory");
  void *m = mmap(NULL, (size_t)f->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET, "mmap: %s", strerror(errno));
  f->map = m;
  f->map_off = 0;
  f->map_len = (size_t)f->size;
  int e = src->fill(src->ctx, m);
  if (e < 0) return dumpi_set_error(err, DUMPI_ERR_IO, f->path, DUMPI_NO_OFFSET, "read: %s", strerror(-e));
  h->len = f->map_len;
  return DUMPI_OK;
}

/* Let go of what open read: a file's bytes, a source's mapping. */
static void drop_map(dumpi_file *f) {
  if (f->map && f->src.read)
    munmap(f->map, f->map_len);
  else
    free(f->map);
  f->map = NULL;
  f->map_off = 0;
  f->map_len = 0;
}

static int open_file(const char *path, const dumpi_source *src, size_t window, dumpi_file **out, dumpi_error *err);

int dumpi_file_open(const char *path, dumpi_file **out, dumpi_error *err) {
  return open_file(path, NULL, 0, out, err);
}

int dumpi_file_open_window(const char *path, size_t window, dumpi_file **out, dumpi_error *err) {
  return open_file(path, NULL, window ? window : 1, out, err);
}

int dumpi_file_open_source(const char *path, const dumpi_source *src, dumpi_file **out, dumpi_error *err) {
  if (!src || !src->fill || !src->read) {
    if (out) *out = NULL;
    if (src && src->close) src->close(src->ctx);
    return dumpi_set_error(err, DUMPI_ERR_INVALID, path, DUMPI_NO_OFFSET, "dumpi_file_open_source: NULL argument");
  }
  return open_file(path, src, 0, out, err);
}

void dumpi_file_stream_range(const dumpi_file *f, uint64_t *begin, uint64_t *end) {
  *begin = f->stream_begin;
  *end = f->stream_end;
}

static int open_file(const char *path, const dumpi_source *src, size_t window, dumpi_file **out, dumpi_error *err) {
  if (!path || !out)
    return dumpi_set_error(err, DUMPI_ERR_INVALID, path, DUMPI_NO_OFFSET, "dumpi_file_open: NULL argument");
  *out = NULL;
  dumpi_stream_init();
  dumpi_file *f = calloc(1, sizeof *f);
  if (!f || !(f->path = strdup(path))) {
    free(f);
    if (src && src->close) src->close(src->ctx);
    return dumpi_set_error(err, DUMPI_ERR_NOMEM, path, DUMPI_NO_OFFSET, "out of memory");
  }
  f->fd = -1;
  f->win_bytes = window;
  /* Without a header, decode by the latest rules (statuses with tags). */
  f->version_num = DUMPI_VERSION(255, 255, 255);
  if (src) f->src = *src; /* closed with f from here on */
  head h = {NULL, 0};
  int rc = src ? map_source(f, src, &h, err) : read_file(f, &h, err);
  if (!rc && dumpi_get_u64(head_bytes(f, &h)) != DUMPI_HEAD_MAGIC)
    rc = dumpi_set_error(err, DUMPI_ERR_NOT_DUMPI, path, 0, "no DUMPI lead-in magic (ff aa dd 'DUMPI')");
  uint64_t limit = 0; /* sections end where the index starts */
  if (!rc) rc = read_index(f, &limit, err);
  if (!rc && f->has_index) {
    if (f->off_header) rc = read_header(f, limit, err);
    if (!rc && f->off_footer) rc = read_footer(f, limit, err);
    if (!rc && f->off_keyval) rc = read_keyvals(f, limit, err);
    if (!rc && f->off_perflbl) rc = read_perf_labels(f, limit, err);
    if (!rc && f->off_addrlbl) rc = read_functions(f, limit, err);
    if (!rc && f->off_sizelbl) rc = read_sizes(f, limit, err);
  }
  if (!rc) {
    /* Stream start: the two time biases (io.c dumpi_start_stream_read). */
    if (f->off_body > f->stream_end || f->stream_end - f->off_body < 8)
      rc = dumpi_set_error(err, f->has_index ? DUMPI_ERR_CORRUPT : DUMPI_ERR_TRUNCATED, path, f->off_body,
                           "stream section too short for its time biases");
  }
  int in_head = f->off_body + 8 <= h.len;
  if (!rc && !in_head) rc = load(f, f->off_body, 8, err);
  if (rc) {
    free(h.own);
    dumpi_file_close(f);
    return rc;
  }
  const uint8_t *biases = in_head ? head_bytes(f, &h) + f->off_body : f->map + (f->off_body - f->map_off);
  f->cpu_bias = (int32_t)dumpi_get_u32(biases);
  f->wall_bias = (int32_t)dumpi_get_u32(biases + 4);
  f->stream_begin = f->off_body + 8;
  /* The status tag was added in 0.6.3 (iodefs.h get_statuses). */
  f->status_has_tag = f->version_num >= DUMPI_VERSION(0, 6, 3);
  /* Per argument, the decoder tests its flags against this one byte. */
  f->arg_special = DUMPI_ARGF_ROOT_ONLY;
  if (f->version_num < DUMPI_VERSION(0, 6, 9)) f->arg_special |= DUMPI_ARGF_SCALAR_BEFORE_0_6_9;
  if (f->version_num < DUMPI_VERSION(0, 6, 8)) f->arg_special |= DUMPI_ARGF_SCALAR_BEFORE_0_6_8;
  /* The stream's first bytes the head holds are the window's first fill
   * (a source's map holds no stream bytes). */
  if (!src && f->stream_begin < h.len) {
    uint64_t end = f->stream_end < h.len ? f->stream_end : h.len;
    dumpi_file_seed_window(f, head_bytes(f, &h) + f->stream_begin, (size_t)(end - f->stream_begin));
  }
  /* Everything the sections hold has been copied out, and the stream is
   * read through f->fd (or the source). */
  free(h.own);
  drop_map(f);
  dumpi_file_rewind(f);
  *out = f;
  return DUMPI_OK;
}

static void free_strings(char **v, size_t n) {
  if (!v) return;
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

void dumpi_file_close(dumpi_file *f) {
  if (!f) return;
  drop_map(f);
  if (f->fd >= 0) close(f->fd);
  if (f->src.close) f->src.close(f->src.ctx);
  free(f->win);
  free(f->sticky);
  free(f->path);
  free(f->hostname);
  free(f->username);
  free(f->mesh_coords);
  free(f->mesh_size);
  free(f->footer_calls);
  free_strings(f->keys, f->n_keyvals);
  free_strings(f->values, f->n_keyvals);
  free_strings(f->perf_labels, f->n_perf);
  free(f->fn_addresses);
  free_strings(f->fn_names, f->n_functions);
  free(f->type_sizes);
  dumpi_arena_free(&f->arena);
  free(f);
}

/* ---- accessors --------------------------------------------------------- */

const char *dumpi_file_path(const dumpi_file *f) {
  return f->path;
}
uint64_t dumpi_file_size(const dumpi_file *f) {
  return f->size;
}
uint64_t dumpi_file_stream_bytes(const dumpi_file *f) {
  return f->stream_end - f->off_body;
}
int dumpi_file_identity(const dumpi_file *f, uint64_t *dev, uint64_t *ino) {
  *dev = f->dev;
  *ino = f->ino;
  return !f->src.read;
}
int dumpi_file_has_index(const dumpi_file *f) {
  return f->has_index;
}

void dumpi_file_version(const dumpi_file *f, uint8_t version[3]) {
  memcpy(version, f->version, 3);
}
uint64_t dumpi_file_start_time(const dumpi_file *f) {
  return f->start_time;
}
const char *dumpi_file_hostname(const dumpi_file *f) {
  return f->hostname ? f->hostname : "";
}
const char *dumpi_file_username(const dumpi_file *f) {
  return f->username ? f->username : "";
}
int32_t dumpi_file_mesh(const dumpi_file *f, const int32_t **coords, const int32_t **size) {
  if (coords) *coords = f->mesh_coords;
  if (size) *size = f->mesh_size;
  return f->mesh_dim;
}
int32_t dumpi_file_wall_bias(const dumpi_file *f) {
  return f->wall_bias;
}
int32_t dumpi_file_cpu_bias(const dumpi_file *f) {
  return f->cpu_bias;
}

int dumpi_file_footer_counts(const dumpi_file *f, const uint32_t **calls, const uint32_t **ignored) {
  if (calls) *calls = f->footer_calls;
  if (ignored) *ignored = f->footer_ignored;
  return f->footer_calls ? DUMPI_LABEL_ALL_FUNCTIONS + 1 : 0;
}

void dumpi_file_drop_footer(dumpi_file *f) {
  free(f->footer_calls);
  f->footer_calls = f->footer_ignored = NULL;
}

size_t dumpi_file_n_keyvals(const dumpi_file *f) {
  return f->n_keyvals;
}
int dumpi_file_keyval(const dumpi_file *f, size_t i, const char **key, const char **value) {
  if (i >= f->n_keyvals) return DUMPI_ERR_INVALID;
  if (key) *key = f->keys[i];
  if (value) *value = f->values[i];
  return DUMPI_OK;
}

size_t dumpi_file_n_perf_labels(const dumpi_file *f) {
  return f->n_perf;
}
const char *dumpi_file_perf_label(const dumpi_file *f, size_t i) {
  return i < f->n_perf ? f->perf_labels[i] : NULL;
}

size_t dumpi_file_n_functions(const dumpi_file *f) {
  return f->n_functions;
}
int dumpi_file_function(const dumpi_file *f, size_t i, uint64_t *address, const char **name) {
  if (i >= f->n_functions) return DUMPI_ERR_INVALID;
  if (address) *address = f->fn_addresses[i];
  if (name) *name = f->fn_names[i];
  return DUMPI_OK;
}
const char *dumpi_file_function_name(const dumpi_file *f, uint64_t address) {
  for (size_t i = 0; i < f->n_functions; i++)
    if (f->fn_addresses[i] == address) return f->fn_names[i];
  return NULL;
}

int32_t dumpi_file_datatype_size(const dumpi_file *f, int32_t datatype) {
  if (datatype < 0 || datatype >= f->n_types) return -1;
  return f->type_sizes[datatype];
}
int32_t dumpi_file_n_datatypes(const dumpi_file *f) {
  return f->n_types;
}
