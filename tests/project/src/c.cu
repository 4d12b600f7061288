#include "unused.cuh"

__global__ void votes(const int *in, unsigned *out) {
#ifdef USE_VOTE
  out[threadIdx.x / 32] = vote_all(in[threadIdx.x]);
#endif
}
