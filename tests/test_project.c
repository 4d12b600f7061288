/* test_project.c - the project root (nearest .git, a directory or a
 * worktree's file; else the current directory) and wl_path_within. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compdb.h"
#include "project.h"

Suite *wl_suite_project(void);

static char *join(const char *a, const char *b) {
  size_t n = strlen(a) + strlen(b) + 2;
  char *s = malloc(n);
  snprintf(s, n, "%s/%s", a, b);
  return s;
}

START_TEST(test_root_of) {
  char tmpl[] = "/tmp/wl_project_XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(tmpl));
  char *base = wl_canonical_path(tmpl);
  char *repo = join(base, "repo"), *git = join(repo, ".git"), *deep = join(repo, "a/b");
  char *a = join(repo, "a");
  ck_assert_int_eq(mkdir(repo, 0700), 0);
  ck_assert_int_eq(mkdir(a, 0700), 0);
  ck_assert_int_eq(mkdir(deep, 0700), 0);
  /* no .git anywhere up to / (the temporary directory is outside any repository) */
  ck_assert_ptr_null(wl_project_root_of(deep));
  ck_assert_int_eq(mkdir(git, 0700), 0);
  char *r = wl_project_root_of(deep);
  ck_assert_str_eq(r, repo);
  free(r);
  /* a file (existing or not) starts at its directory */
  char *file = join(deep, "k.cu");
  r = wl_project_root_of(file);
  ck_assert_str_eq(r, repo);
  free(r);
  r = wl_project_root_of(repo);
  ck_assert_str_eq(r, repo);
  free(r);
  /* a worktree or submodule has a .git file: the nearer root wins */
  char *subgit = join(a, ".git");
  FILE *f = fopen(subgit, "w");
  ck_assert_ptr_nonnull(f);
  fputs("gitdir: ../.git/worktrees/a\n", f);
  fclose(f);
  r = wl_project_root_of(file);
  ck_assert_str_eq(r, a);
  free(r);
  /* the current directory's root, and the current directory outside a repository */
  char cwd[4096];
  ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
  ck_assert_int_eq(chdir(deep), 0);
  r = wl_project_root();
  ck_assert_str_eq(r, a);
  free(r);
  ck_assert_int_eq(chdir(base), 0);
  r = wl_project_root();
  ck_assert_str_eq(r, base);
  free(r);
  ck_assert_int_eq(chdir(cwd), 0);
  unlink(subgit);
  rmdir(git);
  rmdir(deep);
  rmdir(a);
  rmdir(repo);
  rmdir(base);
  free(subgit);
  free(file);
  free(a);
  free(deep);
  free(git);
  free(repo);
  free(base);
}
END_TEST

START_TEST(test_within) {
  ck_assert(wl_path_within("/a/b", "/a/b"));
  ck_assert(wl_path_within("/a/b/c.cu", "/a/b"));
  ck_assert(!wl_path_within("/a/bc/c.cu", "/a/b"));
  ck_assert(!wl_path_within("/a", "/a/b"));
  ck_assert(wl_path_within("/x", "/"));
}
END_TEST

Suite *wl_suite_project(void) {
  Suite *s = suite_create("project");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_root_of);
  tcase_add_test(tc, test_within);
  suite_add_tcase(s, tc);
  return s;
}
