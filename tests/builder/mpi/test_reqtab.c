/* SPDX-License-Identifier: MIT */
/* test_reqtab.c - a rank's request slots (builder/mpi/reqtab.c) against a
 * plain model: random binds, rewrites and removals of ids in the table's
 * own slots, its grown array (across its growth and its limit,
 * MATCH_REQ_DENSE) and its hash (large and negative ids), with every
 * slot's contents compared after each step. */
#include <glib.h>
#include <string.h>

#include "check.h"
#include "reqtab.h"

#define N_IDS 64

/* The ids the test draws from: every kind of place a slot can live. */
static int id_of(int i)
{
    static const int fixed[] = {MATCH_REQ_DENSE - 2,
                                REQTAB_INLINE,
                                REQTAB_INLINE + 15,
                                REQTAB_INLINE + 16,
                                MATCH_REQ_DENSE - 1,
                                MATCH_REQ_DENSE,
                                MATCH_REQ_DENSE + 1,
                                -1,
                                -2,
                                INT32_MAX,
                                INT32_MIN + 1,
                                5000};
    int n_fixed = (int)(sizeof fixed / sizeof fixed[0]);
    if (i < REQTAB_INLINE) return i;
    if (i < REQTAB_INLINE + n_fixed) return fixed[i - REQTAB_INLINE];
    return REQTAB_INLINE + 1 + 37 * (i - REQTAB_INLINE - n_fixed); /* over the array and past it */
}

typedef struct model_slot {
    bool used;
    rslot v;
} model_slot;

static void check_model(reqtab *t, const model_slot *model)
{
    for (int i = 0; i < N_IDS; i++) {
        int id = id_of(i);
        rslot *s = reqtab_get(t, id);
        if (!model[i].used) {
            CHECKF(s == NULL, "id %d should be absent", id);
            continue;
        }
        CHECKF(s != NULL, "id %d should be present", id);
        CHECK(s->used);
        CHECK(s->cur == model[i].v.cur);
        CHECK_EQ(s->init, model[i].v.init);
        CHECK_EQ(s->kind, model[i].v.kind);
        CHECK_EQ(s->persistent, model[i].v.persistent);
        /* The table's own slots and its array are where the id says. */
        if ((uint32_t)id < REQTAB_INLINE) CHECK(s == &t->slot[id]);
        if ((uint32_t)id >= REQTAB_INLINE && (uint32_t)id < MATCH_REQ_DENSE) CHECK(s == &t->grown[id - REQTAB_INLINE]);
    }
}

static void test_random_model(void)
{
    static char ops[16];
    model_slot model[N_IDS];
    memset(model, 0, sizeof model);
    for (int i = 0; i < N_IDS; i++)
        for (int j = 0; j < i; j++) CHECKF(id_of(i) != id_of(j), "ids %d and %d", i, j);
    reqtab t;
    reqtab_init(&t);
    check_model(&t, model);
    GRand *rnd = g_rand_new_with_seed(7);
    for (int step = 0; step < 50000; step++) {
        int i = g_rand_int_range(rnd, 0, N_IDS);
        int id = id_of(i);
        int op = g_rand_int_range(rnd, 0, 4);
        if (op < 2) {
            /* Bind: the slot is made or reused, then filled. */
            rslot *s = reqtab_slot(&t, id);
            if (!model[i].used) CHECK(!s->used && s->cur == NULL && s->init == 0);
            s->cur = (struct mop *)(void *)&ops[g_rand_int_range(rnd, 0, 16)];
            s->init = (uint32_t)g_rand_int_range(rnd, 0, 3);
            s->kind = (uint8_t)g_rand_int_range(rnd, 0, 2);
            s->persistent = g_rand_boolean(rnd);
            s->used = true;
            model[i].used = true;
            model[i].v = *s;
        } else if (op == 2 && model[i].used) {
            /* Rewrite in place, as the matcher does through reqtab_get. */
            rslot *s = reqtab_get(&t, id);
            CHECK(s != NULL);
            s->cur = NULL;
            model[i].v.cur = NULL;
        } else {
            reqtab_remove(&t, id);
            memset(&model[i], 0, sizeof model[i]);
        }
        check_model(&t, model);
    }
    /* Ids at and past MATCH_REQ_DENSE never live in the array. */
    CHECK(t.n_grown <= MATCH_REQ_DENSE - REQTAB_INLINE);
    g_rand_free(rnd);
    reqtab_free(&t);
    memset(model, 0, sizeof model);
    check_model(&t, model);
    reqtab_free(&t); /* twice is fine */
}

int main(void)
{
    RUN(test_random_model);
    return 0;
}
