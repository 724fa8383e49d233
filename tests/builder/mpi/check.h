/* check.h - the CHECK macro of the match tests (STYLE.md: plain programs). */
#ifndef SLOG2_TEST_CHECK_H
#define SLOG2_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(expr)                                                           \
    do {                                                                      \
        if (!(expr)) {                                                        \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__,  \
                    #expr);                                                   \
            check_failures++;                                                 \
        }                                                                     \
    } while (0)

#define CHECK_EQ(a, b)                                                        \
    do {                                                                      \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);       \
        if (check_a_ != check_b_) {                                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%lld != %lld)\n", \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);          \
            check_failures++;                                                 \
        }                                                                     \
    } while (0)

#define RUN(test)                                                             \
    do {                                                                      \
        int check_before_ = check_failures;                                   \
        test();                                                               \
        printf("%s %s\n", check_failures == check_before_ ? "ok  " : "FAIL", #test); \
    } while (0)

#define CHECK_EXIT() (check_failures ? (fprintf(stderr, "%d failure(s)\n", check_failures), 1) : 0)

#endif
