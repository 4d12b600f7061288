/* analyses.h - the analysis manager: the per-TU analyses that rules ask
 * questions of (lane divergence, shared-memory accesses), built lazily on
 * first use under the file's settings and freed together. The manager sits
 * above the analyses: it includes them, they never include it. */
#ifndef WARPLINT_ANALYSES_H
#define WARPLINT_ANALYSES_H

#include "ir.h"
#include "lanes.h"
#include "shared.h"

/* The settings of the analyses, built once per file from the options and the
 * configuration (.warplint). */
typedef struct wl_analysis_settings {
  wl_lanes_opts lanes;
} wl_analysis_settings;

/* The defaults (the lane analysis's defaults). */
void wl_analysis_settings_init(wl_analysis_settings *s);

typedef struct wl_analyses {
  const wl_tu *tu;
  wl_analysis_settings settings;
  wl_lanes *lanes; /* NULL until asked for */
  wl_smem *smem;   /* NULL until asked for */
} wl_analyses;

/* settings NULL: the defaults. The TU must outlive the manager. */
void wl_analyses_init(wl_analyses *an, const wl_tu *tu, const wl_analysis_settings *settings);
void wl_analyses_free(wl_analyses *an);

/* The TU's lane analysis (lanes.h), built on first use. */
wl_lanes *wl_an_lanes(wl_analyses *an);
/* The TU's shared-memory analysis (shared.h), built on first use. */
const wl_smem *wl_an_smem(wl_analyses *an);

#endif
