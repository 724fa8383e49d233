/* otf2_read.c - an OTF2 archive into the model of otf2_model.h, with
 * libotf2's reader: global definitions, then each location's local
 * definitions (for the mapping tables and clock offsets libotf2 applies
 * to its events) and events. */
#include "otf2_model.h"

#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define O2_PUSH(vec, val)                                                                    \
    do {                                                                                     \
        if ((vec).n == (vec).cap) {                                                          \
            (vec).cap = (vec).cap ? 2 * (vec).cap : 64;                                      \
            (vec).v = g_realloc_n((vec).v, (vec).cap, sizeof *(vec).v);                      \
        }                                                                                    \
        (vec).v[(vec).n++] = (val);                                                          \
    } while (0)

/* libotf2 reports errors through a callback (by default printed on
 * stderr): the last one is kept, per thread, for our own message. */
static _Thread_local char last_error[256];

static OTF2_ErrorCode on_error(void *user, const char *file, uint64_t line, const char *function,
                               OTF2_ErrorCode code, const char *fmt, va_list va) {
    char msg[200] = "";
    if (fmt) vsnprintf(msg, sizeof msg, fmt, va);
    snprintf(last_error, sizeof last_error, "%s%s%s", OTF2_Error_GetDescription(code), msg[0] ? ": " : "", msg);
    return code;
}

static const char *why(OTF2_ErrorCode st) {
    return last_error[0] ? last_error : OTF2_Error_GetDescription(st);
}

const char *o2_string(const o2_archive *a, uint32_t ref) {
    const char *s = g_hash_table_lookup(a->strings, GUINT_TO_POINTER(ref));
    return s ? s : "";
}

o2_loc *o2_loc_by_id(const o2_archive *a, uint64_t id) {
    gpointer v = g_hash_table_lookup(a->loc_index, &id);
    return v ? &a->locs[GPOINTER_TO_SIZE(v) - 1] : NULL;
}

int64_t o2_ns(const o2_archive *a, uint64_t ticks) {
    /* Signed: a location's corrected clock may start before the global
     * offset. 128 bits: ticks near 2^64 times 10^9. */
    __int128 d = (__int128)ticks - (__int128)a->global_offset;
    return (int64_t)(d * 1000000000 / (__int128)a->tps);
}

int32_t o2_world_rank(const o2_archive *a, uint32_t comm, uint32_t local) {
    const o2_comm *c = g_hash_table_lookup(a->comms, GUINT_TO_POINTER(comm));
    if (!c || !a->world) return -1;
    const o2_group *g = g_hash_table_lookup(a->groups, GUINT_TO_POINTER(c->group));
    if (!g || local >= g->n) return -1;
    /* A COMM_GROUP lists ranks in COMM_WORLD's location list (OTF2's
     * GroupType); a COMM_LOCATIONS group, location ids. */
    uint64_t m = g->members[local];
    if (g->type == OTF2_GROUP_TYPE_COMM_LOCATIONS) {
        for (uint32_t i = 0; i < a->world->n; i++)
            if (a->world->members[i] == m) return (int32_t)i;
        return -1;
    }
    return m < a->world->n ? (int32_t)m : -1;
}

/* ------------------------------------------------------------ definitions */

static OTF2_CallbackCode def_clock(void *u, uint64_t resolution, uint64_t offset, uint64_t length, uint64_t realtime) {
    o2_archive *a = u;
    a->tps = resolution;
    a->global_offset = offset;
    a->have_clock = true;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s) {
    o2_archive *a = u;
    if (g_hash_table_contains(a->strings, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    g_hash_table_insert(a->strings, GUINT_TO_POINTER(self), g_strdup(s ? s : ""));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_tree(void *u, OTF2_SystemTreeNodeRef self, OTF2_StringRef name, OTF2_StringRef cls,
                                  OTF2_SystemTreeNodeRef parent) {
    o2_archive *a = u;
    uint32_t *v = g_new(uint32_t, 3);
    v[0] = name, v[1] = cls, v[2] = parent;
    g_hash_table_insert(a->tree, GUINT_TO_POINTER(self), v);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_lgroup(void *u, OTF2_LocationGroupRef self, OTF2_StringRef name, OTF2_LocationGroupType type,
                                    OTF2_SystemTreeNodeRef parent, OTF2_LocationGroupRef creator) {
    o2_archive *a = u;
    uint32_t *v = g_new(uint32_t, 3);
    v[0] = name, v[1] = type, v[2] = parent;
    g_hash_table_insert(a->lgroups, GUINT_TO_POINTER(self), v);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name, OTF2_LocationType type,
                                      uint64_t n_events, OTF2_LocationGroupRef group) {
    o2_archive *a = u;
    if (o2_loc_by_id(a, self)) {
        a->n_duplicate_defs++;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (a->n_locs == a->cap_locs) {
        a->cap_locs = a->cap_locs ? 2 * a->cap_locs : 16;
        a->locs = g_realloc_n(a->locs, a->cap_locs, sizeof *a->locs);
    }
    o2_loc *l = &a->locs[a->n_locs++];
    memset(l, 0, sizeof *l);
    l->id = self;
    l->name = name;
    l->type = type;
    l->group = group;
    l->n_events_declared = n_events;
    l->defined = true;
    l->last_t = INT64_MIN;
    uint64_t *key = g_new(uint64_t, 1);
    *key = self;
    g_hash_table_insert(a->loc_index, key, GSIZE_TO_POINTER(a->n_locs));
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef canonical,
                                    OTF2_StringRef descr, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t line, uint32_t end_line) {
    o2_archive *a = u;
    if (g_hash_table_contains(a->regions, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    o2_region *r = g_new0(o2_region, 1);
    *r = (o2_region){.name = name, .paradigm = paradigm, .role = role, .file = file, .line = line,
                     .category = O2_NONE, .defined = true};
    g_hash_table_insert(a->regions, GUINT_TO_POINTER(self), r);
    return OTF2_CALLBACK_SUCCESS;
}

static void group_free(gpointer p) {
    o2_group *g = p;
    if (g) g_free(g->members);
    g_free(g);
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm paradigm, OTF2_GroupFlag flags, uint32_t n, const uint64_t *members) {
    o2_archive *a = u;
    o2_group *g = g_new0(o2_group, 1);
    g->type = (uint8_t)type;
    g->paradigm = (uint8_t)paradigm;
    g->n = n;
    g->members = g_memdup2(members, (gsize)n * sizeof *members);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI) {
        /* MPI's COMM_WORLD in rank order: kept apart, for EZTrace gives it
         * the same id as the COMM_GROUP its communicator names. */
        if (a->world) {
            a->n_duplicate_defs++;
            group_free(a->world);
        }
        a->world = g;
        return OTF2_CALLBACK_SUCCESS;
    }
    o2_group *old = g_hash_table_lookup(a->groups, GUINT_TO_POINTER(self));
    if (old) {
        a->n_duplicate_defs++;
        /* A communicator's group is a COMM_GROUP: keep that one. */
        if (old->type == OTF2_GROUP_TYPE_COMM_GROUP && type != OTF2_GROUP_TYPE_COMM_GROUP) {
            group_free(g);
            return OTF2_CALLBACK_SUCCESS;
        }
    }
    g_hash_table_insert(a->groups, GUINT_TO_POINTER(self), g);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag flags) {
    o2_archive *a = u;
    if (g_hash_table_contains(a->comms, GUINT_TO_POINTER(self))) a->n_duplicate_defs++;
    o2_comm *c = g_new0(o2_comm, 1);
    *c = (o2_comm){.group = group, .name = name, .defined = true};
    g_hash_table_insert(a->comms, GUINT_TO_POINTER(self), c);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_clock_offset(void *u, OTF2_TimeStamp t, int64_t offset, double sd) {
    ((o2_loc *)u)->n_clock_offsets++;
    return OTF2_CALLBACK_SUCCESS;
}

/* ------------------------------------------------------------ events */

typedef struct evt_ctx {
    o2_archive *a;
    o2_loc *l;
} evt_ctx;

static o2_frame *top(o2_loc *l) {
    return l->stack.n ? &l->frames.v[l->stack.v[l->stack.n - 1]] : NULL;
}

static uint32_t top_index(const o2_loc *l) {
    return l->stack.n ? l->stack.v[l->stack.n - 1] : O2_NONE;
}

/* Every record: its time, and that it was read. */
static int64_t seen(evt_ctx *c, OTF2_TimeStamp time) {
    int64_t t = o2_ns(c->a, time);
    c->l->n_read++;
    /* A time days away from the archive's clock origin is a damaged
     * record: it would stretch the file's time tree past its limits.
     * Counted, and put at the location's previous time. */
    if (t > O2_TIME_LIMIT_NS || t < -O2_TIME_LIMIT_NS) {
        c->l->n_bad_time++;
        t = c->l->last_t == INT64_MIN ? 0 : c->l->last_t;
    }
    if (t > c->l->last_t) c->l->last_t = t;
    return t;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region) {
    evt_ctx *c = u;
    int64_t t = seen(c, time);
    o2_loc *l = c->l;
    o2_frame f = {.t0 = t, .t1 = t, .region = region, .depth = (uint32_t)l->stack.n, .dest = -1, .source = -1,
                  .root = -1, .tag = O2_UNKNOWN, .bytes = O2_UNKNOWN, .sent = O2_UNKNOWN, .received = O2_UNKNOWN,
                  .comm = O2_UNKNOWN, .request = O2_UNKNOWN, .open = true};
    uint32_t i = (uint32_t)l->frames.n;
    O2_PUSH(l->frames, f);
    O2_PUSH(l->stack, i);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region) {
    evt_ctx *c = u;
    int64_t t = seen(c, time);
    o2_loc *l = c->l;
    /* The innermost open frame of this region. A tool may leave regions
     * out of nesting order (EZTrace leaves its whole-run region before its
     * finalize region): that frame alone is closed, the ones entered after
     * it stay open, so each state spans its own ENTER..LEAVE. */
    size_t k = l->stack.n;
    while (k > 0 && l->frames.v[l->stack.v[k - 1]].region != region) k--;
    if (k == 0) {
        l->n_unbalanced++;
        return OTF2_CALLBACK_SUCCESS;
    }
    o2_frame *f = &l->frames.v[l->stack.v[k - 1]];
    f->t1 = t < f->t0 ? f->t0 : t;
    f->open = false;
    if (k != l->stack.n) {
        l->n_misnested++;
        memmove(&l->stack.v[k - 1], &l->stack.v[k], (l->stack.n - k) * sizeof *l->stack.v);
    }
    l->stack.n--;
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static void post_send(evt_ctx *c, int64_t t, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                      uint64_t request) {
    o2_loc *l = c->l;
    o2_frame *f = top(l);
    o2_send s = {.t = f ? f->t0 : t, .frame = top_index(l), .comm = comm, .peer = receiver, .tag = tag,
                 .bytes = len, .request = request};
    if (f) {
        f->dest = o2_world_rank(c->a, comm, receiver);
        f->tag = tag;
        f->bytes = (int64_t)len;
        f->comm = comm;
        if (request) f->request = (int64_t)request;
    }
    O2_PUSH(l->sends, s);
    l->n_handled++;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len) {
    evt_ctx *c = u;
    post_send(c, seen(c, time), receiver, comm, tag, len, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t request) {
    evt_ctx *c = u;
    o2_loc *l = c->l;
    post_send(c, seen(c, time), receiver, comm, tag, len, request);
    /* Request ids are often addresses, reused once completed: a new post
     * replaces the old one, which must have completed unrecorded. */
    if (g_hash_table_contains(l->isend_req, GSIZE_TO_POINTER(request))) l->n_reused++;
    g_hash_table_replace(l->isend_req, GSIZE_TO_POINTER(request), GSIZE_TO_POINTER(l->sends.n));
    return OTF2_CALLBACK_SUCCESS;
}

static void completed_in_top(o2_loc *l) {
    o2_frame *f = top(l);
    if (f) f->completed++;
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                           OTF2_AttributeList *attrs, uint64_t request) {
    evt_ctx *c = u;
    o2_loc *l = c->l;
    seen(c, time);
    gpointer v = g_hash_table_lookup(l->isend_req, GSIZE_TO_POINTER(request));
    if (v) {
        l->sends.v[GPOINTER_TO_SIZE(v) - 1].completed = true;
        g_hash_table_remove(l->isend_req, GSIZE_TO_POINTER(request));
        completed_in_top(l);
    } else
        l->n_stray++;
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                          OTF2_AttributeList *attrs, uint64_t request) {
    evt_ctx *c = u;
    o2_loc *l = c->l;
    int64_t t = seen(c, time);
    o2_frame *f = top(l);
    o2_recv r = {.post_t = f ? f->t0 : t, .post_frame = top_index(l), .done_frame = O2_NONE, .request = request};
    if (f) f->request = (int64_t)request;
    O2_PUSH(l->recvs, r);
    if (g_hash_table_contains(l->irecv_req, GSIZE_TO_POINTER(request))) l->n_reused++;
    g_hash_table_replace(l->irecv_req, GSIZE_TO_POINTER(request), GSIZE_TO_POINTER(l->recvs.n));
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

/* A receive completed with its envelope: the pending one of that request,
 * or (blocking, or no request record) one posted by its own region. */
static void recv_done(evt_ctx *c, int64_t t, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                      bool has_request, uint64_t request) {
    o2_loc *l = c->l;
    o2_frame *f = top(l);
    o2_recv *r = NULL;
    gpointer v;
    if (has_request && (v = g_hash_table_lookup(l->irecv_req, GSIZE_TO_POINTER(request)))) {
        r = &l->recvs.v[GPOINTER_TO_SIZE(v) - 1];
        g_hash_table_remove(l->irecv_req, GSIZE_TO_POINTER(request));
    } else {
        o2_recv n = {.post_t = f ? f->t0 : t, .post_frame = top_index(l), .request = request};
        O2_PUSH(l->recvs, n);
        r = &l->recvs.v[l->recvs.n - 1];
    }
    r->exact = true;
    r->comm = comm;
    r->peer = sender;
    r->tag = tag;
    r->bytes = len;
    r->done_frame = top_index(l);
    r->done_t = f ? O2_UNKNOWN : t; /* the frame's exit, once known */
    if (f) {
        f->source = o2_world_rank(c->a, comm, sender);
        f->tag = tag;
        f->bytes = (int64_t)len;
        f->comm = comm;
        if (has_request) f->completed++;
    }
    l->n_handled++;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len) {
    evt_ctx *c = u;
    recv_done(c, seen(c, time), sender, comm, tag, len, false, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t request) {
    evt_ctx *c = u;
    recv_done(c, seen(c, time), sender, comm, tag, len, true, request);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_test(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint64_t request) {
    evt_ctx *c = u;
    o2_poll p = {.t = seen(c, time), .frame = top_index(c->l)};
    O2_PUSH(c->l->polls, p);
    c->l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                      OTF2_AttributeList *attrs, uint64_t request) {
    evt_ctx *c = u;
    o2_loc *l = c->l;
    seen(c, time);
    gpointer v;
    if ((v = g_hash_table_lookup(l->irecv_req, GSIZE_TO_POINTER(request)))) {
        l->recvs.v[GPOINTER_TO_SIZE(v) - 1].cancelled = true;
        g_hash_table_remove(l->irecv_req, GSIZE_TO_POINTER(request));
    } else if ((v = g_hash_table_lookup(l->isend_req, GSIZE_TO_POINTER(request)))) {
        l->sends.v[GPOINTER_TO_SIZE(v) - 1].cancelled = true;
        g_hash_table_remove(l->isend_req, GSIZE_TO_POINTER(request));
    } else {
        l->n_stray++;
    }
    completed_in_top(l);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                       OTF2_AttributeList *attrs) {
    evt_ctx *c = u;
    seen(c, time);
    c->l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                     OTF2_AttributeList *attrs, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t received) {
    evt_ctx *c = u;
    seen(c, time);
    o2_frame *f = top(c->l);
    if (f) {
        f->sent = (int64_t)sent;
        f->received = (int64_t)received;
        f->comm = comm;
        if (root != OTF2_UNDEFINED_UINT32) f->root = o2_world_rank(c->a, comm, root);
    }
    c->l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                    OTF2_AttributeList *attrs) {
    evt_ctx *c = u;
    seen(c, time);
    c->l->n_unknown++;
    return OTF2_CALLBACK_SUCCESS;
}

/* One counting callback per skipped record kind, of its exact type. */
#define O2_PARAMS(...) __VA_ARGS__
#define O2_SKIP_CB(name, rec, fam, params)                                                              \
    static OTF2_CallbackCode skip_##name(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u, \
                                         OTF2_AttributeList *attrs O2_PARAMS params) {                  \
        evt_ctx *c = u;                                                                                 \
        seen(c, time);                                                                                  \
        c->l->skipped[O2_SKIP_##name]++;                                                                \
        return OTF2_CALLBACK_SUCCESS;                                                                   \
    }
OTF2_SKIPPED_RECORDS(O2_SKIP_CB)
#undef O2_SKIP_CB

static OTF2_EvtReaderCallbacks *event_callbacks(void) {
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb) return NULL;
    OTF2_EvtReaderCallbacks_SetUnknownCallback(cb, ev_unknown);
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestTestCallback(cb, ev_test);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
#define O2_SKIP_SET(name, rec, fam, params) OTF2_EvtReaderCallbacks_Set##name##Callback(cb, skip_##name);
    OTF2_SKIPPED_RECORDS(O2_SKIP_SET)
#undef O2_SKIP_SET
    return cb;
}

/* ------------------------------------------------------------ archive */

static void init_archive(o2_archive *a, const char *anchor) {
    memset(a, 0, sizeof *a);
    a->anchor = g_strdup(anchor);
    a->tps = 1000000000;
    a->strings = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->regions = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->groups = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, group_free);
    a->comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->tree = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->lgroups = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    a->loc_index = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
}

void o2_archive_free(o2_archive *a) {
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        g_free(l->frames.v);
        g_free(l->stack.v);
        g_free(l->sends.v);
        g_free(l->recvs.v);
        g_free(l->polls.v);
        if (l->isend_req) g_hash_table_destroy(l->isend_req);
        if (l->irecv_req) g_hash_table_destroy(l->irecv_req);
        g_free(l->error);
    }
    g_free(a->locs);
    g_hash_table_destroy(a->strings);
    g_hash_table_destroy(a->regions);
    g_hash_table_destroy(a->groups);
    g_hash_table_destroy(a->comms);
    g_hash_table_destroy(a->tree);
    g_hash_table_destroy(a->lgroups);
    g_hash_table_destroy(a->loc_index);
    group_free(a->world);
    g_free(a->anchor);
    g_free(a->creator);
    memset(a, 0, sizeof *a);
}

static bool read_global_defs(OTF2_Reader *r, o2_archive *a, char *err, size_t err_len) {
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(r);
    if (!gdr) {
        snprintf(err, err_len, "%s: cannot read the global definitions: %s", a->anchor,
                 last_error[0] ? last_error : "no definitions file");
        return false;
    }
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetSystemTreeNodeCallback(cb, def_tree);
    OTF2_GlobalDefReaderCallbacks_SetLocationGroupCallback(cb, def_lgroup);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(cb, def_location);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_Reader_RegisterGlobalDefCallbacks(r, gdr, cb, a);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    last_error[0] = 0;
    OTF2_ErrorCode st = OTF2_Reader_ReadAllGlobalDefinitions(r, gdr, &n);
    OTF2_Reader_CloseGlobalDefReader(r, gdr);
    if (st != OTF2_SUCCESS) {
        snprintf(err, err_len, "%s: the global definitions are unreadable after %" PRIu64 " of them: %s", a->anchor, n,
                 why(st));
        return false;
    }
    if (!a->have_clock || a->tps == 0) {
        snprintf(err, err_len, "%s: the global definitions have no clock properties (timer resolution)", a->anchor);
        return false;
    }
    if (a->n_locs == 0) {
        snprintf(err, err_len, "%s: the global definitions define no location", a->anchor);
        return false;
    }
    return true;
}

bool o2_read(const char *anchor, o2_archive *a, char *err, size_t err_len) {
    init_archive(a, anchor);
    OTF2_Error_RegisterCallback(on_error, NULL);
    last_error[0] = 0;
    OTF2_Reader *r = OTF2_Reader_Open(anchor);
    if (!r) {
        snprintf(err, err_len, "%s: not a readable OTF2 archive: %s", anchor,
                 last_error[0] ? last_error : "the anchor file cannot be read");
        return false;
    }
    bool ok = false;
    OTF2_EvtReaderCallbacks *ecb = NULL;
    evt_ctx *ctx = NULL;
    OTF2_Reader_SetSerialCollectiveCallbacks(r);
    char *creator = NULL;
    if (OTF2_Reader_GetCreator(r, &creator) == OTF2_SUCCESS && creator) {
        a->creator = g_strdup(creator);
        free(creator);
    }
    if (!read_global_defs(r, a, err, err_len)) goto out;
    ctx = g_new0(evt_ctx, a->n_locs);
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        l->isend_req = g_hash_table_new(g_direct_hash, g_direct_equal);
        l->irecv_req = g_hash_table_new(g_direct_hash, g_direct_equal);
        ctx[i] = (evt_ctx){a, l};
        OTF2_Reader_SelectLocation(r, l->id);
    }
    /* The event readers first: reading a location's local definitions
     * hands its mapping tables and clock offsets to its event reader. */
    last_error[0] = 0;
    if (OTF2_Reader_OpenEvtFiles(r) != OTF2_SUCCESS) {
        snprintf(err, err_len, "%s: cannot open the event files: %s", anchor, why(OTF2_ERROR_FILE_INTERACTION));
        goto out;
    }
    OTF2_EvtReader **ers = g_new0(OTF2_EvtReader *, a->n_locs);
    for (size_t i = 0; i < a->n_locs; i++) {
        last_error[0] = 0;
        ers[i] = OTF2_Reader_GetEvtReader(r, a->locs[i].id);
        if (!ers[i])
            a->locs[i].error = g_strdup_printf("no event reader: %s", last_error[0] ? last_error : "no event file");
    }
    bool defs_open = OTF2_Reader_OpenDefFiles(r) == OTF2_SUCCESS;
    OTF2_DefReaderCallbacks *dcb = OTF2_DefReaderCallbacks_New();
    OTF2_DefReaderCallbacks_SetClockOffsetCallback(dcb, def_clock_offset);
    for (size_t i = 0; defs_open && i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        last_error[0] = 0;
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(r, l->id);
        if (!dr) continue; /* no local definitions: nothing to map */
        OTF2_Reader_RegisterDefCallbacks(r, dr, dcb, l);
        uint64_t n = 0;
        OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalDefinitions(r, dr, &n);
        if (st != OTF2_SUCCESS && !l->error)
            l->error = g_strdup_printf("its local definitions are unreadable: %s", why(st));
        OTF2_Reader_CloseDefReader(r, dr);
    }
    OTF2_DefReaderCallbacks_Delete(dcb);
    if (defs_open) OTF2_Reader_CloseDefFiles(r);
    ecb = event_callbacks();
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        if (!ers[i]) continue;
        OTF2_Reader_RegisterEvtCallbacks(r, ers[i], ecb, &ctx[i]);
        uint64_t n = 0;
        last_error[0] = 0;
        OTF2_ErrorCode st = OTF2_Reader_ReadAllLocalEvents(r, ers[i], &n);
        if (st != OTF2_SUCCESS && !l->error)
            l->error = g_strdup_printf("events unreadable after %" PRIu64 " records: %s", l->n_read, why(st));
        OTF2_Reader_CloseEvtReader(r, ers[i]);
    }
    g_free(ers);
    OTF2_Reader_CloseEvtFiles(r);
    ok = true;
out:
    if (ecb) OTF2_EvtReaderCallbacks_Delete(ecb);
    g_free(ctx);
    OTF2_Reader_Close(r);
    return ok;
}
