// config.h - the .warplint configuration file: its format, its parser and
// the glob matching of its exclude patterns. (Line comments here: the globs
// below would end a block comment.)
//
//   # comment (also after a value, following a blank); ; starts a comment line
//   exclude = build/**, third_party/**   # globs, relative to this file's directory
//   extensions = cu, cuh                 # searched in directories
//   clang-args = -DFOO -Iinclude         # split like a shell; -I relative to this file
//   cuda-arch = sm_80
//   whole-warps = true                   # blocks are whole warps (default true)
//   rows-are-warps = false               # a warp never spans threadIdx.y rows (default false)
//   infer-includes = false               # no include inference (default true)
//
//   [rules]
//   legacy-intrinsic = off | on | note | warning | error
//
// Lists may also be written as TOML arrays (["build/**", "third_party/**"])
// and values may be quoted. Unknown keys, sections, rules and values, and a
// key given twice, are errors naming the file and line.
#ifndef WARPLINT_CONFIG_H
#define WARPLINT_CONFIG_H

#include <stdbool.h>

#include "buf.h"
#include "diag.h"

#define WL_CONFIG_NAME ".warplint"

typedef enum wl_rule_setting {
  WL_RULE_UNSET = 0, /* not named: the default */
  WL_RULE_OFF,
  WL_RULE_ON /* with severity[i] */
} wl_rule_setting;

typedef struct wl_config {
  char *path;             /* the file */
  char *dir;              /* its directory, canonical: the base of exclude globs */
  wl_rule_setting *rules; /* per rule (wl_rules order) */
  wl_severity *severity;  /* per rule; the default unless set */
  wl_vec exclude;         /* char* globs */
  wl_vec extensions;      /* char* without the dot; empty: not set */
  wl_vec clang_args;      /* char* */
  unsigned arch;          /* 0: not set */
  int whole_warps;        /* lane analysis: -1 not set, 0 false, 1 true */
  int rows_are_warps;     /* lane analysis: -1 not set, 0 false, 1 true */
  int infer_includes;     /* include inference: -1 not set, 0 false, 1 true */
} wl_config;

/* Parses text (the contents of path; dir is the base for relative paths).
 * Returns false with "path:line: what is wrong" in err. c is always
 * initialized and must be freed. */
bool wl_config_parse(const char *path, const char *dir, const char *text, wl_config *c,
                     wl_buf *err);
/* Reads and parses a file. */
bool wl_config_load(const char *path, wl_config *c, wl_buf *err);
void wl_config_free(wl_config *c);

/* Whether a canonical path is excluded by the config's globs. */
bool wl_config_excludes(const wl_config *c, const char *canonical);

/* Glob match of a relative path: '*' and '?' and [...] within one
 * component, '**' across any number of components. A pattern without '/'
 * matches any single component (a directory name or the file name, at any
 * depth); a pattern with '/' is anchored at the base and also matches
 * everything below a matching directory. */
bool wl_glob_match(const char *pattern, const char *relpath);

#endif
