/* SPDX-License-Identifier: MIT */
/* test_dumpi_clone.c - dumpi_call_clone() owns what it copies.
 *
 * usage: test_dumpi_clone TRACES_DIR FOLDER...
 * For every record of every rank: the clone equals the decoded record
 * value for value (scalars, int arrays, 2-D arrays, statuses, strings,
 * string lists, perf counters), none of its arrays is the decoder's, and
 * its contents survive the decoder moving on to the next record (the
 * decoder reuses its arena per record, so a shallow copy would change).
 * slog2-build hands communicator calls to the writer's thread this way.
 */
#include "check.h"
#include "dumpi.h"
#include "for_each_rank.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n_records, n_arrays, n_strings, n_statuses;
/* FNV-1a over everything a record holds, arrays and strings included. */
static uint64_t mix(uint64_t h, const void *p, size_t n) {
  const uint8_t *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

static uint64_t mix_str(uint64_t h, const char *s) {
  return s ? mix(h, s, strlen(s) + 1) : mix(h, "\xff", 1);
}

static uint64_t fingerprint(const dumpi_call *c) {
  uint64_t h = 0xcbf29ce484222325ull;
  h = mix(h, &c->label, sizeof c->label);
  h = mix(h, &c->wall_start, sizeof c->wall_start);
  h = mix(h, &c->wall_stop, sizeof c->wall_stop);
  h = mix(h, &c->cpu_start, sizeof c->cpu_start);
  for (unsigned i = 0; i < c->n_perf; i++) {
    h = mix(h, &c->perf_in[i], 8);
    h = mix(h, &c->perf_out[i], 8);
  }
  for (int i = 0; i < c->fn->n_args; i++) {
    const dumpi_value *v = &c->args[i];
    uint8_t present = (uint8_t)dumpi_arg_present(c, i);
    h = mix(h, &present, 1);
    h = mix(h, &v->i, sizeof v->i);
    if (!present || !v->p) continue;
    size_t n = (size_t)v->i;
    switch ((dumpi_arg_type)c->fn->args[i].type) {
    case DUMPI_ARG_STATUS:
    case DUMPI_ARG_STATUS_ARRAY:
      for (size_t k = 0; k < n; k++) {
        const dumpi_status *s = (const dumpi_status *)v->p + k;
        h = mix(h, &s->bytes, 4);
        h = mix(h, &s->source, 4);
        h = mix(h, &s->tag, 4);
        h = mix(h, &s->cancelled, 1);
        h = mix(h, &s->error, 1);
      }
      break;
    case DUMPI_ARG_STRING: h = mix_str(h, v->p); break;
    case DUMPI_ARG_STRING_ARRAY:
      for (size_t k = 0; k < n; k++) h = mix_str(h, ((const char *const *)v->p)[k]);
      break;
    case DUMPI_ARG_INT_ARRAY_2D:
      for (size_t k = 0; k < n; k++) {
        const dumpi_int_row *r = (const dumpi_int_row *)v->p + k;
        h = mix(h, &r->n, 4);
        h = mix(h, r->v, (size_t)r->n * 4);
      }
      break;
    case DUMPI_ARG_STRING_ARRAY_2D:
      for (size_t k = 0; k < n; k++) {
        const dumpi_string_list *l = (const dumpi_string_list *)v->p + k;
        h = mix(h, &l->n, 4);
        for (int32_t j = 0; j < l->n; j++) h = mix_str(h, l->v[j]);
      }
      break;
    default: h = mix(h, v->p, n * 4); break;
    }
  }
  return h;
}

static void check_rank(const char *bin, int rank) {
  (void)rank;
  CHECK_CONTEXT("%s", bin);
  dumpi_file *f;
  dumpi_error err;
  if (dumpi_file_open(bin, &f, &err) != DUMPI_OK) {
    FAIL("%s", err.message);
  }
  dumpi_call c;
  dumpi_call *prev = NULL;
  uint64_t prev_fp = 0;
  while (dumpi_file_next(f, &c, &err) == 1) {
    n_records++;
    /* the last record's clone, after the decoder moved on */
    if (prev) {
      CHECK(fingerprint(prev) == prev_fp);
      free(prev);
    }
    dumpi_call *k = dumpi_call_clone(&c);
    CHECK(k != NULL);
    if (!k) break;
    prev_fp = fingerprint(&c);
    CHECK(fingerprint(k) == prev_fp);
    CHECK(k->label == c.label && k->fn == c.fn && k->offset == c.offset && k->thread == c.thread);
    for (int i = 0; i < c.fn->n_args; i++) {
      if (!c.args[i].p) continue;
      n_arrays++;
      dumpi_arg_type t = (dumpi_arg_type)c.fn->args[i].type;
      n_strings += t == DUMPI_ARG_STRING || t == DUMPI_ARG_STRING_ARRAY;
      n_statuses += t == DUMPI_ARG_STATUS || t == DUMPI_ARG_STATUS_ARRAY;
      CHECK(k->args[i].p != c.args[i].p); /* a copy, not the arena's */
    }
    if (c.n_perf) CHECK(k->perf_in != c.perf_in);
    prev = k;
  }
  if (prev) {
    CHECK(fingerprint(prev) == prev_fp);
    free(prev);
  }
  dumpi_file_close(f);
}

int main(int argc, char **argv) {
  int rc = for_each_rank(argc, argv, check_rank);
  if (rc == 2) return rc;
  CHECKF(rc == 0, "a folder's .meta could not be opened");
  printf("%ld records, %ld arrays cloned (%ld strings or string lists, %ld "
         "statuses)\n",
         n_records, n_arrays, n_strings, n_statuses);
  /* the traces must have given arrays of each kind to copy */
  CHECK(n_arrays > 500 && n_strings > 0 && n_statuses > 100);
  return 0;
}
