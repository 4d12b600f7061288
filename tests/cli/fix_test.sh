#!/bin/sh
# --fix, --diff, --export-fixes: edits written atomically with permissions
# kept, a second --fix changes nothing, no fixable finding is left, --diff
# changes nothing and applies with patch, the example tree builds for sm_90
# after --fix (when nvcc is present), nothing is written on errors.
# Usage: fix_test.sh <warplint> <source-dir>
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1

mkdir -p "$T/w"
cp fixtures/legacy-intrinsic/fix_hoisted.cu fixtures/legacy-intrinsic/fix_whole_warp.cu \
  fixtures/legacy-intrinsic/fix_not_automatic.cu fixtures/missing-syncwarp/listing7_tree_reduction.cu "$T/w/"
chmod 0640 "$T/w/fix_hoisted.cu"
cp -r "$T/w" "$T/orig"

# --diff: prints the change, exits 1, touches nothing; the diff applies with patch
expect_exit 1 -- "$WL" --diff "$T/w"
contains "$T/out" "^--- a/.*fix_hoisted.cu" "--diff prints a unified diff"
contains "$T/out" "^+  unsigned warp_mask = __ballot_sync(0xffffffff, threadIdx.x < NUM_ELEMENTS);" "--diff shows the hoisted mask"
contains "$T/err" "fixable in" "--diff summary on stderr"
if diff -r "$T/w" "$T/orig" >/dev/null; then ok; else fail "--diff changed files"; fi
(cd "$T/w" && "$WL" --diff . >"$T/diff.patch" 2>/dev/null)
if command -v patch >/dev/null 2>&1; then
  cp -r "$T/orig" "$T/patched"
  (cd "$T/patched" && patch -s -p1 <"$T/diff.patch") || fail "the --diff output does not apply with patch -p1"
fi

# --export-fixes: clang-tidy YAML, and the findings are still reported
expect_exit 1 -- "$WL" --export-fixes "$T/fixes.yaml" "$T/w/fix_hoisted.cu"
contains "$T/fixes.yaml" "^Diagnostics:" "YAML has Diagnostics"
contains "$T/fixes.yaml" "ReplacementText: \"__shfl_xor_sync\"" "YAML has the replacement"
contains "$T/out" "legacy-intrinsic" "findings still reported with --export-fixes"
if diff -r "$T/w" "$T/orig" >/dev/null; then ok; else fail "--export-fixes changed files"; fi

# --fix: goldens, permissions, what is left
expect_exit 1 -- "$WL" --fix "$T/w"
contains "$T/err" "warplint: fixed [1-9][0-9]* findings in 3 files" "--fix summary"
same "$T/w/fix_hoisted.cu" fixtures/legacy-intrinsic/fix_hoisted.cu.fixed "--fix output is the golden"
same "$T/w/listing7_tree_reduction.cu" fixtures/missing-syncwarp/listing7_tree_reduction.cu.fixed "--fix rewrites Listing 7 as Listing 8"
same "$T/w/fix_not_automatic.cu" "$T/orig/fix_not_automatic.cu" "unfixable file untouched"
mode=$(stat -c %a "$T/w/fix_hoisted.cu")
[ "$mode" = 640 ] && ok || fail "permissions not kept: $mode"
ls "$T/w" | grep -q warplint- && fail "temporary files left behind" || ok
contains "$T/out" "fix_not_automatic.cu" "unfixed findings still reported"
lacks "$T/out" "fix_hoisted.cu" "fixed findings not reported"
# the diff printed before equals what --fix did
if [ -d "$T/patched" ]; then
  for f in fix_hoisted.cu fix_whole_warp.cu listing7_tree_reduction.cu; do
    same "$T/patched/$f" "$T/w/$f" "--diff applied with patch equals --fix ($f)"
  done
fi

# a second --fix changes nothing; nothing fixable is left
cp -r "$T/w" "$T/after1"
expect_exit 1 -- "$WL" --fix "$T/w"
contains "$T/err" "fixed 0 findings in 0 files" "second --fix fixes nothing"
if diff -r "$T/w" "$T/after1" >/dev/null; then ok; else fail "second --fix changed files"; fi
"$WL" --format=json "$T/w" >"$T/left.json" 2>/dev/null
lacks "$T/left.json" '"replacement"' "no fixable finding left after --fix"

# a fix already applied is not applied again: the missing-syncwarp fix of a
# header-style loop (real_tagged_histogram.cu) used to insert one more
# __syncwarp() on each run
mkdir -p "$T/idem"
cp fixtures/missing-syncwarp/real_tagged_histogram.cu "$T/idem/"
"$WL" --fix "$T/idem" >/dev/null 2>&1
cp -r "$T/idem" "$T/idem1"
"$WL" --fix "$T/idem" >/dev/null 2>"$T/err"
contains "$T/err" "fixed 0 findings in 0 files" "second --fix of real_tagged_histogram.cu fixes nothing"
if diff -r "$T/idem" "$T/idem1" >/dev/null; then ok; else fail "second --fix changed real_tagged_histogram.cu"; fi

# ccminer's exchange through shared memory in a function called in a loop:
# the barriers before each read and before the second store would leave the
# next call's store racing with this call's last read, so the first --fix
# withholds them (and says so) rather than leaving work for a second --fix
mkdir -p "$T/lc"
cp fixtures/missing-syncwarp/real_loop_carried_exchange.cu "$T/lc/"
"$WL" --no-config --fix "$T/lc" >"$T/out" 2>"$T/err"
count_is "$T/out" "automatic fix withdrawn" 3 "loop-carried exchange: the three fixes withdrawn"
same "$T/lc/real_loop_carried_exchange.cu" fixtures/missing-syncwarp/real_loop_carried_exchange.cu "loop-carried exchange: first --fix writes nothing"
"$WL" --no-config --fix "$T/lc" >/dev/null 2>"$T/err"
contains "$T/err" "fixed 0 findings in 0 files" "loop-carried exchange: second --fix fixes nothing"
same "$T/lc/real_loop_carried_exchange.cu" fixtures/missing-syncwarp/real_loop_carried_exchange.cu "loop-carried exchange: second --fix writes nothing"
# JSON and SARIF offer only the fixes --fix applies: none of the three
"$WL" --no-config --no-cache --format=json "$T/lc" >"$T/out" 2>"$T/err"
count_is "$T/out" "automatic fix withdrawn" 3 "loop-carried exchange: JSON says the three fixes are withdrawn"
count_is "$T/out" '"edits"' 0 "loop-carried exchange: JSON offers no fix"
"$WL" --no-config --no-cache --format=sarif "$T/lc" >"$T/out" 2>"$T/err"
count_is "$T/out" '"artifactChanges"' 0 "loop-carried exchange: SARIF offers no fix"

# each legacy-intrinsic fixture, fixed twice: the second --fix changes nothing,
# and no legacy call that got a fix is left (a fix always removes its finding)
for f in fixtures/legacy-intrinsic/*.cu; do
  b=$(basename "$f")
  rm -rf "$T/twice" && mkdir -p "$T/twice" && cp "$f" "$T/twice/"
  "$WL" --no-config --fix "$T/twice/$b" >/dev/null 2>&1
  "$WL" --no-config --format=json --enable legacy-intrinsic "$T/twice/$b" >"$T/twice.json" 2>/dev/null
  cp "$T/twice/$b" "$T/twice.once"
  "$WL" --no-config --fix "$T/twice/$b" >/dev/null 2>"$T/err"
  if cmp -s "$T/twice/$b" "$T/twice.once"; then ok; else fail "second --fix changed $b"; fi
  contains "$T/err" "fixed 0 findings in 0 files" "second --fix of $b fixes nothing"
  lacks "$T/twice.json" '"replacement"' "$b: no fixable legacy call left after one --fix"
done
# the grid-tail fixture: all 6 legacy calls fixed; the guard that is not a
# tail (fix_not_automatic.cu's not_a_tail) gets no fix, and says why
rm -rf "$T/tail" && mkdir -p "$T/tail" && cp fixtures/legacy-intrinsic/fix_grid_tail.cu "$T/tail/"
"$WL" --no-config --fix "$T/tail" >/dev/null 2>"$T/err"
contains "$T/err" "fixed 6 findings in 1 file" "grid tails: 6 legacy calls fixed"
"$WL" --no-config --format=json --enable legacy-intrinsic "$T/tail" >"$T/tail.json" 2>/dev/null
count_is "$T/tail.json" '"rule": "legacy-intrinsic"' 0 "grid tails: no legacy call left"
"$WL" --no-config --format=json --enable legacy-intrinsic fixtures/legacy-intrinsic/fix_not_automatic.cu >"$T/na.json" 2>/dev/null
contains "$T/na.json" "shuffle may read from lanes outside the branch" "not a grid tail: why no fix"

# the example tree: after --fix it builds for sm_90 and nothing fixable is left
cp -r examples "$T/ex"
expect_exit 1 -- "$WL" --fix "$T/ex"
"$WL" --format=json "$T/ex" >"$T/ex.json" 2>/dev/null
lacks "$T/ex.json" '"replacement"' "examples: no fixable finding left"
# no legacy intrinsic is left: warp_reduce_sum in include/ is analyzed in its
# caller's context (reduce_shfl calls it under the grid-tail guard `if (i <
# n)`, the last statement of the kernel), so it gets the full mask with a
# note; its shuffle-down reduction still reads lanes past the tail (undefined,
# as with the legacy call), which full-mask-divergent goes on reporting
count_is "$T/ex.json" '"rule": "legacy-intrinsic"' 0 "examples: no legacy intrinsic left"
contains "$T/ex.json" '"rule": "full-mask-divergent"' "examples: the tail reduction is still reported"
mkdir -p "$T/ex_diff" && cp -r examples/. "$T/ex_diff/"
"$WL" --format=json --enable legacy-intrinsic "$T/ex_diff" >"$T/ex_diff.json" 2>/dev/null
contains "$T/ex_diff.json" "full mask: this function is called only under the grid-tail guard at reduce.cu:35" "examples: the note of the grid-tail fix"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ -x "$NVCC" ]; then
  for f in $(find "$T/ex" -name '*.cu'); do
    if "$NVCC" -arch=sm_90 -std=c++17 -c -o "$T/ex.o" "$f" >"$T/nvcc.log" 2>&1; then ok; else
      fail "examples after --fix: $f does not build for sm_90"; head -5 "$T/nvcc.log"; fi
  done
else
  echo "note: nvcc not found; the sm_90 build of the fixed examples is not checked"
fi

# a fix is checked before anything is written: what a second --fix would do in
# the code it wrote joins it (the block input gets its leading __syncwarp()),
# a fix that leaves something to fix elsewhere is withdrawn (the repeat
# input's barrier before an inlined operator+=): a second --fix never changes
# a file (the fuzzer's inputs where missing-syncwarp's fix was not idempotent)
mkdir -p "$T/fz"
cp tests/fuzz/regressions/fix-not-idempotent-syncwarp-block.cu tests/fuzz/regressions/fix-not-idempotent-syncwarp-repeat.cu "$T/fz/"
"$WL" --fix "$T/fz" >"$T/out" 2>"$T/err"
contains "$T/out" "automatic fix withdrawn: in the fixed code warplint would still report" "a fix that does not remove its finding is withdrawn"
contains "$T/err" "warplint: fixed 3 findings in 2 files" "the fixes that remove their findings are kept"
cp -r "$T/fz" "$T/fz1"
"$WL" --fix "$T/fz" >"$T/out" 2>"$T/err"
contains "$T/err" "fixed 0 findings in 0 files" "second --fix on the fuzzer's inputs fixes nothing"
if diff -r "$T/fz" "$T/fz1" >"$T/fz.diff"; then ok; else fail "second --fix changed the fuzzer's inputs"; head -20 "$T/fz.diff"; fi
expect_exit 0 -- "$WL" --diff "$T/fz"
contains "$T/err" "--diff changes nothing" "nothing left to fix after --fix"

# errors: a read-only directory cannot take the temporary file; the file is untouched
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$T/ro"; cp "$T/orig/fix_hoisted.cu" "$T/ro/"; chmod 0555 "$T/ro"
  expect_exit 2 -- "$WL" --fix "$T/ro/fix_hoisted.cu"
  same "$T/ro/fix_hoisted.cu" "$T/orig/fix_hoisted.cu" "file untouched when it cannot be written"
  chmod 0755 "$T/ro"
fi
expect_exit 2 -- "$WL" --fix --diff "$T/w"
expect_exit 2 -- "$WL" --export-fixes "$T/nodir/x.yaml" "$T/orig/fix_hoisted.cu"
contains "$T/err" "export-fixes" "unwritable --export-fixes named"

finish fix_test
