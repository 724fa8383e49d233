/* check.h - CHECK() for the slog2-synth tests (STYLE.md "Tests"). */
#ifndef SLOG2_SYNTH_TEST_CHECK_H
#define SLOG2_SYNTH_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_failures;

#define CHECK(expr)                                                         \
  do {                                                                      \
    if (!(expr)) {                                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #expr); \
      check_failures++;                                                     \
    }                                                                       \
  } while (0)

#define CHECK_MSG(expr, ...)                                                \
  do {                                                                      \
    if (!(expr)) {                                                          \
      fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #expr); \
      fprintf(stderr, __VA_ARGS__);                                         \
      fputc('\n', stderr);                                                  \
      check_failures++;                                                     \
    }                                                                       \
  } while (0)

#endif
