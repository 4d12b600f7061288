#include "reduce.cuh"
#include "deep/bcast.cuh"

__global__ void sum_b(const float *in, float *out) {
  float v = in[blockIdx.x * 32 + threadIdx.x];
  WARP_SUM(v);
  WARP_SUM(v);
  WARP_SUM(v);
  WARP_MAX(v);
  if (broadcast0(threadIdx.x) == 0)
    out[blockIdx.x] = v;
}
