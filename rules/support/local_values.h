/* local_values.h - what a local variable of a device function holds, for
 * rules that follow a value through `T x = init;` (local_values.c). */
#ifndef WARPLINT_LOCAL_VALUES_H
#define WARPLINT_LOCAL_VALUES_H

#include <stdbool.h>

#include "ir.h"
#include "rules.h"

/* A non-static, non-reference, non-pointer local of a function body. */
bool wl_is_plain_local(const wl_var *v);
/* How many times v is assigned, incremented or has its address taken in f
 * (the initializer not counted), skipping the expression `skip` (may be NULL). */
unsigned wl_local_assignments(const wl_func *f, const wl_var *v, const wl_expr *skip);
/* e, stripped, with plain locals that nothing but their initializer sets
 * replaced by that initializer (followed a few levels deep). */
const wl_expr *wl_local_resolve(const wl_func *f, const wl_expr *e);

/* Whether a and b (in f) denote the same value: the same local that only its
 * initializer sets (or the same parameter), the same node after following
 * such locals, or the same text of a pure expression without __activemask(). */
bool wl_same_value(const wl_rule_ctx *ctx, const wl_func *f, const wl_expr *a, const wl_expr *b);

typedef enum wl_leader_kind { WL_LEAD_NONE, WL_LEAD_LOW, WL_LEAD_HIGH } wl_leader_kind;
/* Whether src is a leader elected from mask: __ffs(mask) - 1 (the lowest
 * lane) or 31 - __clz(mask) (the highest), through locals. */
wl_leader_kind wl_mask_leader(const wl_rule_ctx *ctx, const wl_func *f, const wl_expr *src,
                              const wl_expr *mask);

#endif
