/* SPDX-License-Identifier: MIT */
/* flows.h - messages between folded bands drawn as aggregated flows. When
 * the timelines are folded (fold.h) thousands of arrows would cover the
 * canvas, so the messages sent in each of a few time slices of the window
 * are summed per pair of row groups (sender's group, receiver's group), from
 * slog_reader_analyse()'s exact sender x receiver matrix, and each pair is
 * drawn as one line whose width and opacity grow with the log of its count.
 * Where the groups are whole groups of the file's overview, the counts
 * come from slog_reader_group_messages (its message blocks: bytes that
 * follow the slices and the pairs of groups, not the messages; in a window
 * narrower than they count, one pass over the blocks' arrows), the slices
 * then the time tree's nodes of one level; else from one analysis per
 * slice. Computed on a worker after the frame; afterwards read-only.
 * GTK-free: --render draws them too. */
#ifndef SV_FLOWS_H
#define SV_FLOWS_H

#include <cairo.h>
#include <stddef.h>
#include <stdint.h>

#include "fold.h"
#include "scene.h"
#include "theme.h"
#include "viewport.h"
#include <slog2/slog.h>

/* Slices of the window the flows are summed over. */
#define SV_FLOWS_SLICES       8u
/* The least height, in pixels, of a row group: thinner bands are merged
 * with their neighbours, so that the lines stay few and apart. */
#define SV_FLOWS_MIN_GROUP_PX 24.0

/* The messages sent in one slice from one group to another. */
typedef struct sv_flow {
    uint32_t slice, sender, receiver; /* groups */
    uint64_t messages;
} sv_flow;

/* Where a sv_flows' counts came from. */
typedef enum sv_flows_source {
    SV_FLOWS_FROM_ANALYSIS, /* an analysis of each slice */
    SV_FLOWS_FROM_OVERVIEW, /* the overview's message blocks */
    SV_FLOWS_FROM_BLOCKS,   /* one pass over the blocks' arrows (slog_reader_group_messages) */
} sv_flows_source;

/* "analysis", "overview" or "blocks". */
const char *sv_flows_source_name(sv_flows_source s);

typedef struct sv_flows {
    int64_t t0, t1; /* the window, inclusive */
    uint32_t n_slices;
    uint32_t n_groups;
    uint32_t *group_first; /* n_groups + 1 timelines: group g holds [group_first[g], group_first[g + 1]) */
    sv_flow *flows;        /* by (slice, sender, receiver), messages > 0 */
    size_t n_flows;
    uint64_t total;   /* messages in the flows */
    uint64_t outside; /* messages with an end outside the groups, left out */
    uint64_t max;     /* the largest flow */
    int64_t *edges;   /* n_slices + 1 slice starts where the overview's nodes
                         give the slices (they may reach past the window);
                         NULL: the slices tile [t0, t1] evenly */
    sv_flows_source source;
    double query_ms;
} sv_flows;

/* Empty flows for [t0, t1] in n_slices slices (>= 1) over the n_groups
 * groups whose first timelines are group_first (n_groups + 1 ascending
 * values, copied). NULL when out of memory or the arguments are bad. */
sv_flows *sv_flows_new(int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first, uint32_t n_groups);
void sv_flows_free(sv_flows *fl);
/* Slice i's window [*a, *b], inclusive; the slices tile [t0, t1], or
 * where edges are set [edges[0], edges[n_slices]). */
void sv_flows_slice(const sv_flows *fl, uint32_t i, int64_t *a, int64_t *b);
/* The group holding timeline tl, or -1. */
long sv_flows_group_of(const sv_flows *fl, uint32_t tl);
/* Fold the n cells c (slog_analysis_matrix of slice's window) into the
 * flows of that slice. Slices are added in order, each once. 0, or -1 when
 * out of memory or out of order. */
int sv_flows_add_slice(sv_flows *fl, uint32_t slice, const slog_matrix_cell *c, size_t n);
/* The messages of (slice, sender, receiver), 0 where there is no flow. */
uint64_t sv_flows_count(const sv_flows *fl, uint32_t slice, uint32_t sender, uint32_t receiver);

/* The row groups for the flows of fold f (a fold of a range of timelines;
 * 0 for a fold of a list) as the axis ax shows it: the bands that meet the
 * canvas [0, ax->height), consecutive bands merged until a group is at
 * least min_px high. *group_first (free()) gets n + 1 timelines.
 * Returns the number of groups, 0 when there are none. */
uint32_t sv_flows_groups_for_fold(const sv_fold *f, const sv_rank_axis *ax, double min_px, uint32_t **group_first);

/* The flows of [t0, t1] in about n_slices slices folded into the groups:
 * from slog_reader_group_messages where the groups are whole overview
 * groups and the file counts messages between them (format 5.x), else
 * from an analysis of each of n_slices even slices. NULL
 * on error (err filled) or when cancel returned non-zero (err's status
 * SLOG_OK then). Thread-safe with respect to r. */
sv_flows *sv_flows_compute(slog_reader *r, int64_t t0, int64_t t1, uint32_t n_slices, const uint32_t *group_first,
                           uint32_t n_groups, sv_cancel_fn cancel, void *cancel_user, slog_error *err);

/* Whether flows are shown: some arrow category of pal is visible. */
int sv_flows_visible(const sv_palette *pal);

/* Draw fl over a folded canvas w x h: per slice and pair of different
 * groups, a line from the sender group's middle at the slice's start to the
 * receiver group's middle at its end (of the slice's part in [t0, t1]), width and opacity by the log of the
 * count over the largest, over a halo, coloured by that share on the
 * message scale (sv_ramp_rgba); messages within a group are a short tick
 * at the group's middle. Nothing when fl is NULL or no arrow category is visible.
 * Returns the number of lines and ticks drawn. */
size_t sv_render_flows(cairo_t *cr, double w, double h, const sv_flows *fl, const sv_viewport *vp,
                       const sv_rank_axis *ax, const sv_palette *pal);

#endif
