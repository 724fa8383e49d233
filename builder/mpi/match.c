/* SPDX-License-Identifier: MIT */
/* match.c - point-to-point message matching (see match.h, docs/MATCHING.md).
 *
 * Where an operation lives:
 *   inst->recvs     receives posted on one communicator instance, in posting
 *                   order, until their envelope is final (see inst_release);
 *   inst->deferred  sends and released receives of an instance whose
 *                   communicator is not resolved yet, in posting order;
 *   chan->sends/recvs  FIFOs of one exact envelope (comm id, src, dst, tag).
 * Every op records its queue and list link so it can be removed in O(1)
 * (cancel, request free). Completed, unmatched receives also sit in a
 * min-heap on completion time for match_low_watermark().
 *
 * A wildcard receive completed without a status ("inferred" below) has no
 * envelope of its own: it picks a channel among those of its destination.
 * A dgroup, one per (comm id, destination world rank), lists those channels
 * and counts the inferred receives waiting for a first candidate send, so
 * placing or waking one costs O(channels of that destination), never a scan
 * of every channel or instance.
 */
#include "match.h"

#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "htab.h"
#include "reqtab.h"

typedef enum op_kind { OP_SEND, OP_RECV } op_kind;

struct inst;
struct chan;

/* An intrusive FIFO of ops: every op is in at most one queue, so the links
 * live in the op and queueing allocates nothing (GQueue made a GList node
 * per push, a fifth of the matching time). */
typedef struct oq {
    struct mop *head, *tail;
} oq;

typedef struct mop {
    op_kind kind;
    uint32_t rank;   /* poster */
    uint32_t thread; /* send: sender's thread; recv: completing thread */
    int heap_idx;    /* -1 when not in the heap (here, it fills a hole:
                        * the op stays two cache lines, which op_new clears) */
    int64_t time;    /* send: start; recv: completion */
    int64_t bytes;
    int comm;                  /* handle on the poster */
    int peer;                  /* send: dest; recv: source pattern (comm-local) */
    int tag;                   /* send: tag; recv: tag pattern */
    bool completed;            /* recv */
    bool phantom;              /* recv that took a message but has no completion */
    bool live;                 /* false once freed (on free_mops) */
    bool inferred;             /* recv completed without a status while wildcard */
    bool unresolved;           /* inferred and no channel chosen yet */
    bool waiting;              /* unresolved and counted in its dgroup's n_waiting */
    bool cancel_asked;         /* recv: MPI_Cancel was called on it */
    int st_source, st_tag;     /* recv envelope once completed (comm-local); an
                            * inferred recv keeps its pattern here, as it joins
                            * the chosen channel directly */
    int32_t req_id;            /* its request's id on its rank while it has
                                * one (req_cur), else MATCH_NO_REQUEST; with
                                * live and rank in the first cache line, all
                                * that req_cur reads */
    uint64_t seq;              /* heap tie-break */
    struct inst *inst;         /* held while in inst->recvs / inst->deferred */
    struct oq *where;          /* queue holding it */
    struct mop *qprev, *qnext; /* links in that queue */
    struct chan *chan;         /* when in a channel */
} mop;
_Static_assert(sizeof(mop) <= 128 && offsetof(mop, req_id) + sizeof(int32_t) <= 64,
               "an op is two cache lines, what req_cur reads in the first");

/* Ops, channels and instances are blocks of a pool, cache-line aligned:
 * from malloc, 16-byte aligned, the first 64 bytes of an instance or a
 * channel (all that most operations read of it) straddled two lines as
 * often as not, and an op took three. With thousands of ranks each is a
 * cache miss. Blocks given back stay in the pool until the context goes. */
#define POOL_CHUNK 16384u

typedef struct pool {
    size_t size; /* of a block: a multiple of 64 */
    void *free;  /* blocks given back, linked through their first word */
    char *cur, *end;
    GPtrArray *chunks;
} pool;

static void pool_init(pool *p, size_t size)
{
    p->size = (size + 63) & ~(size_t)63;
    p->free = NULL;
    p->cur = p->end = NULL;
    p->chunks = g_ptr_array_new_with_free_func(free);
}

static void pool_free(pool *p)
{
    g_ptr_array_free(p->chunks, TRUE);
}

/* A block, zeroed. */
static void *pool_get(pool *p)
{
    void *b = p->free;
    if (b) {
        p->free = *(void **)b;
    } else {
        if (p->cur == p->end) {
            p->cur = aligned_alloc(64, POOL_CHUNK);
            if (!p->cur) g_error("slog2-build: out of memory (matching)");
            g_ptr_array_add(p->chunks, p->cur);
            p->end = p->cur + POOL_CHUNK / p->size * p->size;
        }
        b = p->cur;
        p->cur += p->size;
    }
    return memset(b, 0, p->size);
}

static void pool_put(pool *p, void *b)
{
    *(void **)b = p->free;
    p->free = b;
}

/* Channels an instance used last, per op kind, in a small direct-mapped
 * cache on (peer, tag): a rank posts to a few peers on a few tags over and
 * over, and finding the channel in the table (hashing its four-part key)
 * was a thirtieth of the writer thread's time. The slot mixes peer and
 * tag: indexed by peer modulo 8, a rank's north and south neighbours on a
 * grid (rank -/+ a multiple of 8) evicted each other on every message, and
 * each miss was a cache miss or two in the table. The peer is the
 * comm-local one, as posted: the slot is then known before the peer's
 * world rank is read. */
#define INST_CHANS 16

static inline uint32_t near_slot(int local, int tag)
{
    uint32_t h = (uint32_t)local * 0x9e3779b1u ^ (uint32_t)tag * 0x85ebca6bu;
    return (h ^ (h >> 16)) & (INST_CHANS - 1);
}

/* A rank's instance of a communicator. Its first 64 bytes hold what every
 * operation on it reads: the ref's state, id and peer group copied
 * (inst_sync) so the ref itself is not read, the posted receives and how
 * it finds its channels. */
typedef struct inst {
    comm_ref *ref;
    uint64_t id;       /* comm_ref_id(ref) */
    const int *peers;  /* resolved: world ranks by peer rank (the remote
                         * group of an intercommunicator) */
    int n_peers;       /* their number; 0 unless resolved */
    uint8_t state;     /* comm_ref_get_state(ref) */
    bool used;         /* posted on since the last sweep */
    bool owning;       /* own has been started: to_channel looks there */
    uint32_t n_near;   /* lookups in near (to_channel) */
    uint32_t n_missed; /* those near missed (inst_chan): on the line both
                        * are read from, so that counting costs no miss */
    oq recvs;
    int run; /* resolved with peers[i] = run + i, not read: comm_ref_run() */
    oq deferred;
    uint64_t seq;                     /* creation order: finish drains in it */
    htab own;                         /* own_key() -> chan*: every channel it met, once
                                       * near missed often (inst_chan); cleared by chan_sweep */
    struct chan *last[2];             /* with own: the channel of its last op of each
                                       * kind (to_channel); cleared by chan_sweep */
    struct chan *near[2][INST_CHANS]; /* [op_kind][near_slot()]; cleared by chan_sweep */
} inst;
_Static_assert(offsetof(inst, recvs) + sizeof(oq) <= 64 && offsetof(inst, deferred) == 64,
               "what an operation reads of an instance comes first");

/* The matcher's record of a rank: its requests, and the instances of the
 * two handles it used last (hashing the handle in the rank's table, then
 * reading the ref, were two or three cache misses an operation). They
 * stand while epoch equals inst_epoch(): no handle of any rank was bound
 * or freed and no sweep freed an instance since they were noted. */
typedef struct mrank {
    _Alignas(64) reqtab reqs;
    uint64_t epoch;
    struct inst *inst[2];
    int handle[2];
} mrank;
_Static_assert(sizeof(mrank) == 256 && offsetof(mrank, epoch) >= 192, "a rank's record is four cache lines");

typedef struct chan_key {
    uint64_t comm_id;
    int32_t src, dst, tag;
} chan_key;

typedef struct chan {
    chan_key key;
    bool used; /* an op joined it since the last sweep */
    oq sends;
    oq recvs;
    struct chan *next_same;     /* next channel with the same key hash */
    struct dgroup *dg;          /* its (comm id, dst) group */
    struct chan *dprev, *dnext; /* links in dg->chans */
    struct chan *succ[2];       /* [op_kind]: the channel of the op that came after
                                 * one in this channel, on the instance that posts
                                 * that kind here (to_channel); cleared by chan_sweep */
} chan;
_Static_assert(offsetof(chan, next_same) == 64, "what pairing reads of a channel is its first cache line");

/* The channels to one destination on one communicator, and the inferred
 * receives there that wait for a send (all on the one instance a rank has
 * of a communicator, waiting_in). */
typedef struct dgroup {
    uint64_t comm_id;
    uint32_t dst;
    chan *chans;
    inst *waiting_in; /* valid while n_waiting > 0 */
    uint32_t n_waiting;
    struct dgroup *next_same; /* next group with the same key hash */
} dgroup;

struct match_ctx {
    comm_ctx *comms;
    uint32_t n_ranks; /* comm_ctx_n_ranks(comms), fixed */
    match_arrow_cb cb;
    void *user;
    htab insts;            /* comm_ref* -> inst* */
    htab chans;            /* chan_hash(key) -> chan* chained by next_same */
    size_t n_chans;        /* channels in chans (a hash may hold several) */
    htab dgroups;          /* dgroup_hash -> dgroup* chained by next_same */
    bool dg_on;            /* channels are linked into dgroups (dgroup_index) */
    size_t n_waiting;      /* inferred receives waiting for a send */
    mrank *ranks;          /* per rank: requests, last instances */
    GArray *inits;         /* match_post: persistent requests' envelopes */
    GArray *free_inits;    /* uint32_t: indexes of inits free again */
    GPtrArray *heap;       /* mop* min-heap on (time, seq) */
    GHashTable *unmatched; /* match_unmatched* (count = value) */
    GArray *list;          /* built by match_finish */
    uint64_t next_seq, next_inst_seq;
    bool stopped, finished;
    size_t chan_limit, inst_limit; /* sweep empties when a table grows past these */
    uint64_t n_inst_sweeps;        /* sweeps that freed instances (inst_epoch) */
    mop **free_mops;               /* recycled ops, a stack: one is made per MPI message side */
    size_t n_free_mops, cap_free_mops;
    pool mops, chan_pool, inst_pool;
    match_stats stats;
};

/* Empty channels and instances are not freed at once: a message pattern
 * creates and empties the same channel for every message, and freeing and
 * re-creating it was most of the matching time. They are swept in bulk
 * when a table grows past its limit, only at API entry (ok()), so
 * no internal caller ever holds a pointer to something swept. A sweep
 * frees only what is empty and was not used since the sweep before: with
 * more ranks than the floor below, the live world channels and instances
 * alone outgrow it, and freeing them because they were empty at that
 * instant re-created them at once, over and over. The limit
 * doubles with what survives a sweep, so memory stays proportional to
 * operations in flight and sweeps stay amortised O(1). The floor is low:
 * a program that splits a communicator per iteration leaves that
 * iteration's channels empty, and letting tens of thousands of them pile
 * up made every channel lookup a cache miss. */
#define SWEEP_MIN_CHANS 1024u
#define SWEEP_MIN_INSTS 1024u

/* ------------------------------------------------------------ heap */

static bool heap_less(const mop *a, const mop *b)
{
    return a->time != b->time ? a->time < b->time : a->seq < b->seq;
}

static void heap_set(match_ctx *m, guint i, mop *o)
{
    m->heap->pdata[i] = o;
    o->heap_idx = (int)i;
}

static void heap_sift(match_ctx *m, guint i)
{
    GPtrArray *h = m->heap;
    mop *o = h->pdata[i];
    while (i > 0 && heap_less(o, h->pdata[(i - 1) / 2])) {
        heap_set(m, i, h->pdata[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    for (;;) {
        guint l = 2 * i + 1, s = i;
        mop *best = o;
        if (l < h->len && heap_less(h->pdata[l], best)) s = l, best = h->pdata[l];
        if (l + 1 < h->len && heap_less(h->pdata[l + 1], best)) s = l + 1, best = h->pdata[l + 1];
        if (s == i) break;
        heap_set(m, i, best);
        i = s;
    }
    heap_set(m, i, o);
}

static void heap_push(match_ctx *m, mop *o)
{
    g_ptr_array_add(m->heap, o);
    heap_sift(m, m->heap->len - 1);
}

static void heap_remove(match_ctx *m, mop *o)
{
    if (o->heap_idx < 0) return;
    guint i = (guint)o->heap_idx;
    mop *last = g_ptr_array_steal_index_fast(m->heap, m->heap->len - 1);
    o->heap_idx = -1;
    if (last != o) {
        heap_set(m, i, last);
        heap_sift(m, i);
    }
}

/* ------------------------------------------------------------ ops */

static mop *op_new(match_ctx *m, op_kind kind, const match_post *p)
{
    mop *o;
    if (m->n_free_mops) {
        o = m->free_mops[--m->n_free_mops];
        /* The one after the next to be taken (the next was fetched at the
         * last call): after a run of posts with no pairing it was freed
         * long ago, and taking it reads it and writes it whole. A stack of
         * pointers, not a list through the ops, so that it is known
         * without reading the op before it. */
        if (m->n_free_mops >= 2) {
            const mop *n = m->free_mops[m->n_free_mops - 2];
            __builtin_prefetch(n, 1);
            __builtin_prefetch((const char *)n + 64, 1);
        }
    } else {
        o = pool_get(&m->mops);
    }
    /* Every field set one by one: a compound literal was compiled to a
     * `rep stos` zeroing the two cache lines first, whose start-up cost
     * callgrind counts as one instruction but a wall-clock profile does
     * not. */
    o->kind = kind;
    o->rank = p->rank;
    o->thread = p->thread;
    o->heap_idx = -1;
    o->time = p->time;
    o->bytes = kind == OP_SEND ? p->bytes : MATCH_BYTES_UNKNOWN;
    o->comm = p->comm;
    o->peer = p->peer;
    o->tag = p->tag;
    o->completed = o->phantom = o->inferred = o->unresolved = o->waiting = o->cancel_asked = false;
    o->live = true;
    o->st_source = o->st_tag = 0;
    o->seq = m->next_seq++;
    o->inst = NULL;
    o->req_id = MATCH_NO_REQUEST;
    o->where = NULL;
    o->qprev = o->qnext = NULL;
    o->chan = NULL;
    if (kind == OP_SEND)
        m->stats.n_sends++;
    else
        m->stats.n_recvs++;
    if (++m->stats.n_in_flight > m->stats.max_in_flight) m->stats.max_in_flight = m->stats.n_in_flight;
    return o;
}

static bool op_is_wild(const mop *o)
{
    return o->kind == OP_RECV && (o->peer == MATCH_ANY_SOURCE || o->tag == MATCH_ANY_TAG);
}

/* The envelope a receive will match, if known. */
static bool op_envelope(const mop *o, int *src, int *tag)
{
    if (o->completed) {
        if (o->unresolved) return false;
        *src = o->st_source;
        *tag = o->st_tag;
        return true;
    }
    if (op_is_wild(o)) return false;
    *src = o->peer;
    *tag = o->tag;
    return true;
}

static inline bool oq_empty(const oq *q)
{
    return q->head == NULL;
}

static inline mop *oq_head(const oq *q)
{
    return q->head;
}

static void oq_remove(oq *q, mop *o)
{
    if (o->qprev)
        o->qprev->qnext = o->qnext;
    else
        q->head = o->qnext;
    if (o->qnext)
        o->qnext->qprev = o->qprev;
    else
        q->tail = o->qprev;
    o->qprev = o->qnext = NULL;
}

static void op_unlink(match_ctx *m, mop *o)
{
    if (o->where) {
        oq_remove(o->where, o);
        o->where = NULL;
    }
    o->chan = NULL;
    o->inst = NULL;
}

static void op_free(match_ctx *m, mop *o)
{
    op_unlink(m, o);
    heap_remove(m, o);
    m->stats.n_in_flight--;
    o->live = false;
    if (m->n_free_mops == m->cap_free_mops) {
        m->cap_free_mops = m->cap_free_mops ? 2 * m->cap_free_mops : 256;
        m->free_mops = g_renew(mop *, m->free_mops, m->cap_free_mops);
    }
    m->free_mops[m->n_free_mops++] = o;
}

static void op_enqueue(mop *o, oq *q)
{
    o->qnext = NULL;
    o->qprev = q->tail;
    if (q->tail)
        q->tail->qnext = o;
    else
        q->head = o;
    q->tail = o;
    o->where = q;
}

/* ------------------------------------------------------------ unmatched */

static guint unmatched_hash(gconstpointer p)
{
    const match_unmatched *u = p;
    guint h = (guint)u->kind;
    h = h * 31u + (guint)u->src;
    h = h * 31u + (guint)u->dst;
    h = h * 31u + (guint)u->tag;
    h = h * 31u + (guint)u->comm_id;
    return h * 31u + (guint)u->comm;
}

static gboolean unmatched_equal(gconstpointer a, gconstpointer b)
{
    const match_unmatched *x = a, *y = b;
    return x->kind == y->kind && x->src == y->src && x->dst == y->dst && x->tag == y->tag && x->comm_id == y->comm_id &&
           x->comm == y->comm;
}

static void unwait(match_ctx *m, mop *o);

/* Count o in the summary and free it: nothing leaves unreported. */
static void op_drop(match_ctx *m, mop *o, match_unmatched_kind kind, int src, int dst, uint64_t comm_id)
{
    if (o->waiting) unwait(m, o);
    match_unmatched key = {kind, src, dst, o->completed ? o->st_tag : o->tag, comm_id, o->comm, 0};
    match_unmatched *u = g_hash_table_lookup(m->unmatched, &key);
    if (!u) {
        u = g_memdup2(&key, sizeof key);
        g_hash_table_add(m->unmatched, u);
    }
    u->count++;
    m->stats.n_unmatched++;
    op_free(m, o);
}

/* Drop with the world ranks we can still work out. */
static void op_drop_local(match_ctx *m, mop *o, match_unmatched_kind kind, const comm_ref *ref)
{
    int other = -1;
    if (o->kind == OP_SEND || !op_is_wild(o) || (o->completed && !o->unresolved)) {
        int local = o->kind == OP_RECV && o->completed ? o->st_source : o->peer;
        other = ref ? comm_ref_world_rank(ref, local) : -1;
        if (other < 0) other = -1;
    }
    uint64_t id = ref ? comm_ref_id(ref) : UINT64_MAX;
    if (o->kind == OP_SEND)
        op_drop(m, o, kind, (int)o->rank, other, id);
    else
        op_drop(m, o, kind, other, (int)o->rank, id);
}

/* ------------------------------------------------------------ channels */

static uint64_t chan_hash(const chan_key *k)
{
    uint64_t h = k->comm_id * 0x9e3779b97f4a7c15ull;
    h = (h ^ (uint32_t)k->src) * 0xff51afd7ed558ccdull;
    h = (h ^ (uint32_t)k->dst) * 0xc4ceb9fe1a85ec53ull;
    h = (h ^ (uint32_t)k->tag) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

static bool chan_key_equal(const chan_key *x, const chan_key *y)
{
    return x->comm_id == y->comm_id && x->src == y->src && x->dst == y->dst && x->tag == y->tag;
}

static uint64_t dgroup_hash(uint64_t comm_id, uint32_t dst)
{
    uint64_t h = comm_id * 0x9e3779b97f4a7c15ull;
    h = (h ^ dst) * 0xff51afd7ed558ccdull;
    return h ^ (h >> 29);
}

static dgroup *dgroup_find(const match_ctx *m, uint64_t comm_id, uint32_t dst)
{
    for (dgroup *g = htab_get(&m->dgroups, dgroup_hash(comm_id, dst)); g; g = g->next_same)
        if (g->comm_id == comm_id && g->dst == dst) return g;
    return NULL;
}

static dgroup *dgroup_get(match_ctx *m, uint64_t comm_id, uint32_t dst)
{
    dgroup *g = dgroup_find(m, comm_id, dst);
    if (g) return g;
    uint64_t h = dgroup_hash(comm_id, dst);
    g = g_new0(dgroup, 1);
    g->comm_id = comm_id;
    g->dst = dst;
    g->next_same = htab_get(&m->dgroups, h);
    htab_put(&m->dgroups, h, g);
    return g;
}

/* Free the groups with no channel and no waiting receive; rebuild the table
 * from the rest (after chan_sweep, so they stay as many as channels plus
 * waiting receives). */
static void dgroup_sweep(match_ctx *m)
{
    GPtrArray *keep = g_ptr_array_new();
    for (size_t i = 0; i < htab_capacity(&m->dgroups); i++) {
        dgroup *next;
        for (dgroup *g = htab_at(&m->dgroups, i)->val; g; g = next) {
            next = g->next_same;
            if (g->chans || g->n_waiting)
                g_ptr_array_add(keep, g);
            else
                g_free(g);
        }
    }
    htab_free(&m->dgroups);
    for (guint i = 0; i < keep->len; i++) {
        dgroup *g = keep->pdata[i];
        uint64_t h = dgroup_hash(g->comm_id, g->dst);
        g->next_same = htab_get(&m->dgroups, h);
        htab_put(&m->dgroups, h, g);
    }
    g_ptr_array_free(keep, TRUE);
}

static void dgroup_free_all(match_ctx *m)
{
    for (size_t i = 0; i < htab_capacity(&m->dgroups); i++) {
        dgroup *next;
        for (dgroup *g = htab_at(&m->dgroups, i)->val; g; g = next) {
            next = g->next_same;
            g_free(g);
        }
    }
    htab_free(&m->dgroups);
}

static void chan_link_dgroup(match_ctx *m, chan *ch)
{
    ch->dg = dgroup_get(m, ch->key.comm_id, (uint32_t)ch->key.dst);
    ch->dnext = ch->dg->chans;
    if (ch->dnext) ch->dnext->dprev = ch;
    ch->dg->chans = ch;
}

static chan **chan_list(const match_ctx *m, size_t *n);

/* The destination index is needed only by inferred receives: it is built
 * when the first one looks for a send, and kept from then on. Before, a
 * channel's creation paid for a lookup in the groups' table, a group and
 * a write to another channel of its destination: with thousands of ranks,
 * three cache misses for a channel that carries a handful of messages. */
static void dgroup_index(match_ctx *m)
{
    if (m->dg_on) return;
    m->dg_on = true;
    size_t n;
    chan **v = chan_list(m, &n);
    for (size_t i = 0; i < n; i++) chan_link_dgroup(m, v[i]);
    g_free(v);
}

static chan *chan_get(match_ctx *m, uint64_t comm_id, int src, int dst, int tag)
{
    chan_key k = {comm_id, src, dst, tag};
    uint64_t h = chan_hash(&k);
    chan *head = htab_get(&m->chans, h);
    for (chan *ch = head; ch; ch = ch->next_same)
        if (chan_key_equal(&ch->key, &k)) return ch;
    chan *ch = pool_get(&m->chan_pool);
    ch->key = k;
    ch->next_same = head;
    htab_put(&m->chans, h, ch);
    m->n_chans++;
    if (m->dg_on) chan_link_dgroup(m, ch);
    return ch;
}

static void chan_unlink_dgroup(chan *ch)
{
    if (!ch->dg) return;
    if (ch->dprev)
        ch->dprev->dnext = ch->dnext;
    else
        ch->dg->chans = ch->dnext;
    if (ch->dnext) ch->dnext->dprev = ch->dprev;
    ch->dprev = ch->dnext = NULL;
}

static bool chan_empty(const chan *ch)
{
    return oq_empty(&ch->sends) && oq_empty(&ch->recvs);
}

static void chan_free(match_ctx *m, chan *ch);

/* Every channel, for draining and sweeping (the caller frees the array). */
static chan **chan_list(const match_ctx *m, size_t *n)
{
    chan **v = g_new(chan *, m->n_chans + 1);
    size_t k = 0;
    for (size_t i = 0; i < htab_capacity(&m->chans); i++)
        for (chan *ch = htab_at(&m->chans, i)->val; ch; ch = ch->next_same) v[k++] = ch;
    *n = k;
    return v;
}

/* Free the empty channels; rebuild the table from the rest. */
static void chan_sweep(match_ctx *m)
{
    size_t n, n_doomed = 0;
    chan **v = chan_list(m, &n);
    for (size_t i = 0; i < n; i++) n_doomed += chan_empty(v[i]) && !v[i]->used;
    if (!n_doomed) {
        /* Every channel stays where it is: the table and the instances'
         * caches stand. With thousands of ranks every channel is in use
         * at each sweep, and clearing the caches made the next message on
         * every channel look it up in the table again. */
        for (size_t i = 0; i < n; i++) v[i]->used = false;
        g_free(v);
        if (m->dg_on) dgroup_sweep(m);
        return;
    }
    for (size_t i = 0; i < htab_capacity(&m->insts); i++) {
        inst *in = htab_at(&m->insts, i)->val;
        if (!in) continue;
        memset(in->near, 0, sizeof in->near);
        htab_free(&in->own);
        in->owning = false;
        in->last[0] = in->last[1] = NULL;
    }
    htab_free(&m->chans);
    m->n_chans = 0;
    for (size_t i = 0; i < n; i++) {
        if (chan_empty(v[i]) && !v[i]->used) {
            chan_unlink_dgroup(v[i]);
            chan_free(m, v[i]);
            continue;
        }
        v[i]->used = false;
        v[i]->succ[0] = v[i]->succ[1] = NULL; /* it may have been freed */
        uint64_t h = chan_hash(&v[i]->key);
        v[i]->next_same = htab_get(&m->chans, h);
        htab_put(&m->chans, h, v[i]);
        m->n_chans++;
    }
    g_free(v);
    if (m->dg_on) dgroup_sweep(m);
}

static void emit(match_ctx *m, const chan *ch, const mop *s, const mop *r)
{
    m->stats.n_arrows++; /* n_inferred is counted in infer() and finish */
    if (m->stopped || !m->cb) return;
    match_arrow a = {
        .send_rank = s->rank,
        .send_thread = s->thread,
        .send_time = s->time,
        .recv_rank = r->rank,
        .recv_thread = r->thread,
        .recv_time = r->time,
        .bytes = r->bytes != MATCH_BYTES_UNKNOWN ? r->bytes : s->bytes,
        .tag = ch->key.tag,
        .comm_id = ch->key.comm_id,
        .send_comm = s->comm,
        .recv_comm = r->comm,
        .inferred = r->inferred,
    };
    if (m->cb(m->user, &a) == SLOG_STOP) m->stopped = true;
}

/* Pair heads while the head receive has its completion (or never will get
 * one: phantom). An uncompleted head blocks later receives of the channel,
 * which is exactly non-overtaking. */
static void chan_pair(match_ctx *m, chan *ch)
{
    while (!oq_empty(&ch->sends) && !oq_empty(&ch->recvs)) {
        mop *r = oq_head(&ch->recvs);
        if (!r->completed && !r->phantom) break;
        mop *s = oq_head(&ch->sends);
        if (r->completed)
            emit(m, ch, s, r);
        else
            m->stats.n_matched_no_arrow++;
        op_free(m, s);
        op_free(m, r);
    }
}

/* Most calls find one side empty: that test inline, the loop not. */
static inline void chan_match(match_ctx *m, chan *ch)
{
    if (!oq_empty(&ch->sends) && !oq_empty(&ch->recvs)) chan_pair(m, ch);
}

static void inst_release(match_ctx *m, inst *in, bool force);

/* A send became free to take in a group with waiting inferred receives (it
 * was queued, or the receive ahead of it left unpaired): let them look. */
static void dgroup_wake(match_ctx *m, const dgroup *g)
{
    if (g->n_waiting) inst_release(m, g->waiting_in, false);
}

/* Near misses an instance takes, and the share of its lookups they must
 * be (1 / OWN_SHARE), before it keeps every channel it meets (inst_chan):
 * a near cache that hits most of the time is cheaper than the table. */
#define OWN_AFTER 32u
#define OWN_SHARE 4u

/* The key of a channel in its instance's own table: the op's kind, the
 * comm-local peer (a rank of the group: below 2^31) and the tag, which
 * with the instance fix the channel. */
static inline uint64_t own_key(op_kind kind, int local, int tag)
{
    return (uint64_t)(uint32_t)tag << 32 | (uint64_t)(uint32_t)local << 1 | (uint64_t)kind;
}

/* The channel (id, src, dst, tag) of an op of kind on in to local, when
 * the near cache missed. A rank that exchanges with more peers and tags
 * than the cache has slots (a 3-D stencil: 26 neighbours, a tag per
 * exchange) missed on most messages, and each miss read a channel that
 * was not the one, the table's slot, then the channel: an instance that
 * keeps missing keeps its own table of the channels it met, which finds
 * the one from its slot alone. Not inlined: the near cache's hits, with
 * thousands of ranks nearly all lookups, pay nothing for it. */
G_GNUC_NO_INLINE static chan *inst_chan(match_ctx *m, inst *in, op_kind kind, int local, int tag, uint64_t id, int src,
                                        int dst)
{
    uint64_t k = own_key(kind, local, tag);
    chan *ch = in->owning ? htab_get(&in->own, k) : NULL;
    if (ch && ch->key.src == src && ch->key.dst == dst && ch->key.tag == tag && ch->key.comm_id == id) return ch;
    ch = chan_get(m, id, src, dst, tag);
    if (in->owning || (++in->n_missed > OWN_AFTER && (uint64_t)in->n_missed * OWN_SHARE > in->n_near)) {
        htab_put(&in->own, k, ch);
        in->owning = true;
    }
    return ch;
}

/* Put an op of a resolved instance into its channel. */
static void to_channel(match_ctx *m, inst *in, mop *o)
{
    int local = o->kind == OP_RECV && o->completed ? o->st_source : o->peer;
    int tag = o->kind == OP_RECV && o->completed ? o->st_tag : o->tag;
    /* comm_ref_world_rank() on the copy: PROC_NULL and ranks outside the
     * group are no rank. */
    int other = (uint32_t)local >= (uint32_t)in->n_peers ? -1 : in->run >= 0 ? in->run + local : in->peers[local];
    op_unlink(m, o);
    if (other < 0) {
        op_drop_local(m, o, MATCH_UNMATCHED_BAD_COMM, in->ref);
        return;
    }
    uint64_t id = in->id;
    int src = o->kind == OP_SEND ? (int)o->rank : other, dst = o->kind == OP_SEND ? other : (int)o->rank;
    chan *ch;
    if (in->owning) {
        /* The near cache misses on this instance: its ops of a kind go
         * to many channels, most often in the order they went last time
         * (a stencil's exchanges, iteration after iteration). So first
         * the channel that followed the last one last time, which was
         * fetched then, then its own table. */
        chan *prev = in->last[o->kind];
        ch = prev ? prev->succ[o->kind] : NULL;
        if (!ch || ch->key.src != src || ch->key.dst != dst || ch->key.tag != tag || ch->key.comm_id != id) {
            ch = htab_get(&in->own, own_key(o->kind, local, tag));
            if (!ch || ch->key.src != src || ch->key.dst != dst || ch->key.tag != tag || ch->key.comm_id != id)
                ch = inst_chan(m, in, o->kind, local, tag, id, src, dst);
            if (prev) prev->succ[o->kind] = ch;
        }
        in->last[o->kind] = ch;
        const chan *next = ch->succ[o->kind];
        if (next) {
            __builtin_prefetch(next);
            __builtin_prefetch((const char *)next + 64);
        }
    } else {
        chan **near = &in->near[o->kind][near_slot(local, tag)];
        in->n_near++;
        ch = *near;
        if (!ch || ch->key.src != src || ch->key.dst != dst || ch->key.tag != tag || ch->key.comm_id != id)
            ch = *near = inst_chan(m, in, o->kind, local, tag, id, src, dst);
    }
    ch->used = true;
    op_enqueue(o, o->kind == OP_SEND ? &ch->sends : &ch->recvs);
    o->chan = ch;
    chan_match(m, ch);
}

/* A send was routed: if it is still queued, a waiting inferred receive may
 * want it. Called only while some wait (o is still ours to look at: ops
 * are recycled, never freed, before match_ctx_free). */
G_GNUC_NO_INLINE static void wake_for_send(match_ctx *m, const mop *o)
{
    if (o->live && o->chan) dgroup_wake(m, o->chan->dg);
}

/* ------------------------------------------------------------ instances */

/* An instance is indexed twice: in m->insts, which sweeps and finish walk,
 * and by its comm_ref's user pointer, which inst_get() reads for every
 * operation (hashing the ref there cost a cache miss on the table each
 * time). */
static void inst_unindex(match_ctx *m, inst *in)
{
    htab_remove(&m->insts, (uintptr_t)in->ref);
    comm_ref_set_user(in->ref, NULL);
}

static void inst_free(match_ctx *m, inst *in)
{
    htab_free(&in->own);
    if (comm_ref_user(in->ref) == in) comm_ref_set_user(in->ref, NULL);
    comm_ref_release(in->ref);
    pool_put(&m->inst_pool, in);
}

/* The ref's state, as the instance keeps it: when made, and whenever the
 * ref leaves PENDING (on_resolved), the only change a ref sees. */
static void inst_sync(inst *in)
{
    in->state = (uint8_t)comm_ref_get_state(in->ref);
    in->id = comm_ref_id(in->ref);
    bool resolved = in->state == COMM_REF_RESOLVED;
    in->peers = resolved ? comm_ref_peers(in->ref) : NULL;
    in->n_peers = resolved ? comm_ref_peer_size(in->ref) : 0;
    /* WORLD's members are the world ranks in order, and so are those of
     * its dups and of many splits. With thousands of ranks such a table
     * does not stay in the cache, and reading a peer's entry there for
     * every message was a miss more often than not. */
    in->run = resolved ? comm_ref_run(in->ref) : -1;
}

static inst *inst_get(match_ctx *m, comm_ref *ref)
{
    inst *in = comm_ref_user(ref);
    if (!in) {
        in = pool_get(&m->inst_pool);
        in->ref = comm_ref_hold(ref);
        in->seq = m->next_inst_seq++;
        inst_sync(in);
        htab_put(&m->insts, (uintptr_t)ref, in);
        comm_ref_set_user(ref, in);
    }
    in->used = true;
    return in;
}

/* While this stays the same, a rank's handles name the refs they named
 * and every instance noted in an mrank is alive. */
static inline uint64_t inst_epoch(const match_ctx *m)
{
    return comm_ctx_bindings(m->comms) + m->n_inst_sweeps;
}

/* rank's instance of its handle comm (made when new), or NULL when the
 * handle names nothing. */
static inline inst *inst_of(match_ctx *m, uint32_t rank, int comm)
{
    mrank *r = &m->ranks[rank];
    uint64_t epoch = inst_epoch(m);
    if (r->epoch == epoch) {
        for (int i = 0; i < 2; i++) {
            if (r->inst[i] && r->handle[i] == comm) {
                r->inst[i]->used = true;
                return r->inst[i];
            }
        }
    } else {
        r->epoch = epoch;
        r->inst[0] = r->inst[1] = NULL;
    }
    comm_ref *ref = comm_ref_lookup(m->comms, rank, comm);
    if (!ref) return NULL;
    inst *in = inst_get(m, ref);
    r->inst[1] = r->inst[0];
    r->handle[1] = r->handle[0];
    r->inst[0] = in;
    r->handle[0] = comm;
    return in;
}

static bool inst_empty(const inst *in)
{
    return oq_empty(&in->recvs) && oq_empty(&in->deferred);
}

static int inst_seq_cmp(const void *pa, const void *pb)
{
    const inst *a = *(inst *const *)pa, *b = *(inst *const *)pb;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Every instance, in creation order when ordered: the table's order
 * follows addresses, which differ from run to run (the caller frees the
 * array). */
static inst **inst_list(const match_ctx *m, size_t *n, bool ordered)
{
    inst **v = g_new(inst *, htab_size(&m->insts) + 1);
    size_t k = 0;
    for (size_t i = 0; i < htab_capacity(&m->insts); i++)
        if (htab_at(&m->insts, i)->val) v[k++] = htab_at(&m->insts, i)->val;
    if (ordered) qsort(v, k, sizeof *v, inst_seq_cmp);
    *n = k;
    return v;
}

/* A receive (or send) whose envelope is final: to its channel, or held in
 * posting order until the communicator resolves. */
static void route(match_ctx *m, inst *in, mop *o)
{
    switch ((comm_ref_state)in->state) {
    case COMM_REF_RESOLVED: to_channel(m, in, o); break;
    case COMM_REF_PENDING:
        op_unlink(m, o);
        op_enqueue(o, &in->deferred);
        o->inst = in;
        break;
    case COMM_REF_FAILED:
        op_unlink(m, o);
        op_drop_local(m, o, MATCH_UNMATCHED_BAD_COMM, NULL);
        break;
    }
}

static bool compatible(const mop *blocker, int src, int tag)
{
    return (blocker->peer == MATCH_ANY_SOURCE || blocker->peer == src) &&
           (blocker->tag == MATCH_ANY_TAG || blocker->tag == tag);
}

/* Could a blocker take a message the inferred receive w could take? */
static bool overlaps(const GPtrArray *blockers, const mop *w)
{
    for (guint i = 0; blockers && i < blockers->len; i++) {
        const mop *b = g_ptr_array_index(blockers, i);
        if ((b->peer == MATCH_ANY_SOURCE || w->peer == MATCH_ANY_SOURCE || b->peer == w->peer) &&
            (b->tag == MATCH_ANY_TAG || w->tag == MATCH_ANY_TAG || b->tag == w->tag))
            return true;
    }
    return false;
}

static void unwait(match_ctx *m, mop *w)
{
    dgroup *g = dgroup_find(m, comm_ref_id(w->inst->ref), w->rank);
    g->n_waiting--;
    m->n_waiting--;
    w->waiting = false;
}

/* The channel whose first send that no queued receive will take started
 * earliest (ties: posted first), among g's channels that fit the pattern
 * (src a world rank or MATCH_ANY_SOURCE); NULL when there is none. A send
 * started earlier is the one MPI most likely delivered first: with no
 * status, that is the best evidence the trace has. */
static chan *infer_pick(const dgroup *g, int src, int tag)
{
    chan *best = NULL;
    const mop *best_s = NULL;
    for (chan *ch = g->chans; ch; ch = ch->dnext) {
        if ((src != MATCH_ANY_SOURCE && ch->key.src != src) || (tag != MATCH_ANY_TAG && ch->key.tag != tag)) continue;
        /* The k-th send goes to the k-th queued receive (FIFO): skip those. */
        const mop *s = ch->sends.head;
        for (const mop *r = ch->recvs.head; r && s; r = r->qnext) s = s->qnext;
        if (s && (!best_s || heap_less(s, best_s))) best = ch, best_s = s;
    }
    return best;
}

/* Place the inferred receive w of in, unless an earlier posted receive that
 * could take the same messages is still in the list (blockers): into the
 * channel infer_pick chooses, where it pairs exactly like a receive with
 * that status. With no candidate it waits in the list (blocking later
 * receives it could take messages from) and its group wakes it when a send
 * comes. True when w left the list. Not inlined: inst_release runs for
 * every receive, and this rare path would cost it registers. */
G_GNUC_NO_INLINE static bool infer(match_ctx *m, inst *in, mop *w, const GPtrArray *blockers)
{
    if (overlaps(blockers, w)) return false;
    /* Receives released before w still on their way to channels would
     * claim sends first. */
    if (comm_ref_get_state(in->ref) != COMM_REF_RESOLVED || !oq_empty(&in->deferred)) return false;
    int src = MATCH_ANY_SOURCE;
    if (w->peer != MATCH_ANY_SOURCE) {
        src = comm_ref_world_rank(in->ref, w->peer);
        if (src < 0) {
            op_drop_local(m, w, MATCH_UNMATCHED_BAD_COMM, in->ref);
            return true;
        }
    }
    uint64_t id = comm_ref_id(in->ref);
    dgroup_index(m);
    dgroup *g = dgroup_find(m, id, w->rank);
    chan *ch = g ? infer_pick(g, src, w->tag) : NULL;
    if (!ch) {
        if (!w->waiting) {
            g = g ? g : dgroup_get(m, id, w->rank);
            /* A rank has one instance of a communicator, so one waiting_in. */
            g->waiting_in = in;
            g->n_waiting++;
            m->n_waiting++;
            w->waiting = true;
        }
        return false;
    }
    if (w->waiting) unwait(m, w);
    /* In its channel it will pair (an arrow) unless finish drops it. */
    m->stats.n_inferred++;
    w->unresolved = false;
    w->st_tag = ch->key.tag;
    op_unlink(m, w);
    op_enqueue(w, &ch->recvs);
    w->chan = ch;
    chan_match(m, ch);
    return true;
}

/* Release the receives whose envelope is known and which no earlier posted,
 * uncompleted wildcard receive could still take first (MPI-3.1 3.5: a
 * message goes to the earliest posted matching receive); place the inferred
 * ones that no such receive precedes. With force, every receive with a
 * known envelope goes and the rest are dropped. */
static void inst_release(match_ctx *m, inst *in, bool force)
{
    GPtrArray *blockers = NULL; /* made only when a receive blocks */
    mop *next;
    for (mop *o = in->recvs.head; o; o = next) {
        next = o->qnext;
        int src, tag;
        if (!op_envelope(o, &src, &tag)) {
            if (force)
                op_drop_local(m, o, o->unresolved ? MATCH_UNMATCHED_NO_STATUS : MATCH_UNMATCHED_INCOMPLETE, in->ref);
            else if (!o->unresolved || !infer(m, in, o, blockers))
                g_ptr_array_add(blockers ? blockers : (blockers = g_ptr_array_new()), o);
        } else {
            bool blocked = false;
            for (guint i = 0; blockers && i < blockers->len && !blocked; i++)
                blocked = compatible(g_ptr_array_index(blockers, i), src, tag);
            if (!blocked) route(m, in, o);
        }
    }
    if (blockers) g_ptr_array_free(blockers, TRUE);
}

/* comm.c tells us an instance resolved: flush its held operations in order. */
static void on_resolved(void *user, comm_ref *ref)
{
    match_ctx *m = user;
    inst *in = comm_ref_user(ref);
    if (!in) return;
    inst_sync(in);
    if (in->state == COMM_REF_PENDING) return;
    while (!oq_empty(&in->deferred)) {
        mop *o = oq_head(&in->deferred);
        route(m, in, o);
        if (m->n_waiting && o->kind == OP_SEND) wake_for_send(m, o);
    }
    if (comm_ref_get_state(ref) == COMM_REF_FAILED)
        inst_release(m, in, true);
    else if (!oq_empty(&in->recvs))
        inst_release(m, in, false); /* inferred receives can look for sends now */
}

/* ------------------------------------------------------------ requests */

/* The operation rank's request id has, from its slot s. A slot's cur is
 * not cleared when its operation is freed, paired or leaves the request:
 * doing so cost a cache miss on the sender's slot at every pairing. It
 * counts while the operation is live and still names the request, which
 * only the operation last bound to the slot can (req_bind; ops are
 * recycled, never freed, before match_ctx_free, so cur can be read). */
static inline mop *req_cur(const rslot *s, uint32_t rank, int id)
{
    mop *o = s->cur;
    return o && o->live && o->req_id == id && o->rank == rank ? o : NULL;
}

/* A persistent request's envelope, kept until the request goes. */
static uint32_t init_keep(match_ctx *m, const match_post *p)
{
    uint32_t i;
    if (m->free_inits->len) {
        i = g_array_index(m->free_inits, uint32_t, m->free_inits->len - 1);
        g_array_set_size(m->free_inits, m->free_inits->len - 1);
        g_array_index(m->inits, match_post, i) = *p;
    } else {
        i = m->inits->len;
        g_array_append_val(m->inits, *p);
    }
    return i + 1;
}

static void init_drop(match_ctx *m, uint32_t init)
{
    uint32_t i = init - 1;
    g_array_append_val(m->free_inits, i);
}

/* Take rank's request id out of its table: its operation, if any, loses
 * it. */
static void req_drop(match_ctx *m, uint32_t rank, int id)
{
    reqtab *t = &m->ranks[rank].reqs;
    rslot *s = reqtab_get(t, id);
    if (!s) return;
    mop *o = req_cur(s, rank, id);
    if (o) o->req_id = MATCH_NO_REQUEST;
    if (s->init) init_drop(m, s->init);
    reqtab_remove(t, id);
}

/* The request lost its operation before we saw a completion (freed, or the
 * id reused). A send still goes out. An exact receive will still take a
 * message but has no completion time: a phantom. A wildcard one cannot be
 * placed and is reported. */
static void orphan(match_ctx *m, mop *o)
{
    o->req_id = MATCH_NO_REQUEST;
    if (o->kind == OP_SEND || o->completed) return;
    if (!op_is_wild(o)) {
        o->phantom = true;
        if (o->chan) chan_match(m, o->chan);
        return;
    }
    inst *in = o->inst;
    comm_ref *ref = in ? in->ref : NULL;
    op_drop_local(m, o, MATCH_UNMATCHED_INCOMPLETE, ref);
    if (in) inst_release(m, in, false); /* a blocker went away */
}

/* A new request id on rank: the operation the id had, if still active, is
 * orphaned. The slot returned is valid until the table changes. */
static rslot *req_bind(match_ctx *m, uint32_t rank, int id, op_kind kind, bool persistent)
{
    reqtab *t = &m->ranks[rank].reqs;
    rslot *old = reqtab_get(t, id);
    mop *o = old ? req_cur(old, rank, id) : NULL;
    if (o) {
        m->stats.n_request_reused++;
        orphan(m, o);
    }
    rslot *q = reqtab_slot(t, id);
    if (q->init) init_drop(m, q->init);
    q->cur = NULL;
    q->init = 0;
    q->kind = (uint8_t)kind;
    q->persistent = persistent;
    q->used = true;
    return q;
}

/* ------------------------------------------------------------ posting */

static void sweep(match_ctx *m)
{
    if (m->n_chans > m->chan_limit) {
        chan_sweep(m);
        m->chan_limit = MAX(SWEEP_MIN_CHANS, 2 * m->n_chans);
    }
    if (htab_size(&m->insts) > m->inst_limit) {
        /* In any order: a sweep frees what is empty and unused, and
         * nothing it does depends on the order but the pool's list of free
         * blocks. Sorting every instance by creation, with thousands of
         * ranks a cache miss each, was most of the sweep. */
        size_t n;
        inst **v = inst_list(m, &n, false);
        bool freed = false;
        for (size_t i = 0; i < n; i++) {
            if (inst_empty(v[i]) && !v[i]->used) {
                inst_unindex(m, v[i]);
                inst_free(m, v[i]);
                freed = true;
            } else {
                v[i]->used = false;
            }
        }
        g_free(v);
        if (freed) m->n_inst_sweeps++; /* what the ranks noted may be gone */
        m->inst_limit = MAX(SWEEP_MIN_INSTS, 2 * htab_size(&m->insts));
    }
}

/* Every public entry point starts here, with no internal pointers live.
 * Inline and with the rank count kept here: it runs several times per
 * MPI call. */
static inline bool ok(match_ctx *m, uint32_t rank)
{
    if (!m || m->finished || rank >= m->n_ranks) return false;
    if (m->n_chans > m->chan_limit || htab_size(&m->insts) > m->inst_limit) sweep(m);
    return true;
}

static void post_send(match_ctx *m, const match_post *p, rslot *q)
{
    if (p->peer == MATCH_PROC_NULL) {
        m->stats.n_proc_null++;
        return;
    }
    mop *o = op_new(m, OP_SEND, p);
    if (q) {
        q->cur = o;
        o->req_id = p->request;
    }
    inst *in = inst_of(m, p->rank, p->comm);
    if (!in) {
        op_drop_local(m, o, MATCH_UNMATCHED_BAD_COMM, NULL);
        return;
    }
    if (G_UNLIKELY(m->n_waiting)) {
        route(m, in, o);
        wake_for_send(m, o);
        return;
    }
    route(m, in, o); /* a tail call: the per-send path pays one test */
}

static mop *post_recv(match_ctx *m, const match_post *p, rslot *q)
{
    if (p->peer == MATCH_PROC_NULL) {
        m->stats.n_proc_null++;
        return NULL;
    }
    mop *o = op_new(m, OP_RECV, p);
    if (q) {
        q->cur = o;
        o->req_id = p->request;
    }
    inst *in = inst_of(m, p->rank, p->comm);
    if (!in) {
        op_drop_local(m, o, MATCH_UNMATCHED_BAD_COMM, NULL);
        return NULL;
    }
    op_enqueue(o, &in->recvs);
    o->inst = in;
    return o;
}

/* An op of owner was removed: a blocker may have gone, or owner emptied. */
static void after_removal(match_ctx *m, inst *owner, bool in_list)
{
    if (in_list) inst_release(m, owner, false);
}

/* A receive completed cancelled, or from MPI_PROC_NULL: no message. With
 * st NULL, MPI_Cancel was called and no status says whether it worked: it
 * is presumed to have (a program cancels a receive whose message will not
 * come; HPC Challenge cancels its last ANY_SOURCE receive and waits with
 * MPI_STATUS_IGNORE). Had it failed, the message it took would show up as
 * an unmatched send, so nothing is hidden; pairing it instead would hand
 * it the next send of its channel, which belongs to a later receive. Kept
 * out of complete_recv, whose every call would otherwise pay for the
 * registers this rare path needs. */
G_GNUC_NO_INLINE static void recv_vanish(match_ctx *m, mop *o, const match_status *st, inst *owner, bool in_list)
{
    if (!st || st->cancelled)
        m->stats.n_cancelled++;
    else
        m->stats.n_proc_null++;
    chan *ch = o->chan;
    op_free(m, o);
    after_removal(m, owner, in_list);
    /* Leaving its channel unpaired, it frees the send it would have taken
     * for a waiting inferred receive. */
    if (ch && m->n_waiting) dgroup_wake(m, ch->dg);
}

/* A receive completed; o may sit in an instance list, a deferred queue or a
 * channel. */
static void complete_recv(match_ctx *m, mop *o, const match_status *st, int64_t time, uint32_t thread)
{
    inst *owner = o->inst;
    bool in_list = owner && o->where == &owner->recvs;
    if (st ? st->cancelled || st->source == MATCH_PROC_NULL : o->cancel_asked) {
        recv_vanish(m, o, st, owner, in_list);
        return;
    }
    int src = o->peer, tag = o->tag;
    if (src == MATCH_ANY_SOURCE || tag == MATCH_ANY_TAG) {
        if (!st && !in_list) {
            /* Not among its instance's posted receives, so there is no
             * posting order to infer from. Reported, as when it was never
             * placed. */
            op_drop_local(m, o, MATCH_UNMATCHED_NO_STATUS, owner ? owner->ref : NULL);
            after_removal(m, owner, in_list);
            return;
        }
        if (!st) {
            /* No status recorded (STATUS_IGNORE, statuses disabled): the
             * message is inferred from MPI's ordering rules when
             * inst_release gets to it (infer()); src and tag stay the
             * pattern meanwhile. */
            o->inferred = o->unresolved = true;
        } else {
            if (src == MATCH_ANY_SOURCE) src = st->source;
            if (tag == MATCH_ANY_TAG) tag = st->tag;
        }
    }
    o->completed = true;
    o->st_source = src;
    o->st_tag = tag;
    o->time = time;
    o->thread = thread;
    o->bytes = st ? st->bytes : MATCH_BYTES_UNKNOWN;
    if (in_list)
        inst_release(m, owner, false);
    else if (o->chan)
        chan_match(m, o->chan);
    /* Only a receive still waiting for its send holds the watermark back.
     * Most have their send already and were just freed (nothing above
     * allocates, so o is still ours to look at). */
    if (o->live) heap_push(m, o);
}

slog_status match_send(match_ctx *m, const match_post *p)
{
    if (!p || !ok(m, p->rank)) return SLOG_ERR_ARG;
    rslot *q = p->request != MATCH_NO_REQUEST ? req_bind(m, p->rank, p->request, OP_SEND, false) : NULL;
    post_send(m, p, q);
    return SLOG_OK;
}

/* A receive just posted (Irecv, Start): to its channel when nothing
 * posted before it on its instance is still in the list. An exact one
 * then goes straight there, as inst_release would send it: most receives,
 * which this spares the list's link and unlink and the walk. */
static void post_recv_release(match_ctx *m, const match_post *p, rslot *q)
{
    if (p->peer != MATCH_PROC_NULL && p->peer != MATCH_ANY_SOURCE && p->tag != MATCH_ANY_TAG) {
        inst *in = inst_of(m, p->rank, p->comm);
        if (in && oq_empty(&in->recvs)) {
            mop *o = op_new(m, OP_RECV, p);
            if (q) {
                q->cur = o;
                o->req_id = p->request;
            }
            route(m, in, o);
            return;
        }
    }
    mop *o = post_recv(m, p, q);
    if (o) inst_release(m, o->inst, false);
}

slog_status match_recv_post(match_ctx *m, const match_post *p)
{
    if (!p || !ok(m, p->rank)) return SLOG_ERR_ARG;
    rslot *q = p->request != MATCH_NO_REQUEST ? req_bind(m, p->rank, p->request, OP_RECV, false) : NULL;
    post_recv_release(m, p, q);
    return SLOG_OK;
}

slog_status match_recv(match_ctx *m, const match_post *p, const match_status *st, int64_t done_time,
                       uint32_t done_thread)
{
    if (!p || !ok(m, p->rank)) return SLOG_ERR_ARG;
    mop *o = post_recv(m, p, NULL);
    if (o) complete_recv(m, o, st, done_time, done_thread);
    return SLOG_OK;
}

static slog_status init_common(match_ctx *m, const match_post *p, op_kind kind)
{
    if (!p || !ok(m, p->rank) || p->request == MATCH_NO_REQUEST) return SLOG_ERR_ARG;
    rslot *q = req_bind(m, p->rank, p->request, kind, true);
    q->init = init_keep(m, p);
    return SLOG_OK;
}

slog_status match_send_init(match_ctx *m, const match_post *p)
{
    return init_common(m, p, OP_SEND);
}

slog_status match_recv_init(match_ctx *m, const match_post *p)
{
    return init_common(m, p, OP_RECV);
}

slog_status match_start(match_ctx *m, uint32_t rank, uint32_t thread, int request, int64_t time)
{
    if (!ok(m, rank)) return SLOG_ERR_ARG;
    rslot *q = reqtab_get(&m->ranks[rank].reqs, request);
    if (!q || !q->persistent) {
        m->stats.n_unknown_request++;
        return SLOG_OK;
    }
    mop *cur = req_cur(q, rank, request);
    if (cur) {
        /* Start on an active request is erroneous; keep what we have. */
        m->stats.n_request_reused++;
        orphan(m, cur);
    }
    match_post p = g_array_index(m->inits, match_post, q->init - 1);
    p.rank = rank;
    p.thread = thread;
    p.time = time;
    if (q->kind == OP_SEND)
        post_send(m, &p, q);
    else
        post_recv_release(m, &p, q);
    return SLOG_OK;
}

slog_status match_complete(match_ctx *m, uint32_t rank, uint32_t thread, int request, const match_status *st,
                           int64_t time)
{
    if (!ok(m, rank)) return SLOG_ERR_ARG;
    rslot *q = reqtab_get(&m->ranks[rank].reqs, request);
    if (!q) {
        m->stats.n_unknown_request++;
        return SLOG_OK;
    }
    mop *o = req_cur(q, rank, request);
    bool persistent = q->persistent;
    if (o) {
        o->req_id = MATCH_NO_REQUEST;
        if (o->kind == OP_RECV) {
            complete_recv(m, o, st, time, thread);
        } else if (st && st->cancelled) {
            /* A cancelled send delivered nothing (MPI-3.1 3.8.4). If it has
             * already been paired, o is gone and the pair stands. */
            m->stats.n_cancelled++;
            op_free(m, o);
        }
    }
    if (!persistent) req_drop(m, rank, request);
    return SLOG_OK;
}

slog_status match_cancel(match_ctx *m, uint32_t rank, int request)
{
    /* Whether the cancel succeeded is only known from the status of the
     * completion that must follow (status.cancelled); remember that it was
     * asked, for a completion without a status. */
    if (!ok(m, rank)) return SLOG_ERR_ARG;
    rslot *q = reqtab_get(&m->ranks[rank].reqs, request);
    mop *o = q ? req_cur(q, rank, request) : NULL;
    if (o && o->kind == OP_RECV) o->cancel_asked = true;
    return SLOG_OK;
}

slog_status match_request_free(match_ctx *m, uint32_t rank, int request)
{
    if (!ok(m, rank)) return SLOG_ERR_ARG;
    rslot *q = reqtab_get(&m->ranks[rank].reqs, request);
    if (!q) return SLOG_OK;
    mop *o = req_cur(q, rank, request);
    req_drop(m, rank, request);
    if (o) orphan(m, o);
    return SLOG_OK;
}

/* ------------------------------------------------------------ queries */

void match_prefetch_record(const match_ctx *m, uint32_t rank)
{
    if (rank < m->n_ranks) __builtin_prefetch(&m->ranks[rank].epoch);
}

void match_prefetch_rank(const match_ctx *m, uint32_t rank, int request)
{
    if (rank >= m->n_ranks) return;
    const mrank *r = &m->ranks[rank];
    if ((uint32_t)request < REQTAB_INLINE)
        __builtin_prefetch(&r->reqs.slot[request]);
    else if ((uint32_t)request - REQTAB_INLINE < r->reqs.n_grown) /* the record's line fetched before */
        __builtin_prefetch(&r->reqs.grown[(uint32_t)request - REQTAB_INLINE]);
}

/* What a chase fetches at its next step (match_chase_step). */
enum {
    CHASE_NONE,
    CHASE_SEND_CHAN,     /* a send's channel, then the receive it would pair with */
    CHASE_RECV_CHAN,     /* a receive's channel */
    CHASE_COMPLETE_CHAN, /* a completed receive's channel, then the send */
    CHASE_OP,            /* an op's first line */
    CHASE_OP2            /* an op, both lines */
};

/* Pointers read here may be stale (a slot's op of long ago, a channel freed
 * by a sweep): they still point into the pools, and are only fetched,
 * never followed further than another fetch. */
void match_chase_start(const match_ctx *m, uint32_t rank, match_hint h, int comm, int peer, int tag, int request,
                       match_chase *c)
{
    c->at = NULL;
    c->state = CHASE_NONE;
    if (rank >= m->n_ranks) return;
    const mrank *r = &m->ranks[rank];
    /* The slot, of the record or of its array, fetched at the step before. */
    const rslot *slot = (uint32_t)request < REQTAB_INLINE                     ? &r->reqs.slot[request]
                        : (uint32_t)request - REQTAB_INLINE < r->reqs.n_grown ? &r->reqs.grown[request - REQTAB_INLINE]
                                                                              : NULL;
    const mop *cur = slot ? slot->cur : NULL;
    if (h == MATCH_HINT_COMPLETE) {
        if (!cur) return;
        __builtin_prefetch(cur);
        __builtin_prefetch((const char *)cur + 64);
        c->at = (const void *const *)&cur->chan;
        c->state = CHASE_COMPLETE_CHAN;
        return;
    }
    if (cur) __builtin_prefetch(cur); /* req_bind reads the op the id had last */
    if (r->epoch != inst_epoch(m)) return;
    for (int i = 0; i < 2; i++) {
        const inst *in = r->inst[i];
        if (in && r->handle[i] == comm) {
            chan *const *near = &in->near[h == MATCH_HINT_SEND ? OP_SEND : OP_RECV][near_slot(peer, tag)];
            __builtin_prefetch(in);
            __builtin_prefetch(near);
            c->at = (const void *const *)near;
            c->state = h == MATCH_HINT_SEND ? CHASE_SEND_CHAN : CHASE_RECV_CHAN;
            return;
        }
    }
}

void match_chase_step(match_chase *c)
{
    const void *x = c->at ? *c->at : NULL;
    uint8_t state = c->state;
    c->at = NULL;
    c->state = CHASE_NONE;
    if (!x) return;
    __builtin_prefetch(x);
    switch (state) {
    case CHASE_SEND_CHAN:
        c->at = (const void *const *)&((const chan *)x)->recvs.head;
        c->state = CHASE_OP;
        break;
    case CHASE_COMPLETE_CHAN:
        c->at = (const void *const *)&((const chan *)x)->sends.head;
        c->state = CHASE_OP2;
        break;
    case CHASE_OP2: __builtin_prefetch((const char *)x + 64); break;
    default: break;
    }
}

void match_fetch_completion(const match_ctx *m, uint32_t rank, int request, int step)
{
    if (rank >= m->n_ranks) return;
    /* As in the chases, the pointers may be stale but point into the
     * pools. */
    const rslot *s = reqtab_get(&m->ranks[rank].reqs, request);
    const mop *o = s ? s->cur : NULL;
    if (!o) return;
    if (step == 0) {
        __builtin_prefetch(o);
        __builtin_prefetch((const char *)o + 64);
        return;
    }
    const chan *ch = o->chan;
    if (!ch) return;
    if (step == 1) {
        __builtin_prefetch(ch);
        return;
    }
    const mop *snd = ch->sends.head;
    if (snd) {
        __builtin_prefetch(snd);
        __builtin_prefetch((const char *)snd + 64);
    }
}

int64_t match_low_watermark(const match_ctx *m)
{
    return m && m->heap->len ? ((const mop *)m->heap->pdata[0])->time : INT64_MAX;
}

static int unmatched_cmp(const void *pa, const void *pb)
{
    const match_unmatched *a = pa, *b = pb;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    if (a->src != b->src) return a->src < b->src ? -1 : 1;
    if (a->dst != b->dst) return a->dst < b->dst ? -1 : 1;
    if (a->comm_id != b->comm_id) return a->comm_id < b->comm_id ? -1 : 1;
    if (a->comm != b->comm) return a->comm < b->comm ? -1 : 1;
    return a->tag < b->tag ? -1 : (a->tag > b->tag);
}

slog_status match_finish(match_ctx *m)
{
    if (!m || m->finished) return SLOG_ERR_ARG;
    /* 1. Receives still waiting on a wildcard: release what has an envelope.
     * 2. Never resolved communicators: report their held operations. */
    size_t n_insts;
    inst **insts = inst_list(m, &n_insts, true);
    for (size_t i = 0; i < n_insts; i++) {
        inst *in = insts[i];
        inst_unindex(m, in); /* in stays alive while draining */
        mop *next;
        for (mop *o = in->recvs.head; o; o = next) {
            next = o->qnext;
            int src, tag;
            if (op_envelope(o, &src, &tag))
                route(m, in, o);
            else if (!o->unresolved)
                op_drop_local(m, o, MATCH_UNMATCHED_INCOMPLETE, in->ref);
            else if (!infer(m, in, o, NULL)) /* its blockers have just gone */
                op_drop_local(m, o, MATCH_UNMATCHED_NO_STATUS, in->ref);
        }
        while (!oq_empty(&in->deferred)) op_drop_local(m, oq_head(&in->deferred), MATCH_UNMATCHED_BAD_COMM, in->ref);
        inst_free(m, in);
    }
    g_free(insts);
    /* 3. Receives never completed are taken to have got their message (the
     * program just never waited): they pair without an arrow. */
    size_t n_chans;
    chan **chans = chan_list(m, &n_chans);
    for (size_t i = 0; i < n_chans; i++) {
        chan *ch = chans[i];
        for (mop *o = ch->recvs.head; o; o = o->qnext) o->phantom = true;
        chan_key key = ch->key;
        chan_match(m, ch);
        while (!oq_empty(&ch->sends))
            op_drop(m, oq_head(&ch->sends), MATCH_UNMATCHED_SEND, key.src, key.dst, key.comm_id);
        while (!oq_empty(&ch->recvs)) {
            mop *o = oq_head(&ch->recvs);
            if (o->inferred) m->stats.n_inferred--; /* counted when placed, never paired */
            op_drop(m, o, o->completed ? MATCH_UNMATCHED_RECV : MATCH_UNMATCHED_INCOMPLETE, key.src, key.dst,
                    key.comm_id);
        }
        chan_free(m, ch);
    }
    g_free(chans);
    htab_free(&m->chans);
    m->n_chans = 0;
    dgroup_free_all(m);
    m->list = g_array_new(FALSE, FALSE, sizeof(match_unmatched));
    GHashTableIter it;
    gpointer k;
    g_hash_table_iter_init(&it, m->unmatched);
    while (g_hash_table_iter_next(&it, &k, NULL)) g_array_append_val(m->list, *(match_unmatched *)k);
    if (m->list->len > 1) qsort(m->list->data, m->list->len, sizeof(match_unmatched), unmatched_cmp);
    m->finished = true;
    return SLOG_OK;
}

const match_unmatched *match_unmatched_list(const match_ctx *m, size_t *n)
{
    *n = m->list ? m->list->len : 0;
    return m->list ? (const match_unmatched *)(void *)m->list->data : NULL;
}

void match_get_stats(const match_ctx *m, match_stats *out)
{
    *out = m->stats;
}

int match_stopped(const match_ctx *m)
{
    return m->stopped;
}

/* ------------------------------------------------------------ lifetime */

static void chan_free(match_ctx *m, chan *ch)
{
    mop *o;
    while ((o = oq_head(&ch->sends))) {
        oq_remove(&ch->sends, o);
        o->where = NULL, o->chan = NULL;
    }
    while ((o = oq_head(&ch->recvs))) {
        oq_remove(&ch->recvs, o);
        o->where = NULL, o->chan = NULL;
    }
    pool_put(&m->chan_pool, ch);
}

match_ctx *match_ctx_new(comm_ctx *comms, match_arrow_cb cb, void *user)
{
    if (!comms) return NULL;
    match_ctx *m = g_new0(match_ctx, 1);
    m->comms = comms;
    m->cb = cb;
    m->user = user;
    htab_init(&m->insts);
    htab_init(&m->chans);
    htab_init(&m->dgroups);
    pool_init(&m->mops, sizeof(mop));
    pool_init(&m->chan_pool, sizeof(chan));
    pool_init(&m->inst_pool, sizeof(inst));
    m->chan_limit = SWEEP_MIN_CHANS;
    m->inst_limit = SWEEP_MIN_INSTS;
    uint32_t n = comm_ctx_n_ranks(comms);
    m->n_ranks = n;
    m->ranks = aligned_alloc(_Alignof(mrank), (size_t)n * sizeof *m->ranks);
    if (!m->ranks) g_error("slog2-build: out of memory (request tables of %u ranks)", n);
    memset(m->ranks, 0, (size_t)n * sizeof *m->ranks);
    for (uint32_t i = 0; i < n; i++) reqtab_init(&m->ranks[i].reqs);
    m->inits = g_array_new(FALSE, FALSE, sizeof(match_post));
    m->free_inits = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    m->heap = g_ptr_array_new();
    m->unmatched = g_hash_table_new_full(unmatched_hash, unmatched_equal, g_free, NULL);
    comm_ctx_set_resolved_cb(comms, on_resolved, m);
    return m;
}

/* Free every op still held, wherever it is. */
static void free_queue_ops(match_ctx *m, oq *q)
{
    mop *o;
    while ((o = oq_head(q))) op_free(m, o);
}

void match_ctx_free(match_ctx *m)
{
    if (!m) return;
    comm_ctx_set_resolved_cb(m->comms, NULL, NULL);
    size_t n;
    chan **chans = chan_list(m, &n);
    for (size_t i = 0; i < n; i++) {
        free_queue_ops(m, &chans[i]->sends);
        free_queue_ops(m, &chans[i]->recvs);
        chan_free(m, chans[i]);
    }
    g_free(chans);
    htab_free(&m->chans);
    inst **insts = inst_list(m, &n, false); /* all go: the order shows nowhere */
    for (size_t i = 0; i < n; i++) {
        free_queue_ops(m, &insts[i]->recvs);
        free_queue_ops(m, &insts[i]->deferred);
        inst_free(m, insts[i]);
    }
    g_free(insts);
    htab_free(&m->insts);
    dgroup_free_all(m); /* after the ops: nothing counts waiting any more */
    for (uint32_t i = 0; i < m->n_ranks; i++) reqtab_free(&m->ranks[i].reqs);
    free(m->ranks);
    g_array_free(m->inits, TRUE);
    g_array_free(m->free_inits, TRUE);
    g_ptr_array_free(m->heap, TRUE);
    g_free(m->free_mops);
    pool_free(&m->mops);
    pool_free(&m->chan_pool);
    pool_free(&m->inst_pool);
    g_hash_table_destroy(m->unmatched);
    if (m->list) g_array_free(m->list, TRUE);
    g_free(m);
}
