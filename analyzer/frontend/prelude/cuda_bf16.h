/* warplint prelude: stand-in for the toolkit header <cuda_bf16.h>:
 * __nv_bfloat16, __nv_bfloat162 (and nv_bfloat16, nv_bfloat162), their raw
 * structs, conversions, arithmetic and comparison intrinsics, operators and
 * CUDART_*_BF16 constants, declared as CUDA 13 declares them. Used only
 * without a CUDA toolkit. */
#pragma once
#pragma clang system_header
#include "cuda_fp16.h"

struct __nv_bfloat16_raw {
  unsigned short x;
};
struct __nv_bfloat162_raw {
  unsigned short x, y;
};
struct __attribute__((aligned(2))) __nv_bfloat16 {
  __WL_H_MEMBERS(__nv_bfloat16, __nv_bfloat16_raw)
  __WL_HD explicit __nv_bfloat16(const __half f);
};
struct __attribute__((aligned(4))) __nv_bfloat162 {
  __WL_H2_MEMBERS(__nv_bfloat16, __nv_bfloat162, __nv_bfloat162_raw)
};
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

__WL_H_CONVERSIONS(__nv_bfloat16, bfloat16)
__WL_HALF_COMMON(__nv_bfloat16, __nv_bfloat162)

__WL_HD __nv_bfloat162 __float2bfloat162_rn(const float a);
__WL_HD __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b);
__WL_HD __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__WL_HD float2 __bfloat1622float2(const __nv_bfloat162 a);
__WL_HD __nv_bfloat162 __bfloat162bfloat162(const __nv_bfloat16 a);
__WL_HD __nv_bfloat162 __halves2bfloat162(const __nv_bfloat16 a, const __nv_bfloat16 b);
__WL_HD __nv_bfloat162 make_bfloat162(const __nv_bfloat16 x, const __nv_bfloat16 y);
__WL_HD __nv_bfloat16 __low2bfloat16(const __nv_bfloat162 a);
__WL_HD __nv_bfloat16 __high2bfloat16(const __nv_bfloat162 a);
__WL_HD __nv_bfloat162 __low2bfloat162(const __nv_bfloat162 a);
__WL_HD __nv_bfloat162 __high2bfloat162(const __nv_bfloat162 a);
__WL_HD __nv_bfloat162 __lows2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b);
__WL_HD __nv_bfloat162 __highs2bfloat162(const __nv_bfloat162 a, const __nv_bfloat162 b);

#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define CUDART_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define CUDART_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define CUDART_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define CUDART_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)
#define CUDART_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define CUDART_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
