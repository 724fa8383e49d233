/* crc32c.c - CRC32C (Castagnoli polynomial 0x82F63B78, reflected): the
 * CPU's instruction where there is one, else slicing-by-8 tables.
 * Chosen over CRC32 for its better error detection on the short blocks we
 * checksum; table built once, thread-safely, on first use. */
#include <stdint.h>
#include <stddef.h>
#include <stdatomic.h>

#include "format.h"

static uint32_t table[8][256];
static atomic_int table_state; /* 0 = not built, 1 = building, 2 = ready */

static void build_table(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
        table[0][i] = c;
    }
    for (uint32_t i = 0; i < 256; i++)
        for (int t = 1; t < 8; t++) table[t][i] = (table[t - 1][i] >> 8) ^ table[0][table[t - 1][i] & 0xff];
}

static void ensure_table(void) {
    if (atomic_load_explicit(&table_state, memory_order_acquire) == 2) return;
    int expected = 0;
    if (atomic_compare_exchange_strong(&table_state, &expected, 1)) {
        build_table();
        atomic_store_explicit(&table_state, 2, memory_order_release);
    } else {
        while (atomic_load_explicit(&table_state, memory_order_acquire) != 2) {
        }
    }
}

uint32_t slog_crc32c_sw(uint32_t crc, const void *data, size_t len) {
    ensure_table();
    const uint8_t *p = data;
    crc = ~crc;
    while (len >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^
              table[4][lo >> 24] ^ table[3][p[4]] ^ table[2][p[5]] ^ table[1][p[6]] ^ table[0][p[7]];
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

__attribute__((target("sse4.2"))) static uint32_t crc32c_hw(uint32_t crc, const void *data, size_t len) {
    const uint8_t *p = data;
    uint64_t c = ~crc & 0xffffffffu;
    while (len >= 8) {
        uint64_t v;
        memcpy(&v, p, 8); /* little-endian: p[0] first, as the tables take it */
        c = _mm_crc32_u64(c, v);
        p += 8;
        len -= 8;
    }
    uint32_t c32 = (uint32_t)c;
    while (len--) c32 = _mm_crc32_u8(c32, *p++);
    return ~c32;
}

/* glibc 2.33+ answers from what its loader found at start-up. GCC's
 * __builtin_cpu_supports links libgcc's own detection, a constructor that
 * runs a dozen CPUID instructions in every process that links libslog; in a
 * virtual machine each one traps to the hypervisor (7-13 us measured on the
 * 2-core VM), 0.05 ms of every slog2-build and slog2-print run. */
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <sys/platform/x86.h>
static int cpu_has_sse42(void) { return CPU_FEATURE_ACTIVE(SSE4_2); }
#else
static int cpu_has_sse42(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("sse4.2");
}
#endif

static int have_hw(void) {
    static atomic_int state; /* 0 unknown, 1 no, 2 yes */
    int st = atomic_load_explicit(&state, memory_order_relaxed);
    if (!st) {
        st = cpu_has_sse42() ? 2 : 1;
        atomic_store_explicit(&state, st, memory_order_relaxed);
    }
    return st == 2;
}

uint32_t slog_crc32c(uint32_t crc, const void *data, size_t len) {
    return have_hw() ? crc32c_hw(crc, data, len) : slog_crc32c_sw(crc, data, len);
}
#else
uint32_t slog_crc32c(uint32_t crc, const void *data, size_t len) { return slog_crc32c_sw(crc, data, len); }
#endif
