/* SPDX-License-Identifier: MIT */
/* comm_call.c - see comm_call.h. */
#include "comm_call.h"

#include <glib.h>
#include <string.h>

void comm_replay_call(comm_ctx *ctx, uint32_t rank, const dumpi_call *c)
{
    if (c->fn->family != DUMPI_FAMILY_OBJECT) return;
    const char *n = c->fn->name;
    uint16_t l = c->label;
#define A(name)       ((int)dumpi_call_int_by_name(c, name))
#define ARR(name, np) dumpi_call_int_array(c, dumpi_fn_arg_index(l, name), np)
    int32_t na = 0;
    if (!strcmp(n, "MPI_Comm_dup"))
        comm_record_dup(ctx, rank, A("oldcomm"), A("newcomm"));
    else if (!strcmp(n, "MPI_Comm_split"))
        comm_record_split(ctx, rank, A("oldcomm"), A("color"), A("key"), A("newcomm"));
    else if (!strcmp(n, "MPI_Comm_create"))
        comm_record_create(ctx, rank, A("oldcomm"), A("group"), A("newcomm"));
    else if (!strcmp(n, "MPI_Comm_free"))
        comm_record_free(ctx, rank, A("comm"));
    else if (!strcmp(n, "MPI_Comm_group"))
        comm_record_comm_group(ctx, rank, A("comm"), A("group"));
    else if (!strcmp(n, "MPI_Comm_remote_group"))
        comm_record_comm_remote_group(ctx, rank, A("comm"), A("group"));
    else if (!strcmp(n, "MPI_Group_incl") || !strcmp(n, "MPI_Group_excl")) {
        const int32_t *v = ARR("ranks", &na);
        (n[10] == 'i' ? comm_record_group_incl : comm_record_group_excl)(ctx, rank, A("group"), na, v, A("newgroup"));
    } else if (!strcmp(n, "MPI_Group_range_incl") || !strcmp(n, "MPI_Group_range_excl")) {
        int32_t rows = 0;
        const dumpi_int_row *rr = dumpi_call_int_array_2d(c, dumpi_fn_arg_index(l, "ranges"), &rows);
        int *flat = g_new0(int, (gsize)rows * 3 + 1);
        for (int32_t i = 0; rr && i < rows; i++)
            for (int k = 0; k < 3 && k < rr[i].n; k++) flat[i * 3 + k] = rr[i].v[k];
        (n[16] == 'i' ? comm_record_group_range_incl : comm_record_group_range_excl)(ctx, rank, A("group"), rows, flat,
                                                                                     A("newgroup"));
        g_free(flat);
    } else if (!strcmp(n, "MPI_Group_union"))
        comm_record_group_union(ctx, rank, A("group1"), A("group2"), A("newgroup"));
    else if (!strcmp(n, "MPI_Group_intersection"))
        comm_record_group_intersection(ctx, rank, A("group1"), A("group2"), A("newgroup"));
    else if (!strcmp(n, "MPI_Group_difference"))
        comm_record_group_difference(ctx, rank, A("group1"), A("group2"), A("newgroup"));
    else if (!strcmp(n, "MPI_Group_free"))
        comm_record_group_free(ctx, rank, A("group"));
    else if (!strcmp(n, "MPI_Cart_create")) {
        const int32_t *v = ARR("dims", &na);
        comm_record_cart_create(ctx, rank, A("oldcomm"), na, v, A("newcomm"));
    } else if (!strcmp(n, "MPI_Cart_sub")) {
        const int32_t *v = ARR("remain_dims", &na);
        comm_record_cart_sub(ctx, rank, A("oldcomm"), na, v, A("newcomm"));
    } else if (!strcmp(n, "MPI_Graph_create"))
        comm_record_graph_create(ctx, rank, A("oldcomm"), A("nodes"), A("newcomm"));
    else if (!strcmp(n, "MPI_Intercomm_create"))
        comm_record_intercomm_create(ctx, rank, A("localcomm"), A("localleader"), A("remotecomm"), A("remoteleader"),
                                     A("tag"), A("newcomm"));
    else if (!strcmp(n, "MPI_Intercomm_merge"))
        comm_record_intercomm_merge(ctx, rank, A("comm"), A("high"), A("newcomm"));
#undef A
#undef ARR
}
