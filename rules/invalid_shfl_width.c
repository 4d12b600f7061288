/* invalid_shfl_width.c - rule invalid-shfl-width: the width argument of a
 * warp shuffle folds to a constant other than 1, 2, 4, 8, 16 or 32 (the
 * Programming Guide: results are undefined). A width that is a parameter of
 * a device function is checked at each call that passes a constant; a width
 * given by a template argument in every instantiation the file shows (an
 * explicit instantiation, a call or launch naming the arguments). */
#include <stdio.h>
#include <string.h>

#include "analyses.h"
#include "consteval.h"
#include "lanes.h"
#include "rules.h"
#include "wording.h"

static bool valid_width(long long w) {
  return w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32;
}

static void report(wl_rule_ctx *ctx, const wl_expr *at, const wl_expr *shfl, long long w) {
  const wl_macro_info *m;
  wl_range r = wl_wording_site(ctx->tu, at, &m);
  wl_finding *fd = wl_report_range(
      ctx, r, m,
      "width %lld of '%s' is not a power of two from 1 to 32, so its results are undefined (the "
      "intrinsic turns width into the lane mask (32 - width) << 8 of PTX shfl, which does not "
      "make %lld-lane segments); use 1, 2, 4, 8, 16 or 32 and pad each segment to that size",
      w, shfl->name, w);
  if (at != shfl)
    wl_note_at(ctx, fd, shfl->loc, "'%s' uses the width here", shfl->name);
}

typedef struct tinst_bind {
  const wl_func *f;
  const wl_tinst *ti;
} tinst_bind;

/* A non-type template parameter of f takes the instantiation's value. */
static bool tparam_value(const wl_expr *e, long long *out, void *ud) {
  const tinst_bind *b = ud;
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_REF || e->var || !e->name)
    return false;
  for (unsigned i = 0; i < b->f->ntparams; i++)
    if (b->ti->known[i] && b->f->tparams[i] && strcmp(b->f->tparams[i], e->name) == 0) {
      *out = b->ti->vals[i];
      return true;
    }
  return false;
}

/* "<12>" or "<T, 12>": the instantiation's arguments, '?' where not an integer. */
static void tinst_text(const wl_func *f, const wl_tinst *ti, char *buf, size_t size) {
  size_t o = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < f->ntparams && o + 24 < size; i++) {
    int k = ti->known[i] ? snprintf(buf + o, size - o, "%s%s = %lld", i ? ", " : "",
                                    f->tparams[i] ? f->tparams[i] : "?", ti->vals[i])
                         : 0;
    o += k > 0 ? (size_t)k : 0;
  }
}

static void check_instantiations(wl_rule_ctx *ctx, const wl_func *f, const wl_expr *call,
                                 const wl_expr *w) {
  long long seen[WL_MAX_TINSTS];
  unsigned nseen = 0;
  for (unsigned t = 0; f && t < f->ntinsts; t++) {
    tinst_bind b = {f, &f->tinsts[t]};
    long long v;
    if (!wl_consteval_ex(w, tparam_value, &b, &v) || valid_width(v))
      continue;
    bool dup = false;
    for (unsigned k = 0; k < nseen && !dup; k++)
      dup = seen[k] == v;
    if (dup || nseen >= WL_MAX_TINSTS)
      continue;
    seen[nseen++] = v;
    char args[160];
    tinst_text(f, &f->tinsts[t], args, sizeof args);
    const wl_macro_info *m;
    wl_range r = wl_wording_site(ctx->tu, call, &m);
    wl_report_range(ctx, r, m,
                    "width %lld of '%s' in the instantiation of '%s' with %s is not a power of "
                    "two from 1 to 32, so its results are undefined (PTX shfl does not make "
                    "%lld-lane segments); instantiate it with 1, 2, 4, 8, 16 or 32 and pad each "
                    "segment to that size",
                    v, call->name, f->name ? f->name : "?", args, v);
  }
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
    if (f && f->ntinsts) /* a template argument: each instantiation in sight */
      check_instantiations(ctx, f, cs[i], w);
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
