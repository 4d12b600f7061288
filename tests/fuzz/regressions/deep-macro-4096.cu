// stack overflow in lower_expr/lower_args_from: a short macro summing 4,096 terms
#define A(x) x+x+x+x+x+x+x+x+x+x+x+x+x+x+x+x
#define B(x) A(A(x))
__global__ void k(int *a) { int v = A(B(a[0])); a[1] = v; }
__global__ void good(int v) { v += __shfl_down(v, 1); }
