#!/bin/sh
# scripts/new-rule.sh in a scratch copy of the tree: it refuses bad or taken
# ids; the scaffold (rule, doc, fixtures, rules.def line in id order, GPU
# fixture) builds with -Werror; the fixture meta-test fails on it (the
# TODO(new-rule.sh) markers, the firing fixture that does not fire, the GPU
# bad kernel not reported); and once the stub is filled in (a rule that
# reports __activemask() calls), the same meta-test passes.
# Usage: new_rule_test.sh <source-dir> <cmake>
set -u
LC_ALL=C
export LC_ALL
SRC=$1
CMAKE=$2
. "$SRC/tests/cli/lib.sh"

C="$T/tree"
mkdir -p "$C"
# the tree as git sees it (tracked and new files, nothing ignored), else a plain copy
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$SRC" && git ls-files -co --exclude-standard -z | xargs -0 tar cf - 2>/dev/null) | (cd "$C" && tar xf -)
else
  (cd "$SRC" && tar cf - --exclude='./build*' .) | (cd "$C" && tar xf -)
fi
[ -f "$C/rules/rules.def" ] || { echo "FAIL: could not copy the tree"; exit 1; }

NR="$C/scripts/new-rule.sh"
expect_exit 2 -- "$NR"
expect_exit 2 -- "$NR" Bad-Id
expect_exit 2 -- "$NR" 'a;b'
expect_exit 2 -- "$NR" trailing-
expect_exit 2 -- "$NR" legacy-intrinsic
contains "$T/err" "already registered" "a taken id"
expect_exit 0 -- "$NR" no-activemask-calls
contains "$T/out" "rule no-activemask-calls scaffolded" "the summary"
expect_exit 2 -- "$NR" no-activemask-calls

for f in rules/no_activemask_calls.c rules/no-activemask-calls.md fixtures/no-activemask-calls/fires.cu \
         fixtures/no-activemask-calls/clean.cu fixtures/gpu/no-activemask-calls/bad.cu \
         fixtures/gpu/no-activemask-calls/fixed.cu fixtures/gpu/no-activemask-calls/harness.cu; do
  if [ -s "$C/$f" ]; then ok; else fail "new-rule.sh did not write $f"; fi
done
# the rules.def line sits in id order (after missing-syncwarp)
grep -o '^WL_RULE([a-z_]*, "[a-z-]*"' "$C/rules/rules.def" | sed 's/.*"\(.*\)"/\1/' >"$T/ids"
sort "$T/ids" >"$T/ids.sorted"
same "$T/ids" "$T/ids.sorted" "rules.def stays in id order"
contains "$T/ids" "^no-activemask-calls$" "the registration"
contains "$C/fixtures/gpu/run" " no-activemask-calls)" "fixtures/gpu/run's list"

# the scaffold builds with -Werror
B="$C/build"
if ! "$CMAKE" -S "$C" -B "$B" -DCMAKE_BUILD_TYPE=Debug -DWARPLINT_WERROR=ON >"$T/cmake.log" 2>&1 ||
   ! "$CMAKE" --build "$B" --target check_warplint -j2 >"$T/build.log" 2>&1; then
  fail "the scaffolded tree does not build"; tail -20 "$T/build.log" 2>/dev/null | sed 's/^/    /'
  finish new_rule; exit 1
fi
ok
# and the meta-test fails on it, saying why
(cd "$C" && "$B/check_warplint" fixtures) >"$T/meta" 2>&1
if [ $? -ne 0 ]; then ok; else fail "the fixture meta-test passes on a bare scaffold"; fi
contains "$T/meta" "fixtures/no-activemask-calls/fires.cu:5: expected 1 finding(s) of \[no-activemask-calls\], got none" "the firing fixture"
contains "$T/meta" "bad kernel not reported by no-activemask-calls" "the GPU fixture"
contains "$T/meta" "rules/no_activemask_calls.c:[0-9]*: the scaffold's TODO(new-rule.sh) is still there" "the rule's TODO"
contains "$T/meta" "rules/no-activemask-calls.md:[0-9]*: the scaffold's TODO(new-rule.sh)" "the doc's TODO"
contains "$T/meta" "fixtures/gpu/no-activemask-calls/harness.cu:[0-9]*: the scaffold's TODO(new-rule.sh)" "the harness's TODO"
contains "$T/meta" "rules.def: the summary of no-activemask-calls is the scaffold's TODO(new-rule.sh)" "the summary"

# filled in: the rule reports __activemask() calls, the fixtures show one
sed -i 's/  return false;/  return wl_builtin_call(e, WL_BK_ACTIVEMASK, WL_BF_INTRINSIC) != NULL;/' "$C/rules/no_activemask_calls.c"
for f in fixtures/no-activemask-calls/fires.cu fixtures/gpu/no-activemask-calls/bad.cu; do
  sed -i 's/__shfl_sync(0xffffffff, \(.*\), 0);/(int)__activemask();/' "$C/$f"
done
grep -rl 'TODO(new-rule.sh)' "$C/rules" "$C/fixtures" | while read -r f; do
  sed -i 's/TODO(new-rule.sh)/written:/; /^#error/d' "$f"
done
if "$CMAKE" --build "$B" --target check_warplint -j2 >"$T/build2.log" 2>&1; then ok; else
  fail "the filled-in rule does not build"; tail -20 "$T/build2.log" | sed 's/^/    /'; fi
(cd "$C" && "$B/check_warplint" fixtures) >"$T/meta2" 2>&1
if [ $? -eq 0 ]; then ok; else fail "the meta-test fails on the filled-in rule"; sed 's/^/    /' "$T/meta2" | head -20; fi
finish new_rule
