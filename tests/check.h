/* SPDX-License-Identifier: MIT */
/* check.h - the checks of every test program (docs/HACKING.md, "Testing").
 *
 * A failed check prints file, line, the expression, an optional message and
 * check_context, then ends the program with status 1: later code may rely
 * on what was checked. Set the context before a block of work (a seed, a
 * file, a case) so that a failure names what reproduces it:
 *
 *     CHECK_CONTEXT("seed %llu", seed);
 *     CHECK(n == 3);
 *     CHECKF(v == want, "value %d, want %d", v, want);
 *     CHECK_EQ(a, b);                          prints both as long long
 *     CHECK_NEAR(x, want, eps);                |x - want| <= eps, prints both
 *     CHECK_STR(s, want);                      equal strings, prints both
 *     CHECK_STATUS(st, 0, dumpi_strerror);     prints the status and its text
 *     FAIL("%s: %zu ranks missing", dir, n);   fails unconditionally
 *     SKIP("%s not found", dir);               exit 77: skipped for ctest
 *     RUN(test_case);                          context, call, "ok test_case"
 *
 * tests/check.c defines the functions; link the slog2_check library. */
#ifndef SLOG2_TEST_CHECK_H
#define SLOG2_TEST_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* What the test is doing; printed with every failure ("" = nothing). */
extern char check_context[256];

void check_fail(const char *file, int line, const char *expr, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
void check_skip(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#define CHECK_CONTEXT(...) snprintf(check_context, sizeof check_context, __VA_ARGS__)

#define CHECK(expr)                                               \
    do {                                                          \
        if (!(expr)) check_fail(__FILE__, __LINE__, #expr, NULL); \
    } while (0)
#define CHECKF(expr, ...)                                                \
    do {                                                                 \
        if (!(expr)) check_fail(__FILE__, __LINE__, #expr, __VA_ARGS__); \
    } while (0)
#define CHECK_EQ(a, b)                                                                                              \
    do {                                                                                                            \
        long long check_a_ = (long long)(a), check_b_ = (long long)(b);                                             \
        if (check_a_ != check_b_) check_fail(__FILE__, __LINE__, #a " == " #b, "%lld != %lld", check_a_, check_b_); \
    } while (0)
#define CHECK_NEAR(a, b, eps)                                                                           \
    do {                                                                                                \
        double check_a_ = (a), check_b_ = (b), check_e_ = (eps);                                        \
        if (!(fabs(check_a_ - check_b_) <= check_e_))                                                   \
            check_fail(__FILE__, __LINE__, #a, "%.9g, want %.9g (+-%g)", check_a_, check_b_, check_e_); \
    } while (0)
#define CHECK_STR(a, b)                                                                    \
    do {                                                                                   \
        const char *check_a_ = (a), *check_b_ = (b);                                       \
        if (strcmp(check_a_, check_b_) != 0)                                               \
            check_fail(__FILE__, __LINE__, #a, "\"%s\", want \"%s\"", check_a_, check_b_); \
    } while (0)
/* A status that must equal ok; describe(status) says what it means. */
#define CHECK_STATUS(st, ok, describe)                                                              \
    do {                                                                                            \
        long long check_st_ = (long long)(st);                                                      \
        if (check_st_ != (long long)(ok))                                                           \
            check_fail(__FILE__, __LINE__, #st, "status %lld: %s", check_st_, describe(check_st_)); \
    } while (0)
/* A failure found without an expression (a case that must not happen). */
#define FAIL(...) check_fail(__FILE__, __LINE__, "FAIL", __VA_ARGS__)
#define SKIP(...) check_skip(__VA_ARGS__)
/* One case of a program's list: its name is the context, and "ok NAME"
 * follows when it returns (a failure has ended the program before). */
#define RUN(test)                   \
    do {                            \
        CHECK_CONTEXT("%s", #test); \
        test();                     \
        printf("ok   %s\n", #test); \
        check_context[0] = 0;       \
    } while (0)

#endif
