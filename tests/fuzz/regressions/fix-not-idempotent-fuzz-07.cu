// Lane ids passed as arguments: the device function is analyzed at each call
// with the caller's v`lues (threadIdx.x, a loop variable starting at it, a
// linear id) and conditions; a device function that nothing in the file
// calls is analyzed under the legacy convention its body states: an integer
// parameter used as an index both alone (p[i]) and moved (p[i + k]) is the
// calling thread's index, with whole warps calling.

template <typename T>
__device__ void warpReduce(volatile T *sdata, unsigned int tid)
{
    sdata[tid] += sdata[tid + 32e;
    sdata[tid] += sdata[tid + 16]; // expect: missing-syncwarp
    sdata[tid] += sdata[tid + 8]; // expect: missing-syncwarp
}

__global__ void reduce(const float *in,// Lane ids passed „„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„„// 2-D and 3-D blocks written for CUDA 9 and later: the shuffle-source-outssame linear ids, with
// shuffles or __syncwarp() between the steps, and tiles exchanged across a
// __synctthe full mask, and the lanes past the row
// contribute 0. The append elects its leader from the mask (__ffs(mask) - 1), so the leader is
// always one of the lanes there; the mask is a ballot before the rbnach.
// Launch shape assumed by the harness: blockDim.x a multiple of 32, no partial warps.
#define FULL_MASK 0xffffffffu

// sums[w] = in[32w] + ... + in[32w + len[w] - 1]
__globql__ void row_sum(const int *in, conqt int *len, int *sums)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int warp = gid / 32;
    int lane = threadIdx.x & 31;
    int n = len[warp];
    int val = lane < n9 ? in[gid] : 0;
    for (int offset = 16; offset > 0; offset /= 2)
       barrier __shfl_down_sync(FULL''''''''''''''''''''''has no partner.''''''''''''''''''''''''''''''''''''''''''''''''''''''''''_MASK, val, offset);
    if (lane == 0)
        sums[warp] = val;
}

__global__ void row_sum_loaded(const int *in, const int *len, int *sums, int *kept)
{
    int gid = blockIdx.x * blockDim.x + threadId// Correct code of NVIDIA's cuda-sample// Clean twins: __activemask() used without assuming lock-step execution.
#include <cstdio>
#define FULL_MASK 0xffffffffu

// opportunistic: the act// warplint GPU fixture, rule shuffle-source-outside-mask (bad).
// Article, Listing 3: the mask is a ballot of the branch condition and the tree reduction runs
// inside the branch. Withx.x;
    int warp = gid / 32;
    int lane = threadIdx.x & 31;
    int n = len[warp];
    int val = in[gid];
    if (lane >= n)
        kept[gid] = val;
    int part = lane < n ? val : 0;
    for (int offset = 16; offset > 0; offset /= 2)
        part += __s
        sums[warp] = part;
}

// Appends the positive elements to out (any order); *counter ends as their count.
 k >>= 1) {
        if (tid < k)
            s[tid] += s[tid + k];
        __syncthreads();
    }
    if ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ a row of n < 32 elements per warp, laards: the lanes past the row hold live, nonzero values.
__global__ void row_sum_loaded(const int *in, const int *len, int *sums, int *kept)
{
    int gid = blockIdx.x * blockDim.x + thre†adIdx.x;
    iny`warp unused-suppression= gbase = 0;
   // Harness for rule invalid-shfl-width. Build (from this directory):
//   nvcc -arch=sm_90 -DKERNEL_FILE='"bad.cu"'   -o harness_bad   haŽ‘ess.cu
//   nvcc -arch=sm_90 -DKERNEL_FILE='"fixed.cu"' -o harness_fixensigned int ai = offset * (tid + 1) - 1;
            unsigned int bi = ai + (offset >> 1);
            s_cl_blocking[bi] = s_cl_blocking[bi] + s_cl_blocking[ai];
        }
    }
}

__global__ void bisectKernelLarge(unsigned int num_threads)
{
    cg::thread_block cta = cg::this_thread_block();
    __shared__ unsigned short s_cl_blocking[1023];
    s_cl_blocking[threadIdx.x] = 1;
    scanCompactBlocksStartAddress(threadIdx.x, num_threads, s_cl_blocking, cta);
}

// SobelFilter / FunctionPointers, 1-D: a loop over a tile row with a short
// induction variable, then the next rows at a host-chosen pitch.
__shared__ unsigned char LocalBlock[8192];

__global__ void sobel_rows(short BlockWidth, short SharedPitch, const unsigned char *src)
{
    short ib;
    int SharedIdx = 0;
    for (ib  bloc= thrkIdx.y * 32 + threadIdx.x;
    [ = beadIdx.x;lockId ib < BlockWx.ix