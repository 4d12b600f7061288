/* snippet.c - parsing and analyzing in-memory snippets for the Check suites
 * (snippet.h). */
#include "snippet.h"

#include <check.h>
#include <string.h>

#include "buf.h"
#include "parse.h"

#define SNIPPET_ARCH 75

wl_tu *wl_snippet_parse(const char *src, bool strict) {
  wl_parser *p = wl_parser_new();
  wl_parse_opts o;
  memset(&o, 0, sizeof o);
  o.arch = SNIPPET_ARCH;
  wl_tu *tu = NULL;
  wl_buf err;
  wl_buf_init(&err);
  wl_parse_status st = wl_parse(p, "t.cu", src, &o, &tu, &err);
  ck_assert_msg(st == WL_PARSE_OK, "parse failed: %s", wl_buf_str(&err));
  wl_buf_free(&err);
  wl_parser_free(p);
  for (unsigned i = 0; strict && i < tu->ndiags; i++)
    ck_abort_msg("t.cu:%u: %s", tu->diags[i].loc.line, tu->diags[i].message);
  return tu;
}

void wl_snippet_analyze(const char *src, const wl_analyze_opts *opts, wl_findings *f) {
  wl_parser *p = wl_parser_new();
  wl_analyze_opts o;
  if (opts)
    o = *opts;
  else
    memset(&o, 0, sizeof o);
  if (!o.parse.arch)
    o.parse.arch = SNIPPET_ARCH;
  wl_buf err;
  wl_buf_init(&err);
  wl_findings_init(f);
  wl_parse_status st = wl_analyze_file(p, "t.cu", src, &o, f, &err);
  ck_assert_msg(st == WL_PARSE_OK, "analysis failed: %s", wl_buf_str(&err));
  wl_findings_sort_dedup(f);
  wl_buf_free(&err);
  wl_parser_free(p);
}
