/* gitignore.h - what git ignores, for directory walks: .gitignore files,
 * .git/info/exclude and the user's core.excludesFile, as git reads them,
 * through libgit2, which runs in a child process with a time and memory
 * bound. Each repository is opened once per run. */
#ifndef WARPLINT_GITIGNORE_H
#define WARPLINT_GITIGNORE_H

#include <stdbool.h>

typedef struct wl_gitignore wl_gitignore;

wl_gitignore *wl_gitignore_new(void);
void wl_gitignore_free(wl_gitignore *g);

/* Whether git ignores the canonical path (a file or a directory) in the
 * repository that holds it: the one whose work tree is the nearest directory
 * at or above it holding .git. False outside a repository, for the work
 * tree itself, and when the repository cannot be opened (why, once per
 * repository, in *note when note is not NULL; the caller frees it). */
bool wl_gitignore_ignored(wl_gitignore *g, const char *canonical, char **note);

/* Once libgit2 has stopped answering (a FIFO or a huge file among the
 * repository's ignore files or configuration: see gitignore.c), what to warn
 * about, once (the caller frees it); NULL otherwise. */
char *wl_gitignore_take_warning(wl_gitignore *g);

#endif
