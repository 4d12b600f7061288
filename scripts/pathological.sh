#!/bin/sh
# Generates the pathological shapes of issue 19 as CUDA source on stdout, for
# scripts/bench.sh and tests/cli/scaling_test.sh (nothing this large is
# committed).
# Usage: scripts/pathological.sh KIND N
#   straight N   one straight-line kernel with N unsynchronized shared accesses
#   ifelse N     N sequential lane-dependent if/else writing and reading shared memory
#   macrocalls N N/64 invocations of a macro calling 64 undeclared functions,
#                each with an argument of N statements
#   noshared N   the ifelse shape on global memory (no __shared__ in the file)
#   uniform N    N warp-uniform branches (on a kernel parameter), each around a
#                lane-dependent write to shared memory, then a read under another
#   kernels N    N distinct kernels of about 10 lines each (a warp reduction
#                with shared memory and a legacy shuffle)
#   returns N    a device function of N `if (t == i && j == k) return v;` (a
#                lookup table such as ggml's constexpr tile configurations),
#                inlined three times into a kernel with two races
set -eu
kind=${1:?kind}
n=${2:?N}
case $kind in
straight)
  awk -v n="$n" 'BEGIN {
    print "__global__ void straight(int *out) {"
    print "  __shared__ int s[64];"
    print "  int lane = threadIdx.x & 31;"
    print "  int acc = 0;"
    for (i = 0; i < n; i++)
      if (i % 2 == 0) printf "  s[lane] = acc + %d;\n", i
      else printf "  acc += s[(lane + %d) & 31];\n", i
    print "  out[threadIdx.x] = acc;"
    print "}"
  }' ;;
ifelse)
  awk -v n="$n" 'BEGIN {
    print "__global__ void branches(int *out) {"
    print "  __shared__ int s[64];"
    print "  int lane = threadIdx.x & 31;"
    print "  int acc = 0;"
    for (i = 0; i < n; i++)
      printf "  if (lane < %d) s[lane] = acc + %d; else acc += s[(lane + 1) & 31];\n", i % 31 + 1, i
    print "  out[threadIdx.x] = acc;"
    print "}"
  }' ;;
macrocalls)
  # a function-like macro whose body calls 64 undeclared functions, invoked
  # N/64 times with an argument of N terms: each call's extent is the whole
  # invocation
  awk -v n="$n" 'BEGIN {
    printf "#define ROUND(x) {"
    for (i = 0; i < 64; i++) printf " a[%d] = mix%d(a[%d], %d);", i % 32, i, (i + 1) % 32, i
    print " x }"
    print "__global__ void calls(unsigned *a) {"
    for (r = 0; r < n / 64 || r < 1; r++) {
      printf "  ROUND("
      for (i = 0; i < n; i++) printf "a[%d] += %d; ", i % 32, i
      print ")"
    }
    print "  a[0] = __shfl(a[0], 0);"
    print "}"
  }' ;;
uniform)
  # every warp-uniform branch asks, for each access still pending, whether a
  # lane can have made it where the branch's condition holds
  awk -v n="$n" 'BEGIN {
    print "__global__ void uniform(int *out, int n) {"
    print "  __shared__ int s[64];"
    print "  int lane = threadIdx.x & 31;"
    print "  int acc = 0;"
    for (i = 0; i < n; i++) {
      printf "  if (n > %d) {\n", i
      printf "    if (lane < %d) s[lane] = acc + %d;\n", i % 31 + 1, i
      print "  }"
      printf "  if (n > %d) acc += s[(lane + 1) & 31];\n", i + 1
    }
    print "  out[threadIdx.x] = acc;"
    print "}"
  }' ;;
noshared)
  # the ifelse shape on global memory: no __shared__ anywhere in the file
  awk -v n="$n" 'BEGIN {
    print "__global__ void branches(int *out) {"
    print "  int *s = out + 64;"
    print "  int lane = threadIdx.x & 31;"
    print "  int acc = 0;"
    for (i = 0; i < n; i++)
      printf "  if (lane < %d) s[lane] = acc + %d; else acc += s[(lane + 1) & 31];\n", i % 31 + 1, i
    print "  out[threadIdx.x] = acc;"
    print "}"
  }' ;;
kernels)
  awk -v n="$n" 'BEGIN {
    for (i = 0; i < n; i++) {
      printf "__global__ void reduce%d(const float *in, float *out) {\n", i
      print "  __shared__ float s[64];"
      print "  int t = threadIdx.x;"
      printf "  float v = in[blockIdx.x * blockDim.x + t] * %d.0f;\n", i + 1
      print "  s[t] = v;"
      print "  __syncthreads();"
      print "  if (t < 32) { s[t] += s[t + 32]; s[t] += s[t + 16]; }"
      print "  v += __shfl_down(v, 1);"
      print "  if (t == 0) out[blockIdx.x] = s[0] + v;"
      print "}"
    }
  }' ;;
returns)
  # each return asks whether some lane gets there, through the guards of
  # every `if` before it
  awk -v n="$n" 'BEGIN {
    print "__device__ int table(int t, int j) {"
    for (i = 0; i < n; i++) printf "  if (t == %d && j == %d) return %d;\n", i, i % 7, i % 5
    print "  return 0;"
    print "}"
    print "__global__ void lookup(int *out, int t, int j) {"
    print "  __shared__ int s[64];"
    print "  int lane = threadIdx.x & 31;"
    print "  s[lane] = table(t, j);"
    print "  if (lane < 16) s[lane] += table(t + 1, j) + s[lane + 1];"
    print "  out[threadIdx.x] = s[(lane + 1) & 31] + table(t, j + 1);"
    print "}"
  }' ;;
*)
  echo "pathological.sh: unknown kind '$kind'" >&2
  exit 2 ;;
esac
