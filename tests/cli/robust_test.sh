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

# --- files that are not regular files, or too big: never a hang ------------
printf '%s\n' "$GOOD" >"$T/good.cu"
mkfifo "$T/fifo" || fail "mkfifo"
expect_exit 2 -- timeout 20 "$WL" "$T/fifo" "$T/good.cu"
contains "$T/err" "fifo: not a regular file" "a FIFO named as input"
contains "$T/out" "legacy-intrinsic" "the other file is analyzed"
expect_exit 2 -- timeout 20 "$WL" --config "$T/fifo" "$T/good.cu"
contains "$T/err" "cannot read: not a regular file (a FIFO)" "a FIFO as --config"
expect_exit 2 -- timeout 20 "$WL" --baseline "$T/fifo" "$T/good.cu"
contains "$T/err" "cannot read the baseline: not a regular file (a FIFO)" "a FIFO as --baseline"
expect_exit 2 -- timeout 20 "$WL" --baseline /dev/zero "$T/good.cu"
contains "$T/err" "not a regular file (a character device)" "/dev/zero as --baseline"
expect_exit 2 -- timeout 20 "$WL" --config /dev/zero "$T/good.cu"
contains "$T/err" "not a regular file (a character device)" "/dev/zero as --config"
mkdir "$T/db" && mkfifo "$T/db/compile_commands.json"
expect_exit 2 -- timeout 20 "$WL" -p "$T/db" "$T/good.cu"
contains "$T/err" "compile_commands.json: cannot read: not a regular file (a FIFO)" "a FIFO as compile database"
head -c 1100000 /dev/zero | tr '\0' '#' >"$T/big.warplint"
expect_exit 2 -- timeout 20 "$WL" --config "$T/big.warplint" "$T/good.cu"
contains "$T/err" "cannot read: larger than 1 MiB" "a .warplint over the size limit"

# --- an options file that includes itself: read once, a note ------------------
mkdir "$T/opt"
printf '%s\n' "$GOOD" >"$T/opt/good.cu"
printf -- '-DX @opt.rsp @opt.rsp @opt.rsp @opt.rsp @opt.rsp @opt.rsp --options-file opt.rsp\n' >"$T/opt/opt.rsp"
printf '[{"directory": "%s", "file": "good.cu", "arguments": ["nvcc", "-c", "--options-file", "opt.rsp", "good.cu"]}]\n' "$T/opt" >"$T/opt/compile_commands.json"
expect_exit 1 -- timeout 20 "$WL" -v -p "$T/opt" "$T/opt/good.cu"
contains "$T/err" "options file '.*opt.rsp' includes itself: not read again" "self-including options file"
contains "$T/out" "legacy-intrinsic" "self-including options file: the file is analyzed"

# --- a NUL byte after the first 64 KiB: the whole file is checked --------------
{ head -c 70000 /dev/zero | tr '\0' ' '; printf '\n\000\n%s\n' "$GOOD"; } >"$T/tail.cu"
expect_exit 2 -- "$WL" "$T/tail.cu" "$T/good.cu"
contains "$T/err" "tail.cu: not a text file (binary content)" "binary content after 64 KiB"

# --- a tree deeper than the walk goes: an error, not a silent skip -------------
mkdir "$T/tree" && cp "$T/good.cu" "$T/tree/top.cu"
deep=$(python3 -c "print('/'.join(['d'] * 1030))")
(cd "$T/tree" && mkdir -p "$deep" && cp ../good.cu "$deep/bottom.cu")
expect_exit 2 -- "$WL" "$T/tree"
contains "$T/err" "directory nested more than 1024 levels below the path given: not searched" "deep tree reported"
contains "$T/out" "top.cu" "deep tree: the files above the limit are analyzed"

# --- 2,000 findings on one 38 KB line: fingerprints are not quadratic ---------
python3 -c "import sys; sys.stdout.write('__global__ void k(int v) { ' + ' '.join(['v += __shfl(v, 1);'] * 2000) + ' }\n')" >"$T/oneline.cu"
expect_exit 1 -- timeout 60 "$WL" --format=json "$T/oneline.cu"
python3 - "$T/out" >"$T/check" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fps = [f["fingerprint"] for f in d["findings"]]
assert len(fps) == 2000 and len(set(fps)) == 2000, (len(fps), len(set(fps)))
print("ok")
PY
contains "$T/check" "^ok" "2,000 findings on one line: 2,000 distinct fingerprints within the time limit"
expect_exit 1 -- timeout 60 "$WL" --format=sarif "$T/oneline.cu"

# --- work budgets: pathological shapes end in well under their old minutes ----
python3 -c "import sys; sys.stdout.write('__global__ void k(float *o) { __shared__ float s[256];\n' + ''.join('for (int i%d = 0; i%d < 2; i%d++) {\n' % (i, i, i) for i in range(200)) + 's[threadIdx.x] = 1; o[0] = s[threadIdx.x ^ 1];\n' + '}' * 200 + '\n}\n')" >"$T/for200.cu"
expect_exit 0 -- timeout 60 "$WL" --format=json "$T/for200.cu"
contains "$T/err" "the shared-memory analysis of 'k' stopped at its work budget" "200 nested loops: budget notice"
contains "$T/out" '"notices"' "200 nested loops: the notice is in JSON"
# the same nest in a kernel whose code names no __shared__ variable, in a
# file where another kernel does: nothing there to race on, not analyzed (no
# notice); with a device function that uses shared memory called in the nest,
# it is analyzed (the notice stays)
python3 -c "import sys; sys.stdout.write('__global__ void other(float *o) { __shared__ float s[64]; s[threadIdx.x] = 1; o[0] = s[0]; }\n__global__ void k(float *o) {\n' + ''.join('for (int i%d = 0; i%d < 2; i%d++) {\n' % (i, i, i) for i in range(200)) + 'o[threadIdx.x] = 1;\n' + '}' * 200 + '\n}\n')" >"$T/nest_noshared.cu"
expect_exit 1 -- timeout 60 "$WL" --no-cache "$T/nest_noshared.cu"
lacks "$T/err" "analysis of 'k' stopped" "a nest that reaches no shared memory: not analyzed, no budget notice"
contains "$T/out" "nest_noshared.cu:1:.*missing-syncwarp" "a nest that reaches no shared memory: the other kernel's race"
sed 's/^__global__ void other(float \*o)/__device__ void other(float *o)/; s/^o\[threadIdx.x\] = 1;$/other(o);/' "$T/nest_noshared.cu" >"$T/nest_call.cu"
expect_exit 0 -- timeout 60 "$WL" --no-cache "$T/nest_call.cu"
contains "$T/err" "analysis of 'k' stopped at its work budget" "a nest that calls a function using shared memory: analyzed"
# the same kernel in a header included as "../inc/deep.cuh", as "deep.cuh"
# through -I and through a compile database's absolute -I: one notice, at the
# header's displayed path (not once per spelling of its path)
mkdir -p "$T/bproj/inc" "$T/bproj/a" "$T/bproj/b" "$T/bproj/.git" "$T/bbld"
sed 's/^__global__ void k(/__global__ void deep(/' "$T/for200.cu" >"$T/bproj/inc/deep.cuh"
printf '#include "../inc/deep.cuh"\n__global__ void ka(float *o) { o[1] = 2; }\n' >"$T/bproj/a/x.cu"
printf '#include "deep.cuh"\n__global__ void kb(float *o) { o[1] = 3; }\n' >"$T/bproj/b/y.cu"
cd "$T" || exit 1
expect_exit 0 -- "$WL" --no-cache -I bproj/inc bproj
contains "$T/err" "^warplint: note: bproj/inc/deep.cuh:1:17: missing-syncwarp: the shared-memory analysis of 'deep' stopped" "header budget notice: at the header's displayed path"
count_is "$T/err" "analysis of 'deep' stopped" 1 "header budget notice: once for two spellings of the path"
python3 -c "import json,sys; r=sys.argv[1]; print(json.dumps([{'directory': r, 'file': r + '/bproj/a/x.cu', 'arguments': ['nvcc', '-c', r + '/bproj/a/x.cu']}, {'directory': r, 'file': r + '/bproj/b/y.cu', 'arguments': ['nvcc', '-I' + r + '/bproj/inc', '-c', r + '/bproj/b/y.cu']}]))" "$(cd "$T" && pwd -P)" >"$T/bbld/compile_commands.json"
expect_exit 0 -- "$WL" --no-cache -p bbld bproj
count_is "$T/err" "analysis of 'deep' stopped" 1 "header budget notice with a compile database: once"
contains "$T/err" "^warplint: note: bproj/inc/deep.cuh:1:17:" "header budget notice with a compile database: the displayed path"
cd "$SRC" || exit 1
python3 -c "import sys; sys.stdout.write('__global__ void k(float *o) { __shared__ float s[2048];\n' + ''.join('s[threadIdx.x + %d] = s[threadIdx.x + %d] + 1;\n' % (i % 64, (i + 1) % 64) for i in range(1000)) + 'o[threadIdx.x] = s[threadIdx.x];\n}\n')" >"$T/acc1000.cu"
expect_exit 1 -- timeout 60 "$WL" "$T/acc1000.cu"
contains "$T/err" "^1001 findings" "1,000 unsynchronized accesses: every statement reported"

# --- a parse that never ends (an #include of a FIFO) is stopped by --file-timeout
mkdir -p "$T/hangdir"
mkfifo "$T/hangdir/pipe.h"
printf '#include "pipe.h"\n%s\n' "$GOOD" >"$T/hangdir/hang.cu"
printf '%s\n' "$GOOD" >"$T/hangdir/ok.cu"
expect_exit 2 -- timeout 60 "$WL" --format=json --file-timeout=2 "$T/hangdir/ok.cu" "$T/hangdir/hang.cu"
contains "$T/err" "hang.cu: the analysis of this file took longer than 2 s (--file-timeout)" "FIFO include: the file is stopped and named"
contains "$T/out" '"legacy-intrinsic"' "FIFO include: the other file's finding is reported"
expect_exit 2 -- "$WL" --file-timeout=-1 "$T/hangdir/ok.cu"
contains "$T/err" "file-timeout needs a number of seconds" "--file-timeout rejects a negative value"

# --- a file that grows without bound (an #include of /dev/zero) is stopped by
# the worker's memory limit (--file-memory), long before --file-timeout
printf '#include "/dev/zero"\n%s\n' "$GOOD" >"$T/hangdir/zero.cu"
if [ "${WL_SANITIZED:-0}" = 1 ]; then
  echo "note: sanitizer build: no --file-memory limit, the /dev/zero include is not checked"
else
  start=$(date +%s)
  expect_exit 2 -- timeout 120 "$WL" --format=json --file-memory=512 "$T/hangdir/ok.cu" "$T/hangdir/zero.cu" "$T/good.cu"
  took=$(($(date +%s) - start))
  contains "$T/err" "zero.cu: the analysis of this file ran out of memory (the limit is 512 MiB a worker, --file-memory)" "/dev/zero include: the file is stopped for memory and named"
  count_is "$T/out" '"legacy-intrinsic"' 2 "/dev/zero include: the other files' findings are reported"
  [ "$took" -lt 100 ] && ok || fail "/dev/zero include: took $took s"
  # with a larger limit libclang's failed allocation leaves less than half of
  # it resident (it recovers as from a crash, then frees): the worker's
  # largest size (VmPeak), not its resident peak, tells it ran out of memory
  expect_exit 2 -- timeout 120 "$WL" --format=json --file-memory=2048 "$T/hangdir/ok.cu" "$T/hangdir/zero.cu"
  contains "$T/err" "zero.cu: the analysis of this file ran out of memory (the limit is 2048 MiB a worker, --file-memory)" "/dev/zero include, 2 GiB limit: stopped for memory, not 'could not parse'"
  lacks "$T/err" "libclang could not parse" "/dev/zero include, 2 GiB limit: no parse error"
  count_is "$T/out" '"legacy-intrinsic"' 1 "/dev/zero include, 2 GiB limit: the other file's finding is reported"
fi
expect_exit 2 -- "$WL" --file-memory=12 "$T/hangdir/ok.cu"
contains "$T/err" "file-memory needs a number of MiB" "--file-memory rejects a limit too small to parse anything"
expect_exit 1 -- "$WL" --file-memory=0 "$T/hangdir/ok.cu"

finish robust
