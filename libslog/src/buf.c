/* SPDX-License-Identifier: MIT */
/* buf.c - growable output buffer and bounded input cursor (see buf.h). */
#include "buf.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"

void buf_free(slog_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

bool buf_reserve(slog_buf *b, size_t extra)
{
    if (b->failed) return false;
    if (b->cap - b->len >= extra) return true;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < extra) {
        if (cap > SIZE_MAX / 2) {
            b->failed = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *d = realloc(b->data, cap);
    if (!d) {
        b->failed = true;
        return false;
    }
    b->data = d;
    b->cap = cap;
    return true;
}

void buf_put(slog_buf *b, const void *p, size_t n)
{
    if (!n || !buf_reserve(b, n)) return;
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void buf_put_u8(slog_buf *b, uint8_t v)
{
    if (!buf_reserve(b, 1)) return;
    b->data[b->len++] = v;
}

void buf_put_u32(slog_buf *b, uint32_t v)
{
    if (!buf_reserve(b, 4)) return;
    put_u32le(b->data + b->len, v);
    b->len += 4;
}

void buf_put_u64(slog_buf *b, uint64_t v)
{
    if (!buf_reserve(b, 8)) return;
    put_u64le(b->data + b->len, v);
    b->len += 8;
}

void buf_put_uvar(slog_buf *b, uint64_t v)
{
    if (!buf_reserve(b, 10)) return;
    b->len = (size_t)(put_uvar(b->data + b->len, v) - b->data);
}

void buf_put_zvar(slog_buf *b, int64_t v)
{
    buf_put_uvar(b, zigzag_encode(v));
}

void buf_put_str(slog_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    buf_put_u32(b, (uint32_t)n);
    buf_put(b, s, n);
}

uint8_t cur_u8(slog_cur *c)
{
    if (!cur_need(c, 1)) return 0;
    return *c->p++;
}

uint16_t cur_u16(slog_cur *c)
{
    if (!cur_need(c, 2)) return 0;
    uint16_t v = get_u16le(c->p);
    c->p += 2;
    return v;
}

uint32_t cur_u32(slog_cur *c)
{
    if (!cur_need(c, 4)) return 0;
    uint32_t v = get_u32le(c->p);
    c->p += 4;
    return v;
}

uint64_t cur_u64(slog_cur *c)
{
    if (!cur_need(c, 8)) return 0;
    uint64_t v = get_u64le(c->p);
    c->p += 8;
    return v;
}

uint64_t cur_uvar_slow(slog_cur *c)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (!cur_need(c, 1)) return 0;
        uint8_t byte = *c->p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            /* The 10th byte may carry only the top bit. */
            if (shift == 63 && byte > 1) break;
            return v;
        }
    }
    c->bad = true;
    return 0;
}

const uint8_t *cur_bytes(slog_cur *c, size_t n)
{
    if (!cur_need(c, n)) return NULL;
    const uint8_t *p = c->p;
    c->p += n;
    return p;
}

char *cur_str(slog_cur *c, uint32_t max)
{
    uint32_t n = cur_u32(c);
    if (c->bad || n > max) {
        c->bad = true;
        return NULL;
    }
    const uint8_t *p = cur_bytes(c, n);
    if (!p) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) {
        c->bad = true;
        return NULL;
    }
    memcpy(s, p, n);
    s[n] = 0;
    return s;
}
