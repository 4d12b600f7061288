/* affine.h - the value of an integer expression across the 32 lanes of one
 * warp ("lane form"), and a small integer feasibility check.
 *
 * A lane form is  v(l) = k0[l] + k1[l]*s1 + ... + kn[l]*sn  for every lane
 * l = 0..31, where the s_i are warp-uniform unknowns ("symbols": the warp's
 * index in the block, blockDim.x / 32, a kernel parameter, a loop variable of
 * one iteration, a product of two symbols) and the k_i[l] are integers known
 * for each lane. `threadIdx.x` is 32*W + l, `threadIdx.x % 32` is l,
 * `(l + 31) & 31` and `l / 4` are concrete per lane. Forms are immutable and
 * live in the arena of the symbol table's owner.
 *
 * A constraint set (from branch conditions and "these two lanes touch the
 * same element") is checked for integer solutions over the symbols' ranges
 * by gcd normalization, substitution of equalities, bounds propagation,
 * splitting a few `!=` rows into `<` and `>`, and, for small finite domains,
 * enumeration. An opaque symbol brings the facts that tie it to its operands
 * (x >> 1 lies in [(x - 1) / 2, x / 2] for x >= 0, min(a, b) <= a, ...).
 * A symbol may be known to lie below another (wl_sym_set_below: s <= t - 1,
 * e.g. the warp's index W in the block is at most blockDim.x / 32 - 1, since
 * threadIdx.x < blockDim.x); the check adds that fact whenever a constraint
 * set involves both symbols.
 * "Infeasible" answers are exact; "feasible" may be a maybe.
 *
 * A symbol may be marked as a host-chosen value (wl_sym.param: a kernel or
 * template argument); the shared-memory analysis does not report races that
 * need such a value to bring two lanes together. */
#ifndef WARPLINT_AFFINE_H
#define WARPLINT_AFFINE_H

#include <stdbool.h>

#include "arena.h"

#define WL_LANES 32
#define WL_INF (1LL << 60) /* an unbounded end of a symbol's range */

typedef struct wl_lterm {
  unsigned sym; /* 0: the constant 1 */
  long long k[WL_LANES];
} wl_lterm;

/* Terms sorted by symbol, t[0] is always the constant term, no other term is all zero. */
typedef struct wl_lform {
  unsigned n;
  wl_lterm t[];
} wl_lform;

typedef enum wl_sym_kind {
  WL_SYM_ONE = 0, /* symbol 0: the constant 1 */
  WL_SYM_NAMED,   /* keyed by (key, name): a variable, a built-in, a field of a parameter */
  WL_SYM_FRESH,   /* a new unknown each time (loop variables, joins, loads) */
  WL_SYM_PRODUCT, /* a * b of two symbols */
  WL_SYM_OPAQUE   /* op(fa, fb) of two uniform forms that has no form */
} wl_sym_kind;

typedef struct wl_sym {
  wl_sym_kind kind;
  long long lo, hi; /* range; +-WL_INF when unbounded */
  const char *name;
  const void *key;
  unsigned a, b;           /* PRODUCT */
  int op;                  /* OPAQUE */
  const wl_lform *fa, *fb; /* OPAQUE */
  /* a value chosen by the host (a kernel or template argument, a global) or a
   * product or operation involving one; see wl_sym_set_param */
  bool param;
  /* nonzero: this symbol is at most symbol `below` minus 1 (wl_sym_set_below) */
  unsigned below;
} wl_sym;

#define WL_LF_SMALL 1024 /* constants 0..WL_LF_SMALL-1 are made once */

typedef struct wl_lctx {
  wl_arena *arena; /* forms are allocated here */
  wl_sym *syms;
  unsigned nsyms, cap;
  const wl_lform *small[WL_LF_SMALL];
  unsigned *made; /* indexes of small set so far, in order (wl_lctx_forget) */
  size_t nmade, capmade;
  const wl_lform *lane;
} wl_lctx;

void wl_lctx_init(wl_lctx *c, wl_arena *arena);
void wl_lctx_free(wl_lctx *c);
/* A point in the symbols and the constants made once (wl_lctx_mark_now), to
 * forget those made after it when the arena memory that holds them is given
 * back (wl_lctx_forget); changes to older symbols (wl_sym_set_param,
 * wl_sym_set_below) are kept. */
typedef struct wl_lctx_mark {
  unsigned nsyms;
  size_t nmade;
  const wl_lform *lane;
} wl_lctx_mark;
wl_lctx_mark wl_lctx_mark_now(const wl_lctx *c);
void wl_lctx_forget(wl_lctx *c, wl_lctx_mark m);

unsigned wl_sym_named(wl_lctx *c, const void *key, const char *name, long long lo, long long hi);
unsigned wl_sym_fresh(wl_lctx *c, const char *name, long long lo, long long hi);
/* Marks a symbol as a host-chosen value; products and operations of it made
 * afterwards are marked too. */
void wl_sym_set_param(wl_lctx *c, unsigned sym);
/* Records sym <= bound - 1 (sym < bound), used by wl_lcons_feasible whenever
 * a constraint set involves both symbols (e.g. the warp index W < blockDim.x / 32). */
void wl_sym_set_below(wl_lctx *c, unsigned sym, unsigned bound);

/* Constructors. */
const wl_lform *wl_lf_const(wl_lctx *c, long long v);
const wl_lform *wl_lf_lane(wl_lctx *c); /* l */
const wl_lform *wl_lf_sym(wl_lctx *c, unsigned sym, long long coef);
/* v[l] = per_lane[l] */
const wl_lform *wl_lf_lanes(wl_lctx *c, const long long per_lane[WL_LANES]);

/* Arithmetic; NULL when the result has no form (unknown) or on overflow.
 * Operands may be NULL (unknown), giving NULL. */
const wl_lform *wl_lf_add(wl_lctx *c, const wl_lform *a, const wl_lform *b);
const wl_lform *wl_lf_sub(wl_lctx *c, const wl_lform *a, const wl_lform *b);
const wl_lform *wl_lf_scale(wl_lctx *c, const wl_lform *a, long long k);
const wl_lform *wl_lf_mul(wl_lctx *c, const wl_lform *a, const wl_lform *b);

typedef enum wl_lop {
  WL_LOP_DIV,
  WL_LOP_REM,
  WL_LOP_SHL,
  WL_LOP_SHR,
  WL_LOP_AND,
  WL_LOP_OR,
  WL_LOP_XOR,
  WL_LOP_MIN,
  WL_LOP_MAX
} wl_lop;
/* Non-linear operations: exact per lane when the symbolic part allows it
 * (e.g. (32*W + c) % 32 == c % 32), a uniform opaque symbol when both
 * operands are uniform, else NULL. */
const wl_lform *wl_lf_op(wl_lctx *c, wl_lop op, const wl_lform *a, const wl_lform *b);
/* v[l] = take_a[l] ? a[l] : b[l] */
const wl_lform *wl_lf_select(wl_lctx *c, const bool take_a[WL_LANES], const wl_lform *a,
                             const wl_lform *b);

bool wl_lf_equal(const wl_lform *a, const wl_lform *b);
/* a and b have the same symbolic terms, each the same in every lane, so that
 * a[l1] - b[l2] is a number for any two lanes. */
bool wl_lf_same_symbolic(const wl_lform *a, const wl_lform *b);
bool wl_lf_uniform(const wl_lform *f);                         /* the same in every lane */
bool wl_lf_concrete(const wl_lform *f);                        /* no symbol: a number per lane */
bool wl_lf_const_value(const wl_lform *f, long long *v);       /* concrete and uniform */
bool wl_lf_at(const wl_lform *f, unsigned lane, long long *v); /* concrete at a lane */
/* Whether a form involves a host-chosen value (wl_sym.param). */
bool wl_lf_has_param(const wl_lctx *c, const wl_lform *f);
/* Range of the value at a lane from the symbols' ranges. */
void wl_lf_range(const wl_lctx *c, const wl_lform *f, unsigned lane, long long *lo, long long *hi);

/* ---- linear constraints over symbols ---------------------------------- */

#define WL_LIN_MAX 8

typedef struct wl_lin {
  unsigned n;
  unsigned sym[WL_LIN_MAX];
  long long k[WL_LIN_MAX];
  long long c;
  bool ok; /* false: too many symbols or overflow (unusable) */
} wl_lin;

typedef enum wl_cop { WL_C_EQ, WL_C_NE, WL_C_LE } wl_cop; /* lin == 0, lin != 0, lin <= 0 */

typedef struct wl_lcons {
  wl_lin lin;
  wl_cop op;
} wl_lcons;

/* The form at one lane, as a linear expression over symbols. */
void wl_lin_at(const wl_lform *f, unsigned lane, wl_lin *out);
void wl_lin_sub(const wl_lin *a, const wl_lin *b, wl_lin *out);
/* Whether a linear expression involves a host-chosen value (wl_sym.param). */
bool wl_lin_has_param(const wl_lctx *c, const wl_lin *l);
/* Whether some assignment of the symbols within their ranges satisfies every
 * constraint. Unusable constraints are ignored. */
bool wl_lcons_feasible(const wl_lctx *c, const wl_lcons *v, unsigned n);

#endif
