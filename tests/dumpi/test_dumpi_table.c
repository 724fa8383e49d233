/* SPDX-License-Identifier: MIT */
/* test_dumpi_table.c - the function table is self-consistent, and the
 * lookups and completion rules behave.
 */
#include "check.h"
#include "dumpi.h"

#include <stdio.h>
#include <string.h>

/* Argument i of a hand-made record: value, array, whether on the stream. */
static void set_arg(dumpi_call *c, int i, int64_t v, const void *p, int present) {
  c->args[i] = (dumpi_value){v, p};
  if (present)
    c->present |= (uint16_t)(1u << i);
  else
    c->present &= (uint16_t) ~(1u << i);
}

int main(void) {
  CHECK(dumpi_fn_count() == DUMPI_N_LABELS);
  int n_records = 0;
  for (int l = 0; l < DUMPI_N_LABELS; l++) {
    const dumpi_fn_info *fn = dumpi_fn_lookup((uint16_t)l);
    CHECK(fn && fn->label == l && fn->name && fn->name[0]);
    if (!fn) continue;
    CHECK(fn->family < DUMPI_N_FAMILIES);
    CHECK(strcmp(dumpi_family_name((dumpi_family)fn->family), "?") != 0);
    CHECK(fn->n_args <= DUMPI_MAX_ARGS);
    CHECK((fn->n_args == 0) == (fn->args == NULL));
    CHECK(dumpi_fn_by_name(fn->name) == fn);
    if (!(fn->flags & DUMPI_FNF_NO_RECORD)) n_records++;
    int root_only = 0;
    for (int i = 0; i < fn->n_args; i++) {
      const dumpi_arg_info *a = &fn->args[i];
      CHECK(a->name && a->type < DUMPI_N_ARG_TYPES);
      CHECK(dumpi_fn_arg_index((uint16_t)l, a->name) == i); /* unique */
      CHECK((a->len_rule == DUMPI_LEN_ARG || a->len_rule == DUMPI_LEN_TRIPLETS) == (a->len_arg != NULL));
      CHECK(dumpi_arg_type_is_scalar((dumpi_arg_type)a->type) == (a->len_rule == DUMPI_LEN_SCALAR) ||
            a->type == DUMPI_ARG_STATUS);
      if (a->flags & DUMPI_ARGF_ROOT_ONLY) {
        root_only = 1;
        /* the rank and root it is compared with come first */
        CHECK(fn->i_rank >= 0 && fn->i_rank < i);
        CHECK(fn->i_root >= 0 && fn->i_root < i);
      }
    }
    if (!root_only) CHECK(fn->i_rank == -1 && fn->i_root == -1);
  }
  /* every label but Pcontrol and the two sentinels has a record layout */
  CHECK(n_records == DUMPI_N_LABELS - 3);
  CHECK(dumpi_fn_lookup(DUMPI_N_LABELS) == NULL);
  CHECK(dumpi_fn_lookup(0xffff) == NULL);

  /* spot checks against sst-dumpi funclabels.h / dumpiio.c */
  const dumpi_fn_info *send = dumpi_fn_lookup(DUMPI_LABEL_SEND);
  CHECK(strcmp(send->name, "MPI_Send") == 0);
  CHECK(send->family == DUMPI_FAMILY_P2P);
  CHECK(dumpi_fn_arg_index(DUMPI_LABEL_SEND, "count") == 0);
  CHECK(dumpi_fn_arg_index(DUMPI_LABEL_SEND, "comm") == 4);
  CHECK(dumpi_fn_arg_index(DUMPI_LABEL_SEND, "nope") == -1);
  CHECK(dumpi_fn_arg_index(9999, "count") == -1);
  CHECK(dumpi_fn_by_name("Send") == send);
  CHECK(dumpi_fn_by_name("MPI_Wait")->label == 13);
  CHECK(dumpi_fn_by_name("Wait")->label == 13);
  CHECK(dumpi_fn_by_name("MPIO_Wait") != dumpi_fn_by_name("MPI_Wait"));
  CHECK(dumpi_fn_by_name("MPI_Nope") == NULL);
  CHECK(strcmp(dumpi_fn_lookup(DUMPI_LABEL_INIT)->name, "MPI_Init") == 0);
  CHECK(strcmp(dumpi_fn_lookup(DUMPI_LABEL_INIT_THREAD)->name, "MPI_Init_thread") == 0);
  CHECK(strcmp(dumpi_fn_lookup(DUMPI_LABEL_FINALIZE)->name, "MPI_Finalize") == 0);
  CHECK(strcmp(dumpi_fn_lookup(DUMPI_LABEL_ALL_FUNCTIONS)->name, "MPI_ALL_FUNCTIONS") == 0);
  CHECK(dumpi_fn_lookup(DUMPI_LABEL_FUNCTION_ENTER)->family == DUMPI_FAMILY_USER);
  CHECK(dumpi_fn_by_name("MPI_Pcontrol")->flags & DUMPI_FNF_NO_RECORD);
  const dumpi_fn_info *gv = dumpi_fn_by_name("MPI_Gatherv");
  CHECK(gv->family == DUMPI_FAMILY_COLLECTIVE);
  CHECK(strcmp(gv->args[gv->i_rank].name, "commrank") == 0);
  CHECK(strcmp(gv->args[gv->i_root].name, "root") == 0);
  int i = dumpi_fn_arg_index(gv->label, "recvcounts");
  CHECK(i >= 0 && gv->args[i].type == DUMPI_ARG_INT_ARRAY && strcmp(gv->args[i].len_arg, "commsize") == 0 &&
        (gv->args[i].flags & DUMPI_ARGF_ROOT_ONLY));
  const dumpi_fn_info *ri = dumpi_fn_by_name("MPI_Group_range_incl");
  i = dumpi_fn_arg_index(ri->label, "ranges");
  CHECK(i >= 0 && ri->args[i].type == DUMPI_ARG_INT_ARRAY_2D && ri->args[i].len_rule == DUMPI_LEN_TRIPLETS);
  const dumpi_fn_info *sm = dumpi_fn_by_name("MPI_Comm_spawn_multiple");
  CHECK(sm->n_args == 11);
  i = dumpi_fn_arg_index(sm->label, "argvs");
  CHECK(i >= 0 && sm->args[i].type == DUMPI_ARG_STRING_ARRAY_2D);
  const dumpi_fn_info *ws = dumpi_fn_by_name("MPI_Waitsome");
  CHECK(ws->family == DUMPI_FAMILY_WAIT_TEST);
  i = dumpi_fn_arg_index(ws->label, "statuses");
  CHECK(i >= 0 && ws->args[i].type == DUMPI_ARG_STATUS_ARRAY && strcmp(ws->args[i].len_arg, "outcount") == 0);
  CHECK(dumpi_fn_by_name("MPI_Iprobe")->family == DUMPI_FAMILY_PROBE);
  CHECK(dumpi_fn_by_name("MPI_Put")->family == DUMPI_FAMILY_ONE_SIDED);
  CHECK(dumpi_fn_by_name("MPI_File_write_at")->family == DUMPI_FAMILY_IO);
  CHECK(dumpi_fn_by_name("MPI_Comm_split")->family == DUMPI_FAMILY_OBJECT);
  CHECK(strcmp(dumpi_family_name(DUMPI_N_FAMILIES), "?") == 0);
  CHECK(strcmp(dumpi_arg_type_name(DUMPI_ARG_STATUS_ARRAY), "status[]") == 0);

  /* completion rules on hand-made records */
  dumpi_call c;
  memset(&c, 0, sizeof c);
  static const int32_t reqs[3] = {5, 6, 7}, idx[2] = {2, 0};
  static const dumpi_status st[2] = {{4, 1, 9, 0, 0}, {8, 3, 10, 0, 0}};
  c.fn = dumpi_fn_by_name("MPI_Waitsome");
  c.label = c.fn->label;
  set_arg(&c, 0, 3, NULL, 1);
  set_arg(&c, 1, 3, reqs, 1);
  set_arg(&c, 2, 2, NULL, 1);
  set_arg(&c, 3, 2, idx, 1);
  set_arg(&c, 4, 2, st, 1);
  int32_t r;
  const dumpi_status *s;
  CHECK(dumpi_call_n_completed(&c) == 2);
  CHECK(dumpi_call_completed(&c, 0, &r, &s) == 0 && r == 7 && s == &st[0]);
  CHECK(dumpi_call_completed(&c, 1, &r, &s) == 0 && r == 5 && s == &st[1]);
  CHECK(dumpi_call_completed(&c, 2, &r, &s) == -1);
  c.args[2].i = DUMPI_UNDEFINED; /* no active request */
  set_arg(&c, 3, 0, NULL, 1);
  CHECK(dumpi_call_n_completed(&c) == 0);

  c.fn = dumpi_fn_by_name("MPI_Testany"); /* count requests index flag st */
  c.label = c.fn->label;
  set_arg(&c, 2, 1, NULL, 1);
  set_arg(&c, 3, 0, NULL, 1);
  set_arg(&c, 4, 0, NULL, 0);
  CHECK(dumpi_call_n_completed(&c) == 0); /* flag 0 */
  c.args[3].i = 1;
  CHECK(dumpi_call_n_completed(&c) == 1);
  CHECK(dumpi_call_completed(&c, 0, &r, &s) == 0 && r == 6 && s == NULL);
  c.args[2].i = DUMPI_UNDEFINED;
  CHECK(dumpi_call_n_completed(&c) == 0);

  c.fn = dumpi_fn_by_name("MPI_Waitall");
  c.label = c.fn->label;
  set_arg(&c, 2, 0, NULL, 0); /* statuses not recorded */
  CHECK(dumpi_call_n_completed(&c) == 3);
  CHECK(dumpi_call_completed(&c, 2, &r, &s) == 0 && r == 7 && s == NULL);

  c.fn = dumpi_fn_by_name("MPI_Wait");
  c.label = c.fn->label;
  set_arg(&c, 0, 9, NULL, 1);
  set_arg(&c, 1, 1, st, 1);
  CHECK(dumpi_call_n_completed(&c) == 1);
  CHECK(dumpi_call_completed(&c, 0, &r, &s) == 0 && r == 9 && s == &st[0]);
  CHECK(dumpi_call_status(&c, 1) == &st[0]);
  CHECK(dumpi_call_int(&c, 0) == 9);
  CHECK(dumpi_call_int(&c, 1) == 0); /* not a scalar */
  CHECK(dumpi_call_int(&c, 7) == 0); /* out of range */
  CHECK(dumpi_call_int_by_name(&c, "request") == 9);

  c.fn = dumpi_fn_by_name("MPI_Request_get_status");
  c.label = c.fn->label;
  set_arg(&c, 1, 1, NULL, 1);
  CHECK(dumpi_call_n_completed(&c) == 0);
  c.fn = send;
  c.label = 0;
  CHECK(dumpi_call_n_completed(&c) == 0);

  printf("%d labels, %d with a record layout\n", DUMPI_N_LABELS, n_records);
  return 0;
}
