/* SPDX-License-Identifier: MIT */
/* test_random.c - randomized end-to-end check of comm.c + match.c.
 *
 * A small MPI simulator runs 8 ranks doing random sends and receives
 * (wildcards, blocking and nonblocking, request ids reused, PROC_NULL) on
 * WORLD, a dup, a split with reversed keys (two colours), a comm_create'd
 * subset, and a dup
 * that reuses a freed handle. It matches messages by the MPI rules itself and
 * records each rank's calls. The records are then fed to the engines
 *   - in exit-time order (what the k-way merge gives), where no arrow may
 *     end before the watermark slog2-build gives the writer after the
 *     record before it: min(exit time, match_low_watermark());
 *   - in many random interleavings that keep each rank's own order;
 * and every arrow must join the message's send and the receive that got it.
 *
 * A second mode completes about half of the wildcard receives without a
 * status, as with MPI_STATUS_IGNORE. Their messages are inferred, and when
 * sources compete the inference may pick another message than the
 * simulator's (a send merged after the receive completed, an earlier start
 * that arrived later), so that mode checks what must hold whatever was
 * picked (check_inferred).
 */
#include <glib.h>
#include <string.h>

#include "check.h"
#include "match.h"

#define N     8
#define NCOMM 6
#define NTAG  3

typedef enum rkind {
    R_DUP,
    R_SPLIT,
    R_GROUP,
    R_INCL,
    R_CREATE,
    R_GFREE,
    R_FREE,
    R_SEND,
    R_IRECV,
    R_RECV,
    R_DONE
} rkind;

typedef struct rec {
    rkind k;
    int comm, peer, tag, req, newh, a, b;
    int st_src, st_tag, cancelled;
    int ci;        /* send/receive: the simulator's communicator index */
    bool nostatus; /* receive completion recorded without a status */
    int64_t entry, exit;
    int64_t msg; /* send: message id; receive completion: expected id or -1 */
} rec;

typedef struct scomm {
    int n;
    int members[N];
    int handle[N]; /* -1: not a member */
    bool live;
} scomm;

typedef struct posted {
    int req, comm, src, tag; /* src/tag world or -1 = ANY */
    int64_t msg;             /* matched message or -1 */
} posted;

typedef struct smsg {
    int64_t id;
    int comm, src, dst, tag;
    int64_t entry; /* the send's entry time */
} smsg;

typedef struct sim {
    GRand *rnd;
    scomm comm[NCOMM];
    GArray *recs[N];   /* rec */
    GArray *posted[N]; /* posted */
    GArray *unexp[N];  /* smsg, arrival order */
    bool req_busy[N][16];
    int64_t t;
    int64_t last_exit[N];
    int64_t next_msg;
    int n_expected_arrows, n_unmatched_sends;
    int n_sends;        /* PROC_NULL excluded */
    bool nostatus_mode; /* some wildcard receives complete without status */
} sim;

static int local_of(const scomm *c, int world)
{
    for (int i = 0; i < c->n; i++)
        if (c->members[i] == world) return i;
    return -1;
}

static rec *add(sim *s, int r, rec x)
{
    s->t += 10;
    x.entry = s->t;
    /* blocking sends may exit late (an Ssend waiting for its receiver) */
    int64_t delay = x.k == R_SEND && x.req < 0 ? g_rand_int_range(s->rnd, 0, 400) : 1;
    x.exit = MAX(s->last_exit[r] + 1, x.entry + delay);
    s->last_exit[r] = x.exit;
    g_array_append_val(s->recs[r], x);
    return &g_array_index(s->recs[r], rec, s->recs[r]->len - 1);
}

static bool fits(int pat_src, int pat_tag, const smsg *m, int comm)
{
    return m->comm == comm && (pat_src < 0 || pat_src == m->src) && (pat_tag < 0 || pat_tag == m->tag);
}

static int pick_comm(sim *s, int r)
{
    for (;;) {
        int c = g_rand_int_range(s->rnd, 0, NCOMM);
        if (s->comm[c].live && s->comm[c].handle[r] >= 0 && s->comm[c].n > 1) return c;
    }
}

static int pick_peer(sim *s, int c, int r)
{
    for (;;) {
        int p = s->comm[c].members[g_rand_int_range(s->rnd, 0, s->comm[c].n)];
        if (p != r) return p;
    }
}

static void remember(int64_t id, int comm, int src, int dst, int tag, int64_t entry);

/* In the no-status mode, half of the wildcard receives lose their status. */
static bool drop_status(sim *s, int src, int tag)
{
    return s->nostatus_mode && (src < 0 || tag < 0) && g_rand_boolean(s->rnd);
}

static void do_send(sim *s, int r)
{
    int c = pick_comm(s, r);
    scomm *C = &s->comm[c];
    bool proc_null = g_rand_int_range(s->rnd, 0, 20) == 0;
    int dst = pick_peer(s, c, r);
    int tag = g_rand_int_range(s->rnd, 0, NTAG);
    bool nb = g_rand_boolean(s->rnd);
    rec x = {.k = R_SEND,
             .comm = C->handle[r],
             .tag = tag,
             .req = nb ? 100 + g_rand_int_range(s->rnd, 0, 3) : -1,
             .peer = proc_null ? MATCH_PROC_NULL : local_of(C, dst),
             .msg = s->next_msg++,
             .ci = c};
    int64_t entry = add(s, r, x)->entry;
    if (proc_null) return;
    s->n_sends++;
    remember(x.msg, c, r, dst, tag, entry);
    smsg m = {x.msg, c, r, dst, tag, entry};
    /* arriving message: earliest posted receive that fits (MPI-3.1 3.5) */
    GArray *pa = s->posted[dst];
    for (guint i = 0; i < pa->len; i++) {
        posted *p = &g_array_index(pa, posted, i);
        if (p->msg < 0 && fits(p->src, p->tag, &m, p->comm)) {
            p->msg = m.id;
            return;
        }
    }
    g_array_append_val(s->unexp[dst], m);
}

/* Take the earliest unexpected message fitting the pattern, or -1. */
static int take_unexpected(sim *s, int r, int comm, int src, int tag, smsg *out)
{
    GArray *u = s->unexp[r];
    for (guint i = 0; i < u->len; i++) {
        smsg *m = &g_array_index(u, smsg, i);
        if (fits(src, tag, m, comm)) {
            *out = *m;
            g_array_remove_index(u, i);
            return 0;
        }
    }
    return -1;
}

static void do_irecv(sim *s, int r)
{
    int req = -1;
    for (int i = 0; i < 16 && req < 0; i++) {
        int q = g_rand_int_range(s->rnd, 0, 16);
        if (!s->req_busy[r][q]) req = q;
    }
    if (req < 0) return;
    int c = pick_comm(s, r);
    scomm *C = &s->comm[c];
    int src = g_rand_int_range(s->rnd, 0, 4) == 0 ? -1 : pick_peer(s, c, r);
    int tag = g_rand_int_range(s->rnd, 0, 4) == 0 ? -1 : g_rand_int_range(s->rnd, 0, NTAG);
    s->req_busy[r][req] = true;
    rec x = {.k = R_IRECV,
             .comm = C->handle[r],
             .req = req,
             .peer = src < 0 ? MATCH_ANY_SOURCE : local_of(C, src),
             .tag = tag < 0 ? MATCH_ANY_TAG : tag,
             .ci = c};
    add(s, r, x);
    posted p = {req, c, src, tag, -1};
    smsg m = {0};
    if (take_unexpected(s, r, c, src, tag, &m) == 0) p.msg = m.id;
    g_array_append_val(s->posted[r], p);
}

static smsg *find_msg_sender(sim *s, int64_t id, smsg *out);

/* Complete one posted receive (index i): Wait, or a successful cancel. */
static void do_done(sim *s, int r, guint i, bool cancel)
{
    posted p = g_array_index(s->posted[r], posted, i);
    g_array_remove_index(s->posted[r], i);
    s->req_busy[r][p.req] = false;
    rec x = {.k = R_DONE, .req = p.req, .msg = -1, .cancelled = cancel};
    if (!cancel) {
        smsg m = {0};
        find_msg_sender(s, p.msg, &m);
        x.st_src = local_of(&s->comm[m.comm], m.src);
        x.st_tag = m.tag;
        x.msg = p.msg;
        x.nostatus = drop_status(s, p.src, p.tag);
        s->n_expected_arrows++;
    }
    add(s, r, x);
}

/* Message table for statuses. */
static GHashTable *msgs;

static smsg *find_msg_sender(sim *s, int64_t id, smsg *out)
{
    smsg *m = g_hash_table_lookup(msgs, &id);
    *out = *m;
    return m;
}

static void remember(int64_t id, int comm, int src, int dst, int tag, int64_t entry)
{
    smsg *m = g_new(smsg, 1);
    *m = (smsg){id, comm, src, dst, tag, entry};
    g_hash_table_insert(msgs, &m->id, m);
}

static void do_blocking_recv(sim *s, int r)
{
    GArray *u = s->unexp[r];
    if (u->len == 0) return;
    smsg want = g_array_index(u, smsg, g_rand_int_range(s->rnd, 0, (int)u->len));
    if (!s->comm[want.comm].live) return; /* sent on a communicator freed since: nobody can take it */
    int src = g_rand_int_range(s->rnd, 0, 3) == 0 ? -1 : want.src;
    int tag = g_rand_int_range(s->rnd, 0, 3) == 0 ? -1 : want.tag;
    smsg m = {0};
    take_unexpected(s, r, want.comm, src, tag, &m);
    scomm *C = &s->comm[want.comm];
    rec x = {.k = R_RECV,
             .comm = C->handle[r],
             .req = -1,
             .peer = src < 0 ? MATCH_ANY_SOURCE : local_of(C, src),
             .tag = tag < 0 ? MATCH_ANY_TAG : tag,
             .st_src = local_of(C, m.src),
             .st_tag = m.tag,
             .msg = m.id,
             .ci = want.comm,
             .nostatus = drop_status(s, src, tag)};
    s->n_expected_arrows++;
    add(s, r, x);
}

static void step(sim *s)
{
    int r = g_rand_int_range(s->rnd, 0, N);
    int what = g_rand_int_range(s->rnd, 0, 10);
    if (what < 4) {
        do_send(s, r);
    } else if (what < 7) {
        do_irecv(s, r);
    } else if (what < 9) {
        GArray *pa = s->posted[r];
        for (guint i = 0; i < pa->len; i++)
            if (g_array_index(pa, posted, i).msg >= 0 && g_rand_boolean(s->rnd)) {
                do_done(s, r, i, false);
                break;
            }
    } else {
        do_blocking_recv(s, r);
    }
}

/* Wait for what has arrived; cancel what has not (it cannot be matched any
 * more once its communicator goes away). */
static void drain(sim *s, int only_comm)
{
    for (int r = 0; r < N; r++) {
        GArray *pa = s->posted[r];
        for (guint i = pa->len; i-- > 0;) {
            posted *p = &g_array_index(pa, posted, i);
            if (only_comm >= 0 && p->comm != only_comm) continue;
            do_done(s, r, i, p->msg < 0);
        }
    }
}

static void build(sim *s, uint32_t seed, bool nostatus_mode)
{
    memset(s, 0, sizeof *s);
    s->nostatus_mode = nostatus_mode;
    s->rnd = g_rand_new_with_seed(seed);
    for (int r = 0; r < N; r++) {
        s->recs[r] = g_array_new(FALSE, FALSE, sizeof(rec));
        s->posted[r] = g_array_new(FALSE, FALSE, sizeof(posted));
        s->unexp[r] = g_array_new(FALSE, FALSE, sizeof(smsg));
    }
    /* 0 WORLD; 1 dup; 2/5 split(r%2, key -r) even/odd; 3 create({1,3,5,7,6});
     * 4 the later dup */
    static const int incl[5] = {1, 3, 5, 7, 6};
    for (int c = 0; c < NCOMM; c++)
        for (int r = 0; r < N; r++) s->comm[c].handle[r] = -1;
    for (int r = 0; r < N; r++) {
        s->comm[0].members[r] = r;
        s->comm[0].handle[r] = COMM_HANDLE_WORLD;
        s->comm[1].members[r] = r;
        s->comm[1].handle[r] = 4 + r % 3; /* handles differ per rank */
        s->comm[4].members[r] = r;
    }
    s->comm[0].n = s->comm[1].n = s->comm[4].n = N;
    /* key -r: descending world rank within each colour */
    for (int w = N - 1; w >= 0; w--) {
        scomm *C = &s->comm[w % 2 ? 5 : 2];
        C->members[C->n++] = w;
        C->handle[w] = 10 + w;
    }
    s->comm[2].live = s->comm[5].live = true;
    s->comm[3].n = 5;
    for (int i = 0; i < 5; i++) {
        s->comm[3].members[i] = incl[i];
        s->comm[3].handle[incl[i]] = 20;
    }
    s->comm[0].live = s->comm[1].live = s->comm[3].live = true;
    for (int r = 0; r < N; r++) {
        add(s, r, (rec){.k = R_DUP, .comm = COMM_HANDLE_WORLD, .newh = s->comm[1].handle[r]});
        add(s, r, (rec){.k = R_SPLIT, .comm = COMM_HANDLE_WORLD, .a = r % 2, .b = -r, .newh = 10 + r});
        add(s, r, (rec){.k = R_GROUP, .comm = COMM_HANDLE_WORLD, .newh = 3});
        add(s, r, (rec){.k = R_INCL, .comm = 3, .newh = 4});
        add(s, r,
            (rec){.k = R_CREATE,
                  .comm = COMM_HANDLE_WORLD,
                  .a = 4,
                  .newh = s->comm[3].handle[r] >= 0 ? 20 : COMM_HANDLE_NULL});
        add(s, r, (rec){.k = R_GFREE, .comm = 3});
        add(s, r, (rec){.k = R_GFREE, .comm = 4});
    }
    for (int steps = 0; steps < 400; steps++) step(s);
    drain(s, 1);
    /* free the dup and dup again: the same per-rank handles, a new comm */
    s->comm[1].live = false;
    s->comm[4] = s->comm[1];
    s->comm[4].live = true;
    for (int r = 0; r < N; r++) {
        add(s, r, (rec){.k = R_FREE, .comm = s->comm[1].handle[r]});
        add(s, r, (rec){.k = R_DUP, .comm = COMM_HANDLE_WORLD, .newh = s->comm[4].handle[r]});
    }
    for (int steps = 0; steps < 400; steps++) step(s);
    drain(s, -1);
    for (int r = 0; r < N; r++) s->n_unmatched_sends += (int)s->unexp[r]->len;
}

static void sim_free(sim *s)
{
    for (int r = 0; r < N; r++) {
        g_array_free(s->recs[r], TRUE);
        g_array_free(s->posted[r], TRUE);
        g_array_free(s->unexp[r], TRUE);
    }
    g_rand_free(s->rnd);
}

/* ------------------------------------------------------------ replay */

/* A receive as posted and completed, for the checks of the no-status mode. */
typedef struct rinfo {
    int rank, ci; /* poster, simulator communicator */
    int src, tag; /* pattern: world rank / tag, or -1 = ANY */
    int post_idx; /* posting order on its rank */
    bool completed, cancelled, nostatus;
    int64_t exit;  /* of the completing call */
    int64_t truth; /* message the simulator gave it */
    int64_t got;   /* message of its arrow, or -1 */
} rinfo;

typedef struct replay {
    GHashTable *expect; /* (rank, exit) -> message id */
    int n_arrows, n_wrong;
    bool in_exit_order; /* check arrows against the watermark */
    int64_t floor;      /* the largest watermark so far */
    int n_order_errors;
    GPtrArray *recvs[N];  /* rinfo*, posting order */
    GHashTable *by_exit;  /* (rank, exit) -> rinfo* of completed receives */
    GHashTable *msg_used; /* message ids of arrows */
    int n_inferred, n_inferred_true, n_bad_inferred, n_twice, n_flag_wrong;
} replay;

static int64_t rkey(uint32_t rank, int64_t t)
{
    return ((int64_t)rank << 48) | t;
}

/* The receives of s, with the patterns they were posted with. */
static void collect_recvs(const sim *s, replay *rp)
{
    rp->by_exit = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    rp->msg_used = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    for (int r = 0; r < N; r++) {
        rp->recvs[r] = g_ptr_array_new_with_free_func(g_free);
        rinfo *active[16] = {0};
        for (guint i = 0; i < s->recs[r]->len; i++) {
            const rec *x = &g_array_index(s->recs[r], rec, i);
            rinfo *ri = NULL;
            if (x->k == R_IRECV || x->k == R_RECV) {
                ri = g_new0(rinfo, 1);
                const scomm *C = &s->comm[x->ci];
                *ri = (rinfo){r,
                              x->ci,
                              x->peer == MATCH_ANY_SOURCE ? -1 : C->members[x->peer],
                              x->tag == MATCH_ANY_TAG ? -1 : x->tag,
                              (int)rp->recvs[r]->len,
                              false,
                              false,
                              false,
                              0,
                              -1,
                              -1};
                g_ptr_array_add(rp->recvs[r], ri);
                if (x->k == R_IRECV) active[x->req] = ri;
            }
            if (x->k == R_DONE) {
                ri = active[x->req];
                active[x->req] = NULL;
            }
            if (x->k == R_RECV || x->k == R_DONE) {
                ri->completed = true;
                ri->cancelled = x->cancelled;
                ri->nostatus = x->nostatus;
                ri->exit = x->exit;
                ri->truth = x->msg;
                int64_t *k = g_new(int64_t, 1);
                *k = rkey((uint32_t)r, x->exit);
                g_hash_table_insert(rp->by_exit, k, ri);
            }
        }
    }
}

static void free_recvs(replay *rp)
{
    for (int r = 0; r < N; r++) g_ptr_array_free(rp->recvs[r], TRUE);
    g_hash_table_destroy(rp->by_exit);
    g_hash_table_destroy(rp->msg_used);
}

/* Every arrow: a real send and a real completed receive, each used once,
 * compatible (communicator, destination, the receive's pattern), and
 * inferred exactly when the receive had no status. */
static void note_arrow(replay *rp, const match_arrow *a)
{
    int64_t key = rkey(a->recv_rank, a->recv_time), id = a->bytes;
    rinfo *ri = g_hash_table_lookup(rp->by_exit, &key);
    smsg *m = g_hash_table_lookup(msgs, &id);
    if (!ri || !m || ri->cancelled) {
        rp->n_bad_inferred++;
        return;
    }
    if (ri->got >= 0 || g_hash_table_contains(rp->msg_used, &id)) rp->n_twice++;
    int64_t *k = g_new(int64_t, 1);
    *k = id;
    g_hash_table_add(rp->msg_used, k);
    ri->got = id;
    if (a->inferred != ri->nostatus) rp->n_flag_wrong++;
    if (a->inferred) {
        rp->n_inferred++;
        rp->n_inferred_true += id == ri->truth;
    }
    if (m->dst != ri->rank || m->comm != ri->ci || !fits(ri->src, ri->tag, m, ri->ci) || (int)a->send_rank != m->src ||
        a->send_time != m->entry)
        rp->n_bad_inferred++;
}

/* What must hold whatever the inference picked:
 *   - precedence (MPI-3.1 3.5): a message never went to a receive posted
 *     after one on the same rank and communicator that could take it and
 *     was free: left without a message, or given a later message of the
 *     same channel. A receive with a status could take only the envelope
 *     its status names;
 *   - a receive with a status gets its true message wherever no inferred
 *     receive of its (communicator, destination) got another one (a wrong
 *     pick there shifts its channels, nowhere else);
 *   - arrows plus reported leftovers account for every send and receive. */
static void check_inferred(const sim *s, replay *rp, const match_unmatched *u, size_t n)
{
    bool perturbed[NCOMM][N] = {{false}};
    int n_precedence = 0, n_status_wrong = 0, n_status = 0;
    for (int r = 0; r < N; r++)
        for (guint i = 0; i < rp->recvs[r]->len; i++) {
            const rinfo *ri = rp->recvs[r]->pdata[i];
            if (ri->completed && !ri->cancelled && ri->nostatus && ri->got != ri->truth) perturbed[ri->ci][r] = true;
        }
    for (int r = 0; r < N; r++)
        for (guint i = 0; i < rp->recvs[r]->len; i++) {
            const rinfo *x = rp->recvs[r]->pdata[i];
            if (!x->completed || x->cancelled) continue;
            if (!x->nostatus && !perturbed[x->ci][r]) {
                n_status++;
                n_status_wrong += x->got != x->truth;
            }
            if (x->got < 0) continue;
            const smsg *m = g_hash_table_lookup(msgs, &x->got);
            for (guint j = 0; j < i; j++) {
                const rinfo *e = rp->recvs[r]->pdata[j];
                if (!e->completed || e->cancelled || e->ci != x->ci) continue;
                bool could;
                if (e->nostatus) {
                    could = fits(e->src, e->tag, m, x->ci);
                } else {
                    const smsg *t = g_hash_table_lookup(msgs, &e->truth);
                    could = t->src == m->src && t->tag == m->tag;
                }
                if (!could) continue;
                const smsg *g = e->got >= 0 ? g_hash_table_lookup(msgs, &e->got) : NULL;
                if (!g || (g->src == m->src && g->tag == m->tag && g->id > m->id)) n_precedence++;
            }
        }
    CHECK_EQ(n_precedence, 0);
    CHECK_EQ(n_status_wrong, 0);
    CHECK(n_status > 0);
    uint64_t sends = 0, recvs = 0, other = 0;
    for (size_t i = 0; i < n; i++) {
        if (u[i].kind == MATCH_UNMATCHED_SEND)
            sends += u[i].count;
        else if (u[i].kind == MATCH_UNMATCHED_RECV || u[i].kind == MATCH_UNMATCHED_NO_STATUS)
            recvs += u[i].count;
        else
            other += u[i].count;
    }
    CHECK_EQ((uint64_t)rp->n_arrows + sends, (uint64_t)s->n_sends);
    CHECK_EQ((uint64_t)rp->n_arrows + recvs, (uint64_t)s->n_expected_arrows);
    CHECK_EQ(other, 0);
    CHECK_EQ(rp->n_bad_inferred, 0);
    CHECK_EQ(rp->n_twice, 0);
    CHECK_EQ(rp->n_flag_wrong, 0);
}

static slog_cb_result on_arrow(void *user, const match_arrow *a)
{
    replay *rp = user;
    rp->n_arrows++;
    note_arrow(rp, a);
    int64_t key = rkey(a->recv_rank, a->recv_time);
    gpointer v;
    if (!g_hash_table_lookup_extended(rp->expect, &key, NULL, &v) || *(int64_t *)v != a->bytes) {
        rp->n_wrong++;
    } else {
        g_hash_table_remove(rp->expect, &key);
    }
    if (rp->in_exit_order && MAX(a->send_time, a->recv_time) < rp->floor) rp->n_order_errors++;
    return SLOG_CONTINUE;
}

static void feed(comm_ctx *c, match_ctx *m, uint32_t r, const rec *x)
{
    match_post p = {r, 0, x->comm, x->peer, x->tag, x->msg, x->entry, x->req < 0 ? MATCH_NO_REQUEST : x->req};
    match_status st = {x->st_src, x->st_tag, MATCH_BYTES_UNKNOWN, x->cancelled};
    switch (x->k) {
    case R_DUP: comm_record_dup(c, r, x->comm, x->newh); break;
    case R_SPLIT: comm_record_split(c, r, x->comm, x->a, x->b, x->newh); break;
    case R_GROUP: comm_record_comm_group(c, r, x->comm, x->newh); break;
    case R_INCL: {
        static const int incl[5] = {1, 3, 5, 7, 6};
        comm_record_group_incl(c, r, x->comm, 5, incl, x->newh);
        break;
    }
    case R_CREATE: comm_record_create(c, r, x->comm, x->a, x->newh); break;
    case R_GFREE: comm_record_group_free(c, r, x->comm); break;
    case R_FREE: comm_record_free(c, r, x->comm); break;
    case R_SEND: match_send(m, &p); break;
    case R_IRECV: match_recv_post(m, &p); break;
    case R_RECV: match_recv(m, &p, x->nostatus ? NULL : &st, x->exit, 0); break;
    case R_DONE: match_complete(m, r, 0, x->req, x->nostatus ? NULL : &st, x->exit); break;
    }
}

/* Feed s to the engines; returns the arrows that were inferred correctly in
 * *n_true (of *n_inferred). */
static void run(sim *s, GRand *order, bool by_exit, int *n_inferred, int *n_true)
{
    replay rp = {.expect = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free),
                 .in_exit_order = by_exit,
                 .floor = INT64_MIN};
    collect_recvs(s, &rp);
    for (uint32_t r = 0; r < N; r++)
        for (guint i = 0; i < s->recs[r]->len; i++) {
            const rec *x = &g_array_index(s->recs[r], rec, i);
            if ((x->k == R_RECV || x->k == R_DONE) && x->msg >= 0) {
                int64_t *k = g_new(int64_t, 1), *v = g_new(int64_t, 1);
                *k = rkey(r, x->exit);
                *v = x->msg;
                g_hash_table_insert(rp.expect, k, v);
            }
        }
    comm_ctx *c = comm_ctx_new(N);
    match_ctx *m = match_ctx_new(c, on_arrow, &rp);
    guint pos[N] = {0};
    for (;;) {
        int r = -1;
        if (by_exit) {
            int64_t best = INT64_MAX;
            for (int k = 0; k < N; k++)
                if (pos[k] < s->recs[k]->len && g_array_index(s->recs[k], rec, pos[k]).exit < best)
                    best = g_array_index(s->recs[k], rec, pos[k]).exit, r = k;
        } else {
            int live[N], n = 0;
            for (int k = 0; k < N; k++)
                if (pos[k] < s->recs[k]->len) live[n++] = k;
            if (n) r = live[g_rand_int_range(order, 0, n)];
        }
        if (r < 0) break;
        const rec *x = &g_array_index(s->recs[r], rec, pos[r]++);
        feed(c, m, (uint32_t)r, x);
        if (by_exit && MIN(x->exit, match_low_watermark(m)) > rp.floor) rp.floor = MIN(x->exit, match_low_watermark(m));
    }
    match_finish(m);
    CHECK_EQ(rp.n_order_errors, 0);
    size_t n;
    const match_unmatched *u = match_unmatched_list(m, &n);
    if (!s->nostatus_mode) {
        CHECK_EQ(rp.n_wrong, 0);
        CHECK_EQ(rp.n_arrows, s->n_expected_arrows);
        CHECK_EQ(g_hash_table_size(rp.expect), 0);
        uint64_t sends = 0, other = 0;
        for (size_t i = 0; i < n; i++) {
            if (u[i].kind == MATCH_UNMATCHED_SEND)
                sends += u[i].count;
            else
                other += u[i].count;
        }
        CHECK_EQ(sends, s->n_unmatched_sends);
        CHECK_EQ(other, 0);
    }
    check_inferred(s, &rp, u, n);
    match_stats st;
    match_get_stats(m, &st);
    CHECK_EQ(st.n_in_flight, 0);
    CHECK_EQ(st.n_inferred, rp.n_inferred);
    *n_inferred += rp.n_inferred;
    *n_true += rp.n_inferred_true;
    free_recvs(&rp);
    comm_stats cs;
    comm_ctx_stats(c, &cs);
    CHECK_EQ(cs.n_pending, 0);
    CHECK_EQ(cs.n_failed, 0);
    match_ctx_free(m);
    comm_ctx_free(c);
    g_hash_table_destroy(rp.expect);
}

/* Every seed: one pass in exit-time order, n_orders random interleavings. */
static void run_seeds(bool nostatus_mode, int n_seeds, int n_orders)
{
    int total_arrows = 0, n_inferred[2] = {0}, n_true[2] = {0};
    for (int seed = 1; seed <= n_seeds; seed++) {
        msgs = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, g_free);
        sim s;
        build(&s, (uint32_t)seed + (nostatus_mode ? 1000u : 0u), nostatus_mode);
        CHECK_CONTEXT("%sseed %d", nostatus_mode ? "no-status " : "", seed);
        run(&s, NULL, true, &n_inferred[0], &n_true[0]);
        GRand *order = g_rand_new_with_seed((uint32_t)seed * 7919u);
        for (int k = 0; k < n_orders; k++) run(&s, order, false, &n_inferred[1], &n_true[1]);
        g_rand_free(order);
        total_arrows += s.n_expected_arrows;
        sim_free(&s);
        g_hash_table_destroy(msgs);
    }
    check_context[0] = 0;
    if (!nostatus_mode) {
        CHECK_EQ(n_inferred[0] + n_inferred[1], 0);
        printf("ok   random: %d seeds x %d interleavings, %d messages matched per pass\n", n_seeds, n_orders + 1,
               total_arrows);
        return;
    }
    /* The mode must exercise inference, or it proves nothing. */
    CHECK(n_inferred[0] > 0 && n_inferred[1] > 0);
    printf("ok   random without statuses: %d seeds x %d interleavings, %d messages; inferred "
           "arrows that are the true message: %d of %d in exit order, %d of %d interleaved\n",
           n_seeds, n_orders + 1, total_arrows, n_true[0], n_inferred[0], n_true[1], n_inferred[1]);
}

int main(void)
{
    int n_seeds = g_getenv("SLOG2_UNDER_VALGRIND") ? 4 : 40;
    int n_orders = g_getenv("SLOG2_UNDER_VALGRIND") ? 3 : 20;
    run_seeds(false, n_seeds, n_orders);
    run_seeds(true, n_seeds, n_orders);
    return 0;
}
