/* buf.c - growable buffers, vectors and checked allocation. */
#include "buf.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(void) {
  fputs("warplint: out of memory\n", stderr);
  abort();
}

void *wl_xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p)
    oom();
  return p;
}

void *wl_xcalloc(size_t n, size_t m) {
  void *p = calloc(n ? n : 1, m ? m : 1);
  if (!p)
    oom();
  return p;
}

void *wl_xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p)
    oom();
  return p;
}

char *wl_xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = wl_xmalloc(n);
  memcpy(p, s, n);
  return p;
}

void wl_buf_init(wl_buf *b) { b->data = NULL, b->len = b->cap = 0; }

void wl_buf_free(wl_buf *b) {
  free(b->data);
  wl_buf_init(b);
}

static void reserve(wl_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = wl_xrealloc(b->data, cap);
  b->cap = cap;
}

void wl_buf_add(wl_buf *b, const char *s, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void wl_buf_puts(wl_buf *b, const char *s) { wl_buf_add(b, s, strlen(s)); }
void wl_buf_putc(wl_buf *b, char c) { wl_buf_add(b, &c, 1); }

void wl_buf_printf(wl_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    b->len += (size_t)n;
  }
  va_end(ap2);
}

char *wl_buf_detach(wl_buf *b) {
  char *s = b->data ? b->data : wl_xstrdup("");
  wl_buf_init(b);
  return s;
}

const char *wl_buf_str(const wl_buf *b) { return b->data ? b->data : ""; }

void wl_vec_push(wl_vec *v, void *p) {
  if (v->n == v->cap) {
    v->cap = v->cap ? v->cap * 2 : 8;
    v->v = wl_xrealloc(v->v, v->cap * sizeof *v->v);
  }
  v->v[v->n++] = p;
}

void wl_vec_free(wl_vec *v) {
  free(v->v);
  v->v = NULL;
  v->n = v->cap = 0;
}

char *wl_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  wl_buf b;
  wl_buf_init(&b);
  char tmp[65536];
  size_t n;
  while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
    wl_buf_add(&b, tmp, n);
  int err = ferror(f);
  fclose(f);
  if (err) {
    wl_buf_free(&b);
    errno = EIO;
    return NULL;
  }
  if (len)
    *len = b.len;
  return wl_buf_detach(&b);
}
