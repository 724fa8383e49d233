/* SPDX-License-Identifier: MIT */
/* helper.h - a second thread for the parts of a frame that split into
 * independent units (rows of the raster). The frame's thread runs the job
 * too and never waits for the helper to be scheduled: the job's function
 * claims its units itself (an atomic counter), so whichever thread runs
 * does them, and a job the helper has not picked up when the caller is
 * through is withdrawn. On a busy host the frame then costs what it costs
 * on one thread, not that plus a wait. GTK-free. */
#ifndef SV_HELPER_H
#define SV_HELPER_H

/* How long (ms) a look at whether a CPU is idle is taken as current. */
#define SV_HELPER_LOOK_MS 5.0

/* Whether a job run now would likely be shared: the helper free and a CPU
 * idle (a hint: another caller may take the helper first). For work that
 * costs a little more when split, to be split only then. */
int sv_helper_ready(void);

/* Run fn(arg) on the calling thread and, when the helper is free and a
 * CPU idle, on the helper at the same time; return once neither runs it. fn must be safe to
 * run twice at once and to run once alone (it claims units of work until
 * none is left, each unit done by exactly one of the two). A caller while
 * another's job is in hand, or with no helper thread to be had, runs fn
 * alone. */
void sv_helper_run(void (*fn)(void *), void *arg);

#endif
