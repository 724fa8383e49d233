/* SPDX-License-Identifier: MIT */
/* dumpi_table.c - the DUMPI function table (see dumpi_table.h).
 *
 * Each row lists a function's arguments in the order libdumpi writes them
 * (sst-dumpi common/dumpiio.c, dumpi_read_<fn>): this order is NOT the MPI
 * signature order, and collectives carry extra "commrank"/"commsize"
 * fields so that root-only arrays can be decoded. Labels follow
 * common/funclabels.h, names common/funcs.c (dumpi_function_names).
 */
#include "dumpi_table.h"

#include <stddef.h>
#include <string.h>

/* clang-format off */
/* Scalar / array from another arg's value / NUL-terminated, plus the
 * variants written only at the root (commrank == root). */
#define SC(n, t) {n, DUMPI_ARG_##t, DUMPI_LEN_SCALAR, 0, NULL}
#define SC_ROOT(n, t) {n, DUMPI_ARG_##t, DUMPI_LEN_SCALAR, DUMPI_ARGF_ROOT_ONLY, NULL}
#define AR(n, t, len) {n, DUMPI_ARG_##t, DUMPI_LEN_ARG, 0, len}
#define AR_ROOT(n, t, len) {n, DUMPI_ARG_##t, DUMPI_LEN_ARG, DUMPI_ARGF_ROOT_ONLY, len}
#define NT(n, t) {n, DUMPI_ARG_##t, DUMPI_LEN_NULLTERM, 0, NULL}
#define NT_ROOT(n, t) {n, DUMPI_ARG_##t, DUMPI_LEN_NULLTERM, DUMPI_ARGF_ROOT_ONLY, NULL}
#define TRIPLETS(n, len) {n, DUMPI_ARG_INT_ARRAY_2D, DUMPI_LEN_TRIPLETS, 0, len}

static const dumpi_arg_info a_send[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM)
};
static const dumpi_arg_info a_recv[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("source", SOURCE),
  SC("tag", TAG), SC("comm", COMM), SC("status", STATUS)
};
static const dumpi_arg_info a_get_count[] = {
  SC("status", STATUS), SC("datatype", DATATYPE), SC("count", INT)
};
static const dumpi_arg_info a_bsend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM)
};
static const dumpi_arg_info a_ssend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM)
};
static const dumpi_arg_info a_rsend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM)
};
static const dumpi_arg_info a_buffer_attach[] = {
  SC("size", INT)
};
static const dumpi_arg_info a_buffer_detach[] = {
  SC("size", INT)
};
static const dumpi_arg_info a_isend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_ibsend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_issend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_irsend[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_irecv[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("source", SOURCE),
  SC("tag", TAG), SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_wait[] = {
  SC("request", REQUEST), SC("status", STATUS)
};
static const dumpi_arg_info a_test[] = {
  SC("request", REQUEST), SC("flag", INT), SC("status", STATUS)
};
static const dumpi_arg_info a_request_free[] = {
  SC("request", REQUEST)
};
static const dumpi_arg_info a_waitany[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"), SC("index", INT),
  SC("status", STATUS)
};
static const dumpi_arg_info a_testany[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"), SC("index", INT),
  SC("flag", INT), SC("status", STATUS)
};
static const dumpi_arg_info a_waitall[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"),
  AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_testall[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"), SC("flag", INT),
  AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_waitsome[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"),
  SC("outcount", INT), AR("indices", INT_ARRAY, "outcount"),
  AR("statuses", STATUS_ARRAY, "outcount")
};
static const dumpi_arg_info a_testsome[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count"),
  SC("outcount", INT), AR("indices", INT_ARRAY, "outcount"),
  AR("statuses", STATUS_ARRAY, "outcount")
};
static const dumpi_arg_info a_iprobe[] = {
  SC("source", SOURCE), SC("tag", TAG), SC("comm", COMM), SC("flag", INT),
  SC("status", STATUS)
};
static const dumpi_arg_info a_probe[] = {
  SC("source", SOURCE), SC("tag", TAG), SC("comm", COMM), SC("status", STATUS)
};
static const dumpi_arg_info a_cancel[] = {
  SC("request", REQUEST)
};
static const dumpi_arg_info a_test_cancelled[] = {
  SC("status", STATUS), SC("cancelled", INT)
};
static const dumpi_arg_info a_send_init[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_bsend_init[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_ssend_init[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_rsend_init[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST), SC("tag", TAG),
  SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_recv_init[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("source", SOURCE),
  SC("tag", TAG), SC("comm", COMM), SC("request", REQUEST)
};
static const dumpi_arg_info a_start[] = {
  SC("request", REQUEST)
};
static const dumpi_arg_info a_startall[] = {
  SC("count", INT), AR("requests", REQUEST_ARRAY, "count")
};
static const dumpi_arg_info a_sendrecv[] = {
  SC("sendcount", INT), SC("sendtype", DATATYPE), SC("dest", DEST),
  SC("sendtag", TAG), SC("recvcount", INT), SC("recvtype", DATATYPE),
  SC("source", SOURCE), SC("recvtag", TAG), SC("comm", COMM),
  SC("status", STATUS)
};
static const dumpi_arg_info a_sendrecv_replace[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("dest", DEST),
  SC("sendtag", TAG), SC("source", SOURCE), SC("recvtag", TAG),
  SC("comm", COMM), SC("status", STATUS)
};
static const dumpi_arg_info a_type_contiguous[] = {
  SC("count", INT), SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_vector[] = {
  SC("count", INT), SC("blocklength", INT), SC("stride", INT),
  SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_hvector[] = {
  SC("count", INT), SC("blocklength", INT), SC("stride", INT),
  SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_indexed[] = {
  SC("count", INT), AR("lengths", INT_ARRAY, "count"),
  AR("indices", INT_ARRAY, "count"), SC("oldtype", DATATYPE),
  SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_hindexed[] = {
  SC("count", INT), AR("lengths", INT_ARRAY, "count"),
  AR("indices", INT_ARRAY, "count"), SC("oldtype", DATATYPE),
  SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_struct[] = {
  SC("count", INT), AR("lengths", INT_ARRAY, "count"),
  {"indices", DUMPI_ARG_INT_ARRAY, DUMPI_LEN_ARG, DUMPI_ARGF_SCALAR_BEFORE_0_6_9, "count"},
  AR("oldtypes", DATATYPE_ARRAY, "count"), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_address[] = {
  SC("address", INT)
};
static const dumpi_arg_info a_type_extent[] = {
  SC("datatype", DATATYPE), SC("extent", INT)
};
static const dumpi_arg_info a_type_size[] = {
  SC("datatype", DATATYPE), SC("size", INT)
};
static const dumpi_arg_info a_type_lb[] = {
  SC("datatype", DATATYPE), SC("lb", INT)
};
static const dumpi_arg_info a_type_ub[] = {
  SC("datatype", DATATYPE), SC("ub", INT)
};
static const dumpi_arg_info a_type_commit[] = {
  SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_type_free[] = {
  SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_get_elements[] = {
  SC("status", STATUS), SC("datatype", DATATYPE), SC("elements", INT)
};
static const dumpi_arg_info a_pack[] = {
  SC("incount", INT), SC("datatype", DATATYPE), SC("outcount", INT),
  SC("position.in", INT), SC("position.out", INT), SC("comm", COMM)
};
static const dumpi_arg_info a_unpack[] = {
  SC("incount", INT), SC("position.in", INT), SC("position.out", INT),
  SC("outcount", INT), SC("datatype", DATATYPE), SC("comm", COMM)
};
static const dumpi_arg_info a_pack_size[] = {
  SC("incount", INT), SC("datatype", DATATYPE), SC("comm", COMM),
  SC("size", INT)
};
static const dumpi_arg_info a_barrier[] = {
  SC("comm", COMM)
};
static const dumpi_arg_info a_bcast[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("root", INT),
  SC("comm", COMM)
};
static const dumpi_arg_info a_gather[] = {
  SC("commrank", INT), SC("sendcount", INT), SC("sendtype", DATATYPE),
  SC("root", INT), SC("comm", COMM), SC_ROOT("recvcount", INT),
  SC_ROOT("recvtype", DATATYPE)
};
static const dumpi_arg_info a_gatherv[] = {
  SC("commrank", INT), SC("commsize", INT), SC("sendcount", INT),
  SC("sendtype", DATATYPE), SC("root", INT), SC("comm", COMM),
  AR_ROOT("recvcounts", INT_ARRAY, "commsize"),
  AR_ROOT("displs", INT_ARRAY, "commsize"), SC("recvtype", DATATYPE)
};
static const dumpi_arg_info a_scatter[] = {
  SC("commrank", INT), SC("recvcount", INT), SC("recvtype", DATATYPE),
  SC("root", INT), SC("comm", COMM), SC_ROOT("sendcount", INT),
  SC_ROOT("sendtype", DATATYPE)
};
static const dumpi_arg_info a_scatterv[] = {
  SC("commrank", INT), SC("commsize", INT), SC("sendtype", DATATYPE),
  SC("recvcount", INT), SC("recvtype", DATATYPE), SC("root", INT),
  SC("comm", COMM), AR_ROOT("sendcounts", INT_ARRAY, "commsize"),
  AR_ROOT("displs", INT_ARRAY, "commsize")
};
static const dumpi_arg_info a_allgather[] = {
  SC("sendcount", INT), SC("sendtype", DATATYPE), SC("recvcount", INT),
  SC("recvtype", DATATYPE), SC("comm", COMM)
};
static const dumpi_arg_info a_allgatherv[] = {
  SC("commsize", INT), SC("sendcount", INT), SC("sendtype", DATATYPE),
  AR("recvcounts", INT_ARRAY, "commsize"), AR("displs", INT_ARRAY, "commsize"),
  SC("recvtype", DATATYPE), SC("comm", COMM)
};
static const dumpi_arg_info a_alltoall[] = {
  SC("sendcount", INT), SC("sendtype", DATATYPE), SC("recvcount", INT),
  SC("recvtype", DATATYPE), SC("comm", COMM)
};
static const dumpi_arg_info a_alltoallv[] = {
  SC("commsize", INT), AR("sendcounts", INT_ARRAY, "commsize"),
  AR("senddispls", INT_ARRAY, "commsize"), SC("sendtype", DATATYPE),
  AR("recvcounts", INT_ARRAY, "commsize"),
  AR("recvdispls", INT_ARRAY, "commsize"), SC("recvtype", DATATYPE),
  SC("comm", COMM)
};
static const dumpi_arg_info a_reduce[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("op", OP), SC("root", INT),
  SC("comm", COMM)
};
static const dumpi_arg_info a_op_create[] = {
  SC("commute", INT), SC("op", OP)
};
static const dumpi_arg_info a_op_free[] = {
  SC("op", OP)
};
static const dumpi_arg_info a_allreduce[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("op", OP), SC("comm", COMM)
};
static const dumpi_arg_info a_reduce_scatter[] = {
  SC("commsize", INT), AR("recvcounts", INT_ARRAY, "commsize"),
  SC("datatype", DATATYPE), SC("op", OP), SC("comm", COMM)
};
static const dumpi_arg_info a_scan[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("op", OP), SC("comm", COMM)
};
static const dumpi_arg_info a_group_size[] = {
  SC("group", GROUP), SC("size", INT)
};
static const dumpi_arg_info a_group_rank[] = {
  SC("group", GROUP), SC("rank", INT)
};
static const dumpi_arg_info a_group_translate_ranks[] = {
  SC("group1", GROUP), SC("count", INT), AR("ranks1", INT_ARRAY, "count"),
  SC("group2", GROUP), AR("ranks2", INT_ARRAY, "count")
};
static const dumpi_arg_info a_group_compare[] = {
  SC("group1", GROUP), SC("group2", GROUP), SC("result", COMPARISON)
};
static const dumpi_arg_info a_comm_group[] = {
  SC("comm", COMM), SC("group", GROUP)
};
static const dumpi_arg_info a_group_union[] = {
  SC("group1", GROUP), SC("group2", GROUP), SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_intersection[] = {
  SC("group1", GROUP), SC("group2", GROUP), SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_difference[] = {
  SC("group1", GROUP), SC("group2", GROUP), SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_incl[] = {
  SC("group", GROUP), SC("count", INT), AR("ranks", INT_ARRAY, "count"),
  SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_excl[] = {
  SC("group", GROUP), SC("count", INT), AR("ranks", INT_ARRAY, "count"),
  SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_range_incl[] = {
  SC("group", GROUP), SC("count", INT), TRIPLETS("ranges", "count"),
  SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_range_excl[] = {
  SC("group", GROUP), SC("count", INT), TRIPLETS("ranges", "count"),
  SC("newgroup", GROUP)
};
static const dumpi_arg_info a_group_free[] = {
  SC("group", GROUP)
};
static const dumpi_arg_info a_comm_size[] = {
  SC("comm", COMM), SC("size", INT)
};
static const dumpi_arg_info a_comm_rank[] = {
  SC("comm", COMM), SC("rank", INT)
};
static const dumpi_arg_info a_comm_compare[] = {
  SC("comm1", COMM), SC("comm2", COMM), SC("result", COMPARISON)
};
static const dumpi_arg_info a_comm_dup[] = {
  SC("oldcomm", COMM), SC("newcomm", COMM)
};
static const dumpi_arg_info a_comm_create[] = {
  SC("oldcomm", COMM), SC("group", GROUP), SC("newcomm", COMM)
};
static const dumpi_arg_info a_comm_split[] = {
  SC("oldcomm", COMM), SC("color", INT), SC("key", INT), SC("newcomm", COMM)
};
static const dumpi_arg_info a_comm_free[] = {
  SC("comm", COMM)
};
static const dumpi_arg_info a_comm_test_inter[] = {
  SC("comm", COMM), SC("inter", INT)
};
static const dumpi_arg_info a_comm_remote_size[] = {
  SC("comm", COMM), SC("size", INT)
};
static const dumpi_arg_info a_comm_remote_group[] = {
  SC("comm", COMM), SC("group", GROUP)
};
static const dumpi_arg_info a_intercomm_create[] = {
  SC("localcomm", COMM), SC("localleader", INT), SC("remotecomm", COMM),
  SC("remoteleader", INT), SC("tag", TAG), SC("newcomm", COMM)
};
static const dumpi_arg_info a_intercomm_merge[] = {
  SC("comm", COMM), SC("high", INT), SC("newcomm", COMM)
};
static const dumpi_arg_info a_keyval_create[] = {
  SC("key", KEYVAL)
};
static const dumpi_arg_info a_keyval_free[] = {
  SC("key", KEYVAL)
};
static const dumpi_arg_info a_attr_put[] = {
  SC("comm", COMM), SC("key", INT)
};
static const dumpi_arg_info a_attr_get[] = {
  SC("comm", COMM), SC("key", INT), SC("flag", INT)
};
static const dumpi_arg_info a_attr_delete[] = {
  SC("comm", COMM), SC("key", INT)
};
static const dumpi_arg_info a_topo_test[] = {
  SC("comm", COMM), SC("topo", TOPOLOGY)
};
static const dumpi_arg_info a_cart_create[] = {
  SC("oldcomm", COMM), SC("ndim", INT), AR("dims", INT_ARRAY, "ndim"),
  AR("periods", INT_ARRAY, "ndim"), SC("reorder", INT), SC("newcomm", COMM)
};
static const dumpi_arg_info a_dims_create[] = {
  SC("nodes", INT), SC("ndim", INT), AR("dims.in", INT_ARRAY, "ndim"),
  AR("dims.out", INT_ARRAY, "ndim")
};
static const dumpi_arg_info a_graph_create[] = {
  SC("numedges", INT), SC("oldcomm", COMM), SC("nodes", INT),
  AR("index", INT_ARRAY, "nodes"), AR("edges", INT_ARRAY, "numedges"),
  SC("reorder", INT), SC("newcomm", COMM)
};
static const dumpi_arg_info a_graphdims_get[] = {
  SC("comm", COMM), SC("nodes", INT), SC("edges", INT)
};
static const dumpi_arg_info a_graph_get[] = {
  SC("totedges", INT), SC("totnodes", INT), SC("comm", COMM),
  SC("maxindex", INT), SC("maxedges", INT), AR("index", INT_ARRAY, "totnodes"),
  AR("edges", INT_ARRAY, "totedges")
};
static const dumpi_arg_info a_cartdim_get[] = {
  SC("comm", COMM), SC("ndim", INT)
};
static const dumpi_arg_info a_cart_get[] = {
  SC("ndim", INT), SC("comm", COMM), SC("maxdims", INT),
  AR("dims", INT_ARRAY, "ndim"), AR("periods", INT_ARRAY, "ndim"),
  {"coords", DUMPI_ARG_INT_ARRAY, DUMPI_LEN_ARG, DUMPI_ARGF_SCALAR_BEFORE_0_6_8, "ndim"}
};
static const dumpi_arg_info a_cart_rank[] = {
  SC("ndim", INT), SC("comm", COMM), AR("coords", INT_ARRAY, "ndim"),
  SC("rank", INT)
};
static const dumpi_arg_info a_cart_coords[] = {
  SC("ndim", INT), SC("comm", COMM), SC("rank", INT), SC("maxdims", INT),
  AR("coords", INT_ARRAY, "ndim")
};
static const dumpi_arg_info a_graph_neighbors_count[] = {
  SC("comm", COMM), SC("rank", INT), SC("nneigh", INT)
};
static const dumpi_arg_info a_graph_neighbors[] = {
  SC("nneigh", INT), SC("comm", COMM), SC("rank", INT),
  SC("maxneighbors", INT), AR("neighbors", INT_ARRAY, "nneigh")
};
static const dumpi_arg_info a_cart_shift[] = {
  SC("comm", COMM), SC("direction", INT), SC("displ", INT),
  SC("source", SOURCE), SC("dest", DEST)
};
static const dumpi_arg_info a_cart_sub[] = {
  SC("ndim", INT), SC("oldcomm", COMM), AR("remain_dims", INT_ARRAY, "ndim"),
  SC("newcomm", COMM)
};
static const dumpi_arg_info a_cart_map[] = {
  SC("comm", COMM), SC("ndim", INT), AR("dims", INT_ARRAY, "ndim"),
  AR("period", INT_ARRAY, "ndim"), SC("newrank", INT)
};
static const dumpi_arg_info a_graph_map[] = {
  SC("numedges", INT), SC("comm", COMM), SC("nodes", INT),
  AR("index", INT_ARRAY, "nodes"), AR("edges", INT_ARRAY, "numedges"),
  SC("newrank", INT)
};
static const dumpi_arg_info a_get_processor_name[] = {
  NT("name", STRING), SC("resultlen", INT)
};
static const dumpi_arg_info a_get_version[] = {
  SC("version", INT), SC("subversion", INT)
};
static const dumpi_arg_info a_errhandler_create[] = {
  SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_errhandler_set[] = {
  SC("comm", COMM), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_errhandler_get[] = {
  SC("comm", COMM), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_errhandler_free[] = {
  SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_error_string[] = {
  SC("errorcode", INT), NT("errorstring", STRING), SC("resultlen", INT)
};
static const dumpi_arg_info a_error_class[] = {
  SC("errorcode", INT), SC("errorclass", INT)
};
static const dumpi_arg_info a_init[] = {
  {"argv", DUMPI_ARG_STRING_ARRAY, DUMPI_LEN_ARG, DUMPI_ARGF_COUNT_TWICE_BEFORE_0_6_2, "argc"}
};
static const dumpi_arg_info a_initialized[] = {
  SC("result", INT)
};
static const dumpi_arg_info a_abort[] = {
  SC("comm", COMM), SC("errorcode", INT)
};
static const dumpi_arg_info a_close_port[] = {
  NT("portname", STRING)
};
static const dumpi_arg_info a_comm_accept[] = {
  NT("portname", STRING), SC("info", INFO), SC("root", INT),
  SC("oldcomm", COMM), SC("newcomm", COMM)
};
static const dumpi_arg_info a_comm_connect[] = {
  NT("portname", STRING), SC("info", INFO), SC("root", INT),
  SC("oldcomm", COMM), SC("newcomm", COMM)
};
static const dumpi_arg_info a_comm_disconnect[] = {
  SC("comm", COMM)
};
static const dumpi_arg_info a_comm_get_parent[] = {
  SC("parent", COMM)
};
static const dumpi_arg_info a_comm_join[] = {
  SC("fd", INT), SC("comm", COMM)
};
static const dumpi_arg_info a_comm_spawn[] = {
  SC("oldcommrank", INT), SC("root", INT), SC("oldcomm", COMM),
  SC("newcomm", COMM), NT_ROOT("command", STRING),
  NT_ROOT("argv", STRING_ARRAY), SC_ROOT("maxprocs", INT),
  SC_ROOT("info", INFO), AR_ROOT("errcodes", ERRCODE_ARRAY, "maxprocs")
};
static const dumpi_arg_info a_comm_spawn_multiple[] = {
  SC("totprocs", INT), SC("oldcommrank", INT), SC("root", INT),
  SC("oldcomm", COMM), SC("newcomm", COMM), SC_ROOT("count", INT),
  AR_ROOT("commands", STRING_ARRAY, "count"),
  AR_ROOT("argvs", STRING_ARRAY_2D, "count"),
  AR_ROOT("maxprocs", INT_ARRAY, "count"),
  AR_ROOT("info", INFO_ARRAY, "count"),
  AR_ROOT("errcodes", ERRCODE_ARRAY, "totprocs")
};
static const dumpi_arg_info a_lookup_name[] = {
  NT("servicename", STRING), SC("info", INFO), NT("portname", STRING)
};
static const dumpi_arg_info a_open_port[] = {
  SC("info", INFO), NT("portname", STRING)
};
static const dumpi_arg_info a_publish_name[] = {
  NT("servicename", STRING), SC("info", INFO), NT("portname", STRING)
};
static const dumpi_arg_info a_unpublish_name[] = {
  NT("servicename", STRING), SC("info", INFO), NT("portname", STRING)
};
static const dumpi_arg_info a_accumulate[] = {
  SC("origincount", INT), SC("origintype", DATATYPE), SC("targetrank", INT),
  SC("targetdisp", INT), SC("targetcount", INT), SC("targettype", DATATYPE),
  SC("op", OP), SC("win", WIN)
};
static const dumpi_arg_info a_get[] = {
  SC("origincount", INT), SC("origintype", DATATYPE), SC("targetrank", INT),
  SC("targetdisp", INT), SC("targetcount", INT), SC("targettype", DATATYPE),
  SC("win", WIN)
};
static const dumpi_arg_info a_put[] = {
  SC("origincount", INT), SC("origintype", DATATYPE), SC("targetrank", INT),
  SC("targetdisp", INT), SC("targetcount", INT), SC("targettype", DATATYPE),
  SC("win", WIN)
};
static const dumpi_arg_info a_win_complete[] = {
  SC("win", WIN)
};
static const dumpi_arg_info a_win_create[] = {
  SC("size", INT), SC("dispunit", INT), SC("info", INFO), SC("comm", COMM),
  SC("win", WIN)
};
static const dumpi_arg_info a_win_fence[] = {
  SC("assertion", WIN_ASSERT), SC("win", WIN)
};
static const dumpi_arg_info a_win_free[] = {
  SC("win", WIN)
};
static const dumpi_arg_info a_win_get_group[] = {
  SC("win", WIN), SC("group", GROUP)
};
static const dumpi_arg_info a_win_lock[] = {
  SC("locktype", LOCKTYPE), SC("winrank", INT), SC("assertion", WIN_ASSERT),
  SC("win", WIN)
};
static const dumpi_arg_info a_win_post[] = {
  SC("group", GROUP), SC("assertion", WIN_ASSERT), SC("win", WIN)
};
static const dumpi_arg_info a_win_start[] = {
  SC("group", GROUP), SC("assertion", WIN_ASSERT), SC("win", WIN)
};
static const dumpi_arg_info a_win_test[] = {
  SC("win", WIN), SC("flag", INT)
};
static const dumpi_arg_info a_win_unlock[] = {
  SC("winrank", INT), SC("win", WIN)
};
static const dumpi_arg_info a_win_wait[] = {
  SC("win", WIN)
};
static const dumpi_arg_info a_alltoallw[] = {
  SC("commsize", INT), AR("sendcounts", INT_ARRAY, "commsize"),
  AR("senddispls", INT_ARRAY, "commsize"),
  AR("sendtypes", DATATYPE_ARRAY, "commsize"),
  AR("recvcounts", INT_ARRAY, "commsize"),
  AR("recvdispls", INT_ARRAY, "commsize"),
  AR("recvtypes", DATATYPE_ARRAY, "commsize"), SC("comm", COMM)
};
static const dumpi_arg_info a_exscan[] = {
  SC("count", INT), SC("datatype", DATATYPE), SC("op", OP), SC("comm", COMM)
};
static const dumpi_arg_info a_add_error_class[] = {
  SC("errorclass", INT)
};
static const dumpi_arg_info a_add_error_code[] = {
  SC("errorclass", INT), SC("errorcode", INT)
};
static const dumpi_arg_info a_add_error_string[] = {
  SC("errorcode", INT), NT("errorstring", STRING)
};
static const dumpi_arg_info a_comm_call_errhandler[] = {
  SC("comm", COMM), SC("errorcode", INT)
};
static const dumpi_arg_info a_comm_create_keyval[] = {
  SC("keyval", COMM_KEYVAL)
};
static const dumpi_arg_info a_comm_delete_attr[] = {
  SC("comm", COMM), SC("keyval", COMM_KEYVAL)
};
static const dumpi_arg_info a_comm_free_keyval[] = {
  SC("keyval", COMM_KEYVAL)
};
static const dumpi_arg_info a_comm_get_attr[] = {
  SC("comm", COMM), SC("keyval", COMM_KEYVAL), SC("flag", INT)
};
static const dumpi_arg_info a_comm_get_name[] = {
  SC("comm", COMM), NT("name", STRING), SC("resultlen", INT)
};
static const dumpi_arg_info a_comm_set_attr[] = {
  SC("comm", COMM), SC("keyval", COMM_KEYVAL)
};
static const dumpi_arg_info a_comm_set_name[] = {
  SC("comm", COMM), NT("name", STRING)
};
static const dumpi_arg_info a_file_call_errhandler[] = {
  SC("file", FILE), SC("errorcode", INT)
};
static const dumpi_arg_info a_grequest_complete[] = {
  SC("request", REQUEST)
};
static const dumpi_arg_info a_grequest_start[] = {
  SC("request", REQUEST)
};
static const dumpi_arg_info a_init_thread[] = {
  AR("argv", STRING_ARRAY, "argc"), SC("required", THREADLEVEL),
  SC("provided", THREADLEVEL)
};
static const dumpi_arg_info a_is_thread_main[] = {
  SC("flag", INT)
};
static const dumpi_arg_info a_query_thread[] = {
  SC("supported", THREADLEVEL)
};
static const dumpi_arg_info a_status_set_cancelled[] = {
  SC("status", STATUS), SC("flag", INT)
};
static const dumpi_arg_info a_status_set_elements[] = {
  SC("status", STATUS), SC("datatype", DATATYPE), SC("count", INT)
};
static const dumpi_arg_info a_type_create_keyval[] = {
  SC("keyval", TYPE_KEYVAL)
};
static const dumpi_arg_info a_type_delete_attr[] = {
  SC("datatype", DATATYPE), SC("keyval", TYPE_KEYVAL)
};
static const dumpi_arg_info a_type_dup[] = {
  SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_free_keyval[] = {
  SC("keyval", TYPE_KEYVAL)
};
static const dumpi_arg_info a_type_get_attr[] = {
  SC("datatype", DATATYPE), SC("keyval", TYPE_KEYVAL), SC("flag", INT)
};
static const dumpi_arg_info a_type_get_contents[] = {
  SC("numdatatypes", INT), SC("numaddresses", INT), SC("numintegers", INT),
  SC("datatype", DATATYPE), SC("maxintegers", INT), SC("maxaddresses", INT),
  SC("maxdatatypes", INT), AR("arrintegers", INT_ARRAY, "numintegers"),
  AR("arraddresses", INT_ARRAY, "numaddresses"),
  AR("arrdatatypes", DATATYPE_ARRAY, "numdatatypes")
};
static const dumpi_arg_info a_type_get_envelope[] = {
  SC("datatype", DATATYPE), SC("numintegers", INT), SC("numaddresses", INT),
  SC("numdatatypes", INT), SC("combiner", COMBINER)
};
static const dumpi_arg_info a_type_get_name[] = {
  SC("datatype", DATATYPE), NT("name", STRING), SC("resultlen", INT)
};
static const dumpi_arg_info a_type_set_attr[] = {
  SC("datatype", DATATYPE), SC("keyval", TYPE_KEYVAL)
};
static const dumpi_arg_info a_type_set_name[] = {
  SC("datatype", DATATYPE), NT("name", STRING)
};
static const dumpi_arg_info a_type_match_size[] = {
  SC("typeclass", TYPECLASS), SC("size", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_win_call_errhandler[] = {
  SC("win", WIN), SC("errorcode", INT)
};
static const dumpi_arg_info a_win_create_keyval[] = {
  SC("keyval", WIN_KEYVAL)
};
static const dumpi_arg_info a_win_delete_attr[] = {
  SC("win", WIN), SC("keyval", WIN_KEYVAL)
};
static const dumpi_arg_info a_win_free_keyval[] = {
  SC("keyval", WIN_KEYVAL)
};
static const dumpi_arg_info a_win_get_attr[] = {
  SC("win", WIN), SC("keyval", WIN_KEYVAL), SC("flag", INT)
};
static const dumpi_arg_info a_win_get_name[] = {
  SC("win", WIN), NT("name", STRING), SC("resultlen", INT)
};
static const dumpi_arg_info a_win_set_attr[] = {
  SC("win", WIN), SC("keyval", WIN_KEYVAL)
};
static const dumpi_arg_info a_win_set_name[] = {
  SC("win", WIN), NT("name", STRING)
};
static const dumpi_arg_info a_alloc_mem[] = {
  SC("size", INT), SC("info", INFO)
};
static const dumpi_arg_info a_comm_create_errhandler[] = {
  SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_comm_get_errhandler[] = {
  SC("comm", COMM), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_comm_set_errhandler[] = {
  SC("comm", COMM), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_file_create_errhandler[] = {
  SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_file_get_errhandler[] = {
  SC("file", FILE), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_file_set_errhandler[] = {
  SC("file", FILE), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_finalized[] = {
  SC("flag", INT)
};
static const dumpi_arg_info a_get_address[] = {
  SC("address", INT)
};
static const dumpi_arg_info a_info_create[] = {
  SC("info", INFO)
};
static const dumpi_arg_info a_info_delete[] = {
  SC("info", INFO), NT("key", STRING)
};
static const dumpi_arg_info a_info_dup[] = {
  SC("oldinfo", INFO), SC("newinfo", INFO)
};
static const dumpi_arg_info a_info_free[] = {
  SC("info", INFO)
};
static const dumpi_arg_info a_info_get[] = {
  SC("info", INFO), NT("key", STRING), SC("valuelength", INT),
  NT("value", STRING), SC("flag", INT)
};
static const dumpi_arg_info a_info_get_nkeys[] = {
  SC("info", INFO), SC("nkeys", INT)
};
static const dumpi_arg_info a_info_get_nthkey[] = {
  SC("info", INFO), SC("n", INT), NT("key", STRING)
};
static const dumpi_arg_info a_info_get_valuelen[] = {
  SC("info", INFO), NT("key", STRING), SC("valuelen", INT), SC("flag", INT)
};
static const dumpi_arg_info a_info_set[] = {
  SC("info", INFO), NT("key", STRING), NT("value", STRING)
};
static const dumpi_arg_info a_pack_external[] = {
  NT("datarep", STRING), SC("incount", INT), SC("intype", DATATYPE),
  SC("outcount", INT), SC("position.in", INT), SC("position.out", INT)
};
static const dumpi_arg_info a_pack_external_size[] = {
  NT("datarep", STRING), SC("incount", INT), SC("datatype", DATATYPE),
  SC("size", INT)
};
static const dumpi_arg_info a_request_get_status[] = {
  SC("request", REQUEST), SC("flag", INT), SC("status", STATUS)
};
static const dumpi_arg_info a_type_create_darray[] = {
  SC("size", INT), SC("rank", INT), SC("ndims", INT),
  AR("gsizes", INT_ARRAY, "ndims"),
  AR("distribs", DISTRIBUTION_ARRAY, "ndims"), AR("dargs", INT_ARRAY, "ndims"),
  AR("psizes", INT_ARRAY, "ndims"), SC("order", ORDERING),
  SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_hindexed[] = {
  SC("count", INT), AR("blocklengths", INT_ARRAY, "count"),
  AR("displacements", INT_ARRAY, "count"), SC("oldtype", DATATYPE),
  SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_hvector[] = {
  SC("count", INT), SC("blocklength", INT), SC("stride", INT),
  SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_indexed_block[] = {
  SC("count", INT), SC("blocklength", INT),
  AR("displacments", INT_ARRAY, "count"), SC("oldtype", DATATYPE),
  SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_resized[] = {
  SC("oldtype", DATATYPE), SC("lb", INT), SC("extent", INT),
  SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_struct[] = {
  SC("count", INT), AR("blocklengths", INT_ARRAY, "count"),
  AR("displacements", INT_ARRAY, "count"),
  AR("oldtypes", DATATYPE_ARRAY, "count"), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_create_subarray[] = {
  SC("ndims", INT), AR("sizes", INT_ARRAY, "ndims"),
  AR("subsizes", INT_ARRAY, "ndims"), AR("starts", INT_ARRAY, "ndims"),
  SC("order", ORDERING), SC("oldtype", DATATYPE), SC("newtype", DATATYPE)
};
static const dumpi_arg_info a_type_get_extent[] = {
  SC("datatype", DATATYPE), SC("lb", INT), SC("extent", INT)
};
static const dumpi_arg_info a_type_get_true_extent[] = {
  SC("datatype", DATATYPE), SC("lb", INT), SC("extent", INT)
};
static const dumpi_arg_info a_unpack_external[] = {
  NT("datarep", STRING), SC("insize", INT), SC("position.in", INT),
  SC("position.out", INT), SC("outcount", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_win_create_errhandler[] = {
  SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_win_get_errhandler[] = {
  SC("win", WIN), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_win_set_errhandler[] = {
  SC("win", WIN), SC("errhandler", ERRHANDLER)
};
static const dumpi_arg_info a_file_open[] = {
  SC("comm", COMM), NT("filename", STRING), SC("amode", FILEMODE),
  SC("info", INFO), SC("file", FILE)
};
static const dumpi_arg_info a_file_close[] = {
  SC("file", FILE)
};
static const dumpi_arg_info a_file_delete[] = {
  NT("filename", STRING), SC("info", INFO)
};
static const dumpi_arg_info a_file_set_size[] = {
  SC("file", FILE), SC("size", INT64)
};
static const dumpi_arg_info a_file_preallocate[] = {
  SC("file", FILE), SC("size", INT64)
};
static const dumpi_arg_info a_file_get_size[] = {
  SC("file", FILE), SC("size", INT64)
};
static const dumpi_arg_info a_file_get_group[] = {
  SC("file", FILE), SC("group", GROUP)
};
static const dumpi_arg_info a_file_get_amode[] = {
  SC("file", FILE), SC("amode", FILEMODE)
};
static const dumpi_arg_info a_file_set_info[] = {
  SC("file", FILE), SC("info", INFO)
};
static const dumpi_arg_info a_file_get_info[] = {
  SC("file", FILE), SC("info", INFO)
};
static const dumpi_arg_info a_file_set_view[] = {
  SC("file", FILE), SC("offset", INT64), SC("hosttype", DATATYPE),
  SC("filetype", DATATYPE), NT("datarep", STRING), SC("info", INFO)
};
static const dumpi_arg_info a_file_get_view[] = {
  SC("file", FILE), SC("offset", INT64), SC("hosttype", DATATYPE),
  SC("filetype", DATATYPE), NT("datarep", STRING)
};
static const dumpi_arg_info a_file_read_at[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_read_at_all[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_at[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_at_all[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_iread_at[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_iwrite_at[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE), SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_read[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_read_all[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_write[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_all[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_iread[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_iwrite[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_seek[] = {
  SC("file", FILE), SC("offset", INT64), SC("whence", WHENCE)
};
static const dumpi_arg_info a_file_get_position[] = {
  SC("file", FILE), SC("offset", INT64)
};
static const dumpi_arg_info a_file_get_byte_offset[] = {
  SC("file", FILE), SC("offset", INT64), SC("bytes", INT64)
};
static const dumpi_arg_info a_file_read_shared[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_shared[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_iread_shared[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_iwrite_shared[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("request", IOREQUEST)
};
static const dumpi_arg_info a_file_read_ordered[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_ordered[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE),
  SC("status", STATUS)
};
static const dumpi_arg_info a_file_seek_shared[] = {
  SC("file", FILE), SC("offset", INT64), SC("whence", WHENCE)
};
static const dumpi_arg_info a_file_get_position_shared[] = {
  SC("file", FILE), SC("offset", INT64)
};
static const dumpi_arg_info a_file_read_at_all_begin[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_read_at_all_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_at_all_begin[] = {
  SC("file", FILE), SC("offset", INT64), SC("count", INT),
  SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_write_at_all_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_read_all_begin[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_read_all_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_all_begin[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_write_all_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_read_ordered_begin[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_read_ordered_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_write_ordered_begin[] = {
  SC("file", FILE), SC("count", INT), SC("datatype", DATATYPE)
};
static const dumpi_arg_info a_file_write_ordered_end[] = {
  SC("file", FILE), SC("status", STATUS)
};
static const dumpi_arg_info a_file_get_type_extent[] = {
  SC("file", FILE), SC("datatype", DATATYPE), SC("extent", INT)
};
static const dumpi_arg_info a_register_datarep[] = {
  NT("name", STRING)
};
static const dumpi_arg_info a_file_set_atomicity[] = {
  SC("file", FILE), SC("flag", INT)
};
static const dumpi_arg_info a_file_get_atomicity[] = {
  SC("file", FILE), SC("flag", INT)
};
static const dumpi_arg_info a_file_sync[] = {
  SC("file", FILE)
};
static const dumpi_arg_info a_io_test[] = {
  SC("request", IOREQUEST), SC("flag", INT), SC("status", STATUS)
};
static const dumpi_arg_info a_io_wait[] = {
  SC("request", IOREQUEST), SC("status", STATUS)
};
static const dumpi_arg_info a_io_testall[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"), SC("flag", INT),
  AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_io_waitall[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"),
  AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_io_testany[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"), SC("flag", INT),
  SC("index", INT), AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_io_waitany[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"), SC("index", INT),
  AR("statuses", STATUS_ARRAY, "count")
};
static const dumpi_arg_info a_io_waitsome[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"),
  SC("outcount", INT), AR("indices", INT_ARRAY, "outcount"),
  AR("statuses", STATUS_ARRAY, "outcount")
};
static const dumpi_arg_info a_io_testsome[] = {
  SC("count", INT), AR("requests", IOREQUEST_ARRAY, "count"),
  SC("outcount", INT), AR("indices", INT_ARRAY, "outcount"),
  AR("statuses", STATUS_ARRAY, "outcount")
};
static const dumpi_arg_info a_function_enter[] = {
  SC("fn", INT64)
};
static const dumpi_arg_info a_function_exit[] = {
  SC("fn", INT64)
};

static const dumpi_fn_info fn_table[DUMPI_N_LABELS] = {
  {0, "MPI_Send", DUMPI_FAMILY_P2P, 0, 5, -1, -1, a_send},
  {1, "MPI_Recv", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_recv},
  {2, "MPI_Get_count", DUMPI_FAMILY_P2P, 0, 3, -1, -1, a_get_count},
  {3, "MPI_Bsend", DUMPI_FAMILY_P2P, 0, 5, -1, -1, a_bsend},
  {4, "MPI_Ssend", DUMPI_FAMILY_P2P, 0, 5, -1, -1, a_ssend},
  {5, "MPI_Rsend", DUMPI_FAMILY_P2P, 0, 5, -1, -1, a_rsend},
  {6, "MPI_Buffer_attach", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_buffer_attach},
  {7, "MPI_Buffer_detach", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_buffer_detach},
  {8, "MPI_Isend", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_isend},
  {9, "MPI_Ibsend", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_ibsend},
  {10, "MPI_Issend", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_issend},
  {11, "MPI_Irsend", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_irsend},
  {12, "MPI_Irecv", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_irecv},
  {13, "MPI_Wait", DUMPI_FAMILY_WAIT_TEST, 0, 2, -1, -1, a_wait},
  {14, "MPI_Test", DUMPI_FAMILY_WAIT_TEST, 0, 3, -1, -1, a_test},
  {15, "MPI_Request_free", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_request_free},
  {16, "MPI_Waitany", DUMPI_FAMILY_WAIT_TEST, 0, 4, -1, -1, a_waitany},
  {17, "MPI_Testany", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_testany},
  {18, "MPI_Waitall", DUMPI_FAMILY_WAIT_TEST, 0, 3, -1, -1, a_waitall},
  {19, "MPI_Testall", DUMPI_FAMILY_WAIT_TEST, 0, 4, -1, -1, a_testall},
  {20, "MPI_Waitsome", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_waitsome},
  {21, "MPI_Testsome", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_testsome},
  {22, "MPI_Iprobe", DUMPI_FAMILY_PROBE, 0, 5, -1, -1, a_iprobe},
  {23, "MPI_Probe", DUMPI_FAMILY_PROBE, 0, 4, -1, -1, a_probe},
  {24, "MPI_Cancel", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_cancel},
  {25, "MPI_Test_cancelled", DUMPI_FAMILY_P2P, 0, 2, -1, -1, a_test_cancelled},
  {26, "MPI_Send_init", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_send_init},
  {27, "MPI_Bsend_init", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_bsend_init},
  {28, "MPI_Ssend_init", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_ssend_init},
  {29, "MPI_Rsend_init", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_rsend_init},
  {30, "MPI_Recv_init", DUMPI_FAMILY_P2P, 0, 6, -1, -1, a_recv_init},
  {31, "MPI_Start", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_start},
  {32, "MPI_Startall", DUMPI_FAMILY_P2P, 0, 2, -1, -1, a_startall},
  {33, "MPI_Sendrecv", DUMPI_FAMILY_P2P, 0, 10, -1, -1, a_sendrecv},
  {34, "MPI_Sendrecv_replace", DUMPI_FAMILY_P2P, 0, 8, -1, -1, a_sendrecv_replace},
  {35, "MPI_Type_contiguous", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_type_contiguous},
  {36, "MPI_Type_vector", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_vector},
  {37, "MPI_Type_hvector", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_hvector},
  {38, "MPI_Type_indexed", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_indexed},
  {39, "MPI_Type_hindexed", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_hindexed},
  {40, "MPI_Type_struct", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_struct},
  {41, "MPI_Address", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_address},
  {42, "MPI_Type_extent", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_extent},
  {43, "MPI_Type_size", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_size},
  {44, "MPI_Type_lb", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_lb},
  {45, "MPI_Type_ub", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_ub},
  {46, "MPI_Type_commit", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_type_commit},
  {47, "MPI_Type_free", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_type_free},
  {48, "MPI_Get_elements", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_get_elements},
  {49, "MPI_Pack", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_pack},
  {50, "MPI_Unpack", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_unpack},
  {51, "MPI_Pack_size", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_pack_size},
  {52, "MPI_Barrier", DUMPI_FAMILY_COLLECTIVE, 0, 1, -1, -1, a_barrier},
  {53, "MPI_Bcast", DUMPI_FAMILY_COLLECTIVE, 0, 4, -1, -1, a_bcast},
  {54, "MPI_Gather", DUMPI_FAMILY_COLLECTIVE, 0, 7, 0, 3, a_gather},
  {55, "MPI_Gatherv", DUMPI_FAMILY_COLLECTIVE, 0, 9, 0, 4, a_gatherv},
  {56, "MPI_Scatter", DUMPI_FAMILY_COLLECTIVE, 0, 7, 0, 3, a_scatter},
  {57, "MPI_Scatterv", DUMPI_FAMILY_COLLECTIVE, 0, 9, 0, 5, a_scatterv},
  {58, "MPI_Allgather", DUMPI_FAMILY_COLLECTIVE, 0, 5, -1, -1, a_allgather},
  {59, "MPI_Allgatherv", DUMPI_FAMILY_COLLECTIVE, 0, 7, -1, -1, a_allgatherv},
  {60, "MPI_Alltoall", DUMPI_FAMILY_COLLECTIVE, 0, 5, -1, -1, a_alltoall},
  {61, "MPI_Alltoallv", DUMPI_FAMILY_COLLECTIVE, 0, 8, -1, -1, a_alltoallv},
  {62, "MPI_Reduce", DUMPI_FAMILY_COLLECTIVE, 0, 5, -1, -1, a_reduce},
  {63, "MPI_Op_create", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_op_create},
  {64, "MPI_Op_free", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_op_free},
  {65, "MPI_Allreduce", DUMPI_FAMILY_COLLECTIVE, 0, 4, -1, -1, a_allreduce},
  {66, "MPI_Reduce_scatter", DUMPI_FAMILY_COLLECTIVE, 0, 5, -1, -1, a_reduce_scatter},
  {67, "MPI_Scan", DUMPI_FAMILY_COLLECTIVE, 0, 4, -1, -1, a_scan},
  {68, "MPI_Group_size", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_group_size},
  {69, "MPI_Group_rank", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_group_rank},
  {70, "MPI_Group_translate_ranks", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_group_translate_ranks},
  {71, "MPI_Group_compare", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_group_compare},
  {72, "MPI_Comm_group", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_group},
  {73, "MPI_Group_union", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_group_union},
  {74, "MPI_Group_intersection", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_group_intersection},
  {75, "MPI_Group_difference", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_group_difference},
  {76, "MPI_Group_incl", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_group_incl},
  {77, "MPI_Group_excl", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_group_excl},
  {78, "MPI_Group_range_incl", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_group_range_incl},
  {79, "MPI_Group_range_excl", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_group_range_excl},
  {80, "MPI_Group_free", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_group_free},
  {81, "MPI_Comm_size", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_size},
  {82, "MPI_Comm_rank", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_rank},
  {83, "MPI_Comm_compare", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_comm_compare},
  {84, "MPI_Comm_dup", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_dup},
  {85, "MPI_Comm_create", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_comm_create},
  {86, "MPI_Comm_split", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_comm_split},
  {87, "MPI_Comm_free", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_comm_free},
  {88, "MPI_Comm_test_inter", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_test_inter},
  {89, "MPI_Comm_remote_size", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_remote_size},
  {90, "MPI_Comm_remote_group", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_remote_group},
  {91, "MPI_Intercomm_create", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_intercomm_create},
  {92, "MPI_Intercomm_merge", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_intercomm_merge},
  {93, "MPI_Keyval_create", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_keyval_create},
  {94, "MPI_Keyval_free", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_keyval_free},
  {95, "MPI_Attr_put", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_attr_put},
  {96, "MPI_Attr_get", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_attr_get},
  {97, "MPI_Attr_delete", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_attr_delete},
  {98, "MPI_Topo_test", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_topo_test},
  {99, "MPI_Cart_create", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_cart_create},
  {100, "MPI_Dims_create", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_dims_create},
  {101, "MPI_Graph_create", DUMPI_FAMILY_OBJECT, 0, 7, -1, -1, a_graph_create},
  {102, "MPI_Graphdims_get", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_graphdims_get},
  {103, "MPI_Graph_get", DUMPI_FAMILY_OBJECT, 0, 7, -1, -1, a_graph_get},
  {104, "MPI_Cartdim_get", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_cartdim_get},
  {105, "MPI_Cart_get", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_cart_get},
  {106, "MPI_Cart_rank", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_cart_rank},
  {107, "MPI_Cart_coords", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_cart_coords},
  {108, "MPI_Graph_neighbors_count", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_graph_neighbors_count},
  {109, "MPI_Graph_neighbors", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_graph_neighbors},
  {110, "MPI_Cart_shift", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_cart_shift},
  {111, "MPI_Cart_sub", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_cart_sub},
  {112, "MPI_Cart_map", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_cart_map},
  {113, "MPI_Graph_map", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_graph_map},
  {114, "MPI_Get_processor_name", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_get_processor_name},
  {115, "MPI_Get_version", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_get_version},
  {116, "MPI_Errhandler_create", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_errhandler_create},
  {117, "MPI_Errhandler_set", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_errhandler_set},
  {118, "MPI_Errhandler_get", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_errhandler_get},
  {119, "MPI_Errhandler_free", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_errhandler_free},
  {120, "MPI_Error_string", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_error_string},
  {121, "MPI_Error_class", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_error_class},
  {122, "MPI_Wtime", DUMPI_FAMILY_OTHER, 0, 0, -1, -1, NULL},
  {123, "MPI_Wtick", DUMPI_FAMILY_OTHER, 0, 0, -1, -1, NULL},
  {124, "MPI_Init", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_init},
  {125, "MPI_Finalize", DUMPI_FAMILY_OTHER, 0, 0, -1, -1, NULL},
  {126, "MPI_Initialized", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_initialized},
  {127, "MPI_Abort", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_abort},
  {128, "MPI_Pcontrol", DUMPI_FAMILY_OTHER, DUMPI_FNF_NO_RECORD, 0, -1, -1, NULL},
  {129, "MPI_Close_port", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_close_port},
  {130, "MPI_Comm_accept", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_comm_accept},
  {131, "MPI_Comm_connect", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_comm_connect},
  {132, "MPI_Comm_disconnect", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_comm_disconnect},
  {133, "MPI_Comm_get_parent", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_comm_get_parent},
  {134, "MPI_Comm_join", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_join},
  {135, "MPI_Comm_spawn", DUMPI_FAMILY_OBJECT, 0, 9, 0, 1, a_comm_spawn},
  {136, "MPI_Comm_spawn_multiple", DUMPI_FAMILY_OBJECT, 0, 11, 1, 2, a_comm_spawn_multiple},
  {137, "MPI_Lookup_name", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_lookup_name},
  {138, "MPI_Open_port", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_open_port},
  {139, "MPI_Publish_name", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_publish_name},
  {140, "MPI_Unpublish_name", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_unpublish_name},
  {141, "MPI_Accumulate", DUMPI_FAMILY_ONE_SIDED, 0, 8, -1, -1, a_accumulate},
  {142, "MPI_Get", DUMPI_FAMILY_ONE_SIDED, 0, 7, -1, -1, a_get},
  {143, "MPI_Put", DUMPI_FAMILY_ONE_SIDED, 0, 7, -1, -1, a_put},
  {144, "MPI_Win_complete", DUMPI_FAMILY_ONE_SIDED, 0, 1, -1, -1, a_win_complete},
  {145, "MPI_Win_create", DUMPI_FAMILY_ONE_SIDED, 0, 5, -1, -1, a_win_create},
  {146, "MPI_Win_fence", DUMPI_FAMILY_ONE_SIDED, 0, 2, -1, -1, a_win_fence},
  {147, "MPI_Win_free", DUMPI_FAMILY_ONE_SIDED, 0, 1, -1, -1, a_win_free},
  {148, "MPI_Win_get_group", DUMPI_FAMILY_ONE_SIDED, 0, 2, -1, -1, a_win_get_group},
  {149, "MPI_Win_lock", DUMPI_FAMILY_ONE_SIDED, 0, 4, -1, -1, a_win_lock},
  {150, "MPI_Win_post", DUMPI_FAMILY_ONE_SIDED, 0, 3, -1, -1, a_win_post},
  {151, "MPI_Win_start", DUMPI_FAMILY_ONE_SIDED, 0, 3, -1, -1, a_win_start},
  {152, "MPI_Win_test", DUMPI_FAMILY_ONE_SIDED, 0, 2, -1, -1, a_win_test},
  {153, "MPI_Win_unlock", DUMPI_FAMILY_ONE_SIDED, 0, 2, -1, -1, a_win_unlock},
  {154, "MPI_Win_wait", DUMPI_FAMILY_ONE_SIDED, 0, 1, -1, -1, a_win_wait},
  {155, "MPI_Alltoallw", DUMPI_FAMILY_COLLECTIVE, 0, 8, -1, -1, a_alltoallw},
  {156, "MPI_Exscan", DUMPI_FAMILY_COLLECTIVE, 0, 4, -1, -1, a_exscan},
  {157, "MPI_Add_error_class", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_add_error_class},
  {158, "MPI_Add_error_code", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_add_error_code},
  {159, "MPI_Add_error_string", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_add_error_string},
  {160, "MPI_Comm_call_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_comm_call_errhandler},
  {161, "MPI_Comm_create_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_comm_create_keyval},
  {162, "MPI_Comm_delete_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_comm_delete_attr},
  {163, "MPI_Comm_free_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_comm_free_keyval},
  {164, "MPI_Comm_get_attr", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_comm_get_attr},
  {165, "MPI_Comm_get_name", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_comm_get_name},
  {166, "MPI_Comm_set_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_comm_set_attr},
  {167, "MPI_Comm_set_name", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_comm_set_name},
  {168, "MPI_File_call_errhandler", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_call_errhandler},
  {169, "MPI_Grequest_complete", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_grequest_complete},
  {170, "MPI_Grequest_start", DUMPI_FAMILY_P2P, 0, 1, -1, -1, a_grequest_start},
  {171, "MPI_Init_thread", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_init_thread},
  {172, "MPI_Is_thread_main", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_is_thread_main},
  {173, "MPI_Query_thread", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_query_thread},
  {174, "MPI_Status_set_cancelled", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_status_set_cancelled},
  {175, "MPI_Status_set_elements", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_status_set_elements},
  {176, "MPI_Type_create_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_type_create_keyval},
  {177, "MPI_Type_delete_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_type_delete_attr},
  {178, "MPI_Type_dup", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_dup},
  {179, "MPI_Type_free_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_type_free_keyval},
  {180, "MPI_Type_get_attr", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_type_get_attr},
  {181, "MPI_Type_get_contents", DUMPI_FAMILY_OBJECT, 0, 10, -1, -1, a_type_get_contents},
  {182, "MPI_Type_get_envelope", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_get_envelope},
  {183, "MPI_Type_get_name", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_type_get_name},
  {184, "MPI_Type_set_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_type_set_attr},
  {185, "MPI_Type_set_name", DUMPI_FAMILY_OBJECT, 0, 2, -1, -1, a_type_set_name},
  {186, "MPI_Type_match_size", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_type_match_size},
  {187, "MPI_Win_call_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_call_errhandler},
  {188, "MPI_Win_create_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_win_create_keyval},
  {189, "MPI_Win_delete_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_delete_attr},
  {190, "MPI_Win_free_keyval", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_win_free_keyval},
  {191, "MPI_Win_get_attr", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_win_get_attr},
  {192, "MPI_Win_get_name", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_win_get_name},
  {193, "MPI_Win_set_attr", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_set_attr},
  {194, "MPI_Win_set_name", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_set_name},
  {195, "MPI_Alloc_mem", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_alloc_mem},
  {196, "MPI_Comm_create_errhandler", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_comm_create_errhandler},
  {197, "MPI_Comm_get_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_comm_get_errhandler},
  {198, "MPI_Comm_set_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_comm_set_errhandler},
  {199, "MPI_File_create_errhandler", DUMPI_FAMILY_IO, 0, 1, -1, -1, a_file_create_errhandler},
  {200, "MPI_File_get_errhandler", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_errhandler},
  {201, "MPI_File_set_errhandler", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_set_errhandler},
  {202, "MPI_Finalized", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_finalized},
  {203, "MPI_Free_mem", DUMPI_FAMILY_OTHER, 0, 0, -1, -1, NULL},
  {204, "MPI_Get_address", DUMPI_FAMILY_OBJECT, 0, 1, -1, -1, a_get_address},
  {205, "MPI_Info_create", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_info_create},
  {206, "MPI_Info_delete", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_info_delete},
  {207, "MPI_Info_dup", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_info_dup},
  {208, "MPI_Info_free", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_info_free},
  {209, "MPI_Info_get", DUMPI_FAMILY_OTHER, 0, 5, -1, -1, a_info_get},
  {210, "MPI_Info_get_nkeys", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_info_get_nkeys},
  {211, "MPI_Info_get_nthkey", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_info_get_nthkey},
  {212, "MPI_Info_get_valuelen", DUMPI_FAMILY_OTHER, 0, 4, -1, -1, a_info_get_valuelen},
  {213, "MPI_Info_set", DUMPI_FAMILY_OTHER, 0, 3, -1, -1, a_info_set},
  {214, "MPI_Pack_external", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_pack_external},
  {215, "MPI_Pack_external_size", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_pack_external_size},
  {216, "MPI_Request_get_status", DUMPI_FAMILY_WAIT_TEST, 0, 3, -1, -1, a_request_get_status},
  {217, "MPI_Type_create_darray", DUMPI_FAMILY_OBJECT, 0, 10, -1, -1, a_type_create_darray},
  {218, "MPI_Type_create_hindexed", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_create_hindexed},
  {219, "MPI_Type_create_hvector", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_create_hvector},
  {220, "MPI_Type_create_indexed_block", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_create_indexed_block},
  {221, "MPI_Type_create_resized", DUMPI_FAMILY_OBJECT, 0, 4, -1, -1, a_type_create_resized},
  {222, "MPI_Type_create_struct", DUMPI_FAMILY_OBJECT, 0, 5, -1, -1, a_type_create_struct},
  {223, "MPI_Type_create_subarray", DUMPI_FAMILY_OBJECT, 0, 7, -1, -1, a_type_create_subarray},
  {224, "MPI_Type_get_extent", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_type_get_extent},
  {225, "MPI_Type_get_true_extent", DUMPI_FAMILY_OBJECT, 0, 3, -1, -1, a_type_get_true_extent},
  {226, "MPI_Unpack_external", DUMPI_FAMILY_OBJECT, 0, 6, -1, -1, a_unpack_external},
  {227, "MPI_Win_create_errhandler", DUMPI_FAMILY_OTHER, 0, 1, -1, -1, a_win_create_errhandler},
  {228, "MPI_Win_get_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_get_errhandler},
  {229, "MPI_Win_set_errhandler", DUMPI_FAMILY_OTHER, 0, 2, -1, -1, a_win_set_errhandler},
  {230, "MPI_File_open", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_open},
  {231, "MPI_File_close", DUMPI_FAMILY_IO, 0, 1, -1, -1, a_file_close},
  {232, "MPI_File_delete", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_delete},
  {233, "MPI_File_set_size", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_set_size},
  {234, "MPI_File_preallocate", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_preallocate},
  {235, "MPI_File_get_size", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_size},
  {236, "MPI_File_get_group", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_group},
  {237, "MPI_File_get_amode", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_amode},
  {238, "MPI_File_set_info", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_set_info},
  {239, "MPI_File_get_info", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_info},
  {240, "MPI_File_set_view", DUMPI_FAMILY_IO, 0, 6, -1, -1, a_file_set_view},
  {241, "MPI_File_get_view", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_get_view},
  {242, "MPI_File_read_at", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_read_at},
  {243, "MPI_File_read_at_all", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_read_at_all},
  {244, "MPI_File_write_at", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_write_at},
  {245, "MPI_File_write_at_all", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_write_at_all},
  {246, "MPI_File_iread_at", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_iread_at},
  {247, "MPI_File_iwrite_at", DUMPI_FAMILY_IO, 0, 5, -1, -1, a_file_iwrite_at},
  {248, "MPI_File_read", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_read},
  {249, "MPI_File_read_all", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_read_all},
  {250, "MPI_File_write", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_write},
  {251, "MPI_File_write_all", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_write_all},
  {252, "MPI_File_iread", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_iread},
  {253, "MPI_File_iwrite", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_iwrite},
  {254, "MPI_File_seek", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_seek},
  {255, "MPI_File_get_position", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_position},
  {256, "MPI_File_get_byte_offset", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_get_byte_offset},
  {257, "MPI_File_read_shared", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_read_shared},
  {258, "MPI_File_write_shared", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_write_shared},
  {259, "MPI_File_iread_shared", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_iread_shared},
  {260, "MPI_File_iwrite_shared", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_iwrite_shared},
  {261, "MPI_File_read_ordered", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_read_ordered},
  {262, "MPI_File_write_ordered", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_write_ordered},
  {263, "MPI_File_seek_shared", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_seek_shared},
  {264, "MPI_File_get_position_shared", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_position_shared},
  {265, "MPI_File_read_at_all_begin", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_read_at_all_begin},
  {266, "MPI_File_read_at_all_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_read_at_all_end},
  {267, "MPI_File_write_at_all_begin", DUMPI_FAMILY_IO, 0, 4, -1, -1, a_file_write_at_all_begin},
  {268, "MPI_File_write_at_all_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_write_at_all_end},
  {269, "MPI_File_read_all_begin", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_read_all_begin},
  {270, "MPI_File_read_all_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_read_all_end},
  {271, "MPI_File_write_all_begin", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_write_all_begin},
  {272, "MPI_File_write_all_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_write_all_end},
  {273, "MPI_File_read_ordered_begin", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_read_ordered_begin},
  {274, "MPI_File_read_ordered_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_read_ordered_end},
  {275, "MPI_File_write_ordered_begin", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_write_ordered_begin},
  {276, "MPI_File_write_ordered_end", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_write_ordered_end},
  {277, "MPI_File_get_type_extent", DUMPI_FAMILY_IO, 0, 3, -1, -1, a_file_get_type_extent},
  {278, "MPI_Register_datarep", DUMPI_FAMILY_IO, 0, 1, -1, -1, a_register_datarep},
  {279, "MPI_File_set_atomicity", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_set_atomicity},
  {280, "MPI_File_get_atomicity", DUMPI_FAMILY_IO, 0, 2, -1, -1, a_file_get_atomicity},
  {281, "MPI_File_sync", DUMPI_FAMILY_IO, 0, 1, -1, -1, a_file_sync},
  {282, "MPIO_Test", DUMPI_FAMILY_WAIT_TEST, 0, 3, -1, -1, a_io_test},
  {283, "MPIO_Wait", DUMPI_FAMILY_WAIT_TEST, 0, 2, -1, -1, a_io_wait},
  {284, "MPIO_Testall", DUMPI_FAMILY_WAIT_TEST, 0, 4, -1, -1, a_io_testall},
  {285, "MPIO_Waitall", DUMPI_FAMILY_WAIT_TEST, 0, 3, -1, -1, a_io_waitall},
  {286, "MPIO_Testany", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_io_testany},
  {287, "MPIO_Waitany", DUMPI_FAMILY_WAIT_TEST, 0, 4, -1, -1, a_io_waitany},
  {288, "MPIO_Waitsome", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_io_waitsome},
  {289, "MPIO_Testsome", DUMPI_FAMILY_WAIT_TEST, 0, 5, -1, -1, a_io_testsome},
  {290, "MPI_ALL_FUNCTIONS", DUMPI_FAMILY_SENTINEL, DUMPI_FNF_NO_RECORD, 0, -1, -1, NULL},
  {291, "Function_enter", DUMPI_FAMILY_USER, 0, 1, -1, -1, a_function_enter},
  {292, "Function_exit", DUMPI_FAMILY_USER, 0, 1, -1, -1, a_function_exit},
  {293, "END_OF_STREAM", DUMPI_FAMILY_SENTINEL, DUMPI_FNF_NO_RECORD, 0, -1, -1, NULL},
};
/* clang-format on */

_Static_assert(sizeof(fn_table) / sizeof(fn_table[0]) == DUMPI_N_LABELS, "one row per label");

const dumpi_fn_info *dumpi_fn_lookup(uint16_t label) {
  return label < DUMPI_N_LABELS ? &fn_table[label] : NULL;
}

const dumpi_fn_info *dumpi_fn_by_name(const char *name) {
  if (!name) return NULL;
  /* Accept "Send" for "MPI_Send" (and "Wait" only for MPI_Wait, not
   * MPIO_Wait: the MPI_ prefix is tried first). */
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < DUMPI_N_LABELS; i++) {
      const char *n = fn_table[i].name;
      if (pass == 1 && strncmp(n, "MPI_", 4) == 0) n += 4;
      if (strcmp(n, name) == 0) return &fn_table[i];
    }
  }
  return NULL;
}

int dumpi_fn_arg_index(uint16_t label, const char *arg_name) {
  const dumpi_fn_info *fn = dumpi_fn_lookup(label);
  if (!fn || !arg_name) return -1;
  for (int i = 0; i < fn->n_args; i++)
    if (strcmp(fn->args[i].name, arg_name) == 0) return i;
  return -1;
}

int dumpi_fn_count(void) {
  return DUMPI_N_LABELS;
}

const char *dumpi_family_name(dumpi_family family) {
  static const char *const names[DUMPI_N_FAMILIES] = {
      [DUMPI_FAMILY_P2P] = "point-to-point",
      [DUMPI_FAMILY_COLLECTIVE] = "collective",
      [DUMPI_FAMILY_WAIT_TEST] = "wait/test",
      [DUMPI_FAMILY_PROBE] = "probe",
      [DUMPI_FAMILY_OBJECT] = "communicator/group/datatype",
      [DUMPI_FAMILY_ONE_SIDED] = "one-sided",
      [DUMPI_FAMILY_IO] = "I/O",
      [DUMPI_FAMILY_OTHER] = "setup/other",
      [DUMPI_FAMILY_USER] = "user-function",
      [DUMPI_FAMILY_SENTINEL] = "sentinel",
  };
  return (unsigned)family < DUMPI_N_FAMILIES ? names[family] : "?";
}

const char *dumpi_arg_type_name(dumpi_arg_type type) {
  static const char *const names[DUMPI_N_ARG_TYPES] = {
      [DUMPI_ARG_INT] = "int",
      [DUMPI_ARG_DEST] = "dest",
      [DUMPI_ARG_SOURCE] = "source",
      [DUMPI_ARG_TAG] = "tag",
      [DUMPI_ARG_REQUEST] = "request",
      [DUMPI_ARG_IOREQUEST] = "io-request",
      [DUMPI_ARG_INT64] = "int64",
      [DUMPI_ARG_COMM] = "comm",
      [DUMPI_ARG_DATATYPE] = "datatype",
      [DUMPI_ARG_GROUP] = "group",
      [DUMPI_ARG_INFO] = "info",
      [DUMPI_ARG_FILE] = "file",
      [DUMPI_ARG_WIN] = "win",
      [DUMPI_ARG_ERRHANDLER] = "errhandler",
      [DUMPI_ARG_KEYVAL] = "keyval",
      [DUMPI_ARG_COMM_KEYVAL] = "comm-keyval",
      [DUMPI_ARG_TYPE_KEYVAL] = "type-keyval",
      [DUMPI_ARG_WIN_KEYVAL] = "win-keyval",
      [DUMPI_ARG_OP] = "op",
      [DUMPI_ARG_COMBINER] = "combiner",
      [DUMPI_ARG_COMPARISON] = "comparison",
      [DUMPI_ARG_FILEMODE] = "filemode",
      [DUMPI_ARG_LOCKTYPE] = "locktype",
      [DUMPI_ARG_ORDERING] = "ordering",
      [DUMPI_ARG_THREADLEVEL] = "threadlevel",
      [DUMPI_ARG_TOPOLOGY] = "topology",
      [DUMPI_ARG_TYPECLASS] = "typeclass",
      [DUMPI_ARG_WHENCE] = "whence",
      [DUMPI_ARG_WIN_ASSERT] = "win-assert",
      [DUMPI_ARG_STATUS] = "status",
      [DUMPI_ARG_STATUS_ARRAY] = "status[]",
      [DUMPI_ARG_INT_ARRAY] = "int[]",
      [DUMPI_ARG_REQUEST_ARRAY] = "request[]",
      [DUMPI_ARG_IOREQUEST_ARRAY] = "io-request[]",
      [DUMPI_ARG_ERRCODE_ARRAY] = "errcode[]",
      [DUMPI_ARG_DATATYPE_ARRAY] = "datatype[]",
      [DUMPI_ARG_INFO_ARRAY] = "info[]",
      [DUMPI_ARG_DISTRIBUTION_ARRAY] = "distribution[]",
      [DUMPI_ARG_INT_ARRAY_2D] = "int[][]",
      [DUMPI_ARG_STRING] = "string",
      [DUMPI_ARG_STRING_ARRAY] = "string[]",
      [DUMPI_ARG_STRING_ARRAY_2D] = "string[][]",
  };
  return (unsigned)type < DUMPI_N_ARG_TYPES ? names[type] : "?";
}

int dumpi_arg_type_is_scalar(dumpi_arg_type type) {
  return type <= DUMPI_ARG_WIN_ASSERT;
}
