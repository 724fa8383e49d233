/* sink.h - hands drawables to the libslog writer on a thread of its own.
 *
 * Writing (tree placement, previews, encoding, CRCs) costs about as much as
 * decoding and matching, so slog2-build runs it on the second core. Items
 * travel in batches through two queues; the writer sees exactly the order
 * in which they were given, so the output does not depend on threads.
 * Categories and timelines are queued in that same order and their ids are
 * assigned here, so the producer never touches the writer while it runs.
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
/* Queue a category/timeline (strings copied); returns its id. */
uint32_t sink_add_category(sink *s, const slog_category *c);
uint32_t sink_add_timeline(sink *s, const slog_timeline *t);
/* Queue a drawable (copied). */
void sink_add(sink *s, const slog_drawable *d);
/* Non-zero once the writer reported an error (then later items are dropped). */
int sink_failed(const sink *s);
/* Write everything queued, stop the thread, free s. Returns the writer's
 * first error (message in err) or SLOG_OK. w stays open for the caller. */
slog_status sink_close(sink *s, slog_error *err);

#endif
