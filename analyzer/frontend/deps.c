/* deps.c - the files a parse read (deps.h). */
#include "deps.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "parse.h"

typedef struct collect {
  CXTranslationUnit ctu;
  wl_vec *out; /* wl_tu_dep* (malloc'ed, path malloc'ed) */
  wl_hmap seen;
  bool bad;
} collect;

static bool is_prelude(const char *path) {
  size_t n = strlen(WL_PRELUDE_DIR);
  return strncmp(path, WL_PRELUDE_DIR, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static void visit(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  collect *c = data;
  CXString s = clang_getFileName(file);
  const char *name = clang_getCString(s);
  if (name && *name && !is_prelude(name) && !wl_hmap_get(&c->seen, name)) {
    size_t size = 0;
    const char *text = clang_getFileContents(c->ctu, file, &size);
    if (!text) {
      c->bad = true;
    } else {
      wl_tu_dep *d = wl_xcalloc(1, sizeof *d);
      char *path = wl_xstrdup(name);
      d->path = path;
      d->len = size;
      d->hash = wl_fnv1a(WL_FNV_START, text, size);
      wl_hmap_put(&c->seen, path, d, false);
      wl_vec_push(c->out, d);
    }
  }
  clang_disposeString(s);
}

/* Every file of ctu, appended to out; false when one's text was missing. */
static bool list_files(CXTranslationUnit ctu, wl_vec *out) {
  collect c = {ctu, out, {0}, false};
  wl_hmap_init(&c.seen, true);
  clang_getInclusions(ctu, visit, &c);
  wl_hmap_free(&c.seen);
  return !c.bad;
}

static void free_list(wl_vec *v) {
  for (size_t i = 0; i < v->n; i++) {
    wl_tu_dep *d = v->v[i];
    free((char *)d->path);
    free(d);
  }
  wl_vec_free(v);
}

void wl_deps_memo_free(wl_deps_memo *m) {
  for (size_t i = 0; i < m->pch.n; i++) {
    free(m->pch.v[i]);
    if (m->lists.v[i])
      free_list(m->lists.v[i]);
    free(m->lists.v[i]);
  }
  wl_vec_free(&m->pch);
  wl_vec_free(&m->lists);
}

/* The files inside a precompiled header, listed once: clang_getInclusions
 * does not visit them in a unit that loaded it, but does in the unit of the
 * AST file itself. NULL when they cannot be listed. */
static const wl_vec *pch_files(wl_deps_memo *m, CXIndex index, const char *pch) {
  for (size_t i = 0; i < m->pch.n; i++)
    if (strcmp(m->pch.v[i], pch) == 0)
      return m->lists.v[i];
  wl_vec *list = wl_xcalloc(1, sizeof *list);
  CXTranslationUnit ptu = NULL;
  if (clang_createTranslationUnit2(index, pch, &ptu) != CXError_Success || !ptu ||
      !list_files(ptu, list)) {
    free_list(list);
    free(list);
    list = NULL;
  }
  if (ptu)
    clang_disposeTranslationUnit(ptu);
  wl_vec_push(&m->pch, wl_xstrdup(pch));
  wl_vec_push(&m->lists, list);
  return list;
}

bool wl_deps_collect(wl_tu *tu, CXTranslationUnit ctu, CXIndex index, const char *pch,
                     wl_deps_memo *memo) {
  tu->deps = NULL;
  tu->ndeps = 0;
  wl_vec v = {0};
  bool ok = list_files(ctu, &v);
  const wl_vec *pv = NULL;
  if (ok && pch) {
    pv = pch_files(memo, index, pch);
    ok = pv != NULL;
  }
  size_t n = v.n + (pv ? pv->n : 0);
  if (ok && n) {
    tu->deps = wl_arena_alloc(&tu->arena, n * sizeof *tu->deps);
    for (size_t i = 0; i < n; i++) {
      const wl_tu_dep *d = i < v.n ? v.v[i] : pv->v[i - v.n];
      tu->deps[i].path = wl_arena_strdup(&tu->arena, d->path);
      tu->deps[i].hash = d->hash;
      tu->deps[i].len = d->len;
    }
    tu->ndeps = (unsigned)n;
  }
  free_list(&v);
  return ok && n;
}
