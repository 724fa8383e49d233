/* SPDX-License-Identifier: MIT */
/* test_dumpi_malformed.c - damaged .bin files never crash the reader.
 *
 * usage: test_dumpi_malformed [--window BYTES] TRACES_DIR FOLDER...
 * For rank 0 of each FOLDER, written into a fresh temp directory:
 *  - truncated copies at every length (every 7th under valgrind): open
 *    works from 8 bytes on, every record that lies wholly before the cut
 *    comes back identical, then DUMPI_ERR_TRUNCATED with the offset of the
 *    first incomplete record (or a clean end when the cut is past the
 *    stream);
 *  - bit-flipped copies (fixed seed): open + iterate ends with a result,
 *    errors carry the path and an offset inside the file;
 *  - crafted damage: foreign file, empty file, index offset outside the
 *    file, bad footer magic, unknown label, absurd array length;
 *  - a copy padded after its footer, larger than open reads whole and with
 *    its header and footer outside the tail it reads: the same records and
 *    sections, then the truncations (sampled), flips and damage above.
 * Exit 0 pass, 1 fail, 77 when TRACES_DIR is missing.
 */
#include "check.h"
#include "dumpi.h"
#include "for_each_rank.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[256];
static size_t window; /* --window: the decoder's read window, 0 = default */

typedef struct rec {
  uint16_t label;
  uint64_t offset;
  uint32_t size;
  int64_t wall_start, wall_stop;
} rec;

static unsigned char *slurp(const char *path, size_t *n) {
  FILE *fp = fopen(path, "rb");
  if (!fp) return NULL;
  fseek(fp, 0, SEEK_END);
  long len = ftell(fp);
  rewind(fp);
  unsigned char *b = malloc((size_t)len + 1);
  if (b && fread(b, 1, (size_t)len, fp) != (size_t)len) {
    free(b);
    b = NULL;
  }
  fclose(fp);
  *n = (size_t)len;
  return b;
}

static const char *spill(const char *name, const unsigned char *b, size_t n) {
  static char path[512];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  /* a new inode each time: ext4 flushes a file truncated while its data
   * is still dirty (auto_da_alloc), which made this test crawl */
  unlink(path);
  FILE *fp = fopen(path, "wb");
  if (!fp || (n && fwrite(b, 1, n, fp) != n)) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
  fclose(fp);
  return path;
}

/* Decode a file; returns the final code (0 clean end, <0 error). */
static int decode(const char *path, rec *out, size_t max, size_t *n, dumpi_error *err, int *open_rc) {
  dumpi_file *f;
  *n = 0;
  *open_rc = dumpi_file_open(path, &f, err);
  if (*open_rc != DUMPI_OK) return *open_rc;
  if (window) dumpi_file_set_window(f, window);
  dumpi_call c;
  int rc;
  uint64_t size = dumpi_file_size(f);
  while ((rc = dumpi_file_next(f, &c, err)) == 1) {
    if (out && *n < max) {
      rec r = {c.label, c.offset, c.size, c.wall_start, c.wall_stop};
      out[*n] = r;
    }
    (*n)++;
    /* every record takes at least 3 bytes: no endless loop */
    if (*n > size) {
      rc = -100;
      break;
    }
    /* touch every argument through the accessors */
    for (int i = 0; i < c.fn->n_args; i++) {
      int32_t k = 0;
      (void)dumpi_call_int(&c, i);
      const int32_t *a = dumpi_call_int_array(&c, i, &k);
      for (int32_t j = 0; a && j < k; j++) (void)a[j];
      const char *s = dumpi_call_string(&c, i);
      if (s) (void)strlen(s);
    }
    for (int32_t i = 0; i < dumpi_call_n_completed(&c); i++) {
      int32_t req;
      const dumpi_status *st;
      dumpi_call_completed(&c, i, &req, &st);
    }
  }
  if (rc < 0) {
    /* the error sticks */
    dumpi_error again;
    int rc2 = dumpi_file_next(f, &c, &again);
    CHECKF(rc2 == rc, "%s: second call gave %d after %d", path, rc2, rc);
  }
  dumpi_file_close(f);
  return rc;
}

static void check_truncations(const char *bin, const unsigned char *b, size_t n, const rec *full, size_t n_full,
                              int stride) {
  rec *got = malloc((n_full + 1) * sizeof *got);
  uint64_t stream_end = n_full ? full[n_full - 1].offset + full[n_full - 1].size : 16;
  for (size_t len = 0; len < n; len += (size_t)stride) {
    const char *p = spill("trunc.bin", b, len);
    dumpi_error err;
    int open_rc;
    size_t k;
    int rc = decode(p, got, n_full + 1, &k, &err, &open_rc);
    if (len < 8) {
      CHECKF(open_rc == DUMPI_ERR_NOT_DUMPI, "%s cut at %zu: open %d", bin, len, open_rc);
      continue;
    }
    if (len < 16) { /* no room for the time biases */
      CHECKF(open_rc == DUMPI_ERR_TRUNCATED, "%s cut at %zu: open %d", bin, len, open_rc);
      continue;
    }
    CHECKF(open_rc == DUMPI_OK, "%s cut at %zu: open %d %s", bin, len, open_rc, err.message);
    /* records wholly before the cut */
    size_t want = 0;
    while (want < n_full && full[want].offset + full[want].size <= len) want++;
    CHECKF(k == want, "%s cut at %zu: %zu records, want %zu", bin, len, k, want);
    for (size_t i = 0; i < k && i < want; i++)
      CHECKF(got[i].label == full[i].label && got[i].wall_start == full[i].wall_start &&
                 got[i].wall_stop == full[i].wall_stop,
             "%s cut at %zu: record %zu differs", bin, len, i);
    if (len >= stream_end + 2) {
      CHECKF(rc == 0, "%s cut at %zu (after the stream): rc %d %s", bin, len, rc, err.message);
    } else {
      uint64_t at = want < n_full ? full[want].offset : stream_end;
      CHECKF(rc == DUMPI_ERR_TRUNCATED && err.offset == at && strstr(err.message, "trunc.bin"),
             "%s cut at %zu: rc %d offset %llu (want %llu) %s", bin, len, rc, (unsigned long long)err.offset,
             (unsigned long long)at, err.message);
    }
  }
  free(got);
}

static void check_flips(const char *bin, const unsigned char *b, size_t n, int count) {
  unsigned char *c = malloc(n);
  unsigned long long seed = 0x9e3779b97f4a7c15ULL;
  int errors = 0;
  for (int i = 0; i < count; i++) {
    memcpy(c, b, n);
    int flips = 1 + i % 3;
    for (int j = 0; j < flips; j++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t at = (size_t)((seed >> 33) % n);
      c[at] ^= (unsigned char)(1u << ((seed >> 20) & 7));
    }
    const char *p = spill("flip.bin", c, n);
    dumpi_error err;
    int open_rc;
    size_t k;
    int rc = decode(p, NULL, 0, &k, &err, &open_rc);
    CHECKF(rc != -100, "%s flip %d: endless stream", bin, i);
    if (rc < 0) {
      errors++;
      CHECKF(err.code == rc && strstr(err.message, "flip.bin") && err.offset <= n,
             "%s flip %d: rc %d, err code %d offset %llu message %s", bin, i, rc, err.code,
             (unsigned long long)err.offset, err.message);
    }
  }
  printf("  %d bit-flipped copies: %d ended in an error, none crashed\n", count, errors);
  free(c);
}

static void put_u32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

static void check_crafted(const char *bin, const unsigned char *b, size_t n, const rec *full, size_t n_full) {
  dumpi_error err;
  int open_rc;
  size_t k;
  unsigned char *c = malloc(n + 64);

  /* foreign files */
  const char *p = spill("foreign.bin", (const unsigned char *)"hostname=vm\nnumprocs=4\nusername=x\n", 34);
  decode(p, NULL, 0, &k, &err, &open_rc);
  CHECKF(open_rc == DUMPI_ERR_NOT_DUMPI && err.offset == 0, "foreign: %d", open_rc);
  p = spill("empty.bin", b, 0);
  decode(p, NULL, 0, &k, &err, &open_rc);
  CHECKF(open_rc == DUMPI_ERR_NOT_DUMPI, "empty: %d", open_rc);
  decode("/nonexistent/x.bin", NULL, 0, &k, &err, &open_rc);
  CHECKF(open_rc == DUMPI_ERR_IO, "missing file: %d", open_rc);

  /* index entry (body, 3rd from the end) pointing outside the file */
  memcpy(c, b, n);
  put_u32(c + n - 24, 0x7fffffff);
  p = spill("index.bin", c, n);
  decode(p, NULL, 0, &k, &err, &open_rc);
  CHECKF(open_rc == DUMPI_ERR_CORRUPT && err.offset == n - 24, "index outside: %d offset %llu %s", open_rc,
         (unsigned long long)err.offset, err.message);

  /* footer magic (footer offset is the 2nd u64 from the end) */
  memcpy(c, b, n);
  uint64_t footer = 0;
  for (int i = 0; i < 8; i++) footer = footer << 8 | b[n - 16 + (size_t)i];
  if (footer && footer + 8 <= n) {
    c[footer + 7] ^= 0x55;
    p = spill("footer.bin", c, n);
    decode(p, NULL, 0, &k, &err, &open_rc);
    CHECKF(open_rc == DUMPI_ERR_CORRUPT && err.offset == footer, "footer magic: %d offset %llu", open_rc,
           (unsigned long long)err.offset);
  }

  /* unknown label in the second record */
  if (n_full > 1) {
    memcpy(c, b, n);
    c[full[1].offset] = 0x77;
    c[full[1].offset + 1] = 0x77;
    p = spill("label.bin", c, n);
    int rc = decode(p, NULL, 0, &k, &err, &open_rc);
    CHECKF(rc == DUMPI_ERR_UNKNOWN_LABEL && k == 1 && err.offset == full[1].offset && strstr(err.message, "30583"),
           "unknown label: rc %d after %zu records: %s", rc, k, err.message);
    /* MPI_Pcontrol has a label but never a record */
    c[full[1].offset] = 0;
    c[full[1].offset + 1] = 128;
    p = spill("pcontrol.bin", c, n);
    rc = decode(p, NULL, 0, &k, &err, &open_rc);
    CHECKF(rc == DUMPI_ERR_UNKNOWN_LABEL && k == 1, "pcontrol label: rc %d", rc);
  }

  /* absurd array length: the first record with an array gets count
   * 0x7fffffff; expect a clean CORRUPT, not a 8 GiB allocation. */
  dumpi_file *f;
  if (dumpi_file_open(bin, &f, &err) == DUMPI_OK) {
    dumpi_call call;
    uint64_t at = 0;
    while (!at && dumpi_file_next(f, &call, &err) == 1) {
      /* re-walk the record bytes: find the count word of the first
       * array argument by decoding a copy with one change at a time is
       * overkill; use the known layout of MPI_Init's argv instead */
      if (call.label == DUMPI_LABEL_INIT || call.label == DUMPI_LABEL_INIT_THREAD) {
        uint64_t o = call.offset + 3;
        if (call.mask & DUMPI_MASK_THREADID) o += 2;
        if (call.mask & DUMPI_MASK_CPUTIME) o += 12;
        if (call.mask & DUMPI_MASK_WALLTIME) o += 12;
        at = o;
      }
    }
    dumpi_file_close(f);
    if (at) {
      memcpy(c, b, n);
      put_u32(c + at, 0x7fffffff);
      p = spill("length.bin", c, n);
      int rc = decode(p, NULL, 0, &k, &err, &open_rc);
      CHECKF(rc == DUMPI_ERR_CORRUPT && strstr(err.message, "past the end"), "absurd length: rc %d %s", rc,
             err.message);
    } else {
      printf("  (no MPI_Init record: absurd-length case skipped)\n");
    }
  }
  free(c);
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | p[i];
  return v;
}

/* A copy of b with PAD bytes of junk after its footer (index entries
 * moved to match): past the size open reads whole, with its header and
 * footer outside the tail that open reads, so that they are read where
 * they lie. NULL when b has no full index or no footer. */
enum { PAD = 24 << 10 };
static unsigned char *pad_after_footer(const unsigned char *b, size_t n, size_t *big_n) {
  if (n < 64 || get_u64(b + n - 64) != UINT64_C(0xffaadd44554d5049)) return NULL;
  uint64_t footer = get_u64(b + n - 16);
  uint64_t cut = footer + 8 + 2 * 4 * (DUMPI_LABEL_ALL_FUNCTIONS + 1);
  if (!footer || cut > n - 64) return NULL;
  unsigned char *big = malloc(n + PAD);
  memcpy(big, b, cut);
  memset(big + cut, 0xa5, PAD);
  memcpy(big + cut + PAD, b + cut, n - cut);
  for (int i = 1; i < 8; i++) {
    unsigned char *e = big + n + PAD - 64 + 8 * i;
    uint64_t v = get_u64(e);
    if (v >= cut) {
      put_u32(e, (uint32_t)((v + PAD) >> 32));
      put_u32(e + 4, (uint32_t)(v + PAD));
    }
  }
  *big_n = n + PAD;
  return big;
}

/* The padded copy reads as the file did: records, header and footer. */
static void check_padded(const char *bin, const unsigned char *b, size_t n, const rec *full, size_t n_full,
                         int valgrind) {
  size_t big_n;
  unsigned char *big = pad_after_footer(b, n, &big_n);
  if (!big) {
    printf("  (no full index and footer: the padded copy is skipped)\n");
    return;
  }
  const char *p = spill("big.bin", big, big_n);
  rec *got = malloc((n_full + 1) * sizeof *got);
  dumpi_error err;
  int open_rc;
  size_t k;
  int rc = decode(p, got, n_full + 1, &k, &err, &open_rc);
  CHECKF(rc == 0 && k == n_full, "%s padded: rc %d, %zu records of %zu: %s", bin, rc, k, n_full, err.message);
  for (size_t i = 0; i < k; i++)
    CHECKF(got[i].label == full[i].label && got[i].offset == full[i].offset &&
               got[i].wall_start == full[i].wall_start && got[i].wall_stop == full[i].wall_stop,
           "%s padded: record %zu differs", bin, i);
  free(got);
  dumpi_file *a, *z;
  CHECKF(dumpi_file_open(bin, &a, &err) == DUMPI_OK, "%s", err.message);
  CHECKF(dumpi_file_open(p, &z, &err) == DUMPI_OK, "%s", err.message);
  const uint32_t *ca, *ia, *cz, *iz;
  int na = dumpi_file_footer_counts(a, &ca, &ia), nz = dumpi_file_footer_counts(z, &cz, &iz);
  CHECKF(na > 0 && na == nz && memcmp(ca, cz, (size_t)na * 4) == 0 && memcmp(ia, iz, (size_t)na * 4) == 0,
         "%s padded: footer differs", bin);
  CHECK_STR(dumpi_file_hostname(z), dumpi_file_hostname(a));
  CHECK_EQ(dumpi_file_start_time(z), dumpi_file_start_time(a));
  CHECK_EQ(dumpi_file_n_datatypes(z), dumpi_file_n_datatypes(a));
  CHECK_EQ(dumpi_file_wall_bias(z), dumpi_file_wall_bias(a));
  dumpi_file_close(a);
  dumpi_file_close(z);
  int stride = window || valgrind ? 97 : 13;
  check_truncations(bin, big, big_n, full, n_full, stride);
  check_flips(bin, big, big_n, valgrind ? 60 : 600);
  check_crafted(bin, big, big_n, full, n_full);
  printf("  padded to %zu bytes: same records and sections; cut every %d. length\n", big_n, stride);
  free(big);
}

static void check_bin(const char *bin) {
  size_t n;
  unsigned char *b = slurp(bin, &n);
  if (!b) {
    CHECKF(0, "cannot read %s", bin);
    return;
  }
  rec *full = malloc((n / 3 + 1) * sizeof *full);
  dumpi_error err;
  int open_rc;
  size_t n_full;
  int rc = decode(bin, full, n / 3 + 1, &n_full, &err, &open_rc);
  CHECKF(rc == 0, "%s: reference decode failed: %s", bin, err.message);
  int valgrind = getenv("SLOG2_UNDER_VALGRIND") != NULL;
  printf("%s: %zu bytes, %zu records\n", bin, n, n_full);
  /* a tiny window makes every decode many reads: sample the cuts */
  int stride = window || valgrind ? 7 : 1;
  check_truncations(bin, b, n, full, n_full, stride);
  printf("  truncated copies: every %d. length checked\n", stride);
  check_flips(bin, b, n, valgrind ? 300 : 3000);
  check_crafted(bin, b, n, full, n_full);
  check_padded(bin, b, n, full, n_full, valgrind);
  free(full);
  free(b);
}

/* Rank 0 of each folder, in a temp directory made before the first. */
static void check_first_rank(const char *bin, int rank) {
  if (rank != 0) return;
  if (!tmpdir[0]) {
    const char *t = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/dumpi-malformed-XXXXXX", t && *t ? t : "/tmp");
    if (!mkdtemp(tmpdir)) {
      CHECKF(0, "mkdtemp %s", tmpdir);
      tmpdir[0] = 0;
      return;
    }
  }
  check_bin(bin);
}

int main(int argc, char **argv) {
  /* --window N: decode through an N-byte read window, so records straddle
   * its end everywhere, also at the cuts */
  if (argc > 3 && strcmp(argv[1], "--window") == 0) {
    window = (size_t)strtoul(argv[2], NULL, 10);
    argv[2] = argv[0]; /* the program's name, for the usage message */
    argc -= 2;
    argv += 2;
  }
  int rc = for_each_rank(argc, argv, check_first_rank);
  if (rc == 2) return rc;
  CHECKF(rc == 0, "a folder's .meta could not be opened");
  static const char *const names[] = {"trunc.bin",  "flip.bin",  "foreign.bin",  "empty.bin",  "index.bin",
                                      "footer.bin", "label.bin", "pcontrol.bin", "length.bin", "big.bin"};
  for (size_t i = 0; tmpdir[0] && i < sizeof names / sizeof names[0]; i++) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
    unlink(p);
  }
  if (tmpdir[0]) rmdir(tmpdir);
  return 0;
}
