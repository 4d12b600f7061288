#!/bin/sh
# With a CUDA toolkit that has thrust and cub (skipped, exit 77, without
# one): a file that includes them is parsed with them in the shared
# precompiled header, built with their function bodies skipped
# (analyzer/frontend/pch_std.c), and every file gets exactly the JSON of a
# run without them (--no-std-pch): a file that includes what it uses is
# parsed once; one that names what only a header it does not include
# declares, or defines a macro without a value that cub reads
# (CUB_STDERR) before including it, is parsed again (first with only the
# headers of thrust and cub that it includes, then, when those change what
# it means too, without any; the first is not tried when the check of the
# first parse, restricted to what those headers include, already says it
# would be parsed again); a function-like macro
# that the libraries never call (cuda-samples' MAX) does not make it parse
# again, nor does an operator of a template whose candidates cub's
# cuda_fp16.hpp extends (read as if they were not declared).
# Usage: cccl_pch_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
export WARPLINT_CACHE_DIR="$T/cache"

"$WL" --version >"$T/version" 2>&1
if grep -q "built-in CUDA prelude" "$T/version"; then
  echo "cccl tests: no CUDA toolkit found: skipped"
  exit 77
fi
TK=$(sed -n 's/.*toolkit in \([^ ]*\).*/\1/p' "$T/version" | head -1)
CCCL=$TK/include/cccl
[ -d "$CCCL/thrust" ] || CCCL=$TK/include
if [ ! -f "$CCCL/thrust/version.h" ] || [ ! -f "$CCCL/cub/cub.cuh" ]; then
  echo "cccl tests: the toolkit in '$TK' has no thrust and cub: skipped"
  exit 77
fi

D=$T/src
mkdir -p "$D"
KERNEL='__global__ void k(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  if (t < 32) { s[t] += s[t + 16]; s[t] += s[t + 8]; }
  p[t] = __shfl(s[t], 0);
}
__global__ void block_sum(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128> R;
  __shared__ typename R::TempStorage tmp;
  int v = R(tmp).Sum(in[threadIdx.x]);
  if (threadIdx.x == 0) *out = __shfl_down(v, 1);
}'
# includes what it uses: parsed once, with them
{ printf '#include <cstdio>\n#include <thrust/device_vector.h>\n#include <thrust/fill.h>\n#include <cub/cub.cuh>\n'
  echo "$KERNEL"
  printf 'int main() { thrust::device_vector<int> v(8); thrust::fill(v.begin(), v.end(), 1); printf("%%d\\n", (int)v.size()); return 0; }\n'
} >"$D/proper.cu"
# thrust::sequence without <thrust/sequence.h>
{ printf '#include <thrust/device_vector.h>\n#include <cub/cub.cuh>\n'
  echo "$KERNEL"
  printf 'int main() { thrust::device_vector<int> v(8); thrust::sequence(v.begin(), v.end()); return 0; }\n'
} >"$D/no_header.cu"
# a macro without a value that cub reads, defined before it
{ printf '#define CUB_STDERR\n#include <cub/cub.cuh>\n'
  echo "$KERNEL"
} >"$D/config_before.cu"
# a function-like MAX before them (cuda-samples' helper_cuda.h)
{ printf '#define MAX(a, b) ((a) > (b) ? (a) : (b))\n#include <thrust/device_vector.h>\n#include <cub/cub.cuh>\n'
  echo "$KERNEL"
  printf 'int main() { thrust::device_vector<int> v(8); return MAX((int)v.size(), 1); }\n'
} >"$D/fn_macro.cu"

# std::abs in a template of device code with <cmath> only (kaldi's
# cu-kernels.cu): the section's <complex> adds its `abs(const complex<T> &)`
# to the overloads, which no call of the file can choose (it has no type
# from which T is deduced there: <complex> is out of its reach), so the
# file is parsed once (pch_std.c, candidate_unfit)
{ printf '#include <cmath>\n#include <cub/cub.cuh>\n'
  echo "$KERNEL"
  printf 'template <typename T> __host__ __device__ T dist(T a, T b) { return std::abs(a - b); }\n'
} >"$D/std_name.cu"

# a template comparing two values of its parameter before cub (cudpp's
# max3 in cudpp_util.h): cub brings cuda_fp16.hpp, whose operator> is then
# a candidate of that comparison, which clang keeps as a call of it; lowering
# reads such a call as the built-in operator clang builds without them, so
# the file is parsed once (pch_std.h, wl_half_operator_call)
{ printf 'template <class T> __host__ __device__ T bigger(T a, T b) { return a > b ? a : b; }\n'
  printf '#include <cub/cub.cuh>\n'
  echo "$KERNEL"
} >"$D/fp16_operator.cu"
# the same with a warp-synchronous template before cub whose pointer
# arithmetic, compound assignments, dereferences, negation and increments
# all find cuda_fp16.hpp's operators (a user operator< among them): the
# findings, and their fixes, are those of --no-std-pch, where none is found
HALF_OPS='template <class T> __device__ void wsum(T *s, int t) {
  if (t < 32) {
    *(s + t) += *(s + t + 16);
    s[t] += s[t + 8];
    s[t] = -s[t] * 2;
  }
}
struct key { int v; };
__host__ __device__ bool operator<(key a, key b) { return a.v < b.v; }
template <class T> __host__ __device__ bool less(T a, T b) { return a < b; }
template <class T> __host__ __device__ T next(T i) { i++; return ++i; }'
HALF_KERNEL='template <class T> __global__ void tk(T *p) {
  __shared__ T s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  __syncthreads();
  wsum(s, t);
  p[t] = s[t];
}
template __global__ void tk<int>(int *);'
{ echo "$HALF_OPS"; printf '#include <cub/cub.cuh>\n'; echo "$HALF_KERNEL"; } >"$D/half_ops.cu"
# fabs on a value of a template parameter before cub (kaldi's RandPrune in
# kaldi-math.h): libstdc++'s <math.h>, whose `using std::fabs` adds
# candidates, is in every parse, as nvcc's crt/math_functions.h includes it
# ahead of the file (prelude/__warplint_legacy.h): parsed once
{ printf '#include <cmath>\ntemplate <class T> __host__ __device__ T mag(T a) { return fabs(a); }\n'
  printf '#include <cub/cub.cuh>\n'
  echo "$KERNEL"
} >"$D/fabs_template.cu"
# std::swap on values of a template parameter before cub, which brings the
# overloads of <tuple> and <string>: in host and device code, parsed again;
# with only cub in the section they would be there too, so that parse is
# not tried (pch_std.h, wl_pch_std_differs_within)
{ printf '#include <utility>\n'
  printf 'template <class T> __host__ __device__ void exchange(T &a, T &b) { std::swap(a, b); }\n'
  printf '#include <cub/cub.cuh>\n'; echo "$KERNEL"
} >"$D/hd_swap.cu"
# the same in host code that reaches no launch (kaldi's ReverseVector and
# CuArray<T>::Swap, a member through a dependent `this->` and a call of a
# std::vector<T> member): nothing reads those bodies, parsed once
{ printf '#include <utility>\n#include <vector>\n'
  printf 'template <class T> void reverse(std::vector<T> *v) {\n'
  printf '  for (size_t i = 0; i < v->size() / 2; i++) std::swap((*v)[i], (*v)[v->size() - 1 - i]);\n}\n'
  printf 'template <class T> struct arr {\n  T *d;\n  int n;\n'
  printf '  void swap(arr *o) { std::swap(this->d, o->d); std::swap(this->n, o->n); }\n};\n'
  printf '#include <cub/cub.cuh>\n'; echo "$KERNEL"
} >"$D/host_swap.cu"
# a host body that launches, calls a function that launches, or is
# constexpr (host and device for clang) is read: parsed again
{ printf '#include <utility>\n__global__ void k(int *p);\n'
  printf 'template <class T> void run(T *a, T *b, int *p) { std::swap(*a, *b); k<<<1, 64>>>(p); }\n'
  printf '#include <cub/cub.cuh>\n'; echo "$KERNEL"
} >"$D/host_launch.cu"
{ printf '#include <utility>\n__global__ void k(int *p);\n'
  printf 'static void launch(int *p) { k<<<1, 64>>>(p); }\n'
  printf 'template <class T> void run(T *a, T *b, int *p) { std::swap(*a, *b); launch(p); }\n'
  printf '#include <cub/cub.cuh>\n'; echo "$KERNEL"
} >"$D/host_calls_launch.cu"
{ printf '#include <utility>\n'
  printf 'template <class T> constexpr T later(T a, T b) { std::swap(a, b); return b; }\n'
  printf '#include <cub/cub.cuh>\n'; echo "$KERNEL"
} >"$D/host_constexpr.cu"
# a call written operator*(a, b) is not an operator expression: without
# cuda_fp16.hpp's operators it names none, so the file is parsed again
{ printf 'template <class T> __host__ __device__ T times(T a, T b) { return operator*(a, b); }\n'
  printf '#include <cub/cub.cuh>\n'
  echo "$KERNEL"
} >"$D/written_operator.cu"

for f in proper no_header config_before fn_macro std_name fp16_operator half_ops fabs_template \
  written_operator hd_swap host_swap host_launch host_calls_launch host_constexpr; do
  "$WL" --no-cache --no-std-pch --format=json "$D/$f.cu" >"$T/$f.off" 2>/dev/null
  "$WL" --no-cache -v --format=json "$D/$f.cu" >"$T/$f.on" 2>"$T/$f.err"
  same "$T/$f.off" "$T/$f.on" "$f.cu: JSON with thrust and cub in the precompiled header differs from --no-std-pch"
  case $f in
  proper | fn_macro | fp16_operator | half_ops | fabs_template | host_swap | std_name) lacks "$T/$f.err" "parsed again" "$f.cu: parsed a second time" ;;
  # parsed again with only the headers of thrust and cub it includes (one
  # precompiled header per list of them), checked the same way
  no_header)
    contains "$T/$f.err" "$f.cu: parsed again with only the CUDA C++ core libraries it includes" "$f.cu: not parsed again with its own"
    lacks "$T/$f.err" "parsed again without" "$f.cu: parsed without a section" ;;
  *) contains "$T/$f.err" "$f.cu: parsed again without the standard headers and the CUDA C++ core libraries" "$f.cu: not parsed again" ;;
  esac
done
contains "$T/std_name.on" '"rule": "legacy-intrinsic"' "std_name.cu: findings"
contains "$T/proper.on" '"rule": "legacy-intrinsic"' "proper.cu: findings"
grep -q '"incomplete"' "$T/proper.on" && fail "proper.cu: analysis reported incomplete" || ok
contains "$T/config_before.err" "CUB_STDERR" "config_before.cu: the reason names the macro"
contains "$T/fp16_operator.on" '"rule": "legacy-intrinsic"' "fp16_operator.cu: findings"
contains "$T/written_operator.err" "operator*" "written_operator.cu: the reason names the operator"
contains "$T/fabs_template.on" '"rule": "legacy-intrinsic"' "fabs_template.cu: findings"
for f in hd_swap host_launch host_calls_launch host_constexpr; do
  contains "$T/$f.err" "swap (.*), named at .*$f.cu:[0-9]" "$f.cu: the reason names swap where it is used"
done
contains "$T/hd_swap.err" "so do those it includes itself" "hd_swap.cu: parsed with its own cub first"
for f in hd_swap host_swap host_launch; do
  contains "$T/$f.on" '"rule": "legacy-intrinsic"' "$f.cu: findings"
done
# the three races of wsum, each with its fix, whether the template is read
# before cub or after it (where its operators are candidates in any parse)
{ printf '#include <cub/cub.cuh>\n'; echo "$HALF_OPS"; echo "$HALF_KERNEL"; } >"$D/half_after.cu"
"$WL" --no-cache --format=json "$D/half_after.cu" >"$T/half_after.on" 2>/dev/null
for f in half_ops half_after; do
  n=$(grep -c '"rule": "missing-syncwarp"' "$T/$f.on")
  [ "$n" = 3 ] && ok || fail "$f.cu: $n missing-syncwarp findings, expected 3"
  n=$(grep -c '"fix": {' "$T/$f.on")
  [ "$n" = 3 ] && ok || fail "$f.cu: $n fixes, expected 3"
done

# NCCL's hybrid_ep.cuh after cub: `*p.expected += 1u` in a template, a
# dependent `*` and `+=` that find only cuda_fp16.hpp's operators, read as
# the built-in operators, is a store through the pointer p holds, not to p:
# p.n, the bound of the pipeline loop, stays the same in every lane, and the
# shuffle after `continue` under `(iter++ % NUM_PIPELINES) != rank` is
# reached by whole warps (lanes.c, assign)
{ printf '#include <cub/cub.cuh>\n'
  cat <<'EOF'
template <int N, int S> struct span {
  __host__ __device__ static constexpr int size() { return 32 * N; }
  __host__ __device__ static int warp_rank() { return (threadIdx.x - 32 * S) / 32; }
};
template <class T> struct params { T *data; unsigned *expected; int n; };
template <class T, class G, int NUM_PIPELINES> __device__ void worker(T *data, int n) {
  const int rank = G::warp_rank();
  int iter = 0;
  for (int i = 0; i < n; i++) {
    if ((iter++ % NUM_PIPELINES) != rank) continue;
    data[i] = __shfl_sync(0xffffffff, data[i], 0);
  }
}
template <class T, class G> __device__ void pipelines(const params<T> &p) {
  if ((int)threadIdx.x < G::size()) worker<T, G, 2>(p.data, p.n);
  __syncthreads();
  if (threadIdx.x == 0) *p.expected += 1u;
}
EOF
} >"$D/param_store.cu"
"$WL" --no-cache --format=json "$D/param_store.cu" >"$T/param_store.on" 2>/dev/null
"$WL" --no-cache --no-std-pch --format=json "$D/param_store.cu" >"$T/param_store.off" 2>/dev/null
same "$T/param_store.off" "$T/param_store.on" "param_store.cu: JSON with cub in the precompiled header differs from --no-std-pch"
lacks "$T/param_store.on" '"rule": "full-mask-divergent"' "param_store.cu: a store through p's pointer made p lane-dependent"

# cooperative groups that only a header of the file includes (cuda-samples'
# fastWalshTransform_kernel.cuh) go in its precompiled header too: the same
# JSON as without precompiled headers
printf '#pragma once\n#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n__global__ void tk(int *p) {\n  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());\n  int v = p[t.thread_rank()];\n  if (t.thread_rank() < 16) v += __shfl_down(v, 16);\n  p[t.thread_rank()] = t.shfl(v, 0);\n}\n' >"$D/tile_kernel.cuh"
{ printf '#include <cstdio>\n#include "tile_kernel.cuh"\n'; echo "$KERNEL" | sed '/block_sum/,$d'; } >"$D/cg_header.cu"
"$WL" --no-cache --no-pch --format=json "$D/cg_header.cu" >"$T/cg_header.nopch" 2>/dev/null
"$WL" --no-cache -v --format=json "$D/cg_header.cu" >"$T/cg_header.on" 2>"$T/cg_header.err"
same "$T/cg_header.nopch" "$T/cg_header.on" "cg_header.cu: JSON differs from --no-pch"
contains "$T/cg_header.on" '"rule": "legacy-intrinsic"' "cg_header.cu: findings"

# the store holds the one built with their function bodies skipped
grep -l '^skip-function-bodies$' "$T"/cache/pch/*/key >/dev/null 2>&1 && ok ||
  fail "no stored precompiled header with the function bodies skipped"
# a file that does not include them does not get it
rm -rf "$T/cache"
{ printf '#include <cstdio>\n'; echo "$KERNEL" | sed '/block_sum/,$d'; } >"$D/plain.cu"
"$WL" --no-cache --format=json "$D/plain.cu" >/dev/null 2>&1
grep -l '^skip-function-bodies$' "$T"/cache/pch/*/key >/dev/null 2>&1 &&
  fail "a file without thrust, cub or libcu++ includes got them" || ok

# the toolkit's costly library headers (cublas_v2.h, cusparse.h, cuda_bf16.h,
# curand_kernel.h...) that a file includes itself, and none of the core
# libraries: after the standard headers in its precompiled header's section
# (analyzer/frontend/parse.c, library_headers), one precompiled header per
# list of them, function bodies skipped; the same JSON as --no-std-pch
LIBK='__global__ void lk(int *p) { int t = threadIdx.x; p[t] = __shfl(p[t], 0); }'
# NVIDIA's helper_cuda.h tests the include guards of the libraries
printf '#pragma once\n#ifdef _CUFFT_H_\nint cufft_errors(void);\n#endif\n#ifdef CUBLAS_API_H_\nint cublas_errors(void);\n#endif\n' >"$D/helper_guards.h"
if [ -f "$TK/include/cublas_v2.h" ]; then
  { printf '#include <cstdio>\n#include <cublas_v2.h>\n#include "helper_guards.h"\n'; echo "$LIBK"
    printf 'int main() { cublasHandle_t h; return (int)cublasCreate(&h) + cublas_errors(); }\n'; } >"$D/lib_own.cu"
  { printf '#include <vector>\n#include <cublas_v2.h>\n'; echo "$LIBK"; } >"$D/lib_same.cu"
  # the helper reads the guard before the file includes cublas: parsed again
  { printf '#include <cstdio>\n#include "helper_guards.h"\n#include <cublas_v2.h>\n'; echo "$LIBK"; } >"$D/lib_early.cu"
  rm -rf "$T/cache"
  "$WL" --no-cache --format=json "$D/plain.cu" >/dev/null 2>&1
  before=$(find "$T/cache/pch" -name key | wc -l)
  for f in lib_own lib_same lib_early; do
    "$WL" --no-cache --no-std-pch --format=json "$D/$f.cu" >"$T/$f.off" 2>/dev/null
    "$WL" --no-cache -v --format=json "$D/$f.cu" >"$T/$f.on" 2>"$T/$f.err"
    same "$T/$f.off" "$T/$f.on" "$f.cu: JSON with cublas in the precompiled header differs from --no-std-pch"
    contains "$T/$f.on" '"rule": "legacy-intrinsic"' "$f.cu: findings"
  done
  lacks "$T/lib_own.err" "parsed again" "lib_own.cu: parsed a second time (a guard of a library it does not include)"
  lacks "$T/lib_same.err" "parsed again" "lib_same.cu: parsed a second time"
  contains "$T/lib_early.err" "lib_early.cu: parsed again.*CUBLAS_API_H_" "lib_early.cu: not parsed again for the guard read early"
  grep -q '"incomplete"' "$T/lib_own.on" && fail "lib_own.cu: analysis reported incomplete" || ok
  # lib_own and lib_same share one (the list is the same), built with the
  # function bodies skipped; lib_early's second parse adds its own
  after=$(grep -l '^skip-function-bodies$' "$T"/cache/pch/*/key 2>/dev/null | wc -l)
  [ "$after" -ge 1 ] && [ "$after" -le 2 ] && ok ||
    fail "precompiled headers with cublas: $after (before: $before without it), expected 1 or 2"
  rm -rf "$T/cache"
  "$WL" --no-cache --format=json "$D/lib_own.cu" "$D/lib_same.cu" >/dev/null 2>&1
  n=$(grep -l '^skip-function-bodies$' "$T"/cache/pch/*/key 2>/dev/null | wc -l)
  [ "$n" = 1 ] && ok || fail "two files including cublas_v2.h: $n precompiled headers with it, expected 1"
fi
finish cccl_pch
