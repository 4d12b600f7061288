/* outpath.h - the path a finding's file is written as in outputs that need a
 * plain path relative to the project (GitHub annotations, GitLab Code
 * Quality, unified diffs): lexical normalization, no file system access. */
#ifndef WARPLINT_OUTPATH_H
#define WARPLINT_OUTPATH_H

#include "buf.h"

/* Appends path to out normalized lexically: no "." components, no empty
 * components ("a//b"), "x/.." removed, and, when path is absolute and lies
 * at or below base (an absolute directory, may be NULL), relative to base.
 * "." stays "."; a path that climbs above its start keeps its leading "..";
 * an absolute path outside base stays absolute. */
void wl_outpath(const char *path, const char *base, wl_buf *out);

/* As wl_outpath, but an absolute path outside base is made relative to it
 * too, with ".." components (what a diff applied in base needs). */
void wl_outpath_relative(const char *path, const char *base, wl_buf *out);

#endif
