/* sink.h - puts drawables in end order and hands them to the libslog
 * writer, on a thread of its own.
 *
 * Drawables are produced nearly, not exactly, in end order (an arrow is
 * known only when both its ends are), so they pass through a reorder buffer
 * (reorder.c) that releases them up to a watermark the producer gives:
 * nothing it produces later ends before it. Reordering and writing (tree
 * placement, previews, encoding, CRCs), with message matching queued as
 * calls (sink_call, relay.c), cost about as much as decoding and building
 * states, so slog2-build runs them on the second core. Items travel in
 * batches through two queues; the sink's thread sees exactly the sequence
 * of drawables, calls and watermarks it was given, so the output does not
 * depend on threads. Categories and timelines are queued in that same order
 * and the producer's ids are assigned here, so the producer never touches
 * the writer while it runs.
 */
#ifndef SLOG2_SINK_H
#define SLOG2_SINK_H

#include "slog.h"

typedef struct sink sink;

/* w must have n_categories categories and n_timelines timelines already;
 * from now on only the sink's thread uses w until sink_close(). With
 * threaded == 0 items are written at once on the caller's thread (same
 * bytes, one core). */
sink *sink_new(slog_writer *w, uint32_t n_categories, uint32_t n_timelines, int threaded);
/* Queue a category/timeline (strings copied); returns its id (for
 * categories the producer's, mapped to the writer's on the thread). */
uint32_t sink_add_category(sink *s, const slog_category *c);
uint32_t sink_add_timeline(sink *s, const slog_timeline *t);
/* Queue a drawable: the next slot, for the caller to fill in place before
 * its next call into the sink (no copy); its info points at room for
 * SLOG_MAX_FIELDS values. One that ends before a drawable already written
 * (a producer's watermark was wrong, e.g. thread records out of exit
 * order) is stretched to the written edge and counted. */
slog_drawable *sink_next(sink *s);
/* Every drawable added from now on ends at or after wm: write those before. */
void sink_advance(sink *s, int64_t wm);

/* Work for the sink's thread, run in queue order with everything else:
 * fn(user, payload) gets SINK_CALL_BYTES of payload, which the caller fills
 * before its next call into the sink. The builder runs message matching
 * this way (relay.c), so its arrows are made on the thread that writes. */
#define SINK_CALL_BYTES 160
typedef void (*sink_call_fn)(void *user, void *payload);
void *sink_call(sink *s, sink_call_fn fn, void *user);
/* The thread applies watermarks as min(wm, *lw), read there: what it runs
 * may hold drawables back too (relay.c: the match watermark, kept current
 * by the matching on that thread). Set before the first item. */
void sink_set_low_watermark(sink *s, const int64_t *lw);

/* For sink_call functions only (they run on the sink's thread): */
/* add a drawable (copied; categories the producer's or sink_emit_category's); */
void sink_emit(sink *s, const slog_drawable *d);
/* add a category to the writer now; returns an id for drawables. The
 * writer numbers categories in the order it gets them, so the sink maps
 * both kinds of ids onto its numbers: the producer's count up from 0, the
 * thread's count down from UINT32_MAX and never meet them; */
uint32_t sink_emit_category(sink *s, const slog_category *c);
/* the writer's id of a timeline queued (or given to sink_new) earlier:
 * thread 0 of rank r is timeline r; UINT32_MAX when there is none. */
uint32_t sink_timeline_of(const sink *s, uint32_t rank, uint32_t thread);
/* Non-zero once the writer reported an error (then later items are dropped). */
int sink_failed(const sink *s);
typedef struct sink_stats {
    uint64_t n_clamped;   /* drawables stretched to the written edge */
    size_t max_pending;   /* most drawables held for reordering at once */
    /* With a thread: seconds the producer waited for a free batch (the
     * writer behind), the thread waited for a full one (the producer
     * behind), and the thread's CPU time; 0 without one. */
    double producer_wait_s, writer_wait_s, writer_cpu_s;
} sink_stats;

/* Write everything queued, stop the thread, free s. Returns the writer's
 * first error (message in err) or SLOG_OK. w stays open for the caller. */
slog_status sink_close(sink *s, slog_error *err, sink_stats *stats);

#endif
