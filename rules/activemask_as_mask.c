/* activemask_as_mask.c - rule activemask-as-mask: a warp collective whose mask
 * derives from __activemask() (directly, through variables, or through a
 * parameter of a device function) runs in lane-divergent code (Listing 5).
 * Reported at the collective; when the collective itself is reached by the
 * whole warp of its function but the __activemask() value was taken in
 * divergent code of a caller, at the call that passes the value down. */
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"
#include "lanes.h"
#include "mask_fix.h"
#include "rules.h"

#define RULE "activemask-as-mask"

#define FIX                                                                                        \
  "compute the mask before the branch with __ballot_sync(FULL_MASK, cond) (Listing 3), or use "    \
  "0xffffffff where the whole warp reaches the call"

static void report(wl_mask_fixer *mf, const wl_expr *at, const wl_expr *coll, const wl_expr *am,
                   const char *why) {
  wl_rule_ctx *ctx = mf->ctx;
  const wl_macro_info *m;
  wl_range r = wl_lanes_site(ctx->tu, at, &m);
  wl_finding *fd;
  if (at == coll)
    fd = wl_report_range(ctx, RULE, r, m,
                         "the mask of '%s' comes from __activemask(), which only says which lanes "
                         "happen to be converged, not which lanes must take part; %s it may run "
                         "with part of the intended lanes and give partial results: " FIX,
                         coll->name, why);
  else
    fd = wl_report_range(ctx, RULE, r, m,
                         "this call hands an __activemask() value to '%s' as its mask; %s the "
                         "collective may run with part of the intended lanes: " FIX,
                         coll->name, why);
  wl_note_at(ctx, fd, am->loc, "__activemask() is called here");
  if (at != coll)
    wl_note_at(ctx, fd, coll->loc, "'%s' uses it as its mask here", coll->name);
  const wl_expr *mask = wl_collective_mask(coll);
  const char *nofix = NULL;
  if (fd && at == coll && mask && !wl_fix_mask_arg(mf, fd, coll, mask, &nofix))
    wl_finding_add_note(fd, fd->file, fd->line, fd->col, nofix);
}

void wl_rule_activemask_as_mask(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_lanes_of(ctx->an);
  const wl_expr *const *cs;
  size_t n = wl_lanes_collectives(l, &cs);
  wl_vec done = {0}; /* calls already reported */
  wl_mask_fixer *mf = wl_mask_fixer_of(ctx);
  for (size_t i = 0; i < n; i++) {
    const wl_collective *co = wl_collective_of(cs[i]);
    const wl_expr *mask = wl_collective_mask(cs[i]);
    if (!mask || co->match) /* __match_any_sync(__activemask(), key): opportunistic, fine */
      continue;
    wl_mask_origin o[8];
    size_t no = wl_lanes_activemask_origins(l, mask, o, 8);
    no = no < 8 ? no : 8;
    wl_lane_reach r;
    char why[256];
    if (no && wl_lanes_reach_expr(l, cs[i], &r) && r.partial) {
      wl_lanes_describe(ctx->tu, &r, why, sizeof why);
      report(mf, cs[i], cs[i], o[0].activemask, why);
      continue;
    }
    for (size_t k = 0; k < no; k++) {
      const wl_expr *at = o[k].call ? o[k].call : cs[i];
      bool seen = false;
      for (size_t j = 0; j < done.n && !seen; j++)
        seen = done.v[j] == at;
      if (!o[k].partial || seen)
        continue;
      wl_vec_push(&done, (void *)at);
      if (!wl_lanes_reach_expr(l, o[k].activemask, &r) || !r.partial)
        wl_lanes_reach_expr(l, o[k].call, &r);
      wl_lanes_describe(ctx->tu, &r, why, sizeof why);
      report(mf, at, cs[i], o[k].activemask, why);
    }
  }
  wl_vec_free(&done);
}
