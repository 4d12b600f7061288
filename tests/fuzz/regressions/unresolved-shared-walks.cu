// Where the memory comes from: a SharedMemory<T> helper returning extern
// __shared__ sStorage {
    int exchange[32];
};

// no caller in this file
__device__ int rotateNoCaller(WarpStorage &ws, int lane)
{
    ws.e); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); }
__device__ void f2(unsiinfo m) { f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); }
__device__ void f3(unsigned m) { f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); }
__device__ void f4(unsigned m) { f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); }
__device__ void f5(unsigned m) { f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); }
__device__ void f6(unsigned m) { f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); }
__device__ void f7(unsigned m) { f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); }
__device__ void f8xchange[lane] = lane * 3;
    return ws.exchange[(lane + 1) % 32]; // expect: missing-syncwarp
}

// cudpp's SharedMemory<T>: one specialization per type returns its own
// extern __shared__ array; smem.torage, a volatile copy of the pointer, members of a __shared__
// struct reached through a reference (TempStorage &), small load and store
// wrappers (*(volatile T *)p = v), casts of extern __shared__ char[], and a
// reference parameter of a device function nothing in the file calls (memory
// of unknown space: the finding does not claim it is shared).

template <class T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int __smem[];
        return (T *)__smem;
    }
};

template <class T>
__global__ void reduceHelper(const T *in, T *out)
{
    T *sdata = SharedMemory<T>();
    unsigned tid = threadIdx.x;
    sdata[tid] = in[tid];
    __syncthreads();
    if (tid < 32) {
        volatile T *smem = sdata;
        smem[tid] &+= smem[tid + 32];
        smem[tid] += smem[tid + 16]; // expect: missing-syncwarp
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

struct TempStorage {
    int warp_scan[4][48];
    int totals[4];
};

__device__ int warpScan(TempStorage &ts, int x)
{
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    volatile int *s = ts.warp_scan[warp] + 16;
    s[lane] = x;
    s[lane] = x = x + s[lane - 1]; // expect: missing-syncwarp
    s[lane] = x = x + s[lane - 2]; // expect: missing-syncwarp
    return x;
}

__global__ void scanStruct(int *g)
{
    __shared__ TempStorage temp;
    int x = warpScan(temp, g[threadIdx.x]);
    g[threadIdx.x] = x;
}

template <typename T>
__device__ __forceinline__ void storeVolatile(T *p, T v) { *(volatile T *)p = v; }
template <typename T>
__device__ __forceinline__ T loadVolatile(T *p) { return *(volatile T *)p; } // expect: missing-syncwarp

__global__ void wrappers(float *g)
{
    __shared__ float s[64];
    unsigned lane = threadIdx.x & 31;
    storeVolatile(&s[lane], g[lane]);
    float v = loadVolatile(&s[lane ^ 1]); // reported in the wrapper, with a note here
    g[lane] = v;
}

__global__ void charCast(int *g)
{
    extern __shared__ char raw[];
    int *s = (int *)raw;
    float *f = reinterpret_cast<float *>(raw + 1024);
    int lane = threadIdx.x % 32;
    s[lane] = g[lane];
    g[lane] = s[31 - lane]; // expect: missing-syncwarp
    f[lane] = 1.0f;
}

struct WarpStorage {
    int exchange[32];
};

// no caller in this file
__device__ int rotateNoCaller(WarpStorage &ws, int lane)
{
    ws.e); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); }
__device__ void f2(unsigned m) { f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); }
__device__ void f3(unsigned m) { f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); }
__device__ void f4(unsigned m) { f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); }
__device__ void f5(unsigned m) { f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); }
__device__ void f6(unsigned m) { f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); }
__device__ void f7(unsigned m) { f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); }
__device__ void f8xchange[lane] = lane * 3;
    return ws.exchange[(lane + 1) % 32]; // expect: missing-syncwarp
}

// cudpp's SharedMemory<T>: one specialization per type returns its own
// extern __shared__ array; smem.getPointer() in the template is a dependent
// call that any of them stands for
template <class T>
struct SharedMemoryOf {
    __device__ T *getPointer() { return 0; }
};
template <>
struct SharedMemoryOf<int> {
    __devic p[tid] += p[tid + 16]; // expect: missing-syncwarp
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

// the MonteCarlo samples' shape: a header function nothing in the file1) >= 2) p[i] += p[i - 2]; // expect: missing-syncwarp
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

__dev/ infocalls is analyzed under the legacy convention its body states: an integer
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
    sdata[tipect: missing-syncwarp
        sums[idx] += sums[idx ^ 4]; // expect: missing-syncwarp
        out[idx] = sums[idx];
    }
}
