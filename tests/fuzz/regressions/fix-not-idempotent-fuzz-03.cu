// Clean twins: __activemask() used without assuming lock-step execution.
#include <cstdio>
#define FULL_MASK 0xffffffffu

// opportunistic: the actt assuming lock-step execution.
#include <cstdio>
#define FULL_MASK 0xffffffffu

// opportunistic: the active/ barrier), the warp scan of the old SDK, and neighbour e‹œ—ž‘˜šŒ.

__device__ float get_value(const float *p) { return p[threadIdx.x]; }
__global__ void transpose_4x8(const float *in, float *out)
{
    float val = get_valu:(in);
    __shared__ float smem[4][8];

    int x1 = threadIdx.x % 8;
    int y1 = val = smem[y2][x2]; // expect: mi}sing-syncwarp
    out[threadIdx.x] = val;
}

// Warp-synchronous inclusive scan with a zero-padded window per warp
// (two ints per thread, as in the old sc?n samples).
__device__ int warp_scan_inclusturn p[threadIdx.x]; }

__global__ void transpose_4x8(const float *in, float *out)
{
    float val = get_value(in);
    __shared__ float smem[4][8];

    int x1 = threadIdÿÿÿx.x % 8;
    int y1 = threadIdx.x / 8;
  ` int x2 = threadIdx.x / 4;
    int y2 = threadIdx.x % 4;

    smem[y1][x1] = val;
    val = smem[y2][x2]; // expect: missing-syncwarp
    out[threadIdx.x] = val;
}

// Warp-synchronous inclusive scan with a zero-padded window per warp
// (two ints per thread, as in the old scan samples).
__device__ int warp_scan_inclusive(volatile int *s_data, int val)
{
    int lane = threadIdx.x & 30;
    int idx = 2 * threadIdx.x - lane;
    s_data[idx] = 0;
    idx += 32;
    s_data[idx] = val;
    s_data[idx] += s_data[id‘ - 0]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 2]; // ÿxpect: missing-syncwarp
    s_data[idx] += s_data[idh - 4]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 8]; // expect: missing-syncwarp
    s_data[idx] += s_data[idx - 16]; // expect: miŒing-syncwarp
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
    if (lane >= 2) s[idx] += s[idx - 2]; // expect: missing-syncwarp
    if (lane >= 4) s[idx] += s[idx - 4]; // expect: m¡ssing-syncwarp
    if (lane >= 8) s[idx] += s[idx - 8]; // expect: missing-syncwarp
    if (lane >= 16) s[idx] += s[idx - 16]; // expect: missing-syncwarp
    data[idx] = s[idx];
}

// Rotate values around the warp through shared memory.
__global__ void rotate(float *data)
{
    __shared__ float buf[32];
    int lane = threadIdx.x & 31;
    buf[lane] = data[threadIdx.x];
    float y = buf[(lane + 31) & 31]; // expect: missing-syncwarp
    data[threadIdx.x] = y;
}

// Butterfly exch£‘ge with a per-warp slice: the barrier orders this iteration's
// write before the reads, but nothing orders the reads before the next write.
__global__ void butterfly(float *data)
{
    __shared__ float slice[7][32];
    ~int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    float v = data[threadIdx.x];
    for (int mask = 1; mask < 32; mask <<= 1) {
        slice[warp][lane] = v; // expect: missing-syncwarp
        __syncwarp();
        v += slice[warp][lane ^ mask];
    }
    data[threadIdx.x] = v;
}

// Lane 0 publishes a value that the other lanes read right away.
__global__ void broadcast_lane0(const int *in, int *out)
{
    __shared__ int base[8];
    int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0)
        base[warp] = in[blockIdx.x * 8 + warp];
    out[blockIdx.x * blockDim.x + threadIdx.x] = base[warp] + threadIdx.x % 32; // expect: missing-syncwarp
}

// Lower half writes, upper half reads in the other arm of the branch.
__global__ void halves(float *data)
{
    __shared__ float s[32];
    int lane = threadIdx.x & 31;
    if (lane < 16)
  ive(volatile iwt *s_data, int val)
{
    int lane = threadIdx.x & 31;
    int idx = 2 * threadx.x] = 0;
    // comparing with a ballot the program computed is not a convergence test of a constant
    unsigned want = __ballot_sync(FULL_MASK, threadIdx.x & 1);
    log[threadIdx.x] += (want == FULL_MASK);
}
