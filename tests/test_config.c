/* test_config.c - the .warplint parser (every key, both list syntaxes, the
 * errors with their file:line), the exclude globs, per-file ignores and
 * inheritance (inherit, extend). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    {"inherit = yes\n", ".warplint:1: inherit: 'yes' is not true or false"},
    {"inherit = true\nextend = ../x\n", ".warplint:2: inherit and extend cannot both be given"},
    {"extend = \"\"\n", ".warplint:1: extend: expected the path"},
    {"[per-file-ignores]\n\"tests/*\" = no-such-rule\n",
     ".warplint:2: per-file-ignores: tests/*: unknown rule 'no-such-rule'"},
    {"[per-file-ignores]\ntests/* = nope-*\n", ".warplint:2: per-file-ignores: tests/*: unknown "
                                               "rule 'nope-*'"},
    {"[per-file-ignores]\na.cu = ,\n", ".warplint:2: per-file-ignores: a.cu: no rule given"},
    {"[per-file-ignores]\na.cu = legacy-intrinsic\na.cu = missing-syncwarp\n",
     ".warplint:3: per-file-ignores: 'a.cu' given twice"},
    {"[ignores]\n", ".warplint:1: unknown section '[ignores]' (the sections are [rules] and "
                    "[per-file-ignores])"},
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

START_TEST(test_per_file_ignores) {
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  const char *text = "[per-file-ignores]\n"
                     "\"tests/*.cu\" = missing-syncwarp, legacy-intrinsic\n"
                     "'gen/**' = [\"legacy-*\"]   # a glob of rule ids\n"
                     "\"odd=name.cu\" = *\n"
                     "vendor = unused-suppression\n";
  ck_assert_msg(wl_config_parse("/p/.warplint", "/p", text, &c, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(c.file_ignores.n, 4);
  ck_assert(wl_config_ignores(&c, "/p/tests/a.cu", "missing-syncwarp"));
  ck_assert(wl_config_ignores(&c, "/p/tests/a.cu", "legacy-intrinsic"));
  ck_assert(!wl_config_ignores(&c, "/p/tests/a.cu", "full-mask-divergent"));
  ck_assert(!wl_config_ignores(&c, "/p/tests/sub/a.cu", "legacy-intrinsic")); /* '*': one level */
  ck_assert(!wl_config_ignores(&c, "/p/src/a.cu", "legacy-intrinsic"));
  ck_assert(!wl_config_ignores(&c, "/q/tests/a.cu", "legacy-intrinsic")); /* not below the config */
  ck_assert(wl_config_ignores(&c, "/p/gen/x/y.cuh", "legacy-intrinsic"));
  ck_assert(!wl_config_ignores(&c, "/p/gen/x/y.cuh", "missing-syncwarp"));
  ck_assert(wl_config_ignores(&c, "/p/odd=name.cu", "mask-excludes-caller"));
  ck_assert(wl_config_ignores(&c, "/p/a/vendor/b.cu", "unused-suppression")); /* any component */
  wl_config_free(&c);
  wl_buf_free(&err);
}
END_TEST

/* A scratch tree: root/.git, root/.warplint, root/sub/.warplint, root/cfg/base.warplint. */
static char *scratch(void) {
  char tmpl[] = "/tmp/wl_cfg_XXXXXX";
  char *d = mkdtemp(tmpl);
  ck_assert_ptr_nonnull(d);
  return strdup(d);
}

static void put(const char *root, const char *rel, const char *text) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", root, rel);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static void rm_tree(const char *root) {
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
  ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_inherit_merges) {
  char *root = scratch();
  char path[512];
  snprintf(path, sizeof path, "%s/sub", root);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  put(root, ".warplint",
      "exclude = build/**\nclang-args = -DA=1\ncuda-arch = sm_80\nwhole-warps = false\n"
      "[rules]\nlegacy-intrinsic = error\nmissing-syncwarp = off\nfull-mask-divergent = note\n"
      "[per-file-ignores]\n\"sub/t*.cu\" = legacy-intrinsic\n");
  put(root, "sub/.warplint",
      "inherit = true\nexclude = gen/**\nclang-args = -DA=2\n"
      "[rules]\nlegacy-intrinsic = on\nfull-mask-divergent = off\n");
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  snprintf(path, sizeof path, "%s/sub/.warplint", root);
  ck_assert_msg(wl_config_load_tree(path, root, &c, &err), "%s", wl_buf_str(&err));
  size_t li = rule_index("legacy-intrinsic"), ms = rule_index("missing-syncwarp"),
         fm = rule_index("full-mask-divergent");
  ck_assert_int_eq(c.rules[li], WL_RULE_ON);
  ck_assert_int_eq(c.severity[li], WL_SEV_ERROR); /* "on" keeps the parent's severity */
  ck_assert_int_eq(c.rules[ms], WL_RULE_OFF);     /* from the parent */
  ck_assert_int_eq(c.rules[fm], WL_RULE_OFF);     /* the child wins */
  ck_assert_uint_eq(c.arch, 80);
  ck_assert_int_eq(c.whole_warps, 0);
  ck_assert_uint_eq(c.clang_args.n, 2); /* the parent's first */
  ck_assert_str_eq(c.clang_args.v[0], "-DA=1");
  ck_assert_str_eq(c.clang_args.v[1], "-DA=2");
  ck_assert_uint_eq(c.sources.n, 2);
  /* each glob relative to the file that wrote it */
  snprintf(path, sizeof path, "%s/build/x.cu", root);
  ck_assert(wl_config_excludes(&c, path));
  snprintf(path, sizeof path, "%s/sub/gen/x.cu", root);
  ck_assert(wl_config_excludes(&c, path));
  snprintf(path, sizeof path, "%s/gen/x.cu", root);
  ck_assert(!wl_config_excludes(&c, path));
  snprintf(path, sizeof path, "%s/sub/t1.cu", root);
  ck_assert(wl_config_ignores(&c, path, "legacy-intrinsic"));
  wl_config_free(&c);
  /* without inherit: the nearest file only */
  put(root, "sub/.warplint", "[rules]\nlegacy-intrinsic = on\n");
  snprintf(path, sizeof path, "%s/sub/.warplint", root);
  ck_assert(wl_config_load_tree(path, root, &c, &err));
  ck_assert_int_eq(c.severity[li], WL_SEV_WARNING);
  ck_assert_int_eq(c.rules[ms], WL_RULE_UNSET);
  ck_assert_uint_eq(c.exclude.n, 0);
  wl_config_free(&c);
  /* inherit stops at the root: the root's own file has nothing above it */
  put(root, ".warplint", "inherit = true\n[rules]\nmissing-syncwarp = off\n");
  snprintf(path, sizeof path, "%s/.warplint", root);
  ck_assert(wl_config_load_tree(path, root, &c, &err));
  ck_assert_uint_eq(c.sources.n, 1);
  wl_config_free(&c);
  /* a broken parent: the child fails with the parent's file and line */
  put(root, ".warplint", "\ncolour = blue\n");
  put(root, "sub/.warplint", "inherit = true\n");
  snprintf(path, sizeof path, "%s/sub/.warplint", root);
  ck_assert(!wl_config_load_tree(path, root, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "/.warplint:2: unknown key 'colour'"));
  wl_config_free(&c);
  wl_buf_free(&err);
  rm_tree(root);
  free(root);
}
END_TEST

START_TEST(test_extend) {
  char *root = scratch();
  char path[512], outside[512];
  snprintf(path, sizeof path, "%s/cfg", root);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/proj", root);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  snprintf(path, sizeof path, "%s/proj/cfg", root);
  ck_assert_int_eq(mkdir(path, 0700), 0);
  put(root, "proj/cfg/base.toml", "extensions = cu, cuda\n[rules]\nlegacy-intrinsic = note\n");
  put(root, "proj/.warplint", "extend = cfg/base.toml\n");
  wl_config c;
  wl_buf err;
  wl_buf_init(&err);
  char proj[512];
  snprintf(proj, sizeof proj, "%s/proj", root);
  snprintf(path, sizeof path, "%s/proj/.warplint", root);
  ck_assert_msg(wl_config_load_tree(path, proj, &c, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(c.extensions.n, 2);
  ck_assert_int_eq(c.severity[rule_index("legacy-intrinsic")], WL_SEV_NOTE);
  wl_config_free(&c);
  /* outside the project root: refused, even through a symbolic link */
  put(root, "cfg/evil.toml", "[rules]\nlegacy-intrinsic = off\n");
  put(root, "proj/.warplint", "\nextend = ../cfg/evil.toml\n");
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), ".warplint:2: extend: '../cfg/evil.toml' lies "
                                                 "outside the project root"));
  wl_config_free(&c);
  wl_buf_free(&err);
  snprintf(outside, sizeof outside, "%s/cfg/evil.toml", root);
  snprintf(path, sizeof path, "%s/proj/cfg/link.toml", root);
  ck_assert_int_eq(symlink(outside, path), 0);
  put(root, "proj/.warplint", "extend = cfg/link.toml\n");
  snprintf(path, sizeof path, "%s/proj/.warplint", root);
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "lies outside the project root"));
  wl_config_free(&c);
  wl_buf_free(&err);
  /* missing, a directory, a cycle */
  put(root, "proj/.warplint", "extend = cfg/none.toml\n");
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(
      strstr(wl_buf_str(&err), ".warplint:1: extend: cannot read 'cfg/none.toml'"));
  wl_config_free(&c);
  wl_buf_free(&err);
  put(root, "proj/.warplint", "extend = cfg\n");
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "is not a regular file"));
  wl_config_free(&c);
  wl_buf_free(&err);
  put(root, "proj/.warplint", "extend = cfg/base.toml\n");
  put(root, "proj/cfg/base.toml", "extend = ../.warplint\n");
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "inherit/extend cycle"));
  wl_config_free(&c);
  wl_buf_free(&err);
  /* a chain longer than WL_CONFIG_MAX_CHAIN */
  for (int i = 0; i <= WL_CONFIG_MAX_CHAIN; i++) {
    char rel[64], text[64];
    snprintf(rel, sizeof rel, "proj/cfg/c%d.toml", i);
    snprintf(text, sizeof text, "extend = c%d.toml\n", i + 1);
    put(root, rel, text);
  }
  put(root, "proj/.warplint", "extend = cfg/c0.toml\n");
  ck_assert(!wl_config_load_tree(path, proj, &c, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "configuration files inherit from one another"));
  wl_config_free(&c);
  wl_buf_free(&err);
  rm_tree(root);
  free(root);
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
  tcase_add_test(tc, test_per_file_ignores);
  tcase_add_test(tc, test_inherit_merges);
  tcase_add_test(tc, test_extend);
  suite_add_tcase(s, tc);
  tc = tcase_create("globs");
  tcase_add_loop_test(tc, test_globs, 0, (int)(sizeof globs / sizeof globs[0]));
  tcase_add_test(tc, test_excludes_relative_to_config);
  suite_add_tcase(s, tc);
  return s;
}
