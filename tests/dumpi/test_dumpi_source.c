/* SPDX-License-Identifier: MIT */
/* test_dumpi_source.c - a rank file read through dumpi_file_open_source()
 * decodes as the file itself does (slog2-build-mpi reads other processes'
 * files that way).
 *
 * usage: test_dumpi_source TRACES_DIR FOLDER...
 * For every rank, whole and cut at 60 % of its size: the same records
 * (label, offset, size, times) and the same end, error message included,
 * through a small window and a source that gives at most a few bytes a
 * call; the source filled only where dumpi_file_stream_range() says the
 * stream is not. A source whose read fails names the file and offset as a
 * failed pread does, and its close runs once whatever happens.
 */
#include "check.h"
#include "dumpi.h"
#include "for_each_rank.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WINDOW 64 /* bytes: records straddle its end often */
#define GIVE   37 /* the source's largest answer */

typedef struct source {
  int fd;
  uint64_t begin, end; /* the stream, from the file opened directly */
  uint64_t fail_at;    /* a read reaching this offset fails (UINT64_MAX: none) */
  int closed;
} source;

static int fill(void *ctx, uint8_t *map) {
  source *s = ctx;
  off_t size = lseek(s->fd, 0, SEEK_END);
  if (s->begin && pread(s->fd, map, (size_t)s->begin, 0) != (ssize_t)s->begin) return -EIO;
  if ((uint64_t)size > s->end && pread(s->fd, map + s->end, (size_t)((uint64_t)size - s->end), (off_t)s->end) !=
                                     (ssize_t)((uint64_t)size - s->end))
    return -EIO;
  return 0;
}

static int64_t read_some(void *ctx, void *buf, size_t n, uint64_t off) {
  source *s = ctx;
  CHECKF(off >= s->begin && off < s->end, "a read at %llu, outside the stream [%llu, %llu)", (unsigned long long)off,
         (unsigned long long)s->begin, (unsigned long long)s->end);
  if (off + n > s->fail_at) return -EIO;
  ssize_t k = pread(s->fd, buf, n < GIVE ? n : GIVE, (off_t)off);
  return k < 0 ? -errno : k;
}

static void close_source(void *ctx) {
  ((source *)ctx)->closed++;
}

/* Every record's fingerprint and the end, through f. */
typedef struct walk {
  long n;
  uint64_t sum;
  int rc;
  char message[512];
} walk;

static void walk_file(dumpi_file *f, walk *w) {
  memset(w, 0, sizeof *w);
  dumpi_file_set_window(f, WINDOW);
  dumpi_call c;
  dumpi_error e;
  uint64_t h = 0xcbf29ce484222325ull;
  int rc;
  while ((rc = dumpi_file_next(f, &c, &e)) == 1) {
    uint64_t v[5] = {c.label, c.offset, c.size, (uint64_t)c.wall_start, (uint64_t)c.wall_stop};
    for (int i = 0; i < 5; i++) h = (h ^ v[i]) * 0x100000001b3ull;
    w->n++;
  }
  w->sum = h;
  w->rc = rc;
  if (rc < 0) snprintf(w->message, sizeof w->message, "%s", e.message);
}

static void same_through_source(const char *path, uint64_t fail_at, walk *got, walk *want) {
  dumpi_file *f;
  dumpi_error e;
  CHECKF(dumpi_file_open(path, &f, &e) == DUMPI_OK, "%s", e.message);
  source s = {.fd = open(path, O_RDONLY), .fail_at = fail_at};
  CHECK(s.fd >= 0);
  dumpi_file_stream_range(f, &s.begin, &s.end);
  walk_file(f, want);
  dumpi_source src = {&s, dumpi_file_size(f), fill, read_some, close_source};
  dumpi_file_close(f);
  dumpi_file *g;
  CHECKF(dumpi_file_open_source(path, &src, &g, &e) == DUMPI_OK, "%s", e.message);
  walk_file(g, got);
  CHECK_EQ(s.closed, 0);
  dumpi_file_close(g);
  CHECK_EQ(s.closed, 1);
  close(s.fd);
}

static void one_rank(const char *path, int rank) {
  (void)rank;
  CHECK_CONTEXT("%s", path);
  walk got, want;
  same_through_source(path, UINT64_MAX, &got, &want);
  CHECK(want.n > 0);
  CHECK_EQ(got.n, want.n);
  CHECK(got.sum == want.sum);
  CHECK_EQ(got.rc, want.rc);
  CHECKF(strcmp(got.message, want.message) == 0, "'%s' != '%s'", got.message, want.message);

  /* Cut at 60 %: a truncated stream, the same records before the cut. */
  char cut[] = "/tmp/slog2-source-XXXXXX";
  int fd = mkstemp(cut);
  CHECK(fd >= 0);
  int in = open(path, O_RDONLY);
  off_t size = lseek(in, 0, SEEK_END);
  size_t n = (size_t)(size * 6 / 10);
  char *buf = malloc(n ? n : 1);
  CHECK(buf && pread(in, buf, n, 0) == (ssize_t)n && write(fd, buf, n) == (ssize_t)n);
  free(buf);
  close(in);
  close(fd);
  dumpi_file *f;
  dumpi_error e;
  if (dumpi_file_open(cut, &f, &e) == DUMPI_OK) { /* too short for the stream's biases otherwise */
    dumpi_file_close(f);
    CHECK_CONTEXT("%s cut at %zu bytes", path, n);
    same_through_source(cut, UINT64_MAX, &got, &want);
    CHECK_EQ(got.n, want.n);
    CHECK(got.sum == want.sum);
    CHECK_EQ(got.rc, want.rc);
    CHECKF(strcmp(got.message, want.message) == 0, "'%s' != '%s'", got.message, want.message);
  }
  unlink(cut);

  /* A read that fails partway: an I/O error naming the file and offset. */
  CHECK_CONTEXT("%s, a failing read", path);
  same_through_source(path, 1000, &got, &want);
  if (want.n > 40) { /* a stream longer than the first failing read */
    CHECK_EQ(got.rc, DUMPI_ERR_IO);
    CHECKF(strstr(got.message, path) && strstr(got.message, "offset ") && strstr(got.message, strerror(EIO)), "'%s'",
           got.message);
    CHECK(got.n < want.n);
  }
}

static void bad_sources(void) {
  int closed = 0;
  dumpi_source none = {&closed, 1000, NULL, NULL, NULL};
  dumpi_file *f = (dumpi_file *)&closed;
  dumpi_error e;
  CHECK_EQ(dumpi_file_open_source("x.bin", &none, &f, &e), DUMPI_ERR_INVALID);
  CHECK(f == NULL);
  source s = {.fd = -1, .fail_at = UINT64_MAX};
  dumpi_source tiny = {&s, 7, fill, read_some, close_source};
  CHECK_EQ(dumpi_file_open_source("tiny.bin", &tiny, &f, &e), DUMPI_ERR_NOT_DUMPI);
  CHECKF(strstr(e.message, "tiny.bin") && strstr(e.message, "too short"), "'%s'", e.message);
  CHECK_EQ(s.closed, 1);
  s.closed = 0;
  dumpi_source unreadable = {&s, 4096, fill, read_some, close_source}; /* fd -1: fill fails */
  s.begin = 16;
  s.end = 4096;
  CHECK_EQ(dumpi_file_open_source("gone.bin", &unreadable, &f, &e), DUMPI_ERR_IO);
  CHECKF(strstr(e.message, "gone.bin") && strstr(e.message, "read: "), "'%s'", e.message);
  CHECK_EQ(s.closed, 1);
}

int main(int argc, char **argv) {
  RUN(bad_sources);
  return for_each_rank(argc, argv, one_rank);
}
