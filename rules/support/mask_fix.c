/* mask_fix.c - choosing the mask of a warp collective for a fix, with the
 * lane analysis: the full mask when every lane of the warp reaches the call;
 * else, when one lane-dependent if is all that restricts it and its condition
 * can be evaluated before the branch, a `__ballot_sync` of that condition
 * hoisted before the if (NVIDIA's Listing 3); else nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"
#include "builtins.h"
#include "consteval.h"
#include "lanes.h"
#include "mask_fix.h"

/* ---- names ------------------------------------------------------------ */

typedef struct name_search {
  const char *name;
  bool taken;
} name_search;

static bool name_in_stmt(const wl_stmt *s, void *ud) {
  name_search *ns = ud;
  for (unsigned i = 0; i < s->nvars && !ns->taken; i++)
    ns->taken = s->vars[i]->name && strcmp(s->vars[i]->name, ns->name) == 0;
  return !ns->taken;
}

static bool name_in_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  name_search *ns = ud;
  if (e->kind == WL_E_REF && e->name && strcmp(e->name, ns->name) == 0)
    ns->taken = true;
  return !ns->taken;
}

static bool name_taken(const wl_tu *tu, const wl_func *f, const char *name) {
  name_search ns = {name, false};
  for (unsigned i = 0; i < f->nparams && !ns.taken; i++)
    ns.taken = strcmp(f->params[i]->name, name) == 0;
  for (unsigned i = 0; i < tu->nglobals && !ns.taken; i++)
    ns.taken = tu->globals[i]->name && strcmp(tu->globals[i]->name, name) == 0;
  wl_visitor v = {name_in_stmt, name_in_expr, &ns, true};
  if (!ns.taken)
    wl_walk_stmt(f->body, &v);
  return ns.taken;
}

/* The n-th distinct (if, branch) of a function that needs a hoisted mask gets
 * warp_mask, warp_mask_2, ... (skipping names the function already uses). */
static void mask_name(wl_mask_fixer *mf, const wl_func *f, const wl_stmt *ifs, int side, char *out,
                      size_t outsz) {
  for (size_t i = 0; i < mf->nhoists; i++)
    if (mf->hoists[i].ifs == ifs && mf->hoists[i].side == side) {
      snprintf(out, outsz, "%s", mf->hoists[i].name);
      return;
    }
  unsigned k = 1;
  for (;;) {
    if (k == 1)
      snprintf(out, outsz, "warp_mask");
    else
      snprintf(out, outsz, "warp_mask_%u", k);
    bool used = name_taken(mf->ctx->tu, f, out);
    for (size_t i = 0; i < mf->nhoists && !used; i++)
      used = mf->hoists[i].func == f && strcmp(mf->hoists[i].name, out) == 0;
    if (!used)
      break;
    k++;
  }
  if (mf->nhoists < sizeof mf->hoists / sizeof mf->hoists[0]) {
    mf->hoists[mf->nhoists].ifs = ifs;
    mf->hoists[mf->nhoists].side = side;
    mf->hoists[mf->nhoists].func = f;
    snprintf(mf->hoists[mf->nhoists].name, sizeof mf->hoists[mf->nhoists].name, "%s", out);
    mf->nhoists++;
  }
}

wl_mask_fixer *wl_mask_fixer_of(wl_rule_ctx *ctx) {
  if (!ctx->fixer)
    ctx->fixer = wl_xcalloc(1, sizeof(wl_mask_fixer));
  wl_mask_fixer *mf = ctx->fixer;
  mf->ctx = ctx;
  return mf;
}

/* For a shuffle reached by exactly the lanes of `set`: whether every lane
 * reads from a lane of the set (or keeps its own value at a segment edge).
 * A lane outside the mask gives an undefined value, so a mask fix is only
 * trusted when this holds. Non-constant offsets cannot be checked: false. */
static bool sources_inside(const wl_expr *call, const wl_builtin *co, unsigned set) {
  unsigned si = (unsigned)co->src_arg;
  const wl_expr *src = co->src_arg >= 0 && call->nargs > si ? call->args[si] : NULL;
  const wl_expr *wexpr = wl_collective_width(call);
  long long off, width = 32;
  if (!src || !wl_consteval(src, &off) || (wexpr && !wl_consteval(wexpr, &width)) || width < 1 ||
      width > 32)
    return false;
  for (unsigned lane = 0; lane < 32; lane++) {
    if (!(set >> lane & 1u))
      continue;
    if (!wl_builtin_is_shuffle(co))
      return false;
    long long from = wl_builtin_shuffle_source(co->kind, lane, off, width);
    if (from < 0 || from > 31 || !(set >> from & 1u))
      return false;
  }
  return true;
}

/* ---- the decision --------------------------------------------------------- */

wl_mask_choice wl_choose_mask(wl_mask_fixer *mf, const wl_expr *call, char *mask, size_t masksz,
                              const wl_stmt **hoist_before, char **hoist_text, const char **why) {
  *hoist_text = NULL;
  *why = NULL;
  wl_lanes *l = wl_an_lanes(mf->ctx->an);
  const wl_tu *tu = mf->ctx->tu;
  if (!l) {
    *why = "the lane analysis is not available";
    return WL_MASK_NONE;
  }
  if (wl_lanes_whole_warp(l, call)) {
    snprintf(mask, masksz, "0xffffffff");
    return WL_MASK_FULL;
  }
  wl_lane_reach r[4];
  size_t n = wl_lanes_restrictions(l, call, r, 4);
  if (n == 0) {
    *why = "its function is called where only part of a warp runs";
    return WL_MASK_NONE;
  }
  if (n > 1) {
    *why = "more than one lane-dependent condition decides which lanes get here";
    return WL_MASK_NONE;
  }
  if (r[0].kind != WL_LR_IF || !r[0].cond || r[0].side < 0) {
    *why = r[0].kind == WL_LR_LOOP
               ? "a loop with a lane-dependent trip count decides which lanes get here"
           : r[0].kind == WL_LR_EXIT ? "some lanes left earlier (return, break or continue)"
                                     : "the lanes that get here are not decided by one if";
    return WL_MASK_NONE;
  }
  if (r[0].caller_partial) {
    *why = "its function is also called where only part of a warp runs";
    return WL_MASK_NONE;
  }
  const wl_stmt *ifs = r[0].stmt;
  wl_lane_reach ir;
  if (!wl_lanes_reach_stmt(l, ifs, &ir) || ir.partial || ir.caller_partial) {
    *why = "the branch itself is reached by only part of a warp";
    return WL_MASK_NONE;
  }
  if (ifs->init || !wl_builtin_pure_expr(r[0].cond)) {
    *why = "the branch condition has side effects or declares a variable";
    return WL_MASK_NONE;
  }
  const wl_func *f = wl_lanes_func_of_expr(l, call);
  const wl_stmt *parent = f ? wl_stmt_parent(f, ifs) : NULL;
  if (!parent || parent->kind != WL_S_COMPOUND) {
    *why = "the branch is not a statement of a block where a declaration can go";
    return WL_MASK_NONE;
  }
  if (ifs->macro || r[0].cond->macro) {
    *why = "the branch comes from a macro";
    return WL_MASK_NONE;
  }
  const char *cond = wl_source_text(mf->ctx, r[0].cond->range);
  if (!cond || !ifs->range.begin.file || !wl_tu_in_main(tu, ifs->range.begin)) {
    *why = "the branch condition is not plain source text of this file";
    return WL_MASK_NONE;
  }
  const wl_builtin *co = wl_collective_of(call);
  unsigned set = 0;
  if (co && wl_builtin_is_shuffle(co) &&
      !(wl_lanes_reaching_lanes(l, call, &set) && sources_inside(call, co, set))) {
    *why = "the shuffle may read from lanes outside the branch's mask (undefined values): move "
           "the shuffle where every lane it reads from runs it";
    return WL_MASK_NONE;
  }
  mask_name(mf, f, ifs, r[0].side, mask, masksz);
  wl_buf t;
  wl_buf_init(&t);
  wl_buf_printf(&t, "unsigned %s = __ballot_sync(0xffffffff, %s%s%s);", mask, r[0].side ? "" : "!(",
                cond, r[0].side ? "" : ")");
  *hoist_text = wl_buf_detach(&t);
  *hoist_before = ifs;
  return WL_MASK_HOISTED;
}

bool wl_fix_mask_arg(wl_mask_fixer *mf, wl_finding *fd, const wl_expr *call, const wl_expr *arg,
                     const char **why) {
  char mask[64];
  const wl_stmt *at = NULL;
  char *hoist = NULL;
  wl_mask_choice c = wl_choose_mask(mf, call, mask, sizeof mask, &at, &hoist, why);
  if (c != WL_MASK_HOISTED) {
    free(hoist);
    if (c == WL_MASK_FULL)
      *why = "the full mask is already the right one here";
    return false;
  }
  bool ok = !arg->macro && wl_fix_insert_before(mf->ctx, fd, at, hoist) &&
            wl_fix_replace(mf->ctx, fd, arg->range, mask);
  free(hoist);
  if (!ok) {
    wl_fix_clear(fd);
    *why = "the edit would touch macro or unparsed text";
  }
  return ok;
}
