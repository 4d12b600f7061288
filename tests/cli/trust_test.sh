#!/bin/sh
# What a repository cannot make warplint do: a hostile .warplint (clang-args
# that write files or load code) is refused with file:line and exit 2, a
# hostile compile_commands.json entry writes nothing and is still analyzed,
# and arguments the user types after -- are not filtered. (A .warplint above
# the repository is in config_test.sh; the allow-list itself in test_config.c
# and test_compdb.c.)
# Usage: trust_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

legacy() { printf '__global__ void k(int *o) { o[0] = __shfl(o[1], 0); }\n' >"$1"; }
R="$T/repo"
mkdir -p "$R/.git" "$R/evil" "$R/good"
legacy "$R/evil/a.cu"
legacy "$R/good/b.cu"

# the attack of issue 18: -H with -header-include-file appends to any file
cat >"$R/evil/.warplint" <<'EOF2'
# looks harmless
clang-args = -Xclang -header-include-file -Xclang ../../written -H
EOF2
expect_exit 2 -- "$WL" "$R/evil" "$R/good"
contains "$T/err" "evil/.warplint:2: clang-args: '-Xclang' is not allowed" "hostile clang-args named with file:line"
[ -e "$T/written" ] && fail "a hostile .warplint wrote a file" || ok
lacks "$T/out" "evil/a.cu" "the files of the hostile config are not analyzed"
contains "$T/out" "good/b.cu" "other files are still analyzed"
for args in "-fplugin=$T/evil.so" "-MD -MF $T/written" "-o $T/written" "@$T/rsp" "-Wp,-MD,$T/written" \
  "--serialize-diagnostics $T/written" "-Xclang -load -Xclang $T/evil.so"; do
  printf 'clang-args = %s\n' "$args" >"$R/evil/.warplint"
  expect_exit 2 -- "$WL" "$R/evil/a.cu"
  contains "$T/err" "evil/.warplint:1: clang-args: .* is not allowed" "refused: $args"
  [ -e "$T/written" ] && fail "$args: a file was written" || ok
done
# the allowed kinds still work
printf '#define HELPER(v) __ballot(v)\n' >"$R/good/helper.cuh"
printf '#ifdef LEGACY\n#include "helper.cuh"\n__global__ void k(int *o) { o[0] = HELPER(o[1]); }\n#endif\n' >"$R/evil/flags.cu"
printf 'clang-args = -DLEGACY -I ../good -std=c++17 -Wall -x cuda\n' >"$R/evil/.warplint"
expect_exit 1 -- "$WL" "$R/evil/flags.cu"
# HELPER is defined in good/helper.cuh: reported there, flags.cu:3 is the expansion note
contains "$T/out" "helper.cuh:1:.*__ballot" "allowed clang-args still reach the parser"

# the user's own arguments after -- are not filtered (-Wp, is refused in a config)
rm -f "$R/evil/.warplint"
expect_exit 1 -- "$WL" "$R/evil/flags.cu" -- -Wp,-DLEGACY -I "$R/good"
contains "$T/out" "helper.cuh:1:.*__ballot" "-- arguments typed by the user are passed as they are"

# a hostile compilation database: the file is analyzed, nothing is written or loaded
mkdir -p "$R/build"
cat >"$R/build/compile_commands.json" <<EOF2
[{"directory": "$R/build",
  "command": "nvcc -Xclang -header-include-file -Xclang $T/written -H -MD -MF $T/written -Xclang -load -Xclang $T/evil.so -fplugin=$T/evil.so --serialize-diagnostics $T/written -Xcompiler=-MD,-MF,$T/written,-H -Wp,-MD,$T/written -save-temps -DLEGACY -I../good -c $R/evil/flags.cu -o $T/written",
  "file": "$R/evil/flags.cu"}]
EOF2
expect_exit 1 -- "$WL" -p "$R/build"
contains "$T/out" "helper.cuh:1:.*__ballot" "hostile database: the file is analyzed with its safe flags"
[ -e "$T/written" ] && fail "a hostile compilation database wrote a file" || ok
ls "$R/build" "$R/evil" | grep -q '\.d$\|\.o$\|\.ii$' && fail "a hostile database left build products" || ok

finish "trust tests"
