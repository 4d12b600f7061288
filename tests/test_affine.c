/* test_affine.c - unit tests of lane forms and the feasibility check
 * (analyzer/analysis/affine.c). */
#include <check.h>

#include "affine.h"

Suite *wl_suite_affine(void);

/* ---- lane forms ---------------------------------------------------------- */

typedef struct forms {
  wl_arena ar;
  wl_lctx lc;
  unsigned w; /* the warp's index in the block */
} forms;

static void forms_init(forms *f) {
  wl_arena_init(&f->ar);
  wl_lctx_init(&f->lc, &f->ar);
  f->w = wl_sym_named(&f->lc, NULL, "W", 0, 31);
}

static void forms_free(forms *f) {
  wl_lctx_free(&f->lc);
  wl_arena_free(&f->ar);
}

/* threadIdx.x == 32 * W + lane */
static const wl_lform *tid_x(forms *f) {
  return wl_lf_add(&f->lc, wl_lf_lane(&f->lc), wl_lf_sym(&f->lc, f->w, 32));
}

static const wl_lform *k(forms *f, long long v) { return wl_lf_const(&f->lc, v); }

START_TEST(test_form_lane_of_thread_index) {
  forms f;
  forms_init(&f);
  const wl_lform *t = tid_x(&f);
  ck_assert(!wl_lf_concrete(t));
  /* % 32, & 31 and >> 5 / 32 drop or keep the warp's part exactly */
  const wl_lform *lane = wl_lf_op(&f.lc, WL_LOP_REM, t, k(&f, 32));
  ck_assert(wl_lf_equal(lane, wl_lf_lane(&f.lc)));
  ck_assert(wl_lf_equal(wl_lf_op(&f.lc, WL_LOP_AND, t, k(&f, 31)), wl_lf_lane(&f.lc)));
  const wl_lform *warp = wl_lf_op(&f.lc, WL_LOP_DIV, t, k(&f, 32));
  ck_assert(wl_lf_equal(warp, wl_lf_sym(&f.lc, f.w, 1)));
  ck_assert(wl_lf_equal(wl_lf_op(&f.lc, WL_LOP_SHR, t, k(&f, 5)), warp));
  /* Listing 6: x2 = tid / 4 keeps 8*W, y2 = tid % 4 is concrete */
  const wl_lform *x2 = wl_lf_op(&f.lc, WL_LOP_DIV, t, k(&f, 4));
  const wl_lform *y2 = wl_lf_op(&f.lc, WL_LOP_REM, t, k(&f, 4));
  ck_assert(wl_lf_concrete(y2));
  long long v;
  ck_assert(wl_lf_at(y2, 7, &v) && v == 3);
  ck_assert(!wl_lf_concrete(x2));
  ck_assert(wl_lf_at(wl_lf_sub(&f.lc, x2, wl_lf_sym(&f.lc, f.w, 8)), 13, &v) && v == 3);
  /* (lane + 31) & 31 is the previous lane, around the warp */
  const wl_lform *prev =
      wl_lf_op(&f.lc, WL_LOP_AND, wl_lf_add(&f.lc, wl_lf_lane(&f.lc), k(&f, 31)), k(&f, 31));
  ck_assert(wl_lf_at(prev, 0, &v) && v == 31);
  ck_assert(wl_lf_at(prev, 5, &v) && v == 4);
  /* (threadIdx.x ^ 1) keeps the warp's part: 32 * W + (lane ^ 1) */
  const wl_lform *x1 = wl_lf_op(&f.lc, WL_LOP_XOR, t, k(&f, 1));
  ck_assert(wl_lf_at(wl_lf_sub(&f.lc, x1, wl_lf_sym(&f.lc, f.w, 32)), 6, &v) && v == 7);
  /* a lane-dependent value times an unknown has no exact % */
  unsigned s = wl_sym_fresh(&f.lc, "s", 1, WL_INF);
  const wl_lform *ls = wl_lf_mul(&f.lc, wl_lf_lane(&f.lc), wl_lf_sym(&f.lc, s, 1));
  ck_assert_ptr_nonnull(ls);
  ck_assert_ptr_null(wl_lf_op(&f.lc, WL_LOP_REM, ls, k(&f, 32)));
  /* uniform operands give an opaque symbol, the same one each time */
  const wl_lform *o1 = wl_lf_op(&f.lc, WL_LOP_SHR, wl_lf_sym(&f.lc, s, 1), k(&f, 1));
  const wl_lform *o2 = wl_lf_op(&f.lc, WL_LOP_SHR, wl_lf_sym(&f.lc, s, 1), k(&f, 1));
  ck_assert(wl_lf_uniform(o1) && !wl_lf_concrete(o1) && wl_lf_equal(o1, o2));
  forms_free(&f);
}
END_TEST

static wl_lcons cons(const wl_lform *f, unsigned lane, wl_cop op) {
  wl_lcons c;
  wl_lin_at(f, lane, &c.lin);
  c.op = op;
  return c;
}

START_TEST(test_feasibility) {
  forms f;
  forms_init(&f);
  /* the block tree step: lanes below s write tid, read tid + s; s > 32 */
  unsigned s = wl_sym_fresh(&f.lc, "s", 0, 512);
  const wl_lform *sf = wl_lf_sym(&f.lc, s, 1);
  const wl_lform *t = tid_x(&f);
  wl_lcons v[4];
  v[0] = cons(wl_lf_sub(&f.lc, k(&f, 33), sf), 0, WL_C_LE); /* 33 - s <= 0 */
  /* lane 3 reads tid + s == lane 7's tid */
  wl_lin a, b;
  wl_lin_at(wl_lf_add(&f.lc, t, sf), 3, &a);
  wl_lin_at(t, 7, &b);
  wl_lin_sub(&a, &b, &v[1].lin);
  v[1].op = WL_C_EQ;
  ck_assert(!wl_lcons_feasible(&f.lc, v, 2)); /* s == 4 contradicts s >= 33 */
  /* with s > 0 only, the pair meets (s == 4)... */
  v[0] = cons(wl_lf_sub(&f.lc, k(&f, 1), sf), 0, WL_C_LE);
  ck_assert(wl_lcons_feasible(&f.lc, v, 2));
  /* ...unless both lanes are below s: lane 7 < s and s == 4 cannot hold */
  v[2] = cons(wl_lf_add(&f.lc, wl_lf_sub(&f.lc, t, sf), k(&f, 1)), 7, WL_C_LE);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 3));
  /* gcd: 32 * (p - q) == 5 has no integer solution */
  unsigned p = wl_sym_fresh(&f.lc, "p", 0, WL_INF), q = wl_sym_fresh(&f.lc, "q", 0, WL_INF);
  const wl_lform *d =
      wl_lf_scale(&f.lc, wl_lf_sub(&f.lc, wl_lf_sym(&f.lc, p, 1), wl_lf_sym(&f.lc, q, 1)), 32);
  v[0] = cons(wl_lf_sub(&f.lc, d, k(&f, 5)), 0, WL_C_EQ);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 1));
  v[0] = cons(wl_lf_sub(&f.lc, d, k(&f, 64)), 0, WL_C_EQ);
  ck_assert(wl_lcons_feasible(&f.lc, v, 1));
  /* threadIdx.x == 0 holds in lane 0 only (W >= 0) */
  v[0] = cons(t, 0, WL_C_EQ);
  ck_assert(wl_lcons_feasible(&f.lc, v, 1));
  v[0] = cons(t, 9, WL_C_EQ);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 1));
  /* small finite domains are decided exactly: 3 * W == 31 + 2 * W and W != 31 */
  v[0] = cons(wl_lf_sub(&f.lc, wl_lf_sym(&f.lc, f.w, 1), k(&f, 31)), 0, WL_C_EQ);
  v[1] = cons(wl_lf_sub(&f.lc, wl_lf_sym(&f.lc, f.w, 1), k(&f, 31)), 0, WL_C_NE);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 2));
  forms_free(&f);
}
END_TEST

START_TEST(test_feasibility_relations) {
  forms f;
  forms_init(&f);
  wl_lcons v[4];
  /* o = x >> 1 is below x when x >= 1: o == x needs x == 0 */
  unsigned x = wl_sym_fresh(&f.lc, "x", 0, WL_INF);
  const wl_lform *xf = wl_lf_sym(&f.lc, x, 1);
  const wl_lform *o = wl_lf_op(&f.lc, WL_LOP_SHR, xf, k(&f, 1));
  ck_assert(wl_lf_uniform(o) && !wl_lf_equal(o, xf));
  v[0] = cons(wl_lf_sub(&f.lc, o, xf), 0, WL_C_EQ);
  ck_assert(wl_lcons_feasible(&f.lc, v, 1)); /* x == 0 */
  v[1] = cons(xf, 0, WL_C_NE);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 2));
  /* o == x - 1 holds for x == 1 and x == 2 */
  v[0] = cons(wl_lf_sub(&f.lc, wl_lf_add(&f.lc, o, k(&f, 1)), xf), 0, WL_C_EQ);
  ck_assert(wl_lcons_feasible(&f.lc, v, 2));
  /* x / 4 == 3 and x <= 11 contradict */
  const wl_lform *q = wl_lf_op(&f.lc, WL_LOP_DIV, xf, k(&f, 4));
  v[0] = cons(wl_lf_sub(&f.lc, q, k(&f, 3)), 0, WL_C_EQ);
  v[1] = cons(wl_lf_sub(&f.lc, xf, k(&f, 11)), 0, WL_C_LE);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 2));
  v[1] = cons(wl_lf_sub(&f.lc, xf, k(&f, 12)), 0, WL_C_LE);
  ck_assert(wl_lcons_feasible(&f.lc, v, 2));
  /* a != on a variable that bounds pin to 0 is decided even when another
   * variable is unbounded (the != row is split into < and >) */
  unsigned y = wl_sym_fresh(&f.lc, "y", 0, 3), z = wl_sym_fresh(&f.lc, "z", -WL_INF, WL_INF);
  const wl_lform *yf = wl_lf_sym(&f.lc, y, 1), *zf = wl_lf_sym(&f.lc, z, 1);
  v[0] = cons(yf, 0, WL_C_NE);
  v[1] = cons(yf, 0, WL_C_LE);
  v[2] = cons(wl_lf_sub(&f.lc, zf, k(&f, 5)), 0, WL_C_NE);
  ck_assert(!wl_lcons_feasible(&f.lc, v, 3));
  v[1] = cons(wl_lf_sub(&f.lc, yf, k(&f, 1)), 0, WL_C_LE);
  ck_assert(wl_lcons_feasible(&f.lc, v, 3));
  /* products and operations of a host-chosen value are host-chosen */
  unsigned p = wl_sym_named(&f.lc, NULL, "p", -WL_INF, WL_INF);
  wl_sym_set_param(&f.lc, p);
  const wl_lform *pf = wl_lf_sym(&f.lc, p, 1);
  wl_lin l;
  wl_lin_at(wl_lf_add(&f.lc, tid_x(&f), pf), 3, &l);
  ck_assert(wl_lin_has_param(&f.lc, &l));
  wl_lin_at(wl_lf_mul(&f.lc, xf, pf), 0, &l);
  ck_assert(wl_lin_has_param(&f.lc, &l));
  wl_lin_at(wl_lf_op(&f.lc, WL_LOP_DIV, pf, k(&f, 2)), 0, &l);
  ck_assert(wl_lin_has_param(&f.lc, &l));
  wl_lin_at(wl_lf_add(&f.lc, tid_x(&f), xf), 3, &l);
  ck_assert(!wl_lin_has_param(&f.lc, &l));
  forms_free(&f);
}
END_TEST

START_TEST(test_thread_below_block_size) {
  /* the solver: W <= K - 1 once recorded (threadIdx.x < blockDim.x == 32 * K) */
  forms f;
  forms_init(&f);
  unsigned kk = wl_sym_named(&f.lc, NULL, "K", 1, 32);
  wl_lcons ge; /* K - W <= 0 */
  wl_lin_sub(&(wl_lin){.ok = true, .n = 1, .sym = {kk}, .k = {1}},
             &(wl_lin){.ok = true, .n = 1, .sym = {f.w}, .k = {1}}, &ge.lin);
  ge.op = WL_C_LE;
  ck_assert(wl_lcons_feasible(&f.lc, &ge, 1));
  wl_sym_set_below(&f.lc, f.w, kk);
  ck_assert(!wl_lcons_feasible(&f.lc, &ge, 1));
  ge.lin.c = 1; /* K - W + 1 <= 0 */
  ck_assert(!wl_lcons_feasible(&f.lc, &ge, 1));
  ge.lin.c = -1; /* K - W - 1 <= 0: W == K - 1 */
  ck_assert(wl_lcons_feasible(&f.lc, &ge, 1));
  forms_free(&f);
}
END_TEST

Suite *wl_suite_affine(void) {
  Suite *s = suite_create("affine");
  TCase *tc = tcase_create("forms");
  tcase_add_test(tc, test_form_lane_of_thread_index);
  tcase_add_test(tc, test_feasibility);
  tcase_add_test(tc, test_feasibility_relations);
  tcase_add_test(tc, test_thread_below_block_size);
  suite_add_tcase(s, tc);
  return s;
}
