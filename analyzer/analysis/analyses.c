/* analyses.c - the analysis manager: settings, lazy construction and
 * lifetime of the per-TU analyses. */
#include "analyses.h"

#include <string.h>

void wl_analysis_settings_init(wl_analysis_settings *s) {
  memset(s, 0, sizeof *s);
  wl_lanes_opts_init(&s->lanes);
}

void wl_analyses_init(wl_analyses *an, const wl_tu *tu, const wl_analysis_settings *settings) {
  memset(an, 0, sizeof *an);
  an->tu = tu;
  if (settings)
    an->settings = *settings;
  else
    wl_analysis_settings_init(&an->settings);
}

void wl_analyses_free(wl_analyses *an) {
  wl_lanes_free(an->lanes);
  wl_smem_free(an->smem);
  memset(an, 0, sizeof *an);
}

wl_lanes *wl_an_lanes(wl_analyses *an) {
  if (!an->lanes)
    an->lanes = wl_lanes_new(an->tu, &an->settings.lanes);
  return an->lanes;
}

const wl_smem *wl_an_smem(wl_analyses *an) {
  if (!an->smem)
    an->smem = wl_smem_build(an->tu);
  return an->smem;
}
