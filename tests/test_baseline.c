/* test_baseline.c - baseline files: matching survives line shifts and path
 * spellings, identical lines count as occurrences, new findings get
 * through, writes are atomic, bad files are rejected with a reason. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "baseline.h"

Suite *wl_suite_baseline(void);

#define RULE "legacy-intrinsic"

typedef struct tmp_dir {
  char path[64];
} tmp_dir;

static void make_dir(tmp_dir *d) {
  snprintf(d->path, sizeof d->path, "/tmp/wl-baseline-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(d->path));
}

static void remove_dir(tmp_dir *d) {
  DIR *dir = opendir(d->path);
  struct dirent *de;
  char p[384];
  while (dir && (de = readdir(dir)) != NULL) {
    if (de->d_name[0] == '.' && (!de->d_name[1] || (de->d_name[1] == '.' && !de->d_name[2])))
      continue;
    snprintf(p, sizeof p, "%s/%s", d->path, de->d_name);
    unlink(p);
  }
  if (dir)
    closedir(dir);
  rmdir(d->path);
}

static size_t count_entries(const tmp_dir *d) {
  DIR *dir = opendir(d->path);
  size_t n = 0;
  struct dirent *de;
  while (dir && (de = readdir(dir)) != NULL)
    n += de->d_name[0] != '.';
  if (dir)
    closedir(dir);
  return n;
}

static void add(wl_findings *f, const char *file, unsigned line, const char *text) {
  wl_finding *fd = wl_findings_add(f, RULE, WL_SEV_WARNING, file, line, 5, line, 9, "msg");
  wl_finding_set_line_text(fd, text, strlen(text));
}

/* The legacy tree: three findings, two on identical lines. */
static void legacy(wl_findings *f, const char *file, unsigned shift) {
  wl_findings_init(f);
  add(f, file, 10 + shift, "  v += __shfl_down(v, 16);");
  add(f, file, 20 + shift, "  v += __shfl_down(v, 16);");
  add(f, file, 30 + shift, "  b = __ballot(p);");
  wl_findings_sort_dedup(f);
}

START_TEST(test_write_then_match) {
  tmp_dir d;
  make_dir(&d);
  char base[128], file[128], other_spelling[160];
  snprintf(base, sizeof base, "%s/warplint-baseline.json", d.path);
  snprintf(file, sizeof file, "%s/src/k.cu", d.path);
  snprintf(other_spelling, sizeof other_spelling, "%s/src/../src/./k.cu", d.path);
  wl_findings f;
  legacy(&f, file, 0);
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(wl_baseline_write(base, NULL, &f, &err), "%s", wl_buf_str(&err));
  wl_findings_free(&f);
  ck_assert_uint_eq(count_entries(&d), 1); /* no temporary file left */

  wl_baseline b;
  ck_assert_msg(wl_baseline_load(base, &b, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(b.n, 3);

  /* lines moved by an edit above, path spelt differently, whitespace changed */
  legacy(&f, other_spelling, 7);
  free(f.v[2].line_text);
  f.v[2].line_text = strdup("\tb =   __ballot(p);  ");
  ck_assert_uint_eq(wl_baseline_filter(&b, &f), 3);
  ck_assert_uint_eq(f.n, 0);
  wl_findings_free(&f);

  /* a third identical line and a new finding get through */
  legacy(&f, file, 0);
  add(&f, file, 40, "  v += __shfl_down(v, 16);");
  add(&f, file, 50, "  v += __shfl_xor(v, 1);");
  wl_findings_sort_dedup(&f);
  ck_assert_uint_eq(wl_baseline_filter(&b, &f), 3);
  ck_assert_uint_eq(f.n, 2);
  ck_assert_uint_eq(f.v[0].line, 40);
  ck_assert_uint_eq(f.v[1].line, 50);
  wl_findings_free(&f);

  /* the same text in another file is another finding */
  legacy(&f, "/elsewhere/k.cu", 0);
  ck_assert_uint_eq(wl_baseline_filter(&b, &f), 0);
  wl_findings_free(&f);

  wl_baseline_free(&b);
  wl_buf_free(&err);
  remove_dir(&d);
}
END_TEST

START_TEST(test_rewrite_keeps_mode) {
  tmp_dir d;
  make_dir(&d);
  char base[128];
  snprintf(base, sizeof base, "%s/b.json", d.path);
  FILE *fp = fopen(base, "w");
  fputs("old", fp);
  fclose(fp);
  chmod(base, 0640);
  wl_findings f;
  legacy(&f, "k.cu", 0);
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_baseline_write(base, NULL, &f, &err));
  struct stat st;
  ck_assert_int_eq(stat(base, &st), 0);
  ck_assert_int_eq(st.st_mode & 0777, 0640);
  ck_assert_uint_eq(count_entries(&d), 1);
  /* a directory that does not exist: an error, nothing written */
  char bad[160];
  snprintf(bad, sizeof bad, "%s/missing/b.json", d.path);
  ck_assert(!wl_baseline_write(bad, NULL, &f, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "missing/b.json"));
  wl_findings_free(&f);
  wl_buf_free(&err);
  remove_dir(&d);
}
END_TEST

static const struct {
  const char *text;
  const char *error;
} bad[] = {
    {"not json", "invalid JSON"},
    {"[]", "not a warplint baseline"},
    {"{\"findings\": []}", "not a warplint baseline"},
    {"{\"warplint_baseline\": 99, \"findings\": []}", "version 99 is not supported"},
    {"{\"warplint_baseline\": 1, \"findings\": [{\"fingerprint\": \"xyz\"}]}",
     "finding 1 has no valid \"fingerprint\""},
    {"{\"warplint_baseline\": 1, \"findings\": [{\"rule\": \"r\"}]}", "finding 1 has no valid"},
};

START_TEST(test_bad_files) {
  tmp_dir d;
  make_dir(&d);
  char base[128];
  snprintf(base, sizeof base, "%s/b.json", d.path);
  FILE *fp = fopen(base, "w");
  fputs(bad[_i].text, fp);
  fclose(fp);
  wl_baseline b;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(!wl_baseline_load(base, &b, &err));
  ck_assert_msg(strstr(wl_buf_str(&err), bad[_i].error) != NULL, "case %d: %s", _i,
                wl_buf_str(&err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "b.json"));
  wl_buf_free(&err);
  remove_dir(&d);
}
END_TEST

START_TEST(test_missing_file) {
  wl_baseline b;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(!wl_baseline_load("/no/such/baseline.json", &b, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "/no/such/baseline.json: cannot read"));
  wl_buf_free(&err);
}
END_TEST

Suite *wl_suite_baseline(void) {
  Suite *s = suite_create("baseline");
  TCase *tc = tcase_create("baseline");
  tcase_add_test(tc, test_write_then_match);
  tcase_add_test(tc, test_rewrite_keeps_mode);
  tcase_add_loop_test(tc, test_bad_files, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(tc, test_missing_file);
  suite_add_tcase(s, tc);
  return s;
}
