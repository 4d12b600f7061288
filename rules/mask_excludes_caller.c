/* mask_excludes_caller.c - rule mask-excludes-caller: a warp collective with
 * a constant mask is reached by lanes that the mask leaves out (each calling
 * lane must have its own bit set). Only reported where the lane analysis
 * knows exactly which lanes reach the call: the conditions on the way depend
 * on the lane id alone, and whole warps enter the function. */
#include <stdio.h>

#include "analyses.h"
#include "consteval.h"
#include "lanes.h"
#include "rules.h"
#include "wording.h"

void wl_rule_mask_excludes_caller(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  for (size_t i = 0; i < n; i++) {
    const wl_expr *mask = wl_collective_mask(cs[i]);
    const wl_func *f = wl_lanes_func_of_expr(l, cs[i]);
    const wl_expr *const *calls;
    unsigned m, reach;
    wl_lane_reach r;
    if (!mask || !f || !wl_consteval_mask(mask, &m) || m == WL_FULL_MASK)
      continue;
    /* a device function nobody here calls may be meant for part of a warp */
    if (!(f->flags & WL_F_GLOBAL) && wl_lanes_calls_of(l, f, &calls) == 0)
      continue;
    if (!wl_lanes_reach_expr(l, cs[i], &r) || r.caller_partial ||
        !wl_lanes_reaching_lanes(l, cs[i], &reach) || !(reach & ~m))
      continue;
    char out[160], in[160];
    wl_wording_lanes(reach & ~m, out, sizeof out);
    wl_wording_lanes(reach, in, sizeof in);
    const wl_macro_info *mi;
    wl_range at = wl_wording_site(ctx->tu, cs[i], &mi);
    wl_report_range(
        ctx, at, mi,
        "lanes %s reach '%s' but its mask 0x%08x leaves them out: every calling lane "
        "must be in the mask, so this is undefined behaviour (it may hang or return "
        "garbage). The lanes that get here are %s (mask 0x%08x); compute the mask "
        "before the branch with __ballot_sync(FULL_MASK, cond) (a shuffle under it must "
        "read only lanes of that mask)",
        out, cs[i]->name, m, in, reach);
  }
}
