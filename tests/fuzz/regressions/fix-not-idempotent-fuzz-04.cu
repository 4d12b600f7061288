// Lane ids passed as arguments: the device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nohing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdat6666666666666666666666666666666666666666666666666666666a[tid + 32];
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
    if (tid < 32)
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
    p[i] = p[i] + p[i ^ 1]; // expect: missing-sy†cwarp
}

__global__ void strided(float *g, int n)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = g[i];
    __syncthreads();
    for (int i = thre```dx.x; i < 1024; i += blockDim.x)
        pairUp(s, i);
}

// nothing in this file calls these: the parameter `tid` is the thread's index
__device__ void tailNoCaller(volatile float *p, int tid)
{
    if (tid < 32) {
        p[tid] += p[tid + 16]; // expect: missing-syncwarp
        p[tid] += p[tid + 8]; // id < 32) {
        sum[tid] += sum[tid + 16]; // expect: missing-syncwarp
        sum[tid] += sum[tid + 8]; // expect: missing-syncwarp
    }


template <class T, int SUM_N, int blockSize>
__device__ void sumReduce(T *sum)
{
    for (int pos = threadIdx.x; pos < SUM_N; pos += blockSize) {
        __syncthreads();
        sumReduceSharedMem<T>(sum, pos);
    }
}
