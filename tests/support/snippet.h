/* snippet.h - the one "parse this snippet" helper of the Check suites: a
 * CUDA source given as a string is parsed (or analyzed by every rule) in
 * memory as "t.cu" for sm_75 with the built-in prelude, and the test fails
 * on the spot when it does not parse. */
#ifndef WARPLINT_TEST_SNIPPET_H
#define WARPLINT_TEST_SNIPPET_H

#include <stdbool.h>

#include "analyze.h"
#include "diag.h"
#include "ir.h"

/* The lowered TU of src (free with wl_tu_free). With strict, a parse
 * diagnostic (an error clang recovered from) also fails the test. */
wl_tu *wl_snippet_parse(const char *src, bool strict);

/* Runs the rules on src (opts: NULL for every rule with the defaults; its
 * parse.arch 0 means sm_75) and sets f (initialized here) to the findings,
 * sorted and de-duplicated. */
void wl_snippet_analyze(const char *src, const wl_analyze_opts *opts, wl_findings *f);

#endif
