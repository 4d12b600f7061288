/* warplint's declarations of the warp intrinsics a toolkit may leave out:
 * the legacy (pre-CUDA 9) ones, so that legacy code parses, resolves its
 * overloads and can be reported and fixed, and the sm_80 reductions. The
 * built-in prelude includes this file; with a real toolkit it is included
 * before everything (-include) and declares only what clang's CUDA
 * headers and the toolkit leave out: clang defines the legacy shuffles for
 * the built-in types, the toolkit declares the votes. */
#pragma once
#pragma clang system_header

#if !defined(__WARPLINT_PRELUDE__)
/* After clang's CUDA wrapper (normally included first; it is guarded), so
 * that the toolkit's types are known here. */
#include <__clang_cuda_runtime_wrapper.h>
/* nvcc's crt/common_functions.h includes <new> in device code, so that a
 * placement new needs no include of its own (NCCL's gin__funcs.h); clang's
 * cuda_wrappers/new adds its device overloads. */
#if __has_include(<new>)
#include <new>
#endif
/* nvcc's crt/math_functions.h includes <math.h> (and <cmath>) ahead of the
 * file, which clang's CUDA wrapper leaves out (it includes only <cmath>):
 * with libstdc++, <math.h> brings std::fabs, std::abs and the other <cmath>
 * overloads into the global namespace, so that a template's `fabs(x)`
 * finds the float overload as nvcc's compilation does (kaldi's RandPrune). */
#if __has_include(<math.h>)
#include <math.h>
#endif
/* nvcc's host compilation sees the toolkit's min and max (every overload of
 * crt/math_functions.h, the mixed int/unsigned ones included), which clang's
 * CUDA headers declare for device code only: legacy host code that calls
 * max(1, n) would be a parse error of its own. */
#define __WL_HOST_MINMAX(R, A, B)                                                              \
  static inline __attribute__((host)) R min(A a, B b) { return a < b ? (R)a : (R)b; }          \
  static inline __attribute__((host)) R max(A a, B b) { return a > b ? (R)a : (R)b; }
__WL_HOST_MINMAX(int, int, int)
__WL_HOST_MINMAX(unsigned int, unsigned int, unsigned int)
__WL_HOST_MINMAX(unsigned int, int, unsigned int)
__WL_HOST_MINMAX(unsigned int, unsigned int, int)
__WL_HOST_MINMAX(long, long, long)
__WL_HOST_MINMAX(unsigned long, unsigned long, unsigned long)
__WL_HOST_MINMAX(unsigned long, long, unsigned long)
__WL_HOST_MINMAX(unsigned long, unsigned long, long)
__WL_HOST_MINMAX(long long, long long, long long)
__WL_HOST_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__WL_HOST_MINMAX(unsigned long long, long long, unsigned long long)
__WL_HOST_MINMAX(unsigned long long, unsigned long long, long long)
__WL_HOST_MINMAX(float, float, float)
__WL_HOST_MINMAX(double, double, double)
__WL_HOST_MINMAX(double, float, double)
__WL_HOST_MINMAX(double, double, float)
#undef __WL_HOST_MINMAX
#if __CUDACC_VER_MAJOR__ >= 12
/* A kernel launch (k<<<g, b>>>()) in device-side parsing is checked against
 * cudaConfigureCall, which CUDA 12 removed from its headers. */
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                                 cudaStream_t stream = 0);
#endif
#endif

/* The cache-hint loads and stores of the toolkit's sm_32_intrinsics.h: clang's
 * CUDA headers keep that header out and define only __ldg, and the built-in
 * prelude had only __ldg, so a kernel calling __ldcs or __stcs (llm.c's
 * load128cs) was a parse error in both modes and lost its body. One template
 * each: the value of a store converts to the pointee type, as the toolkit's
 * overloads allow; its own overloads (the half types') are preferred. They
 * order nothing between lanes. */
template <typename __T> struct __wl_same_type { typedef __T type; };
#define __WL_CACHE_LOAD(N) template <typename __T> __attribute__((device)) __T N(const __T *__p);
#define __WL_CACHE_STORE(N)                                                                    \
  template <typename __T>                                                                      \
  __attribute__((device)) void N(__T *__p, typename __wl_same_type<__T>::type __v);
__WL_CACHE_LOAD(__ldcg)
__WL_CACHE_LOAD(__ldca)
__WL_CACHE_LOAD(__ldcs)
__WL_CACHE_LOAD(__ldlu)
__WL_CACHE_LOAD(__ldcv)
__WL_CACHE_STORE(__stwb)
__WL_CACHE_STORE(__stcg)
__WL_CACHE_STORE(__stcs)
__WL_CACHE_STORE(__stwt)
#undef __WL_CACHE_LOAD
#undef __WL_CACHE_STORE

/* The overloads of CUDA 8 (int, unsigned, float and the 64-bit integers;
 * the widths default to the warp size). With a toolkit, clang's CUDA headers
 * define these (and double and long) themselves for every architecture. */
#if defined(__WARPLINT_PRELUDE__)
#define __WL_LEGACY_SHFL(T)                                                                   \
  __attribute__((device)) T __shfl(T var, int srcLane, int width = 32);                       \
  __attribute__((device)) T __shfl_up(T var, unsigned int delta, int width = 32);             \
  __attribute__((device)) T __shfl_down(T var, unsigned int delta, int width = 32);           \
  __attribute__((device)) T __shfl_xor(T var, int laneMask, int width = 32);
__WL_LEGACY_SHFL(int)
__WL_LEGACY_SHFL(unsigned int)
__WL_LEGACY_SHFL(long long)
__WL_LEGACY_SHFL(unsigned long long)
__WL_LEGACY_SHFL(float)
#undef __WL_LEGACY_SHFL
#endif

/* A template for every other type (double and long in the prelude, __half,
 * __half2, __nv_bfloat16, ... everywhere), so that a template instantiated
 * with any of them (warp_sum<double>) resolves to one declaration. double
 * is not a plain overload of the prelude: legacy code written for CUDA 8
 * defines its own, with a default width, and a second default argument would
 * be an error that costs its body (with a toolkit it is one, as with nvcc).
 * The template takes no struct other than the half types, as CUDA 8's
 * sm_30_intrinsics.h took none: legacy code defines its own overloads for
 * structs (ccminer's `uint4 __shfl(const uint4, unsigned, unsigned)`), and a
 * template taking any T would make their calls ambiguous (the template
 * matches the lane argument exactly where the overload converts it). */
struct __half;
struct __half2;
struct __nv_bfloat16;
struct __nv_bfloat162;
template <typename T, bool = __is_class(T) || __is_union(T)> struct __wl_legacy_shfl_value {
  typedef T type;
};
template <typename T> struct __wl_legacy_shfl_value<T, true> {};
template <> struct __wl_legacy_shfl_value<__half, true> {
  typedef __half type;
};
template <> struct __wl_legacy_shfl_value<__half2, true> {
  typedef __half2 type;
};
template <> struct __wl_legacy_shfl_value<__nv_bfloat16, true> {
  typedef __nv_bfloat16 type;
};
template <> struct __wl_legacy_shfl_value<__nv_bfloat162, true> {
  typedef __nv_bfloat162 type;
};
template <typename T>
__attribute__((device)) typename __wl_legacy_shfl_value<T>::type __shfl(T var, int srcLane,
                                                                        int width = 32);
template <typename T>
__attribute__((device)) typename __wl_legacy_shfl_value<T>::type
__shfl_up(T var, unsigned int delta, int width = 32);
template <typename T>
__attribute__((device)) typename __wl_legacy_shfl_value<T>::type
__shfl_down(T var, unsigned int delta, int width = 32);
template <typename T>
__attribute__((device)) typename __wl_legacy_shfl_value<T>::type __shfl_xor(T var, int laneMask,
                                                                            int width = 32);

#if defined(__WARPLINT_PRELUDE__)
__attribute__((device)) unsigned int __ballot(int pred);
__attribute__((device)) int __any(int pred);
__attribute__((device)) int __all(int pred);
#endif

/* The warp reductions of sm_80: a toolkit declares them only for sm_80 and
 * newer, and warplint parses for sm_75 unless told otherwise; code that uses
 * them is built for sm_80+, so they are declared as the toolkit would. */
#if !defined(__WARPLINT_PRELUDE__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800 &&          \
    __CUDACC_VER_MAJOR__ >= 11
__attribute__((device)) unsigned __reduce_add_sync(unsigned mask, unsigned value);
__attribute__((device)) unsigned __reduce_min_sync(unsigned mask, unsigned value);
__attribute__((device)) unsigned __reduce_max_sync(unsigned mask, unsigned value);
__attribute__((device)) int __reduce_add_sync(unsigned mask, int value);
__attribute__((device)) int __reduce_min_sync(unsigned mask, int value);
__attribute__((device)) int __reduce_max_sync(unsigned mask, int value);
__attribute__((device)) unsigned __reduce_and_sync(unsigned mask, unsigned value);
__attribute__((device)) unsigned __reduce_or_sync(unsigned mask, unsigned value);
__attribute__((device)) unsigned __reduce_xor_sync(unsigned mask, unsigned value);
#endif
