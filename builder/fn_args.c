/* SPDX-License-Identifier: MIT */
/* fn_args.c - see fn_args.h. */
#include "fn_args.h"

#include <stddef.h>

#include "dumpi_table.h"

/* One row per field of fn_args: the argument's name in the DUMPI table. */
/* clang-format off */
static const struct {
    const char *name;
    size_t offset;
} names[] = {
#define ARG(n) {#n, offsetof(fn_args, i_##n)}
    ARG(count),      ARG(datatype),   ARG(sendcount), ARG(sendtype), ARG(recvcount),
    ARG(recvtype),   ARG(sendcounts), ARG(recvcounts), ARG(sendtypes), ARG(recvtypes),
    ARG(root),       ARG(commrank),   ARG(commsize),  ARG(comm),     ARG(dest),
    ARG(source),     ARG(status),     ARG(tag),       ARG(sendtag),  ARG(recvtag),
    ARG(request),    ARG(requests),   ARG(flag),      ARG(outcount),
#undef ARG
};
/* clang-format on */

_Static_assert(sizeof names / sizeof names[0] == sizeof(fn_args), "a row per field of fn_args");

void fn_args_find(uint16_t label, fn_args *a)
{
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
        *((int8_t *)a + names[k].offset) = (int8_t)dumpi_fn_arg_index(label, names[k].name);
}
