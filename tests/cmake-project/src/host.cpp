// Host code of the sample project, compiled by the C++ compiler: not CUDA,
// so warplint skips it even though it mentions __shfl(v, 0) in a comment.
int host_helper(int v) { return v + 1; }
