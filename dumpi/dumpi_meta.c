/* SPDX-License-Identifier: MIT */
/* dumpi_meta.c - the run description: the .meta key=value file and where
 * each rank's .bin lives.
 *
 * libdumpi writes <fileroot>-<date>.meta with lines such as
 *   hostname=vm  numprocs=4  username=<none>  startime=1795300366 (sic)
 *   fileprefix=<fileroot>-<date>  version=13 subversion=0 subsubversion=0
 * and one <fileprefix>-NNNN.bin per rank (NNNN = rank, "%04d").
 * fileprefix is the path used on the recording machine, absolute or
 * relative to its working directory, so it is only trusted for its
 * basename: the .bin files are looked for next to the .meta
 * (docs/DUMPI.md, "A run").
 */
#include "dumpi.h"
#include "dumpi_internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Far above any traced run; keeps a corrupt numprocs from allocating. */
enum { MAX_RANKS = 1 << 22 };

struct dumpi_meta {
  char *path; /* the .meta, NULL for a list of .bin files */
  size_t n_keys;
  char **keys, **values;
  int n_ranks;
  char **bins; /* n_ranks entries, NULL = missing */
  int *missing;
  size_t n_missing;
};

static int nomem(dumpi_error *err, const char *path) {
  return dumpi_set_error(err, DUMPI_ERR_NOMEM, path, DUMPI_NO_OFFSET, "out of memory");
}

void dumpi_meta_free(dumpi_meta *m) {
  if (!m) return;
  for (size_t i = 0; i < m->n_keys; i++) {
    free(m->keys[i]);
    free(m->values[i]);
  }
  free(m->keys);
  free(m->values);
  for (int r = 0; r < m->n_ranks && m->bins; r++) free(m->bins[r]);
  free(m->bins);
  free(m->missing);
  free(m->path);
  free(m);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* Record each rank's path (if the file exists) and the missing list. */
static int set_ranks(dumpi_meta *m, int n_ranks, dumpi_error *err) {
  m->n_ranks = n_ranks;
  m->bins = calloc((size_t)n_ranks + 1, sizeof *m->bins);
  m->missing = calloc((size_t)n_ranks + 1, sizeof *m->missing);
  if (!m->bins || !m->missing) return nomem(err, m->path);
  return DUMPI_OK;
}

static void note_missing(dumpi_meta *m) {
  m->n_missing = 0;
  for (int r = 0; r < m->n_ranks; r++)
    if (!m->bins[r]) m->missing[m->n_missing++] = r;
}

static int add_key(dumpi_meta *m, const char *key, size_t klen, const char *val, size_t vlen) {
  char **k = realloc(m->keys, (m->n_keys + 1) * sizeof *k);
  if (!k) return -1;
  m->keys = k;
  char **v = realloc(m->values, (m->n_keys + 1) * sizeof *v);
  if (!v) return -1;
  m->values = v;
  m->keys[m->n_keys] = strndup(key, klen);
  m->values[m->n_keys] = strndup(val, vlen);
  if (!m->keys[m->n_keys] || !m->values[m->n_keys]) {
    free(m->keys[m->n_keys]);
    free(m->values[m->n_keys]);
    return -1;
  }
  m->n_keys++;
  return 0;
}

/* key=value per line; blank lines and lines without '=' are skipped, a
 * trailing CR is dropped, surrounding blanks are trimmed. */
static int parse_meta(dumpi_meta *m, const char *text, size_t len, dumpi_error *err) {
  const char *p = text, *end = text + len;
  while (p < end) {
    const char *eol = memchr(p, '\n', (size_t)(end - p));
    if (!eol) eol = end;
    const char *eq = memchr(p, '=', (size_t)(eol - p));
    if (eq) {
      const char *k0 = p, *k1 = eq, *v0 = eq + 1, *v1 = eol;
      while (k0 < k1 && (*k0 == ' ' || *k0 == '\t')) k0++;
      while (k1 > k0 && (k1[-1] == ' ' || k1[-1] == '\t')) k1--;
      while (v0 < v1 && (*v0 == ' ' || *v0 == '\t')) v0++;
      while (v1 > v0 && (v1[-1] == ' ' || v1[-1] == '\t' || v1[-1] == '\r')) v1--;
      if (k1 > k0 && add_key(m, k0, (size_t)(k1 - k0), v0, (size_t)(v1 - v0)) != 0) return nomem(err, m->path);
    }
    p = eol + 1;
  }
  return DUMPI_OK;
}

static int read_text(const char *path, char **out, size_t *len, dumpi_error *err) {
  /* O_NONBLOCK: opening a FIFO would wait for a writer (forever); it is
   * refused below like every file that is not a regular one. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return dumpi_set_error(err, errno == ENOENT ? DUMPI_ERR_NOT_FOUND : DUMPI_ERR_IO, path, DUMPI_NO_OFFSET, "open: %s",
                           strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return dumpi_set_error(err, DUMPI_ERR_IO, path, DUMPI_NO_OFFSET, "not a regular file");
  }
  FILE *fp = fdopen(fd, "rb");
  if (!fp) {
    close(fd);
    return nomem(err, path);
  }
  /* A .meta is a few hundred bytes; refuse anything absurd. */
  enum { MAX_META = 1 << 20 };
  char *buf = malloc(MAX_META + 1);
  if (!buf) {
    fclose(fp);
    return nomem(err, path);
  }
  size_t n = fread(buf, 1, MAX_META + 1, fp);
  int bad = ferror(fp);
  fclose(fp);
  if (bad || n > MAX_META) {
    free(buf);
    return dumpi_set_error(err, bad ? DUMPI_ERR_IO : DUMPI_ERR_CORRUPT, path, 0,
                           bad ? "read error" : "larger than 1 MiB, not a .meta");
  }
  buf[n] = '\0';
  *out = buf;
  *len = n;
  return DUMPI_OK;
}

/* The only .meta in a directory. */
static int find_meta(const char *dir, char **out, dumpi_error *err) {
  DIR *d = opendir(dir);
  if (!d) return dumpi_set_error(err, DUMPI_ERR_IO, dir, DUMPI_NO_OFFSET, "opendir: %s", strerror(errno));
  char *found = NULL;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!ends_with(e->d_name, ".meta")) continue;
    if (n++ == 0) {
      /* "dir/" as typed (shell completion adds the slash): one slash */
      size_t dl = strlen(dir);
      while (dl > 1 && dir[dl - 1] == '/') dl--;
      size_t len = dl + 1 + strlen(e->d_name) + 1;
      found = malloc(len);
      if (found) snprintf(found, len, "%.*s/%s", (int)dl, dir, e->d_name);
    }
  }
  closedir(d);
  if (n == 1 && found) {
    *out = found;
    return DUMPI_OK;
  }
  free(found);
  if (n == 0) return dumpi_set_error(err, DUMPI_ERR_NOT_FOUND, dir, DUMPI_NO_OFFSET, "no .meta file in this directory");
  if (n > 1)
    return dumpi_set_error(err, DUMPI_ERR_INVALID, dir, DUMPI_NO_OFFSET, "%d .meta files in this directory; name one",
                           n);
  return nomem(err, dir);
}

/* <dir>/<stem>-NNNN.bin if it exists, else NULL (missing) or -1 (nomem).
 * listed: 1 or 0 when the directory's listing told, -1 to look. */
static int rank_path(const char *dir, const char *stem, int rank, int listed, char **out) {
  *out = NULL;
  if (!listed) return 0;
  size_t len = strlen(dir) + strlen(stem) + 32;
  char *p = malloc(len);
  if (!p) return -1;
  snprintf(p, len, "%s/%s-%04d.bin", dir, stem, rank);
  if (listed < 0 && !is_file(p)) {
    free(p);
    p = NULL;
  }
  *out = p;
  return 0;
}

/* From this many ranks on, which rank files exist is read from the
 * directory's listing, not from a stat of each: a system call per rank
 * was the larger part of opening a run of thousands. */
#define LIST_MIN_RANKS 64

/* The rank r of a name "<stem>-NNNN.bin" ("%04d" of r, r < n_ranks), or
 * -1. "%04d" writes four digits, or more without a leading zero. */
static long rank_of_name(const char *name, const char *stem, size_t stem_len, int n_ranks) {
  if (strncmp(name, stem, stem_len) != 0 || name[stem_len] != '-') return -1;
  const char *digits = name + stem_len + 1, *end = digits;
  long r = 0;
  while (*end >= '0' && *end <= '9' && end - digits < 9) r = r * 10 + (*end++ - '0');
  size_t n = (size_t)(end - digits);
  if (n < 4 || (n > 4 && digits[0] == '0') || strcmp(end, ".bin") != 0 || r >= n_ranks) return -1;
  return r;
}

/* found[r] bit 0: <dir>/<first>-NNNN.bin is a regular file (or a link to
 * one), bit 1: <dir>/<second>-NNNN.bin (first may be NULL). NULL when the
 * directory cannot be listed or memory is short: then each is looked at. */
static uint8_t *list_ranks(const char *dir, const char *first, const char *second, int n_ranks) {
  DIR *d = opendir(dir);
  if (!d) return NULL;
  uint8_t *found = calloc((size_t)n_ranks, 1);
  size_t dl = strlen(dir);
  size_t stem_len[2] = {first ? strlen(first) : 0, strlen(second)};
  struct dirent *e;
  while (found && (e = readdir(d)) != NULL) {
    for (int which = 0; which < 2; which++) {
      const char *stem = which ? second : first;
      long r = stem ? rank_of_name(e->d_name, stem, stem_len[which], n_ranks) : -1;
      if (r < 0) continue;
      int regular = e->d_type == DT_REG;
      if (e->d_type == DT_LNK || e->d_type == DT_UNKNOWN) {
        size_t len = dl + strlen(e->d_name) + 2;
        char *p = malloc(len);
        if (!p) {
          free(found);
          found = NULL;
          break;
        }
        snprintf(p, len, "%s/%s", dir, e->d_name);
        regular = is_file(p);
        free(p);
      }
      if (regular) found[r] |= (uint8_t)(1u << which);
    }
  }
  closedir(d);
  return found;
}

int dumpi_meta_open(const char *path, dumpi_meta **out, dumpi_error *err) {
  if (!path || !out)
    return dumpi_set_error(err, DUMPI_ERR_INVALID, path, DUMPI_NO_OFFSET, "dumpi_meta_open: NULL argument");
  *out = NULL;
  dumpi_meta *m = calloc(1, sizeof *m);
  if (!m) return nomem(err, path);
  struct stat st;
  int rc = DUMPI_OK;
  if (stat(path, &st) != 0)
    rc = dumpi_set_error(err, errno == ENOENT ? DUMPI_ERR_NOT_FOUND : DUMPI_ERR_IO, path, DUMPI_NO_OFFSET, "%s",
                         strerror(errno));
  else if (S_ISDIR(st.st_mode))
    rc = find_meta(path, &m->path, err);
  else if (!(m->path = strdup(path)))
    rc = nomem(err, path);

  char *text = NULL, *dir = NULL, *stem = NULL;
  size_t len = 0;
  if (!rc) rc = read_text(m->path, &text, &len, err);
  if (!rc) rc = parse_meta(m, text, len, err);
  free(text);

  /* numprocs, checked as a number in a sane range */
  long n_ranks = 0;
  if (!rc) {
    const char *np = dumpi_meta_get(m, "numprocs");
    char *endp = NULL;
    if (np) n_ranks = strtol(np, &endp, 10);
    if (!np || endp == np || *endp || n_ranks <= 0 || n_ranks > MAX_RANKS)
      rc = dumpi_set_error(err, DUMPI_ERR_CORRUPT, m->path, 0, "numprocs is %s%s%s, expected 1..%d", np ? "\"" : "",
                           np ? np : "missing", np ? "\"" : "", MAX_RANKS);
  }
  if (!rc) rc = set_ranks(m, (int)n_ranks, err);

  /* Directory of the .meta and the candidate stems: basename of
   * fileprefix first, the .meta's own name without ".meta" second. */
  if (!rc) {
    const char *slash = strrchr(m->path, '/');
    dir = slash ? strndup(m->path, (size_t)(slash - m->path)) : strdup(".");
    if (slash && slash == m->path) {
      free(dir);
      dir = strdup("/");
    }
    const char *base = slash ? slash + 1 : m->path;
    stem = strndup(base, strlen(base) - (ends_with(base, ".meta") ? 5 : 0));
    if (!dir || !stem) rc = nomem(err, m->path);
  }
  const char *prefix = m->n_keys ? dumpi_meta_get(m, "fileprefix") : NULL;
  const char *pbase = NULL;
  if (prefix) {
    const char *s = strrchr(prefix, '/');
    pbase = s ? s + 1 : prefix;
    if (!*pbase) pbase = NULL;
  }
  uint8_t *found = !rc && m->n_ranks >= LIST_MIN_RANKS ? list_ranks(dir, pbase, stem, m->n_ranks) : NULL;
  for (int r = 0; !rc && r < m->n_ranks; r++) {
    if ((pbase && rank_path(dir, pbase, r, found ? found[r] & 1 : -1, &m->bins[r]) != 0) ||
        (!m->bins[r] && rank_path(dir, stem, r, found ? found[r] >> 1 : -1, &m->bins[r]) != 0))
      rc = nomem(err, m->path);
  }
  free(found);
  free(dir);
  free(stem);
  if (rc) {
    dumpi_meta_free(m);
    return rc;
  }
  note_missing(m);
  *out = m;
  return DUMPI_OK;
}

/* Rank from a "...-NNNN.bin" name, -1 if the name has no such suffix. */
static long rank_of(const char *path) {
  if (!ends_with(path, ".bin")) return -1;
  size_t n = strlen(path) - 4;
  size_t i = n;
  while (i > 0 && path[i - 1] >= '0' && path[i - 1] <= '9') i--;
  if (i == n || i == 0 || path[i - 1] != '-' || n - i > 7) return -1;
  return strtol(path + i, NULL, 10);
}

int dumpi_meta_from_bins(const char *const *paths, size_t n_paths, dumpi_meta **out, dumpi_error *err) {
  if (!paths || !out || n_paths == 0 || n_paths > MAX_RANKS)
    return dumpi_set_error(err, DUMPI_ERR_INVALID, NULL, DUMPI_NO_OFFSET, "dumpi_meta_from_bins: need 1..%d paths",
                           MAX_RANKS);
  *out = NULL;
  dumpi_meta *m = calloc(1, sizeof *m);
  if (!m) return nomem(err, paths[0]);
  /* Ranks from the names when every name carries one, else list order. */
  long max_rank = -1;
  int by_name = 1;
  for (size_t i = 0; i < n_paths; i++) {
    long r = rank_of(paths[i]);
    if (r < 0 || r >= MAX_RANKS)
      by_name = 0;
    else if (r > max_rank)
      max_rank = r;
  }
  int n_ranks = by_name ? (int)max_rank + 1 : (int)n_paths;
  int rc = set_ranks(m, n_ranks, err);
  for (size_t i = 0; !rc && i < n_paths; i++) {
    long r = by_name ? rank_of(paths[i]) : (long)i;
    if (m->bins[r]) {
      rc = dumpi_set_error(err, DUMPI_ERR_INVALID, paths[i], DUMPI_NO_OFFSET, "rank %ld given twice (also %s)", r,
                           m->bins[r]);
      break;
    }
    if (!(m->bins[r] = strdup(paths[i]))) rc = nomem(err, paths[i]);
  }
  if (rc) {
    dumpi_meta_free(m);
    return rc;
  }
  note_missing(m);
  *out = m;
  return DUMPI_OK;
}

const char *dumpi_meta_get(const dumpi_meta *m, const char *key) {
  if (!m || !key) return NULL;
  for (size_t i = 0; i < m->n_keys; i++)
    if (strcmp(m->keys[i], key) == 0) return m->values[i];
  return NULL;
}

size_t dumpi_meta_n_keys(const dumpi_meta *m) {
  return m->n_keys;
}

int dumpi_meta_key_at(const dumpi_meta *m, size_t i, const char **key, const char **value) {
  if (i >= m->n_keys) return DUMPI_ERR_INVALID;
  if (key) *key = m->keys[i];
  if (value) *value = m->values[i];
  return DUMPI_OK;
}

int dumpi_meta_n_ranks(const dumpi_meta *m) {
  return m->n_ranks;
}

const char *dumpi_meta_bin_path(const dumpi_meta *m, int rank) {
  return rank >= 0 && rank < m->n_ranks ? m->bins[rank] : NULL;
}

const int *dumpi_meta_missing(const dumpi_meta *m, size_t *n_missing) {
  if (n_missing) *n_missing = m->n_missing;
  return m->missing;
}

const char *dumpi_meta_path(const dumpi_meta *m) {
  return m->path;
}
