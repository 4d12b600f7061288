/* shared/exec.c - the interpreter, statements: declarations, branches, loops (unrolled or iterated
 * twice), switch (see shared.h and internal.h). */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Statements                                                               */

bool smx_step(ctx *c) {
  if (c->exhausted)
    return false;
  if (++c->steps > c->step_limit || smd_arena_used(c) > c->arena_limit) {
    c->exhausted = true;
    return false;
  }
  return true;
}

static void exec_decl(ctx *c, state *st, const wl_stmt *s) {
  c->stmt = s;
  for (unsigned i = 0; i < s->nvars; i++) {
    const wl_var *v = s->vars[i];
    if (v->flags & (WL_V_SHARED | WL_V_GLOBAL | WL_V_STATIC | WL_V_EXTERN))
      continue;
    if (v->type & WL_T_REFERENCE) {
      addr a = v->init ? sme_eval_addr(c, st, v->init) : (addr){A_NONE, NULL, NULL, false};
      smd_st_set(st, v, a.kind == A_SHARED ? a.p : smd_vunk(a.kind == A_NONE && a.uni));
    } else if (v->type & WL_T_ARRAY) {
      if (v->init && v->init->kind == WL_E_INITLIST)
        (void)sme_eval(c, st, v->init);
      smd_st_set(st, v, smd_vunk(false));
    } else {
      smd_st_set(st, v, v->init ? sme_eval(c, st, v->init) : smd_vunk(false));
    }
  }
}

/* Accesses made in the two arms of a lane-dependent branch (seq >= first) run
 * concurrently: sme_compare those still pending at the end of each arm. */
static void cross_branches(ctx *c, const state *t, const state *f, unsigned first) {
  for (unsigned j = 0; j < f->npend; j++)
    if (f->pend[j]->seq >= first)
      for (unsigned i = 0; i < t->npend; i++)
        if (t->pend[i]->seq >= first)
          smr_check_pair(c, t->pend[i], f->pend[j], true);
}

/* Drops the pending accesses of s that no lane can have made where the
 * warp-uniform condition k holds: a barrier skipped only when no lane made
 * the access (`if (n > 0) s[lane] = v; ... if (n > 0) __syncwarp();`, the two
 * conditions the same test) leaves no path from the access past it. */
static void drop_contradicted(ctx *c, state *s, const cond *k) {
  unsigned keep = 0;
  const guard *last = NULL;
  bool last_ok = true;
  for (unsigned i = 0; i < s->npend; i++) {
    acc *a = s->pend[i];
    bool ok = true;
    if (a->g && a->g == last) {
      ok = last_ok;
    } else if (a->g) {
      ok = smr_guard_reachable_with(c, a->g, k);
      last = a->g;
      last_ok = ok;
    }
    if (ok)
      s->pend[keep++] = a;
  }
  s->npend = keep;
}

static void exec_branches(ctx *c, state *st, const cond *k, const wl_stmt *then_s,
                          const wl_stmt *else_s) {
  int d = smd_cond_definite(k);
  if (d == 1) {
    smx_exec_stmt(c, st, then_s);
    return;
  }
  if (d == 0) {
    smx_exec_stmt(c, st, else_s);
    return;
  }
  state t, f, out;
  unsigned first = c->seq;
  smd_st_copy(&t, st);
  smd_st_copy(&f, st);
  t.g = smd_guard_push(c, st->g, k);
  f.g = smd_guard_push(c, st->g, smd_cond_not(c, k));
  if (k->uni && k->kind != C_UNK && !k->bsym) { /* nothing contradicts a fresh symbol */
    drop_contradicted(c, &t, k);
    drop_contradicted(c, &f, smd_cond_not(c, k));
  }
  smx_exec_stmt(c, &t, then_s);
  smx_exec_stmt(c, &f, else_s);
  if (!k->uni && c->record && t.live && f.live)
    cross_branches(c, &t, &f, first);
  smd_join_states(c, &out, &t, &f, k);
  if (t.live && f.live)
    out.g = st->g;
  smd_st_move(st, &out);
  smd_st_free(&t);
  smd_st_free(&f);
}

static frame *push_frame(ctx *c, frame *fr, bool is_switch) {
  memset(fr, 0, sizeof *fr);
  fr->is_switch = is_switch;
  if (c->nloops == MAX_LOOP_NEST) {
    c->exhausted = true;
    return fr;
  }
  c->loops[c->nloops++] = fr;
  return fr;
}

static void pop_frame(ctx *c, frame *fr) {
  if (c->nloops && c->loops[c->nloops - 1] == fr)
    c->nloops--;
  smd_st_free(&fr->brk);
  smd_st_free(&fr->cont);
}

static void to_frame(ctx *c, state *st, bool brk) {
  for (unsigned i = c->nloops; i-- > 0;) {
    frame *fr = c->loops[i];
    if (!brk && fr->is_switch)
      continue;
    state *dst = brk ? &fr->brk : &fr->cont;
    bool *has = brk ? &fr->has_brk : &fr->has_cont;
    if (*has)
      smd_join_into(c, dst, st);
    else
      smd_st_copy(dst, st);
    *has = true;
    break;
  }
  st->live = false;
}

/* ---- loops ---- */

typedef struct assigned {
  const wl_var *v[64];
  unsigned n;
  bool overflow;
  unsigned long nodes; /* IR nodes of the loop (statements and expressions) */
} assigned;

/* Charges a scan of n IR nodes to the function's scan budget. */
static void charge_scan(ctx *c, unsigned long n) {
  c->scanned += n;
  if (c->scanned > SCAN_BUDGET)
    c->exhausted = true;
}

static void add_assigned(assigned *as, const wl_var *v) {
  if (!v)
    return;
  for (unsigned i = 0; i < as->n; i++)
    if (as->v[i] == v)
      return;
  if (as->n == 64) {
    as->overflow = true;
    return;
  }
  as->v[as->n++] = v;
}

static const wl_var *ref_var(const wl_expr *e) {
  e = wl_expr_strip(e);
  return e && e->kind == WL_E_REF ? e->var : NULL;
}

/* p[i] of a local array p (the elements of a local array of pointers are
 * variables of their own, eval.c local_elem) */
static const wl_var *elem_array_var(const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || e->kind != WL_E_INDEX || e->nargs != 2 || !(e->type & WL_T_POINTER))
    return NULL;
  const wl_var *v = ref_var(e->args[0]);
  return v && (v->type & WL_T_ARRAY) && !(v->flags & (WL_V_SHARED | WL_V_GLOBAL | WL_V_PARAM))
             ? v
             : NULL;
}

static bool collect_assigned_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  assigned *as = ud;
  as->nodes++;
  if (e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2) {
    add_assigned(as, ref_var(e->args[0]));
    add_assigned(as, elem_array_var(e->args[0]));
  } else if (e->kind == WL_E_UNARY && e->nargs == 1 &&
             (e->op == WL_U_PREINC || e->op == WL_U_PREDEC || e->op == WL_U_POSTINC ||
              e->op == WL_U_POSTDEC || e->op == WL_U_ADDROF))
    add_assigned(as, ref_var(e->args[0]));
  else if (e->kind == WL_E_CALL && e->callee && !sme_dependent_builtin_op(e))
    for (unsigned i = 0; i < e->nargs && i < e->callee->nparams; i++)
      if (e->callee->params[i]->type & WL_T_REFERENCE)
        add_assigned(as, ref_var(e->args[i]));
  return true;
}

static bool collect_assigned_stmt(const wl_stmt *s, void *ud) {
  ((assigned *)ud)->nodes++;
  if (s->kind == WL_S_ASM)
    for (unsigned i = 0; i < s->nkids; i++)
      add_assigned(ud, ref_var(s->kids[i]->expr));
  return true;
}

static void collect_assigned(ctx *c, const wl_stmt *loop, assigned *as) {
  memset(as, 0, sizeof *as);
  wl_visitor v = {collect_assigned_stmt, collect_assigned_expr, as, false};
  wl_walk_stmt(loop->then_s, &v);
  wl_walk_expr(loop->expr, loop, &v);
  wl_walk_expr(loop->inc, loop, &v);
  charge_scan(c, as->nodes + 1);
}

typedef enum vclass { K_UNIFORM, K_UNKNOWN, K_INDUCTION, K_CYCLE } vclass;

typedef struct loopvar {
  const wl_var *var;
  vclass cls;
  const val *entry;
  const wl_lform *smx_step; /* K_INDUCTION: added per iteration */
  long long lo, hi;         /* range of a uniform variable over the iterations */
} loopvar;

typedef struct upd_scan {
  const wl_var *var;
  const wl_expr *steps[16];
  int signs[16];
  unsigned nsteps;
  bool other;                 /* an update that is not v += smx_step */
  bool grows, shrinks, mixed; /* v *= k, v <<= k / v /= k, v >>= k */
} upd_scan;

static bool positive_const(const wl_expr *e) {
  e = wl_expr_strip(e);
  return e && e->has_ival && e->ival > 0;
}

static bool scan_updates(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  upd_scan *u = ud;
  if (e->kind == WL_E_UNARY && e->nargs == 1 && ref_var(e->args[0]) == u->var) {
    if (e->op == WL_U_ADDROF) {
      u->other = u->mixed = true;
    } else if (e->op != WL_U_DEREF && e->op >= WL_U_POSTINC && e->op <= WL_U_PREDEC) {
      if (u->nsteps < 16) {
        u->steps[u->nsteps] = NULL;
        u->signs[u->nsteps++] = (e->op == WL_U_POSTINC || e->op == WL_U_PREINC) ? 1 : -1;
      } else {
        u->other = true;
      }
    }
    return true;
  }
  if (e->kind != WL_E_BINARY || !wl_binop_is_assign(e->op) || e->nargs != 2 ||
      ref_var(e->args[0]) != u->var)
    return true;
  const wl_expr *r = wl_expr_strip(e->args[1]);
  int sign = 0;
  const wl_expr *stepx = NULL;
  if (e->op == WL_B_ADD_ASSIGN || e->op == WL_B_SUB_ASSIGN) {
    sign = e->op == WL_B_ADD_ASSIGN ? 1 : -1;
    stepx = e->args[1];
  } else if (e->op == WL_B_ASSIGN && r && r->kind == WL_E_BINARY && r->nargs == 2 &&
             (r->op == WL_B_ADD || r->op == WL_B_SUB)) {
    if (ref_var(r->args[0]) == u->var) {
      sign = r->op == WL_B_ADD ? 1 : -1;
      stepx = r->args[1];
    } else if (r->op == WL_B_ADD && ref_var(r->args[1]) == u->var) {
      sign = 1;
      stepx = r->args[0];
    }
  }
  if (sign && u->nsteps < 16) {
    u->steps[u->nsteps] = stepx;
    u->signs[u->nsteps++] = sign;
    return true;
  }
  u->other = true;
  bool k = positive_const(e->args[1]);
  if ((e->op == WL_B_MUL_ASSIGN || e->op == WL_B_SHL_ASSIGN) && k)
    u->grows = true;
  else if ((e->op == WL_B_DIV_ASSIGN || e->op == WL_B_SHR_ASSIGN) && k)
    u->shrinks = true;
  else
    u->mixed = true;
  return true;
}

/* Classifies the variables a loop assigns. */
static void classify(ctx *c, const state *entry, const wl_stmt *s, const assigned *as,
                     loopvar *lv) {
  for (unsigned i = 0; i < as->n; i++) {
    loopvar *x = &lv[i];
    x->var = as->v[i];
    charge_scan(c, as->nodes + 1); /* the scan of the body for this variable */
    x->entry = smd_st_get(c, entry, x->var);
    x->lo = -WL_INF;
    x->hi = WL_INF;
    upd_scan u;
    memset(&u, 0, sizeof u);
    u.var = x->var;
    wl_visitor v = {NULL, scan_updates, &u, false};
    wl_walk_stmt(s->then_s, &v);
    wl_walk_expr(s->expr, s, &v);
    wl_walk_expr(s->inc, s, &v);
    x->cls = smd_val_uniform(x->entry) ? K_UNIFORM : K_UNKNOWN;
    if (x->var->type & WL_T_REFERENCE) {
      x->cls = K_UNKNOWN;
      continue;
    }
    if (!u.other && u.nsteps > 0 && (smd_int_form(x->entry) || x->entry->kind == V_PTR)) {
      /* v += smx_step with one loop-invariant smx_step */
      bool ok = true;
      const wl_lform *smx_step = NULL;
      state tmp;
      smd_st_copy(&tmp, entry);
      bool rec = c->record;
      c->record = false;
      for (unsigned k = 0; k < u.nsteps && ok; k++) {
        const wl_lform *f =
            u.steps[k] ? smd_int_form(sme_eval(c, &tmp, u.steps[k])) : wl_lf_const(&c->lc, 1);
        f = wl_lf_scale(&c->lc, f, u.signs[k]);
        if (!f || !wl_lf_uniform(f) || (smx_step && !wl_lf_equal(smx_step, f)))
          ok = false;
        smx_step = f;
        if (u.steps[k]) /* the smx_step must not change in the loop */
          for (unsigned m = 0; m < as->n && ok; m++) {
            const wl_expr *se = wl_expr_strip(u.steps[k]);
            if (se && se->kind == WL_E_REF && se->var == as->v[m])
              ok = false;
          }
      }
      c->record = rec;
      smd_st_free(&tmp);
      if (ok && smx_step) {
        x->cls = K_INDUCTION;
        x->smx_step = smx_step;
        continue;
      }
    }
    long long lo, hi;
    wl_lf_range(&c->lc, smd_int_form(x->entry), 0, &lo, &hi);
    if (x->cls == K_UNIFORM && smd_int_form(x->entry) && !u.mixed && u.nsteps == 0) {
      if (u.grows && !u.shrinks && lo >= 1)
        x->lo = lo;
      else if (u.shrinks && !u.grows && lo >= 0) {
        x->lo = 0;
        x->hi = hi;
      }
    }
  }
}

/* The loop's variables at the head of an unknown iteration. */
static void havoc(ctx *c, state *st, const loopvar *lv, unsigned n, bool keep_cycle) {
  for (unsigned i = 0; i < n; i++) {
    const loopvar *x = &lv[i];
    if (x->cls == K_CYCLE && keep_cycle)
      continue;
    const val *e = x->entry, *nv = smd_vunk(false);
    if (x->cls == K_INDUCTION) {
      unsigned k = wl_sym_fresh(&c->lc, "iteration", 0, WL_INF);
      const wl_lform *add = wl_lf_mul(&c->lc, wl_lf_sym(&c->lc, k, 1), x->smx_step);
      if (e->kind == V_PTR)
        nv = sme_ptr_add(c, e, add, 1);
      else
        nv = smd_vint(c, wl_lf_add(&c->lc, smd_int_form(e), add), false);
    } else if (x->cls == K_UNIFORM || x->cls == K_CYCLE) {
      const wl_lform *f = wl_lf_sym(&c->lc, wl_sym_fresh(&c->lc, x->var->name, x->lo, x->hi), 1);
      if (e->kind == V_PTR)
        nv = smd_vptr_with(c, e, f);
      else if (smd_int_form(e) || smd_is_int_type(x->var->type))
        nv = smd_vint(c, f, true);
      else
        nv = smd_vunk(true);
    } else if (e->kind == V_PTR) {
      nv = smd_vptr_with(c, e, NULL);
    }
    smd_st_set(st, x->var, nv);
    if (x->var->type & WL_T_ARRAY)
      sme_forget_elems(c, st, x->var);
  }
}

/* One iteration: condition, body, continue paths, increment. */
static const iteration *enter_iteration(ctx *c, const wl_stmt *loop, unsigned index) {
  const iteration *saved = c->iter;
  iteration *it = wl_arena_alloc(&c->ar, sizeof *it);
  it->loop = loop;
  it->index = index;
  it->parent = saved;
  c->iter = it;
  return saved;
}

static void iterate(ctx *c, state *st, const wl_stmt *s, frame *fr, bool check_cond) {
  if (check_cond && s->expr && s->kind != WL_S_RANGE_FOR) {
    c->stmt = s;
    const cond *k = smd_cond_of(c, sme_eval(c, st, s->expr));
    if (smd_cond_definite(k) == 0) {
      st->live = false;
      return;
    }
    st->g = smd_guard_push(c, st->g, k);
  }
  fr->has_cont = false;
  smd_st_free(&fr->cont);
  smx_exec_stmt(c, st, s->then_s);
  if (fr->has_cont)
    smd_join_into(c, st, &fr->cont);
  if (st->live && s->inc) {
    c->stmt = s;
    (void)sme_eval(c, st, s->inc);
  }
}

/* What an unrolling attempt may have to give back: the arena's
 * allocations since it began, and what refers to them (the memos set since,
 * interned strings, element variables, values of parameters, lane-form
 * symbols and the constants made once). */
typedef struct attempt_mark {
  wl_arena_mark ar;
  wl_lctx_mark lc;
  size_t nundo, nstrings, nelem_vars, ndata_params;
  unsigned long returns;
} attempt_mark;

static void attempt_begin(ctx *c, attempt_mark *m) {
  m->ar = wl_arena_mark_now(&c->ar);
  m->lc = wl_lctx_mark_now(&c->lc);
  m->nundo = c->nundo;
  m->nstrings = c->strings.n;
  m->nelem_vars = c->elem_vars.n;
  m->ndata_params = c->data_params.n;
  m->returns = c->returns;
  c->attempts++;
}

/* The attempt is over; when it failed and recorded no return into a frame
 * that outlives it (a frame's joined state keeps its values), its memory is
 * given back. Its memos stay noted while an enclosing attempt may still
 * fail. */
static void attempt_end(ctx *c, attempt_mark *m, bool failed) {
  c->attempts--;
  if (failed && c->returns == m->returns) {
    if (wl_arena_size(&c->ar) > c->peak)
      c->peak = wl_arena_size(&c->ar);
    smd_memo_undo(c, m->nundo);
    c->strings.n = m->nstrings;
    c->elem_vars.n = m->nelem_vars;
    c->data_params.n = m->ndata_params;
    wl_lctx_forget(&c->lc, m->lc);
    c->given_back += wl_arena_release(&c->ar, m->ar);
  } else if (!c->attempts) {
    c->nundo = 0;
  }
}

/* Runs the loop iteration by iteration while its condition is known in every
 * lane; false (and nothing changed) when that fails. */
static bool try_unroll(ctx *c, state *st, const wl_stmt *s) {
  if (s->kind == WL_S_RANGE_FOR)
    return false;
  size_t nraces = c->sm->nraces;
  unsigned long limit = c->step_limit, pair_limit = c->pair_limit;
  size_t arena_limit = c->arena_limit;
  if (c->steps + UNROLL_BUDGET < limit)
    c->step_limit = c->steps + UNROLL_BUDGET;
  if (c->pairs + UNROLL_PAIR_BUDGET < pair_limit)
    c->pair_limit = c->pairs + UNROLL_PAIR_BUDGET;
  if (smd_arena_used(c) + UNROLL_ARENA_BUDGET < arena_limit)
    c->arena_limit = smd_arena_used(c) + UNROLL_ARENA_BUDGET;
  attempt_mark mark;
  attempt_begin(c, &mark);
  state cur;
  smd_st_copy(&cur, st);
  frame fr;
  push_frame(c, &fr, false);
  bool ok = false, mixed = false;
  const iteration *outer = c->iter;
  for (unsigned it = 0;; it++) {
    c->iter = outer;
    if (c->exhausted)
      break;
    if (!cur.live) {
      ok = true;
      break;
    }
    (void)enter_iteration(c, s, it);
    const cond *k = smd_cond_true();
    if ((it > 0 || s->kind != WL_S_DO) && s->expr) {
      c->stmt = s;
      k = smd_cond_of(c, sme_eval(c, &cur, s->expr));
    }
    bool lanes[WL_LANES];
    if (!smd_cond_lanes(k, lanes))
      break;
    int d = smd_cond_definite(k);
    if (d == 0) {
      ok = true;
      break;
    }
    if (it >= MAX_UNROLL)
      break;
    if (d == 1) {
      iterate(c, &cur, s, &fr, false);
    } else {
      mixed = true;
      state b, out;
      smd_st_copy(&b, &cur);
      b.g = smd_guard_push(c, cur.g, k);
      iterate(c, &b, s, &fr, false);
      smd_join_states(c, &out, &b, &cur, k);
      out.g = cur.g;
      smd_st_move(&cur, &out);
      smd_st_free(&b);
    }
  }
  c->iter = outer;
  /* an attempt stopped by its own bounds (not the function's) gives way to
   * the general path, which has what is left of the function's budget (the
   * memory an attempt took counts against the rest, given back or not) */
  bool exhausted_here = c->exhausted && c->steps <= limit && c->pairs <= pair_limit &&
                        smd_arena_used(c) <= arena_limit;
  c->step_limit = limit;
  c->pair_limit = pair_limit;
  c->arena_limit = arena_limit;
  if (exhausted_here)
    c->exhausted = false;
  if (!ok) {
    pop_frame(c, &fr);
    smd_st_free(&cur);
    c->sm->nraces = nraces; /* forget what the attempt found: the general path finds it again */
    attempt_end(c, &mark, true);
    return false;
  }
  if (fr.has_brk)
    smd_join_into(c, &cur, &fr.brk);
  if (mixed) {
    assigned as;
    collect_assigned(c, s, &as);
    for (unsigned i = 0; i < as.n; i++) {
      smd_st_set(&cur, as.v[i], smd_vunk(false));
      if (as.v[i]->type & WL_T_ARRAY)
        sme_forget_elems(c, &cur, as.v[i]);
    }
  }
  cur.g = st->g;
  pop_frame(c, &fr);
  smd_st_move(st, &cur);
  attempt_end(c, &mark, false);
  return true;
}

#define MAX_CYCLE 8

/* A uniform loop variable that starts from a number and then takes a short
 * cycle of numbers (the index of a ping-pong buffer): its values from the
 * start, in order; 0 when there is none. Iteration i + 1 then sees the value
 * that follows iteration i's, not any value. */
static unsigned find_cycle(ctx *c, const state *st, const wl_stmt *s, loopvar *lv, unsigned n,
                           long long *vals) {
  for (unsigned i = 0; i < n; i++) {
    long long v;
    if (lv[i].cls != K_UNIFORM || !smd_int_form(lv[i].entry) ||
        !wl_lf_const_value(smd_int_form(lv[i].entry), &v))
      continue;
    unsigned nv = 0;
    vals[nv++] = v;
    for (;;) {
      state d;
      smd_st_copy(&d, st);
      havoc(c, &d, lv, n, false);
      smd_st_set(&d, lv[i].var, smd_vint(c, wl_lf_const(&c->lc, vals[nv - 1]), true));
      bool rec = c->record;
      c->record = false;
      frame fr;
      push_frame(c, &fr, false);
      iterate(c, &d, s, &fr, false);
      pop_frame(c, &fr);
      c->record = rec;
      const wl_lform *f = d.live ? smd_int_form(smd_st_get(c, &d, lv[i].var)) : NULL;
      bool known = f && wl_lf_const_value(f, &v);
      smd_st_free(&d);
      if (!known)
        break;
      bool seen = false;
      for (unsigned k = 0; k < nv && !seen; k++)
        seen = vals[k] == v;
      if (seen) {
        lv[i].cls = K_CYCLE;
        return nv;
      }
      if (nv == MAX_CYCLE)
        break;
      vals[nv++] = v;
    }
  }
  return 0;
}

/* Whether the body runs at least once: a do loop, `for (;;)` / `while (true)`, or a condition
 * that holds in every lane on entry (`for (int k = 0; k < TILES; ...)` with TILES >= 1). */
static bool runs_at_least_once(ctx *c, const state *st, const wl_stmt *s) {
  if (s->kind == WL_S_DO || (!s->expr && s->kind == WL_S_FOR))
    return true;
  if (!s->expr || s->kind == WL_S_RANGE_FOR)
    return false;
  state tmp;
  smd_st_copy(&tmp, st);
  bool rec = c->record;
  c->record = false;
  c->stmt = s;
  const cond *k = smd_cond_of(c, sme_eval(c, &tmp, s->expr));
  c->record = rec;
  smd_st_free(&tmp);
  int d = smd_cond_definite(k);
  if (d != -1 || k->kind != C_CMP || !k->f || (k->op != WL_C_LE && k->op != WL_C_NE))
    return d == 1;
  /* i < N with i = threadIdx.x and N >= 1024: true in every lane from the ranges */
  for (unsigned l = 0; l < WL_LANES; l++) {
    long long lo, hi;
    wl_lf_range(&c->lc, k->f, l, &lo, &hi);
    if (k->op == WL_C_LE ? hi > 0 : (lo <= 0 && hi >= 0))
      return false;
  }
  return true;
}

/* Two iterations with fresh values of what the loop changes: the second meets
 * what the first left pending (a write in iteration i, a read in i + 1). */
static void loop_general(ctx *c, state *st, const wl_stmt *s) {
  assigned as;
  collect_assigned(c, s, &as);
  loopvar *lv = wl_arena_alloc(&c->ar, (as.n + 1) * sizeof *lv);
  classify(c, st, s, &as, lv);
  /* which "uniform" variables stay uniform through an iteration (each round
   * demotes at least one, or ends: a value that depends on the lane never
   * becomes a warp-uniform symbol) */
  for (unsigned round = 0; round <= as.n; round++) {
    state d;
    smd_st_copy(&d, st);
    havoc(c, &d, lv, as.n, false);
    bool rec = c->record;
    c->record = false;
    frame fr;
    push_frame(c, &fr, false);
    iterate(c, &d, s, &fr, s->kind != WL_S_DO);
    if (fr.has_brk)
      smd_join_into(c, &d, &fr.brk);
    pop_frame(c, &fr);
    c->record = rec;
    bool changed = false;
    for (unsigned i = 0; i < as.n; i++)
      if (lv[i].cls == K_UNIFORM && d.live && !smd_val_uniform(smd_st_get(c, &d, lv[i].var))) {
        lv[i].cls = K_UNKNOWN;
        changed = true;
      }
    smd_st_free(&d);
    if (!changed)
      break;
  }
  long long cycle[MAX_CYCLE];
  unsigned ncycle = find_cycle(c, st, s, lv, as.n, cycle);
  const wl_var *cyc_var = NULL;
  for (unsigned i = 0; i < as.n; i++)
    if (lv[i].cls == K_CYCLE)
      cyc_var = lv[i].var;
  frame fr;
  push_frame(c, &fr, false);
  state out;
  smd_st_copy(&out, st);
  if (runs_at_least_once(c, st, s)) /* no path skips the body (and a barrier in it) */
    out.npend = 0;
  const iteration *outer = c->iter;
  /* with a cycle, once for each of its values: iteration i gets it, i + 1 the next one */
  for (unsigned run = 0; run < (ncycle ? ncycle : 1); run++) {
    state p1, p2;
    smd_st_copy(&p1, st);
    havoc(c, &p1, lv, as.n, false);
    if (cyc_var)
      smd_st_set(&p1, cyc_var, smd_vint(c, wl_lf_const(&c->lc, cycle[run]), true));
    (void)enter_iteration(c, s, 2 * run);
    iterate(c, &p1, s, &fr, s->kind != WL_S_DO || run > 0);
    smd_st_copy(&p2, &p1);
    p2.g = st->g;
    if (p2.live) {
      havoc(c, &p2, lv, as.n, true);
      c->iter = outer;
      (void)enter_iteration(c, s, 2 * run + 1);
      iterate(c, &p2, s, &fr, true);
    }
    c->iter = outer;
    if (p1.live)
      smd_pend_union(&out, &p1);
    if (p2.live)
      smd_pend_union(&out, &p2);
    smd_st_free(&p1);
    smd_st_free(&p2);
  }
  if (fr.has_brk)
    smd_pend_union(&out, &fr.brk);
  havoc(c, &out, lv, as.n, false);
  for (unsigned i = 0; i < as.n; i++)
    if (lv[i].cls == K_INDUCTION && !smd_val_uniform(lv[i].entry))
      smd_st_set(&out, lv[i].var,
                 lv[i].entry->kind == V_PTR ? smd_vptr_with(c, lv[i].entry, NULL)
                                            : smd_vunk(false));
  out.live = true;
  smd_st_move(st, &out);
  pop_frame(c, &fr);
}

static void exec_loop(ctx *c, state *st, const wl_stmt *s) {
  if (s->init)
    smx_exec_stmt(c, st, s->init);
  if (s->kind == WL_S_RANGE_FOR)
    for (unsigned i = 0; i < s->nvars; i++)
      smd_st_set(st, s->vars[i], smd_vunk(false));
  if (!st->live || c->exhausted)
    return;
  if (!try_unroll(c, st, s))
    loop_general(c, st, s);
}

static void exec_switch(ctx *c, state *st, const wl_stmt *s) {
  if (s->init)
    smx_exec_stmt(c, st, s->init);
  c->stmt = s;
  (void)sme_eval(c, st, s->expr);
  const wl_stmt *body = s->then_s;
  frame fr;
  push_frame(c, &fr, true);
  state entry;
  smd_st_copy(&entry, st);
  bool has_default = false;
  if (body && body->kind == WL_S_COMPOUND) {
    st->live = false;
    for (unsigned i = 0; i < body->nkids; i++) {
      const wl_stmt *k = body->kids[i];
      while (k && (k->kind == WL_S_CASE || k->kind == WL_S_DEFAULT)) {
        has_default |= k->kind == WL_S_DEFAULT;
        smd_join_into(c, st, &entry);
        k = k->then_s;
      }
      smx_exec_stmt(c, st, k);
    }
  } else {
    smx_exec_stmt(c, st, body);
  }
  if (!has_default)
    smd_join_into(c, st, &entry);
  if (fr.has_brk)
    smd_join_into(c, st, &fr.brk);
  smd_st_free(&entry);
  pop_frame(c, &fr);
}

static void exec_asm(ctx *c, state *st, const wl_stmt *s) {
  const char *t = s->asm_text ? s->asm_text : "";
  if (strstr(t, "bar.sync") || strstr(t, "barrier.sync") || strstr(t, "bar.warp.sync") ||
      strstr(t, "barrier.cta") || strstr(t, "bar.cta")) {
    st->npend = 0;
    return;
  }
  c->stmt = s;
  for (unsigned i = 0; i < s->nkids; i++)
    if (s->kids[i]->expr && i > 0)
      (void)sme_eval(c, st, s->kids[i]->expr);
  if (s->nkids > 0) {
    const wl_var *out = ref_var(s->kids[0]->expr);
    if (out && !(out->flags & (WL_V_SHARED | WL_V_GLOBAL)))
      smd_st_set(st, out,
                 strstr(t, "%laneid") ? smd_vint(c, wl_lf_lane(&c->lc), false) : smd_vunk(false));
  }
}

void smx_exec_stmt(ctx *c, state *st, const wl_stmt *s) {
  if (!s || !st->live || !smx_step(c))
    return;
  switch (s->kind) {
  case WL_S_COMPOUND:
  case WL_S_OTHER:
    for (unsigned i = 0; i < s->nkids && st->live; i++)
      smx_exec_stmt(c, st, s->kids[i]);
    break;
  case WL_S_EXPR:
    c->stmt = s;
    (void)sme_eval(c, st, s->expr);
    break;
  case WL_S_DECL: exec_decl(c, st, s); break;
  case WL_S_IF: {
    if (s->init)
      smx_exec_stmt(c, st, s->init);
    c->stmt = s;
    const cond *k = smd_cond_of(c, sme_eval(c, st, s->expr));
    if (k->kind == C_UNK && k->uni)
      k = smd_cond_branch(c);
    exec_branches(c, st, k, s->then_s, s->else_s);
    break;
  }
  case WL_S_FOR:
  case WL_S_WHILE:
  case WL_S_DO:
  case WL_S_RANGE_FOR: exec_loop(c, st, s); break;
  case WL_S_SWITCH: exec_switch(c, st, s); break;
  case WL_S_CASE:
  case WL_S_DEFAULT:
  case WL_S_LABEL: smx_exec_stmt(c, st, s->then_s); break;
  case WL_S_BREAK: to_frame(c, st, true); break;
  case WL_S_CONTINUE: to_frame(c, st, false); break;
  case WL_S_RETURN: {
    c->stmt = s;
    const val *v = s->expr ? sme_eval(c, st, s->expr) : NULL;
    fnframe *fr = c->nfns ? c->fns[c->nfns - 1] : NULL;
    if (fr && c->nfns > 1 && !smr_guard_reachable(c, st->g)) {
      /* a return no lane takes (if (numVals == 0) return; with numVals =
       * blockDim.x): the caller must not go on with this path's accesses,
       * since after the call its conditions are no longer known */
      st->live = false;
      break;
    }
    if (fr) {
      c->returns++;
      if (v)
        fr->retv = fr->retv ? smd_join_vals(c, fr->retv, v, NULL) : v;
      if (fr->has_ret)
        smd_join_into(c, &fr->ret, st);
      else
        smd_st_copy(&fr->ret, st);
      fr->has_ret = true;
    }
    st->live = false;
    break;
  }
  case WL_S_ASM: exec_asm(c, st, s); break;
  case WL_S_GOTO:
  case WL_S_NULL: break;
  }
}
