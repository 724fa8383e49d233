/* SPDX-License-Identifier: MIT */
/* reader.c - opening and validating a .slog2 file: header, postamble,
 * sections and directory. Node and preview blocks are read lazily by
 * query.c. Every offset and count from the file is checked before use; each
 * failure names the file and byte offset.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reader_internal.h"

/* Read exactly n bytes at off (pread: no shared cursor, thread safe). */
slog_status rd_pread(slog_reader *r, void *dst, size_t n, uint64_t off, slog_error *err)
{
    size_t done = 0;
    while (done < n) {
        ssize_t got = pread(r->fd, (uint8_t *)dst + done, n - done, (off_t)(off + done));
        if (got < 0) {
            if (errno == EINTR) continue;
            return slog_set_error(err, SLOG_ERR_IO, r->path, off + done, "read: %s", strerror(errno));
        }
        if (got == 0) return slog_set_error(err, SLOG_ERR_TRUNCATED, r->path, off + done, "unexpected end of file");
        done += (size_t)got;
    }
    atomic_fetch_add(&r->bytes_read, n);
    return SLOG_OK;
}

/* Read and verify a block at [off, off+size): tag, length, CRC32C.
 * On success *body points into a malloc'd buffer the caller frees (*owner). */
slog_status rd_block(slog_reader *r, const char *tag, uint64_t off, uint64_t size, uint8_t **owner,
                     const uint8_t **body, size_t *body_len, uint32_t *crc_out, slog_error *err)
{
    *owner = NULL;
    if (size < SLOG_BLOCK_HEADER_SIZE || size > SLOG_MAX_BLOCK || off < SLOG_HEADER_SIZE || off > r->info.file_size ||
        size > r->info.file_size - off)
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "%s block of %llu bytes out of bounds", tag,
                              (unsigned long long)size);
    uint8_t *buf = malloc(size);
    if (!buf) return slog_set_error(err, SLOG_ERR_NOMEM, r->path, off, "%s block", tag);
    slog_status st = rd_pread(r, buf, size, off, err);
    if (st) {
        free(buf);
        return st;
    }
    if (memcmp(buf, tag, 4) != 0) {
        free(buf);
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "expected a %s block", tag);
    }
    uint64_t len = get_u64le(buf + 8);
    if (len != size - SLOG_BLOCK_HEADER_SIZE) {
        free(buf);
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off + 8, "%s block length %llu disagrees with %llu", tag,
                              (unsigned long long)len, (unsigned long long)(size - SLOG_BLOCK_HEADER_SIZE));
    }
    uint32_t crc = slog_crc32c(0, buf + SLOG_BLOCK_HEADER_SIZE, (size_t)len);
    uint32_t stored = get_u32le(buf + 4);
    if (crc != stored) {
        free(buf);
        return slog_set_error(err, SLOG_ERR_CHECKSUM, r->path, off, "%s block CRC32C %08x, stored %08x", tag, crc,
                              stored);
    }
    *owner = buf;
    *body = buf + SLOG_BLOCK_HEADER_SIZE;
    *body_len = (size_t)len;
    if (crc_out) *crc_out = crc;
    return SLOG_OK;
}

static slog_status check_header(slog_reader *r, const uint8_t *h, uint64_t size, slog_error *err)
{
    const char *p = r->path;
    if (memcmp(h + HDR_MAGIC, slog_magic, SLOG_MAGIC_LEN) != 0)
        return slog_set_error(err, SLOG_ERR_NOT_SLOG, p, 0, "bad magic");
    uint32_t bom = get_u32le(h + HDR_BOM);
    if (bom != SLOG_BOM)
        return slog_set_error(err, SLOG_ERR_CORRUPT, p, HDR_BOM, "byte-order mark %08x (byte-swapped file?)", bom);
    slog_header_decode(h, &r->info);
    if (r->info.version_major == 1)
        return slog_set_error(err, SLOG_ERR_VERSION, p, HDR_MAJOR,
                              "format %u.%u: this reader reads %u.x; rebuild the file with slog2-build",
                              r->info.version_major, r->info.version_minor, SLOG_FORMAT_MAJOR);
    if (r->info.version_major < SLOG_FORMAT_MAJOR_OLDEST || r->info.version_major > SLOG_FORMAT_MAJOR)
        return slog_set_error(err, SLOG_ERR_VERSION, p, HDR_MAJOR,
                              "format version %u.%u, this reader reads %u.x to %u.x", r->info.version_major,
                              r->info.version_minor, SLOG_FORMAT_MAJOR_OLDEST, SLOG_FORMAT_MAJOR);
    uint32_t crc = slog_crc32c(0, h, HDR_CRC);
    if (crc != get_u32le(h + HDR_CRC))
        return slog_set_error(err, SLOG_ERR_CHECKSUM, p, HDR_CRC, "header CRC32C %08x, stored %08x", crc,
                              get_u32le(h + HDR_CRC));
    if (!(r->info.flags & SLOG_FLAG_COMPLETE))
        return slog_set_error(err, SLOG_ERR_TRUNCATED, p, HDR_FLAGS, "file was not finished by its writer");
    if (get_u32le(h + HDR_SIZE) != SLOG_HEADER_SIZE)
        return slog_set_error(err, SLOG_ERR_CORRUPT, p, HDR_SIZE, "header size %u", get_u32le(h + HDR_SIZE));
    if (r->info.children_per_node != SLOG_CHILDREN || r->info.preview_bins < 2 ||
        r->info.preview_bins > SLOG_MAX_BINS || (r->info.preview_bins & 1) || r->info.leaf_shift < 0 ||
        r->info.leaf_shift > 62 || r->info.depth > SLOG_MAX_LEVELS ||
        (uint32_t)r->info.leaf_shift + r->info.depth > 63 ||
        (r->info.depth && (uint32_t)r->info.leaf_shift + r->info.depth - 1 > 62))
        return slog_set_error(err, SLOG_ERR_CORRUPT, p, HDR_CHILDREN, "tree parameters out of range");
    if (r->info.n_states + r->info.n_arrows + r->info.n_events != r->info.n_drawables ||
        r->info.n_states > r->info.n_drawables || r->info.t_min < 0 || r->info.t_max < r->info.t_min ||
        (r->info.n_drawables == 0) != (r->info.n_nodes == 0) || (r->info.depth == 0) != (r->info.n_nodes == 0))
        return slog_set_error(err, SLOG_ERR_CORRUPT, p, HDR_TMIN, "inconsistent counts or span");
    uint32_t tb = r->info.block_timelines, g = r->info.group_timelines;
    if (!tb || (tb & (tb - 1)) || tb > SLOG_MAX_BLOCK_TIMELINES || !g || (g & (g - 1)) ||
        g > SLOG_MAX_BLOCK_TIMELINES ||
        r->info.n_blocks != (r->info.n_timelines ? (uint32_t)(((uint64_t)r->info.n_timelines + tb - 1) / tb) : 0) ||
        r->info.overview_depth > SLOG_MAX_LEVELS || (g == 1 && r->info.overview_depth) ||
        r->info.n_mirrors > r->info.n_arrows)
        return slog_set_error(err, SLOG_ERR_CORRUPT, p, HDR_BLOCK_TIMELINES, "block parameters out of range");
    for (int i = 208; i < HDR_CRC; i++)
        if (h[i]) return slog_set_error(err, SLOG_ERR_CORRUPT, p, (uint64_t)i, "reserved header byte set");
    for (int i = 0; i < 4; i++) {
        r->sec_off[i] = get_u64le(h + HDR_SEC_CATEGORIES + 16 * i);
        r->sec_size[i] = get_u64le(h + HDR_SEC_CATEGORIES + 16 * i + 8);
    }
    (void)size;
    return SLOG_OK;
}

static slog_status check_postamble(slog_reader *r, const uint8_t *pa, uint64_t size, slog_error *err)
{
    uint64_t off = size - SLOG_POSTAMBLE_SIZE;
    if (memcmp(pa + POST_MAGIC, slog_end_magic, SLOG_MAGIC_LEN) != 0)
        return slog_set_error(err, SLOG_ERR_TRUNCATED, r->path, off + POST_MAGIC,
                              "no closing magic at the end of the file (truncated?)");
    if (slog_crc32c(0, pa, POST_CRC) != get_u32le(pa + POST_CRC))
        return slog_set_error(err, SLOG_ERR_CHECKSUM, r->path, off + POST_CRC, "postamble CRC32C mismatch");
    if (get_u64le(pa + POST_FILE_SIZE) != size)
        return slog_set_error(err, SLOG_ERR_TRUNCATED, r->path, off + POST_FILE_SIZE,
                              "file is %llu bytes, postamble says %llu", (unsigned long long)size,
                              (unsigned long long)get_u64le(pa + POST_FILE_SIZE));
    if (get_u64le(pa + POST_DIR_OFF) != r->sec_off[SEC_DIRECTORY] ||
        get_u64le(pa + POST_DIR_SIZE) != r->sec_size[SEC_DIRECTORY] ||
        get_u64le(pa + POST_CAT_OFF) != r->sec_off[SEC_CATEGORIES] ||
        get_u64le(pa + POST_TL_OFF) != r->sec_off[SEC_TIMELINES] ||
        get_u64le(pa + POST_ANN_OFF) != r->sec_off[SEC_ANNOTATIONS])
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "postamble and header disagree on sections");
    return SLOG_OK;
}

/* A metadata section being parsed: its block read and verified, and its
 * leading u32 count checked against the header and bounded by the body size
 * (each item takes at least min_item bytes), so allocations sized by the
 * count are safe. */
typedef struct section {
    uint8_t *own;
    const uint8_t *body;
    uint64_t off;
    slog_cur c;
    uint32_t n;
} section;

static slog_status section_open(slog_reader *r, int sec, const char *tag, uint32_t expected, size_t min_item,
                                const char *what, section *s, slog_error *err)
{
    size_t len = 0; /* rd_block sets it when it succeeds; a program linking the
                     * static library with LTO cannot see that */
    s->off = r->sec_off[sec];
    slog_status st = rd_block(r, tag, s->off, r->sec_size[sec], &s->own, &s->body, &len, NULL, err);
    if (st) return st;
    s->c = cur_make(s->body, len);
    s->n = cur_u32(&s->c);
    if (!cur_ok(&s->c) || s->n != expected || s->n > len / min_item) {
        free(s->own);
        s->own = NULL;
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, s->off, "%s count %u", what, s->n);
    }
    return SLOG_OK;
}

/* The items must have consumed the body exactly. Frees the block. */
static slog_status section_close(slog_reader *r, section *s, const char *what, slog_error *err)
{
    bool ok = cur_ok(&s->c) && cur_left(&s->c) == 0;
    uint64_t at = s->off + SLOG_BLOCK_HEADER_SIZE + (uint64_t)(s->c.p - s->body);
    free(s->own);
    s->own = NULL;
    if (!ok) return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, at, "malformed %s section", what);
    return SLOG_OK;
}

static slog_status parse_categories(slog_reader *r, slog_error *err)
{
    section sec;
    slog_status st =
        section_open(r, SEC_CATEGORIES, SLOG_TAG_CATEGORIES, r->info.n_categories, 32, "category", &sec, err);
    if (st) return st;
    uint32_t n = sec.n;
    slog_cur *c = &sec.c;
    r->cats = calloc(n ? n : 1, sizeof *r->cats);
    r->cstats = calloc(n ? n : 1, sizeof *r->cstats);
    r->cat_is_state = calloc(n ? n : 1, sizeof *r->cat_is_state);
    if (!r->cats || !r->cstats || !r->cat_is_state) {
        free(sec.own);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, sec.off, "categories");
    }
    for (uint32_t i = 0; i < n && cur_ok(c); i++) {
        slog_category *k = &r->cats[i];
        r->n_cats_alloc = i + 1;
        uint8_t kind = cur_u8(c), nf = cur_u8(c);
        cur_u16(c);
        k->rgba = cur_u32(c);
        r->cstats[i].count = cur_u64(c);
        r->cstats[i].total_ns = (int64_t)cur_u64(c);
        if (kind > SLOG_KIND_EVENT || nf > SLOG_MAX_FIELDS) c->bad = true;
        k->kind = (slog_kind)kind;
        r->cat_is_state[i] = kind == SLOG_KIND_STATE;
        k->name = cur_str(c, SLOG_MAX_STRING);
        k->group = cur_str(c, SLOG_MAX_STRING);
        if (!cur_ok(c)) break;
        char **names = calloc(nf + 1u, sizeof *names);
        uint8_t *types = calloc(nf + 1u, 1);
        k->field_names = (const char *const *)names;
        k->field_types = types;
        if (!names || !types) {
            c->bad = true;
            break;
        }
        k->n_fields = nf;
        for (uint32_t f = 0; f < nf && cur_ok(c); f++) {
            types[f] = cur_u8(c);
            if (types[f] > SLOG_FIELD_DURATION) c->bad = true;
            names[f] = cur_str(c, SLOG_MAX_STRING);
        }
    }
    return section_close(r, &sec, "categories", err);
}

static slog_status parse_timelines(slog_reader *r, slog_error *err)
{
    section sec;
    slog_status st = section_open(r, SEC_TIMELINES, SLOG_TAG_TIMELINES, r->info.n_timelines, 16, "timeline", &sec, err);
    if (st) return st;
    r->tls = calloc(sec.n ? sec.n : 1, sizeof *r->tls);
    if (!r->tls) {
        free(sec.own);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, sec.off, "timelines");
    }
    for (uint32_t i = 0; i < sec.n && cur_ok(&sec.c); i++) {
        r->n_tls_alloc = i + 1;
        r->tls[i].rank = cur_u32(&sec.c);
        r->tls[i].thread = cur_u32(&sec.c);
        r->tls[i].label = cur_str(&sec.c, SLOG_MAX_STRING);
        r->tls[i].group = cur_str(&sec.c, SLOG_MAX_STRING);
    }
    return section_close(r, &sec, "timelines", err);
}

static slog_status parse_annotations(slog_reader *r, slog_error *err)
{
    section sec;
    slog_status st =
        section_open(r, SEC_ANNOTATIONS, SLOG_TAG_ANNOTATIONS, r->info.n_annotations, 8, "annotation", &sec, err);
    if (st) return st;
    r->ann = calloc(2 * (size_t)sec.n + 1, sizeof *r->ann);
    if (!r->ann) {
        free(sec.own);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, sec.off, "annotations");
    }
    for (uint32_t i = 0; i < 2 * sec.n && cur_ok(&sec.c); i++) {
        r->n_ann_alloc = i + 1;
        r->ann[i] = cur_str(&sec.c, SLOG_MAX_STRING);
    }
    return section_close(r, &sec, "annotations", err);
}

/* Directory order: by tree (the overview, UINT32_MAX, last), level
 * descending, index ascending. */
static int cmp_node(const void *x, const void *y)
{
    const rd_node *a = x, *b = y;
    if (a->tree != b->tree) return a->tree < b->tree ? -1 : 1;
    if (a->level != b->level) return a->level > b->level ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static slog_status parse_directory(slog_reader *r, slog_error *err)
{
    uint8_t *own;
    const uint8_t *body = NULL;
    size_t len = 0;
    uint64_t off = r->sec_off[SEC_DIRECTORY];
    slog_status st = rd_block(r, SLOG_TAG_DIRECTORY, off, r->sec_size[SEC_DIRECTORY], &own, &body, &len, NULL, err);
    if (st) return st;
    uint64_t n = len >= 8 ? get_u64le(body) : UINT64_MAX;
    if (n != r->info.n_nodes || n > (len - 8) / SLOG_DIRENT_SIZE || 8 + n * SLOG_DIRENT_SIZE != len) {
        free(own);
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "directory count disagrees with its size");
    }
    r->nodes = calloc(n ? n : 1, sizeof *r->nodes);
    r->trees = calloc((size_t)r->info.n_blocks + 1, sizeof *r->trees);
    if (!r->nodes || !r->trees) {
        free(own);
        return slog_set_error(err, SLOG_ERR_NOMEM, r->path, off, "directory");
    }
    uint64_t data_end = r->sec_off[SEC_CATEGORIES];
    for (uint64_t i = 0; i < n; i++) {
        const uint8_t *e = body + 8 + i * SLOG_DIRENT_SIZE;
        uint64_t at = off + SLOG_BLOCK_HEADER_SIZE + 8 + i * SLOG_DIRENT_SIZE;
        rd_node *d = &r->nodes[i];
        d->tree = get_u32le(e + DIRENT_TREE);
        d->level = e[DIRENT_LEVEL];
        d->flags = e[DIRENT_FLAGS];
        d->n_drawables = get_u32le(e + DIRENT_N_DRAWABLES);
        d->index = get_u64le(e + DIRENT_INDEX);
        d->node_off = get_u64le(e + DIRENT_NODE_OFF);
        d->node_size = get_u32le(e + DIRENT_NODE_SIZE);
        d->node_crc = get_u32le(e + DIRENT_NODE_CRC);
        d->n_subtree = get_u64le(e + DIRENT_N_SUBTREE);
        d->prev_off = get_u64le(e + DIRENT_PREV_OFF);
        d->prev_size = get_u32le(e + DIRENT_PREV_SIZE);
        d->prev_crc = get_u32le(e + DIRENT_PREV_CRC);
        d->summ_size = get_u32le(e + DIRENT_SUMM_SIZE);
        /* The summary block follows the node's last other block. */
        d->summ_off = !(d->flags & SLOG_DIRENT_HAS_SUMMARY) ? 0
                      : d->prev_off                         ? d->prev_off + d->prev_size
                                                            : d->node_off + d->node_size;
        bool overview = d->tree == SLOG_TREE_OVERVIEW;
        bool has_prev = d->flags & SLOG_DIRENT_HAS_PREVIEW;
        uint8_t left = overview && r->info.version_major >= 4 ? SLOG_DIRENT_OV_LEFT0 | SLOG_DIRENT_OV_LEFT1 : 0;
        const char *why = NULL;
        if (d->level >= SLOG_MAX_LEVELS || (uint32_t)r->info.leaf_shift + d->level > 62)
            why = "level out of range";
        else if ((d->flags & ~(SLOG_DIRENT_HAS_PREVIEW | SLOG_DIRENT_HAS_SUMMARY | left)) || get_u16le(e + 2) ||
                 (overview && (d->flags & SLOG_DIRENT_HAS_SUMMARY) && r->info.version_major < 5) ||
                 !(d->flags & SLOG_DIRENT_HAS_SUMMARY) != !get_u32le(e + DIRENT_SUMM_SIZE))
            why = "reserved bits set";
        else if (overview ? r->info.group_timelines == 1 : d->tree >= r->info.n_blocks)
            why = "tree number out of range";
        else if (d->index >= (1ull << (62 - ((uint32_t)r->info.leaf_shift + d->level))))
            why = "node index out of range";
        else if (overview && (!has_prev || (!d->node_off && (d->node_size || d->node_crc)) ||
                              (d->node_off && (r->info.version_major < 3 || !d->n_drawables))))
            why = "node block out of bounds";
        else if ((!overview || d->node_off) &&
                 (d->node_off < SLOG_HEADER_SIZE || d->node_size < SLOG_BLOCK_HEADER_SIZE + 16 ||
                  d->node_off > data_end || d->node_size > data_end - d->node_off))
            why = "node block out of bounds";
        else if (has_prev != (d->prev_off != 0) ||
                 (has_prev && (d->prev_off < SLOG_HEADER_SIZE || d->prev_size < SLOG_BLOCK_HEADER_SIZE + 24 ||
                               d->prev_off > data_end || d->prev_size > data_end - d->prev_off)))
            why = "preview block out of bounds";
        else if ((d->flags & SLOG_DIRENT_HAS_SUMMARY) &&
                 (d->summ_size < SLOG_BLOCK_HEADER_SIZE + 17 || d->summ_off > data_end ||
                  d->summ_size > data_end - d->summ_off))
            why = "summary block out of bounds";
        else if (d->n_drawables > d->n_subtree || d->n_subtree > r->info.n_drawables + r->info.n_mirrors)
            why = "drawable counts inconsistent";
        /* Children left out of the overview: a node passed through (its
         * own records apart, or none) above the leaves. */
        else if ((d->flags & left) && (!d->level || (!d->node_off && d->n_drawables)))
            why = "children left out of a node that has none";
        if (why) {
            free(own);
            return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, at, "directory entry %llu: %s", (unsigned long long)i,
                                  why);
        }
    }
    free(own);
    if (n > 1) qsort(r->nodes, n, sizeof *r->nodes, cmp_node);
    /* Each tree: a run of entries, unique keys, one root at its top level
     * with index 0. The blocks' roots hold every record (drawables and
     * mirrors), the overview's root every drawable. */
    uint64_t in_blocks = 0;
    uint32_t depth = 0, ov_depth = 0;
    for (uint64_t i = 0; i < n; i++) {
        const rd_node *d = &r->nodes[i];
        rd_tree *t = (rd_tree *)rd_tree_of(r, d->tree);
        bool first = !i || r->nodes[i - 1].tree != d->tree;
        if (first) {
            t->first = i;
            t->top = d->level;
            if (d->index != 0 || (i + 1 < n && r->nodes[i + 1].tree == d->tree && r->nodes[i + 1].level == d->level))
                return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "tree %u has no single root", d->tree);
            if (d->tree == SLOG_TREE_OVERVIEW) {
                if (d->n_subtree != r->info.n_drawables)
                    return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "the overview's root misses drawables");
                ov_depth = d->level + 1u;
            } else {
                in_blocks += d->n_subtree;
                if (d->level + 1u > depth) depth = d->level + 1u;
            }
        } else if (cmp_node(&r->nodes[i - 1], d) == 0) {
            return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "node (%u, %u, %llu) listed twice", d->tree,
                                  d->level, (unsigned long long)d->index);
        }
        t->count++;
    }
    if (in_blocks != r->info.n_drawables + r->info.n_mirrors || depth != r->info.depth ||
        ov_depth != r->info.overview_depth)
        return slog_set_error(err, SLOG_ERR_CORRUPT, r->path, off, "the trees' roots disagree with the header");
    return SLOG_OK;
}

slog_status slog_reader_open(slog_reader **out, const char *path, slog_error *err)
{
    *out = NULL;
    slog_clear_error(err);
    if (!path) return slog_set_error(err, SLOG_ERR_ARG, path, SLOG_NO_OFFSET, "NULL path");
    slog_reader *r = calloc(1, sizeof *r);
    if (!r) return slog_set_error(err, SLOG_ERR_NOMEM, path, SLOG_NO_OFFSET, "reader");
    size_t pl = strlen(path) + 1;
    r->path = malloc(pl);
    if (!r->path) {
        free(r);
        return slog_set_error(err, SLOG_ERR_NOMEM, path, SLOG_NO_OFFSET, "reader");
    }
    memcpy(r->path, path, pl);
    /* O_NONBLOCK: a FIFO would block open() until a writer came; it fails
     * the regular-file test below instead. No effect on regular files. */
    r->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    slog_status st = SLOG_OK;
    struct stat sb;
    if (r->fd < 0) {
        st = slog_set_error(err, SLOG_ERR_IO, path, SLOG_NO_OFFSET, "cannot open: %s", strerror(errno));
    } else if (fstat(r->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        st = slog_set_error(err, SLOG_ERR_IO, path, SLOG_NO_OFFSET, "not a regular file");
    } else {
        uint64_t size = (uint64_t)sb.st_size;
        r->info.file_size = size;
        uint8_t h[SLOG_HEADER_SIZE];
        size_t want = size < SLOG_HEADER_SIZE ? (size_t)size : SLOG_HEADER_SIZE;
        if (want && (st = rd_pread(r, h, want, 0, err))) {
            /* fall through with st */
        } else if (size == 0) {
            st = slog_set_error(err, SLOG_ERR_NOT_SLOG, path, 0, "empty file");
        } else if (memcmp(h, slog_magic, want < SLOG_MAGIC_LEN ? want : SLOG_MAGIC_LEN) != 0) {
            st = slog_set_error(err, SLOG_ERR_NOT_SLOG, path, 0, "bad magic");
        } else if (size < SLOG_HEADER_SIZE + SLOG_POSTAMBLE_SIZE) {
            st = slog_set_error(err, SLOG_ERR_TRUNCATED, path, size,
                                "file of %llu bytes is shorter than header and postamble", (unsigned long long)size);
        } else if (!(st = check_header(r, h, size, err))) {
            uint8_t pa[SLOG_POSTAMBLE_SIZE];
            if (!(st = rd_pread(r, pa, sizeof pa, size - SLOG_POSTAMBLE_SIZE, err)) &&
                !(st = check_postamble(r, pa, size, err)) && !(st = parse_categories(r, err)) &&
                !(st = parse_timelines(r, err)) && !(st = parse_annotations(r, err)))
                st = parse_directory(r, err);
        }
    }
    if (st) {
        slog_reader_close(r);
        return st;
    }
    *out = r;
    return SLOG_OK;
}

void slog_reader_close(slog_reader *r)
{
    if (!r) return;
    rd_cache_free(r);
    if (r->fd >= 0) close(r->fd);
    for (uint32_t i = 0; i < r->n_cats_alloc; i++) {
        slog_category *k = &r->cats[i];
        free((char *)k->name);
        free((char *)k->group);
        if (k->field_names)
            for (uint32_t f = 0; f < k->n_fields; f++) free((char *)k->field_names[f]);
        free((char **)k->field_names);
        free((uint8_t *)k->field_types);
    }
    free(r->cats);
    free(r->cstats);
    free(r->cat_is_state);
    for (uint32_t i = 0; i < r->n_tls_alloc; i++) {
        free((char *)r->tls[i].label);
        free((char *)r->tls[i].group);
    }
    free(r->tls);
    for (uint32_t i = 0; i < r->n_ann_alloc; i++) free(r->ann[i]);
    free(r->ann);
    free(r->nodes);
    free(r->trees);
    free(r->path);
    free(r);
}

const char *slog_reader_path(const slog_reader *r)
{
    return r->path;
}
const slog_file_info *slog_reader_info(const slog_reader *r)
{
    return &r->info;
}

const slog_category *slog_reader_category(const slog_reader *r, uint32_t id)
{
    return id < r->info.n_categories ? &r->cats[id] : NULL;
}

const slog_category_stats *slog_reader_category_stats(const slog_reader *r, uint32_t id)
{
    return id < r->info.n_categories ? &r->cstats[id] : NULL;
}

const slog_timeline *slog_reader_timeline(const slog_reader *r, uint32_t id)
{
    return id < r->info.n_timelines ? &r->tls[id] : NULL;
}

slog_status slog_reader_annotation(const slog_reader *r, uint32_t i, const char **key, const char **value)
{
    if (i >= r->info.n_annotations) return SLOG_ERR_ARG;
    if (key) *key = r->ann[2 * i];
    if (value) *value = r->ann[2 * i + 1];
    return SLOG_OK;
}

const char *slog_reader_annotation_get(const slog_reader *r, const char *key)
{
    for (uint32_t i = 0; i < r->info.n_annotations; i++)
        if (strcmp(r->ann[2 * i], key) == 0) return r->ann[2 * i + 1];
    return NULL;
}

slog_status slog_reader_node(const slog_reader *r, uint64_t i, slog_node_info *out)
{
    if (i >= r->info.n_nodes || !out) return SLOG_ERR_ARG;
    const rd_node *d = &r->nodes[i];
    uint32_t s = (uint32_t)r->info.leaf_shift + d->level;
    out->tree = d->tree;
    out->level = d->level;
    out->index = d->index;
    out->lo = (int64_t)(d->index << s);
    out->hi = out->lo + (int64_t)(1ull << s);
    out->offset = d->node_off;
    out->size = d->node_size;
    out->n_drawables = d->n_drawables;
    out->n_subtree = d->n_subtree;
    out->crc32c = d->node_crc;
    out->has_preview = (d->flags & SLOG_DIRENT_HAS_PREVIEW) != 0;
    out->left_out = (d->flags & SLOG_DIRENT_OV_LEFT0 ? 1u : 0) | (d->flags & SLOG_DIRENT_OV_LEFT1 ? 2u : 0);
    return SLOG_OK;
}

uint64_t slog_reader_bytes_read(const slog_reader *r)
{
    return atomic_load(&((slog_reader *)r)->bytes_read);
}

uint64_t slog_reader_nodes_read(const slog_reader *r)
{
    return atomic_load(&((slog_reader *)r)->nodes_read);
}
