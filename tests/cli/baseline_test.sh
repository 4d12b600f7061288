#!/bin/sh
# Baselines through the command line: --write-baseline records, --baseline
# hides what was recorded even after unrelated edits, new findings still
# fail; bad baselines are errors; writes are atomic.
# Usage: baseline_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

R="$T/legacy"
cp -R "$SRC/examples" "$R"
cd "$T" || exit 1

expect_exit 1 -- "$WL" legacy
cp "$T/out" "$T/before.txt"
expect_exit 0 -- "$WL" --write-baseline legacy/warplint-baseline.json legacy
contains "$T/err" "warplint-baseline.json: [1-9][0-9]* findings recorded" "summary on stderr"
[ -s "$T/out" ] && fail "--write-baseline prints no findings" || ok
/usr/bin/python3 -m json.tool legacy/warplint-baseline.json >/dev/null 2>&1 && ok || fail "baseline is not JSON"
contains legacy/warplint-baseline.json '"file": "scan/scan.cu"' "paths relative to the baseline's directory"
find legacy -maxdepth 1 -name '*tmp*' | grep -q . && fail "a temporary file was left" || ok

expect_exit 0 -- "$WL" --baseline legacy/warplint-baseline.json legacy
contains "$T/err" "0 findings in .* (.* more in the baseline)" "baseline count on stderr"
[ -s "$T/out" ] && fail "nothing new: no output" || ok

# unrelated edits: lines inserted above, indentation changed
f=legacy/scan/scan.cu
{ printf '// A comment added later.\n\n#include <stdio.h>\n'; sed 's/^  /    /' "$f"; } >"$T/edited" && cp "$T/edited" "$f"
expect_exit 0 -- "$WL" --baseline legacy/warplint-baseline.json legacy
# from another directory, with absolute paths
expect_exit 0 -- sh -c "cd / && '$WL' --baseline '$R/warplint-baseline.json' '$R'"

# a new finding gets through, and only it
printf '__global__ void added(int *o) { o[0] = __ballot(o[1]); }\n' >>"$f"
expect_exit 1 -- "$WL" --baseline legacy/warplint-baseline.json legacy
count_is "$T/out" "warning:" 1 "only the new finding"
contains "$T/out" "__ballot" "the new finding"
# another identical line is another occurrence
printf '__global__ void added2(int *o) { o[0] = __ballot(o[1]); }\n' >>"$f"
expect_exit 1 -- "$WL" --baseline legacy/warplint-baseline.json --format=json legacy
count_is "$T/out" '"rule": "legacy-intrinsic"' 2 "identical lines count"

# rewriting the baseline accepts them; the old one is replaced whole
expect_exit 0 -- "$WL" --write-baseline legacy/warplint-baseline.json legacy
expect_exit 0 -- "$WL" --baseline legacy/warplint-baseline.json legacy

# errors: exit 2 before anything is analyzed
expect_exit 2 -- "$WL" --baseline "$T/none.json" legacy
contains "$T/err" "none.json: cannot read the baseline" "missing baseline"
printf '{"findings": 3}' >"$T/bad.json"
expect_exit 2 -- "$WL" --baseline "$T/bad.json" legacy
contains "$T/err" "bad.json: not a warplint baseline" "not a baseline"
expect_exit 2 -- "$WL" --write-baseline "$T/no/such/dir/b.json" legacy
contains "$T/err" "b.json: cannot create a temporary file" "unwritable baseline"
[ -e "$T/no/such/dir/b.json" ] && fail "half-written baseline" || ok
expect_exit 2 -- "$WL" --baseline
# an input error while writing: the baseline is written, the exit code says 2
printf 'int x;\0binary' >"$T/blob.cu"
expect_exit 2 -- "$WL" --write-baseline "$T/b2.json" "$T/blob.cu" legacy
[ -s "$T/b2.json" ] && ok || fail "baseline written despite an unreadable input"

finish "baseline tests"
