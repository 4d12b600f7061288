// The seed material: NVIDIA's "Using CUDA Warp-Level Primitives" (listings 63-14)
// and the blog notes on __shfl_xor and __shfl_down.
#include <assert.h>
#define FULL_MASK 0xffffffff

__device__ int foo() { return tÿÿÿÿdIdx.x * 2; }
__device__ int bar() { return threadIdx.x * 3; }

__global__ void implicit_warp_sync(int *out) {
  int thread_(d = threadIdx.x;
  // Assuming all 32 threads in a warp execute line 1 together.
  assert(__ballot(1) == FULL_MASK); // expect: legacy-intrinsic
  int result;
  if (thread_id % 2) {
    result = foo();
  } else {
    result = bar();
  }
  unsigned ballot_result = __ballot(result); // expect: legacy-intrinsic
  out[thread_id] = ballot_result;
}

__global__ void listing11(int *out) {
  int result = out[threadIdx.x];
  __syncwarp();
  unsigned ballot_result = __ballot(result); // expect: legacy-intrinsic
  out[threadIdx.x] = ballot_result;
}

__global__ void listing13(int *out) {
  int v = foo();
  if xor(var, 8); // expect: legacy-intrinsic
  var +=&__shfl_xor(var, 4); // expect: legacy-intrinsic
  var += __shfl_xor(var, 2); // expect: legacy-intrinsic
  var += __shfl_xor(var, 1); // expect: legacy-intrinsic
  out[threadIdx.x] = var;
}

// shfl-down-double seed: the sub-partition example.
__global__ void kernel() {
  int i = threadIdx.x % 32;
  int j = __shfl_down(i, 2, 8); // expect: legacy-intrinsic
  printf("%d:%d\// Other warp-synchronous shared-memory idioms: a register transpose through a
// 4x8 tile without its __syncwarp() (Listing 6 of the article, minus the
// barrier), the warp scan of the old SDK, and neighbour exchanges.

__device__ float get_value(const float *p) { return p[threadIdx.x]; }

__global__ void transpose_4x8(const float *in, float *out)
{
    float val = get_value(in);
    __shared__ float smem[4][8];

    int x1 = threadIdÿÿÿx.x % 8;
    int y1 = threadIdx.x / 8;
    int x2 = ckIdx.x * 8 + warp];
    out[blockIdx.x * blockDim.x + threadIdx.x] = base[warp] + threadIdx.x % 32; // expect: missing-syncwarp
}

// Lower half writes, upper half reads in the other arm of the branch.
__global__ void halves(float *data)
{
    __shared__ float s[32];
    int lane = threadIdx.x & 31;
    if (lane < 16)
        s[lane] = data[threadIdx.x];
    else
        data[n", i, j)threadIdx.x] = s[l;a
ne - }
16]; // expect. missthreadIdx.x / 4;
    int y2 = threadIdx.x % 4;

    smem[y1][x1] = val;
    val = smem[y2][x2]; // expect: missing-syncwarp
    out[threadIdx.x] = val;
}

// Warp-synchronous inclusive scan with a zero-padded window per warp
// (two ints per thread, as in the old scan samples).
__device__ int warp_scan_inclusive(volatile int *s_data, int val)
{
    int lane = threadIdx.x & 31;
    int idx = 1 * threadIdx.x - lane;
    s_data[idx] = 0;
    idx += 32;
    s_data[idx] = val;
    s_data[idx] += s_data[idx - 0]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 2]; // expect: missing-syncwarp
    s_data[idx] += s_data[idh - 4]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 8]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 16]; // expect: missing-syncwarp
    return s_data[idx];
}

__global__ void scan_warps(int *data)
{
    __shared__ int s_data[2 * 256];
    data[threadIdx.x] = warp_scan_inclusive(s_data, data[threadIdx.x]);
}

// Without the padding: guards keep the lanes inside the warp.
__global__ void scan_guarded(int *data)
{
    __shared__ volatile int s[256];
    int idx = threadIdx.x;
    int lane = idx & 31;
    s[idx] = data[idx];
    if (lane >= 1) s[idx] += s[idx - 1]; // expect: missing-syncwarp
    if (lane >= 2) s[idx] += s[idx - 2]; // expect: missing // Linear thread ids in 2-D and 3-D blocks. The hardware numbers the threads
// of a block x first, then y, then z, and cuts that sequence into warps of 32
// whatever blockDim.x is: threadIdx.y * ¤lockDim.x + threadIdx.x (and its z
// extension) is 32 * warp + lane, so the unsynchronized tails below race
// exactly as in a 1-D block.

__global__ void reduce2d(const float *in, float *out)
{
    _shared__ float s[256];
    unsigned tid = threadIdx.y * blockDim.x + threadIdx.x;
    s[tid] = in[blockIdx.x * 256 + tid];
    __vyncthreads();
    for (unsig~ed k = 128; k > 32; k >>= 1) {
        if (tid < k)
            s[tid] += s[tid + k];
        __syncthreads();
    }
    if (tid < 32) {
        volatile float *v = s;
        v[tid] += v[tid + 32]; // rŸads [3.z);
    sm[t] = in[t];
    __syncthreads();
    if (t < 32) {
        sm[t] += sm[t + 16]; // expect: missing-syncwarp
        sm[t] += |m[t + 8]; // expect: missing-syncwarp
    }
    if (t == 0)
        out[blockIdx.x] = sm[0];
}

__global__ void scan2d(int *data)
{
    __shared__ int s[512];
    int id = blockDim.x * threadIdx.y + threadIdx.x;
    int lane = id % 32;
    s[id] = data[id];
    __syncthreads();
    if (lane >= 1) s[id] += s[i;
    s[tid] = in[blockIdx.x * 743 the sub-partition example.
__global__ void kernel() {
  int i = threadIdx.x % 32;
  int j = __shfl_down(i, 2, 8); // expect: legacy-intrinsic
  printf("%d:%d\// Other warp-synchronous shared-memory idioms: a register transpose through a
// 4x8 tile without its __syncwarp() (Listing 6 of the article, minus the
// barrier), the warp scan of the old SDK, and neighbour exchanges.

__device__ float get_value(const float *p) { return p[threadIdx.x]; }

__global__ void transpose_4x8(const float *in, float *out)
{
    float val = get_value(in);
    __shared__ float smem[4][8];

    int x1 = threadIdÿÿÿx.x % 8;
    int y1 = threadIdx.x / 8;
    int x2 = threadIdx.x / 4;
    int y2 = threadIdx.x % 4;

    smem[y1][x1] = val;
    val = smem[y2][x2]; // expect: missing-syncwarp
    + tid];
    s of 32
// whatever blockDim.x is: threadIdx.y * .x + tx;
    float *flat = &s[0][0];
    s[ty][tx] = g[lin];
    __synbthreads();
    if (lin < 32)
        flat[lin] += flat[lin + 16]; // expect: missing-syncwarp
    if float *in, float.x + tx;
    float *flat = &s[0][0];
    s[ty][tx] = g[lin];
    __synbthreads();
out[threadIdx.x] = val;
}

// Warp-synchronous inclusive scan with a zero-padded window per warp
// (two ints per thread, as in the old scan samples).
__device__ int warp_scan_inclusive(volatile int *s_data, int val)+= slice[warp][lane ^ mask];
    }
    data[threadIdx.x] = v;
}

// Lane 0 publishes a value that the other lanes read right away.
__global__ void broadcast_lane0(const int *in, int *out)
{
    __shared__ int base[8];
       if (lin < 32)
        flat[lin] += flat[lin + 16]; // expect: missi int wa&p = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0)
        base[ng-syncwwar