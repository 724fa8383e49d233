/* SPDX-License-Identifier: MIT */
/* check.h - the CHECK macro of the viewer tests (LMDB mtest.c style). */
#ifndef SV_TEST_CHECK_H
#define SV_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int n_failed;

#define CHECK(expr)                                                                  \
    do {                                                                             \
        if (!(expr)) {                                                               \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr); \
            n_failed++;                                                              \
        }                                                                            \
    } while (0)

#define CHECK_NEAR(a, b, eps)                                                                                     \
    do {                                                                                                          \
        double a_ = (a), b_ = (b);                                                                                \
        if (!(fabs(a_ - b_) <= (eps))) {                                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s = %.9g, want %.9g (+-%g)\n", __FILE__, __LINE__, #a, a_, b_, \
                    (double)(eps));                                                                               \
            n_failed++;                                                                                           \
        }                                                                                                         \
    } while (0)

#define CHECK_STR(a, b)                                                                                         \
    do {                                                                                                        \
        const char *a_ = (a), *b_ = (b);                                                                        \
        if (strcmp(a_, b_) != 0) {                                                                              \
            fprintf(stderr, "%s:%d: CHECK failed: %s = \"%s\", want \"%s\"\n", __FILE__, __LINE__, #a, a_, b_); \
            n_failed++;                                                                                         \
        }                                                                                                       \
    } while (0)

#define TEST_DONE()                                                      \
    do {                                                                 \
        if (n_failed) fprintf(stderr, "%d check(s) failed\n", n_failed); \
        return n_failed ? 1 : 0;                                         \
    } while (0)

#endif
