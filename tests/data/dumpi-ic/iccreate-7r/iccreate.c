/* SPDX-License-Identifier: MIT */
/* iccreate: intercommunicators with non-trivial layouts and leaders.
 * Needs P = 7 (or 6..8: group sizes must stay <= 5).
 * comm_kind in expected-*.txt:
 *   inter       evens {0,2,4,..} x odds {1,3,..} (local order = world order),
 *               leaders local rank 2 (world 4) and local rank 1 (world 3),
 *               peer comm MPI_COMM_WORLD, tag 77
 *   inter-rev   same halves in reversed local order (split key -rank),
 *               leaders = last local rank (world 0 and world 1), peer comm
 *               a MPI_Comm_dup of MPI_COMM_WORLD, tag 78
 *   inter-3way  groups rank%3==0 x rank%3==2 (rank%3==1 not involved),
 *               leaders local rank 1 (world 3 and world 5), tag 79
 *   inter-create    MPI_Comm_create(inter): evens keep local {0,1}
 *                   (Group_incl), odds keep local {1..end} (Group_range_incl)
 *   inter-create2   MPI_Comm_create(inter-rev): evens keep all (the group
 *                   from MPI_Comm_group), odds keep local {0, last}
 *                   (Group_incl). Note: a permuted Group_incl ({last, 0})
 *                   here makes Open MPI 4.1.4 give the two sides inconsistent
 *                   rank orders (the remote side sees the parent's order), so
 *                   messages go to the wrong processes and the run hangs.
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
    int parity, lsize, t3, lr;
    int keep_even[2] = { 0, 1 };
    int range[1][3];
    int perm[2];
    MPI_Comm half, halfrev, wdup, third, ic1, ic2, ic3 = MPI_COMM_NULL, cc1, cc2;
    MPI_Group g1, g2, sub1, sub2;

    ict_init(&argc, &argv);
    ICT_CHECK(wsize >= 6 && wsize <= 8);
    parity = wrank % 2;

    /* 1: evens x odds, leaders not local rank 0 */
    MPI_Comm_split(MPI_COMM_WORLD, parity, wrank, &half);
    MPI_Intercomm_create(half, parity == 0 ? 2 : 1, MPI_COMM_WORLD,
                         parity == 0 ? 3 : 4, 77, &ic1);
    ict_inter_traffic(ic1, parity, 1000, "inter", 0);

    /* 2: reversed local order, peer comm is a dup of world */
    MPI_Comm_dup(MPI_COMM_WORLD, &wdup);
    MPI_Comm_split(MPI_COMM_WORLD, parity, -wrank, &halfrev);
    MPI_Comm_size(halfrev, &lsize);
    MPI_Intercomm_create(halfrev, lsize - 1, wdup, parity == 0 ? 1 : 0, 78, &ic2);
    ict_inter_traffic(ic2, parity, 2000, "inter-rev", 1);

    /* 3: two of three groups; ranks with rank%3 == 1 stay out */
    t3 = wrank % 3;
    MPI_Comm_split(MPI_COMM_WORLD, t3, wrank, &third);
    if (t3 != 1) {
        MPI_Intercomm_create(third, 1, MPI_COMM_WORLD, t3 == 0 ? 5 : 3, 79, &ic3);
        ict_inter_traffic(ic3, t3 == 0 ? 0 : 1, 3000, "inter-3way", 0);
    }

    /* 4: MPI_Comm_create on ic1 with a subset of each side */
    MPI_Comm_group(ic1, &g1);
    MPI_Comm_size(ic1, &lsize);
    MPI_Comm_rank(ic1, &lr);
    if (parity == 0) {
        MPI_Group_incl(g1, 2, keep_even, &sub1);
    } else {
        range[0][0] = 1; range[0][1] = lsize - 1; range[0][2] = 1;
        MPI_Group_range_incl(g1, 1, range, &sub1);
    }
    MPI_Comm_create(ic1, sub1, &cc1);
    ICT_CHECK((cc1 == MPI_COMM_NULL) == (parity == 0 ? lr > 1 : lr == 0));
    if (cc1 != MPI_COMM_NULL)
        ict_inter_traffic(cc1, parity, 4000, "inter-create", 0);

    /* 5: MPI_Comm_create on ic2: evens all, odds {0, last} */
    MPI_Comm_group(ic2, &g2);
    MPI_Comm_size(ic2, &lsize);
    MPI_Comm_rank(ic2, &lr);
    if (parity == 0) {
        MPI_Comm_group(ic2, &sub2);
    } else {
        perm[0] = 0; perm[1] = lsize - 1;
        MPI_Group_incl(g2, 2, perm, &sub2);
    }
    MPI_Comm_create(ic2, sub2, &cc2);
    ICT_CHECK((cc2 == MPI_COMM_NULL) == (parity == 1 && lr != 0 && lr != lsize - 1));
    if (cc2 != MPI_COMM_NULL)
        ict_inter_traffic(cc2, parity, 5000, "inter-create2", 0);

    MPI_Group_free(&sub2);
    MPI_Group_free(&g2);
    MPI_Group_free(&sub1);
    MPI_Group_free(&g1);
    if (cc2 != MPI_COMM_NULL) MPI_Comm_free(&cc2);
    if (cc1 != MPI_COMM_NULL) MPI_Comm_free(&cc1);
    if (ic3 != MPI_COMM_NULL) MPI_Comm_free(&ic3);
    MPI_Comm_free(&third);
    MPI_Comm_free(&ic2);
    MPI_Comm_free(&halfrev);
    MPI_Comm_free(&wdup);
    MPI_Comm_free(&ic1);
    MPI_Comm_free(&half);
    ict_finish();
    return 0;
}
