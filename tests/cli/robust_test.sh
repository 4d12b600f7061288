#!/bin/sh
# Hostile shapes (issue 18): inputs nested deeper than WL_MAX_NESTING are
# generated here at run time (megabytes are not committed). Each must end
# cleanly: the deep function is left out with a notice (stderr, JSON
# "notices", SARIF toolExecutionNotifications), every other function and file
# is still analyzed.
# Usage: robust_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1

GOOD='__global__ void good(int v) { v += __shfl_down(v, 1); }'
gen() { # name python-expression-of-the-deep-kernel
  python3 -c "import sys; sys.stdout.write($2)" >"$T/$1.cu"
  printf '%s\n' "$GOOD" >>"$T/$1.cu"
}
gen sum12k "'__global__ void k(int *a) { int x = 0' + ' + a[1]' * 12000 + '; a[0] = x; }\n'"
gen ifs20k "'__global__ void k(int *a) {\n' + 'if (a[0]) ' * 20000 + 'a[1] = 1;\n}\n'"
gen tern20k "'__global__ void k(int *a) { a[0] = ' + 'a[1] ? 0 : ' * 20000 + '1; }\n'"
# a 360-byte macro summing 16,384 terms, and one summing 65,536 (libclang's
# own 8 MiB parse thread overflowed on it)
A='#define A(x) x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x'
printf '%s\n#define B(x) A(A(x))\n#define C(x) B(A(x))\n#define D(x) C(x)+C(x)+C(x)+C(x)\n__global__ void k(int *a) { int v = D(a[0]); a[1] = v; }\n%s\n' "$A" "$GOOD" >"$T/macro16k.cu"
printf '%s\n#define B(x) A(A(x))\n#define C(x) B(B(x))\n__global__ void k(int *a) { int v = C(a[0]); a[1] = v; }\n%s\n' "$A" "$GOOD" >"$T/macro64k.cu"

for f in sum12k ifs20k tern20k macro16k macro64k; do
  expect_exit 1 -- "$WL" --format=json "$T/$f.cu"
  contains "$T/err" "note: .*$f.cu:[0-9]*:[0-9]*: function 'k' not analyzed: nested more than 1000 levels deep" "$f: notice on stderr"
  python3 - "$T/out" "$f" >"$T/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["rule"] for x in d["findings"]] == ["legacy-intrinsic"], d["findings"]
assert len(d["notices"]) == 1 and "function 'k' not analyzed" in d["notices"][0]["message"], d["notices"]
assert d["notices"][0]["line"] >= 1
print("ok")
PY
  contains "$T/check" "^ok" "$f: JSON has the other kernel's finding and the notice"
done
expect_exit 1 -- "$WL" --format=sarif "$T/tern20k.cu"
python3 - "$T/out" >"$T/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
run = d["runs"][0]
assert len(run["results"]) == 1
n = run["invocations"][0]["toolExecutionNotifications"]
assert n[0]["level"] == "note" and "not analyzed" in n[0]["message"]["text"], n
print("ok")
PY
contains "$T/check" "^ok" "SARIF: the notice is a toolExecutionNotification of level note"

# nesting below the bound is analyzed as usual: 900 nested ifs around a shuffle
gen ifs900 "'__global__ void k(int *a, int v) {\n' + 'if (a[0]) ' * 900 + 'a[1] = __shfl_xor(v, 1);\n}\n'"
expect_exit 1 -- "$WL" "$T/ifs900.cu"
count_is "$T/out" "legacy-intrinsic" 2 "900 nested ifs: both shuffles reported"
lacks "$T/err" "not analyzed" "900 nested ifs: no notice"

finish robust
