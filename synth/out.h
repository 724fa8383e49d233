/* SPDX-License-Identifier: MIT */
/* out.h - buffered big-endian output file for slog2-synth.
 *
 * Every DUMPI value is big-endian ("network order", dumpi/common/iodefs.h
 * put16/put32/put64), so the sink offers only put_be*() helpers built byte by
 * byte; no host struct ever reaches the file. Bytes collect in one buffer that
 * goes to the kernel with large write(2) calls. The file is written under a
 * temporary name and renamed into place by synth_out_commit(), so a reader
 * never sees a half-written trace.
 *
 * Sinks may share a descriptor pool (synth_fdpool) that keeps at most a
 * given number of them open: a run with more ranks than the process may
 * open files closes the least recently written sink's file and opens it
 * again (O_APPEND) at its next flush. The bytes are the same either way;
 * only the system calls differ.
 *
 * A sink opened with synth_out_open_counter() writes nothing and only counts
 * bytes (used to calibrate --size).
 */
#ifndef SLOG2_SYNTH_OUT_H
#define SLOG2_SYNTH_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct synth_out synth_out;

typedef struct synth_fdpool {
  size_t cap;       /* at most this many sinks hold a descriptor */
  size_t open;      /* how many do */
  synth_out *older; /* least recently flushed open sink */
  synth_out *newer; /* most recently flushed open sink */
} synth_fdpool;

/* A pool of at most cap descriptors (>= 1). */
void synth_fdpool_init(synth_fdpool *p, size_t cap);

struct synth_out {
  int fd;    /* -1 for a counting sink, or a file whose descriptor the pool
                closed */
  bool file; /* writes to tmp_path (else counts only) */
  uint8_t *buf;
  size_t cap;
  size_t len;
  uint64_t flushed; /* bytes already handed to write(2) */
  int err;          /* first errno seen, 0 if none */
  char *tmp_path;
  char *final_path;
  synth_fdpool *pool;       /* NULL: the descriptor stays open */
  synth_out *older, *newer; /* the pool's list of open sinks */
};

/* Creates "<path>.tmp.<pid>" for writing; buffer of buf_size bytes. With a
 * pool, its descriptor counts against the pool's cap. Returns 0 or an errno
 * value. */
int synth_out_open(synth_out *o, const char *path, size_t buf_size, synth_fdpool *pool);
/* A sink that discards bytes but keeps synth_out_tell() exact. */
int synth_out_open_counter(synth_out *o, size_t buf_size);
/* Writes the buffer out (no-op for a counting sink). */
void synth_out_flush(synth_out *o);
/* Flushes and closes the temporary file (fsyncs nothing: a generator need
 * not), which stays under its temporary name. Returns 0 or the first errno
 * value the sink met. */
int synth_out_close(synth_out *o);
/* synth_out_close(), then renames the temporary file to its final name.
 * Returns 0 or an errno value; on error the temporary file is removed.
 * Always frees the sink's memory. */
int synth_out_commit(synth_out *o);
/* Closes and removes the temporary file; frees memory. */
void synth_out_discard(synth_out *o);

static inline uint64_t synth_out_tell(const synth_out *o)
{
  return o->flushed + o->len;
}

/* Room for n more bytes; flushes first when the buffer is too full. Every
 * put helper reserves its own bytes, and the record encoder reserves a whole
 * record's worth at once for speed. */
static inline uint8_t *synth_out_reserve(synth_out *o, size_t n)
{
  if (o->len + n > o->cap) synth_out_flush(o);
  return o->buf + o->len;
}

static inline void put_be8(synth_out *o, uint8_t v)
{
  uint8_t *p = synth_out_reserve(o, 1);
  p[0] = v;
  o->len += 1;
}

static inline void put_be16(synth_out *o, uint16_t v)
{
  uint8_t *p = synth_out_reserve(o, 2);
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
  o->len += 2;
}

static inline void put_be32(synth_out *o, uint32_t v)
{
  uint8_t *p = synth_out_reserve(o, 4);
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
  o->len += 4;
}

static inline void put_be64(synth_out *o, uint64_t v)
{
  put_be32(o, (uint32_t)(v >> 32));
  put_be32(o, (uint32_t)v);
}

/* Raw bytes; n may exceed the buffer size. */
void put_bytes(synth_out *o, const void *p, size_t n);

#endif
