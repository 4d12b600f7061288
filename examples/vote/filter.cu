// Stream compaction with warp votes (pre-CUDA 9).
#include "../include/warp_utils.cuh"

__global__ void compact(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i < n ? in[i] : 0;
  bool keep = x > 0;
  unsigned ballot = __ballot(keep);
  int leader_base = 0;
  if (lane_id() == 0)
    leader_base = atomicAdd(count, __popc(ballot));
  leader_base = warp_broadcast(leader_base, 0);
  if (keep)
    out[leader_base + __popc(ballot & ((1u << lane_id()) - 1))] = x;
  if (!__any(keep) && lane_id() == 0)
    count[1]++;
}

// Odd and even lanes each collect "the active lanes" for their own reduction.
__global__ void parity_sums(const int *in, int *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  if (lane_id() & 1) {
    unsigned mask = __activemask();
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(mask, v, o);
  } else {
    unsigned mask = __activemask();
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_xor_sync(mask, v, o);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Width 12 is not a power of two: undefined results.
__global__ void rows_of_twelve(const float *in, float *out) {
  float v = in[threadIdx.x];
  v += __shfl_down_sync(FULL_MASK, v, 1, 12);
  out[threadIdx.x] = v;
}
