/* signals.h - a build stopped by a signal leaves no temporary file.
 *
 * Cluster batch systems end jobs that overrun their time with SIGTERM (or
 * SIGXCPU), users press Ctrl-C: the half-written PATH.tmp.XXXXXX of a large
 * build would stay behind, often gigabytes in a quota. While armed, the
 * usual termination signals, and those of a crash, remove it, say so on
 * stderr and then end the process as the signal would have (same exit
 * status for the shell, a core dump where there would be one). Only
 * signals at their default action are taken: ignored ones (nohup, a
 * background job's SIGINT) stay ignored, and a sanitizer's crash handler
 * keeps its report.
 */
#ifndef SLOG2_SIGNALS_H
#define SLOG2_SIGNALS_H

#include <stdbool.h>

/* Remove temp_path (copied) if SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXCPU,
 * SIGXFSZ or a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT) arrives
 * before signals_disarm(); erase_line: the progress bar
 * is on stderr's current line. False (and nothing armed) when the path is
 * too long to keep. */
bool signals_arm(const char *temp_path, bool erase_line);
/* The file was renamed or removed: signals act as before again. */
void signals_disarm(void);

#endif
