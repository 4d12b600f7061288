/* analyses.c - lifetime of the lazily built per-TU analyses. */
#include "analyses.h"

#include <string.h>

void wl_analyses_init(wl_analyses *an, const wl_tu *tu) {
  memset(an, 0, sizeof *an);
  an->tu = tu;
}

void wl_analyses_free(wl_analyses *an) { memset(an, 0, sizeof *an); }
