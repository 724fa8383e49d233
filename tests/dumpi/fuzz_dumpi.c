/* SPDX-License-Identifier: MIT */
/* fuzz_dumpi.c - libFuzzer target: open + iterate + every accessor, and
 * the same records met by dumpi_file_next_times().
 *
 * Build with -DSLOG2_FUZZ=ON and clang; run e.g.
 *   ./fuzz_dumpi -max_len=8192 "$SLOG2_SHARED_DIR/traces/sst-dumpi-testtrace/"
 * (the .bin files there are good seeds). The reader works on files, so
 * each input is written to one temp file per process.
 */
#include "dumpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!path[0]) snprintf(path, sizeof path, "/tmp/fuzz_dumpi.%d.bin", (int)getpid());
  unlink(path); /* new inode: see test_dumpi_malformed.c */
  FILE *fp = fopen(path, "wb");
  if (!fp) return 0;
  if (size) fwrite(data, 1, size, fp);
  fclose(fp);

  dumpi_file *f;
  dumpi_error err;
  if (dumpi_file_open(path, &f, &err) != DUMPI_OK) return 0;
  const uint32_t *calls, *ignored;
  (void)dumpi_file_footer_counts(f, &calls, &ignored);
  (void)dumpi_file_datatype_size(f, 9);
  dumpi_call c;
  int rc;
  unsigned long n = 0;
  while ((rc = dumpi_file_next(f, &c, &err)) == 1 && n++ < size) {
    for (int i = 0; i < c.fn->n_args; i++) {
      int32_t k = 0;
      (void)dumpi_call_int(&c, i);
      const int32_t *a = dumpi_call_int_array(&c, i, &k);
      for (int32_t j = 0; a && j < k; j++) (void)a[j];
      const dumpi_status *s = dumpi_call_statuses(&c, i, &k);
      for (int32_t j = 0; s && j < k; j++) (void)s[j].tag;
      const char *str = dumpi_call_string(&c, i);
      if (str) (void)strlen(str);
      const char *const *sv = dumpi_call_string_array(&c, i, &k);
      for (int32_t j = 0; sv && j < k; j++) (void)strlen(sv[j]);
      const dumpi_int_row *rows = dumpi_call_int_array_2d(&c, i, &k);
      for (int32_t j = 0; rows && j < k; j++)
        for (int32_t q = 0; q < rows[j].n; q++) (void)rows[j].v[q];
    }
    for (int32_t i = 0; i < dumpi_call_n_completed(&c); i++) {
      int32_t req;
      const dumpi_status *st;
      dumpi_call_completed(&c, i, &req, &st);
    }
  }
  if (n > size) abort(); /* a record is at least 3 bytes: the stream must end */
  /* The look at labels and times (slog2-build's sample) meets the same
   * records and the same end, through the general walk, then the
   * straight-line one (CPU times skipped) through a window a record
   * often runs past. */
  for (int pass = 0; pass < 2; pass++) {
    if (pass) {
      dumpi_file_skip_cpu_times(f);
      dumpi_file_set_window(f, 24);
    }
    dumpi_file_rewind(f);
    unsigned long m = 0;
    int rc_t;
    while ((rc_t = dumpi_file_next_times(f, &c, &err)) == 1 && m++ < size) {
    }
    if (m != n || rc_t != rc) abort();
  }
  dumpi_file_close(f);
  return 0;
}
