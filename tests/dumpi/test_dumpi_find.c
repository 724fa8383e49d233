/* SPDX-License-Identifier: MIT */
/* test_dumpi_find.c - dumpi_file_find() and dumpi_file_rewind(), the look
 * ahead slog2-build's clock alignment makes for each rank's MPI_Init.
 *
 * usage: test_dumpi_find TRACES_DIR FOLDER...
 * For every rank: the record dumpi_file_find() returns for MPI_Init /
 * MPI_Init_thread is the first such record dumpi_file_next() gives
 * (label, offset, times) and the budget went down by its position + 1,
 * reading goes on right after it, a budget smaller than its position
 * finds nothing and is used up, a label the stream lacks ends in 0 at the
 * end of the stream with the budget left over, a wall offset moves the
 * times found by exactly that much, and after each rewind the stream
 * reads from its first record again. dumpi_file_next_times() (the build's
 * look at labels and times) gives every record's label, mask, thread,
 * offset, size and times as dumpi_file_next() does, and the same end,
 * through windows of every size and with CPU times skipped or not; and
 * dumpi_completions_live() counts the completions dumpi_completion_at()
 * gives with a request other than MPI_REQUEST_NULL.
 */
#include "check.h"
#include "dumpi.h"
#include "dumpi_table.h"
#include "for_each_rank.h"

#include <stdint.h>
#include <stdio.h>

static long n_ranks, n_after_first, n_live;
static int is_init(const dumpi_call *c) {
  return c->label == DUMPI_LABEL_INIT || c->label == DUMPI_LABEL_INIT_THREAD;
}

static uint8_t init_set[DUMPI_N_LABELS], none_set[DUMPI_N_LABELS];

/* dumpi_file_next_times() against dumpi_file_next() on two handles of
 * path, through a window of `window` bytes (0: the default). */
static void check_times(const char *path, size_t window, int skip_cpu) {
  CHECK_CONTEXT("%s, window %zu, skip_cpu %d", path, window, skip_cpu);
  dumpi_file *f, *g;
  dumpi_error err, err_g;
  if (dumpi_file_open(path, &f, &err) != DUMPI_OK) FAIL("%s", err.message);
  if (dumpi_file_open(path, &g, &err) != DUMPI_OK) FAIL("%s", err.message);
  if (window) {
    dumpi_file_set_window(f, window);
    dumpi_file_set_window(g, window);
  }
  if (skip_cpu) {
    dumpi_file_skip_cpu_times(f);
    dumpi_file_skip_cpu_times(g);
  }
  dumpi_call c, d;
  int rc, rc_g;
  long n = 0;
  for (;;) {
    rc = dumpi_file_next(f, &c, &err);
    rc_g = dumpi_file_next_times(g, &d, &err_g);
    CHECK_EQ(rc_g, rc);
    if (rc != 1 || rc_g != 1) break;
    CHECK(d.label == c.label && d.fn == c.fn && d.mask == c.mask && d.thread == c.thread);
    CHECK(d.offset == c.offset && d.size == c.size);
    CHECK(d.wall_start == c.wall_start && d.wall_stop == c.wall_stop);
    dumpi_completions dc;
    dumpi_call_completions(&c, &dc);
    int32_t live = 0, req;
    for (int32_t i = 0; i < dc.n; i++) live += !dumpi_completion_at(&dc, i, &req, NULL) && req != DUMPI_REQUEST_NULL;
    CHECK_EQ(dumpi_completions_live(&dc), live);
    n_live += live;
    n++;
  }
  CHECK(n > 0);
  dumpi_file_close(f);
  dumpi_file_close(g);
}

static void check_rank(const char *path, int rank) {
  (void)rank;
  check_times(path, 0, 1);
  check_times(path, 0, 0);
  check_times(path, 48, 1);
  CHECK_CONTEXT("%s", path);
  dumpi_file *f;
  dumpi_error err;
  if (dumpi_file_open(path, &f, &err) != DUMPI_OK) {
    FAIL("%s", err.message);
  }
  n_ranks++;
  /* the truth, record by record */
  dumpi_call c, first;
  int rc, at = -1, n = 0;
  uint64_t init_off = 0, next_off = 0;
  int64_t init_start = 0, init_stop = 0;
  uint16_t init_label = 0;
  while ((rc = dumpi_file_next(f, &c, &err)) == 1) {
    if (n == 0) first = c;
    if (at >= 0 && n == at + 1) next_off = c.offset;
    if (at < 0 && is_init(&c)) {
      at = n;
      init_off = c.offset;
      init_start = c.wall_start;
      init_stop = c.wall_stop;
      init_label = c.label;
    }
    n++;
  }
  CHECK(rc == 0);
  CHECK(at >= 0); /* every shared trace calls MPI_Init(_thread) */
  if (at > 0) n_after_first++;

  dumpi_file_rewind(f);
  int budget = 256;
  rc = dumpi_file_find(f, init_set, &budget, &c, &err);
  CHECK(rc == 1 && c.label == init_label && c.offset == init_off && c.wall_start == init_start &&
        c.wall_stop == init_stop);
  CHECK(budget == 256 - (at + 1));
  /* reading goes on after it */
  if (at + 1 < n) {
    CHECK(dumpi_file_next(f, &c, &err) == 1 && c.offset == next_off);
  }

  /* too short a look finds nothing, and rewinding undoes it */
  dumpi_file_rewind(f);
  if (at > 0) {
    budget = at;
    CHECK(dumpi_file_find(f, init_set, &budget, &c, &err) == 0 && budget == 0);
    dumpi_file_rewind(f);
  }
  CHECK(dumpi_file_next(f, &c, &err) == 1 && c.offset == first.offset && c.wall_start == first.wall_start);

  /* a label the stream lacks: 0 at its end, which stays the end */
  dumpi_file_rewind(f);
  budget = n + 10;
  CHECK(dumpi_file_find(f, none_set, &budget, &c, &err) == 0 && budget == 10);
  CHECK(dumpi_file_next(f, &c, &err) == 0);

  /* a wall offset moves what is found by exactly that much */
  const int64_t shift = -123456789012345;
  dumpi_file_rewind(f);
  dumpi_file_set_wall_offset(f, shift);
  budget = 256;
  rc = dumpi_file_find(f, init_set, &budget, &c, &err);
  CHECK(rc == 1 && c.wall_start == init_start + shift && c.wall_stop == init_stop + shift);
  dumpi_file_close(f);
}

int main(int argc, char **argv) {
  init_set[DUMPI_LABEL_INIT] = init_set[DUMPI_LABEL_INIT_THREAD] = 1;
  int rc = for_each_rank(argc, argv, check_rank);
  if (rc == 2) return rc;
  CHECKF(rc == 0, "a folder's .meta could not be opened");
  printf("%ld ranks, %ld with records before MPI_Init, %ld live completions\n", n_ranks, n_after_first, n_live);
  CHECK(n_live > 0);
  /* hpcg calls MPI_Initialized first: the search must have had to skip */
  CHECK(n_ranks > 0 && n_after_first > 0);
  return 0;
}
