#!/bin/sh
# The editor's inner loop: the source from stdin (--stdin-filename NAME, or
# the input "-") with NAME deciding the .warplint and the name in the
# output; --quiet (findings only); --statistics (counts per rule, text and JSON).
# Usage: inner_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
BAD=fixtures/legacy-intrinsic/shuffles_and_votes.cu

# --- stdin ----------------------------------------------------------------------
expect_exit 1 -- sh -c "'$WL' --stdin-filename src/unsaved.cu <'$BAD'"
contains "$T/out" "^src/unsaved.cu:6:10: warning: legacy warp shuffle" "the name given is the name in the output"
contains "$T/out" "v += __shfl_down(v, offset);" "the source line comes from stdin"
"$WL" "$BAD" >"$T/file.txt" 2>/dev/null
sed "s#^$BAD:#src/unsaved.cu:#" "$T/file.txt" >"$T/want.txt"
same "$T/want.txt" "$T/out" "stdin gives the findings of the file"
expect_exit 1 -- sh -c "'$WL' - <'$BAD'"
contains "$T/out" "^<stdin>:6:10: warning" "'-' alone is <stdin>"
expect_exit 1 -- sh -c "'$WL' --stdin-filename=k.cu - <'$BAD'"
contains "$T/out" "^k.cu:6:10" "--stdin-filename with '-'"
# the name decides the configuration: a .warplint of its directory applies
mkdir -p "$T/proj/.git" "$T/proj/src"
printf '[rules]\nlegacy-intrinsic = off\n' >"$T/proj/src/.warplint"
expect_exit 0 -- sh -c "cd '$T/proj' && '$WL' --stdin-filename src/new.cu <'$(pwd)/$BAD'"
expect_exit 1 -- sh -c "cd '$T/proj' && '$WL' --stdin-filename new.cu <'$(pwd)/$BAD'"
# the file on disk is not read: an unsaved buffer differs from it
printf '__global__ void k(float *o) { o[0] = o[1]; }\n' >"$T/proj/clean.cu"
expect_exit 1 -- sh -c "cd '$T/proj' && '$WL' --stdin-filename clean.cu <'$(pwd)/$BAD'"
# bad uses
printf 'x\0binary' >"$T/blob"
expect_exit 2 -- sh -c "'$WL' --stdin-filename b.cu <'$T/blob'"
contains "$T/err" "b.cu: not a text file" "binary stdin"
expect_exit 2 -- sh -c "'$WL' - - <'$BAD'"
contains "$T/err" "may be given once" "'-' twice"
expect_exit 2 -- sh -c "'$WL' --fix --stdin-filename k.cu <'$BAD'"
contains "$T/err" "need files, not stdin" "--fix with stdin"
expect_exit 2 -- "$WL" --stdin-filename=

# --- --quiet --------------------------------------------------------------------
expect_exit 1 -- "$WL" "$BAD"
contains "$T/err" "9 findings in 1 file analyzed" "the summary line without --quiet"
expect_exit 1 -- "$WL" --quiet "$BAD"
[ -s "$T/err" ] && fail "--quiet: stderr not empty: $(head -2 "$T/err")" || ok
count_is "$T/out" ": warning: " 9 "--quiet still prints the findings"
expect_exit 2 -- "$WL" -q "$BAD" "$T/missing.cu"
expect_exit 2 -- "$WL" -q "$T/missing.cu"
contains "$T/err" "missing.cu: cannot access" "--quiet still reports errors"

# --- --statistics ---------------------------------------------------------------
expect_exit 1 -- "$WL" --statistics "$BAD" fixtures/legacy-intrinsic/macros.cu
count_is "$T/out" "." 1 "--statistics: one line per rule with findings"
contains "$T/out" "^ *12  legacy-intrinsic  .*\[\*\] Legacy warp intrinsic" "count, rule, fixable mark and summary"
lacks "$T/err" "findings in" "--statistics: no summary line"
expect_exit 1 -- "$WL" --statistics --format=json fixtures examples
/usr/bin/python3 - "$T/out" <<'PYEOF' && ok || fail "--statistics --format=json"
import json, sys
d = json.load(open(sys.argv[1]))
s = d['statistics']
assert s and sum(e['count'] for e in s) == d['findings'], d
assert [e['count'] for e in s] == sorted((e['count'] for e in s), reverse=True)
assert all(0 <= e['fixable'] <= e['count'] for e in s)
PYEOF
"$WL" --format=json fixtures examples >"$T/all.json" 2>/dev/null
/usr/bin/python3 - "$T/out" "$T/all.json" <<'PYEOF' && ok || fail "--statistics counts differ from the findings"
import collections, json, sys
st, al = (json.load(open(p)) for p in sys.argv[1:])
c = collections.Counter(f['rule'] for f in al['findings'])
assert {e['rule']: e['count'] for e in st['statistics']} == dict(c)
PYEOF
expect_exit 0 -- "$WL" --statistics fixtures/legacy-intrinsic/clean_modern.cu
[ -s "$T/out" ] && fail "--statistics without findings prints something" || ok
expect_exit 2 -- "$WL" --statistics --format=sarif "$BAD"
finish "inner loop tests"
