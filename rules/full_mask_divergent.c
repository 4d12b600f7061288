/* full_mask_divergent.c - rule full-mask-divergent: a collective whose mask
 * names all 32 lanes is reached by only part of a warp, directly or through
 * a wrapper (a migration shim such as shfl_down(v, d) calling
 * __shfl_down_sync(0xffffffff, v, d), or a macro), or a wrapper of a legacy
 * collective, whose *_sync form gets one mask for all its calls. A
 * lane-dependent if/else whose other branch runs the same full-mask collective
 * does not count (Listing 4: the warp meets there), nor does a grid-tail guard
 * whose other lanes leave the kernel when every lane reads from a lane that
 * passed it (mask_fix.h, wl_full_mask_ok_at_tail, wl_full_mask_ok_at_tail_site). */
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"

#include "lanes.h"
#include "mask_fix.h"
#include "rules.h"
#include "wording.h"

typedef struct match_ctx {
  const wl_lanes *l;
  const wl_expr *like;
  bool found;
} match_ctx;

/* Whether x is the same full-mask collective as m->like, or a call of the same wrapper. */
static bool match_expr(const wl_expr *x, const wl_stmt *in, void *ud) {
  (void)in;
  match_ctx *m = ud;
  if (m->found || x->kind != WL_E_CALL || !wl_lanes_func_of_expr(m->l, x))
    return !m->found;
  const wl_func *f = wl_lanes_callee(m->l, m->like);
  if (f)
    m->found = wl_lanes_callee(m->l, x) == f;
  else
    m->found = x->name && m->like->name && strcmp(x->name, m->like->name) == 0 &&
               wl_collective_full_mask(x);
  return !m->found;
}

/* Whether statement k runs __syncthreads() (or __syncthreads_count/_and/_or)
 * itself: a barrier inside a called function is no such evidence
 * (uneven_trips.cu's scan()). */
static bool is_block_barrier(const wl_stmt *k) {
  const wl_expr *e = k && k->kind == WL_S_EXPR ? wl_expr_strip(k->expr) : NULL;
  return e && e->kind == WL_E_CALL && e->name && strncmp(e->name, "__syncthreads", 13) == 0 &&
         wl_builtin_call(e, WL_BK_BARRIER, WL_BF_INTRINSIC);
}

typedef struct assigned_find {
  const wl_var *v;
  bool found;
} assigned_find;

static bool find_assigned_var(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  assigned_find *a = ud;
  if (a->v && wl_assigned_var(e) == a->v)
    a->found = true;
  return !a->found;
}

/* Whether e has the same value in every thread of the block: constants,
 * blockIdx, blockDim, gridDim, and parameters of kernel f that f never
 * assigns, through operators and casts. */
static bool block_uniform(const wl_func *f, const wl_expr *e, int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 16)
    return false;
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_BOOL:
  case WL_E_FLOAT:
  case WL_E_SIZEOF: return true;
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v)
      return false;
    if (v->has_ival)
      return true;
    if (!(v->flags & WL_V_PARAM) || !(f->flags & WL_F_GLOBAL) || v->param_index < 0 ||
        (unsigned)v->param_index >= f->nparams || f->params[v->param_index] != v)
      return false;
    assigned_find a = {v, false};
    wl_visitor vis = {NULL, find_assigned_var, &a, true};
    wl_walk_stmt(f->body, &vis);
    return !a.found;
  }
  case WL_E_MEMBER: {
    const wl_expr *b = e->nargs == 1 ? wl_expr_strip(e->args[0]) : NULL;
    const char *n = b && b->kind == WL_E_REF && b->var ? b->var->name : NULL;
    return n && (!strcmp(n, "blockIdx") || !strcmp(n, "blockDim") || !strcmp(n, "gridDim"));
  }
  case WL_E_UNARY:
    return e->op != WL_U_DEREF && e->op != WL_U_PREINC && e->op != WL_U_PREDEC &&
           e->op != WL_U_POSTINC && e->op != WL_U_POSTDEC && e->nargs == 1 &&
           block_uniform(f, e->args[0], depth + 1);
  case WL_E_BINARY:
  case WL_E_COND:
    if (e->kind == WL_E_BINARY && (wl_binop_is_assign(e->op) || e->op == WL_B_PTRMEM))
      return false;
    for (unsigned i = 0; i < e->nargs; i++)
      if (!block_uniform(f, e->args[i], depth + 1))
        return false;
    return e->nargs > 0;
  default: return false;
  }
}

typedef struct stmt_of_find {
  const wl_expr *e;
  const wl_stmt *in;
} stmt_of_find;

static bool find_stmt_of(const wl_expr *x, const wl_stmt *in, void *ud) {
  stmt_of_find *sf = ud;
  if (x == sf->e)
    sf->in = in;
  return !sf->in;
}

/* Whether loop s of f runs __syncthreads() in every iteration in which it
 * reaches e: as a statement of a block that holds e (its body, or a block
 * nested in it under conditions that are the same in every thread of the
 * block, such as a kernel parameter: NCCL ubx's `if (fuse_layernorm) { ...;
 * blockReduceSumV2(...); ...; __syncthreads(); }`).
 * A block barrier may sit in a loop only when every thread of the block runs
 * the loop equally often, so the code itself requires a block-uniform trip
 * count (kaldi's `while (group_id < d.cols) { ...; __syncthreads(); ...;
 * __syncwarp(); }` over threadIdx.y). */
static bool loop_runs_block_barrier(const wl_func *f, const wl_stmt *s, const wl_expr *e) {
  if (!f || !s ||
      (s->kind != WL_S_FOR && s->kind != WL_S_WHILE && s->kind != WL_S_DO &&
       s->kind != WL_S_RANGE_FOR))
    return false;
  const wl_stmt *body = s->then_s;
  for (unsigned k = 0; body && body->kind == WL_S_COMPOUND && k < body->nkids; k++)
    if (is_block_barrier(body->kids[k]))
      return true;
  stmt_of_find sf = {e, NULL};
  wl_visitor vis = {NULL, find_stmt_of, &sf, false};
  wl_walk_stmt(s->then_s, &vis);
  /* the statements from e's up to s's body (path[n - 1]) */
  const wl_stmt *path[64];
  int n = 0;
  for (const wl_stmt *at = sf.in; at && at != s && n < 64; at = wl_stmt_parent(f, at))
    path[n++] = at;
  if (!n || path[n - 1] != s->then_s)
    return false;
  bool ok = true; /* every thread of the block that runs this iteration gets here */
  for (int i = n - 1; i >= 0 && ok; i--) {
    const wl_stmt *p = path[i];
    if (p->kind == WL_S_COMPOUND) {
      for (unsigned k = 0; k < p->nkids; k++)
        if (is_block_barrier(p->kids[k]))
          return true;
    } else if (p->kind == WL_S_IF) {
      ok = i > 0 && (path[i - 1] == p->then_s || path[i - 1] == p->else_s) &&
           block_uniform(f, p->expr, 0);
    } else {
      ok = false; /* a nested loop, a switch: not in every iteration */
    }
  }
  return false;
}

/* The first restriction of e that the warp does not meet again on the other path. */
static const wl_lane_reach *divergence(const wl_lanes *l, const wl_expr *e, wl_lane_reach *v,
                                       size_t n) {
  for (size_t i = 0; i < n; i++) {
    const wl_stmt *s = v[i].stmt;
    if (v[i].kind == WL_LR_LOOP && loop_runs_block_barrier(wl_lanes_func_of_expr(l, e), s, e))
      continue;
    if (v[i].kind == WL_LR_IF && s && s->else_s && v[i].side >= 0) {
      match_ctx m = {l, e, false};
      wl_visitor vis = {NULL, match_expr, &m, false};
      wl_walk_stmt(v[i].side ? s->else_s : s->then_s, &vis);
      if (m.found)
        continue;
    }
    return &v[i];
  }
  return NULL;
}

/* Whether every lane-dependent restriction of e is a `return` of the kernel
 * that holds e: the lanes missing there have exited. */
static bool after_exits_only(const wl_lanes *l, const wl_expr *e, const wl_lane_reach *v,
                             size_t n) {
  const wl_func *f = wl_lanes_func_of_expr(l, e);
  if (!f || !(f->flags & WL_F_GLOBAL) || n == 0 || n >= 16)
    return false;
  for (size_t i = 0; i < n; i++)
    if (v[i].kind != WL_LR_EXIT || v[i].caller_partial || !v[i].exit ||
        v[i].exit->kind != WL_S_RETURN)
      return false;
  return true;
}

static void check(wl_mask_fixer *mf, const wl_lanes *l, const wl_expr *e, const wl_expr *coll) {
  wl_rule_ctx *ctx = mf->ctx;
  wl_lane_reach v[16];
  size_t n = wl_lanes_restrictions(l, e, v, 16);
  const wl_lane_reach *why = divergence(l, e, v, n < 16 ? n : 16);
  if (!why)
    return;
  /* a grid-tail guard whose other lanes leave the kernel, every lane reading a
   * lane that is there: the full mask waits only for lanes that have not exited */
  if (wl_full_mask_ok_at_tail(mf, coll) || wl_full_mask_ok_at_tail_site(mf, e, coll))
    return;
  /* the lanes missing here returned from the kernel: a *_sync collective does
   * not wait for exited lanes, and a vote or __syncwarp() counts only the lanes
   * that are there; only a shuffle can go wrong, by reading an exited lane */
  const wl_builtin *co = wl_collective_of(coll);
  /* a legacy collective, only ever through a wrapper here: judged as the
   * full-mask *_sync call that it must become (the wrapper gets one mask for
   * all its calls) */
  bool legacy = co && co->legacy;
  bool exited = co && (!legacy || e != coll) && after_exits_only(l, e, v, n);
  if (exited && !wl_builtin_is_shuffle(co))
    return;
  char text[256];
  wl_wording_reach(ctx->tu, why, text, sizeof text);
  const wl_macro_info *m;
  wl_range r = wl_wording_site(ctx->tu, e, &m);
  wl_finding *fd;
  if (legacy && exited)
    fd = wl_report_range(ctx, r, m,
                         "'%s' runs the legacy '%s' (no mask: the whole warp takes part) %s: CUDA "
                         "9+ needs a *_sync shuffle in the wrapper, and a full-mask one does not "
                         "wait for lanes that have exited, but a lane that reads from one of them "
                         "gets an undefined value, and this shuffle may read from lanes that "
                         "left. Keep every lane of the warp in the call with a neutral value "
                         "instead of returning early, or read only from lanes that stay",
                         wl_wording_call_name(e), coll->name, text);
  else if (legacy)
    fd = wl_report_range(ctx, r, m,
                         "'%s' runs the legacy '%s' (no mask: the whole warp takes part), but only "
                         "part of the warp reaches this call: %s; CUDA 9+ needs a *_sync call in "
                         "the wrapper, and with the full mask, lanes that never arrive make this "
                         "call undefined behaviour (it may hang). Give the wrapper a mask "
                         "parameter and pass __ballot_sync(FULL_MASK, cond) computed before the "
                         "branch (a shuffle under it must read only lanes of that mask), or call "
                         "it where every lane reaches it",
                         wl_wording_call_name(e), coll->name, text);
  else if (exited && e == coll)
    fd = wl_report_range(ctx, r, m,
                         "'%s' names all 32 lanes in its mask %s: a *_sync shuffle does not wait "
                         "for lanes that have exited, but a lane that reads from one of them gets "
                         "an undefined value, and this shuffle may read from lanes that left. "
                         "Keep every lane of the warp in the shuffle with a neutral value instead "
                         "of returning early, or read only from lanes that stay",
                         e->name, text);
  else if (exited)
    fd = wl_report_range(ctx, r, m,
                         "'%s' runs '%s' with all 32 lanes in its mask %s: a *_sync shuffle does "
                         "not wait for lanes that have exited, but a lane that reads from one of "
                         "them gets an undefined value, and this shuffle may read from lanes "
                         "that left. Keep every lane of the warp in the call with a neutral value "
                         "instead of returning early, or read only from lanes that stay",
                         wl_wording_call_name(e), coll->name, text);
  else if (e == coll)
    fd = wl_report_range(ctx, r, m,
                         "'%s' names all 32 lanes in its mask, but only part of the warp reaches "
                         "it: %s; lanes that never arrive make this undefined behaviour (it may "
                         "hang). Compute the mask before the branch with __ballot_sync(FULL_MASK, "
                         "cond) (a shuffle under it must read only lanes of that mask), or run "
                         "the collective where every lane reaches it",
                         e->name, text);
  else
    fd = wl_report_range(ctx, r, m,
                         "'%s' runs '%s' with all 32 lanes in its mask, but only part of the warp "
                         "reaches this call: %s; lanes that never arrive make this undefined "
                         "behaviour (it may hang). Compute the mask before the branch with "
                         "__ballot_sync(FULL_MASK, cond) and pass it down (a shuffle under it must "
                         "read only lanes of that mask), or call it where every lane reaches it",
                         wl_wording_call_name(e), coll->name, text);
  if (e->macro && e->macro->name && !m)
    wl_note_at(ctx, fd, e->macro->spelling, "macro '%s' calls '%s' with the full mask here",
               e->macro->name, coll->name);
  if (e != coll && legacy)
    wl_note_at(ctx, fd, coll->loc, "the legacy '%s' is called here", coll->name);
  else if (e != coll)
    wl_note_at(ctx, fd, coll->loc, "'%s' is called with the full mask here", coll->name);
  const wl_expr *mask = wl_collective_mask(coll);
  const char *nofix = NULL;
  if (fd && e == coll && mask && !wl_fix_mask_arg(mf, fd, coll, mask, &nofix))
    wl_finding_add_note(fd, fd->file, fd->line, fd->col, nofix);
}

void wl_rule_full_mask_divergent(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  wl_mask_fixer *mf = wl_mask_fixer_of(ctx);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  for (size_t i = 0; i < n; i++)
    if (wl_collective_full_mask(cs[i]))
      check(mf, l, cs[i], cs[i]);
  /* wrappers: calls of functions whose whole warp runs a full-mask collective,
   * or a legacy one (a bare legacy call under a branch is legacy-intrinsic's,
   * whose fix hoists a mask for it; a wrapper's body gets one mask for all
   * its calls) */
  for (unsigned f = 0; f < ctx->tu->nfuncs; f++) {
    const wl_expr *const *calls;
    size_t nc = wl_lanes_calls_of(l, ctx->tu->funcs[f], &calls);
    for (size_t i = 0; i < nc; i++) {
      const wl_expr *coll = wl_lanes_call_full_warp_collective(l, calls[i]);
      if (!coll)
        coll = wl_lanes_call_full_warp_legacy(l, calls[i]);
      if (coll)
        check(mf, l, calls[i], coll);
    }
  }
}
