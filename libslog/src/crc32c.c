/* SPDX-License-Identifier: MIT */
/* crc32c.c - CRC32C (Castagnoli polynomial 0x82F63B78, reflected): the
 * CPU's instruction where there is one, else slicing-by-8 tables.
 * Chosen over CRC32 for its better error detection on the short blocks we
 * checksum; table built once, thread-safely, on first use. */
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"

static uint32_t table[8][256];
static atomic_int table_state; /* 0 = not built, 1 = building, 2 = ready */

static void build_table(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

/* Run build once, whichever thread gets here first; the others wait for
 * it (a few microseconds, once per process). Not pthread_once: libslog
 * is plain C11. */
static void once(atomic_int *state, void (*build)(void))
{
    if (atomic_load_explicit(state, memory_order_acquire) == 2) return;
    int expected = 0;
    if (atomic_compare_exchange_strong(state, &expected, 1)) {
        build();
        atomic_store_explicit(state, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(state, memory_order_acquire) != 2) {
        }
    }
}

static void ensure_table(void)
{
    once(&table_state, build_table);
}

uint32_t slog_crc32c_sw(uint32_t crc, const void *data, size_t len)
{
    ensure_table();
    const uint8_t *p = data;
    crc = ~crc;
    while (len >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
              table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]];
        p += 8;
        len -= 8;
    }
    while (len--) crc = (crc >> 8) ^ table[0][(crc ^ *p++) & 0xff];
    return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
/* x86-64 has had a CRC32C instruction since SSE4.2 (2008): 8 bytes per
 * instruction, several times the tables' speed. Every node, preview and
 * section is checksummed on write and on read, so it shows in the
 * builder's writer and in the viewer's queries. Chosen at run time, so the
 * library still runs on any x86-64. */
#include <nmmintrin.h>
#include <string.h>

/* The instruction takes three cycles to give its result and can start one
 * every cycle, so one chain of them runs at a third of its speed. Three
 * blocks checksummed side by side keep three chains going, and their
 * registers are joined by linearity: the register after A then B is
 * zeros(len B) applied to A's, xor B's own from zero. Every byte the
 * writer emits is checksummed once, on the writer's chain of steps, which
 * bounds the build (docs/PERFORMANCE.md). */
enum { CRC_LONG = 8192, CRC_SHORT = 256 }; /* bytes per block; 2^13, 2^8 */

/* "Append n zero bytes to the register", linear over GF(2), as four byte
 * tables: one lookup per register byte. */
typedef struct zeros_op {
    uint32_t t[4][256];
} zeros_op;

static zeros_op zeros_long, zeros_short;
static atomic_int zeros_state; /* once() */

/* The 32x32 bit matrix m (the images of the one-bit registers) times x. */
static uint32_t gf2_times(const uint32_t m[32], uint32_t x)
{
    uint32_t r = 0;
    for (int i = 0; x; i++, x >>= 1)
        if (x & 1) r ^= m[i];
    return r;
}

__attribute__((target("sse4.2"))) static void zeros_make(zeros_op *op, unsigned log2_bytes)
{
    uint32_t m[32], sq[32];
    for (int i = 0; i < 32; i++) m[i] = _mm_crc32_u8(1u << i, 0); /* one zero byte */
    for (unsigned k = 0; k < log2_bytes; k++) {                   /* squared: twice the bytes */
        for (int i = 0; i < 32; i++) sq[i] = gf2_times(m, m[i]);
        memcpy(m, sq, sizeof m);
    }
    for (int k = 0; k < 4; k++) {
        op->t[k][0] = 0;
        for (uint32_t v = 1; v < 256; v++) {
            uint32_t low = v & (0u - v);
            op->t[k][v] = v == low ? m[8 * k + __builtin_ctz(v)] : op->t[k][v ^ low] ^ op->t[k][low];
        }
    }
}

static void build_zeros(void)
{
    zeros_make(&zeros_long, 13);
    zeros_make(&zeros_short, 8);
}

static inline uint32_t zeros_apply(const zeros_op *op, uint32_t c)
{
    return op->t[0][c & 0xff] ^ op->t[1][(c >> 8) & 0xff] ^ op->t[2][(c >> 16) & 0xff] ^ op->t[3][c >> 24];
}

static inline uint64_t load64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8); /* little-endian: p[0] first, as the tables take it */
    return v;
}

/* Register c over *p as long as three blocks remain; advances *p, *len. */
__attribute__((target("sse4.2"))) static inline uint64_t crc3(uint64_t c, const uint8_t **pp, size_t *len, size_t block,
                                                              const zeros_op *op)
{
    const uint8_t *p = *pp;
    for (; *len >= 3 * block; *len -= 3 * block) {
        uint64_t c1 = 0, c2 = 0;
        const uint8_t *end = p + block;
        do {
            c = _mm_crc32_u64(c, load64(p));
            c1 = _mm_crc32_u64(c1, load64(p + block));
            c2 = _mm_crc32_u64(c2, load64(p + 2 * block));
            p += 8;
        } while (p < end);
        c = zeros_apply(op, (uint32_t)c) ^ (uint32_t)c1;
        c = zeros_apply(op, (uint32_t)c) ^ (uint32_t)c2;
        p += 2 * block;
    }
    *pp = p;
    return c;
}

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t crc, const void *data, size_t len)
{
    const uint8_t *p = data;
    uint64_t c = ~crc & 0xffffffffu;
    if (len >= 3 * CRC_SHORT) {
        once(&zeros_state, build_zeros);
        c = crc3(c, &p, &len, CRC_LONG, &zeros_long);
        c = crc3(c, &p, &len, CRC_SHORT, &zeros_short);
    }
    for (; len >= 8; len -= 8, p += 8) c = _mm_crc32_u64(c, load64(p));
    uint32_t c32 = (uint32_t)c;
    while (len--) c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}

/* glibc 2.33+ answers from what its loader found at start-up. GCC's
 * __builtin_cpu_supports links libgcc's own detection, a constructor that
 * runs a dozen CPUID instructions in every process that links libslog; in a
 * virtual machine each one traps to the hypervisor, a cost every short
 * slog2-print run would pay. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <sys/platform/x86.h>
static int cpu_has_sse42(void)
{
    return CPU_FEATURE_ACTIVE(SSE4_2);
}
#else
static int cpu_has_sse42(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#endif

static int have_hw(void)
{
    static atomic_int state; /* 0 unknown, 1 no, 2 yes */
    int st = atomic_load_explicit(&state, memory_order_relaxed);
    if (!st) {
        st = cpu_has_sse42() ? 2 : 1;
        atomic_store_explicit(&state, st, memory_order_relaxed);
    }
    return st == 2;
}

uint32_t slog_crc32c(uint32_t crc, const void *data, size_t len)
{
    return have_hw() ? crc32c_hw(crc, data, len) : slog_crc32c_sw(crc, data, len);
}
#else
uint32_t slog_crc32c(uint32_t crc, const void *data, size_t len)
{
    return slog_crc32c_sw(crc, data, len);
}
#endif
