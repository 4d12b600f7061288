/* toolkit.c - finding a CUDA toolkit's headers (see toolkit.h). Reads the
 * environment and the file system, nothing else. */
#define _XOPEN_SOURCE 700 /* realpath */
#include "toolkit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned wl_toolkit_version(const char *dir) {
  char path[PATH_MAX];
  if (snprintf(path, sizeof path, "%s/include/cuda.h", dir) >= (int)sizeof path)
    return 0;
  FILE *f = fopen(path, "r");
  if (!f)
    return 0;
  unsigned v = 0;
  char line[512];
  while (!v && fgets(line, sizeof line, f))
    if (sscanf(line, " #define CUDA_VERSION %u", &v) != 1)
      v = 0;
  fclose(f);
  return v;
}

static bool is_file(const char *dir, const char *rel) {
  char path[PATH_MAX];
  struct stat st;
  return snprintf(path, sizeof path, "%s/%s", dir, rel) < (int)sizeof path &&
         stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether dir is a usable toolkit; on success tk is filled. */
static bool try_root(const char *dir, const char *source, bool need_version, wl_toolkit *tk,
                     wl_buf *notes) {
  char *real = realpath(dir, NULL);
  struct stat st;
  const char *why = NULL;
  unsigned v = 0;
  if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
    why = "not a directory";
  else if (!is_file(real, "include/cuda_runtime.h") || !is_file(real, "include/cuda.h"))
    why = "no include/cuda_runtime.h and include/cuda.h";
  else if ((v = wl_toolkit_version(real)) < WL_TOOLKIT_MIN_VERSION && need_version)
    why = v ? "older than CUDA 9.0" : "no CUDA_VERSION in include/cuda.h";
  if (why) {
    if (notes)
      wl_buf_printf(notes, "CUDA toolkit candidate %s (%s): %s\n", dir, source, why);
    free(real);
    return false;
  }
  tk->root = real;
  tk->version = v;
  tk->source = source;
  return true;
}

/* The toolkit of the first nvcc on PATH: its bin/.. (symlinks resolved). */
static bool try_nvcc(wl_toolkit *tk, wl_buf *notes) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    return false;
  char *copy = wl_xstrdup(path);
  bool found = false, done = false;
  for (char *save = NULL, *d = strtok_r(copy, ":", &save); d && !done;
       d = strtok_r(NULL, ":", &save)) {
    char exe[PATH_MAX];
    if (snprintf(exe, sizeof exe, "%s/nvcc", *d ? d : ".") >= (int)sizeof exe ||
        access(exe, X_OK) != 0)
      continue;
    done = true; /* the shell would run this one */
    char *real = realpath(exe, NULL);
    char *slash = real ? strrchr(real, '/') : NULL;
    if (slash && slash != real) {
      *slash = '\0'; /* .../bin */
      slash = strrchr(real, '/');
      if (slash && slash != real) {
        *slash = '\0';
        found = try_root(real, "nvcc on PATH", true, tk, notes);
      }
    }
    free(real);
  }
  free(copy);
  return found;
}

bool wl_toolkit_find(const char *explicit_path, bool disabled, wl_toolkit *tk, wl_buf *notes,
                     wl_buf *err) {
  memset(tk, 0, sizeof *tk);
  if (explicit_path) {
    wl_buf why;
    wl_buf_init(&why);
    bool ok = try_root(explicit_path, "--cuda-path", false, tk, &why);
    if (!ok) {
      const char *w = strrchr(wl_buf_str(&why), ':');
      wl_buf_printf(err, "--cuda-path %s: not a CUDA toolkit (%.*s)", explicit_path,
                    w ? (int)strcspn(w + 2, "\n") : 0, w ? w + 2 : "");
    }
    wl_buf_free(&why);
    return ok;
  }
  if (disabled) {
    tk->source = "--no-cuda-path";
    return true;
  }
  static const char *const vars[] = {"CUDA_PATH", "CUDA_HOME"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v && try_root(v, vars[i], true, tk, notes))
      return true;
  }
  if (try_nvcc(tk, notes))
    return true;
  struct stat st;
  if (stat("/usr/local/cuda", &st) == 0 &&
      try_root("/usr/local/cuda", "/usr/local/cuda", true, tk, notes))
    return true;
  tk->source = "no CUDA toolkit found";
  return true;
}

void wl_toolkit_free(wl_toolkit *tk) {
  free(tk->root);
  memset(tk, 0, sizeof *tk);
}

void wl_toolkit_describe(const wl_toolkit *tk, wl_buf *out) {
  if (!tk->root) {
    wl_buf_printf(out, "built-in CUDA prelude (%s)", tk->source ? tk->source : "no toolkit");
    return;
  }
  if (tk->version)
    wl_buf_printf(out, "CUDA %u.%u toolkit in %s (from %s)", tk->version / 1000,
                  tk->version % 1000 / 10, tk->root, tk->source);
  else
    wl_buf_printf(out, "CUDA toolkit in %s (from %s)", tk->root, tk->source);
}
