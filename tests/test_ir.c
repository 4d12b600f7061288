/* test_ir.c - unit tests of the lowering from libclang's cursors to the IR. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir.h"
#include "parse.h"
#include "support/snippet.h"

Suite *wl_suite_ir(void);

static wl_tu *parse_src(const char *src) { return wl_snippet_parse(src, false); }

static const wl_func *func(const wl_tu *tu, const char *name) {
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (strcmp(tu->funcs[i]->name, name) == 0)
      return tu->funcs[i];
  ck_abort_msg("no function %s", name);
  return NULL;
}

typedef struct find_ctx {
  const char *name;
  wl_expr_kind kind;
  int nth;
  const wl_expr *found;
} find_ctx;

static bool find_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  find_ctx *fc = ud;
  if (fc->found)
    return false;
  if (e->kind == fc->kind && (!fc->name || (e->name && strcmp(e->name, fc->name) == 0)) &&
      fc->nth-- == 0)
    fc->found = e;
  return true;
}

static const wl_expr *nth_expr(const wl_func *f, wl_expr_kind kind, const char *name, int nth) {
  find_ctx fc = {name, kind, nth, NULL};
  wl_visitor v = {NULL, find_expr, &fc, false};
  wl_walk_stmt(f->body, &v);
  return fc.found;
}

static const wl_stmt *body_stmt(const wl_func *f, unsigned i) {
  ck_assert_ptr_nonnull(f->body);
  ck_assert_int_eq(f->body->kind, WL_S_COMPOUND);
  ck_assert_uint_gt(f->body->nkids, i);
  return f->body->kids[i];
}

START_TEST(test_function_kinds) {
  wl_tu *tu = parse_src(
      "__global__ void k(int *p) { p[0] = 1; }\n"
      "__device__ int d(int x) { return x; }\n"
      "__host__ __device__ int hd(int x) { return x; }\n"
      "int h(int x) { return x; }\n"
      "template <typename T> __device__ T t(T v) { return v; }\n"
      "struct S { __device__ int m() { return 1; } };\n"
      "__global__ void l() { auto f = [] __device__ (int x) { return x + 1; }; f(1); }\n");
  ck_assert_uint_eq(func(tu, "k")->flags & WL_F_GLOBAL, WL_F_GLOBAL);
  ck_assert_uint_eq(func(tu, "d")->flags & (WL_F_DEVICE | WL_F_HOST), WL_F_DEVICE);
  ck_assert_uint_eq(func(tu, "hd")->flags & (WL_F_DEVICE | WL_F_HOST), WL_F_DEVICE | WL_F_HOST);
  ck_assert_uint_eq(func(tu, "h")->flags & (WL_F_DEVICE | WL_F_HOST), WL_F_HOST);
  ck_assert(func(tu, "t")->flags & WL_F_TEMPLATE);
  ck_assert(func(tu, "m")->flags & WL_F_METHOD);
  ck_assert_uint_eq(func(tu, "k")->nparams, 1);
  ck_assert_str_eq(func(tu, "k")->params[0]->name, "p");
  ck_assert(func(tu, "k")->params[0]->type & WL_T_POINTER);
  /* the lambda is a function of its own, linked from its expression */
  const wl_expr *lam = nth_expr(func(tu, "l"), WL_E_LAMBDA, NULL, 0);
  ck_assert_ptr_nonnull(lam);
  ck_assert_ptr_nonnull(lam->lambda);
  ck_assert(lam->lambda->flags & WL_F_LAMBDA);
  ck_assert_ptr_eq(lam->lambda->parent, func(tu, "l"));
  ck_assert_uint_eq(lam->lambda->nparams, 1);
  wl_tu_free(tu);
}
END_TEST

/* wl_count_assignments: each local and parameter counts the expressions of
 * its function's body that may change it, lambdas being functions of their
 * own: the same numbers a walk of the body gives for every variable named. */
typedef struct count_walk {
  const wl_var *v;
  unsigned n;
} count_walk;

static bool walk_count(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  count_walk *cw = ud;
  cw->n += wl_assigned_var(e) == cw->v;
  return true;
}

static bool check_ref_count(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  const wl_func *f = ud;
  if (e->kind != WL_E_REF || !wl_assignments_counted(e->var) || e->var->assigned_many)
    return true;
  count_walk cw = {e->var, 0};
  wl_visitor w = {NULL, walk_count, &cw, false};
  wl_walk_stmt(f->body, &w);
  unsigned memo = e->var->assigned_in == f ? e->var->nassigned : 0;
  ck_assert_msg(memo == cw.n, "%s in %s: %u counted, %u by a walk", e->var->name, f->name, memo,
                cw.n);
  return true;
}

START_TEST(test_assignment_counts) {
  wl_tu *tu = parse_src("__device__ int g;\n"
                        "__global__ void k(int *p, int n) {\n"
                        "  int a = 1, b = 2, c = 3, d;\n"
                        "  a += n; b++; --b; int *q = &c; d = a;\n"
                        "  auto f = [&] __device__ (int x) { c = x; return a + x; };\n"
                        "  for (int i = 0; i < n; i++) p[i] = f(i) + b + d + *q;\n"
                        "  n = 0; g = n;\n"
                        "}\n");
  const wl_func *k = func(tu, "k");
  ck_assert(k->assigns_counted);
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    wl_visitor v = {NULL, check_ref_count, (void *)tu->funcs[i], false};
    if (tu->funcs[i]->body)
      wl_walk_stmt(tu->funcs[i]->body, &v);
  }
  /* a: initialized, then +=; b: ++ and --; c: its address taken in k, set
   * in the lambda (counted there); n: a parameter set once; g: a global,
   * not counted */
  const wl_expr *a = nth_expr(k, WL_E_REF, "a", 0), *b = nth_expr(k, WL_E_REF, "b", 0);
  const wl_expr *c = nth_expr(k, WL_E_REF, "c", 0), *n = nth_expr(k, WL_E_REF, "n", 0);
  const wl_expr *g = nth_expr(k, WL_E_REF, "g", 0);
  ck_assert_uint_eq(a->var->nassigned, 1);
  ck_assert_uint_eq(b->var->nassigned, 2);
  ck_assert(c->var->assigned_many);
  ck_assert_uint_eq(n->var->nassigned, 1);
  ck_assert(!wl_assignments_counted(g->var));
  wl_tu_free(tu);
}
END_TEST

/* The parent a walk of the whole body finds: the first statement holding
 * s as then_s, else_s or a kid (wl_stmt_parent's answer before it kept
 * parents). */
typedef struct parent_walk {
  const wl_stmt *target, *parent;
} parent_walk;

static bool walk_parent(const wl_stmt *s, void *ud) {
  parent_walk *pw = ud;
  if (pw->parent)
    return false;
  if (s->then_s == pw->target || s->else_s == pw->target)
    pw->parent = s;
  for (unsigned i = 0; i < s->nkids && !pw->parent; i++)
    if (s->kids[i] == pw->target)
      pw->parent = s;
  return !pw->parent;
}

typedef struct parent_check {
  const wl_func *asked; /* the function wl_stmt_parent is asked about */
  const wl_func *owner; /* the function whose body is walked */
  unsigned n;
} parent_check;

static bool check_parent(const wl_stmt *s, void *ud) {
  parent_check *pc = ud;
  parent_walk pw = {s, NULL};
  wl_visitor w = {walk_parent, NULL, &pw, false};
  if (pc->asked == pc->owner)
    wl_walk_stmt(pc->asked->body, &w);
  ck_assert_ptr_eq(wl_stmt_parent(pc->asked, s), pw.parent);
  pc->n++;
  return true;
}

/* wl_stmt_parent gives what a walk of the body finds, for every statement
 * of every function (a for's init has none; a lambda's statements belong
 * to the lambda, not to the function holding it). */
START_TEST(test_stmt_parents) {
  wl_tu *tu =
      parse_src("__global__ void k(int *p, int n) {\n"
                "  int t = threadIdx.x;\n"
                "  if (t < 16) { p[t] = 1; if (n) p[0] = 2; else { p[1] = 3; } }\n"
                "  else p[t] = 4;\n"
                "  for (int i = 0; i < n; i++) { while (p[i]) p[i]--; }\n"
                "  auto f = [&] __device__ (int x) { if (x) p[x] = x; return x; };\n"
                "  switch (n) { case 1: p[2] = f(1); break; default: do { n--; } while (n); }\n"
                "}\n"
                "__device__ int g(int a) { { { return a; } } }\n");
  unsigned total = 0;
  for (unsigned i = 0; i < tu->nfuncs; i++)
    for (unsigned j = 0; j < tu->nfuncs; j++) {
      const wl_func *asked = tu->funcs[i], *owner = tu->funcs[j];
      if (!owner->body)
        continue;
      parent_check pc = {asked, owner, 0};
      wl_visitor v = {check_parent, NULL, &pc, false};
      wl_walk_stmt(owner->body, &v);
      total += pc.n;
    }
  ck_assert_uint_gt(total, 20);
  const wl_func *k = func(tu, "k");
  ck_assert_ptr_null(wl_stmt_parent(k, k->body));
  ck_assert_ptr_eq(wl_stmt_parent(k, body_stmt(k, 1)), k->body);
  wl_tu_free(tu);
}
END_TEST

/* A static_assert in a function body keeps its condition on its DECL
 * statement, outside what visitors walk. */
START_TEST(test_static_assert_cond) {
  wl_tu *tu = parse_src("template <int D> __global__ void k(float *p) {\n"
                        "  static_assert(D % 64 == 0, \"D\");\n"
                        "  int x = 1;\n"
                        "  p[0] = x;\n"
                        "}\n");
  const wl_stmt *sa = body_stmt(func(tu, "k"), 0), *decl = body_stmt(func(tu, "k"), 1);
  ck_assert_int_eq(sa->kind, WL_S_DECL);
  ck_assert_uint_eq(sa->nvars, 0);
  ck_assert_ptr_nonnull(sa->assert_cond);
  const wl_expr *c = wl_expr_strip(sa->assert_cond);
  ck_assert_int_eq(c->kind, WL_E_BINARY);
  ck_assert_int_eq(c->op, WL_B_EQ);
  const wl_expr *m = wl_expr_strip(c->args[0]);
  ck_assert_int_eq(m->kind, WL_E_BINARY);
  ck_assert_int_eq(m->op, WL_B_REM);
  ck_assert_str_eq(wl_expr_strip(m->args[0])->name, "D");
  ck_assert_ptr_null(decl->assert_cond);
  ck_assert_uint_eq(decl->nvars, 1);
  /* not walked: no reference to D is visited */
  ck_assert_ptr_null(nth_expr(func(tu, "k"), WL_E_REF, "D", 0));
  wl_tu_free(tu);
}
END_TEST

/* A constructor keeps its member initializers; a function named as a value
 * (a kernel handed to a launch wrapper) carries its USR, a specialization's
 * and a template's overload set the template's. */
START_TEST(test_ctor_inits_and_function_refs) {
  wl_tu *tu =
      parse_src("struct P {\n"
                "  dim3 g, b;\n"
                "  P(const dim3 &g_, const dim3 &b_) : g(g_), b(b_) {}\n"
                "};\n"
                "template <typename K> void launch(K k, const P &p) { k<<<p.g, p.b>>>(); }\n"
                "__global__ void kern() {}\n"
                "template <int N> __global__ void kt() {}\n"
                "template <int N> void host_t(const P &p) { launch(kt<N>, p); }\n"
                "void host(const P &p) { launch(kern, p); launch(kt<2>, p); }\n");
  const wl_func *ctor = func(tu, "P");
  ck_assert_uint_eq(ctor->nminits, 2);
  ck_assert_str_eq(ctor->minit_names[0], "g");
  ck_assert_str_eq(ctor->minit_names[1], "b");
  find_ctx fc = {"b_", WL_E_REF, 0, NULL};
  wl_visitor v = {NULL, find_expr, &fc, false};
  wl_walk_expr(ctor->minit_exprs[1], NULL, &v);
  ck_assert_ptr_nonnull(fc.found);
  ck_assert(fc.found->var && (fc.found->var->flags & WL_V_PARAM));
  ck_assert_uint_eq(func(tu, "host")->nminits, 0);
  const wl_expr *k = nth_expr(func(tu, "host"), WL_E_REF, "kern", 0);
  ck_assert_ptr_nonnull(k);
  ck_assert_str_eq(k->callee_usr, func(tu, "kern")->usr);
  const wl_expr *ks = nth_expr(func(tu, "host"), WL_E_REF, "kt", 0);
  ck_assert_ptr_nonnull(ks);
  ck_assert_str_eq(ks->callee_usr, func(tu, "kt")->usr);
  const wl_expr *kd = nth_expr(func(tu, "host_t"), WL_E_REF, "kt", 0);
  ck_assert_ptr_nonnull(kd);
  ck_assert_str_eq(kd->callee_usr, func(tu, "kt")->usr);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_control_flow) {
  wl_tu *tu = parse_src("__global__ void k(int *p, int n) {\n"
                        "  if (n > 1) p[0] = 1; else p[1] = 2;\n"
                        "  if (n) { p[2] = 3; }\n"
                        "  for (int i = 0; i < n; ++i) p[i] = i;\n"
                        "  for (; n > 0; ) n--;\n"
                        "  for (;;) break;\n"
                        "  while (n < 10) { n++; continue; }\n"
                        "  do n--; while (n);\n"
                        "  switch (n) { case 1: p[0] = 0; break; default: return; }\n"
                        "}\n");
  const wl_func *k = func(tu, "k");
  const wl_stmt *s = body_stmt(k, 0);
  ck_assert_int_eq(s->kind, WL_S_IF);
  ck_assert_ptr_nonnull(s->expr);
  ck_assert_int_eq(s->expr->kind, WL_E_BINARY);
  ck_assert_int_eq(s->expr->op, WL_B_GT);
  ck_assert_ptr_nonnull(s->then_s);
  ck_assert_ptr_nonnull(s->else_s);
  ck_assert_ptr_null(s->init);
  s = body_stmt(k, 1);
  ck_assert_int_eq(s->kind, WL_S_IF);
  ck_assert_ptr_null(s->else_s);
  ck_assert_int_eq(s->then_s->kind, WL_S_COMPOUND);
  s = body_stmt(k, 2);
  ck_assert_int_eq(s->kind, WL_S_FOR);
  ck_assert_ptr_nonnull(s->init);
  ck_assert_int_eq(s->init->kind, WL_S_DECL);
  ck_assert_str_eq(s->init->vars[0]->name, "i");
  ck_assert_int_eq(s->expr->op, WL_B_LT);
  ck_assert_int_eq(s->inc->kind, WL_E_UNARY);
  ck_assert_int_eq(s->inc->op, WL_U_PREINC);
  s = body_stmt(k, 3); /* for (; cond; ) */
  ck_assert_ptr_null(s->init);
  ck_assert_ptr_nonnull(s->expr);
  ck_assert_ptr_null(s->inc);
  ck_assert_ptr_nonnull(s->then_s);
  s = body_stmt(k, 4); /* for (;;) */
  ck_assert_ptr_null(s->expr);
  ck_assert_int_eq(s->then_s->kind, WL_S_BREAK);
  s = body_stmt(k, 5);
  ck_assert_int_eq(s->kind, WL_S_WHILE);
  ck_assert_int_eq(s->then_s->kids[1]->kind, WL_S_CONTINUE);
  s = body_stmt(k, 6);
  ck_assert_int_eq(s->kind, WL_S_DO);
  ck_assert_ptr_nonnull(s->expr);
  s = body_stmt(k, 7);
  ck_assert_int_eq(s->kind, WL_S_SWITCH);
  ck_assert_int_eq(s->then_s->kids[0]->kind, WL_S_CASE);
  ck_assert(s->then_s->kids[0]->expr->has_ival);
  ck_assert_int_eq(s->then_s->kids[0]->expr->ival, 1);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_expressions_and_variables) {
  wl_tu *tu = parse_src("#define FULL_MASK 0xffffffff\n"
                        "__device__ int helper(int a, int w = 32) { return a; }\n"
                        "__global__ void k(volatile float *vp, float v) {\n"
                        "  __shared__ float smem[4][8];\n"
                        "  extern __shared__ int dyn[];\n"
                        "  const int N = 16;\n"
                        "  unsigned tid = threadIdx.x;\n"
                        "  smem[tid / 8][tid % 8] = v;\n"
                        "  dyn[tid] += dyn[tid + N];\n"
                        "  v = __shfl_down_sync(FULL_MASK, v, 1);\n"
                        "  int h = helper(3);\n"
                        "  unsigned m = ~0u;\n"
                        "}\n");
  const wl_func *k = func(tu, "k");
  ck_assert(k->params[0]->type & WL_T_VOLATILE);
  ck_assert(k->params[0]->type & WL_T_POINTER);
  const wl_stmt *d = body_stmt(k, 0);
  ck_assert_int_eq(d->kind, WL_S_DECL);
  ck_assert(d->vars[0]->flags & WL_V_SHARED);
  ck_assert_uint_eq(d->vars[0]->ndims, 2);
  ck_assert_uint_eq(d->vars[0]->dims[0], 4);
  ck_assert_uint_eq(d->vars[0]->dims[1], 8);
  ck_assert_ptr_null(d->vars[0]->init); /* an array extent is not an initializer */
  d = body_stmt(k, 1);
  ck_assert(d->vars[0]->flags & WL_V_SHARED);
  ck_assert(d->vars[0]->flags & WL_V_EXTERN);
  d = body_stmt(k, 2);
  ck_assert(d->vars[0]->has_ival);
  ck_assert_int_eq(d->vars[0]->ival, 16);
  /* threadIdx.x: a member of the built-in variable */
  const wl_expr *tid = body_stmt(k, 3)->vars[0]->init;
  tid = wl_expr_strip(tid);
  ck_assert_int_eq(tid->kind, WL_E_MEMBER);
  ck_assert_str_eq(tid->name, "x");
  ck_assert_str_eq(tid->args[0]->name, "threadIdx");
  /* 2-D subscript */
  const wl_expr *st = body_stmt(k, 4)->expr;
  ck_assert_int_eq(st->kind, WL_E_BINARY);
  ck_assert_int_eq(st->op, WL_B_ASSIGN);
  ck_assert_int_eq(st->args[0]->kind, WL_E_INDEX);
  ck_assert_int_eq(wl_expr_strip(st->args[0]->args[0])->kind, WL_E_INDEX);
  /* compound assignment */
  const wl_expr *ca = body_stmt(k, 5)->expr;
  ck_assert_int_eq(ca->op, WL_B_ADD_ASSIGN);
  ck_assert(wl_binop_is_compound(ca->op));
  const wl_expr *ref = wl_expr_strip(wl_expr_strip(ca->args[0])->args[0]);
  ck_assert_int_eq(ref->kind, WL_E_REF);
  ck_assert(ref->var->flags & WL_V_SHARED);
  /* the call: mask from a macro folds, default width is not an argument */
  const wl_expr *call = nth_expr(k, WL_E_CALL, "__shfl_down_sync", 0);
  ck_assert_ptr_nonnull(call);
  ck_assert_uint_eq(call->nargs, 3);
  ck_assert(call->callee_in_prelude);
  const wl_expr *mask = wl_expr_strip(call->args[0]);
  ck_assert(mask->has_ival);
  ck_assert_int_eq(mask->ival, 0xffffffffLL);
  ck_assert_ptr_nonnull(mask->macro);
  ck_assert_str_eq(mask->macro->name, "FULL_MASK");
  ck_assert_uint_eq(call->loc.line, 10);
  ck_assert_uint_eq(call->loc.col, 7);
  /* a user function: linked, not in the prelude, default argument dropped */
  const wl_expr *hc = nth_expr(k, WL_E_CALL, "helper", 0);
  ck_assert_ptr_eq(hc->callee, func(tu, "helper"));
  ck_assert(!hc->callee_in_prelude);
  ck_assert_uint_eq(hc->nargs, 1);
  /* ~0u folds */
  const wl_expr *m = wl_expr_strip(body_stmt(k, 8)->vars[0]->init);
  ck_assert_int_eq(m->kind, WL_E_UNARY);
  ck_assert_int_eq(m->op, WL_U_NOT);
  ck_assert(m->has_ival);
  ck_assert_int_eq(m->ival & 0xffffffffLL, 0xffffffffLL);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_asm_and_dependent_calls) {
  wl_tu *tu =
      parse_src("template <typename T> __device__ T r(T v) {\n"
                "  for (int o = 16; o > 0; o /= 2) v += __shfl_xor(v, o);\n"
                "  return v;\n"
                "}\n"
                "__global__ void k(int *p) {\n"
                "  int x;\n"
                "  asm volatile(\"shfl.down.b32 %0, %1, 1, 0x1f;\" : \"=r\"(x) : \"r\"(p[0]));\n"
                "}\n");
  const wl_expr *c = nth_expr(func(tu, "r"), WL_E_CALL, "__shfl_xor", 0);
  ck_assert_ptr_nonnull(c);
  ck_assert(c->callee_in_prelude);
  ck_assert_uint_eq(c->nargs, 2);
  const wl_stmt *a = body_stmt(func(tu, "k"), 1);
  ck_assert_int_eq(a->kind, WL_S_ASM);
  ck_assert_str_eq(a->asm_text, "shfl.down.b32 %0, %1, 1, 0x1f;");
  ck_assert_uint_eq(a->asm_range.begin.line, 7);
  ck_assert_uint_eq(a->asm_range.begin.col, 16);
  wl_tu_free(tu);
}
END_TEST

/* Missing includes and unknown types never stop the analysis of the rest. */
START_TEST(test_recovery) {
  wl_tu *tu = parse_src("#include \"does_not_exist.h\"\n"
                        "__global__ void k(UnknownType *p, float *out) {\n"
                        "  float v = out[threadIdx.x];\n"
                        "  v += __shfl_down(v, 16);\n"
                        "  out[0] = v + undeclared_fn(v);\n"
                        "}\n");
  ck_assert_uint_ge(tu->ndiags, 1);
  const wl_func *k = func(tu, "k");
  ck_assert_ptr_nonnull(nth_expr(k, WL_E_CALL, "__shfl_down", 0));
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_inactive_branches_and_arch) {
  wl_tu *tu =
      parse_src("__global__ void k(float *out) {\n"
                "#if __CUDACC_VER_MAJOR__ < 9\n"
                "  out[0] = __shfl_down(out[0], 1);\n"
                "#endif\n"
                "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && CUDART_VERSION >= 9000\n"
                "  out[1] = __shfl_down_sync(0xffffffff, out[1], 1);\n"
                "#endif\n"
                "}\n");
  const wl_func *k = func(tu, "k");
  ck_assert_ptr_null(nth_expr(k, WL_E_CALL, "__shfl_down", 0));
  ck_assert_ptr_nonnull(nth_expr(k, WL_E_CALL, "__shfl_down_sync", 0));
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_cooperative_groups_prelude) {
  wl_tu *tu = parse_src(
      "#include <cooperative_groups.h>\n"
      "namespace cg = cooperative_groups;\n"
      "__global__ void k(float *out) {\n"
      "  cg::thread_block_tile<32> t = cg::tiled_partition<32>(cg::this_thread_block());\n"
      "  float v = out[t.thread_rank()];\n"
      "  v += t.shfl_down(v, 1);\n"
      "  t.sync();\n"
      "}\n");
  ck_assert_uint_eq(tu->ndiags, 0);
  const wl_expr *c = nth_expr(func(tu, "k"), WL_E_CALL, "shfl_down", 0);
  ck_assert_ptr_nonnull(c);
  ck_assert(c->callee_is_method);
  ck_assert_int_eq(c->callee_expr->kind, WL_E_MEMBER);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_parse_arch) {
  ck_assert_uint_eq(wl_parse_arch("sm_75"), 75);
  ck_assert_uint_eq(wl_parse_arch("90"), 90);
  ck_assert_uint_eq(wl_parse_arch("compute_70"), 70);
  ck_assert_uint_eq(wl_parse_arch("8.6"), 86);
  ck_assert_uint_eq(wl_parse_arch("sm_90a"), 90);
  ck_assert_uint_eq(wl_parse_arch("sm_"), 0);
  ck_assert_uint_eq(wl_parse_arch("banana"), 0);
}
END_TEST

/* Function templates know their parameters and the instantiations the file
 * shows: explicit instantiations (read from the text, libclang skips them)
 * and calls or launches naming the arguments; duplicates once. */
START_TEST(test_template_instantiations) {
  wl_tu *tu =
      parse_src("template <typename T, int W> __global__ void k(T *p) { p[0] = W; }\n"
                "template __global__ void k<float, 4>(float *);\n"
                "// template __global__ void k<float, 99>(float *);\n"
                "template __global__ void k<int, 0x10u>(int *);\n"
                "void go(float *f) { k<float, 8><<<1, 32>>>(f); k<float, 4><<<1, 32>>>(f); }\n"
                "template <int N> __device__ int g() { return N; }\n");
  const wl_func *k = NULL, *g = NULL;
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    if (strcmp(tu->funcs[i]->name, "k") == 0)
      k = tu->funcs[i];
    if (strcmp(tu->funcs[i]->name, "g") == 0)
      g = tu->funcs[i];
  }
  ck_assert_ptr_nonnull(k);
  ck_assert_uint_eq(k->ntparams, 2);
  ck_assert_str_eq(k->tparams[0], "T");
  ck_assert_str_eq(k->tparams[1], "W");
  ck_assert_uint_eq(k->ntinsts, 3); /* 8 (launch), 4 (explicit and launch), 16 */
  long long seen = 0;
  for (unsigned i = 0; i < k->ntinsts; i++) {
    ck_assert(!k->tinsts[i].known[0]);
    ck_assert(k->tinsts[i].known[1]);
    seen += k->tinsts[i].vals[1];
  }
  ck_assert_int_eq(seen, 8 + 4 + 16);
  ck_assert_ptr_nonnull(g);
  ck_assert_uint_eq(g->ntinsts, 0);
  wl_tu_free(tu);
}
END_TEST

/* `Iterate<1, (1 << STEPS)>::Scan(...)` in a member of an enclosing class
 * template: a dependent name clang leaves unresolved. The call gets the
 * member's name, the class template's parameter names and the arguments its
 * qualifier names, and is linked to the primary template's member that takes
 * that many arguments (not the partial specialization's, nor a member of
 * another class of the same name). */
START_TEST(test_dependent_class_member_calls) {
  wl_tu *tu =
      parse_src("template <int L, int STEPS = L> struct Scan {\n"
                "  template <int OFF, int WIDTH> struct Iterate {\n"
                "    template <typename T> static __device__ T Run(T x, int tid) {\n"
                "      return Iterate<OFF * 2, WIDTH>::Run(x, tid);\n"
                "    }\n"
                "  };\n"
                "  template <int WIDTH> struct Iterate<WIDTH, WIDTH> {\n"
                "    template <typename T> static __device__ T Run(T x, int) { return x; }\n"
                "  };\n"
                "  template <typename T> static __device__ T Go(T x, int tid = threadIdx.x) {\n"
                "    return Iterate<1, (1 << STEPS)>::Run(x, tid);\n"
                "  }\n"
                "};\n"
                "template <int L> struct Other {\n"
                "  template <int OFF, int W> struct Iterate {\n"
                "    template <typename T> static __device__ T Run(T x, int tid) { return x; }\n"
                "  };\n"
                "};\n");
  const wl_func *go = func(tu, "Go");
  ck_assert_ptr_nonnull(go);
  const wl_expr *c = nth_expr(go, WL_E_CALL, "Run", 0);
  ck_assert_ptr_nonnull(c);
  ck_assert_ptr_nonnull(c->callee_class_usr);
  ck_assert_uint_eq(c->nctparams, 2);
  ck_assert_str_eq(c->ctparams[0], "OFF");
  ck_assert_str_eq(c->ctparams[1], "WIDTH");
  ck_assert_uint_eq(c->nctargs, 2);
  ck_assert(c->ctargs[0] && c->ctargs[0]->has_ival && c->ctargs[0]->ival == 1);
  ck_assert_ptr_nonnull(c->ctargs[1]); /* (1 << STEPS), evaluated by the analysis */
  ck_assert_uint_eq(c->ntargs, 0);
  const wl_func *run = c->callee;
  ck_assert_ptr_nonnull(run);
  ck_assert_uint_eq(run->loc.line, 3); /* the primary template's, not line 8's or line 16's */
  const wl_expr *r = nth_expr(run, WL_E_CALL, "Run", 0);
  ck_assert_ptr_nonnull(r);
  ck_assert_ptr_eq(r->callee, run); /* the recursion */
  wl_tu_free(tu);
}
END_TEST

/* A call naming a function template's arguments keeps each argument's
 * expression in order, types left out (NULL), in a template as outside one,
 * whatever the types in between (`int` has no cursor of its own). */
START_TEST(test_call_template_arguments) {
  wl_tu *tu = parse_src("#define LOG 5\n"
                        "template <class T, class U, bool B, unsigned L>\n"
                        "__device__ void f(T v) {}\n"
                        "template <class T, class U> __device__ void g(T v) {\n"
                        "  f<T, U, false, LOG>(v);\n"
                        "  f<int, U, true, (LOG + 2) * 3>(1);\n"
                        "}\n"
                        "template <int P> struct It {\n"
                        "  template <int Q> static __device__ int k(int x) { return x + Q; }\n"
                        "};\n"
                        "__device__ void h() {\n"
                        "  f<int, float, false, 4>(1); f(2); It<3>::k<5>(4);\n"
                        "}\n");
  const wl_func *g = func(tu, "g"), *h = func(tu, "h");
  const wl_expr *c0 = nth_expr(g, WL_E_CALL, "f", 0), *c1 = nth_expr(g, WL_E_CALL, "f", 1);
  const wl_expr *c2 = nth_expr(h, WL_E_CALL, "f", 0), *c3 = nth_expr(h, WL_E_CALL, "f", 1);
  ck_assert_ptr_nonnull(c0);
  ck_assert_uint_eq(c0->ntargs, 4);
  ck_assert_ptr_null(c0->targs[0]);
  ck_assert_ptr_null(c0->targs[1]);
  ck_assert_ptr_nonnull(c0->targs[2]);
  ck_assert_ptr_nonnull(c0->targs[3]);
  ck_assert(c0->targs[3]->has_ival && c0->targs[3]->ival == 5);
  ck_assert_ptr_nonnull(c1);
  ck_assert_uint_eq(c1->ntargs, 4);
  ck_assert_ptr_null(c1->targs[0]);
  ck_assert_ptr_nonnull(c1->targs[2]);
  ck_assert_ptr_nonnull(c1->targs[3]); /* (LOG + 2) * 3, evaluated by the analysis */
  ck_assert_ptr_nonnull(c2);
  ck_assert_uint_eq(c2->ntargs, 4);
  ck_assert(c2->targs[3] && c2->targs[3]->has_ival && c2->targs[3]->ival == 4);
  ck_assert_ptr_nonnull(c3);
  ck_assert_uint_eq(c3->ntargs, 0);
  const wl_expr *c4 = nth_expr(h, WL_E_CALL, "k", 0); /* the method's, not the class's */
  ck_assert_ptr_nonnull(c4);
  ck_assert_uint_le(c4->ntargs, 1);
  ck_assert(!c4->ntargs || (c4->targs[0] && c4->targs[0]->ival == 5));
  wl_tu_free(tu);
}
END_TEST

/* A call of a member of a class template specialization names the
 * instantiation clang made, whose body has the template's arguments as
 * numbers; the template's own member is marked as its pattern. A parameter
 * declared as an array is a pointer, its extents those of its element. */
START_TEST(test_class_template_members) {
  wl_tu *tu = parse_src("template <int N> struct S {\n"
                        "  static __device__ int f(volatile int w[][N], int t = threadIdx.x) {\n"
                        "    return w[1][t - N];\n"
                        "  }\n"
                        "};\n"
                        "__global__ void k(int *o) {\n"
                        "  __shared__ volatile int w[2][32];\n"
                        "  o[0] = S<32>::f(w);\n"
                        "}\n");
  const wl_func *pattern = NULL, *inst = NULL;
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (strcmp(tu->funcs[i]->name, "f") == 0) {
      if (tu->funcs[i]->pattern_usr)
        inst = tu->funcs[i];
      else
        pattern = tu->funcs[i];
    }
  ck_assert_ptr_nonnull(pattern);
  ck_assert_ptr_nonnull(inst);
  ck_assert_str_eq(inst->pattern_usr, pattern->usr);
  const wl_expr *call = nth_expr(func(tu, "k"), WL_E_CALL, "f", 0);
  ck_assert_ptr_nonnull(call);
  ck_assert_ptr_eq(call->callee, inst);
  ck_assert_uint_eq(inst->nparams, 2);
  const wl_var *w = inst->params[0];
  ck_assert(w->type & WL_T_POINTER);
  ck_assert(!(w->type & WL_T_ARRAY));
  ck_assert_uint_eq(w->ndims, 1);
  ck_assert_uint_eq(w->dims[0], 32);
  ck_assert_ptr_nonnull(inst->params[1]->init); /* the default argument */
  /* N in the instantiation's body is the number 32 */
  const wl_expr *sub = nth_expr(inst, WL_E_BINARY, NULL, 0);
  ck_assert_ptr_nonnull(sub);
  ck_assert_int_eq(sub->nargs, 2);
  ck_assert_int_eq(sub->args[1]->kind, WL_E_INT);
  ck_assert_int_eq(sub->args[1]->ival, 32);
  wl_tu_free(tu);
}
END_TEST

/* A chain of overloaded operators (gtest's `<< a << b ...`): each level is
 * lowered once; lowering an operand as the callee too took time and memory
 * doubling with every `<<` (a 60-level chain: 2^60). */
START_TEST(test_operator_chain_linear) {
  char src[4096];
  size_t n =
      (size_t)snprintf(src, sizeof src, "struct S { S &operator<<(int); };\nvoid f(S &s) { s");
  for (int i = 0; i < 60; i++)
    n += (size_t)snprintf(src + n, sizeof src - n, " << %d", i);
  snprintf(src + n, sizeof src - n, "; }\n");
  wl_tu *tu = parse_src(src);
  const wl_func *f = func(tu, "f");
  const wl_stmt *b = f->body;
  ck_assert_uint_ge(b->nkids, 1);
  const wl_expr *e = wl_expr_strip(b->kids[0]->expr);
  unsigned depth = 0;
  while (e && e->kind == WL_E_CALL && e->nargs == 2) { /* operator<<(lhs, rhs) */
    ck_assert_ptr_nonnull(e->callee_expr);
    ck_assert(e->callee_expr->kind != WL_E_CALL);
    e = wl_expr_strip(e->args[0]);
    depth++;
  }
  ck_assert_uint_eq(depth, 60);
  wl_tu_free(tu);
}
END_TEST

/* glibc's uint/ushort/ulong, which nvcc's headers bring in on Linux: legacy
 * kernels that use them parse without errors (else their bodies are lost). */
/* Legacy half-precision code, parsed with the built-in prelude (no toolkit):
 * the stand-ins of <cuda_fp16.h>, <cuda_bf16.h> and <math_constants.h> leave
 * no parse error, so every body is kept, and the legacy shuffle of a __half
 * resolves (the template of the legacy declarations). */
START_TEST(test_half_prelude) {
  wl_tu *tu = parse_src(
      "#include <cuda_fp16.h>\n"
      "#include <cuda_bf16.h>\n"
      "#include <math_constants.h>\n"
      "__device__ half2 dot2(const half2 *a, const half2 *b, int i) {\n"
      "  half2 s = __hmul2(a[i], b[i]);\n"
      "  s = __hfma2(a[i + 1], b[i + 1], s) + s;\n"
      "  return __hadd2(s, __float2half2_rn(0.0f));\n"
      "}\n"
      "__global__ void k(const half2 *a, const half2 *b, half *out, float *f,\n"
      "                  __nv_bfloat16 *bo) {\n"
      "  __shared__ half sh[64];\n"
      "  half2 v = dot2(a, b, threadIdx.x);\n"
      "  half h = __hadd(__low2half(v), __high2half(v));\n"
      "  h += __float2half(CUDART_PI_F * (float)CUDART_SQRT_HALF);\n"
      "  h = __shfl_down(h, 16);\n"
      "  sh[threadIdx.x] = h;\n"
      "  if (__hgt(h, CUDART_ZERO_FP16) && h < __halves2half2(h, h).x)\n"
      "    out[threadIdx.x] = __hneg(h);\n"
      "  f[threadIdx.x] = __half2float(sh[threadIdx.x ^ 1]) + __low2float(v) +\n"
      "                   (CUDART_INF_F > 0.0f ? 1.0f : 0.0f);\n"
      "  __nv_bfloat162 b2 = __floats2bfloat162_rn(f[0], f[1]);\n"
      "  bo[threadIdx.x] = __hadd(__low2bfloat16(b2), __float2bfloat16(__bfloat162float(\n"
      "      __high2bfloat16(__hmul2(b2, b2)))));\n"
      "  float x = __half2float(__shfl_xor_sync(0xffffffffu, h, 1));\n"
      "  f[1] = x + (float)CUDART_PI + __int_as_float(__half_as_ushort(h));\n"
      "}\n");
  for (unsigned i = 0; i < tu->ndiags; i++)
    ck_abort_msg("unexpected diagnostic: %s", tu->diags[i].message);
  ck_assert_ptr_nonnull(func(tu, "dot2")->body);
  const wl_func *k = func(tu, "k");
  ck_assert_ptr_nonnull(k->body);
  const wl_expr *shfl = nth_expr(k, WL_E_CALL, "__shfl_down", 0);
  ck_assert_ptr_nonnull(shfl);
  ck_assert_ptr_nonnull(nth_expr(k, WL_E_CALL, "__shfl_xor_sync", 0));
  ck_assert_ptr_nonnull(nth_expr(k, WL_E_CALL, "__hadd", 0));
  wl_tu_free(tu);
}
END_TEST

/* Host code around kernels, as nvcc's cuda_runtime.h presents it: CUDA's
 * mixed min/max overloads and the math functions of <math.h> without an
 * #include (and still with one). */
START_TEST(test_host_min_max_math) {
  const char *const srcs[] = {"", "#include <math.h>\n",
                              "#include <cmath>\n#include <algorithm>\n"};
  for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
    char src[1024];
    snprintf(src, sizeof src,
             "%sunsigned blocks(unsigned n, long a, unsigned long b) {\n"
             "  return max(1, n) + min(n, 2) + (unsigned)max(a, b) +\n"
             "         (unsigned)ceil(log2((double)n)) + (unsigned)sqrtf(2.0f);\n"
             "}\n"
             "__global__ void k(float *o, unsigned n) {\n"
             "  o[0] = max(o[1], 2.0f) + min(1, n) + ceil(o[2]) + fmax(o[3], 1.0);\n"
             "}\n",
             srcs[i]);
    wl_tu *tu = parse_src(src);
    for (unsigned d = 0; d < tu->ndiags; d++)
      ck_abort_msg("variant %zu: unexpected diagnostic: %s", i, tu->diags[d].message);
    wl_tu_free(tu);
  }
}
END_TEST

/* An argument converted by a conversion function ("operator int") is an
 * argument, not an overloaded operator: the call keeps its callee. */
START_TEST(test_conversion_function_argument) {
  wl_tu *tu = parse_src("struct A { __device__ operator int() const; };\n"
                        "__device__ int f(int x) { return x; }\n"
                        "__global__ void k(A a, int *o) { o[0] = f(a); }\n");
  const wl_expr *c = nth_expr(func(tu, "k"), WL_E_CALL, "f", 0);
  ck_assert_ptr_nonnull(c);
  ck_assert_ptr_nonnull(c->callee);
  ck_assert_str_eq(c->callee->name, "f");
  wl_tu_free(tu);
}
END_TEST

/* An implicit conversion of a call's result is the call itself: one CALL of
 * __shfl_sync with its three arguments, not a one-argument call around it. */
START_TEST(test_converted_call_result) {
  wl_tu *tu = parse_src("__constant__ unsigned c;\n"
                        "__global__ void k(int *d) {\n"
                        "  int j = __shfl_sync(0xffffffffu, d[0], threadIdx.x & 28) & c;\n"
                        "  unsigned u = __shfl_sync(0xffffffffu, d[1], 0);\n"
                        "  d[2] = j + (int)u;\n"
                        "}\n");
  const wl_func *k = func(tu, "k");
  for (int i = 0; i < 2; i++) {
    const wl_expr *c = nth_expr(k, WL_E_CALL, "__shfl_sync", i);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->nargs, 3);
  }
  ck_assert_ptr_null(nth_expr(k, WL_E_CALL, "__shfl_sync", 2));
  wl_tu_free(tu);
}
END_TEST

/* A launch keeps its configuration (grid, block, ...) in config, which no
 * visitor walks; other calls have none. */
START_TEST(test_launch_config) {
  wl_tu *tu = parse_src("__global__ void k(int n) {}\n"
                        "void h(int tpb, int n) {\n"
                        "  dim3 block(4, tpb / 4);\n"
                        "  k<<<n / tpb, block, 64>>>(n);\n"
                        "  k<<<1, 256>>>(n);\n"
                        "}\n");
  const wl_func *h = func(tu, "h");
  const wl_expr *l0 = nth_expr(h, WL_E_CALL, "k", 0), *l1 = nth_expr(h, WL_E_CALL, "k", 1);
  ck_assert_ptr_nonnull(l0);
  ck_assert_ptr_nonnull(l1);
  ck_assert_ptr_nonnull(l0->config);
  ck_assert_uint_ge(l0->config->nargs, 2);
  ck_assert_uint_eq(l0->nargs, 1);
  const wl_expr *b = wl_expr_strip(l0->config->args[1]);
  ck_assert_ptr_nonnull(b);
  ck_assert_ptr_nonnull(l1->config);
  ck_assert_ptr_null(nth_expr(h, WL_E_CALL, "__cudaPushCallConfiguration", 0));
  const wl_expr *dim = nth_expr(h, WL_E_CALL, "dim3", 0);
  ck_assert_ptr_nonnull(dim);
  ck_assert_ptr_null(dim->config);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_glibc_short_type_names) {
  wl_tu *tu =
      parse_src("__global__ void k(uint *a, ushort b, ulong c) { a[threadIdx.x] = b + c; }\n");
  ck_assert_uint_eq(tu->ndiags, 0);
  ck_assert_ptr_nonnull(func(tu, "k")->body);
  wl_tu_free(tu);
}
END_TEST

START_TEST(test_binary_input) {
  wl_parser *p = wl_parser_new();
  wl_parse_opts o;
  memset(&o, 0, sizeof o);
  wl_tu *tu = NULL;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_int_eq(wl_parse(p, "/nonexistent/x.cu", NULL, &o, &tu, &err), WL_PARSE_UNREADABLE);
  ck_assert_ptr_null(tu);
  ck_assert(strstr(wl_buf_str(&err), "No such file") != NULL);
  wl_buf_free(&err);
  wl_parser_free(p);
}
END_TEST

/* The batches of a file lowered in batches: each one's function names,
 * space-separated, one batch a line. */
static void note_batch(wl_tu *tu, void *ud) {
  wl_buf *b = ud;
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    wl_buf_printf(b, "%s%s", i ? " " : "", *f->name ? f->name : "(lambda)");
    for (unsigned k = 0; k < f->ntinsts; k++) /* the instantiations' first argument */
      wl_buf_printf(b, "<%lld>", f->tinsts[k].vals[0]);
  }
  wl_buf_puts(b, "\n");
}

static bool skip_batches(wl_tu *tu, void *ud) {
  (void)tu;
  (void)ud;
  return false;
}

/* Lowered in batches (one group of functions a batch): functions that call
 * one another or share a name stay together, groups in the order of their
 * first function; a template's explicit instantiation reaches it in its
 * batch; the TU returned holds none of them. */
START_TEST(test_batches) {
  const char *src = "__device__ int helper(int x) { return x + 1; }\n"
                    "__global__ void a(int *p) { p[0] = helper(p[1]); }\n"
                    "__global__ void b(int *p) { p[0] = 2; }\n"
                    "template <int N> __global__ void t(int *p) { p[0] = N; }\n"
                    "template __global__ void t<7>(int *);\n"
                    "__device__ int g(int x) { return x; }\n"
                    "__global__ void c(int *p) { auto f = [](int v) { return v; }; p[0] = f(1); }\n"
                    "__device__ int g(float x) { return 2; }\n"
                    "__global__ void d(int *p) { p[0] = g(1.0f); }\n";
  wl_parser *p = wl_parser_new();
  wl_parse_opts o;
  memset(&o, 0, sizeof o);
  wl_buf seen, err;
  wl_buf_init(&seen);
  wl_buf_init(&err);
  o.on_batch = note_batch;
  o.batch_ud = &seen;
  o.batch_min = 1;
  o.batch_bytes = 1;
  wl_tu *tu = NULL;
  ck_assert_int_eq(wl_parse(p, "t.cu", src, &o, &tu, &err), WL_PARSE_OK);
  ck_assert(tu->batched);
  ck_assert_uint_eq(tu->nfuncs, 0);
  ck_assert_str_eq(wl_buf_str(&seen), "helper a\nb\nt<7>\ng g d\nc (lambda)\n");
  wl_tu_free(tu);
  /* one batch: the order of a whole lowering */
  wl_buf_free(&seen);
  wl_buf_init(&seen);
  o.batch_bytes = 1u << 30; /* one batch */
  ck_assert_int_eq(wl_parse(p, "t.cu", src, &o, &tu, &err), WL_PARSE_OK);
  ck_assert_str_eq(wl_buf_str(&seen), "helper a b t<7> g c (lambda) g d\n");
  wl_tu_free(tu);
  /* on_parsed may skip the batches; a file under batch_min is lowered whole */
  wl_buf_free(&seen);
  wl_buf_init(&seen);
  o.on_parsed = skip_batches;
  ck_assert_int_eq(wl_parse(p, "t.cu", src, &o, &tu, &err), WL_PARSE_OK);
  ck_assert_str_eq(wl_buf_str(&seen), "");
  wl_tu_free(tu);
  o.on_parsed = NULL;
  o.batch_min = (size_t)1 << 20;
  ck_assert_int_eq(wl_parse(p, "t.cu", src, &o, &tu, &err), WL_PARSE_OK);
  ck_assert(!tu->batched);
  ck_assert_uint_eq(tu->nfuncs, 9);
  ck_assert_str_eq(wl_buf_str(&seen), "");
  wl_tu_free(tu);
  wl_buf_free(&seen);
  wl_buf_free(&err);
  wl_parser_free(p);
}
END_TEST

Suite *wl_suite_ir(void) {
  Suite *s = suite_create("ir");
  TCase *tc = tcase_create("lowering");
  tcase_set_timeout(tc, 60);
  tcase_add_test(tc, test_function_kinds);
  tcase_add_test(tc, test_assignment_counts);
  tcase_add_test(tc, test_stmt_parents);
  tcase_add_test(tc, test_control_flow);
  tcase_add_test(tc, test_expressions_and_variables);
  tcase_add_test(tc, test_asm_and_dependent_calls);
  tcase_add_test(tc, test_recovery);
  tcase_add_test(tc, test_inactive_branches_and_arch);
  tcase_add_test(tc, test_cooperative_groups_prelude);
  tcase_add_test(tc, test_parse_arch);
  tcase_add_test(tc, test_binary_input);
  tcase_add_test(tc, test_template_instantiations);
  tcase_add_test(tc, test_class_template_members);
  tcase_add_test(tc, test_operator_chain_linear);
  tcase_add_test(tc, test_glibc_short_type_names);
  tcase_add_test(tc, test_conversion_function_argument);
  tcase_add_test(tc, test_converted_call_result);
  tcase_add_test(tc, test_launch_config);
  tcase_add_test(tc, test_half_prelude);
  tcase_add_test(tc, test_host_min_max_math);
  tcase_add_test(tc, test_batches);
  tcase_add_test(tc, test_call_template_arguments);
  tcase_add_test(tc, test_dependent_class_member_calls);
  tcase_add_test(tc, test_static_assert_cond);
  tcase_add_test(tc, test_ctor_inits_and_function_refs);
  suite_add_tcase(s, tc);
  return s;
}
