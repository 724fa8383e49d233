/* SPDX-License-Identifier: MIT */
/* sv-item-popover.h - the details popover of a drawable on the timeline:
 * its category and kind; sender, receiver and latency of a message, the
 * time of an event, start, end and duration of a state; every info field
 * of its category. Its buttons run the timeline's actions
 * (timeline.other-end, timeline.zoom-to-item), so it is parented to an
 * SvTimeline. */
#ifndef SV_ITEM_POPOVER_H
#define SV_ITEM_POPOVER_H

#include <gtk/gtk.h>

#include "analysis.h"
#include "sv-doc-ref.h"

G_BEGIN_DECLS
#define SV_TYPE_ITEM_POPOVER (sv_item_popover_get_type())
G_DECLARE_FINAL_TYPE(SvItemPopover, sv_item_popover, SV, ITEM_POPOVER, GtkPopover)

GtkWidget *sv_item_popover_new(void);
/* Show the details of f, a drawable of doc. FALSE (and nothing changed)
 * when doc has no category for it. */
gboolean sv_item_popover_set_item(SvItemPopover *self, const SvDocRef *doc, const sv_found *f);

G_END_DECLS

#endif
