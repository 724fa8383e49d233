/* SPDX-License-Identifier: MIT */
/* lane.c - a lane's ranks over one slab (see build_internal.h).
 *
 * Runs on any thread, one lane at a time per thread: it touches only its
 * ranks, its batch for the slab, the plans (read, once published) and the
 * WORLD/SELF communicator context (read only). Everything whose outcome
 * depends on other ranks or on the order records of several ranks meet in
 * goes onto the ranks' lists for the sequential step, keyed by exit time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_internal.h"

static const dumpi_error no_room = {DUMPI_ERR_NOMEM, DUMPI_NO_OFFSET, "out of memory for an error message"};
static _Thread_local dumpi_error lost;

dumpi_error *rank_error(rank_in *r)
{
    if (!r->err) r->err = malloc(sizeof *r->err);
    if (!r->err) {
        r->err = (dumpi_error *)&no_room; /* only read from then on */
        return &lost;
    }
    return r->err == &no_room ? &lost : r->err;
}

void rank_error_free(rank_in *r)
{
    if (r->err != &no_room) free(r->err);
    r->err = NULL;
}

void lane_advance_rank(builder *b, rank_in *r)
{
    if (r->state != RANK_READING) return;
    dumpi_error e;
    int rc = dumpi_file_next(r->f, &r->head, &e);
    if (rc == 1) return;
    if (rc != 0) *rank_error(r) = e;
    if (rc == 0)
        r->state = RANK_DONE;
    else if (rc == DUMPI_ERR_TRUNCATED)
        r->state = RANK_TRUNCATED;
    else if (rc == DUMPI_ERR_UNKNOWN_LABEL && b->o->lenient)
        r->state = RANK_SKIPPED;
    else {
        r->state = RANK_FAILED;
        atomic_store(&b->stop, 1);
    }
    atomic_store_explicit(&r->pos, dumpi_file_size(r->f), memory_order_relaxed);
}

/* Room for one more entry; NULL when out of memory. A list doubles to
 * its size in a few slabs. */
static seq_item *item_new(item_list *l)
{
    if (l->n == l->cap) { /* the test inline: this runs for every entry */
        seq_item *v = slog_grow(l->v, &l->cap, l->n, sizeof *v, 16);
        if (!v) return NULL;
        l->v = v;
    }
    return &l->v[l->n++];
}

typedef struct op_target {
    item_list *list;
    int64_t key;
    bool nomem;
} op_target;

/* Where an operation goes when memory ran out (the build stops then).
 * Not in op_target: that is made for every record, this is only written. */
static _Thread_local match_op spare_op;

static match_op *op_slot(void *user)
{
    op_target *t = user;
    seq_item *it = item_new(t->list);
    if (!it) {
        t->nomem = true;
        return &spare_op;
    }
    it->key = t->key;
    return &it->op;
}

static void out_of_memory(builder *b, rank_in *r, const char *what)
{
    if (r->state != RANK_FAILED) {
        dumpi_error *e = rank_error(r);
        e->code = DUMPI_ERR_NOMEM;
        e->offset = r->head.offset;
        snprintf(e->message, sizeof e->message, "%s: offset %llu: out of memory %s", dumpi_file_path(r->f),
                 (unsigned long long)r->head.offset, what);
    }
    r->state = RANK_FAILED;
    atomic_store(&b->stop, 1);
}

/* The record goes to the sequential step whole (with the snapshot of the
 * communicator it creates, if any). */
static void defer(builder *b, rank_in *r, item_list *l, int64_t key, comm_snap *snap)
{
    seq_item *it = item_new(l);
    dumpi_call *copy = it ? dumpi_call_clone(&r->head) : NULL;
    if (!copy) {
        if (it) l->n--;
        comm_snap_unref(snap);
        out_of_memory(b, r, "deferring a record");
        return;
    }
    it->key = key;
    it->def.kind = OP_DEFERRED;
    it->def.call = copy;
    it->def.snap = snap;
}

/* The rank's handles change as the replay will change them (comm_view.h):
 * a creation call binds a new snapshot, returned for the sequential step
 * to fill; Comm_free unbinds. */
static comm_snap *track_handles(const builder *b, rank_in *r)
{
    const dumpi_call *c = &r->head;
    const comm_binding *cb = &b->bindings[c->label];
    if (cb->i_freed >= 0) comm_table_unbind(&r->comms, (int)dumpi_call_int(c, cb->i_freed));
    if (cb->i_newcomm < 0) return NULL;
    int h = (int)dumpi_call_int(c, cb->i_newcomm); /* 0 when not recorded, as the replay reads it */
    if (h == COMM_HANDLE_NULL) return NULL;
    comm_snap *s = comm_snap_new();
    comm_table_bind(&r->comms, h, s);
    return s;
}

/* Record c of r left to the sequential step whole: the lane's own state
 * still follows it (the send set; the handles are track_handles'). */
static void defer_call(builder *b, rank_in *r, item_list *l, int64_t key)
{
    defer(b, r, l, key, NULL);
    send_reqs_note(&r->sends, &b->req_uses[r->head.label], &r->head);
}

/* A record of r ending at key (in the slab) on the lane. */
static void lane_record(builder *b, rank_in *r, const slab *s, slog_batch *batch, item_list *l, int64_t key)
{
    const dumpi_call *c = &r->head;
    if (c->label < N_LABELS) r->label_sum += b->label_tags[c->label];
    if (c->fn->family == DUMPI_FAMILY_USER) {
        defer(b, r, l, key, NULL);
        return;
    }
    r->n_calls++;
    if (b->bindings[c->label].replayed) { /* communicator and group calls: the replay's */
        defer(b, r, l, key, track_handles(b, r));
        return;
    }
    const fn_plan *p = &b->plans[c->label];
    /* What the lane cannot do alone: see build_internal.h. Records ending
     * before the slab (a thread's records out of exit order) are late. */
    if (atomic_load_explicit(&p->usable_from, memory_order_acquire) > s->leaf || key < s->lo || c->thread != 0 ||
        p->comm_op) {
        defer_call(b, r, l, key);
        return;
    }
    int64_t t0 = c->wall_start - b->origin;
    if (t0 < 0) t0 = 0;
    if (key < t0) { /* exits before it enters: the sequential step clamps it */
        defer_call(b, r, l, key);
        return;
    }
    if (p->poll_category != UINT32_MAX && call_poll_failed(c, p)) {
        /* A poll that found nothing completed nothing: no matching
         * operations, no completions to walk (polling loops make many). */
        slog_drawable ev = {.kind = SLOG_KIND_EVENT,
                            .category = p->poll_category,
                            .timeline = r->rank,
                            .end_timeline = r->rank,
                            .start = key,
                            .end = key};
        r->n_events++;
        if (slog_batch_add(batch, &ev) != SLOG_OK) out_of_memory(b, r, "for a batch");
        return;
    }
    comm_view cv = {.kind = VIEW_NONE};
    if (p->needs_comm && !comm_view_lane(&r->comms, r->rank, b->n_ranks, call_comm(p, c), s->leaf, &cv)) {
        defer_call(b, r, l, key);
        return;
    }
    dumpi_completions dc; /* resolved once: matching and the info field both walk it */
    if (c->fn->family == DUMPI_FAMILY_WAIT_TEST)
        dumpi_call_completions(c, &dc);
    else
        dc.n = 0;
    int64_t bytes = p->bytes_shared ? call_bytes(r->types, c, p->a.i_count, p->a.i_datatype) : SLOG_INFO_UNKNOWN;
    op_target t = {.list = l, .key = key};
    call_ops(p, r->types, c, &dc, t0, bytes, &r->sends, op_slot, &t);
    if (t.nomem) {
        out_of_memory(b, r, "listing matching operations");
        return;
    }
    int64_t info[SLOG_MAX_FIELDS];
    slog_drawable d = {.kind = SLOG_KIND_STATE,
                       .category = p->category,
                       .timeline = r->rank,
                       .end_timeline = r->rank,
                       .start = t0,
                       .end = key,
                       .n_info = p->n_fields,
                       .info = info};
    call_state_info(p, r->types, &cv, c, &dc, bytes, info);
    r->n_states++;
    if (slog_batch_add(batch, &d) != SLOG_OK) out_of_memory(b, r, "for a batch");
}

/* With thousands of ranks a slab holds a record or two of each rank it
 * holds any of, and every rank's state, decoder and window missed the
 * cache, each miss waiting for the one before it. So they are fetched in
 * steps, each reading only what the step before fetched a rank earlier:
 * three ranks ahead the rank's own state, two ahead its decoder's, one
 * ahead its next record's bytes. */
static inline void prefetch_ahead(const builder *b, const lane *ln, uint32_t j, uint32_t n_due)
{
    if (j + 3 < n_due) {
        const char *p = (const char *)&b->ranks[ln->first + ln->due[j + 3]];
        for (size_t o = 0; o < sizeof(rank_in); o += 64) __builtin_prefetch(p + o);
    }
    if (j + 2 < n_due) {
        const rank_in *r = &b->ranks[ln->first + ln->due[j + 2]];
        if (r->f) dumpi_file_prefetch_state(r->f);
    }
    if (j + 1 < n_due) {
        const rank_in *r = &b->ranks[ln->first + ln->due[j + 1]];
        if (r->f && r->state == RANK_READING) dumpi_file_prefetch_next(r->f);
    }
}

/* Flattened: the compiler inlines everything it calls, the decoder, the
 * call plans and libslog's batch_add, into one loop, and op_slot through
 * its pointer: fewer instructions per call for a larger program; the
 * sequential steps flattened the same way grew the program far more for
 * little (docs/PERFORMANCE.md). */
__attribute__((flatten)) void lane_run(builder *b, lane *ln, const slab *s)
{
    int slot = SLOT_OF(b, s->k);
    slog_batch *batch = ln->batch[slot];
    slog_batch_begin(batch, s->leaf);
    int64_t next = INT64_MAX;
    ln->n_listed[slot] = 0;
    item_list *l = &ln->items[slot];
    l->n = 0;
    if (l->cap <= ITEMS_KEEP) { /* the lane's spare, if any (seq.c, release_lists) */
        seq_item *v = spare_take(&ln->spare, &l->cap);
        if (v) {
            free(l->v);
            l->v = v;
        }
    }
    /* The ranks the slab holds records of, from the lane's keys alone:
     * with thousands of ranks most slabs hold none of most ranks, and
     * looking at each of them cost its cache misses all the same. */
    uint32_t n_due = 0;
    for (uint32_t i = 0; i < ln->n; i++) {
        int64_t key = ln->keys[i];
        if (key < s->hi)
            ln->due[n_due++] = i;
        else if (key < next)
            next = key;
    }
    for (uint32_t j = 0; j < n_due; j++) {
        uint32_t i = ln->due[j];
        rank_in *r = &b->ranks[ln->first + i];
        prefetch_ahead(b, ln, j, n_due);
        uint32_t first = l->n;
        while (r->state == RANK_READING && !atomic_load_explicit(&b->stop, memory_order_relaxed)) {
            int64_t key = r->head.wall_stop - b->origin;
            if (key >= s->hi) {
                if (key < next) next = key;
                break;
            }
            lane_record(b, r, s, batch, l, key);
            lane_advance_rank(b, r);
        }
        ln->keys[i] = r->state == RANK_READING ? r->head.wall_stop - b->origin : INT64_MAX;
        if (l->n > first) {
            ln->listed[slot][ln->n_listed[slot]] = ln->first + i;
            ln->listed_at[slot][ln->n_listed[slot]++] = first;
        }
        /* For the progress bar, once a slab: it reads them on another
         * thread. (A rank that ended set pos to its file's size.) */
        if (r->state == RANK_READING) atomic_store_explicit(&r->pos, r->head.offset + r->tail, memory_order_relaxed);
        atomic_store_explicit(&r->calls_done, r->n_calls, memory_order_relaxed);
    }
    ln->next_key = next;
}
