/* paths.c - canonical and relative forms of file paths (see paths.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#include "paths.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"

char *wl_join_path(const char *dir, const char *p) {
  if (!dir || !*dir || p[0] == '/')
    return wl_xstrdup(p);
  wl_buf b;
  wl_buf_init(&b);
  size_t dl = strlen(dir);
  wl_buf_printf(&b, "%s%s%s", dir, dir[dl - 1] == '/' ? "" : "/", p);
  return wl_buf_detach(&b);
}

/* Removes "." and ".." components and doubled slashes of an absolute path. */
static char *lexical_normalize(const char *abs) {
  char *copy = wl_xstrdup(abs);
  wl_vec parts = {0};
  for (char *save = NULL, *tok = strtok_r(copy, "/", &save); tok;
       tok = strtok_r(NULL, "/", &save)) {
    if (strcmp(tok, ".") == 0)
      continue;
    if (strcmp(tok, "..") == 0) {
      if (parts.n)
        parts.n--;
      continue;
    }
    wl_vec_push(&parts, tok);
  }
  wl_buf b;
  wl_buf_init(&b);
  for (size_t i = 0; i < parts.n; i++)
    wl_buf_printf(&b, "/%s", (char *)parts.v[i]);
  if (b.len == 0)
    wl_buf_putc(&b, '/');
  wl_vec_free(&parts);
  free(copy);
  return wl_buf_detach(&b);
}

char *wl_canonical_path(const char *path) {
  char resolved[PATH_MAX];
  if (realpath(path, resolved))
    return wl_xstrdup(resolved);
  char cwd[PATH_MAX];
  char *abs = wl_join_path(path[0] == '/' ? NULL : (getcwd(cwd, sizeof cwd) ? cwd : NULL), path);
  char *n = lexical_normalize(abs);
  free(abs);
  return n;
}

char *wl_relative_path(const char *path, const char *dir) {
  size_t dl = strlen(dir);
  if (strcmp(dir, "/") == 0 && path[0] == '/' && path[1])
    return wl_xstrdup(path + 1);
  if (strncmp(path, dir, dl) == 0 && path[dl] == '/' && path[dl + 1])
    return wl_xstrdup(path + dl + 1);
  if (strcmp(path, dir) == 0)
    return wl_xstrdup(".");
  return wl_xstrdup(path);
}

bool wl_make_dirs(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0)
    return S_ISDIR(st.st_mode);
  char *p = wl_xstrdup(dir);
  for (char *s = p + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      mkdir(p, 0700);
      *s = '/';
    }
  free(p);
  return mkdir(dir, 0700) == 0 || (stat(dir, &st) == 0 && S_ISDIR(st.st_mode));
}

int wl_timespec_cmp(const struct timespec *a, const struct timespec *b) {
  if (a->tv_sec != b->tv_sec)
    return a->tv_sec < b->tv_sec ? -1 : 1;
  return a->tv_nsec < b->tv_nsec ? -1 : a->tv_nsec > b->tv_nsec;
}
