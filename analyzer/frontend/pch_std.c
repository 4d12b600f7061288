/* pch_std.c - the standard headers of the shared precompiled header and the
 * check that a file parsed with them means what it means without them (see
 * pch_std.h). The precompiled header is read once per parser: its include
 * directives give a graph of its files, whose part reached without the
 * standard-header section is the base (the prelude or the toolkit, which
 * the plain precompiled header holds too); a file parsed with it may use
 * what the base and the headers its own #include directives name (with
 * what those include in turn) declare, and nothing else. */
#define _DEFAULT_SOURCE
#include "pch_std.h"

#include <stdint.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "hmap.h"
#include "ir.h"
#include "paths.h"
#include "wire.h"

/* The headers: what CUDA sources commonly include, and what they include
 * in turn. Not <assert.h>/<cassert>: it is read again at every inclusion
 * (NDEBUG), and costs little. Not <memory>: with the built-in prelude
 * (whose __noinline__ is a macro) libstdc++'s shared_ptr_base.h has an
 * error, and a precompiled header with an error is not used. */
static const char std_text[] = "// the C and C++ standard headers (pch_std.c)\n"
                               "#include <stddef.h>\n"
                               "#include <stdint.h>\n"
                               "#include <limits.h>\n"
                               "#include <float.h>\n"
                               "#include <stdio.h>\n"
                               "#include <stdlib.h>\n"
                               "#include <string.h>\n"
                               "#include <math.h>\n"
                               "#include <time.h>\n"
                               "#include <ctype.h>\n"
                               "#include <cstddef>\n"
                               "#include <cstdint>\n"
                               "#include <climits>\n"
                               "#include <cfloat>\n"
                               "#include <cstdio>\n"
                               "#include <cstdlib>\n"
                               "#include <cstring>\n"
                               "#include <cmath>\n"
                               "#include <ctime>\n"
                               "#include <cctype>\n"
                               "#include <new>\n"
                               "#include <limits>\n"
                               "#include <type_traits>\n"
                               "#include <utility>\n"
                               "#include <exception>\n"
                               "#include <stdexcept>\n"
                               "#include <typeinfo>\n"
                               "#include <string>\n"
                               "#include <vector>\n"
                               "#include <algorithm>\n"
                               "#include <numeric>\n"
                               "#include <functional>\n"
                               "#include <iostream>\n"
                               "#include <fstream>\n"
                               "#include <sstream>\n"
                               "#include <iomanip>\n"
                               "#include <map>\n"
                               "#include <set>\n";

const char *wl_pch_std_text(void) { return std_text; }

/* What CUDA sources include of thrust, cub and libcu++ (the toolkit's
 * include/cccl, or its include/ before CUDA 12), with what they include in
 * turn: thrust's algorithms, containers and iterators, all of cub, and the
 * libcu++ headers the samples use. */
static const char *const cccl_headers[] = {
    "thrust/version.h",
    "thrust/device_vector.h",
    "thrust/host_vector.h",
    "thrust/device_ptr.h",
    "thrust/device_malloc.h",
    "thrust/device_free.h",
    "thrust/execution_policy.h",
    "thrust/functional.h",
    "thrust/copy.h",
    "thrust/fill.h",
    "thrust/sequence.h",
    "thrust/transform.h",
    "thrust/for_each.h",
    "thrust/reduce.h",
    "thrust/transform_reduce.h",
    "thrust/scan.h",
    "thrust/transform_scan.h",
    "thrust/sort.h",
    "thrust/unique.h",
    "thrust/remove.h",
    "thrust/find.h",
    "thrust/count.h",
    "thrust/extrema.h",
    "thrust/gather.h",
    "thrust/scatter.h",
    "thrust/generate.h",
    "thrust/inner_product.h",
    "thrust/adjacent_difference.h",
    "thrust/binary_search.h",
    "thrust/merge.h",
    "thrust/partition.h",
    "thrust/reverse.h",
    "thrust/set_operations.h",
    "thrust/tabulate.h",
    "thrust/equal.h",
    "thrust/logical.h",
    "thrust/replace.h",
    "thrust/mismatch.h",
    "thrust/swap.h",
    "thrust/tuple.h",
    "thrust/pair.h",
    "thrust/complex.h",
    "thrust/random.h",
    "thrust/memory.h",
    "thrust/distance.h",
    "thrust/advance.h",
    "thrust/iterator/counting_iterator.h",
    "thrust/iterator/constant_iterator.h",
    "thrust/iterator/transform_iterator.h",
    "thrust/iterator/zip_iterator.h",
    "thrust/iterator/permutation_iterator.h",
    "thrust/iterator/discard_iterator.h",
    "thrust/iterator/reverse_iterator.h",
    "cub/cub.cuh",
    "cuda/atomic",
    "cuda/barrier",
    "cuda/pipeline",
};

void wl_pch_cccl_append(wl_buf *t) {
  wl_buf_puts(t, "// the CUDA C++ core libraries (pch_std.c)\n");
  for (size_t i = 0; i < sizeof cccl_headers / sizeof cccl_headers[0]; i++)
    wl_buf_printf(t, "#if __has_include(<%s>)\n#include <%s>\n#endif\n", cccl_headers[i],
                  cccl_headers[i]);
}

struct wl_pch_std {
  wl_hmap index;       /* file key (owned) -> 1 + node */
  size_t nn;           /* nodes */
  size_t *start;       /* [nn + 1]: node i includes adj[start[i] .. start[i+1]) */
  uint32_t *adj;       /* included nodes */
  unsigned char *base; /* [nn]: reached without the section */
  wl_hmap macros;      /* macro name (owned) -> wl_vec* of 1 + node, defined by the section only */
  char **paths;        /* [nn]: a file's name (owned) */
  bool have_idents;    /* idents is filled (on first use) */
  bool cccl;           /* the section holds the CUDA C++ core libraries */
  wl_hmap idents;      /* the identifiers of the section's own files (owned keys) */
  wl_hmap bodies;      /* macro name (owned) -> wl_vec* of pairs 1 + node, text hash: where
                          each definition of it is (base and section) and what it says */
  wl_hmap texts;       /* file name (owned) -> file_text* of the headers read for that */
};

/* A file's key: its device and inode (the same file under two spellings is
 * one node), else its name. */
static char *file_key(CXFile f) {
  CXFileUniqueID id;
  wl_buf b;
  wl_buf_init(&b);
  if (clang_getFileUniqueID(f, &id) == 0 && (id.data[0] || id.data[1])) {
    wl_buf_printf(&b, "%llx:%llx", id.data[0], id.data[1]);
  } else {
    CXString s = clang_getFileName(f);
    const char *n = clang_getCString(s);
    wl_buf_printf(&b, "n:%s", n ? n : "");
    clang_disposeString(s);
  }
  return wl_buf_detach(&b);
}

static bool file_named(CXFile f, const char *name) {
  CXString s = clang_getFileName(f);
  const char *n = clang_getCString(s);
  bool same = n && strcmp(n, name) == 0;
  clang_disposeString(s);
  return same;
}

typedef struct load_ctx {
  wl_pch_std *s;
  const char *header;
  unsigned first_line;
  wl_vec edges;   /* (from << 32 | to) */
  wl_vec roots;   /* base roots: nodes */
  wl_vec section; /* nodes the section includes */
  wl_vec defs;    /* pairs: macro name (owned), (void*)node */
} load_ctx;

static uintptr_t node_of(wl_pch_std *s, CXFile f) {
  char *k = file_key(f);
  void **slot = wl_hmap_slot_of(&s->index, k);
  if (*slot) {
    free(k);
    return (uintptr_t)*slot - 1;
  }
  /* the new slot's key is k itself (the map copies no key): now owned */
  *slot = (void *)(uintptr_t)(s->nn + 1);
  if (s->nn % 64 == 0)
    s->paths = wl_xrealloc(s->paths, (s->nn + 64) * sizeof *s->paths);
  CXString fs = clang_getFileName(f);
  s->paths[s->nn] = wl_xstrdup(clang_getCString(fs) ? clang_getCString(fs) : "");
  clang_disposeString(fs);
  return s->nn++;
}

/* A hash of what a macro definition says: its text from its name to its
 * last token, each run of blanks (and line continuations) as one space;
 * 0 when the text cannot be had. */
typedef struct file_text {
  char *text; /* owned; NULL: unreadable */
  size_t size;
} file_text;

/* A header's text as on disk, read once (texts: name -> file_text*). Not
 * clang_getFileContents: it looks the file up among all the source
 * locations of the unit, which a precompiled header's are many (seconds for
 * its macros). A stored precompiled header is used only while its files are
 * unchanged (pch.h). */
static const char *contents_of(wl_hmap *texts, CXFile f, size_t *size) {
  CXString fs = clang_getFileName(f);
  const char *name = clang_getCString(fs);
  file_text *ft = name ? wl_hmap_get(texts, name) : NULL;
  if (!ft && name) {
    ft = wl_xcalloc(1, sizeof *ft);
    ft->text = wl_read_file(name, &ft->size);
    wl_hmap_put(texts, wl_xstrdup(name), ft, false);
  }
  clang_disposeString(fs);
  *size = ft && ft->text ? ft->size : 0;
  return ft ? ft->text : NULL;
}

static void free_texts(wl_pch_std *s) {
  for (size_t i = 0; i < s->texts.cap; i++) {
    free((void *)s->texts.slots[i].key);
    file_text *ft = s->texts.slots[i].val;
    if (ft) {
      free(ft->text);
      free(ft);
    }
  }
}

/* The text of the file that spells a macro definition, and the definition's
 * extent in it [*a, *b); NULL when it has none or the extent lies outside. */
static const char *def_text(wl_pch_std *s, CXCursor def, unsigned *a, unsigned *b) {
  CXSourceRange r = clang_getCursorExtent(def);
  CXFile f = NULL;
  *a = *b = 0;
  clang_getSpellingLocation(clang_getRangeStart(r), &f, NULL, NULL, a);
  clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, b);
  size_t size = 0;
  const char *text = f ? contents_of(&s->texts, f, &size) : NULL;
  return text && *b >= *a && *b <= size ? text : NULL;
}

static uint64_t def_hash(wl_pch_std *s, CXCursor def) {
  unsigned a = 0, b = 0;
  const char *text = def_text(s, def, &a, &b);
  if (!text)
    return 0;
  uint64_t h = WL_FNV_START;
  bool blank = false;
  for (unsigned i = a; i < b; i++) {
    char ch = text[i];
    if (ch == '\\' && i + 1 < b && text[i + 1] == '\n') {
      i++;
      blank = true;
    } else if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
      blank = true;
    } else {
      if (blank)
        h = wl_fnv1a(h, " ", 1);
      blank = false;
      h = wl_fnv1a(h, &ch, 1);
    }
  }
  return h ? h : 1;
}

static void add_body(wl_pch_std *s, const char *name, uintptr_t node, uint64_t hash) {
  wl_vec *v = wl_hmap_get(&s->bodies, name);
  if (!v) {
    v = wl_xcalloc(1, sizeof *v);
    wl_hmap_put(&s->bodies, wl_xstrdup(name), v, false);
  }
  wl_vec_push(v, (void *)(node + 1));
  wl_vec_push(v, (void *)(uintptr_t)hash);
}

static enum CXChildVisitResult load_visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  load_ctx *l = data;
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_MacroDefinition) {
    CXFile from = NULL;
    clang_getExpansionLocation(clang_getCursorLocation(c), &from, NULL, NULL, NULL);
    if (from) {
      CXString ms = clang_getCursorSpelling(c);
      const char *m = clang_getCString(ms);
      if (m) {
        wl_vec_push(&l->defs, wl_xstrdup(m));
        wl_vec_push(&l->defs, (void *)node_of(l->s, from));
        uint64_t h = def_hash(l->s, c);
        if (h)
          add_body(l->s, m, node_of(l->s, from), h);
      }
      clang_disposeString(ms);
    }
    return CXChildVisit_Continue;
  }
  if (k != CXCursor_InclusionDirective)
    return CXChildVisit_Continue;
  CXFile to = clang_getIncludedFile(c);
  if (!to)
    return CXChildVisit_Continue;
  CXFile from = NULL;
  unsigned line = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &from, &line, NULL, NULL);
  uintptr_t tn = node_of(l->s, to);
  if (!from) /* the command line's forced includes (<built-in>) */
    wl_vec_push(&l->roots, (void *)tn);
  else if (file_named(from, l->header))
    wl_vec_push(line >= l->first_line ? &l->section : &l->roots, (void *)tn);
  else
    wl_vec_push(&l->edges, (void *)((node_of(l->s, from) << 32) | tn));
  return CXChildVisit_Continue;
}

/* Marks seen[] for `from` and every node it includes, directly or not. */
static void mark(const wl_pch_std *s, uint32_t from, unsigned char *seen, uint32_t *stack) {
  if (seen[from])
    return;
  size_t sp = 0;
  stack[sp++] = from;
  seen[from] = 1;
  while (sp) {
    uint32_t v = stack[--sp];
    for (size_t k = s->start[v]; k < s->start[v + 1]; k++)
      if (!seen[s->adj[k]]) {
        seen[s->adj[k]] = 1;
        stack[sp++] = s->adj[k];
      }
  }
}

/* A map of owned names to owned vectors. */
static void free_vec_map(wl_hmap *m) {
  for (size_t i = 0; i < m->cap; i++) {
    free((void *)m->slots[i].key);
    wl_vec *v = m->slots[i].val;
    if (v) {
      wl_vec_free(v);
      free(v);
    }
  }
  wl_hmap_free(m);
}

void wl_pch_std_free(wl_pch_std *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->index.cap; i++)
    free((void *)s->index.slots[i].key);
  wl_hmap_free(&s->index);
  free_vec_map(&s->macros);
  for (size_t i = 0; i < s->nn; i++)
    free(s->paths[i]);
  free(s->paths);
  for (size_t i = 0; i < s->idents.cap; i++)
    free((void *)s->idents.slots[i].key);
  wl_hmap_free(&s->idents);
  free_vec_map(&s->bodies);
  free_texts(s);
  wl_hmap_free(&s->texts);
  free(s->start);
  free(s->adj);
  free(s->base);
  free(s);
}

/* An empty map. */
static wl_pch_std *std_new(bool cccl) {
  wl_pch_std *s = wl_xcalloc(1, sizeof *s);
  s->cccl = cccl;
  wl_hmap_init(&s->index, true);
  wl_hmap_init(&s->macros, true);
  wl_hmap_init(&s->idents, true);
  wl_hmap_init(&s->bodies, true);
  wl_hmap_init(&s->texts, true);
  return s;
}

wl_pch_std *wl_pch_std_load(CXIndex index, const char *pch, const char *header, unsigned first_line,
                            bool cccl) {
  CXTranslationUnit ptu = NULL;
  if (clang_createTranslationUnit2(index, pch, &ptu) != CXError_Success || !ptu)
    return NULL;
  wl_pch_std *s = std_new(cccl);
  load_ctx l;
  memset(&l, 0, sizeof l);
  l.s = s;

  l.header = header;
  l.first_line = first_line;
  clang_visitChildren(clang_getTranslationUnitCursor(ptu), load_visit, &l);
  clang_disposeTranslationUnit(ptu);
  /* the headers' text is not kept (a check reads again the few it needs) */
  free_texts(s);
  wl_hmap_free(&s->texts);
  wl_hmap_init(&s->texts, true);
#ifdef __GLIBC__
  /* the unit read back from the file was as big as the one the file being
   * parsed now loads: given back, so that both do not add up in the peak */
  malloc_trim(0);
#endif
  bool ok = l.section.n > 0 && s->nn < UINT32_MAX;
  if (ok) {
    size_t nn = s->nn;
    s->start = wl_xcalloc(nn + 1, sizeof *s->start);
    s->adj = wl_xcalloc(l.edges.n + 1, sizeof *s->adj);
    s->base = wl_xcalloc(nn + 1, 1);
    unsigned char *indeg = wl_xcalloc(nn + 1, 1);
    for (size_t i = 0; i < l.edges.n; i++) {
      uintptr_t e = (uintptr_t)l.edges.v[i];
      s->start[(e >> 32) + 1]++;
      indeg[e & 0xffffffffu] = 1;
    }
    for (size_t i = 0; i < nn; i++)
      s->start[i + 1] += s->start[i];
    size_t *fill = wl_xcalloc(nn + 1, sizeof *fill);
    for (size_t i = 0; i < l.edges.n; i++) {
      uintptr_t e = (uintptr_t)l.edges.v[i];
      size_t from = e >> 32;
      s->adj[s->start[from] + fill[from]++] = (uint32_t)(e & 0xffffffffu);
    }
    free(fill);
    for (size_t i = 0; i < l.section.n; i++)
      indeg[(uintptr_t)l.section.v[i]] = 1;
    /* what no directive of the graph or the section includes came from the
     * command line (or the main file itself): the base too */
    for (size_t i = 0; i < nn; i++)
      if (!indeg[i])
        wl_vec_push(&l.roots, (void *)(uintptr_t)i);
    free(indeg);
    uint32_t *stack = wl_xcalloc(nn + 1, sizeof *stack);
    for (size_t i = 0; i < l.roots.n; i++)
      mark(s, (uint32_t)(uintptr_t)l.roots.v[i], s->base, stack);
    free(stack);
    /* macros: those some base file defines are there in any case */
    wl_hmap in_base;
    wl_hmap_init(&in_base, true);
    for (size_t i = 0; i + 1 < l.defs.n; i += 2)
      if (s->base[(uintptr_t)l.defs.v[i + 1]])
        wl_hmap_put(&in_base, l.defs.v[i], (void *)1, false);
    for (size_t i = 0; i + 1 < l.defs.n; i += 2) {
      const char *m = l.defs.v[i];
      if (wl_hmap_get(&in_base, m))
        continue;
      wl_vec *v = wl_hmap_get(&s->macros, m);
      if (!v) {
        v = wl_xcalloc(1, sizeof *v);
        wl_hmap_put(&s->macros, wl_xstrdup(m), v, false);
      }
      wl_vec_push(v, (void *)((uintptr_t)l.defs.v[i + 1] + 1));
    }
    wl_hmap_free(&in_base);
  }
  for (size_t i = 0; i < l.defs.n; i += 2)
    free(l.defs.v[i]);
  wl_vec_free(&l.defs);
  wl_vec_free(&l.edges);
  wl_vec_free(&l.roots);
  wl_vec_free(&l.section);
  if (!ok) {
    wl_pch_std_free(s);
    return NULL;
  }
  return s;
}

/* ------------------------------------------------------------------------ */
/* The map kept beside a stored precompiled header                          */

/* The version of the bytes below; any change of what the load computes
 * changes it. */
#define STD_MAP_FORMAT 1

/* Writes a map's names and vectors: count, then each name with its values. */
static void save_vec_map(const wl_hmap *m, wl_buf *out) {
  wl_wire_put_u64(out, m->n);
  for (size_t i = 0; i < m->cap; i++) {
    const wl_vec *v = m->slots[i].val;
    if (!m->slots[i].key || !v)
      continue;
    wl_wire_put_str(out, m->slots[i].key);
    wl_wire_put_u64(out, v->n);
    for (size_t k = 0; k < v->n; k++)
      wl_wire_put_u64(out, (uint64_t)(uintptr_t)v->v[k]);
  }
}

void wl_pch_std_save(const wl_pch_std *s, unsigned first_line, wl_buf *out) {
  wl_wire_put_u64(out, STD_MAP_FORMAT);
  wl_wire_put_u64(out, first_line);
  wl_wire_put_u64(out, s->cccl);
  wl_wire_put_u64(out, s->nn);
  /* each node's key (the index's inverse) and name */
  const char **keys = wl_xcalloc(s->nn + 1, sizeof *keys);
  for (size_t i = 0; i < s->index.cap; i++)
    if (s->index.slots[i].key) {
      uintptr_t node = (uintptr_t)s->index.slots[i].val - 1;
      if (node < s->nn)
        keys[node] = s->index.slots[i].key;
    }
  for (size_t i = 0; i < s->nn; i++) {
    wl_wire_put_str(out, keys[i] ? keys[i] : "");
    wl_wire_put_str(out, s->paths[i]);
  }
  free(keys);
  for (size_t i = 0; i <= s->nn; i++)
    wl_wire_put_u64(out, s->start[i]);
  for (size_t i = 0; i < s->start[s->nn]; i++)
    wl_wire_put_u64(out, s->adj[i]);
  for (size_t i = 0; i < s->nn; i++)
    wl_wire_put_u64(out, s->base[i]);
  save_vec_map(&s->macros, out);
  save_vec_map(&s->bodies, out);
}

/* Reads what save_vec_map wrote; each value must be below `below` (0: any)
 * at even positions when pairs, else at every position. */
static bool restore_vec_map(wl_wire_reader *r, wl_hmap *m, uint64_t below, bool pairs) {
  uint64_t n = wl_wire_get_u64(r);
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    char *name = wl_wire_get_str(r);
    uint64_t k = wl_wire_get_u64(r);
    if (!name || k > r->n - r->at || wl_hmap_get(m, name)) {
      free(name);
      return false;
    }
    wl_vec *v = wl_xcalloc(1, sizeof *v);
    wl_hmap_put(m, name, v, false);
    for (uint64_t j = 0; j < k && !r->bad; j++) {
      uint64_t x = wl_wire_get_u64(r);
      if ((!pairs || j % 2 == 0) && (x == 0 || x > below))
        return false;
      wl_vec_push(v, (void *)(uintptr_t)x);
    }
  }
  return !r->bad;
}

wl_pch_std *wl_pch_std_restore(const void *bytes, size_t len, unsigned first_line, bool cccl) {
  wl_wire_reader r;
  wl_wire_reader_init(&r, bytes, len);
  if (wl_wire_get_u64(&r) != STD_MAP_FORMAT || wl_wire_get_u64(&r) != first_line ||
      wl_wire_get_u64(&r) != (uint64_t)cccl)
    return NULL;
  uint64_t nn = wl_wire_get_u64(&r);
  /* each node takes at least two lengths */
  if (r.bad || nn == 0 || nn >= UINT32_MAX || nn > (len - r.at) / 16)
    return NULL;
  wl_pch_std *s = std_new(cccl);
  s->paths = wl_xcalloc(nn, sizeof *s->paths);
  bool ok = true;
  for (uint64_t i = 0; i < nn && ok; i++) {
    char *key = wl_wire_get_str(&r);
    char *path = wl_wire_get_str(&r);
    ok = key && path && !wl_hmap_get(&s->index, key);
    if (ok) {
      wl_hmap_put(&s->index, key, (void *)(uintptr_t)(i + 1), false);
      s->paths[i] = path;
      s->nn = i + 1;
    } else {
      free(key);
      free(path);
    }
  }
  if (ok) {
    s->start = wl_xcalloc(nn + 1, sizeof *s->start);
    for (uint64_t i = 0; i <= nn && ok; i++) {
      uint64_t x = wl_wire_get_u64(&r);
      ok = !r.bad && (i == 0 ? x == 0 : x >= s->start[i - 1]) && x <= (len - r.at) / 8;
      s->start[i] = (size_t)x;
    }
  }
  if (ok) {
    s->adj = wl_xcalloc(s->start[nn] + 1, sizeof *s->adj);
    for (size_t i = 0; i < s->start[nn] && ok; i++) {
      uint64_t x = wl_wire_get_u64(&r);
      ok = !r.bad && x < nn;
      s->adj[i] = (uint32_t)x;
    }
    s->base = wl_xcalloc(nn + 1, 1);
    for (uint64_t i = 0; i < nn && ok; i++) {
      uint64_t x = wl_wire_get_u64(&r);
      ok = !r.bad && x <= 1;
      s->base[i] = (unsigned char)x;
    }
  }
  ok = ok && restore_vec_map(&r, &s->macros, nn, false) &&
       restore_vec_map(&r, &s->bodies, nn, true) && r.at == r.n;
  if (!ok) {
    wl_pch_std_free(s);
    return NULL;
  }
  return s;
}

/* ------------------------------------------------------------------------ */
/* The check of one translation unit                                        */

/* How a section file uses an identifier (the values of idents, or-ed). */
#define USE_ANY 1u /* anywhere: a macro of that name without parameters changes it */
/* where a macro of that name with parameters may expand: followed by '(',
 * followed by ',' or ')' inside parentheses (the last token of a macro's
 * argument, which its body may follow with '('), in a #define line, or in
 * a string or character literal (told apart from code by a plain scan) */
#define USE_CALL 2u

/* Past the end of a block comment whose text starts at c. */
static const char *comment_end(const char *c, const char *e) {
  while (c + 1 < e && !(c[0] == '*' && c[1] == '/'))
    c++;
  return c + 1 < e ? c + 2 : e;
}

static bool id_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool id_char(char ch) { return id_start(ch) || (ch >= '0' && ch <= '9'); }

static void note_ident(wl_pch_std *s, const char *b, size_t n, unsigned use) {
  if (b[0] == '_' || n >= 128) /* a reserved name is the library's own */
    return;
  char *k = wl_xmalloc(n + 1);
  memcpy(k, b, n);
  k[n] = '\0';
  void **slot = wl_hmap_slot_of(&s->idents, k);
  if (*slot)
    free(k); /* the slot keeps its own key */
  /* else the new slot's key is k itself (the map copies no key): now owned */
  *slot = (void *)((uintptr_t)*slot | use);
}

/* The next character of the line that is not a blank or in a comment (a
 * line end is returned; a comment may span lines). */
static const char *next_token(const char *c, const char *e) {
  for (;;) {
    while (c < e && (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' || *c == '\v' ||
                     (*c == '\\' && c + 1 < e && c[1] == '\n')))
      c += *c == '\\' ? 2 : 1;
    if (c + 1 < e && c[0] == '/' && c[1] == '*') {
      c = comment_end(c + 2, e);
    } else {
      return c;
    }
  }
}

/* The identifiers of one section file and how it uses them. */
static void scan_idents(wl_pch_std *s, const char *text, size_t len) {
  const char *e = text + len;
  size_t depth = 0; /* open parentheses */
  bool line_start = true, in_define = false;
  for (const char *c = text; c < e;) {
    if (*c == '\\' && c + 1 < e && c[1] == '\n') { /* the line goes on */
      c += 2;
    } else if (*c == '\n') {
      line_start = true;
      in_define = false;
      c++;
    } else if (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\f' || *c == '\v') {
      c++;
    } else if (c + 1 < e && c[0] == '/' && c[1] == '/') {
      while (c < e && *c != '\n')
        c++;
    } else if (c + 1 < e && c[0] == '/' && c[1] == '*') {
      c = comment_end(c + 2, e);
    } else if (*c == '#' && line_start) {
      line_start = false;
      const char *d = next_token(c + 1, e);
      in_define = e - d >= 6 && strncmp(d, "define", 6) == 0 && (e - d == 6 || !id_char(d[6]));
      c++;
    } else if (*c == '"' || *c == '\'') {
      line_start = false;
      char q = *c++;
      while (c < e && *c != q && *c != '\n') {
        if (*c == '\\' && c + 1 < e) {
          c += 2;
        } else if (id_start(*c)) {
          const char *b = c;
          while (c < e && id_char(*c))
            c++;
          note_ident(s, b, (size_t)(c - b), USE_ANY | USE_CALL);
        } else {
          c++;
        }
      }
      if (c < e && *c == q)
        c++;
    } else if (id_start(*c)) {
      line_start = false;
      const char *b = c;
      while (c < e && id_char(*c))
        c++;
      const char *n = next_token(c, e);
      bool call = in_define || (n < e && *n == '(') || (depth && n < e && (*n == ',' || *n == ')'));
      note_ident(s, b, (size_t)(c - b), USE_ANY | (call ? USE_CALL : 0));
    } else if (*c >= '0' && *c <= '9') {
      line_start = false;
      while (c < e && (id_char(*c) || *c == '.' || (*c == '\'' && c + 1 < e && id_char(c[1]))))
        c++;
    } else {
      line_start = false;
      if (*c == '(')
        depth++;
      else if (*c == ')' && depth)
        depth--;
      c++;
    }
  }
}

/* The identifiers of the files only the section brings in, and how they
 * use them (comments skipped): read from disk the first time a check needs
 * them. */
static void load_idents(wl_pch_std *s) {
  s->have_idents = true;
  for (size_t i = 0; i < s->nn; i++) {
    if (s->base[i])
      continue;
    size_t len = 0;
    char *text = wl_read_file(s->paths[i], &len);
    if (!text) {
      /* unreadable: every name counts */
      wl_hmap_put(&s->idents, wl_xstrdup("*"), (void *)(uintptr_t)(USE_ANY | USE_CALL), false);
      continue;
    }
    scan_idents(s, text, len);
    free(text);
  }
}

/* Whether a section-only file may read a macro of this name (a macro with
 * parameters when call). */
static bool section_reads(wl_pch_std *s, const char *name, bool call) {
  if (!s->have_idents)
    load_idents(s);
  uintptr_t use =
      (uintptr_t)wl_hmap_get(&s->idents, name) | (uintptr_t)wl_hmap_get(&s->idents, "*");
  return use & (call ? USE_CALL : USE_ANY);
}

typedef struct first_inc {
  CXFile file; /* where the directive is */
  unsigned offset;
} first_inc;

/* The position of a preprocessing entity of the unit's own files. */
typedef struct pp_pos {
  unsigned offset;
  uint32_t seq;
} pp_pos;

typedef struct file_pos {
  uint32_t enter; /* the entity (its sequence number) that included the file */
  pp_pos *v;      /* its own entities in order */
  size_t n;
} file_pos;

typedef struct check_ctx {
  wl_pch_std *s;
  /* [nn] or NULL: the section files that count (wl_pch_std_differs_within);
   * the others are read as if they were the unit's own headers */
  const unsigned char *only;
  uint32_t *reach; /* [nn]: 0: not reached; else 1 + the entity that reached it */
  uint32_t *stack;
  uint32_t seq;        /* entities of the preprocessing record so far */
  wl_hmap files;       /* CXFile -> 1 + node, or (void*)-1: not a node */
  wl_hmap pos;         /* CXFile -> file_pos* of the unit's own files */
  bool defined_before; /* a configuration macro defined so far */
  wl_vec pending;      /* char*: the other macros with a body defined so far (owned; '(' before
                          the name of one with parameters, else ' ') */
  first_inc *firsts;   /* first inclusions of section files by the unit's own files */
  size_t nfirsts;
  const char *why;
  wl_buf what;          /* the name it is about */
  char *config;         /* the configuration macro defined (owned) */
  CXCursor half_callee; /* the callee of the wl_half_operator_call being visited */
  bool in_half_callee;  /* visiting it: its half-precision candidates do not count */
  wl_hmap same;         /* macro name (owned) -> (void*)1: a guarded definition of the
                           unit's that the section's replaces with the same value */
  wl_hmap hosts;        /* USR (owned) of a host function of the unit's own code ->
                           REACH_* (host_reaches) */
  unsigned host_depth;  /* host_reaches' recursion */
  bool lenient;         /* in a host body nothing reads (unread_host_body) */
} check_ctx;

/* The node of a file, or SIZE_MAX. */
static size_t node_at(check_ctx *c, CXFile f) {
  if (!f)
    return SIZE_MAX;
  void **slot = wl_hmap_slot_of(&c->files, f);
  if (!*slot) {
    char *k = file_key(f);
    void *n = wl_hmap_get(&c->s->index, k);
    free(k);
    *slot = n ? n : (void *)(intptr_t)-1;
  }
  return *slot == (void *)(intptr_t)-1 ? SIZE_MAX : (size_t)((uintptr_t)*slot - 1);
}

/* Marks `from` and every node it includes, directly or not, as reached by
 * entity `seq` (those reached earlier keep theirs). */
static void mark_at(check_ctx *c, uint32_t from, uint32_t seq) {
  if (c->reach[from])
    return;
  size_t sp = 0;
  c->stack[sp++] = from;
  c->reach[from] = seq + 1;
  while (sp) {
    uint32_t v = c->stack[--sp];
    for (size_t k = c->s->start[v]; k < c->s->start[v + 1]; k++)
      if (!c->reach[c->s->adj[k]]) {
        c->reach[c->s->adj[k]] = seq + 1;
        c->stack[sp++] = c->s->adj[k];
      }
  }
}

static file_pos *pos_of(check_ctx *c, CXFile f) { return f ? wl_hmap_get(&c->pos, f) : NULL; }

/* The last entity of the preprocessing record before a location of the
 * unit's own files (UINT32_MAX: after all of them). */
static uint32_t seq_at(check_ctx *c, CXSourceLocation loc) {
  CXFile f = NULL;
  unsigned off = 0;
  clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
  const file_pos *fp = pos_of(c, f);
  if (!fp)
    return UINT32_MAX;
  size_t lo = 0, hi = fp->n; /* the first entity past off */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (fp->v[mid].offset <= off)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? fp->v[lo - 1].seq : fp->enter;
}

/* Whether a section file is out of reach at entity `at`. */
static bool out_of_reach(const check_ctx *c, size_t n, uint32_t at) {
  return n != SIZE_MAX && (!c->only || c->only[n]) &&
         (!c->reach[n] || (at != UINT32_MAX && c->reach[n] - 1 > at));
}

static size_t node_of_loc(check_ctx *c, CXSourceLocation loc) {
  CXFile f = NULL;
  clang_getExpansionLocation(loc, &f, NULL, NULL, NULL);
  return node_at(c, f);
}

/* Configuration macros (feature tests, NDEBUG, the library's own settings):
 * defined before a standard header is first included, they change what it
 * declares. */
static bool config_name(const char *m) {
  static const char *const pre[] = {
      "_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE",     "_SVID_SOURCE", "_XOPEN_SOURCE",
      "_POSIX_",     "_ISOC",           "_LARGEFILE",      "_FILE_OFFSET", "_TIME_BITS",
      "_REENTRANT",  "_THREAD_SAFE",    "_FORTIFY_SOURCE", "_USE_MATH_",   "_GLIBCXX",
      "__STDC_",     "NDEBUG",          "_DEBUG",          "__USE_",       "_LIBCPP_",
      "__GLIBC",     "_ATFILE",         "_DYNAMIC_STACK",  "__NO_",        "__OPTIMIZE",
      "_CCCL",       "__CCCL",          "_LIBCUDACXX",     "__LIBCUDACXX", "_CUB_",
      "_THRUST_"};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
    if (strncmp(m, pre[i], strlen(pre[i])) == 0)
      return true;
  return false;
}

static bool has_body(CXCursor c, const char *name) {
  if (clang_Cursor_isMacroFunctionLike(c))
    return true;
  CXSourceRange r = clang_getCursorExtent(c);
  unsigned a = 0, b = 0;
  clang_getSpellingLocation(clang_getRangeStart(r), NULL, NULL, NULL, &a);
  clang_getSpellingLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &b);
  return b > a + strlen(name);
}

/* A macro defined by the section only, none of whose defining files the
 * unit has reached so far. */
static bool macro_unreached(check_ctx *c, const char *name) {
  const wl_vec *v = wl_hmap_get(&c->s->macros, name);
  if (!v)
    return false;
  bool counts = false;
  for (size_t i = 0; i < v->n; i++) {
    size_t n = (uintptr_t)v->v[i] - 1;
    if (c->reach[n])
      return false;
    counts = counts || !c->only || c->only[n];
  }
  return counts;
}

/* A first inclusion of a section file: without the section it would be
 * read here, after the macros defined so far. */
static bool first_inclusion(check_ctx *c, CXCursor cur) {
  if (c->defined_before) {
    c->why = "a configuration macro defined before a standard header's first inclusion";
    wl_buf_puts(&c->what, c->config);
    return false;
  }
  for (size_t i = 0; i < c->pending.n; i++) {
    const char *m = c->pending.v[i]; /* '(' or ' ', then the name */
    if (section_reads(c->s, m + 1, m[0] == '(')) {
      c->why = "a macro a standard header may read defined before its first inclusion";
      wl_buf_puts(&c->what, m + 1);
      return false;
    }
  }
  CXSourceLocation loc = clang_getCursorLocation(cur);
  if (!clang_Location_isInSystemHeader(loc)) {
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    if (c->nfirsts % 16 == 0)
      c->firsts = wl_xrealloc(c->firsts, (c->nfirsts + 16) * sizeof *c->firsts);
    c->firsts[c->nfirsts++] = (first_inc){f, off};
  }
  return true;
}

/* The macros the unit's files expand (or test with #ifdef and defined()),
 * at the point they do. */
static bool expansion_unreached(check_ctx *c, CXCursor cur) {
  CXCursor def = clang_getCursorReferenced(cur);
  if (clang_getCursorKind(def) == CXCursor_MacroDefinition) {
    CXSourceLocation dl = clang_getCursorLocation(def);
    if (!clang_Location_isInSystemHeader(dl) || !out_of_reach(c, node_of_loc(c, dl), c->seq))
      return false;
    /* the same definition in a file it has reached (glibc's SEEK_SET in
     * <stdio.h>, then again in <fcntl.h>, which nvtx3 brings): the same
     * expansion either way */
    CXString ms = clang_getCursorSpelling(def);
    const wl_vec *v =
        clang_getCString(ms) ? wl_hmap_get(&c->s->bodies, clang_getCString(ms)) : NULL;
    clang_disposeString(ms);
    uint64_t h = v ? def_hash(c->s, def) : 0;
    for (size_t i = 0; h && i + 1 < v->n; i += 2)
      if ((uintptr_t)v->v[i + 1] == h && !out_of_reach(c, (uintptr_t)v->v[i] - 1, c->seq))
        return false;
    return true;
  }
  /* no definition record: by name */
  CXString ms = clang_getCursorSpelling(cur);
  bool bad = clang_getCString(ms) && macro_unreached(c, clang_getCString(ms));
  clang_disposeString(ms);
  return bad;
}

/* The values clang predefines for the macros of <float.h> and <limits.h>
 * (the same for the host and the device: IEEE formats, LP64), as the
 * section's headers spell them (`#define DBL_EPSILON __DBL_EPSILON__`). */
static const char *const builtin_values[][2] = {
    {"__FLT_EPSILON__", "1.19209290e-7F"},
    {"__DBL_EPSILON__", "2.2204460492503131e-16"},
    {"__FLT_MAX__", "3.40282347e+38F"},
    {"__DBL_MAX__", "1.7976931348623157e+308"},
    {"__FLT_MIN__", "1.17549435e-38F"},
    {"__DBL_MIN__", "2.2250738585072014e-308"},
    {"__SCHAR_MAX__", "127"},
    {"__SHRT_MAX__", "32767"},
    {"__INT_MAX__", "2147483647"},
    {"__LONG_MAX__", "9223372036854775807L"},
    {"__LONG_LONG_MAX__", "9223372036854775807LL"},
};

/* [b, e) without blanks and comments at either end and without one pair of
 * enclosing parentheses. */
static void trim_body(const char **b, const char **e) {
  for (;;) {
    while (*b < *e && (**b == ' ' || **b == '\t' || **b == '\r'))
      (*b)++;
    while (*e > *b && ((*e)[-1] == ' ' || (*e)[-1] == '\t' || (*e)[-1] == '\r'))
      (*e)--;
    if (*e - *b >= 2 && **b == '(' && (*e)[-1] == ')') {
      (*b)++;
      (*e)--;
      continue;
    }
    return;
  }
}

/* A numeric literal's kind ('f' float, 'd' double, 'i' integer: then its
 * suffix's u and l counts and whether it is decimal) and value; false when
 * [b, e) is not one literal (or a long double). */
typedef struct num_lit {
  char kind;
  bool decimal;
  int u, l;
  double d;
  unsigned long long i;
} num_lit;

static bool read_literal(const char *b, const char *e, num_lit *n) {
  size_t len = (size_t)(e - b);
  if (len == 0 || len >= 64 || !((*b >= '0' && *b <= '9') || *b == '.'))
    return false;
  char t[64];
  memcpy(t, b, len);
  t[len] = '\0';
  bool hex = len > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
  bool flt = strchr(t, '.') || (!hex && (strchr(t, 'e') || strchr(t, 'E'))) ||
             (hex && (strchr(t, 'p') || strchr(t, 'P')));
  memset(n, 0, sizeof *n);
  char *end = NULL;
  if (flt) {
    char last = t[len - 1];
    if (last == 'l' || last == 'L')
      return false;
    if (last == 'f' || last == 'F') {
      t[len - 1] = '\0';
      n->kind = 'f';
      n->d = strtof(t, &end);
    } else {
      n->kind = 'd';
      n->d = strtod(t, &end);
    }
    return end && *end == '\0';
  }
  n->kind = 'i';
  n->decimal = !(t[0] == '0' && len > 1);
  n->i = strtoull(t, &end, 0);
  for (; end && *end; end++) {
    if (*end == 'u' || *end == 'U')
      n->u++;
    else if (*end == 'l' || *end == 'L')
      n->l++;
    else
      return false;
  }
  return end && n->u <= 1 && n->l <= 2;
}

/* Whether two macro bodies are the same number of the same type. */
static bool same_number(const char *ab, const char *ae, const char *bb, const char *be) {
  num_lit x, y;
  trim_body(&ab, &ae);
  trim_body(&bb, &be);
  if (!read_literal(ab, ae, &x) || !read_literal(bb, be, &y) || x.kind != y.kind)
    return false;
  if (x.kind != 'i')
    return x.d == y.d;
  return x.i == y.i && x.u == y.u && x.l == y.l && x.decimal == y.decimal;
}

/* The end of the line at `at` (its '\n', or e). */
static const char *line_end(const char *at, const char *e) {
  while (at < e && *at != '\n')
    at++;
  return at;
}

/* [b, e) past blanks and comments (next_token); NULL when what follows is
 * not `word`. */
static const char *skip_word(const char *b, const char *e, const char *word) {
  b = next_token(b, e);
  size_t n = strlen(word);
  if ((size_t)(e - b) < n || memcmp(b, word, n) != 0)
    return NULL;
  b += n;
  if (b < e && id_char(word[n - 1]) && id_char(*b))
    return NULL;
  return b;
}

/* Whether [b, e) holds only blanks and comments. */
static bool blank_rest(const char *b, const char *e) {
  b = next_token(b, e);
  return b == e || (e - b >= 2 && b[0] == '/' && b[1] == '/');
}

/* The next line after the one ending at `eol` that is not blank. */
static const char *next_line(const char *eol, const char *e) {
  const char *b = eol < e ? eol + 1 : e;
  while (b < e && blank_rest(b, line_end(b, e)))
    b = line_end(b, e) + (line_end(b, e) < e);
  return b;
}

/* The body of a definition of the section, as its file spells it: [*b, *e). */
static bool section_body(check_ctx *c, CXCursor def, const char *name, const char **b,
                         const char **e) {
  unsigned a = 0, z = 0;
  const char *text = def_text(c->s, def, &a, &z);
  size_t nl = strlen(name);
  if (!text || z < a + nl || memcmp(text + a, name, nl) != 0)
    return false;
  *b = text + a + nl;
  *e = text + z;
  if (memchr(*b, '\\', (size_t)(*e - *b)))
    return false;
  const char *tb = *b, *te = *e;
  trim_body(&tb, &te);
  for (size_t i = 0; i < sizeof builtin_values / sizeof builtin_values[0]; i++)
    if ((size_t)(te - tb) == strlen(builtin_values[i][0]) &&
        memcmp(tb, builtin_values[i][0], (size_t)(te - tb)) == 0) {
      *b = builtin_values[i][1];
      *e = *b + strlen(*b);
      break;
    }
  return true;
}

/* A test of a macro that only the section defines so far, in a guard of
 * the unit's own files that defines it when it is not defined,
 *     #ifndef M            (or #if !defined(M))
 *     #define M <number>
 *     #endif
 * where the section's definition is the same number of the same type
 * (kaldi's DBL_EPSILON, glibc's M_PI): without the section the unit's
 * definition gives M that value, with it the section's does, and a header
 * of the section included later defines M with it again. From here on, M
 * means the same in both (c->same). */
static bool same_guard(check_ctx *c, CXCursor cur, const char *m) {
  CXCursor def = clang_getCursorReferenced(cur);
  if (clang_getCursorKind(def) != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(def))
    return false;
  CXFile f = NULL;
  unsigned off = 0;
  clang_getSpellingLocation(clang_getCursorLocation(cur), &f, NULL, NULL, &off);
  size_t size = 0;
  const char *text = f ? contents_of(&c->s->texts, f, &size) : NULL;
  size_t ml = strlen(m);
  if (!text || off + ml > size || memcmp(text + off, m, ml) != 0)
    return false; /* (the file as parsed is not the one on disk) */
  const char *e = text + size;
  const char *bol = text + off;
  while (bol > text && bol[-1] != '\n')
    bol--;
  const char *eol = line_end(text + off, e);
  /* the directive: # ifndef M, or # if !defined(M) / !defined M */
  const char *at_m = text + off + ml; /* where the name tested ends */
  const char *p = skip_word(bol, eol, "#");
  const char *q = p ? skip_word(p, eol, "ifndef") : NULL;
  if (q) {
    q = skip_word(q, eol, m) == at_m ? at_m : NULL;
  } else if (p && (q = skip_word(p, eol, "if")) != NULL) {
    q = skip_word(q, eol, "!");
    q = q ? skip_word(q, eol, "defined") : NULL;
    const char *r = q ? skip_word(q, eol, "(") : NULL;
    q = q ? skip_word(r ? r : q, eol, m) : NULL;
    if (q != at_m)
      q = NULL;
    else if (r)
      q = skip_word(q, eol, ")");
  }
  if (!q || !blank_rest(q, eol))
    return false;
  /* the definition, alone in the block */
  const char *d = next_line(eol, e);
  const char *deol = line_end(d, e);
  const char *r = skip_word(d, deol, "#");
  r = r ? skip_word(r, deol, "define") : NULL;
  r = r ? skip_word(r, deol, m) : NULL;
  if (!r || r == deol || (*r != ' ' && *r != '\t'))
    return false;
  const char *be = r; /* the body ends at a comment that ends the line */
  while (be < deol && !(be + 1 < deol && be[0] == '/' && (be[1] == '/' || be[1] == '*')))
    be++;
  if (!blank_rest(be, deol) || memchr(r, '\\', (size_t)(deol - r)))
    return false;
  const char *end = next_line(deol, e);
  const char *en = skip_word(end, line_end(end, e), "#");
  if (!en || !skip_word(en, line_end(end, e), "endif"))
    return false;
  const char *sb = NULL, *se = NULL;
  return section_body(c, def, m, &sb, &se) && same_number(r, be, sb, se);
}

/* The preprocessing record of the unit, in order: what its own files
 * include, define and expand. */
static enum CXChildVisitResult pp_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  check_ctx *c = data;
  enum CXCursorKind k = clang_getCursorKind(cur);
  c->seq++;
  CXSourceLocation loc = clang_getCursorLocation(cur);
  bool sys = clang_Location_isInSystemHeader(loc);
  if (!sys) {
    CXFile f = NULL;
    unsigned off = 0;
    clang_getExpansionLocation(loc, &f, NULL, NULL, &off);
    file_pos *fp = pos_of(c, f);
    if (!fp && f) { /* a file no directive of the record included: the main file */
      fp = wl_xcalloc(1, sizeof *fp);
      wl_hmap_put(&c->pos, f, fp, false);
    }
    if (fp && (!fp->n || fp->v[fp->n - 1].offset <= off)) {
      if (fp->n % 64 == 0)
        fp->v = wl_xrealloc(fp->v, (fp->n + 64) * sizeof *fp->v);
      fp->v[fp->n++] = (pp_pos){off, c->seq};
    }
  }
  if (k == CXCursor_InclusionDirective) {
    CXFile inc = clang_getIncludedFile(cur);
    size_t n = node_at(c, inc);
    if (n != SIZE_MAX && !c->reach[n]) {
      if ((!c->only || c->only[n]) && !first_inclusion(c, cur))
        return CXChildVisit_Break;
      mark_at(c, (uint32_t)n, c->seq);
    } else if (n == SIZE_MAX && inc && !pos_of(c, inc)) {
      file_pos *fp = wl_xcalloc(1, sizeof *fp);
      fp->enter = c->seq;
      wl_hmap_put(&c->pos, inc, fp, false);
    }
    return CXChildVisit_Continue;
  }
  if (sys)
    return CXChildVisit_Continue;
  if (k == CXCursor_MacroExpansion) {
    if (expansion_unreached(c, cur)) {
      CXString ns = clang_getCursorSpelling(cur);
      const char *m = clang_getCString(ns);
      bool same = m && (wl_hmap_get(&c->same, m) || same_guard(c, cur, m));
      if (same && !wl_hmap_get(&c->same, m))
        wl_hmap_put(&c->same, wl_xstrdup(m), (void *)1, false);
      clang_disposeString(ns);
      if (same)
        return CXChildVisit_Continue;
      c->why = "a macro only a standard header it does not include (yet) defines";
      CXString ms = clang_getCursorSpelling(cur);
      wl_buf_puts(&c->what, clang_getCString(ms) ? clang_getCString(ms) : "");
      clang_disposeString(ms);
    }
    return c->why ? CXChildVisit_Break : CXChildVisit_Continue;
  }
  if (k != CXCursor_MacroDefinition)
    return CXChildVisit_Continue;
  CXString ms = clang_getCursorSpelling(cur);
  const char *m = clang_getCString(ms);
  if (m && macro_unreached(c, m)) {
    c->why = "a macro of a standard header defined again before its inclusion";
    wl_buf_puts(&c->what, m);
  } else if (m && config_name(m)) {
    if (!c->config)
      c->config = wl_xstrdup(m);
    c->defined_before = true;
  } else if (m && (c->s->cccl || has_body(cur, m))) {
    wl_buf pm;
    wl_buf_init(&pm);
    wl_buf_printf(&pm, "%c%s", clang_Cursor_isMacroFunctionLike(cur) ? '(' : ' ', m);
    wl_vec_push(&c->pending, wl_buf_detach(&pm));
  }
  clang_disposeString(ms);
  return c->why ? CXChildVisit_Break : CXChildVisit_Continue;
}

/* Whether a declaration lies in a section file the unit has not reached at
 * entity `at`. */
static bool unreached(check_ctx *c, CXCursor ref, uint32_t at) {
  if (clang_Cursor_isNull(ref))
    return false;
  CXSourceLocation loc = clang_getCursorLocation(ref);
  return clang_Location_isInSystemHeader(loc) && out_of_reach(c, node_of_loc(c, loc), at);
}

/* A declaration in a file the unit reaches at `at` (or not in the section). */
static bool visible(check_ctx *c, CXCursor d, uint32_t at) {
  return !clang_Cursor_isNull(d) && !unreached(c, d, at);
}

/* Whether a first inclusion lies inside the cursor's extent. */
static bool encloses_first(check_ctx *c, CXCursor cur) {
  CXSourceRange r = clang_getCursorExtent(cur);
  CXFile fa = NULL, fb = NULL;
  unsigned a = 0, b = 0;
  clang_getExpansionLocation(clang_getRangeStart(r), &fa, NULL, NULL, &a);
  clang_getExpansionLocation(clang_getRangeEnd(r), &fb, NULL, NULL, &b);
  for (size_t i = 0; i < c->nfirsts; i++)
    if (fa && c->firsts[i].file && clang_File_isEqual(fa, c->firsts[i].file) &&
        clang_File_isEqual(fa, fb) && c->firsts[i].offset > a && c->firsts[i].offset < b)
      return true;
  return false;
}

/* The children of a cursor, or only its ParmDecl children (parms): the
 * first 16, enough for what is asked of them (an operator call's operands
 * and callee; a template's parameters, where an unfit one among the first
 * 16 is enough). */
typedef struct kid_list {
  CXCursor v[16];
  unsigned n;
  bool parms;
} kid_list;

static enum CXChildVisitResult kid_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  kid_list *k = data;
  if (k->parms && clang_getCursorKind(cur) != CXCursor_ParmDecl)
    return CXChildVisit_Continue;
  if (k->n == sizeof k->v / sizeof k->v[0])
    return CXChildVisit_Break;
  k->v[k->n++] = cur;
  return CXChildVisit_Continue;
}

/* A toolkit header of half-precision types (cuda_fp16.hpp, cuda_bf16.hpp). */
static bool half_header(CXCursor d) {
  CXSourceLocation loc = clang_getCursorLocation(d);
  if (!clang_Location_isInSystemHeader(loc))
    return false;
  CXFile f = NULL;
  clang_getSpellingLocation(loc, &f, NULL, NULL, NULL);
  CXString s = clang_getFileName(f);
  const char *n = clang_getCString(s);
  const char *slash = n ? strrchr(n, '/') : NULL;
  const char *base = slash ? slash + 1 : n;
  bool half = base && (strcmp(base, "cuda_fp16.hpp") == 0 || strcmp(base, "cuda_bf16.hpp") == 0);
  clang_disposeString(s);
  return half;
}

bool wl_half_candidate(CXCursor d) {
  enum CXCursorKind dk = clang_getCursorKind(d);
  return (dk == CXCursor_FunctionDecl || dk == CXCursor_FunctionTemplate) && half_header(d);
}

/* The same expression: clang_equalCursors tells a child from the same
 * argument of an operator call apart (the parent each records). */
static bool same_expr(CXCursor a, CXCursor b) {
  return !clang_Cursor_isNull(b) && clang_getCursorKind(a) == clang_getCursorKind(b) &&
         clang_equalRanges(clang_getCursorExtent(a), clang_getCursorExtent(b));
}

/* Whether the text at the cursor's location (where its spelling is) is the
 * keyword `operator`: a call written `operator*(a, b)`, not `a * b`. */
static bool spelled_operator(CXCursor c) {
  CXFile f = NULL;
  unsigned off = 0;
  clang_getSpellingLocation(clang_getCursorLocation(c), &f, NULL, NULL, &off);
  size_t size = 0;
  const char *text = f ? clang_getFileContents(clang_Cursor_getTranslationUnit(c), f, &size) : NULL;
  if (!text || off >= size)
    return true; /* cannot tell */
  if (size - off < 8 || strncmp(text + off, "operator", 8) != 0)
    return false;
  char next = size - off > 8 ? text[off + 8] : ' ';
  return !(next == '_' || (next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z') ||
           (next >= '0' && next <= '9'));
}

/* The built-in unary operator (WL_U_*) that `operatorX` with nargs
 * arguments stands for, postfix ++ and -- having two. */
static int half_unop(const char *n, unsigned nargs) {
  if (!n)
    return WL_U_NONE;
  if (nargs == 2)
    return strcmp(n, "operator++") == 0   ? WL_U_POSTINC
           : strcmp(n, "operator--") == 0 ? WL_U_POSTDEC
                                          : WL_U_NONE;
  static const struct {
    const char *name;
    int op;
  } ops[] = {{"operator++", WL_U_PREINC}, {"operator--", WL_U_PREDEC}, {"operator+", WL_U_PLUS},
             {"operator-", WL_U_MINUS},   {"operator~", WL_U_NOT},     {"operator!", WL_U_LNOT},
             {"operator*", WL_U_DEREF},   {"operator&", WL_U_ADDROF}};
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(n, ops[i].name) == 0)
      return ops[i].op;
  return WL_U_NONE;
}

bool wl_half_operator_call(CXCursor call, wl_half_op *h) {
  memset(h, 0, sizeof *h);
  int nargs = clang_getCursorKind(call) == CXCursor_CallExpr &&
                      clang_getCursorType(call).kind == CXType_Dependent
                  ? clang_Cursor_getNumArguments(call)
                  : -1;
  if (nargs != 1 && nargs != 2)
    return false;
  /* the children: the arguments and one more, the callee */
  kid_list k = {.n = 0, .parms = false};
  clang_visitChildren(call, kid_visit, &k);
  if (k.n != (unsigned)nargs + 1)
    return false;
  int callee = -1;
  CXCursor args[2] = {clang_Cursor_getArgument(call, 0),
                      nargs == 2 ? clang_Cursor_getArgument(call, 1) : clang_getNullCursor()};
  int at[2] = {-1, -1};
  for (unsigned i = 0; i < k.n; i++) {
    int a = -1;
    for (int j = 0; j < nargs && a < 0; j++)
      if (at[j] < 0 && same_expr(k.v[i], args[j]))
        a = j;
    if (a >= 0)
      at[a] = (int)i;
    else if (callee < 0)
      callee = (int)i;
    else
      return false;
  }
  if (callee < 0 || clang_getCursorKind(k.v[callee]) != CXCursor_DeclRefExpr ||
      spelled_operator(k.v[callee]))
    return false;
  CXCursor ref = clang_getCursorReferenced(k.v[callee]);
  unsigned n =
      clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef ? clang_getNumOverloadedDecls(ref) : 0;
  unsigned nhalf = 0;
  for (unsigned i = 0; i < n; i++)
    nhalf += wl_half_candidate(clang_getOverloadedDecl(ref, i));
  if (!nhalf)
    return false;
  CXString sp = clang_getCursorSpelling(ref);
  const char *name = clang_getCString(sp);
  int bop = nargs == 2 ? wl_operator_binop(name) : WL_B_NONE;
  int uop = bop == WL_B_NONE ? half_unop(name, (unsigned)nargs) : WL_U_NONE;
  clang_disposeString(sp);
  /* postfix: the second argument is the 0 clang adds */
  if (uop != WL_U_NONE && nargs == 2 && clang_getCursorKind(k.v[at[1]]) != CXCursor_IntegerLiteral)
    return false;
  if (bop == WL_B_NONE && uop == WL_U_NONE)
    return false;
  h->callee = k.v[callee];
  h->nother = n - nhalf;
  h->unary = bop == WL_B_NONE;
  h->op = h->unary ? uop : bop;
  h->noperands = h->unary ? 1 : 2;
  for (unsigned i = 0; i < h->noperands; i++)
    h->operands[i] = k.v[at[i]];
  return true;
}

/* Host functions whose bodies no analysis reads. Lowering reads the code of
 * a host function only for what a kernel launch takes from it: the launch's
 * configuration, the asserts of the function that launches, and the values
 * its callers pass, two levels up (lanes.c host_int, callers_int). In a
 * host-only function of the unit's own code that reaches no launch (none in
 * its body, nor in a function of the unit's own code it calls, however
 * deep), holds no lambda and no device code, and is not constexpr (clang's
 * CUDA makes those host and device, and device code may fold a call of one),
 * an overloaded name may find more candidates with the section without
 * changing a finding: <tuple> or <array> in the section only add overloads
 * to a host template's `std::swap(a, b)` (kaldi's ReverseVector and
 * CuArray<T>::Swap: parsed without a section because of them,
 * feature-spectral-cuda.cu took 4.5 s with the toolkit instead of 1.2 s).
 * Such a name still counts when the unit reaches none of its candidates (it
 * would be an error without the section), and so does every other name, the
 * unit's errors and its macros. */
enum { REACH_NO = 1, REACH_YES, REACH_BUSY };

static bool host_reaches(check_ctx *c, CXCursor fn);

static bool function_kind(enum CXCursorKind k) {
  return k == CXCursor_FunctionDecl || k == CXCursor_CXXMethod || k == CXCursor_Constructor ||
         k == CXCursor_Destructor || k == CXCursor_ConversionFunction ||
         k == CXCursor_FunctionTemplate;
}

static enum CXChildVisitResult cuda_attr_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  enum CXCursorKind k = clang_getCursorKind(cur);
  if (k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAGlobalAttr) {
    *(bool *)data = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

bool wl_device_decl(CXCursor d) {
  bool dev = false;
  clang_visitChildren(d, cuda_attr_visit, &dev);
  return dev;
}

/* `constexpr` or `consteval` among the tokens before the function's name. */
static bool constexpr_decl(CXCursor fn) {
  CXTranslationUnit tu = clang_Cursor_getTranslationUnit(fn);
  CXSourceRange r =
      clang_getRange(clang_getRangeStart(clang_getCursorExtent(fn)), clang_getCursorLocation(fn));
  CXToken *t = NULL;
  unsigned n = 0;
  clang_tokenize(tu, r, &t, &n);
  bool found = false;
  for (unsigned i = 0; i < n && !found; i++) {
    if (clang_getTokenKind(t[i]) != CXToken_Keyword)
      continue;
    CXString sp = clang_getTokenSpelling(tu, t[i]);
    const char *w = clang_getCString(sp);
    found = w && (strcmp(w, "constexpr") == 0 || strcmp(w, "consteval") == 0);
    clang_disposeString(sp);
  }
  clang_disposeTokens(tu, t, n);
  return found;
}

bool wl_launch_config_name(const char *name) {
  return name && (strcmp(name, "__cudaPushCallConfiguration") == 0 ||
                  strcmp(name, "cudaConfigureCall") == 0);
}

/* Whether a function that a host body names may lead to a launch: a launch
 * itself, a kernel or device function, or a function of the unit's own
 * code that reaches one; the standard, toolkit and library headers' own
 * functions do not count (a kernel they launch runs code of theirs, or a
 * lambda or device functor of the unit's, which the body then names). */
static bool callee_reaches(check_ctx *c, CXCursor d) {
  enum CXCursorKind k = clang_getCursorKind(d);
  if (!function_kind(k))
    return false;
  CXString sp = clang_getCursorSpelling(d);
  bool launch = wl_launch_config_name(clang_getCString(sp));
  clang_disposeString(sp);
  if (launch)
    return true;
  if (clang_Location_isInSystemHeader(clang_getCursorLocation(d)))
    return false;
  CXCursor def = clang_getCursorDefinition(d);
  if (clang_Cursor_isNull(def) || clang_isInvalid(clang_getCursorKind(def)))
    return wl_device_decl(d);
  return host_reaches(c, def);
}

static bool dependent_operand(CXCursor cur, CXCursor parent) {
  enum CXCursorKind pk = clang_getCursorKind(parent);
  if (pk == CXCursor_BinaryOperator || pk == CXCursor_UnaryOperator ||
      pk == CXCursor_CompoundAssignOperator || pk == CXCursor_MemberRefExpr ||
      pk == CXCursor_ArraySubscriptExpr || pk == CXCursor_ConditionalOperator ||
      pk == CXCursor_ReturnStmt || pk == CXCursor_VarDecl)
    return true;
  return pk == CXCursor_CallExpr &&
         !clang_equalLocations(clang_getRangeStart(clang_getCursorExtent(cur)),
                               clang_getRangeStart(clang_getCursorExtent(parent)));
}

static enum CXChildVisitResult first_kid_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  *(CXCursor *)data = cur;
  return CXChildVisit_Break;
}

/* A dependent member `x.f` or `p->f` of an object whose class a system
 * header declares (`vec->size()` of a `std::vector<T> *`). */
static bool system_member(CXCursor cur) {
  if (clang_getCursorKind(cur) != CXCursor_MemberRefExpr)
    return false;
  CXCursor base = clang_getNullCursor();
  clang_visitChildren(cur, first_kid_visit, &base);
  if (clang_Cursor_isNull(base))
    return false;
  CXType t = clang_getCursorType(base);
  if (t.kind == CXType_Pointer)
    t = clang_getPointeeType(t);
  CXCursor d = clang_getTypeDeclaration(t);
  return !clang_Cursor_isNull(d) && !clang_isInvalid(clang_getCursorKind(d)) &&
         clang_Location_isInSystemHeader(clang_getCursorLocation(d));
}

static enum CXChildVisitResult reach_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  check_ctx *c = ((void **)data)[0];
  bool *yes = ((void **)data)[1];
  enum CXCursorKind k = clang_getCursorKind(cur);
  if (k == CXCursor_LambdaExpr || k == CXCursor_CUDADeviceAttr || k == CXCursor_CUDAGlobalAttr)
    *yes = true;
  else if (k == CXCursor_OverloadedDeclRef) {
    unsigned n = clang_getNumOverloadedDecls(cur);
    for (unsigned i = 0; i < n && !*yes; i++)
      *yes = callee_reaches(c, clang_getOverloadedDecl(cur, i));
  } else if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr || k == CXCursor_CallExpr) {
    CXCursor ref = clang_getCursorReferenced(cur);
    if (clang_Cursor_isNull(ref) || clang_isInvalid(clang_getCursorKind(ref)))
      /* a dependent name: it may be called (`x.f()`, `T::f()`) unless it
       * is an operand, an argument or the object of a member */
      *yes = k != CXCursor_CallExpr && !dependent_operand(cur, parent) && !system_member(cur);
    else
      *yes = callee_reaches(c, ref);
  }
  return *yes ? CXChildVisit_Break : CXChildVisit_Recurse;
}

/* Whether host function fn (a definition of the unit's own code) may reach
 * a launch or device code; memoized by USR, and yes for a recursion or a
 * chain too deep to follow. */
static bool host_reaches(check_ctx *c, CXCursor fn) {
  if (wl_device_decl(fn))
    return true;
  CXString usr = clang_getCursorUSR(fn);
  const char *u = clang_getCString(usr);
  if (!u || !*u) {
    clang_disposeString(usr);
    return true;
  }
  void *known = wl_hmap_get(&c->hosts, u);
  if (known) {
    clang_disposeString(usr);
    return (uintptr_t)known != REACH_NO;
  }
  char *key = wl_xstrdup(u);
  clang_disposeString(usr);
  wl_hmap_put(&c->hosts, key, (void *)(uintptr_t)REACH_BUSY, true);
  bool yes = c->host_depth >= 16;
  if (!yes) {
    c->host_depth++;
    void *data[2] = {c, &yes};
    clang_visitChildren(fn, reach_visit, data);
    c->host_depth--;
  }
  wl_hmap_put(&c->hosts, key, (void *)(uintptr_t)(yes ? REACH_YES : REACH_NO), true);
  return yes;
}

/* A definition of a host function whose body nothing reads (above). */
static bool unread_host_body(check_ctx *c, CXCursor fn) {
  return function_kind(clang_getCursorKind(fn)) && clang_isCursorDefinition(fn) &&
         !host_reaches(c, fn) && !constexpr_decl(fn);
}

static enum CXChildVisitResult ref_visit(CXCursor cur, CXCursor parent, CXClientData data);

/* The children of a wl_half_operator_call, the half-precision candidates
 * of the one naming the operators left out: what lowering reads of it. */
static enum CXChildVisitResult half_operands(CXCursor cur, CXCursor parent, CXClientData data) {
  check_ctx *c = data;
  bool callee = same_expr(cur, c->half_callee);
  c->in_half_callee = callee;
  enum CXChildVisitResult r = ref_visit(cur, parent, c);
  if (r == CXChildVisit_Recurse)
    r = clang_visitChildren(cur, ref_visit, c) ? CXChildVisit_Break : CXChildVisit_Continue;
  c->in_half_callee = false;
  return r;
}

static enum CXChildVisitResult has_expr_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_isExpression(clang_getCursorKind(cur))) {
    *(bool *)data = true;
    return CXChildVisit_Break;
  }
  return CXChildVisit_Continue;
}

/* Whether the function template candidate d cannot be the one a call of the
 * unit chooses at `at`: one of its parameters without a default argument
 * is (a reference or pointer to) a specialization of a class template that
 * names d's own template parameters (so the argument's type must be deduced
 * from it: only that class, or one derived from it, fits; no conversion
 * does), and only files out of reach declare that class template, so that
 * the unit has no type that fits. <complex>'s `template <typename T> T
 * abs(const complex<T> &)`, which the section's thrust brings beside
 * <cmath>'s std::abs (kaldi's cu-kernels.cu calls std::abs on a float in
 * device code): with or without it, the call chooses the same function. */
static bool candidate_unfit(check_ctx *c, CXCursor d, uint32_t at) {
  if (clang_getCursorKind(d) != CXCursor_FunctionTemplate)
    return false;
  kid_list p = {.n = 0, .parms = true};
  clang_visitChildren(d, kid_visit, &p);
  for (unsigned i = 0; i < p.n; i++) {
    bool dflt = false;
    clang_visitChildren(p.v[i], has_expr_visit, &dflt);
    if (dflt)
      continue;
    CXType t = clang_getCursorType(p.v[i]);
    if (t.kind == CXType_LValueReference || t.kind == CXType_RValueReference ||
        t.kind == CXType_Pointer)
      t = clang_getPointeeType(t);
    /* a dependent specialization's declaration is the class template; one
     * of fixed arguments (complex<double>) is a class, and converts */
    CXCursor td = clang_getTypeDeclaration(t);
    if (clang_getCursorKind(td) == CXCursor_ClassTemplate && unreached(c, td, at) &&
        !visible(c, clang_getCursorDefinition(td), at) &&
        !visible(c, clang_getCanonicalCursor(td), at))
      return true;
  }
  return false;
}

/* Every name the unit's own code refers to, where it does. */
static enum CXChildVisitResult ref_visit(CXCursor cur, CXCursor parent, CXClientData data) {
  (void)parent;
  check_ctx *c = data;
  enum CXCursorKind k = clang_getCursorKind(cur);
  CXSourceLocation loc = clang_getCursorLocation(cur);
  if (clang_isPreprocessing(k) || clang_Location_isInSystemHeader(loc))
    return CXChildVisit_Continue;
  wl_half_op half;
  if (k == CXCursor_CallExpr && wl_half_operator_call(cur, &half)) {
    CXCursor saved = c->half_callee;
    c->half_callee = half.callee;
    unsigned broke = clang_visitChildren(cur, half_operands, c);
    c->half_callee = saved;
    return broke ? CXChildVisit_Break : CXChildVisit_Continue;
  }
  bool bad = false;
  CXCursor decl = clang_getNullCursor();
  if (k == CXCursor_OverloadedDeclRef) {
    /* any candidate only the section declares may be the one chosen */
    uint32_t at = seq_at(c, loc);
    unsigned n = clang_getNumOverloadedDecls(cur);
    /* in a body nothing reads, only a name none of whose candidates the
     * unit reaches (it would not be found) */
    bool any = false, all = n > 0;
    for (unsigned i = 0; i < n && (c->lenient ? all : !any); i++) {
      CXCursor d = clang_getOverloadedDecl(cur, i);
      bool out = unreached(c, d, at) && !(c->in_half_callee && wl_half_candidate(d));
      /* (a candidate no call of the unit can choose changes no choice) */
      bool counts = out && (c->lenient || !candidate_unfit(c, d, at));
      if (c->lenient ? out : counts)
        decl = d;
      any = any || counts;
      all = all && out;
    }
    bad = c->lenient ? all : any;
  } else if (k == CXCursor_NamespaceRef) {
    /* a namespace is open to all: its members are checked where named */
  } else if (clang_isReference(k) || clang_isExpression(k)) {
    CXCursor ref = clang_getCursorReferenced(cur);
    /* a using-declaration's shadow (libstdc++'s <math.h> brings
     * std::isfinite into the global namespace) counts as itself: without
     * it the name may not be found, or be another function */
    if (!clang_Cursor_isNull(ref) && !clang_equalCursors(ref, cur) &&
        clang_Location_isInSystemHeader(clang_getCursorLocation(ref))) {
      /* the declaration found, else its definition or first declaration
       * when the unit reaches that file (a class some header declares ahead) */
      uint32_t at = seq_at(c, loc);
      decl = ref;
      bad = unreached(c, ref, at) && !visible(c, clang_getCursorDefinition(ref), at) &&
            !visible(c, clang_getCanonicalCursor(ref), at);
    }
  }
  if (bad) {
    c->why = "a name only a standard header it does not include (yet) declares";
    CXString a = clang_getCursorSpelling(cur);
    wl_buf_puts(&c->what, clang_getCString(a) ? clang_getCString(a) : "");
    clang_disposeString(a);
    CXFile f = NULL;
    unsigned line = 0;
    clang_getExpansionLocation(clang_getCursorLocation(decl), &f, &line, NULL, NULL);
    CXString fs = clang_getFileName(f);
    if (clang_getCString(fs))
      wl_buf_printf(&c->what, " (%s:%u)", clang_getCString(fs), line);
    clang_disposeString(fs);
    clang_getExpansionLocation(loc, &f, &line, NULL, NULL);
    fs = clang_getFileName(f);
    if (clang_getCString(fs))
      wl_buf_printf(&c->what, ", named at %s:%u", clang_getCString(fs), line);
    clang_disposeString(fs);
    return CXChildVisit_Break;
  }
  if (c->nfirsts && clang_isDeclaration(k) && encloses_first(c, cur)) {
    /* included inside a namespace, extern "C" or a body: read there
     * without the section */
    c->why = "a standard header first included inside a declaration";
    return CXChildVisit_Break;
  }
  if (!c->lenient && unread_host_body(c, cur)) {
    c->lenient = true;
    unsigned broke = clang_visitChildren(cur, ref_visit, c);
    c->lenient = false;
    return broke ? CXChildVisit_Break : CXChildVisit_Continue;
  }
  return CXChildVisit_Recurse;
}

/* An error whose notes lie in a section file the unit has not reached
 * where the error is: a clash with a declaration there. */
static bool diag_unreached(check_ctx *c, CXDiagnostic d, uint32_t at, int depth) {
  if (out_of_reach(c, node_of_loc(c, clang_getDiagnosticLocation(d)), at))
    return true;
  bool bad = false;
  CXDiagnosticSet kids = depth < 4 ? clang_getChildDiagnostics(d) : NULL;
  unsigned nk = kids ? clang_getNumDiagnosticsInSet(kids) : 0;
  for (unsigned i = 0; i < nk && !bad; i++) {
    CXDiagnostic k = clang_getDiagnosticInSet(kids, i);
    bad = diag_unreached(c, k, at, depth + 1);
    clang_disposeDiagnostic(k);
  }
  return bad;
}

static bool differs(wl_pch_std *s, CXTranslationUnit tu, const unsigned char *only, wl_buf *why) {
  check_ctx c;
  memset(&c, 0, sizeof c);
  c.s = s;
  c.only = only;
  c.reach = wl_xcalloc(s->nn + 1, sizeof *c.reach);
  for (size_t i = 0; i < s->nn; i++)
    c.reach[i] = s->base[i] ? 1 : 0;
  c.stack = wl_xcalloc(s->nn + 1, sizeof *c.stack);
  wl_buf_init(&c.what);
  wl_hmap_init(&c.files, false);
  wl_hmap_init(&c.pos, false);
  wl_hmap_init(&c.same, true);
  wl_hmap_init(&c.hosts, true);
  CXCursor root = clang_getTranslationUnitCursor(tu);
  clang_visitChildren(root, pp_visit, &c);
  unsigned nd = c.why ? 0 : clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < nd && !c.why; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error &&
        diag_unreached(&c, d, seq_at(&c, clang_getDiagnosticLocation(d)), 0)) {
      c.why = "an error that a standard header it does not include (yet) explains";
      CXString ds = clang_getDiagnosticSpelling(d);
      wl_buf_puts(&c.what, clang_getCString(ds) ? clang_getCString(ds) : "");
      clang_disposeString(ds);
    }
    clang_disposeDiagnostic(d);
  }
  if (!c.why)
    clang_visitChildren(root, ref_visit, &c);
  for (size_t i = 0; i < c.pos.cap; i++) {
    file_pos *fp = c.pos.slots[i].val;
    if (fp) {
      free(fp->v);
      free(fp);
    }
  }
  wl_hmap_free(&c.pos);
  for (size_t i = 0; i < c.same.cap; i++)
    free((void *)c.same.slots[i].key);
  wl_hmap_free(&c.same);
  for (size_t i = 0; i < c.hosts.cap; i++)
    free((void *)c.hosts.slots[i].key);
  wl_hmap_free(&c.hosts);
  wl_hmap_free(&c.files);
  for (size_t i = 0; i < c.pending.n; i++)
    free(c.pending.v[i]);
  wl_vec_free(&c.pending);
  free(c.firsts);
  free(c.reach);
  free(c.stack);
  if (why && c.why)
    wl_buf_printf(why, c.what.len ? "%s: %s" : "%s", c.why, wl_buf_str(&c.what));
  wl_buf_free(&c.what);
  free(c.config);
  return c.why != NULL;
}

bool wl_pch_std_differs(wl_pch_std *s, CXTranslationUnit tu, wl_buf *why) {
  return differs(s, tu, NULL, why);
}

bool wl_pch_std_differs_within(wl_pch_std *s, CXTranslationUnit tu, const char *const *names,
                               size_t n, wl_buf *why) {
  unsigned char *only = wl_xcalloc(s->nn + 1, 1);
  uint32_t *stack = wl_xcalloc(s->nn + 1, sizeof *stack);
  bool all = n > 0;
  for (size_t k = 0; k < n && all; k++) {
    /* the header as the section included it: a file whose name ends with it */
    size_t nl = strlen(names[k]);
    bool found = false;
    for (size_t i = 0; i < s->nn; i++) {
      size_t pl = strlen(s->paths[i]);
      if (pl > nl && s->paths[i][pl - nl - 1] == '/' &&
          strcmp(s->paths[i] + pl - nl, names[k]) == 0) {
        mark(s, (uint32_t)i, only, stack);
        found = true;
      }
    }
    all = found;
  }
  bool r = all && differs(s, tu, only, why);
  free(stack);
  free(only);
  return r;
}

/* ------------------------------------------------------------------------ */
/* Conditional directives                                                   */

typedef struct cond_ctx {
  const wl_pch_std *s;
  CXTranslationUnit tu;
  bool reads;
} cond_ctx;

static bool ident_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool ident_char(char ch) { return ident_start(ch) || (ch >= '0' && ch <= '9'); }

/* The directive at c (just past '#') reads a macro of the section only. */
static bool directive_reads(const wl_pch_std *s, const char *c, const char *e) {
  while (c < e && (*c == ' ' || *c == '\t'))
    c++;
  const char *w = c;
  while (c < e && ident_char(*c))
    c++;
  size_t n = (size_t)(c - w);
  bool cond = (n == 2 && strncmp(w, "if", 2) == 0) || (n == 5 && strncmp(w, "ifdef", 5) == 0) ||
              (n == 6 && strncmp(w, "ifndef", 6) == 0) || (n == 4 && strncmp(w, "elif", 4) == 0) ||
              (n == 7 && strncmp(w, "elifdef", 7) == 0) ||
              (n == 8 && strncmp(w, "elifndef", 8) == 0);
  bool inc = (n == 7 && strncmp(w, "include", 7) == 0) ||
             (n == 12 && strncmp(w, "include_next", 12) == 0) ||
             (n == 6 && strncmp(w, "import", 6) == 0);
  if (inc) {
    while (c < e && (*c == ' ' || *c == '\t'))
      c++;
    cond = c < e && ident_start(*c); /* #include MACRO */
  }
  if (!cond)
    return false;
  /* the rest of the line, with its continuations */
  while (c < e && *c != '\n') {
    if (*c == '\\' && c + 1 < e && c[1] == '\n') {
      c += 2;
      continue;
    }
    if (!ident_start(*c)) {
      c++;
      continue;
    }
    const char *b = c;
    while (c < e && ident_char(*c))
      c++;
    char tmp[128];
    size_t m = (size_t)(c - b);
    if (m < sizeof tmp) {
      memcpy(tmp, b, m);
      tmp[m] = '\0';
      if (wl_hmap_get((wl_hmap *)&s->macros, tmp))
        return true;
    }
  }
  return false;
}

static void cond_file(CXFile f, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  cond_ctx *cc = data;
  if (cc->reads || clang_Location_isInSystemHeader(clang_getLocationForOffset(cc->tu, f, 0)))
    return;
  size_t size = 0;
  const char *text = clang_getFileContents(cc->tu, f, &size);
  if (!text)
    return;
  const char *e = text + size;
  for (const char *l = text; l < e && !cc->reads;) {
    const char *c = l;
    while (c < e && (*c == ' ' || *c == '\t'))
      c++;
    if (c < e && *c == '#')
      cc->reads = directive_reads(cc->s, c + 1, e);
    const char *nl = memchr(l, '\n', (size_t)(e - l));
    l = nl ? nl + 1 : e;
  }
}

bool wl_pch_std_conditions_read(const wl_pch_std *s, CXTranslationUnit tu) {
  cond_ctx cc = {s, tu, false};
  clang_getInclusions(tu, cond_file, &cc);
  return cc.reads;
}
