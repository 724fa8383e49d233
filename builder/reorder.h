/* reorder.h - end-order reorder buffer for slog2-build.
 *
 * libslog's writer takes drawables in non-decreasing max(start, end)
 * (slog_writer_add, SLOG_ERR_ORDER). The builder learns of drawables out of
 * that order: a state is known when its call exits, but an arrow only when
 * both its send and its receive completion have been decoded, and a blocking
 * Ssend exits (and is merged) after the receive it pairs with. This buffer
 * holds copies of pending items and releases them in key order once no
 * earlier item can still arrive.
 *
 * The integrator pushes every drawable with key = max(start, end) and, after
 * each merged record, calls
 *     reorder_advance(r, MIN(merge_time, match_low_watermark(m)));
 * merge_time bounds every state still to come; match_low_watermark() bounds
 * every arrow still to come (match.h). At the end: match_finish(), then
 * reorder_flush(). Items with equal keys come out in push order.
 *
 * Thread safety: none. Memory: the items pending, copied.
 */
#ifndef SLOG2_REORDER_H
#define SLOG2_REORDER_H

#include <stddef.h>
#include <stdint.h>

#include "slog.h"

typedef struct reorder reorder;

/* data is the buffer's copy, aligned for any type, valid during the call.
 * Return SLOG_STOP to stop: nothing more is released or accepted, and
 * reorder_stopped() becomes true (the integrator keeps its own error). */
typedef slog_cb_result (*reorder_release_cb)(void *user, int64_t key, const void *data,
                                             size_t len);

reorder *reorder_new(reorder_release_cb cb, void *user);
/* Drops pending items without releasing them. NULL is fine. */
void reorder_free(reorder *r);

/* Copy len bytes of data (len may be 0). SLOG_ERR_ORDER if key is below the
 * last released key (the item is not stored: a caller bug or clock skew the
 * caller must clamp); SLOG_ERR_ARG for NULL data with len > 0. */
slog_status reorder_push(reorder *r, int64_t key, const void *data, size_t len);

/* Release, in key order, every item with key <= watermark. */
slog_status reorder_advance(reorder *r, int64_t watermark);
/* reorder_push() then reorder_advance(watermark), without the copy when
 * nothing held sorts before it (none held, or key below the smallest held
 * key) and last released key <= key <= watermark: the item is handed
 * straight to the callback, as the push and advance would have. */
slog_status reorder_pass(reorder *r, int64_t key, int64_t watermark, const void *data, size_t len);
/* The no-copy case of reorder_pass() for a caller that releases the item
 * itself: when nothing held sorts before it, r has not stopped and last
 * released key <= key <= watermark, record key as released and return 1
 * (the caller must then release the item as the callback would); otherwise
 * 0 and nothing changes (use reorder_pass). */
int reorder_bypass(reorder *r, int64_t key, int64_t watermark);
/* Release everything (end of input). */
slog_status reorder_flush(reorder *r);

size_t reorder_pending(const reorder *r);
size_t reorder_max_pending(const reorder *r);
/* Key of the last released item, INT64_MIN before the first. */
int64_t reorder_last_key(const reorder *r);
int reorder_stopped(const reorder *r);

#endif /* SLOG2_REORDER_H */
