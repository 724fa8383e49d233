/* SPDX-License-Identifier: MIT */
/* summary.c - the writer's side of node summaries: see summary.h and
 * docs/FORMAT.md, "Summary block". */
#include "summary.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define GROW(arr, n, cap, s)                                        \
    do {                                                            \
        if ((n) == (cap)) {                                         \
            uint32_t nc_ = (cap) ? (cap)*2 : 16;                    \
            void *p_ = realloc((arr), (size_t)nc_ * sizeof *(arr)); \
            if (!p_) {                                              \
                (s)->failed = true;                                 \
                break;                                              \
            }                                                       \
            (arr) = p_;                                             \
            (cap) = nc_;                                            \
        }                                                           \
        (n)++;                                                      \
    } while (0)

void slog_summ_reset(slog_summ *s)
{
    s->n_st = s->n_msg = s->n_ext = 0;
    for (int side = 0; side < 2; side++) {
        s->n_child_st[side] = s->n_child_msg[side] = s->n_child_ext[side] = 0;
        s->child_blob[side].len = 0;
    }
    s->blob.len = 0;
    s->unresolved = s->failed = false;
}

struct slog_summ_slot {
    uint64_t key; /* sender << 32 | receiver */
    uint32_t gen; /* the slot is taken if it is the table's generation */
    uint32_t row;
};

void slog_summ_scratch_free(slog_summ_scratch *x)
{
    free(x->own);
    free(x->stack);
    free(x->tmp);
    free(x->by_cat);
    free(x->touched);
    free(x->slot);
    free(x->tl_gen);
    free(x->tl_pos);
    free(x->tls);
    free(x->keys);
    free(x->own_st);
    free(x->own_msg);
    free(x->own_ext);
    free(x->own_msg_out);
    memset(x, 0, sizeof *x);
}

/* At least bytes of room in *p (its contents not kept), or NULL. */
static void *room(void **p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return *p;
    size_t nc = *cap ? *cap : 256;
    while (nc < bytes) nc *= 2;
    free(*p);
    *p = malloc(nc);
    *cap = *p ? nc : 0;
    return *p;
}

void slog_summ_free(slog_summ *s)
{
    free(s->st);
    free(s->msg);
    free(s->ext);
    for (int side = 0; side < 2; side++) {
        free(s->child_st[side]);
        free(s->child_msg[side]);
        free(s->child_ext[side]);
        buf_free(&s->child_blob[side]);
    }
    buf_free(&s->blob);
    memset(s, 0, sizeof *s);
}

/* Arrays a and b (with their capacities) change places. */
#define SWAP_ROWS(a, cap_a, b, cap_b) \
    do {                              \
        void *p_ = (a);               \
        uint32_t c_ = (cap_a);        \
        (a) = (b);                    \
        (cap_a) = (cap_b);            \
        (b) = p_;                     \
        (cap_b) = c_;                 \
    } while (0)

/* Room for n rows of size bytes in *v (room for *cap). */
static bool reserve_rows(void **v, uint32_t *cap, uint64_t n, size_t size)
{
    if (n <= *cap) return true;
    if (n > UINT32_MAX) return false;
    void *p = realloc(*v, (size_t)n * size);
    if (!p) return false;
    *v = p;
    *cap = (uint32_t)n;
    return true;
}

/* n rows of size bytes from src appended to *v (*n_v of them, room for
 * *cap, doubled as they come). false when out of memory. */
static bool append_rows(void **v, uint32_t *n_v, uint32_t *cap, const void *src, uint32_t n, size_t size)
{
    if (!n) return true; /* src may be NULL when empty */
    if (n > UINT32_MAX - *n_v) return false;
    uint32_t need = *n_v + n;
    if (need > *cap) {
        uint32_t nc = *cap ? *cap : 16;
        while (nc < need) nc = nc > UINT32_MAX / 2 ? need : nc * 2;
        if (!reserve_rows(v, cap, nc, size)) return false;
    }
    memcpy((char *)*v + (size_t)*n_v * size, src, (size_t)n * size);
    *n_v = need;
    return true;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static void add_state_row(slog_summ *s, uint32_t tl, uint32_t cat, uint64_t calls, uint64_t incl, uint64_t child,
                          uint64_t mn, uint64_t mx)
{
    uint32_t before = s->n_st;
    GROW(s->st, s->n_st, s->cap_st, s);
    if (s->n_st == before) return;
    s->st[before] = (slog_summ_state){tl, cat, calls, incl, child, mn, mx};
}

static void add_msg_row(slog_summ *s, const slog_summ_msg *m)
{
    uint32_t before = s->n_msg;
    GROW(s->msg, s->n_msg, s->cap_msg, s);
    if (s->n_msg == before) return;
    s->msg[before] = *m;
}

static int cmp_state(const void *a, const void *b)
{
    const slog_summ_state *x = a, *y = b;
    if (x->timeline != y->timeline) return x->timeline < y->timeline ? -1 : 1;
    return x->category < y->category ? -1 : x->category > y->category;
}

static int cmp_msg(const void *a, const void *b)
{
    const slog_summ_msg *x = a, *y = b;
    if (x->sender != y->sender) return x->sender < y->sender ? -1 : 1;
    return x->receiver < y->receiver ? -1 : x->receiver > y->receiver;
}

/* One own state of the node being closed. */
typedef struct own_state {
    uint32_t timeline, category;
    int64_t start, end;
} own_state;

static int cmp_own(const void *a, const void *b)
{
    const own_state *x = a, *y = b;
    if (x->timeline != y->timeline) return x->timeline < y->timeline ? -1 : 1;
    return slog_summ_key_cmp(x->start, x->end, x->category, y->start, y->end, y->category);
}

static inline bool own_less(const own_state *x, const own_state *y)
{
    if (x->timeline != y->timeline) return x->timeline < y->timeline;
    return slog_summ_key_cmp(x->start, x->end, x->category, y->start, y->end, y->category) < 0;
}

/* A bottom-up merge sort of n elements of type T ordered by less (inline),
 * defined as NAME: qsort through a comparison function was a fifth of a
 * small trace's build for the own states, and a tenth of a trace of a
 * hundred ranks (whose leaves join thousands of pairs) for the message
 * rows. Runs of 8 by insertion first (a leaf holds a few states a
 * timeline); runs already in order are copied. Elements that compare
 * equal are equal in every field, so the result is qsort's (cmp, used if
 * there is no memory for the merge). The room is x's. */
#define DEFINE_MERGE_SORT(NAME, T, less, cmp)                                                      \
    static void NAME(T *v, uint32_t n, slog_summ_scratch *x)                                       \
    {                                                                                              \
        if (n < 2) return; /* v may be NULL when empty */                                          \
        for (uint32_t lo = 0; lo < n; lo += 8) {                                                   \
            uint32_t hi = lo + 8 < n ? lo + 8 : n;                                                 \
            for (uint32_t i = lo + 1; i < hi; i++) {                                               \
                T x = v[i];                                                                        \
                uint32_t j = i;                                                                    \
                for (; j > lo && less(&x, &v[j - 1]); j--) v[j] = v[j - 1];                        \
                v[j] = x;                                                                          \
            }                                                                                      \
        }                                                                                          \
        if (n <= 8) return;                                                                        \
        T *tmp = room(&x->tmp, &x->cap_tmp, (size_t)n * sizeof *tmp);                              \
        if (!tmp) {                                                                                \
            qsort(v, n, sizeof *v, cmp);                                                           \
            return;                                                                                \
        }                                                                                          \
        T *src = v, *dst = tmp;                                                                    \
        for (uint32_t w = 8; w < n; w *= 2) {                                                      \
            for (uint32_t lo = 0; lo < n; lo += 2 * w) {                                           \
                uint32_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;      \
                uint32_t i = lo, j = mid, o = lo;                                                  \
                if (mid < hi && !less(&src[mid], &src[mid - 1])) {                                 \
                    memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof *dst); /* in order */    \
                    continue;                                                                      \
                }                                                                                  \
                while (i < mid && j < hi) dst[o++] = less(&src[j], &src[i]) ? src[j++] : src[i++]; \
                while (i < mid) dst[o++] = src[i++];                                               \
                while (j < hi) dst[o++] = src[j++];                                                \
            }                                                                                      \
            T *t = src;                                                                            \
            src = dst;                                                                             \
            dst = t;                                                                               \
        }                                                                                          \
        if (src != v) memcpy(v, src, (size_t)n * sizeof *v);                                       \
    }

DEFINE_MERGE_SORT(sort_own, own_state, own_less, cmp_own)

static inline bool msg_less(const slog_summ_msg *x, const slog_summ_msg *y)
{
    return x->sender != y->sender ? x->sender < y->sender : x->receiver < y->receiver;
}

DEFINE_MERGE_SORT(sort_msgs, slog_summ_msg, msg_less, cmp_msg)

/* A message row's key (sender, receiver) as one number, and its place. */
typedef struct msg_key {
    uint64_t key;
    uint32_t row;
} msg_key;

static inline bool key_less(const msg_key *x, const msg_key *y)
{
    return x->key < y->key;
}

static int cmp_key(const void *a, const void *b)
{
    const msg_key *x = a, *y = b;
    return x->key < y->key ? -1 : x->key > y->key;
}

DEFINE_MERGE_SORT(sort_keys, msg_key, key_less, cmp_key)

/* Message rows of distinct keys (v, n > 0: a node's folded arrows) sorted
 * into out by their keys alone, then gathered: merging the rows
 * themselves moved all of each one's bytes at every pass, and compared
 * two fields. Many rows whose sender and receiver fit in 32 bits together
 * are sorted by radix (least significant digit first, up to 11 bits a
 * pass, each key with its row in one number); fewer, by merging. */
static void sort_msg_rows(slog_summ_msg *v, uint32_t n, slog_summ_msg *out, slog_summ_scratch *x)
{
    msg_key *k = n > 1 ? room(&x->keys, &x->cap_keys, (size_t)n * sizeof *k) : NULL;
    if (!k) {
        sort_msgs(v, n, x);
        memcpy(out, v, (size_t)n * sizeof *v);
        return;
    }
    bool in_order = true;
    uint32_t max_s = v[0].sender, max_r = v[0].receiver;
    for (uint32_t i = 1; i < n; i++) {
        if (msg_less(&v[i], &v[i - 1])) in_order = false;
        if (v[i].sender > max_s) max_s = v[i].sender;
        if (v[i].receiver > max_r) max_r = v[i].receiver;
    }
    if (in_order) {
        memcpy(out, v, (size_t)n * sizeof *v);
        return;
    }
    unsigned bits_r = max_r ? 32 - (unsigned)__builtin_clz(max_r) : 0;
    unsigned bits = bits_r + (max_s ? 32 - (unsigned)__builtin_clz(max_s) : 0);
    if (n >= 256 && bits && bits <= 32) {
        /* k's room holds twice n numbers */
        uint64_t *a = (uint64_t *)k, *b = a + n;
        for (uint32_t i = 0; i < n; i++) a[i] = (uint64_t)((uint64_t)v[i].sender << bits_r | v[i].receiver) << 32 | i;
        unsigned passes = (bits + 10) / 11, d = (bits + passes - 1) / passes;
        uint32_t count[1u << 11];
        for (unsigned pass = 0, shift = 32; pass < passes; pass++, shift += d) {
            uint32_t nb = 1u << d;
            memset(count, 0, nb * sizeof *count);
            for (uint32_t i = 0; i < n; i++) count[(a[i] >> shift) & (nb - 1)]++;
            for (uint32_t c = 0, at = 0; c < nb; c++) {
                uint32_t m = count[c];
                count[c] = at;
                at += m;
            }
            for (uint32_t i = 0; i < n; i++) b[count[(a[i] >> shift) & (nb - 1)]++] = a[i];
            uint64_t *t = a;
            a = b;
            b = t;
        }
        for (uint32_t i = 0; i < n; i++) out[i] = v[(uint32_t)a[i]];
    } else {
        for (uint32_t i = 0; i < n; i++) k[i] = (msg_key){(uint64_t)v[i].sender << 32 | v[i].receiver, i};
        sort_keys(k, n, x);
        for (uint32_t i = 0; i < n; i++) out[i] = v[k[i].row];
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void sort_u32(uint32_t *t, uint32_t n)
{
    if (n > 16) {
        qsort(t, n, sizeof *t, cmp_u32);
        return;
    }
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = t[i], j = i;
        for (; j && t[j - 1] > v; j--) t[j] = t[j - 1];
        t[j] = v;
    }
}

/* The own states (x->own, n of them, timelines up to max_tl) sorted as
 * sort_own sorts them: the records come in time order, so they are
 * placed by timeline (the distinct timelines sorted, each one's states
 * kept in their order) and each timeline's run is sorted only where it is
 * not in order already. Merge sorting them all copied every state once
 * per pass, most of them in order. Returns where they are (x->own). */
static own_state *sort_own_states(own_state *own, uint32_t n, uint32_t max_tl, slog_summ_scratch *x)
{
    if (n < 2) return own;
    uint32_t *tls = max_tl < (1u << 24) ? room(&x->tls, &x->cap_tls, (size_t)n * sizeof *tls) : NULL;
    own_state *out = tls ? room(&x->tmp, &x->cap_tmp, ((size_t)n + 1) * sizeof *out) : NULL;
    if (out && max_tl >= x->n_tl) {
        uint32_t nt = max_tl + 1;
        uint32_t *g = realloc(x->tl_gen, (size_t)nt * sizeof *g);
        if (g) x->tl_gen = g;
        uint32_t *q = g ? realloc(x->tl_pos, (size_t)nt * sizeof *q) : NULL;
        if (q) {
            x->tl_pos = q;
            memset(g + x->n_tl, 0, (size_t)(nt - x->n_tl) * sizeof *g);
            x->n_tl = nt;
        } else {
            out = NULL;
        }
    }
    if (!out) {
        sort_own(own, n, x);
        return own;
    }
    if (++x->tl_stamp == 0) {
        memset(x->tl_gen, 0, (size_t)x->n_tl * sizeof *x->tl_gen);
        x->tl_stamp = 1;
    }
    uint32_t stamp = x->tl_stamp, *gen = x->tl_gen, *pos = x->tl_pos, k = 0, min_tl = UINT32_MAX;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t t = own[i].timeline;
        if (gen[t] != stamp) {
            gen[t] = stamp;
            pos[t] = 0;
            tls[k++] = t;
            if (t < min_tl) min_tl = t;
        }
        pos[t]++;
    }
    /* A block's timelines are a narrow range, mostly all of them in a
     * leaf: read off the stamps in order rather than sorted (qsort, past
     * a few). */
    if (k > 16 && max_tl - min_tl < 4 * (uint64_t)k) {
        k = 0;
        for (uint32_t t = min_tl; t <= max_tl; t++)
            if (gen[t] == stamp) tls[k++] = t;
    } else {
        sort_u32(tls, k);
    }
    for (uint32_t j = 0, at = 0; j < k; j++) {
        uint32_t c = pos[tls[j]];
        pos[tls[j]] = at;
        at += c;
    }
    for (uint32_t i = 0; i < n; i++) out[pos[own[i].timeline]++] = own[i];
    /* the placed states become x->own; own's room is the sorts' now */
    void *p = x->own;
    size_t cap = x->cap_own;
    x->own = x->tmp;
    x->cap_own = x->cap_tmp;
    x->tmp = p;
    x->cap_tmp = cap;
    for (uint32_t j = 0, at = 0; j < k; j++) {
        uint32_t end = pos[tls[j]];
        for (uint32_t i = at + 1; i < end; i++)
            if (own_less(&out[i], &out[i - 1])) {
                sort_own(out + at, end - at, x);
                break;
            }
        at = end;
    }
    return out;
}

/* A varint of a node's records, read without a cursor: at most 10 bytes
 * (own_records makes sure they can be read). */
static inline uint64_t rec_uvar(const uint8_t **pp)
{
    const uint8_t *p = *pp;
    /* most are one or two bytes */
    if (p[0] < 0x80) {
        *pp = p + 1;
        return p[0];
    }
    if (p[1] < 0x80) {
        *pp = p + 2;
        return (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
    }
    uint64_t v = 0;
    for (unsigned shift = 0; shift <= 63; shift += 7) {
        uint8_t b = *p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) break;
    }
    *pp = p;
    return v;
}

/* Step over the varints of m's bits (m not 0) at once, 8 bytes a load:
 * the bytes without the continuation bit end them, so the one of m's
 * last bit ends the last (the lower ones cleared one by one with m's: a
 * record's values are few). Reads below lim + 7 and returns a place up
 * to lim, or NULL (not the writer's). */
static inline const uint8_t *rec_skip_n(const uint8_t *p, uint64_t m, const uint8_t *lim)
{
    for (;;) {
        uint64_t stops = ~get_u64le(p) & 0x8080808080808080u;
        for (; (m & (m - 1)) && stops; m &= m - 1) stops &= stops - 1;
        if (stops) {
            p += __builtin_ctzll(stops) / 8 + 1;
            return p <= lim ? p : NULL;
        }
        p += 8;
        if (p >= lim) return NULL;
    }
}

/* The node's arrows summed by (sender, receiver) as they are read: a
 * node's arrows join few pairs, so a hash of the pairs (stamped by
 * generation: clearing it for each node cost more than the few arrows a
 * node has) leaves a row per pair, where a row per arrow, sorted, was
 * most of a leaf's summary. The table starts small and doubles with the
 * pairs, up to twice the node's records: sized by the records at once,
 * a trace of large nodes paid for megabytes of fresh pages it never
 * filled. */
typedef struct msg_fold {
    slog_summ_slot *slot; /* NULL: a row per arrow, summed by combine() */
    slog_summ_scratch *x; /* its rows (x->own_msg, n_row of them) go to
                             the node's at the end: grown in the node's
                             own array, they were copied at each doubling */
    uint32_t cap, bits, gen, n_row, most_cap;
} msg_fold;

enum { FOLD_FIRST_CAP = 1024 };

/* A table of cap slots (a power of two) in x, of a generation of its own. */
static bool fold_table(msg_fold *f, uint32_t cap, uint32_t bits)
{
    slog_summ_scratch *x = f->x;
    if (cap > x->cap_slot) {
        slog_summ_slot *t = calloc(cap, sizeof *t);
        if (!t) return false;
        free(x->slot);
        x->slot = t;
        x->cap_slot = cap;
        x->gen = 0;
    }
    if (++x->gen == 0) {
        memset(x->slot, 0, (size_t)x->cap_slot * sizeof *x->slot);
        x->gen = 1;
    }
    f->slot = x->slot;
    f->cap = cap;
    f->bits = bits;
    f->gen = x->gen;
    return true;
}

static inline uint32_t fold_hash(const msg_fold *f, uint64_t key)
{
    /* the product's top bits: every bit of the pair reaches them */
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> (64 - f->bits));
}

/* For the arrows of n records in len bytes (a record takes at least 5). */
static void fold_init(msg_fold *f, slog_summ_scratch *x, uint32_t n, size_t len)
{
    f->slot = NULL;
    f->x = x;
    f->n_row = 0;
    uint64_t most = n < len / 5 + 1 ? n : len / 5 + 1;
    uint32_t cap = 16;
    while (cap < 2 * most && cap < (1u << 30)) cap *= 2;
    f->most_cap = cap;
    if (cap > FOLD_FIRST_CAP) cap = FOLD_FIRST_CAP;
    uint32_t bits = (uint32_t)__builtin_ctz(cap);
    fold_table(f, cap, bits);
}

/* Twice the slots, the pairs so far placed again; on no memory the rows
 * that follow are per arrow (combine() sums them). */
static void fold_grow(msg_fold *f)
{
    if (!fold_table(f, f->cap * 2, f->bits + 1)) {
        f->slot = NULL;
        return;
    }
    const slog_summ_msg *m = f->x->own_msg;
    for (uint32_t row = 0; row < f->n_row; row++) {
        uint64_t key = (uint64_t)m[row].sender << 32 | m[row].receiver;
        uint32_t h = fold_hash(f, key);
        while (f->slot[h].gen == f->gen) h = (h + 1) & (f->cap - 1);
        f->slot[h] = (slog_summ_slot){key, f->gen, row};
    }
}

/* Row a added into row b of the same key. */
static void state_sum(slog_summ_state *b, const slog_summ_state *a)
{
    b->calls += a->calls;
    b->incl_ns = sat_add(b->incl_ns, a->incl_ns);
    b->child_ns = sat_add(b->child_ns, a->child_ns);
    if (a->min_ns < b->min_ns) b->min_ns = a->min_ns;
    if (a->max_ns > b->max_ns) b->max_ns = a->max_ns;
}

static void msg_sum(slog_summ_msg *b, const slog_summ_msg *a)
{
    b->count += a->count;
    b->bytes = sat_add(b->bytes, a->bytes);
    b->unknown += a->unknown;
    b->time_ns += a->time_ns;
}

/* A row appended to f's; false when out of memory. */
static bool fold_push(msg_fold *f, slog_summ *s, const slog_summ_msg *m)
{
    slog_summ_scratch *x = f->x;
    if (f->n_row == x->cap_own_msg &&
        !reserve_rows((void **)&x->own_msg, &x->cap_own_msg, x->cap_own_msg ? 2 * (uint64_t)x->cap_own_msg : 64,
                      sizeof *x->own_msg)) {
        s->failed = true;
        return false;
    }
    x->own_msg[f->n_row++] = *m;
    return true;
}

static inline void fold_arrow(msg_fold *f, slog_summ *s, const slog_summ_msg *m)
{
    if (!f->slot) {
        fold_push(f, s, m);
        return;
    }
    uint64_t key = (uint64_t)m->sender << 32 | m->receiver;
    uint32_t h = fold_hash(f, key);
    slog_summ_slot *slot = f->slot;
    while (slot[h].gen == f->gen && slot[h].key != key) h = (h + 1) & (f->cap - 1);
    if (slot[h].gen == f->gen) {
        msg_sum(&f->x->own_msg[slot[h].row], m);
        return;
    }
    uint32_t row = f->n_row;
    if (!fold_push(f, s, m)) return;
    slot[h] = (slog_summ_slot){key, f->gen, row};
    /* at most half full, as when sized for every record */
    if (2 * (uint64_t)f->n_row > f->cap && f->cap < f->most_cap) fold_grow(f);
}

/* One record from p (the writer's encoding; prev: the previous record's
 * start) into own (states, *n_own of them) or the folded message rows.
 * Reads at most SLOG_RECORD_MAX + 7 bytes; returns where the next one
 * starts, or NULL where the record cannot be the writer's. Mirrors are
 * counted in their sender's block only. */
static inline const uint8_t *own_record(const uint8_t *p, int64_t *prev, own_state *own, uint32_t *n_own,
                                        uint32_t *max_tl, uint32_t *max_cat, slog_summ *s, msg_fold *f,
                                        const slog_summ_cats *cats)
{
    uint8_t head = *p++;
    uint32_t cat = (uint32_t)rec_uvar(&p), tl = (uint32_t)rec_uvar(&p);
    unsigned kind = head & SLOG_REC_KIND_MASK;
    uint32_t etl = kind == SLOG_KIND_ARROW ? (uint32_t)rec_uvar(&p) : tl;
    int64_t start = *prev + zigzag_decode(rec_uvar(&p));
    *prev = start;
    uint64_t dur = rec_uvar(&p);
    int64_t end = head & SLOG_REC_BACKWARDS ? start - (int64_t)dur : start + (int64_t)dur;
    int64_t bytes = SLOG_INFO_UNKNOWN;
    if (head & SLOG_REC_HAS_INFO) {
        uint64_t mask = rec_uvar(&p);
        if (mask >> SLOG_MAX_FIELDS) return NULL; /* as a reader finds it */
        const uint8_t *lim = p + 10 * SLOG_MAX_FIELDS;
        /* only a sent arrow's size counts: the values before it and those
         * after it are stepped over, each at once */
        int bf = kind == SLOG_KIND_ARROW && !(head & SLOG_REC_MIRROR) && cat < cats->n ? cats->bytes_field[cat] : -1;
        if (bf >= 0 && bf < SLOG_MAX_FIELDS && (mask >> bf & 1)) {
            uint64_t below = mask & ((1ull << bf) - 1);
            if (below && !(p = rec_skip_n(p, below, lim))) return NULL;
            if (p > lim - 10) return NULL;
            bytes = zigzag_decode(rec_uvar(&p));
            mask &= ~0ull << bf << 1;
        }
        if (mask && !(p = rec_skip_n(p, mask, lim))) return NULL;
    }
    if (head & SLOG_REC_MIRROR) return p;
    if (kind == SLOG_KIND_STATE) {
        own[(*n_own)++] = (own_state){tl, cat, start, end};
        if (tl > *max_tl) *max_tl = tl;
        if (cat > *max_cat) *max_cat = cat;
    } else if (kind == SLOG_KIND_ARROW) {
        slog_summ_msg m = {tl, etl, 1, bytes >= 0 ? (uint64_t)bytes : 0, bytes >= 0 ? 0 : 1, end - start};
        fold_arrow(f, s, &m);
    }
    return p;
}

/* Decode the node's records (body: n records, len bytes) into its states,
 * and its arrows into message rows, one per (sender, receiver), sorted
 * (x->own_msg_out, *n_msg of them). The records are read without a cursor where
 * SLOG_RECORD_MAX + 8 bytes are left, the last ones from a copy padded
 * with zeros; a reader's summary check decodes records of a file here,
 * which stop where they run past the body. */
static own_state *own_records(slog_summ *s, slog_summ_scratch *x, const uint8_t *body, size_t len, uint32_t n,
                              int64_t lo, const slog_summ_cats *cats, uint32_t *n_own, uint32_t *max_tl,
                              uint32_t *max_cat, uint32_t *n_msg)
{
    own_state *own = room(&x->own, &x->cap_own, ((size_t)n + 1) * sizeof *own);
    *n_own = 0;
    if (!own) {
        s->failed = true;
        return NULL;
    }
    msg_fold f;
    fold_init(&f, x, n, len);
    int64_t prev = lo;
    enum { SAFE = SLOG_RECORD_MAX + 8 };
    uint8_t tail[2 * SAFE];
    const uint8_t *p = body, *end = len ? body + len : body;
    bool in_tail = false;
    for (uint32_t i = 0; len && i < n && p; i++) {
        if (!in_tail && !(len >= SAFE && p <= body + (len - SAFE))) {
            /* the rest to the padded copy */
            size_t t = (size_t)(end - p);
            memset(tail, 0, sizeof tail);
            if (t) memcpy(tail, p, t);
            p = tail;
            end = tail + t;
            in_tail = true;
        }
        if (in_tail && p >= end) break;
        p = own_record(p, &prev, own, n_own, max_tl, max_cat, s, &f, cats);
    }
    *n_msg = 0;
    if (f.n_row) {
        if (!reserve_rows((void **)&x->own_msg_out, &x->cap_own_msg_out, f.n_row, sizeof *x->own_msg_out))
            s->failed = true;
        else if (f.slot)
            sort_msg_rows(x->own_msg, f.n_row, x->own_msg_out, x);
        else
            memcpy(x->own_msg_out, x->own_msg, (size_t)f.n_row * sizeof *x->own_msg_out);
        if (!s->failed) *n_msg = f.n_row;
    }
    return own;
}

/* The sums of one timeline's own states, by category: a timeline's
 * states are contiguous in the sorted own states, so its rows gather
 * here and come out once each, in the rows' order. A row for every state,
 * all of them sorted, was most of a leaf's summary. */
typedef struct row_acc {
    slog_summ_state *by_cat; /* timeline: 1 while touched */
    uint32_t *touched;
    uint32_t n_cat, n_touched;
    slog_summ_scratch *x; /* the rows made (x->own_st, n_row of them), for
                             the node's at the end (as msg_fold's) */
    uint32_t n_row;
    bool failed;
} row_acc;

/* The rows by category are x's, kept cleared between nodes (acc_flush
 * clears those it used). */
static bool acc_init(row_acc *a, slog_summ_scratch *x, uint32_t max_cat, uint32_t n_own)
{
    a->x = x;
    if (!n_own) return true;
    a->n_cat = max_cat + 1;
    if (a->n_cat > x->n_by_cat) {
        slog_summ_state *b = realloc(x->by_cat, (size_t)a->n_cat * sizeof *b);
        if (!b) return false;
        x->by_cat = b;
        uint32_t *t = realloc(x->touched, (size_t)a->n_cat * sizeof *t);
        if (!t) return false;
        x->touched = t;
        for (uint32_t c = x->n_by_cat; c < a->n_cat; c++) b[c] = (slog_summ_state){0, c, 0, 0, 0, UINT64_MAX, 0};
        x->n_by_cat = a->n_cat;
    }
    a->by_cat = x->by_cat;
    a->touched = x->touched;
    return true;
}

static void acc_add(row_acc *a, uint32_t cat, uint64_t calls, uint64_t incl, uint64_t child, uint64_t mn, uint64_t mx)
{
    slog_summ_state *r = &a->by_cat[cat];
    if (!r->timeline) {
        r->timeline = 1;
        a->touched[a->n_touched++] = cat;
    }
    state_sum(r, &(slog_summ_state){.calls = calls, .incl_ns = incl, .child_ns = child, .min_ns = mn, .max_ns = mx});
}

static void acc_flush(row_acc *a, uint32_t timeline)
{
    uint32_t *t = a->touched, n = a->n_touched;
    slog_summ_scratch *x = a->x;
    sort_u32(t, n);
    uint64_t need = (uint64_t)a->n_row + n, nc = x->cap_own_st ? x->cap_own_st : 64;
    while (nc < need) nc *= 2;
    if (!reserve_rows((void **)&x->own_st, &x->cap_own_st, nc, sizeof *x->own_st)) a->failed = true;
    for (uint32_t i = 0; i < n; i++) {
        slog_summ_state *r = &a->by_cat[t[i]];
        if (!a->failed)
            x->own_st[a->n_row++] =
                (slog_summ_state){timeline, t[i], r->calls, r->incl_ns, r->child_ns, r->min_ns, r->max_ns};
        *r = (slog_summ_state){0, t[i], 0, 0, 0, UINT64_MAX, 0};
    }
    a->n_touched = 0;
}

/* Rows [0, cut[0]) and [cut[0], cut[1]) of v (n of them, size bytes
 * each) are the children's, each sorted with every key once, unless cmp
 * finds them not; the rest is this node's own. Sort v: the own rows
 * sorted, then the three runs merged. Sorting every row again at each
 * level, in order already but for the own ones, was two fifths of the
 * instructions of a build with thousands of ranks. Equal keys may end up
 * in any order: the caller sums them up, and the sums do not depend on
 * it. */
static void sort_runs(void *v, uint32_t n, size_t size, const uint32_t cut[2], int (*cmp)(const void *, const void *),
                      slog_summ_scratch *x)
{
    if (n < 2) return; /* v may be NULL when empty */
    char *a = v;
    uint32_t c0 = cut[0], c1 = cut[1];
    bool ok = c0 <= c1 && c1 <= n;
    for (uint32_t i = 1; ok && i < c1; i++)
        if (i != c0 && cmp(a + (size_t)(i - 1) * size, a + (size_t)i * size) >= 0) ok = false;
    bool own_sorted = ok; /* the own rows come sorted but for a few */
    for (uint32_t i = c1 + 1; own_sorted && i < n; i++)
        if (cmp(a + (size_t)(i - 1) * size, a + (size_t)i * size) > 0) own_sorted = false;
    if (own_sorted && !c1) return; /* a leaf's */
    char *tmp = ok && c1 ? room(&x->tmp, &x->cap_tmp, (size_t)n * size) : NULL;
    if (!tmp) {
        qsort(v, n, size, cmp);
        return;
    }
    if (!own_sorted) qsort(a + (size_t)c1 * size, n - c1, size, cmp);
    uint32_t i = 0, j = c0, k = c1;
    for (uint32_t o = 0; o < n; o++) {
        const char *best = NULL;
        uint32_t *from = NULL;
        if (i < c0) best = a + (size_t)i * size, from = &i;
        if (j < c1 && (!best || cmp(a + (size_t)j * size, best) < 0)) best = a + (size_t)j * size, from = &j;
        if (k < n && (!best || cmp(a + (size_t)k * size, best) < 0)) best = a + (size_t)k * size, from = &k;
        memcpy(tmp + (size_t)o * size, best, size);
        (*from)++;
    }
    memcpy(v, tmp, (size_t)n * size);
}

/* Three runs of rows (a, b, c: the children's and the node's own, each
 * in order) merged, equal keys summed, into *spare (the node's room of its
 * children's rows, free by now), their number in *n: appending them to one
 * array, merging that into the scratch, copying back and summing in a pass
 * of its own moved every row four times. false where a run is out of
 * order or there is no room (sort_runs then). Rows are compared by their
 * key as one number (key), and taken from three runs only while all three
 * last, then from two, then copied: a choice among three at every row,
 * each side compared field by field, was most of the merge. Defined for
 * each row type (NAME). */
#define DEFINE_MERGE3(NAME, T, key, sum)                                                                   \
    static inline void NAME##_put(T *out, uint32_t *o, const T *r)                                         \
    {                                                                                                      \
        if (*o && key(&out[*o - 1]) == key(r))                                                             \
            sum(&out[*o - 1], r);                                                                          \
        else                                                                                               \
            out[(*o)++] = *r;                                                                              \
    }                                                                                                      \
    static bool NAME(const T *a, uint32_t na, const T *b, uint32_t nb, const T *c, uint32_t nc, T **spare, \
                     uint32_t *spare_cap, uint32_t *n)                                                     \
    {                                                                                                      \
        for (uint32_t i = 1; i < na; i++)                                                                  \
            if (key(&a[i]) < key(&a[i - 1])) return false;                                                 \
        for (uint32_t i = 1; i < nb; i++)                                                                  \
            if (key(&b[i]) < key(&b[i - 1])) return false;                                                 \
        for (uint32_t i = 1; i < nc; i++)                                                                  \
            if (key(&c[i]) < key(&c[i - 1])) return false;                                                 \
        uint64_t all = (uint64_t)na + nb + nc;                                                             \
        if (all > UINT32_MAX) return false;                                                                \
        if (*spare_cap < all) {                                                                            \
            uint32_t cap = 16;                                                                             \
            while (cap < all) cap = cap > UINT32_MAX / 2 ? (uint32_t)all : cap * 2;                        \
            T *p = malloc((size_t)cap * sizeof *p);                                                        \
            if (!p) return false;                                                                          \
            free(*spare);                                                                                  \
            *spare = p;                                                                                    \
            *spare_cap = cap;                                                                              \
        }                                                                                                  \
        T *out = *spare;                                                                                   \
        uint32_t i = 0, j = 0, k = 0, o = 0;                                                               \
        while (i < na && j < nb && k < nc) {                                                               \
            uint64_t ka = key(&a[i]), kb = key(&b[j]), kc = key(&c[k]);                                    \
            if (ka <= kb && ka <= kc)                                                                      \
                NAME##_put(out, &o, &a[i++]);                                                              \
            else if (kb <= kc)                                                                             \
                NAME##_put(out, &o, &b[j++]);                                                              \
            else                                                                                           \
                NAME##_put(out, &o, &c[k++]);                                                              \
        }                                                                                                  \
        /* the two runs left as x and y */                                                                 \
        const T *x = a, *y = b;                                                                            \
        uint32_t ix = i, nx = na, iy = j, ny = nb;                                                         \
        if (i == na)                                                                                       \
            x = c, ix = k, nx = nc;                                                                        \
        else if (j == nb)                                                                                  \
            y = c, iy = k, ny = nc;                                                                        \
        while (ix < nx && iy < ny) {                                                                       \
            if (key(&x[ix]) <= key(&y[iy]))                                                                \
                NAME##_put(out, &o, &x[ix++]);                                                             \
            else                                                                                           \
                NAME##_put(out, &o, &y[iy++]);                                                             \
        }                                                                                                  \
        if (iy < ny) x = y, ix = iy, nx = ny;                                                              \
        while (ix < nx) NAME##_put(out, &o, &x[ix++]);                                                     \
        *n = o;                                                                                            \
        return true;                                                                                       \
    }

static inline uint64_t state_key(const slog_summ_state *r)
{
    return (uint64_t)r->timeline << 32 | r->category;
}

static inline uint64_t msg_key_of(const slog_summ_msg *r)
{
    return (uint64_t)r->sender << 32 | r->receiver;
}

DEFINE_MERGE3(merge_states, slog_summ_state, state_key, state_sum)
DEFINE_MERGE3(merge_msgs, slog_summ_msg, msg_key_of, msg_sum)

/* What close_summ leaves where it is for combine() to merge: the right
 * child's rows (still in s->child_*[1]) and the node's own (c_*). */
typedef struct rows_in {
    bool st, msg; /* there are such rows */
    uint32_t nb_st, nc_st, nb_msg, nc_msg;
    const slog_summ_state *c_st;
    const slog_summ_msg *c_msg;
} rows_in;

/* Rows a (its runs cut by cut) merged by DEFINE_MERGE3, where they are
 * three runs of one array. */
#define MERGE_CUT(merge, v, n, cut, spare, spare_cap, out_n)                                                         \
    ((n) >= 2 && (cut)[1] && (cut)[0] <= (cut)[1] && (cut)[1] <= (n) &&                                              \
     merge((v), (cut)[0], (v) + (cut)[0], (cut)[1] - (cut)[0], (v) + (cut)[1], (n) - (cut)[1], (spare), (spare_cap), \
           (out_n)))

/* What combine() does with a kind of row, F the field of slog_summ and of
 * rows_in it is kept in (st, msg). place_F appends the rows close_summ
 * left where they were to s's (the right child's, then the node's own,
 * cut: sort_runs). combine_F merges the three runs, or else places and
 * sorts them, each key once. Both return false when out of memory. */
#define DEFINE_ROWS(F, merge, cmp, sum)                                                                           \
    static bool place_##F(slog_summ *s, rows_in *in, uint32_t cut[2])                                             \
    {                                                                                                             \
        if (!in->F) return true;                                                                                  \
        in->F = false;                                                                                            \
        bool ok = append_rows((void **)&s->F, &s->n_##F, &s->cap_##F, s->child_##F[1], in->nb_##F, sizeof *s->F); \
        cut[1] = s->n_##F;                                                                                        \
        return ok && append_rows((void **)&s->F, &s->n_##F, &s->cap_##F, in->c_##F, in->nc_##F, sizeof *s->F);    \
    }                                                                                                             \
    static bool combine_##F(slog_summ *s, slog_summ_scratch *x, uint32_t cut[2], rows_in *in)                     \
    {                                                                                                             \
        uint32_t o = 0;                                                                                           \
        bool merged = in->F ? merge(s->F, s->n_##F, s->child_##F[1], in->nb_##F, in->c_##F, in->nc_##F,           \
                                    &s->child_##F[0], &s->cap_child_##F[0], &o)                                   \
                            : MERGE_CUT(merge, s->F, s->n_##F, cut, &s->child_##F[0], &s->cap_child_##F[0], &o);  \
        if (merged) {                                                                                             \
            SWAP_ROWS(s->F, s->cap_##F, s->child_##F[0], s->cap_child_##F[0]);                                    \
            s->n_##F = o;                                                                                         \
            return true;                                                                                          \
        }                                                                                                         \
        if (!place_##F(s, in, cut)) return false;                                                                 \
        sort_runs(s->F, s->n_##F, sizeof *s->F, cut, cmp, x);                                                     \
        for (uint32_t i = 0; i < s->n_##F; i++) {                                                                 \
            if (o && cmp(&s->F[o - 1], &s->F[i]) == 0)                                                            \
                sum(&s->F[o - 1], &s->F[i]);                                                                      \
            else                                                                                                  \
                s->F[o++] = s->F[i];                                                                              \
        }                                                                                                         \
        s->n_##F = o;                                                                                             \
        return true;                                                                                              \
    }

DEFINE_ROWS(st, merge_states, cmp_state, state_sum)
DEFINE_ROWS(msg, merge_msgs, cmp_msg, msg_sum)

/* The rows in s sorted and each key once (st_cut, msg_cut: sort_runs;
 * in: what close_summ left where it was). */
static void combine(slog_summ *s, slog_summ_scratch *x, uint32_t st_cut[2], uint32_t msg_cut[2], rows_in *in)
{
    if (!combine_st(s, x, st_cut, in) || !combine_msg(s, x, msg_cut, in)) s->failed = true;
}

/* Extents sorted by timeline (the encoding's order). */
static int cmp_ext(const void *a, const void *b)
{
    const slog_summ_ext *x = a, *y = b;
    return x->timeline < y->timeline ? -1 : x->timeline > y->timeline;
}

static bool ext_sorted(const slog_summ_ext *v, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++)
        if (v[i - 1].timeline >= v[i].timeline) return false;
    return true;
}

static void ext_widen(slog_summ_ext *x, int64_t s0, int64_t s1, int64_t e0, int64_t e1)
{
    if (s0 < x->min_start) x->min_start = s0;
    if (s1 > x->max_start) x->max_start = s1;
    if (e0 < x->min_end) x->min_end = e0;
    if (e1 > x->max_end) x->max_end = e1;
}

/* The children's states of one timeline (own[from, to): its own states;
 * next: where each side's extents are at) with no parent in their
 * subtree: their parent here, if any, is the last own state that nests
 * them all; an own state that nests only some of them leaves the sums
 * incomplete. Their time goes to that state's row in acc. */
static void child_tops(slog_summ *s, row_acc *acc, const own_state *own, uint32_t from, uint32_t to, uint32_t next[2])
{
    uint32_t t = own[from].timeline;
    for (int side = 0; side < 2; side++) {
        const slog_summ_ext *e = s->child_ext[side];
        uint32_t n = s->n_child_ext[side], j = next[side];
        while (j < n && e[j].timeline < t) j++;
        for (; j < n && e[j].timeline == t; j++) {
            uint32_t parent = to;
            for (uint32_t i = from; i < to; i++) {
                int k = slog_summ_nests(own[i].start, own[i].end, &e[j]);
                if (k < 0) s->unresolved = true;
                if (k > 0) parent = i;
            }
            if (parent < to && e[j].top_ns) acc_add(acc, own[parent].category, 0, 0, e[j].top_ns, UINT64_MAX, 0);
        }
        next[side] = j;
    }
}

/* A left child's rows as slog_summ_merge_child encoded them into
 * s->child_*[side]: the writer's own bytes in memory, read without the
 * checks slog_summ_decode makes of a file's summary. false when out of
 * memory. */
static bool child_decode(slog_summ *s, unsigned side)
{
    const uint8_t *p = s->child_blob[side].data + 17; /* fixed bytes, flags */
    int64_t lo = s->child_lo[side];
    uint64_t n = rec_uvar(&p);
    if (!reserve_rows((void **)&s->child_st[side], &s->cap_child_st[side], n, sizeof **s->child_st)) return false;
    for (uint64_t i = 0; i < n; i++) {
        slog_summ_state *a = &s->child_st[side][i];
        a->timeline = (uint32_t)rec_uvar(&p);
        a->category = (uint32_t)rec_uvar(&p);
        a->calls = rec_uvar(&p);
        a->incl_ns = rec_uvar(&p);
        a->child_ns = rec_uvar(&p);
        a->min_ns = rec_uvar(&p);
        a->max_ns = rec_uvar(&p);
    }
    s->n_child_st[side] = (uint32_t)n;
    n = rec_uvar(&p);
    if (!reserve_rows((void **)&s->child_ext[side], &s->cap_child_ext[side], n, sizeof **s->child_ext)) return false;
    for (uint64_t i = 0; i < n; i++) {
        slog_summ_ext *x = &s->child_ext[side][i];
        x->timeline = (uint32_t)rec_uvar(&p);
        uint64_t s0 = rec_uvar(&p), ds = rec_uvar(&p), e0 = rec_uvar(&p), de = rec_uvar(&p);
        x->min_start = lo + (int64_t)s0;
        x->max_start = lo + (int64_t)(s0 + ds);
        x->min_end = lo + (int64_t)e0;
        x->max_end = lo + (int64_t)(e0 + de);
        x->top_ns = rec_uvar(&p);
    }
    s->n_child_ext[side] = (uint32_t)n;
    n = rec_uvar(&p);
    if (!reserve_rows((void **)&s->child_msg[side], &s->cap_child_msg[side], n, sizeof **s->child_msg)) return false;
    for (uint64_t i = 0; i < n; i++) {
        slog_summ_msg *m = &s->child_msg[side][i];
        m->sender = (uint32_t)rec_uvar(&p);
        m->receiver = (uint32_t)rec_uvar(&p);
        m->count = rec_uvar(&p);
        m->bytes = rec_uvar(&p);
        m->unknown = rec_uvar(&p);
        m->time_ns = zigzag_decode(rec_uvar(&p));
    }
    s->n_child_msg[side] = (uint32_t)n;
    return true;
}

static void close_summ(slog_summ *s, slog_summ_scratch *sc, uint32_t level, const uint8_t *body, size_t len, uint32_t n,
                       int64_t lo, int64_t hi, const slog_summ_cats *cats)
{
    /* The children's rows, each side's sorted (the encoding's order):
     * combine() merges them rather than sorting them again. */
    uint32_t st_cut[2] = {0, 0}, msg_cut[2] = {0, 0};
    s->blob.len = 0;
    if (level && !n && s->child_blob[0].len && !s->child_blob[1].len && !s->n_st && !s->n_msg && !s->n_ext &&
        !s->n_child_st[0] && !s->n_child_msg[0] && !s->n_child_ext[0] && !s->n_child_st[1] && !s->n_child_msg[1] &&
        !s->n_child_ext[1]) {
        /* One child, held encoded from the node's start, and no records:
         * the node's summary is the child's, bytes and all (the flag its
         * own: slog_summ_merge_child gathers it). */
        slog_buf b = s->blob;
        s->blob = s->child_blob[0];
        s->child_blob[0] = b;
        s->child_blob[0].len = 0;
        s->blob.data[16] = s->unresolved ? 1 : 0;
        memcpy(s->blob_n, s->child_blob_n[0], sizeof s->blob_n);
        return;
    }
    bool runs = !s->n_st && !s->n_msg;
    rows_in in = {.st = runs, .msg = runs};
    for (unsigned side = 0; side < 2; side++) {
        st_cut[side] = runs ? s->n_st : 0;
        msg_cut[side] = runs ? s->n_msg : 0;
        if (!level) continue;
        if (s->child_blob[side].len) {
            if (!child_decode(s, side)) {
                s->failed = true;
                return;
            }
            s->child_blob[side].len = 0;
        }
        /* the left child's rows become the node's where it has none yet;
         * the right child's stay for combine() to merge */
        if (!s->n_st) {
            SWAP_ROWS(s->st, s->cap_st, s->child_st[side], s->cap_child_st[side]);
            s->n_st = s->n_child_st[side];
        } else if (runs) {
            in.nb_st = s->n_child_st[side];
        } else if (!append_rows((void **)&s->st, &s->n_st, &s->cap_st, s->child_st[side], s->n_child_st[side],
                                sizeof *s->st)) {
            s->failed = true;
            return;
        }
        if (!s->n_msg) {
            SWAP_ROWS(s->msg, s->cap_msg, s->child_msg[side], s->cap_child_msg[side]);
            s->n_msg = s->n_child_msg[side];
        } else if (runs) {
            in.nb_msg = s->n_child_msg[side];
        } else if (!append_rows((void **)&s->msg, &s->n_msg, &s->cap_msg, s->child_msg[side], s->n_child_msg[side],
                                sizeof *s->msg)) {
            s->failed = true;
            return;
        }
        s->n_child_st[side] = s->n_child_msg[side] = 0;
        st_cut[side] = runs ? s->n_st : 0;
        msg_cut[side] = runs ? s->n_msg : 0;
    }
    uint32_t n_own = 0, max_tl = 0, max_cat = 0, n_msg = 0;
    own_state *own = own_records(s, sc, body, len, n, lo, cats, &n_own, &max_tl, &max_cat, &n_msg);
    if (!own) return;
    in.c_msg = sc->own_msg_out;
    in.nc_msg = n_msg;
    if (!runs && !append_rows((void **)&s->msg, &s->n_msg, &s->cap_msg, sc->own_msg_out, n_msg, sizeof *s->msg)) {
        s->failed = true;
        return;
    }
    own = sort_own_states(own, n_own, max_tl, sc);
    /* The parent of each own state among the own states: on a stack of
     * the states met so far (in parent order), the last one that still
     * reaches its end (summary.h, slog_summ_key_cmp). */
    uint32_t *stack = room(&sc->stack, &sc->cap_stack, ((size_t)n_own + 1) * sizeof *stack);
    row_acc acc = {0};
    if (!stack || !acc_init(&acc, sc, max_cat, n_own)) {
        s->failed = true;
        return;
    }
    /* The children's extents come sorted by timeline, each once (as
     * close_summ and slog_summ_decode make them): each timeline's go with
     * its own states' rows, which then come out sorted. */
    bool ext_in_order =
        ext_sorted(s->child_ext[0], s->n_child_ext[0]) && ext_sorted(s->child_ext[1], s->n_child_ext[1]);
    uint32_t next_ext[2] = {0, 0}, n_own_ext = 0;
    for (uint32_t first = 0, i = 0; first < n_own; first = i) {
        uint32_t t = own[first].timeline, top = 0;
        int64_t e0 = own[first].end, e1 = e0;
        for (; i < n_own && own[i].timeline == t; i++) {
            const own_state *o = &own[i];
            if (o->end < e0) e0 = o->end;
            if (o->end > e1) e1 = o->end;
            while (top && own[stack[top - 1]].end < o->end) top--;
            uint64_t d = (uint64_t)(o->end - o->start);
            acc_add(&acc, o->category, 1, d, 0, d, d);
            if (top) acc_add(&acc, own[stack[top - 1]].category, 0, 0, d, UINT64_MAX, 0);
            stack[top++] = i;
        }
        if (ext_in_order) child_tops(s, &acc, own, first, i, next_ext);
        acc_flush(&acc, t);
        /* the timeline's extent (its states sorted by start), for the
         * node's extents below */
        if (n_own_ext == sc->cap_own_ext &&
            !reserve_rows((void **)&sc->own_ext, &sc->cap_own_ext, sc->cap_own_ext ? 2 * (uint64_t)sc->cap_own_ext : 64,
                          sizeof *sc->own_ext))
            acc.failed = true;
        else
            sc->own_ext[n_own_ext++] = (slog_summ_ext){t, own[first].start, own[i - 1].start, e0, e1, 0};
    }
    in.c_st = sc->own_st;
    in.nc_st = acc.n_row;
    if (acc.failed ||
        (!in.st && !append_rows((void **)&s->st, &s->n_st, &s->cap_st, sc->own_st, acc.n_row, sizeof *s->st))) {
        s->failed = true;
        return;
    }
    /* (rows of their own below: all placed first) */
    if (!ext_in_order && !place_st(s, &in, st_cut)) {
        s->failed = true;
        return;
    }
    /* (the same for extents out of order, as rows of their own) */
    for (int side = 0; !ext_in_order && side < 2; side++) {
        for (uint32_t j = 0; j < s->n_child_ext[side]; j++) {
            const slog_summ_ext *x = &s->child_ext[side][j];
            uint32_t a = 0, b = n_own; /* first own state of x's timeline */
            while (a < b) {
                uint32_t m = a + (b - a) / 2;
                if (own[m].timeline < x->timeline)
                    a = m + 1;
                else
                    b = m;
            }
            int parent = -1;
            for (uint32_t i = a; i < n_own && own[i].timeline == x->timeline; i++) {
                int k = slog_summ_nests(own[i].start, own[i].end, x);
                if (k < 0) s->unresolved = true;
                if (k > 0) parent = (int)i;
            }
            if (parent >= 0 && x->top_ns)
                add_state_row(s, x->timeline, own[parent].category, 0, 0, x->top_ns, UINT64_MAX, 0);
        }
    }
    combine(s, sc, st_cut, msg_cut, &in);
    /* This node's extents: the children's widened by the own states; its
     * states with no parent inside are all minus the nested ones. */
    s->n_ext = 0;
    if (ext_in_order) {
        /* The children's extents (sorted, each timeline once) and the own
         * states (sorted by timeline) merged: each timeline is met in
         * order, so it is the last entry or a new one (searching the
         * entries for every one was quadratic in the timelines). */
        const slog_summ_ext *a = s->child_ext[0], *b = s->child_ext[1], *c = sc->own_ext;
        uint32_t na = s->n_child_ext[0], nb = s->n_child_ext[1], i = 0, j = 0, k = 0;
        while (i < na || j < nb || k < n_own_ext) {
            uint32_t ta = i < na ? a[i].timeline : UINT32_MAX, tb = j < nb ? b[j].timeline : UINT32_MAX;
            uint32_t to = k < n_own_ext ? c[k].timeline : UINT32_MAX;
            slog_summ_ext x;
            if (i < na && ta <= tb && ta <= to)
                x = a[i++];
            else if (j < nb && tb <= to)
                x = b[j++];
            else
                x = c[k++];
            if (s->n_ext && s->ext[s->n_ext - 1].timeline == x.timeline) {
                ext_widen(&s->ext[s->n_ext - 1], x.min_start, x.max_start, x.min_end, x.max_end);
            } else {
                uint32_t before = s->n_ext;
                GROW(s->ext, s->n_ext, s->cap_ext, s);
                if (s->n_ext == before) return;
                s->ext[before] = x;
            }
        }
    } else {
        for (int side = 0; side < 2; side++)
            for (uint32_t j = 0; j < s->n_child_ext[side]; j++) {
                const slog_summ_ext *x = &s->child_ext[side][j];
                uint32_t k = 0;
                while (k < s->n_ext && s->ext[k].timeline != x->timeline) k++;
                if (k == s->n_ext) {
                    uint32_t before = s->n_ext;
                    GROW(s->ext, s->n_ext, s->cap_ext, s);
                    if (s->n_ext == before) return;
                    s->ext[k] = *x;
                } else {
                    ext_widen(&s->ext[k], x->min_start, x->max_start, x->min_end, x->max_end);
                }
            }
        for (uint32_t i = 0, k = 0; i < n_own; i++) {
            if (!i || own[i - 1].timeline != own[i].timeline || k == s->n_ext)
                for (k = 0; k < s->n_ext && s->ext[k].timeline != own[i].timeline; k++) {
                }
            if (k == s->n_ext) {
                uint32_t before = s->n_ext;
                GROW(s->ext, s->n_ext, s->cap_ext, s);
                if (s->n_ext == before) return;
                s->ext[k] = (slog_summ_ext){own[i].timeline, own[i].start, own[i].start, own[i].end, own[i].end, 0};
            } else {
                ext_widen(&s->ext[k], own[i].start, own[i].start, own[i].end, own[i].end);
            }
        }
        if (s->n_ext > 1) /* base may be NULL when empty */
            qsort(s->ext, s->n_ext, sizeof *s->ext, cmp_ext);
    }
    /* top_ns from the combined rows; both are sorted by timeline, so a
     * timeline's rows are summed in a run and stored once (through s, the
     * compiler read every array and count again at each row). */
    slog_summ_ext *ext = s->ext;
    const slog_summ_state *st = s->st;
    uint32_t n_ext = s->n_ext, n_st = s->n_st;
    for (uint32_t i = 0, k = 0; k < n_ext; k++) {
        uint32_t t = ext[k].timeline;
        uint64_t top = 0;
        while (i < n_st && st[i].timeline < t) i++;
        for (; i < n_st && st[i].timeline == t; i++) top += st[i].incl_ns - st[i].child_ns;
        ext[k].top_ns = top;
    }
}

void slog_summ_close(slog_summ *s, slog_summ_scratch *x, uint32_t level, const uint8_t *body, size_t len, uint32_t n,
                     int64_t lo, int64_t hi, const slog_summ_cats *cats)
{
    slog_summ_scratch own = {0};
    close_summ(s, x ? x : &own, level, body, len, n, lo, hi, cats);
    slog_summ_scratch_free(&own);
}

/* slog_summ_merge_child's, encoded the one given (NULL: c's). */
static void merge_child(slog_summ *p, slog_summ *c, unsigned side, uint32_t level, uint64_t index, int64_t lo,
                        int64_t hi, bool encode_left, const slog_buf *encoded)
{
    if (c->failed) p->failed = true;
    if (c->unresolved) p->unresolved = true;
    p->n_child_st[side] = p->n_child_msg[side] = p->n_child_ext[side] = 0;
    if (c->blob.len) {
        /* encoded from c's start, as the parent reads a child's bytes */
        slog_buf b = p->child_blob[side];
        p->child_blob[side] = c->blob;
        c->blob = b;
        memcpy(p->child_blob_n[side], c->blob_n, sizeof c->blob_n);
        p->child_index[side] = index;
        p->child_lo[side] = lo;
        p->child_hi[side] = hi;
    } else if (encode_left && side == 0) {
        /* A left child's parent waits for its sibling, so that an open
         * node on every level of every block's tree holds a left child's
         * rows: encoded, a fifth of their memory (held decoded, the
         * writer's memory grew with the trace's length). */
        slog_buf *blob = &p->child_blob[side];
        blob->len = 0;
        if (encoded) {
            /* room for its bytes only: grown by doubling, a held
             * summary's room was up to twice its bytes */
            size_t need = encoded->len;
            if (blob->cap < need || blob->cap / 2 > need) {
                free(blob->data);
                blob->data = malloc(need);
                blob->cap = blob->data ? need : 0;
                if (!blob->data) blob->failed = true;
            }
            if (blob->data) {
                memcpy(blob->data, encoded->data, encoded->len);
                blob->len = encoded->len;
            }
        } else {
            uint8_t fixed[16] = {0};
            fixed[0] = (uint8_t)level;
            put_u64le(fixed + 8, index);
            slog_summ_encode(c, fixed, lo, &p->child_blob[side]);
        }
        if (p->child_blob[side].failed) p->failed = true;
        p->child_blob_n[side][0] = c->n_st;
        p->child_blob_n[side][1] = c->n_ext;
        p->child_blob_n[side][2] = c->n_msg;
        p->child_index[side] = index;
        p->child_lo[side] = lo;
        p->child_hi[side] = hi;
    } else {
        /* A right child's parent closes right after it (they end
         * together): its rows move there as they are, not encoded for the
         * parent to decode again. The parent's old room goes with the
         * child's: a node is reused for a later one of its level, which
         * may need far fewer. */
        SWAP_ROWS(p->child_st[side], p->cap_child_st[side], c->st, c->cap_st);
        p->n_child_st[side] = c->n_st;
        SWAP_ROWS(p->child_msg[side], p->cap_child_msg[side], c->msg, c->cap_msg);
        p->n_child_msg[side] = c->n_msg;
        SWAP_ROWS(p->child_ext[side], p->cap_child_ext[side], c->ext, c->cap_ext);
        p->n_child_ext[side] = c->n_ext;
    }
    slog_summ_free(c);
}

void slog_summ_merge_child(slog_summ *p, slog_summ *c, unsigned side, uint32_t level, uint64_t index, int64_t lo,
                           int64_t hi, bool encode_left)
{
    merge_child(p, c, side, level, index, lo, hi, encode_left, NULL);
}

void slog_summ_merge_left_encoded(slog_summ *p, slog_summ *c, uint32_t level, uint64_t index, int64_t lo, int64_t hi,
                                  const slog_buf *encoded)
{
    merge_child(p, c, 0, level, index, lo, hi, true, encoded);
}

uint64_t slog_summ_estimate(const slog_summ *s)
{
    /* the smallest varints: a byte per field */
    if (s->blob.len) return 20 + 7ull * s->blob_n[0] + 6ull * s->blob_n[1] + 6ull * s->blob_n[2];
    return 20 + 7ull * s->n_st + 6ull * s->n_ext + 6ull * s->n_msg;
}

/* Room for a row's varints at their longest, checked once a row rather
 * than once a varint (room for all rows at once grew the writer's memory
 * with the large summaries' buffers). */
#define ROW_ROOM(out, p, n)                              \
    do {                                                 \
        (out)->len = (size_t)((p) - (out)->data);        \
        if (!buf_reserve((out), (size_t)(n)*10)) return; \
        (p) = (out)->data + (out)->len;                  \
    } while (0)

void slog_summ_encode(const slog_summ *s, const uint8_t fixed[16], int64_t lo, slog_buf *out)
{
    if (s->blob.len) {
        if (!buf_reserve(out, s->blob.len)) return;
        memcpy(out->data + out->len, fixed, 16);
        memcpy(out->data + out->len + 16, s->blob.data + 16, s->blob.len - 16);
        out->len += s->blob.len;
        return;
    }
    if (!buf_reserve(out, 16 + 1 + 10)) return;
    uint8_t *p = out->data + out->len;
    memcpy(p, fixed, 16);
    p += 16;
    *p++ = s->unresolved ? 1 : 0;
    p = put_uvar(p, s->n_st);
    for (uint32_t i = 0; i < s->n_st; i++) {
        const slog_summ_state *a = &s->st[i];
        ROW_ROOM(out, p, 7 + 1);
        p = put_uvar(p, a->timeline);
        p = put_uvar(p, a->category);
        p = put_uvar(p, a->calls);
        p = put_uvar(p, a->incl_ns);
        p = put_uvar(p, a->child_ns);
        p = put_uvar(p, a->min_ns);
        p = put_uvar(p, a->max_ns);
    }
    ROW_ROOM(out, p, 1);
    p = put_uvar(p, s->n_ext);
    for (uint32_t i = 0; i < s->n_ext; i++) {
        const slog_summ_ext *x = &s->ext[i];
        ROW_ROOM(out, p, 6 + 1);
        p = put_uvar(p, x->timeline);
        p = put_uvar(p, (uint64_t)(x->min_start - lo));
        p = put_uvar(p, (uint64_t)(x->max_start - x->min_start));
        p = put_uvar(p, (uint64_t)(x->min_end - lo));
        p = put_uvar(p, (uint64_t)(x->max_end - x->min_end));
        p = put_uvar(p, x->top_ns);
    }
    ROW_ROOM(out, p, 1);
    p = put_uvar(p, s->n_msg);
    for (uint32_t i = 0; i < s->n_msg; i++) {
        const slog_summ_msg *m = &s->msg[i];
        ROW_ROOM(out, p, 6);
        p = put_uvar(p, m->sender);
        p = put_uvar(p, m->receiver);
        p = put_uvar(p, m->count);
        p = put_uvar(p, m->bytes);
        p = put_uvar(p, m->unknown);
        p = put_uvar(p, zigzag_encode(m->time_ns));
    }
    out->len = (size_t)(p - out->data);
}

bool slog_summ_decode(slog_summ *s, const uint8_t *body, size_t len, uint32_t level, uint64_t index, int64_t lo,
                      int64_t hi, uint32_t n_timelines, uint32_t n_categories, const bool *is_state)
{
    slog_summ_reset(s);
    slog_cur c = cur_make(body, len);
    uint8_t lv = cur_u8(&c);
    cur_u8(&c);
    cur_u16(&c);
    cur_u32(&c);
    uint64_t ix = cur_u64(&c);
    uint8_t flags = cur_u8(&c);
    if (!cur_ok(&c) || lv != level || ix != index || (flags & ~1u)) return false;
    s->unresolved = flags & 1;
    uint64_t n = cur_uvar(&c);
    /* each row takes at least one byte per field: bounds the counts */
    if (!cur_ok(&c) || n > cur_left(&c) / 7) return false;
    for (uint64_t i = 0; i < n; i++) {
        slog_summ_state a;
        uint64_t tl = cur_uvar(&c), cat = cur_uvar(&c);
        a.calls = cur_uvar(&c);
        a.incl_ns = cur_uvar(&c);
        a.child_ns = cur_uvar(&c);
        a.min_ns = cur_uvar(&c);
        a.max_ns = cur_uvar(&c);
        if (!cur_ok(&c) || tl >= n_timelines || cat >= n_categories || (is_state && !is_state[cat]) || !a.calls ||
            a.min_ns > a.max_ns || a.max_ns >= (uint64_t)(hi - lo))
            return false;
        a.timeline = (uint32_t)tl;
        a.category = (uint32_t)cat;
        if (i && cmp_state(&s->st[s->n_st - 1], &a) >= 0) return false;
        add_state_row(s, a.timeline, a.category, a.calls, a.incl_ns, a.child_ns, a.min_ns, a.max_ns);
        if (s->failed) return false;
    }
    n = cur_uvar(&c);
    if (!cur_ok(&c) || n > cur_left(&c) / 6) return false;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t tl = cur_uvar(&c), s0 = cur_uvar(&c), ds = cur_uvar(&c), e0 = cur_uvar(&c), de = cur_uvar(&c);
        uint64_t top = cur_uvar(&c);
        uint64_t w = (uint64_t)(hi - lo);
        /* all four inside [lo, hi): bounds the additions below */
        if (!cur_ok(&c) || tl >= n_timelines || s0 >= w || ds >= w - s0 || e0 >= w || de >= w - e0) return false;
        if (s->n_ext && s->ext[s->n_ext - 1].timeline >= tl) return false;
        uint32_t before = s->n_ext;
        GROW(s->ext, s->n_ext, s->cap_ext, s);
        if (s->n_ext == before) return false;
        s->ext[before] = (slog_summ_ext){(uint32_t)tl,     lo + (int64_t)s0,        lo + (int64_t)(s0 + ds),
                                         lo + (int64_t)e0, lo + (int64_t)(e0 + de), top};
    }
    n = cur_uvar(&c);
    if (!cur_ok(&c) || n > cur_left(&c) / 6) return false;
    for (uint64_t i = 0; i < n; i++) {
        slog_summ_msg m;
        uint64_t a = cur_uvar(&c), b = cur_uvar(&c);
        m.count = cur_uvar(&c);
        m.bytes = cur_uvar(&c);
        m.unknown = cur_uvar(&c);
        m.time_ns = cur_zvar(&c);
        if (!cur_ok(&c) || a >= n_timelines || b >= n_timelines || !m.count || m.unknown > m.count) return false;
        m.sender = (uint32_t)a;
        m.receiver = (uint32_t)b;
        if (i && cmp_msg(&s->msg[s->n_msg - 1], &m) >= 0) return false;
        add_msg_row(s, &m);
        if (s->failed) return false;
    }
    return cur_ok(&c) && !cur_left(&c);
}
