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
//   inherit = true                       # merge with the nearest .warplint above
//   extend = ../base.warplint            # or: merge with this file (inside the project)
//
//   [rules]
//   legacy-intrinsic = off | on | note | warning | error
//
//   [per-file-ignores]
//   "tests/*.cu" = missing-syncwarp, legacy-intrinsic   # glob = rule ids (or id globs)
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

/* A [per-file-ignores] entry: findings of these rules located in the files
 * the glob matches are not reported. */
typedef struct wl_file_ignore {
  char *glob;   /* relative to base */
  char *base;   /* canonical directory of the .warplint that wrote it */
  wl_vec rules; /* char*: rule ids, pseudo-rule ids, or globs of them */
} wl_file_ignore;

typedef struct wl_config {
  char *path;             /* the file */
  char *dir;              /* its directory, canonical: the base of its relative paths */
  wl_rule_setting *rules; /* per rule (wl_rules order) */
  wl_severity *severity;  /* per rule; the default unless set */
  bool *severity_set;     /* per rule: a severity was given (here or in a parent) */
  wl_vec exclude;         /* char* globs */
  wl_vec exclude_base;    /* char*: the canonical directory each glob is relative to */
  wl_vec file_ignores;    /* wl_file_ignore* */
  wl_vec extensions;      /* char* without the dot; empty: not set */
  wl_vec clang_args;      /* char* */
  unsigned arch;          /* 0: not set */
  int whole_warps;        /* lane analysis: -1 not set, 0 false, 1 true */
  int rows_are_warps;     /* lane analysis: -1 not set, 0 false, 1 true */
  int infer_includes;     /* include inference: -1 not set, 0 false, 1 true */
  bool inherit;           /* inherit = true: merged with the nearest .warplint above */
  char *extend;           /* extend = PATH, as written; NULL: none */
  unsigned extend_line;   /* where extend or inherit was set */
  wl_vec sources;         /* char*: canonical paths of the files merged in, this one first */
} wl_config;

/* Parses text (the contents of path; dir is the base for relative paths).
 * Returns false with "path:line: what is wrong" in err. c is always
 * initialized and must be freed. */
bool wl_config_parse(const char *path, const char *dir, const char *text, wl_config *c,
                     wl_buf *err);
/* Reads and parses one file (inherit and extend are not followed). */
bool wl_config_load(const char *path, wl_config *c, wl_buf *err);
/* Reads a file and merges it with its parents: with `inherit = true` the
 * nearest other .warplint at or above its directory, up to root; with
 * `extend = PATH` that file (relative to the config's directory), which must
 * lie below root (configs are untrusted). Parents may inherit or extend in
 * turn (at most WL_CONFIG_MAX_CHAIN files, no cycle). The child's settings
 * win; exclude globs, per-file ignores and clang-args add up (each glob
 * relative to the file that wrote it, the parent's clang-args first). root is
 * canonical. */
#define WL_CONFIG_MAX_CHAIN 16
bool wl_config_load_tree(const char *path, const char *root, wl_config *c, wl_buf *err);
/* Merges parent into c (c's settings win), as wl_config_load_tree does. */
void wl_config_merge_parent(wl_config *c, const wl_config *parent);
void wl_config_free(wl_config *c);

/* Whether a canonical path is excluded by the config's globs. */
bool wl_config_excludes(const wl_config *c, const char *canonical);
/* Whether findings of rule in the canonical path are ignored by a
 * [per-file-ignores] entry. */
bool wl_config_ignores(const wl_config *c, const char *canonical, const char *rule);

/* Glob match of a relative path: '*' and '?' and [...] within one
 * component, '**' across any number of components. A pattern without '/'
 * matches any single component (a directory name or the file name, at any
 * depth); a pattern with '/' is anchored at the base and also matches
 * everything below a matching directory. */
bool wl_glob_match(const char *pattern, const char *relpath);

#endif
