/* SPDX-License-Identifier: MIT */
/* icm: MPI_Intercomm_merge in all orders, traffic on the merged
 * intracommunicators (ring, see ict_ring_traffic) and on the intercomms,
 * plus a few intercommunicator collectives (Bcast with MPI_ROOT /
 * MPI_PROC_NULL, Barrier, Allreduce) that carry no point-to-point messages.
 * Low half = world ranks < P/2 (side 0), high half = the rest (side 1).
 * comm_kind in expected-*.txt:
 *   inter               MPI_Intercomm_create(low, high), leaders local 0
 *   merge-lowfirst      MPI_Intercomm_merge(inter, high = side): low group first
 *   merge-highfirst     MPI_Intercomm_merge(inter, high = 1-side): high group first
 *   merge-same          MPI_Intercomm_merge(inter, high = 0 on both sides):
 *                       order chosen by the MPI library
 *   inter-of-merge      MPI_Intercomm_create between the even and odd ranks of
 *                       merge-highfirst (peer comm merge-highfirst, tag 6)
 *   merge2              MPI_Intercomm_merge(inter-of-merge, high = parity)
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
    int low, side, mr, ms, par, bval, sum, lr;
    MPI_Comm local, ic, m1, m2, m3, h2, ic2, m4;

    ict_init(&argc, &argv);
    ICT_CHECK(wsize >= 4 && wsize <= 9);
    low = wsize / 2;
    side = wrank < low ? 0 : 1;

    MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side == 0 ? low : 0, 5, &ic);
    MPI_Comm_rank(ic, &lr);
    ict_inter_traffic(ic, side, 1000, "inter", 0);

    /* low group first: merged rank == world rank */
    MPI_Intercomm_merge(ic, side, &m1);
    MPI_Comm_rank(m1, &mr);
    ICT_CHECK(mr == wrank);
    ict_ring_traffic(m1, 2000, "merge-lowfirst");

    /* high group first */
    MPI_Intercomm_merge(ic, 1 - side, &m2);
    MPI_Comm_rank(m2, &mr);
    ICT_CHECK(mr == (side == 1 ? wrank - low : wrank + (wsize - low)));
    ict_ring_traffic(m2, 3000, "merge-highfirst");

    /* same 'high' on both sides */
    MPI_Intercomm_merge(ic, 0, &m3);
    ict_ring_traffic(m3, 4000, "merge-same");

    /* intercommunicator collectives: root is local rank 0 of the high group */
    bval = (side == 1 && lr == 0) ? 4242 : -1;
    if (side == 1)
        MPI_Bcast(&bval, 1, MPI_INT, lr == 0 ? MPI_ROOT : MPI_PROC_NULL, ic);
    else
        MPI_Bcast(&bval, 1, MPI_INT, 0, ic);
    ICT_CHECK(side == 1 ? (lr == 0 ? bval == 4242 : bval == -1) : bval == 4242);
    MPI_Barrier(ic);
    /* Allreduce on an intercomm returns the sum over the remote group */
    MPI_Allreduce(&wrank, &sum, 1, MPI_INT, MPI_SUM, ic);
    ICT_CHECK(sum == (side == 0 ? (wsize - 1) * wsize / 2 - (low - 1) * low / 2
                                : (low - 1) * low / 2));

    /* an intercomm made from a merged comm, then merged again */
    MPI_Comm_rank(m2, &mr);
    MPI_Comm_size(m2, &ms);
    par = mr % 2;
    MPI_Comm_split(m2, par, mr, &h2);
    MPI_Intercomm_create(h2, 0, m2, par == 0 ? 1 : 0, 6, &ic2);
    ict_inter_traffic(ic2, par, 5000, "inter-of-merge", 1);
    MPI_Intercomm_merge(ic2, par, &m4);
    ict_ring_traffic(m4, 6000, "merge2");

    MPI_Comm_free(&m4);
    MPI_Comm_free(&ic2);
    MPI_Comm_free(&h2);
    MPI_Comm_free(&m3);
    MPI_Comm_free(&m2);
    MPI_Comm_free(&m1);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    ict_finish();
    return 0;
}
