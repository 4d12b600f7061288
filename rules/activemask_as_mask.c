/* activemask_as_mask.c - rule activemask-as-mask: a warp collective whose mask
 * derives from __activemask() (directly, through variables, or through a
 * parameter of a device function) runs in lane-divergent code (Listing 5).
 * Reported at the collective; when the collective itself is reached by the
 * whole warp of its function but the __activemask() value was taken in
 * divergent code of a caller, at the call that passes the value down. A
 * helper that takes __activemask() itself and is called from divergent code
 * is reported at its collective, with a note at the divergent call; so are
 * reductions, scans and shifts of a cg::coalesced_threads() group made in
 * such code. Opportunistic use whose result does not depend on which lanes
 * are there (a broadcast from the leader __ffs(mask) - 1, or from rank 0 of a
 * coalesced group) is not reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"
#include "builtins.h"
#include "lanes.h"
#include "local_values.h"
#include "mask_fix.h"
#include "rules.h"
#include "wording.h"

#define FIX                                                                                        \
  "compute the mask before the branch with __ballot_sync(FULL_MASK, cond) (a shuffle under it "    \
  "must read only lanes of that mask), or use 0xffffffff where the whole warp reaches the call"

static wl_finding *report(wl_mask_fixer *mf, const wl_expr *at, const wl_expr *coll,
                          const wl_expr *am, const char *why) {
  wl_rule_ctx *ctx = mf->ctx;
  const wl_macro_info *m;
  wl_range r = wl_wording_site(ctx->tu, at, &m);
  wl_finding *fd;
  if (at == coll)
    fd = wl_report_range(ctx, r, m,
                         "the mask of '%s' comes from __activemask(), which only says which lanes "
                         "happen to be converged, not which lanes must take part; %s it may run "
                         "with part of the intended lanes and give partial results: " FIX,
                         coll->name, why);
  else
    fd = wl_report_range(ctx, r, m,
                         "this call hands an __activemask() value to '%s' as its mask; %s the "
                         "collective may run with part of the intended lanes: " FIX,
                         coll->name, why);
  wl_note_at(ctx, fd, am->loc, "__activemask() is called here");
  if (at != coll)
    wl_note_at(ctx, fd, coll->loc, "'%s' uses it as its mask here", coll->name);
  const wl_expr *mask = wl_collective_mask(coll);
  const char *nofix = NULL;
  if (fd && at == coll && mask && !wl_fix_mask_arg(mf, fd, coll, mask, &nofix))
    wl_finding_add_note(fd, fd->file, fd->line, fd->col, nofix);
  return fd;
}

/* A call of f (or of a function that calls f, a few levels up) reached by
 * part of a warp; NULL when none is found. */
static const wl_expr *divergent_call(const wl_lanes *l, const wl_func *f, int depth) {
  const wl_expr *const *calls;
  size_t nc = f ? wl_lanes_calls_of(l, f, &calls) : 0;
  for (size_t i = 0; i < nc; i++) {
    wl_lane_reach r;
    if (wl_lanes_reach_expr(l, calls[i], &r) && r.partial)
      return calls[i];
  }
  for (size_t i = 0; i < nc && depth < 4; i++) {
    wl_lane_reach r;
    if (wl_lanes_reach_expr(l, calls[i], &r) && r.caller_partial) {
      const wl_expr *c = divergent_call(l, wl_lanes_func_of_expr(l, calls[i]), depth + 1);
      if (c)
        return c;
    }
  }
  return NULL;
}

/* ---- cooperative groups: cg::coalesced_threads() -------------------------- */

typedef struct cg_scan {
  wl_rule_ctx *ctx;
  const wl_lanes *l;
  const wl_func *f;
} cg_scan;

static bool is_coalesced(const wl_func *f, const wl_expr *e) {
  e = wl_local_resolve(f, e);
  const wl_builtin *b = e && e->kind == WL_E_CALL ? wl_builtin_find(e->name) : NULL;
  return b && b->kind == WL_BK_GROUP_COALESCED;
}

/* The group object of a member call g.m(...), NULL otherwise. */
static const wl_expr *member_object(const wl_expr *call) {
  const wl_expr *c = call->callee_expr;
  return c && c->kind == WL_E_MEMBER && c->nargs >= 1 ? c->args[0] : NULL;
}

static bool cg_check(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  cg_scan *sc = ud;
  if (e->kind != WL_E_CALL || !e->name)
    return true;
  /* reductions, scans and shifts: results that depend on which lanes are there */
  const wl_builtin *b = wl_builtin_find(e->name);
  if (!b || b->form != WL_BF_CG)
    return true;
  const wl_expr *group = NULL;
  if (b->kind == WL_BK_SHFL_UP || b->kind == WL_BK_SHFL_DOWN || b->kind == WL_BK_SHFL_XOR)
    group = member_object(e);
  else if ((b->kind == WL_BK_REDUCE || b->kind == WL_BK_SCAN) && !e->callee_is_method &&
           e->nargs >= 2)
    group = e->args[0];
  if (!group || !is_coalesced(sc->f, group))
    return true;
  const wl_expr *made = wl_local_resolve(sc->f, group);
  wl_lane_reach r;
  const wl_expr *via = NULL;
  if (!wl_lanes_reach_expr(sc->l, made, &r))
    return true;
  if (!r.partial) {
    if (!r.caller_partial || !(via = divergent_call(sc->l, sc->f, 0)))
      return true;
    wl_lanes_reach_expr(sc->l, via, &r);
  }
  char why[256];
  wl_wording_reach(sc->ctx->tu, &r, why, sizeof why);
  const wl_macro_info *m;
  wl_range at = wl_wording_site(sc->ctx->tu, e, &m);
  wl_finding *fd = wl_report_range(
      sc->ctx, at, m,
      "'%s' combines the lanes of a cg::coalesced_threads() group, which like __activemask() "
      "holds the lanes that happen to be converged, not the lanes that must take part; %s%s "
      "the group may be part of the intended lanes and the result partial: make the group "
      "from the program logic (cg::tiled_partition<32>(cg::this_thread_block()) where the "
      "whole warp is, with idle lanes contributing a neutral value)",
      e->name, via ? "its function is called " : "", why);
  wl_note_at(sc->ctx, fd, made->loc, "the group is made here");
  if (via)
    wl_note_at(sc->ctx, fd, via->loc, "the divergent call is here");
  return true;
}

static void check_coalesced(wl_rule_ctx *ctx, const wl_lanes *l) {
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    if (!f->body || !(f->flags & (WL_F_DEVICE | WL_F_GLOBAL)))
      continue;
    cg_scan sc = {ctx, l, f};
    wl_visitor v = {NULL, cg_check, &sc, false};
    wl_walk_stmt(f->body, &v);
  }
}

void wl_rule_activemask_as_mask(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  wl_vec done = {0}; /* calls already reported */
  wl_mask_fixer *mf = wl_mask_fixer_of(ctx);
  for (size_t i = 0; i < n; i++) {
    const wl_builtin *co = wl_collective_of(cs[i]);
    const wl_expr *mask = wl_collective_mask(cs[i]);
    if (!mask ||
        co->kind == WL_BK_MATCH) /* __match_any_sync(__activemask(), key): opportunistic, fine */
      continue;
    const wl_func *cf = wl_lanes_func_of_expr(l, cs[i]);
    /* a broadcast from the mask's leader gives the same for any set of lanes */
    if (co->kind == WL_BK_SHFL && !co->legacy && cs[i]->nargs >= 3 &&
        wl_mask_leader(ctx, cf, cs[i]->args[2], mask) != WL_LEAD_NONE)
      continue;
    wl_mask_origin o[8];
    size_t no = wl_lanes_activemask_origins(l, mask, o, 8);
    no = no < 8 ? no : 8;
    wl_lane_reach r;
    memset(&r, 0, sizeof r);
    char why[256];
    if (no && wl_lanes_reach_expr(l, cs[i], &r) && r.partial) {
      wl_wording_reach(ctx->tu, &r, why, sizeof why);
      report(mf, cs[i], cs[i], o[0].activemask, why);
      continue;
    }
    /* __activemask() taken in this function, which a divergent call runs */
    const wl_expr *via = NULL, *am = NULL;
    for (size_t k = 0; k < no && !via; k++)
      if (!o[k].call && !o[k].partial && r.caller_partial && (via = divergent_call(l, cf, 0)))
        am = o[k].activemask;
    if (via) {
      wl_lane_reach vr;
      wl_lanes_reach_expr(l, via, &vr);
      char vwhy[200];
      wl_wording_reach(ctx->tu, &vr, vwhy, sizeof vwhy);
      snprintf(why, sizeof why, "its function is called %s", vwhy);
      wl_finding *fd = report(mf, cs[i], cs[i], am, why);
      wl_note_at(ctx, fd, via->loc, "the divergent call is here");
      continue;
    }
    for (size_t k = 0; k < no; k++) {
      const wl_expr *at = o[k].call ? o[k].call : cs[i];
      bool seen = false;
      for (size_t j = 0; j < done.n && !seen; j++)
        seen = done.v[j] == at;
      if (!o[k].partial || seen)
        continue;
      wl_vec_push(&done, (void *)at);
      if (!wl_lanes_reach_expr(l, o[k].activemask, &r) || !r.partial)
        wl_lanes_reach_expr(l, o[k].call, &r);
      wl_wording_reach(ctx->tu, &r, why, sizeof why);
      report(mf, at, cs[i], o[k].activemask, why);
    }
  }
  wl_vec_free(&done);
  check_coalesced(ctx, l);
}
