/* SPDX-License-Identifier: MIT */
/* pipeline.c - who runs what, when (see build_internal.h).
 *
 * Work comes in three kinds: a lane over a slab, and a slab's two
 * sequential steps (seq.c), match then write. Each kind of sequential step
 * runs one slab at a time, in order, but a write step and the next slab's
 * match step may run at once. Every thread takes whatever can run, the
 * sequential steps first (nothing else can share them):
 *   - slab k's match step, once its lanes are done and match k - 1 is;
 *   - slab k's write step, once match k and write k - 1 are done;
 *   - lane l over slab k, once l finished slab k - 1, slab k's slot is free
 *     (write k - SLOTS_FOR(lag) done), and every match step up to leaf(k) - lag is
 *     done (build_internal.h): a lane uses the plans and communicator snapshots published up
 *     to there and no others, so what it defers does not depend on timing
 *     (call_plan.h, comm_view.h).
 * Slabs are opened one at a time: the next leaf, or, when every lane is
 * done with the newest slab, the leaf of the earliest record still to come
 * (a trace may pause for seconds; empty leaves need no work). Which slabs
 * exist can depend on timing, but an empty slab adds nothing to the file,
 * not even a watermark (seq_match), so the output does not.
 *
 * Synchronisation is one mutex and one condition variable: a task is a
 * slab's worth of a lane's records (thousands), so taking it costs
 * nothing next to doing it. POSIX ones, not GLib's: ThreadSanitizer sees
 * those (the tsan test stage) and cannot see GLib's futexes.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "build_internal.h"
#include "pin.h"

typedef struct sched {
    builder *b;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    slab slabs[SLOTS_MAX]; /* slab k in slabs[SLOT_OF(b, k)] */
    int64_t n_open;        /* slabs opened: 0 .. n_open - 1 */
    int64_t match_next;    /* the next match step */
    int64_t write_next;    /* the next write step */
    bool match_busy, write_busy;
    bool no_more;       /* no record is left for a new slab */
    int n_running;      /* tasks in progress */
    atomic_int next_id; /* workers' numbers, for their statistics */
    pin_plan pin;       /* worker i keeps to the i-th CPU allowed, or not */
} sched;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static slab *slab_of(sched *q, int64_t k)
{
    return &q->slabs[SLOT_OF(q->b, k)];
}

static uint64_t all_lanes(const builder *b)
{
    return b->n_lanes >= 64 ? UINT64_MAX : ((uint64_t)1 << b->n_lanes) - 1;
}

static void slab_init(sched *q, int64_t k, uint64_t leaf)
{
    int shift = q->b->shift;
    slab *s = slab_of(q, k);
    memset(s, 0, sizeof *s);
    s->k = k;
    s->leaf = leaf;
    s->lo = (int64_t)(leaf << shift);
    s->hi = (int64_t)((leaf + 1) << shift);
    q->n_open = k + 1;
}

/* Open the next slab when it is time (under the lock). */
static void maybe_open(sched *q)
{
    builder *b = q->b;
    if (q->no_more || !q->n_open || q->n_open >= q->write_next + SLOTS_FOR(b->lag)) return;
    const slab *last = slab_of(q, q->n_open - 1);
    if (last->claimed != all_lanes(b)) return; /* its lanes are not all taken yet */
    bool known = last->lanes_done == b->n_lanes;
    int64_t next = INT64_MAX;
    for (uint32_t i = 0; known && i < b->n_lanes; i++)
        if (b->lanes[i].next_key < next) next = b->lanes[i].next_key;
    if (known && next == INT64_MAX) {
        q->no_more = true;
        return;
    }
    uint64_t leaf = last->leaf + 1;
    if (known && next >= 0 && ((uint64_t)next >> b->shift) > leaf) leaf = (uint64_t)next >> b->shift;
    /* Leaves end below 2^62 (every time does). */
    if (leaf >= ((uint64_t)1 << (62 - b->shift))) {
        q->no_more = true;
        return;
    }
    slab_init(q, q->n_open, leaf);
}

/* A lane task ready to run, or NULL. Only the newest slab can have lanes
 * left (maybe_open). (Keeping a lane on the thread that ran it before made
 * no difference measured on two cores.) */
static slab *claim_lane(sched *q, uint32_t *lane_out)
{
    builder *b = q->b;
    if (q->n_open <= q->match_next) return NULL; /* none open, or all matched */
    slab *s = slab_of(q, q->n_open - 1);
    if (s->claimed == all_lanes(b)) return NULL;
    /* Match steps up to leaf - lag done: the next one's slab is past that. */
    if (q->match_next < s->k && slab_of(q, q->match_next)->leaf + b->lag <= s->leaf) return NULL;
    for (uint32_t i = 0; i < b->n_lanes; i++) {
        /* a lane whose ranks are still in the slab before waits */
        if ((s->claimed >> i & 1) || b->lanes[i].done_slab != s->k - 1) continue;
        s->claimed |= (uint64_t)1 << i;
        *lane_out = i;
        return s;
    }
    return NULL;
}

/* A sequential step of slab s, entered and left under the lock: step runs
 * without it, marked busy; its CPU time goes to *cpu_s, then *next moves on. */
static void run_step(sched *q, slab *s, void (*step)(builder *, const slab *), bool *busy, int64_t *next, double *cpu_s)
{
    *busy = true;
    q->n_running++;
    pthread_mutex_unlock(&q->lock);
    double t0 = clock_s(CLOCK_THREAD_CPUTIME_ID);
    step(q->b, s);
    double t = clock_s(CLOCK_THREAD_CPUTIME_ID) - t0;
    pthread_mutex_lock(&q->lock);
    *cpu_s += t;
    *busy = false;
    (*next)++;
    q->n_running--;
    maybe_open(q);
    pthread_cond_broadcast(&q->cond);
}

static gpointer worker(gpointer data)
{
    sched *q = data;
    builder *b = q->b;
    double waited = 0;
    /* Pinned before taking the lock: the move to its CPU is a system call
     * the other workers need not wait for. */
    int id = atomic_fetch_add(&q->next_id, 1);
    pin_self(&q->pin, (uint32_t)id);
    pthread_mutex_lock(&q->lock);
    for (;;) {
        if (atomic_load(&b->stop)) break;
        if (!q->match_busy && q->match_next < q->n_open && slab_of(q, q->match_next)->lanes_done == b->n_lanes) {
            run_step(q, slab_of(q, q->match_next), seq_match, &q->match_busy, &q->match_next, &b->s->match_cpu_s);
            continue;
        }
        if (!q->write_busy && q->write_next < q->match_next) {
            run_step(q, slab_of(q, q->write_next), seq_write, &q->write_busy, &q->write_next, &b->s->write_cpu_s);
            continue;
        }
        maybe_open(q);
        uint32_t li;
        slab *s = claim_lane(q, &li);
        if (s) {
            q->n_running++;
            pthread_mutex_unlock(&q->lock);
            lane_run(b, &b->lanes[li], s);
            pthread_mutex_lock(&q->lock);
            b->lanes[li].done_slab = s->k;
            s->lanes_done++;
            q->n_running--;
            maybe_open(q);
            pthread_cond_broadcast(&q->cond);
            continue;
        }
        if (q->no_more && q->write_next == q->n_open && !q->n_running) break;
        double t0 = clock_s(CLOCK_MONOTONIC);
        pthread_cond_wait(&q->cond, &q->lock);
        waited += clock_s(CLOCK_MONOTONIC) - t0;
    }
    if (id < BUILD_MAX_THREADS) {
        b->s->thread_cpu_s[id] = clock_s(CLOCK_THREAD_CPUTIME_ID);
        b->s->thread_wait_s[id] = waited;
    }
    pthread_cond_broadcast(&q->cond);
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

bool pipeline_run(builder *b)
{
    sched q;
    memset(&q, 0, sizeof q);
    atomic_init(&q.next_id, 0);
    q.b = b;
    pthread_mutex_init(&q.lock, NULL);
    pthread_cond_init(&q.cond, NULL);
    int64_t first = INT64_MAX;
    for (uint32_t i = 0; i < b->n_lanes; i++) {
        b->lanes[i].done_slab = -1;
        if (b->lanes[i].next_key < first) first = b->lanes[i].next_key;
    }
    if (first == INT64_MAX)
        q.no_more = true;
    else
        slab_init(&q, 0, first > 0 ? (uint64_t)first >> b->shift : 0);
    uint32_t n_threads = build_threads(b);
    b->s->n_threads = n_threads;
    pin_begin(&q.pin, b->o->pin_threads, n_threads); /* pin.h */
    b->s->pinned = q.pin.on;
    GThread **t = g_new0(GThread *, n_threads);
    for (uint32_t i = 1; i < n_threads; i++) t[i] = g_thread_new("slog2-lane", worker, &q);
    worker(&q);
    for (uint32_t i = 1; i < n_threads; i++) g_thread_join(t[i]);
    g_free(t);
    pin_end(&q.pin); /* this thread goes on */
    pthread_mutex_destroy(&q.lock);
    pthread_cond_destroy(&q.cond);
    return !atomic_load(&b->stop);
}
