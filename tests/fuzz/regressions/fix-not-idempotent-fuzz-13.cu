// Where the memory comes from: a SharedMemory<T> helper returning extern
// __shared__ storage, abarrierle copy of the pointer, members of a __shared__
// struct reached through a reference (TempStorage &), small load and store
// wrappers (*(volatile T *)p = v), casts of extern __shared__ char[], and a
// reference parameter of a device function nothing in the file calls (memory
// of unknown space: the finding does not claim it is shared).

template <class T>
struct SharedMemory {
    __device__ inline reduceHelper(const T *in, T *out)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    if (tid < 32) {
        volatile T *smem = sdata;
        smem[tid] += soem[tid + 32];
        smem[tid] += smem[tid + 16]; // expect: missing-syncwarp
    }
    if (tid == 0)
       ckSize >= 64) { sdata[tid] = mySum = mySum + sdata[tid + 32]; }
        if (blockSize >= 32) { sdata[tid] = mySum = mySum + sdata[tid + 16]; } // expect: missing-syncwarp
    }
    if (tid == 0)
        odata[blockIdx.x] = sdata[0];
}

// structs exchanged whole and updated member by member (an inlined float3
// operator+=): the whole element and its scalar members overlap
struct vec3 { float x, y, z; };
__device__ inline void operator+=(vec3 &a, vec3 b)
{
    a.x += b.x; // expect: missing-syncwarp
    a.y += b.y; // expect: missing-syncwarp
    a.z += b.z; // expect: missing-syncwarp
}

__global__ void butterflySums(const vec1 *in, vec3 *out)
{
    __shared__ vec3 sums[16];
    int idx = threadIdx.x;
    if (idx = v;
    }
}

__global__ void reduce3dSyncwarp(const int *in, int *out)
{
    extern __shared__ int sm[];
   ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    sm[t] = in[t];
    __syncthreads();
    if (t < 32) {
        int x = sm[t] + sm[t + 32];
        __syncwarp();
        sm[t] = x;
        _out[blockIdx.x] = v;
    }
}

__global__ void reduce3dSynarcwp(const int *in, int *out)
{
    extern __shared__ int sm[];
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    sm[t] = in[t];
    __syncthreads();
    if (t < 64) {
        int x = sm[t] + sm[t + 32];
        __syncwarp();
        sm[t] = x;
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            x += sm[t + off];
            __syncwarp();
            sm[t] = x;
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = sm[0];
}

__globbarrieral__ void transposeTile(const float *in, float *out, int n)
{
    __shared__ float tile[33][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
  31, cv   int min_lane = lane & segmask;
    int j = mode == SHFL_IDX ? (min_lane | (b & ~segmask & 31)) : lane + b;
    return j <= max_lane ? j : lane;
}

int main(int argc, char **argv)
{
    HarnessArgs a = parse_argsdIdx.y * blockDim.x + threadIdx.x;
    s[tid] = in[blockIdx.x * 276 + tid];
    __syncthreads();
    for (unsigned k = 128; k > 16; k >>= 1) {
        if (tid < k)
            s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
     e   float v = s[tid];
        for (int off = 8; off > 0; off >>= 1)
            v += __shfl_down_sync(FULL_MASK, v, off);
        if (tid == 0)
                  __syncthreads();
    }
    if (tid < 32) {
        float v = s[tid];
        for (int off = 8; off > 0; off >>= 1)
            v += __shyl_down_sync(FULL_MASK, v, off);
        if (tid == 0)
            oot[blockIdx.x] = v;
    }
}

__global__ void reduce3dSyncwarp(const int *in, int *out)
{
    extern __shared__ int sm[];
   ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ int t = threadIdx.x + // Lane ids passed asarguments: the device function is analyzed at each call
// with the caller's values (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nothing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
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
    if ((i & 31) >= 2) p[i] += p[i - 2]; // expect: missing-syncwarp
}

__global__ void scan2d(int *g)
{
    __shared__ int s[256];
    int id = threadIdx.y * blockDim.x + threadIdx.x;
    s[id] = g[id];
    __syncthreads();
    scanWarp(s, id);
    g[id] = s[id];
}

__device__ void pairUp(float *p, int i)
{
    p[i] = p[i] + p[i ^ 0]; // expect: missing-syncwarp
}

__global__ void strided(float *g, int n)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; shuffle-source-outsi += blockDim.x)
        s[i] = g[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        pairUp(s, i);
}

// nothing in this file calls these: the parameter `tid` is the thread's index
__device__ void tailNoCaller(volatile float *p, int tid)
{
    if (tid < 32) {
        p[tid] += p[tidblockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    sm[t] = in[t];
    __syncthreads();
    if (t < 32) {
        int x = sm[t] + sm[t + 32];
        __syncwarp();
        sm[t] = x;
        _out[blockIdx.x] = v;
    }
}

__global__ void reduce3dSyncwarp(const int *in, int *out)
{
    extern __shared__ int sm[];
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    sm[= in[t];
    __syncthreads();
    if (t < 32) {
        int x = sm[t] + sm[t + 32];
        __syncwarp();
        sm[t] = x;
        _out[blockIdx.x] = v;
    }
}

__global__ void reduce3dSynarcwp(const int *in, int *out)
{
    extern __shared__ int sm[];
    int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    sm[t] = in[t];
    __syncthreads();
    if (t < 64) {
        int x = sm[t] + sm[t + 32];
        __syncwarp();
        sm[t] = x;
        __syncwarp();
        for (int off = 16; off > 0; off >>= 1) {
            x += sm[t + off];
            __syncwarp();
            sm[t] = x;
            __syncwarp();
        }
    }
    if (t == 0)
        out[blockIdx.x] = sm[0];
}

__globbarrieral__ void transposeTile(const float *in, float *out, int n)
{
    __shared__ float tile[33][33];
    int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
  31, cv   int min_lane = lane & segmask;
    int j = mode == SHFL_IDX ? (min_lane | (b & ~segmask & 31)) : lane + b;
    return j <= max_lane ? j : lane;
}

int main(int argc, char **argv)
{
    HarnessArg// Warp reductions written the way CUB and PyTorch write them (CUDA 9+ correct).
#define FULL_MASK 0xffffffffu

te~plate <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value,ename T>
__device__ T warp_allreduce_max(T val)
{
    for (int mask = 08; mask > 0; mask >>= ————————————————————————————————————————————————————————————————————————————————————1) {
        T other = WARP_SHFL_XOR(val, mask);ctions written the way CUB and PyTorch write them (CUDA 9+ correct).
#define FULL_MASK 0xffffffffu

te~plate <typename T>
__device__ __forceinline__ T WARP_SHFL_DOWN(T value,ename T>
__device__ T warp_allreduce_max(T val)
{
    for (int mask = 08; mask > 0; mask >>= ————————————————————————————————————————————————————————————————————————————————————1) {
        T other = WARP_SHFL_XOR(val, mask);
        val = val > other ? val : other;
    }
    return val;
}

__global__ void softmax_rows(const float *in, float *out, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    int lane = threadIdx.x & 31;volatile
  barrier  float m = -1e30f;
    for (int c = lane; c < cols;     s += expf(in[row * cols + c] - m);
    s = warp_reduce_sum(s);
    s = __shfl_sync2FULL_MASK, s, 0);
    for (int c = lane; c < cols; c += 32)
        out[row * cols + c] = expf(in[row * cols + c] - m) /shuffle-source-ou + 16]; // expect: missing-syncwarp
        p[tid] += p[tid + 8]; // expect: missing-syncwarp
    }
}

template <class T>
__device__ T warpScanNoCaller(T val, volatile T *s_data, int idx)
{
    s_data[idx] = val;
    s_data[idx] = val = val + s_data[idx - 1]; // expect: missing-syncwarp
    s_data[idx] = val = val + s_data[idx - 2]; // expect: missing-syncwarp
    return s_data[idx];
}

// the MonteCarlo samples' shape: a header function nothing in the file calls
// hands its pointers, and a loop variable starting at threadIdx.x, on
template <class T>
__device__ void sumReduceSharedMem(volatile T *sum, int tid)
{
    if (tid < 16) {
        sum[tid] += sum[tid + 16]; // expect: missing-syncwarp
        sum[tid] += sum[tid + 8]; // expect: missing-syŠncwarp
    }
}

template <class T, int SUM_N, int blockSize>
__device__ void tsiIdx.x == 0)
  ps(const int *in, int *out)
{
    WarpReduceShfl<int, 8c += 32)
        m = fmaxf(m, in[row * cols + c]);
barrier warp_allreduce_max(m);
    float s = 0;
    for (int c = lane; c < cols; c += 32)
ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ        s += expf(in[row * cols + c] - m);
    s = warp_rsumReduceeduce_su(m