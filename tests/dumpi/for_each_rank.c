/* SPDX-License-Identifier: MIT */
/* for_each_rank.c - see for_each_rank.h. */
#include "for_each_rank.h"

#include "check.h"

#include <stdio.h>
#include <sys/stat.h>

#include "dumpi.h"

int for_each_rank(int argc, char **argv, void (*fn)(const char *path, int rank)) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s TRACES_DIR FOLDER...\n", argv[0]);
    return 2;
  }
  struct stat st;
  if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
    SKIP("%s not found", argv[1]);
  }
  int rc = 0;
  for (int a = 2; a < argc; a++) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%s", argv[1], argv[a]);
    dumpi_meta *m;
    dumpi_error err;
    if (dumpi_meta_open(dir, &m, &err) != DUMPI_OK) {
      fprintf(stderr, "FAIL %s\n", err.message);
      rc = 1;
      continue;
    }
    for (int r = 0; r < dumpi_meta_n_ranks(m); r++)
      if (dumpi_meta_bin_path(m, r)) fn(dumpi_meta_bin_path(m, r), r);
    dumpi_meta_free(m);
  }
  return rc;
}
