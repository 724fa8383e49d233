/* SPDX-License-Identifier: MIT */
/* sv-doc-ref.c - see sv-doc-ref.h. */
#include "sv-doc-ref.h"

SvDocRef *sv_doc_ref_open(const char *path, slog_error *err)
{
    sv_doc *d = g_atomic_rc_box_new0(sv_doc);
    if (sv_doc_open(d, path, err) != SLOG_OK) {
        g_atomic_rc_box_release(d);
        return NULL;
    }
    return d;
}

SvDocRef *sv_doc_ref_acquire(SvDocRef *d)
{
    return g_atomic_rc_box_acquire(d);
}

static void doc_clear(gpointer p)
{
    sv_doc_close(p);
}

void sv_doc_ref_release(SvDocRef *d)
{
    if (d) g_atomic_rc_box_release_full(d, doc_clear);
}
