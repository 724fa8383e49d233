/* SPDX-License-Identifier: MIT */
/* test_comm_view.c - a lane's view of a communicator (builder/comm_view.h)
 * answers what the replay (comm.h) answers for the same rank and handle:
 * for members that step evenly (kept as a first rank and a step: by 2, by
 * 3, by -1, and a dup of WORLD), for members in any other order (kept as
 * an array, the replay's own, which outlives the communicator), through
 * the table's last-handle copy, and after the handle is freed or WORLD
 * rebound. */
#include "check.h"
#include "comm_view.h"

#define N 8

/* Every answer of v for world rank `rank` against the replay's for
 * handle comm. */
static void same_as_replay(comm_ctx *ctx, uint32_t rank, int comm, const comm_view *v)
{
    comm_view r = comm_view_replay(ctx, rank, comm);
    for (int i = -2; i < N + 2; i++) CHECK_EQ(comm_view_world_rank(v, i), comm_view_world_rank(&r, i));
    CHECK_EQ(comm_view_world_rank(v, COMM_PROC_NULL), comm_view_world_rank(&r, COMM_PROC_NULL));
    CHECK_EQ(comm_view_size(v), comm_view_size(&r));
    CHECK_EQ(comm_view_own_rank(v), comm_view_own_rank(&r));
    /* both know the caller's place without a scan where the members step
     * evenly: against one */
    int own = -1;
    for (int i = 0; i < comm_view_size(&r) && own < 0; i++)
        if (comm_view_world_rank(&r, i) == (int)rank) own = i;
    CHECK_EQ(comm_view_own_rank(v), own);
}

/* Publish rank's instance of handle h in a fresh snapshot bound in t,
 * usable from leaf 5 on. */
static void bind_published(comm_ctx *ctx, comm_table *t, uint32_t rank, int h)
{
    comm_snap *s = comm_snap_new();
    comm_table_bind(t, h, s);
    comm_view v;
    CHECK(!comm_view_lane(t, rank, N, h, 9, &v)); /* not published yet */
    comm_snap_publish(s, comm_ref_lookup(ctx, rank, h), 5);
}

int main(void)
{
    comm_ctx *ctx = comm_ctx_new(N);
    enum { EVEN = 100, SHUFFLED = 101, DUP = 102, REVERSED = 103, THIRDS = 104 };
    for (uint32_t r = 0; r < N; r++) {
        /* even ranks and odd ranks, in world order: a step of 2 */
        CHECK_EQ(comm_record_split(ctx, r, COMM_HANDLE_WORLD, (int)(r % 2), (int)r, EVEN), SLOG_OK);
        /* halves, keys reversing and interleaving their order */
        CHECK_EQ(comm_record_split(ctx, r, COMM_HANDLE_WORLD, r < N / 2, (int)((r * 3) % 4), SHUFFLED), SLOG_OK);
        CHECK_EQ(comm_record_dup(ctx, r, COMM_HANDLE_WORLD, DUP), SLOG_OK);
        /* all ranks, last first: a step of -1 */
        CHECK_EQ(comm_record_split(ctx, r, COMM_HANDLE_WORLD, 0, (int)(N - r), REVERSED), SLOG_OK);
        /* every third rank: steps of 3 from ranks 0, 1 and 2 */
        CHECK_EQ(comm_record_split(ctx, r, COMM_HANDLE_WORLD, (int)(r % 3), (int)r, THIRDS), SLOG_OK);
    }
    for (uint32_t r = 0; r < N; r++) {
        comm_table t;
        comm_table_init(&t);
        comm_view v;
        /* WORLD and SELF before anything is bound */
        CHECK(comm_view_lane(&t, r, N, COMM_HANDLE_WORLD, 0, &v));
        CHECK_EQ(v.kind, VIEW_WORLD);
        same_as_replay(ctx, r, COMM_HANDLE_WORLD, &v);
        CHECK(comm_view_lane(&t, r, N, COMM_HANDLE_SELF, 0, &v));
        CHECK_EQ(v.kind, VIEW_SELF);
        same_as_replay(ctx, r, COMM_HANDLE_SELF, &v);

        int handles[] = {EVEN, SHUFFLED, DUP, REVERSED, THIRDS};
        enum { N_HANDLES = sizeof handles / sizeof handles[0] };
        for (int k = 0; k < N_HANDLES; k++) bind_published(ctx, &t, r, handles[k]);
        for (int round = 0; round < 2; round++) /* the second: alternating handles */
            for (int k = 0; k < N_HANDLES; k++) {
                CHECK(!comm_view_lane(&t, r, N, handles[k], 4, &v)); /* before its leaf */
                for (int again = 0; again < 2; again++) {            /* again: the last handle's copy */
                    CHECK(comm_view_lane(&t, r, N, handles[k], 5 + (uint64_t)again, &v));
                    CHECK_EQ(v.kind, VIEW_SNAP);
                    same_as_replay(ctx, r, handles[k], &v);
                }
            }
        CHECK(!comm_view_lane(&t, r, N, DUP, 4, &v)); /* the copy is not used before its leaf either */

        /* freed: unknown to the lane, as to the replay after its free */
        comm_table_unbind(&t, DUP);
        CHECK(comm_view_lane(&t, r, N, DUP, 9, &v));
        CHECK_EQ(v.kind, VIEW_NONE);
        CHECK_EQ(comm_view_world_rank(&v, 0), COMM_RANK_INVALID);
        CHECK_EQ(comm_view_size(&v), -1);

        /* WORLD rebound to the shuffled halves: the lane sees those */
        comm_snap *s = comm_snap_new();
        comm_table_bind(&t, COMM_HANDLE_WORLD, s);
        comm_snap_publish(s, comm_ref_lookup(ctx, r, SHUFFLED), 5);
        CHECK(comm_view_lane(&t, r, N, COMM_HANDLE_WORLD, 5, &v));
        CHECK_EQ(v.kind, VIEW_SNAP);
        same_as_replay(ctx, r, SHUFFLED, &v);
        comm_table_free(&t);
    }
    comm_ctx_free(ctx);

    /* Members in no even order are the replay's own, held, not copied (a
     * copy a member was quadratic in the members), and a lane's view
     * outlives the communicator and the replay, as it may when the
     * sequential step has freed both. */
    ctx = comm_ctx_new(N);
    for (uint32_t r = 0; r < N; r++) /* keys 0 3 6 1 4 7 2 5: members 0 3 6 1 4 7 2 5 */
        CHECK_EQ(comm_record_split(ctx, r, COMM_HANDLE_WORLD, 0, (int)((r * 3) % N), SHUFFLED), SLOG_OK);
    comm_table t;
    comm_table_init(&t);
    comm_snap *s = comm_snap_new();
    comm_table_bind(&t, SHUFFLED, s);
    comm_ref *ref = comm_ref_lookup(ctx, 1, SHUFFLED);
    int32_t step;
    CHECK(!comm_ref_stride(ref, &step));
    int want[N];
    for (int i = 0; i < N; i++) want[i] = comm_ref_world_rank(ref, i);
    comm_snap_publish(s, ref, 5);
    CHECK(s->held && comm_peers_ranks(s->held) == comm_ref_peers(ref));
    for (uint32_t r = 0; r < N; r++) CHECK_EQ(comm_record_free(ctx, r, SHUFFLED), SLOG_OK);
    comm_ctx_free(ctx);
    comm_view v;
    CHECK(comm_view_lane(&t, 1, N, SHUFFLED, 5, &v));
    for (int i = 0; i < N; i++) CHECK_EQ(comm_view_world_rank(&v, i), want[i]);
    CHECK_EQ(comm_view_own_rank(&v), 3);
    CHECK_EQ(comm_view_size(&v), N);
    comm_table_free(&t);
    return 0;
}
