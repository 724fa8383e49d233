/* SPDX-License-Identifier: MIT */
/* sv-doc-ref.h - a reference-counted sv_doc, so that worker threads can
 * keep the reader alive while the window already shows another file. */
#ifndef SV_DOC_REF_H
#define SV_DOC_REF_H

#include <glib.h>

#include "doc.h"

typedef sv_doc SvDocRef;

/* Open path on the calling thread (call it from a worker). NULL on error
 * with err filled. */
SvDocRef *sv_doc_ref_open(const char *path, slog_error *err);
SvDocRef *sv_doc_ref_acquire(SvDocRef *d);
void sv_doc_ref_release(SvDocRef *d);

#endif
