/* ir.c - IR look-ups, traversal and small expression helpers. */
#include "ir.h"

#include <string.h>

wl_func *wl_tu_find_func(const wl_tu *tu, const char *usr) {
  if (!usr)
    return NULL;
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->usr && strcmp(tu->funcs[i]->usr, usr) == 0 && tu->funcs[i]->body)
      return tu->funcs[i];
  return NULL;
}

bool wl_tu_in_main(const wl_tu *tu, wl_loc loc) {
  return loc.file && (loc.file == tu->path || strcmp(loc.file, tu->path) == 0);
}

const wl_tu_file *wl_tu_file_of(const wl_tu *tu, wl_loc loc) {
  if (!loc.file)
    return NULL;
  for (unsigned i = 0; i < tu->nfiles; i++)
    if (loc.file == tu->files[i].name || strcmp(loc.file, tu->files[i].name) == 0)
      return &tu->files[i];
  return NULL;
}

const char *wl_tu_shown_path(const wl_tu *tu, wl_loc loc) {
  if (!loc.file)
    return NULL;
  if (tu->main_path && tu->main_display &&
      (loc.file == tu->main_path || strcmp(loc.file, tu->main_path) == 0))
    return tu->main_display;
  const wl_tu_file *tf = wl_tu_file_of(tu, loc);
  return tf && tf->display ? tf->display : loc.file;
}

void wl_walk_expr(const wl_expr *e, const wl_stmt *in, const wl_visitor *v) {
  if (!e)
    return;
  if (v->expr && !v->expr(e, in, v->ud))
    return;
  if (e->kind == WL_E_CALL && e->callee_expr)
    wl_walk_expr(e->callee_expr, in, v);
  for (unsigned i = 0; i < e->nargs; i++)
    wl_walk_expr(e->args[i], in, v);
  if (e->kind == WL_E_LAMBDA && v->into_lambdas && e->lambda && e->lambda->body)
    wl_walk_stmt(e->lambda->body, v);
}

void wl_walk_stmt(const wl_stmt *s, const wl_visitor *v) {
  if (!s)
    return;
  if (v->stmt && !v->stmt(s, v->ud))
    return;
  wl_walk_stmt(s->init, v);
  for (unsigned i = 0; i < s->nvars; i++)
    if (s->vars[i]->init)
      wl_walk_expr(s->vars[i]->init, s, v);
  wl_walk_expr(s->expr, s, v);
  wl_walk_stmt(s->then_s, v);
  wl_walk_stmt(s->else_s, v);
  wl_walk_expr(s->inc, s, v);
  for (unsigned i = 0; i < s->nkids; i++)
    wl_walk_stmt(s->kids[i], v);
}

const wl_expr *wl_expr_strip(const wl_expr *e) {
  while (e && e->kind == WL_E_CAST && e->nargs == 1)
    e = e->args[0];
  return e;
}

bool wl_expr_is_call(const wl_expr *e, const char *name) {
  e = wl_expr_strip(e);
  return e && e->kind == WL_E_CALL && e->name && strcmp(e->name, name) == 0;
}

bool wl_binop_is_assign(int op) { return op >= WL_B_ASSIGN && op <= WL_B_OR_ASSIGN; }

bool wl_binop_is_compound(int op) { return op > WL_B_ASSIGN && op <= WL_B_OR_ASSIGN; }

const char *wl_binop_spelling(int op) {
  static const char *const s[] = {"?",  "*",  "/",  "%",   "+",   "-",  "<<", ">>", "<", ">",  "<=",
                                  ">=", "==", "!=", "&",   "^",   "|",  "&&", "||", "=", "*=", "/=",
                                  "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|=", ",", ".*"};
  return op >= 0 && (size_t)op < sizeof s / sizeof s[0] ? s[op] : "?";
}

const char *wl_unop_spelling(int op) {
  static const char *const s[] = {"?", "++", "--", "++", "--", "&", "*", "+", "-", "~", "!", "?"};
  return op >= 0 && (size_t)op < sizeof s / sizeof s[0] ? s[op] : "?";
}

const wl_var *wl_assigned_var(const wl_expr *e) {
  const wl_expr *t = NULL;
  if (e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2)
    t = e->args[0];
  else if (e->kind == WL_E_UNARY && e->nargs == 1 &&
           (e->op == WL_U_PREINC || e->op == WL_U_PREDEC || e->op == WL_U_POSTINC ||
            e->op == WL_U_POSTDEC || e->op == WL_U_ADDROF))
    t = e->args[0];
  t = t ? wl_expr_strip(t) : NULL;
  return t && t->kind == WL_E_REF ? t->var : NULL;
}

bool wl_assignments_counted(const wl_var *v) {
  return v && !(v->flags & (WL_V_GLOBAL | WL_V_SHARED | WL_V_EXTERN | WL_V_CONSTANT | WL_V_DEVICE |
                            WL_V_STATIC | WL_V_FIELD));
}

static bool note_assigned(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  const wl_func *f = ud;
  wl_var *v = (wl_var *)wl_assigned_var(e);
  if (!wl_assignments_counted(v))
    return true;
  if (!v->assigned_in) {
    v->assigned_in = f;
    v->nassigned = 1;
  } else if (v->assigned_in == f) {
    v->nassigned++;
  } else {
    v->assigned_many = true;
  }
  return true;
}

void wl_count_assignments(wl_func *const *funcs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    wl_func *f = funcs[i];
    if (f->assigns_counted)
      continue;
    f->assigns_counted = true;
    wl_visitor vis = {NULL, note_assigned, f, false};
    if (f->body)
      wl_walk_stmt(f->body, &vis);
  }
}

/* Each statement's parent, in the order wl_walk_stmt visits them (the first
 * statement found holding one is its parent; a for's init has none), and
 * the function it belongs to (the first whose body holds it). */
static void set_parents(const wl_func *f, wl_stmt *s) {
  if (!s || s->in_func)
    return;
  s->in_func = f;
  if (s->then_s && !s->then_s->parent)
    s->then_s->parent = s;
  if (s->else_s && !s->else_s->parent)
    s->else_s->parent = s;
  for (unsigned i = 0; i < s->nkids; i++)
    if (s->kids[i] && !s->kids[i]->parent)
      s->kids[i]->parent = s;
  set_parents(f, s->init);
  set_parents(f, s->then_s);
  set_parents(f, s->else_s);
  for (unsigned i = 0; i < s->nkids; i++)
    set_parents(f, s->kids[i]);
}

/* One walk of the body per function, at its first question (the rules ask
 * for each race: a walk per question made 2,048 lane-dependent if/else
 * quadratic); the IR is not shared between threads. */
const wl_stmt *wl_stmt_parent(const wl_func *f, const wl_stmt *s) {
  if (!f || !s)
    return NULL;
  if (!f->parents_set) {
    wl_func *mf = (wl_func *)f;
    mf->parents_set = true;
    set_parents(f, mf->body);
  }
  return s->in_func == f ? s->parent : NULL;
}

/* The built-in operator an unresolved `operatorX` call stands for (WL_B_*),
 * or WL_B_NONE. In a template, arithmetic on dependent types becomes such a
 * call when overloads of the operator are visible (CCCL declares many). */
int wl_operator_binop(const char *n) {
  static const struct {
    const char *name;
    int op;
  } ops[] = {{"operator*", WL_B_MUL},          {"operator/", WL_B_DIV},
             {"operator%", WL_B_REM},          {"operator+", WL_B_ADD},
             {"operator-", WL_B_SUB},          {"operator<<", WL_B_SHL},
             {"operator>>", WL_B_SHR},         {"operator<", WL_B_LT},
             {"operator>", WL_B_GT},           {"operator<=", WL_B_LE},
             {"operator>=", WL_B_GE},          {"operator==", WL_B_EQ},
             {"operator!=", WL_B_NE},          {"operator&", WL_B_AND},
             {"operator^", WL_B_XOR},          {"operator|", WL_B_OR},
             {"operator&&", WL_B_LAND},        {"operator||", WL_B_LOR},
             {"operator=", WL_B_ASSIGN},       {"operator*=", WL_B_MUL_ASSIGN},
             {"operator/=", WL_B_DIV_ASSIGN},  {"operator%=", WL_B_REM_ASSIGN},
             {"operator+=", WL_B_ADD_ASSIGN},  {"operator-=", WL_B_SUB_ASSIGN},
             {"operator<<=", WL_B_SHL_ASSIGN}, {"operator>>=", WL_B_SHR_ASSIGN},
             {"operator&=", WL_B_AND_ASSIGN},  {"operator^=", WL_B_XOR_ASSIGN},
             {"operator|=", WL_B_OR_ASSIGN}};
  if (!n || strncmp(n, "operator", 8) != 0)
    return WL_B_NONE;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(n, ops[i].name) == 0)
      return ops[i].op;
  return WL_B_NONE;
}

const char *wl_tparam_member_call(const wl_func *f, const wl_expr *e) {
  const wl_expr *ce = e ? e->callee_expr : NULL;
  if (!e || e->kind != WL_E_CALL || e->nargs || e->callee || !ce || ce->kind != WL_E_REF ||
      ce->var || !ce->name || !f)
    return NULL;
  const char *sep = strstr(ce->name, "::");
  if (!sep || !sep[2])
    return NULL;
  size_t n = (size_t)(sep - ce->name);
  for (unsigned i = 0; i < f->ntparams; i++)
    if (f->tparams[i] && strlen(f->tparams[i]) == n && strncmp(f->tparams[i], ce->name, n) == 0)
      return sep + 2;
  return NULL;
}

/* `GROUP::size()` in f, a static member function of one of f's template
 * type parameters called without arguments (lowered unnamed, with a callee
 * REF named `GROUP::size` and no variable): true, with *scalar telling
 * whether every static member function of that name without parameters
 * that the TU defines (at least one) is declared to return an arithmetic or
 * pointer type that is no enumeration. */
static bool dependent_static_call(const wl_tu *tu, const wl_func *f, const wl_expr *e,
                                  bool *scalar) {
  const char *name = wl_tparam_member_call(f, e);
  if (!name)
    return false;
  unsigned n = 0;
  bool all = true;
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *g = tu->funcs[i];
    if (!g->name || strcmp(g->name, name) != 0 || !(g->flags & WL_F_STATIC) || g->nparams)
      continue;
    n++;
    all = all && (g->ret_type & (WL_T_INTEGER | WL_T_FLOATING | WL_T_POINTER)) &&
          !(g->ret_type & (WL_T_ENUM | WL_T_DEPENDENT | WL_T_INVALID | WL_T_REFERENCE));
  }
  *scalar = n > 0 && all;
  return true;
}

/* An overloaded operator's name: `operator` followed by punctuation only
 * (not a conversion function, `operator new` or a literal operator). */
static bool operator_name(const char *n) {
  if (!n || strncmp(n, "operator", 8) != 0 || !n[8])
    return false;
  for (const char *p = n + 8; *p; p++)
    if (!strchr("+-*/%^&|~!=<>,[]()", *p))
      return false;
  return true;
}

bool wl_operand_scalar(const wl_tu *tu, const wl_func *f, const wl_expr *e) {
  if (!e)
    return false;
  if (!(e->type & (WL_T_DEPENDENT | WL_T_INVALID | WL_T_ENUM)) &&
      (e->type & (WL_T_INTEGER | WL_T_FLOATING | WL_T_POINTER | WL_T_ARRAY)))
    return true;
  bool scalar = false;
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_FLOAT:
  case WL_E_BOOL: return true;
  case WL_E_UNARY:
    return e->nargs == 1 && e->op != WL_U_DEREF && e->op != WL_U_ADDROF && e->op != WL_U_OTHER &&
           wl_operand_scalar(tu, f, e->args[0]);
  case WL_E_BINARY:
    return e->nargs == 2 && e->op != WL_B_PTRMEM &&
           (e->op == WL_B_COMMA || wl_operand_scalar(tu, f, e->args[0])) &&
           wl_operand_scalar(tu, f, e->args[1]);
  case WL_E_COND:
    return e->nargs == 3 && wl_operand_scalar(tu, f, e->args[1]) &&
           wl_operand_scalar(tu, f, e->args[2]);
  case WL_E_CALL:
    if (dependent_static_call(tu, f, e, &scalar))
      return scalar;
    return wl_operator_call_builtin(tu, f, e);
  default: return false;
  }
}

bool wl_operator_call_builtin(const wl_tu *tu, const wl_func *f, const wl_expr *e) {
  if (!e || e->kind != WL_E_CALL || e->callee_is_method || (e->nargs != 1 && e->nargs != 2) ||
      !operator_name(e->name) || strcmp(e->name, "operator()") == 0 ||
      strcmp(e->name, "operator[]") == 0 || strcmp(e->name, "operator->") == 0)
    return false;
  for (unsigned i = 0; i < e->nargs; i++)
    if (!wl_operand_scalar(tu, f, e->args[i]))
      return false;
  return true;
}
