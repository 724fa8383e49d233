/* SPDX-License-Identifier: MIT */
/* pin.h - keeping the builder's threads one to a CPU.
 *
 * With a thread for every CPU the process may use, each keeps to one, as
 * GROMACS's mdrun -pin auto does. Left to the scheduler, a thread woken
 * or started by another was often put on that one's CPU: the pipeline's
 * two workers then shared one core for much of a small trace's build, and
 * the leaf width's sample ran its two halves one after the other
 * (docs/PERFORMANCE.md). With fewer threads than CPUs (a chosen -j, perhaps
 * beside other jobs), --no-pin, or off Linux, nothing is pinned.
 */
#ifndef SLOG2_PIN_H
#define SLOG2_PIN_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __linux__
#include <sched.h>
#endif

typedef struct pin_plan {
    bool on;
#ifdef __linux__
    cpu_set_t allowed; /* the CPUs this process may use */
    cpu_set_t before;  /* the calling thread's own, given back by pin_end */
#endif
} pin_plan;

/* Whether n_threads threads (the caller is number 0) are pinned: wanted,
 * more than one, and exactly as many as the CPUs allowed. */
void pin_begin(pin_plan *p, bool wanted, uint32_t n_threads);
/* The calling thread, number id, onto the id-th allowed CPU (when on; a
 * refusal only costs speed). */
void pin_self(const pin_plan *p, uint32_t id);
/* Thread 0 (the caller of pin_begin) may use its CPUs again. */
void pin_end(const pin_plan *p);

#endif
