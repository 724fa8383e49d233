/* SPDX-License-Identifier: MIT */
/* density.h - what a zoomed-out frame says about its messages and its
 * preview columns: the message filter applied to a scene's arrows, the
 * number of messages per timeline and pixel column (the density band
 * drawn along each row where single arrows are too dense or folded), and
 * the description of one column of a row (the histogram's tooltip).
 * GTK-free.
 */
#ifndef SV_DENSITY_H
#define SV_DENSITY_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"
#include "scene.h"
#include "theme.h"

/* Does the filter f (NULL: none) let the scene's arrow it through? Other
 * kinds always pass. */
int sv_msg_filter_item(const sv_search_bound *f, const sv_scene *s, const sv_item *it);

/* Messages per (sender timeline, scene column). drawn: arrows that are
 * items of the scene, of visible categories, passing the filter; folded:
 * the counts of arrows folded into the preview columns, of visible
 * categories. The filter cannot see a folded message's fields, so with a
 * filter set folded counts are kept apart and `folded_unfiltered` is set. */
typedef struct sv_density {
    int width;
    /* The counts cover timelines [tl_first, tl_first + n_timelines): those
     * the scene or scan holds, not every timeline of the file (for a few
     * rows of many thousands, clearing and scanning counts for all of them
     * was most of the frame). */
    uint32_t tl_first, n_timelines;
    float *drawn, *folded; /* n_timelines * width, from tl_first */
    float max;             /* the largest drawn + folded of a column (the
                              band's scale, the hatch included) */
    size_t n_drawn;        /* arrows counted in drawn */
    double n_folded;       /* total of folded */
    int folded_unfiltered;
} sv_density;

/* 0, or -1 when out of memory (d then empty). */
int sv_density_build(sv_density *d, const sv_scene *s, const sv_palette *pal);
void sv_density_clear(sv_density *d);
void sv_density_free(sv_density *d); /* cleared and freed; NULL is fine */

/* The messages matching f over [t0, t1] in width columns, counted from
 * every drawable (no previews) of the flagged timelines (want: NULL =
 * all) and categories (visible: NULL = all), by sender timeline into
 * drawn (folded stays 0). Gives up after
 * `budget` drawables. Returns a new density (sv_density_free), or NULL
 * when over budget, cancelled, out of memory or on a reader error (err
 * filled: status SLOG_OK but for the last). */
sv_density *sv_density_scan(slog_reader *r, const sv_search_bound *f, double t0, double t1, int width,
                            const uint8_t *want, const uint8_t *visible, uint64_t budget, sv_cancel_fn cancel,
                            void *cancel_user, slog_error *err);
/* The budget of a frame's scan: a few hundred milliseconds of decoding
 * on a slow machine. */
#define SV_DENSITY_SCAN_BUDGET 4000000u

/* The density a frame draws: the scene's scan (msg_density) when it was
 * counted for the palette's current filter, else built from the scene
 * into *tmp (sv_density_clear it after). *show: whether the band is
 * wanted at all (messages folded into columns, or too many arrows to draw
 * each). NULL when out of memory. */
const sv_density *sv_density_for(const sv_scene *s, const sv_palette *pal, sv_density *tmp, int *show);
/* More arrows than this in a frame and the near-vertical ones are left
 * out of the drawing: the density band then shows them. */
#define SV_DENSITY_ARROWS 300

/* The text of a row's column under the pointer: its time span, each
 * state's share of the time in it (largest first), then the events'
 * counts, then its messages (with dens; without, arrows count as events). names: the categories'; offset
 * (ns) is added to the printed times, as the ruler does. 0, or -1 when
 * the timeline has nothing folded there (buf empty). */
int sv_column_describe(const sv_scene *s, const sv_palette *pal, const char *const *names, const sv_density *dens,
                       double offset, uint32_t timeline, int column, char *buf, size_t size);

#endif
