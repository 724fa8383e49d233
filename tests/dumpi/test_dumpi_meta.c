/* SPDX-License-Identifier: MIT */
/* test_dumpi_meta.c - finding a run's files from its .meta.
 *
 * usage: test_dumpi_meta TRACES_DIR
 * Uses testmpi-4r (relative fileprefix) and hpcg-4r (absolute fileprefix
 * of the recording machine), then a temp copy with a dead fileprefix and a
 * missing rank, and the explicit .bin list form; first, a run of many
 * ranks whose files are found in the directory's listing (links, a
 * directory and names that only look like rank files among them).
 */
#include "check.h"
#include "dumpi.h"

#include <dirent.h>
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

static void touch(const char *dir, const char *name) {
  char p[4096];
  snprintf(p, sizeof p, "%s/%s", dir, name);
  FILE *fp = fopen(p, "w");
  CHECKF(fp != NULL, "cannot create %s", p);
  fclose(fp);
}

/* The ranks found for a run of n_ranks in dir (its .meta "many.meta",
 * fileprefix ".../run") as a string of '+' (found, under "run"), 's'
 * (found under the .meta's own stem "many") and '-' (missing). */
static void found_ranks(const char *dir, int n_ranks, char *out) {
  char p[4096];
  snprintf(p, sizeof p, "%s/many.meta", dir);
  FILE *fp = fopen(p, "w");
  CHECK(fp != NULL);
  fprintf(fp, "hostname=h\nnumprocs=%d\nfileprefix=/recorded/on/run\n", n_ranks);
  fclose(fp);
  dumpi_meta *m;
  dumpi_error err;
  CHECKF(dumpi_meta_open(p, &m, &err) == DUMPI_OK, "%s", err.message);
  size_t n_missing;
  const int *missing = dumpi_meta_missing(m, &n_missing);
  size_t k = 0;
  for (int r = 0; r < n_ranks; r++) {
    const char *bin = dumpi_meta_bin_path(m, r);
    out[r] = !bin ? '-' : strstr(bin, "/many-") ? 's' : '+';
    if (!bin) CHECK(k < n_missing && missing[k++] == r);
  }
  out[n_ranks] = 0;
  CHECK_EQ(k, n_missing);
  dumpi_meta_free(m);
}

/* From some number of ranks on, the rank files are found in the
 * directory's listing, below it by a stat of each: both must find the
 * same files, taking links to regular files and nothing else. */
static void check_many_ranks(void) {
  char tmp[] = "/tmp/dumpi-many-XXXXXX";
  CHECK(mkdtemp(tmp) != NULL);
  enum { N = 200 };
  char name[64], p[4096];
  for (int r = 0; r < N; r++) {
    if (r == 5 || r == 6 || r == 8 || r == 9 || r == 10 || r == 11) continue;
    snprintf(name, sizeof name, "run-%04d.bin", r);
    touch(tmp, name);
  }
  snprintf(p, sizeof p, "%s/run-0006.bin", tmp); /* a directory */
  CHECK(mkdir(p, 0700) == 0);
  snprintf(p, sizeof p, "%s/run-0007.bin", tmp); /* a link to a file */
  unlink(p);
  CHECK(symlink("run-0000.bin", p) == 0);
  snprintf(p, sizeof p, "%s/run-0008.bin", tmp); /* a dangling link */
  CHECK(symlink("nowhere.bin", p) == 0);
  touch(tmp, "run-9.bin");        /* not "%04d" */
  touch(tmp, "run-00011.bin");    /* not "%04d" either */
  touch(tmp, "many-0010.bin");    /* only under the .meta's own name */
  touch(tmp, "many-0012.bin");    /* under both: the prefix's wins */
  touch(tmp, "run-0012.bin.txt"); /* not a .bin */
  touch(tmp, "run-0150.bin~");
  snprintf(name, sizeof name, "run-%04d.bin", N); /* past numprocs */
  touch(tmp, name);
  char few[N + 1], many[N + 1], want[N + 1];
  memset(want, '+', N);
  want[N] = 0;
  want[5] = want[6] = want[8] = want[9] = want[11] = '-';
  want[10] = 's';
  for (int n = 16; n <= N; n *= 2) { /* under and over the listing's threshold */
    found_ranks(tmp, n, few);
    CHECKF(strncmp(few, want, (size_t)n) == 0, "%d ranks: found %s\n want %.*s", n, few, n, want);
  }
  found_ranks(tmp, N, many);
  CHECKF(strcmp(many, want) == 0, "found %s\n want %s", many, want);
  DIR *d = opendir(tmp);
  CHECK(d != NULL);
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(p, sizeof p, "%s/%s", tmp, e->d_name);
    CHECKF(unlink(p) == 0 || rmdir(p) == 0, "cannot remove %s", p);
  }
  closedir(d);
  CHECK(rmdir(tmp) == 0);
}

int main(int argc, char **argv) {
  RUN(check_many_ranks);
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
