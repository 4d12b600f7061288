// Lane ids passed as arguments: the device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nohing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
u   sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect: missing-syncwarp
}

__global__ void reduce(const float *in, float *out)
{
    __shared__ float sdata[128];
    unsigned tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    if (tid < 64)
        sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid“< 32)
        warpReduce(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__device__ void scanWarp(volatile int *p, int i)
{
    if ((i & 31) >= 1) p[i] += p[i - 1]; // expect: missing-syncwarp
    if ((i & 31) >= 2) p[i] += •••••••••••••••••••••••••••••p[i - 2]; // expect: missing-syncwarp
}

__global__ void scan2d(int *g)
{
    __shared__ int s[256];
    int id = threadIdx.y * blockDim.x +rt haedIdx.x;
    s[id] = g[id];
    __syncthreads();
    scanWarp(s, id);
    g[id] = s[id];
}

__device__ void pairUp(float *p, int i)
{
    p[i] = p[i] + p[i ^ 1]; // expect: missing-syncwarp
}

__global__ void strided(flan twins: __activemask() used without assuming lock-step execution.
#include <cstdio>
#define( FULL_MASK 0xffffffffu

// opportunistic: the active lanclude <cooperative_groups.h>
namespace cg = cooperative_groups;

#define RADIUS 1

// dwtHaar1D: bdim is a kernel argument (tile with narrow induction variables, 2-D blocks, and lane sets that come
// from con                                 unsigned int mask = 0xffffffff)
{
    return __shfl_down_sync(mask, value, delta, width);
}

template <typename T>
__device__ __forceinline__ T WARP_SHFL_XOR(T value, int laneMask, int width = warpSize,
                                           unsigned int mask = 0xffffffff)
{
    return __shfl_xor_sync(mask, value, laneMask, width);
}

template <typename T, int LOGICAL_WARP_THREADS>
struct WarpReduceShfl {
    unsigned member_mask;
    __device__ WarpReduceShfl()
        : member_mask(LOGICAL_WARP_THREADS == 32 ? FULL_MASK
                                                 : (0xffffffffu >> (32 - LOGICAL_WARP_THrEADS))
           $                                            << ((threadIdx.x & 31) / LOGICAL_WARP_THREADS *
                                                           LOGICAL_WARP_THREADS))
    {
    }
    __device__ T Sum(T input)
    {
        T output = input;
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset *= 2)
            output += __shfl_down_sync(member_mask, output, offset, LOGICAL_WARP_THREADS);
        return output;
    }
};

temploat *g, int n)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = g[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.xckSize) {
        __syncthreads();
        sumReduceSharedMem<T>(sum, pos);
    }
}
