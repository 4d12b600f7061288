#!/bin/sh
# Architectures newer than libclang knows (sm_100, sm_101, sm_103, sm_110,
# sm_120, sm_121, their a/f variants, and whatever comes next) are analyzed as
# the newest architecture it knows, with a --verbose note; never "libclang
# could not parse the file (error 4)". Every spelling: --cuda-arch, .warplint
# cuda-arch, and nvcc/clang flags of a compilation database (-arch,
# -gencode, --generate-code, --gpu-architecture, --cuda-gpu-arch,
# --offload-arch, lists).
# Usage: arch_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

R="$T/repo"
mkdir -p "$R/.git" "$R/build"
# legacy code on every path, and one only where __CUDA_ARCH__ is at least sm_90's
cat >"$R/k.cu" <<'EOF2'
__global__ void k(int *o) {
  o[0] = __shfl(o[1], 0);
#if __CUDA_ARCH__ >= 900
  o[1] = __any(o[2]);
#endif
}
EOF2

for a in sm_100 sm_100a sm_100f sm_101 sm_103a sm_110 sm_120 sm_120a sm_121f sm_130 compute_120 12.0; do
  expect_exit 1 -- "$WL" -v --cuda-arch "$a" "$R/k.cu"
  lacks "$T/err" "could not parse" "--cuda-arch $a: parsed"
  contains "$T/out" "k.cu:2:.*__shfl" "--cuda-arch $a: analyzed"
  contains "$T/out" "k.cu:4:.*__any" "--cuda-arch $a: __CUDA_ARCH__ is the newest known (>= 900)"
  contains "$T/err" "note: .*k.cu: libclang does not know sm_1[0-9]*; analyzed as sm_[0-9]* (__CUDA_ARCH__ [0-9]*)" "--cuda-arch $a: -v note"
done
# without -v, no note
expect_exit 1 -- "$WL" --cuda-arch sm_120 "$R/k.cu"
lacks "$T/err" "does not know" "no note without --verbose"
# a known architecture: no note, its own __CUDA_ARCH__
expect_exit 1 -- "$WL" -v --cuda-arch sm_80 "$R/k.cu"
lacks "$T/err" "does not know" "sm_80: no note"
lacks "$T/out" "k.cu:4:" "sm_80: __CUDA_ARCH__ 800"

# .warplint
printf 'cuda-arch = sm_120\n' >"$R/.warplint"
expect_exit 1 -- "$WL" "$R/k.cu"
contains "$T/out" "k.cu:4:.*__any" ".warplint cuda-arch = sm_120"
rm -f "$R/.warplint"

# compilation databases of CUDA 12.8+/13 projects
n=0
for cmd in \
  "nvcc -arch=sm_100a -c $R/k.cu" \
  "nvcc --generate-code=arch=compute_120,code=[compute_120,sm_120] -c $R/k.cu" \
  "nvcc -gencode arch=compute_100f,code=sm_100f -gencode arch=compute_120a,code=sm_120a -c $R/k.cu" \
  "nvcc --gpu-architecture=sm_121 -c $R/k.cu" \
  "nvcc -arch=sm_100,sm_103,sm_120 -c $R/k.cu" \
  "clang++ -x cuda --cuda-gpu-arch=sm_120 -c $R/k.cu" \
  "clang++ -x cuda --offload-arch=sm_110,sm_121 -c $R/k.cu"; do
  n=$((n + 1))
  printf '[{"directory": "%s", "command": "%s", "file": "%s"}]\n' "$R/build" "$cmd" "$R/k.cu" >"$R/build/compile_commands.json"
  expect_exit 1 -- "$WL" -v -p "$R/build"
  lacks "$T/err" "could not parse" "database $n ($cmd): parsed"
  contains "$T/out" "k.cu:4:.*__any" "database $n ($cmd): analyzed as the newest known"
  contains "$T/err" "libclang does not know sm_1" "database $n: -v note"
done

finish "arch tests"
