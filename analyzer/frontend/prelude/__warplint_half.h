/* warplint prelude: what <cuda_fp16.h> and <cuda_bf16.h> declare alike for
 * their scalar type H and pair type H2 (arithmetic, comparison and math
 * intrinsics, cache loads and stores, the _sync shuffles, atomicAdd and the
 * operators), as CUDA 13 declares them. The two stand-ins expand
 * __WL_HALF_COMMON once each; the legacy shuffles (__shfl, ...) of every type
 * come from the template of __warplint_legacy.h. */
#pragma once
#pragma clang system_header

#define __WL_HD __host__ __device__
#define __WL_H_UNARY(H, H2, f, f2) __device__ H f(const H a); __device__ H2 f2(const H2 a);
#define __WL_H_BINARY(H, H2, f, f2) __device__ H f(const H a, const H b); __device__ H2 f2(const H2 a, const H2 b);
#define __WL_H_TERNARY(H, H2, f, f2)                                                         \
  __device__ H f(const H a, const H b, const H c);                                           \
  __device__ H2 f2(const H2 a, const H2 b, const H2 c);
#define __WL_H_CMP(H, H2, c)                                                                 \
  __device__ bool __h##c(const H a, const H b);                                              \
  __device__ bool __h##c##u(const H a, const H b);                                           \
  __device__ H2 __h##c##2(const H2 a, const H2 b);                                           \
  __device__ H2 __h##c##u2(const H2 a, const H2 b);                                          \
  __device__ unsigned int __h##c##2_mask(const H2 a, const H2 b);                            \
  __device__ unsigned int __h##c##u2_mask(const H2 a, const H2 b);                           \
  __device__ bool __hb##c##2(const H2 a, const H2 b);                                        \
  __device__ bool __hb##c##u2(const H2 a, const H2 b);
#define __WL_H_MEM(T)                                                                        \
  __device__ T __ldg(const T *const p);                                                      \
  __device__ T __ldcg(const T *const p);                                                     \
  __device__ T __ldca(const T *const p);                                                     \
  __device__ T __ldcs(const T *const p);                                                     \
  __device__ T __ldlu(const T *const p);                                                     \
  __device__ T __ldcv(const T *const p);                                                     \
  __device__ void __stwb(T *const p, const T v);                                             \
  __device__ void __stcg(T *const p, const T v);                                             \
  __device__ void __stcs(T *const p, const T v);                                             \
  __device__ void __stwt(T *const p, const T v);                                             \
  __device__ T __shfl_sync(const unsigned int mask, const T var, const int srcLane,          \
                           const int width = 32);                                            \
  __device__ T __shfl_up_sync(const unsigned int mask, const T var, const unsigned int delta, \
                              const int width = 32);                                         \
  __device__ T __shfl_down_sync(const unsigned int mask, const T var,                        \
                                const unsigned int delta, const int width = 32);             \
  __device__ T __shfl_xor_sync(const unsigned int mask, const T var, const int laneMask,     \
                               const int width = 32);                                        \
  __device__ T atomicAdd(T *const address, const T val);
#define __WL_H_OPS(T)                                                                        \
  __WL_HD T operator+(const T &a, const T &b);                                               \
  __WL_HD T operator-(const T &a, const T &b);                                               \
  __WL_HD T operator*(const T &a, const T &b);                                               \
  __WL_HD T operator/(const T &a, const T &b);                                               \
  __WL_HD T &operator+=(T &a, const T &b);                                                   \
  __WL_HD T &operator-=(T &a, const T &b);                                                   \
  __WL_HD T &operator*=(T &a, const T &b);                                                   \
  __WL_HD T &operator/=(T &a, const T &b);                                                   \
  __WL_HD T &operator++(T &a);                                                               \
  __WL_HD T &operator--(T &a);                                                               \
  __WL_HD T operator++(T &a, int);                                                           \
  __WL_HD T operator--(T &a, int);                                                           \
  __WL_HD T operator+(const T &a);                                                           \
  __WL_HD T operator-(const T &a);                                                           \
  __WL_HD bool operator==(const T &a, const T &b);                                           \
  __WL_HD bool operator!=(const T &a, const T &b);                                           \
  __WL_HD bool operator<(const T &a, const T &b);                                            \
  __WL_HD bool operator>(const T &a, const T &b);                                            \
  __WL_HD bool operator<=(const T &a, const T &b);                                           \
  __WL_HD bool operator>=(const T &a, const T &b);

#define __WL_HALF_COMMON(H, H2)                                                              \
  __WL_H_BINARY(H, H2, __hadd, __hadd2)                                                      \
  __WL_H_BINARY(H, H2, __hadd_rn, __hadd2_rn)                                                \
  __WL_H_BINARY(H, H2, __hadd_sat, __hadd2_sat)                                              \
  __WL_H_BINARY(H, H2, __hsub, __hsub2)                                                      \
  __WL_H_BINARY(H, H2, __hsub_rn, __hsub2_rn)                                                \
  __WL_H_BINARY(H, H2, __hsub_sat, __hsub2_sat)                                              \
  __WL_H_BINARY(H, H2, __hmul, __hmul2)                                                      \
  __WL_H_BINARY(H, H2, __hmul_rn, __hmul2_rn)                                                \
  __WL_H_BINARY(H, H2, __hmul_sat, __hmul2_sat)                                              \
  __WL_H_BINARY(H, H2, __hdiv, __h2div)                                                      \
  __WL_H_BINARY(H, H2, __hmax, __hmax2)                                                      \
  __WL_H_BINARY(H, H2, __hmin, __hmin2)                                                      \
  __WL_H_BINARY(H, H2, __hmax_nan, __hmax2_nan)                                              \
  __WL_H_BINARY(H, H2, __hmin_nan, __hmin2_nan)                                              \
  __WL_H_TERNARY(H, H2, __hfma, __hfma2)                                                     \
  __WL_H_TERNARY(H, H2, __hfma_sat, __hfma2_sat)                                             \
  __WL_H_TERNARY(H, H2, __hfma_relu, __hfma2_relu)                                           \
  __device__ H2 __hcmadd(const H2 a, const H2 b, const H2 c);                                \
  __WL_H_UNARY(H, H2, __hneg, __hneg2)                                                       \
  __WL_H_UNARY(H, H2, __habs, __habs2)                                                       \
  __WL_H_CMP(H, H2, eq)                                                                      \
  __WL_H_CMP(H, H2, ne)                                                                      \
  __WL_H_CMP(H, H2, lt)                                                                      \
  __WL_H_CMP(H, H2, le)                                                                      \
  __WL_H_CMP(H, H2, gt)                                                                      \
  __WL_H_CMP(H, H2, ge)                                                                      \
  __device__ bool __hisnan(const H a);                                                       \
  __device__ H2 __hisnan2(const H2 a);                                                       \
  __device__ int __hisinf(const H a);                                                        \
  __WL_H_UNARY(H, H2, hsqrt, h2sqrt)                                                         \
  __WL_H_UNARY(H, H2, hrsqrt, h2rsqrt)                                                       \
  __WL_H_UNARY(H, H2, hrcp, h2rcp)                                                           \
  __WL_H_UNARY(H, H2, hexp, h2exp)                                                           \
  __WL_H_UNARY(H, H2, hexp2, h2exp2)                                                         \
  __WL_H_UNARY(H, H2, hexp10, h2exp10)                                                       \
  __WL_H_UNARY(H, H2, hlog, h2log)                                                           \
  __WL_H_UNARY(H, H2, hlog2, h2log2)                                                         \
  __WL_H_UNARY(H, H2, hlog10, h2log10)                                                       \
  __WL_H_UNARY(H, H2, hsin, h2sin)                                                           \
  __WL_H_UNARY(H, H2, hcos, h2cos)                                                           \
  __WL_H_UNARY(H, H2, htanh, h2tanh)                                                         \
  __WL_H_UNARY(H, H2, htanh_approx, h2tanh_approx)                                           \
  __WL_H_UNARY(H, H2, hceil, h2ceil)                                                         \
  __WL_H_UNARY(H, H2, hfloor, h2floor)                                                       \
  __WL_H_UNARY(H, H2, hrint, h2rint)                                                         \
  __WL_H_UNARY(H, H2, htrunc, h2trunc)                                                       \
  __device__ H2 __lowhigh2highlow(const H2 a);                                               \
  __WL_HD float __low2float(const H2 a);                                                     \
  __WL_HD float __high2float(const H2 a);                                                    \
  __WL_H_MEM(H)                                                                              \
  __WL_H_MEM(H2)                                                                             \
  __WL_H_OPS(H)                                                                              \
  __WL_H_OPS(H2)

/* The integer conversions of one rounding mode R (rn, rz, rd, ru): the
 * intrinsic of type T to H is P##2##N##_##R with N the scalar's name. */
#define __WL_H_INTCVT(H, N, R)                                                               \
  __WL_HD H __int2##N##_##R(const int i);                                                    \
  __WL_HD H __uint2##N##_##R(const unsigned int i);                                          \
  __WL_HD H __short2##N##_##R(const short int i);                                            \
  __WL_HD H __ushort2##N##_##R(const unsigned short int i);                                  \
  __WL_HD H __ll2##N##_##R(const long long int i);                                           \
  __WL_HD H __ull2##N##_##R(const unsigned long long int i);                                 \
  __WL_HD int __##N##2int_##R(const H h);                                                    \
  __WL_HD unsigned int __##N##2uint_##R(const H h);                                          \
  __WL_HD short int __##N##2short_##R(const H h);                                            \
  __WL_HD unsigned short int __##N##2ushort_##R(const H h);                                  \
  __WL_HD long long int __##N##2ll_##R(const H h);                                           \
  __WL_HD unsigned long long int __##N##2ull_##R(const H h);
#define __WL_H_CONVERSIONS(H, N)                                                             \
  __WL_H_INTCVT(H, N, rn) __WL_H_INTCVT(H, N, rz) __WL_H_INTCVT(H, N, rd)                    \
  __WL_H_INTCVT(H, N, ru)                                                                    \
  __WL_HD signed char __##N##2char_rz(const H h);                                            \
  __WL_HD unsigned char __##N##2uchar_rz(const H h);                                         \
  __WL_HD H __float2##N(const float a);                                                      \
  __WL_HD H __float2##N##_rn(const float a);                                                 \
  __WL_HD H __float2##N##_rz(const float a);                                                 \
  __WL_HD H __float2##N##_rd(const float a);                                                 \
  __WL_HD H __float2##N##_ru(const float a);                                                 \
  __WL_HD H __double2##N(const double a);                                                    \
  __WL_HD float __##N##2float(const H a);                                                    \
  __WL_HD short int __##N##_as_short(const H h);                                             \
  __WL_HD unsigned short int __##N##_as_ushort(const H h);                                   \
  __WL_HD H __short_as_##N(const short int i);                                               \
  __WL_HD H __ushort_as_##N(const unsigned short int i);

/* The members of the scalar type H (named N in the intrinsics) with its raw
 * struct R: CUDA's conversions from and to the built-in arithmetic types. */
#define __WL_H_MEMBERS(H, R)                                                                 \
  unsigned short __x;                                                                        \
  H() = default;                                                                             \
  __WL_HD constexpr H(const R &r) : __x(r.x) {}                                              \
  __WL_HD H &operator=(const R &r);                                                          \
  __WL_HD operator R() const;                                                                \
  __WL_HD H(const float f);                                                                  \
  __WL_HD H(const double f);                                                                 \
  __WL_HD H(const short v);                                                                  \
  __WL_HD H(const unsigned short v);                                                         \
  __WL_HD H(const int v);                                                                    \
  __WL_HD H(const unsigned int v);                                                           \
  __WL_HD H(const long v);                                                                   \
  __WL_HD H(const unsigned long v);                                                          \
  __WL_HD H(const long long v);                                                              \
  __WL_HD H(const unsigned long long v);                                                     \
  __WL_HD operator float() const;                                                            \
  __WL_HD operator signed char() const;                                                      \
  __WL_HD operator unsigned char() const;                                                    \
  __WL_HD operator char() const;                                                             \
  __WL_HD operator short() const;                                                            \
  __WL_HD operator unsigned short() const;                                                   \
  __WL_HD operator int() const;                                                              \
  __WL_HD operator unsigned int() const;                                                     \
  __WL_HD operator long() const;                                                             \
  __WL_HD operator unsigned long() const;                                                    \
  __WL_HD operator long long() const;                                                        \
  __WL_HD operator unsigned long long() const;                                               \
  __WL_HD explicit operator bool() const;                                                    \
  __WL_HD H &operator=(const float f);                                                       \
  __WL_HD H &operator=(const double f);                                                      \
  __WL_HD H &operator=(const short v);                                                       \
  __WL_HD H &operator=(const unsigned short v);                                              \
  __WL_HD H &operator=(const int v);                                                         \
  __WL_HD H &operator=(const unsigned int v);                                                \
  __WL_HD H &operator=(const long long v);                                                   \
  __WL_HD H &operator=(const unsigned long long v);

/* The members of the pair type H2 of H, with its raw struct R2. */
#define __WL_H2_MEMBERS(H, H2, R2)                                                           \
  H x, y;                                                                                    \
  H2() = default;                                                                            \
  __WL_HD constexpr H2(const H &a, const H &b) : x(a), y(b) {}                               \
  __WL_HD H2(const R2 &r);                                                                   \
  __WL_HD H2 &operator=(const R2 &r);                                                        \
  __WL_HD operator R2() const;
