/* SPDX-License-Identifier: MIT */
/* bench_dumpi_decode.c - decode speed of the DUMPI reader on one core.
 *
 * usage: bench_dumpi_decode [-t SECONDS] FILE.bin...
 * Each file is opened once and its stream decoded repeatedly (rewind)
 * until SECONDS (default 1) have passed; the file is then already in the
 * page cache, so this measures decoding, not the disk. Prints calls/s and
 * MB/s of stream bytes per file and over all files.
 */
#include "dumpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  double budget = 1.0;
  int first = 1;
  if (argc > 2 && strcmp(argv[1], "-t") == 0) {
    budget = atof(argv[2]);
    first = 3;
  }
  if (first >= argc) {
    fprintf(stderr, "usage: %s [-t SECONDS] FILE.bin...\n", argv[0]);
    return 2;
  }
  double all_t = 0, all_calls = 0, all_bytes = 0;
  printf("%-60s %10s %8s %10s %9s\n", "file", "calls", "MB", "Mcalls/s", "MB/s");
  for (int i = first; i < argc; i++) {
    dumpi_error err;
    dumpi_file *f;
    if (dumpi_file_open(argv[i], &f, &err) != DUMPI_OK) {
      fprintf(stderr, "%s\n", err.message);
      return 1;
    }
    dumpi_call call;
    double calls = 0, bytes = 0, t0 = now(), t;
    long per_pass = 0;
    int rc;
    do {
      dumpi_file_rewind(f);
      per_pass = 0;
      while ((rc = dumpi_file_next(f, &call, &err)) == 1) per_pass++;
      if (rc < 0) {
        fprintf(stderr, "%s\n", err.message);
        dumpi_file_close(f);
        return 1;
      }
      calls += (double)per_pass;
      bytes += (double)dumpi_file_stream_bytes(f);
      t = now() - t0;
    } while (t < budget);
    const char *name = strrchr(argv[i], '/');
    printf("%-60s %10ld %8.2f %10.2f %9.0f\n", name ? name + 1 : argv[i], per_pass,
           (double)dumpi_file_stream_bytes(f) / 1e6, calls / t / 1e6, bytes / t / 1e6);
    all_t += t;
    all_calls += calls;
    all_bytes += bytes;
    dumpi_file_close(f);
  }
  printf("TOTAL: %.2f Mcalls/s, %.0f MB/s (%.0f bytes/call)\n", all_calls / all_t / 1e6, all_bytes / all_t / 1e6,
         all_bytes / all_calls);
  return 0;
}
