/* test_fixtures.c - the fixture loop: every .cu file of fixtures/<rule-id>/ is
 * analyzed and its findings of that rule must match its `// expect:` lines
 * both ways; the GPU fixtures' bad kernels must fire and their fixed kernels
 * must stay clean; and every registered rule must have its doc, fixtures
 * (firing and clean) and GPU fixture (meta-test). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"
#include "fix.h"
#include "fixture_util.h"
#include "rules.h"

Suite *wl_suite_fixtures(void);

typedef struct fixture_case {
  char rule[64];
  char path[1200];
} fixture_case;

/* Test tables are filled once by the suite factory, before any test runs. */
static fixture_case *cases;
static size_t ncases;

static void add_case(const char *rule, const char *path) {
  cases = wl_xrealloc(cases, (ncases + 1) * sizeof *cases);
  snprintf(cases[ncases].rule, sizeof cases[ncases].rule, "%s", rule);
  snprintf(cases[ncases].path, sizeof cases[ncases].path, "%s", path);
  ncases++;
}

static void collect_cases(void) {
  if (cases)
    return;
  for (size_t r = 0; r < wl_nrules; r++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/%s", WL_SOURCE_DIR, wl_rules[r].id);
    char **names = NULL;
    size_t n = wl_fixture_list(dir, &names);
    for (size_t i = 0; i < n; i++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      add_case(wl_rules[r].id, path);
      free(names[i]);
    }
    free(names);
  }
}

START_TEST(test_fixture_file) {
  const fixture_case *c = &cases[_i];
  wl_findings f;
  wl_findings_init(&f);
  wl_buf err, report;
  wl_buf_init(&err);
  wl_buf_init(&report);
  bool ok = wl_fixture_analyze(c->path, c->rule, &f, &err);
  ck_assert_msg(ok, "%s: %s", c->path, wl_buf_str(&err));
  wl_buf missed;
  wl_buf_init(&missed);
  int bad = wl_fixture_compare(c->path, c->rule, &f, &report, &missed);
  if (missed.len) /* known false negatives: said, not failed */
    fputs(wl_buf_str(&missed), stdout);
  wl_buf_free(&missed);
  ck_assert_msg(bad == 0, "%d mismatch(es):\n%s", bad, wl_buf_str(&report));
  wl_findings_free(&f);
  wl_buf_free(&err);
  wl_buf_free(&report);
}
END_TEST

/* Every field of every finding and notice, one line each. */
static void describe(const wl_findings *f, wl_buf *b) {
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *d = &f->v[i];
    wl_buf_printf(b, "%s %d %s:%u:%u-%u:%u @%u %s | %s | %s\n", d->rule, (int)d->severity, d->file,
                  d->line, d->col, d->end_line, d->end_col, d->offset, d->message, d->line_text,
                  d->suggestion ? d->suggestion : "-");
    for (size_t k = 0; k < d->nnotes; k++)
      wl_buf_printf(b, "  note %s:%u:%u %s\n", d->notes[k].file, d->notes[k].line, d->notes[k].col,
                    d->notes[k].message);
    for (size_t k = 0; k < d->nedits; k++)
      wl_buf_printf(b, "  edit %s @%u+%u '%s'\n", d->edits[k].file, d->edits[k].offset,
                    d->edits[k].length, d->edits[k].text);
  }
  for (size_t i = 0; i < f->nnotices; i++)
    wl_buf_printf(b, "notice %s:%u:%u %s\n", f->notices[i].file, f->notices[i].line,
                  f->notices[i].col, f->notices[i].message);
}

/* The file analyzed by every rule with its fixes checked, as a whole (batch
 * 0) or lowered in batches of one group of functions each (batch 1). */
static void analyze_all(const char *path, bool batches, wl_buf *out) {
  wl_analyze_opts o;
  memset(&o, 0, sizeof o);
  o.parse.arch = 75;
  o.verify_fixes = true;
  if (batches) {
    o.parse.batch_min = 1;
    o.parse.batch_bytes = 1;
  }
  wl_findings f;
  wl_findings_init(&f);
  wl_buf err;
  wl_buf_init(&err);
  wl_parser *p = wl_parser_new();
  wl_parse_status st = wl_analyze_file(p, path, NULL, &o, &f, &err);
  wl_parser_free(p);
  ck_assert_msg(st == WL_PARSE_OK, "%s: %s", path, wl_buf_str(&err));
  wl_findings_sort_dedup(&f);
  describe(&f, out);
  wl_findings_free(&f);
  wl_buf_free(&err);
}

/* A file lowered and analyzed in batches (what a file of WL_BATCH_MIN bytes
 * or more gets) gives exactly the findings, notes and fixes of the whole
 * file, here with one group of functions per batch. */
START_TEST(test_fixture_batches) {
  const fixture_case *c = &cases[_i];
  wl_buf whole, batched;
  wl_buf_init(&whole);
  wl_buf_init(&batched);
  analyze_all(c->path, false, &whole);
  analyze_all(c->path, true, &batched);
  ck_assert_msg(strcmp(wl_buf_str(&whole), wl_buf_str(&batched)) == 0,
                "%s: whole:\n%s\nin batches:\n%s", c->path, wl_buf_str(&whole),
                wl_buf_str(&batched));
  wl_buf_free(&whole);
  wl_buf_free(&batched);
}
END_TEST

/* fixtures/gpu/<rule>/bad*.cu fire exactly as annotated; fixed.cu has no finding of any rule. */
START_TEST(test_gpu_fixtures) {
  wl_buf report;
  wl_buf_init(&report);
  int problems = 0;
  for (size_t r = 0; r < wl_nrules; r++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/gpu/%s", WL_SOURCE_DIR, wl_rules[r].id);
    char **names = NULL;
    size_t n = wl_fixture_list(dir, &names);
    bool have_bad = false, have_fixed = false;
    for (size_t i = 0; i < n; i++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      bool is_bad = strncmp(names[i], "bad", 3) == 0;
      bool is_fixed = strncmp(names[i], "fixed", 5) == 0;
      free(names[i]);
      if (!is_bad && !is_fixed)
        continue; /* harnesses and probes */
      wl_findings f;
      wl_findings_init(&f);
      wl_buf err;
      wl_buf_init(&err);
      if (!wl_fixture_analyze(path, NULL, &f, &err)) {
        wl_buf_printf(&report, "%s: %s\n", path, wl_buf_str(&err));
        problems++;
      } else if (is_bad) {
        have_bad = true;
        int m = wl_fixture_compare(path, wl_rules[r].id, &f, &report, NULL);
        size_t mine = 0;
        for (size_t k = 0; k < f.n; k++)
          mine += strcmp(f.v[k].rule, wl_rules[r].id) == 0;
        if (mine == 0) {
          wl_buf_printf(&report, "%s: bad kernel not reported by %s\n", path, wl_rules[r].id);
          problems++;
        }
        problems += m;
      } else {
        have_fixed = true;
        for (size_t k = 0; k < f.n; k++) {
          wl_buf_printf(&report, "%s:%u:%u: fixed kernel has a finding [%s]: %s\n", path,
                        f.v[k].line, f.v[k].col, f.v[k].rule, f.v[k].message);
          problems++;
        }
      }
      wl_findings_free(&f);
      wl_buf_free(&err);
    }
    free(names);
    if (!have_bad || !have_fixed) {
      wl_buf_printf(&report, "%s: rule %s needs bad*.cu and fixed.cu\n", dir, wl_rules[r].id);
      problems++;
    }
  }
  ck_assert_msg(problems == 0, "%d problem(s):\n%s", problems, wl_buf_str(&report));
  wl_buf_free(&report);
}
END_TEST

static bool is_dir(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

#define SCAFFOLD_MARK "TODO(new-rule.sh)"

/* Reports each line of rel (under the source dir) that still holds the
 * marker scripts/new-rule.sh leaves where a rule's author must write. */
static int scaffold_left(const char *rel, wl_buf *report) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", WL_SOURCE_DIR, rel);
  char *text = wl_read_file(path, NULL);
  if (!text)
    return 0;
  int n = 0;
  unsigned line = 1;
  for (const char *p = text; *p; p++) {
    if (strncmp(p, SCAFFOLD_MARK, strlen(SCAFFOLD_MARK)) == 0) {
      wl_buf_printf(report, "%s:%u: the scaffold's " SCAFFOLD_MARK " is still there\n", rel, line);
      n++;
      while (*p && *p != '\n')
        p++;
      if (!*p)
        break;
    }
    line += *p == '\n';
  }
  free(text);
  return n;
}

/* What scripts/new-rule.sh wrote for rule id and its author has not filled in. */
static int scaffold_left_in_rule(const char *id, const char *summary, wl_buf *report) {
  int n = 0;
  char rel[512], c_name[128];
  snprintf(c_name, sizeof c_name, "%s", id);
  for (char *p = c_name; *p; p++)
    *p = *p == '-' ? '_' : *p;
  if (strstr(summary, SCAFFOLD_MARK)) {
    wl_buf_printf(report, "rules.def: the summary of %s is the scaffold's " SCAFFOLD_MARK "\n", id);
    n++;
  }
  snprintf(rel, sizeof rel, "rules/%s.c", c_name);
  n += scaffold_left(rel, report);
  snprintf(rel, sizeof rel, "rules/%s.md", id);
  n += scaffold_left(rel, report);
  static const char *const dirs[] = {"fixtures", "fixtures/gpu"};
  for (size_t d = 0; d < 2; d++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/%s/%s", WL_SOURCE_DIR, dirs[d], id);
    char **names = NULL;
    size_t k = wl_fixture_list(dir, &names);
    for (size_t i = 0; i < k; i++) {
      snprintf(rel, sizeof rel, "%s/%s/%s", dirs[d], id, names[i]);
      n += scaffold_left(rel, report);
      free(names[i]);
    }
    free(names);
  }
  return n;
}

/* Every rule: registry line, rules/<id>.md with its sections, fixtures that
 * fire and fixtures that stay clean, nothing left of the new-rule.sh
 * scaffold; every fixtures/<dir> is a rule. */
START_TEST(test_rule_completeness) {
  wl_buf report;
  wl_buf_init(&report);
  int problems = 0;
  static const char *const sections[] = {"## What it does", "## Why is this bad", "## Example",
                                         "## Use instead"};
  for (size_t r = 0; r < wl_nrules; r++) {
    const char *id = wl_rules[r].id;
    problems += scaffold_left_in_rule(id, wl_rules[r].summary, &report);
    const char *doc = wl_rule_doc_text(id);
    if (!doc) {
      wl_buf_printf(&report, "rule %s has no rules/%s.md\n", id, id);
      problems++;
    } else {
      for (size_t s = 0; s < sizeof sections / sizeof sections[0]; s++)
        if (!strstr(doc, sections[s])) {
          wl_buf_printf(&report, "rules/%s.md lacks the section '%s'\n", id, sections[s]);
          problems++;
        }
    }
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/%s", WL_SOURCE_DIR, id);
    char **names = NULL;
    size_t n = wl_fixture_list(dir, &names);
    size_t firing = 0, clean = 0;
    for (size_t i = 0; i < n; i++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      if (wl_fixture_count_expectations(path) > 0)
        firing++;
      else
        clean++;
      free(names[i]);
    }
    free(names);
    if (firing == 0 || clean == 0) {
      wl_buf_printf(&report,
                    "fixtures/%s needs files that fire (%zu) and files that stay clean (%zu)\n", id,
                    firing, clean);
      problems++;
    }
    snprintf(dir, sizeof dir, "%s/fixtures/gpu/%s", WL_SOURCE_DIR, id);
    if (!is_dir(dir)) {
      wl_buf_printf(&report, "rule %s has no fixtures/gpu/%s/\n", id, id);
      problems++;
    }
  }
  char root[512];
  snprintf(root, sizeof root, "%s/fixtures", WL_SOURCE_DIR);
  DIR *d = opendir(root);
  ck_assert_ptr_nonnull(d);
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.' || strcmp(de->d_name, "gpu") == 0)
      continue;
    char p[1024];
    snprintf(p, sizeof p, "%s/%s", root, de->d_name);
    if (is_dir(p) && !wl_rule_find(de->d_name)) {
      wl_buf_printf(&report, "fixtures/%s is not a registered rule\n", de->d_name);
      problems++;
    }
  }
  closedir(d);
  ck_assert_msg(problems == 0, "%d problem(s):\n%s", problems, wl_buf_str(&report));
  wl_buf_free(&report);
}
END_TEST

/* fixtures/<rule>/X.cu with a golden X.cu.fixed: applying every automatic fix
 * gives exactly the golden text, and the fixed text has no fixable finding
 * left (so a second --fix changes nothing). */
START_TEST(test_fixed_goldens) {
  wl_buf report;
  wl_buf_init(&report);
  int problems = 0, goldens = 0;
  for (size_t c = 0; c < ncases; c++) {
    char golden[1300];
    snprintf(golden, sizeof golden, "%s.fixed", cases[c].path);
    size_t glen = 0;
    char *want = wl_read_file(golden, &glen);
    if (!want)
      continue;
    goldens++;
    size_t len = 0;
    char *src = wl_read_file(cases[c].path, &len);
    ck_assert_ptr_nonnull(src);
    wl_findings f;
    wl_findings_init(&f);
    wl_buf err;
    wl_buf_init(&err);
    ck_assert(wl_fixture_analyze(cases[c].path, NULL, &f, &err));
    wl_fix_plan plan;
    wl_fix_plan_build(&plan, &f);
    wl_buf out;
    wl_buf_init(&out);
    if (plan.nfiles == 0)
      wl_buf_add(&out, src, len);
    else
      ck_assert(wl_fix_apply_text(src, len, plan.files[0].edits, plan.files[0].nedits, &out));
    if (strcmp(wl_buf_str(&out), want) != 0) {
      wl_buf_printf(&report, "%s: fixed text differs from %s:\n%s\n", cases[c].path, golden,
                    wl_buf_str(&out));
      problems++;
    }
    /* the fixed text has no fixable finding left */
    wl_findings f2;
    wl_findings_init(&f2);
    wl_parser *p = wl_parser_new();
    wl_analyze_opts o;
    memset(&o, 0, sizeof o);
    o.parse.arch = 75;
    ck_assert_int_eq(wl_analyze_file(p, cases[c].path, wl_buf_str(&out), &o, &f2, &err),
                     WL_PARSE_OK);
    for (size_t k = 0; k < f2.n; k++)
      if (f2.v[k].nedits > 0) {
        wl_buf_printf(&report, "%s (fixed): still fixable at %u:%u [%s]\n", cases[c].path,
                      f2.v[k].line, f2.v[k].col, f2.v[k].rule);
        problems++;
      }
    wl_parser_free(p);
    wl_findings_free(&f2);
    wl_buf_free(&out);
    wl_fix_plan_free(&plan);
    wl_findings_free(&f);
    wl_buf_free(&err);
    free(src);
    free(want);
  }
  ck_assert_msg(goldens > 0, "no .fixed golden files found");
  ck_assert_msg(problems == 0, "%d problem(s):\n%s", problems, wl_buf_str(&report));
  wl_buf_free(&report);
}
END_TEST

/* Applies every automatic fix of the file; false when there is none. */
static bool fixed_text(const char *path, wl_buf *out) {
  wl_findings f;
  wl_findings_init(&f);
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(wl_fixture_analyze(path, NULL, &f, &err), "%s: %s", path, wl_buf_str(&err));
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, &f);
  bool any = plan.nfiles > 0 && plan.files[0].nedits > 0;
  if (any) {
    size_t len = 0;
    char *src = wl_read_file(path, &len);
    ck_assert_ptr_nonnull(src);
    ck_assert(wl_fix_apply_text(src, len, plan.files[0].edits, plan.files[0].nedits, out));
    free(src);
  }
  wl_fix_plan_free(&plan);
  wl_findings_free(&f);
  wl_buf_free(&err);
  return any;
}

/* Where a rule fixes its GPU fixture's bad kernel automatically, the fixed
 * kernel on the GPU is exactly that --fix output (bad.cu -> fixed.cu,
 * bad_X.cu -> fixed_X.cu), so the GPU evidence shows the fix is right. */
START_TEST(test_gpu_fixed_is_fix_output) {
  wl_buf report;
  wl_buf_init(&report);
  int problems = 0, compared = 0;
  for (size_t r = 0; r < wl_nrules; r++) {
    char dir[512];
    snprintf(dir, sizeof dir, "%s/fixtures/gpu/%s", WL_SOURCE_DIR, wl_rules[r].id);
    char **names = NULL;
    size_t n = wl_fixture_list(dir, &names);
    for (size_t i = 0; i < n; i++) {
      if (strncmp(names[i], "bad", 3) == 0) {
        char bad[1024], fixed[1100];
        snprintf(bad, sizeof bad, "%s/%s", dir, names[i]);
        snprintf(fixed, sizeof fixed, "%s/fixed%s", dir, names[i] + 3);
        wl_buf out;
        wl_buf_init(&out);
        if (fixed_text(bad, &out)) {
          compared++;
          char *want = wl_read_file(fixed, NULL);
          if (!want || strcmp(want, wl_buf_str(&out)) != 0) {
            wl_buf_printf(&report, "%s is not the --fix output of %s\n", fixed, bad);
            problems++;
          }
          free(want);
        }
        wl_buf_free(&out);
      }
      free(names[i]);
    }
    free(names);
  }
  ck_assert_msg(compared >= 2, "expected automatic fixes for at least two GPU fixtures, got %d",
                compared);
  ck_assert_msg(problems == 0, "%d problem(s):\n%s", problems, wl_buf_str(&report));
  wl_buf_free(&report);
}
END_TEST

/* The matcher itself must fail on a missing and on an unexpected finding. */
START_TEST(test_matcher_fails_both_ways) {
  char path[] = "/tmp/warplint-fixture-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs("line one // expect: legacy-intrinsic\nline two\n", f);
  fclose(f);
  wl_findings fs;
  wl_findings_init(&fs);
  wl_buf rep;
  wl_buf_init(&rep);
  ck_assert_int_eq(wl_fixture_compare(path, "legacy-intrinsic", &fs, &rep, NULL), 1); /* missing */
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 2, 1, 2, 2, "m");
  ck_assert_int_eq(wl_fixture_compare(path, "legacy-intrinsic", &fs, &rep, NULL),
                   2); /* + unexpected */
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 1, 1, 1, 2, "m");
  ck_assert_int_eq(wl_fixture_compare(path, "legacy-intrinsic", &fs, &rep, NULL), 1);
  wl_findings_add(&fs, "other-rule", WL_SEV_WARNING, path, 2, 1, 2, 2, "m");
  ck_assert_int_eq(wl_fixture_compare(path, "legacy-intrinsic", &fs, &rep, NULL), 1);
  wl_findings_free(&fs);
  wl_buf_free(&rep);
  remove(path);
}
END_TEST

static char *temp_fixture(const char *text) {
  char path[] = "/tmp/warplint-fixture-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  return wl_xstrdup(path);
}

static int compare(const char *path, const wl_findings *fs, wl_buf *rep, wl_buf *missed) {
  wl_buf_free(rep); /* empty again */
  if (missed)
    wl_buf_free(missed);
  return wl_fixture_compare(path, "legacy-intrinsic", fs, rep, missed);
}

/* Column and message constraints: a finding elsewhere on the line, or with
 * another message, does not fulfil them (and is unexpected). */
START_TEST(test_matcher_column_and_message) {
  char *path =
      temp_fixture("a // expect: legacy-intrinsic col=3 msg=\"say \\\"hi\\\"\"\n"
                   "b // expect: legacy-intrinsic x2 col=5\n"
                   "c\n"
                   "// expect@-1: legacy-intrinsic msg=\"long message\" -- prose after it\n"
                   "d // expectations in prose, expect:not-an-annotation\n");
  ck_assert_int_eq(wl_fixture_count_expectations(path), 4);
  wl_findings fs;
  wl_findings_init(&fs);
  wl_buf rep;
  wl_buf_init(&rep);
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 1, 3, 1, 4, "say \"hi\"");
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 2, 5, 2, 6, "m");
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 2, 5, 2, 6, "m2");
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 3, 9, 3, 10, "long message");
  ck_assert_int_eq(compare(path, &fs, &rep, NULL), 0);
  fs.v[0].col = 4; /* wrong column: unexpected, and the expectation unmet */
  ck_assert_int_eq(compare(path, &fs, &rep, NULL), 2);
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&rep), ":1: expected 1 finding(s) of [legacy-intrinsic] "
                                                 "at column 3 with the message \"say \"hi\"\""));
  fs.v[0].col = 3;
  free(fs.v[3].message);
  fs.v[3].message = wl_xstrdup("long message!"); /* the message is matched whole */
  ck_assert_int_eq(compare(path, &fs, &rep, NULL), 2);
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&rep), ":3: expected 1 finding(s)"));
  wl_findings_free(&fs);
  wl_buf_free(&rep);
  remove(path);
  free(path);
}
END_TEST

/* A known miss is reported as such while it is missed, and fails the
 * comparison once the rule finds it, so that it gets promoted. */
START_TEST(test_matcher_known_miss) {
  char *path = temp_fixture("a // expect: legacy-intrinsic\n"
                            "b // expect-missed: legacy-intrinsic col=2 -- not followed yet\n");
  ck_assert_int_eq(wl_fixture_count_expectations(path), 1);
  wl_findings fs;
  wl_findings_init(&fs);
  wl_buf rep, missed;
  wl_buf_init(&rep);
  wl_buf_init(&missed);
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 1, 1, 1, 2, "m");
  ck_assert_int_eq(compare(path, &fs, &rep, &missed), 0);
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&missed),
                               ":2: known miss: 1 finding(s) of "
                               "[legacy-intrinsic] at column 2 (expect-missed)"));
  wl_findings_add(&fs, "legacy-intrinsic", WL_SEV_WARNING, path, 2, 2, 2, 3, "m");
  ck_assert_int_eq(compare(path, &fs, &rep, &missed), 1);
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&rep), "known miss found [legacy-intrinsic]: promote"));
  ck_assert_str_eq(wl_buf_str(&missed), "");
  wl_findings_free(&fs);
  wl_buf_free(&rep);
  wl_buf_free(&missed);
  remove(path);
  free(path);
}
END_TEST

Suite *wl_suite_fixtures(void) {
  collect_cases();
  Suite *s = suite_create("fixtures");
  TCase *tc = tcase_create("per-file");
  tcase_set_timeout(tc, 300);
  tcase_add_loop_test(tc, test_fixture_file, 0, (int)ncases);
  suite_add_tcase(s, tc);
  TCase *b = tcase_create("batches");
  tcase_set_timeout(b, 300);
  tcase_add_loop_test(b, test_fixture_batches, 0, (int)ncases);
  suite_add_tcase(s, b);
  TCase *g = tcase_create("gpu");
  tcase_set_timeout(g, 300);
  tcase_add_test(g, test_gpu_fixtures);
  tcase_add_test(g, test_fixed_goldens);
  tcase_add_test(g, test_gpu_fixed_is_fix_output);
  suite_add_tcase(s, g);
  TCase *m = tcase_create("meta");
  tcase_add_test(m, test_rule_completeness);
  tcase_add_test(m, test_matcher_fails_both_ways);
  tcase_add_test(m, test_matcher_column_and_message);
  tcase_add_test(m, test_matcher_known_miss);
  suite_add_tcase(s, m);
  return s;
}
