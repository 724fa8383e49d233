/* SPDX-License-Identifier: MIT */
/* profile.h - the state profile of the viewer's Profile window, from
 * slog_reader_analyse's (timeline, category) rows: per category over every
 * timeline (calls, inclusive and exclusive time, min / mean / max, share
 * of the window), per timeline for one category (the imbalance view), and
 * the CSV slog2-print --profile writes. GTK-free. */
#ifndef SV_PROFILE_H
#define SV_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <slog2/slog.h>

/* The n rows src summed per category over the timelines, in category
 * order, the categories without calls left out, into *out (free()); the
 * count, or (size_t)-1 when out of memory. */
size_t sv_profile_by_category(const slog_profile_row *src, size_t n, uint32_t n_categories, slog_profile_row **out);
/* Category k's row of every timeline 0..n_timelines-1 (calls 0 where it
 * has none), a new array (free()), NULL when out of memory. */
slog_profile_row *sv_profile_per_timeline(const slog_profile_row *src, size_t n, uint32_t k, uint32_t n_timelines);
/* Mean duration of a row's calls (inside parts), 0 without calls. */
double sv_profile_mean_ns(const slog_profile_row *p);
/* Inclusive time over (t1 - t0) x n_timelines, as slog2-print's share (pass
 * 1 for a timeline's own share). 0 for an empty window. */
double sv_profile_share(const slog_profile_row *p, int64_t t0, int64_t t1, uint32_t n_timelines);
/* The CSV of `slog2-print --profile --window T0:T1 --format csv` for rows
 * summed per category (sv_profile_by_category), byte for byte; names[k]
 * is category k's name. 0, or -1 on a write error. */
int sv_profile_write_csv(FILE *f, const slog_profile_row *rows, size_t n, const char *const *names, int64_t t0,
                         int64_t t1, uint32_t n_timelines);

#endif
