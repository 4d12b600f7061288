/* shared.c - the shared-memory access analysis (see shared.h): abstract
 * execution of each kernel over lane forms, shared-memory pointers, branch
 * conditions and barriers, recording the pairs of accesses by two lanes of
 * one warp that may meet on an element with no barrier between them. */
#include "shared.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "affine.h"
#include "buf.h"

#define MAX_UNROLL 64         /* iterations of a loop with a constant trip count */
#define MAX_CALL_DEPTH 8      /* inlined calls */
#define MAX_LOOP_NEST 64      /* loop and switch frames */
#define STEP_BUDGET 150000    /* statements executed per analyzed function */
#define UNROLL_BUDGET 20000   /* statements one unrolling attempt may take */
#define PAIR_BUDGET 8000000UL /* lane pairs examined per analyzed function */
#define MAX_PENDING 512       /* accesses remembered since the last barrier on a path */

/* ------------------------------------------------------------------------ */
/* Results                                                                  */

struct wl_smem {
  wl_smem_race *races;
  size_t nraces, capraces;
  wl_smem_access *accs;
  size_t naccs, capaccs;
  size_t *slots; /* open addressing over accs: index + 1, 0 = empty */
  size_t nslots;
  size_t *rslots; /* open addressing over races by pair of expressions */
  size_t nrslots, nrused;
  bool incomplete;
};

static size_t hash_ptr(const void *p, bool w) {
  uint64_t h = (uint64_t)(uintptr_t)p ^ (w ? 0x5bd1e995u : 0u);
  h *= 0x9E3779B97F4A7C15ULL;
  return (size_t)(h ^ (h >> 29));
}

static const wl_smem_access *find_access(const wl_smem *sm, const wl_expr *e, bool write) {
  if (!sm->nslots)
    return NULL;
  for (size_t i = hash_ptr(e, write) & (sm->nslots - 1);; i = (i + 1) & (sm->nslots - 1)) {
    size_t s = sm->slots[i];
    if (!s)
      return NULL;
    const wl_smem_access *a = &sm->accs[s - 1];
    if (a->expr == e && a->write == write)
      return a;
  }
}

static void note_access(wl_smem *sm, const wl_smem_access *a) {
  if (find_access(sm, a->expr, a->write))
    return;
  if ((sm->naccs + 1) * 2 > sm->nslots) {
    size_t n = sm->nslots ? sm->nslots * 2 : 64;
    free(sm->slots);
    sm->slots = wl_xcalloc(n, sizeof *sm->slots);
    sm->nslots = n;
    for (size_t k = 0; k < sm->naccs; k++) {
      size_t i = hash_ptr(sm->accs[k].expr, sm->accs[k].write) & (n - 1);
      while (sm->slots[i])
        i = (i + 1) & (n - 1);
      sm->slots[i] = k + 1;
    }
  }
  if (sm->naccs == sm->capaccs) {
    sm->capaccs = sm->capaccs ? sm->capaccs * 2 : 32;
    sm->accs = wl_xrealloc(sm->accs, sm->capaccs * sizeof *sm->accs);
  }
  sm->accs[sm->naccs] = *a;
  size_t i = hash_ptr(a->expr, a->write) & (sm->nslots - 1);
  while (sm->slots[i])
    i = (i + 1) & (sm->nslots - 1);
  sm->slots[i] = ++sm->naccs;
}

/* ------------------------------------------------------------------------ */
/* Values, conditions, guards, accesses                                     */

typedef enum vkind { V_UNK, V_INT, V_PTR, V_COND } vkind;

typedef enum ckind { C_TRUE, C_FALSE, C_UNK, C_CMP, C_AND, C_OR } ckind;

typedef struct cond cond;
struct cond {
  ckind kind;
  wl_cop op; /* C_CMP: f op 0 */
  const wl_lform *f;
  const cond *a, *b;
  bool uni; /* the same truth in every lane */
};

typedef struct val {
  vkind kind;
  bool uni;          /* V_UNK: known warp-uniform */
  const wl_lform *f; /* V_INT: value; V_PTR: element offset (NULL: unknown); V_COND: 0/1 */
  const cond *c;     /* V_COND */
  /* V_PTR: a pointer into shared memory, or (as an address) an lvalue there */
  const wl_var *root; /* the __shared__ variable, or the parameter (space) */
  wl_mem_space space;
  bool dyn;           /* dynamic shared memory (every extern __shared__ array) */
  const char *tag;    /* element type the offset counts in */
  const char *field;  /* member path for accesses of struct members */
  bool field_scalar;  /* field is a scalar member: the offset still counts whole structs */
  unsigned shape[4];  /* extents of the pointee (of the object, for an address) */
  unsigned nshape;
  bool vol;
  /* in a kernel with 2-D or 3-D blocks: the value as a polynomial in
   * threadIdx.x/y/z and blockDim.x/y (see poly below), NULL if it is not one */
  const struct poly *poly;
  /* V_UNK, not uniform: a value read from memory (or computed from one and
   * warp-uniform numbers) that may differ between lanes in ways not known; the
   * val itself is its identity (one lane's value of it is the same wherever
   * this val flows), see data_pair */
  bool data;
  /* V_UNK: computed from the lane's own identity (threadIdx.x << 27 | count):
   * the value differs between lanes */
  bool vary;
  /* V_PTR with f == NULL: the element is dbase + (the value dkey, data) */
  const struct val *dkey;
  const wl_lform *dbase;
} val;

typedef struct guard guard;
typedef struct reach reach;
struct guard {
  const cond *c;
  const guard *next;
  unsigned depth;
  bool unk; /* some condition here depends on the lane in a way not known (see check_pair) */
  reach *r; /* lanes that get here, once computed */
};

/* Which iteration of which enclosing loops an access happened in. */
typedef struct iteration iteration;
struct iteration {
  const wl_stmt *loop;
  unsigned index;
  const iteration *parent;
};

/* The lanes that get past a guard's conditions. */
struct reach {
  unsigned char lane[WL_LANES]; /* 0: never gets here, 1: does, 2: when cons[l] hold */
  wl_lcons *cons[WL_LANES];
  unsigned ncons[WL_LANES];
};

typedef struct acc {
  wl_smem_access info;
  bool dyn;
  const char *tag, *field; /* interned: compared by pointer */
  bool field_scalar;       /* val.field_scalar */
  const wl_lform *off;     /* element, NULL when unknown */
  const wl_lform *wval;    /* value stored (writes), NULL when unknown */
  bool wvary; /* the value stored may differ between lanes (val.vary or .data, or wval) */
  const val *dkey;         /* off == NULL: the element is dbase + this value (val.dkey) */
  const wl_lform *dbase;
  const guard *g;
  const wl_expr *call;
  const iteration *iter;
  unsigned seq;
  struct by_value *by_value; /* the constant part of off, lanes by value; once needed */
} acc;

typedef struct by_value {
  long long v[WL_LANES];
  unsigned char lane[WL_LANES];
} by_value;

typedef struct binding {
  const wl_var *var;
  const val *v;
} binding;

typedef struct state {
  bool live;
  binding *env;
  unsigned nenv, capenv;
  acc **pend; /* sorted by seq */
  unsigned npend, cappend;
  const guard *g;
} state;

typedef struct frame {
  bool is_switch;
  bool has_brk, has_cont;
  state brk, cont;
} frame;

typedef struct fnframe {
  const wl_func *f;
  bool has_ret;
  state ret;
  const val *retv;
} fnframe;

typedef struct ctx {
  wl_smem *sm;
  const wl_tu *tu;
  wl_arena ar;
  wl_lctx lc;
  const wl_func *root;
  bool root_params_uniform;
  bool multi_dim; /* the root (or a function it calls) uses threadIdx.y or .z */
  wl_vec tid_params;   /* integer parameters of an uncalled root taken as thread indices */
  wl_vec array_params; /* pointer parameters of the root used as arrays (p[i], p + i) */
  const wl_tinst *tinst; /* the root's template arguments, when one instantiation is analyzed */
  wl_vec data_params;    /* (parameter, its val.data value) pairs of an uncalled root */
  const wl_func *fn;
  const wl_stmt *stmt;
  const wl_expr *root_call;
  const iteration *iter;
  bool record;
  unsigned seq;
  unsigned long steps, step_limit, pairs;
  bool exhausted;
  frame *loops[MAX_LOOP_NEST];
  unsigned nloops;
  fnframe *fns[MAX_CALL_DEPTH + 1];
  unsigned nfns;
  wl_vec strings; /* interned element types and member paths */
} ctx;

static const char *intern(ctx *c, const char *s) {
  if (!s)
    return NULL;
  for (size_t i = 0; i < c->strings.n; i++)
    if (strcmp(c->strings.v[i], s) == 0)
      return c->strings.v[i];
  char *d = wl_arena_strdup(&c->ar, s);
  wl_vec_push(&c->strings, d);
  return d;
}

static const val VAL_UNK = {.kind = V_UNK, .uni = false};
static const val VAL_UNK_UNI = {.kind = V_UNK, .uni = true};
static const cond COND_TRUE = {C_TRUE, WL_C_EQ, NULL, NULL, NULL, true};
static const cond COND_FALSE = {C_FALSE, WL_C_EQ, NULL, NULL, NULL, true};
static const cond COND_UNK = {C_UNK, WL_C_EQ, NULL, NULL, NULL, false};
static const cond COND_UNK_UNI = {C_UNK, WL_C_EQ, NULL, NULL, NULL, true};

static val *new_val(ctx *c, vkind k) {
  val *v = wl_arena_alloc(&c->ar, sizeof *v);
  v->kind = k;
  return v;
}

static const val *vunk(bool uni) { return uni ? &VAL_UNK_UNI : &VAL_UNK; }

/* A new lane-dependent unknown with its own identity (see val.data). */
static const val *vdata(ctx *c) {
  val *v = new_val(c, V_UNK);
  v->data = true;
  return v;
}

static const val *vvary(ctx *c) {
  val *v = new_val(c, V_UNK);
  v->vary = true;
  return v;
}

static const val *vint(ctx *c, const wl_lform *f, bool uni_if_unknown) {
  if (!f)
    return vunk(uni_if_unknown);
  val *v = new_val(c, V_INT);
  v->f = f;
  return v;
}

static const val *vptr_with(ctx *c, const val *p, const wl_lform *off) {
  val *v = new_val(c, V_PTR);
  *v = *p;
  v->kind = V_PTR;
  v->f = off;
  v->poly = NULL;
  v->data = v->vary = false;
  v->dkey = NULL;
  v->dbase = NULL;
  return v;
}

static bool val_uniform(const val *v) {
  switch (v->kind) {
  case V_INT: return wl_lf_uniform(v->f);
  case V_PTR: return v->f && wl_lf_uniform(v->f);
  case V_COND: return v->c->uni;
  case V_UNK: return v->uni;
  }
  return false;
}

static const wl_lform *int_form(const val *v) {
  return (v->kind == V_INT || v->kind == V_COND) ? v->f : NULL;
}

static unsigned long long shape_prod(const unsigned *s, unsigned n) {
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
  if (!a->tag || a->tag != b->tag || a->field != b->field)
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
  return n;
}

/* truth of a comparison per lane when it needs no symbol; false otherwise */
static bool cond_lanes(const cond *k, bool out[WL_LANES]) {
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
    if (!cond_lanes(k->a, a) || !cond_lanes(k->b, b))
      return false;
    for (unsigned l = 0; l < WL_LANES; l++)
      out[l] = k->kind == C_AND ? a[l] && b[l] : a[l] || b[l];
    return true;
  }
  }
  return false;
}

/* 1: true in every lane, 0: false in every lane, -1: depends */
static int cond_definite(const cond *k) {
  bool v[WL_LANES];
  if (!cond_lanes(k, v))
    return -1;
  for (unsigned l = 1; l < WL_LANES; l++)
    if (v[l] != v[0])
      return -1;
  return v[0] ? 1 : 0;
}

static const cond *cond_simplify(ctx *c, const cond *k) {
  int d = cond_definite(k);
  (void)c;
  return d == 1 ? &COND_TRUE : d == 0 ? &COND_FALSE : k;
}

static const cond *cond_cmp(ctx *c, const wl_lform *f, wl_cop op) {
  if (!f)
    return &COND_UNK;
  return cond_simplify(c, mk_cond(c, C_CMP, op, f, NULL, NULL));
}

static const cond *cond_and(ctx *c, const cond *a, const cond *b) {
  if (a->kind == C_FALSE || b->kind == C_FALSE)
    return &COND_FALSE;
  if (a->kind == C_TRUE)
    return b;
  if (b->kind == C_TRUE)
    return a;
  return cond_simplify(c, mk_cond(c, C_AND, WL_C_EQ, NULL, a, b));
}

static const cond *cond_or(ctx *c, const cond *a, const cond *b) {
  if (a->kind == C_TRUE || b->kind == C_TRUE)
    return &COND_TRUE;
  if (a->kind == C_FALSE)
    return b;
  if (b->kind == C_FALSE)
    return a;
  return cond_simplify(c, mk_cond(c, C_OR, WL_C_EQ, NULL, a, b));
}

static const cond *cond_not(ctx *c, const cond *k) {
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
    return cond_cmp(c, wl_lf_sub(&c->lc, wl_lf_const(&c->lc, 1), k->f), WL_C_LE);
  case C_AND: return cond_or(c, cond_not(c, k->a), cond_not(c, k->b));
  case C_OR: return cond_and(c, cond_not(c, k->a), cond_not(c, k->b));
  }
  return &COND_UNK;
}

static const val *vcond(ctx *c, const cond *k) {
  val *v = new_val(c, V_COND);
  v->c = k;
  bool t[WL_LANES];
  if (cond_lanes(k, t)) {
    long long z[WL_LANES];
    for (unsigned l = 0; l < WL_LANES; l++)
      z[l] = t[l];
    v->f = wl_lf_lanes(&c->lc, z);
  }
  return v;
}

static const cond *cond_of(ctx *c, const val *v) {
  switch (v->kind) {
  case V_COND: return v->c;
  case V_INT: return cond_cmp(c, v->f, WL_C_NE);
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

static const guard *guard_push(ctx *c, const guard *g, const cond *k) {
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

static void st_init(state *s) { memset(s, 0, sizeof *s); }

static void st_free(state *s) {
  free(s->env);
  free(s->pend);
  memset(s, 0, sizeof *s);
}

static void st_copy(state *dst, const state *src) {
  st_init(dst);
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

static void st_move(state *dst, state *src) {
  st_free(dst);
  *dst = *src;
  st_init(src);
}

static const val *st_lookup(const state *s, const wl_var *v) {
  for (unsigned i = s->nenv; i-- > 0;)
    if (s->env[i].var == v)
      return s->env[i].v;
  return NULL;
}

static void st_set(state *s, const wl_var *v, const val *x) {
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

static void st_push_pend(ctx *c, state *s, acc *a) {
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
static void pend_union(state *dst, const state *src) {
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

static const wl_lform *sym_form(ctx *c, const char *name, long long lo, long long hi) {
  return wl_lf_sym(&c->lc, wl_sym_named(&c->lc, NULL, name, lo, hi), 1);
}

/* A value the host chose: a kernel or template argument, a field of one, a global. */
static const wl_lform *param_form(ctx *c, const void *key, const char *name, long long lo,
                                  long long hi) {
  unsigned id = wl_sym_named(&c->lc, key, name, lo, hi);
  wl_sym_set_param(&c->lc, id);
  return wl_lf_sym(&c->lc, id, 1);
}

/* In a 1-D block: K == blockDim.x / 32 (1..32) and W, the warp's index in the
 * block, with W <= K - 1 (threadIdx.x < blockDim.x; W >= 0 from its range). */
static unsigned warps_sym(ctx *c) { return wl_sym_named(&c->lc, NULL, "%ntid.x/32", 1, 32); }
static unsigned warp_sym(ctx *c) {
  unsigned w = wl_sym_named(&c->lc, NULL, "%warp", 0, 31);
  if (!c->multi_dim) /* there blockDim.x is not 32 * K */
    wl_sym_set_below(&c->lc, w, warps_sym(c));
  return w;
}

/* The thread's linear rank in the block (threadIdx.x in a 1-D block). */
static const wl_lform *thread_x(ctx *c) {
  /* threadIdx.x == 32 * W + lane (blockDim.x a multiple of 32) */
  return wl_lf_add(&c->lc, wl_lf_lane(&c->lc), wl_lf_sym(&c->lc, warp_sym(c), WL_LANES));
}

static bool is_int_type(unsigned t) {
  if (t & (WL_T_POINTER | WL_T_ARRAY | WL_T_FLOATING | WL_T_REFERENCE))
    return false;
  return (t & (WL_T_INTEGER | WL_T_DEPENDENT)) != 0;
}

static const char *norm_type(ctx *c, const char *s, bool strip_pointer);

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
static const val *param_storage(ctx *c, const wl_var *v) {
  val *p = new_val(c, V_PTR);
  p->f = wl_lf_const(&c->lc, 0);
  p->root = v;
  p->space = WL_MEM_UNKNOWN;
  p->tag = norm_type(c, v->type_spelling, true);
  p->vol = v->type_spelling && strstr(v->type_spelling, "volatile");
  return p;
}

/* Value of a variable that has no binding on this path. */
static const val *var_default(ctx *c, const wl_var *v) {
  if (v->has_ival)
    return vint(c, wl_lf_const(&c->lc, v->ival), true);
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
      return param_storage(c, v);
  }
  for (size_t i = 0; i < c->tid_params.n; i++)
    if (c->tid_params.v[i] == v)
      return vint(c, thread_x(c), false);
  if ((v->flags & WL_V_PARAM) && !c->root_params_uniform && is_int_type(v->type) &&
      is_root_param(c, v)) {
    /* another integer parameter of an uncalled device function: a value per
     * lane, the same one at each use (addByte(s, data, tag)'s data) */
    for (size_t i = 0; i < c->data_params.n; i += 2)
      if (c->data_params.v[i] == v)
        return c->data_params.v[i + 1];
    const val *d = vdata(c);
    wl_vec_push(&c->data_params, (void *)v);
    wl_vec_push(&c->data_params, (void *)d);
    return d;
  }
  bool global = (v->flags & WL_V_GLOBAL) != 0;
  if (global && v->name && strcmp(v->name, "warpSize") == 0)
    return vint(c, wl_lf_const(&c->lc, WL_LANES), true);
  bool uniform = global;
  for (unsigned i = 0; c->root_params_uniform && i < c->root->nparams && !uniform; i++)
    uniform = c->root->params[i] == v; /* a kernel's parameters are the same in every lane */
  if (!uniform || (v->flags & WL_V_SHARED))
    return vunk(false);
  if (is_int_type(v->type)) {
    long long lo = (v->type & WL_T_UNSIGNED) ? 0 : -WL_INF;
    return vint(c, param_form(c, v, v->name, lo, WL_INF), true);
  }
  return vunk(true);
}

static const val *st_get(ctx *c, const state *s, const wl_var *v) {
  const val *x = st_lookup(s, v);
  return x ? x : var_default(c, v);
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
static const val *join_vals(ctx *c, const val *a, const val *b, const cond *k) {
  if (vals_equal(a, b))
    return a;
  bool take[WL_LANES];
  bool lanes = k && cond_lanes(k, take);
  bool uni_split = k && k->uni;
  if (a->kind == V_PTR && b->kind == V_PTR && same_storage_val(a, b)) {
    const wl_lform *f = NULL;
    if (lanes)
      f = wl_lf_select(&c->lc, take, a->f, b->f);
    else if (uni_split && val_uniform(a) && val_uniform(b))
      f = join_sym(c, a->f, b->f);
    val *v = (val *)vptr_with(c, a, f);
    v->vol = a->vol || b->vol;
    return v;
  }
  const wl_lform *fa = int_form(a), *fb = int_form(b);
  if (fa && fb) {
    if (lanes)
      return vint(c, wl_lf_select(&c->lc, take, fa, fb), false);
    if (uni_split && wl_lf_uniform(fa) && wl_lf_uniform(fb))
      return vint(c, join_sym(c, fa, fb), true);
  }
  return vunk(uni_split && val_uniform(a) && val_uniform(b));
}

/* Joins the environments of a and b into out (a new state); k as in join_vals. */
static void join_states(ctx *c, state *out, const state *a, const state *b, const cond *k) {
  if (!a->live && !b->live) {
    st_copy(out, a);
    pend_union(out, b);
    out->live = false;
    return;
  }
  if (!b->live) {
    st_copy(out, a);
    return;
  }
  if (!a->live) {
    st_copy(out, b);
    return;
  }
  st_init(out);
  out->live = true;
  out->g = guard_common(a->g, b->g);
  for (unsigned i = 0; i < a->nenv; i++) {
    const val *vb = st_lookup(b, a->env[i].var);
    if (!vb)
      vb = var_default(c, a->env[i].var);
    st_set(out, a->env[i].var, join_vals(c, a->env[i].v, vb, k));
  }
  for (unsigned i = 0; i < b->nenv; i++)
    if (!st_lookup(a, b->env[i].var))
      st_set(out, b->env[i].var, join_vals(c, var_default(c, b->env[i].var), b->env[i].v, k));
  pend_union(out, a);
  pend_union(out, b);
}

/* *into = join(*into, *from); from is left unchanged */
static void join_into(ctx *c, state *into, const state *from) {
  state out;
  join_states(c, &out, into, from, NULL);
  st_move(into, &out);
}

/* ------------------------------------------------------------------------ */
/* Races                                                                    */

/* Guard constraints of an access at a lane; false when the lane cannot get there. */
typedef struct consbuf {
  wl_lcons *v;
  unsigned n, cap;
} consbuf;

static void cb_push(consbuf *b, const wl_lcons *x) {
  if (b->n == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 8;
    b->v = wl_xrealloc(b->v, b->cap * sizeof *b->v);
  }
  b->v[b->n++] = *x;
}

static bool inst_cond(ctx *c, const cond *k, unsigned lane, consbuf *out) {
  switch (k->kind) {
  case C_TRUE:
  case C_UNK: return true;
  case C_FALSE: return false;
  case C_CMP: {
    wl_lcons x;
    wl_lin_at(k->f, lane, &x.lin);
    x.op = k->op;
    if (!x.lin.ok)
      return true;
    if (x.lin.n == 0) {
      long long v = x.lin.c;
      return k->op == WL_C_EQ ? v == 0 : k->op == WL_C_NE ? v != 0 : v <= 0;
    }
    cb_push(out, &x);
    return true;
  }
  case C_AND: return inst_cond(c, k->a, lane, out) && inst_cond(c, k->b, lane, out);
  case C_OR: {
    consbuf ta = {0}, tb = {0};
    bool ra = inst_cond(c, k->a, lane, &ta), rb = inst_cond(c, k->b, lane, &tb);
    if (ra && ta.n && !wl_lcons_feasible(&c->lc, ta.v, ta.n))
      ra = false;
    if (rb && tb.n && !wl_lcons_feasible(&c->lc, tb.v, tb.n))
      rb = false;
    const consbuf *keep = ra && !rb ? &ta : rb && !ra ? &tb : NULL;
    if (keep)
      for (unsigned i = 0; i < keep->n; i++)
        cb_push(out, &keep->v[i]);
    free(ta.v);
    free(tb.v);
    return ra || rb;
  }
  }
  return true;
}

/* The lanes that get past every condition of a guard (cached on the guard). */
static const reach *lanes_of(ctx *c, const guard *g) {
  static const reach all = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                             1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                            {0},
                            {0}};
  if (!g)
    return &all;
  if (g->r)
    return g->r;
  reach *r = wl_arena_alloc(&c->ar, sizeof *r);
  consbuf b = {0};
  for (unsigned l = 0; l < WL_LANES; l++) {
    b.n = 0;
    bool ok = true;
    for (const guard *x = g; x && ok; x = x->next)
      ok = inst_cond(c, x->c, l, &b);
    if (ok && b.n && !wl_lcons_feasible(&c->lc, b.v, b.n))
      ok = false;
    r->lane[l] = !ok ? 0 : b.n ? 2 : 1;
    if (ok && b.n) {
      r->cons[l] = wl_arena_alloc(&c->ar, b.n * sizeof *b.v);
      memcpy(r->cons[l], b.v, b.n * sizeof *b.v);
      r->ncons[l] = b.n;
    }
  }
  free(b.v);
  ((guard *)g)->r = r;
  return r;
}

/* Whether some lane can get past a guard's conditions. */
static bool guard_reachable(ctx *c, const guard *g) {
  if (!g)
    return true;
  const reach *r = lanes_of(c, g);
  for (unsigned l = 0; l < WL_LANES; l++) {
    if (r->lane[l] == 1)
      return true;
    if (r->lane[l] == 2 && wl_lcons_feasible(&c->lc, r->cons[l], r->ncons[l]))
      return true;
  }
  return false;
}

static bool same_storage(const acc *a, const acc *b) {
  if (a->dyn != b->dyn || (!a->dyn && a->info.storage != b->info.storage))
    return false;
  /* a whole struct and a scalar member of it (sums[i] and sums[j].x, as a
   * float3 operator+= inlined touches them) overlap at the same element */
  bool fields = a->field == b->field || (!a->field && b->field_scalar) ||
                (!b->field && a->field_scalar);
  return a->tag && a->tag == b->tag && fields;
}

/* Races found, by unordered pair of expressions (slots hold index + 1; entries
 * at or beyond nraces are stale after an abandoned unrolling). */
static size_t pair_hash(const wl_expr *x, const wl_expr *y) {
  return hash_ptr(x, false) + hash_ptr(y, false); /* symmetric */
}

static bool race_known(const wl_smem *sm, const wl_expr *x, const wl_expr *y) {
  if (!sm->nrslots)
    return false;
  for (size_t i = pair_hash(x, y) & (sm->nrslots - 1);; i = (i + 1) & (sm->nrslots - 1)) {
    size_t k = sm->rslots[i];
    if (!k)
      return false;
    if (k - 1 >= sm->nraces)
      continue;
    const wl_smem_race *r = &sm->races[k - 1];
    if ((r->first.expr == x && r->second.expr == y) || (r->first.expr == y && r->second.expr == x))
      return true;
  }
}

static void race_slot(wl_smem *sm, size_t idx) {
  const wl_smem_race *r = &sm->races[idx];
  size_t i = pair_hash(r->first.expr, r->second.expr) & (sm->nrslots - 1);
  while (sm->rslots[i])
    i = (i + 1) & (sm->nrslots - 1);
  sm->rslots[i] = idx + 1;
  sm->nrused++;
}

static void add_race(ctx *c, const acc *a, const acc *b, int la, int lb, bool branches) {
  wl_smem *sm = c->sm;
  if (sm->nraces == sm->capraces) {
    sm->capraces = sm->capraces ? sm->capraces * 2 : 16;
    sm->races = wl_xrealloc(sm->races, sm->capraces * sizeof *sm->races);
  }
  wl_smem_race *r = &sm->races[sm->nraces++];
  memset(r, 0, sizeof *r);
  r->first = a->info;
  r->second = b->info;
  r->lane_first = la;
  r->lane_second = lb;
  if (b->off) {
    wl_lin o;
    wl_lin_at(b->off, (unsigned)lb, &o);
    r->element_known = o.ok && o.n == 0;
    r->element = o.c;
  }
  r->data_index = !b->off;
  for (const iteration *x = a->iter; x && a != b && !branches; x = x->parent)
    for (const iteration *y = b->iter; y; y = y->parent)
      if (x->loop == y->loop && x->index != y->index)
        r->loop_carried = true;
  r->concurrent_branches = branches;
  r->root = c->root;
  r->call = b->call;
  if ((sm->nrused + 1) * 2 > sm->nrslots) {
    free(sm->rslots);
    sm->nrslots = sm->nrslots ? sm->nrslots * 2 : 64;
    sm->rslots = wl_xcalloc(sm->nrslots, sizeof *sm->rslots);
    sm->nrused = 0;
    for (size_t i = 0; i < sm->nraces; i++)
      race_slot(sm, i);
  } else {
    race_slot(sm, sm->nraces - 1);
  }
}

static const by_value *by_value_of(ctx *c, acc *a) {
  if (a->by_value)
    return a->by_value;
  by_value *s = wl_arena_alloc(&c->ar, sizeof *s);
  for (unsigned l = 0; l < WL_LANES; l++) { /* insertion sort, stable: lanes ascending */
    long long v = a->off->t[0].k[l];
    unsigned i = l;
    while (i > 0 && s->v[i - 1] > v) {
      s->v[i] = s->v[i - 1];
      s->lane[i] = s->lane[i - 1];
      i--;
    }
    s->v[i] = v;
    s->lane[i] = (unsigned char)l;
  }
  return a->by_value = s;
}

/* Whether lanes la (doing a) and lb (doing b) can both get there and meet;
 * diff: the difference of the two elements when it is not a number. */
static bool lanes_meet(ctx *c, const reach *ra, unsigned la, const reach *rb, unsigned lb,
                       const wl_lcons *diff, const wl_lcons *extra, unsigned nextra) {
  if (!diff && ra->lane[la] == 1 && rb->lane[lb] == 1)
    return true;
  wl_lcons buf[64];
  unsigned n = 0;
  if (diff)
    buf[n++] = *diff;
  for (unsigned i = 0; i < nextra && n < 64; i++)
    buf[n++] = extra[i];
  for (unsigned i = 0; i < ra->ncons[la] && n < 64; i++)
    buf[n++] = ra->cons[la][i];
  for (unsigned i = 0; i < rb->ncons[lb] && n < 64; i++)
    buf[n++] = rb->cons[lb][i];
  return wl_lcons_feasible(&c->lc, buf, n);
}

/* `s != 0` for each symbol that multiplies the lane in f (its coefficient
 * differs between lanes): a warp-uniform unknown factor of the lane is taken
 * to be non-zero (offset * (tid + 1) does not put every lane on one element). */
static unsigned lane_factors(const wl_lform *f, wl_lcons *out, unsigned n, unsigned max) {
  for (unsigned i = 1; i < f->n && n < max; i++) {
    bool varies = false;
    for (unsigned l = 1; l < WL_LANES && !varies; l++)
      varies = f->t[i].k[l] != f->t[i].k[0];
    bool dup = false;
    for (unsigned j = 0; j < n && !dup; j++)
      dup = out[j].lin.sym[0] == f->t[i].sym;
    if (!varies || dup)
      continue;
    memset(&out[n], 0, sizeof out[n]);
    out[n].lin.ok = true;
    out[n].lin.n = 1;
    out[n].lin.sym[0] = f->t[i].sym;
    out[n].lin.k[0] = 1;
    out[n].op = WL_C_NE;
    n++;
  }
  return n;
}

/* Whether lane la storing through a and lane lb storing through b (both
 * writes, to one element) may leave different values: only when both stored
 * values have lane forms whose difference between the two lanes is not
 * identically zero (s[0] = threadIdx.x). An unknown value (a call's result
 * such as cg::reduce, a shuffle, a load, a float) is taken to be the same in
 * every lane: all lanes writing one element with it is not reported. Pairs
 * that are not both writes are always candidates. */
static bool stores_may_differ(const acc *a, const acc *b, unsigned la, unsigned lb) {
  if (!a->info.write || !b->info.write)
    return true;
  if (!a->wval || !b->wval)
    return false;
  wl_lin va, vb, d;
  wl_lin_at(a->wval, la, &va);
  wl_lin_at(b->wval, lb, &vb);
  wl_lin_sub(&va, &vb, &d);
  return d.ok && (d.n != 0 || d.c != 0);
}

/* a happened before b (or a == b: b executed by two lanes); records a race when
 * two different lanes may touch one element through them.
 *
 * Quiet assumptions (rules/missing-syncwarp.md, Limitations): a pair is not
 * reported when both accesses are reached only past conditions that depend
 * on the lane in a way the analysis cannot evaluate (the race would need two
 * particular lanes to pass them), when the two elements meet only for some
 * value of a host-chosen number (a kernel or template argument: sizes and
 * pitches are taken to keep the lanes of a warp apart), or only when a
 * warp-uniform factor of the lane is zero. */
/* The lock-step tricks with elements chosen by data (the tagged histograms of
 * the pre-Volta samples): lane a stores a value that may differ between lanes
 * (its tag, a value read from memory; not a number or a call's result such as
 * a warp reduction's) to p[d], d a value read from memory, and b then reads p[d] back
 * with the same d; two lanes of a warp may have the same d, and nothing
 * orders one lane's store before the other's read. Only that write-then-read
 * shape is reported: two lanes merely storing through data-chosen elements
 * may be a scatter to distinct places (a permutation), which is fine. */
static void data_pair(ctx *c, acc *a, acc *b, bool branches) {
  if (branches) /* the re-read follows the store on the lane's own path */
    return;
  if (!a->info.write || b->info.write || !a->wvary || a->dkey != b->dkey || !same_storage(a, b))
    return;
  if (!a->dbase || !b->dbase || !wl_lf_uniform(a->dbase) || !wl_lf_equal(a->dbase, b->dbase))
    return;
  if (race_known(c->sm, a->info.expr, b->info.expr))
    return;
  const reach *ra = lanes_of(c, a->g), *rb = lanes_of(c, b->g);
  for (unsigned la = 0; la < WL_LANES; la++)
    for (unsigned lb = 0; lb < WL_LANES; lb++)
      if (la != lb && ra->lane[la] && rb->lane[lb] && lanes_meet(c, ra, la, rb, lb, NULL, NULL, 0)) {
        add_race(c, a, b, (int)la, (int)lb, branches);
        return;
      }
}

static void check_pair(ctx *c, acc *a, acc *b, bool branches) {
  if (!a->info.write && !b->info.write)
    return;
  if (!a->off && !b->off && a->dkey && b->dkey) {
    data_pair(c, a, b, branches);
    return;
  }
  if (!a->off || !b->off || !same_storage(a, b))
    return;
  if (a->g && a->g->unk && b->g && b->g->unk)
    return;
  if (race_known(c->sm, a->info.expr, b->info.expr))
    return;
  if (a->info.write && b->info.write &&
      (!a->wval || !b->wval || (wl_lf_uniform(a->wval) && wl_lf_equal(a->wval, b->wval))))
    return; /* every lane stores the same value, or one not known to differ (stores_may_differ) */
  const reach *ra = lanes_of(c, a->g), *rb = lanes_of(c, b->g);
  if (wl_lf_same_symbolic(a->off, b->off)) {
    /* the elements differ by a number: merge the lanes sorted by element */
    const by_value *sa = by_value_of(c, a), *sb = by_value_of(c, b);
    unsigned i = 0, j = 0;
    while (i < WL_LANES && j < WL_LANES) {
      if (sa->v[i] < sb->v[j]) {
        i++;
      } else if (sa->v[i] > sb->v[j]) {
        j++;
      } else {
        unsigned i2 = i, j2 = j;
        while (i2 < WL_LANES && sa->v[i2] == sa->v[i])
          i2++;
        while (j2 < WL_LANES && sb->v[j2] == sb->v[j])
          j2++;
        for (unsigned y = j; y < j2; y++)
          for (unsigned x = i; x < i2; x++) {
            unsigned la = sa->lane[x], lb = sb->lane[y];
            if (la == lb || !ra->lane[la] || !rb->lane[lb] || !stores_may_differ(a, b, la, lb))
              continue;
            if (++c->pairs > PAIR_BUDGET) {
              c->exhausted = true;
              return;
            }
            if (lanes_meet(c, ra, la, rb, lb, NULL, NULL, 0)) {
              add_race(c, a, b, (int)la, (int)lb, branches);
              return;
            }
          }
        i = i2;
        j = j2;
      }
    }
    return;
  }
  wl_lcons nz[2 * WL_LIN_MAX];
  unsigned nnz = lane_factors(a->off, nz, 0, 2 * WL_LIN_MAX);
  nnz = lane_factors(b->off, nz, nnz, 2 * WL_LIN_MAX);
  for (unsigned lb = 0; lb < WL_LANES; lb++) {
    if (!rb->lane[lb])
      continue;
    wl_lin ob;
    wl_lin_at(b->off, lb, &ob);
    for (unsigned la = 0; la < WL_LANES; la++) {
      if (la == lb || !ra->lane[la] || !stores_may_differ(a, b, la, lb))
        continue;
      if (++c->pairs > PAIR_BUDGET) {
        c->exhausted = true;
        return;
      }
      wl_lin oa;
      wl_lcons d;
      wl_lin_at(a->off, la, &oa);
      wl_lin_sub(&oa, &ob, &d.lin);
      d.op = WL_C_EQ;
      if (!d.lin.ok || (d.lin.n == 0 && d.lin.c != 0) || wl_lin_has_param(&c->lc, &d.lin))
        continue;
      if (lanes_meet(c, ra, la, rb, lb, d.lin.n ? &d : NULL, nz, nnz)) {
        add_race(c, a, b, (int)la, (int)lb, branches);
        return;
      }
    }
  }
}

static void record_access(ctx *c, state *st, const wl_expr *e, const val *p, bool write,
                          const val *stored) {
  if (!c->record || !st->live)
    return;
  /* memory of unknown space at an element that is the same in every lane
   * (val[0], val[1]): as likely each thread's own array as shared; only
   * elements chosen by the lane make it shared between the lanes */
  if (p->space == WL_MEM_UNKNOWN && (p->f ? wl_lf_uniform(p->f) : !p->dkey))
    return;
  acc *a = wl_arena_alloc(&c->ar, sizeof *a);
  a->info.expr = e;
  a->info.stmt = c->stmt;
  a->info.func = c->fn;
  a->info.storage = p->root;
  a->info.space = p->space;
  a->info.write = write;
  a->info.is_volatile = p->vol || (e->type & WL_T_VOLATILE);
  a->info.index_known = p->f != NULL;
  a->dyn = p->dyn;
  a->tag = p->tag;
  a->field = p->field;
  a->field_scalar = p->field && p->field_scalar;
  a->off = p->f;
  a->wval = write && stored ? int_form(stored) : NULL;
  a->wvary = write && stored &&
             (stored->vary || stored->data || (a->wval && !wl_lf_uniform(a->wval)));
  a->dkey = p->f ? NULL : p->dkey;
  a->dbase = p->dbase;
  a->g = st->g;
  a->call = c->root_call;
  a->iter = c->iter;
  a->seq = c->seq++;
  note_access(c->sm, &a->info);
  if (write)
    check_pair(c, a, a, false);
  for (unsigned i = 0; i < st->npend; i++)
    check_pair(c, st->pend[i], a, false);
  st_push_pend(c, st, a);
}

/* ------------------------------------------------------------------------ */
/* Expressions                                                              */

typedef enum akind { A_NONE, A_SHARED, A_LOCAL } akind;
typedef struct addr {
  akind kind;
  const val *p;      /* A_SHARED: the object's address; shape = the object's extents */
  const wl_var *var; /* A_LOCAL */
} addr;

static const val *eval(ctx *c, state *st, const wl_expr *e);
static addr eval_addr(ctx *c, state *st, const wl_expr *e);
static void exec_stmt(ctx *c, state *st, const wl_stmt *s);

/* "volatile float *" -> "float", "float[4][8]" -> "float" */
static const char *norm_type(ctx *c, const char *s, bool strip_pointer) {
  if (!s)
    return NULL;
  char buf[256];
  size_t n = 0;
  const char *p = s;
  while (*p && n + 1 < sizeof buf) {
    if (*p == '[')
      break;
    static const char *const drop[] = {"volatile", "const", "__restrict__", "restrict",
                                       "struct",   "class", "__shared__"};
    bool dropped = false;
    for (size_t i = 0; i < sizeof drop / sizeof drop[0]; i++) {
      size_t l = strlen(drop[i]);
      if (strncmp(p, drop[i], l) == 0 && (p == s || !(p[-1] == '_' || (p[-1] | 32) >= 'a')) &&
          !(p[l] == '_' || ((p[l] | 32) >= 'a' && (p[l] | 32) <= 'z') ||
            (p[l] >= '0' && p[l] <= '9'))) {
        p += l;
        dropped = true;
        break;
      }
    }
    if (dropped)
      continue;
    if (*p != ' ' && *p != '\t' && *p != '\n')
      buf[n++] = *p;
    p++;
  }
  buf[n] = 0;
  if (strip_pointer && n && buf[n - 1] == '*')
    buf[--n] = 0;
  while (n && buf[n - 1] == '&')
    buf[--n] = 0;
  return n ? intern(c, buf) : NULL;
}

static const val *shared_var_addr(ctx *c, const wl_var *v) {
  val *p = new_val(c, V_PTR);
  p->f = wl_lf_const(&c->lc, 0);
  p->root = v;
  p->dyn = (v->flags & WL_V_EXTERN) != 0;
  p->tag = norm_type(c, v->type_spelling, false);
  p->vol = (v->type & WL_T_VOLATILE) != 0;
  p->nshape = v->ndims;
  for (unsigned i = 0; i < v->ndims && i < 4; i++)
    p->shape[i] = v->dims[i];
  return p;
}

/* array object address -> pointer to its first element */
static const val *decay(ctx *c, const val *p) {
  val *q = (val *)vptr_with(c, p, p->f);
  if (q->nshape) {
    memmove(q->shape, q->shape + 1, (q->nshape - 1) * sizeof q->shape[0]);
    q->shape[--q->nshape] = 0;
  }
  return q;
}

/* p + k (k elements of the pointee); kv: the value k is of, when k is NULL */
static const val *ptr_add_val(ctx *c, const val *p, const wl_lform *k, long long sign,
                              const val *kv) {
  unsigned long long unit = shape_prod(p->shape, p->nshape);
  const wl_lform *off = NULL;
  if (unit && p->f && k)
    off = wl_lf_add(&c->lc, p->f, wl_lf_scale(&c->lc, k, sign * (long long)unit));
  val *q = (val *)vptr_with(c, p, off);
  if (!k && kv && kv->data && unit == 1 && sign == 1 && p->f) {
    q->dkey = kv; /* p[d] with d read from memory: the lock-step tricks' elements */
    q->dbase = p->f;
  }
  return q;
}

static const val *ptr_add(ctx *c, const val *p, const wl_lform *k, long long sign) {
  return ptr_add_val(c, p, k, sign, NULL);
}

static const val *read_lvalue(ctx *c, state *st, const wl_expr *e, addr a) {
  if (a.kind == A_SHARED) {
    if (a.p->nshape > 0 || (e->type & WL_T_ARRAY))
      return decay(c, a.p);
    record_access(c, st, e, a.p, false, NULL);
    return vdata(c);
  }
  if (a.kind == A_LOCAL)
    return st_get(c, st, a.var);
  return NULL; /* caller decides */
}

static bool is_builtin_obj(const wl_expr *b, const char *name) {
  b = wl_expr_strip(b);
  return b && b->kind == WL_E_REF && b->name && strcmp(b->name, name) == 0 && b->var &&
         (b->var->flags & WL_V_GLOBAL);
}

/* ---- linear thread ids in 2-D and 3-D blocks ----
 * In a kernel whose blocks may have several rows, threadIdx.x/y/z are not
 * lane forms, but the thread's linear rank in the block,
 *   threadIdx.x + threadIdx.y * blockDim.x (+ threadIdx.z * blockDim.x * blockDim.y),
 * is: the hardware numbers the threads of a block in that order and cuts the
 * sequence into warps of 32, whatever blockDim.x is, so the rank is 32*W + lane
 * like threadIdx.x in a 1-D block. Values built from these builtins carry a
 * small polynomial over them; a sum that is the rank (plus a number) becomes
 * that lane form. */
#define POLY_MAX 8
enum { PX = 1, PY = 2, PZ = 4, PBX = 8, PBY = 16 };
typedef struct poly {
  unsigned n;
  unsigned char m[POLY_MAX]; /* monomial: product of the PX.. factors in the mask (0: 1) */
  long long k[POLY_MAX];
} poly;

static bool poly_term(poly *p, unsigned char m, long long k) {
  for (unsigned i = 0; i < p->n; i++)
    if (p->m[i] == m) {
      p->k[i] += k;
      if (!p->k[i]) {
        p->n--;
        p->m[i] = p->m[p->n];
        p->k[i] = p->k[p->n];
      }
      return true;
    }
  if (!k)
    return true;
  if (p->n == POLY_MAX)
    return false;
  p->m[p->n] = m;
  p->k[p->n++] = k;
  return true;
}

/* v as a polynomial: its own, or a number's; false if it is neither */
static bool poly_get(const val *v, poly *out) {
  memset(out, 0, sizeof *out);
  if (v->poly) {
    *out = *v->poly;
    return true;
  }
  long long k;
  if (v->kind == V_INT && v->f && wl_lf_const_value(v->f, &k))
    return poly_term(out, 0, k);
  return false;
}

static const poly *poly_new(ctx *c, const poly *p) {
  poly *q = wl_arena_alloc(&c->ar, sizeof *q);
  *q = *p;
  return q;
}

static const poly *poly_single(ctx *c, unsigned char m) {
  poly p;
  memset(&p, 0, sizeof p);
  poly_term(&p, m, 1);
  return poly_new(c, &p);
}

/* a op b for + - *; NULL when not a polynomial of the kind kept */
static const poly *poly_arith(ctx *c, int op, const val *a, const val *b) {
  poly pa, pb, r;
  if (!(a->poly || b->poly) || !poly_get(a, &pa) || !poly_get(b, &pb))
    return NULL;
  memset(&r, 0, sizeof r);
  bool add = op == WL_B_ADD || op == WL_B_ADD_ASSIGN, sub = op == WL_B_SUB || op == WL_B_SUB_ASSIGN;
  bool mul = op == WL_B_MUL || op == WL_B_MUL_ASSIGN;
  if (add || sub) {
    r = pa;
    for (unsigned i = 0; i < pb.n; i++)
      if (!poly_term(&r, pb.m[i], sub ? -pb.k[i] : pb.k[i]))
        return NULL;
  } else if (mul) {
    for (unsigned i = 0; i < pa.n; i++)
      for (unsigned j = 0; j < pb.n; j++) {
        if (pa.m[i] & pb.m[j]) /* a square: not a rank */
          return NULL;
        if (!poly_term(&r, (unsigned char)(pa.m[i] | pb.m[j]), pa.k[i] * pb.k[j]))
          return NULL;
      }
  } else {
    return NULL;
  }
  return poly_new(c, &r);
}

/* Whether p is the linear rank plus a number (returned in *k). */
static bool poly_is_rank(const poly *p, long long *k) {
  bool x = false, y = false, z = false;
  *k = 0;
  for (unsigned i = 0; i < p->n; i++) {
    if (p->m[i] == 0)
      *k = p->k[i];
    else if (p->m[i] == PX && p->k[i] == 1)
      x = true;
    else if (p->m[i] == (PY | PBX) && p->k[i] == 1)
      y = true;
    else if (p->m[i] == (PZ | PBX | PBY) && p->k[i] == 1)
      z = true;
    else
      return false;
  }
  return x && y && (z || p->n == 2 + (*k != 0));
}

static const val *with_poly(ctx *c, const val *v, const poly *p) {
  val *w = new_val(c, v->kind);
  *w = *v;
  w->poly = p;
  return w;
}

static const val *builtin_member(ctx *c, const wl_expr *e) {
  if (e->nargs != 1 || !e->name || e->name[1])
    return NULL;
  const wl_expr *b = e->args[0];
  char d = e->name[0];
  if (d != 'x' && d != 'y' && d != 'z')
    return NULL;
  if (is_builtin_obj(b, "threadIdx")) {
    if (c->multi_dim) /* a warp may span rows: x and y both vary in it (see poly) */
      return with_poly(c, vunk(false), poly_single(c, d == 'x' ? PX : d == 'y' ? PY : PZ));
    if (d == 'x')
      return vint(c, thread_x(c), false);
    return vint(c, sym_form(c, d == 'y' ? "%tid.y" : "%tid.z", 0, d == 'y' ? 1023 : 63), true);
  }
  if (is_builtin_obj(b, "blockDim")) {
    if (d == 'x' && c->multi_dim)
      return with_poly(c, vint(c, sym_form(c, "%ntid.x", 1, 1024), true), poly_single(c, PBX));
    if (d == 'y' && c->multi_dim)
      return with_poly(c, vint(c, sym_form(c, "%ntid.y", 1, 1024), true), poly_single(c, PBY));
    if (d == 'x')
      return vint(c, wl_lf_sym(&c->lc, warps_sym(c), WL_LANES), true);
    return vint(c, sym_form(c, d == 'y' ? "%ntid.y" : "%ntid.z", 1, d == 'y' ? 1024 : 64), true);
  }
  if (is_builtin_obj(b, "blockIdx"))
    return vint(c,
                sym_form(c,
                         d == 'x'   ? "%ctaid.x"
                         : d == 'y' ? "%ctaid.y"
                                    : "%ctaid.z",
                         0, WL_INF),
                true);
  if (is_builtin_obj(b, "gridDim"))
    return vint(c,
                sym_form(c,
                         d == 'x'   ? "%nctaid.x"
                         : d == 'y' ? "%nctaid.y"
                                    : "%nctaid.z",
                         1, WL_INF),
                true);
  return NULL;
}

static const char *join_field(ctx *c, const char *base, const char *name) {
  char buf[512];
  snprintf(buf, sizeof buf, "%s%s%s", base ? base : "", base ? "." : "", name ? name : "?");
  return intern(c, buf);
}

static addr member_addr(ctx *c, const val *obj, const wl_expr *e) {
  addr a = {A_SHARED, NULL, NULL};
  unsigned dims[4] = {0}, nd = 0;
  if (e->var && (e->var->type & WL_T_ARRAY))
    for (nd = 0; nd < e->var->ndims && nd < 4; nd++)
      dims[nd] = e->var->dims[nd];
  unsigned long long mult = shape_prod(dims, nd);
  const wl_lform *off = obj->f && mult ? wl_lf_scale(&c->lc, obj->f, (long long)mult) : NULL;
  val *p = (val *)vptr_with(c, obj, off);
  p->field = join_field(c, obj->field, e->name);
  p->field_scalar = nd == 0 && (!obj->field || obj->field_scalar);
  p->nshape = nd;
  memcpy(p->shape, dims, sizeof dims);
  if (e->type & WL_T_VOLATILE)
    p->vol = true;
  a.p = p;
  return a;
}

static addr eval_addr(ctx *c, state *st, const wl_expr *e) {
  addr none = {A_NONE, NULL, NULL};
  if (!e)
    return none;
  switch (e->kind) {
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v)
      return none;
    if (v->flags & WL_V_SHARED) {
      addr a = {A_SHARED, shared_var_addr(c, v), NULL};
      return a;
    }
    if (v->type & WL_T_REFERENCE) {
      const val *b = st_lookup(st, v);
      if (!b && (v->flags & WL_V_PARAM))
        b = var_default(c, v); /* a root's reference parameter (param_storage) */
      if (b && b->kind == V_PTR) {
        addr a = {A_SHARED, b, NULL};
        return a;
      }
      return none;
    }
    if (v->flags & (WL_V_GLOBAL | WL_V_FIELD))
      return none;
    addr a = {A_LOCAL, NULL, v};
    return a;
  }
  case WL_E_INDEX: {
    const wl_expr *base = e->args[0], *idx = e->args[1];
    if (is_int_type(base->type) && (idx->type & (WL_T_POINTER | WL_T_ARRAY))) {
      const wl_expr *t = base; /* 2[a] */
      base = idx;
      idx = t;
    }
    const val *p;
    if (base->type & WL_T_ARRAY) {
      addr b = eval_addr(c, st, base);
      p = b.kind == A_SHARED ? decay(c, b.p) : NULL;
    } else {
      p = eval(c, st, base);
    }
    const val *i = eval(c, st, idx);
    if (!p || p->kind != V_PTR)
      return none;
    addr a = {A_SHARED, ptr_add_val(c, p, int_form(i), 1, i), NULL};
    return a;
  }
  case WL_E_UNARY:
    if (e->op == WL_U_DEREF && e->nargs == 1) {
      const val *p = eval(c, st, e->args[0]);
      if (p->kind != V_PTR)
        return none;
      addr a = {A_SHARED, p, NULL};
      return a;
    }
    break;
  case WL_E_MEMBER: {
    if (e->nargs != 1)
      return none;
    if (e->arrow) {
      const val *p = eval(c, st, e->args[0]);
      return p->kind == V_PTR ? member_addr(c, p, e) : none;
    }
    addr b = eval_addr(c, st, e->args[0]);
    return b.kind == A_SHARED ? member_addr(c, b.p, e) : none;
  }
  case WL_E_CAST:
    if (e->nargs == 1)
      return eval_addr(c, st, e->args[0]);
    break;
  default: break;
  }
  (void)eval(c, st, e);
  return none;
}

static wl_lop lop_of(int op) {
  switch (op) {
  case WL_B_DIV:
  case WL_B_DIV_ASSIGN: return WL_LOP_DIV;
  case WL_B_REM:
  case WL_B_REM_ASSIGN: return WL_LOP_REM;
  case WL_B_SHL:
  case WL_B_SHL_ASSIGN: return WL_LOP_SHL;
  case WL_B_SHR:
  case WL_B_SHR_ASSIGN: return WL_LOP_SHR;
  case WL_B_AND:
  case WL_B_AND_ASSIGN: return WL_LOP_AND;
  case WL_B_OR:
  case WL_B_OR_ASSIGN: return WL_LOP_OR;
  default: return WL_LOP_XOR;
  }
}

/* Unsigned 32-bit operands: negative lanes wrap (so (lane - 1) % 32 == 31 at lane 0). */
static const wl_lform *wrap_u32(ctx *c, const wl_lform *f, const wl_expr *e) {
  if (!f || !wl_lf_concrete(f) || !(e->type & WL_T_UNSIGNED) || e->bytes != 4)
    return f;
  long long k[WL_LANES];
  bool neg = false;
  for (unsigned l = 0; l < WL_LANES; l++) {
    k[l] = f->t[0].k[l];
    if (k[l] < 0 && k[l] >= -(1LL << 32)) {
      k[l] += 1LL << 32;
      neg = true;
    }
  }
  return neg ? wl_lf_lanes(&c->lc, k) : f;
}

/* a op b for arithmetic ops (op: the plain or compound-assignment operator) */
static const val *arith_forms(ctx *c, int op, const val *a, const val *b, const wl_expr *e);

static const val *arith(ctx *c, int op, const val *a, const val *b, const wl_expr *e) {
  const poly *p = c->multi_dim ? poly_arith(c, op, a, b) : NULL;
  if (!p)
    return arith_forms(c, op, a, b, e);
  long long k;
  if (poly_is_rank(p, &k))
    return vint(c, wl_lf_add(&c->lc, thread_x(c), wl_lf_const(&c->lc, k)), false);
  return with_poly(c, arith_forms(c, op, a, b, e), p);
}

static const val *arith_forms(ctx *c, int op, const val *a, const val *b, const wl_expr *e) {
  bool uni = val_uniform(a) && val_uniform(b);
  bool add = op == WL_B_ADD || op == WL_B_ADD_ASSIGN, sub = op == WL_B_SUB || op == WL_B_SUB_ASSIGN;
  if ((add || sub) && a->kind == V_PTR && int_form(b))
    return ptr_add(c, a, int_form(b), sub ? -1 : 1);
  if (add && b->kind == V_PTR && int_form(a))
    return ptr_add(c, b, int_form(a), 1);
  const wl_lform *fa = int_form(a), *fb = int_form(b), *r = NULL;
  if (!fa || !fb) {
    /* a value computed from one read from memory: a new one of its own;
     * anything combined with the lane's identity: varies by lane */
    if (a->data || b->data) /* moved by numbers, or mixed with other values */
      return vdata(c);
    bool la = a->vary || (fa && !wl_lf_uniform(fa)), lb = b->vary || (fb && !wl_lf_uniform(fb));
    bool mixes = op == WL_B_OR || op == WL_B_OR_ASSIGN || op == WL_B_XOR ||
                 op == WL_B_XOR_ASSIGN || op == WL_B_ADD || op == WL_B_ADD_ASSIGN ||
                 op == WL_B_SHL || op == WL_B_SHL_ASSIGN;
    if (mixes && (la || lb) && !(la && lb))
      return vvary(c);
    return vunk(uni);
  }
  switch (op) {
  case WL_B_ADD:
  case WL_B_ADD_ASSIGN: r = wl_lf_add(&c->lc, fa, fb); break;
  case WL_B_SUB:
  case WL_B_SUB_ASSIGN: r = wl_lf_sub(&c->lc, fa, fb); break;
  case WL_B_MUL:
  case WL_B_MUL_ASSIGN: r = wl_lf_mul(&c->lc, fa, fb); break;
  case WL_B_DIV:
  case WL_B_DIV_ASSIGN:
  case WL_B_REM:
  case WL_B_REM_ASSIGN:
  case WL_B_SHR:
  case WL_B_SHR_ASSIGN:
    r = wl_lf_op(&c->lc, lop_of(op), wrap_u32(c, fa, e), fb);
    if (!r && (op == WL_B_DIV || op == WL_B_SHR) && !wl_lf_uniform(fa) && wl_lf_uniform(fb) &&
        wl_lf_has_param(&c->lc, fb)) {
      /* threadIdx.x / THREADS_PER_VECTOR, a template or kernel argument: the
       * index of the lane's group. Legacy code sizes groups to divide the
       * warp, and the lanes it pairs (tid and tid + 16 under
       * THREADS_PER_VECTOR > 16) lie in one group, so the group index is
       * taken to be the same in every lane: conditions on it (row <
       * num_rows) are then warp-uniform, with both outcomes possible. */
      return vint(c, wl_lf_sym(&c->lc, wl_sym_fresh(&c->lc, "group", 0, WL_INF), 1), true);
    }
    break;
  case WL_B_SHL:
  case WL_B_SHL_ASSIGN:
  case WL_B_AND:
  case WL_B_AND_ASSIGN:
  case WL_B_OR:
  case WL_B_OR_ASSIGN:
  case WL_B_XOR:
  case WL_B_XOR_ASSIGN: r = wl_lf_op(&c->lc, lop_of(op), fa, fb); break;
  default: break;
  }
  if (!r && !uni && (op == WL_B_SHL || op == WL_B_SHL_ASSIGN || op == WL_B_OR ||
                     op == WL_B_OR_ASSIGN || op == WL_B_XOR || op == WL_B_XOR_ASSIGN) &&
      wl_lf_uniform(fb) != wl_lf_uniform(fa))
    return vvary(c); /* threadIdx.x << 27: the lane's tag */
  return vint(c, r, uni);
}

static const val *compare(ctx *c, int op, const val *a, const val *b) {
  const wl_lform *fa = int_form(a), *fb = int_form(b);
  if (!fa || !fb) {
    bool uni = val_uniform(a) && val_uniform(b);
    return vcond(c, uni ? &COND_UNK_UNI : &COND_UNK);
  }
  wl_lctx *L = &c->lc;
  const wl_lform *d = wl_lf_sub(L, fa, fb), *one = wl_lf_const(L, 1);
  const cond *k;
  switch (op) {
  case WL_B_LT: k = cond_cmp(c, wl_lf_add(L, d, one), WL_C_LE); break;
  case WL_B_LE: k = cond_cmp(c, d, WL_C_LE); break;
  case WL_B_GT: k = cond_cmp(c, wl_lf_sub(L, one, d), WL_C_LE); break;
  case WL_B_GE: k = cond_cmp(c, wl_lf_scale(L, d, -1), WL_C_LE); break;
  case WL_B_EQ: k = cond_cmp(c, d, WL_C_EQ); break;
  default: k = cond_cmp(c, d, WL_C_NE); break;
  }
  return vcond(c, k);
}

/* Evaluates e with an extra guard (the arm of ?: or the right side of && / ||). */
static const val *eval_guarded(ctx *c, state *st, const wl_expr *e, const cond *k) {
  const guard *saved = st->g;
  st->g = guard_push(c, st->g, k);
  const val *v = eval(c, st, e);
  st->g = saved;
  return v;
}

static const val *assign(ctx *c, state *st, const wl_expr *e) {
  const val *rhs = eval(c, st, e->args[1]);
  addr a = eval_addr(c, st, e->args[0]);
  const val *nv = rhs;
  if (e->op != WL_B_ASSIGN) {
    const val *old = a.kind == A_SHARED  ? read_lvalue(c, st, e->args[0], a)
                     : a.kind == A_LOCAL ? st_get(c, st, a.var)
                                         : vunk(false);
    nv = arith(c, e->op, old, rhs, e);
  }
  if (a.kind == A_SHARED)
    record_access(c, st, e->args[0], a.p, true, nv);
  else if (a.kind == A_LOCAL)
    st_set(st, a.var, nv);
  return nv;
}

static const val *incdec(ctx *c, state *st, const wl_expr *e) {
  addr a = eval_addr(c, st, e->args[0]);
  bool inc = e->op == WL_U_PREINC || e->op == WL_U_POSTINC;
  bool post = e->op == WL_U_POSTINC || e->op == WL_U_POSTDEC;
  const val *old;
  if (a.kind == A_SHARED)
    old = read_lvalue(c, st, e->args[0], a);
  else if (a.kind == A_LOCAL)
    old = st_get(c, st, a.var);
  else
    return vunk(false);
  const val *nv =
      arith(c, inc ? WL_B_ADD : WL_B_SUB, old, vint(c, wl_lf_const(&c->lc, 1), true), e);
  if (a.kind == A_SHARED)
    record_access(c, st, e->args[0], a.p, true, nv);
  else
    st_set(st, a.var, nv);
  return post ? old : nv;
}

/* ---- calls ---- */

static bool is_barrier_name(const char *n) {
  static const char *const names[] = {"__syncthreads",
                                      "__syncthreads_count",
                                      "__syncthreads_and",
                                      "__syncthreads_or",
                                      "__syncwarp",
                                      "__barrier_sync",
                                      "sync",
                                      "arrive_and_wait",
                                      "barrier_sync"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(n, names[i]) == 0)
      return true;
  return false;
}

static bool is_barrier_call(const wl_expr *e) {
  if (!e->name || e->callee)
    return false;
  if (is_barrier_name(e->name))
    return true;
  /* a wrapper defined elsewhere (a header that is missing): my_syncwarp(), block_sync(),
   * local_barrier() */
  return !e->callee_in_prelude && strncmp(e->name, "__", 2) != 0 &&
         (strstr(e->name, "sync") || strstr(e->name, "barrier"));
}

/* A warp-synchronous collective of CUDA 9 and later (__shfl_sync, __ballot_sync,
 * __reduce_add_sync, a cooperative-groups tile's shfl or cg::reduce): no lane
 * of its group leaves it before every lane has arrived. It is taken to order a
 * lane's reads before it with another lane's stores after it (the quiet
 * direction: a read's value is taken before the lane arrives; modern code
 * relies on a warp reduction between a broadcast read and the next store to
 * the same element). It does not make a store before it visible to a read
 * after it: the CUDA guide gives the collectives no memory ordering, that is
 * what __syncwarp() is for. The legacy non-sync forms order nothing. */
static bool is_warp_collective(const wl_expr *e) {
  if (!e->name || e->callee || !e->callee_in_prelude)
    return false;
  static const char *const sync_names[] = {
      "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync",  "__shfl_xor_sync",
      "__ballot_sync",     "__all_sync",        "__any_sync",        "__uni_sync",
      "__match_any_sync",  "__match_all_sync",  "__reduce_add_sync", "__reduce_min_sync",
      "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync",  "__reduce_xor_sync"};
  for (size_t i = 0; i < sizeof sync_names / sizeof sync_names[0]; i++)
    if (strcmp(e->name, sync_names[i]) == 0)
      return true;
  static const char *const cg_names[] = {"reduce", "shfl",      "shfl_up",   "shfl_down",
                                         "shfl_xor", "ballot",   "any",       "all",
                                         "match_any", "match_all", "inclusive_scan",
                                         "exclusive_scan"};
  for (size_t i = 0; i < sizeof cg_names / sizeof cg_names[0]; i++)
    if (strcmp(e->name, cg_names[i]) == 0)
      return true;
  return false;
}

/* the variable a method is called on: g.sync(), tile.thread_rank() */
static const wl_var *method_object(const wl_expr *e) {
  const wl_expr *m = wl_expr_strip(e->callee_expr);
  if (!m || m->kind != WL_E_MEMBER || m->nargs != 1)
    return NULL;
  const wl_expr *o = wl_expr_strip(m->args[0]);
  return o && o->kind == WL_E_REF ? o->var : NULL;
}

/* thread_rank() and friends of cooperative groups, from the group's type */
static const val *cg_call(ctx *c, const wl_expr *e) {
  if (!e->name || e->callee)
    return NULL;
  bool rank = strcmp(e->name, "thread_rank") == 0;
  bool meta = strcmp(e->name, "meta_group_rank") == 0;
  bool size = strcmp(e->name, "size") == 0 || strcmp(e->name, "num_threads") == 0;
  if (size || strcmp(e->name, "meta_group_size") == 0) { /* the same in every lane */
    const wl_var *o = method_object(e);
    const char *t = o && o->type_spelling ? strstr(o->type_spelling, "tile<") : NULL;
    if (!o || !o->type_spelling || !strstr(o->type_spelling, "thread_block"))
      return NULL;
    long n = t ? strtol(t + 5, NULL, 10) : 0;
    if (size && n >= 1 && n <= WL_LANES)
      return vint(c, wl_lf_const(&c->lc, n), true);
    return vunk(true);
  }
  if (!rank && !meta)
    return NULL;
  const wl_expr *m = wl_expr_strip(e->callee_expr);
  const wl_expr *obj = m && m->kind == WL_E_MEMBER && m->nargs == 1 ? m->args[0] : NULL;
  if (rank && wl_expr_is_call(obj, "this_thread_block")) /* this_thread_block().thread_rank() */
    return vint(c, thread_x(c), false);
  const wl_var *o = method_object(e);
  if (!o || !o->type_spelling)
    return NULL;
  const char *t = strstr(o->type_spelling, "tile<");
  if (t) {
    long n = strtol(t + 5, NULL, 10);
    if (n < 1 || n > WL_LANES || (n & (n - 1)))
      return NULL;
    const wl_lform *x = thread_x(c), *r;
    r = wl_lf_op(&c->lc, rank ? WL_LOP_REM : WL_LOP_DIV, x, wl_lf_const(&c->lc, n));
    return vint(c, r, false);
  }
  if (rank && strstr(o->type_spelling, "thread_block"))
    return vint(c, thread_x(c), false);
  return NULL;
}

static bool pure_intrinsic(const char *n) {
  static const char *const names[] = {"min",   "max",    "umin",     "umax",
                                      "abs",   "__popc", "__popcll", "__clz",
                                      "__ffs", "__brev", "__mul24",  "__umul24"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(n, names[i]) == 0)
      return true;
  return false;
}

/* SharedMemory<T>() in a template: the struct's conversion operator, found by USR */
static const wl_func *conversion_operator(const ctx *c, const wl_expr *e) {
  if (e->callee || e->nargs || !e->name || !*e->name)
    return NULL;
  char key[300];
  snprintf(key, sizeof key, "@%s@F@operator", e->name);
  for (unsigned i = 0; i < c->tu->nfuncs; i++) {
    const wl_func *f = c->tu->funcs[i];
    if ((f->flags & WL_F_METHOD) && f->body && f->nparams == 0 && f->usr && strstr(f->usr, key))
      return f;
  }
  return NULL;
}

/* put(i, v) of `auto put = [&](int i, float v) {...}`: operator() of the
 * closure, whose object is the first argument */
static const wl_func *lambda_of(const wl_expr *e) {
  if (e->callee || !e->name || strcmp(e->name, "operator()") != 0 || e->nargs == 0)
    return NULL;
  const wl_expr *o = wl_expr_strip(e->args[0]);
  if (o && o->kind == WL_E_REF && o->var && !(o->var->flags & WL_V_PARAM) && o->var->init)
    o = wl_expr_strip(o->var->init);
  return o && o->kind == WL_E_LAMBDA && o->lambda && o->lambda->body ? o->lambda : NULL;
}

/* Runs f's body for a call e whose arguments from `first` on are f's parameters. */
static const val *inline_call(ctx *c, state *st, const wl_expr *e, const wl_func *f,
                              unsigned first) {
  bool recursive = false;
  for (unsigned i = 0; i < c->nfns; i++)
    recursive |= c->fns[i]->f == f;
  const val **args = wl_arena_alloc(&c->ar, (f->nparams + 1) * sizeof *args);
  const wl_var **outs = wl_arena_alloc(&c->ar, (e->nargs + 1) * sizeof *outs);
  unsigned nouts = 0, nargs = e->nargs > first ? e->nargs - first : 0;
  for (unsigned i = 0; i < nargs; i++) {
    bool ref = i < f->nparams && (f->params[i]->type & WL_T_REFERENCE);
    const wl_expr *arg = e->args[first + i];
    if (ref) {
      addr a = eval_addr(c, st, arg);
      args[i] = a.kind == A_SHARED ? a.p : vunk(false);
      if (a.kind == A_LOCAL)
        outs[nouts++] = a.var;
    } else {
      const val *v = eval(c, st, arg);
      if (i < f->nparams)
        args[i] = v;
    }
  }
  for (unsigned i = 0; i < nouts; i++)
    st_set(st, outs[i], vunk(false));
  if (recursive || c->nfns > MAX_CALL_DEPTH || !st->live)
    return vunk(false);
  state cs;
  st_init(&cs);
  cs.live = true;
  cs.g = st->g;
  if (f->flags & WL_F_LAMBDA) /* the body names the enclosing function's variables */
    for (unsigned i = 0; i < st->nenv; i++)
      st_set(&cs, st->env[i].var, st->env[i].v);
  for (unsigned i = 0; i < f->nparams; i++)
    st_set(&cs, f->params[i], i < nargs && args[i] ? args[i] : vunk(false));
  cs.npend = cs.cappend = st->npend;
  if (st->npend) {
    cs.pend = wl_xmalloc(st->npend * sizeof *cs.pend);
    memcpy(cs.pend, st->pend, st->npend * sizeof *cs.pend);
  }
  fnframe fr;
  memset(&fr, 0, sizeof fr);
  fr.f = f;
  const wl_func *saved_fn = c->fn;
  const wl_stmt *saved_stmt = c->stmt;
  const wl_expr *saved_call = c->root_call;
  if (c->nfns == 1)
    c->root_call = e;
  c->fns[c->nfns++] = &fr;
  c->fn = f;
  exec_stmt(c, &cs, f->body);
  c->nfns--;
  c->fn = saved_fn;
  c->stmt = saved_stmt;
  c->root_call = saved_call;
  if (fr.has_ret)
    join_into(c, &cs, &fr.ret);
  st_free(&fr.ret);
  /* the caller goes on with its own variables and guard, the callee's pending accesses */
  free(st->pend);
  st->pend = cs.pend;
  st->npend = cs.npend;
  st->cappend = cs.cappend;
  cs.pend = NULL;
  st_free(&cs);
  return fr.retv ? fr.retv : vunk(false);
}

/* whether a statement tree declares an extern __shared__ array */
static bool declares_extern_shared(const wl_stmt *s) {
  if (!s)
    return false;
  if (s->kind == WL_S_DECL)
    for (unsigned i = 0; i < s->nvars; i++)
      if ((s->vars[i]->flags & (WL_V_SHARED | WL_V_EXTERN)) == (WL_V_SHARED | WL_V_EXTERN))
        return true;
  for (unsigned i = 0; i < s->nkids; i++)
    if (declares_extern_shared(s->kids[i]))
      return true;
  return false;
}

/* smem.getPointer() on a SharedMemory<T> of a template (a dependent call,
 * resolved by no one): a method of that name, with no parameters, that some
 * class of the file defines returning its extern __shared__ storage (every
 * specialization returns dynamic shared memory; any one stands for all). */
static const wl_func *shared_memory_getter(const ctx *c, const wl_expr *e) {
  if (e->callee || e->nargs || !e->name || !*e->name || e->callee_in_prelude)
    return NULL;
  const wl_expr *m = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  if (!m || m->kind != WL_E_MEMBER)
    return NULL;
  for (unsigned i = 0; i < c->tu->nfuncs; i++) {
    const wl_func *f = c->tu->funcs[i];
    if ((f->flags & WL_F_METHOD) && f->body && f->nparams == 0 && f->name &&
        strcmp(f->name, e->name) == 0 && declares_extern_shared(f->body))
      return f;
  }
  return NULL;
}

/* The built-in operator an unresolved `operatorX` call stands for (WL_B_*),
 * or WL_B_NONE. In a template, arithmetic on dependent types becomes such a
 * call when overloads of the operator are visible (CCCL declares many). */
static int operator_binop(const char *n) {
  static const struct {
    const char *name;
    int op;
  } ops[] = {{"operator*", WL_B_MUL},         {"operator/", WL_B_DIV},
             {"operator%", WL_B_REM},         {"operator+", WL_B_ADD},
             {"operator-", WL_B_SUB},         {"operator<<", WL_B_SHL},
             {"operator>>", WL_B_SHR},        {"operator<", WL_B_LT},
             {"operator>", WL_B_GT},          {"operator<=", WL_B_LE},
             {"operator>=", WL_B_GE},         {"operator==", WL_B_EQ},
             {"operator!=", WL_B_NE},         {"operator&", WL_B_AND},
             {"operator^", WL_B_XOR},         {"operator|", WL_B_OR},
             {"operator&&", WL_B_LAND},       {"operator||", WL_B_LOR},
             {"operator=", WL_B_ASSIGN},      {"operator*=", WL_B_MUL_ASSIGN},
             {"operator/=", WL_B_DIV_ASSIGN}, {"operator%=", WL_B_REM_ASSIGN},
             {"operator+=", WL_B_ADD_ASSIGN}, {"operator-=", WL_B_SUB_ASSIGN},
             {"operator<<=", WL_B_SHL_ASSIGN}, {"operator>>=", WL_B_SHR_ASSIGN},
             {"operator&=", WL_B_AND_ASSIGN}, {"operator^=", WL_B_XOR_ASSIGN},
             {"operator|=", WL_B_OR_ASSIGN}};
  if (!n || strncmp(n, "operator", 8) != 0)
    return WL_B_NONE;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(n, ops[i].name) == 0)
      return ops[i].op;
  return WL_B_NONE;
}

/* A CUDA built-in of the prelude or toolkit (atomics, intrinsics, math), as
 * opposed to a library function of the toolkit's headers (cub's
 * BlockReduce::Sum, which may hold a barrier). */
static bool intrinsic_name(const char *n) {
  return !n || strncmp(n, "__", 2) == 0 || strncmp(n, "atomic", 6) == 0 || pure_intrinsic(n) ||
         strncmp(n, "operator", 8) == 0;
}

static const val *eval_call(ctx *c, state *st, const wl_expr *e) {
  if (e->callee && e->callee->body)
    return inline_call(c, st, e, e->callee, 0);
  int bop = (e->type & WL_T_DEPENDENT) || !e->callee_usr ? operator_binop(e->name) : WL_B_NONE;
  if (bop != WL_B_NONE && e->nargs == 2 && !e->callee_is_method) {
    /* a * b on dependent types: the built-in operator, as the template is
     * instantiated for numbers */
    wl_expr as_op = *e;
    as_op.kind = WL_E_BINARY;
    as_op.op = bop;
    as_op.callee_expr = NULL;
    return eval(c, st, &as_op);
  }
  const wl_func *getter = shared_memory_getter(c, e);
  if (getter)
    return inline_call(c, st, e, getter, 0);
  const wl_func *conv = conversion_operator(c, e);
  if (conv)
    return inline_call(c, st, e, conv, 0);
  const wl_func *lambda = lambda_of(e);
  if (lambda)
    return inline_call(c, st, e, lambda, 1);
  const val **args = wl_arena_alloc(&c->ar, (e->nargs + 1) * sizeof *args);
  bool uni = true, passes_memory = false;
  for (unsigned i = 0; i < e->nargs; i++) {
    const wl_expr *a = e->args[i], *sa = wl_expr_strip(a);
    if (sa && !(sa->type & (WL_T_POINTER | WL_T_ARRAY | WL_T_INTEGER | WL_T_FLOATING)) &&
        (sa->kind == WL_E_REF || sa->kind == WL_E_MEMBER)) {
      a = sa;
      /* an object passed as is (by reference, as a library's TempStorage is) */
      addr ad = eval_addr(c, st, a);
      passes_memory |= ad.kind == A_SHARED;
      args[i] = vunk(false);
    } else {
      args[i] = eval(c, st, a);
      passes_memory |= args[i]->kind == V_PTR;
    }
    uni = uni && val_uniform(args[i]);
  }
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  bool library = !e->callee_in_prelude || !intrinsic_name(e->name);
  if (ce && ce->kind == WL_E_CALL && library) /* T(temp).Sum(x) unresolved: T(temp) decides */
    (void)eval(c, st, ce);
  if (ce && ce->kind == WL_E_MEMBER && ce->nargs == 1 && ce->args[0] && library) {
    /* the object of a method call: a temporary built here (BlockReduce(temp).Sum(x))
     * or an object in shared memory */
    const wl_expr *ob = wl_expr_strip(ce->args[0]);
    if (ob && (ob->kind == WL_E_REF || ob->kind == WL_E_MEMBER || ob->kind == WL_E_INDEX) &&
        !ce->arrow)
      passes_memory |= eval_addr(c, st, ob).kind == A_SHARED;
    else if (ob && ob->kind != WL_E_THIS)
      passes_memory |= eval(c, st, ce->args[0])->kind == V_PTR;
  }
  if (is_barrier_call(e)) {
    st->npend = 0;
    return vunk(true);
  }
  if (is_warp_collective(e)) { /* drops the pending reads; the value is computed below */
    unsigned k = 0;
    for (unsigned i = 0; i < st->npend; i++)
      if (st->pend[i]->info.write)
        st->pend[k++] = st->pend[i];
    st->npend = k;
  }
  if (passes_memory && library) {
    /* a function whose body is not visible receives the memory (a library's
     * block reduction on a __shared__ TempStorage): it may hold a barrier,
     * so nothing before the call is paired with anything after it */
    st->npend = 0;
    return vunk(false);
  }
  const val *cg = cg_call(c, e);
  if (cg)
    return cg;
  if (e->name && e->callee_in_prelude && pure_intrinsic(e->name)) {
    if (e->nargs == 2 && (strstr(e->name, "min") || strstr(e->name, "max")))
      return vint(c,
                  wl_lf_op(&c->lc, strstr(e->name, "min") ? WL_LOP_MIN : WL_LOP_MAX,
                           int_form(args[0]), int_form(args[1])),
                  uni);
    return vunk(uni);
  }
  /* traits::writeSums(), traits::isBackward() in a template: a function of
   * the template's type arguments (its type depends on them), given the same
   * arguments in every lane, gives the same answer in every lane */
  const wl_expr *cx = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  bool dependent_static = (e->type & WL_T_DEPENDENT) && !e->callee_usr && !e->callee_is_method &&
                          !(cx && cx->kind == WL_E_MEMBER);
  return vunk(uni && dependent_static);
}

/* Casting a shared pointer: the element type may change (SharedMemory<T>, float4 loads). */
static const val *cast_ptr(ctx *c, const wl_expr *e, const val *p) {
  const wl_expr *op = e->args[0];
  const char *tag = NULL;
  const wl_tu *tu = c->tu;
  if (wl_tu_in_main(tu, e->range.begin) && wl_tu_in_main(tu, op->range.begin) && !e->macro &&
      op->range.begin.offset > e->range.begin.offset && op->range.begin.offset <= tu->source_len) {
    const char *s = tu->source + e->range.begin.offset;
    size_t n = op->range.begin.offset - e->range.begin.offset;
    const char *open = memchr(s, '<', n), *close = NULL;
    if (open) {
      close = memchr(open, '>', n - (size_t)(open - s));
    } else if ((open = memchr(s, '(', n)) != NULL) {
      close = memchr(open, ')', n - (size_t)(open - s));
    }
    if (open && close && close > open + 1) {
      char *t = wl_arena_strndup(&c->ar, open + 1, (size_t)(close - open - 1));
      tag = norm_type(c, t, true);
    }
  }
  if (tag && tag == p->tag)
    return p;
  if ((e->type & WL_T_DEPENDENT) && p->tag) {
    /* (volatile T *)p in a template: T is the pointee's own type as far as
     * can be seen (the load and store wrappers of legacy code) */
    val *q = (val *)vptr_with(c, p, p->f);
    if (e->type & WL_T_VOLATILE)
      q->vol = true;
    return q;
  }
  long long z;
  bool at_base = p->f && wl_lf_const_value(p->f, &z) && z == 0;
  val *q = (val *)vptr_with(c, p, at_base ? p->f : NULL);
  q->tag = tag;
  q->nshape = 0;
  memset(q->shape, 0, sizeof q->shape);
  q->field = NULL;
  if (e->type & WL_T_VOLATILE)
    q->vol = true;
  return q;
}

/* A conversion to a narrower integer type (short ib = threadIdx.x): the value
 * is kept when it fits in every lane (or its range is unbounded only through
 * unknowns: sizes and iteration counts are taken to fit their types);
 * otherwise it wraps, which a form can express only for an unsigned type
 * (x & mask). A lane-dependent value that cannot be expressed is unknown and
 * lane-dependent, never warp-uniform. */
static const val *narrow(ctx *c, const wl_expr *e, const val *v) {
  const wl_expr *from = e->args[0];
  if (v->kind != V_INT || !is_int_type(e->type) || !e->bytes || e->bytes >= 8 || !from->bytes ||
      e->bytes >= from->bytes)
    return v;
  unsigned bits = 8 * e->bytes;
  bool uns = (e->type & WL_T_UNSIGNED) != 0;
  long long tlo = uns ? 0 : -(1LL << (bits - 1)),
            thi = uns ? (1LL << bits) - 1 : (1LL << (bits - 1)) - 1;
  bool fits = true;
  for (unsigned l = 0; l < WL_LANES && fits; l++) {
    long long lo, hi;
    wl_lf_range(&c->lc, v->f, l, &lo, &hi);
    fits = (lo >= tlo || lo <= -WL_INF) && (hi <= thi || hi >= WL_INF);
  }
  if (fits || wl_lf_uniform(v->f)) /* a uniform value wraps the same way in every lane */
    return v;
  return vint(c, uns ? wl_lf_op(&c->lc, WL_LOP_AND, v->f, wl_lf_const(&c->lc, thi)) : NULL, false);
}

static const val *eval(ctx *c, state *st, const wl_expr *e) {
  if (!e)
    return vunk(false);
  if (e->has_ival && (is_int_type(e->type) || e->kind == WL_E_INT || e->kind == WL_E_BOOL))
    return vint(c, wl_lf_const(&c->lc, e->ival), true);
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_BOOL: return vint(c, wl_lf_const(&c->lc, e->ival), true);
  case WL_E_FLOAT:
  case WL_E_STRING:
  case WL_E_SIZEOF: return vunk(true);
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v) {
      if (is_int_type(e->type) && e->name && (e->type & WL_T_DEPENDENT)) {
        /* a non-type template parameter: the instantiation's number, or host-chosen */
        for (unsigned i = 0; c->tinst && c->fn == c->root && i < c->root->ntparams; i++)
          if (c->tinst->known[i] && strcmp(c->root->tparams[i], e->name) == 0)
            return vint(c, wl_lf_const(&c->lc, c->tinst->vals[i]), true);
        char *n = wl_arena_alloc(&c->ar, strlen(e->name) + 3);
        snprintf(n, strlen(e->name) + 3, "%%T%s", e->name);
        return vint(c, param_form(c, NULL, n, -WL_INF, WL_INF), true);
      }
      return vunk(true);
    }
    addr a = eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    if (r)
      return r;
    return (v->type & WL_T_REFERENCE) ? vunk(false) : st_get(c, st, v);
  }
  case WL_E_MEMBER: {
    const val *b = builtin_member(c, e);
    if (b)
      return b;
    addr a = eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    if (r)
      return r;
    /* a field of a kernel parameter (or global) is warp-uniform */
    const wl_expr *base = e->nargs == 1 ? wl_expr_strip(e->args[0]) : NULL;
    if (base && base->kind == WL_E_REF && base->var && !e->arrow) {
      const val *bv = var_default(c, base->var);
      if (!st_lookup(st, base->var) && bv->uni && is_int_type(e->type)) {
        const char *n = join_field(c, base->var->name, e->name);
        return vint(c, param_form(c, base->var, n, -WL_INF, WL_INF), true);
      }
      return vunk(bv->uni && !st_lookup(st, base->var));
    }
    return vunk(false);
  }
  case WL_E_INDEX: {
    addr a = eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    return r ? r : vdata(c); /* a load of memory not analyzed */
  }
  case WL_E_UNARY: {
    if (e->nargs != 1)
      return vunk(false);
    switch (e->op) {
    case WL_U_DEREF: {
      addr a = eval_addr(c, st, e);
      const val *r = read_lvalue(c, st, e, a);
      return r ? r : vdata(c);
    }
    case WL_U_ADDROF: {
      addr a = eval_addr(c, st, e->args[0]);
      return a.kind == A_SHARED ? a.p : vunk(false);
    }
    case WL_U_PREINC:
    case WL_U_PREDEC:
    case WL_U_POSTINC:
    case WL_U_POSTDEC: return incdec(c, st, e);
    case WL_U_PLUS: return eval(c, st, e->args[0]);
    case WL_U_MINUS: {
      const val *v = eval(c, st, e->args[0]);
      return vint(c, wl_lf_scale(&c->lc, int_form(v), -1), val_uniform(v));
    }
    case WL_U_NOT: {
      const val *v = eval(c, st, e->args[0]);
      return vint(c, wl_lf_sub(&c->lc, wl_lf_const(&c->lc, -1), int_form(v)), val_uniform(v));
    }
    case WL_U_LNOT: {
      const val *v = eval(c, st, e->args[0]);
      return vcond(c, cond_not(c, cond_of(c, v)));
    }
    default: (void)eval(c, st, e->args[0]); return vunk(false);
    }
  }
  case WL_E_BINARY: {
    if (e->nargs != 2)
      return vunk(false);
    if (wl_binop_is_assign(e->op))
      return assign(c, st, e);
    switch (e->op) {
    case WL_B_LAND:
    case WL_B_LOR: {
      const cond *ka = cond_of(c, eval(c, st, e->args[0]));
      bool land = e->op == WL_B_LAND;
      if (cond_definite(ka) == (land ? 0 : 1))
        return vcond(c, ka);
      const cond *kb = cond_of(c, eval_guarded(c, st, e->args[1], land ? ka : cond_not(c, ka)));
      return vcond(c, land ? cond_and(c, ka, kb) : cond_or(c, ka, kb));
    }
    case WL_B_COMMA: (void)eval(c, st, e->args[0]); return eval(c, st, e->args[1]);
    case WL_B_LT:
    case WL_B_GT:
    case WL_B_LE:
    case WL_B_GE:
    case WL_B_EQ:
    case WL_B_NE: {
      const val *a = eval(c, st, e->args[0]);
      const val *b = eval(c, st, e->args[1]);
      return compare(c, e->op, a, b);
    }
    case WL_B_PTRMEM: (void)eval(c, st, e->args[0]); return vunk(false);
    default: {
      const val *a = eval(c, st, e->args[0]);
      const val *b = eval(c, st, e->args[1]);
      return arith(c, e->op, a, b, e);
    }
    }
  }
  case WL_E_COND: {
    const cond *k = cond_of(c, eval(c, st, e->args[0]));
    int d = cond_definite(k);
    if (d == 1)
      return eval(c, st, e->args[1]);
    if (d == 0)
      return eval(c, st, e->args[2]);
    const val *a = eval_guarded(c, st, e->args[1], k);
    const val *b = eval_guarded(c, st, e->args[2], cond_not(c, k));
    return join_vals(c, a, b, k);
  }
  case WL_E_CAST: {
    if (e->nargs != 1)
      return vunk(false);
    const val *v = eval(c, st, e->args[0]);
    if (v->kind == V_PTR && (e->type & WL_T_POINTER))
      return cast_ptr(c, e, v);
    if (e->type & WL_T_FLOATING)
      return vunk(val_uniform(v));
    return narrow(c, e, v);
  }
  case WL_E_CALL: return eval_call(c, st, e);
  default: {
    bool uni = true;
    for (unsigned i = 0; i < e->nargs; i++)
      uni = val_uniform(eval(c, st, e->args[i])) && uni;
    return vunk(uni && e->kind != WL_E_OTHER);
  }
  }
}

/* ------------------------------------------------------------------------ */
/* Statements                                                               */

static bool step(ctx *c) {
  if (c->exhausted)
    return false;
  if (++c->steps > c->step_limit) {
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
      addr a = v->init ? eval_addr(c, st, v->init) : (addr){A_NONE, NULL, NULL};
      st_set(st, v, a.kind == A_SHARED ? a.p : vunk(false));
    } else if (v->type & WL_T_ARRAY) {
      if (v->init && v->init->kind == WL_E_INITLIST)
        (void)eval(c, st, v->init);
      st_set(st, v, vunk(false));
    } else {
      st_set(st, v, v->init ? eval(c, st, v->init) : vunk(false));
    }
  }
}

/* Accesses made in the two arms of a lane-dependent branch (seq >= first) run
 * concurrently: compare those still pending at the end of each arm. */
static void cross_branches(ctx *c, const state *t, const state *f, unsigned first) {
  for (unsigned j = 0; j < f->npend; j++)
    if (f->pend[j]->seq >= first)
      for (unsigned i = 0; i < t->npend; i++)
        if (t->pend[i]->seq >= first)
          check_pair(c, t->pend[i], f->pend[j], true);
}

static void exec_branches(ctx *c, state *st, const cond *k, const wl_stmt *then_s,
                          const wl_stmt *else_s) {
  int d = cond_definite(k);
  if (d == 1) {
    exec_stmt(c, st, then_s);
    return;
  }
  if (d == 0) {
    exec_stmt(c, st, else_s);
    return;
  }
  state t, f, out;
  unsigned first = c->seq;
  st_copy(&t, st);
  st_copy(&f, st);
  t.g = guard_push(c, st->g, k);
  f.g = guard_push(c, st->g, cond_not(c, k));
  exec_stmt(c, &t, then_s);
  exec_stmt(c, &f, else_s);
  if (!k->uni && c->record && t.live && f.live)
    cross_branches(c, &t, &f, first);
  join_states(c, &out, &t, &f, k);
  if (t.live && f.live)
    out.g = st->g;
  st_move(st, &out);
  st_free(&t);
  st_free(&f);
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
  st_free(&fr->brk);
  st_free(&fr->cont);
}

static void to_frame(ctx *c, state *st, bool brk) {
  for (unsigned i = c->nloops; i-- > 0;) {
    frame *fr = c->loops[i];
    if (!brk && fr->is_switch)
      continue;
    state *dst = brk ? &fr->brk : &fr->cont;
    bool *has = brk ? &fr->has_brk : &fr->has_cont;
    if (*has)
      join_into(c, dst, st);
    else
      st_copy(dst, st);
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
} assigned;

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

static bool collect_assigned_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  assigned *as = ud;
  if (e->kind == WL_E_BINARY && wl_binop_is_assign(e->op) && e->nargs == 2)
    add_assigned(as, ref_var(e->args[0]));
  else if (e->kind == WL_E_UNARY && e->nargs == 1 &&
           (e->op == WL_U_PREINC || e->op == WL_U_PREDEC || e->op == WL_U_POSTINC ||
            e->op == WL_U_POSTDEC || e->op == WL_U_ADDROF))
    add_assigned(as, ref_var(e->args[0]));
  else if (e->kind == WL_E_CALL && e->callee)
    for (unsigned i = 0; i < e->nargs && i < e->callee->nparams; i++)
      if (e->callee->params[i]->type & WL_T_REFERENCE)
        add_assigned(as, ref_var(e->args[i]));
  return true;
}

static bool collect_assigned_stmt(const wl_stmt *s, void *ud) {
  if (s->kind == WL_S_ASM)
    for (unsigned i = 0; i < s->nkids; i++)
      add_assigned(ud, ref_var(s->kids[i]->expr));
  return true;
}

static void collect_assigned(const wl_stmt *loop, assigned *as) {
  memset(as, 0, sizeof *as);
  wl_visitor v = {collect_assigned_stmt, collect_assigned_expr, as, false};
  wl_walk_stmt(loop->then_s, &v);
  wl_walk_expr(loop->expr, loop, &v);
  wl_walk_expr(loop->inc, loop, &v);
}

typedef enum vclass { K_UNIFORM, K_UNKNOWN, K_INDUCTION, K_CYCLE } vclass;

typedef struct loopvar {
  const wl_var *var;
  vclass cls;
  const val *entry;
  const wl_lform *step; /* K_INDUCTION: added per iteration */
  long long lo, hi;     /* range of a uniform variable over the iterations */
} loopvar;

typedef struct upd_scan {
  const wl_var *var;
  const wl_expr *steps[16];
  int signs[16];
  unsigned nsteps;
  bool other;                 /* an update that is not v += step */
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
    x->entry = st_get(c, entry, x->var);
    x->lo = -WL_INF;
    x->hi = WL_INF;
    upd_scan u;
    memset(&u, 0, sizeof u);
    u.var = x->var;
    wl_visitor v = {NULL, scan_updates, &u, false};
    wl_walk_stmt(s->then_s, &v);
    wl_walk_expr(s->expr, s, &v);
    wl_walk_expr(s->inc, s, &v);
    x->cls = val_uniform(x->entry) ? K_UNIFORM : K_UNKNOWN;
    if (x->var->type & WL_T_REFERENCE) {
      x->cls = K_UNKNOWN;
      continue;
    }
    if (!u.other && u.nsteps > 0 && (int_form(x->entry) || x->entry->kind == V_PTR)) {
      /* v += step with one loop-invariant step */
      bool ok = true;
      const wl_lform *step = NULL;
      state tmp;
      st_copy(&tmp, entry);
      bool rec = c->record;
      c->record = false;
      for (unsigned k = 0; k < u.nsteps && ok; k++) {
        const wl_lform *f =
            u.steps[k] ? int_form(eval(c, &tmp, u.steps[k])) : wl_lf_const(&c->lc, 1);
        f = wl_lf_scale(&c->lc, f, u.signs[k]);
        if (!f || !wl_lf_uniform(f) || (step && !wl_lf_equal(step, f)))
          ok = false;
        step = f;
        if (u.steps[k]) /* the step must not change in the loop */
          for (unsigned m = 0; m < as->n && ok; m++) {
            const wl_expr *se = wl_expr_strip(u.steps[k]);
            if (se && se->kind == WL_E_REF && se->var == as->v[m])
              ok = false;
          }
      }
      c->record = rec;
      st_free(&tmp);
      if (ok && step) {
        x->cls = K_INDUCTION;
        x->step = step;
        continue;
      }
    }
    long long lo, hi;
    wl_lf_range(&c->lc, int_form(x->entry), 0, &lo, &hi);
    if (x->cls == K_UNIFORM && int_form(x->entry) && !u.mixed && u.nsteps == 0) {
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
    const val *e = x->entry, *nv = vunk(false);
    if (x->cls == K_INDUCTION) {
      unsigned k = wl_sym_fresh(&c->lc, "iteration", 0, WL_INF);
      const wl_lform *add = wl_lf_mul(&c->lc, wl_lf_sym(&c->lc, k, 1), x->step);
      if (e->kind == V_PTR)
        nv = ptr_add(c, e, add, 1);
      else
        nv = vint(c, wl_lf_add(&c->lc, int_form(e), add), false);
    } else if (x->cls == K_UNIFORM || x->cls == K_CYCLE) {
      const wl_lform *f = wl_lf_sym(&c->lc, wl_sym_fresh(&c->lc, x->var->name, x->lo, x->hi), 1);
      if (e->kind == V_PTR)
        nv = vptr_with(c, e, f);
      else if (int_form(e) || is_int_type(x->var->type))
        nv = vint(c, f, true);
      else
        nv = vunk(true);
    } else if (e->kind == V_PTR) {
      nv = vptr_with(c, e, NULL);
    }
    st_set(st, x->var, nv);
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
    const cond *k = cond_of(c, eval(c, st, s->expr));
    if (cond_definite(k) == 0) {
      st->live = false;
      return;
    }
    st->g = guard_push(c, st->g, k);
  }
  fr->has_cont = false;
  st_free(&fr->cont);
  exec_stmt(c, st, s->then_s);
  if (fr->has_cont)
    join_into(c, st, &fr->cont);
  if (st->live && s->inc) {
    c->stmt = s;
    (void)eval(c, st, s->inc);
  }
}

/* Runs the loop iteration by iteration while its condition is known in every
 * lane; false (and nothing changed) when that fails. */
static bool try_unroll(ctx *c, state *st, const wl_stmt *s) {
  if (s->kind == WL_S_RANGE_FOR)
    return false;
  size_t nraces = c->sm->nraces;
  unsigned long limit = c->step_limit;
  if (c->steps + UNROLL_BUDGET < limit)
    c->step_limit = c->steps + UNROLL_BUDGET;
  state cur;
  st_copy(&cur, st);
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
    const cond *k = &COND_TRUE;
    if ((it > 0 || s->kind != WL_S_DO) && s->expr) {
      c->stmt = s;
      k = cond_of(c, eval(c, &cur, s->expr));
    }
    bool lanes[WL_LANES];
    if (!cond_lanes(k, lanes))
      break;
    int d = cond_definite(k);
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
      st_copy(&b, &cur);
      b.g = guard_push(c, cur.g, k);
      iterate(c, &b, s, &fr, false);
      join_states(c, &out, &b, &cur, k);
      out.g = cur.g;
      st_move(&cur, &out);
      st_free(&b);
    }
  }
  c->iter = outer;
  bool exhausted_here = c->exhausted && c->steps <= limit;
  c->step_limit = limit;
  if (exhausted_here)
    c->exhausted = false;
  if (!ok) {
    pop_frame(c, &fr);
    st_free(&cur);
    c->sm->nraces = nraces; /* forget what the attempt found: the general path finds it again */
    return false;
  }
  if (fr.has_brk)
    join_into(c, &cur, &fr.brk);
  if (mixed) {
    assigned as;
    collect_assigned(s, &as);
    for (unsigned i = 0; i < as.n; i++)
      st_set(&cur, as.v[i], vunk(false));
  }
  cur.g = st->g;
  pop_frame(c, &fr);
  st_move(st, &cur);
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
    if (lv[i].cls != K_UNIFORM || !int_form(lv[i].entry) ||
        !wl_lf_const_value(int_form(lv[i].entry), &v))
      continue;
    unsigned nv = 0;
    vals[nv++] = v;
    for (;;) {
      state d;
      st_copy(&d, st);
      havoc(c, &d, lv, n, false);
      st_set(&d, lv[i].var, vint(c, wl_lf_const(&c->lc, vals[nv - 1]), true));
      bool rec = c->record;
      c->record = false;
      frame fr;
      push_frame(c, &fr, false);
      iterate(c, &d, s, &fr, false);
      pop_frame(c, &fr);
      c->record = rec;
      const wl_lform *f = d.live ? int_form(st_get(c, &d, lv[i].var)) : NULL;
      bool known = f && wl_lf_const_value(f, &v);
      st_free(&d);
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

/* Two iterations with fresh values of what the loop changes: the second meets
 * what the first left pending (a write in iteration i, a read in i + 1). */
static void loop_general(ctx *c, state *st, const wl_stmt *s) {
  assigned as;
  collect_assigned(s, &as);
  loopvar *lv = wl_arena_alloc(&c->ar, (as.n + 1) * sizeof *lv);
  classify(c, st, s, &as, lv);
  /* which "uniform" variables stay uniform through an iteration (each round
   * demotes at least one, or ends: a value that depends on the lane never
   * becomes a warp-uniform symbol) */
  for (unsigned round = 0; round <= as.n; round++) {
    state d;
    st_copy(&d, st);
    havoc(c, &d, lv, as.n, false);
    bool rec = c->record;
    c->record = false;
    frame fr;
    push_frame(c, &fr, false);
    iterate(c, &d, s, &fr, s->kind != WL_S_DO);
    if (fr.has_brk)
      join_into(c, &d, &fr.brk);
    pop_frame(c, &fr);
    c->record = rec;
    bool changed = false;
    for (unsigned i = 0; i < as.n; i++)
      if (lv[i].cls == K_UNIFORM && d.live && !val_uniform(st_get(c, &d, lv[i].var))) {
        lv[i].cls = K_UNKNOWN;
        changed = true;
      }
    st_free(&d);
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
  st_copy(&out, st);
  if (s->kind == WL_S_DO) /* the body runs at least once */
    out.npend = 0;
  const iteration *outer = c->iter;
  /* with a cycle, once for each of its values: iteration i gets it, i + 1 the next one */
  for (unsigned run = 0; run < (ncycle ? ncycle : 1); run++) {
    state p1, p2;
    st_copy(&p1, st);
    havoc(c, &p1, lv, as.n, false);
    if (cyc_var)
      st_set(&p1, cyc_var, vint(c, wl_lf_const(&c->lc, cycle[run]), true));
    (void)enter_iteration(c, s, 2 * run);
    iterate(c, &p1, s, &fr, s->kind != WL_S_DO || run > 0);
    st_copy(&p2, &p1);
    p2.g = st->g;
    if (p2.live) {
      havoc(c, &p2, lv, as.n, true);
      c->iter = outer;
      (void)enter_iteration(c, s, 2 * run + 1);
      iterate(c, &p2, s, &fr, true);
    }
    c->iter = outer;
    if (p1.live)
      pend_union(&out, &p1);
    if (p2.live)
      pend_union(&out, &p2);
    st_free(&p1);
    st_free(&p2);
  }
  if (fr.has_brk)
    pend_union(&out, &fr.brk);
  havoc(c, &out, lv, as.n, false);
  for (unsigned i = 0; i < as.n; i++)
    if (lv[i].cls == K_INDUCTION && !val_uniform(lv[i].entry))
      st_set(&out, lv[i].var,
             lv[i].entry->kind == V_PTR ? vptr_with(c, lv[i].entry, NULL) : vunk(false));
  out.live = true;
  st_move(st, &out);
  pop_frame(c, &fr);
}

static void exec_loop(ctx *c, state *st, const wl_stmt *s) {
  if (s->init)
    exec_stmt(c, st, s->init);
  if (s->kind == WL_S_RANGE_FOR)
    for (unsigned i = 0; i < s->nvars; i++)
      st_set(st, s->vars[i], vunk(false));
  if (!st->live || c->exhausted)
    return;
  if (!try_unroll(c, st, s))
    loop_general(c, st, s);
}

static void exec_switch(ctx *c, state *st, const wl_stmt *s) {
  if (s->init)
    exec_stmt(c, st, s->init);
  c->stmt = s;
  (void)eval(c, st, s->expr);
  const wl_stmt *body = s->then_s;
  frame fr;
  push_frame(c, &fr, true);
  state entry;
  st_copy(&entry, st);
  bool has_default = false;
  if (body && body->kind == WL_S_COMPOUND) {
    st->live = false;
    for (unsigned i = 0; i < body->nkids; i++) {
      const wl_stmt *k = body->kids[i];
      while (k && (k->kind == WL_S_CASE || k->kind == WL_S_DEFAULT)) {
        has_default |= k->kind == WL_S_DEFAULT;
        join_into(c, st, &entry);
        k = k->then_s;
      }
      exec_stmt(c, st, k);
    }
  } else {
    exec_stmt(c, st, body);
  }
  if (!has_default)
    join_into(c, st, &entry);
  if (fr.has_brk)
    join_into(c, st, &fr.brk);
  st_free(&entry);
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
      (void)eval(c, st, s->kids[i]->expr);
  if (s->nkids > 0) {
    const wl_var *out = ref_var(s->kids[0]->expr);
    if (out && !(out->flags & (WL_V_SHARED | WL_V_GLOBAL)))
      st_set(st, out, strstr(t, "%laneid") ? vint(c, wl_lf_lane(&c->lc), false) : vunk(false));
  }
}

static void exec_stmt(ctx *c, state *st, const wl_stmt *s) {
  if (!s || !st->live || !step(c))
    return;
  switch (s->kind) {
  case WL_S_COMPOUND:
  case WL_S_OTHER:
    for (unsigned i = 0; i < s->nkids && st->live; i++)
      exec_stmt(c, st, s->kids[i]);
    break;
  case WL_S_EXPR:
    c->stmt = s;
    (void)eval(c, st, s->expr);
    break;
  case WL_S_DECL: exec_decl(c, st, s); break;
  case WL_S_IF: {
    if (s->init)
      exec_stmt(c, st, s->init);
    c->stmt = s;
    const cond *k = cond_of(c, eval(c, st, s->expr));
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
  case WL_S_LABEL: exec_stmt(c, st, s->then_s); break;
  case WL_S_BREAK: to_frame(c, st, true); break;
  case WL_S_CONTINUE: to_frame(c, st, false); break;
  case WL_S_RETURN: {
    c->stmt = s;
    const val *v = s->expr ? eval(c, st, s->expr) : NULL;
    fnframe *fr = c->nfns ? c->fns[c->nfns - 1] : NULL;
    if (fr && c->nfns > 1 && !guard_reachable(c, st->g)) {
      /* a return no lane takes (if (numVals == 0) return; with numVals =
       * blockDim.x): the caller must not go on with this path's accesses,
       * since after the call its conditions are no longer known */
      st->live = false;
      break;
    }
    if (fr) {
      if (v)
        fr->retv = fr->retv ? join_vals(c, fr->retv, v, NULL) : v;
      if (fr->has_ret)
        join_into(c, &fr->ret, st);
      else
        st_copy(&fr->ret, st);
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

/* ------------------------------------------------------------------------ */
/* Entry points                                                             */

static bool mark_called(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  const wl_tu *tu = ((const void **)ud)[0];
  bool *called = ((void **)ud)[1];
  if (e->kind == WL_E_CALL && e->callee)
    for (unsigned i = 0; i < tu->nfuncs; i++)
      if (tu->funcs[i] == e->callee)
        called[i] = true;
  return true;
}

/* Whether f, or a function it calls, uses threadIdx.y / .z (or the y / z of
 * a cooperative group's thread_index()): a 2-D or 3-D block, whose warps
 * may span several rows. */
typedef struct dim_scan {
  wl_vec funcs; /* found so far, scanned in order */
  bool found;
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
      (strcmp(e->name, "y") == 0 || strcmp(e->name, "z") == 0) &&
      (is_builtin_obj(e->args[0], "threadIdx") ||
       wl_expr_is_call(wl_expr_strip(e->args[0]), "thread_index")))
    d->found = true;
  if (e->kind == WL_E_CALL)
    dim_add(d, e->callee ? e->callee : lambda_of(e));
  return !d->found;
}

static bool uses_multi_dim(const wl_func *f) {
  dim_scan d;
  memset(&d, 0, sizeof d);
  dim_add(&d, f);
  wl_visitor v = {NULL, dim_expr, &d, true};
  for (size_t i = 0; i < d.funcs.n && !d.found; i++)
    wl_walk_stmt(((const wl_func *)d.funcs.v[i])->body, &v);
  wl_vec_free(&d.funcs);
  return d.found;
}

/* The legacy conventions an uncalled device function's body states (see
 * rules/missing-syncwarp.md): a pointer parameter indexed as p[i] (or moved by
 * p + i, or handed on to a function of the file) is an array; an integer parameter i used as an index both alone
 * (p[i]) and moved (p[i + k], p[i - k]) is the calling thread's index in the
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

/* warp_id, warpId, wid: by name, the index of a warp (the same in all its
 * lanes), not of a thread, whatever the body does with it */
static bool names_a_warp(const char *n) {
  if (!n)
    return false;
  char low[64];
  size_t k = 0;
  for (; n[k] && k + 1 < sizeof low; k++)
    low[k] = (char)((n[k] >= 'A' && n[k] <= 'Z') ? n[k] - 'A' + 'a' : n[k]);
  low[k] = 0;
  return strstr(low, "warp") || strcmp(low, "wid") == 0 || strcmp(low, "w") == 0;
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
    if (!kernel && ps.plain[i] && ps.moved[i] && is_int_type(p->type) &&
        !(p->type & WL_T_POINTER) && !names_a_warp(p->name))
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
  scan_params(&c, f);
  c.fn = f;
  c.record = true;
  c.step_limit = STEP_BUDGET;
  fnframe fr;
  memset(&fr, 0, sizeof fr);
  fr.f = f;
  c.fns[c.nfns++] = &fr;
  state st;
  st_init(&st);
  st.live = true;
  exec_stmt(&c, &st, f->body);
  if (c.exhausted)
    sm->incomplete = true;
  st_free(&st);
  st_free(&fr.ret);
  wl_vec_free(&c.strings);
  wl_vec_free(&c.tid_params);
  wl_vec_free(&c.array_params);
  wl_vec_free(&c.data_params);
  wl_lctx_free(&c.lc);
  wl_arena_free(&c.ar);
}

/* A function template is analyzed once per instantiation seen in the file
 * (its integral template arguments then are numbers); with none seen, once,
 * its template parameters being host-chosen values, the same in every lane. */
static void analyze_root(wl_smem *sm, const wl_tu *tu, const wl_func *f) {
  if (!f->ntinsts) {
    analyze_root_as(sm, tu, f, NULL);
    return;
  }
  for (unsigned i = 0; i < f->ntinsts; i++)
    analyze_root_as(sm, tu, f, &f->tinsts[i]);
}

wl_smem *wl_smem_build(const wl_tu *tu) {
  wl_smem *sm = wl_xcalloc(1, sizeof *sm);
  bool *called = wl_xcalloc(tu->nfuncs + 1, sizeof *called);
  const void *ud[2] = {tu, called};
  wl_visitor v = {NULL, mark_called, (void *)ud, false};
  for (unsigned i = 0; i < tu->nfuncs; i++)
    if (tu->funcs[i]->body)
      wl_walk_stmt(tu->funcs[i]->body, &v);
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (!f->body || (f->flags & WL_F_LAMBDA))
      continue;
    bool kernel = (f->flags & WL_F_GLOBAL) != 0;
    bool device = (f->flags & WL_F_DEVICE) != 0;
    if (kernel || (device && !called[i]))
      analyze_root(sm, tu, f);
  }
  free(called);
  return sm;
}

void wl_smem_free(wl_smem *sm) {
  if (!sm)
    return;
  free(sm->races);
  free(sm->accs);
  free(sm->slots);
  free(sm->rslots);
  free(sm);
}

const wl_smem *wl_smem_get(wl_analyses *an) {
  if (!an->smem)
    an->smem = wl_smem_build(an->tu);
  return an->smem;
}

size_t wl_smem_nraces(const wl_smem *sm) { return sm->nraces; }

const wl_smem_race *wl_smem_race_at(const wl_smem *sm, size_t i) {
  return i < sm->nraces ? &sm->races[i] : NULL;
}

size_t wl_smem_naccesses(const wl_smem *sm) { return sm->naccs; }

const wl_smem_access *wl_smem_access_at(const wl_smem *sm, size_t i) {
  return i < sm->naccs ? &sm->accs[i] : NULL;
}

bool wl_smem_is_shared(const wl_smem *sm, const wl_expr *e) {
  return find_access(sm, e, false) || find_access(sm, e, true);
}

bool wl_smem_incomplete(const wl_smem *sm) { return sm->incomplete; }
