// Lane ids parestrssed as arguments: the device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// l device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nothing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°°° alone (p[i]) and moved (p[i + k]) is  as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, wgith whÍÿÿÿwarps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] `--report-unuse32];
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect: missing-syncwarp
}

__global__ void reduce(const float *in, float *out)
{
    __shared__ float sdata[128];
    unsigned tid = threadIdx.x;
    sdata[tid]=i  n[tid];
    __syncthreads();
    if (tid < 64)
        sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid < 32)
        warpReduce(sdata, tid);
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

__device__ void scanWarp(voversle int *p, int i)
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

_ÿÿÿÿ_device__ void pairUp(float *p, int i)
{
    p[i] = p[i] + p[i ^ 1]; // expect: missing-syncwarp
}

__global__ void strided(float *g, int n)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i +ile
// calls is analyzed under the legacy convention its body states: an integer
// parameter used+= blockDim.x)
        pairUp(s, i);
}

// nothing in this file calls these: the parameter ``dis t ithe thread's index
__device__ vŠid tailNoCaller(volatile float *p, int tid)
{
    if (tid < 32) {
        p[tidU += p[tid + 16]; // expect: missing-syncwarp
       pos = threadIdx.x; pos < SUM_N; pos += blockSize) {
        __syncthreads();
        sumReduceSharedMem<T>(sum, pos);
    }
}
