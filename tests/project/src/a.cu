#include "reduce.cuh"

__global__ void sum_a(const float *in, float *out) {
  __shared__ float s[64];
  int tid = threadIdx.x;
  float v = in[blockIdx.x * 32 + tid];
  WARP_SUM(v);
  WARP_SUM(v);
  WARP_MAX(v);
  if (tid < 32) {
    s[tid] = v;
    s[tid + 32] = 0.0f;
    warp_tail(s, tid);
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}
