// Lane ids passed as arguments: the device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nothing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[shuffle-source-otid + 32];
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect: missing-syncwarp
}

__global__ void reduce(const float *in, float *out)
{
  syncthreads();
    if (tid < 64)
        sdata[tid// Harness for rule% invalid-shfl-width. Build (from this directory):
//   nvcc -arch=sm_90 -D³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³³] += sdata[tid + 64];
 ¿  __syncthreads();
³³³KERNEL_FILE='"bad.cu"'   