/* SPDX-License-Identifier: MIT */
/* otf2_write.c - see otf2_write.h. */
#include "otf2_write.h"

#include <errno.h>
#include <otf2/otf2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dumpi_table.h"

/* workload.c's handles (MPI_COMM_WORLD, MPI_COMM_NULL) and wildcards. */
enum { W_COMM_NULL = 1, W_COMM_WORLD = 2, W_ANY_SOURCE = -1, W_UNDEFINED = -32766 };
#define N_LOCAL_COMMS 64
#define N_REQ         256

/* A communicator the program made: the k-th made from parent with color,
 * its members (world rank, key) in the order they joined. */
typedef struct o2w_comm {
  uint32_t parent, k;
  int32_t color;
  uint32_t n, cap;
  int64_t *member; /* key << 32 | world rank */
} o2w_comm;

typedef struct o2w_req {
  uint8_t used, is_send;
  uint32_t comm, peer, tag;
  uint64_t bytes;
} o2w_req;

typedef struct o2w_rank {
  OTF2_EvtWriter *w;
  uint64_t n_events;
  uint64_t last_t;
  int32_t local[N_LOCAL_COMMS]; /* local handle -> global comm + 1 */
  uint32_t *made;               /* per global comm: communicators made from it */
  uint32_t n_made;
  o2w_req req[N_REQ];
} o2w_rank;

struct synth_otf2 {
  OTF2_Archive *ar;
  int P;
  const int *rank_host;
  const char *const *host_names;
  int n_hosts;
  o2w_rank *r;
  o2w_comm *comms;
  uint32_t n_comms, cap_comms;
  uint32_t region_of[DUMPI_N_LABELS]; /* label -> region + 1 */
  uint64_t fn_region_addr[64];        /* user functions by address */
  uint32_t fn_region[64];
  uint32_t n_fn_regions;
  uint32_t n_regions;                         /* regions in order of first use: */
  uint16_t region_label[DUMPI_N_LABELS + 64]; /* label, or DUMPI_N_LABELS + function */
  uint64_t t_min, t_max;
  int oom;
};

static OTF2_FlushType pre_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc, void *cb, bool final)
{
  (void)user, (void)type, (void)loc, (void)cb, (void) final;
  return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *user, OTF2_FileType type, OTF2_LocationRef loc)
{
  (void)user, (void)type, (void)loc;
  return 0;
}

static const OTF2_FlushCallbacks flush_cbs = {pre_flush, post_flush};

static uint32_t new_comm(synth_otf2 *o, uint32_t parent, uint32_t k, int32_t color)
{
  if (o->n_comms == o->cap_comms) {
    uint32_t cap = o->cap_comms ? 2 * o->cap_comms : 16;
    o2w_comm *p = realloc(o->comms, cap * sizeof *p);
    if (!p) {
      o->oom = 1;
      return 0;
    }
    o->comms = p;
    o->cap_comms = cap;
  }
  o->comms[o->n_comms] = (o2w_comm){parent, k, color, 0, 0, NULL};
  return o->n_comms++;
}

static void join(synth_otf2 *o, uint32_t c, int r, int32_t key)
{
  o2w_comm *cm = &o->comms[c];
  if (cm->n == cm->cap) {
    uint32_t cap = cm->cap ? 2 * cm->cap : 8;
    int64_t *p = realloc(cm->member, cap * sizeof *p);
    if (!p) {
      o->oom = 1;
      return;
    }
    cm->member = p;
    cm->cap = cap;
  }
  cm->member[cm->n++] = (int64_t)key * ((int64_t)1 << 32) + r;
}

synth_otf2 *synth_otf2_open(const char *out_prefix, int ranks, const int *rank_host, const char *const *host_names,
                            int n_hosts, char *err, size_t errlen)
{
  char *dir = strdup(out_prefix);
  if (!dir) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  char *slash = strrchr(dir, '/');
  const char *name = slash ? slash + 1 : dir;
  const char *path = slash ? (slash == dir ? "/" : dir) : ".";
  if (slash) *slash = '\0';
  /* libotf2 refuses to write into an archive that exists. */
  char *anchor = malloc(strlen(out_prefix) + 8);
  struct stat st;
  if (anchor) {
    sprintf(anchor, "%s.otf2", out_prefix);
    if (stat(anchor, &st) == 0 || stat(out_prefix, &st) == 0) {
      snprintf(err, errlen, "%s: an OTF2 archive (or its folder %s) exists already; remove it first", anchor,
               out_prefix);
      free(anchor);
      free(dir);
      return NULL;
    }
  }
  free(anchor);
  synth_otf2 *o = calloc(1, sizeof *o);
  if (o) o->r = calloc((size_t)ranks, sizeof *o->r);
  if (!o || !o->r) {
    snprintf(err, errlen, "out of memory");
    free(o);
    free(dir);
    return NULL;
  }
  o->P = ranks;
  o->rank_host = rank_host;
  o->host_names = host_names;
  o->n_hosts = n_hosts;
  o->t_min = UINT64_MAX;
  /* Event chunks of 1 MiB, definitions 4 MiB: libotf2's usual sizes. */
  o->ar =
      OTF2_Archive_Open(path, name, OTF2_FILEMODE_WRITE, 1 << 20, 4 << 20, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  free(dir);
  if (!o->ar) {
    snprintf(err, errlen, "%s.otf2: libotf2 cannot create the archive", out_prefix);
    free(o->r);
    free(o);
    return NULL;
  }
  OTF2_Archive_SetFlushCallbacks(o->ar, &flush_cbs, NULL);
  OTF2_Archive_SetSerialCollectiveCallbacks(o->ar);
  OTF2_Archive_SetCreator(o->ar, "slog2-synth " SLOG2_VERSION);
  OTF2_Archive_OpenEvtFiles(o->ar);
  /* Communicator 0: MPI_COMM_WORLD, every rank by its world rank. */
  new_comm(o, UINT32_MAX, 0, 0);
  for (int r = 0; r < ranks; r++) {
    o->r[r].w = OTF2_Archive_GetEvtWriter(o->ar, (OTF2_LocationRef)r);
    o->r[r].local[W_COMM_WORLD] = 1;
    join(o, 0, r, r);
  }
  return o;
}

static uint32_t region(synth_otf2 *o, uint16_t label)
{
  if (!o->region_of[label]) {
    o->region_label[o->n_regions] = label;
    o->region_of[label] = ++o->n_regions;
  }
  return o->region_of[label] - 1;
}

static uint32_t fn_region(synth_otf2 *o, uint64_t addr)
{
  for (uint32_t i = 0; i < o->n_fn_regions; i++)
    if (o->fn_region_addr[i] == addr) return o->fn_region[i];
  if (o->n_fn_regions == 64) return o->fn_region[63];
  o->fn_region_addr[o->n_fn_regions] = addr;
  o->region_label[o->n_regions] = (uint16_t)(DUMPI_N_LABELS + o->n_fn_regions);
  o->fn_region[o->n_fn_regions++] = o->n_regions;
  return o->n_regions++;
}

/* Global communicator of rank r's handle h (UINT32_MAX: none). */
static uint32_t gcomm(const o2w_rank *rk, int32_t h)
{
  return h >= 0 && h < N_LOCAL_COMMS && rk->local[h] ? (uint32_t)rk->local[h] - 1 : UINT32_MAX;
}

static uint64_t bytes_of(int32_t count, int32_t type)
{
  return count > 0 ? (uint64_t)count * synth_dumpi_type_size(type) : 0;
}

/* Rank r makes communicator handle h from parent handle ph with color. */
static void comm_made(synth_otf2 *o, int r, int32_t ph, int32_t h, int32_t color, int32_t key)
{
  o2w_rank *rk = &o->r[r];
  uint32_t parent = gcomm(rk, ph);
  if (parent == UINT32_MAX) return;
  if (parent >= rk->n_made) {
    uint32_t n = o->n_comms + 16;
    uint32_t *p = realloc(rk->made, n * sizeof *p);
    if (!p) {
      o->oom = 1;
      return;
    }
    memset(p + rk->n_made, 0, (n - rk->n_made) * sizeof *p);
    rk->made = p;
    rk->n_made = n;
  }
  uint32_t k = rk->made[parent]++;
  if (color == W_UNDEFINED || h < 0 || h >= N_LOCAL_COMMS) return;
  /* The same split on every member gives the same (parent, k, color). */
  uint32_t c = UINT32_MAX;
  for (uint32_t i = o->n_comms; i-- > 1;)
    if (o->comms[i].parent == parent && o->comms[i].k == k && o->comms[i].color == color) {
      c = i;
      break;
    }
  if (c == UINT32_MAX) c = new_comm(o, parent, k, color);
  if (o->oom) return;
  join(o, c, r, key);
  rk->local[h] = (int32_t)c + 1;
}

static OTF2_TimeStamp ts(synth_otf2 *o, o2w_rank *rk, int64_t t)
{
  uint64_t u = t < 0 ? 0 : (uint64_t)t;
  if (u < rk->last_t) u = rk->last_t; /* a location's records in time order */
  rk->last_t = u;
  if (u < o->t_min) o->t_min = u;
  if (u > o->t_max) o->t_max = u;
  rk->n_events++;
  return u;
}

static void collective(synth_otf2 *o, o2w_rank *rk, const synth_call *c, OTF2_CollectiveOp op, uint32_t comm,
                       uint32_t root, uint64_t sent, uint64_t received)
{
  OTF2_EvtWriter_MpiCollectiveBegin(rk->w, NULL, ts(o, rk, c->wall_start));
  OTF2_EvtWriter_MpiCollectiveEnd(rk->w, NULL, ts(o, rk, c->wall_stop), op, comm, root, sent, received);
}

void synth_otf2_call(synth_otf2 *o, int r, const synth_call *c)
{
  o2w_rank *rk = &o->r[r];
  const int32_t *v = c->v;
  if (c->label == SYNTH_FUNCTION_ENTER || c->label == SYNTH_FUNCTION_EXIT) {
    uint32_t reg = fn_region(o, c->fn);
    if (c->label == SYNTH_FUNCTION_ENTER)
      OTF2_EvtWriter_Enter(rk->w, NULL, ts(o, rk, c->wall_start), reg);
    else
      OTF2_EvtWriter_Leave(rk->w, NULL, ts(o, rk, c->wall_start), reg);
    return;
  }
  uint32_t reg = region(o, c->label);
  OTF2_EvtWriter_Enter(rk->w, NULL, ts(o, rk, c->wall_start), reg);
  uint32_t comm = gcomm(rk, v[SL_COMM]);
  int32_t h;
  switch (c->label) {
  case SYNTH_SEND:
    OTF2_EvtWriter_MpiSend(rk->w, NULL, ts(o, rk, c->wall_start), (uint32_t)v[SL_DEST], comm, (uint32_t)v[SL_TAG],
                           bytes_of(v[SL_COUNT], v[SL_DATATYPE]));
    break;
  case SYNTH_ISEND:
  case SYNTH_IRECV:
    h = v[SL_REQUEST];
    if (h >= 0 && h < N_REQ) {
      int send = c->label == SYNTH_ISEND;
      rk->req[h] = (o2w_req){1,
                             (uint8_t)send,
                             comm,
                             (uint32_t)(send ? v[SL_DEST] : v[SL_SOURCE]),
                             (uint32_t)v[SL_TAG],
                             bytes_of(v[SL_COUNT], v[SL_DATATYPE])};
      if (send)
        OTF2_EvtWriter_MpiIsend(rk->w, NULL, ts(o, rk, c->wall_start), (uint32_t)v[SL_DEST], comm, (uint32_t)v[SL_TAG],
                                rk->req[h].bytes, (uint64_t)h);
      else
        OTF2_EvtWriter_MpiIrecvRequest(rk->w, NULL, ts(o, rk, c->wall_start), (uint64_t)h);
    }
    break;
  case SYNTH_RECV: {
    /* The status says who sent it, when the receive named no one. */
    int has = c->n_status > 0;
    uint32_t src = (uint32_t)(has && v[SL_SOURCE] == W_ANY_SOURCE ? c->st[0].source : v[SL_SOURCE]);
    uint64_t n = has ? (uint64_t)c->st[0].bytes : bytes_of(v[SL_COUNT], v[SL_DATATYPE]);
    OTF2_EvtWriter_MpiRecv(rk->w, NULL, ts(o, rk, c->wall_stop), src, comm, (uint32_t)v[SL_TAG], n);
    break;
  }
  case SYNTH_SENDRECV:
    OTF2_EvtWriter_MpiSend(rk->w, NULL, ts(o, rk, c->wall_start), (uint32_t)v[SL_DEST], comm, (uint32_t)v[SL_SENDTAG],
                           bytes_of(v[SL_SENDCOUNT], v[SL_SENDTYPE]));
    OTF2_EvtWriter_MpiRecv(rk->w, NULL, ts(o, rk, c->wall_stop), (uint32_t)v[SL_SOURCE], comm, (uint32_t)v[SL_RECVTAG],
                           bytes_of(v[SL_RECVCOUNT], v[SL_RECVTYPE]));
    break;
  case SYNTH_WAITALL:
    for (int i = 0; i < c->n_req; i++) {
      h = c->req[i];
      if (h < 0 || h >= N_REQ || !rk->req[h].used) continue;
      o2w_req *q = &rk->req[h];
      OTF2_TimeStamp t = ts(o, rk, c->wall_stop);
      if (q->is_send) {
        OTF2_EvtWriter_MpiIsendComplete(rk->w, NULL, t, (uint64_t)h);
      } else {
        uint32_t src = q->peer;
        if (i < c->n_status && (int32_t)src == W_ANY_SOURCE) src = (uint32_t)c->st[i].source;
        OTF2_EvtWriter_MpiIrecv(rk->w, NULL, t, src, q->comm, q->tag, q->bytes, (uint64_t)h);
      }
      q->used = 0;
    }
    break;
  case SYNTH_BARRIER: collective(o, rk, c, OTF2_COLLECTIVE_OP_BARRIER, comm, OTF2_UNDEFINED_UINT32, 0, 0); break;
  case SYNTH_BCAST:
    collective(o, rk, c, OTF2_COLLECTIVE_OP_BCAST, comm, (uint32_t)v[SL_ROOT], bytes_of(v[SL_COUNT], v[SL_DATATYPE]),
               bytes_of(v[SL_COUNT], v[SL_DATATYPE]));
    break;
  case SYNTH_REDUCE:
    collective(o, rk, c, OTF2_COLLECTIVE_OP_REDUCE, comm, (uint32_t)v[SL_ROOT], bytes_of(v[SL_COUNT], v[SL_DATATYPE]),
               bytes_of(v[SL_COUNT], v[SL_DATATYPE]));
    break;
  case SYNTH_ALLREDUCE:
    collective(o, rk, c, OTF2_COLLECTIVE_OP_ALLREDUCE, comm, OTF2_UNDEFINED_UINT32,
               bytes_of(v[SL_COUNT], v[SL_DATATYPE]), bytes_of(v[SL_COUNT], v[SL_DATATYPE]));
    break;
  case SYNTH_GATHERV: {
    uint64_t rcv = 0;
    for (int i = 0; i < c->n_counts; i++) rcv += bytes_of(c->counts[i], v[SL_RECVTYPE]);
    collective(o, rk, c, OTF2_COLLECTIVE_OP_GATHERV, comm, (uint32_t)v[SL_ROOT],
               bytes_of(v[SL_SENDCOUNT], v[SL_SENDTYPE]), rcv);
    break;
  }
  case SYNTH_COMM_SPLIT:
  case SYNTH_COMM_DUP:
    comm = gcomm(rk, v[SL_OLDCOMM]);
    comm_made(o, r, v[SL_OLDCOMM], v[SL_NEWCOMM], c->label == SYNTH_COMM_DUP ? 0 : v[SL_COLOR],
              c->label == SYNTH_COMM_DUP ? r : v[SL_KEY]);
    collective(o, rk, c, OTF2_COLLECTIVE_OP_CREATE_HANDLE, comm, OTF2_UNDEFINED_UINT32, 0, 0);
    break;
  case SYNTH_COMM_FREE:
    collective(o, rk, c, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, comm, OTF2_UNDEFINED_UINT32, 0, 0);
    h = v[SL_COMM];
    if (h >= 0 && h < N_LOCAL_COMMS && h != W_COMM_WORLD) rk->local[h] = 0;
    break;
  default: break; /* a region alone (MPI_Init, MPI_Comm_rank, MPI_Probe, ...) */
  }
  OTF2_EvtWriter_Leave(rk->w, NULL, ts(o, rk, c->wall_stop), reg);
}

static int cmp_i64(const void *x, const void *y)
{
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

static void free_all(synth_otf2 *o)
{
  for (uint32_t i = 0; i < o->n_comms; i++) free(o->comms[i].member);
  free(o->comms);
  for (int r = 0; r < o->P; r++) free(o->r[r].made);
  free(o->r);
  free(o);
}

void synth_otf2_abort(synth_otf2 *o)
{
  if (!o) return;
  OTF2_Archive_Close(o->ar);
  free_all(o);
}

int synth_otf2_finish(synth_otf2 *o, const uint64_t *fn_addr, const char *const *fn_name, int n_fns, char *err,
                      size_t errlen)
{
  int rc = 0;
  for (int r = 0; r < o->P; r++) OTF2_Archive_CloseEvtWriter(o->ar, o->r[r].w);
  OTF2_Archive_CloseEvtFiles(o->ar);
  if (o->t_min == UINT64_MAX) o->t_min = o->t_max = 0;
  /* Local definitions: a zero ClockOffset at the start and the end, as
   * Score-P writes after synchronising its clocks (a reader then knows
   * the times need no alignment). */
  OTF2_Archive_OpenDefFiles(o->ar);
  for (int r = 0; r < o->P; r++) {
    OTF2_DefWriter *dw = OTF2_Archive_GetDefWriter(o->ar, (OTF2_LocationRef)r);
    OTF2_DefWriter_WriteClockOffset(dw, o->t_min, 0, 0.0);
    OTF2_DefWriter_WriteClockOffset(dw, o->t_max, 0, 0.0);
    OTF2_Archive_CloseDefWriter(o->ar, dw);
  }
  OTF2_Archive_CloseDefFiles(o->ar);
  OTF2_GlobalDefWriter *g = OTF2_Archive_GetGlobalDefWriter(o->ar);
  uint32_t str = 0;
  char buf[64];
  OTF2_GlobalDefWriter_WriteClockProperties(g, 1000000000, o->t_min, o->t_max - o->t_min + 1, OTF2_UNDEFINED_TIMESTAMP);
  /* Strings 0.. : "", "machine", "node", "synth", then per use. */
  OTF2_GlobalDefWriter_WriteString(g, str++, "");
  OTF2_GlobalDefWriter_WriteString(g, str++, "machine");
  OTF2_GlobalDefWriter_WriteString(g, str++, "node");
  OTF2_GlobalDefWriter_WriteString(g, str++, "synth cluster");
  OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 0, 3, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  for (int h = 0; h < o->n_hosts; h++) {
    OTF2_GlobalDefWriter_WriteString(g, str, o->host_names[h]);
    OTF2_GlobalDefWriter_WriteSystemTreeNode(g, 1 + (uint32_t)h, str++, 2, 0);
  }
  for (int r = 0; r < o->P; r++) {
    snprintf(buf, sizeof buf, "MPI Rank %d", r);
    OTF2_GlobalDefWriter_WriteString(g, str, buf);
    OTF2_GlobalDefWriter_WriteLocationGroup(g, (uint32_t)r, str++, OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                            1 + (uint32_t)o->rank_host[r], OTF2_UNDEFINED_LOCATION_GROUP);
    snprintf(buf, sizeof buf, "Master thread");
    OTF2_GlobalDefWriter_WriteString(g, str, buf);
    OTF2_GlobalDefWriter_WriteLocation(g, (OTF2_LocationRef)r, str++, OTF2_LOCATION_TYPE_CPU_THREAD, o->r[r].n_events,
                                       (uint32_t)r);
  }
  for (uint32_t i = 0; i < o->n_regions; i++) {
    uint16_t lb = o->region_label[i];
    const char *name = "MPI_unknown";
    int user = lb >= DUMPI_N_LABELS;
    if (user) {
      name = "user function";
      for (int k = 0; k < n_fns; k++)
        if (fn_addr[k] == o->fn_region_addr[lb - DUMPI_N_LABELS]) name = fn_name[k];
    } else {
      const dumpi_fn_info *fn = dumpi_fn_lookup(lb);
      if (fn && fn->name) name = fn->name;
    }
    OTF2_GlobalDefWriter_WriteString(g, str, name);
    OTF2_GlobalDefWriter_WriteRegion(g, i, str, str, 0, OTF2_REGION_ROLE_FUNCTION,
                                     user ? OTF2_PARADIGM_COMPILER : OTF2_PARADIGM_MPI, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    str++;
  }
  /* Group 0: MPI's locations in rank order; group 1 + c: communicator c's
   * members as ranks in it (Score-P's COMM_LOCATIONS and COMM_GROUPs). */
  uint64_t *m = malloc(((size_t)o->P + 1) * sizeof *m);
  if (!m) {
    snprintf(err, errlen, "out of memory");
    OTF2_Archive_Close(o->ar);
    free_all(o);
    return -1;
  }
  for (int r = 0; r < o->P; r++) m[r] = (uint64_t)r;
  OTF2_GlobalDefWriter_WriteString(g, str, "MPI_COMM_WORLD");
  uint32_t world_name = str++;
  OTF2_GlobalDefWriter_WriteGroup(g, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                  (uint32_t)o->P, m);
  for (uint32_t c = 0; c < o->n_comms; c++) {
    o2w_comm *cm = &o->comms[c];
    qsort(cm->member, cm->n, sizeof *cm->member, cmp_i64);
    for (uint32_t i = 0; i < cm->n; i++) m[i] = (uint64_t)(cm->member[i] & 0xffffffff);
    OTF2_GlobalDefWriter_WriteGroup(g, 1 + c, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    cm->n, m);
    uint32_t name = world_name;
    if (c) {
      snprintf(buf, sizeof buf, "MPI_Comm %u", c);
      OTF2_GlobalDefWriter_WriteString(g, str, buf);
      name = str++;
    }
    OTF2_GlobalDefWriter_WriteComm(g, c, name, 1 + c, c ? cm->parent : OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
  }
  free(m);
  OTF2_Archive_CloseGlobalDefWriter(o->ar, g);
  if (OTF2_Archive_Close(o->ar) != OTF2_SUCCESS) {
    snprintf(err, errlen, "libotf2 could not close the archive: %s", strerror(errno));
    rc = -1;
  }
  if (o->oom) {
    snprintf(err, errlen, "out of memory");
    rc = -1;
  }
  free_all(o);
  return rc;
}
