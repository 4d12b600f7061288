/* cache.h - the result cache: what a file's analysis produced, stored under
 * a key naming everything the caller says it depended on (warplint itself,
 * the flags, the options, the file's name), with the files the parse read
 * (by content hash), the directories their lookup searched (by identity and
 * modification time) and the caller's own facts (include inference). A
 * lookup serves the stored result only when all of these are unchanged, so
 * that an unchanged file is not parsed again; anything else is a miss.
 *
 * One file per entry under DIR/v1/XX/, written to a temporary file and
 * renamed (concurrent runs and their workers never see half an entry), with
 * a checksum (a truncated or corrupt entry is a miss, never an error). The
 * directory is the user's: $WARPLINT_CACHE_DIR, $XDG_CACHE_HOME/warplint or
 * ~/.cache/warplint, or --cache-dir; never a setting of the analyzed tree.
 * Its size is bounded: after a run that stored entries, the least recently
 * used entries are removed while it is over the bound. Not thread-safe: the
 * run's parent process alone uses it. */
#ifndef WARPLINT_CACHE_H
#define WARPLINT_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

typedef struct wl_cache wl_cache;

/* The default size bound, in MiB ($WARPLINT_CACHE_SIZE overrides it). */
#define WL_CACHE_DEFAULT_MIB 256

/* The cache directory when none is given: $WARPLINT_CACHE_DIR,
 * $XDG_CACHE_HOME/warplint (when absolute), $HOME/.cache/warplint. NULL
 * when there is none (no home directory). malloc'ed. */
char *wl_cache_default_dir(void);

/* The size bound: $WARPLINT_CACHE_SIZE MiB when set, else the default.
 * False (and a message in why) when it is set but not a number. */
bool wl_cache_size_from_env(uint64_t *bytes, wl_buf *why);

/* Opens (makes, mode 0700) the cache in dir. NULL, with the reason in why,
 * when it cannot be used: not a directory, not the user's, not writable. */
wl_cache *wl_cache_open(const char *dir, uint64_t max_bytes, wl_buf *why);
/* Removes the least recently used entries while the cache is over its
 * bound (only when this run stored any), then frees c. */
void wl_cache_close(wl_cache *c);
const char *wl_cache_dir(const wl_cache *c);

/* A file the stored result depends on, by content. */
typedef struct wl_cache_dep {
  const char *path; /* as the parse named it (relative to the run's cwd, or absolute) */
  uint64_t hash;    /* wl_fnv1a of its bytes */
  size_t len;
} wl_cache_dep;

/* Whether a fact recorded with an entry still holds (caller's format). */
typedef bool (*wl_cache_fact_fn)(const char *fact, void *ud);

/* The payload stored under key (malloc'ed, *len bytes) when there is a
 * whole entry for exactly this key and every file, directory and fact it
 * recorded is unchanged; NULL otherwise. A hit marks the entry recently
 * used. */
char *wl_cache_get(wl_cache *c, const char *key, size_t keylen, wl_cache_fact_fn check, void *ud,
                   size_t *len);

/* Stores payload under key with what it depends on: deps (wl_cache_dep*),
 * dirs (char*: directories whose entries the parse's lookups depended on)
 * and facts (char*). Nothing is stored when a directory was modified since
 * shortly before the run began (the state the parse saw is not certain) or
 * the entry cannot be written; the run goes on either way. */
void wl_cache_put(wl_cache *c, const char *key, size_t keylen, const wl_vec *deps,
                  const wl_vec *dirs, const wl_vec *facts, const char *payload, size_t len);

/* Counts of this run: lookups that hit, that missed, entries stored. */
void wl_cache_stats(const wl_cache *c, size_t *hits, size_t *misses, size_t *stored);

#endif
