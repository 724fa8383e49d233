/* SPDX-License-Identifier: MIT */
/* comm.c - communicator translation (see comm.h and docs/MATCHING.md).
 *
 * Three kinds of object:
 *   comm_obj  a global communicator: its id and member world ranks (two
 *             groups for an intercommunicator), shared by all member refs;
 *   comm_ref  one rank's instance, bound to a handle; PENDING until the
 *             creation call it came from has heard from every member;
 *   contrib   one rank's record of a creation call, keyed by (parent id,
 *             n-th creation call on that parent) once the parent is known.
 * Groups are small expression nodes evaluated as soon as their inputs are
 * known, so a group taken from a pending communicator still works later.
 */
#include "comm.h"

#include <glib.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"

typedef struct comm_obj {
    int refcount;
    uint64_t id;
    int n_groups; /* 1 = intracommunicator, 2 = intercommunicator */
    int size[2];
    comm_peers *blk[2]; /* world ranks by local rank (ranks_new) */
    bool even[2];       /* group_stride() of each, and its step */
    int32_t step[2];
    int ndims; /* cartesian topology (cart_sub needs it), else 0 */
    int *dims;
    int *place[2]; /* while its members are being bound (obj_place): local
                    * rank by world rank, or NULL */
    int n_place[2], n_placed[2];
} comm_obj;

struct comm_ref {
    int refcount;
    uint32_t rank;
    int handle;
    comm_ref_state state;
    comm_obj *obj;
    int side;           /* which group of obj is local (intercomms) */
    int local_rank;     /* this rank's rank in its local group, when resolved */
    uint32_t n_created; /* creation calls made with this instance as parent */
    void *user;         /* comm_ref_set_user() */
};

typedef enum group_op {
    G_LIST,
    G_COMM,
    G_INCL,
    G_EXCL,
    G_RANGE_INCL,
    G_RANGE_EXCL,
    G_UNION,
    G_INTERSECTION,
    G_DIFFERENCE
} group_op;

typedef struct group_node {
    int refcount;
    group_op op;
    struct group_node *a, *b;
    comm_ref *src; /* G_COMM */
    bool remote;   /* G_COMM: the remote group of an intercommunicator */
    int n_args;
    int *args;
    int n; /* G_LIST: the world ranks */
    int *ranks;
    bool failed;
} group_node;

typedef enum create_kind {
    CK_DUP,
    CK_SPLIT,
    CK_CREATE,
    CK_CART,
    CK_CART_SUB,
    CK_GRAPH,
    CK_ICREATE,
    CK_IMERGE
} create_kind;

typedef struct contrib {
    create_kind kind;
    uint32_t rank;
    comm_ref *parent;  /* held */
    uint32_t seq;      /* n-th creation call of rank on parent */
    comm_ref *newref;  /* held; NULL when the rank got MPI_COMM_NULL */
    int color, key;    /* split; graph nnodes in color; merge high in color */
    group_node *group; /* create */
    int n_ints;        /* cart dims / cart_sub remain_dims */
    int *ints;
    int local_leader, remote_leader, tag; /* intercomm_create */
    comm_ref *peer;                       /* held */
} contrib;

typedef struct pending_key {
    uint64_t parent_id;
    uint32_t seq;
} pending_key;

typedef struct pending {
    pending_key key;
    create_kind kind;
    comm_obj *parent;
    int n_members, n_arrived;
    bool failed;
    contrib **slot; /* by position in the parent's members */
} pending;

/* One side of an intercomm_create, waiting for the other side. */
typedef struct half {
    int leader, remote_leader, tag; /* world ranks */
    int n;
    int *members;
    GPtrArray *contribs; /* owned */
} half;

typedef struct rank_state {
    /* int handle -> comm_ref* (held); looked up for nearly every MPI call,
     * so a flat map (htab.h), not a GHashTable */
    htab comms;
    GHashTable *groups; /* int handle -> group_node* (held) */
} rank_state;

struct comm_ctx {
    uint32_t n_ranks;
    rank_state *ranks;
    comm_obj *world;
    uint64_t next_id;
    GHashTable *pending; /* pending_key -> pending* */
    GPtrArray *waiting;  /* contrib* whose parent is still PENDING, in order */
    GPtrArray *halves;   /* half* */
    group_node *empty;
    comm_resolved_cb cb;
    void *cb_user;
    comm_stats stats;
    uint64_t n_notified; /* notify() calls: every ref leaving COMM_REF_PENDING */
    uint64_t n_bindings; /* handles bound or freed (comm_ctx_bindings) */
};

/* ------------------------------------------------------------ objects */

/* Whether ranks step evenly, rank i being ranks[0] + i * *step (WORLD,
 * its dups, the rows and columns of a grid, blocks of a split): then each
 * member's view of the group needs no copy of it, nor a scan for its own
 * place (comm_ref_stride). */
static bool group_stride(int n, const int *ranks, int32_t *step)
{
    int64_t d = n > 1 ? (int64_t)ranks[1] - ranks[0] : 0;
    if (d < INT32_MIN || d > INT32_MAX) return false;
    for (int i = 2; i < n; i++)
        if (ranks[i] != ranks[0] + (int64_t)i * d) return false;
    *step = (int32_t)d;
    return true;
}

/* A group's world ranks, unchanged once made. Readers on other threads
 * hold them (comm_ref_peers_hold): with thousands of members, a copy for
 * each member's view of a group that does not step evenly made creating
 * it quadratic in the members, in time and in memory. Only the count is
 * shared between threads. */
struct comm_peers {
    atomic_int refs;
    int r[];
};

static comm_peers *ranks_new(const int *ranks, int n)
{
    comm_peers *b = g_malloc(sizeof *b + sizeof(int) * (size_t)(n > 0 ? n : 1));
    atomic_init(&b->refs, 1);
    if (n > 0) memcpy(b->r, ranks, sizeof(int) * (size_t)n);
    return b;
}

static comm_peers *ranks_hold(comm_peers *b)
{
    atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
    return b;
}

const int *comm_peers_ranks(const comm_peers *p)
{
    return p->r;
}

void comm_peers_release(comm_peers *p)
{
    if (p && atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) == 1) g_free(p);
}

static comm_obj *obj_new(comm_ctx *c, uint64_t id, int n, const int *ranks)
{
    comm_obj *o = g_new0(comm_obj, 1);
    o->refcount = 1;
    o->id = id;
    o->n_groups = 1;
    o->size[0] = n;
    o->blk[0] = ranks_new(ranks, n);
    o->even[0] = group_stride(n, ranks, &o->step[0]);
    if (c) c->stats.n_created++;
    return o;
}

/* An intercommunicator: group 0 and group 1 in their local rank orders. */
static comm_obj *obj_new_inter(comm_ctx *c, int n0, const int *r0, int n1, const int *r1)
{
    comm_obj *o = obj_new(c, c->next_id++, n0, r0);
    o->n_groups = 2;
    o->size[1] = n1;
    o->blk[1] = ranks_new(r1, n1);
    o->even[1] = group_stride(n1, r1, &o->step[1]);
    return o;
}

static comm_obj *obj_hold(comm_obj *o)
{
    o->refcount++;
    return o;
}

static void obj_release(comm_obj *o)
{
    if (!o || --o->refcount > 0) return;
    comm_peers_release(o->blk[0]);
    comm_peers_release(o->blk[1]);
    g_free(o->dims);
    g_free(o->place[0]);
    g_free(o->place[1]);
    g_free(o);
}

static int obj_n_members(const comm_obj *o)
{
    return o->size[0] + (o->n_groups == 2 ? o->size[1] : 0);
}

static int obj_member(const comm_obj *o, int pos)
{
    return pos < o->size[0] ? o->blk[0]->r[pos] : o->blk[1]->r[pos - o->size[0]];
}

static comm_ref *ref_new(uint32_t rank, int handle)
{
    comm_ref *r = g_new0(comm_ref, 1);
    r->refcount = 1;
    r->rank = rank;
    r->handle = handle;
    r->state = COMM_REF_PENDING;
    r->local_rank = -1;
    return r;
}

comm_ref *comm_ref_hold(comm_ref *r)
{
    if (r) r->refcount++;
    return r;
}

void comm_ref_release(comm_ref *r)
{
    if (!r || --r->refcount > 0) return;
    obj_release(r->obj);
    g_free(r);
}

/* Bind a resolved object to ref, the ref's own local rank known. */
static void ref_assign_at(comm_ref *r, comm_obj *o, int side, int local_rank)
{
    r->obj = obj_hold(o);
    r->side = side;
    r->state = COMM_REF_RESOLVED;
    r->local_rank = local_rank;
}

/* Groups from this size on find their members through an index. */
#define PLACE_MIN 64

/* The last local rank of world rank `rank` in o's group `side`, or -1.
 * Every member of a new communicator looks itself up once: a scan each
 * was quadratic in the members (a dup of WORLD at 16,384 ranks, 268 M
 * compares), so a large group gets an index while its members are bound,
 * let go once as many have been. */
static int obj_place(comm_obj *o, int side, uint32_t rank)
{
    int n = o->size[side];
    const int *g = o->blk[side]->r;
    int max = -1;
    if (n >= PLACE_MIN && !o->place[side])
        for (int i = 0; i < n; i++) max = MAX(max, g[i]);
    /* An index no larger than a few times the group (its members are
     * world ranks; anything else is scanned). */
    if (n < PLACE_MIN || (!o->place[side] && max / 16 > n)) {
        int at = -1;
        for (int i = 0; i < n; i++)
            if (g[i] == (int)rank) at = i;
        return at;
    }
    if (!o->place[side]) {
        o->n_place[side] = max + 1;
        o->place[side] = g_new(int, (size_t)max + 1);
        for (int i = 0; i <= max; i++) o->place[side][i] = -1;
        for (int i = 0; i < n; i++)
            if (g[i] >= 0) o->place[side][g[i]] = i;
    }
    int at = rank < (uint32_t)o->n_place[side] ? o->place[side][rank] : -1;
    if (++o->n_placed[side] >= n) {
        g_free(o->place[side]);
        o->place[side] = NULL;
        o->n_placed[side] = 0;
    }
    return at;
}

/* Bind a resolved object to ref; finds the ref's own local rank. */
static void ref_assign(comm_ref *r, comm_obj *o, int side)
{
    ref_assign_at(r, o, side, r->local_rank);
    int at = obj_place(o, side, r->rank);
    if (at >= 0) r->local_rank = at;
    if (r->local_rank < 0) r->state = COMM_REF_FAILED; /* the rank is not in its own comm */
}

/* ------------------------------------------------------------ groups */

static group_node *group_new(group_op op)
{
    group_node *g = g_new0(group_node, 1);
    g->refcount = 1;
    g->op = op;
    return g;
}

static group_node *group_hold(group_node *g)
{
    if (g) g->refcount++;
    return g;
}

static void group_unref(group_node *g)
{
    if (!g || --g->refcount > 0) return;
    group_unref(g->a);
    group_unref(g->b);
    comm_ref_release(g->src);
    g_free(g->args);
    g_free(g->ranks);
    g_free(g);
}

static void group_unref_cb(gpointer p)
{
    group_unref(p);
}

static bool list_has(const int *v, int n, int x)
{
    for (int i = 0; i < n; i++)
        if (v[i] == x) return true;
    return false;
}

/* Expand (first, last, stride) triples into positions; false if malformed
 * or out of [0, n) (MPI-3.1 6.3.2 requires both). */
static bool ranges_expand(const int *t, int n_t, int n, GArray *out)
{
    for (int i = 0; i < n_t; i++) {
        int f = t[3 * i], l = t[3 * i + 1], s = t[3 * i + 2];
        if (s == 0 || f < 0 || f >= n || l < 0 || l >= n) return false;
        for (int k = f; s > 0 ? k <= l : k >= l; k += s) g_array_append_val(out, k);
    }
    return true;
}

typedef enum { EVAL_OK, EVAL_PENDING, EVAL_FAILED } eval_result;

/* Evaluate g into a G_LIST if its inputs are known; operands are dropped
 * once evaluated, so a chain of group calls does not pin old nodes. */
static eval_result group_eval(group_node *g)
{
    if (g->failed) return EVAL_FAILED;
    if (g->op == G_LIST) return EVAL_OK;
    GArray *out = g_array_new(FALSE, FALSE, sizeof(int));
    bool ok = true;
    if (g->op == G_COMM) {
        if (g->src->state == COMM_REF_PENDING) {
            g_array_free(out, TRUE);
            return EVAL_PENDING;
        }
        if (g->src->state == COMM_REF_RESOLVED && (!g->remote || g->src->obj->n_groups == 2)) {
            const comm_obj *o = g->src->obj;
            int side = g->remote ? 1 - g->src->side : g->src->side;
            g_array_append_vals(out, o->blk[side]->r, (guint)o->size[side]);
        } else {
            ok = false;
        }
    } else {
        eval_result ra = group_eval(g->a);
        eval_result rb = g->b ? group_eval(g->b) : EVAL_OK;
        if (ra == EVAL_PENDING || rb == EVAL_PENDING) {
            g_array_free(out, TRUE);
            return (ra == EVAL_FAILED || rb == EVAL_FAILED) ? EVAL_FAILED : EVAL_PENDING;
        }
        ok = ra == EVAL_OK && rb == EVAL_OK;
        const int *a = g->a->ranks;
        int na = g->a->n;
        if (ok) {
            switch (g->op) {
            case G_INCL:
                for (int i = 0; i < g->n_args && ok; i++) {
                    ok = g->args[i] >= 0 && g->args[i] < na;
                    if (ok) g_array_append_val(out, a[g->args[i]]);
                }
                break;
            case G_EXCL:
                for (int i = 0; i < na; i++)
                    if (!list_has(g->args, g->n_args, i)) g_array_append_val(out, a[i]);
                break;
            case G_RANGE_INCL:
            case G_RANGE_EXCL: {
                GArray *pos = g_array_new(FALSE, FALSE, sizeof(int));
                ok = ranges_expand(g->args, g->n_args / 3, na, pos);
                const int *p = (const int *)(void *)pos->data;
                if (ok && g->op == G_RANGE_INCL) {
                    for (guint i = 0; i < pos->len; i++) g_array_append_val(out, a[p[i]]);
                } else if (ok) {
                    for (int i = 0; i < na; i++)
                        if (!list_has(p, (int)pos->len, i)) g_array_append_val(out, a[i]);
                }
                g_array_free(pos, TRUE);
                break;
            }
            case G_UNION:
                g_array_append_vals(out, a, (guint)na);
                for (int i = 0; i < g->b->n; i++)
                    if (!list_has(a, na, g->b->ranks[i])) g_array_append_val(out, g->b->ranks[i]);
                break;
            case G_INTERSECTION:
            case G_DIFFERENCE:
                for (int i = 0; i < na; i++)
                    if (list_has(g->b->ranks, g->b->n, a[i]) == (g->op == G_INTERSECTION))
                        g_array_append_val(out, a[i]);
                break;
            default: ok = false;
            }
        }
    }
    group_unref(g->a);
    group_unref(g->b);
    comm_ref_release(g->src);
    g->a = g->b = NULL;
    g->src = NULL;
    if (!ok) {
        g->failed = true;
        g_array_free(out, TRUE);
        return EVAL_FAILED;
    }
    g->op = G_LIST;
    g->n = (int)out->len;
    g->ranks = (int *)(void *)g_array_free(out, FALSE);
    return EVAL_OK;
}

/* ------------------------------------------------------------ context */

static guint pending_key_hash(gconstpointer p)
{
    const pending_key *k = p;
    return (guint)(k->parent_id * 2654435761u) ^ (guint)(k->seq * 40503u);
}

static gboolean pending_key_equal(gconstpointer a, gconstpointer b)
{
    const pending_key *x = a, *y = b;
    return x->parent_id == y->parent_id && x->seq == y->seq;
}

static void contrib_free(contrib *k)
{
    if (!k) return;
    comm_ref_release(k->parent);
    comm_ref_release(k->newref);
    comm_ref_release(k->peer);
    group_unref(k->group);
    g_free(k->ints);
    g_free(k);
}

static void contrib_free_cb(gpointer p)
{
    contrib_free(p);
}

static void pending_free(pending *p)
{
    if (!p) return;
    for (int i = 0; i < p->n_members; i++) contrib_free(p->slot[i]);
    g_free(p->slot);
    obj_release(p->parent);
    g_free(p);
}

static void pending_free_cb(gpointer p)
{
    pending_free(p);
}

static void half_free(half *h)
{
    g_ptr_array_free(h->contribs, TRUE);
    g_free(h->members);
    g_free(h);
}

static void half_free_cb(gpointer p)
{
    half_free(p);
}

static void bind_comm(comm_ctx *c, uint32_t rank, int handle, comm_ref *r)
{
    /* Open MPI hands out a freed id again; a rebind without a free is also
     * seen (same object returned twice), so replace rather than insist. */
    c->n_bindings++;
    comm_ref_release(htab_put(&c->ranks[rank].comms, (uint32_t)handle, r));
}

comm_ctx *comm_ctx_new(uint32_t n_ranks)
{
    if (n_ranks == 0 || n_ranks > (uint32_t)INT32_MAX / 2) return NULL;
    comm_ctx *c = g_new0(comm_ctx, 1);
    c->n_ranks = n_ranks;
    c->ranks = g_new0(rank_state, n_ranks);
    c->next_id = COMM_ID_SELF(n_ranks);
    c->pending = g_hash_table_new_full(pending_key_hash, pending_key_equal, NULL, pending_free_cb);
    c->waiting = g_ptr_array_new_with_free_func(contrib_free_cb);
    c->halves = g_ptr_array_new_with_free_func(half_free_cb);
    c->empty = group_new(G_LIST);
    int *all = g_new(int, n_ranks);
    for (uint32_t i = 0; i < n_ranks; i++) all[i] = (int)i;
    c->world = obj_new(NULL, COMM_ID_WORLD, (int)n_ranks, all);
    g_free(all);
    for (uint32_t i = 0; i < n_ranks; i++) {
        rank_state *rs = &c->ranks[i];
        htab_init(&rs->comms);
        rs->groups = g_hash_table_new_full(NULL, NULL, NULL, group_unref_cb);
        comm_ref *w = ref_new(i, COMM_HANDLE_WORLD);
        /* WORLD's group is the identity: finding each rank in it was
         * quadratic in the ranks. */
        ref_assign_at(w, c->world, 0, (int)i);
        bind_comm(c, i, COMM_HANDLE_WORLD, w);
        int me = (int)i;
        comm_obj *self = obj_new(NULL, COMM_ID_SELF(i), 1, &me);
        comm_ref *s = ref_new(i, COMM_HANDLE_SELF);
        ref_assign(s, self, 0);
        obj_release(self);
        bind_comm(c, i, COMM_HANDLE_SELF, s);
    }
    return c;
}

void comm_ctx_free(comm_ctx *c)
{
    if (!c) return;
    g_hash_table_destroy(c->pending);
    g_ptr_array_free(c->waiting, TRUE);
    g_ptr_array_free(c->halves, TRUE);
    for (uint32_t i = 0; i < c->n_ranks; i++) {
        htab *t = &c->ranks[i].comms;
        for (size_t k = 0; k < htab_capacity(t); k++) comm_ref_release(htab_at(t, k)->val);
        htab_free(t);
        g_hash_table_destroy(c->ranks[i].groups);
    }
    group_unref(c->empty);
    obj_release(c->world);
    g_free(c->ranks);
    g_free(c);
}

uint32_t comm_ctx_n_ranks(const comm_ctx *c)
{
    return c->n_ranks;
}

void comm_ctx_set_resolved_cb(comm_ctx *c, comm_resolved_cb cb, void *user)
{
    c->cb = cb;
    c->cb_user = user;
}

void comm_ctx_stats(const comm_ctx *c, comm_stats *out)
{
    *out = c->stats;
    out->n_pending = c->waiting->len;
    GHashTableIter it;
    gpointer v;
    g_hash_table_iter_init(&it, c->pending);
    while (g_hash_table_iter_next(&it, NULL, &v)) out->n_pending += (uint64_t)((pending *)v)->n_arrived;
    for (guint i = 0; i < c->halves->len; i++)
        out->n_pending += ((half *)g_ptr_array_index(c->halves, i))->contribs->len;
}

/* ------------------------------------------------------------ resolution */

static void pump(comm_ctx *c);

static void notify(comm_ctx *c, comm_ref *r)
{
    c->n_notified++;
    if (c->cb) c->cb(c->cb_user, r);
}

static void fail_contrib(comm_ctx *c, contrib *k)
{
    if (k->newref && k->newref->state == COMM_REF_PENDING) {
        k->newref->state = COMM_REF_FAILED;
        notify(c, k->newref);
    }
}

typedef struct split_item {
    int color, key, pos;
    contrib *k;
} split_item;

static int split_item_cmp(const void *pa, const void *pb)
{
    const split_item *a = pa, *b = pb;
    if (a->color != b->color) return a->color < b->color ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->pos < b->pos ? -1 : (a->pos > b->pos);
}

/* World ranks of the sorted items it[i..j) (split, cart_sub). */
static int *run_ranks(const pending *p, const split_item *it, int i, int j)
{
    int *ranks = g_new(int, j > i ? j - i : 1);
    for (int m = i; m < j; m++) ranks[m - i] = obj_member(p->parent, it[m].pos);
    return ranks;
}

/* Create one communicator per colour run of sorted items (split, cart_sub). */
static void assign_runs(comm_ctx *c, pending *p, split_item *it, int n, int ndims, const int *dims)
{
    if (n > 1) /* it may be NULL when there are none */
        qsort(it, (size_t)n, sizeof *it, split_item_cmp);
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && it[j].color == it[i].color) j++;
        if (it[i].color != COMM_UNDEFINED) {
            int *ranks = run_ranks(p, it, i, j);
            comm_obj *o = obj_new(c, c->next_id++, j - i, ranks);
            g_free(ranks);
            if (ndims > 0) {
                o->ndims = ndims;
                o->dims = g_memdup2(dims, sizeof(int) * (size_t)ndims);
            }
            for (int m = i; m < j; m++)
                if (it[m].k->newref) ref_assign(it[m].k->newref, o, 0);
            obj_release(o);
        }
        i = j;
    }
}

static void resolve_icreate(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    contrib *lead = NULL;
    for (int i = 0; i < p->n_members; i++)
        if (p->slot[i]->local_leader >= 0 && p->slot[i]->local_leader < par->size[0] && i == p->slot[i]->local_leader)
            lead = p->slot[i];
    int rl = lead && lead->peer ? comm_ref_world_rank(lead->peer, lead->remote_leader) : COMM_RANK_INVALID;
    if (par->n_groups != 1 || rl < 0) {
        p->failed = true;
        return;
    }
    half *h = g_new0(half, 1);
    h->leader = par->blk[0]->r[lead->local_leader];
    h->remote_leader = rl;
    h->tag = lead->tag;
    h->n = par->size[0];
    h->members = g_memdup2(par->blk[0]->r, sizeof(int) * (size_t)h->n);
    h->contribs = g_ptr_array_new_with_free_func(contrib_free_cb);
    for (int i = 0; i < p->n_members; i++) {
        g_ptr_array_add(h->contribs, p->slot[i]);
        p->slot[i] = NULL;
    }
    for (guint i = 0; i < c->halves->len; i++) {
        half *o = g_ptr_array_index(c->halves, i);
        if (o->leader == h->remote_leader && o->remote_leader == h->leader && o->tag == h->tag) {
            comm_obj *ob = obj_new_inter(c, o->n, o->members, h->n, h->members);
            for (int side = 0; side < 2; side++) {
                GPtrArray *ks = side == 0 ? o->contribs : h->contribs;
                for (guint m = 0; m < ks->len; m++) {
                    contrib *k = g_ptr_array_index(ks, m);
                    if (k->newref) {
                        ref_assign(k->newref, ob, side);
                        notify(c, k->newref);
                    }
                }
            }
            obj_release(ob);
            g_ptr_array_remove_index(c->halves, i);
            half_free(h);
            return;
        }
    }
    g_ptr_array_add(c->halves, h);
}

/* MPI-3.1 6.4.2, MPI_COMM_SPLIT on an intercommunicator: the members of
 * each side with the same colour form that side's group of a new
 * intercommunicator, ordered by (key, rank in the side's group); a colour
 * used on one side only gives its members MPI_COMM_NULL. Slots list side 0
 * then side 1 (member_pos), so each side is sorted on its own. */
static void resolve_inter_split(comm_ctx *c, pending *p)
{
    int n = p->n_members, n0 = p->parent->size[0];
    split_item *it = g_new(split_item, n);
    for (int i = 0; i < n; i++) it[i] = (split_item){p->slot[i]->color, p->slot[i]->key, i, p->slot[i]};
    if (n0 > 1) qsort(it, (size_t)n0, sizeof *it, split_item_cmp);
    if (n - n0 > 1) qsort(it + n0, (size_t)(n - n0), sizeof *it, split_item_cmp);
    /* Both sides are sorted by colour: walk their runs together. */
    int a = 0, b = n0;
    while (a < n0 && b < n) {
        int ea = a, eb = b;
        while (ea < n0 && it[ea].color == it[a].color) ea++;
        while (eb < n && it[eb].color == it[b].color) eb++;
        if (it[a].color < it[b].color) {
            a = ea;
        } else if (it[a].color > it[b].color) {
            b = eb;
        } else {
            if (it[a].color != COMM_UNDEFINED) {
                int *r0 = run_ranks(p, it, a, ea), *r1 = run_ranks(p, it, b, eb);
                comm_obj *o = obj_new_inter(c, ea - a, r0, eb - b, r1);
                g_free(r0);
                g_free(r1);
                for (int m = a; m < ea; m++)
                    if (it[m].k->newref) ref_assign(it[m].k->newref, o, 0);
                for (int m = b; m < eb; m++)
                    if (it[m].k->newref) ref_assign(it[m].k->newref, o, 1);
                obj_release(o);
            }
            a = ea;
            b = eb;
        }
    }
    g_free(it);
}

/* MPI-3.1 6.4.2, MPI_COMM_CREATE on an intercommunicator: each side passes
 * a subgroup of its own group (the same one on all its members), and the
 * result joins the two subgroups, each in the order its side gave. If
 * either is empty, or a rank is not in its side's subgroup, that rank gets
 * MPI_COMM_NULL. */
static void resolve_inter_create(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    group_node *sg[2] = {NULL, NULL};
    for (int i = 0; i < p->n_members; i++) {
        group_node *g = p->slot[i]->group;
        int s = i < par->size[0] ? 0 : 1;
        if (!g || group_eval(g) != EVAL_OK) continue; /* its rank stays PENDING, failed by the caller */
        if (!sg[s]) {
            sg[s] = g;
        } else if (sg[s]->n != g->n || (g->n && memcmp(sg[s]->ranks, g->ranks, sizeof(int) * (size_t)g->n) != 0)) {
            p->failed = true; /* one side disagrees on its subgroup */
            return;
        }
    }
    for (int s = 0; s < 2; s++) {
        if (!sg[s] || sg[s]->n == 0) return;
        for (int m = 0; m < sg[s]->n; m++)
            if (!list_has(par->blk[s]->r, par->size[s], sg[s]->ranks[m])) {
                p->failed = true; /* not a subgroup of that side */
                return;
            }
    }
    comm_obj *o = obj_new_inter(c, sg[0]->n, sg[0]->ranks, sg[1]->n, sg[1]->ranks);
    for (int i = 0; i < p->n_members; i++)
        if (p->slot[i]->newref) ref_assign(p->slot[i]->newref, o, i < par->size[0] ? 0 : 1);
    obj_release(o);
}

/* MPI_Comm_dup: the parent's groups (both for an intercommunicator) and
 * topology. */
static void resolve_dup(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    comm_obj *o = obj_new(c, c->next_id++, par->size[0], par->blk[0]->r);
    if (par->n_groups == 2) {
        o->n_groups = 2;
        o->size[1] = par->size[1];
        o->blk[1] = ranks_hold(par->blk[1]);
        o->even[1] = par->even[1];
        o->step[1] = par->step[1];
    }
    if (par->ndims) {
        o->ndims = par->ndims;
        o->dims = g_memdup2(par->dims, sizeof(int) * (size_t)par->ndims);
    }
    for (int i = 0; i < p->n_members; i++)
        if (p->slot[i]->newref) ref_assign(p->slot[i]->newref, o, p->slot[i]->parent->side);
    obj_release(o);
}

/* MPI-3.1 6.4.2, MPI_COMM_SPLIT: ordered by key, ties by rank in the
 * parent. */
static void resolve_split(comm_ctx *c, pending *p)
{
    if (p->parent->n_groups == 2) {
        resolve_inter_split(c, p);
        return;
    }
    int n = p->n_members;
    split_item *it = g_new(split_item, n);
    for (int i = 0; i < n; i++) it[i] = (split_item){p->slot[i]->color, p->slot[i]->key, i, p->slot[i]};
    assign_runs(c, p, it, n, 0, NULL);
    g_free(it);
}

/* MPI_Comm_create: each distinct group becomes one communicator (MPI-3
 * allows disjoint groups; MPI-2 callers all pass the same one). */
static void resolve_create(comm_ctx *c, pending *p)
{
    if (p->parent->n_groups == 2) {
        resolve_inter_create(c, p);
        return;
    }
    GPtrArray *made = g_ptr_array_new();
    for (int i = 0; i < p->n_members; i++) {
        contrib *k = p->slot[i];
        if (!k->newref) continue;
        if (!k->group || group_eval(k->group) != EVAL_OK) continue; /* left PENDING, failed by the caller */
        comm_obj *o = NULL;
        for (guint m = 0; m < made->len && !o; m++) {
            comm_obj *x = g_ptr_array_index(made, m);
            if (x->size[0] == k->group->n &&
                (!x->size[0] || memcmp(x->blk[0]->r, k->group->ranks, sizeof(int) * (size_t)x->size[0]) == 0))
                o = x;
        }
        if (!o) {
            o = obj_new(c, c->next_id++, k->group->n, k->group->ranks);
            g_ptr_array_add(made, o);
        }
        ref_assign(k->newref, o, 0);
    }
    for (guint m = 0; m < made->len; m++) obj_release(g_ptr_array_index(made, m));
    g_ptr_array_free(made, TRUE);
}

/* MPI_Cart_create, MPI_Graph_create: members are the first prod(dims) /
 * nnodes parent ranks. */
static void resolve_topology(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    int n = p->n_members;
    int want = -1, ndims = 0;
    const int *dims = NULL;
    for (int i = 0; i < n && want < 0; i++) {
        contrib *k = p->slot[i];
        if (p->kind == CK_GRAPH) {
            want = k->color;
        } else {
            long prod = 1;
            for (int d = 0; d < k->n_ints && prod <= par->size[0]; d++) prod *= k->ints[d] > 0 ? k->ints[d] : 1;
            want = (int)(prod <= par->size[0] ? prod : par->size[0] + 1);
            ndims = k->n_ints;
            dims = k->ints;
        }
    }
    if (par->n_groups != 1 || want <= 0 || want > par->size[0]) {
        p->failed = true;
        return;
    }
    comm_obj *o = obj_new(c, c->next_id++, want, par->blk[0]->r);
    if (ndims > 0) {
        o->ndims = ndims;
        o->dims = g_memdup2(dims, sizeof(int) * (size_t)ndims);
    }
    for (int i = 0; i < n; i++)
        if (p->slot[i]->newref) ref_assign(p->slot[i]->newref, o, 0);
    obj_release(o);
}

/* MPI-3.1 7.5.7, MPI_Cart_sub: one subgrid per value of the dropped
 * coordinates; row-major order keeps parent order within a subgrid. */
static void resolve_cart_sub(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    int n = p->n_members;
    const contrib *k0 = p->slot[0];
    if (par->ndims <= 0 || k0->n_ints != par->ndims) {
        p->failed = true;
        return;
    }
    int *kept = g_new(int, par->ndims);
    int n_kept = 0;
    for (int d = 0; d < par->ndims; d++)
        if (k0->ints[d]) kept[n_kept++] = par->dims[d];
    split_item *it = g_new(split_item, n);
    for (int i = 0; i < n; i++) {
        int rest = i, color = 0, mul = 1;
        for (int d = par->ndims - 1; d >= 0; d--) {
            int coord = rest % par->dims[d];
            rest /= par->dims[d];
            if (!k0->ints[d]) {
                color += coord * mul;
                mul *= par->dims[d];
            }
        }
        it[i] = (split_item){color, 0, i, p->slot[i]};
    }
    assign_runs(c, p, it, n, n_kept, kept);
    g_free(it);
    g_free(kept);
}

/* MPI-3.1 6.6.2, MPI_Intercomm_merge: the group that passed high = false
 * comes first. Equal values leave the order to the implementation; Open MPI
 * (ompi_comm_determine_first) puts first the group whose local rank 0 has
 * the lower process name, i.e. the lower world rank in one job, and it takes
 * each side's value from its local rank 0 (MPI requires one value per
 * group). */
static void resolve_imerge(comm_ctx *c, pending *p)
{
    const comm_obj *par = p->parent;
    if (par->n_groups != 2) {
        p->failed = true; /* MPI_Intercomm_merge needs an intercomm */
        return;
    }
    int high0 = p->slot[0]->color != 0, high1 = p->slot[par->size[0]]->color != 0;
    int first = high0 != high1 ? high0 : par->blk[1]->r[0] < par->blk[0]->r[0];
    int total = obj_n_members(par);
    int *ranks = g_new(int, total);
    int m = 0;
    for (int g = 0; g < par->n_groups; g++) {
        int s = (first + g) % par->n_groups;
        if (par->size[s]) memcpy(ranks + m, par->blk[s]->r, sizeof(int) * (size_t)par->size[s]);
        m += par->size[s];
    }
    comm_obj *o = obj_new(c, c->next_id++, total, ranks);
    g_free(ranks);
    for (int i = 0; i < p->n_members; i++)
        if (p->slot[i]->newref) ref_assign(p->slot[i]->newref, o, 0);
    obj_release(o);
}

/* One resolver per kind of creation call: each makes the new
 * communicators and assigns the members' refs, or sets p->failed. */
static void (*const resolvers[])(comm_ctx *c, pending *p) = {
    [CK_DUP] = resolve_dup,         [CK_SPLIT] = resolve_split,       [CK_CREATE] = resolve_create,
    [CK_CART] = resolve_topology,   [CK_CART_SUB] = resolve_cart_sub, [CK_GRAPH] = resolve_topology,
    [CK_ICREATE] = resolve_icreate, [CK_IMERGE] = resolve_imerge,
};

/* All members reported creation call p: compute the new communicators. */
static void resolve(comm_ctx *c, pending *p)
{
    if (!p->failed) resolvers[p->kind](c, p);
    if (p->kind == CK_ICREATE && !p->failed) return; /* refs are assigned when the other half arrives */
    if (p->failed) c->stats.n_failed++;
    for (int i = 0; i < p->n_members; i++) {
        contrib *k = p->slot[i];
        if (k && k->newref) {
            if (k->newref->state == COMM_REF_PENDING) k->newref->state = COMM_REF_FAILED;
            notify(c, k->newref);
        }
    }
}

/* Position of k's rank among the parent's members (both groups for an
 * intercommunicator), used as the slot index. */
static int member_pos(const contrib *k)
{
    const comm_ref *r = k->parent;
    return r->side == 0 ? r->local_rank : r->obj->size[0] + r->local_rank;
}

static void submit(comm_ctx *c, contrib *k)
{
    if (k->parent->state != COMM_REF_RESOLVED) {
        fail_contrib(c, k);
        contrib_free(k);
        return;
    }
    comm_obj *par = k->parent->obj;
    pending_key key = {par->id, k->seq};
    pending *p = g_hash_table_lookup(c->pending, &key);
    if (!p) {
        p = g_new0(pending, 1);
        p->key = key;
        p->kind = k->kind;
        p->parent = obj_hold(par);
        /* intercomm_create is collective over the local group only. */
        p->n_members = k->kind == CK_ICREATE ? par->size[k->parent->side] : obj_n_members(par);
        p->slot = g_new0(contrib *, p->n_members);
        g_hash_table_insert(c->pending, &p->key, p);
    }
    int pos = k->kind == CK_ICREATE ? k->parent->local_rank : member_pos(k);
    if (p->kind != k->kind || pos < 0 || pos >= p->n_members || p->slot[pos]) {
        /* Members disagree on what the n-th creation call was. */
        p->failed = true;
        fail_contrib(c, k);
        contrib_free(k);
        return;
    }
    p->slot[pos] = k;
    if (++p->n_arrived < p->n_members) return;
    g_hash_table_steal(c->pending, &p->key);
    resolve(c, p);
    pending_free(p);
    pump(c);
}

/* Submit waiting contributions whose parent has left PENDING; a resolution
 * can unblock further ones (a split of a not yet resolved dup). */
static void pump(comm_ctx *c)
{
    bool progress = true;
    while (progress) {
        progress = false;
        for (guint i = 0; i < c->waiting->len; i++) {
            contrib *k = g_ptr_array_index(c->waiting, i);
            if (k->parent->state != COMM_REF_PENDING) {
                /* submit() may pump again and change the array: rescan. */
                g_ptr_array_steal_index(c->waiting, i);
                submit(c, k);
                progress = true;
                break;
            }
        }
    }
}

/* ------------------------------------------------------------ events */

static bool rank_ok(const comm_ctx *c, uint32_t rank)
{
    return c && rank < c->n_ranks;
}

comm_ref *comm_ref_lookup(comm_ctx *c, uint32_t rank, int comm)
{
    if (!rank_ok(c, rank)) return NULL;
    return htab_get(&c->ranks[rank].comms, (uint32_t)comm);
}

uint64_t comm_ctx_settled(const comm_ctx *c)
{
    return c->n_notified;
}

uint64_t comm_ctx_bindings(const comm_ctx *c)
{
    return c->n_bindings;
}

/* Common start of every creation record: the contribution with its parent,
 * sequence number and new (pending) ref bound to newcomm. */
static contrib *contrib_begin(comm_ctx *c, uint32_t rank, create_kind kind, int comm, int newcomm)
{
    /* Hold the parent before binding newcomm, in case a trace reuses the
     * parent's id for the result. */
    comm_ref *parent = comm_ref_hold(comm_ref_lookup(c, rank, comm));
    comm_ref *nr = NULL;
    if (newcomm != COMM_HANDLE_NULL) {
        nr = ref_new(rank, newcomm);
        bind_comm(c, rank, newcomm, nr);
    }
    if (!parent) {
        c->stats.n_unknown_handle++;
        if (nr) {
            nr->state = COMM_REF_FAILED;
            notify(c, nr);
        }
        return NULL;
    }
    contrib *k = g_new0(contrib, 1);
    k->kind = kind;
    k->rank = rank;
    k->parent = parent;
    k->seq = parent->n_created++;
    k->newref = comm_ref_hold(nr);
    return k;
}

static void contrib_end(comm_ctx *c, contrib *k)
{
    if (!k) return;
    if (k->parent->state == COMM_REF_PENDING) {
        g_ptr_array_add(c->waiting, k);
        return;
    }
    submit(c, k);
}

slog_status comm_record_dup(comm_ctx *c, uint32_t rank, int comm, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib_end(c, contrib_begin(c, rank, CK_DUP, comm, newcomm));
    return SLOG_OK;
}

slog_status comm_record_split(comm_ctx *c, uint32_t rank, int comm, int color, int key, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_SPLIT, comm, newcomm);
    if (k) {
        k->color = color < 0 ? COMM_UNDEFINED : color;
        k->key = key;
    }
    contrib_end(c, k);
    return SLOG_OK;
}

static group_node *group_lookup(comm_ctx *c, uint32_t rank, int group)
{
    if (group == GROUP_HANDLE_EMPTY) return c->empty;
    return g_hash_table_lookup(c->ranks[rank].groups, GINT_TO_POINTER(group));
}

slog_status comm_record_create(comm_ctx *c, uint32_t rank, int comm, int group, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_CREATE, comm, newcomm);
    if (k) {
        k->group = group_hold(group_lookup(c, rank, group));
        if (!k->group && newcomm != COMM_HANDLE_NULL) c->stats.n_unknown_handle++;
    }
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_cart_create(comm_ctx *c, uint32_t rank, int comm, int ndims, const int *dims, int newcomm)
{
    if (!rank_ok(c, rank) || ndims < 0 || (ndims > 0 && !dims)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_CART, comm, newcomm);
    if (k) {
        k->n_ints = ndims;
        k->ints = ndims ? g_memdup2(dims, sizeof(int) * (size_t)ndims) : NULL;
    }
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_cart_sub(comm_ctx *c, uint32_t rank, int comm, int ndims, const int *remain_dims, int newcomm)
{
    if (!rank_ok(c, rank) || ndims < 0 || (ndims > 0 && !remain_dims)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_CART_SUB, comm, newcomm);
    if (k) {
        k->n_ints = ndims;
        k->ints = ndims ? g_memdup2(remain_dims, sizeof(int) * (size_t)ndims) : NULL;
    }
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_graph_create(comm_ctx *c, uint32_t rank, int comm, int nnodes, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_GRAPH, comm, newcomm);
    if (k) k->color = nnodes;
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_intercomm_create(comm_ctx *c, uint32_t rank, int local_comm, int local_leader, int peer_comm,
                                         int remote_leader, int tag, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_ICREATE, local_comm, newcomm);
    if (k) {
        k->local_leader = local_leader;
        k->remote_leader = remote_leader;
        k->tag = tag;
        k->peer = comm_ref_hold(comm_ref_lookup(c, rank, peer_comm));
    }
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_intercomm_merge(comm_ctx *c, uint32_t rank, int intercomm, int high, int newcomm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    contrib *k = contrib_begin(c, rank, CK_IMERGE, intercomm, newcomm);
    if (k) k->color = high != 0;
    contrib_end(c, k);
    return SLOG_OK;
}

slog_status comm_record_free(comm_ctx *c, uint32_t rank, int comm)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    /* Predefined communicators cannot be freed (MPI-3.1 6.4.3). */
    if (comm == COMM_HANDLE_WORLD || comm == COMM_HANDLE_SELF) return SLOG_OK;
    c->n_bindings++;
    comm_ref *old = htab_remove(&c->ranks[rank].comms, (uint32_t)comm);
    if (old)
        comm_ref_release(old);
    else
        c->stats.n_unknown_handle++;
    return SLOG_OK;
}

static slog_status group_bind(comm_ctx *c, uint32_t rank, int newgroup, group_node *g)
{
    group_eval(g); /* eager when possible, so operands are released early */
    if (newgroup == GROUP_HANDLE_NULL || newgroup == GROUP_HANDLE_EMPTY)
        group_unref(g);
    else
        g_hash_table_replace(c->ranks[rank].groups, GINT_TO_POINTER(newgroup), g);
    return SLOG_OK;
}

static slog_status comm_group_of(comm_ctx *c, uint32_t rank, int comm, bool remote, int newgroup)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    comm_ref *r = comm_ref_lookup(c, rank, comm);
    group_node *g = group_new(G_COMM);
    g->remote = remote;
    if (r)
        g->src = comm_ref_hold(r);
    else {
        c->stats.n_unknown_handle++;
        g->failed = true;
    }
    return group_bind(c, rank, newgroup, g);
}

slog_status comm_record_comm_group(comm_ctx *c, uint32_t rank, int comm, int newgroup)
{
    return comm_group_of(c, rank, comm, false, newgroup);
}

slog_status comm_record_comm_remote_group(comm_ctx *c, uint32_t rank, int comm, int newgroup)
{
    return comm_group_of(c, rank, comm, true, newgroup);
}

static slog_status group_unary(comm_ctx *c, uint32_t rank, group_op op, int group, int n, const int *args, int n_args,
                               int newgroup)
{
    if (!rank_ok(c, rank) || n < 0 || (n_args > 0 && !args)) return SLOG_ERR_ARG;
    group_node *g = group_new(op);
    g->a = group_hold(group_lookup(c, rank, group));
    if (!g->a) {
        c->stats.n_unknown_handle++;
        g->failed = true;
    }
    g->n_args = n_args;
    g->args = n_args ? g_memdup2(args, sizeof(int) * (size_t)n_args) : NULL;
    return group_bind(c, rank, newgroup, g);
}

slog_status comm_record_group_incl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranks, int newgroup)
{
    return group_unary(c, rank, G_INCL, group, n, ranks, n, newgroup);
}

slog_status comm_record_group_excl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranks, int newgroup)
{
    return group_unary(c, rank, G_EXCL, group, n, ranks, n, newgroup);
}

slog_status comm_record_group_range_incl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranges, int newgroup)
{
    if (n > INT32_MAX / 3) return SLOG_ERR_ARG;
    return group_unary(c, rank, G_RANGE_INCL, group, n, ranges, 3 * n, newgroup);
}

slog_status comm_record_group_range_excl(comm_ctx *c, uint32_t rank, int group, int n, const int *ranges, int newgroup)
{
    if (n > INT32_MAX / 3) return SLOG_ERR_ARG;
    return group_unary(c, rank, G_RANGE_EXCL, group, n, ranges, 3 * n, newgroup);
}

static slog_status group_binary(comm_ctx *c, uint32_t rank, group_op op, int g1, int g2, int newgroup)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    group_node *g = group_new(op);
    g->a = group_hold(group_lookup(c, rank, g1));
    g->b = group_hold(group_lookup(c, rank, g2));
    if (!g->a || !g->b) {
        c->stats.n_unknown_handle++;
        g->failed = true;
    }
    return group_bind(c, rank, newgroup, g);
}

slog_status comm_record_group_union(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup)
{
    return group_binary(c, rank, G_UNION, group1, group2, newgroup);
}

slog_status comm_record_group_intersection(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup)
{
    return group_binary(c, rank, G_INTERSECTION, group1, group2, newgroup);
}

slog_status comm_record_group_difference(comm_ctx *c, uint32_t rank, int group1, int group2, int newgroup)
{
    return group_binary(c, rank, G_DIFFERENCE, group1, group2, newgroup);
}

slog_status comm_record_group_free(comm_ctx *c, uint32_t rank, int group)
{
    if (!rank_ok(c, rank)) return SLOG_ERR_ARG;
    /* The same id may be freed twice when Open MPI returned one group object
     * for two calls (traces: Comm_group on WORLD and on its dup give 3). */
    g_hash_table_remove(c->ranks[rank].groups, GINT_TO_POINTER(group));
    return SLOG_OK;
}

/* ------------------------------------------------------------ queries */

/* The group of r's object its peers are in: the remote one of an
 * intercommunicator. */
static int peer_side(const comm_ref *r)
{
    return r->obj->n_groups == 2 ? 1 - r->side : 0;
}

int comm_ref_world_rank(const comm_ref *r, int local_rank)
{
    if (local_rank == COMM_PROC_NULL) return COMM_RANK_PROC_NULL;
    if (!r || r->state == COMM_REF_FAILED) return COMM_RANK_INVALID;
    if (r->state == COMM_REF_PENDING) return COMM_RANK_UNRESOLVED;
    int g = peer_side(r);
    if (local_rank < 0 || local_rank >= r->obj->size[g]) return COMM_RANK_INVALID;
    return r->obj->blk[g]->r[local_rank];
}

int comm_world_rank(const comm_ctx *c, uint32_t rank, int comm, int local_rank)
{
    if (local_rank == COMM_PROC_NULL) return COMM_RANK_PROC_NULL;
    return comm_ref_world_rank(comm_ref_lookup((comm_ctx *)c, rank, comm), local_rank);
}

static group_node *group_query(comm_ctx *c, uint32_t rank, int group, int *err)
{
    group_node *g = rank_ok(c, rank) ? group_lookup(c, rank, group) : NULL;
    eval_result e = g ? group_eval(g) : EVAL_FAILED;
    *err = e == EVAL_PENDING ? COMM_RANK_UNRESOLVED : COMM_RANK_INVALID;
    return e == EVAL_OK ? g : NULL;
}

int comm_group_size(comm_ctx *c, uint32_t rank, int group)
{
    int err;
    group_node *g = group_query(c, rank, group, &err);
    return g ? g->n : err;
}

int comm_group_world_rank(comm_ctx *c, uint32_t rank, int group, int i)
{
    int err;
    group_node *g = group_query(c, rank, group, &err);
    if (!g) return err;
    return i >= 0 && i < g->n ? g->ranks[i] : COMM_RANK_INVALID;
}

comm_ref_state comm_ref_get_state(const comm_ref *r)
{
    return r->state;
}

void *comm_ref_user(const comm_ref *r)
{
    return r->user;
}

void comm_ref_set_user(comm_ref *r, void *p)
{
    r->user = p;
}

uint32_t comm_ref_rank(const comm_ref *r)
{
    return r->rank;
}

int comm_ref_handle(const comm_ref *r)
{
    return r->handle;
}

uint64_t comm_ref_id(const comm_ref *r)
{
    return r->state == COMM_REF_RESOLVED ? r->obj->id : UINT64_MAX;
}

int comm_ref_peer_size(const comm_ref *r)
{
    if (r->state != COMM_REF_RESOLVED) return -1;
    return r->obj->size[peer_side(r)];
}

const int *comm_ref_peers(const comm_ref *r)
{
    if (r->state != COMM_REF_RESOLVED) return NULL;
    return r->obj->blk[peer_side(r)]->r;
}

comm_peers *comm_ref_peers_hold(const comm_ref *r)
{
    if (r->state != COMM_REF_RESOLVED) return NULL;
    return ranks_hold(r->obj->blk[peer_side(r)]);
}

int comm_ref_local_rank(const comm_ref *r)
{
    return r->state == COMM_REF_RESOLVED ? r->local_rank : -1;
}

int comm_ref_run(const comm_ref *r)
{
    if (r->state != COMM_REF_RESOLVED) return -1;
    /* consecutive world ranks in order: a group stepping by 1 (or of one) */
    const comm_obj *o = r->obj;
    int g = peer_side(r);
    return o->size[g] > 0 && o->even[g] && (o->size[g] == 1 || o->step[g] == 1) ? o->blk[g]->r[0] : -1;
}

bool comm_ref_stride(const comm_ref *r, int32_t *step)
{
    if (r->state != COMM_REF_RESOLVED) return false;
    int g = peer_side(r);
    *step = r->obj->step[g];
    return r->obj->even[g];
}

int comm_ref_size(const comm_ref *r)
{
    return r->state == COMM_REF_RESOLVED ? r->obj->size[r->side] : -1;
}

bool comm_ref_is_inter(const comm_ref *r)
{
    return r->state == COMM_REF_RESOLVED && r->obj->n_groups == 2;
}
