/* otf2_map.c - the model of an OTF2 archive (otf2_read.c) to drawables:
 * timelines, categories, states, inferred receive completions, message
 * matching, clock alignment, then the .slog2 file and the summary.
 * docs/OTF2.md gives the rules. */
#include "otf2_build.h"
#include "otf2_model.h"

#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call_plan.h"
#include "dumpi_table.h"
#include "palette.h"
#include "signals.h"
#include <slog2/slog.h>

/* ------------------------------------------------------------ categories */

#define O2_MAX_FIELDS 6

typedef struct o2_cat {
    slog_kind kind;
    char *name;
    const char *group;
    uint32_t rgba;
    uint32_t n_fields;
    uint8_t fields[O2_MAX_FIELDS]; /* field_id */
    uint8_t family;                /* dumpi_family (states) */
    uint64_t count;
} o2_cat;

/* The info fields a state of each family carries (call_plan.h's ids, so
 * names and types are the DUMPI path's). */
static const uint8_t p2p_fields[] = {F_BYTES, F_DEST, F_SOURCE, F_TAG, F_COMM, F_REQUEST};
static const uint8_t coll_fields[] = {F_SENT, F_RECEIVED, F_ROOT, F_COMM};
static const uint8_t wait_fields[] = {F_COMPLETED};

typedef struct mapper {
    o2_archive *a;
    const otf2_build_options *o;
    FILE *err;
    int status;
    GPtrArray *cats;          /* o2_cat* */
    GHashTable *cat_by_name;  /* "kind:name" -> id + 1 */
    uint32_t msg_cat, inferred_cat;
    /* drawables */
    struct o2_draw *draws;
    size_t n_draws, cap_draws;
    /* counts for the summary */
    uint64_t n_states, n_arrows, n_inferred, n_events, n_cancelled;
    uint64_t n_inferred_done;   /* receive completions inferred */
    uint64_t n_open_closed;     /* frames never left */
    GHashTable *unmatched;      /* description -> count */
    uint32_t n_ranks, n_timelines, n_processes;
    bool aligned;
    int64_t max_shift, max_error;
    uint32_t n_conflicts;
    uint32_t n_warnings;
} mapper;

typedef struct o2_draw {
    int64_t start, end;
    uint32_t kind, category, timeline, end_timeline;
    uint64_t seq;
    uint32_t n_info;
    int64_t info[O2_MAX_FIELDS];
} o2_draw;

static void warn(mapper *m, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void warn(mapper *m, const char *fmt, ...) {
    m->n_warnings++;
    if (m->status == OTF2_BUILD_OK) m->status = OTF2_BUILD_WARNINGS;
    va_list ap;
    va_start(ap, fmt);
    fputs("slog2-build: warning: ", m->err);
    vfprintf(m->err, fmt, ap);
    fputc('\n', m->err);
    va_end(ap);
}

static uint32_t category(mapper *m, slog_kind kind, const char *name, const char *group, uint32_t rgba,
                         const uint8_t *fields, uint32_t n_fields, uint8_t family) {
    char *key = g_strdup_printf("%d:%s", (int)kind, name);
    gpointer v = g_hash_table_lookup(m->cat_by_name, key);
    if (v) {
        g_free(key);
        return (uint32_t)GPOINTER_TO_SIZE(v) - 1;
    }
    o2_cat *c = g_new0(o2_cat, 1);
    *c = (o2_cat){.kind = kind, .name = g_strdup(name), .group = group, .rgba = rgba, .n_fields = n_fields,
                  .family = family};
    if (n_fields) memcpy(c->fields, fields, n_fields);
    g_ptr_array_add(m->cats, c);
    g_hash_table_insert(m->cat_by_name, key, GSIZE_TO_POINTER(m->cats->len));
    return m->cats->len - 1;
}

/* A region's category: named as the region, coloured as the DUMPI path
 * colours that MPI function; other regions in the user family. */
static uint32_t region_category(mapper *m, uint32_t ref) {
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
    dumpi_family fam = fn ? (dumpi_family)fn->family
                          : (r->paradigm == OTF2_PARADIGM_MPI ? DUMPI_FAMILY_OTHER : DUMPI_FAMILY_USER);
    const uint8_t *fields = NULL;
    uint32_t n = 0;
    if (fam == DUMPI_FAMILY_P2P) fields = p2p_fields, n = G_N_ELEMENTS(p2p_fields);
    if (fam == DUMPI_FAMILY_COLLECTIVE) fields = coll_fields, n = G_N_ELEMENTS(coll_fields);
    if (fam == DUMPI_FAMILY_WAIT_TEST) fields = wait_fields, n = G_N_ELEMENTS(wait_fields);
    r->category = category(m, SLOG_KIND_STATE, name, dumpi_family_name(fam), palette_colour(fam, name), fields, n,
                           (uint8_t)fam);
    return r->category;
}

static void add_draw(mapper *m, const o2_draw *d) {
    if (m->n_draws == m->cap_draws) {
        m->cap_draws = m->cap_draws ? 2 * m->cap_draws : 4096;
        m->draws = g_realloc_n(m->draws, m->cap_draws, sizeof *m->draws);
    }
    m->draws[m->n_draws] = *d;
    m->draws[m->n_draws].seq = m->n_draws;
    m->n_draws++;
    ((o2_cat *)m->cats->pdata[d->category])->count++;
}

/* ------------------------------------------------------------ timelines */

static int loc_order(const void *x, const void *y) {
    const o2_loc *a = *(o2_loc *const *)x, *b = *(o2_loc *const *)y;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The host: the nearest system tree ancestor of class "node", else the
 * location group's own parent node. */
static const char *host_of(const o2_archive *a, uint32_t lgroup) {
    const uint32_t *g = g_hash_table_lookup(a->lgroups, GUINT_TO_POINTER(lgroup));
    if (!g) return "";
    const uint32_t *first = g_hash_table_lookup(a->tree, GUINT_TO_POINTER(g[2]));
    for (const uint32_t *n = first; n; n = g_hash_table_lookup(a->tree, GUINT_TO_POINTER(n[2])))
        if (g_ascii_strcasecmp(o2_string(a, n[1]), "node") == 0) return o2_string(a, n[0]);
        else if (n[2] == OTF2_UNDEFINED_SYSTEM_TREE_NODE)
            break;
    return first ? o2_string(a, first[0]) : "";
}

/* Ranks: a location's index in MPI COMM_WORLD's location list; the other
 * locations of its process (threads) share it; processes outside MPI
 * follow. The result: locations sorted by (rank, thread). */
static o2_loc **assign_ranks(mapper *m) {
    o2_archive *a = m->a;
    GHashTable *group_rank = g_hash_table_new(g_direct_hash, g_direct_equal);
    uint32_t n_world = a->world ? a->world->n : 0;
    for (uint32_t i = 0; i < n_world; i++) {
        o2_loc *l = o2_loc_by_id(a, a->world->members[i]);
        if (!l) {
            warn(m, "%s: MPI rank %u's location %" PRIu64 " is not defined", a->anchor, i, a->world->members[i]);
            continue;
        }
        l->mpi = true;
        g_hash_table_insert(group_rank, GUINT_TO_POINTER(l->group), GUINT_TO_POINTER(i + 1));
    }
    uint32_t next = n_world;
    GHashTable *threads = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        gpointer v = g_hash_table_lookup(group_rank, GUINT_TO_POINTER(l->group));
        if (!v) {
            v = GUINT_TO_POINTER(++next);
            g_hash_table_insert(group_rank, GUINT_TO_POINTER(l->group), v);
        }
        l->rank = GPOINTER_TO_UINT(v) - 1;
    }
    /* Threads: the MPI location first, then the others in definition order. */
    for (size_t i = 0; i < a->n_locs; i++)
        if (a->locs[i].mpi) g_hash_table_insert(threads, GUINT_TO_POINTER(a->locs[i].rank), GUINT_TO_POINTER(1));
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        if (l->mpi) continue;
        guint t = GPOINTER_TO_UINT(g_hash_table_lookup(threads, GUINT_TO_POINTER(l->rank)));
        l->thread = t;
        g_hash_table_insert(threads, GUINT_TO_POINTER(l->rank), GUINT_TO_POINTER(t + 1));
    }
    m->n_ranks = n_world;
    m->n_processes = g_hash_table_size(group_rank);
    g_hash_table_destroy(group_rank);
    g_hash_table_destroy(threads);
    o2_loc **order = g_new(o2_loc *, a->n_locs);
    for (size_t i = 0; i < a->n_locs; i++) order[i] = &a->locs[i];
    qsort(order, a->n_locs, sizeof *order, loc_order);
    for (size_t i = 0; i < a->n_locs; i++) order[i]->timeline = (uint32_t)i;
    m->n_timelines = (uint32_t)a->n_locs;
    return order;
}

/* ------------------------------------------------------------ clocks */

static bool is_sync_collective(const char *name) {
    static const char *const sync[] = {"MPI_Barrier", "MPI_Allreduce", "MPI_Allgather", "MPI_Allgatherv",
                                       "MPI_Alltoall", "MPI_Alltoallv", "MPI_Alltoallw", "MPI_Reduce_scatter",
                                       "MPI_Reduce_scatter_block"};
    for (size_t i = 0; i < G_N_ELEMENTS(sync); i++)
        if (strcmp(name, sync[i]) == 0) return true;
    return false;
}

/* Every synchronising collective narrows the interval; clock drift over
 * a trace's length is far below what one collective leaves open. */
#define O2_SYNC_MAX 4096

/* The first synchronising collectives on a communicator of every rank. */
static size_t sync_points(const mapper *m, const o2_loc *l, int64_t *enter, int64_t *leave) {
    size_t n = 0;
    uint32_t n_world = m->a->world ? m->a->world->n : 0;
    for (size_t i = 0; i < l->frames.n && n < O2_SYNC_MAX; i++) {
        const o2_frame *f = &l->frames.v[i];
        const o2_region *r = g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(f->region));
        if (!r || !is_sync_collective(o2_string(m->a, r->name)) || f->open) continue;
        if (f->comm == O2_UNKNOWN) continue;
        const o2_comm *c = g_hash_table_lookup(m->a->comms, GUINT_TO_POINTER((uint32_t)f->comm));
        const o2_group *g = c ? g_hash_table_lookup(m->a->groups, GUINT_TO_POINTER(c->group)) : NULL;
        if (!g || g->n != n_world) continue;
        enter[n] = f->t0;
        leave[n] = f->t1;
        n++;
    }
    return n;
}

static void shift_loc(o2_loc *l, int64_t d) {
    l->shift_ns = d;
    for (size_t i = 0; i < l->frames.n; i++) l->frames.v[i].t0 += d, l->frames.v[i].t1 += d;
    for (size_t i = 0; i < l->sends.n; i++) l->sends.v[i].t += d;
    for (size_t i = 0; i < l->recvs.n; i++) {
        l->recvs.v[i].post_t += d;
        if (l->recvs.v[i].done_t != O2_UNKNOWN) l->recvs.v[i].done_t += d;
    }
    for (size_t i = 0; i < l->polls.n; i++) l->polls.v[i].t += d;
}

/* Each process's clock onto rank 0's, within the interval the
 * collectives allow: no rank leaves a synchronising collective before
 * every rank entered it (the DUMPI path's rule, builder/clocks.h). */
static void align_clocks(mapper *m, o2_loc **order) {
    o2_archive *a = m->a;
    uint64_t n_offsets = 0;
    for (size_t i = 0; i < a->n_locs; i++) n_offsets += a->locs[i].n_clock_offsets;
    if (m->o->align == OTF2_ALIGN_NEVER || !a->world || a->world->n < 2) return;
    if (m->o->align == OTF2_ALIGN_AUTO && n_offsets > 0) return;
    o2_loc *ref = o2_loc_by_id(a, a->world->members[0]);
    if (!ref) return;
    int64_t *e0 = g_new(int64_t, 4 * O2_SYNC_MAX), *l0 = e0 + O2_SYNC_MAX, *er = l0 + O2_SYNC_MAX,
            *lr = er + O2_SYNC_MAX;
    size_t n0 = sync_points(m, ref, e0, l0);
    if (n0 == 0) {
        g_free(e0);
        return;
    }
    m->aligned = true;
    for (uint32_t r = 1; r < a->world->n; r++) {
        o2_loc *l = o2_loc_by_id(a, a->world->members[r]);
        if (!l) continue;
        size_t n = sync_points(m, l, er, lr);
        if (n > n0) n = n0;
        if (n == 0) continue;
        int64_t lo = INT64_MIN, hi = INT64_MAX;
        for (size_t k = 0; k < n; k++) {
            lo = MAX(lo, e0[k] - lr[k]);
            hi = MIN(hi, l0[k] - er[k]);
        }
        int64_t d = lo / 2 + hi / 2;
        if (lo > hi) m->n_conflicts++;
        else m->max_error = MAX(m->max_error, (hi - lo) / 2);
        m->max_shift = MAX(m->max_shift, d < 0 ? -d : d);
        /* Every location of that process moves with it. */
        for (size_t i = 0; i < a->n_locs; i++)
            if (order[i]->rank == r) shift_loc(order[i], d);
    }
    g_free(e0);
}

/* ------------------------------------------------------------ completions */

enum { WAIT_NONE, WAIT_ONE, WAIT_ALL };

static int wait_kind(const char *name) {
    if (!strcmp(name, "MPI_Wait") || !strcmp(name, "MPI_Waitany")) return WAIT_ONE;
    if (!strcmp(name, "MPI_Waitall") || !strcmp(name, "MPI_Waitsome") || !strcmp(name, "MPI_Testall") ||
        !strcmp(name, "MPI_Testsome"))
        return WAIT_ALL;
    return WAIT_NONE;
}

/* Receives posted without a recorded completion (EZTrace writes
 * MPI_IRECV_REQUEST and never MPI_IRECV): the wait that completed each is
 * inferred, in posting order. An MPI_Wait completes the oldest pending
 * receive, else a pending send; an MPI_Waitall all pending sends and the
 * oldest receives but as many as the MPI_Waits before the next Waitall
 * will need (the usual "post receives, send, wait for the sends, wait for
 * each receive" halo exchange). docs/OTF2.md. */
static void infer_completions(mapper *m, o2_loc *l) {
    bool any = false;
    for (size_t i = 0; i < l->recvs.n && !any; i++)
        any = l->recvs.v[i].done_frame == O2_NONE && !l->recvs.v[i].cancelled;
    if (!any) return;
    size_t nf = l->frames.n;
    uint8_t *kind = g_new0(uint8_t, nf);
    for (size_t i = 0; i < nf; i++) {
        const o2_region *r = g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(l->frames.v[i].region));
        kind[i] = r ? (uint8_t)wait_kind(o2_string(m->a, r->name)) : WAIT_NONE;
        /* A wait whose completions were recorded needs no inference. */
        if (l->frames.v[i].completed) kind[i] = WAIT_NONE;
    }
    /* Single waits after each Waitall, up to the next one. */
    uint32_t *ones_after = g_new0(uint32_t, nf);
    uint32_t run = 0;
    for (size_t i = nf; i-- > 0;) {
        if (kind[i] == WAIT_ALL) {
            ones_after[i] = run;
            run = 0;
        } else if (kind[i] == WAIT_ONE) {
            run++;
        }
    }
    GQueue recvq = G_QUEUE_INIT, sendq = G_QUEUE_INIT;
    size_t ri = 0, si = 0;
    for (size_t i = 0; i < nf; i++) {
        /* Operations posted in frames before this one (or outside any). */
        while (ri < l->recvs.n && (l->recvs.v[ri].post_frame == O2_NONE || l->recvs.v[ri].post_frame < i)) {
            o2_recv *r = &l->recvs.v[ri];
            if (r->done_frame == O2_NONE && !r->cancelled) g_queue_push_tail(&recvq, r);
            ri++;
        }
        while (si < l->sends.n && (l->sends.v[si].frame == O2_NONE || l->sends.v[si].frame < i)) {
            o2_send *s = &l->sends.v[si];
            if (s->request && !s->completed && !s->cancelled) g_queue_push_tail(&sendq, s);
            si++;
        }
        if (kind[i] == WAIT_ONE) {
            o2_recv *r = g_queue_pop_head(&recvq);
            if (r) {
                r->done_frame = (uint32_t)i;
                r->inferred_done = true;
            } else {
                o2_send *s = g_queue_pop_head(&sendq);
                if (s) s->completed = true;
            }
        } else if (kind[i] == WAIT_ALL) {
            for (o2_send *s; (s = g_queue_pop_head(&sendq));) s->completed = true;
            uint32_t keep = ones_after[i];
            while (recvq.length > keep) {
                o2_recv *r = g_queue_pop_head(&recvq);
                r->done_frame = (uint32_t)i;
                r->inferred_done = true;
            }
        }
    }
    g_queue_clear(&recvq);
    g_queue_clear(&sendq);
    g_free(kind);
    g_free(ones_after);
}

/* ------------------------------------------------------------ matching */

typedef struct chan_key {
    uint32_t comm;
    int32_t src, dst;
    uint32_t tag;
} chan_key;

typedef struct msg {
    o2_loc *l;
    o2_send *s;
} msg;

typedef struct chan {
    chan_key k;
    GArray *sends; /* msg, in send order */
    guint head;
} chan;

static guint chan_hash(gconstpointer p) {
    const chan_key *k = p;
    return (guint)(k->comm * 2654435761u) ^ (guint)(k->src * 40503u) ^ (guint)(k->dst * 2246822519u) ^ k->tag;
}

static gboolean chan_equal(gconstpointer x, gconstpointer y) {
    const chan_key *a = x, *b = y;
    return a->comm == b->comm && a->src == b->src && a->dst == b->dst && a->tag == b->tag;
}

static void chan_free(gpointer p) {
    chan *c = p;
    g_array_free(c->sends, TRUE);
    g_free(c);
}

static int msg_order(const void *x, const void *y) {
    const msg *a = x, *b = y;
    if (a->s->t != b->s->t) return a->s->t < b->s->t ? -1 : 1;
    if (a->l != b->l) return a->l < b->l ? -1 : 1;
    return a->s < b->s ? -1 : a->s > b->s;
}

typedef struct rcv {
    o2_loc *l;
    o2_recv *r;
} rcv;

static int rcv_order(const void *x, const void *y) {
    const rcv *a = x, *b = y;
    if (a->r->post_t != b->r->post_t) return a->r->post_t < b->r->post_t ? -1 : 1;
    if (a->l != b->l) return a->l < b->l ? -1 : 1;
    return a->r < b->r ? -1 : a->r > b->r;
}

static void unmatched(mapper *m, const char *kind, int32_t src, int32_t dst, int64_t tag, int64_t comm) {
    char *key;
    if (tag == O2_UNKNOWN)
        key = g_strdup_printf("%s %d->%d tag ? comm %s", kind, src, dst, comm == O2_UNKNOWN ? "?" : "");
    else
        key = g_strdup_printf("%s %d->%d tag %" PRId64 " comm %" PRId64, kind, src, dst, tag, comm);
    if (tag == O2_UNKNOWN && comm != O2_UNKNOWN) {
        g_free(key);
        key = g_strdup_printf("%s %d->%d tag ? comm %" PRId64, kind, src, dst, comm);
    }
    gpointer v = g_hash_table_lookup(m->unmatched, key);
    g_hash_table_replace(m->unmatched, key, GSIZE_TO_POINTER(GPOINTER_TO_SIZE(v) + 1));
}

static void arrow(mapper *m, const msg *mg, const o2_loc *rl, const o2_recv *r) {
    const o2_frame *df = r->done_frame != O2_NONE ? &rl->frames.v[r->done_frame] : NULL;
    bool inferred = !r->exact || r->inferred_done;
    o2_draw d = {.kind = SLOG_KIND_ARROW,
                 .category = inferred ? m->inferred_cat : m->msg_cat,
                 .timeline = mg->l->timeline,
                 .end_timeline = rl->timeline,
                 .start = mg->s->t,
                 .end = df ? df->t1 : r->done_t,
                 .n_info = 3,
                 .info = {r->exact ? (int64_t)r->bytes : (int64_t)mg->s->bytes, mg->s->tag,
                          r->exact ? r->comm : mg->s->comm}};
    if (inferred && m->inferred_cat == O2_NONE) {
        /* Lazily: a legend entry only where something was inferred. */
        m->inferred_cat = category(m, SLOG_KIND_ARROW, "message (inferred)", "message", PALETTE_ARROW_INFERRED,
                                   call_arrow_fields, N_ARROW_FIELDS, 0);
        d.category = m->inferred_cat;
    }
    add_draw(m, &d);
    m->n_arrows++;
    if (inferred) m->n_inferred++;
}

/* MPI's rules (docs/MATCHING.md): messages on one (communicator, source,
 * destination, tag) are received in the order sent, by the receives in
 * the order posted. A receive whose envelope was not recorded takes the
 * earliest sent message to its rank that no earlier receive took (as the
 * DUMPI path does for a wildcard receive without a status). */
static void match_messages(mapper *m, o2_loc **order) {
    o2_archive *a = m->a;
    GHashTable *chans = g_hash_table_new_full(chan_hash, chan_equal, NULL, chan_free);
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = order[i];
        for (size_t j = 0; j < l->sends.n; j++) {
            o2_send *s = &l->sends.v[j];
            if (s->cancelled) {
                m->n_cancelled++;
                continue;
            }
            int32_t dst = o2_world_rank(a, s->comm, s->peer);
            if (dst < 0) {
                unmatched(m, "bad-comm", (int32_t)l->rank, -1, s->tag, s->comm);
                continue;
            }
            chan_key k = {s->comm, (int32_t)l->rank, dst, s->tag};
            chan *c = g_hash_table_lookup(chans, &k);
            if (!c) {
                c = g_new0(chan, 1);
                c->k = k;
                c->sends = g_array_new(FALSE, FALSE, sizeof(msg));
                g_hash_table_insert(chans, &c->k, c);
            }
            msg mg = {l, s};
            g_array_append_val(c->sends, mg);
        }
    }
    /* Per receiving rank: its channels, and its receives in posting order. */
    uint32_t n_ranks = 0;
    for (size_t i = 0; i < a->n_locs; i++) n_ranks = MAX(n_ranks, order[i]->rank + 1);
    GPtrArray **by_dst = g_new0(GPtrArray *, n_ranks);
    GHashTableIter it;
    gpointer kp, vp;
    g_hash_table_iter_init(&it, chans);
    while (g_hash_table_iter_next(&it, &kp, &vp)) {
        chan *c = vp;
        g_array_sort(c->sends, msg_order);
        if ((uint32_t)c->k.dst >= n_ranks) continue;
        if (!by_dst[c->k.dst]) by_dst[c->k.dst] = g_ptr_array_new();
        g_ptr_array_add(by_dst[c->k.dst], c);
    }
    GArray *rcvs = g_array_new(FALSE, FALSE, sizeof(rcv));
    size_t li = 0;
    for (uint32_t rank = 0; rank < n_ranks; rank++) {
        g_array_set_size(rcvs, 0);
        for (; li < a->n_locs && order[li]->rank == rank; li++)
            for (size_t j = 0; j < order[li]->recvs.n; j++) {
                rcv x = {order[li], &order[li]->recvs.v[j]};
                if (x.r->cancelled) {
                    m->n_cancelled++;
                    continue;
                }
                g_array_append_val(rcvs, x);
            }
        g_array_sort(rcvs, rcv_order);
        GPtrArray *mine = by_dst[rank];
        for (guint j = 0; j < rcvs->len; j++) {
            rcv *x = &g_array_index(rcvs, rcv, j);
            chan *c = NULL;
            if (x->r->exact) {
                int32_t src = o2_world_rank(a, x->r->comm, x->r->peer);
                chan_key k = {x->r->comm, src, (int32_t)rank, x->r->tag};
                c = src < 0 ? NULL : g_hash_table_lookup(chans, &k);
                if (c && c->head >= c->sends->len) c = NULL;
                if (!c) {
                    unmatched(m, src < 0 ? "bad-comm" : "recv", src, (int32_t)rank, x->r->tag, x->r->comm);
                    continue;
                }
            } else {
                for (guint q = 0; mine && q < mine->len; q++) {
                    chan *cc = mine->pdata[q];
                    if (cc->head >= cc->sends->len) continue;
                    if (!c || msg_order(&g_array_index(cc->sends, msg, cc->head),
                                        &g_array_index(c->sends, msg, c->head)) < 0)
                        c = cc;
                }
                if (!c) {
                    unmatched(m, "recv", -1, (int32_t)rank, O2_UNKNOWN, O2_UNKNOWN);
                    continue;
                }
            }
            msg *mg = &g_array_index(c->sends, msg, c->head++);
            if (x->r->done_frame == O2_NONE && x->r->done_t == O2_UNKNOWN) {
                unmatched(m, "incomplete", c->k.src, c->k.dst, c->k.tag, c->k.comm);
                continue;
            }
            arrow(m, mg, x->l, x->r);
        }
    }
    g_array_free(rcvs, TRUE);
    g_hash_table_iter_init(&it, chans);
    while (g_hash_table_iter_next(&it, &kp, &vp)) {
        chan *c = vp;
        for (guint j = c->head; j < c->sends->len; j++) unmatched(m, "send", c->k.src, c->k.dst, c->k.tag, c->k.comm);
    }
    for (uint32_t r = 0; r < n_ranks; r++)
        if (by_dst[r]) g_ptr_array_free(by_dst[r], TRUE);
    g_free(by_dst);
    g_hash_table_destroy(chans);
}

/* ------------------------------------------------------------ states */

static void states(mapper *m, o2_loc *l) {
    for (size_t i = 0; i < l->frames.n; i++) {
        o2_frame *f = &l->frames.v[i];
        if (f->open) {
            /* Never left (a cut trace): drawn up to the location's end. */
            f->t1 = MAX(f->t0, l->last_t + l->shift_ns);
            m->n_open_closed++;
        }
        uint32_t cat = region_category(m, f->region);
        const o2_cat *c = m->cats->pdata[cat];
        o2_draw d = {.kind = SLOG_KIND_STATE, .category = cat, .timeline = l->timeline, .end_timeline = l->timeline,
                     .start = f->t0, .end = f->t1, .n_info = c->n_fields};
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
        add_draw(m, &d);
        m->n_states++;
    }
    for (size_t i = 0; i < l->polls.n; i++) {
        const o2_poll *p = &l->polls.v[i];
        char name[160];
        const o2_region *r = p->frame == O2_NONE
                                 ? NULL
                                 : g_hash_table_lookup(m->a->regions, GUINT_TO_POINTER(l->frames.v[p->frame].region));
        snprintf(name, sizeof name, "%s (nothing)", r && r->defined ? o2_string(m->a, r->name) : "MPI_Test");
        uint32_t cat = category(m, SLOG_KIND_EVENT, name, "poll", palette_event_colour(name), NULL, 0, 0);
        o2_draw d = {.kind = SLOG_KIND_EVENT, .category = cat, .timeline = l->timeline, .end_timeline = l->timeline,
                     .start = p->t, .end = p->t};
        add_draw(m, &d);
        m->n_events++;
    }
}

/* ------------------------------------------------------------ output */

static int draw_order(const void *x, const void *y) {
    const o2_draw *a = x, *b = y;
    int64_t ka = MAX(a->start, a->end), kb = MAX(b->start, b->end);
    if (ka != kb) return ka < kb ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static const char *skip_names[O2_N_SKIP] = {
#define O2_SKIP_NAME(name, rec, fam, params) rec,
    OTF2_SKIPPED_RECORDS(O2_SKIP_NAME)
#undef O2_SKIP_NAME
};
static const char *skip_families[O2_N_SKIP] = {
#define O2_SKIP_FAM(name, rec, fam, params) fam,
    OTF2_SKIPPED_RECORDS(O2_SKIP_FAM)
#undef O2_SKIP_FAM
};

/* "THREAD_BEGIN 8 (threading); ..." of every record kind read but not
 * drawn; NULL when none. */
static char *skipped_list(const o2_archive *a, uint64_t *total) {
    GString *s = g_string_new(NULL);
    *total = 0;
    for (int k = 0; k < O2_N_SKIP; k++) {
        uint64_t n = 0;
        for (size_t i = 0; i < a->n_locs; i++) n += a->locs[i].skipped[k];
        if (!n) continue;
        *total += n;
        g_string_append_printf(s, "%s%s %" PRIu64 " (%s)", s->len ? "; " : "", skip_names[k], n, skip_families[k]);
    }
    uint64_t unknown = 0;
    for (size_t i = 0; i < a->n_locs; i++) unknown += a->locs[i].n_unknown;
    if (unknown) {
        *total += unknown;
        g_string_append_printf(s, "%sunknown records %" PRIu64, s->len ? "; " : "", unknown);
    }
    return g_string_free(s, s->len == 0);
}

static gint str_cmp(gconstpointer x, gconstpointer y) {
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static char *unmatched_list(mapper *m, uint64_t *total) {
    GPtrArray *keys = g_ptr_array_new();
    GHashTableIter it;
    gpointer k, v;
    *total = 0;
    g_hash_table_iter_init(&it, m->unmatched);
    while (g_hash_table_iter_next(&it, &k, &v)) {
        g_ptr_array_add(keys, k);
        *total += GPOINTER_TO_SIZE(v);
    }
    g_ptr_array_sort(keys, str_cmp);
    GString *s = g_string_new(NULL);
    for (guint i = 0; i < keys->len && i < 200; i++)
        g_string_append_printf(s, "%s%s x%zu", i ? "; " : "", (char *)keys->pdata[i],
                               GPOINTER_TO_SIZE(g_hash_table_lookup(m->unmatched, keys->pdata[i])));
    g_ptr_array_free(keys, TRUE);
    return g_string_free(s, s->len == 0);
}

static bool write_file(mapper *m, o2_loc **order, slog_file_info *info, char **skipped, char **unm) {
    o2_archive *a = m->a;
    int64_t origin = INT64_MAX;
    for (size_t i = 0; i < m->n_draws; i++) origin = MIN(origin, MIN(m->draws[i].start, m->draws[i].end));
    if (m->n_draws == 0) origin = 0;
    for (size_t i = 0; i < m->n_draws; i++) m->draws[i].start -= origin, m->draws[i].end -= origin;
    qsort(m->draws, m->n_draws, sizeof *m->draws, draw_order);

    slog_writer_options wo;
    slog_writer_options_init(&wo);
    wo.preview_bins = m->o->preview_bins;
    wo.time_origin_ns = origin;
    wo.expected_timelines = m->n_timelines;
    slog_error werr;
    slog_writer *w = NULL;
    if (m->o->remove_on_signal) signals_hold();
    if (slog_writer_open(&w, m->o->output, &wo, &werr) != SLOG_OK) {
        if (m->o->remove_on_signal) signals_unhold();
        fprintf(m->err, "slog2-build: error: %s\n", werr.message);
        return false;
    }
    if (m->o->remove_on_signal) {
        const char *temp = slog_writer_temp_path(w);
        signals_arm("slog2-build", &temp, 1, false);
    }
    slog_status st = SLOG_OK;
    for (size_t i = 0; st == SLOG_OK && i < a->n_locs; i++) {
        const o2_loc *l = order[i];
        char *label = l->mpi || (l->rank < m->n_ranks && l->thread == 0)
                          ? g_strdup_printf("rank %u", l->rank)
                          : (l->rank < m->n_ranks ? g_strdup_printf("rank %u / thread %u", l->rank, l->thread)
                                                  : g_strdup_printf("%s", o2_string(a, l->name)));
        slog_timeline t = {l->rank, l->thread, label, host_of(a, l->group)};
        st = slog_writer_add_timeline(w, &t, NULL);
        g_free(label);
    }
    /* Categories are numbered in the order the file first uses them, then
     * the unused ones in the order they were made: a streaming writer
     * registers each when its first drawable is written. */
    guint n_cats = m->cats->len;
    uint32_t *remap = g_new(uint32_t, n_cats);
    uint32_t *order_c = g_new(uint32_t, n_cats);
    for (guint i = 0; i < n_cats; i++) remap[i] = O2_NONE;
    uint32_t next_c = 0;
    for (size_t i = 0; i < m->n_draws; i++)
        if (remap[m->draws[i].category] == O2_NONE) order_c[next_c] = m->draws[i].category, remap[m->draws[i].category] = next_c++;
    for (guint i = 0; i < n_cats; i++)
        if (remap[i] == O2_NONE) order_c[next_c] = i, remap[i] = next_c++;
    for (size_t i = 0; i < m->n_draws; i++) m->draws[i].category = remap[m->draws[i].category];
    for (guint i = 0; st == SLOG_OK && i < n_cats; i++) {
        const o2_cat *c = m->cats->pdata[order_c[i]];
        const char *names[O2_MAX_FIELDS];
        uint8_t types[O2_MAX_FIELDS];
        call_field_columns(c->fields, c->n_fields, names, types);
        slog_category sc = {c->kind, c->name, c->group, c->rgba, c->n_fields, names, types};
        st = slog_writer_add_category(w, &sc, NULL);
    }
    g_free(remap);
    g_free(order_c);
    slog_writer_add_annotation(w, "builder", "slog2-build " SLOG2_VERSION);
    if (m->o->command_line) slog_writer_add_annotation(w, "builder.command", m->o->command_line);
    slog_writer_add_annotation(w, "source.otf2", a->anchor);
    if (a->creator) slog_writer_add_annotation(w, "source.creator", a->creator);
    char buf[160];
    snprintf(buf, sizeof buf, "OTF2 timer, %" PRIu64 " ticks per second, global offset %" PRIu64, a->tps,
             a->global_offset);
    slog_writer_add_annotation(w, "time.clock", buf);
    if (m->aligned) {
        GString *s = g_string_new(NULL);
        for (size_t i = 0; i < a->n_locs; i++)
            if (order[i]->thread == 0 && order[i]->rank < m->n_ranks)
                g_string_append_printf(s, "%srank %u %+" PRId64, s->len ? "; " : "", order[i]->rank,
                                       order[i]->shift_ns);
        slog_writer_add_annotation(w, "time.clock_offsets_ns", s->str);
        g_string_free(s, TRUE);
    }
    if (*skipped) slog_writer_add_annotation(w, "otf2.skipped", *skipped);
    if (*unm) slog_writer_add_annotation(w, "messages.unmatched", *unm);
    if (m->n_inferred) {
        snprintf(buf, sizeof buf,
                 "%" PRIu64 " messages: receives without a recorded envelope (source, tag); %" PRIu64
                 " receive completions placed in the waits that most likely completed them",
                 m->n_inferred, m->n_inferred_done);
        slog_writer_add_annotation(w, "messages.inferred", buf);
    }
    for (size_t i = 0; st == SLOG_OK && i < m->n_draws; i++) {
        const o2_draw *d = &m->draws[i];
        slog_drawable sd = {(slog_kind)d->kind, d->category, d->timeline, d->end_timeline, d->start, d->end,
                            d->n_info, d->n_info ? d->info : NULL};
        st = slog_writer_add(w, &sd);
    }
    if (st != SLOG_OK) {
        const slog_error *e = slog_writer_error(w);
        fprintf(m->err, "slog2-build: error: %s: %s (from %s)\n", m->o->output,
                e->status != SLOG_OK ? e->message : slog_strerror(st), a->anchor);
        slog_writer_abort(w);
        if (m->o->remove_on_signal) signals_disarm();
        return false;
    }
    st = slog_writer_finish_info(w, info, &werr);
    if (m->o->remove_on_signal) signals_disarm();
    if (st != SLOG_OK) {
        fprintf(m->err, "slog2-build: error: %s (from %s)\n", werr.message, a->anchor);
        return false;
    }
    return true;
}

static void check_locations(mapper *m) {
    o2_archive *a = m->a;
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        const char *name = o2_string(a, l->name);
        if (l->error)
            warn(m, "%s: location %" PRIu64 " (%s): %s; keeping the %" PRIu64 " records before it", a->anchor, l->id,
                 name, l->error, l->n_read);
        else if (l->n_read < l->n_events_declared)
            warn(m, "%s: location %" PRIu64 " (%s): %" PRIu64 " records read of the %" PRIu64 " its definition declares",
                 a->anchor, l->id, name, l->n_read, l->n_events_declared);
        if (l->n_unbalanced)
            warn(m, "%s: location %" PRIu64 " (%s): %" PRIu64 " LEAVE records without their ENTER, skipped",
                 a->anchor, l->id, name, l->n_unbalanced);
        if (l->n_bad_time)
            warn(m, "%s: location %" PRIu64 " (%s): %" PRIu64 " records with a time more than 13 days from the clock's "
                    "origin (damaged?), put at the time of the record before",
                 a->anchor, l->id, name, l->n_bad_time);
        if (l->n_unknown)
            warn(m, "%s: location %" PRIu64 " (%s): %" PRIu64 " records of a kind this OTF2 library does not know, skipped",
                 a->anchor, l->id, name, l->n_unknown);
    }
}

static void print_summary(const mapper *m, const slog_file_info *info, const char *skipped, const char *unm,
                          uint64_t n_skipped, uint64_t n_unm, double secs, FILE *out) {
    const o2_archive *a = m->a;
    fprintf(out, "slog2-build: wrote %s (%" PRIu64 " bytes) in %.2f s\n", m->o->output, info->file_size, secs);
    fprintf(out, "  input: OTF2 archive %s%s%s%s, %zu locations, %u MPI ranks\n", a->anchor, a->creator ? " (" : "",
            a->creator ? a->creator : "", a->creator ? ")" : "", a->n_locs, m->n_ranks);
    fprintf(out, "  %u timelines, %" PRIu64 " states, %" PRIu64 " arrows (%" PRIu64 " inferred), %" PRIu64
                 " events, span %.6f s\n",
            m->n_timelines, m->n_states, m->n_arrows, m->n_inferred, m->n_events,
            (double)(info->t_max - info->t_min) / 1e9);
    if (m->n_inferred)
        fprintf(out,
                "  inferred: %" PRIu64 " messages whose receive recorded no source or tag were paired by MPI's\n"
                "    ordering rules; %" PRIu64 " receive completions (no MPI_IRECV record) were placed in\n"
                "    the MPI_Wait/MPI_Waitall that most likely completed them (docs/OTF2.md)\n",
                m->n_inferred, m->n_inferred_done);
    if (m->n_cancelled) fprintf(out, "  cancelled operations: %" PRIu64 "\n", m->n_cancelled);
    if (m->aligned)
        fprintf(out,
                "  clocks: the archive records no clock offsets; processes aligned on synchronising\n"
                "    collectives, largest shift %.3f us, within +-%.3f us%s\n",
                m->max_shift / 1e3, m->max_error / 1e3, m->n_conflicts ? " (some intervals empty)" : "");
    if (n_unm) fprintf(out, "  unmatched: %" PRIu64 " (messages.unmatched annotation): %.300s\n", n_unm, unm);
    if (n_skipped) fprintf(out, "  records not drawn: %" PRIu64 ": %s\n", n_skipped, skipped);
    uint64_t misnested = 0;
    for (size_t i = 0; i < a->n_locs; i++) misnested += a->locs[i].n_misnested;
    if (misnested)
        fprintf(out, "  regions left out of nesting order: %" PRIu64 " (each state spans its own ENTER..LEAVE)\n",
                misnested);
    if (a->n_duplicate_defs)
        fprintf(out, "  definitions given more than once: %" PRIu64 " (the last one kept)\n", a->n_duplicate_defs);
    if (m->n_warnings) fprintf(out, "  warnings: %u (on stderr)\n", m->n_warnings);
}

int otf2_build_run(const char *anchor, const otf2_build_options *o, FILE *err, FILE *out) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    o2_archive a;
    char msg[1024];
    if (!o2_read(anchor, &a, msg, sizeof msg)) {
        fprintf(err, "slog2-build: error: %s\n", msg);
        o2_archive_free(&a);
        return OTF2_BUILD_FAILED;
    }
    mapper m = {.a = &a, .o = o, .err = err, .status = OTF2_BUILD_OK, .inferred_cat = O2_NONE};
    m.cats = g_ptr_array_new();
    m.cat_by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    m.unmatched = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    check_locations(&m);
    o2_loc **order = assign_ranks(&m);
    uint64_t read_total = 0;
    for (size_t i = 0; i < a.n_locs; i++) read_total += a.locs[i].n_read;
    int status = OTF2_BUILD_FAILED;
    if (read_total == 0) {
        fprintf(err, "slog2-build: error: %s: no event could be read from any of its %zu locations\n", anchor,
                a.n_locs);
        goto done;
    }
    align_clocks(&m, order);
    m.msg_cat = category(&m, SLOG_KIND_ARROW, "message", "message", PALETTE_ARROW, call_arrow_fields, N_ARROW_FIELDS, 0);
    for (size_t i = 0; i < a.n_locs; i++) states(&m, order[i]);
    for (size_t i = 0; i < a.n_locs; i++) {
        infer_completions(&m, order[i]);
        for (size_t j = 0; j < order[i]->recvs.n; j++) m.n_inferred_done += order[i]->recvs.v[j].inferred_done;
    }
    match_messages(&m, order);
    if (m.n_open_closed)
        warn(&m, "%s: %" PRIu64 " regions were never left; drawn up to their location's last record", anchor,
             m.n_open_closed);
    if (a.n_missing_defs)
        warn(&m, "%s: %" PRIu64 " regions entered have no definition; drawn as \"region N\"", anchor,
             a.n_missing_defs);
    uint64_t n_skipped = 0, n_unm = 0;
    char *skipped = skipped_list(&a, &n_skipped);
    char *unm = unmatched_list(&m, &n_unm);
    slog_file_info info;
    if (write_file(&m, order, &info, &skipped, &unm)) {
        status = m.status;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (out) print_summary(&m, &info, skipped, unm, n_skipped, n_unm, secs, out);
    }
    g_free(skipped);
    g_free(unm);
done:
    for (guint i = 0; i < m.cats->len; i++) {
        o2_cat *c = m.cats->pdata[i];
        g_free(c->name);
        g_free(c);
    }
    g_ptr_array_free(m.cats, TRUE);
    g_hash_table_destroy(m.cat_by_name);
    g_hash_table_destroy(m.unmatched);
    g_free(m.draws);
    g_free(order);
    o2_archive_free(&a);
    return status;
}
