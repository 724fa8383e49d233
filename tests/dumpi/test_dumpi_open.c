/* SPDX-License-Identifier: MIT */
/* test_dumpi_open.c - dumpi_file_open_window(): what opening a small file
 * reads of its stream is the window's first fill.
 *
 * usage: test_dumpi_open TRACES_DIR FOLDER...
 * For every rank, copies are opened, made transient (no descriptor kept)
 * and removed, then read. A small file's, with a window of more than half
 * its stream: a look ahead, a rewind and the whole stream read as from
 * the original, with no read of the file. With windows of 64 and 1024
 * bytes: the same records up to where reading on needs the file (an I/O
 * error naming it), at least those in the first three quarters of the
 * window, and the whole stream only when it is under two windows (the
 * window bounds the memory held).
 */
#include "check.h"
#include "dumpi.h"
#include "for_each_rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct rec {
  uint16_t label;
  uint64_t offset;
  int64_t wall_start, wall_stop;
} rec;

static char tmpdir[256];

/* The first n records of a and b agree. */
static int same(const rec *a, const rec *b, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (a[i].label != b[i].label || a[i].offset != b[i].offset || a[i].wall_start != b[i].wall_start ||
        a[i].wall_stop != b[i].wall_stop)
      return 0;
  return 1;
}
static long n_files, n_small;

/* Every record of f, until the end or an error (*rc). */
static rec *read_all(dumpi_file *f, size_t *n, int *rc, dumpi_error *err) {
  size_t cap = 64;
  rec *v = malloc(cap * sizeof *v);
  dumpi_call c;
  *n = 0;
  while ((*rc = dumpi_file_next(f, &c, err)) == 1) {
    if (*n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
    CHECK(v != NULL);
    rec r = {c.label, c.offset, c.wall_start, c.wall_stop};
    v[(*n)++] = r;
  }
  return v;
}

/* A copy of path in tmpdir, opened with a window of `window` bytes, then
 * made transient and removed. */
static dumpi_file *open_copy_and_remove(const char *path, size_t window, char *copy, size_t copy_size) {
  snprintf(copy, copy_size, "%s/copy.bin", tmpdir);
  FILE *in = fopen(path, "rb"), *out = fopen(copy, "wb");
  CHECK(in && out);
  char buf[4096];
  size_t k;
  while ((k = fread(buf, 1, sizeof buf, in)) > 0) CHECK(fwrite(buf, 1, k, out) == k);
  fclose(in);
  fclose(out);
  dumpi_file *f;
  dumpi_error err;
  CHECKF(dumpi_file_open_window(copy, window, &f, &err) == DUMPI_OK, "%s", err.message);
  dumpi_file_set_transient(f, 1);
  CHECK(unlink(copy) == 0);
  return f;
}

/* Through a window of `window` bytes, the removed copy reads like the
 * file up to where it needs the file again: all of it only when its
 * stream is under two windows, and at least every record in the first
 * three quarters of the window (where the window is not refilled yet). */
static void check_window(const char *path, size_t window, const rec *want, size_t n_want, uint64_t stream) {
  char copy[512];
  dumpi_file *f = open_copy_and_remove(path, window, copy, sizeof copy);
  size_t n_got;
  int rc;
  dumpi_error err;
  rec *got = read_all(f, &n_got, &rc, &err);
  dumpi_file_close(f);
  CHECK(same(got, want, n_got < n_want ? n_got : n_want));
  free(got);
  if (rc == 0) {
    CHECKF(n_got == n_want && stream / 2 <= window, "%zu-byte window: %zu records of %zu, a %llu-byte stream", window,
           n_got, n_want, (unsigned long long)stream);
    return;
  }
  CHECKF(rc == DUMPI_ERR_IO && strstr(err.message, copy), "%zu-byte window: rc %d: %s", window, rc, err.message);
  size_t first = 0;
  while (first + 1 < n_want && want[first + 1].offset - want[0].offset <= window / 4 * 3) first++;
  CHECKF(n_got >= first, "%zu-byte window: %zu records before a read, want %zu at least", window, n_got, first);
}

static void check_rank(const char *path, int rank) {
  (void)rank;
  CHECK_CONTEXT("%s", path);
  if (!tmpdir[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/dumpi-open-XXXXXX", t && *t ? t : "/tmp");
    CHECK(mkdtemp(tmpdir) != NULL);
  }
  dumpi_file *f;
  dumpi_error err;
  CHECKF(dumpi_file_open(path, &f, &err) == DUMPI_OK, "%s", err.message);
  uint64_t stream = dumpi_file_stream_bytes(f), size = dumpi_file_size(f);
  size_t n_want;
  int rc;
  rec *want = read_all(f, &n_want, &rc, &err);
  CHECKF(rc == 0, "%s", err.message);
  dumpi_file_close(f);
  CHECKF(stream > 2 * 64 && n_want > 3, "a stream of %llu bytes, %zu records: too small to tell",
         (unsigned long long)stream, n_want);

  /* a small file, with a window over half its stream: held whole, a look
   * ahead and a rewind included */
  if (size <= 16 * 1024) {
    char copy[512];
    f = open_copy_and_remove(path, (size_t)stream / 2 + 1, copy, sizeof copy);
    uint8_t every[DUMPI_N_LABELS];
    memset(every, 1, sizeof every);
    int budget = 3;
    dumpi_call c;
    while (dumpi_file_find(f, every, &budget, &c, &err) == 1) continue;
    CHECK_EQ(budget, 0);
    dumpi_file_rewind(f);
    size_t n_got;
    rec *got = read_all(f, &n_got, &rc, &err);
    CHECKF(rc == 0, "held whole: %s", err.message);
    CHECK_EQ(n_got, n_want);
    CHECK(same(got, want, n_want));
    free(got);
    dumpi_file_close(f);
    n_small++;
  }
  check_window(path, 64, want, n_want, stream);
  check_window(path, 1024, want, n_want, stream);
  free(want);
  n_files++;
}

int main(int argc, char **argv) {
  int rc = for_each_rank(argc, argv, check_rank);
  if (tmpdir[0]) rmdir(tmpdir);
  if (rc == 2) return rc;
  CHECKF(rc == 0, "a folder's .meta could not be opened");
  CHECK(n_files > 0);
  dumpi_file *f;
  dumpi_error err;
  CHECK_EQ(dumpi_file_open_window("/nonexistent/x.bin", 1024, &f, &err), DUMPI_ERR_IO);
  CHECK(strstr(err.message, "/nonexistent/x.bin") != NULL);
  printf("%ld files (%ld small ones held whole): a window's worth read at open\n", n_files, n_small);
  return 0;
}
