/* SPDX-License-Identifier: MIT */
/* test_send_reqs.c - a lane leaves out the completions of its rank's
 * Isends, and only those (builder/send_reqs.h): the operations call_ops()
 * lists for hand-made records, with the lane's set and without it. */
#include <stdarg.h>
#include <string.h>

#include "call_plan.h"
#include "check.h"
#include "dumpi_table.h"
#include "send_reqs.h"

typedef struct collected {
    match_op ops[16];
    int n;
} collected;

static match_op *slot(void *user)
{
    collected *c = user;
    return &c->ops[c->n < 15 ? c->n++ : 15];
}

/* A record of function name with its arguments named in args (name,
 * value pairs, NULL-terminated); a status argument gets st. (Request id 1
 * is DUMPI's MPI_REQUEST_NULL.) */
static void make(dumpi_call *c, const char *name, const dumpi_status *st, ...)
{
    memset(c, 0, sizeof *c);
    c->fn = dumpi_fn_by_name(name);
    c->label = c->fn->label;
    va_list ap;
    va_start(ap, st);
    for (const char *arg; (arg = va_arg(ap, const char *));) {
        int i = dumpi_fn_arg_index(c->label, arg);
        c->args[i].i = va_arg(ap, int);
        c->present |= (uint16_t)(1u << i);
    }
    va_end(ap);
    int i = dumpi_fn_arg_index(c->label, "status");
    if (i >= 0 && st) {
        c->present |= (uint16_t)(1u << i);
        c->args[i].i = 1;
        c->args[i].p = st;
    }
}

/* The operations of c, through a lane's set (sends) or none (NULL). */
static int ops_of(const dumpi_call *c, send_reqs *sends, collected *out)
{
    fn_plan p;
    call_plan_make(&p, c->label);
    dumpi_completions dc;
    dumpi_call_completions(c, &dc);
    out->n = 0;
    call_ops(&p, NULL, c, &dc, 0, SLOG_INFO_UNKNOWN, sends, slot, out);
    return out->n;
}

static const dumpi_status done_send = {.bytes = 0, .source = -1, .tag = -1};
static const dumpi_status cancelled = {.bytes = 0, .source = -1, .tag = -1, .cancelled = 1};

/* Isend, then Wait: the send's operation is listed, its completion not;
 * without the set, both are. An Irecv's completion always is. */
static void test_isend_wait(void)
{
    send_reqs s = {0};
    dumpi_call c;
    collected got;
    make(&c, "MPI_Isend", NULL, "dest", 1, "tag", 7, "request", 5, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    CHECK_EQ(got.ops[0].kind, OP_SEND);
    CHECK_EQ(s.n, 1);
    make(&c, "MPI_Wait", &done_send, "request", 5, NULL);
    CHECK_EQ(ops_of(&c, NULL, &got), 1); /* the sequential step's view: every one */
    CHECK_EQ(ops_of(&c, &s, &got), 0);
    CHECK_EQ(s.n, 0);
    /* the id again, now an Irecv's: its completion is the matcher's */
    make(&c, "MPI_Irecv", NULL, "source", 1, "tag", 7, "request", 5, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    make(&c, "MPI_Wait", &done_send, "request", 5, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    CHECK_EQ(got.ops[0].kind, OP_COMPLETE);
}

/* A cancelled send (by its status, or MPI_Cancel without one), an id
 * reused by a receive before the send completed, a freed request and an
 * id beyond the matcher's array: completions listed. */
static void test_kept(void)
{
    send_reqs s = {0};
    dumpi_call c;
    collected got;
    make(&c, "MPI_Isend", NULL, "dest", 1, "request", 11, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Wait", &cancelled, "request", 11, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    make(&c, "MPI_Isend", NULL, "dest", 1, "request", 2, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Cancel", NULL, "request", 2, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Wait", NULL, "request", 2, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    make(&c, "MPI_Isend", NULL, "dest", 1, "request", 3, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Irecv", NULL, "source", 1, "request", 3, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Wait", &done_send, "request", 3, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
    make(&c, "MPI_Isend", NULL, "dest", 1, "request", 4, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Request_free", NULL, "request", 4, NULL);
    ops_of(&c, &s, &got);
    CHECK_EQ(s.n, 0);
    make(&c, "MPI_Isend", NULL, "dest", 1, "request", (int)MATCH_REQ_DENSE, NULL);
    ops_of(&c, &s, &got);
    CHECK_EQ(s.n, 0);
    make(&c, "MPI_Wait", &done_send, "request", (int)MATCH_REQ_DENSE, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
}

/* Records the lane defers keep the set the same way (send_reqs_note): a
 * deferred Isend is left out at its completion, a deferred Wait ends it. */
static void test_deferred(void)
{
    send_reqs s = {0};
    dumpi_call c;
    collected got;
    req_use u;
    make(&c, "MPI_Isend", NULL, "dest", 2, "request", 9, NULL);
    req_use_of(c.label, &u);
    send_reqs_note(&s, &u, &c);
    CHECK_EQ(s.n, 1);
    make(&c, "MPI_Wait", &done_send, "request", 9, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 0);
    make(&c, "MPI_Isend", NULL, "dest", 2, "request", 9, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Wait", &done_send, "request", 9, NULL);
    req_use_of(c.label, &u);
    send_reqs_note(&s, &u, &c);
    CHECK_EQ(s.n, 0);
    /* a persistent send's completions are the matcher's */
    make(&c, "MPI_Send_init", NULL, "dest", 2, "request", 9, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Start", NULL, "request", 9, NULL);
    ops_of(&c, &s, &got);
    make(&c, "MPI_Wait", &done_send, "request", 9, NULL);
    CHECK_EQ(ops_of(&c, &s, &got), 1);
}

int main(void)
{
    test_isend_wait();
    test_kept();
    test_deferred();
    return 0;
}
