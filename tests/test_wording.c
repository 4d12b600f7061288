/* test_wording.c - the phrases the rules' messages share
 * (rules/support/wording.h) on snippets parsed in memory. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "lanes.h"
#include "support/snippet.h"
#include "wording.h"

Suite *wl_suite_wording(void);

typedef struct fixture {
  wl_tu *tu;
  wl_lanes *l;
} fixture;

static fixture analyze(const char *src) {
  fixture fx = {wl_snippet_parse(src, true), NULL};
  wl_lanes_opts lo;
  wl_lanes_opts_init(&lo);
  fx.l = wl_lanes_new(fx.tu, &lo);
  return fx;
}

static void done(fixture *fx) {
  wl_lanes_free(fx->l);
  wl_tu_free(fx->tu);
}

START_TEST(test_macro_site) {
  fixture fx = analyze("#define __shfl(x, y) __shfl_sync(0xffffffff, x, y)\n"
                       "__global__ void k(int *p) {\n"
                       "  int v = p[0];\n"
                       "  if (threadIdx.x & 1) v = __shfl(v, 0);\n"
                       "  p[0] = v;\n"
                       "}\n");
  const wl_expr *const *c;
  ck_assert_uint_eq(wl_lanes_collectives(fx.l, &c), 1);
  const wl_macro_info *m = NULL;
  wl_range r = wl_wording_site(fx.tu, c[0], &m);
  ck_assert_ptr_null(m);
  ck_assert_uint_eq(r.begin.line, 4); /* the expansion, not the definition */
  ck_assert_uint_eq(r.begin.col, 28);
  wl_lane_reach why;
  ck_assert(wl_lanes_reach_expr(fx.l, c[0], &why) && why.partial);
  char text[128];
  wl_wording_reach(fx.tu, &why, text, sizeof text);
  ck_assert_str_eq(text, "under the lane-dependent condition 'threadIdx.x & 1' (line 4)");
  done(&fx);
}
END_TEST

START_TEST(test_reach_phrases) {
  fixture fx = analyze("__global__ void k(int *p, int n) {\n"
                       "  int v = p[0];\n"
                       "  for (int i = 0; i < threadIdx.x; i++)\n"
                       "    v = __shfl_sync(0xffffffff, v, 0);\n"
                       "  if (threadIdx.x == 3) return;\n"
                       "  v = __shfl_sync(0xffffffff, v, 1);\n"
                       "  p[0] = v;\n"
                       "}\n");
  const wl_expr *const *c;
  ck_assert_uint_eq(wl_lanes_collectives(fx.l, &c), 2);
  wl_lane_reach why;
  char text[160];
  ck_assert(wl_lanes_reach_expr(fx.l, c[0], &why) && why.partial);
  wl_wording_reach(fx.tu, &why, text, sizeof text);
  ck_assert_str_eq(text,
                   "in a loop whose trip count is lane-dependent ('i < threadIdx.x') (line 3)");
  ck_assert(wl_lanes_reach_expr(fx.l, c[1], &why) && why.partial);
  wl_wording_reach(fx.tu, &why, text, sizeof text);
  ck_assert_str_eq(
      text, "after the 'return' at line 5 that the lanes where 'threadIdx.x == 3' holds take");
  ck_assert_str_eq(wl_wording_call_name(c[1]), "__shfl_sync");
  done(&fx);
}
END_TEST

START_TEST(test_lane_sets) {
  char buf[64];
  wl_wording_lanes(0x000000ffu | (1u << 16) | 0xfffc0000u, buf, sizeof buf);
  ck_assert_str_eq(buf, "0-7, 16, 18-31");
  wl_wording_lanes(0, buf, sizeof buf);
  ck_assert_str_eq(buf, "");
  wl_wording_lanes(0x55555555u, buf, 20); /* truncated to fit */
  ck_assert_uint_lt(strlen(buf), 20);
  ck_assert(strncmp(buf, "0, 2, 4", 7) == 0);
}
END_TEST

Suite *wl_suite_wording(void) {
  Suite *s = suite_create("wording");
  TCase *t = tcase_create("phrases");
  tcase_add_test(t, test_macro_site);
  tcase_add_test(t, test_reach_phrases);
  tcase_add_test(t, test_lane_sets);
  suite_add_tcase(s, t);
  return s;
}
