#!/bin/sh
# With the CUDA toolkit warplint finds (skipped, exit 77, without one): every
# fixture gives the same findings as with the built-in prelude; the shared
# precompiled headers change nothing (toolkit and prelude, --no-pch), live in
# a private temporary directory that is gone after the run, and a run whose
# TMPDIR cannot be written still works.
# Usage: toolkit_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1

"$WL" --version >"$T/version" 2>&1
if grep -q "built-in CUDA prelude" "$T/version"; then
  echo "toolkit tests: no CUDA toolkit found: skipped"
  exit 77
fi
sed 's/^/    /' "$T/version"
mkdir -p "$T/tmp"

findings() { # JSON output -> one line per finding (where, rule, message)
  python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print(f["file"], f["line"], f["column"], f["rule"], f["message"])' "$1"
}
# every fixture: toolkit (with precompiled headers) = prelude, except the
# hand-made double __shfl_down overloads: clang's CUDA headers define that
# overload themselves, so with a toolkit the file's own is a redefinition (as
# with nvcc 9+) and its calls are reported as plain legacy shuffles. The
# GPU probes (fixtures/gpu/probes/: standalone host+device programs using the
# runtime API, which the prelude does not declare) parse only with a toolkit.
"$WL" -j2 --no-cuda-path --format=json fixtures >"$T/prelude.json" 2>"$T/prelude.err"
TMPDIR="$T/tmp" "$WL" -j2 --format=json fixtures >"$T/toolkit.json" 2>"$T/toolkit.err"
OVERLOADS='legacy-intrinsic/(double_overload|fix_whole_warp)\.cu|gpu/probes/'
findings "$T/prelude.json" | grep -Ev "$OVERLOADS" >"$T/prelude.txt"
findings "$T/toolkit.json" | grep -Ev "$OVERLOADS" >"$T/toolkit.txt"
count_is "$T/toolkit.txt" "legacy-intrinsic" "$(grep -c legacy-intrinsic "$T/prelude.txt")" "as many legacy findings"
same "$T/prelude.txt" "$T/toolkit.txt" "fixtures: toolkit findings differ from the prelude's"
contains "$T/toolkit.json" '"rule": "legacy-intrinsic"' "toolkit mode reports"
# the toolkit's tiles too: tile_sum(t, v) converts a thread_block_tile<32,
# thread_block> to the parameter's thread_block_tile<32> with a conversion
# function, which must not hide the call
contains "$T/toolkit.txt" "tiles.cu 59 .* cg-collective-divergent" "toolkit: a tile passed by value"
left=$(find "$T/tmp" -mindepth 1 | wc -l)
[ "$left" -eq 0 ] && ok || fail "the precompiled headers were left in TMPDIR ($left entries)"

# precompiled headers on and off: identical (prelude on every fixture;
# toolkit on the legacy-intrinsic ones: without them each file costs ~0.3 s)
"$WL" -j2 --no-cuda-path --no-pch --format=json fixtures >"$T/prelude-nopch.json" 2>/dev/null
same "$T/prelude.json" "$T/prelude-nopch.json" "prelude: --no-pch changes the findings"
"$WL" -j2 --format=json fixtures/legacy-intrinsic >"$T/li.json" 2>/dev/null
"$WL" -j2 --no-pch --format=json fixtures/legacy-intrinsic >"$T/li-nopch.json" 2>/dev/null
same "$T/li.json" "$T/li-nopch.json" "toolkit: --no-pch changes the findings"
# a TMPDIR that cannot be written: no precompiled header, same findings
TMPDIR="$T/nowhere" "$WL" -j2 --format=json fixtures/legacy-intrinsic >"$T/li-notmp.json" 2>/dev/null
same "$T/li.json" "$T/li-notmp.json" "toolkit without a usable TMPDIR"

# the template instantiated with double and long resolves and is fixed
expect_exit 1 -- "$WL" -v fixtures/legacy-intrinsic/template_all_types.cu
lacks "$T/err" "ambiguous" "legacy overloads resolve with the toolkit"
count_is "$T/out" "warning: legacy warp shuffle" 2 "each template call reported once"
expect_exit 1 -- "$WL" --diff fixtures/legacy-intrinsic/template_all_types.cu
contains "$T/out" "__shfl_down_sync(0xffffffff, v, offset)" "and fixed"

# legacy host code calls max(1, n) with an unsigned n, as nvcc's host
# compilation (the toolkit's crt/math_functions.h) accepts it
printf 'unsigned blocks(unsigned n) { return max(1, n) + min(n, 2) + max(1L, 2UL); }\n__global__ void k(float *o) { o[0] = max(o[1], 2.0f) + min(1, 2); }\n' >"$T/host.cu"
expect_exit 0 -- "$WL" -v "$T/host.cu"
lacks "$T/err" "could not resolve" "toolkit: host min/max overloads resolve"
lacks "$T/err" "analysis incomplete" "toolkit: host min/max: complete"

# the cache-hint loads and stores (llm.c's load128cs): clang's CUDA headers
# keep the toolkit's sm_32_intrinsics.h out, warplint declares them
printf '__global__ void k(float *o, const int4 *p, const float *q) {\n  int4 v = __ldcs(p);\n  __stcs(o, v.x + __ldcg(q) + __ldlu(q));\n  __stwt(o + 1, 2.0);\n  o[2] = __shfl(o[3], 0);\n}\n' >"$T/cache_hints.cu"
expect_exit 1 -- "$WL" -v "$T/cache_hints.cu"
lacks "$T/err" "could not resolve" "toolkit: cache-hint loads and stores resolve"
lacks "$T/err" "analysis incomplete" "toolkit: cache-hint loads and stores: complete"
contains "$T/out" "cache_hints.cu:5:.*__shfl" "toolkit: the kernel's body is analyzed"

finish "toolkit tests"
