#!/bin/sh
# The built-in prelude with the C++ standard library: a .cu file that
# includes <memory>, <vector>, <iostream>, <functional> or <thread> parses
# cleanly (libstdc++'s shared_ptr_base.h spells __attribute__((__noinline__)),
# which a __noinline__ macro turned into a parse error that made every such
# file "incomplete"), and a __noinline__ device function is still analyzed.
# Usage: prelude_std_test.sh <warplint (prelude)> <source-dir>
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

for h in memory vector iostream functional thread; do
  printf '#include <%s>\n__noinline__ __device__ int f(int v) { return __shfl(v, 0); }\n__global__ void k(int *p) { p[0] = f(p[1]); }\n' "$h" >"$T/s_$h.cu"
  expect_exit 1 -- "$WL" --no-cache --strict -v "$T/s_$h.cu"
  contains "$T/err" "built-in CUDA prelude" "<$h>: the prelude is used"
  lacks "$T/err" "could not resolve" "<$h>: no parse error"
  lacks "$T/err" "analysis incomplete" "<$h>: the analysis is complete"
  count_is "$T/out" "s_$h.cu:2:.*legacy warp shuffle '__shfl'" 1 "<$h>: the __noinline__ device function is analyzed"
done
# all of them in one file, used by host code, the attribute spelled the other way
printf '#include <memory>\n#include <vector>\n#include <iostream>\n#include <functional>\n#include <thread>\n__device__ __attribute__((__noinline__)) int g(int v) { return __any(v); }\n__global__ void k(int *p) { p[0] = g(p[1]); }\nint host(void) { std::shared_ptr<int> s = std::make_shared<int>(1); std::vector<int> v(4); std::function<int(void)> fn = [] { return 2; }; std::thread t([] {}); t.join(); std::cout << *s; return v[0] + fn(); }\n' >"$T/all.cu"
expect_exit 1 -- "$WL" --no-cache --strict "$T/all.cu"
lacks "$T/err" "analysis incomplete" "all five headers: complete"
count_is "$T/out" "all.cu:6:.*__any" 1 "__attribute__((__noinline__)) device function analyzed"

finish "prelude std tests"
