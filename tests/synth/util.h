/* SPDX-License-Identifier: MIT */
/* util.h - shared helpers of the slog2-synth tests: scratch directories,
 * running the generator in-process, reading whole files. */
#ifndef SLOG2_SYNTH_TEST_UTIL_H
#define SLOG2_SYNTH_TEST_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

/* mkdtemp under $TMPDIR; the caller removes it with rm_tree(). */
static inline char *scratch_dir(const char *tag)
{
  const char *base = getenv("TMPDIR");
  char *p = malloc(4096);
  snprintf(p, 4096, "%s/slog2-synth-%s-XXXXXX", base && *base ? base : "/tmp", tag);
  if (!mkdtemp(p)) {
    perror("mkdtemp");
    exit(1);
  }
  return p;
}

static inline void rm_tree(char *dir)
{
  DIR *d = opendir(dir);
  if (d) {
    struct dirent *e;
    char path[4096];
    while ((e = readdir(d))) {
      if (e->d_name[0] == '.') continue;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      unlink(path);
    }
    closedir(d);
  }
  rmdir(dir);
  free(dir);
}

/* Default small configuration; tests adjust fields. */
static inline synth_config small_config(const char *prefix)
{
  synth_config c = {
      .ranks = 4,
      .threads = 0,
      .calls_per_rank = 3000,
      .size = 0,
      .seed = 1,
      .cpu_times = 1,
      .statuses = 1,
      .out_prefix = prefix,
      .progress = 0,
      .buffer_budget = 1u << 20,
  };
  return c;
}

static inline int generate(const synth_config *c)
{
  synth_result res;
  char err[512];
  if (synth_run(c, &res, err, sizeof err) != 0) {
    fprintf(stderr, "synth_run: %s\n", err);
    return -1;
  }
  return 0;
}

/* Whole file into memory (tests use small traces). */
static inline uint8_t *slurp(const char *path, size_t *n)
{
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t *p = malloc(len > 0 ? (size_t)len : 1);
  if (p && fread(p, 1, (size_t)len, f) != (size_t)len) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *n = (size_t)len;
  return p;
}

#endif
