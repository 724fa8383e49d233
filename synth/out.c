/* SPDX-License-Identifier: MIT */
/* out.c - buffered big-endian output file (see out.h). */
#include "out.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int out_alloc(synth_out *o, size_t buf_size)
{
  o->cap = buf_size < 4096 ? 4096 : buf_size;
  o->buf = malloc(o->cap);
  return o->buf ? 0 : ENOMEM;
}

int synth_out_open(synth_out *o, const char *path, size_t buf_size)
{
  memset(o, 0, sizeof *o);
  o->fd = -1;
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
  o->fd = open(o->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (o->fd < 0) {
    rc = errno;
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
  if (o->fd >= 0 && !o->err) {
    const uint8_t *p = o->buf;
    size_t left = o->len;
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

int synth_out_commit(synth_out *o)
{
  synth_out_flush(o);
  int rc = o->err;
  if (o->fd >= 0) {
    if (close(o->fd) != 0 && !rc) rc = errno;
    o->fd = -1;
    if (!rc && rename(o->tmp_path, o->final_path) != 0) rc = errno;
    if (rc) unlink(o->tmp_path);
  }
  out_free(o);
  return rc;
}

void synth_out_discard(synth_out *o)
{
  if (o->fd >= 0) {
    close(o->fd);
    o->fd = -1;
  }
  if (o->tmp_path) unlink(o->tmp_path);
  out_free(o);
}
