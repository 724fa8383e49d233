/* SPDX-License-Identifier: MIT */
/* launch.c - see launch.h. */
#include "launch.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Milliseconds since the process started, or -1 when /proc is missing:
 * field 22 of /proc/self/stat is the start time in clock ticks since
 * boot, on the CLOCK_BOOTTIME scale. */
static double ms_since_launch(void)
{
    gchar *stat = NULL;
    if (!g_file_get_contents("/proc/self/stat", &stat, NULL, NULL)) return -1;
    /* the command name (field 2) may hold spaces: count from its ')' */
    const char *p = strrchr(stat, ')');
    unsigned long long start = 0;
    int ok = p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                         &start) == 1;
    g_free(stat);
    long hz = sysconf(_SC_CLK_TCK);
    struct timespec now;
    if (!ok || hz <= 0 || clock_gettime(CLOCK_BOOTTIME, &now) != 0) return -1;
    return (now.tv_sec + now.tv_nsec / 1e9 - (double)start / hz) * 1e3;
}

void sv_launch_first_frame(void)
{
    static gboolean done;
    if (done) return;
    done = TRUE;
    if (!g_getenv("SLOG2_VIEW_TIMING")) return;
    double ms = ms_since_launch();
    if (ms >= 0) fprintf(stderr, "slog2-view: first frame %.0f ms after launch\n", ms);
}
