/* affine.c - lane forms (per-lane affine values over warp-uniform symbols),
 * their arithmetic, and the integer feasibility check used to decide whether
 * two lanes can touch the same shared-memory element. See affine.h. */
#include "affine.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"

#define LIM (1LL << 50) /* coefficients beyond this are treated as overflow */
#define MAXT 16         /* terms of a form under construction */

/* ---- saturating helpers ------------------------------------------------- */

static long long clampi(long long v) { return v > WL_INF ? WL_INF : v < -WL_INF ? -WL_INF : v; }

static long long sat_add(long long a, long long b) {
  long long r;
  if (__builtin_add_overflow(a, b, &r))
    return a > 0 ? WL_INF : -WL_INF;
  return clampi(r);
}

static long long sat_mul(long long a, long long b) {
  long long r;
  if (__builtin_mul_overflow(a, b, &r))
    return (a > 0) == (b > 0) ? WL_INF : -WL_INF;
  return clampi(r);
}

static long long floor_div(long long a, long long b) {
  if (b == 0) /* callers never divide by zero; keep it defined anyway */
    return 0;
  long long q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}

static long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

static long long gcd(long long a, long long b) {
  if (a < 0)
    a = -a;
  if (b < 0)
    b = -b;
  while (b) {
    long long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/* ---- symbols -------------------------------------------------------------- */

void wl_lctx_init(wl_lctx *c, wl_arena *arena) {
  memset(c, 0, sizeof *c);
  c->arena = arena;
  c->cap = 64;
  c->syms = wl_xcalloc(c->cap, sizeof *c->syms);
  c->syms[0].kind = WL_SYM_ONE;
  c->syms[0].lo = c->syms[0].hi = 1;
  c->syms[0].name = "1";
  c->nsyms = 1;
}

void wl_lctx_free(wl_lctx *c) {
  free(c->syms);
  free(c->made);
  memset(c, 0, sizeof *c);
}

wl_lctx_mark wl_lctx_mark_now(const wl_lctx *c) {
  wl_lctx_mark m = {c->nsyms, c->nmade, c->lane};
  return m;
}

void wl_lctx_forget(wl_lctx *c, wl_lctx_mark m) {
  while (c->nmade > m.nmade)
    c->small[c->made[--c->nmade]] = NULL;
  c->nsyms = m.nsyms;
  c->lane = m.lane;
}

static unsigned add_sym(wl_lctx *c, wl_sym_kind kind, const char *name, long long lo,
                        long long hi) {
  if (c->nsyms == c->cap) {
    c->cap *= 2;
    c->syms = wl_xrealloc(c->syms, c->cap * sizeof *c->syms);
  }
  wl_sym *s = &c->syms[c->nsyms];
  memset(s, 0, sizeof *s);
  s->kind = kind;
  s->name = name;
  s->lo = clampi(lo);
  s->hi = clampi(hi);
  return c->nsyms++;
}

unsigned wl_sym_named(wl_lctx *c, const void *key, const char *name, long long lo, long long hi) {
  for (unsigned i = 1; i < c->nsyms; i++) {
    const wl_sym *s = &c->syms[i];
    if (s->kind == WL_SYM_NAMED && s->key == key &&
        (s->name == name || (s->name && name && strcmp(s->name, name) == 0)))
      return i;
  }
  unsigned id = add_sym(c, WL_SYM_NAMED, name, lo, hi);
  c->syms[id].key = key;
  return id;
}

unsigned wl_sym_fresh(wl_lctx *c, const char *name, long long lo, long long hi) {
  return add_sym(c, WL_SYM_FRESH, name, lo, hi);
}

void wl_sym_set_param(wl_lctx *c, unsigned sym) {
  if (sym > 0 && sym < c->nsyms)
    c->syms[sym].param = true;
}

void wl_sym_set_below(wl_lctx *c, unsigned sym, unsigned bound) {
  if (sym > 0 && sym < c->nsyms && bound > 0 && bound < c->nsyms && bound != sym)
    c->syms[sym].below = bound;
}

bool wl_lf_has_param(const wl_lctx *c, const wl_lform *f) {
  for (unsigned i = 1; f && i < f->n; i++)
    if (c->syms[f->t[i].sym].param)
      return true;
  return false;
}

static void imul_range(long long alo, long long ahi, long long blo, long long bhi, long long *lo,
                       long long *hi) {
  long long p[4] = {sat_mul(alo, blo), sat_mul(alo, bhi), sat_mul(ahi, blo), sat_mul(ahi, bhi)};
  *lo = *hi = p[0];
  for (int i = 1; i < 4; i++) {
    if (p[i] < *lo)
      *lo = p[i];
    if (p[i] > *hi)
      *hi = p[i];
  }
}

static unsigned product_sym(wl_lctx *c, unsigned a, unsigned b) {
  if (a == 0)
    return b;
  if (b == 0)
    return a;
  if (a > b) {
    unsigned t = a;
    a = b;
    b = t;
  }
  for (unsigned i = 1; i < c->nsyms; i++)
    if (c->syms[i].kind == WL_SYM_PRODUCT && c->syms[i].a == a && c->syms[i].b == b)
      return i;
  long long lo, hi;
  imul_range(c->syms[a].lo, c->syms[a].hi, c->syms[b].lo, c->syms[b].hi, &lo, &hi);
  unsigned id = add_sym(c, WL_SYM_PRODUCT, "product", lo, hi);
  c->syms[id].a = a;
  c->syms[id].b = b;
  c->syms[id].param = c->syms[a].param || c->syms[b].param;
  return id;
}

/* ---- forms -------------------------------------------------------------- */

typedef struct fbuild {
  unsigned n;
  bool bad;
  wl_lterm t[MAXT];
} fbuild;

static void fb_init(fbuild *b) {
  b->n = 1;
  b->bad = false;
  memset(&b->t[0], 0, sizeof b->t[0]);
}

static wl_lterm *fb_term(fbuild *b, unsigned sym) {
  for (unsigned i = 0; i < b->n; i++)
    if (b->t[i].sym == sym)
      return &b->t[i];
  if (b->n == MAXT) {
    b->bad = true;
    return NULL;
  }
  wl_lterm *t = &b->t[b->n++];
  memset(t, 0, sizeof *t);
  t->sym = sym;
  return t;
}

static void fb_add_vec(fbuild *b, unsigned sym, const long long k[WL_LANES], long long scale) {
  wl_lterm *t = fb_term(b, sym);
  if (!t)
    return;
  for (unsigned l = 0; l < WL_LANES; l++) {
    long long p, s;
    if (__builtin_mul_overflow(k[l], scale, &p) || __builtin_add_overflow(t->k[l], p, &s) ||
        s > LIM || s < -LIM) {
      b->bad = true;
      return;
    }
    t->k[l] = s;
  }
}

static int cmp_term(const void *x, const void *y) {
  const wl_lterm *a = x, *b = y;
  return a->sym < b->sym ? -1 : a->sym > b->sym;
}

static bool all_zero(const long long k[WL_LANES]) {
  for (unsigned l = 0; l < WL_LANES; l++)
    if (k[l])
      return false;
  return true;
}

static const wl_lform *fb_finish(wl_lctx *c, fbuild *b) {
  if (b->bad)
    return NULL;
  unsigned n = 1;
  for (unsigned i = 1; i < b->n; i++)
    if (!all_zero(b->t[i].k))
      b->t[n++] = b->t[i];
  qsort(b->t + 1, n - 1, sizeof b->t[0], cmp_term);
  wl_lform *f = wl_arena_alloc(c->arena, sizeof *f + n * sizeof f->t[0]);
  f->n = n;
  memcpy(f->t, b->t, n * sizeof b->t[0]);
  return f;
}

const wl_lform *wl_lf_lanes(wl_lctx *c, const long long per_lane[WL_LANES]) {
  fbuild b;
  fb_init(&b);
  fb_add_vec(&b, 0, per_lane, 1);
  return fb_finish(c, &b);
}

const wl_lform *wl_lf_const(wl_lctx *c, long long v) {
  if (v >= 0 && v < WL_LF_SMALL && c->small[v])
    return c->small[v];
  long long k[WL_LANES];
  for (unsigned l = 0; l < WL_LANES; l++)
    k[l] = v;
  const wl_lform *f = wl_lf_lanes(c, k);
  if (v >= 0 && v < WL_LF_SMALL) {
    if (c->nmade == c->capmade) {
      c->capmade = c->capmade ? c->capmade * 2 : 64;
      c->made = wl_xrealloc(c->made, c->capmade * sizeof *c->made);
    }
    c->made[c->nmade++] = (unsigned)v;
    c->small[v] = f;
  }
  return f;
}

const wl_lform *wl_lf_lane(wl_lctx *c) {
  if (c->lane)
    return c->lane;
  long long k[WL_LANES];
  for (unsigned l = 0; l < WL_LANES; l++)
    k[l] = l;
  return c->lane = wl_lf_lanes(c, k);
}

const wl_lform *wl_lf_sym(wl_lctx *c, unsigned sym, long long coef) {
  long long k[WL_LANES];
  for (unsigned l = 0; l < WL_LANES; l++)
    k[l] = coef;
  fbuild b;
  fb_init(&b);
  fb_add_vec(&b, sym, k, 1);
  return fb_finish(c, &b);
}

static const wl_lform *lin_comb(wl_lctx *c, const wl_lform *a, long long ka, const wl_lform *b,
                                long long kb) {
  if (!a || !b)
    return NULL;
  fbuild fb;
  fb_init(&fb);
  for (unsigned i = 0; i < a->n; i++)
    fb_add_vec(&fb, a->t[i].sym, a->t[i].k, ka);
  for (unsigned i = 0; i < b->n; i++)
    fb_add_vec(&fb, b->t[i].sym, b->t[i].k, kb);
  return fb_finish(c, &fb);
}

const wl_lform *wl_lf_add(wl_lctx *c, const wl_lform *a, const wl_lform *b) {
  return lin_comb(c, a, 1, b, 1);
}

const wl_lform *wl_lf_sub(wl_lctx *c, const wl_lform *a, const wl_lform *b) {
  return lin_comb(c, a, 1, b, -1);
}

const wl_lform *wl_lf_scale(wl_lctx *c, const wl_lform *a, long long k) {
  if (!a)
    return NULL;
  fbuild fb;
  fb_init(&fb);
  for (unsigned i = 0; i < a->n; i++)
    fb_add_vec(&fb, a->t[i].sym, a->t[i].k, k);
  return fb_finish(c, &fb);
}

const wl_lform *wl_lf_mul(wl_lctx *c, const wl_lform *a, const wl_lform *b) {
  if (!a || !b)
    return NULL;
  fbuild fb;
  fb_init(&fb);
  for (unsigned i = 0; i < a->n && !fb.bad; i++)
    for (unsigned j = 0; j < b->n && !fb.bad; j++) {
      if (all_zero(a->t[i].k) || all_zero(b->t[j].k))
        continue;
      long long k[WL_LANES];
      for (unsigned l = 0; l < WL_LANES; l++)
        if (__builtin_mul_overflow(a->t[i].k[l], b->t[j].k[l], &k[l]) || k[l] > LIM || k[l] < -LIM)
          return NULL;
      fb_add_vec(&fb, product_sym(c, a->t[i].sym, b->t[j].sym), k, 1);
    }
  return fb_finish(c, &fb);
}

bool wl_lf_equal(const wl_lform *a, const wl_lform *b) {
  if (a == b)
    return true;
  if (!a || !b || a->n != b->n)
    return false;
  for (unsigned i = 0; i < a->n; i++)
    if (a->t[i].sym != b->t[i].sym || memcmp(a->t[i].k, b->t[i].k, sizeof a->t[i].k) != 0)
      return false;
  return true;
}

static bool vec_uniform(const long long k[WL_LANES]) {
  for (unsigned l = 1; l < WL_LANES; l++)
    if (k[l] != k[0])
      return false;
  return true;
}

bool wl_lf_same_symbolic(const wl_lform *a, const wl_lform *b) {
  if (!a || !b || a->n != b->n)
    return false;
  for (unsigned i = 1; i < a->n; i++)
    if (a->t[i].sym != b->t[i].sym || !vec_uniform(a->t[i].k) ||
        memcmp(a->t[i].k, b->t[i].k, sizeof a->t[i].k) != 0)
      return false;
  return true;
}

bool wl_lf_uniform(const wl_lform *f) {
  if (!f)
    return false;
  for (unsigned i = 0; i < f->n; i++)
    if (!vec_uniform(f->t[i].k))
      return false;
  return true;
}

bool wl_lf_concrete(const wl_lform *f) { return f && f->n == 1; }

bool wl_lf_const_value(const wl_lform *f, long long *v) {
  if (!wl_lf_concrete(f) || !vec_uniform(f->t[0].k))
    return false;
  *v = f->t[0].k[0];
  return true;
}

bool wl_lf_at(const wl_lform *f, unsigned lane, long long *v) {
  if (!wl_lf_concrete(f) || lane >= WL_LANES)
    return false;
  *v = f->t[0].k[lane];
  return true;
}

void wl_lf_range(const wl_lctx *c, const wl_lform *f, unsigned lane, long long *lo, long long *hi) {
  *lo = -WL_INF;
  *hi = WL_INF;
  if (!f)
    return;
  long long a = 0, b = 0;
  for (unsigned i = 0; i < f->n; i++) {
    const wl_sym *s = &c->syms[f->t[i].sym];
    long long tlo, thi;
    imul_range(f->t[i].k[lane], f->t[i].k[lane], s->lo, s->hi, &tlo, &thi);
    a = sat_add(a, tlo);
    b = sat_add(b, thi);
  }
  *lo = a;
  *hi = b;
}

const wl_lform *wl_lf_select(wl_lctx *c, const bool take_a[WL_LANES], const wl_lform *a,
                             const wl_lform *b) {
  if (!a || !b)
    return NULL;
  fbuild fb;
  fb_init(&fb);
  long long z[WL_LANES];
  memset(z, 0, sizeof z);
  for (unsigned i = 0; i < a->n; i++)
    fb_add_vec(&fb, a->t[i].sym, z, 0);
  for (unsigned i = 0; i < b->n; i++)
    fb_add_vec(&fb, b->t[i].sym, z, 0);
  for (unsigned i = 0; i < fb.n && !fb.bad; i++) {
    unsigned sym = fb.t[i].sym;
    const long long *ka = NULL, *kb = NULL;
    for (unsigned j = 0; j < a->n; j++)
      if (a->t[j].sym == sym)
        ka = a->t[j].k;
    for (unsigned j = 0; j < b->n; j++)
      if (b->t[j].sym == sym)
        kb = b->t[j].k;
    for (unsigned l = 0; l < WL_LANES; l++)
      fb.t[i].k[l] = take_a[l] ? (ka ? ka[l] : 0) : (kb ? kb[l] : 0);
  }
  return fb_finish(c, &fb);
}

/* ---- non-linear operations --------------------------------------------- */

static bool apply_concrete(wl_lop op, long long x, long long y, long long *r) {
  switch (op) {
  case WL_LOP_DIV:
    if (y == 0 || (x == -LIM && y == -1))
      return false;
    *r = x / y;
    return true;
  case WL_LOP_REM:
    if (y == 0)
      return false;
    *r = x % y;
    return true;
  case WL_LOP_SHL:
    if (y < 0 || y > 40)
      return false;
    return !__builtin_mul_overflow(x, 1LL << y, r) && *r <= LIM && *r >= -LIM;
  case WL_LOP_SHR:
    if (y < 0 || y > 62)
      return false;
    *r = floor_div(x, 1LL << y);
    return true;
  case WL_LOP_AND: *r = x & y; return true;
  case WL_LOP_OR: *r = x | y; return true;
  case WL_LOP_XOR: *r = x ^ y; return true;
  case WL_LOP_MIN: *r = x < y ? x : y; return true;
  case WL_LOP_MAX: *r = x > y ? x : y; return true;
  }
  return false;
}

/* gcd of every symbolic coefficient (0 when there is none) */
static long long sym_gcd(const wl_lform *f) {
  long long g = 0;
  for (unsigned i = 1; i < f->n; i++)
    for (unsigned l = 0; l < WL_LANES; l++)
      g = gcd(g, f->t[i].k[l]);
  return g;
}

/* symbolic part >= 0 and constant part >= 0 in every lane */
static bool nonneg(const wl_lctx *c, const wl_lform *f) {
  for (unsigned i = 0; i < f->n; i++) {
    bool one = f->t[i].sym == 0;
    if (!one && c->syms[f->t[i].sym].lo < 0)
      return false;
    for (unsigned l = 0; l < WL_LANES; l++)
      if (f->t[i].k[l] < 0)
        return false;
  }
  return true;
}

/* symbolic part scaled by 1/div (exact), constant part replaced by cst */
static const wl_lform *rebuild(wl_lctx *c, const wl_lform *f, long long div,
                               const long long cst[WL_LANES]) {
  fbuild fb;
  fb_init(&fb);
  fb_add_vec(&fb, 0, cst, 1);
  for (unsigned i = 1; i < f->n; i++) {
    long long k[WL_LANES];
    for (unsigned l = 0; l < WL_LANES; l++)
      k[l] = div ? f->t[i].k[l] / div : 0;
    if (div)
      fb_add_vec(&fb, f->t[i].sym, k, 1);
  }
  return fb_finish(c, &fb);
}

static unsigned bits_above(long long m) { /* smallest k with 2^k > m, m >= 0 */
  unsigned k = 0;
  while (k < 62 && (1LL << k) <= m)
    k++;
  return k;
}

static const wl_lform *opaque(wl_lctx *c, wl_lop op, const wl_lform *a, const wl_lform *b) {
  for (unsigned i = 1; i < c->nsyms; i++) {
    const wl_sym *s = &c->syms[i];
    if (s->kind == WL_SYM_OPAQUE && s->op == (int)op && wl_lf_equal(s->fa, a) &&
        wl_lf_equal(s->fb, b))
      return wl_lf_sym(c, i, 1);
  }
  long long lo = -WL_INF, hi = WL_INF, alo, ahi, n;
  wl_lf_range(c, a, 0, &alo, &ahi);
  if (wl_lf_const_value(b, &n)) {
    if ((op == WL_LOP_DIV || op == WL_LOP_SHR) && alo >= 0 && n > 0) {
      lo = 0;
      hi = ahi;
    } else if (op == WL_LOP_REM && alo >= 0 && n > 0) {
      lo = 0;
      hi = n - 1;
    } else if (op == WL_LOP_AND && n >= 0) {
      lo = 0;
      hi = n;
    }
  }
  unsigned id = add_sym(c, WL_SYM_OPAQUE, "opaque", lo, hi);
  c->syms[id].op = (int)op;
  c->syms[id].fa = a;
  c->syms[id].fb = b;
  c->syms[id].param = wl_lf_has_param(c, a) || wl_lf_has_param(c, b);
  return wl_lf_sym(c, id, 1);
}

const wl_lform *wl_lf_op(wl_lctx *c, wl_lop op, const wl_lform *a, const wl_lform *b) {
  if (!a || !b)
    return NULL;
  if (wl_lf_concrete(a) && wl_lf_concrete(b)) {
    long long r[WL_LANES];
    for (unsigned l = 0; l < WL_LANES; l++)
      if (!apply_concrete(op, a->t[0].k[l], b->t[0].k[l], &r[l]))
        return NULL;
    return wl_lf_lanes(c, r);
  }
  long long n;
  if (wl_lf_const_value(b, &n)) {
    long long g = sym_gcd(a), cst[WL_LANES];
    const long long *ca = a->t[0].k;
    switch (op) {
    case WL_LOP_SHL:
      if (n >= 0 && n <= 40)
        return wl_lf_scale(c, a, 1LL << n);
      break;
    case WL_LOP_DIV:
    case WL_LOP_REM:
      if (n > 0 && g % n == 0 && nonneg(c, a)) {
        for (unsigned l = 0; l < WL_LANES; l++)
          cst[l] = op == WL_LOP_DIV ? ca[l] / n : ca[l] % n;
        return rebuild(c, a, op == WL_LOP_DIV ? n : 0, cst);
      }
      break;
    case WL_LOP_SHR:
      if (n >= 0 && n <= 40 && g % (1LL << n) == 0) {
        for (unsigned l = 0; l < WL_LANES; l++)
          cst[l] = floor_div(ca[l], 1LL << n);
        return rebuild(c, a, 1LL << n, cst);
      }
      break;
    case WL_LOP_AND:
      if (n >= 0 && g % (1LL << bits_above(n)) == 0) {
        for (unsigned l = 0; l < WL_LANES; l++)
          cst[l] = ca[l] & n;
        return rebuild(c, a, 0, cst);
      }
      if (n < 0) {
        long long m = ~n; /* n == ~(2^k - 1) */
        if ((m & (m + 1)) == 0 && g % (m + 1) == 0) {
          for (unsigned l = 0; l < WL_LANES; l++)
            cst[l] = ca[l] & n;
          return rebuild(c, a, 1, cst);
        }
      }
      break;
    case WL_LOP_OR:
    case WL_LOP_XOR:
      if (n >= 0 && g % (1LL << bits_above(n)) == 0) {
        for (unsigned l = 0; l < WL_LANES; l++)
          cst[l] = op == WL_LOP_OR ? (ca[l] | n) : (ca[l] ^ n);
        return rebuild(c, a, 1, cst);
      }
      break;
    case WL_LOP_MIN:
    case WL_LOP_MAX: break;
    }
  }
  if (wl_lf_uniform(a) && wl_lf_uniform(b))
    return opaque(c, op, a, b);
  return NULL;
}

/* ---- linear constraints ------------------------------------------------- */

void wl_lin_at(const wl_lform *f, unsigned lane, wl_lin *out) {
  memset(out, 0, sizeof *out);
  out->ok = f != NULL;
  if (!f)
    return;
  out->c = f->t[0].k[lane];
  for (unsigned i = 1; i < f->n; i++) {
    long long k = f->t[i].k[lane];
    if (!k)
      continue;
    if (out->n == WL_LIN_MAX) {
      out->ok = false;
      return;
    }
    out->sym[out->n] = f->t[i].sym;
    out->k[out->n++] = k;
  }
}

bool wl_lin_has_param(const wl_lctx *c, const wl_lin *l) {
  for (unsigned i = 0; l->ok && i < l->n; i++)
    if (c->syms[l->sym[i]].param)
      return true;
  return false;
}

void wl_lin_sub(const wl_lin *a, const wl_lin *b, wl_lin *out) {
  wl_lin r;
  memset(&r, 0, sizeof r);
  r.ok = a->ok && b->ok;
  r.c = a->c - b->c;
  for (unsigned i = 0; i < a->n && r.ok; i++) {
    if (r.n == WL_LIN_MAX) {
      r.ok = false;
      break;
    }
    r.sym[r.n] = a->sym[i];
    r.k[r.n++] = a->k[i];
  }
  for (unsigned i = 0; i < b->n && r.ok; i++) {
    unsigned j = 0;
    while (j < r.n && r.sym[j] != b->sym[i])
      j++;
    if (j == r.n) {
      if (r.n == WL_LIN_MAX) {
        r.ok = false;
        break;
      }
      r.sym[r.n] = b->sym[i];
      r.k[r.n++] = 0;
    }
    r.k[j] -= b->k[i];
  }
  /* drop cancelled terms */
  unsigned n = 0;
  for (unsigned i = 0; i < r.n; i++)
    if (r.k[i]) {
      r.sym[n] = r.sym[i];
      r.k[n++] = r.k[i];
    }
  r.n = n;
  *out = r;
}

#define MAXV 16
#define MAXR 48
#define MAX_SPLITS 3 /* `!=` rows split into two cases each, on unbounded domains */

typedef struct row {
  unsigned n;
  unsigned idx[WL_LIN_MAX];
  long long k[WL_LIN_MAX];
  long long c;
  wl_cop op;
} row;

/* sum k[i]*x[i] <= rhs; tightens the bounds; false when infeasible */
static bool prop_le(const row *r, long long sign, long long rhs, long long *lo, long long *hi,
                    bool *changed) {
  long long mins[WL_LIN_MAX], sum = 0;
  unsigned ninf = 0;
  bool inf[WL_LIN_MAX];
  for (unsigned i = 0; i < r->n; i++) {
    long long k = sign * r->k[i];
    long long b = k > 0 ? lo[r->idx[i]] : hi[r->idx[i]];
    inf[i] = b <= -WL_INF || b >= WL_INF;
    mins[i] = inf[i] ? 0 : sat_mul(k, b);
    if (inf[i])
      ninf++;
    else
      sum = sat_add(sum, mins[i]);
  }
  if (ninf == 0 && sum > rhs)
    return false;
  for (unsigned i = 0; i < r->n; i++) {
    if (ninf - (inf[i] ? 1 : 0) > 0)
      continue;
    long long k = sign * r->k[i];
    long long rest = inf[i] ? sum : sat_add(sum, -mins[i]);
    long long bound = sat_add(rhs, -rest);
    if (bound >= WL_INF || bound <= -WL_INF)
      continue;
    unsigned x = r->idx[i];
    if (k > 0) {
      long long h = floor_div(bound, k);
      if (h < hi[x]) {
        hi[x] = h;
        *changed = true;
      }
    } else {
      long long l = ceil_div(bound, k);
      if (l > lo[x]) {
        lo[x] = l;
        *changed = true;
      }
    }
    if (lo[x] > hi[x])
      return false;
  }
  return true;
}

static bool row_holds(const row *r, const long long *x) {
  long long s = r->c;
  for (unsigned i = 0; i < r->n; i++)
    s = sat_add(s, sat_mul(r->k[i], x[r->idx[i]]));
  return r->op == WL_C_EQ ? s == 0 : r->op == WL_C_NE ? s != 0 : s <= 0;
}

/* row j += m * row i; false (row j unchanged) when it does not fit */
static bool row_combine(row *rj, const row *ri, long long m) {
  row t = *rj;
  if (__builtin_mul_overflow(m, ri->c, &t.c) || __builtin_add_overflow(t.c, rj->c, &t.c) ||
      t.c > LIM || t.c < -LIM)
    return false;
  for (unsigned a = 0; a < ri->n; a++) {
    unsigned b = 0;
    while (b < t.n && t.idx[b] != ri->idx[a])
      b++;
    if (b == t.n) {
      if (t.n == WL_LIN_MAX)
        return false;
      t.idx[t.n] = ri->idx[a];
      t.k[t.n++] = 0;
    }
    long long p;
    if (__builtin_mul_overflow(m, ri->k[a], &p) || __builtin_add_overflow(t.k[b], p, &t.k[b]) ||
        t.k[b] > LIM || t.k[b] < -LIM)
      return false;
  }
  unsigned n = 0;
  for (unsigned a = 0; a < t.n; a++)
    if (t.k[a]) {
      t.idx[n] = t.idx[a];
      t.k[n++] = t.k[a];
    }
  t.n = n;
  *rj = t;
  return true;
}

/* Substitutes each equality's unit-coefficient variable into the other rows
 * (an equivalent system in which bounds propagation sees more: from
 * r - q == 0 and 2r - q <= 0 it gets q <= 0 at once). */
static void eliminate(row *rows, unsigned nr) {
  for (unsigned i = 0; i < nr; i++) {
    const row *ri = &rows[i];
    if (ri->op != WL_C_EQ)
      continue;
    unsigned a = 0;
    while (a < ri->n && ri->k[a] != 1 && ri->k[a] != -1)
      a++;
    if (a == ri->n)
      continue;
    unsigned x = ri->idx[a];
    long long kx = ri->k[a];
    for (unsigned j = 0; j < nr; j++) {
      if (j == i)
        continue;
      for (unsigned b = 0; b < rows[j].n; b++)
        if (rows[j].idx[b] == x) {
          (void)row_combine(&rows[j], ri, -rows[j].k[b] * kx);
          break;
        }
    }
  }
}

/* Bounds propagation, then exact enumeration when the domain is small; else
 * a `!=` row is split into `<= -1` and `>= 1` (at most `splits` times).
 * lo and hi are updated in place. */
static bool solve(row *rows, unsigned nr, long long *lo, long long *hi, unsigned nv,
                  unsigned splits) {
  bool changed = true;
  for (int round = 0; changed && round < 64; round++) {
    changed = false;
    for (unsigned i = 0; i < nr; i++) {
      const row *r = &rows[i];
      if (r->op == WL_C_NE)
        continue;
      if (!prop_le(r, 1, -r->c, lo, hi, &changed))
        return false;
      if (r->op == WL_C_EQ && !prop_le(r, -1, r->c, lo, hi, &changed))
        return false;
    }
  }
  /* small finite domains: decide exactly */
  long long space = 1;
  bool small = true;
  for (unsigned x = 0; x < nv && small; x++) {
    if (lo[x] <= -WL_INF || hi[x] >= WL_INF || hi[x] - lo[x] >= 4096)
      small = false;
    else if ((space *= hi[x] - lo[x] + 1) > 4096)
      small = false;
  }
  if (!small) {
    unsigned i = 0;
    while (i < nr && rows[i].op != WL_C_NE)
      i++;
    if (i == nr || splits == 0)
      return true;
    row saved = rows[i];
    bool feasible = false;
    for (int side = 0; side < 2 && !feasible; side++) {
      row *r = &rows[i];
      *r = saved;
      r->op = WL_C_LE;
      if (side == 0) { /* lin <= -1 */
        r->c = sat_add(saved.c, 1);
      } else { /* lin >= 1: -lin + 1 <= 0 */
        r->c = sat_add(-saved.c, 1);
        for (unsigned j = 0; j < r->n; j++)
          r->k[j] = -saved.k[j];
      }
      long long l2[MAXV], h2[MAXV];
      memcpy(l2, lo, nv * sizeof *lo);
      memcpy(h2, hi, nv * sizeof *hi);
      feasible = solve(rows, nr, l2, h2, nv, splits - 1);
    }
    rows[i] = saved;
    return feasible;
  }
  long long x[MAXV];
  for (unsigned i = 0; i < nv; i++)
    x[i] = lo[i];
  for (;;) {
    bool ok = true;
    for (unsigned i = 0; i < nr && ok; i++)
      ok = row_holds(&rows[i], x);
    if (ok)
      return true;
    unsigned i = 0;
    while (i < nv && x[i] == hi[i]) {
      x[i] = lo[i];
      i++;
    }
    if (i == nv)
      return false;
    x[i]++;
  }
}

#define MAX_FACTS 4 /* constraints opaque_facts adds per symbol */

/* Linear facts that tie an opaque symbol o to its operands (for operands
 * known to be >= 0): a / d and a >> k lie in [(a - d + 1) / d, a / d] exactly,
 * a % n and a & n are at most a, min(a, b) at most each, max(a, b) at least
 * each. Returns how many were written to out (at most MAX_FACTS). */
static unsigned opaque_facts(const wl_lctx *c, unsigned sym, wl_lcons *out) {
  const wl_sym *s = &c->syms[sym];
  if (s->kind != WL_SYM_OPAQUE || !s->fa || !s->fb)
    return 0;
  long long n = 0, alo, ahi, blo, bhi;
  bool nconst = wl_lf_const_value(s->fb, &n);
  wl_lf_range(c, s->fa, 0, &alo, &ahi);
  wl_lf_range(c, s->fb, 0, &blo, &bhi);
  wl_lin a, b, o;
  wl_lin_at(s->fa, 0, &a);
  wl_lin_at(s->fb, 0, &b);
  memset(&o, 0, sizeof o);
  o.ok = true;
  o.n = 1;
  o.sym[0] = sym;
  o.k[0] = 1;
  unsigned k = 0;
  switch ((wl_lop)s->op) {
  case WL_LOP_DIV:
  case WL_LOP_SHR: {
    long long d = s->op == WL_LOP_DIV ? n : (n >= 0 && n <= 40 ? 1LL << n : 0);
    if (!nconst || alo < 0 || d <= 0)
      break;
    wl_lin od = o;
    od.k[0] = d;
    wl_lin_sub(&od, &a, &out[k].lin); /* d*o - a <= 0 */
    out[k++].op = WL_C_LE;
    wl_lin_sub(&a, &od, &out[k].lin); /* a - d*o - (d - 1) <= 0 */
    out[k].lin.c -= d - 1;
    out[k++].op = WL_C_LE;
    break;
  }
  case WL_LOP_REM:
  case WL_LOP_AND:
    if (alo < 0 || (s->op == WL_LOP_REM && (!nconst || n <= 0)))
      break;
    wl_lin_sub(&o, &a, &out[k].lin); /* o - a <= 0 */
    out[k++].op = WL_C_LE;
    if (s->op == WL_LOP_AND && blo >= 0) {
      wl_lin_sub(&o, &b, &out[k].lin);
      out[k++].op = WL_C_LE;
    }
    break;
  case WL_LOP_MIN:
  case WL_LOP_MAX:
    wl_lin_sub(s->op == WL_LOP_MIN ? &o : &a, s->op == WL_LOP_MIN ? &a : &o, &out[k].lin);
    out[k++].op = WL_C_LE;
    wl_lin_sub(s->op == WL_LOP_MIN ? &o : &b, s->op == WL_LOP_MIN ? &b : &o, &out[k].lin);
    out[k++].op = WL_C_LE;
    break;
  default: break;
  }
  return k;
}

/* s - t + 1 <= 0 when s was recorded to lie below t (wl_sym_set_below). */
static bool below_fact(const wl_lctx *c, unsigned s, unsigned t, wl_lcons *out) {
  if (c->syms[s].below != t)
    return false;
  memset(out, 0, sizeof *out);
  out->lin.ok = true;
  out->lin.n = 2;
  out->lin.sym[0] = s;
  out->lin.k[0] = 1;
  out->lin.sym[1] = t;
  out->lin.k[1] = -1;
  out->lin.c = 1;
  out->op = WL_C_LE;
  return true;
}

bool wl_lcons_feasible(const wl_lctx *c, const wl_lcons *v, unsigned n) {
  unsigned vars[MAXV], nv = 0;
  long long lo[MAXV], hi[MAXV];
  row rows[MAXR];
  unsigned nr = 0;
  wl_lcons facts[MAXR]; /* about the opaque symbols met, appended as they appear */
  unsigned nfacts = 0;
  for (unsigned i = 0; i < n + nfacts; i++) {
    const wl_lcons *cur = i < n ? &v[i] : &facts[i - n];
    const wl_lin *l = &cur->lin;
    if (!l->ok)
      continue;
    row r;
    memset(&r, 0, sizeof r);
    r.op = cur->op;
    r.c = l->c;
    bool fits = true;
    for (unsigned j = 0; j < l->n && fits; j++) {
      unsigned x = 0;
      while (x < nv && vars[x] != l->sym[j])
        x++;
      if (x == nv) {
        if (nv == MAXV) {
          fits = false;
          break;
        }
        vars[nv] = l->sym[j];
        lo[nv] = c->syms[l->sym[j]].lo;
        hi[nv] = c->syms[l->sym[j]].hi;
        nv++;
        if (nfacts + MAX_FACTS <= MAXR)
          nfacts += opaque_facts(c, l->sym[j], facts + nfacts);
        for (unsigned y = 0; y + 1 < nv && nfacts < MAXR; y++) /* s < t, both met */
          if (below_fact(c, vars[y], l->sym[j], &facts[nfacts]) ||
              below_fact(c, l->sym[j], vars[y], &facts[nfacts]))
            nfacts++;
      }
      r.idx[r.n] = x;
      r.k[r.n++] = l->k[j];
    }
    if (!fits)
      continue;
    if (r.n == 0) {
      if (!row_holds(&r, lo))
        return false;
      continue;
    }
    long long g = 0;
    for (unsigned j = 0; j < r.n; j++)
      g = gcd(g, r.k[j]);
    if (g > 1) {
      if (r.op == WL_C_EQ && r.c % g != 0)
        return false;
      if (r.op == WL_C_NE && r.c % g != 0)
        continue; /* always true */
      for (unsigned j = 0; j < r.n; j++)
        r.k[j] /= g;
      r.c = r.op == WL_C_LE ? ceil_div(r.c, g) : r.c / g;
    }
    if (nr < MAXR)
      rows[nr++] = r;
  }
  for (unsigned x = 0; x < nv; x++)
    if (lo[x] > hi[x])
      return false;
  eliminate(rows, nr);
  for (unsigned i = 0; i < nr; i++)
    if (rows[i].n == 0 && !row_holds(&rows[i], lo))
      return false;
  return solve(rows, nr, lo, hi, nv, MAX_SPLITS);
}
