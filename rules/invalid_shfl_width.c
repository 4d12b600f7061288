/* invalid_shfl_width.c - rule invalid-shfl-width: the width argument of a
 * warp shuffle folds to a constant other than 1, 2, 4, 8, 16 or 32 (the
 * Programming Guide: results are undefined). A width that is a parameter of
 * a device function is checked at each call that passes a constant. */
#include "analyses.h"
#include "consteval.h"
#include "lanes.h"
#include "rules.h"

#define RULE "invalid-shfl-width"

static bool valid_width(long long w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32;
}

static void report(wl_rule_ctx *ctx, const wl_expr *at, const wl_expr *shfl, long long w) {
  const wl_macro_info *m;
  wl_range r = wl_lanes_site(ctx->tu, at, &m);
  wl_finding *fd = wl_report_range(
      ctx, RULE, r, m,
      "width %lld of '%s' is not a power of two from 1 to 32, so its results are undefined (the "
      "intrinsic turns width into the lane mask (32 - width) << 8 of PTX shfl, which does not "
      "make %lld-lane segments); use 1, 2, 4, 8, 16 or 32 and pad each segment to that size",
      w, shfl->name, w);
  if (at != shfl)
    wl_note_at(ctx, fd, shfl->loc, "'%s' uses the width here", shfl->name);
}

void wl_rule_invalid_shfl_width(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  for (size_t i = 0; i < n; i++) {
    const wl_expr *w = wl_collective_width(cs[i]);
    long long v;
    if (!w)
      continue;
    if (wl_consteval(w, &v)) {
      if (!valid_width(v))
        report(ctx, cs[i], cs[i], v);
      continue;
    }
    /* a width parameter: check what the calls pass */
    const wl_expr *p = wl_expr_strip(w);
    const wl_func *f = wl_lanes_func_of_expr(l, cs[i]);
    if (!f || p->kind != WL_E_REF || !p->var || !(p->var->flags & WL_V_PARAM) ||
        p->var->param_index < 0 || (unsigned)p->var->param_index >= f->nparams ||
        f->params[p->var->param_index] != p->var)
      continue;
    const wl_expr *const *calls;
    size_t nc = wl_lanes_calls_of(l, f, &calls);
    for (size_t k = 0; k < nc; k++) {
      const wl_expr *a = wl_lanes_call_arg(l, calls[k], (unsigned)p->var->param_index);
      if (a && wl_consteval(a, &v) && !valid_width(v))
        report(ctx, calls[k], cs[i], v);
    }
  }
}
