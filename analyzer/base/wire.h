/* wire.h - a byte format for results that cross a process boundary (a worker
 * process's pipe, the result cache's files): little-endian u64 numbers and
 * strings as a length and their bytes. A reader never reads past its buffer:
 * a short or malformed input sets `bad` and yields zeros and NULLs. */
#ifndef WARPLINT_WIRE_H
#define WARPLINT_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

/* The length written for a NULL string. */
#define WL_WIRE_NULL UINT64_MAX

void wl_wire_put_u64(wl_buf *b, uint64_t v);
/* s may be NULL (read back as NULL). */
void wl_wire_put_str(wl_buf *b, const char *s);

typedef struct wl_wire_reader {
  const unsigned char *p;
  size_t n, at;
  bool bad;
} wl_wire_reader;

void wl_wire_reader_init(wl_wire_reader *r, const void *p, size_t n);
uint64_t wl_wire_get_u64(wl_wire_reader *r);
/* A u64 that must fit 32 bits; 0 when it does not. */
unsigned wl_wire_get_u32(wl_wire_reader *r);
/* malloc'ed; NULL for a NULL string or when the input is bad. */
char *wl_wire_get_str(wl_wire_reader *r);

#endif
