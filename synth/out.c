/* SPDX-License-Identifier: MIT */
/* out.c - buffered big-endian output file (see out.h). */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void synth_fdpool_init(synth_fdpool *p, size_t cap)
{
  memset(p, 0, sizeof *p);
  p->cap = cap ? cap : 1;
}

static void pool_unlink(synth_out *o)
{
  synth_fdpool *p = o->pool;
  if (o->older)
    o->older->newer = o->newer;
  else
    p->older = o->newer;
  if (o->newer)
    o->newer->older = o->older;
  else
    p->newer = o->older;
  o->older = o->newer = NULL;
}

static void pool_push(synth_out *o)
{
  synth_fdpool *p = o->pool;
  o->older = p->newer;
  o->newer = NULL;
  if (p->newer)
    p->newer->newer = o;
  else
    p->older = o;
  p->newer = o;
}

/* Closes o's descriptor and takes it off the pool's list; a failing close
 * (a delayed write error) becomes the sink's error. */
static void out_close(synth_out *o)
{
  if (o->fd < 0) return;
  if (close(o->fd) != 0 && !o->err) o->err = errno;
  o->fd = -1;
  if (o->pool) {
    pool_unlink(o);
    o->pool->open--;
  }
}

/* Opens o's file with flags, making room in the pool first. A process
 * limit lower than the pool's cap (EMFILE, ENFILE) lowers the cap to what
 * could be opened, as long as another sink's descriptor can be given up. */
static int out_open_fd(synth_out *o, int flags)
{
  synth_fdpool *p = o->pool;
  if (p && p->open >= p->cap) out_close(p->older);
  for (;;) {
    o->fd = open(o->tmp_path, flags | O_CLOEXEC, 0644);
    if (o->fd >= 0) break;
    int e = errno;
    if (e == EINTR) continue;
    if (!p || (e != EMFILE && e != ENFILE) || p->open == 0) return e;
    out_close(p->older);
    p->cap = p->open + 1;
  }
  if (p) {
    pool_push(o);
    p->open++;
  }
  return 0;
}

static int out_alloc(synth_out *o, size_t buf_size)
{
  o->cap = buf_size < 4096 ? 4096 : buf_size;
  o->buf = malloc(o->cap);
  return o->buf ? 0 : ENOMEM;
}

int synth_out_open(synth_out *o, const char *path, size_t buf_size, synth_fdpool *pool)
{
  memset(o, 0, sizeof *o);
  o->fd = -1;
  o->file = true;
  size_t n = strlen(path) + 32;
  o->tmp_path = malloc(n);
  o->final_path = strdup(path);
  if (!o->tmp_path || !o->final_path) {
    synth_out_discard(o);
    return ENOMEM;
  }
  snprintf(o->tmp_path, n, "%s.tmp.%ld", path, (long)getpid());
  int rc = out_alloc(o, buf_size);
  if (rc) {
    synth_out_discard(o);
    return rc;
  }
  o->pool = pool;
  rc = out_open_fd(o, O_WRONLY | O_CREAT | O_TRUNC);
  if (rc) {
    free(o->tmp_path); /* nothing was created: do not unlink */
    o->tmp_path = NULL;
    synth_out_discard(o);
    return rc;
  }
  return 0;
}

int synth_out_open_counter(synth_out *o, size_t buf_size)
{
  memset(o, 0, sizeof *o);
  o->fd = -1;
  return out_alloc(o, buf_size);
}

void synth_out_flush(synth_out *o)
{
  if (o->file && !o->err && o->len > 0) {
    if (o->fd < 0) {
      o->err = out_open_fd(o, O_WRONLY | O_APPEND);
    } else if (o->pool && o->pool->newer != o) {
      pool_unlink(o); /* now the most recently used */
      pool_push(o);
    }
    const uint8_t *p = o->buf;
    size_t left = o->err ? 0 : o->len;
    while (left > 0) {
      ssize_t w = write(o->fd, p, left);
      if (w < 0) {
        if (errno == EINTR) continue;
        o->err = errno;
        break;
      }
      p += w;
      left -= (size_t)w;
    }
  }
  o->flushed += o->len;
  o->len = 0;
}

void put_bytes(synth_out *o, const void *p, size_t n)
{
  const uint8_t *s = p;
  while (n > 0) {
    if (o->len == o->cap) synth_out_flush(o);
    size_t k = o->cap - o->len;
    if (k > n) k = n;
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    s += k;
    n -= k;
  }
}

static void out_free(synth_out *o)
{
  free(o->buf);
  free(o->tmp_path);
  free(o->final_path);
  o->buf = NULL;
  o->tmp_path = o->final_path = NULL;
}

int synth_out_close(synth_out *o)
{
  synth_out_flush(o);
  out_close(o);
  return o->err;
}

int synth_out_commit(synth_out *o)
{
  int rc = synth_out_close(o);
  if (o->file) {
    if (!rc && rename(o->tmp_path, o->final_path) != 0) rc = errno;
    if (rc) unlink(o->tmp_path);
  }
  out_free(o);
  return rc;
}

void synth_out_discard(synth_out *o)
{
  out_close(o);
  if (o->tmp_path) unlink(o->tmp_path);
  out_free(o);
}
