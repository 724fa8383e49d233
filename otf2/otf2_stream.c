/* SPDX-License-Identifier: MIT */
/* otf2_stream.c - OTF2 event records to drawables as they are read:
 * states at each LEAVE, polls at once, arrows as soon as a receive has
 * both its message and its completion. Receive completions EZTrace does
 * not record are inferred per location, message pairs found per receiving
 * rank; both wait only for what is in flight (docs/OTF2.md). */
#include "otf2_stream.h"

#include <inttypes.h>
#include <string.h>

#include "call_plan.h"
#include "dumpi_table.h"
#include "palette.h"

#define O2_PUSH(vec, val)                                               \
    do {                                                                \
        if ((vec).n == (vec).cap) {                                     \
            (vec).cap = (vec).cap ? 2 * (vec).cap : 16;                 \
            (vec).v = g_realloc_n((vec).v, (vec).cap, sizeof *(vec).v); \
        }                                                               \
        (vec).v[(vec).n++] = (val);                                     \
    } while (0)

/* isend_req's value for a send a receive already took: its completion
 * still counts in the wait that records it. */
#define O2_SENT     ((gpointer)1)
#define O2_NO_FRAME UINT64_MAX

/* ------------------------------------------------------------ channels */

typedef struct chan_key {
    uint32_t comm;
    int32_t src, dst;
    uint32_t tag;
} chan_key;

typedef struct chan {
    chan_key k;
    o2_ring sends; /* o2_send*, in send order */
} chan;

static guint chan_hash(gconstpointer p)
{
    const chan_key *k = p;
    return (guint)(k->comm * 2654435761u) ^ (guint)(k->src * 40503u) ^ (guint)(k->dst * 2246822519u) ^ k->tag;
}

static gboolean chan_equal(gconstpointer x, gconstpointer y)
{
    const chan_key *a = x, *b = y;
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static void chan_free(gpointer p)
{
    chan *c = p;
    for (o2_send *s; (s = o2_ring_pop(&c->sends));) g_free(s);
    g_free(c->sends.v);
    g_free(c);
}

void o2_stream_init(mapper *m)
{
    m->chans = g_hash_table_new_full(chan_hash, chan_equal, NULL, chan_free);
    uint32_t n = 0;
    for (size_t i = 0; i < m->a->n_locs; i++) n = MAX(n, m->a->locs[i].rank + 1);
    m->n_rank_slots = n;
    m->by_dst = g_new0(GPtrArray *, n);
    m->fifo = g_new0(o2_ring, n);
}

/* ------------------------------------------------------------ lookups */

/* Caches in flat tables for the small ids archives use (larger ones go
 * the slow way): definitions are read and fixed before any event. */
#define O2_CACHE_IDS 65536

/* o2_world_rank, with each communicator's COMM_GROUP found once. */
static int32_t world_rank(mapper *m, uint32_t comm, uint32_t local)
{
    if (comm >= O2_CACHE_IDS || !m->a->world) return o2_world_rank(m->a, comm, local);
    if (comm >= m->n_comm_groups) {
        uint32_t n = MIN(O2_CACHE_IDS, MAX(comm + 1, 2 * m->n_comm_groups));
        m->comm_groups = g_realloc_n(m->comm_groups, n, sizeof *m->comm_groups);
        for (uint32_t i = m->n_comm_groups; i < n; i++) m->comm_groups[i] = NULL;
        m->n_comm_groups = n;
    }
    const o2_group *g = m->comm_groups[comm];
    if (!g) {
        const o2_comm *c = g_hash_table_lookup(m->a->comms, GUINT_TO_POINTER(comm));
        g = c ? g_hash_table_lookup(m->a->groups, GUINT_TO_POINTER(c->group)) : NULL;
        /* Only COMM_GROUPs (ranks) are kept; anything else the slow way. */
        if (!g || g->type != OTF2_GROUP_TYPE_COMM_GROUP) return o2_world_rank(m->a, comm, local);
        m->comm_groups[comm] = g;
    }
    if (local >= g->n) return -1;
    uint64_t r = g->members[local];
    return r < m->a->world->n ? (int32_t)r : -1;
}

/* ------------------------------------------------------------ allocation */

/* Sends and receives are made and let go by the million: the ones let go
 * wait on a list for reuse (at most what was once in flight at a time). */
static o2_send *send_new(mapper *m)
{
    return m->free_sends.n ? m->free_sends.v[--m->free_sends.n] : g_new(o2_send, 1);
}

static void send_free(mapper *m, o2_send *s)
{
    O2_PUSH(m->free_sends, s);
}

static o2_recv *recv_new(mapper *m)
{
    o2_recv *r = m->free_recvs.n ? m->free_recvs.v[--m->free_recvs.n] : g_new(o2_recv, 1);
    memset(r, 0, sizeof *r);
    return r;
}

/* ------------------------------------------------------------ receives */

static void arrow(mapper *m, o2_recv *r);

static o2_recv *hold(o2_recv *r)
{
    r->refs++;
    return r;
}

/* Drop one holder; the last one frees it. A receive that took a message
 * but whose completion no one can tell any more is listed incomplete. */
static void release(mapper *m, o2_recv *r)
{
    if (--r->refs) return;
    if (r->matched && !r->drawn) o2_unmatched(m, "incomplete", r->m_src, (int32_t)r->l->rank, r->m_tag, r->m_comm);
    O2_PUSH(m->free_recvs, r);
}

/* ------------------------------------------------------------ done heap */

static void done_heap_place(mapper *m, o2_done e, size_t i)
{
    m->done_heap[i] = e;
    e.r->at_done = (uint32_t)i;
}

static void done_heap_up(mapper *m, size_t i)
{
    o2_done e = m->done_heap[i];
    while (i > 0 && e.t < m->done_heap[(i - 1) / 2].t) {
        done_heap_place(m, m->done_heap[(i - 1) / 2], i);
        i = (i - 1) / 2;
    }
    done_heap_place(m, e, i);
}

static void done_heap_down(mapper *m, size_t i)
{
    o2_done e = m->done_heap[i];
    size_t n = m->n_done_heap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && m->done_heap[c + 1].t < m->done_heap[c].t) c++;
        if (!(m->done_heap[c].t < e.t)) break;
        done_heap_place(m, m->done_heap[c], i);
        i = c;
    }
    done_heap_place(m, e, i);
}

/* r's done_t is new: put it in the heap, or move it. */
static void done_heap_set(mapper *m, o2_recv *r)
{
    o2_done e = {r->done_t, r};
    if (r->at_done == O2_NONE) {
        if (m->n_done_heap == m->cap_done_heap) {
            m->cap_done_heap = m->cap_done_heap ? 2 * m->cap_done_heap : 256;
            m->done_heap = g_realloc_n(m->done_heap, m->cap_done_heap, sizeof *m->done_heap);
        }
        m->done_heap[m->n_done_heap++] = e;
        done_heap_up(m, m->n_done_heap - 1);
    } else {
        size_t i = r->at_done;
        m->done_heap[i] = e;
        done_heap_up(m, i);
        done_heap_down(m, r->at_done);
    }
}

static void done_heap_remove(mapper *m, o2_recv *r)
{
    if (r->at_done == O2_NONE) return;
    size_t i = r->at_done;
    r->at_done = O2_NONE;
    o2_done last = m->done_heap[--m->n_done_heap];
    if (i == m->n_done_heap) return;
    done_heap_place(m, last, i);
    done_heap_up(m, i);
    done_heap_down(m, last.r->at_done);
}

static void set_done(mapper *m, o2_recv *r, int64_t t, bool inferred)
{
    r->done = true;
    r->done_t = t;
    if (r->in_fifo && !r->cancelled) done_heap_set(m, r);
    if (inferred) {
        /* A receive whose completion is inferred records no envelope. */
        r->inferred_done = true;
        r->final = true;
        m->n_inferred_done++;
    }
    if (r->matched) arrow(m, r);
}

/* Messages to one rank in the order a receive without envelope takes
 * them: by the entry of the sending region, then sending location. */
static int msg_before(const o2_send *a, const o2_send *b)
{
    if (a->t != b->t) return a->t < b->t;
    if (a->l != b->l) return a->l < b->l;
    return a->seq < b->seq;
}

static o2_send *chan_head(mapper *m, chan *c)
{
    o2_send *s;
    while ((s = o2_ring_peek(&c->sends)) && s->cancelled) {
        o2_ring_pop(&c->sends);
        m->n_cancelled++;
        send_free(m, s);
    }
    return s;
}

/* The earliest send time (its region's entry) still to come: a receive
 * without envelope can take the earliest message to its rank only once no
 * earlier one can still be read. A send is taken to be recorded in the
 * innermost open region (the MPI call's), so a location's next one starts
 * no earlier than that region or its next record. */
static int64_t loc_send_watermark(const o2_loc *l)
{
    if (!l->started) return INT64_MIN;
    int64_t w = l->last_t + l->shift_ns;
    if (l->stack.n) w = MIN(w, l->stack.v[l->stack.n - 1].t0);
    return w;
}

/* While a chunk of one location is read, only that location's part can
 * move: the others' is taken once per chunk (o2_stream_reading), not on
 * every record, which would scan every location each time. */
static int64_t send_watermark(const mapper *m)
{
    const o2_loc *r = m->reading;
    if (r) return r->finished ? m->others_send_w : MIN(m->others_send_w, loc_send_watermark(r));
    int64_t w = INT64_MAX;
    for (size_t i = 0; i < m->a->n_locs; i++) {
        const o2_loc *l = &m->a->locs[i];
        if (l->finished) continue;
        w = MIN(w, loc_send_watermark(l));
    }
    return w;
}

void o2_stream_reading(mapper *m, const o2_loc *l)
{
    m->reading = NULL;
    if (!l) return;
    int64_t w = INT64_MAX;
    for (size_t i = 0; i < m->a->n_locs; i++) {
        const o2_loc *x = &m->a->locs[i];
        if (x != l && !x->finished) w = MIN(w, loc_send_watermark(x));
    }
    m->others_send_w = w;
    m->reading = l;
}

static void take(mapper *m, o2_recv *r, chan *c)
{
    o2_send *s = o2_ring_pop(&c->sends);
    r->matched = true;
    r->m_start = s->t;
    r->m_timeline = s->l->timeline;
    r->m_src = c->k.src;
    r->m_tag = s->tag;
    r->m_comm = s->comm;
    r->m_bytes = s->bytes;
    if (s->request && o2_reqmap_get(&s->l->isend_req, s->request) == s)
        o2_reqmap_put(&s->l->isend_req, s->request, O2_SENT);
    send_free(m, s);
    if (r->done) arrow(m, r);
}

static void fifo_left(mapper *m, o2_recv *r)
{
    r->in_fifo = false;
    done_heap_remove(m, r);
}

/* MPI's rules (docs/MATCHING.md): messages on one (communicator, source,
 * destination, tag) are received in the order sent, by the receives in
 * the order posted. A receive whose envelope was not recorded takes the
 * earliest sent message to its rank that no earlier receive took (as the
 * DUMPI path does for a wildcard receive without a status). A receive
 * waits, and the receives posted after it on its rank with it, while its
 * envelope may still come or its message may still be read. */
static void match_rank(mapper *m, uint32_t rank, int64_t send_w)
{
    o2_ring *q = &m->fifo[rank];
    o2_recv *r;
    while ((r = o2_ring_peek(q))) {
        if (r->cancelled) {
            m->n_cancelled++;
        } else if (r->exact) {
            int32_t src = r->chan ? r->src : world_rank(m, r->comm, r->peer);
            if (src < 0) {
                o2_unmatched(m, "bad-comm", src, (int32_t)rank, r->tag, r->comm);
            } else {
                chan *c = r->chan;
                if (!c) {
                    chan_key k = {r->comm, src, (int32_t)rank, r->tag};
                    c = g_hash_table_lookup(m->chans, &k);
                    r->chan = c, r->src = src;
                }
                if (c && chan_head(m, c))
                    take(m, r, c);
                else if (m->all_read)
                    o2_unmatched(m, "recv", src, (int32_t)rank, r->tag, r->comm);
                else
                    break;
            }
        } else if (r->final || m->all_read) {
            GPtrArray *mine = m->by_dst[rank];
            chan *best = NULL;
            o2_send *bs = NULL;
            for (guint i = 0; mine && i < mine->len; i++) {
                o2_send *s = chan_head(m, mine->pdata[i]);
                if (s && (!bs || msg_before(s, bs))) best = mine->pdata[i], bs = s;
            }
            if (!m->all_read && (!bs || bs->t >= send_w)) break;
            if (best)
                take(m, r, best);
            else
                o2_unmatched(m, "recv", -1, (int32_t)rank, O2_UNKNOWN, O2_UNKNOWN);
        } else {
            break;
        }
        o2_ring_pop(q);
        fifo_left(m, r);
        release(m, r);
    }
}

void o2_stream_match(mapper *m)
{
    int64_t w = send_watermark(m);
    for (uint32_t r = 0; r < m->n_rank_slots; r++) match_rank(m, r, w);
    if (!m->all_read) return;
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, m->chans);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        chan *c = v;
        for (o2_send *s; (s = o2_ring_pop(&c->sends)); send_free(m, s)) {
            if (s->cancelled)
                m->n_cancelled++;
            else
                o2_unmatched(m, "send", c->k.src, c->k.dst, c->k.tag, c->k.comm);
        }
    }
}

static void arrow(mapper *m, o2_recv *r)
{
    if (r->drawn) return;
    r->drawn = true;
    bool inferred = !r->exact || r->inferred_done;
    if (inferred && m->inferred_cat == O2_NONE) /* Lazily: a legend entry only where something was inferred. */
        m->inferred_cat = o2_category(m, SLOG_KIND_ARROW, "message (inferred)", "message", PALETTE_ARROW_INFERRED,
                                      call_arrow_fields, N_ARROW_FIELDS, 0);
    o2_draw d = {
        .kind = SLOG_KIND_ARROW,
        .category = inferred ? m->inferred_cat : m->msg_cat,
        .timeline = r->m_timeline,
        .end_timeline = r->l->timeline,
        .start = r->m_start,
        .end = r->done_t,
        .cls = 1,
        .tl_order = r->l->timeline,
        .idx = r->idx,
        .n_info = 3,
        .info = {r->exact ? (int64_t)r->bytes : (int64_t)r->m_bytes, r->m_tag, r->exact ? r->comm : r->m_comm}};
    o2_emit(m, &d);
    m->n_arrows++;
    if (inferred) m->n_inferred++;
}

/* The earliest end an arrow or state still to come can have. */
int64_t o2_stream_watermark(mapper *m)
{
    int64_t w = INT64_MAX;
    for (size_t i = 0; i < m->a->n_locs; i++) {
        const o2_loc *l = &m->a->locs[i];
        if (l->finished) continue;
        if (!l->started) return INT64_MIN;
        w = MIN(w, l->last_t + l->shift_ns);
        /* Receives an undecided MPI_Waitall may have completed. */
        if (l->wa_open) w = MIN(w, l->wa_t1);
    }
    /* Receives completed but waiting for their message. */
    if (m->n_done_heap) w = MIN(w, m->done_heap[0].t);
    return w;
}

void o2_stream_free(mapper *m)
{
    if (!m->chans) return;
    for (uint32_t r = 0; r < m->n_rank_slots; r++) {
        for (o2_recv *x; (x = o2_ring_pop(&m->fifo[r]));) {
            fifo_left(m, x);
            x->matched = false;
            release(m, x);
        }
        g_free(m->fifo[r].v);
        if (m->by_dst[r]) g_ptr_array_free(m->by_dst[r], TRUE);
    }
    for (size_t i = 0; i < m->a->n_locs; i++) {
        o2_loc *l = &m->a->locs[i];
        for (size_t k = 0; k < l->stack.n; k++) {
            o2_frame *f = &l->stack.v[k];
            for (guint j = 0; f->await1 && j < 1 + (f->await_more ? f->await_more->len : 0); j++) {
                o2_recv *x = j ? f->await_more->pdata[j - 1] : f->await1;
                x->matched = false;
                release(m, x);
            }
            if (f->await_more) g_ptr_array_free(f->await_more, TRUE);
        }
        l->stack.n = 0;
        for (o2_recv *x; (x = o2_ring_pop(&l->recvq));) {
            x->matched = false;
            release(m, x);
        }
        for (uint32_t i = 0; i < l->irecv_req.cap; i++) {
            o2_recv *x = l->irecv_req.vals[i];
            if (!x) continue;
            x->matched = false;
            release(m, x);
        }
        o2_reqmap_free(&l->irecv_req);
    }
    g_free(m->by_dst);
    g_free(m->fifo);
    g_free(m->done_heap);
    g_free(m->comm_groups);
    g_free(m->region_cats);
    for (size_t i = 0; i < m->free_sends.n; i++) g_free(m->free_sends.v[i]);
    for (size_t i = 0; i < m->free_recvs.n; i++) g_free(m->free_recvs.v[i]);
    g_free(m->free_sends.v);
    g_free(m->free_recvs.v);
    memset(&m->free_sends, 0, sizeof m->free_sends);
    memset(&m->free_recvs, 0, sizeof m->free_recvs);
    g_hash_table_destroy(m->chans);
    m->chans = NULL;
}

/* ------------------------------------------------------------ completions */

enum { WAIT_NONE, WAIT_ONE, WAIT_ALL };

static int wait_kind(const char *name)
{
    if (!strcmp(name, "MPI_Wait") || !strcmp(name, "MPI_Waitany")) return WAIT_ONE;
    if (!strcmp(name, "MPI_Waitall") || !strcmp(name, "MPI_Waitsome") || !strcmp(name, "MPI_Testall") ||
        !strcmp(name, "MPI_Testsome"))
        return WAIT_ALL;
    return WAIT_NONE;
}

/* The oldest receive still to complete that was posted before frame idx
 * (or outside any), or NULL; the completed and cancelled ones are let go. */
static o2_recv *oldest_pending(mapper *m, o2_loc *l, uint64_t idx)
{
    o2_recv *r;
    while ((r = o2_ring_peek(&l->recvq)) && (r->done || r->cancelled)) {
        o2_ring_pop(&l->recvq);
        release(m, r);
    }
    if (r && r->post_idx != O2_NO_FRAME && r->post_idx >= idx) return NULL;
    return r;
}

static void complete_oldest(mapper *m, o2_loc *l, uint64_t idx, int64_t t1)
{
    o2_recv *r = oldest_pending(m, l, idx);
    if (!r) return;
    o2_ring_pop(&l->recvq);
    set_done(m, r, t1, true);
    match_rank(m, l->rank, send_watermark(m));
    release(m, r);
}

/* The open MPI_Waitall's share, now that the single waits after it are
 * known: every pending receive but as many as those waits will need; then
 * each of them, in order, the oldest. */
static void waitall_decide(mapper *m, o2_loc *l)
{
    if (!l->wa_open) return;
    l->wa_open = false;
    uint32_t keep = (uint32_t)l->wa_ones.n;
    for (uint32_t n = l->wa_q > keep ? l->wa_q - keep : 0; n > 0; n--) complete_oldest(m, l, l->wa_idx, l->wa_t1);
    for (size_t i = 0; i < l->wa_ones.n; i++) complete_oldest(m, l, l->wa_ones.v[i].idx, l->wa_ones.v[i].t1);
    l->wa_ones.n = 0;
}

/* Receives posted without a recorded completion (EZTrace writes
 * MPI_IRECV_REQUEST and never MPI_IRECV): the wait that completed each is
 * inferred, in posting order. An MPI_Wait completes the oldest pending
 * receive; an MPI_Waitall all of them but as many as the MPI_Waits before
 * the next Waitall will need (the usual "post receives, send, wait for the
 * sends, wait for each receive" halo exchange), decided at that next
 * Waitall. docs/OTF2.md. */
static void infer_at_wait(mapper *m, o2_loc *l, const o2_frame *f)
{
    if (l->saw_completions || f->completed) return;
    const o2_region *r = g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(f->region));
    int kind = r ? wait_kind(o2_string(m->a, r->name)) : WAIT_NONE;
    if (kind == WAIT_ONE) {
        if (l->wa_open)
            O2_PUSH(l->wa_ones, ((o2_wait){f->t1, f->idx}));
        else
            complete_oldest(m, l, f->idx, f->t1);
    } else if (kind == WAIT_ALL) {
        waitall_decide(m, l);
        uint32_t q = 0;
        oldest_pending(m, l, f->idx);
        for (size_t i = 0; i < l->recvq.n; i++) {
            const o2_recv *x = o2_ring_at(&l->recvq, i);
            if (x->post_idx != O2_NO_FRAME && x->post_idx >= f->idx) break;
            if (!x->done && !x->cancelled) q++;
        }
        l->wa_open = true;
        l->wa_t1 = f->t1;
        l->wa_idx = f->idx;
        l->wa_q = q;
    }
}

/* ------------------------------------------------------------ records */

static o2_frame *top(o2_loc *l)
{
    return l->stack.n ? &l->stack.v[l->stack.n - 1] : NULL;
}

/* Every record: its time on the common clock, and that it was read. */
static int64_t seen(o2_stream_ctx *c, OTF2_TimeStamp time)
{
    o2_loc *l = c->l;
    int64_t t = o2_ns(c->m->a, time);
    l->n_read++;
    /* A time days away from the archive's clock origin is a damaged
     * record: it would stretch the file's time tree past its limits.
     * Counted, and put at the location's previous time. */
    if (t > O2_TIME_LIMIT_NS || t < -O2_TIME_LIMIT_NS) {
        l->n_bad_time++;
        t = l->last_t == INT64_MIN ? 0 : l->last_t;
    }
    if (t > l->last_t) l->last_t = t;
    return t + l->shift_ns;
}

static void starts(o2_loc *l, int64_t t)
{
    if (l->first_start == INT64_MAX) l->first_start = t;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    o2_stream_ctx *c = u;
    int64_t t = seen(c, time);
    o2_loc *l = c->l;
    starts(l, t);
    o2_frame f = {.t0 = t,
                  .t1 = t,
                  .idx = l->n_frames++,
                  .region = region,
                  .dest = -1,
                  .source = -1,
                  .root = -1,
                  .tag = O2_UNKNOWN,
                  .bytes = O2_UNKNOWN,
                  .sent = O2_UNKNOWN,
                  .received = O2_UNKNOWN,
                  .comm = O2_UNKNOWN,
                  .request = O2_UNKNOWN};
    O2_PUSH(l->stack, f);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static uint32_t region_category_slow(mapper *m, uint32_t ref);

/* A region's state category, made at its first state; cached by id. */
static uint32_t region_category(mapper *m, uint32_t ref)
{
    if (ref < m->n_region_cats && m->region_cats[ref] != O2_NONE) return m->region_cats[ref];
    uint32_t cat = region_category_slow(m, ref);
    if (ref < O2_CACHE_IDS) {
        if (ref >= m->n_region_cats) {
            uint32_t n = MIN(O2_CACHE_IDS, MAX(ref + 1, 2 * m->n_region_cats));
            m->region_cats = g_realloc_n(m->region_cats, n, sizeof *m->region_cats);
            for (uint32_t i = m->n_region_cats; i < n; i++) m->region_cats[i] = O2_NONE;
            m->n_region_cats = n;
        }
        m->region_cats[ref] = cat;
    }
    return cat;
}

static uint32_t region_category_slow(mapper *m, uint32_t ref)
{
    o2_region *r = g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(ref));
    if (!r) {
        m->a->n_missing_defs++;
        r = g_new0(o2_region, 1);
        r->category = O2_NONE;
        r->name = O2_NONE;
        g_hash_table_insert(m->a->regions, GUINT_TO_POINTER(ref), r);
    }
    if (r->category != O2_NONE) return r->category;
    char undefined[48];
    const char *name = r->defined ? o2_string(m->a, r->name) : NULL;
    if (!name || !name[0]) {
        snprintf(undefined, sizeof undefined, "region %u", ref);
        name = undefined;
    }
    const dumpi_fn_info *fn = strncmp(name, "MPI_", 4) == 0 ? dumpi_fn_by_name(name) : NULL;
    dumpi_family fam =
        fn ? (dumpi_family)fn->family : (r->paradigm == OTF2_PARADIGM_MPI ? DUMPI_FAMILY_OTHER : DUMPI_FAMILY_USER);
    static const uint8_t p2p_fields[] = {F_BYTES, F_DEST, F_SOURCE, F_TAG, F_COMM, F_REQUEST};
    static const uint8_t coll_fields[] = {F_SENT, F_RECEIVED, F_ROOT, F_COMM};
    static const uint8_t wait_fields[] = {F_COMPLETED};
    const uint8_t *fields = NULL;
    uint32_t n = 0;
    if (fam == DUMPI_FAMILY_P2P) fields = p2p_fields, n = G_N_ELEMENTS(p2p_fields);
    if (fam == DUMPI_FAMILY_COLLECTIVE) fields = coll_fields, n = G_N_ELEMENTS(coll_fields);
    if (fam == DUMPI_FAMILY_WAIT_TEST) fields = wait_fields, n = G_N_ELEMENTS(wait_fields);
    r->category = o2_category(m, SLOG_KIND_STATE, name, dumpi_family_name(fam), palette_colour(fam, name), fields, n,
                              (uint8_t)fam);
    return r->category;
}

/* A frame is left (or the trace ends): its state, the receives its exit
 * completes, the completions it may have made. */
static void close_frame(mapper *m, o2_loc *l, o2_frame *f)
{
    uint32_t cat = region_category(m, f->region);
    const o2_cat *c = m->cats->pdata[cat];
    o2_draw d = {.kind = SLOG_KIND_STATE,
                 .category = cat,
                 .timeline = l->timeline,
                 .end_timeline = l->timeline,
                 .start = f->t0,
                 .end = f->t1,
                 .tl_order = l->timeline,
                 .idx = f->idx,
                 .n_info = c->n_fields};
    for (uint32_t k = 0; k < c->n_fields; k++) {
        int64_t v = SLOG_INFO_UNKNOWN;
        switch (c->fields[k]) {
        case F_BYTES: v = f->bytes; break;
        case F_DEST: v = f->dest < 0 ? SLOG_INFO_UNKNOWN : f->dest; break;
        case F_SOURCE: v = f->source < 0 ? SLOG_INFO_UNKNOWN : f->source; break;
        case F_TAG: v = f->tag; break;
        case F_COMM: v = f->comm; break;
        case F_REQUEST: v = f->request; break;
        case F_SENT: v = f->sent; break;
        case F_RECEIVED: v = f->received; break;
        case F_ROOT: v = f->root < 0 ? SLOG_INFO_UNKNOWN : f->root; break;
        case F_COMPLETED: v = f->completed; break;
        default: break;
        }
        d.info[k] = v;
    }
    o2_emit(m, &d);
    m->n_states++;
    if (f->await1) {
        for (guint i = 0; i < 1 + (f->await_more ? f->await_more->len : 0); i++) {
            o2_recv *r = i ? f->await_more->pdata[i - 1] : f->await1;
            set_done(m, r, f->t1, false);
            release(m, r);
        }
        if (f->await_more) g_ptr_array_free(f->await_more, TRUE);
        f->await1 = NULL;
        f->await_more = NULL;
        match_rank(m, l->rank, send_watermark(m));
    }
    infer_at_wait(m, l, f);
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    o2_stream_ctx *c = u;
    int64_t t = seen(c, time);
    o2_loc *l = c->l;
    /* The innermost open frame of this region. A tool may leave regions
     * out of nesting order (EZTrace leaves its whole-run region before its
     * finalize region): that frame alone is closed, the ones entered after
     * it stay open, so each state spans its own ENTER..LEAVE. */
    size_t k = l->stack.n;
    while (k > 0 && l->stack.v[k - 1].region != region) k--;
    if (k == 0) {
        l->n_unbalanced++;
        return OTF2_CALLBACK_SUCCESS;
    }
    o2_frame f = l->stack.v[k - 1];
    f.t1 = t < f.t0 ? f.t0 : t;
    if (k != l->stack.n) {
        l->n_misnested++;
        memmove(&l->stack.v[k - 1], &l->stack.v[k], (l->stack.n - k) * sizeof *l->stack.v);
    }
    l->stack.n--;
    close_frame(c->m, l, &f);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static void post_send(o2_stream_ctx *c, int64_t t, uint32_t receiver, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                      uint64_t request)
{
    mapper *m = c->m;
    o2_loc *l = c->l;
    o2_frame *f = top(l);
    starts(l, f ? f->t0 : t);
    int32_t dst = world_rank(m, comm, receiver);
    if (f) {
        f->dest = dst;
        f->tag = tag;
        f->bytes = (int64_t)len;
        f->comm = comm;
        if (request) f->request = (int64_t)request;
    }
    l->n_handled++;
    if (request) {
        /* Request ids are often addresses, reused once completed: a new
         * post replaces the old one, which must have completed unrecorded. */
        if (o2_reqmap_get(&l->isend_req, request)) l->n_reused++;
    }
    if (dst < 0) {
        o2_unmatched(m, "bad-comm", (int32_t)l->rank, -1, tag, comm);
        if (request) o2_reqmap_put(&l->isend_req, request, O2_SENT);
        return;
    }
    o2_send *s = send_new(m);
    *s = (o2_send){.t = f ? f->t0 : t,
                   .seq = l->n_sends++,
                   .l = l,
                   .comm = comm,
                   .peer = receiver,
                   .tag = tag,
                   .bytes = len,
                   .request = request};
    if (request) o2_reqmap_put(&l->isend_req, request, s);
    chan_key k = {comm, (int32_t)l->rank, dst, tag};
    chan *ch = g_hash_table_lookup(m->chans, &k);
    if (!ch) {
        ch = g_new0(chan, 1);
        ch->k = k;
        g_hash_table_insert(m->chans, &ch->k, ch);
        if ((uint32_t)dst < m->n_rank_slots) {
            if (!m->by_dst[dst]) m->by_dst[dst] = g_ptr_array_new();
            g_ptr_array_add(m->by_dst[dst], ch);
        }
    }
    o2_ring_push(&ch->sends, s);
    if ((uint32_t)dst < m->n_rank_slots) match_rank(m, (uint32_t)dst, send_watermark(m));
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    o2_stream_ctx *c = u;
    post_send(c, seen(c, time), receiver, comm, tag, len, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t request)
{
    o2_stream_ctx *c = u;
    post_send(c, seen(c, time), receiver, comm, tag, len, request);
    return OTF2_CALLBACK_SUCCESS;
}

static void completed_in_top(o2_loc *l)
{
    o2_frame *f = top(l);
    if (f) f->completed++;
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                           OTF2_AttributeList *attrs, uint64_t request)
{
    o2_stream_ctx *c = u;
    o2_loc *l = c->l;
    seen(c, time);
    l->saw_completions = true;
    if (o2_reqmap_take(&l->isend_req, request))
        completed_in_top(l);
    else
        l->n_stray++;
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

/* A new receive of l, held by its rank's queue and by the caller, who
 * releases it when done with it. */
static o2_recv *new_recv(mapper *m, o2_loc *l, int64_t t)
{
    o2_frame *f = top(l);
    o2_recv *r = recv_new(m);
    r->refs = 1;
    r->at_done = O2_NONE;
    r->post_t = f ? f->t0 : t;
    r->post_idx = f ? f->idx : O2_NO_FRAME;
    r->idx = l->n_recvs++;
    r->l = l;
    if (l->rank < m->n_rank_slots) {
        o2_ring_push(&m->fifo[l->rank], hold(r));
        r->in_fifo = true;
    }
    return r;
}

/* A request's entry goes: its receive can no longer learn its envelope. */
static void request_gone(mapper *m, o2_loc *l, o2_recv *r)
{
    r->final = true;
    release(m, r);
    match_rank(m, l->rank, send_watermark(m));
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                          OTF2_AttributeList *attrs, uint64_t request)
{
    o2_stream_ctx *c = u;
    mapper *m = c->m;
    o2_loc *l = c->l;
    int64_t t = seen(c, time);
    o2_frame *f = top(l);
    o2_recv *r = new_recv(m, l, t);
    r->request = request;
    if (f) f->request = (int64_t)request;
    o2_recv *old = o2_reqmap_get(&l->irecv_req, request);
    o2_reqmap_put(&l->irecv_req, request, hold(r));
    if (old) {
        l->n_reused++;
        request_gone(m, l, old);
    }
    if (!l->saw_completions) o2_ring_push(&l->recvq, hold(r));
    release(m, r);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

/* A receive completed with its envelope: the pending one of that request,
 * or (blocking, or no request record) one posted by its own region. */
static void recv_done(o2_stream_ctx *c, int64_t t, uint32_t sender, OTF2_CommRef comm, uint32_t tag, uint64_t len,
                      bool has_request, uint64_t request)
{
    mapper *m = c->m;
    o2_loc *l = c->l;
    o2_frame *f = top(l);
    o2_recv *r = NULL;
    bool held = false;
    if (has_request) {
        l->saw_completions = true;
        r = o2_reqmap_take(&l->irecv_req, request);
        if (r) held = true; /* the request's ref passes to this function */
    }
    if (!r) {
        starts(l, f ? f->t0 : t);
        r = new_recv(m, l, t);
        r->request = request;
        held = true;
    }
    r->exact = true;
    r->final = true;
    r->comm = comm;
    r->peer = sender;
    r->tag = tag;
    r->bytes = len;
    if (f) {
        f->source = world_rank(m, comm, sender);
        f->tag = tag;
        f->bytes = (int64_t)len;
        f->comm = comm;
        if (has_request) f->completed++;
        /* The arrow ends at the frame's exit, once known. */
        if (!f->await1) {
            f->await1 = hold(r);
        } else {
            if (!f->await_more) f->await_more = g_ptr_array_new();
            g_ptr_array_add(f->await_more, hold(r));
        }
    } else {
        starts(l, t);
        set_done(m, r, t, false);
    }
    if (held) release(m, r);
    match_rank(m, l->rank, send_watermark(m));
    l->n_handled++;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t len)
{
    o2_stream_ctx *c = u;
    recv_done(c, seen(c, time), sender, comm, tag, len, false, 0);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t len, uint64_t request)
{
    o2_stream_ctx *c = u;
    recv_done(c, seen(c, time), sender, comm, tag, len, true, request);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_test(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                 OTF2_AttributeList *attrs, uint64_t request)
{
    o2_stream_ctx *c = u;
    mapper *m = c->m;
    o2_loc *l = c->l;
    int64_t t = seen(c, time);
    starts(l, t);
    const o2_frame *f = top(l);
    const o2_region *r = f ? g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(f->region)) : NULL;
    char name[160];
    snprintf(name, sizeof name, "%s (nothing)", r && r->defined ? o2_string(m->a, r->name) : "MPI_Test");
    uint32_t cat = o2_category(m, SLOG_KIND_EVENT, name, "poll", palette_event_colour(name), NULL, 0, 0);
    o2_draw d = {.kind = SLOG_KIND_EVENT,
                 .category = cat,
                 .timeline = l->timeline,
                 .end_timeline = l->timeline,
                 .start = t,
                 .end = t,
                 .sub = 1,
                 .tl_order = l->timeline,
                 .idx = l->n_polls++};
    o2_emit(m, &d);
    m->n_events++;
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                      OTF2_AttributeList *attrs, uint64_t request)
{
    o2_stream_ctx *c = u;
    mapper *m = c->m;
    o2_loc *l = c->l;
    seen(c, time);
    o2_recv *r = o2_reqmap_take(&l->irecv_req, request);
    gpointer s;
    if (r) {
        r->cancelled = true;
        done_heap_remove(m, r);
        request_gone(m, l, r);
    } else if ((s = o2_reqmap_take(&l->isend_req, request))) {
        /* A send a receive already took stays taken. */
        if (s != O2_SENT) ((o2_send *)s)->cancelled = true;
    } else {
        l->n_stray++;
    }
    completed_in_top(l);
    l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                       OTF2_AttributeList *attrs)
{
    o2_stream_ctx *c = u;
    seen(c, time);
    c->l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                     OTF2_AttributeList *attrs, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t received)
{
    o2_stream_ctx *c = u;
    seen(c, time);
    o2_frame *f = top(c->l);
    if (f) {
        f->sent = (int64_t)sent;
        f->received = (int64_t)received;
        f->comm = comm;
        if (root != OTF2_UNDEFINED_UINT32) f->root = world_rank(c->m, comm, root);
    }
    c->l->n_handled++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_unknown(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                    OTF2_AttributeList *attrs)
{
    o2_stream_ctx *c = u;
    seen(c, time);
    c->l->n_unknown++;
    return OTF2_CALLBACK_SUCCESS;
}

/* One counting callback per skipped record kind, of its exact type. */
#define O2_PARAMS(...) __VA_ARGS__
#define O2_SKIP_CB(name, rec, fam, params)                                                                 \
    static OTF2_CallbackCode skip_##name(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u, \
                                         OTF2_AttributeList *attrs O2_PARAMS params)                       \
    {                                                                                                      \
        o2_stream_ctx *c = u;                                                                              \
        seen(c, time);                                                                                     \
        c->l->skipped[O2_SKIP_##name]++;                                                                   \
        return OTF2_CALLBACK_SUCCESS;                                                                      \
    }
OTF2_SKIPPED_RECORDS(O2_SKIP_CB)
#undef O2_SKIP_CB

OTF2_EvtReaderCallbacks *o2_stream_callbacks(void)
{
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

void o2_stream_end_location(mapper *m, o2_loc *l)
{
    l->finished = true;
    /* Regions never left (a cut trace): drawn up to the location's end,
     * innermost first, as their exits would have come. */
    int64_t end = l->last_t == INT64_MIN ? INT64_MIN : l->last_t + l->shift_ns;
    while (l->stack.n) {
        o2_frame f = l->stack.v[--l->stack.n];
        f.t1 = MAX(f.t0, end);
        m->n_open_closed++;
        close_frame(m, l, &f);
    }
    waitall_decide(m, l);
    /* No envelope or completion can come any more. */
    for (o2_recv *r; (r = o2_ring_pop(&l->recvq));) release(m, r);
    o2_reqmap q = l->irecv_req;
    memset(&l->irecv_req, 0, sizeof l->irecv_req);
    for (uint32_t i = 0; i < q.cap; i++) {
        o2_recv *r = q.vals[i];
        if (!r) continue;
        r->final = true;
        release(m, r);
    }
    o2_reqmap_free(&q);
    o2_stream_match(m);
}

/* ------------------------------------------------------------ clock pass */

static bool is_sync_collective(const char *name)
{
    static const char *const sync[] = {"MPI_Barrier",    "MPI_Allreduce",      "MPI_Allgather",
                                       "MPI_Allgatherv", "MPI_Alltoall",       "MPI_Alltoallv",
                                       "MPI_Alltoallw",  "MPI_Reduce_scatter", "MPI_Reduce_scatter_block"};
    for (size_t i = 0; i < G_N_ELEMENTS(sync); i++)
        if (strcmp(name, sync[i]) == 0) return true;
    return false;
}

static int64_t sync_time(o2_sync_ctx *c, OTF2_TimeStamp time)
{
    int64_t t = o2_ns(c->a, time);
    if (t > O2_TIME_LIMIT_NS || t < -O2_TIME_LIMIT_NS) t = c->stack.n ? c->stack.v[c->stack.n - 1].t0 : 0;
    return t;
}

static OTF2_CallbackCode sy_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    o2_sync_ctx *c = u;
    __typeof__(*c->stack.v) f = {region, sync_time(c, time), O2_UNKNOWN};
    O2_PUSH(c->stack, f);
    return OTF2_CALLBACK_SUCCESS;
}

/* The first synchronising collectives on a communicator of every rank,
 * in the order entered (they do not nest). */
static OTF2_CallbackCode sy_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region)
{
    o2_sync_ctx *c = u;
    size_t k = c->stack.n;
    while (k > 0 && c->stack.v[k - 1].region != region) k--;
    if (k == 0) return OTF2_CALLBACK_SUCCESS;
    __typeof__(*c->stack.v) f = c->stack.v[k - 1];
    memmove(&c->stack.v[k - 1], &c->stack.v[k], (c->stack.n - k) * sizeof *c->stack.v);
    c->stack.n--;
    int64_t t = sync_time(c, time);
    const o2_region *r = g_hash_table_lookup(c->a->regions, GUINT_TO_POINTER(region));
    if (!r || f.comm == O2_UNKNOWN || !is_sync_collective(o2_string(c->a, r->name))) return OTF2_CALLBACK_SUCCESS;
    const o2_comm *cm = g_hash_table_lookup(c->a->comms, GUINT_TO_POINTER((uint32_t)f.comm));
    const o2_group *g = cm ? g_hash_table_lookup(c->a->groups, GUINT_TO_POINTER(cm->group)) : NULL;
    if (!g || g->n != c->n_world) return OTF2_CALLBACK_SUCCESS;
    c->enter[c->n] = f.t0;
    c->leave[c->n] = t < f.t0 ? f.t0 : t;
    return ++c->n == O2_SYNC_MAX ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode sy_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *u,
                                     OTF2_AttributeList *attrs, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                     uint64_t sent, uint64_t received)
{
    o2_sync_ctx *c = u;
    if (c->stack.n) c->stack.v[c->stack.n - 1].comm = comm;
    return OTF2_CALLBACK_SUCCESS;
}

OTF2_EvtReaderCallbacks *o2_sync_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb) return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, sy_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, sy_leave);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, sy_coll_end);
    return cb;
}
