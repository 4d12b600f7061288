/* shared/eval.c - the interpreter, expressions: addresses, arithmetic, calls (inlined, barriers,
 * collectives) (see shared.h and internal.h). */
#include "internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* Expressions                                                              */

/* sme_norm_type's spelling of s in buf, with its length (0: none): "volatile
 * float *" -> "float", "float[4][8]" -> "float", at most NORM_MAX - 1 bytes */
#define NORM_MAX 256
static size_t norm_type_into(const char *s, bool strip_pointer, char buf[NORM_MAX]) {
  size_t n = 0;
  const char *p = s;
  while (*p && n + 1 < NORM_MAX) {
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
  return n;
}

const char *sme_norm_type(ctx *c, const char *s, bool strip_pointer) {
  if (!s)
    return NULL;
  char buf[NORM_MAX];
  return norm_type_into(s, strip_pointer, buf) ? smd_intern(c, buf) : NULL;
}

static const val *shared_var_addr(ctx *c, const wl_var *v) {
  val *p = smd_new_val(c, V_PTR);
  p->f = wl_lf_const(&c->lc, 0);
  p->root = v;
  p->dyn = (v->flags & WL_V_EXTERN) != 0;
  p->tag = sme_norm_type(c, v->type_spelling, false);
  p->vol = (v->type & WL_T_VOLATILE) != 0;
  p->nshape = v->ndims;
  for (unsigned i = 0; i < v->ndims && i < 4; i++)
    p->shape[i] = v->dims[i];
  return p;
}

/* array object address -> pointer to its first element */
static const val *decay(ctx *c, const val *p) {
  val *q = (val *)smd_vptr_with(c, p, p->f);
  if (q->nshape) {
    memmove(q->shape, q->shape + 1, (q->nshape - 1) * sizeof q->shape[0]);
    q->shape[--q->nshape] = 0;
  }
  return q;
}

/* p + k (k elements of the pointee); kv: the value k is of, when k is NULL */
static const val *ptr_add_val(ctx *c, const val *p, const wl_lform *k, long long sign,
                              const val *kv) {
  unsigned long long unit = smd_shape_prod(p->shape, p->nshape) * (p->width > 1 ? p->width : 1);
  const wl_lform *off = NULL;
  if (unit && p->f && k)
    off = wl_lf_add(&c->lc, p->f, wl_lf_scale(&c->lc, k, sign * (long long)unit));
  val *q = (val *)smd_vptr_with(c, p, off);
  if (!k && kv && kv->data && unit == 1 && sign == 1 && p->f) {
    /* p[d] with d read from memory: the lock-step tricks' elements */
    q->dkey = kv->dorig ? kv->dorig : kv;
    q->dbase = kv->dorig ? wl_lf_add(&c->lc, p->f, kv->dshift) : p->f;
  }
  return q;
}

const val *sme_ptr_add(ctx *c, const val *p, const wl_lform *k, long long sign) {
  return ptr_add_val(c, p, k, sign, NULL);
}

static const val *read_lvalue(ctx *c, state *st, const wl_expr *e, addr a) {
  if (a.kind == A_SHARED) {
    if (a.p->nshape > 0 || (e->type & WL_T_ARRAY))
      return decay(c, a.p);
    smr_record_access(c, st, e, a.p, false, NULL);
    /* one element for every lane (ptrs[vector_lane][0] of a vector's row
     * bounds): the same value in every lane, unless a lane's store races
     * with the read, which is reported on its own */
    val *d;
    if (a.p->f && wl_lf_uniform(a.p->f)) {
      d = smd_new_val(c, V_UNK);
      d->uni = true;
    } else {
      d = (val *)smd_vdata(c);
    }
    d->from = a.p;
    d->from_seq = c->seq;
    return d;
  }
  if (a.kind == A_LOCAL)
    return smd_st_get(c, st, a.var);
  if (a.uni) /* the same location in every lane: the same value */
    return smd_vunk(true);
  return NULL; /* caller decides */
}

bool sme_is_builtin_obj(const wl_expr *b, const char *name) {
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
  val *w = smd_new_val(c, v->kind);
  *w = *v;
  w->poly = p;
  return w;
}

/* threadIdx.<d> and blockDim.<d> of a root kernel whose launches fix its
 * block's x and y extents (c->launch), with x dividing 32 or a multiple of
 * 32 and each z-slice a whole number of warps: the hardware numbers threads
 * x first, so in lane l of warp W, x is l % X (or l + 32 * (W % (X / 32))),
 * y is l / X plus a warp-uniform multiple of 32 / X (or warp-uniform), and z
 * is warp-uniform (the CUDA samples' dct8x8 kernel 2, launched with
 * dim3(8, 4, 2): x the lane's column in an 8x8 tile, y its row, z the warp).
 * NULL when the launches do not say. */
static const val *launch_member(ctx *c, bool tid, char d) {
  long long bx = c->launch[0], by = c->launch[1], bz = c->launch[2];
  if (bx < 1 || by < 1 || (bx * by) % 32 != 0 || (32 % bx != 0 && bx % 32 != 0))
    return NULL;
  if (!tid) {
    long long v = d == 'x' ? bx : d == 'y' ? by : bz;
    return v > 0 ? smd_vint(c, wl_lf_const(&c->lc, v), true) : NULL;
  }
  long long k[WL_LANES];
  if (d == 'x') {
    if (bx % 32 == 0)
      return smd_vint(
          c,
          wl_lf_add(
              &c->lc, wl_lf_lane(&c->lc),
              wl_lf_sym(&c->lc, wl_sym_named(&c->lc, NULL, "%tid.x/32", 0, bx / 32 - 1), WL_LANES)),
          false);
    for (unsigned l = 0; l < WL_LANES; l++)
      k[l] = (long long)l % bx;
    return smd_vint(c, wl_lf_lanes(&c->lc, k), false);
  }
  if (d == 'y' && bx < 32) {
    for (unsigned l = 0; l < WL_LANES; l++)
      k[l] = (long long)l / bx;
    const wl_lform *f = wl_lf_lanes(&c->lc, k);
    long long rows = bx * by / 32; /* warps per z-slice */
    if (rows > 1)
      f = wl_lf_add(
          &c->lc, f,
          wl_lf_sym(&c->lc, wl_sym_named(&c->lc, NULL, "%tid.y/warp", 0, rows - 1), 32 / bx));
    return smd_vint(c, f, false);
  }
  if (d == 'y')
    return smd_vint(c, smd_sym_form(c, "%tid.y", 0, by - 1), true);
  return smd_vint(c, smd_sym_form(c, "%tid.z", 0, bz > 0 ? bz - 1 : 63), true);
}

static const val *builtin_member(ctx *c, const wl_expr *e) {
  if (e->nargs != 1 || !e->name || e->name[1])
    return NULL;
  const wl_expr *b = e->args[0];
  char d = e->name[0];
  if (d != 'x' && d != 'y' && d != 'z')
    return NULL;
  bool tid = sme_is_builtin_obj(b, "threadIdx");
  const val *lv =
      c->multi_dim && (tid || sme_is_builtin_obj(b, "blockDim")) ? launch_member(c, tid, d) : NULL;
  if (lv)
    return lv;
  if (tid) {
    if (c->multi_dim) { /* a warp may span rows: x and y both vary in it (see poly) */
      val *t = smd_new_val(c, V_UNK);
      t->tpos = true;
      return with_poly(c, t, poly_single(c, d == 'x' ? PX : d == 'y' ? PY : PZ));
    }
    if (d == 'x')
      return smd_vint(c, smd_thread_x(c), false);
    return smd_vint(c, smd_sym_form(c, d == 'y' ? "%tid.y" : "%tid.z", 0, d == 'y' ? 1023 : 63),
                    true);
  }
  if (sme_is_builtin_obj(b, "blockDim")) {
    if (d == 'x' && c->multi_dim)
      return with_poly(c, smd_vint(c, smd_sym_form(c, "%ntid.x", 1, 1024), true),
                       poly_single(c, PBX));
    if (d == 'y' && c->multi_dim)
      return with_poly(c, smd_vint(c, smd_sym_form(c, "%ntid.y", 1, 1024), true),
                       poly_single(c, PBY));
    if (d == 'x')
      return smd_vint(c, wl_lf_sym(&c->lc, smd_warps_sym(c), WL_LANES), true);
    return smd_vint(c, smd_sym_form(c, d == 'y' ? "%ntid.y" : "%ntid.z", 1, d == 'y' ? 1024 : 64),
                    true);
  }
  if (sme_is_builtin_obj(b, "blockIdx"))
    return smd_vint(c,
                    smd_sym_form(c,
                                 d == 'x'   ? "%ctaid.x"
                                 : d == 'y' ? "%ctaid.y"
                                            : "%ctaid.z",
                                 0, WL_INF),
                    true);
  if (sme_is_builtin_obj(b, "gridDim"))
    return smd_vint(c,
                    smd_sym_form(c,
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
  return smd_intern(c, buf);
}

static addr member_addr(ctx *c, const val *obj, const wl_expr *e) {
  addr a = {A_SHARED, NULL, NULL, false};
  /* .x .. .w of a vector read or written through a cast (right.x of a
   * `const uint4 &right` bound to *(uint4 *)&s[i]) when the component is one
   * element of the storage: that element alone */
  static const char comps[] = "xyzw";
  const char *k = e->name && e->name[0] && !e->name[1] ? strchr(comps, e->name[0]) : NULL;
  if (obj->width > 1 && obj->f && k && obj->ebytes && e->bytes == obj->ebytes &&
      (unsigned)(k - comps) < obj->width) {
    val *p =
        (val *)smd_vptr_with(c, obj, wl_lf_add(&c->lc, obj->f, wl_lf_const(&c->lc, k - comps)));
    p->width = 0;
    if (e->type & WL_T_VOLATILE)
      p->vol = true;
    a.p = p;
    return a;
  }
  unsigned dims[4] = {0}, nd = 0;
  if (e->var && (e->var->type & WL_T_ARRAY))
    for (nd = 0; nd < e->var->ndims && nd < 4; nd++)
      dims[nd] = e->var->dims[nd];
  unsigned long long mult = smd_shape_prod(dims, nd);
  const wl_lform *off = obj->f && mult ? wl_lf_scale(&c->lc, obj->f, (long long)mult) : NULL;
  val *p = (val *)smd_vptr_with(c, obj, off);
  p->field = join_field(c, obj->field, e->name);
  p->field_scalar = nd == 0 && (!obj->field || obj->field_scalar);
  p->nshape = nd;
  memcpy(p->shape, dims, sizeof dims);
  if (e->type & WL_T_VOLATILE)
    p->vol = true;
  a.p = p;
  return a;
}

/* An element of a local array of pointers (cuda-samples' cdpQuadtree keeps
 * `volatile int *s_num_pts[4]`, each set to a row of its extern __shared__
 * counts): at an index that is the same number in every lane, a variable of
 * its own, so the pointer stored there is followed like a local pointer's.
 * At any other index nothing is known of the element, and the array's
 * elements seen so far are forgotten (it may be any of them). */
typedef struct elem_var {
  const wl_var *arr;
  long long index;
  wl_var var;
} elem_var;

#define MAX_ELEM_INDEX 1024

#define ANY_ELEM (-1LL) /* the variable of an element at an index not known */

void sme_forget_elems(ctx *c, state *st, const wl_var *arr) {
  for (size_t j = 0; j < c->elem_vars.n; j++) {
    elem_var *ev = c->elem_vars.v[j];
    if (ev->arr == arr && ev->index != ANY_ELEM)
      smd_st_set(st, &ev->var, smd_vunk(false));
  }
}

/* Stores into a local variable; one into the element of an array of pointers
 * at an index not known may change any of them. */
static void set_local(ctx *c, state *st, const wl_var *v, const val *x) {
  for (size_t j = 0; j < c->elem_vars.n; j++) {
    elem_var *ev = c->elem_vars.v[j];
    if (&ev->var == v && ev->index == ANY_ELEM) {
      sme_forget_elems(c, st, ev->arr);
      return;
    }
  }
  smd_st_set(st, v, x);
}

static addr local_elem(ctx *c, const wl_var *arr, const wl_expr *e, const val *i) {
  long long k;
  const wl_lform *f = smd_int_form(i);
  if (!f || !wl_lf_const_value(f, &k) || k < 0 || k >= MAX_ELEM_INDEX ||
      (arr->ndims && arr->dims[0] && k >= arr->dims[0]))
    k = ANY_ELEM; /* never bound: reads are unknown, stores forget the elements (set_local) */
  for (size_t j = 0; j < c->elem_vars.n; j++) {
    elem_var *ev = c->elem_vars.v[j];
    if (ev->arr == arr && ev->index == k) {
      addr a = {A_LOCAL, NULL, &ev->var, false};
      return a;
    }
  }
  elem_var *ev = wl_arena_alloc(&c->ar, sizeof *ev);
  ev->arr = arr;
  ev->index = k;
  char name[256];
  if (k == ANY_ELEM)
    snprintf(name, sizeof name, "%s[?]", arr->name ? arr->name : "?");
  else
    snprintf(name, sizeof name, "%s[%lld]", arr->name ? arr->name : "?", k);
  ev->var.name = wl_arena_strdup(&c->ar, name);
  ev->var.loc = arr->loc;
  ev->var.type = e->type & (WL_T_POINTER | WL_T_VOLATILE | WL_T_CONST);
  wl_vec_push(&c->elem_vars, ev);
  addr a = {A_LOCAL, NULL, &ev->var, false};
  return a;
}

static bool struct_type(unsigned t) {
  return !(t & (WL_T_INTEGER | WL_T_FLOATING | WL_T_POINTER | WL_T_REFERENCE | WL_T_ARRAY));
}

/* The struct an expression names when it is a struct passed by value to an
 * uncalled device function, a struct member of one, or a copy of either
 * handed on to a function it calls (val.obj); NULL for anything else. */
static const val *obj_val(ctx *c, state *st, const wl_expr *e) {
  e = wl_expr_strip(e);
  if (!e || !struct_type(e->type) || (c->root->flags & WL_F_GLOBAL) || c->root_params_uniform)
    return NULL;
  const val *base = NULL;
  if (e->kind == WL_E_REF && e->var) {
    const wl_var *v = e->var;
    if (!(v->flags & WL_V_PARAM))
      return NULL;
    const val *b = smd_st_lookup(st, v);
    if (b)
      return b->obj ? b : NULL;
    bool root_param = false;
    for (unsigned i = 0; i < c->root->nparams && !root_param; i++)
      root_param = c->root->params[i] == v;
    if (!root_param)
      return NULL;
    val *o = smd_new_val(c, V_UNK);
    o->obj = v;
    o->objpath = smd_intern(c, "");
    return o;
  }
  if (e->kind != WL_E_MEMBER || e->arrow || !e->name)
    return NULL;
  if (e->nargs == 1)
    base = obj_val(c, st, e->args[0]);
  else if (e->nargs == 0 && c->nfns)
    base = c->fns[c->nfns - 1]->thisobj;
  if (!base)
    return NULL;
  val *o = smd_new_val(c, V_UNK);
  o->obj = base->obj;
  o->objpath = join_field(c, *base->objpath ? base->objpath : NULL, e->name);
  return o;
}

/* A member of a struct of val.obj used as a pointer (indexed, dereferenced):
 * the member of a type that depends on the template's parameters was a
 * pointer (raking_details.warpscan handed on to WarpScan::Invoke as its
 * `warpscan`), whose memory is that member's (member_storage). The struct
 * parameter itself so used (an iterator `it[i]`) is not taken as memory. */
static const val *obj_storage(ctx *c, const val *o, const wl_expr *e) {
  val *p = (val *)smd_param_storage(c, o->obj);
  if (*o->objpath)
    p->tag = join_field(c, o->obj->name, o->objpath);
  p->vol = p->vol || (e->type & WL_T_VOLATILE);
  return p;
}

/* rd.warpscan[1][0] with rd a struct passed by value to a device function
 * that no function of the file calls (b40c's `RakingDetails raking_details`
 * of CooperativeTileScan::ScanTileWithEnqueue): the member is a pointer its
 * caller filled, to memory of unknown space as the function's own pointer
 * parameters are (smd_param_storage), each member a storage of its own. The
 * same for such a struct's struct members and for copies of either handed on
 * (WarpSoaScan::Scan(..., raking_soa_details.warpscan_partials, ...)), and
 * for the members a method of such a struct names without an object
 * (`t0[row][col] = tuple.t0` in the tuple's Set). NULL for anything else. */
static const val *member_storage(ctx *c, state *st, const wl_expr *m) {
  if (!m || m->kind != WL_E_MEMBER || m->arrow || m->nargs > 1 || !m->name ||
      (m->type & (WL_T_INTEGER | WL_T_FLOATING)) || (c->root->flags & WL_F_GLOBAL) ||
      c->root_params_uniform)
    return NULL;
  const val *o = NULL;
  if (m->nargs == 1)
    o = obj_val(c, st, m->args[0]);
  else if (c->nfns)
    o = c->fns[c->nfns - 1]->thisobj;
  if (!o)
    return NULL;
  val *p = (val *)smd_param_storage(c, o->obj);
  p->tag = join_field(c, o->obj->name, *o->objpath ? join_field(c, o->objpath, m->name) : m->name);
  p->vol = (m->type & WL_T_VOLATILE) != 0;
  return p;
}

addr sme_eval_addr(ctx *c, state *st, const wl_expr *e) {
  addr none = {A_NONE, NULL, NULL, false};
  if (!e)
    return none;
  switch (e->kind) {
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v)
      return none;
    if (v->flags & WL_V_SHARED) {
      addr a = {A_SHARED, shared_var_addr(c, v), NULL, false};
      return a;
    }
    if (v->type & WL_T_REFERENCE) {
      const val *b = smd_st_lookup(st, v);
      if (!b && (v->flags & WL_V_PARAM))
        b = smd_var_default(c, v); /* a root's reference parameter (smd_param_storage) */
      if (b && b->kind == V_PTR) {
        addr a = {A_SHARED, b, NULL, false};
        return a;
      }
      /* bound to memory not analyzed at an address the same in every lane
       * (Quadtree_node &node = nodes[blockIdx.x]) */
      none.uni = b && b->kind == V_UNK && b->uni && smd_st_lookup(st, v);
      return none;
    }
    if (v->flags & (WL_V_GLOBAL | WL_V_FIELD))
      return none;
    addr a = {A_LOCAL, NULL, v, false};
    return a;
  }
  case WL_E_INDEX: {
    const wl_expr *base = e->args[0], *idx = e->args[1];
    if (smd_is_int_type(base->type) && (idx->type & (WL_T_POINTER | WL_T_ARRAY))) {
      const wl_expr *t = base; /* 2[a] */
      base = idx;
      idx = t;
    }
    const val *p;
    const wl_expr *sb = wl_expr_strip(base);
    if (base->type & WL_T_ARRAY) {
      addr b = sme_eval_addr(c, st, base);
      if (b.kind == A_LOCAL && (e->type & WL_T_POINTER) && !(b.var->flags & WL_V_PARAM))
        return local_elem(c, b.var, e, sme_eval(c, st, idx));
      p = b.kind == A_SHARED ? decay(c, b.p) : NULL;
    } else if (sb && sb->kind == WL_E_MEMBER && !sb->var && (sb->type & WL_T_DEPENDENT) &&
               !(sb->type & WL_T_POINTER)) {
      /* smem.sum[tid] of a __shared__ union whose type depends on the
       * template's parameters (kaldi's `union { Real trans[T][T + 1]; Real
       * sum[N]; } smem`): the member is not resolved, so its extents are not
       * known; indexed in shared memory, it is an array of elements counted
       * one by one */
      addr b = sme_eval_addr(c, st, sb);
      p = b.kind == A_SHARED ? (b.p->nshape ? decay(c, b.p) : b.p) : member_storage(c, st, sb);
      if (!p)
        p = sme_eval(c, st, base);
    } else if (sb && sb->kind == WL_E_INDEX && (sb->type & WL_T_DEPENDENT) &&
               !(sb->type & WL_T_POINTER) && sb->nargs == 2 && sb->args[1] &&
               (sb->args[1]->has_ival || wl_expr_strip(sb->args[1])->kind == WL_E_REF)) {
      /* a[1][j] on memory whose type depends on the template's parameters
       * (b40c's warpscan[1][tid] through a RakingDetails member): a row of
       * an extent not known, the row index times a host-chosen number */
      addr r = sme_eval_addr(c, st, sb);
      const wl_lform *ri = smd_int_form(sme_eval(c, st, sb->args[1]));
      p = NULL;
      if (r.kind == A_SHARED && !r.p->nshape && r.p->f && ri) {
        const wl_lform *ext =
            smd_param_form(c, r.p->root, join_field(c, "%row-extent", r.p->tag), 1, WL_INF);
        const wl_lform *f =
            wl_lf_add(&c->lc, wl_lf_sub(&c->lc, r.p->f, ri), wl_lf_mul(&c->lc, ri, ext));
        p = f ? smd_vptr_with(c, r.p, f) : NULL;
      }
      if (!p)
        p = sme_eval(c, st, base);
    } else {
      p = sme_eval(c, st, base);
      if (p->kind == V_UNK && p->obj && *p->objpath)
        p = obj_storage(c, p, base);
      if (p->kind != V_PTR) {
        const val *m = member_storage(c, st, sb);
        p = m ? m : p;
      }
    }
    const val *i = sme_eval(c, st, idx);
    if (p && p->kind == V_UNK && !(base->type & WL_T_ARRAY))
      none.uni = p->uni && smd_val_uniform(i); /* a pointer not into shared memory */
    if (!p || p->kind != V_PTR)
      return none;
    addr a = {A_SHARED, ptr_add_val(c, p, smd_int_form(i), 1, i), NULL, false};
    return a;
  }
  case WL_E_UNARY:
    if (e->op == WL_U_DEREF && e->nargs == 1) {
      const val *p = sme_eval(c, st, e->args[0]);
      if (p->kind == V_UNK && p->obj && *p->objpath)
        p = obj_storage(c, p, e->args[0]);
      if (p->kind != V_PTR) {
        none.uni = p->kind == V_UNK && p->uni && (e->args[0]->type & WL_T_POINTER);
        return none;
      }
      addr a = {A_SHARED, p, NULL, false};
      return a;
    }
    break;
  case WL_E_MEMBER: {
    if (e->nargs == 0 && c->nfns && c->fns[c->nfns - 1]->thisv) {
      /* m_end in a method: a member of the method's object (this_of) */
      none.uni = c->fns[c->nfns - 1]->thisv->uni;
      return none;
    }
    if (e->nargs != 1)
      return none;
    if (e->arrow) {
      const val *p = sme_eval(c, st, e->args[0]);
      if (p->kind == V_PTR)
        return member_addr(c, p, e);
      none.uni = p->kind == V_UNK && p->uni && (e->args[0]->type & WL_T_POINTER);
      return none;
    }
    addr b = sme_eval_addr(c, st, e->args[0]);
    if (b.kind == A_SHARED)
      return member_addr(c, b.p, e);
    none.uni = b.kind == A_NONE && b.uni;
    return none;
  }
  case WL_E_CAST:
    if (e->nargs == 1)
      return sme_eval_addr(c, st, e->args[0]);
    break;
  default: break;
  }
  (void)sme_eval(c, st, e);
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

/* a + b, a - b, a * b of a thread's position and warp-uniform numbers (val.tpos) */
static const val *thread_position(ctx *c, int op, const val *a, const val *b, const val *r) {
  bool add = op == WL_B_ADD || op == WL_B_ADD_ASSIGN, sub = op == WL_B_SUB || op == WL_B_SUB_ASSIGN;
  bool mul = op == WL_B_MUL || op == WL_B_MUL_ASSIGN;
  if (!(add || sub || mul) || r->kind != V_UNK || r->uni || !(a->tpos || b->tpos))
    return r;
  const val *o = a->tpos ? b : a;
  if (!o->tpos && !(o->kind == V_INT && smd_val_uniform(o)))
    return r;
  val *t = smd_new_val(c, V_UNK);
  *t = *r;
  t->tpos = true;
  return t;
}

static const val *arith(ctx *c, int op, const val *a, const val *b, const wl_expr *e) {
  const poly *p = c->multi_dim ? poly_arith(c, op, a, b) : NULL;
  if (!p)
    return thread_position(c, op, a, b, arith_forms(c, op, a, b, e));
  long long k;
  if (poly_is_rank(p, &k))
    return smd_vint(c, wl_lf_add(&c->lc, smd_thread_x(c), wl_lf_const(&c->lc, k)), false);
  return with_poly(c, thread_position(c, op, a, b, arith_forms(c, op, a, b, e)), p);
}

/* BLOCK_SIZE * blockIdx.x with BLOCK_SIZE a template or kernel argument
 * (cusp's `thread_id = BLOCK_SIZE * blockIdx.x + threadIdx.x`): the first
 * thread of the block, a host-chosen number of whole warps as blockDim.x is
 * (1-D blocks are whole warps), so that `thread_id / 32` is the warp's index,
 * the same in every lane. NULL for any other product. */
static const wl_lform *block_start(ctx *c, const wl_lform *fa, const wl_lform *fb,
                                   const wl_expr *e) {
  const wl_lform *bx = smd_sym_form(c, "%ctaid.x", 0, WL_INF);
  if (c->multi_dim || !e)
    return NULL;
  const wl_lform *other = wl_lf_equal(fa, bx) ? fb : wl_lf_equal(fb, bx) ? fa : NULL;
  long long k;
  if (!other || !wl_lf_uniform(other) || wl_lf_const_value(other, &k) ||
      !wl_lf_has_param(&c->lc, other))
    return NULL;
  unsigned id = wl_sym_named(&c->lc, e, "%block-start/32", 0, WL_INF);
  wl_sym_set_param(&c->lc, id);
  return wl_lf_sym(&c->lc, id, WL_LANES);
}

static const val *arith_forms(ctx *c, int op, const val *a, const val *b, const wl_expr *e) {
  bool uni = smd_val_uniform(a) && smd_val_uniform(b);
  bool add = op == WL_B_ADD || op == WL_B_ADD_ASSIGN, sub = op == WL_B_SUB || op == WL_B_SUB_ASSIGN;
  if ((add || sub) && a->kind == V_PTR && smd_int_form(b))
    return sme_ptr_add(c, a, smd_int_form(b), sub ? -1 : 1);
  if (add && b->kind == V_PTR && smd_int_form(a))
    return sme_ptr_add(c, b, smd_int_form(a), 1);
  const wl_lform *fa = smd_int_form(a), *fb = smd_int_form(b), *r = NULL;
  if (!fa || !fb) {
    /* a value computed from one read from memory: a new one of its own;
     * anything combined with the lane's identity: varies by lane */
    if (a->data || b->data) { /* moved by numbers, or mixed with other values */
      val *d = (val *)smd_vdata(c);
      /* d + k, k + d, d - k with k warp-uniform: d moved by k (val.dorig) */
      const val *dv = a->data ? a : b;
      const wl_lform *k = a->data ? fb : fa;
      if (k && wl_lf_uniform(k) && dv->kind == V_UNK && (add || (sub && dv == a))) {
        d->dorig = dv->dorig ? dv->dorig : dv;
        const wl_lform *sk = sub ? wl_lf_scale(&c->lc, k, -1) : k;
        d->dshift = dv->dorig ? wl_lf_add(&c->lc, dv->dshift, sk) : sk;
      }
      return d;
    }
    bool la = a->vary || (fa && !wl_lf_uniform(fa)), lb = b->vary || (fb && !wl_lf_uniform(fb));
    bool mixes = op == WL_B_OR || op == WL_B_OR_ASSIGN || op == WL_B_XOR || op == WL_B_XOR_ASSIGN ||
                 op == WL_B_ADD || op == WL_B_ADD_ASSIGN || op == WL_B_SHL || op == WL_B_SHL_ASSIGN;
    if (mixes && (la || lb) && !(la && lb))
      return smd_vvary(c);
    return smd_vunk(uni);
  }
  switch (op) {
  case WL_B_ADD:
  case WL_B_ADD_ASSIGN: r = wl_lf_add(&c->lc, fa, fb); break;
  case WL_B_SUB:
  case WL_B_SUB_ASSIGN: r = wl_lf_sub(&c->lc, fa, fb); break;
  case WL_B_MUL:
  case WL_B_MUL_ASSIGN:
    r = block_start(c, fa, fb, e);
    r = r ? r : wl_lf_mul(&c->lc, fa, fb);
    break;
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
      return smd_vint(c, wl_lf_sym(&c->lc, wl_sym_fresh(&c->lc, "group", 0, WL_INF), 1), true);
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
  if (!r && !uni &&
      (op == WL_B_SHL || op == WL_B_SHL_ASSIGN || op == WL_B_OR || op == WL_B_OR_ASSIGN ||
       op == WL_B_XOR || op == WL_B_XOR_ASSIGN) &&
      wl_lf_uniform(fb) != wl_lf_uniform(fa))
    return smd_vvary(c); /* threadIdx.x << 27: the lane's tag */
  return smd_vint(c, r, uni);
}

/* A thread's position v (val.tpos) in a bounds test against a host-chosen
 * number: one unknown for every lane of the warp, keyed by v. A warp's
 * positions lie within a few dozen of each other, and a host-chosen bound is
 * taken to keep the lanes apart (as everywhere here), so every lane lies on
 * the same side of it: all of them stay, or none. (32 symbols, one a lane,
 * are more than a constraint row holds; before, a stack buffer handed to the
 * symbol table as the name made the 32 one symbol by accident.) */
static const wl_lform *position_form(ctx *c, const val *v) {
  return wl_lf_sym(&c->lc, wl_sym_named(&c->lc, v, "%tpos", -WL_INF, WL_INF), 1);
}

const val *sme_compare(ctx *c, int op, const val *a, const val *b) {
  const wl_lform *fa = smd_int_form(a), *fb = smd_int_form(b);
  /* a bounds test of a thread's position in a 2-D or 3-D block against a
   * host-chosen number (kaldi's `if (j >= dim_N.cols) return;` with j =
   * blockIdx.x * blockDim.x + threadIdx.x): every lane stays for a bound
   * large enough, none for a small one (position_form), instead of a
   * condition not known per lane */
  if (!fa && fb && a->tpos && wl_lf_uniform(fb) && wl_lf_has_param(&c->lc, fb))
    fa = position_form(c, a);
  else if (!fb && fa && b->tpos && wl_lf_uniform(fa) && wl_lf_has_param(&c->lc, fa))
    fb = position_form(c, b);
  if (!fa || !fb) {
    bool uni = smd_val_uniform(a) && smd_val_uniform(b);
    return smd_vcond(c, smd_cond_unk(uni));
  }
  wl_lctx *L = &c->lc;
  const wl_lform *d = wl_lf_sub(L, fa, fb), *one = wl_lf_const(L, 1);
  const cond *k;
  switch (op) {
  case WL_B_LT: k = smd_cond_cmp(c, wl_lf_add(L, d, one), WL_C_LE); break;
  case WL_B_LE: k = smd_cond_cmp(c, d, WL_C_LE); break;
  case WL_B_GT: k = smd_cond_cmp(c, wl_lf_sub(L, one, d), WL_C_LE); break;
  case WL_B_GE: k = smd_cond_cmp(c, wl_lf_scale(L, d, -1), WL_C_LE); break;
  case WL_B_EQ: k = smd_cond_cmp(c, d, WL_C_EQ); break;
  default: k = smd_cond_cmp(c, d, WL_C_NE); break;
  }
  return smd_vcond(c, k);
}

/* Evaluates e with an extra guard (the arm of ?: or the right side of && / ||). */
static const val *eval_guarded(ctx *c, state *st, const wl_expr *e, const cond *k) {
  const guard *saved = st->g;
  st->g = smd_guard_push(c, st->g, k);
  const val *v = sme_eval(c, st, e);
  st->g = saved;
  return v;
}

static const val *assign(ctx *c, state *st, const wl_expr *e) {
  const val *rhs = sme_eval(c, st, e->args[1]);
  addr a = sme_eval_addr(c, st, e->args[0]);
  const val *nv = rhs;
  if (e->op != WL_B_ASSIGN) {
    const val *old = a.kind == A_SHARED  ? read_lvalue(c, st, e->args[0], a)
                     : a.kind == A_LOCAL ? smd_st_get(c, st, a.var)
                                         : smd_vunk(false);
    nv = arith(c, e->op, old, rhs, e);
  }
  if (a.kind == A_SHARED)
    smr_record_access(c, st, e->args[0], a.p, true, nv);
  else if (a.kind == A_LOCAL)
    set_local(c, st, a.var, nv);
  return nv;
}

static const val *incdec(ctx *c, state *st, const wl_expr *e) {
  addr a = sme_eval_addr(c, st, e->args[0]);
  bool inc = e->op == WL_U_PREINC || e->op == WL_U_POSTINC;
  bool post = e->op == WL_U_POSTINC || e->op == WL_U_POSTDEC;
  const val *old;
  if (a.kind == A_SHARED)
    old = read_lvalue(c, st, e->args[0], a);
  else if (a.kind == A_LOCAL)
    old = smd_st_get(c, st, a.var);
  else
    return smd_vunk(false);
  const val *nv =
      arith(c, inc ? WL_B_ADD : WL_B_SUB, old, smd_vint(c, wl_lf_const(&c->lc, 1), true), e);
  if (a.kind == A_SHARED)
    smr_record_access(c, st, e->args[0], a.p, true, nv);
  else
    set_local(c, st, a.var, nv);
  return post ? old : nv;
}

/* ---- calls ---- */

static bool is_barrier_call(const wl_expr *e) {
  if (!e->name || e->callee)
    return false;
  const wl_builtin *b = wl_builtin_find(e->name);
  if (b && b->orders == WL_BO_BARRIER)
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
  const wl_builtin *b = wl_builtin_find(e->name);
  return b && b->orders == WL_BO_COLLECTIVE;
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
  const wl_builtin *b = wl_builtin_find(e->name);
  wl_builtin_kind kind = b ? b->kind : WL_BK_MATH;
  bool rank = kind == WL_BK_GROUP_RANK;
  bool meta = kind == WL_BK_GROUP_META_RANK;
  bool size = kind == WL_BK_GROUP_SIZE;
  if (size || kind == WL_BK_GROUP_META_SIZE) { /* the same in every lane */
    const wl_var *o = method_object(e);
    const char *t = o && o->type_spelling ? strstr(o->type_spelling, "tile<") : NULL;
    if (!o || !o->type_spelling || !strstr(o->type_spelling, "thread_block"))
      return NULL;
    long n = t ? strtol(t + 5, NULL, 10) : 0;
    if (size && n >= 1 && n <= WL_LANES)
      return smd_vint(c, wl_lf_const(&c->lc, n), true);
    return smd_vunk(true);
  }
  if (!rank && !meta)
    return NULL;
  const wl_expr *m = wl_expr_strip(e->callee_expr);
  const wl_expr *obj = m && m->kind == WL_E_MEMBER && m->nargs == 1 ? m->args[0] : NULL;
  const wl_builtin *made = wl_builtin_call(obj, WL_BK_GROUP_THIS, WL_BF_CG);
  if (rank && made && strcmp(wl_builtin_group_type(made), "thread_block") == 0)
    /* this_thread_block().thread_rank() */
    return smd_vint(c, smd_thread_x(c), false);
  const wl_var *o = method_object(e);
  if (!o || !o->type_spelling)
    return NULL;
  const char *t = strstr(o->type_spelling, "tile<");
  if (t) {
    long n = strtol(t + 5, NULL, 10);
    if (n < 1 || n > WL_LANES || (n & (n - 1)))
      return NULL;
    const wl_lform *x = smd_thread_x(c), *r;
    r = wl_lf_op(&c->lc, rank ? WL_LOP_REM : WL_LOP_DIV, x, wl_lf_const(&c->lc, n));
    return smd_vint(c, r, false);
  }
  if (rank && strstr(o->type_spelling, "thread_block"))
    return smd_vint(c, smd_thread_x(c), false);
  return NULL;
}

/* SharedMemory<T>() in a template: the struct's conversion operator, found by USR */
const wl_func *sme_conversion_operator(const wl_tu *tu, const wl_expr *e) {
  if (e->callee || e->nargs || !e->name || !*e->name)
    return NULL;
  char key[300];
  snprintf(key, sizeof key, "@%s@F@operator", e->name);
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if ((f->flags & WL_F_METHOD) && f->body && f->nparams == 0 && f->usr && strstr(f->usr, key))
      return f;
  }
  return NULL;
}

/* put(i, v) of `auto put = [&](int i, float v) {...}`: operator() of the
 * closure, whose object is the first argument */
const wl_func *sme_lambda_of(const wl_expr *e) {
  if (e->callee || !e->name || strcmp(e->name, "operator()") != 0 || e->nargs == 0)
    return NULL;
  const wl_expr *o = wl_expr_strip(e->args[0]);
  if (o && o->kind == WL_E_REF && o->var && !(o->var->flags & WL_V_PARAM) && o->var->init)
    o = wl_expr_strip(o->var->init);
  return o && o->kind == WL_E_LAMBDA && o->lambda && o->lambda->body ? o->lambda : NULL;
}

/* Runs f's body for a call e whose arguments from `first` on are f's parameters. */
/* The object of a method call obj.f() / p->f() when it is memory not
 * analyzed: a warp-uniform unknown when every lane names the same object
 * (node.num_points() of a Quadtree_node &node = nodes[blockIdx.x]), else a
 * lane-dependent one; NULL (left as it was) for an object in shared memory
 * or any other call. */
static const val *this_of(ctx *c, state *st, const wl_expr *e, const wl_func *f) {
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  if (!(f->flags & WL_F_METHOD) || !ce || ce->kind != WL_E_MEMBER || ce->nargs != 1 || !ce->args[0])
    return NULL;
  bool rec = c->record;
  c->record = false; /* evaluated again for its address only */
  const val *r = NULL;
  if (ce->arrow) {
    const val *p = sme_eval(c, st, ce->args[0]);
    if (p->kind == V_UNK)
      r = smd_vunk(p->uni);
  } else {
    addr a = sme_eval_addr(c, st, ce->args[0]);
    if (a.kind == A_NONE)
      r = smd_vunk(a.uni);
  }
  c->record = rec;
  return r;
}

/* A method, a member function template included (lowering marks only the
 * plain ones WL_F_METHOD): its USR names a class before the function. */
static bool member_function(const wl_func *f) {
  if (f->flags & WL_F_METHOD)
    return true;
  const char *ft = f->usr ? strstr(f->usr, "@FT@") : NULL;
  if (!ft)
    return false;
  for (const char *p = f->usr; p + 3 <= ft; p++)
    if (p[0] == '@' && p[1] == 'S' && (p[2] == '@' || p[2] == 'T' || p[2] == 'P'))
      return true;
  return false;
}

/* The object of a method call when it is a struct of an uncalled root
 * passed by value (obj_val): obj.f(), or f() in a method of such an object. */
static const val *this_obj(ctx *c, state *st, const wl_expr *e, const wl_func *f) {
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  if (!member_function(f) || !ce || ce->kind != WL_E_MEMBER || ce->arrow)
    return NULL;
  if (ce->nargs == 0)
    return c->nfns ? c->fns[c->nfns - 1]->thisobj : NULL;
  return ce->nargs == 1 ? obj_val(c, st, ce->args[0]) : NULL;
}

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
      addr a = sme_eval_addr(c, st, arg);
      args[i] = a.kind == A_SHARED ? a.p : smd_vunk(a.kind == A_NONE && a.uni);
      if (a.kind == A_LOCAL)
        outs[nouts++] = a.var;
    } else {
      const val *v = sme_eval(c, st, arg);
      if (i < f->nparams)
        args[i] = v;
    }
  }
  /* a parameter left to its default argument (b40c's `int warpscan_tid =
   * threadIdx.x`): the argument is evaluated at the call, by the caller */
  for (unsigned i = nargs; i < f->nparams; i++)
    if (f->params[i]->init && !(f->params[i]->type & WL_T_REFERENCE))
      args[i] = sme_eval(c, st, f->params[i]->init);
  for (unsigned i = 0; i < nouts; i++)
    set_local(c, st, outs[i], smd_vunk(false));
  if (recursive || c->nfns > MAX_CALL_DEPTH || !st->live)
    return smd_vunk(false);
  /* the template arguments the call names, evaluated by the caller (a
   * template's own parameter, LOG_WARP_SIZE, a number) */
  const wl_lform **tvals = NULL;
  for (unsigned i = 0; i < e->ntargs && i < f->ntparams; i++) {
    const wl_lform *tf = e->targs[i] ? smd_int_form(sme_eval(c, st, e->targs[i])) : NULL;
    if (!tf || !wl_lf_uniform(tf))
      continue;
    if (!tvals) {
      tvals = wl_arena_alloc(&c->ar, f->ntparams * sizeof *tvals);
      memset(tvals, 0, f->ntparams * sizeof *tvals);
    }
    tvals[i] = tf;
  }
  /* the class template's arguments the qualifier names (Iterate<1, WIDTH>::) */
  const wl_lform **ctvals = NULL;
  for (unsigned i = 0; i < e->nctargs && i < e->nctparams; i++) {
    const wl_lform *tf = e->ctargs[i] ? smd_int_form(sme_eval(c, st, e->ctargs[i])) : NULL;
    if (!tf || !wl_lf_uniform(tf))
      continue;
    if (!ctvals) {
      ctvals = wl_arena_alloc(&c->ar, e->nctparams * sizeof *ctvals);
      memset(ctvals, 0, e->nctparams * sizeof *ctvals);
    }
    ctvals[i] = tf;
  }
  state cs;
  smd_st_init(&cs);
  cs.live = true;
  cs.g = st->g;
  if (f->flags & WL_F_LAMBDA) /* the body names the enclosing function's variables */
    for (unsigned i = 0; i < st->nenv; i++)
      smd_st_set(&cs, st->env[i].var, st->env[i].v);
  for (unsigned i = 0; i < f->nparams; i++)
    smd_st_set(&cs, f->params[i], args[i] ? args[i] : smd_vunk(false));
  cs.npend = cs.cappend = st->npend;
  if (st->npend) {
    cs.pend = wl_xmalloc(st->npend * sizeof *cs.pend);
    memcpy(cs.pend, st->pend, st->npend * sizeof *cs.pend);
  }
  fnframe fr;
  memset(&fr, 0, sizeof fr);
  fr.f = f;
  fr.call = e;
  fr.thisv = this_of(c, st, e, f);
  fr.thisobj = this_obj(c, st, e, f);
  fr.tvals = tvals;
  fr.ctvals = ctvals;
  const wl_func *saved_fn = c->fn;
  const wl_stmt *saved_stmt = c->stmt;
  const wl_expr *saved_call = c->root_call;
  if (c->nfns == 1)
    c->root_call = e;
  c->fns[c->nfns++] = &fr;
  c->fn = f;
  smx_exec_stmt(c, &cs, f->body);
  c->nfns--;
  c->fn = saved_fn;
  c->stmt = saved_stmt;
  c->root_call = saved_call;
  if (fr.has_ret)
    smd_join_into(c, &cs, &fr.ret);
  smd_st_free(&fr.ret);
  /* the caller goes on with its own variables and guard, the callee's pending accesses */
  free(st->pend);
  st->pend = cs.pend;
  st->npend = cs.npend;
  st->cappend = cs.cappend;
  cs.pend = NULL;
  smd_st_free(&cs);
  return fr.retv ? fr.retv : smd_vunk(false);
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

/* A CUDA built-in of the prelude or toolkit (atomics, intrinsics, math), as
 * opposed to a library function of the toolkit's headers (cub's
 * BlockReduce::Sum, which may hold a barrier). */
static bool intrinsic_name(const char *n) {
  const wl_builtin *b = wl_builtin_find(n);
  return !n || strncmp(n, "__", 2) == 0 ||
         (b && (b->kind == WL_BK_ATOMIC || b->result == WL_BR_ARGS)) ||
         strncmp(n, "operator", 8) == 0;
}

/* A struct lvalue (not a number or pointer): s[i] of a __shared__ float3 s[32]. */
static bool record_lvalue(const wl_expr *a) {
  a = wl_expr_strip(a);
  return a && !(a->type & (WL_T_POINTER | WL_T_ARRAY | WL_T_INTEGER | WL_T_FLOATING)) &&
         (a->kind == WL_E_INDEX || a->kind == WL_E_MEMBER || a->kind == WL_E_REF ||
          (a->kind == WL_E_UNARY && a->op == WL_U_DEREF));
}

/* The implicit copy constructor of a struct: float3(s[i]) (clang's CXXConstructExpr of
 * `float3 w = s[i];`), by its USR `...@S@float3@F@float3#...`. */
static bool implicit_copy_ctor(const wl_expr *e) {
  if (e->callee || e->nargs != 1 || !e->name || !*e->name || !e->callee_usr ||
      !record_lvalue(e->args[0]))
    return false;
  char key[300], own[300];
  snprintf(key, sizeof key, "@%s@F@%s#&", e->name, e->name);
  snprintf(own, sizeof own, "@%s#", e->name);
  const char *k = strstr(e->callee_usr, key);
  /* its one parameter a reference to its own type (&1$@S@float3#), not BlockReduce(temp) */
  return k && strstr(k + strlen(key), own) != NULL;
}

/* The value of a struct copied from an lvalue: a whole-object read when it lies in
 * shared memory (float3 w = s[i]; t = s[i]). */
static const val *read_record(ctx *c, state *st, const wl_expr *a) {
  if (!record_lvalue(a))
    return sme_eval(c, st, a);
  addr ad = sme_eval_addr(c, st, wl_expr_strip(a));
  const val *r = read_lvalue(c, st, wl_expr_strip(a), ad);
  return r ? r : smd_vunk(false);
}

/* Whole-struct copies, implicit or defaulted (no body): `s[lane] = v` on a __shared__ float3
 * or struct array is clang's call of operator=; a store of the whole object, which overlaps
 * every scalar member of it (races.c, same_storage). */
static const val *struct_copy(ctx *c, state *st, const wl_expr *e) {
  if (implicit_copy_ctor(e))
    return read_record(c, st, e->args[0]);
  if (e->callee || e->nargs != 2 || !e->name || strcmp(e->name, "operator=") != 0 ||
      !e->callee_is_method || !record_lvalue(e->args[0]))
    return NULL;
  const val *rhs = read_record(c, st, e->args[1]);
  addr a = sme_eval_addr(c, st, wl_expr_strip(e->args[0]));
  if (a.kind == A_SHARED && a.p->nshape == 0)
    smr_record_access(c, st, wl_expr_strip(e->args[0]), a.p, true, rhs);
  else if (a.kind == A_LOCAL)
    set_local(c, st, a.var, rhs);
  return rhs;
}

/* warp_reduction(v) in `template <float (*warp_reduction)(float)> blockReduce(...)`
 * run through blockReduce<warpReduceSum>(x) (llm.c): the function the call
 * being run names for that template parameter. The specialization's USR spells
 * its arguments (`blockReduce<#@F@warpReduceSum#f#>#f#`); the function of the
 * file whose USR appears there as one argument is taken, when exactly one does. */
static const wl_func *template_function_arg(const ctx *c, const wl_expr *e) {
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  const fnframe *fr = c->nfns ? c->fns[c->nfns - 1] : NULL;
  if (e->callee || !ce || ce->kind != WL_E_REF || ce->var || !ce->name || !fr || !fr->call ||
      fr->f != c->fn || !fr->call->callee_spec_usr)
    return NULL;
  bool tparam = false;
  for (unsigned i = 0; i < c->fn->ntparams && !tparam; i++)
    tparam = c->fn->tparams[i] && strcmp(c->fn->tparams[i], ce->name) == 0;
  const char *args = tparam ? strchr(fr->call->callee_spec_usr, '<') : NULL;
  if (!args)
    return NULL;
  const wl_func *found = NULL;
  for (unsigned i = 0; i < c->tu->nfuncs; i++) {
    const wl_func *g = c->tu->funcs[i];
    if (!g->body || g->ntparams || !g->usr || strncmp(g->usr, "c:", 2) != 0 || g == c->fn)
      continue;
    size_t n = strlen(g->usr + 2);
    for (const char *p = strstr(args, g->usr + 2); p; p = strstr(p + 1, g->usr + 2))
      if (p[-1] == '#' && (p[n] == '#' || p[n] == '>' || p[n - 1] == '#')) {
        if (found && found != g)
          return NULL;
        found = g;
        break;
      }
  }
  return found;
}

/* `a == b`, `x & m` on dependent types in a template: clang keeps the
 * operator unresolved and lowering names one of the overloads visible there
 * (cusp's operator== of array1d, namespace-scope templates of a library) as
 * its callee, which an instantiation for numbers would not call (an operator
 * that is not a template, such as a file's operator+= of its vec3, is what
 * the code means and stays inlined); running
 * that body would bind the operands to its reference parameters and forget
 * their values (cusp's thread_lane, b40c's vertex ids). */
bool sme_dependent_builtin_op(const wl_expr *e) {
  return (e->type & WL_T_DEPENDENT) && e->nargs == 2 && wl_operator_binop(e->name) != WL_B_NONE &&
         (!e->callee || e->callee->ntparams > 0 || (e->callee->flags & WL_F_TEMPLATE));
}

/* obj.Set(v, 1, tid) on a struct of an uncalled root passed by value whose
 * type is a template parameter (b40c's WarpscanSoa, a soa_tuple.cuh Tuple of
 * pointers to shared rows): a dependent call that no one resolved. The first
 * method of the file with that name that takes that many arguments is run
 * (the tuple's specializations each store or load their pointer members the
 * same way; any one stands for all), with the struct as its object. */
static const wl_func *dependent_method(ctx *c, state *st, const wl_expr *e) {
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  if (e->callee || !e->name || !*e->name || !ce || ce->kind != WL_E_MEMBER || ce->arrow ||
      ce->nargs != 1 || !(ce->args[0]->type & WL_T_DEPENDENT) || !obj_val(c, st, ce->args[0]))
    return NULL;
  for (unsigned i = 0; i < c->tu->nfuncs; i++) {
    const wl_func *f = c->tu->funcs[i];
    if (!f->body || !f->name || strcmp(f->name, e->name) != 0 || f->nparams < e->nargs ||
        !member_function(f))
      continue;
    unsigned required = 0;
    for (unsigned k = 0; k < f->nparams; k++)
      required += f->params[k]->init == NULL;
    if (required <= e->nargs)
      return f;
  }
  return NULL;
}

static const val *eval_call(ctx *c, state *st, const wl_expr *e) {
  if (e->callee && e->callee->body && !sme_dependent_builtin_op(e))
    return inline_call(c, st, e, e->callee, 0);
  const wl_func *method = dependent_method(c, st, e);
  if (method)
    return inline_call(c, st, e, method, 0);
  const wl_func *targ = template_function_arg(c, e);
  if (targ)
    return inline_call(c, st, e, targ, 0);
  const val *copied = struct_copy(c, st, e);
  if (copied)
    return copied;
  int bop = (e->type & WL_T_DEPENDENT) || !e->callee_usr ? wl_operator_binop(e->name) : WL_B_NONE;
  if (bop != WL_B_NONE && e->nargs == 2 && (!e->callee_is_method || sme_dependent_builtin_op(e))) {
    /* a * b on dependent types: the built-in operator, as the template is
     * instantiated for numbers */
    wl_expr as_op = *e;
    as_op.kind = WL_E_BINARY;
    as_op.op = bop;
    as_op.callee_expr = NULL;
    return sme_eval(c, st, &as_op);
  }
  const wl_func *getter = shared_memory_getter(c, e);
  if (getter)
    return inline_call(c, st, e, getter, 0);
  const wl_func *conv = sme_conversion_operator(c->tu, e);
  if (conv)
    return inline_call(c, st, e, conv, 0);
  const wl_func *lambda = sme_lambda_of(e);
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
      addr ad = sme_eval_addr(c, st, a);
      passes_memory |= ad.kind == A_SHARED;
      /* a value of a type that depends on the template's parameters (an
       * IndexType num_nonzeros given to ::cuda::std::min) is the value it is */
      bool value = ad.kind != A_SHARED && (sa->type & WL_T_DEPENDENT);
      args[i] = value ? sme_eval(c, st, a) : smd_vunk(false);
    } else {
      args[i] = sme_eval(c, st, a);
      passes_memory |= args[i]->kind == V_PTR;
    }
    uni = uni && smd_val_uniform(args[i]);
  }
  const wl_expr *ce = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  bool library = !e->callee_in_prelude || !intrinsic_name(e->name);
  if (ce && ce->kind == WL_E_CALL && library) /* T(temp).Sum(x) unresolved: T(temp) decides */
    (void)sme_eval(c, st, ce);
  if (ce && ce->kind == WL_E_MEMBER && ce->nargs == 1 && ce->args[0] && library) {
    /* the object of a method call: a temporary built here (BlockReduce(temp).Sum(x))
     * or an object in shared memory */
    const wl_expr *ob = wl_expr_strip(ce->args[0]);
    if (ob && (ob->kind == WL_E_REF || ob->kind == WL_E_MEMBER || ob->kind == WL_E_INDEX) &&
        !ce->arrow)
      passes_memory |= sme_eval_addr(c, st, ob).kind == A_SHARED;
    else if (ob && ob->kind != WL_E_THIS)
      passes_memory |= sme_eval(c, st, ce->args[0])->kind == V_PTR;
  }
  if (is_barrier_call(e)) {
    st->npend = 0;
    return smd_vunk(true);
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
    return smd_vunk(false);
  }
  const val *cg = cg_call(c, e);
  if (cg)
    return cg;
  const wl_builtin *bi = e->callee_in_prelude ? wl_builtin_find(e->name) : NULL;
  if (bi && bi->result == WL_BR_ARGS) {
    if (uni && e->nargs == 1 && bi->kind == WL_BK_MATH && strncmp(e->name, "__ffs", 5) == 0) {
      /* __ffs(b) of a warp-uniform b (a ballot: `while (b) { int l = __ffs(b) - 1; b &= b - 1;
       * ... }`): a lane number, the same in every lane, that may be any lane's (1..32, 0 when b
       * is 0); not host-chosen, so elements it selects meet the lanes' own */
      long long bits = strcmp(e->name, "__ffsll") == 0 ? 64 : 32;
      return smd_vint(c, wl_lf_sym(&c->lc, wl_sym_fresh(&c->lc, "ffs", 0, bits), 1), true);
    }
    if (e->nargs == 2 && (strstr(e->name, "min") || strstr(e->name, "max")))
      return smd_vint(c,
                      wl_lf_op(&c->lc, strstr(e->name, "min") ? WL_LOP_MIN : WL_LOP_MAX,
                               smd_int_form(args[0]), smd_int_form(args[1])),
                      uni);
    return smd_vunk(uni);
  }
  if (bi && bi->result == WL_BR_UNIFORM && bi->form == WL_BF_INTRINSIC)
    return smd_vunk(true); /* a vote or warp reduction: the same in every lane that takes part */
  /* traits::writeSums(), traits::isBackward() in a template: a function of
   * the template's type arguments (its type depends on them), given the same
   * arguments in every lane, gives the same answer in every lane */
  const wl_expr *cx = e->callee_expr ? wl_expr_strip(e->callee_expr) : NULL;
  bool dependent_static = (e->type & WL_T_DEPENDENT) && !e->callee_usr && !e->callee_is_method &&
                          !(cx && cx->kind == WL_E_MEMBER);
  return smd_vunk(uni && dependent_static);
}

/* ---- unresolved library calls ---- */

static bool collect_shared_decl(const wl_stmt *s, void *ud) {
  wl_vec *names = ud;
  if (s->kind == WL_S_DECL)
    for (unsigned i = 0; i < s->nvars; i++)
      if ((s->vars[i]->flags & WL_V_SHARED) && s->vars[i]->name)
        wl_vec_push(names, (void *)s->vars[i]->name);
  return true;
}

/* The names of the __shared__ variables f's body declares, collected on the
 * first question (a walk of the body for every unresolved expression
 * evaluated made a fuzzed 6 KB file take 4.6 s). */
static const wl_vec *shared_locals(const ctx *c, const wl_func *f) {
  void **slot = wl_hmap_slot_of(&c->sm->shared_locals, f);
  if (!*slot) {
    wl_vec *names = wl_xcalloc(1, sizeof *names);
    wl_visitor vis = {collect_shared_decl, NULL, names, false};
    wl_walk_stmt(f->body, &vis);
    *slot = names;
  }
  return *slot;
}

/* Whether name[0..len) is a __shared__ variable of a function being run or of the file. */
static bool shared_name(const ctx *c, const char *name, size_t len) {
  for (unsigned i = 0; i < c->tu->nglobals; i++) {
    const wl_var *v = c->tu->globals[i];
    if ((v->flags & WL_V_SHARED) && v->name && strlen(v->name) == len &&
        strncmp(v->name, name, len) == 0)
      return true;
  }
  for (unsigned i = 0; i < c->nfns; i++)
    if (c->fns[i]->f && c->fns[i]->f->body) {
      const wl_vec *names = shared_locals(c, c->fns[i]->f);
      for (size_t k = 0; k < names->n; k++)
        if (strlen(names->v[k]) == len && strncmp(names->v[k], name, len) == 0)
          return true;
    }
  return false;
}

/* An expression clang could not resolve, with nothing of it left in the IR,
 * whose text passes a __shared__ variable as an argument: `R(temp).Sum(x)`
 * where `typedef cub::BlockReduce<float, BLOCK> R;` names a library whose
 * headers are missing. It may be a library block reduction on that storage,
 * which may hold a barrier (as eval_call takes a visible call that receives
 * shared memory). */
static bool unresolved_on_shared(const ctx *c, const wl_expr *e) {
  if (e->kind != WL_E_OTHER || e->nargs || !(e->type & (WL_T_DEPENDENT | WL_T_INVALID)) || e->macro)
    return false;
  /* clang keeps only a piece of the expression (`temp` of `R(temp).Sum(x)`):
   * the text of the simple statement holding it is read */
  const wl_stmt *in = c->stmt;
  wl_range rg = in && !in->macro &&
                        (in->kind == WL_S_DECL || in->kind == WL_S_EXPR || in->kind == WL_S_RETURN)
                    ? in->range
                    : e->range;
  if (!rg.begin.file || rg.begin.file != rg.end.file)
    return false;
  const char *src = NULL;
  size_t len = 0;
  /* (a header's text is the same in every view; the main file's is read
   * only in its own: wl_smem_serves_view) */
  bool main_file = wl_tu_in_main(c->tu, rg.begin);
  if (main_file) {
    src = c->tu->source;
    len = c->tu->source_len;
  } else {
    const wl_tu_file *tf = wl_tu_file_of(c->tu, rg.begin);
    if (tf) {
      src = tf->source;
      len = tf->source_len;
    }
  }
  size_t b = rg.begin.offset, end = rg.end.offset;
  if (!src || b >= end || end > len || end - b > 4096)
    return false;
  for (size_t i = b; i < end; i++) {
    if (!(isalpha((unsigned char)src[i]) || src[i] == '_') ||
        (i > b && (isalnum((unsigned char)src[i - 1]) || src[i - 1] == '_')))
      continue;
    size_t j = i;
    while (j < end && (isalnum((unsigned char)src[j]) || src[j] == '_'))
      j++;
    size_t p = i, q = j;
    while (p > b && isspace((unsigned char)src[p - 1]))
      p--;
    while (q < end && isspace((unsigned char)src[q]))
      q++;
    bool arg = p > b && (src[p - 1] == '(' || src[p - 1] == ',') && q < end &&
               (src[q] == ')' || src[q] == ',');
    if (arg && shared_name(c, src + i, j - i)) {
      if (main_file)
        sma_view_reads(c->sm, NULL);
      return true;
    }
    i = j;
  }
  return false;
}

/* "unsigned int (*)[32][20]" (clang's spelling of a pointer to an array):
 * the element type's tag and the extents; false for any other type or
 * extents that are not numbers */
static bool array_pointer(ctx *c, const char *t, const char **tag, unsigned shape[4], unsigned *n) {
  const char *star = t ? strstr(t, "(*)") : NULL;
  if (!star || star == t)
    return false;
  const char *q = star + 3;
  unsigned k = 0;
  while (*q == ' ')
    q++;
  while (*q == '[') {
    char *end;
    unsigned long v = strtoul(q + 1, &end, 10);
    if (end == q + 1 || *end != ']' || v == 0 || v > (1ul << 24) || k == 4)
      return false;
    shape[k++] = (unsigned)v;
    q = end + 1;
    while (*q == ' ')
      q++;
  }
  if (!k || *q)
    return false;
  *tag = sme_norm_type(c, wl_arena_strndup(&c->ar, t, (size_t)(star - t)), false);
  *n = k;
  return *tag != NULL;
}

/* The type a cast spells in src between its start `from` and its operand's
 * start `to`: the text inside its first <...> (static_cast<T *>) or else
 * its first (...), in sme_norm_type's spelling in buf; false when there is
 * none. */
static bool cast_spelling(const char *src, size_t from, size_t to, char buf[NORM_MAX]) {
  const char *s = src + from;
  size_t n = to - from;
  const char *open = memchr(s, '<', n), *close = NULL;
  if (open) {
    close = memchr(open, '>', n - (size_t)(open - s));
  } else if ((open = memchr(s, '(', n)) != NULL) {
    close = memchr(open, ')', n - (size_t)(open - s));
  }
  if (!open || !close || close <= open + 1)
    return false;
  char *t = wl_xmalloc((size_t)(close - open));
  memcpy(t, open + 1, (size_t)(close - open - 1));
  t[close - open - 1] = '\0';
  size_t k = norm_type_into(t, true, buf);
  free(t);
  return k > 0;
}

/* Casting a shared pointer: the element type may change (SharedMemory<T>, float4 loads). */
static const val *cast_ptr(ctx *c, const wl_expr *e, const val *p) {
  const wl_expr *op = e->args[0];
  const char *tag = NULL;
  const wl_tu *tu = c->tu;
  /* (uint32_t (*)[WU][20]) x: a pointer to rows of the extents in the type */
  unsigned ashape[4] = {0}, anshape = 0;
  bool arows =
      !(e->type & WL_T_DEPENDENT) && array_pointer(c, e->cast_type, &tag, ashape, &anshape);
  /* the type as the file being analyzed spells it, where it is read; a
   * header's spelling is read in the header's view, not in the main file's
   * (the rules run on each reported header as if it were the file
   * analyzed): the view where what is read gives a type other than
   * cast_type's is noted (wl_smem_serves_view) */
  bool spelled = !arows && !e->macro && op->range.begin.offset > e->range.begin.offset;
  char read[NORM_MAX], given[NORM_MAX];
  bool plain =
      e->cast_type && !(e->type & WL_T_DEPENDENT) && norm_type_into(e->cast_type, true, given) > 0;
  if (spelled && wl_tu_in_main(tu, e->range.begin) && wl_tu_in_main(tu, op->range.begin) &&
      op->range.begin.offset <= tu->source_len) {
    if (cast_spelling(tu->source, e->range.begin.offset, op->range.begin.offset, read)) {
      tag = smd_intern(c, read);
      if (!plain || strcmp(read, given) != 0)
        sma_view_reads(c->sm, NULL);
    }
  } else if (spelled && e->range.begin.file && op->range.begin.file) {
    const wl_tu_file *tf = wl_tu_file_of(tu, e->range.begin);
    if (tf && wl_tu_file_of(tu, op->range.begin) == tf &&
        op->range.begin.offset <= tf->source_len &&
        cast_spelling(tf->source, e->range.begin.offset, op->range.begin.offset, read) &&
        (!plain || strcmp(read, given) != 0))
      sma_view_reads(c->sm, tf->name);
  }
  if (!tag && e->cast_type && !(e->type & WL_T_DEPENDENT))
    tag = sme_norm_type(c, e->cast_type, true); /* a macro, another file */
  if (arows && tag == p->tag && p->f) {
    /* rows of the same elements from where p points: the offset stays */
    val *q = (val *)smd_vptr_with(c, p, p->f);
    q->nshape = anshape;
    memcpy(q->shape, ashape, sizeof q->shape);
    q->width = 0;
    if (e->type & WL_T_VOLATILE)
      q->vol = true;
    return q;
  }
  if (tag && tag == p->tag)
    return p;
  if ((e->type & WL_T_DEPENDENT) && p->tag) {
    /* (volatile T *)p in a template: T is the pointee's own type as far as
     * can be seen (the load and store wrappers of legacy code) */
    val *q = (val *)smd_vptr_with(c, p, p->f);
    if (e->type & WL_T_VOLATILE)
      q->vol = true;
    return q;
  }
  /* *(uint4 *)&s[4 * i] of an unsigned int s[], (int *) of a float s[]: the
   * elements stay those of p, and an access through the cast covers as many
   * of them as its type's size holds (a group that is a whole number of
   * them); the steps of the new pointer count in such groups. Not for bytes
   * (an unsigned char s[] cast to int *): raw storage that each phase of a
   * kernel types its own way (cudpp's MTF kernel reuses its bytes as ints
   * between barriers), taken as a region of the new type as before. */
  unsigned eb = p->width > 1 ? p->ebytes : (p->ebytes ? p->ebytes : op->elem_bytes);
  unsigned nb = e->elem_bytes;
  if (!arows && p->f && p->nshape == 0 && eb > 1 && nb && nb >= eb && nb % eb == 0 &&
      nb / eb <= WL_LANES && !p->dkey) {
    val *q = (val *)smd_vptr_with(c, p, p->f);
    q->width = nb / eb;
    q->ebytes = eb;
    if (e->type & WL_T_VOLATILE)
      q->vol = true;
    return q;
  }
  long long z;
  bool at_base = p->f && wl_lf_const_value(p->f, &z) && z == 0;
  val *q = (val *)smd_vptr_with(c, p, at_base ? p->f : NULL);
  /* (unsigned int *)(temp + 2 * blockDim.x) of a T *temp: another element
   * type at an offset that is the same in every lane but cannot be counted in
   * the new type (sizeof(T) is not known): the start of a region of the
   * storage, a host-chosen number of the new elements from its base, the same
   * wherever this cast is evaluated. Accesses through it meet each other
   * (cudpp's segmented scans keep their indices and flags behind the data),
   * not those of the old element type. */
  if (!at_base && tag && p->f && wl_lf_uniform(p->f))
    q->f = smd_param_form(c, e, "%cast-base", 0, WL_INF);
  q->tag = tag;
  q->nshape = anshape;
  memcpy(q->shape, ashape, sizeof q->shape);
  q->width = 0;
  q->ebytes = arows ? 0 : nb;
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
  if (v->kind != V_INT || !smd_is_int_type(e->type) || !e->bytes || e->bytes >= 8 || !from->bytes ||
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
  return smd_vint(c, uns ? wl_lf_op(&c->lc, WL_LOP_AND, v->f, wl_lf_const(&c->lc, thi)) : NULL,
                  false);
}

const val *sme_eval(ctx *c, state *st, const wl_expr *e) {
  if (!e)
    return smd_vunk(false);
  if (e->has_ival && (smd_is_int_type(e->type) || e->kind == WL_E_INT || e->kind == WL_E_BOOL))
    return smd_vint(c, wl_lf_const(&c->lc, e->ival), true);
  switch (e->kind) {
  case WL_E_INT:
  case WL_E_BOOL: return smd_vint(c, wl_lf_const(&c->lc, e->ival), true);
  case WL_E_FLOAT:
  case WL_E_STRING:
  case WL_E_SIZEOF: return smd_vunk(true);
  case WL_E_REF: {
    const wl_var *v = e->var;
    if (!v) {
      if (smd_is_int_type(e->type) && e->name && (e->type & WL_T_DEPENDENT)) {
        /* a non-type template parameter: the number the call names, the
         * instantiation's, or host-chosen */
        const fnframe *fr = c->nfns ? c->fns[c->nfns - 1] : NULL;
        for (unsigned i = 0; fr && fr->tvals && fr->f == c->fn && i < c->fn->ntparams; i++)
          if (fr->tvals[i] && strcmp(c->fn->tparams[i], e->name) == 0)
            return smd_vint(c, fr->tvals[i], true);
        for (unsigned i = 0; fr && fr->ctvals && fr->f == c->fn && i < fr->call->nctparams; i++)
          if (fr->ctvals[i] && fr->call->ctparams[i] && strcmp(fr->call->ctparams[i], e->name) == 0)
            return smd_vint(c, fr->ctvals[i], true);
        for (unsigned i = 0; c->tinst && c->fn == c->root && i < c->root->ntparams; i++)
          if (c->tinst->known[i] && strcmp(c->root->tparams[i], e->name) == 0)
            return smd_vint(c, wl_lf_const(&c->lc, c->tinst->vals[i]), true);
        char *n = wl_arena_alloc(&c->ar, strlen(e->name) + 3);
        snprintf(n, strlen(e->name) + 3, "%%T%s", e->name);
        long long lo = (e->type & WL_T_UNSIGNED) ? 0 : -WL_INF;
        return smd_vint(c, smd_param_form(c, NULL, n, lo, WL_INF), true);
      }
      return smd_vunk(true);
    }
    const val *o = obj_val(c, st, e);
    if (o)
      return o;
    addr a = sme_eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    if (r)
      return r;
    return (v->type & WL_T_REFERENCE) ? smd_vunk(false) : smd_st_get(c, st, v);
  }
  case WL_E_MEMBER: {
    const val *b = builtin_member(c, e);
    if (b)
      return b;
    const val *o = obj_val(c, st, e);
    if (o)
      return o;
    addr a = sme_eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    if (r)
      return r;
    /* a field of a kernel parameter (or global) is warp-uniform */
    const wl_expr *base = e->nargs == 1 ? wl_expr_strip(e->args[0]) : NULL;
    if (base && base->kind == WL_E_REF && base->var && !e->arrow) {
      const val *bv = smd_var_default(c, base->var);
      if (!smd_st_lookup(st, base->var) && bv->uni && smd_is_int_type(e->type)) {
        const char *n = join_field(c, base->var->name, e->name);
        return smd_vint(c, smd_param_form(c, base->var, n, -WL_INF, WL_INF), true);
      }
      return smd_vunk(bv->uni && !smd_st_lookup(st, base->var));
    }
    return smd_vunk(false);
  }
  case WL_E_INDEX: {
    addr a = sme_eval_addr(c, st, e);
    const val *r = read_lvalue(c, st, e, a);
    return r ? r : smd_vdata(c); /* a load of memory not analyzed */
  }
  case WL_E_UNARY: {
    if (e->nargs != 1)
      return smd_vunk(false);
    switch (e->op) {
    case WL_U_DEREF: {
      addr a = sme_eval_addr(c, st, e);
      const val *r = read_lvalue(c, st, e, a);
      return r ? r : smd_vdata(c);
    }
    case WL_U_ADDROF: {
      addr a = sme_eval_addr(c, st, e->args[0]);
      return a.kind == A_SHARED ? a.p : smd_vunk(a.kind == A_NONE && a.uni);
    }
    case WL_U_PREINC:
    case WL_U_PREDEC:
    case WL_U_POSTINC:
    case WL_U_POSTDEC: return incdec(c, st, e);
    case WL_U_PLUS: return sme_eval(c, st, e->args[0]);
    case WL_U_MINUS: {
      const val *v = sme_eval(c, st, e->args[0]);
      return smd_vint(c, wl_lf_scale(&c->lc, smd_int_form(v), -1), smd_val_uniform(v));
    }
    case WL_U_NOT: {
      const val *v = sme_eval(c, st, e->args[0]);
      return smd_vint(c, wl_lf_sub(&c->lc, wl_lf_const(&c->lc, -1), smd_int_form(v)),
                      smd_val_uniform(v));
    }
    case WL_U_LNOT: {
      const val *v = sme_eval(c, st, e->args[0]);
      return smd_vcond(c, smd_cond_not(c, smd_cond_of(c, v)));
    }
    default: (void)sme_eval(c, st, e->args[0]); return smd_vunk(false);
    }
  }
  case WL_E_BINARY: {
    if (e->nargs != 2)
      return smd_vunk(false);
    if (wl_binop_is_assign(e->op))
      return assign(c, st, e);
    switch (e->op) {
    case WL_B_LAND:
    case WL_B_LOR: {
      const cond *ka = smd_cond_of(c, sme_eval(c, st, e->args[0]));
      bool land = e->op == WL_B_LAND;
      if (smd_cond_definite(ka) == (land ? 0 : 1))
        return smd_vcond(c, ka);
      const cond *kb =
          smd_cond_of(c, eval_guarded(c, st, e->args[1], land ? ka : smd_cond_not(c, ka)));
      return smd_vcond(c, land ? smd_cond_and(c, ka, kb) : smd_cond_or(c, ka, kb));
    }
    case WL_B_COMMA: (void)sme_eval(c, st, e->args[0]); return sme_eval(c, st, e->args[1]);
    case WL_B_LT:
    case WL_B_GT:
    case WL_B_LE:
    case WL_B_GE:
    case WL_B_EQ:
    case WL_B_NE: {
      const val *a = sme_eval(c, st, e->args[0]);
      const val *b = sme_eval(c, st, e->args[1]);
      return sme_compare(c, e->op, a, b);
    }
    case WL_B_PTRMEM: (void)sme_eval(c, st, e->args[0]); return smd_vunk(false);
    default: {
      const val *a = sme_eval(c, st, e->args[0]);
      const val *b = sme_eval(c, st, e->args[1]);
      return arith(c, e->op, a, b, e);
    }
    }
  }
  case WL_E_COND: {
    const cond *k = smd_cond_of(c, sme_eval(c, st, e->args[0]));
    int d = smd_cond_definite(k);
    if (d == 1)
      return sme_eval(c, st, e->args[1]);
    if (d == 0)
      return sme_eval(c, st, e->args[2]);
    const val *a = eval_guarded(c, st, e->args[1], k);
    const val *b = eval_guarded(c, st, e->args[2], smd_cond_not(c, k));
    return smd_join_vals(c, a, b, k);
  }
  case WL_E_CAST: {
    if (e->nargs != 1)
      return smd_vunk(false);
    const val *v = sme_eval(c, st, e->args[0]);
    if (v->kind == V_PTR && (e->type & WL_T_POINTER))
      return cast_ptr(c, e, v);
    if (e->type & WL_T_FLOATING)
      return smd_vunk(smd_val_uniform(v));
    return narrow(c, e, v);
  }
  case WL_E_CALL: return eval_call(c, st, e);
  case WL_E_THIS:
    if (c->nfns && c->fns[c->nfns - 1]->thisv)
      return c->fns[c->nfns - 1]->thisv;
    return smd_vunk(true);
  default: {
    bool uni = true;
    for (unsigned i = 0; i < e->nargs; i++)
      uni = smd_val_uniform(sme_eval(c, st, e->args[i])) && uni;
    if (unresolved_on_shared(c, e)) { /* may hold a barrier: nothing before it meets what follows */
      st->npend = 0;
      return smd_vunk(false);
    }
    return smd_vunk(uni && e->kind != WL_E_OTHER);
  }
  }
}
