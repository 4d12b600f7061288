/* warplint prelude: stand-in for <cooperative_groups.h> (the parts kernels use
 * with warps). Every collective of a tile is synchronizing and carries its own
 * mask, so code written with it is CUDA 9+ correct by construction. */
#pragma once
#pragma clang system_header

namespace cooperative_groups {
class thread_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
};
class thread_block : public thread_group {
public:
  __device__ dim3 group_index() const;
  __device__ dim3 thread_index() const;
  __device__ dim3 group_dim() const;
  __device__ dim3 dim_threads() const;
};
class grid_group : public thread_group {
public:
  __device__ bool is_valid() const;
};
class coalesced_group : public thread_group {
public:
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <typename T> __device__ T shfl(T var, unsigned int src) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned int ballot(int pred) const;
  template <typename T> __device__ unsigned int match_any(T v) const;
  template <typename T> __device__ unsigned int match_all(T v, int &pred) const;
};
template <unsigned int Size, typename Parent = void> class thread_block_tile : public thread_group {
public:
  __device__ unsigned long long meta_group_rank() const;
  __device__ unsigned long long meta_group_size() const;
  template <typename T> __device__ T shfl(T var, int src) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_down(T var, unsigned int delta) const;
  template <typename T> __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int pred) const;
  __device__ int all(int pred) const;
  __device__ unsigned int ballot(int pred) const;
  template <typename T> __device__ unsigned int match_any(T v) const;
  template <typename T> __device__ unsigned int match_all(T v, int &pred) const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
__device__ coalesced_group coalesced_threads();
__device__ thread_group tiled_partition(const thread_group &parent, unsigned int size);
template <unsigned int Size, typename Parent> __device__ thread_block_tile<Size> tiled_partition(const Parent &parent);
template <typename Group> __device__ void sync(const Group &g);
template <typename T> struct plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <typename T> struct less { __device__ T operator()(T a, T b) const { return a < b ? a : b; } };
template <typename T> struct greater { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
template <typename T> struct bit_and { __device__ T operator()(T a, T b) const { return a & b; } };
template <typename T> struct bit_or { __device__ T operator()(T a, T b) const { return a | b; } };
template <typename T> struct bit_xor { __device__ T operator()(T a, T b) const { return a ^ b; } };
template <typename Group, typename T, typename Op> __device__ T reduce(const Group &g, T value, Op op);
template <typename Group, typename T, typename Op> __device__ T inclusive_scan(const Group &g, T value, Op op);
template <typename Group, typename T, typename Op> __device__ T exclusive_scan(const Group &g, T value, Op op);
} // namespace cooperative_groups
