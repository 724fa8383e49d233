/* SPDX-License-Identifier: MIT */
/* gen_fixtures.c - generate the committed malformed fixtures in tests/data/.
 *
 *   gen_fixtures DIR
 *
 * Run once by hand; the bytes are committed and test_fixtures.c reads them,
 * so a later format change that breaks old files shows up as a failing test
 * (regenerate only on a deliberate major version change). Names avoid the
 * .slog2 suffix, which .gitignore excludes. Byte offsets are those of
 * libslog/src/format.h (version 1.0). */
#include "testutil.h"

#include <inttypes.h>

static const char *g_dir;

static void put(const char *name, const void *data, size_t len)
{
    char *p = t_path(g_dir, name);
    CHECKF(t_write_file(p, data, len) == 0, "writing %s", p);
    printf("%-28s %6zu bytes\n", name, len);
    free(p);
}

static void set_crc(unsigned char *b, size_t from, size_t len, size_t at)
{
    uint32_t c = t_crc32c(b + from, len);
    for (int i = 0; i < 4; i++) b[at + i] = (unsigned char)(c >> (8 * i));
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gen_fixtures DIR\n");
        return 2;
    }
    g_dir = argv[1];
    char *tmp = t_mkdtemp("genfix");
    char *path = t_path(tmp, "good.slog2");

    t_model m;
    t_model_small(&m, 2024, 12);
    slog_writer_options o;
    slog_writer_options_init(&o);
    o.preview_bins = 4;
    o.leaf_drawables = 2;
    o.preview_min_subtree = 1;
    o.time_origin_ns = 1700000000000000000ll;
    slog_error err;
    CHECK_OK(t_model_write(&m, path, &o, &err), &err);
    size_t size;
    unsigned char *good = t_read_file(path, &size);
    CHECK(good);
    put("slog_good.bin", good, size);

    /* expectation for slog_good.bin: counts line, then every drawable */
    {
        t_draw *d = malloc((m.n + 1) * sizeof *d);
        CHECK(d);
        memcpy(d, m.d, m.n * sizeof *d);
        t_qsort(d, m.n, sizeof *d, t_draw_cmp);
        size_t cap = 256 + m.n * 256, o2 = 0;
        char *txt = malloc(cap);
        CHECK(txt);
        o2 += (size_t)snprintf(txt + o2, cap - o2,
                               "# kind cat tl etl start end n_info info...\n"
                               "drawables %zu timelines %u categories %u\n",
                               m.n, m.n_tls, m.n_cats);
        for (size_t i = 0; i < m.n; i++) {
            char line[512];
            t_draw_line(line, sizeof line, &d[i]);
            o2 += (size_t)snprintf(txt + o2, cap - o2, "%s\n", line);
        }
        put("slog_good.expect", txt, o2);
        free(txt);
        free(d);
    }

    put("slog_truncated_half.bin", good, size / 2);
    put("slog_truncated_last_byte.bin", good, size - 1);

    unsigned char *b = malloc(size);
    CHECK(b);
    /* one bit in the middle of the first node block's body */
    slog_reader *rd;
    CHECK_OK(slog_reader_open(&rd, path, &err), &err);
    slog_node_info ni;
    CHECK_OK(slog_reader_node(rd, 0, &ni), NULL);
    slog_reader_close(rd);
    memcpy(b, good, size);
    b[ni.offset + 16 + (ni.size - 16) / 2] ^= 0x10;
    put("slog_bitflip_node.bin", b, size);

    memcpy(b, good, size);
    b[48] ^= 0x01; /* t_min, under the header CRC */
    put("slog_bitflip_header.bin", b, size);

    memcpy(b, good, size);
    b[12] = SLOG_FORMAT_MAJOR + 1, b[13] = 0; /* version major */
    set_crc(b, 0, 252, 252);
    put("slog_major6.bin", b, size);

    memcpy(b, good, size);
    b[14] = SLOG_FORMAT_MINOR + 1, b[15] = 0; /* version minor: additive, readable */
    set_crc(b, 0, 252, 252);
    char minor_name[32];
    snprintf(minor_name, sizeof minor_name, "slog_minor%d.bin", SLOG_FORMAT_MINOR + 1);
    put(minor_name, b, size);

    memcpy(b, good, size);
    { /* postamble: directory offset beyond the end, CRC recomputed */
        unsigned char *post = b + size - 64;
        uint64_t off = (uint64_t)size + 4096;
        for (int i = 0; i < 8; i++) post[i] = (unsigned char)(off >> (8 * i));
        set_crc(post, 0, 48, 48);
    }
    put("slog_bad_dir_offset.bin", b, size);

    static const unsigned char png[] = {
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00,
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00,
        0x00, 0x00, 0x0A, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01,
        0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82};
    put("foreign.png", png, sizeof png);
    const char *text = "time,rank,function\n0.000001,0,MPI_Init\n0.000420,0,MPI_Send\n"
                       "0.000512,1,MPI_Recv\n0.001000,0,MPI_Finalize\n";
    put("foreign.txt", text, strlen(text));
    put("empty.bin", "", 0);

    free(b);
    free(good);
    t_model_free(&m);
    t_rmtree(tmp);
    free(tmp);
    free(path);
    return 0;
}
