/* infer.h - include inference: an #include ("..." or <...>) that does not
 * resolve is looked up in the project tree, and a unique file whose path ends
 * with the include's path supplies the include directory. Thread-safe: one wl_infer
 * per run, shared by the workers; each project tree is listed once. */
#ifndef WARPLINT_INFER_H
#define WARPLINT_INFER_H

#include <stdbool.h>

/* Files listed per project tree at most (a larger tree is listed partly). */
#define WL_INFER_MAX_FILES 200000

typedef struct wl_infer wl_infer;

wl_infer *wl_infer_new(void);
void wl_infer_free(wl_infer *in);

/* The project tree of a canonical directory: its nearest ancestor (itself
 * included) holding .git, CMakeLists.txt, Makefile or .warplint; NULL when
 * there is none. */
char *wl_project_tree(const char *dir);
/* The top of the chain of build files above a project tree: when the tree
 * has only a build file (CMakeLists.txt, Makefile), its parents that hold
 * one too (tests/CMakeLists.txt is part of the project of the CMakeLists.txt
 * above it), up to a .git or .warplint; else the tree itself. */
char *wl_project_top(const char *project);
/* The checkout a canonical directory is in: its nearest ancestor (itself
 * included) holding .git or .warplint; NULL when there is none. */
char *wl_project_checkout(const char *dir);

/* The include directory that makes `#include "name"` resolve to the only file
 * under the canonical directory root whose path ends with name ("../" at the
 * start of name allowed). NULL when no file or several files match (then
 * *ambiguous is set when several did). */
char *wl_infer_include(wl_infer *in, const char *root, const char *name, bool *ambiguous);

#endif
