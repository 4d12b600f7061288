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

/* Compares the findings of `rule` with the file's `expect: <rule>` annotations
 * (an annotation `expect: <rule> xN` expects N findings on its line).
 * Appends one line per mismatch to report; returns the number of mismatches.
 * Findings of other rules are ignored. */
int wl_fixture_compare(const char *path, const char *rule, const wl_findings *f, wl_buf *report);

/* Number of `expect:` annotations of any rule in the file (-1: unreadable). */
int wl_fixture_count_expectations(const char *path);

/* Lists regular files under dir (not recursive) whose names end in .cu or
 * .cuh, sorted; returns the count (the caller frees each name and the array). */
size_t wl_fixture_list(const char *dir, char ***names);

#endif
