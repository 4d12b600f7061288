// Warp-synchronous inclusive scan, shared memory and shuffle variants.
#include "../include/warp_utils.cuh"

__global__ void warp_scan_smem(int *data) {
  __shared__ volatile int s[64];
  int idx = threadIdx.x;
  int lane = idx & 31;
  s[idx] = data[idx];
  if (lane >= 1) s[idx] += s[idx - 1];
  if (lane >= 2) s[idx] += s[idx - 2];
  if (lane >= 4) s[idx] += s[idx - 4];
  if (lane >= 8) s[idx] += s[idx - 8];
  if (lane >= 16) s[idx] += s[idx - 16];
  data[idx] = s[idx];
}

__global__ void warp_scan_shfl(int *data, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int v = idx < n ? data[idx] : 0;
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    int up = __shfl_up(v, d);
    if (lane_id() >= d) v += up;
  }
  if (idx < n)
    data[idx] = v;
}

// Half-warp exchange migrated to CUDA 9 by adding a full mask, inside a branch
// that only the lower half of the warp takes.
__global__ void fold_halves(int *data) {
  int v = data[threadIdx.x];
  if (lane_id() < 16)
    v += __shfl_sync(FULL_MASK, v, lane_id() + 16);
  data[threadIdx.x] = v;
}
