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
#include "local_values.h"
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

/* ---- where a shuffle reads from -------------------------------------------- */

typedef struct lane_eval {
  const wl_lanes *l;
  const wl_func *f;
  unsigned lane;
  int depth;
} lane_eval;

/* Whether e's value, for every lane, is known modulo 32 from the lane id
 * alone: constants, thread ids (the lane plus a multiple of 32), and + - *
 * & | ^ ~ << and % by a power of two up to 32 of such values (the low five
 * bits of their results depend only on the low five bits of the operands),
 * through locals that only their initializer sets. */
static bool lane_congruent(const wl_lanes *l, const wl_func *f, const wl_expr *e, int depth) {
  long long c;
  e = wl_expr_strip(e);
  if (!e || depth > 16)
    return false;
  if (wl_lanes_expr_tid_like(l, e) || wl_consteval(e, &c))
    return true;
  if (e->kind == WL_E_REF) {
    const wl_expr *r = f ? wl_local_resolve(f, e) : NULL;
    return r && r != e && lane_congruent(l, f, r, depth + 1);
  }
  if (e->kind == WL_E_UNARY && e->nargs == 1 &&
      (e->op == WL_U_PLUS || e->op == WL_U_MINUS || e->op == WL_U_NOT))
    return lane_congruent(l, f, e->args[0], depth + 1);
  if (e->kind != WL_E_BINARY || e->nargs != 2)
    return false;
  switch (e->op) {
  case WL_B_ADD:
  case WL_B_SUB:
  case WL_B_MUL:
  case WL_B_AND:
  case WL_B_OR:
  case WL_B_XOR:
    return lane_congruent(l, f, e->args[0], depth + 1) &&
           lane_congruent(l, f, e->args[1], depth + 1);
  case WL_B_SHL: return wl_consteval(e->args[1], &c) && lane_congruent(l, f, e->args[0], depth + 1);
  case WL_B_REM:
    return wl_consteval(e->args[1], &c) && c > 0 && c <= 32 && (c & (c - 1)) == 0 &&
           lane_congruent(l, f, e->args[0], depth + 1);
  default: return false;
  }
}

/* Binds thread ids to the lane being tried, and follows locals (lane_congruent). */
static bool lane_eval_hook(const wl_expr *e, long long *out, void *ud) {
  lane_eval *le = ud;
  const wl_expr *s = wl_expr_strip(e);
  if (s && wl_lanes_expr_tid_like(le->l, s)) {
    *out = le->lane;
    return true;
  }
  if (s && s->kind == WL_E_REF && le->f && le->depth < 16) {
    const wl_expr *r = wl_local_resolve(le->f, s);
    if (r && r != s) {
      le->depth++;
      bool ok = wl_consteval_ex(r, lane_eval_hook, le, out);
      le->depth--;
      return ok;
    }
  }
  return false;
}

/* Whether e, an expression of f, has the same known value *v wherever f
 * runs: a constant, or a parameter of f that every call of f in the file
 * passes such a value (or leaves out, its default argument being one):
 * ccminer's `WarpShuffle(a, b, c)` wrappers, whose width `c` every caller
 * passes as 4. A function with no call in the file: unknown. */
static bool same_everywhere(const wl_lanes *l, const wl_func *f, const wl_expr *e, long long *v,
                            int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (wl_consteval(e, v))
    return true;
  const wl_var *p = e->kind == WL_E_REF ? e->var : NULL;
  if (!f || !p || !(p->flags & WL_V_PARAM) || (f->flags & (WL_F_METHOD | WL_F_LAMBDA)) ||
      p->param_index < 0 || (unsigned)p->param_index >= f->nparams ||
      f->params[p->param_index] != p)
    return false;
  const wl_expr *const *calls;
  size_t nc = wl_lanes_calls_of(l, f, &calls);
  if (nc == 0)
    return false;
  for (size_t i = 0; i < nc; i++) {
    const wl_expr *c = calls[i];
    if (c->callee != f)
      return false;
    const wl_expr *a = (unsigned)p->param_index < c->nargs ? c->args[p->param_index] : p->init;
    long long x;
    if (!a || !same_everywhere(l, wl_lanes_func_of_expr(l, c), a, &x, depth + 1) ||
        (i > 0 && x != *v))
      return false;
    *v = x;
  }
  return true;
}

/* For an operand e of a collective of f judged at one call `site` of f
 * (NULL: wherever f runs): a parameter of f becomes the argument that site
 * passes (or its default argument), to be read in the site's function *fe. */
static const wl_expr *at_site(const wl_lanes *l, const wl_func *f, const wl_expr *site,
                              const wl_expr *e, const wl_func **fe) {
  *fe = f;
  const wl_expr *s = wl_expr_strip(e);
  const wl_var *p = s && s->kind == WL_E_REF ? s->var : NULL;
  if (!site || !f || !p || !(p->flags & WL_V_PARAM) || p->param_index < 0 ||
      (unsigned)p->param_index >= f->nparams || f->params[p->param_index] != p ||
      wl_lanes_callee(l, site) != f)
    return e;
  const wl_expr *a = wl_lanes_call_arg(l, site, (unsigned)p->param_index);
  if (!a)
    a = p->init;
  if (!a)
    return e;
  *fe = wl_lanes_func_of_expr(l, site);
  return a;
}

/* The width of shuffle `call` of f: 32 when left out, else its value when
 * it is the same wherever f runs (same_everywhere), or at `site` when given;
 * false when unknown or not in 1..32. */
static bool shuffle_width(const wl_lanes *l, const wl_func *f, const wl_expr *call,
                          const wl_expr *site, long long *width) {
  const wl_func *fw = f;
  const wl_expr *wexpr = wl_collective_width(call);
  if (wexpr)
    wexpr = at_site(l, f, site, wexpr, &fw);
  *width = 32;
  return (!wexpr || same_everywhere(l, fw, wexpr, width, 0)) && *width >= 1 && *width <= 32;
}

/* The lane `lane` reads from at shuffle `call`, -1 when unknown: the source
 * operand is a constant, or (for __shfl, with a power-of-two width) a value
 * known modulo 32 from the lane id, such as (threadIdx.x + 1) & 7. */
static long long source_lane(const wl_lanes *l, const wl_func *f, const wl_expr *call,
                             const wl_expr *site, const wl_builtin *co, unsigned lane) {
  unsigned si = (unsigned)co->src_arg;
  const wl_expr *src = co->src_arg >= 0 && call->nargs > si ? call->args[si] : NULL;
  long long off, width;
  if (!src || !wl_builtin_is_shuffle(co) || !shuffle_width(l, f, call, site, &width))
    return -1;
  src = at_site(l, f, site, src, &f);
  if (!wl_consteval(src, &off)) {
    lane_eval le = {l, f, lane, 0};
    if (co->kind != WL_BK_SHFL || (width & (width - 1)) != 0 || !lane_congruent(l, f, src, 0) ||
        !wl_consteval_ex(src, lane_eval_hook, &le, &off))
      return -1;
    off = ((off % 32) + 32) % 32;
  }
  long long from = wl_builtin_shuffle_source(co->kind, lane, off, width);
  return from < 0 || from > 31 ? -1 : from;
}

/* For a shuffle reached by exactly the lanes of `set`: whether every lane
 * reads from a lane of the set (or keeps its own value at a segment edge).
 * A lane outside the mask gives an undefined value, so a mask fix is only
 * trusted when this holds. Sources that cannot be computed: false. With a
 * `site` (a call of f), f's parameters are the arguments of that call. */
static bool sources_inside(const wl_lanes *l, const wl_func *f, const wl_expr *call,
                           const wl_expr *site, const wl_builtin *co, unsigned set) {
  /* __shfl_up reads its own lane or a lower one of its segment, whatever the
   * delta and width: inside any prefix of the warp; __shfl_down, inside any
   * suffix */
  if (co->kind == WL_BK_SHFL_UP && (set & (set + 1u)) == 0)
    return true;
  if (co->kind == WL_BK_SHFL_DOWN && (~set & (~set + 1u)) == 0)
    return true;
  /* __shfl, __shfl_up and __shfl_down with a power-of-two width w read inside
   * the reader's own w-lane segment (lane & ~(w - 1)) whatever the source
   * operand (an index taken modulo w, or a delta that falls back on the
   * lane's own value at the segment's edge): inside any set made of whole
   * segments, such as the lanes of `thread < threads` with thread a thread id
   * divided by w (to_bitslice_quad's `__shfl(x, n ^ (3 * (n >= 1 && n <= 2)),
   * 4)`, the 8-lane segments of x11 SIMD's Expansion) */
  long long w;
  if ((co->kind == WL_BK_SHFL || co->kind == WL_BK_SHFL_UP || co->kind == WL_BK_SHFL_DOWN) &&
      shuffle_width(l, f, call, site, &w) && (w & (w - 1)) == 0) {
    bool whole = true;
    unsigned seg = w == 32 ? ~0u : (1u << w) - 1u;
    for (unsigned b = 0; b < 32 && whole; b += (unsigned)w) {
      unsigned part = (set >> b) & seg;
      whole = part == 0 || part == seg;
    }
    if (whole)
      return true;
  }
  for (unsigned lane = 0; lane < 32; lane++) {
    if (!(set >> lane & 1u))
      continue;
    long long from = source_lane(l, f, call, site, co, lane);
    if (from < 0 || !(set >> from & 1u))
      return false;
  }
  return true;
}

/* ---- grid tails ------------------------------------------------------------ */

/* Whether e is a thread id plus warp-uniform terms (one more in each next
 * lane); *seg receives 1, or D for such a value divided by D (or shifted
 * right by log2 D), D a power of two up to 32: the same in each D-lane
 * segment, one more in the next. */
static bool tid_linear(const wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg,
                       int depth);

bool wl_tid_linear(const wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg) {
  return tid_linear(l, f, e, seg, 0);
}

/* threadIdx.<dim>, through casts. */
static bool is_tid_dim(const wl_expr *e, const char *dim) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_MEMBER || e->nargs < 1 || !e->name || strcmp(e->name, dim) != 0)
    return false;
  const wl_expr *b = wl_expr_strip(e->args[0]);
  return b && b->kind == WL_E_REF && b->var && (b->var->flags & WL_V_GLOBAL) && b->var->name &&
         strcmp(b->var->name, "threadIdx") == 0;
}

static bool tid_linear(const wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg,
                       int depth) {
  long long c;
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (wl_lanes_expr_tid_like(l, e)) {
    *seg = 1;
    return true;
  }
  /* threadIdx.y of a kernel that every launch in the file gives blocks B
   * wide and 1 deep, B a power of two up to 32: the hardware numbers the
   * threads x first, so threadIdx.y is the linear thread id divided by B (the
   * same in each B-lane segment, one more in the next): ccminer's lyra2
   * kernels launched with `dim3 block(4, tpb / 4)` */
  unsigned bx;
  bool z1;
  if (f && (f->flags & WL_F_GLOBAL) && is_tid_dim(e, "y") &&
      wl_lanes_launch_block_x(l, f, &bx, &z1) && z1 && bx <= 32 && (bx & (bx - 1)) == 0) {
    *seg = bx;
    return true;
  }
  if (e->kind == WL_E_REF) {
    const wl_expr *r = f ? wl_local_resolve(f, e) : NULL;
    return r && r != e && tid_linear(l, f, r, seg, depth + 1);
  }
  if (e->kind != WL_E_BINARY || e->nargs != 2)
    return false;
  if ((e->op == WL_B_ADD || e->op == WL_B_SUB) && !wl_lanes_expr_dependent(l, e->args[1]))
    return tid_linear(l, f, e->args[0], seg, depth + 1);
  if (e->op == WL_B_ADD && !wl_lanes_expr_dependent(l, e->args[0]))
    return tid_linear(l, f, e->args[1], seg, depth + 1);
  if ((e->op == WL_B_DIV || e->op == WL_B_SHR) && wl_consteval(e->args[1], &c)) {
    long long d = e->op == WL_B_DIV ? c : (c >= 0 && c <= 5 ? 1LL << c : 0);
    unsigned inner;
    if (d < 1 || d > 32 || (d & (d - 1)) != 0 || !tid_linear(l, f, e->args[0], &inner, depth + 1) ||
        inner != 1)
      return false;
    *seg = (unsigned)d;
    return true;
  }
  return false;
}

/* Whether e rises with the thread id and is never negative: a thread id plus
 * warp-uniform terms (no subtraction), or such a value divided by a power of
 * two up to 32 (tid_linear gives *seg). */
static bool tid_rising(const wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg,
                       int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (e->kind == WL_E_REF) {
    const wl_expr *r = f ? wl_local_resolve(f, e) : NULL;
    return r && r != e && tid_rising(l, f, r, seg, depth + 1);
  }
  if (e->kind == WL_E_BINARY && e->nargs == 2 && e->op == WL_B_ADD) {
    if (!wl_lanes_expr_dependent(l, e->args[1]))
      return tid_rising(l, f, e->args[0], seg, depth + 1);
    return !wl_lanes_expr_dependent(l, e->args[0]) && tid_rising(l, f, e->args[1], seg, depth + 1);
  }
  if (e->kind == WL_E_BINARY && e->op == WL_B_SUB)
    return false;
  return tid_linear(l, f, e, seg, depth);
}

/* Whether e (through locals) is such a rising thread id divided by, or
 * shifted right by, a warp-uniform value: zero exactly for the thread ids
 * below a bound, so that `e == 0` keeps a prefix of the warp (ccminer's
 * `warp_id = threadIdx.x / width; if (warp_id == 0)`, with a width chosen at
 * run time). */
static bool tid_quotient(const wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg,
                         int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (e->kind == WL_E_REF) {
    const wl_expr *r = f ? wl_local_resolve(f, e) : NULL;
    return r && r != e && tid_quotient(l, f, r, seg, depth + 1);
  }
  if (e->kind != WL_E_BINARY || e->nargs != 2 || (e->op != WL_B_DIV && e->op != WL_B_SHR) ||
      wl_lanes_expr_dependent(l, e->args[1]))
    return false;
  return tid_rising(l, f, e->args[0], seg, 0);
}

bool wl_quotient_cond(const wl_lanes *l, const wl_func *f, const wl_expr *cond, int side,
                      unsigned *seg, bool *below) {
  long long c;
  cond = wl_expr_strip(cond);
  if (!cond || side < 0)
    return false;
  const wl_expr *q = NULL;
  bool zero_side = side == 1; /* whether the lanes of `side` have q == 0 */
  if (cond->kind == WL_E_UNARY && cond->op == WL_U_LNOT && cond->nargs == 1)
    q = cond->args[0];
  else if (cond->kind == WL_E_BINARY && cond->nargs == 2 &&
           (cond->op == WL_B_EQ || cond->op == WL_B_NE)) {
    q = wl_consteval(cond->args[1], &c) && c == 0   ? cond->args[0]
        : wl_consteval(cond->args[0], &c) && c == 0 ? cond->args[1]
                                                    : NULL;
    zero_side = (cond->op == WL_B_EQ) == (side == 1);
  }
  if (!q || !tid_quotient(l, f, q, seg, 0))
    return false;
  *below = zero_side;
  return true;
}

/* threadIdx.z or blockDim.z (a member z of either). */
static bool z_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  bool *found = ud;
  const wl_expr *b = e->kind == WL_E_MEMBER && e->nargs >= 1 ? wl_expr_strip(e->args[0]) : NULL;
  if (b && e->name && strcmp(e->name, "z") == 0 && b->kind == WL_E_REF && b->var &&
      (b->var->flags & WL_V_GLOBAL) && b->var->name &&
      (strcmp(b->var->name, "threadIdx") == 0 || strcmp(b->var->name, "blockDim") == 0))
    *found = true;
  return !*found;
}

/* Whether kernel f's blocks are taken to be one deep: the launches of f in
 * the file fix its block width and each gives z 1, or (no such launches) f's
 * own code reads neither threadIdx.z nor blockDim.z (the kernel's own
 * evidence of its shape: a block deeper than 1 would run each (x, y)
 * thread's work again in every z-slice). */
static bool one_deep(const wl_lanes *l, const wl_func *f) {
  unsigned bx;
  bool z1;
  if (!f || !f->body)
    return false;
  if (wl_lanes_launch_block_x(l, f, &bx, &z1))
    return z1;
  bool z = false;
  wl_visitor v = {NULL, z_expr, &z, true};
  wl_walk_stmt(f->body, &v);
  return !z;
}

/* Whether e, an expression of kernel f, is a row index of the block that
 * rises with the lane: threadIdx.z, or threadIdx.y in a kernel whose blocks
 * are one deep (one_deep), plus or minus warp-uniform terms (no warp-uniform
 * value minus it). The hardware numbers threads x first, then y, then z, and
 * cuts warps from that order, so along the lanes of a warp such a row index
 * never falls: a bound on it keeps a prefix (or a suffix) of the warp, whose
 * length the code does not say (rows of unknown width). */
static bool row_index(const wl_lanes *l, const wl_func *f, const wl_expr *e, int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8 || !f || !(f->flags & WL_F_GLOBAL))
    return false;
  if (is_tid_dim(e, "z"))
    return true;
  if (is_tid_dim(e, "y"))
    return one_deep(l, f);
  if (e->kind == WL_E_REF) {
    const wl_expr *r = wl_local_resolve(f, e);
    return r && r != e && row_index(l, f, r, depth + 1);
  }
  if (e->kind != WL_E_BINARY || e->nargs != 2 || (e->op != WL_B_ADD && e->op != WL_B_SUB))
    return false;
  if (!wl_lanes_expr_dependent(l, e->args[1]))
    return row_index(l, f, e->args[0], depth + 1);
  return e->op == WL_B_ADD && !wl_lanes_expr_dependent(l, e->args[0]) &&
         row_index(l, f, e->args[1], depth + 1);
}

/* Whether cond (through !) keeps the lanes below a bound on its side
 * `side`: *below is whether those are the low lanes of the warp, *seg the
 * size of the segments that pass or fail together. With `rows`, a row index
 * of the block (row_index) compared with a warp-uniform bound counts too,
 * as segments of one lane (the rows' width is not known). */
static bool prefix_cond(const wl_lanes *l, const wl_func *f, const wl_expr *cond, int side,
                        bool rows, unsigned *seg, bool *below) {
  long long c;
  cond = wl_expr_strip(cond);
  if (!cond)
    return false;
  if (cond->kind == WL_E_UNARY && cond->op == WL_U_LNOT && cond->nargs == 1) {
    if (tid_quotient(l, f, cond->args[0], seg, 0)) { /* !q is q == 0 */
      *below = side == 1;
      return true;
    }
    return prefix_cond(l, f, cond->args[0], !side, rows, seg, below);
  }
  if (cond->kind != WL_E_BINARY || cond->nargs != 2)
    return false;
  int op = cond->op;
  const wl_expr *a = cond->args[0], *b = cond->args[1];
  bool lo;
  if (op == WL_B_EQ || op == WL_B_NE) {
    const wl_expr *q = wl_consteval(b, &c) && c == 0 ? a : wl_consteval(a, &c) && c == 0 ? b : NULL;
    if (!q || !tid_quotient(l, f, q, seg, 0))
      return false;
    lo = op == WL_B_EQ;
  } else if (op != WL_B_LT && op != WL_B_LE && op != WL_B_GT && op != WL_B_GE)
    return false;
  else if (!wl_lanes_expr_dependent(l, b) && tid_linear(l, f, a, seg, 0))
    lo = op == WL_B_LT || op == WL_B_LE;
  else if (!wl_lanes_expr_dependent(l, a) && tid_linear(l, f, b, seg, 0))
    lo = op == WL_B_GT || op == WL_B_GE;
  else if (rows && !wl_lanes_expr_dependent(l, b) && row_index(l, f, a, 0)) {
    *seg = 1;
    lo = op == WL_B_LT || op == WL_B_LE;
  } else if (rows && !wl_lanes_expr_dependent(l, a) && row_index(l, f, b, 0)) {
    *seg = 1;
    lo = op == WL_B_GT || op == WL_B_GE;
  } else
    return false;
  *below = lo == (side == 1);
  return true;
}

/* The lane sets that may take side `side` of cond: a prefix {0..k-1} (or a
 * suffix) of the warp made of whole segments, for a thread id compared with
 * a warp-uniform bound, or a rising thread id's quotient by a warp-uniform
 * value compared with zero (== 0, != 0, !q). Returns how many sets (0: not
 * such a condition). */
static unsigned prefix_sets(const wl_lanes *l, const wl_func *f, const wl_expr *cond, int side,
                            bool rows, unsigned *sets) {
  unsigned seg = 0;
  bool prefix;
  if (side < 0 || !prefix_cond(l, f, cond, side, rows, &seg, &prefix))
    return 0;
  unsigned n = 0;
  for (unsigned k = seg; k < 32; k += seg)
    sets[n++] = prefix ? (1u << k) - 1 : ~((1u << k) - 1);
  sets[n++] = ~0u;
  return n;
}

/* threadIdx.y or threadIdx.z. */
static bool is_tid_yz(const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_MEMBER || e->nargs < 1 || !e->name ||
      (strcmp(e->name, "y") != 0 && strcmp(e->name, "z") != 0))
    return false;
  const wl_expr *b = wl_expr_strip(e->args[0]);
  return b && b->kind == WL_E_REF && b->var && (b->var->flags & WL_V_GLOBAL) && b->var->name &&
         strcmp(b->var->name, "threadIdx") == 0;
}

/* Whether e is a thread index of a grid tail: a thread id (tid_linear), or
 * threadIdx.y or threadIdx.z plus warp-uniform terms (`blockDim.y *
 * blockIdx.x + threadIdx.y`, one row of a 2-D block per item: the same in
 * each row, one more in the next, so a bound on it keeps whole rows of a
 * prefix of the warp, whose width the code does not say). */
static bool tail_index(const wl_lanes *l, const wl_func *f, const wl_expr *e, int depth) {
  unsigned seg;
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (tid_linear(l, f, e, &seg, 0) || is_tid_yz(e))
    return true;
  if (e->kind == WL_E_REF) {
    const wl_expr *r = f ? wl_local_resolve(f, e) : NULL;
    return r && r != e && tail_index(l, f, r, depth + 1);
  }
  if (e->kind != WL_E_BINARY || e->nargs != 2 || (e->op != WL_B_ADD && e->op != WL_B_SUB))
    return false;
  if (!wl_lanes_expr_dependent(l, e->args[1]))
    return tail_index(l, f, e->args[0], depth + 1);
  return e->op == WL_B_ADD && !wl_lanes_expr_dependent(l, e->args[0]) &&
         tail_index(l, f, e->args[1], depth + 1);
}

/* Whether cond compares a tail index with a warp-uniform bound that is not a
 * constant (through !). */
static bool tail_compare(const wl_lanes *l, const wl_func *f, const wl_expr *cond) {
  long long c;
  cond = wl_expr_strip(cond);
  if (cond && cond->kind == WL_E_UNARY && cond->op == WL_U_LNOT && cond->nargs == 1)
    return tail_compare(l, f, cond->args[0]);
  if (!cond || cond->kind != WL_E_BINARY || cond->nargs != 2 ||
      (cond->op != WL_B_LT && cond->op != WL_B_LE && cond->op != WL_B_GT && cond->op != WL_B_GE))
    return false;
  const wl_expr *a = cond->args[0], *b = cond->args[1];
  if (!wl_lanes_expr_dependent(l, b) && !wl_consteval(b, &c) && tail_index(l, f, a, 0))
    return true;
  return !wl_lanes_expr_dependent(l, a) && !wl_consteval(a, &c) && tail_index(l, f, b, 0);
}

/* A warp collective, or a call of a function of the file (which may run one). */
static bool warp_op_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  bool *found = ud;
  if (e->kind == WL_E_CALL && (wl_collective_of(e) || (e->callee && e->callee->body)))
    *found = true;
  return !*found;
}

/* Whether `ifs`, reached as restriction r of a call, is a grid-tail guard of
 * kernel f: a statement of the kernel's body, either the last one (nothing
 * but returns after it, no else) taken on its true side, or `if (cond)
 * return;` with the call after it (the return may follow statements that
 * hold no warp operation). Either way the lanes that do not pass it
 * reach no other statement of the kernel, and cond compares a thread index
 * (tail_index) with a bound that is not a constant. *pass_side: the side of cond of the lanes
 * that go on. */
static bool grid_tail(const wl_lanes *l, const wl_func *f, const wl_lane_reach *r, int *pass_side) {
  const wl_stmt *ifs = r->stmt;
  if (!f || !(f->flags & WL_F_GLOBAL) || !f->body || f->body->kind != WL_S_COMPOUND || !ifs ||
      ifs->kind != WL_S_IF || !ifs->expr || ifs->init)
    return false;
  /* a thread id against a bound known only at run time (a constant bound
   * leaves out lanes the code names: not a grid tail) */
  if (!tail_compare(l, f, ifs->expr))
    return false;
  unsigned at = f->body->nkids;
  for (unsigned i = 0; i < f->body->nkids; i++)
    if (f->body->kids[i] == ifs)
      at = i;
  if (at == f->body->nkids)
    return false;
  if (r->kind == WL_LR_IF) {
    if (r->side != 1 || ifs->else_s)
      return false;
    for (unsigned i = at + 1; i < f->body->nkids; i++)
      if (f->body->kids[i]->kind != WL_S_RETURN && f->body->kids[i]->kind != WL_S_NULL)
        return false;
    *pass_side = 1;
    return true;
  }
  if (r->kind != WL_LR_EXIT || !r->exit || r->exit->kind != WL_S_RETURN || ifs->else_s)
    return false;
  const wl_stmt *t = ifs->then_s;
  if (t && t->kind == WL_S_COMPOUND && t->nkids >= 1 && t->kids[t->nkids - 1] == r->exit) {
    /* `if (tid >= C) { maxvals[warp] = -INFINITY; return; }`: what the leaving
     * lanes do first must hold no warp operation */
    bool warp_op = false;
    wl_visitor v = {NULL, warp_op_expr, &warp_op, true};
    for (unsigned i = 0; i + 1 < t->nkids && !warp_op; i++)
      wl_walk_stmt(t->kids[i], &v);
    if (warp_op)
      return false;
    t = r->exit;
  }
  if (t != r->exit)
    return false;
  *pass_side = 0;
  return true;
}

typedef struct tail_find {
  const wl_func *kernel;
  const wl_stmt *guard;
  int side;
} tail_find;

/* Whether every call of f (through its callers, transitively) is reached by
 * whole warps or lies directly under a grid-tail guard of a kernel (and under
 * nothing else lane-dependent); the first guard found goes to *tf. */
static bool called_only_at_tails(const wl_lanes *l, const wl_func *f, tail_find *tf, int depth) {
  const wl_expr *const *calls;
  size_t nc = wl_lanes_calls_of(l, f, &calls);
  if (nc == 0 || depth > 8)
    return false;
  for (size_t i = 0; i < nc; i++) {
    const wl_expr *c = calls[i];
    if (wl_lanes_whole_warp(l, c))
      continue;
    wl_lane_reach r[2];
    size_t n = wl_lanes_restrictions(l, c, r, 2);
    const wl_func *cf = wl_lanes_func_of_expr(l, c);
    int side;
    if (n == 0) {
      if (!cf || !called_only_at_tails(l, cf, tf, depth + 1))
        return false;
    } else if (n == 1 && !r[0].caller_partial && grid_tail(l, cf, &r[0], &side)) {
      if (!tf->guard) {
        tf->kernel = cf;
        tf->guard = r[0].stmt;
        tf->side = side;
      }
    } else
      return false;
  }
  return true;
}

/* The note of a full-mask fix under a grid tail. */
static void tail_note(wl_mask_fixer *mf, const wl_stmt *guard, bool exits_early, bool sources_ok,
                      bool in_callee) {
  const char *cond = guard->expr ? wl_source_text(mf->ctx, guard->expr->range) : NULL;
  const char *file = guard->range.begin.file ? guard->range.begin.file : "";
  const char *base = strrchr(file, '/');
  char what[320];
  if (cond)
    snprintf(what, sizeof what, "'%.200s' (line %u)", cond, guard->range.begin.line);
  else
    snprintf(what, sizeof what, "at %.200s:%u", base ? base + 1 : file, guard->range.begin.line);
  snprintf(mf->tail_note, sizeof mf->tail_note,
           "full mask: %s the grid-tail guard %s, whose other lanes %s the kernel without "
           "another warp operation; a *_sync collective waits only for lanes that have not "
           "exited%s",
           in_callee ? "this function is called only under" : "the call is under", what,
           exits_early ? "return from" : "run to the end of",
           sources_ok ? ""
                      : " (a lane that reads from a lane past the tail gets an undefined value, as "
                        "with the legacy call)");
}

/* Whether sources stay inside every set of the prefix family of cond (side)
 * of kernel fk; `rows`: a grid-tail guard, which may bound a row index
 * (prefix_cond); `site`: a call of f to judge the collective at
 * (sources_inside). */
static bool sources_in_family(const wl_lanes *l, const wl_func *fk, const wl_expr *cond, int side,
                              bool rows, const wl_func *f, const wl_expr *call, const wl_expr *site,
                              const wl_builtin *co) {
  unsigned sets[33];
  if (!co || !wl_builtin_is_shuffle(co))
    return true; /* votes combine only the lanes of the mask */
  unsigned n = cond ? prefix_sets(l, fk, cond, side, rows, sets) : 0;
  if (n == 0)
    return false;
  for (unsigned i = 0; i < n; i++)
    if (!sources_inside(l, f, call, site, co, sets[i]))
      return false;
  return true;
}

/* ---- Listing 13 -------------------------------------------------------------- */

typedef struct twin_find {
  const char *name;
  const wl_expr *found;
} twin_find;

static bool twin_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  twin_find *tw = ud;
  if (!tw->found && e->kind == WL_E_CALL && e->name && strcmp(e->name, tw->name) == 0)
    tw->found = e;
  return !tw->found;
}

/* The first __syncwarp() statement of block s (its direct statements). */
static const wl_stmt *first_syncwarp(const wl_stmt *s) {
  if (!s || s->kind != WL_S_COMPOUND)
    return NULL;
  for (unsigned i = 0; i < s->nkids; i++) {
    const wl_stmt *k = s->kids[i];
    const wl_expr *e = k->kind == WL_S_EXPR ? wl_expr_strip(k->expr) : NULL;
    if (wl_builtin_call(e, WL_BK_SYNCWARP, WL_BF_INTRINSIC) &&
        (e->nargs == 0 || wl_consteval_is_full_mask(e->args[0])))
      return k;
  }
  return NULL;
}

/* Listing 13: `if (c) { __syncwarp(); v = __shfl(v, 0); ... } else {
 * __syncwarp(); v = __shfl(v, 0); ... }`: the same legacy collective in both
 * arms of an if that the whole warp reaches, each arm opening with a
 * __syncwarp() before it. Every lane runs one of the two calls and the code
 * meant them to exchange across the arms: the full mask does that on sm_70+
 * (a per-arm mask would read lanes of the other arm: undefined). */
static bool listing13(const wl_lanes *l, const wl_expr *call, const wl_lane_reach *r) {
  const wl_stmt *ifs = r->stmt;
  if (r->kind != WL_LR_IF || r->side < 0 || !ifs || !ifs->then_s || !ifs->else_s ||
      r->caller_partial)
    return false;
  wl_lane_reach ir;
  if (!wl_lanes_reach_stmt(l, ifs, &ir) || ir.partial || ir.caller_partial)
    return false;
  const wl_stmt *mine = r->side ? ifs->then_s : ifs->else_s;
  const wl_stmt *other = r->side ? ifs->else_s : ifs->then_s;
  const wl_stmt *s1 = first_syncwarp(mine), *s2 = first_syncwarp(other);
  if (!s1 || !s2 || s1->range.end.offset > call->range.begin.offset)
    return false;
  twin_find tw = {call->name, NULL};
  wl_visitor v = {NULL, twin_expr, &tw, false};
  wl_walk_stmt(other, &v);
  if (!tw.found || tw.found->range.begin.offset < s2->range.end.offset)
    return false;
  wl_lane_reach rr[2];
  return wl_lanes_restrictions(l, tw.found, rr, 2) == 1 && rr[0].stmt == ifs;
}

/* ---- the decision --------------------------------------------------------- */

/* The full mask, with the note in mf->tail_note. */
static wl_mask_choice full_noted(char *mask, size_t masksz) {
  snprintf(mask, masksz, "0xffffffff");
  return WL_MASK_FULL_NOTED;
}

wl_mask_choice wl_choose_mask(wl_mask_fixer *mf, const wl_expr *call, char *mask, size_t masksz,
                              const wl_stmt **hoist_before, char **hoist_text, const char **why) {
  *hoist_text = NULL;
  *why = NULL;
  mf->tail_note[0] = 0;
  mf->why_not_hoisted = NULL;
  mf->tail_exact = false;
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
  const wl_func *f = wl_lanes_func_of_expr(l, call);
  const wl_builtin *co = wl_collective_of(call);
  wl_lane_reach r[4];
  size_t n = wl_lanes_restrictions(l, call, r, 4);
  if (n == 0) {
    tail_find tf = {NULL, NULL, 0};
    if (f && called_only_at_tails(l, f, &tf, 0) && tf.guard) {
      bool src_ok =
          sources_in_family(l, tf.kernel, tf.guard->expr, tf.side, true, f, call, NULL, co);
      tail_note(mf, tf.guard, tf.side == 0, src_ok, true);
      mf->tail_exact = src_ok;
      mf->why_not_hoisted = "its function is called where only part of a warp runs";
      return full_noted(mask, masksz);
    }
    *why = "its function is called where only part of a warp runs";
    return WL_MASK_NONE;
  }
  if (n > 1) {
    *why = "more than one lane-dependent condition decides which lanes get here";
    return WL_MASK_NONE;
  }
  if (listing13(l, call, &r[0])) {
    snprintf(mf->tail_note, sizeof mf->tail_note,
             "full mask: the other arm of the if (line %u) runs the same '%s' after a "
             "__syncwarp() too, so every lane of the warp takes part (Listing 13); a mask of one "
             "arm would read lanes of the other (undefined values)",
             r[0].stmt->range.begin.line, call->name);
    mf->why_not_hoisted = "every lane of the warp runs this call or its twin in the other arm of "
                          "the if, so no mask of one arm is right";
    return full_noted(mask, masksz);
  }
  int pass = r[0].side;
  bool tail = !r[0].caller_partial && grid_tail(l, f, &r[0], &pass);
  const wl_stmt *ifs = r[0].stmt;
  const wl_expr *cond = r[0].kind == WL_LR_EXIT && ifs ? ifs->expr : r[0].cond;
  if (!tail && (r[0].kind != WL_LR_IF || !cond || r[0].side < 0)) {
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
  wl_lane_reach ir;
  const char *text = NULL;
  if (!wl_lanes_reach_stmt(l, ifs, &ir) || ir.partial || ir.caller_partial)
    *why = "the branch itself is reached by only part of a warp";
  else if (ifs->init || !cond || !wl_builtin_pure_expr(cond))
    *why = "the branch condition has side effects or declares a variable";
  else if (!f || !wl_stmt_parent(f, ifs) || wl_stmt_parent(f, ifs)->kind != WL_S_COMPOUND)
    *why = "the branch is not a statement of a block where a declaration can go";
  else if (ifs->macro || cond->macro)
    *why = "the branch comes from a macro";
  else if (!(text = wl_source_text(mf->ctx, cond->range)) || !ifs->range.begin.file ||
           !wl_tu_in_main(tu, ifs->range.begin))
    *why = "the branch condition is not plain source text of this file";
  else if (mf->no_hoist)
    *why = "the call comes from a macro";
  bool src_ok = true;
  if (co && wl_builtin_is_shuffle(co)) {
    unsigned set = 0;
    src_ok =
        (wl_lanes_reaching_lanes(l, call, &set) && sources_inside(l, f, call, NULL, co, set)) ||
        sources_in_family(l, f, cond, pass, tail, f, call, NULL, co);
    if (!src_ok && !*why)
      *why = "the shuffle may read from lanes outside the branch's mask (undefined values): move "
             "the shuffle where every lane it reads from runs it";
  }
  if (*why) {
    if (!tail)
      return WL_MASK_NONE;
    mf->why_not_hoisted = *why;
    *why = NULL;
    tail_note(mf, ifs, r[0].kind == WL_LR_EXIT, src_ok, false);
    mf->tail_exact = src_ok;
    return full_noted(mask, masksz);
  }
  mf->tail_exact = tail && src_ok;
  mask_name(mf, f, ifs, pass, mask, masksz);
  wl_buf t;
  wl_buf_init(&t);
  wl_buf_printf(&t, "unsigned %s = __ballot_sync(0xffffffff, %s%s%s);", mask, pass ? "" : "!(",
                text, pass ? "" : ")");
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
    else if (c == WL_MASK_FULL_NOTED)
      *why = mf->why_not_hoisted;
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

bool wl_full_mask_ok_at_tail(wl_mask_fixer *mf, const wl_expr *call) {
  char mask[64];
  const wl_stmt *at = NULL;
  char *hoist = NULL;
  const char *why = NULL;
  wl_mask_choice c = wl_choose_mask(mf, call, mask, sizeof mask, &at, &hoist, &why);
  free(hoist);
  return (c == WL_MASK_FULL_NOTED || c == WL_MASK_HOISTED) && mf->tail_exact;
}

bool wl_full_mask_ok_at_tail_site(wl_mask_fixer *mf, const wl_expr *site, const wl_expr *call) {
  const wl_lanes *l = wl_an_lanes(mf->ctx->an);
  const wl_func *fc = l ? wl_lanes_func_of_expr(l, call) : NULL;
  if (!fc || site == call || wl_lanes_callee(l, site) != fc)
    return false;
  const wl_func *f = wl_lanes_func_of_expr(l, site);
  wl_lane_reach r[2];
  int side;
  if (wl_lanes_restrictions(l, site, r, 2) != 1 || r[0].caller_partial ||
      !grid_tail(l, f, &r[0], &side))
    return false;
  return sources_in_family(l, f, r[0].stmt->expr, side, true, fc, call, site,
                           wl_collective_of(call));
}
