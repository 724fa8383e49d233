/* SPDX-License-Identifier: MIT */
/* test_match.c - point-to-point matching rules, one scenario per test. */
#include <glib.h>
#include <string.h>

#include "check.h"
#include "match.h"

typedef struct world {
    comm_ctx *c;
    match_ctx *m;
    GArray *arrows; /* match_arrow */
} world;

static slog_cb_result on_arrow(void *user, const match_arrow *a)
{
    g_array_append_val(((world *)user)->arrows, *a);
    return SLOG_CONTINUE;
}

static void world_init(world *w, uint32_t n)
{
    w->c = comm_ctx_new(n);
    w->m = match_ctx_new(w->c, on_arrow, w);
    w->arrows = g_array_new(FALSE, FALSE, sizeof(match_arrow));
}

static void world_done(world *w)
{
    match_ctx_free(w->m);
    comm_ctx_free(w->c);
    g_array_free(w->arrows, TRUE);
}

/* The i-th arrow, or a zeroed one when there are fewer (a failing check
 * then says so instead of reading past the array). */
static const match_arrow *arrow(const world *w, guint i)
{
    static const match_arrow none;
    return i < w->arrows->len ? &g_array_index(w->arrows, match_arrow, i) : &none;
}

/* match_finish(), then how many unmatched lines it listed. */
static size_t finish_unmatched(world *w)
{
    size_t n;
    match_finish(w->m);
    match_unmatched_list(w->m, &n);
    return n;
}

static match_stats stats_of(const world *w)
{
    match_stats s;
    match_get_stats(w->m, &s);
    return s;
}

static match_post P(uint32_t rank, int comm, int peer, int tag, int64_t time, int request)
{
    return (match_post){rank, 0, comm, peer, tag, 100, time, request};
}

static match_status S(int source, int tag)
{
    return (match_status){source, tag, MATCH_BYTES_UNKNOWN, 0};
}

#define W     COMM_HANDLE_WORLD
#define NOREQ MATCH_NO_REQUEST

/* Two messages on one envelope; the receives complete in reverse order
 * (Waitany) but still take the messages in posting order. */
static void test_non_overtaking(void)
{
    world w;
    world_init(&w, 2);
    match_post p;
    p = P(1, W, 0, 1, 5, 5), match_recv_post(w.m, &p);
    p = P(1, W, 0, 1, 6, 6), match_recv_post(w.m, &p);
    p = P(0, W, 1, 1, 10, NOREQ), match_send(w.m, &p);
    p = P(0, W, 1, 1, 20, NOREQ), match_send(w.m, &p);
    match_status st = S(0, 1);
    match_complete(w.m, 1, 0, 6, &st, 30);
    CHECK_EQ(w.arrows->len, 0); /* the first receive has not completed */
    CHECK_EQ(match_low_watermark(w.m), 30);
    match_complete(w.m, 1, 0, 5, &st, 40);
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 0)->send_time, 10);
    CHECK_EQ(arrow(&w, 0)->recv_time, 40);
    CHECK_EQ(arrow(&w, 1)->send_time, 20);
    CHECK_EQ(arrow(&w, 1)->recv_time, 30);
    CHECK_EQ(arrow(&w, 1)->bytes, 100);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    size_t n = finish_unmatched(&w);
    CHECK_EQ(n, 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* Wildcards resolved from the status; a later exact receive waits for an
 * earlier wildcard that could take the same message. */
static void test_wildcards(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(2, W, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 1, 1), match_recv_post(w.m, &p);
    p = P(2, W, 0, 5, 2, 2), match_recv_post(w.m, &p);
    p = P(0, W, 2, 5, 3, NOREQ), match_send(w.m, &p);
    p = P(0, W, 2, 5, 4, NOREQ), match_send(w.m, &p);
    p = P(1, W, 2, 9, 5, NOREQ), match_send(w.m, &p);
    match_status st = S(0, 5);
    match_complete(w.m, 2, 0, 2, &st, 100);
    CHECK_EQ(w.arrows->len, 0); /* could the wildcard have taken send 3? */
    CHECK_EQ(match_low_watermark(w.m), 100);
    match_complete(w.m, 2, 0, 1, &st, 110); /* yes it did */
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 0)->send_time, 3);
    CHECK_EQ(arrow(&w, 0)->recv_time, 110);
    CHECK_EQ(arrow(&w, 1)->send_time, 4);
    CHECK_EQ(arrow(&w, 1)->recv_time, 100);
    /* ANY_TAG from rank 1 */
    p = P(2, W, 1, MATCH_ANY_TAG, 6, 3), match_recv_post(w.m, &p);
    st = S(1, 9);
    st.bytes = 42;
    match_complete(w.m, 2, 3, 3, &st, 120);
    CHECK_EQ(w.arrows->len, 3);
    CHECK_EQ(arrow(&w, 2)->send_rank, 1);
    CHECK_EQ(arrow(&w, 2)->tag, 9);
    CHECK_EQ(arrow(&w, 2)->bytes, 42);
    CHECK_EQ(arrow(&w, 2)->recv_thread, 3);
    /* a wildcard and an unrelated exact receive: the exact one goes first */
    p = P(2, W, MATCH_ANY_SOURCE, 7, 7, 4), match_recv_post(w.m, &p);
    p = P(2, W, 1, 8, 8, 5), match_recv_post(w.m, &p);
    p = P(1, W, 2, 8, 9, NOREQ), match_send(w.m, &p);
    st = S(1, 8);
    match_complete(w.m, 2, 0, 5, &st, 130);
    CHECK_EQ(w.arrows->len, 4);
    match_finish(w.m);
    size_t n;
    const match_unmatched *u = match_unmatched_list(w.m, &n);
    CHECK_EQ(n, 1);
    CHECK_EQ(u[0].kind, MATCH_UNMATCHED_INCOMPLETE);
    CHECK_EQ(u[0].src, -1);
    CHECK_EQ(u[0].dst, 2);
    CHECK_EQ(u[0].tag, 7);
    world_done(&w);
}

static void test_sendrecv(void)
{
    world w;
    world_init(&w, 2);
    /* MPI_Sendrecv on both ranks: each is a send and a blocking receive. */
    for (uint32_t r = 0; r < 2; r++) {
        match_post s = P(r, W, 1 - (int)r, 11, 10 + r, NOREQ);
        match_send(w.m, &s);
        match_post q = P(r, W, 1 - (int)r, 11, 10 + r, NOREQ);
        match_status st = S(1 - (int)r, 11);
        match_recv(w.m, &q, &st, 50 + r, 0);
    }
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 0)->send_rank, 1); /* rank 0's recv needed rank 1's send */
    CHECK_EQ(arrow(&w, 0)->recv_rank, 0);
    CHECK_EQ(arrow(&w, 0)->recv_time, 50);
    CHECK_EQ(arrow(&w, 1)->send_rank, 0);
    CHECK_EQ(arrow(&w, 1)->recv_time, 51);
    world_done(&w);
}

/* Persistent requests keep their id over Start/Wait cycles. */
static void test_persistent(void)
{
    world w;
    world_init(&w, 2);
    match_post p = P(0, W, 1, 4, 0, 3);
    p.bytes = 64;
    match_send_init(w.m, &p);
    p = P(1, W, 0, 4, 0, 3); /* same id on the other rank: per-rank ids */
    match_recv_init(w.m, &p);
    for (int cycle = 0; cycle < 3; cycle++) {
        int64_t t = 1000 * cycle;
        match_start(w.m, 1, 0, 3, t + 1);
        match_start(w.m, 0, 0, 3, t + 2);
        match_status st = S(-1, -1);
        match_complete(w.m, 0, 0, 3, &st, t + 3); /* send completion: ignored */
        st = S(0, 4);
        match_complete(w.m, 1, 0, 3, &st, t + 4);
    }
    CHECK_EQ(w.arrows->len, 3);
    for (guint i = 0; i < 3; i++) {
        CHECK_EQ(arrow(&w, i)->send_time, 1000 * i + 2);
        CHECK_EQ(arrow(&w, i)->recv_time, 1000 * i + 4);
        CHECK_EQ(arrow(&w, i)->bytes, 64);
    }
    match_request_free(w.m, 0, 3);
    match_request_free(w.m, 1, 3);
    match_start(w.m, 0, 0, 3, 9999); /* freed: counted, nothing posted */
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_unknown_request, 1);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* Rank 1 posts a receive from rank 0 (tag 7, request 2) at t=1, calls
 * MPI_Cancel on it and completes it at t=2 with status st (NULL: none). */
static void cancel_receive(world *w, const match_status *st)
{
    match_post p = P(1, W, 0, 7, 1, 2);
    match_recv_post(w->m, &p);
    match_cancel(w->m, 1, 2);
    match_complete(w->m, 1, 0, 2, st, 2);
}

static void test_cancel(void)
{
    world w;
    world_init(&w, 2);
    match_status st = {-1, -1, 0, 1};
    cancel_receive(&w, &st);
    match_post p = P(1, W, 0, 7, 3, 2); /* id reused */
    match_recv_post(w.m, &p);
    p = P(0, W, 1, 7, 4, 9);
    match_send(w.m, &p); /* Isend, later cancelled successfully */
    match_cancel(w.m, 0, 9);
    match_complete(w.m, 0, 0, 9, &st, 5);
    p = P(0, W, 1, 7, 6, NOREQ);
    match_send(w.m, &p);
    st = S(0, 7);
    match_complete(w.m, 1, 0, 2, &st, 7);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_time, 6);
    CHECK_EQ(arrow(&w, 0)->recv_time, 7);
    size_t n = finish_unmatched(&w);
    CHECK_EQ(n, 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_cancelled, 2);
    world_done(&w);
}

static void test_proc_null(void)
{
    world w;
    world_init(&w, 2);
    match_post p = P(0, W, MATCH_PROC_NULL, 1, 1, NOREQ);
    match_send(w.m, &p);
    p = P(0, W, MATCH_PROC_NULL, 1, 2, 4);
    match_recv_post(w.m, &p);
    match_status st = S(MATCH_PROC_NULL, -1);
    match_complete(w.m, 0, 0, 4, &st, 3);
    /* a wildcard receive that completes with source PROC_NULL? no message */
    p = P(1, W, MATCH_ANY_SOURCE, 1, 4, NOREQ);
    match_recv(w.m, &p, &st, 5, 0);
    size_t n = finish_unmatched(&w);
    CHECK_EQ(n, 0);
    CHECK_EQ(w.arrows->len, 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_proc_null, 3);
    world_done(&w);
}

/* A send on a new communicator arrives before another member's split
 * record: held back, then matched when the split resolves. */
static void test_deferred_comm(void)
{
    world w;
    world_init(&w, 3);
    /* keys reverse the order: new local 0 = world 2, 1 = world 1, 2 = world 0 */
    comm_record_split(w.c, 0, W, 0, 0, 4);
    match_post p = P(0, 4, 0, 3, 10, NOREQ); /* to local 0 = world 2 */
    match_send(w.m, &p);
    comm_record_split(w.c, 2, W, 0, -2, 8);
    p = P(2, 8, 2, 3, 11, NOREQ); /* from local 2 = world 0 */
    match_status st = S(2, 3);
    match_recv(w.m, &p, &st, 20, 1);
    CHECK_EQ(w.arrows->len, 0);
    CHECK_EQ(match_low_watermark(w.m), 20);
    comm_record_split(w.c, 1, W, 0, -1, 5);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_rank, 0);
    CHECK_EQ(arrow(&w, 0)->recv_rank, 2);
    CHECK_EQ(arrow(&w, 0)->send_comm, 4);
    CHECK_EQ(arrow(&w, 0)->recv_comm, 8);
    CHECK_EQ(arrow(&w, 0)->recv_thread, 1);
    CHECK(arrow(&w, 0)->comm_id != COMM_ID_WORLD);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    /* the comm is freed and its id reused; traffic on the new one is apart */
    for (uint32_t r = 0; r < 3; r++) comm_record_free(w.c, r, r == 0 ? 4 : r == 1 ? 5 : 8);
    comm_record_dup(w.c, 0, W, 4);
    p = P(0, 4, 2, 3, 30, NOREQ); /* on the dup: local 2 = world 2 */
    match_send(w.m, &p);
    comm_record_dup(w.c, 1, W, 4);
    comm_record_dup(w.c, 2, W, 4);
    p = P(2, 4, 0, 3, 31, NOREQ);
    st = S(0, 3);
    match_recv(w.m, &p, &st, 40, 0);
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 1)->send_time, 30);
    /* a communicator that never resolves: its operations are listed */
    comm_record_dup(w.c, 0, W, 6);
    p = P(0, 6, 1, 3, 50, NOREQ);
    match_send(w.m, &p);
    match_finish(w.m);
    size_t n;
    const match_unmatched *u = match_unmatched_list(w.m, &n);
    CHECK_EQ(n, 1);
    CHECK_EQ(u[0].kind, MATCH_UNMATCHED_BAD_COMM);
    CHECK_EQ(u[0].src, 0);
    CHECK_EQ(u[0].comm, 6);
    world_done(&w);
}

/* Blocking Ssend decoded after the receive completed: the watermark holds. */
static void test_watermark(void)
{
    world w;
    world_init(&w, 2);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    match_post p = P(1, W, 0, 0, 5, NOREQ);
    match_status st = S(0, 0);
    match_recv(w.m, &p, &st, 50, 0);
    p = P(1, W, 0, 0, 60, NOREQ);
    match_recv(w.m, &p, &st, 70, 0);
    CHECK_EQ(match_low_watermark(w.m), 50);
    p = P(0, W, 1, 0, 4, NOREQ);
    match_send(w.m, &p);
    CHECK_EQ(match_low_watermark(w.m), 70);
    p = P(0, W, 1, 0, 55, NOREQ);
    match_send(w.m, &p);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    CHECK_EQ(w.arrows->len, 2);
    world_done(&w);
}

static void test_unmatched(void)
{
    world w;
    world_init(&w, 4);
    match_post p = P(0, W, 1, 3, 1, NOREQ);
    match_send(w.m, &p);
    p.time = 2;
    match_send(w.m, &p);
    p = P(1, W, 2, 4, 3, NOREQ);
    match_status st = S(2, 4);
    match_recv(w.m, &p, &st, 4, 0);
    p = P(3, W, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 5, 1);
    match_recv_post(w.m, &p);
    p = P(3, W, MATCH_ANY_SOURCE, 2, 6, 2);
    match_recv_post(w.m, &p);
    match_complete(w.m, 3, 0, 2, NULL, 7); /* no status: unknowable */
    p = P(2, W, 0, 1, 8, 5);
    match_recv_post(w.m, &p);
    match_request_free(w.m, 2, 5); /* freed active exact receive: phantom */
    p = P(0, W, 2, 1, 9, NOREQ);
    match_send(w.m, &p); /* taken by the phantom, no arrow */
    p = P(0, W, 7, 1, 9, NOREQ);
    match_send(w.m, &p); /* no such rank */
    CHECK(match_finish(w.m) == SLOG_OK);
    CHECK(match_finish(w.m) == SLOG_ERR_ARG);
    CHECK(match_send(w.m, &p) == SLOG_ERR_ARG);
    size_t n;
    const match_unmatched *u = match_unmatched_list(w.m, &n);
    CHECK_EQ(n, 5);
    if (n == 5) {
        CHECK_EQ(u[0].kind, MATCH_UNMATCHED_SEND);
        CHECK_EQ(u[0].src, 0);
        CHECK_EQ(u[0].dst, 1);
        CHECK_EQ(u[0].tag, 3);
        CHECK_EQ(u[0].count, 2);
        CHECK_EQ(u[1].kind, MATCH_UNMATCHED_RECV);
        CHECK_EQ(u[1].src, 2);
        CHECK_EQ(u[1].dst, 1);
        CHECK_EQ(u[2].kind, MATCH_UNMATCHED_INCOMPLETE);
        CHECK_EQ(u[2].dst, 3);
        CHECK_EQ(u[3].kind, MATCH_UNMATCHED_NO_STATUS);
        CHECK_EQ(u[3].tag, 2);
        CHECK_EQ(u[4].kind, MATCH_UNMATCHED_BAD_COMM); /* the send to rank 7 */
        CHECK_EQ(u[4].dst, -1);
    }
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_matched_no_arrow, 1);
    CHECK_EQ(s.n_unmatched, 6);
    CHECK_EQ(w.arrows->len, 0);
    world_done(&w);
}

/* libdumpi gives one id to several live Isends (testmpi): all still go out. */
static void test_request_reuse(void)
{
    world w;
    world_init(&w, 2);
    for (int i = 0; i < 3; i++) {
        match_post p = P(0, W, 1, i, i, 9);
        match_send(w.m, &p);
    }
    for (int i = 0; i < 3; i++) {
        match_post p = P(1, W, 0, i, 10 + i, NOREQ);
        match_status st = S(0, i);
        match_recv(w.m, &p, &st, 20 + i, 0);
    }
    CHECK_EQ(w.arrows->len, 3);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_request_reused, 2);
    world_done(&w);
}

/* Request ids of every size: small ones (an array in match.c), ids past
 * it, huge and negative ones (a hash) must all find their receive, and a
 * completion of one must not disturb the others. */
static void test_request_ids(void)
{
    static const int ids[] = {0, 3, 1023, 1024, 5000, 1 << 30, -7, -1000000};
    enum { N = sizeof ids / sizeof ids[0] };
    world w;
    world_init(&w, 2);
    match_post p;
    for (int i = 0; i < N; i++) p = P(1, W, 0, i, i, ids[i]), match_recv_post(w.m, &p);
    for (int i = 0; i < N; i++) p = P(0, W, 1, i, 100 + i, ids[N - 1 - i]), match_send(w.m, &p);
    /* receives complete last-posted first; each tag's arrow ends at its own time */
    for (int i = N - 1; i >= 0; i--) {
        match_status st = S(0, i);
        match_complete(w.m, 1, 0, ids[i], &st, 1000 + i);
    }
    CHECK_EQ(w.arrows->len, N);
    for (guint k = 0; k < w.arrows->len; k++) {
        const match_arrow *a = arrow(&w, k);
        CHECK_EQ(a->recv_time - 1000, a->send_time - 100);
    }
    for (int i = 0; i < N; i++) match_complete(w.m, 0, 0, ids[N - 1 - i], NULL, 2000 + i);
    CHECK_EQ(finish_unmatched(&w), 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_in_flight, 0);
    CHECK_EQ(s.n_request_reused, 0);
    world_done(&w);
}

static slog_cb_result stop_cb(void *user, const match_arrow *a)
{
    (*(int *)user)++;
    return SLOG_STOP;
}

static void test_stop(void)
{
    comm_ctx *c = comm_ctx_new(2);
    int calls = 0;
    match_ctx *m = match_ctx_new(c, stop_cb, &calls);
    for (int i = 0; i < 2; i++) {
        match_post p = P(0, W, 1, 0, i, NOREQ);
        match_send(m, &p);
        p = P(1, W, 0, 0, i, NOREQ);
        match_status st = S(0, 0);
        match_recv(m, &p, &st, 10 + i, 0);
    }
    CHECK_EQ(calls, 1);
    CHECK(match_stopped(m));
    match_ctx_free(m);
    comm_ctx_free(c);
}

/* ---------------------------------------------------------------- inferred
 * Wildcard receives completed without a status (MPI_STATUS_IGNORE, or
 * libdumpi's `statuses disable`): the message is inferred. */

static match_post PB(uint32_t rank, int peer, int tag, int64_t time, int request, int64_t bytes)
{
    match_post p = P(rank, W, peer, tag, time, request);
    p.bytes = bytes;
    return p;
}

/* ANY_SOURCE, no status: the earliest started of two sends from different
 * sources, though it was decoded second; ties go to the send posted first. */
static void test_infer_any_source(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(2, W, MATCH_ANY_SOURCE, 5, 1, 1), match_recv_post(w.m, &p);
    p = PB(1, 2, 5, 20, NOREQ, 11), match_send(w.m, &p);
    p = PB(0, 2, 5, 10, NOREQ, 22), match_send(w.m, &p);
    match_complete(w.m, 2, 3, 1, NULL, 30);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_rank, 0);
    CHECK_EQ(arrow(&w, 0)->send_time, 10);
    CHECK_EQ(arrow(&w, 0)->recv_rank, 2);
    CHECK_EQ(arrow(&w, 0)->recv_time, 30);
    CHECK_EQ(arrow(&w, 0)->recv_thread, 3);
    CHECK_EQ(arrow(&w, 0)->bytes, 22); /* the send's: no status, no count */
    CHECK_EQ(arrow(&w, 0)->tag, 5);
    CHECK(arrow(&w, 0)->inferred);
    /* a blocking one takes what is left */
    p = P(2, W, MATCH_ANY_SOURCE, 5, 40, NOREQ);
    match_recv(w.m, &p, NULL, 50, 0);
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 1)->send_rank, 1);
    CHECK(arrow(&w, 1)->inferred);
    /* equal start times: posting order */
    p = P(1, W, 2, 5, 60, NOREQ), match_send(w.m, &p);
    p = P(0, W, 2, 5, 60, NOREQ), match_send(w.m, &p);
    p = P(2, W, MATCH_ANY_SOURCE, 5, 70, NOREQ);
    match_recv(w.m, &p, NULL, 80, 0);
    CHECK_EQ(w.arrows->len, 3);
    CHECK_EQ(arrow(&w, 2)->send_rank, 1);
    /* the one with a status is not inferred */
    p = P(2, W, MATCH_ANY_SOURCE, 5, 90, NOREQ);
    match_status st = S(0, 5);
    match_recv(w.m, &p, &st, 100, 0);
    CHECK_EQ(w.arrows->len, 4);
    CHECK_EQ(arrow(&w, 3)->send_rank, 0);
    CHECK(!arrow(&w, 3)->inferred);
    size_t n = finish_unmatched(&w);
    CHECK_EQ(n, 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_arrows, 4);
    CHECK_EQ(s.n_inferred, 3);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* No candidate yet (a blocking send is merged after the receive's
 * completion): it waits, holding the watermark, and takes the first send
 * that fits; one that does not fit leaves it waiting. */
static void test_infer_waits(void)
{
    world w;
    world_init(&w, 3);
    match_post p = P(2, W, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 1, 1);
    match_recv_post(w.m, &p);
    match_complete(w.m, 2, 0, 1, NULL, 100);
    CHECK_EQ(w.arrows->len, 0);
    CHECK_EQ(match_low_watermark(w.m), 100);
    p = P(0, W, 1, 4, 30, NOREQ), match_send(w.m, &p); /* to rank 1 */
    CHECK_EQ(w.arrows->len, 0);
    CHECK_EQ(match_low_watermark(w.m), 100);
    p = P(1, W, 2, 7, 40, NOREQ), match_send(w.m, &p);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_rank, 1);
    CHECK_EQ(arrow(&w, 0)->send_time, 40);
    CHECK_EQ(arrow(&w, 0)->recv_time, 100);
    CHECK_EQ(arrow(&w, 0)->tag, 7);
    CHECK(arrow(&w, 0)->inferred);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    /* the send to rank 1 is still there for its own receive */
    p = P(1, W, 0, 4, 50, NOREQ);
    match_status st = S(0, 4);
    match_recv(w.m, &p, &st, 60, 0);
    CHECK_EQ(w.arrows->len, 2);
    CHECK(!arrow(&w, 1)->inferred);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* An exact receive posted before the inferred one keeps its message, even
 * when that message started earliest; it is already in its channel. */
static void test_infer_earlier_exact_keeps(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(2, W, 0, 1, 1, 1), match_recv_post(w.m, &p);
    p = P(2, W, MATCH_ANY_SOURCE, 1, 2, 2), match_recv_post(w.m, &p);
    p = P(0, W, 2, 1, 10, NOREQ), match_send(w.m, &p);
    p = P(1, W, 2, 1, 20, NOREQ), match_send(w.m, &p);
    match_complete(w.m, 2, 0, 2, NULL, 30);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_rank, 1);
    CHECK(arrow(&w, 0)->inferred);
    match_status st = S(0, 1);
    match_complete(w.m, 2, 0, 1, &st, 40);
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 1)->send_rank, 0);
    CHECK_EQ(arrow(&w, 1)->send_time, 10);
    CHECK(!arrow(&w, 1)->inferred);
    /* Behind an earlier uncompleted wildcard that could take the same
     * messages it waits; then the exact receive released with it goes
     * first: the inferred one takes the next send of that channel, and
     * queues behind that receive there (non-overtaking). */
    p = P(2, W, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 50, 3), match_recv_post(w.m, &p);
    p = P(2, W, 0, 1, 51, 4), match_recv_post(w.m, &p);
    p = P(2, W, MATCH_ANY_SOURCE, 1, 52, 5), match_recv_post(w.m, &p);
    p = P(0, W, 2, 1, 60, NOREQ), match_send(w.m, &p);
    p = P(0, W, 2, 1, 61, NOREQ), match_send(w.m, &p);
    p = P(1, W, 2, 9, 62, NOREQ), match_send(w.m, &p);
    match_complete(w.m, 2, 0, 5, NULL, 70);
    CHECK_EQ(w.arrows->len, 2); /* the ANY/ANY one may take either */
    CHECK_EQ(match_low_watermark(w.m), 70);
    st = S(1, 9);
    match_complete(w.m, 2, 0, 3, &st, 80);
    CHECK_EQ(w.arrows->len, 3);
    CHECK_EQ(arrow(&w, 2)->send_rank, 1);
    CHECK_EQ(match_low_watermark(w.m), 70);
    st = S(0, 1);
    match_complete(w.m, 2, 0, 4, &st, 90);
    CHECK_EQ(w.arrows->len, 5);
    CHECK_EQ(arrow(&w, 3)->send_time, 60);
    CHECK_EQ(arrow(&w, 3)->recv_time, 90);
    CHECK(!arrow(&w, 3)->inferred);
    CHECK_EQ(arrow(&w, 4)->send_time, 61); /* send 60 is the exact receive's */
    CHECK_EQ(arrow(&w, 4)->recv_time, 70);
    CHECK(arrow(&w, 4)->inferred);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_inferred, 2);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* Receives posted after the inferred one that it could take messages from
 * stay behind it until it is paired; others go on. */
static void test_infer_later_recv_waits(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(2, W, MATCH_ANY_SOURCE, 3, 1, 1), match_recv_post(w.m, &p);
    p = P(2, W, 0, 3, 2, 2), match_recv_post(w.m, &p);
    p = P(2, W, 1, 8, 3, 3), match_recv_post(w.m, &p); /* tag 8: not W's */
    match_complete(w.m, 2, 0, 1, NULL, 10);
    match_status st = S(0, 3);
    match_complete(w.m, 2, 0, 2, &st, 20);
    st = S(1, 8);
    match_complete(w.m, 2, 0, 3, &st, 25);
    CHECK_EQ(w.arrows->len, 0);
    p = P(1, W, 2, 8, 5, NOREQ), match_send(w.m, &p);
    CHECK_EQ(w.arrows->len, 1); /* the tag-8 receive was not held */
    CHECK_EQ(arrow(&w, 0)->recv_time, 25);
    CHECK_EQ(match_low_watermark(w.m), 10);
    /* the first message from 0 goes to the inferred receive, posted first */
    p = P(0, W, 2, 3, 6, NOREQ), match_send(w.m, &p);
    CHECK_EQ(w.arrows->len, 2);
    CHECK_EQ(arrow(&w, 1)->send_time, 6);
    CHECK_EQ(arrow(&w, 1)->recv_time, 10);
    CHECK(arrow(&w, 1)->inferred);
    CHECK_EQ(match_low_watermark(w.m), 20);
    p = P(0, W, 2, 3, 7, NOREQ), match_send(w.m, &p);
    CHECK_EQ(w.arrows->len, 3);
    CHECK_EQ(arrow(&w, 2)->send_time, 7);
    CHECK_EQ(arrow(&w, 2)->recv_time, 20);
    CHECK(!arrow(&w, 2)->inferred);
    world_done(&w);
}

/* ANY_TAG from one source: only that source's channels are candidates. */
static void test_infer_any_tag(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(0, W, 2, 3, 5, NOREQ), match_send(w.m, &p); /* other source */
    p = P(1, W, 2, 4, 30, NOREQ), match_send(w.m, &p);
    p = P(1, W, 2, 3, 20, NOREQ), match_send(w.m, &p);
    p = P(2, W, 1, MATCH_ANY_TAG, 40, NOREQ);
    match_recv(w.m, &p, NULL, 50, 0);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_rank, 1);
    CHECK_EQ(arrow(&w, 0)->tag, 3);
    CHECK_EQ(arrow(&w, 0)->send_time, 20);
    CHECK(arrow(&w, 0)->inferred);
    match_finish(w.m);
    size_t n;
    const match_unmatched *u = match_unmatched_list(w.m, &n);
    CHECK_EQ(n, 2);
    if (n == 2) {
        CHECK_EQ(u[0].kind, MATCH_UNMATCHED_SEND);
        CHECK_EQ(u[0].src, 0);
        CHECK_EQ(u[1].kind, MATCH_UNMATCHED_SEND);
        CHECK_EQ(u[1].src, 1);
        CHECK_EQ(u[1].tag, 4);
    }
    world_done(&w);
}

/* Still unpaired at the end: reported as before. One on which MPI_Cancel
 * was called is not inferred at all: with no status to say otherwise its
 * cancel is presumed to have worked (counted as cancelled, not reported),
 * and the send goes to the next receive. */
static void test_infer_unpaired(void)
{
    world w;
    world_init(&w, 3);
    match_post p;
    p = P(2, W, MATCH_ANY_SOURCE, 9, 1, 1), match_recv_post(w.m, &p);
    match_complete(w.m, 2, 0, 1, NULL, 10);
    p = P(1, W, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 2, 2), match_recv_post(w.m, &p);
    p = P(0, W, 1, 6, 3, NOREQ), match_send(w.m, &p);
    match_cancel(w.m, 1, 2);
    match_complete(w.m, 1, 0, 2, NULL, 20);
    CHECK_EQ(w.arrows->len, 0);
    p = P(1, W, 0, 6, 30, NOREQ);
    match_status st = S(0, 6);
    match_recv(w.m, &p, &st, 40, 0);
    CHECK_EQ(w.arrows->len, 1); /* the send went to the next receive */
    CHECK(!arrow(&w, 0)->inferred);
    CHECK_EQ(match_low_watermark(w.m), 10);
    match_finish(w.m);
    size_t n;
    const match_unmatched *u = match_unmatched_list(w.m, &n);
    CHECK_EQ(n, 1);
    if (n == 1) {
        CHECK_EQ(u[0].kind, MATCH_UNMATCHED_NO_STATUS);
        CHECK_EQ(u[0].src, -1);
        CHECK_EQ(u[0].dst, 2);
        CHECK_EQ(u[0].tag, 9);
    }
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_inferred, 0);
    CHECK_EQ(s.n_cancelled, 1);
    CHECK_EQ(s.n_unmatched, 1);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* MPI_Cancel, then a completion without a status (statuses disabled, as in
 * testmpi-wallonly): the receive is presumed cancelled. It must not take
 * the next send of its channel, which the following receive posted for. */
static void test_cancel_no_status(void)
{
    world w;
    world_init(&w, 2);
    cancel_receive(&w, NULL);
    match_post p = P(1, W, 0, 7, 3, 4);
    match_recv_post(w.m, &p);
    p = P(0, W, 1, 7, 4, NOREQ);
    match_send(w.m, &p);
    match_complete(w.m, 1, 0, 4, NULL, 9);
    CHECK_EQ(w.arrows->len, 1);
    if (w.arrows->len == 1) {
        CHECK_EQ(arrow(&w, 0)->send_time, 4);
        CHECK_EQ(arrow(&w, 0)->recv_time, 9); /* the second receive's completion */
    }
    size_t n = finish_unmatched(&w);
    CHECK_EQ(n, 0);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_cancelled, 1);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* The receive ahead in a channel is cancelled: the send it would have taken
 * becomes free, and the waiting inferred receive takes it. */
static void test_infer_wake_on_cancel(void)
{
    world w;
    world_init(&w, 2);
    match_post p;
    p = P(1, W, 0, 2, 1, 1), match_recv_post(w.m, &p);
    p = P(0, W, 1, 2, 2, NOREQ), match_send(w.m, &p);
    p = P(1, W, MATCH_ANY_SOURCE, 2, 3, 2), match_recv_post(w.m, &p);
    match_complete(w.m, 1, 0, 2, NULL, 10);
    CHECK_EQ(w.arrows->len, 0);
    match_cancel(w.m, 1, 1);
    match_status st = {-1, -1, 0, 1};
    match_complete(w.m, 1, 0, 1, &st, 20);
    CHECK_EQ(w.arrows->len, 1);
    CHECK_EQ(arrow(&w, 0)->send_time, 2);
    CHECK_EQ(arrow(&w, 0)->recv_time, 10);
    CHECK(arrow(&w, 0)->inferred);
    world_done(&w);
}

/* Channels of other destinations come and go by the thousand: sweeps free
 * the empty ones and must keep the destination index whole. */
static void churn(world *w, int64_t t0, int n)
{
    for (int i = 0; i < n; i++) {
        match_post q = P(0, W, 1, i, t0 + i, NOREQ);
        match_send(w->m, &q);
        q = P(1, W, 0, i, t0 + i, NOREQ);
        match_status st = S(0, i);
        match_recv(w->m, &q, &st, t0 + i, 0);
    }
}

/* On a communicator still pending, the inferred receive waits for its
 * resolution, as does the send to it on another member's instance; they
 * meet when it resolves. A second one waits through sweeps. */
static void test_infer_deferred_comm(void)
{
    world w;
    world_init(&w, 3);
    comm_record_dup(w.c, 2, W, 4);
    match_post p = P(2, 4, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 1, 1);
    match_recv_post(w.m, &p);
    match_complete(w.m, 2, 0, 1, NULL, 10);
    comm_record_dup(w.c, 1, W, 4);
    p = P(1, 4, 2, 5, 5, NOREQ), match_send(w.m, &p); /* held: 4 is pending */
    churn(&w, 20, 3000);
    CHECK_EQ(w.arrows->len, 3000);
    CHECK_EQ(match_low_watermark(w.m), 10);
    comm_record_dup(w.c, 0, W, 4); /* resolves */
    CHECK_EQ(w.arrows->len, 3001);
    CHECK_EQ(arrow(&w, 3000)->send_rank, 1);
    CHECK_EQ(arrow(&w, 3000)->send_time, 5);
    CHECK_EQ(arrow(&w, 3000)->recv_rank, 2);
    CHECK_EQ(arrow(&w, 3000)->recv_comm, 4);
    CHECK(arrow(&w, 3000)->inferred);
    CHECK_EQ(match_low_watermark(w.m), INT64_MAX);
    p = P(2, 4, MATCH_ANY_SOURCE, MATCH_ANY_TAG, 5000, NOREQ);
    match_recv(w.m, &p, NULL, 5010, 0);
    churn(&w, 6000, 3000);
    CHECK_EQ(w.arrows->len, 6001);
    CHECK_EQ(match_low_watermark(w.m), 5010);
    p = P(0, 4, 2, 8, 9000, NOREQ), match_send(w.m, &p);
    CHECK_EQ(w.arrows->len, 6002);
    CHECK_EQ(arrow(&w, 6001)->send_rank, 0);
    CHECK_EQ(arrow(&w, 6001)->tag, 8);
    CHECK(arrow(&w, 6001)->inferred);
    match_stats s = stats_of(&w);
    CHECK_EQ(s.n_inferred, 2);
    CHECK_EQ(s.n_in_flight, 0);
    world_done(&w);
}

/* One rank exchanges with more peers and tags than an instance's small
 * cache of channels holds (as a 3-D stencil does), in an order that
 * changes every third iteration, while channels between two other ranks
 * come and go by the thousand (sweeps): every message still pairs with
 * its own receive (the instance takes a table of its own, then guesses
 * each next channel from the order before). */
#define MC_PEERS 40
#define MC_TAGS  3
#define MC_N     (MC_PEERS * MC_TAGS)
#define MC_ITERS 12
#define MC_CHURN 1500
#define MC_STEP  INT64_C(10000000) /* an iteration's times */
#define MC_PHASE INT64_C(1000000)  /* a phase's, within an iteration */

static void test_many_channels(void)
{
    world w;
    world_init(&w, MC_PEERS + 3);
    GRand *rnd = g_rand_new_with_seed(27);
    int order[MC_N];
    for (int i = 0; i < MC_N; i++) order[i] = i;
    for (int it = 0; it < MC_ITERS; it++) {
        int64_t t = it * MC_STEP;
        if (it % 3 == 0)
            for (int i = MC_N - 1; i > 0; i--) {
                int j = g_rand_int_range(rnd, 0, i + 1), x = order[i];
                order[i] = order[j];
                order[j] = x;
            }
        /* Phase 1: rank 0 receives from every peer on every tag
         * (request k); phase 2 completes them, in reverse. */
        for (int i = 0; i < MC_N; i++) {
            int k = order[i], peer = 1 + k % MC_PEERS, tag = 1 + k / MC_PEERS;
            match_post p = P(0, W, peer, tag, t + i, k);
            match_recv_post(w.m, &p);
        }
        for (int i = 0; i < MC_N; i++) {
            int k = order[i], peer = 1 + k % MC_PEERS, tag = 1 + k / MC_PEERS;
            match_post p = P((uint32_t)peer, W, 0, tag, t + MC_PHASE + k, NOREQ);
            match_send(w.m, &p);
        }
        for (int i = MC_N; i-- > 0;) {
            int k = order[i], peer = 1 + k % MC_PEERS, tag = 1 + k / MC_PEERS;
            match_status st = S(peer, tag);
            match_complete(w.m, 0, 0, k, &st, t + 2 * MC_PHASE + k);
        }
        /* Phase 3: rank 0 sends to every peer, which receives at once
         * (phase 4). */
        for (int i = 0; i < MC_N; i++) {
            int k = order[i], peer = 1 + k % MC_PEERS, tag = 1 + k / MC_PEERS;
            match_post p = P(0, W, peer, tag, t + 3 * MC_PHASE + k, NOREQ);
            match_send(w.m, &p);
            p = P((uint32_t)peer, W, 0, tag, t + 3 * MC_PHASE + k, NOREQ);
            match_status st = S(0, tag);
            match_recv(w.m, &p, &st, t + 4 * MC_PHASE + k, 0);
        }
        /* Channels used once, then swept, every fourth iteration (a
         * sweep forgets which channel followed which). */
        for (int i = 0; it % 4 == 3 && i < MC_CHURN; i++) {
            int tag = 1000 + it * MC_CHURN + i;
            match_post p = P(MC_PEERS + 1, W, MC_PEERS + 2, tag, t + 5 * MC_PHASE + i, NOREQ);
            match_send(w.m, &p);
            p = P(MC_PEERS + 2, W, MC_PEERS + 1, tag, t + 5 * MC_PHASE + i, NOREQ);
            match_status st = S(MC_PEERS + 1, tag);
            match_recv(w.m, &p, &st, t + 5 * MC_PHASE + i, 0);
        }
    }
    CHECK_EQ(w.arrows->len, MC_ITERS * 2 * MC_N + MC_ITERS / 4 * MC_CHURN);
    for (guint i = 0; i < w.arrows->len; i++) {
        const match_arrow *a = arrow(&w, i);
        if (a->tag >= 1000) {
            CHECK_EQ(a->send_rank, MC_PEERS + 1);
            CHECK_EQ(a->send_time, a->recv_time);
            continue;
        }
        int64_t t = a->recv_time / MC_STEP * MC_STEP, phase = a->recv_time % MC_STEP / MC_PHASE;
        int k = (int)(a->recv_time % MC_PHASE), peer = 1 + k % MC_PEERS, tag = 1 + k / MC_PEERS;
        CHECK_EQ(a->tag, tag);
        if (phase == 2) {
            CHECK_EQ(a->recv_rank, 0);
            CHECK_EQ(a->send_rank, peer);
            CHECK_EQ(a->send_time, t + MC_PHASE + k);
        } else {
            CHECK_EQ(phase, 4);
            CHECK_EQ(a->send_rank, 0);
            CHECK_EQ(a->recv_rank, peer);
            CHECK_EQ(a->send_time, t + 3 * MC_PHASE + k);
        }
    }
    CHECK_EQ(finish_unmatched(&w), 0);
    CHECK_EQ(stats_of(&w).n_in_flight, 0);
    g_rand_free(rnd);
    world_done(&w);
}

int main(void)
{
    RUN(test_non_overtaking);
    RUN(test_wildcards);
    RUN(test_sendrecv);
    RUN(test_persistent);
    RUN(test_cancel);
    RUN(test_cancel_no_status);
    RUN(test_proc_null);
    RUN(test_deferred_comm);
    RUN(test_watermark);
    RUN(test_unmatched);
    RUN(test_request_reuse);
    RUN(test_request_ids);
    RUN(test_stop);
    RUN(test_infer_any_source);
    RUN(test_infer_waits);
    RUN(test_infer_earlier_exact_keeps);
    RUN(test_infer_later_recv_waits);
    RUN(test_infer_any_tag);
    RUN(test_infer_unpaired);
    RUN(test_infer_wake_on_cancel);
    RUN(test_infer_deferred_comm);
    RUN(test_many_channels);
    return 0;
}
