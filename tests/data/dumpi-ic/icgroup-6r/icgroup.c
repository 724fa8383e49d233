/* SPDX-License-Identifier: MIT */
/* icgroup: group queries on intercommunicators (MPI_Comm_group,
 * MPI_Comm_remote_group, MPI_Group_translate_ranks, MPI_Group_compare,
 * MPI_Group_union/intersection, MPI_Group_rank/size) plus traffic.
 * Group A = world ranks with rank%3 == 0, in descending order (side 0);
 * group B = the others, ascending (side 1). Leaders: A local 0 (the highest
 * world rank of A), B local 2. Tag 9.
 * comm_kind in expected-*.txt:
 *   inter      the intercommunicator (see ict_inter_traffic)
 *   world      MPI_COMM_WORLD messages addressed through the translated
 *              ranks: each local rank r sends to the world rank of remote
 *              rank r%R, tag 2000 + 10*sender_world + receiver_world,
 *              MPI_DOUBLE x (1 + sender_world)
 *   inter-dup  MPI_Comm_dup(inter)
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
    int side, L, R, lr, i, q, inter, res, n, rl, gs;
    int idx[16], lw[16], rw[16], back[16], wl[16];
    int exp_l[16], exp_r[16], nA = 0, nB = 0;
    double sbuf[16], rbuf[16];
    MPI_Comm local, ic, dc;
    MPI_Group lg, rg, wg, ug, xg, rg2;
    MPI_Request req;
    MPI_Status st;

    ict_init(&argc, &argv);
    ICT_CHECK(wsize >= 5 && wsize <= 9);
    side = (wrank % 3 == 0) ? 0 : 1;
    /* expected layouts */
    for (i = wsize - 1; i >= 0; i--) if (i % 3 == 0) exp_l[nA++] = i;
    for (i = 0; i < wsize; i++) if (i % 3 != 0) exp_r[nB++] = i;

    MPI_Comm_split(MPI_COMM_WORLD, side, side == 0 ? -wrank : wrank, &local);
    /* remote leader, as a rank of MPI_COMM_WORLD */
    rl = side == 0 ? exp_r[2] : exp_l[0];
    MPI_Intercomm_create(local, side == 0 ? 0 : 2, MPI_COMM_WORLD, rl, 9, &ic);

    MPI_Comm_test_inter(ic, &inter);
    ICT_CHECK(inter);
    MPI_Comm_size(ic, &L);
    MPI_Comm_remote_size(ic, &R);
    MPI_Comm_rank(ic, &lr);
    ICT_CHECK(L == (side == 0 ? nA : nB) && R == (side == 0 ? nB : nA));

    MPI_Comm_group(ic, &lg);
    MPI_Comm_remote_group(ic, &rg);
    MPI_Comm_group(MPI_COMM_WORLD, &wg);
    MPI_Group_size(lg, &gs);  ICT_CHECK(gs == L);
    MPI_Group_size(rg, &gs);  ICT_CHECK(gs == R);
    MPI_Group_rank(lg, &i);   ICT_CHECK(i == lr);
    MPI_Group_rank(rg, &i);   ICT_CHECK(i == MPI_UNDEFINED);

    for (i = 0; i < 16; i++) idx[i] = i;
    MPI_Group_translate_ranks(lg, L, idx, wg, lw);
    MPI_Group_translate_ranks(rg, R, idx, wg, rw);
    for (i = 0; i < L; i++) ICT_CHECK(lw[i] == (side == 0 ? exp_l[i] : exp_r[i]));
    for (i = 0; i < R; i++) ICT_CHECK(rw[i] == (side == 0 ? exp_r[i] : exp_l[i]));
    /* world -> remote group: MPI_UNDEFINED for members of my own group */
    MPI_Group_translate_ranks(wg, wsize, idx, rg, wl);
    for (i = 0; i < wsize; i++)
        ICT_CHECK((wl[i] == MPI_UNDEFINED) == ((i % 3 == 0) == (side == 0)));
    /* remote -> local: all MPI_UNDEFINED */
    MPI_Group_translate_ranks(rg, R, idx, lg, back);
    for (i = 0; i < R; i++) ICT_CHECK(back[i] == MPI_UNDEFINED);

    MPI_Group_compare(lg, rg, &res);
    ICT_CHECK(res == MPI_UNEQUAL);
    MPI_Group_union(lg, rg, &ug);
    MPI_Group_compare(ug, wg, &res);
    ICT_CHECK(res == MPI_SIMILAR);
    MPI_Group_intersection(lg, rg, &xg);
    MPI_Group_size(xg, &gs);
    ICT_CHECK(gs == 0);

    ict_inter_traffic(ic, side, 1000, "inter", 0);

    /* world traffic addressed through the translated ranks */
    {
        int dst = rw[lr % R], tag = 2000 + 10 * wrank + dst;
        n = 1 + wrank;
        for (i = 0; i < n; i++) sbuf[i] = wrank + 0.5 * i;
        ict_log_send(MPI_COMM_WORLD, dst, tag, n, MPI_DOUBLE, "world", NULL);
        MPI_Isend(sbuf, n, MPI_DOUBLE, dst, tag, MPI_COMM_WORLD, &req);
        for (q = 0; q < R; q++) {
            int src = rw[q], rtag;
            if (q % L != lr) continue;
            rtag = 2000 + 10 * src + wrank;
            MPI_Recv(rbuf, 16, MPI_DOUBLE, src, rtag, MPI_COMM_WORLD, &st);
            ict_check_status(&st, src, rtag, 1 + src, MPI_DOUBLE);
            for (i = 0; i < 1 + src; i++) ICT_CHECK(rbuf[i] == src + 0.5 * i);
        }
        MPI_Wait(&req, &st);
    }

    /* a duplicate has the same groups */
    MPI_Comm_dup(ic, &dc);
    MPI_Comm_remote_group(dc, &rg2);
    MPI_Group_compare(rg, rg2, &res);
    ICT_CHECK(res == MPI_IDENT);
    ict_inter_traffic(dc, side, 3000, "inter-dup", 1);

    MPI_Group_free(&rg2);
    MPI_Group_free(&xg);
    MPI_Group_free(&ug);
    MPI_Group_free(&wg);
    MPI_Group_free(&rg);
    MPI_Group_free(&lg);
    MPI_Comm_free(&dc);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    ict_finish();
    return 0;
}
