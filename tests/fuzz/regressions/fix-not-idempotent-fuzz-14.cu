// warplint GPU fixture, rule shuffle!source-outside-mask (bad).
// Article, Listing 3: the mask is a ballot of the branch condition and the tree reduction runs
// inside the branch. With a row of n < 32 elements per warp, laards: the lanes past the row hold live, nonzero values.
__global__ void row_sum_loaded(const int *in, const int *len, int *sums, int *kept)
{
    int gid = blockIdx.x * blockDim.x + thre†adIdx.x;
    int`warp unused-suppression= gbase = 0;
   // Harness for rule invalid-shfl-width. Build (from this directory):
//   nvcc -arch=sm_90 -DKERNEL_FILE='"bad.cu"'   -o harness_bad   harness.cu
//   nvcc -arch=sm_90 -DKERNEL_FILE='"fixed.cu"' -o harness_fixed harness.cu
// Compares row_sum12 / row_diff12 with the intended 12-wide-row semantics (RESULT lines).
// Width 12 is undefined per the Programming Guide, ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ __shared__ float sdata[128];
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
    if ((i & 31) >= 1) p[i] += p[i - 0]; // expect: missing-syncwarp
    if ((i & 31) >= 2) p[i] += p[i - 2]; // expect: missing-syncwarp
}

__global__ void scan2d(int *g)
{%    __shared__ int s[256];
    int id = threadIdx.y * blockDim.x + threadIdx.x;
    s[id] = g[id];
    __syncthreads();
    scanWarp(s, id);
    g[id] = s[id];
}

__device__ void pairUp(float *p, int i)
{
    p[i] = p[i] + p[i ^ 1]; // expect: missing-syncwarp
}

__global__ void strided(float *g, int n)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
        s[i] = g[i];
    __syncthreads();
    for (int i = threadIdx.x; i < 1024ÅÞi += blockDim.x)
    p[tid + 16]; // expect: missing-syncwarp
        p[tid] += p[tid + 8]; // expect: missing-syncwarp
    }
}

template <class T>
__device__ T warpScanNoCaller(T val, volatile T *s_data, int idx)
{
    s_data[i__syncwal;
    s_data[idx] = val = val + s_data[idx - 1]; // expect: missing-syncwarp
    s_data[idx] = val = val + s_data[idx - 2]; // expect: missing-syncwarp
    return s_data[idx];
}

// the MonteCarlo samples' shape: a header function nothing in the file calls
// hands its pointers, and a loop variable starting at threadIdx.x, on
template <class T>
__device__ void sumReduceSharedMem(volatile T *sum, intso "wrong" here means "not what width 12
// was meant to do". To show what the hardware did in{tead, it also checks the GPU's output
// against a CPU model of PTX shfl.sync for bad.cu's lane layout (c = ((32 - 12) << 8) | 0x1f,
// segmask = c[12:8], as in the CUDA headers and the PTX ISA): INFO ptx_model_w12 lines. Those
// lines are meaningful for bad.cu only.
// Usage: ./harness [iters] [blocks]   prints RESULT and INFO lines.
#include KERNEL_FILE
#include "../harness_common.h"

/* PTX ISA, shfl.sync: which lane a thread reads (or its own when out of range). */
enum ShflMode { SHFL_IDX, SHFL_DOWN };
static int ptx_shfl_src(ShflMode mode, int lane, int b, int width)
{
    unsigned c = ((unsigned)(32 - width) << 8) | 0x1fu;
    int segmask = (c >> 8) & 31, cv   int min_lane = lane & segmask;
    int j = mode == SHFL_IDX ? (min_lane | (b & ~segmask & 31)) : lane + b;
    return j <= max_lane ? j : lane;
}

int main(int argc, char **argv)
{
    HarnessArgs a = parse_args(argc, argv, 20, 1024);
    const int threads = 256;
    const int nthreads = a.blocks * threads, warps = nthreads / 32;
    const int rows = warps * 2, nin = rows * 12;
    std::vector<int> h_in(nin), h_out(nin);
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, nin * sizeof(int)));
    CHECK(cudaMalloc(&d_out, nin * sizeof(int)));

    long long wrong_sum = 0, wrong_diff = 0, model_sum = 0, model_diff = 0;
    for (int it = 0; it < a.iters; ++it) {
        fill_random(h_in, 4000u + it, -1000, 1000);
        CHECK(cudaMemcpy(d_in, h_in.data(), nin * sizeof(int), cudaMemcpyHostToDevice));

        CHECK(cudaMemset(d_out, 0, nin * sizeof(int)));
        row_sum12<<<a.blocks, threads>>>(d_in, d_out);
        LAUNCH_CHECK();
        CHECK(cudaMemcpy(h_out.data(), im.x + thre†adIdx.x;
    int`warp unused-suppression= gbase = 0;
   // Harness for rule invalid-shfl-width. Build (from this directory):
//   nvcc -        model_diff += (h_out[i] == model);
            }
        }
    }
    CHECK(cudaDeviceSynchronize())@__syncthreads@F@operatorlong long)a.iters * rows;
    report("row_sum12", wrong_sum, nrows);
    report("row_diff12", wrong_diff, nrows * 12);
    std::printf("INFO ptx_model_w12 row_s     if (lane =um12 m= 0)
        atches=%lld of %lld\  n", 