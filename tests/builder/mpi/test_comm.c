/* SPDX-License-Identifier: MIT */
/* test_comm.c - communicator translation: creation calls, deferral, groups,
 * handle reuse. */
#include "check.h"
#include "comm.h"

static int n_resolved;
static void count_cb(void *user, comm_ref *r)
{
    (void)user;
    (void)r;
    n_resolved++;
}

static void test_predefined(void)
{
    comm_ctx *c = comm_ctx_new(4);
    CHECK_EQ(comm_world_rank(c, 1, COMM_HANDLE_WORLD, 3), 3);
    CHECK_EQ(comm_world_rank(c, 2, COMM_HANDLE_SELF, 0), 2);
    CHECK_EQ(comm_world_rank(c, 2, COMM_HANDLE_SELF, 1), COMM_RANK_INVALID);
    CHECK_EQ(comm_world_rank(c, 2, COMM_HANDLE_WORLD, COMM_PROC_NULL), COMM_RANK_PROC_NULL);
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), COMM_RANK_INVALID);
    CHECK_EQ(comm_world_rank(c, 0, COMM_HANDLE_WORLD, 4), COMM_RANK_INVALID);
    CHECK_EQ(comm_ref_id(comm_ref_lookup(c, 3, COMM_HANDLE_WORLD)), COMM_ID_WORLD);
    CHECK_EQ(comm_ref_id(comm_ref_lookup(c, 3, COMM_HANDLE_SELF)), COMM_ID_SELF(3));
    comm_record_free(c, 0, COMM_HANDLE_WORLD); /* ignored */
    CHECK_EQ(comm_world_rank(c, 0, COMM_HANDLE_WORLD, 1), 1);
    CHECK(comm_record_dup(c, 9, 2, 4) == SLOG_ERR_ARG);
    comm_ctx_free(c);
}

/* Split with keys reversing the order, per-rank handles, UNDEFINED colour,
 * and resolution only once the last member has reported. */
static void test_split_reverse(void)
{
    comm_ctx *c = comm_ctx_new(4);
    n_resolved = 0;
    comm_ctx_set_resolved_cb(c, count_cb, NULL);
    /* ranks 0,1,2: colour 0, key -rank; rank 3: MPI_UNDEFINED -> NULL */
    comm_record_split(c, 2, COMM_HANDLE_WORLD, 0, -2, 6);
    comm_record_split(c, 0, COMM_HANDLE_WORLD, 0, 0, 4);
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), COMM_RANK_UNRESOLVED);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 0, 4)), -1);
    comm_record_split(c, 1, COMM_HANDLE_WORLD, 0, -1, 5);
    CHECK_EQ(n_resolved, 0);
    comm_record_split(c, 3, COMM_HANDLE_WORLD, COMM_UNDEFINED, 0, COMM_HANDLE_NULL);
    CHECK_EQ(n_resolved, 3);
    /* new order by key: world 2, 1, 0 */
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), 2);
    CHECK_EQ(comm_world_rank(c, 0, 4, 1), 1);
    CHECK_EQ(comm_world_rank(c, 0, 4, 2), 0);
    CHECK_EQ(comm_world_rank(c, 2, 6, 2), 0);
    CHECK_EQ(comm_world_rank(c, 1, 5, 0), 2);
    CHECK_EQ(comm_world_rank(c, 0, 4, 3), COMM_RANK_INVALID);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 1, 5)), 3);
    CHECK(comm_ref_lookup(c, 3, 4) == NULL);
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 4)) == comm_ref_id(comm_ref_lookup(c, 2, 6)));
    /* equal keys: ordered by old rank */
    for (uint32_t r = 0; r < 4; r++) comm_record_split(c, r, COMM_HANDLE_WORLD, (int)(r / 2), 7, 9);
    CHECK_EQ(comm_world_rank(c, 3, 9, 0), 2);
    CHECK_EQ(comm_world_rank(c, 3, 9, 1), 3);
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 9)) != comm_ref_id(comm_ref_lookup(c, 3, 9)));
    comm_stats st;
    comm_ctx_stats(c, &st);
    CHECK_EQ(st.n_pending, 0);
    CHECK_EQ(st.n_failed, 0);
    comm_ctx_free(c);
}

/* Dup, then a split of the dup recorded by one rank before another rank's
 * dup: the split waits for the dup, then resolves in a chain. */
static void test_dup_chain(void)
{
    comm_ctx *c = comm_ctx_new(3);
    comm_record_dup(c, 0, COMM_HANDLE_WORLD, 4);
    comm_record_split(c, 0, 4, 1, 0, 5);
    comm_record_dup(c, 1, COMM_HANDLE_WORLD, 7);
    comm_record_split(c, 1, 7, 1, 0, 8);
    comm_record_split(c, 2, 4, 1, -5, 5); /* dup not yet seen on rank 2! */
    /* rank 2 has no comm 4: its record is counted and the split stays
     * pending on the others (a trace missing records cannot resolve it) */
    CHECK_EQ(comm_world_rank(c, 0, 5, 0), COMM_RANK_UNRESOLVED);
    comm_stats st;
    comm_ctx_stats(c, &st);
    CHECK_EQ(st.n_unknown_handle, 1);
    CHECK_EQ(st.n_pending, 4); /* 2 dup + 2 split records */
    comm_ctx_free(c);

    c = comm_ctx_new(3);
    comm_record_dup(c, 0, COMM_HANDLE_WORLD, 4);
    comm_record_split(c, 0, 4, 1, 0, 5);
    comm_record_dup(c, 1, COMM_HANDLE_WORLD, 7);
    comm_record_split(c, 1, 7, 1, 0, 8);
    CHECK_EQ(comm_world_rank(c, 1, 8, 0), COMM_RANK_UNRESOLVED);
    comm_record_dup(c, 2, COMM_HANDLE_WORLD, 4);
    CHECK_EQ(comm_world_rank(c, 1, 7, 2), 2); /* dup = identity order */
    CHECK_EQ(comm_world_rank(c, 1, 8, 0), COMM_RANK_UNRESOLVED);
    comm_record_split(c, 2, 4, 1, -5, 5);
    CHECK_EQ(comm_world_rank(c, 1, 8, 0), 2);
    CHECK_EQ(comm_world_rank(c, 0, 5, 2), 1);
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 4)) != COMM_ID_WORLD);
    comm_ctx_free(c);
}

/* comm_create from group_incl and the other group operations. */
static void test_groups_create(void)
{
    comm_ctx *c = comm_ctx_new(4);
    for (uint32_t r = 0; r < 4; r++) {
        comm_record_comm_group(c, r, COMM_HANDLE_WORLD, 3);
        int incl[2] = {3, 1};
        comm_record_group_incl(c, r, 3, 2, incl, 4);
    }
    CHECK_EQ(comm_group_size(c, 0, 4), 2);
    CHECK_EQ(comm_group_world_rank(c, 0, 4, 0), 3);
    comm_record_create(c, 0, COMM_HANDLE_WORLD, 4, COMM_HANDLE_NULL);
    comm_record_create(c, 1, COMM_HANDLE_WORLD, 4, 5);
    comm_record_create(c, 2, COMM_HANDLE_WORLD, 4, COMM_HANDLE_NULL);
    CHECK_EQ(comm_world_rank(c, 1, 5, 0), COMM_RANK_UNRESOLVED);
    comm_record_create(c, 3, COMM_HANDLE_WORLD, 4, 6);
    CHECK_EQ(comm_world_rank(c, 1, 5, 0), 3);
    CHECK_EQ(comm_world_rank(c, 3, 6, 1), 1);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 3, 6)), 2);

    int excl[2] = {0, 2};
    comm_record_group_excl(c, 0, 3, 2, excl, 5); /* {1,3} */
    int ranges[3] = {3, 0, -2};
    comm_record_group_range_incl(c, 0, 3, 1, ranges, 6); /* {3,1} */
    int ranges2[3] = {0, 1, 1};
    comm_record_group_range_excl(c, 0, 3, 1, ranges2, 7); /* {2,3} */
    comm_record_group_union(c, 0, 7, 5, 8);               /* {2,3,1} */
    comm_record_group_intersection(c, 0, 5, 7, 9);        /* {3} */
    comm_record_group_difference(c, 0, 3, 8, 10);         /* {0} */
    CHECK_EQ(comm_group_size(c, 0, 5), 2);
    CHECK_EQ(comm_group_world_rank(c, 0, 5, 1), 3);
    CHECK_EQ(comm_group_world_rank(c, 0, 6, 0), 3);
    CHECK_EQ(comm_group_world_rank(c, 0, 6, 1), 1);
    CHECK_EQ(comm_group_world_rank(c, 0, 7, 0), 2);
    CHECK_EQ(comm_group_size(c, 0, 8), 3);
    CHECK_EQ(comm_group_world_rank(c, 0, 8, 2), 1);
    CHECK_EQ(comm_group_size(c, 0, 9), 1);
    CHECK_EQ(comm_group_world_rank(c, 0, 9, 0), 3);
    CHECK_EQ(comm_group_world_rank(c, 0, 10, 0), 0);
    CHECK_EQ(comm_group_size(c, 0, GROUP_HANDLE_EMPTY), 0);
    int bad[1] = {9};
    comm_record_group_incl(c, 0, 3, 1, bad, 11);
    CHECK_EQ(comm_group_size(c, 0, 11), COMM_RANK_INVALID);
    comm_record_group_free(c, 0, 5);
    comm_record_group_free(c, 0, 5); /* twice: tolerated */
    CHECK_EQ(comm_group_size(c, 0, 5), COMM_RANK_INVALID);
    CHECK_EQ(comm_group_size(c, 0, 8), 3); /* derived group survives */
    comm_ctx_free(c);
}

/* A group taken from a communicator that is still pending is evaluated
 * later, and comm_create waits for it. */
static void test_group_of_pending(void)
{
    comm_ctx *c = comm_ctx_new(2);
    comm_record_dup(c, 0, COMM_HANDLE_WORLD, 4);
    comm_record_comm_group(c, 0, 4, 3);
    int incl[1] = {1};
    comm_record_group_incl(c, 0, 3, 1, incl, 4);
    comm_record_group_free(c, 0, 3);
    CHECK_EQ(comm_group_size(c, 0, 4), COMM_RANK_UNRESOLVED);
    comm_record_create(c, 0, 4, 4, COMM_HANDLE_NULL);
    comm_record_dup(c, 1, COMM_HANDLE_WORLD, 4);
    CHECK_EQ(comm_group_world_rank(c, 0, 4, 0), 1);
    comm_record_comm_group(c, 1, 4, 3);
    comm_record_group_incl(c, 1, 3, 1, incl, 4);
    comm_record_create(c, 1, 4, 4, 5);
    CHECK_EQ(comm_world_rank(c, 1, 5, 0), 1);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 1, 5)), 1);
    comm_ctx_free(c);
}

/* Freed ids come back for new communicators; a held old instance keeps its
 * members. */
static void test_handle_reuse(void)
{
    comm_ctx *c = comm_ctx_new(2);
    for (uint32_t r = 0; r < 2; r++) comm_record_split(c, r, COMM_HANDLE_WORLD, 0, -(int)r, 4); /* order 1,0 */
    comm_ref *old = comm_ref_hold(comm_ref_lookup(c, 0, 4));
    uint64_t old_id = comm_ref_id(old);
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), 1);
    for (uint32_t r = 0; r < 2; r++) {
        comm_record_free(c, r, 4);
        CHECK_EQ(comm_world_rank(c, r, 4, 0), COMM_RANK_INVALID);
    }
    comm_record_dup(c, 0, COMM_HANDLE_WORLD, 4);
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), COMM_RANK_UNRESOLVED);
    comm_record_dup(c, 1, COMM_HANDLE_WORLD, 4);
    CHECK_EQ(comm_world_rank(c, 0, 4, 0), 0);
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 4)) != old_id);
    CHECK_EQ(comm_ref_world_rank(old, 0), 1);
    CHECK_EQ(comm_ref_id(old), old_id);
    comm_ref_release(old);
    comm_record_free(c, 0, 77);
    comm_stats st;
    comm_ctx_stats(c, &st);
    CHECK_EQ(st.n_unknown_handle, 1);
    comm_ctx_free(c);
}

static void test_cart(void)
{
    comm_ctx *c = comm_ctx_new(5);
    int dims[2] = {2, 2};
    for (uint32_t r = 0; r < 5; r++)
        comm_record_cart_create(c, r, COMM_HANDLE_WORLD, 2, dims, r < 4 ? 4 : COMM_HANDLE_NULL);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 0, 4)), 4);
    int rows[2] = {0, 1}, cols[2] = {1, 0};
    for (uint32_t r = 0; r < 4; r++) {
        comm_record_cart_sub(c, r, 4, 2, rows, 5);
        comm_record_cart_sub(c, r, 4, 2, cols, 6);
    }
    CHECK_EQ(comm_world_rank(c, 3, 5, 0), 2); /* row of rank 3: {2,3} */
    CHECK_EQ(comm_world_rank(c, 0, 5, 1), 1);
    CHECK_EQ(comm_world_rank(c, 3, 6, 0), 1); /* column of rank 3: {1,3} */
    CHECK_EQ(comm_world_rank(c, 2, 6, 0), 0);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 1, 6)), 2);
    for (uint32_t r = 0; r < 5; r++) comm_record_graph_create(c, r, COMM_HANDLE_WORLD, 3, r < 3 ? 7 : COMM_HANDLE_NULL);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 2, 7)), 3);
    comm_ctx_free(c);
}

static void test_intercomm(void)
{
    comm_ctx *c = comm_ctx_new(4);
    for (uint32_t r = 0; r < 4; r++) comm_record_split(c, r, COMM_HANDLE_WORLD, (int)(r % 2), (int)r, 5);
    /* evens {0,2} and odds {1,3}; leaders world 0 and 1 */
    for (uint32_t r = 0; r < 4; r++) comm_record_intercomm_create(c, r, 5, 0, COMM_HANDLE_WORLD, r % 2 ? 0 : 1, 7, 6);
    CHECK(comm_ref_is_inter(comm_ref_lookup(c, 0, 6)));
    CHECK_EQ(comm_world_rank(c, 0, 6, 1), 3); /* remote group of an even rank */
    CHECK_EQ(comm_world_rank(c, 3, 6, 1), 2);
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 3, 6)), 2);
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 6)) == comm_ref_id(comm_ref_lookup(c, 1, 6)));
    for (uint32_t r = 0; r < 4; r++) comm_record_intercomm_merge(c, r, 6, r % 2 ? 0 : 1, 7); /* odds first */
    CHECK_EQ(comm_world_rank(c, 0, 7, 0), 1);
    CHECK_EQ(comm_world_rank(c, 0, 7, 1), 3);
    CHECK_EQ(comm_world_rank(c, 0, 7, 2), 0);
    CHECK(!comm_ref_is_inter(comm_ref_lookup(c, 2, 7)));
    comm_ctx_free(c);
}

/* An intercommunicator of world {0,1,2} (side 0) and {3,4,5,6} (side 1),
 * handle 5 on every rank (4 = the rank's half), leaders world 0 and 3. The
 * high side reports first, so it is group 0 of the object: results must not
 * depend on which side that is. */
static comm_ctx *inter_3x4(void)
{
    comm_ctx *c = comm_ctx_new(7);
    for (uint32_t r = 7; r-- > 0;) comm_record_split(c, r, COMM_HANDLE_WORLD, r >= 3, (int)r, 4);
    for (uint32_t r = 7; r-- > 0;) comm_record_intercomm_create(c, r, 4, 0, COMM_HANDLE_WORLD, r >= 3 ? 0 : 3, 12, 5);
    CHECK(comm_ref_is_inter(comm_ref_lookup(c, 0, 5)));
    CHECK_EQ(comm_world_rank(c, 0, 5, 3), 6);
    CHECK_EQ(comm_world_rank(c, 6, 5, 2), 2);
    return c;
}

/* The "world rank of remote rank i" of every rank of a communicator. */
static void check_remote(comm_ctx *c, uint32_t rank, int comm, int n, const int *want)
{
    CHECK_EQ(comm_ref_peer_size(comm_ref_lookup(c, rank, comm)), n);
    for (int i = 0; i < n; i++) CHECK_EQ(comm_world_rank(c, rank, comm, i), want[i]);
    CHECK_EQ(comm_world_rank(c, rank, comm, n), COMM_RANK_INVALID);
}

/* MPI-3.1 6.4.2: split of an intercommunicator splits each side by colour,
 * orders it by (key, rank) and pairs equal colours; dup keeps the sides. */
static void test_intercomm_split(void)
{
    comm_ctx *c = inter_3x4();
    /* colour = local rank % 2, key = -local rank:
     * 0: low {2,0} x high {5,3}; 1: low {1} x high {6,4} */
    for (uint32_t r = 7; r-- > 0;) {
        int lr = r >= 3 ? (int)r - 3 : (int)r;
        comm_record_split(c, r, 5, lr % 2, -lr, 6);
    }
    check_remote(c, 0, 6, 2, (const int[]){5, 3});
    check_remote(c, 2, 6, 2, (const int[]){5, 3});
    check_remote(c, 3, 6, 2, (const int[]){2, 0});
    check_remote(c, 1, 6, 2, (const int[]){6, 4});
    check_remote(c, 4, 6, 1, (const int[]){1});
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 5, 6)), 2);
    CHECK(comm_ref_is_inter(comm_ref_lookup(c, 5, 6)));
    CHECK(comm_ref_id(comm_ref_lookup(c, 0, 6)) == comm_ref_id(comm_ref_lookup(c, 5, 6)));
    CHECK(comm_ref_id(comm_ref_lookup(c, 1, 6)) != comm_ref_id(comm_ref_lookup(c, 0, 6)));
    /* MPI_UNDEFINED on the leaders; a colour only one side uses (7 on
     * world 2) gives that rank nothing: low {1} x high {4,5,6} */
    for (uint32_t r = 0; r < 7; r++)
        comm_record_split(c, r, 5,
                          r == 0 || r == 3 ? COMM_UNDEFINED
                          : r == 2         ? 7
                                           : 0,
                          (int)r, r == 0 || r == 3 ? COMM_HANDLE_NULL : 7);
    check_remote(c, 1, 7, 3, (const int[]){4, 5, 6});
    check_remote(c, 6, 7, 1, (const int[]){1});
    CHECK(comm_ref_get_state(comm_ref_lookup(c, 2, 7)) == COMM_REF_FAILED);
    /* dup: the same two groups, each rank on its own side */
    for (uint32_t r = 0; r < 7; r++) comm_record_dup(c, r, 5, 8);
    check_remote(c, 2, 8, 4, (const int[]){3, 4, 5, 6});
    check_remote(c, 4, 8, 3, (const int[]){0, 1, 2});
    comm_ctx_free(c);
}

/* MPI-3.1 6.4.2: create on an intercommunicator joins the subgroup each side
 * passed (taken from its own local group); ranks outside get nothing. */
static void test_intercomm_create_groups(void)
{
    comm_ctx *c = inter_3x4();
    for (uint32_t r = 0; r < 7; r++) {
        comm_record_comm_group(c, r, 5, 3);
        comm_record_group_excl(c, r, 3, 1, (const int[]){1}, 4);
        comm_record_comm_remote_group(c, r, 5, 5);
    }
    CHECK_EQ(comm_group_size(c, 0, 5), 4);
    CHECK_EQ(comm_group_world_rank(c, 0, 5, 3), 6);
    CHECK_EQ(comm_group_world_rank(c, 4, 5, 2), 2);
    /* remote group of an intracommunicator: an error, so no group */
    comm_record_comm_remote_group(c, 0, COMM_HANDLE_WORLD, 6);
    CHECK_EQ(comm_group_size(c, 0, 6), COMM_RANK_INVALID);
    /* low {0,2} x high {3,5,6}; world 1 and 4 get MPI_COMM_NULL */
    for (uint32_t r = 7; r-- > 0;) comm_record_create(c, r, 5, 4, r == 1 || r == 4 ? COMM_HANDLE_NULL : 9);
    check_remote(c, 0, 9, 3, (const int[]){3, 5, 6});
    check_remote(c, 5, 9, 2, (const int[]){0, 2});
    CHECK_EQ(comm_ref_size(comm_ref_lookup(c, 6, 9)), 3);
    CHECK(comm_ref_lookup(c, 1, 9) == NULL);
    /* one side passing an empty group: MPI_COMM_NULL everywhere, so a
     * handle bound anyway never resolves */
    for (uint32_t r = 0; r < 7; r++) comm_record_create(c, r, 5, r < 3 ? GROUP_HANDLE_EMPTY : 4, 10);
    CHECK(comm_ref_get_state(comm_ref_lookup(c, 3, 10)) == COMM_REF_FAILED);
    comm_ctx_free(c);
}

/* MPI-3.1 6.6.2: equal high values leave the order to the implementation;
 * Open MPI puts the side whose local rank 0 has the lower world rank first,
 * whichever side the object holds as group 0. */
static void test_merge_same_high(void)
{
    comm_ctx *c = inter_3x4();
    for (uint32_t r = 0; r < 7; r++) comm_record_intercomm_merge(c, r, 5, 0, 6);
    for (int i = 0; i < 7; i++) CHECK_EQ(comm_world_rank(c, 4, 6, i), i);
    for (uint32_t r = 0; r < 7; r++) comm_record_intercomm_merge(c, r, 5, 1, 7);
    CHECK_EQ(comm_world_rank(c, 4, 7, 0), 0);
    /* high = 1 on the low side: the high side first */
    for (uint32_t r = 0; r < 7; r++) comm_record_intercomm_merge(c, r, 5, r < 3, 8);
    CHECK_EQ(comm_world_rank(c, 0, 8, 0), 3);
    CHECK_EQ(comm_world_rank(c, 0, 8, 4), 0);
    /* merging an intracommunicator is erroneous */
    for (uint32_t r = 0; r < 7; r++) comm_record_intercomm_merge(c, r, COMM_HANDLE_WORLD, 0, 9);
    CHECK(comm_ref_get_state(comm_ref_lookup(c, 0, 9)) == COMM_REF_FAILED);
    comm_ctx_free(c);
}

/* Members disagreeing on the n-th creation call: fail, don't crash. */
static void test_disagree(void)
{
    comm_ctx *c = comm_ctx_new(2);
    comm_record_dup(c, 0, COMM_HANDLE_WORLD, 4);
    comm_record_split(c, 1, COMM_HANDLE_WORLD, 0, 0, 4);
    CHECK(comm_ref_get_state(comm_ref_lookup(c, 1, 4)) == COMM_REF_FAILED);
    CHECK_EQ(comm_world_rank(c, 1, 4, 0), COMM_RANK_INVALID);
    comm_ctx_free(c);
}

/* Groups of many members find each member's place in them through an
 * index (comm.c, obj_place): a dup of 300 ranks, split by parity, then
 * each half split again with equal keys, which orders it by the places
 * the first split gave. */
static void test_large_groups(void)
{
    enum { N = 300 };
    comm_ctx *c = comm_ctx_new(N);
    for (uint32_t r = 0; r < N; r++) comm_record_dup(c, r, COMM_HANDLE_WORLD, 4);
    for (uint32_t r = 0; r < N; r++) comm_record_split(c, r, 4, (int)(r % 2), -(int)r, 5);
    for (uint32_t r = 0; r < N; r++) comm_record_split(c, r, 5, 0, 0, 6);
    for (uint32_t r = 0; r < N; r++) {
        CHECK_EQ(comm_ref_get_state(comm_ref_lookup(c, r, 4)), COMM_REF_RESOLVED);
        CHECK_EQ(comm_ref_get_state(comm_ref_lookup(c, r, 6)), COMM_REF_RESOLVED);
        CHECK_EQ(comm_ref_size(comm_ref_lookup(c, r, 6)), N / 2);
        /* keys -rank: the highest rank of each parity first */
        CHECK_EQ(comm_world_rank(c, r, 5, 0), (int)(N - 2 + r % 2));
        for (int i = 0; i < N / 2; i++) CHECK_EQ(comm_world_rank(c, r, 6, i), comm_world_rank(c, r, 5, i));
    }
    comm_stats st;
    comm_ctx_stats(c, &st);
    CHECK_EQ(st.n_failed, 0);
    comm_ctx_free(c);
}

/* comm_ref_run() against the peers it stands for: the first one exactly
 * when they are consecutive world ranks in order; want is what that is. */
static void check_run(comm_ctx *c, uint32_t rank, int comm, int want)
{
    const comm_ref *r = comm_ref_lookup(c, rank, comm);
    CHECK(r != NULL);
    int n = comm_ref_peer_size(r);
    const int *p = comm_ref_peers(r);
    bool consecutive = n > 0;
    for (int i = 1; i < n; i++) consecutive = consecutive && p[i] == p[0] + i;
    CHECK_EQ(comm_ref_run(r), consecutive ? p[0] : -1);
    CHECK_EQ(comm_ref_run(r), want);
}

/* Which groups the matcher reads without their tables: WORLD, its dups,
 * splits into blocks in order, the remote group of an intercommunicator
 * and of its dup; not a split that reorders or skips ranks. */
static void test_runs(void)
{
    comm_ctx *c = comm_ctx_new(6);
    for (uint32_t r = 0; r < 6; r++) check_run(c, r, COMM_HANDLE_WORLD, 0);
    for (uint32_t r = 0; r < 6; r++) check_run(c, r, COMM_HANDLE_SELF, (int)r);
    for (uint32_t r = 0; r < 6; r++) comm_record_dup(c, r, COMM_HANDLE_WORLD, 4);
    check_run(c, 5, 4, 0);
    for (uint32_t r = 0; r < 6; r++)
        comm_record_split(c, r, COMM_HANDLE_WORLD, (int)(r / 3), 0, 5); /* {0,1,2} {3,4,5} */
    check_run(c, 1, 5, 0);
    check_run(c, 4, 5, 3);
    for (uint32_t r = 0; r < 6; r++) comm_record_split(c, r, COMM_HANDLE_WORLD, 0, -(int)r, 6); /* reversed */
    check_run(c, 0, 6, -1);
    for (uint32_t r = 0; r < 6; r++) comm_record_split(c, r, COMM_HANDLE_WORLD, (int)(r % 2), 0, 7); /* evens, odds */
    check_run(c, 2, 7, -1);
    /* Blocks {0,1,2} and {3,4,5} (handle 5) joined, leaders world 0 and 3:
     * each side sees the other's run; and so does the dup. */
    for (uint32_t r = 0; r < 6; r++) comm_record_intercomm_create(c, r, 5, 0, COMM_HANDLE_WORLD, r < 3 ? 3 : 0, 9, 8);
    check_run(c, 1, 8, 3);
    check_run(c, 5, 8, 0);
    for (uint32_t r = 0; r < 6; r++) comm_record_dup(c, r, 8, 10);
    check_run(c, 0, 10, 3);
    check_run(c, 4, 10, 0);
    comm_ctx_free(c);
}

int main(void)
{
    RUN(test_predefined);
    RUN(test_runs);
    RUN(test_split_reverse);
    RUN(test_dup_chain);
    RUN(test_groups_create);
    RUN(test_group_of_pending);
    RUN(test_handle_reuse);
    RUN(test_cart);
    RUN(test_intercomm);
    RUN(test_intercomm_split);
    RUN(test_intercomm_create_groups);
    RUN(test_merge_same_high);
    RUN(test_disagree);
    RUN(test_large_groups);
    return 0;
}
