/* analyses.h - the per-TU analyses that rules ask questions of, built lazily
 * on first use and freed with the TU's rule context. */
#ifndef WARPLINT_ANALYSES_H
#define WARPLINT_ANALYSES_H

#include "ir.h"

typedef struct wl_analyses {
  const wl_tu *tu;
  void *lanes;     /* struct wl_lanes (lanes.h), NULL until asked for */
  void *smem;      /* struct wl_smem (shared.h), NULL until asked for */
  void *fixer;     /* state the rules' fixes share within a TU (rules/mask_fix.h) */
  int whole_warps; /* options of the lane analysis: 0 its default, 1 true, 2 false */
  int rows_are_warps;
  void (*fixer_free)(void *);
} wl_analyses;

void wl_analyses_init(wl_analyses *an, const wl_tu *tu);
void wl_analyses_free(wl_analyses *an);

#endif
