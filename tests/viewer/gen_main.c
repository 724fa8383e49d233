/* gen_main.c - slog2-view-gen OUT.slog2 [TIMELINES [ITERATIONS [PER_HOST [ITERATION_NS]]]]:
 * write a deterministic synthetic file (see gen.h). */
#include <stdio.h>
#include <stdlib.h>

#include "gen.h"

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 6) {
        fprintf(stderr, "usage: %s OUT.slog2 [TIMELINES [ITERATIONS [PER_HOST [ITERATION_NS]]]]\n", argv[0]);
        return 2;
    }
    sv_gen_opts o;
    sv_gen_opts_small(&o);
    if (argc > 2)
        o.n_timelines = (uint32_t)strtoul(argv[2], NULL, 10);
    if (argc > 3)
        o.n_iterations = (uint32_t)strtoul(argv[3], NULL, 10);
    if (argc > 4)
        o.per_host = (uint32_t)strtoul(argv[4], NULL, 10);
    /* ranks start 3 µs apart, so thousands need iterations of tens of ms */
    if (argc > 5)
        o.iteration_ns = (int64_t)strtoll(argv[5], NULL, 10);
    slog_error err = {0};
    if (sv_gen_write(argv[1], &o, &err) != SLOG_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], err.message);
        return 1;
    }
    return 0;
}
