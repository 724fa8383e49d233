/* relay.c - see relay.h. */
#include "relay.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "comm_call.h"

struct relay {
    sink *s;
    comm_ctx *comms;          /* the sink thread's replay */
    match_ctx *match;
    uint32_t arrow_category;
    uint32_t inferred_category; /* valid once have_inferred */
    bool have_inferred;
    const slog_category *inferred;
};

_Static_assert(sizeof(relay_op) <= SINK_CALL_BYTES, "a relay_op must fit a sink call");

typedef struct comm_item {
    uint32_t rank;
    dumpi_call *call;         /* owned: freed once replayed */
} comm_item;

/* On the sink's thread, from inside a match_* or comm_record_* call. */
static slog_cb_result on_arrow(void *user, const match_arrow *a) {
    relay *r = user;
    if (sink_failed(r->s)) return SLOG_STOP;
    /* Messages whose receive recorded no status were chosen by MPI's
     * ordering rules (docs/MATCHING.md): a category of their own, so the
     * legend tells them apart and can hide them. */
    if (a->inferred && !r->have_inferred) {
        r->inferred_category = sink_emit_category(r->s, r->inferred);
        r->have_inferred = true;
    }
    int64_t info[3] = {a->bytes, a->tag, a->recv_comm};
    slog_drawable d = {
        .kind = SLOG_KIND_ARROW,
        .category = a->inferred ? r->inferred_category : r->arrow_category,
        .timeline = sink_timeline_of(r->s, a->send_rank, a->send_thread),
        .end_timeline = sink_timeline_of(r->s, a->recv_rank, a->recv_thread),
        .start = a->send_time,
        .end = a->recv_time,
        .n_info = 3,
        .info = info,
    };
    sink_emit(r->s, &d);
    return sink_failed(r->s) ? SLOG_STOP : SLOG_CONTINUE;
}

relay *relay_new(sink *s, uint32_t n_ranks, uint32_t arrows, const slog_category *inferred) {
    relay *r = g_new0(relay, 1);
    r->s = s;
    r->comms = comm_ctx_new(n_ranks);
    r->match = match_ctx_new(r->comms, on_arrow, r);
    r->arrow_category = arrows;
    r->inferred = inferred;
    sink_set_low_watermark(s, match_low_watermark_ref(r->match));
    return r;
}

static void run_op(void *user, void *payload) {
    relay *r = user;
    const relay_op *op = payload;
    const match_post *p = &op->post;
    const match_status *st = op->has_status ? &op->status : NULL;
    match_ctx *m = r->match;
    switch ((relay_kind)op->kind) {
    case RELAY_SEND: match_send(m, p); break;
    case RELAY_SEND_INIT: match_send_init(m, p); break;
    case RELAY_RECV: match_recv(m, p, st, op->done_time, p->thread); break;
    case RELAY_RECV_POST: match_recv_post(m, p); break;
    case RELAY_RECV_INIT: match_recv_init(m, p); break;
    case RELAY_START: match_start(m, p->rank, p->thread, p->request, op->done_time); break;
    case RELAY_CANCEL: match_cancel(m, p->rank, p->request); break;
    case RELAY_REQUEST_FREE: match_request_free(m, p->rank, p->request); break;
    case RELAY_COMPLETE: match_complete(m, p->rank, p->thread, p->request, st, op->done_time); break;
    }
}

relay_op *relay_slot(relay *r) {
    return sink_call(r->s, run_op, r);
}

static void run_comm(void *user, void *payload) {
    relay *r = user;
    comm_item *ci = payload;
    comm_replay_call(r->comms, ci->rank, ci->call);
    free(ci->call);
}

void relay_comm(relay *r, uint32_t rank, const dumpi_call *c) {
    dumpi_call *copy = dumpi_call_clone(c);
    if (!copy) g_error("out of memory copying a communicator call");
    comm_item *ci = sink_call(r->s, run_comm, r);
    ci->rank = rank;
    ci->call = copy;
}

static void run_finish(void *user, void *payload) {
    (void)payload;
    relay *r = user;
    if (!sink_failed(r->s)) match_finish(r->match);
}

void relay_finish(relay *r) {
    sink_call(r->s, run_finish, r);
}

const match_unmatched *relay_unmatched(const relay *r, size_t *n) {
    return match_unmatched_list(r->match, n);
}

void relay_stats(const relay *r, match_stats *out) {
    match_get_stats(r->match, out);
}

void relay_free(relay *r) {
    if (!r) return;
    match_ctx_free(r->match);
    comm_ctx_free(r->comms);
    g_free(r);
}
