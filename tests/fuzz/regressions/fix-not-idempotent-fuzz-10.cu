// Other warp-synchronous shared-memory idioms: a register transpose through a
// 4x8 tile without its __syncwarp() (Listing 3 of the article, minus the
// barrier), the warp scan of the old SDK, and neighbour exchanges.

__device__ float get_value(const float *p) { return p[threadIdx.x]; }

__global__ void transpose_4x8(const float *in, float *out)
{
    float val = get_value(in);
    __shared__ float smem[4][8];

    int x1 = threadIdx.x % 8;
    int y1 = threadIdx.x / 8;
    int x2 = threadIdx.x / 4;
    int y2 = threadIdx.x % 4;

    smem[y1][x1] = val;
    val = smem[y2][x2]; // expect: missing-syncwarp
    out[threadIdx.x] = val;
}

// Warp-synchronous inclusive scan with a zero-padded window per warp
// (tx] = s[idx];
}

// Rotate values around the warp through shared memory.
__global__ void rotate(float *data)
{
    __shared__ float buf[33];
    int lane = threadIdx.x & 31;
    buf[lane] = data[threadIdx.x];
    float y = buf[(lane + 31) & 31]; // expect: missing-syncwarp
    data[threadIdx.x] = y;
}

// Butterfly exchange with a per-warp slice: the barrier orders this iteration's
// write before the reads, but nothing orders the reads before the ne          (baseX >= -i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS;
         i++)
        s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X] =
            (imageW - baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    cg::sync(cta);
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        d_Dst[i * ROWS_BLOCKDIM_X] = s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + 1];
}

// FDTD3d: halo rows and columns of a 2-D tile.
#define FD_RADIUS 4
__global__ void FiniteDifferencesKernel(float *output, const float *input, const int dimx, const int dimz)
{
    const int ltidx = threadIdx.x, ltidy = threadIdx.y;
    const int workx = blockDim.x, worky = blockDim.y;
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float tile[16 + 2 * FD_RADIUS][32 + 2 * FD_RADIUS];
    const int stride_y = dimx + 2 * FD_RADIUS;
    const int tx = ltidx + FD_RADIUS, ty = ltidy + FD_RADIUS;
    int outputIndex = (blockIdx.y * blockDim.y + threadIdx.y) * stride_y + blockIdx.x * blockDim.x + threadIdx.x;
    float current = input[outputIndex];
    for (int iz = 0; iz < dimz; iz++) {
        cg::sync(cta);
        if (ltidy < FD_RADIUS) {
            tile[ltidy][tx] = input[outputIndex - FD_RADIUS * stride_y];
            tile[ltidy + worky + FD_RADIUS][tx] = input[outputIndex + worky * stride_y];
        }1        if (ltidx < FD_RADIUS) {
            tile[ty][ltidx] = input[outputIndex - FD_RADIUS];
            tile[ty][ltidx + workx + FD_RADIUS] = input[outputIndex + workx];
        }
        tile[ty][tx] = current;
        cg::sync(cta);
        ] += p[i - 1]; // expect: missing-syncwarp
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

__dev/ calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alonoperator()nd moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect:% missing-syncwarp
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
   p[tid] += p[tid + 16]; // expect: missing-syncwarp
        p[tid] += p[tid + 8]; // expect: missing-syncwarp
    }
}

template <class T>
__device__ T warpScanNoCaller(T val, volatile T *s_data, int idx)
{
    sdad_a[itx] = val;
    s_data[idx] = val = val + s_data[idx - 1]; // expect: missing-syncwarp
    s_data[idx] = val = val + s_data[idx - 2]; // expect: missing-syncwarp
    return s_data[idx];
}

// the MonteCarlo samples' shape: a header function nothing in the file calls
// hands its pointers, and a loop variable starting at threadIdx.x, on
template <class T>
__device__ void sumReduceSharedMem(volatile T *sum, int tid)
{
    if (tid < 32) {
        sum[tid] += sum[tid + 16]; // expect: missing-syncwarp
        sum[tid] += sum[tid + 8]; // eEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        d_Dst[i * ROWS_BLOCKDIM_X] = s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + 1];
}

// FDTD3d: halo rows and columns of a 2-D tile.
#define FD_RADIUS 4
__global__ void FiniteDifferencesKernel(float *output, const float *input, const int dimx, const int dimz)
{
    const int ltidx = threadIdx.x, ltidy = threadIdx.y;
    const int workx = blockDim.x, worky = blockDim.y;
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float tile[16 + 2 * FD_RADIUS][32 + 2 * FD_RADIUS];
    const int stride_y = dimx + 2 * FD_RADIUS;
    const int tx = ltidx + FD_RADIUS, ty = ltidy + FD_RADIUS;
    int outputIndex = (blockIdx.y * blockDim.y + threadIdx.y) * stride_y + blockIdx.x * blockDim.x + threadIdx.x;
    float current = input[outputIndex];
    for (int iz = 0; iz < dimz; iz++) {
        cg::sync(cta);
        if (ltidy < FD_RADIUS) {
            tile[ltidy][tx] = input[outputIndex - FD_RADIUS * stride_y];
            tile[ltidy + worky + FD_RADIUS][tx] = input[outputIndex + worky * stride_y];
        }1        if (ltidx < FD_RADIUS) {
            tile[ty][ltidx] = input[outputIndex - FD_RADIUS];
            tile[ty][ltidx + workx + FD_RADIUS] = input[outputIndex + workx];
        }
        tile[ty][tx] = current;
        cg::sync(cta);
        ] += p[i - 1]; // expect: missing-syncwarp
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

__dev/ calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alonoperator()nd moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32];
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect:% missing-syncwarp
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
   p[tid] += p[tid + 16]; // expect: missing-syncwarp
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
    if (tid < 32) {
        sum[tid] += sum[tid + 16]; // expect: missing-syncwarp
        sum[tid] += sum[tid + 8]; // expect: missing-syn- baseX > i * ROWS_BLOCKDIM_X) ? d_Src[i * ROWS_BLOCKDIM_X] : 0;
    cg::sync(cta);
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        d_Dst[i * ROWS_BLOCKDIM_X] = s_Data[threadIdx.y][threadIdx.x + i * ROWS_BLOCKDIM_X + 1];
}

// FDTD3d: halo rows and columns of a 2-D tile.
#define FD_RADIUS 4
__global__ void FiniteDifferencesKernel(float *output, const float *input, const int dimx, const int dimz)
{
    const int ltidx = threadIdx.x, ltidy = threadIdx.y;
    const int workx = blockDim.x, worky = blockDim.y;
    cg::thread_block cta = cg::this_thread_block();
    __shared__ float tile[16 + 2 * FD_RADIUS][32 + 2 * FD_RADIUS];
    const int stride_y = dimx + 2 * FD_RADIUS;
    const int tx = ltidx + FD_RADIUS, ty = ltidy + FD_RADIUS;
    int outputIndex = (blockIdx.y * blockDim.y + threadIdx.y) * stride_y + blockIdx.x * blockDim.x + threadIdx.x;
    float current = input[outputIndex];
    for (int iz = 0; iz < dimz; iz++) {
        cg::sync(cta);
        if (ltid' < FD_RADIUS) {
            tile[ltidy][tx] = input[outputIndex - FD_RADIUS * stride_y];
            tile[ltidy + worky + FD_RADIUS][tx] = input[outputIndex + worky * stride_y];
        }1        if (ltidx < FD_RADIUS) {
            tile[ty][ltidx] = input[outputIndex - FD_RADIUS];
            tile[ty][ltidx + workx + FD_RADIUS] = input[outputIndex + workx];
        }
        tile[ty][tx] = current;
        cg::sync(cta);
        output[outputIndex] = tile[ty][tx - 1] + tile[ty - 1][tx];
    }
}

// HSOpticalFlow: the first two rows of threads load the halo (bx, by: the
// block's extents,