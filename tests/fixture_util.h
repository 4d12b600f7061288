/* fixture_util.h - reading `// expect: <rule-id>` annotations and comparing
 * them with findings, both ways. Shared by the fixture suites. */
#ifndef WARPLINT_FIXTURE_UTIL_H
#define WARPLINT_FIXTURE_UTIL_H

#include <stdbool.h>

#include "buf.h"
#include "diag.h"

/* Analyzes `path` with every rule (or only `rule` when non-NULL) and returns
 * the findings, sorted and de-duplicated. Returns false (with err) when the
 * file cannot be parsed. Extra clang arguments may be NULL. */
bool wl_fixture_analyze(const char *path, const char *rule, wl_findings *out, wl_buf *err);

/* Annotations, in a comment of the line they are about (several may share a
 * line):
 *
 *   expect: <rule>                     one finding of <rule> on this line
 *   expect: <rule> xN                  N findings
 *   expect: <rule> col=C               ... starting at column C (1-based)
 *   expect: <rule> msg="TEXT"          ... whose message is exactly TEXT
 *                                      (\" and \\ escape " and \)
 *   expect@-1: <rule> ...              about the line above (@+N: N below),
 *                                      for a message too long for the line
 *   expect-missed: <rule> ...          a known false negative: the finding
 *                                      the rule should give and does not yet
 *
 * xN, col= and msg= combine, in that order, e.g.
 *   // expect: legacy-intrinsic col=8 msg="legacy warp vote '__any' has ..."
 *
 * Compares the findings of `rule` with the file's annotations of `rule`,
 * both ways: a finding matches an expectation on its line (one with a
 * column or message first) whose column and message fit. Appends one line
 * per mismatch to report and returns the number of mismatches: a finding no
 * expectation fits, an expectation no finding fits, and a known miss that is
 * found (the annotation must be promoted to expect:). Known misses still
 * missed are not mismatches; one line each is appended to missed (when not
 * NULL). Findings of other rules are ignored. */
int wl_fixture_compare(const char *path, const char *rule, const wl_findings *f, wl_buf *report,
                       wl_buf *missed);

/* Number of findings the file's expect: annotations of any rule expect (not
 * counting known misses; -1: unreadable). */
int wl_fixture_count_expectations(const char *path);

/* Lists regular files under dir (not recursive) whose names end in .cu or
 * .cuh, sorted; returns the count (the caller frees each name and the array). */
size_t wl_fixture_list(const char *dir, char ***names);

#endif
