/* SPDX-License-Identifier: MIT */
/* test_dumpi_prefetch.c - dumpi_file_prefetch(): a hint that starts the
 * reads open will make, and nothing else.
 *
 * usage: test_dumpi_prefetch DIR
 * In DIR (files named with the process id, a disk-backed directory: the test skips where the page cache
 * will not let a file go, as on tmpfs), a 2 MiB file is written, synced
 * and dropped from the page cache; after the hint its first and last
 * pages come into the cache and a page in the middle, which open does
 * not read, does not. The hint holds no descriptor, whatever the path: a
 * file, a missing one, a directory, an empty file, NULL. dumpi_read_ahead
 * over 80 small rank files, their "opens" made slow by sleeping: no hint
 * while the opens are fast, or slow but not eight in a row; after eight
 * in a row, the files up to 64 ahead of the open under way.
 */
#include "check.h"
#include "dumpi.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FILE_BYTES (2u << 20)

static long page;

/* Descriptors the process holds. */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  CHECK(d != NULL);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n - 1; /* opendir's own */
}

/* Which pages of path are in the page cache (v[i] & 1 for page i);
 * returns how many. */
static int cached_pages(const char *path, unsigned char *v) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  CHECK(fd >= 0);
  struct stat st;
  CHECK(fstat(fd, &st) == 0 && st.st_size > 0 && (uint64_t)st.st_size <= FILE_BYTES);
  /* PROT_NONE: Valgrind reads the head of a file mapped readable. */
  void *m = mmap(NULL, (size_t)st.st_size, PROT_NONE, MAP_SHARED, fd, 0);
  CHECK(m != MAP_FAILED);
  CHECK(mincore(m, (size_t)st.st_size, v) == 0);
  munmap(m, (size_t)st.st_size);
  close(fd);
  int n = 0;
  for (uint64_t i = 0; i < ((uint64_t)st.st_size + (uint64_t)page - 1) / (uint64_t)page; i++) n += v[i] & 1;
  return n;
}

/* Whether the page of path at off is in the page cache. */
static int resident(const char *path, uint64_t off) {
  unsigned char v[FILE_BYTES / 4096];
  cached_pages(path, v);
  return v[off / (uint64_t)page] & 1;
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&t, NULL);
}

/* The n files dropped from the page cache, or the test skipped where the
 * cache keeps them (tmpfs). Pages still being written back or read stay:
 * a few tries. */
static void evict_or_skip(const char *const *paths, int n) {
  for (int tries = 0;; tries++) {
    int left = 0;
    for (int i = 0; i < n; i++) {
      int fd = open(paths[i], O_RDONLY | O_CLOEXEC);
      CHECK(fd >= 0);
      CHECK(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0);
      close(fd);
      unsigned char v[FILE_BYTES / 4096];
      left += cached_pages(paths[i], v);
    }
    if (!left) return;
    if (tries == 50) SKIP("%s: the page cache keeps files after POSIX_FADV_DONTNEED (tmpfs?)", paths[0]);
    sleep_ms(20);
  }
}

static char dir[4096], path[4200];

static void make_file(void) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  CHECK(fd >= 0);
  static unsigned char buf[FILE_BYTES];
  for (size_t i = 0; i < sizeof buf; i++) buf[i] = (unsigned char)(i * 7 + 1);
  CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
  CHECK(fsync(fd) == 0);
  close(fd);
}

static void test_reads_what_open_reads(void) {
  const uint64_t first = 0, last = FILE_BYTES - (uint64_t)page, middle = FILE_BYTES / 2;
  evict_or_skip((const char *const[]){path}, 1);
  dumpi_file_prefetch(path, 2048);
  /* The reads complete in the background. */
  for (int ms = 0; ms < 10000 && !(resident(path, first) && resident(path, last)); ms += 10) sleep_ms(10);
  CHECK(resident(path, first));
  CHECK(resident(path, last));
  CHECKF(!resident(path, middle), "the middle of a %u-byte file was read: open does not read it", FILE_BYTES);
}

/* dumpi_read_ahead over N_RANKS small rank files: which ranks' files it
 * hinted, told by their first pages coming into the page cache. */
#define N_RANKS 80
#define AHEAD   64 /* the files it keeps hinted ahead */

static char rank_path[N_RANKS][4200];

static void make_ranks(void) {
  static unsigned char buf[16384];
  memset(buf, 0x5a, sizeof buf);
  for (int r = 0; r < N_RANKS; r++) {
    CHECK(snprintf(rank_path[r], sizeof rank_path[r], "%s/ahead-%ld-%04d.bin", dir, (long)getpid(), r) <
          (int)sizeof rank_path[r]);
    int fd = open(rank_path[r], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    CHECK(fd >= 0);
    CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
    CHECK(fsync(fd) == 0);
    close(fd);
  }
}

/* Runs ranks [0, upto] through dumpi_read_ahead, each "open" taking
 * open_us[rank] microseconds, and checks that exactly the ranks in
 * [hint_lo, hint_hi) were hinted (none when hint_lo == hint_hi). */
static void run_ahead(const unsigned *open_us, int upto, int hint_lo, int hint_hi) {
  const char *paths[N_RANKS];
  for (int r = 0; r < N_RANKS; r++) paths[r] = rank_path[r];
  dumpi_meta *meta = NULL;
  dumpi_error e;
  CHECK_STATUS(dumpi_meta_from_bins(paths, N_RANKS, &meta, &e), DUMPI_OK, dumpi_strerror);
  evict_or_skip(paths, N_RANKS);
  dumpi_read_ahead a;
  dumpi_read_ahead_init(&a, meta, N_RANKS, 2048);
  for (int r = 0; r <= upto; r++) {
    dumpi_read_ahead_before(&a, (uint32_t)r);
    if (r < upto) {
      if (open_us[r]) nanosleep(&(struct timespec){0, (long)open_us[r] * 1000L}, NULL);
      dumpi_read_ahead_after(&a, (uint32_t)r);
    }
  }
  for (int r = hint_lo, ms = 0; r < hint_hi; r++)
    for (; ms < 10000 && !resident(rank_path[r], 0); ms += 10) sleep_ms(10);
  sleep_ms(50); /* a hint wrongly given has had its time too */
  for (int r = 0; r < N_RANKS; r++)
    CHECKF(resident(rank_path[r], 0) == (r >= hint_lo && r < hint_hi), "rank %d: resident %d, hinted [%d, %d)", r,
           resident(rank_path[r], 0), hint_lo, hint_hi);
  dumpi_meta_free(meta);
}

/* Opens from the page cache: no hints. */
static void test_ahead_not_when_fast(void) {
  unsigned us[N_RANKS] = {0};
  run_ahead(us, N_RANKS - 1, 0, 0);
}

/* Eight slow opens in a row: the next files are hinted, 64 ahead of the
 * open under way. */
static void test_ahead_after_slow_opens(void) {
  unsigned us[N_RANKS] = {0};
  for (int r = 0; r < 8; r++) us[r] = 200;
  run_ahead(us, 8, 8, 8 + AHEAD + 1);
}

/* Slow opens broken by a fast one are no sign. */
static void test_ahead_needs_a_run(void) {
  unsigned us[N_RANKS] = {0};
  for (int r = 0; r < 15; r++) us[r] = r == 7 ? 0 : 200;
  run_ahead(us, 14, 0, 0);
}

static void test_holds_no_descriptor(void) {
  char empty[4096], missing[4096];
  CHECK(snprintf(empty, sizeof empty, "%s/prefetch-empty-%ld.bin", dir, (long)getpid()) < (int)sizeof empty);
  CHECK(snprintf(missing, sizeof missing, "%s/prefetch-missing-%ld.bin", dir, (long)getpid()) < (int)sizeof missing);
  int fd = open(empty, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  CHECK(fd >= 0);
  close(fd);
  unlink(missing);
  int before = open_fds();
  dumpi_file_prefetch(path, 0);
  dumpi_file_prefetch(path, 1u << 20);
  dumpi_file_prefetch(empty, 2048);
  dumpi_file_prefetch(missing, 2048);
  dumpi_file_prefetch(dir, 2048);
  dumpi_file_prefetch(NULL, 2048);
  CHECK_EQ(open_fds(), before);
  unlink(empty);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  page = sysconf(_SC_PAGESIZE);
  CHECK(page > 0 && FILE_BYTES % page == 0 && (long)FILE_BYTES / page <= (long)(FILE_BYTES / 4096));
  CHECK(snprintf(dir, sizeof dir, "%s", argv[1]) < (int)sizeof dir);
  CHECK(snprintf(path, sizeof path, "%s/prefetch-%ld.bin", dir, (long)getpid()) < (int)sizeof path);
  make_file();
  RUN(test_reads_what_open_reads);
  RUN(test_holds_no_descriptor);
  make_ranks();
  RUN(test_ahead_not_when_fast);
  RUN(test_ahead_after_slow_opens);
  RUN(test_ahead_needs_a_run);
  for (int r = 0; r < N_RANKS; r++) unlink(rank_path[r]);
  unlink(path);
  return 0;
}
