/* builtins.h - the catalog of CUDA built-ins (builtins.def): for each warp
 * intrinsic, cooperative-groups method, barrier and side-effect-free device
 * function, its kind, where its mask, width and source-lane arguments are,
 * whether its result is the same in every lane, what it orders in shared
 * memory, and the CUDA 9+ call that replaces a legacy form. The analyses and
 * rules ask the catalog instead of keeping lists of names. */
#ifndef WARPLINT_BUILTINS_H
#define WARPLINT_BUILTINS_H

#include <stdbool.h>
#include <stddef.h>

#include "ir.h"

typedef enum wl_builtin_kind {
  WL_BK_SHFL,            /* a shuffle from the lane srcLane (a broadcast with srcLane uniform) */
  WL_BK_SHFL_UP,         /* from lane - delta */
  WL_BK_SHFL_DOWN,       /* from lane + delta */
  WL_BK_SHFL_XOR,        /* from lane ^ laneMask */
  WL_BK_VOTE,            /* ballot, any, all, uni */
  WL_BK_MATCH,           /* match_any, match_all */
  WL_BK_REDUCE,          /* __reduce_*_sync, cg::reduce */
  WL_BK_SCAN,            /* cg::inclusive_scan, cg::exclusive_scan */
  WL_BK_SYNCWARP,        /* __syncwarp */
  WL_BK_BARRIER,         /* __syncthreads and friends, a group's sync() */
  WL_BK_ACTIVEMASK,      /* __activemask */
  WL_BK_LANE_INFO,       /* __lanemask_*, __laneid */
  WL_BK_CLOCK,           /* clock, clock64 */
  WL_BK_ATOMIC,          /* atomic* */
  WL_BK_MATH,            /* min, max, __popc, ... */
  WL_BK_GROUP_RANK,      /* a group's thread_rank() */
  WL_BK_GROUP_INDEX,     /* a block's thread_index() (a dim3) */
  WL_BK_GROUP_META_RANK, /* a tile's meta_group_rank() */
  WL_BK_GROUP_META_SIZE, /* a tile's meta_group_size() */
  WL_BK_GROUP_SIZE,      /* a group's size(), num_threads() */
  WL_BK_GROUP_THIS,      /* cg::this_thread_block(), cg::this_grid(): the whole block / grid */
  WL_BK_GROUP_COALESCED, /* cg::coalesced_threads(): the lanes that happen to be active */
  WL_BK_GROUP_PARTITION  /* cg::tiled_partition(parent...): a collective of the parent */
} wl_builtin_kind;

typedef enum wl_builtin_form {
  WL_BF_INTRINSIC, /* a free function of CUDA (the prelude declares it) */
  WL_BF_CG         /* a cooperative-groups method or cg:: function */
} wl_builtin_form;

typedef enum wl_builtin_result {
  WL_BR_OTHER,   /* worked out by the analysis from the kind, or not known */
  WL_BR_UNIFORM, /* the same in every lane of the group */
  WL_BR_LANE,    /* differs between lanes */
  WL_BR_ARGS     /* a function of the arguments alone */
} wl_builtin_result;

typedef enum wl_builtin_orders {
  WL_BO_NONE,       /* orders nothing (the legacy forms included) */
  WL_BO_COLLECTIVE, /* a lane's reads before it with another lane's stores after it */
  WL_BO_BARRIER     /* everything before it with everything after it */
} wl_builtin_orders;

typedef struct wl_builtin {
  const char *name;
  wl_builtin_kind kind;
  wl_builtin_form form;
  int mask_arg;  /* index of the member mask, -1: none (legacy forms, cooperative groups) */
  int width_arg; /* index of a shuffle's width, -1: none */
  int src_arg;   /* index of a shuffle's srcLane / delta / laneMask, -1: none */
  wl_builtin_result result;
  wl_builtin_orders orders;
  bool legacy;             /* pre-CUDA-9 form without a mask */
  const char *replacement; /* legacy: the CUDA 9+ call that replaces it */
  bool pure;               /* no side effects */
  size_t len;              /* strlen(name): lookups compare lengths before bytes */
} wl_builtin;

/* The catalog's entry for a name (every name starting with "atomic" is the
 * atomic entry), NULL for names it does not know. Whether a call really is
 * the built-in (no body in the file, declared by the prelude) is the
 * caller's question. */
const wl_builtin *wl_builtin_find(const char *name);
/* The catalog's entry for the call e (casts stripped) when it is a call of a
 * built-in of this kind and form, else NULL. Like wl_builtin_find, by name. */
const wl_builtin *wl_builtin_call(const wl_expr *e, wl_builtin_kind kind, wl_builtin_form form);
/* Whether a vote's result is the set of voting lanes whose predicate holds
 * (__ballot_sync, __ballot, a group's ballot()) rather than one bool. */
bool wl_builtin_vote_is_ballot(const wl_builtin *b);
/* The cooperative-groups type of the group a WL_BK_GROUP_THIS call makes:
 * "thread_block" or "grid_group"; NULL for other entries. */
const char *wl_builtin_group_type(const wl_builtin *b);
/* Whether b is one of the four shuffles. */
bool wl_builtin_is_shuffle(const wl_builtin *b);
/* Whether b is a warp collective called as a CUDA intrinsic with a member
 * mask or a legacy one without (shuffles, votes, matches, reductions,
 * __syncwarp). */
bool wl_builtin_is_warp_intrinsic(const wl_builtin *b);
/* For a shuffle of the given kind at `lane` with source operand `src` and
 * `width` (1..32): the lane read from. A lane whose source would leave its
 * segment (up/down at an edge, a xor partner in another segment) reads its
 * own value. */
long long wl_builtin_shuffle_source(wl_builtin_kind kind, unsigned lane, long long src,
                                    long long width);

/* Whether evaluating e has no side effects: no assignment, increment, comma,
 * lambda or unknown node, and no call except of a pure built-in of the
 * catalog (a user function without side effects cannot be told apart).
 * NULL is pure. */
bool wl_builtin_pure_expr(const wl_expr *e);

/* Names that say what a value is, for code that hides the built-ins behind
 * its own helpers: laneId(), get_lane(), lane_num() (a lane's index), and
 * warp_id, warpId, wid, w (a warp's index, the same in all its lanes). */
bool wl_builtin_name_says_lane(const char *name);
bool wl_builtin_name_says_warp(const char *name);

#endif
