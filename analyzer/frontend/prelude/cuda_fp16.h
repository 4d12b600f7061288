/* warplint prelude: stand-in for the toolkit header <cuda_fp16.h>: __half,
 * __half2 (and half, half2), their raw structs, conversions, arithmetic and
 * comparison intrinsics, operators and CUDART_*_FP16 constants, declared as
 * CUDA 13 declares them. Used only without a CUDA toolkit. */
#pragma once
#pragma clang system_header
#include "__warplint_half.h"

struct __half_raw {
  unsigned short x;
};
struct __half2_raw {
  unsigned short x, y;
};
struct __attribute__((aligned(2))) __half {
  __WL_H_MEMBERS(__half, __half_raw)
};
struct __attribute__((aligned(4))) __half2 {
  __WL_H2_MEMBERS(__half, __half2, __half2_raw)
};
typedef __half half;
typedef __half2 half2;

__WL_H_CONVERSIONS(__half, half)
__WL_HALF_COMMON(__half, __half2)
__WL_HD __half2 __float2half2_rn(const float a);
__WL_HD __half2 __floats2half2_rn(const float a, const float b);
__WL_HD __half2 __float22half2_rn(const float2 a);
__WL_HD float2 __half22float2(const __half2 a);
__WL_HD __half2 __half2half2(const __half a);
__WL_HD __half2 __halves2half2(const __half a, const __half b);
__WL_HD __half2 make_half2(const __half x, const __half y);
__WL_HD __half __low2half(const __half2 a);
__WL_HD __half __high2half(const __half2 a);
__WL_HD __half2 __low2half2(const __half2 a);
__WL_HD __half2 __high2half2(const __half2 a);
__WL_HD __half2 __lows2half2(const __half2 a, const __half2 b);
__WL_HD __half2 __highs2half2(const __half2 a, const __half2 b);

#define CUDART_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define CUDART_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define CUDART_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define CUDART_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)
#define CUDART_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
