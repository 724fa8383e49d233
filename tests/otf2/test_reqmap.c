/* SPDX-License-Identifier: MIT */
/* test_reqmap.c - the request map of the OTF2 input (o2_reqmap,
 * otf2/otf2_model.h): random puts, replacements and takes against a plain
 * list, with keys that share their home slot (multiples of a large power
 * of two, as request ids that are addresses do) so that runs wrap around
 * the table's end and takes move entries back across it. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "otf2_model.h"

#define N_KEYS 600

static uint64_t rng_state;

static uint64_t rng(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* The reference: keys[i] holds value vals[i], or nothing when vals[i] is
 * NULL. */
static uint64_t keys[N_KEYS];
static void *vals[N_KEYS];
static char cells[N_KEYS];

static void check_all(const o2_reqmap *h)
{
    uint32_t n = 0;
    for (int i = 0; i < N_KEYS; i++) {
        CHECKF(o2_reqmap_get(h, keys[i]) == vals[i], "key %d", i);
        n += vals[i] != NULL;
    }
    CHECK_EQ(h->n, n);
    uint32_t seen = 0;
    for (uint32_t i = 0; i < h->cap; i++) seen += h->vals[i] != NULL;
    CHECK_EQ(seen, n);
    CHECK(h->n == 0 || 2 * h->n <= h->cap);
}

static void run(uint64_t seed, int spread)
{
    CHECK_CONTEXT("seed %llu, spread %d", (unsigned long long)seed, spread);
    rng_state = seed;
    for (int i = 0; i < N_KEYS; i++) {
        /* spread 0: a few homes only; 1: any id, 0 included */
        keys[i] = spread ? (i == 0 ? 0 : rng()) : (uint64_t)(i % 7) << 40 | (uint64_t)(i / 7) << 52;
        vals[i] = NULL;
    }
    o2_reqmap h = {0};
    CHECK(o2_reqmap_get(&h, keys[0]) == NULL);
    CHECK(o2_reqmap_take(&h, keys[0]) == NULL);
    for (int step = 0; step < 20000; step++) {
        int i = (int)(rng() % N_KEYS);
        if (rng() % 3) {
            void *v = &cells[rng() % N_KEYS];
            o2_reqmap_put(&h, keys[i], v);
            vals[i] = v;
        } else {
            void *got = o2_reqmap_take(&h, keys[i]);
            CHECKF(got == vals[i], "take of key %d at step %d", i, step);
            vals[i] = NULL;
        }
        if (step % 997 == 0) check_all(&h);
    }
    check_all(&h);
    for (int i = 0; i < N_KEYS; i++) {
        CHECK(o2_reqmap_take(&h, keys[i]) == vals[i]);
        vals[i] = NULL;
    }
    check_all(&h);
    CHECK_EQ(h.n, 0);
    o2_reqmap_free(&h);
    CHECK(h.keys == NULL && h.vals == NULL && h.cap == 0);
}

int main(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        run(seed, 0);
        run(seed, 1);
    }
    printf("ok\n");
    return 0;
}
