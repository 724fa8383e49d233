/* SPDX-License-Identifier: MIT */
/* test_corrupt.c - untrusted input: every truncation of a small file, random
 * single-bit flips (seeded), foreign files, bumped versions. The reader must
 * return an error (message non-empty, naming the file) or, for a flip in
 * unused bytes, a clean success with the right data -- never crash, hang or
 * leak (run under valgrind by the memcheck variant).
 *
 *   test_corrupt [SEED [N_FLIPS]] */
#include "format.h" /* byte layout, for the CRC-fixed mutations */
#include "testutil.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <unistd.h>

#define HDR_MAJOR_OFF 12 /* format.h: header offsets */
#define HDR_MINOR_OFF 14
#define HDR_CRC_OFF   252
#define HDR_SIZE      256

static char *g_dir;
static const t_model *g_model;

static void check_err(const slog_error *err, slog_status st, const char *path, const char *what)
{
    CHECKF(st < 0, "%s: status %d", what, (int)st);
    CHECKF(err->status == st, "%s: err.status %d, returned %d", what, (int)err->status, (int)st);
    CHECKF(err->message[0] != 0, "%s: empty error message", what);
    CHECKF(strstr(err->message, path) != NULL, "%s: message '%s' does not name the file %s", what, err->message, path);
}

/* Open path and read everything. Returns SLOG_OK or the first error (err
 * checked). If everything succeeds and full_ok_check, the drawables must be
 * exactly the model's. *stage: 0 open, 1 query, 2 preview query, 3 check. */
static slog_status read_all(const char *path, int full_ok_check, int *stage, slog_error *err)
{
    slog_reader *rd = (slog_reader *)1;
    memset(err, 0, sizeof *err);
    *stage = 0;
    slog_status st = slog_reader_open(&rd, path, err);
    if (st != SLOG_OK) {
        CHECKF(rd == NULL, "failed open left *out non-NULL");
        check_err(err, st, path, "slog_reader_open");
        return st;
    }
    const slog_file_info *fi = slog_reader_info(rd);
    t_dvec v = {0};
    slog_query q = {INT64_MIN, INT64_MAX, NULL, 0, 0};
    *stage = 1;
    st = slog_reader_query(rd, &q, t_collect_drawable, NULL, &v, NULL, err);
    {
        /* Every state and arrow narrow: their info values are stepped over,
         * not decoded, and must be accepted or rejected all the same. */
        slog_query qn = {INT64_MIN, INT64_MAX, NULL, INT64_MAX, SLOG_QUERY_NO_PREVIEW | SLOG_QUERY_NARROW_NO_INFO};
        slog_error en;
        slog_status sn = slog_reader_query(rd, &qn, NULL, NULL, NULL, NULL, &en);
        CHECKF(sn == st && (st == SLOG_OK || en.offset == err->offset),
               "query skipping info: status %d at offset %" PRIu64 ", decoding it: %d at %" PRIu64, (int)sn, en.offset,
               (int)st, err->offset);
    }
    if (st == SLOG_OK) {
        /* a preview query at several widths reads the preview blocks */
        *stage = 2;
        for (int k = 0; k < 4 && st == SLOG_OK; k++) {
            t_pvec pv = {0};
            q.pixel_ns = ((int64_t)1 << (10 * k)) + 1;
            st = slog_reader_query(rd, &q, NULL, t_collect_preview, &pv, NULL, err);
            t_pvec_free(&pv);
        }
    }
    for (uint32_t k = 0; st == SLOG_OK && fi->n_timelines && k < 2; k++) {
        /* folded grids: few columns take the overview's previews, many
         * pass through its nodes and read their own records */
        slog_grid_query gq = {.t0 = fi->t_min,
                              .t1 = fi->t_max,
                              .tl_first = 0,
                              .tl_last = fi->n_timelines - 1,
                              .n_cols = k ? 4096 : 8,
                              .n_rows = fi->n_timelines < 1024 ? fi->n_timelines : 1024};
        slog_grid *g = NULL;
        st = slog_reader_grid(rd, &gq, &g, NULL, err);
        slog_grid_free(g);
    }
    for (int k = 0; st == SLOG_OK && k < 2; k++) {
        /* the messages between groups: the whole span from the overview's
         * message blocks, a window of a leaf from the blocks' arrows */
        int64_t t0 = fi->t_min, t1 = fi->t_max, leaf = fi->leaf_shift < 62 ? (int64_t)1 << fi->leaf_shift : 0;
        if (k && t1 > t0) t0 += (int64_t)(((uint64_t)t1 - (uint64_t)t0) / 2);
        if (k && t0 <= INT64_MAX - leaf) t1 = t0 + leaf;
        slog_group_messages *gm = NULL;
        st = slog_reader_group_messages(rd, t0, t1, 4, &gm, NULL, err);
        slog_group_messages_free(gm);
    }
    if (st == SLOG_OK) {
        *stage = 3;
        st = slog_reader_check(rd, NULL, err);
    }
    if (st != SLOG_OK) {
        check_err(err, st, path, *stage == 3 ? "slog_reader_check" : "slog_reader_query");
    } else if (full_ok_check) {
        /* clean success must mean the right data */
        CHECKF(fi->n_drawables == g_model->n, "corrupted file read cleanly with n_drawables %" PRIu64, fi->n_drawables);
        CHECKF(v.n == g_model->n, "corrupted file read cleanly but delivered %zu of %zu drawables", v.n, g_model->n);
        t_draw *exp = malloc((g_model->n + 1) * sizeof *exp);
        CHECK(exp);
        memcpy(exp, g_model->d, g_model->n * sizeof *exp);
        t_qsort(exp, g_model->n, sizeof *exp, t_draw_cmp);
        t_qsort(v.d, v.n, sizeof *v.d, t_draw_cmp);
        for (size_t i = 0; i < v.n; i++)
            if (t_draw_cmp(&exp[i], &v.d[i]) != 0) {
                fprintf(stderr, "  read ");
                t_draw_print(stderr, &v.d[i]);
                fprintf(stderr, "\n  want ");
                t_draw_print(stderr, &exp[i]);
                fputc('\n', stderr);
                check_fail(__FILE__, __LINE__, "drawables intact", "corrupted file read cleanly with wrong data");
            }
        free(exp);
    }
    t_dvec_free(&v);
    slog_reader_close(rd);
    return st;
}

static const char *status_name(slog_status st)
{
    switch (st) {
    case SLOG_OK: return "OK";
    case SLOG_ERR_IO: return "IO";
    case SLOG_ERR_NOMEM: return "NOMEM";
    case SLOG_ERR_NOT_SLOG: return "NOT_SLOG";
    case SLOG_ERR_VERSION: return "VERSION";
    case SLOG_ERR_TRUNCATED: return "TRUNCATED";
    case SLOG_ERR_CORRUPT: return "CORRUPT";
    case SLOG_ERR_CHECKSUM: return "CHECKSUM";
    case SLOG_ERR_ARG: return "ARG";
    case SLOG_ERR_ORDER: return "ORDER";
    case SLOG_ERR_LIMIT: return "LIMIT";
    }
    return "?";
}
static int status_index(slog_status st)
{
    return st == SLOG_OK ? 0 : (int)(-30000 - (int)st);
}

static void test_truncation(const unsigned char *good, size_t size)
{
    char *path = t_path(g_dir, "trunc.slog2");
    unsigned hist[12] = {0};
    size_t step = t_under_valgrind() && size > 1500 ? 7 : 1;
    /* one file cut shorter and shorter (cheaper than a new file per length) */
    CHECK(t_write_file(path, good, size) == 0);
    for (size_t len = size; len-- > 0;) {
        if (!(len < 300 || size - len < 300) && len % step) continue;
        CHECK_CONTEXT("truncation to %zu of %zu bytes", len, size);
        CHECK(truncate(path, (off_t)len) == 0);
        slog_error err;
        int stage;
        slog_status st = read_all(path, 0, &stage, &err);
        CHECKF(st != SLOG_OK, "file truncated to %zu of %zu bytes reads without error", len, size);
        hist[status_index(st)]++;
        if (len == 0 || len == size - 1)
            printf("  truncated to %zu: %s at stage %d: %s\n", len, status_name(st), stage, err.message);
    }
    printf("truncation: every length 0..%zu fails:", size - 1);
    for (int i = 0; i < 12; i++)
        if (hist[i]) printf(" %s=%u", status_name(i ? (slog_status)(-30000 - i) : SLOG_OK), hist[i]);
    printf("\n");
    unlink(path);
    free(path);
}

static void test_bitflips(const unsigned char *good, size_t size, uint64_t seed, unsigned n_flips,
                          const slog_node_info *nodes, uint64_t n_nodes)
{
    char *path = t_path(g_dir, "flip.slog2");
    CHECK(t_write_file(path, good, size) == 0);
    int fd = open(path, O_RDWR);
    CHECK(fd >= 0);
    t_rng r = {seed};
    unsigned hist[12] = {0}, silent = 0, in_node = 0;
    for (unsigned i = 0; i < n_flips; i++) {
        size_t off = (size_t)t_below(&r, size);
        unsigned bit = (unsigned)t_below(&r, 8);
        if (i < 8) /* always hit the header, the first node and the postamble */
            off = i < 3              ? (size_t)t_below(&r, HDR_SIZE)
                  : i < 6 && n_nodes ? nodes[0].offset + t_below(&r, nodes[0].size)
                                     : size - 1 - t_below(&r, 64);
        CHECK_CONTEXT("bit flip seed %" PRIu64 " #%u: byte %zu bit %u of %zu "
                      "(rerun: test_corrupt %" PRIu64 ")",
                      seed, i, off, bit, size, seed);
        /* flip in place; restored below */
        unsigned char c = good[off] ^ (unsigned char)(1u << bit);
        CHECK(pwrite(fd, &c, 1, (off_t)off) == 1);
        slog_error err;
        int stage;
        slog_status st = read_all(path, 1, &stage, &err);
        hist[status_index(st)]++;
        int node = -1;
        for (uint64_t k = 0; k < n_nodes; k++)
            if (off >= nodes[k].offset && off < nodes[k].offset + nodes[k].size) node = (int)k;
        if (node >= 0) {
            in_node++;
            CHECKF(st != SLOG_OK,
                   "bit flip inside node block %d (offset %" PRIu64 ", size %u) not "
                   "detected by slog_reader_check",
                   node, nodes[node].offset, nodes[node].size);
        }
        if (off < HDR_SIZE) CHECKF(st != SLOG_OK, "bit flip in the header (CRC32C-covered) not detected");
        if (off >= size - 64 && off < size - 12)
            CHECKF(st != SLOG_OK, "bit flip in the postamble (CRC32C-covered) not detected");
        CHECK(pwrite(fd, &good[off], 1, (off_t)off) == 1);
        if (st == SLOG_OK) {
            silent++;
            printf("  flip at byte %zu bit %u read cleanly (same data)\n", off, bit);
        }
    }
    printf("bit flips (seed %" PRIu64 "): %u flips, %u inside node blocks, %u clean successes:", seed, n_flips, in_node,
           silent);
    for (int i = 0; i < 12; i++)
        if (hist[i]) printf(" %s=%u", status_name(i ? (slog_status)(-30000 - i) : SLOG_OK), hist[i]);
    printf("\n");
    close(fd);
    unlink(path);
    free(path);
}

#define ANY_ERROR ((slog_status)1)
static void expect_status(const char *name, const void *data, size_t len, slog_status want1, slog_status want2,
                          int need_offset)
{
    char *path = t_path(g_dir, name);
    CHECK_CONTEXT("foreign/odd file %s", name);
    CHECK(t_write_file(path, data, len) == 0);
    slog_reader *rd = (slog_reader *)1;
    slog_error err;
    slog_status st = slog_reader_open(&rd, path, &err);
    if (want1 == ANY_ERROR)
        CHECKF(st < 0, "%s: got %s, expected an error", name, status_name(st));
    else
        CHECKF(st == want1 || st == want2, "%s: got %s (%s), expected %s or %s", name, status_name(st),
               st ? err.message : "", status_name(want1), status_name(want2));
    if (st != SLOG_OK) {
        CHECK(rd == NULL);
        check_err(&err, st, path, name);
        if (need_offset) CHECKF(err.offset != SLOG_NO_OFFSET, "%s: %s without a byte offset", name, status_name(st));
        printf("  %s: %s offset %lld: %s\n", name, status_name(st),
               err.offset == SLOG_NO_OFFSET ? -1LL : (long long)err.offset, err.message);
    } else {
        CHECK_OK(slog_reader_check(rd, NULL, &err), &err);
        slog_reader_close(rd);
        printf("  %s: opens and checks OK\n", name);
    }
    unlink(path);
    free(path);
}

static void put16(unsigned char *p, uint16_t v)
{
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8);
}
static void fix_header_crc(unsigned char *b)
{
    uint32_t c = t_crc32c(b, HDR_CRC_OFF);
    for (int i = 0; i < 4; i++) b[HDR_CRC_OFF + i] = (unsigned char)(c >> (8 * i));
}

static void test_foreign(const unsigned char *good, size_t size)
{
    static const unsigned char png[] = {
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00,
        0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01,
        0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
    const char *text = "This is not a slog2 file.\nIt is a text file with several lines,\n"
                       "long enough to hold a header: 0123456789abcdef0123456789abcdef\n";
    char bigtext[1024];
    for (size_t i = 0; i < sizeof bigtext; i++) bigtext[i] = text[i % strlen(text)];
    printf("foreign files:\n");
    expect_status("image.png", png, sizeof png, SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    expect_status("text.txt", text, strlen(text), SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    expect_status("bigtext.txt", bigtext, sizeof bigtext, SLOG_ERR_NOT_SLOG, SLOG_ERR_NOT_SLOG, 1);
    expect_status("empty", "", 0, SLOG_ERR_NOT_SLOG, SLOG_ERR_TRUNCATED, 1);
    expect_status("magic-only", good, 8, SLOG_ERR_TRUNCATED, SLOG_ERR_TRUNCATED, 1);
    expect_status("header-only", good, HDR_SIZE, ANY_ERROR, ANY_ERROR, 0);
    /* zeros and a 7-bit-transferred file (high bit stripped) */
    unsigned char *b = calloc(1, size);
    CHECK(b);
    expect_status("zeros", b, size, SLOG_ERR_NOT_SLOG, SLOG_ERR_NOT_SLOG, 1);
    for (size_t i = 0; i < size; i++) b[i] = good[i] & 0x7f;
    expect_status("7bit", b, size, SLOG_ERR_NOT_SLOG, SLOG_ERR_NOT_SLOG, 1);

    /* versions: a larger major is refused as VERSION (CRC recomputed, as a
     * future writer would); a larger minor is read (additive changes only) */
    memcpy(b, good, size);
    put16(b + HDR_MAJOR_OFF, SLOG_FORMAT_MAJOR + 1);
    fix_header_crc(b);
    expect_status("major+1", b, size, SLOG_ERR_VERSION, SLOG_ERR_VERSION, 0);
    put16(b + HDR_MAJOR_OFF, 0xFFFF);
    fix_header_crc(b);
    expect_status("major 65535", b, size, SLOG_ERR_VERSION, SLOG_ERR_VERSION, 0);
    memcpy(b, good, size);
    put16(b + HDR_MAJOR_OFF, SLOG_FORMAT_MAJOR + 1); /* stale CRC */
    expect_status("major+1, stale crc", b, size, SLOG_ERR_VERSION, SLOG_ERR_CHECKSUM, 0);
    memcpy(b, good, size);
    put16(b + HDR_MINOR_OFF, SLOG_FORMAT_MINOR + 1);
    fix_header_crc(b);
    expect_status("minor+1", b, size, SLOG_OK, SLOG_OK, 0);
    /* byte-swapped byte-order mark */
    memcpy(b, good, size);
    unsigned char t;
    t = b[8], b[8] = b[11], b[11] = t;
    t = b[9], b[9] = b[10], b[10] = t;
    fix_header_crc(b);
    expect_status("byteswapped-bom", b, size, ANY_ERROR, ANY_ERROR, 0);
    /* appended garbage: postamble no longer at the end */
    unsigned char *b2 = malloc(size + 100);
    CHECK(b2);
    memcpy(b2, good, size);
    memset(b2 + size, 0xAB, 100);
    expect_status("appended", b2, size + 100, ANY_ERROR, ANY_ERROR, 0);
    free(b2);
    free(b);
}

/* Recompute every CRC32C of a mutated file (block headers, the directory's
 * copies of node/preview CRCs, directory block, header, postamble), so that
 * the mutation reaches the decoders behind the checksums. As in
 * fuzz_reader.c. */
static void fix_crcs(uint8_t *b, size_t n)
{
    if (n < SLOG_HEADER_SIZE + SLOG_POSTAMBLE_SIZE) return;
    size_t end = n - SLOG_POSTAMBLE_SIZE;
    for (size_t off = SLOG_HEADER_SIZE; off + SLOG_BLOCK_HEADER_SIZE <= end;) {
        uint64_t len = get_u64le(b + off + 8);
        if (len > end - off - SLOG_BLOCK_HEADER_SIZE) break;
        put_u32le(b + off + 4, t_crc32c(b + off + SLOG_BLOCK_HEADER_SIZE, (size_t)len));
        off += SLOG_BLOCK_HEADER_SIZE + (size_t)len;
    }
    uint64_t doff = get_u64le(b + HDR_SEC_DIRECTORY);
    if (doff >= SLOG_HEADER_SIZE && doff <= end && end - doff >= SLOG_BLOCK_HEADER_SIZE + 8) {
        uint64_t len = get_u64le(b + doff + 8);
        if (len <= end - doff - SLOG_BLOCK_HEADER_SIZE && len >= 8) {
            uint8_t *body = b + doff + SLOG_BLOCK_HEADER_SIZE;
            uint64_t cnt = get_u64le(body);
            for (uint64_t i = 0; i < cnt && 8 + (i + 1) * SLOG_DIRENT_SIZE <= len; i++) {
                uint8_t *e = body + 8 + i * SLOG_DIRENT_SIZE;
                uint64_t no = get_u64le(e + DIRENT_NODE_OFF), po = get_u64le(e + DIRENT_PREV_OFF);
                /* an overview entry without own records has no node block (offset 0) */
                if (no && no <= end - SLOG_BLOCK_HEADER_SIZE) put_u32le(e + DIRENT_NODE_CRC, get_u32le(b + no + 4));
                if (po && po <= end - SLOG_BLOCK_HEADER_SIZE) put_u32le(e + DIRENT_PREV_CRC, get_u32le(b + po + 4));
            }
            put_u32le(b + doff + 4, t_crc32c(body, (size_t)len));
        }
    }
    put_u32le(b + HDR_CRC, t_crc32c(b, HDR_CRC));
    put_u32le(b + end + POST_CRC, t_crc32c(b + end, POST_CRC));
}

/* Mutations with all CRCs recomputed: the reader must still return an error
 * or a success, never crash, hang or touch memory it does not own (valgrind,
 * sanitizers). */
static void test_crc_fixed_mutations(const unsigned char *good, size_t size, uint64_t seed, unsigned n)
{
    char *path = t_path(g_dir, "mut.slog2");
    unsigned char *b = malloc(size);
    CHECK(b);
    {
        memcpy(b, good, size);
        fix_crcs(b, size);
        CHECKF(memcmp(b, good, size) == 0, "fix_crcs changes a good file: test out of step with format.h");
    }
    CHECK(t_write_file(path, good, size) == 0);
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    t_rng r = {seed ^ 0x5eed};
    unsigned hist[12] = {0};
    for (unsigned i = 0; i < n; i++) {
        memcpy(b, good, size);
        unsigned k = 1 + (unsigned)t_below(&r, 4);
        size_t first = 0;
        for (unsigned j = 0; j < k; j++) {
            size_t off = (size_t)t_below(&r, size);
            if (j == 0) first = off;
            switch (t_below(&r, 5)) {
            case 0: b[off] ^= (unsigned char)(1u << t_below(&r, 8)); break;
            case 1: b[off] = 0xFF; break;
            case 2: b[off] = 0; break;
            case 3: b[off] = (unsigned char)t_rand(&r); break;
            default: b[off] = (unsigned char)(b[off] + 1); break;
            }
        }
        fix_crcs(b, size);
        CHECK_CONTEXT("CRC-fixed mutation seed %" PRIu64 " #%u (%u bytes, first at %zu)", seed, i, k, first);
        CHECK(pwrite(fd, b, size, 0) == (ssize_t)size); /* same size: rewrite in place */
        slog_error err;
        int stage;
        slog_status st = read_all(path, 0, &stage, &err);
        hist[status_index(st)]++;
    }
    close(fd);
    printf("CRC-fixed mutations (seed %" PRIu64 "): %u:", seed, n);
    for (int i = 0; i < 12; i++)
        if (hist[i]) printf(" %s=%u", status_name(i ? (slog_status)(-30000 - i) : SLOG_OK), hist[i]);
    printf("\n");
    unlink(path);
    free(path);
    free(b);
}

/* The mutated file b, every CRC fixed, written to path: refused as
 * corrupt at open or in the check. */
static void expect_corrupt(unsigned char *b, size_t size, const char *path)
{
    fix_crcs(b, size);
    CHECK(t_write_file(path, b, size) == 0);
    slog_error err;
    int stage;
    slog_status st = read_all(path, 0, &stage, &err);
    CHECKF(st == SLOG_ERR_CORRUPT, "read with status %d", (int)st);
}

/* The directory entries of a good file, *cnt of them. */
static const uint8_t *dir_entries(const unsigned char *good, uint64_t *cnt)
{
    const uint8_t *body = good + get_u64le(good + HDR_SEC_DIRECTORY) + SLOG_BLOCK_HEADER_SIZE;
    *cnt = get_u64le(body);
    return body + 8;
}

/* Each overview entry's "child left out" flags (format 4.x) turned over
 * one at a time, every CRC fixed: a flag set where the child is in the
 * overview, where the counts add up without it, on a leaf or on a node
 * that previews all of its subtree, or cleared where the child is left
 * out, is an error at open or in the check. Returns the entries that had a
 * flag set in the good file. */
static unsigned test_left_flags(const unsigned char *good, size_t size)
{
    char *path = t_path(g_dir, "left.slog2");
    unsigned char *b = malloc(size);
    CHECK(b);
    uint64_t cnt;
    const uint8_t *dir = dir_entries(good, &cnt);
    unsigned had = 0, tried = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        size_t at = (size_t)(dir + i * SLOG_DIRENT_SIZE - good);
        if (get_u32le(good + at + DIRENT_TREE) != SLOG_TREE_OVERVIEW) continue;
        had += (good[at + DIRENT_FLAGS] & (SLOG_DIRENT_OV_LEFT0 | SLOG_DIRENT_OV_LEFT1)) != 0;
        for (uint8_t bit = SLOG_DIRENT_OV_LEFT0; bit <= SLOG_DIRENT_OV_LEFT1; bit <<= 1) {
            memcpy(b, good, size);
            b[at + DIRENT_FLAGS] ^= bit;
            CHECK_CONTEXT("overview entry %" PRIu64 " (level %u): flag %u turned over", i, good[at + DIRENT_LEVEL],
                          bit);
            expect_corrupt(b, size, path);
            tried++;
        }
    }
    printf("left-out flags: %u turned over, all refused; %u entries had one\n", tried, had);
    unlink(path);
    free(path);
    free(b);
    return had;
}

/* Every byte of every overview message block (format 5.x) after its
 * 16 fixed bytes' first, changed by one, every CRC fixed: the counts,
 * groups and times then disagree with the blocks' records, or the block
 * does not decode; an error either way. Returns the bytes changed. */
static unsigned test_message_blocks(const unsigned char *good, size_t size)
{
    char *path = t_path(g_dir, "msgs.slog2");
    unsigned char *b = malloc(size);
    CHECK(b);
    uint64_t cnt;
    const uint8_t *dir = dir_entries(good, &cnt);
    unsigned tried = 0, blocks = 0;
    for (uint64_t i = 0; i < cnt; i++) {
        const uint8_t *e = dir + i * SLOG_DIRENT_SIZE;
        if (get_u32le(e + DIRENT_TREE) != SLOG_TREE_OVERVIEW || !(e[DIRENT_FLAGS] & SLOG_DIRENT_HAS_SUMMARY)) continue;
        uint64_t off = get_u64le(e + DIRENT_PREV_OFF) + get_u32le(e + DIRENT_PREV_SIZE);
        uint32_t len = get_u32le(e + DIRENT_SUMM_SIZE);
        CHECK(off + len <= size && memcmp(good + off, SLOG_TAG_MESSAGES, 4) == 0);
        blocks++;
        for (uint32_t k = SLOG_BLOCK_HEADER_SIZE; k < len; k++) {
            memcpy(b, good, size);
            b[off + k]++;
            CHECK_CONTEXT("overview entry %" PRIu64 " (level %u): message block byte %u changed", i, e[DIRENT_LEVEL],
                          k);
            expect_corrupt(b, size, path);
            tried++;
        }
    }
    printf("message blocks: %u of them, %u bytes changed, all refused\n", blocks, tried);
    unlink(path);
    free(path);
    free(b);
    return tried;
}

/* The damage tests on one good file written with options o. */
static void corrupt_case(const slog_writer_options *o, uint64_t seed, unsigned n_flips, int vg)
{
    t_model m;
    t_model_small(&m, 17, 60);
    g_model = &m;
    char *path = t_path(g_dir, "good.slog2");
    slog_error err;
    CHECK_OK(t_model_write(&m, path, o, &err), &err);
    size_t size;
    unsigned char *good = t_read_file(path, &size);
    CHECK(good);
    int stage;
    CHECK_OK(read_all(path, 1, &stage, &err), &err);

    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    uint64_t n_nodes = slog_reader_info(rd)->n_nodes;
    slog_node_info *nodes = calloc(n_nodes + 1, sizeof *nodes);
    CHECK(nodes);
    uint64_t node_bytes = 0;
    for (uint64_t i = 0; i < n_nodes; i++) {
        CHECK_OK(slog_reader_node(rd, i, &nodes[i]), NULL);
        node_bytes += nodes[i].size;
    }
    printf("file: %zu bytes, %" PRIu64 " nodes (%" PRIu64 " bytes in node blocks), %zu drawables, %u blocks, "
           "overview depth %u\n",
           size, n_nodes, node_bytes, m.n, slog_reader_info(rd)->n_blocks, slog_reader_info(rd)->overview_depth);

    test_foreign(good, size);
    test_truncation(good, size);
    test_bitflips(good, size, seed, n_flips, nodes, n_nodes);
    test_crc_fixed_mutations(good, size, seed, vg ? 150 : 3000);
    test_left_flags(good, size);
    test_message_blocks(good, size);

    slog_reader_close(rd);
    free(nodes);
    free(good);
    unlink(path);
    free(path);
    t_model_free(&m);
}

/* Model m (sorted here) written with blocks of 4 timelines, an overview
 * of groups of 2 from overview_level, 8 bins and previews in any subtree,
 * read back cleanly: its bytes (*size), its *path (free both). */
static unsigned char *write_small_overview(t_model *m, uint32_t overview_level, char **path, size_t *size)
{
    t_model_sort_end_order(m);
    g_model = m;
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.preview_bins = 8;
    o.preview_min_subtree = 1;
    o.block_timelines = 4;
    o.group_timelines = 2;
    o.leaf_shift = 6;
    o.overview_level = overview_level;
    *path = t_path(g_dir, "good.slog2");
    slog_error err;
    CHECK_OK(t_model_write(m, *path, &o, &err), &err);
    unsigned char *good = t_read_file(*path, size);
    CHECK(good);
    int stage;
    CHECK_OK(read_all(*path, 1, &stage, &err), &err);
    return good;
}

/* An overview with levels below overview_level (format 4.x): a dense
 * burst on 8 timelines, where the fine nodes pay, then a few states after
 * it, where they do not: nodes that leave children out. Their flags turned
 * over, and CRC-fixed mutations of the file. */
static void left_case(uint64_t seed, int vg)
{
    t_model m;
    t_model_init(&m);
    uint32_t c = t_model_add_cat(&m, SLOG_KIND_STATE, "burst", 0);
    for (uint32_t t = 0; t < 8; t++) t_model_add_tl(&m, t, 0);
    for (uint32_t t = 0; t < 8; t++) {
        for (int64_t a = 0; a < 4096 + 256; a += 10) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = c, .tl = t, .etl = t, .start = a, .end = a + 5};
        }
        for (int64_t a = 4400; a < 9000; a += 1700) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = c, .tl = t, .etl = t, .start = a + t, .end = a + 20};
        }
    }
    size_t size;
    char *path;
    unsigned char *good = write_small_overview(&m, 4, &path, &size);
    printf("file: %zu bytes, %zu drawables, overview from level 4 with finer levels where they pay\n", size, m.n);
    CHECKF(test_left_flags(good, size) > 0, "no overview node leaves children out: the case tests nothing");
    test_crc_fixed_mutations(good, size, seed, vg ? 100 : 1500);
    free(good);
    unlink(path);
    free(path);
    t_model_free(&m);
}

/* An overview that counts messages (format 5.x): 8 timelines exchanging
 * messages with their neighbours, groups of two, every node's pairs
 * paying. Each byte of its message blocks changed, and CRC-fixed
 * mutations of the file. */
static void msgs_case(uint64_t seed, int vg)
{
    t_model m;
    t_model_init(&m);
    uint32_t c = t_model_add_cat(&m, SLOG_KIND_STATE, "compute", 0), a = t_model_add_cat(&m, SLOG_KIND_ARROW, "msg", 0);
    for (uint32_t t = 0; t < 8; t++) t_model_add_tl(&m, t, 0);
    for (uint32_t t = 0; t < 8; t++)
        for (int64_t at = 0; at < 3000; at += 300) {
            t_draw *d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_STATE, .cat = c, .tl = t, .etl = t, .start = at + t, .end = at + 200};
            d = t_model_push(&m);
            *d = (t_draw){.kind = SLOG_KIND_ARROW,
                          .cat = a,
                          .tl = t,
                          .etl = (t + 1 + (uint32_t)(at / 300) % 3) % 8,
                          .start = at + 200,
                          .end = at + 250 + 40 * t};
        }
    size_t size;
    char *path;
    unsigned char *good = write_small_overview(&m, 2, &path, &size);
    printf("file: %zu bytes, %zu drawables, an overview that counts messages\n", size, m.n);
    CHECKF(test_message_blocks(good, size) > 0, "no message block: the case tests nothing");
    test_crc_fixed_mutations(good, size, seed, vg ? 100 : 1500);
    free(good);
    unlink(path);
    free(path);
    t_model_free(&m);
}

int main(int argc, char **argv)
{
    int vg = t_under_valgrind();
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : (uint64_t)t_env_ll("SLOG2_SEED", 4242);
    unsigned n_flips = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : vg ? 80 : 600;
    g_dir = t_mkdtemp("corrupt");

    /* One tree; then a block per timeline (arrows mirrored) and an
     * overview of groups of two (previews with own records). */
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.preview_bins = 8;
    o.leaf_drawables = 4;
    o.preview_min_subtree = 1;
    corrupt_case(&o, seed, n_flips, vg);
    o.block_timelines = 1;
    o.group_timelines = 2;
    corrupt_case(&o, seed + 1, n_flips, vg);
    left_case(seed + 2, vg);
    msgs_case(seed + 3, vg);
    t_rmtree(g_dir);
    free(g_dir);
    printf("PASS\n");
    return 0;
}
