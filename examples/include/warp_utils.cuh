// Warp helpers written for Kepler/Maxwell (CUDA 7/8).
#pragma once

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

__device__ __forceinline__ int lane_id() { return threadIdx.x & (WARP_SIZE - 1); }

template <typename T>
__device__ __forceinline__ T warp_reduce_sum(T val) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val += __shfl_down(val, offset);
  return val;
}

// Double precision shuffle: the legacy intrinsics only took int and float.
__device__ __forceinline__ double __shfl_down(double var, unsigned int srcLane, int width = 32) {
  int2 a = *reinterpret_cast<int2 *>(&var);
  a.x = __shfl_down(a.x, srcLane, width);
  a.y = __shfl_down(a.y, srcLane, width);
  return *reinterpret_cast<double *>(&a);
}

__device__ __forceinline__ int warp_broadcast(int v, int src) { return __shfl(v, src); }
