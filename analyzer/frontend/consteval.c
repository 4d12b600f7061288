/* consteval.c - integer constant folding over the IR (see consteval.h). */
#include "consteval.h"

#include <string.h>

/* Converts v to the integer type described by flags/bytes (C conversion rules). */
static long long to_type(long long v, unsigned type, unsigned bytes) {
  if (!(type & WL_T_INTEGER) || bytes == 0 || bytes >= 8)
    return v;
  unsigned bits = bytes * 8;
  unsigned long long m = (1ULL << bits) - 1;
  unsigned long long u = (unsigned long long)v & m;
  if (type & WL_T_UNSIGNED)
    return (long long)u;
  if (u & (1ULL << (bits - 1)))
    u |= ~m;
  return (long long)u;
}

static bool is_unsigned(const wl_expr *e) {
  return (e->type & (WL_T_INTEGER | WL_T_UNSIGNED)) == (WL_T_INTEGER | WL_T_UNSIGNED);
}

static bool fold(const wl_expr *e, wl_const_hook hook, void *ud, long long *out, int depth);

static bool fold_binary(const wl_expr *e, wl_const_hook hook, void *ud, long long *out, int depth) {
  long long a, b;
  int op = e->op;
  if (op == WL_B_LAND || op == WL_B_LOR) {
    if (!fold(e->args[0], hook, ud, &a, depth))
      return false;
    if ((op == WL_B_LAND && !a) || (op == WL_B_LOR && a)) {
      *out = op == WL_B_LOR;
      return true;
    }
    if (!fold(e->args[1], hook, ud, &b, depth))
      return false;
    *out = b != 0;
    return true;
  }
  if (op == WL_B_COMMA)
    return fold(e->args[1], hook, ud, out, depth);
  if (wl_binop_is_assign(op) || op == WL_B_PTRMEM || op == WL_B_NONE)
    return false;
  if (!fold(e->args[0], hook, ud, &a, depth) || !fold(e->args[1], hook, ud, &b, depth))
    return false;
  bool uns = is_unsigned(e->args[0]) || is_unsigned(e->args[1]) || is_unsigned(e);
  unsigned long long ua = (unsigned long long)a, ub = (unsigned long long)b;
  long long r;
  switch (op) {
  case WL_B_MUL: r = (long long)(ua * ub); break;
  case WL_B_ADD: r = (long long)(ua + ub); break;
  case WL_B_SUB: r = (long long)(ua - ub); break;
  case WL_B_DIV:
  case WL_B_REM:
    if (b == 0 || (!uns && b == -1 && a == (long long)(1ULL << 63)))
      return false;
    if (uns)
      r = (long long)(op == WL_B_DIV ? ua / ub : ua % ub);
    else
      r = op == WL_B_DIV ? a / b : a % b;
    break;
  case WL_B_SHL:
    if (b < 0 || b >= 64)
      return false;
    r = (long long)(ua << b);
    break;
  case WL_B_SHR:
    if (b < 0 || b >= 64)
      return false;
    r = is_unsigned(e->args[0]) || a >= 0 ? (long long)(ua >> b) : -(long long)((~ua) >> b) - 1;
    break;
  case WL_B_AND: r = (long long)(ua & ub); break;
  case WL_B_OR: r = (long long)(ua | ub); break;
  case WL_B_XOR: r = (long long)(ua ^ ub); break;
  case WL_B_LT: r = uns ? ua < ub : a < b; break;
  case WL_B_GT: r = uns ? ua > ub : a > b; break;
  case WL_B_LE: r = uns ? ua <= ub : a <= b; break;
  case WL_B_GE: r = uns ? ua >= ub : a >= b; break;
  case WL_B_EQ: r = a == b; break;
  case WL_B_NE: r = a != b; break;
  default: return false;
  }
  *out = to_type(r, e->type, e->bytes);
  return true;
}

static bool fold(const wl_expr *e, wl_const_hook hook, void *ud, long long *out, int depth) {
  if (!e || depth > 64)
    return false;
  depth++;
  if (hook && hook(e, out, ud))
    return true;
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_BOOL:
  case WL_E_SIZEOF:
    if (!e->has_ival)
      return false;
    *out = e->ival;
    return true;
  case WL_E_REF:
    if (e->var && e->var->has_ival) {
      *out = e->var->ival;
      return true;
    }
    /* the built-in warpSize is 32 on every NVIDIA GPU */
    if (e->var && e->name && strcmp(e->name, "warpSize") == 0 && (e->var->flags & WL_V_GLOBAL)) {
      *out = 32;
      return true;
    }
    return false;
  case WL_E_CAST: {
    long long v;
    if (e->nargs == 1 && fold(e->args[0], hook, ud, &v, depth)) {
      *out = to_type(v, e->type, e->bytes);
      return true;
    }
    if (e->has_ival && !hook) {
      *out = e->ival;
      return true;
    }
    return false;
  }
  case WL_E_UNARY: {
    long long v;
    if (e->nargs != 1 || !fold(e->args[0], hook, ud, &v, depth)) {
      if (e->has_ival && !hook && e->op != WL_U_PREINC && e->op != WL_U_PREDEC) {
        *out = e->ival;
        return true;
      }
      return false;
    }
    switch (e->op) {
    case WL_U_PLUS: *out = v; break;
    case WL_U_MINUS: *out = (long long)(0ULL - (unsigned long long)v); break;
    case WL_U_NOT: *out = ~v; break;
    case WL_U_LNOT: *out = !v; break;
    default: return false;
    }
    *out = to_type(*out, e->type, e->bytes);
    return true;
  }
  case WL_E_BINARY:
    if (e->nargs != 2)
      return false;
    return fold_binary(e, hook, ud, out, depth);
  case WL_E_COND: {
    long long c;
    if (e->nargs != 3 || !fold(e->args[0], hook, ud, &c, depth))
      return false;
    return fold(e->args[c ? 1 : 2], hook, ud, out, depth);
  }
  case WL_E_OTHER:
    /* a wrapper clang kept (e.g. a parenthesized or materialized value) */
    if (e->nargs == 1)
      return fold(e->args[0], hook, ud, out, depth);
    if (e->has_ival) {
      *out = e->ival;
      return true;
    }
    return false;
  default: return false;
  }
}

bool wl_consteval_ex(const wl_expr *e, wl_const_hook hook, void *ud, long long *out) {
  long long v = 0;
  if (!fold(e, hook, ud, &v, 0))
    return false;
  *out = v;
  return true;
}

bool wl_consteval(const wl_expr *e, long long *out) { return wl_consteval_ex(e, NULL, NULL, out); }

bool wl_consteval_mask(const wl_expr *e, unsigned *mask) {
  long long v;
  if (!wl_consteval(e, &v))
    return false;
  *mask = (unsigned)((unsigned long long)v & 0xffffffffULL);
  return true;
}

bool wl_consteval_is_full_mask(const wl_expr *e) {
  unsigned m;
  return wl_consteval_mask(e, &m) && m == WL_FULL_MASK;
}
