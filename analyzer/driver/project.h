/* project.h - the project root (the nearest ancestor directory holding .git)
 * and the path tests built on it: what a run may read its configuration from
 * and what --fix may rewrite. */
#ifndef WARPLINT_PROJECT_H
#define WARPLINT_PROJECT_H

#include <stdbool.h>

/* The nearest directory at or above path (canonicalized first; a file
 * starts the search at its directory) that holds a .git entry (a directory,
 * or the file of a worktree or submodule). NULL when there is none. Caller
 * frees. */
char *wl_project_root_of(const char *path);

/* The project root of the current directory: wl_project_root_of(".") or,
 * outside any repository, the current directory itself. Canonical; caller
 * frees. */
char *wl_project_root(void);

/* Whether the canonical path is root itself or lies below it (both
 * canonical; a lexical test: "/a/bc" is not within "/a/b"). */
bool wl_path_within(const char *path, const char *root);

#endif
