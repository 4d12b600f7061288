/* project.h - the project root (the nearest ancestor directory holding .git)
 * and the path tests built on it: what a run may read its configuration from
 * and what --fix may rewrite. */
#ifndef WARPLINT_PROJECT_H
#define WARPLINT_PROJECT_H

#include <stdbool.h>
#include <stddef.h>

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

/* Where --fix may write for an input named on the command line: the
 * project root of the input's directory (a file: its directory), or without
 * a repository the input itself (a directory) or its directory. Canonical;
 * caller frees. */
char *wl_fix_root_of_input(const char *input);

/* Whether path names an existing file that is one of paths (the same device
 * and inode: through symbolic and hard links). For outputs (--export-fixes,
 * -o) that must never overwrite an input. */
bool wl_path_is_one_of(const char *path, const char *const *paths, size_t n);

#endif
