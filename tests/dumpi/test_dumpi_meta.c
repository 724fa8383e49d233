/* SPDX-License-Identifier: MIT */
/* test_dumpi_meta.c - finding a run's files from its .meta.
 *
 * usage: test_dumpi_meta TRACES_DIR
 * Uses testmpi-4r (relative fileprefix) and hpcg-4r (absolute fileprefix
 * of the recording machine), then a temp copy with a dead fileprefix and a
 * missing rank, and the explicit .bin list form.
 */
#include "check.h"
#include "dumpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void check_folder(const char *traces, const char *name) {
  char dir[4096];
  snprintf(dir, sizeof dir, "%s/%s", traces, name);
  dumpi_meta *m;
  dumpi_error err;
  int rc = dumpi_meta_open(dir, &m, &err);
  CHECK(rc == DUMPI_OK);
  if (rc) {
    fprintf(stderr, "%s\n", err.message);
    return;
  }
  CHECK(dumpi_meta_n_ranks(m) == 4);
  size_t n_missing = 9;
  dumpi_meta_missing(m, &n_missing);
  CHECK(n_missing == 0);
  for (int r = 0; r < 4; r++) {
    const char *p = dumpi_meta_bin_path(m, r);
    char want[16];
    snprintf(want, sizeof want, "-%04d.bin", r);
    CHECK(p && strncmp(p, dir, strlen(dir)) == 0 && strcmp(p + strlen(p) - 9, want) == 0);
  }
  CHECK(dumpi_meta_bin_path(m, 4) == NULL);
  CHECK(dumpi_meta_bin_path(m, -1) == NULL);
  CHECK(strcmp(dumpi_meta_get(m, "numprocs"), "4") == 0);
  CHECK(dumpi_meta_get(m, "hostname") != NULL);
  CHECK(dumpi_meta_get(m, "fileprefix") != NULL);
  CHECK(dumpi_meta_get(m, "no-such-key") == NULL);
  CHECK(dumpi_meta_n_keys(m) >= 7);
  const char *k, *v;
  CHECK(dumpi_meta_key_at(m, 0, &k, &v) == DUMPI_OK && k && v);
  /* the .meta path itself opens the same run */
  char meta[4096];
  snprintf(meta, sizeof meta, "%s", dumpi_meta_path(m));
  dumpi_meta *m2;
  CHECK(dumpi_meta_open(meta, &m2, &err) == DUMPI_OK);
  if (m2) {
    CHECK(strcmp(dumpi_meta_bin_path(m2, 3), dumpi_meta_bin_path(m, 3)) == 0);
    dumpi_meta_free(m2);
  }
  dumpi_meta_free(m);
}

int main(int argc, char **argv) {
  struct stat st;
  if (argc < 2 || stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
    SKIP("%s not found", argv[1]);
  }
  check_folder(argv[1], "testmpi-4r");
  check_folder(argv[1], "hpcg-4r");

  /* a copy with a dead absolute fileprefix, rank 2 missing, and a .meta
   * whose own name differs from the prefix */
  char tmp[] = "/tmp/dumpi-meta-XXXXXX";
  CHECK(mkdtemp(tmp) != NULL);
  char p[4096], src[4096];
  snprintf(p, sizeof p, "%s/renamed.meta", tmp);
  FILE *fp = fopen(p, "w");
  fprintf(fp, "hostname=h\r\nnumprocs=4\nusername=u\n\n  fileprefix = "
              "/dead/dir/run-1\nversion=13\n");
  fclose(fp);
  dumpi_meta *m;
  dumpi_error err;
  snprintf(src, sizeof src, "%s/testmpi-4r", argv[1]);
  dumpi_meta *orig;
  CHECK(dumpi_meta_open(src, &orig, &err) == DUMPI_OK);
  for (int r = 0; r < 4; r++) {
    if (r == 2) continue;
    char link[4096];
    snprintf(link, sizeof link, "%s/run-1-%04d.bin", tmp, r);
    char abs[4096];
    CHECK(realpath(dumpi_meta_bin_path(orig, r), abs) != NULL);
    CHECK(symlink(abs, link) == 0);
  }
  dumpi_meta_free(orig);
  CHECK(dumpi_meta_open(tmp, &m, &err) == DUMPI_OK);
  if (m) {
    size_t n_missing;
    const int *missing = dumpi_meta_missing(m, &n_missing);
    CHECK(n_missing == 1 && missing[0] == 2);
    CHECK(dumpi_meta_bin_path(m, 2) == NULL);
    CHECK(dumpi_meta_bin_path(m, 3) != NULL && strstr(dumpi_meta_bin_path(m, 3), "/run-1-0003.bin"));
    CHECK(strcmp(dumpi_meta_get(m, "hostname"), "h") == 0); /* CR gone */
    CHECK(strcmp(dumpi_meta_get(m, "fileprefix"), "/dead/dir/run-1") == 0);
    dumpi_meta_free(m);
  }

  /* explicit list of .bin files */
  const char *bins[3];
  char b0[4096], b1[4096], b3[4096];
  snprintf(b0, sizeof b0, "%s/run-1-0000.bin", tmp);
  snprintf(b1, sizeof b1, "%s/run-1-0001.bin", tmp);
  snprintf(b3, sizeof b3, "%s/run-1-0003.bin", tmp);
  bins[0] = b3;
  bins[1] = b0;
  bins[2] = b1;
  CHECK(dumpi_meta_from_bins(bins, 3, &m, &err) == DUMPI_OK);
  if (m) {
    size_t n_missing;
    const int *missing = dumpi_meta_missing(m, &n_missing);
    CHECK(dumpi_meta_n_ranks(m) == 4);
    CHECK(n_missing == 1 && missing[0] == 2);
    CHECK(strcmp(dumpi_meta_bin_path(m, 3), b3) == 0);
    CHECK(dumpi_meta_path(m) == NULL);
    dumpi_meta_free(m);
  }
  bins[1] = b3; /* rank 3 twice */
  CHECK(dumpi_meta_from_bins(bins, 2, &m, &err) == DUMPI_ERR_INVALID);

  /* errors */
  CHECK(dumpi_meta_open("/nonexistent/x.meta", &m, &err) == DUMPI_ERR_NOT_FOUND);
  fp = fopen(p, "w");
  fprintf(fp, "hostname=h\nnumprocs=lots\n");
  fclose(fp);
  CHECK(dumpi_meta_open(p, &m, &err) == DUMPI_ERR_CORRUPT);
  CHECK(strstr(err.message, "numprocs") != NULL);
  unlink(p);
  CHECK(dumpi_meta_open(tmp, &m, &err) == DUMPI_ERR_NOT_FOUND);

  for (int r = 0; r < 4; r++) {
    char link[4096];
    snprintf(link, sizeof link, "%s/run-1-%04d.bin", tmp, r);
    unlink(link);
  }
  rmdir(tmp);
  return 0;
}
