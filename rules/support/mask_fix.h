/* mask_fix.h - the mask a fix gives a warp collective (see mask_fix.c). */
#ifndef WARPLINT_MASK_FIX_H
#define WARPLINT_MASK_FIX_H

#include <stdbool.h>
#include <stddef.h>

#include "rules.h"

typedef enum wl_mask_choice {
  WL_MASK_NONE = 0, /* no mask can be chosen safely: suggest, do not edit */
  WL_MASK_FULL,     /* every lane of the warp reaches the call: 0xffffffff */
  WL_MASK_HOISTED   /* a __ballot_sync of the branch condition, hoisted before the if */
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
} wl_mask_fixer;

/* The TU's fixer, shared by every rule (hoisted mask names never clash),
 * created on first use and freed with the rule context (wl_rule_ctx_free). */
wl_mask_fixer *wl_mask_fixer_of(wl_rule_ctx *ctx);

/* Picks the mask for the collective `call`. mask receives its text. For
 * WL_MASK_HOISTED, *hoist_text (malloc'd, the caller frees it) is the
 * declaration to insert before statement *hoist_before (wl_fix_insert_before). For WL_MASK_NONE,
 * *why says why no mask could be chosen. */
wl_mask_choice wl_choose_mask(wl_mask_fixer *mf, const wl_expr *call, char *mask, size_t masksz,
                              const wl_stmt **hoist_before, char **hoist_text, const char **why);

/* Fix of a collective whose existing mask argument `arg` is wrong: hoists the
 * branch's ballot and replaces the argument by it. False (with *why) when
 * that is not safe. */
bool wl_fix_mask_arg(wl_mask_fixer *mf, wl_finding *fd, const wl_expr *call, const wl_expr *arg,
                     const char **why);

#endif
