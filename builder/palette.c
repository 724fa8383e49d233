/* SPDX-License-Identifier: MIT */
/* palette.c - a hue band per family, varied within it by a hash of the name
 * so that e.g. MPI_Send and MPI_Isend are neighbours; the calls that fill
 * most timelines have a colour of their own, chosen apart from their
 * family's others (the hash put Isend and Irecv, Wait and Waitall, or two
 * collectives a few degrees from each other). */
#include "palette.h"

#include <math.h>
#include <string.h>

/* Within a family the hue, lightness and saturation all differ, so that
 * neighbours still part in the legend's small swatches. Point-to-point
 * blues, collectives oranges and reds, waits and tests greens, as the
 * bands below. */
static const struct {
    const char *name;
    uint32_t rgba;
} named[] = {
    {"MPI_Send", 0x3584e4ffu},      {"MPI_Isend", 0x62c0f5ffu},      {"MPI_Recv", 0x1f3fa8ffu},
    {"MPI_Irecv", 0x8f7ef0ffu},     {"MPI_Sendrecv", 0x2ab7b0ffu},   {"MPI_Ssend", 0x5a6fd6ffu},
    {"MPI_Issend", 0x9cc8f7ffu},    {"MPI_Rsend", 0x4a90c0ffu},      {"MPI_Bsend", 0x276a9effu},
    {"MPI_Wait", 0x33c24dffu},      {"MPI_Waitall", 0x1d7a36ffu},    {"MPI_Waitany", 0x9ad94fffu},
    {"MPI_Waitsome", 0x5fd3a5ffu},  {"MPI_Test", 0xb8e986ffu},       {"MPI_Testall", 0x3e9e6affu},
    {"MPI_Testany", 0x7ab83cffu},   {"MPI_Testsome", 0x2f8f8affu},   {"MPI_Allreduce", 0xf57900ffu},
    {"MPI_Reduce", 0xa84300ffu},    {"MPI_Bcast", 0xe01b24ffu},      {"MPI_Barrier", 0x8c1c1cffu},
    {"MPI_Allgather", 0xf5c211ffu}, {"MPI_Allgatherv", 0xc99a2effu}, {"MPI_Alltoall", 0xe66196ffu},
    {"MPI_Alltoallv", 0xa8325effu}, {"MPI_Gather", 0xf0975cffu},     {"MPI_Gatherv", 0xc96a3cffu},
    {"MPI_Scatter", 0xff6f4fffu},   {"MPI_Scatterv", 0xd9583bffu},   {"MPI_Reduce_scatter", 0xb5835affu},
    {"MPI_Scan", 0xe8a36bffu},
};

typedef struct band {
    double hue, spread; /* degrees */
    double sat, val;
} band;

/* Indexed by dumpi_family. Chosen to be distinguishable on a dark canvas:
 * point-to-point blues, collectives oranges/reds, wait/test greens, probes
 * yellow, object management greys-violet, one-sided cyan, I/O magenta. */
static const band bands[DUMPI_N_FAMILIES] = {
    [DUMPI_FAMILY_P2P] = {215, 30, 0.70, 0.95},       [DUMPI_FAMILY_COLLECTIVE] = {18, 28, 0.80, 0.95},
    [DUMPI_FAMILY_WAIT_TEST] = {120, 35, 0.60, 0.80}, [DUMPI_FAMILY_PROBE] = {55, 12, 0.85, 0.95},
    [DUMPI_FAMILY_OBJECT] = {270, 30, 0.30, 0.75},    [DUMPI_FAMILY_ONE_SIDED] = {180, 15, 0.70, 0.85},
    [DUMPI_FAMILY_IO] = {310, 20, 0.60, 0.90},        [DUMPI_FAMILY_OTHER] = {0, 0, 0.0, 0.60},
    [DUMPI_FAMILY_USER] = {90, 60, 0.45, 0.70},       [DUMPI_FAMILY_SENTINEL] = {0, 0, 0.0, 0.5},
};

static uint32_t fnv1a(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static uint32_t hsv_rgba(double h, double s, double v)
{
    h = fmod(fmod(h, 360.0) + 360.0, 360.0) / 60.0;
    int i = (int)h;
    double f = h - i, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    double r, g, b;
    switch (i) {
    case 0: r = v, g = t, b = p; break;
    case 1: r = q, g = v, b = p; break;
    case 2: r = p, g = v, b = t; break;
    case 3: r = p, g = q, b = v; break;
    case 4: r = t, g = p, b = v; break;
    default: r = v, g = p, b = q; break;
    }
    return ((uint32_t)lround(r * 255) << 24) | ((uint32_t)lround(g * 255) << 16) | ((uint32_t)lround(b * 255) << 8) |
           0xffu;
}

uint32_t palette_colour(dumpi_family family, const char *name)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(named[i].name, name) == 0) return named[i].rgba;
    const band *b = &bands[family < DUMPI_N_FAMILIES ? family : DUMPI_FAMILY_OTHER];
    uint32_t h = fnv1a(name);
    double jitter = ((h & 0xff) / 255.0 - 0.5);          /* -0.5 .. 0.5 */
    double vj = (((h >> 8) & 0xff) / 255.0 - 0.5) * 0.2; /* value variation */
    double sat = b->sat, val = b->val + vj;
    if (family == DUMPI_FAMILY_OTHER) val = 0.45 + ((h >> 16) & 0xff) / 255.0 * 0.3;
    if (val > 1) val = 1;
    return hsv_rgba(b->hue + jitter * b->spread, sat, val);
}

uint32_t palette_event_colour(const char *name)
{
    (void)name;
    return 0xffe066ffu; /* polls: light yellow ticks */
}
