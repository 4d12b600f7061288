// Helpers shared by src/a.cu and src/b.cu (CUDA 8 style).
#pragma once

#define WARP_SUM(v)                                                            \
  for (int o_ = 16; o_ > 0; o_ >>= 1)                                          \
    (v) += __shfl_down((v), o_)

#define WARP_MAX(v)                                                            \
  for (int o_ = 16; o_ > 0; o_ >>= 1)                                          \
    /* warplint-disable-next-line legacy-intrinsic */                          \
    (v) = fmaxf((v), __shfl_xor((v), o_))

// The last steps of a shared-memory reduction: the caller stored s[tid].
__device__ void warp_tail(volatile float *s, int tid) {
  s[tid] += s[tid + 16];
}
