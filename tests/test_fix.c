/* test_fix.c - the fix engine: plans without overlaps, text application,
 * atomic writes that keep permissions, diffs and clang-tidy YAML. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

Suite *wl_suite_fix(void);

static wl_finding *fixable(wl_findings *f, unsigned line, unsigned off, unsigned len,
                           const char *text) {
  wl_finding *fd =
      wl_findings_add(f, "legacy-intrinsic", WL_SEV_WARNING, "k.cu", line, 1, line, 2, "m");
  wl_finding_add_edit(fd, "k.cu", off, len, text);
  return fd;
}

START_TEST(test_plan_skips_overlaps_and_merges_duplicates) {
  wl_findings f;
  wl_findings_init(&f);
  fixable(&f, 1, 10, 5, "AAAAA");
  fixable(&f, 1, 12, 5, "B");    /* overlaps the first and goes past it: skipped */
  fixable(&f, 2, 30, 0, "ins");  /* insertion */
  fixable(&f, 2, 30, 0, "ins");  /* identical edit from another finding: taken once */
  fixable(&f, 2, 30, 0, "ins2"); /* another insertion at the same point: kept */
  fixable(&f, 1, 11, 0, "in");   /* inside code the first one replaces: covered by it */
  wl_finding *two = fixable(&f, 3, 40, 1, "x");
  wl_finding_add_edit(two, "k.cu", 5, 0, "y"); /* a finding with two edits, unsorted */
  wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "k.cu", 4, 1, 4, 2, "no fix");
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, &f);
  ck_assert_uint_eq(plan.nfiles, 1);
  ck_assert_uint_eq(plan.skipped, 1);
  ck_assert(plan.taken[0] && !plan.taken[1] && plan.taken[5] && !plan.taken[8]);
  ck_assert_uint_eq(plan.files[0].nfindings, 5);
  ck_assert_uint_eq(plan.files[0].nedits, 5);
  ck_assert_uint_eq(plan.files[0].edits[0].offset, 5);
  ck_assert_uint_eq(plan.files[0].edits[1].offset, 10);
  ck_assert_uint_eq(plan.files[0].edits[2].offset, 30);
  ck_assert_str_eq(plan.files[0].edits[2].text, "ins");
  ck_assert_str_eq(plan.files[0].edits[3].text, "ins2");
  ck_assert_uint_eq(plan.files[0].edits[4].offset, 40);
  wl_fix_plan_free(&plan);
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_apply_text) {
  const char *src = "v += __shfl_down(v, 1);\n";
  wl_edit e[2] = {{"k.cu", 5, 11, "__shfl_down_sync"}, {"k.cu", 17, 0, "0xffffffff, "}};
  wl_buf out;
  wl_buf_init(&out);
  ck_assert(wl_fix_apply_text(src, strlen(src), e, 2, &out));
  ck_assert_str_eq(wl_buf_str(&out), "v += __shfl_down_sync(0xffffffff, v, 1);\n");
  wl_buf_free(&out);
  wl_edit bad = {"k.cu", 100, 1, "x"};
  wl_buf_init(&out);
  ck_assert(!wl_fix_apply_text(src, strlen(src), &bad, 1, &out));
  wl_buf_free(&out);
}
END_TEST

START_TEST(test_atomic_write_keeps_mode) {
  char path[] = "/tmp/warplint-fix-XXXXXX";
  int fd = mkstemp(path);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(write(fd, "old\n", 4), 4);
  close(fd);
  ck_assert_int_eq(chmod(path, 0751), 0);
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_write_file_atomic(path, "new contents\n", 13, &err));
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_uint_eq(st.st_mode & 07777, 0751);
  size_t len = 0;
  char *back = wl_read_file(path, &len);
  ck_assert_str_eq(back, "new contents\n");
  free(back);
  /* a file that does not exist is not created */
  ck_assert(!wl_write_file_atomic("/nonexistent-dir/x.cu", "x", 1, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "/nonexistent-dir/x.cu"));
  wl_buf_free(&err);
  remove(path);
}
END_TEST

START_TEST(test_unified_diff) {
  const char *src = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\n";
  /* line 2 (b) replaced, line 15 (o) gets an inserted line before it */
  wl_edit e[2] = {{"k.cu", 2, 1, "B"}, {"k.cu", 28, 0, "new\n"}};
  wl_buf out;
  wl_buf_init(&out);
  ck_assert(wl_unified_diff("k.cu", src, strlen(src), e, 2, &out));
  ck_assert_str_eq(wl_buf_str(&out), "--- a/k.cu\n+++ b/k.cu\n"
                                     "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
                                     "@@ -12,5 +12,6 @@\n l\n m\n n\n+new\n o\n p\n");
  wl_buf_free(&out);
}
END_TEST

START_TEST(test_export_yaml) {
  wl_findings f;
  wl_findings_init(&f);
  fixable(&f, 1, 10, 5, "a \"quoted\"\nline");
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml(m, &f, "k.cu"));
  fclose(m);
  ck_assert_ptr_nonnull(strstr(buf, "MainSourceFile: \"k.cu\""));
  ck_assert_ptr_nonnull(strstr(buf, "DiagnosticName: \"legacy-intrinsic\""));
  ck_assert_ptr_nonnull(strstr(buf, "Offset: 10\n          Length: 5\n"));
  ck_assert_ptr_nonnull(strstr(buf, "ReplacementText: \"a \\\"quoted\\\"\\nline\""));
  free(buf);
  wl_findings_free(&f);
  wl_findings_init(&f);
  m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml(m, &f, "k.cu"));
  fclose(m);
  ck_assert_ptr_nonnull(strstr(buf, "Diagnostics: []"));
  free(buf);
}
END_TEST

Suite *wl_suite_fix(void) {
  Suite *s = suite_create("fix");
  TCase *tc = tcase_create("engine");
  tcase_add_test(tc, test_plan_skips_overlaps_and_merges_duplicates);
  tcase_add_test(tc, test_apply_text);
  tcase_add_test(tc, test_atomic_write_keeps_mode);
  tcase_add_test(tc, test_unified_diff);
  tcase_add_test(tc, test_export_yaml);
  suite_add_tcase(s, tc);
  return s;
}
