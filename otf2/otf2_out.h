/* SPDX-License-Identifier: MIT */
/* otf2_out.h - where the OTF2 input's drawables go once made (private to
 * otf2/): they wait, sorted into end order, until the reading says how far
 * nothing earlier can come (o2_out_advance), and are then written with the
 * libslog writer. With a thread (slog2-build -j 2 and up) the waiting,
 * sorting and writing run on it, fed in blocks through a ring of a few
 * blocks, while the calling thread reads the archive and matches messages;
 * the calls into the writer are the same, in the same order, as without
 * one, so the file is too. Memory: the drawables waiting, and the blocks. */
#ifndef SLOG2_OTF2_OUT_H
#define SLOG2_OTF2_OUT_H

#include <stdbool.h>

#include <slog2/slog.h>

#include "otf2_stream.h"

typedef struct o2_out o2_out;

/* A new sink, with a thread of its own when thread is true (and one can
 * be made); no file yet. */
o2_out *o2_out_new(bool thread);

/* A copy of d waits for its turn, its cat set to cat. */
void o2_out_emit(o2_out *o, const o2_draw *d, o2_cat *cat);

/* The drawables go to w from now on (the caller opened it and gives it
 * up until o2_out_close), at times less origin. */
void o2_out_file(o2_out *o, slog_writer *w, int64_t origin);

/* Write every drawable that ends before watermark, in end order; a
 * category is registered at its first drawable (numbered in that order).
 * false once writing has failed (o2_out_close says why). */
bool o2_out_advance(o2_out *o, int64_t watermark);

/* Finish the queue, end the thread, free o. The writer is the caller's
 * again. false when writing failed: *why (the caller frees it) says how.
 * *max_wait: the most drawables that waited at once. */
bool o2_out_close(o2_out *o, char **why, size_t *max_wait);

/* slog_writer_add_category for c, its id into *id. */
slog_status o2_out_register(slog_writer *w, const o2_cat *c, uint32_t *id);

#endif
