/* SPDX-License-Identifier: MIT */
/* main.c - slog2-build-mpi: slog2-build's command line on every process of
 * an MPI job (cluster.h). */
#include <mpi.h>

#include "cluster.h"

int main(int argc, char **argv)
{
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    cluster_begin(provided);
    int status = cluster_end(slog2_build_main(argc, argv));
    MPI_Finalize();
    return status;
}
