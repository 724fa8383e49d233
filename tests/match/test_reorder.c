/* test_reorder.c - the end-order reorder buffer. */
#include <glib.h>
#include <string.h>

#include "check.h"
#include "reorder.h"

typedef struct payload {
    int64_t key;
    uint32_t seq;
    double pad; /* the copy must be aligned for any type */
} payload;

typedef struct sink {
    GArray *got; /* payload */
    int64_t watermark;
    int stop_after;
} sink;

static slog_cb_result on_release(void *user, int64_t key, const void *data, size_t len)
{
    sink *s = user;
    CHECK_EQ(len, sizeof(payload));
    CHECK(((uintptr_t)data % _Alignof(double)) == 0);
    const payload *p = data;
    CHECK_EQ(p->key, key);
    CHECK(key <= s->watermark);
    g_array_append_val(s->got, *p);
    return s->stop_after && (int)s->got->len >= s->stop_after ? SLOG_STOP : SLOG_CONTINUE;
}

/* Release the rest; then all n pushed came out, each once, in (key, push
 * order): FIFO among equal keys. */
static void flush_and_check(reorder *r, sink *s, uint32_t n)
{
    s->watermark = INT64_MAX;
    reorder_flush(r);
    CHECK_EQ(reorder_pending(r), 0);
    CHECK_EQ(s->got->len, n);
    for (guint i = 1; i < s->got->len; i++) {
        const payload *a = &g_array_index(s->got, payload, i - 1);
        const payload *b = &g_array_index(s->got, payload, i);
        CHECK(a->key < b->key || (a->key == b->key && a->seq < b->seq));
    }
}

static void test_order_and_watermark(void)
{
    sink s = {g_array_new(FALSE, FALSE, sizeof(payload)), INT64_MIN, 0};
    reorder *r = reorder_new(on_release, &s);
    GRand *rnd = g_rand_new_with_seed(7);
    uint32_t seq = 0;
    int64_t wm = 0;
    for (int round = 0; round < 200; round++) {
        int n = g_rand_int_range(rnd, 0, 20);
        for (int i = 0; i < n; i++) {
            payload p = {wm + g_rand_int_range(rnd, 0, 50), seq++, 0};
            CHECK(reorder_push(r, p.key, &p, sizeof p) == SLOG_OK);
            memset(&p, 0xff, sizeof p); /* the buffer holds its own copy */
        }
        wm += g_rand_int_range(rnd, 0, 30);
        s.watermark = wm;
        CHECK(reorder_advance(r, wm) == SLOG_OK);
        CHECK(reorder_pending(r) == 0 || reorder_last_key(r) <= wm);
    }
    flush_and_check(r, &s, seq);
    CHECK(reorder_max_pending(r) > 0);
    g_rand_free(rnd);
    reorder_free(r);
    g_array_free(s.got, TRUE);
}

/* Hundreds held at once, nearly all in order with some late ones, released
 * a part at a time: the in-order run wraps around its ring and grows while
 * wrapped, late items go to the heap, and everything still comes out in
 * (key, push order), each once. */
static void test_many_held(void)
{
    sink s = {g_array_new(FALSE, FALSE, sizeof(payload)), INT64_MIN, 0};
    reorder *r = reorder_new(on_release, &s);
    GRand *rnd = g_rand_new_with_seed(23);
    uint32_t seq = 0;
    int64_t t = 0, released = INT64_MIN;
    for (int round = 0; round < 60; round++) {
        int n = g_rand_int_range(rnd, 20, 300);
        for (int i = 0; i < n; i++) {
            t += g_rand_int_range(rnd, 0, 3); /* equal keys too */
            int64_t key = g_rand_int_range(rnd, 0, 10) == 0 ? t - g_rand_int_range(rnd, 0, 200) : t;
            if (key < released)
                key = released; /* never below what was let out */
            payload p = {key, seq++, 0};
            CHECK(reorder_push(r, p.key, &p, sizeof p) == SLOG_OK);
        }
        /* let out all but the last ones, more of them every round: the
         * run grows after its head has moved, so while wrapped */
        int64_t wm = t - 40 * round - g_rand_int_range(rnd, 0, 100);
        if (wm > released) {
            s.watermark = wm;
            CHECK(reorder_advance(r, wm) == SLOG_OK);
            released = wm;
        }
    }
    CHECK(reorder_max_pending(r) > 1000);
    flush_and_check(r, &s, seq);
    g_rand_free(rnd);
    reorder_free(r);
    g_array_free(s.got, TRUE);
}

/* reorder_pass must release exactly what push + advance would, in the same
 * order, whether it takes the no-copy path (nothing held sorts before the
 * item, in order; later items may stay held) or not.
 * The producer mostly emits in order with a watermark right behind, and
 * sometimes out of order or ahead of it, so both paths are taken. */
static void test_pass_equals_push_advance(void)
{
    sink a = {g_array_new(FALSE, FALSE, sizeof(payload)), INT64_MAX, 0};
    sink b = {g_array_new(FALSE, FALSE, sizeof(payload)), INT64_MAX, 0};
    reorder *ra = reorder_new(on_release, &a), *rb = reorder_new(on_release, &b);
    GRand *rnd = g_rand_new_with_seed(11);
    int64_t t = 0;
    uint32_t seq = 0, fast = 0;
    for (int i = 0; i < 5000; i++) {
        t += g_rand_int_range(rnd, 0, 10);
        int64_t key = g_rand_int_range(rnd, 0, 8) == 0 ? t + g_rand_int_range(rnd, 1, 40) : t;
        if (key < reorder_last_key(ra))
            key = reorder_last_key(ra); /* the producer clamps, as the sink does */
        int64_t wm = g_rand_int_range(rnd, 0, 4) == 0 ? t - g_rand_int_range(rnd, 1, 5) : t;
        payload p = {key, seq++, 0};
        size_t held_before = reorder_pending(rb);
        CHECK(reorder_push(ra, key, &p, sizeof p) == SLOG_OK);
        CHECK(reorder_advance(ra, wm) == SLOG_OK);
        CHECK(reorder_pass(rb, key, wm, &p, sizeof p) == SLOG_OK);
        fast += held_before == 0 && reorder_pending(rb) == 0;
        CHECK_EQ(reorder_pending(ra), reorder_pending(rb));
        CHECK_EQ(reorder_last_key(ra), reorder_last_key(rb));
    }
    reorder_flush(ra);
    reorder_flush(rb);
    CHECK(fast > 1000); /* the no-copy path was exercised... */
    CHECK(reorder_max_pending(rb) > 1); /* ...and so was the heap */
    CHECK_EQ(a.got->len, seq);
    CHECK_EQ(b.got->len, seq);
    for (guint i = 0; i < a.got->len && i < b.got->len; i++) {
        CHECK_EQ(g_array_index(a.got, payload, i).seq, g_array_index(b.got, payload, i).seq);
        CHECK_EQ(g_array_index(a.got, payload, i).key, g_array_index(b.got, payload, i).key);
    }
    g_rand_free(rnd);
    reorder_free(ra);
    reorder_free(rb);
    g_array_free(a.got, TRUE);
    g_array_free(b.got, TRUE);
}

static slog_cb_result count_cb(void *user, int64_t key, const void *data, size_t len)
{
    int *n = user;
    return ++*n == 2 ? SLOG_STOP : SLOG_CONTINUE;
}

static void test_errors(void)
{
    int n = 0;
    reorder *r = reorder_new(count_cb, &n);
    CHECK(reorder_push(r, 10, "a", 1) == SLOG_OK);
    CHECK(reorder_push(r, 5, "b", 1) == SLOG_OK);
    reorder_advance(r, 7);
    CHECK_EQ(n, 1);
    CHECK_EQ(reorder_last_key(r), 5);
    CHECK(reorder_push(r, 4, "c", 1) == SLOG_ERR_ORDER); /* behind what went out */
    CHECK(reorder_push(r, 5, NULL, 0) == SLOG_OK);       /* equal key, empty payload */
    CHECK(reorder_push(r, 6, NULL, 3) == SLOG_ERR_ARG);
    CHECK_EQ(reorder_pending(r), 2);
    reorder_free(r);
}

static void test_stop(void)
{
    int n = 0;
    reorder *r = reorder_new(count_cb, &n);
    for (int i = 0; i < 5; i++)
        reorder_push(r, i, &i, sizeof i);
    reorder_flush(r);
    CHECK_EQ(n, 2);
    CHECK(reorder_stopped(r));
    CHECK_EQ(reorder_pending(r), 3); /* freed by reorder_free, not leaked */
    reorder_free(r);
    reorder_free(NULL);
}

int main(void)
{
    RUN(test_order_and_watermark);
    RUN(test_many_held);
    RUN(test_pass_equals_push_advance);
    RUN(test_errors);
    RUN(test_stop);
    return CHECK_EXIT();
}
