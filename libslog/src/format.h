/* SPDX-License-Identifier: MIT */
/* format.h - the .slog2 byte layout, in one place.
 *
 * Every multi-byte integer is little-endian and written byte by byte through
 * the put/get helpers below (never host structs). docs/FORMAT.md is the prose
 * version of this file; keep them in step. Version 5.0.
 *
 * File = Header | node and preview blocks ... | Categories | Timelines |
 *        Annotations | Directory | Postamble
 *
 * HEADER (offset 0, SLOG_HEADER_SIZE bytes)
 *   OFF SIZE DESCRIPTION
 *     0    8 magic 89 'S' 'L' 'O' 'G' '2' 0D 0A (PNG-style: catches text-mode
 *            and 7-bit transfers)
 *     8    4 byte-order mark 0x01020304 (reads 0x04030201 if byte-swapped)
 *    12    2 version major (readers refuse a larger major)
 *    14    2 version minor (additive changes only)
 *    16    4 flags (bit 0: file complete)
 *    20    4 header size (256)
 *    24    4 children per node (2)
 *    28    4 preview bins per preview block
 *    32    4 leaf_shift (int32): leaf node width is 2^leaf_shift ns
 *    36    4 depth: levels of the deepest block tree (0 = empty)
 *    40    8 time origin (int64 ns, absolute time of t = 0)
 *    48    8 t_min (int64 ns) of all drawables
 *    56    8 t_max (int64 ns)
 *    64    8 n_drawables
 *    72    8 n_states
 *    80    8 n_arrows
 *    88    8 n_events
 *    96    8 n_nodes (directory entries)
 *   104    4 n_categories
 *   108    4 n_timelines
 *   112    4 n_annotations
 *   116    4 reserved (0)
 *   120   16 categories section  (offset u64, size u64)
 *   136   16 timelines section
 *   152   16 annotations section
 *   168   16 directory section
 *   184    4 block_timelines: timelines per block (power of two)
 *   188    4 n_blocks = ceil(n_timelines / block_timelines)
 *   192    4 group_timelines: timelines per overview row (power of two;
 *            1 = no overview tree)
 *   196    4 overview depth: levels of the overview tree (0 = none)
 *   200    8 n_mirrors: arrow records stored a second time, in the
 *            receiver's block
 *   208   44 reserved (0)
 *   252    4 CRC32C of bytes 0..251
 *
 * BLOCK (every section, node and preview is one):
 *     0    4 tag (ASCII, see SLOG_TAG_*)
 *     4    4 CRC32C of the body
 *     8    8 body length in bytes
 *    16    - body
 *
 * POSTAMBLE (last SLOG_POSTAMBLE_SIZE bytes of the file)
 *     0    8 directory section offset
 *     8    8 directory section size (whole block)
 *    16    8 categories section offset
 *    24    8 timelines section offset
 *    32    8 annotations section offset
 *    40    8 file size
 *    48    4 CRC32C of bytes 0..47
 *    52    4 reserved (0)
 *    56    8 closing magic "SLOG2END"
 *
 * DIRECTORY body: u64 count, then count entries of SLOG_DIRENT_SIZE bytes,
 * in the order nodes were finished (children before parents; within a tree
 * and level, by increasing index):
 *     0    1 level
 *     1    1 flags (bit 0: has preview block; bit 1: has summary block,
 *            which follows the preview block, or the node block when
 *            there is no preview; an overview entry, 5.x: has a message
 *            block (MSGS), which follows its preview block)
 *     2    2 reserved (0)
 *     4    4 n_drawables stored in the node
 *     8    8 index (node covers [index << s, (index+1) << s), s = leaf_shift+level)
 *    16    8 node block offset
 *    24    4 node block size
 *    28    4 node block CRC32C (same as in its block header)
 *    32    8 n_subtree (drawables in the node and all descendants)
 *    40    8 preview block offset (0 if none)
 *    48    4 preview block size
 *    52    4 preview block CRC32C
 *    56    4 tree: block number, or 0xFFFFFFFF for the overview tree (whose
 *            n_drawables counts the drawables previewed at the node itself,
 *            and whose node fields point to its OWNR block in 3.x, 0
 *            without one: 2.x, the base level, or no own records)
 *    60    4 summary or message block size (whole block; 0 without one)
 *
 * Variable-length data inside bodies uses LEB128 varints (u) and zigzag
 * varints (z), and strings as u32 length + bytes (no NUL). See FORMAT.md for
 * the node, preview and section bodies.
 */
#ifndef SLOG_FORMAT_H
#define SLOG_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SLOG_MAGIC_LEN 8
static const uint8_t slog_magic[SLOG_MAGIC_LEN] = {0x89, 'S', 'L', 'O', 'G', '2', 0x0D, 0x0A};
static const uint8_t slog_end_magic[SLOG_MAGIC_LEN] = {'S', 'L', 'O', 'G', '2', 'E', 'N', 'D'};
#define SLOG_BOM                 0x01020304u
/* The oldest major version this reader reads (2.x: an overview node's own
 * records are in its preview block). */
#define SLOG_FORMAT_MAJOR_OLDEST 2

#define SLOG_HEADER_SIZE        256
#define SLOG_POSTAMBLE_SIZE     64
#define SLOG_BLOCK_HEADER_SIZE  16
#define SLOG_DIRENT_SIZE        64
#define SLOG_CHILDREN           2
#define SLOG_FLAG_COMPLETE      1u
#define SLOG_DIRENT_HAS_PREVIEW 1u
#define SLOG_DIRENT_HAS_SUMMARY 2u
/* 4.x, overview entries: child 2k (LEFT0) or 2k+1 (LEFT1) holds drawables
 * but is not in the overview; a reader takes that part from the blocks. */
#define SLOG_DIRENT_OV_LEFT0    4u
#define SLOG_DIRENT_OV_LEFT1    8u

/* Header field offsets. */
enum {
    HDR_MAGIC = 0,
    HDR_BOM = 8,
    HDR_MAJOR = 12,
    HDR_MINOR = 14,
    HDR_FLAGS = 16,
    HDR_SIZE = 20,
    HDR_CHILDREN = 24,
    HDR_BINS = 28,
    HDR_LEAF_SHIFT = 32,
    HDR_DEPTH = 36,
    HDR_ORIGIN = 40,
    HDR_TMIN = 48,
    HDR_TMAX = 56,
    HDR_N_DRAWABLES = 64,
    HDR_N_STATES = 72,
    HDR_N_ARROWS = 80,
    HDR_N_EVENTS = 88,
    HDR_N_NODES = 96,
    HDR_N_CATEGORIES = 104,
    HDR_N_TIMELINES = 108,
    HDR_N_ANNOTATIONS = 112,
    HDR_SEC_CATEGORIES = 120,
    HDR_SEC_TIMELINES = 136,
    HDR_SEC_ANNOTATIONS = 152,
    HDR_SEC_DIRECTORY = 168,
    HDR_BLOCK_TIMELINES = 184,
    HDR_N_BLOCKS = 188,
    HDR_GROUP_TIMELINES = 192,
    HDR_OVERVIEW_DEPTH = 196,
    HDR_N_MIRRORS = 200,
    HDR_CRC = 252
};

enum {
    POST_DIR_OFF = 0,
    POST_DIR_SIZE = 8,
    POST_CAT_OFF = 16,
    POST_TL_OFF = 24,
    POST_ANN_OFF = 32,
    POST_FILE_SIZE = 40,
    POST_CRC = 48,
    POST_MAGIC = 56
};

enum {
    DIRENT_LEVEL = 0,
    DIRENT_FLAGS = 1,
    DIRENT_N_DRAWABLES = 4,
    DIRENT_INDEX = 8,
    DIRENT_NODE_OFF = 16,
    DIRENT_NODE_SIZE = 24,
    DIRENT_NODE_CRC = 28,
    DIRENT_N_SUBTREE = 32,
    DIRENT_PREV_OFF = 40,
    DIRENT_PREV_SIZE = 48,
    DIRENT_PREV_CRC = 52,
    DIRENT_TREE = 56,
    DIRENT_SUMM_SIZE = 60
};

/* Block and group sizes a reader accepts. */
#define SLOG_MAX_BLOCK_TIMELINES 65536u

/* Block tags, stored as the 4 ASCII bytes in order. */
#define SLOG_TAG_NODE        "NODE"
#define SLOG_TAG_PREVIEW     "PREV"
#define SLOG_TAG_CATEGORIES  "CATS"
#define SLOG_TAG_TIMELINES   "TMLN"
#define SLOG_TAG_ANNOTATIONS "ANNO"
#define SLOG_TAG_DIRECTORY   "DIRE"
#define SLOG_TAG_SUMMARY     "SUMM"
#define SLOG_TAG_OWN         "OWNR" /* 3.x: an overview node's own records */
#define SLOG_TAG_MESSAGES    "MSGS" /* 5.x: an overview node's messages by groups */

/* Drawable record head byte (node bodies). */
#define SLOG_REC_KIND_MASK 0x03u
#define SLOG_REC_HAS_INFO  0x04u
#define SLOG_REC_BACKWARDS 0x08u /* arrow with end < start */
#define SLOG_REC_MIRROR    0x10u /* an arrow's copy in its receiver's block */

/* An overview preview's tail: what was previewed at the node itself. */
#define OWN_ALL           1u /* all of its preview: nothing below it is in the overview */
/* 2.x only: u32 count, then records: uvar group, uvar category, uvar
 * start - node start, uvar duration (states). */
#define OWN_RECORDS       2u
/* 3.x: the records (as above, without the count) are in the node's own
 * OWNR block, which the directory entry's node fields point to (none when
 * the entry's count is 0): a reader that only passes through the node
 * reads them without the preview. */
#define OWN_BLOCK         3u
#define SLOG_REC_RESERVED 0xE0u

/* Sanity limits a reader enforces on untrusted counts. */
#define SLOG_MAX_LEVELS 64
#define SLOG_MAX_BINS   4096
#define SLOG_MAX_STRING (1u << 20)
#define SLOG_MAX_BLOCK  (1ull << 31)

static inline void put_u16le(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static inline void put_u32le(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void put_u64le(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t get_u16le(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}
static inline uint32_t get_u32le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}
static inline uint64_t get_u64le(const uint8_t *p)
{
    return (uint64_t)get_u32le(p) | ((uint64_t)get_u32le(p + 4) << 32);
}

static inline uint64_t zigzag_encode(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}
static inline int64_t zigzag_decode(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}
/* LEB128 into room the caller reserved (at most 10 bytes); returns the byte
 * after it. (Separate 1- and 2-byte paths cost more instructions than this
 * loop, measured.) */
static inline uint8_t *put_uvar(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* CRC32C (Castagnoli), as in iSCSI/ext4; crc32c.c. */
uint32_t slog_crc32c(uint32_t crc, const void *data, size_t len);
/* The portable implementation slog_crc32c() falls back to (tests compare). */
uint32_t slog_crc32c_sw(uint32_t crc, const void *data, size_t len);

#endif /* SLOG_FORMAT_H */
