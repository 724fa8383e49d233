/* SPDX-License-Identifier: MIT */
/* test_decode.c - every generated trace decodes with the project's DUMPI
 * decoder (dumpi/dumpi.h) and is consistent:
 *   - no decode errors; index, header (13.0.0), footer present;
 *   - per-label call counts equal the footer's, the total entry is their sum;
 *   - per rank, exit times never decrease and no call ends before it starts;
 *   - thread ids stay within 0..threads, the mask matches the options;
 *   - every point-to-point message is received exactly once, and completes
 *     after its send started (messages matched in MPI order per
 *     communicator, source, destination and tag);
 *   - each MPI_COMM_WORLD Allreduce ends after the last rank entered it.
 */
#include "check.h"
#include "util.h"

#include "dumpi.h"

enum {
  L_SEND = 0,
  L_RECV = 1,
  L_ISEND = 8,
  L_IRECV = 12,
  L_WAITALL = 18,
  L_SENDRECV = 33,
  L_ALLREDUCE = 65,
  L_COMM_DUP = 84,
  L_COMM_SPLIT = 86
};

typedef struct msg {
  int64_t key; /* communicator identity */
  int src, dst, tag;
  uint64_t seq; /* order of posting in the owner's file */
  int64_t t;    /* send: start; receive: completion */
} msg;

typedef struct vec {
  msg *v;
  size_t n, cap;
} vec;

static void push(vec *a, msg m)
{
  if (a->n == a->cap) {
    a->cap = a->cap ? 2 * a->cap : 1024;
    a->v = realloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = m;
}

static int cmp_msg(const void *pa, const void *pb)
{
  const msg *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  if (a->src != b->src) return a->src - b->src;
  if (a->dst != b->dst) return a->dst - b->dst;
  if (a->tag != b->tag) return a->tag - b->tag;
  return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Per-rank view of a communicator id: the first Comm_split of WORLD gives
 * the row communicator (color = row, key = column), Comm_dup ids are
 * copies of WORLD. */
typedef struct rank_comms {
  int row_comm, color, key;
  int dup[64];
} rank_comms;

#define MAX_RANKS 64

static int arg(uint16_t label, const char *name)
{
  int i = dumpi_fn_arg_index(label, name);
  if (i < 0) {
    fprintf(stderr, "table has no %s in label %u\n", name, label);
    exit(1);
  }
  return i;
}

/* World rank of local rank `local` in rank r's communicator `comm`; sets
 * *key to the communicator's identity. */
static int to_world(const rank_comms *rc, int n_ranks, int r, int comm, int local, int64_t *key)
{
  if (comm == 2 || rc[r].dup[comm & 63] == comm) {
    *key = comm;
    return local;
  }
  if (comm == rc[r].row_comm) {
    *key = 1000 + rc[r].color;
    for (int w = 0; w < n_ranks; w++)
      if (rc[w].color == rc[r].color && rc[w].key == local) return w;
  }
  *key = -1;
  return -1;
}

typedef struct pending {
  int32_t req;
  msg m;
} pending;

static void check_run(const char *tag, int ranks, int threads, int cpu, int statuses)
{
  char *dir = scratch_dir(tag);
  char prefix[4200], meta_path[4200];
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  snprintf(meta_path, sizeof meta_path, "%s/t.meta", dir);
  synth_config c = small_config(prefix);
  c.ranks = ranks;
  c.threads = threads;
  c.cpu_times = cpu;
  c.statuses = statuses;
  if (generate(&c) != 0) {
    CHECK(0);
    rm_tree(dir);
    return;
  }

  dumpi_meta *meta = NULL;
  dumpi_error err;
  int rc = dumpi_meta_open(meta_path, &meta, &err);
  CHECKF(rc == DUMPI_OK, "%s", err.message);
  if (rc != DUMPI_OK) {
    rm_tree(dir);
    return;
  }
  CHECK(dumpi_meta_n_ranks(meta) == ranks);
  size_t n_missing;
  dumpi_meta_missing(meta, &n_missing);
  CHECK(n_missing == 0);

  const int i_split_old = arg(L_COMM_SPLIT, "oldcomm"), i_split_color = arg(L_COMM_SPLIT, "color"),
            i_split_key = arg(L_COMM_SPLIT, "key"), i_split_new = arg(L_COMM_SPLIT, "newcomm"),
            i_dup_new = arg(L_COMM_DUP, "newcomm");
  static rank_comms rc_all[MAX_RANKS];
  memset(rc_all, 0, sizeof rc_all);

  /* Pass 1: communicators. */
  for (int r = 0; r < ranks; r++) {
    dumpi_file *f = NULL;
    if (dumpi_file_open(dumpi_meta_bin_path(meta, r), &f, &err) != DUMPI_OK) continue;
    dumpi_call call;
    rc_all[r].row_comm = -1;
    while (dumpi_file_next(f, &call, &err) == 1) {
      if (call.label == L_COMM_SPLIT && rc_all[r].row_comm < 0 && dumpi_call_int(&call, i_split_old) == 2) {
        rc_all[r].row_comm = (int)dumpi_call_int(&call, i_split_new);
        rc_all[r].color = (int)dumpi_call_int(&call, i_split_color);
        rc_all[r].key = (int)dumpi_call_int(&call, i_split_key);
      } else if (call.label == L_COMM_DUP) {
        int id = (int)dumpi_call_int(&call, i_dup_new);
        rc_all[r].dup[id & 63] = id;
      }
    }
    dumpi_file_close(f);
  }

  /* Pass 2: everything else. */
  vec sends = {0}, recvs = {0};
  int64_t *ar_entry[MAX_RANKS] = {0}, *ar_exit[MAX_RANKS] = {0};
  size_t n_ar[MAX_RANKS] = {0};
  for (int r = 0; r < ranks; r++) {
    dumpi_file *f = NULL;
    rc = dumpi_file_open(dumpi_meta_bin_path(meta, r), &f, &err);
    CHECKF(rc == DUMPI_OK, "%s", err.message);
    if (rc != DUMPI_OK) continue;
    CHECK(dumpi_file_has_index(f));
    uint8_t v[3];
    dumpi_file_version(f, v);
    CHECK(v[0] == 13 && v[1] == 0 && v[2] == 0);
    CHECK(dumpi_file_n_datatypes(f) >= 28);
    CHECK(dumpi_file_datatype_size(f, 14) == 8);

    uint32_t counted[DUMPI_LABEL_ALL_FUNCTIONS + 1] = {0};
    uint64_t n = 0, seq = 0;
    int64_t last_exit = 0;
    pending pend[256];
    int n_pend = 0;
    dumpi_call call;
    uint8_t want_mask = 0x48 | (cpu ? 0x04 : 0) | (statuses ? 0x03 : 0);
    size_t cap_ar = 0;
    while ((rc = dumpi_file_next(f, &call, &err)) == 1) {
      seq++;
      n++;
      if (call.label <= DUMPI_LABEL_ALL_FUNCTIONS) counted[call.label]++;
      CHECKF(call.wall_stop >= last_exit, "rank %d record %llu: exit goes back in time", r, (unsigned long long)n);
      CHECK(call.wall_start <= call.wall_stop);
      CHECK(call.cpu_start <= call.cpu_stop);
      CHECK(call.wall_start > 100000000000LL); /* CLOCK_MONOTONIC-like: > 100 s */
      CHECK(call.thread <= threads);
      CHECKF(call.mask == want_mask, "mask 0x%02x, want 0x%02x", call.mask, want_mask);
      last_exit = call.wall_stop;
      const dumpi_fn_info *fn = call.fn;
      int64_t key;
      switch (call.label) {
      case L_SEND:
      case L_ISEND: {
        int comm = (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "comm"));
        int dst =
            to_world(rc_all, ranks, r, comm, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "dest")), &key);
        CHECK(dst >= 0);
        msg m = {key, r, dst, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "tag")), seq, call.wall_start};
        push(&sends, m);
        break;
      }
      case L_RECV: {
        int comm = (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "comm"));
        int src = to_world(rc_all, ranks, r, comm, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "source")),
                           &key);
        CHECK(src >= 0);
        msg m = {key, src, r, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "tag")), seq, call.wall_stop};
        push(&recvs, m);
        break;
      }
      case L_SENDRECV: {
        int comm = (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "comm"));
        int dst =
            to_world(rc_all, ranks, r, comm, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "dest")), &key);
        msg s = {
            key, r, dst, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "sendtag")), seq, call.wall_start};
        push(&sends, s);
        int src = to_world(rc_all, ranks, r, comm, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "source")),
                           &key);
        msg m = {key, src,           r, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "recvtag")),
                 seq, call.wall_stop};
        push(&recvs, m);
        break;
      }
      case L_IRECV: {
        int comm = (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "comm"));
        int src = to_world(rc_all, ranks, r, comm, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "source")),
                           &key);
        CHECK(src >= 0);
        CHECK(n_pend < 256);
        if (n_pend < 256) {
          pending p = {(int32_t)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "request")),
                       {key, src, r, (int)dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "tag")), seq, 0}};
          for (int i = 0; i < n_pend; i++)
            CHECKF(pend[i].req != p.req, "rank %d: request %d reused while live", r, p.req);
          pend[n_pend++] = p;
        }
        break;
      }
      case L_WAITALL: {
        int32_t nc = dumpi_call_n_completed(&call);
        for (int32_t i = 0; i < nc; i++) {
          int32_t req;
          const dumpi_status *st;
          CHECK(dumpi_call_completed(&call, i, &req, &st) == 0);
          CHECK(statuses ? st != NULL : st == NULL);
          for (int k = 0; k < n_pend; k++) {
            if (pend[k].req != req) continue;
            pend[k].m.t = call.wall_stop;
            if (st) CHECK(st->tag == pend[k].m.tag);
            push(&recvs, pend[k].m);
            pend[k] = pend[--n_pend];
            break;
          }
        }
        break;
      }
      case L_ALLREDUCE:
        if (dumpi_call_int(&call, dumpi_fn_arg_index(call.label, "comm")) == 2) {
          if (n_ar[r] == cap_ar) {
            cap_ar = cap_ar ? 2 * cap_ar : 256;
            ar_entry[r] = realloc(ar_entry[r], cap_ar * sizeof(int64_t));
            ar_exit[r] = realloc(ar_exit[r], cap_ar * sizeof(int64_t));
          }
          ar_entry[r][n_ar[r]] = call.wall_start;
          ar_exit[r][n_ar[r]++] = call.wall_stop;
        }
        break;
      default: break;
      }
      (void)fn;
    }
    CHECKF(rc == 0, "rank %d: %s", r, err.message);
    CHECKF(n_pend == 0, "rank %d: %d receives never completed", r, n_pend);
    const uint32_t *calls, *ignored;
    int nf = dumpi_file_footer_counts(f, &calls, &ignored);
    CHECK(nf == DUMPI_LABEL_ALL_FUNCTIONS + 1);
    if (nf == DUMPI_LABEL_ALL_FUNCTIONS + 1) {
      uint64_t sum = 0;
      for (int l = 0; l < DUMPI_LABEL_ALL_FUNCTIONS; l++) {
        CHECKF(calls[l] == counted[l], "rank %d label %d: footer %u, stream %u", r, l, calls[l], counted[l]);
        CHECK(ignored[l] == 0);
        sum += calls[l];
      }
      CHECK(calls[DUMPI_LABEL_ALL_FUNCTIONS] == sum);
      CHECK(sum == n);
    }
    CHECK(n >= c.calls_per_rank * 9 / 10);
    dumpi_file_close(f);
  }

  /* Messages: k-th send matches k-th posted receive per (comm, src, dst, tag). */
  qsort(sends.v, sends.n, sizeof(msg), cmp_msg);
  qsort(recvs.v, recvs.n, sizeof(msg), cmp_msg);
  CHECKF(sends.n == recvs.n, "%zu sends, %zu receives", sends.n, recvs.n);
  CHECK(sends.n > 0 || ranks == 1);
  for (size_t i = 0; i < sends.n && i < recvs.n; i++) {
    const msg *s = &sends.v[i], *m = &recvs.v[i];
    int same = s->key == m->key && s->src == m->src && s->dst == m->dst && s->tag == m->tag;
    CHECKF(same, "message %zu: send %d->%d tag %d, receive %d->%d tag %d", i, s->src, s->dst, s->tag, m->src, m->dst,
           m->tag);
    if (!same) break;
    CHECKF(m->t > s->t, "message %d->%d tag %d: received at %lld, sent at %lld", s->src, s->dst, s->tag,
           (long long)m->t, (long long)s->t);
  }
  /* World Allreduce k ends after every rank entered Allreduce k. */
  for (size_t k = 0; k < n_ar[0]; k++) {
    int64_t last_in = 0;
    for (int r = 0; r < ranks; r++) {
      CHECK(n_ar[r] == n_ar[0]);
      if (k < n_ar[r] && ar_entry[r][k] > last_in) last_in = ar_entry[r][k];
    }
    for (int r = 0; r < ranks; r++)
      if (k < n_ar[r]) CHECK(ar_exit[r][k] > last_in);
  }
  printf("%-9s %d ranks, %d threads: %zu messages matched, %zu world Allreduces\n", tag, ranks, threads, sends.n,
         n_ar[0]);
  for (int r = 0; r < ranks; r++) {
    free(ar_entry[r]);
    free(ar_exit[r]);
  }
  free(sends.v);
  free(recvs.v);
  dumpi_meta_free(meta);
  rm_tree(dir);
}

int main(void)
{
  check_run("plain", 4, 0, 1, 1);
  check_run("grid", 9, 0, 1, 1);
  check_run("threads", 6, 3, 0, 1);
  check_run("nostatus", 8, 2, 1, 0);
  check_run("one", 1, 0, 1, 1);
  return 0;
}
