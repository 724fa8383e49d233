/* SPDX-License-Identifier: MIT */
/* workload.c - the simulated MPI program behind slog2-synth (see workload.h).
 *
 * Handle conventions follow libdumpi 13 with Open MPI (docs/DUMPI.md):
 * communicators 1 = MPI_COMM_NULL, 2 = MPI_COMM_WORLD, user communicators from
 * 4 with freed ids reused (lowest free first); request ids from 2, reused after
 * completion; a completed send's status has source = tag = -1; Iprobe with
 * flag 0 records MPI_STATUS_IGNORE; Comm_split with color MPI_UNDEFINED
 * (-32766) returns MPI_COMM_NULL.
 */
#include "workload.h"
#ifdef SLOG2_HAVE_OTF2
#include "otf2_write.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dumpi_write.h"
#include "prng.h"
#include "signals.h"

/* MPI constants as libdumpi stores them (common/constants.h). */
enum {
  COMM_NULL = 1,
  COMM_WORLD = 2,
  FIRST_USER_COMM = 4,
  FIRST_USER_REQUEST = 2,
  DT_CHAR = 2,
  DT_BYTE = 5,
  DT_INT = 9,
  DT_DOUBLE = 14,
  OP_MAX = 1,
  OP_SUM = 3,
  THREAD_MULTIPLE = 4,
  UNDEFINED = -32766, /* Open MPI's MPI_UNDEFINED, stored as is */
  ANY_SOURCE = -1
};

/* Network model: latency and bandwidth of one message. */
#define LATENCY_NS 1500
#define NS_PER_KB  200 /* per KiB: the simulated link's bandwidth */

#define MAX_REQ_IDS 256

static const char *const app_argv[] = {"/opt/synth/bin/synth-stencil", "MPI_THREAD_MULTIPLE"};

typedef struct rank_st {
  synth_rng rng;
  synth_dumpi d;
  int64_t t; /* main thread clock, ns since "boot" */
  int64_t wall0, cpu0;
  int host;         /* index of its simulated host */
  double cpu_ratio; /* CPU seconds per wall second */
  uint64_t req_used[MAX_REQ_IDS / 64];
  uint64_t comm_used; /* bit i: comm id FIRST_USER_COMM + i taken */
  int row_comm;
  int dup_comm[SYNTH_MAX_THREADS + 1];
  synth_call *stage; /* this iteration's calls, in order of return */
  size_t n_stage, cap_stage;
  int32_t *arena; /* arrays referenced by staged calls */
  size_t n_arena, cap_arena;
  int oom;
} rank_st;

typedef struct sim {
  const synth_config *cfg;
  int P, px, py;
  int64_t base_compute; /* mean compute phase, ns */
  int halo_count;       /* doubles per halo message */
  rank_st *r;
  int64_t *ta, *tb; /* per-rank scratch times */
  int64_t *sendt;   /* per-rank x slot send start times */
  int32_t *reqs;    /* per-rank x slot request ids */
  int *grp;         /* per-rank group id, -1 = not a member */
  int64_t *gmax;    /* per-group max entry */
  int *groot;       /* per-group root, world rank */
  int *tmpc;        /* per-rank scratch comm ids */
  int *gsize;
  uint64_t iter;
  uint64_t calls;
  synth_header hdr;
  struct synth_otf2 *o2; /* --format otf2: the archive being written */
  synth_fdpool fds;      /* the rank files' descriptors */
} sim;

/* ---- small helpers ---------------------------------------------------- */

static int64_t rnd(rank_st *rs, int64_t lo, int64_t hi)
{
  return synth_rng_range(&rs->rng, lo, hi);
}

static int64_t max64(int64_t a, int64_t b)
{
  return a > b ? a : b;
}

static int64_t cpu_of(const rank_st *rs, int64_t wall)
{
  return rs->cpu0 + (int64_t)((double)(wall - rs->wall0) * rs->cpu_ratio);
}

/* Message transfer time for n bytes. */
static int64_t xfer(int64_t bytes)
{
  return LATENCY_NS + bytes * NS_PER_KB / 1024;
}

/* Stages a record that is not an MPI call (user-function entry/exit). */
static synth_call *stage_record(rank_st *rs, uint16_t label, uint16_t thread, int64_t t0, int64_t t1)
{
  if (rs->n_stage == rs->cap_stage) {
    size_t cap = rs->cap_stage ? 2 * rs->cap_stage : 64;
    synth_call *p = realloc(rs->stage, cap * sizeof *p);
    if (!p) {
      rs->oom = 1;
      rs->n_stage = 0; /* keep going; synth_run reports the failure */
    } else {
      rs->stage = p;
      rs->cap_stage = cap;
    }
  }
  synth_call *c = &rs->stage[rs->n_stage++];
  c->label = label;
  c->thread = thread;
  c->wall_start = t0;
  c->wall_stop = t1;
  c->cpu_start = cpu_of(rs, t0);
  c->cpu_stop = cpu_of(rs, t1);
  memset(c->v, 0, sizeof c->v);
  c->n_req = c->n_status = c->n_counts = c->argc = 0;
  c->fn = 0;
  return c;
}

static synth_call *stage_call(sim *s, rank_st *rs, uint16_t label, uint16_t thread, int64_t t0, int64_t t1)
{
  s->calls++;
  return stage_record(rs, label, thread, t0, t1);
}

/* Instrumented user functions (--user-functions): what a program built
 * with -finstrument-functions and libdumpi's hooks records around its own
 * routines. solve() wraps an iteration, compute() and exchange_halo() two
 * of its phases; addresses as a linker would place them. */
enum { FN_SOLVE, FN_COMPUTE, FN_HALO, N_USER_FNS };
static const uint64_t user_fn_addr[N_USER_FNS] = {0x401a30, 0x401c80, 0x402110};
static const char *const user_fn_name[N_USER_FNS] = {"solve", "compute", "exchange_halo"};

/* Entry to or exit from user function fn on every rank's main thread, at
 * its current time; the hook itself takes a little time. */
static void user_mark(sim *s, int fn, int enter)
{
  if (!s->cfg->user_functions) return;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    synth_call *c = stage_record(rs, enter ? SYNTH_FUNCTION_ENTER : SYNTH_FUNCTION_EXIT, 0, rs->t, rs->t);
    c->fn = user_fn_addr[fn];
    rs->t += rnd(rs, 40, 200);
  }
}

static int32_t *arena_alloc(rank_st *rs, size_t n)
{
  if (rs->n_arena + n > rs->cap_arena) {
    /* Staged calls point into the arena, so it never moves within an
     * iteration: size it up front (flush_stage resets it). */
    rs->oom = 1;
    static int32_t dummy[1];
    return dummy;
  }
  int32_t *p = rs->arena + rs->n_arena;
  rs->n_arena += n;
  return p;
}

/* A call that completes locally, on the main thread; advances the clock by
 * the call and some user code after it. */
static synth_call *local_call(sim *s, rank_st *rs, uint16_t label, int64_t lo, int64_t hi)
{
  int64_t t0 = rs->t, t1 = t0 + rnd(rs, lo, hi);
  synth_call *c = stage_call(s, rs, label, 0, t0, t1);
  rs->t = t1 + rnd(rs, 150, 1200);
  return c;
}

static int32_t req_alloc(rank_st *rs)
{
  for (int w = 0; w < MAX_REQ_IDS / 64; w++) {
    uint64_t used = rs->req_used[w] | (w == 0 ? 3u : 0u);
    if (~used) {
      int b = __builtin_ctzll(~used);
      rs->req_used[w] |= 1ULL << b;
      return w * 64 + b;
    }
  }
  return FIRST_USER_REQUEST; /* unreachable: at most ~40 live requests */
}

static void req_free(rank_st *rs, int32_t id)
{
  rs->req_used[id / 64] &= ~(1ULL << (id % 64));
}

static int comm_alloc(rank_st *rs)
{
  int b = __builtin_ctzll(~rs->comm_used);
  rs->comm_used |= 1ULL << b;
  return FIRST_USER_COMM + b;
}

static void comm_free(rank_st *rs, int id)
{
  rs->comm_used &= ~(1ULL << (id - FIRST_USER_COMM));
}

static void set_status(synth_status *st, int32_t bytes, int32_t source, int32_t tag)
{
  st->bytes = bytes;
  st->source = source;
  st->tag = tag;
  st->cancelled = 0;
  st->error = 0;
}

/* Status of a completed send request under Open MPI. */
static void send_status(synth_status *st)
{
  set_status(st, 0, -1, -1);
}

/* ---- collectives ------------------------------------------------------ */

enum coll_kind {
  C_ALL,       /* everybody waits for the last member (Allreduce, Barrier) */
  C_FROM_ROOT, /* members wait for the root (Bcast) */
  C_TO_ROOT    /* the root waits for every member (Gatherv, Reduce) */
};

/* Entry time of every member is its clock; writes exit times to s->tb.
 * s->grp gives each rank's group (-1: not taking part); root_of(g) is
 * computed by the caller into s->groot as a world rank (-1 for C_ALL). */
static void coll_times(sim *s, int kind, const int *root_world, int64_t extra)
{
  int P = s->P;
  for (int g = 0; g < P; g++) {
    s->gmax[g] = 0;
    s->gsize[g] = 0;
  }
  for (int r = 0; r < P; r++) {
    int g = s->grp[r];
    if (g < 0) continue;
    s->gmax[g] = max64(s->gmax[g], s->r[r].t);
    s->gsize[g]++;
  }
  for (int r = 0; r < P; r++) {
    int g = s->grp[r];
    if (g < 0) continue;
    rank_st *rs = &s->r[r];
    int lg = 0;
    while ((1 << lg) < s->gsize[g]) lg++;
    int64_t cost = extra + lg * (LATENCY_NS + 400);
    int64_t entry = rs->t, exit;
    int root = root_world ? root_world[g] : -1;
    switch (kind) {
    case C_FROM_ROOT:
      if (r == root)
        exit = entry + cost / 2 + rnd(rs, 300, 1500);
      else
        exit = max64(entry, s->r[root].t + cost) + rnd(rs, 300, 1500);
      break;
    case C_TO_ROOT:
      if (r == root)
        exit = max64(entry, s->gmax[g] + cost) + rnd(rs, 300, 1500);
      else
        exit = entry + cost / 2 + rnd(rs, 300, 1500);
      break;
    default: exit = s->gmax[g] + cost + rnd(rs, 300, 2500); break;
    }
    s->tb[r] = exit;
  }
}

/* Stages a collective whose args the caller fills in afterwards. */
static synth_call *coll_call(sim *s, int r, uint16_t label)
{
  rank_st *rs = &s->r[r];
  synth_call *c = stage_call(s, rs, label, 0, rs->t, s->tb[r]);
  rs->t = s->tb[r] + rnd(rs, 200, 1500);
  return c;
}

static void group_world(sim *s)
{
  for (int r = 0; r < s->P; r++) s->grp[r] = 0;
}

static void group_rows(sim *s)
{
  for (int r = 0; r < s->P; r++) s->grp[r] = r / s->px;
}

/* ---- phases ----------------------------------------------------------- */

static void phase_init(sim *s)
{
  const synth_config *cfg = s->cfg;
  group_world(s);
  coll_times(s, C_ALL, NULL, 1000000);
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    s->tb[r] += rnd(rs, 0, 3000000); /* MPI_Init is slow and uneven */
    synth_call *c = coll_call(s, r, cfg->threads ? SYNTH_INIT_THREAD : SYNTH_INIT);
    c->argc = cfg->threads ? 2 : 1;
    c->argv = app_argv;
    c->v[SL_ARGC] = c->argc;
    c->v[SL_REQUIRED] = c->v[SL_PROVIDED] = THREAD_MULTIPLE;
    c = local_call(s, rs, SYNTH_COMM_RANK, 300, 1000);
    c->v[SL_COMM] = COMM_WORLD;
    c->v[SL_RANK] = r;
    c = local_call(s, rs, SYNTH_COMM_SIZE, 300, 1000);
    c->v[SL_COMM] = COMM_WORLD;
    c->v[SL_SIZE] = s->P;
  }
  for (int k = 1; k <= cfg->threads; k++) {
    coll_times(s, C_ALL, NULL, 20000);
    for (int r = 0; r < s->P; r++) {
      rank_st *rs = &s->r[r];
      synth_call *c = coll_call(s, r, SYNTH_COMM_DUP);
      rs->dup_comm[k] = comm_alloc(rs);
      c->v[SL_OLDCOMM] = COMM_WORLD;
      c->v[SL_NEWCOMM] = rs->dup_comm[k];
    }
  }
  /* Row communicator of the 2-D process grid: color = row, key = column. */
  coll_times(s, C_ALL, NULL, 40000);
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    synth_call *c = coll_call(s, r, SYNTH_COMM_SPLIT);
    rs->row_comm = comm_alloc(rs);
    c->v[SL_OLDCOMM] = COMM_WORLD;
    c->v[SL_COLOR] = r / s->px;
    c->v[SL_KEY] = r % s->px;
    c->v[SL_NEWCOMM] = rs->row_comm;
    c = local_call(s, rs, SYNTH_COMM_RANK, 300, 1000);
    c->v[SL_COMM] = rs->row_comm;
    c->v[SL_RANK] = r % s->px;
    c = local_call(s, rs, SYNTH_COMM_SIZE, 300, 1000);
    c->v[SL_COMM] = rs->row_comm;
    c->v[SL_SIZE] = s->px;
  }
}

/* Compute phase; with worker threads, every 4th iteration the workers
 * exchange a token around a ring on their own duplicated communicator while
 * the main thread computes, and the main thread joins them afterwards. */
static void phase_compute(sim *s)
{
  int K = s->cfg->threads;
  int with_threads = K > 0 && s->iter % 4 == 1;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    double imbalance = 1.0 + 0.15 * (double)(r % 7) / 7.0;
    double noise = 0.75 + 0.5 * synth_rng_unit(&rs->rng);
    int64_t len = (int64_t)((double)s->base_compute * imbalance * noise);
    if (s->iter % 50 == 49) len *= 4; /* an occasional heavy step (I/O, remeshing) */
    s->ta[r] = rs->t;                 /* compute start */
    rs->t += len;                     /* compute end */
    if (!with_threads) continue;
    for (int k = 1; k <= K; k++) {
      int slot = r * SYNTH_MAX_THREADS + (k - 1);
      int64_t t = s->ta[r] + rnd(rs, 2000, 30000);
      int left = (r - 1 + s->P) % s->P, right = (r + 1) % s->P;
      int32_t rq = req_alloc(rs), sq = req_alloc(rs);
      int64_t e = t + rnd(rs, 400, 1500);
      synth_call *c = stage_call(s, rs, SYNTH_IRECV, (uint16_t)k, t, e);
      c->v[SL_COUNT] = 1;
      c->v[SL_DATATYPE] = DT_INT;
      c->v[SL_SOURCE] = left;
      c->v[SL_TAG] = k;
      c->v[SL_COMM] = rs->dup_comm[k];
      c->v[SL_REQUEST] = rq;
      t = e + rnd(rs, 300, 2000);
      e = t + rnd(rs, 500, 2000);
      c = stage_call(s, rs, SYNTH_ISEND, (uint16_t)k, t, e);
      c->v[SL_COUNT] = 1;
      c->v[SL_DATATYPE] = DT_INT;
      c->v[SL_DEST] = right;
      c->v[SL_TAG] = k;
      c->v[SL_COMM] = rs->dup_comm[k];
      c->v[SL_REQUEST] = sq;
      s->sendt[slot] = t;
      s->reqs[2 * slot] = rq;
      s->reqs[2 * slot + 1] = sq;
      /* Waitall entry, kept in the second half of sendt. */
      s->sendt[s->P * SYNTH_MAX_THREADS + slot] = e + rnd(rs, 300, 3000);
    }
  }
  if (!with_threads) return;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int left = (r - 1 + s->P) % s->P;
    int64_t join = rs->t;
    for (int k = 1; k <= K; k++) {
      int slot = r * SYNTH_MAX_THREADS + (k - 1);
      int64_t entry = s->sendt[s->P * SYNTH_MAX_THREADS + slot];
      int64_t arrive = s->sendt[left * SYNTH_MAX_THREADS + (k - 1)] + xfer(4);
      int64_t exit = max64(entry + rnd(rs, 500, 1500), arrive + rnd(rs, 300, 1200));
      synth_call *c = stage_call(s, rs, SYNTH_WAITALL, (uint16_t)k, entry, exit);
      c->v[SL_COUNT] = 2;
      c->n_req = 2;
      c->req[0] = s->reqs[2 * slot];
      c->req[1] = s->reqs[2 * slot + 1];
      c->n_status = 2;
      set_status(&c->st[0], 4, left, k);
      send_status(&c->st[1]);
      req_free(rs, c->req[0]);
      req_free(rs, c->req[1]);
      join = max64(join, exit + rnd(rs, 1000, 5000));
    }
    rs->t = join;
  }
}

/* Halo exchange on the periodic 2-D grid: west/east neighbours through the
 * row communicator (ranks there are columns), north/south through
 * MPI_COMM_WORLD. A message travelling in direction d has tag 100 + d. */
enum { W, E, N, S, N_DIRS };

static int opposite(int d)
{
  return d ^ 1;
}

/* World rank and comm-local rank of r's neighbour in direction d. */
static void neighbour(const sim *s, int r, int d, int *world, int *local)
{
  int row = r / s->px, col = r % s->px;
  switch (d) {
  case W:
    col = (col - 1 + s->px) % s->px;
    *local = col;
    break;
  case E:
    col = (col + 1) % s->px;
    *local = col;
    break;
  case N:
    row = (row - 1 + s->py) % s->py;
    *local = row * s->px + col;
    break;
  default:
    row = (row + 1) % s->py;
    *local = row * s->px + col;
    break;
  }
  *world = row * s->px + col;
}

static int dir_active(const sim *s, int d)
{
  return d <= E ? s->px > 1 : s->py > 1;
}

static void phase_halo(sim *s)
{
  int bytes = s->halo_count * 8;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int n = 0;
    for (int pass = 0; pass < 2; pass++) {
      for (int d = 0; d < N_DIRS; d++) {
        if (!dir_active(s, d)) continue;
        int world, local;
        neighbour(s, r, d, &world, &local);
        int32_t id = req_alloc(rs);
        int64_t t0 = rs->t, t1 = t0 + rnd(rs, 400, 2500);
        synth_call *c = stage_call(s, rs, pass ? SYNTH_ISEND : SYNTH_IRECV, 0, t0, t1);
        c->v[SL_COUNT] = s->halo_count;
        c->v[SL_DATATYPE] = DT_DOUBLE;
        c->v[pass ? SL_DEST : SL_SOURCE] = local;
        c->v[SL_TAG] = 100 + (pass ? d : opposite(d));
        c->v[SL_COMM] = d <= E ? rs->row_comm : COMM_WORLD;
        c->v[SL_REQUEST] = id;
        s->reqs[r * 8 + n++] = id;
        if (pass) s->sendt[r * SYNTH_MAX_THREADS + d] = t0;
        rs->t = t1 + rnd(rs, 100, 600);
      }
    }
  }
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int64_t entry = rs->t, done = entry + rnd(rs, 500, 1500);
    int n = 0, n_dirs = 0;
    synth_status st[8];
    for (int d = 0; d < N_DIRS; d++) {
      if (!dir_active(s, d)) continue;
      int world, local;
      neighbour(s, r, d, &world, &local);
      int64_t arrive = s->sendt[world * SYNTH_MAX_THREADS + opposite(d)] + xfer(bytes);
      done = max64(done, arrive + rnd(rs, 200, 900));
      set_status(&st[n_dirs++], bytes, local, 100 + opposite(d));
    }
    if (n_dirs == 0) continue;
    synth_call *c = stage_call(s, rs, SYNTH_WAITALL, 0, entry, done);
    n = 2 * n_dirs;
    c->v[SL_COUNT] = n;
    c->n_req = c->n_status = n;
    for (int i = 0; i < n; i++) {
      c->req[i] = s->reqs[r * 8 + i];
      if (i < n_dirs)
        c->st[i] = st[i];
      else
        send_status(&c->st[i]);
      req_free(rs, c->req[i]);
    }
    rs->t = done + rnd(rs, 200, 1500);
  }
}

static void phase_allreduce(sim *s, int on_rows)
{
  if (on_rows)
    group_rows(s);
  else
    group_world(s);
  coll_times(s, C_ALL, NULL, 2000);
  for (int r = 0; r < s->P; r++) {
    synth_call *c = coll_call(s, r, SYNTH_ALLREDUCE);
    c->v[SL_COUNT] = on_rows ? 4 : 1;
    c->v[SL_DATATYPE] = DT_DOUBLE;
    c->v[SL_OP] = on_rows ? OP_MAX : OP_SUM;
    c->v[SL_COMM] = on_rows ? s->r[r].row_comm : COMM_WORLD;
  }
}

static void phase_barrier(sim *s)
{
  group_world(s);
  coll_times(s, C_ALL, NULL, 1000);
  for (int r = 0; r < s->P; r++) coll_call(s, r, SYNTH_BARRIER)->v[SL_COMM] = COMM_WORLD;
}

static void phase_bcast(sim *s)
{
  int root = (int)((s->iter / 20) % (uint64_t)s->P);
  group_world(s);
  coll_times(s, C_FROM_ROOT, &root, xfer(1024));
  for (int r = 0; r < s->P; r++) {
    synth_call *c = coll_call(s, r, SYNTH_BCAST);
    c->v[SL_COUNT] = 128;
    c->v[SL_DATATYPE] = DT_DOUBLE;
    c->v[SL_ROOT] = root;
    c->v[SL_COMM] = COMM_WORLD;
  }
}

static void phase_reduce(sim *s)
{
  int root = 0;
  group_world(s);
  coll_times(s, C_TO_ROOT, &root, 3000);
  for (int r = 0; r < s->P; r++) {
    synth_call *c = coll_call(s, r, SYNTH_REDUCE);
    c->v[SL_COUNT] = 16;
    c->v[SL_DATATYPE] = DT_DOUBLE;
    c->v[SL_OP] = OP_SUM;
    c->v[SL_ROOT] = 0;
    c->v[SL_COMM] = COMM_WORLD;
  }
}

/* Gatherv to column 0 of every row: libdumpi writes commrank and commsize,
 * and recvcounts/displs only on the root. */
static void phase_gatherv(sim *s)
{
  group_rows(s);
  for (int g = 0; g < s->py; g++) s->groot[g] = g * s->px;
  coll_times(s, C_TO_ROOT, s->groot, xfer(64 * 8));
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int col = r % s->px;
    synth_call *c = coll_call(s, r, SYNTH_GATHERV);
    c->v[SL_COMMRANK] = col;
    c->v[SL_COMMSIZE] = s->px;
    c->v[SL_SENDCOUNT] = 32 + col;
    c->v[SL_SENDTYPE] = DT_DOUBLE;
    c->v[SL_ROOT] = 0;
    c->v[SL_COMM] = rs->row_comm;
    c->v[SL_RECVTYPE] = DT_DOUBLE;
    if (col == 0) {
      int32_t *cnt = arena_alloc(rs, (size_t)s->px);
      int32_t *dsp = arena_alloc(rs, (size_t)s->px);
      for (int i = 0, off = 0; i < s->px; i++) {
        cnt[i] = 32 + i;
        dsp[i] = off;
        off += cnt[i];
      }
      c->n_counts = s->px;
      c->counts = cnt;
      c->displs = dsp;
    }
  }
}

/* Sendrecv around the world ring: send right, receive from the left. */
static void phase_sendrecv(sim *s)
{
  int count = 256, bytes = count * 4;
  for (int r = 0; r < s->P; r++) s->ta[r] = s->r[r].t;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int left = (r - 1 + s->P) % s->P, right = (r + 1) % s->P;
    int64_t exit = max64(rs->t + rnd(rs, 800, 2000), s->ta[left] + xfer(bytes) + rnd(rs, 200, 800));
    synth_call *c = stage_call(s, rs, SYNTH_SENDRECV, 0, rs->t, exit);
    c->v[SL_SENDCOUNT] = c->v[SL_RECVCOUNT] = count;
    c->v[SL_SENDTYPE] = c->v[SL_RECVTYPE] = DT_INT;
    c->v[SL_DEST] = right;
    c->v[SL_SOURCE] = left;
    c->v[SL_SENDTAG] = c->v[SL_RECVTAG] = 50;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, left, 50);
    rs->t = exit + rnd(rs, 200, 1500);
  }
}

/* Blocking ping-pong between world ranks 2i and 2i+1. */
static void phase_pingpong(sim *s)
{
  int count = 2048, bytes = count;
  for (int a = 0; a + 1 < s->P; a += 2) {
    rank_st *ra = &s->r[a], *rb = &s->r[a + 1];
    int64_t sa = ra->t, sa_end = sa + rnd(ra, 1000, 3000) + xfer(bytes) / 4;
    synth_call *c = stage_call(s, ra, SYNTH_SEND, 0, sa, sa_end);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_BYTE;
    c->v[SL_DEST] = a + 1;
    c->v[SL_TAG] = 20;
    c->v[SL_COMM] = COMM_WORLD;
    ra->t = sa_end + rnd(ra, 200, 1000);

    int64_t rb0 = rb->t, rb1 = max64(rb0 + rnd(rb, 500, 1500), sa + xfer(bytes) + rnd(rb, 200, 800));
    c = stage_call(s, rb, SYNTH_RECV, 0, rb0, rb1);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_BYTE;
    c->v[SL_SOURCE] = a;
    c->v[SL_TAG] = 20;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, a, 20);
    rb->t = rb1 + rnd(rb, 200, 1500);

    int64_t sb = rb->t, sb_end = sb + rnd(rb, 1000, 3000) + xfer(bytes) / 4;
    c = stage_call(s, rb, SYNTH_SEND, 0, sb, sb_end);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_BYTE;
    c->v[SL_DEST] = a;
    c->v[SL_TAG] = 21;
    c->v[SL_COMM] = COMM_WORLD;
    rb->t = sb_end + rnd(rb, 200, 1000);

    int64_t ra0 = ra->t, ra1 = max64(ra0 + rnd(ra, 500, 1500), sb + xfer(bytes) + rnd(ra, 200, 800));
    c = stage_call(s, ra, SYNTH_RECV, 0, ra0, ra1);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_BYTE;
    c->v[SL_SOURCE] = a + 1;
    c->v[SL_TAG] = 21;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, a + 1, 21);
    ra->t = ra1 + rnd(ra, 200, 1500);
  }
}

/* Rank 2i sends late; rank 2i+1 polls with MPI_Iprobe (flag 0 until the
 * message can have arrived, then flag 1), then receives it. */
static void phase_iprobe(sim *s)
{
  int count = 64, bytes = count * 8;
  for (int a = 0; a + 1 < s->P; a += 2) {
    rank_st *ra = &s->r[a], *rb = &s->r[a + 1];
    ra->t += rnd(ra, 5000, 60000); /* the sender is still busy */
    int64_t sa = ra->t, sa_end = sa + rnd(ra, 1000, 2500);
    synth_call *c = stage_call(s, ra, SYNTH_SEND, 0, sa, sa_end);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_DOUBLE;
    c->v[SL_DEST] = a + 1;
    c->v[SL_TAG] = 30;
    c->v[SL_COMM] = COMM_WORLD;
    ra->t = sa_end + rnd(ra, 200, 1000);

    int64_t ready = sa + xfer(bytes);
    for (int polls = 0;; polls++) {
      if (polls == 500) rb->t = max64(rb->t, ready); /* bound the loop */
      int64_t p0 = rb->t, p1 = p0 + rnd(rb, 300, 1200);
      int hit = p0 >= ready;
      c = stage_call(s, rb, SYNTH_IPROBE, 0, p0, p1);
      c->v[SL_SOURCE] = a;
      c->v[SL_TAG] = 30;
      c->v[SL_COMM] = COMM_WORLD;
      c->v[SL_FLAG] = hit;
      if (hit) {
        c->n_status = 1;
        set_status(&c->st[0], bytes, a, 30);
      }
      rb->t = p1 + rnd(rb, 1000, 6000); /* work between polls */
      if (hit) break;
    }
    int64_t r0 = rb->t, r1 = r0 + rnd(rb, 600, 1500);
    c = stage_call(s, rb, SYNTH_RECV, 0, r0, r1);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_DOUBLE;
    c->v[SL_SOURCE] = a;
    c->v[SL_TAG] = 30;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, a, 30);
    rb->t = r1 + rnd(rb, 200, 1500);
  }
}

/* Rank 2i+1 sends; rank 2i waits in MPI_Probe(MPI_ANY_SOURCE), then
 * receives from the source the status names. */
static void phase_probe(sim *s)
{
  int count = 300, bytes = count * 4;
  for (int a = 0; a + 1 < s->P; a += 2) {
    rank_st *ra = &s->r[a], *rb = &s->r[a + 1];
    rb->t += rnd(rb, 0, 20000);
    int64_t sb = rb->t, sb_end = sb + rnd(rb, 1000, 2500);
    synth_call *c = stage_call(s, rb, SYNTH_SEND, 0, sb, sb_end);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_INT;
    c->v[SL_DEST] = a;
    c->v[SL_TAG] = 40;
    c->v[SL_COMM] = COMM_WORLD;
    rb->t = sb_end + rnd(rb, 200, 1000);

    int64_t p0 = ra->t, p1 = max64(p0 + rnd(ra, 500, 1500), sb + xfer(bytes) + rnd(ra, 200, 800));
    c = stage_call(s, ra, SYNTH_PROBE, 0, p0, p1);
    c->v[SL_SOURCE] = ANY_SOURCE;
    c->v[SL_TAG] = 40;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, a + 1, 40);
    ra->t = p1 + rnd(ra, 200, 1000);
    int64_t r0 = ra->t, r1 = r0 + rnd(ra, 600, 1500);
    c = stage_call(s, ra, SYNTH_RECV, 0, r0, r1);
    c->v[SL_COUNT] = count;
    c->v[SL_DATATYPE] = DT_INT;
    c->v[SL_SOURCE] = a + 1;
    c->v[SL_TAG] = 40;
    c->v[SL_COMM] = COMM_WORLD;
    c->n_status = 1;
    set_status(&c->st[0], bytes, a + 1, 40);
    ra->t = r1 + rnd(ra, 200, 1500);
  }
}

/* A short-lived communicator: every third rank opts out with
 * MPI_UNDEFINED (and gets MPI_COMM_NULL), the others split by parity,
 * reduce once and free it, so its id is handed out again next time. */
static void phase_temp_split(sim *s)
{
  group_world(s);
  coll_times(s, C_ALL, NULL, 30000);
  int *tmp = s->tmpc;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    int color = r % 3 == 2 ? UNDEFINED : r % 2;
    synth_call *c = coll_call(s, r, SYNTH_COMM_SPLIT);
    tmp[r] = color == UNDEFINED ? COMM_NULL : comm_alloc(rs);
    c->v[SL_OLDCOMM] = COMM_WORLD;
    c->v[SL_COLOR] = color;
    c->v[SL_KEY] = r;
    c->v[SL_NEWCOMM] = tmp[r];
    s->grp[r] = color == UNDEFINED ? -1 : color;
  }
  coll_times(s, C_ALL, NULL, 2000);
  for (int r = 0; r < s->P; r++) {
    if (tmp[r] == COMM_NULL) continue;
    rank_st *rs = &s->r[r];
    synth_call *c = coll_call(s, r, SYNTH_ALLREDUCE);
    c->v[SL_COUNT] = 2;
    c->v[SL_DATATYPE] = DT_INT;
    c->v[SL_OP] = OP_MAX;
    c->v[SL_COMM] = tmp[r];
    c = local_call(s, rs, SYNTH_COMM_FREE, 1000, 5000);
    c->v[SL_COMM] = tmp[r];
    comm_free(rs, tmp[r]);
  }
}

static void phase_finalize(sim *s)
{
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    synth_call *c = local_call(s, rs, SYNTH_COMM_FREE, 1000, 5000);
    c->v[SL_COMM] = rs->row_comm;
    comm_free(rs, rs->row_comm);
    for (int k = 1; k <= s->cfg->threads; k++) {
      c = local_call(s, rs, SYNTH_COMM_FREE, 1000, 5000);
      c->v[SL_COMM] = rs->dup_comm[k];
      comm_free(rs, rs->dup_comm[k]);
    }
  }
  group_world(s);
  coll_times(s, C_ALL, NULL, 500000);
  for (int r = 0; r < s->P; r++) coll_call(s, r, SYNTH_FINALIZE);
}

/* ---- driver ----------------------------------------------------------- */

/* Encodes the staged calls of every rank in order of return and empties
 * the stages. Worker-thread calls are staged out of order, so with threads
 * the stage is stably sorted by exit time first (libdumpi writes a record
 * when the call returns). */
static void flush_stage(sim *s)
{
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    if (s->cfg->threads) {
      for (size_t i = 1; i < rs->n_stage; i++) {
        if (rs->stage[i].wall_stop >= rs->stage[i - 1].wall_stop) continue;
        synth_call tmp = rs->stage[i];
        size_t j = i;
        while (j > 0 && rs->stage[j - 1].wall_stop > tmp.wall_stop) {
          rs->stage[j] = rs->stage[j - 1];
          j--;
        }
        rs->stage[j] = tmp;
      }
    }
    for (size_t i = 0; i < rs->n_stage; i++) {
      synth_dumpi_call(&rs->d, &rs->stage[i]);
#ifdef SLOG2_HAVE_OTF2
      if (s->o2) synth_otf2_call(s->o2, r, &rs->stage[i]);
#endif
    }
    rs->n_stage = 0;
    rs->n_arena = 0;
  }
}

static uint64_t total_bytes(const sim *s)
{
  uint64_t n = 0;
  for (int r = 0; r < s->P; r++) n += synth_out_tell(&s->r[r].d.out);
  return n;
}

static double now_s(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void human(char *buf, size_t n, double bytes)
{
  const char *u[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  while (bytes >= 1024 && i < 4) {
    bytes /= 1024;
    i++;
  }
  snprintf(buf, n, "%.1f %s", bytes, u[i]);
}

/* How many rank files may be open at once: the soft RLIMIT_NOFILE, raised
 * towards what the ranks need (the hard limit bounds it), less a few for the
 * standard streams, the .meta and the library's own. Ranks beyond it share
 * descriptors (synth_fdpool), which changes the system calls, not the bytes. */
static size_t rank_fd_cap(int ranks)
{
  enum { RESERVED = 16 };
  rlim_t need = (rlim_t)ranks + RESERVED;
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 1;
  if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
    rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= need ? need : rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= need) return (size_t)ranks;
  return rl.rlim_cur > 2 * RESERVED ? (size_t)(rl.rlim_cur - RESERVED) : RESERVED;
}

static int write_meta(const sim *s, const char *prefix, char *err, size_t errlen)
{
  size_t n = strlen(prefix) + 16;
  char *path = malloc(n), *tmp = malloc(n + 32);
  if (!path || !tmp) {
    free(path);
    free(tmp);
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  snprintf(path, n, "%s.meta", prefix);
  snprintf(tmp, n + 32, "%s.tmp.%ld", path, (long)getpid());
  const char *base = strrchr(prefix, '/');
  base = base ? base + 1 : prefix;
  FILE *f = fopen(tmp, "w");
  int rc = -1;
  if (f) {
    /* Keys and order as libdumpi's create_meta_file ("startime" sic). */
    fprintf(f,
            "hostname=%s\nnumprocs=%d\nusername=%s\nstartime=%llu\n"
            "fileprefix=%s\nversion=13\nsubversion=0\nsubsubversion=0\n",
            s->hdr.hostname, s->P, s->hdr.username, (unsigned long long)s->hdr.starttime, base);
    if (fclose(f) == 0 && rename(tmp, path) == 0) rc = 0;
  }
  if (rc) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    unlink(tmp);
  }
  free(path);
  free(tmp);
  return rc;
}

static int make_parent_dir(const char *prefix, char *err, size_t errlen)
{
  const char *slash = strrchr(prefix, '/');
  if (!slash || slash == prefix) return 0;
  size_t n = (size_t)(slash - prefix);
  char dir[n + 1];
  memcpy(dir, prefix, n);
  dir[n] = '\0';
  struct stat st;
  if (stat(dir, &st) == 0) return 0;
  /* Every missing level, as mkdir -p: each prefix up to a '/', then dir. */
  for (size_t i = 1; i <= n; i++) {
    if (i < n && dir[i] != '/') continue;
    dir[i] = '\0';
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
      return -1;
    }
    if (i < n) dir[i] = '/';
  }
  return 0;
}

int synth_has_otf2(void)
{
#ifdef SLOG2_HAVE_OTF2
  return 1;
#else
  return 0;
#endif
}

/* ---- the run ---------------------------------------------------------- */

/* The simulated hosts: ranks in blocks, each host's boot clock ahead of the
 * simulated one by up to about two days (host 0's is it). Their own random
 * stream, so --hosts changes the clocks and names and nothing else. */
typedef struct hosts {
  int n;
  int64_t *shift;
  char (*name)[32];
  /* --format otf2: each rank's host and the names, kept by the archive */
  int *rank_host;
  const char **names;
} hosts;

static int hosts_make(hosts *h, const synth_config *cfg, char *err, size_t errlen)
{
  h->n = cfg->hosts > 1 ? (cfg->hosts < cfg->ranks ? cfg->hosts : cfg->ranks) : 1;
  h->shift = calloc((size_t)h->n, sizeof *h->shift);
  h->name = calloc((size_t)h->n, sizeof *h->name);
  if (!h->shift || !h->name) {
    snprintf(err, errlen, "out of memory for %d hosts", h->n);
    return -1;
  }
  synth_rng hg;
  synth_rng_seed(&hg, cfg->seed, 0xfffffffeu);
  for (int i = 0; i < h->n; i++) {
    if (i > 0) h->shift[i] = synth_rng_range(&hg, 1, 180000) * 1000000000LL + synth_rng_range(&hg, 0, 999999999);
    snprintf(h->name[i], sizeof h->name[i], h->n > 1 ? "synth-node-%d" : "synth-node", i);
  }
  return 0;
}

static void hosts_free(hosts *h)
{
  free(h->shift);
  free(h->name);
  free(h->rank_host);
  free(h->names);
}

/* The program's shape from the seed: the process grid, the mean compute
 * phase, the halo size and the trace header. Returns the simulated clock at
 * MPI_Init's start ("boot"). */
static int64_t sim_setup(sim *s, const synth_config *cfg)
{
  s->cfg = cfg;
  s->P = cfg->ranks;
  for (int d = 1; d * d <= s->P; d++)
    if (s->P % d == 0) s->px = d;
  /* Rows are the longer side: px >= py. */
  s->py = s->px;
  s->px = s->P / s->py;
  synth_rng g;
  synth_rng_seed(&g, cfg->seed, 0xffffffffu);
  s->base_compute = synth_rng_range(&g, 40000, 200000);
  s->halo_count = 64 << synth_rng_range(&g, 0, 4);
  s->hdr.starttime = 1700000000u + (uint64_t)synth_rng_range(&g, 0, 60000000);
  s->hdr.hostname = "synth-node";
  s->hdr.username = "synth";
  if (cfg->user_functions) {
    s->hdr.n_functions = N_USER_FNS;
    s->hdr.fn_addresses = user_fn_addr;
    s->hdr.fn_names = user_fn_name;
  }
  int64_t boot = synth_rng_range(&g, 200, 900) * 1000000000LL + synth_rng_range(&g, 0, 999999999);
  return boot;
}

static int sim_alloc(sim *s, char *err, size_t errlen)
{
  size_t P = (size_t)s->P;
  s->r = calloc(P, sizeof *s->r);
  s->ta = calloc(P, sizeof *s->ta);
  s->tb = calloc(P, sizeof *s->tb);
  s->sendt = calloc(2 * P * SYNTH_MAX_THREADS, sizeof *s->sendt);
  s->reqs = calloc(2 * P * SYNTH_MAX_THREADS, sizeof *s->reqs);
  s->grp = calloc(P, sizeof *s->grp);
  s->gmax = calloc(P, sizeof *s->gmax);
  s->groot = calloc(P, sizeof *s->groot);
  s->gsize = calloc(P, sizeof *s->gsize);
  s->tmpc = calloc(P, sizeof *s->tmpc);
  if (!s->r || !s->ta || !s->tb || !s->sendt || !s->reqs || !s->grp || !s->gmax || !s->groot || !s->gsize || !s->tmpc) {
    snprintf(err, errlen, "out of memory for %d ranks", s->P);
    return -1;
  }
  return 0;
}

static void sim_free(sim *s)
{
  if (s->r) {
    for (int r = 0; r < s->P; r++) {
      free(s->r[r].stage);
      free(s->r[r].arena);
    }
  }
  free(s->r);
  free(s->ta);
  free(s->tb);
  free(s->sendt);
  free(s->reqs);
  free(s->grp);
  free(s->gmax);
  free(s->groot);
  free(s->gsize);
  free(s->tmpc);
}

/* Every rank's output (for OTF2 a sink that only counts the DUMPI records,
 * for --size), its clocks and its DUMPI prologue. *opened counts the
 * outputs to discard if the run fails. */
static int open_ranks(sim *s, const hosts *h, int64_t boot, int *opened, char *err, size_t errlen)
{
  const synth_config *cfg = s->cfg;
  size_t P = (size_t)s->P;
  /* The budget shared out, each rank at least a page; a row's root also
   * holds its Gatherv record (two ints a column) whole. */
  size_t buf = cfg->buffer_budget / P;
  if (buf > (4u << 20)) buf = 4u << 20;
  if (buf < (4u << 10)) buf = 4u << 10;
  size_t root_buf = 8 * (size_t)s->px + (4u << 10);
  if (root_buf < buf) root_buf = buf;
  size_t fd_cap = rank_fd_cap(s->P);
  if (cfg->max_open_files && cfg->max_open_files < fd_cap) fd_cap = cfg->max_open_files;
  synth_fdpool_init(&s->fds, fd_cap);
  size_t plen = strlen(cfg->out_prefix) + 32;
  char *path = malloc(plen);
  if (!path) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  int rc = 0;
  for (int r = 0; r < s->P; r++, (*opened)++) {
    rank_st *rs = &s->r[r];
    bool root = r % s->px == 0;
    synth_rng_seed(&rs->rng, cfg->seed, (uint64_t)r);
    snprintf(path, plen, "%s-%04d.bin", cfg->out_prefix, r);
    size_t b = root ? root_buf : buf;
    int e = cfg->otf2 ? synth_out_open_counter(&rs->d.out, b) : synth_out_open(&rs->d.out, path, b, &s->fds);
    /* Only a row's root stages arrays (Gatherv's counts and displacements). */
    rs->cap_arena = root ? 2 * (size_t)s->px + 64 : 0;
    rs->arena = root ? malloc(rs->cap_arena * sizeof *rs->arena) : NULL;
    if (e || (root && !rs->arena)) {
      snprintf(err, errlen, "%s: %s", path, strerror(e ? e : ENOMEM));
      if (!e) (*opened)++;
      rc = -1;
      break;
    }
    rs->t = boot + (int64_t)r * 20000 + rnd(rs, 0, 40000000);
    rs->wall0 = rs->t;
    rs->host = (int)((int64_t)r * h->n / s->P);
    rs->d.wall_shift = h->shift[rs->host];
    rs->cpu0 = rnd(rs, 25000000, 60000000);
    rs->cpu_ratio = 0.90 + 0.09 * synth_rng_unit(&rs->rng);
    synth_dumpi_begin(&rs->d, (int32_t)(rs->cpu0 / 1000000000), (int32_t)((rs->wall0 + rs->d.wall_shift) / 1000000000),
                      cfg->cpu_times, cfg->statuses);
  }
  free(path);
  return rc;
}

/* --format otf2: the archive, its locations grouped by host. */
static int open_otf2(sim *s, hosts *h, char *err, size_t errlen)
{
  if (!s->cfg->otf2) return 0;
#ifdef SLOG2_HAVE_OTF2
  size_t P = (size_t)s->P;
  h->rank_host = malloc(P * sizeof *h->rank_host);
  h->names = malloc((size_t)h->n * sizeof *h->names);
  if (!h->rank_host || !h->names) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (size_t r = 0; r < P; r++) h->rank_host[r] = s->r[r].host;
  for (int i = 0; i < h->n; i++) h->names[i] = h->name[i];
  s->o2 = synth_otf2_open(s->cfg->out_prefix, s->P, h->rank_host, h->names, h->n, err, errlen);
  return s->o2 ? 0 : -1;
#else
  snprintf(err, errlen, "this slog2-synth was built without OTF2 (libotf2)");
  return -1;
#endif
}

/* A signal removes the ranks' temporary files (ends the hold). */
static bool arm_signals(const sim *s)
{
  size_t P = (size_t)s->P;
  bool armed = false;
  const char **tmp = malloc(P * sizeof *tmp);
  for (size_t r = 0; tmp && r < P; r++) tmp[r] = s->r[r].d.out.tmp_path;
  if (tmp)
    armed = signals_arm("slog2-synth", tmp, P, s->cfg->progress);
  else
    signals_unhold();
  free(tmp);
  return armed;
}

/* Whether the trace has the size asked for, counting what is still to
 * come per rank: the finalize calls and the trailer. */
static bool big_enough(const sim *s)
{
  const synth_config *cfg = s->cfg;
  uint64_t P = (uint64_t)s->P;
  if (cfg->size)
    return total_bytes(s) + P * (synth_dumpi_trailer_size(&s->hdr) + 64 * (3 + (uint64_t)cfg->threads)) >= cfg->size;
  return s->calls / P + 2 + (uint64_t)cfg->threads >= cfg->calls_per_rank;
}

/* One iteration of the solver: compute and halo exchange every time, the
 * other phases each on its own period, so each kind of call turns up at a
 * rate of its own. */
static void run_iteration(sim *s)
{
  uint64_t i = s->iter;
  user_mark(s, FN_SOLVE, 1);
  user_mark(s, FN_COMPUTE, 1);
  phase_compute(s);
  user_mark(s, FN_COMPUTE, 0);
  user_mark(s, FN_HALO, 1);
  phase_halo(s);
  user_mark(s, FN_HALO, 0);
  if (i % 5 == 4) phase_allreduce(s, 1);
  phase_allreduce(s, 0);
  if (i % 10 == 3) phase_sendrecv(s);
  if (i % 10 == 7) phase_pingpong(s);
  if (i % 25 == 11) phase_iprobe(s);
  if (i % 50 == 23) phase_probe(s);
  if (i % 20 == 13) phase_bcast(s);
  if (i % 15 == 6) phase_gatherv(s);
  if (i % 30 == 17) phase_reduce(s);
  if (i % 100 == 99) phase_barrier(s);
  if (i % 250 == 125) phase_temp_split(s);
  user_mark(s, FN_SOLVE, 0);
}

/* What stops the run after an iteration: a simulated clock past what DUMPI
 * can store, a rank out of memory or failing to write. */
static int check_ranks(const sim *s, char *err, size_t errlen)
{
  /* DUMPI stores seconds as 16 bits above the bias (iodefs.h put_times). */
  if (s->r[0].t / 1000000000 - s->r[0].d.wall_bias > 65000) {
    snprintf(err, errlen,
             "simulated run passed 65000 s, the limit of DUMPI's 16-bit "
             "seconds; use more ranks or fewer calls per rank");
    return -1;
  }
  for (int r = 0; r < s->P; r++) {
    if (s->r[r].oom || s->r[r].d.out.err) {
      if (s->r[r].oom || !s->r[r].d.out.final_path)
        snprintf(err, errlen, "rank %d: %s", r, s->r[r].oom ? "out of memory" : strerror(s->r[r].d.out.err));
      else
        snprintf(err, errlen, "%s: %s", s->r[r].d.out.final_path, strerror(s->r[r].d.out.err));
      return -1;
    }
  }
  return 0;
}

/* --progress: the share done, bytes and rate, at most four times a second. */
static void report_progress(const sim *s, double t_start, double *last)
{
  const synth_config *cfg = s->cfg;
  double t = now_s();
  if (t - *last < 0.25) return;
  *last = t;
  uint64_t done = total_bytes(s);
  double frac =
      cfg->size ? (double)done / (double)cfg->size : (double)s->calls / ((double)cfg->calls_per_rank * (double)s->P);
  char a[32], b[32];
  human(a, sizeof a, (double)done);
  human(b, sizeof b, (double)done / (t - t_start));
  fprintf(stderr, "\rslog2-synth: %5.1f%%  %s written  %s/s   ", 100.0 * (frac > 1 ? 1 : frac), a, b);
}

/* MPI_Finalize, then every rank's trailer with its host's name. */
static void finish_ranks(sim *s, const hosts *h, synth_result *res)
{
  phase_finalize(s);
  flush_stage(s);
  res->iterations = s->iter;
  res->calls = s->calls;
  for (int r = 0; r < s->P; r++) {
    rank_st *rs = &s->r[r];
    synth_header hd = s->hdr;
    hd.hostname = h->name[rs->host];
    synth_dumpi_finish(&rs->d, &hd);
    res->bytes += synth_out_tell(&rs->d.out);
  }
}

/* Every rank's final name, made again from the prefix (a committed sink
 * has freed its own). */
static void remove_ranks(const sim *s, int n)
{
  size_t plen = strlen(s->cfg->out_prefix) + 32;
  char *path = malloc(plen);
  for (int r = 0; path && r < n; r++) {
    snprintf(path, plen, "%s-%04d.bin", s->cfg->out_prefix, r);
    unlink(path);
  }
  free(path);
}

/* Commit every file: first every rank's last bytes written and its file
 * closed (where a full disk shows), then the renames, then the .meta. A
 * failure at any step removes the rank files, renamed or not (the caller
 * discards the *opened sinks left). OTF2 writes its archive and leaves the
 * counting sinks (*opened) to be discarded. */
static int commit_files(sim *s, int *opened, char *err, size_t errlen)
{
#ifdef SLOG2_HAVE_OTF2
  if (s->o2) {
    int rc = synth_otf2_finish(s->o2, user_fn_addr, user_fn_name, N_USER_FNS, err, errlen);
    s->o2 = NULL;
    return rc;
  }
#endif
  int rc = 0;
  for (int r = 0; r < s->P && rc == 0; r++) {
    int e = synth_out_close(&s->r[r].d.out);
    if (e) {
      snprintf(err, errlen, "%s: %s", s->r[r].d.out.final_path, strerror(e));
      rc = -1;
    }
  }
  for (int r = 0; r < s->P && rc == 0; r++) {
    char *name = strdup(s->r[r].d.out.final_path);
    int e = synth_out_commit(&s->r[r].d.out);
    if (e) {
      snprintf(err, errlen, "%s: %s", name ? name : "rank file", strerror(e));
      remove_ranks(s, r);
      rc = -1;
    }
    free(name);
  }
  if (rc == 0) {
    *opened = 0;
    rc = write_meta(s, s->cfg->out_prefix, err, errlen);
    if (rc) remove_ranks(s, s->P);
  }
  if (s->cfg->progress) fprintf(stderr, "\r%60s\r", "");
  return rc;
}

int synth_run(const synth_config *cfg, synth_result *res, char *err, size_t errlen)
{
  double t_start = now_s();
  memset(res, 0, sizeof *res);
  const char *why = synth_dumpi_prepare();
  if (why) {
    snprintf(err, errlen, "%s", why);
    return -1;
  }
  if (make_parent_dir(cfg->out_prefix, err, errlen)) return -1;

  sim sm = {0}, *s = &sm;
  int64_t boot = sim_setup(s, cfg);
  hosts h = {0};
  if (hosts_make(&h, cfg, err, errlen)) {
    hosts_free(&h);
    return -1;
  }
  s->hdr.hostname = h.name[0];
  int rc = -1, opened = 0;
  bool armed = false;
  if (sim_alloc(s, err, errlen)) goto out;
  /* Until armed: a signal between creating a file and arming would leave it. */
  if (cfg->remove_on_signal) signals_hold();
  if (open_ranks(s, &h, boot, &opened, err, errlen) || open_otf2(s, &h, err, errlen)) goto out;
  if (cfg->remove_on_signal && !cfg->otf2) armed = arm_signals(s);

  phase_init(s);
  flush_stage(s);
  double last = t_start;
  for (s->iter = 0; !big_enough(s); s->iter++) {
    run_iteration(s);
    flush_stage(s);
    if (check_ranks(s, err, errlen)) goto out;
    if (cfg->progress && (s->iter & 15) == 0) report_progress(s, t_start, &last);
  }
  finish_ranks(s, &h, res);
  rc = commit_files(s, &opened, err, errlen);
out:
  for (int r = 0; r < opened; r++) synth_out_discard(&s->r[r].d.out);
#ifdef SLOG2_HAVE_OTF2
  synth_otf2_abort(s->o2);
#endif
  signals_unhold();            /* opening a file failed */
  if (armed) signals_disarm(); /* every file renamed or removed */
  sim_free(s);
  hosts_free(&h);
  res->seconds = now_s() - t_start;
  return rc;
}
