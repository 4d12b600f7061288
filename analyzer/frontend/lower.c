/* lower.c - the lowering of libclang's cursor tree into the IR of ir.h:
 * locations and macros, types, variables, expressions and calls,
 * statements, functions and declarations, and the linking of calls to the
 * functions of the file (see lower.h). */
#include "lower.h"
#include "pch_std.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char *lower_take(lower_ctx *L, CXString s) {
  /* names and USRs repeat at every use: one copy of each in the arena (a
   * 10 MB file's IR held every callee USR once per call) */
  const char *c = clang_getCString(s);
  if (!c)
    c = "";
  char *r = (char *)lower_intern(L, c);
  clang_disposeString(s);
  return r;
}

const char *lower_intern(lower_ctx *L, const char *s) {
  char *r = wl_hmap_get(&L->names, s);
  if (!r) {
    r = wl_arena_strdup(&L->tu->arena, s); /* outlives a batch's arena */
    wl_hmap_put(&L->names, r, r, false);
  }
  return r;
}

void lower_note_system(wl_hmap *names, const char *name, bool system) {
  if (!wl_hmap_get(names, name))
    wl_hmap_put(names, wl_xstrdup(name), (void *)(uintptr_t)(system ? 1 : 2), false);
}

/* The entry of file f: found by its pointer (a hash map), else by
 * clang_File_isEqual (once per pointer), else added. in_f is a location whose
 * expansion lies in f, or a null location: whether f is a system header is
 * asked of it, since clang_getLocationForOffset on a file of the precompiled
 * header makes clang load every source-location entry of that header (the
 * toolkit's: tens of thousands) to find the file, once per parse. */
static file_name *file_info_at(lower_ctx *L, CXFile f, CXSourceLocation in_f) {
  uintptr_t at = (uintptr_t)wl_hmap_get(&L->file_index, f);
  if (at)
    return &L->files[at - 1];
  for (size_t i = 0; i < L->nfiles; i++)
    if (L->files[i].file == f || clang_File_isEqual(L->files[i].file, f)) {
      if (f)
        wl_hmap_put(&L->file_index, f, (void *)(uintptr_t)(i + 1), false);
      return &L->files[i];
    }
  if (L->nfiles == L->capfiles) {
    L->capfiles = L->capfiles ? L->capfiles * 2 : 16;
    L->files = wl_xrealloc(L->files, L->capfiles * sizeof *L->files);
  }
  file_name *fn = &L->files[L->nfiles++];
  fn->file = f;
  fn->main = clang_File_isEqual(f, L->main_file);
  if (fn->main) {
    fn->name = L->tu->path;
  } else {
    CXString s = clang_getFileName(f);
    fn->name = lower_take(L, s);
  }
  fn->prelude = strncmp(fn->name, WL_PRELUDE_DIR, strlen(WL_PRELUDE_DIR)) == 0;
  fn->system = false;
  if (!fn->main && !fn->prelude) {
    void *known = L->system_names ? wl_hmap_get(L->system_names, fn->name) : NULL;
    if (known) {
      fn->system = known == (void *)1;
    } else {
      bool no_loc = clang_equalLocations(in_f, clang_getNullLocation());
      fn->system =
          clang_Location_isInSystemHeader(no_loc ? clang_getLocationForOffset(L->ctu, f, 0) : in_f);
      if (L->system_names)
        lower_note_system(L->system_names, fn->name, fn->system);
    }
  }
  fn->has_code = false;
  if (f)
    wl_hmap_put(&L->file_index, f, (void *)(uintptr_t)L->nfiles, false);
  return fn;
}

static file_name *file_info(lower_ctx *L, CXFile f) {
  return file_info_at(L, f, clang_getNullLocation());
}

static wl_loc mkloc_raw(lower_ctx *L, CXFile f, unsigned line, unsigned col, unsigned off,
                        CXSourceLocation at) {
  wl_loc l = {0};
  if (!f)
    return l;
  l.file = file_info_at(L, f, at)->name;
  l.line = line;
  l.col = col;
  l.offset = off;
  return l;
}

wl_loc lower_expansion_loc(lower_ctx *L, CXSourceLocation sl) {
  CXFile f = NULL;
  unsigned line = 0, col = 0, off = 0;
  clang_getExpansionLocation(sl, &f, &line, &col, &off);
  return mkloc_raw(L, f, line, col, off, sl);
}

static wl_loc spelling_loc(lower_ctx *L, CXSourceLocation sl) {
  CXFile f = NULL;
  unsigned line = 0, col = 0, off = 0;
  clang_getSpellingLocation(sl, &f, &line, &col, &off);
  return mkloc_raw(L, f, line, col, off, clang_getNullLocation());
}

static wl_range mkrange(lower_ctx *L, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  wl_range out;
  out.begin = lower_expansion_loc(L, clang_getRangeStart(r));
  out.end = lower_expansion_loc(L, clang_getRangeEnd(r));
  return out;
}

static int cmp_macro_key(const char *fa, unsigned a, const char *fb, unsigned b) {
  if (fa != fb)
    return (uintptr_t)fa < (uintptr_t)fb ? -1 : 1;
  return a < b ? -1 : a > b;
}

static const char *macro_name_at(lower_ctx *L, const char *file, unsigned offset) {
  size_t lo = 0, hi = L->nmacros;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (cmp_macro_key(L->macros[mid].file, L->macros[mid].begin, file, offset) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < L->nmacros && L->macros[lo].file == file && L->macros[lo].begin == offset)
    return L->macros[lo].name;
  /* a node inside a macro argument: the innermost expansion containing it */
  for (size_t i = lo; i-- > 0 && L->macros[i].file == file;)
    if (L->macros[i].begin <= offset && offset < L->macros[i].end)
      return L->macros[i].name;
  return NULL;
}

static const wl_macro_info *macro_of(lower_ctx *L, CXCursor c) {
  CXSourceLocation sl = clang_getCursorLocation(c);
  wl_loc ex = lower_expansion_loc(L, sl), sp = spelling_loc(L, sl);
  if (!ex.file || !sp.file || (ex.file == sp.file && ex.offset == sp.offset))
    return NULL;
  wl_macro_info *m = wl_arena_alloc(A(L), sizeof *m);
  m->expansion = ex;
  m->spelling = sp;
  m->name = macro_name_at(L, ex.file, ex.offset);
  if (sp.file != L->tu->path) { /* a header's macro: that header holds code */
    CXFile f = NULL;
    clang_getSpellingLocation(sl, &f, NULL, NULL, NULL);
    if (f)
      file_info(L, f)->has_code = true;
  }
  return m;
}

/* ------------------------------------------------------------------------ */
/* Children                                                                 */

typedef struct kids {
  CXCursor *v;
  unsigned n, cap;
} kids;

static enum CXChildVisitResult collect(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  kids *k = d;
  if (k->n == k->cap) {
    k->cap = k->cap ? k->cap * 2 : 8;
    k->v = wl_xrealloc(k->v, k->cap * sizeof *k->v);
  }
  k->v[k->n++] = c;
  return CXChildVisit_Continue;
}

static kids children(CXCursor c) {
  kids k = {0};
  clang_visitChildren(c, collect, &k);
  return k;
}

static bool is_expr_kind(enum CXCursorKind k) { return clang_isExpression(k) != 0; }

/* ------------------------------------------------------------------------ */
/* Types                                                                    */

static unsigned type_flags(CXType t) {
  unsigned f = 0;
  if (t.kind == CXType_Invalid)
    return WL_T_INVALID;
  if (clang_isVolatileQualifiedType(t))
    f |= WL_T_VOLATILE;
  if (clang_isConstQualifiedType(t))
    f |= WL_T_CONST;
  CXType ct = clang_getCanonicalType(t);
  switch (ct.kind) {
  case CXType_LValueReference:
  case CXType_RValueReference: {
    f |= WL_T_REFERENCE;
    CXType p = clang_getPointeeType(ct);
    if (clang_isVolatileQualifiedType(p))
      f |= WL_T_VOLATILE;
    unsigned inner = type_flags(p) & (WL_T_POINTER | WL_T_ARRAY | WL_T_VOLATILE);
    f |= inner;
    break;
  }
  case CXType_Pointer: {
    f |= WL_T_POINTER;
    CXType p = clang_getPointeeType(ct);
    if (clang_isVolatileQualifiedType(p))
      f |= WL_T_VOLATILE;
    CXType pc = clang_getCanonicalType(p);
    if (pc.kind == CXType_Unexposed || pc.kind == CXType_Dependent)
      f |= WL_T_DEPENDENT; /* T * in a template */
    break;
  }
  case CXType_ConstantArray:
  case CXType_IncompleteArray:
  case CXType_VariableArray:
  case CXType_DependentSizedArray: {
    f |= WL_T_ARRAY;
    CXType e = clang_getArrayElementType(ct);
    while (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray)
      e = clang_getArrayElementType(clang_getCanonicalType(e));
    if (clang_isVolatileQualifiedType(e))
      f |= WL_T_VOLATILE;
    break;
  }
  case CXType_Bool:
  case CXType_Char_U:
  case CXType_UChar:
  case CXType_UShort:
  case CXType_UInt:
  case CXType_ULong:
  case CXType_ULongLong:
  case CXType_UInt128: f |= WL_T_INTEGER | WL_T_UNSIGNED; break;
  case CXType_Char_S:
  case CXType_SChar:
  case CXType_Short:
  case CXType_Int:
  case CXType_Long:
  case CXType_LongLong:
  case CXType_Int128: f |= WL_T_INTEGER; break;
  case CXType_Enum: f |= WL_T_INTEGER | WL_T_ENUM; break;
  case CXType_Float:
  case CXType_Double:
  case CXType_LongDouble:
  case CXType_Half:
  case CXType_Float16: f |= WL_T_FLOATING; break;
  case CXType_Dependent:
  case CXType_Unexposed: f |= WL_T_DEPENDENT; break;
  default: break;
  }
  return f;
}

static unsigned type_bytes(CXType t) {
  /* clang_Type_getSizeOf is only safe on complete, non-dependent types */
  CXType ct = clang_getCanonicalType(t);
  bool ok = (ct.kind >= CXType_FirstBuiltin && ct.kind <= CXType_LastBuiltin &&
             ct.kind != CXType_Dependent && ct.kind != CXType_Overload && ct.kind != CXType_Void) ||
            ct.kind == CXType_Pointer || ct.kind == CXType_Enum;
  if (!ok)
    return 0;
  long long n = clang_Type_getSizeOf(ct);
  return n > 0 && n < (1LL << 30) ? (unsigned)n : 0;
}

/* sizeof the scalar element of a pointer or array type (the pointee or
 * element, array extents stripped), structs and vector types included; 0
 * when t is neither or the size is not known (incomplete, dependent, an
 * invalid declaration) */
static unsigned elem_bytes(CXType t) {
  CXType ct = clang_getCanonicalType(t);
  CXType e;
  if (ct.kind == CXType_Pointer)
    e = clang_getCanonicalType(clang_getPointeeType(ct));
  else if (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray)
    e = ct;
  else
    return 0;
  for (unsigned depth = 0;
       depth < 8 && (e.kind == CXType_ConstantArray || e.kind == CXType_IncompleteArray); depth++)
    e = clang_getCanonicalType(clang_getArrayElementType(e));
  if (e.kind != CXType_Record)
    return type_bytes(e);
  CXCursor d = clang_getTypeDeclaration(e);
  if (clang_Cursor_isNull(d) || clang_isInvalidDeclaration(d))
    return 0;
  long long n = clang_Type_getSizeOf(e); /* negative for incomplete or dependent records */
  return n > 0 && n < (1LL << 30) ? (unsigned)n : 0;
}

/* ------------------------------------------------------------------------ */
/* Variables                                                                */

static wl_var **var_lookup(lower_ctx *L, CXCursor decl) {
  CXCursor key = clang_getCanonicalCursor(decl);
  unsigned h = clang_hashCursor(key);
  if (L->capvars) {
    size_t mask = L->capvars - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
      var_slot *s = &L->vars[i];
      if (!s->var)
        break;
      if (!s->dead && s->hash == h && clang_equalCursors(s->key, key))
        return &s->var;
    }
  }
  return NULL;
}

static void var_insert(lower_ctx *L, CXCursor decl, wl_var *v) {
  if ((L->nvars + 1) * 2 > L->capvars) {
    size_t live = 0;
    for (size_t i = 0; i < L->capvars; i++)
      live += L->vars[i].var && !L->vars[i].dead;
    /* the slots of freed batches are dropped: the table keeps the size of
     * what is alive */
    size_t ncap = 256;
    while ((live + 1) * 4 > ncap)
      ncap *= 2;
    var_slot *nv = wl_xcalloc(ncap, sizeof *nv);
    for (size_t i = 0; i < L->capvars; i++)
      if (L->vars[i].var && !L->vars[i].dead) {
        size_t j = L->vars[i].hash & (ncap - 1);
        while (nv[j].var)
          j = (j + 1) & (ncap - 1);
        nv[j] = L->vars[i];
      }
    free(L->vars);
    L->vars = nv;
    L->capvars = ncap;
    L->nvars = live;
  }
  CXCursor key = clang_getCanonicalCursor(decl);
  unsigned h = clang_hashCursor(key);
  size_t mask = L->capvars - 1, i = h & mask;
  while (L->vars[i].var)
    i = (i + 1) & mask;
  L->vars[i].key = key;
  L->vars[i].hash = h;
  L->vars[i].var = v;
  L->vars[i].dead = false;
  L->nvars++;
  if (L->cur) { /* forgotten when the batch's arena is freed */
    CXCursor *k = wl_xmalloc(sizeof *k);
    *k = key;
    wl_vec_push(&L->batch_vars, k);
  }
}

void lower_forget_batch_vars(lower_ctx *L) {
  for (size_t n = 0; n < L->batch_vars.n; n++) {
    CXCursor *key = L->batch_vars.v[n];
    unsigned h = clang_hashCursor(*key);
    size_t mask = L->capvars - 1;
    for (size_t i = h & mask; L->vars[i].var; i = (i + 1) & mask)
      if (!L->vars[i].dead && L->vars[i].hash == h && clang_equalCursors(L->vars[i].key, *key)) {
        L->vars[i].dead = true;
        break;
      }
    free(key);
  }
  L->batch_vars.n = 0;
}

/* Something left out of the IR because it nests more than WL_MAX_NESTING
 * levels deep: what (a function, an initializer, declarations) and its name. */
static void add_notice(lower_ctx *L, wl_loc loc, const char *what, const char *name) {
  if (L->quiet) /* a unit lowered again: its notices were added the first time */
    return;
  wl_parse_diag *d = wl_arena_alloc(&L->tu->arena, sizeof *d);
  memset(d, 0, sizeof *d);
  d->loc = loc;
  char msg[512];
  snprintf(msg, sizeof msg, "%s '%s' not analyzed: nested more than %d levels deep", what, name,
           WL_MAX_NESTING);
  d->message = wl_arena_strdup(&L->tu->arena, msg);
  wl_vec_push(&L->notices, d);
}

static wl_expr *lower_expr(lower_ctx *L, CXCursor c);
static wl_stmt *lower_stmt(lower_ctx *L, CXCursor c);

static wl_var *lower_var(lower_ctx *L, CXCursor c, unsigned extra_flags) {
  wl_var **found = var_lookup(L, c);
  if (found)
    return *found;
  wl_var *v = wl_arena_alloc(A(L), sizeof *v);
  var_insert(L, c, v);
  v->name = lower_take(L, clang_getCursorSpelling(c));
  v->usr = lower_take(L, clang_getCursorUSR(c));
  v->loc = lower_expansion_loc(L, clang_getCursorLocation(c));
  CXType t = clang_getCursorType(c);
  v->type = type_flags(t);
  v->type_spelling = lower_take(L, clang_getTypeSpelling(t));
  v->flags = extra_flags;
  v->param_index = -1;
  enum CXCursorKind kind = clang_getCursorKind(c);
  /* a parameter declared as an array (`volatile T ws[][N]`, as libclang
   * spells it) is a pointer to its element: b40c's warpscan[][NUM_ELEMENTS] */
  bool array_param = kind == CXCursor_ParmDecl && (v->type & WL_T_ARRAY);
  if (array_param)
    v->type = (v->type & ~(unsigned)WL_T_ARRAY) | WL_T_POINTER;
  if (kind == CXCursor_FieldDecl)
    v->flags |= WL_V_FIELD;
  enum CX_StorageClass sc = clang_Cursor_getStorageClass(c);
  if (sc == CX_SC_Extern)
    v->flags |= WL_V_EXTERN;
  if (sc == CX_SC_Static)
    v->flags |= WL_V_STATIC;
  if (kind == CXCursor_VarDecl) {
    CXCursor sem = clang_getCursorSemanticParent(c);
    enum CXCursorKind sk = clang_getCursorKind(sem);
    if (sk == CXCursor_TranslationUnit || sk == CXCursor_Namespace || sk == CXCursor_StructDecl ||
        sk == CXCursor_ClassDecl || sc == CX_SC_Static)
      v->flags |= WL_V_GLOBAL;
  }
  /* array extents */
  CXType at = clang_getCanonicalType(t);
  if (array_param) /* the pointer's own extents are those of its element */
    at = clang_getCanonicalType(clang_getArrayElementType(at));
  /* a template's s[K + 1][N] has extents not known here (0): its rows are not
   * linearized as if they were one element long */
  while (v->ndims < 4 &&
         (at.kind == CXType_ConstantArray || at.kind == CXType_IncompleteArray ||
          at.kind == CXType_DependentSizedArray || at.kind == CXType_VariableArray)) {
    long long n = at.kind == CXType_ConstantArray ? clang_getArraySize(at) : 0;
    v->dims[v->ndims++] = n > 0 && n < (1LL << 31) ? (unsigned)n : 0;
    at = clang_getCanonicalType(clang_getArrayElementType(at));
  }
  kids k = children(c);
  for (unsigned i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck == CXCursor_CUDASharedAttr)
      v->flags |= WL_V_SHARED;
    else if (ck == CXCursor_CUDAConstantAttr)
      v->flags |= WL_V_CONSTANT;
    else if (ck == CXCursor_CUDADeviceAttr)
      v->flags |= WL_V_DEVICE;
  }
  /* initializer: the last expression child of a variable; a parameter's default argument */
  CXCursor init = clang_getNullCursor();
  if (kind == CXCursor_VarDecl)
    init = clang_Cursor_getVarDeclInitializer(c); /* not an array extent */
  else if (kind == CXCursor_ParmDecl && !array_param && k.n > 0 &&
           is_expr_kind(clang_getCursorKind(k.v[k.n - 1])))
    init = k.v[k.n - 1];
  if (!clang_Cursor_isNull(init) && is_expr_kind(clang_getCursorKind(init))) {
    wl_func *saved = L->cur_func;
    v->init = lower_expr(L, init);
    L->cur_func = saved;
    if (L->too_deep && !L->cur_func) { /* a global's initializer: left out */
      v->init = NULL;
      L->too_deep = false;
      add_notice(L, v->loc, "the initializer of", v->name);
    }
  }
  free(k.v);
  if (kind == CXCursor_VarDecl && (v->type & WL_T_CONST) && (v->type & WL_T_INTEGER)) {
    CXEvalResult ev = clang_Cursor_Evaluate(c);
    if (ev) {
      if (clang_EvalResult_getKind(ev) == CXEval_Int) {
        v->has_ival = true;
        v->ival = clang_EvalResult_isUnsignedInt(ev) ? (long long)clang_EvalResult_getAsUnsigned(ev)
                                                     : clang_EvalResult_getAsLongLong(ev);
      }
      clang_EvalResult_dispose(ev);
    }
  }
  if (v->flags & WL_V_GLOBAL)
    wl_vec_push(&L->globals, v);
  return v;
}

/* ------------------------------------------------------------------------ */
/* Expressions                                                              */

static wl_expr *new_expr(lower_ctx *L, CXCursor c, wl_expr_kind kind) {
  wl_expr *e = wl_arena_alloc(A(L), sizeof *e);
  e->kind = kind;
  e->range = mkrange(L, c);
  e->loc = lower_expansion_loc(L, clang_getCursorLocation(c));
  e->macro = macro_of(L, c);
  CXType t = clang_getCursorType(c);
  e->type = type_flags(t);
  e->bytes = type_bytes(t);
  if (e->type & (WL_T_POINTER | WL_T_ARRAY))
    e->elem_bytes = elem_bytes(t);
  return e;
}

static void set_args(lower_ctx *L, wl_expr *e, wl_expr **tmp, unsigned n) {
  e->args = (wl_expr **)wl_arena_dup_ptrs(A(L), (void *const *)tmp, n);
  e->nargs = n;
}

/* e's arguments: the expression children of k in order, but the one at skip (-1: none). */
static void lower_args_from(lower_ctx *L, wl_expr *e, const kids *k, int skip) {
  wl_expr **tmp = wl_xmalloc((k->n + 1) * sizeof *tmp);
  unsigned n = 0;
  for (unsigned i = 0; i < k->n; i++)
    if ((int)i != skip && is_expr_kind(clang_getCursorKind(k->v[i])))
      tmp[n++] = lower_expr(L, k->v[i]);
  set_args(L, e, tmp, n);
  free(tmp);
}

static void eval_int(CXCursor c, wl_expr *e) {
  CXEvalResult ev = clang_Cursor_Evaluate(c);
  if (!ev)
    return;
  if (clang_EvalResult_getKind(ev) == CXEval_Int) {
    e->has_ival = true;
    e->ival = clang_EvalResult_isUnsignedInt(ev) ? (long long)clang_EvalResult_getAsUnsigned(ev)
                                                 : clang_EvalResult_getAsLongLong(ev);
  } else if (clang_EvalResult_getKind(ev) == CXEval_Float) {
    e->fval = clang_EvalResult_getAsDouble(ev);
  }
  clang_EvalResult_dispose(ev);
}

static int map_binop(enum CXBinaryOperatorKind k) {
  switch (k) {
  case CXBinaryOperator_Mul: return WL_B_MUL;
  case CXBinaryOperator_Div: return WL_B_DIV;
  case CXBinaryOperator_Rem: return WL_B_REM;
  case CXBinaryOperator_Add: return WL_B_ADD;
  case CXBinaryOperator_Sub: return WL_B_SUB;
  case CXBinaryOperator_Shl: return WL_B_SHL;
  case CXBinaryOperator_Shr: return WL_B_SHR;
  case CXBinaryOperator_LT: return WL_B_LT;
  case CXBinaryOperator_GT: return WL_B_GT;
  case CXBinaryOperator_LE: return WL_B_LE;
  case CXBinaryOperator_GE: return WL_B_GE;
  case CXBinaryOperator_EQ: return WL_B_EQ;
  case CXBinaryOperator_NE: return WL_B_NE;
  case CXBinaryOperator_And: return WL_B_AND;
  case CXBinaryOperator_Xor: return WL_B_XOR;
  case CXBinaryOperator_Or: return WL_B_OR;
  case CXBinaryOperator_LAnd: return WL_B_LAND;
  case CXBinaryOperator_LOr: return WL_B_LOR;
  case CXBinaryOperator_Assign: return WL_B_ASSIGN;
  case CXBinaryOperator_MulAssign: return WL_B_MUL_ASSIGN;
  case CXBinaryOperator_DivAssign: return WL_B_DIV_ASSIGN;
  case CXBinaryOperator_RemAssign: return WL_B_REM_ASSIGN;
  case CXBinaryOperator_AddAssign: return WL_B_ADD_ASSIGN;
  case CXBinaryOperator_SubAssign: return WL_B_SUB_ASSIGN;
  case CXBinaryOperator_ShlAssign: return WL_B_SHL_ASSIGN;
  case CXBinaryOperator_ShrAssign: return WL_B_SHR_ASSIGN;
  case CXBinaryOperator_AndAssign: return WL_B_AND_ASSIGN;
  case CXBinaryOperator_XorAssign: return WL_B_XOR_ASSIGN;
  case CXBinaryOperator_OrAssign: return WL_B_OR_ASSIGN;
  case CXBinaryOperator_Comma: return WL_B_COMMA;
  case CXBinaryOperator_PtrMemD:
  case CXBinaryOperator_PtrMemI: return WL_B_PTRMEM;
  default: return WL_B_NONE;
  }
}

static int map_unop(enum CXUnaryOperatorKind k) {
  switch (k) {
  case CXUnaryOperator_PostInc: return WL_U_POSTINC;
  case CXUnaryOperator_PostDec: return WL_U_POSTDEC;
  case CXUnaryOperator_PreInc: return WL_U_PREINC;
  case CXUnaryOperator_PreDec: return WL_U_PREDEC;
  case CXUnaryOperator_AddrOf: return WL_U_ADDROF;
  case CXUnaryOperator_Deref: return WL_U_DEREF;
  case CXUnaryOperator_Plus: return WL_U_PLUS;
  case CXUnaryOperator_Minus: return WL_U_MINUS;
  case CXUnaryOperator_Not: return WL_U_NOT;
  case CXUnaryOperator_LNot: return WL_U_LNOT;
  default: return WL_U_OTHER;
  }
}

static bool in_prelude_or_system(lower_ctx *L, CXCursor decl) {
  CXSourceLocation sl = clang_getCursorLocation(decl);
  if (clang_Location_isInSystemHeader(sl))
    return true;
  CXFile f = NULL;
  clang_getExpansionLocation(sl, &f, NULL, NULL, NULL);
  if (!f)
    return true; /* builtins */
  return file_info_at(L, f, sl)->prelude;
}

static bool within(wl_range outer, wl_range inner) {
  return inner.begin.file && inner.begin.file == outer.begin.file &&
         inner.begin.offset >= outer.begin.offset && inner.begin.offset < outer.end.offset;
}

static bool user_code(lower_ctx *L, CXCursor c);
static bool has_body(CXCursor c);

/* Whether c has a __device__ or __global__ attribute. */
/* Whether ref, a specialization of tmpl, is device code of the project's
 * own (a device member of a class template specialization) that has no body
 * while its template has one: clang instantiates that body at the end of a
 * complete unit only, and the lowering reads such instantiations with their
 * template arguments as numbers (b40c's `Cta<KernelPolicy>` members,
 * WarpScan<5>::Iterate<2, 32>::Invoke); see lower_ctx.wants_instances. A
 * specialization of a function template that is no member (a kernel
 * launched as `k<16><<<...>>>`, a device function template called with its
 * arguments) needs no body: the lowering reads the template as written,
 * with the specialization's arguments (inst_note_instantiation). Asking for
 * those made cudpp's segmented_scan_app.cu instantiate every kernel its
 * host code names (5.6 s with the toolkit), for the same findings. */
static bool uninstantiated_spec(lower_ctx *L, CXCursor ref, CXCursor tmpl) {
  if (clang_getCursorKind(tmpl) == CXCursor_FunctionTemplate &&
      clang_getCursorKind(ref) == CXCursor_FunctionDecl)
    return false;
  if (has_body(ref) || !user_code(L, ref))
    return false;
  /* the code it comes from: a member template of a class template
   * specialization comes from the class template's */
  CXCursor t = tmpl;
  for (unsigned i = 0; i < 4; i++) {
    CXCursor up = clang_getSpecializedCursorTemplate(t);
    if (clang_Cursor_isNull(up))
      break;
    t = up;
  }
  CXCursor def = clang_getCursorDefinition(t);
  return !clang_Cursor_isNull(def) && has_body(def) && wl_device_decl(def);
}

static void fill_callee(lower_ctx *L, wl_expr *e, CXCursor ref) {
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (rk == CXCursor_OverloadedDeclRef) {
    if (clang_getNumOverloadedDecls(ref) == 0)
      return;
    /* a dependent call: a legacy name is a legacy name whichever overload wins;
     * prefer a user-written candidate so hand-made overloads are recognized */
    unsigned n = clang_getNumOverloadedDecls(ref);
    CXCursor pick = clang_getNullCursor();
    for (unsigned i = 0; i < n; i++) {
      CXCursor d = clang_getOverloadedDecl(ref, i);
      if (L->no_half && wl_half_candidate(d))
        continue;
      if (clang_Cursor_isNull(pick))
        pick = d;
      if (!in_prelude_or_system(L, d)) {
        pick = d;
        break;
      }
    }
    if (clang_Cursor_isNull(pick))
      return;
    ref = pick;
    rk = clang_getCursorKind(ref);
  }
  if (clang_Cursor_isNull(ref) || clang_isInvalid(rk))
    return;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
  CXCursor key = clang_Cursor_isNull(tmpl) ? ref : tmpl;
  if (!clang_Cursor_isNull(tmpl)) {
    inst_note_instantiation(L, ref, tmpl);
    e->callee_spec_usr = lower_take(L, clang_getCursorUSR(ref));
    if (!L->wants_instances && uninstantiated_spec(L, ref, tmpl))
      L->wants_instances = true;
  }
  e->callee_usr = lower_take(L, clang_getCursorUSR(key));
  e->callee_decl = lower_expansion_loc(L, clang_getCursorLocation(key));
  e->callee_in_prelude = in_prelude_or_system(L, key);
  e->callee_is_method = rk == CXCursor_CXXMethod;
  if (!e->name || !*e->name)
    e->name = lower_take(L, clang_getCursorSpelling(key));
}

/* A reference to a function as a value (a kernel handed to a launch
 * wrapper: `launch(k<4>, cfg, ...)`, `fn = k<T>;`): the USR of the function,
 * or of the template a specialization comes from, in callee_usr, and its
 * name where clang gives none (a template's `k<R>` is an overload set).
 * Nothing else of a call's facts is set. */
static void ref_function(lower_ctx *L, wl_expr *e, CXCursor ref) {
  if (clang_getCursorKind(ref) == CXCursor_OverloadedDeclRef) {
    unsigned n = clang_getNumOverloadedDecls(ref), kept = 0;
    CXCursor one = clang_getNullCursor();
    for (unsigned i = 0; i < n && kept < 2; i++) {
      CXCursor d = clang_getOverloadedDecl(ref, i);
      if (!(L->no_half && wl_half_candidate(d))) {
        one = d;
        kept++;
      }
    }
    if (kept != 1)
      return;
    ref = one;
  }
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (rk != CXCursor_FunctionDecl && rk != CXCursor_FunctionTemplate)
    return;
  CXCursor tmpl = clang_getSpecializedCursorTemplate(ref);
  CXCursor key = clang_Cursor_isNull(tmpl) ? ref : tmpl;
  e->callee_usr = lower_take(L, clang_getCursorUSR(key));
  if (!e->name || !*e->name)
    e->name = lower_take(L, clang_getCursorSpelling(key));
  if (!clang_Cursor_isNull(tmpl) && !L->wants_instances && uninstantiated_spec(L, ref, tmpl))
    L->wants_instances = true;
}

/* The expressions a call's callee names as template arguments, in order
 * (NULL for a type): the arguments are told apart by the tokens between the
 * name's `<` and its `>`, and each is the callee's child expression that
 * lies in its tokens (libclang visits the non-type arguments as children, but
 * not types such as `int`, so the children alone do not give the order). */
static void lower_targs(lower_ctx *L, wl_expr *e, CXCursor callee, bool qualifier) {
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(L->ctu, clang_getCursorExtent(callee), &toks, &nt);
  unsigned open = nt; /* the `<` right after the name (after its qualifiers) */
  for (unsigned i = 1; i < nt && open == nt; i++) {
    if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
      continue;
    CXString sp = clang_getTokenSpelling(L->ctu, toks[i]);
    const char *t = clang_getCString(sp);
    bool lt = !strcmp(t, "<"), stop = strcmp(t, "::") != 0 && !lt;
    clang_disposeString(sp);
    if (lt && clang_getTokenKind(toks[i - 1]) == CXToken_Identifier)
      open = i;
    else if (stop || lt)
      break;
  }
  unsigned starts[16], ends[16], na = 0;
  bool closed = false;
  if (open < nt) {
    bool lt = true;
    int depth = 0;
    unsigned from = open + 1;
    for (unsigned i = open + 1; lt && i < nt && !closed && na < 16; i++) {
      if (clang_getTokenKind(toks[i]) != CXToken_Punctuation)
        continue;
      CXString ts = clang_getTokenSpelling(L->ctu, toks[i]);
      const char *t = clang_getCString(ts);
      bool close_arg = false;
      if (!strcmp(t, "<") || !strcmp(t, "(") || !strcmp(t, "["))
        depth++;
      else if (!strcmp(t, ")") || !strcmp(t, "]"))
        depth--;
      else if (!strcmp(t, ">") || !strcmp(t, ">>"))
        depth -= t[1] ? 2 : 1;
      else if (!strcmp(t, ",") && depth == 0)
        close_arg = true;
      clang_disposeString(ts);
      if (depth < 0) {
        closed = true;
        close_arg = true;
        if (i + 1 < nt) { /* Iterate<P / 2>::Invoke: a class's arguments, not the function's */
          CXString ns = clang_getTokenSpelling(L->ctu, toks[i + 1]);
          closed = (strcmp(clang_getCString(ns), "::") != 0) != qualifier;
          clang_disposeString(ns);
        } else if (qualifier) {
          closed = false;
        }
      }
      if (close_arg) {
        clang_getExpansionLocation(clang_getRangeStart(clang_getTokenExtent(L->ctu, toks[from])),
                                   NULL, NULL, NULL, &starts[na]);
        clang_getExpansionLocation(clang_getRangeEnd(clang_getTokenExtent(L->ctu, toks[i - 1])),
                                   NULL, NULL, NULL, &ends[na]);
        na++;
        from = i + 1;
        if (from >= nt)
          break;
      }
    }
  }
  if (toks)
    clang_disposeTokens(L->ctu, toks, nt);
  if (!closed || !na)
    return;
  wl_expr **args = wl_arena_alloc(A(L), na * sizeof *args);
  memset(args, 0, na * sizeof *args);
  if (qualifier) {
    e->ctargs = args;
    e->nctargs = na;
  } else {
    e->targs = args;
    e->ntargs = na;
  }
  kids k = children(callee);
  for (unsigned i = 0; i < k.n; i++) {
    if (!is_expr_kind(clang_getCursorKind(k.v[i])))
      continue;
    unsigned off = 0;
    clang_getExpansionLocation(clang_getRangeStart(clang_getCursorExtent(k.v[i])), NULL, NULL, NULL,
                               &off);
    for (unsigned a = 0; a < na; a++)
      if (off >= starts[a] && off < ends[a] && !args[a])
        args[a] = lower_expr(L, k.v[i]);
  }
  free(k.v);
}

static bool punct_is(lower_ctx *L, CXToken t, const char *p);

/* A call of a member of a dependent type (`GROUP::size()` with GROUP a
 * template parameter), which libclang names with nothing: from the
 * callee's tokens, `Q :: name` (no template arguments, no deeper nesting),
 * its callee (a REF to nothing) is named `Q::name`; the call keeps no name,
 * so nothing takes it for a function of that name. */
static void lower_dependent_scope_name(lower_ctx *L, wl_expr *e, CXCursor callee) {
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(L->ctu, clang_getCursorExtent(callee), &toks, &nt);
  if (nt == 3 && clang_getTokenKind(toks[0]) == CXToken_Identifier && punct_is(L, toks[1], "::") &&
      clang_getTokenKind(toks[2]) == CXToken_Identifier) {
    CXString q = clang_getTokenSpelling(L->ctu, toks[0]),
             m = clang_getTokenSpelling(L->ctu, toks[2]);
    char buf[512];
    snprintf(buf, sizeof buf, "%s::%s", clang_getCString(q), clang_getCString(m));
    e->callee_expr->name = wl_arena_strdup(A(L), buf);
    clang_disposeString(q);
    clang_disposeString(m);
  }
  if (toks)
    clang_disposeTokens(L->ctu, toks, nt);
}

/* `Iterate<1, (1 << STEPS)>::Scan(...)` in a member of an enclosing class
 * template (or of Iterate itself): clang keeps a dependent name whose
 * children are the class template's reference and the arguments. The call
 * gets the member's name
 * (the last identifier of the callee), the class template's USR and
 * parameter names, and the arguments (lower_targs), for lower_link_calls and
 * the analyses. */
static void lower_dependent_member(lower_ctx *L, wl_expr *e, CXCursor callee) {
  kids k = children(callee);
  CXCursor tmpl = clang_getNullCursor();
  for (unsigned i = 0; i < k.n && clang_Cursor_isNull(tmpl); i++)
    if (clang_getCursorKind(k.v[i]) == CXCursor_TemplateRef) {
      CXCursor r = clang_getCursorReferenced(k.v[i]);
      if (clang_getCursorKind(r) == CXCursor_ClassTemplate)
        tmpl = r;
    }
  free(k.v);
  if (clang_Cursor_isNull(tmpl))
    return;
  CXToken *toks = NULL;
  unsigned nt = 0;
  clang_tokenize(L->ctu, clang_getCursorExtent(callee), &toks, &nt);
  const char *name = NULL;
  if (nt >= 3 && clang_getTokenKind(toks[nt - 1]) == CXToken_Identifier) {
    CXString sep = clang_getTokenSpelling(L->ctu, toks[nt - 2]);
    if (strcmp(clang_getCString(sep), "::") == 0)
      name = lower_take(L, clang_getTokenSpelling(L->ctu, toks[nt - 1]));
    clang_disposeString(sep);
  }
  if (toks)
    clang_disposeTokens(L->ctu, toks, nt);
  if (!name || !*name)
    return;
  /* only a class template of the caller's own class, or nested in it (the
   * members of the current instantiation): a class elsewhere (a library's)
   * is left to its own analysis as before */
  const char *cu = lower_take(L, clang_getCursorUSR(tmpl));
  const char *fu = L->cur_func ? L->cur_func->usr : NULL;
  const char *fpos = fu ? strstr(fu, "@F@") : NULL, *ft = fu ? strstr(fu, "@FT@") : NULL;
  if (ft && (!fpos || ft < fpos))
    fpos = ft;
  size_t plen = fpos ? (size_t)(fpos - fu) : 0;
  if (!plen || strncmp(cu, fu, plen) != 0 || (cu[plen] && cu[plen] != '@'))
    return;
  kids tk = children(tmpl);
  const char **pn = wl_arena_alloc(A(L), (tk.n + 1) * sizeof *pn);
  unsigned got = 0;
  for (unsigned i = 0; i < tk.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(tk.v[i]);
    if (ck == CXCursor_TemplateTypeParameter || ck == CXCursor_NonTypeTemplateParameter ||
        ck == CXCursor_TemplateTemplateParameter)
      pn[got++] = lower_take(L, clang_getCursorSpelling(tk.v[i]));
  }
  free(tk.v);
  e->name = name;
  e->callee_class_usr = cu;
  e->ctparams = pn;
  e->nctparams = got;
  lower_targs(L, e, callee, true);
  if (e->nctargs > e->nctparams) {
    e->ctargs = NULL;
    e->nctargs = 0;
  }
}

static wl_expr *lower_call(lower_ctx *L, CXCursor c) {
  wl_half_op half;
  bool half_call = wl_half_operator_call(c, &half);
  if (half_call && !half.nother) {
    /* `a * b`, `*p` in a template that found only the toolkit's
     * half-precision operators: as the dependent built-in operator on the
     * same operands that clang builds when it finds none (the cases of
     * CXCursor_BinaryOperator and CXCursor_UnaryOperator below), whether
     * the header that brings them is included before it or not; with other
     * candidates too, the call of those (no_half) */
    wl_expr *e = new_expr(L, c, half.unary ? WL_E_UNARY : WL_E_BINARY);
    wl_expr *ops[2];
    for (unsigned i = 0; i < half.noperands; i++)
      ops[i] = lower_expr(L, half.operands[i]);
    set_args(L, e, ops, half.noperands);
    e->op = half.op;
    return e;
  }
  wl_expr *e = new_expr(L, c, WL_E_CALL);
  e->name = lower_take(L, clang_getCursorSpelling(c));
  kids k = children(c);
  int n = clang_Cursor_getNumArguments(c);
  /* the callee: the first child that is not an argument (libclang visits an
   * overloaded operator's children in source order, `a << b` as a, <<, b:
   * lowering an argument as the callee too would double the work at each
   * level of a chain such as gtest's `<< x << y << ...`) */
  unsigned first = 0;
  /* an overloaded operator (dependent or not): the child naming `operatorX` is
   * the callee and the other children, in source order, are the operands */
  int opi = -1;
  const char *opname = NULL;
  for (unsigned i = 0; i < k.n && opi < 0 && k.n <= 3; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck != CXCursor_DeclRefExpr && ck != CXCursor_OverloadedDeclRef &&
        ck != CXCursor_UnexposedExpr)
      continue;
    CXCursor nm = k.v[i];
    kids ok = children(nm);
    if (ok.n == 1 && clang_getCursorKind(ok.v[0]) == CXCursor_OverloadedDeclRef)
      nm = ok.v[0];
    CXString sp = clang_getCursorSpelling(nm);
    const char *cs = clang_getCString(sp);
    /* "operator T" names a conversion function (an argument converted by
     * one, such as a cooperative-groups tile passed by value), not an
     * operator: only new, delete and co_await follow a space */
    bool is_op = cs && strncmp(cs, "operator", 8) == 0; /* then cs[8] exists */
    bool word_op = is_op && cs[8] == ' ' &&
                   (strncmp(cs + 9, "new", 3) == 0 || strncmp(cs + 9, "delete", 6) == 0 ||
                    strcmp(cs + 9, "co_await") == 0);
    if (is_op && !isalnum((unsigned char)cs[8]) && cs[8] != '_' && cs[8] &&
        (cs[8] != ' ' || word_op)) {
      opi = (int)i;
      opname = wl_arena_strdup(A(L), cs);
    }
    clang_disposeString(sp);
    free(ok.v);
  }
  if (opi >= 0) {
    e->name = opname;
    /* (the other candidates of a wl_half_operator_call's: see above) */
    L->no_half = half_call;
    e->callee_expr = lower_expr(L, k.v[opi]);
    L->no_half = false;
    e->loc = e->callee_expr->range.begin.file ? e->callee_expr->range.begin : e->range.begin;
    lower_args_from(L, e, &k, opi);
    L->no_half = half_call;
    fill_callee(L, e, clang_getCursorReferenced(k.v[opi]));
    L->no_half = false;
    free(k.v);
    wl_vec_push(&L->calls, e);
    return e;
  }
  while (first < k.n && n > 0) {
    bool is_arg = false;
    for (int i = 0; i < n && !is_arg; i++)
      is_arg = clang_equalCursors(k.v[first], clang_Cursor_getArgument(c, (unsigned)i)) != 0;
    if (!is_arg)
      break;
    first++;
  }
  if (first < k.n && (n < 0 || (unsigned)n < k.n)) {
    CXCursor callee = k.v[first];
    /* look through the implicit function-to-pointer conversion */
    while (clang_getCursorKind(callee) == CXCursor_UnexposedExpr) {
      kids ck = children(callee);
      bool one = ck.n == 1;
      if (one)
        callee = ck.v[0];
      free(ck.v);
      if (!one)
        break;
    }
    if (is_expr_kind(clang_getCursorKind(callee)))
      e->callee_expr = lower_expr(L, callee);
    if (clang_getCursorKind(callee) == CXCursor_DeclRefExpr) {
      /* only a template's call is tokenized */
      CXCursor ref = clang_getCursorReferenced(callee);
      enum CXCursorKind rk = clang_getCursorKind(ref);
      if (rk == CXCursor_OverloadedDeclRef || rk == CXCursor_FunctionTemplate ||
          (rk == CXCursor_FunctionDecl &&
           !clang_Cursor_isNull(clang_getSpecializedCursorTemplate(ref))))
        lower_targs(L, e, callee, false);
      else if ((clang_Cursor_isNull(ref) || clang_isInvalid(rk)) && (!e->name || !*e->name)) {
        lower_dependent_member(L, e, callee);
        if ((!e->name || !*e->name) && clang_Cursor_isNull(ref) && e->callee_expr)
          lower_dependent_scope_name(L, e, callee);
      }
    }
  }
  /* a kernel launch: the configuration call that clang keeps as a child
   * between the callee and the arguments */
  if (first + 1 < k.n && (n < 0 || (unsigned)n < k.n) &&
      clang_getCursorKind(k.v[first + 1]) == CXCursor_CallExpr) {
    CXString sp = clang_getCursorSpelling(k.v[first + 1]);
    const char *cs = clang_getCString(sp);
    bool cfg = wl_launch_config_name(cs);
    clang_disposeString(sp);
    for (int i = 0; i < n && cfg; i++)
      cfg = !clang_equalCursors(k.v[first + 1], clang_Cursor_getArgument(c, (unsigned)i));
    if (cfg)
      e->config = lower_expr(L, k.v[first + 1]);
  }
  free(k.v);
  if (e->callee_expr) {
    /* the call's own location: the start of the callee's name */
    const wl_expr *ce = e->callee_expr;
    if ((!e->name || !*e->name) && ce->kind == WL_E_MEMBER && ce->name && *ce->name)
      e->name = ce->name; /* a dependent method call: obj.getPointer() */
    if (ce->kind == WL_E_MEMBER && ce->loc.file)
      e->loc = ce->loc;
    else if (ce->range.begin.file)
      e->loc = ce->range.begin;
  } else {
    e->loc = e->range.begin;
  }
  wl_expr *tmp[64];
  unsigned na = 0;
  if (n < 0) { /* T(args) of a type clang could not resolve: the expression children */
    kids ak = children(c);
    for (unsigned i = 0; i < ak.n && na < 64; i++)
      if (is_expr_kind(clang_getCursorKind(ak.v[i])) &&
          (!e->callee_expr || !clang_equalCursors(ak.v[i], ak.v[0])))
        tmp[na++] = lower_expr(L, ak.v[i]);
    free(ak.v);
  }
  for (int i = 0; i < n && na < 64; i++) {
    CXCursor a = clang_Cursor_getArgument(c, (unsigned)i);
    if (clang_Cursor_isNull(a))
      continue;
    wl_expr *ae = lower_expr(L, a);
    /* default arguments do not appear in the source of the call: their
     * (expansion) location is the declaration's, not inside the call */
    if (e->macro || ae->macro ? ae->range.begin.file != e->range.begin.file
                              : !within(e->range, ae->range))
      break;
    tmp[na++] = ae;
  }
  set_args(L, e, tmp, na);
  CXCursor ref = clang_getCursorReferenced(c);
  if (clang_Cursor_isNull(ref) || clang_isInvalid(clang_getCursorKind(ref))) {
    /* a dependent call in a template: the callee child names the overload set */
    kids k2 = children(c);
    if (k2.n > 0)
      ref = clang_getCursorReferenced(k2.v[0]);
    free(k2.v);
  }
  if (e->name && !*e->name)
    e->name = NULL;
  fill_callee(L, e, ref);
  wl_vec_push(&L->calls, e);
  return e;
}

static wl_func *lower_function(lower_ctx *L, CXCursor c, unsigned extra);

static wl_expr *lower_children_as(lower_ctx *L, CXCursor c, wl_expr_kind kind) {
  wl_expr *e = new_expr(L, c, kind);
  kids k = children(c);
  lower_args_from(L, e, &k, -1);
  free(k.v);
  return e;
}

/* A call that clang could not resolve (RecoveryExpr and friends): the first
 * child names the function, the rest are the arguments. */
static wl_expr *lower_unresolved(lower_ctx *L, CXCursor c, kids *k) {
  CXCursor first = k->v[0];
  enum CXCursorKind fk = clang_getCursorKind(first);
  if (fk != CXCursor_OverloadedDeclRef && fk != CXCursor_DeclRefExpr)
    return NULL;
  CXCursor ref = clang_getCursorReferenced(first);
  enum CXCursorKind rk = clang_getCursorKind(ref);
  if (fk == CXCursor_DeclRefExpr && rk != CXCursor_FunctionDecl && rk != CXCursor_FunctionTemplate)
    return NULL;
  wl_expr *e = new_expr(L, c, WL_E_CALL);
  e->name = lower_take(L, clang_getCursorSpelling(first));
  e->loc = lower_expansion_loc(L, clang_getCursorLocation(first));
  if (fk == CXCursor_DeclRefExpr)
    e->callee_expr = lower_expr(L, first);
  lower_args_from(L, e, k, 0);
  fill_callee(L, e, fk == CXCursor_OverloadedDeclRef ? first : ref);
  wl_vec_push(&L->calls, e);
  return e;
}

/* A call of a name clang never saw declared (`syncthreads();` of an old
 * sample, a helper from a header that is missing): clang keeps only the
 * arguments. From the tokens: `name ( ... )` over the whole extent. */
/* Whether token t is punctuation spelled p. */
static bool punct_is(lower_ctx *L, CXToken t, const char *p) {
  if (clang_getTokenKind(t) != CXToken_Punctuation)
    return false;
  CXString s = clang_getTokenSpelling(L->ctu, t);
  bool is = strcmp(clang_getCString(s), p) == 0;
  clang_disposeString(s);
  return is;
}

typedef struct file_text {
  const char *text;
  size_t size;
} file_text;

/* lower.h; the main file's is the text parsed, never asked of clang */
const char *lower_file_text(lower_ctx *L, CXFile f, size_t *size) {
  *size = 0;
  if (!f)
    return NULL;
  if (L->main_text && clang_File_isEqual(f, L->main_file)) {
    *size = L->main_len;
    return L->main_text;
  }
  file_text *t = wl_hmap_get(&L->texts, f);
  if (!t) {
    t = wl_xmalloc(sizeof *t);
    t->text = clang_getFileContents(L->ctu, f, &t->size);
    if (!t->text)
      t->size = 0;
    wl_hmap_put(&L->texts, f, t, false);
  }
  *size = t->size;
  return t->text;
}

/* The tokens a call shape needs: is c's extent `identifier ( ... )`? Then
 * *name_tok is the identifier (to be disposed of with *toks, *nt). Only the
 * head of the extent is tokenized and its last character read: an extent
 * that is a long macro invocation holding many calls is not tokenized again
 * for each of them. An extent that the head does not settle (an identifier
 * longer than the head, an extent across files) is tokenized whole. */
static bool call_shape(lower_ctx *L, CXCursor c, CXToken **toks, unsigned *nt) {
  enum { HEAD = 128 };
  CXSourceRange ext = clang_getCursorExtent(c);
  CXFile fb = NULL, fe = NULL;
  unsigned ob = 0, oe = 0;
  clang_getSpellingLocation(clang_getRangeStart(ext), &fb, NULL, NULL, &ob);
  clang_getSpellingLocation(clang_getRangeEnd(ext), &fe, NULL, NULL, &oe);
  size_t size = 0;
  /* (not the text of a header known to be the toolkit's or the system's:
   * clang finds those only after reading back the precompiled header's
   * source locations, and calls spelled there are short) */
  uintptr_t known = fb ? (uintptr_t)wl_hmap_get(&L->file_index, fb) : 0;
  bool sys = known && (L->files[known - 1].system || L->files[known - 1].prelude);
  const char *text = fb && fe && !sys && clang_File_isEqual(fb, fe) && oe > ob
                         ? lower_file_text(L, fb, &size)
                         : NULL;
  *toks = NULL;
  *nt = 0;
  if (text && oe <= size) {
    if (text[oe - 1] != ')')
      return false; /* the last token is not ')' */
    if (oe - ob > HEAD) {
      CXSourceLocation head_end = clang_getLocationForOffset(L->ctu, fb, ob + HEAD);
      clang_tokenize(L->ctu, clang_getRange(clang_getRangeStart(ext), head_end), toks, nt);
      if (*nt >= 2)
        return clang_getTokenKind((*toks)[0]) == CXToken_Identifier && punct_is(L, (*toks)[1], "(");
      if (*toks)
        clang_disposeTokens(L->ctu, *toks, *nt);
      *toks = NULL;
      *nt = 0;
    }
  }
  clang_tokenize(L->ctu, ext, toks, nt);
  return *nt >= 3 && clang_getTokenKind((*toks)[0]) == CXToken_Identifier &&
         punct_is(L, (*toks)[1], "(") && punct_is(L, (*toks)[*nt - 1], ")");
}

static wl_expr *lower_undeclared_call(lower_ctx *L, CXCursor c, kids *k) {
  CXToken *toks = NULL;
  unsigned nt = 0;
  wl_expr *e = NULL;
  if (call_shape(L, c, &toks, &nt)) {
    e = new_expr(L, c, WL_E_CALL);
    e->name = lower_take(L, clang_getTokenSpelling(L->ctu, toks[0]));
    e->loc = lower_expansion_loc(L, clang_getTokenLocation(L->ctu, toks[0]));
    lower_args_from(L, e, k, -1);
  }
  if (toks)
    clang_disposeTokens(L->ctu, toks, nt);
  return e;
}

static wl_expr *lower_expr_node(lower_ctx *L, CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  switch (kind) {
  case CXCursor_IntegerLiteral:
  case CXCursor_CharacterLiteral: {
    wl_expr *e = new_expr(L, c, WL_E_INT);
    eval_int(c, e);
    return e;
  }
  case CXCursor_CXXBoolLiteralExpr: {
    wl_expr *e = new_expr(L, c, WL_E_BOOL);
    eval_int(c, e);
    return e;
  }
  case CXCursor_CXXNullPtrLiteralExpr:
  case CXCursor_GNUNullExpr: {
    wl_expr *e = new_expr(L, c, WL_E_INT);
    e->has_ival = true;
    return e;
  }
  case CXCursor_FloatingLiteral: {
    wl_expr *e = new_expr(L, c, WL_E_FLOAT);
    eval_int(c, e);
    return e;
  }
  case CXCursor_StringLiteral: {
    wl_expr *e = new_expr(L, c, WL_E_STRING);
    e->name = lower_take(L, clang_getCursorSpelling(c));
    return e;
  }
  case CXCursor_DeclRefExpr: {
    wl_expr *e = new_expr(L, c, WL_E_REF);
    e->name = lower_take(L, clang_getCursorSpelling(c));
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_VarDecl || rk == CXCursor_ParmDecl) {
      e->var = lower_var(L, ref, rk == CXCursor_ParmDecl ? WL_V_PARAM : 0);
      if (rk == CXCursor_ParmDecl && (e->type & WL_T_ARRAY)) /* see lower_var */
        e->type = (e->type & ~(unsigned)WL_T_ARRAY) | WL_T_POINTER;
    } else if (rk == CXCursor_EnumConstantDecl) {
      e->kind = WL_E_INT;
      e->has_ival = true;
      e->ival = clang_getEnumConstantDeclValue(ref);
    } else if (rk == CXCursor_NonTypeTemplateParameter) {
      e->type |= WL_T_DEPENDENT;
    } else if (rk == CXCursor_FunctionDecl || rk == CXCursor_FunctionTemplate ||
               rk == CXCursor_OverloadedDeclRef) {
      ref_function(L, e, ref);
    } else if (clang_Cursor_isNull(ref) || clang_isInvalid(rk)) {
      /* a template parameter replaced by its argument in an instantiation
       * (libclang shows it as a reference to nothing): the argument */
      eval_int(c, e);
      if (e->has_ival)
        e->kind = WL_E_INT;
    }
    return e;
  }
  case CXCursor_MemberRefExpr: {
    wl_expr *e = new_expr(L, c, WL_E_MEMBER);
    e->name = lower_take(L, clang_getCursorSpelling(c));
    if (!*e->name) { /* obj.f in a template, f unresolved: the last identifier of the extent */
      CXToken *toks = NULL;
      unsigned nt = 0;
      clang_tokenize(L->ctu, clang_getCursorExtent(c), &toks, &nt);
      for (unsigned i = nt; i-- > 0;)
        if (clang_getTokenKind(toks[i]) == CXToken_Identifier) {
          e->name = lower_take(L, clang_getTokenSpelling(L->ctu, toks[i]));
          break;
        }
      if (toks)
        clang_disposeTokens(L->ctu, toks, nt);
    }
    kids k = children(c);
    for (unsigned i = 0; i < k.n; i++)
      if (is_expr_kind(clang_getCursorKind(k.v[i]))) {
        wl_expr *base = lower_expr(L, k.v[i]);
        set_args(L, e, &base, 1);
        e->arrow = (base->type & WL_T_POINTER) != 0;
        break;
      }
    free(k.v);
    CXCursor ref = clang_getCursorReferenced(c);
    enum CXCursorKind rk = clang_getCursorKind(ref);
    if (rk == CXCursor_FieldDecl || rk == CXCursor_VarDecl)
      e->var = lower_var(L, ref, WL_V_FIELD);
    return e;
  }
  case CXCursor_CallExpr: return lower_call(L, c);
  case CXCursor_UnaryOperator: {
    wl_expr *e = lower_children_as(L, c, WL_E_UNARY);
    e->op = map_unop(clang_getCursorUnaryOperatorKind(c));
    eval_int(c, e);
    return e;
  }
  case CXCursor_BinaryOperator:
  case CXCursor_CompoundAssignOperator: {
    wl_expr *e = lower_children_as(L, c, WL_E_BINARY);
    e->op = map_binop(clang_getCursorBinaryOperatorKind(c));
    if (e->nargs != 2) {
      e->kind = WL_E_OTHER;
      e->op = 0;
    }
    return e;
  }
  case CXCursor_ConditionalOperator: {
    wl_expr *e = lower_children_as(L, c, WL_E_COND);
    if (e->nargs != 3)
      e->kind = WL_E_OTHER;
    return e;
  }
  case CXCursor_ArraySubscriptExpr: {
    wl_expr *e = lower_children_as(L, c, WL_E_INDEX);
    if (e->nargs != 2)
      e->kind = WL_E_OTHER;
    return e;
  }
  case CXCursor_ParenExpr: {
    kids k = children(c);
    wl_expr *e = NULL;
    if (k.n == 1 && is_expr_kind(clang_getCursorKind(k.v[0]))) {
      e = lower_expr(L, k.v[0]);
    }
    free(k.v);
    return e ? e : lower_children_as(L, c, WL_E_OTHER);
  }
  case CXCursor_CStyleCastExpr:
  case CXCursor_CXXStaticCastExpr:
  case CXCursor_CXXDynamicCastExpr:
  case CXCursor_CXXReinterpretCastExpr:
  case CXCursor_CXXConstCastExpr:
  case CXCursor_CXXFunctionalCastExpr: {
    wl_expr *e = lower_children_as(L, c, WL_E_CAST);
    if (e->nargs > 1) { /* keep only the operand */
      e->args = e->args + (e->nargs - 1);
      e->nargs = 1;
    }
    if (e->nargs == 0)
      e->kind = WL_E_OTHER;
    /* the target type, for casts of pointers whose text is in another file
     * than the one analyzed (a header's `(unsigned int *)(temp + n)`) */
    if (e->type & WL_T_POINTER)
      e->cast_type = lower_take(L, clang_getTypeSpelling(clang_getCursorType(c)));
    eval_int(c, e);
    return e;
  }
  case CXCursor_InitListExpr: return lower_children_as(L, c, WL_E_INITLIST);
  case CXCursor_CXXThisExpr: return new_expr(L, c, WL_E_THIS);
  case CXCursor_UnaryExpr: {
    wl_expr *e = lower_children_as(L, c, WL_E_SIZEOF);
    eval_int(c, e);
    return e;
  }
  case CXCursor_LambdaExpr: {
    wl_expr *e = new_expr(L, c, WL_E_LAMBDA);
    e->lambda = lower_function(L, c, WL_F_LAMBDA);
    return e;
  }
  case CXCursor_UnexposedExpr:
  default: {
    kids k = children(c);
    wl_expr *e = NULL;
    unsigned nexpr = 0, last = 0;
    for (unsigned i = 0; i < k.n; i++)
      if (is_expr_kind(clang_getCursorKind(k.v[i])))
        nexpr++, last = i;
    if (k.n >= 2 && kind == CXCursor_UnexposedExpr)
      e = lower_unresolved(L, c, &k);
    /* an implicit conversion of a call's result (`x & 7u` converting an int
     * returned by __shfl_sync): the call itself, not a call of its own named
     * after the extent's first token */
    if (!e && kind == CXCursor_UnexposedExpr && k.n == 1 &&
        clang_getCursorKind(k.v[0]) == CXCursor_CallExpr &&
        clang_equalRanges(clang_getCursorExtent(k.v[0]), clang_getCursorExtent(c)))
      e = lower_expr(L, k.v[0]);
    if (!e && kind == CXCursor_UnexposedExpr && nexpr == k.n)
      e = lower_undeclared_call(L, c, &k);
    if (!e && nexpr == 1 && k.n == 1 && kind == CXCursor_UnexposedExpr)
      e = lower_expr(L, k.v[last]); /* implicit casts and other wrappers */
    free(k.v);
    return e ? e : lower_children_as(L, c, WL_E_OTHER);
  }
  }
}

/* Lowers an expression unless it lies more than WL_MAX_NESTING levels deep:
 * then it stands for an opaque value and the function is marked too deep. */
static wl_expr *lower_expr(lower_ctx *L, CXCursor c) {
  if (L->depth >= WL_MAX_NESTING) {
    L->too_deep = true;
    return new_expr(L, c, WL_E_OTHER);
  }
  L->depth++;
  wl_expr *e = lower_expr_node(L, c);
  L->depth--;
  return e;
}

/* ------------------------------------------------------------------------ */
/* Statements                                                               */

static wl_stmt *new_stmt(lower_ctx *L, CXCursor c, wl_stmt_kind kind) {
  wl_stmt *s = wl_arena_alloc(A(L), sizeof *s);
  s->kind = kind;
  s->range = mkrange(L, c);
  s->macro = macro_of(L, c);
  return s;
}

/* Source text of the file a location is in (main file only; others: NULL). */
static const char *text_at(lower_ctx *L, CXSourceLocation sl, unsigned *off) {
  CXFile f = NULL;
  clang_getExpansionLocation(sl, &f, NULL, NULL, off);
  if (!f || !clang_File_isEqual(f, L->main_file))
    return NULL;
  return L->main_text;
}

/* Whether the keyword `else` appears between two cursors (for IfStmt). */
static int else_between(lower_ctx *L, CXCursor a, CXCursor b) {
  unsigned ea = 0, sb = 0;
  const char *t = text_at(L, clang_getRangeEnd(clang_getCursorExtent(a)), &ea);
  const char *t2 = text_at(L, clang_getRangeStart(clang_getCursorExtent(b)), &sb);
  if (!t || !t2 || clang_Location_isFromMainFile(clang_getCursorLocation(b)) == 0)
    return -1;
  if (macro_of(L, a) || macro_of(L, b) || sb < ea || sb > L->main_len)
    return -1;
  for (unsigned i = ea; i + 4 <= sb; i++)
    if (memcmp(t + i, "else", 4) == 0 && (i == 0 || !(t[i - 1] == '_' || (t[i - 1] | 32) >= 'a')) &&
        (i + 4 == sb || !((t[i + 4] | 32) >= 'a' && (t[i + 4] | 32) <= 'z') || t[i + 4] == '_'))
      return 1;
  return 0;
}

/* For `for (init; cond; inc) body`: which slot each child fills (0..3). */
static bool for_slots(lower_ctx *L, CXCursor c, kids *k, int *slot) {
  CXSourceRange r = clang_getCursorExtent(c);
  if (macro_of(L, c))
    return false;
  unsigned b = 0, e = 0;
  const char *t = text_at(L, clang_getRangeStart(r), &b);
  if (!t || !text_at(L, clang_getRangeEnd(r), &e) || e > L->main_len)
    return false;
  unsigned i = b, semi[2] = {0, 0}, ns = 0, rparen = 0;
  while (i < e && t[i] != '(')
    i++;
  int depth = 0;
  for (; i < e; i++) {
    char ch = t[i];
    if (ch == '(' || ch == '[' || ch == '{')
      depth++;
    else if (ch == ')' || ch == ']' || ch == '}') {
      if (--depth == 0) {
        rparen = i;
        break;
      }
    } else if (ch == ';' && depth == 1 && ns < 2)
      semi[ns++] = i;
    else if (ch == '"' || ch == '\'') {
      char q = ch;
      for (i++; i < e && t[i] != q; i++)
        if (t[i] == '\\')
          i++;
    }
  }
  if (ns != 2 || !rparen)
    return false;
  for (unsigned j = 0; j < k->n; j++) {
    unsigned off = 0;
    text_at(L, clang_getRangeStart(clang_getCursorExtent(k->v[j])), &off);
    slot[j] = off < semi[0] ? 0 : off < semi[1] ? 1 : off < rparen ? 2 : 3;
  }
  return true;
}

/* Whether a main-file offset lies in a range the preprocessor skipped
 * (#if 0, the inactive side of #ifdef ...): tokenizing an extent sees them. */
static bool in_skipped(lower_ctx *L, CXSourceLocation sl) {
  if (!L->skipped_done) {
    L->skipped = clang_getSkippedRanges(L->ctu, L->main_file);
    L->skipped_done = true;
  }
  if (!L->skipped)
    return false;
  CXFile f = NULL;
  unsigned off = 0;
  clang_getExpansionLocation(sl, &f, NULL, NULL, &off);
  if (!f || !clang_File_isEqual(f, L->main_file))
    return false;
  for (unsigned i = 0; i < L->skipped->count; i++) {
    unsigned b = 0, e = 0;
    clang_getExpansionLocation(clang_getRangeStart(L->skipped->ranges[i]), NULL, NULL, NULL, &b);
    clang_getExpansionLocation(clang_getRangeEnd(L->skipped->ranges[i]), NULL, NULL, NULL, &e);
    if (off >= b && off < e)
      return true;
  }
  return false;
}

/* The tokens to read an asm statement's template from: its extent, or, for
 * a statement that a macro expands (`#define CHECK(c) do { if (!(c))
 * asm("trap;"); } while (0)`), whose extent runs from the spelling in the
 * macro's definition to the expansion (in another file, or past unrelated
 * code), the text of the definition from the spelling on (asm_text stops at
 * the statement's closing parenthesis). */
static CXSourceRange asm_extent(lower_ctx *L, CXCursor c) {
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile ef = NULL, sf = NULL;
  unsigned eo = 0, so = 0;
  clang_getExpansionLocation(clang_getCursorLocation(c), &ef, NULL, NULL, &eo);
  clang_getSpellingLocation(clang_getCursorLocation(c), &sf, NULL, NULL, &so);
  if (!sf || (ef && clang_File_isEqual(ef, sf) && eo == so))
    return r;
  size_t size = 0;
  if (!lower_file_text(L, sf, &size) || so >= size)
    return r;
  unsigned end = size - so > 4096 ? so + 4096 : (unsigned)size;
  return clang_getRange(clang_getLocationForOffset(L->ctu, sf, so),
                        clang_getLocationForOffset(L->ctu, sf, end));
}

static char *asm_text(lower_ctx *L, CXCursor c, wl_stmt *s) {
  CXToken *toks = NULL;
  unsigned n = 0;
  clang_tokenize(L->ctu, asm_extent(L, c), &toks, &n);
  wl_buf b;
  wl_buf_init(&b);
  int depth = 0;
  wl_range pieces[64];
  unsigned starts[64], np = 0;
  for (unsigned i = 0; i < n; i++) {
    CXTokenKind tk = clang_getTokenKind(toks[i]);
    if (in_skipped(L, clang_getTokenLocation(L->ctu, toks[i])))
      continue;
    CXString str = clang_getTokenSpelling(L->ctu, toks[i]);
    const char *sp = clang_getCString(str);
    if (tk == CXToken_Punctuation && sp) {
      if (strcmp(sp, "(") == 0)
        depth++;
      else if (strcmp(sp, ")") == 0 && --depth == 0) {
        clang_disposeString(str);
        break;
      } else if ((strcmp(sp, ":") == 0 || strcmp(sp, "::") == 0) && depth == 1) {
        clang_disposeString(str);
        break;
      }
    } else if (tk == CXToken_Literal && sp && depth == 1) {
      const char *q = strchr(sp, '"');
      if (q) {
        if (np < 64) {
          CXSourceRange tr = clang_getTokenExtent(L->ctu, toks[i]);
          pieces[np].begin = lower_expansion_loc(L, clang_getRangeStart(tr));
          pieces[np].end = lower_expansion_loc(L, clang_getRangeEnd(tr));
          starts[np++] = (unsigned)b.len;
        }
        size_t len = strlen(q);
        if (len >= 2)
          wl_buf_add(&b, q + 1, len - 2);
      }
    }
    clang_disposeString(str);
  }
  clang_disposeTokens(L->ctu, toks, n);
  if (np) {
    s->asm_range = pieces[0];
    s->asm_pieces = wl_arena_alloc(A(L), np * sizeof *s->asm_pieces);
    memcpy(s->asm_pieces, pieces, np * sizeof *pieces);
    s->asm_piece_start = wl_arena_alloc(A(L), np * sizeof *s->asm_piece_start);
    memcpy(s->asm_piece_start, starts, np * sizeof *starts);
    s->nasm_pieces = np;
  }
  char *r = wl_arena_strdup(A(L), wl_buf_str(&b));
  wl_buf_free(&b);
  return r;
}

/* A condition may be a variable declaration (`if (int x = f())`). */
static wl_expr *lower_cond(lower_ctx *L, CXCursor c, wl_stmt **decl_out) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k == CXCursor_VarDecl) {
    wl_var *v = lower_var(L, c, 0);
    wl_stmt *d = new_stmt(L, c, WL_S_DECL);
    d->vars = wl_arena_alloc(A(L), sizeof *d->vars);
    d->vars[0] = v;
    d->nvars = 1;
    if (decl_out && !*decl_out)
      *decl_out = d;
    wl_expr *e = new_expr(L, c, WL_E_REF);
    e->name = v->name;
    e->var = v;
    return e;
  }
  if (k == CXCursor_DeclStmt) {
    if (L->depth >= WL_MAX_NESTING) {
      L->too_deep = true;
      return NULL;
    }
    L->depth++;
    kids kk = children(c);
    wl_expr *e = kk.n ? lower_cond(L, kk.v[kk.n - 1], decl_out) : NULL;
    free(kk.v);
    L->depth--;
    return e;
  }
  return is_expr_kind(k) ? lower_expr(L, c) : NULL;
}

static wl_stmt *wrap_expr_stmt(lower_ctx *L, CXCursor c) {
  wl_stmt *s = new_stmt(L, c, WL_S_EXPR);
  s->expr = lower_expr(L, c);
  return s;
}

static void lower_kids_into(lower_ctx *L, wl_stmt *s, kids *k) {
  wl_stmt **tmp = wl_xmalloc((k->n + 1) * sizeof *tmp);
  unsigned n = 0;
  for (unsigned i = 0; i < k->n; i++) {
    wl_stmt *ks = lower_stmt(L, k->v[i]);
    if (ks)
      tmp[n++] = ks;
  }
  s->kids = (wl_stmt **)wl_arena_dup_ptrs(A(L), (void *const *)tmp, n);
  s->nkids = n;
  free(tmp);
}

static wl_stmt *lower_stmt_node(lower_ctx *L, CXCursor c) {
  enum CXCursorKind kind = clang_getCursorKind(c);
  if (is_expr_kind(kind))
    return wrap_expr_stmt(L, c);
  kids k = children(c);
  wl_stmt *s = NULL;
  switch (kind) {
  case CXCursor_CompoundStmt:
    s = new_stmt(L, c, WL_S_COMPOUND);
    lower_kids_into(L, s, &k);
    break;
  case CXCursor_DeclStmt: {
    s = new_stmt(L, c, WL_S_DECL);
    wl_var **tmp = wl_xmalloc((k.n + 1) * sizeof *tmp);
    unsigned n = 0;
    for (unsigned i = 0; i < k.n; i++)
      if (clang_getCursorKind(k.v[i]) == CXCursor_VarDecl) {
        tmp[n++] = lower_var(L, k.v[i], 0);
      } else if (clang_getCursorKind(k.v[i]) == CXCursor_StaticAssert && !s->assert_cond) {
        /* static_assert(cond, "message"): the condition is its first child */
        kids ak = children(k.v[i]);
        if (ak.n && is_expr_kind(clang_getCursorKind(ak.v[0])))
          s->assert_cond = lower_expr(L, ak.v[0]);
        free(ak.v);
      }
    s->vars = (wl_var **)wl_arena_dup_ptrs(A(L), (void *const *)tmp, n);
    s->nvars = n;
    free(tmp);
    break;
  }
  case CXCursor_IfStmt: {
    s = new_stmt(L, c, WL_S_IF);
    if (k.n < 2)
      break;
    int has_else = k.n >= 3 ? else_between(L, k.v[k.n - 2], k.v[k.n - 1]) : 0;
    if (has_else < 0)
      has_else = k.n == 3 ? 1 : k.n >= 4;
    unsigned then_i = has_else ? k.n - 2 : k.n - 1;
    if (then_i == 0)
      break;
    unsigned cond_i = then_i - 1;
    wl_stmt *decl = NULL;
    if (cond_i > 0)
      s->init = lower_stmt(L, k.v[0]);
    for (unsigned i = (cond_i > 0 ? 1 : 0); i < cond_i; i++)
      (void)lower_cond(L, k.v[i], &decl); /* condition variable before the condition */
    s->expr = lower_cond(L, k.v[cond_i], &decl);
    if (decl && !s->init)
      s->init = decl;
    s->then_s = lower_stmt(L, k.v[then_i]);
    if (has_else)
      s->else_s = lower_stmt(L, k.v[k.n - 1]);
    break;
  }
  case CXCursor_ForStmt: {
    s = new_stmt(L, c, WL_S_FOR);
    int slots[8];
    int *slot = k.n <= 8 ? slots : wl_xmalloc(k.n * sizeof *slot);
    if (!for_slots(L, c, &k, slot)) {
      static const int four[] = {0, 1, 2, 3}, three[] = {1, 2, 3}, two[] = {1, 3}, one[] = {3};
      /* five children or more (a recovered parse) read four's, not past one's end */
      const int *pick = k.n >= 4 ? four : k.n == 3 ? three : k.n == 2 ? two : one;
      for (unsigned i = 0; i < k.n; i++)
        slot[i] = i < 4 ? pick[i] : 3;
    }
    for (unsigned i = 0; i < k.n; i++) {
      switch (slot[i]) {
      case 0: s->init = lower_stmt(L, k.v[i]); break;
      case 1: s->expr = lower_cond(L, k.v[i], &s->init); break;
      case 2:
        s->inc = is_expr_kind(clang_getCursorKind(k.v[i])) ? lower_expr(L, k.v[i]) : NULL;
        break;
      default: s->then_s = lower_stmt(L, k.v[i]); break;
      }
    }
    if (slot != slots)
      free(slot);
    break;
  }
  case CXCursor_CXXForRangeStmt: {
    s = new_stmt(L, c, WL_S_RANGE_FOR);
    for (unsigned i = 0; i < k.n; i++) {
      enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
      if (ck == CXCursor_VarDecl && !s->vars) {
        s->vars = wl_arena_alloc(A(L), sizeof *s->vars);
        s->vars[0] = lower_var(L, k.v[i], 0);
        s->nvars = 1;
      } else if (is_expr_kind(ck) && !s->expr) {
        s->expr = lower_expr(L, k.v[i]);
      } else if (i == k.n - 1) {
        s->then_s = lower_stmt(L, k.v[i]);
      }
    }
    break;
  }
  case CXCursor_WhileStmt:
  case CXCursor_SwitchStmt: {
    s = new_stmt(L, c, kind == CXCursor_WhileStmt ? WL_S_WHILE : WL_S_SWITCH);
    if (k.n < 2)
      break;
    for (unsigned i = 0; i + 2 < k.n; i++) {
      wl_stmt *d = NULL;
      if (clang_getCursorKind(k.v[i]) == CXCursor_VarDecl)
        (void)lower_cond(L, k.v[i], &d);
      else
        d = lower_stmt(L, k.v[i]);
      if (d && !s->init)
        s->init = d;
    }
    s->expr = lower_cond(L, k.v[k.n - 2], &s->init);
    s->then_s = lower_stmt(L, k.v[k.n - 1]);
    break;
  }
  case CXCursor_DoStmt:
    s = new_stmt(L, c, WL_S_DO);
    if (k.n == 2) {
      s->then_s = lower_stmt(L, k.v[0]);
      s->expr = lower_cond(L, k.v[1], NULL);
    }
    break;
  case CXCursor_CaseStmt:
    s = new_stmt(L, c, WL_S_CASE);
    if (k.n >= 2) {
      s->expr = lower_cond(L, k.v[0], NULL);
      s->then_s = lower_stmt(L, k.v[k.n - 1]);
    }
    break;
  case CXCursor_DefaultStmt:
    s = new_stmt(L, c, WL_S_DEFAULT);
    if (k.n >= 1)
      s->then_s = lower_stmt(L, k.v[k.n - 1]);
    break;
  case CXCursor_LabelStmt:
    s = new_stmt(L, c, WL_S_LABEL);
    s->name = lower_take(L, clang_getCursorSpelling(c));
    if (k.n >= 1)
      s->then_s = lower_stmt(L, k.v[k.n - 1]);
    break;
  case CXCursor_GotoStmt:
    s = new_stmt(L, c, WL_S_GOTO);
    if (k.n >= 1)
      s->name = lower_take(L, clang_getCursorSpelling(k.v[0]));
    break;
  case CXCursor_BreakStmt: s = new_stmt(L, c, WL_S_BREAK); break;
  case CXCursor_ContinueStmt: s = new_stmt(L, c, WL_S_CONTINUE); break;
  case CXCursor_ReturnStmt:
    s = new_stmt(L, c, WL_S_RETURN);
    if (k.n >= 1 && is_expr_kind(clang_getCursorKind(k.v[0])))
      s->expr = lower_expr(L, k.v[0]);
    break;
  case CXCursor_NullStmt: s = new_stmt(L, c, WL_S_NULL); break;
  case CXCursor_GCCAsmStmt:
  case CXCursor_MSAsmStmt:
    s = new_stmt(L, c, WL_S_ASM);
    s->asm_text = asm_text(L, c, s);
    /* operands are expressions: keep them as children for the analyses */
    {
      wl_stmt **tmp = wl_xmalloc((k.n + 1) * sizeof *tmp);
      unsigned n = 0;
      for (unsigned i = 0; i < k.n; i++)
        if (is_expr_kind(clang_getCursorKind(k.v[i])))
          tmp[n++] = wrap_expr_stmt(L, k.v[i]);
      s->kids = (wl_stmt **)wl_arena_dup_ptrs(A(L), (void *const *)tmp, n);
      s->nkids = n;
      free(tmp);
    }
    break;
  case CXCursor_VarDecl: {
    s = new_stmt(L, c, WL_S_DECL);
    s->vars = wl_arena_alloc(A(L), sizeof *s->vars);
    s->vars[0] = lower_var(L, c, 0);
    s->nvars = 1;
    break;
  }
  default:
    if (clang_isDeclaration(kind) || clang_isAttribute(kind) || clang_isReference(kind))
      break; /* local classes, typedefs, using-declarations: nothing to lower */
    s = new_stmt(L, c, WL_S_OTHER); /* try/catch and friends: keep the statements inside */
    lower_kids_into(L, s, &k);
    break;
  }
  free(k.v);
  return s;
}

static wl_stmt *lower_stmt(lower_ctx *L, CXCursor c) {
  if (L->depth >= WL_MAX_NESTING) {
    L->too_deep = true;
    return new_stmt(L, c, WL_S_NULL);
  }
  L->depth++;
  wl_stmt *s = lower_stmt_node(L, c);
  L->depth--;
  return s;
}

/* ------------------------------------------------------------------------ */
/* Functions and the translation unit                                       */

static wl_func *lower_function(lower_ctx *L, CXCursor c, unsigned extra) {
  wl_func *f = wl_arena_alloc(A(L), sizeof *f);
  f->name = lower_take(L, clang_getCursorSpelling(c));
  f->usr = lower_take(L, clang_getCursorUSR(c));
  f->loc = lower_expansion_loc(L, clang_getCursorLocation(c));
  f->range = mkrange(L, c);
  f->flags = extra;
  f->ret_type = type_flags(clang_getCursorResultType(c));
  if (clang_getCursorKind(c) == CXCursor_CXXMethod && clang_CXXMethod_isStatic(c))
    f->flags |= WL_F_STATIC;
  {
    CXFile ff = NULL;
    CXSourceLocation cl = clang_getCursorLocation(c);
    clang_getExpansionLocation(cl, &ff, NULL, NULL, NULL);
    if (ff)
      file_info_at(L, ff, cl)->has_code = true;
  }
  {
    /* an instantiation: the template code it comes from (a member template
     * of a class template specialization comes from the class template's) */
    CXCursor t = clang_getSpecializedCursorTemplate(c), last = clang_getNullCursor();
    for (unsigned i = 0; i < 4 && !clang_Cursor_isNull(t); i++) {
      last = t;
      t = clang_getSpecializedCursorTemplate(t);
    }
    if (!clang_Cursor_isNull(last))
      f->pattern_usr = lower_take(L, clang_getCursorUSR(last));
  }
  f->parent = L->cur_func;
  if (L->cur_func && (extra & WL_F_LAMBDA))
    f->flags |= L->cur_func->flags & (WL_F_DEVICE | WL_F_GLOBAL | WL_F_HOST | WL_F_TEMPLATE);
  kids k = children(c);
  wl_var **params = wl_xmalloc((k.n + 1) * sizeof *params);
  unsigned np = 0;
  CXCursor body = clang_getNullCursor();
  for (unsigned i = 0; i < k.n; i++) {
    enum CXCursorKind ck = clang_getCursorKind(k.v[i]);
    if (ck == CXCursor_CUDAGlobalAttr)
      f->flags |= WL_F_GLOBAL;
    else if (ck == CXCursor_CUDADeviceAttr)
      f->flags |= WL_F_DEVICE;
    else if (ck == CXCursor_CUDAHostAttr)
      f->flags |= WL_F_HOST;
    else if (ck == CXCursor_TemplateTypeParameter || ck == CXCursor_NonTypeTemplateParameter ||
             ck == CXCursor_TemplateTemplateParameter) {
      const char **t = wl_arena_alloc(A(L), (f->ntparams + 1) * sizeof *t);
      wl_expr **d = wl_arena_alloc(A(L), (f->ntparams + 1) * sizeof *d);
      if (f->ntparams) {
        memcpy(t, f->tparams, f->ntparams * sizeof *t);
        memcpy(d, f->tparam_defaults, f->ntparams * sizeof *d);
      }
      d[f->ntparams] = NULL;
      if (ck == CXCursor_NonTypeTemplateParameter) { /* its default argument, the last child */
        kids dk = children(k.v[i]);
        if (dk.n && is_expr_kind(clang_getCursorKind(dk.v[dk.n - 1])))
          d[f->ntparams] = lower_expr(L, dk.v[dk.n - 1]);
        free(dk.v);
      }
      t[f->ntparams++] = lower_take(L, clang_getCursorSpelling(k.v[i]));
      f->tparams = t;
      f->tparam_defaults = d;
    } else if (ck == CXCursor_ParmDecl) {
      wl_var *v = lower_var(L, k.v[i], WL_V_PARAM);
      v->param_index = (int)np;
      params[np++] = v;
    } else if (ck == CXCursor_CompoundStmt)
      body = k.v[i];
  }
  if (clang_getCursorKind(c) == CXCursor_Constructor) {
    /* the member initializers: a MemberRef, then its initializer */
    wl_func *saved = L->cur_func;
    L->cur_func = f;
    const char **names = wl_xmalloc((k.n + 1) * sizeof *names);
    wl_expr **inits = wl_xmalloc((k.n + 1) * sizeof *inits);
    unsigned ni = 0;
    for (unsigned i = 0; i + 1 < k.n; i++)
      if (clang_getCursorKind(k.v[i]) == CXCursor_MemberRef &&
          is_expr_kind(clang_getCursorKind(k.v[i + 1]))) {
        names[ni] = lower_take(L, clang_getCursorSpelling(k.v[i]));
        inits[ni++] = lower_expr(L, k.v[i + 1]);
      }
    f->minit_names = (const char **)wl_arena_dup_ptrs(A(L), (void *const *)names, ni);
    f->minit_exprs = (wl_expr **)wl_arena_dup_ptrs(A(L), (void *const *)inits, ni);
    f->nminits = ni;
    free(names);
    free(inits);
    L->cur_func = saved;
  }
  if (!(f->flags & (WL_F_GLOBAL | WL_F_DEVICE)))
    f->flags |= WL_F_HOST;
  f->params = (wl_var **)wl_arena_dup_ptrs(A(L), (void *const *)params, np);
  f->nparams = np;
  free(params);
  free(k.v);
  wl_vec_push(&L->funcs, f);
  if (!clang_Cursor_isNull(body)) {
    wl_func *saved = L->cur_func;
    bool saved_deep = L->too_deep;
    L->cur_func = f;
    L->too_deep = false;
    f->body = lower_stmt(L, body);
    if (L->too_deep) {
      /* left out: no analysis sees it, calls of it are calls of an unknown function */
      f->body = NULL;
      for (size_t i = L->funcs.n; i-- > 0;)
        if (L->funcs.v[i] == f) {
          memmove(&L->funcs.v[i], &L->funcs.v[i + 1], (L->funcs.n - i - 1) * sizeof *L->funcs.v);
          L->funcs.n--;
          break;
        }
      add_notice(L, f->loc, "function", f->name && *f->name ? f->name : "(lambda)");
    }
    L->too_deep = saved_deep;
    L->cur_func = saved;
  }
  return f;
}

void lower_unit_now(lower_ctx *L, const lower_unit *u) {
  unsigned depth = L->depth, seq = L->seq;
  L->depth = u->depth;
  L->seq = u->seq;
  (void)lower_function(L, u->c, u->extra);
  L->depth = depth;
  L->seq = seq;
}

static bool user_code(lower_ctx *L, CXCursor c) {
  CXSourceLocation sl = clang_getCursorLocation(c);
  if (clang_Location_isInSystemHeader(sl))
    return false;
  CXFile f = NULL;
  clang_getExpansionLocation(sl, &f, NULL, NULL, NULL);
  return f && !file_info_at(L, f, sl)->prelude;
}

static bool has_body(CXCursor c) {
  kids k = children(c);
  bool b = false;
  for (unsigned i = 0; i < k.n && !b; i++)
    b = clang_getCursorKind(k.v[i]) == CXCursor_CompoundStmt;
  free(k.v);
  return b;
}

/* Whether the header that defines the macro of expansion c is a system
 * header, into L->system_names: the macro's body is spelled there, and
 * file_info_at asks it without a location in that file (spelling_loc),
 * which for a header of the precompiled header costs clang a load of all
 * its source-location entries (a third of a small file's run with the
 * toolkit: NULL, __shared__). The definition's location lies in the header:
 * asked there, it costs nothing. Once per header (L->seeded). */
static void seed_system_name(lower_ctx *L, CXCursor expansion) {
  if (!L->system_names)
    return;
  CXCursor def = clang_getCursorReferenced(expansion);
  if (clang_getCursorKind(def) != CXCursor_MacroDefinition)
    return;
  CXSourceLocation at = clang_getCursorLocation(def);
  CXFile df = NULL;
  clang_getSpellingLocation(at, &df, NULL, NULL, NULL);
  if (!df || wl_hmap_get(&L->seeded, df) || wl_hmap_get(&L->file_index, df))
    return;
  wl_hmap_put(&L->seeded, df, df, false);
  CXString s = clang_getFileName(df);
  const char *name = clang_getCString(s);
  if (name && *name)
    lower_note_system(L->system_names, name, clang_Location_isInSystemHeader(at) != 0);
  clang_disposeString(s);
}

enum CXChildVisitResult lower_macro_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  (void)parent;
  lower_ctx *L = d;
  if (clang_getCursorKind(c) != CXCursor_MacroExpansion)
    return CXChildVisit_Continue;
  CXSourceRange r = clang_getCursorExtent(c);
  CXFile f = NULL;
  unsigned b = 0, e = 0;
  CXSourceLocation start = clang_getRangeStart(r);
  clang_getExpansionLocation(start, &f, NULL, NULL, &b);
  clang_getExpansionLocation(clang_getRangeEnd(r), NULL, NULL, NULL, &e);
  if (!f)
    return CXChildVisit_Continue;
  const file_name *fn = file_info_at(L, f, start);
  if (fn->prelude || fn->system)
    return CXChildVisit_Continue;
  seed_system_name(L, c);
  if (L->nmacros == L->capmacros) {
    L->capmacros = L->capmacros ? L->capmacros * 2 : 64;
    L->macros = wl_xrealloc(L->macros, L->capmacros * sizeof *L->macros);
  }
  macro_exp *m = &L->macros[L->nmacros++];
  m->file = fn->name;
  m->begin = b;
  m->end = e > b ? e : b + 1;
  m->name = lower_take(L, clang_getCursorSpelling(c));
  return CXChildVisit_Continue;
}

static void lower_decl(lower_ctx *L, CXCursor c, unsigned tmpl) {
  enum CXCursorKind k = clang_getCursorKind(c);
  L->seq++;
  switch (k) {
  case CXCursor_FunctionDecl:
  case CXCursor_CXXMethod:
  case CXCursor_Constructor:
  case CXCursor_Destructor:
  case CXCursor_ConversionFunction:
  case CXCursor_FunctionTemplate:
    if (k == CXCursor_FunctionDecl) { /* template void f<16>(int *); */
      CXCursor t = clang_getSpecializedCursorTemplate(c);
      if (!clang_Cursor_isNull(t))
        inst_note_instantiation(L, c, t);
    }
    if (user_code(L, c) && has_body(c)) {
      unsigned extra =
          tmpl | (k == CXCursor_FunctionTemplate ? WL_F_TEMPLATE : 0) |
          (k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate ? 0 : WL_F_METHOD);
      if (L->collect) {
        lower_unit *u = wl_xmalloc(sizeof *u);
        *u = (lower_unit){c, extra, L->depth, L->seq};
        wl_vec_push(&L->units, u);
      } else {
        lower_function(L, c, extra);
      }
    } else if (k != CXCursor_FunctionDecl && k != CXCursor_FunctionTemplate &&
               !L->wants_instances) {
      /* a member of a class template specialization (one host code names:
       * a functor library code calls) whose body clang left for the end
       * of the unit */
      CXCursor t = clang_getSpecializedCursorTemplate(c);
      if (!clang_Cursor_isNull(t) && uninstantiated_spec(L, c, t))
        L->wants_instances = true;
    }
    return;
  case CXCursor_VarDecl:
    if (user_code(L, c))
      (void)lower_var(L, c, 0);
    return;
  case CXCursor_Namespace:
  case CXCursor_LinkageSpec:
  case CXCursor_UnexposedDecl: lower_decls(L, c, tmpl); return;
  case CXCursor_StructDecl:
  case CXCursor_ClassDecl:
  case CXCursor_UnionDecl:
    if (user_code(L, c))
      lower_decls(L, c, tmpl);
    return;
  case CXCursor_ClassTemplate:
  case CXCursor_ClassTemplatePartialSpecialization:
    if (user_code(L, c))
      lower_decls(L, c, WL_F_TEMPLATE);
    return;
  default: return;
  }
}

/* The index hides a precompiled header's declarations (clang_createIndex(1,
 * ...)); it then lists the translation unit's own top-level declarations as
 * the parser saw them, which adds the specializations that explicit
 * instantiations name (template void k<float>(float *);), at the template's
 * location. The unit's declaration list, which the lowering was built on, has
 * no such entries: they are skipped. */
static bool instantiation_entry(CXCursor c) {
  enum CXCursorKind k = clang_getCursorKind(c);
  if (k != CXCursor_FunctionDecl && k != CXCursor_StructDecl && k != CXCursor_ClassDecl &&
      k != CXCursor_UnionDecl)
    return false;
  CXCursor t = clang_getSpecializedCursorTemplate(c);
  if (clang_Cursor_isNull(t))
    return false;
  return clang_equalLocations(clang_getCursorLocation(c), clang_getCursorLocation(t)) != 0;
}

static enum CXChildVisitResult decl_visitor(CXCursor c, CXCursor parent, CXClientData d) {
  if (clang_getCursorKind(parent) == CXCursor_TranslationUnit && instantiation_entry(c))
    return CXChildVisit_Continue;
  lower_ctx *L = ((void **)d)[0];
  unsigned tmpl = *(unsigned *)((void **)d)[1];
  lower_decl(L, c, tmpl);
  return CXChildVisit_Continue;
}

void lower_decls(lower_ctx *L, CXCursor parent, unsigned tmpl) {
  if (L->depth >= WL_MAX_NESTING) { /* namespaces and classes nested that deep */
    add_notice(L, lower_expansion_loc(L, clang_getCursorLocation(parent)), "the declarations in",
               lower_take(L, clang_getCursorSpelling(parent)));
    return;
  }
  void *d[2] = {L, &tmpl};
  L->depth++;
  clang_visitChildren(parent, decl_visitor, d);
  L->depth--;
}

int lower_cmp_macro(const void *a, const void *b) {
  const macro_exp *x = a, *y = b;
  return cmp_macro_key(x->file, x->begin, y->file, y->begin);
}

int lower_cmp_func(const void *a, const void *b) {
  const wl_func *x = *(wl_func *const *)a, *y = *(wl_func *const *)b;
  if (x->loc.file != y->loc.file) {
    int c = strcmp(x->loc.file ? x->loc.file : "", y->loc.file ? y->loc.file : "");
    if (c)
      return c;
  }
  return x->loc.offset < y->loc.offset ? -1 : x->loc.offset > y->loc.offset;
}

typedef struct usr_slot {
  wl_func *f;
  size_t order; /* index in L->funcs */
} usr_slot;

static int cmp_usr_slot(const void *a, const void *b) {
  const usr_slot *x = a, *y = b;
  int c = strcmp(x->f->usr, y->f->usr);
  return c ? c : x->order < y->order ? -1 : x->order > y->order;
}

/* The first slot of by_usr (sorted by USR) whose USR is not below usr. */
static size_t usr_lower_bound(const usr_slot *by_usr, size_t n, const char *usr) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(by_usr[mid].f->usr, usr) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The member of a class template a dependent qualifier names
 * (lower_dependent_member): the first function of the class (its USR the
 * class's followed by @F@ or @FT@) with the call's name that takes that many
 * arguments; NULL when none. */
static wl_func *class_member(const usr_slot *by_usr, size_t n, const wl_expr *e) {
  const char *cu = e->callee_class_usr;
  size_t len = strlen(cu);
  size_t lo = usr_lower_bound(by_usr, n, cu);
  wl_func *best = NULL;
  size_t order = 0;
  for (size_t i = lo; i < n && strncmp(by_usr[i].f->usr, cu, len) == 0; i++) {
    wl_func *f = by_usr[i].f;
    if ((strncmp(f->usr + len, "@F@", 3) != 0 && strncmp(f->usr + len, "@FT@", 4) != 0) ||
        !f->name || strcmp(f->name, e->name) != 0 || f->nparams < e->nargs)
      continue;
    unsigned required = 0;
    for (unsigned k = 0; k < f->nparams; k++)
      required += f->params[k]->init == NULL;
    if (required <= e->nargs && (!best || by_usr[i].order < order)) {
      best = f;
      order = by_usr[i].order;
    }
  }
  return best;
}

/* Each call gets the first function of L->funcs (source order) with its
 * callee's USR and a body: a sorted index and a binary search per call,
 * where comparing every call with every function was quadratic. */
void lower_link_calls(lower_ctx *L) {
  usr_slot *by_usr = wl_xmalloc((L->funcs.n + 1) * sizeof *by_usr);
  size_t n = 0;
  for (size_t j = 0; j < L->funcs.n; j++) {
    wl_func *f = L->funcs.v[j];
    if (f->usr && f->body)
      by_usr[n++] = (usr_slot){f, j};
  }
  qsort(by_usr, n, sizeof *by_usr, cmp_usr_slot);
  for (size_t i = 0; i < L->calls.n; i++) {
    wl_expr *e = L->calls.v[i];
    /* the instantiation clang made, when its body was lowered (a member of
     * a class template specialization: WarpScan<5>::Iterate<2, 32>::Invoke
     * with its template arguments as numbers), else the template's code */
    const char *keys[2] = {e->callee_spec_usr, e->callee_usr};
    for (unsigned k = 0; k < 2 && !e->callee; k++) {
      const char *usr = keys[k];
      if (!usr || !*usr)
        continue;
      size_t lo = usr_lower_bound(by_usr, n, usr);
      if (lo < n && strcmp(by_usr[lo].f->usr, usr) == 0)
        e->callee = by_usr[lo].f;
    }
    if (!e->callee && e->callee_class_usr && e->name)
      e->callee = class_member(by_usr, n, e);
  }
  free(by_usr);
  wl_count_assignments((wl_func *const *)L->funcs.v, L->funcs.n);
}
