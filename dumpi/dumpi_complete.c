/* SPDX-License-Identifier: MIT */
/* dumpi_complete.c - which requests a Wait/Test-family record completed.
 *
 * Driven by the argument names of the table row rather than by label, so
 * the MPI and MPIO variants share one rule set:
 *   indices + outcount   (Waitsome/Testsome)  requests[indices[i]], i < outcount
 *   index                (Waitany/Testany)    requests[index] unless
 *                                             index is MPI_UNDEFINED or flag 0
 *   requests             (Waitall/Testall)    all, unless flag is 0
 *   request              (Wait/Test)          it, unless flag is 0
 * MPI_Request_get_status completes nothing: it never frees the request.
 * Statuses: "statuses"[i] (or [0] for *any) / "status" when recorded.
 */
#include "dumpi_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>

typedef struct completion {
  int i_request, i_requests, i_index, i_indices, i_outcount, i_flag;
  int i_status, i_statuses;
} completion;

/* The argument called name if it has the wanted kind of type (scalar, int
 * array or status), else -1: a layout names only arguments the record
 * walk below can read without checking their type again. */
enum { WANT_SCALAR, WANT_INT_ARRAY, WANT_STATUS };

static int find(const dumpi_fn_info *fn, const char *name, int want) {
  for (int i = 0; i < fn->n_args; i++) {
    if (strcmp(fn->args[i].name, name) != 0) continue;
    dumpi_arg_type t = (dumpi_arg_type)fn->args[i].type;
    int ok = want == WANT_SCALAR ? dumpi_arg_type_is_scalar(t)
             : want == WANT_STATUS
                 ? t == DUMPI_ARG_STATUS || t == DUMPI_ARG_STATUS_ARRAY
                 : t == DUMPI_ARG_INT_ARRAY || t == DUMPI_ARG_REQUEST_ARRAY || t == DUMPI_ARG_IOREQUEST_ARRAY;
    return ok ? i : -1;
  }
  return -1;
}

static int layout_of(const dumpi_fn_info *fn, completion *k) {
  if (!fn || fn->family != DUMPI_FAMILY_WAIT_TEST || strcmp(fn->name, "MPI_Request_get_status") == 0) return 0;
  k->i_request = find(fn, "request", WANT_SCALAR);
  k->i_requests = find(fn, "requests", WANT_INT_ARRAY);
  k->i_index = find(fn, "index", WANT_SCALAR);
  k->i_indices = find(fn, "indices", WANT_INT_ARRAY);
  k->i_outcount = find(fn, "outcount", WANT_SCALAR);
  k->i_flag = find(fn, "flag", WANT_SCALAR);
  k->i_status = find(fn, "status", WANT_STATUS);
  k->i_statuses = find(fn, "statuses", WANT_STATUS);
  return 1;
}

static completion layouts[DUMPI_N_LABELS];
static int has_layout[DUMPI_N_LABELS];
static pthread_once_t layouts_once = PTHREAD_ONCE_INIT;
/* Set once the layouts are made: the test every Wait and Test record
 * makes, where pthread_once() was a call into libc for each. */
static atomic_bool layouts_ready;

static void build_layouts(void) {
  for (int l = 0; l < DUMPI_N_LABELS; l++) has_layout[l] = layout_of(dumpi_fn_lookup((uint16_t)l), &layouts[l]);
  atomic_store_explicit(&layouts_ready, true, memory_order_release);
}

static const completion *layout(const dumpi_call *c) {
  if (!c || !c->fn || c->label >= DUMPI_N_LABELS) return NULL;
  if (!atomic_load_explicit(&layouts_ready, memory_order_acquire)) pthread_once(&layouts_once, build_layouts);
  return has_layout[c->label] ? &layouts[c->label] : NULL;
}

/* Argument i of c when the record has it (i from the layout: its type is
 * already known to be the right kind), else NULL. */
static inline const dumpi_value *val(const dumpi_call *c, int i) {
  return i >= 0 && dumpi_arg_present(c, i) ? &c->args[i] : NULL;
}

enum { K_NONE, K_SOME, K_ANY, K_ALL, K_ONE };

/* Runs for every Wait/Test record: the arguments are read straight from
 * the decoded record through the layout's checked indexes. */
int32_t dumpi_call_completions(const dumpi_call *c, dumpi_completions *d) {
  /* Field by field: `= {0}` became a `rep stos`, whose start-up cost is
   * paid on every Wait and Test record. */
  d->n = 0;
  d->requests = NULL;
  d->n_requests = 0;
  d->indices = NULL;
  d->single = 0;
  d->kind = K_NONE;
  d->statuses = NULL;
  d->n_statuses = 0;
  const completion *k = layout(c);
  if (!k) return 0;
  /* Test* with flag 0 completed nothing; so does one whose record lacks
   * the flag. */
  const dumpi_value *v = val(c, k->i_flag);
  if (k->i_flag >= 0 && (!v || v->i == 0)) return 0;
  if ((v = val(c, k->i_requests))) {
    d->requests = v->p;
    d->n_requests = (int32_t)v->i;
  }
  if ((v = val(c, k->i_statuses >= 0 ? k->i_statuses : k->i_status))) {
    d->statuses = v->p;
    d->n_statuses = (int32_t)v->i;
  }
  if (k->i_indices >= 0) {
    v = val(c, k->i_indices);
    const dumpi_value *o = val(c, k->i_outcount);
    int64_t out = o ? o->i : 0;
    if (!v || !v->p || out <= 0 || out == DUMPI_UNDEFINED) return 0;
    d->indices = v->p;
    d->kind = K_SOME;
    d->n = out < v->i ? (int32_t)out : (int32_t)v->i;
  } else if (k->i_index >= 0) {
    v = val(c, k->i_index);
    int64_t i = v ? v->i : 0;
    if (i < 0 || i >= d->n_requests) return 0;
    d->kind = K_ANY;
    d->single = (int32_t)i;
    d->n = 1;
  } else if (k->i_requests >= 0) {
    d->kind = K_ALL;
    d->n = d->n_requests;
  } else if ((v = val(c, k->i_request))) {
    d->kind = K_ONE;
    d->single = (int32_t)v->i;
    d->n = 1;
  }
  return d->n;
}

int dumpi_completion_at(const dumpi_completions *d, int32_t i, int32_t *request, const dumpi_status **status) {
  if (i < 0 || i >= d->n) return -1;
  int32_t req, si = i; /* status index: the i-th completion's */
  switch (d->kind) {
  case K_SOME:
    if (d->indices[i] < 0 || d->indices[i] >= d->n_requests) return -1;
    req = d->requests[d->indices[i]];
    break;
  case K_ANY:
    req = d->requests[d->single];
    si = 0;
    break;
  case K_ALL: req = d->requests[i]; break;
  case K_ONE:
    req = d->single;
    si = 0;
    break;
  default: return -1;
  }
  if (request) *request = req;
  if (status) *status = d->statuses && si < d->n_statuses ? &d->statuses[si] : NULL;
  return 0;
}

int32_t dumpi_completions_live(const dumpi_completions *d) {
  int32_t live = 0;
  switch (d->kind) {
  case K_SOME:
    for (int32_t i = 0; i < d->n; i++) {
      int32_t x = d->indices[i];
      live += x >= 0 && x < d->n_requests && d->requests[x] != DUMPI_REQUEST_NULL;
    }
    break;
  case K_ALL:
    for (int32_t i = 0; i < d->n; i++) live += d->requests[i] != DUMPI_REQUEST_NULL;
    break;
  case K_ANY: live = d->n > 0 && d->requests[d->single] != DUMPI_REQUEST_NULL; break;
  case K_ONE: live = d->n > 0 && d->single != DUMPI_REQUEST_NULL; break;
  default: break;
  }
  return live;
}

int32_t dumpi_call_n_completed(const dumpi_call *c) {
  dumpi_completions d;
  return dumpi_call_completions(c, &d);
}

int dumpi_call_completed(const dumpi_call *c, int32_t i, int32_t *request, const dumpi_status **status) {
  dumpi_completions d;
  dumpi_call_completions(c, &d);
  return dumpi_completion_at(&d, i, request, status);
}
