/* project.c - the project root: the nearest ancestor holding .git, else the
 * current directory (see project.h). */
#include "project.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "compdb.h"

static bool holds_git(const char *dir) {
  wl_buf p;
  wl_buf_init(&p);
  wl_buf_printf(&p, "%s%s.git", dir, strcmp(dir, "/") == 0 ? "" : "/");
  struct stat st;
  bool hit = lstat(p.data, &st) == 0 && (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode));
  wl_buf_free(&p);
  return hit;
}

char *wl_project_root_of(const char *path) {
  char *d = wl_canonical_path(path);
  struct stat st;
  if (stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
    char *slash = strrchr(d, '/');
    if (slash)
      slash[slash == d ? 1 : 0] = '\0';
  }
  for (;;) {
    if (holds_git(d))
      return d;
    char *slash = strrchr(d, '/');
    if (!slash || strcmp(d, "/") == 0)
      break;
    slash[slash == d ? 1 : 0] = '\0';
  }
  free(d);
  return NULL;
}

char *wl_project_root(void) {
  char *root = wl_project_root_of(".");
  return root ? root : wl_canonical_path(".");
}

bool wl_path_within(const char *path, const char *root) {
  size_t n = strlen(root);
  if (strcmp(root, "/") == 0)
    return path[0] == '/';
  return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

char *wl_fix_root_of_input(const char *input) {
  struct stat st;
  char *dir;
  if (stat(input, &st) == 0 && S_ISDIR(st.st_mode)) {
    dir = wl_canonical_path(input);
  } else {
    /* a file: its directory, without resolving a link that the file may be */
    char *copy = wl_xstrdup(input);
    char *slash = strrchr(copy, '/');
    if (!slash)
      strcpy(copy, ".");
    else
      slash[slash == copy ? 1 : 0] = '\0';
    dir = wl_canonical_path(copy);
    free(copy);
  }
  char *root = wl_project_root_of(dir);
  if (root) {
    free(dir);
    return root;
  }
  return dir;
}

bool wl_path_is_one_of(const char *path, const char *const *paths, size_t n) {
  struct stat out;
  if (stat(path, &out) != 0)
    return false;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (paths[i] && stat(paths[i], &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
      return true;
  }
  return false;
}
