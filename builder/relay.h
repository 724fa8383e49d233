/* relay.h - message matching on the writer's thread.
 *
 * The builder's main thread decodes, merges and builds states; on two
 * cores it was the bottleneck, its writer thread idle half the time. So
 * matching, a third of the main thread's work, runs on the writer's thread:
 * the main thread queues each matching operation (relay_slot) and each
 * communicator call (relay_comm) into the sink, in the order it meets them,
 * and the sink's thread replays them into a match context and a comm
 * context of its own (comm_call.h), turning arrows into drawables there.
 * Since the sink runs its queue in order, the arrows, categories and
 * watermarks come out exactly as if matching ran on the main thread, and
 * the output does not depend on threads.
 */
#ifndef SLOG2_RELAY_H
#define SLOG2_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "dumpi.h"
#include "match.h"
#include "sink.h"

typedef struct relay relay;

typedef enum relay_kind {
    RELAY_SEND, RELAY_SEND_INIT, RELAY_RECV, RELAY_RECV_POST, RELAY_RECV_INIT,
    RELAY_START, RELAY_CANCEL, RELAY_REQUEST_FREE, RELAY_COMPLETE
} relay_kind;

/* One match_* call: post for the posting kinds; for RECV and COMPLETE the
 * status (if has_status), the completing thread (post.thread) and time;
 * START, CANCEL, REQUEST_FREE and COMPLETE use post.rank and post.request. */
typedef struct relay_op {
    uint8_t kind;         /* relay_kind */
    bool has_status;
    match_post post;
    match_status status;
    int64_t done_time;    /* RECV, COMPLETE; START: post.time */
} relay_op;

/* arrows: the category of matched messages; inferred: what to make for
 * inferred ones when the first appears (its strings must outlive r).
 * Installs the match watermark with sink_set_low_watermark. */
relay *relay_new(sink *s, uint32_t n_ranks, uint32_t arrows, const slog_category *inferred);
/* Main thread. */
/* The next operation's place in the sink's queue, for the caller to fill
 * every field run_op reads (kind, has_status, post, status if has_status,
 * done_time) before its next call into the relay or the sink. */
relay_op *relay_slot(relay *r);
void relay_comm(relay *r, uint32_t rank, const dumpi_call *c); /* copies c */
void relay_finish(relay *r);                                    /* end of input */
/* After sink_close(): the unmatched list (match_unmatched_list) and the
 * matching statistics (arrows made, cancelled operations, ...). */
const match_unmatched *relay_unmatched(const relay *r, size_t *n);
void relay_stats(const relay *r, match_stats *out);
void relay_free(relay *r); /* NULL is fine */

#endif
