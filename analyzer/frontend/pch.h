/* pch.h - precompiled headers shared by the files of a run: the CUDA
 * headers every file starts with (the toolkit's, through clang's CUDA
 * wrapper, or the built-in prelude) are parsed once per set of parser
 * arguments, saved in a private temporary directory, and loaded by every
 * file parsed with the same arguments (-include-pch). Used by parse.c only;
 * a cache is shared by all worker threads of a run. */
#ifndef WARPLINT_PCH_H
#define WARPLINT_PCH_H

#include <clang-c/Index.h>
#include <stdbool.h>

typedef struct wl_pch_cache wl_pch_cache;

/* A cache whose files go in a new private directory under $TMPDIR (or
 * /tmp), made now (before worker processes are forked: they share it) and
 * removed with its files by wl_pch_cache_free in the process that made it. */
wl_pch_cache *wl_pch_cache_new(void);
void wl_pch_cache_free(wl_pch_cache *c);

/* The precompiled header for a parse with these arguments and unsaved
 * files, built from `header` (an unsaved file among uf that includes
 * nothing itself: the headers come from the arguments) the first time these
 * arguments are seen; NULL when it could not be built or was rejected
 * (then parse without one). Threads and processes asking for arguments
 * being built wait for that build. The path stays valid until
 * wl_pch_cache_free. */
const char *wl_pch_get(wl_pch_cache *c, CXIndex index, const char *header, const char *const *args,
                       int nargs, struct CXUnsavedFile *uf, unsigned nuf);

/* A translation unit could not load `path`: the arguments it was built for
 * parse without a precompiled header from now on. */
void wl_pch_reject(wl_pch_cache *c, const char *path);

/* How many precompiled headers were built and how many builds failed. */
void wl_pch_stats(wl_pch_cache *c, unsigned *built, unsigned *failed);

#endif
