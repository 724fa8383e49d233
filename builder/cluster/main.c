/* SPDX-License-Identifier: MIT */
/* main.c - slog2-build-mpi: slog2-build's command line on every process of
 * an MPI job (cluster.h). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"

/* A job of Open MPI's whose processes share one node: its point-to-point
 * layer ob1, unless the user chose one. Left to choose, Open MPI also
 * opens cm and with it the libraries of every fabric it was built for
 * (PSM, PSM2, OFI), which costs most of MPI_Init on a node without them,
 * while on one node ob1 moves the messages through shared memory. Every
 * process sees the same two sizes, so all make the same choice, which
 * Open MPI requires. */
static void one_node_pml(void)
{
    const char *size = getenv("OMPI_COMM_WORLD_SIZE");
    const char *local = getenv("OMPI_COMM_WORLD_LOCAL_SIZE");
    if (!size || !local || strcmp(size, local) != 0 || getenv("OMPI_MCA_pml")) return;
    setenv("OMPI_MCA_pml", "ob1", 0);
}

int main(int argc, char **argv)
{
    one_node_pml();
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    cluster_begin(provided);
    int status = cluster_end(slog2_build_main(argc, argv));
    MPI_Finalize();
    return status;
}
