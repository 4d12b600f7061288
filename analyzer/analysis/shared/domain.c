/* shared/domain.c - the abstract domain: values, conditions, guards, per-path states, built-in
 * symbols and default values, joins (see shared.h and internal.h). */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *smd_intern(ctx *c, const char *s) {
  if (!s)
    return NULL;
  for (size_t i = 0; i < c->strings.n; i++)
    if (strcmp(c->strings.v[i], s) == 0)
      return c->strings.v[i];
  char *d = wl_arena_strdup(&c->ar, s);
  wl_vec_push(&c->strings, d);
  return d;
}

struct memo_undo {
  void *field;
  size_t size;
  unsigned char old[sizeof(void *)];
};

void smd_memo_set(ctx *c, void *field, const void *value, size_t size) {
  if (c->attempts) {
    if (c->nundo == c->capundo) {
      c->capundo = c->capundo ? c->capundo * 2 : 64;
      c->undo = wl_xrealloc(c->undo, c->capundo * sizeof *c->undo);
    }
    struct memo_undo *u = &c->undo[c->nundo++];
    if (size > sizeof u->old)
      abort(); /* memos are pointers and flags */
    u->field = field;
    u->size = size;
    memcpy(u->old, field, size);
  }
  memcpy(field, value, size);
}

void smd_memo_undo(ctx *c, size_t n) {
  while (c->nundo > n) {
    const struct memo_undo *u = &c->undo[--c->nundo];
    memcpy(u->field, u->old, u->size);
  }
}

static const val VAL_UNK = {.kind = V_UNK, .uni = false};
static const val VAL_UNK_UNI = {.kind = V_UNK, .uni = true};
static const cond COND_TRUE = {C_TRUE, WL_C_EQ, NULL, NULL, NULL, true, 0};
static const cond COND_FALSE = {C_FALSE, WL_C_EQ, NULL, NULL, NULL, true, 0};
static const cond COND_UNK = {C_UNK, WL_C_EQ, NULL, NULL, NULL, false, 0};
static const cond COND_UNK_UNI = {C_UNK, WL_C_EQ, NULL, NULL, NULL, true, 0};

val *smd_new_val(ctx *c, vkind k) {
  val *v = wl_arena_alloc(&c->ar, sizeof *v);
  v->kind = k;
  return v;
}

const val *smd_vunk(bool uni) { return uni ? &VAL_UNK_UNI : &VAL_UNK; }
const cond *smd_cond_unk(bool uni) { return uni ? &COND_UNK_UNI : &COND_UNK; }
const cond *smd_cond_true(void) { return &COND_TRUE; }

/* A new lane-dependent unknown with its own identity (see val.data). */
const val *smd_vdata(ctx *c) {
  val *v = smd_new_val(c, V_UNK);
  v->data = true;
  return v;
}

const val *smd_vvary(ctx *c) {
  val *v = smd_new_val(c, V_UNK);
  v->vary = true;
  return v;
}

const val *smd_vint(ctx *c, const wl_lform *f, bool uni_if_unknown) {
  if (!f)
    return smd_vunk(uni_if_unknown);
  val *v = smd_new_val(c, V_INT);
  v->f = f;
  return v;
}

const val *smd_vptr_with(ctx *c, const val *p, const wl_lform *off) {
  val *v = smd_new_val(c, V_PTR);
  *v = *p;
  v->kind = V_PTR;
  v->f = off;
  v->poly = NULL;
  v->data = v->vary = false;
  v->dkey = NULL;
  v->dbase = NULL;
  v->from = NULL;
  return v;
}

bool smd_val_uniform(const val *v) {
  switch (v->kind) {
  case V_INT: return wl_lf_uniform(v->f);
  case V_PTR: return v->f && wl_lf_uniform(v->f);
  case V_COND: return v->c->uni;
  case V_UNK: return v->uni;
  }
  return false;
}

const wl_lform *smd_int_form(const val *v) {
  return (v->kind == V_INT || v->kind == V_COND) ? v->f : NULL;
}

unsigned long long smd_shape_prod(const unsigned *s, unsigned n) {
  unsigned long long p = 1;
  for (unsigned i = 0; i < n; i++) {
    if (!s[i] || p > (1ULL << 40))
      return 0; /* unknown extent, or too large to be an array of shared memory */
    p *= s[i];
  }
  return p;
}

static bool same_storage_val(const val *a, const val *b) {
  if (a->dyn != b->dyn || (!a->dyn && a->root != b->root))
    return false;
  if (!a->tag || a->tag != b->tag || a->field != b->field || a->width != b->width)
    return false;
  return a->nshape == b->nshape && memcmp(a->shape, b->shape, sizeof a->shape) == 0;
}

static bool vals_equal(const val *a, const val *b) {
  if (a == b)
    return true;
  if (a->kind != b->kind)
    return false;
  switch (a->kind) {
  case V_UNK: return a->uni == b->uni;
  case V_INT: return wl_lf_equal(a->f, b->f);
  case V_COND: return a->c == b->c;
  case V_PTR:
    return same_storage_val(a, b) && a->vol == b->vol &&
           ((!a->f && !b->f) || (a->f && b->f && wl_lf_equal(a->f, b->f)));
  }
  return false;
}

/* ---- conditions ---- */

static const cond *mk_cond(ctx *c, ckind k, wl_cop op, const wl_lform *f, const cond *a,
                           const cond *b) {
  cond *n = wl_arena_alloc(&c->ar, sizeof *n);
  n->kind = k;
  n->op = op;
  n->f = f;
  n->a = a;
  n->b = b;
  n->uni = k == C_CMP ? wl_lf_uniform(f) : (a && b ? a->uni && b->uni : false);
  n->bsym = 0;
  return n;
}

/* truth of a comparison per lane when it needs no symbol; false otherwise */
bool smd_cond_lanes(const cond *k, bool out[WL_LANES]) {
  switch (k->kind) {
  case C_TRUE:
  case C_FALSE:
    for (unsigned l = 0; l < WL_LANES; l++)
      out[l] = k->kind == C_TRUE;
    return true;
  case C_UNK: return false;
  case C_CMP:
    if (!wl_lf_concrete(k->f))
      return false;
    for (unsigned l = 0; l < WL_LANES; l++) {
      long long v = k->f->t[0].k[l];
      out[l] = k->op == WL_C_EQ ? v == 0 : k->op == WL_C_NE ? v != 0 : v <= 0;
    }
    return true;
  case C_AND:
  case C_OR: {
    bool a[WL_LANES], b[WL_LANES];
    if (!smd_cond_lanes(k->a, a) || !smd_cond_lanes(k->b, b))
      return false;
    for (unsigned l = 0; l < WL_LANES; l++)
      out[l] = k->kind == C_AND ? a[l] && b[l] : a[l] || b[l];
    return true;
  }
  }
  return false;
}

/* 1: true in every lane, 0: false in every lane, -1: depends */
int smd_cond_definite(const cond *k) {
  bool v[WL_LANES];
  if (!smd_cond_lanes(k, v))
    return -1;
  for (unsigned l = 1; l < WL_LANES; l++)
    if (v[l] != v[0])
      return -1;
  return v[0] ? 1 : 0;
}

static const cond *cond_simplify(ctx *c, const cond *k) {
  int d = smd_cond_definite(k);
  (void)c;
  return d == 1 ? &COND_TRUE : d == 0 ? &COND_FALSE : k;
}

const cond *smd_cond_cmp(ctx *c, const wl_lform *f, wl_cop op) {
  if (!f)
    return &COND_UNK;
  return cond_simplify(c, mk_cond(c, C_CMP, op, f, NULL, NULL));
}

/* The condition of an `if` that is the same in every lane but not known
 * (cudpp's `if (traits::isBackward())`): a fresh symbol b in [0, 1], the
 * then-arm taken where b == 1, so that the accesses of each arm keep their
 * arm's condition and the values the arms leave are joined as one form of b
 * (smd_join_vals) instead of being lost. */
const cond *smd_cond_branch(ctx *c) {
  unsigned id = wl_sym_fresh(&c->lc, "%branch", 0, 1);
  const wl_lform *f = wl_lf_sub(&c->lc, wl_lf_sym(&c->lc, id, 1), wl_lf_const(&c->lc, 1));
  cond *k = (cond *)mk_cond(c, C_CMP, WL_C_EQ, f, NULL, NULL);
  k->uni = true;
  k->bsym = id;
  return k;
}

const cond *smd_cond_and(ctx *c, const cond *a, const cond *b) {
  if (a->kind == C_FALSE || b->kind == C_FALSE)
    return &COND_FALSE;
  if (a->kind == C_TRUE)
    return b;
  if (b->kind == C_TRUE)
    return a;
  return cond_simplify(c, mk_cond(c, C_AND, WL_C_EQ, NULL, a, b));
}

const cond *smd_cond_or(ctx *c, const cond *a, const cond *b) {
  if (a->kind == C_TRUE || b->kind == C_TRUE)
    return &COND_TRUE;
  if (a->kind == C_FALSE)
    return b;
  if (b->kind == C_FALSE)
    return a;
  return cond_simplify(c, mk_cond(c, C_OR, WL_C_EQ, NULL, a, b));
}

const cond *smd_cond_not(ctx *c, const cond *k) {
  switch (k->kind) {
  case C_TRUE: return &COND_FALSE;
  case C_FALSE: return &COND_TRUE;
  case C_UNK: return k;
  case C_CMP:
    if (k->op == WL_C_EQ)
      return mk_cond(c, C_CMP, WL_C_NE, k->f, NULL, NULL);
    if (k->op == WL_C_NE)
      return mk_cond(c, C_CMP, WL_C_EQ, k->f, NULL, NULL);
    /* !(f <= 0)  <=>  1 - f <= 0 */
    return smd_cond_cmp(c, wl_lf_sub(&c->lc, wl_lf_const(&c->lc, 1), k->f), WL_C_LE);
  case C_AND: return smd_cond_or(c, smd_cond_not(c, k->a), smd_cond_not(c, k->b));
  case C_OR: return smd_cond_and(c, smd_cond_not(c, k->a), smd_cond_not(c, k->b));
  }
  return &COND_UNK;
}

const val *smd_vcond(ctx *c, const cond *k) {
  val *v = smd_new_val(c, V_COND);
  v->c = k;
  bool t[WL_LANES];
  if (smd_cond_lanes(k, t)) {
    long long z[WL_LANES];
    for (unsigned l = 0; l < WL_LANES; l++)
      z[l] = t[l];
    v->f = wl_lf_lanes(&c->lc, z);
  }
  return v;
}

const cond *smd_cond_of(ctx *c, const val *v) {
  switch (v->kind) {
  case V_COND: return v->c;
  case V_INT: return smd_cond_cmp(c, v->f, WL_C_NE);
  case V_PTR: return &COND_UNK_UNI;
  case V_UNK: return v->uni ? &COND_UNK_UNI : &COND_UNK;
  }
  return &COND_UNK;
}

/* ---- guards ---- */

/* whether a condition has a lane-dependent part that cannot be evaluated per lane */
static bool cond_unknown(const cond *k) {
  switch (k->kind) {
  case C_UNK: return !k->uni;
  case C_AND:
  case C_OR: return cond_unknown(k->a) || cond_unknown(k->b);
  default: return false;
  }
}

const guard *smd_guard_push(ctx *c, const guard *g, const cond *k) {
  if (k->kind == C_TRUE || (k->kind == C_UNK && k->uni))
    return g;
  guard *n = wl_arena_alloc(&c->ar, sizeof *n);
  n->c = k;
  n->next = g;
  n->depth = g ? g->depth + 1 : 1;
  n->unk = (g && g->unk) || cond_unknown(k);
  return n;
}

static const guard *guard_common(const guard *a, const guard *b) {
  while (a && b && a != b) {
    if (a->depth >= b->depth)
      a = a->next;
    else
      b = b->next;
  }
  return a == b ? a : NULL;
}

/* ------------------------------------------------------------------------ */
/* States                                                                   */

void smd_st_init(state *s) { memset(s, 0, sizeof *s); }

void smd_st_free(state *s) {
  free(s->env);
  free(s->pend);
  memset(s, 0, sizeof *s);
}

void smd_st_copy(state *dst, const state *src) {
  smd_st_init(dst);
  dst->live = src->live;
  dst->g = src->g;
  if (src->nenv) {
    dst->env = wl_xmalloc(src->nenv * sizeof *dst->env);
    memcpy(dst->env, src->env, src->nenv * sizeof *dst->env);
  }
  dst->nenv = dst->capenv = src->nenv;
  if (src->npend) {
    dst->pend = wl_xmalloc(src->npend * sizeof *dst->pend);
    memcpy(dst->pend, src->pend, src->npend * sizeof *dst->pend);
  }
  dst->npend = dst->cappend = src->npend;
}

void smd_st_move(state *dst, state *src) {
  smd_st_free(dst);
  *dst = *src;
  smd_st_init(src);
}

const val *smd_st_lookup(const state *s, const wl_var *v) {
  for (unsigned i = s->nenv; i-- > 0;)
    if (s->env[i].var == v)
      return s->env[i].v;
  return NULL;
}

void smd_st_set(state *s, const wl_var *v, const val *x) {
  for (unsigned i = s->nenv; i-- > 0;)
    if (s->env[i].var == v) {
      s->env[i].v = x;
      return;
    }
  if (s->nenv == s->capenv) {
    s->capenv = s->capenv ? s->capenv * 2 : 16;
    s->env = wl_xrealloc(s->env, s->capenv * sizeof *s->env);
  }
  s->env[s->nenv].var = v;
  s->env[s->nenv++].v = x;
}

void smd_st_push_pend(ctx *c, state *s, acc *a) {
  if (s->npend == MAX_PENDING) {
    memmove(s->pend, s->pend + 1, (s->npend - 1) * sizeof *s->pend);
    s->npend--;
    c->sm->incomplete = true;
  }
  if (s->npend == s->cappend) {
    s->cappend = s->cappend ? s->cappend * 2 : 16;
    s->pend = wl_xrealloc(s->pend, s->cappend * sizeof *s->pend);
  }
  s->pend[s->npend++] = a;
}

/* dst->pend = dst->pend U src->pend (both sorted by seq) */
void smd_pend_union(state *dst, const state *src) {
  if (!src->npend)
    return;
  acc **out = wl_xmalloc((dst->npend + src->npend) * sizeof *out);
  unsigned i = 0, j = 0, n = 0;
  while (i < dst->npend || j < src->npend) {
    acc *x;
    if (j == src->npend || (i < dst->npend && dst->pend[i]->seq < src->pend[j]->seq))
      x = dst->pend[i++];
    else if (i == dst->npend || src->pend[j]->seq < dst->pend[i]->seq)
      x = src->pend[j++];
    else
      x = dst->pend[i++], j++;
    out[n++] = x;
  }
  if (n > MAX_PENDING) {
    memmove(out, out + (n - MAX_PENDING), MAX_PENDING * sizeof *out);
    n = MAX_PENDING;
  }
  free(dst->pend);
  dst->pend = out;
  dst->npend = dst->cappend = n;
}

/* ------------------------------------------------------------------------ */
/* Built-in symbols and default values of variables                         */

const wl_lform *smd_sym_form(ctx *c, const char *name, long long lo, long long hi) {
  return wl_lf_sym(&c->lc, wl_sym_named(&c->lc, NULL, name, lo, hi), 1);
}

/* A value the host chose: a kernel or template argument, a field of one, a global. */
const wl_lform *smd_param_form(ctx *c, const void *key, const char *name, long long lo,
                               long long hi) {
  unsigned id = wl_sym_named(&c->lc, key, name, lo, hi);
  wl_sym_set_param(&c->lc, id);
  return wl_lf_sym(&c->lc, id, 1);
}

/* In a 1-D block: K == blockDim.x / 32 (1..32) and W, the warp's index in the
 * block, with W <= K - 1 (threadIdx.x < blockDim.x; W >= 0 from its range). */
unsigned smd_warps_sym(ctx *c) { return wl_sym_named(&c->lc, NULL, "%ntid.x/32", 1, 32); }
unsigned smd_warp_sym(ctx *c) {
  unsigned w = wl_sym_named(&c->lc, NULL, "%warp", 0, 31);
  if (!c->multi_dim) /* there blockDim.x is not 32 * K */
    wl_sym_set_below(&c->lc, w, smd_warps_sym(c));
  return w;
}

/* The thread's linear rank in the block (threadIdx.x in a 1-D block). */
const wl_lform *smd_thread_x(ctx *c) {
  /* threadIdx.x == 32 * W + lane (blockDim.x a multiple of 32) */
  return wl_lf_add(&c->lc, wl_lf_lane(&c->lc), wl_lf_sym(&c->lc, smd_warp_sym(c), WL_LANES));
}

bool smd_is_int_type(unsigned t) {
  if (t & (WL_T_POINTER | WL_T_ARRAY | WL_T_FLOATING | WL_T_REFERENCE))
    return false;
  return (t & (WL_T_INTEGER | WL_T_DEPENDENT)) != 0;
}

static bool is_root_param(const ctx *c, const wl_var *v) {
  for (unsigned i = 0; i < c->root->nparams; i++)
    if (c->root->params[i] == v)
      return true;
  return false;
}

/* The memory a pointer (or reference) parameter of a device function that no
 * function of the file calls points to: of unknown space (the legacy callers
 * pass shared memory, but nothing here says so). The parameter stands for the
 * storage. */
const val *smd_param_storage(ctx *c, const wl_var *v) {
  val *p = smd_new_val(c, V_PTR);
  p->f = wl_lf_const(&c->lc, 0);
  p->root = v;
  p->space = WL_MEM_UNKNOWN;
  p->tag = sme_norm_type(c, v->type_spelling, true);
  p->vol = v->type_spelling && strstr(v->type_spelling, "volatile");
  return p;
}

/* Value of a variable that has no binding on this path. */
const val *smd_var_default(ctx *c, const wl_var *v) {
  if (v->has_ival)
    return smd_vint(c, wl_lf_const(&c->lc, v->ival), true);
  if ((v->flags & WL_V_PARAM) && is_root_param(c, v)) {
    bool kernel = (c->root->flags & WL_F_GLOBAL) != 0;
    bool ref_obj = (v->type & WL_T_REFERENCE) &&
                   !(v->type & (WL_T_INTEGER | WL_T_FLOATING | WL_T_POINTER | WL_T_DEPENDENT));
    bool array = false;
    for (size_t i = 0; i < c->array_params.n && !array; i++)
      array = c->array_params.v[i] == v;
    /* a kernel's own pointers are global memory, which its other threads (a
     * launch of one thread, a grid-stride loop) share in ways not visible
     * here: not analyzed */
    if (!kernel && (ref_obj || ((v->type & WL_T_POINTER) && array)))
      return smd_param_storage(c, v);
  }
  for (size_t i = 0; i < c->tid_params.n; i++)
    if (c->tid_params.v[i] == v)
      return smd_vint(c, smd_thread_x(c), false);
  if ((v->flags & WL_V_PARAM) && !c->root_params_uniform && smd_is_int_type(v->type) &&
      is_root_param(c, v)) {
    /* another integer parameter of an uncalled device function: a value per
     * lane, the same one at each use (addByte(s, data, tag)'s data) */
    for (size_t i = 0; i < c->data_params.n; i += 2)
      if (c->data_params.v[i] == v)
        return c->data_params.v[i + 1];
    const val *d = smd_vdata(c);
    wl_vec_push(&c->data_params, (void *)v);
    wl_vec_push(&c->data_params, (void *)d);
    return d;
  }
  bool global = (v->flags & WL_V_GLOBAL) != 0;
  if (global && v->name && strcmp(v->name, "warpSize") == 0)
    return smd_vint(c, wl_lf_const(&c->lc, WL_LANES), true);
  bool uniform = global;
  for (unsigned i = 0; c->root_params_uniform && i < c->root->nparams && !uniform; i++)
    uniform = c->root->params[i] == v; /* a kernel's parameters are the same in every lane */
  if (!uniform || (v->flags & WL_V_SHARED))
    return smd_vunk(false);
  if (smd_is_int_type(v->type)) {
    long long lo = (v->type & WL_T_UNSIGNED) ? 0 : -WL_INF;
    return smd_vint(c, smd_param_form(c, v, v->name, lo, WL_INF), true);
  }
  return smd_vunk(true);
}

const val *smd_st_get(ctx *c, const state *s, const wl_var *v) {
  const val *x = smd_st_lookup(s, v);
  return x ? x : smd_var_default(c, v);
}

/* ---- joins ---- */

/* A fresh warp-uniform unknown standing for one of two uniform forms (or
 * pointer offsets); host-chosen when either is. */
static const wl_lform *join_sym(ctx *c, const wl_lform *fa, const wl_lform *fb) {
  long long lo1, hi1, lo2, hi2;
  wl_lf_range(&c->lc, fa, 0, &lo1, &hi1);
  wl_lf_range(&c->lc, fb, 0, &lo2, &hi2);
  unsigned id = wl_sym_fresh(&c->lc, "join", lo1 < lo2 ? lo1 : lo2, hi1 > hi2 ? hi1 : hi2);
  if (wl_lf_has_param(&c->lc, fa) || wl_lf_has_param(&c->lc, fb))
    wl_sym_set_param(&c->lc, id);
  return wl_lf_sym(&c->lc, id, 1);
}

/* Join of two values reaching one point; k: the branch condition that chose
 * between them (NULL when unknown). */
const val *smd_join_vals(ctx *c, const val *a, const val *b, const cond *k) {
  if (vals_equal(a, b))
    return a;
  bool take[WL_LANES];
  bool lanes = k && smd_cond_lanes(k, take);
  bool uni_split = k && k->uni;
  if (k && k->bsym && !lanes) {
    /* the arms of an if on an unknown warp-uniform condition: b's value plus
     * (a's - b's) times the branch's symbol, when either differs by lane */
    const wl_lform *bs = wl_lf_sym(&c->lc, k->bsym, 1), *f = NULL;
    const wl_lform *fa = a->kind == V_PTR ? a->f : smd_int_form(a);
    const wl_lform *fb = b->kind == V_PTR ? b->f : smd_int_form(b);
    bool ptrs = a->kind == V_PTR && b->kind == V_PTR && same_storage_val(a, b);
    if (fa && fb && !(wl_lf_uniform(fa) && wl_lf_uniform(fb)) &&
        (ptrs || (a->kind != V_PTR && b->kind != V_PTR)))
      f = wl_lf_add(&c->lc, fb, wl_lf_mul(&c->lc, wl_lf_sub(&c->lc, fa, fb), bs));
    if (f && ptrs) {
      val *v = (val *)smd_vptr_with(c, a, f);
      v->vol = a->vol || b->vol;
      return v;
    }
    if (f)
      return smd_vint(c, f, false);
  }
  if (a->kind == V_PTR && b->kind == V_PTR && same_storage_val(a, b)) {
    const wl_lform *f = NULL;
    if (lanes)
      f = wl_lf_select(&c->lc, take, a->f, b->f);
    else if (uni_split && smd_val_uniform(a) && smd_val_uniform(b))
      f = join_sym(c, a->f, b->f);
    val *v = (val *)smd_vptr_with(c, a, f);
    v->vol = a->vol || b->vol;
    return v;
  }
  const wl_lform *fa = smd_int_form(a), *fb = smd_int_form(b);
  if (fa && fb) {
    if (lanes)
      return smd_vint(c, wl_lf_select(&c->lc, take, fa, fb), false);
    if (uni_split && wl_lf_uniform(fa) && wl_lf_uniform(fb))
      return smd_vint(c, join_sym(c, fa, fb), true);
  }
  return smd_vunk(uni_split && smd_val_uniform(a) && smd_val_uniform(b));
}

/* Joins the environments of a and b into out (a new state); k as in smd_join_vals. */
void smd_join_states(ctx *c, state *out, const state *a, const state *b, const cond *k) {
  if (!a->live && !b->live) {
    smd_st_copy(out, a);
    smd_pend_union(out, b);
    out->live = false;
    return;
  }
  if (!b->live) {
    smd_st_copy(out, a);
    return;
  }
  if (!a->live) {
    smd_st_copy(out, b);
    return;
  }
  smd_st_init(out);
  out->live = true;
  out->g = guard_common(a->g, b->g);
  for (unsigned i = 0; i < a->nenv; i++) {
    const val *vb = smd_st_lookup(b, a->env[i].var);
    if (!vb)
      vb = smd_var_default(c, a->env[i].var);
    smd_st_set(out, a->env[i].var, smd_join_vals(c, a->env[i].v, vb, k));
  }
  for (unsigned i = 0; i < b->nenv; i++)
    if (!smd_st_lookup(a, b->env[i].var))
      smd_st_set(out, b->env[i].var,
                 smd_join_vals(c, smd_var_default(c, b->env[i].var), b->env[i].v, k));
  smd_pend_union(out, a);
  smd_pend_union(out, b);
}

/* *into = join(*into, *from); from is left unchanged */
void smd_join_into(ctx *c, state *into, const state *from) {
  state out;
  smd_join_states(c, &out, into, from, NULL);
  smd_st_move(into, &out);
}
