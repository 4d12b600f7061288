/* emit.h - the output formats of a run's findings (text, JSON, SARIF, and
 * the CI formats: GitHub annotations, GitLab Code Quality, JUnit XML)
 * and the few helpers the JSON-based emitters share. Emitters print only;
 * they never sort, filter or exit. */
#ifndef WARPLINT_EMIT_H
#define WARPLINT_EMIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "rulecat.h"

#define WARPLINT_INFO_URI "https://github.com/warplint/warplint"

/* An input the run could not analyze (unreadable file, fatal parse error). */
typedef struct wl_input_error {
  const char *path; /* may be NULL when no file is concerned */
  const char *message;
} wl_input_error;

typedef struct wl_emit_info {
  const char *tool_version; /* NULL: "unknown" */
  const char *cwd;          /* absolute working directory, for SARIF's %SRCROOT%; may be NULL */
  const wl_input_error *errors;
  size_t nerrors;
  size_t files_analyzed;
  bool color;            /* text only: ANSI colours in clang's scheme */
  bool execution_failed; /* the run exits 2 (input errors, failed writes): SARIF's
                            executionSuccessful is false */
  /* files analyzed only in part (unresolved includes, parse errors) */
  const wl_input_error *incomplete;
  size_t nincomplete;
  /* canonical project root: SARIF URIs (under %SRCROOT%) and fingerprints use
   * paths relative to it, however the inputs were spelled; NULL: cwd */
  const char *project_root;
  /* the rules that may have run (the registry's wl_rule_catalog): SARIF lists
   * them with their docs and gives each result its ruleIndex; NULL: none */
  const wl_rulecat *rules;
} wl_emit_info;

/* Each prints every finding of f (already sorted and de-duplicated) to out.
 * They return 0, or -1 when writing (or flushing) out failed. */
int wl_emit_text(FILE *out, const wl_findings *f, const wl_emit_info *info);
int wl_emit_json(FILE *out, const wl_findings *f, const wl_emit_info *info);
int wl_emit_sarif(FILE *out, const wl_findings *f, const wl_emit_info *info);
/* CI formats (emit_ci.c): GitHub Actions annotations, GitLab Code Quality
 * JSON, JUnit XML. */
int wl_emit_github(FILE *out, const wl_findings *f, const wl_emit_info *info);
int wl_emit_gitlab(FILE *out, const wl_findings *f, const wl_emit_info *info);
int wl_emit_junit(FILE *out, const wl_findings *f, const wl_emit_info *info);

/* The documentation URI of a rule or pseudo-rule: WARPLINT_RULE_DOCS_URI
 * (the rules/ folder of the repository, or where a build installs the docs)
 * followed by "<id>.md". Caller frees. */
char *wl_rule_help_uri(const char *id);

/* ---- shared by emit_json.c and emit_sarif.c (defined in emit_json.c) ----
 * json-c constructors that abort on allocation failure like wl_xmalloc, so
 * no caller has to check them. */
struct json_object;
struct json_object *wl_emit_jobject(void);
struct json_object *wl_emit_jarray(void);
/* A JSON string of s with invalid UTF-8 bytes replaced by U+FFFD (JSON and
 * SARIF must be UTF-8; sources and paths need not be). NULL gives JSON null. */
struct json_object *wl_emit_jstring(const char *s);
struct json_object *wl_emit_jint(long long v);
struct json_object *wl_emit_jbool(bool b);
/* Adds key: val to obj, taking over val. */
void wl_emit_jset(struct json_object *obj, const char *key, struct json_object *val);
/* Appends val to arr, taking over val. */
void wl_emit_jpush(struct json_object *arr, struct json_object *val);
/* Prints root pretty (2-space indent, no "\/" escapes, empty arrays as [])
 * and a newline, then flushes; 0 or -1 on write error. Does not release root. */
int wl_emit_jwrite(FILE *out, struct json_object *root);
/* Length of the valid UTF-8 sequence at s (n bytes available), storing its
 * code point in *cp; 0 when the bytes at s are not valid UTF-8. */
size_t wl_emit_utf8_seq(const char *s, size_t n, unsigned long *cp);

#endif
