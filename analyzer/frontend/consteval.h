/* consteval.h - folding of integer constant expressions of the IR: the masks
 * and widths handed to warp intrinsics.
 *
 * Folds literals (clang already folded literals, casts and unary operators:
 * has_ival), the operators ~ - + ! * / % + - << >> & | ^ && || comparisons
 * and ?:, casts (truncated to the cast's type), references to const
 * variables with a known value (wl_var.has_ival), enumerators, and the
 * built-in warpSize (32). Macros such as FULL_MASK are folded by clang
 * already: their expansion is a literal in the IR. */
#ifndef WARPLINT_CONSTEVAL_H
#define WARPLINT_CONSTEVAL_H

#include <stdbool.h>

#include "ir.h"

#define WL_FULL_MASK 0xffffffffu

/* Optional hook consulted for every sub-expression before the built-in rules:
 * returns true and sets *out to give the expression a value (used to bind a
 * parameter or a lane id while folding). */
typedef bool (*wl_const_hook)(const wl_expr *e, long long *out, void *ud);

/* Folds `e`; false when it is not a constant. */
bool wl_consteval(const wl_expr *e, long long *out);
bool wl_consteval_ex(const wl_expr *e, wl_const_hook hook, void *ud, long long *out);

/* Folds a 32-bit lane mask (the value converted to unsigned int). */
bool wl_consteval_mask(const wl_expr *e, unsigned *mask);
/* Whether `e` folds to a mask with all 32 bits set (0xffffffff, ~0u, -1, FULL_MASK). */
bool wl_consteval_is_full_mask(const wl_expr *e);

#endif
