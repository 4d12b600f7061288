/* wire.c - the byte format of wire.h. */
#include "wire.h"

#include <string.h>

void wl_wire_put_u64(wl_buf *b, uint64_t v) {
  char x[8];
  for (int i = 0; i < 8; i++)
    x[i] = (char)(unsigned char)(v >> (8 * i));
  wl_buf_add(b, x, 8);
}

void wl_wire_put_str(wl_buf *b, const char *s) {
  if (!s) {
    wl_wire_put_u64(b, WL_WIRE_NULL);
    return;
  }
  size_t n = strlen(s);
  wl_wire_put_u64(b, n);
  wl_buf_add(b, s, n);
}

void wl_wire_reader_init(wl_wire_reader *r, const void *p, size_t n) {
  r->p = p;
  r->n = n;
  r->at = 0;
  r->bad = false;
}

uint64_t wl_wire_get_u64(wl_wire_reader *r) {
  if (r->bad || r->n - r->at < 8) {
    r->bad = true;
    return 0;
  }
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)r->p[r->at + (size_t)i] << (8 * i);
  r->at += 8;
  return v;
}

unsigned wl_wire_get_u32(wl_wire_reader *r) {
  uint64_t v = wl_wire_get_u64(r);
  return v <= UINT32_MAX ? (unsigned)v : 0;
}

char *wl_wire_get_str(wl_wire_reader *r) {
  uint64_t n = wl_wire_get_u64(r);
  if (r->bad || n == WL_WIRE_NULL)
    return NULL;
  if (n > r->n - r->at) {
    r->bad = true;
    return NULL;
  }
  char *s = wl_xmalloc((size_t)n + 1);
  memcpy(s, r->p + r->at, (size_t)n);
  s[n] = '\0';
  r->at += (size_t)n;
  return s;
}
