/* SPDX-License-Identifier: MIT */
/* sv-labels.h - the timeline label column left of the canvas; follows the
 * canvas' vertical scroll and hover row. */
#ifndef SV_LABELS_H
#define SV_LABELS_H

#include "sv-timeline.h"

G_BEGIN_DECLS
#define SV_TYPE_LABELS (sv_labels_get_type())
G_DECLARE_FINAL_TYPE(SvLabels, sv_labels, SV, LABELS, GtkWidget)

void sv_labels_set_timeline(SvLabels *self, SvTimeline *tl);
G_END_DECLS

#endif
