/* fdio.c - whole reads and writes on a file descriptor (see fdio.h). */
#include "fdio.h"

#include <errno.h>
#include <unistd.h>

bool wl_fd_write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t w = write(fd, c, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    c += w;
    n -= (size_t)w;
  }
  return true;
}

bool wl_fd_read_all(int fd, void *p, size_t n) {
  char *c = p;
  while (n > 0) {
    ssize_t r = read(fd, c, n);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      return false;
    c += r;
    n -= (size_t)r;
  }
  return true;
}
