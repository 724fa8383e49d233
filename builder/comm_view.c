/* SPDX-License-Identifier: MIT */
/* comm_view.c - see comm_view.h. */
#include "comm_view.h"

#include <glib.h>
#include <stdlib.h>

#define NOT_PUBLISHED UINT64_MAX

comm_snap *comm_snap_new(void)
{
    comm_snap *s = g_new0(comm_snap, 1);
    atomic_init(&s->usable_from, NOT_PUBLISHED);
    atomic_init(&s->refs, 2);
    s->size = s->own_rank = -1;
    return s;
}

void comm_snap_unref(comm_snap *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1) {
        comm_peers_release(s->held);
        g_free(s);
    }
}

void comm_snap_publish(comm_snap *s, const comm_ref *ref, uint64_t from)
{
    s->state = ref ? (int)comm_ref_get_state(ref) : COMM_REF_FAILED;
    if (s->state == COMM_REF_RESOLVED) {
        s->is_inter = comm_ref_is_inter(ref);
        s->size = s->is_inter ? -1 : comm_ref_size(ref);
        s->n_peers = comm_ref_peer_size(ref);
        s->first = s->n_peers > 0 ? comm_ref_world_rank(ref, 0) : 0;
        /* Peers that step evenly (a dup of WORLD, a row of a grid) need no
         * array: thousands of ranks' views of one would each miss the
         * cache where one sum does not. Others share the replay's (held,
         * not copied: a copy a member is quadratic in the members). */
        int32_t step;
        if (comm_ref_stride(ref, &step)) {
            s->step = step;
        } else {
            s->step = 0;
            s->held = comm_ref_peers_hold(ref);
        }
        if (!s->is_inter) s->own_rank = comm_ref_local_rank(ref);
    }
    atomic_store_explicit(&s->usable_from, from, memory_order_release);
    comm_snap_unref(s);
}

void comm_table_init(comm_table *t)
{
    htab_init(&t->handles);
    t->predef_bound = false;
    t->last_snap = NULL;
}

void comm_table_free(comm_table *t)
{
    for (size_t i = 0; i < htab_capacity(&t->handles); i++) {
        const htab_entry *e = htab_at(&t->handles, i);
        if (e->val) comm_snap_unref(e->val);
    }
    htab_free(&t->handles);
}

void comm_table_bind(comm_table *t, int handle, comm_snap *s)
{
    if (t->last_snap && t->last_handle == handle) t->last_snap = NULL;
    if (handle == COMM_HANDLE_WORLD || handle == COMM_HANDLE_SELF) t->predef_bound = true;
    comm_snap_unref(htab_put(&t->handles, (uint32_t)handle, s));
}

void comm_table_unbind(comm_table *t, int handle)
{
    /* as comm_record_free(): the predefined ones stay */
    if (handle == COMM_HANDLE_WORLD || handle == COMM_HANDLE_SELF) return;
    if (t->last_snap && t->last_handle == handle) t->last_snap = NULL;
    comm_snap_unref(htab_remove(&t->handles, (uint32_t)handle));
}

comm_view comm_view_replay(comm_ctx *ctx, uint32_t rank, int comm)
{
    return (comm_view){.kind = VIEW_REPLAY, .rank = rank, .ctx = ctx, .comm = comm};
}

static void view_snap(comm_view *out, const comm_table *t)
{
    out->kind = VIEW_SNAP;
    out->sh = t->last;
}

bool comm_view_lane(comm_table *t, uint32_t rank, uint32_t n_ranks, int comm, uint64_t leaf, comm_view *out)
{
    *out = (comm_view){.kind = VIEW_NONE, .rank = rank, .n_ranks = n_ranks, .comm = comm};
    if (!t->predef_bound && (comm == COMM_HANDLE_WORLD || comm == COMM_HANDLE_SELF)) {
        out->kind = comm == COMM_HANDLE_WORLD ? VIEW_WORLD : VIEW_SELF; /* as unbound below */
        return true;
    }
    if (t->last_snap && t->last_handle == comm && t->last_from <= leaf) {
        view_snap(out, t);
        return true;
    }
    const comm_snap *s = htab_get(&t->handles, (uint32_t)comm);
    if (!s) {
        /* unbound: the predefined ones, or a handle the replay does not
         * know either (comm_world_rank: invalid) */
        if (comm == COMM_HANDLE_WORLD) out->kind = VIEW_WORLD;
        if (comm == COMM_HANDLE_SELF) out->kind = VIEW_SELF;
        return true;
    }
    uint64_t ready = atomic_load_explicit(&((comm_snap *)s)->usable_from, memory_order_acquire);
    if (ready == NOT_PUBLISHED || ready > leaf) return false;
    t->last_handle = comm;
    t->last_snap = s;
    t->last_from = ready;
    t->last = (comm_shape){s->state, s->size, s->own_rank, s->n_peers, s->held ? comm_peers_ranks(s->held) : NULL,
                           s->first, s->step};
    view_snap(out, t);
    return true;
}

int comm_view_world_rank(const comm_view *v, int local)
{
    if (local == COMM_PROC_NULL) return COMM_RANK_PROC_NULL;
    switch (v->kind) {
    case VIEW_REPLAY: return comm_world_rank(v->ctx, v->rank, v->comm, local);
    case VIEW_WORLD: return local >= 0 && (uint32_t)local < v->n_ranks ? local : COMM_RANK_INVALID;
    case VIEW_SELF: return local == 0 ? (int)v->rank : COMM_RANK_INVALID;
    case VIEW_SNAP:
        if (v->sh.state != COMM_REF_RESOLVED || local < 0 || local >= v->sh.n_peers)
            return COMM_RANK_INVALID; /* failed */
        return v->sh.peers ? v->sh.peers[local] : (int)((int64_t)v->sh.first + (int64_t)local * v->sh.step);
    case VIEW_NONE: break;
    }
    return COMM_RANK_INVALID;
}

int comm_view_size(const comm_view *v)
{
    switch (v->kind) {
    case VIEW_REPLAY: {
        comm_ref *r = comm_ref_lookup(v->ctx, v->rank, v->comm);
        return r && !comm_ref_is_inter(r) ? comm_ref_size(r) : -1;
    }
    case VIEW_WORLD: return (int)v->n_ranks;
    case VIEW_SELF: return 1;
    case VIEW_SNAP: return v->sh.size;
    case VIEW_NONE: break;
    }
    return -1;
}

int comm_view_own_rank(const comm_view *v)
{
    switch (v->kind) {
    case VIEW_REPLAY: {
        comm_ref *r = comm_ref_lookup(v->ctx, v->rank, v->comm);
        return r && !comm_ref_is_inter(r) ? comm_ref_local_rank(r) : -1;
    }
    case VIEW_WORLD: return (int)v->rank;
    case VIEW_SELF: return 0;
    case VIEW_SNAP: return v->sh.own_rank;
    case VIEW_NONE: break;
    }
    return -1;
}
