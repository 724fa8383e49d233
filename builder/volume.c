/* SPDX-License-Identifier: MIT */
/* volume.c - see volume.h.
 *
 * The rules follow the data each call's buffers hold (MPI-3.1 chapter 5):
 * a rooted collective moves data only at the root on one side (Bcast's
 * root sends, its other members receive; Gather's members send and only
 * its root receives, commsize blocks of recvcount); the "v" and "w"
 * variants sum their count arrays, which libdumpi records only where MPI
 * reads them (root-only arrays are absent elsewhere: nothing moves there).
 */
#include "volume.h"

#include <string.h>

#include <slog2/slog.h>

typedef enum volume_rule {
    V_NONE = 0,
    V_COUNT,                 /* count x datatype */
    V_COUNT_ROOT,            /* the same at the root, 0 elsewhere */
    V_COUNT_NONROOT,         /* the same off the root, 0 at it */
    V_SEND,                  /* sendcount x sendtype (0 where not recorded: root-only) */
    V_SEND_ALL,              /* sendcount x sendtype x commsize */
    V_SEND_ALL_ROOT,         /* the same at the root, 0 elsewhere */
    V_RECV,                  /* recvcount x recvtype */
    V_RECV_ALL,              /* recvcount x recvtype x commsize */
    V_RECV_ALL_ROOT,         /* the same at the root, 0 elsewhere */
    V_SENDCOUNTS,            /* sum(sendcounts) x sendtype (0 where not recorded) */
    V_RECVCOUNTS,            /* sum(recvcounts) x recvtype (0 where not recorded) */
    V_SENDCOUNTS_TYPES,      /* sum(sendcounts[i] x size(sendtypes[i])) */
    V_RECVCOUNTS_TYPES,      /* sum(recvcounts[i] x size(recvtypes[i])) */
    V_RECVCOUNTS_DATATYPE,   /* sum(recvcounts) x datatype: Reduce_scatter's input */
    V_MY_RECVCOUNT_DATATYPE, /* recvcounts[own comm rank] x datatype: its output */
    V_P2P_SEND,              /* Sendrecv: the send half; 0 to MPI_PROC_NULL */
    V_P2P_RECV               /* the receive half: the status's count when
                                recorded, else the buffer; 0 from PROC_NULL */
} volume_rule;

static const struct {
    const char *name;
    uint8_t sent, received;
} rules[] = {
    {"MPI_Bcast", V_COUNT_ROOT, V_COUNT_NONROOT},
    {"MPI_Reduce", V_COUNT, V_COUNT_ROOT},
    {"MPI_Allreduce", V_COUNT, V_COUNT},
    {"MPI_Scan", V_COUNT, V_COUNT},
    {"MPI_Exscan", V_COUNT, V_COUNT},
    {"MPI_Gather", V_SEND, V_RECV_ALL_ROOT},
    {"MPI_Gatherv", V_SEND, V_RECVCOUNTS},
    {"MPI_Scatter", V_SEND_ALL_ROOT, V_RECV},
    {"MPI_Scatterv", V_SENDCOUNTS, V_RECV},
    {"MPI_Allgather", V_SEND, V_RECV_ALL},
    {"MPI_Allgatherv", V_SEND, V_RECVCOUNTS},
    {"MPI_Alltoall", V_SEND_ALL, V_RECV_ALL},
    {"MPI_Alltoallv", V_SENDCOUNTS, V_RECVCOUNTS},
    {"MPI_Alltoallw", V_SENDCOUNTS_TYPES, V_RECVCOUNTS_TYPES},
    {"MPI_Reduce_scatter", V_RECVCOUNTS_DATATYPE, V_MY_RECVCOUNT_DATATYPE},
    {"MPI_Sendrecv", V_P2P_SEND, V_P2P_RECV},
    {"MPI_Sendrecv_replace", V_P2P_SEND, V_P2P_RECV},
};

#define UNKNOWN   SLOG_INFO_UNKNOWN
#define PROC_NULL (-2) /* as Open MPI stores it (docs/DUMPI.md) */

int volume_plan_for(uint16_t label, volume_plan *p)
{
    memset(p, 0, sizeof *p);
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    if (!fn) return 0;
    for (size_t k = 0; k < sizeof rules / sizeof rules[0]; k++)
        if (!strcmp(fn->name, rules[k].name)) {
            p->sent = rules[k].sent;
            p->received = rules[k].received;
        }
    return p->sent != V_NONE;
}

void type_sizes_of(const dumpi_file *f, type_sizes *out)
{
    for (int32_t i = 0; i < N_PREDEF_TYPES; i++) out->size[i] = dumpi_file_datatype_size(f, i);
}

/* What the rules need to know about the call, worked out once. */
typedef struct call_env {
    const fn_args *a;
    const type_sizes *ts;
    const comm_view *cv;
    const dumpi_call *c;
} call_env;

static int has(const call_env *e, int i)
{
    return i >= 0 && dumpi_call_has(e->c, i);
}

static int64_t scalar(const call_env *e, int i)
{
    return dumpi_call_int(e->c, i);
}

/* count elements of a predefined datatype; 0 elements are 0 bytes
 * whatever the type (non-roots record MPI_DATATYPE_ERROR). */
static int64_t times_size(const call_env *e, int64_t count, int64_t type)
{
    if (count == 0) return 0;
    int32_t size = type_size(e->ts, type);
    if (size <= 0 || count < 0 || count > INT32_MAX) return UNKNOWN;
    return count * size;
}

static int64_t count_of(const call_env *e, int i_count, int i_type)
{
    if (!has(e, i_count) || !has(e, i_type)) return UNKNOWN;
    return times_size(e, scalar(e, i_count), scalar(e, i_type));
}

static int64_t comm_size(const call_env *e)
{
    if (has(e, e->a->i_commsize)) return scalar(e, e->a->i_commsize);
    int n = comm_view_size(e->cv);
    return n > 0 ? n : UNKNOWN;
}

/* The caller's rank in the call's communicator, or -1. */
static int64_t own_comm_rank(const call_env *e)
{
    if (has(e, e->a->i_commrank)) return scalar(e, e->a->i_commrank);
    return comm_view_own_rank(e->cv);
}

/* 1 at the root, 0 elsewhere, -1 when unknown (no root argument,
 * unresolved communicator, intercommunicator root values). */
static int at_root(const call_env *e)
{
    if (!has(e, e->a->i_root)) return -1;
    int64_t root = scalar(e, e->a->i_root);
    if (root < 0) return -1;
    int64_t me = own_comm_rank(e);
    return me < 0 ? -1 : me == root;
}

static int64_t rooted(int root, int want_root, int64_t v)
{
    if (root < 0) return UNKNOWN;
    return root == want_root ? v : 0;
}

/* Counts and sizes come from the file: a product or sum past int64 is an
 * unknown volume, not an overflow. times_size() cannot overflow (an int32
 * count times an int32 size; larger counts are refused there). */
static int64_t times_n(int64_t v, int64_t n)
{
    if (v == UNKNOWN || n == UNKNOWN || v < 0 || n < 0) return UNKNOWN;
    return n && v > INT64_MAX / n ? UNKNOWN : v * n;
}

/* Sum of counts[] x size(type), or of counts[i] x size(types[i]) when
 * i_types >= 0; 0 when the array was not recorded (root-only). */
static int64_t sum_counts(const call_env *e, int i_counts, int i_type, int i_types)
{
    int32_t n = 0;
    const int32_t *counts = i_counts >= 0 ? dumpi_call_int_array(e->c, i_counts, &n) : NULL;
    if (!counts) return i_counts >= 0 && !has(e, i_counts) ? 0 : UNKNOWN;
    int32_t nt = 0;
    const int32_t *types = i_types >= 0 ? dumpi_call_int_array(e->c, i_types, &nt) : NULL;
    if (i_types >= 0 && (!types || nt < n)) return UNKNOWN;
    if (i_types < 0 && !has(e, i_type)) return UNKNOWN;
    int64_t total = 0;
    for (int32_t i = 0; i < n; i++) {
        int64_t v = times_size(e, counts[i], types ? types[i] : scalar(e, i_type));
        if (v == UNKNOWN || v > INT64_MAX - total) return UNKNOWN;
        total += v;
    }
    return total;
}

static int64_t apply(const call_env *e, volume_rule rule)
{
    const fn_args *a = e->a;
    switch (rule) {
    case V_NONE: return UNKNOWN;
    case V_COUNT: return count_of(e, a->i_count, a->i_datatype);
    case V_COUNT_ROOT: return rooted(at_root(e), 1, count_of(e, a->i_count, a->i_datatype));
    case V_COUNT_NONROOT: return rooted(at_root(e), 0, count_of(e, a->i_count, a->i_datatype));
    case V_SEND: return has(e, a->i_sendcount) ? count_of(e, a->i_sendcount, a->i_sendtype) : 0;
    case V_SEND_ALL: return times_n(count_of(e, a->i_sendcount, a->i_sendtype), comm_size(e));
    case V_SEND_ALL_ROOT:
        return rooted(at_root(e), 1, times_n(count_of(e, a->i_sendcount, a->i_sendtype), comm_size(e)));
    case V_RECV: return has(e, a->i_recvcount) ? count_of(e, a->i_recvcount, a->i_recvtype) : 0;
    case V_RECV_ALL: return times_n(count_of(e, a->i_recvcount, a->i_recvtype), comm_size(e));
    case V_RECV_ALL_ROOT:
        return rooted(at_root(e), 1, times_n(count_of(e, a->i_recvcount, a->i_recvtype), comm_size(e)));
    case V_SENDCOUNTS: return sum_counts(e, a->i_sendcounts, a->i_sendtype, -1);
    case V_RECVCOUNTS: return sum_counts(e, a->i_recvcounts, a->i_recvtype, -1);
    case V_SENDCOUNTS_TYPES: return sum_counts(e, a->i_sendcounts, -1, a->i_sendtypes);
    case V_RECVCOUNTS_TYPES: return sum_counts(e, a->i_recvcounts, -1, a->i_recvtypes);
    case V_RECVCOUNTS_DATATYPE: return sum_counts(e, a->i_recvcounts, a->i_datatype, -1);
    case V_MY_RECVCOUNT_DATATYPE: {
        int32_t n = 0;
        const int32_t *counts = dumpi_call_int_array(e->c, a->i_recvcounts, &n);
        int64_t me = own_comm_rank(e);
        if (!counts || me < 0 || me >= n || !has(e, a->i_datatype)) return UNKNOWN;
        return times_size(e, counts[me], scalar(e, a->i_datatype));
    }
    case V_P2P_SEND:
        if (has(e, a->i_dest) && scalar(e, a->i_dest) == PROC_NULL) return 0;
        return a->i_sendcount >= 0 ? count_of(e, a->i_sendcount, a->i_sendtype)
                                   : count_of(e, a->i_count, a->i_datatype);
    case V_P2P_RECV: {
        if (has(e, a->i_source) && scalar(e, a->i_source) == PROC_NULL) return 0;
        const dumpi_status *st = a->i_status >= 0 ? dumpi_call_status(e->c, a->i_status) : NULL;
        if (st && !st->cancelled && st->bytes >= 0) return st->bytes;
        return a->i_recvcount >= 0 ? count_of(e, a->i_recvcount, a->i_recvtype)
                                   : count_of(e, a->i_count, a->i_datatype);
    }
    }
    return UNKNOWN;
}

void volume_of(const volume_plan *p, const fn_args *a, const type_sizes *ts, const comm_view *cv, const dumpi_call *c,
               int64_t *sent, int64_t *received)
{
    call_env e = {a, ts, cv, c};
    *sent = apply(&e, (volume_rule)p->sent);
    *received = apply(&e, (volume_rule)p->received);
}
