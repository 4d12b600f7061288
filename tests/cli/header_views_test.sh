#!/bin/sh
# The rules run on each reported header of a file as if the header were the
# file analyzed; the shared-memory analysis of the file's own view is reused
# for a header's view only where every decision it made is the same in that
# view (wl_smem_serves_view). Two decisions read the text of the file viewed
# as the main one: a cast's spelling (cast_ptr) and an unresolved expression
# passing a __shared__ variable (unresolved_on_shared). Each header below
# makes one of them differ between the views, and its own view's finding
# must stay; a plain header's finding comes from the reused analysis.
# Usage: header_views_test.sh <warplint> <source-dir>
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

D="$T/p"
mkdir -p "$D"
# a header with a race of its own: its view reuses the main file's analysis
cat >"$D/plain.cuh" <<'CU'
__global__ void plain(int *out) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  s[lane] = out[lane];
  out[lane] = s[(lane + 1) & 31];
}
CU
# a cast whose spelling (the text between < and >: "unsigned char") is the
# element type of s, whereas its type is V<unsigned char>::R: read in the
# header's own view only, where the store through q meets s's elements
cat >"$D/spelled.cuh" <<'CU'
template <typename T> struct V { typedef T R; };

__global__ void spelled(unsigned char *out) {
  __shared__ unsigned char s[64];
  int lane = threadIdx.x & 31;
  V<unsigned char>::R *q = (V<unsigned char>::R *)s;
  q[lane] = out[lane];
  out[lane] = s[(lane + 1) & 31];
}
CU
# helpers whose accesses race when nothing orders them
cat >"$D/pair.cuh" <<'CU'
__device__ int get(int *s, int lane) {
  int r = s[(lane + 1) & 31];
  return r - 1;
}
__device__ void put(int *s, int lane, int v) {
  int w = v * 2;
  s[lane] = w + 1;
}
CU
# the main file, with a race of its own; plain.cuh's view reuses its
# analysis, spelled.cuh's does not
cat >"$D/main.cu" <<'CU'
#include "plain.cuh"
#include "spelled.cuh"
__global__ void k(int *out) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  s[lane] = out[lane];
  out[lane] = s[lane ^ 1];
}
CU
# between get and put, a library reduction whose headers are missing, read
# from the main file's text (it may hold a barrier) in the main file's view
# only: pair.cuh's view does not read it and reports the race
cat >"$D/red.cu" <<'CU'
#include "pair.cuh"
template <int BLOCK>
__global__ void k(int *out) {
  typedef cub::BlockReduce<int, BLOCK> R;
  __shared__ typename R::TempStorage temp;
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  int x = get(s, lane);
  int total = R(temp).Sum(x);
  put(s, lane, x + total);
  out[lane] = x;
}
CU
check() { # label
  count_is "$T/out" "main.cu:7:.*missing-syncwarp" 1 "$1: the main file's race"
  count_is "$T/out" "plain.cuh:5:.*missing-syncwarp" 1 "$1: plain.cuh's race (the main file's analysis)"
  count_is "$T/out" "spelled.cuh:8:.*missing-syncwarp" 1 "$1: spelled.cuh's race (its own view's analysis)"
  count_is "$T/out" "pair.cuh:7:.*missing-syncwarp" 1 "$1: pair.cuh's race (its own view's analysis)"
  count_is "$T/out" "missing-syncwarp" 4 "$1: nothing else"
}
expect_exit 1 -- "$WL" --no-cache --no-cuda-path --color=never "$D/main.cu" "$D/red.cu"
check "two files"
expect_exit 1 -- "$WL" --no-cache --no-cuda-path --color=never -j2 "$D"
check "the directory"
# main files large enough (over 1 MiB) to be analyzed in batches
for f in main red; do
  cp "$D/$f.cu" "$D/big_$f.cu"
  python3 -c "import sys; sys.stdout.write(('// ' + 'x' * 1020 + '\\n') * 1100)" >>"$D/big_$f.cu"
done
expect_exit 1 -- "$WL" --no-cache --no-cuda-path --color=never "$D/big_main.cu" "$D/big_red.cu"
sed -i 's/big_main\.cu/main.cu/' "$T/out"
check "batched"
# a macro's body is spelled in the header that defines it: a legacy shuffle
# there is reported in a project header, at the expansion in a system header
# (-isystem); the shared-memory accesses the macros spell are the main file's
mkdir -p "$T/m/sys" "$T/m/usr"
printf '#define SYS_SHFL(v) __shfl((v), 0)\n#define SYS_STORE(s, i, v) ((s)[(i)] = (v))\n' >"$T/m/sys/sysm.h"
printf '#define USR_SHFL(v) __shfl((v), 0)\n#define USR_STORE(s, i, v) ((s)[(i)] = (v))\n' >"$T/m/usr/usrm.h"
cat >"$T/m/m.cu" <<'CU'
#include <sysm.h>
#include <usrm.h>
__global__ void k(int *out) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  USR_STORE(s, lane, out[lane]);
  out[lane] = s[lane ^ 1] + USR_SHFL(lane);
  SYS_STORE(s, lane + 32, out[lane]);
  out[lane + 32] = s[(lane ^ 1) + 32] + SYS_SHFL(lane);
}
CU
cd "$T/m" || exit 1
expect_exit 1 -- "$WL" --no-cache --no-cuda-path --color=never m.cu -- -isystem sys -I usr
contains "$T/out" "^usr/usrm.h:1:21: warning: legacy warp shuffle" "a project header's macro: reported in the header"
contains "$T/out" "^m.cu:7:29: note: expanded from macro 'USR_SHFL' here" "a project header's macro: the expansion noted"
contains "$T/out" "^m.cu:9:41: warning: legacy warp shuffle" "a system header's macro: reported at the expansion"
contains "$T/out" "^m.cu:9:41: note: in the expansion of macro 'SYS_SHFL' defined in sys/sysm.h:1" "a system header's macro: its definition noted"
lacks "$T/out" "^sys/" "a system header's macro: nothing reported in the header"
count_is "$T/out" "missing-syncwarp" 2 "the races of the macros' accesses, in the main file"
cd "$SRC" || exit 1
finish header_views
