// Block reduction of the sample project: needs include/ and the vendor header.
#include "warp_helpers.cuh"
#include <vendor_warp.cuh>

__global__ void block_sum(const float *in, float *out) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  WARP_REDUCE_SUM(v);
  v = VENDOR_BROADCAST(v);
  if (lane_of(threadIdx.x) == 0)
    atomicAdd(out, v);
}

#if WARP_SAMPLE_VERSION >= 2
__global__ void any_positive(const float *in, int *out) {
  int p = in[threadIdx.x] > 0.0f;
  if (__any(p) && threadIdx.x == 0)
    *out = 1;
}
#endif
