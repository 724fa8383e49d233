/* SPDX-License-Identifier: MIT */
/* test_htab.c - the open-addressing map (builder/mpi/htab.c) against a plain
 * array model: random puts, replaces and removes over a small key space so
 * probe runs collide and wrap, and every removal's backward shift must keep
 * the other keys reachable. */
#include <glib.h>
#include <string.h>

#include "check.h"
#include "htab.h"

#define SPACE 512

/* Keys chosen so many share a home slot: multiples of a large power of two
 * differ only in bits the multiply-shift hash mostly discards. */
static uint64_t key_of(int i)
{
    return (uint64_t)i << 40 | (uint64_t)(i % 7);
}

static void check_model(const htab *t, void *const *model)
{
    size_t n = 0;
    for (int i = 0; i < SPACE; i++) {
        CHECK(htab_get(t, key_of(i)) == model[i]);
        n += model[i] != NULL;
    }
    CHECK_EQ(htab_size(t), n);
    size_t seen = 0;
    for (size_t i = 0; i < htab_capacity(t); i++) seen += htab_at(t, i)->val != NULL;
    CHECK_EQ(seen, n);
}

static void test_random_model(void)
{
    static int values[SPACE * 2];
    void *model[SPACE] = {0};
    htab t;
    htab_init(&t);
    CHECK(htab_get(&t, 1) == NULL);
    CHECK(htab_remove(&t, 1) == NULL);
    GRand *rnd = g_rand_new_with_seed(42);
    for (int step = 0; step < 20000; step++) {
        int i = g_rand_int_range(rnd, 0, SPACE);
        int op = g_rand_int_range(rnd, 0, 3);
        if (op < 2) {
            void *v = &values[g_rand_int_range(rnd, 0, SPACE * 2)];
            void *old = htab_put(&t, key_of(i), v);
            CHECK(old == model[i]);
            model[i] = v;
        } else {
            void *old = htab_remove(&t, key_of(i));
            CHECK(old == model[i]);
            model[i] = NULL;
        }
        if (step % 997 == 0) check_model(&t, model);
    }
    check_model(&t, model);
    /* Drain completely: every remove must find its key. */
    for (int i = 0; i < SPACE; i++) {
        CHECK(htab_remove(&t, key_of(i)) == model[i]);
        model[i] = NULL;
    }
    check_model(&t, model);
    CHECK_EQ(htab_size(&t), 0);
    g_rand_free(rnd);
    htab_free(&t);
}

static void test_null_and_grow(void)
{
    htab t;
    htab_init(&t);
    int x = 1;
    CHECK(htab_put(&t, 5, NULL) == NULL); /* NULL values are refused */
    CHECK_EQ(htab_size(&t), 0);
    for (uint64_t k = 0; k < 10000; k++) CHECK(htab_put(&t, k * 0x10001, &x) == NULL);
    CHECK_EQ(htab_size(&t), 10000);
    CHECK(htab_capacity(&t) >= 20000); /* at most half full */
    for (uint64_t k = 0; k < 10000; k++) CHECK(htab_get(&t, k * 0x10001) == &x);
    CHECK(htab_get(&t, 3) == NULL);
    htab_free(&t);
    CHECK_EQ(htab_capacity(&t), 0);
}

int main(void)
{
    RUN(test_random_model);
    RUN(test_null_and_grow);
    return 0;
}
