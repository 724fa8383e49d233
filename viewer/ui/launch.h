/* SPDX-License-Identifier: MIT */
/* launch.h - how long after its launch the window drew its first frame.
 *
 * With SLOG2_VIEW_TIMING set, slog2-view prints "slog2-view: first frame
 * N ms after launch" on standard error once the canvas has drawn the open
 * file for the first time. "Launch" is the process's start time as the
 * kernel records it (/proc/self/stat, 10 ms ticks), so exec, dynamic
 * linking and GTK's start-up are included, as the user waits for them.
 */
#ifndef SV_LAUNCH_H
#define SV_LAUNCH_H

/* Report the first frame (only the first call prints; a no-op without
 * SLOG2_VIEW_TIMING). */
void sv_launch_first_frame(void);

#endif
