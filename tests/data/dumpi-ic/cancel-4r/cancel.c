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

#include "ic_common.h"

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
