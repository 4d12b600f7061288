#!/bin/sh
# .warplint files through the command line: discovery (nearest upward up to
# the project root, merged with parents only with inherit/extend), every key,
# --config/--no-config, precedence of the command line, per-file ignores, and
# errors (exit 2, file:line, other files still analyzed).
# Usage: config_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

legacy() { printf '__global__ void k(int *o) { o[0] = __shfl(o[1], 0); }\n' >"$1"; }

R="$T/repo"
mkdir -p "$R/src/sub" "$R/gen" "$R/inc" "$R/other" "$R/.git"
legacy "$R/src/a.cu"
legacy "$R/src/sub/b.cu"
legacy "$R/gen/g.cu"
legacy "$R/src/k.gen.cu"
legacy "$R/src/c.cuda"
legacy "$R/other/o.cu"
printf '#define HELPER(v) __ballot(v)\n' >"$R/inc/helper.cuh"
printf '#ifdef LEGACY\n#include "helper.cuh"\n__global__ void k(int *o) { o[0] = HELPER(o[1]); }\n#endif\n' >"$R/src/flags.cu"
printf '__global__ void k(int *o) {\n#if __CUDA_ARCH__ >= 860\n  o[0] = __any(o[1]);\n#endif\n}\n' >"$R/src/arch.cu"

# no config: every .cu file
expect_exit 1 -- "$WL" "$R"
contains "$T/out" "gen/g.cu" "no config: gen/ analyzed"
lacks "$T/out" "c.cuda" "no config: .cuda not searched"

cat >"$R/.warplint" <<'EOF'
# repository settings
exclude = gen/**, *.gen.cu
extensions = [cu, cuda]
clang-args = -DLEGACY -Iinc
cuda-arch = sm_86

[rules]
legacy-intrinsic = error
EOF
expect_exit 1 -- "$WL" "$R"
lacks "$T/out" "gen/g.cu" "exclude: gen/**"
lacks "$T/out" "k.gen.cu" "exclude: *.gen.cu at any depth"
contains "$T/out" "src/c.cuda:1:.* error:" "extensions and severity"
# the finding is in the macro's definition in inc/ (reported once, there)
contains "$T/out" "inc/helper.cuh:1:.*__ballot" "clang-args: -D and -I relative to the config"
contains "$T/out" "src/flags.cu:3:[0-9]*: note: expanded from macro 'HELPER'" "the expansion site is a note"
contains "$T/out" "src/arch.cu:3:.*__any" "cuda-arch"
# excluded files named explicitly (as pre-commit does) are skipped too
expect_exit 0 -- "$WL" --verbose "$R/gen/g.cu"
contains "$T/err" "g.cu: excluded by" "--verbose says what was excluded"
# --fail-on against the configured severity
expect_exit 1 -- "$WL" --fail-on=error "$R/src/a.cu"

# the nearest config wins, without merging: sub/ turns the rule off
printf '[rules]\nlegacy-intrinsic = off\n' >"$R/src/sub/.warplint"
expect_exit 1 -- "$WL" "$R/src"
lacks "$T/out" "sub/b.cu" "nearest config"
contains "$T/out" "src/a.cu" "parent config still applies to its files"
# the command line wins over the config
expect_exit 1 -- "$WL" --enable legacy-intrinsic "$R/src/sub/b.cu"
# severity from a config: note, then --fail-on=warning passes
printf '[rules]\nlegacy-intrinsic = note\n' >"$R/src/sub/.warplint"
expect_exit 0 -- "$WL" --fail-on=warning "$R/src/sub/b.cu"
contains "$T/out" "note: legacy warp" "configured severity"
expect_exit 1 -- "$WL" "$R/src/sub/b.cu"

# the lookup stops at the project root (the nearest .git): a .warplint above
# the checkout (or in /tmp) does not change the rules
printf '[rules]\nlegacy-intrinsic = off\n' >"$T/.warplint"
expect_exit 1 -- "$WL" "$R/other/o.cu"
contains "$T/out" "other/o.cu" "a .warplint above the repository is ignored"
mkdir -p "$T/norepo/sub"
legacy "$T/norepo/sub/n.cu"
expect_exit 1 -- "$WL" "$T/norepo/sub/n.cu"
contains "$T/out" "n.cu" "outside a repository and the current directory: only the file's directory"
(cd "$T/norepo" && "$WL" sub/n.cu >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
contains "$T/rc" "^1$" "outside a repository: the lookup stops at the current directory"
printf '[rules]\nlegacy-intrinsic = off\n' >"$T/norepo/.warplint"
(cd "$T/norepo" && "$WL" sub/n.cu >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
contains "$T/rc" "^0$" "outside a repository: a .warplint in the current directory applies"
(cd "$T/norepo/sub" && "$WL" n.cu >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
contains "$T/rc" "^1$" "outside a repository: a .warplint above the current directory is ignored"
rm -f "$T/.warplint"

# --config FILE for every file; --no-config
printf 'exclude = repo/src/**\n' >"$T/only.warplint"
expect_exit 1 -- "$WL" --config "$T/only.warplint" "$R/src/a.cu" "$R/other"
lacks "$T/out" "src/a.cu" "--config: its globs are relative to its directory, not found upward"
contains "$T/out" "other/o.cu" "--config: other files analyzed"
expect_exit 1 -- "$WL" --no-config "$R/gen"
contains "$T/out" "gen/g.cu" "--no-config"
expect_exit 2 -- "$WL" --config "$T/only.warplint" --no-config "$R"

# errors: file and line, exit 2, files under other configs still analyzed
printf 'exclude = gen/**\ncolour = blue\n' >"$R/src/sub/.warplint"
expect_exit 2 -- "$WL" "$R/src" "$R/other"
contains "$T/err" "src/sub/.warplint:2: unknown key 'colour'" "unknown key with file:line"
count_is "$T/err" "unknown key" 1 "a broken config is reported once"
contains "$T/out" "other/o.cu" "other files still analyzed"
contains "$T/out" "src/a.cu" "files of other configs still analyzed"
lacks "$T/out" "sub/b.cu" "files of the broken config are not analyzed"
printf '[rules]\nlegacy-intrinsic = loud\n' >"$R/src/sub/.warplint"
expect_exit 2 -- "$WL" "$R/src/sub/b.cu"
contains "$T/err" ".warplint:2: legacy-intrinsic: 'loud' is not one of off, on, note, warning, error" "bad value"
expect_exit 2 -- "$WL" --format=sarif "$R/src/sub/b.cu"
contains "$T/out" "unknown\|loud" "SARIF reports the config error"
expect_exit 2 -- "$WL" --config "$T/missing.warplint" "$R/other"
contains "$T/err" "missing.warplint: cannot read" "--config missing"
printf '[rules]\nno-such-rule = off\n' >"$T/bad.warplint"
expect_exit 2 -- "$WL" --config "$T/bad.warplint" "$R/other"
contains "$T/err" "bad.warplint:2: unknown rule 'no-such-rule'" "--config: unknown rule"
lacks "$T/out" "o.cu" "--config broken: nothing analyzed"

# whole-warps = false: `threadIdx.x < 32` is no longer taken as warp-uniform
mkdir -p "$T/ww"
printf '__global__ void k(int *out) {\n  int v = out[threadIdx.x];\n  if (threadIdx.x < 32)\n    v += __shfl_xor_sync(0xffffffff, v, 1);\n  out[threadIdx.x] = v;\n}\n' >"$T/ww/k.cu"
expect_exit 0 -- "$WL" "$T/ww/k.cu"
printf 'whole-warps = false\n' >"$T/ww/.warplint"
expect_exit 1 -- "$WL" "$T/ww/k.cu"
contains "$T/out" "k.cu:4:10: warning: .*\[full-mask-divergent\]" "whole-warps = false makes threadIdx.x < 32 lane-dependent"
printf 'whole-warps = sometimes\n' >"$T/ww/.warplint"
expect_exit 2 -- "$WL" "$T/ww/k.cu"
contains "$T/err" ".warplint:1: whole-warps: 'sometimes' is not true or false" "whole-warps: bad value"

# inherit = true: merged with the nearest .warplint above (clang-tidy's
# InheritParentConfig); extend = PATH (ruff): merged with that file
I="$T/inh"
mkdir -p "$I/.git" "$I/src/tests" "$I/src/gen" "$I/cfg"
legacy "$I/src/a.cu"
legacy "$I/src/tests/t_shfl.cu"
legacy "$I/src/gen/g.cu"
printf '__global__ void k(int *o) {\n#ifdef OLD\n  o[0] = __any(o[1]);\n#endif\n}\n' >"$I/src/old.cu"
printf 'exclude = src/gen/**\nclang-args = -DOLD\n[rules]\nlegacy-intrinsic = error\n' >"$I/.warplint"
printf 'inherit = true\n[per-file-ignores]\n"tests/t_*.cu" = legacy-intrinsic\n' >"$I/src/.warplint"
expect_exit 1 -- "$WL" -v "$I/src"
contains "$T/out" "src/a.cu:1:[0-9]*: error:" "inherit: the parent's severity"
contains "$T/out" "src/old.cu:3:.*__any" "inherit: the parent's clang-args"
lacks "$T/out" "gen/g.cu" "inherit: the parent's exclude, relative to the parent"
lacks "$T/out" "t_shfl.cu" "per-file-ignores: the glob's file is not reported"
contains "$T/err" "t_shfl.cu:1:[0-9]*: \[legacy-intrinsic\] ignored by the per-file-ignores of" "-v says what per-file-ignores dropped"
# without inherit the nearest file replaces its parents, as before
printf '[per-file-ignores]\n"tests/t_*.cu" = legacy-intrinsic\n' >"$I/src/.warplint"
expect_exit 1 -- "$WL" "$I/src"
contains "$T/out" "src/a.cu:1:[0-9]*: warning:" "no inherit: the parent's severity does not apply"
contains "$T/out" "gen/g.cu" "no inherit: the parent's exclude does not apply"
# per-file ignores: --fix leaves the ignored file alone, --statistics does not count it
cp "$I/src/tests/t_shfl.cu" "$T/t_before.cu"
expect_exit 0 -- "$WL" --fix "$I/src/tests"
same "$I/src/tests/t_shfl.cu" "$T/t_before.cu" "--fix does not rewrite an ignored finding"
expect_exit 0 -- "$WL" --statistics "$I/src/tests/t_shfl.cu"
lacks "$T/out" "legacy-intrinsic" "--statistics: ignored findings are not counted"
# a header's findings are matched by the header's own path
printf '#define HELPER(v) __ballot(v)\n' >"$I/src/tests/h.cuh"
printf '#include "h.cuh"\n__global__ void k(int *o) { o[0] = HELPER(o[1]); }\n' >"$I/src/tests/t_inc.cu"
printf '[per-file-ignores]\n"tests/*.cuh" = legacy-intrinsic\n' >"$I/src/.warplint"
expect_exit 0 -- "$WL" "$I/src/tests/t_inc.cu"
lacks "$T/out" "h.cuh" "per-file-ignores: a header reported with its includer"
# extend: a file of the project, relative to the config
printf '[rules]\nlegacy-intrinsic = note\n' >"$I/cfg/base.toml"
printf 'extend = ../cfg/base.toml\n' >"$I/src/.warplint"
expect_exit 1 -- "$WL" "$I/src/a.cu"
contains "$T/out" "a.cu:1:[0-9]*: note:" "extend: the extended file's rules"
# extend may not leave the project (a checkout's .warplint is untrusted)
printf '[rules]\nlegacy-intrinsic = off\n' >"$T/outside.toml"
printf 'extend = ../../outside.toml\n' >"$I/src/.warplint"
expect_exit 2 -- "$WL" "$I/src/a.cu" "$R/other"
contains "$T/err" "src/.warplint:1: extend: '../../outside.toml' lies outside the project root" "extend outside the project"
lacks "$T/out" "src/a.cu" "extend outside the project: its files are not analyzed"
contains "$T/out" "other/o.cu" "extend outside the project: other files still analyzed"
ln -s "$T/outside.toml" "$I/cfg/link.toml"
printf 'extend = ../cfg/link.toml\n' >"$I/src/.warplint"
expect_exit 2 -- "$WL" "$I/src/a.cu"
contains "$T/err" "lies outside the project root" "extend through a symbolic link out of the project"
printf 'extend = ../cfg/base.toml\n' >"$I/src/.warplint"
printf 'extend = ../src/.warplint\n' >"$I/cfg/base.toml"
expect_exit 2 -- "$WL" "$I/src/a.cu"
contains "$T/err" "inherit/extend cycle" "extend cycle"
# --export-fixes never overwrites a parent configuration either
printf 'inherit = true\n' >"$I/src/.warplint"
expect_exit 2 -- "$WL" --export-fixes "$I/.warplint" "$I/src/a.cu"
contains "$T/err" "is one of the inputs" "--export-fixes: an inherited .warplint is an input"

finish "config tests"
