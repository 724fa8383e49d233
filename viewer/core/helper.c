/* SPDX-License-Identifier: MIT */
/* helper.c - see helper.h. One helper thread for the process, started at
 * the first job and waiting for the next one between frames. */
#include "helper.h"

#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int have_thread; /* the helper was started */
static int in_hand;     /* a caller's job is posted or running */
static int posted;      /* the job waits for the helper */
static int running;     /* the helper runs the job */
static void (*job_fn)(void *);
static void *job_arg;

static void *helper_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&mu);
    for (;;) {
        while (!posted) pthread_cond_wait(&posted_cv, &mu);
        void (*fn)(void *) = job_fn;
        void *arg = job_arg;
        posted = 0;
        running = 1;
        pthread_mutex_unlock(&mu);
        fn(arg);
        pthread_mutex_lock(&mu);
        running = 0;
        pthread_cond_broadcast(&done_cv);
    }
    return NULL;
}

static void start_helper(void)
{
    pthread_t th;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr)) return;
    if (pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED) == 0 &&
        pthread_create(&th, &attr, helper_main, NULL) == 0)
        have_thread = 1;
    pthread_attr_destroy(&attr);
}

void sv_helper_run(void (*fn)(void *), void *arg)
{
    pthread_once(&once, start_helper);
    int mine = 0;
    pthread_mutex_lock(&mu);
    if (have_thread && !in_hand) {
        in_hand = mine = posted = 1;
        job_fn = fn;
        job_arg = arg;
        pthread_cond_signal(&posted_cv);
    }
    pthread_mutex_unlock(&mu);
    fn(arg);
    if (!mine) return;
    pthread_mutex_lock(&mu);
    /* not picked up yet: the units are all done, withdraw it */
    posted = 0;
    while (running) pthread_cond_wait(&done_cv, &mu);
    in_hand = 0;
    pthread_mutex_unlock(&mu);
}
