/* gitignore.c - .gitignore rules through libgit2 (git_ignore_path_is_ignored:
 * the rules of git check-ignore --no-index, parent directories included),
 * with the repositories of a run opened once and cached by work tree. */
#include "gitignore.h"

#include <git2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "paths.h"
#include "project.h"

typedef struct repo_entry {
  char *root;           /* canonical work tree */
  git_repository *repo; /* NULL: it could not be opened */
} repo_entry;

struct wl_gitignore {
  wl_vec repos;          /* repo_entry* */
  char *last_dir;        /* one-entry cache: directory -> repository */
  repo_entry *last_repo; /* NULL: the directory is in no repository */
};

wl_gitignore *wl_gitignore_new(void) {
  git_libgit2_init();
  return wl_xcalloc(1, sizeof(wl_gitignore));
}

void wl_gitignore_free(wl_gitignore *g) {
  if (!g)
    return;
  for (size_t i = 0; i < g->repos.n; i++) {
    repo_entry *e = g->repos.v[i];
    if (e->repo)
      git_repository_free(e->repo);
    free(e->root);
    free(e);
  }
  wl_vec_free(&g->repos);
  free(g->last_dir);
  free(g);
  git_libgit2_shutdown();
}

/* The repository whose work tree holds the canonical directory dir. */
static repo_entry *repo_of(wl_gitignore *g, const char *dir, char **note) {
  if (g->last_dir && strcmp(g->last_dir, dir) == 0)
    return g->last_repo;
  repo_entry *found = NULL;
  char *root = wl_project_root_of(dir);
  if (root) {
    for (size_t i = 0; i < g->repos.n && !found; i++)
      if (strcmp(((repo_entry *)g->repos.v[i])->root, root) == 0)
        found = g->repos.v[i];
    if (!found) {
      found = wl_xcalloc(1, sizeof *found);
      found->root = wl_xstrdup(root);
      /* the work tree itself, not a search upward: the same root as the
       * configuration lookup and --fix */
      if (git_repository_open_ext(&found->repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
        found->repo = NULL;
        const git_error *e = git_error_last();
        if (note) {
          wl_buf b;
          wl_buf_init(&b);
          wl_buf_printf(&b, "%s: .gitignore not read: %s", root,
                        e && e->message ? e->message : "not a git repository");
          *note = wl_buf_detach(&b);
        }
      } else if (git_repository_is_bare(found->repo)) {
        git_repository_free(found->repo);
        found->repo = NULL;
      }
      wl_vec_push(&g->repos, found);
    }
    free(root);
  }
  free(g->last_dir);
  g->last_dir = wl_xstrdup(dir);
  g->last_repo = found;
  return found;
}

bool wl_gitignore_ignored(wl_gitignore *g, const char *canonical, char **note) {
  char *dir = wl_xstrdup(canonical);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) {
    free(dir);
    return false;
  }
  *slash = '\0';
  repo_entry *e = repo_of(g, dir, note);
  free(dir);
  if (!e || !e->repo)
    return false;
  char *rel = wl_relative_path(canonical, e->root);
  int ignored = 0;
  bool hit = rel[0] != '/' && strcmp(rel, ".") != 0 &&
             git_ignore_path_is_ignored(&ignored, e->repo, rel) == 0 && ignored;
  free(rel);
  return hit;
}
