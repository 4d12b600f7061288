/* warplint's built-in CUDA prelude: what kernels use, declared without any
 * toolkit, as a CUDA 9+ toolkit presents it to device code. Parsed with
 * -nocudainc; replaced by the real headers under --cuda-path. */
#pragma once
#pragma clang system_header
#define __WARPLINT_PRELUDE__ 1

#ifndef __CUDACC__
#define __CUDACC__ 1
#endif
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 0
#define CUDART_VERSION 13000
#define CUDA_VERSION 13000
#define __CUDA_API_VERSION 13000

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __forceinline__ __inline__ __attribute__((always_inline))
/* no __noinline__ macro: clang (15+) takes __noinline__ as a keyword in CUDA
 * mode, as nvcc's own headers expect; a macro would turn libstdc++'s
 * __attribute__((__noinline__)) (shared_ptr_base.h, reached from <memory>,
 * <thread>, <functional>) into a parse error */
#define __inline_hint__
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
#define __builtin_align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define __cudart_builtin__
#define CUDARTAPI
#define __device_builtin__
#define __CUDA_ALIGN__(n) __attribute__((aligned(n)))

typedef __SIZE_TYPE__ size_t;
/* Placement new in device code, as nvcc's crt/common_functions.h and clang's
 * cuda_wrappers/new declare it (beside <new>'s host one, if included). */
__device__ inline void *operator new(__SIZE_TYPE__, void *__p) noexcept { return __p; }
__device__ inline void *operator new[](__SIZE_TYPE__, void *__p) noexcept { return __p; }
__device__ inline void operator delete(void *, void *) noexcept {}
__device__ inline void operator delete[](void *, void *) noexcept {}
/* glibc's <sys/types.h> names, which nvcc's cuda_runtime.h brings in through
 * <stdlib.h> on Linux; legacy kernels use them freely */
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned long ulong;

#define __WL_VEC1(T, N) struct __device_builtin__ N##1 { T x; };
#define __WL_VEC2(T, N) struct __device_builtin__ N##2 { T x, y; };
#define __WL_VEC3(T, N) struct __device_builtin__ N##3 { T x, y, z; };
#define __WL_VEC4(T, N) struct __device_builtin__ N##4 { T x, y, z, w; };
#define __WL_VECS(T, N) __WL_VEC1(T, N) __WL_VEC2(T, N) __WL_VEC3(T, N) __WL_VEC4(T, N)
__WL_VECS(signed char, char)
__WL_VECS(unsigned char, uchar)
__WL_VECS(short, short)
__WL_VECS(unsigned short, ushort)
__WL_VECS(int, int)
__WL_VECS(unsigned int, uint)
__WL_VECS(long, long)
__WL_VECS(unsigned long, ulong)
__WL_VECS(long long, longlong)
__WL_VECS(unsigned long long, ulonglong)
__WL_VECS(float, float)
__WL_VECS(double, double)
#undef __WL_VECS
#undef __WL_VEC1
#undef __WL_VEC2
#undef __WL_VEC3
#undef __WL_VEC4

struct __device_builtin__ dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};

#define __WL_MAKE2(N, T) static __inline__ __host__ __device__ N##2 make_##N##2(T x, T y) { N##2 t; t.x = x; t.y = y; return t; }
#define __WL_MAKE3(N, T) static __inline__ __host__ __device__ N##3 make_##N##3(T x, T y, T z) { N##3 t; t.x = x; t.y = y; t.z = z; return t; }
#define __WL_MAKE4(N, T) static __inline__ __host__ __device__ N##4 make_##N##4(T x, T y, T z, T w) { N##4 t; t.x = x; t.y = y; t.z = z; t.w = w; return t; }
__WL_MAKE2(int, int) __WL_MAKE3(int, int) __WL_MAKE4(int, int)
__WL_MAKE2(uint, unsigned int) __WL_MAKE3(uint, unsigned int) __WL_MAKE4(uint, unsigned int)
__WL_MAKE2(float, float) __WL_MAKE3(float, float) __WL_MAKE4(float, float)
__WL_MAKE2(double, double) __WL_MAKE3(double, double) __WL_MAKE4(double, double)
#undef __WL_MAKE2
#undef __WL_MAKE3
#undef __WL_MAKE4

/* Built-in variables: plain objects, so that threadIdx.x is a member access. */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* Runtime API subset used by host code around kernels. */
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;
/* The special stream handles of driver_types.h (kaldi launches with
 * cudaStreamPerThread: without them the launch is an error and its block
 * shape is lost). */
#define cudaStreamLegacy ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)
enum cudaMemcpyKind { cudaMemcpyHostToHost = 0, cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2,
                      cudaMemcpyDeviceToDevice = 3, cudaMemcpyDefault = 4 };
#define cudaSuccess 0
extern "C" {
cudaError_t cudaMalloc(void **p, size_t n);
cudaError_t cudaMallocManaged(void **p, size_t n, unsigned flags = 1);
cudaError_t cudaMallocHost(void **p, size_t n);
cudaError_t cudaFree(void *p);
cudaError_t cudaFreeHost(void *p);
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind k);
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t st = 0);
cudaError_t cudaMemset(void *d, int v, size_t n);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t e);
cudaError_t cudaSetDevice(int d);
cudaError_t cudaGetDevice(int *d);
/* a few device attributes, numbered as in the toolkit's driver_types.h */
enum cudaDeviceAttr { cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2,
                      cudaDevAttrMaxSharedMemoryPerBlock = 8, cudaDevAttrWarpSize = 10,
                      cudaDevAttrMultiProcessorCount = 16,
                      cudaDevAttrComputeCapabilityMajor = 75,
                      cudaDevAttrComputeCapabilityMinor = 76 };
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaStreamCreate(cudaStream_t *s);
cudaError_t cudaStreamDestroy(cudaStream_t s);
cudaError_t cudaStreamSynchronize(cudaStream_t s);
cudaError_t cudaEventCreate(cudaEvent_t *e);
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s = 0);
cudaError_t cudaEventSynchronize(cudaEvent_t e);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
cudaError_t cudaEventDestroy(cudaEvent_t e);
int cudaConfigureCall(dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0);
unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem = 0, void *stream = 0);
}

/* Synchronization and fences. */
__device__ void __syncthreads(void);
__device__ int __syncthreads_count(int);
__device__ int __syncthreads_and(int);
__device__ int __syncthreads_or(int);
__device__ void __syncwarp(unsigned int mask = 0xffffffffu);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ void __threadfence_system(void);
__device__ void __nanosleep(unsigned int ns);

/* Warp vote, match, reduce (CUDA 9+). */
__device__ unsigned int __activemask(void);
__device__ int __all_sync(unsigned int mask, int pred);
__device__ int __any_sync(unsigned int mask, int pred);
__device__ int __uni_sync(unsigned int mask, int pred);
__device__ unsigned int __ballot_sync(unsigned int mask, int pred);
template <typename T> __device__ unsigned int __match_any_sync(unsigned int mask, T value);
template <typename T> __device__ unsigned int __match_all_sync(unsigned int mask, T value, int *pred);
__device__ unsigned __reduce_add_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_min_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_max_sync(unsigned mask, unsigned value);
__device__ int __reduce_add_sync(unsigned mask, int value);
__device__ int __reduce_min_sync(unsigned mask, int value);
__device__ int __reduce_max_sync(unsigned mask, int value);
__device__ unsigned __reduce_and_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_or_sync(unsigned mask, unsigned value);
__device__ unsigned __reduce_xor_sync(unsigned mask, unsigned value);

/* Warp shuffle (CUDA 9+). */
template <typename T> __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);
template <typename T> __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <typename T> __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);
template <typename T> __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);

/* Legacy (pre-CUDA 9) warp intrinsics, with every overload: declared so that
 * legacy code parses and can be reported; a CUDA 9+ toolkit no longer offers
 * them for sm_70+. */
#include "__warplint_legacy.h"

/* Bit manipulation and integer intrinsics. */
__device__ int __popc(unsigned int x);
__device__ int __popcll(unsigned long long x);
__device__ int __ffs(int x);
__device__ int __ffsll(long long x);
__device__ int __clz(int x);
__device__ int __clzll(long long x);
__device__ unsigned int __brev(unsigned int x);
__device__ unsigned long long __brevll(unsigned long long x);
__device__ unsigned int __lanemask_lt(void);
__device__ unsigned int __lanemask_le(void);
__device__ unsigned int __lanemask_eq(void);
__device__ unsigned int __lanemask_gt(void);
__device__ unsigned int __lanemask_ge(void);
__device__ int __mul24(int a, int b);
__device__ unsigned int __umul24(unsigned int a, unsigned int b);
__device__ unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift);
__device__ long long clock64(void);
__device__ int clock(void);
__device__ int __float_as_int(float x);
__device__ float __int_as_float(int x);
__device__ unsigned int __float_as_uint(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ long long __double_as_longlong(double x);
__device__ double __longlong_as_double(long long x);
__device__ int __double2hiint(double x);
__device__ int __double2loint(double x);
__device__ double __hiloint2double(int hi, int lo);
__device__ float __fdividef(float a, float b);
__device__ float __expf(float x);
__device__ float __logf(float x);
__device__ float __sinf(float x);
__device__ float __cosf(float x);
__device__ float __saturatef(float x);
template <typename T> __device__ T __ldg(const T *p);

/* Atomics. */
#define __WL_ATOMIC(T)                                   \
  __device__ T atomicAdd(T *p, T v);                     \
  __device__ T atomicSub(T *p, T v);                     \
  __device__ T atomicExch(T *p, T v);                    \
  __device__ T atomicMin(T *p, T v);                     \
  __device__ T atomicMax(T *p, T v);                     \
  __device__ T atomicAnd(T *p, T v);                     \
  __device__ T atomicOr(T *p, T v);                      \
  __device__ T atomicXor(T *p, T v);                     \
  __device__ T atomicCAS(T *p, T cmp, T v);              \
  __device__ T atomicAdd_block(T *p, T v);               \
  __device__ T atomicAdd_system(T *p, T v);
__WL_ATOMIC(int)
__WL_ATOMIC(unsigned int)
__WL_ATOMIC(unsigned long long)
#undef __WL_ATOMIC
__device__ float atomicAdd(float *p, float v);
__device__ double atomicAdd(double *p, double v);
__device__ float atomicExch(float *p, float v);
__device__ unsigned int atomicInc(unsigned int *p, unsigned int v);
__device__ unsigned int atomicDec(unsigned int *p, unsigned int v);

/* Math used in kernels: device-side overloads beside the host declarations
 * of <math.h> and <cmath> (CUDA lets host and device functions overload),
 * which the end of this file includes as nvcc's headers do (in the
 * precompiled header, at no cost per file). */
extern "C" {
__device__ int printf(const char *, ...);
__device__ int vprintf(const char *, const char *);
__device__ void *malloc(size_t) __attribute__((nothrow)) __attribute__((malloc));
__device__ void free(void *) __attribute__((nothrow));
__device__ void __assertfail(const char *, const char *, unsigned, const char *, size_t);
}
#define __WL_MATH1(fn)                                                            \
  static __device__ __inline__ float fn##f(float x) { return x; }                 \
  static __device__ __inline__ double fn(double x) { return x; }
__WL_MATH1(sqrt) __WL_MATH1(rsqrt) __WL_MATH1(exp) __WL_MATH1(exp2) __WL_MATH1(expm1) __WL_MATH1(log)
__WL_MATH1(log2) __WL_MATH1(log10) __WL_MATH1(log1p) __WL_MATH1(sin) __WL_MATH1(cos) __WL_MATH1(tan)
__WL_MATH1(asin) __WL_MATH1(acos) __WL_MATH1(atan) __WL_MATH1(sinh) __WL_MATH1(cosh) __WL_MATH1(tanh)
__WL_MATH1(fabs) __WL_MATH1(floor) __WL_MATH1(ceil) __WL_MATH1(round) __WL_MATH1(rint) __WL_MATH1(trunc)
__WL_MATH1(erf) __WL_MATH1(erfc) __WL_MATH1(cbrt) __WL_MATH1(rcbrt)
#undef __WL_MATH1
#define __WL_MATH2(fn)                                                            \
  static __device__ __inline__ float fn##f(float x, float y) { return x + y; }    \
  static __device__ __inline__ double fn(double x, double y) { return x + y; }
__WL_MATH2(pow) __WL_MATH2(fmin) __WL_MATH2(fmax) __WL_MATH2(atan2) __WL_MATH2(fmod) __WL_MATH2(hypot)
__WL_MATH2(copysign)
#undef __WL_MATH2
/* Their host declarations, as glibc's <math.h> makes them (which nvcc's
 * cuda_runtime.h includes for host code, so that legacy host code calls
 * ceil or log2 without including it); a later <math.h> or <cmath> redeclares
 * them alike. */
extern "C" {
#define __WL_HMATH1(fn) __host__ double fn(double) noexcept; __host__ float fn##f(float) noexcept;
#define __WL_HMATH2(fn)                                                           \
  __host__ double fn(double, double) noexcept; __host__ float fn##f(float, float) noexcept;
__WL_HMATH1(sqrt) __WL_HMATH1(exp) __WL_HMATH1(exp2) __WL_HMATH1(expm1) __WL_HMATH1(log)
__WL_HMATH1(log2) __WL_HMATH1(log10) __WL_HMATH1(log1p) __WL_HMATH1(sin) __WL_HMATH1(cos)
__WL_HMATH1(tan) __WL_HMATH1(asin) __WL_HMATH1(acos) __WL_HMATH1(atan) __WL_HMATH1(sinh)
__WL_HMATH1(cosh) __WL_HMATH1(tanh) __WL_HMATH1(fabs) __WL_HMATH1(floor) __WL_HMATH1(ceil)
__WL_HMATH1(round) __WL_HMATH1(rint) __WL_HMATH1(trunc) __WL_HMATH1(erf) __WL_HMATH1(erfc)
__WL_HMATH1(cbrt)
__WL_HMATH2(pow) __WL_HMATH2(fmin) __WL_HMATH2(fmax) __WL_HMATH2(atan2) __WL_HMATH2(fmod)
__WL_HMATH2(hypot) __WL_HMATH2(copysign)
#undef __WL_HMATH1
#undef __WL_HMATH2
}
static __device__ __inline__ float fmaf(float a, float b, float c) { return a * b + c; }
static __device__ __inline__ double fma(double a, double b, double c) { return a * b + c; }
static __device__ __inline__ void sincosf(float x, float *s, float *c) { *s = x; *c = x; }
static __device__ __inline__ void __sincosf(float x, float *s, float *c) { *s = x; *c = x; }
static __device__ __inline__ int abs(int x) { return x < 0 ? -x : x; }
/* min and max with CUDA's overloads (crt/math_functions.h), the mixed ones
 * included: legacy host code calls max(1, n) with an unsigned n. */
#define __WL_MINMAX(R, A, B)                                                      \
  __device__ __host__ inline R min(A a, B b) { return a < b ? (R)a : (R)b; }     \
  __device__ __host__ inline R max(A a, B b) { return a > b ? (R)a : (R)b; }
__WL_MINMAX(int, int, int)
__WL_MINMAX(unsigned int, unsigned int, unsigned int)
__WL_MINMAX(unsigned int, int, unsigned int)
__WL_MINMAX(unsigned int, unsigned int, int)
__WL_MINMAX(long, long, long)
__WL_MINMAX(unsigned long, unsigned long, unsigned long)
__WL_MINMAX(unsigned long, long, unsigned long)
__WL_MINMAX(unsigned long, unsigned long, long)
__WL_MINMAX(long long, long long, long long)
__WL_MINMAX(unsigned long long, unsigned long long, unsigned long long)
__WL_MINMAX(unsigned long long, long long, unsigned long long)
__WL_MINMAX(unsigned long long, unsigned long long, long long)
__WL_MINMAX(float, float, float)
__WL_MINMAX(double, double, double)
__WL_MINMAX(double, float, double)
__WL_MINMAX(double, double, float)
#undef __WL_MINMAX

/* What nvcc's headers include ahead of every file (crt/common_functions.h,
 * crt/math_functions.h, crt/host_config.h): code that calls fabs, sqrt,
 * malloc or memcpy, or names NULL, UINT_MAX or EXIT_FAILURE, without an
 * include of its own compiles with nvcc (NVIDIA's samples do). With
 * libstdc++, <math.h> also brings std::fabs and the other <cmath> overloads
 * into the global namespace. After the declarations above, which these
 * headers redeclare alike, as a file that includes them itself. */
#if __has_include(<math.h>)
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#endif
