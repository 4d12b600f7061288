/* test_shared.c - unit tests of the shared-memory access analysis
 * (analyzer/analysis/shared/) on CUDA snippets parsed in memory. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "parse.h"
#include "shared.h"
#include "support/snippet.h"

Suite *wl_suite_shared(void);

/* ---- the analysis on parsed snippets ------------------------------------- */

typedef struct fixture {
  wl_tu *tu;
  wl_smem *sm;
} fixture;

static fixture analyze(const char *src) {
  fixture fx = {wl_snippet_parse(src, true), NULL};
  fx.sm = wl_smem_build(fx.tu);
  return fx;
}

static void done(fixture *fx) {
  wl_smem_free(fx->sm);
  wl_tu_free(fx->tu);
}

/* The race reported on `line` (the access that reads or clobbers), or NULL. */
static const wl_smem_race *race_on(const fixture *fx, unsigned line) {
  for (size_t i = 0; i < wl_smem_nraces(fx->sm); i++) {
    const wl_smem_race *r = wl_smem_race_at(fx->sm, i);
    if (r->second.expr->loc.line == line)
      return r;
  }
  return NULL;
}

static unsigned nraces(const fixture *fx) { return (unsigned)wl_smem_nraces(fx->sm); }

/* Lines that have a race, as "3,5" (for messages). */
static const char *race_lines(const fixture *fx, char *buf, size_t n) {
  buf[0] = 0;
  for (size_t i = 0; i < wl_smem_nraces(fx->sm); i++) {
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%u<-%u", len ? "," : "",
             wl_smem_race_at(fx->sm, i)->second.expr->loc.line,
             wl_smem_race_at(fx->sm, i)->first.expr->loc.line);
  }
  return buf;
}

#define ASSERT_RACES(fx, ...)                                                                      \
  do {                                                                                             \
    const unsigned want_[] = {__VA_ARGS__};                                                        \
    char b_[512];                                                                                  \
    for (size_t i_ = 0; i_ < sizeof want_ / sizeof want_[0]; i_++)                                 \
      ck_assert_msg(!want_[i_] || race_on(&(fx), want_[i_]), "no race on line %u (races: %s)",     \
                    want_[i_], race_lines(&(fx), b_, sizeof b_));                                  \
  } while (0)

/* Number of distinct shared accesses found on a line. */
static unsigned accesses_on(const fixture *fx, unsigned line, bool write) {
  unsigned n = 0;
  for (size_t i = 0; i < wl_smem_naccesses(fx->sm); i++) {
    const wl_smem_access *a = wl_smem_access_at(fx->sm, i);
    n += a->expr->loc.line == line && a->write == write;
  }
  return n;
}

START_TEST(test_storage_through_pointers) {
  fixture fx = analyze("__global__ void k(float *g, float x) {\n" /* 1 */
                       "  __shared__ float smem[64];\n"           /* 2 */
                       "  int lane = threadIdx.x & 31;\n"         /* 3 */
                       "  float *p = smem + 32;\n"                /* 4 */
                       "  p[lane] = x;\n"                         /* 5 */
                       "  g[lane] = smem[lane + 32];\n"           /* 6: own element */
                       "  g[lane] = smem[lane + 33];\n"           /* 7: the next lane's */
                       "  g[lane] = g[lane ^ 1];\n"               /* 8: global memory */
                       "}\n");
  ck_assert_uint_eq(accesses_on(&fx, 5, true), 1);
  ck_assert_uint_eq(accesses_on(&fx, 6, false), 1);
  ck_assert_uint_eq(accesses_on(&fx, 8, false), 0); /* g is not shared */
  ck_assert_uint_eq(accesses_on(&fx, 8, true), 0);
  ck_assert_ptr_null(race_on(&fx, 6));
  const wl_smem_race *r = race_on(&fx, 7);
  ck_assert_ptr_nonnull(r);
  ck_assert(!r->second.write && r->first.write);
  ck_assert_uint_eq(r->first.expr->loc.line, 5);
  ck_assert_int_eq(r->lane_first, r->lane_second + 1); /* lane l reads what lane l + 1 wrote */
  ck_assert(r->element_known);
  ck_assert_int_eq(r->element, 33 + r->lane_second);
  ck_assert_str_eq(r->first.storage->name, "smem");
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_storage_through_references_and_calls) {
  fixture fx = analyze("__device__ void put(float *q, int i, float v) { q[i] = v; }\n" /* 1 */
                       "__device__ float get(const float &r) { return r; }\n"          /* 2 */
                       "__global__ void k(float *g, float x) {\n"                      /* 3 */
                       "  __shared__ float s[32];\n"                                   /* 4 */
                       "  int lane = threadIdx.x % 32;\n"                              /* 5 */
                       "  float &mine = s[lane];\n"                                    /* 6 */
                       "  mine = x;\n"                                                 /* 7 */
                       "  __syncwarp();\n"                                             /* 8 */
                       "  g[lane] = get(s[lane ^ 1]);\n"                               /* 9 */
                       "  __syncwarp();\n"                                             /* 10 */
                       "  put(s, lane, x);\n"                                          /* 11 */
                       "  g[lane] = get(s[(lane + 1) % 32]);\n"                        /* 12 */
                       "}\n");
  /* the accesses in put() and get() are shared because of the calls */
  ck_assert_uint_eq(accesses_on(&fx, 1, true), 1);
  ck_assert_uint_eq(accesses_on(&fx, 2, false), 1);
  ck_assert_uint_eq(accesses_on(&fx, 7, true), 1);
  ck_assert_ptr_null(race_on(&fx, 9)); /* __syncwarp() after the write through the reference */
  const wl_smem_race *r = race_on(&fx, 2);
  ck_assert_ptr_nonnull(r);
  ck_assert_uint_eq(r->first.expr->loc.line, 1); /* written in put(), read in get() */
  ck_assert_ptr_nonnull(r->call);
  ck_assert_uint_eq(r->call->loc.line, 12);
  ck_assert_str_eq(r->root->name, "k");
  ck_assert_str_eq(r->second.func->name, "get");
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_warp_reduce_interprocedural) {
  fixture fx =
      analyze("__device__ void warpReduce(volatile float *sdata, unsigned tid) {\n" /* 1 */
              "  sdata[tid] += sdata[tid + 32];\n"                                  /* 2 */
              "  sdata[tid] += sdata[tid + 16];\n"                                  /* 3 */
              "  sdata[tid] += sdata[tid + 8];\n"                                   /* 4 */
              "}\n"                                                                 /* 5 */
              "__global__ void reduce(const float *in, float *out) {\n"             /* 6 */
              "  extern __shared__ float sdata[];\n"                                /* 7 */
              "  unsigned tid = threadIdx.x;\n"                                     /* 8 */
              "  sdata[tid] = in[blockIdx.x * blockDim.x + tid];\n"                 /* 9 */
              "  __syncthreads();\n"                                                /* 10 */
              "  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {\n"            /* 11 */
              "    if (tid < s) sdata[tid] += sdata[tid + s];\n"                    /* 12 */
              "    __syncthreads();\n"                                              /* 13 */
              "  }\n"                                                               /* 14 */
              "  if (tid < 32) warpReduce(sdata, tid);\n"                           /* 15 */
              "  if (tid == 0) out[blockIdx.x] = sdata[0];\n"                       /* 16 */
              "}\n"
              "__device__ void unused(volatile float *p, unsigned t) {\n"
              "  p[t] += p[t + 1];\n" /* no caller: t is the thread's index, p unknown memory */
              "}\n");
  ck_assert_ptr_null(race_on(&fx, 12)); /* the block tree: lanes below s never meet */
  ck_assert_ptr_null(race_on(&fx, 2));  /* reads [32, 64) while writing [0, 32) */
  const wl_smem_race *r3 = race_on(&fx, 3), *r4 = race_on(&fx, 4);
  ck_assert_ptr_nonnull(r3);
  ck_assert_ptr_nonnull(r4);
  ck_assert(r3->second.is_volatile);
  ck_assert_uint_eq(r3->call->loc.line, 15);
  ck_assert_ptr_null(race_on(&fx, 16)); /* lane 0 only */
  const wl_smem_race *r19 = race_on(&fx, 19);
  ck_assert_ptr_nonnull(r19);
  ck_assert_int_eq(r19->second.space, WL_MEM_UNKNOWN);
  ck_assert_str_eq(r19->second.storage->name, "p");
  ck_assert_int_eq(r3->second.space, WL_MEM_SHARED);
  done(&fx);
}
END_TEST

/* A warp collective orders a read before it with another lane's store after
 * it, but does not publish a store before it to a read after it. */
START_TEST(test_collectives_order_reads_only) {
  fixture fx = analyze("__global__ void k(float *g) {\n"                    /* 1 */
                       "  __shared__ float s[32];\n"                        /* 2 */
                       "  int lane = threadIdx.x & 31;\n"                   /* 3 */
                       "  float b = s[0];\n"                                /* 4 */
                       "  b = __shfl_xor_sync(0xffffffffu, b, 1);\n"        /* 5 */
                       "  if (lane == 0) s[0] = b;\n"                       /* 6 */
                       "  s[lane] = g[lane];\n"                             /* 7 */
                       "  float v = __shfl_down_sync(0xffffffffu, b, 1);\n" /* 8 */
                       "  g[lane] = s[(lane + 1) & 31] + v;\n"              /* 9 */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 6));    /* the read at 4 is ordered by the shuffle */
  ck_assert_ptr_nonnull(race_on(&fx, 9)); /* the store at 7 is not published by one */
  done(&fx);
}
END_TEST

/* Tagged histogram: the element is chosen by data; the race needs equal data. */
START_TEST(test_data_index_lockstep) {
  fixture fx = analyze("__global__ void h(unsigned *hist, const unsigned *in) {\n" /* 1 */
                       "  __shared__ unsigned s[256];\n"                           /* 2 */
                       "  unsigned d = in[threadIdx.x] & 255u;\n"                  /* 3 */
                       "  unsigned tag = threadIdx.x << 27;\n"                     /* 4 */
                       "  unsigned c;\n"                                           /* 5 */
                       "  do {\n"                                                  /* 6 */
                       "    c = tag | ((s[d] & 0x07FFFFFFu) + 1);\n"               /* 7 */
                       "    s[d] = c;\n"                                           /* 8 */
                       "  } while (s[d] != c);\n"                                  /* 9 */
                       "  s[in[threadIdx.x + 32] & 255u] = 1u;\n"                  /* 10 */
                       "}\n");
  const wl_smem_race *r = race_on(&fx, 9);
  ck_assert_ptr_nonnull(r);
  ck_assert(r->data_index);
  ck_assert(!r->element_known);
  ck_assert_uint_eq(r->first.expr->loc.line, 8);
  ck_assert_ptr_null(race_on(&fx, 10)); /* a store through another data value: no re-read */
  done(&fx);
}
END_TEST

START_TEST(test_listing7_and_8) {
  fixture fx = analyze("__global__ void l7(int *out) {\n"     /* 1 */
                       "  __shared__ int shmem[64];\n"        /* 2 */
                       "  unsigned tid = threadIdx.x % 32;\n" /* 3 */
                       "  shmem[tid] = out[tid]; shmem[tid + 32] = 0;\n"
                       "  __syncwarp();\n" /* 5 */
                       "  shmem[tid] += shmem[tid+16]; __syncwarp();\n"
                       "  shmem[tid] += shmem[tid+8];  __syncwarp();\n"
                       "  if (tid == 0) out[0] = shmem[0];\n" /* 8 */
                       "}\n"                                  /* 9 */
                       "__global__ void l8(int *out) {\n"     /* 10 */
                       "  __shared__ int shmem[64];\n"        /* 11 */
                       "  unsigned tid = threadIdx.x % 32;\n" /* 12 */
                       "  shmem[tid] = out[tid]; shmem[tid + 32] = 0;\n"
                       "  __syncwarp();\n"                     /* 14 */
                       "  int v = shmem[tid];\n"               /* 15 */
                       "  v += shmem[tid+16]; __syncwarp();\n" /* 16 */
                       "  shmem[tid] = v;     __syncwarp();\n" /* 17 */
                       "  v += shmem[tid+8];  __syncwarp();\n" /* 18 */
                       "  shmem[tid] = v;\n"                   /* 19 */
                       "  if (tid == 0) out[0] = shmem[0];\n"  /* 20 */
                       "}\n");
  ASSERT_RACES(fx, 6, 7);
  const wl_smem_race *r = race_on(&fx, 6);
  /* the write of shmem[tid] clobbers what another lane reads in the same statement */
  ck_assert(r->second.write && !r->first.write);
  ck_assert_ptr_eq(r->first.stmt, r->second.stmt);
  ck_assert_int_eq(r->lane_second, r->lane_first + 16);
  ck_assert(!r->loop_carried);
  /* line 8: lane 0 reads shmem[0] after lane 0's own write, and a barrier */
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_lane_sets) {
  fixture fx = analyze("__global__ void k(float *g) {\n"          /* 1 */
                       "  __shared__ float s[64];\n"              /* 2 */
                       "  unsigned tid = threadIdx.x;\n"          /* 3 */
                       "  int lane = tid & 31;\n"                 /* 4 */
                       "  if (tid < 16) s[tid] += s[tid + 16];\n" /* 5: [0,16) vs [16,32) */
                       "  __syncwarp();\n"                        /* 6 */
                       "  if (tid < 17) s[tid] += s[tid + 16];\n" /* 7: lane 16 meets lane 0 */
                       "  __syncwarp();\n"                        /* 8 */
                       "  if (lane == 0) s[0] = g[0];\n"          /* 9 */
                       "  if (lane == 0) g[1] = s[0];\n"          /* 10: lane 0 only */
                       "  if (threadIdx.x == 0) s[1] += 1.0f;\n"  /* 11: one thread */
                       "  __syncwarp();\n"                        /* 12 */
                       "  if (lane & 1) s[lane] = 1.0f;\n"        /* 13: odd lanes write */
                       "  else g[lane] = s[lane + 1];\n"          /* 14: even lanes read */
                       "  __syncwarp();\n"                        /* 15 */
                       "  if (lane >= 4) return;\n"               /* 16 */
                       "  s[lane] = g[lane];\n"                   /* 17: lanes 0..3 */
                       "  g[lane] = s[lane + 4];\n"               /* 18: reads 4..7 */
                       "  g[lane] = s[lane + 3];\n"               /* 19: lane 0 reads 3 */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 5));
  ck_assert_ptr_null(race_on(&fx, 10));
  ck_assert_ptr_null(race_on(&fx, 11));
  ck_assert_ptr_null(race_on(&fx, 18));
  const wl_smem_race *r7 = race_on(&fx, 7);
  ck_assert_ptr_nonnull(r7);
  ck_assert_int_eq(r7->lane_second, 16);
  ck_assert_int_eq(r7->lane_first, 0);
  const wl_smem_race *r14 = race_on(&fx, 14);
  ck_assert_ptr_nonnull(r14);
  ck_assert(r14->concurrent_branches);
  ck_assert_int_eq(r14->lane_second % 2, 0);
  ck_assert_int_eq(r14->lane_first, r14->lane_second + 1);
  const wl_smem_race *r19 = race_on(&fx, 19);
  ck_assert_ptr_nonnull(r19);
  ck_assert_int_lt(r19->lane_first, 4);
  ck_assert_int_lt(r19->lane_second, 4);
  ck_assert_uint_eq(nraces(&fx), 3);
  done(&fx);
}
END_TEST

START_TEST(test_barriers_on_every_path) {
  fixture fx = analyze("#include <cooperative_groups.h>\n"         /* 1 */
                       "namespace cg = cooperative_groups;\n"      /* 2 */
                       "__global__ void k(float *g, int flag) {\n" /* 3 */
                       "  __shared__ float s[32];\n"               /* 4 */
                       "  int lane = threadIdx.x & 31;\n"          /* 5 */
                       "  s[lane] = g[lane];\n"                    /* 6 */
                       "  if (flag) __syncwarp();\n"               /* 7 */
                       "  g[lane] = s[lane ^ 1];\n"                /* 8: no barrier if !flag */
                       "  __syncwarp();\n"                         /* 9 */
                       "  s[lane] = g[lane];\n"                    /* 10 */
                       "  if (flag) __syncwarp(); else __syncthreads();\n" /* 11 */
                       "  g[lane] = s[lane ^ 2];\n"                        /* 12: both paths sync */
                       "  cg::thread_block_tile<32> t =\n"                 /* 13 */
                       "      cg::tiled_partition<32>(cg::this_thread_block());\n"
                       "  t.sync();\n"                         /* 15 */
                       "  s[lane] = g[lane];\n"                /* 16 */
                       "  t.sync();\n"                         /* 17 */
                       "  g[lane] = s[(lane + 1) & 31];\n"     /* 18 */
                       "  cg::sync(t);\n"                      /* 19 */
                       "  s[lane] = g[lane];\n"                /* 20 */
                       "  cg::sync(t);\n"                      /* 21 */
                       "  g[lane] = s[t.thread_rank() ^ 4];\n" /* 22 */
                       "  s[t.thread_rank()] = 2.0f;\n"        /* 23 */
                       "}\n");
  const wl_smem_race *r8 = race_on(&fx, 8);
  ck_assert_ptr_nonnull(r8);
  ck_assert_uint_eq(r8->first.expr->loc.line, 6);
  ck_assert_ptr_null(race_on(&fx, 12));
  ck_assert_ptr_null(race_on(&fx, 18));
  /* line 23 writes what line 22 read in lane ^ 4 */
  const wl_smem_race *r23 = race_on(&fx, 23);
  ck_assert_ptr_nonnull(r23);
  ck_assert_uint_eq(r23->first.expr->loc.line, 22);
  ck_assert_int_eq(r23->lane_first ^ 4, r23->lane_second);
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_loops) {
  fixture fx = analyze("__global__ void k(float *g, int n) {\n" /* 1 */
                       "  __shared__ float s[64];\n"            /* 2 */
                       "  int lane = threadIdx.x & 31;\n"       /* 3 */
                       "  for (int o = 16; o > 0; o >>= 1) s[lane] += s[lane + o];\n"
                       "  __syncwarp();\n"                                     /* 5 */
                       "  float y = 0;\n"                                      /* 6 */
                       "  for (int i = 0; i < n; i++) {\n"                     /* 7 */
                       "    y += s[(lane + 1) & 31];\n"                        /* 8 */
                       "    __syncwarp();\n"                                   /* 9 */
                       "    s[lane] = y;\n"                                    /* 10 */
                       "  }\n"                                                 /* 11 */
                       "  __syncwarp();\n"                                     /* 12 */
                       "  for (int i = 0; i < n; i++) {\n"                     /* 13 */
                       "    y += s[32 + ((lane + 1) & 31)];\n"                 /* 14 */
                       "    __syncwarp();\n"                                   /* 15 */
                       "    s[32 + lane] = y;\n"                               /* 16 */
                       "    __syncwarp();\n"                                   /* 17 */
                       "  }\n"                                                 /* 18 */
                       "  for (int i = threadIdx.x; i < n; i += blockDim.x)\n" /* 19 */
                       "    s[i] = s[i] * 2.0f + g[i];\n"                      /* 20 */
                       "}\n");
  const wl_smem_race *r4 = race_on(&fx, 4);
  ck_assert_ptr_nonnull(r4);
  /* line 8 reads in iteration i + 1 what line 10 wrote in iteration i */
  const wl_smem_race *r8 = race_on(&fx, 8);
  ck_assert_ptr_nonnull(r8);
  ck_assert_uint_eq(r8->first.expr->loc.line, 10);
  ck_assert(r8->loop_carried);
  ck_assert_ptr_null(race_on(&fx, 14)); /* a barrier at the end of each iteration */
  ck_assert_ptr_null(race_on(&fx, 16));
  ck_assert_ptr_null(race_on(&fx, 20)); /* each lane its own elements, iteration after iteration */
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_ping_pong_buffers) {
  fixture fx = analyze("__global__ void k(float *g, int n) {\n" /* 1 */
                       "  __shared__ float buf[2][32];\n"       /* 2 */
                       "  int lane = threadIdx.x & 31;\n"       /* 3 */
                       "  int p = 0;\n"                         /* 4 */
                       "  float v = g[lane];\n"                 /* 5 */
                       "  for (int i = 0; i < n; i++) {\n"      /* 6 */
                       "    buf[p][lane] = v;\n"                /* 7 */
                       "    __syncwarp();\n"                    /* 8 */
                       "    v += buf[p][lane ^ 1];\n"           /* 9 */
                       "    p ^= 1;\n"                          /* 10: the other buffer next */
                       "  }\n"                                  /* 11 */
                       "  __syncwarp();\n"                      /* 12 */
                       "  for (int i = 0; i < n; i++) {\n"      /* 13 */
                       "    buf[0][lane] = v;\n"                /* 14: clobbers line 16's */
                       "    __syncwarp();\n"                    /* 15 */
                       "    v += buf[0][lane ^ 1];\n"           /* 16 */
                       "  }\n"                                  /* 17 */
                       "  g[lane] = v;\n"                       /* 18 */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 7));
  ck_assert_ptr_null(race_on(&fx, 9));
  const wl_smem_race *r = race_on(&fx, 14);
  ck_assert_ptr_nonnull(r);
  ck_assert_uint_eq(r->first.expr->loc.line, 16);
  ck_assert(r->loop_carried);
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_block_level_tree) {
  fixture fx = analyze("__global__ void k(float *g) {\n"                           /* 1 */
                       "  extern __shared__ float sd[];\n"                         /* 2 */
                       "  unsigned tid = threadIdx.x;\n"                           /* 3 */
                       "  sd[tid] = g[tid];\n"                                     /* 4 */
                       "  __syncthreads();\n"                                      /* 5 */
                       "  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"   /* 6 */
                       "    if (tid < s) sd[tid] += sd[tid + s];\n"                /* 7 */
                       "    __syncthreads();\n"                                    /* 8 */
                       "  }\n"                                                     /* 9 */
                       "  for (unsigned s = 1; s < blockDim.x; s *= 2) {\n"        /* 10 */
                       "    unsigned index = 2 * s * tid;\n"                       /* 11 */
                       "    if (index < blockDim.x) sd[index] += sd[index + s];\n" /* 12 */
                       "    __syncthreads();\n"                                    /* 13 */
                       "  }\n"                                                     /* 14 */
                       "  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {\n"   /* 15 */
                       "    sd[tid] += sd[tid + s];\n" /* 16: no guard */
                       "    __syncthreads();\n"        /* 17 */
                       "  }\n"                         /* 18 */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 7));
  ck_assert_ptr_null(race_on(&fx, 12));
  ck_assert_ptr_nonnull(race_on(&fx, 16)); /* s < 32 lets lane l + s read while lane l writes */
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_transposed_2d) {
  fixture fx = analyze("__global__ void k(float *g, float val) {\n" /* 1 */
                       "  __shared__ float smem[4][8];\n"           /* 2 */
                       "  int x1 = threadIdx.x % 8;\n"              /* 3 */
                       "  int y1 = threadIdx.x / 8;\n"              /* 4 */
                       "  int x2 = threadIdx.x / 4;\n"              /* 5 */
                       "  int y2 = threadIdx.x % 4;\n"              /* 6 */
                       "  smem[y1][x1] = val;\n"                    /* 7 */
                       "  val = smem[y2][x2];\n"                    /* 8 */
                       "  __syncwarp();\n"                          /* 9 */
                       "  smem[y1][x1] = val;\n"                    /* 10 */
                       "  __syncwarp();\n"                          /* 11 */
                       "  val = smem[y2][x2];\n"                    /* 12 */
                       "  g[threadIdx.x] = val;\n"                  /* 13 */
                       "}\n");
  const wl_smem_race *r = race_on(&fx, 8);
  ck_assert_ptr_nonnull(r);
  ck_assert_uint_eq(r->first.expr->loc.line, 7);
  /* lane l2 reads [l2 % 4][l2 / 4], i.e. element 8 * (l2 % 4) + l2 / 4, written by that lane */
  int l2 = r->lane_second;
  ck_assert_int_eq(r->lane_first, 8 * (l2 % 4) + l2 / 4);
  ck_assert_ptr_null(race_on(&fx, 10)); /* writes what line 8 read: a barrier between */
  ck_assert_ptr_null(race_on(&fx, 12));
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_same_element_writes_and_unknown_indexes) {
  fixture fx = analyze("__global__ void k(int *g) {\n" /* 1 */
                       "  __shared__ int s[32];\n"     /* 2 */
                       "  __shared__ int flag;\n"      /* 3 */
                       "  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;\n"
                       "  flag = 0;\n"            /* 5: same value */
                       "  s[warp] = 1;\n"         /* 6: same value */
                       "  __syncwarp();\n"        /* 7 */
                       "  s[warp] = lane;\n"      /* 8: different values */
                       "  __syncwarp();\n"        /* 9 */
                       "  s[g[lane]] = lane;\n"   /* 10: unknown index */
                       "  g[lane] = s[lane];\n"   /* 11 */
                       "  __syncwarp();\n"        /* 12 */
                       "  s[lane] *= 2;\n"        /* 13: own element */
                       "  atomicAdd(&s[0], 1);\n" /* 14: atomic */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 5));
  ck_assert_ptr_null(race_on(&fx, 6));
  const wl_smem_race *r = race_on(&fx, 8);
  ck_assert_ptr_nonnull(r);
  ck_assert(r->first.write && r->second.write);
  ck_assert_ptr_eq(r->first.expr, r->second.expr);
  ck_assert_ptr_null(race_on(&fx, 11));
  ck_assert_ptr_null(race_on(&fx, 13));
  ck_assert_uint_eq(accesses_on(&fx, 10, true), 1);
  for (size_t i = 0; i < wl_smem_naccesses(fx.sm); i++) {
    const wl_smem_access *a = wl_smem_access_at(fx.sm, i);
    if (a->expr->loc.line == 10)
      ck_assert(!a->index_known);
    if (a->expr->loc.line == 13)
      ck_assert(a->index_known);
  }
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

/* Every lane of a warp storing to one element is reported only when the
 * stored values are known to differ between the two lanes: a cg::reduce or
 * butterfly-shuffle result, a load or a float is taken to be the same. */
START_TEST(test_same_element_writes_of_unknown_values) {
  fixture fx = analyze("#include <cooperative_groups.h>\n"                     /* 1 */
                       "namespace cg = cooperative_groups;\n"                  /* 2 */
                       "__global__ void k(const float *g, const int *gi) {\n"  /* 3 */
                       "  __shared__ float acc[32];\n"                         /* 4 */
                       "  __shared__ int s[32];\n"                             /* 5 */
                       "  cg::thread_block block = cg::this_thread_block();\n" /* 6 */
                       "  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);\n"
                       "  float v = g[threadIdx.x];\n" /* 8 */
                       "  acc[warp.meta_group_rank()] = cg::reduce(warp, v, cg::plus<float>{});\n"
                       "  block.sync();\n"                                /* 10 */
                       "  for (int o = 16; o > 0; o /= 2)\n"              /* 11 */
                       "    v += __shfl_xor_sync(0xffffffffu, v, o);\n"   /* 12 */
                       "  acc[threadIdx.x / 32] = v;\n"                   /* 13 */
                       "  block.sync();\n"                                /* 14 */
                       "  s[warp.meta_group_rank()] = gi[threadIdx.x];\n" /* 15 */
                       "  block.sync();\n"                                /* 16 */
                       "  s[1] = (int)warp.meta_group_rank() + warp.meta_group_size();\n"
                       "  block.sync();\n"           /* 18 */
                       "  s[0] = threadIdx.x;\n"     /* 19 */
                       "  block.sync();\n"           /* 20 */
                       "  s[2] = threadIdx.x / 2;\n" /* 21 */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 9));
  ck_assert_ptr_null(race_on(&fx, 13));
  ck_assert_ptr_null(race_on(&fx, 15));
  ck_assert_ptr_null(race_on(&fx, 17));
  const wl_smem_race *r = race_on(&fx, 19); /* lane forms differ: still a race */
  ck_assert_ptr_nonnull(r);
  ck_assert(r->first.write && r->second.write);
  ck_assert_ptr_eq(r->first.expr, r->second.expr);
  r = race_on(&fx, 21); /* lanes 2i and 2i + 1 store the same value: the example differs */
  ck_assert_ptr_nonnull(r);
  ck_assert_int_ne(r->lane_first / 2, r->lane_second / 2);
  char buf[256];
  ck_assert_msg(nraces(&fx) == 2, "races on lines %s", race_lines(&fx, buf, sizeof buf));
  done(&fx);
}
END_TEST

START_TEST(test_shared_memory_template_idiom) {
  fixture fx =
      analyze("template <class T> struct SharedMemory {\n"                      /* 1 */
              "  __device__ operator T *() {\n"                                 /* 2 */
              "    extern __shared__ int __smem[];\n"                           /* 3 */
              "    return (T *)__smem;\n"                                       /* 4 */
              "  }\n"                                                           /* 5 */
              "};\n"                                                            /* 6 */
              "template <class T, unsigned blockSize>\n"                        /* 7 */
              "__global__ void reduce5(T *g_idata, T *g_odata, unsigned n) {\n" /* 8 */
              "  T *sdata = SharedMemory<T>();\n"                               /* 9 */
              "  unsigned tid = threadIdx.x;\n"                                 /* 10 */
              "  T mySum = g_idata[blockIdx.x * blockSize + tid];\n"            /* 11 */
              "  sdata[tid] = mySum;\n"                                         /* 12 */
              "  __syncthreads();\n"                                            /* 13 */
              "  if (blockSize >= 128 && tid < 64) sdata[tid] = mySum = mySum + sdata[tid + 64];\n"
              "  __syncthreads();\n"                                                   /* 15 */
              "  if (tid < 32) {\n"                                                    /* 16 */
              "    volatile T *smem = sdata;\n"                                        /* 17 */
              "    if (blockSize >= 64) smem[tid] = mySum = mySum + smem[tid + 32];\n" /* 18 */
              "    if (blockSize >= 32) smem[tid] = mySum = mySum + smem[tid + 16];\n" /* 19 */
              "  }\n"                                                                  /* 20 */
              "  if (tid == 0) g_odata[blockIdx.x] = sdata[0];\n"                      /* 21 */
              "}\n");
  ck_assert_ptr_null(race_on(&fx, 14));
  ck_assert_ptr_null(race_on(&fx, 18));
  ck_assert_ptr_nonnull(race_on(&fx, 19));
  ck_assert_uint_eq(accesses_on(&fx, 12, true), 1);
  /* line 19 reads what line 18 wrote, and writes what line 19 reads: two pairs */
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_more_storage_shapes) {
  fixture fx = analyze(
      "template <class T> struct SharedMemory {\n" /* 1 */
      "  __device__ operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }\n"
      "};\n"                                                                           /* 3 */
      "struct Pt { float x, y; };\n"                                                   /* 4 */
      "__device__ void my_syncwarp();\n"                                               /* 5 */
      "__device__ unsigned lane_id() {\n"                                              /* 6 */
      "  unsigned r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); return r;\n" /* 7 */
      "}\n"                                                                            /* 8 */
      "__global__ void k(float *g, int n) {\n"                                         /* 9 */
      "  float *sdata = SharedMemory<float>();\n"                                      /* 10 */
      "  unsigned lane = lane_id();\n"                                                 /* 11 */
      "  sdata[lane] = g[lane];\n"                                                     /* 12 */
      "  g[lane] = sdata[lane ^ 1];\n"                    /* 13: race */
      "  __shared__ Pt pts[32];\n"                        /* 14 */
      "  pts[lane].x = g[lane];\n"                        /* 15 */
      "  g[lane] = pts[lane ^ 1].y + pts[lane].x;\n"      /* 16: clean */
      "  g[lane] = pts[lane ^ 1].x;\n"                    /* 17: race */
      "  __shared__ float s[64];\n"                       /* 18 */
      "  auto put = [&](int i, float v) { s[i] = v; };\n" /* 19 */
      "  put(lane, g[lane]);\n"                           /* 20 */
      "  g[lane] = s[lane ^ 2];\n"                        /* 21: race */
      "  my_syncwarp();\n"                                /* 22 */
      "  s[lane] = g[lane];\n"                            /* 23 */
      "  my_syncwarp();\n"                                /* 24 */
      "  g[lane] = s[lane ^ 4];\n"                        /* 25: clean */
      "  int *ints = (int *)&s[n];\n"                     /* 26 */
      "  ints[lane] = 1;\n"                               /* 27 */
      "  g[lane] = ints[lane ^ 1];\n"                     /* 28: race */
      "}\n");
  const wl_smem_race *r13 = race_on(&fx, 13), *r17 = race_on(&fx, 17), *r21 = race_on(&fx, 21);
  ck_assert_ptr_nonnull(r13);
  ck_assert_int_eq(r13->lane_first, r13->lane_second ^ 1); /* %laneid is the lane */
  ck_assert_ptr_nonnull(r17);
  ck_assert_uint_eq(r17->first.expr->loc.line, 15);
  ck_assert_ptr_nonnull(r21);
  ck_assert_uint_eq(r21->first.expr->loc.line, 19); /* written in the lambda */
  ck_assert_ptr_null(race_on(&fx, 16));
  ck_assert_ptr_null(race_on(&fx, 25));
  /* another element type at an offset the same in every lane (&s[n]): a
   * region starting at a host-chosen element, whose lanes still meet */
  const wl_smem_race *r28 = race_on(&fx, 28);
  ck_assert_ptr_nonnull(r28);
  ck_assert_uint_eq(r28->first.expr->loc.line, 27);
  ck_assert_uint_eq(accesses_on(&fx, 27, true), 1);
  ck_assert_uint_eq(nraces(&fx), 4);
  done(&fx);
}
END_TEST

START_TEST(test_host_sizes_and_lane_factors) {
  fixture fx = analyze("template <int N>\n"                                      /* 1 */
                       "__global__ void k(float *g, int bdim, int n, int d) {\n" /* 2 */
                       "  extern __shared__ float s[];\n"                        /* 3 */
                       "  int tid = threadIdx.x, lane = tid & 31;\n"             /* 4 */
                       "  s[tid] = g[tid];\n"                                    /* 5 */
                       "  s[tid + bdim] = g[tid + bdim];\n"         /* 6: a block apart */
                       "  s[tid + blockDim.x] = 0.0f;\n"            /* 7: a multiple of 32 */
                       "  s[tid + N] = 1.0f;\n"                     /* 8: template argument */
                       "  s[lane * d] = 2.0f;\n"                    /* 9: d * lane, d != 0 */
                       "  __syncthreads();\n"                       /* 10 */
                       "  if (lane < n) s[lane] += s[lane + 1];\n"  /* 11: race */
                       "  __syncthreads();\n"                       /* 12 */
                       "  for (unsigned o = 1; o < n; o <<= 1) {\n" /* 13 */
                       "    unsigned a = o * (2 * tid + 1) - 1;\n"  /* 14 */
                       "    if (tid < n / o) s[a + o] += s[a];\n"   /* 15: o >= 1 */
                       "    __syncthreads();\n"                     /* 16 */
                       "  }\n"                                      /* 17 */
                       "  for (unsigned o = n; o > 0; o >>= 1)\n"   /* 18 */
                       "    if (tid < o) s[tid] += s[tid + o];\n"   /* 19: race, o < 32 */
                       "}\n");
  for (unsigned line = 5; line <= 9; line++)
    ck_assert_msg(!race_on(&fx, line), "race on line %u", line);
  ck_assert_ptr_null(race_on(&fx, 15));
  const wl_smem_race *r11 = race_on(&fx, 11);
  ck_assert_ptr_nonnull(r11);
  ck_assert_int_eq(r11->lane_second, r11->lane_first + 1); /* reads lane + 1, which it writes */
  ck_assert_ptr_nonnull(race_on(&fx, 19));
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_unknown_lane_conditions) {
  fixture fx =
      analyze("#include <cooperative_groups.h>\n"      /* 1 */
              "namespace cg = cooperative_groups;\n"   /* 2 */
              "__global__ void k(int *g, int key) {\n" /* 3 */
              "  __shared__ int s[64];\n"              /* 4 */
              "  unsigned tid = threadIdx.x, lane = tid % 32, w = tid / 32;\n"
              "  for (unsigned st = 1; st < blockDim.x; st *= 2) {\n" /* 6 */
              "    if (tid % (2 * st) == 0) s[tid] += s[tid + st];\n" /* 7 */
              "    __syncthreads();\n"                                /* 8 */
              "  }\n"                                                 /* 9 */
              "  if (g[tid] == key) s[w] = tid;\n"                    /* 10: at most one lane */
              "  __syncthreads();\n"                                  /* 11 */
              "  if (g[tid] > 0) {\n"                                 /* 12 */
              "    s[lane] = 1;\n"                                    /* 13 */
              "    g[tid] = s[lane ^ 1];\n"                           /* 14: both lanes must pass */
              "  }\n"                                                 /* 15 */
              "  __syncwarp();\n"                                     /* 16 */
              "  s[lane] = 2;\n"                                      /* 17 */
              "  if (g[tid] > 1) g[tid] = s[lane ^ 1];\n"             /* 18: one lane: race */
              "  __syncwarp();\n"                                     /* 19 */
              "  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());\n"
              "  if (t.thread_rank() == t.size() - 1) s[w] = 3;\n" /* 21: lane 31 */
              "  g[tid] = s[w];\n"                                 /* 22: race */
              "}\n");
  ck_assert_ptr_null(race_on(&fx, 7));
  ck_assert_ptr_null(race_on(&fx, 10));
  ck_assert_ptr_null(race_on(&fx, 14));
  const wl_smem_race *r18 = race_on(&fx, 18), *r22 = race_on(&fx, 22);
  ck_assert_ptr_nonnull(r18);
  ck_assert_uint_eq(r18->first.expr->loc.line, 17);
  ck_assert_ptr_nonnull(r22);
  ck_assert_int_eq(r22->lane_first, 31); /* t.size() is 32 */
  ck_assert_ptr_null(race_on(&fx, 21));
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_two_dim_blocks) {
  fixture fx = analyze("#include <cooperative_groups.h>\n"                     /* 1 */
                       "namespace cg = cooperative_groups;\n"                  /* 2 */
                       "__device__ int row() { return threadIdx.y; }\n"        /* 3 */
                       "__global__ void tile2d(float *g) {\n"                  /* 4 */
                       "  __shared__ float s[4][16];\n"                        /* 5 */
                       "  s[threadIdx.y][threadIdx.x] = g[threadIdx.x];\n"     /* 6 */
                       "  g[threadIdx.x] = s[threadIdx.y][threadIdx.x ^ 1];\n" /* 7: not compared */
                       "  unsigned r = cg::this_thread_block().thread_rank();\n" /* 8 */
                       "  __shared__ float t[64];\n"                             /* 9 */
                       "  t[r] = 1.0f;\n"                                        /* 10 */
                       "  g[r] = t[r ^ 1];\n" /* 11: the linear rank still is 32 * W + lane */
                       "}\n"                  /* 12 */
                       "__global__ void called(float *g) {\n" /* 13 */
                       "  __shared__ float s[64];\n"          /* 14 */
                       "  s[threadIdx.x + row()] = 1.0f;\n"   /* 15 */
                       "  g[0] = s[threadIdx.x ^ 1];\n"       /* 16: row() uses threadIdx.y */
                       "}\n"                                  /* 17 */
                       "__global__ void flat(float *g) {\n"   /* 18 */
                       "  __shared__ float s[4][8];\n"        /* 19 */
                       "  s[threadIdx.x / 8][threadIdx.x % 8] = 1.0f;\n" /* 20 */
                       "  g[0] = s[threadIdx.x % 4][threadIdx.x / 4];\n" /* 21: race */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 7));
  ck_assert_ptr_null(race_on(&fx, 16));
  ck_assert_ptr_nonnull(race_on(&fx, 11));
  ck_assert_ptr_nonnull(race_on(&fx, 21));
  for (size_t i = 0; i < wl_smem_naccesses(fx.sm); i++) {
    const wl_smem_access *a = wl_smem_access_at(fx.sm, i);
    unsigned line = a->expr->loc.line;
    if (line == 6 || line == 7 || line == 15 || line == 16)
      ck_assert_msg(!a->index_known, "line %u", line);
    if (line == 10 || line == 20)
      ck_assert_msg(a->index_known, "line %u", line);
  }
  ck_assert_uint_eq(nraces(&fx), 2);
  done(&fx);
}
END_TEST

START_TEST(test_narrow_types_and_loops) {
  fixture fx = analyze("__global__ void k(float *g, short w, short pitch) {\n" /* 1 */
                       "  __shared__ float s[4096];\n"                         /* 2 */
                       "  unsigned lane = threadIdx.x % 32;\n"                 /* 3 */
                       "  short ib;\n"                                         /* 4 */
                       "  for (ib = threadIdx.x; ib < w; ib += blockDim.x)\n"  /* 5 */
                       "    s[4 * ib] = g[ib];\n"                              /* 6 */
                       "  for (ib = threadIdx.x; ib < w; ib += blockDim.x)\n"  /* 7 */
                       "    s[2 * pitch + 4 * ib] = g[ib];\n" /* 8: rows a pitch apart */
                       "  __syncthreads();\n"                 /* 9 */
                       "  for (short i = threadIdx.x; i < w; i += blockDim.x) {\n" /* 10 */
                       "    s[i] = 1.0f;\n"                                        /* 11 */
                       "    g[i] = s[i + 1];\n"                    /* 12: the next lane's: race */
                       "  }\n"                                     /* 13 */
                       "  __syncthreads();\n"                      /* 14 */
                       "  s[(unsigned char)(lane * 16)] = lane;\n" /* 15: wraps: lanes 0, 16 */
                       "  __syncthreads();\n"                      /* 16 */
                       "  s[(signed char)(lane * 8)] = lane;\n"    /* 17: not known */
                       "  s[(short)(lane * 8)] = lane;\n"          /* 18: fits */
                       "  __syncthreads();\n"                      /* 19 */
                       "  short q = lane + w;\n" /* 20: unbounded through w: kept */
                       "  s[q] = 1.0f;\n"        /* 21 */
                       "  g[0] = s[q + 1];\n"    /* 22: race */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 6));
  ck_assert_ptr_null(race_on(&fx, 8));
  ck_assert_ptr_nonnull(race_on(&fx, 12));
  const wl_smem_race *r15 = race_on(&fx, 15);
  ck_assert_ptr_nonnull(r15);
  ck_assert_int_eq(r15->lane_first % 16, r15->lane_second % 16);
  ck_assert(r15->element_known);
  ck_assert_int_eq(r15->element, 16 * r15->lane_second % 256);
  ck_assert_ptr_null(race_on(&fx, 17));
  ck_assert_ptr_null(race_on(&fx, 18));
  const wl_smem_race *r22 = race_on(&fx, 22);
  ck_assert_ptr_nonnull(r22);
  ck_assert_int_eq(r22->lane_first, r22->lane_second + 1);
  for (size_t i = 0; i < wl_smem_naccesses(fx.sm); i++) {
    const wl_smem_access *a = wl_smem_access_at(fx.sm, i);
    if (a->expr->loc.line == 17)
      ck_assert(!a->index_known);
    if (a->expr->loc.line == 18)
      ck_assert(a->index_known);
  }
  ck_assert_uint_eq(nraces(&fx), 3);
  done(&fx);
}
END_TEST

START_TEST(test_thread_below_block_size) {
  /* the analysis (cudpp crpcrKernel): a + 2*blockDim.x + 1 is past every
   * a[2 * threadIdx.x + 1]; a reach of blockDim.x - 31 still meets */
  fixture fx = analyze("__global__ void k(float *g) {\n"                        /* 1 */
                       "  extern __shared__ float a[];\n"                       /* 2 */
                       "  unsigned n = blockDim.x * 2;\n"                       /* 3 */
                       "  float *aa = &a[n + 1];\n"                             /* 4 */
                       "  aa[threadIdx.x] = a[threadIdx.x * 2 + 1];\n"          /* 5: no race */
                       "  __syncthreads();\n"                                   /* 6 */
                       "  a[threadIdx.x * 2 + 1] = aa[threadIdx.x];\n"          /* 7: no race */
                       "  __syncthreads();\n"                                   /* 8 */
                       "  a[threadIdx.x] = a[threadIdx.x + blockDim.x - 31];\n" /* 9: race */
                       "}\n");
  ck_assert_ptr_null(race_on(&fx, 5));
  ck_assert_ptr_null(race_on(&fx, 7));
  ck_assert_ptr_nonnull(race_on(&fx, 9));
  ck_assert_uint_eq(nraces(&fx), 1);
  done(&fx);
}
END_TEST

START_TEST(test_loop_without_end_is_bounded) {
  /* a loop whose end the analysis never learns (no condition, no break):
   * unrolling it cannot finish, and each unrolled step compares its accesses
   * with all those before (a fuzzed input: 4 M lane pairs, 15 s in the fuzz
   * target). The unrolling attempt has its own share of the pair budget; the
   * general path still runs on what is left and finds the race of line 13 */
  fixture fx = analyze("__global__ void k(int *g) {\n"             /* 1 */
                       "  extern __shared__ int sdata[];\n"        /* 2 */
                       "  unsigned tid = threadIdx.x;\n"           /* 3 */
                       "  sdata[tid] = g[tid];\n"                  /* 4 */
                       "  __syncthreads();\n"                      /* 5 */
                       "  for (unsigned s = blockDim.x / 3;;) {\n" /* 6 */
                       "    if (tid < s)\n"                        /* 7 */
                       "      sdata[tid] += sdata[tid + s];\n"     /* 8 */
                       "    if (s > 32)\n"                         /* 9 */
                       "      __syncthreads();\n"                  /* 10 */
                       "    if (tid < 16)\n"                       /* 11 */
                       "      sdata[tid] += sdata[tid + 16];\n"    /* 12 */
                       "  }\n"                                     /* 13 */
                       "}\n");
  ck_assert_ptr_nonnull(race_on(&fx, 12));
  ck_assert_msg(!wl_smem_incomplete(fx.sm), "the general path ran out of budget");
  ck_assert_msg(wl_smem_pairs_examined(fx.sm) < 400000, "%lu lane pairs examined",
                wl_smem_pairs_examined(fx.sm));
  done(&fx);
}
END_TEST

START_TEST(test_unrolling_memory_is_bounded) {
  /* cudpp's mtf_localscan_lists_kernel held 1.2 GB: constant-trip loops are
   * unrolled (64 iterations here), and each unrolled iteration that runs a
   * loop of unknown trip count and joins states grew the arena (copies of
   * every lane's constraints for each pending access at each branch, before
   * drop_contradicted asked lane by lane). The races of lines 15 and 21 are
   * found, the function's budgets do not run out, and the analysis holds
   * under 128 MiB. Either of two changes keeps it there: the memory budgets
   * (ARENA_BUDGET, and UNROLL_ARENA_BUDGET for each unrolling attempt, past
   * which the general path runs) and the lane-by-lane check; without both,
   * this test held 1.28 GB. */
  fixture fx =
      analyze("__global__ void k(const unsigned char *in, int n) {\n"                 /* 1 */
              "  __shared__ unsigned char lists[256 * 64];\n"                         /* 2 */
              "  __shared__ int seen[1024];\n"                                        /* 3 */
              "  int lid = threadIdx.x, C[8];\n"                                      /* 4 */
              "  for (int i = lid; i < 1024; i += blockDim.x)\n"                      /* 5 */
              "    seen[i] = in[i];\n"                                                /* 6 */
              "  __syncthreads();\n"                                                  /* 7 */
              "  for (int i = 0; i < 8; i++)\n"                                       /* 8 */
              "    C[i] = seen[lid * 8 + i];\n"                                       /* 9 */
              "  /* the lists shift by one slot at each step */\n"                    /* 10 */
              "  for (int i = 0; i < 64; i++) {\n"                                    /* 11 */
              "    int v = in[lid * 64 + i], id = v / 32, bit = v % 32;\n"            /* 12 */
              "    if (!((C[id] << bit) & 0x80000000)) C[id] |= 1 << (31 - bit);\n"   /* 13 */
              "    for (int j = n; j > 0; j--)\n"                                     /* 14 */
              "      if (j < 256) lists[lid * 256 + j] = lists[lid * 256 + j - 1];\n" /* 15 */
              "  }\n"                                                                 /* 16 */
              "  for (int i = 0; i < 64; i++) {\n"                                    /* 17 */
              "    int v = in[lid * 64 + i], id = v / 32, bit = v % 32;\n"            /* 18 */
              "    if (!((C[id] << bit) & 0x80000000)) C[id] |= 1 << (31 - bit);\n"   /* 19 */
              "    for (int j = n; j > 0; j--)\n"                                     /* 20 */
              "      if (j < 256) lists[lid * 256 + j] = lists[lid * 256 + j - 1];\n" /* 21 */
              "  }\n"                                                                 /* 22 */
              "}\n");
  ck_assert_ptr_nonnull(race_on(&fx, 15));
  ck_assert_ptr_nonnull(race_on(&fx, 21));
  ck_assert_msg(wl_smem_nexhausted(fx.sm) == 0, "the function's budget ran out");
  ck_assert_msg(wl_smem_arena_peak(fx.sm) < ((size_t)128 << 20), "the analysis held %zu bytes",
                wl_smem_arena_peak(fx.sm));
  done(&fx);
}
END_TEST

START_TEST(test_failed_unrolling_gives_memory_back) {
  /* cuda-samples' immaTensorCoreGemm.cu: four unrolling attempts that failed
   * each left 33 MB in the arena (203 MiB peak for the file). The loops of
   * lines 5 and 10 run past MAX_UNROLL iterations: each attempt stops, frees
   * what it made, and the general path finds the races of lines 7 and 12;
   * the memory the analysis holds stays below what the attempts gave back. */
  const char *src = "__global__ void k(int *g) {\n"        /* 1 */
                    "  __shared__ int s[256];\n"           /* 2 */
                    "  int t = threadIdx.x & 31;\n"        /* 3 */
                    "  s[t] = g[t];\n"                     /* 4 */
                    "  for (int i = 0; i < 1000; i++) {\n" /* 5 */
                    "    if (t < 16)\n"                    /* 6 */
                    "      s[t] += s[t + 16] + i;\n"       /* 7 */
                    "    __syncwarp();\n"                  /* 8 */
                    "  }\n"                                /* 9 */
                    "  for (int i = 0; i < 1000; i++)\n"   /* 10 */
                    "    if (t < 8)\n"                     /* 11 */
                    "      s[t + 64] += s[t + 64 + 4];\n"  /* 12 */
                    "  g[t] = s[t];\n"                     /* 13 */
                    "}\n";
  fixture fx = analyze(src);
  ASSERT_RACES(fx, 7, 12);
  ck_assert_msg(wl_smem_arena_given_back(fx.sm) > 0, "the failed attempts gave nothing back");
  ck_assert_msg(wl_smem_arena_peak(fx.sm) < wl_smem_arena_given_back(fx.sm),
                "the analysis held %zu bytes, the attempts gave back %zu",
                wl_smem_arena_peak(fx.sm), wl_smem_arena_given_back(fx.sm));
  done(&fx);
  /* an attempt that records a return (the function's frame outlives it)
   * keeps its memory; the race of line 6 is still found */
  fixture fr = analyze("__device__ void f(int *g, int *s, int t) {\n" /* 1 */
                       "  for (int i = 0; i < 1000; i++) {\n"         /* 2 */
                       "    if (g[i] == 7)\n"                         /* 3 */
                       "      return;\n"                              /* 4 */
                       "    if (t < 16)\n"                            /* 5 */
                       "      s[t] += s[t + 16];\n"                   /* 6 */
                       "  }\n"                                        /* 7 */
                       "}\n"                                          /* 8 */
                       "__global__ void k(int *g) {\n"                /* 9 */
                       "  __shared__ int s[64];\n"                    /* 10 */
                       "  int t = threadIdx.x & 31;\n"                /* 11 */
                       "  s[t] = g[t];\n"                             /* 12 */
                       "  f(g, s, t);\n"                              /* 13 */
                       "}\n");
  ASSERT_RACES(fr, 6);
  done(&fr);
}
END_TEST

/* ---- the analysis in a reported header's view ------------------------------ */

/* The rules run on each reported header as if it were the file analyzed
 * (analyze.c: tu->path and tu->source are the header's); the analysis built
 * in the main file's view serves a header's view (wl_smem_serves_view) only
 * where it is the analysis that view builds. Each header is parsed with the
 * main file, written to a directory of its own. */
typedef struct view_unit {
  char dir[64];
  wl_tu *tu;
  wl_smem *main; /* built in the main file's view */
} view_unit;

static void view_write(const char *dir, const char *name, const char *text) {
  char path[128];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
}

static view_unit view_parse(const char *header, const char *main_text) {
  view_unit u;
  memset(&u, 0, sizeof u);
  snprintf(u.dir, sizeof u.dir, "/tmp/wl-views-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(u.dir));
  view_write(u.dir, "h.cuh", header);
  char path[128];
  snprintf(path, sizeof path, "%s/t.cu", u.dir);
  wl_parser *p = wl_parser_new();
  wl_parse_opts o;
  memset(&o, 0, sizeof o);
  o.arch = 75;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(wl_parse(p, path, main_text, &o, &u.tu, &err) == WL_PARSE_OK, "parse: %s",
                wl_buf_str(&err));
  wl_buf_free(&err);
  wl_parser_free(p);
  ck_assert_uint_eq(u.tu->nfiles, 1);
  u.main = wl_smem_build(u.tu);
  return u;
}

/* The unit in h.cuh's view, as analyze.c's tu_view_file makes it. */
static void view_header(view_unit *u) {
  u->tu->path = u->tu->files[0].name;
  u->tu->source = u->tu->files[0].source;
  u->tu->source_len = u->tu->files[0].source_len;
}

static void view_free(view_unit *u) {
  wl_smem_free(u->main);
  u->tu->path = u->tu->main_path; /* the arena owns the strings of either view */
  wl_tu_free(u->tu);
  char path[128];
  snprintf(path, sizeof path, "%s/h.cuh", u->dir);
  unlink(path);
  rmdir(u->dir);
}

/* The lines of the races in file `name` (the reading or clobbering access). */
static unsigned races_in(const wl_smem *sm, const char *name, unsigned *lines, unsigned max) {
  unsigned n = 0;
  for (size_t i = 0; i < wl_smem_nraces(sm); i++) {
    const wl_smem_race *r = wl_smem_race_at(sm, i);
    const char *f = r->second.expr->loc.file;
    if (f && strstr(f, name) && n < max)
      lines[n++] = r->second.expr->loc.line;
  }
  return n;
}

START_TEST(test_header_views) {
  /* a plain header: its view is served, and its own build finds the same */
  view_unit u = view_parse("__global__ void plain(int *out) {\n" /* 1 */
                           "  __shared__ int s[64];\n"           /* 2 */
                           "  int lane = threadIdx.x & 31;\n"    /* 3 */
                           "  s[lane] = out[lane];\n"            /* 4 */
                           "  out[lane] = s[(lane + 1) & 31];\n" /* 5 */
                           "}\n",
                           "#include \"h.cuh\"\n");
  view_header(&u);
  ck_assert(wl_smem_serves_view(u.main, u.tu));
  wl_smem *own = wl_smem_build(u.tu);
  unsigned a[4], b[4];
  ck_assert_uint_eq(races_in(u.main, "h.cuh", a, 4), 1);
  ck_assert_uint_eq(races_in(own, "h.cuh", b, 4), 1);
  ck_assert_uint_eq(a[0], 5);
  ck_assert_uint_eq(b[0], 5);
  ck_assert(!wl_smem_serves_view(own, u.tu)); /* built in the header's view */
  wl_smem_free(own);
  view_free(&u);

  /* a cast whose spelling (between < and >) is s's element type and whose
   * type is not: the header's view reads it, the main file's does not, and
   * only the header's view pairs the store through q with s's elements */
  u = view_parse("template <typename T> struct V { typedef T R; };\n"     /* 1 */
                 "__global__ void spelled(unsigned char *out) {\n"        /* 2 */
                 "  __shared__ unsigned char s[64];\n"                    /* 3 */
                 "  int lane = threadIdx.x & 31;\n"                       /* 4 */
                 "  V<unsigned char>::R *q = (V<unsigned char>::R *)s;\n" /* 5 */
                 "  q[lane] = out[lane];\n"                               /* 6 */
                 "  out[lane] = s[(lane + 1) & 31];\n"                    /* 7 */
                 "}\n",
                 "#include \"h.cuh\"\n");
  ck_assert_uint_eq(races_in(u.main, "h.cuh", a, 4), 0);
  view_header(&u);
  ck_assert(!wl_smem_serves_view(u.main, u.tu));
  own = wl_smem_build(u.tu);
  ck_assert_uint_eq(races_in(own, "h.cuh", b, 4), 1);
  ck_assert_uint_eq(b[0], 7);
  wl_smem_free(own);
  view_free(&u);

  /* the same cast spelled as its type: both views read the same type */
  u = view_parse("__global__ void same(unsigned char *out) {\n" /* 1 */
                 "  __shared__ unsigned char s[64];\n"          /* 2 */
                 "  int lane = threadIdx.x & 31;\n"             /* 3 */
                 "  unsigned char *q = (unsigned char *)s;\n"   /* 4 */
                 "  q[lane] = out[lane];\n"                     /* 5 */
                 "  out[lane] = s[(lane + 1) & 31];\n"          /* 6 */
                 "}\n",
                 "#include \"h.cuh\"\n");
  view_header(&u);
  ck_assert(wl_smem_serves_view(u.main, u.tu));
  ck_assert_uint_eq(races_in(u.main, "h.cuh", a, 4), 1);
  view_free(&u);

  /* an unresolved library call in the main file that passes a __shared__
   * variable, read from the main file's text in its own view only (it may
   * hold a barrier): no header's view is served */
  u = view_parse("__device__ int get(int *s, int lane) {\n" /* 1 */
                 "  int r = s[(lane + 1) & 31];\n"          /* 2 */
                 "  return r - 1;\n"                        /* 3 */
                 "}\n"                                      /* 4 */
                 "__device__ void put(int *s, int lane, int v) {\n"
                 "  int w = v * 2;\n"   /* 6 */
                 "  s[lane] = w + 1;\n" /* 7 */
                 "}\n",
                 "#include \"h.cuh\"\n"
                 "template <int BLOCK>\n"
                 "__global__ void k(int *out) {\n"
                 "  typedef cub::BlockReduce<int, BLOCK> R;\n"
                 "  __shared__ typename R::TempStorage temp;\n"
                 "  __shared__ int s[64];\n"
                 "  int lane = threadIdx.x & 31;\n"
                 "  int x = get(s, lane);\n"
                 "  int total = R(temp).Sum(x);\n"
                 "  put(s, lane, x + total);\n"
                 "  out[lane] = x;\n"
                 "}\n");
  ck_assert_uint_eq(races_in(u.main, "h.cuh", a, 4), 0);
  view_header(&u);
  ck_assert(!wl_smem_serves_view(u.main, u.tu));
  own = wl_smem_build(u.tu);
  ck_assert_uint_eq(races_in(own, "h.cuh", b, 4), 1);
  ck_assert_uint_eq(b[0], 7);
  wl_smem_free(own);
  view_free(&u);
}
END_TEST

Suite *wl_suite_shared(void) {
  Suite *s = suite_create("shared");
  TCase *tc = tcase_create("analysis");
  tcase_add_test(tc, test_storage_through_pointers);
  tcase_add_test(tc, test_storage_through_references_and_calls);
  tcase_add_test(tc, test_warp_reduce_interprocedural);
  tcase_add_test(tc, test_listing7_and_8);
  tcase_add_test(tc, test_collectives_order_reads_only);
  tcase_add_test(tc, test_data_index_lockstep);
  tcase_add_test(tc, test_lane_sets);
  tcase_add_test(tc, test_barriers_on_every_path);
  tcase_add_test(tc, test_loops);
  tcase_add_test(tc, test_ping_pong_buffers);
  tcase_add_test(tc, test_block_level_tree);
  tcase_add_test(tc, test_transposed_2d);
  tcase_add_test(tc, test_same_element_writes_and_unknown_indexes);
  tcase_add_test(tc, test_same_element_writes_of_unknown_values);
  tcase_add_test(tc, test_shared_memory_template_idiom);
  tcase_add_test(tc, test_more_storage_shapes);
  tcase_add_test(tc, test_host_sizes_and_lane_factors);
  tcase_add_test(tc, test_unknown_lane_conditions);
  tcase_add_test(tc, test_two_dim_blocks);
  tcase_add_test(tc, test_narrow_types_and_loops);
  tcase_add_test(tc, test_thread_below_block_size);
  tcase_add_test(tc, test_loop_without_end_is_bounded);
  tcase_add_test(tc, test_unrolling_memory_is_bounded);
  tcase_add_test(tc, test_failed_unrolling_gives_memory_back);
  tcase_add_test(tc, test_header_views);
  suite_add_tcase(s, tc);
  return s;
}
