/* table_fallback.c - stand-in for builder/dumpi_table.c.
 *
 * The project keeps one table of DUMPI argument lists, builder/dumpi_table.c
 * (STYLE.md "one place per format fact"). synth/CMakeLists.txt compiles that
 * file into slog2-synth when it exists and this one only when it does not,
 * so the generator can be built while the decoder is being written. It
 * implements the dumpi_table.h lookup for exactly the functions slog2-synth
 * emits, transcribed from sst-dumpi common/dumpiio.c (dumpi_write_*).
 */
#include "dumpi_table.h"

#include <stddef.h>
#include <string.h>

#define S(n, t) { n, t, DUMPI_LEN_SCALAR, 0, NULL }
#define A(n, t, len) { n, t, DUMPI_LEN_ARG, 0, len }
#define R(n, t, len) { n, t, DUMPI_LEN_ARG, DUMPI_ARGF_ROOT_ONLY, len }

static const dumpi_arg_info a_send[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("dest", DUMPI_ARG_DEST), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_recv[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("source", DUMPI_ARG_SOURCE), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM),
  S("status", DUMPI_ARG_STATUS) };
static const dumpi_arg_info a_isend[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("dest", DUMPI_ARG_DEST), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM),
  S("request", DUMPI_ARG_REQUEST) };
static const dumpi_arg_info a_irecv[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("source", DUMPI_ARG_SOURCE), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM),
  S("request", DUMPI_ARG_REQUEST) };
static const dumpi_arg_info a_waitall[] = {
  S("count", DUMPI_ARG_INT), A("requests", DUMPI_ARG_REQUEST_ARRAY, "count"),
  A("statuses", DUMPI_ARG_STATUS_ARRAY, "count") };
static const dumpi_arg_info a_iprobe[] = {
  S("source", DUMPI_ARG_SOURCE), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM),
  S("flag", DUMPI_ARG_INT), S("status", DUMPI_ARG_STATUS) };
static const dumpi_arg_info a_probe[] = {
  S("source", DUMPI_ARG_SOURCE), S("tag", DUMPI_ARG_TAG), S("comm", DUMPI_ARG_COMM),
  S("status", DUMPI_ARG_STATUS) };
static const dumpi_arg_info a_sendrecv[] = {
  S("sendcount", DUMPI_ARG_INT), S("sendtype", DUMPI_ARG_DATATYPE),
  S("dest", DUMPI_ARG_DEST), S("sendtag", DUMPI_ARG_TAG),
  S("recvcount", DUMPI_ARG_INT), S("recvtype", DUMPI_ARG_DATATYPE),
  S("source", DUMPI_ARG_SOURCE), S("recvtag", DUMPI_ARG_TAG),
  S("comm", DUMPI_ARG_COMM), S("status", DUMPI_ARG_STATUS) };
static const dumpi_arg_info a_comm[] = { S("comm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_bcast[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("root", DUMPI_ARG_INT), S("comm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_gatherv[] = {
  S("commrank", DUMPI_ARG_INT), S("commsize", DUMPI_ARG_INT),
  S("sendcount", DUMPI_ARG_INT), S("sendtype", DUMPI_ARG_DATATYPE),
  S("root", DUMPI_ARG_INT), S("comm", DUMPI_ARG_COMM),
  R("recvcounts", DUMPI_ARG_INT_ARRAY, "commsize"),
  R("displs", DUMPI_ARG_INT_ARRAY, "commsize"),
  S("recvtype", DUMPI_ARG_DATATYPE) };
static const dumpi_arg_info a_reduce[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("op", DUMPI_ARG_OP), S("root", DUMPI_ARG_INT), S("comm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_allreduce[] = {
  S("count", DUMPI_ARG_INT), S("datatype", DUMPI_ARG_DATATYPE),
  S("op", DUMPI_ARG_OP), S("comm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_comm_size[] = {
  S("comm", DUMPI_ARG_COMM), S("size", DUMPI_ARG_INT) };
static const dumpi_arg_info a_comm_rank[] = {
  S("comm", DUMPI_ARG_COMM), S("rank", DUMPI_ARG_INT) };
static const dumpi_arg_info a_comm_dup[] = {
  S("oldcomm", DUMPI_ARG_COMM), S("newcomm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_comm_split[] = {
  S("oldcomm", DUMPI_ARG_COMM), S("color", DUMPI_ARG_INT),
  S("key", DUMPI_ARG_INT), S("newcomm", DUMPI_ARG_COMM) };
static const dumpi_arg_info a_init[] = {
  S("argc", DUMPI_ARG_INT), A("argv", DUMPI_ARG_STRING_ARRAY, "argc") };
static const dumpi_arg_info a_init_thread[] = {
  S("argc", DUMPI_ARG_INT), A("argv", DUMPI_ARG_STRING_ARRAY, "argc"),
  S("required", DUMPI_ARG_THREADLEVEL), S("provided", DUMPI_ARG_THREADLEVEL) };

#define N(a) (uint8_t)(sizeof(a) / sizeof((a)[0]))
#define ROW(l, nm, fam, a, ir, ro) { l, nm, fam, 0, N(a), ir, ro, a }

static const dumpi_fn_info rows[] = {
  ROW(0, "MPI_Send", DUMPI_FAMILY_P2P, a_send, -1, -1),
  ROW(1, "MPI_Recv", DUMPI_FAMILY_P2P, a_recv, -1, -1),
  ROW(8, "MPI_Isend", DUMPI_FAMILY_P2P, a_isend, -1, -1),
  ROW(12, "MPI_Irecv", DUMPI_FAMILY_P2P, a_irecv, -1, -1),
  ROW(18, "MPI_Waitall", DUMPI_FAMILY_WAIT_TEST, a_waitall, -1, -1),
  ROW(22, "MPI_Iprobe", DUMPI_FAMILY_PROBE, a_iprobe, -1, -1),
  ROW(23, "MPI_Probe", DUMPI_FAMILY_PROBE, a_probe, -1, -1),
  ROW(33, "MPI_Sendrecv", DUMPI_FAMILY_P2P, a_sendrecv, -1, -1),
  ROW(52, "MPI_Barrier", DUMPI_FAMILY_COLLECTIVE, a_comm, -1, -1),
  ROW(53, "MPI_Bcast", DUMPI_FAMILY_COLLECTIVE, a_bcast, -1, -1),
  ROW(55, "MPI_Gatherv", DUMPI_FAMILY_COLLECTIVE, a_gatherv, 0, 4),
  ROW(62, "MPI_Reduce", DUMPI_FAMILY_COLLECTIVE, a_reduce, -1, -1),
  ROW(65, "MPI_Allreduce", DUMPI_FAMILY_COLLECTIVE, a_allreduce, -1, -1),
  ROW(81, "MPI_Comm_size", DUMPI_FAMILY_OBJECT, a_comm_size, -1, -1),
  ROW(82, "MPI_Comm_rank", DUMPI_FAMILY_OBJECT, a_comm_rank, -1, -1),
  ROW(84, "MPI_Comm_dup", DUMPI_FAMILY_OBJECT, a_comm_dup, -1, -1),
  ROW(86, "MPI_Comm_split", DUMPI_FAMILY_OBJECT, a_comm_split, -1, -1),
  ROW(87, "MPI_Comm_free", DUMPI_FAMILY_OBJECT, a_comm, -1, -1),
  ROW(124, "MPI_Init", DUMPI_FAMILY_OTHER, a_init, -1, -1),
  { 125, "MPI_Finalize", DUMPI_FAMILY_OTHER, 0, 0, -1, -1, NULL },
  ROW(171, "MPI_Init_thread", DUMPI_FAMILY_OTHER, a_init_thread, -1, -1),
};

const dumpi_fn_info *dumpi_fn_lookup(uint16_t label)
{
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    if (rows[i].label == label)
      return &rows[i];
  return NULL;
}
