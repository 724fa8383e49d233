/* SPDX-License-Identifier: MIT */
/* otf2_map.c - slog2-build's OTF2 input, around otf2_stream.c: timelines
 * and clock alignment from the definitions and a first pass over the
 * collectives, then the locations read in turn, a chunk at a time, and the
 * drawables written in end order as soon as no record still to be read
 * can make an earlier one; then the summary. docs/OTF2.md gives the rules. */
#include "otf2_out.h"
#include "otf2_stream.h"

#include <inttypes.h>
#include <otf2/otf2.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "call_plan.h"
#include "palette.h"
#include "signals.h"

/* Records read from a location at a time: the reading moves to the
 * location that is furthest behind after each chunk, so what waits in the
 * heap spans about a chunk of every location. The chunk is a share of a
 * budget over all locations, so what waits stays flat in their number,
 * down to a floor below which switching readers would cost more than the
 * memory saved. With one location a rank, what is made does not depend
 * on the chunk (cancelled requests aside, docs/OTF2.md): a location's records are taken in its own order, a rank's
 * receives and a channel's sends come from its one location, and the
 * watermark, not the chunk, decides what is written. The threads of a
 * process share a rank, and their receives and sends enter its queues in
 * the order they are read, which the chunk decides: there the chunk stays
 * the one it always was, so the file does too. SLOG2_OTF2_CHUNK forces a
 * chunk, for the test that checks this (tests/otf2/test_chunk.sh). */
#define O2_CHUNK        16384
#define O2_CHUNK_BUDGET O2_CHUNK
#define O2_CHUNK_MIN    256

static uint64_t chunk_size(const o2_archive *a)
{
    const char *env = getenv("SLOG2_OTF2_CHUNK");
    if (env && *env) {
        char *end = NULL;
        unsigned long long v = strtoull(env, &end, 10);
        if (end && !*end && v > 0) return v;
    }
    for (size_t i = 0; i < a->n_locs; i++)
        if (a->locs[i].thread > 0) return O2_CHUNK;
    uint64_t c = O2_CHUNK_BUDGET / MAX(a->n_locs, 1);
    return CLAMP(c, O2_CHUNK_MIN, O2_CHUNK);
}

/* ------------------------------------------------------------ categories */

static void warn(mapper *m, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static void warn(mapper *m, const char *fmt, ...)
{
    m->n_warnings++;
    if (m->status == OTF2_BUILD_OK) m->status = OTF2_BUILD_WARNINGS;
    va_list ap;
    va_start(ap, fmt);
    fputs("slog2-build: warning: ", m->err);
    vfprintf(m->err, fmt, ap);
    fputc('\n', m->err);
    va_end(ap);
}

uint32_t o2_category(mapper *m, slog_kind kind, const char *name, const char *group, uint32_t rgba,
                     const uint8_t *fields, uint32_t n_fields, uint8_t family)
{
    char *key = g_strdup_printf("%d:%s", (int)kind, name);
    gpointer v = g_hash_table_lookup(m->cat_by_name, key);
    if (v) {
        g_free(key);
        return (uint32_t)GPOINTER_TO_SIZE(v) - 1;
    }
    o2_cat *c = g_new0(o2_cat, 1);
    *c = (o2_cat){.kind = kind,
                  .name = g_strdup(name),
                  .group = group,
                  .rgba = rgba,
                  .n_fields = n_fields,
                  .family = family,
                  .file_id = O2_NONE};
    if (n_fields) memcpy(c->fields, fields, n_fields);
    g_ptr_array_add(m->cats, c);
    g_hash_table_insert(m->cat_by_name, key, GSIZE_TO_POINTER(m->cats->len));
    return m->cats->len - 1;
}

void o2_unmatched(mapper *m, const char *kind, int32_t src, int32_t dst, int64_t tag, int64_t comm)
{
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

void o2_emit(mapper *m, const o2_draw *d)
{
    o2_cat *c = m->cats->pdata[d->category];
    c->count++;
    o2_out_emit(m->out, d, c);
}

/* ------------------------------------------------------------ timelines */

static int loc_order(const void *x, const void *y)
{
    const o2_loc *a = *(o2_loc *const *)x, *b = *(o2_loc *const *)y;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->thread != b->thread) return a->thread < b->thread ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The host: the nearest system tree ancestor of class "node", else the
 * location group's own parent node. */
static const char *host_of(const o2_archive *a, uint32_t lgroup)
{
    const uint32_t *g = g_hash_table_lookup(a->lgroups, GUINT_TO_POINTER(lgroup));
    if (!g) return "";
    const uint32_t *first = g_hash_table_lookup(a->tree, GUINT_TO_POINTER(g[2]));
    for (const uint32_t *n = first; n; n = g_hash_table_lookup(a->tree, GUINT_TO_POINTER(n[2])))
        if (g_ascii_strcasecmp(o2_string(a, n[1]), "node") == 0)
            return o2_string(a, n[0]);
        else if (n[2] == OTF2_UNDEFINED_SYSTEM_TREE_NODE)
            break;
    return first ? o2_string(a, first[0]) : "";
}

/* Ranks: a location's index in MPI COMM_WORLD's location list; the other
 * locations of its process (threads) share it; processes outside MPI
 * follow. The result: locations sorted by (rank, thread). */
static o2_loc **assign_ranks(mapper *m)
{
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

/* Each process's clock onto rank 0's, within the interval the
 * collectives allow: no rank leaves a synchronising collective before
 * every rank entered it (the DUMPI path's rule, builder/clocks.h). The
 * collectives come from a pass of their own over the first
 * O2_SYNC_MAX of each location, before any drawable is made. */
/* Whether the clocks are to be aligned (the local definitions read: the
 * clock offsets counted). */
static bool wants_alignment(const mapper *m)
{
    const o2_archive *a = m->a;
    uint64_t n_offsets = 0;
    for (size_t i = 0; i < a->n_locs; i++) n_offsets += a->locs[i].n_clock_offsets;
    if (m->o->align == OTF2_ALIGN_NEVER || !a->world || a->world->n < 2) return false;
    if (m->o->align == OTF2_ALIGN_AUTO && n_offsets > 0) return false;
    return o2_loc_by_id(a, a->world->members[0]) != NULL;
}

static bool align_clocks(mapper *m, o2_loc **order, char *err, size_t err_len)
{
    o2_archive *a = m->a;
    uint32_t n_world = a->world->n;
    o2_sync_ctx *ctx = g_new0(o2_sync_ctx, n_world);
    void **user = g_new0(void *, a->n_locs);
    for (uint32_t r = 0; r < n_world; r++) {
        o2_loc *l = o2_loc_by_id(a, a->world->members[r]);
        ctx[r] = (o2_sync_ctx){.a = a, .l = l, .n_world = n_world};
        if (!l) continue;
        ctx[r].enter = g_new(int64_t, 2 * O2_SYNC_MAX);
        ctx[r].leave = ctx[r].enter + O2_SYNC_MAX;
        user[l - a->locs] = &ctx[r];
    }
    /* That pass's reading errors are the main pass's to report: the ones
     * opening it found are kept aside. */
    char **kept = g_new0(char *, a->n_locs);
    for (size_t i = 0; i < a->n_locs; i++) kept[i] = g_steal_pointer(&a->locs[i].error);
    OTF2_EvtReaderCallbacks *cb = o2_sync_callbacks();
    o2_events *ev = o2_events_open(a, cb, user, err, err_len);
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (!ev) {
        for (size_t i = 0; i < a->n_locs; i++) a->locs[i].error = kept[i];
        g_free(kept);
        for (uint32_t r = 0; r < n_world; r++) g_free(ctx[r].enter);
        g_free(ctx);
        g_free(user);
        return false;
    }
    for (size_t i = 0; i < a->n_locs; i++)
        if (user[i])
            while (o2_events_read(ev, i, O2_CHUNK)) {
            }
    o2_events_close(ev);
    for (size_t i = 0; i < a->n_locs; i++) {
        g_free(a->locs[i].error);
        a->locs[i].error = kept[i];
    }
    g_free(kept);
    const o2_sync_ctx *c0 = &ctx[0];
    if (c0->l && c0->n > 0) {
        m->aligned = true;
        for (uint32_t r = 1; r < n_world; r++) {
            const o2_sync_ctx *c = &ctx[r];
            size_t n = MIN(c->n, c0->n);
            if (!c->l || n == 0) continue;
            int64_t lo = INT64_MIN, hi = INT64_MAX;
            for (size_t k = 0; k < n; k++) {
                lo = MAX(lo, c0->enter[k] - c->leave[k]);
                hi = MIN(hi, c0->leave[k] - c->enter[k]);
            }
            int64_t d = lo / 2 + hi / 2;
            if (lo > hi)
                m->n_conflicts++;
            else
                m->max_error = MAX(m->max_error, (hi - lo) / 2);
            m->max_shift = MAX(m->max_shift, d < 0 ? -d : d);
            /* Every location of that process moves with it. */
            for (size_t i = 0; i < a->n_locs; i++)
                if (order[i]->rank == r) order[i]->shift_ns = d;
        }
    }
    for (uint32_t r = 0; r < n_world; r++) {
        g_free(ctx[r].enter);
        g_free(ctx[r].stack.v);
    }
    g_free(ctx);
    g_free(user);
    return true;
}

/* ------------------------------------------------------------ output */

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
static char *skipped_list(const o2_archive *a, uint64_t *total)
{
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

static gint str_cmp(gconstpointer x, gconstpointer y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static char *unmatched_list(mapper *m, uint64_t *total)
{
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

typedef struct out_file {
    slog_writer *w;
    bool failed;
} out_file;

static bool open_file(mapper *m, o2_loc **order, out_file *f)
{
    o2_archive *a = m->a;
    /* The file's time 0: the earliest start, which every location's first
     * drawable-starting record gives (a location's records come in time
     * order). */
    int64_t origin = INT64_MAX;
    for (size_t i = 0; i < a->n_locs; i++) origin = MIN(origin, a->locs[i].first_start);
    if (origin == INT64_MAX) origin = 0;
    slog_writer_options wo;
    slog_writer_options_init(&wo);
    wo.preview_bins = m->o->preview_bins;
    wo.time_origin_ns = origin;
    wo.expected_timelines = m->n_timelines;
    slog_error werr;
    if (m->o->remove_on_signal) signals_hold();
    if (slog_writer_open(&f->w, m->o->output, &wo, &werr) != SLOG_OK) {
        if (m->o->remove_on_signal) signals_unhold();
        fprintf(m->err, "slog2-build: error: %s\n", werr.message);
        f->failed = true;
        return false;
    }
    if (m->o->remove_on_signal) {
        const char *temp = slog_writer_temp_path(f->w);
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
        st = slog_writer_add_timeline(f->w, &t, NULL);
        g_free(label);
    }
    slog_writer_add_annotation(f->w, "builder", "slog2-build " SLOG2_VERSION);
    if (m->o->command_line) slog_writer_add_annotation(f->w, "builder.command", m->o->command_line);
    slog_writer_add_annotation(f->w, "source.otf2", a->anchor);
    if (a->creator) slog_writer_add_annotation(f->w, "source.creator", a->creator);
    char buf[160];
    snprintf(buf, sizeof buf, "OTF2 timer, %" PRIu64 " ticks per second, global offset %" PRIu64, a->tps,
             a->global_offset);
    slog_writer_add_annotation(f->w, "time.clock", buf);
    if (m->aligned) {
        GString *s = g_string_new(NULL);
        for (size_t i = 0; i < a->n_locs; i++)
            if (order[i]->thread == 0 && order[i]->rank < m->n_ranks)
                g_string_append_printf(s, "%srank %u %+" PRId64, s->len ? "; " : "", order[i]->rank,
                                       order[i]->shift_ns);
        slog_writer_add_annotation(f->w, "time.clock_offsets_ns", s->str);
        g_string_free(s, TRUE);
    }
    if (st != SLOG_OK)
        f->failed = true;
    else
        o2_out_file(m->out, f->w, origin);
    return st == SLOG_OK;
}

/* Write every queued drawable that ends before w (otf2_out.c). */
static void flush(mapper *m, out_file *f, int64_t w)
{
    if (!f->failed && !o2_out_advance(m->out, w)) f->failed = true;
}

/* The queue is written and closed; the writer is this thread's again. */
static void close_out(mapper *m, out_file *f)
{
    if (!m->out) return;
    char *why = NULL;
    bool ok = o2_out_close(m->out, &why, &m->max_wait);
    m->out = NULL;
    if (!ok && f->w) {
        fprintf(m->err, "slog2-build: error: %s: %s (from %s)\n", m->o->output, why ? why : "write failed",
                m->a->anchor);
        f->failed = true;
    }
    g_free(why);
}

static bool finish_file(mapper *m, out_file *f, slog_file_info *info, const char *skipped, const char *unm)
{
    close_out(m, f);
    for (guint i = 0; !f->failed && i < m->cats->len; i++) {
        o2_cat *c = m->cats->pdata[i];
        if (c->file_id == O2_NONE && o2_out_register(f->w, c, &c->file_id) != SLOG_OK) f->failed = true;
    }
    if (f->failed) {
        slog_writer_abort(f->w);
        if (m->o->remove_on_signal) signals_disarm();
        return false;
    }
    if (skipped) slog_writer_add_annotation(f->w, "otf2.skipped", skipped);
    if (unm) slog_writer_add_annotation(f->w, "messages.unmatched", unm);
    if (m->n_inferred) {
        char buf[256];
        snprintf(buf, sizeof buf,
                 "%" PRIu64 " messages: receives without a recorded envelope (source, tag); %" PRIu64
                 " receive completions placed in the waits that most likely completed them",
                 m->n_inferred, m->n_inferred_done);
        slog_writer_add_annotation(f->w, "messages.inferred", buf);
    }
    slog_error werr;
    slog_status st = slog_writer_finish_info(f->w, info, &werr);
    f->w = NULL;
    if (m->o->remove_on_signal) signals_disarm();
    if (st != SLOG_OK) {
        fprintf(m->err, "slog2-build: error: %s (from %s)\n", werr.message, m->a->anchor);
        return false;
    }
    return true;
}

static void check_locations(mapper *m)
{
    o2_archive *a = m->a;
    for (size_t i = 0; i < a->n_locs; i++) {
        o2_loc *l = &a->locs[i];
        const char *name = o2_string(a, l->name);
        if (l->error)
            warn(m, "%s: location %" PRIu64 " (%s): %s; keeping the %" PRIu64 " records before it", a->anchor, l->id,
                 name, l->error, l->n_read);
        else if (l->n_read < l->n_events_declared)
            warn(m,
                 "%s: location %" PRIu64 " (%s): %" PRIu64 " records read of the %" PRIu64 " its definition declares",
                 a->anchor, l->id, name, l->n_read, l->n_events_declared);
        if (l->n_unbalanced)
            warn(m, "%s: location %" PRIu64 " (%s): %" PRIu64 " LEAVE records without their ENTER, skipped", a->anchor,
                 l->id, name, l->n_unbalanced);
        if (l->n_bad_time)
            warn(m,
                 "%s: location %" PRIu64 " (%s): %" PRIu64 " records with a time more than 13 days from the clock's "
                 "origin (damaged?), put at the time of the record before",
                 a->anchor, l->id, name, l->n_bad_time);
        if (l->n_unknown)
            warn(m,
                 "%s: location %" PRIu64 " (%s): %" PRIu64
                 " records of a kind this OTF2 library does not know, skipped",
                 a->anchor, l->id, name, l->n_unknown);
    }
}

static void print_summary(const mapper *m, const slog_file_info *info, const char *skipped, const char *unm,
                          uint64_t n_skipped, uint64_t n_unm, double secs, FILE *out)
{
    const o2_archive *a = m->a;
    fprintf(out, "slog2-build: wrote %s (%" PRIu64 " bytes) in %.2f s\n", m->o->output, info->file_size, secs);
    fprintf(out, "  input: OTF2 archive %s%s%s%s, %zu locations, %u MPI ranks\n", a->anchor, a->creator ? " (" : "",
            a->creator ? a->creator : "", a->creator ? ")" : "", a->n_locs, m->n_ranks);
    uint64_t n_read = 0;
    for (size_t i = 0; i < a->n_locs; i++) n_read += a->locs[i].n_read;
    fprintf(out, "  records: %" PRIu64 " events read; heap peak %zu drawables\n", n_read, m->max_wait);
    fprintf(out,
            "  %u timelines, %" PRIu64 " states, %" PRIu64 " arrows (%" PRIu64 " inferred), %" PRIu64
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

int otf2_build_run(const char *anchor, const otf2_build_options *o, FILE *err, FILE *out)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    o2_archive a;
    char msg[1024];
    if (!o2_read_defs(anchor, &a, msg, sizeof msg)) {
        fprintf(err, "slog2-build: error: %s\n", msg);
        o2_archive_free(&a);
        return OTF2_BUILD_FAILED;
    }
    mapper m = {.a = &a, .o = o, .err = err, .status = OTF2_BUILD_OK, .inferred_cat = O2_NONE};
    m.cats = g_ptr_array_new();
    m.cat_by_name = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    m.unmatched = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    o2_loc **order = assign_ranks(&m);
    int status = OTF2_BUILD_FAILED;
    out_file f = {0};
    o2_stream_ctx *ctx = g_new0(o2_stream_ctx, a.n_locs);
    void **user = g_new0(void *, a.n_locs);
    for (size_t i = 0; i < a.n_locs; i++) ctx[i] = (o2_stream_ctx){&m, &a.locs[i]}, user[i] = &ctx[i];
    OTF2_EvtReaderCallbacks *cb = o2_stream_callbacks();
    o2_events *ev = o2_events_open(&a, cb, user, msg, sizeof msg);
    bool ok = ev != NULL;
    if (ok && wants_alignment(&m)) {
        /* The clock pass's readers, then the drawables' again: libotf2
         * holds an event chunk a reader, so two sets at once would double
         * the memory. */
        o2_events_close(ev);
        ev = NULL;
        ok = align_clocks(&m, order, msg, sizeof msg) && (ev = o2_events_open(&a, cb, user, msg, sizeof msg));
    }
    OTF2_EvtReaderCallbacks_Delete(cb);
    if (!ok) {
        fprintf(err, "slog2-build: error: %s\n", msg);
        goto done;
    }
    m.msg_cat =
        o2_category(&m, SLOG_KIND_ARROW, "message", "message", PALETTE_ARROW, call_arrow_fields, N_ARROW_FIELDS, 0);
    o2_stream_init(&m);
    m.out = o2_out_new(o->threads != 1);
    const uint64_t chunk = chunk_size(&a);
    /* Read the location furthest behind, a chunk at a time; write what no
     * record still to come can precede. */
    for (;;) {
        o2_loc *next = NULL;
        size_t ni = 0;
        for (size_t i = 0; i < a.n_locs; i++) {
            o2_loc *l = &a.locs[i];
            if (l->finished) continue;
            if (!l->started) {
                next = l, ni = i;
                break;
            }
            if (!next || l->last_t + l->shift_ns < next->last_t + next->shift_ns) next = l, ni = i;
        }
        if (!next) break;
        next->started = true;
        o2_stream_reading(&m, next);
        if (!o2_events_read(ev, ni, chunk))
            o2_stream_end_location(&m, next);
        else
            o2_stream_match(&m);
        if (f.w || f.failed) {
            flush(&m, &f, o2_stream_watermark(&m));
        } else {
            bool ready = true;
            for (size_t i = 0; i < a.n_locs && ready; i++)
                ready = a.locs[i].finished || a.locs[i].first_start != INT64_MAX;
            if (ready && open_file(&m, order, &f)) flush(&m, &f, o2_stream_watermark(&m));
        }
        if (f.failed) break;
    }
    o2_stream_reading(&m, NULL);
    o2_events_close(ev);
    ev = NULL;
    if (f.failed) goto done;
    m.all_read = true;
    o2_stream_match(&m);
    check_locations(&m);
    uint64_t read_total = 0;
    for (size_t i = 0; i < a.n_locs; i++) read_total += a.locs[i].n_read;
    if (read_total == 0) {
        fprintf(err, "slog2-build: error: %s: no event could be read from any of its %zu locations\n", anchor,
                a.n_locs);
        goto done;
    }
    if (m.n_open_closed)
        warn(&m, "%s: %" PRIu64 " regions were never left; drawn up to their location's last record", anchor,
             m.n_open_closed);
    if (a.n_missing_defs)
        warn(&m, "%s: %" PRIu64 " regions entered have no definition; drawn as \"region N\"", anchor, a.n_missing_defs);
    if (!f.w && !open_file(&m, order, &f)) goto done;
    flush(&m, &f, INT64_MAX);
    uint64_t n_skipped = 0, n_unm = 0;
    char *skipped = skipped_list(&a, &n_skipped);
    char *unm = unmatched_list(&m, &n_unm);
    slog_file_info info;
    if (finish_file(&m, &f, &info, skipped, unm)) {
        status = m.status;
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (out) print_summary(&m, &info, skipped, unm, n_skipped, n_unm, secs, out);
    }
    f.w = NULL;
    g_free(skipped);
    g_free(unm);
done:
    close_out(&m, &f);
    if (f.w) {
        slog_writer_abort(f.w);
        if (o->remove_on_signal) signals_disarm();
    }
    o2_events_close(ev);
    o2_stream_free(&m);
    for (guint i = 0; i < m.cats->len; i++) {
        o2_cat *c = m.cats->pdata[i];
        g_free(c->name);
        g_free(c);
    }
    g_ptr_array_free(m.cats, TRUE);
    g_hash_table_destroy(m.cat_by_name);
    g_hash_table_destroy(m.unmatched);
    g_free(order);
    g_free(ctx);
    g_free(user);
    o2_archive_free(&a);
    return status;
}
