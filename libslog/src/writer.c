/* SPDX-License-Identifier: MIT */
/* writer.c - streaming, one-pass .slog2 writer with bounded memory.
 *
 * Tree: node (L, k) covers [k << s, (k+1) << s) with s = leaf_shift + L, so
 * the tree needs no advance knowledge of the span: it grows upward as time
 * advances. A drawable goes to the smallest node containing it entirely (the
 * SLOG-2 placement rule). Once every drawable still to come ends at or after
 * a node's end (the "floor": the key of the last drawable added in end
 * order, or a watermark a batch producer gave), nothing can land in it
 * again: it is written out and merged (counts, preview) into its parent.
 * Nodes are written in order of their end, then level, whatever steps the
 * floor took, so the file depends only on the drawables and the order of
 * the calls that added them. Only nodes that can still receive drawables
 * are in memory: one per level when drawables come in end order, a few
 * more while a batch producer's watermark lags. Directory entries are
 * spilled to an anonymous temporary file so memory does not grow with
 * trace length.
 *
 * The leaf width is chosen from the density of the first drawables (buffered,
 * bounded) unless the caller fixes it.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "internal.h"
#include "msgs.h"
#include "summary.h"

#define DEFAULT_BINS                    SLOG_DEFAULT_PREVIEW_BINS
#define DEFAULT_LEAF_DRAWABLES          8192
#define DEFAULT_PREVIEW_MIN             1024
#define PREVIEW_BUDGET                  4
/* A summary pays where its subtree has at least this many drawables per
 * byte of it: a window uses at most two summaries per level and block (the
 * nodes its edges leave whole), so one on a small subtree saves little
 * reading and costs its bytes in every such node. Summaries stop growing
 * above such nodes (their rows are bounded) while subtrees double, as
 * previews do: all of a tree's cost under 2 / SUMMARY_DRAWABLES_PER_BYTE
 * bytes per drawable. */
#define SUMMARY_DRAWABLES_PER_BYTE      8
/* A block's root pays at a byte a drawable: a window of the whole span (a
 * trace's profile or matrix) reads the roots' summaries in place of every
 * record, and with thousands of timelines a block's rows are too many for
 * any node to pay at the rate above. One a block: the tree's summaries
 * cost under a byte a drawable more. */
#define ROOT_SUMMARY_DRAWABLES_PER_BYTE 1
/* The overview's levels below overview_level where a node is written only
 * where it costs at most OV_FINE_BUDGET bytes a drawable of its subtree
 * (slog_writer_options.overview_fine_levels, ov_fine_pays). Two levels
 * make bins a quarter as wide; with more, a burst of all ranks in a short
 * trace paid on every level and took the file past the bytes a drawable
 * it may cost (docs/PERFORMANCE.md, "Tried and dropped"). */
#define OV_FINE_LEVELS                  2
#define OV_FINE_BUDGET                  0.5
/* An overview node's pairs of groups that exchange messages are written
 * where they cost at most this many bytes a drawable of its subtree
 * (put_messages; scaled as summaries are). */
#define MSGS_BUDGET                     0.25
#define BOOT_MAX                        65536 /* drawables buffered to choose the leaf width */
#define ROWS_PER_LEAF                   4
/* Blocks and overview groups: the overview has about this many rows at
 * most, a block at least MIN_BLOCK_TIMELINES timelines (neighbours'
 * messages then mostly stay inside one block), and a block's share of a
 * leaf at least MIN_BLOCK_LEAF drawables (docs/FORMAT.md, "Blocks"). */
#define OVERVIEW_ROWS                   1024
#define MIN_BLOCK_TIMELINES             64
#define MIN_BLOCK_LEAF                  512
/* A block's node of fewer records than this, with no child written and
 * no summary to keep, is not written: its records go to its parent
 * (docs/FORMAT.md, 5.1). A node costs 96 bytes besides its records (its
 * block header and directory entry); at thousands of ranks most nodes
 * above the leaves hold a few records, so that those bytes had been a
 * tenth of the file. Readers that visit a node visit its parent, so a
 * query reads at most a few small nodes' records more. At most
 * preview_min_subtree: a node that could pay for a preview is written. */
#define SMALL_NODE                      64
#define OUT_FLUSH                       (256u << 10)
#define OUT_DIRECT                      (64u << 10) /* block bodies this long skip the buffer */
/* Times are below 2^62: a node reaching past it never ends before a
 * drawable still to come, and only finish writes it. */
#define TIME_LIMIT                      ((int64_t)1 << 62)
#define LEAF_DIRECT_MAX                 (1u << 20) /* 4 MiB */
#define LEAF_ROWS_MIN                   16         /* drawables a timeline for a batch's leaf preview */

typedef struct open_node {
    uint64_t index;
    int64_t lo, hi;       /* its interval; hi TIME_LIMIT when it reaches past */
    uint32_t n_drawables; /* block trees: records in it; overview: drawables
                             previewed at it directly */
    int64_t prev_start;
    uint64_t n_subtree;
    slog_buf body;         /* a block's: records; the overview's above its base:
                            the drawables previewed at the node itself, as
                            own records (docs/FORMAT.md) */
    size_t first_delta_at; /* a block's, body not empty: where its first
                              record's start delta lies */
    int64_t first_start;   /* ... and that record's start */
    slog_prev_acc prev;    /* its subtree's preview (levels >= the tree's base) */
    slog_summ summ;        /* a block's: its subtree's summary (summary.h) */
    uint8_t kids;          /* children written (bit: index & 1) */
    uint8_t ov_left;       /* the overview's: children with drawables not written
                           (SLOG_DIRENT_OV_LEFT0, _LEFT1) */
    msgs_acc msgs;         /* the overview's: its subtree's messages by groups,
                           and its own (msgs.h) */
} open_node;

/* The open nodes of one level, by increasing index, and closed ones kept
 * for their buffers. */
typedef struct level_nodes {
    open_node **open;
    uint32_t n_open, cap_open;
    open_node **spare;
    uint32_t n_spare, cap_spare;
} level_nodes;

/* One time tree: a block's, or the overview's. Nodes below `base` hold no
 * preview: a drawable placed there is previewed at its ancestor on level
 * base (slog_writer_options.preview_level), so that the open nodes of the
 * low levels, where previews would not pay, hold no bins. */
typedef struct tree {
    uint32_t id; /* block number, or SLOG_TREE_OVERVIEW */
    uint32_t base;
    uint32_t keep; /* the overview's: below it, a node is written where its
                      preview pays (ov_fine_pays); base <= keep */
    level_nodes levels[SLOG_MAX_LEVELS];
    uint32_t n_levels; /* levels ever used */
    int64_t min_hi;    /* smallest hi of an open node (INT64_MAX: none) */
} tree;

typedef struct cat_entry {
    slog_category c; /* strings and arrays owned */
    uint64_t count;
    int64_t total_ns;
} cat_entry;

typedef struct tl_entry {
    slog_timeline t; /* strings owned */
} tl_entry;

struct slog_writer {
    char *path, *tmp_path;
    int fd;
    uint64_t file_off; /* bytes handed to write() so far */
    uint64_t reserved; /* the file's blocks are allocated up to here (reserve_blocks) */
    bool no_reserve;   /* the file system cannot */
    slog_buf out;
    slog_error err;
    slog_writer_options opt;

    cat_entry *cats;
    bool *cat_is_state;
    uint32_t n_cats, cap_cats;
    tl_entry *tls;
    uint32_t n_tls, cap_tls;
    slog_buf annotations; /* encoded body minus count */
    uint32_t n_annotations;

    /* Bootstrap buffer until the leaf width is chosen. */
    int shift; /* -1 until chosen */
    slog_drawable *boot;
    int64_t *boot_info;
    uint32_t n_boot, n_boot_info;

    bool geometry_fixed; /* tb_shift, g_shift and ov are set (fix_geometry) */
    uint32_t tb_shift;   /* log2 timelines per block */
    uint32_t g_shift;    /* log2 timelines per overview group */
    tree **blocks;       /* by block number, NULL until used */
    uint32_t n_blocks, cap_blocks;
    tree *ov;       /* the overview tree, NULL without one */
    int64_t min_hi; /* smallest hi of any tree's open node */
    int64_t floor;  /* every drawable still to come ends at or after it */

    uint64_t n_drawables, n_by_kind[3], n_mirrors;
    int64_t t_min, t_max;

    slog_prev_acc leaf_prev; /* a batch's leaf preview, while it is absorbed */
    uint64_t *seen;          /* dense_rows' bitmap of a batch's timelines */
    size_t cap_seen;

    FILE *dir_spill;
    uint64_t n_nodes;
    uint32_t depth, ov_depth;
    bool broken;
    int *summ_bytes_field; /* per category: its first BYTES field, or -1 */
    uint32_t n_summ_cats;
    slog_summ_scratch summ_scratch; /* reused by every node's summary */
    slog_buf summ_enc;              /* the last node's encoded summary, if it was encoded */
};

static tree *tree_new(const slog_writer *w, uint32_t id);
static void tree_dims(const slog_writer *w, const tree *t, uint32_t *first, uint32_t *n);

void slog_writer_options_init(slog_writer_options *opt)
{
    memset(opt, 0, sizeof *opt);
    opt->leaf_shift = -1;
}

const slog_error *slog_writer_error(const slog_writer *w)
{
    return &w->err;
}

/* Errors from the caller's arguments (ARG, ORDER) reject one call and leave
 * the writer usable; any other error breaks it for good. */
static slog_status fail(slog_writer *w, slog_status st, const char *fmt, const char *detail)
{
    if (st != SLOG_ERR_ARG && st != SLOG_ERR_ORDER) w->broken = true;
    return slog_set_error(&w->err, st, w->path, SLOG_NO_OFFSET, fmt, detail);
}

static char *dup_str(const char *s)
{
    if (!s) s = "";
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

/* ---------------------------------------------------------------- output */

/* Blocks for the file up to end and a quarter more (4 to 64 MiB), past
 * its end without growing it (the writer truncates the rest away when it
 * finishes). On ext4 an append to allocated blocks skips delayed
 * allocation's per-page reservation, which was a large part of the
 * writer's system time. Best effort: a file system that cannot (NFS,
 * older Lustre) is written as before. */
static void reserve_blocks(slog_writer *w, uint64_t end)
{
#if defined(__linux__) && defined(FALLOC_FL_KEEP_SIZE)
    if (w->no_reserve || end <= w->reserved) return;
    uint64_t more = end / 4;
    more = more < (4u << 20) ? (4u << 20) : more > (64u << 20) ? (64u << 20) : more;
    if (fallocate(w->fd, FALLOC_FL_KEEP_SIZE, (off_t)w->reserved, (off_t)(end + more - w->reserved)) != 0) {
        w->no_reserve = true;
        return;
    }
    w->reserved = end + more;
#else
    (void)w;
    (void)end;
#endif
}

/* Write the buffer, then extra (extra_len bytes, may be 0), and empty the
 * buffer. */
static slog_status flush_out_with(slog_writer *w, const uint8_t *extra, size_t extra_len)
{
    if (w->out.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "output buffer");
    reserve_blocks(w, w->file_off + w->out.len + extra_len);
    struct iovec v[2] = {{w->out.data, w->out.len}, {(void *)extra, extra_len}};
    int i = 0;
    while (i < 2) {
        if (!v[i].iov_len) {
            i++;
            continue;
        }
        ssize_t n = writev(w->fd, v + i, 2 - i);
        if (n < 0) {
            if (errno == EINTR) continue;
            return fail(w, SLOG_ERR_IO, "write: %s", strerror(errno));
        }
        for (size_t left = (size_t)n; left;) {
            size_t k = left < v[i].iov_len ? left : v[i].iov_len;
            v[i].iov_base = (uint8_t *)v[i].iov_base + k;
            v[i].iov_len -= k;
            left -= k;
            if (!v[i].iov_len) i++;
        }
    }
    w->file_off += w->out.len + extra_len;
    w->out.len = 0;
    return SLOG_OK;
}

static slog_status flush_out(slog_writer *w)
{
    return flush_out_with(w, NULL, 0);
}

static uint64_t out_offset(const slog_writer *w)
{
    return w->file_off + w->out.len;
}

/* Append a block: header (tag, crc of body, length) then body = a || b. */
static slog_status put_block(slog_writer *w, const char *tag, const uint8_t *a, size_t na, const uint8_t *b, size_t nb,
                             uint32_t *crc_out)
{
    uint32_t crc = slog_crc32c(slog_crc32c(0, a, na), b, nb);
    uint8_t hdr[SLOG_BLOCK_HEADER_SIZE];
    memcpy(hdr, tag, 4);
    put_u32le(hdr + 4, crc);
    put_u64le(hdr + 8, (uint64_t)(na + nb));
    buf_put(&w->out, hdr, sizeof hdr);
    buf_put(&w->out, a, na);
    if (crc_out) *crc_out = crc;
    /* A leaf's body is about 100 KiB: written from where it lies, it is
     * not copied, and the buffer needs no room for it. */
    if (nb >= OUT_DIRECT) return flush_out_with(w, b, nb);
    buf_put(&w->out, b, nb);
    if (w->out.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "output buffer");
    return w->out.len >= OUT_FLUSH ? flush_out(w) : SLOG_OK;
}

/* ------------------------------------------------------------------ open */

const char *slog_rename_target_problem(const char *path)
{
    struct stat there;
    if (!path || lstat(path, &there) != 0 || S_ISREG(there.st_mode) || S_ISLNK(there.st_mode)) return NULL;
    return S_ISDIR(there.st_mode) ? "a directory" : "not a regular file";
}

slog_status slog_writer_open(slog_writer **out, const char *path, const slog_writer_options *opt, slog_error *err)
{
    *out = NULL;
    slog_clear_error(err);
    if (!path || !*path) return slog_set_error(err, SLOG_ERR_ARG, path, SLOG_NO_OFFSET, "empty path");
    /* The file is renamed over path at finish: say now, not after hours of
     * writing, that a directory cannot be replaced, and never replace a
     * device (as root, -o /dev/null would turn it into a regular file). */
    const char *problem = slog_rename_target_problem(path);
    if (problem)
        return slog_set_error(err, SLOG_ERR_IO, path, SLOG_NO_OFFSET,
                              "exists and is %s; the output is renamed into place, so it must be a regular file "
                              "or a new name",
                              problem);
    slog_writer *w = calloc(1, sizeof *w);
    if (!w) return slog_set_error(err, SLOG_ERR_NOMEM, path, SLOG_NO_OFFSET, "writer");
    w->fd = -1;
    if (opt)
        w->opt = *opt;
    else
        slog_writer_options_init(&w->opt);
    if (!w->opt.preview_bins) w->opt.preview_bins = DEFAULT_BINS;
    if (!w->opt.preview_min_subtree) w->opt.preview_min_subtree = DEFAULT_PREVIEW_MIN;
    if (w->opt.preview_bins > SLOG_MAX_BINS || (w->opt.preview_bins & 1) || w->opt.leaf_shift > 62 ||
        w->opt.leaf_shift < -1) {
        free(w);
        return slog_set_error(err, SLOG_ERR_ARG, path, SLOG_NO_OFFSET,
                              "preview_bins must be even and <= 4096, leaf_shift -1..62");
    }
    if (w->opt.overview_level >= SLOG_MAX_LEVELS ||
        (w->opt.preview_level >= SLOG_MAX_LEVELS && w->opt.preview_level != SLOG_PREVIEW_NONE)) {
        free(w);
        return slog_set_error(err, SLOG_ERR_ARG, path, SLOG_NO_OFFSET,
                              "preview_level must be below 64 or SLOG_PREVIEW_NONE, overview_level below 64");
    }
    uint32_t bt = w->opt.block_timelines, gt = w->opt.group_timelines;
    if ((bt & (bt - 1)) || bt > SLOG_MAX_BLOCK_TIMELINES || (gt & (gt - 1)) || gt > SLOG_MAX_BLOCK_TIMELINES) {
        free(w);
        return slog_set_error(err, SLOG_ERR_ARG, path, SLOG_NO_OFFSET,
                              "block_timelines and group_timelines must be 0 or powers of two up to 65536");
    }
    w->shift = w->opt.leaf_shift;
    prev_init(&w->leaf_prev, w->opt.preview_bins);
    w->leaf_prev.first_rows = 16; /* a batch sees a lane of ranks, not all */
    /* One accumulator, not one per open level: a direct table of up to
     * LEAF_DIRECT_MAX cells (a lane of thousands of ranks), where a tree
     * node's default would hash every row of such a batch. */
    w->leaf_prev.direct_max = LEAF_DIRECT_MAX;
    w->t_min = INT64_MAX;
    w->t_max = INT64_MIN;
    w->min_hi = INT64_MAX;
    w->floor = INT64_MIN;
    w->path = dup_str(path);
    size_t n = strlen(path) + 16;
    w->tmp_path = malloc(n);
    if (!w->path || !w->tmp_path) {
        slog_writer_abort(w);
        return slog_set_error(err, SLOG_ERR_NOMEM, path, SLOG_NO_OFFSET, "writer");
    }
    snprintf(w->tmp_path, n, "%s.tmp.XXXXXX", path);
    w->fd = mkstemp(w->tmp_path);
    if (w->fd < 0) {
        slog_set_error(err, SLOG_ERR_IO, path, SLOG_NO_OFFSET, "cannot create temporary file %s: %s", w->tmp_path,
                       strerror(errno));
        free(w->tmp_path);
        w->tmp_path = NULL;
        slog_writer_abort(w);
        return err ? err->status : SLOG_ERR_IO;
    }
    fchmod(w->fd, 0644);
    w->dir_spill = tmpfile();
    if (!w->dir_spill) {
        slog_set_error(err, SLOG_ERR_IO, path, SLOG_NO_OFFSET, "tmpfile: %s", strerror(errno));
        slog_writer_abort(w);
        return SLOG_ERR_IO;
    }
    /* Placeholder header, patched by finish. */
    uint8_t zero[SLOG_HEADER_SIZE] = {0};
    buf_put(&w->out, zero, sizeof zero);
    slog_clear_error(&w->err);
    *out = w;
    return SLOG_OK;
}

/* ------------------------------------------------------- metadata entries */

/* The open nodes' previews learn the new number of timelines or categories
 * now, so placing a drawable need not ask (a node opened later learns it
 * then). */
static void tree_dims_changed(const slog_writer *w, tree *t)
{
    if (!t || t->base == SLOG_PREVIEW_NONE) return; /* its nodes keep no bins */
    uint32_t first, n;
    tree_dims(w, t, &first, &n);
    for (uint32_t l = 0; l < t->n_levels; l++)
        for (uint32_t i = 0; i < t->levels[l].n_open; i++) {
            open_node *o = t->levels[l].open[i];
            prev_set_dims(&o->prev, first, n, w->n_cats);
        }
}

static void dims_changed(slog_writer *w, bool categories)
{
    if (categories)
        for (uint32_t i = 0; i < w->n_blocks; i++) tree_dims_changed(w, w->blocks[i]);
    tree_dims_changed(w, w->ov);
}

static uint32_t log2_of(uint32_t pow2)
{
    uint32_t k = 0;
    while ((1u << k) < pow2) k++;
    return k;
}

/* Blocks and overview groups are fixed when the first drawable is placed
 * or the first batch made: from the options, or from the timelines known
 * then (or expected, if more). */
static void fix_geometry(slog_writer *w)
{
    if (w->geometry_fixed) return;
    uint32_t n = w->opt.expected_timelines > w->n_tls ? w->opt.expected_timelines : w->n_tls;
    uint32_t tb = w->opt.block_timelines ? w->opt.block_timelines : slog_block_timelines_for(n);
    uint32_t g = w->opt.group_timelines ? w->opt.group_timelines : slog_group_timelines_for(n);
    w->tb_shift = log2_of(tb);
    w->g_shift = log2_of(g);
    w->geometry_fixed = true;
    if (g > 1) {
        w->ov = tree_new(w, SLOG_TREE_OVERVIEW);
        if (!w->ov) fail(w, SLOG_ERR_NOMEM, "%s", "overview tree");
    }
}

slog_status slog_writer_add_category(slog_writer *w, const slog_category *cat, uint32_t *id)
{
    if (!cat || cat->kind > SLOG_KIND_EVENT || cat->n_fields > SLOG_MAX_FIELDS ||
        (cat->n_fields && (!cat->field_names || !cat->field_types)))
        return fail(w, SLOG_ERR_ARG, "%s", "invalid category");
    for (uint32_t i = 0; i < cat->n_fields; i++)
        if (cat->field_types[i] > SLOG_FIELD_DURATION) return fail(w, SLOG_ERR_ARG, "%s", "invalid field type");
    if (w->n_cats == w->cap_cats) {
        uint32_t cap = w->cap_cats ? w->cap_cats * 2 : 32;
        cat_entry *c = realloc(w->cats, cap * sizeof *c);
        if (!c) return fail(w, SLOG_ERR_NOMEM, "%s", "categories");
        w->cats = c;
        bool *s = realloc(w->cat_is_state, cap * sizeof *s);
        if (!s) return fail(w, SLOG_ERR_NOMEM, "%s", "categories");
        w->cat_is_state = s;
        w->cap_cats = cap;
    }
    cat_entry *e = &w->cats[w->n_cats];
    memset(e, 0, sizeof *e);
    e->c.kind = cat->kind;
    e->c.rgba = cat->rgba;
    e->c.n_fields = cat->n_fields;
    e->c.name = dup_str(cat->name);
    e->c.group = dup_str(cat->group);
    char **names = calloc(cat->n_fields + 1, sizeof *names);
    uint8_t *types = calloc(cat->n_fields + 1, 1);
    bool ok = e->c.name && e->c.group && names && types;
    for (uint32_t i = 0; ok && i < cat->n_fields; i++) {
        names[i] = dup_str(cat->field_names[i]);
        types[i] = cat->field_types[i];
        ok = names[i] != NULL;
    }
    e->c.field_names = (const char *const *)names;
    e->c.field_types = types;
    w->cat_is_state[w->n_cats] = cat->kind == SLOG_KIND_STATE;
    w->n_cats++; /* counted even on failure so abort frees it */
    dims_changed(w, true);
    if (!ok) return fail(w, SLOG_ERR_NOMEM, "%s", "category strings");
    if (id) *id = w->n_cats - 1;
    return SLOG_OK;
}

slog_status slog_writer_add_timeline(slog_writer *w, const slog_timeline *tl, uint32_t *id)
{
    if (!tl) return fail(w, SLOG_ERR_ARG, "%s", "invalid timeline");
    if (w->n_tls == w->cap_tls) {
        uint32_t cap = w->cap_tls ? w->cap_tls * 2 : 64;
        tl_entry *t = realloc(w->tls, cap * sizeof *t);
        if (!t) return fail(w, SLOG_ERR_NOMEM, "%s", "timelines");
        w->tls = t;
        w->cap_tls = cap;
    }
    tl_entry *e = &w->tls[w->n_tls++];
    dims_changed(w, false);
    e->t.rank = tl->rank;
    e->t.thread = tl->thread;
    e->t.label = dup_str(tl->label);
    e->t.group = dup_str(tl->group);
    if (!e->t.label || !e->t.group) return fail(w, SLOG_ERR_NOMEM, "%s", "timeline strings");
    if (id) *id = w->n_tls - 1;
    return SLOG_OK;
}

slog_status slog_writer_add_annotation(slog_writer *w, const char *key, const char *value)
{
    if (!key) return fail(w, SLOG_ERR_ARG, "%s", "annotation key is NULL");
    buf_put_str(&w->annotations, key);
    buf_put_str(&w->annotations, value ? value : "");
    if (w->annotations.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "annotations");
    w->n_annotations++;
    return SLOG_OK;
}

/* ------------------------------------------------------------ tree nodes */

static slog_status spill_dirent(slog_writer *w, const tree *t, uint32_t level, const open_node *n, uint32_t count,
                                uint8_t flags, uint64_t node_off, uint32_t node_size, uint32_t node_crc,
                                uint64_t prev_off, uint32_t prev_size, uint32_t prev_crc, uint32_t summ_size)
{
    uint8_t e[SLOG_DIRENT_SIZE] = {0};
    e[DIRENT_LEVEL] = (uint8_t)level;
    e[DIRENT_FLAGS] =
        (uint8_t)(flags | (prev_off ? SLOG_DIRENT_HAS_PREVIEW : 0) | (summ_size ? SLOG_DIRENT_HAS_SUMMARY : 0));
    put_u32le(e + DIRENT_SUMM_SIZE, summ_size);
    put_u32le(e + DIRENT_N_DRAWABLES, count);
    put_u64le(e + DIRENT_INDEX, n->index);
    put_u64le(e + DIRENT_NODE_OFF, node_off);
    put_u32le(e + DIRENT_NODE_SIZE, node_size);
    put_u32le(e + DIRENT_NODE_CRC, node_crc);
    put_u64le(e + DIRENT_N_SUBTREE, n->n_subtree);
    put_u64le(e + DIRENT_PREV_OFF, prev_off);
    put_u32le(e + DIRENT_PREV_SIZE, prev_size);
    put_u32le(e + DIRENT_PREV_CRC, prev_crc);
    put_u32le(e + DIRENT_TREE, t->id);
    if (fwrite(e, sizeof e, 1, w->dir_spill) != 1) return fail(w, SLOG_ERR_IO, "directory spill: %s", strerror(errno));
    w->n_nodes++;
    return SLOG_OK;
}

/* ------------------------------------------------------------ open nodes */

/* Node bounds, clamped to TIME_LIMIT: no time reaches it. */
static int64_t node_bound(uint32_t s, uint64_t k)
{
    if (s >= 63) return k ? TIME_LIMIT : 0;
    return k > (uint64_t)(TIME_LIMIT >> s) ? TIME_LIMIT : (int64_t)(k << s);
}

static int64_t node_lo(const slog_writer *w, uint32_t level, uint64_t index)
{
    return node_bound((uint32_t)w->shift + level, index);
}

static int64_t node_hi(const slog_writer *w, uint32_t level, uint64_t index)
{
    return node_bound((uint32_t)w->shift + level, index + 1);
}

static void tree_update_min_hi(tree *t)
{
    int64_t m = INT64_MAX;
    for (uint32_t l = 0; l < t->n_levels; l++)
        if (t->levels[l].n_open && t->levels[l].open[0]->hi < m) m = t->levels[l].open[0]->hi;
    t->min_hi = m;
}

static void update_min_hi(slog_writer *w)
{
    int64_t m = w->ov ? w->ov->min_hi : INT64_MAX;
    for (uint32_t i = 0; i < w->n_blocks; i++)
        if (w->blocks[i] && w->blocks[i]->min_hi < m) m = w->blocks[i]->min_hi;
    w->min_hi = m;
}

/* Room for one more pointer in *v; false when out of memory. */
static bool grow_ptrs(open_node ***v, uint32_t *cap, uint32_t n)
{
    open_node **g = slog_grow(*v, cap, n, sizeof *g, 4);
    if (g) *v = g;
    return g != NULL;
}

static tree *tree_new(const slog_writer *w, uint32_t id)
{
    tree *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->id = id;
    t->base = id == SLOG_TREE_OVERVIEW ? w->opt.overview_level : w->opt.preview_level;
    /* No level reaches past 2^62 ns (the reader refuses such nodes). */
    if (t->base != SLOG_PREVIEW_NONE && t->base > 62u - (uint32_t)w->shift) t->base = 62u - (uint32_t)w->shift;
    t->keep = t->base;
    if (id == SLOG_TREE_OVERVIEW) {
        /* Previews from a few levels lower, kept where a busy stretch
         * pays for them: overview_level follows the trace's mean density,
         * and a burst (all ranks at once after a long, quiet start) is
         * many times denser, so that a picture of it zoomed in would read
         * every timeline's records. */
        uint32_t fine = w->opt.overview_fine_levels == SLOG_OVERVIEW_FINE_NONE ? 0
                        : w->opt.overview_fine_levels                          ? w->opt.overview_fine_levels
                                                                               : OV_FINE_LEVELS;
        t->base -= fine < t->base ? fine : t->base;
    }
    t->min_hi = INT64_MAX;
    return t;
}

/* The tree of block k, made if there is none; NULL when out of memory. */
static tree *block_tree(slog_writer *w, uint32_t k)
{
    if (k < w->n_blocks && w->blocks[k]) return w->blocks[k];
    if (k >= w->cap_blocks) {
        uint32_t cap = w->cap_blocks ? w->cap_blocks : 16;
        while (cap <= k) cap *= 2;
        tree **b = realloc(w->blocks, (size_t)cap * sizeof *b);
        if (!b) return NULL;
        memset(b + w->cap_blocks, 0, (size_t)(cap - w->cap_blocks) * sizeof *b);
        w->blocks = b;
        w->cap_blocks = cap;
    }
    if (k >= w->n_blocks) w->n_blocks = k + 1;
    w->blocks[k] = tree_new(w, k);
    return w->blocks[k];
}

static inline uint32_t block_of(const slog_writer *w, uint32_t timeline)
{
    return timeline >> w->tb_shift;
}

/* The preview dimensions of t's nodes: a block's timelines, or the
 * overview's groups. */
static void tree_dims(const slog_writer *w, const tree *t, uint32_t *first, uint32_t *n)
{
    if (t->id == SLOG_TREE_OVERVIEW) {
        *first = 0;
        *n = w->n_tls ? ((w->n_tls - 1) >> w->g_shift) + 1 : 1;
    } else {
        *first = t->id << w->tb_shift;
        *n = 1u << w->tb_shift;
    }
}

/* Open node (level, index) of t, made if there is none; NULL when out of
 * memory. Drawables in end order find theirs at the end of the level. */
static open_node *node_get(slog_writer *w, tree *t, uint32_t level, uint64_t index)
{
    level_nodes *lv = &t->levels[level];
    uint32_t at = lv->n_open;
    if (at && lv->open[at - 1]->index == index) return lv->open[at - 1];
    while (at && lv->open[at - 1]->index > index) at--;
    if (at && lv->open[at - 1]->index == index) return lv->open[at - 1];
    if (!grow_ptrs(&lv->open, &lv->cap_open, lv->n_open)) return NULL;
    open_node *n;
    if (lv->n_spare) {
        n = lv->spare[--lv->n_spare];
    } else {
        n = calloc(1, sizeof *n);
        if (!n) return NULL;
        /* The overview's rows are groups of all the timelines, and above
         * its base most of them touch a few of a node's bins (the calls
         * of one kind in a phase): bins in chunks made where touched. A
         * block's rows are its own timelines', mostly busy over the whole
         * node, where chunks would cost more than dense rows. */
        if (t->id == SLOG_TREE_OVERVIEW)
            prev_init_chunked(&n->prev, w->opt.preview_bins);
        else
            prev_init(&n->prev, w->opt.preview_bins);
    }
    n->index = index;
    n->lo = node_lo(w, level, index);
    n->hi = node_hi(w, level, index);
    n->prev_start = n->lo;
    n->n_drawables = 0;
    n->n_subtree = 0;
    n->body.len = 0;
    n->kids = n->ov_left = 0;
    msgs_reset(&n->msgs);
    slog_summ_reset(&n->summ);
    if (t->base != SLOG_PREVIEW_NONE) { /* else no table of rows to size */
        uint32_t first, count;
        tree_dims(w, t, &first, &count);
        prev_set_dims(&n->prev, first, count, w->n_cats);
    }
    memmove(lv->open + at + 1, lv->open + at, (size_t)(lv->n_open - at) * sizeof *lv->open);
    lv->open[at] = n;
    lv->n_open++;
    if (level + 1 > t->n_levels) t->n_levels = level + 1;
    if (n->hi < t->min_hi) t->min_hi = n->hi;
    if (n->hi < w->min_hi) w->min_hi = n->hi;
    return n;
}

static void node_free(open_node *n)
{
    buf_free(&n->body);
    prev_free(&n->prev);
    slog_summ_free(&n->summ);
    msgs_free(&n->msgs);
    free(n);
}

static void tree_free(tree *t)
{
    if (!t) return;
    for (int l = 0; l < SLOG_MAX_LEVELS; l++) {
        level_nodes *lv = &t->levels[l];
        for (uint32_t i = 0; i < lv->n_open; i++) node_free(lv->open[i]);
        for (uint32_t i = 0; i < lv->n_spare; i++) node_free(lv->spare[i]);
        free(lv->open);
        free(lv->spare);
    }
    free(t);
}

/* A preview is worth its bytes only where it summarises many drawables:
 * at most PREVIEW_BUDGET bytes per drawable of the subtree. Above such a
 * node previews saturate (rows x bins) while subtrees double, so all
 * previews of a tree together cost under 2 x PREVIEW_BUDGET bytes per
 * drawable. */
static bool preview_pays(const slog_writer *w, const open_node *n)
{
    return n->n_subtree >= w->opt.preview_min_subtree && prev_estimate(&n->prev) <= PREVIEW_BUDGET * n->n_subtree;
}

/* An overview node below its keep level is worth writing where its
 * preview (and its own records, when a child of it is written) costs at
 * most OV_FINE_BUDGET bytes a drawable of its subtree: there the
 * picture of a zoomed window reads it instead of every timeline's records
 * (a few bytes each); a sparse stretch's are few and read from the
 * blocks. */
static bool ov_fine_pays(const slog_writer *w, const open_node *n)
{
    /* with a child in the overview, its own records are written too */
    uint64_t own = n->kids ? n->body.len : 0;
    return n->n_subtree >= w->opt.preview_min_subtree && prev_estimate(&n->prev) + own <= OV_FINE_BUDGET * n->n_subtree;
}

/* The preview block of node n of t at `level`, when it has one: the
 * overview's nodes at or above its base always do; a block's where it
 * pays. */
static slog_status put_preview(slog_writer *w, const tree *t, uint32_t level, const open_node *n, bool all_own,
                               const uint8_t fixed[16], uint64_t *off, uint32_t *size, uint32_t *crc)
{
    bool overview = t->id == SLOG_TREE_OVERVIEW;
    *off = 0;
    *size = *crc = 0;
    if (n->prev.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "preview");
    if (!overview && (level < t->base || !preview_pays(w, n))) return SLOG_OK;
    slog_buf pb = {0};
    buf_put(&pb, fixed, 16);
    prev_encode(&n->prev, w->cat_is_state, overview, &pb);
    if (overview) {
        /* What was previewed at the node itself, for a reader that goes on
         * to its children: everything where no child is in the overview
         * (the base level, or children whose previews did not pay);
         * else the drawables that cross the middle, as records in a block
         * of their own (close_node). */
        buf_put_u8(&pb, all_own ? OWN_ALL : OWN_BLOCK);
    }
    if (pb.failed) {
        buf_free(&pb);
        return fail(w, SLOG_ERR_NOMEM, "%s", "preview block");
    }
    *off = out_offset(w);
    slog_status st = put_block(w, SLOG_TAG_PREVIEW, pb.data, pb.len, NULL, 0, crc);
    *size = (uint32_t)(SLOG_BLOCK_HEADER_SIZE + pb.len);
    buf_free(&pb);
    return st;
}

/* Summaries pay at SUMMARY_DRAWABLES_PER_BYTE (a block's root at
 * ROOT_SUMMARY_DRAWABLES_PER_BYTE), scaled with slog_writer_options.preview_min_subtree against its
 * default, so that one option sets how dense both aids are (tests ask for
 * them on small subtrees). */
static bool summary_pays(const slog_writer *w, uint64_t size, uint64_t n_subtree, bool root)
{
    double per_byte = (root ? ROOT_SUMMARY_DRAWABLES_PER_BYTE : SUMMARY_DRAWABLES_PER_BYTE) *
                      (double)w->opt.preview_min_subtree / DEFAULT_PREVIEW_MIN;
    return n_subtree >= w->opt.preview_min_subtree && (double)size * per_byte <= (double)n_subtree;
}

/* Node n's summary (summary.h): made for every node of a block's tree,
 * written after its node and preview blocks where it pays (the same
 * budget as previews, docs/FORMAT.md "Summary block"); *size 0 if not.
 * Encoded into w->summ_enc where it may pay, or for a left child (left):
 * its parent holds it so, copied to the bytes' size (encoded there, it
 * grew its room by doubling). */
static slog_status put_summary(slog_writer *w, uint32_t level, open_node *n, const uint8_t fixed[16], bool left,
                               bool root, uint32_t *size)
{
    *size = 0;
    if (w->n_summ_cats != w->n_cats) {
        int *bf = realloc(w->summ_bytes_field, ((size_t)w->n_cats + 1) * sizeof *bf);
        if (!bf) return fail(w, SLOG_ERR_NOMEM, "%s", "summary");
        w->summ_bytes_field = bf;
        for (uint32_t k = 0; k < w->n_cats; k++) {
            bf[k] = -1;
            for (uint32_t f = 0; f < w->cats[k].c.n_fields && bf[k] < 0; f++)
                if (w->cats[k].c.field_types[f] == SLOG_FIELD_BYTES) bf[k] = (int)f;
        }
        w->n_summ_cats = w->n_cats;
    }
    slog_summ_cats cats = {w->n_cats, w->cat_is_state, w->summ_bytes_field};
    slog_summ_close(&n->summ, &w->summ_scratch, level, n->body.data, n->body.len, n->n_drawables, n->lo, n->hi, &cats);
    if (n->summ.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "summary");
    slog_buf *b = &w->summ_enc;
    b->len = 0;
    bool may_pay = summary_pays(w, slog_summ_estimate(&n->summ), n->n_subtree, root);
    if (!may_pay && !left) return SLOG_OK;
    slog_summ_encode(&n->summ, fixed, n->lo, b);
    if (b->failed) return fail(w, SLOG_ERR_NOMEM, "%s", "summary block");
    if (!may_pay || !summary_pays(w, b->len, n->n_subtree, root)) return SLOG_OK;
    uint32_t crc;
    *size = (uint32_t)(SLOG_BLOCK_HEADER_SIZE + b->len);
    return put_block(w, SLOG_TAG_SUMMARY, b->data, b->len, NULL, 0, &crc);
}

/* An overview node's message block (docs/FORMAT.md "Message block"),
 * after its preview block, where its subtree holds messages: their pairs
 * of groups where they pay (MSGS_BUDGET), and its own messages where it
 * is passed through (a reader splitting it into slices needs their
 * times). *size 0 without one. */
static slog_status put_messages(slog_writer *w, uint32_t level, open_node *n, bool all_own, uint32_t *size)
{
    *size = 0;
    msgs_acc *m = &n->msgs;
    if (m->failed) return fail(w, SLOG_ERR_NOMEM, "%s", "message counts");
    if (!m->pairs.n) return SLOG_OK; /* no block: no message in the subtree */
    /* the budget scaled with preview_min_subtree, as summary_pays does */
    bool pairs = (double)msgs_pairs_estimate(m) * w->opt.preview_min_subtree <=
                 MSGS_BUDGET * DEFAULT_PREVIEW_MIN * (double)n->n_subtree;
    if (all_own) m->n_own = 0;
    slog_buf b = {0};
    msgs_encode(m, pairs, level, n->index, n->lo, &b);
    if (b.failed) {
        buf_free(&b);
        return fail(w, SLOG_ERR_NOMEM, "%s", "message block");
    }
    if (b.len > SLOG_MAX_BLOCK) {
        buf_free(&b);
        return fail(w, SLOG_ERR_LIMIT, "%s", "message block over 2 GiB");
    }
    uint32_t crc;
    *size = (uint32_t)(SLOG_BLOCK_HEADER_SIZE + b.len);
    slog_status st = put_block(w, SLOG_TAG_MESSAGES, b.data, b.len, NULL, 0, &crc);
    buf_free(&b);
    return st;
}

/* d's record at the end of block node n's body; false when out of memory.
 * Keeps where the first record's start delta lies (node_absorb). */
static bool node_put(open_node *n, const slog_drawable *d, uint8_t head_bits)
{
    size_t at = n->body.len;
    size_t delta_at = slog_encode_drawable(&n->body, d, &n->prev_start);
    if (n->body.failed) return false;
    n->body.data[at] |= head_bits;
    if (!at) {
        n->first_delta_at = delta_at;
        n->first_start = d->start;
    }
    return true;
}

/* Append encoded records (len bytes at rec, their first start delta at
 * first_delta_at, taken from another start) to n's body: that delta is
 * rewritten from n's last record (one varint), the rest copied as it is.
 * False when out of memory. */
static bool append_records(open_node *n, const uint8_t *rec, size_t len, size_t first_delta_at, int64_t first_start,
                           int64_t last_start)
{
    if (!len) return true;
    size_t at = first_delta_at, old_end = at;
    while (rec[old_end] & 0x80) old_end++;
    old_end++;
    if (!buf_reserve(&n->body, len + 10)) return false;
    if (!n->body.len) {
        n->first_delta_at = at;
        n->first_start = first_start;
    }
    uint8_t *q = n->body.data + n->body.len;
    memcpy(q, rec, at);
    q = put_uvar(q + at, zigzag_encode(first_start - n->prev_start));
    memcpy(q, rec + old_end, len - old_end);
    n->body.len = (size_t)(q - n->body.data) + (len - old_end);
    n->prev_start = last_start;
    return true;
}

/* The records of c, a child of p that is not written, into p's body. */
static bool node_absorb(open_node *p, const open_node *c)
{
    return append_records(p, c->body.data, c->body.len, c->first_delta_at, c->first_start, c->prev_start);
}

/* Write node n of t on `level`: a block's records, or an overview node's
 * own records when it is passed through; its preview and summary; its
 * directory entry. all_own: an overview node with nothing below it in the
 * overview. */
static slog_status write_node(slog_writer *w, const tree *t, uint32_t level, open_node *n, bool is_root, bool all_own,
                              bool summed)
{
    bool overview = t->id == SLOG_TREE_OVERVIEW;
    /* An overview node that previews all of its subtree counts it all as
     * its own; one passed through says which children it left out. */
    if (all_own && n->n_subtree > UINT32_MAX) return fail(w, SLOG_ERR_LIMIT, "%s", "overview node over 2^32 drawables");
    uint32_t count = all_own ? (uint32_t)n->n_subtree : n->n_drawables;
    uint8_t flags = overview && !all_own ? n->ov_left : 0;
    uint8_t fixed[16] = {0};
    fixed[0] = (uint8_t)level;
    put_u32le(fixed + 4, overview ? 0 : n->n_drawables);
    put_u64le(fixed + 8, n->index);
    slog_status st;
    uint64_t node_off = 0, prev_off = 0;
    uint32_t node_crc = 0, node_size = 0, prev_size = 0, prev_crc = 0, summ_size = 0;
    if (!overview) {
        node_off = out_offset(w);
        if (n->body.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "node buffer");
        if (n->body.len + 16 > SLOG_MAX_BLOCK) return fail(w, SLOG_ERR_LIMIT, "%s", "node block over 2 GiB");
        if ((st = put_block(w, SLOG_TAG_NODE, fixed, 16, n->body.data, n->body.len, &node_crc))) return st;
        node_size = (uint32_t)(SLOG_BLOCK_HEADER_SIZE + 16 + n->body.len);
    } else if (!all_own && n->n_drawables) {
        /* The drawables that cross the middle, exact whatever the bins
         * (few: they cross it), apart from the preview: a reader that
         * goes on to the children reads these and not the rows. */
        uint8_t own_fixed[16];
        memcpy(own_fixed, fixed, sizeof own_fixed);
        put_u32le(own_fixed + 4, n->n_drawables);
        node_off = out_offset(w);
        if (n->body.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "own records");
        if (n->body.len + 16 > SLOG_MAX_BLOCK) return fail(w, SLOG_ERR_LIMIT, "%s", "own records over 2 GiB");
        if ((st = put_block(w, SLOG_TAG_OWN, own_fixed, 16, n->body.data, n->body.len, &node_crc))) return st;
        node_size = (uint32_t)(SLOG_BLOCK_HEADER_SIZE + 16 + n->body.len);
    }
    if ((st = put_preview(w, t, level, n, all_own, fixed, &prev_off, &prev_size, &prev_crc))) return st;
    bool left = !is_root && !(n->index & 1); /* its parent holds its summary encoded */
    if (summed && (st = put_summary(w, level, n, fixed, left, is_root, &summ_size))) return st;
    if (overview && (st = put_messages(w, level, n, all_own, &summ_size))) return st;
    if ((st = spill_dirent(w, t, level, n, count, flags, node_off, node_size, node_crc, prev_off, prev_size, prev_crc,
                           summ_size)))
        return st;
    if (overview) {
        if (level + 1 > w->ov_depth) w->ov_depth = level + 1;
    } else if (level + 1 > w->depth) {
        w->depth = level + 1;
    }
    return SLOG_OK;
}

/* Block nodes below this level may leave their records to their parents
 * (SMALL_NODE): none leaves a subtree rooted on a level where a reader of
 * the overview may read the blocks' subtrees instead (from one below the
 * overview's lowest level up, docs/FORMAT.md "Folding timelines into
 * rows"), so that such a subtree still holds all of its drawables. */
static uint32_t small_levels(const slog_writer *w)
{
    if (!w->ov) return SLOG_MAX_LEVELS;
    return w->ov->base;
}

/* Write the first open node of level L of t (write_node; below the
 * overview's keep level only where it pays), merge it into its parent
 * (made if needed) unless it is the root. */
static slog_status close_node(slog_writer *w, tree *t, uint32_t level, bool is_root)
{
    level_nodes *lv = &t->levels[level];
    open_node *n = lv->open[0];
    slog_status st;
    bool overview = t->id == SLOG_TREE_OVERVIEW;
    /* Below the overview's keep level a node is written where it pays;
     * else its parent's preview holds it and readers go to the blocks.
     * One with a child written is written too, whatever it costs: readers
     * reach the overview's nodes from its root. */
    bool summed = !overview && ((uint64_t)t->id + 1) << w->tb_shift > w->opt.no_summaries_below;
    bool written = overview
                       ? level >= t->keep || is_root || n->kids || ov_fine_pays(w, n)
                       : is_root || n->kids || summed || n->n_drawables >= SMALL_NODE || level + 2 > small_levels(w);
    /* Nothing of the subtree below it in the overview: its preview is all
     * (the base level; or no child written and one left out). */
    bool all_own = overview && (level == t->base || (!n->kids && n->ov_left));
    bool left = !is_root && !(n->index & 1); /* its parent holds its summary encoded */
    if (written && (st = write_node(w, t, level, n, is_root, all_own, summed))) return st;
    if (!is_root) {
        if (level + 1 >= SLOG_MAX_LEVELS) return fail(w, SLOG_ERR_LIMIT, "%s", "tree deeper than 64 levels");
        open_node *p = node_get(w, t, level + 1, n->index >> 1);
        if (!p) return fail(w, SLOG_ERR_NOMEM, "%s", "tree node");
        p->n_subtree += n->n_subtree;
        if (written) p->kids |= (uint8_t)(1u << (n->index & 1));
        if (overview) {
            if (!written) p->ov_left |= n->index & 1 ? SLOG_DIRENT_OV_LEFT1 : SLOG_DIRENT_OV_LEFT0;
            msgs_merge(&p->msgs, &n->msgs);
        } else if (!written) {
            if (!node_absorb(p, n)) return fail(w, SLOG_ERR_NOMEM, "%s", "node buffer");
            p->n_drawables += n->n_drawables;
        }
        if (n->prev.n_rows) prev_merge_child(&p->prev, &n->prev, (unsigned)(n->index & 1), w->cat_is_state);
        if (summed) { /* a left child's summary was encoded by put_summary */
            if (left)
                slog_summ_merge_left_encoded(&p->summ, &n->summ, level, n->index, n->lo, n->hi, &w->summ_enc);
            else
                slog_summ_merge_child(&p->summ, &n->summ, 1, level, n->index, n->lo, n->hi, true);
        }
    }
    /* A node of the overview above its base keeps a row for nearly every
     * (group, category), and its level opens a node once per 2^(level -
     * base) of the base's: a spare there would hold its rows for a long
     * time for little reuse (at thousands of timelines, a third of the
     * overview's memory). */
    if (overview && level > t->base) {
        prev_free(&n->prev);
        msgs_free(&n->msgs);
    } else {
        prev_reset(&n->prev);
    }
    if (grow_ptrs(&lv->spare, &lv->cap_spare, lv->n_spare))
        lv->spare[lv->n_spare++] = n;
    else
        node_free(n);
    lv->n_open--;
    memmove(lv->open, lv->open + 1, (size_t)lv->n_open * sizeof *lv->open);
    return SLOG_OK;
}

/* Write every open node of t below level `below` that ends at or before
 * upto, in order of their end, then level (a parent made by a child's close
 * may end there too): the same order however far each call moves upto. */
static slog_status close_below(slog_writer *w, tree *t, int64_t upto, uint32_t below)
{
    for (;;) {
        int64_t h = INT64_MAX;
        for (uint32_t l = 0; l < t->n_levels && l < below; l++)
            if (t->levels[l].n_open && t->levels[l].open[0]->hi < h) h = t->levels[l].open[0]->hi;
        if (h > upto || h == INT64_MAX) break;
        for (uint32_t l = 0; l < t->n_levels && l < below; l++)
            while (t->levels[l].n_open && t->levels[l].open[0]->hi == h) {
                slog_status st = close_node(w, t, l, false);
                if (st) return st;
            }
    }
    tree_update_min_hi(t);
    return SLOG_OK;
}

/* Every tree's nodes that end at or before upto, the blocks' in block
 * order, then the overview's; nothing to do is the common case. */
static slog_status close_upto(slog_writer *w, int64_t upto)
{
    if (w->min_hi > upto) return SLOG_OK;
    for (uint32_t i = 0; i < w->n_blocks; i++) {
        tree *t = w->blocks[i];
        slog_status st;
        if (t && t->min_hi <= upto && (st = close_below(w, t, upto, SLOG_MAX_LEVELS))) return st;
    }
    if (w->ov && w->ov->min_hi <= upto) {
        slog_status st = close_below(w, w->ov, upto, SLOG_MAX_LEVELS);
        if (st) return st;
    }
    update_min_hi(w);
    return SLOG_OK;
}

size_t slog_encode_drawable(slog_buf *b, const slog_drawable *d, int64_t *prev_start)
{
    if (!buf_reserve(b, SLOG_RECORD_MAX)) return 0;
    uint8_t *delta_at;
    uint8_t *p = slog_record_put(b->data + b->len, d, *prev_start, &delta_at);
    *prev_start = d->start;
    b->len = (size_t)(p - b->data);
    return (size_t)(delta_at - b->data);
}

/* The node of t that previews a drawable placed at (level, a): the node
 * itself, or its ancestor on t's base level. */
static open_node *preview_node(slog_writer *w, tree *t, uint32_t level, int64_t a, uint32_t *plevel)
{
    uint32_t l = level < t->base ? t->base : level;
    *plevel = l;
    return node_get(w, t, l, (uint64_t)a >> (w->shift + l));
}

/* The overview's share of d, placed at `level` (a: its earlier time). */
static slog_status overview_add(slog_writer *w, const slog_drawable *d, uint32_t level, int64_t a)
{
    uint32_t l;
    open_node *o = preview_node(w, w->ov, level, a, &l);
    if (!o) return fail(w, SLOG_ERR_NOMEM, "%s", "overview node");
    int64_t width = (int64_t)1 << (w->shift + l);
    uint32_t g = d->timeline >> w->g_shift;
    bool is_state = d->kind == SLOG_KIND_STATE;
    prev_add(&o->prev, o->lo, width, g, d->category, is_state, d->start, d->end);
    if (d->kind == SLOG_KIND_ARROW) {
        uint32_t rg = d->end_timeline >> w->g_shift;
        msgs_add(&o->msgs, g, rg);
        if (l > w->ov->base) msgs_add_own(&o->msgs, d->start, g, rg);
    }
    if (l > w->ov->base) {
        /* own record: group, category, start from the node's start, and
         * (states) duration: an arrow or event counts where it starts */
        if (buf_reserve(&o->body, 40)) {
            uint8_t *p = o->body.data + o->body.len;
            p = put_uvar(p, g);
            p = put_uvar(p, d->category);
            p = put_uvar(p, (uint64_t)(d->start - o->lo));
            p = put_uvar(p, is_state ? (uint64_t)(d->end - d->start) : 0);
            o->body.len = (size_t)(p - o->body.data);
        }
    }
    o->n_drawables++;
    o->n_subtree++;
    return SLOG_OK;
}

/* Put d (a and key: its earlier and later time) in the smallest node of
 * its block's tree holding it, an arrow also in its receiver's block's
 * (a mirror), and its preview into the block's and the overview's trees. */
static slog_status place_at(slog_writer *w, const slog_drawable *d, int64_t a, int64_t key)
{
    uint32_t level = slog_place_level((uint64_t)a, (uint64_t)key, w->shift);
    if (level >= SLOG_MAX_LEVELS) return fail(w, SLOG_ERR_LIMIT, "%s", "tree deeper than 64 levels");
    uint64_t index = (uint64_t)a >> (w->shift + level);
    tree *t = block_tree(w, block_of(w, d->timeline));
    open_node *n = t ? node_get(w, t, level, index) : NULL;
    if (!n) return fail(w, SLOG_ERR_NOMEM, "%s", "tree node");
    if (!node_put(n, d, 0)) return fail(w, SLOG_ERR_NOMEM, "%s", "node buffer");
    n->n_drawables++;
    n->n_subtree++;
    if (t->base != SLOG_PREVIEW_NONE) {
        uint32_t pl;
        open_node *p = level < t->base ? preview_node(w, t, level, a, &pl) : n;
        if (!p) return fail(w, SLOG_ERR_NOMEM, "%s", "tree node");
        pl = level < t->base ? t->base : level;
        prev_add(&p->prev, p->lo, (int64_t)1 << (w->shift + pl), d->timeline, d->category, d->kind == SLOG_KIND_STATE,
                 d->start, d->end);
    }
    if (d->kind == SLOG_KIND_ARROW && block_of(w, d->end_timeline) != t->id) {
        tree *m = block_tree(w, block_of(w, d->end_timeline));
        open_node *mn = m ? node_get(w, m, level, index) : NULL;
        if (!mn) return fail(w, SLOG_ERR_NOMEM, "%s", "tree node");
        if (!node_put(mn, d, SLOG_REC_MIRROR)) return fail(w, SLOG_ERR_NOMEM, "%s", "node buffer");
        mn->n_drawables++;
        mn->n_subtree++;
        w->n_mirrors++;
    }
    return w->ov ? overview_add(w, d, level, a) : SLOG_OK;
}

/* In end order: every node that ends at or before d's key is finished. */
static slog_status place(slog_writer *w, const slog_drawable *d, int64_t a, int64_t key)
{
    slog_status st = close_upto(w, key);
    return st ? st : place_at(w, d, a, key);
}

/* place() over d's own span. */
static slog_status place_drawable(slog_writer *w, const slog_drawable *d)
{
    int64_t a, key;
    slog_drawable_span(d, &a, &key);
    return place(w, d, a, key);
}

/* (timeline, category) pairs among the buffered drawables. */
static double distinct_rows(const slog_writer *w)
{
    uint64_t cells = (uint64_t)w->n_tls * w->n_cats;
    if (!cells || cells > (1ull << 27)) return 0;
    uint8_t *seen = calloc((size_t)(cells + 7) / 8, 1);
    if (!seen) return 0; /* only a hint */
    uint64_t n = 0;
    for (uint32_t i = 0; i < w->n_boot; i++) {
        uint64_t c = (uint64_t)w->boot[i].timeline * w->n_cats + w->boot[i].category;
        uint8_t bit = (uint8_t)(1u << (c & 7));
        n += !(seen[c >> 3] & bit);
        seen[c >> 3] |= bit;
    }
    free(seen);
    return (double)n;
}

static uint32_t pow2_at_least(uint64_t n)
{
    uint32_t p = 1;
    while (p < n && p < (1u << 31)) p *= 2;
    return p;
}

uint32_t slog_block_timelines_for(uint32_t n_timelines)
{
    uint32_t per = pow2_at_least(((uint64_t)n_timelines + OVERVIEW_ROWS - 1) / OVERVIEW_ROWS);
    per = per < MIN_BLOCK_TIMELINES ? MIN_BLOCK_TIMELINES : per;
    return per > SLOG_MAX_BLOCK_TIMELINES ? SLOG_MAX_BLOCK_TIMELINES : per;
}

uint32_t slog_group_timelines_for(uint32_t n_timelines)
{
    if (n_timelines <= OVERVIEW_ROWS) return 1;
    uint32_t per = pow2_at_least(((uint64_t)n_timelines + OVERVIEW_ROWS - 1) / OVERVIEW_ROWS);
    return per > SLOG_MAX_BLOCK_TIMELINES ? SLOG_MAX_BLOCK_TIMELINES : per;
}

int32_t slog_leaf_shift_for(double n, double span_ns, double n_rows, uint32_t leaf_drawables)
{
    if (!(n >= 1) || !(span_ns >= 1)) return 20;
    /* leaf_drawables 0: the default, and the rule for rows below */
    uint32_t per_leaf = leaf_drawables ? leaf_drawables : DEFAULT_LEAF_DRAWABLES;
    double target = (double)per_leaf * span_ns / n;
    if (!leaf_drawables) {
        /* Every (timeline, category) row a leaf touches costs a row of
         * bins in its preview and in each one above: a leaf holds at
         * least ROWS_PER_LEAF drawables per row seen so far. */
        double dense = n_rows * ROWS_PER_LEAF * span_ns / n;
        if (dense > target) target = dense;
    }
    int32_t shift = 0;
    while (shift < 40 && (double)(1ull << (shift + 1)) <= target) shift++;
    return shift;
}

int32_t slog_leaf_shift_for_trace(double n, double span_ns, double n_rows, uint32_t n_timelines)
{
    uint32_t per_block = slog_block_timelines_for(n_timelines);
    uint32_t blocks = n_timelines ? (uint32_t)(((uint64_t)n_timelines + per_block - 1) / per_block) : 1;
    if (blocks <= 1) return slog_leaf_shift_for(n, span_ns, n_rows, 0);
    /* Leaves are shared by the blocks: one block's leaf holds its share of
     * a leaf of the default size, so that a window that needs every
     * block's leaves reads about one default leaf, but no fewer than
     * MIN_BLOCK_LEAF drawables, whose node costs little next to them.
     * The rows rule is left to the preview base levels (close_node). */
    uint32_t per_leaf = DEFAULT_LEAF_DRAWABLES / blocks;
    per_leaf = per_leaf < MIN_BLOCK_LEAF ? MIN_BLOCK_LEAF : per_leaf;
    return slog_leaf_shift_for(n / blocks, span_ns, 0, per_leaf);
}

/* Bytes a preview row of a node costs at most: its head and a byte per bin
 * (states) with the default bins. */
#define ROW_BYTES (4 + DEFAULT_BINS)

void slog_preview_levels_for(double leaf_drawables, double n_drawables, double n_rows, uint32_t n_timelines,
                             uint32_t max_level, uint32_t *block_level, uint32_t *overview_level)
{
    uint32_t tb = slog_block_timelines_for(n_timelines), g = slog_group_timelines_for(n_timelines);
    double blocks = n_timelines > tb ? (double)n_timelines / tb : 1;
    double per_block = leaf_drawables / blocks, rows_block = n_rows / blocks, rows_ov = n_rows / g;
    /* With an overview the two trees share the budget: each would
     * otherwise spend it all, and previews were a third of the file at
     * thousands of timelines. Fewer levels with previews also hold fewer
     * open accumulators (rows x bins at each level above the base). */
    double budget = g > 1 ? PREVIEW_BUDGET / 2.0 : PREVIEW_BUDGET;
    uint32_t b = 0, o = 0;
    if (per_block > 0)
        while (b < 40 && (ldexp(per_block, (int)b) * budget < rows_block * ROW_BYTES ||
                          ldexp(per_block, (int)b) < DEFAULT_PREVIEW_MIN))
            b++;
    /* A block's root holds the block's share of the trace at most: when
     * even that share cannot pay for a preview of the block's rows, the
     * levels found above lie past the root, and every open level of
     * every block would keep bins for all of its rows (with thousands of
     * timelines of few drawables each, most of the writer's memory) for
     * previews that do not pay. A reader reads such a block's records. */
    double whole = n_drawables / blocks;
    if (n_drawables > 0 && (whole * budget < rows_block * ROW_BYTES || whole < DEFAULT_PREVIEW_MIN))
        b = SLOG_PREVIEW_NONE;
    else if (b > max_level)
        b = max_level;
    /* Each block's tree keeps its rows' bins open on every level from its
     * base up to its root, a float a bin: with thousands of timelines, once
     * a long trace lets previews pay, most of the writer's memory
     * (docs/PERFORMANCE.md). The base rises until they fit in
     * SLOG_PREVIEW_OPEN_MAX bytes; where even the root's level does not,
     * the blocks carry none, and the overview pictures all timelines. */
    if (n_drawables > 0 && per_block > 0 && b != SLOG_PREVIEW_NONE) {
        double per_level = n_rows * DEFAULT_BINS * sizeof(float);
        uint32_t root = 0;
        while (root < 40 && ldexp(per_block, (int)root) < whole) root++;
        while (b <= root && (root - b + 1) * per_level > SLOG_PREVIEW_OPEN_MAX) b++;
        if (b > root) b = SLOG_PREVIEW_NONE;
    }
    if (leaf_drawables > 0)
        while (o < 40 && ldexp(leaf_drawables, (int)o) * budget < rows_ov * ROW_BYTES) o++;
    *block_level = b;
    if (o > max_level) o = max_level;
    *overview_level = o;
}

/* The fewest bytes a summary's state row takes: seven varints of a byte
 * at least (docs/FORMAT.md, "Summary block"). */
#define SUMM_ROW_MIN_BYTES 7

int slog_summaries_may_pay(double n_drawables, double n_rows, double max_row)
{
    double per_row = SUMMARY_DRAWABLES_PER_BYTE * SUMM_ROW_MIN_BYTES;
    /* A node's rows are some of the block's: a node of a few busy rows
     * can pay where the block's root cannot. */
    return n_drawables >= DEFAULT_PREVIEW_MIN && (n_drawables >= per_row * n_rows || max_row >= per_row);
}

/* Choose the leaf width from the buffered drawables' density, then replay
 * them. The aim is leaf_drawables per leaf on average. full: the trace goes
 * on past the buffer. */
static slog_status choose_shift(slog_writer *w, bool full)
{
    int shift = 20;
    if (w->n_boot) {
        int64_t lo = INT64_MAX, hi = 0;
        for (uint32_t i = 0; i < w->n_boot; i++) {
            int64_t a, b;
            slog_drawable_span(&w->boot[i], &a, &b);
            if (a < lo) lo = a;
            if (b > hi) hi = b;
        }
        double span = (double)(hi - lo) + 1.0, n = w->n_boot;
        if (full) {
            /* Only the start of the trace is known, and it starts slowly:
             * MPI_Init and communicator setup are long and sparse. The
             * second half of the buffer, by end time (the order drawables
             * arrive in), is past that. */
            int64_t a, mid;
            slog_drawable_span(&w->boot[w->n_boot / 2], &a, &mid);
            span = (double)(hi - mid) + 1.0;
            n = w->n_boot - w->n_boot / 2;
        }
        uint32_t n_tl = w->opt.expected_timelines > w->n_tls ? w->opt.expected_timelines : w->n_tls;
        uint32_t tb = w->opt.block_timelines ? w->opt.block_timelines : slog_block_timelines_for(n_tl);
        uint32_t blocks = n_tl ? (uint32_t)(((uint64_t)n_tl + tb - 1) / tb) : 1;
        if (w->opt.leaf_drawables || blocks <= 1)
            shift = slog_leaf_shift_for(n, span, w->opt.leaf_drawables ? 0 : distinct_rows(w), w->opt.leaf_drawables);
        else
            shift = slog_leaf_shift_for_trace(n, span, distinct_rows(w), n_tl);
    }
    w->shift = shift;
    if (w->n_boot && !w->opt.preview_level && !w->opt.overview_level && !w->opt.leaf_drawables) {
        /* The first drawables' density and rows stand for the trace's. */
        int64_t a, hi_key, lo_key;
        slog_drawable_span(&w->boot[w->n_boot - 1], &a, &hi_key);
        slog_drawable_span(&w->boot[full ? w->n_boot / 2 : 0], &a, &lo_key);
        double n = full ? w->n_boot - w->n_boot / 2 : w->n_boot;
        double per_leaf = n * ldexp(1.0, shift) / ((double)(hi_key - lo_key) + 1.0);
        uint32_t n_tl = w->opt.expected_timelines > w->n_tls ? w->opt.expected_timelines : w->n_tls;
        slog_preview_levels_for(per_leaf, 0, distinct_rows(w), n_tl, UINT32_MAX, &w->opt.preview_level,
                                &w->opt.overview_level);
    }
    fix_geometry(w);
    for (uint32_t i = 0; i < w->n_boot; i++) {
        slog_drawable d = w->boot[i];
        d.info = w->boot_info + (uintptr_t)d.info;
        slog_status st = place_drawable(w, &d);
        if (st) return st;
    }
    free(w->boot);
    free(w->boot_info);
    w->boot = NULL;
    w->boot_info = NULL;
    w->n_boot = 0;
    return SLOG_OK;
}

static slog_status buffer_boot(slog_writer *w, const slog_drawable *d)
{
    if (!w->boot) {
        w->boot = malloc(BOOT_MAX * sizeof *w->boot);
        w->boot_info = malloc((size_t)BOOT_MAX * 4 * sizeof *w->boot_info);
        if (!w->boot || !w->boot_info) return fail(w, SLOG_ERR_NOMEM, "%s", "bootstrap buffer");
    }
    if (w->n_boot == BOOT_MAX || w->n_boot_info + d->n_info > (size_t)BOOT_MAX * 4) {
        slog_status st = choose_shift(w, true);
        return st ? st : place_drawable(w, d);
    }
    slog_drawable *c = &w->boot[w->n_boot++];
    *c = *d;
    if (d->n_info) memcpy(w->boot_info + w->n_boot_info, d->info, d->n_info * sizeof *d->info);
    /* Store the offset; pointers are made when the buffer is replayed. */
    c->info = (const int64_t *)(uintptr_t)w->n_boot_info;
    w->n_boot_info += d->n_info;
    return SLOG_OK;
}

slog_status slog_writer_add(slog_writer *w, const slog_drawable *d)
{
    const char *problem = slog_drawable_problem(d);
    if (problem && (!d || d->kind > SLOG_KIND_EVENT)) return fail(w, SLOG_ERR_ARG, "%s", problem);
    if (d->category >= w->n_cats) return fail(w, SLOG_ERR_ARG, "%s", "unknown category id");
    cat_entry *c = &w->cats[d->category];
    if (c->c.kind != d->kind) return fail(w, SLOG_ERR_ARG, "%s", "drawable kind differs from its category's");
    if (d->timeline >= w->n_tls || (d->kind == SLOG_KIND_ARROW && d->end_timeline >= w->n_tls))
        return fail(w, SLOG_ERR_ARG, "%s", "unknown timeline id");
    if (d->n_info != c->c.n_fields || (d->n_info && !d->info))
        return fail(w, SLOG_ERR_ARG, "%s", "info count differs from the category's field count");
    if (problem) return fail(w, SLOG_ERR_ARG, "%s", problem);
    int64_t a, key;
    slog_drawable_span(d, &a, &key);
    if (key < w->floor) return fail(w, SLOG_ERR_ORDER, "%s", "drawable ends before the previous one");
    if (w->broken) return w->err.status;
    w->floor = key;
    if (!w->geometry_fixed && w->shift >= 0) fix_geometry(w);
    /* end_timeline is read for arrows only, so d goes on as it is. */
    slog_status st = w->shift < 0 ? buffer_boot(w, d) : place(w, d, a, key);
    if (st) return st;
    w->n_drawables++;
    w->n_by_kind[d->kind]++;
    if (a < w->t_min) w->t_min = a;
    if (key > w->t_max) w->t_max = key;
    c->count++;
    if (d->kind == SLOG_KIND_STATE) c->total_ns = slog_add_duration(c->total_ns, d->end - d->start);
    return SLOG_OK;
}

/* --------------------------------------------------------------- batches */

bool slog_writer_batch_geometry(slog_writer *w, int32_t *shift, uint32_t *bins, uint32_t *tb_shift, bool *msgs)
{
    if (w->shift < 0) return false;
    fix_geometry(w);
    *shift = w->shift;
    *bins = w->opt.preview_bins;
    *tb_shift = w->tb_shift;
    *msgs = w->ov != NULL;
    return true;
}

/* A batch's leaf preview into the previewing nodes of the blocks' trees
 * and the overview's: each row goes to its block's node on that tree's
 * base level (or the leaf), and to its group's row of the overview's node
 * on its base level (and what that node previews itself). by_group (the
 * blocks carry no preview): the leaf's rows are the overview's groups
 * already; with thousands of timelines, rows by timeline held a drawable
 * or two each and were each added again to their group's row. */
static bool absorb_leaf(slog_writer *w, slog_batch *b, bool by_group)
{
    slog_prev_acc *src = &w->leaf_prev;
    if (!batch_preview(b, src, by_group ? w->g_shift : 0)) return false;
    uint32_t nb = src->n_bins;
    tree *t = NULL;
    open_node *bn = NULL, *on = NULL;
    uint32_t bup = 0, oup = 0;
    uint64_t bpos = 0, opos = 0;
    if (w->ov) {
        oup = w->ov->base;
        on = node_get(w, w->ov, oup, b->leaf >> oup);
        if (!on) return false;
        opos = (b->leaf - ((b->leaf >> oup) << oup)) * nb;
    }
    for (uint32_t i = 0; i < src->n_rows; i++) {
        const slog_prev_row *r = &src->rows[i];
        if (r->hi_bin <= r->lo_bin) continue;
        const float *bins = src->pool + (size_t)i * nb;
        bool is_state = w->cat_is_state[r->category];
        if (!by_group) {
            uint32_t k = block_of(w, r->timeline);
            if (!t || t->id != k) {
                t = block_tree(w, k);
                if (!t) return false;
                bup = t->base;
                bn = node_get(w, t, bup, b->leaf >> bup);
                if (!bn) return false;
                bpos = (b->leaf - ((b->leaf >> bup) << bup)) * nb;
            }
            if (!prev_add_bins(&bn->prev, r->timeline, r->category, bins, r->lo_bin, r->hi_bin, bup, bpos, is_state))
                return false;
        }
        if (on) {
            uint32_t g = by_group ? r->timeline : r->timeline >> w->g_shift;
            if (!prev_add_bins(&on->prev, g, r->category, bins, r->lo_bin, r->hi_bin, oup, opos, is_state))
                return false;
        }
    }
    if (on) {
        on->n_drawables += (uint32_t)b->n_seg;
        on->n_subtree += b->n_seg;
    }
    return true;
}

/* A batch's drawables into the previewing nodes one by one, as
 * absorb_leaf's rows would go. */
static bool absorb_each(slog_writer *w, slog_batch *b)
{
    open_node *on = NULL, *bn = NULL;
    int64_t ow = 0, bw = 0;
    if (w->ov) {
        on = node_get(w, w->ov, w->ov->base, b->leaf >> w->ov->base);
        if (!on) return false;
        ow = (int64_t)1 << (w->shift + (int)w->ov->base);
    }
    tree *t = NULL;
    for (uint32_t i = 0; i < b->n_pv; i++) {
        const batch_pv *p = &b->pv[i];
        uint32_t cat = p->category & ~BATCH_PV_STATE, k = block_of(w, p->timeline);
        bool is_state = (p->category & BATCH_PV_STATE) != 0;
        if (!t || t->id != k) {
            if (!(t = block_tree(w, k)) || !(bn = node_get(w, t, t->base, b->leaf >> t->base))) return false;
            bw = (int64_t)1 << (w->shift + (int)t->base);
        }
        prev_add(&bn->prev, bn->lo, bw, p->timeline, cat, is_state, p->start, p->end);
        if (on) prev_add(&on->prev, on->lo, ow, p->timeline >> w->g_shift, cat, is_state, p->start, p->end);
        if (bn->prev.failed || (on && on->prev.failed)) return false;
    }
    if (on) {
        on->n_drawables += (uint32_t)b->n_seg;
        on->n_subtree += b->n_seg;
    }
    return true;
}

/* Whether b holds at least LEAF_ROWS_MIN drawables a timeline. Below, a
 * leaf preview made first holds a drawable or two a row (hundreds of
 * timelines, each busy in a few categories), and adding it row by row
 * costs more than adding the drawables one by one; above, as with tens of
 * ranks, the rows' sums in the leaf save work. The timelines are told
 * apart in a bitmap over their span (w->seen). */
static bool dense_rows(slog_writer *w, const slog_batch *b)
{
    if (!b->n_pv) return true;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < b->n_pv; i++) {
        uint32_t tl = b->pv[i].timeline;
        lo = tl < lo ? tl : lo;
        hi = tl > hi ? tl : hi;
    }
    uint64_t span = (uint64_t)hi - lo + 1;
    if (b->n_pv >= LEAF_ROWS_MIN * span) return true; /* however few timelines */
    size_t words = (size_t)((span + 63) / 64);
    if (words > w->cap_seen) {
        uint64_t *v = realloc(w->seen, words * sizeof *v);
        if (!v) return true; /* the leaf preview needs no more room */
        w->seen = v;
        w->cap_seen = words;
    }
    memset(w->seen, 0, words * sizeof *w->seen);
    uint64_t n_tls = 0;
    for (uint32_t i = 0; i < b->n_pv; i++) {
        uint32_t d = b->pv[i].timeline - lo;
        uint64_t bit = (uint64_t)1 << (d % 64);
        n_tls += !(w->seen[d / 64] & bit);
        w->seen[d / 64] |= bit;
    }
    return b->n_pv >= LEAF_ROWS_MIN * n_tls;
}

static bool absorb_preview(slog_writer *w, slog_batch *b)
{
    if (w->opt.preview_level == SLOG_PREVIEW_NONE) return w->ov ? absorb_leaf(w, b, true) : true;
    return dense_rows(w, b) ? absorb_leaf(w, b, false) : absorb_each(w, b);
}

slog_status slog_writer_add_batch(slog_writer *w, slog_batch *b)
{
    if (!b) return fail(w, SLOG_ERR_ARG, "%s", "NULL batch");
    if (b->failed) return fail(w, SLOG_ERR_NOMEM, "%s", "batch");
    if (b->shift != w->shift || b->n_bins != w->opt.preview_bins || !w->geometry_fixed || b->tb_shift != w->tb_shift ||
        b->msgs != (w->ov != NULL))
        return fail(w, SLOG_ERR_ARG, "%s", "batch made for another writer");
    for (uint32_t i = 0; i < b->n_used; i++) {
        uint32_t id = b->used[i];
        const batch_cat *bc = &b->cats[id];
        if (id >= w->n_cats) return fail(w, SLOG_ERR_ARG, "%s", "unknown category id");
        if (w->cats[id].c.kind != bc->kind)
            return fail(w, SLOG_ERR_ARG, "%s", "drawable kind differs from its category's");
        if (w->cats[id].c.n_fields != bc->n_info)
            return fail(w, SLOG_ERR_ARG, "%s", "info count differs from the category's field count");
    }
    if (b->tl_limit > w->n_tls) return fail(w, SLOG_ERR_ARG, "%s", "unknown timeline id");
    if (b->min_key < w->floor) return fail(w, SLOG_ERR_ORDER, "%s", "drawable ends before the writer's floor");
    if (w->broken) return w->err.status;
    if (!slog_batch_count(b)) return SLOG_OK;
    slog_status st;
    for (uint32_t i = 0; i < b->n_segs; i++) {
        const batch_seg *g = &b->segs[i];
        if (!g->n_seg) continue;
        tree *t = block_tree(w, g->block);
        open_node *n = t ? node_get(w, t, 0, b->leaf) : NULL;
        if (!n) return fail(w, SLOG_ERR_NOMEM, "%s", "tree node");
        /* its first start delta was taken from the leaf's start */
        if (!append_records(n, g->seg.data, g->seg.len, g->first_delta_at, g->first_start, g->last_start))
            return fail(w, SLOG_ERR_NOMEM, "%s", "node buffer");
        n->n_drawables += g->n_seg;
        n->n_subtree += g->n_seg;
        w->n_mirrors += g->n_mirror;
    }
    if (b->n_seg && !absorb_preview(w, b)) return fail(w, SLOG_ERR_NOMEM, "%s", "preview");
    if (w->ov && b->n_msg) {
        /* the leaf's messages, counted by its node on the overview's base */
        open_node *on = node_get(w, w->ov, w->ov->base, b->leaf >> w->ov->base);
        if (!on) return fail(w, SLOG_ERR_NOMEM, "%s", "overview node");
        for (uint32_t i = 0; i < b->n_msg; i++)
            msgs_add(&on->msgs, b->msg[i].sender >> w->g_shift, b->msg[i].receiver >> w->g_shift);
        if (on->msgs.failed) return fail(w, SLOG_ERR_NOMEM, "%s", "message counts");
    }
    for (uint32_t i = 0; i < b->n_other; i++) {
        slog_drawable d = b->other[i];
        d.info = d.n_info ? b->other_info + (uintptr_t)d.info : NULL;
        int64_t a, key;
        slog_drawable_span(&d, &a, &key);
        if ((st = place_at(w, &d, a, key))) return st;
    }
    w->n_drawables += slog_batch_count(b);
    for (int k = 0; k < 3; k++) w->n_by_kind[k] += b->n_by_kind[k];
    if (b->t_min < w->t_min) w->t_min = b->t_min;
    if (b->t_max > w->t_max) w->t_max = b->t_max;
    for (uint32_t i = 0; i < b->n_used; i++) {
        const batch_cat *bc = &b->cats[b->used[i]];
        cat_entry *c = &w->cats[b->used[i]];
        c->count += bc->count;
        c->total_ns = slog_add_duration(c->total_ns, bc->total_ns);
    }
    slog_batch_begin(b, b->leaf);
    return SLOG_OK;
}

slog_status slog_writer_advance(slog_writer *w, int64_t watermark)
{
    if (w->broken) return w->err.status;
    if (watermark <= w->floor) return SLOG_OK;
    w->floor = watermark;
    if (w->shift < 0) return SLOG_OK; /* nothing placed yet */
    /* A node ending after every drawable so far may be the root, which has
     * no parent: it is written when drawables pass it, or by finish. */
    return close_upto(w, watermark < w->t_max ? watermark : w->t_max);
}

/* --------------------------------------------------------------- finish */

static slog_status put_section(slog_writer *w, const char *tag, slog_buf *body, uint64_t *off, uint64_t *size)
{
    if (body->failed) return fail(w, SLOG_ERR_NOMEM, "%s", tag);
    *off = out_offset(w);
    *size = SLOG_BLOCK_HEADER_SIZE + body->len;
    return put_block(w, tag, body->data, body->len, NULL, 0, NULL);
}

static slog_status write_sections(slog_writer *w, uint64_t sec[4][2])
{
    slog_status st;
    slog_buf b = {0};
    buf_put_u32(&b, w->n_cats);
    for (uint32_t i = 0; i < w->n_cats; i++) {
        const cat_entry *e = &w->cats[i];
        buf_put_u8(&b, (uint8_t)e->c.kind);
        buf_put_u8(&b, (uint8_t)e->c.n_fields);
        buf_put_u8(&b, 0);
        buf_put_u8(&b, 0);
        buf_put_u32(&b, e->c.rgba);
        buf_put_u64(&b, e->count);
        buf_put_u64(&b, (uint64_t)e->total_ns);
        buf_put_str(&b, e->c.name);
        buf_put_str(&b, e->c.group);
        for (uint32_t f = 0; f < e->c.n_fields; f++) {
            buf_put_u8(&b, e->c.field_types[f]);
            buf_put_str(&b, e->c.field_names[f]);
        }
    }
    st = put_section(w, SLOG_TAG_CATEGORIES, &b, &sec[0][0], &sec[0][1]);
    b.len = 0;
    if (!st) {
        buf_put_u32(&b, w->n_tls);
        for (uint32_t i = 0; i < w->n_tls; i++) {
            buf_put_u32(&b, w->tls[i].t.rank);
            buf_put_u32(&b, w->tls[i].t.thread);
            buf_put_str(&b, w->tls[i].t.label);
            buf_put_str(&b, w->tls[i].t.group);
        }
        st = put_section(w, SLOG_TAG_TIMELINES, &b, &sec[1][0], &sec[1][1]);
    }
    b.len = 0;
    if (!st) {
        buf_put_u32(&b, w->n_annotations);
        buf_put(&b, w->annotations.data, w->annotations.len);
        st = put_section(w, SLOG_TAG_ANNOTATIONS, &b, &sec[2][0], &sec[2][1]);
    }
    buf_free(&b);
    if (st) return st;

    /* Directory: copy the spill file through, checksumming as we go. */
    if (fflush(w->dir_spill) || fseek(w->dir_spill, 0, SEEK_SET))
        return fail(w, SLOG_ERR_IO, "directory spill: %s", strerror(errno));
    uint8_t cnt[8];
    put_u64le(cnt, w->n_nodes);
    uint64_t body_len = 8 + w->n_nodes * SLOG_DIRENT_SIZE;
    uint32_t crc = slog_crc32c(0, cnt, 8);
    uint8_t hdr[SLOG_BLOCK_HEADER_SIZE];
    sec[3][0] = out_offset(w);
    sec[3][1] = SLOG_BLOCK_HEADER_SIZE + body_len;
    /* The crc is patched after streaming the entries. */
    memcpy(hdr, SLOG_TAG_DIRECTORY, 4);
    put_u32le(hdr + 4, 0);
    put_u64le(hdr + 8, body_len);
    buf_put(&w->out, hdr, sizeof hdr);
    buf_put(&w->out, cnt, 8);
    uint8_t chunk[SLOG_DIRENT_SIZE * 1024];
    size_t got;
    uint64_t copied = 0;
    while ((got = fread(chunk, 1, sizeof chunk, w->dir_spill)) > 0) {
        crc = slog_crc32c(crc, chunk, got);
        buf_put(&w->out, chunk, got);
        copied += got;
        if (w->out.len >= OUT_FLUSH && (st = flush_out(w))) return st;
    }
    if (copied != w->n_nodes * SLOG_DIRENT_SIZE) return fail(w, SLOG_ERR_IO, "%s", "directory spill short read");
    if ((st = flush_out(w))) return st;
    uint8_t crcb[4];
    put_u32le(crcb, crc);
    if (pwrite(w->fd, crcb, 4, (off_t)(sec[3][0] + 4)) != 4) return fail(w, SLOG_ERR_IO, "write: %s", strerror(errno));
    return SLOG_OK;
}

/* The header goes to h too, for slog_writer_finish_info. */
static slog_status write_header_and_postamble(slog_writer *w, uint64_t sec[4][2], uint8_t h[SLOG_HEADER_SIZE])
{
    uint64_t file_size = out_offset(w) + SLOG_POSTAMBLE_SIZE;
    uint8_t p[SLOG_POSTAMBLE_SIZE] = {0};
    put_u64le(p + POST_DIR_OFF, sec[3][0]);
    put_u64le(p + POST_DIR_SIZE, sec[3][1]);
    put_u64le(p + POST_CAT_OFF, sec[0][0]);
    put_u64le(p + POST_TL_OFF, sec[1][0]);
    put_u64le(p + POST_ANN_OFF, sec[2][0]);
    put_u64le(p + POST_FILE_SIZE, file_size);
    put_u32le(p + POST_CRC, slog_crc32c(0, p, POST_CRC));
    memcpy(p + POST_MAGIC, slog_end_magic, SLOG_MAGIC_LEN);
    buf_put(&w->out, p, sizeof p);
    slog_status st = flush_out(w);
    if (st) return st;

    memset(h, 0, SLOG_HEADER_SIZE);
    memcpy(h + HDR_MAGIC, slog_magic, SLOG_MAGIC_LEN);
    put_u32le(h + HDR_BOM, SLOG_BOM);
    put_u16le(h + HDR_MAJOR, SLOG_FORMAT_MAJOR);
    put_u16le(h + HDR_MINOR, SLOG_FORMAT_MINOR);
    put_u32le(h + HDR_FLAGS, SLOG_FLAG_COMPLETE);
    put_u32le(h + HDR_SIZE, SLOG_HEADER_SIZE);
    put_u32le(h + HDR_CHILDREN, SLOG_CHILDREN);
    put_u32le(h + HDR_BINS, w->opt.preview_bins);
    put_u32le(h + HDR_LEAF_SHIFT, (uint32_t)w->shift);
    put_u32le(h + HDR_DEPTH, w->depth);
    put_u64le(h + HDR_ORIGIN, (uint64_t)w->opt.time_origin_ns);
    put_u64le(h + HDR_TMIN, (uint64_t)(w->n_drawables ? w->t_min : 0));
    put_u64le(h + HDR_TMAX, (uint64_t)(w->n_drawables ? w->t_max : 0));
    put_u64le(h + HDR_N_DRAWABLES, w->n_drawables);
    put_u64le(h + HDR_N_STATES, w->n_by_kind[SLOG_KIND_STATE]);
    put_u64le(h + HDR_N_ARROWS, w->n_by_kind[SLOG_KIND_ARROW]);
    put_u64le(h + HDR_N_EVENTS, w->n_by_kind[SLOG_KIND_EVENT]);
    put_u64le(h + HDR_N_NODES, w->n_nodes);
    put_u32le(h + HDR_N_CATEGORIES, w->n_cats);
    put_u32le(h + HDR_N_TIMELINES, w->n_tls);
    put_u32le(h + HDR_N_ANNOTATIONS, w->n_annotations);
    put_u32le(h + HDR_BLOCK_TIMELINES, 1u << w->tb_shift);
    put_u32le(h + HDR_N_BLOCKS, w->n_tls ? ((w->n_tls - 1) >> w->tb_shift) + 1 : 0);
    put_u32le(h + HDR_GROUP_TIMELINES, 1u << w->g_shift);
    put_u32le(h + HDR_OVERVIEW_DEPTH, w->ov_depth);
    put_u64le(h + HDR_N_MIRRORS, w->n_mirrors);
    for (int i = 0; i < 4; i++) {
        put_u64le(h + HDR_SEC_CATEGORIES + 16 * i, sec[i][0]);
        put_u64le(h + HDR_SEC_CATEGORIES + 16 * i + 8, sec[i][1]);
    }
    put_u32le(h + HDR_CRC, slog_crc32c(0, h, HDR_CRC));
    if (pwrite(w->fd, h, SLOG_HEADER_SIZE, 0) != (ssize_t)SLOG_HEADER_SIZE)
        return fail(w, SLOG_ERR_IO, "write header: %s", strerror(errno));
    return SLOG_OK;
}

/* Close every node of t, up to its root: the top of the global tree
 * (level place_level(0, t_max)), or higher where t previews from a higher
 * base level (every index there is 0). */
static slog_status finish_one(slog_writer *w, tree *t, uint32_t root)
{
    if (!t || !t->n_levels) return SLOG_OK;
    uint32_t top = t->n_levels - 1 > root ? t->n_levels - 1 : root;
    slog_status st = close_below(w, t, INT64_MAX, top);
    if (st) return st;
    if (t->levels[top].n_open != 1) return fail(w, SLOG_ERR_LIMIT, "%s", "no root node");
    return close_node(w, t, top, true);
}

static slog_status finish_tree(slog_writer *w)
{
    slog_status st;
    if (w->shift < 0 && (st = choose_shift(w, false))) return st;
    fix_geometry(w);
    if (w->broken) return w->err.status;
    if (!w->n_drawables) return SLOG_OK;
    uint32_t root = slog_place_level(0, (uint64_t)w->t_max, w->shift);
    for (uint32_t i = 0; i < w->n_blocks; i++) {
        if ((st = finish_one(w, w->blocks[i], root))) return st;
        /* Its nodes' previews are written: at many timelines the blocks'
         * accumulators together would outgrow the run's peak. */
        tree_free(w->blocks[i]);
        w->blocks[i] = NULL;
    }
    return finish_one(w, w->ov, root);
}

slog_status slog_writer_finish(slog_writer *w, slog_error *err)
{
    return slog_writer_finish_info(w, NULL, err);
}

slog_status slog_writer_finish_info(slog_writer *w, slog_file_info *info, slog_error *err)
{
    slog_clear_error(err);
    if (!w) return slog_set_error(err, SLOG_ERR_ARG, NULL, SLOG_NO_OFFSET, "NULL writer");
    uint64_t sec[4][2] = {{0}};
    uint8_t h[SLOG_HEADER_SIZE];
    slog_status st = w->broken ? w->err.status : SLOG_OK;
    if (!st) st = finish_tree(w);
    if (!st) st = write_sections(w, sec);
    if (!st) st = write_header_and_postamble(w, sec, h);
    /* The blocks reserved past the end are given back. */
    if (!st && w->reserved > w->file_off && ftruncate(w->fd, (off_t)w->file_off) != 0)
        st = fail(w, SLOG_ERR_IO, "truncate: %s", strerror(errno));
    if (!st && close(w->fd) != 0)
        st = fail(w, SLOG_ERR_IO, "close: %s", strerror(errno));
    else if (!st)
        w->fd = -1;
    if (!st && rename(w->tmp_path, w->path) != 0) st = fail(w, SLOG_ERR_IO, "rename: %s", strerror(errno));
    if (!st) {
        free(w->tmp_path);
        w->tmp_path = NULL; /* nothing left to remove */
        if (info) {
            slog_header_decode(h, info);
            info->file_size = w->file_off;
        }
    } else if (err) {
        *err = w->err;
    }
    slog_writer_abort(w);
    return st;
}

const char *slog_writer_temp_path(const slog_writer *w)
{
    return w ? w->tmp_path : NULL;
}

void slog_writer_abort(slog_writer *w)
{
    if (!w) return;
    if (w->fd >= 0) close(w->fd);
    if (w->tmp_path) unlink(w->tmp_path);
    if (w->dir_spill) fclose(w->dir_spill);
    for (uint32_t i = 0; i < w->n_cats; i++) {
        cat_entry *e = &w->cats[i];
        free((char *)e->c.name);
        free((char *)e->c.group);
        if (e->c.field_names)
            for (uint32_t f = 0; f < e->c.n_fields; f++) free((char *)e->c.field_names[f]);
        free((char **)e->c.field_names);
        free((uint8_t *)e->c.field_types);
    }
    free(w->cats);
    free(w->cat_is_state);
    free(w->summ_bytes_field);
    slog_summ_scratch_free(&w->summ_scratch);
    buf_free(&w->summ_enc);
    for (uint32_t i = 0; i < w->n_tls; i++) {
        free((char *)w->tls[i].t.label);
        free((char *)w->tls[i].t.group);
    }
    free(w->tls);
    buf_free(&w->annotations);
    for (uint32_t i = 0; i < w->n_blocks; i++) tree_free(w->blocks[i]);
    free(w->blocks);
    tree_free(w->ov);
    prev_free(&w->leaf_prev);
    free(w->seen);
    free(w->boot);
    free(w->boot_info);
    buf_free(&w->out);
    free(w->path);
    free(w->tmp_path);
    free(w);
}
