/* SPDX-License-Identifier: MIT */
/* dumpi_write.c - DUMPI .bin writer for slog2-synth (layout in dumpi_write.h). */
#include "dumpi_write.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dumpi_table.h"

/* sst-dumpi common/io.c DUMPI_HEAD_MAGIC and DUMPI_FOOT_MAGIC. */
#define HEAD_MAGIC 0xffaadd44554d5049ULL
#define FOOT_MAGIC 0x00000000f007fee7ULL

/* Record mask bits (common/settings.h). */
#define MASK_STATUS 0x03 /* DUMPI_ENABLE */
#define MASK_CPU    0x04 /* DUMPI_TIME_CPU */
#define MASK_WALL   0x08 /* DUMPI_TIME_WALL */
#define MASK_THREAD 0x40 /* DUMPI_THREADID_MASK */

/* Trace format written by sst-dumpi a4c8bf5, the libdumpi the real traces
 * the tests read were recorded with. */
static const uint8_t version[3] = {13, 0, 0};

/* Sizes of the 28 built-in datatypes (DUMPI_DATATYPE_ERROR .. 
 * MPI_LONG_DOUBLE_INT) as Open MPI 4.1 on x86-64 reports them; copied from
 * the datatype-sizes section of a trace libdumpi recorded there. */
static const uint32_t builtin_sizes[28] = {0, 0,  1, 1, 1, 1, 4, 2, 2, 4,  4,  8, 8, 4,
                                           8, 16, 0, 8, 8, 1, 0, 0, 8, 12, 12, 6, 8, 20};

/* Encoding classes of the table's argument types. */
enum enc { E_U32, E_U16, E_U8, E_STATUS, E_STATUS_ARRAY, E_INT_ARRAY, E_STRING_ARRAY };

static const uint16_t emitted[] = {
    SYNTH_SEND,      SYNTH_RECV,      SYNTH_ISEND,      SYNTH_IRECV,    SYNTH_WAITALL,    SYNTH_IPROBE,
    SYNTH_PROBE,     SYNTH_SENDRECV,  SYNTH_BARRIER,    SYNTH_BCAST,    SYNTH_GATHERV,    SYNTH_REDUCE,
    SYNTH_ALLREDUCE, SYNTH_COMM_SIZE, SYNTH_COMM_RANK,  SYNTH_COMM_DUP, SYNTH_COMM_SPLIT, SYNTH_COMM_FREE,
    SYNTH_INIT,      SYNTH_FINALIZE,  SYNTH_INIT_THREAD};

static const struct {
  const char *name;
  uint8_t slot;
} slot_names[] = {
    {"count", SL_COUNT},
    {"datatype", SL_DATATYPE},
    {"dest", SL_DEST},
    {"source", SL_SOURCE},
    {"tag", SL_TAG},
    {"comm", SL_COMM},
    {"request", SL_REQUEST},
    {"flag", SL_FLAG},
    {"op", SL_OP},
    {"root", SL_ROOT},
    {"commrank", SL_COMMRANK},
    {"commsize", SL_COMMSIZE},
    {"sendcount", SL_SENDCOUNT},
    {"sendtype", SL_SENDTYPE},
    {"recvcount", SL_RECVCOUNT},
    {"recvtype", SL_RECVTYPE},
    {"sendtag", SL_SENDTAG},
    {"recvtag", SL_RECVTAG},
    {"color", SL_COLOR},
    {"key", SL_KEY},
    {"oldcomm", SL_OLDCOMM},
    {"newcomm", SL_NEWCOMM},
    {"rank", SL_RANK},
    {"size", SL_SIZE},
    {"argc", SL_ARGC},
    {"required", SL_REQUIRED},
    {"provided", SL_PROVIDED},
    {"requests", SL_REQUESTS},
    {"status", SL_STATUS},
    {"statuses", SL_STATUSES},
    {"recvcounts", SL_RECVCOUNTS},
    {"displs", SL_DISPLS},
    {"argv", SL_ARGV},
};

typedef struct plan_arg {
  uint8_t enc;
  uint8_t slot;
  uint8_t root_only;
} plan_arg;

typedef struct plan {
  uint8_t ready;
  uint8_t n;
  int8_t rank_slot; /* ROOT_ONLY args need v[rank_slot] == v[root_slot] */
  int8_t root_slot;
  plan_arg a[DUMPI_MAX_ARGS];
} plan;

static plan plans[SYNTH_ALL_FUNCTIONS + 1];

static int enc_of(int type)
{
  switch (type) {
  case DUMPI_ARG_INT:
  case DUMPI_ARG_DEST:
  case DUMPI_ARG_SOURCE:
  case DUMPI_ARG_TAG:
  case DUMPI_ARG_REQUEST: return E_U32;
  case DUMPI_ARG_COMM:
  case DUMPI_ARG_DATATYPE:
  case DUMPI_ARG_GROUP: return E_U16;
  case DUMPI_ARG_OP:
  case DUMPI_ARG_THREADLEVEL: return E_U8;
  case DUMPI_ARG_STATUS: return E_STATUS;
  case DUMPI_ARG_STATUS_ARRAY: return E_STATUS_ARRAY;
  case DUMPI_ARG_INT_ARRAY:
  case DUMPI_ARG_REQUEST_ARRAY: return E_INT_ARRAY;
  case DUMPI_ARG_STRING_ARRAY: return E_STRING_ARRAY;
  default: return -1;
  }
}

static int slot_of(const char *name)
{
  for (size_t i = 0; i < sizeof slot_names / sizeof slot_names[0]; i++)
    if (strcmp(slot_names[i].name, name) == 0) return slot_names[i].slot;
  return -1;
}

uint32_t synth_dumpi_type_size(int32_t datatype)
{
  return datatype >= 0 && datatype < 28 ? builtin_sizes[datatype] : 0;
}

const char *synth_dumpi_prepare(void)
{
  static char msg[160];
  for (size_t k = 0; k < sizeof emitted / sizeof emitted[0]; k++) {
    uint16_t label = emitted[k];
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    if (!fn || fn->label != label) {
      snprintf(msg, sizeof msg, "DUMPI function table has no label %u", label);
      return msg;
    }
    plan *p = &plans[label];
    p->n = fn->n_args;
    p->rank_slot = p->root_slot = -1;
    if (fn->i_rank >= 0 && fn->i_root >= 0) {
      p->rank_slot = (int8_t)slot_of(fn->args[fn->i_rank].name);
      p->root_slot = (int8_t)slot_of(fn->args[fn->i_root].name);
    }
    for (int i = 0; i < fn->n_args; i++) {
      const dumpi_arg_info *a = &fn->args[i];
      int e = enc_of(a->type), s = slot_of(a->name);
      if (e < 0 || s < 0) {
        snprintf(msg, sizeof msg, "%s argument \"%s\" (type %d) unknown to the generator", fn->name, a->name, a->type);
        return msg;
      }
      /* Scalar encodings read v[], array encodings their own fields. */
      if ((e <= E_U8) != (s < SL_REQUESTS)) {
        snprintf(msg, sizeof msg, "%s argument \"%s\": type does not fit its slot", fn->name, a->name);
        return msg;
      }
      p->a[i].enc = (uint8_t)e;
      p->a[i].slot = (uint8_t)s;
      p->a[i].root_only = (a->flags & DUMPI_ARGF_ROOT_ONLY) != 0;
      if (p->a[i].root_only && (p->rank_slot < 0 || p->root_slot < 0)) {
        snprintf(msg, sizeof msg, "%s: root-only argument without rank/root", fn->name);
        return msg;
      }
    }
    p->ready = 1;
  }
  return NULL;
}

void synth_dumpi_begin(synth_dumpi *d, int32_t cpu_bias, int32_t wall_bias, int with_cpu, int with_status)
{
  memset(d->counts, 0, sizeof d->counts);
  d->cpu_bias = cpu_bias;
  d->wall_bias = wall_bias;
  d->mask = MASK_THREAD | MASK_WALL;
  if (with_cpu) d->mask |= MASK_CPU;
  if (with_status) d->mask |= MASK_STATUS;
  put_be64(&d->out, HEAD_MAGIC);
  put_be32(&d->out, (uint32_t)cpu_bias);
  put_be32(&d->out, (uint32_t)wall_bias);
}

/* Byte-level writers into a reserved region (no bounds checks: the caller
 * reserved enough room). */
static inline uint8_t *w16(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 8);
  p[1] = (uint8_t)v;
  return p + 2;
}

static inline uint8_t *w32(uint8_t *p, uint32_t v)
{
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
  return p + 4;
}

/* put_times: u16 (seconds - bias), u32 nanoseconds. */
static inline uint8_t *wtime(uint8_t *p, int64_t ns, int32_t bias)
{
  p = w16(p, (uint32_t)(uint16_t)(ns / 1000000000 - bias));
  return w32(p, (uint32_t)(ns % 1000000000));
}

static inline uint8_t *wstatuses(uint8_t *p, const synth_call *c, int n)
{
  p = w32(p, (uint32_t)n);
  for (int i = 0; i < n; i++) {
    const synth_status *s = &c->st[i];
    p = w32(p, (uint32_t)s->bytes);
    p = w32(p, (uint32_t)s->source);
    *p++ = s->cancelled;
    *p++ = s->error;
    p = w32(p, (uint32_t)s->tag);
  }
  return p;
}

/* Upper bound of the bytes an array argument needs. */
static size_t array_room(const synth_call *c, int slot)
{
  switch (slot) {
  case SL_REQUESTS: return 4 + 4 * (size_t)c->n_req;
  case SL_STATUS:
  case SL_STATUSES: return 4 + 14 * (size_t)c->n_status;
  case SL_RECVCOUNTS:
  case SL_DISPLS: return 4 + 4 * (size_t)c->n_counts;
  case SL_ARGV: {
    size_t n = 4;
    for (int i = 0; i < c->argc; i++) n += 4 + strlen(c->argv[i]);
    return n;
  }
  default: return 0;
  }
}

static inline uint8_t *w64(uint8_t *p, uint64_t v)
{
  p = w32(p, (uint32_t)(v >> 32));
  return w32(p, (uint32_t)v);
}

static uint8_t *record_head(const synth_dumpi *d, uint8_t *w, const synth_call *c)
{
  w = w16(w, c->label);
  *w++ = d->mask;
  w = w16(w, c->thread);
  if (d->mask & MASK_CPU) {
    w = wtime(w, c->cpu_start, d->cpu_bias);
    w = wtime(w, c->cpu_stop, d->cpu_bias);
  }
  w = wtime(w, c->wall_start + d->wall_shift, d->wall_bias);
  return wtime(w, c->wall_stop + d->wall_shift, d->wall_bias);
}

/* dumpiio.c dumpi_write_func_enter/exit: the usual record head, then the
 * function's address as one i64. */
static void user_function_record(synth_dumpi *d, const synth_call *c)
{
  uint8_t *start = synth_out_reserve(&d->out, 2 + 1 + 2 + 24 + 8);
  uint8_t *w = record_head(d, start, c);
  w = w64(w, c->fn);
  d->out.len += (size_t)(w - start);
}

void synth_dumpi_call(synth_dumpi *d, const synth_call *c)
{
  if (c->label == SYNTH_FUNCTION_ENTER || c->label == SYNTH_FUNCTION_EXIT) {
    user_function_record(d, c);
    return;
  }
  const plan *p = &plans[c->label];
  size_t room = 2 + 1 + 2 + 24;
  for (int i = 0; i < p->n; i++) room += p->a[i].enc <= E_U8 ? 4 : array_room(c, p->a[i].slot);
  if (room > d->out.cap) {
    /* The generator's arrays are small (at most a communicator's size), so
     * this only trips with a buffer far too small; report, do not truncate. */
    d->out.err = EOVERFLOW;
    return;
  }
  uint8_t *start = synth_out_reserve(&d->out, room);
  uint8_t *w = record_head(d, start, c);
  int is_root = p->rank_slot >= 0 && c->v[p->rank_slot] == c->v[p->root_slot];
  for (int i = 0; i < p->n; i++) {
    const plan_arg *a = &p->a[i];
    if (a->root_only && !is_root) continue;
    switch (a->enc) {
    case E_U32: w = w32(w, (uint32_t)c->v[a->slot]); break;
    case E_U16: w = w16(w, (uint32_t)(uint16_t)c->v[a->slot]); break;
    case E_U8: *w++ = (uint8_t)c->v[a->slot]; break;
    case E_STATUS:
    case E_STATUS_ARRAY:
      /* put_statuses: nothing at all unless statuses are enabled; an
       * ignored status is a count of 0. */
      if (d->mask & MASK_STATUS) w = wstatuses(w, c, c->n_status);
      break;
    case E_INT_ARRAY: {
      const int32_t *v = a->slot == SL_REQUESTS ? c->req : a->slot == SL_RECVCOUNTS ? c->counts : c->displs;
      int32_t n = a->slot == SL_REQUESTS ? c->n_req : c->n_counts;
      w = w32(w, (uint32_t)n);
      for (int32_t k = 0; k < n; k++) w = w32(w, (uint32_t)v[k]);
      break;
    }
    case E_STRING_ARRAY:
      w = w32(w, (uint32_t)c->argc);
      for (int k = 0; k < c->argc; k++) {
        size_t len = strlen(c->argv[k]);
        w = w32(w, (uint32_t)len);
        memcpy(w, c->argv[k], len);
        w += len;
      }
      break;
    }
  }
  d->out.len += (size_t)(w - start);
  d->counts[c->label]++;
  d->counts[SYNTH_ALL_FUNCTIONS]++;
}

static void put_str16(synth_out *o, const char *s)
{
  size_t n = strlen(s);
  if (n > 0xffff) n = 0xffff;
  put_be16(o, (uint16_t)n);
  put_bytes(o, s, n);
}

uint64_t synth_dumpi_trailer_size(const synth_header *h)
{
  uint64_t names = 0;
  for (int i = 0; i < h->n_functions; i++) names += 8 + 2 + strlen(h->fn_names[i]);
  return 2 + 3 + 8 + 2 + strlen(h->hostname) + 2 + strlen(h->username) + 8 + 8 + 2 * 4 * (SYNTH_ALL_FUNCTIONS + 1) + 4 +
         4 + 4 + 4 * 28 + 4 + names + 64;
}

void synth_dumpi_finish(synth_dumpi *d, const synth_header *h)
{
  synth_out *o = &d->out;
  put_be16(o, SYNTH_END_OF_STREAM);
  uint64_t header = synth_out_tell(o);
  for (int i = 0; i < 3; i++) put_be8(o, version[i]);
  put_be64(o, h->starttime);
  put_str16(o, h->hostname);
  put_str16(o, h->username);
  put_be32(o, 0); /* meshcrd: meshdim 0 */
  put_be32(o, 0); /* meshsize */
  uint64_t footer = synth_out_tell(o);
  put_be64(o, FOOT_MAGIC);
  for (int i = 0; i <= SYNTH_ALL_FUNCTIONS; i++) put_be32(o, d->counts[i]);
  for (int i = 0; i <= SYNTH_ALL_FUNCTIONS; i++) put_be32(o, 0);
  put_be32(o, 0); /* keyval record, count 0 */
  uint64_t perflbl = synth_out_tell(o);
  put_be32(o, 0); /* no PAPI counters */
  uint64_t sizelbl = synth_out_tell(o);
  put_be32(o, 28);
  for (int i = 0; i < 28; i++) put_be32(o, builtin_sizes[i]);
  uint64_t addrlbl = synth_out_tell(o);
  put_be32(o, (uint32_t)h->n_functions);
  for (int i = 0; i < h->n_functions; i++) {
    put_be64(o, h->fn_addresses[i]);
    put_str16(o, h->fn_names[i]);
  }
  put_be64(o, HEAD_MAGIC);
  put_be64(o, sizelbl);
  put_be64(o, addrlbl);
  put_be64(o, perflbl);
  put_be64(o, header);
  put_be64(o, 8); /* body */
  put_be64(o, footer);
  put_be64(o, 0); /* keyval: libdumpi leaves this pointer 0 */
}
