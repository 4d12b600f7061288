/* mask_fix.h - the mask a fix gives a warp collective (see mask_fix.c). */
#ifndef WARPLINT_MASK_FIX_H
#define WARPLINT_MASK_FIX_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

typedef enum wl_mask_choice {
  WL_MASK_NONE = 0,  /* no mask can be chosen safely: suggest, do not edit */
  WL_MASK_FULL,      /* every lane of the warp reaches the call: 0xffffffff */
  WL_MASK_HOISTED,   /* a __ballot_sync of the branch condition, hoisted before the if */
  WL_MASK_FULL_NOTED /* 0xffffffff although part of the warp reaches the call: a grid-tail
                        guard whose other lanes leave the kernel, or Listing 13; the note in
                        wl_mask_fixer.tail_note says why */
} wl_mask_choice;

/* One per rule run: remembers the names given to hoisted masks so that every
 * call under the same if shares one mask and different ifs get different names. */
typedef struct wl_mask_fixer {
  wl_rule_ctx *ctx;
  struct {
    const wl_stmt *ifs;
    int side;
    const wl_func *func;
    char name[32];
  } hoists[256];
  size_t nhoists;
  char tail_note[1024]; /* WL_MASK_FULL_NOTED: the note for the finding */
  bool no_hoist;        /* set by the caller: a hoisted mask cannot be used (a macro definition) */
  const char *why_not_hoisted; /* WL_MASK_FULL_NOTED: why no hoisted mask was chosen */
  bool tail_exact; /* WL_MASK_FULL_NOTED at a grid tail, every lane reading a lane that is there */
} wl_mask_fixer;

/* The TU's fixer, shared by every rule (hoisted mask names never clash),
 * created on first use and freed with the rule context (wl_rule_ctx_free). */
wl_mask_fixer *wl_mask_fixer_of(wl_rule_ctx *ctx);

/* Picks the mask for the collective `call`. mask receives its text. For
 * WL_MASK_HOISTED, *hoist_text (malloc'd, the caller frees it) is the
 * declaration to insert before statement *hoist_before (wl_fix_insert_before). For WL_MASK_NONE,
 * *why says why no mask could be chosen. For WL_MASK_FULL_NOTED (the full mask
 * although part of the warp reaches the call) mf->tail_note holds the note to attach.
 *
 * Grid tails: `if (thread < threads) { ... }` as the last statement of a
 * kernel, or `if (thread >= threads) return;` at its top level, where thread
 * is a thread id (or a thread id divided by a power of two up to 32): the
 * lanes that reach the call are a prefix of the warp (of whole segments).
 * The hoisted ballot of the condition is used when every lane of every such
 * prefix reads from a lane of the same prefix; otherwise, and for device
 * functions called only under such guards, the full mask, which waits only
 * for lanes that have not exited (the lanes past the tail leave the kernel
 * without another warp operation). Listing 13 (the same legacy collective in
 * both arms of a lane-dependent if, each after a __syncwarp()) also gets the
 * full mask: every lane runs one of the two calls. */
wl_mask_choice wl_choose_mask(wl_mask_fixer *mf, const wl_expr *call, char *mask, size_t masksz,
                              const wl_stmt **hoist_before, char **hoist_text, const char **why);

/* Fix of a collective whose existing mask argument `arg` is wrong: hoists the
 * branch's ballot and replaces the argument by it. False (with *why) when
 * that is not safe. */
bool wl_fix_mask_arg(wl_mask_fixer *mf, wl_finding *fd, const wl_expr *call, const wl_expr *arg,
                     const char **why);

/* Whether the full mask is right for collective `call` although part of the
 * warp reaches it: it lies under a grid-tail guard (wl_choose_mask) whose
 * other lanes leave the kernel, and every lane reads from a lane that passed
 * the guard. */
bool wl_full_mask_ok_at_tail(wl_mask_fixer *mf, const wl_expr *call);

/* The same for collective `call` of a wrapper judged at one call `site` of
 * the wrapper (the wrapper's parameters being that call's arguments): the
 * site lies directly under a grid-tail guard of its kernel, and every lane
 * that passes it reads from a lane that passed it too (CudaSift's
 * `ShiftUp(v, 1)` or `Shuffle(v, 0)` after `if (ypos >= height) return;`,
 * while other kernels call the same wrappers elsewhere). */
bool wl_full_mask_ok_at_tail_site(wl_mask_fixer *mf, const wl_expr *site, const wl_expr *call);

struct wl_lanes;
/* Whether e is a thread id plus warp-uniform terms (*seg = 1), or such a
 * value divided by (or shifted right to divide by) a power of two D up to 32
 * (*seg = D: the same in each D-lane segment); locals of f are followed. */
bool wl_tid_linear(const struct wl_lanes *l, const wl_func *f, const wl_expr *e, unsigned *seg);

/* Whether cond is a quotient of a rising thread id (a thread id plus
 * warp-uniform terms, no subtraction) by a warp-uniform value, or a right
 * shift of it, compared with zero (`q == 0`, `0 != q`, `!q`; q may be a local
 * holding it, as ccminer's `warp_id = threadIdx.x / width`): zero exactly for
 * the thread ids below a bound, so the lanes where cond has truth value side
 * are a prefix of the warp (*below) or a suffix, made of whole segments of
 * *seg lanes. */
bool wl_quotient_cond(const struct wl_lanes *l, const wl_func *f, const wl_expr *cond, int side,
                      unsigned *seg, bool *below);

#endif
