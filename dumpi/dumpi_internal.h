/* SPDX-License-Identifier: MIT */
/* dumpi_internal.h - shared by dumpi_file.c (sections) and dumpi_stream.c
 * (call records). Not for consumers: use dumpi.h.
 */
#ifndef SLOG2_DUMPI_INTERNAL_H
#define SLOG2_DUMPI_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "dumpi.h"

/* Lead-in magic, first 8 bytes of every .bin and first entry of the index
 * record: {0xff, 0xaa, 0xdd, 'D', 'U', 'M', 'P', 'I'} (sst-dumpi io.c
 * DUMPI_HEAD_MAGIC). Footer magic: io.c DUMPI_FOOT_MAGIC, a u64. */
#define DUMPI_HEAD_MAGIC UINT64_C(0xffaadd44554d5049)
#define DUMPI_FOOT_MAGIC UINT64_C(0x00000000f007fee7)

/* Everything on disk is big-endian (iodefs.h uses htons/htonl; 64-bit
 * values as high then low 32-bit word). Built byte by byte so no
 * alignment or host order is assumed. */
static inline uint16_t dumpi_get_u16(const uint8_t *p) {
  return (uint16_t)((unsigned)p[0] << 8 | p[1]);
}
static inline uint32_t dumpi_get_u32(const uint8_t *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline uint64_t dumpi_get_u64(const uint8_t *p) {
  return (uint64_t)dumpi_get_u32(p) << 32 | dumpi_get_u32(p + 4);
}

/* Version as one comparable number: 0x00MMmmss. */
#define DUMPI_VERSION(a, b, c) ((uint32_t)(a) << 16 | (uint32_t)(b) << 8 | (c))

/* Scratch memory for one record's argument values: a list of chunks that
 * is rewound (not freed) before each record, so decoding allocates only
 * while the arena grows to the largest record seen. */
typedef struct dumpi_arena_chunk {
  struct dumpi_arena_chunk *next;
  size_t cap;
  _Alignas(16) unsigned char data[];
} dumpi_arena_chunk;

/* What is filled, and the room, are the arena's, not the chunk's: a
 * rewind touches no chunk (with thousands of ranks each one's chunk is
 * a cache miss, and most records allocate nothing). */
typedef struct dumpi_arena {
  dumpi_arena_chunk *head; /* first chunk, kept for the file's lifetime */
  dumpi_arena_chunk *cur;  /* chunk being filled */
  size_t used, cap;        /* of cur */
  size_t head_cap;
} dumpi_arena;

/* The next chunk or a new one, for n bytes (a multiple of 16). */
void *dumpi_arena_grow(dumpi_arena *a, size_t n);
/* n bytes aligned to 16, valid until the next reset; NULL when out of
 * memory. The common case, room in the current chunk, is inline: records
 * with arrays call this once per array. */
static inline void *dumpi_arena_alloc(dumpi_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  dumpi_arena_chunk *c = a->cur;
  if (c && a->cap - a->used >= n) {
    void *p = c->data + a->used;
    a->used += n;
    return p;
  }
  return dumpi_arena_grow(a, n);
}
void dumpi_arena_reset(dumpi_arena *a);
void dumpi_arena_free(dumpi_arena *a);

/* Undo the 16-bit wrap of stored seconds (the clock "rolls over every
 * 18 hours", seed 001 OAQ 4): the stream is in time order, so a stored
 * value far below the last one means the counter wrapped. */
typedef struct dumpi_unwrap {
  int64_t base; /* multiple of 65536 added to stored seconds */
  int64_t last; /* largest unwrapped seconds seen */
} dumpi_unwrap;

struct dumpi_file {
  char *path;
  /* Open only: file bytes [map_off, map_off + map_len) the sections are
   * read from (dumpi_file.c load()): a small file whole, else its tail,
   * and a source's whole file as an anonymous mapping (map_source()). */
  uint8_t *map;
  uint64_t map_off;
  size_t map_len;
  uint64_t size;
  int has_index;

  /* index record (T.8); 0 = section absent */
  uint64_t off_header, off_body, off_footer, off_keyval;
  uint64_t off_perflbl, off_addrlbl, off_sizelbl;

  /* header (T.2) */
  uint8_t version[3];
  uint32_t version_num; /* DUMPI_VERSION(); latest rules if no header */
  uint8_t arg_special;  /* DUMPI_ARGF_* an argument needs more than its
                           * type's decoding for, in this file's version */
  uint64_t start_time;
  char *hostname, *username;
  int32_t mesh_dim;
  int32_t *mesh_coords, *mesh_size;

  /* footer (T.3) */
  uint32_t *footer_calls, *footer_ignored; /* NULL when absent */

  /* keyvals (T.4), perf labels (T.6), function names (T.7) */
  size_t n_keyvals;
  char **keys, **values;
  size_t n_perf;
  char **perf_labels;
  size_t n_functions;
  uint64_t *fn_addresses;
  char **fn_names;

  /* datatype sizes */
  int32_t n_types;
  int32_t *type_sizes;

  /* stream (T.1) */
  int32_t cpu_bias, wall_bias;
  uint64_t stream_begin; /* first record (after the two biases) */
  uint64_t stream_end;   /* end of the stream section */
  uint64_t pos;          /* next record */
  /* The stream is decoded from a window read with pread(), not from the
   * mapping: a mapping's resident pages follow the kernel's page-cache
   * folios (2 MiB at a time on Linux 6 with ext4), so only a window gives
   * a resident input size fixed per rank. win holds file bytes
   * [win_off, win_off + win_len), never past stream_end. */
  int fd;            /* -1 between reads when transient */
  int transient;     /* dumpi_file_set_transient */
  uint64_t dev, ino; /* the file opened first: a reopen must find it */
  uint8_t *win;
  size_t win_cap, win_len;
  uint64_t win_off;
  uint64_t win_need;   /* overrun(): bytes the record needs from its start */
  uint64_t refill_at;  /* next_record() refills the window once pos reaches
                           * this: one test a record (0: not filled yet) */
  size_t win_bytes;    /* read-ahead size (dumpi_file_set_window) */
  int skip_cpu;        /* dumpi_file_skip_cpu_times */
  int64_t wall_offset; /* dumpi_file_set_wall_offset */
  int status_has_tag;  /* version >= 0.6.3 */
  int state;           /* 0 reading, 1 ended, <0 sticky error */
  dumpi_error *sticky; /* the error repeated after a failure (out of line: rare);
                          NULL then when out of memory for it */
  dumpi_unwrap wall_wrap, cpu_wrap;
  dumpi_arena arena;
  dumpi_source src; /* dumpi_file_open_source; src.read NULL otherwise */
};

/* Work out the per-label argument walk (dumpi_stream.c); called by
 * dumpi_file_open before any record is decoded, idempotent. */
void dumpi_stream_init(void);

/* The window's first fill from bytes open read: n bytes of the stream
 * from its first record on (a window's worth when they are more than two
 * windows). */
void dumpi_file_seed_window(dumpi_file *f, const uint8_t *bytes, size_t n);

/* A descriptor for a transient file's next read (dumpi_file.c): the
 * file at f->path again, checked to be the one opened first; a negative
 * dumpi_code, *err filled, when it cannot be. */
int dumpi_file_reopen(dumpi_file *f, dumpi_error *err);

/* Fill *err (may be NULL) with code, offset and "path: offset N: msg". */
int dumpi_set_error(dumpi_error *err, int code, const char *path, uint64_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

#endif /* SLOG2_DUMPI_INTERNAL_H */
