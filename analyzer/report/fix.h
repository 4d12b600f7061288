/* fix.h - automatic fixes: choosing the non-overlapping edits of fixable
 * findings, applying them to file contents, writing files atomically, and
 * showing them as a unified diff or as clang-tidy's YAML replacements. */
#ifndef WARPLINT_FIX_H
#define WARPLINT_FIX_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "buf.h"
#include "diag.h"

/* The edits chosen for one file, sorted by offset, none overlapping. */
typedef struct wl_file_fix {
  char *file;
  wl_edit *edits; /* copies */
  size_t nedits;
  size_t *owner;    /* per edit: the finding (index in the list) that wanted it first */
  size_t nfindings; /* findings whose whole fix was taken */
} wl_file_fix;

typedef struct wl_fix_plan {
  wl_file_fix *files;
  size_t nfiles;
  bool *taken;    /* per finding of the list the plan was built from: its fix was taken */
  size_t skipped; /* fixable findings left out because their edits overlapped taken ones */
  size_t covered; /* edits left out: inside a replacement of another fix */
} wl_fix_plan;

/* The one choice of edits that --fix, --diff and --export-fixes share. All
 * or nothing per finding: first the findings with a replacement that
 * contains another finding's edit (a deleted overload and the calls inside
 * it), then the others, each in finding order. A finding is taken when its
 * edits overlap no edit taken (identical edits and insertions at one point
 * are taken once each, side by side); it is covered (taken, nothing to add)
 * when every edit lies inside a replacement taken; otherwise it is skipped
 * (left for the next run). */
void wl_fix_plan_build(wl_fix_plan *plan, const wl_findings *f);
void wl_fix_plan_free(wl_fix_plan *plan);

/* Applies sorted, non-overlapping edits to text; false when an edit is out of range. */
bool wl_fix_apply_text(const char *text, size_t len, const wl_edit *edits, size_t n, wl_buf *out);

/* The --fix write path (fixwrite.c). */
typedef struct wl_fix_target {
  const char *path;         /* as named by the edits */
  bool have_hash;           /* false: the analyzed contents are unknown, never rewritten */
  uint64_t hash;            /* wl_content_hash of the contents that were analyzed */
  size_t len;               /* and their length */
  const char *const *roots; /* canonical directories the file may lie in */
  size_t nroots;            /* 0: anywhere (--fix-outside-project) */
} wl_fix_target;

/* Hash of the bytes analyzed, compared before a file is rewritten. */
uint64_t wl_content_hash(const char *data, size_t len);

/* Reads a regular file without blocking on FIFOs or devices; NULL with
 * "path: why" in err otherwise. */
char *wl_fix_read(const char *path, size_t *len, wl_buf *err);

/* Applies the sorted, non-overlapping edits to t->path and replaces it
 * atomically, or refuses with "path: why" in err and leaves it untouched:
 * - a symbolic link is written through to its target (never replaced) when
 *   the target lies inside one of t->roots; a file outside them is refused;
 * - FIFOs, devices and other non-regular files, read-only files and files
 *   with more than one hard link (a rename would break the links) are refused;
 * - an exclusive flock(2) on the file is held from the re-read to the rename
 *   (a run that waited re-opens the file when another one replaced it), and
 *   the file must still hold the analyzed contents (t->hash, t->len);
 * - the new file gets the owner and mode of the old one; when the owner
 *   cannot be kept, nothing is written. */
bool wl_fix_write(const wl_fix_target *t, const wl_edit *edits, size_t n, wl_buf *err);

/* Writes an output file (-o, --export-fixes, --write-baseline) as --fix
 * writes: a temporary file beside it, fsync, rename; or refuses with
 * "path: why" in err and leaves it untouched. A new file gets mode 0666 less
 * the umask; an existing one keeps its owner and mode, and must be a
 * writable regular file with one hard link; a symbolic link is written
 * through to its target when that lies in root (canonical; NULL: anywhere),
 * else refused. who names the option in messages. */
bool wl_write_output(const char *path, const char *who, const char *root, const char *data,
                     size_t len, wl_buf *err);

/* Unified diff (--- a/path +++ b/path, 3 lines of context) of applying the
 * sorted, non-overlapping edits to old; each hunk shows whole changed lines. */
bool wl_unified_diff(const char *path, const char *old, size_t oldlen, const wl_edit *edits,
                     size_t n, wl_buf *out);

/* clang-tidy's export-fixes YAML of every fixable finding (clang-apply-replacements reads it). */
bool wl_export_fixes_yaml(FILE *out, const wl_findings *f, const char *main_file_hint);
/* The same, so that clang-apply-replacements applies it: the edits of
 * wl_fix_plan_build (what --fix applies: no two overlap), insertions at one
 * offset merged into one, paths absolute. What was left out is described in
 * notes (lines). */
bool wl_export_fixes_yaml_notes(FILE *out, const wl_findings *f, const char *main_file_hint,
                                wl_buf *notes);
/* The same from a plan built from f. */
bool wl_export_fixes_plan(FILE *out, const wl_findings *f, const wl_fix_plan *plan,
                          const char *main_file_hint, wl_buf *notes);

#endif
