/* test_emit.c - the text, JSON and SARIF emitters: golden files for the whole
 * output (tests/golden/emit.{txt,json,sarif}; regenerate them with
 * WARPLINT_UPDATE_GOLDEN=1) and parsed-back checks of the fields consumers
 * rely on.
 *
 * The SARIF golden leaves out what depends on the rule registry (the rules
 * array of the driver and each result's ruleIndex), so that adding a rule
 * does not break it; test_sarif_rules checks those against wl_rules[]. */
#include <check.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "diag.h"
#include "emit.h"
#include "rules.h"

#define GOLDEN_DIR WL_SOURCE_DIR "/tests/golden/"
#define RULE "legacy-intrinsic"
#define TAB_LINE "\tint v = __shfl_down(x, 1);"
/* é is 2 bytes, ✓ 3, 𝄞 4 (a surrogate pair in UTF-16) */
#define UTF8_LINE "  s = \"h\xC3\xA9llo \xE2\x9C\x93 \xF0\x9D\x84\x9E\"; r = __any(p);"
#define BALLOT_LINE "  r = __ballot(p);"
#define ABS_PATH "/abs/d\xC3\xAFr/k.cu"
#define SUGGESTION                                                                                 \
  "r = __any_sync(__activemask(), p);\n// or, when the whole warp is known to be here:\n"          \
  "r = __any_sync(0xffffffff, p);"

typedef int (*emit_fn)(FILE *, const wl_findings *, const wl_emit_info *);

static const wl_input_error input_errors[] = {
    {"src/missing.cu", "cannot open: No such file or directory"},
    {NULL, "compile_commands.json: entry 3 has no \"file\""},
};

static wl_emit_info test_info(bool color) {
  wl_emit_info info = {.tool_version = "0.0.0-test",
                       .cwd = "/work/my project",
                       .errors = input_errors,
                       .nerrors = 2,
                       .files_analyzed = 3,
                       .color = color,
                       .rules = &wl_rule_catalog};
  return info;
}

/* The findings every test prints; shift moves each one `shift` lines (and
 * 20 bytes a line) down its file, as an edit above it would. */
static void build(wl_findings *f, unsigned shift) {
  unsigned bytes = shift * 20;
  wl_findings_init(f);
  wl_finding *fd;

  fd = wl_findings_add(f, RULE, WL_SEV_WARNING, "src/a b.cu", 3 + shift, 10, 3 + shift, 21,
                       "'__shfl_down' is removed for sm_70+; use '__shfl_down_sync'");
  wl_finding_set_line_text(fd, TAB_LINE, strlen(TAB_LINE));
  fd->offset = 41 + 9 + bytes;
  wl_finding_add_note(fd, "src/a b.cu", 1 + shift, 17, "in kernel 'reduce' declared here");
  wl_finding_add_edit(fd, "src/a b.cu", fd->offset, 12, "__shfl_down_sync(0xffffffff, ");

  fd =
      wl_findings_add(f, RULE, WL_SEV_ERROR, "src/a b.cu", 7 + shift, 30, 7 + shift, 35,
                      "'__any' is removed for sm_70+ and the lanes reaching it depend on the lane");
  wl_finding_set_line_text(fd, UTF8_LINE, strlen(UTF8_LINE));
  fd->offset = 120 + 29 + bytes;
  wl_finding_add_note(fd, "include/warp.h", 2, 5, "called from a branch on (threadIdx.x % 2)");
  wl_finding_add_note(fd, "src/a b.cu", 5 + shift, 3, "a Latin-1 byte: caf\xE9");
  fd->suggestion = wl_xstrdup(SUGGESTION);

  fd = wl_findings_add(f, RULE, WL_SEV_WARNING, "src/b.cu", 9 + shift, 7, 9 + shift, 15,
                       "'__ballot' is removed for sm_70+; use '__ballot_sync'");
  wl_finding_set_line_text(fd, BALLOT_LINE, strlen(BALLOT_LINE));
  fd = wl_findings_add(f, RULE, WL_SEV_WARNING, "src/b.cu", 4 + shift, 7, 4 + shift, 15,
                       "'__ballot' is removed for sm_70+; use '__ballot_sync'");
  wl_finding_set_line_text(fd, BALLOT_LINE, strlen(BALLOT_LINE));

  fd = wl_findings_add(f, RULE, WL_SEV_NOTE, ABS_PATH, 12 + shift, 5, 14 + shift, 2,
                       "this region is reached by half a warp");
  wl_finding_set_line_text(fd, "    if (lane < 16) {", 20);
  fd->offset = 300 + 4 + bytes;
  wl_finding_add_edit(fd, ABS_PATH, 0, 0, "#include <cooperative_groups.h>\n");
  wl_finding_add_edit(fd, "include/warp.h", 5, 3, "int");
  wl_finding_add_edit(fd, ABS_PATH, fd->offset, 2, "if");

  wl_findings_sort_dedup(f);
}

static char *emit_string(emit_fn fn, const wl_findings *f, const wl_emit_info *info) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(fn(m, f, info), 0);
  ck_assert_int_eq(fclose(m), 0);
  ck_assert_ptr_nonnull(buf);
  return buf;
}

static char *emit_fixture(emit_fn fn, bool color) {
  wl_findings f;
  build(&f, 0);
  wl_emit_info info = test_info(color);
  char *s = emit_string(fn, &f, &info);
  wl_findings_free(&f);
  return s;
}

static struct json_object *parse(const char *s) {
  struct json_object *o = json_tokener_parse(s);
  ck_assert_msg(o != NULL, "output is not JSON:\n%s", s);
  return o;
}

static struct json_object *get(struct json_object *o, const char *key) {
  struct json_object *v = NULL;
  ck_assert_msg(o && json_object_object_get_ex(o, key, &v), "no key '%s'", key);
  return v;
}

static bool has(struct json_object *o, const char *key) {
  return json_object_object_get_ex(o, key, NULL);
}

static struct json_object *at(struct json_object *arr, size_t i) {
  ck_assert_msg(json_object_is_type(arr, json_type_array) && i < json_object_array_length(arr),
                "no element %zu", i);
  return json_object_array_get_idx(arr, i);
}

static const char *str(struct json_object *o, const char *key) {
  struct json_object *v = get(o, key);
  ck_assert_msg(json_object_is_type(v, json_type_string), "'%s' is not a string", key);
  return json_object_get_string(v);
}

static long long num(struct json_object *o, const char *key) {
  struct json_object *v = get(o, key);
  ck_assert_msg(json_object_is_type(v, json_type_int), "'%s' is not an integer", key);
  return (long long)json_object_get_int64(v);
}

/* Compares got with tests/golden/<name>, or rewrites the golden file when
 * WARPLINT_UPDATE_GOLDEN=1. */
static void check_golden(const char *name, const char *got) {
  char path[1024];
  snprintf(path, sizeof path, "%s%s", GOLDEN_DIR, name);
  const char *update = getenv("WARPLINT_UPDATE_GOLDEN");
  if (update && strcmp(update, "1") == 0) {
    FILE *fp = fopen(path, "wb");
    ck_assert_msg(fp != NULL, "cannot write %s", path);
    fputs(got, fp);
    ck_assert_int_eq(fclose(fp), 0);
    return;
  }
  size_t len = 0;
  char *want = wl_read_file(path, &len);
  ck_assert_msg(want != NULL, "cannot read %s (create it with WARPLINT_UPDATE_GOLDEN=1)", path);
  if (strcmp(want, got) != 0) {
    /* name the first line that differs */
    const char *a = want, *b = got;
    unsigned line = 1;
    while (*a && *a == *b) {
      if (*a == '\n')
        line++;
      a++, b++;
    }
    while (a > want && a[-1] != '\n')
      a--, b--;
    char wl[200], gl[200];
    snprintf(wl, sizeof wl, "%.*s", (int)strcspn(a, "\n"), a);
    snprintf(gl, sizeof gl, "%.*s", (int)strcspn(b, "\n"), b);
    free(want);
    ck_abort_msg("%s differs at line %u:\n  expected: %s\n  got:      %s\n"
                 "(WARPLINT_UPDATE_GOLDEN=1 rewrites it if the change is intended)",
                 name, line, wl, gl);
  }
  free(want);
}

/* ---- goldens ---------------------------------------------------------------- */

START_TEST(test_text_golden) {
  char *s = emit_fixture(wl_emit_text, false);
  check_golden("emit.txt", s);
  free(s);
}
END_TEST

START_TEST(test_json_golden) {
  char *s = emit_fixture(wl_emit_json, false);
  check_golden("emit.json", s);
  free(s);
}
END_TEST

static char *jwrite_string(struct json_object *root) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  ck_assert_ptr_nonnull(m);
  ck_assert_int_eq(wl_emit_jwrite(m, root), 0);
  ck_assert_int_eq(fclose(m), 0);
  return buf;
}

START_TEST(test_sarif_golden) {
  char *s = emit_fixture(wl_emit_sarif, false);
  struct json_object *root = parse(s);
  /* parsing and printing again gives the output back, so the golden below
   * shows the output exactly but for the two replaced fields */
  char *again = jwrite_string(root);
  ck_assert_str_eq(again, s);
  free(again);
  struct json_object *run = at(get(root, "runs"), 0);
  struct json_object *driver = get(get(run, "tool"), "driver");
  json_object_object_add(driver, "rules",
                         json_object_new_string("(checked against wl_rules[] by test_emit.c)"));
  struct json_object *results = get(run, "results");
  for (size_t i = 0; i < json_object_array_length(results); i++) {
    struct json_object *r = at(results, i);
    ck_assert(has(r, "ruleIndex"));
    json_object_object_add(r, "ruleIndex", json_object_new_string("(checked)"));
  }
  char *norm = jwrite_string(root);
  json_object_put(root);
  check_golden("emit.sarif", norm);
  free(norm);
  free(s);
}
END_TEST

/* ---- text ------------------------------------------------------------------- */

/* The line after the first line that contains `needle`. */
static char *line_after(const char *s, const char *needle) {
  const char *p = strstr(s, needle);
  ck_assert_msg(p != NULL, "'%s' not in output", needle);
  p = strchr(p, '\n');
  ck_assert_ptr_nonnull(p);
  p++;
  size_t n = strcspn(p, "\n");
  char *l = wl_xmalloc(n + 1);
  memcpy(l, p, n);
  l[n] = '\0';
  return l;
}

START_TEST(test_text_shape) {
  char *s = emit_fixture(wl_emit_text, false);
  ck_assert(strstr(s, "src/a b.cu:3:10: warning: '__shfl_down' is removed for sm_70+; use "
                      "'__shfl_down_sync' [legacy-intrinsic]\n" TAB_LINE "\n") != NULL);
  /* the tab is kept before the caret; 11 flagged bytes */
  char *caret = line_after(s, TAB_LINE);
  ck_assert_str_eq(caret, "\t        ^"
                          "~~~~~~~~~~"); /* ^ and 10 ~ */
  free(caret);
  /* non-ASCII: one column per code point */
  caret = line_after(s, UTF8_LINE);
  ck_assert_str_eq(caret, "                       ^~~~~");
  free(caret);
  /* a range over several lines: the caret alone */
  caret = line_after(s, "    if (lane < 16) {");
  ck_assert_str_eq(caret, "    ^");
  free(caret);
  ck_assert(strstr(s, ABS_PATH ":12:5: note: this region is reached by half a warp "
                               "[legacy-intrinsic]\n") != NULL);
  ck_assert(strstr(s, "src/a b.cu:7:30: error: ") != NULL);
  ck_assert(strstr(s, "\nsrc/a b.cu:1:17: note: in kernel 'reduce' declared here\n") != NULL);
  ck_assert(strstr(s, "\nnote: suggested replacement:\n"
                      "    r = __any_sync(__activemask(), p);\n"
                      "    // or, when the whole warp is known to be here:\n"
                      "    r = __any_sync(0xffffffff, p);\n") != NULL);
  ck_assert(strchr(s, '\033') == NULL);
  /* nothing but findings: the input errors and summary go elsewhere */
  ck_assert(strstr(s, "missing.cu") == NULL);
  free(s);
}
END_TEST

START_TEST(test_text_color) {
  char *s = emit_fixture(wl_emit_text, true);
  ck_assert(strstr(s, "\033[1msrc/a b.cu:3:10: \033[0m\033[0;1;35mwarning: \033[0m\033[1m") !=
            NULL);
  ck_assert(strstr(s, "\033[0;1;31merror: ") != NULL);
  ck_assert(strstr(s, "\033[0;1;36mnote: ") != NULL);
  ck_assert(strstr(s, "\033[0;1;32m^"
                      "~~~~~~~~~~"
                      "\033[0m") != NULL);
  /* the source line itself is never coloured */
  ck_assert(strstr(s, "\n" TAB_LINE "\n") != NULL);
  free(s);
}
END_TEST

START_TEST(test_empty) {
  wl_findings f;
  wl_findings_init(&f);
  wl_emit_info info = {0};
  char *s = emit_string(wl_emit_text, &f, &info);
  ck_assert_str_eq(s, "");
  free(s);

  s = emit_string(wl_emit_json, &f, &info);
  struct json_object *root = parse(s);
  ck_assert_int_eq(json_object_array_length(get(root, "findings")), 0);
  ck_assert_int_eq(json_object_array_length(get(root, "errors")), 0);
  ck_assert_str_eq(str(get(root, "tool"), "version"), "unknown");
  ck_assert_int_eq(num(get(root, "summary"), "findings"), 0);
  json_object_put(root);
  free(s);

  s = emit_string(wl_emit_sarif, &f, &info);
  root = parse(s);
  struct json_object *run = at(get(root, "runs"), 0);
  ck_assert_int_eq(json_object_array_length(get(run, "results")), 0);
  ck_assert(!has(run, "originalUriBaseIds")); /* no cwd given */
  json_object_put(root);
  free(s);
}
END_TEST

/* ---- JSON ------------------------------------------------------------------- */

START_TEST(test_json_fields) {
  wl_findings f;
  build(&f, 0);
  char(*fps)[17] = wl_xcalloc(f.n, sizeof *fps);
  wl_findings_fingerprints(&f, fps);
  wl_emit_info info = test_info(false);
  char *s = emit_string(wl_emit_json, &f, &info);
  ck_assert(s[strlen(s) - 1] == '\n');
  ck_assert(strstr(s, "\n  \"version\": 1,\n") != NULL); /* 2-space pretty printing */
  struct json_object *root = parse(s);
  ck_assert_int_eq(num(root, "version"), 1);
  ck_assert_str_eq(str(get(root, "tool"), "name"), "warplint");
  ck_assert_str_eq(str(get(root, "tool"), "version"), "0.0.0-test");

  struct json_object *fs = get(root, "findings");
  ck_assert_int_eq(json_object_array_length(fs), 5);
  for (size_t i = 0; i < f.n; i++) {
    struct json_object *o = at(fs, i);
    ck_assert_str_eq(str(o, "rule"), RULE);
    ck_assert_str_eq(str(o, "file"), f.v[i].file);
    ck_assert_int_eq(num(o, "line"), f.v[i].line);
    ck_assert_int_eq(num(o, "column"), f.v[i].col);
    ck_assert_str_eq(str(o, "fingerprint"), fps[i]);
    ck_assert_int_eq(strlen(fps[i]), 16);
  }
  /* sorted: the absolute path first, then src/a b.cu */
  struct json_object *e = at(fs, 0);
  ck_assert_str_eq(str(e, "file"), ABS_PATH);
  ck_assert_str_eq(str(e, "severity"), "note");
  ck_assert_int_eq(num(e, "end_line"), 14);
  ck_assert_int_eq(num(e, "end_column"), 2);
  struct json_object *edits = get(get(e, "fix"), "edits");
  ck_assert_int_eq(json_object_array_length(edits), 3);
  ck_assert_str_eq(str(at(edits, 0), "replacement"), "#include <cooperative_groups.h>\n");
  ck_assert_int_eq(num(at(edits, 2), "offset"), 304);
  ck_assert_int_eq(num(at(edits, 2), "length"), 2);
  ck_assert(json_object_is_type(get(e, "suggestion"), json_type_null));
  ck_assert_int_eq(json_object_array_length(get(e, "notes")), 0);

  struct json_object *a = at(fs, 1);
  ck_assert_str_eq(str(a, "severity"), "warning");
  ck_assert_int_eq(num(a, "column"), 10);
  ck_assert_int_eq(num(a, "end_column"), 21);
  ck_assert_str_eq(str(at(get(a, "notes"), 0), "message"), "in kernel 'reduce' declared here");
  ck_assert_int_eq(num(at(get(a, "notes"), 0), "column"), 17);

  struct json_object *b = at(fs, 2);
  ck_assert_str_eq(str(b, "severity"), "error");
  ck_assert_str_eq(str(b, "suggestion"), SUGGESTION);
  ck_assert(json_object_is_type(get(b, "fix"), json_type_null));
  /* notes sorted by file: include/warp.h first; invalid UTF-8 becomes U+FFFD */
  ck_assert_str_eq(str(at(get(b, "notes"), 0), "file"), "include/warp.h");
  ck_assert_str_eq(str(at(get(b, "notes"), 1), "message"), "a Latin-1 byte: caf\xEF\xBF\xBD");

  /* the same line text twice in one file: distinct fingerprints */
  ck_assert_str_ne(str(at(fs, 3), "fingerprint"), str(at(fs, 4), "fingerprint"));

  struct json_object *errs = get(root, "errors");
  ck_assert_int_eq(json_object_array_length(errs), 2);
  ck_assert_str_eq(str(at(errs, 0), "file"), "src/missing.cu");
  ck_assert(json_object_is_type(get(at(errs, 1), "file"), json_type_null));
  ck_assert_str_eq(str(at(errs, 1), "message"), input_errors[1].message);

  struct json_object *sum = get(root, "summary");
  ck_assert_int_eq(num(sum, "findings"), 5);
  ck_assert_int_eq(num(sum, "files_analyzed"), 3);
  ck_assert_int_eq(num(sum, "errors"), 2);
  json_object_put(root);
  free(s);
  free(fps);
  wl_findings_free(&f);
}
END_TEST

/* ---- SARIF ------------------------------------------------------------------ */

static struct json_object *result_at(struct json_object *root, size_t i) {
  return at(get(at(get(root, "runs"), 0), "results"), i);
}

static struct json_object *region_of(struct json_object *res) {
  return get(get(at(get(res, "locations"), 0), "physicalLocation"), "region");
}

static struct json_object *artifact_of(struct json_object *loc) {
  return get(get(loc, "physicalLocation"), "artifactLocation");
}

START_TEST(test_sarif_fields) {
  char *s = emit_fixture(wl_emit_sarif, false);
  ck_assert(s[strlen(s) - 1] == '\n');
  struct json_object *root = parse(s);
  ck_assert_str_eq(str(root, "$schema"), "https://json.schemastore.org/sarif-2.1.0.json");
  ck_assert_str_eq(str(root, "version"), "2.1.0");
  struct json_object *run = at(get(root, "runs"), 0);
  struct json_object *driver = get(get(run, "tool"), "driver");
  ck_assert_str_eq(str(driver, "name"), "warplint");
  ck_assert_str_eq(str(driver, "version"), "0.0.0-test");
  ck_assert_str_eq(str(driver, "informationUri"), WARPLINT_INFO_URI);
  ck_assert_str_eq(str(run, "columnKind"), "utf16CodeUnits");
  ck_assert_str_eq(str(get(get(run, "originalUriBaseIds"), "%SRCROOT%"), "uri"),
                   "file:///work/my%20project/");
  ck_assert_int_eq(json_object_array_length(get(run, "results")), 5);

  /* absolute path: a file:// URI of its own, percent-encoded */
  struct json_object *e = result_at(root, 0);
  struct json_object *art = artifact_of(at(get(e, "locations"), 0));
  ck_assert_str_eq(str(art, "uri"), "file:///abs/d%C3%AFr/k.cu");
  ck_assert(!has(art, "uriBaseId"));
  ck_assert_str_eq(str(e, "level"), "note");
  struct json_object *reg = region_of(e);
  ck_assert_int_eq(num(reg, "startLine"), 12);
  ck_assert_int_eq(num(reg, "startColumn"), 5);
  ck_assert_int_eq(num(reg, "endLine"), 14);
  ck_assert_int_eq(num(reg, "endColumn"), 2);
  /* the fix: one change per file, byte regions; the edit on the finding's line also in columns */
  struct json_object *changes = get(at(get(e, "fixes"), 0), "artifactChanges");
  ck_assert_int_eq(json_object_array_length(changes), 2);
  ck_assert_str_eq(str(get(at(changes, 0), "artifactLocation"), "uri"),
                   "file:///abs/d%C3%AFr/k.cu");
  ck_assert_str_eq(str(get(at(changes, 1), "artifactLocation"), "uri"), "include/warp.h");
  struct json_object *repl = get(at(changes, 0), "replacements");
  ck_assert_int_eq(json_object_array_length(repl), 2);
  struct json_object *del = get(at(repl, 1), "deletedRegion");
  ck_assert_int_eq(num(del, "byteOffset"), 304);
  ck_assert_int_eq(num(del, "byteLength"), 2);
  ck_assert_int_eq(num(del, "startLine"), 12);
  ck_assert_int_eq(num(del, "startColumn"), 5);
  ck_assert_int_eq(num(del, "endColumn"), 7);
  ck_assert_str_eq(str(get(at(repl, 1), "insertedContent"), "text"), "if");
  ck_assert(!has(get(at(repl, 0), "deletedRegion"), "startLine")); /* not on the finding's line */

  /* relative path with a space: %SRCROOT%-relative, encoded */
  struct json_object *a = result_at(root, 1);
  ck_assert_str_eq(str(a, "ruleId"), RULE);
  ck_assert_int_eq(num(a, "ruleIndex"), (long long)wl_rule_index(wl_rule_find(RULE)));
  ck_assert_str_eq(str(a, "level"), "warning");
  art = artifact_of(at(get(a, "locations"), 0));
  ck_assert_str_eq(str(art, "uri"), "src/a%20b.cu");
  ck_assert_str_eq(str(art, "uriBaseId"), "%SRCROOT%");
  reg = region_of(a);
  ck_assert_int_eq(num(reg, "startLine"), 3);
  ck_assert_int_eq(num(reg, "startColumn"), 10); /* a tab is one unit */
  ck_assert_int_eq(num(reg, "endLine"), 3);
  ck_assert_int_eq(num(reg, "endColumn"), 21);
  struct json_object *fp = get(a, "partialFingerprints");
  ck_assert_int_eq(strlen(str(fp, "warplintLineHash/v1")), 16);
  struct json_object *rel = at(get(a, "relatedLocations"), 0);
  ck_assert_str_eq(str(get(rel, "message"), "text"), "in kernel 'reduce' declared here");
  ck_assert_int_eq(num(get(get(rel, "physicalLocation"), "region"), "startLine"), 1);
  ck_assert(!has(a, "properties"));

  /* byte columns become UTF-16 code units: 29 bytes before "__any" are 24 units */
  struct json_object *b = result_at(root, 2);
  ck_assert_str_eq(str(b, "level"), "error");
  reg = region_of(b);
  ck_assert_int_eq(num(reg, "startColumn"), 25);
  ck_assert_int_eq(num(reg, "endColumn"), 30);
  ck_assert_int_eq(json_object_array_length(get(b, "relatedLocations")), 2);
  ck_assert_str_eq(str(get(b, "properties"), "suggestion"), SUGGESTION);
  ck_assert(!has(b, "fixes"));

  /* input errors are notifications of the invocation */
  struct json_object *inv = at(get(run, "invocations"), 0);
  ck_assert(json_object_get_boolean(get(inv, "executionSuccessful")));
  struct json_object *notes = get(inv, "toolExecutionNotifications");
  ck_assert_int_eq(json_object_array_length(notes), 2);
  ck_assert_str_eq(str(at(notes, 0), "level"), "error");
  ck_assert_str_eq(str(get(at(notes, 0), "message"), "text"), input_errors[0].message);
  ck_assert_str_eq(str(artifact_of(at(get(at(notes, 0), "locations"), 0)), "uri"),
                   "src/missing.cu");
  ck_assert(!has(at(notes, 1), "locations"));
  json_object_put(root);
  free(s);
}
END_TEST

START_TEST(test_sarif_rules) {
  char *s = emit_fixture(wl_emit_sarif, false);
  struct json_object *root = parse(s);
  struct json_object *rules = get(get(get(at(get(root, "runs"), 0), "tool"), "driver"), "rules");
  /* the registered rules, then the two suppression pseudo-rules */
  ck_assert_int_eq(json_object_array_length(rules), wl_nrules + 2);
  ck_assert_str_eq(str(at(rules, wl_nrules), "id"), "invalid-suppression");
  ck_assert_str_eq(str(at(rules, wl_nrules + 1), "id"), "unused-suppression");
  for (size_t i = 0; i < wl_nrules; i++) {
    const wl_rule *r = &wl_rules[i];
    struct json_object *o = at(rules, i);
    ck_assert_str_eq(str(o, "id"), r->id);
    const char *name = str(o, "name");
    ck_assert(name[0] >= 'A' && name[0] <= 'Z');
    ck_assert(strchr(name, '-') == NULL);
    ck_assert_str_eq(str(get(o, "shortDescription"), "text"), r->summary);
    ck_assert_str_eq(str(get(o, "defaultConfiguration"), "level"), wl_severity_name(r->severity));
    const char *md = wl_rule_doc_text(r->id);
    const char *full = str(get(o, "fullDescription"), "text");
    struct json_object *help = get(o, "help");
    if (md) {
      ck_assert_str_eq(str(help, "text"), md);
      ck_assert_str_eq(str(help, "markdown"), md);
      /* one paragraph of the doc: no headings, no line breaks */
      ck_assert(full[0] != '\0');
      ck_assert(strchr(full, '\n') == NULL);
      ck_assert(strstr(full, "##") == NULL);
      char head[24];
      snprintf(head, sizeof head, "%s", full);
      char *sp = strchr(head, ' ');
      if (sp)
        *sp = '\0'; /* the first word appears in the doc */
      ck_assert(strstr(md, head) != NULL);
    } else {
      ck_assert_str_eq(full, r->summary);
      ck_assert_str_eq(str(help, "text"), r->summary);
    }
  }
  ck_assert_str_eq(str(at(rules, wl_rule_index(wl_rule_find(RULE))), "name"), "LegacyIntrinsic");
  json_object_put(root);
  free(s);
}
END_TEST

static void fingerprints_of(struct json_object *root, size_t i, const char **out) {
  *out = str(get(result_at(root, i), "partialFingerprints"), "warplintLineHash/v1");
}

START_TEST(test_fingerprint_stable) {
  wl_findings f0, f10;
  build(&f0, 0);
  build(&f10, 10);
  wl_emit_info info = test_info(false);
  char *s0 = emit_string(wl_emit_sarif, &f0, &info);
  char *s10 = emit_string(wl_emit_sarif, &f10, &info);
  char *j0 = emit_string(wl_emit_json, &f0, &info);
  struct json_object *r0 = parse(s0), *r10 = parse(s10), *jr = parse(j0);
  for (size_t i = 0; i < f0.n; i++) {
    const char *a, *b;
    fingerprints_of(r0, i, &a);
    fingerprints_of(r10, i, &b);
    ck_assert_int_eq(num(region_of(result_at(r10, i)), "startLine"),
                     num(region_of(result_at(r0, i)), "startLine") + 10);
    ck_assert_str_eq(a, b);
    ck_assert_str_eq(a, str(at(get(jr, "findings"), i), "fingerprint"));
    for (size_t k = 0; k < i; k++) {
      const char *c;
      fingerprints_of(r0, k, &c);
      ck_assert_str_ne(a, c);
    }
  }
  json_object_put(r0);
  json_object_put(r10);
  json_object_put(jr);
  free(s0);
  free(s10);
  free(j0);
  wl_findings_free(&f0);
  wl_findings_free(&f10);
}
END_TEST

/* ---- errors ----------------------------------------------------------------- */

START_TEST(test_write_error) {
  if (access("/dev/full", W_OK) != 0)
    return; /* not on this system */
  static const emit_fn fns[] = {wl_emit_text, wl_emit_json, wl_emit_sarif};
  wl_findings f;
  build(&f, 0);
  wl_emit_info info = test_info(false);
  for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++) {
    FILE *full = fopen("/dev/full", "w");
    ck_assert_ptr_nonnull(full);
    ck_assert_int_eq(fns[i](full, &f, &info), -1);
    fclose(full);
  }
  wl_findings_free(&f);
}
END_TEST

Suite *wl_suite_emit(void); /* registered in suites.def */

Suite *wl_suite_emit(void) {
  Suite *s = suite_create("emit");
  TCase *tc = tcase_create("emit");
  tcase_add_test(tc, test_text_golden);
  tcase_add_test(tc, test_json_golden);
  tcase_add_test(tc, test_sarif_golden);
  tcase_add_test(tc, test_text_shape);
  tcase_add_test(tc, test_text_color);
  tcase_add_test(tc, test_empty);
  tcase_add_test(tc, test_json_fields);
  tcase_add_test(tc, test_sarif_fields);
  tcase_add_test(tc, test_sarif_rules);
  tcase_add_test(tc, test_fingerprint_stable);
  tcase_add_test(tc, test_write_error);
  suite_add_tcase(s, tc);
  return s;
}
