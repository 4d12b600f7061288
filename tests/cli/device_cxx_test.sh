#!/bin/sh
# C++ that nvcc accepts in device code and modern trees use (NVIDIA/nccl)
# parses completely, in both modes (the toolkit's part is skipped without one):
# placement new with and without <new> (nvcc's crt/common_functions.h includes
# it; with a toolkit, clang's cuda_wrappers/new is on the include path, as
# clang's own driver puts it there), `typeof` under -std=c++17 (NCCL's
# GPI_ACCESS_ONCE), and a struct declared `extern __shared__` (relocatable
# device code). Each function still holds a legacy shuffle that is reported,
# so its body was analyzed.
# Usage: device_cxx_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

cat >"$T/placement.cu" <<'CU'
struct Slot {
  int v;
  __device__ Slot(int x) : v(x) {}
};
__global__ void construct(char *buf) {
  Slot *s = new (buf + 8 * threadIdx.x) Slot(__shfl(1, 0));
  buf[0] = (char)s->v;
}
CU
printf '#include <new>\n' | cat - "$T/placement.cu" >"$T/placement_new.cu"
cat >"$T/gnu_typeof.cu" <<'CU'
#define READ_ONCE(x) (*(volatile typeof(x) *)&(x))
__device__ unsigned long long poll(unsigned long long *p) {
  typeof(*p) v = READ_ONCE(*p);
  return __shfl(v, 0);
}
__global__ void k(unsigned long long *p) { p[1] = poll(p); }
CU
cat >"$T/extern_shared.cu" <<'CU'
struct Shmem {
  int groups[8];
};
extern __shared__ Shmem shmem;
__global__ void k(int *out) { out[threadIdx.x] = __shfl(shmem.groups[threadIdx.x % 8], 0); }
CU
cat >"$T/complex.cu" <<'CU'
#include <complex>
__device__ float magnitude(std::complex<float> c) { return std::abs(c) + __shfl(1.0f, 0); }
__global__ void k(float *p) { p[0] = magnitude(std::complex<float>(p[1], p[2])); }
CU

files="placement placement_new gnu_typeof extern_shared"
for f in $files; do
  expect_exit 1 -- "$WL" --no-cache --no-cuda-path --strict -v "$T/$f.cu" -- -std=c++17
  lacks "$T/err" "could not resolve" "$f (prelude): no parse error"
  lacks "$T/err" "analysis incomplete" "$f (prelude): complete"
  count_is "$T/out" "legacy warp shuffle '__shfl'" 1 "$f (prelude): the body is analyzed"
done

"$WL" --version >"$T/version" 2>&1
if grep -q "built-in CUDA prelude" "$T/version"; then
  echo "device C++ tests: no CUDA toolkit found: the toolkit's part is skipped"
else
  for f in $files complex; do
    expect_exit 1 -- "$WL" --no-cache --strict -v "$T/$f.cu" -- -std=c++17
    contains "$T/err" "parsing with the CUDA" "$f (toolkit): the toolkit is used"
    lacks "$T/err" "could not resolve" "$f (toolkit): no parse error"
    lacks "$T/err" "analysis incomplete" "$f (toolkit): complete"
    count_is "$T/out" "legacy warp shuffle '__shfl'" 1 "$f (toolkit): the body is analyzed"
  done
fi

finish "device C++ tests"
