/* SPDX-License-Identifier: MIT */
/* signals.h - a tool stopped by a signal leaves no temporary files.
 *
 * Cluster batch systems end jobs that overrun their time with SIGTERM (or
 * SIGXCPU), users press Ctrl-C: the half-written OUT.tmp.XXXXXX of a large
 * build (or the rank files slog2-synth is writing) would stay behind, often
 * gigabytes in a quota. While armed, the usual termination signals, and
 * those of a crash, remove them, say so on stderr and then end the process
 * as the signal would have (same exit status for the shell, a core dump
 * where there would be one). Only signals at their default action are
 * taken: ignored ones (nohup, a background job's SIGINT) stay ignored, and
 * a sanitizer's crash handler keeps its report.
 *
 * Plain C: slog2-build and slog2-synth both use it.
 */
#ifndef SLOG2_SIGNALS_H
#define SLOG2_SIGNALS_H

#include <stdbool.h>
#include <stddef.h>

/* Hold (block) the termination signals in the calling thread, the only
 * one, from before the temporary files are created until signals_arm()
 * (or signals_unhold() when creating them failed): one arriving in between
 * would end the process at its default action and leave the files. */
void signals_hold(void);
void signals_unhold(void);

/* Remove paths[0..n) (copied) if SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXCPU,
 * SIGXFSZ or a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) arrives
 * before signals_disarm(). program starts the message; erase_line: a
 * progress bar is on stderr's current line. False (and nothing armed) when
 * out of memory or already armed. Either way, ends a signals_hold(). */
bool signals_arm(const char *program, const char *const *paths, size_t n, bool erase_line);
/* The files were renamed or removed: signals act as before again. */
void signals_disarm(void);

#endif
