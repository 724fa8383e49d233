/* SPDX-License-Identifier: MIT */
/* summary.h - per-node summaries of a block tree's subtree (private).
 *
 * A summary (docs/FORMAT.md, "Summary block") holds, for the drawables of a
 * node's subtree, exact sums: per (timeline, category) of states the calls,
 * inclusive time, the time of the states directly nested in them, shortest
 * and longest; per timeline where its states start and end (so that a
 * reader can tell whether a state of an ancestor nests all of them or none);
 * per (sender, receiver) the messages, their bytes and transfer time. The
 * writer makes one for every node of a block's tree from the node's own
 * records and its children's summaries, and writes those that pay
 * (summary.c); slog_reader_analyse answers a window from them (analysis.c).
 */
#ifndef SLOG_SUMMARY_H
#define SLOG_SUMMARY_H

#include "internal.h"

typedef struct slog_summ_state {
    uint32_t timeline, category;
    uint64_t calls;
    uint64_t incl_ns;        /* sum of durations */
    uint64_t child_ns;       /* sum of durations of the states whose parent is one of these */
    uint64_t min_ns, max_ns; /* of the durations; min UINT64_MAX when calls is 0 */
} slog_summ_state;

/* The states of one timeline in a subtree: their extreme starts and ends,
 * and the time of those of them with no parent inside the subtree. */
typedef struct slog_summ_ext {
    uint32_t timeline;
    int64_t min_start, max_start, min_end, max_end;
    uint64_t top_ns;
} slog_summ_ext;

typedef struct slog_summ_msg {
    uint32_t sender, receiver;
    uint64_t count, bytes, unknown; /* unknown: messages without a known size */
    int64_t time_ns;                /* sum of receive - send */
} slog_summ_msg;

typedef struct slog_summ {
    slog_summ_state *st;
    uint32_t n_st, cap_st;
    slog_summ_msg *msg;
    uint32_t n_msg, cap_msg;
    slog_summ_ext *ext; /* after slog_summ_close: this node's */
    uint32_t n_ext, cap_ext;
    /* The closed children's rows and extents, as they closed (moved here,
     * not copied), or encoded (child_blob: summary.c, merge_child): the
     * parent sums them with its own records. */
    slog_summ_state *child_st[2];
    uint32_t n_child_st[2], cap_child_st[2];
    slog_summ_msg *child_msg[2];
    uint32_t n_child_msg[2], cap_child_msg[2];
    slog_summ_ext *child_ext[2];
    uint32_t n_child_ext[2], cap_child_ext[2];
    slog_buf child_blob[2];
    uint32_t child_blob_n[2][3]; /* its rows: states, extents, messages */
    /* After slog_summ_close, where the node's only child was held encoded
     * and it has no records of its own: its summary, which is that child's,
     * left encoded (its rows not made: n_st, n_ext and n_msg 0; blob_n
     * counts them). A chain of such nodes (a tree's levels above a trace's
     * busy stretch) decoded, merged and encoded the same rows again at
     * every level. */
    slog_buf blob;
    uint32_t blob_n[3];
    uint64_t child_index[2];
    int64_t child_lo[2], child_hi[2];
    bool unresolved; /* a state of the subtree nests part of a child's
                         states: the nesting sums are incomplete */
    bool failed;     /* an allocation failed */
} slog_summ;

/* What the writer knows of its categories: kind and the index of the first
 * field of type BYTES (-1: none). */
typedef struct slog_summ_cats {
    uint32_t n;
    const bool *is_state;
    const int *bytes_field;
} slog_summ_cats;

/* Working room slog_summ_close keeps from one node to the next: a writer
 * closes a node for every few hundred drawables, and allocating (and
 * clearing) each one's arrays anew was a sizeable part of its summary.
 * Zeroed to start; slog_summ_scratch_free gives it back. */
typedef struct slog_summ_slot slog_summ_slot;
typedef struct slog_summ_scratch {
    void *own, *stack, *tmp;
    size_t cap_own, cap_stack, cap_tmp; /* bytes */
    slog_summ_state *by_cat;            /* every entry cleared between uses */
    uint32_t *touched;
    uint32_t n_by_cat;
    slog_summ_slot *slot; /* the arrows' hash, stamped by generation */
    uint32_t cap_slot, gen;
    uint32_t *tl_gen, *tl_pos; /* per timeline id: its own states' place, valid
                                  where tl_gen is tl_stamp */
    uint32_t n_tl, tl_stamp;
    void *tls;
    size_t cap_tls;
    void *keys; /* the message rows' sort */
    size_t cap_keys;
    slog_summ_state *own_st; /* a node's own rows as they are made */
    slog_summ_msg *own_msg;
    slog_summ_ext *own_ext;     /* a timeline's own states' extent, by timeline */
    slog_summ_msg *own_msg_out; /* own_msg sorted */
    uint32_t cap_own_st, cap_own_msg, cap_own_ext, cap_own_msg_out;
} slog_summ_scratch;

void slog_summ_scratch_free(slog_summ_scratch *x);
void slog_summ_reset(slog_summ *s);
void slog_summ_free(slog_summ *s);
/* Complete s (holding its children's rows) with the node's own records
 * (body: n records of a block tree's node over [lo, hi)), then sort and
 * combine its rows and make its own extents. x may be NULL (room of its
 * own, given back before it returns). */
void slog_summ_close(slog_summ *s, slog_summ_scratch *x, uint32_t level, const uint8_t *body, size_t len, uint32_t n,
                     int64_t lo, int64_t hi, const slog_summ_cats *cats);
/* Hand closed child (0 left, 1 right; at level, index, over [lo, hi)) to
 * its parent: its rows and extents move to the parent, or a left child's
 * are encoded there if encode_left (the writer's open nodes hold them
 * long), or a summary left encoded (blob) goes there as it is; the rest of
 * the child is freed. */
void slog_summ_merge_child(slog_summ *parent, slog_summ *child, unsigned side, uint32_t level, uint64_t index,
                           int64_t lo, int64_t hi, bool encode_left);
/* The same for a left child (encode_left) whose summary the caller has
 * encoded already (slog_summ_encode, any fixed bytes): its bytes copied,
 * not made again. */
void slog_summ_merge_left_encoded(slog_summ *parent, slog_summ *child, uint32_t level, uint64_t index, int64_t lo,
                                  int64_t hi, const slog_buf *encoded);
/* The encoded body of a closed summary (16 fixed bytes given; lo: the
 * node's start, which a summary left encoded was encoded from), appended
 * to out. */
void slog_summ_encode(const slog_summ *s, const uint8_t fixed[16], int64_t lo, slog_buf *out);
/* Bytes slog_summ_encode would write, estimated from below. */
uint64_t slog_summ_estimate(const slog_summ *s);

/* A summary block's body decoded into s (reader side). false on malformed
 * data; level and index must match. is_state NULL: any category (the
 * writer reading back its own). */
bool slog_summ_decode(slog_summ *s, const uint8_t *body, size_t len, uint32_t level, uint64_t index, int64_t lo,
                      int64_t hi, uint32_t n_timelines, uint32_t n_categories, const bool *is_state);

/* Which states of a set nest inside a state [s, e] (inclusive): all of a
 * timeline's states in a subtree with extent x (1), none (0), or some (-1). */
static inline int slog_summ_nests(int64_t s, int64_t e, const slog_summ_ext *x)
{
    if (s <= x->min_start && x->max_end <= e) return 1;
    if (s > x->max_start || e < x->min_end) return 0;
    return -1;
}

/* The order that decides a state's parent: the parent of S is, among the
 * other states of its timeline that contain it (start <= S.start, S.end
 * <= end), the last in this order (the innermost when states nest). */
static inline int slog_summ_key_cmp(int64_t s1, int64_t e1, uint32_t c1, int64_t s2, int64_t e2, uint32_t c2)
{
    if (s1 != s2) return s1 < s2 ? -1 : 1;
    if (e1 != e2) return e1 > e2 ? -1 : 1;
    return c1 < c2 ? -1 : c1 > c2;
}

#endif
