/* paths.h - canonical and relative forms of file paths, for the compile
 * database, baselines, fixes and the project root. */
#ifndef WARPLINT_PATHS_H
#define WARPLINT_PATHS_H

#include <stdbool.h>

/* Absolute, canonical form of path: realpath() when the file exists,
 * otherwise the absolute path with "." and ".." removed. Caller frees. */
char *wl_canonical_path(const char *path);
/* path relative to dir when it lies under dir (both canonical), else a copy of path. */
char *wl_relative_path(const char *path, const char *dir);

/* dir/p, or a copy of p when it is absolute or dir is NULL or empty. Caller frees. */
char *wl_join_path(const char *dir, const char *p);

/* mkdir -p with mode 0700 for the directories it makes; true when `dir` is
 * a directory afterwards (the result cache and the precompiled-header store). */
bool wl_make_dirs(const char *dir);

struct timespec;
/* <0, 0, >0 as file time a is before, equal to, after b (the least recently
 * used entries of the result cache and the precompiled-header store go first). */
int wl_timespec_cmp(const struct timespec *a, const struct timespec *b);

#endif
