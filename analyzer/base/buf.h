/* buf.h - growable byte buffer (NUL-terminated) and pointer vector. */
#ifndef WARPLINT_BUF_H
#define WARPLINT_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct wl_buf {
  char *data; /* always NUL-terminated once anything was added */
  size_t len, cap;
} wl_buf;

void wl_buf_init(wl_buf *b);
void wl_buf_free(wl_buf *b);
void wl_buf_add(wl_buf *b, const char *s, size_t n);
void wl_buf_puts(wl_buf *b, const char *s);
void wl_buf_putc(wl_buf *b, char c);
#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
void wl_buf_printf(wl_buf *b, const char *fmt, ...);
/* Hands the string over to the caller (never NULL) and resets the buffer. */
char *wl_buf_detach(wl_buf *b);
const char *wl_buf_str(const wl_buf *b); /* "" when empty */

typedef struct wl_vec {
  void **v;
  size_t n, cap;
} wl_vec;

void wl_vec_push(wl_vec *v, void *p);
void wl_vec_free(wl_vec *v);

/* Whole file into memory; returns NULL and sets errno on failure. Reads
 * only regular files (never blocks on a FIFO or a device: errno ENODEV) of at
 * most WL_READ_MAX bytes (errno EFBIG). */
char *wl_read_file(const char *path, size_t *len);
/* The same with a size limit of max bytes, and on failure a reason in why
 * (may be NULL): "not a regular file (a FIFO)", "larger than 1 MiB", or
 * strerror. The contents are NUL-terminated. */
char *wl_read_file_max(const char *path, size_t max, size_t *len, wl_buf *why);
#define WL_READ_MAX ((size_t)256 << 20)
/* Limits of the files warplint reads besides sources: .warplint and option
 * files are small, compilation databases and baselines of big trees are not. */
#define WL_READ_MAX_CONFIG ((size_t)1 << 20)
#define WL_READ_MAX_DATA ((size_t)256 << 20)
/* malloc that aborts on failure */
void *wl_xmalloc(size_t n);
void *wl_xcalloc(size_t n, size_t m);
void *wl_xrealloc(void *p, size_t n);
char *wl_xstrdup(const char *s);

#endif
