#!/bin/sh
# Pathological shapes of issue 19, generated at run time by
# scripts/pathological.sh at modest sizes. There is no timed assertion: ctest
# runs this test with a TIMEOUT that the quadratic (and worse) reporting and
# lowering that were fixed would exceed by far (a straight-line kernel of
# 1,000 shared accesses took 94 s, 1,024 lane-dependent if/else over 150 s,
# 64 macro invocations calling 64 undeclared functions each 13 s), or a
# memory limit that the fixed one would exceed; the findings themselves are
# checked.
# Usage: scaling_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1

json_count() { # json-file rule -> number of findings of that rule
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(sum(1 for f in d["findings"] if f["rule"]==sys.argv[2]))' "$1" "$2"
}

scripts/pathological.sh straight 1000 >"$T/straight.cu"
expect_exit 1 -- "$WL" --format=json "$T/straight.cu"
n=$(json_count "$T/out" missing-syncwarp)
[ "$n" -eq 999 ] && ok || fail "straight: $n missing-syncwarp findings (want 999: every access after the first)"

scripts/pathological.sh ifelse 1024 >"$T/ifelse.cu"
expect_exit 1 -- "$WL" --format=json "$T/ifelse.cu"
n=$(json_count "$T/out" missing-syncwarp)
[ "$n" -eq 2047 ] && ok || fail "ifelse: $n missing-syncwarp findings (want 2047)"

scripts/pathological.sh macrocalls 1024 >"$T/macro.cu"
expect_exit 1 -- "$WL" --format=json "$T/macro.cu"
n=$(json_count "$T/out" legacy-intrinsic)
[ "$n" -eq 1 ] && ok || fail "macrocalls: $n legacy-intrinsic findings (want 1)"
lacks "$T/err" "not analyzed" "macrocalls: the kernel is analyzed"

# 200 warp-uniform branches over lane-dependent writes: each branch checked
# every pending access's lanes against its condition by making a guard and
# copying every lane's constraints (1.1 GB for this file, cudpp's
# compress_app.cu 1.2 GB); within 512 MiB a worker now
scripts/pathological.sh uniform 200 >"$T/uniform.cu"
expect_exit 1 -- "$WL" --format=json --file-memory=512 "$T/uniform.cu"
n=$(json_count "$T/out" missing-syncwarp)
[ "$n" -eq 399 ] && ok || fail "uniform: $n missing-syncwarp findings (want 399)"
lacks "$T/err" "not analyzed" "uniform: the kernel is analyzed within 512 MiB"

# a lookup table of 2,000 `if (...) return` inlined three times: each return
# asked whether a lane gets there by instantiating the conditions of every
# `if` before it again, for each lane (400 took 11 s, 2,000 about 5 minutes;
# ggml's mmq files, 380 such lines in a constexpr configuration function,
# over 150 s each)
scripts/pathological.sh returns 2000 >"$T/returns.cu"
expect_exit 1 -- "$WL" --format=json "$T/returns.cu"
n=$(python3 -c 'import json,sys; print(" ".join(str(f["line"]) for f in json.load(open(sys.argv[1]))["findings"] if f["rule"]=="missing-syncwarp"))' "$T/out")
[ "$n" = "2008 2009" ] && ok || fail "returns: missing-syncwarp findings on lines '$n' (want 2008 2009)"
lacks "$T/err" "work budget" "returns: the kernel's analysis is complete"

# no __shared__ in the file: the shared-memory analysis finds nothing (and
# skips the kernel), the other rules still run
scripts/pathological.sh noshared 1024 >"$T/noshared.cu"
printf '__device__ int g(int v) { return __shfl(v, 0); }\n' >>"$T/noshared.cu"
expect_exit 1 -- "$WL" --format=json "$T/noshared.cu"
n=$(json_count "$T/out" missing-syncwarp)
[ "$n" -eq 0 ] && ok || fail "noshared: $n missing-syncwarp findings (want 0)"
n=$(json_count "$T/out" legacy-intrinsic)
[ "$n" -eq 1 ] && ok || fail "noshared: $n legacy-intrinsic findings (want 1)"

# a device function that no function calls, with a pointer parameter and no
# __shared__ anywhere: still analyzed (memory of unknown space)
cat >"$T/param.cu" <<'CU'
__device__ void step(int *p) {
  int lane = threadIdx.x & 31;
  p[lane] = lane;
  p[lane] += p[lane ^ 1];
}
CU
expect_exit 1 -- "$WL" --format=json "$T/param.cu"
n=$(json_count "$T/out" missing-syncwarp)
[ "$n" -ge 1 ] && ok || fail "param: $n missing-syncwarp findings (want the race through 'p')"
finish scaling
