/* local_values.h - what a local variable of a device function holds, for
 * rules that follow a value through `T x = init;` (local_values.c). */
#ifndef WARPLINT_LOCAL_VALUES_H
#define WARPLINT_LOCAL_VALUES_H

#include <stdbool.h>

#include "ir.h"

/* A non-static, non-reference, non-pointer local of a function body. */
bool wl_is_plain_local(const wl_var *v);
/* How many times v is assigned, incremented or has its address taken in f
 * (the initializer not counted), skipping the expression `skip` (may be NULL). */
unsigned wl_local_assignments(const wl_func *f, const wl_var *v, const wl_expr *skip);
/* e, stripped, with plain locals that nothing but their initializer sets
 * replaced by that initializer (followed a few levels deep). */
const wl_expr *wl_local_resolve(const wl_func *f, const wl_expr *e);

#endif
