/* SPDX-License-Identifier: MIT */
/* helper.c - see helper.h. One helper thread for the process, started at
 * the first job and waiting for the next one between frames. */
#include "helper.h"

#include <pthread.h>

#ifdef __linux__
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#endif

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t posted_cv = PTHREAD_COND_INITIALIZER, done_cv = PTHREAD_COND_INITIALIZER;
static int have_thread; /* the helper was started */
static int in_hand;     /* a caller's job is posted or running */
static int posted;      /* the job waits for the helper */
static int running;     /* the helper runs the job */
static void (*job_fn)(void *);
static void *job_arg;
#ifdef __linux__
static pthread_t helper;
static int kept_off = -1; /* the CPU the helper was last kept off */
#endif

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
        pthread_create(&th, &attr, helper_main, NULL) == 0) {
        have_thread = 1;
#ifdef __linux__
        helper = th;
#endif
    }
    pthread_attr_destroy(&attr);
}

#ifdef __linux__
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Whether a CPU the caller may run on is idle: fewer tasks runnable now
 * (the fourth field of /proc/loadavg, the caller among them) than CPUs.
 * When every core is busy, the helper would take its turns on a core with
 * other work while the caller waits for its unit: the frame is then
 * faster on one thread. Looked at again at most every few milliseconds;
 * when it cannot be read, taken as idle. Called with mu held. */
static int cpu_idle(void)
{
    static double seen_at = -1e9;
    static int idle = 1;
    double now = now_ms();
    if (now - seen_at < SV_HELPER_LOOK_MS) return idle;
    seen_at = now;
    cpu_set_t set;
    int n_cpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
    int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return idle = 1;
    char buf[128];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return idle = 1;
    buf[n] = 0;
    /* "0.50 0.40 0.30 2/345 6789": the runnable count after the third space */
    const char *q = buf;
    for (int sp = 0; sp < 3 && q; sp++) {
        while (*q && *q != ' ') q++;
        q = *q ? q + 1 : NULL;
    }
    if (!q || n_cpu <= 0) return idle = 1;
    long running = strtol(q, NULL, 10);
    return idle = running < n_cpu;
}

/* Keep the helper off the caller's CPU (cpu): woken there, it would take
 * turns with the caller on one core, and on a host whose other core is
 * busy the frame would be slower than on one thread. 0 when there is no
 * other CPU to run it on. Called with mu held. */
static int keep_off(int cpu)
{
    if (cpu < 0) return 1; /* unknown: as the scheduler places it */
    if (cpu == kept_off) return 1;
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set)) return 1;
    if (cpu < CPU_SETSIZE) CPU_CLR(cpu, &set);
    if (CPU_COUNT(&set) == 0) return 0;
    if (pthread_setaffinity_np(helper, sizeof set, &set)) return 1;
    kept_off = cpu;
    return 1;
}

static int current_cpu(void)
{
    return sched_getcpu();
}
#else
/* Elsewhere the scheduler places the helper, and it is used when free. */
static int cpu_idle(void)
{
    return 1;
}

static int keep_off(int cpu)
{
    (void)cpu;
    return 1;
}

static int current_cpu(void)
{
    return -1;
}
#endif

int sv_helper_ready(void)
{
    pthread_once(&once, start_helper);
    pthread_mutex_lock(&mu);
    int ready = have_thread && !in_hand && cpu_idle();
    pthread_mutex_unlock(&mu);
    return ready;
}

void sv_helper_run(void (*fn)(void *), void *arg)
{
    pthread_once(&once, start_helper);
    int mine = 0;
    pthread_mutex_lock(&mu);
    if (have_thread && !in_hand && cpu_idle() && keep_off(current_cpu())) {
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
