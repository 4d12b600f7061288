/* analyze.h - one file through the pipeline: parse, lower, run the enabled
 * rules, collect findings. Thread-safe with one wl_parser per thread. */
#ifndef WARPLINT_ANALYZE_H
#define WARPLINT_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>

#include "analyses.h"
#include "buf.h"
#include "diag.h"
#include "parse.h"

typedef struct wl_analyze_opts {
  wl_parse_opts parse;
  const bool *enabled;         /* per rule (wl_rules order); NULL: all rules */
  const wl_severity *severity; /* per rule override; NULL: defaults */
  /* suppress.h: report suppression comments that silenced nothing */
  bool report_unused_suppressions;
  const wl_analysis_settings *analysis; /* NULL: the defaults */
  /* Findings located in the user headers the file includes: reported when
   * report_header(canonical path, ud) says so; never when it is NULL. */
  bool (*report_header)(const char *canon, void *ud);
  void *report_header_ud;
  /* A header's path in findings: base_shown + its path under base (the
   * directory analyzed, canonical, as the user spelled it) when it lies
   * there, else relative to cwd (canonical), else absolute. */
  const char *cwd;
  const char *base, *base_shown;
  /* Include inference: for an #include "name" or <name> of the user's code that
   * does not resolve, the include directory that makes it resolve
   * (malloc'ed) or NULL; the file is parsed again with the directories
   * found (angled: it was spelled <name>). NULL: no inference. */
  char *(*infer_include)(const char *name, bool angled, const char *includer, void *ud);
  void *infer_ud;
  /* The automatic fixes of the file's own findings are checked before they
   * are offered (--fix, --diff, --export-fixes): the fixed text is analyzed
   * again; what a second --fix would change inside the text a fix wrote
   * joins that fix, and a fix is withdrawn (with a note) when warplint would
   * still find its rule in the code it wrote or something to fix that the
   * fix caused, so that a second --fix never changes the file. */
  bool verify_fixes;
} wl_analyze_opts;

/* A header whose findings were reported: the path they carry, and a hash
 * (wl_content_hash) of the text analyzed, for --fix. */
typedef struct wl_header_seen {
  char *shown;
  uint64_t hash;
  size_t len;
} wl_header_seen;

/* What one file's analysis saw besides its findings (wl_analyze_file_ex). */
typedef struct wl_analyze_info {
  wl_vec included;    /* char*: canonical paths of the user headers it includes */
  size_t nunresolved; /* #include directives that did not resolve */
  size_t nerrors;     /* other parse errors in the user's code */
  wl_vec inferred;    /* char*: include name, directory, name, directory, ... */
  wl_vec headers;     /* wl_header_seen*: the headers reported on */
  /* with o->parse.deps: every file the parse read (wl_tu_dep*, malloc'ed
   * with their paths); empty when they could not all be listed */
  wl_vec deps;
  wl_vec missing; /* char*: the names of the #includes that did not resolve */
} wl_analyze_info;

void wl_analyze_info_free(wl_analyze_info *info);

/* Analyzes `path` (contents NULL: read from disk). Findings are appended to out. */
wl_parse_status wl_analyze_file(wl_parser *p, const char *path, const char *contents,
                                const wl_analyze_opts *o, wl_findings *out, wl_buf *err);
/* The same, filling *info (may be NULL; free with wl_analyze_info_free). The
 * findings located in each user header that o->report_header accepts are
 * reported too, as if that header were the file analyzed: the whole TU is the
 * context of its functions (callers, shared memory and lane ids passed in). */
wl_parse_status wl_analyze_file_ex(wl_parser *p, const char *path, const char *contents,
                                   const wl_analyze_opts *o, wl_findings *out,
                                   wl_analyze_info *info, wl_buf *err);
/* Runs the enabled rules on an already lowered TU, then applies the
 * suppression comments of its source (suppress.h). */
void wl_run_rules(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                  wl_findings *out);

#endif
