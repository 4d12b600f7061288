/* buf.c - growable buffers, vectors and checked allocation. */
#include "buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

static const char *kind_of(mode_t m) {
  return S_ISDIR(m)    ? "a directory"
         : S_ISFIFO(m) ? "a FIFO"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
                       : "not a regular file";
}

static void size_text(size_t n, char *out, size_t cap) {
  if (n >= ((size_t)1 << 20) && n % ((size_t)1 << 20) == 0)
    snprintf(out, cap, "%zu MiB", n >> 20);
  else
    snprintf(out, cap, "%zu bytes", n);
}

char *wl_read_file_max(const char *path, size_t max, size_t *len, wl_buf *why) {
  /* O_NONBLOCK: opening a FIFO with no writer does not wait */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    if (why)
      wl_buf_puts(why, strerror(e));
    errno = e;
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    if (why)
      wl_buf_puts(why, strerror(e));
    close(fd);
    errno = e;
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    if (why)
      wl_buf_printf(why, "not a regular file (%s)", kind_of(st.st_mode));
    close(fd);
    errno = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
    return NULL;
  }
  char lim[32];
  size_text(max, lim, sizeof lim);
  if ((unsigned long long)st.st_size > max) {
    if (why)
      wl_buf_printf(why, "larger than %s", lim);
    close(fd);
    errno = EFBIG;
    return NULL;
  }
  /* regular: reads block as usual (a file that grows is cut at max + 1) */
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  wl_buf b;
  wl_buf_init(&b);
  char tmp[65536];
  int err = 0;
  for (;;) {
    ssize_t n = read(fd, tmp, sizeof tmp);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      err = errno;
      break;
    }
    if (n == 0)
      break;
    wl_buf_add(&b, tmp, (size_t)n);
    if (b.len > max) {
      err = EFBIG;
      break;
    }
  }
  close(fd);
  if (err) {
    wl_buf_free(&b);
    if (why && err == EFBIG)
      wl_buf_printf(why, "larger than %s", lim);
    else if (why)
      wl_buf_puts(why, strerror(err));
    errno = err;
    return NULL;
  }
  if (len)
    *len = b.len;
  return wl_buf_detach(&b);
}

char *wl_read_file(const char *path, size_t *len) {
  return wl_read_file_max(path, WL_READ_MAX, len, NULL);
}
