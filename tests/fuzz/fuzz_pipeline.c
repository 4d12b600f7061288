/* fuzz_pipeline.c - the fuzz target (libFuzzer entry point): one input is one
 * CUDA file, driven through the whole pipeline (parse, lowering, every rule,
 * suppressions, sort/dedup, the text, JSON and SARIF emitters, fix planning,
 * the unified diff and the export-fixes YAML) with property checks:
 *   - JSON and SARIF output parse (json-c) and hold as many findings as the list;
 *   - applying the --diff to the input gives exactly the --fix result;
 *   - a second --fix on the fixed text changes nothing;
 * A failed property aborts (a crash for the fuzzer, a failure for replay.c).
 * Built by -DWARPLINT_FUZZ=ON (clang, -fsanitize=fuzzer) and, with a plain
 * main, by the normal build as warplint_fuzz_replay (ctest fuzz_replay). */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "diag.h"
#include "emit.h"
#include "fix.h"
#include "rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INPUT "fuzz_input.cu"

static void check(int ok, const char *what, const char *detail) {
  if (ok)
    return;
  fprintf(stderr, "fuzz_pipeline: property failed: %s\n%s\n", what, detail ? detail : "");
  abort();
}

/* Applies a unified diff of one file (as wl_unified_diff writes it) to old;
 * false when a context or removed line does not match. */
static bool apply_diff(const char *old, size_t oldlen, const char *diff, wl_buf *out) {
  size_t pos = 0; /* next unconsumed byte of old */
  const char *d = diff;
  /* skip the two header lines */
  for (int i = 0; i < 2 && *d; i++) {
    const char *nl = strchr(d, '\n');
    if (!nl)
      return false;
    d = nl + 1;
  }
  size_t line_no = 1; /* line number of old at pos */
  while (*d) {
    unsigned long a, b, c, e;
    if (sscanf(d, "@@ -%lu,%lu +%lu,%lu @@", &a, &b, &c, &e) != 4)
      return false;
    d = strchr(d, '\n');
    if (!d)
      return false;
    d++;
    size_t first = b ? a : a + 1; /* first old line of the hunk */
    while (line_no < first) {     /* copy the lines before the hunk */
      const char *nl = memchr(old + pos, '\n', oldlen - pos);
      if (!nl)
        return false;
      size_t end = (size_t)(nl - old) + 1;
      wl_buf_add(out, old + pos, end - pos);
      pos = end;
      line_no++;
    }
    while (*d == ' ' || *d == '-' || *d == '+') {
      char mark = *d++;
      const char *nl = strchr(d, '\n');
      if (!nl)
        return false;
      size_t n = (size_t)(nl - d);
      const char *next = nl + 1;
      bool newline = true;
      if (strncmp(next, "\\ No newline at end of file\n", 28) == 0) {
        newline = false;
        next += 28;
      }
      if (mark == ' ' || mark == '-') {
        size_t want = n + newline;
        if (oldlen - pos < want || memcmp(old + pos, d, n) != 0 ||
            (newline && old[pos + n] != '\n'))
          return false;
        if (mark == ' ')
          wl_buf_add(out, old + pos, want);
        pos += want;
        line_no++;
      } else {
        wl_buf_add(out, d, n);
        if (newline)
          wl_buf_putc(out, '\n');
      }
      d = next;
    }
  }
  wl_buf_add(out, old + pos, oldlen - pos);
  return true;
}

/* Analyzes text; the findings sorted and de-duplicated like a run's. */
static void analyze(wl_parser *p, const char *text, wl_findings *f) {
  wl_analyze_opts ao;
  memset(&ao, 0, sizeof ao);
  ao.parse.arch = 75;
  ao.report_unused_suppressions = true;
  ao.verify_fixes = true; /* as --fix, --diff and --export-fixes run */
  wl_buf err;
  wl_buf_init(&err);
  wl_findings_init(f);
  (void)wl_analyze_file(p, INPUT, text, &ao, f, &err);
  wl_buf_free(&err);
  wl_findings_sort_dedup(f);
}

/* The fixed text of the input: false when no edit applies to it. */
static bool fixed_text(const char *text, size_t len, const wl_findings *f, wl_buf *out,
                       wl_buf *diff) {
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, f);
  bool any = false;
  for (size_t i = 0; i < plan.nfiles; i++) {
    const wl_file_fix *ff = &plan.files[i];
    if (strcmp(ff->file, INPUT) != 0 || ff->nedits == 0)
      continue;
    check(wl_fix_apply_text(text, len, ff->edits, ff->nedits, out), "the fix plan applies", NULL);
    if (diff)
      check(wl_unified_diff(INPUT, text, len, ff->edits, ff->nedits, diff), "the diff is made",
            NULL);
    any = true;
  }
  wl_fix_plan_free(&plan);
  return any;
}

static void check_emitters(const wl_findings *f) {
  wl_input_error errs[1] = {{"other.cu", "cannot read file"}};
  wl_emit_info info;
  memset(&info, 0, sizeof info);
  info.tool_version = "fuzz";
  info.cwd = "/tmp";
  info.errors = errs;
  info.nerrors = 1;
  info.files_analyzed = 1;
  info.rules = &wl_rule_catalog;
  for (int fmt = 0; fmt < 3; fmt++) {
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    check(m != NULL, "open_memstream", NULL);
    int rc = fmt == 0   ? wl_emit_text(m, f, &info)
             : fmt == 1 ? wl_emit_json(m, f, &info)
                        : wl_emit_sarif(m, f, &info);
    fclose(m);
    check(rc == 0, "the emitter writes", NULL);
    if (fmt > 0) {
      struct json_object *j = json_tokener_parse(s);
      check(j != NULL, fmt == 1 ? "JSON output parses" : "SARIF output parses", s);
      struct json_object *arr = NULL;
      if (fmt == 1) {
        check(json_object_object_get_ex(j, "findings", &arr), "JSON has findings", s);
      } else {
        struct json_object *runs = NULL;
        check(json_object_object_get_ex(j, "runs", &runs), "SARIF has runs", s);
        check(json_object_object_get_ex(json_object_array_get_idx(runs, 0), "results", &arr),
              "SARIF has results", s);
      }
      check(json_object_array_length(arr) == f->n, "every finding is in the output", s);
      json_object_put(j);
    }
    free(s);
  }
  char *y = NULL;
  size_t yn = 0;
  FILE *m = open_memstream(&y, &yn);
  check(m != NULL, "open_memstream", NULL);
  (void)wl_export_fixes_yaml(m, f, INPUT);
  fclose(m);
  free(y);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1u << 20) ||
      memchr(data, '\0', size)) /* a file is text; libclang's own size limits aside */
    return 0;
  char *text = malloc(size + 1);
  check(text != NULL, "malloc", NULL);
  memcpy(text, data, size);
  text[size] = '\0';
  /* one parser per input: the harness keeps no state between inputs */
  wl_parser *p = wl_parser_new();
  wl_findings f;
  analyze(p, text, &f);
  check_emitters(&f);

  wl_buf fixed, diff;
  wl_buf_init(&fixed);
  wl_buf_init(&diff);
  if (fixed_text(text, size, &f, &fixed, &diff)) {
    /* --diff applied to the input gives the --fix result */
    wl_buf patched;
    wl_buf_init(&patched);
    check(apply_diff(text, size, wl_buf_str(&diff), &patched), "the diff applies to the input",
          wl_buf_str(&diff));
    check(patched.len == fixed.len &&
              memcmp(wl_buf_str(&patched), wl_buf_str(&fixed), fixed.len) == 0,
          "--fix equals the applied --diff", wl_buf_str(&diff));
    wl_buf_free(&patched);
    /* a second --fix changes nothing */
    if (!memchr(wl_buf_str(&fixed), '\0', fixed.len)) {
      wl_findings f2;
      analyze(p, wl_buf_str(&fixed), &f2);
      wl_buf again;
      wl_buf_init(&again);
      bool more = fixed_text(wl_buf_str(&fixed), fixed.len, &f2, &again, NULL);
      check(!more || (again.len == fixed.len &&
                      memcmp(wl_buf_str(&again), wl_buf_str(&fixed), fixed.len) == 0),
            "a second --fix changes nothing", wl_buf_str(&fixed));
      wl_buf_free(&again);
      wl_findings_free(&f2);
    }
  }
  wl_buf_free(&fixed);
  wl_buf_free(&diff);
  wl_findings_free(&f);
  wl_parser_free(p);
  free(text);
  return 0;
}
