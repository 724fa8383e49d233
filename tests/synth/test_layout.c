/* SPDX-License-Identifier: MIT */
/* test_layout.c - file-level layout of generated .bin files, checked with
 * this test's own minimal parser (not the project decoder): lead-in magic,
 * stream start, end-of-stream label, header, footer, keyval, perf labels,
 * datatype sizes, function addresses and the index record at the end, each
 * in bounds and where the previous section ends. The same checker is run
 * on a real libdumpi trace (SLOG2_SHARED_DIR/traces) when it is there, to show the
 * generated layout is the real one. Also checks the .meta and --size.
 */
#include "check.h"
#include "util.h"

#include <sys/stat.h>

#define HEAD_MAGIC 0xffaadd44554d5049ULL
#define FOOT_MAGIC 0x00000000f007fee7ULL
#define N_COUNTS   291 /* labels 0..290 */

static uint64_t be(const uint8_t *p, int n)
{
  uint64_t v = 0;
  for (int i = 0; i < n; i++) v = v << 8 | p[i];
  return v;
}

/* Checks one .bin; returns the header's start time (0 on failure). */
static uint64_t check_bin(const char *path, int want_threads_ok)
{
  size_t n;
  uint8_t *b = slurp(path, &n);
  CHECKF(b != NULL, "cannot read %s", path);
  if (!b) return 0;
  uint64_t start = 0;
  CHECKF(n >= 8 + 8 + 64 && be(b, 8) == HEAD_MAGIC, "%s: no lead-in magic", path);
  if (n < 8 + 8 + 64) goto done;
  const uint8_t *ix = b + n - 64;
  CHECKF(be(ix, 8) == HEAD_MAGIC, "%s: index has no magic", path);
  uint64_t sizelbl = be(ix + 8, 8), addrlbl = be(ix + 16, 8), perflbl = be(ix + 24, 8);
  uint64_t header = be(ix + 32, 8), body = be(ix + 40, 8), footer = be(ix + 48, 8);
  uint64_t keyval = be(ix + 56, 8);
  uint64_t end = n - 64;
  CHECK(body == 8);
  CHECK(keyval == 0); /* libdumpi never fills the keyval pointer in */
  /* In bounds and in libdumpi's order. */
  int order =
      body < header && header < footer && footer < perflbl && perflbl < sizelbl && sizelbl < addrlbl && addrlbl < end;
  CHECKF(order, "%s: sections out of order or out of bounds", path);
  if (!order) goto done;
  /* First record right after the two time biases. */
  uint16_t first = (uint16_t)be(b + 16, 2);
  CHECKF(first == 124 || first == 171 || first == 126 || (want_threads_ok && first < 290), "%s: first record label %u",
         path, first);
  /* End-of-stream label just before the header. */
  CHECK(be(b + header - 2, 2) == 293);
  /* Header: version, start time, hostname, username, two mesh arrays. */
  const uint8_t *h = b + header;
  uint64_t p = header;
  CHECK(h[0] == 13 && h[1] == 0 && h[2] == 0);
  start = be(h + 3, 8);
  p += 11;
  for (int s = 0; s < 2 && p + 2 <= end; s++) p += 2 + be(b + p, 2);
  for (int a = 0; a < 2 && p + 4 <= end; a++) p += 4 + 4 * be(b + p, 4);
  CHECKF(p == footer, "%s: header ends at %llu, footer at %llu", path, (unsigned long long)p,
         (unsigned long long)footer);
  /* Footer: magic, call counts (last = total), ignored counts. */
  CHECK(be(b + footer, 8) == FOOT_MAGIC);
  uint64_t sum = 0;
  for (int i = 0; i < N_COUNTS - 1; i++) sum += be(b + footer + 8 + 4 * i, 4);
  CHECK(be(b + footer + 8 + 4 * (N_COUNTS - 1), 4) == sum);
  CHECK(sum > 0);
  p = footer + 8 + 8 * N_COUNTS;
  /* Keyval record: count 0. */
  CHECK(be(b + p, 4) == 0);
  p += 4;
  CHECK(p == perflbl);
  uint64_t n_perf = be(b + perflbl, 4);
  p = perflbl + 4;
  for (uint64_t i = 0; i < n_perf && p + 2 <= end; i++) p += 2 + be(b + p, 2);
  CHECK(p == sizelbl);
  uint64_t n_sizes = be(b + sizelbl, 4);
  CHECK(n_sizes >= 28);
  CHECK(sizelbl + 4 + 4 * n_sizes == addrlbl);
  CHECK(be(b + sizelbl + 4 + 4 * 14, 4) == 8); /* MPI_DOUBLE */
  uint64_t n_addr = be(b + addrlbl, 4);
  p = addrlbl + 4;
  for (uint64_t i = 0; i < n_addr && p + 10 <= end; i++) p += 8 + 2 + be(b + p + 8, 2);
  CHECKF(p == end, "%s: function addresses end at %llu, index at %llu", path, (unsigned long long)p,
         (unsigned long long)end);
done:
  free(b);
  return start;
}

static void check_meta(const char *path, int ranks, uint64_t start)
{
  size_t n;
  char *m = (char *)slurp(path, &n);
  CHECKF(m != NULL, "cannot read %s", path);
  if (!m) return;
  m = realloc(m, n + 1);
  m[n] = '\0';
  char want[128];
  snprintf(want, sizeof want, "numprocs=%d\n", ranks);
  CHECK(strstr(m, want) != NULL);
  snprintf(want, sizeof want, "startime=%llu\n", (unsigned long long)start);
  CHECK(strstr(m, want) != NULL);
  CHECK(strstr(m, "fileprefix=t\n") != NULL);
  CHECK(strstr(m, "version=13\nsubversion=0\nsubsubversion=0\n") != NULL);
  CHECK(strncmp(m, "hostname=", 9) == 0);
  free(m);
}

static uint64_t run_and_check(const char *tag, synth_config c)
{
  char *dir = scratch_dir(tag);
  char prefix[4200], path[4300];
  snprintf(prefix, sizeof prefix, "%s/t", dir);
  c.out_prefix = prefix;
  uint64_t total = 0;
  if (generate(&c) == 0) {
    uint64_t start = 0;
    for (int r = 0; r < c.ranks; r++) {
      snprintf(path, sizeof path, "%s-%04d.bin", prefix, r);
      uint64_t s = check_bin(path, 0);
      CHECK(r == 0 || s == start);
      start = s;
      struct stat st;
      if (stat(path, &st) == 0) total += (uint64_t)st.st_size;
    }
    snprintf(path, sizeof path, "%s.meta", prefix);
    check_meta(path, c.ranks, start);
  } else {
    CHECK(0);
  }
  rm_tree(dir);
  return total;
}

int main(void)
{
  synth_config c = small_config(NULL);
  run_and_check("layout", c);
  c.threads = 4;
  c.cpu_times = 0;
  c.statuses = 0;
  run_and_check("layout-t", c);

  /* --size: the total lands within 1% of the request. */
  c = small_config(NULL);
  c.ranks = 5;
  c.size = 3u << 20;
  uint64_t total = run_and_check("size", c);
  CHECKF(total >= c.size - c.size / 100 && total <= c.size + c.size / 100, "asked for %llu bytes, got %llu",
         (unsigned long long)c.size, (unsigned long long)total);

  /* The same checker accepts what the real libdumpi wrote. */
  const char *real = SLOG2_SHARED_DIR "/traces/testmpi-4r/testmpi-2026.11.21.22.32.46-0000.bin";
  if (access(real, R_OK) == 0)
    check_bin(real, 1);
  else
    printf("skipping the real-trace comparison: %s not found\n", real);

  return 0;
}
