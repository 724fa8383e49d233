/* SPDX-License-Identifier: MIT */
/* dumpi_stream.c - the call stream (T.1): one walk over the function table
 * decodes every record kind.
 *
 * Record layout (sst-dumpi common/iodefs.h STARTREAD, seed 001 T.1):
 *   u16 label                 DUMPI_END_OF_STREAM ends the stream
 *   u8  mask                  DUMPI_MASK_* (status 0x03, cpu 0x04,
 *                             wall 0x08, thread 0x40, perf 0x80)
 *   u16 thread                if mask & 0x40
 *   cpu  (u16 s, u32 ns) ×2   if mask & 0x04: entry, exit; s + cpu bias
 *   wall (u16 s, u32 ns) ×2   if mask & 0x08: entry, exit; s + wall bias
 *   u8 n, n × (u64 in, u64 out)  if mask & 0x80
 *   arguments                 in table order, see read_scalar() and
 *                             decode_general()
 */
#include "dumpi_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- arena ------------------------------------------------------------- */

/* Chunks start small and double up to ARENA_CHUNK: most ranks' records
 * carry a few short arrays at most, and a 64 KiB first chunk per file was
 * 64 MiB for a thousand ranks (for MPI_Init's argv). */
enum { ARENA_FIRST = 256, ARENA_CHUNK = 64 * 1024 };

void *dumpi_arena_grow(dumpi_arena *a, size_t n) {
  dumpi_arena_chunk *c = a->cur;
  /* Next kept chunk if big enough, else a new one after the current. */
  while (c && c->next) {
    c = c->next;
    if (c->cap >= n) {
      a->cur = c;
      a->used = n;
      a->cap = c->cap;
      return c->data;
    }
  }
  size_t cap = c ? 2 * c->cap : ARENA_FIRST;
  if (cap > ARENA_CHUNK) cap = ARENA_CHUNK;
  if (cap < n) cap = n;
  dumpi_arena_chunk *nc = malloc(sizeof *nc + cap);
  if (!nc) return NULL;
  nc->cap = cap;
  nc->next = NULL;
  if (c) {
    c->next = nc;
  } else {
    a->head = nc;
    a->head_cap = cap;
  }
  a->cur = nc;
  a->used = n;
  a->cap = cap;
  return nc->data;
}

void dumpi_arena_reset(dumpi_arena *a) {
  a->cur = a->head;
  a->used = 0;
  a->cap = a->head_cap;
}

void dumpi_arena_free(dumpi_arena *a) {
  dumpi_arena_chunk *c = a->head;
  while (c) {
    dumpi_arena_chunk *next = c->next;
    free(c);
    c = next;
  }
  a->head = a->cur = NULL;
  a->used = a->cap = a->head_cap = 0;
}

/* ---- decoding ---------------------------------------------------------- */

static void set_refill(dumpi_file *f);

void dumpi_file_rewind(dumpi_file *f) {
  f->pos = f->stream_begin;
  f->state = 0;
  if (f->win && f->win_len && f->win_off == f->stream_begin) {
    /* The window still holds the stream's start (a look at the first
     * records, as the build's sample takes): read on from it, not again. */
    set_refill(f);
  } else {
    f->win_off = f->pos;
    f->win_len = 0;
    f->refill_at = 0;
  }
  memset(&f->wall_wrap, 0, sizeof f->wall_wrap);
  memset(&f->cpu_wrap, 0, sizeof f->cpu_wrap);
}

/* Decoding state of one record. */
typedef struct reader {
  dumpi_file *f;
  const uint8_t *p, *end;
  dumpi_error *err;
} reader;

/* Not an error: the record needs bytes beyond the read window, which does
 * not reach the end of the stream yet; dumpi_file_next widens it and
 * decodes the record again. */
#define WINDOW_SHORT 2 /* distinct from 1 (record) and 0 (end) */
/* decode_general(): the argument is not on the stream (not an error). */
#define ARG_ABSENT   3

/* A read that would run past the window: WINDOW_SHORT while the bytes are
 * in the stream. Past the stream, with no index the file was cut (rank
 * killed) and this is the distinct TRUNCATED code; with an index the
 * record overruns into the sections after the stream. */

static int overrun(reader *r, uint64_t record, uint64_t n) {
  dumpi_file *f = r->f;
  uint64_t at = f->win_off + (uint64_t)(r->p - f->win);
  if (at + n <= f->stream_end) {
    f->win_need = at + n - record;
    return WINDOW_SHORT;
  }
  if (!f->has_index)
    return dumpi_set_error(r->err, DUMPI_ERR_TRUNCATED, f->path, record,
                           "stream cut inside the record starting here "
                           "(needs %llu bytes at offset %llu, file ends at "
                           "%llu)",
                           (unsigned long long)n, (unsigned long long)at, (unsigned long long)f->size);
  return dumpi_set_error(r->err, DUMPI_ERR_CORRUPT, f->path, record,
                         "record runs past the end of the stream section "
                         "(needs %llu bytes at offset %llu, section ends at "
                         "%llu)",
                         (unsigned long long)n, (unsigned long long)at, (unsigned long long)f->stream_end);
}

/* The one bounds check of every read in the stream: n bytes must be left
 * before the end of the stream section. n is computed in 64 bits from
 * u32 counts times small element sizes, so it cannot overflow. */
#define NEED(r, n)                                                                                 \
  do {                                                                                             \
    if ((uint64_t)((r)->end - (r)->p) < (uint64_t)(n)) return overrun((r), record, (uint64_t)(n)); \
  } while (0)

#define NOMEM(r) dumpi_set_error((r)->err, DUMPI_ERR_NOMEM, (r)->f->path, record, "out of memory decoding record")

static inline uint32_t rd32(reader *r) {
  uint32_t v = dumpi_get_u32(r->p);
  r->p += 4;
  return v;
}

static int64_t unwrap(dumpi_unwrap *w, uint16_t stored, int32_t bias) {
  int64_t v = w->base + stored + (int64_t)bias;
  if (v + 32768 < w->last) {
    w->base += 65536;
    v += 65536;
  }
  if (v > w->last) w->last = v;
  return v;
}

/* Time pair at r->p: (u16 s, u32 ns) entry, then exit. Inlined: every
 * record has one, and the call was a large part of a record's decoding. */
static inline __attribute__((always_inline)) void read_times(reader *r, dumpi_unwrap *w, int32_t bias, int64_t *start,
                                                             int64_t *stop) {
  const uint8_t *p = r->p;
  *start = unwrap(w, dumpi_get_u16(p), bias) * 1000000000 + dumpi_get_u32(p + 2);
  *stop = unwrap(w, dumpi_get_u16(p + 6), bias) * 1000000000 + dumpi_get_u32(p + 8);
  r->p += 12;
}

/* u32 length + bytes → NUL-terminated copy in the arena. */
static int read_string(reader *r, uint64_t record, const char **out) {
  NEED(r, 4);
  uint32_t len = rd32(r);
  NEED(r, len);
  char *s = dumpi_arena_alloc(&r->f->arena, (size_t)len + 1);
  if (!s) return NOMEM(r);
  memcpy(s, r->p, len);
  s[len] = '\0';
  r->p += len;
  *out = s;
  return DUMPI_OK;
}

/* u32 count + count strings. */
static int read_strings(reader *r, uint64_t record, uint32_t count, dumpi_value *v) {
  /* covers the length word of every string */
  NEED(r, (uint64_t)count * 4);
  const char **list = dumpi_arena_alloc(&r->f->arena, ((size_t)count + 1) * sizeof *list);
  if (!list) return NOMEM(r);
  for (uint32_t i = 0; i < count; i++) {
    int rc = read_string(r, record, &list[i]);
    if (rc) return rc;
  }
  list[count] = NULL;
  v->i = count;
  v->p = list;
  return DUMPI_OK;
}

/* u32 count + count elements of `width` bytes → int32_t array. */
static inline __attribute__((always_inline)) int read_int_array(reader *r, uint64_t record, int width, int is_signed,
                                                                dumpi_value *v) {
  NEED(r, 4);
  uint32_t count = rd32(r);
  /* covers all elements */
  NEED(r, (uint64_t)count * (uint64_t)width);
  v->i = count;
  v->p = NULL;
  if (count == 0) return DUMPI_OK;
  int32_t *a = dumpi_arena_alloc(&r->f->arena, (size_t)count * sizeof *a);
  if (!a) return NOMEM(r);
  const uint8_t *p = r->p;
  switch (width) {
  case 4:
    for (uint32_t i = 0; i < count; i++, p += 4) a[i] = (int32_t)dumpi_get_u32(p);
    break;
  case 2:
    for (uint32_t i = 0; i < count; i++, p += 2) a[i] = is_signed ? (int16_t)dumpi_get_u16(p) : dumpi_get_u16(p);
    break;
  default:
    for (uint32_t i = 0; i < count; i++, p += 1) a[i] = is_signed ? (int8_t)p[0] : p[0];
    break;
  }
  r->p = p;
  v->p = a;
  return DUMPI_OK;
}

/* u32 count + count × (i32 bytes, i32 source, i8 cancelled, i8 error,
 * i32 tag since 0.6.3). Count 0 stands for MPI_STATUS(ES)_IGNORE. */
static inline __attribute__((always_inline)) int read_statuses(reader *r, uint64_t record, dumpi_value *v) {
  NEED(r, 4);
  uint32_t count = rd32(r);
  uint64_t each = r->f->status_has_tag ? 14 : 10;
  /* covers every status */
  NEED(r, (uint64_t)count * each);
  v->i = count;
  v->p = NULL;
  if (count == 0) return DUMPI_OK;
  dumpi_status *s = dumpi_arena_alloc(&r->f->arena, (size_t)count * sizeof *s);
  if (!s) return NOMEM(r);
  const uint8_t *p = r->p;
  for (uint32_t i = 0; i < count; i++) {
    s[i].bytes = (int32_t)dumpi_get_u32(p);
    s[i].source = (int32_t)dumpi_get_u32(p + 4);
    s[i].cancelled = (int8_t)p[8];
    s[i].error = (int8_t)p[9];
    s[i].tag = each == 14 ? (int32_t)dumpi_get_u32(p + 10) : DUMPI_ANY_TAG;
    p += each;
  }
  r->p = p;
  v->p = s;
  return DUMPI_OK;
}

/* How each scalar type sits on the stream, the one place these facts
 * live (decode_record() reads every scalar argument through
 * read_scalar()): int32 for ranks, tags and requests; int64;
 * int16_t handles (sst-dumpi types.h); int8_t COMPARISON and ORDERING;
 * the other enumerations written as u8 into int16_t fields, so
 * zero-extended. OP_GENERAL: not a scalar. */
typedef enum arg_op {
  OP_END = 0,
  OP_S32,
  OP_S64,
  OP_S16,
  OP_S8,
  OP_U8,
  OP_A32,
  OP_A16,
  OP_A8,
  OP_STATUS, /* arrays and statuses without flags */
  OP_GENERAL
} arg_op;

static const uint8_t scalar_op[DUMPI_N_ARG_TYPES] = {
    [DUMPI_ARG_INT] = OP_S32,         [DUMPI_ARG_DEST] = OP_S32,        [DUMPI_ARG_SOURCE] = OP_S32,
    [DUMPI_ARG_TAG] = OP_S32,         [DUMPI_ARG_REQUEST] = OP_S32,     [DUMPI_ARG_IOREQUEST] = OP_S32,
    [DUMPI_ARG_INT64] = OP_S64,       [DUMPI_ARG_COMM] = OP_S16,        [DUMPI_ARG_DATATYPE] = OP_S16,
    [DUMPI_ARG_GROUP] = OP_S16,       [DUMPI_ARG_INFO] = OP_S16,        [DUMPI_ARG_FILE] = OP_S16,
    [DUMPI_ARG_WIN] = OP_S16,         [DUMPI_ARG_ERRHANDLER] = OP_S16,  [DUMPI_ARG_KEYVAL] = OP_S16,
    [DUMPI_ARG_COMM_KEYVAL] = OP_S16, [DUMPI_ARG_TYPE_KEYVAL] = OP_S16, [DUMPI_ARG_WIN_KEYVAL] = OP_S16,
    [DUMPI_ARG_COMPARISON] = OP_S8,   [DUMPI_ARG_ORDERING] = OP_S8,     [DUMPI_ARG_OP] = OP_U8,
    [DUMPI_ARG_COMBINER] = OP_U8,     [DUMPI_ARG_FILEMODE] = OP_U8,     [DUMPI_ARG_LOCKTYPE] = OP_U8,
    [DUMPI_ARG_THREADLEVEL] = OP_U8,  [DUMPI_ARG_TOPOLOGY] = OP_U8,     [DUMPI_ARG_TYPECLASS] = OP_U8,
    [DUMPI_ARG_WHENCE] = OP_U8,       [DUMPI_ARG_WIN_ASSERT] = OP_U8,
};

static inline int op_of_type(uint8_t type) {
  return type < DUMPI_N_ARG_TYPES && scalar_op[type] ? scalar_op[type] : OP_GENERAL;
}

static const uint8_t op_width[] = {[OP_S32] = 4, [OP_S64] = 8, [OP_S16] = 2, [OP_S8] = 1, [OP_U8] = 1};

static inline uint64_t load_be64(const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

/* The scalar at p, shift = 64 - 8 x its width, sign-extended unless
 * zero_extend (OP_U8): 8 big-endian bytes shifted down, with no branch on
 * the width. Reading past the scalar stays inside the read window's
 * allocation (WINDOW_PAD). */
static inline int64_t scalar_at(const uint8_t *p, unsigned shift, bool zero_extend) {
  uint64_t raw = load_be64(p);
  return zero_extend ? (int64_t)(raw >> shift) : (int64_t)raw >> shift;
}

/* Read one scalar of kind op (OP_S32 .. OP_U8) into v. */
static inline __attribute__((always_inline)) int read_scalar(reader *r, uint64_t record, int op, dumpi_value *v) {
  NEED(r, op_width[op]);
  v->i = scalar_at(r->p, 64u - 8u * op_width[op], op == OP_U8);
  r->p += op_width[op];
  v->p = NULL;
  return DUMPI_OK;
}

/* Per label, one op per argument in wire order, then OP_END: the plain
 * scalars get their reading; the rest, and every argument with a
 * DUMPI_ARGF_* flag (its flag tests come first), OP_GENERAL. Worked out
 * once from the function table (dumpi_stream_init), so decoding a record
 * dispatches once per argument on a handful of cases, with no loop count
 * and no flag test. */
static uint8_t label_ops[DUMPI_N_LABELS][DUMPI_MAX_ARGS + 1];
static pthread_once_t label_ops_once = PTHREAD_ONCE_INIT;

/* Per label, the plain scalars its argument list starts with (most
 * records are nothing else): one bounds check covers them all, and each
 * is read by scalar_at() with its shift and extension worked out here. */
typedef struct scalar_run {
  uint8_t n;            /* leading plain scalar arguments */
  bool all;             /* ... and they are all of them */
  uint8_t bytes;        /* their width on the stream together */
  uint16_t zero_extend; /* bit i: argument i is OP_U8 */
  uint8_t width[DUMPI_MAX_ARGS];
  uint8_t shift[DUMPI_MAX_ARGS]; /* 64 - 8 x width */
} scalar_run;
static scalar_run label_run[DUMPI_N_LABELS];

static void build_label_ops(void) {
  for (int l = 0; l < DUMPI_N_LABELS; l++) {
    const dumpi_fn_info *fn = dumpi_fn_lookup((uint16_t)l);
    int n = fn && fn->n_args <= DUMPI_MAX_ARGS ? fn->n_args : 0;
    for (int i = 0; i < n; i++) {
      const dumpi_arg_info *a = &fn->args[i];
      label_ops[l][i] = a->flags ? OP_GENERAL : (uint8_t)op_of_type(a->type);
      if (!a->flags) switch ((dumpi_arg_type)a->type) { /* as decode_general() reads them */
        case DUMPI_ARG_INT_ARRAY:
        case DUMPI_ARG_REQUEST_ARRAY:
        case DUMPI_ARG_IOREQUEST_ARRAY:
        case DUMPI_ARG_ERRCODE_ARRAY: label_ops[l][i] = OP_A32; break;
        case DUMPI_ARG_DATATYPE_ARRAY:
        case DUMPI_ARG_INFO_ARRAY: label_ops[l][i] = OP_A16; break;
        case DUMPI_ARG_DISTRIBUTION_ARRAY: label_ops[l][i] = OP_A8; break;
        case DUMPI_ARG_STATUS:
        case DUMPI_ARG_STATUS_ARRAY: label_ops[l][i] = OP_STATUS; break;
        default: break;
        }
    }
    label_ops[l][n] = OP_END;
    scalar_run *run = &label_run[l];
    for (int i = 0; i < n && label_ops[l][i] >= OP_S32 && label_ops[l][i] <= OP_U8; i++) {
      int op = label_ops[l][i];
      run->width[i] = op_width[op];
      run->shift[i] = (uint8_t)(64 - 8 * op_width[op]);
      if (op == OP_U8) run->zero_extend |= (uint16_t)(1u << i);
      run->bytes = (uint8_t)(run->bytes + op_width[op]);
      run->n = (uint8_t)(i + 1);
    }
    run->all = run->n == n;
  }
}

void dumpi_stream_init(void) {
  pthread_once(&label_ops_once, build_label_ops);
}

/* Every argument that is not a plain scalar. */
static inline __attribute__((always_inline)) int decode_general(reader *r, uint64_t record, const dumpi_arg_info *a,
                                                                uint8_t mask, dumpi_value *v) {
  v->p = NULL;
  switch ((dumpi_arg_type)a->type) {
  case DUMPI_ARG_INT:
  case DUMPI_ARG_DEST:
  case DUMPI_ARG_SOURCE:
  case DUMPI_ARG_TAG:
  case DUMPI_ARG_REQUEST:
  case DUMPI_ARG_IOREQUEST:
  case DUMPI_ARG_INT64:
  case DUMPI_ARG_COMM:
  case DUMPI_ARG_DATATYPE:
  case DUMPI_ARG_GROUP:
  case DUMPI_ARG_INFO:
  case DUMPI_ARG_FILE:
  case DUMPI_ARG_WIN:
  case DUMPI_ARG_ERRHANDLER:
  case DUMPI_ARG_KEYVAL:
  case DUMPI_ARG_COMM_KEYVAL:
  case DUMPI_ARG_TYPE_KEYVAL:
  case DUMPI_ARG_WIN_KEYVAL:
  case DUMPI_ARG_COMPARISON:
  case DUMPI_ARG_ORDERING:
  case DUMPI_ARG_OP:
  case DUMPI_ARG_COMBINER:
  case DUMPI_ARG_FILEMODE:
  case DUMPI_ARG_LOCKTYPE:
  case DUMPI_ARG_THREADLEVEL:
  case DUMPI_ARG_TOPOLOGY:
  case DUMPI_ARG_TYPECLASS:
  case DUMPI_ARG_WHENCE:
  case DUMPI_ARG_WIN_ASSERT: break; /* scalars are read by read_scalar(), never here */
  case DUMPI_ARG_STATUS:
  case DUMPI_ARG_STATUS_ARRAY:
    if (!(mask & DUMPI_MASK_STATUS)) {
      v->i = 0;
      return ARG_ABSENT;
    }
    return read_statuses(r, record, v);
  case DUMPI_ARG_INT_ARRAY:
  case DUMPI_ARG_REQUEST_ARRAY:
  case DUMPI_ARG_IOREQUEST_ARRAY:
  case DUMPI_ARG_ERRCODE_ARRAY: return read_int_array(r, record, 4, 1, v);
  case DUMPI_ARG_DATATYPE_ARRAY:
  case DUMPI_ARG_INFO_ARRAY: return read_int_array(r, record, 2, 1, v);
  case DUMPI_ARG_DISTRIBUTION_ARRAY: return read_int_array(r, record, 1, 0, v);
  case DUMPI_ARG_INT_ARRAY_2D: {
    NEED(r, 4);
    uint32_t rows = rd32(r);
    /* covers the count word of every row */
    NEED(r, (uint64_t)rows * 4);
    dumpi_int_row *row = dumpi_arena_alloc(&r->f->arena, ((size_t)rows + 1) * sizeof *row);
    if (!row) return NOMEM(r);
    for (uint32_t i = 0; i < rows; i++) {
      dumpi_value rv;
      int rc = read_int_array(r, record, 4, 1, &rv);
      if (rc) return rc;
      row[i].n = (int32_t)rv.i;
      row[i].v = rv.p;
    }
    v->i = rows;
    v->p = row;
    return DUMPI_OK;
  }
  case DUMPI_ARG_STRING: {
    const char *s = NULL;
    int rc = read_string(r, record, &s);
    v->i = rc ? 0 : (int64_t)strlen(s);
    v->p = s;
    return rc;
  }
  case DUMPI_ARG_STRING_ARRAY: {
    NEED(r, 4);
    uint32_t count = rd32(r);
    if ((a->flags & DUMPI_ARGF_COUNT_TWICE_BEFORE_0_6_2) && r->f->version_num < DUMPI_VERSION(0, 6, 2)) {
      NEED(r, 4);
      r->p += 4;
    }
    return read_strings(r, record, count, v);
  }
  case DUMPI_ARG_STRING_ARRAY_2D: {
    NEED(r, 4);
    uint32_t count = rd32(r);
    /* covers the count word of every list */
    NEED(r, (uint64_t)count * 4);
    dumpi_string_list *l = dumpi_arena_alloc(&r->f->arena, ((size_t)count + 1) * sizeof *l);
    if (!l) return NOMEM(r);
    for (uint32_t i = 0; i < count; i++) {
      NEED(r, 4);
      uint32_t n = rd32(r);
      dumpi_value lv;
      int rc = read_strings(r, record, n, &lv);
      if (rc) return rc;
      l[i].n = (int32_t)n;
      l[i].v = lv.p;
    }
    v->i = count;
    v->p = l;
    return DUMPI_OK;
  }
  case DUMPI_N_ARG_TYPES: break;
  }
  return dumpi_set_error(r->err, DUMPI_ERR_INVALID, r->f->path, record, "table has argument %s of unknown type %d",
                         a->name, (int)a->type);
}

static int fail(dumpi_file *f, dumpi_error *err, int rc) {
  f->state = rc;
  if (!f->sticky) f->sticky = malloc(sizeof *f->sticky);
  if (f->sticky) {
    if (err)
      *f->sticky = *err;
    else
      dumpi_set_error(f->sticky, rc, f->path, f->pos, "%s", dumpi_strerror(rc));
  }
  return rc;
}

/* The error of a file that failed, again. */
static void repeat_error(const dumpi_file *f, dumpi_error *err) {
  if (f->sticky)
    *err = *f->sticky;
  else
    dumpi_set_error(err, f->state, f->path, f->pos, "%s", dumpi_strerror(f->state));
}

/* The read window: refilled when fewer than WINDOW_SLACK bytes are left
 * in it, so a record rarely straddles its end (then it is widened, see
 * WINDOW_SHORT). 256 KiB per rank keeps a thousand ranks at 256 MiB. */
#define WINDOW_BYTES (256u << 10)
#define WINDOW_SLACK (16u << 10)
#define WINDOW_PAD   8 /* zero bytes after the window: see scalar_run */

static size_t window_bytes(const dumpi_file *f) {
  return f->win_bytes ? f->win_bytes : WINDOW_BYTES;
}
static size_t window_slack(const dumpi_file *f) {
  size_t want = window_bytes(f);
  return want / 4 < WINDOW_SLACK ? want / 4 : WINDOW_SLACK;
}

/* fill_window's reads for a file whose bytes the caller supplies
 * (dumpi_file_open_source), with pread's messages. */
static int fill_from_source(dumpi_file *f, size_t have, size_t want, dumpi_error *err) {
  while (have < want) {
    int64_t n = f->src.read(f->src.ctx, f->win + have, want - have, f->pos + have);
    if (n <= 0) {
      f->win_len = have;
      return dumpi_set_error(err, DUMPI_ERR_IO, f->path, f->pos + have, "read: %s",
                             n < 0 ? strerror((int)-n) : "file shrank while read");
    }
    have += (size_t)n;
  }
  f->win_len = have;
  memset(f->win + have, 0, WINDOW_PAD);
  set_refill(f);
  return DUMPI_OK;
}

/* Make the window start at f->pos and hold want bytes (fewer at the end of
 * the stream): keep what it already has from pos on, read the rest. */
static int fill_window(dumpi_file *f, size_t want, dumpi_error *err) {
  uint64_t left = f->stream_end - f->pos;
  if (want > left) want = (size_t)left;
  if (want > f->win_cap || !f->win) {
    uint8_t *w = realloc(f->win, want + WINDOW_PAD); /* never NULL: offsets from it */
    if (!w)
      return dumpi_set_error(err, DUMPI_ERR_NOMEM, f->path, f->pos, "out of memory for a %zu-byte read window", want);
    f->win = w;
    f->win_cap = want; /* the allocation is WINDOW_PAD longer */
  }
  size_t have = 0;
  if (f->pos >= f->win_off && f->pos < f->win_off + f->win_len) {
    have = (size_t)(f->win_off + f->win_len - f->pos);
    memmove(f->win, f->win + (f->pos - f->win_off), have);
  }
  f->win_off = f->pos;
  if (f->src.read) return fill_from_source(f, have, want, err);
  int fd = f->fd;
  if (have < want && fd < 0 && (fd = dumpi_file_reopen(f, err)) < 0) {
    f->win_len = have;
    return fd;
  }
  while (have < want) {
    ssize_t n = pread(fd, f->win + have, want - have, (off_t)(f->pos + have));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      int e = errno;
      f->win_len = have;
      if (fd != f->fd) close(fd);
      return dumpi_set_error(err, DUMPI_ERR_IO, f->path, f->pos + have, "read: %s",
                             n < 0 ? strerror(e) : "file shrank while read");
    }
    have += (size_t)n;
  }
  if (fd != f->fd) close(fd);
  f->win_len = have;
  memset(f->win + have, 0, WINDOW_PAD);
  set_refill(f);
  return DUMPI_OK;
}

/* Near the window's end while the stream goes on: the next record refills. */
static void set_refill(dumpi_file *f) {
  uint64_t win_end = f->win_off + f->win_len, slack = window_slack(f);
  f->refill_at = win_end >= f->stream_end ? UINT64_MAX : win_end >= slack ? win_end - slack + 1 : 0;
}

static inline __attribute__((always_inline)) int decode_record(dumpi_file *f, dumpi_call *c, dumpi_error *err,
                                                               bool skim);

void dumpi_file_set_window(dumpi_file *f, size_t bytes) {
  f->win_bytes = bytes ? bytes : 1;
  if (f->win_len) set_refill(f); /* its slack follows the window */
}

void dumpi_file_seed_window(dumpi_file *f, const uint8_t *bytes, size_t n) {
  /* A stream under two windows is kept whole: reading its rest again
   * would cost a read (and the look at its first records, which runs
   * past a window and is rewound, two) to save less than a window. */
  size_t want = window_bytes(f);
  if (n / 2 > want) n = want;
  if (!n || f->win) return;
  uint8_t *w = malloc(n + WINDOW_PAD);
  if (!w) return; /* the first read fills the window instead */
  memcpy(w, bytes, n);
  memset(w + n, 0, WINDOW_PAD);
  f->win = w;
  f->win_cap = n;
  f->win_off = f->stream_begin;
  f->win_len = n;
  set_refill(f);
}

void dumpi_file_skip_cpu_times(dumpi_file *f) {
  f->skip_cpu = 1;
}

void dumpi_file_set_wall_offset(dumpi_file *f, int64_t ns) {
  f->wall_offset = ns;
}

/* The reading path. dumpi_file_next() and dumpi_file_find() each get a
 * copy (decode_record(), decode_general() and read_statuses() are always
 * inlined too): the build calls only the first, once per record, and
 * link-time optimisation then inlines all of it into the build's loop. A
 * second caller of one shared copy (clocks.c's look at the first records)
 * left it out of line, and the build's loop paid for the call on every
 * record. */
static inline __attribute__((always_inline)) int next_record(dumpi_file *f, dumpi_call *c, dumpi_error *err,
                                                             bool skim) {
  if (f->state < 0) {
    if (err) repeat_error(f, err);
    return f->state;
  }
  if (f->state > 0) return 0;
  /* refill when the window is missing (refill_at 0) or near its end while
   * the stream goes on (fill_window). A skim (the look at a stream's first
   * records, rewound after) reads on to the window's very end instead, a
   * record it cuts short widening it: refilled early, the window no longer
   * held the stream's start, and the rewind read it all again. */
  if (f->pos >= f->refill_at && (!skim || f->refill_at == 0 || f->pos >= f->win_off + f->win_len)) {
    int rc = fill_window(f, window_bytes(f), err);
    if (rc) return fail(f, err, rc);
  }
  /* A record the window cuts short changed nothing (its times are kept
   * only once it is decoded): it is decoded again through a wider one. */
  int rc = decode_record(f, c, err, skim);
  if (rc != WINDOW_SHORT) return rc;
  size_t want = window_bytes(f);
  do {
    while (want < f->win_need) want *= 2;
    if ((rc = fill_window(f, want, err))) return fail(f, err, rc);
  } while ((rc = decode_record(f, c, err, skim)) == WINDOW_SHORT);
  return rc;
}

int dumpi_file_next(dumpi_file *f, dumpi_call *c, dumpi_error *err) {
  return next_record(f, c, err, false);
}

int dumpi_file_next_times(dumpi_file *f, dumpi_call *c, dumpi_error *err) {
  return next_record(f, c, err, true);
}

void dumpi_file_prefetch_state(const dumpi_file *f) {
  for (const char *p = (const char *)&f->cpu_bias; p < (const char *)(&f->arena + 1); p += 64) __builtin_prefetch(p);
  __builtin_prefetch((const char *)(&f->arena + 1) - 1);
}

void dumpi_file_prefetch_next(const dumpi_file *f) {
  if (f->pos >= f->win_off && f->pos < f->win_off + f->win_len) __builtin_prefetch(f->win + (f->pos - f->win_off));
}

int dumpi_file_find(dumpi_file *f, const uint8_t *labels, int *budget, dumpi_call *c, dumpi_error *err) {
  while (*budget > 0) {
    int rc = next_record(f, c, err, false);
    if (rc != 1) return rc;
    --*budget;
    if (c->label < DUMPI_N_LABELS && labels[c->label]) return 1;
  }
  return 0;
}

/* The label's leading plain scalars from p (run->bytes of room checked by
 * the caller) into args; returns the byte after them. */
static inline const uint8_t *read_scalar_run(const scalar_run *run, const uint8_t *p, dumpi_value *args) {
  for (int i = 0; i < run->n; i++) {
    dumpi_value *v = &args[i];
    v->i = scalar_at(p, run->shift[i], (run->zero_extend >> i) & 1);
    v->p = NULL;
    p += run->width[i];
  }
  return p;
}

/* u32 count + count elements of `width` bytes, stepped over: v holds the
 * count and no values. The same bounds checks as read_int_array(). */
static inline __attribute__((always_inline)) int skip_array(reader *r, uint64_t record, uint64_t width,
                                                            dumpi_value *v) {
  NEED(r, 4);
  uint32_t count = rd32(r);
  NEED(r, (uint64_t)count * width);
  r->p += (uint64_t)count * width;
  v->i = count;
  v->p = NULL;
  return DUMPI_OK;
}

/* Decode the record at f->pos from the window. WINDOW_SHORT when it runs
 * past the window but not past the stream. With skim (a look at labels,
 * threads and times) the plain scalars of most records, the perf counters,
 * the arrays and the statuses are stepped over, not decoded: the same
 * bounds are checked, so the same records are found and the same errors
 * met. */
static inline __attribute__((always_inline)) int decode_record(dumpi_file *f, dumpi_call *c, dumpi_error *err,
                                                               bool skim) {
  uint64_t record = f->pos;
  reader r = {f, f->win + (f->pos - f->win_off), f->win + f->win_len, err};
  if (r.p == r.end) {
    /* No end label. With an index the section simply ends (some writers
     * stop at Finalize); without one the rank died between records. */
    if (f->has_index) {
      f->state = 1;
      return 0;
    }
    return fail(f, err,
                dumpi_set_error(err, DUMPI_ERR_TRUNCATED, f->path, record,
                                "stream ends without an "
                                "end-of-stream label"));
  }
  int rc;
#define NEED_OR_FAIL(n)                                     \
  do {                                                      \
    if ((uint64_t)(r.end - r.p) < (uint64_t)(n)) {          \
      int rc_ = overrun(&r, record, (n));                   \
      return rc_ == WINDOW_SHORT ? rc_ : fail(f, err, rc_); \
    }                                                       \
  } while (0)
  NEED_OR_FAIL(2);
  uint16_t label = dumpi_get_u16(r.p);
  r.p += 2;
  if (label == DUMPI_LABEL_END_OF_STREAM) {
    f->pos = f->win_off + (uint64_t)(r.p - f->win);
    f->state = 1;
    return 0;
  }
  const dumpi_fn_info *fn = dumpi_fn_lookup(label);
  if (!fn || (fn->flags & DUMPI_FNF_NO_RECORD))
    return fail(f, err,
                dumpi_set_error(err, DUMPI_ERR_UNKNOWN_LABEL, f->path, record, "unknown function label %u%s%s",
                                (unsigned)label, fn ? " " : "", fn ? fn->name : ""));
  const scalar_run *run = &label_run[label];
  c->label = label;
  c->fn = fn;
  c->offset = record;
  /* Most records are one shape: a thread id (libdumpi writes one even for
   * thread 0), both time pairs, no perf counters, only plain scalar
   * arguments, the CPU times not wanted. One bounds check and
   * straight-line code for those; the general walk below decodes the same
   * bytes to the same values. */
  if (run->all && f->skip_cpu && r.end - r.p >= 1 + 2 + 24 + (ptrdiff_t)run->bytes &&
      (r.p[0] & ~(DUMPI_MASK_STATUS | DUMPI_MASK_THREADID)) == (DUMPI_MASK_CPUTIME | DUMPI_MASK_WALLTIME)) {
    const uint8_t *p = r.p;
    uint8_t mask = p[0];
    c->mask = mask;
    p++;
    c->thread = 0;
    if (mask & DUMPI_MASK_THREADID) {
      c->thread = dumpi_get_u16(p);
      p += 2;
    }
    c->cpu_start = c->cpu_stop = 0;
    r.p = p + 12;
    read_times(&r, &f->wall_wrap, f->wall_bias, &c->wall_start, &c->wall_stop);
    c->wall_start += f->wall_offset;
    c->wall_stop += f->wall_offset;
    c->n_perf = 0;
    c->perf_in = c->perf_out = NULL;
    c->present = (uint16_t)((1u << run->n) - 1);
    if (skim) {
      p = r.p + run->bytes;
    } else {
      dumpi_arena_reset(&f->arena);
      p = read_scalar_run(run, r.p, c->args);
    }
    f->pos = f->win_off + (uint64_t)(p - f->win);
    c->size = (uint32_t)(f->pos - record);
    return 1;
  }
  NEED_OR_FAIL(1);
  uint8_t mask = *r.p++;
  c->mask = mask;
  c->thread = 0;
  if (mask & DUMPI_MASK_THREADID) {
    NEED_OR_FAIL(2);
    c->thread = dumpi_get_u16(r.p);
    r.p += 2;
  }
  c->cpu_start = c->cpu_stop = c->wall_start = c->wall_stop = 0;
  /* Kept once the record is decoded: a record cut short by the window
   * returns WINDOW_SHORT below, and its times are read again. */
  dumpi_unwrap wall_wrap = f->wall_wrap, cpu_wrap = f->cpu_wrap;
  if (mask & DUMPI_MASK_CPUTIME) {
    NEED_OR_FAIL(12);
    if (f->skip_cpu)
      r.p += 12;
    else
      read_times(&r, &cpu_wrap, f->cpu_bias, &c->cpu_start, &c->cpu_stop);
  }
  if (mask & DUMPI_MASK_WALLTIME) {
    NEED_OR_FAIL(12);
    read_times(&r, &wall_wrap, f->wall_bias, &c->wall_start, &c->wall_stop);
    c->wall_start += f->wall_offset;
    c->wall_stop += f->wall_offset;
  }
  dumpi_arena_reset(&f->arena);
  c->n_perf = 0;
  c->perf_in = c->perf_out = NULL;
  if (mask & DUMPI_MASK_PERFINFO) {
    /* The writer stores the count it writes; dumpi2ascii re-reads it
     * from the perf label section, which holds the same number. */
    NEED_OR_FAIL(1);
    uint8_t n = *r.p++;
    NEED_OR_FAIL(16 * (uint64_t)n);
    if (skim) {
      r.p += 16 * (size_t)n;
      n = 0;
    }
    int64_t *pv = dumpi_arena_alloc(&f->arena, 2 * (size_t)n * sizeof *pv);
    if (n && !pv) return fail(f, err, NOMEM(&r));
    for (unsigned i = 0; i < n; i++) {
      pv[i] = (int64_t)dumpi_get_u64(r.p);
      pv[n + i] = (int64_t)dumpi_get_u64(r.p + 8);
      r.p += 16;
    }
    c->n_perf = n;
    c->perf_in = pv;
    c->perf_out = n ? pv + n : NULL;
  }
  int i = 0;
  uint32_t present = (1u << run->n) - 1; /* c->present, kept at the end */
  if (run->n) {
    NEED_OR_FAIL(run->bytes);
    r.p = read_scalar_run(run, r.p, c->args);
    i = run->n;
    if (run->all) /* most records: no argument left for the loop below */
      goto args_done;
  }
  const uint8_t special = f->arg_special;
  const uint8_t *ops = label_ops[label];
  for (;; i++) {
    dumpi_value *v = &c->args[i];
    /* One dispatch per argument: a scalar is read at once, anything else
     * goes on to the flag tests and decode_general(). */
    switch (ops[i]) {
    case OP_END: goto args_done;
    case OP_S32: rc = read_scalar(&r, record, OP_S32, v); goto scalar_read;
    case OP_S16: rc = read_scalar(&r, record, OP_S16, v); goto scalar_read;
    case OP_S64: rc = read_scalar(&r, record, OP_S64, v); goto scalar_read;
    case OP_S8: rc = read_scalar(&r, record, OP_S8, v); goto scalar_read;
    case OP_U8: rc = read_scalar(&r, record, OP_U8, v); goto scalar_read;
    /* arrays and statuses with no flag to test: their readers at once */
    case OP_A32: rc = skim ? skip_array(&r, record, 4, v) : read_int_array(&r, record, 4, 1, v); goto scalar_read;
    case OP_A16: rc = skim ? skip_array(&r, record, 2, v) : read_int_array(&r, record, 2, 1, v); goto scalar_read;
    case OP_A8: rc = skim ? skip_array(&r, record, 1, v) : read_int_array(&r, record, 1, 0, v); goto scalar_read;
    case OP_STATUS:
      v->p = NULL;
      if (!(mask & DUMPI_MASK_STATUS)) {
        v->i = 0;
        continue;
      }
      rc = skim ? skip_array(&r, record, f->status_has_tag ? 14 : 10, v) : read_statuses(&r, record, v);
      goto scalar_read;
    default: break; /* OP_GENERAL */
    }
    const dumpi_arg_info *a = &fn->args[i];
    if (a->flags & special) { /* rare: most arguments skip both tests */
      if ((a->flags & DUMPI_ARGF_ROOT_ONLY) && c->args[fn->i_rank].i != c->args[fn->i_root].i) {
        v->i = 0;
        v->p = NULL;
        continue;
      }
      /* Legacy layouts (arg_special holds these flags only for the
       * versions they apply to): one bare int32 where newer files have an
       * int array. */
      if (a->flags & special & (DUMPI_ARGF_SCALAR_BEFORE_0_6_9 | DUMPI_ARGF_SCALAR_BEFORE_0_6_8)) {
        NEED_OR_FAIL(4);
        int32_t *one = dumpi_arena_alloc(&f->arena, sizeof *one);
        if (!one) return fail(f, err, NOMEM(&r));
        *one = (int32_t)rd32(&r);
        v->i = 1;
        v->p = one;
        present |= 1u << i;
        continue;
      }
    }
    /* OP_GENERAL: a flagged argument may still be a scalar */
    int op = a->flags ? op_of_type(a->type) : OP_GENERAL;
    rc = op != OP_GENERAL ? read_scalar(&r, record, op, v) : decode_general(&r, record, a, mask, v);
    if (rc == ARG_ABSENT) continue;
  scalar_read:
    if (rc) return rc == WINDOW_SHORT ? rc : fail(f, err, rc);
    present |= 1u << i;
  }
args_done:
#undef NEED_OR_FAIL
  c->present = (uint16_t)present;
  f->wall_wrap = wall_wrap;
  f->cpu_wrap = cpu_wrap;
  f->pos = f->win_off + (uint64_t)(r.p - f->win);
  c->size = (uint32_t)(f->pos - record);
  return 1;
}

/* ---- call accessors ---------------------------------------------------- */

static const dumpi_value *arg(const dumpi_call *c, int idx) {
  if (!c || !c->fn || idx < 0 || idx >= c->fn->n_args || !dumpi_arg_present(c, idx)) return NULL;
  return &c->args[idx];
}

static const dumpi_value *arg_of(const dumpi_call *c, int idx, int (*ok)(dumpi_arg_type), int32_t *n) {
  const dumpi_value *v = arg(c, idx);
  if (v && !ok((dumpi_arg_type)c->fn->args[idx].type)) v = NULL;
  if (n) *n = v ? (int32_t)v->i : 0;
  return v;
}

static int is_int_array(dumpi_arg_type t) {
  return t >= DUMPI_ARG_INT_ARRAY && t <= DUMPI_ARG_DISTRIBUTION_ARRAY;
}
static int is_status(dumpi_arg_type t) {
  return t == DUMPI_ARG_STATUS || t == DUMPI_ARG_STATUS_ARRAY;
}
static int is_2d(dumpi_arg_type t) {
  return t == DUMPI_ARG_INT_ARRAY_2D;
}
static int is_string(dumpi_arg_type t) {
  return t == DUMPI_ARG_STRING;
}
static int is_strings(dumpi_arg_type t) {
  return t == DUMPI_ARG_STRING_ARRAY;
}
static int is_strings_2d(dumpi_arg_type t) {
  return t == DUMPI_ARG_STRING_ARRAY_2D;
}

int dumpi_call_has(const dumpi_call *c, int idx) {
  return arg(c, idx) != NULL;
}

int64_t dumpi_call_int(const dumpi_call *c, int idx) {
  const dumpi_value *v = arg(c, idx);
  if (!v || !dumpi_arg_type_is_scalar((dumpi_arg_type)c->fn->args[idx].type)) return 0;
  return v->i;
}

int64_t dumpi_call_int_by_name(const dumpi_call *c, const char *name) {
  return c ? dumpi_call_int(c, dumpi_fn_arg_index(c->label, name)) : 0;
}

const int32_t *dumpi_call_int_array(const dumpi_call *c, int idx, int32_t *n) {
  const dumpi_value *v = arg_of(c, idx, is_int_array, n);
  return v ? v->p : NULL;
}

const dumpi_int_row *dumpi_call_int_array_2d(const dumpi_call *c, int idx, int32_t *n) {
  const dumpi_value *v = arg_of(c, idx, is_2d, n);
  return v ? v->p : NULL;
}

const dumpi_status *dumpi_call_statuses(const dumpi_call *c, int idx, int32_t *n) {
  const dumpi_value *v = arg_of(c, idx, is_status, n);
  return v ? v->p : NULL;
}

const dumpi_status *dumpi_call_status(const dumpi_call *c, int idx) {
  return dumpi_call_statuses(c, idx, NULL);
}

const char *dumpi_call_string(const dumpi_call *c, int idx) {
  const dumpi_value *v = arg_of(c, idx, is_string, NULL);
  return v ? v->p : NULL;
}

const char *const *dumpi_call_string_array(const dumpi_call *c, int idx, int32_t *n) {
  const dumpi_value *v = arg_of(c, idx, is_strings, n);
  return v ? v->p : NULL;
}

const dumpi_string_list *dumpi_call_string_array_2d(const dumpi_call *c, int idx, int32_t *n) {
  const dumpi_value *v = arg_of(c, idx, is_strings_2d, n);
  return v ? v->p : NULL;
}
/* ---- copies ------------------------------------------------------------ */

/* Bump allocation over one block; with base NULL it only measures, so the
 * same walk sizes the block and then fills it. */
typedef struct cloner {
  uint8_t *base;
  size_t used;
} cloner;

static void *cl_take(cloner *k, const void *src, size_t n) {
  size_t at = (k->used + 15) & ~(size_t)15;
  k->used = at + n;
  if (!k->base) return NULL;
  if (src && n) memcpy(k->base + at, src, n);
  return k->base + at;
}

static const char *cl_string(cloner *k, const char *s) {
  return cl_take(k, s, strlen(s) + 1);
}

static const char *const *cl_strings(cloner *k, const char *const *v, int32_t n) {
  const char **list = cl_take(k, NULL, ((size_t)n + 1) * sizeof *list);
  for (int32_t i = 0; i < n; i++) {
    const char *s = cl_string(k, v[i]);
    if (list) list[i] = s;
  }
  if (list) list[n] = NULL;
  return list;
}

/* Give every array of c (whose pointers are into the source) a copy in k. */
static void cl_call(cloner *k, dumpi_call *c) {
  if (c->n_perf) {
    int64_t *pv = cl_take(k, c->perf_in, c->n_perf * sizeof *pv);
    int64_t *po = cl_take(k, c->perf_out, c->n_perf * sizeof *po);
    c->perf_in = pv;
    c->perf_out = po;
  }
  for (int i = 0; i < c->fn->n_args; i++) {
    dumpi_value *v = &c->args[i];
    if (!dumpi_arg_present(c, i) || !v->p) continue;
    size_t n = (size_t)v->i;
    switch ((dumpi_arg_type)c->fn->args[i].type) {
    case DUMPI_ARG_STATUS:
    case DUMPI_ARG_STATUS_ARRAY: v->p = cl_take(k, v->p, n * sizeof(dumpi_status)); break;
    case DUMPI_ARG_STRING: v->p = cl_take(k, v->p, n + 1); break;
    case DUMPI_ARG_STRING_ARRAY: v->p = cl_strings(k, v->p, (int32_t)n); break;
    case DUMPI_ARG_INT_ARRAY_2D: {
      const dumpi_int_row *src = v->p;
      dumpi_int_row *rows = cl_take(k, NULL, (n + 1) * sizeof *rows);
      for (size_t r = 0; r < n; r++) {
        const int32_t *e = cl_take(k, src[r].v, (size_t)src[r].n * 4);
        if (rows) rows[r] = (dumpi_int_row){src[r].n, e};
      }
      v->p = rows;
      break;
    }
    case DUMPI_ARG_STRING_ARRAY_2D: {
      const dumpi_string_list *src = v->p;
      dumpi_string_list *l = cl_take(k, NULL, (n + 1) * sizeof *l);
      for (size_t r = 0; r < n; r++) {
        const char *const *e = cl_strings(k, src[r].v, src[r].n);
        if (l) l[r] = (dumpi_string_list){src[r].n, e};
      }
      v->p = l;
      break;
    }
    default: /* int arrays of every width are decoded to int32 */ v->p = cl_take(k, v->p, n * sizeof(int32_t)); break;
    }
  }
}

dumpi_call *dumpi_call_clone(const dumpi_call *c) {
  /* Only the arguments the function has: a record's struct is mostly
   * room for the longest argument list, and copying all of it read (and
   * wrote) cache lines no one looks at. */
  int n_args = c->fn->n_args < DUMPI_MAX_ARGS ? c->fn->n_args : DUMPI_MAX_ARGS;
  size_t head = offsetof(dumpi_call, args) + (size_t)n_args * sizeof(dumpi_value);
  dumpi_call probe;
  memcpy(&probe, c, head);
  cloner k = {NULL, sizeof(dumpi_call)}; /* a whole struct's room all the same */
  cl_call(&k, &probe);
  uint8_t *block = malloc(k.used);
  if (!block) return NULL;
  dumpi_call *copy = (dumpi_call *)block;
  memcpy(copy, c, head);
  k = (cloner){block, sizeof(dumpi_call)};
  cl_call(&k, copy);
  return copy;
}
