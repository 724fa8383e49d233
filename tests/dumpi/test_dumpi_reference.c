/* SPDX-License-Identifier: MIT */
/* test_dumpi_reference.c - decode every trace folder and compare, call for
 * call, with the reference decoding `dumpi2ascii -a` (*.txt.gz next to
 * each .bin): function name, wall and cpu entry/exit times, thread, every
 * argument the reference prints as name=value (ints, handles, int arrays,
 * requests, statuses, strings), then header, datatype sizes, perf labels,
 * function labels and footer counts, and decoded call counts against the
 * footer.
 *
 * usage: test_dumpi_reference TRACES_DIR [FOLDER...]
 * Exit 0 pass, 1 fail, 77 when TRACES_DIR is missing.
 */
#include "check.h"
#include "dumpi.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static long n_calls, n_args_checked, n_args_unchecked;
static size_t window; /* --window: read window in bytes, 0 = default */
static int skip_cpu;  /* --skip-cpu: cpu times must come out 0, the rest as ever */

/* ---- reference text ---------------------------------------------------- */

typedef struct ref {
  gzFile gz;
  char line[1 << 16];
  int have; /* line holds an unconsumed line */
  long lineno;
  const char *path;
} ref;

static int ref_next(ref *r) {
  if (r->have) {
    r->have = 0;
    return 1;
  }
  if (!gzgets(r->gz, r->line, sizeof r->line)) return 0;
  r->lineno++;
  size_t n = strlen(r->line);
  while (n && (r->line[n - 1] == '\n' || r->line[n - 1] == '\r')) r->line[--n] = '\0';
  return 1;
}

/* "X entering at walltime S.N, cputime S.N seconds in thread T." */
static int parse_event(const char *line, const char *what, char *name, int64_t *wall, int64_t *cpu, int *thread) {
  const char *p = strstr(line, what);
  if (!p || strncmp(p + strlen(what), " at walltime ", 13) != 0) return 0;
  size_t n = (size_t)(p - line);
  if (n == 0 || n > 127) return 0;
  memcpy(name, line, n);
  name[n] = '\0';
  long long ws, wn, cs, cn;
  if (sscanf(p + strlen(what),
             " at walltime %lld.%lld, cputime %lld.%lld "
             "seconds in thread %d.",
             &ws, &wn, &cs, &cn, thread) != 5)
    return 0;
  *wall = ws * 1000000000LL + wn;
  *cpu = cs * 1000000000LL + cn;
  return 1;
}

/* Parse "[1, 2, 3]" into v (at most max), returns count or -1. */
static int parse_list(const char *s, int64_t *v, int max) {
  if (*s != '[') return -1;
  s++;
  int n = 0;
  while (*s && *s != ']') {
    char *end;
    long long x = strtoll(s, &end, 10);
    if (end == s) return -1;
    if (n < max) v[n] = x;
    n++;
    s = end;
    while (*s == ',' || *s == ' ') s++;
  }
  return n;
}

/* ---- comparing one argument line ----------------------------------------- */

static long n_alias;

/* sst-dumpi's reader stores an array's wire count into the field that
 * names its length (GET_INT_ARRAY_1(profile, val->outcount, ...) passes
 * &val->outcount to get32arr), so dumpi2ascii prints e.g. outcount=0
 * where the stream holds -32766 (MPI_UNDEFINED) and indices has 0 entries.
 * Accept the reference value when it equals the count of an array whose
 * length argument is `name`. */
static int length_alias(const dumpi_call *c, const char *name, long long want) {
  for (int i = 0; i < c->fn->n_args; i++) {
    const dumpi_arg_info *a = &c->fn->args[i];
    if (a->len_rule != DUMPI_LEN_ARG || !a->len_arg || strcmp(a->len_arg, name) != 0 ||
        a->type == DUMPI_ARG_STATUS_ARRAY || !dumpi_call_has(c, i))
      continue;
    int32_t n = 0;
    if (a->type == DUMPI_ARG_STRING_ARRAY)
      dumpi_call_string_array(c, i, &n);
    else
      dumpi_call_int_array(c, i, &n);
    if (n == want) {
      n_alias++;
      return 1;
    }
  }
  return 0;
}

static void check_arg(const dumpi_call *c, const char *line, const ref *r) {
  const char *eq = strchr(line, '=');
  if (!eq) return;
  /* name: token before '=', with any [..] suffix dropped */
  const char *ns = eq;
  while (ns > line && ns[-1] != ' ') ns--;
  char name[128];
  size_t nl = 0;
  for (const char *q = ns; q < eq && *q != '[' && nl < sizeof name - 1; q++) name[nl++] = *q;
  name[nl] = '\0';
  const char *val = eq + 1;
  int idx = dumpi_fn_arg_index(c->label, name);
  if (idx < 0) {
    n_args_unchecked++;
    return;
  }
  dumpi_arg_type t = (dumpi_arg_type)c->fn->args[idx].type;
  int present = dumpi_call_has(c, idx);
  if (strcmp(val, "<IGNORED>") == 0) {
    int32_t n = 0;
    if (present && t == DUMPI_ARG_STATUS_ARRAY)
      dumpi_call_statuses(c, idx, &n);
    else if (present && t == DUMPI_ARG_STATUS)
      dumpi_call_statuses(c, idx, &n);
    else if (present && !dumpi_arg_type_is_scalar(t) && t != DUMPI_ARG_STRING && t != DUMPI_ARG_STRING_ARRAY &&
             t != DUMPI_ARG_STRING_ARRAY_2D && t != DUMPI_ARG_INT_ARRAY_2D)
      dumpi_call_int_array(c, idx, &n);
    if (n != 0)
      FAIL("%s:%ld: %s %s: reference <IGNORED>, decoded %d values", r->path, r->lineno, c->fn->name, name, (int)n);
    n_args_checked++;
    return;
  }
  if (!present) {
    /* not on the stream (root-only on a non-root): the reference shows
     * whatever its struct held */
    n_args_unchecked++;
    return;
  }
  n_args_checked++;
  if (dumpi_arg_type_is_scalar(t)) {
    long long want;
    int64_t v1[4];
    if (*val == '[') { /* a single request prints as [id] */
      if (parse_list(val, v1, 4) != 1) {
        FAIL("%s:%ld: cannot parse %s", r->path, r->lineno, line);
        return;
      }
      want = v1[0];
    } else if (sscanf(val, "%lld", &want) != 1) {
      n_args_checked--;
      n_args_unchecked++;
      return;
    }
    if (dumpi_call_int(c, idx) != want && length_alias(c, name, want)) return;
    if (dumpi_call_int(c, idx) != want)
      FAIL("%s:%ld: %s %s: reference %lld, decoded %lld", r->path, r->lineno, c->fn->name, name, want,
           (long long)dumpi_call_int(c, idx));
    return;
  }
  switch (t) {
  case DUMPI_ARG_STATUS:
  case DUMPI_ARG_STATUS_ARRAY: {
    int32_t n = 0;
    const dumpi_status *s = dumpi_call_statuses(c, idx, &n);
    const char *q = val;
    int i = 0;
    while ((q = strstr(q, "{bytes=")) != NULL) {
      int b, ca, so, tg, er;
      if (sscanf(q, "{bytes=%d, cancelled=%d, source=%d, tag=%d, error=%d}", &b, &ca, &so, &tg, &er) != 5) {
        FAIL("%s:%ld: cannot parse status %s", r->path, r->lineno, q);
        return;
      }
      if (i >= n || s[i].bytes != b || s[i].cancelled != ca || s[i].source != so || s[i].tag != tg || s[i].error != er)
        FAIL("%s:%ld: %s %s[%d] differs from %s", r->path, r->lineno, c->fn->name, name, i, q);
      i++;
      q++;
    }
    if (i != n)
      FAIL("%s:%ld: %s %s: reference %d statuses, decoded %d", r->path, r->lineno, c->fn->name, name, i, (int)n);
    return;
  }
  case DUMPI_ARG_STRING: {
    const char *s = dumpi_call_string(c, idx);
    size_t n = strlen(val);
    if (n < 2 || val[0] != '"' || strncmp(val + 1, s, n - 2) != 0 || strlen(s) != n - 2)
      FAIL("%s:%ld: %s %s: reference %s, decoded \"%s\"", r->path, r->lineno, c->fn->name, name, val, s);
    return;
  }
  case DUMPI_ARG_STRING_ARRAY: {
    int32_t n = 0;
    const char *const *s = dumpi_call_string_array(c, idx, &n);
    char buf[4096];
    size_t used = 0;
    buf[used++] = '[';
    for (int32_t i = 0; i < n && used < sizeof buf - 8; i++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s\"%s\"", i ? ", " : "", s[i]);
    snprintf(buf + used, sizeof buf - used, "]");
    if (strcmp(buf, val) != 0)
      FAIL("%s:%ld: %s %s: reference %s, decoded %s", r->path, r->lineno, c->fn->name, name, val, buf);
    return;
  }
  case DUMPI_ARG_INT_ARRAY_2D: {
    /* "[[0, 2, 1]" (dumpi2ascii prints the rest on the next lines) */
    int32_t rows = 0;
    const dumpi_int_row *row = dumpi_call_int_array_2d(c, idx, &rows);
    int64_t v[64];
    int n = rows > 0 ? parse_list(val + 1, v, 64) : -1;
    if (rows < 1 || n != row[0].n)
      FAIL("%s:%ld: %s %s: first row differs", r->path, r->lineno, c->fn->name, name);
    else
      for (int i = 0; i < n && i < 64; i++)
        if (row[0].v[i] != v[i])
          FAIL("%s:%ld: %s %s[0][%d]: reference %lld, decoded %d", r->path, r->lineno, c->fn->name, name, i,
               (long long)v[i], (int)row[0].v[i]);
    return;
  }
  case DUMPI_ARG_STRING_ARRAY_2D:
    n_args_checked--;
    n_args_unchecked++;
    return;
  default: {
    int32_t n = 0;
    const int32_t *a = dumpi_call_int_array(c, idx, &n);
    static int64_t v[1 << 14];
    int k = parse_list(val, v, 1 << 14);
    if (k < 0) {
      FAIL("%s:%ld: cannot parse %s", r->path, r->lineno, line);
      return;
    }
    if (k != n) {
      FAIL("%s:%ld: %s %s: reference %d values, decoded %d", r->path, r->lineno, c->fn->name, name, k, (int)n);
      return;
    }
    for (int i = 0; i < k && i < (1 << 14); i++)
      if (a[i] != v[i]) {
        FAIL("%s:%ld: %s %s[%d]: reference %lld, decoded %d", r->path, r->lineno, c->fn->name, name, i, (long long)v[i],
             (int)a[i]);
        return;
      }
    return;
  }
  }
}

/* ---- one rank ---------------------------------------------------------- */

static void check_rank(const char *bin) {
  char gzpath[4096];
  size_t bl = strlen(bin);
  snprintf(gzpath, sizeof gzpath, "%.*s.txt.gz", (int)(bl - 4), bin);
  static ref r;
  memset(&r, 0, sizeof r);
  r.path = gzpath;
  r.gz = gzopen(gzpath, "rb");
  if (!r.gz) {
    FAIL("%s: cannot open reference", gzpath);
    return;
  }
  dumpi_error err;
  dumpi_file *f;
  if (dumpi_file_open(bin, &f, &err) != DUMPI_OK) {
    FAIL("open: %s", err.message);
    gzclose(r.gz);
    return;
  }
  if (window) dumpi_file_set_window(f, window);
  if (skip_cpu) dumpi_file_skip_cpu_times(f);

  /* header */
  uint8_t ver[3];
  dumpi_file_version(f, ver);
  while (ref_next(&r) && !strstr(r.line, " entering at walltime ")) {
    unsigned a, b, c;
    if (sscanf(r.line, "version=%u.%u.%u", &a, &b, &c) == 3 && (a != ver[0] || b != ver[1] || c != ver[2]))
      FAIL("%s: version %u.%u.%u, decoded %u.%u.%u", gzpath, a, b, c, ver[0], ver[1], ver[2]);
    if (strncmp(r.line, "hostname=", 9) == 0 && strcmp(r.line + 9, dumpi_file_hostname(f)) != 0)
      FAIL("%s: hostname %s, decoded %s", gzpath, r.line + 9, dumpi_file_hostname(f));
    if (strncmp(r.line, "username=", 9) == 0 && strcmp(r.line + 9, dumpi_file_username(f)) != 0)
      FAIL("%s: username %s, decoded %s", gzpath, r.line + 9, dumpi_file_username(f));
  }
  r.have = 1;

  /* calls */
  long counts[DUMPI_N_LABELS] = {0};
  dumpi_call call;
  int rc;
  char name[128], name2[128];
  while ((rc = dumpi_file_next(f, &call, &err)) == 1) {
    n_calls++;
    counts[call.label]++;
    int64_t wall = 0, cpu = 0, wall2 = 0, cpu2 = 0;
    int thread, thread2;
    if (!ref_next(&r) || !parse_event(r.line, " entering", name, &wall, &cpu, &thread)) {
      FAIL("%s:%ld: decoded %s at offset %" PRIu64 ", reference has \"%s\"", gzpath, r.lineno, call.fn->name,
           call.offset, r.line);
      break;
    }
    if (skip_cpu) cpu = 0;
    if (strcmp(name, call.fn->name) != 0 || wall != call.wall_start || cpu != call.cpu_start || thread != call.thread)
      FAIL("%s:%ld: reference %s wall %lld cpu %lld thread %d; decoded %s "
           "wall %lld cpu %lld thread %d (offset %" PRIu64 ")",
           gzpath, r.lineno, name, (long long)wall, (long long)cpu, thread, call.fn->name, (long long)call.wall_start,
           (long long)call.cpu_start, call.thread, call.offset);
    while (ref_next(&r) && !parse_event(r.line, " returning", name2, &wall2, &cpu2, &thread2)) {
      if (strncmp(r.line, "Perfcounters:", 13) == 0) continue;
      check_arg(&call, r.line[0] == ']' ? r.line + 1 : r.line, &r);
    }
    if (skip_cpu) cpu2 = 0;
    if (strcmp(name2, call.fn->name) != 0 || wall2 != call.wall_stop || cpu2 != call.cpu_stop || thread2 != call.thread)
      FAIL("%s:%ld: reference %s returning wall %lld cpu %lld; decoded "
           "%lld %lld",
           gzpath, r.lineno, name2, (long long)wall2, (long long)cpu2, (long long)call.wall_stop,
           (long long)call.cpu_stop);
  }
  if (rc < 0) FAIL("decode: %s", err.message);

  /* trailer: keyvals, footer, perf labels, function labels, sizes */
  const uint32_t *fc, *fi;
  int n_footer = dumpi_file_footer_counts(f, &fc, &fi);
  long total = 0;
  size_t kv_left = 0, kv_i = 0;
  while (ref_next(&r)) {
    char fname[128];
    unsigned called, ignored;
    unsigned long long addr;
    int dt, sz, nk;
    if (strstr(r.line, " entering at walltime ")) {
      FAIL("%s:%ld: reference has more calls: %s", gzpath, r.lineno, r.line);
      break;
    }
    if (kv_left) {
      const char *k, *v;
      char want[8192];
      if (dumpi_file_keyval(f, kv_i++, &k, &v) == DUMPI_OK)
        snprintf(want, sizeof want, "%s=%s", k, v);
      else
        want[0] = '\0';
      if (strcmp(want, r.line) != 0) FAIL("%s:%ld: keyval %s, decoded %s", gzpath, r.lineno, r.line, want);
      kv_left--;
    } else if (sscanf(r.line, "Total keyvals: %d", &nk) == 1) {
      if ((size_t)nk != dumpi_file_n_keyvals(f))
        FAIL("%s: %d keyvals, decoded %zu", gzpath, nk, dumpi_file_n_keyvals(f));
      kv_left = (size_t)nk;
    } else if (sscanf(r.line, "%127s called %u times and ignored %u times", fname, &called, &ignored) == 3) {
      const dumpi_fn_info *fn = dumpi_fn_by_name(fname);
      if (!fn || fn->label > DUMPI_LABEL_ALL_FUNCTIONS || !n_footer) {
        FAIL("%s:%ld: footer line %s", gzpath, r.lineno, r.line);
        continue;
      }
      if (fc[fn->label] != called || fi[fn->label] != ignored)
        FAIL("%s: footer %s %u/%u, decoded %u/%u", gzpath, fname, called, ignored, fc[fn->label], fi[fn->label]);
      if (fn->label < DUMPI_LABEL_ALL_FUNCTIONS) {
        total += counts[fn->label];
        if (counts[fn->label] != (long)called)
          FAIL("%s: %s: footer says %u calls, stream has %ld", gzpath, fname, called, counts[fn->label]);
      }
    } else if (sscanf(r.line, "Performance counters: %d", &nk) == 1) {
      if ((size_t)nk != dumpi_file_n_perf_labels(f))
        FAIL("%s: %d perf counters, decoded %zu", gzpath, nk, dumpi_file_n_perf_labels(f));
    } else if (sscanf(r.line, "Function address %llu has label", &addr) == 1) {
      const char *fnm = dumpi_file_function_name(f, addr);
      const char *want = strstr(r.line, " has label ") + 11;
      if (!fnm || strcmp(fnm, want) != 0)
        FAIL("%s: function %llu label %s, decoded %s", gzpath, addr, want, fnm ? fnm : "(none)");
    } else if (sscanf(r.line, "Datatype %d (%*[^)]) has size %d", &dt, &sz) == 2) {
      if (dumpi_file_datatype_size(f, dt) != sz)
        FAIL("%s: datatype %d size %d, decoded %d", gzpath, dt, sz, (int)dumpi_file_datatype_size(f, dt));
    }
  }
  /* Every MPI call decoded is one the footer lists: the per-function
   * comparison above cannot see a function missing from the footer. */
  long decoded = 0;
  for (int l = 0; l < DUMPI_LABEL_ALL_FUNCTIONS; l++) decoded += counts[l];
  if (n_footer && total != decoded)
    FAIL("%s: footer lists %ld calls, the stream has %ld MPI calls", gzpath, total, decoded);
  dumpi_file_close(f);
  gzclose(r.gz);
}

/* ---- folders ----------------------------------------------------------- */

static int check_folder(const char *dir) {
  dumpi_error err;
  dumpi_meta *m;
  if (dumpi_meta_open(dir, &m, &err) != DUMPI_OK) {
    FAIL("meta: %s", err.message);
    return 0;
  }
  size_t n_missing;
  dumpi_meta_missing(m, &n_missing);
  if (n_missing) FAIL("%s: %zu ranks missing", dir, n_missing);
  long calls0 = n_calls;
  for (int r = 0; r < dumpi_meta_n_ranks(m); r++)
    if (dumpi_meta_bin_path(m, r)) check_rank(dumpi_meta_bin_path(m, r));
  printf("%-28s %d ranks %8ld calls  ok\n", strrchr(dir, '/') + 1, dumpi_meta_n_ranks(m), n_calls - calls0);
  dumpi_meta_free(m);
  return 1;
}

static int cmp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv) {
  /* --window N: decode through an N-byte read window, so most records
   * straddle its end and take the widening path */
  if (argc > 2 && strcmp(argv[1], "--window") == 0) {
    window = (size_t)strtoul(argv[2], NULL, 10);
    argc -= 2;
    argv += 2;
  }
  /* --skip-cpu: what slog2-build asks for; nothing but the cpu times may
   * change */
  if (argc > 1 && strcmp(argv[1], "--skip-cpu") == 0) {
    skip_cpu = 1;
    argc--;
    argv++;
  }
  if (argc < 2) {
    fprintf(stderr, "usage: %s [--window BYTES] [--skip-cpu] TRACES_DIR [FOLDER...]\n", argv[0]);
    return 2;
  }
  struct stat st;
  if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
    SKIP("%s not found", argv[1]);
  }
  char *names[256];
  int n = 0;
  if (argc > 2) {
    for (int i = 2; i < argc && n < 256; i++) names[n++] = strdup(argv[i]);
  } else {
    DIR *d = opendir(argv[1]);
    struct dirent *e;
    while (d && (e = readdir(d)) && n < 256) {
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", argv[1], e->d_name);
      if (e->d_name[0] != '.' && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) names[n++] = strdup(e->d_name);
    }
    if (d) closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp);
  }
  int folders = 0;
  for (int i = 0; i < n; i++) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", argv[1], names[i]);
    folders += check_folder(p);
    free(names[i]);
  }
  printf("%d folders, %ld calls, %ld arguments compared (%ld of them "
         "length fields printed as their array's count; %ld not "
         "comparable)\n",
         folders, n_calls, n_args_checked, n_alias, n_args_unchecked);
  CHECKF(folders > 0, "no trace folders");
  return 0;
}
