/* SPDX-License-Identifier: MIT */
/* test_dumpi_legacy.c - version-dependent argument layouts.
 *
 * Before DUMPI 0.6.9 libdumpi wrote MPI_Type_struct's "indices" as one bare
 * int32 where later versions write an int array (dumpi_table.c,
 * DUMPI_ARGF_SCALAR_BEFORE_0_6_9). No real trace the tests read has the call, so
 * this test writes a one-record .bin by hand for versions 0.6.8 and 0.6.9
 * and checks that each decodes with its own layout: the arguments after
 * "indices" come out right only if the decoder took the right number of
 * bytes for it. Needs nothing outside the repository.
 */
#include "check.h"
#include "dumpi.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct bytes {
  unsigned char b[512];
  size_t n;
} bytes;

static void be(bytes *o, uint64_t v, int width) {
  for (int i = width - 1; i >= 0; i--) o->b[o->n++] = (unsigned char)(v >> (8 * i));
}

enum { LABEL_TYPE_STRUCT = 40, LABEL_END = 293, DATATYPE_INT = 9 };

/* One MPI_Type_struct(count 2, lengths {3, 4}, indices, oldtypes {INT,
 * INT}, newtype 77) record in a file whose header says version 0.6.minor:
 * lead-in, biases, the record, end label, header, 8-entry index. */
static void write_trace(const char *path, int minor, int legacy) {
  bytes o = {{0}, 0};
  be(&o, UINT64_C(0xffaadd44554d5049), 8); /* lead-in magic */
  be(&o, 0, 4);                            /* CPU time bias */
  be(&o, 0, 4);                            /* wall time bias */
  be(&o, LABEL_TYPE_STRUCT, 2);
  be(&o, DUMPI_MASK_WALLTIME, 1);
  be(&o, 1, 2), be(&o, 500, 4);             /* wall start: 1 s 500 ns */
  be(&o, 1, 2), be(&o, 900, 4);             /* wall stop */
  be(&o, 2, 4);                             /* count */
  be(&o, 2, 4), be(&o, 3, 4), be(&o, 4, 4); /* lengths[2] */
  if (legacy) {
    be(&o, 16, 4); /* indices: one bare int32 */
  } else {
    be(&o, 2, 4), be(&o, 0, 4), be(&o, 16, 4); /* indices[2] */
  }
  be(&o, 2, 4), be(&o, DATATYPE_INT, 2), be(&o, DATATYPE_INT, 2); /* oldtypes */
  be(&o, 77, 2);                                                  /* newtype */
  be(&o, LABEL_END, 2);
  uint64_t header = o.n;
  o.b[o.n++] = 0, o.b[o.n++] = 6, o.b[o.n++] = (unsigned char)minor;
  be(&o, 1700000000, 8);                            /* start time */
  be(&o, 2, 2), o.b[o.n++] = 'v', o.b[o.n++] = 'm'; /* hostname */
  be(&o, 1, 2), o.b[o.n++] = 'u';                   /* username */
  be(&o, 0, 4);                                     /* no mesh */
  /* index: magic, sizes, addresses, perf labels, header, body, footer, keyval */
  be(&o, UINT64_C(0xffaadd44554d5049), 8);
  be(&o, 0, 8), be(&o, 0, 8), be(&o, 0, 8);
  be(&o, header, 8), be(&o, 8, 8), be(&o, 0, 8), be(&o, 0, 8);
  FILE *fp = fopen(path, "wb");
  if (!fp || fwrite(o.b, 1, o.n, fp) != o.n) {
    perror(path);
    exit(1);
  }
  fclose(fp);
}

static void check_version(int minor, int legacy) {
  char path[] = "/tmp/slog2-legacy-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    perror("mkstemp");
    exit(1);
  }
  close(fd);
  write_trace(path, minor, legacy);
  dumpi_file *f = NULL;
  dumpi_error err;
  int rc = dumpi_file_open(path, &f, &err);
  CHECKF(rc == DUMPI_OK, "0.6.%d: open: %s", minor, err.message);
  if (rc == DUMPI_OK) {
    dumpi_call c;
    rc = dumpi_file_next(f, &c, &err);
    CHECKF(rc == 1, "0.6.%d: first record: rc %d %s", minor, rc, err.message);
    if (rc == 1) {
      CHECKF(c.label == LABEL_TYPE_STRUCT && c.fn->n_args == 5, "0.6.%d: label %u", minor, c.label);
      CHECKF(c.wall_start + 400 == c.wall_stop, "0.6.%d: times", minor);
      const dumpi_value *v = c.args;
      CHECKF(v[0].i == 2, "0.6.%d: count %lld", minor, (long long)v[0].i);
      const int32_t *len = v[1].p, *ind = v[2].p, *old = v[3].p;
      CHECKF(v[1].i == 2 && len && len[0] == 3 && len[1] == 4, "0.6.%d: lengths", minor);
      /* the legacy scalar comes back as an array of one */
      CHECKF(dumpi_arg_present(&c, 2) && ind && v[2].i == (legacy ? 1 : 2) && ind[v[2].i - 1] == 16,
             "0.6.%d: indices: %lld values", minor, (long long)v[2].i);
      CHECKF(v[3].i == 2 && old && old[0] == DATATYPE_INT && old[1] == DATATYPE_INT, "0.6.%d: oldtypes (%lld values)",
             minor, (long long)v[3].i);
      CHECKF(v[4].i == 77, "0.6.%d: newtype %lld", minor, (long long)v[4].i);
      rc = dumpi_file_next(f, &c, &err);
      CHECKF(rc == 0, "0.6.%d: end of stream: rc %d %s", minor, rc, err.message);
    }
    dumpi_file_close(f);
  }
  unlink(path);
}

int main(void) {
  check_version(8, 1); /* indices as one int32 */
  check_version(9, 0); /* indices as an array, from 0.6.9 on */
  printf("PASS: MPI_Type_struct indices decoded by the 0.6.8 and 0.6.9 "
         "layouts\n");
  return 0;
}
