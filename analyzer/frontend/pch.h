/* pch.h - precompiled headers shared by the files of a run: the CUDA
 * headers every file starts with (the toolkit's, through clang's CUDA
 * wrapper, or the built-in prelude) are parsed once per set of parser
 * arguments, saved in a private temporary directory, and loaded by every
 * file parsed with the same arguments (-include-pch), and kept in a store
 * (the cache directory's pch/) for the next runs. Used by parse.c only; a
 * cache is shared by all worker threads of a run. */
#ifndef WARPLINT_PCH_H
#define WARPLINT_PCH_H

#include <clang-c/Index.h>
#include <stdbool.h>

typedef struct wl_pch_cache wl_pch_cache;

/* A cache whose files go in a new private directory under $TMPDIR (or
 * /tmp), made now (before worker processes are forked: they share it) and
 * removed with its files by wl_pch_cache_free in the process that made it.
 * store: an absolute directory (made 0700 when missing) where built files
 * are kept for later runs and taken from when their key and every file they
 * read are unchanged; NULL: none. */
wl_pch_cache *wl_pch_cache_new(const char *store);
void wl_pch_cache_free(wl_pch_cache *c);

/* How a precompiled header is built (wl_pch_get's `how`, part of its key):
 * WL_PCH_STRICT: a build with any error fails (else only a fatal one);
 * WL_PCH_SKIP_BODIES: the headers' function bodies are skipped
 * (CXTranslationUnit_SkipFunctionBodies; clang keeps those of constexpr
 * functions and of functions whose return type is deduced), so that a file
 * loading it does not instantiate them either. */
#define WL_PCH_STRICT 1u
#define WL_PCH_SKIP_BODIES 2u

/* The precompiled header for a parse with these arguments and unsaved
 * files, built from `header` (an unsaved file among uf) the first time these
 * arguments are seen; NULL when it could not be built or was rejected
 * (then parse without one). Threads and processes asking for arguments
 * being built wait for that build. The path stays valid until
 * wl_pch_cache_free. */
const char *wl_pch_get(wl_pch_cache *c, CXIndex index, const char *header, const char *const *args,
                       int nargs, struct CXUnsavedFile *uf, unsigned nuf, unsigned how);

/* Files kept beside a stored precompiled header: computed from it by a
 * process that loaded it (pch_std.h: what its standard-header section
 * holds), or by the process that built it (the headers that define macros,
 * one line each, "S path" for a system header, "U path" for another: a
 * header the unit meets only as the spelling of a macro's body is then not
 * looked up among all the header's source locations, lower.c). */
#define WL_PCH_COMPANION_STD "std"
#define WL_PCH_COMPANION_SYS "sys"

/* The companion file `name` of the precompiled header `pch` (a path
 * wl_pch_get gave), malloc'ed, when the store has one computed from the
 * same build of the entry `pch` came from; NULL otherwise (no store, not
 * yet written, or the entry was built again since). */
char *wl_pch_companion_read(wl_pch_cache *c, const char *pch, const char *name, size_t *len);
/* Keeps `data` as the companion file `name` of `pch` in its store entry,
 * when the entry still holds the build `pch` came from (written under
 * another name and renamed, under the entry's lock). */
void wl_pch_companion_write(wl_pch_cache *c, const char *pch, const char *name, const void *data,
                            size_t len);

/* Whether a parse that adds the include directories `dirs` after the
 * arguments `pch` (a path wl_pch_get gave) was built with could find a header
 * other than one `pch` holds: some dir holds a file whose path ends like
 * that of a header it read, or the list of those cannot be read. Include
 * inference adds such directories; the files that need none and those that
 * need some then share one precompiled header. Not seen: a file there that
 * a failed lookup in the headers (__has_include) would now find. */
bool wl_pch_shadowed(wl_pch_cache *c, const char *pch, const char *const *dirs, size_t ndirs);

/* A translation unit could not load `path`: the arguments it was built for
 * parse without a precompiled header from now on. */
void wl_pch_reject(wl_pch_cache *c, const char *path);

/* The outcomes of the run's parses with the standard headers (pch_std.h),
 * counted across its threads and worker processes: failed >= 0 adds one
 * (failed > 0: the file had to be parsed again), -1 only reads; *tries and
 * *fails get the totals (0 and 0 when they cannot be kept). */
void wl_pch_std_outcome(wl_pch_cache *c, int failed, unsigned *tries, unsigned *fails);

/* How many precompiled headers this process built, how many builds (or
 * loads) failed, and how many were taken from the store. */
void wl_pch_stats(wl_pch_cache *c, unsigned *built, unsigned *failed, unsigned *reused);

#endif
