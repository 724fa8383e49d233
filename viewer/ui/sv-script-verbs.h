/* SPDX-License-Identifier: MIT */
/* sv-script-verbs.h - what the test-script interpreter (sv-script.c)
 * shares with the files that add verbs to it. */
#ifndef SV_SCRIPT_VERBS_H
#define SV_SCRIPT_VERBS_H

#include <stddef.h>

#include "sv-window-private.h"

/* The commands, one function each: ARG is the rest of the command,
 * stripped. FALSE ends the script (quit). */
typedef struct sv_script_verb {
    const char *name;
    int needs_doc; /* fails with "no document open" before a file is shown */
    gboolean (*run)(SvWindow *self, const char *arg);
} sv_script_verb;

/* Print "FAIL: what" and make the app exit 1 (the script goes on). */
void sv_script_fail(SvWindow *self, const char *what);

/* sv-script-messages.c: the message filter, the density band, a column's
 * tooltip, the search's status, two windows. */
extern const sv_script_verb sv_script_message_verbs[];
extern const size_t sv_script_n_message_verbs;

#endif
