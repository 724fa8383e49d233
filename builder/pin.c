/* SPDX-License-Identifier: MIT */
/* pin.c - see pin.h. */
#include "pin.h"

#include <pthread.h>
#include <string.h>

void pin_begin(pin_plan *p, bool wanted, uint32_t n_threads)
{
    memset(p, 0, sizeof *p);
#ifdef __linux__
    p->on = wanted && n_threads > 1 && !sched_getaffinity(0, sizeof p->allowed, &p->allowed) &&
            CPU_COUNT(&p->allowed) == (int)n_threads;
    if (p->on) p->before = p->allowed;
#else
    (void)wanted;
    (void)n_threads;
#endif
}

void pin_self(const pin_plan *p, uint32_t id)
{
#ifdef __linux__
    if (!p->on) return;
    uint32_t seen = 0;
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &p->allowed) || seen++ != id) continue;
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(c, &one);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
        return;
    }
#else
    (void)p;
    (void)id;
#endif
}

void pin_end(const pin_plan *p)
{
#ifdef __linux__
    if (p->on) pthread_setaffinity_np(pthread_self(), sizeof p->before, &p->before);
#else
    (void)p;
#endif
}
