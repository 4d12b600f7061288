/* lower.h - what the files of the frontend's lowering share (parse.c,
 * lower.c, instances.c): the lowering context and the functions each file
 * exports to the others (lower_, inst_, parse_). Nothing outside
 * frontend/ includes it. */
#ifndef WARPLINT_LOWER_H
#define WARPLINT_LOWER_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stddef.h>

#include "hmap.h"
#include "parse.h"

/* ------------------------------------------------------------------------ */
/* Lowering context                                                         */

typedef struct var_slot {
  CXCursor key; /* canonical declaration */
  unsigned hash;
  wl_var *var;
  bool dead; /* a variable of a batch that was freed (lower_forget_batch_vars) */
} var_slot;

typedef struct file_name {
  CXFile file;
  const char *name;
  bool main, prelude, system;
  bool has_code; /* a function body or a macro definition used by code */
} file_name;

typedef struct macro_exp {
  const char *file;    /* interned name of the file of the expansion */
  unsigned begin, end; /* offsets in that file */
  const char *name;
} macro_exp;

typedef struct lower_ctx {
  wl_tu *tu;
  CXTranslationUnit ctu;
  CXFile main_file;
  const char *main_text;
  size_t main_len;
  var_slot *vars;
  size_t nvars, capvars;
  file_name *files;
  size_t nfiles, capfiles;
  wl_hmap file_index; /* CXFile -> index in files + 1 */
  /* CXFile -> its text (file_text*, owned; text NULL when unknown),
   * asked of clang once: clang_getFileContents looks the file up among the
   * unit's source locations, which a precompiled header makes many */
  wl_hmap texts;
  wl_hmap names; /* interned strings of lower_take (string keys): one copy each */
  macro_exp *macros;
  size_t nmacros, capmacros;
  wl_vec funcs;   /* wl_func* */
  wl_vec globals; /* wl_var* */
  wl_vec calls;   /* wl_expr* (CALL) to link to callees */
  wl_vec insts;   /* seen_inst*: instantiations of function templates */
  wl_func *cur_func;
  CXSourceRangeList *skipped; /* preprocessor-skipped ranges of the main file (lazy) */
  bool skipped_done;
  unsigned depth; /* nesting of the statement or expression being lowered */
  bool too_deep;  /* it passed WL_MAX_NESTING: the function is left out */
  wl_vec notices; /* wl_parse_diag*: what was not lowered */
  /* Header name -> (void *)1 system, (void *)2 not, for the arguments of this
   * parse, kept by the parser across files: deciding it for a header of the
   * precompiled header without a location in it costs clang a load of all
   * that header's source-location entries. Names are strdup'ed. */
  wl_hmap *system_names;
  /* CXFile -> itself: headers whose macros seeded system_names
   * (seed_system_name: for a precompiled header that has no list of its
   * macro headers, WL_PCH_COMPANION_SYS, as one of an earlier warplint or
   * a run without a store) */
  wl_hmap seeded;
  /* Lowering in batches (parse.c, wl_parse_opts.on_batch): the arena the IR
   * goes to (NULL: the TU's; names, globals and notices always go there),
   * whether lower_decl records the functions as units instead of lowering
   * them, the units recorded, the declaration being lowered (instantiation
   * order), and whether notices are left out (a unit lowered again). */
  wl_arena *cur;
  bool collect;
  wl_vec units; /* lower_unit* */
  unsigned seq;
  bool quiet;
  wl_vec batch_vars; /* CXCursor* (malloc'ed): variables inserted into a batch's arena */
  /* The unit names a device member of one of the project's class template
   * specializations whose body clang did not instantiate (a unit parsed with
   * CXTranslationUnit_Incomplete): the lowering reads those instantiations
   * (WarpScan<5>::Iterate<2, 32>::Invoke, b40c's Cta<KernelPolicy>), so the
   * file is parsed again with clang's instantiations (parse.c). Kernel and
   * device function templates are read as written (uninstantiated_spec). */
  bool wants_instances;
  /* Reading the callee of a wl_half_operator_call: its half-precision
   * candidates are left out (pch_std.h). */
  bool no_half;
} lower_ctx;

/* A function with a body recorded by lower_decl in collect mode: lowered
 * later with the nesting depth and flags it had where it was declared. */
typedef struct lower_unit {
  CXCursor c;
  unsigned extra; /* lower_function's flags */
  unsigned depth; /* L->depth at its declaration */
  unsigned seq;   /* L->seq at its declaration */
} lower_unit;

/* An instantiation of a function template: its template's USR and arguments. */
typedef struct seen_inst {
  const char *usr;
  unsigned seq; /* L->seq where it was seen: instantiations keep the order of a whole lowering */
  unsigned n;
  long long vals[16];
  unsigned char known[16];
} seen_inst;

static inline wl_arena *A(lower_ctx *L) { return L->cur ? L->cur : &L->tu->arena; }

/* lower.c */
char *lower_take(lower_ctx *L, CXString s);
/* Records whether header `name` is a system header in a table of
 * lower_ctx.system_names, unless it already holds the name (first answer
 * kept; the name is copied). */
void lower_note_system(wl_hmap *names, const char *name, bool system);
wl_loc lower_expansion_loc(lower_ctx *L, CXSourceLocation sl);
enum CXChildVisitResult lower_macro_visitor(CXCursor c, CXCursor parent, CXClientData d);
void lower_decls(lower_ctx *L, CXCursor parent, unsigned tmpl);
int lower_cmp_macro(const void *a, const void *b);
int lower_cmp_func(const void *a, const void *b);
/* Links each call to the function of L->funcs it names, then counts what
 * each function's body assigns (wl_count_assignments). */
void lower_link_calls(lower_ctx *L);
/* The text of a file of the unit as clang read it (the main file's: the
 * text parsed), asked of clang once per file (lower_ctx.texts); NULL when
 * clang has none. */
const char *lower_file_text(lower_ctx *L, CXFile f, size_t *size);

/* Lowers one unit recorded in collect mode (into A(L)). */
void lower_unit_now(lower_ctx *L, const lower_unit *u);
/* Forgets the variables lowered into a batch's arena (before it is freed). */
void lower_forget_batch_vars(lower_ctx *L);
/* One copy of s in the TU's arena (the names lower_take keeps). */
const char *lower_intern(lower_ctx *L, const char *s);

/* instances.c */
void inst_note_instantiation(lower_ctx *L, CXCursor spec, CXCursor tmpl);
void inst_scan_explicit_instantiations(lower_ctx *L);
void inst_link_instantiations(lower_ctx *L);

#endif
