/* fix.h - automatic fixes: choosing the non-overlapping edits of fixable
 * findings, applying them to file contents, writing files atomically, and
 * showing them as a unified diff or as clang-tidy's YAML replacements. */
#ifndef WARPLINT_FIX_H
#define WARPLINT_FIX_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "diag.h"

/* The edits chosen for one file, sorted by offset, none overlapping. */
typedef struct wl_file_fix {
  char *file;
  wl_edit *edits; /* copies */
  size_t nedits;
  size_t nfindings; /* findings whose whole fix was taken */
} wl_file_fix;

typedef struct wl_fix_plan {
  wl_file_fix *files;
  size_t nfiles;
  bool *taken;    /* per finding of the list the plan was built from: its fix was taken */
  size_t skipped; /* fixable findings left out because their edits overlapped taken ones */
} wl_fix_plan;

/* Takes the edits of every fixable finding (in finding order), all or nothing
 * per finding, skipping a finding whose edits overlap edits already taken
 * (identical edits from two findings are taken once). */
void wl_fix_plan_build(wl_fix_plan *plan, const wl_findings *f);
void wl_fix_plan_free(wl_fix_plan *plan);

/* Applies sorted, non-overlapping edits to text; false when an edit is out of range. */
bool wl_fix_apply_text(const char *text, size_t len, const wl_edit *edits, size_t n, wl_buf *out);

/* Replaces the file's contents atomically: a temporary file in the same
 * directory, the original permissions (a new file: 0666 less the umask),
 * fsync, rename. On failure the original is untouched and err says why. */
bool wl_write_file_atomic(const char *path, const char *data, size_t len, wl_buf *err);

/* Unified diff (--- a/path +++ b/path, 3 lines of context) of applying the
 * sorted, non-overlapping edits to old; each hunk shows whole changed lines. */
bool wl_unified_diff(const char *path, const char *old, size_t oldlen, const wl_edit *edits,
                     size_t n, wl_buf *out);

/* clang-tidy's export-fixes YAML of every fixable finding (clang-apply-replacements reads it). */
bool wl_export_fixes_yaml(FILE *out, const wl_findings *f, const char *main_file_hint);

#endif
