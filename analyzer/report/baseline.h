/* baseline.h - the findings a legacy tree already has, recorded in a JSON
 * file so that a run reports only new ones. A finding is recognized by its
 * fingerprint (wl_findings_fingerprints: rule, file, the flagged line's
 * whitespace-normalized text and its occurrence among identical lines), not
 * its line number, so unrelated edits do not invalidate the baseline. File
 * paths enter the fingerprint relative to the baseline file's directory, so
 * the baseline works from any working directory. */
#ifndef WARPLINT_BASELINE_H
#define WARPLINT_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "diag.h"

#define WL_BASELINE_VERSION 1

typedef struct wl_baseline {
  char *dir;       /* canonical directory of the baseline file */
  char (*fps)[17]; /* sorted fingerprints */
  size_t n;
} wl_baseline;

/* Reads a baseline written by wl_baseline_write; false with a reason in err. */
bool wl_baseline_load(const char *path, wl_baseline *b, wl_buf *err);
void wl_baseline_free(wl_baseline *b);

/* The canonical directory a baseline at path uses for relative paths. */
char *wl_baseline_dir(const char *path);

/* Fingerprints of f (sorted and de-duplicated) with each file path taken
 * relative to dir; out has f->n entries. */
void wl_baseline_fingerprints(const wl_findings *f, const char *dir, char (*out)[17]);

/* Removes from f the findings recorded in b; returns how many it removed. */
size_t wl_baseline_filter(const wl_baseline *b, wl_findings *f);

/* Writes f (sorted and de-duplicated) as a baseline to path with
 * wl_write_output (a temporary file in the same directory, then rename; a
 * symbolic link written through to a target in link_root, NULL: anywhere). */
bool wl_baseline_write(const char *path, const char *link_root, const wl_findings *f, wl_buf *err);

#endif
