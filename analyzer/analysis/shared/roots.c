/* shared/roots.c - root discovery: which functions are analyzed and under which assumptions;
 * wl_smem_build (see shared.h and internal.h). */
#include "internal.h"

#include "hmap.h"
#include "lanes.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */

/* One walk over every body: the functions some function of the file calls,
 * whether any __shared__ variable is declared or used, and for each
 * function whether it may reach shared memory on its own (reaches_shared). */
typedef struct tu_scan {
  wl_hmap index; /* wl_func* -> its index in tu->funcs + 1 */
  bool *called;
  bool shared;
  const wl_func *cur; /* the function whose body is walked */
  size_t cur_i;       /* its index */
  /* the function names a __shared__ variable, or makes a call the
   * analysis may resolve by other means than its callee (eval_call: a
   * dependent method, a template argument, a getter of shared memory) */
  bool *own;
  wl_vec edges; /* pairs (caller index + 1, callee index + 1) */
  const wl_tu *tu;
  wl_hmap conversions; /* name -> (void *)1 sme_conversion_operator finds one, 2 not */
} tu_scan;

/* Whether eval_call may run a function of the file for call e, which names
 * no callee and no lambda: a method found by name on a dependent object
 * (dependent_method, shared_memory_getter), a function named by a template
 * argument (template_function_arg), a conversion operator
 * (sme_conversion_operator). */
static bool resolved_otherwise(tu_scan *t, const wl_expr *e) {
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  if (ce && ce->kind == WL_E_MEMBER)
    return true;
  if (ce && ce->kind == WL_E_REF && !ce->var && ce->name)
    for (unsigned i = 0; i < t->cur->ntparams; i++)
      if (t->cur->tparams[i] && strcmp(t->cur->tparams[i], ce->name) == 0)
        return true;
  if (e->nargs || !e->name || !*e->name)
    return false;
  uintptr_t known = (uintptr_t)wl_hmap_get(&t->conversions, e->name);
  if (!known) {
    known = sme_conversion_operator(t->tu, e) ? 1 : 2;
    wl_hmap_put(&t->conversions, wl_xstrdup(e->name), (void *)known, false);
  }
  return known == 1;
}

static void scan_edge(tu_scan *t, const wl_func *to) {
  uintptr_t i = to ? (uintptr_t)wl_hmap_get(&t->index, to) : 0;
  if (!i)
    return;
  wl_vec_push(&t->edges, (void *)(uintptr_t)(t->cur_i + 1));
  wl_vec_push(&t->edges, (void *)i);
}

/* a function that only calls itself (b40c's Iterate<LOAD, VEC + 1>::
 * ExpandByWarp(cta, tile) recursing through its own template) has no caller */
static bool scan_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  tu_scan *t = ud;
  if (e->kind == WL_E_CALL && e->callee && e->callee != t->cur) {
    uintptr_t i = (uintptr_t)wl_hmap_get(&t->index, e->callee);
    if (i)
      t->called[i - 1] = true;
  }
  if (e->kind == WL_E_CALL) {
    const wl_func *lambda = e->callee ? NULL : sme_lambda_of(e);
    if (e->callee)
      scan_edge(t, e->callee);
    else if (lambda)
      scan_edge(t, lambda);
    else if (resolved_otherwise(t, e))
      t->own[t->cur_i] = true;
  }
  if (e->kind == WL_E_LAMBDA && e->lambda)
    scan_edge(t, e->lambda); /* handed on, it may run anywhere the closure goes */
  if (e->var && (e->var->flags & WL_V_SHARED))
    t->shared = t->own[t->cur_i] = true;
  return true;
}

static bool scan_stmt(const wl_stmt *s, void *ud) {
  tu_scan *t = ud;
  if (s->kind == WL_S_DECL)
    for (unsigned i = 0; i < s->nvars; i++)
      if (s->vars[i]->flags & WL_V_SHARED)
        t->shared = t->own[t->cur_i] = true;
  return true;
}

/* Which functions may reach shared memory: their own (tu_scan.own), or a
 * function they call, at any depth (over the calls backwards, each once). */
static bool *reaches_shared(const wl_tu *tu, const tu_scan *t) {
  size_t n = tu->nfuncs, ne = t->edges.n / 2;
  bool *r = wl_xcalloc(n + 1, sizeof *r);
  size_t *first = wl_xcalloc(n + 2, sizeof *first), *callers = wl_xcalloc(ne + 1, sizeof *callers);
  for (size_t k = 0; k < ne; k++)
    first[(uintptr_t)t->edges.v[2 * k + 1]]++; /* callee index + 1 */
  for (size_t i = 1; i <= n + 1; i++)
    first[i] += first[i - 1];
  for (size_t k = ne; k-- > 0;) {
    uintptr_t to = (uintptr_t)t->edges.v[2 * k + 1];
    callers[--first[to]] = (uintptr_t)t->edges.v[2 * k] - 1;
  }
  /* callers of function j: callers[first[j + 1] .. first[j + 2]) */
  size_t *work = wl_xcalloc(n + 1, sizeof *work), nw = 0;
  for (size_t i = 0; i < n; i++)
    if (t->own[i]) {
      r[i] = true;
      work[nw++] = i;
    }
  while (nw) {
    size_t j = work[--nw];
    for (size_t k = first[j + 1]; k < first[j + 2]; k++)
      if (!r[callers[k]]) {
        r[callers[k]] = true;
        work[nw++] = callers[k];
      }
  }
  free(work);
  free(first);
  free(callers);
  return r;
}

/* Whether f has a pointer or reference parameter (smd_param_storage), or,
 * with structs, a struct passed by value (whose pointer members eval.c's
 * member_storage follows): the only storage a root can reach in a file with
 * no __shared__ variable. */
static bool has_storage_param(const wl_func *f, bool structs) {
  for (unsigned i = 0; i < f->nparams; i++)
    if ((f->params[i]->type & (WL_T_POINTER | WL_T_REFERENCE)) ||
        (structs && !(f->params[i]->type & (WL_T_INTEGER | WL_T_FLOATING | WL_T_ARRAY))))
      return true;
  return false;
}

/* Whether f's block is 2-D or 3-D, whose warps may span several rows: f, or a
 * function it calls, uses threadIdx.y / .z (or the y / z of a cooperative
 * group's thread_index()). A kernel's own code is its evidence: when it names
 * threadIdx.x and never .y or .z, a function it calls that flattens a 3-D id
 * (getGlobalIdx_3D_3D(), naming x, y and z: right for 1-D blocks too) is no
 * evidence of rows; one that uses .y or .z without .x (row() { return
 * threadIdx.y; }) still is. */
typedef struct dim_scan {
  wl_vec funcs; /* found so far, scanned in order */
  bool yz, x;   /* of the function being scanned */
} dim_scan;

static void dim_add(dim_scan *d, const wl_func *f) {
  if (!f || !f->body)
    return;
  for (size_t i = 0; i < d->funcs.n; i++)
    if (d->funcs.v[i] == f)
      return;
  wl_vec_push(&d->funcs, (void *)f);
}

static bool dim_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  dim_scan *d = ud;
  if (e->kind == WL_E_MEMBER && e->nargs == 1 && e->name &&
      (sme_is_builtin_obj(e->args[0], "threadIdx") ||
       wl_builtin_call(e->args[0], WL_BK_GROUP_INDEX, WL_BF_CG))) {
    if (strcmp(e->name, "y") == 0 || strcmp(e->name, "z") == 0)
      d->yz = true;
    else if (strcmp(e->name, "x") == 0)
      d->x = true;
  }
  if (e->kind == WL_E_CALL)
    dim_add(d, e->callee ? e->callee : sme_lambda_of(e));
  return true;
}

static bool uses_multi_dim(const wl_func *f) {
  dim_scan d;
  memset(&d, 0, sizeof d);
  wl_visitor v = {NULL, dim_expr, &d, true};
  dim_add(&d, f);
  bool found = false, own_x = false;
  for (size_t i = 0; i < d.funcs.n && !found; i++) {
    d.yz = d.x = false;
    wl_walk_stmt(((const wl_func *)d.funcs.v[i])->body, &v);
    if (i == 0)
      own_x = d.x;
    found = d.yz && (i == 0 || !own_x || !d.x);
  }
  wl_vec_free(&d.funcs);
  return found;
}

/* The legacy conventions an uncalled device function's body states (see
 * rules/missing-syncwarp.md): a pointer parameter indexed as p[i] (or moved by
 * p + i, or handed on to a function of the file) is an array; an integer parameter i used as an
 * index both alone (p[i]) and moved (p[i + k], p[i - k]) is the calling thread's index in the
 * block, as in warpReduce(volatile T *sdata, int tid) or scan_warp(T *p, int
 * idx), with whole warps calling (its own conditions, such as tid < 32, then
 * choose the lanes). */
typedef struct param_scan {
  const wl_func *f;
  unsigned char *plain, *moved, *array;
} param_scan;

static int param_of(const param_scan *ps, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_REF || !e->var)
    return -1;
  for (unsigned i = 0; i < ps->f->nparams; i++)
    if (ps->f->params[i] == e->var)
      return (int)i;
  return -1;
}

/* i + k, i - k, (i + 1) % 32, i ^ 1: the parameters an index moves */
static void mark_mentioned(param_scan *ps, const wl_expr *e, unsigned depth) {
  if (!e || depth > 6)
    return;
  int i = param_of(ps, e);
  if (i >= 0) {
    ps->moved[i] = 1;
    return;
  }
  if (e->kind == WL_E_CALL || e->kind == WL_E_INDEX)
    return;
  for (unsigned k = 0; k < e->nargs; k++)
    mark_mentioned(ps, e->args[k], depth + 1);
}

static bool scan_params_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  param_scan *ps = ud;
  if (e->kind == WL_E_INDEX && e->nargs == 2) {
    int b = param_of(ps, e->args[0]);
    if (b >= 0)
      ps->array[b] = 1;
    const wl_expr *ix = wl_expr_strip(e->args[1]);
    int i = param_of(ps, ix);
    if (i >= 0)
      ps->plain[i] = 1;
    if (ix && i < 0)
      mark_mentioned(ps, ix, 0);
  }
  if (e->kind == WL_E_CALL && e->callee && e->callee->body)
    for (unsigned k = 0; k < e->nargs; k++) { /* handed on to a function of the file */
      int b = param_of(ps, e->args[k]);
      if (b >= 0 && (e->args[k]->type & WL_T_POINTER))
        ps->array[b] = 1;
    }
  if (e->kind == WL_E_BINARY && e->nargs == 2 && (e->op == WL_B_ADD || e->op == WL_B_SUB)) {
    int l = param_of(ps, e->args[0]), r = param_of(ps, e->args[1]);
    if (l >= 0 && (e->args[0]->type & WL_T_POINTER))
      ps->array[l] = 1;
    if (r >= 0 && (e->args[1]->type & WL_T_POINTER))
      ps->array[r] = 1;
  }
  return true;
}

/* A parameter named as a warp's index (warp, warp_id, wid) is the same in
 * every lane of the warp; one that names the thread's place in something of
 * the warp (b40c's warpscan_tid, warp_lane, tid_in_warp) is a thread index. */
static bool names_warp_index(const char *name) {
  if (!wl_builtin_name_says_warp(name))
    return false;
  char low[64];
  size_t k = 0;
  for (; name[k] && k + 1 < sizeof low; k++)
    low[k] = (char)((name[k] >= 'A' && name[k] <= 'Z') ? name[k] - 'A' + 'a' : name[k]);
  low[k] = 0;
  return !strstr(low, "tid") && !strstr(low, "lane") && !strstr(low, "thread");
}

static bool names_thread_x(const wl_expr *e, unsigned depth);

/* `int warpscan_tid = threadIdx.x`: a parameter whose default argument is the
 * thread's index says what its callers pass (b40c's warp scans, whose index
 * goes on to a tuple's Set and Get rather than into a subscript). */
static bool defaults_to_thread_x(const wl_var *p) {
  const wl_expr *d = p->init ? wl_expr_strip(p->init) : NULL;
  return d && d->kind == WL_E_MEMBER && names_thread_x(d, 0);
}

static void scan_params(ctx *c, const wl_func *f) {
  unsigned n = f->nparams;
  if (!n)
    return;
  param_scan ps = {f, wl_xcalloc(n, 1), wl_xcalloc(n, 1), wl_xcalloc(n, 1)};
  wl_visitor v = {NULL, scan_params_expr, &ps, true};
  wl_walk_stmt(f->body, &v);
  bool kernel = (f->flags & WL_F_GLOBAL) != 0;
  for (unsigned i = 0; i < n; i++) {
    const wl_var *p = f->params[i];
    if (ps.array[i] && (p->type & WL_T_POINTER))
      wl_vec_push(&c->array_params, (void *)p);
    if (!kernel && smd_is_int_type(p->type) && !(p->type & WL_T_POINTER) &&
        ((ps.plain[i] && ps.moved[i] && !names_warp_index(p->name)) || defaults_to_thread_x(p)))
      wl_vec_push(&c->tid_params, (void *)p);
  }
  free(ps.plain);
  free(ps.moved);
  free(ps.array);
}

static void analyze_root_as(wl_smem *sm, const wl_tu *tu, const wl_func *f, const wl_tinst *ti) {
  ctx c;
  memset(&c, 0, sizeof c);
  c.sm = sm;
  c.tu = tu;
  c.tinst = ti;
  wl_arena_init(&c.ar);
  wl_lctx_init(&c.lc, &c.ar);
  c.root = f;
  c.root_params_uniform = (f->flags & WL_F_GLOBAL) != 0;
  c.multi_dim = uses_multi_dim(f);
  if (c.multi_dim && !wl_launch_block_dims(tu, f, c.launch))
    memset(c.launch, 0, sizeof c.launch);
  scan_params(&c, f);
  c.fn = f;
  c.record = true;
  c.step_limit = STEP_BUDGET;
  c.pair_limit = PAIR_BUDGET;
  c.arena_limit = ARENA_BUDGET;
  fnframe fr;
  memset(&fr, 0, sizeof fr);
  fr.f = f;
  c.fns[c.nfns++] = &fr;
  state st;
  smd_st_init(&st);
  st.live = true;
  smx_exec_stmt(&c, &st, f->body);
  sm->pairs += c.pairs;
  if (wl_arena_size(&c.ar) > c.peak)
    c.peak = wl_arena_size(&c.ar);
  if (c.peak > sm->arena_peak)
    sm->arena_peak = c.peak;
  sm->arena_given_back += c.given_back;
  if (c.exhausted) {
    sm->incomplete = true;
    bool listed = false;
    for (size_t i = 0; i < sm->exhausted.n && !listed; i++)
      listed = sm->exhausted.v[i] == f;
    if (!listed)
      wl_vec_push(&sm->exhausted, (void *)f);
  }
  smd_st_free(&st);
  smd_st_free(&fr.ret);
  free(c.undo);
  wl_vec_free(&c.strings);
  wl_vec_free(&c.elem_vars);
  wl_vec_free(&c.tid_params);
  wl_vec_free(&c.array_params);
  wl_vec_free(&c.data_params);
  wl_lctx_free(&c.lc);
  wl_arena_free(&c.ar);
}

/* The lane-group widths of a template: a non-type parameter P that the body
 * uses both as `threadIdx.x & (P - 1)` (the thread's lane in its group) and
 * as `... threadIdx.x ... / P` (its group), as legacy vector-per-row kernels
 * do with THREADS_PER_VECTOR. */
typedef struct width_scan {
  const wl_func *f;
  unsigned char *mask, *div; /* [ntparams] */
} width_scan;

static bool names_thread_x(const wl_expr *e, unsigned depth) {
  e = wl_expr_strip(e);
  if (!e || depth > 8)
    return false;
  if (e->kind == WL_E_MEMBER && e->nargs == 1 && e->name && strcmp(e->name, "x") == 0 &&
      sme_is_builtin_obj(e->args[0], "threadIdx"))
    return true;
  if (e->kind == WL_E_CALL || e->kind == WL_E_INDEX)
    return false;
  for (unsigned i = 0; i < e->nargs; i++)
    if (names_thread_x(e->args[i], depth + 1))
      return true;
  return false;
}

static int tparam_of(const wl_func *f, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_REF || e->var || !e->name)
    return -1;
  for (unsigned i = 0; i < f->ntparams; i++)
    if (f->tparams[i] && strcmp(f->tparams[i], e->name) == 0)
      return (int)i;
  return -1;
}

static bool scan_width_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  width_scan *w = ud;
  if (e->kind != WL_E_BINARY || e->nargs != 2 || !names_thread_x(e->args[0], 0))
    return true;
  if (e->op == WL_B_DIV) {
    int p = tparam_of(w->f, e->args[1]);
    if (p >= 0)
      w->div[p] = 1;
  } else if (e->op == WL_B_AND) {
    const wl_expr *m = wl_expr_strip(e->args[1]);
    if (m && m->kind == WL_E_BINARY && m->op == WL_B_SUB && m->nargs == 2 && m->args[1]->has_ival &&
        m->args[1]->ival == 1) {
      int p = tparam_of(w->f, m->args[0]);
      if (p >= 0)
        w->mask[p] = 1;
    }
  }
  return true;
}

/* An instantiation with each lane-group width at 32 (one group per warp),
 * the other parameters host-chosen; false when f has no lane-group width. */
static bool warp_wide_groups(ctx *scratch, const wl_func *f, wl_tinst *out) {
  if (!f->ntparams || !f->body)
    return false;
  width_scan w = {f, wl_xcalloc(f->ntparams, 1), wl_xcalloc(f->ntparams, 1)};
  wl_visitor v = {NULL, scan_width_expr, &w, true};
  wl_walk_stmt(f->body, &v);
  bool any = false;
  out->vals = wl_arena_alloc(&scratch->ar, f->ntparams * sizeof *out->vals);
  out->known = wl_arena_alloc(&scratch->ar, f->ntparams);
  for (unsigned i = 0; i < f->ntparams; i++)
    if (w.mask[i] && w.div[i]) {
      out->vals[i] = WL_LANES;
      out->known[i] = 1;
      any = true;
    }
  free(w.mask);
  free(w.div);
  return any;
}

/* A function template is analyzed once per instantiation seen in the file
 * (its integral template arguments then are numbers); with none seen, once,
 * its template parameters being host-chosen values, the same in every lane,
 * except lane-group widths (warp_wide_groups), which are 32: what a group's
 * lanes do to each other's slots does not hide behind an unknown width. */
static void analyze_root(wl_smem *sm, const wl_tu *tu, const wl_func *f) {
  if (!f->ntinsts) {
    ctx scratch;
    memset(&scratch, 0, sizeof scratch);
    wl_arena_init(&scratch.ar);
    wl_tinst wide;
    analyze_root_as(sm, tu, f, warp_wide_groups(&scratch, f, &wide) ? &wide : NULL);
    wl_arena_free(&scratch.ar);
    return;
  }
  for (unsigned i = 0; i < f->ntinsts; i++)
    analyze_root_as(sm, tu, f, &f->tinsts[i]);
}

/* Marks as called the templates whose instantiations a real root reaches: a
 * kernel, or an uncalled device function that is not itself an instantiation;
 * returns which functions such roots reach. An instantiation that only other
 * instantiations with no real caller reach (b40c's Cta<...>::Tile<...>::
 * WarpCull, called from a Dispatch<...>::Kernel instantiation that the kernel
 * template calls through a dependent name, which hands the shared memory on
 * through a constructor and a reference member not followed here) was never
 * run with the memory of a use: wl_smem_build analyzes it on its own, with
 * its pointer and reference parameters as the memory, and its template stays
 * a root too. */
typedef struct reach_scan {
  const wl_tu *tu;
  tu_scan *t;
  bool *seen;
  wl_vec work; /* indexes + 1 */
} reach_scan;

static void reach_add(reach_scan *r, const wl_func *f) {
  uintptr_t i = f ? (uintptr_t)wl_hmap_get(&r->t->index, f) : 0;
  if (!i || r->seen[i - 1] || !f->body)
    return;
  r->seen[i - 1] = true;
  wl_vec_push(&r->work, (void *)i);
}

static bool reach_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  if (e->kind == WL_E_CALL)
    reach_add(ud, e->callee ? e->callee : sme_lambda_of(e));
  return true;
}

static bool *pattern_seen(const wl_tu *tu, tu_scan *t, wl_hmap *by_usr) {
  reach_scan r = {tu, t, wl_xcalloc(tu->nfuncs + 1, sizeof *r.seen), {0}};
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (!f->body || (f->flags & WL_F_LAMBDA))
      continue;
    if ((f->flags & WL_F_GLOBAL) || ((f->flags & WL_F_DEVICE) && !t->called[i] && !f->pattern_usr))
      reach_add(&r, f);
  }
  wl_visitor v = {NULL, reach_expr, &r, true};
  while (r.work.n) {
    uintptr_t i = (uintptr_t)r.work.v[--r.work.n];
    wl_walk_stmt(tu->funcs[i - 1]->body, &v);
  }
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    if (!r.seen[i] || !t->called[i] || !tu->funcs[i]->pattern_usr)
      continue;
    uintptr_t j = (uintptr_t)wl_hmap_get(by_usr, tu->funcs[i]->pattern_usr);
    if (j)
      t->called[j - 1] = true;
  }
  wl_vec_free(&r.work);
  return r.seen;
}

wl_smem *wl_smem_build(const wl_tu *tu) {
  wl_smem *sm = wl_xcalloc(1, sizeof *sm);
  wl_hmap_init(&sm->shared_locals, false);
  sm->main_view = tu->path && tu->main_path &&
                  (tu->path == tu->main_path || strcmp(tu->path, tu->main_path) == 0);
  tu_scan t;
  memset(&t, 0, sizeof t);
  t.called = wl_xcalloc(tu->nfuncs + 1, sizeof *t.called);
  t.own = wl_xcalloc(tu->nfuncs + 1, sizeof *t.own);
  t.tu = tu;
  wl_hmap_init(&t.index, false);
  wl_hmap_init(&t.conversions, true);
  for (unsigned i = 0; i < tu->nfuncs; i++)
    wl_hmap_put(&t.index, tu->funcs[i], (void *)(uintptr_t)(i + 1), false);
  for (unsigned i = 0; i < tu->nglobals && !t.shared; i++)
    t.shared = (tu->globals[i]->flags & WL_V_SHARED) != 0;
  wl_visitor v = {scan_stmt, scan_expr, &t, false};
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->body) {
      t.cur = tu->funcs[i];
      t.cur_i = i;
      wl_walk_stmt(tu->funcs[i]->body, &v);
    }
  bool *may_share = reaches_shared(tu, &t);
  /* a template whose instantiation is called (the call runs the
   * instantiation's body, see lower_link_calls) from code that a real root
   * reaches is not analyzed on its own as well: its code was seen with the
   * numbers of a real use (pattern_seen) */
  wl_hmap by_usr;
  wl_hmap_init(&by_usr, true);
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->usr && tu->funcs[i]->body)
      wl_hmap_put(&by_usr, tu->funcs[i]->usr, (void *)(uintptr_t)(i + 1), false);
  bool *seen = pattern_seen(tu, &t, &by_usr);
  wl_hmap_free(&by_usr);
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (!f->body || (f->flags & WL_F_LAMBDA))
      continue;
    bool kernel = (f->flags & WL_F_GLOBAL) != 0;
    bool device = (f->flags & WL_F_DEVICE) != 0;
    /* with no __shared__ variable in the file, only a device function's own
     * pointer or reference parameters, or the pointer members of a struct it
     * takes by value, can be storage: a kernel, or a function without such
     * parameters, has nothing to race on */
    if (!t.shared && (kernel || !has_storage_param(f, true)))
      continue;
    /* nor has one whose code, and that of every function it calls, names
     * no __shared__ variable (lyra2's hash kernels beside the one that uses
     * shared memory: a sixth of the file's run) */
    if (!may_share[i] && (kernel || !has_storage_param(f, true)))
      continue;
    if (kernel || (device && !t.called[i]))
      analyze_root(sm, tu, f);
    else if (device && f->pattern_usr && !seen[i] && has_storage_param(f, false))
      analyze_root(sm, tu, f); /* an instantiation no real root reaches */
  }
  free(seen);
  free(may_share);
  for (size_t i = 0; i < t.conversions.cap; i++)
    free((void *)t.conversions.slots[i].key);
  wl_hmap_free(&t.conversions);
  wl_hmap_free(&t.index);
  free(t.called);
  free(t.own);
  wl_vec_free(&t.edges);
  return sm;
}
