/* SPDX-License-Identifier: MIT */
/* ic_common.h - what the intercommunicator test programs share: the
 * bookkeeping of the messages each rank sends (expected-NNNN.txt, written
 * with PMPI_* calls only, so it is not in the trace), status and payload
 * checks, and the traffic patterns. Included once by each program. */
#ifndef IC_COMMON_H
#define IC_COMMON_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *exp_fp = NULL;
static int wrank = -1, wsize = -1;

static void ict_init(int *argc, char ***argv)
{
    char fn[64];
    MPI_Init(argc, argv);
    PMPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    PMPI_Comm_size(MPI_COMM_WORLD, &wsize);
    snprintf(fn, sizeof fn, "expected-%04d.txt", wrank);
    exp_fp = fopen(fn, "w");
    if (!exp_fp) { perror(fn); PMPI_Abort(MPI_COMM_WORLD, 2); }
}

static void ict_finish(void)
{
    fclose(exp_fp);
    MPI_Finalize();
}

static void ict_fail(const char *what)
{
    fprintf(stderr, "rank %d: CHECK FAILED: %s\n", wrank, what);
    PMPI_Abort(MPI_COMM_WORLD, 1);
}
#define ICT_CHECK(c) do { if (!(c)) ict_fail(#c); } while (0)

/* World rank of rank 'r' of comm (remote group for an intercommunicator). */
static int ict_world_of(MPI_Comm comm, int r)
{
    int inter, w;
    MPI_Group g, wg;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter) PMPI_Comm_remote_group(comm, &g);
    else       PMPI_Comm_group(comm, &g);
    PMPI_Comm_group(MPI_COMM_WORLD, &wg);
    PMPI_Group_translate_ranks(g, 1, &r, wg, &w);
    PMPI_Group_free(&g);
    PMPI_Group_free(&wg);
    return w;
}

/* Record one point-to-point message sent by this rank to rank 'dest' of comm. */
static void ict_log_send(MPI_Comm comm, int dest, int tag, int count,
                         MPI_Datatype dt, const char *kind, const char *note)
{
    int tsize;
    PMPI_Type_size(dt, &tsize);
    fprintf(exp_fp, "%d %d %d %d %s%s%s\n", wrank, ict_world_of(comm, dest),
            tag, count * tsize, kind, note ? " " : "", note ? note : "");
}

/* Check a receive status against what the program logic expects. */
static void ict_check_status(const MPI_Status *st, int src, int tag, int count,
                             MPI_Datatype dt)
{
    int n;
    PMPI_Get_count(st, dt, &n);
    if (st->MPI_SOURCE != src || st->MPI_TAG != tag || n != count) {
        fprintf(stderr, "rank %d: unexpected status src=%d tag=%d count=%d, "
                "wanted src=%d tag=%d count=%d\n", wrank, st->MPI_SOURCE,
                st->MPI_TAG, n, src, tag, count);
        PMPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Fill / check a message buffer with a pattern derived from (tag, i). */
static void ict_fill(int *buf, int n, int tag)
{
    int i;
    for (i = 0; i < n; i++) buf[i] = tag * 1000 + i;
}
static void ict_verify(const int *buf, int n, int tag)
{
    int i;
    for (i = 0; i < n; i++)
        if (buf[i] != tag * 1000 + i) ict_fail("message payload");
}
/* ---- end of common helpers ---- */

/* ---- shared traffic patterns ----
 * Intercommunicator ic, local size L, remote size R (both <= 5), my local
 * rank r, 'side' = 0/1 tells the two groups apart (the remote side is 1-side).
 * Tags: base + 100*phase + 50*sender_side + 10*sender_local + receiver_local
 *  phase 0: r MPI_Isend -> remote r%R; MPI_Recv from each remote q, q%L == r
 *           (MPI_ANY_SOURCE with a specific tag if any_source); MPI_Wait
 *  phase 1: ranks r < min(L,R): MPI_Sendrecv with remote rank r
 *  phase 2: MPI_Irecv from each remote q, (q+1)%L == r; MPI_Send -> remote
 *           (r+1)%R; MPI_Waitall
 * Counts (MPI_INT): 1 + phase + sender_local + 2*receiver_local + 4*sender_side
 */
#define ICT_TAG(base, ph, sside, s, d) ((base) + 100 * (ph) + 50 * (sside) + 10 * (s) + (d))
#define ICT_CNT(ph, sside, s, d) (1 + (ph) + (s) + 2 * (d) + 4 * (sside))
#define ICT_MAXCNT 64

static void __attribute__((unused)) ict_inter_traffic(MPI_Comm ic, int side, int base, const char *kind,
                              int any_source)
{
    int L, R, r, q, d, n, tag, k, nreq;
    int sbuf[ICT_MAXCNT], rbuf[5][ICT_MAXCNT];
    MPI_Request req, reqs[5];
    MPI_Status st, sts[5];
    int oside = 1 - side;

    MPI_Comm_size(ic, &L);
    MPI_Comm_remote_size(ic, &R);
    MPI_Comm_rank(ic, &r);
    ICT_CHECK(L <= 5 && R <= 5);

    /* phase 0 */
    d = r % R;
    tag = ICT_TAG(base, 0, side, r, d); n = ICT_CNT(0, side, r, d);
    ict_fill(sbuf, n, tag);
    ict_log_send(ic, d, tag, n, MPI_INT, kind, NULL);
    MPI_Isend(sbuf, n, MPI_INT, d, tag, ic, &req);
    for (q = 0; q < R; q++) {
        if (q % L != r) continue;
        tag = ICT_TAG(base, 0, oside, q, r); n = ICT_CNT(0, oside, q, r);
        MPI_Recv(rbuf[0], ICT_MAXCNT, MPI_INT, any_source ? MPI_ANY_SOURCE : q,
                 tag, ic, &st);
        ict_check_status(&st, q, tag, n, MPI_INT);
        ict_verify(rbuf[0], n, tag);
    }
    MPI_Wait(&req, &st);

    /* phase 1 */
    if (r < L && r < R) {
        int rtag = ICT_TAG(base, 1, oside, r, r), rn = ICT_CNT(1, oside, r, r);
        tag = ICT_TAG(base, 1, side, r, r); n = ICT_CNT(1, side, r, r);
        ict_fill(sbuf, n, tag);
        ict_log_send(ic, r, tag, n, MPI_INT, kind, NULL);
        MPI_Sendrecv(sbuf, n, MPI_INT, r, tag, rbuf[0], ICT_MAXCNT, MPI_INT, r,
                     rtag, ic, &st);
        ict_check_status(&st, r, rtag, rn, MPI_INT);
        ict_verify(rbuf[0], rn, rtag);
    }

    /* phase 2 */
    nreq = 0;
    for (q = 0; q < R; q++) {
        if ((q + 1) % L != r) continue;
        tag = ICT_TAG(base, 2, oside, q, r);
        MPI_Irecv(rbuf[nreq], ICT_MAXCNT, MPI_INT, q, tag, ic, &reqs[nreq]);
        nreq++;
    }
    d = (r + 1) % R;
    tag = ICT_TAG(base, 2, side, r, d); n = ICT_CNT(2, side, r, d);
    ict_fill(sbuf, n, tag);
    ict_log_send(ic, d, tag, n, MPI_INT, kind, NULL);
    MPI_Send(sbuf, n, MPI_INT, d, tag, ic);
    MPI_Waitall(nreq, reqs, sts);
    k = 0;
    for (q = 0; q < R; q++) {
        if ((q + 1) % L != r) continue;
        tag = ICT_TAG(base, 2, oside, q, r); n = ICT_CNT(2, oside, q, r);
        ict_check_status(&sts[k], q, tag, n, MPI_INT);
        ict_verify(rbuf[k], n, tag);
        k++;
    }
}

/* Ring traffic on an intracommunicator of size P <= 9, my rank r.
 * Tags: base + 100*phase + 10*sender + receiver; counts (MPI_INT) 2 + sender + phase
 *  phase 0: MPI_Irecv from r-1, MPI_Isend to r+1, MPI_Waitall
 *  phase 1: MPI_Sendrecv: send to r-1, receive from r+1
 */
static void __attribute__((unused)) ict_ring_traffic(MPI_Comm comm, int base, const char *kind)
{
    int P, r, left, right, tag, rtag, n, rn;
    int sbuf[ICT_MAXCNT], rbuf[ICT_MAXCNT];
    MPI_Request reqs[2];
    MPI_Status sts[2], st;

    MPI_Comm_size(comm, &P);
    MPI_Comm_rank(comm, &r);
    ICT_CHECK(P <= 9);
    left = (r + P - 1) % P; right = (r + 1) % P;

    rtag = base + 10 * left + r; rn = 2 + left;
    MPI_Irecv(rbuf, ICT_MAXCNT, MPI_INT, left, rtag, comm, &reqs[0]);
    tag = base + 10 * r + right; n = 2 + r;
    ict_fill(sbuf, n, tag);
    ict_log_send(comm, right, tag, n, MPI_INT, kind, NULL);
    MPI_Isend(sbuf, n, MPI_INT, right, tag, comm, &reqs[1]);
    MPI_Waitall(2, reqs, sts);
    ict_check_status(&sts[0], left, rtag, rn, MPI_INT);
    ict_verify(rbuf, rn, rtag);

    tag = base + 100 + 10 * r + left; n = 3 + r;
    rtag = base + 100 + 10 * right + r; rn = 3 + right;
    ict_fill(sbuf, n, tag);
    ict_log_send(comm, left, tag, n, MPI_INT, kind, NULL);
    MPI_Sendrecv(sbuf, n, MPI_INT, left, tag, rbuf, ICT_MAXCNT, MPI_INT, right,
                 rtag, comm, &st);
    ict_check_status(&st, right, rtag, rn, MPI_INT);
    ict_verify(rbuf, rn, rtag);
}
/* ---- end of shared traffic patterns ---- */


#endif
