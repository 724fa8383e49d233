/* SPDX-License-Identifier: MIT */
/* test_palette.c - the calls that fill most timelines have colours apart
 * from their family's others (Isend vs Irecv, Wait vs Waitall, the
 * collectives): every pair of them at least a set distance apart in
 * CIELAB, where the hash of the name alone put some a few degrees apart. */
#include <math.h>
#include <stdio.h>

#include "palette.h"

static void lab(uint32_t rgba, double *L, double *a, double *b)
{
    double c[3];
    for (int i = 0; i < 3; i++) {
        double v = ((rgba >> (24 - 8 * i)) & 255) / 255.0;
        c[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
    }
    double x = (0.4124 * c[0] + 0.3576 * c[1] + 0.1805 * c[2]) / 0.95047;
    double y = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    double z = (0.0193 * c[0] + 0.1192 * c[1] + 0.9505 * c[2]) / 1.08883;
    double f[3] = {x, y, z};
    for (int i = 0; i < 3; i++) f[i] = f[i] > 0.008856 ? cbrt(f[i]) : 7.787 * f[i] + 16.0 / 116;
    *L = 116 * f[1] - 16;
    *a = 500 * (f[0] - f[1]);
    *b = 200 * (f[1] - f[2]);
}

int main(void)
{
    static const struct {
        dumpi_family family;
        const char *names[12];
    } groups[] = {
        {DUMPI_FAMILY_P2P, {"MPI_Send", "MPI_Isend", "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", NULL}},
        {DUMPI_FAMILY_WAIT_TEST, {"MPI_Wait", "MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Test", NULL}},
        {DUMPI_FAMILY_COLLECTIVE,
         {"MPI_Allreduce", "MPI_Reduce", "MPI_Bcast", "MPI_Barrier", "MPI_Allgather", "MPI_Alltoall", "MPI_Alltoallv",
          "MPI_Gather", "MPI_Scatter", NULL}},
    };
    int failed = 0;
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        for (int i = 0; groups[g].names[i]; i++)
            for (int j = i + 1; groups[g].names[j]; j++) {
                double L1, a1, b1, L2, a2, b2;
                lab(palette_colour(groups[g].family, groups[g].names[i]), &L1, &a1, &b1);
                lab(palette_colour(groups[g].family, groups[g].names[j]), &L2, &a2, &b2);
                double d = sqrt((L1 - L2) * (L1 - L2) + (a1 - a2) * (a1 - a2) + (b1 - b2) * (b1 - b2));
                if (d < 15) {
                    printf("FAIL: %s and %s are %.1f apart (CIE76), want 15 or more\n", groups[g].names[i],
                           groups[g].names[j], d);
                    failed = 1;
                }
            }
    if (!failed) printf("palette: the common calls of each family are apart\n");
    return failed;
}
