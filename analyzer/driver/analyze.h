/* analyze.h - one file through the pipeline: parse, lower, run the enabled
 * rules, collect findings. Thread-safe with one wl_parser per thread. */
#ifndef WARPLINT_ANALYZE_H
#define WARPLINT_ANALYZE_H

#include <stdbool.h>

#include "buf.h"
#include "diag.h"
#include "parse.h"

typedef struct wl_analyze_opts {
  wl_parse_opts parse;
  const bool *enabled;         /* per rule (wl_rules order); NULL: all rules */
  const wl_severity *severity; /* per rule override; NULL: defaults */
  /* suppress.h: report suppression comments that silenced nothing */
  bool report_unused_suppressions;
  int whole_warps;    /* lane analysis (lanes.h): 0 its default (true), 1 true, 2 false */
  int rows_are_warps; /* lane analysis: 0 its default (false), 1 true, 2 false */
} wl_analyze_opts;

/* Analyzes `path` (contents NULL: read from disk). Findings are appended to out. */
wl_parse_status wl_analyze_file(wl_parser *p, const char *path, const char *contents,
                                const wl_analyze_opts *o, wl_findings *out, wl_buf *err);
/* Runs the enabled rules on an already lowered TU, then applies the
 * suppression comments of its source (suppress.h). */
void wl_run_rules(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                  wl_findings *out);

#endif
