/* SPDX-License-Identifier: MIT */
/* buf.h - growable output buffer and bounded input cursor.
 *
 * The cursor is the one place where untrusted lengths are checked: every read
 * goes through cur_need(), which fails (sets c->bad) instead of reading past
 * the end (the inline varint decoder checks once that a whole varint fits).
 * Callers check cur_ok() once after a group of reads.
 */
#ifndef SLOG_BUF_H
#define SLOG_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "grow.h"

typedef struct slog_buf {
    uint8_t *data;
    size_t len, cap;
    bool failed; /* an allocation failed; contents are incomplete */
} slog_buf;

void buf_free(slog_buf *b);
bool buf_reserve(slog_buf *b, size_t extra);
void buf_put(slog_buf *b, const void *p, size_t n);
void buf_put_u8(slog_buf *b, uint8_t v);
void buf_put_u32(slog_buf *b, uint32_t v);
void buf_put_u64(slog_buf *b, uint64_t v);
void buf_put_uvar(slog_buf *b, uint64_t v);
void buf_put_zvar(slog_buf *b, int64_t v);
void buf_put_str(slog_buf *b, const char *s);

typedef struct slog_cur {
    const uint8_t *p, *end;
    bool bad;
} slog_cur;

static inline slog_cur cur_make(const uint8_t *p, size_t n)
{
    /* An empty body may have no buffer at all: NULL + 0 is undefined. */
    slog_cur c = {p, p ? p + n : p, false};
    return c;
}
static inline bool cur_ok(const slog_cur *c)
{
    return !c->bad;
}
static inline size_t cur_left(const slog_cur *c)
{
    return (size_t)(c->end - c->p);
}
/* The single bounds check: covers every fixed-size read below. */
static inline bool cur_need(slog_cur *c, size_t n)
{
    if (c->bad || cur_left(c) < n) {
        c->bad = true;
        return false;
    }
    return true;
}
uint8_t cur_u8(slog_cur *c);
uint16_t cur_u16(slog_cur *c);
uint32_t cur_u32(slog_cur *c);
uint64_t cur_u64(slog_cur *c);
/* The checked LEB128 loop: one cur_need per byte, at most 10 bytes, the
 * 10th carrying only the top bit. */
uint64_t cur_uvar_slow(slog_cur *c);
/* A window query decodes tens of thousands of records and a million preview
 * values, and a call per varint was a fifth of its time, so the common case
 * is inline. With 10 bytes left a varint cannot run past the end, so its
 * first 9 bytes need no check of their own; anything else (a 10-byte varint,
 * the end of the block, a cursor already bad) goes to cur_uvar_slow, which
 * decides exactly as the inline loop would have. */
static inline uint64_t cur_uvar(slog_cur *c)
{
    if (!c->bad && cur_left(c) >= 10) {
        const uint8_t *p = c->p;
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 63; shift += 7) {
            uint8_t byte = *p++;
            v |= (uint64_t)(byte & 0x7f) << shift;
            if (!(byte & 0x80)) {
                c->p = p;
                return v;
            }
        }
    }
    return cur_uvar_slow(c);
}
static inline int64_t cur_zvar(slog_cur *c)
{
    return zigzag_decode(cur_uvar(c));
}
/* Step over a varint without assembling its value, accepting and rejecting
 * exactly what cur_uvar would: a varint ending within 8 bytes is found with
 * one load (its length is the position of the first byte without the
 * continuation bit), anything longer or near the end goes to cur_uvar_slow. */
static inline void cur_skip_uvar(slog_cur *c)
{
    if (!c->bad && cur_left(c) >= 10) {
        uint64_t stops = ~get_u64le(c->p) & 0x8080808080808080u;
#if defined(__GNUC__) || defined(__clang__)
        if (stops) {
            c->p += __builtin_ctzll(stops) / 8 + 1;
            return;
        }
#else
        for (unsigned i = 0; stops; i++, stops >>= 8)
            if (stops & 0x80) {
                c->p += i + 1;
                return;
            }
#endif
    }
    (void)cur_uvar_slow(c);
}
/* A u32-length string, copied into a new NUL-terminated allocation (NULL and
 * c->bad on error or when longer than max). */
char *cur_str(slog_cur *c, uint32_t max);
const uint8_t *cur_bytes(slog_cur *c, size_t n);

#endif
