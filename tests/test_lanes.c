/* test_lanes.c - unit tests of the lane/divergence analysis (lanes.h) and of
 * constant folding (consteval.h), on small CUDA snippets parsed in memory.
 * Expressions are picked by their exact source text. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "consteval.h"
#include "lanes.h"
#include "parse.h"
#include "support/snippet.h"

Suite *wl_suite_lanes(void);

typedef struct fixture {
  wl_tu *tu;
  wl_lanes *l;
} fixture;

static fixture build(const char *src, bool whole_warps, bool rows_are_warps) {
  fixture fx = {wl_snippet_parse(src, true), NULL};
  wl_lanes_opts lo;
  wl_lanes_opts_init(&lo);
  lo.whole_warps = whole_warps;
  lo.rows_are_warps = rows_are_warps;
  fx.l = wl_lanes_new(fx.tu, &lo);
  return fx;
}

static fixture analyze(const char *src) { return build(src, true, false); }

static void done(fixture *fx) {
  wl_lanes_free(fx->l);
  wl_tu_free(fx->tu);
}

typedef struct find_ctx {
  const wl_tu *tu;
  const char *text;
  int nth;
  const wl_expr *found;
} find_ctx;

static bool text_is(const wl_tu *tu, wl_range r, const char *text) {
  size_t n = strlen(text);
  return r.begin.file && wl_tu_in_main(tu, r.begin) && r.end.offset >= r.begin.offset &&
         r.end.offset - r.begin.offset == n && r.end.offset <= tu->source_len &&
         memcmp(tu->source + r.begin.offset, text, n) == 0;
}

static bool find_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  find_ctx *fc = ud;
  if (fc->found)
    return false;
  if (text_is(fc->tu, e->range, fc->text) && fc->nth-- == 0)
    fc->found = e;
  return !fc->found;
}

/* The nth expression (outermost first, in source order) spelled exactly `text`. */
static const wl_expr *nth(const fixture *fx, const char *text, int n) {
  find_ctx fc = {fx->tu, text, n, NULL};
  wl_visitor v = {NULL, find_expr, &fc, true};
  for (unsigned i = 0; i < fx->tu->nfuncs && !fc.found; i++)
    if (!(fx->tu->funcs[i]->flags & WL_F_LAMBDA))
      wl_walk_stmt(fx->tu->funcs[i]->body, &v);
  ck_assert_msg(fc.found != NULL, "no expression '%s' (#%d)", text, n);
  return fc.found;
}

static const wl_expr *E(const fixture *fx, const char *text) { return nth(fx, text, 0); }

static bool dep(const fixture *fx, const char *text) {
  return wl_lanes_expr_dependent(fx->l, E(fx, text));
}

static const wl_func *func(const fixture *fx, const char *name) {
  for (unsigned i = 0; i < fx->tu->nfuncs; i++)
    if (strcmp(fx->tu->funcs[i]->name, name) == 0)
      return fx->tu->funcs[i];
  ck_abort_msg("no function %s", name);
  return NULL;
}

static wl_lane_reach reach(const fixture *fx, const char *text) {
  wl_lane_reach r;
  ck_assert_msg(wl_lanes_reach_expr(fx->l, E(fx, text), &r), "'%s' was not analyzed", text);
  return r;
}

static bool partial(const fixture *fx, const char *text) { return reach(fx, text).partial; }

/* ---- values --------------------------------------------------------------- */

START_TEST(test_sources) {
  fixture fx = analyze("__global__ void k(int *in, int n) {\n"
                       "  int a = threadIdx.x;\n"
                       "  int b = threadIdx.y;\n"
                       "  int c = threadIdx.x / 32;\n"
                       "  int d = threadIdx.x >> 5;\n"
                       "  int e = threadIdx.x & 31;\n"
                       "  int f = threadIdx.x % warpSize;\n"
                       "  int g = blockIdx.x * blockDim.x;\n"
                       "  int h = n * 4 + 7;\n"
                       "  int i = (blockIdx.x * blockDim.x + threadIdx.x) / 32;\n"
                       "  int j = threadIdx.x / warpSize;\n"
                       "  int m = __lanemask_lt();\n"
                       "  int o = (threadIdx.x + 1) / 32;\n"
                       "  int q = threadIdx.x & ~31;\n"
                       "  int r = gridDim.x + blockDim.y;\n"
                       "  in[0] = a + b + c + d + e + f + g + h + i + j + m + o + q + r;\n"
                       "}\n");
  ck_assert(dep(&fx, "threadIdx.x"));
  ck_assert(dep(&fx, "threadIdx.y"));
  ck_assert(!dep(&fx, "threadIdx.x / 32"));
  ck_assert(!dep(&fx, "threadIdx.x >> 5"));
  ck_assert(dep(&fx, "threadIdx.x & 31"));
  ck_assert(dep(&fx, "threadIdx.x % warpSize"));
  ck_assert(!dep(&fx, "blockIdx.x * blockDim.x"));
  ck_assert(!dep(&fx, "n * 4 + 7"));
  ck_assert(!dep(&fx, "(blockIdx.x * blockDim.x + threadIdx.x) / 32"));
  ck_assert(!dep(&fx, "threadIdx.x / warpSize"));
  ck_assert(dep(&fx, "__lanemask_lt()"));
  ck_assert(dep(&fx, "(threadIdx.x + 1) / 32")); /* not aligned to warps */
  ck_assert(!dep(&fx, "threadIdx.x & ~31"));
  ck_assert(!dep(&fx, "gridDim.x + blockDim.y"));
  /* variables carry their values */
  const wl_stmt *body = func(&fx, "k")->body;
  ck_assert(wl_lanes_var_dependent(fx.l, body->kids[0]->vars[0]));  /* a */
  ck_assert(!wl_lanes_var_dependent(fx.l, body->kids[2]->vars[0])); /* c */
  ck_assert(wl_lanes_var_dependent(fx.l, body->kids[4]->vars[0]));  /* e */
  ck_assert(!wl_lanes_var_dependent(fx.l, body->kids[8]->vars[0])); /* i */
  done(&fx);
}
END_TEST

START_TEST(test_thread_ids) {
  fixture fx = analyze("__device__ int Tid() { return threadIdx.x; }\n"
                       "__device__ int warp_of(int t) { return t / 32; }\n"
                       "__global__ void k(int *in) {\n"
                       "  int t2 = threadIdx.y * blockDim.x + threadIdx.x;\n"
                       "  int t3 = threadIdx.z * blockDim.x * blockDim.y + t2;\n"
                       "  int u;\n"
                       "  u = (int)threadIdx.x;\n"
                       "  in[0] = (t2 / 32) + (t2 % 32) + (threadIdx.y * blockDim.x);\n"
                       "  in[1] = (t3 / 32) + (t3 / 16) + (Tid() / 32) + (u >> 5) + (u + 1);\n"
                       "  in[2] = warp_of(threadIdx.x) + warp_of(t3);\n"
                       "}\n");
  ck_assert(!dep(&fx, "t2 / 32"));
  ck_assert(dep(&fx, "t2 % 32"));
  ck_assert(dep(&fx, "threadIdx.y * blockDim.x"));
  ck_assert(!dep(&fx, "t3 / 32"));
  ck_assert(dep(&fx, "t3 / 16"));
  ck_assert(!dep(&fx, "Tid() / 32")); /* the shape of a return value flows to the caller */
  ck_assert(!dep(&fx, "u >> 5"));
  ck_assert(dep(&fx, "u + 1"));
  /* every call passes a thread id, so t / 32 is a warp id inside warp_of */
  ck_assert(!dep(&fx, "t / 32"));
  ck_assert(!dep(&fx, "warp_of(threadIdx.x) + warp_of(t3)"));
  done(&fx);
  /* the warp's first thread, written as thread id minus lane id (cudpp's multisplit) */
  fx = analyze("__global__ void k(int *p, unsigned n) {\n"
               "  unsigned index = threadIdx.x + blockIdx.x * blockDim.x;\n"
               "  unsigned laneId = threadIdx.x & 0x1F;\n"
               "  unsigned base = (index - laneId) * 4;\n"
               "  if (base >= n) return;\n"
               "  p[index] = __ballot_sync(0xffffffff, p[index] > 0);\n"
               "  p[0] = index + laneId;\n"
               "}\n");
  ck_assert(!dep(&fx, "(index - laneId) * 4"));
  ck_assert(dep(&fx, "index + laneId"));
  done(&fx);
  /* one warp per row of a (32, n) block: threadIdx.y is the same for the whole warp */
  static const char *rows = "__global__ void k(int *p) {\n"
                            "  int row = blockIdx.x * blockDim.y + threadIdx.y;\n"
                            "  p[row] = 0;\n"
                            "}\n";
  fx = analyze(rows);
  ck_assert(dep(&fx, "blockIdx.x * blockDim.y + threadIdx.y"));
  done(&fx);
  fx = build(rows, true, true);
  ck_assert(!dep(&fx, "blockIdx.x * blockDim.y + threadIdx.y"));
  done(&fx);
}
END_TEST

/* Evidence in a kernel that blockDim.x is 32 makes threadIdx.y warp-uniform
 * there and in what only such kernels call (llm.c's warp-per-row kernels). */
START_TEST(test_rows_evidence) {
  fixture fx = analyze("__device__ int row_of() { return threadIdx.y; }\n"
                       "__global__ void a(int *p) {\n"
                       "  int sidx = threadIdx.x + 32 * threadIdx.y;\n"
                       "  int idx = blockIdx.x * blockDim.y + threadIdx.y;\n"
                       "  p[sidx] = idx + threadIdx.z + row_of();\n"
                       "}\n"
                       "__global__ void b(int *p) {\n"
                       "  int w = threadIdx.y * warpSize;\n"
                       "  p[w] = threadIdx.y + 1;\n"
                       "}\n"
                       "__global__ void c(int *p) {\n"
                       "  int s = threadIdx.x + 16 * threadIdx.y;\n"
                       "  p[s] = threadIdx.y + 2;\n"
                       "}\n"
                       "__global__ void d(int *p) {\n"
                       "  int s = threadIdx.x + 32 * threadIdx.z;\n"
                       "  p[s] = threadIdx.z + 3;\n"
                       "  p[0] = threadIdx.y + 3;\n"
                       "}\n");
  ck_assert(!dep(&fx, "blockIdx.x * blockDim.y + threadIdx.y"));
  ck_assert(!dep(&fx, "idx + threadIdx.z + row_of()"));
  ck_assert(!dep(&fx, "threadIdx.y + 1"));
  ck_assert(dep(&fx, "threadIdx.y + 2")); /* 16 is not a warp */
  ck_assert(!dep(&fx, "threadIdx.z + 3"));
  ck_assert(dep(&fx, "threadIdx.y + 3")); /* a z-row of 32 says nothing of y */
  ck_assert(dep(&fx, "threadIdx.x + 32 * threadIdx.y"));
  done(&fx);
  /* a helper also called without evidence stays lane-dependent */
  fx = analyze("__device__ int row_of() { return threadIdx.y; }\n"
               "__global__ void a(int *p) { p[threadIdx.x + 32 * threadIdx.y] = row_of(); }\n"
               "__global__ void b(int *p) { p[0] = row_of() + 1; }\n");
  ck_assert(dep(&fx, "row_of() + 1"));
  done(&fx);
  /* assert(blockDim.x == 32) */
  fx = analyze("extern \"C\" __device__ void __assert_fail(const char *, const char *, unsigned,\n"
               "                                          const char *);\n"
               "#define assert(e) (static_cast<bool>(e) ? void(0) : \\\n"
               "  __assert_fail(#e, __FILE__, __LINE__, __func__))\n"
               "__global__ void a(int *p, int N) {\n"
               "  constexpr const int WarpSize = 32;\n"
               "  assert(blockDim.x == WarpSize);\n"
               "  int idx = blockIdx.x * blockDim.y + threadIdx.y;\n"
               "  if (idx > N) return;\n"
               "  p[idx] = __shfl_xor_sync(0xffffffff, p[threadIdx.x], 1);\n"
               "}\n");
  ck_assert(!dep(&fx, "blockIdx.x * blockDim.y + threadIdx.y"));
  ck_assert(!partial(&fx, "__shfl_xor_sync(0xffffffff, p[threadIdx.x], 1)"));
  done(&fx);
  /* the launches in the file: every one a whole number of warps wide */
  fx = analyze("__global__ void a(int *p) { p[0] = threadIdx.y + 1; }\n"
               "__global__ void b(int *p) { p[0] = threadIdx.y + 2; }\n"
               "__global__ void c(int *p) { p[0] = threadIdx.y + 3; }\n"
               "__global__ void d(int *p) { p[0] = threadIdx.y + 4; }\n"
               "void h(int *p, int w) {\n"
               "  dim3 rows(32, 16);\n"
               "  a<<<4, rows>>>(p);\n"
               "  a<<<4, dim3(64, 2)>>>(p);\n"
               "  b<<<4, dim3(32, 4)>>>(p);\n"
               "  b<<<4, dim3(16, 8)>>>(p);\n"
               "  c<<<4, dim3(w, 8)>>>(p);\n"
               "  dim3 later(32, 8);\n"
               "  later.x = w;\n"
               "  d<<<4, later>>>(p);\n"
               "}\n");
  ck_assert(!dep(&fx, "threadIdx.y + 1"));
  ck_assert(dep(&fx, "threadIdx.y + 2")); /* one launch has two rows per warp */
  ck_assert(dep(&fx, "threadIdx.y + 3")); /* a width not known */
  ck_assert(dep(&fx, "threadIdx.y + 4")); /* the dim3 is changed after it is declared */
  unsigned bx = 0;
  bool z1 = false;
  ck_assert(!wl_lanes_launch_block_x(fx.l, func(&fx, "a"), &bx, &z1)); /* 32 and 64 differ */
  ck_assert(!wl_lanes_launch_block_x(fx.l, func(&fx, "c"), &bx, &z1));
  done(&fx);
  fx = analyze("__global__ void q(int *p) { p[0] = threadIdx.y; }\n"
               "void h(int *p, int tpb) {\n"
               "  dim3 block(4, tpb / 4);\n"
               "  q<<<4, block>>>(p);\n"
               "  q<<<4, dim3(4, 8), 0>>>(p);\n"
               "}\n");
  ck_assert(wl_lanes_launch_block_x(fx.l, func(&fx, "q"), &bx, &z1));
  ck_assert_uint_eq(bx, 4);
  ck_assert(z1);
  done(&fx);
}
END_TEST

/* A tile's meta_group_rank()/size() and cg::reduce are warp-uniform. */
START_TEST(test_cg_uniform) {
  fixture fx = analyze("#include <cooperative_groups.h>\n"
                       "#include <cooperative_groups/reduce.h>\n"
                       "namespace cg = cooperative_groups;\n"
                       "__global__ void k(float *out, const float *in, int N) {\n"
                       "  cg::thread_block block = cg::this_thread_block();\n"
                       "  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
                       "  int idx = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();\n"
                       "  if (idx >= N) return;\n"
                       "  float v = in[idx * 32 + warp.thread_rank()];\n"
                       "  float s = cg::reduce(warp, v, cg::plus<float>());\n"
                       "  if (s > 0.f) return;\n"
                       "  out[idx] = __shfl_xor_sync(0xffffffff, v, 1);\n"
                       "}\n");
  ck_assert(!dep(&fx, "blockIdx.x * warp.meta_group_size() + warp.meta_group_rank()"));
  ck_assert(dep(&fx, "warp.thread_rank()"));
  ck_assert(!dep(&fx, "cg::reduce(warp, v, cg::plus<float>())"));
  ck_assert(!partial(&fx, "__shfl_xor_sync(0xffffffff, v, 1)"));
  done(&fx);
}
END_TEST

START_TEST(test_comparisons_and_whole_warps) {
  static const char *src = "__global__ void k(int *in) {\n"
                           "  int tid = threadIdx.x;\n"
                           "  int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                           "  int lane = tid % 32;\n"
                           "  in[0] = (tid < 32) + (tid >= 64) + (tid <= 31) + (64 > tid);\n"
                           "  in[1] = (tid < 16) + (tid == 0) + (lane < 16) + (gid < blockDim.x);\n"
                           "  in[2] = (tid < blockDim.x) + (tid / 32 == 3) + ((tid >> 5) & 1);\n"
                           "}\n";
  fixture fx = analyze(src);
  ck_assert(!dep(&fx, "tid < 32"));
  ck_assert(!dep(&fx, "tid >= 64"));
  ck_assert(!dep(&fx, "tid <= 31"));
  ck_assert(!dep(&fx, "64 > tid"));
  ck_assert(dep(&fx, "tid < 16"));
  ck_assert(dep(&fx, "tid == 0"));
  ck_assert(dep(&fx, "lane < 16"));
  ck_assert(!dep(&fx, "gid < blockDim.x"));
  ck_assert(!dep(&fx, "tid < blockDim.x"));
  ck_assert(!dep(&fx, "tid / 32 == 3"));
  ck_assert(!dep(&fx, "(tid >> 5) & 1"));
  done(&fx);
  /* without the whole-warp assumption only threadIdx-free values are uniform */
  fx = build(src, false, false);
  ck_assert(dep(&fx, "tid < 32"));
  ck_assert(dep(&fx, "tid < blockDim.x"));
  ck_assert(dep(&fx, "tid / 32 == 3"));
  ck_assert(dep(&fx, "lane < 16"));
  done(&fx);
}
END_TEST

START_TEST(test_intrinsics_and_memory) {
  fixture fx = analyze("__global__ void k(int *in, int *out) {\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  int v = in[lane];\n"
                       "  int w = in[blockIdx.x];\n"
                       "  unsigned am = __activemask();\n"
                       "  unsigned b = __ballot_sync(0xffffffff, v > 0);\n"
                       "  int s1 = __shfl_down_sync(0xffffffff, v, 1);\n"
                       "  int s2 = __shfl_sync(0xffffffff, v, 0);\n"
                       "  int s3 = __shfl_sync(0xffffffff, v, lane ^ 1);\n"
                       "  int s4 = __shfl_down_sync(0xffffffff, w, 1);\n"
                       "  int r = __reduce_add_sync(0xffffffff, v);\n"
                       "  int old = atomicAdd(out, 1);\n"
                       "  __shared__ int flag;\n"
                       "  if (lane == 0) flag = v;\n"
                       "  __syncwarp();\n"
                       "  int f = flag;\n"
                       "  out[0] = am + b + s1 + s2 + s3 + s4 + r + old + f;\n"
                       "}\n");
  ck_assert(dep(&fx, "in[lane]"));
  ck_assert(!dep(&fx, "in[blockIdx.x]"));
  ck_assert(dep(&fx, "__activemask()"));
  ck_assert(!dep(&fx, "__ballot_sync(0xffffffff, v > 0)"));
  ck_assert(dep(&fx, "__shfl_down_sync(0xffffffff, v, 1)"));
  ck_assert(!dep(&fx, "__shfl_sync(0xffffffff, v, 0)")); /* a broadcast */
  ck_assert(dep(&fx, "__shfl_sync(0xffffffff, v, lane ^ 1)"));
  ck_assert(!dep(&fx, "__shfl_down_sync(0xffffffff, w, 1)"));
  ck_assert(!dep(&fx, "__reduce_add_sync(0xffffffff, v)"));
  ck_assert(dep(&fx, "atomicAdd(out, 1)"));
  /* a __shared__ scalar is one address: reading it is warp-uniform */
  ck_assert(!dep(&fx, "flag"));
  done(&fx);
}
END_TEST

START_TEST(test_control_dependence) {
  fixture fx = analyze("__global__ void k(int *in, int n) {\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  bool active = false;\n"
                       "  if (lane < n) active = true;\n"
                       "  int mode = 0;\n"
                       "  if (blockIdx.x > 2) mode = 1;\n"
                       "  int cnt = 0;\n"
                       "  for (int i = lane; i < n; i += 32) cnt++;\n"
                       "  int steps = 0;\n"
                       "  for (int i = 0; i < 8; ++i) { if (in[lane] > i) break; steps = i; }\n"
                       "  int inner = 0;\n"
                       "  if (lane < 4) { int t = 5; t = 6; inner = t; }\n"
                       "  in[0] = active + mode + cnt + steps + inner;\n"
                       "  in[1] = active;\n"
                       "  in[2] = mode;\n"
                       "  in[3] = cnt;\n"
                       "  in[4] = steps;\n"
                       "  in[5] = inner;\n"
                       "}\n");
  ck_assert(dep(&fx, "in[1] = active"));
  ck_assert(!dep(&fx, "in[2] = mode"));
  ck_assert(dep(&fx, "in[3] = cnt"));
  ck_assert(dep(&fx, "in[4] = steps"));
  ck_assert(dep(&fx, "in[5] = inner"));
  /* t is declared inside the branch: it is assigned only constants there */
  ck_assert(!dep(&fx, "t = 6"));
  done(&fx);
}
END_TEST

START_TEST(test_interprocedural_values) {
  fixture fx = analyze("__device__ int lane_id() { return threadIdx.x & 31; }\n"
                       "__device__ int twice(int x) { return 2 * x; }\n"
                       "__device__ int first(int x) { return 7; }\n"
                       "__device__ void get_lane(int *p) { *p = threadIdx.x % 32; }\n"
                       "__device__ unsigned asm_lane() {\n"
                       "  unsigned r; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r; }\n"
                       "__device__ int is_first_warp(int t) { return t < 32; }\n"
                       "__device__ int helper(int a, int b) { return a + b; }\n"
                       "__global__ void k(int *out, int n) {\n"
                       "  int w = threadIdx.x / 32;\n"
                       "  int l = lane_id();\n"
                       "  int x1 = twice(l);\n"
                       "  int x2 = twice(w);\n"
                       "  int x3 = first(l);\n"
                       "  int g; get_lane(&g);\n"
                       "  int y = asm_lane();\n"
                       "  int z = is_first_warp(threadIdx.x);\n"
                       "  int h = helper(w, n);\n"
                       "  out[0] = x1 + x2 + x3 + y + z + h;\n"
                       "  out[1] = g;\n"
                       "}\n");
  ck_assert(dep(&fx, "lane_id()"));
  ck_assert(dep(&fx, "twice(l)"));
  ck_assert(!dep(&fx, "twice(w)")); /* the summary keeps which parameter flows out */
  ck_assert(!dep(&fx, "first(l)"));
  ck_assert(dep(&fx, "out[1] = g")); /* stored through the pointer by get_lane */
  ck_assert(dep(&fx, "asm_lane()"));
  ck_assert(!dep(&fx, "is_first_warp(threadIdx.x)")); /* threadIdx.x < 32 in the callee */
  ck_assert(!dep(&fx, "helper(w, n)"));
  ck_assert(wl_lanes_param_dependent(fx.l, func(&fx, "twice"), 0));
  ck_assert(!wl_lanes_param_dependent(fx.l, func(&fx, "helper"), 0));
  ck_assert(!wl_lanes_param_dependent(fx.l, func(&fx, "helper"), 1));
  ck_assert(wl_lanes_return_dependent(fx.l, func(&fx, "lane_id")));
  ck_assert(!wl_lanes_return_dependent(fx.l, func(&fx, "first")));
  ck_assert(!wl_lanes_return_dependent(fx.l, func(&fx, "is_first_warp")));
  /* inside twice, x is lane-dependent (one call passes a lane id) */
  ck_assert(dep(&fx, "2 * x"));
  done(&fx);
}
END_TEST

/* ---- reachability ---------------------------------------------------------- */

START_TEST(test_branches) {
  fixture fx = analyze("__global__ void k(int *p, int n) {\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  if (lane < 16) p[1] = 1; else p[2] = 2;\n"
                       "  if (threadIdx.x < 32) p[3] = 3;\n"
                       "  if (blockIdx.x == n) p[4] = 4;\n"
                       "  if (n > 0) { if (lane == 0) p[5] = 5; p[6] = 6; }\n"
                       "  p[7] = lane < 3 ? p[8] : p[9];\n"
                       "  if (p[0] > 0 && p[lane] > 1) p[10] = 10;\n"
                       "  switch (lane) { case 1: p[11] = 11; break; default: break; }\n"
                       "  p[12] = 12;\n"
                       "}\n");
  wl_lane_reach r = reach(&fx, "p[1] = 1");
  ck_assert(r.partial);
  ck_assert_int_eq(r.kind, WL_LR_IF);
  ck_assert_int_eq(r.side, 1);
  ck_assert_ptr_eq(r.cond, E(&fx, "lane < 16"));
  ck_assert_ptr_eq(r.stmt->expr, r.cond);
  r = reach(&fx, "p[2] = 2");
  ck_assert(r.partial);
  ck_assert_int_eq(r.side, 0);
  ck_assert(!partial(&fx, "p[3] = 3"));
  ck_assert(!partial(&fx, "p[4] = 4"));
  ck_assert(partial(&fx, "p[5] = 5"));
  ck_assert(!partial(&fx, "p[6] = 6"));
  r = reach(&fx, "p[8]");
  ck_assert_int_eq(r.kind, WL_LR_SELECT);
  ck_assert_int_eq(r.side, 1);
  ck_assert_int_eq(reach(&fx, "p[9]").side, 0);
  ck_assert(!partial(&fx, "p[lane]"));   /* the lhs of && is uniform */
  ck_assert(partial(&fx, "p[10] = 10")); /* but the && depends on the lane */
  ck_assert_int_eq(reach(&fx, "p[11] = 11").kind, WL_LR_SWITCH);
  ck_assert(!partial(&fx, "p[12] = 12"));
  ck_assert(wl_lanes_whole_warp(fx.l, E(&fx, "p[12] = 12")));
  /* nested restrictions: innermost first */
  wl_tu_free(fx.tu);
  wl_lanes_free(fx.l);
  fx = analyze("__global__ void k(int *p) {\n"
               "  int lane = threadIdx.x & 31;\n"
               "  if (lane < 16) { if (p[lane] > 0) { p[1] = 1; } }\n"
               "}\n");
  wl_lane_reach v[4];
  ck_assert_uint_eq(wl_lanes_restrictions(fx.l, E(&fx, "p[1] = 1"), v, 4), 2);
  ck_assert_ptr_eq(v[0].cond, E(&fx, "p[lane] > 0"));
  ck_assert_ptr_eq(v[1].cond, E(&fx, "lane < 16"));
  done(&fx);
}
END_TEST

/* Testing __activemask() against the full mask proves that all 32 lanes are there. */
START_TEST(test_full_activemask) {
  fixture fx = analyze("__global__ void k(int *p) {\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  if (p[lane] > 0) {\n"
                       "    unsigned m = __activemask();\n"
                       "    p[1] = 1;\n"
                       "    if (m != 0xffffffff) return;\n"
                       "    p[2] = 2;\n"
                       "  }\n"
                       "  p[3] = 3;\n"
                       "  if (__activemask() == 0xffffffffu) p[4] = 4; else p[5] = 5;\n"
                       "  if (__activemask() == 0xffff) p[6] = 6;\n"
                       "}\n");
  ck_assert(partial(&fx, "p[1] = 1"));
  ck_assert(!partial(&fx, "p[2] = 2"));
  ck_assert(partial(&fx, "p[3] = 3"));
  ck_assert(!partial(&fx, "p[4] = 4"));
  ck_assert(partial(&fx, "p[5] = 5"));
  ck_assert(partial(&fx, "p[6] = 6"));
  ck_assert(!dep(&fx, "__activemask() == 0xffffffffu"));
  ck_assert(dep(&fx, "__activemask() == 0xffff"));
  done(&fx);
}
END_TEST

START_TEST(test_reaching_lanes) {
  fixture fx = analyze("__device__ int lane_id() { return threadIdx.x % 32; }\n"
                       "__global__ void k(int *p, int n) {\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  p[0] = 0;\n"
                       "  if (lane < 16) p[1] = 1; else p[2] = 2;\n"
                       "  if (lane_id() % 2 == 0 && lane >= 4) p[3] = 3;\n"
                       "  if (lane < n) p[4] = 4;\n"
                       "  if (lane >= 24) return;\n"
                       "  p[5] = lane > 7 ? p[6] : 6;\n"
                       "  if (n > 3) { if (lane == 0) return; }\n"
                       "  p[7] = 7;\n"
                       "}\n");
  unsigned s;
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[0] = 0"), &s));
  ck_assert_uint_eq(s, 0xffffffffu);
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[1] = 1"), &s));
  ck_assert_uint_eq(s, 0x0000ffffu);
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[2] = 2"), &s));
  ck_assert_uint_eq(s, 0xffff0000u);
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[3] = 3"), &s));
  ck_assert_uint_eq(s, 0x55555550u);
  ck_assert(!wl_lanes_reaching_lanes(fx.l, E(&fx, "p[4] = 4"), &s)); /* depends on n */
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[6]"), &s));
  ck_assert_uint_eq(s, 0x00ffff00u);
  /* lane 0 may stay when n <= 3 */
  ck_assert(wl_lanes_reaching_lanes(fx.l, E(&fx, "p[7] = 7"), &s));
  ck_assert_uint_eq(s, 0x00ffffffu);
  done(&fx);
}
END_TEST

/* Thread-id conditions, warp by warp: threadIdx.x < 40 is all of warp 0 and
 * lanes 0-7 of warp 1; an early return of threads 16..47 leaves lanes 0-15
 * of warp 0 and 16-31 of warp 1; the whole-warp query cannot say. */
START_TEST(test_reaching_lanes_in_warp) {
  fixture fx = analyze("__global__ void k(int *p, int n) {\n"
                       "  if (threadIdx.x < 40) p[0] = 0;\n"
                       "  if (threadIdx.x < n) p[1] = 1;\n"
                       "  int lane = threadIdx.x & 31;\n"
                       "  if (lane < 4 && threadIdx.x >= 64) p[2] = 2;\n"
                       "  if (threadIdx.x >= 16 && threadIdx.x < 48) return;\n"
                       "  p[3] = 3;\n"
                       "}\n");
  unsigned s;
  ck_assert(!wl_lanes_reaching_lanes(fx.l, E(&fx, "p[0] = 0"), &s));
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[0] = 0"), 0, &s));
  ck_assert_uint_eq(s, 0xffffffffu);
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[0] = 0"), 1, &s));
  ck_assert_uint_eq(s, 0x000000ffu);
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[0] = 0"), 2, &s));
  ck_assert_uint_eq(s, 0u);
  ck_assert(!wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[1] = 1"), 0, &s)); /* n */
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[2] = 2"), 1, &s));
  ck_assert_uint_eq(s, 0u);
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[2] = 2"), 3, &s));
  ck_assert_uint_eq(s, 0x0000000fu);
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[3] = 3"), 0, &s));
  ck_assert_uint_eq(s, 0x0000ffffu);
  ck_assert(wl_lanes_reaching_lanes_in_warp(fx.l, E(&fx, "p[3] = 3"), 1, &s));
  ck_assert_uint_eq(s, 0xffff0000u);
  done(&fx);
}
END_TEST

START_TEST(test_loops) {
  fixture fx =
      analyze("__global__ void k(int *p, int n) {\n"
              "  int lane = threadIdx.x & 31;\n"
              "  for (int i = lane; i < n; i += 32) p[1] = i;\n"
              "  for (int i = 0; i < n; ++i) p[2] = i;\n"
              "  int m = p[lane];\n"
              "  while (m > 0) { p[3] = m; m--; }\n"
              "  do { p[4] = 4; } while (p[lane] > 4);\n"
              "  for (int i = 0; i < 4; ++i) { p[5] = 5; if (lane == i) break; p[6] = 6; }\n"
              "  p[7] = 7;\n"
              "  for (int i = 0; i < 4; ++i) { if (lane == i) continue; p[8] = 8; }\n"
              "  p[9] = 9;\n"
              "}\n");
  wl_lane_reach r = reach(&fx, "p[1] = i");
  ck_assert(r.partial);
  ck_assert_int_eq(r.kind, WL_LR_LOOP);
  ck_assert_ptr_eq(r.cond, E(&fx, "i < n"));
  ck_assert(!partial(&fx, "p[2] = i"));
  ck_assert(partial(&fx, "p[3] = m"));
  ck_assert(partial(&fx, "p[4] = 4")); /* later iterations */
  /* after a lane-dependent break: later iterations start with fewer lanes */
  ck_assert_int_eq(reach(&fx, "p[5] = 5").kind, WL_LR_LOOP);
  r = reach(&fx, "p[6] = 6");
  ck_assert_int_eq(r.kind, WL_LR_EXIT);
  ck_assert_int_eq(r.exit->kind, WL_S_BREAK);
  ck_assert_ptr_eq(r.cond, E(&fx, "lane == i"));
  ck_assert_int_eq(r.side, 0);
  ck_assert(!partial(&fx, "p[7] = 7"));
  r = reach(&fx, "p[8] = 8");
  ck_assert_int_eq(r.kind, WL_LR_EXIT);
  ck_assert_int_eq(r.exit->kind, WL_S_CONTINUE);
  ck_assert(!partial(&fx, "p[9] = 9"));
  done(&fx);
}
END_TEST

START_TEST(test_early_return) {
  fixture fx = analyze("__global__ void k(int *p, int n) {\n"
                       "  int gid = blockIdx.x * blockDim.x + threadIdx.x;\n"
                       "  if (blockIdx.x >= n) return;\n"
                       "  p[1] = 1;\n"
                       "  if (gid >= n) { p[2] = 2; return; }\n"
                       "  p[3] = 3;\n"
                       "  { p[4] = 4; }\n"
                       "}\n"
                       "__device__ int f(int x) {\n"
                       "  if (x < 0) return 0;\n"
                       "  return __shfl_xor_sync(0xffffffff, x, 1);\n"
                       "}\n"
                       "__global__ void g(int *p) { p[0] = f(p[threadIdx.x]); }\n");
  ck_assert(!partial(&fx, "p[1] = 1")); /* a block-uniform early return */
  ck_assert(partial(&fx, "p[2] = 2"));
  wl_lane_reach r = reach(&fx, "p[3] = 3");
  ck_assert(r.partial);
  ck_assert_int_eq(r.kind, WL_LR_EXIT);
  ck_assert_int_eq(r.exit->kind, WL_S_RETURN);
  ck_assert_ptr_eq(r.cond, E(&fx, "gid >= n"));
  ck_assert_int_eq(r.side, 0); /* the lanes that stay are those where the condition is false */
  ck_assert(partial(&fx, "p[4] = 4"));
  /* in f, x is lane-dependent only through the call in g */
  ck_assert(partial(&fx, "__shfl_xor_sync(0xffffffff, x, 1)"));
  ck_assert(wl_lanes_return_dependent(fx.l, func(&fx, "f")));
  done(&fx);
}
END_TEST

START_TEST(test_callers) {
  fixture fx =
      analyze("__device__ int red(int v) {\n"
              "  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);\n"
              "  return v;\n"
              "}\n"
              "__device__ int wrap(int v) { return red(v); }\n"
              "__device__ int quiet(int v) { return v + 1; }\n"
              "__global__ void k(int *p) {\n"
              "  int lane = threadIdx.x & 31;\n"
              "  p[0] = quiet(p[0]);\n"
              "  if (lane < 8) p[1] = wrap(p[1]);\n"
              "}\n");
  const wl_expr *shfl = E(&fx, "__shfl_down_sync(0xffffffff, v, o)");
  wl_lane_reach r;
  ck_assert(wl_lanes_reach_expr(fx.l, shfl, &r));
  ck_assert(!r.partial);
  ck_assert(r.caller_partial); /* red is entered by part of a warp through wrap */
  ck_assert(!wl_lanes_whole_warp(fx.l, shfl));
  ck_assert(wl_lanes_whole_warp(fx.l, E(&fx, "v + 1")));
  const wl_expr *const *calls;
  ck_assert_uint_eq(wl_lanes_calls_of(fx.l, func(&fx, "red"), &calls), 1);
  ck_assert_ptr_eq(calls[0], E(&fx, "red(v)"));
  ck_assert_ptr_eq(wl_lanes_func_of_expr(fx.l, shfl), func(&fx, "red"));
  /* the wrapper runs a full-mask collective with the whole warp that enters it */
  ck_assert_ptr_eq(wl_lanes_call_full_warp_collective(fx.l, E(&fx, "wrap(p[1])")), shfl);
  ck_assert_ptr_null(wl_lanes_call_full_warp_collective(fx.l, E(&fx, "quiet(p[0])")));
  done(&fx);
}
END_TEST

/* ---- masks ------------------------------------------------------------------ */

START_TEST(test_mask_flow) {
  fixture fx =
      analyze("__device__ int use(unsigned mask, int v) { return __shfl_sync(mask, v, 0); }\n"
              "__device__ int pass(unsigned m2, int v) { return use(m2, v); }\n"
              "__device__ int agg(int *ptr) {\n"
              "  unsigned mm = __match_any_sync(__activemask(), (unsigned long long)ptr);\n"
              "  return __shfl_sync(mm, 1, __ffs(mm) - 1);\n"
              "}\n"
              "__global__ void k(int *p) {\n"
              "  int lane = threadIdx.x & 31;\n"
              "  unsigned am = __activemask();\n"
              "  unsigned m = am & 0xffff;\n"
              "  unsigned b = __ballot_sync(0xffffffff, lane < 3);\n"
              "  p[0] = __ballot_sync(m, 1) + __any_sync(b, 1);\n"
              "  if (lane < 16) p[1] = pass(__activemask(), 3);\n"
              "  p[2] = use(b, 4) + agg(p);\n"
              "}\n");
  ck_assert_uint_eq(wl_lanes_mask_flags(fx.l, E(&fx, "m")), WL_MASK_ACTIVEMASK);
  ck_assert_uint_eq(wl_lanes_mask_flags(fx.l, E(&fx, "b")) & WL_MASK_ACTIVEMASK, 0);
  ck_assert(wl_lanes_mask_flags(fx.l, E(&fx, "b")) & WL_MASK_VOTE);
  ck_assert(wl_lanes_mask_flags(fx.l, E(&fx, "mm")) & WL_MASK_MATCH);
  wl_mask_origin o[4];
  /* through the local variables */
  ck_assert_uint_eq(wl_lanes_activemask_origins(fx.l, E(&fx, "m"), o, 4), 1);
  ck_assert_ptr_eq(o[0].activemask, nth(&fx, "__activemask()", 1));
  ck_assert_ptr_null(o[0].call);
  ck_assert(!o[0].partial);
  /* through two parameters, up to the call that passes __activemask() */
  const wl_expr *shfl = E(&fx, "__shfl_sync(mask, v, 0)");
  const wl_expr *mask = wl_collective_mask(shfl);
  ck_assert_ptr_eq(mask, E(&fx, "mask"));
  ck_assert_uint_eq(wl_lanes_activemask_origins(fx.l, mask, o, 4), 1);
  ck_assert_ptr_eq(o[0].call, E(&fx, "pass(__activemask(), 3)"));
  ck_assert_ptr_eq(o[0].activemask, nth(&fx, "__activemask()", 2));
  ck_assert(o[0].partial);
  /* a match result is opportunistic: no origin */
  ck_assert_uint_eq(wl_lanes_activemask_origins(fx.l, E(&fx, "mm"), o, 4), 0);
  done(&fx);
}
END_TEST

START_TEST(test_collectives) {
  fixture fx = analyze("#define FULL_MASK 0xffffffff\n"
                       "__global__ void k(int *p) {\n"
                       "  int v = p[threadIdx.x];\n"
                       "  v += __shfl_down_sync(FULL_MASK, v, 1, 16);\n"
                       "  v += __shfl_xor_sync(~0u, v, 1);\n"
                       "  v += __ballot_sync(-1, v);\n"
                       "  v += __any_sync(0xffff, v);\n"
                       "  __syncwarp();\n"
                       "  __syncwarp(0x0f);\n"
                       "  v += __shfl(v, 0);\n"
                       "  p[0] = v;\n"
                       "}\n");
  const wl_expr *const *c;
  size_t n = wl_lanes_collectives(fx.l, &c);
  ck_assert_uint_eq(n, 7);
  ck_assert_str_eq(wl_collective_of(c[0])->name, "__shfl_down_sync");
  ck_assert(wl_collective_full_mask(c[0]));
  ck_assert_ptr_eq(wl_collective_width(c[0]), E(&fx, "16"));
  ck_assert(wl_collective_full_mask(c[1]));
  ck_assert_ptr_null(wl_collective_width(c[1]));
  ck_assert(wl_collective_full_mask(c[2]));
  ck_assert(!wl_collective_full_mask(c[3]));
  ck_assert(wl_collective_full_mask(c[4])); /* __syncwarp() defaults to the full mask */
  ck_assert(!wl_collective_full_mask(c[5]));
  ck_assert(wl_collective_of(c[6])->legacy);
  ck_assert_ptr_null(wl_collective_mask(c[6]));
  done(&fx);
}
END_TEST

/* ---- constant folding -------------------------------------------------------- */

START_TEST(test_consteval) {
  fixture fx = analyze("#define FULL_MASK 0xffffffff\n"
                       "enum { E12 = 12 };\n"
                       "__global__ void k(int *p, int n) {\n"
                       "  const int six = 6;\n"
                       "  const unsigned m = ~0u;\n"
                       "  p[0] = FULL_MASK;\n"
                       "  p[1] = ~0u;\n"
                       "  p[2] = -1;\n"
                       "  p[3] = (unsigned)-1;\n"
                       "  p[4] = (1u << 31) | 0x7fffffffu;\n"
                       "  p[5] = six * 2;\n"
                       "  p[6] = warpSize / 2;\n"
                       "  p[7] = E12 + 0;\n"
                       "  p[8] = n + 1;\n"
                       "  p[9] = 7 / 0;\n"
                       "  p[10] = 0xffffull << 16;\n"
                       "  p[11] = m;\n"
                       "  p[12] = 3 > 2 ? 16 : 8;\n"
                       "  p[13] = (1 << 16) - 1;\n"
                       "}\n");
  long long v;
  ck_assert(wl_consteval_is_full_mask(E(&fx, "FULL_MASK")));
  ck_assert(wl_consteval_is_full_mask(E(&fx, "~0u")));
  ck_assert(wl_consteval_is_full_mask(E(&fx, "-1")));
  ck_assert(wl_consteval_is_full_mask(E(&fx, "(unsigned)-1")));
  ck_assert(wl_consteval_is_full_mask(E(&fx, "(1u << 31) | 0x7fffffffu")));
  ck_assert(wl_consteval_is_full_mask(E(&fx, "m")));
  ck_assert(wl_consteval(E(&fx, "six * 2"), &v) && v == 12);
  ck_assert(wl_consteval(E(&fx, "warpSize / 2"), &v) && v == 16);
  ck_assert(wl_consteval(E(&fx, "E12 + 0"), &v) && v == 12);
  ck_assert(wl_consteval(E(&fx, "3 > 2 ? 16 : 8"), &v) && v == 16);
  ck_assert(!wl_consteval(E(&fx, "n + 1"), &v));
  ck_assert(!wl_consteval(E(&fx, "7 / 0"), &v));
  unsigned mask;
  ck_assert(wl_consteval_mask(E(&fx, "0xffffull << 16"), &mask) && mask == 0xffff0000u);
  ck_assert(!wl_consteval_is_full_mask(E(&fx, "(1 << 16) - 1")));
  ck_assert(wl_consteval_mask(E(&fx, "(1 << 16) - 1"), &mask) && mask == 0xffffu);
  done(&fx);
}
END_TEST

Suite *wl_suite_lanes(void) {
  Suite *s = suite_create("lanes");
  TCase *v = tcase_create("values");
  tcase_add_test(v, test_sources);
  tcase_add_test(v, test_thread_ids);
  tcase_add_test(v, test_comparisons_and_whole_warps);
  tcase_add_test(v, test_intrinsics_and_memory);
  tcase_add_test(v, test_control_dependence);
  tcase_add_test(v, test_interprocedural_values);
  tcase_add_test(v, test_rows_evidence);
  tcase_add_test(v, test_cg_uniform);
  suite_add_tcase(s, v);
  TCase *r = tcase_create("reach");
  tcase_add_test(r, test_branches);
  tcase_add_test(r, test_full_activemask);
  tcase_add_test(r, test_reaching_lanes);
  tcase_add_test(r, test_loops);
  tcase_add_test(r, test_early_return);
  tcase_add_test(r, test_callers);
  suite_add_tcase(s, r);
  TCase *m = tcase_create("masks");
  tcase_add_test(m, test_mask_flow);
  tcase_add_test(m, test_collectives);
  tcase_add_test(m, test_reaching_lanes_in_warp);
  tcase_add_test(m, test_consteval);
  suite_add_tcase(s, m);
  return s;
}
