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
#include <string.h>

typedef struct completion {
  int i_request, i_requests, i_index, i_indices, i_outcount, i_flag;
  int i_status, i_statuses;
} completion;

static int find(const dumpi_fn_info *fn, const char *name) {
  for (int i = 0; i < fn->n_args; i++)
    if (strcmp(fn->args[i].name, name) == 0)
      return i;
  return -1;
}

static int layout_of(const dumpi_fn_info *fn, completion *k) {
  if (!fn || fn->family != DUMPI_FAMILY_WAIT_TEST ||
      strcmp(fn->name, "MPI_Request_get_status") == 0)
    return 0;
  k->i_request = find(fn, "request");
  k->i_requests = find(fn, "requests");
  k->i_index = find(fn, "index");
  k->i_indices = find(fn, "indices");
  k->i_outcount = find(fn, "outcount");
  k->i_flag = find(fn, "flag");
  k->i_status = find(fn, "status");
  k->i_statuses = find(fn, "statuses");
  return 1;
}

/* Argument positions per label, computed once: this runs for every record,
 * so it must not compare names each time. */
static completion layouts[DUMPI_N_LABELS];
static int has_layout[DUMPI_N_LABELS];
static pthread_once_t layouts_once = PTHREAD_ONCE_INIT;

static void build_layouts(void) {
  for (int l = 0; l < DUMPI_N_LABELS; l++)
    has_layout[l] = layout_of(dumpi_fn_lookup((uint16_t)l), &layouts[l]);
}

static int layout(const dumpi_call *c, completion *k) {
  if (!c || !c->fn || c->label >= DUMPI_N_LABELS)
    return 0;
  pthread_once(&layouts_once, build_layouts);
  if (!has_layout[c->label])
    return 0;
  *k = layouts[c->label];
  return 1;
}

enum { K_NONE, K_SOME, K_ANY, K_ALL, K_ONE };

int32_t dumpi_call_completions(const dumpi_call *c, dumpi_completions *d) {
  completion k;
  memset(d, 0, sizeof *d);
  if (!layout(c, &k))
    return 0;
  if (k.i_flag >= 0 && dumpi_call_int(c, k.i_flag) == 0)
    return 0;
  d->requests = dumpi_call_int_array(c, k.i_requests, &d->n_requests);
  if (k.i_statuses >= 0)
    d->statuses = dumpi_call_statuses(c, k.i_statuses, &d->n_statuses);
  else if (k.i_status >= 0)
    d->statuses = dumpi_call_statuses(c, k.i_status, &d->n_statuses);
  if (k.i_indices >= 0) {
    int32_t n = 0;
    d->indices = dumpi_call_int_array(c, k.i_indices, &n);
    int64_t out = dumpi_call_int(c, k.i_outcount);
    if (!d->indices || out <= 0 || out == DUMPI_UNDEFINED)
      return 0;
    d->kind = K_SOME;
    d->n = out < n ? (int32_t)out : n;
  } else if (k.i_index >= 0) {
    int64_t i = dumpi_call_int(c, k.i_index);
    if (i < 0 || i >= d->n_requests)
      return 0;
    d->kind = K_ANY;
    d->single = (int32_t)i;
    d->n = 1;
  } else if (k.i_requests >= 0) {
    d->kind = K_ALL;
    d->n = d->n_requests;
  } else if (k.i_request >= 0 && dumpi_call_has(c, k.i_request)) {
    d->kind = K_ONE;
    d->single = (int32_t)dumpi_call_int(c, k.i_request);
    d->n = 1;
  }
  return d->n;
}

int dumpi_completion_at(const dumpi_completions *d, int32_t i,
                        int32_t *request, const dumpi_status **status) {
  if (i < 0 || i >= d->n)
    return -1;
  int32_t req, si = i; /* status index: the i-th completion's */
  switch (d->kind) {
  case K_SOME:
    if (d->indices[i] < 0 || d->indices[i] >= d->n_requests)
      return -1;
    req = d->requests[d->indices[i]];
    break;
  case K_ANY:
    req = d->requests[d->single];
    si = 0;
    break;
  case K_ALL:
    req = d->requests[i];
    break;
  case K_ONE:
    req = d->single;
    si = 0;
    break;
  default:
    return -1;
  }
  if (request)
    *request = req;
  if (status)
    *status = d->statuses && si < d->n_statuses ? &d->statuses[si] : NULL;
  return 0;
}

int32_t dumpi_call_n_completed(const dumpi_call *c) {
  dumpi_completions d;
  return dumpi_call_completions(c, &d);
}

int dumpi_call_completed(const dumpi_call *c, int32_t i, int32_t *request,
                         const dumpi_status **status) {
  dumpi_completions d;
  dumpi_call_completions(c, &d);
  return dumpi_completion_at(&d, i, request, status);
}
