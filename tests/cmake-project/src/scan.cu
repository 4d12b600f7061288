// Warp scan of the sample project: the legacy path is built with -DFOO.
#include "warp_helpers.cuh"

__global__ void warp_scan(int *data) {
  int v = data[threadIdx.x];
#ifdef FOO
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    int up = __shfl_up(v, d);
    if (lane_of(threadIdx.x) >= d)
      v += up;
  }
#else
  for (int d = 1; d < WARP_SIZE; d *= 2) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane_of(threadIdx.x) >= d)
      v += up;
  }
#endif
  data[threadIdx.x] = v;
}
