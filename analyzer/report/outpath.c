/* outpath.c - lexical normalization of output paths (see outpath.h). */
#include "outpath.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Splits s at '/' into components, dropping "" and "."; ".." removes the
 * previous component unless there is none (or it is ".." itself), or the
 * path is absolute (above "/" is "/"). */
static void components(const char *s, bool absolute, wl_vec *parts, char **copy) {
  *copy = wl_xstrdup(s);
  for (char *save = NULL, *tok = strtok_r(*copy, "/", &save); tok;
       tok = strtok_r(NULL, "/", &save)) {
    if (strcmp(tok, ".") == 0)
      continue;
    if (strcmp(tok, "..") == 0) {
      if (parts->n > 0 && strcmp(parts->v[parts->n - 1], "..") != 0) {
        parts->n--;
        continue;
      }
      if (absolute)
        continue;
    }
    wl_vec_push(parts, tok);
  }
}

static void outpath(const char *path, const char *base, bool climb, wl_buf *out);

void wl_outpath(const char *path, const char *base, wl_buf *out) {
  outpath(path, base, false, out);
}

void wl_outpath_relative(const char *path, const char *base, wl_buf *out) {
  outpath(path, base, true, out);
}

static void outpath(const char *path, const char *base, bool climb, wl_buf *out) {
  size_t start = out->len;
  if (!path || !*path) {
    wl_buf_puts(out, ".");
    return;
  }
  bool absolute = path[0] == '/';
  wl_vec p = {0}, b = {0};
  char *pc = NULL, *bc = NULL;
  components(path, absolute, &p, &pc);
  size_t skip = 0;
  if (absolute && base && base[0] == '/') {
    components(base, true, &b, &bc);
    size_t common = 0;
    while (common < b.n && common < p.n && strcmp(p.v[common], b.v[common]) == 0)
      common++;
    if (common == b.n || climb) {
      skip = common;
      absolute = false;
      for (size_t i = common; i < b.n; i++) /* climb out of base to the common part */
        wl_buf_puts(out, i + 1 < b.n || p.n > skip ? "../" : "..");
    }
  }
  if (absolute)
    wl_buf_putc(out, '/');
  for (size_t i = skip; i < p.n; i++) {
    if (i > skip)
      wl_buf_putc(out, '/');
    wl_buf_puts(out, p.v[i]);
  }
  if (!absolute && p.n == skip && out->len == start)
    wl_buf_puts(out, ".");
  wl_vec_free(&p);
  wl_vec_free(&b);
  free(pc);
  free(bc);
}
