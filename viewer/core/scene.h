/* SPDX-License-Identifier: MIT */
/* scene.h - what one window query returned, ready to draw: the real
 * drawables (copied out of the query callbacks, with nesting depth) and the
 * previews folded into pixel columns per (timeline, category). Built on a
 * worker thread by sv_scene_query(); afterwards read-only, so the main
 * thread draws it while the next one is being built. GTK-free.
 *
 * The geometry helpers (sv_geom_*) are shared by render.c and the hit test
 * so that what is clicked is exactly what is drawn.
 */
#ifndef SV_SCENE_H
#define SV_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include "viewport.h"
#include <slog2/slog.h>

/* The reader's cache of decoded nodes (slog_reader_set_cache) for a
 * document: about what a zoomed window decodes when its leaves carry no
 * previews, so zooms and pans in it read nothing again. */
#define SV_NODE_CACHE_BYTES ((uint64_t)256 << 20)

/* More real drawables than this in one frame stop the query; the frame is
 * drawn from what arrived and marked incomplete. */
#define SV_SCENE_MAX_ITEMS 4000000

typedef struct sv_item {
    int64_t start, end;
    uint32_t category, timeline, end_timeline;
    uint32_t info_off; /* index into sv_scene.info */
    uint16_t n_info;
    uint8_t kind;  /* slog_kind */
    uint8_t depth; /* states: nesting depth on their timeline (0 = outer) */
} sv_item;

/* Unreadable nodes (bad checksum, inconsistent) a scene was drawn
 * without: at most this many, then the query fails. */
#define SV_SCENE_MAX_BAD 16

typedef struct sv_bad_range {
    int64_t lo, hi; /* [lo, hi): the node's interval, for every timeline */
} sv_bad_range;

typedef struct sv_scene {
    double t0, t1; /* window the columns cover */
    int width;     /* pixel columns */
    double pixel_ns;
    uint32_t n_timelines, n_categories;

    sv_item *items;
    size_t n_items, cap_items;
    int64_t *info;
    size_t n_info, cap_info;
    uint32_t *order; /* draw order: states by depth, then events, then arrows */
    uint8_t max_depth;

    /* Pixel-column rows from previews: slot s holds width floats at
     * cols + s*width for (slot_tl[s], slot_cat[s]); slots are sorted by
     * (timeline, category) after the query. */
    int32_t *slot_of; /* n_timelines * n_categories -> slot or -1 */
    size_t n_slots, cap_slots;
    uint32_t *slot_tl, *slot_cat;
    float *cols;
    size_t *tl_first_slot; /* n_timelines + 1: slots of timeline t are
                              [tl_first_slot[t], tl_first_slot[t+1]) */

    const uint8_t *cat_kind; /* owned: n_categories kinds */
    uint8_t *covered;        /* owned: n_timelines flags of the timelines queried;
                           NULL: all of them */
    slog_query_stats stats;
    double query_ms;
    int complete; /* 0 if stopped early (cancelled or too many items) */
    /* Time ranges of unreadable nodes the window was queried around (the
     * rest of it is drawn), and the first one's error message. */
    sv_bad_range bad[SV_SCENE_MAX_BAD];
    size_t n_bad;
    char bad_msg[512];
    /* Owned, may be NULL: the messages matching the message filter per
     * column, counted from every drawable of the window (density.h), and
     * the palette's msg_filter_gen it was counted for. */
    struct sv_density *msg_density;
    unsigned msg_filter_gen;
} sv_scene;

/* Return non-zero to cancel a running query. */
typedef int (*sv_cancel_fn)(void *user);

/* Query [t0, t1] at width columns (pixel_ns = (t1-t0)/width; 0 previews
 * when that is below 1 ns). A node that cannot be read (checksum,
 * corrupt, truncated) is left out: the window is queried again around its
 * time range, which goes into s->bad (up to SV_SCENE_MAX_BAD of them). timelines: NULL = all, else n_timelines flags.
 * flags: SLOG_QUERY_* passed through, plus SLOG_QUERY_NARROW_NO_INFO (the
 * drawables it strips are the ones folded into columns; every item keeps
 * its fields). Returns NULL on error (err filled,
 * status SLOG_ERR_NOMEM on allocation failure) or when cancelled (err->status
 * SLOG_OK). Thread-safe with respect to r. */
sv_scene *sv_scene_query(slog_reader *r, double t0, double t1, int width, const uint8_t *timelines, uint32_t flags,
                         sv_cancel_fn cancel, void *cancel_user, slog_error *err);
void sv_scene_free(sv_scene *s);

/* s holds every timeline flagged in want (n_timelines flags; NULL = all):
 * rows scrolled into view since s was queried may not be in it. */
int sv_scene_covers(const sv_scene *s, const uint8_t *want);

/* Column row of (timeline, category) or NULL. */
const float *sv_scene_cols(const sv_scene *s, uint32_t timeline, uint32_t category);

/* ------------------------------------------------------------ geometry */

/* A rectangle in canvas coordinates. */
typedef struct sv_rect {
    double x, y, w, h;
} sv_rect;

/* How the canvas is placed: content row r is at y = rows[r].y - scroll_y. */
typedef struct sv_geom {
    const sv_viewport *vp;
    const sv_layout *lay;
    double scroll_y;
    /* arrows it rejects are not hit (sv_palette.msg_filter); NULL = all */
    const struct sv_search_bound *msg_filter;
} sv_geom;

/* Rectangle of a state; returns 0 if its timeline is not laid out. States
 * narrower than a pixel are widened to one pixel so they stay visible. */
int sv_geom_state(const sv_geom *g, const sv_item *it, sv_rect *out);
/* Centre point of an event marker (radius SV_EVENT_R). */
#define SV_EVENT_R       4.0
/* Rows lower than this show events as ticks of the row's height. */
#define SV_EVENT_ROW_MIN (2 * SV_EVENT_R + 2)
int sv_geom_event(const sv_geom *g, const sv_item *it, double *x, double *y);
/* Arrow end points (sender -> receiver). */
int sv_geom_arrow(const sv_geom *g, const sv_item *it, double *x0, double *y0, double *x1, double *y1);

/* The topmost drawable at canvas point (x, y) among visible categories
 * (visible: n_categories flags, NULL = all). Arrows and events within a few
 * pixels win over states; among states the deepest. Returns the item index
 * or -1. */
long sv_scene_hit(const sv_scene *s, const sv_geom *g, const uint8_t *visible, double x, double y);

/* Distance from (px, py) to the segment (x0,y0)-(x1,y1). */
double sv_segment_distance(double px, double py, double x0, double y0, double x1, double y1);

/* Compute nesting depths and the draw order for items (exposed for tests:
 * a scene assembled by hand gets the same treatment as a queried one). */
int sv_scene_finish(sv_scene *s);
/* Append an item (copies info). 0 or -1 on allocation failure. */
int sv_scene_add_item(sv_scene *s, const slog_drawable *d);
/* An empty scene for tests / for a window with no data. */
sv_scene *sv_scene_new(double t0, double t1, int width, uint32_t n_timelines, uint32_t n_categories,
                       const uint8_t *cat_kind);
/* Fold one preview into the columns. */
int sv_scene_add_preview(sv_scene *s, const slog_preview *p);

#endif
