/* test_suppress.c - suppression comments: the directive grammar (a table of
 * comments and what they silence), the lexer (strings, raw strings and
 * character literals are not comments), invalid and unused suppressions,
 * and end-to-end suppression of real findings, macros included. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "rules.h"
#include "support/snippet.h"
#include "suppress.h"

Suite *wl_suite_suppress(void);

#define RULE "legacy-intrinsic"

static const struct {
  const char *src;
  unsigned line; /* the finding's line */
  bool silenced;
} grammar[] = {
    {"// warplint-disable-next-line legacy-intrinsic\nx;\n", 2, true},
    {"// warplint-disable-next-line legacy-intrinsic\nx;\n", 1, false},
    {"x; // warplint-disable-line legacy-intrinsic\n", 1, true},
    {"x; // warplint-disable-line other-rule, legacy-intrinsic\n", 1, true},
    {"x; // warplint-disable-line other-rule legacy-intrinsic -- kept for CUDA 8\n", 1, true},
    {"x; // warplint-disable-line -- a reason only: every rule\n", 1, true},
    {"x; // warplint-disable-line legacy-*\n", 1, true},
    {"x; // warplint-disable-line full-mask-divergent\n", 1, false},
    {"x; /* warplint-disable-line legacy-intrinsic */ y;\n", 1, true},
    {"#define M x; /* warplint-disable-line legacy-intrinsic */ \\\n  y\n", 1, true},
    {"a;\n// warplint-disable-file legacy-intrinsic\nb;\n\nc;\n", 5, true},
    {"x; // NOLINT\n", 1, true},
    {"x; // NOLINT(legacy-intrinsic)\n", 1, true},
    {"x; // NOLINT(bugprone-foo, legacy-intrinsic)\n", 1, true},
    {"x; // NOLINT(bugprone-foo)\n", 1, false},
    {"x; // NOLINTBEGIN\n", 1, false},
    {"// NOLINTNEXTLINE(legacy-intrinsic)\nx;\n", 2, true},
    {"// NOLINTNEXTLINE\nx;\n", 2, true},
    {"x; // nolint is case-sensitive: NOLINTx\n", 1, false},
    /* not comments */
    {"s = \"// warplint-disable-line legacy-intrinsic\"; x;\n", 1, false},
    {"s = R\"(// NOLINT)\"; x;\n", 1, false},
    {"s = R\"d(\" // NOLINT )d\"; x;\n", 1, false},
    {"c = '\"'; x; // NOLINT\n", 1, true},
    {"n = 1'000'000; x; // NOLINT\n", 1, true},
    {"s = \"a\\\"b // NOLINT\"; x;\n", 1, false},
    /* a block comment over several lines: the directive's own line counts */
    {"/* header\n   warplint-disable-next-line legacy-intrinsic\n*/\nx;\n", 3, true},
    /* blocks: from the begin comment's line to the end comment's line */
    {"// NOLINTBEGIN(legacy-intrinsic)\nx;\ny;\n// NOLINTEND(legacy-intrinsic)\nz;\n", 3, true},
    {"// NOLINTBEGIN(legacy-intrinsic)\nx;\ny;\n// NOLINTEND(legacy-intrinsic)\nz;\n", 5, false},
    {"a;\n// NOLINTBEGIN(legacy-intrinsic)\nx;\n// NOLINTEND(legacy-intrinsic)\n", 1, false},
    {"// NOLINTBEGIN\nx;\n// NOLINTEND\n", 2, true},
    {"// NOLINTBEGIN(bugprone-x)\nx;\n// NOLINTEND(bugprone-x)\n", 2, false},
    {"// warplint-disable-begin legacy-intrinsic -- old kernels\nx;\n"
     "// warplint-disable-end legacy-intrinsic\n",
     2, true},
    {"// warplint-disable-begin\nx;\n// warplint-disable-end\n", 2, true},
    {"x; /* NOLINTBEGIN(legacy-intrinsic) */ y; /* NOLINTEND(legacy-intrinsic) */\n", 1, true},
    /* nested blocks pair by their rule lists */
    {"// NOLINTBEGIN(legacy-intrinsic)\n// NOLINTBEGIN(missing-syncwarp)\n"
     "// NOLINTEND(legacy-intrinsic)\nx;\n// NOLINTEND(missing-syncwarp)\n",
     4, false},
    {"// NOLINTBEGIN(legacy-intrinsic)\n// NOLINTBEGIN(missing-syncwarp)\n"
     "// NOLINTEND(legacy-intrinsic)\nx;\n// NOLINTEND(missing-syncwarp)\n",
     3, true},
    /* unmatched: nothing silenced; a NOLINT end does not close a warplint begin */
    {"// NOLINTBEGIN(legacy-intrinsic)\nx;\n", 2, false},
    {"x;\n// NOLINTEND(legacy-intrinsic)\n", 1, false},
    {"// NOLINTBEGIN(legacy-intrinsic)\nx;\n// NOLINTEND(missing-syncwarp)\n", 2, false},
    {"// warplint-disable-begin legacy-intrinsic\nx;\n// NOLINTEND(legacy-intrinsic)\n", 2, false},
    /* malformed lists silence nothing (they used to silence every rule) */
    {"x; // NOLINT(,,,,)\n", 1, false},
    {"x; // NOLINT()\n", 1, false},
    {"// NOLINTNEXTLINE(\nx;\n", 2, false},
    {"// NOLINTNEXTLINE(legacy-intrinsic\nx;\n", 2, false},
    {"x; // warplint-disable-line ,,,,\n", 1, false},
    {"x; // NOLINT(legacy-intrinsic,,)\n", 1, true},
};

START_TEST(test_grammar) {
  wl_suppressions s;
  const char *src = grammar[_i].src;
  wl_suppressions_scan(src, strlen(src), &wl_rule_catalog, &s);
  bool hit = wl_suppressions_match(&s, RULE, grammar[_i].line);
  ck_assert_msg(hit == grammar[_i].silenced, "case %d (%s): %s", _i, src,
                hit ? "silenced" : "not silenced");
  wl_suppressions_free(&s);
}
END_TEST

static wl_finding *add(wl_findings *f, const char *rule, unsigned line) {
  return wl_findings_add(f, rule, WL_SEV_WARNING, "t.cu", line, 3, line, 8, "m");
}

static size_t count(const wl_findings *f, const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++)
    n += strcmp(f->v[i].rule, rule) == 0;
  return n;
}

START_TEST(test_invalid_ids_reported) {
  const char *src = "x; // warplint-disable-line legacy-intrinsc\n"
                    "y; // warplint-disable-nextline legacy-intrinsic\n"
                    "z; // NOLINT(readability-magic-numbers)\n";
  wl_findings f;
  wl_findings_init(&f);
  add(&f, RULE, 1);
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, NULL, false, &f);
  ck_assert_uint_eq(count(&f, RULE), 1); /* the typo silenced nothing */
  ck_assert_uint_eq(count(&f, WL_RULE_INVALID_SUPPRESSION), 2);
  wl_findings_sort_dedup(&f);
  ck_assert_str_eq(f.v[1].rule, WL_RULE_INVALID_SUPPRESSION);
  ck_assert_uint_eq(f.v[1].line, 1);
  ck_assert_uint_eq(f.v[1].col, 29);
  ck_assert_ptr_nonnull(strstr(f.v[1].message, "unknown rule 'legacy-intrinsc'"));
  ck_assert_str_eq(f.v[1].line_text, "x; // warplint-disable-line legacy-intrinsc");
  ck_assert_uint_eq(f.v[2].line, 2);
  ck_assert_ptr_nonnull(strstr(f.v[2].message, "warplint-disable-nextline"));
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_unused_reported) {
  const char *src = "a; // warplint-disable-line legacy-intrinsic\n" /* used */
                    "b; // warplint-disable-line legacy-intrinsic\n" /* unused */
                    "c; // NOLINT(legacy-intrinsic, bugprone-x)\n"   /* unused */
                    "d; // NOLINT\n"                                 /* maybe clang-tidy's */
                    "e; // warplint-disable-line\n";                 /* unused, all rules */
  bool *enabled = calloc(wl_nrules, sizeof *enabled);
  for (size_t i = 0; i < wl_nrules; i++)
    enabled[i] = true;
  wl_findings f;
  wl_findings_init(&f);
  add(&f, RULE, 1);
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, enabled, true, &f);
  wl_findings_sort_dedup(&f);
  ck_assert_uint_eq(count(&f, RULE), 0);
  ck_assert_uint_eq(count(&f, WL_RULE_UNUSED_SUPPRESSION), 3);
  ck_assert_uint_eq(f.v[0].line, 2);
  ck_assert_ptr_nonnull(strstr(f.v[0].message, "no 'legacy-intrinsic' finding on line 2"));
  ck_assert_uint_eq(f.v[1].line, 3);
  ck_assert_uint_eq(f.v[2].line, 5);
  wl_findings_free(&f);
  /* not asked for: nothing reported */
  add(&f, RULE, 1);
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, enabled, false, &f);
  ck_assert_uint_eq(f.n, 0);
  wl_findings_free(&f);
  /* a suppression of a rule that did not run is not unused */
  for (size_t i = 0; i < wl_nrules; i++)
    enabled[i] = false;
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, enabled, true, &f);
  ck_assert_uint_eq(count(&f, WL_RULE_UNUSED_SUPPRESSION), 1); /* only the all-rules one */
  wl_findings_free(&f);
  free(enabled);
}
END_TEST

START_TEST(test_pseudo_rules_silenceable) {
  const char *src = "// warplint-disable-file invalid-suppression\n"
                    "x; // warplint-disable-line no-such-rule\n";
  wl_findings f;
  wl_findings_init(&f);
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, NULL, true, &f);
  ck_assert_uint_eq(f.n, 0);
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_other_files_untouched) {
  const char *src = "x; // NOLINT\n";
  wl_findings f;
  wl_findings_init(&f);
  wl_findings_add(&f, RULE, WL_SEV_WARNING, "other.cuh", 1, 1, 1, 2, "m");
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, NULL, false, &f);
  ck_assert_uint_eq(f.n, 1);
  wl_findings_free(&f);
}
END_TEST

/* Unmatched begins and ends are reported (always: clang-tidy reports them
 * as errors); malformed lists are invalid-suppression findings. */
START_TEST(test_blocks_and_malformed_reported) {
  const char *src = "// NOLINTBEGIN(legacy-intrinsic)\n"           /* 1: unmatched begin */
                    "x;\n"                                         /* 2 */
                    "// warplint-disable-end missing-syncwarp\n"   /* 3: unmatched end */
                    "y; // NOLINT(,,,,)\n"                         /* 4: empty list */
                    "// NOLINTNEXTLINE(legacy-intrinsic\n"         /* 5: unclosed */
                    "z;\n"                                         /* 6 */
                    "// warplint-disable-begin legacy-intrinsic\n" /* 7 */
                    "w;\n"                                         /* 8: silenced */
                    "// warplint-disable-end legacy-intrinsic\n";  /* 9 */
  wl_findings f;
  wl_findings_init(&f);
  add(&f, RULE, 2);
  add(&f, RULE, 4);
  add(&f, RULE, 6);
  add(&f, RULE, 8);
  wl_suppress_apply(src, strlen(src), "t.cu", &wl_rule_catalog, NULL, false, &f);
  wl_findings_sort_dedup(&f);
  ck_assert_uint_eq(count(&f, RULE), 3);
  ck_assert_uint_eq(count(&f, WL_RULE_UNUSED_SUPPRESSION), 2);
  ck_assert_uint_eq(count(&f, WL_RULE_INVALID_SUPPRESSION), 2);
  const char *want[][2] = {
      {"1", "NOLINTBEGIN(legacy-intrinsic) without a matching NOLINTEND: it silences nothing"},
      {"3", "warplint-disable-end missing-syncwarp without a matching warplint-disable-begin"},
      {"4", "empty rule list in NOLINT: it silences nothing"},
      {"5", "unclosed '(' in NOLINTNEXTLINE: it silences nothing"},
  };
  for (size_t w = 0; w < sizeof want / sizeof want[0]; w++) {
    bool found = false;
    for (size_t i = 0; i < f.n; i++)
      found |= f.v[i].line == (unsigned)atoi(want[w][0]) && strstr(f.v[i].message, want[w][1]);
    ck_assert_msg(found, "no finding '%s' on line %s", want[w][1], want[w][0]);
  }
  wl_findings_free(&f);
  /* a used block is not reported; an unused one is, with its lines */
  const char *blk = "// NOLINTBEGIN(legacy-intrinsic)\nx;\n// NOLINTEND(legacy-intrinsic)\n";
  wl_findings_init(&f);
  wl_suppress_apply(blk, strlen(blk), "t.cu", &wl_rule_catalog, NULL, true, &f);
  ck_assert_uint_eq(f.n, 1);
  ck_assert_ptr_nonnull(strstr(f.v[0].message, "no 'legacy-intrinsic' finding in lines 1-3"));
  wl_findings_free(&f);
  wl_findings_init(&f);
  add(&f, RULE, 2);
  wl_suppress_apply(blk, strlen(blk), "t.cu", &wl_rule_catalog, NULL, true, &f);
  ck_assert_uint_eq(f.n, 0);
  wl_findings_free(&f);
}
END_TEST

/* 100,000 rule ids in one comment: the directive is ignored and reported
 * once, in bounded time and memory (it took over 17 GB). */
START_TEST(test_many_ids_bounded) {
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_puts(&b, "x; // warplint-disable-line");
  for (int i = 0; i < 100000; i++)
    wl_buf_printf(&b, " no-such-rule-%d", i);
  wl_buf_puts(&b, "\ny; // NOLINT(");
  for (int i = 0; i < 100000; i++)
    wl_buf_printf(&b, "%sx%d", i ? "," : "", i);
  wl_buf_puts(&b, ")\n");
  for (int i = 0; i < 3000; i++) /* many bad comments: at most WL_SUP_MAX_REPORTS findings */
    wl_buf_puts(&b, "z; // warplint-disable-line nope\n");
  wl_findings f;
  wl_findings_init(&f);
  add(&f, RULE, 1);
  add(&f, RULE, 2);
  wl_suppress_apply(b.data, b.len, "t.cu", &wl_rule_catalog, NULL, true, &f);
  ck_assert_uint_eq(count(&f, RULE), 2); /* neither list silences anything */
  ck_assert_uint_eq(count(&f, WL_RULE_INVALID_SUPPRESSION), WL_SUP_MAX_REPORTS + 1);
  wl_findings_sort_dedup(&f);
  bool capped = false, more = false;
  for (size_t i = 0; i < f.n; i++) {
    capped |= strstr(f.v[i].message, "more than 64 rule ids in warplint-disable-line") != NULL;
    more |= strstr(f.v[i].message, "more suppression problems in this file not reported") != NULL;
    ck_assert_uint_le(strlen(f.v[i].line_text), 4096);
  }
  ck_assert(capped && more);
  wl_findings_free(&f);
  wl_buf_free(&b);
}
END_TEST

/* Mutated suppression comments never crash or abort (run under ASan/UBSan
 * in CI): a deterministic mutation of the grammar table's comments. */
START_TEST(test_mutations_never_crash) {
  static const char alphabet[] = "(),-_ \t\n/*\\NOLINTBEGINDwarplint-disable-begin";
  unsigned long long state = 0x9E3779B97F4A7C15ULL;
  for (int round = 0; round < 20000; round++) {
    const char *seed = grammar[round % (sizeof grammar / sizeof grammar[0])].src;
    size_t n = strlen(seed);
    char buf[256];
    size_t len = n < sizeof buf ? n : sizeof buf - 1;
    memcpy(buf, seed, len);
    for (int m = 0; m < 4; m++) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      size_t at = (size_t)(state >> 33) % (len + 1);
      unsigned op = (unsigned)(state >> 20) % 3;
      char c = alphabet[(state >> 40) % (sizeof alphabet - 1)];
      if (op == 0 && at < len) /* replace */
        buf[at] = c;
      else if (op == 1 && len + 1 < sizeof buf) { /* insert */
        memmove(buf + at + 1, buf + at, len - at);
        buf[at] = c;
        len++;
      } else if (at < len) { /* delete */
        memmove(buf + at, buf + at + 1, len - at - 1);
        len--;
      }
    }
    wl_findings f;
    wl_findings_init(&f);
    for (unsigned line = 1; line <= 6; line++)
      add(&f, RULE, line);
    wl_suppress_apply(buf, len, "t.cu", &wl_rule_catalog, NULL, round % 2 == 0, &f);
    for (size_t i = 0; i < f.n; i++)
      ck_assert_uint_ge(f.v[i].line, 1);
    wl_findings_free(&f);
  }
}
END_TEST

static void analyze_src(const char *src, bool unused, wl_findings *f) {
  wl_analyze_opts o;
  memset(&o, 0, sizeof o);
  o.report_unused_suppressions = unused;
  wl_snippet_analyze(src, &o, f);
}

START_TEST(test_end_to_end) {
  wl_findings f;
  analyze_src("__global__ void k(float *o) {\n"
              "  float v = o[threadIdx.x];\n"
              "  // warplint-disable-next-line legacy-intrinsic -- reviewed\n"
              "  v += __shfl_down(v, 16);\n"
              "  v += __shfl_down(v, 8); // NOLINT(legacy-intrinsic)\n"
              "  v += __shfl_down(v, 4);\n"
              "  o[0] = v;\n"
              "}\n",
              false, &f);
  ck_assert_uint_eq(count(&f, RULE), 1);
  ck_assert_uint_eq(f.v[0].line, 6);
  wl_findings_free(&f);
}
END_TEST

/* A finding inside a macro definition is reported at its spelling: the
 * suppression goes there, not at the expansion. */
START_TEST(test_macro_reported_line) {
  wl_findings f;
  analyze_src("#define SHFL(v, d) __shfl_down(v, d) // warplint-disable-line legacy-intrinsic\n"
              "#define BALLOT(p) __ballot(p)\n"
              "__global__ void k(float *o) {\n"
              "  float v = SHFL(o[0], 1);\n"
              "  unsigned b = BALLOT(v > 0); // warplint-disable-line legacy-intrinsic\n"
              "  o[1] = v + b;\n"
              "}\n",
              true, &f);
  ck_assert_uint_eq(count(&f, RULE), 1);
  for (size_t i = 0; i < f.n; i++)
    if (strcmp(f.v[i].rule, RULE) == 0)
      ck_assert_uint_eq(f.v[i].line, 2);
  /* the suppression at the expansion site silenced nothing */
  ck_assert_uint_eq(count(&f, WL_RULE_UNUSED_SUPPRESSION), 1);
  wl_findings_free(&f);
}
END_TEST

/* In a macro spanning several lines, the comment goes on the line of the call. */
START_TEST(test_multiline_macro) {
  wl_findings f;
  analyze_src("#define WARP_SUM(v) \\\n"
              "  do { \\\n"
              "    for (int o_ = 16; o_ > 0; o_ >>= 1) \\\n"
              "      (v) += __shfl_xor((v), o_); /* warplint-disable-line legacy-intrinsic */ \\\n"
              "  } while (0)\n"
              "__global__ void k(float *o) {\n"
              "  float a = o[threadIdx.x];\n"
              "  WARP_SUM(a);\n"
              "  o[0] = a;\n"
              "}\n",
              true, &f);
  ck_assert_uint_eq(f.n, 0);
  wl_findings_free(&f);
}
END_TEST

Suite *wl_suite_suppress(void) {
  Suite *s = suite_create("suppress");
  TCase *tc = tcase_create("grammar");
  tcase_add_loop_test(tc, test_grammar, 0, (int)(sizeof grammar / sizeof grammar[0]));
  tcase_add_test(tc, test_invalid_ids_reported);
  tcase_add_test(tc, test_unused_reported);
  tcase_add_test(tc, test_pseudo_rules_silenceable);
  tcase_add_test(tc, test_other_files_untouched);
  tcase_add_test(tc, test_blocks_and_malformed_reported);
  tcase_add_test(tc, test_many_ids_bounded);
  tcase_add_test(tc, test_mutations_never_crash);
  suite_add_tcase(s, tc);
  tc = tcase_create("analysis");
  tcase_add_test(tc, test_end_to_end);
  tcase_add_test(tc, test_macro_reported_line);
  tcase_add_test(tc, test_multiline_macro);
  suite_add_tcase(s, tc);
  return s;
}
