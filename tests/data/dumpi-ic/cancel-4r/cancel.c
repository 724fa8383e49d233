/* SPDX-License-Identifier: MIT */
/* cancel: MPI_Cancel of sends and receives, MPI_Test_cancelled, and reuse
 * of the same MPI_Request variable for a message that is received.
 * Needs P >= 4. Notes in expected-*.txt (6th column):
 *   cancelled   MPI_Test_cancelled said the send was cancelled (never delivered)
 *   unreceived  the cancel did not take (MPI_Test_cancelled false: Open MPI's
 *               ob1 PML never cancels sends), the message was delivered to the
 *               receiver but the program never receives it
 * Steps (tags):
 *  1 rank 0: Isend tag 900 to rank 1 (never received), Cancel, Wait,
 *    Test_cancelled; the same request variable then carries Isend tag 901 to
 *    rank 1, which rank 1 receives (Test_cancelled false on both statuses)
 *  2 all: Irecv(ANY_SOURCE, tag 990) never matched, Cancel, Wait,
 *    Test_cancelled (true)
 *  3 all: Irecv(from r+1, tag 991) never matched, Cancel, Test loop,
 *    Test_cancelled (true); the same request then receives tag 992 from r-1
 *    (ring, every rank Sends tag 992 to r+1)
 *  4 all: persistent Recv_init(from r-1, tag 993): Start, Cancel, Wait,
 *    Test_cancelled (true); Start again, matched by a Send tag 993 from r-1,
 *    Wait; Request_free
 *  5 rank 2: Isend tag 995 to rank 3, Cancel, Wait, Test_cancelled; the
 *    outcome goes to rank 3 with tag 996, and rank 3 receives tag 995 only if
 *    it was not cancelled
 *  6 intercomm (low/high halves): Irecv(remote 0, tag 997) never matched,
 *    Cancel, Wait, Test_cancelled (true) on the intercomm ("inter"); then each
 *    rank r Isends tag 998 to remote r%R and receives with MPI_ANY_SOURCE
 *  7 rank 1: Issend tag 999 to rank 0 (never received; synchronous mode,
 *    so it can only complete by being cancelled), Cancel, then MPI_Test a
 *    bounded number of times; if it completes, Test_cancelled; if not, the
 *    request is left pending ("unreceived") and rank 1 does not wait for it
 */
/* Written for the slog2 intercommunicator DUMPI test traces; see README.md. */

/* ---- ictrace common helpers (identical in every program of tests/data/dumpi-ic) ----
 * Bookkeeping uses PMPI_* calls only, so it does not appear in the DUMPI trace.
 * Each rank writes the messages it sends to expected-NNNN.txt (NNNN = world
 * rank) as "sender_world receiver_world tag bytes comm_kind [note]".
 */
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

int main(int argc, char **argv)
{
    int flag, i, n, next, prev, low, side, lr, L, R, q, c;
    int sbuf[32], rbuf[32];
    MPI_Request req, preq;
    MPI_Status st;
    MPI_Comm local, ic;

    ict_init(&argc, &argv);
    ICT_CHECK(wsize >= 4 && wsize <= 10);
    next = (wrank + 1) % wsize;
    prev = (wrank + wsize - 1) % wsize;

    /* 1 */
    if (wrank == 0) {
        ict_fill(sbuf, 4, 900);
        MPI_Isend(sbuf, 4, MPI_INT, 1, 900, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Wait(&req, &st);
        MPI_Test_cancelled(&st, &flag);
        ict_log_send(MPI_COMM_WORLD, 1, 900, 4, MPI_INT, "world",
                     flag ? "cancelled" : "unreceived");
        ict_fill(sbuf, 6, 901);
        ict_log_send(MPI_COMM_WORLD, 1, 901, 6, MPI_INT, "world", NULL);
        MPI_Isend(sbuf, 6, MPI_INT, 1, 901, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, &st);
        MPI_Test_cancelled(&st, &flag);
        ICT_CHECK(!flag);
    } else if (wrank == 1) {
        MPI_Recv(rbuf, 32, MPI_INT, 0, 901, MPI_COMM_WORLD, &st);
        ict_check_status(&st, 0, 901, 6, MPI_INT);
        ict_verify(rbuf, 6, 901);
        MPI_Test_cancelled(&st, &flag);
        ICT_CHECK(!flag);
    }

    /* 2 */
    MPI_Irecv(rbuf, 32, MPI_INT, MPI_ANY_SOURCE, 990, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &flag);
    ICT_CHECK(flag);

    /* 3 */
    MPI_Irecv(rbuf, 32, MPI_INT, next, 991, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    flag = 0;
    while (!flag)
        MPI_Test(&req, &flag, &st);
    MPI_Test_cancelled(&st, &flag);
    ICT_CHECK(flag);
    MPI_Irecv(rbuf, 32, MPI_INT, prev, 992, MPI_COMM_WORLD, &req);
    n = 3 + wrank;
    ict_fill(sbuf, n, 992);
    ict_log_send(MPI_COMM_WORLD, next, 992, n, MPI_INT, "world", NULL);
    MPI_Send(sbuf, n, MPI_INT, next, 992, MPI_COMM_WORLD);
    MPI_Wait(&req, &st);
    ict_check_status(&st, prev, 992, 3 + prev, MPI_INT);
    ict_verify(rbuf, 3 + prev, 992);
    MPI_Test_cancelled(&st, &flag);
    ICT_CHECK(!flag);

    /* 4 */
    MPI_Recv_init(rbuf, 32, MPI_INT, prev, 993, MPI_COMM_WORLD, &preq);
    MPI_Start(&preq);
    MPI_Cancel(&preq);
    MPI_Wait(&preq, &st);
    MPI_Test_cancelled(&st, &flag);
    ICT_CHECK(flag);
    MPI_Barrier(MPI_COMM_WORLD);   /* nobody sends tag 993 before every cancel */
    MPI_Start(&preq);
    n = 5 + wrank;
    ict_fill(sbuf, n, 993);
    ict_log_send(MPI_COMM_WORLD, next, 993, n, MPI_INT, "world", NULL);
    MPI_Send(sbuf, n, MPI_INT, next, 993, MPI_COMM_WORLD);
    MPI_Wait(&preq, &st);
    ict_check_status(&st, prev, 993, 5 + prev, MPI_INT);
    ict_verify(rbuf, 5 + prev, 993);
    MPI_Request_free(&preq);

    /* 5 */
    if (wrank == 2) {
        ict_fill(sbuf, 8, 995);
        MPI_Isend(sbuf, 8, MPI_INT, 3, 995, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Wait(&req, &st);
        MPI_Test_cancelled(&st, &c);
        ict_log_send(MPI_COMM_WORLD, 3, 995, 8, MPI_INT, "world",
                     c ? "cancelled" : NULL);
        ict_log_send(MPI_COMM_WORLD, 3, 996, 1, MPI_INT, "world", NULL);
        MPI_Send(&c, 1, MPI_INT, 3, 996, MPI_COMM_WORLD);
    } else if (wrank == 3) {
        MPI_Recv(&c, 1, MPI_INT, 2, 996, MPI_COMM_WORLD, &st);
        ict_check_status(&st, 2, 996, 1, MPI_INT);
        if (!c) {
            MPI_Recv(rbuf, 32, MPI_INT, 2, 995, MPI_COMM_WORLD, &st);
            ict_check_status(&st, 2, 995, 8, MPI_INT);
            ict_verify(rbuf, 8, 995);
        }
    }

    /* 6 */
    low = wsize / 2;
    side = wrank < low ? 0 : 1;
    MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side == 0 ? low : 0, 3, &ic);
    MPI_Comm_size(ic, &L);
    MPI_Comm_remote_size(ic, &R);
    MPI_Comm_rank(ic, &lr);
    MPI_Irecv(rbuf, 32, MPI_INT, 0, 997, ic, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &st);
    MPI_Test_cancelled(&st, &flag);
    ICT_CHECK(flag);
    n = 2 + lr + 4 * side;
    ict_fill(sbuf, n, 998);
    ict_log_send(ic, lr % R, 998, n, MPI_INT, "inter", NULL);
    MPI_Isend(sbuf, n, MPI_INT, lr % R, 998, ic, &req);
    for (q = 0; q < R; q++) {
        if (q % L != lr) continue;
        MPI_Recv(rbuf, 32, MPI_INT, MPI_ANY_SOURCE, 998, ic, &st);
        /* ANY_SOURCE: several remote ranks may send to me in any order */
        PMPI_Get_count(&st, MPI_INT, &i);
        ICT_CHECK(st.MPI_SOURCE % L == lr && i == 2 + st.MPI_SOURCE + 4 * (1 - side));
        ict_verify(rbuf, i, 998);
    }
    MPI_Wait(&req, &st);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);

    /* 7 */
    if (wrank == 1) {
        ict_fill(sbuf, 2, 999);
        MPI_Issend(sbuf, 2, MPI_INT, 0, 999, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        flag = 0;
        for (i = 0; i < 20 && !flag; i++)
            MPI_Test(&req, &flag, &st);
        if (flag) {
            MPI_Test_cancelled(&st, &c);
            ict_log_send(MPI_COMM_WORLD, 0, 999, 2, MPI_INT, "world",
                         c ? "cancelled" : "unreceived");
        } else {
            ict_log_send(MPI_COMM_WORLD, 0, 999, 2, MPI_INT, "world", "unreceived");
        }
    }

    MPI_Barrier(MPI_COMM_WORLD);
    ict_finish();
    return 0;
}
