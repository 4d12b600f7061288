/* deps.h - the files a parse read, for the result cache (driver/cache.h):
 * the main file and every header libclang reports (clang_getInclusions),
 * with a hash of the text it read, also the headers inside a precompiled
 * header the parse loaded. The built-in prelude's files are not listed (they
 * are part of warplint itself). Used by parse.c only. */
#ifndef WARPLINT_DEPS_H
#define WARPLINT_DEPS_H

#include <clang-c/Index.h>
#include <stdbool.h>

#include "arena.h"
#include "buf.h"
#include "ir.h"

/* What a parser remembers of the precompiled headers it loaded: their
 * files, listed once per parser. */
typedef struct wl_deps_memo {
  wl_vec pch;   /* char*: .pch paths */
  wl_vec lists; /* wl_vec* of wl_tu_dep* (malloc'ed), one per pch path */
} wl_deps_memo;

void wl_deps_memo_free(wl_deps_memo *m);

/* Fills tu->deps (in its arena) from ctu, which was parsed with the
 * precompiled header `pch` (NULL: none) loaded through `index`. False when
 * a file's text could not be had: then tu->ndeps is 0 and the result must
 * not be cached. */
bool wl_deps_collect(wl_tu *tu, CXTranslationUnit ctu, CXIndex index, const char *pch,
                     wl_deps_memo *memo);

#endif
