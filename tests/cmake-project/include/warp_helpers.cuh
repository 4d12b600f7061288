// Warp helpers of the sample project (CUDA 8 style).
#pragma once

#define WARP_SIZE 32

#define WARP_REDUCE_SUM(v)                                                     \
  for (int offset_ = WARP_SIZE / 2; offset_ > 0; offset_ /= 2)                 \
    (v) += __shfl_down((v), offset_)

__device__ __forceinline__ int lane_of(int tid) { return tid & (WARP_SIZE - 1); }
