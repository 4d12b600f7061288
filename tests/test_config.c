/* test_config.c - the .warplint parser (every key, both list syntaxes, the
 * errors with their file:line) and the exclude globs. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rules.h"

Suite *wl_suite_config(void);

static size_t rule_index(const char *id) {
  const wl_rule *r = wl_rule_find(id);
  ck_assert_ptr_nonnull(r);
  return wl_rule_index(r);
}

START_TEST(test_full_config) {
  const char *text = "# warplint settings\n"
                     "; also a comment\n"
                     "\n"
                     "exclude = build/**, third_party/**\n"
                     "extensions = [\"cu\", \".cuh\", 'cuda']\n"
                     "clang-args = -DFOO -Iinclude -I /abs \"-DMSG=a b\" -isystem ext\n"
                     "cuda-arch = \"sm_80\"   # Ampere\n"
                     "\n"
                     "[rules]\n"
                     "legacy-intrinsic = error # was: warning\n"
                     "# exclude = \"#not-a-comment\"\n";
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(wl_config_parse("/p/.warplint", "/p", text, &c, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(c.exclude.n, 2);
  ck_assert_str_eq(c.exclude.v[1], "third_party/**");
  wl_config_free(&c);
  /* '#' inside quotes or not after a blank is not a comment */
  ck_assert(wl_config_parse("/p/.warplint", "/p", "exclude = \"a #b\", c#d  # e\n", &c, &err));
  ck_assert_uint_eq(c.exclude.n, 2);
  ck_assert_str_eq(c.exclude.v[0], "a #b");
  ck_assert_str_eq(c.exclude.v[1], "c#d");
  wl_config_free(&c);
  ck_assert(wl_config_parse("/p/.warplint", "/p", text, &c, &err));
  ck_assert_uint_eq(c.extensions.n, 3);
  ck_assert_str_eq(c.extensions.v[1], "cuh");
  ck_assert_str_eq(c.extensions.v[2], "cuda");
  ck_assert_uint_eq(c.clang_args.n, 7);
  ck_assert_str_eq(c.clang_args.v[0], "-DFOO");
  ck_assert_str_eq(c.clang_args.v[1], "-I/p/include");
  ck_assert_str_eq(c.clang_args.v[2], "-I");
  ck_assert_str_eq(c.clang_args.v[3], "/abs");
  ck_assert_str_eq(c.clang_args.v[4], "-DMSG=a b");
  ck_assert_str_eq(c.clang_args.v[5], "-isystem");
  ck_assert_str_eq(c.clang_args.v[6], "/p/ext");
  ck_assert_uint_eq(c.arch, 80);
  size_t li = rule_index("legacy-intrinsic");
  ck_assert_int_eq(c.rules[li], WL_RULE_ON);
  ck_assert_int_eq(c.severity[li], WL_SEV_ERROR);
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

START_TEST(test_rule_values) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  size_t li = rule_index("legacy-intrinsic");
  ck_assert(wl_config_parse("x", "/", "[rules]\nlegacy-intrinsic = off\n", &c, &err));
  ck_assert_int_eq(c.rules[li], WL_RULE_OFF);
  wl_config_free(&c);
  ck_assert(wl_config_parse("x", "/", "[ rules ]\nlegacy-intrinsic = on\n", &c, &err));
  ck_assert_int_eq(c.rules[li], WL_RULE_ON);
  ck_assert_int_eq(c.severity[li], wl_rules[li].severity);
  wl_config_free(&c);
  ck_assert(wl_config_parse("x", "/", "[rules]\nlegacy-intrinsic = 'note'\n", &c, &err));
  ck_assert_int_eq(c.severity[li], WL_SEV_NOTE);
  wl_config_free(&c);
  ck_assert(wl_config_parse("x", "/", "", &c, &err)); /* empty is fine */
  ck_assert_int_eq(c.rules[li], WL_RULE_UNSET);
  ck_assert_uint_eq(c.extensions.n, 0);
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

/* Each bad config gives an error naming file and line. */
static const struct {
  const char *text;
  const char *error;
} bad[] = {
    {"exclude = a\nfoo = 1\n", ".warplint:2: unknown key 'foo'"},
    {"[rules]\nno-such-rule = off\n", ".warplint:2: unknown rule 'no-such-rule'"},
    {"[rules]\nlegacy-intrinsic = loud\n", ".warplint:2: legacy-intrinsic: 'loud' is not one of"},
    {"[checks]\n", ".warplint:1: unknown section '[checks]'"},
    {"[rules\n", ".warplint:1: a section header must end with ']'"},
    {"\n\njust words\n", ".warplint:3: expected 'key = value'"},
    {"cuda-arch = sm_banana\n", ".warplint:1: cuda-arch: 'sm_banana' is not a GPU architecture"},
    {"extensions = .c u\n", ".warplint:1: extensions: 'c u' is not a file extension"},
    {"extensions = ,\n", ".warplint:1: extensions: the list is empty"},
    {"exclude = [a, b\n", ".warplint:1: exclude: a list that starts with '['"},
    {"clang-args = -DX 'open\n", ".warplint:1: clang-args: unterminated single quote"},
    {"exclude = a\nexclude = b\n", ".warplint:2: 'exclude' set twice (first on line 1)"},
    {"[rules]\nlegacy-intrinsic = off\nlegacy-intrinsic = on\n",
     ".warplint:3: rule 'legacy-intrinsic' set twice (first on line 2)"},
    {"[rules]\nexclude = a\n", ".warplint:2: 'exclude' belongs before the [rules] section"},
    {"legacy-intrinsic = off\n", ".warplint:1: rule 'legacy-intrinsic' must be set in the [rules]"},
    {" = x\n", ".warplint:1: missing key"},
    /* clang-args: only the allow-list (include paths, macros, language, standard, warnings) */
    {"\nclang-args = -DOK -Xclang -header-include-file -Xclang ../x -H\n",
     ".warplint:2: clang-args: '-Xclang' is not allowed: it passes arguments to clang's internals"},
    {"clang-args = -H\n", ".warplint:1: clang-args: '-H' is not allowed: it writes"},
    {"clang-args = -fplugin=/tmp/evil.so\n", ".warplint:1: clang-args: '-fplugin=/tmp/evil.so' is "
                                             "not allowed: it loads code"},
    {"clang-args = -load evil.so\n", ".warplint:1: clang-args: '-load' is not allowed"},
    {"clang-args = -MD -MF dep.d\n", ".warplint:1: clang-args: '-MD' is not allowed: it writes"},
    {"clang-args = -o out\n", ".warplint:1: clang-args: '-o' is not allowed: it writes a file"},
    {"clang-args = @args.rsp\n", ".warplint:1: clang-args: '@args.rsp' is not allowed: response"},
    {"clang-args = --serialize-diagnostics d\n", ".warplint:1: clang-args: "
                                                 "'--serialize-diagnostics' is not allowed"},
    {"clang-args = -Wp,-MD,dep.d\n", ".warplint:1: clang-args: '-Wp,-MD,dep.d' is not allowed"},
    {"clang-args = -mllvm -x\n", ".warplint:1: clang-args: '-mllvm' is not allowed"},
    {"clang-args = -include-pch x.pch\n", ".warplint:1: clang-args: '-include-pch' is not allowed"},
    {"clang-args = -DA -- /etc/passwd\n", ".warplint:1: clang-args: '--' is not allowed"},
    {"clang-args = extra.cu\n", ".warplint:1: clang-args: 'extra.cu' is not allowed: not a flag"},
    {"clang-args = -x 'c++;rm'\n", ".warplint:1: clang-args: '-x' is not allowed: not a language"},
    {"clang-args = --cuda-gpu-arch=sm_80\n", ".warplint:1: clang-args: '--cuda-gpu-arch=sm_80' is "
                                             "not allowed: set the architecture with"},
    {"clang-args = [\"-DA\", \"-Xclang\", \"-load\"]\n", ".warplint:1: clang-args: '-Xclang'"},
};

/* What clang-args may hold (argtrust.h). */
START_TEST(test_clang_args_allowed) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  const char *text = "clang-args = -DA -D B -UC -U D -Iinc -I inc -isystem s -iquote q -idirafter "
                     "d -include pre.h -imacros m.h -std=c++17 --std=c++14 -x cuda -xcuda -Wall "
                     "-Wno-unused -Werror=shadow -w -O2 -g -fno-exceptions -nocudainc -nocudalib "
                     "-m64 -pthread -fgnuc-version=12 --cuda-path=/usr/local/cuda\n";
  ck_assert_msg(wl_config_parse("/p/.warplint", "/p", text, &c, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(c.clang_args.n, 37);
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

START_TEST(test_lane_assumptions) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_config_parse("/p/.warplint", "/p", "cuda-arch = sm_80\n", &c, &err));
  ck_assert_int_eq(c.whole_warps, -1);
  ck_assert_int_eq(c.rows_are_warps, -1);
  wl_config_free(&c);
  ck_assert(wl_config_parse("/p/.warplint", "/p",
                            "whole-warps = false\nrows-are-warps = \"true\"\n", &c, &err));
  ck_assert_int_eq(c.whole_warps, 0);
  ck_assert_int_eq(c.rows_are_warps, 1);
  wl_config_free(&c);
  ck_assert(!wl_config_parse("/p/.warplint", "/p", "\nrows-are-warps = 3\n", &c, &err));
  ck_assert_ptr_nonnull(
      strstr(wl_buf_str(&err), "/p/.warplint:2: rows-are-warps: '3' is not true or false"));
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

START_TEST(test_errors) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(!wl_config_parse("/p/.warplint", "/p", bad[_i].text, &c, &err), "case %d parsed",
                _i);
  ck_assert_msg(strstr(wl_buf_str(&err), bad[_i].error) != NULL, "case %d: '%s' lacks '%s'", _i,
                wl_buf_str(&err), bad[_i].error);
  ck_assert_msg(strncmp(wl_buf_str(&err), "/p/.warplint:", 13) == 0, "no file name: %s",
                wl_buf_str(&err));
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

START_TEST(test_load_missing) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(!wl_config_load("/no/such/.warplint", &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "/no/such/.warplint: cannot read"));
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

static const struct {
  const char *pattern, *path;
  bool match;
} globs[] = {
    {"build/**", "build/x.cu", true},
    {"build/**", "build/a/b/x.cu", true},
    {"build/**", "src/build/x.cu", false},
    {"build", "src/build/x.cu", true}, /* no slash: any component */
    {"build/", "build/x.cu", true},
    {"/build", "src/build/x.cu", false},
    {"*.gen.cu", "a/b/k.gen.cu", true},
    {"*.gen.cu", "a/b/k.cu", false},
    {"third_party/**", "third_party/cub/warp.cuh", true},
    {"src/*.cu", "src/a.cu", true},
    {"src/*.cu", "src/sub/a.cu", false},
    {"src/**/*.cu", "src/a.cu", true},
    {"src/**/*.cu", "src/x/y/a.cu", true},
    {"src/**/legacy", "src/x/legacy/a.cu", true},
    {"**/legacy/*.cu", "legacy/a.cu", true},
    {"**/legacy/*.cu", "a/b/legacy/a.cu", true},
    {"./src/a.cu", "src/a.cu", true},
    {"src/a?.cu", "src/ab.cu", true},
    {"src/[xy].cu", "src/z.cu", false},
};

START_TEST(test_globs) {
  ck_assert_msg(wl_glob_match(globs[_i].pattern, globs[_i].path) == globs[_i].match, "'%s' vs '%s'",
                globs[_i].pattern, globs[_i].path);
}
END_TEST

START_TEST(test_excludes_relative_to_config) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_config_parse("/p/.warplint", "/p", "exclude = build/**\n", &c, &err));
  ck_assert(wl_config_excludes(&c, "/p/build/a.cu"));
  ck_assert(!wl_config_excludes(&c, "/p/src/a.cu"));
  ck_assert(!wl_config_excludes(&c, "/q/build/a.cu")); /* not under the config */
  ck_assert(!wl_config_excludes(&c, "/pbuild/a.cu"));
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

Suite *wl_suite_config(void) {
  Suite *s = suite_create("config");
  TCase *tc = tcase_create("parse");
  tcase_add_test(tc, test_full_config);
  tcase_add_test(tc, test_rule_values);
  tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof bad / sizeof bad[0]));
  tcase_add_test(tc, test_load_missing);
  tcase_add_test(tc, test_lane_assumptions);
  tcase_add_test(tc, test_clang_args_allowed);
  suite_add_tcase(s, tc);
  tc = tcase_create("globs");
  tcase_add_loop_test(tc, test_globs, 0, (int)(sizeof globs / sizeof globs[0]));
  tcase_add_test(tc, test_excludes_relative_to_config);
  suite_add_tcase(s, tc);
  return s;
}
