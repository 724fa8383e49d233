/* SPDX-License-Identifier: MIT */
/* foreign.h - what a file that is not a .slog2 is, when it is one of the
 * files a newcomer hands a .slog2 reader by mistake: the DUMPI trace the
 * .slog2 is built from. Header only and plain C, for slog2-print and
 * slog2-view (neither links the DUMPI decoder). Not installed. */
#ifndef SLOG2_FOREIGN_H
#define SLOG2_FOREIGN_H

#include <stdio.h>
#include <string.h>

/* A hint to print after "not a .slog2 file" for the file at path, or NULL
 * when it is nothing we recognise. Decided by content, not by name: a
 * renamed .meta is still one. The .meta is libdumpi's key=value text
 * (dumpi/dumpi_meta.c: numprocs= and fileprefix= lines); a rank's .bin
 * starts with DUMPI's lead-in magic ff aa dd 'D' 'U' 'M' 'P' 'I'
 * (dumpi/dumpi_file.c). */
static inline const char *slog2_foreign_hint(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char head[4096];
    size_t n = fread(head, 1, sizeof head - 1, f);
    fclose(f);
    head[n] = 0;
    static const char bin_magic[8] = {'\xff', '\xaa', '\xdd', 'D', 'U', 'M', 'P', 'I'};
    if (n >= sizeof bin_magic && memcmp(head, bin_magic, sizeof bin_magic) == 0)
        return "this is one rank of a DUMPI trace (.bin): run slog2-build on the trace's .meta first";
    /* A .meta is short text; a NUL in it means something else. */
    if (strlen(head) == n && (strncmp(head, "numprocs=", 9) == 0 || strstr(head, "\nnumprocs=")) &&
        (strncmp(head, "fileprefix=", 11) == 0 || strstr(head, "\nfileprefix=")))
        return "this is a DUMPI trace (.meta): run slog2-build first";
    return NULL;
}

#endif
