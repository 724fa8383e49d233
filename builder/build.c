/* build.c - the slog2-build pipeline (see build.h).
 *
 * Each rank's .bin is decoded in file order (records are written at call
 * exit, so file order is exit order) and the ranks are merged by exit time
 * (merge.c). Every record becomes a state (or, for a poll that found
 * nothing, an event) on its (rank, thread) timeline and is fed to the
 * communicator replay (comm.c) and, through the relay (relay.c) on the
 * sink's thread, to message matching (match.c), which produces arrows. All
 * drawables pass through the reorder buffer (reorder.c) so the writer
 * receives them in end order; memory is bounded by ranks, messages in
 * flight and open states, not by trace length.
 */
#include "build.h"

#include <glib.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "comm.h"
#include "comm_call.h"
#include "match.h"
#include "merge.h"
#include "palette.h"
#include "sink.h"
#include "slog.h"
#include "fn_args.h"
#include "relay.h"
#include "signals.h"
#include "volume.h"

#define N_LABELS DUMPI_N_LABELS
#define PROGRESS_EVERY 65536

/* Info fields a function's state may carry, and the DUMPI arguments they
 * come from (first one present wins). */
typedef enum field_id {
    F_BYTES, F_SENT, F_RECEIVED, F_DEST, F_SOURCE, F_TAG, F_COMM, F_ROOT, F_REQUEST, F_COMPLETED, N_FIELD_IDS
} field_id;

/* What an arrow carries: the message's bytes, tag and (receiver's)
 * communicator. */
static const uint8_t arrow_fields[] = {F_BYTES, F_TAG, F_COMM};

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

typedef struct fn_plan {
    int ready;
    uint32_t category;           /* state category */
    uint32_t poll_category;      /* event category (polls), UINT32_MAX if none */
    uint32_t n_fields;
    uint8_t fields[N_FIELD_IDS]; /* field_id per slot */
    int8_t arg[N_FIELD_IDS];     /* arg index per slot, -1 if derived */
    /* The slots split by how they are filled, so the per-record path runs
     * no switch for the common kind: a plain copy of one argument (tag,
     * comm, request) or a computed value (bytes, ranks, volumes, counts). */
    uint8_t n_plain, n_computed;
    uint8_t plain_slot[N_FIELD_IDS], computed_slot[N_FIELD_IDS];
    bool bytes_shared;           /* count and datatype: one bytes value serves
                                  * the bytes field and matching */
    /* argument indexes used by the semantics */
    fn_args a;                   /* where its arguments are */
    int8_t i_bytes_type;         /* datatype of the bytes field */
    uint8_t role;                /* what the call means to matching: role_id */
    volume_plan volume;          /* for F_SENT / F_RECEIVED */
    uint8_t comm_op;             /* creates/frees communicators or groups */
} fn_plan;

/* Decided once per function from its name, so the per-record path compares
 * no strings. */
typedef enum role_id {
    R_NONE, R_SEND, R_ISEND, R_SEND_INIT, R_RECV, R_IRECV, R_RECV_INIT, R_SENDRECV, R_START, R_STARTALL,
    R_CANCEL, R_REQ_FREE, R_COMPLETE
} role_id;

static const struct {
    const char *name;
    uint8_t role;
} roles[] = {
    {"MPI_Send", R_SEND}, {"MPI_Bsend", R_SEND}, {"MPI_Ssend", R_SEND}, {"MPI_Rsend", R_SEND},
    {"MPI_Isend", R_ISEND}, {"MPI_Ibsend", R_ISEND}, {"MPI_Issend", R_ISEND}, {"MPI_Irsend", R_ISEND},
    {"MPI_Send_init", R_SEND_INIT}, {"MPI_Bsend_init", R_SEND_INIT}, {"MPI_Ssend_init", R_SEND_INIT},
    {"MPI_Rsend_init", R_SEND_INIT}, {"MPI_Recv", R_RECV}, {"MPI_Irecv", R_IRECV}, {"MPI_Recv_init", R_RECV_INIT},
    {"MPI_Sendrecv", R_SENDRECV}, {"MPI_Sendrecv_replace", R_SENDRECV}, {"MPI_Start", R_START},
    {"MPI_Startall", R_STARTALL}, {"MPI_Cancel", R_CANCEL}, {"MPI_Request_free", R_REQ_FREE},
};

static const char *const comm_ops[] = {
    "MPI_Comm_dup", "MPI_Comm_split", "MPI_Comm_create", "MPI_Comm_free", "MPI_Comm_group", "MPI_Group_incl",
    "MPI_Group_excl", "MPI_Group_range_incl", "MPI_Group_range_excl", "MPI_Group_union", "MPI_Group_intersection",
    "MPI_Group_difference", "MPI_Group_free", "MPI_Cart_create", "MPI_Cart_sub", "MPI_Graph_create",
    "MPI_Intercomm_create", "MPI_Intercomm_merge"};

typedef struct rank_in {
    dumpi_file *f;
    dumpi_call head;
    int has_head;
    int done;
    uint32_t rank;
    uint64_t counts[N_LABELS];
    uint64_t pos;                /* bytes consumed */
    GArray *user_stack;          /* per thread: see user_frames */
} rank_in;

typedef struct user_frame {
    uint16_t thread;
    uint64_t fn;
    int64_t start;
} user_frame;

typedef struct scratch {
    slog_drawable d;
    int64_t info[SLOG_MAX_FIELDS];
} scratch;

typedef struct builder {
    const build_options *o;
    build_summary *s;
    FILE *err;
    slog_writer *w;
    sink *sink;                  /* the writer's thread, while merging */
    rank_in *ranks;
    uint32_t n_ranks;
    merge *merge;                /* the ranks' next records, by exit time */
    int64_t origin;
    comm_ctx *comms;             /* this thread's replay, for the info fields */
    relay *relay;                /* matching, on the sink's thread */
    fn_plan plans[N_LABELS];
    GHashTable *timelines;       /* (rank << 16 | thread) -> id + 1, threads > 0 only */
    GHashTable *user_cats;       /* name -> category id + 1 */
    uint32_t arrow_category;
    /* made by the relay when the first inferred message appears */
    const char *arrow_names[sizeof arrow_fields];
    uint8_t arrow_types[sizeof arrow_fields];
    slog_category inferred;
    int failed;                  /* writer error: stop */
    scratch scratch;             /* where drawables go once it failed */
    slog_error werr;
    double t_start;
    double last_progress;
    clock_plan clocks;           /* the hosts and their clock offsets */
} builder;

static double clock_s(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double now_s(void) { return clock_s(CLOCK_MONOTONIC); }

static void warn(builder *b, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void warn(builder *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (b->o->progress) fputs("\r\033[K", b->err);
    fputs("slog2-build: warning: ", b->err);
    vfprintf(b->err, fmt, ap);
    fputc('\n', b->err);
    va_end(ap);
    b->s->n_warnings++;
}

/* ------------------------------------------------------------ categories */

/* The names and types of the info fields fields[0..n) (field_defs). */
static void field_columns(const uint8_t *fields, uint32_t n, const char **names, uint8_t *types) {
    for (uint32_t i = 0; i < n; i++) {
        names[i] = field_defs[fields[i]].name;
        types[i] = field_defs[fields[i]].type;
    }
}

static uint32_t add_category(builder *b, slog_kind kind, const char *name, const char *group, uint32_t rgba,
                             uint32_t n_fields, const uint8_t *fields) {
    const char *names[N_FIELD_IDS];
    uint8_t types[N_FIELD_IDS];
    field_columns(fields, n_fields, names, types);
    slog_category c = {kind, name, group, rgba, n_fields, names, types};
    uint32_t id = 0;
    if (b->sink) return sink_add_category(b->sink, &c);
    if (slog_writer_add_category(b->w, &c, &id) != SLOG_OK) {
        b->werr = *slog_writer_error(b->w);
        b->failed = 1;
    }
    return id;
}

static int is_poll(uint16_t label) {
    const char *n = dumpi_fn_lookup(label)->name;
    return !strcmp(n, "MPI_Test") || !strcmp(n, "MPI_Testany") || !strcmp(n, "MPI_Testsome") ||
           !strcmp(n, "MPI_Testall") || !strcmp(n, "MPI_Iprobe");
}

/* Fields copied from one argument as recorded; the others are computed
 * (process()). */
static bool field_is_plain(int f) { return f == F_TAG || f == F_COMM || f == F_REQUEST; }

/* Made the first time a function is met (its categories appear in the
 * legend only if it is called); plan_for() below is the per-call path. */
static fn_plan *plan_make(builder *b, uint16_t label) {
    fn_plan *p = &b->plans[label];
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    int moves = volume_plan_for(label, &p->volume); /* sent/received replace bytes */
    fn_args_find(label, &p->a);
#define IDX(name) ((int8_t)dumpi_fn_arg_index(label, name))
    p->i_bytes_type = p->a.i_count >= 0 && p->a.i_datatype >= 0 ? p->a.i_datatype : p->a.i_sendtype;
    for (int f = 0; f < N_FIELD_IDS; f++) {
        int8_t a = -1;
        for (int k = 0; k < 3 && field_defs[f].args[k] && a < 0; k++) a = IDX(field_defs[f].args[k]);
        if (f == F_BYTES && (p->i_bytes_type < 0 || moves)) a = -1;
        int derived = (f == F_COMPLETED && fn->family == DUMPI_FAMILY_WAIT_TEST) ||
                      ((f == F_SENT || f == F_RECEIVED) && moves);
        if (a >= 0 || derived) {
            p->fields[p->n_fields] = (uint8_t)f;
            p->arg[p->n_fields] = a;
            if (field_is_plain(f))
                p->plain_slot[p->n_plain++] = (uint8_t)p->n_fields;
            else
                p->computed_slot[p->n_computed++] = (uint8_t)p->n_fields;
            p->n_fields++;
        }
    }
    p->bytes_shared = p->a.i_count >= 0 && p->a.i_datatype >= 0;
#undef IDX
    p->role = fn->family == DUMPI_FAMILY_WAIT_TEST ? R_COMPLETE : R_NONE;
    for (size_t k = 0; k < sizeof roles / sizeof roles[0]; k++)
        if (!strcmp(fn->name, roles[k].name)) p->role = roles[k].role;
    for (size_t k = 0; k < sizeof comm_ops / sizeof comm_ops[0]; k++)
        if (!strcmp(fn->name, comm_ops[k])) p->comm_op = 1;
    p->category = add_category(b, SLOG_KIND_STATE, fn->name, dumpi_family_name(fn->family),
                               palette_colour(fn->family, fn->name), p->n_fields, p->fields);
    p->poll_category = UINT32_MAX;
    if (is_poll(label) && !b->o->poll_states) {
        char name[96];
        snprintf(name, sizeof name, "%s (nothing)", fn->name);
        p->poll_category = add_category(b, SLOG_KIND_EVENT, name, "poll", palette_event_colour(name), 0, NULL);
    }
    p->ready = 1;
    return p;
}

static inline fn_plan *plan_for(builder *b, uint16_t label) {
    fn_plan *p = &b->plans[label];
    return p->ready ? p : plan_make(b, label);
}

/* ------------------------------------------------------------- timelines */

static uint32_t timeline_for(builder *b, uint32_t rank, uint32_t thread) {
    if (thread == 0) return rank; /* thread 0 timelines were made up front */
    gpointer key = GSIZE_TO_POINTER(((gsize)rank << 16) | thread);
    gpointer v = g_hash_table_lookup(b->timelines, key);
    if (v) return (uint32_t)GPOINTER_TO_SIZE(v) - 1;
    char label[64];
    snprintf(label, sizeof label, "rank %u / thread %u", rank, thread);
    slog_timeline t = {rank, thread, label, b->ranks[rank].f ? dumpi_file_hostname(b->ranks[rank].f) : ""};
    uint32_t id = 0;
    if (b->sink) {
        id = sink_add_timeline(b->sink, &t);
    } else if (slog_writer_add_timeline(b->w, &t, &id) != SLOG_OK) {
        b->werr = *slog_writer_error(b->w);
        b->failed = 1;
    }
    g_hash_table_insert(b->timelines, key, GSIZE_TO_POINTER((gsize)id + 1));
    b->s->n_timelines++;
    return id;
}

/* ------------------------------------------------------- reorder/writer */

/* The sink's next slot, filled in place: the sink reorders by end time and
 * writes on its own thread. After a writer error the drawable goes to a
 * scratch slot and is dropped. */
static slog_drawable *slot(builder *b) {
    if (!b->failed) return sink_next(b->sink);
    b->scratch.d.info = b->scratch.info;
    return &b->scratch.d;
}

/* ---------------------------------------------------------- semantics */

static int64_t bytes_of(const rank_in *r, const dumpi_call *c, int i_count, int i_type) {
    if (i_count < 0 || i_type < 0 || !c->args[i_count].present || !c->args[i_type].present) return SLOG_INFO_UNKNOWN;
    int64_t count = c->args[i_count].i;
    int32_t type = (int32_t)c->args[i_type].i;
    /* Only predefined datatypes (ids below 28) have a size that means the
     * payload; derived types would need the type map replayed. */
    int32_t size = type >= 0 && type < 28 ? dumpi_file_datatype_size(r->f, type) : -1;
    if (size <= 0 || count < 0) return SLOG_INFO_UNKNOWN;
    return count * size;
}

/* Scalar argument i, or dflt when the function has none or the record
 * omits it. Reads the decoded value directly: this runs for every field of
 * every record. */
static inline int64_t arg_or(const dumpi_call *c, int i, int64_t dflt) {
    return i >= 0 && c->args[i].present ? c->args[i].i : dflt;
}

/* The next matching operation, filled in place in the sink's queue
 * (relay_slot): post is copied whole, the status only when there is one. */
static inline relay_op *queue_op(builder *b, uint8_t kind, const match_post *post, int64_t done_time) {
    relay_op *op = relay_slot(b->relay);
    op->kind = kind;
    op->has_status = false;
    /* Field by field: post was just written on the stack with stores of
     * its fields' sizes, and the whole-struct copy reloaded it with 16-byte
     * loads spanning several of them, which the store buffer cannot
     * forward: each op waited for those stores to reach the cache. */
    op->post.rank = post->rank;
    op->post.thread = post->thread;
    op->post.comm = post->comm;
    op->post.peer = post->peer;
    op->post.tag = post->tag;
    op->post.bytes = post->bytes;
    op->post.time = post->time;
    op->post.request = post->request;
    op->done_time = done_time;
    return op;
}

static inline void set_status(relay_op *op, const dumpi_status *ds) {
    if (!ds) return;
    op->has_status = true;
    op->status = (match_status){ds->source, ds->tag, ds->bytes, ds->cancelled};
}

/* Queue what the call means to matching (relay.h): run on the sink's
 * thread. bytes: count x datatype size of the call (bytes_shared). */
static void do_matching(builder *b, rank_in *r, const dumpi_call *c, const fn_plan *p, const dumpi_completions *dc,
                        int64_t t0, int64_t t1, int64_t bytes) {
    /* hpcc polls with Testany hundreds of thousands of times, nearly always
     * completing nothing */
    if (p->role == R_NONE || (p->role == R_COMPLETE && dc->n == 0)) return;
    match_post post = {.rank = r->rank, .thread = c->thread, .time = t0, .request = MATCH_NO_REQUEST,
                       .comm = (int)arg_or(c, p->a.i_comm, 2)};
    switch ((role_id)p->role) {
    case R_SEND:
    case R_ISEND:
    case R_SEND_INIT:
        post.peer = (int)arg_or(c, p->a.i_dest, MATCH_PROC_NULL);
        post.tag = (int)arg_or(c, p->a.i_tag, 0);
        post.bytes = bytes;
        if (p->role != R_SEND) post.request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        queue_op(b, p->role == R_SEND_INIT ? RELAY_SEND_INIT : RELAY_SEND, &post, 0);
        break;
    case R_RECV:
    case R_IRECV:
    case R_RECV_INIT:
        post.peer = (int)arg_or(c, p->a.i_source, MATCH_ANY_SOURCE);
        post.tag = (int)arg_or(c, p->a.i_tag, MATCH_ANY_TAG);
        post.bytes = bytes;
        if (p->role == R_RECV) {
            relay_op *op = queue_op(b, RELAY_RECV, &post, t1);
            set_status(op, p->a.i_status >= 0 ? dumpi_call_status(c, p->a.i_status) : NULL);
        } else {
            post.request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
            queue_op(b, p->role == R_IRECV ? RELAY_RECV_POST : RELAY_RECV_INIT, &post, 0);
        }
        break;
    case R_SENDRECV: {
        post.peer = (int)arg_or(c, p->a.i_dest, MATCH_PROC_NULL);
        post.tag = (int)arg_or(c, p->a.i_sendtag, 0);
        post.bytes = p->a.i_sendcount >= 0 ? bytes_of(r, c, p->a.i_sendcount, p->a.i_sendtype) : bytes;
        queue_op(b, RELAY_SEND, &post, 0);
        post.peer = (int)arg_or(c, p->a.i_source, MATCH_ANY_SOURCE);
        post.tag = (int)arg_or(c, p->a.i_recvtag, MATCH_ANY_TAG);
        relay_op *op = queue_op(b, RELAY_RECV, &post, t1);
        set_status(op, p->a.i_status >= 0 ? dumpi_call_status(c, p->a.i_status) : NULL);
        break;
    }
    case R_START:
        post.request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        queue_op(b, RELAY_START, &post, t0);
        break;
    case R_STARTALL: {
        int32_t nreq = 0;
        const int32_t *reqs = p->a.i_requests >= 0 ? dumpi_call_int_array(c, p->a.i_requests, &nreq) : NULL;
        for (int32_t i = 0; reqs && i < nreq; i++) {
            post.request = reqs[i];
            queue_op(b, RELAY_START, &post, t0);
        }
        break;
    }
    case R_CANCEL:
    case R_REQ_FREE:
        post.request = (int)arg_or(c, p->a.i_request, MATCH_NO_REQUEST);
        queue_op(b, p->role == R_CANCEL ? RELAY_CANCEL : RELAY_REQUEST_FREE, &post, 0);
        break;
    case R_COMPLETE:
        for (int32_t i = 0; i < dc->n; i++) {
            int32_t req;
            const dumpi_status *ds = NULL;
            if (dumpi_completion_at(dc, i, &req, &ds) || req == DUMPI_REQUEST_NULL) continue;
            post.request = req;
            set_status(queue_op(b, RELAY_COMPLETE, &post, t1), ds);
        }
        break;
    case R_NONE: break;
    }
}

/* A poll "found nothing": Test/Testany/Testall/Iprobe flag 0, Testsome
 * outcount 0 or MPI_UNDEFINED. */
static int poll_failed(const dumpi_call *c, const fn_plan *p) {
    if (p->a.i_flag >= 0) return arg_or(c, p->a.i_flag, 1) == 0; /* no flag recorded: a state */
    if (p->a.i_outcount >= 0) {
        int64_t oc = arg_or(c, p->a.i_outcount, 1);
        return oc == 0 || oc == DUMPI_UNDEFINED;
    }
    return 0;
}

static void user_function(builder *b, rank_in *r, const dumpi_call *c, int64_t t0, int64_t t1) {
    uint64_t fn = (uint64_t)dumpi_call_int(c, 0);
    if (c->label == DUMPI_LABEL_FUNCTION_ENTER) {
        user_frame fr = {c->thread, fn, t0};
        g_array_append_val(r->user_stack, fr);
        return;
    }
    /* Exit: pop the innermost open frame of this thread and function. */
    for (guint i = r->user_stack->len; i-- > 0;) {
        user_frame *fr = &g_array_index(r->user_stack, user_frame, i);
        if (fr->thread != c->thread || fr->fn != fn) continue;
        const char *name = dumpi_file_function_name(r->f, fn);
        char buf[64];
        if (!name) {
            snprintf(buf, sizeof buf, "fn 0x%" PRIx64, fn);
            name = buf;
        }
        gpointer v = g_hash_table_lookup(b->user_cats, name);
        uint32_t cat;
        if (v) {
            cat = (uint32_t)GPOINTER_TO_SIZE(v) - 1;
        } else {
            cat = add_category(b, SLOG_KIND_STATE, name, "user function", palette_colour(DUMPI_FAMILY_USER, name), 0,
                               NULL);
            g_hash_table_insert(b->user_cats, g_strdup(name), GSIZE_TO_POINTER((gsize)cat + 1));
        }
        uint32_t tl = timeline_for(b, r->rank, c->thread);
        slog_drawable *d = slot(b);
        d->kind = SLOG_KIND_STATE;
        d->category = cat;
        d->timeline = d->end_timeline = tl;
        d->start = fr->start;
        d->end = t1 > fr->start ? t1 : fr->start;
        d->n_info = 0;
        b->s->n_states++;
        g_array_remove_index(r->user_stack, i);
        return;
    }
}

static void process(builder *b, rank_in *r, const dumpi_call *c) {
    int64_t t0 = c->wall_start - b->origin, t1 = c->wall_stop - b->origin;
    if (t0 < 0) t0 = 0;
    if (t1 < t0) t1 = t0;
    if (c->label < N_LABELS) r->counts[c->label]++;
    if (c->fn->family == DUMPI_FAMILY_USER) { /* not an MPI call */
        user_function(b, r, c, t0, t1);
        return;
    }
    b->s->n_calls++;
    fn_plan *p = plan_for(b, c->label);
    /* Before matching: the relay's arrows name this timeline (relay.h). */
    uint32_t tl = timeline_for(b, r->rank, c->thread);
    if (p->comm_op) {
        comm_replay_call(b->comms, r->rank, c);
        relay_comm(b->relay, r->rank, c);
    }
    dumpi_completions dc; /* resolved once: matching and the info field both walk it */
    if (c->fn->family == DUMPI_FAMILY_WAIT_TEST)
        dumpi_call_completions(c, &dc);
    else
        dc.n = 0;
    int64_t bytes = p->bytes_shared ? bytes_of(r, c, p->a.i_count, p->a.i_datatype) : SLOG_INFO_UNKNOWN;
    do_matching(b, r, c, p, &dc, t0, t1, bytes);

    slog_drawable *d = slot(b);
    d->timeline = d->end_timeline = tl;
    if (p->poll_category != UINT32_MAX && poll_failed(c, p)) {
        d->kind = SLOG_KIND_EVENT;
        d->category = p->poll_category;
        d->start = d->end = t1;
        d->n_info = 0;
        b->s->n_events++;
        return;
    }
    d->kind = SLOG_KIND_STATE;
    d->category = p->category;
    d->start = t0;
    d->end = t1;
    d->n_info = p->n_fields;
    int64_t *info = (int64_t *)d->info;
    for (uint32_t i = 0; i < p->n_plain; i++) {
        uint32_t k = p->plain_slot[i];
        info[k] = arg_or(c, p->arg[k], SLOG_INFO_UNKNOWN);
    }
    if (!p->n_computed) {
        b->s->n_states++;
        return;
    }
    int comm = (int)arg_or(c, p->a.i_comm, 2);
    int64_t sent = SLOG_INFO_UNKNOWN, received = SLOG_INFO_UNKNOWN;
    if (p->volume.sent) volume_of(&p->volume, &p->a, r->f, b->comms, r->rank, c, &sent, &received);
    for (uint32_t i = 0; i < p->n_computed; i++) {
        uint32_t k = p->computed_slot[i];
        int64_t v = SLOG_INFO_UNKNOWN;
        switch (p->fields[k]) {
        case F_BYTES:
            v = p->bytes_shared ? bytes
                                : bytes_of(r, c, p->a.i_count >= 0 ? p->a.i_count : p->a.i_sendcount, p->i_bytes_type);
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
                int wr = comm_world_rank(b->comms, r->rank, comm, (int)local);
                v = wr >= 0 ? wr : SLOG_INFO_UNKNOWN;
            }
            break;
        }
        case F_COMPLETED: {
            int32_t n = 0;
            for (int32_t j = 0; j < dc.n; j++) {
                int32_t req;
                if (!dumpi_completion_at(&dc, j, &req, NULL) && req != DUMPI_REQUEST_NULL) n++;
            }
            v = n;
            break;
        }
        }
        info[k] = v;
    }
    b->s->n_states++;
}

/* ------------------------------------------------------------ the merge */

/* Read the next record of r into r->head. Returns 1 (record), 0 (end), or
 * -1 after reporting an error that ends this rank. */
static int advance_rank(builder *b, rank_in *r, int *fatal) {
    dumpi_error e;
    int rc = dumpi_file_next(r->f, &r->head, &e);
    if (rc == 1) {
        r->pos = r->head.offset + r->head.size;
        return 1;
    }
    r->done = 1;
    if (rc == 0) return 0;
    if (rc == DUMPI_ERR_TRUNCATED) {
        warn(b, "rank %u: %s; keeping every complete record before the cut", r->rank, e.message);
        return -1;
    }
    if (rc == DUMPI_ERR_UNKNOWN_LABEL && b->o->lenient) {
        warn(b, "rank %u: %s; --lenient: keeping what was decoded before it", r->rank, e.message);
        return -1;
    }
    fprintf(b->err, "slog2-build: error: %s\n", e.message);
    *fatal = 1;
    return -1;
}

/* Columns of the terminal f is on; without one (--progress into a file or
 * pipe) $COLUMNS, else 80. */
static int terminal_columns(FILE *f) {
    struct winsize ws;
    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *env = getenv("COLUMNS");
    int n = env ? atoi(env) : 0;
    return n > 0 && n < 10000 ? n : 80;
}

static void progress(builder *b, int final) {
    if (!b->o->progress) return;
    double t = now_s();
    if (!final && t - b->last_progress < 0.2) return;
    b->last_progress = t;
    uint64_t done = 0;
    for (uint32_t i = 0; i < b->n_ranks; i++) {
        const rank_in *r = &b->ranks[i];
        if (r->f) done += r->done ? dumpi_file_size(r->f) : r->pos; /* no file: a missing rank */
    }
    double el = t - b->t_start, frac = b->s->input_bytes ? (double)done / b->s->input_bytes : 1;
    if (frac > 1) frac = 1;
    double eta = frac > 0.001 ? el / frac - el : 0;
    char text[128];
    int len = snprintf(text, sizeof text, "%5.1f%%  %.1f/%.1f MB  %.2f M calls/s  ETA %.0fs", frac * 100, done / 1e6,
                       b->s->input_bytes / 1e6, el > 0 ? b->s->n_calls / el / 1e6 : 0.0, eta);
    /* One line that fits the terminal: a wrapped line is not erased by
     * the next update's \r and the bar would scroll. The bar shrinks
     * first, then goes; the text is cut last. */
    int cols = terminal_columns(b->err);
    int width = cols - 1 - len - 3;
    if (width > 30) width = 30;
    char bar[34] = "";
    if (width >= 5) {
        int fill = (int)(frac * width);
        bar[0] = '[';
        for (int i = 0; i < width; i++) bar[1 + i] = i < fill ? '#' : '.';
        bar[1 + width] = ']';
        bar[2 + width] = ' ';
        bar[3 + width] = 0;
    }
    int room = cols - 1 - (int)strlen(bar);
    fprintf(b->err, "\r\033[K%s%.*s", bar, room > 0 ? room : 0, text);
    if (final) fputc('\n', b->err);
    fflush(b->err);
}

/* Every rank's file is read through a window of its own, so their sum
 * is the builder's largest allocation: a thousand ranks at the decoder's
 * default 256 KiB would take 256 MiB. Windows shrink to keep the sum near
 * READ_BUDGET (a record that does not fit is still read whole, through a
 * wider window for that record only). */
#define READ_BUDGET (4u << 20)
#define READ_WINDOW_MAX (256u << 10)
#define READ_WINDOW_MIN (16u << 10)

static size_t read_window(uint32_t n_ranks) {
    size_t w = n_ranks ? READ_BUDGET / n_ranks : READ_WINDOW_MAX;
    return w > READ_WINDOW_MAX ? READ_WINDOW_MAX : w < READ_WINDOW_MIN ? READ_WINDOW_MIN : w;
}

static void check_footer(builder *b, rank_in *r) {
    const uint32_t *calls, *ignored;
    int n = dumpi_file_footer_counts(r->f, &calls, &ignored);
    if (n <= 0) return;
    int bad = 0;
    for (int l = 0; l < n && l < DUMPI_LABEL_ALL_FUNCTIONS; l++) {
        if ((uint64_t)calls[l] != r->counts[l] && bad++ < 3)
            warn(b, "%s: footer counts %u calls of %s, %" PRIu64 " were decoded", dumpi_file_path(r->f), calls[l],
                 dumpi_fn_lookup((uint16_t)l)->name, r->counts[l]);
    }
}

/* With several hosts, what was done to their clocks (a file from one
 * host has none of this: the times are the host's). */
static void annotate_clocks(builder *b) {
    const clock_plan *p = &b->clocks;
    if (p->n_named < 2 && !p->aligned) return;
    if (!p->aligned) {
        char *v = g_strconcat("none: ", p->why_not, NULL);
        slog_writer_add_annotation(b->w, "time.clock_align", v);
        g_free(v);
        return;
    }
    slog_writer_add_annotation(b->w, "time.clock_align",
                               "shifted by MPI_Init and the synchronising collectives on COMM_WORLD");
    GString *v = g_string_new(NULL);
    for (size_t i = 0; i < p->n_hosts; i++) {
        const clock_host *h = &p->hosts[i];
        if (h->name[0])
            g_string_append_printf(v, "%s%s=", i ? "; " : "", h->name);
        else /* a rank without a header, a host of its own */
            g_string_append_printf(v, "%srank %u=", i ? "; " : "", h->first_rank);
        if (h->method == CLOCK_BY_NONE) {
            g_string_append(v, "unknown");
            continue;
        }
        g_string_append_printf(v, "%+" PRId64, h->offset_ns);
        if (h->method == CLOCK_BY_REFERENCE)
            g_string_append(v, " (reference)");
        else if (h->method == CLOCK_BY_INIT_CONFLICT)
            g_string_append(v, " (MPI_Init; the collectives disagree)");
        else
            g_string_append_printf(v, " (%s, within %" PRId64 " ns)",
                                   h->method == CLOCK_BY_COLLECTIVES ? "collectives" : "MPI_Init", h->error_ns);
    }
    slog_writer_add_annotation(b->w, "time.clock_offsets_ns", v->str);
    g_string_free(v, TRUE);
}

G_GNUC_NO_INLINE static void annotate(builder *b, const dumpi_meta *meta) {
    char buf[64];
    slog_writer_add_annotation(b->w, "builder", "slog2-build " SLOG2_VERSION);
    if (b->o->command_line) slog_writer_add_annotation(b->w, "builder.command", b->o->command_line);
    if (dumpi_meta_path(meta)) slog_writer_add_annotation(b->w, "source.meta", dumpi_meta_path(meta));
    for (size_t i = 0; i < dumpi_meta_n_keys(meta); i++) {
        const char *k, *v;
        if (dumpi_meta_key_at(meta, i, &k, &v)) continue;
        char key[128];
        snprintf(key, sizeof key, "meta.%s", k);
        slog_writer_add_annotation(b->w, key, v);
    }
    snprintf(buf, sizeof buf, "%" PRId64, b->origin);
    slog_writer_add_annotation(b->w, "time.origin.clock_ns", buf);
    slog_writer_add_annotation(b->w, "time.clock", "DUMPI wall time (CLOCK_MONOTONIC in libdumpi 0.6+)");
    annotate_clocks(b);
}

/* Cold helpers of build_run are kept out of line (G_GNUC_NO_INLINE):
 * build_run holds the merge loop, and GCC's inlining into it shifts with
 * the size of everything else in the function. This helper, inlined, cost
 * the loop 20 M instructions on hpcg-4r (callgrind -j 1); splitting
 * build_run into phase functions cost 15 M, so the loop stays here. */

/* "2, 5-9 (6 of 16)": ranks (ascending) as ranges, at most
 * RANK_LIST_MAX of them, so a .meta whose numprocs is far off does not
 * print millions of numbers. */
#define RANK_LIST_MAX 20
G_GNUC_NO_INLINE static GString *rank_list(const int *ranks, size_t n, int n_ranks) {
    GString *l = g_string_new(NULL);
    size_t shown = 0, i = 0;
    while (i < n && shown < RANK_LIST_MAX) {
        size_t j = i;
        while (j + 1 < n && ranks[j + 1] == ranks[j] + 1) j++;
        g_string_append_printf(l, "%s%d", shown ? ", " : "", ranks[i]);
        if (j > i) g_string_append_printf(l, "-%d", ranks[j]);
        shown++;
        i = j + 1;
    }
    if (i < n) g_string_append(l, ", ...");
    g_string_append_printf(l, " (%zu of %d)", n, n_ranks);
    return l;
}

/* Put the hosts' clocks onto one (clocks.h); say so, and warn about the
 * hosts that could not be. */
G_GNUC_NO_INLINE static void plan_clocks(builder *b) {
    clock_plan *p = &b->clocks;
    dumpi_file **files = g_new0(dumpi_file *, b->n_ranks);
    for (uint32_t i = 0; i < b->n_ranks; i++) files[i] = b->ranks[i].f;
    clock_plan_make(files, b->n_ranks, b->o->align_clocks, p);
    g_free(files);
    b->s->n_hosts = (uint32_t)p->n_named;
    b->s->clocks_aligned = p->aligned;
    b->s->max_clock_shift_ns = p->max_shift_ns;
    b->s->max_clock_error_ns = p->n_conflicts ? INT64_MAX : p->max_error_ns;
    b->s->clocks_not_aligned = !p->aligned ? p->why_not : NULL;
    for (size_t i = 0; p->aligned && i < p->n_hosts; i++) {
        const clock_host *h = &p->hosts[i];
        if (h->method != CLOCK_BY_NONE) continue;
        if (h->name[0])
            warn(b, "host %s (%u rank%s from rank %u): no MPI_Init among the first %d records of its ranks; "
                    "its clock is left as recorded",
                 h->name, h->n_ranks, h->n_ranks == 1 ? "" : "s", h->first_rank, CLOCK_PROBE_RECORDS);
        else
            warn(b, "rank %u (no hostname in its header): no MPI_Init among its first %d records; its clock is "
                    "left as recorded",
                 h->first_rank, CLOCK_PROBE_RECORDS);
    }
}

/* Whether path (following links) is file. */
static bool reaches(const char *path, const struct stat *file) {
    struct stat st;
    return path && stat(path, &st) == 0 && st.st_dev == file->st_dev && st.st_ino == file->st_ino;
}

/* The input whose file the output path names, or NULL. The finished file
 * is renamed over the output path: `-o RANK.bin` or `-o TRACE.meta` would
 * replace part of the trace it was built from. lstat: a symlink given as
 * the output is replaced itself, its target is safe; inputs are compared
 * by the file they reach. */
G_GNUC_NO_INLINE static const char *input_named_by(const dumpi_meta *meta, const char *output) {
    struct stat out;
    if (lstat(output, &out) != 0) return NULL; /* nothing there to replace */
    if (reaches(dumpi_meta_path(meta), &out)) return dumpi_meta_path(meta);
    for (int r = 0; r < dumpi_meta_n_ranks(meta); r++)
        if (reaches(dumpi_meta_bin_path(meta, r), &out)) return dumpi_meta_bin_path(meta, r);
    return NULL;
}

int build_run(const dumpi_meta *meta, const build_options *o, build_summary *s, FILE *err_out) {
    memset(s, 0, sizeof *s);
    builder b = {.o = o, .s = s, .err = err_out};
    b.t_start = now_s();
    int fatal = 0, rc = BUILD_OK;
    int n = dumpi_meta_n_ranks(meta);
    size_t n_missing = 0;
    const int *missing = dumpi_meta_missing(meta, &n_missing);
    if (n <= 0) {
        fprintf(err_out, "slog2-build: error: the trace has no ranks\n");
        return BUILD_FAILED;
    }
    const char *input = input_named_by(meta, o->output);
    if (input) {
        fprintf(err_out, "slog2-build: error: %s: the output would replace the input %s; choose another -o\n",
                o->output, input);
        return BUILD_FAILED;
    }
    if (n_missing) {
        GString *l = rank_list(missing, n_missing, n);
        if (!o->allow_missing) {
            fprintf(err_out, "slog2-build: error: rank files missing for ranks %s; use --allow-missing to build without them\n",
                    l->str);
            g_string_free(l, TRUE);
            return BUILD_FAILED;
        }
        warn(&b, "rank files missing for ranks %s; building without them", l->str);
        g_string_free(l, TRUE);
    }
    b.n_ranks = (uint32_t)n;
    s->n_ranks = b.n_ranks;
    b.ranks = g_new0(rank_in, b.n_ranks);
    b.timelines = g_hash_table_new(g_direct_hash, g_direct_equal);
    b.user_cats = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (uint32_t i = 0; i < b.n_ranks && !fatal; i++) {
        rank_in *r = &b.ranks[i];
        r->rank = i;
        r->user_stack = g_array_new(FALSE, FALSE, sizeof(user_frame));
        const char *path = dumpi_meta_bin_path(meta, (int)i);
        if (!path) {
            r->done = 1;
            continue;
        }
        dumpi_error e;
        if (dumpi_file_open(path, &r->f, &e) != DUMPI_OK) {
            fprintf(err_out, "slog2-build: error: %s\n", e.message);
            fatal = 1;
            break;
        }
        dumpi_file_skip_cpu_times(r->f); /* the timelines are wall time */
        dumpi_file_set_window(r->f, read_window(b.n_ranks));
        s->input_bytes += dumpi_file_size(r->f);
        if (!dumpi_file_has_index(r->f)) warn(&b, "%s: no index record at the end (rank %u killed mid-run?)", path, i);
    }
    if (!fatal) plan_clocks(&b);
    slog_error werr;
    if (!fatal) {
        /* Prime every rank's head; the origin is the earliest entry time. */
        b.origin = INT64_MAX;
        for (uint32_t i = 0; i < b.n_ranks && !fatal; i++) {
            rank_in *r = &b.ranks[i];
            if (r->done) continue;
            int k = advance_rank(&b, r, &fatal);
            if (k == 1) {
                r->has_head = 1;
                if (r->head.wall_start < b.origin) b.origin = r->head.wall_start;
            } else if (k < 0 && !fatal) {
                rc = BUILD_WARNINGS;
            }
        }
        if (b.origin == INT64_MAX) b.origin = 0;
    }
    if (!fatal) {
        slog_writer_options wo;
        slog_writer_options_init(&wo);
        wo.preview_bins = o->preview_bins;
        wo.time_origin_ns = b.origin;
        if (slog_writer_open(&b.w, o->output, &wo, &werr) != SLOG_OK) {
            fprintf(err_out, "slog2-build: error: %s\n", werr.message);
            fatal = 1;
        } else if (o->remove_on_signal) {
            const char *temp = slog_writer_temp_path(b.w);
            signals_arm("slog2-build", &temp, 1, o->progress);
        }
    }
    if (!fatal) {
        for (uint32_t i = 0; i < b.n_ranks; i++) {
            char label[32];
            snprintf(label, sizeof label, "rank %u", i);
            const char *host = b.ranks[i].f ? dumpi_file_hostname(b.ranks[i].f) : "";
            slog_timeline t = {i, 0, label, host ? host : ""};
            slog_writer_add_timeline(b.w, &t, NULL);
        }
        s->n_timelines = b.n_ranks;
        b.arrow_category = add_category(&b, SLOG_KIND_ARROW, "message", "message", PALETTE_ARROW, 3,
                                        arrow_fields);
        field_columns(arrow_fields, sizeof arrow_fields, b.arrow_names, b.arrow_types);
        b.inferred = (slog_category){SLOG_KIND_ARROW, "message (inferred)", "message", PALETTE_ARROW_INFERRED,
                                     sizeof arrow_fields, b.arrow_names, b.arrow_types};
        b.comms = comm_ctx_new(b.n_ranks);
        annotate(&b, meta);
        b.sink = sink_new(b.w, 1, b.n_ranks, o->threads != 1);
        b.relay = relay_new(b.sink, b.n_ranks, b.arrow_category, &b.inferred);
        /* The merge keeps its own copy of the keys: comparing through the
         * rank_in structs (kilobytes apart) cost a cache miss each. */
        int64_t *keys = g_new0(int64_t, b.n_ranks);
        bool *live = g_new0(bool, b.n_ranks);
        for (uint32_t i = 0; i < b.n_ranks; i++) {
            live[i] = b.ranks[i].has_head;
            keys[i] = live[i] ? b.ranks[i].head.wall_stop : 0;
        }
        b.merge = merge_new(b.n_ranks, keys, live);
        g_free(keys);
        g_free(live);
        uint64_t tick = 0;
        int64_t next;
        while ((next = merge_winner(b.merge)) >= 0 && !fatal && !b.failed) {
            rank_in *r = &b.ranks[next];
            process(&b, r, &r->head);
            int k = advance_rank(&b, r, &fatal);
            if (k == 1) {
                merge_update_winner(b.merge, r->head.wall_stop);
            } else {
                merge_finish_winner(b.merge);
                if (k < 0 && !fatal) rc = BUILD_WARNINGS;
            }
            /* Every future state ends at or after the next head's exit;
             * the sink's thread lowers this to the match watermark. */
            int64_t wm = merge_winner(b.merge) >= 0 ? merge_min_key(b.merge) - b.origin : INT64_MAX;
            sink_advance(b.sink, wm);
            if (++tick % PROGRESS_EVERY == 0) {
                if (sink_failed(b.sink)) b.failed = 1;
                progress(&b, 0);
            }
        }
        if (!fatal && !b.failed) relay_finish(b.relay);
        double main_cpu = clock_s(CLOCK_THREAD_CPUTIME_ID);
        sink_stats ss;
        if (sink_close(b.sink, &b.werr, &ss) != SLOG_OK) b.failed = 1;
        b.sink = NULL;
        if (o->threads != 1) {
            s->main_cpu_s = main_cpu;
            s->main_wait_s = ss.producer_wait_s;
            s->writer_cpu_s = ss.writer_cpu_s;
            s->writer_wait_s = ss.writer_wait_s;
        }
        s->max_pending = ss.max_pending;
        s->n_clamped = ss.n_clamped;
        /* After a writer error (disk full) the ranks were not read to the
         * end: their footers and open user functions would only be noise
         * in front of the one error that matters. */
        for (uint32_t i = 0; i < b.n_ranks && !fatal && !b.failed; i++) {
            rank_in *r = &b.ranks[i];
            if (!r->f) continue;
            check_footer(&b, r);
            for (guint k = 0; k < r->user_stack->len; k++)
                warn(&b, "rank %u: user function never exited", i);
        }
        size_t nu = 0;
        const match_unmatched *um = relay_unmatched(b.relay, &nu);
        match_stats ms;
        relay_stats(b.relay, &ms);
        s->n_arrows = ms.n_arrows;
        s->n_cancelled = ms.n_cancelled;
        for (size_t i = 0; i < nu; i++) {
            if (um[i].kind == MATCH_UNMATCHED_SEND)
                s->n_unmatched_sends += um[i].count;
            else if (um[i].kind == MATCH_UNMATCHED_RECV)
                s->n_unmatched_recvs += um[i].count;
            else
                s->n_unmatched_other += um[i].count;
        }
        if (nu && !b.failed) {
            GString *u = g_string_new(NULL);
            static const char *kinds[] = {"send", "recv", "incomplete", "no-status", "bad-comm"};
            for (size_t i = 0; i < nu && i < 200; i++)
                g_string_append_printf(u, "%s%s %d->%d tag %d comm %d x%" PRIu64, i ? "; " : "", kinds[um[i].kind],
                                       um[i].src, um[i].dst, um[i].tag, um[i].comm, um[i].count);
            slog_writer_add_annotation(b.w, "messages.unmatched", u->str);
            if (!o->quiet) {
                if (o->progress) fputs("\r\033[K", err_out);
                fprintf(err_out, "slog2-build: unmatched messages (%zu kinds):", nu);
                for (size_t i = 0; i < nu && i < 10; i++)
                    fprintf(err_out, "\n  %-10s %d -> %d tag %d comm %d: %" PRIu64, kinds[um[i].kind], um[i].src,
                            um[i].dst, um[i].tag, um[i].comm, um[i].count);
                if (nu > 10) fprintf(err_out, "\n  ... (%zu more, see the messages.unmatched annotation)", nu - 10);
                fputc('\n', err_out);
            }
            g_string_free(u, TRUE);
        }
        progress(&b, 1);
    }
    if (b.w) {
        if (fatal || b.failed) {
            if (b.failed) fprintf(err_out, "slog2-build: error: %s\n", b.werr.message);
            slog_writer_abort(b.w);
            fatal = 1;
        } else if (slog_writer_finish(b.w, &werr) != SLOG_OK) {
            fprintf(err_out, "slog2-build: error: %s\n", werr.message);
            fatal = 1;
        } else {
            slog_reader *rd;
            if (slog_reader_open(&rd, o->output, &werr) == SLOG_OK) {
                s->output_bytes = slog_reader_info(rd)->file_size;
                s->span_ns = slog_reader_info(rd)->t_max - slog_reader_info(rd)->t_min;
                slog_reader_close(rd);
            }
        }
        if (o->remove_on_signal) signals_disarm(); /* renamed or removed by now */
    }
    relay_free(b.relay);
    comm_ctx_free(b.comms);
    for (uint32_t i = 0; i < b.n_ranks; i++) {
        if (b.ranks[i].f) dumpi_file_close(b.ranks[i].f);
        if (b.ranks[i].user_stack) g_array_free(b.ranks[i].user_stack, TRUE);
    }
    g_free(b.ranks);
    merge_free(b.merge);
    g_hash_table_destroy(b.timelines);
    g_hash_table_destroy(b.user_cats);
    clock_plan_free(&b.clocks);
    s->seconds = now_s() - b.t_start;
    if (fatal) return BUILD_FAILED;
    if (s->n_warnings) rc = BUILD_WARNINGS;
    return rc;
}

void build_print_summary(const build_summary *s, const char *output, FILE *out) {
    fprintf(out,
            "slog2-build: %s\n"
            "  ranks %u, timelines %u, MPI calls %" PRIu64 "\n"
            "  states %" PRIu64 ", events %" PRIu64 ", arrows %" PRIu64 " matched\n"
            "  unmatched: %" PRIu64 " sends, %" PRIu64 " receives, %" PRIu64 " other; %" PRIu64 " cancelled\n"
            "  span %.6f s, input %.1f MB, output %.1f MB (%.1f bytes/call)\n"
            "  %.3f s, %.2f M calls/s, %.1f MB/s%s\n",
            output, s->n_ranks, s->n_timelines, s->n_calls, s->n_states, s->n_events, s->n_arrows, s->n_unmatched_sends,
            s->n_unmatched_recvs, s->n_unmatched_other, s->n_cancelled, s->span_ns / 1e9, s->input_bytes / 1e6, s->output_bytes / 1e6,
            s->n_calls ? (double)s->output_bytes / s->n_calls : 0.0, s->seconds,
            s->seconds > 0 ? s->n_calls / s->seconds / 1e6 : 0.0, s->seconds > 0 ? s->input_bytes / s->seconds / 1e6 : 0.0,
            s->n_warnings ? ", with warnings" : "");
    if (s->clocks_aligned) {
        fprintf(out, "  clocks: %u host%s, aligned by MPI_Init and collectives (largest shift %.6f s", s->n_hosts,
                s->n_hosts == 1 ? "" : "s", s->max_clock_shift_ns / 1e9);
        if (s->max_clock_error_ns < INT64_MAX)
            fprintf(out, ", each within %.1f us)\n", s->max_clock_error_ns / 1e3);
        else
            fputs(", some only roughly: see time.clock_offsets_ns)\n", out);
    }
    else if (s->n_hosts > 1)
        fprintf(out, "  clocks: %u hosts, times as recorded (%s)\n", s->n_hosts,
                s->clocks_not_aligned ? s->clocks_not_aligned : "not aligned");
    if (s->n_clamped) fprintf(out, "  %" PRIu64 " drawables arrived late and were clamped to the written edge\n", s->n_clamped);
    /* Which thread bounds the build: the busy one, which the other waits for. */
    if (s->main_cpu_s > 0)
        fprintf(out,
                "  threads: decoding and states %.3f s CPU, waited %.3f s for the writer; "
                "matching and writing %.3f s CPU, waited %.3f s\n",
                s->main_cpu_s, s->main_wait_s, s->writer_cpu_s, s->writer_wait_s);
}
