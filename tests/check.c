/* SPDX-License-Identifier: MIT */
/* check.c - the failure path of tests/check.h. */
#include "check.h"

#include <stdarg.h>
#include <stdlib.h>

char check_context[256];

void check_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
    fprintf(stderr, "%s:%d: CHECK failed: %s", file, line, expr);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(" -- ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    if (check_context[0]) fprintf(stderr, "  context: %s\n", check_context);
    fflush(stdout);
    fflush(stderr);
    exit(1);
}

void check_skip(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("SKIP: ", stdout);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    exit(77);
}
