/* SPDX-License-Identifier: MIT */
/* otf2_out.h - the writer's thread of slog2-build's OTF2 input (private to
 * otf2/). otf2_map.c hands drawables in end order, with the categories to
 * register on their first use, to a thread that owns the libslog writer
 * meanwhile: encoding, node sorting, previews and checksums run on the
 * other core while this one reads the archive and matches messages. The
 * calls into the writer are the same, in the same order, as on one thread,
 * so the file is too. Memory: a few fixed blocks of drawables in flight. */
#ifndef SLOG2_OTF2_OUT_H
#define SLOG2_OTF2_OUT_H

#include <stdbool.h>

#include <slog2/slog.h>

#include "otf2_stream.h"

typedef struct o2_out o2_out;

/* Start the thread; it owns w until o2_out_close. NULL when no thread can
 * be made (the caller writes on its own thread then). */
o2_out *o2_out_start(slog_writer *w);

/* Queue d (its info copied) for slog_writer_add; reg, when not NULL, is
 * registered first with slog_writer_add_category, and must then get the id
 * reg->file_id, which the caller sets: categories are numbered in the
 * order registered. false once the writer has failed (o2_out_close says
 * why); nothing more is written then. */
bool o2_out_add(o2_out *o, const o2_cat *reg, const slog_drawable *d);

/* Let the thread write what is queued and end it; the writer is the
 * caller's again. false when writing failed: *why (the caller frees it)
 * says how. Frees o. */
bool o2_out_close(o2_out *o, char **why);

/* slog_writer_add_category for c, its id into *id. */
slog_status o2_out_register(slog_writer *w, const o2_cat *c, uint32_t *id);

#endif
