/* SPDX-License-Identifier: MIT */
/* test_determinism.c - same options give byte-identical traces; another
 * seed gives different ones. */
#include "check.h"
#include "util.h"

static int same_file(const char *a, const char *b)
{
  size_t na = 0, nb = 0;
  uint8_t *pa = slurp(a, &na), *pb = slurp(b, &nb);
  int same = pa && pb && na == nb && memcmp(pa, pb, na) == 0;
  free(pa);
  free(pb);
  return same;
}

/* 1 if every file of run a equals the one of run b. */
static int same_run(const char *da, const char *db, int ranks)
{
  char a[4200], b[4200];
  snprintf(a, sizeof a, "%s/t.meta", da);
  snprintf(b, sizeof b, "%s/t.meta", db);
  int same = same_file(a, b);
  for (int r = 0; r < ranks; r++) {
    snprintf(a, sizeof a, "%s/t-%04d.bin", da, r);
    snprintf(b, sizeof b, "%s/t-%04d.bin", db, r);
    same = same && same_file(a, b);
  }
  return same;
}

/* A small run's configuration in a new scratch directory (*dir), its files
 * named from prefix (the caller's buffer, which the configuration keeps). */
static synth_config case_config(char **dir, const char *tag, char *prefix, size_t size, int ranks, int threads)
{
  *dir = scratch_dir(tag);
  snprintf(prefix, size, "%s/t", *dir);
  synth_config c = small_config(prefix);
  c.ranks = ranks;
  c.threads = threads;
  return c;
}

static void run_case(int ranks, int threads, int cpu)
{
  char *d[3];
  const char *tag[3] = {"a", "b", "c"};
  for (int i = 0; i < 3; i++) {
    char prefix[4200];
    synth_config c = case_config(&d[i], tag[i], prefix, sizeof prefix, ranks, threads);
    c.cpu_times = cpu;
    c.seed = i == 2 ? 2 : 1;
    CHECK(generate(&c) == 0);
  }
  CHECKF(same_run(d[0], d[1], ranks), "ranks %d threads %d: seed 1 twice differs", ranks, threads);
  CHECKF(!same_run(d[0], d[2], ranks), "ranks %d threads %d: seeds 1 and 2 agree", ranks, threads);
  for (int i = 0; i < 3; i++) rm_tree(d[i]);
}

/* Rank files written through two descriptors in all and small buffers (each
 * flush reopens a file) are the same bytes as with every file open. */
static void run_few_files(int ranks, int threads)
{
  char *d[2];
  const char *tag[2] = {"open", "few"};
  for (int i = 0; i < 2; i++) {
    char prefix[4200];
    synth_config c = case_config(&d[i], tag[i], prefix, sizeof prefix, ranks, threads);
    c.user_functions = 1;
    if (i == 1) {
      c.max_open_files = 2;
      c.buffer_budget = 1; /* the smallest buffers */
    }
    CHECK(generate(&c) == 0);
  }
  CHECKF(same_run(d[0], d[1], ranks), "ranks %d threads %d: two open files give other bytes", ranks, threads);
  for (int i = 0; i < 2; i++) rm_tree(d[i]);
}

int main(void)
{
  run_few_files(9, 0);
  run_few_files(5, 2);
  run_case(4, 0, 1);
  run_case(6, 3, 0);
  run_case(1, 0, 1);
  return 0;
}
