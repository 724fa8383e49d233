/* SPDX-License-Identifier: MIT */
/* fuzz_reader.c - libFuzzer target for the reader: the input is a .slog2
 * file (memfd, opened through /proc/self/fd), opened, queried at a few
 * windows and pixel widths, metadata walked, and checked. Built with
 * -DSLOG2_FUZZ=ON (clang); ctest runs it for 60 s on a seed corpus written by
 * slog_testgen --corpus.
 *
 * Every input is tried twice: as is (exercising the checks on magic,
 * lengths and CRCs) and with every CRC32C recomputed (format.h: block
 * headers, directory copies, header, postamble), so that mutations reach the
 * decoders behind the checksums instead of stopping at the first CRC. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "format.h"
#include <slog2/slog.h>

static slog_cb_result on_draw(void *user, const slog_drawable *d)
{
    uint64_t *acc = user;
    *acc += (uint64_t)d->start ^ (uint64_t)d->end ^ d->timeline ^ d->category ^ d->end_timeline;
    for (uint32_t i = 0; i < d->n_info; i++) *acc += (uint64_t)d->info[i];
    return SLOG_CONTINUE;
}

static slog_cb_result on_prev(void *user, const slog_preview *p)
{
    uint64_t *acc = user;
    for (uint32_t r = 0; r < p->n_rows; r++)
        for (uint32_t j = 0; j < p->n_bins; j++)
            *acc += (uint64_t)(p->rows[r].values[j] * 255.0f) + p->rows[r].timeline + p->rows[r].category;
    return SLOG_CONTINUE;
}

/* Recompute every checksum of a (possibly mangled) file in place. */
static void fix_crcs(uint8_t *b, size_t n)
{
    if (n < SLOG_HEADER_SIZE + SLOG_POSTAMBLE_SIZE) return;
    size_t end = n - SLOG_POSTAMBLE_SIZE;
    /* blocks follow the header back to back */
    for (size_t off = SLOG_HEADER_SIZE; off + SLOG_BLOCK_HEADER_SIZE <= end;) {
        uint64_t len = get_u64le(b + off + 8);
        if (len > end - off - SLOG_BLOCK_HEADER_SIZE) break;
        put_u32le(b + off + 4, slog_crc32c(0, b + off + SLOG_BLOCK_HEADER_SIZE, (size_t)len));
        off += SLOG_BLOCK_HEADER_SIZE + (size_t)len;
    }
    /* directory entries repeat their blocks' CRCs; then the directory's own */
    uint64_t doff = get_u64le(b + HDR_SEC_DIRECTORY);
    if (doff >= SLOG_HEADER_SIZE && doff <= end && end - doff >= SLOG_BLOCK_HEADER_SIZE + 8) {
        uint64_t len = get_u64le(b + doff + 8);
        if (len <= end - doff - SLOG_BLOCK_HEADER_SIZE && len >= 8) {
            uint8_t *body = b + doff + SLOG_BLOCK_HEADER_SIZE;
            uint64_t cnt = get_u64le(body);
            for (uint64_t i = 0; i < cnt && 8 + (i + 1) * SLOG_DIRENT_SIZE <= len; i++) {
                uint8_t *e = body + 8 + i * SLOG_DIRENT_SIZE;
                uint64_t no = get_u64le(e + DIRENT_NODE_OFF), po = get_u64le(e + DIRENT_PREV_OFF);
                if (no <= end - SLOG_BLOCK_HEADER_SIZE) put_u32le(e + DIRENT_NODE_CRC, get_u32le(b + no + 4));
                if (po && po <= end - SLOG_BLOCK_HEADER_SIZE) put_u32le(e + DIRENT_PREV_CRC, get_u32le(b + po + 4));
            }
            put_u32le(b + doff + 4, slog_crc32c(0, body, (size_t)len));
        }
    }
    put_u32le(b + HDR_CRC, slog_crc32c(0, b, HDR_CRC));
    put_u32le(b + end + POST_CRC, slog_crc32c(0, b + end, POST_CRC));
}

static void run_one(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run_one(data, size);
    if (size >= SLOG_HEADER_SIZE + SLOG_POSTAMBLE_SIZE) {
        uint8_t *copy = malloc(size);
        if (copy) {
            memcpy(copy, data, size);
            fix_crcs(copy, size);
            run_one(copy, size);
            free(copy);
        }
    }
    return 0;
}

static void run_one(const uint8_t *data, size_t size)
{
    int fd = memfd_create("slog2-fuzz", MFD_CLOEXEC);
    if (fd < 0) return;
    size_t off = 0;
    while (off < size) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0) break;
        off += (size_t)n;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    slog_reader *rd = NULL;
    slog_error err;
    if (slog_reader_open(&rd, path, &err) == SLOG_OK) {
        const slog_file_info *fi = slog_reader_info(rd);
        uint64_t acc = 0;
        for (uint32_t i = 0; i < fi->n_categories && i < 64; i++) {
            const slog_category *c = slog_reader_category(rd, i);
            if (c) {
                acc += strlen(c->name) + strlen(c->group);
                for (uint32_t f = 0; f < c->n_fields; f++) acc += strlen(c->field_names[f]) + c->field_types[f];
            }
            const slog_category_stats *s = slog_reader_category_stats(rd, i);
            if (s) acc += s->count;
        }
        for (uint32_t i = 0; i < fi->n_timelines && i < 64; i++) {
            const slog_timeline *t = slog_reader_timeline(rd, i);
            if (t) acc += strlen(t->label) + strlen(t->group) + t->rank;
        }
        for (uint32_t i = 0; i < fi->n_annotations && i < 64; i++) {
            const char *k, *v;
            if (slog_reader_annotation(rd, i, &k, &v) == SLOG_OK) acc += strlen(k) + strlen(v);
        }
        slog_node_info ni;
        for (uint64_t i = 0; i < fi->n_nodes && i < 64; i++)
            if (slog_reader_node(rd, i, &ni) == SLOG_OK) acc += ni.size;
        /* the header is untrusted: no signed overflow in the harness itself */
        int64_t tmin = fi->t_min, tmax = fi->t_max >= tmin ? fi->t_max : tmin;
        uint64_t uspan = (uint64_t)tmax - (uint64_t)tmin;
        int64_t span = uspan > (uint64_t)INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)uspan;
        int64_t mid0 = tmin > INT64_MAX - span ? tmin : tmin + span / 3;
        int64_t mid1 = tmin > INT64_MAX - span ? tmax : tmin + span / 2;
        uint8_t *mask = calloc(fi->n_timelines ? fi->n_timelines : 1, 1);
        if (mask && fi->n_timelines) mask[0] = 1;
        slog_query qs[] = {
            {INT64_MIN, INT64_MAX, NULL, 0, 0},
            {tmin, tmax, NULL, span / 1920 + 1, 0},
            {mid0, mid1, mask, span / 100 + 1, 0},
            {tmin, tmax, NULL, INT64_MAX, 0},
            {tmin, tmax, NULL, 1000, SLOG_QUERY_NO_PREVIEW},
        };
        for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++)
            if (qs[i].timelines || i != 2) slog_reader_query(rd, &qs[i], on_draw, on_prev, &acc, NULL, &err);
        for (uint32_t k = 0; k < 2 && fi->n_timelines; k++) {
            /* folded: the overview's previews, or its own records */
            slog_grid_query gq = {.t0 = tmin,
                                  .t1 = tmax,
                                  .tl_first = 0,
                                  .tl_last = fi->n_timelines - 1,
                                  .n_cols = k ? 2048 : 16,
                                  .n_rows = k ? 64 : 4};
            slog_grid *g = NULL;
            if (slog_reader_grid(rd, &gq, &g, NULL, &err) == SLOG_OK) acc += slog_grid_n_rows(g);
            slog_grid_free(g);
        }
        /* the messages between groups: the whole span from the overview's
         * message blocks, a narrow window from the blocks' arrows */
        int64_t ends[2][2] = {{tmin, tmax}, {mid0, mid0 > INT64_MAX - 1000 ? mid0 : mid0 + 1000}};
        for (int k = 0; k < 2; k++) {
            slog_group_messages *gm = NULL;
            if (slog_reader_group_messages(rd, ends[k][0], ends[k][1], 8, &gm, NULL, &err) == SLOG_OK && gm)
                acc += gm->n_cells;
            slog_group_messages_free(gm);
        }
        slog_reader_check(rd, NULL, &err);
        free(mask);
        slog_reader_close(rd);
        if (acc == 0x123456789abcdefull) fputc('.', stderr); /* keep acc alive */
    }
    close(fd);
}
