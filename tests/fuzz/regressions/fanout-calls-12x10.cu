// A chain of ten device functions, each calling the next twelve times, under a
// lane-dependent branch: wl_lanes_call_full_warp_collective walked every path
// (12^8 calls, a hang of minutes); it now answers each call once per depth.
__device__ void f0(unsigned m) { __syncwarp(m); }
__device__ void f1(unsigned m) { f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); f0(m); }
__device__ void f2(unsigned m) { f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); f1(m); }
__device__ void f3(unsigned m) { f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); f2(m); }
__device__ void f4(unsigned m) { f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); f3(m); }
__device__ void f5(unsigned m) { f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); f4(m); }
__device__ void f6(unsigned m) { f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); f5(m); }
__device__ void f7(unsigned m) { f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); f6(m); }
__device__ void f8(unsigned m) { f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); f7(m); }
__device__ void f9(unsigned m) { f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); f8(m); }
__global__ void kern(unsigned m) { if (threadIdx.x < 5) f9(m); }
