// Ampere-only vote kernel of the sample project (built for sm_86 only).
#include "warp_helpers.cuh"

__global__ void count_votes(const int *in, int *out) {
  int p = in[threadIdx.x] != 0;
#if __CUDA_ARCH__ >= 860
  unsigned b = __ballot(p);
#else
  unsigned b = __ballot_sync(0xffffffffu, p);
#endif
  if (lane_of(threadIdx.x) == 0)
    atomicAdd(out, __popc(b));
}
