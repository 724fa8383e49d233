/* SPDX-License-Identifier: MIT */
/* call_plan.c - see call_plan.h. */
#include "call_plan.h"

#include "send_reqs.h"

#include <stddef.h>
#include <string.h>

/* The DUMPI arguments each info field comes from (first one present
 * wins); sent/received/completed are derived. */
static const struct {
    const char *name;
    uint8_t type;
    const char *args[3];
} field_defs[N_FIELD_IDS] = {
    [F_BYTES] = {"bytes", SLOG_FIELD_BYTES, {"count", "sendcount", NULL}},
    /* collectives and Sendrecv: see volume.h (derived, no single argument) */
    [F_SENT] = {"sent", SLOG_FIELD_BYTES, {NULL, NULL, NULL}},
    [F_RECEIVED] = {"received", SLOG_FIELD_BYTES, {NULL, NULL, NULL}},
    [F_DEST] = {"dest", SLOG_FIELD_TIMELINE, {"dest", NULL, NULL}},
    [F_SOURCE] = {"source", SLOG_FIELD_TIMELINE, {"source", NULL, NULL}},
    [F_TAG] = {"tag", SLOG_FIELD_INT, {"tag", "sendtag", NULL}},
    [F_COMM] = {"comm", SLOG_FIELD_HANDLE, {"comm", "oldcomm", "localcomm"}},
    [F_ROOT] = {"root", SLOG_FIELD_TIMELINE, {"root", NULL, NULL}},
    [F_REQUEST] = {"request", SLOG_FIELD_HANDLE, {"request", NULL, NULL}},
    [F_COMPLETED] = {"completed", SLOG_FIELD_INT, {NULL, NULL, NULL}},
};

const uint8_t call_arrow_fields[N_ARROW_FIELDS] = {F_BYTES, F_TAG, F_COMM};

void call_field_columns(const uint8_t *fields, uint32_t n, const char **names, uint8_t *types)
{
    for (uint32_t i = 0; i < n; i++) {
        names[i] = field_defs[fields[i]].name;
        types[i] = field_defs[fields[i]].type;
    }
}

static const struct {
    const char *name;
    uint8_t role;
} roles[] = {
    {"MPI_Send", R_SEND},
    {"MPI_Bsend", R_SEND},
    {"MPI_Ssend", R_SEND},
    {"MPI_Rsend", R_SEND},
    {"MPI_Isend", R_ISEND},
    {"MPI_Ibsend", R_ISEND},
    {"MPI_Issend", R_ISEND},
    {"MPI_Irsend", R_ISEND},
    {"MPI_Send_init", R_SEND_INIT},
    {"MPI_Bsend_init", R_SEND_INIT},
    {"MPI_Ssend_init", R_SEND_INIT},
    {"MPI_Rsend_init", R_SEND_INIT},
    {"MPI_Recv", R_RECV},
    {"MPI_Irecv", R_IRECV},
    {"MPI_Recv_init", R_RECV_INIT},
    {"MPI_Sendrecv", R_SENDRECV},
    {"MPI_Sendrecv_replace", R_SENDRECV},
    {"MPI_Start", R_START},
    {"MPI_Startall", R_STARTALL},
    {"MPI_Cancel", R_CANCEL},
    {"MPI_Request_free", R_REQ_FREE},
};

static const char *const comm_ops[] = {
    "MPI_Comm_dup",         "MPI_Comm_split",        "MPI_Comm_create",    "MPI_Comm_free",
    "MPI_Comm_group",       "MPI_Comm_remote_group", "MPI_Group_incl",     "MPI_Group_excl",
    "MPI_Group_range_incl", "MPI_Group_range_excl",  "MPI_Group_union",    "MPI_Group_intersection",
    "MPI_Group_difference", "MPI_Group_free",        "MPI_Cart_create",    "MPI_Cart_sub",
    "MPI_Graph_create",     "MPI_Intercomm_create",  "MPI_Intercomm_merge"};

static const char *const polls[] = {"MPI_Test", "MPI_Testany", "MPI_Testsome", "MPI_Testall", "MPI_Iprobe"};

/* Fields copied from one argument as recorded; the others are computed
 * (call_state_info()). */
static bool field_is_plain(int f)
{
    return f == F_TAG || f == F_COMM || f == F_REQUEST;
}

/* Fields whose value depends on the communicator's members. */
static bool field_needs_comm(int f)
{
    return f == F_DEST || f == F_SOURCE || f == F_ROOT || f == F_SENT || f == F_RECEIVED;
}

role_id call_role(uint16_t label)
{
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    if (!fn) return R_NONE;
    for (size_t k = 0; k < sizeof roles / sizeof roles[0]; k++)
        if (!strcmp(fn->name, roles[k].name)) return roles[k].role;
    return fn->family == DUMPI_FAMILY_WAIT_TEST ? R_COMPLETE : R_NONE;
}

void call_plan_make(fn_plan *p, uint16_t label)
{
    /* usable_from is the caller's (the first member: the rest is cleared) */
    _Static_assert(offsetof(fn_plan, usable_from) == 0, "usable_from first");
    memset((char *)p + sizeof p->usable_from, 0, sizeof *p - sizeof p->usable_from);
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    int moves = volume_plan_for(label, &p->volume); /* sent/received replace bytes */
    fn_args_find(label, &p->a);
#define IDX(name) ((int8_t)dumpi_fn_arg_index(label, name))
    p->i_bytes_type = p->a.i_count >= 0 && p->a.i_datatype >= 0 ? p->a.i_datatype : p->a.i_sendtype;
    for (int f = 0; f < N_FIELD_IDS; f++) {
        int8_t a = -1;
        for (int k = 0; k < 3 && field_defs[f].args[k] && a < 0; k++) a = IDX(field_defs[f].args[k]);
        if (f == F_BYTES && (p->i_bytes_type < 0 || moves)) a = -1;
        int derived =
            (f == F_COMPLETED && fn->family == DUMPI_FAMILY_WAIT_TEST) || ((f == F_SENT || f == F_RECEIVED) && moves);
        if (a >= 0 || derived) {
            p->fields[p->n_fields] = (uint8_t)f;
            p->arg[p->n_fields] = a;
            if (field_is_plain(f)) {
                p->plain_arg[p->n_plain] = (uint8_t)a; /* a plain field is one argument: a >= 0 */
                p->plain_slot[p->n_plain++] = (uint8_t)p->n_fields;
            } else
                p->computed_slot[p->n_computed++] = (uint8_t)p->n_fields;
            if (field_needs_comm(f)) p->needs_comm = true;
            p->n_fields++;
        }
    }
    p->bytes_shared = p->a.i_count >= 0 && p->a.i_datatype >= 0;
#undef IDX
    p->role = (uint8_t)call_role(label);
    for (size_t k = 0; k < sizeof comm_ops / sizeof comm_ops[0]; k++)
        if (!strcmp(fn->name, comm_ops[k])) p->comm_op = true;
    p->is_poll = call_is_poll(label);
    p->poll_category = UINT32_MAX;
}

bool call_is_poll(uint16_t label)
{
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    for (size_t k = 0; k < sizeof polls / sizeof polls[0]; k++)
        if (!strcmp(fn->name, polls[k])) return true;
    return false;
}

void match_op_run(match_ctx *m, uint32_t rank, const match_op *op, int64_t done_time)
{
    match_post p = {.rank = rank,
                    .thread = op->thread,
                    .comm = op->comm,
                    .peer = op->peer,
                    .tag = op->tag,
                    .bytes = op->bytes,
                    .time = op->time,
                    .request = op->request};
    /* The status fields are set only with has_status. */
    match_status status;
    const match_status *st = NULL;
    if (op->has_status) {
        status = (match_status){op->st_source, op->st_tag, op->st_bytes, op->st_cancelled};
        st = &status;
    }
    switch ((match_op_kind)op->kind) {
    case OP_SEND: match_send(m, &p); break;
    case OP_SEND_INIT: match_send_init(m, &p); break;
    case OP_RECV: match_recv(m, &p, st, done_time, op->thread); break;
    case OP_RECV_POST: match_recv_post(m, &p); break;
    case OP_RECV_INIT: match_recv_init(m, &p); break;
    case OP_START: match_start(m, rank, op->thread, op->request, op->time); break;
    case OP_CANCEL: match_cancel(m, rank, op->request); break;
    case OP_REQUEST_FREE: match_request_free(m, rank, op->request); break;
    case OP_COMPLETE: match_complete(m, rank, op->thread, op->request, st, done_time); break;
    case OP_DEFERRED: break;
    }
}

int64_t call_bytes(const type_sizes *ts, const dumpi_call *c, int i_count, int i_type)
{
    if (i_count < 0 || i_type < 0 || !dumpi_arg_present(c, i_count) || !dumpi_arg_present(c, i_type))
        return SLOG_INFO_UNKNOWN;
    int64_t count = c->args[i_count].i;
    int32_t type = (int32_t)c->args[i_type].i;
    /* Only predefined datatypes have a size that means the payload;
     * derived types would need the type map replayed. */
    int32_t size = type_size(ts, type);
    if (size <= 0 || count < 0) return SLOG_INFO_UNKNOWN;
    return count * size;
}

/* Scalar argument i, or dflt when the function has none or the record
 * omits it. Reads the decoded value directly: this runs for every field of
 * every record. */
static inline int64_t arg_or(const dumpi_call *c, int i, int64_t dflt)
{
    return i >= 0 && dumpi_arg_present(c, i) ? c->args[i].i : dflt;
}

/* The next operation, its common fields filled. */
static inline match_op *new_op(op_slot_fn slot, void *user, uint8_t kind, const dumpi_call *c, int comm, int64_t time)
{
    match_op *op = slot(user);
    op->kind = kind;
    op->has_status = false;
    op->thread = c->thread;
    op->comm = comm;
    op->peer = 0;
    op->tag = 0;
    op->request = MATCH_NO_REQUEST;
    op->bytes = SLOG_INFO_UNKNOWN;
    op->time = time;
    return op;
}

static inline void set_status(match_op *op, const dumpi_status *ds)
{
    if (!ds) return;
    op->has_status = true;
    op->st_source = ds->source;
    op->st_tag = ds->tag;
    op->st_bytes = ds->bytes;
    op->st_cancelled = ds->cancelled != 0;
}

void call_ops(const fn_plan *p, const type_sizes *ts, const dumpi_call *c, const dumpi_completions *dc, int64_t t0,
              int64_t bytes, send_reqs *sends, op_slot_fn slot, void *user)
{
    /* programs poll with MPI_Testany in loops, nearly always completing
     * nothing */
    if (p->role == R_NONE || (p->role == R_COMPLETE && dc->n == 0)) return;
    int comm = (int)arg_or(c, p->a.i_comm, 2);
    match_op *op;
    switch ((role_id)p->role) {
    case R_SEND:
    case R_ISEND:
    case R_SEND_INIT:
        op = new_op(slot, user, p->role == R_SEND_INIT ? OP_SEND_INIT : OP_SEND, c, comm, t0);
        op->peer = (int)arg_or(c, p->a.i_dest, MATCH_PROC_NULL);
        op->tag = (int)arg_or(c, p->a.i_tag, 0);
        op->bytes = bytes;
        if (p->role != R_SEND) {
            op->request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
            if (sends) send_reqs_post(sends, p->role, op->request);
        }
        break;
    case R_RECV:
        op = new_op(slot, user, OP_RECV, c, comm, t0);
        op->peer = (int)arg_or(c, p->a.i_source, MATCH_ANY_SOURCE);
        op->tag = (int)arg_or(c, p->a.i_tag, MATCH_ANY_TAG);
        op->bytes = bytes;
        set_status(op, p->a.i_status >= 0 ? dumpi_call_status(c, p->a.i_status) : NULL);
        break;
    case R_IRECV:
    case R_RECV_INIT:
        op = new_op(slot, user, p->role == R_IRECV ? OP_RECV_POST : OP_RECV_INIT, c, comm, t0);
        op->peer = (int)arg_or(c, p->a.i_source, MATCH_ANY_SOURCE);
        op->tag = (int)arg_or(c, p->a.i_tag, MATCH_ANY_TAG);
        op->bytes = bytes;
        op->request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        if (sends) send_reqs_post(sends, p->role, op->request);
        break;
    case R_SENDRECV:
        op = new_op(slot, user, OP_SEND, c, comm, t0);
        op->peer = (int)arg_or(c, p->a.i_dest, MATCH_PROC_NULL);
        op->tag = (int)arg_or(c, p->a.i_sendtag, 0);
        op->bytes = p->a.i_sendcount >= 0 ? call_bytes(ts, c, p->a.i_sendcount, p->a.i_sendtype) : bytes;
        int64_t recv_bytes = op->bytes;
        op = new_op(slot, user, OP_RECV, c, comm, t0);
        op->peer = (int)arg_or(c, p->a.i_source, MATCH_ANY_SOURCE);
        op->tag = (int)arg_or(c, p->a.i_recvtag, MATCH_ANY_TAG);
        op->bytes = recv_bytes;
        set_status(op, p->a.i_status >= 0 ? dumpi_call_status(c, p->a.i_status) : NULL);
        break;
    case R_START:
        op = new_op(slot, user, OP_START, c, comm, t0);
        op->request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        if (sends) send_reqs_post(sends, p->role, op->request);
        break;
    case R_STARTALL: {
        int32_t nreq = 0;
        const int32_t *reqs = p->a.i_requests >= 0 ? dumpi_call_int_array(c, p->a.i_requests, &nreq) : NULL;
        for (int32_t i = 0; reqs && i < nreq; i++) {
            new_op(slot, user, OP_START, c, comm, t0)->request = reqs[i];
            if (sends) send_reqs_post(sends, p->role, reqs[i]);
        }
        break;
    }
    case R_CANCEL:
    case R_REQ_FREE:
        op = new_op(slot, user, p->role == R_CANCEL ? OP_CANCEL : OP_REQUEST_FREE, c, comm, t0);
        op->request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        if (sends) send_reqs_post(sends, p->role, op->request);
        break;
    case R_COMPLETE:
        for (int32_t i = 0; i < dc->n; i++) {
            int32_t req;
            const dumpi_status *ds = NULL;
            if (dumpi_completion_at(dc, i, &req, &ds) || req == DUMPI_REQUEST_NULL) continue;
            if (sends && send_reqs_done(sends, req, ds)) continue;
            op = new_op(slot, user, OP_COMPLETE, c, comm, t0);
            op->request = req;
            set_status(op, ds);
        }
        break;
    case R_NONE: break;
    }
}

/* The creation calls comm_call.c replays, all binding their "newcomm". */
static const char *const binders[] = {"MPI_Comm_dup",         "MPI_Comm_split",     "MPI_Comm_create",
                                      "MPI_Cart_create",      "MPI_Cart_sub",       "MPI_Graph_create",
                                      "MPI_Intercomm_create", "MPI_Intercomm_merge"};

void call_comm_binding(uint16_t label, comm_binding *out)
{
    out->i_newcomm = out->i_freed = -1;
    out->replayed = false;
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    if (!fn || fn->family != DUMPI_FAMILY_OBJECT) return; /* as comm_replay_call() */
    for (size_t k = 0; k < sizeof comm_ops / sizeof comm_ops[0]; k++)
        if (!strcmp(fn->name, comm_ops[k])) out->replayed = true;
    for (size_t k = 0; k < sizeof binders / sizeof binders[0]; k++)
        if (!strcmp(fn->name, binders[k])) out->i_newcomm = (int8_t)dumpi_fn_arg_index(label, "newcomm");
    if (!strcmp(fn->name, "MPI_Comm_free")) out->i_freed = (int8_t)dumpi_fn_arg_index(label, "comm");
}

bool call_poll_failed(const dumpi_call *c, const fn_plan *p)
{
    if (p->a.i_flag >= 0) return arg_or(c, p->a.i_flag, 1) == 0; /* no flag recorded: a state */
    if (p->a.i_outcount >= 0) {
        int64_t oc = arg_or(c, p->a.i_outcount, 1);
        return oc == 0 || oc == DUMPI_UNDEFINED;
    }
    return false;
}

void call_state_info(const fn_plan *p, const type_sizes *ts, const comm_view *cv, const dumpi_call *c,
                     const dumpi_completions *dc, int64_t bytes, int64_t *info)
{
    /* Through locals: info's stores could alias the plan's bytes, and the
     * plan's fields were read again after each one. */
    const uint32_t n_plain = p->n_plain, n_computed = p->n_computed;
    const uint8_t *plain_arg = p->plain_arg, *plain_slot = p->plain_slot;
    const dumpi_value *args = c->args;
    const uint32_t present = c->present;
    for (uint32_t i = 0; i < n_plain; i++) {
        uint32_t a = plain_arg[i];
        info[plain_slot[i]] = (present >> a) & 1 ? args[a].i : SLOG_INFO_UNKNOWN;
    }
    if (!n_computed) return;
    int64_t sent = SLOG_INFO_UNKNOWN, received = SLOG_INFO_UNKNOWN;
    if (p->volume.sent) volume_of(&p->volume, &p->a, ts, cv, c, &sent, &received);
    for (uint32_t i = 0; i < n_computed; i++) {
        uint32_t k = p->computed_slot[i];
        int64_t v = SLOG_INFO_UNKNOWN;
        switch (p->fields[k]) {
        case F_BYTES:
            v = p->bytes_shared
                    ? bytes
                    : call_bytes(ts, c, p->a.i_count >= 0 ? p->a.i_count : p->a.i_sendcount, p->i_bytes_type);
            break;
        case F_SENT: v = sent; break;
        case F_RECEIVED: v = received; break;
        case F_DEST:
        case F_SOURCE:
        case F_ROOT: {
            int64_t local = arg_or(c, p->arg[k], SLOG_INFO_UNKNOWN);
            if (local == SLOG_INFO_UNKNOWN || local < 0) {
                v = local; /* ANY_SOURCE -1, PROC_NULL -2 kept as recorded */
            } else {
                int wr = comm_view_world_rank(cv, (int)local);
                v = wr >= 0 ? wr : SLOG_INFO_UNKNOWN;
            }
            break;
        }
        case F_COMPLETED: v = dumpi_completions_live(dc); break;
        }
        info[k] = v;
    }
}
