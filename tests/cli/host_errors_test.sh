#!/bin/sh
# "analysis incomplete" counts what the analysis lost: a parse error in the
# body of a host-only function (llm.c's host code calling isfinite on a
# type the toolkit does not declare it for) costs no device code and is not
# counted; one in device code, in a __device__ lambda of a host function, or
# outside every function (a declaration device code may use) is, and so is
# an #include that does not resolve. -v says which errors were not counted.
# Usage: host_errors_test.sh <warplint> <source-dir>
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

D="$T/p"
mkdir -p "$D"
# a host function with two errors, a kernel with a finding
cat >"$D/host.cu" <<'CU'
__global__ void k(int *p) { p[0] = __shfl(p[1], 0); }
int check(const float *h, int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += !no_such_function(h[i]);
  undeclared_t t;
  k<<<1, 32>>>((int *)0);
  return bad;
}
CU
expect_exit 1 -- "$WL" --no-cache --strict "$D/host.cu"
lacks "$T/err" "analysis incomplete" "errors in a host function only: complete"
count_is "$T/out" "host.cu:1:.*__shfl" 1 "the kernel's finding"
expect_exit 1 -- "$WL" --no-cache -v "$D/host.cu"
count_is "$T/err" "could not resolve: .*(in host code: not counted as incomplete)" 2 "-v marks the host errors"

# the same in a file large enough (over 1 MiB) to be lowered in batches
{ cat "$D/host.cu"; python3 -c "import sys; sys.stdout.write('// ' + 'x' * 80 + '\\n') " ; } >"$D/big.cu"
python3 -c "import sys; sys.stdout.write(('// ' + 'x' * 1020 + '\\n') * 1100)" >>"$D/big.cu"
expect_exit 1 -- "$WL" --no-cache --strict "$D/big.cu"
lacks "$T/err" "analysis incomplete" "batched: errors in a host function only: complete"
count_is "$T/out" "big.cu:1:.*__shfl" 1 "batched: the kernel's finding"
{ cat "$D/host.cu"; printf '__device__ int d(int v) { return no_such_function(v); }\n'; python3 -c "import sys; sys.stdout.write(('// ' + 'x' * 1020 + '\\n') * 1100)"; } >"$D/big2.cu"
expect_exit 2 -- "$WL" --no-cache --strict "$D/big2.cu"
contains "$T/err" "(0 unresolved #includes, 1 parse error)" "batched: the device error counted, the host ones not"

# the same error in a kernel, in a __device__ function, in a __device__
# lambda of a host function, and at file scope: each counted
printf '__global__ void k(int *p) { p[0] = no_such_function(p[1]); }\n' >"$D/kernel.cu"
printf '__device__ int d(int v) { return no_such_function(v); }\n__global__ void k(int *p) { p[0] = d(p[1]); }\n' >"$D/device.cu"
printf 'template <class F> __global__ void run(F f) { f(); }\nvoid host(int *p) {\n  run<<<1, 1>>>([=] __device__ () { p[0] = no_such_function(p[1]); });\n}\n' >"$D/lambda.cu"
printf 'undeclared_t g_table[4];\n__global__ void k(int *p) { p[0] = __shfl(p[1], 0); }\n' >"$D/scope.cu"
printf '#include "not_there.cuh"\nint host(void) { return no_such_function(1); }\n__global__ void k(int *p) { p[0] = 1; }\n' >"$D/include.cu"
for f in kernel device lambda scope; do
  expect_exit 2 -- "$WL" --no-cache --strict "$D/$f.cu"
  contains "$T/err" "analysis incomplete in 1 of 1 file (0 unresolved #includes, 1 parse error)" "$f.cu: the error is counted"
done
expect_exit 2 -- "$WL" --no-cache --strict --no-infer-includes "$D/include.cu"
contains "$T/err" "analysis incomplete in 1 of 1 file (1 unresolved #include, 0 parse errors)" "an unresolved include counts, the host error does not"
# a kernel template launched with a type its static_assert refuses: files
# are parsed without clang's instantiations at the end of the unit, and a
# kernel or device function template is read as written with the arguments
# its launches give, so this one is parsed once; the error only the
# instantiation would give is not reported and costs the analysis nothing:
# the finding and its fix are there
cat >"$D/inst.cu" <<'CU'
template <typename T> __global__ void k(T *p) {
  static_assert(sizeof(T) == 4, "4-byte elements only");
  p[0] = __shfl(p[1], 0);
}
void host(double *d) { k<<<1, 32>>>(d); }
CU
expect_exit 1 -- "$WL" --no-cache --strict -v --diff "$D/inst.cu"
lacks "$T/err" "template instantiations" "a kernel template launched from host code: parsed once"
lacks "$T/err" "analysis incomplete" "the instantiation's error is not counted"
contains "$T/out" "^+  p\[0\] = __shfl_sync(0xffffffff, p\[1\], 0);" "the kernel template's fix"
# the template arguments of a launch are read without the instantiation:
# N = 16 makes lanes 0-15 read what lanes 16-31 wrote, N = 64 does not
for n in 16 64; do
  cat >"$D/launch$n.cu" <<CU
template <int N> __global__ void s(int *o) {
  __shared__ int sh[128];
  int t = threadIdx.x;
  sh[t] = o[t];
  if (t < N)
    sh[t] += sh[t + N];
  o[t] = sh[t];
}
void host(int *q) { s<$n><<<1, 32>>>(q); }
CU
done
expect_exit 1 -- "$WL" --no-cache -v "$D/launch16.cu" "$D/launch64.cu"
lacks "$T/err" "template instantiations" "kernel templates launched with numbers: parsed once"
count_is "$T/out" "launch16.cu:6:14: warning: .*lane 0 reads 'sh\[t + N\]', which lane 16 writes" 1 "s<16>: the race its argument makes"
lacks "$T/out" "launch64.cu" "s<64>: no race"
# a host-only template needs no instantiation: parsed once
printf 'template <typename T> T twice(T v) { return v + v; }\nint host(int v) { return twice(v); }\n__global__ void k(int *p) { p[0] = __shfl(p[1], 0); }\n' >"$D/hosttmpl.cu"
expect_exit 1 -- "$WL" --no-cache -v "$D/hosttmpl.cu"
lacks "$T/err" "template instantiations" "a host template: parsed once"
# a device member of a class template specialization is read with its
# template arguments as numbers: the file is parsed again with them
cat >"$D/member.cu" <<'CU'
template <int OFF> struct Step {
  static __device__ int read(volatile int *s, int t) { return s[t + OFF]; }
};
__global__ void k(int *o) {
  __shared__ volatile int s[64];
  int t = threadIdx.x & 31;
  s[t] = o[t];
  o[t] = Step<16>::read(s, t);
}
CU
expect_exit 1 -- "$WL" --no-cache -v "$D/member.cu"
contains "$T/err" "member.cu: parsed again with clang's template instantiations" "-v: parsed again for the member's body"
count_is "$T/out" "member.cu:.*missing-syncwarp" 1 "the race through the member's instantiated body"

# the parses that check its fixes start complete (the file's own parse asked
# for clang's instantiations): the fix is still checked and offered
sed 's/^  o\[t\] = Step<16>::read(s, t);$/  o[t] = Step<16>::read(s, t) + __shfl_down(t, 1);/' "$D/member.cu" >"$D/member_fix.cu"
expect_exit 1 -- "$WL" --no-cache --diff "$D/member_fix.cu"
contains "$T/out" "^+  o\[t\] = Step<16>::read(s, t) + __shfl_down_sync(0xffffffff, t, 1);" "the fix of a file parsed again with instantiations"
contains "$T/err" "1 finding fixable in 1 file" "one fixable finding"

# JSON carries the same count
expect_exit 1 -- "$WL" --no-cache --format=json "$D/host.cu" "$D/kernel.cu"
contains "$T/err" "analysis incomplete in 1 of 2 files" "JSON run: one of the two files incomplete"

finish "host errors tests"
