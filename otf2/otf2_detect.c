/* SPDX-License-Identifier: MIT */
/* otf2_detect.c - see otf2_build.h. */
#include "otf2_build.h"

#include <string.h>
#include <sys/stat.h>

bool otf2_is_anchor(const char *path)
{
    /* An anchor file is an OTF2 buffer: a chunk header byte (3), the
     * buffer's byte order ('B' or 'L'), then the string "OTF2" with its
     * terminating NUL (OTF2's otf2_archive_read_anchor). */
    unsigned char b[7];
    /* Only a regular file: opening a FIFO would block until a writer
     * comes (the DUMPI path reports such inputs). */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return false;
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    return n == sizeof b && b[0] == 3 && (b[1] == 'B' || b[1] == 'L') && memcmp(b + 2, "OTF2", 5) == 0;
}
