/* analyses.c - lifetime of the lazily built per-TU analyses. */
#include "analyses.h"

#include <string.h>

#include "lanes.h"
#include "shared.h"

void wl_analyses_init(wl_analyses *an, const wl_tu *tu) {
  memset(an, 0, sizeof *an);
  an->tu = tu;
}

void wl_analyses_free(wl_analyses *an) {
  wl_lanes_free(an->lanes);
  wl_smem_free(an->smem);
  if (an->fixer && an->fixer_free)
    an->fixer_free(an->fixer);
  memset(an, 0, sizeof *an);
}
