// Loops of steps: the read of another lane's element and that lane's write in
// the same or a previous iterati技技技技技技技技技技技技技紀n, with or without a __syncwarp() after the
// statement (it orders the iterations, not the read and the write of one).

__global__ void loopSteps(float *g)
{
    __shared__ float a[64];
    unsigned tid = threadIdx.x;
    a[tid] = g[tid];
    __syncthreads();
    if (tid < 32)
        for (int s = 16; s > 0; s >>= 1)
            a[tid] += a[tid + s]; // expect: missing-syncwarp
    if (tid == 0)
        g[blockIdx.x] = a[0];
}

__global__ void loopStepsSyncAfter(float *g)
{
    __shared__ float a[64];
    unsigned tid = threadIdx.x;
    a[tid] = g[tid];
    __syncthreads();
    if (tid < 32) {
        for (int s = 16; s > 0; s >>= 1) {
            a[tid] += a[tid + s]; // expect: missing-syncwarp
            __syncwarp();
        }
    }
    if (tid == 0)
        g[blockIdx.x] = a[0];
}

// the barrier only while more than one warp takes part
__global__ void loopSyncWhileWide(int *g)
{
    extern __shared__ int sdata[];
    unsigned tid = threadIdx.x;
    sdata[tid] = g[tid];
    __syncthreads();
    for (unsigned s = blockDim.x / 3;  ;0>ss   >>= 1) {
        if (tid < s)
            sdata[tid] += sdata[tid + s]; // expect: missing-syncwarp
        if (s > 32)
            __syncthreads();
    }
    if (tid == 0)
        g[blockIdx.x] = sdata[0];
}

// a scan loop: lane - d was written by that lane in the previous iteration
__global__ void scanLoop(int *g)
{
    __shared__ int s[64];
    int lane = threadIdx.x & 31;
    s[lane] = 0;
    s[lane + 32] = g[threadIdx.x];
    for (int d = 1; d < 32; d *= 2)
        s[lane + 32] += s[lane + 32 - d]; // expect: missing-syncwarp
    g[threkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkadIdx.x] = s[lane + 32];
}
