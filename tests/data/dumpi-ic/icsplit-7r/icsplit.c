/* SPDX-License-Identifier: MIT */
/* icsplit: intercommunicator between the low and high halves of
 * MPI_COMM_WORLD (sizes floor(P/2) and ceil(P/2)), then MPI_Comm_split,
 * MPI_Comm_dup and MPI_Comm_create of that intercommunicator, with
 * point-to-point traffic on each (see ict_inter_traffic), then MPI_Comm_free.
 * comm_kind in expected-*.txt:
 *   inter          the MPI_Intercomm_create result (receives use MPI_ANY_SOURCE)
 *   inter-split    MPI_Comm_split(inter, color=lrank%2, key=-lrank)
 *                  (tag base 2000 for color 0, 3000 for color 1)
 *   inter-split2   MPI_Comm_split(inter, color=lrank==0 ? MPI_UNDEFINED : 0, key=lrank)
 *   inter-dup      MPI_Comm_dup(inter): same tags/sizes/pairs as 'inter'
 *   inter-create   MPI_Comm_create(inter, local group without local rank 1)
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
    int low, side, lr, inter, excl1 = 1, color;
    MPI_Comm local, ic, sc, uc, dc, cc;
    MPI_Group lg, sub;

    ict_init(&argc, &argv);
    ICT_CHECK(wsize >= 4 && wsize <= 10);
    low = wsize / 2;
    side = wrank < low ? 0 : 1;

    MPI_Comm_split(MPI_COMM_WORLD, side, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, side == 0 ? low : 0, 12, &ic);
    MPI_Comm_test_inter(ic, &inter);
    ICT_CHECK(inter);
    MPI_Comm_rank(ic, &lr);
    ict_inter_traffic(ic, side, 1000, "inter", 1);

    /* split by parity of the local rank, reversed key */
    color = lr % 2;
    MPI_Comm_split(ic, color, -lr, &sc);
    MPI_Comm_test_inter(sc, &inter);
    ICT_CHECK(inter);
    ict_inter_traffic(sc, side, 2000 + 1000 * color, "inter-split", 0);

    /* split that leaves the leaders out */
    MPI_Comm_split(ic, lr == 0 ? MPI_UNDEFINED : 0, lr, &uc);
    ICT_CHECK((uc == MPI_COMM_NULL) == (lr == 0));
    if (uc != MPI_COMM_NULL)
        ict_inter_traffic(uc, side, 4000, "inter-split2", 0);

    /* dup: same traffic as on ic, only the communicator differs */
    MPI_Comm_dup(ic, &dc);
    ict_inter_traffic(dc, side, 1000, "inter-dup", 0);

    /* create with a subgroup of the local group (all but local rank 1) */
    MPI_Comm_group(ic, &lg);
    MPI_Group_excl(lg, 1, &excl1, &sub);
    MPI_Comm_create(ic, sub, &cc);
    ICT_CHECK((cc == MPI_COMM_NULL) == (lr == 1));
    if (cc != MPI_COMM_NULL)
        ict_inter_traffic(cc, side, 5000, "inter-create", 0);

    MPI_Group_free(&sub);
    MPI_Group_free(&lg);
    if (cc != MPI_COMM_NULL) MPI_Comm_free(&cc);
    MPI_Comm_free(&dc);
    if (uc != MPI_COMM_NULL) MPI_Comm_free(&uc);
    MPI_Comm_free(&sc);
    MPI_Comm_free(&ic);
    MPI_Comm_free(&local);
    ict_finish();
    return 0;
}
