/* SPDX-License-Identifier: MIT */
/* dumpi_table.h - what every DUMPI function record holds, as data.
 *
 * One row per DUMPI function label (sst-dumpi common/funclabels.h, trace
 * format 0.6.x .. 13.0.0): label number, MPI name, family and the ordered
 * list of arguments exactly as libdumpi writes them to the stream
 * (sst-dumpi common/dumpiio.c, dumpi_write_* / dumpi_read_*). The decoder
 * in dumpi_file.c walks this list; adding a function is adding a row in
 * dumpi_table.c. See docs/DUMPI.md for the byte layout of each arg type.
 *
 * Plain C11, no allocation, thread safe (the table is const data).
 */
#ifndef SLOG2_DUMPI_TABLE_H
#define SLOG2_DUMPI_TABLE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Labels the builder refers to by number. The full list is the table. */
enum {
  DUMPI_LABEL_SEND = 0,
  DUMPI_LABEL_INIT = 124,
  DUMPI_LABEL_FINALIZE = 125,
  DUMPI_LABEL_INIT_THREAD = 171,
  /* Footer counters cover labels 0 .. DUMPI_LABEL_ALL_FUNCTIONS
   * inclusive (the last one is the total). */
  DUMPI_LABEL_ALL_FUNCTIONS = 290,
  DUMPI_LABEL_FUNCTION_ENTER = 291, /* instrumented user function entry */
  DUMPI_LABEL_FUNCTION_EXIT = 292,  /* instrumented user function exit */
  DUMPI_LABEL_END_OF_STREAM = 293,  /* terminates the call stream */
  DUMPI_N_LABELS = 294              /* rows in the table (0..293) */
};

/* Most arguments of any one function (MPI_Comm_spawn_multiple has 11). */
#define DUMPI_MAX_ARGS 16

typedef enum dumpi_family {
  DUMPI_FAMILY_P2P = 0,    /* send/recv, persistent init/start, cancel */
  DUMPI_FAMILY_COLLECTIVE, /* barrier, bcast, reduce, *gather*, ... */
  DUMPI_FAMILY_WAIT_TEST,  /* Wait*, Test*, MPIO_Wait*, Request_get_status */
  DUMPI_FAMILY_PROBE,      /* Probe, Iprobe */
  DUMPI_FAMILY_OBJECT,     /* communicator, group, datatype, topology, pack */
  DUMPI_FAMILY_ONE_SIDED,  /* Win_*, Put, Get, Accumulate */
  DUMPI_FAMILY_IO,         /* File_*, Register_datarep */
  DUMPI_FAMILY_OTHER,      /* setup, attributes, errors, info, Wtime, ... */
  DUMPI_FAMILY_USER,       /* Function_enter / Function_exit */
  DUMPI_FAMILY_SENTINEL,   /* ALL_FUNCTIONS, END_OF_STREAM: never a call */
  DUMPI_N_FAMILIES
} dumpi_family;

/* Argument types. Each one fixes the wire encoding (all integers are
 * big-endian) and tells consumers what the value means. Scalars read
 * with dumpi_call_int(); arrays with the accessors in dumpi.h. */
typedef enum dumpi_arg_type {
  /* 32-bit signed scalars */
  DUMPI_ARG_INT = 0,
  DUMPI_ARG_DEST,      /* rank in comm; -2 = MPI_ROOT/PROC_NULL */
  DUMPI_ARG_SOURCE,    /* rank in comm; -1 ANY_SOURCE, -2 PROC_NULL */
  DUMPI_ARG_TAG,       /* -1 = MPI_ANY_TAG */
  DUMPI_ARG_REQUEST,   /* request handle */
  DUMPI_ARG_IOREQUEST, /* MPI-IO request handle (own id space) */
  /* 64-bit signed scalar: MPI_Offset, MPI_Aint, function address */
  DUMPI_ARG_INT64,
  /* 16-bit handles, sign-extended */
  DUMPI_ARG_COMM,
  DUMPI_ARG_DATATYPE,
  DUMPI_ARG_GROUP,
  DUMPI_ARG_INFO,
  DUMPI_ARG_FILE,
  DUMPI_ARG_WIN,
  DUMPI_ARG_ERRHANDLER,
  DUMPI_ARG_KEYVAL,
  DUMPI_ARG_COMM_KEYVAL,
  DUMPI_ARG_TYPE_KEYVAL,
  DUMPI_ARG_WIN_KEYVAL,
  /* 8-bit enumerations; zero-extended except COMPARISON and ORDERING,
   * which sst-dumpi keeps in int8_t (sign-extended) */
  DUMPI_ARG_OP,
  DUMPI_ARG_COMBINER,
  DUMPI_ARG_COMPARISON,
  DUMPI_ARG_FILEMODE,
  DUMPI_ARG_LOCKTYPE,
  DUMPI_ARG_ORDERING,
  DUMPI_ARG_THREADLEVEL,
  DUMPI_ARG_TOPOLOGY,
  DUMPI_ARG_TYPECLASS,
  DUMPI_ARG_WHENCE,
  DUMPI_ARG_WIN_ASSERT,
  /* status (a status array of length 0 or 1) and status arrays; only on
   * the stream when the record's mask has the status bits set */
  DUMPI_ARG_STATUS,
  DUMPI_ARG_STATUS_ARRAY,
  /* arrays: u32 count, then count elements; decoded to int32_t */
  DUMPI_ARG_INT_ARRAY,
  DUMPI_ARG_REQUEST_ARRAY,
  DUMPI_ARG_IOREQUEST_ARRAY,
  DUMPI_ARG_ERRCODE_ARRAY,
  DUMPI_ARG_DATATYPE_ARRAY,     /* 16-bit elements */
  DUMPI_ARG_INFO_ARRAY,         /* 16-bit elements */
  DUMPI_ARG_DISTRIBUTION_ARRAY, /* 8-bit elements */
  DUMPI_ARG_INT_ARRAY_2D,       /* u32 rows, then rows int arrays */
  /* strings: u32 length + bytes (no NUL on the wire) */
  DUMPI_ARG_STRING,
  DUMPI_ARG_STRING_ARRAY,    /* u32 count, then count strings */
  DUMPI_ARG_STRING_ARRAY_2D, /* u32 count, then count string arrays */
  DUMPI_N_ARG_TYPES
} dumpi_arg_type;

/* What the array length means in MPI terms (informational: the wire
 * always carries its own count). */
typedef enum dumpi_len_rule {
  DUMPI_LEN_SCALAR = 0, /* not an array */
  DUMPI_LEN_ARG,        /* the value of argument len_arg (e.g. "count",
                           "commsize", "outcount", "ndims") */
  DUMPI_LEN_NULLTERM,   /* NUL-terminated string / NULL-terminated list */
  DUMPI_LEN_TRIPLETS    /* rows given by len_arg, 3 ints per row
                           (Group_range_incl/excl ranges) */
} dumpi_len_rule;

/* Argument flags. */
enum {
  /* Written only when arg i_rank == arg i_root of the function (root-only
   * arrays of Gatherv/Scatterv/..., Comm_spawn's command line). */
  DUMPI_ARGF_ROOT_ONLY = 1 << 0,
  /* Legacy layouts (sst-dumpi dumpiio.c): before 0.6.9 Type_struct's
   * indices and before 0.6.8 Cart_get's coords were one bare int32. */
  DUMPI_ARGF_SCALAR_BEFORE_0_6_9 = 1 << 1,
  DUMPI_ARGF_SCALAR_BEFORE_0_6_8 = 1 << 2,
  /* Before 0.6.2 MPI_Init wrote argc twice ahead of argv. */
  DUMPI_ARGF_COUNT_TWICE_BEFORE_0_6_2 = 1 << 3
};

typedef struct dumpi_arg_info {
  const char *name;    /* as sst-dumpi names it: "count", "position.in" */
  uint8_t type;        /* dumpi_arg_type */
  uint8_t len_rule;    /* dumpi_len_rule */
  uint8_t flags;       /* DUMPI_ARGF_* */
  const char *len_arg; /* for DUMPI_LEN_ARG / TRIPLETS, else NULL */
} dumpi_arg_info;

/* Function flags. */
enum {
  /* Label exists but libdumpi never writes a record for it
   * (MPI_Pcontrol, the sentinels): meeting one is an error. */
  DUMPI_FNF_NO_RECORD = 1 << 0
};

typedef struct dumpi_fn_info {
  uint16_t label;
  const char *name; /* "MPI_Send", "MPIO_Wait", "Function_enter" */
  uint8_t family;   /* dumpi_family */
  uint8_t flags;    /* DUMPI_FNF_* */
  uint8_t n_args;
  int8_t i_rank;              /* arg compared with i_root for ROOT_ONLY */
  int8_t i_root;              /* args, -1 if the function has none */
  const dumpi_arg_info *args; /* n_args entries, wire order */
} dumpi_fn_info;

/* Row for a label, or NULL when label >= DUMPI_N_LABELS. */
const dumpi_fn_info *dumpi_fn_lookup(uint16_t label);

/* Row by MPI name ("MPI_Send"; also accepts "Send"), or NULL. */
const dumpi_fn_info *dumpi_fn_by_name(const char *name);

/* Index of the argument called arg_name in the label's argument list,
 * -1 if the function has no such argument (or the label is unknown). */
int dumpi_fn_arg_index(uint16_t label, const char *arg_name);

/* Number of labels in the table (DUMPI_N_LABELS). */
int dumpi_fn_count(void);

/* "point-to-point", "collective", ...; "?" for out-of-range values. */
const char *dumpi_family_name(dumpi_family family);

/* "int", "comm", "status[]", ...; "?" for out-of-range values. */
const char *dumpi_arg_type_name(dumpi_arg_type type);

/* 1 for the scalar types (read with dumpi_call_int), else 0. */
int dumpi_arg_type_is_scalar(dumpi_arg_type type);

#ifdef __cplusplus
}
#endif
#endif /* SLOG2_DUMPI_TABLE_H */
