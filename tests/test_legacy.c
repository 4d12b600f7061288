/* test_legacy.c - rule legacy-intrinsic: messages, positions, macro notes. */
#include <check.h>
#include <string.h>

#include "analyze.h"
#include "rules.h"
#include "support/snippet.h"

Suite *wl_suite_legacy(void);

static void analyze_src(const char *src, wl_findings *f) { wl_snippet_analyze(src, NULL, f); }

static size_t count_rule(const wl_findings *f, const char *rule) {
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++)
    n += strcmp(f->v[i].rule, rule) == 0;
  return n;
}

START_TEST(test_message_names_replacement_and_reason) {
  wl_findings f;
  wl_findings_init(&f);
  analyze_src("__global__ void k(float *o) {\n"
              "  float v = o[threadIdx.x];\n"
              "  v += __shfl_down(v, 16);\n"
              "  if (__ballot(v > 0)) o[0] = v;\n"
              "}\n",
              &f);
  ck_assert_uint_eq(count_rule(&f, "legacy-intrinsic"), 2);
  ck_assert_uint_eq(f.v[0].line, 3);
  ck_assert_uint_eq(f.v[0].col, 8);
  ck_assert_uint_eq(f.v[0].end_col, 26);
  ck_assert_ptr_nonnull(strstr(f.v[0].message, "__shfl_down_sync(mask, ...)"));
  ck_assert_ptr_nonnull(strstr(f.v[0].message, "identifier \"__shfl_down\" is undefined"));
  ck_assert_str_eq(f.v[0].line_text, "  v += __shfl_down(v, 16);");
  ck_assert_ptr_nonnull(strstr(f.v[1].message, "__ballot_sync(mask, ...)"));
  ck_assert_ptr_nonnull(strstr(f.v[1].message, "ptxas rejects 'vote' without '.sync'"));
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_macro_reported_once_with_expansion_notes) {
  wl_findings f;
  wl_findings_init(&f);
  analyze_src("#define RED(v) v += __shfl_xor(v, 16)\n"
              "__global__ void k(float *o) {\n"
              "  float a = o[0], b = o[1];\n"
              "  RED(a);\n"
              "  RED(b);\n"
              "}\n",
              &f);
  ck_assert_uint_eq(count_rule(&f, "legacy-intrinsic"), 1);
  ck_assert_uint_eq(f.v[0].line, 1);
  ck_assert_uint_eq(f.v[0].nnotes, 2); /* the two expansions */
  ck_assert_uint_eq(f.v[0].notes[0].line, 4);
  ck_assert_uint_eq(f.v[0].notes[1].line, 5);
  ck_assert_ptr_nonnull(strstr(f.v[0].notes[0].message, "'RED'"));
  /* both expansions reach it with the whole warp: the definition is fixed */
  ck_assert_uint_eq(f.v[0].nedits, 2);
  ck_assert_str_eq(f.v[0].edits[0].text, "__shfl_xor_sync");
  ck_assert_str_eq(f.v[0].edits[1].text, "0xffffffff, ");
  ck_assert_ptr_null(f.v[0].suggestion);
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_user_double_overload) {
  wl_findings f;
  wl_findings_init(&f);
  analyze_src("__device__ inline double __shfl_down(double var, unsigned int d, int width = 32) {\n"
              "  int2 a = *reinterpret_cast<int2 *>(&var);\n"
              "  a.x = __shfl_down(a.x, d, width);\n"
              "  a.y = __shfl_down(a.y, d, width);\n"
              "  return *reinterpret_cast<double *>(&a);\n"
              "}\n"
              "__global__ void k(double *o) { o[0] = __shfl_down(o[0], 1); }\n",
              &f);
  ck_assert_uint_eq(count_rule(&f, "legacy-intrinsic"), 4);
  /* the definition: a redefinition for nvcc 9+, deleted by the fix since every call is fixed */
  ck_assert_uint_eq(f.v[0].line, 1);
  ck_assert_ptr_nonnull(strstr(f.v[0].message, "redefinition"));
  ck_assert_uint_eq(f.v[0].nedits, 1);
  ck_assert_uint_eq(f.v[0].edits[0].offset, 0);
  ck_assert_str_eq(f.v[0].edits[0].text, "");
  /* the call of the overload */
  ck_assert_uint_eq(f.v[3].line, 7);
  ck_assert_ptr_nonnull(strstr(f.v[3].message, "double"));
  ck_assert_ptr_nonnull(strstr(f.v[3].message, "delete the overload"));
  ck_assert_uint_eq(f.v[3].nnotes, 1);
  ck_assert_uint_eq(f.v[3].notes[0].line, 1);
  ck_assert_uint_eq(f.v[3].nedits, 2);
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_never_reported) {
  wl_findings f;
  wl_findings_init(&f);
  analyze_src("struct S { int __any_count; __device__ int __all(int x) { return x; } };\n"
              "__device__ int my__shfl(int x) { return x; }\n"
              "__global__ void k(float *o, S s) {\n"
              "  // __shfl_down(v, 1)\n"
              "  const char *t = \"__ballot(1)\";\n"
              "  o[0] = my__shfl(s.__any_count) + s.__all(1);\n"
              "#if __CUDACC_VER_MAJOR__ < 9\n"
              "  o[1] = __shfl(o[1], 0);\n"
              "#endif\n"
              "  o[2] = __shfl_sync(0xffffffff, o[2], 0) + __ballot_sync(0xffffffff, 1);\n"
              "  asm volatile(\"shfl.sync.idx.b32 %0, %0, 0, 0x1f, -1;\" : \"+f\"(o[3]));\n"
              "}\n",
              &f);
  ck_assert_uint_eq(count_rule(&f, "legacy-intrinsic"), 0);
  wl_findings_free(&f);
}
END_TEST

Suite *wl_suite_legacy(void) {
  Suite *s = suite_create("legacy");
  TCase *tc = tcase_create("legacy-intrinsic");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_message_names_replacement_and_reason);
  tcase_add_test(tc, test_macro_reported_once_with_expansion_notes);
  tcase_add_test(tc, test_user_double_overload);
  tcase_add_test(tc, test_never_reported);
  suite_add_tcase(s, tc);
  return s;
}
