/* lanes.h - lane/divergence analysis: which values may differ between the
 * lanes of a warp, which statements only part of a warp reaches, and where
 * the mask of a warp collective comes from.
 *
 * One analysis per translation unit, over every device and kernel function,
 * with summaries across the functions of the TU (parameters, return values,
 * out-parameters). Built lazily for rules by the analysis manager
 * (analyses.h, wl_an_lanes).
 *
 * Lane-dependent (may differ between the lanes of one warp): threadIdx.x/y/z,
 * lane ids (threadIdx.x % 32, & 31, % warpSize, __lanemask_*(), %laneid in
 * inline PTX, functions named like lane_id(), a cooperative group's
 * thread_rank()), __activemask(), atomics' results, loads through
 * lane-dependent addresses, the results of calls on lane-dependent arguments,
 * variables assigned lane-dependent values or assigned under a lane-dependent
 * condition (or in a loop with a lane-dependent trip count) and read after it,
 * until a statement that every lane reaching the declaration runs assigns them
 * again (`old = __shfl_sync(mask, old, 0);` after lane 0 alone set old).
 * Shuffle results are lane-dependent, except __shfl_sync(mask, v, src) with a
 * warp-uniform source lane, which broadcasts one value (also through a wrapper
 * returning it with its width a parameter, called with width 32 or with the
 * default 32).
 *
 * Warp-uniform: constants, kernel parameters (and parameters of device
 * functions that every call passes a warp-uniform value), blockIdx, blockDim,
 * gridDim, warp ids (threadIdx.x / 32, >> 5, / warpSize, of threadIdx.x plus
 * a multiple of 32), results of __ballot_sync/__any_sync/__all_sync/
 * __uni_sync/__match_*_sync/__reduce_*_sync (the same for every lane that
 * takes part), loads through warp-uniform addresses (a __shared__ scalar read
 * after a barrier), and comparisons like `threadIdx.x < 32` of threadIdx.x (or
 * threadIdx.x plus a multiple of 32) against a multiple of 32: a constant, a
 * template parameter P of the function after `static_assert(P % K == 0)`, a
 * kernel parameter that every launch in the file passes as a multiple (a
 * constant, or a variable that the launching host function asserts to be
 * one before the launch: assert(n % K == 0), `if (n % K != 0) return;`, a
 * macro whose failing branch calls a function named like abort or fatal);
 * such a thread id times 2^k against a multiple of 32 * 2^k.
 *
 * The last two facts about threadIdx.x (and linear thread ids such as
 * threadIdx.y * blockDim.x + threadIdx.x) assume that a block is a whole
 * number of warps (blockDim.x a multiple of 32); wl_lanes_opts.whole_warps
 * switches that assumption off. threadIdx.y and threadIdx.z themselves are
 * lane-dependent unless wl_lanes_opts.rows_are_warps says a warp never spans
 * two rows of a block, or the code says so for one kernel: a function that
 * computes threadIdx.x + 32 * threadIdx.y (either order, the constant folding
 * to 32 or warpSize: blockDim.x is one warp), threadIdx.y * warpSize, or
 * asserts blockDim.x == K (K a multiple of 32) treats threadIdx.y and
 * threadIdx.z as warp-uniform; the same shapes with threadIdx.z instead make
 * threadIdx.z alone warp-uniform, as do asserts of blockDim.x == A and
 * blockDim.y == B with A * B a multiple of 32. Both are warp-uniform in a
 * kernel whose every launch in the
 * file (`k<<<grid, dim3(32, 16)>>>`, a dim3 local set once, an integer)
 * gives blocks a known width that is a multiple of 32 (launches through a
 * launch wrapper included: a host function launching one of its parameters,
 * called with a kernel of the file there; its block and arguments are read
 * through the wrapper's parameters, a constructor's member initializers,
 * locals set once, and the callers of the function building the block)
 * (wl_lanes_launch_block_x gives the width when all launches agree). A
 * kernel parameter that every launch passes as a multiple of 32 or as the
 * block's width divides threadIdx.x into a warp id (0 in a block of one
 * warp or less): `threadIdx.x / width == 0` is warp-uniform.
 * Functions called only from functions with such evidence (transitively)
 * inherit it. A cooperative group tile's
 * meta_group_rank()/meta_group_size(), cg::reduce and the tile's
 * any/all/ballot results are warp-uniform (from the toolkit headers).
 *
 * A test of __activemask() against 0xffffffff holds for all 32 lanes or for
 * none: code under `if (__activemask() == 0xffffffff)`, or after
 * `if (__activemask() != 0xffffffff) return;`, is reached by whole warps.
 *
 * Partial-warp reachability: a statement or expression is reached by only
 * part of a warp when it lies under a lane-dependent if/switch/?:/&&/||
 * condition, after a return/break/continue taken under a lane-dependent
 * condition (in the same function, or the same loop), or in a loop whose trip
 * count is lane-dependent. `for (i = s0; i < B; i += st)` with every lane's
 * s0 in [0, st) (threadIdx.x and blockDim.x, a lane id and 32, x % st, or
 * threadIdx.x where the function asserts blockDim.x == st) and B a multiple
 * of st (k * st, a helper returning (n + st - 1) / st * st, or blockDim.z
 * where the function asserts blockDim.z % st == 0 or every launch of the
 * kernel in the file gives a depth that is a multiple of st) runs B / st iterations in
 * every lane: its trip count depends on B and st alone. Each is a "restriction"; queries report the
 * innermost lane-dependent one. A goto counts like a return up to the next
 * label of the same block (where the lanes meet again).
 */
#ifndef WARPLINT_LANES_H
#define WARPLINT_LANES_H

#include <stdbool.h>
#include <stddef.h>

#include "builtins.h"
#include "ir.h"

typedef struct wl_lanes_opts {
  /* Blocks are a whole number of warps (blockDim.x a multiple of 32): tests
   * like threadIdx.x < 32 are warp-uniform, and so is a global warp id such as
   * (blockIdx.x * blockDim.x + threadIdx.x) / 32. Default: true. */
  bool whole_warps;
  /* blockDim.x is a multiple of 32 (a warp never spans two rows of a 2-D or
   * 3-D block), so threadIdx.y and threadIdx.z are warp-uniform. Default:
   * false (they are lane-dependent in general, e.g. for 16x16 blocks). */
  bool rows_are_warps;
} wl_lanes_opts;

void wl_lanes_opts_init(wl_lanes_opts *o);

typedef struct wl_lanes wl_lanes;

/* Builds the analysis of every function of the TU (host-only functions are
 * skipped). The TU must outlive the result. */
wl_lanes *wl_lanes_new(const wl_tu *tu, const wl_lanes_opts *o);
void wl_lanes_free(wl_lanes *l);

/* ---- values ------------------------------------------------------------ */

/* Whether the value of `e` may differ between the lanes of one warp. False for
 * expressions that were not analyzed (host code). */
bool wl_lanes_expr_dependent(const wl_lanes *l, const wl_expr *e);
/* Whether a local variable or parameter may hold lane-dependent values. */
bool wl_lanes_var_dependent(const wl_lanes *l, const wl_var *v);
/* Whether some call of f passes a lane-dependent argument for parameter i. */
bool wl_lanes_param_dependent(const wl_lanes *l, const wl_func *f, unsigned i);
/* Whether f may return a lane-dependent value (with lane-dependent arguments where some call passes
 * them). */
bool wl_lanes_return_dependent(const wl_lanes *l, const wl_func *f);

/* ---- partial-warp reachability ---------------------------------------- */

typedef enum wl_lane_restr_kind {
  WL_LR_NONE = 0,
  WL_LR_IF,     /* a branch of an if: stmt is the if, side the branch */
  WL_LR_SWITCH, /* a switch on a lane-dependent value: stmt is the switch */
  WL_LR_LOOP,   /* a loop whose trip count is lane-dependent: stmt is the loop */
  WL_LR_EXIT,   /* after a return/break/continue taken under a lane-dependent condition */
  WL_LR_SELECT, /* an arm of c ? a : b */
  WL_LR_LOGICAL /* the right operand of && or || */
} wl_lane_restr_kind;

typedef struct wl_lane_reach {
  bool partial;            /* only part of a warp reaches it (within its own function) */
  bool caller_partial;     /* its function is called from partial-warp code somewhere */
  wl_lane_restr_kind kind; /* the innermost lane-dependent restriction */
  const wl_stmt *stmt;     /* the if/switch/loop (for WL_LR_EXIT: the if/loop around the exit) */
  const wl_expr *cond; /* the lane-dependent condition (NULL when there is none, e.g. range-for) */
  int side;            /* 1: reached where cond is true; 0: where it is false; -1: unknown */
  const wl_stmt *exit; /* WL_LR_EXIT: the return/break/continue */
} wl_lane_reach;

/* Describes how e (a statement: _stmt) is reached; false when it was not
 * analyzed. With partial false, the kind is WL_LR_NONE. */
bool wl_lanes_reach_expr(const wl_lanes *l, const wl_expr *e, wl_lane_reach *out);
bool wl_lanes_reach_stmt(const wl_lanes *l, const wl_stmt *s, wl_lane_reach *out);
/* Every lane-dependent restriction of e, innermost first (at most max);
 * returns how many there are. */
size_t wl_lanes_restrictions(const wl_lanes *l, const wl_expr *e, wl_lane_reach *v, size_t max);
/* The lanes (bit i: lane i) that may reach e when a whole warp enters its
 * function, when the lane-dependent conditions on the way are functions of
 * the lane id alone (`lane < 16`, `(threadIdx.x & 31) % 2 == 0`, an early
 * `if (lane >= n_const) return;`). False when some restriction depends on
 * anything else (data, loop trip counts, switch). */
bool wl_lanes_reaching_lanes(const wl_lanes *l, const wl_expr *e, unsigned *lanes);
/* The same for warp `warp` of a block (thread ids 32 * warp .. 32 * warp +
 * 31), when the conditions are functions of the lane id and of thread ids
 * (threadIdx.x, a thread_block's thread_rank(): whole warps assumed):
 * `threadIdx.x < 16` is lanes 0-15 of warp 0 and no lane of the others. */
bool wl_lanes_reaching_lanes_in_warp(const wl_lanes *l, const wl_expr *e, unsigned warp,
                                     unsigned *lanes);
/* The lanes (bit i: lane i) for which cond is true (side 1) or false (side
 * 0), when cond is a function of the lane id alone; false otherwise. */
bool wl_lanes_cond_lanes(const wl_lanes *l, const wl_expr *cond, int side, unsigned *set);
/* Whether e is the lane id, or a thread id that is the lane id plus a
 * warp-uniform multiple of 32 (threadIdx.x, blockIdx.x * blockDim.x +
 * threadIdx.x with whole warps): one more in each next lane of the warp. */
bool wl_lanes_expr_tid_like(const wl_lanes *l, const wl_expr *e);
/* Whether every lane of a warp that enters e's function reaches e, and every
 * call of the function (transitively) is reached by whole warps: then
 * 0xffffffff is the right mask for a collective at e. */
bool wl_lanes_whole_warp(const wl_lanes *l, const wl_expr *e);

/* ---- warp collectives and their masks --------------------------------- */

/* The warp collective that call `e` is (CUDA 9+ *_sync intrinsics, __syncwarp,
 * legacy __shfl*, __ballot, __any, __all: the catalog's warp intrinsics), or
 * NULL. Member calls (cooperative groups) and functions with a body in the
 * file are not intrinsics. */
const wl_builtin *wl_collective_of(const wl_expr *e);
/* The mask argument of a collective call; NULL when absent (then the mask is
 * the default: __syncwarp() means 0xffffffff) or for legacy intrinsics. */
const wl_expr *wl_collective_mask(const wl_expr *e);
/* The width argument of a shuffle, NULL when absent (the default, warpSize). */
const wl_expr *wl_collective_width(const wl_expr *e);
/* Whether the collective's mask is all 32 lanes: a constant 0xffffffff, or no mask. */
bool wl_collective_full_mask(const wl_expr *e);

/* Every warp-collective call of the analyzed functions, in source order of the functions. */
size_t wl_lanes_collectives(const wl_lanes *l, const wl_expr *const **v);

/* Where the values of a mask come from. */
enum {
  WL_MASK_ACTIVEMASK = 1u << 0, /* derives from __activemask() */
  WL_MASK_MATCH = 1u << 1,      /* derives from a __match_any_sync/__match_all_sync result */
  WL_MASK_VOTE = 1u << 2        /* derives from __ballot_sync and friends */
};
/* Origins of e within its own function (locals followed, parameters not). */
unsigned wl_lanes_mask_flags(const wl_lanes *l, const wl_expr *e);

typedef struct wl_mask_origin {
  const wl_expr *activemask; /* the __activemask() call */
  const wl_expr *call;       /* NULL: activemask is in e's function; else the call (in
                                activemask's function) that passes the value down */
  bool partial; /* activemask, or a call on the way down, is reached by part of a warp */
} wl_mask_origin;
/* The __activemask() calls that e's value derives from: through local
 * variables, and through parameters of e's function up to the calls that pass
 * them (recursively). Values that also derive from a match result are left
 * out (opportunistic programming). Returns the count (fills at most max). */
size_t wl_lanes_activemask_origins(const wl_lanes *l, const wl_expr *e, wl_mask_origin *v,
                                   size_t max);

/* ---- call graph -------------------------------------------------------- */

/* The analyzed function that contains e, NULL when none. */
const wl_func *wl_lanes_func_of_expr(const wl_lanes *l, const wl_expr *e);
/* The calls of f from analyzed functions. */
size_t wl_lanes_calls_of(const wl_lanes *l, const wl_func *f, const wl_expr *const **v);
/* The block width every launch of kernel k in the file gives it
 * (`k<<<grid, dim3(4, 8)>>>`, `dim3 block(4, tpb / 4); k<<<grid, block>>>`,
 * `k<<<grid, 256>>>`), and in *z_one whether each gives a block depth of 1;
 * false when k has no launch in the file, or launches whose block widths
 * differ or are not known. */
bool wl_lanes_launch_block_x(const wl_lanes *l, const wl_func *k, unsigned *bx, bool *z_one);
/* The block extents (x, y, z) that every launch of kernel k in tu gives it,
 * found as for wl_lanes_launch_block_x without the analysis; dims[i] is 0
 * where the launches differ or the extent is not known. False when k has no
 * launch in tu. */
bool wl_launch_block_dims(const wl_tu *tu, const wl_func *k, long long dims[3]);
/* The analyzed function a call runs (a lambda's operator() included), NULL when none. */
const wl_func *wl_lanes_callee(const wl_lanes *l, const wl_expr *call);
/* The argument a call passes for parameter i of its callee (skipping a
 * lambda's object); NULL when absent (a default argument). */
const wl_expr *wl_lanes_call_arg(const wl_lanes *l, const wl_expr *call, unsigned i);
/* If the call `e` runs a collective with all 32 lanes in its mask that the
 * whole warp entering the callee reaches (directly or through further calls;
 * a mask parameter counts when the call passes 0xffffffff), returns that
 * collective; else NULL. */
const wl_expr *wl_lanes_call_full_warp_collective(const wl_lanes *l, const wl_expr *e);
/* The same for the legacy collectives (__shfl_down, __ballot, ...: no mask,
 * the whole warp meant to take part): the legacy collective that the whole
 * warp entering the callee of `e` reaches, directly or through further
 * calls, NULL when none. A call of a function named as a legacy intrinsic (a
 * user overload) is the legacy call itself: NULL, and not followed. */
const wl_expr *wl_lanes_call_full_warp_legacy(const wl_lanes *l, const wl_expr *e);

#endif
