/* shuffle_source_outside_mask.c - rule shuffle-source-outside-mask: a
 * *_sync shuffle where some lane of the mask (that also reaches the call)
 * reads from a lane (srcLane, delta or laneMask, with width) that may be
 * outside the mask, or not at the call: the value it gets is undefined
 * (NVIDIA's Listing 3 with a partial mask, a leader fixed at lane 0 under a
 * data-dependent branch, __shfl_down_sync at the edge of a partial mask).
 *
 * The masks judged: constants (not the full mask: full-mask-divergent owns
 * that), __ballot_sync(..., cond) values, __activemask() and match results.
 * The possible masks are a family of lane sets: one set (a constant, or a
 * condition of the lane id alone), the prefixes {0..k-1} or suffixes
 * {k..31} of the warp (a thread id compared with a warp-uniform bound), or
 * any set (data-dependent). A ballot of the condition that also restricts
 * the call, and __activemask(), give a mask equal to the lanes that reach
 * the call. The source operand must be a constant, a loop variable with
 * constant bounds, or the mask's leader (__ffs(mask) - 1 or 31 - __clz(mask)). */
#include <stdio.h>
#include <string.h>

#include "analyses.h"
#include "builtins.h"
#include "consteval.h"
#include "lanes.h"
#include "local_values.h"
#include "mask_fix.h"
#include "rules.h"
#include "wording.h"

/* ---- the values a shift operand takes ------------------------------------- */

#define MAXVALS 64

typedef struct loop_find {
  const wl_var *v;
  const wl_expr *call;
  const wl_stmt *loop;
} loop_find;

static bool inside(wl_range outer, const wl_expr *e) {
  return outer.begin.file && e->range.begin.file &&
         strcmp(outer.begin.file, e->range.begin.file) == 0 &&
         outer.begin.offset <= e->range.begin.offset && e->range.end.offset <= outer.end.offset;
}

static bool find_loop(const wl_stmt *s, void *ud) {
  loop_find *lf = ud;
  if (s->kind == WL_S_FOR && s->init && s->init->kind == WL_S_DECL && s->then_s &&
      inside(s->then_s->range, lf->call))
    for (unsigned i = 0; i < s->init->nvars; i++)
      if (s->init->vars[i] == lf->v)
        lf->loop = s;
  return true;
}

/* v op= k, v = v op k, ++v... as a step function; false when not one. */
static bool step(const wl_expr *inc, const wl_var *v, int *op, long long *k) {
  inc = wl_expr_strip(inc);
  if (!inc)
    return false;
  if (inc->kind == WL_E_UNARY && inc->nargs == 1) {
    const wl_expr *t = wl_expr_strip(inc->args[0]);
    if (!t || t->kind != WL_E_REF || t->var != v)
      return false;
    *k = 1;
    *op = (inc->op == WL_U_PREINC || inc->op == WL_U_POSTINC)   ? WL_B_ADD
          : (inc->op == WL_U_PREDEC || inc->op == WL_U_POSTDEC) ? WL_B_SUB
                                                                : WL_B_NONE;
    return *op != WL_B_NONE;
  }
  if (inc->kind != WL_E_BINARY || inc->nargs != 2)
    return false;
  const wl_expr *t = wl_expr_strip(inc->args[0]);
  if (!t || t->kind != WL_E_REF || t->var != v)
    return false;
  static const int map[][2] = {{WL_B_ADD_ASSIGN, WL_B_ADD}, {WL_B_SUB_ASSIGN, WL_B_SUB},
                               {WL_B_MUL_ASSIGN, WL_B_MUL}, {WL_B_DIV_ASSIGN, WL_B_DIV},
                               {WL_B_SHL_ASSIGN, WL_B_SHL}, {WL_B_SHR_ASSIGN, WL_B_SHR}};
  for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
    if (inc->op == map[i][0]) {
      *op = map[i][1];
      return wl_consteval(inc->args[1], k);
    }
  if (inc->op == WL_B_ASSIGN) {
    const wl_expr *r = wl_expr_strip(inc->args[1]);
    if (!r || r->kind != WL_E_BINARY || r->nargs != 2)
      return false;
    const wl_expr *a = wl_expr_strip(r->args[0]);
    if (!a || a->kind != WL_E_REF || a->var != v)
      return false;
    *op = r->op;
    return wl_consteval(r->args[1], k);
  }
  return false;
}

typedef struct loopvar_hook {
  const wl_var *v;
  long long val;
} loopvar_hook;

static bool loopvar_value(const wl_expr *e, long long *out, void *ud) {
  const loopvar_hook *h = ud;
  e = wl_expr_strip(e);
  if (e && e->kind == WL_E_REF && e->var == h->v) {
    *out = h->val;
    return true;
  }
  return false;
}

/* The values operand e takes at the call: a constant, or a loop variable
 * `for (int o = C; cond(o); o = step(o))` around the call that nothing else
 * assigns. Returns how many (0: unknown). */
static unsigned operand_values(const wl_func *f, const wl_expr *call, const wl_expr *e,
                               long long *vals) {
  long long c;
  e = wl_local_resolve(f, e);
  if (!e)
    return 0;
  if (wl_consteval(e, &c)) {
    vals[0] = c;
    return 1;
  }
  if (e->kind != WL_E_REF || !wl_is_plain_local(e->var) || !f)
    return 0;
  loop_find lf = {e->var, call, NULL};
  wl_visitor vis = {find_loop, NULL, &lf, false};
  wl_walk_stmt(f->body, &vis);
  const wl_stmt *loop = lf.loop;
  int op;
  long long k;
  if (!loop || !loop->expr || !loop->inc || !e->var->init || !wl_consteval(e->var->init, &c) ||
      !step(loop->inc, e->var, &op, &k) || wl_local_assignments(f, e->var, loop->inc) != 0)
    return 0;
  unsigned n = 0;
  for (int guard = 0; guard < 1000; guard++) {
    loopvar_hook h = {e->var, c};
    long long t;
    if (!wl_consteval_ex(loop->expr, loopvar_value, &h, &t))
      return 0;
    if (!t)
      return n;
    if (n == MAXVALS)
      return 0;
    vals[n++] = c;
    switch (op) {
    case WL_B_ADD: c += k; break;
    case WL_B_SUB: c -= k; break;
    case WL_B_MUL: c *= k; break;
    case WL_B_DIV:
      if (k == 0)
        return 0;
      c /= k;
      break;
    case WL_B_SHL:
      if (k < 0 || k > 31 || c < 0 || c > (1LL << 31))
        return 0;
      c <<= k;
      break;
    case WL_B_SHR:
      if (k < 0 || k > 62)
        return 0;
      c >>= k;
      break;
    default: return 0;
    }
    if (c < -(1LL << 40) || c > (1LL << 40))
      return 0;
  }
  return 0;
}

/* ---- families of lane sets --------------------------------------------------- */

typedef enum fam_kind {
  FAM_FULL,   /* all 32 lanes */
  FAM_EXACT,  /* one known set */
  FAM_PREFIX, /* {0..k-1}, any k */
  FAM_SUFFIX, /* {k..31}, any k */
  FAM_ANY     /* any set */
} fam_kind;

typedef struct fam {
  fam_kind k;
  unsigned set;
  unsigned seg; /* FAM_PREFIX/FAM_SUFFIX: k is a multiple of seg (0 or 1: any k) */
} fam;

static int flip(int op) {
  switch (op) {
  case WL_B_LT: return WL_B_GT;
  case WL_B_GT: return WL_B_LT;
  case WL_B_LE: return WL_B_GE;
  case WL_B_GE: return WL_B_LE;
  default: return op;
  }
}

/* Whether e is a thread id plus warp-uniform terms (one more in each next lane). */
static bool lane_linear(const wl_lanes *l, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e)
    return false;
  if (wl_lanes_expr_tid_like(l, e))
    return true;
  if (e->kind == WL_E_BINARY && e->nargs == 2 && (e->op == WL_B_ADD || e->op == WL_B_SUB)) {
    if (!wl_lanes_expr_dependent(l, e->args[1]))
      return lane_linear(l, e->args[0]);
    if (e->op == WL_B_ADD && !wl_lanes_expr_dependent(l, e->args[0]))
      return lane_linear(l, e->args[1]);
  }
  return false;
}

/* The lanes where cond has truth value `side` (f: the function, to follow its locals). */
static fam fam_of_cond(const wl_lanes *l, const wl_func *f, const wl_expr *cond, int side) {
  fam r = {FAM_ANY, 0, 0};
  unsigned set;
  cond = wl_expr_strip(cond);
  if (!cond || side < 0)
    return r;
  if (wl_lanes_cond_lanes(l, cond, side, &set)) {
    r.k = set == ~0u ? FAM_FULL : FAM_EXACT;
    r.set = set;
    return r;
  }
  if (!wl_lanes_expr_dependent(l, cond)) {
    r.k = FAM_FULL; /* the whole warp, or none of it */
    return r;
  }
  bool qlow;
  if (wl_quotient_cond(l, f, cond, side, &r.seg, &qlow)) { /* threadIdx.x / width == 0 */
    r.k = qlow ? FAM_PREFIX : FAM_SUFFIX;
    return r;
  }
  if (cond->kind == WL_E_UNARY && cond->op == WL_U_LNOT && cond->nargs == 1)
    return fam_of_cond(l, f, cond->args[0], !side);
  if (cond->kind != WL_E_BINARY || cond->nargs != 2)
    return r;
  int op = cond->op;
  if (op != WL_B_LT && op != WL_B_LE && op != WL_B_GT && op != WL_B_GE)
    return r;
  const wl_expr *a = cond->args[0], *b = cond->args[1];
  unsigned seg = 1;
  if (lane_linear(l, b) && !wl_lanes_expr_dependent(l, a)) {
    const wl_expr *t = a;
    a = b;
    b = t;
    op = flip(op);
  } else if (lane_linear(l, a) && !wl_lanes_expr_dependent(l, b)) {
  } else if (!wl_lanes_expr_dependent(l, b) && wl_tid_linear(l, f, a, &seg)) {
  } else if (!wl_lanes_expr_dependent(l, a) && wl_tid_linear(l, f, b, &seg)) {
    op = flip(op); /* a thread id divided by a segment size: whole segments */
  } else
    return r;
  bool below = op == WL_B_LT || op == WL_B_LE; /* true for the low lanes */
  r.k = below == (side == 1) ? FAM_PREFIX : FAM_SUFFIX;
  r.seg = seg;
  return r;
}

/* The sets of a family to try (FAM_ANY: the warp without one lane), larger first. */
static unsigned fam_sets(fam f, unsigned *sets) {
  unsigned n = 0;
  switch (f.k) {
  case FAM_FULL: sets[n++] = ~0u; break;
  case FAM_EXACT: sets[n++] = f.set; break;
  case FAM_PREFIX:
    for (unsigned k = 31; k >= 1; k--)
      if (f.seg <= 1 || k % f.seg == 0)
        sets[n++] = (1u << k) - 1;
    break;
  case FAM_SUFFIX:
    for (unsigned k = 1; k < 32; k++)
      if (f.seg <= 1 || k % f.seg == 0)
        sets[n++] = ~((1u << k) - 1);
    break;
  case FAM_ANY: /* a lane s(l) != l is left out of some mask holding l */
    for (unsigned k = 0; k < 32; k++)
      sets[n++] = ~(1u << k);
    break;
  }
  return n;
}

/* ---- the source lane ------------------------------------------------------ */

static unsigned lowest(unsigned set) {
  for (unsigned i = 0; i < 32; i++)
    if (set >> i & 1u)
      return i;
  return 0;
}

static unsigned highest(unsigned set) {
  for (unsigned i = 32; i-- > 0;)
    if (set >> i & 1u)
      return i;
  return 0;
}

/* The lane `lane` reads from (the catalog's shuffle semantics). */
static unsigned source(wl_builtin_kind k, long long v, unsigned width, unsigned lane) {
  return (unsigned)wl_builtin_shuffle_source(k, lane, v, width) & 31u;
}

/* ---- the rule ------------------------------------------------------------- */

typedef struct failure {
  unsigned set;  /* the mask (= the lanes at the call, when tied) */
  unsigned lane; /* a lane of it */
  unsigned from; /* the lane it reads, outside the set */
  long long v;   /* the operand's value */
} failure;

void wl_rule_shuffle_source_outside_mask(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  for (size_t i = 0; i < n; i++) {
    const wl_expr *call = cs[i];
    const wl_builtin *co = wl_collective_of(call);
    const wl_expr *mask = wl_collective_mask(call);
    const wl_func *f = wl_lanes_func_of_expr(l, call);
    if (!co || !wl_builtin_is_shuffle(co) || co->legacy || !mask || !f || co->src_arg < 0 ||
        call->nargs <= (unsigned)co->src_arg)
      continue;
    wl_builtin_kind sk = co->kind;
    /* the width */
    long long width = 32;
    const wl_expr *wexpr = wl_collective_width(call);
    if (wexpr && !wl_consteval(wexpr, &width))
      continue;
    if (width < 1 || width > 32 || (width & (width - 1)))
      continue; /* invalid-shfl-width */

    /* the lanes that reach the call */
    fam reach = {FAM_FULL, ~0u, 0};
    wl_lane_reach rr;
    wl_lane_reach rs[4];
    size_t nr = 0;
    unsigned set;
    if (!wl_lanes_reach_expr(l, call, &rr))
      continue;
    if (rr.partial || rr.caller_partial) {
      nr = wl_lanes_restrictions(l, call, rs, 4);
      if (!rr.caller_partial && wl_lanes_reaching_lanes(l, call, &set))
        reach = (fam){set == ~0u ? FAM_FULL : FAM_EXACT, set, 0};
      else if (!rr.caller_partial && nr == 1 && rs[0].cond && rs[0].kind != WL_LR_LOOP &&
               rs[0].kind != WL_LR_EXIT && rs[0].kind != WL_LR_SWITCH)
        reach = fam_of_cond(l, f, rs[0].cond, rs[0].side);
      else
        reach = (fam){FAM_ANY, 0, 0};
    }

    /* the mask */
    unsigned cm;
    fam mfam;
    bool tied = false; /* the mask is exactly the lanes that reach the call */
    const char *what;
    const wl_expr *origin = wl_local_resolve(f, mask);
    const wl_builtin *vote;
    if (wl_consteval_mask(mask, &cm)) {
      if (cm == WL_FULL_MASK)
        continue; /* full-mask-divergent */
      mfam = (fam){FAM_EXACT, cm, 0};
      what = "the constant mask";
    } else if (wl_builtin_call(origin, WL_BK_ACTIVEMASK, WL_BF_INTRINSIC)) {
      mfam = reach;
      tied = true;
      what = "the __activemask() mask (the lanes that happen to be here)";
    } else if ((vote = wl_builtin_call(origin, WL_BK_VOTE, WL_BF_INTRINSIC)) &&
               wl_builtin_vote_is_ballot(vote) && !vote->legacy && origin->nargs == 2) {
      unsigned outer;
      if (!wl_consteval_mask(origin->args[0], &outer) || outer != WL_FULL_MASK)
        continue;
      const wl_expr *bc = origin->args[1];
      mfam = fam_of_cond(l, f, bc, 1);
      what = "the __ballot_sync mask";
      for (size_t k = 0; k < nr && k < 4; k++)
        if (rs[k].cond && rs[k].side == 1 && wl_same_value(ctx, f, rs[k].cond, bc)) {
          tied = true; /* Listing 3: the ballot of the branch condition */
          if (reach.k == FAM_EXACT || reach.k == FAM_PREFIX || reach.k == FAM_SUFFIX)
            mfam = reach;
        }
    } else if (wl_builtin_call(origin, WL_BK_MATCH, WL_BF_INTRINSIC)) {
      mfam = (fam){FAM_ANY, 0, 0};
      what = "the __match_*_sync group mask";
    } else
      continue; /* parameters and other masks: not known here */
    if (mfam.k == FAM_FULL)
      continue;

    /* the source operand */
    long long vals[MAXVALS];
    unsigned nv = 0;
    wl_leader_kind lead =
        sk == WL_BK_SHFL ? wl_mask_leader(ctx, f, call->args[co->src_arg], mask) : WL_LEAD_NONE;
    if (lead == WL_LEAD_NONE) {
      nv = operand_values(f, call, call->args[co->src_arg], vals);
      if (nv == 0)
        continue;
    } else {
      vals[0] = 0;
      nv = 1;
    }

    /* try every mask of the family, every lane of it that reaches the call */
    unsigned msets[32], nms = fam_sets(mfam, msets);
    unsigned rsets[32], nrs = tied ? 1 : fam_sets(reach, rsets);
    if (tied)
      rsets[0] = ~0u;
    failure fl = {0, 0, 0, 0};
    bool bad = false;
    for (unsigned a = 0; a < nms && !bad; a++)
      for (unsigned b = 0; b < nrs && !bad; b++) {
        unsigned lanes = msets[a] & (reach.k == FAM_EXACT || tied ? rsets[b] : ~0u);
        for (unsigned x = 0; x < nv && !bad; x++)
          for (unsigned lane = 0; lane < 32 && !bad; lane++) {
            if (!(lanes >> lane & 1u))
              continue;
            long long v = lead == WL_LEAD_LOW    ? lowest(msets[a])
                          : lead == WL_LEAD_HIGH ? highest(msets[a])
                                                 : vals[x];
            unsigned from = source(sk, v, (unsigned)width, lane);
            if (!(msets[a] >> from & 1u)) {
              bad = true;
              fl = (failure){msets[a], lane, from, v};
            }
          }
      }
    if (!bad)
      continue;

    char lanes[160], why[160] = "";
    wl_wording_lanes(fl.set, lanes, sizeof lanes);
    if (rr.partial || rr.caller_partial)
      wl_wording_reach(ctx->tu, &rr, why, sizeof why);
    const char *operand = sk == WL_BK_SHFL       ? "srcLane"
                          : sk == WL_BK_SHFL_XOR ? "laneMask"
                                                 : "delta";
    char opdesc[96];
    if (lead != WL_LEAD_NONE)
      snprintf(opdesc, sizeof opdesc, "the mask's %s lane",
               lead == WL_LEAD_LOW ? "lowest" : "highest");
    else
      snprintf(opdesc, sizeof opdesc, "%s %lld", operand, fl.v);
    const char *fix =
        sk == WL_BK_SHFL && lead == WL_LEAD_NONE
            ? "read from a lane the mask is known to hold (the leader __ffs(mask) - 1), or run "
              "the shuffle where the whole warp is, with 0xffffffff"
            : "run the shuffle where the whole warp is, with 0xffffffff, and let the lanes "
              "outside the condition contribute a neutral value (0 for a sum), or keep every "
              "source inside the mask (segments of a width that the mask covers)";
    const wl_macro_info *mi;
    wl_range at = wl_wording_site(ctx->tu, call, &mi);
    wl_finding *fd = wl_report_range(
        ctx, at, mi,
        "'%s' may read from a lane outside its mask: when %s holds lanes %s%s%s, lane %u reads "
        "lane %u (%s, width %lld), which is not in the mask, and gets an undefined value; %s",
        call->name, what, lanes, why[0] ? ", " : "", why, fl.lane, fl.from, opdesc, width, fix);
    if (fd && origin && origin != wl_expr_strip(mask) && origin->range.begin.file)
      wl_note_at(ctx, fd, origin->loc, "the mask is computed here");
  }
}
