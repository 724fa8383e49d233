/* SPDX-License-Identifier: MIT */
/* otf2_build.h - slog2-build's OTF2 input: an OTF2 archive (the anchor file
 * NAME.otf2, its global definitions NAME.def and a folder of per-location
 * .def/.evt files, as Score-P, EZTrace and others write them) converted to
 * a .slog2 file. docs/OTF2.md gives the mapping.
 *
 * otf2_is_anchor() needs no libotf2 and is always built, so slog2-build
 * can say "built without OTF2" instead of misreading an archive as DUMPI;
 * otf2_build_run() exists when SLOG2_HAVE_OTF2 is defined. */
#ifndef SLOG2_OTF2_BUILD_H
#define SLOG2_OTF2_BUILD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Whether the file at path starts as an OTF2 anchor file does (its first
 * bytes, not its name). False for anything unreadable. */
bool otf2_is_anchor(const char *path);

typedef enum otf2_align {
    OTF2_ALIGN_AUTO,   /* align processes' clocks by collectives when the
                          archive records no clock offsets */
    OTF2_ALIGN_ALWAYS, /* align them even when it does */
    OTF2_ALIGN_NEVER   /* times as recorded */
} otf2_align;

typedef struct otf2_build_options {
    const char *output;    /* .slog2 path */
    int quiet;             /* no warnings listing beyond the first few */
    uint32_t preview_bins; /* 0 = libslog default */
    otf2_align align;
    const char *command_line; /* recorded as an annotation */
    int remove_on_signal;     /* arm signals.h for the temporary file */
    int threads;              /* 1: everything on the calling thread; else the
                                 file is written on a thread of its own */
} otf2_build_options;

enum { OTF2_BUILD_OK = 0, OTF2_BUILD_FAILED = 1, OTF2_BUILD_WARNINGS = 2 };

/* Build o->output from the archive whose anchor file is anchor. Errors and
 * warnings go to err (naming the file), the summary to out (NULL: none).
 * Returns OTF2_BUILD_OK, OTF2_BUILD_WARNINGS (a file was written, but some
 * location was truncated, a definition missing, ...) or OTF2_BUILD_FAILED
 * (no file). */
int otf2_build_run(const char *anchor, const otf2_build_options *o, FILE *err, FILE *out);

#endif
