#!/bin/sh
# Fixes with the usual tools: --diff accepted by `git apply` and `patch -p1`
# for every spelling of the inputs (., ./x, src/.., absolute, from a
# subdirectory), never a/./ or a//; --export-fixes applied by
# clang-apply-replacements (no overlapping or same-place edits: contained
# edits dropped with a note, insertions merged) and giving what --fix writes
# (one choice of edits, nested ones included); after --fix, what is left is
# a real re-analysis (a second run finds the same); inserted code follows the
# surrounding indentation (tabs, spaces, CRLF), one statement a line.
# Usage: fixtools_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1

# a small repository: fixable findings in two directories
R="$T/repo"
mkdir -p "$R/src" "$R/include"
cp fixtures/legacy-intrinsic/fix_hoisted.cu fixtures/legacy-intrinsic/fix_whole_warp.cu "$R/src/"
cp fixtures/legacy-intrinsic/shuffles_and_votes.cu "$R/include/k.cuh"
(cd "$R" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm init) || exit 1

check_diff() { # description, then the command run in $R/$dir
  desc=$1; dir=$2; shift 2
  (cd "$R/$dir" && "$@") >"$T/d.patch" 2>"$T/d.err"
  if grep -qE '^(---|\+\+\+) [ab]/(\.|/)|^(---|\+\+\+) [ab]/.*(//|/\./)' "$T/d.patch"; then
    fail "$desc: unnormalized path in the diff"; grep -E '^(---|\+\+\+)' "$T/d.patch" | head -3
  else ok; fi
  grep -q '^+++ b/src/fix_hoisted.cu$' "$T/d.patch" && ok || {
    fail "$desc: no +++ b/src/fix_hoisted.cu"; grep -E '^(---|\+\+\+)' "$T/d.patch" | head -4; }
  (cd "$R" && git apply --check "$T/d.patch") && ok || fail "$desc: git apply rejects the diff"
  rm -rf "$T/p" && cp -R "$R" "$T/p"
  (cd "$T/p" && patch -s -p1 --dry-run <"$T/d.patch" >/dev/null) && ok || fail "$desc: patch -p1 rejects the diff"
}
check_diff "--diff ." "" "$WL" --diff .
check_diff "--diff ./src ./include" "" "$WL" --diff ./src ./include
check_diff "--diff src/.. " "" "$WL" --diff src/..
check_diff "--diff with a trailing slash and //" "" "$WL" --diff .//src/ include/
check_diff "--diff absolute" "" "$WL" --diff "$R"
check_diff "--diff absolute file" "" "$WL" --diff "$R/src/fix_hoisted.cu" "$R/include"
# from a subdirectory the paths are relative to it: git apply there takes them
(cd "$R/src" && "$WL" --diff . >"$T/sub.patch" 2>/dev/null)
grep -q '^+++ b/fix_hoisted.cu$' "$T/sub.patch" && ok || fail "--diff from a subdirectory: paths relative to it"
(cd "$R/src" && git apply --check "$T/sub.patch") && ok || fail "git apply in the subdirectory rejects the diff"
# the diff applied is what --fix writes
(cd "$R" && "$WL" --diff . >"$T/all.patch" 2>/dev/null)
rm -rf "$T/g" && cp -R "$R" "$T/g"
(cd "$T/g" && git apply "$T/all.patch") || fail "git apply failed"
rm -rf "$T/f" && cp -R "$R" "$T/f"
(cd "$T/f" && "$WL" --fix . >/dev/null 2>&1)
for f in src/fix_hoisted.cu src/fix_whole_warp.cu include/k.cuh; do
  same "$T/g/$f" "$T/f/$f" "git apply of --diff differs from --fix ($f)"
done

# --fix: what is reported as left is a re-analysis of the written files
rm -rf "$T/r" && cp -R "$R" "$T/r"
# (real_tagged_histogram: fixing two findings leaves three, not two: the
# fix uncovers one; double_overload: deleting the overload fixes more)
cp fixtures/missing-syncwarp/real_tagged_histogram.cu fixtures/legacy-intrinsic/double_overload.cu "$T/r/src/"
(cd "$T/r" && "$WL" --fix --format=json . >"$T/left.json" 2>"$T/left.err")
(cd "$T/r" && "$WL" --format=json . >"$T/rerun.json" 2>/dev/null)
/usr/bin/python3 - "$T/left.json" "$T/rerun.json" <<'PYEOF' && ok || fail "--fix: what is left differs from a rerun"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
key = lambda f: (f['file'], f['line'], f['column'], f['rule'], f['message'])
assert sorted(map(key, a['findings'])) == sorted(map(key, b['findings'])), (len(a['findings']), len(b['findings']))
PYEOF
contains "$T/left.err" "fixed .* finding" "--fix summary"

# --export-fixes: clang-apply-replacements applies it
CAR=$(command -v clang-apply-replacements || command -v clang-apply-replacements-14 || true)
rm -rf "$T/x" && cp -R "$R" "$T/x" && mkdir -p "$T/yaml"
cp fixtures/legacy-intrinsic/double_overload.cu "$T/x/src/" 2>/dev/null
(cd "$T/x" && "$WL" --export-fixes "$T/yaml/fixes.yaml" . >/dev/null 2>"$T/x.err")
/usr/bin/python3 - "$T/yaml/fixes.yaml" <<'PYEOF' && ok || fail "--export-fixes has overlapping or same-place edits"
import re, sys
text = open(sys.argv[1]).read()
reps = re.findall(r'- FilePath: "([^"]*)"\n\s+Offset: (\d+)\n\s+Length: (\d+)', text)
assert reps, 'no replacements'
by = {}
for f, o, l in reps:
    assert f.startswith('/'), f
    by.setdefault(f, []).append((int(o), int(l)))
for f, rs in by.items():
    rs.sort()
    for (o1, l1), (o2, l2) in zip(rs, rs[1:]):
        assert not (l1 == 0 and l2 == 0 and o1 == o2), ('two insertions at', f, o1)
        assert o1 + l1 <= o2 or (l2 == 0 and o2 == o1), ('overlap', f, o1, l1, o2, l2)
PYEOF
if [ -n "$CAR" ]; then
  "$CAR" "$T/yaml" >"$T/car.out" 2>&1 && ok || { fail "clang-apply-replacements rejected the export"; head -5 "$T/car.out"; }
  lacks "$T/car.out" "overlaps\|same insert location" "clang-apply-replacements conflicts"
  if cmp -s "$T/x/src/fix_hoisted.cu" "$R/src/fix_hoisted.cu"; then fail "clang-apply-replacements changed nothing"; else ok; fi
  (cd "$T/x" && "$WL" --enable legacy-intrinsic src/fix_hoisted.cu >/dev/null 2>&1) && ok || fail "legacy intrinsics left after clang-apply-replacements"
else
  echo "note: clang-apply-replacements not installed (Debian: clang-tools-14); its run is skipped"
fi
# --export-fixes applied (clang-apply-replacements, else a small applier)
# gives exactly what --fix writes: one choice of edits, also where one edit
# contains another (the deleted overload and the calls inside it; a rewritten
# statement holding a legacy call)
E="$T/same"
mkdir -p "$E/fix" "$E/exp"
cp fixtures/legacy-intrinsic/double_overload.cu fixtures/legacy-intrinsic/fix_hoisted.cu \
  fixtures/missing-syncwarp/fix_indent_tabs.cu fixtures/missing-syncwarp/listing7_tree_reduction.cu "$E/fix/"
printf '%s\n' '__global__ void k(float *out, float v) {' '    __shared__ float s[64];' \
  '    unsigned tid = threadIdx.x;' '    s[tid] = out[tid];' '    __syncwarp();' '    if (tid < 32) {' \
  '        s[tid] += __shfl_down(v, 1) + s[tid + 16];' '    }' '    out[tid] = s[tid];' '}' >"$E/fix/nested.cu"
cp "$E"/fix/*.cu "$E/exp/"
(cd "$E/fix" && "$WL" --fix . >/dev/null 2>&1)
mkdir -p "$E/yaml"
(cd "$E/exp" && "$WL" --export-fixes "$E/yaml/fixes.yaml" . >/dev/null 2>"$E/exp.err")
contains "$E/exp.err" "inside another fix's replaced text left out" "the note on contained edits"
if [ -n "$CAR" ]; then
  "$CAR" "$E/yaml" >"$E/car.out" 2>&1 && ok || { fail "clang-apply-replacements rejected the export"; head -5 "$E/car.out"; }
else
  /usr/bin/python3 - "$E/yaml/fixes.yaml" <<'PYEOF' && ok || fail "the export cannot be applied"
import json, re, sys
text = open(sys.argv[1]).read()
reps = re.findall(r'- FilePath: ("[^"\n]*")\n\s+Offset: (\d+)\n\s+Length: (\d+)\n\s+ReplacementText: (".*")\n', text)
by = {}
for f, o, l, t in reps:
    by.setdefault(json.loads(f), []).append((int(o), int(l), json.loads(t)))
for f, rs in by.items():
    data = open(f, 'rb').read().decode()
    rs.sort()
    for (o1, l1, _), (o2, l2, _) in zip(rs, rs[1:]):
        assert o1 + l1 <= o2 and not (l1 == 0 and l2 == 0 and o1 == o2), ('overlap', f, o1, o2)
    for o, l, t in reversed(rs):
        data = data[:o] + t + data[o + l:]
    open(f, 'wb').write(data.encode())
PYEOF
fi
for f in "$E"/fix/*.cu; do
  same "$f" "$E/exp/$(basename "$f")" "--export-fixes applied equals --fix: $(basename "$f")"
done

# inserted code follows the surrounding indentation, one statement a line:
# tabs in nested blocks (the fixtures' .fixed goldens), two spaces, and CRLF
# line ends kept for the inserted lines
I="$T/indent"
mkdir -p "$I"
TAB=$(printf '\t')
for f in missing-syncwarp legacy-intrinsic; do
  cp "fixtures/$f/fix_indent_tabs.cu" "$I/$f.cu"
  "$WL" --fix "$I/$f.cu" >/dev/null 2>&1
  same "$I/$f.cu" "fixtures/$f/fix_indent_tabs.cu.fixed" "$f: --fix in tab-indented nested blocks"
  sed 's/$/\r/' "fixtures/$f/fix_indent_tabs.cu" >"$I/crlf.cu"
  "$WL" --fix "$I/crlf.cu" >/dev/null 2>&1
  sed 's/$/\r/' "fixtures/$f/fix_indent_tabs.cu.fixed" >"$I/crlf.want"
  same "$I/crlf.cu" "$I/crlf.want" "$f: CRLF line ends kept for the inserted lines"
done
contains "$I/missing-syncwarp.cu" "^$TAB$TAB$TAB$TAB{\$" "the block opens at the statement's indentation"
contains "$I/missing-syncwarp.cu" "^$TAB$TAB$TAB$TAB${TAB}auto warp_tmp = s\[tid + 16\];\$" "one statement a line, one tab deeper"
contains "$I/missing-syncwarp.cu" "^$TAB$TAB${TAB}__syncwarp();\$" "a __syncwarp() inserted before a statement, on its own line"
contains "$I/legacy-intrinsic.cu" "^$TAB$TAB${TAB}unsigned warp_mask = __ballot_sync(0xffffffff, lane < 16);\$" "the hoisted mask at the branch's indentation"
printf '%s\n' '__global__ void k(float *o) {' '  __shared__ float s[64];' '  unsigned t = threadIdx.x;' \
  '  s[t] = o[t];' '  if (blockDim.x == 32) {' '    for (int i = 0; i < 2; i++) {' \
  '      s[t] += s[t + 16];' '    }' '  }' '  o[t] = s[t];' '}' >"$I/two.cu"
"$WL" --fix "$I/two.cu" >/dev/null 2>&1
printf '%s\n' '__global__ void k(float *o) {' '  __shared__ float s[64];' '  unsigned t = threadIdx.x;' \
  '  s[t] = o[t];' '  if (blockDim.x == 32) {' '    for (int i = 0; i < 2; i++) {' \
  '      {' '        __syncwarp();' '        auto warp_tmp = s[t + 16];' '        __syncwarp();' \
  '        s[t] += warp_tmp;' '        __syncwarp();' '      }' '    }' '  }' '  o[t] = s[t];' '}' >"$I/two.want"
same "$I/two.cu" "$I/two.want" "two-space indentation: one statement a line, two spaces deeper"

finish "fix tools tests"
