/* fdio.h - whole reads and writes on a file descriptor (retrying short
 * transfers and EINTR), shared by the worker pipes (isolate.c) and the
 * result cache's entry files (cache.c). */
#ifndef WARPLINT_FDIO_H
#define WARPLINT_FDIO_H

#include <stdbool.h>
#include <stddef.h>

/* Writes all n bytes; false on an error or when nothing more can be written. */
bool wl_fd_write_all(int fd, const void *p, size_t n);
/* Reads exactly n bytes; false on an error or an early end of file. */
bool wl_fd_read_all(int fd, void *p, size_t n);

#endif
