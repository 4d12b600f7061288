/* lanes.c - the lane/divergence analysis of lanes.h.
 *
 * Each function is walked in source order with a persistent stack of
 * "restrictions" (lane-dependent branches, loops, exits); every expression
 * gets an abstract lane value (lv) and a record of the restrictions it is
 * under. Variables are flow-insensitive: a variable's value is the join of
 * everything assigned to it, plus the conditions it is assigned under that do
 * not also enclose its declaration (sync dependence). One exception, a strong
 * update: `v = e;` as a statement that every lane reaching v's declaration
 * runs (only blocks between the two; no label, case or goto; no lambda in
 * the function) starts v afresh: the reads after it see that value and what
 * is assigned after it, not what was assigned before (`old = __shfl_sync(
 * mask, old, 0);` after `if (lane == 0) old = atomicAdd(...)` is a broadcast,
 * warp-uniform). A function is walked
 * until its variables stop changing; the functions of the TU are walked again
 * until the summaries (parameters, return values, out-parameters) stop
 * changing. Whether a parameter really receives lane-dependent values is only
 * decided at the end, from the calls: values carry the set of parameters
 * they depend on (pdeps) instead. */
#include "lanes.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "consteval.h"
#include "hmap.h"

/* ---- abstract lane values ------------------------------------------------ */

enum {
  LV_LD = 1u << 0,    /* lane-dependent (regardless of parameters) */
  LV_AM = 1u << 1,    /* derives from __activemask() */
  LV_MATCH = 1u << 2, /* derives from a __match_*_sync result */
  LV_VOTE = 1u << 3   /* derives from a ballot/any/all/reduce result */
};
enum {
  SH_TID = 1u << 0,  /* the linear thread id plus a warp-uniform multiple of 32 */
  SH_LANE = 1u << 1, /* the lane id, threadIdx.x % 32 */
  SH_M32 = 1u << 2,  /* a multiple of 32 */
  SH_YZ = 1u << 3,   /* threadIdx.y or threadIdx.z */
  SH_BDX = 1u << 4,  /* blockDim.x (times blockDim.y) */
  SH_BDY = 1u << 5,  /* blockDim.y */
  SH_ROW = 1u << 6,  /* threadIdx.y * blockDim.x (+ threadIdx.z * blockDim.x * blockDim.y) */
  SH_AM = 1u << 7,   /* exactly an __activemask() result */
  /* a kernel parameter that every launch in the file passes as a multiple
   * of 32 or as the block's own width (launch_wdiv): threadIdx.x divided by
   * it is a warp id, or 0 in the whole block */
  SH_WDIV = 1u << 8,
  /* 2^tk times a SH_TID value (tk >= 1): `(blockDim.x * blockIdx.x +
   * threadIdx.x) * 4`, a thread's first element of four */
  SH_TIDS = 1u << 9,
  /* the lane id plus a warp-uniform multiple of 32: what a SH_TID (blocks
   * being whole warps) and a SH_LANE value have in common, kept where the
   * two are joined (a parameter passed the thread id by one call and the
   * lane id by another) */
  SH_L32 = 1u << 10
};

/* lv.tk of a value that may take any scale (the control dependence of
 * lv_ctrl, which says nothing about shapes) */
#define TK_ANY 0xffu
/* the largest lv.p2 kept (2^62) */
#define P2_MAX 62

typedef struct lv {
  bool set;
  unsigned flags;
  unsigned shape; /* facts that hold of every value joined (intersection) */
  uint64_t pdeps; /* parameters of the function the value depends on */
  const wl_expr *am;
  /* a shape fact like those of `shape`: every value joined is a multiple of
   * 2^p2 (SH_M32 says 2^5 by itself: see lv_p2) */
  unsigned char p2;
  unsigned char tk; /* SH_TIDS: the scale's exponent */
} lv;

static const lv LV_UNIFORM = {true, 0, 0, 0, NULL, 0, 0};

/* The power of two every value joined is known to be a multiple of. */
static unsigned lv_p2(lv a) {
  unsigned p = a.p2;
  return (a.shape & SH_M32) && p < 5 ? 5 : p;
}

/* The first bit of pdeps that stands for a parameter of a lambda's enclosing
 * function (see finfo.outer). */
#define LV_OUTER 32

/* A shape with the facts its bits imply added (SH_L32 of SH_TID and SH_LANE). */
static unsigned shape_closure(unsigned s) { return s & (SH_TID | SH_LANE) ? s | SH_L32 : s; }

static lv lv_join(lv a, lv b) {
  if (!b.set)
    return a;
  if (!a.set)
    return b;
  a.shape = shape_closure(a.shape);
  b.shape = shape_closure(b.shape);
  a.flags |= b.flags;
  unsigned pa = lv_p2(a), pb = lv_p2(b);
  a.p2 = (unsigned char)(pa < pb ? pa : pb);
  if ((a.shape & b.shape & SH_TIDS) && a.tk != b.tk && a.tk != TK_ANY && b.tk != TK_ANY)
    a.shape &= ~(unsigned)SH_TIDS;
  else if (a.tk == TK_ANY)
    a.tk = b.tk;
  a.shape &= b.shape;
  a.pdeps |= b.pdeps;
  if (!a.am)
    a.am = b.am;
  return a;
}

/* What control dependence passes on: lane dependence only. */
static lv lv_deps(lv a) {
  lv r = LV_UNIFORM;
  r.flags = a.flags & LV_LD;
  r.pdeps = a.pdeps;
  return r;
}

/* Control dependence: what a branch on `a` passes on to the values assigned
 * under it. It says nothing about their shape, so joining it keeps theirs. */
static lv lv_ctrl(lv a) {
  lv r = lv_deps(a);
  r.set = a.set;
  r.shape = ~0u;
  r.p2 = P2_MAX;
  r.tk = TK_ANY;
  return r;
}

static lv lv_noshape(lv a) {
  a.shape = 0;
  a.p2 = 0;
  a.tk = 0;
  return a;
}

static bool lv_same(lv a, lv b) {
  return a.set == b.set && a.flags == b.flags && a.shape == b.shape && a.pdeps == b.pdeps &&
         a.p2 == b.p2 && a.tk == b.tk;
}

static bool lv_ld_free(lv a) { return !(a.flags & LV_LD) && a.pdeps == 0; }

/* ---- pointer map --------------------------------------------------------- */

typedef struct pmap {
  const void **k;
  void **v;
  size_t n, cap;
} pmap;

static size_t phash(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void **pmap_slot(pmap *m, const void *key, bool add) {
  if (m->cap) {
    size_t mask = m->cap - 1;
    for (size_t i = phash(key) & mask;; i = (i + 1) & mask) {
      if (m->k[i] == key)
        return &m->v[i];
      if (!m->k[i])
        break;
    }
  }
  if (!add)
    return NULL;
  if ((m->n + 1) * 2 > m->cap) {
    size_t ncap = m->cap ? m->cap * 2 : 64;
    const void **nk = wl_xcalloc(ncap, sizeof *nk);
    void **nv = wl_xcalloc(ncap, sizeof *nv);
    for (size_t i = 0; i < m->cap; i++)
      if (m->k[i]) {
        size_t j = phash(m->k[i]) & (ncap - 1);
        while (nk[j])
          j = (j + 1) & (ncap - 1);
        nk[j] = m->k[i];
        nv[j] = m->v[i];
      }
    free(m->k);
    free(m->v);
    m->k = nk;
    m->v = nv;
    m->cap = ncap;
  }
  size_t mask = m->cap - 1, i = phash(key) & mask;
  while (m->k[i])
    i = (i + 1) & mask;
  m->k[i] = key;
  m->v[i] = NULL;
  m->n++;
  return &m->v[i];
}

static void *pmap_get(const pmap *m, const void *key) {
  void **s = pmap_slot((pmap *)m, key, false);
  return s ? *s : NULL;
}

static void pmap_free(pmap *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}

/* ---- analysis state ------------------------------------------------------ */

/* A restriction: one link of the persistent stack every record points into. */
typedef struct node node;
struct node {
  const node *outer;
  unsigned depth;
  wl_lane_restr_kind kind;
  int side;
  const wl_stmt *stmt;
  const wl_expr *cond;
  lv reach;                        /* lane dependence of the restriction */
  lv sync;                         /* what a variable assigned under it picks up */
  const wl_stmt *exit;             /* WL_LR_EXIT */
  const node *exit_at, *exit_base; /* WL_LR_EXIT: the stack at the exit, and where it was left */
  int cert_side;                   /* WL_LR_IF: the side where __activemask() is full, or -1 */
  bool certified;                  /* the whole warp is here, whatever encloses it */
};

typedef struct finfo finfo;

typedef struct rec {
  finfo *fi;
  const node *chain;
  lv val;
} rec;

typedef struct loopinfo {
  lv reach, sync;
} loopinfo;

struct finfo {
  const wl_func *f;
  bool analyzed;
  lv ret_prev, ret_cur;
  lv *param_prev, *param_cur; /* join of the arguments of every call */
  lv *out_prev, *out_cur;     /* what the function stores through pointer/reference params */
  wl_vec vars;                /* local variables it declares (wl_var *) */
  wl_vec calls;               /* its calls of analyzed functions (wl_expr *) */
  wl_vec callers;             /* calls of it (wl_expr *) */
  wl_vec kills;               /* its strong updates (wl_stmt *), keys of env slots of their own */
  bool has_lambda;            /* a lambda is defined in it: no strong updates */
  pmap loops;                 /* wl_stmt * -> loopinfo * */
  uint64_t param_ld;
  /* A lambda: the function whose variables it reads; their parameter
   * dependences are kept in bits LV_OUTER.. of pdeps (shifted), and are
   * lane-dependent when that function's parameters are. */
  const struct finfo *outer;
  bool entry_partial;
  /* Evidence that a warp never spans two rows (see lanes.h): rows_y makes
   * threadIdx.y and threadIdx.z warp-uniform here, rows_z threadIdx.z only. */
  bool rows_y, rows_z;
  /* A kernel's launches in the file (launch_block): every one gives blocks
   * launch_bx threads wide (0: none seen, or not all the same, or not
   * known), launch_z1 whether every one gives them a depth of 1,
   * launch_warps whether every one gives them a known width that is a
   * multiple of 32; launch_wdiv has bit i when every one passes parameter
   * i a multiple of 32 or the block's width (SH_WDIV). */
  long long launch_bx;
  bool launch_z1, launch_warps, launch_seen;
  uint64_t launch_wdiv;
  /* [nparams]: a power of two (its exponent) that every launch passes
   * parameter i a multiple of (launch_arg_divisor) */
  unsigned char *launch_p2;
  /* template parameters of f that a static_assert of its body says are
   * multiples of 2^tp_p2[i] (`static_assert(D % 64 == 0, "...")`) */
  const char *tp_name[4];
  unsigned char tp_p2[4];
  unsigned ntp;
  /* a number every launch's block depth is a multiple of (1: none known;
   * llm.c's `dim3 block_dim = {4, 8, (unsigned)block_size / WARP_SIZE}` with
   * block_size 768 or 1024: 8) */
  long long launch_zdiv;
  /* the blockDim.x and blockDim.y that f asserts (assert(blockDim.x == 4)),
   * 0 when it asserts none */
  long long assert_bx, assert_by;
};

struct wl_lanes {
  const wl_tu *tu;
  wl_lanes_opts opts;
  wl_arena arena;
  finfo *fi;
  unsigned nfi;
  pmap fmap;    /* wl_func * -> finfo * */
  pmap env;     /* wl_var * -> lv * */
  pmap owner;   /* wl_var * -> finfo * (locals and parameters) */
  pmap decl;    /* wl_var * -> const node * (stack at the declaration) */
  pmap kill;    /* wl_stmt * -> wl_var *: the strong updates (`v = e;`, see the top) */
  pmap recs;    /* wl_expr * / wl_stmt * -> rec * */
  wl_vec colls; /* collective calls */
  /* full_warp_in's answers, one map per depth: call -> collective (or
   * &no_full_warp), so that a chain of functions each calling the next many
   * times is walked once per call, not once per path; the maps of the legacy
   * collectives (wl_lanes_call_full_warp_legacy) follow those of the others */
  wl_hmap *full_warp;
  pmap bfly; /* call -> &bfly_yes / &bfly_no: uniform_result_call's answers */
};

#define FULL_WARP_DEPTH 8
static const char no_full_warp;

typedef struct exitrec {
  wl_stmt_kind kind;
  const wl_stmt *s;
  const node *at;
} exitrec;

typedef struct exits {
  exitrec *v;
  size_t n, cap;
} exits;

static void exits_add(exits *x, exitrec r) {
  if (x->n == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 4;
    x->v = wl_xrealloc(x->v, x->cap * sizeof *x->v);
  }
  x->v[x->n++] = r;
}

typedef struct walker {
  wl_lanes *L;
  finfo *fi;
  const node *chain;
  bool changed;
  pmap cur;                /* wl_var * -> wl_stmt *: the strong update v's value comes from now */
  const wl_expr *kill_lhs; /* the target of the strong update being evaluated */
  const wl_stmt *kill_at;
} walker;

static finfo *finfo_of(const wl_lanes *L, const wl_func *f) {
  return f ? pmap_get(&L->fmap, f) : NULL;
}

static const rec *rec_of(const wl_lanes *L, const void *key) {
  return key ? pmap_get(&L->recs, key) : NULL;
}

/* The analyzed function a call runs, and how many leading arguments are not
 * its parameters (1 for a lambda's operator(), whose object comes first). */
static finfo *call_target(const wl_lanes *L, const wl_expr *e, unsigned *off) {
  *off = 0;
  if (!e || e->kind != WL_E_CALL)
    return NULL;
  finfo *g = NULL;
  if (e->callee) {
    g = finfo_of(L, e->callee);
  } else if (e->name && strcmp(e->name, "operator()") == 0 && e->nargs >= 1) {
    const wl_expr *o = wl_expr_strip(e->args[0]);
    const wl_expr *init = o && o->kind == WL_E_REF && o->var ? wl_expr_strip(o->var->init) : NULL;
    while (init && init->kind == WL_E_OTHER && init->nargs == 1)
      init = wl_expr_strip(init->args[0]);
    if (init && init->kind == WL_E_LAMBDA && init->lambda) {
      g = finfo_of(L, init->lambda);
      *off = 1;
    }
  }
  /* a __global__ callee is a launch (dynamic parallelism): the child grid
   * has its own blocks and warps, nothing of the caller's lanes enters it */
  if (g && (g->f->flags & WL_F_GLOBAL))
    return NULL;
  return g && g->analyzed ? g : NULL;
}

/* Whether dependences on these parameters (of fi, and in bits LV_OUTER..
 * of its enclosing function's for a lambda) are lane-dependent. */
static bool deps_ld(const finfo *fi, uint64_t pdeps) {
  if (!fi)
    return false;
  if (pdeps & fi->param_ld)
    return true;
  return fi->outer && ((pdeps >> LV_OUTER) & fi->outer->param_ld);
}

static bool actual_ld(const finfo *fi, lv v) { return (v.flags & LV_LD) || deps_ld(fi, v.pdeps); }

static void record(walker *W, const void *key, lv v) {
  void **slot = pmap_slot(&W->L->recs, key, true);
  rec *r = *slot;
  if (!r) {
    r = wl_arena_alloc(&W->L->arena, sizeof *r);
    *slot = r;
  }
  r->fi = W->fi;
  r->chain = W->chain;
  r->val = v;
}

static const node *push(walker *W, wl_lane_restr_kind kind, int side, const wl_stmt *s,
                        const wl_expr *cond, lv reach, lv sync) {
  node *n = wl_arena_alloc(&W->L->arena, sizeof *n);
  n->outer = W->chain;
  n->depth = W->chain ? W->chain->depth + 1 : 1;
  n->kind = kind;
  n->side = side;
  n->stmt = s;
  n->cond = cond;
  n->reach = reach;
  n->sync = sync;
  n->cert_side = -1;
  W->chain = n;
  return n;
}

/* Join of the sync values of the restrictions on `at` that do not enclose `base`. */
static lv sync_between(const node *at, const node *base) {
  lv r = {0};
  const node *a = at, *b = base;
  while (a && (!b || a->depth > b->depth)) {
    r = lv_join(r, a->sync);
    a = a->outer;
  }
  while (b && a && b->depth > a->depth)
    b = b->outer;
  while (a && a != b) {
    r = lv_join(r, a->sync);
    a = a->outer;
    b = b ? b->outer : NULL;
  }
  return r;
}

static lv reach_between(const node *at, const node *base) {
  lv r = {0};
  for (const node *a = at; a && a != base; a = a->outer)
    r = lv_join(r, a->reach);
  return r;
}

/* ---- variables ----------------------------------------------------------- */

static bool is_local(const wl_var *v) {
  return v && !(v->flags & (WL_V_GLOBAL | WL_V_SHARED | WL_V_EXTERN | WL_V_CONSTANT | WL_V_DEVICE |
                            WL_V_STATIC | WL_V_FIELD));
}

/* key: a variable, or a strong update (wl_stmt *) for v's value after it */
static lv *env_slot(wl_lanes *L, const void *key) {
  void **s = pmap_slot(&L->env, key, true);
  if (!*s)
    *s = wl_arena_alloc(&L->arena, sizeof(lv));
  return *s;
}

static void slot_join(walker *W, lv *cur, lv val) {
  lv nv = lv_join(*cur, val);
  if (!lv_same(nv, *cur) || (nv.am && !cur->am)) {
    *cur = nv;
    W->changed = true;
  }
}

/* v's own slot holds everything ever assigned to it (what the queries read);
 * after a strong update, the update's slot also gets what is assigned from
 * there on, and the walker's reads use it. */
static void env_join(walker *W, const wl_var *v, lv val) {
  slot_join(W, env_slot(W->L, v), val);
  const wl_stmt *k = pmap_get(&W->cur, v);
  if (k)
    slot_join(W, env_slot(W->L, k), val);
}

static void own_var(walker *W, const wl_var *v) {
  void **s = pmap_slot(&W->L->owner, v, true);
  if (!*s) {
    *s = W->fi;
    wl_vec_push(&W->fi->vars, (void *)v);
  }
}

static lv read_var(walker *W, const wl_var *v) {
  const wl_stmt *k = pmap_get(&W->cur, v);
  lv *cur = pmap_get(&W->L->env, k ? (const void *)k : (const void *)v);
  lv r = cur && cur->set ? *cur : LV_UNIFORM;
  finfo *own = pmap_get(&W->L->owner, v);
  if (own && own != W->fi && r.pdeps) {
    /* a lambda reading a variable of its enclosing function: lane-dependent
     * where that function's parameters it depends on are (known once every
     * call is seen); conservatively lane-dependent when the lambda has too
     * many parameters of its own, or reads the variables of two functions */
    finfo *fi = W->fi;
    if (fi->f->nparams <= LV_OUTER && (r.pdeps >> LV_OUTER) == 0 &&
        (!fi->outer || fi->outer == own)) {
      fi->outer = own;
      r.pdeps <<= LV_OUTER;
    } else {
      r.pdeps = 0;
      r.flags |= LV_LD;
    }
  }
  return r;
}

static bool name_is(const wl_expr *e, const char *n) { return e->name && strcmp(e->name, n) == 0; }

static const wl_var *builtin_var(const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_REF || !e->var || !(e->var->flags & WL_V_GLOBAL))
    return NULL;
  return e->var;
}

static bool var_named(const wl_var *v, const char *n) {
  return v && v->name && strcmp(v->name, n) == 0;
}

/* ---- expressions --------------------------------------------------------- */

static lv eval(walker *W, const wl_expr *e);
static void assign(walker *W, const wl_expr *target, lv val);

static bool fold(const wl_expr *e, long long *v) { return wl_consteval(e, v); }

/* The exponent of the largest power of two dividing c (P2_MAX for 0). */
static unsigned char ctz_ll(long long c) {
  unsigned char k = 0;
  if (c == 0)
    return P2_MAX;
  while (k < P2_MAX && !(c & 1)) {
    c >>= 1;
    k++;
  }
  return k;
}

static lv constant(long long c) {
  lv r = LV_UNIFORM;
  if (c % 32 == 0)
    r.shape = SH_M32;
  r.p2 = ctz_ll(c);
  return r;
}

/* threshold tests of a TID value (times 2^k: SH_TIDS) that split no warp:
 * 2^k * (tid + 32 * u) < T with T a multiple of 2^(5 + k) holds for whole
 * warps, as tid + 32 * u < T / 2^k does */
static bool uniform_compare(int op, lv t, const wl_expr *te, bool tid_left, unsigned k) {
  /* normalize to tid OP threshold */
  if (!tid_left) {
    switch (op) {
    case WL_B_LT: op = WL_B_GT; break;
    case WL_B_GT: op = WL_B_LT; break;
    case WL_B_LE: op = WL_B_GE; break;
    case WL_B_GE: op = WL_B_LE; break;
    default: break;
    }
  }
  long long c;
  if (fold(te, &c)) {
    if (op == WL_B_LT || op == WL_B_GE)
      return c % (32LL << k) == 0;
    return c >= 0 && (c / (1LL << k) + 1) % 32 == 0; /* <= 31, > 63 */
  }
  return (op == WL_B_LT || op == WL_B_GE) && lv_p2(t) >= 5 + k && !(t.flags & LV_LD);
}

/* c == 2^k with 1 <= k <= 16: k, else 0 */
static unsigned pow2_exp(long long c) {
  for (unsigned k = 1; k <= 16; k++)
    if (c == 1LL << k)
      return k;
  return 0;
}

static lv binop(walker *W, const wl_expr *e, int op, lv a, lv b) {
  const wl_expr *ae = e->args[0], *be = e->args[1];
  lv r = lv_noshape(lv_join(a, b));
  bool ww = W->L->opts.whole_warps;
  long long c;
  switch (op) {
  case WL_B_ADD:
  case WL_B_ADD_ASSIGN:
  case WL_B_SUB:
  case WL_B_SUB_ASSIGN:
    if ((op == WL_B_SUB || op == WL_B_SUB_ASSIGN) && ww && (a.shape & SH_TID) &&
        (b.shape & SH_LANE)) {
      /* thread id - lane id: the warp's first thread, warp-uniform (like tid & ~31) */
      r = LV_UNIFORM;
      r.flags = (a.flags | b.flags) & ~LV_LD;
      r.shape = SH_M32;
    } else if ((a.shape & SH_TID) && (b.shape & SH_M32) && lv_ld_free(b))
      r.shape = SH_TID;
    else if ((a.shape & SH_TIDS) && lv_p2(b) >= 5u + a.tk && lv_ld_free(b)) {
      r.shape = SH_TIDS;
      r.tk = a.tk;
    } else if ((op == WL_B_ADD || op == WL_B_ADD_ASSIGN) && (b.shape & SH_TIDS) &&
               lv_p2(a) >= 5u + b.tk && lv_ld_free(a)) {
      r.shape = SH_TIDS;
      r.tk = b.tk;
    } else if ((op == WL_B_ADD || op == WL_B_ADD_ASSIGN) && (b.shape & SH_TID) &&
               (a.shape & SH_M32) && lv_ld_free(a))
      r.shape = SH_TID;
    else if ((op == WL_B_ADD || op == WL_B_ADD_ASSIGN) &&
             (((a.shape & SH_TID) && (b.shape & SH_ROW)) ||
              ((b.shape & SH_TID) && (a.shape & SH_ROW))))
      r.shape = SH_TID; /* the linear thread id of a 2-D or 3-D block */
    else if ((op == WL_B_ADD || op == WL_B_ADD_ASSIGN) && (a.shape & b.shape & SH_ROW))
      r.shape = SH_ROW;
    else if ((a.shape & SH_M32) && (b.shape & SH_M32))
      r.shape = SH_M32;
    break;
  case WL_B_MUL:
  case WL_B_MUL_ASSIGN:
    if (((a.shape & SH_YZ) && (b.shape & SH_BDX)) || ((b.shape & SH_YZ) && (a.shape & SH_BDX)) ||
        ((a.shape & SH_ROW) && (b.shape & SH_BDY)) || ((b.shape & SH_ROW) && (a.shape & SH_BDY)))
      r.shape = SH_ROW;
    else if (((a.shape & SH_BDX) && (b.shape & SH_BDY)) ||
             ((b.shape & SH_BDX) && (a.shape & SH_BDY)))
      r.shape = SH_BDX | SH_M32;
    else if ((a.shape | b.shape) & SH_M32)
      r.shape = SH_M32;
    if (!(r.shape & SH_ROW)) {
      unsigned p = lv_p2(a) + lv_p2(b);
      r.p2 = (unsigned char)(p > P2_MAX ? P2_MAX : p);
    }
    for (int i = 0; i < 2 && !(r.shape & (SH_ROW | SH_BDX)); i++) {
      lv t = i ? b : a;
      unsigned k = fold(i ? ae : be, &c) ? pow2_exp(c) : 0;
      if (k && (t.shape & (SH_TID | SH_TIDS)) && (t.shape & SH_TIDS ? t.tk : 0) + k <= 16) {
        /* (tid + 32 * u) * 2^k */
        r.shape |= SH_TIDS;
        r.tk = (unsigned char)((t.shape & SH_TIDS ? t.tk : 0) + k);
        break;
      }
    }
    break;
  case WL_B_SHL:
  case WL_B_SHL_ASSIGN:
    if ((a.shape & SH_M32) || (fold(be, &c) && c >= 5 && c < 64))
      r.shape = SH_M32;
    if (fold(be, &c) && c >= 1 && c <= 16 && (a.shape & (SH_TID | SH_TIDS)) &&
        (a.shape & SH_TIDS ? a.tk : 0) + c <= 16) {
      r.shape |= SH_TIDS;
      r.tk = (unsigned char)((a.shape & SH_TIDS ? a.tk : 0) + c);
    }
    if (fold(be, &c) && c >= 0 && c < 63) {
      unsigned p = lv_p2(a) + (unsigned)c;
      r.p2 = (unsigned char)(p > P2_MAX ? P2_MAX : p);
    }
    break;
  case WL_B_DIV:
  case WL_B_DIV_ASSIGN:
  case WL_B_SHR:
  case WL_B_SHR_ASSIGN: {
    bool shr = op == WL_B_SHR || op == WL_B_SHR_ASSIGN;
    bool by_warp = false;
    if (fold(be, &c))
      by_warp = shr ? (c >= 5 && c < 64) : (c > 0 && c % 32 == 0);
    else if (!shr)
      by_warp = (b.shape & (SH_M32 | SH_WDIV)) && !(b.flags & LV_LD);
    if (by_warp && (a.shape & (SH_TID | SH_LANE))) {
      /* a warp id (or 0 for a lane id): the same for every lane of the warp */
      r = lv_noshape(b);
      r.flags |= a.flags & ~LV_LD;
    }
    break;
  }
  case WL_B_REM:
  case WL_B_REM_ASSIGN:
    if ((a.shape & (SH_TID | SH_LANE)) && fold(be, &c) && c == 32)
      r.shape = SH_LANE;
    break;
  case WL_B_AND:
  case WL_B_AND_ASSIGN: {
    const wl_expr *other = NULL;
    lv t = a;
    if (a.shape & (SH_TID | SH_LANE))
      other = be;
    else if (b.shape & (SH_TID | SH_LANE))
      other = ae, t = b;
    if (other && fold(other, &c)) {
      if ((c & 31) == 31 && (c & 0xffffffffLL) == 31)
        r.shape = SH_LANE;
      else if ((c & 31) == 0 && (t.shape & SH_TID)) {
        /* threadIdx.x & ~31: the warp's first thread, warp-uniform */
        r = LV_UNIFORM;
        r.flags = (a.flags | b.flags) & ~LV_LD;
        r.shape = SH_M32;
      }
    }
    break;
  }
  case WL_B_LT:
  case WL_B_GT:
  case WL_B_LE:
  case WL_B_GE:
    if (ww && (a.shape & (SH_TID | SH_TIDS)) &&
        uniform_compare(op, b, be, true, a.shape & SH_TID ? 0 : a.tk)) {
      r = lv_noshape(b);
      r.flags |= a.flags & ~LV_LD;
    } else if (ww && (b.shape & (SH_TID | SH_TIDS)) &&
               uniform_compare(op, a, ae, false, b.shape & SH_TID ? 0 : b.tk)) {
      r = lv_noshape(a);
      r.flags |= b.flags & ~LV_LD;
    }
    break;
  case WL_B_EQ:
  case WL_B_NE: {
    /* __activemask() == 0xffffffff holds for all 32 lanes or for none of them */
    const wl_expr *other = (a.shape & SH_AM) ? be : (b.shape & SH_AM) ? ae : NULL;
    if (other && wl_consteval_is_full_mask(other))
      r.flags &= ~LV_LD;
    break;
  }
  default: break;
  }
  return r;
}

/* Default arguments that clang materializes in macro expansions have no location. */
static bool is_default_arg(const wl_expr *a) {
  return a && a->kind == WL_E_OTHER && a->nargs == 0 && !a->range.begin.file && !a->loc.file;
}

static const wl_expr *arg_at(const wl_expr *call, int i) {
  if (i < 0 || (unsigned)i >= call->nargs || is_default_arg(call->args[i]))
    return NULL;
  return call->args[i];
}

/* Replaces the parameter dependences of a callee's summary by the arguments'. */
static lv subst(lv sum, const lv *args, unsigned nargs) {
  if (!sum.set)
    return LV_UNIFORM;
  lv r = sum;
  r.pdeps = 0;
  if (sum.pdeps) {
    r.shape = 0;
    r.p2 = 0;
    r.tk = 0;
  }
  /* a dependence on the enclosing function of a lambda called here, which
   * no argument replaces: lane-dependent, conservatively */
  for (unsigned i = nargs > LV_OUTER ? nargs : LV_OUTER; i < 64; i++)
    if (sum.pdeps & (1ULL << i))
      r.flags |= LV_LD;
  for (unsigned i = 0; i < nargs && i < 64; i++)
    if (sum.pdeps & (1ULL << i)) {
      r.flags |= args[i].flags & (LV_LD | LV_AM | LV_MATCH | LV_VOTE);
      r.pdeps |= args[i].pdeps;
      if (!r.am)
        r.am = args[i].am;
    }
  return r;
}

/* The variable an argument lets the callee write: &x, an array x, or x for a reference parameter.
 */
static const wl_var *out_target(const wl_expr *arg, bool by_ref) {
  const wl_expr *a = wl_expr_strip(arg);
  if (!a)
    return NULL;
  if (a->kind == WL_E_UNARY && a->op == WL_U_ADDROF && a->nargs == 1)
    a = wl_expr_strip(a->args[0]);
  else if (!(by_ref || (a->kind == WL_E_REF && a->var && (a->var->type & WL_T_ARRAY))))
    return NULL;
  while (a && (a->kind == WL_E_INDEX || (a->kind == WL_E_MEMBER && !a->arrow)) && a->nargs >= 1)
    a = wl_expr_strip(a->args[0]);
  return a && a->kind == WL_E_REF && is_local(a->var) ? a->var : NULL;
}

/* A wrapper whose body returns a broadcast shuffle with its width a parameter
 * (CudaSift's `T Shuffle(T var, unsigned lane, int width = 32) { return
 * __shfl_sync(0xffffffff, var, lane, width); }`): called with width 32, or
 * with it left out and defaulting to 32, every lane gets the source lane's
 * value, the same in every lane when the source lane is (`if (Shuffle(maxv,
 * 0) <= thresh) return;` takes the whole warp out). The summary cannot say
 * that, since it holds for some widths only. */
static bool broadcast_wrapper(const finfo *g, const wl_expr *call, unsigned off, const lv *pa,
                              unsigned na, lv *out) {
  const wl_stmt *b = g->f->body;
  if (b && b->kind == WL_S_COMPOUND && b->nkids == 1)
    b = b->kids[0];
  const wl_expr *s = b && b->kind == WL_S_RETURN ? wl_expr_strip(b->expr) : NULL;
  const wl_builtin *co = s && s->kind == WL_E_CALL ? wl_collective_of(s) : NULL;
  if (!co || co->kind != WL_BK_SHFL || co->src_arg < 1)
    return false;
  const wl_expr *w = wl_expr_strip(arg_at(s, co->width_arg));
  const wl_expr *src = wl_expr_strip(arg_at(s, co->src_arg));
  if (!w || w->kind != WL_E_REF || !w->var || !(w->var->flags & WL_V_PARAM) || !src)
    return false;
  int wi = w->var->param_index;
  if (wi < 0 || (unsigned)wi >= g->f->nparams || g->f->params[wi] != w->var)
    return false;
  const wl_expr *wa = (unsigned)wi < na ? arg_at(call, wi + (int)off) : NULL;
  long long wv;
  if (!wa)
    wa = w->var->init; /* left out: the default argument */
  if (!wa || !fold(wa, &wv) || wv != 32)
    return false;
  long long k;
  if (fold(src, &k)) {
    *out = LV_UNIFORM;
    return true;
  }
  if (src->kind != WL_E_REF || !src->var || !(src->var->flags & WL_V_PARAM))
    return false;
  int si = src->var->param_index;
  if (si < 0 || (unsigned)si >= na || (unsigned)si >= g->f->nparams || g->f->params[si] != src->var)
    return false;
  *out = lv_deps(pa[si]);
  out->set = true;
  return true;
}

/* Whether g denotes the whole block as a cooperative group: a variable of
 * type cg::thread_block, or a call of this_thread_block(). */
static bool names_thread_block(const wl_expr *g) {
  g = wl_expr_strip(g);
  if (!g)
    return false;
  const char *ts = g->kind == WL_E_REF && g->var ? g->var->type_spelling : NULL;
  if (ts)
    return strstr(ts, "thread_block") && !strstr(ts, "tile");
  if (g->kind != WL_E_CALL || !g->name)
    return false;
  const wl_builtin *b = wl_builtin_find(g->name);
  return b && b->kind == WL_BK_GROUP_THIS && strcmp(wl_builtin_group_type(b), "thread_block") == 0;
}

/* A call of a static member function of a template type parameter of f
 * without arguments (`GROUP::size()`, lowered with no name and a callee
 * named `GROUP::size`): *r is what the static member functions of that name
 * without parameters that the file defines return, joined; one that is not
 * static, such as NCCL's ncclCoopWarp::size() const, cannot be called so
 * (the type is one of the file's: NCCL's warp_group<NUM_WARPS,
 * STARTING_WARPS>, whose `static
 * constexpr int size() { return 32 * NUM_WARPS; }` is a multiple of 32 the
 * same in every lane and whose thread_rank() is threadIdx.x - 32 *
 * STARTING_WARPS), or, when the file defines none (or none analyzed yet),
 * the value of an unknown function called without arguments, the same in
 * every lane, as before the name was known. False for any other call. */
static bool dependent_member_call(const wl_lanes *L, const wl_func *f, const wl_expr *e, lv *r) {
  const char *name = wl_tparam_member_call(f, e);
  if (!name)
    return false;
  lv v = LV_UNIFORM;
  bool any = false;
  for (unsigned k = 0; k < L->nfi; k++) {
    const finfo *g = &L->fi[k];
    if (!g->f->name || strcmp(g->f->name, name) != 0 || !(g->f->flags & WL_F_STATIC) ||
        g->f->nparams)
      continue;
    if (!g->analyzed || !g->ret_prev.set) {
      *r = LV_UNIFORM; /* as an unknown function of no arguments */
      return true;
    }
    v = any ? lv_join(v, g->ret_prev) : g->ret_prev;
    any = true;
  }
  *r = v;
  r->pdeps = 0;
  return true;
}

/* The built-in operator that a call of `operator<` (`<=`, `+`, `*`, ...)
 * with two operands stands for: clang keeps `threadIdx_x_int < GROUP::size()`
 * in a template as such a call when a header declares an operator template of
 * that name (NCCL's hybrid_ep.cuh). With integer or dependent operands and no
 * function of the file behind it, or with operands known to be of no class or
 * enumeration type whatever function lowering linked (wl_operator_call_builtin:
 * with NCCL's headers found, `G1::size() + G2::size()` is linked to their
 * `operator+(ncclSymPtr<T>, Int)`, which no int can call); WL_B_NONE otherwise. */
static int dependent_operator(const wl_lanes *L, const wl_func *f, const wl_expr *e) {
  if (e->callee_is_method || e->nargs != 2 || !e->name)
    return WL_B_NONE;
  for (unsigned i = 0; i < 2; i++)
    if (!e->args[i] || !(e->args[i]->type & (WL_T_INTEGER | WL_T_DEPENDENT)) ||
        (e->args[i]->type & (WL_T_POINTER | WL_T_ARRAY)))
      return WL_B_NONE;
  if (e->callee && !wl_operator_call_builtin(L->tu, f, e))
    return WL_B_NONE;
  int op = wl_operator_binop(e->name);
  switch (op) { /* comparisons, arithmetic, bitwise and, or, shifts */
  case WL_B_LT:
  case WL_B_GT:
  case WL_B_LE:
  case WL_B_GE:
  case WL_B_EQ:
  case WL_B_NE:
  case WL_B_ADD:
  case WL_B_SUB:
  case WL_B_MUL:
  case WL_B_DIV:
  case WL_B_REM:
  case WL_B_AND:
  case WL_B_OR:
  case WL_B_SHL:
  case WL_B_SHR: return op;
  default: return WL_B_NONE;
  }
}

static bool uniform_result_call(wl_lanes *L, const wl_expr *e);

static lv eval_call(walker *W, const wl_expr *e) {
  wl_lanes *L = W->L;
  unsigned n = e->nargs;
  lv *a = wl_xcalloc(n + 1, sizeof *a);
  lv all = LV_UNIFORM;
  for (unsigned i = 0; i < n; i++) {
    a[i] = eval(W, e->args[i]);
    all = lv_join(all, lv_noshape(a[i]));
  }
  const wl_expr *ce = e->callee_expr;
  bool member = ce && ce->kind == WL_E_MEMBER;
  if (member && ce->nargs == 1 && ce->args[0])
    all = lv_join(all, lv_deps(eval(W, ce->args[0])));
  const wl_builtin *co = wl_collective_of(e), *b = NULL;
  lv r = LV_UNIFORM;
  finfo *g;
  unsigned off;
  int dop;
  if (co) {
    if (wl_builtin_is_shuffle(co)) {
      int vi = co->src_arg - 1; /* the value shuffled */
      const wl_expr *w = arg_at(e, co->width_arg);
      long long wv = 32;
      bool full_width = !w || (fold(w, &wv) && wv == 32);
      lv val = (unsigned)vi < n ? a[vi] : LV_UNIFORM;
      lv src = (unsigned)(vi + 1) < n ? a[vi + 1] : LV_UNIFORM;
      bool broadcast = co->kind == WL_BK_SHFL;
      if (broadcast && full_width) {
        r = lv_noshape(val);
        r.flags &= ~LV_LD;
        r.pdeps = 0;
        r = lv_join(r, lv_deps(src));
      } else {
        r = lv_noshape(lv_join(val, lv_deps(src)));
      }
    } else if (co->kind == WL_BK_MATCH) {
      r.flags = LV_MATCH;
    } else {
      r.flags = LV_VOTE;
    }
  } else if ((b = wl_builtin_find(e->name)) != NULL && b->kind == WL_BK_ACTIVEMASK) {
    r.flags = LV_LD | LV_AM;
    r.shape = SH_AM;
    r.am = e;
  } else if (!co && (dop = dependent_operator(L, W->fi->f, e)) != WL_B_NONE) {
    r = binop(W, e, dop, a[0], a[1]);
  } else if (dependent_member_call(L, W->fi->f, e, &r)) {
    /* r: what the file's member functions of that name return */
  } else if (!e->callee && ((b && b->result == WL_BR_LANE) || wl_builtin_name_says_lane(e->name))) {
    r = all;
    r.flags |= LV_LD;
    /* a thread_block's thread_rank() is the linear thread id, so that
     * `cta.thread_rank() < 32` is warp 0, as `threadIdx.x < 32` is */
    if (b && b->kind == WL_BK_GROUP_RANK && member && ce->nargs == 1 && L->opts.whole_warps &&
        names_thread_block(ce->args[0]))
      r.shape = SH_TID;
  } else if (!e->callee && e->callee_in_prelude && b && b->result == WL_BR_UNIFORM) {
    r.flags = LV_VOTE;
  } else if ((g = call_target(L, e, &off)) != NULL) {
    lv *pa = a + off;
    unsigned na = n - off, np = g->f->nparams;
    r = subst(g->ret_prev, pa, na);
    lv bc;
    if (broadcast_wrapper(g, e, off, pa, na, &bc))
      r = bc;
    else if (uniform_result_call(L, e))
      r = LV_UNIFORM; /* a butterfly reduction over the whole warp */
    for (unsigned i = 0; i < na && i < np; i++) {
      g->param_cur[i] = lv_join(g->param_cur[i], pa[i]);
      const wl_var *p = g->f->params[i];
      const wl_var *t = out_target(e->args[i + off], (p->type & WL_T_REFERENCE) != 0);
      if (t && g->out_prev[i].set && (p->type & (WL_T_REFERENCE | WL_T_POINTER))) {
        lv o = subst(g->out_prev[i], pa, na);
        env_join(W, t, lv_join(o, sync_between(W->chain, pmap_get(&L->decl, t))));
      }
    }
    wl_vec_push(&W->fi->calls, (void *)e);
  } else {
    r = all;
    /* an unknown function may store through the addresses it gets */
    for (unsigned i = 0; i < n; i++) {
      const wl_var *t = out_target(e->args[i], false);
      if (t && (wl_expr_strip(e->args[i])->kind == WL_E_UNARY))
        env_join(W, t, lv_join(all, sync_between(W->chain, pmap_get(&L->decl, t))));
    }
  }
  free(a);
  return r;
}

static lv eval_member(walker *W, const wl_expr *e) {
  const wl_expr *base = e->nargs ? e->args[0] : NULL;
  const wl_var *bv = base ? builtin_var(base) : NULL;
  if (bv && var_named(bv, "threadIdx")) {
    lv r = LV_UNIFORM;
    bool uni = !name_is(e, "x") &&
               (W->L->opts.rows_are_warps || W->fi->rows_y || (name_is(e, "z") && W->fi->rows_z));
    r.flags = uni ? 0 : LV_LD;
    if (W->L->opts.whole_warps)
      r.shape = name_is(e, "x") ? SH_TID : SH_YZ;
    record(W, base, r);
    return r;
  }
  if (bv && (var_named(bv, "blockIdx") || var_named(bv, "blockDim") || var_named(bv, "gridDim"))) {
    lv r = LV_UNIFORM;
    if (var_named(bv, "blockDim") && W->L->opts.whole_warps)
      r.shape = name_is(e, "x") ? SH_M32 | SH_BDX : name_is(e, "y") ? SH_BDY : 0;
    record(W, base, LV_UNIFORM);
    return r;
  }
  if (!base)
    return LV_UNIFORM;
  lv b = eval(W, base);
  if (e->arrow)
    return lv_deps(b); /* a load through the pointer */
  return lv_noshape(b);
}

static lv eval_index(walker *W, const wl_expr *e) {
  lv b = eval(W, e->args[0]), i = eval(W, e->args[1]);
  const wl_expr *base = wl_expr_strip(e->args[0]);
  if (base && base->kind == WL_E_REF && is_local(base->var) && (base->var->type & WL_T_ARRAY) &&
      !(base->var->type & WL_T_POINTER))
    return lv_noshape(lv_join(b, lv_deps(i))); /* a thread's own array */
  return lv_join(lv_deps(b), lv_deps(i));      /* a load from memory */
}

/* The join of the operands; a single operand (a wrapper) keeps its shape. */
static lv eval_all(walker *W, const wl_expr *e) {
  lv r = {0};
  for (unsigned i = 0; i < e->nargs; i++)
    r = lv_join(r, eval(W, e->args[i]));
  if (!r.set)
    return LV_UNIFORM;
  return e->nargs == 1 ? r : lv_noshape(r);
}

static lv eval_inner(walker *W, const wl_expr *e) {
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_SIZEOF:
  case WL_E_BOOL: {
    for (unsigned i = 0; i < e->nargs; i++)
      (void)eval(W, e->args[i]);
    return e->has_ival ? constant(e->ival) : LV_UNIFORM;
  }
  case WL_E_FLOAT:
  case WL_E_STRING:
  case WL_E_THIS:
  case WL_E_LAMBDA: return LV_UNIFORM;
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v && e->name && (e->type & WL_T_DEPENDENT))
      for (unsigned i = 0; i < W->fi->ntp; i++)
        if (strcmp(W->fi->tp_name[i], e->name) == 0) {
          /* a template parameter that a static_assert says is a multiple of 2^p2 */
          lv r = LV_UNIFORM;
          r.p2 = W->fi->tp_p2[i];
          if (r.p2 >= 5)
            r.shape = SH_M32;
          return r;
        }
    if (!v)
      return LV_UNIFORM;
    if (v->flags & WL_V_GLOBAL) {
      if (var_named(v, "threadIdx")) {
        lv r = LV_UNIFORM;
        r.flags = LV_LD;
        return r;
      }
      if (var_named(v, "warpSize"))
        return constant(32);
      return v->has_ival ? constant(v->ival) : LV_UNIFORM;
    }
    if (!is_local(v))
      return LV_UNIFORM; /* __shared__ and other memory: the same address for every lane */
    if (v->has_ival && !(v->flags & WL_V_PARAM))
      return constant(v->ival);
    return read_var(W, v);
  }
  case WL_E_MEMBER: return eval_member(W, e);
  case WL_E_INDEX:
    if (e->nargs == 2)
      return eval_index(W, e);
    break;
  case WL_E_CALL: return eval_call(W, e);
  case WL_E_CAST: {
    return eval_all(W, e);
  }
  case WL_E_UNARY: {
    if (e->nargs != 1)
      break;
    lv v = eval(W, e->args[0]);
    switch (e->op) {
    case WL_U_DEREF: return lv_deps(v);
    case WL_U_ADDROF: return v;
    case WL_U_PREINC:
    case WL_U_PREDEC:
    case WL_U_POSTINC:
    case WL_U_POSTDEC: assign(W, e->args[0], lv_noshape(v)); return lv_noshape(v);
    case WL_U_MINUS: {
      lv r = v;
      r.shape &= SH_M32;
      return r;
    }
    default: return lv_noshape(v);
    }
  }
  case WL_E_BINARY: {
    if (e->nargs != 2)
      break;
    int op = e->op;
    if (op == WL_B_LAND || op == WL_B_LOR) {
      lv a = eval(W, e->args[0]);
      const node *saved = W->chain;
      push(W, WL_LR_LOGICAL, op == WL_B_LAND ? 1 : 0, NULL, e->args[0], lv_ctrl(a), lv_ctrl(a));
      lv b = eval(W, e->args[1]);
      W->chain = saved;
      return lv_noshape(lv_join(a, b));
    }
    if (op == WL_B_COMMA) {
      (void)eval(W, e->args[0]);
      return eval(W, e->args[1]);
    }
    if (wl_binop_is_assign(op)) {
      lv rhs = eval(W, e->args[1]);
      lv lhs = eval(W, e->args[0]);
      lv nv = op == WL_B_ASSIGN ? rhs : binop(W, e, op, lhs, rhs);
      assign(W, e->args[0], nv);
      return nv;
    }
    lv a = eval(W, e->args[0]), b = eval(W, e->args[1]);
    return binop(W, e, op, a, b);
  }
  case WL_E_COND: {
    if (e->nargs != 3)
      break;
    lv c = eval(W, e->args[0]);
    const node *saved = W->chain;
    push(W, WL_LR_SELECT, 1, NULL, e->args[0], lv_ctrl(c), lv_ctrl(c));
    lv t = eval(W, e->args[1]);
    W->chain = saved;
    push(W, WL_LR_SELECT, 0, NULL, e->args[0], lv_ctrl(c), lv_ctrl(c));
    lv f = eval(W, e->args[2]);
    W->chain = saved;
    lv r = lv_join(lv_join(t, f), lv_ctrl(c));
    if (!lv_ld_free(c))
      r.shape = 0;
    return r;
  }
  default: break;
  }
  return eval_all(W, e);
}

static lv eval(walker *W, const wl_expr *e) {
  if (!e)
    return LV_UNIFORM;
  lv r = eval_inner(W, e);
  record(W, e, r);
  return r;
}

/* A store to target: to a local variable (or an element or member of one),
 * or through a parameter to what its caller passed (out_cur). A store
 * reaches the object a reference parameter names only without going through
 * a pointer on the way (`r = x`, `r.f = x`, `r.a[i] = x`), and the object a
 * pointer parameter points to only through that pointer alone (`*p = x`,
 * `p->f = x`, `p[i] = x`): `*param.counter += 1` under `threadIdx.x == 0`,
 * with `const Params &param`, stores to memory and leaves param, and so every
 * value read from it, as it was (NCCL's dispatch_kernel_impl, hybrid_ep.cuh
 * 3467/3469: a dependent `*` and `+=` in a template, read as the built-in
 * operators when no candidate is visible). */
static void assign(walker *W, const wl_expr *target, lv val) {
  const wl_expr *t = wl_expr_strip(target);
  wl_lanes *L = W->L;
  bool through = false; /* through a pointer or reference */
  unsigned hops = 0;    /* the pointers certainly gone through: *x, x->f, x[i] on a pointer */
  while (t &&
         (t->kind == WL_E_INDEX || t->kind == WL_E_MEMBER ||
          (t->kind == WL_E_UNARY && t->op == WL_U_DEREF)) &&
         t->nargs >= 1) {
    if (t->kind != WL_E_MEMBER || t->arrow)
      through = through || t->kind != WL_E_INDEX || !(t->args[0]->type & WL_T_ARRAY);
    if (t->kind != WL_E_INDEX ? t->kind != WL_E_MEMBER || t->arrow
                              : (t->args[0]->type & (WL_T_POINTER | WL_T_ARRAY)) == WL_T_POINTER)
      hops++;
    t = wl_expr_strip(t->args[0]);
  }
  if (!t || t->kind != WL_E_REF || !t->var)
    return;
  const wl_var *v = t->var;
  if ((v->flags & WL_V_PARAM) && (through || (v->type & WL_T_REFERENCE)) && v->param_index >= 0 &&
      (unsigned)v->param_index < W->fi->f->nparams && W->fi->f->params[v->param_index] == v) {
    if (hops > ((v->type & WL_T_REFERENCE) ? 0u : 1u))
      return; /* a store to memory that a pointer the parameter holds points to */
    /* an out-parameter of this function */
    lv o = lv_join(val, sync_between(W->chain, NULL));
    W->fi->out_cur[v->param_index] = lv_join(W->fi->out_cur[v->param_index], o);
    if (v->type & WL_T_REFERENCE)
      env_join(W, v, o);
    return;
  }
  if (through || !is_local(v))
    return; /* a store to memory */
  if (W->kill_lhs && wl_expr_strip(W->kill_lhs) == t) {
    *pmap_slot(&W->cur, v, true) = (void *)W->kill_at; /* a strong update: v starts afresh */
    W->kill_lhs = NULL;
  }
  env_join(W, v, lv_join(val, sync_between(W->chain, pmap_get(&L->decl, v))));
}

/* ---- statements ---------------------------------------------------------- */

static void walk(walker *W, const wl_stmt *s, exits *ex);

static loopinfo *loop_info(walker *W, const wl_stmt *s) {
  void **slot = pmap_slot(&W->fi->loops, s, true);
  if (!*slot) {
    loopinfo *li = wl_arena_alloc(&W->L->arena, sizeof *li);
    li->reach = (lv){0};
    li->sync = (lv){0};
    *slot = li;
  }
  return *slot;
}

static void loop_update(walker *W, loopinfo *li, lv reach, lv sync) {
  lv r = lv_join(li->reach, reach), s = lv_join(li->sync, sync);
  if (!lv_same(r, li->reach) || !lv_same(s, li->sync)) {
    li->reach = r;
    li->sync = s;
    W->changed = true;
  }
}

/* The body of a loop: exits that target it are absorbed, returns go on. */
static void walk_loop_body(walker *W, const wl_stmt *body, const wl_expr *inc, const node *loop,
                           loopinfo *li, exits *ex, bool is_switch) {
  exits bx = {0};
  walk(W, body, &bx);
  if (inc)
    (void)eval(W, inc);
  for (size_t i = 0; i < bx.n; i++) {
    exitrec x = bx.v[i];
    if (x.kind == WL_S_BREAK || (x.kind == WL_S_CONTINUE && !is_switch)) {
      if (x.kind == WL_S_BREAK && li)
        loop_update(W, li, reach_between(x.at, loop), sync_between(x.at, loop));
      continue;
    }
    if (x.kind == WL_S_RETURN && li)
      loop_update(W, li, reach_between(x.at, loop), (lv){0});
    else if (x.kind == WL_S_GOTO && li)
      loop_update(W, li, reach_between(x.at, loop), sync_between(x.at, loop));
    exits_add(ex, x);
  }
  free(bx.v);
}

/* ---- loops that every lane runs equally often --------------------------- */

static bool is_tid(const wl_expr *e, const char *dim);
static bool is_warpsize(const wl_expr *e);
static bool has_within(const wl_expr *e, bool (*pred)(const wl_expr *), int depth);
static bool is_assert_fail(const wl_expr *e);
static int binop_or_operator(const wl_expr *e);

typedef struct assigned_find {
  const wl_var *v;
  bool found;
} assigned_find;

static bool find_assigned(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  assigned_find *a = ud;
  const wl_expr *t = NULL;
  if (e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2)
    t = e->args[0];
  else if (e->kind == WL_E_UNARY && e->nargs == 1 && e->op != WL_U_DEREF && e->op != WL_U_PLUS &&
           e->op != WL_U_MINUS && e->op != WL_U_NOT && e->op != WL_U_LNOT)
    t = e->args[0]; /* ++, --, & (and what is not known) */
  t = wl_expr_strip(t);
  if (t && t->kind == WL_E_REF && t->var == a->v)
    a->found = true;
  return !a->found;
}

/* Whether v is assigned (or has its address taken) anywhere in s. */
static bool assigned_in(const wl_stmt *s, const wl_expr *e, const wl_var *v) {
  assigned_find a = {v, false};
  wl_visitor vis = {NULL, find_assigned, &a, true};
  if (s)
    wl_walk_stmt(s, &vis);
  if (e && !a.found)
    wl_walk_expr(e, NULL, &vis);
  return a.found;
}

/* e through casts, and through a local (not a parameter) that its
 * declaration initializes and nothing in f assigns again */
static const wl_expr *resolve_once(const wl_func *f, const wl_expr *e) {
  for (int depth = 0; depth < 8; depth++) {
    e = wl_expr_strip(e);
    if (!e || e->kind != WL_E_REF || !e->var || !e->var->init || !is_local(e->var) ||
        (e->var->flags & WL_V_PARAM) || !f || assigned_in(f->body, NULL, e->var))
      return e;
    e = e->var->init;
  }
  return wl_expr_strip(e);
}

/* blockDim.<dim> (through casts) */
static bool is_block_dim(const wl_expr *e, const char *dim) {
  e = wl_expr_strip(e);
  return e && e->kind == WL_E_MEMBER && e->nargs >= 1 && name_is(e, dim) &&
         var_named(builtin_var(e->args[0]), "blockDim");
}

static bool same_value_d(const wl_func *f, const wl_expr *a, const wl_expr *b, int depth);

/* Whether a and b are the same warp-uniform value: equal constants, one
 * variable, one template parameter, the same blockDim member, or products
 * and sums of such (`32 * kUnroll` twice). */
static bool same_value(const wl_func *f, const wl_expr *a, const wl_expr *b) {
  return same_value_d(f, a, b, 0);
}

static bool same_value_d(const wl_func *f, const wl_expr *a, const wl_expr *b, int depth) {
  long long x, y;
  a = resolve_once(f, a);
  b = resolve_once(f, b);
  if (!a || !b || depth > 6)
    return false;
  if (a == b) /* one expression, or one local's initializer */
    return true;
  if (a->kind == WL_E_REF && b->kind == WL_E_REF && !a->var && !b->var &&
      (a->type & b->type & WL_T_DEPENDENT) && a->name && b->name && strcmp(a->name, b->name) == 0)
    return true; /* one non-type template parameter of the function */
  int op = binop_or_operator(a);
  if (op != WL_B_NONE && op == binop_or_operator(b) &&
      (op == WL_B_MUL || op == WL_B_ADD || op == WL_B_SUB || op == WL_B_SHL || op == WL_B_DIV)) {
    if (same_value_d(f, a->args[0], b->args[0], depth + 1) &&
        same_value_d(f, a->args[1], b->args[1], depth + 1))
      return true;
    return (op == WL_B_MUL || op == WL_B_ADD) &&
           same_value_d(f, a->args[0], b->args[1], depth + 1) &&
           same_value_d(f, a->args[1], b->args[0], depth + 1);
  }
  if (fold(a, &x) && fold(b, &y))
    return x == y;
  if (is_warpsize(a) || is_warpsize(b))
    return is_warpsize(a) ? is_warpsize(b) || (fold(b, &y) && y == 32) : fold(a, &x) && x == 32;
  if (a->kind == WL_E_REF && b->kind == WL_E_REF)
    return a->var && a->var == b->var;
  if (a->kind == WL_E_MEMBER && b->kind == WL_E_MEMBER && a->nargs >= 1 && b->nargs >= 1 &&
      a->name && b->name && strcmp(a->name, b->name) == 0) {
    const wl_var *va = builtin_var(a->args[0]);
    return va && va == builtin_var(b->args[0]);
  }
  return false;
}

/* assert(blockDim.<dim> == K), or with mod: assert(blockDim.<dim> % K == 0),
 * somewhere in f */
typedef struct bd_assert {
  const char *dim;
  long long k;
  bool mod;
  bool found;
} bd_assert;

static bool bd_eq_k(const wl_expr *e, const char *dim, long long k, bool mod) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_BINARY || e->op != WL_B_EQ || e->nargs != 2)
    return false;
  long long c;
  for (int i = 0; i < 2; i++) {
    const wl_expr *d = wl_expr_strip(e->args[i]);
    if (!fold(e->args[1 - i], &c) || !d)
      continue;
    if (!mod && is_block_dim(d, dim) && c == k)
      return true;
    long long m;
    if (mod && c == 0 && d->kind == WL_E_BINARY && d->op == WL_B_REM && d->nargs == 2 &&
        is_block_dim(d->args[0], dim) && fold(d->args[1], &m) && m == k)
      return true;
  }
  return false;
}

static bool find_bd_assert(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  bd_assert *a = ud;
  if (e->kind == WL_E_COND && e->nargs == 3 &&
      (has_within(e->args[1], is_assert_fail, 3) || has_within(e->args[2], is_assert_fail, 3))) {
    const wl_expr *c = wl_expr_strip(e->args[0]);
    for (int d = 0; c && d < 4 && !a->found; d++) {
      a->found = bd_eq_k(c, a->dim, a->k, a->mod);
      c = c->nargs == 1 ? wl_expr_strip(c->args[0]) : NULL;
    }
  }
  return !a->found;
}

/* Whether e is a multiple of the stride st: k * st, (x + st - 1) / st * st,
 * blockDim.<dim> where f asserts blockDim.<dim> % st == 0, or a call of a function returning such a
 * product of its parameter that the call passes st for (THCRoundUp(n, blockDim.x): `return ((a + b
 * - 1) / b) * b;`). */
static bool multiple_of(const wl_func *f, long long zdiv, const wl_expr *e, const wl_expr *st,
                        int depth) {
  long long x, y;
  e = resolve_once(f, e);
  if (!e || depth > 4)
    return false;
  if (fold(e, &x) && fold(st, &y))
    return y != 0 && x % y == 0;
  static const char *const dims[] = {"x", "y", "z"};
  for (int d = 0; d < 3 && f; d++)
    if (is_block_dim(e, dims[d])) {
      /* assert(blockDim.z % 4 == 0) */
      bd_assert a = {dims[d], 0, true, false};
      if (!fold(st, &a.k) || a.k <= 0)
        return false;
      if (d == 2 && zdiv % a.k == 0) /* every launch's depth is a multiple of st */
        return true;
      wl_visitor v = {NULL, find_bd_assert, &a, false};
      wl_walk_stmt(f->body, &v);
      return a.found;
    }
  if (binop_or_operator(e) == WL_B_MUL)
    return same_value(f, e->args[0], st) || same_value(f, e->args[1], st) ||
           multiple_of(f, zdiv, e->args[0], st, depth + 1) ||
           multiple_of(f, zdiv, e->args[1], st, depth + 1);
  const wl_func *g = e->kind == WL_E_CALL ? e->callee : NULL;
  const wl_stmt *b = g ? g->body : NULL;
  if (!b || e->callee_is_method || (g->flags & WL_F_LAMBDA))
    return false;
  if (b->kind == WL_S_COMPOUND && b->nkids == 1)
    b = b->kids[0];
  const wl_expr *r = b->kind == WL_S_RETURN ? wl_expr_strip(b->expr) : NULL;
  if (binop_or_operator(r) != WL_B_MUL)
    return false;
  for (int i = 0; i < 2; i++) {
    const wl_expr *p = wl_expr_strip(r->args[i]);
    if (p && p->kind == WL_E_REF && p->var && (p->var->flags & WL_V_PARAM) &&
        p->var->param_index >= 0 && (unsigned)p->var->param_index < e->nargs &&
        (unsigned)p->var->param_index < g->nparams && g->params[p->var->param_index] == p->var &&
        !assigned_in(g->body, NULL, p->var) && same_value(f, e->args[p->var->param_index], st))
      return true;
  }
  return false;
}

/* Whether every value the start s0 of a loop can take lies in [0, st): the
 * thread index against its own block dimension (threadIdx.x, blockDim.x),
 * x % st or x & (st - 1) of a thread index, or threadIdx.x where f asserts
 * blockDim.x == st. */
static bool start_below(const wl_func *f, const wl_expr *s0, const wl_expr *st) {
  static const char *const dims[] = {"x", "y", "z"};
  long long k, m;
  s0 = resolve_once(f, s0);
  if (!s0)
    return false;
  for (int d = 0; d < 3; d++)
    if (is_tid(s0, dims[d])) {
      if (is_block_dim(st, dims[d]))
        return true;
      bd_assert a = {dims[d], 0, false, false};
      if (!fold(st, &a.k) || a.k <= 0 || !f)
        return false;
      wl_visitor v = {NULL, find_bd_assert, &a, false};
      wl_walk_stmt(f->body, &v);
      return a.found;
    }
  if (s0->kind != WL_E_BINARY || s0->nargs != 2)
    return false;
  const wl_expr *x = resolve_once(f, s0->args[0]);
  bool nonneg =
      x && ((x->type & WL_T_UNSIGNED) || is_tid(x, "x") || is_tid(x, "y") || is_tid(x, "z"));
  if (s0->op == WL_B_REM)
    return nonneg && same_value(f, s0->args[1], st);
  if (s0->op == WL_B_AND && fold(s0->args[1], &m) && m >= 0 && ((m + 1) & m) == 0)
    return nonneg && (is_warpsize(st) ? m == 31 : fold(st, &k) && k == m + 1);
  return false;
}

/* The operator of a binary expression, or of a call of `operator<`,
 * `operator>` or `operator+=` with two operands (arithmetic on a template's
 * dependent types); WL_B_NONE otherwise. */
static int binop_or_operator(const wl_expr *e) {
  if (!e || e->nargs != 2)
    return WL_B_NONE;
  if (e->kind == WL_E_BINARY)
    return e->op;
  if (e->kind != WL_E_CALL || e->callee_is_method || !e->name)
    return WL_B_NONE;
  return strcmp(e->name, "operator<") == 0    ? WL_B_LT
         : strcmp(e->name, "operator>") == 0  ? WL_B_GT
         : strcmp(e->name, "operator+=") == 0 ? WL_B_ADD_ASSIGN
         : strcmp(e->name, "operator*") == 0  ? WL_B_MUL
                                              : WL_B_NONE;
}

/* `i += st` among the comma operands of a loop's increment e (st, else
 * NULL); *other is set when another operand also assigns i. */
static const wl_expr *loop_step(const wl_expr *e, const wl_var *i, bool *other, int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return NULL;
  if (e->kind == WL_E_BINARY && e->op == WL_B_COMMA && e->nargs == 2) {
    const wl_expr *a = loop_step(e->args[0], i, other, depth + 1);
    const wl_expr *b = loop_step(e->args[1], i, other, depth + 1);
    if (a && b)
      *other = true;
    return a ? a : b;
  }
  if (binop_or_operator(e) == WL_B_ADD_ASSIGN) {
    const wl_expr *t = wl_expr_strip(e->args[0]);
    if (t && t->kind == WL_E_REF && t->var == i)
      return e->args[1];
  }
  if (assigned_in(NULL, e, i))
    *other = true;
  return NULL;
}

/* `i = s0` among the comma operands of a loop's init expression e. */
static const wl_expr *loop_start(const wl_expr *e, const wl_var *i, int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8 || e->kind != WL_E_BINARY || e->nargs != 2)
    return NULL;
  if (e->op == WL_B_COMMA) {
    const wl_expr *a = loop_start(e->args[0], i, depth + 1);
    return a ? a : loop_start(e->args[1], i, depth + 1);
  }
  const wl_expr *t = wl_expr_strip(e->args[0]);
  return e->op == WL_B_ASSIGN && t && t->kind == WL_E_REF && t->var == i ? e->args[1] : NULL;
}

static long long device_asserted_multiple(const wl_func *f, const wl_var *v, wl_loc at);

/* e, an expression of f, as the call `call` of f (its arguments from off
 * on) sees it: f's parameters replaced by the call's arguments, f's
 * non-type template parameters by the template arguments the call names;
 * constants and blockDim/gridDim members stay, products, sums, differences,
 * quotients and shifts of such are rebuilt (their nodes pushed on owned, to
 * be freed). NULL where e holds anything else (a local of f, a template
 * parameter the call does not name). */
static const wl_expr *as_call_sees(const wl_func *f, const wl_expr *call, unsigned off,
                                   const wl_expr *e, wl_vec *owned, int depth) {
  long long c;
  e = wl_expr_strip(e);
  if (!e || depth > 6)
    return NULL;
  if (fold(e, &c))
    return e;
  if (e->kind == WL_E_REF && !e->var && (e->type & WL_T_DEPENDENT) && e->name) {
    for (unsigned j = 0; j < f->ntparams; j++)
      if (f->tparams[j] && strcmp(f->tparams[j], e->name) == 0)
        return j < call->ntargs ? call->targs[j] : NULL;
    return NULL;
  }
  if (e->kind == WL_E_REF && e->var && (e->var->flags & WL_V_PARAM) && e->var->param_index >= 0 &&
      (unsigned)e->var->param_index < f->nparams && f->params[e->var->param_index] == e->var &&
      !assigned_in(f->body, NULL, e->var))
    return arg_at(call, e->var->param_index + (int)off);
  if (e->kind == WL_E_MEMBER && e->nargs >= 1 &&
      (var_named(builtin_var(e->args[0]), "blockDim") ||
       var_named(builtin_var(e->args[0]), "gridDim")))
    return e;
  int op = e->kind == WL_E_BINARY && e->nargs == 2 ? e->op : WL_B_NONE;
  if (op != WL_B_MUL && op != WL_B_ADD && op != WL_B_SUB && op != WL_B_DIV && op != WL_B_SHL)
    return NULL;
  const wl_expr *a = as_call_sees(f, call, off, e->args[0], owned, depth + 1);
  const wl_expr *b = a ? as_call_sees(f, call, off, e->args[1], owned, depth + 1) : NULL;
  if (!b)
    return NULL;
  wl_expr *n = wl_xcalloc(1, sizeof *n);
  *n = *e;
  n->args = wl_xcalloc(2, sizeof *n->args);
  n->args[0] = (wl_expr *)a;
  n->args[1] = (wl_expr *)b;
  wl_vec_push(owned, n->args);
  wl_vec_push(owned, n);
  return n;
}

/* Whether b, a parameter of fi's function that it never assigns, is a
 * multiple of st at every call of the function in the file (at least one):
 * the call's argument is a multiple of st as that call sees it
 * (multiple_of, in the caller). NCCL's `processAndSendToken<..., kUnroll,
 * ...>(..., hiddenPad, ...)` with `constexpr int hiddenPad = align(hidden,
 * 32 * kUnroll)` in its caller, for a loop stepping by `32 * kUnroll` to
 * hiddenPad. */
static bool calls_pass_multiple(const wl_lanes *L, const finfo *fi, const wl_expr *b,
                                const wl_expr *st) {
  const wl_func *f = fi->f;
  const wl_expr *r = wl_expr_strip(b);
  if (!r || r->kind != WL_E_REF || !r->var || !(r->var->flags & WL_V_PARAM) ||
      r->var->param_index < 0 || (unsigned)r->var->param_index >= f->nparams ||
      f->params[r->var->param_index] != r->var || assigned_in(f->body, NULL, r->var))
    return false;
  unsigned n = 0;
  bool ok = true;
  wl_vec owned = {0};
  for (unsigned k = 0; k < L->nfi && ok; k++) {
    const finfo *ci = &L->fi[k];
    for (size_t j = 0; j < ci->calls.n && ok; j++) {
      const wl_expr *call = ci->calls.v[j];
      unsigned off;
      if (call_target(L, call, &off) != fi)
        continue;
      n++;
      const wl_expr *a = arg_at(call, r->var->param_index + (int)off);
      const wl_expr *cst = as_call_sees(f, call, off, st, &owned, 0);
      long long cz = ci->launch_seen && ci->launch_zdiv > 0 ? ci->launch_zdiv : 1;
      ok = a && cst && multiple_of(ci->f, cz, a, cst, 0);
    }
  }
  for (size_t j = 0; j < owned.n; j++)
    free(owned.v[j]);
  wl_vec_free(&owned);
  return ok && n > 0;
}

/* s0 = x * T (either order) with x the lane id, or the lane id plus a
 * warp-uniform multiple of 32 in blocks of whole warps, and st = 32 * T (the
 * same T, taken to be positive: a loop counting up by a step of 0 or less
 * never ends or never starts): i / T minus the lane id is then a multiple of
 * 32 in every lane, and with B a multiple of st, `i < B` holds in all lanes
 * of a warp or in none. NCCL's `for (i = laneId * kUnroll; i < hiddenPad; i
 * += 32 * kUnroll)`. */
static bool lane_scaled_start(walker *W, const wl_expr *s0, const wl_expr *st) {
  const wl_func *f = W->fi->f;
  const wl_expr *x = wl_expr_strip(s0), *y = wl_expr_strip(st);
  if (binop_or_operator(x) != WL_B_MUL || binop_or_operator(y) != WL_B_MUL)
    return false;
  long long c;
  for (int i = 0; i < 2; i++) {
    const wl_expr *t = y->args[1 - i];
    if (!fold(y->args[i], &c) || c != 32)
      continue;
    for (int j = 0; j < 2; j++) {
      if (!same_value(f, x->args[1 - j], t))
        continue;
      lv v = eval(W, x->args[j]);
      unsigned sh = shape_closure(v.shape);
      if (v.set && sh != ~0u && ((sh & SH_LANE) || ((sh & SH_L32) && W->L->opts.whole_warps)))
        return true;
    }
  }
  return false;
}

/* Whether b is a multiple of 32 before loop s of f: its value's shape, a
 * constant, k * 32, `(x + 31) / 32 * 32`, or a variable that f asserts to be
 * one at the top level of its body before s (`assert(n % 32 == 0)`, or an
 * assertion macro that traps: `do { if (!(n % 32 == 0)) { printf(...);
 * asm("trap;"); } } while (0)`). */
static bool bound_m32(walker *W, const wl_stmt *s, const wl_expr *b, lv bv) {
  const wl_func *f = W->fi->f;
  if (lv_p2(bv) >= 5 && bv.shape != ~0u)
    return true;
  wl_expr k32 = {0};
  k32.kind = WL_E_INT;
  k32.ival = 32;
  k32.has_ival = true;
  if (multiple_of(f, 1, b, &k32, 0))
    return true;
  const wl_expr *r = wl_expr_strip(b);
  long long k = r && r->kind == WL_E_REF && r->var && f
                    ? device_asserted_multiple(f, r->var, s->range.begin)
                    : 0;
  return (k > 0 && k % 32 == 0) || calls_pass_multiple(W->L, W->fi, b, &k32);
}

/* for (i = s0; i < B; i += st) (other variables may be declared and stepped
 * beside i) where st and B are warp-uniform and either
 * - every lane's s0 lies in [0, st) and B is a multiple of st: every lane runs
 *   B / st iterations (none when B <= 0), whatever its start. THCTensorTopK's
 *   `for (i = threadIdx.x; i < THCRoundUp(n, blockDim.x); i += blockDim.x)`
 *   around a block-wide scan; or
 * - s0 is the lane id plus a warp-uniform multiple of 32 (the lane id, the
 *   thread id in blocks of whole warps, or a parameter passed either), and st
 *   and B are multiples of 32: i minus the lane id is then the same multiple
 *   of 32 in every lane in every iteration, so `i < B` holds in all lanes of
 *   the warp or in none. */
static bool uniform_trip(walker *W, const wl_stmt *s, lv *trip) {
  const wl_func *f = W->fi->f;
  if (s->kind != WL_S_FOR || !s->init || !s->expr || !s->inc)
    return false;
  const wl_expr *c = wl_expr_strip(s->expr), *b = NULL, *st = NULL, *s0 = NULL;
  const wl_var *i = NULL;
  int cop = binop_or_operator(c);
  if (cop != WL_B_NONE) {
    const wl_expr *l = wl_expr_strip(c->args[0]), *r = wl_expr_strip(c->args[1]);
    if (cop == WL_B_LT && l && l->kind == WL_E_REF) {
      i = l->var;
      b = c->args[1];
    } else if (cop == WL_B_GT && r && r->kind == WL_E_REF) {
      i = r->var;
      b = c->args[0];
    }
  }
  if (!i || !is_local(i))
    return false;
  if (s->init->kind == WL_S_DECL) {
    for (unsigned k = 0; k < s->init->nvars; k++)
      if (s->init->vars[k] == i)
        s0 = i->init;
  } else if (s->init->kind == WL_S_EXPR) {
    s0 = loop_start(s->init->expr, i, 0);
  }
  bool other = false;
  st = loop_step(s->inc, i, &other, 0);
  if (!s0 || !st || other || assigned_in(s->then_s, s->expr, i))
    return false;

  long long zdiv = W->fi->launch_seen && W->fi->launch_zdiv > 0 ? W->fi->launch_zdiv : 1;
  lv sv = eval(W, st), bv = eval(W, b);
  if (!(start_below(f, s0, st) || lane_scaled_start(W, s0, st)) ||
      !(multiple_of(f, zdiv, b, st, 0) || calls_pass_multiple(W->L, W->fi, b, st))) {
    lv v0 = eval(W, s0);
    unsigned sh = shape_closure(v0.shape);
    bool lane_like = v0.set && sh != ~0u && (sh & SH_L32) && W->L->opts.whole_warps;
    if (!lane_like || lv_p2(sv) < 5 || sv.shape == ~0u || !bound_m32(W, s, b, bv))
      return false;
  }
  *trip = lv_join(sv, bv); /* the trip count depends on these alone */
  return true;
}

static void walk_loop(walker *W, const wl_stmt *s, exits *ex) {
  const node *saved = W->chain;
  if (s->init)
    walk(W, s->init, ex);
  loopinfo *li = loop_info(W, s);
  lv c = {0};
  if (s->kind == WL_S_RANGE_FOR) {
    lv range = eval(W, s->expr);
    c = lv_ctrl(range);
    if (s->nvars == 1) {
      own_var(W, s->vars[0]);
      pmap_slot(&W->L->decl, s->vars[0], true)[0] = (void *)W->chain;
      env_join(W, s->vars[0], lv_deps(range));
    }
  } else if (s->kind != WL_S_DO && s->expr) {
    c = lv_ctrl(eval(W, s->expr));
    lv trip;
    if (uniform_trip(W, s, &trip))
      c = lv_ctrl(trip);
  }
  loop_update(W, li, c, c);
  const node *loop = push(W, WL_LR_LOOP, s->kind == WL_S_DO ? -1 : 1, s,
                          s->kind == WL_S_RANGE_FOR ? NULL : s->expr, li->reach, li->sync);
  walk_loop_body(W, s->then_s, s->kind == WL_S_FOR ? s->inc : NULL, loop, li, ex, false);
  if (s->kind == WL_S_DO && s->expr) {
    lv dc = lv_ctrl(eval(W, s->expr));
    loop_update(W, li, dc, dc);
  }
  W->chain = saved;
}

static bool is_lane_asm(const char *t) {
  return t && (strstr(t, "%laneid") || strstr(t, "%tid") || strstr(t, "%lanemask") ||
               strstr(t, "%clock") || strstr(t, "atom."));
}

/* `mov.u32 %0, %laneid;` (any type suffix, `%%` as clang spells it): the
 * one operand is the lane id. */
static bool is_laneid_mov(const wl_stmt *s) {
  const char *t = s->asm_text;
  if (!t || s->nkids != 1)
    return false;
  while (isspace((unsigned char)*t))
    t++;
  if (strncmp(t, "mov.", 4) != 0)
    return false;
  t += 4;
  while (isalnum((unsigned char)*t))
    t++;
  while (isspace((unsigned char)*t))
    t++;
  if (strncmp(t, "%0", 2) != 0)
    return false;
  t += 2;
  while (isspace((unsigned char)*t))
    t++;
  if (*t++ != ',')
    return false;
  while (isspace((unsigned char)*t))
    t++;
  t += strncmp(t, "%%", 2) == 0 ? 2 : *t == '%' ? 1 : 0;
  if (strncmp(t, "laneid", 6) != 0)
    return false;
  t += 6;
  while (isspace((unsigned char)*t) || *t == ';')
    t++;
  return *t == '\0';
}

static void walk_asm(walker *W, const wl_stmt *s) {
  lv all = LV_UNIFORM;
  if (is_lane_asm(s->asm_text))
    all.flags |= LV_LD;
  if (is_laneid_mov(s) && s->kids[0] && s->kids[0]->expr) {
    all.shape = SH_LANE;
    record(W, s->kids[0], LV_UNIFORM);
    assign(W, s->kids[0]->expr, all);
    return;
  }
  for (unsigned i = 0; i < s->nkids; i++)
    if (s->kids[i] && s->kids[i]->expr) {
      record(W, s->kids[i], LV_UNIFORM);
      all = lv_join(all, lv_noshape(eval(W, s->kids[i]->expr)));
    }
  for (unsigned i = 0; i < s->nkids; i++)
    if (s->kids[i] && s->kids[i]->expr)
      assign(W, s->kids[i]->expr, all);
}

/* For `__activemask() == 0xffffffff` (1) or `!=` (0): the side of the test
 * that all 32 lanes reach together; -1 for other conditions. */
static int full_activemask_side(const wl_lanes *L, const wl_expr *cond) {
  const wl_expr *c = wl_expr_strip(cond);
  if (!c || c->kind != WL_E_BINARY || c->nargs != 2 || (c->op != WL_B_EQ && c->op != WL_B_NE))
    return -1;
  for (int i = 0; i < 2; i++) {
    const rec *r = rec_of(L, c->args[i]);
    if (r && r->val.set && (r->val.shape & SH_AM) && r->val.shape != ~0u &&
        wl_consteval_is_full_mask(c->args[1 - i]))
      return c->op == WL_B_EQ ? 1 : 0;
  }
  return -1;
}

static void walk(walker *W, const wl_stmt *s, exits *ex) {
  if (!s)
    return;
  record(W, s, LV_UNIFORM);
  const node *saved = W->chain;
  switch (s->kind) {
  case WL_S_COMPOUND:
  case WL_S_OTHER: {
    for (unsigned i = 0; i < s->nkids; i++) {
      const wl_stmt *k = s->kids[i];
      if (k && (k->kind == WL_S_CASE || k->kind == WL_S_DEFAULT || k->kind == WL_S_LABEL))
        W->chain = saved; /* control may jump here */
      exits kx = {0};
      const node *before = W->chain;
      walk(W, k, &kx);
      for (size_t j = 0; j < kx.n; j++) {
        exitrec x = kx.v[j];
        exits_add(ex, x);
        if (x.at == before)
          continue; /* unconditional: what follows is dead */
        node *n = (node *)push(W, WL_LR_EXIT, -1, x.s, NULL, reach_between(x.at, before),
                               x.kind == WL_S_RETURN ? (lv){0} : sync_between(x.at, before));
        n->exit = x.s;
        n->exit_at = x.at;
        n->exit_base = before;
        /* if (__activemask() != 0xffffffff) return; leaves only whole warps */
        n->certified = x.at->outer == before && x.at->kind == WL_LR_IF && x.at->cert_side >= 0 &&
                       x.at->cert_side != x.at->side;
      }
      free(kx.v);
    }
    break;
  }
  case WL_S_EXPR:
    if (pmap_get(&W->L->kill, s)) {
      W->kill_lhs = wl_expr_strip(s->expr)->args[0];
      W->kill_at = s;
    }
    (void)eval(W, s->expr);
    W->kill_lhs = NULL;
    break;
  case WL_S_DECL:
    for (unsigned i = 0; i < s->nvars; i++) {
      const wl_var *v = s->vars[i];
      if (!is_local(v))
        continue;
      void **k = pmap_slot(&W->cur, v, false);
      if (k)
        *k = NULL; /* declared again (a loop's next iteration): the strong updates are ahead */
      own_var(W, v);
      pmap_slot(&W->L->decl, v, true)[0] = (void *)W->chain;
      if (v->init) {
        lv iv = eval(W, v->init);
        if (v->has_ival)
          iv = lv_join(iv, constant(v->ival));
        env_join(W, v, iv);
      }
    }
    break;
  case WL_S_IF: {
    if (s->init)
      walk(W, s->init, ex);
    lv c = lv_ctrl(eval(W, s->expr));
    int cs = full_activemask_side(W->L, s->expr);
    node *n = (node *)push(W, WL_LR_IF, 1, s, s->expr, c, c);
    n->cert_side = cs;
    n->certified = cs == 1;
    walk(W, s->then_s, ex);
    W->chain = saved;
    if (s->else_s) {
      n = (node *)push(W, WL_LR_IF, 0, s, s->expr, c, c);
      n->cert_side = cs;
      n->certified = cs == 0;
      walk(W, s->else_s, ex);
    }
    break;
  }
  case WL_S_FOR:
  case WL_S_WHILE:
  case WL_S_DO:
  case WL_S_RANGE_FOR: walk_loop(W, s, ex); break;
  case WL_S_SWITCH: {
    if (s->init)
      walk(W, s->init, ex);
    lv c = lv_ctrl(eval(W, s->expr));
    const node *sw = push(W, WL_LR_SWITCH, -1, s, s->expr, c, c);
    walk_loop_body(W, s->then_s, NULL, sw, NULL, ex, true);
    break;
  }
  case WL_S_CASE:
  case WL_S_DEFAULT:
  case WL_S_LABEL: walk(W, s->then_s, ex); break;
  case WL_S_RETURN: {
    lv v = s->expr ? eval(W, s->expr) : LV_UNIFORM;
    if (s->expr)
      W->fi->ret_cur = lv_join(W->fi->ret_cur, lv_join(v, lv_ctrl(reach_between(W->chain, NULL))));
    exits_add(ex, (exitrec){WL_S_RETURN, s, W->chain});
    break;
  }
  case WL_S_BREAK:
  case WL_S_CONTINUE:
  case WL_S_GOTO: exits_add(ex, (exitrec){s->kind, s, W->chain}); break;
  case WL_S_ASM: walk_asm(W, s); break;
  default: break;
  }
  W->chain = saved;
}

/* ---- evidence that warps are rows ----------------------------------------- */

/* threadIdx.<dim>, through casts */
static bool is_tid(const wl_expr *e, const char *dim) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_MEMBER || e->nargs < 1 || !name_is(e, dim))
    return false;
  return var_named(builtin_var(e->args[0]), "threadIdx");
}

static bool is_warpsize(const wl_expr *e) { return var_named(builtin_var(e), "warpSize"); }

/* threadIdx.<dim> * K (either order) with K 32 or warpSize; *ws: K is warpSize itself */
static bool row_stride(const wl_expr *e, const char *dim, bool *ws) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_BINARY || e->op != WL_B_MUL || e->nargs != 2)
    return false;
  for (int i = 0; i < 2; i++) {
    const wl_expr *k = e->args[1 - i];
    long long c;
    if (!is_tid(e->args[i], dim))
      continue;
    if (is_warpsize(k)) {
      *ws = true;
      return true;
    }
    if (fold(k, &c) && c == 32)
      return true;
  }
  return false;
}

/* threadIdx.x + 32 * threadIdx.<dim> (any order), or threadIdx.<dim> * warpSize */
static bool row_evidence(const wl_expr *e, const char *dim) {
  bool ws = false;
  if (row_stride(e, dim, &ws) && ws)
    return true;
  if (e->kind != WL_E_BINARY || e->op != WL_B_ADD || e->nargs != 2)
    return false;
  return (is_tid(e->args[0], "x") && row_stride(e->args[1], dim, &ws)) ||
         (is_tid(e->args[1], "x") && row_stride(e->args[0], dim, &ws));
}

/* blockDim.x == K with K a multiple of 32 (warpSize), either order */
static bool bdx_is_warps(const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_BINARY || e->op != WL_B_EQ || e->nargs != 2)
    return false;
  for (int i = 0; i < 2; i++) {
    const wl_expr *d = wl_expr_strip(e->args[i]), *k = e->args[1 - i];
    long long c;
    if (d && d->kind == WL_E_MEMBER && d->nargs >= 1 && name_is(d, "x") &&
        var_named(builtin_var(d->args[0]), "blockDim") &&
        (is_warpsize(k) || (fold(k, &c) && c > 0 && c % 32 == 0)))
      return true;
  }
  return false;
}

/* Whether e (within a few levels of wrappers, &&, calls) satisfies pred. */
static bool has_within(const wl_expr *e, bool (*pred)(const wl_expr *), int depth) {
  if (!e || depth < 0)
    return false;
  if (pred(e))
    return true;
  if (e->kind == WL_E_BINARY && e->op != WL_B_LAND)
    return false;
  for (unsigned i = 0; i < e->nargs; i++)
    if (has_within(e->args[i], pred, depth - 1))
      return true;
  return false;
}

/* __assert_fail("cond", "file", line, "func") (unresolved calls are WL_E_OTHER) */
static bool is_assert_fail(const wl_expr *e) {
  if (e->kind == WL_E_CALL && e->name && strstr(e->name, "assert"))
    return true;
  return e->kind == WL_E_OTHER && e->nargs >= 3 && e->args[1]->kind == WL_E_STRING &&
         e->args[2]->kind == WL_E_STRING;
}

/* assert(blockDim.x == 32): cond ? (void)0 : __assert_fail(...) */
static bool assert_evidence(const wl_expr *e) {
  if (e->kind != WL_E_COND || e->nargs != 3)
    return false;
  return has_within(e->args[0], bdx_is_warps, 4) &&
         (has_within(e->args[1], is_assert_fail, 3) || has_within(e->args[2], is_assert_fail, 3));
}

/* assert(blockDim.<dim> == K) (K a positive constant, within && of the
 * condition): K, else 0. */
static long long asserted_dim(const wl_expr *e, const char *dim) {
  if (e->kind != WL_E_COND || e->nargs != 3 ||
      !(has_within(e->args[1], is_assert_fail, 3) || has_within(e->args[2], is_assert_fail, 3)))
    return 0;
  wl_vec todo = {0};
  wl_vec_push(&todo, (void *)e->args[0]);
  long long k = 0;
  for (int n = 0; todo.n && n < 16 && !k; n++) {
    const wl_expr *c = wl_expr_strip(todo.v[--todo.n]);
    if (!c)
      continue;
    if (c->kind == WL_E_BINARY && c->op == WL_B_LAND && c->nargs == 2) {
      wl_vec_push(&todo, (void *)c->args[0]);
      wl_vec_push(&todo, (void *)c->args[1]);
    } else if (c->kind == WL_E_BINARY && c->op == WL_B_EQ && c->nargs == 2) {
      for (int i = 0; i < 2 && !k; i++)
        if (is_block_dim(c->args[i], dim) && fold(c->args[1 - i], &k) && k <= 0)
          k = 0;
    } else if (c->nargs == 1) {
      wl_vec_push(&todo, (void *)c->args[0]);
    }
  }
  wl_vec_free(&todo);
  return k;
}

/* threadIdx.x (directly, or a local of f set once to it: fwht's `const int
 * lane = threadIdx.x;`) plus 32 times a value that does not depend on
 * threadIdx (`threadIdx.x + i * WARP_SIZE`, `src[i * warp_size + lane]`):
 * the kernel reads rows of 32 elements with one thread per element, so
 * its blocks are 32 threads wide, as with `threadIdx.x + 32 * threadIdx.y`
 * (ggml's topk_moe_cuda and fwht_cuda, one warp per row threadIdx.y). */
static bool names_tid(const wl_expr *e, int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (e->kind == WL_E_MEMBER && e->nargs >= 1 && var_named(builtin_var(e->args[0]), "threadIdx"))
    return true;
  if (e->kind == WL_E_REF && e->var && is_local(e->var) && !(e->var->flags & WL_V_PARAM))
    return e->var->init && names_tid(e->var->init, depth + 1); /* a loop counter from 0 */
  for (unsigned i = 0; i < e->nargs; i++)
    if (names_tid(e->args[i], depth + 1))
      return true;
  return false;
}

/* The terms of a sum (nested +), at most n. */
static size_t sum_terms(const wl_expr *e, const wl_expr **t, size_t n, size_t k) {
  e = wl_expr_strip(e);
  if (!e || k >= n)
    return k;
  if (e->kind == WL_E_BINARY && e->op == WL_B_ADD && e->nargs == 2)
    return sum_terms(e->args[1], t, n, sum_terms(e->args[0], t, n, k));
  t[k] = e;
  return k + 1;
}

static bool lane_chunk_evidence(const wl_func *f, const wl_expr *e) {
  if (e->kind != WL_E_BINARY || e->op != WL_B_ADD || e->nargs != 2)
    return false;
  const wl_expr *t[8];
  size_t n = sum_terms(e, t, 8, 0);
  bool chunk = false, lane = false;
  for (size_t i = 0; i < n; i++) {
    const wl_expr *m = t[i];
    long long k;
    if (m->kind == WL_E_BINARY && m->op == WL_B_MUL && m->nargs == 2) {
      int c = fold(m->args[0], &k) && k == 32 ? 0 : fold(m->args[1], &k) && k == 32 ? 1 : -1;
      chunk = chunk || (c >= 0 && !names_tid(m->args[1 - c], 0));
    }
  }
  for (size_t i = 0; i < n && chunk && !lane; i++)
    lane = is_tid(t[i], "x") || is_tid(resolve_once(f, t[i]), "x");
  return chunk && lane;
}

static bool find_row_evidence(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  finfo *fi = ud;
  if (e->kind == WL_E_BINARY) {
    fi->rows_y = fi->rows_y || row_evidence(e, "y") ||
                 ((fi->f->flags & WL_F_GLOBAL) && (!fi->launch_seen || fi->launch_bx <= 0) &&
                  lane_chunk_evidence(fi->f, e));
    fi->rows_z = fi->rows_z || row_evidence(e, "z");
  } else if (assert_evidence(e)) {
    fi->rows_y = true;
  } else if (e->kind == WL_E_COND) {
    long long k;
    if ((k = asserted_dim(e, "x")) > 0)
      fi->assert_bx = k;
    if ((k = asserted_dim(e, "y")) > 0)
      fi->assert_by = k;
    /* assert(blockDim.x == 4); assert(blockDim.y == 8): each z slice of the
     * block is a whole number of warps (llm.c's matmul_backward_bias_kernel9) */
    if (fi->assert_bx > 0 && fi->assert_by > 0 && fi->assert_bx * fi->assert_by % 32 == 0)
      fi->rows_z = true;
  }
  return true;
}

static bool collect_calls(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  if (e->kind == WL_E_CALL)
    wl_vec_push(ud, (void *)e);
  return true;
}

/* ---- the block shape a kernel is launched with ------------------------------ */

/* Host code is read in contexts: the function whose code it is, and, when
 * that function is a launch wrapper reached from a call, the call that binds
 * its parameters (whose arguments are read in the context `up`). `at` is
 * where in h the code of interest lies (a launch, or the call on the way to
 * it): what h asserts before it is known there. A context without a call
 * stands for every call of h in the file (host_int asks them all). */
typedef struct hpool hpool;
typedef struct hctx {
  const wl_func *h;
  const wl_expr *call;
  const struct hctx *up;
  wl_loc at;
  hpool *pool;
} hctx;

/* What host code reading needs of the file: its functions by USR, the calls
 * of each function (with the function making them), and the frames made
 * while reading (freed with it). */
struct hpool {
  const wl_tu *tu;
  wl_hmap by_usr; /* USR -> wl_func * (with a body) */
  pmap callers;   /* wl_func * -> wl_vec * of (call, caller) pairs */
  pmap launched;  /* wl_func * -> uintptr_t mask + 1 (launched_params) */
  wl_vec frames;  /* hctx * */
  bool wrappers;  /* follow launch wrappers */
};

static const hctx *frame(const hctx *C, const wl_func *h, const wl_expr *call, wl_loc at) {
  hctx *n = wl_xmalloc(sizeof *n);
  *n = (hctx){h, call, C, at, C->pool};
  wl_vec_push(&C->pool->frames, n);
  return n;
}

typedef struct member_assign_find {
  const wl_var *v;
  bool found;
} member_assign_find;

/* v, or a member of it (block.x = 8), assigned, incremented or its address taken. */
static bool find_member_assigned(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  member_assign_find *a = ud;
  const wl_expr *t = NULL;
  if (e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2)
    t = e->args[0];
  else if (e->kind == WL_E_UNARY && e->nargs == 1 && e->op != WL_U_DEREF && e->op != WL_U_PLUS &&
           e->op != WL_U_MINUS && e->op != WL_U_NOT && e->op != WL_U_LNOT)
    t = e->args[0];
  t = wl_expr_strip(t);
  while (t && t->kind == WL_E_MEMBER && !t->arrow && t->nargs >= 1)
    t = wl_expr_strip(t->args[0]);
  if (t && t->kind == WL_E_REF && t->var == a->v)
    a->found = true;
  return !a->found;
}

static bool assigned_in_func(const wl_func *h, const wl_var *v) {
  member_assign_find a = {v, false};
  wl_visitor vis = {NULL, find_member_assigned, &a, true};
  wl_walk_stmt(h->body, &vis);
  return a.found;
}

/* Parameter i of h, when e names it. */
static int param_of(const wl_func *h, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!h || !e || e->kind != WL_E_REF || !e->var || !(e->var->flags & WL_V_PARAM))
    return -1;
  int i = e->var->param_index;
  return i >= 0 && (unsigned)i < h->nparams && h->params[i] == e->var ? i : -1;
}

/* One step towards the value of e in context *C: a parameter bound by the
 * context's call (its argument, in the caller's context; its default
 * argument where the call leaves it out), a local of h (not a parameter)
 * that its declaration initializes and that nothing in h assigns again,
 * even through a member or its address (its initializer), or a member of an
 * object that a constructor of the file built (`params.block_dims` with
 * `params` set once to `launch_params(grid, block, 0, s)`: the member's
 * initializer in the constructor, `block_dims(block_dims_)`, in the context
 * of that call); NULL when none applies. */
static const wl_expr *step(const hctx **C, const wl_expr *e, int depth) {
  e = wl_expr_strip(e);
  const hctx *c = *C;
  if (!e || !c || !c->h || depth > 8)
    return NULL;
  int p = param_of(c->h, e);
  if (p >= 0) {
    if (!c->call || !c->up || assigned_in_func(c->h, e->var))
      return NULL;
    const wl_expr *a = arg_at(c->call, p);
    if (!a)
      return e->var->init; /* the default argument: constants, not h's parameters */
    *C = c->up;
    return a;
  }
  if (e->kind == WL_E_MEMBER && !e->arrow && e->nargs == 1 && e->name) {
    const hctx *b = c;
    const wl_expr *o = wl_expr_strip(e->args[0]);
    for (int i = 0; o && i < 8 && !(o->kind == WL_E_CALL && o->callee); i++)
      o = wl_expr_strip(step(&b, o, depth + 1));
    if (!o || o->kind != WL_E_CALL || !o->callee || !o->callee->nminits)
      return NULL;
    const wl_func *ctor = o->callee;
    for (unsigned i = 0; i < ctor->nminits; i++)
      if (ctor->minit_names[i] && strcmp(ctor->minit_names[i], e->name) == 0) {
        *C = frame(b, ctor, o, o->loc);
        return ctor->minit_exprs[i];
      }
    return NULL;
  }
  if (e->kind != WL_E_REF || !e->var || !e->var->init || !is_local(e->var) ||
      (e->var->flags & WL_V_PARAM) || assigned_in_func(c->h, e->var))
    return NULL;
  return e->var->init;
}

/* An integer of h known at compile time (through locals set once). */
typedef struct warp_attr_find {
  const wl_var *v;
  int queried; /* cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, ...) seen */
  bool other;  /* v set (or its address taken) any other way */
} warp_attr_find;

static bool find_warp_attr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  warp_attr_find *w = ud;
  if (e->kind == WL_E_CALL && e->name && strcmp(e->name, "cudaDeviceGetAttribute") == 0 &&
      e->nargs >= 2) {
    const wl_expr *a = wl_expr_strip(e->args[0]), *k = wl_expr_strip(e->args[1]);
    const wl_expr *t = a && a->kind == WL_E_UNARY && a->op == WL_U_ADDROF && a->nargs == 1
                           ? wl_expr_strip(a->args[0])
                           : NULL;
    if (t && t->kind == WL_E_REF && t->var == w->v) {
      if (k && k->name && strcmp(k->name, "cudaDevAttrWarpSize") == 0)
        w->queried++;
      else
        w->other = true;
      return false; /* the &v of this call is accounted for */
    }
  }
  member_assign_find m = {w->v, false};
  (void)find_member_assigned(e, in, &m);
  w->other = w->other || m.found;
  return !w->other;
}

/* A local int of h that h sets only through cudaDeviceGetAttribute(&v,
 * cudaDevAttrWarpSize, device) (kaldi's `int warpSize;` before `dim3
 * thrds(warpSize, 16)`): the device's warp size, 32 on every CUDA GPU. */
static bool warp_size_attr(const wl_func *h, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!h || !e || e->kind != WL_E_REF || !e->var || e->var->init || !is_local(e->var) ||
      (e->var->flags & WL_V_PARAM) || !(e->var->type & WL_T_INTEGER))
    return false;
  warp_attr_find w = {e->var, 0, false};
  wl_visitor v = {NULL, find_warp_attr, &w, true};
  wl_walk_stmt(h->body, &v);
  return w.queried == 1 && !w.other;
}

/* An integer member named as the warp size (`prop.warpSize` of a
 * cudaDeviceProp, a device table's `warp_size`: ggml's
 * `ggml_cuda_info().devices[id].warp_size`, filled from cudaDeviceProp):
 * the device's warp size, 32 on every CUDA GPU. */
static bool warp_size_member(const wl_expr *e) {
  e = wl_expr_strip(e);
  return e && e->kind == WL_E_MEMBER && e->name && (e->type & WL_T_INTEGER) &&
         (strcmp(e->name, "warpSize") == 0 || strcmp(e->name, "warp_size") == 0);
}

static bool host_int(const hctx *C, const wl_expr *e, long long *x, int depth);

/* A parameter of h in a context that stands for every call of h: the value
 * every call of h in the file passes (at least one call, at most 64, and
 * two levels of callers). */
static bool callers_int(const hctx *C, int p, long long *x, int depth) {
  wl_vec *cs = pmap_get(&C->pool->callers, C->h);
  bool any = false;
  if (!cs || depth > 2 || cs->n > 2 * 64) /* a few levels of a few callers: no blow-up */
    return false;
  for (size_t i = 0; i + 1 < cs->n; i += 2) {
    const wl_expr *call = cs->v[i];
    const wl_func *caller = cs->v[i + 1];
    const wl_expr *a = arg_at(call, p);
    hctx top = {caller, NULL, NULL, call->loc, C->pool};
    long long y;
    if (!a || !host_int(&top, a, &y, depth + 1) || (any && y != *x))
      return false;
    *x = y;
    any = true;
  }
  return any;
}

static bool host_int(const hctx *C, const wl_expr *e, long long *x, int depth) {
  if (!e || depth > 8)
    return false;
  if (fold(e, x))
    return true;
  if (warp_size_attr(C->h, e) || warp_size_member(e)) {
    *x = 32;
    return true;
  }
  int p = param_of(C->h, e);
  if (p >= 0 && !C->call && C->pool->wrappers && !assigned_in_func(C->h, wl_expr_strip(e)->var))
    return callers_int(C, p, x, depth);
  const hctx *c = C;
  const wl_expr *i = step(&c, e, 0);
  return i && host_int(c, i, x, depth + 1);
}

/* The extents of a launch's block argument e in context C: dim3(x, y, z)
 * (the extents it leaves out are 1), a copy of a dim3 local set once
 * (`dim3 block4(4, tpb / 4); k<<<grid, block4>>>`), or an integer (x, with y
 * and z 1). d[i] is 0 where an extent is not known. */
static bool block_extents(const hctx *C, const wl_expr *e, long long d[3], int depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (e->type & WL_T_INTEGER) {
    if (!host_int(C, e, &d[0], 0))
      d[0] = 0;
    d[1] = d[2] = 1;
    return true;
  }
  if (e->kind == WL_E_CALL && e->name && strcmp(e->name, "dim3") == 0) {
    if (e->nargs == 1 && !(wl_expr_strip(e->args[0])->type & WL_T_INTEGER))
      return block_extents(C, e->args[0], d, depth + 1); /* the copy constructor */
    for (unsigned i = 0; i < 3; i++) {
      d[i] = 1;
      if (i < e->nargs && (!host_int(C, e->args[i], &d[i], 0) || d[i] < 1))
        d[i] = 0;
    }
    return true;
  }
  const hctx *c = C;
  const wl_expr *i = step(&c, e, 0);
  return i && block_extents(c, i, d, depth + 1);
}

/* The expression of extent i (0: x, 1: y, 2: z) of a launch's block
 * argument e in context *C (set to the expression's): the integer (x),
 * dim3's argument or a `dim3 b = {x, y, z}` list's element (through a dim3
 * local set once, a parameter bound by a wrapper's call, a member a
 * constructor set); NULL when not known or left to its default 1 (*one set
 * then). */
static const wl_expr *block_dim_expr(const hctx **C, const wl_expr *e, unsigned i, bool *one,
                                     int depth) {
  e = wl_expr_strip(e);
  *one = false;
  if (!e || depth > 8)
    return NULL;
  if (e->type & WL_T_INTEGER) {
    *one = i > 0;
    return i == 0 ? e : NULL;
  }
  bool ctor = e->kind == WL_E_CALL && e->name && strcmp(e->name, "dim3") == 0;
  if (ctor && e->nargs == 1 && !(wl_expr_strip(e->args[0])->type & WL_T_INTEGER))
    return block_dim_expr(C, e->args[0], i, one, depth + 1); /* the copy constructor */
  if (ctor && e->nargs == 1 && e->args[0]->kind == WL_E_INITLIST)
    return block_dim_expr(C, e->args[0], i, one, depth + 1);
  if (ctor || e->kind == WL_E_INITLIST) {
    *one = i >= e->nargs;
    return i < e->nargs ? e->args[i] : NULL;
  }
  const wl_expr *in = step(C, e, 0);
  return in ? block_dim_expr(C, in, i, one, depth + 1) : NULL;
}

static long long gcd_ll(long long a, long long b) {
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a < 0 ? -a : a;
}

/* A positive number that the value of e (in context C) is always a
 * multiple of: a constant, `c ? a : b` (the gcd of both), products, a
 * quotient by a constant that divides the dividend's number, through casts
 * and locals set once; 1 when nothing better is known. */
static long long host_divisor(const hctx *C, const wl_expr *e, int depth) {
  long long x, y;
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return 1;
  if (host_int(C, e, &x, 0))
    return x > 0 ? x : x < 0 ? -x : 1;
  if (e->kind == WL_E_COND && e->nargs == 3)
    return gcd_ll(host_divisor(C, e->args[1], depth + 1), host_divisor(C, e->args[2], depth + 1));
  if (e->kind == WL_E_BINARY && e->nargs == 2 && e->op == WL_B_MUL)
    return host_divisor(C, e->args[0], depth + 1) * host_divisor(C, e->args[1], depth + 1);
  if (e->kind == WL_E_BINARY && e->nargs == 2 && e->op == WL_B_DIV &&
      host_int(C, e->args[1], &y, 0) && y > 0) {
    x = host_divisor(C, e->args[0], depth + 1);
    return x % y == 0 ? x / y : 1;
  }
  const hctx *c = C;
  const wl_expr *i = step(&c, e, 0);
  return i ? host_divisor(c, i, depth + 1) : 1;
}

/* e in context *C, followed through bound parameters and locals set once
 * as far as they go. */
static const wl_expr *settle(const hctx **C, const wl_expr *e) {
  e = wl_expr_strip(e);
  for (int i = 0; e && i < 16; i++) {
    const hctx *c = *C;
    const wl_expr *n = step(&c, e, 0);
    if (!n)
      break;
    e = wl_expr_strip(n);
    *C = c;
  }
  return e;
}

/* Whether a (in context A) and b (in B) are the same value: equal
 * constants, or one variable of one function that nothing in it assigns
 * after its declaration. */
static bool same_host_value(const hctx *A, const wl_expr *a, const hctx *B, const wl_expr *b) {
  long long x, y;
  if (!a || !b)
    return false;
  if (host_int(A, a, &x, 0) && host_int(B, b, &y, 0))
    return x == y;
  /* the variables each names on its way (through bound parameters and
   * locals set once), compared pairwise */
  const wl_expr *va[8], *vb[8];
  const hctx *ca[8], *cb[8];
  unsigned na = 0, nb = 0;
  for (const wl_expr *e = wl_expr_strip(a); e && na < 8; e = wl_expr_strip(step(&A, e, 0))) {
    va[na] = e;
    ca[na++] = A;
  }
  for (const wl_expr *e = wl_expr_strip(b); e && nb < 8; e = wl_expr_strip(step(&B, e, 0))) {
    vb[nb] = e;
    cb[nb++] = B;
  }
  for (unsigned i = 0; i < na; i++)
    for (unsigned j = 0; j < nb; j++)
      if (va[i]->kind == WL_E_REF && vb[j]->kind == WL_E_REF && va[i]->var &&
          va[i]->var == vb[j]->var && is_local(va[i]->var) && ca[i]->h == cb[j]->h &&
          !assigned_in_func(ca[i]->h, va[i]->var))
        return true;
  return false;
}

/* Whether launch argument a (in context C) is a multiple of 32 or the
 * block's width bx (in context BX), or `c ? a1 : a2` of such (ccminer's
 * compaction scans: `k<<<1, thr2>>>(..., (thr2 > 32) ? 32 : thr2)`). */
static bool warp_divisor_arg(const hctx *C, const wl_expr *a, const hctx *BX, const wl_expr *bx,
                             int depth) {
  long long c;
  a = wl_expr_strip(a);
  if (!a || depth > 8)
    return false;
  if (host_int(C, a, &c, 0))
    return c > 0 && c % 32 == 0;
  if (bx && same_host_value(C, a, BX, bx))
    return true;
  if (a->kind == WL_E_COND && a->nargs == 3)
    return warp_divisor_arg(C, a->args[1], BX, bx, depth + 1) &&
           warp_divisor_arg(C, a->args[2], BX, bx, depth + 1);
  const hctx *n = C;
  const wl_expr *i = step(&n, a, 0);
  return i && warp_divisor_arg(n, i, BX, bx, depth + 1);
}

/* Whether statement s leaves the function (or the program): a return, a
 * call of a function named like abort, exit or an assertion's failure
 * (GGML_ABORT's ggml_abort, __assert_fail, exit), inline PTX `trap`, or a
 * block ending so. */
static bool leaves(const wl_stmt *s, int depth) {
  if (!s || depth > 4)
    return false;
  if (s->kind == WL_S_RETURN)
    return true;
  if (s->kind == WL_S_COMPOUND)
    return s->nkids && leaves(s->kids[s->nkids - 1], depth + 1);
  if (s->kind == WL_S_ASM) /* asm("trap;"): the thread stops, the kernel fails */
    return s->asm_text && strstr(s->asm_text, "trap") != NULL;
  if (s->kind != WL_S_EXPR || !s->expr)
    return false;
  const wl_expr *e = wl_expr_strip(s->expr);
  if (!e || e->kind != WL_E_CALL || !e->name)
    return false;
  static const char *const words[] = {"abort", "assert", "exit", "fatal", "panic", "trap"};
  char low[64];
  size_t n = strlen(e->name);
  if (n >= sizeof low)
    return false;
  for (size_t i = 0; i <= n; i++)
    low[i] = (char)tolower((unsigned char)e->name[i]);
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strstr(low, words[i]))
      return true;
  return false;
}

/* `v % K == 0` (either order of ==, K a positive constant of C): K, else 0.
 * neg: the test as written is negated (`v % K != 0`, `v % K`). */
static long long mod_test(const hctx *C, const wl_expr *c, const wl_var *v, bool neg) {
  long long k, z;
  c = wl_expr_strip(c);
  if (!c)
    return 0;
  const wl_expr *m = c;
  if (c->kind == WL_E_BINARY && c->nargs == 2 && (c->op == (neg ? WL_B_NE : WL_B_EQ))) {
    int i = fold(c->args[1], &z) && z == 0 ? 0 : fold(c->args[0], &z) && z == 0 ? 1 : -1;
    if (i < 0)
      return 0;
    m = wl_expr_strip(c->args[i]);
  } else if (!neg) {
    return 0;
  }
  if (!m || m->kind != WL_E_BINARY || m->op != WL_B_REM || m->nargs != 2)
    return 0;
  const wl_expr *x = wl_expr_strip(m->args[0]);
  if (!x || x->kind != WL_E_REF || x->var != v ||
      !(C->pool ? host_int(C, m->args[1], &k, 0) : fold(m->args[1], &k)) || k <= 0)
    return 0;
  return k;
}

/* The largest K of the `v % K == 0` tests that condition c says hold
 * (holds) or fail (!holds) (through !, && where they hold, || where they
 * fail); 0 when none. */
static long long mod_facts(const hctx *C, const wl_expr *c, const wl_var *v, bool holds,
                           int depth) {
  c = wl_expr_strip(c);
  if (!c || depth > 8)
    return 0;
  if (c->kind == WL_E_UNARY && c->op == WL_U_LNOT && c->nargs == 1)
    return mod_facts(C, c->args[0], v, !holds, depth + 1);
  if (c->kind == WL_E_BINARY && c->nargs == 2 && c->op == (holds ? WL_B_LAND : WL_B_LOR)) {
    long long a = mod_facts(C, c->args[0], v, holds, depth + 1);
    long long b = mod_facts(C, c->args[1], v, holds, depth + 1);
    return a > b ? a : b;
  }
  return mod_test(C, c, v, !holds);
}

/* A number that the function of C asserts variable v to be a multiple of,
 * before C's `at` (a statement of its body's top level: `assert(v % K ==
 * 0);`, ggml's GGML_ASSERT(v % K == 0), which is `if (!(v % K == 0))
 * ggml_abort(...)`, `if (v % K != 0) return;`); 0 when none, or when h
 * assigns v. */
static long long asserted_multiple(const hctx *C, const wl_var *v) {
  const wl_func *h = C->h;
  if (!h || !h->body || h->body->kind != WL_S_COMPOUND || !v || !is_local(v) ||
      assigned_in_func(h, v))
    return 0;
  long long best = 0, z;
  for (unsigned i = 0; i < h->body->nkids; i++) {
    const wl_stmt *s = h->body->kids[i];
    if (s->range.end.offset > C->at.offset || !s->range.end.file || !C->at.file ||
        strcmp(s->range.end.file, C->at.file) != 0)
      break;
    /* an assertion macro's `do { if (!(c)) { ...; trap; } } while (0)` */
    if (s->kind == WL_S_DO && s->expr && fold(s->expr, &z) && z == 0 && s->then_s &&
        s->then_s->kind == WL_S_COMPOUND && s->then_s->nkids == 1)
      s = s->then_s->kids[0];
    long long k = 0;
    if (s->kind == WL_S_IF && !s->else_s && s->expr && leaves(s->then_s, 0))
      k = mod_facts(C, s->expr, v, false, 0);
    else if (s->kind == WL_S_EXPR && s->expr) {
      const wl_expr *e = wl_expr_strip(s->expr);
      if (e && e->kind == WL_E_COND && e->nargs == 3 &&
          (has_within(e->args[1], is_assert_fail, 3) || has_within(e->args[2], is_assert_fail, 3)))
        k = mod_facts(C, e->args[0], v, true, 0);
    }
    if (k > best)
      best = k;
  }
  return best;
}

/* A number that device function f asserts its variable v to be a multiple
 * of before `at` (asserted_multiple's forms, and an assertion macro that
 * traps): a lane that fails the check stops the kernel, so the lanes that
 * go on past it know the fact. */
static long long device_asserted_multiple(const wl_func *f, const wl_var *v, wl_loc at) {
  hctx C = {f, NULL, NULL, at, NULL};
  return asserted_multiple(&C, v);
}

/* A number launch argument a (in context C) is always a multiple of:
 * host_divisor's, or one that a function on the way asserts of the
 * variable before the launch (or the call leading to it). */
static long long launch_arg_divisor(const hctx *C, const wl_expr *a) {
  long long d = host_divisor(C, a, 0);
  for (int n = 0; a && n < 16; n++) {
    const wl_expr *x = wl_expr_strip(a);
    if (x && x->kind == WL_E_REF && x->var) {
      long long k = asserted_multiple(C, x->var);
      if (k > 0)
        d = d / gcd_ll(d, k) * k;
    }
    a = step(&C, x, 0);
  }
  return d > 0 ? d : 1;
}

/* A launch of a kernel k: `launch` is the `<<<...>>>` call, read in context
 * C (its function: the host function, or the innermost launch wrapper on
 * the way). */
typedef struct launch_view {
  const wl_func *k;
  const wl_expr *launch;
  const hctx *C;
} launch_view;

/* The pack parameter a wrapper's launch expands (`kernel<<<...>>>(
 * std::forward<Args>(args)...)`: one argument naming the wrapper's last
 * parameter, a template's pack), else -1. */
static int pack_param(const wl_func *w, const wl_expr *launch) {
  if (!w || launch->nargs != 1 || !(w->flags & WL_F_TEMPLATE) || !w->nparams)
    return -1;
  const wl_expr *a = wl_expr_strip(launch->args[0]);
  for (int i = 0; a && i < 4 && a->kind != WL_E_REF; i++)
    a = a->nargs == 1 ? wl_expr_strip(a->args[0]) : NULL; /* the expansion, std::forward */
  int p = param_of(w, a);
  return p == (int)w->nparams - 1 ? p : -1;
}

/* Argument i of the launch (in *C, set to its context): the launch's own,
 * or, where it expands the wrapper's parameter pack, the argument of the
 * wrapper's call at that place. */
static const wl_expr *launch_arg(const launch_view *v, unsigned i, const hctx **C) {
  *C = v->C;
  int q = v->C->call ? pack_param(v->C->h, v->launch) : -1;
  if (q < 0)
    return i < v->launch->nargs ? v->launch->args[i] : NULL;
  *C = v->C->up;
  return arg_at(v->C->call, q + (int)i);
}

/* Calls `fn(view, d, ud)` for each launch of a kernel of the file, with the
 * block's extents d (0 where not known). */
typedef void (*launch_fn)(const launch_view *lv, const long long d[3], void *ud);

typedef struct launch_find {
  hpool *pool;
  const hctx *C;
  launch_fn fn;
  void *ud;
  int depth;
  /* a launch wrapper's walk: the kernel its parameter `param` names */
  const wl_func *kernel;
  int param;
} launch_find;

static void report_launch(launch_find *lf, const wl_expr *launch, const wl_func *k) {
  hctx at = *lf->C;
  at.at = launch->loc;
  launch_view view = {k, launch, &at};
  long long d[3] = {0, 0, 0};
  if (launch->config->nargs < 2 || !block_extents(&at, launch->config->args[1], d, 0))
    d[0] = d[1] = d[2] = 0;
  lf->fn(&view, d, lf->ud);
}

static bool callee_param_is(const wl_func *w, const wl_expr *e, int p) {
  return p >= 0 && param_of(w, e) == p;
}

static int launched_params_depth(hpool *P, const wl_func *w, int depth);

typedef struct assign_count {
  const wl_var *v;
  size_t n;
} assign_count;

/* Counts the expressions that may change v: assignments to it (or a member
 * of it), increments, its address taken. */
static bool count_assigned(const wl_expr *e, const wl_stmt *in, void *ud) {
  assign_count *a = ud;
  member_assign_find m = {a->v, false};
  (void)find_member_assigned(e, in, &m);
  a->n += m.found;
  return true;
}

/* The kernel that argument e (in context C) names: a reference to a
 * __global__ function of the file (a template's code for its
 * specializations), through bound parameters, or a local function pointer
 * that h sets (its initializer and assignments) only to one kernel (ggml's
 * `fattn_kernel = flash_attn_ext_f16<..., true>` and `<..., false>`). */
static const wl_func *kernel_named(const hctx *C, const wl_expr *e, int depth) {
  e = settle(&C, e);
  if (!e || depth > 4)
    return NULL;
  if (e->kind == WL_E_UNARY && e->op == WL_U_ADDROF && e->nargs == 1)
    e = wl_expr_strip(e->args[0]);
  if (e && e->kind == WL_E_REF && !e->var && e->callee_usr) {
    const wl_func *k = wl_hmap_get(&C->pool->by_usr, e->callee_usr);
    return k && (k->flags & WL_F_GLOBAL) ? k : NULL;
  }
  if (!e || e->kind != WL_E_REF || !e->var || !is_local(e->var) || (e->var->flags & WL_V_PARAM))
    return NULL;
  /* a local function pointer: every value stored in it */
  const wl_func *k = e->var->init ? kernel_named(C, e->var->init, depth + 1) : NULL;
  if (e->var->init && !k)
    return NULL;
  wl_vec todo = {0};
  wl_vec_push(&todo, (void *)C->h->body);
  bool bad = false;
  size_t stores = 0;
  while (todo.n && !bad) {
    const wl_stmt *s = todo.v[--todo.n];
    if (!s)
      continue;
    if (s->kind == WL_S_EXPR && s->expr) {
      const wl_expr *x = wl_expr_strip(s->expr);
      if (x && x->kind == WL_E_BINARY && x->op == WL_B_ASSIGN && x->nargs == 2 &&
          wl_expr_strip(x->args[0])->kind == WL_E_REF && wl_expr_strip(x->args[0])->var == e->var) {
        const wl_func *g = kernel_named(C, x->args[1], depth + 1);
        if (!g || (k && g != k))
          bad = true;
        k = g;
        stores++;
        continue;
      }
    }
    wl_vec_push(&todo, (void *)s->then_s);
    wl_vec_push(&todo, (void *)s->else_s);
    wl_vec_push(&todo, (void *)s->init);
    for (unsigned i = 0; i < s->nkids; i++)
      wl_vec_push(&todo, (void *)s->kids[i]);
  }
  wl_vec_free(&todo);
  if (bad || !k)
    return NULL;
  /* nothing else changes it: no other assignment, its address not taken */
  assign_count ac = {e->var, 0};
  wl_visitor cv = {NULL, count_assigned, &ac, true};
  wl_walk_stmt(C->h->body, &cv);
  return ac.n == stores ? k : NULL;
}

static bool find_launch(const wl_expr *e, const wl_stmt *in, void *ud);

/* Walks the body of wrapper w, called as `call` (in context C), whose
 * parameter p is the kernel k. */
static void walk_wrapper(launch_find *lf, const wl_func *w, const wl_expr *call, int p,
                         const wl_func *k) {
  if (lf->depth >= 3 || !w->body)
    return;
  launch_find in = *lf;
  in.C = frame(lf->C, w, call, call->loc);
  in.depth = lf->depth + 1;
  in.kernel = k;
  in.param = p;
  wl_visitor v = {NULL, find_launch, &in, true};
  wl_walk_stmt(w->body, &v);
}

static bool find_launch(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  launch_find *lf = ud;
  if (e->kind != WL_E_CALL)
    return true;
  if (e->config && e->callee && (e->callee->flags & WL_F_GLOBAL) && !lf->kernel) {
    report_launch(lf, e, e->callee);
    return true;
  }
  if (lf->kernel && e->config && !e->callee &&
      callee_param_is(lf->C->h, e->callee_expr, lf->param)) {
    report_launch(lf, e, lf->kernel); /* the wrapper launches the kernel it was given */
    return true;
  }
  if (!lf->pool->wrappers || !e->callee || e->config || (e->callee->flags & WL_F_GLOBAL))
    return true;
  int mask = launched_params_depth(lf->pool, e->callee, 0);
  for (int p = 0; mask && p < (int)e->callee->nparams && p < 16; p++) {
    if (!(mask >> p & 1) || (unsigned)p >= e->nargs)
      continue;
    const wl_func *k;
    if (lf->kernel)
      k = callee_param_is(lf->C->h, e->args[p], lf->param) ? lf->kernel : NULL;
    else {
      hctx here = *lf->C;
      here.at = e->loc;
      k = kernel_named(&here, e->args[p], 0);
    }
    if (k) {
      hctx here = *lf->C;
      here.at = e->loc;
      launch_find up = *lf;
      up.C = &here;
      walk_wrapper(&up, e->callee, e, p, k);
    }
  }
  return true;
}

typedef struct launched_find {
  hpool *pool;
  const wl_func *w;
  int depth;
  int mask;
} launched_find;

static bool find_launched(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  launched_find *f = ud;
  if (e->kind != WL_E_CALL)
    return true;
  int p = param_of(f->w, e->callee_expr);
  if (e->config && !e->callee && p >= 0 && p < 16)
    f->mask |= 1 << p;
  if (e->callee && !e->config && !(e->callee->flags & WL_F_GLOBAL) && f->depth < 3) {
    int m = launched_params_depth(f->pool, e->callee, f->depth + 1);
    for (unsigned j = 0; m && j < e->nargs && j < 16; j++) {
      int q = (m >> j & 1) ? param_of(f->w, e->args[j]) : -1;
      if (q >= 0 && q < 16)
        f->mask |= 1 << q;
    }
  }
  return true;
}

/* The parameters of host function w (a bit each, the first 16) that it
 * launches as kernels (`kernel<<<...>>>(...)` with `kernel` one of them), or
 * passes to a function that does (a launch wrapper's wrapper). */
static int launched_params_depth(hpool *P, const wl_func *w, int depth) {
  if (!w || !w->body || (w->flags & WL_F_GLOBAL) || !w->nparams || depth > 3)
    return 0;
  uintptr_t m = (uintptr_t)pmap_get(&P->launched, w);
  if (m)
    return (int)(m - 1);
  *pmap_slot(&P->launched, w, true) = (void *)(uintptr_t)1; /* a cycle stops here */
  launched_find f = {P, w, depth, 0};
  wl_visitor v = {NULL, find_launched, &f, true};
  wl_walk_stmt(w->body, &v);
  *pmap_slot(&P->launched, w, true) = (void *)(uintptr_t)(f.mask + 1);
  return f.mask;
}

static bool index_calls(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  launch_find *lf = ud;
  if (e->kind == WL_E_CALL && e->callee && !e->config) {
    void **s = pmap_slot(&lf->pool->callers, e->callee, true);
    if (!*s)
      *s = wl_xcalloc(1, sizeof(wl_vec));
    wl_vec_push(*s, (void *)e);
    wl_vec_push(*s, (void *)lf->C->h);
  }
  return true;
}

/* Each launch in the body of a function h of the file (host code too):
 * `k<<<grid, block>>>(...)` of a kernel k of the file, and, with wrappers,
 * a call of a launch wrapper (a function that launches one of its
 * parameters, or hands it to another wrapper: ggml's
 * `ggml_cuda_kernel_launch(k, launch_params, args...)`) whose argument there
 * names a kernel of the file. */
static void each_launch(const wl_tu *tu, launch_fn fn, void *ud, bool wrappers) {
  hpool P;
  memset(&P, 0, sizeof P);
  P.tu = tu;
  P.wrappers = wrappers;
  wl_hmap_init(&P.by_usr, true);
  if (wrappers)
    for (unsigned k = 0; k < tu->nfuncs; k++) {
      const wl_func *h = tu->funcs[k];
      if (h->body && h->usr && !wl_hmap_get(&P.by_usr, h->usr))
        wl_hmap_put(&P.by_usr, h->usr, (void *)h, false);
      if (!h->body)
        continue;
      hctx C = {h, NULL, NULL, h->loc, &P};
      launch_find lf = {&P, &C, fn, ud, 0, NULL, -1};
      wl_visitor v = {NULL, index_calls, &lf, true};
      wl_walk_stmt(h->body, &v);
    }
  for (unsigned k = 0; k < tu->nfuncs; k++) {
    const wl_func *h = tu->funcs[k];
    if (!h->body)
      continue;
    hctx C = {h, NULL, NULL, h->loc, &P};
    launch_find lf = {&P, &C, fn, ud, 0, NULL, -1};
    wl_visitor v = {NULL, find_launch, &lf, true};
    wl_walk_stmt(h->body, &v);
  }
  for (size_t i = 0; i < P.frames.n; i++)
    free(P.frames.v[i]);
  wl_vec_free(&P.frames);
  for (size_t i = 0; i < P.callers.cap; i++)
    if (P.callers.k && P.callers.k[i]) {
      wl_vec_free(P.callers.v[i]);
      free(P.callers.v[i]);
    }
  pmap_free(&P.callers);
  pmap_free(&P.launched);
  wl_hmap_free(&P.by_usr);
}

static void note_launch(const launch_view *v, const long long d[3], void *ud) {
  finfo *k = finfo_of(ud, v->k);
  if (!k)
    return;
  const wl_expr *launch = v->launch;
  bool one;
  const hctx *BX = v->C;
  const wl_expr *bx =
      launch->config->nargs >= 2 ? block_dim_expr(&BX, launch->config->args[1], 0, &one, 0) : NULL;
  uint64_t wdiv = 0;
  for (unsigned i = 0; i < k->f->nparams; i++) {
    const hctx *AC;
    const wl_expr *a = launch_arg(v, i, &AC);
    bool integral =
        (k->f->params[i]->type & WL_T_INTEGER) && !(k->f->params[i]->type & WL_T_POINTER);
    if (i < 64 && a && integral && warp_divisor_arg(AC, a, BX, bx, 0))
      wdiv |= 1ULL << i;
    unsigned char p2 = a && integral ? ctz_ll(launch_arg_divisor(AC, a)) : 0;
    if (!k->launch_seen || p2 < k->launch_p2[i])
      k->launch_p2[i] = p2;
  }
  bool warps = d[0] > 0 && d[0] % 32 == 0, z1 = d[2] == 1;
  long long zdiv = d[2] > 0 ? d[2] : 1;
  if (d[2] <= 0 && launch->config->nargs >= 2) {
    const hctx *ZC = v->C;
    const wl_expr *z = block_dim_expr(&ZC, launch->config->args[1], 2, &one, 0);
    zdiv = z ? host_divisor(ZC, z, 0) : 1;
  }
  if (!k->launch_seen) {
    k->launch_seen = true;
    k->launch_bx = d[0];
    k->launch_z1 = z1;
    k->launch_warps = warps;
    k->launch_wdiv = wdiv;
    k->launch_zdiv = zdiv;
  } else {
    k->launch_zdiv = gcd_ll(k->launch_zdiv, zdiv);
    k->launch_wdiv &= wdiv;
    if (k->launch_bx != d[0])
      k->launch_bx = 0;
    k->launch_z1 = k->launch_z1 && z1;
    k->launch_warps = k->launch_warps && warps;
  }
}

/* The launches of the file's kernels, launch wrappers followed. */
static void launch_evidence(wl_lanes *L) { each_launch(L->tu, note_launch, L, true); }

typedef struct dims_find {
  const wl_func *k;
  long long d[3];
  bool seen;
} dims_find;

static void note_dims(const launch_view *v, const long long d[3], void *ud) {
  dims_find *df = ud;
  if (v->k != df->k)
    return;
  for (unsigned i = 0; i < 3; i++)
    df->d[i] = !df->seen || df->d[i] == d[i] ? d[i] : 0;
  df->seen = true;
}

/* (the shared-memory analysis's view: the file's own `<<<...>>>` launches
 * of k, launch wrappers not followed) */
bool wl_launch_block_dims(const wl_tu *tu, const wl_func *k, long long dims[3]) {
  dims_find df = {k, {0, 0, 0}, false};
  if (k && (k->flags & WL_F_GLOBAL))
    each_launch(tu, note_dims, &df, false);
  memcpy(dims, df.d, sizeof df.d);
  return df.seen;
}
/* `P % K == 0` (either order of ==) with P a template parameter of f (a
 * reference to it) and K a positive constant: records 2^ctz(K) for P. */
static void note_tparam_multiple(finfo *fi, const wl_expr *c, int depth) {
  long long k, z;
  c = wl_expr_strip(c);
  if (!c || depth > 8 || c->kind != WL_E_BINARY || c->nargs != 2)
    return;
  if (c->op == WL_B_LAND) {
    note_tparam_multiple(fi, c->args[0], depth + 1);
    note_tparam_multiple(fi, c->args[1], depth + 1);
    return;
  }
  int i = c->op != WL_B_EQ                 ? -1
          : fold(c->args[1], &z) && z == 0 ? 0
          : fold(c->args[0], &z) && z == 0 ? 1
                                           : -1;
  const wl_expr *m = i >= 0 ? wl_expr_strip(c->args[i]) : NULL;
  if (!m || m->kind != WL_E_BINARY || m->op != WL_B_REM || m->nargs != 2 || !fold(m->args[1], &k) ||
      k <= 0)
    return;
  const wl_expr *p = wl_expr_strip(m->args[0]);
  if (!p || p->kind != WL_E_REF || p->var || !p->name || !(p->type & WL_T_DEPENDENT))
    return;
  for (unsigned t = 0; t < fi->f->ntparams; t++)
    if (fi->f->tparams[t] && strcmp(fi->f->tparams[t], p->name) == 0) {
      for (unsigned j = 0; j < fi->ntp; j++)
        if (strcmp(fi->tp_name[j], p->name) == 0) {
          if (ctz_ll(k) > fi->tp_p2[j])
            fi->tp_p2[j] = ctz_ll(k);
          return;
        }
      if (fi->ntp < 4) {
        fi->tp_name[fi->ntp] = p->name;
        fi->tp_p2[fi->ntp++] = ctz_ll(k);
      }
      return;
    }
}

static bool find_static_assert(const wl_stmt *s, void *ud) {
  if (s->kind == WL_S_DECL && s->assert_cond)
    note_tparam_multiple(ud, s->assert_cond, 0);
  return true;
}

/* Own evidence, then the functions that only such functions call (transitively). */
static void rows_evidence(wl_lanes *L) {
  launch_evidence(L);
  for (unsigned k = 0; k < L->nfi; k++) {
    finfo *fi = &L->fi[k];
    if (!fi->analyzed)
      continue;
    wl_visitor v = {find_static_assert, find_row_evidence, fi, false};
    wl_walk_stmt(fi->f->body, &v);
    /* every launch in the file gives blocks a whole number of warps wide */
    if (fi->launch_seen && fi->launch_warps)
      fi->rows_y = true;
  }
  wl_vec from = {0}, to = {0};
  for (unsigned k = 0; k < L->nfi; k++) {
    finfo *fi = &L->fi[k];
    if (!fi->analyzed)
      continue;
    wl_vec calls = {0};
    wl_visitor v = {NULL, collect_calls, &calls, false};
    wl_walk_stmt(fi->f->body, &v);
    for (size_t i = 0; i < calls.n; i++) {
      unsigned off;
      finfo *g = call_target(L, calls.v[i], &off);
      if (g) {
        wl_vec_push(&from, fi);
        wl_vec_push(&to, g);
      }
    }
    wl_vec_free(&calls);
  }
  for (int bit = 0; bit < 2; bit++)
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned k = 0; k < L->nfi; k++) {
        finfo *g = &L->fi[k];
        if (!g->analyzed || g->rows_y || (bit && g->rows_z))
          continue;
        bool any = false, all = true;
        for (size_t i = 0; i < to.n && all; i++)
          if (to.v[i] == g) {
            const finfo *c = from.v[i];
            any = true;
            all = c != g && (c->rows_y || (bit && c->rows_z));
          }
        if (any && all) {
          if (bit)
            g->rows_z = true;
          else
            g->rows_y = true;
          changed = true;
        }
      }
    }
  wl_vec_free(&from);
  wl_vec_free(&to);
}

/* ---- strong updates ------------------------------------------------------ */

/* The strong updates of one function (see the top): a straight region is a
 * block and the blocks nested in it directly; a variable declared in one and
 * assigned by an expression statement of the same region is assigned by every
 * lane that reaches the declaration, before every later read of the region
 * (no loop, branch or label between them). A `goto` can enter a region only
 * at a label in it, at any depth (into the arm of an `if` in it, past the
 * assignment): in a function with one, a region holding a label anywhere has
 * no strong updates; the others keep theirs (NCCL's dispatch kernel, whose
 * `goto LOW_LATENCY_DISPATCH_RECV` jumps to a label of the function's own
 * block, over nothing of the blocks nested after it). */
typedef struct kscan {
  pmap region; /* wl_var * -> the region (wl_stmt *) of its declaration */
  pmap bad;    /* region -> non-NULL when a label, case or default lies in it */
  pmap deep;   /* region -> non-NULL when a label lies in it at any depth */
  wl_vec cand; /* wl_stmt * (EXPR) and its region, in pairs */
  bool jumps;  /* a goto */
} kscan;

/* The regions that enclose a statement being scanned, innermost first. */
typedef struct kouter {
  const wl_stmt *region;
  const struct kouter *up;
} kouter;

static void kill_scan(kscan *K, const wl_stmt *s, const wl_stmt *region, const kouter *up) {
  if (!s)
    return;
  switch (s->kind) {
  case WL_S_COMPOUND: {
    kouter here = {s, up};
    for (unsigned i = 0; i < s->nkids; i++)
      kill_scan(K, s->kids[i], region ? region : s, region ? up : &here);
    return;
  }
  case WL_S_DECL:
    if (region)
      for (unsigned i = 0; i < s->nvars; i++)
        *pmap_slot(&K->region, s->vars[i], true) = (void *)region;
    return;
  case WL_S_EXPR: {
    const wl_expr *e = wl_expr_strip(s->expr);
    if (region && e && e->kind == WL_E_BINARY && e->op == WL_B_ASSIGN && e->nargs == 2) {
      wl_vec_push(&K->cand, (void *)s);
      wl_vec_push(&K->cand, (void *)region);
    }
    return;
  }
  case WL_S_CASE:
  case WL_S_DEFAULT:
  case WL_S_LABEL:
    if (region)
      *pmap_slot(&K->bad, region, true) = (void *)s;
    if (s->kind == WL_S_LABEL)
      for (const kouter *o = up; o; o = o->up)
        *pmap_slot(&K->deep, o->region, true) = (void *)s;
    break;
  case WL_S_GOTO: K->jumps = true; return;
  default: break;
  }
  kill_scan(K, s->init, NULL, up);
  kill_scan(K, s->then_s, NULL, up);
  kill_scan(K, s->else_s, NULL, up);
  if (s->kind != WL_S_COMPOUND)
    for (unsigned i = 0; i < s->nkids; i++)
      kill_scan(K, s->kids[i], NULL, up);
}

static void find_kills(wl_lanes *L, finfo *fi) {
  const wl_func *f = fi->f;
  if (fi->has_lambda || !f->body || f->body->kind != WL_S_COMPOUND)
    return;
  kscan K = {0};
  for (unsigned i = 0; i < f->nparams; i++)
    *pmap_slot(&K.region, f->params[i], true) = (void *)f->body;
  kill_scan(&K, f->body, NULL, NULL);
  for (size_t i = 0; i + 1 < K.cand.n; i += 2) {
    const wl_stmt *s = K.cand.v[i], *region = K.cand.v[i + 1];
    const wl_expr *t = wl_expr_strip(wl_expr_strip(s->expr)->args[0]);
    const wl_var *v = t && t->kind == WL_E_REF ? t->var : NULL;
    if (!v || !is_local(v) || (v->type & WL_T_REFERENCE) || pmap_get(&K.region, v) != region ||
        pmap_get(&K.bad, region) || (K.jumps && pmap_get(&K.deep, region)))
      continue;
    *pmap_slot(&L->kill, s, true) = (void *)v;
    wl_vec_push(&fi->kills, (void *)s);
  }
  pmap_free(&K.region);
  pmap_free(&K.bad);
  pmap_free(&K.deep);
  wl_vec_free(&K.cand);
}

/* ---- fixpoints ----------------------------------------------------------- */

static void analyze_function(wl_lanes *L, finfo *fi) {
  const wl_func *f = fi->f;
  for (size_t i = 0; i < fi->vars.n; i++) {
    lv *v = pmap_get(&L->env, fi->vars.v[i]);
    if (v)
      memset(v, 0, sizeof *v);
  }
  for (size_t i = 0; i < fi->kills.n; i++) {
    lv *v = pmap_get(&L->env, fi->kills.v[i]);
    if (v)
      memset(v, 0, sizeof *v);
  }
  pmap_free(&fi->loops);
  fi->ret_cur = (lv){0};
  for (unsigned i = 0; i < f->nparams; i++) {
    fi->out_cur[i] = (lv){0};
    lv p = LV_UNIFORM; /* a kernel's parameters are warp-uniform */
    if (i < 64 && !(f->flags & WL_F_GLOBAL))
      p.pdeps = 1ULL << i;
    if (fi->param_prev[i].set)
      p.shape = fi->param_prev[i].shape;
    if ((f->flags & WL_F_GLOBAL) && i < 64 && (fi->launch_wdiv >> i & 1u) && L->opts.whole_warps)
      p.shape |= SH_WDIV;
    if ((f->flags & WL_F_GLOBAL) && fi->launch_seen)
      p.p2 = fi->launch_p2[i]; /* every launch passes a multiple of 2^p2 */
    *env_slot(L, f->params[i]) = p;
    void **o = pmap_slot(&L->owner, f->params[i], true);
    if (!*o)
      *o = fi;
  }
  walker W = {L, fi, NULL, false, {0}, NULL, NULL};
  for (int round = 0; round < 32; round++) {
    W.changed = false;
    W.chain = NULL;
    pmap_free(&W.cur);
    fi->calls.n = 0;
    exits ex = {0};
    walk(&W, f->body, &ex);
    free(ex.v);
    if (!W.changed)
      break;
  }
  pmap_free(&W.cur);
}

static bool summaries_settle(wl_lanes *L) {
  bool same = true;
  for (unsigned k = 0; k < L->nfi; k++) {
    finfo *fi = &L->fi[k];
    if (!fi->analyzed)
      continue;
    if (!lv_same(fi->ret_prev, fi->ret_cur))
      same = false;
    fi->ret_prev = fi->ret_cur;
    for (unsigned i = 0; i < fi->f->nparams; i++) {
      if (!lv_same(fi->param_prev[i], fi->param_cur[i]) ||
          !lv_same(fi->out_prev[i], fi->out_cur[i]))
        same = false;
      fi->param_prev[i] = fi->param_cur[i];
      fi->out_prev[i] = fi->out_cur[i];
    }
  }
  return same;
}

static bool rec_partial(const wl_lanes *L, const rec *r) {
  (void)L;
  for (const node *n = r->chain; n && !n->certified; n = n->outer)
    if (actual_ld(r->fi, n->reach))
      return true;
  return false;
}

static bool rec_certified(const rec *r) {
  for (const node *n = r->chain; n; n = n->outer)
    if (n->certified)
      return true;
  return false;
}

static void finish(wl_lanes *L) {
  /* parameters that some call passes a lane-dependent value */
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k = 0; k < L->nfi; k++) {
      finfo *fi = &L->fi[k];
      for (size_t c = 0; c < fi->calls.n; c++) {
        const wl_expr *e = fi->calls.v[c];
        unsigned off;
        finfo *g = call_target(L, e, &off);
        for (unsigned i = 0; g && i + off < e->nargs && i < g->f->nparams && i < 64; i++) {
          const rec *r = rec_of(L, e->args[i + off]);
          if (r && actual_ld(fi, r->val) && !(g->param_ld & (1ULL << i))) {
            g->param_ld |= 1ULL << i;
            changed = true;
          }
        }
      }
    }
  }
  for (unsigned k = 0; k < L->nfi; k++) {
    finfo *fi = &L->fi[k];
    for (size_t c = 0; c < fi->calls.n; c++) {
      const wl_expr *e = fi->calls.v[c];
      unsigned off;
      finfo *g = call_target(L, e, &off);
      bool dup = false;
      for (size_t j = 0; g && j < g->callers.n && !dup; j++)
        dup = g->callers.v[j] == e;
      if (g && !dup)
        wl_vec_push(&g->callers, (void *)e);
    }
  }
  /* functions that part of a warp may enter */
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k = 0; k < L->nfi; k++) {
      finfo *fi = &L->fi[k];
      for (size_t c = 0; c < fi->calls.n; c++) {
        const wl_expr *e = fi->calls.v[c];
        unsigned off;
        finfo *g = call_target(L, e, &off);
        const rec *r = rec_of(L, e);
        if (g && !g->entry_partial && r && (fi->entry_partial || rec_partial(L, r))) {
          g->entry_partial = true;
          changed = true;
        }
      }
    }
  }
}

typedef struct coll_ctx {
  wl_lanes *L;
} coll_ctx;

static bool collect_coll(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  coll_ctx *c = ud;
  if (e->kind == WL_E_CALL && wl_collective_of(e) && rec_of(c->L, e))
    wl_vec_push(&c->L->colls, (void *)e);
  return true;
}

void wl_lanes_opts_init(wl_lanes_opts *o) {
  memset(o, 0, sizeof *o);
  o->whole_warps = true;
}

static bool device_code(const wl_func *f) {
  return (f->flags & (WL_F_GLOBAL | WL_F_DEVICE)) || !(f->flags & WL_F_HOST);
}

wl_lanes *wl_lanes_new(const wl_tu *tu, const wl_lanes_opts *o) {
  wl_lanes *L = wl_xcalloc(1, sizeof *L);
  L->tu = tu;
  if (o)
    L->opts = *o;
  else
    wl_lanes_opts_init(&L->opts);
  wl_arena_init(&L->arena);
  L->full_warp = wl_xcalloc(2 * (FULL_WARP_DEPTH + 1), sizeof *L->full_warp);
  for (int d = 0; d < 2 * (FULL_WARP_DEPTH + 1); d++)
    wl_hmap_init(&L->full_warp[d], false);
  L->nfi = tu->nfuncs;
  L->fi = wl_xcalloc(L->nfi + 1, sizeof *L->fi);
  for (unsigned k = 0; k < L->nfi; k++) {
    finfo *fi = &L->fi[k];
    const wl_func *f = tu->funcs[k];
    fi->f = f;
    fi->analyzed = f->body && device_code(f);
    unsigned np = f->nparams;
    fi->param_prev = wl_arena_alloc(&L->arena, (np + 1) * sizeof(lv));
    fi->param_cur = wl_arena_alloc(&L->arena, (np + 1) * sizeof(lv));
    fi->out_prev = wl_arena_alloc(&L->arena, (np + 1) * sizeof(lv));
    fi->out_cur = wl_arena_alloc(&L->arena, (np + 1) * sizeof(lv));
    fi->launch_p2 = wl_arena_alloc(&L->arena, np + 1);
    *pmap_slot(&L->fmap, f, true) = fi;
  }
  for (unsigned k = 0; k < L->nfi; k++)
    for (const wl_func *p = L->fi[k].f->parent; p; p = p->parent) {
      finfo *pi = finfo_of(L, p);
      if (pi)
        pi->has_lambda = true;
    }
  for (unsigned k = 0; k < L->nfi; k++)
    if (L->fi[k].analyzed)
      find_kills(L, &L->fi[k]);
  rows_evidence(L);
  for (int iter = 0; iter < 32; iter++) {
    for (unsigned k = 0; k < L->nfi; k++)
      memset(L->fi[k].param_cur, 0, (L->fi[k].f->nparams + 1) * sizeof(lv));
    for (unsigned k = 0; k < L->nfi; k++)
      if (L->fi[k].analyzed)
        analyze_function(L, &L->fi[k]);
    if (summaries_settle(L))
      break;
  }
  finish(L);
  coll_ctx cc = {L};
  wl_visitor v = {NULL, collect_coll, &cc, false};
  for (unsigned k = 0; k < L->nfi; k++)
    if (L->fi[k].analyzed)
      wl_walk_stmt(L->fi[k].f->body, &v);
  return L;
}

void wl_lanes_free(wl_lanes *L) {
  if (!L)
    return;
  for (unsigned k = 0; k < L->nfi; k++) {
    wl_vec_free(&L->fi[k].vars);
    wl_vec_free(&L->fi[k].calls);
    wl_vec_free(&L->fi[k].callers);
    wl_vec_free(&L->fi[k].kills);
    pmap_free(&L->fi[k].loops);
  }
  free(L->fi);
  pmap_free(&L->fmap);
  pmap_free(&L->bfly);
  pmap_free(&L->env);
  pmap_free(&L->owner);
  pmap_free(&L->decl);
  pmap_free(&L->kill);
  pmap_free(&L->recs);
  wl_vec_free(&L->colls);
  for (int d = 0; d < 2 * (FULL_WARP_DEPTH + 1); d++)
    wl_hmap_free(&L->full_warp[d]);
  free(L->full_warp);
  wl_arena_free(&L->arena);
  free(L);
}

/* ---- queries ------------------------------------------------------------- */

bool wl_lanes_expr_dependent(const wl_lanes *l, const wl_expr *e) {
  const rec *r = rec_of(l, e);
  return r && actual_ld(r->fi, r->val);
}

bool wl_lanes_var_dependent(const wl_lanes *l, const wl_var *v) {
  const lv *x = pmap_get(&l->env, v);
  const finfo *own = pmap_get(&l->owner, v);
  if (!x)
    return false;
  if (x->flags & LV_LD)
    return true;
  return deps_ld(own, x->pdeps);
}

bool wl_lanes_param_dependent(const wl_lanes *l, const wl_func *f, unsigned i) {
  const finfo *fi = finfo_of(l, f);
  return fi && i < 64 && (fi->param_ld & (1ULL << i));
}

bool wl_lanes_return_dependent(const wl_lanes *l, const wl_func *f) {
  const finfo *fi = finfo_of(l, f);
  return fi && fi->ret_prev.set && actual_ld(fi, fi->ret_prev);
}

/* Describes restriction n (lane-dependent in fi) into out. */
static void describe(const finfo *fi, const node *n, wl_lane_reach *out) {
  out->kind = n->kind;
  out->stmt = n->stmt;
  out->cond = n->cond;
  out->side = n->side;
  out->exit = NULL;
  if (n->kind == WL_LR_EXIT) {
    out->exit = n->exit;
    out->stmt = NULL;
    out->cond = NULL;
    out->side = -1;
    for (const node *g = n->exit_at; g && g != n->exit_base; g = g->outer)
      if (actual_ld(fi, g->reach)) {
        out->stmt = g->stmt;
        out->cond = g->cond;
        out->side = g->side >= 0 && g->kind != WL_LR_LOOP ? !g->side : -1;
        break;
      }
  }
}

static bool reach_of(const wl_lanes *l, const void *key, wl_lane_reach *out) {
  memset(out, 0, sizeof *out);
  out->side = -1;
  const rec *r = rec_of(l, key);
  if (!r)
    return false;
  out->caller_partial = r->fi->entry_partial && !rec_certified(r);
  for (const node *n = r->chain; n && !n->certified; n = n->outer)
    if (actual_ld(r->fi, n->reach)) {
      out->partial = true;
      describe(r->fi, n, out);
      break;
    }
  return true;
}

bool wl_lanes_reach_expr(const wl_lanes *l, const wl_expr *e, wl_lane_reach *out) {
  return reach_of(l, e, out);
}

bool wl_lanes_reach_stmt(const wl_lanes *l, const wl_stmt *s, wl_lane_reach *out) {
  return reach_of(l, s, out);
}

size_t wl_lanes_restrictions(const wl_lanes *l, const wl_expr *e, wl_lane_reach *v, size_t max) {
  const rec *r = rec_of(l, e);
  size_t n = 0;
  if (!r)
    return 0;
  for (const node *x = r->chain; x && !x->certified; x = x->outer)
    if (actual_ld(r->fi, x->reach)) {
      if (n < max) {
        memset(&v[n], 0, sizeof v[n]);
        v[n].partial = true;
        v[n].caller_partial = r->fi->entry_partial && !rec_certified(r);
        describe(r->fi, x, &v[n]);
      }
      n++;
    }
  return n;
}

typedef struct lane_bind {
  const wl_lanes *l;
  unsigned lane;
  long long tid; /* the thread id of that lane, or -1: thread ids stay unknown */
} lane_bind;

/* Gives every lane-id-shaped sub-expression the value of the lane being
 * tried, and every thread-id-shaped one that lane's thread id when it is
 * bound. */
static bool lane_hook(const wl_expr *e, long long *out, void *ud) {
  const lane_bind *b = ud;
  const rec *r = rec_of(b->l, e);
  if (!r || !r->val.set || r->val.shape == ~0u)
    return false;
  if (r->val.shape & SH_LANE) {
    *out = b->lane;
    return true;
  }
  if ((r->val.shape & SH_TID) && b->tid >= 0) {
    *out = b->tid;
    return true;
  }
  return false;
}

/* The lanes for which `cond` is (side 1) or is not (side 0) true; warp >= 0
 * binds thread ids to those of that warp of the block. */
static bool lanes_where(const wl_lanes *l, const wl_expr *cond, int side, int warp, unsigned *set) {
  if (!cond || side < 0)
    return false;
  unsigned m = 0;
  for (unsigned lane = 0; lane < 32; lane++) {
    lane_bind b = {l, lane, warp >= 0 ? 32LL * warp + lane : -1};
    long long v;
    if (!wl_consteval_ex(cond, lane_hook, &b, &v))
      return false;
    if ((v != 0) == (side == 1))
      m |= 1u << lane;
  }
  *set = m;
  return true;
}

static bool restr_lanes(const wl_lanes *l, const finfo *fi, const node *n, int warp,
                        unsigned *set) {
  if (n->kind == WL_LR_IF || n->kind == WL_LR_SELECT || n->kind == WL_LR_LOGICAL)
    return lanes_where(l, n->cond, n->side, warp, set);
  if (n->kind != WL_LR_EXIT)
    return false;
  unsigned gone = ~0u;
  for (const node *g = n->exit_at; g && g != n->exit_base; g = g->outer) {
    unsigned gs;
    if (!actual_ld(fi, g->reach)) {
      *set = ~0u; /* a warp-uniform test on the way: any lane may stay */
      return true;
    }
    if (!restr_lanes(l, fi, g, warp, &gs))
      return false;
    gone &= gs;
  }
  *set = ~gone;
  return true;
}

static bool reaching_lanes(const wl_lanes *l, const wl_expr *e, int warp, unsigned *lanes) {
  const rec *r = rec_of(l, e);
  if (!r)
    return false;
  unsigned s = ~0u;
  for (const node *n = r->chain; n && !n->certified; n = n->outer) {
    unsigned ns;
    if (!actual_ld(r->fi, n->reach))
      continue;
    if (!restr_lanes(l, r->fi, n, warp, &ns))
      return false;
    s &= ns;
  }
  *lanes = s;
  return true;
}

bool wl_lanes_reaching_lanes(const wl_lanes *l, const wl_expr *e, unsigned *lanes) {
  return reaching_lanes(l, e, -1, lanes);
}

bool wl_lanes_reaching_lanes_in_warp(const wl_lanes *l, const wl_expr *e, unsigned warp,
                                     unsigned *lanes) {
  return l->opts.whole_warps && warp <= (1u << 26) && reaching_lanes(l, e, (int)warp, lanes);
}

bool wl_lanes_cond_lanes(const wl_lanes *l, const wl_expr *cond, int side, unsigned *set) {
  return lanes_where(l, cond, side, -1, set);
}

bool wl_lanes_expr_tid_like(const wl_lanes *l, const wl_expr *e) {
  const rec *r = rec_of(l, e);
  return r && r->val.set && r->val.shape != ~0u && (r->val.shape & (SH_TID | SH_LANE)) &&
         !(r->val.shape & SH_M32);
}

bool wl_lanes_whole_warp(const wl_lanes *l, const wl_expr *e) {
  wl_lane_reach r;
  return reach_of(l, e, &r) && !r.partial && !r.caller_partial;
}

bool wl_lanes_launch_block_x(const wl_lanes *l, const wl_func *k, unsigned *bx, bool *z_one) {
  const finfo *fi = finfo_of(l, k);
  if (!fi || !fi->launch_seen || fi->launch_bx <= 0 || fi->launch_bx > 1024)
    return false;
  *bx = (unsigned)fi->launch_bx;
  *z_one = fi->launch_z1;
  return true;
}

const wl_func *wl_lanes_func_of_expr(const wl_lanes *l, const wl_expr *e) {
  const rec *r = rec_of(l, e);
  return r ? r->fi->f : NULL;
}

size_t wl_lanes_calls_of(const wl_lanes *l, const wl_func *f, const wl_expr *const **v) {
  const finfo *fi = finfo_of(l, f);
  *v = fi ? (const wl_expr *const *)fi->callers.v : NULL;
  return fi ? fi->callers.n : 0;
}

size_t wl_lanes_collectives(const wl_lanes *l, const wl_expr *const **v) {
  *v = (const wl_expr *const *)l->colls.v;
  return l->colls.n;
}

unsigned wl_lanes_mask_flags(const wl_lanes *l, const wl_expr *e) {
  const rec *r = rec_of(l, e);
  unsigned m = 0;
  if (!r)
    return 0;
  if (r->val.flags & LV_AM)
    m |= WL_MASK_ACTIVEMASK;
  if (r->val.flags & LV_MATCH)
    m |= WL_MASK_MATCH;
  if (r->val.flags & LV_VOTE)
    m |= WL_MASK_VOTE;
  return m;
}

static bool partial_at(const wl_lanes *l, const wl_expr *e) {
  const rec *r = rec_of(l, e);
  return r && rec_partial(l, r);
}

typedef struct origins {
  wl_mask_origin *v;
  size_t n, max;
} origins;

static void add_origin(origins *o, wl_mask_origin x) {
  for (size_t i = 0; i < o->n && i < o->max; i++)
    if (o->v[i].activemask == x.activemask && o->v[i].call == x.call) {
      o->v[i].partial = o->v[i].partial || x.partial;
      return;
    }
  if (o->n < o->max)
    o->v[o->n] = x;
  o->n++;
}

#define ORIGINS_DEPTH 8

/* The origins of each (expression, depth) found during one query: a value
 * passed down a chain of functions each called many times is traced once
 * per argument, not once per path. */
typedef struct origins_memo {
  wl_hmap at[ORIGINS_DEPTH + 2]; /* per depth: wl_expr * -> origins * */
  wl_vec all;                    /* origins *, to free */
} origins_memo;

static const origins *origins_of(const wl_lanes *l, const wl_expr *e, size_t max, int depth,
                                 origins_memo *m);

static void find_origins(const wl_lanes *l, const wl_expr *e, origins *o, int depth,
                         origins_memo *m) {
  const rec *r = rec_of(l, e);
  if (!r || depth > ORIGINS_DEPTH || (r->val.flags & LV_MATCH))
    return;
  if ((r->val.flags & LV_AM) && r->val.am)
    add_origin(o, (wl_mask_origin){r->val.am, NULL, partial_at(l, r->val.am)});
  for (unsigned i = 0; i < 64 && i < r->fi->f->nparams; i++) {
    if (!(r->val.pdeps & (1ULL << i)))
      continue;
    for (size_t c = 0; c < r->fi->callers.n; c++) {
      const wl_expr *call = r->fi->callers.v[c];
      const wl_expr *arg = wl_lanes_call_arg(l, call, i);
      if (!arg)
        continue;
      const origins *sub = origins_of(l, arg, o->max, depth + 1, m);
      bool p = partial_at(l, call);
      for (size_t k = 0; k < sub->n && k < sub->max; k++) {
        wl_mask_origin x = sub->v[k];
        if (!x.call)
          x.call = call;
        x.partial = x.partial || p;
        add_origin(o, x);
      }
    }
  }
}

static const origins *origins_of(const wl_lanes *l, const wl_expr *e, size_t max, int depth,
                                 origins_memo *m) {
  origins *known = wl_hmap_get(&m->at[depth], e);
  if (known)
    return known;
  origins *sub = wl_xcalloc(1, sizeof *sub);
  sub->v = wl_xcalloc(max + 1, sizeof *sub->v);
  sub->max = max;
  find_origins(l, e, sub, depth, m);
  wl_hmap_put(&m->at[depth], e, sub, false);
  wl_vec_push(&m->all, sub);
  return sub;
}

size_t wl_lanes_activemask_origins(const wl_lanes *l, const wl_expr *e, wl_mask_origin *v,
                                   size_t max) {
  origins o = {v, 0, max};
  origins_memo m;
  memset(&m, 0, sizeof m);
  for (int d = 0; d < ORIGINS_DEPTH + 2; d++)
    wl_hmap_init(&m.at[d], false);
  find_origins(l, e, &o, 0, &m);
  for (size_t i = 0; i < m.all.n; i++) {
    origins *x = m.all.v[i];
    free(x->v);
    free(x);
  }
  wl_vec_free(&m.all);
  for (int d = 0; d < ORIGINS_DEPTH + 2; d++)
    wl_hmap_free(&m.at[d]);
  return o.n;
}

/* ---- collectives --------------------------------------------------------- */

const wl_builtin *wl_collective_of(const wl_expr *e) {
  if (!e || e->kind != WL_E_CALL || !e->name || e->callee || e->callee_is_method ||
      (e->callee_expr && e->callee_expr->kind == WL_E_MEMBER))
    return NULL;
  const wl_builtin *b = wl_builtin_find(e->name);
  return wl_builtin_is_warp_intrinsic(b) ? b : NULL;
}

const wl_expr *wl_collective_mask(const wl_expr *e) {
  const wl_builtin *c = wl_collective_of(e);
  return c ? arg_at(e, c->mask_arg) : NULL;
}

const wl_expr *wl_collective_width(const wl_expr *e) {
  const wl_builtin *c = wl_collective_of(e);
  return c ? arg_at(e, c->width_arg) : NULL;
}

bool wl_collective_full_mask(const wl_expr *e) {
  const wl_builtin *c = wl_collective_of(e);
  if (!c || c->legacy)
    return false;
  const wl_expr *m = arg_at(e, c->mask_arg);
  if (!m)
    return c->kind == WL_BK_SYNCWARP;
  return wl_consteval_is_full_mask(m);
}

typedef struct tbind tbind;
static const wl_expr *full_warp_in(const wl_lanes *l, const finfo *g, const wl_expr *call,
                                   int depth, bool legacy, const tbind *outer);

/* Whether call names one of the legacy intrinsics (a user overload such as
 * `double __shfl_down(double, unsigned, int)` is the legacy call itself to
 * its callers). */
static bool legacy_name(const wl_expr *call) {
  const wl_builtin *b = call->name ? wl_builtin_find(call->name) : NULL;
  return b && b->legacy;
}

/* The template arguments a chain of calls gives: `call` runs function
 * template g, and outer is the call that runs the function holding `call`
 * (NULL at the first). */
struct tbind {
  const wl_func *g;
  const wl_expr *call;
  const struct tbind *outer;
};

/* Gives a template parameter of b->g the value of the call's template
 * argument, folded with the outer call's arguments (`warp_reduce<kN,
 * kInter, T>(...)` in a template called as `warp_reduce_min<16>(v)`), or,
 * when the call leaves it out, of its default argument. */
static bool tparam_hook(const wl_expr *e, long long *out, void *ud) {
  const tbind *b = ud;
  if (!b || e->kind != WL_E_REF || e->var || !e->name)
    return false;
  for (unsigned i = 0; i < b->g->ntparams; i++) {
    if (!b->g->tparams[i] || strcmp(b->g->tparams[i], e->name) != 0)
      continue;
    if (i < b->call->ntargs)
      return b->call->targs[i] &&
             wl_consteval_ex(b->call->targs[i], tparam_hook, (void *)b->outer, out);
    const wl_expr *d = b->g->tparam_defaults ? b->g->tparam_defaults[i] : NULL;
    return d && wl_consteval_ex(d, tparam_hook, (void *)b, out);
  }
  return false;
}

/* ---- xor butterflies ----------------------------------------------------- */

/* A function that combines a value with `__shfl_xor_sync(0xffffffff, v, k)`
 * for k = 16, 8, 4, 2 and 1 (in any order, each step `v = op(v, shfl)`,
 * `v += shfl`, ...) with an operator that does not care about the order of
 * its operands, and returns it, returns the same value in every lane: after
 * the step of k, lanes l and l ^ k hold the same value, and each step keeps
 * what the earlier ones made equal. NCCL's `warp_reduce_min(v)` (through
 * `warp_reduce<32, false, T>(v, ReduceMin<T>{})`, whose steps sit under `if
 * constexpr (kNumLanesPerGroup >= 16)` and the like) and ggml's
 * `warp_reduce_sum` (`for (offset = width / 2; offset > 0; offset >>= 1) x
 * += __shfl_xor_sync(0xffffffff, x, offset, width)`) are such reductions;
 * `warp_reduce_max<16>(v)` reduces two half warps and is not. */
typedef struct bfly {
  const wl_lanes *L;
  const wl_func *f;         /* the function being read */
  const wl_expr *call;      /* the call that runs it */
  const struct bfly *outer; /* the caller's, when f is reached through a wrapper */
  const tbind *b;           /* template arguments of the chain (tparam_hook) */
  const wl_var *loopv;      /* the loop variable of the steps being read */
  long long loopval;
  unsigned budget; /* statements left to read */
} bfly;

static bool bfly_hook(const wl_expr *e, long long *out, void *ud) {
  const bfly *bf = ud;
  if (e->kind == WL_E_REF && e->var && e->var == bf->loopv) {
    *out = bf->loopval;
    return true;
  }
  return tparam_hook(e, out, (void *)bf->b);
}

static bool bfly_fold(const bfly *bf, const wl_expr *e, long long *out) {
  return e && wl_consteval_ex(e, bfly_hook, (void *)bf, out);
}

static bool ref_to(const wl_expr *e, const wl_var *v) {
  e = wl_expr_strip(e);
  return e && v && e->kind == WL_E_REF && e->var == v;
}

/* A built-in that gives the same result for (a, b) as for (b, a). */
static bool symmetric_builtin(const wl_expr *call) {
  static const char *const names[] = {
      "min",   "max",    "fminf",  "fmaxf",   "fmin",    "fmax",   "umin",    "umax",   "llmin",
      "llmax", "__hmax", "__hmin", "__hmax2", "__hmin2", "__hadd", "__hadd2", "__hmul", "__hmul2"};
  if (call->callee || !call->name)
    return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(call->name, names[i]) == 0)
      return true;
  return false;
}

/* The operator of a binary expression, or of a call of `operatorX` with two
 * operands that is not a member call (arithmetic on a template's dependent
 * types, kept as such a call when operator templates are in scope). */
static int bin_op_of(const wl_expr *e) {
  if (!e || e->nargs != 2)
    return WL_B_NONE;
  if (e->kind == WL_E_BINARY)
    return e->op;
  if (e->kind != WL_E_CALL || e->callee_is_method || !e->name)
    return WL_B_NONE;
  int op = wl_operator_binop(e->name);
  switch (op) { /* order-blind operators and comparisons */
  case WL_B_ADD:
  case WL_B_MUL:
  case WL_B_AND:
  case WL_B_OR:
  case WL_B_XOR:
  case WL_B_LAND:
  case WL_B_LOR:
  case WL_B_LT:
  case WL_B_GT:
  case WL_B_LE:
  case WL_B_GE: return op;
  default: return WL_B_NONE;
  }
}

static bool commutative_op(int op) {
  return op == WL_B_ADD || op == WL_B_MUL || op == WL_B_AND || op == WL_B_OR || op == WL_B_XOR ||
         op == WL_B_LAND || op == WL_B_LOR;
}

/* Whether g, of two parameters, returns a function of them that does not
 * depend on their order: `return a + b;`, `return a < b ? a : b;` (a minimum
 * or maximum), `return fmaxf(a, b);`. */
static bool symmetric_function(const wl_func *g) {
  if (!g || !g->body || g->nparams != 2 || g->body->kind != WL_S_COMPOUND || g->body->nkids != 1 ||
      g->body->kids[0]->kind != WL_S_RETURN)
    return false;
  const wl_var *a = g->params[0], *b = g->params[1];
  const wl_expr *e = wl_expr_strip(g->body->kids[0]->expr);
  if (!e || e->nargs < 2)
    return false;
  bool ab = ref_to(e->args[0], a) && ref_to(e->args[1], b),
       ba = ref_to(e->args[0], b) && ref_to(e->args[1], a);
  int op = bin_op_of(e);
  if (op != WL_B_NONE)
    return commutative_op(op) && (ab || ba);
  if (e->kind == WL_E_CALL)
    return e->nargs == 2 && symmetric_builtin(e) && (ab || ba);
  if (e->kind != WL_E_COND || e->nargs != 3)
    return false;
  const wl_expr *c = wl_expr_strip(e->args[0]);
  int cop = bin_op_of(c);
  bool cmp = (cop == WL_B_LT || cop == WL_B_GT || cop == WL_B_LE || cop == WL_B_GE) &&
             ((ref_to(c->args[0], a) && ref_to(c->args[1], b)) ||
              (ref_to(c->args[0], b) && ref_to(c->args[1], a)));
  return cmp && ((ref_to(e->args[1], a) && ref_to(e->args[2], b)) ||
                 (ref_to(e->args[1], b) && ref_to(e->args[2], a)));
}

/* The functor a parameter of bf->f receives (`ReduceMin<T>{}`, passed on
 * through wrappers): whether the operator() of its class that the file
 * defines is symmetric_function (all of them, at least one). */
static bool symmetric_functor(const bfly *bf, const wl_var *p) {
  for (int depth = 0; bf && depth < 8; depth++) {
    if (!p || !(p->flags & WL_V_PARAM) || p->param_index < 0)
      return false;
    const wl_expr *a = wl_expr_strip(wl_lanes_call_arg(bf->L, bf->call, (unsigned)p->param_index));
    if (!a)
      return false;
    if (a->kind == WL_E_REF) { /* passed on by the caller */
      p = a->var;
      bf = bf->outer;
      continue;
    }
    if (a->kind != WL_E_CALL || !a->callee_usr || a->callee)
      return false;
    /* the class (a template's construction names it), or the class of the
     * constructor called */
    const char *cu = a->callee_usr, *ctor = strstr(cu, "@F@");
    int clen = ctor ? (int)(ctor - cu) : (int)strlen(cu);
    char key[512];
    int n = snprintf(key, sizeof key, "%.*s@F@operator()", clen, cu);
    if (n <= 0 || (size_t)n >= sizeof key)
      return false;
    unsigned found = 0;
    for (unsigned k = 0; k < bf->L->nfi; k++) {
      const wl_func *g = bf->L->fi[k].f;
      if (!g->usr || strncmp(g->usr, key, (size_t)n) != 0)
        continue;
      if (!symmetric_function(g))
        return false;
      found++;
    }
    return found > 0;
  }
  return false;
}

/* `__shfl_xor_sync(full, v, k[, 32])`: k, else NULL. */
static const wl_expr *xor_of(const bfly *bf, const wl_expr *x, const wl_var *v) {
  x = wl_expr_strip(x);
  const wl_builtin *co = x && x->kind == WL_E_CALL ? wl_collective_of(x) : NULL;
  if (!co || co->kind != WL_BK_SHFL_XOR || co->legacy || co->src_arg < 1 ||
      !ref_to(arg_at(x, co->src_arg - 1), v))
    return NULL;
  long long m, w = 32;
  const wl_expr *we = arg_at(x, co->width_arg);
  if (!bfly_fold(bf, wl_collective_mask(x), &m) || (m & 0xffffffffLL) != 0xffffffffLL ||
      (we && (!bfly_fold(bf, we, &w) || w != 32)))
    return NULL;
  return arg_at(x, co->src_arg);
}

/* One step of v: `v = op(v, X)`, `v = X + v`, `v += X` with X the xor
 * shuffle of v: the shuffle's offset, else NULL. */
static const wl_expr *bfly_step(const bfly *bf, const wl_expr *e, const wl_var *v) {
  e = wl_expr_strip(e);
  if (!e || e->nargs != 2 || !ref_to(e->args[0], v))
    return NULL;
  int op = e->kind == WL_E_BINARY ? e->op : WL_B_NONE;
  if (e->kind == WL_E_CALL && !e->callee_is_method && e->name)
    op = strcmp(e->name, "operator=") == 0    ? WL_B_ASSIGN
         : strcmp(e->name, "operator+=") == 0 ? WL_B_ADD_ASSIGN
         : strcmp(e->name, "operator*=") == 0 ? WL_B_MUL_ASSIGN
                                              : WL_B_NONE;
  if (op == WL_B_ADD_ASSIGN || op == WL_B_MUL_ASSIGN || op == WL_B_AND_ASSIGN ||
      op == WL_B_OR_ASSIGN || op == WL_B_XOR_ASSIGN)
    return xor_of(bf, e->args[1], v);
  if (op != WL_B_ASSIGN)
    return NULL;
  const wl_expr *r = wl_expr_strip(e->args[1]);
  if (!r || r->nargs != 2)
    return NULL;
  const wl_expr *x = ref_to(r->args[0], v) ? r->args[1] : ref_to(r->args[1], v) ? r->args[0] : NULL;
  const wl_expr *k = x ? xor_of(bf, x, v) : NULL;
  if (!k)
    return NULL;
  int rop = bin_op_of(r);
  if (rop != WL_B_NONE)
    return commutative_op(rop) ? k : NULL;
  if (r->kind != WL_E_CALL)
    return NULL;
  const wl_expr *ce = wl_expr_strip(r->callee_expr);
  if (symmetric_builtin(r) || (r->callee && symmetric_function(r->callee)) ||
      (!r->callee && ce && ce->kind == WL_E_REF && ce->var && symmetric_functor(bf, ce->var)))
    return k;
  return NULL;
}

typedef struct touch {
  const wl_var *v;
  bool hit;
} touch;

static bool touches(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  touch *t = ud;
  if ((e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2 &&
       ref_to(e->args[0], t->v)) ||
      (e->kind == WL_E_UNARY && e->op != WL_U_DEREF && e->op != WL_U_PLUS && e->op != WL_U_MINUS &&
       e->op != WL_U_NOT && e->op != WL_U_LNOT && e->nargs == 1 && ref_to(e->args[0], t->v)) ||
      (e->kind == WL_E_CALL && e->nargs > 0 && ref_to(e->args[0], t->v) && e->name &&
       strncmp(e->name, "operator", 8) == 0 && strchr(e->name + 8, '=')))
    t->hit = true;
  for (unsigned i = 0; e->kind == WL_E_CALL && !e->callee_in_prelude && i < e->nargs; i++)
    t->hit |= ref_to(e->args[i], t->v);
  return !t->hit;
}

/* Whether e (s) may change v: an assignment, ++, --, &v, a call other than a
 * CUDA built-in given v. */
static bool changes(const wl_expr *e, const wl_var *v) {
  touch t = {v, false};
  wl_visitor vis = {NULL, touches, &t, false};
  wl_walk_expr(e, NULL, &vis);
  return t.hit;
}

static bool stmt_changes(const wl_stmt *s, const wl_var *v) {
  touch t = {v, false};
  wl_visitor vis = {NULL, touches, &t, false};
  wl_walk_stmt(s, &vis);
  return t.hit;
}

static bool bfly_stmt(bfly *bf, const wl_stmt *s, const wl_var *v, unsigned *bits);

/* `for (o = A; cond; o >>= 1)` (or /= 2, <<= 1, *= 2, o = o / 2, ...) whose
 * trip count and offsets fold: the body read once per value of o. */
static bool bfly_loop(bfly *bf, const wl_stmt *s, const wl_var *v, unsigned *bits) {
  if (bf->loopv || !s->init || !s->expr || !s->inc || s->init->kind != WL_S_DECL ||
      s->init->nvars != 1)
    return false;
  const wl_var *o = s->init->vars[0];
  const wl_expr *inc = wl_expr_strip(s->inc);
  if (o == v || !inc || inc->kind != WL_E_BINARY || inc->nargs != 2 || !ref_to(inc->args[0], o))
    return false;
  long long val;
  if (!bfly_fold(bf, o->init, &val))
    return false;
  bf->loopv = o;
  bool ok = true;
  for (unsigned it = 0; ok; it++) {
    long long c, r;
    bf->loopval = val;
    if (it > 64 || !bfly_fold(bf, s->expr, &c)) {
      ok = false;
      break;
    }
    if (!c)
      break;
    ok = bfly_stmt(bf, s->then_s, v, bits) && !stmt_changes(s->then_s, o);
    if (!ok || !bfly_fold(bf, inc->args[1], &r))
      break;
    switch (inc->op) {
    case WL_B_ASSIGN: val = r; break;
    case WL_B_SHR_ASSIGN:
      ok = r >= 0 && r < 63;
      val = ok ? val >> r : 0;
      break;
    case WL_B_SHL_ASSIGN:
      ok = r >= 0 && r < 32 && val >= 0 && val < (1LL << 32);
      val = ok ? val << r : 0;
      break;
    case WL_B_DIV_ASSIGN:
      ok = r > 0;
      val = ok ? val / r : 0;
      break;
    case WL_B_MUL_ASSIGN:
      ok = r > 0 && val >= 0 && val < (1LL << 32) && r < (1LL << 16);
      val = ok ? val * r : 0;
      break;
    default: ok = false; break;
    }
  }
  bf->loopv = NULL;
  return ok;
}

static bool bfly_stmt(bfly *bf, const wl_stmt *s, const wl_var *v, unsigned *bits) {
  if (!s)
    return true;
  if (!bf->budget)
    return false;
  bf->budget--;
  switch (s->kind) {
  case WL_S_NULL: return true;
  case WL_S_OTHER: /* `#pragma unroll` before a loop */
    if (s->expr || s->then_s)
      return false;
    /* fall through */
  case WL_S_COMPOUND:
    for (unsigned i = 0; i < s->nkids; i++)
      if (!bfly_stmt(bf, s->kids[i], v, bits))
        return false;
    return true;
  case WL_S_DECL:
    for (unsigned i = 0; i < s->nvars; i++)
      if (s->vars[i] == v || (s->vars[i]->init && changes(s->vars[i]->init, v)))
        return false;
    return true;
  case WL_S_EXPR: {
    const wl_expr *k = bfly_step(bf, s->expr, v);
    long long kv;
    if (!k) {
      return !changes(s->expr, v);
    }
    if (!bfly_fold(bf, k, &kv) || kv <= 0 || kv >= 32 || (kv & (kv - 1)))
      return false;
    *bits |= (unsigned)kv;
    return true;
  }
  case WL_S_IF: {
    long long c;
    if (s->init || !bfly_fold(bf, s->expr, &c)) {
      return false;
    }
    return bfly_stmt(bf, c ? s->then_s : s->else_s, v, bits);
  }
  case WL_S_FOR: return bfly_loop(bf, s, v, bits);
  default: return false;
  }
}

/* Whether `call` runs a function that returns the same value in every lane
 * of a warp that runs it whole: a complete xor butterfly of the variable it
 * returns (above), or a wrapper whose body returns such a call. */
static bool bfly_call(const wl_lanes *L, const wl_expr *call, const bfly *outer, int depth) {
  unsigned off;
  const finfo *g = call_target(L, call, &off);
  const wl_stmt *body = g ? g->f->body : NULL;
  if (!g || off || depth > 4 || !body || body->kind != WL_S_COMPOUND || !body->nkids)
    return false;
  tbind here = {g->f, call, outer ? outer->b : NULL};
  bfly bf = {L, g->f, call, outer, g->f->ntparams ? &here : NULL, NULL, 0, 512};
  const wl_stmt *last = body->kids[body->nkids - 1];
  const wl_expr *r = last->kind == WL_S_RETURN ? wl_expr_strip(last->expr) : NULL;
  if (!r)
    return false;
  if (r->kind == WL_E_CALL) { /* a wrapper: nothing but declarations before */
    for (unsigned i = 0; i + 1 < body->nkids; i++)
      if (body->kids[i]->kind != WL_S_DECL && body->kids[i]->kind != WL_S_NULL)
        return false;
    return bfly_call(L, r, &bf, depth + 1);
  }
  if (r->kind != WL_E_REF || !r->var)
    return false;
  unsigned bits = 0;
  for (unsigned i = 0; i + 1 < body->nkids; i++)
    if (!bfly_stmt(&bf, body->kids[i], r->var, &bits)) {
      return false;
    }
  return bits == 31;
}

static const char bfly_yes, bfly_no;

static bool uniform_result_call(wl_lanes *L, const wl_expr *e) {
  void **slot = pmap_slot(&L->bfly, e, true);
  if (!*slot)
    *slot = (void *)(bfly_call(L, e, NULL, 0) ? &bfly_yes : &bfly_no);
  return *slot == &bfly_yes;
}

/* Whether the statement chain of r (in function template b->g) holds an
 * `if` (`if constexpr`) whose condition, with the template arguments of the
 * calls in b, folds to the arm r is not in: the call never runs r
 * (NCCL's `isRankMasked(mask, r)`, whose `useWarpSync` defaults to false,
 * does not reach its `if constexpr (useWarpSync)` broadcast). */
static bool dead_for_call(const rec *r, const tbind *b) {
  if (!b || !b->g->ntparams)
    return false;
  for (const node *n = r->chain; n; n = n->outer) {
    long long v;
    if (n->kind == WL_LR_IF && n->cond && n->side >= 0 &&
        wl_consteval_ex(n->cond, tparam_hook, (void *)b, &v) && (v != 0) != (n->side == 1))
      return true;
  }
  return false;
}

/* Whether the answer of full_warp_in for `call` may depend on the template
 * arguments of the calls that lead to it: one of its own template arguments
 * names something that does not fold by itself. */
static bool call_depends_on_outer(const wl_expr *call) {
  for (unsigned i = 0; i < call->ntargs; i++) {
    long long v;
    if (call->targs[i] && !wl_consteval(call->targs[i], &v))
      return true;
  }
  return false;
}

/* full_warp_in without the memo. */
static const wl_expr *full_warp_scan(const wl_lanes *l, const finfo *g, const wl_expr *call,
                                     int depth, bool legacy, const tbind *outer) {
  tbind here = {g->f, call, outer};
  const tbind *b = g->f->ntparams ? &here : NULL;
  for (size_t i = 0; i < l->colls.n; i++) {
    const wl_expr *c = l->colls.v[i];
    const rec *r = rec_of(l, c);
    const wl_builtin *co = wl_collective_of(c);
    if (!r || r->fi != g || co->legacy != legacy || rec_partial(l, r) || dead_for_call(r, b))
      continue;
    if (legacy)
      return c;
    if (wl_collective_full_mask(c))
      return c;
    const wl_expr *m = wl_expr_strip(wl_collective_mask(c));
    if (m && m->kind == WL_E_REF && m->var && (m->var->flags & WL_V_PARAM) &&
        m->var->param_index >= 0 && (unsigned)m->var->param_index < g->f->nparams &&
        g->f->params[m->var->param_index] == m->var) {
      const wl_expr *a = wl_lanes_call_arg(l, call, (unsigned)m->var->param_index);
      if (!a) /* left out: the parameter's default argument (mask = 0xffffffff) */
        a = m->var->init;
      if (a && wl_consteval_is_full_mask(a))
        return c;
    }
  }
  for (size_t i = 0; i < g->calls.n; i++) {
    const wl_expr *c = g->calls.v[i];
    const rec *r = rec_of(l, c);
    if (!r || rec_partial(l, r) || (legacy && legacy_name(c)) || dead_for_call(r, b))
      continue;
    unsigned off;
    const wl_expr *x = full_warp_in(l, call_target(l, c, &off), c, depth + 1, legacy, b);
    if (x)
      return x;
  }
  return NULL;
}

/* The collective a call of g reaches with the whole warp (g is the call's
 * target, so the call and the depth key the answer). */
static const wl_expr *full_warp_in(const wl_lanes *l, const finfo *g, const wl_expr *call,
                                   int depth, bool legacy, const tbind *outer) {
  if (!g || !g->analyzed || depth > FULL_WARP_DEPTH)
    return NULL;
  /* an answer that depends on the outer calls' template arguments is not kept */
  if (outer && call_depends_on_outer(call))
    return full_warp_scan(l, g, call, depth, legacy, outer);
  wl_hmap *memo = &l->full_warp[depth + (legacy ? FULL_WARP_DEPTH + 1 : 0)];
  const void *known = wl_hmap_get(memo, call);
  if (known)
    return known == &no_full_warp ? NULL : known;
  const wl_expr *x = full_warp_scan(l, g, call, depth, legacy, NULL);
  wl_hmap_put(memo, call, x ? (void *)x : (void *)&no_full_warp, false);
  return x;
}

const wl_expr *wl_lanes_call_full_warp_collective(const wl_lanes *l, const wl_expr *e) {
  unsigned off;
  return full_warp_in(l, call_target(l, e, &off), e, 0, false, NULL);
}

const wl_expr *wl_lanes_call_full_warp_legacy(const wl_lanes *l, const wl_expr *e) {
  unsigned off;
  if (legacy_name(e))
    return NULL;
  return full_warp_in(l, call_target(l, e, &off), e, 0, true, NULL);
}

const wl_func *wl_lanes_callee(const wl_lanes *l, const wl_expr *call) {
  unsigned off;
  const finfo *g = call_target(l, call, &off);
  return g ? g->f : NULL;
}

const wl_expr *wl_lanes_call_arg(const wl_lanes *l, const wl_expr *call, unsigned i) {
  unsigned off;
  if (!call_target(l, call, &off))
    off = 0;
  return arg_at(call, (int)(i + off));
}
