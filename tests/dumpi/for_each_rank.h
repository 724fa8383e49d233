/* SPDX-License-Identifier: MIT */
/* for_each_rank.h - the argument convention of the decoder tests that walk
 * real traces: TRACES_DIR FOLDER..., every rank's .bin of every folder. */
#ifndef SLOG2_TEST_FOR_EACH_RANK_H
#define SLOG2_TEST_FOR_EACH_RANK_H

/* Calls fn on the .bin path (and rank) of every rank of every FOLDER under
 * TRACES_DIR (argv[1], argv[2...]). Exits 77 (SKIP, tests/check.h) when
 * TRACES_DIR does not exist (no traces at SLOG2_SHARED_DIR); returns 0, 2 after a
 * usage message, or 1 when a folder's .meta cannot be opened (the error
 * printed, the other folders still walked). */
int for_each_rank(int argc, char **argv, void (*fn)(const char *path, int rank));

#endif
