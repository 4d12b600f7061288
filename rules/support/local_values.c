/* local_values.c - following single-assignment locals to their initializers
 * (local_values.h). */
#include "local_values.h"

#include <stddef.h>
#include <string.h>

#include "builtins.h"
#include "consteval.h"

typedef struct assign_search {
  const wl_var *v;
  const wl_expr *skip;
  unsigned n;
} assign_search;

static bool count_assign(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  assign_search *as = ud;
  if (e == as->skip)
    return false;
  if (as->v && wl_assigned_var(e) == as->v)
    as->n++;
  return true;
}

unsigned wl_local_assignments(const wl_func *f, const wl_var *v, const wl_expr *skip) {
  /* counted once per function when the IR was built (a walk of the body for
   * each question made a function of 4,096 branches take 17 s) */
  if (!skip && f && f->assigns_counted && wl_assignments_counted(v) && !v->assigned_many)
    return v->assigned_in == f ? v->nassigned : 0;
  assign_search as = {v, skip, 0};
  wl_visitor vis = {NULL, count_assign, &as, false};
  if (f && f->body)
    wl_walk_stmt(f->body, &vis);
  return as.n;
}

bool wl_is_plain_local(const wl_var *v) {
  return v &&
         !(v->flags & (WL_V_PARAM | WL_V_GLOBAL | WL_V_SHARED | WL_V_EXTERN | WL_V_CONSTANT |
                       WL_V_DEVICE | WL_V_STATIC | WL_V_FIELD)) &&
         !(v->type & (WL_T_REFERENCE | WL_T_POINTER | WL_T_ARRAY));
}

const wl_expr *wl_local_resolve(const wl_func *f, const wl_expr *e) {
  for (int depth = 0; e && depth < 8; depth++) {
    e = wl_expr_strip(e);
    if (!e || e->kind != WL_E_REF || !wl_is_plain_local(e->var) || !e->var->init || !f ||
        wl_local_assignments(f, e->var, NULL) != 0)
      return e;
    e = e->var->init;
  }
  return e ? wl_expr_strip(e) : e;
}

/* Whether two expressions denote the same mask value: the same local, the
 * same node after following single-assignment locals, or the same pure text. */
bool wl_same_value(const wl_rule_ctx *ctx, const wl_func *f, const wl_expr *a, const wl_expr *b) {
  const wl_expr *sa = wl_expr_strip(a), *sb = wl_expr_strip(b);
  if (!sa || !sb)
    return false;
  if (sa->kind == WL_E_REF && sb->kind == WL_E_REF && sa->var && sa->var == sb->var)
    return (wl_is_plain_local(sa->var) || (sa->var->flags & WL_V_PARAM)) &&
           wl_local_assignments(f, sa->var, NULL) == 0;
  const wl_expr *ra = wl_local_resolve(f, sa), *rb = wl_local_resolve(f, sb);
  if (ra == rb)
    return true;
  if (!wl_builtin_pure_expr(ra) || !wl_builtin_pure_expr(rb))
    return false;
  const char *ta = wl_source_text(ctx, ra->range), *tb = wl_source_text(ctx, rb->range);
  return ta && tb && strcmp(ta, tb) == 0 && !strstr(ta, "__activemask");
}

/* srcLane = __ffs(mask) - 1 (lowest lane) or 31 - __clz(mask) (highest). */
wl_leader_kind wl_mask_leader(const wl_rule_ctx *ctx, const wl_func *f, const wl_expr *src,
                              const wl_expr *mask) {
  const wl_expr *e = wl_local_resolve(f, src);
  long long c;
  if (!e || e->kind != WL_E_BINARY || e->nargs != 2 || e->op != WL_B_SUB)
    return WL_LEAD_NONE;
  const wl_expr *a = wl_expr_strip(e->args[0]), *b = wl_expr_strip(e->args[1]);
  if (wl_expr_is_call(a, "__ffs") && a->nargs == 1 && wl_consteval(b, &c) && c == 1 &&
      wl_same_value(ctx, f, a->args[0], mask))
    return WL_LEAD_LOW;
  if (wl_consteval(a, &c) && c == 31 && wl_expr_is_call(b, "__clz") && b->nargs == 1 &&
      wl_same_value(ctx, f, b->args[0], mask))
    return WL_LEAD_HIGH;
  return WL_LEAD_NONE;
}
