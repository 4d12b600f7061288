/* infer.c - include inference (infer.h): the project tree's files, listed
 * once per tree and per run, and the look-up of an include's path in them. */
#include "infer.h"

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"

typedef struct tree {
  char *root;
  wl_vec files; /* char*: paths relative to root */
} tree;

struct wl_infer {
  pthread_mutex_t lock;
  wl_vec trees; /* tree* */
};

wl_infer *wl_infer_new(void) {
  wl_infer *in = wl_xcalloc(1, sizeof *in);
  pthread_mutex_init(&in->lock, NULL);
  return in;
}

void wl_infer_free(wl_infer *in) {
  if (!in)
    return;
  for (size_t i = 0; i < in->trees.n; i++) {
    tree *t = in->trees.v[i];
    for (size_t k = 0; k < t->files.n; k++)
      free(t->files.v[k]);
    wl_vec_free(&t->files);
    free(t->root);
    free(t);
  }
  wl_vec_free(&in->trees);
  pthread_mutex_destroy(&in->lock);
  free(in);
}

static bool exists_in(const char *dir, const char *name) {
  wl_buf p;
  wl_buf_init(&p);
  wl_buf_printf(&p, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
  struct stat st;
  bool ok = lstat(p.data, &st) == 0;
  wl_buf_free(&p);
  return ok;
}

/* The parent of canonical directory d in place; false at "/". */
static bool to_parent(char *d) {
  char *slash = strrchr(d, '/');
  if (!slash || strcmp(d, "/") == 0)
    return false;
  slash[slash == d ? 1 : 0] = '\0';
  return true;
}

static bool has_build_file(const char *d) {
  return exists_in(d, "CMakeLists.txt") || exists_in(d, "Makefile");
}

static bool is_checkout(const char *d) { return exists_in(d, ".git") || exists_in(d, ".warplint"); }

char *wl_project_tree(const char *dir) {
  char *d = wl_xstrdup(dir);
  while (!is_checkout(d) && !has_build_file(d))
    if (!to_parent(d)) {
      free(d);
      return NULL;
    }
  return d;
}

char *wl_project_checkout(const char *dir) {
  char *d = wl_xstrdup(dir);
  while (!is_checkout(d))
    if (!to_parent(d)) {
      free(d);
      return NULL;
    }
  return d;
}

char *wl_project_top(const char *project) {
  char *d = wl_xstrdup(project);
  if (is_checkout(d))
    return d;
  char *up = wl_xstrdup(d);
  while (to_parent(up) && (has_build_file(up) || is_checkout(up))) {
    strcpy(d, up);
    if (is_checkout(up))
      break;
  }
  free(up);
  return d;
}

/* Regular files under dir (hidden entries and symbolic links to directories
 * skipped), as paths relative to the tree's root. */
static void list_files(tree *t, const char *dir, const char *rel, int depth) {
  if (depth > 32 || t->files.n >= WL_INFER_MAX_FILES)
    return;
  DIR *d = opendir(dir);
  if (!d)
    return;
  struct dirent *de;
  while ((de = readdir(d)) != NULL && t->files.n < WL_INFER_MAX_FILES) {
    if (de->d_name[0] == '.')
      continue;
    wl_buf p, r;
    wl_buf_init(&p);
    wl_buf_init(&r);
    wl_buf_printf(&p, "%s/%s", dir, de->d_name);
    wl_buf_printf(&r, "%s%s%s", rel, *rel ? "/" : "", de->d_name);
    struct stat st;
    if (lstat(p.data, &st) == 0) {
      if (S_ISDIR(st.st_mode))
        list_files(t, p.data, r.data, depth + 1);
      else if (S_ISREG(st.st_mode))
        wl_vec_push(&t->files, wl_buf_detach(&r));
    }
    wl_buf_free(&p);
    wl_buf_free(&r);
  }
  closedir(d);
}

static const tree *tree_of(wl_infer *in, const char *root) {
  pthread_mutex_lock(&in->lock);
  tree *found = NULL;
  for (size_t i = 0; i < in->trees.n && !found; i++)
    if (strcmp(((tree *)in->trees.v[i])->root, root) == 0)
      found = in->trees.v[i];
  if (!found) {
    found = wl_xcalloc(1, sizeof *found);
    found->root = wl_xstrdup(root);
    list_files(found, strcmp(root, "/") == 0 ? "" : root, "", 0);
    wl_vec_push(&in->trees, found);
  }
  pthread_mutex_unlock(&in->lock);
  return found;
}

char *wl_infer_include(wl_infer *in, const char *root, const char *name, bool *ambiguous) {
  *ambiguous = false;
  /* "../x/y.h": y.h in a directory x beside the including file's ancestor */
  unsigned up = 0;
  while (strncmp(name, "../", 3) == 0 || strncmp(name, "./", 2) == 0) {
    up += name[1] == '.';
    name += name[1] == '.' ? 3 : 2;
  }
  if (!*name || name[0] == '/' || strstr(name, "/../") || strstr(name, "/./"))
    return NULL;
  unsigned comps = 1;
  for (const char *c = name; *c; c++)
    comps += *c == '/';
  if (up >= comps)
    return NULL;
  const tree *t = tree_of(in, root);
  size_t nl = strlen(name);
  const char *hit = NULL;
  for (size_t i = 0; i < t->files.n; i++) {
    const char *f = t->files.v[i];
    size_t fl = strlen(f);
    if (fl < nl || strcmp(f + fl - nl, name) != 0 || (fl > nl && f[fl - nl - 1] != '/'))
      continue;
    if (hit) {
      *ambiguous = true;
      return NULL;
    }
    hit = f;
  }
  if (!hit)
    return NULL;
  /* the directory: root + the file's path without name, plus `up` of name's
   * leading components */
  size_t keep = strlen(hit) - nl;
  const char *c = name;
  for (unsigned k = 0; k < up; k++)
    c = strchr(c, '/') + 1;
  keep += (size_t)(c - name);
  while (keep > 0 && hit[keep - 1] == '/')
    keep--;
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s%s%.*s", strcmp(root, "/") == 0 ? "" : root, keep ? "/" : "", (int)keep,
                hit);
  if (b.len == 0)
    wl_buf_puts(&b, "/");
  return wl_buf_detach(&b);
}
