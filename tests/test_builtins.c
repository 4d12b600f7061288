/* test_builtins.c - unit tests of the catalog of CUDA built-ins
 * (analyzer/analysis/builtins.def and builtins.c). */
#include <check.h>
#include <string.h>

#include "builtins.h"
#include "support/snippet.h"

Suite *wl_suite_builtins(void);

static const char *const legacy_names[] = {"__shfl",   "__shfl_up", "__shfl_down", "__shfl_xor",
                                           "__ballot", "__any",     "__all"};

/* Every legacy form names its replacement, which is in the catalog with the
 * same kind and the same arguments after a leading mask. */
START_TEST(test_legacy_forms_and_replacements) {
  for (size_t i = 0; i < sizeof legacy_names / sizeof legacy_names[0]; i++) {
    const wl_builtin *b = wl_builtin_find(legacy_names[i]);
    ck_assert_ptr_nonnull(b);
    ck_assert(b->legacy && b->orders == WL_BO_NONE && b->mask_arg == -1);
    ck_assert(wl_builtin_is_warp_intrinsic(b));
    const wl_builtin *r = wl_builtin_find(b->replacement);
    ck_assert_msg(r != NULL, "%s: replacement %s not in the catalog", b->name, b->replacement);
    ck_assert(!r->legacy && r->kind == b->kind && r->mask_arg == 0);
    ck_assert_int_eq(r->orders, WL_BO_COLLECTIVE);
    ck_assert_int_eq(r->src_arg, b->src_arg < 0 ? -1 : b->src_arg + 1);
    ck_assert_int_eq(r->width_arg, b->width_arg < 0 ? -1 : b->width_arg + 1);
    ck_assert_uint_eq(strlen(r->name), strlen(b->name) + 5); /* name + "_sync" */
    ck_assert(strncmp(r->name, b->name, strlen(b->name)) == 0);
  }
  ck_assert_ptr_null(wl_builtin_find("__shfl_sync")->replacement);
}
END_TEST

START_TEST(test_lookup_and_properties) {
  ck_assert_ptr_null(wl_builtin_find(NULL));
  ck_assert_ptr_null(wl_builtin_find("my_helper"));
  /* every atomic* is the atomic entry: its old value differs between lanes */
  const wl_builtin *a = wl_builtin_find("atomicAdd");
  ck_assert(a && a->kind == WL_BK_ATOMIC && a->result == WL_BR_LANE && !a->pure);
  ck_assert_ptr_eq(wl_builtin_find("atomicCAS"), a);
  /* barriers, collectives, and what they order */
  ck_assert_int_eq(wl_builtin_find("__syncwarp")->orders, WL_BO_BARRIER);
  ck_assert_int_eq(wl_builtin_find("sync")->orders, WL_BO_BARRIER);
  ck_assert_int_eq(wl_builtin_find("__syncthreads_count")->result, WL_BR_UNIFORM);
  ck_assert_int_eq(wl_builtin_find("__reduce_add_sync")->orders, WL_BO_COLLECTIVE);
  ck_assert_int_eq(wl_builtin_find("reduce")->orders, WL_BO_COLLECTIVE);
  ck_assert_int_eq(wl_builtin_find("reduce")->form, WL_BF_CG);
  /* cooperative-groups methods are not warp intrinsics */
  ck_assert(!wl_builtin_is_warp_intrinsic(wl_builtin_find("shfl_down")));
  ck_assert(wl_builtin_is_shuffle(wl_builtin_find("shfl_down")));
  ck_assert(wl_builtin_is_warp_intrinsic(wl_builtin_find("__syncwarp")));
  ck_assert(!wl_builtin_is_warp_intrinsic(wl_builtin_find("__syncthreads")));
  /* pure: no side effects; a lane mask is pure but not a function of its arguments */
  const wl_builtin *lm = wl_builtin_find("__lanemask_lt");
  ck_assert(lm->pure && lm->result == WL_BR_LANE);
  ck_assert(wl_builtin_find("umin")->pure && wl_builtin_find("umin")->result == WL_BR_ARGS);
  ck_assert(!wl_builtin_find("clock")->pure);
}
END_TEST

START_TEST(test_shuffle_sources) {
  /* __shfl_sync(m, v, 3, 8): every lane of a segment of 8 reads its lane 3 */
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL, 13, 3, 8), 11);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL, 13, -1, 32), 31);
  /* up and down keep their own value at the segment's edge */
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL_UP, 17, 2, 16), 17);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL_UP, 19, 2, 16), 17);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL_DOWN, 30, 4, 32), 30);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL_DOWN, 3, 4, 32), 7);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_SHFL_XOR, 5, 1, 32), 4);
  ck_assert_int_eq(wl_builtin_shuffle_source(WL_BK_VOTE, 5, 1, 32), -1);
}
END_TEST

/* The call of the statement `<call>;` in the one function of tu. */
static const wl_expr *first_call(const wl_tu *tu, unsigned stmt) {
  const wl_stmt *body = tu->funcs[0]->body;
  ck_assert_uint_gt(body->nkids, stmt);
  const wl_stmt *s = body->kids[stmt];
  ck_assert_ptr_nonnull(s->expr);
  return s->expr;
}

START_TEST(test_call_facts) {
  wl_tu *tu = wl_snippet_parse("__global__ void k(unsigned *o, int v) {\n"
                               "  __activemask();\n"
                               "  (unsigned)__ballot_sync(0xffffffff, v);\n"
                               "  __any_sync(0xffffffff, v);\n"
                               "  __match_any_sync(0xffffffff, v);\n"
                               "  __popc(v);\n"
                               "}\n",
                               true);
  ck_assert_ptr_nonnull(wl_builtin_call(first_call(tu, 0), WL_BK_ACTIVEMASK, WL_BF_INTRINSIC));
  ck_assert_ptr_null(wl_builtin_call(first_call(tu, 0), WL_BK_VOTE, WL_BF_INTRINSIC));
  const wl_builtin *b = wl_builtin_call(first_call(tu, 1), WL_BK_VOTE, WL_BF_INTRINSIC);
  ck_assert(b && wl_builtin_vote_is_ballot(b)); /* through the cast */
  b = wl_builtin_call(first_call(tu, 2), WL_BK_VOTE, WL_BF_INTRINSIC);
  ck_assert(b && !wl_builtin_vote_is_ballot(b));
  ck_assert_ptr_nonnull(wl_builtin_call(first_call(tu, 3), WL_BK_MATCH, WL_BF_INTRINSIC));
  ck_assert_ptr_null(wl_builtin_call(first_call(tu, 3), WL_BK_MATCH, WL_BF_CG));
  ck_assert_ptr_null(wl_builtin_call(first_call(tu, 4), WL_BK_ACTIVEMASK, WL_BF_INTRINSIC));
  ck_assert_ptr_null(wl_builtin_call(NULL, WL_BK_ACTIVEMASK, WL_BF_INTRINSIC));
  wl_tu_free(tu);
  ck_assert(wl_builtin_vote_is_ballot(wl_builtin_find("ballot")));
  ck_assert(wl_builtin_vote_is_ballot(wl_builtin_find("__ballot")));
  ck_assert(!wl_builtin_vote_is_ballot(wl_builtin_find("__all_sync")));
  ck_assert_str_eq(wl_builtin_group_type(wl_builtin_find("this_grid")), "grid_group");
  ck_assert_str_eq(wl_builtin_group_type(wl_builtin_find("this_thread_block")), "thread_block");
  ck_assert_ptr_null(wl_builtin_group_type(wl_builtin_find("tiled_partition")));
}
END_TEST

START_TEST(test_names) {
  ck_assert(wl_builtin_name_says_lane("laneId"));
  ck_assert(wl_builtin_name_says_lane("get_lane"));
  ck_assert(wl_builtin_name_says_lane("lane_num"));
  ck_assert(!wl_builtin_name_says_lane("planet"));
  ck_assert(wl_builtin_name_says_warp("warpId"));
  ck_assert(wl_builtin_name_says_warp("wid"));
  ck_assert(!wl_builtin_name_says_warp("width"));
}
END_TEST

Suite *wl_suite_builtins(void) {
  Suite *s = suite_create("builtins");
  TCase *tc = tcase_create("catalog");
  tcase_add_test(tc, test_legacy_forms_and_replacements);
  tcase_add_test(tc, test_lookup_and_properties);
  tcase_add_test(tc, test_shuffle_sources);
  tcase_add_test(tc, test_names);
  tcase_add_test(tc, test_call_facts);
  suite_add_tcase(s, tc);
  return s;
}
