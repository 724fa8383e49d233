/* SPDX-License-Identifier: MIT */
/* seq.c - the sequential steps of a slab (see build_internal.h).
 *
 * Two chains, each slab after slab, which may run at the same time on
 * different slabs (pipeline.c):
 *   - the match step owns the communicator replay, the matcher, the plans
 *     and the ids of categories and timelines. It meets the lanes' listed
 *     operations and deferred records in the order a k-way merge of all
 *     ranks by exit time meets them (ties: lower rank first), which is the
 *     order matching and the replay need, and leaves what it made in the
 *     slab's slab_out: a batch of the deferred records' states, the arrows
 *     as plain records, the categories and timelines it numbered, and the
 *     watermark;
 *   - the write step owns the writer: it gives it those categories and
 *     timelines, encodes the arrows into a batch, adds the lanes' batches,
 *     then the two of its own, and advances the watermark.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"
#include "comm_call.h"
#include "merge.h"
#include "palette.h"

void seq_writer_failed(builder *b)
{
    if (!atomic_load(&b->stop) || b->werr.status == SLOG_OK) b->werr = *slog_writer_error(b->w);
    if (b->werr.status == SLOG_OK) {
        b->werr.status = SLOG_ERR_IO;
        snprintf(b->werr.message, sizeof b->werr.message, "%s: the writer failed", b->o->output);
    }
    atomic_store(&b->stop, 1);
}

/* A category numbered now and given to the writer by the write step of
 * the slab being matched, before any batch that names it. */
static uint32_t add_category(builder *b, slog_kind kind, const char *name, const char *group, uint32_t rgba,
                             uint32_t n_fields, const uint8_t *fields)
{
    pending_meta m = {.is_category = true,
                      .kind = (uint8_t)kind,
                      .name = g_strdup(name),
                      .group = g_strdup(group),
                      .rgba = rgba,
                      .n_fields = (uint8_t)n_fields};
    if (n_fields) memcpy(m.fields, fields, n_fields);
    g_array_append_val(b->cur_out->meta, m);
    return b->n_categories++;
}

/* The plan of label, made on its first record or before the first leaf,
 * for lanes' records from leaf usable_from on. */
static fn_plan *seq_plan(builder *b, uint16_t label, uint64_t usable_from)
{
    fn_plan *p = &b->plans[label];
    if (atomic_load_explicit(&p->usable_from, memory_order_relaxed) != PLAN_NOT_READY) return p;
    const dumpi_fn_info *fn = dumpi_fn_lookup(label);
    call_plan_make(p, label);
    p->category = add_category(b, SLOG_KIND_STATE, fn->name, dumpi_family_name(fn->family),
                               palette_colour(fn->family, fn->name), p->n_fields, p->fields);
    if (p->is_poll && !b->o->poll_states) {
        char name[96];
        snprintf(name, sizeof name, "%s (nothing)", fn->name);
        p->poll_category = add_category(b, SLOG_KIND_EVENT, name, "poll", palette_event_colour(name), 0, NULL);
    }
    atomic_store_explicit(&p->usable_from, usable_from, memory_order_release);
    return p;
}

/* The timeline of (rank, thread), made before any record of it met the
 * matcher; UINT32_MAX when there is none. */
static uint32_t timeline_of(const builder *b, uint32_t rank, uint32_t thread)
{
    if (thread == 0) return rank; /* thread 0 timelines were made up front */
    gpointer v = g_hash_table_lookup(b->timelines, GSIZE_TO_POINTER(((gsize)rank << 16) | thread));
    return v ? (uint32_t)GPOINTER_TO_SIZE(v) - 1 : UINT32_MAX;
}

/* The same, made (and numbered for the write step) when it is new. */
static uint32_t timeline_for(builder *b, uint32_t rank, uint32_t thread)
{
    uint32_t id = timeline_of(b, rank, thread);
    if (id != UINT32_MAX) return id;
    const char *host = b->ranks[rank].f ? dumpi_file_hostname(b->ranks[rank].f) : "";
    pending_meta m = {.is_category = false,
                      .rank = rank,
                      .thread = thread,
                      .name = g_strdup_printf("rank %u / thread %u", rank, thread),
                      .group = g_strdup(host ? host : "")};
    g_array_append_val(b->cur_out->meta, m);
    id = b->n_timelines++;
    g_hash_table_insert(b->timelines, GSIZE_TO_POINTER(((gsize)rank << 16) | thread), GSIZE_TO_POINTER((gsize)id + 1));
    b->s->n_timelines++;
    return id;
}

/* A drawable that ends before the watermark the writer was given (a
 * thread's record written out of exit order, or an arrow the matcher could
 * not hold back for) is stretched to it. */
static void clamp(builder *b, int kind, int64_t *start, int64_t *end)
{
    int64_t key = *start > *end ? *start : *end;
    if (key >= b->floor) return;
    b->n_clamped++;
    if (kind == SLOG_KIND_EVENT)
        *start = *end = b->floor;
    else if (*end >= *start)
        *end = b->floor;
    else
        *start = b->floor;
}

/* The match step could not keep a drawable: the build stops. */
static void refused(builder *b, slog_status st)
{
    if (b->merr.status == SLOG_OK) {
        b->merr.status = st;
        b->merr.offset = SLOG_NO_OFFSET;
        snprintf(b->merr.message, sizeof b->merr.message, "%s: a drawable was refused: %s", b->o->output,
                 slog_strerror(st));
    }
    atomic_store(&b->stop, 1);
}

/* Into the slab's batch of deferred records. */
static void emit(builder *b, slog_drawable *d)
{
    clamp(b, d->kind, &d->start, &d->end);
    slog_status st = slog_batch_add(b->cur_out->batch, d);
    if (st != SLOG_OK) refused(b, st);
}

/* From inside a match_* or comm_record_* call: the arrow as a record for
 * the write step to encode. */
static slog_cb_result on_arrow(void *user, const match_arrow *a)
{
    builder *b = user;
    if (atomic_load(&b->stop)) return SLOG_STOP;
    /* Messages whose receive recorded no status were chosen by MPI's
     * ordering rules (docs/MATCHING.md): a category of their own, so the
     * legend tells them apart and can hide them. */
    if (a->inferred && b->inferred_category == UINT32_MAX)
        b->inferred_category = add_category(b, SLOG_KIND_ARROW, "message (inferred)", "message", PALETTE_ARROW_INFERRED,
                                            N_ARROW_FIELDS, call_arrow_fields);
    /* A list of its own, not a GArray: its append was half of this. */
    arrow_list *l = &b->cur_out->arrows;
    if (l->n == l->cap) {
        arrow_rec *v = slog_grow(l->v, &l->cap, l->n, sizeof *v, 1024);
        if (!v) {
            refused(b, SLOG_ERR_NOMEM);
            return SLOG_STOP;
        }
        l->v = v;
    }
    arrow_rec *ar = &l->v[l->n++];
    *ar = (arrow_rec){
        .category = a->inferred ? b->inferred_category : b->arrow_category,
        .timeline = timeline_of(b, a->send_rank, a->send_thread),
        .end_timeline = timeline_of(b, a->recv_rank, a->recv_thread),
        .start = a->send_time,
        .end = a->recv_time,
        .bytes = a->bytes,
        .tag = a->tag,
        .comm = a->recv_comm,
    };
    clamp(b, SLOG_KIND_ARROW, &ar->start, &ar->end);
    return SLOG_CONTINUE;
}

static void user_function(builder *b, rank_in *r, const dumpi_call *c, int64_t t0, int64_t t1)
{
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
        slog_drawable d = {.kind = SLOG_KIND_STATE,
                           .category = cat,
                           .timeline = tl,
                           .end_timeline = tl,
                           .start = fr->start,
                           .end = t1 > fr->start ? t1 : fr->start};
        b->s->n_states++;
        g_array_remove_index(r->user_stack, i);
        emit(b, &d);
        return;
    }
}

/* call_ops() runs each operation at once: the slot it fills is run when
 * the next one is asked for, and the last one after it returns. */
typedef struct op_runner {
    builder *b;
    uint32_t rank;
    bool pending;
    int64_t done_time;
    match_op op;
} op_runner;

static match_op *run_slot(void *user)
{
    op_runner *o = user;
    if (o->pending) match_op_run(o->b->match, o->rank, &o->op, o->done_time);
    o->pending = true;
    return &o->op;
}

/* Publish the lanes' snapshots of communicators the replay has resolved
 * (or found failed) since they were made. */
static void publish_resolved(builder *b, uint64_t leaf)
{
    guint k = 0;
    for (guint i = 0; i < b->pending_snaps->len; i++) {
        snap_wait *w = &g_array_index(b->pending_snaps, snap_wait, i);
        if (comm_ref_get_state(w->ref) == COMM_REF_PENDING) {
            g_array_index(b->pending_snaps, snap_wait, k++) = *w;
            continue;
        }
        comm_snap_publish(w->snap, w->ref, leaf + b->lag);
        comm_ref_release(w->ref);
    }
    g_array_set_size(b->pending_snaps, k);
}

/* The communicator record c of rank just created in the replay, for the
 * lane's snapshot of it. */
static void attach_snap(builder *b, uint32_t rank, const dumpi_call *c, comm_snap *snap, uint64_t leaf)
{
    int h = (int)dumpi_call_int(c, b->bindings[c->label].i_newcomm);
    comm_ref *ref = comm_ref_lookup(b->comms, rank, h);
    if (ref && comm_ref_get_state(ref) == COMM_REF_PENDING) {
        snap_wait w = {snap, comm_ref_hold(ref)};
        g_array_append_val(b->pending_snaps, w);
    } else {
        comm_snap_publish(snap, ref, leaf + b->lag);
    }
}

void seq_drop_snaps(builder *b)
{
    if (!b->pending_snaps) return;
    for (guint i = 0; i < b->pending_snaps->len; i++) {
        snap_wait *w = &g_array_index(b->pending_snaps, snap_wait, i);
        comm_snap_unref(w->snap);
        comm_ref_release(w->ref);
    }
    g_array_set_size(b->pending_snaps, 0);
}

/* A deferred record: what a lane does, plus what needs all ranks in order
 * (communicator calls, plans, thread timelines, user functions). snap:
 * the lane's snapshot of the communicator it creates, if any. */
static void deferred(builder *b, rank_in *r, const dumpi_call *c, comm_snap *snap, const slab *s)
{
    int64_t t0 = c->wall_start - b->origin, t1 = c->wall_stop - b->origin;
    if (t0 < 0) t0 = 0;
    if (t1 < t0) t1 = t0;
    if (c->fn->family == DUMPI_FAMILY_USER) { /* not an MPI call */
        user_function(b, r, c, t0, t1);
        return;
    }
    if (b->bindings[c->label].replayed) {
        comm_replay_call(b->comms, r->rank, c);
        if (snap) attach_snap(b, r->rank, c, snap, s->leaf);
        /* Only when an instance settled: thousands of ranks' pending
         * creations scanned at every communicator call were a tenth of
         * the match step. */
        if (b->pending_snaps->len && comm_ctx_settled(b->comms) != b->snaps_settled) {
            b->snaps_settled = comm_ctx_settled(b->comms);
            publish_resolved(b, s->leaf);
        }
    }
    fn_plan *p = seq_plan(b, c->label, s->leaf + b->lag);
    /* Before matching: arrows name this timeline. */
    uint32_t tl = timeline_for(b, r->rank, c->thread);
    dumpi_completions dc;
    if (c->fn->family == DUMPI_FAMILY_WAIT_TEST)
        dumpi_call_completions(c, &dc);
    else
        dc.n = 0;
    int64_t bytes = p->bytes_shared ? call_bytes(r->types, c, p->a.i_count, p->a.i_datatype) : SLOG_INFO_UNKNOWN;
    op_runner run = {.b = b, .rank = r->rank, .done_time = t1};
    call_ops(p, r->types, c, &dc, t0, bytes, NULL, run_slot, &run);
    if (run.pending) match_op_run(b->match, r->rank, &run.op, t1);
    int64_t info[SLOG_MAX_FIELDS];
    slog_drawable d = {.timeline = tl, .end_timeline = tl, .info = info};
    if (p->poll_category != UINT32_MAX && call_poll_failed(c, p)) {
        d.kind = SLOG_KIND_EVENT;
        d.category = p->poll_category;
        d.start = d.end = t1;
        b->s->n_events++;
    } else {
        d.kind = SLOG_KIND_STATE;
        d.category = p->category;
        d.start = t0;
        d.end = t1;
        d.n_info = p->n_fields;
        comm_view cv = comm_view_replay(b->comms, r->rank, call_comm(p, c));
        call_state_info(p, r->types, &cv, c, &dc, bytes, info);
        b->s->n_states++;
    }
    emit(b, &d);
}

static void add_meta(builder *b, const pending_meta *m)
{
    slog_status st;
    if (m->is_category) {
        const char *names[N_FIELD_IDS];
        uint8_t types[N_FIELD_IDS];
        call_field_columns(m->fields, m->n_fields, names, types);
        slog_category c = {m->kind, m->name, m->group, m->rgba, m->n_fields, names, types};
        st = slog_writer_add_category(b->w, &c, NULL);
    } else {
        slog_timeline t = {m->rank, m->thread, m->name, m->group};
        st = slog_writer_add_timeline(b->w, &t, NULL);
    }
    if (st != SLOG_OK) seq_writer_failed(b);
}

static void free_meta(GArray *meta)
{
    for (guint i = 0; i < meta->len; i++) {
        pending_meta *m = &g_array_index(meta, pending_meta, i);
        g_free(m->name);
        g_free(m->group);
    }
    g_array_set_size(meta, 0);
}

/* The categories and timelines numbered, to the writer in id order. */
static void flush_meta(builder *b, GArray *meta)
{
    for (guint i = 0; i < meta->len && !atomic_load(&b->stop); i++) add_meta(b, &g_array_index(meta, pending_meta, i));
    free_meta(meta);
}

/* What recent slabs used, after one that used n: a running figure that
 * follows a larger slab at once and decays by an eighth a slab (with
 * thousands of ranks slabs swing between bursts, thousands of ranks
 * leaving a collective in one leaf, and nearly empty ones; decaying by a
 * quarter forgot a burst before the next). Room at most twice that is
 * kept: given back after every slab, it was taken again on fresh pages,
 * the kernel zeroing each; kept for the largest slab, it held a burst's
 * until the end. */
static size_t recent_use(size_t *used, size_t n)
{
    size_t u = *used - *used / 8;
    return *used = n > u ? n : u;
}

/* Bytes a slab's arrow list keeps between its slabs. */
#define ARROWS_KEEP (256u << 10)

/* The arrows of a slab into a batch aimed at its leaf. */
static void encode_arrows(builder *b, slab_out *out, uint64_t leaf)
{
    slog_batch_begin(b->arrow_batch, leaf);
    for (uint32_t i = 0; i < out->arrows.n; i++) {
        const arrow_rec *a = &out->arrows.v[i];
        int64_t info[N_ARROW_FIELDS] = {a->bytes, a->tag, a->comm};
        slog_drawable d = {.kind = SLOG_KIND_ARROW,
                           .category = a->category,
                           .timeline = a->timeline,
                           .end_timeline = a->end_timeline,
                           .start = a->start,
                           .end = a->end,
                           .n_info = N_ARROW_FIELDS,
                           .info = info};
        if (slog_batch_add(b->arrow_batch, &d) != SLOG_OK) {
            seq_writer_failed(b);
            break;
        }
    }
    size_t used = recent_use(&b->arrows_used, out->arrows.n);
    out->arrows.n = 0;
    if ((size_t)out->arrows.cap * sizeof *out->arrows.v > ARROWS_KEEP) { /* as release_lists */
        if (b->lists_unmapped && out->arrows.cap / 2 <= used) {          /* the spare, the one before let go */
            spare_put(&b->arrows_spare, out->arrows.v, out->arrows.cap);
        } else {
            free(out->arrows.v);
        }
        out->arrows.v = NULL;
        out->arrows.cap = 0;
    }
}

/* The match step's arrow list for a slab: the write step's spare when
 * the slot's own is small. */
static void take_arrows(builder *b, arrow_list *l)
{
    if ((size_t)l->cap * sizeof *l->v > ARROWS_KEEP) return;
    arrow_rec *v = spare_take(&b->arrows_spare, &l->cap);
    if (!v) return;
    free(l->v);
    l->v = v;
}

/* Give the writer what the slab's match step made: its categories and
 * timelines, the lanes' batches in lane order, the deferred records' and
 * the arrows' batches, then the watermark. */
static void write_out(builder *b, slab_out *out, const slab *s, int slot)
{
    flush_meta(b, out->meta);
    encode_arrows(b, out, out->leaf);
    for (uint32_t i = 0; s && i < b->n_lanes && !atomic_load(&b->stop); i++)
        if (slog_writer_add_batch(b->w, b->lanes[i].batch[slot]) != SLOG_OK) seq_writer_failed(b);
    if (!atomic_load(&b->stop) && slog_writer_add_batch(b->w, out->batch) != SLOG_OK) seq_writer_failed(b);
    if (!atomic_load(&b->stop) && slog_writer_add_batch(b->w, b->arrow_batch) != SLOG_OK) seq_writer_failed(b);
    if (!atomic_load(&b->stop) && out->watermark != INT64_MIN && slog_writer_advance(b->w, out->watermark) != SLOG_OK)
        seq_writer_failed(b);
}

/* With this many ranks or more the match step sorts its entries
 * (seq_match); with fewer, the tree merge of a few lists is cheaper than
 * sorting them. */
#define SORT_MIN_RANKS 256
/* Entries between the one run and the one whose list entry, a line its
 * lane wrote on another core, is fetched. */
#define ITEM_AHEAD     16
/* Entries between the one run and the one whose rank's record is fetched,
 * then those whose deeper state is, a step at a time (match.h,
 * match_chase_start). */
#define RANK_AHEAD     12
#define CHASE_AHEAD    8
#define CHASE_RING     16 /* > CHASE_AHEAD, a power of two */

static inline void chase_start(builder *b, uint32_t rank, const match_op *op, match_chase *c)
{
    match_hint h = op->kind == OP_SEND       ? MATCH_HINT_SEND
                   : op->kind == OP_COMPLETE ? MATCH_HINT_COMPLETE
                                             : MATCH_HINT_RECV;
    c->at = NULL;
    if (op->kind == OP_SEND || op->kind == OP_RECV || op->kind == OP_RECV_POST || op->kind == OP_COMPLETE)
        match_chase_start(b->match, rank, h, op->comm, op->peer, op->tag, op->request, c);
}

/* The merge's winner gave its entry at key; at is its next, end its list's
 * end. */
static inline void take_next(merge *m, const seq_item *at, const seq_item *end, int64_t key)
{
    if (at == end) {
        merge_finish_winner(m);
        return;
    }
    /* The rank's next entry exits at the same time (a Waitall's
     * completions): it wins again, since every other rank's entry is
     * later, or as late and of a higher rank, and the tree stays. */
    if (at->key != key) merge_update_winner(m, at->key);
}

/* Completions after it of the same call (a Waitall's: its entries run one
 * after the other, as they exit together) are chains of misses, each
 * pointer read from the line before (the request's operation, its
 * channel, the send there): fetch a step of each of the next few, the
 * farther the earlier in the chain. */
#define COMPLETIONS_AHEAD 3

static inline void fetch_completions(builder *b, const seq_item *it, const seq_item *end, uint32_t rank)
{
    for (int k = 1; k <= COMPLETIONS_AHEAD && it + k < end; k++) {
        const seq_item *n = it + k;
        if (n->op.kind == OP_COMPLETE) match_fetch_completion(b->match, rank, n->op.request, COMPLETIONS_AHEAD - k);
    }
}

/* Entry it of rank: a deferred record, or a matching operation. */
static inline void run_entry(builder *b, const slab *s, seq_item *it, uint32_t rank)
{
    if (it->op.kind == OP_DEFERRED) {
        if (!atomic_load(&b->stop))
            deferred(b, &b->ranks[rank], it->def.call, it->def.snap, s);
        else
            comm_snap_unref(it->def.snap);
        free(it->def.call);
        it->def.call = NULL;
        it->def.snap = NULL;
    } else if (!atomic_load(&b->stop)) {
        match_op_run(b->match, rank, &it->op, it->key);
    }
}

/* Whether the sort's room stays for the next slab after one that used n
 * entries (recent_use). */
static bool ents_kept(builder *b, size_t n)
{
    return b->ents_cap / 2 <= recent_use(&b->ents_used, n);
}

/* The lanes' lists of a matched slab, given back when large: a burst
 * (thousands of ranks leaving a collective in one leaf) grows them far
 * past the slabs around it, and every slot kept room for its largest
 * until the end, so the slabs in flight held room for several bursts at
 * once. Where freed lists go back to the system (lists_unmapped), a list
 * no larger than twice what the lane's recent slabs used (recent_use)
 * becomes the lane's spare, which the lane's next slab takes (lane_run)
 * rather than grow a list on fresh pages: one list in reserve a lane,
 * where keeping each slot's held one more slab's lists at all times
 * (docs/PERFORMANCE.md). Elsewhere the heap keeps what they free. */
static void release_lists(builder *b, int slot)
{
    for (uint32_t i = 0; i < b->n_lanes; i++) {
        lane *ln = &b->lanes[i];
        item_list *l = &ln->items[slot];
        size_t used = recent_use(&ln->items_used, l->n);
        l->n = 0;
        if (l->cap <= ITEMS_KEEP) continue;
        if (b->lists_unmapped && l->cap / 2 <= used) { /* the lane's spare, the one it held before let go */
            spare_put(&ln->spare, l->v, l->cap);
            l->v = NULL;
            l->cap = 0;
            continue;
        }
        free(l->v);
        l->v = NULL;
        l->cap = 0;
    }
}

void seq_match(builder *b, const slab *s)
{
    int slot = SLOT_OF(b, s->k);
    slab_out *out = &b->outs[slot];
    out->live = false;
    bool any = false;
    for (uint32_t i = 0; i < b->n_lanes && !any; i++) any = slog_batch_count(b->lanes[i].batch[slot]) > 0;
    /* The lists of the ranks that have entries (the lanes listed them, in
     * rank order), merged by (exit time, rank): with thousands of ranks
     * most have none in a slab, and looking at every rank's list in every
     * slab made the match step grow with the ranks. Their ends are copied
     * here: a rank_in is its lane's, written for every record on another
     * thread while this runs, and reading the lists through it made the
     * two cores pass its cache lines back and forth for every entry
     * (docs/PERFORMANCE.md, the match step's false sharing). */
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->n_lanes; i++) n += b->lanes[i].n_listed[slot];
    if (!n && !any) return; /* an empty slab: nothing reaches the writer, not even a watermark */
    /* Room for every rank (seq_begin): made for each slab, the larger
     * ones came on fresh pages every time. */
    seq_item **at = b->merge_room, **end = at + b->n_ranks;
    int64_t *keys = (int64_t *)(end + b->n_ranks);
    uint32_t *rank_of = (uint32_t *)(keys + b->n_ranks);
    bool *live = (bool *)(rank_of + b->n_ranks);
    for (uint32_t i = 0, j = 0; i < b->n_lanes; i++) {
        const lane *ln = &b->lanes[i];
        const item_list *l = &ln->items[slot];
        for (uint32_t k = 0; k < ln->n_listed[slot]; k++, j++) {
            rank_of[j] = ln->listed[slot][k];
            at[j] = l->v + ln->listed_at[slot][k];
            end[j] = l->v + (k + 1 < ln->n_listed[slot] ? ln->listed_at[slot][k + 1] : l->n);
            live[j] = true;
            keys[j] = at[j]->key;
        }
    }
    out->live = true;
    out->leaf = s->leaf;
    b->cur_out = out;
    take_arrows(b, &out->arrows);
    slog_batch_begin(out->batch, s->leaf);
    /* With many ranks, the entries laid out stream by stream and sorted
     * (merge_sort_ents: the tree's order when no list's keys decrease):
     * the tree's path and each rank's next list entry were cache misses
     * at every entry, and the order is known ahead, so each entry's line
     * is fetched before it runs. */
    size_t n_ents = 0;
    for (uint32_t j = 0; j < n; j++) n_ents += (size_t)(end[j] - at[j]);
    merge_ent *ents = NULL;
    if (b->n_ranks >= SORT_MIN_RANKS && n_ents && n_ents <= UINT32_MAX) {
        int64_t base = INT64_MAX;
        for (uint32_t j = 0; j < n; j++)
            if (keys[j] < base) base = keys[j];
        if (2 * n_ents > b->ents_cap) { /* a quarter more: slabs' sizes vary */
            g_free(b->ents);
            b->ents_cap = 2 * n_ents + n_ents / 2;
            b->ents = g_new(merge_ent, b->ents_cap);
        }
        ents = b->ents;
        uint64_t max_off = 0;
        size_t i = 0;
        for (uint32_t j = 0; j < n && ents; j++) {
            int64_t prev = INT64_MIN;
            for (seq_item *e = at[j]; e < end[j]; e++) {
                uint64_t off = (uint64_t)e->key - (uint64_t)base;
                if (e->key < prev || off > UINT32_MAX) { /* the tree, then */
                    ents = NULL;
                    break;
                }
                prev = e->key;
                if (off > max_off) max_off = off;
                ents[i++] = (merge_ent){(uint32_t)off, rank_of[j], e};
            }
        }
        if (ents) ents = merge_sort_ents(ents, ents + n_ents, n_ents, (uint32_t)max_off);
    }
    if (ents) {
        match_chase chase[CHASE_RING] = {{0}};
        for (size_t i = 0; i < n_ents; i++) {
            if (i + ITEM_AHEAD < n_ents) { /* an entry from realloc straddles two lines */
                __builtin_prefetch(ents[i + ITEM_AHEAD].p);
                __builtin_prefetch((const char *)ents[i + ITEM_AHEAD].p + sizeof(seq_item) - 1);
                match_prefetch_record(b->match, ents[i + ITEM_AHEAD].tag);
            }
            if (i + RANK_AHEAD < n_ents) {
                const seq_item *ah = ents[i + RANK_AHEAD].p;
                if (ah->op.kind != OP_DEFERRED) match_prefetch_rank(b->match, ents[i + RANK_AHEAD].tag, ah->op.request);
            }
            if (i + CHASE_AHEAD < n_ents)
                chase_start(b, ents[i + CHASE_AHEAD].tag, &((const seq_item *)ents[i + CHASE_AHEAD].p)->op,
                            &chase[(i + CHASE_AHEAD) & (CHASE_RING - 1)]);
            match_chase_step(&chase[(i + CHASE_AHEAD / 2) & (CHASE_RING - 1)]);
            match_chase_step(&chase[(i + CHASE_AHEAD / 4) & (CHASE_RING - 1)]);
            run_entry(b, s, ents[i].p, ents[i].tag);
        }
    } else {
        merge *m = merge_new(n, keys, live);
        /* With a few ranks the matcher's state stays in the caches: the
         * fetches would only cost. */
        bool fetch = b->n_ranks > FEW_RANKS;
        int64_t next;
        while ((next = merge_winner(m)) >= 0) {
            seq_item *it = at[next]++;
            uint32_t rank = rank_of[next];
            take_next(m, at[next], end[next], it->key);
            if (fetch && it->op.kind == OP_COMPLETE) fetch_completions(b, it, end[next], rank);
            run_entry(b, s, it, rank);
        }
        merge_free(m);
    }
    if (!ents_kept(b, 2 * n_ents)) {
        g_free(b->ents);
        b->ents = NULL;
        b->ents_cap = 0;
    }
    release_lists(b, slot);
    /* Every record still to come ends at or after the slab's end; the
     * matcher holds back to its own low watermark. */
    int64_t wm = match_low_watermark(b->match);
    if (s->hi < wm) wm = s->hi;
    out->watermark = INT64_MIN;
    if (wm > b->floor) out->watermark = b->floor = wm;
}

void seq_write(builder *b, const slab *s)
{
    int slot = SLOT_OF(b, s->k);
    slab_out *out = &b->outs[slot];
    if (!out->live || atomic_load(&b->stop)) return;
    write_out(b, out, s, slot);
    build_progress(b, 0);
}

void seq_begin(builder *b)
{
    b->pending_snaps = g_array_new(FALSE, FALSE, sizeof(snap_wait));
    b->comms = comm_ctx_new(b->n_ranks);
    b->match = match_ctx_new(b->comms, on_arrow, b);
    b->floor = INT64_MIN;
    size_t per_rank = 2 * sizeof(seq_item *) + sizeof(int64_t) + sizeof(uint32_t) + sizeof(bool);
    b->merge_room = g_malloc(per_rank * (b->n_ranks ? b->n_ranks : 1));
    for (int i = 0; i <= SLOTS_MAX; i++) {
        b->outs[i].meta = g_array_new(FALSE, FALSE, sizeof(pending_meta));
    }
    /* The plans of the functions in the leaf width's sample or in the
     * ranks' footers, in label order, before the first leaf: lanes use
     * them from the start rather than leave a trace's first leaves
     * (MPI_Init, setup: dense in calls), and each function's first calls
     * (with thousands of ranks, thousands of them at once), to the
     * sequential step alone. */
    slab_out *out = &b->outs[SLOTS_MAX];
    b->cur_out = out;
    for (int i = 0; i < N_LABELS; i++)
        if (b->sampled[i]) seq_plan(b, (uint16_t)i, 0);
    flush_meta(b, out->meta);
}

void seq_finish(builder *b)
{
    if (atomic_load(&b->stop)) return;
    slab_out *out = &b->outs[SLOTS_MAX]; /* the last one's own */
    b->cur_out = out;
    out->leaf = b->floor > 0 ? (uint64_t)b->floor >> b->shift : 0;
    out->watermark = INT64_MIN;
    slog_batch_begin(out->batch, out->leaf);
    match_finish(b->match);
    if (!atomic_load(&b->stop)) write_out(b, out, NULL, 0);
}

void seq_end(builder *b)
{
    for (int i = 0; i <= SLOTS_MAX; i++) {
        if (b->outs[i].meta) {
            free_meta(b->outs[i].meta);
            g_array_free(b->outs[i].meta, TRUE);
        }
        free(b->outs[i].arrows.v);
        slog_batch_free(b->outs[i].batch);
    }
    slog_batch_free(b->arrow_batch);
    free(atomic_load(&b->arrows_spare));
    g_free(b->merge_room);
    g_free(b->ents);
}
