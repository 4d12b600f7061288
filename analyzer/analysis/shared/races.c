/* shared/races.c - the race checker: the lanes that reach an access, pairs of accesses of two
 * lanes, recording races (see shared.h and internal.h). */
#include "internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether inst_cond gives every lane the same constraints for k: each of its
 * comparisons is of a form that is the same in every lane (a warp-uniform
 * condition such as ggml's `type == T && J == 64 && fallback == 0`). Up to
 * `*budget` nodes are looked at; false past them. */
static bool lane_invariant(const cond *k, unsigned *budget) {
  if (!*budget)
    return false;
  --*budget;
  switch (k->kind) {
  case C_TRUE:
  case C_FALSE:
  case C_UNK: return true;
  case C_CMP: return wl_lf_uniform(k->f);
  case C_AND:
  case C_OR: return lane_invariant(k->a, budget) && lane_invariant(k->b, budget);
  }
  return false;
}

/* The stop and link of every guard from g down to the first one that has
 * them, built from the bottom: a guard's own condition is instantiated for
 * each lane once, whatever the number of guards later pushed on top of it,
 * and once for all lanes when it is lane_invariant (the lanes whose links
 * below are the same then share one link, so that lanes_of tests their
 * constraints once). A path through a chain of `if (...) return ...;`
 * (ggml's constexpr configuration tables, 380 of them, inlined three times
 * into each of 60 helpers, each return asking smr_guard_reachable) or an
 * unrolled loop instantiated the whole chain again for every guard: quadratic
 * in its depth, two feasibility tests per `||` per lane per guard. */
static void chain_links(ctx *c, const guard *g, const reach *all) {
  wl_vec todo = {0};
  for (const guard *x = g; x && !x->r; x = x->next)
    wl_vec_push(&todo, (void *)x);
  consbuf b = {0};
  while (todo.n) {
    guard *x = todo.v[--todo.n];
    const reach *below = x->next ? x->next->r : all;
    reach *r = wl_arena_alloc(&c->ar, sizeof *r);
    unsigned budget = 64;
    bool inv = lane_invariant(x->c, &budget), inv_ok = false;
    const wl_lcons *inv_v = NULL;
    unsigned inv_n = 0;
    if (inv) {
      b.n = 0;
      inv_ok = inst_cond(c, x->c, 0, &b);
      if (inv_ok && b.n) {
        wl_lcons *v = wl_arena_alloc(&c->ar, b.n * sizeof *v);
        memcpy(v, b.v, b.n * sizeof *v);
        inv_v = v;
        inv_n = b.n;
      }
    }
    for (unsigned l = 0; l < WL_LANES; l++) {
      if (below->stop[l]) {
        r->stop[l] = 1;
        continue;
      }
      if (!inv) {
        b.n = 0;
        if (!inst_cond(c, x->c, l, &b)) {
          r->stop[l] = 1;
          continue;
        }
      } else if (!inv_ok) {
        r->stop[l] = 1;
        continue;
      }
      r->link[l] = below->link[l];
      if (inv && !inv_v)
        continue;
      if (!inv && !b.n)
        continue;
      if (inv) { /* the link of an earlier lane with the same links below */
        unsigned m = 0;
        while (m < l && (below->stop[m] || below->link[m] != below->link[l]))
          m++;
        if (m < l) {
          r->link[l] = r->link[m];
          continue;
        }
      }
      cons_link *k = wl_arena_alloc(&c->ar, sizeof *k);
      if (inv) {
        k->v = inv_v;
        k->n = inv_n;
      } else {
        wl_lcons *v = wl_arena_alloc(&c->ar, b.n * sizeof *v);
        memcpy(v, b.v, b.n * sizeof *v);
        k->v = v;
        k->n = b.n;
      }
      k->next = below->link[l];
      r->link[l] = k;
    }
    smd_memo_set(c, &x->r, &r, sizeof r);
  }
  free(b.v);
  wl_vec_free(&todo);
}

/* The lanes that get past every condition of a guard (cached on the guard):
 * for each lane, the conditions of the chain instantiated in order (the
 * guard's own first), 0 when one of them stops it, else a test of the
 * feasibility of all their constraints together (once for lanes that share
 * their link). */
static const reach *lanes_of(ctx *c, const guard *g) {
  static const reach all = {{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                             1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                            {0},
                            {0},
                            true,
                            {0},
                            {0}};
  if (!g)
    return &all;
  if (g->r && g->r->full)
    return g->r;
  chain_links(c, g, &all);
  reach *r = g->r;
  consbuf b = {0};
  for (unsigned l = 0; l < WL_LANES; l++) {
    const cons_link *k = r->link[l];
    if (r->stop[l] || !k) {
      r->lane[l] = r->stop[l] ? 0 : 1;
      continue;
    }
    unsigned m = 0;
    while (m < l && (r->stop[m] || r->link[m] != k))
      m++;
    if (m < l) {
      r->lane[l] = r->lane[m];
      r->cons[l] = r->cons[m];
      r->ncons[l] = r->ncons[m];
      continue;
    }
    b.n = 0;
    for (const cons_link *x = k; x; x = x->next)
      for (unsigned i = 0; i < x->n; i++)
        cb_push(&b, &x->v[i]);
    if (!wl_lcons_feasible(&c->lc, b.v, b.n)) {
      r->lane[l] = 0;
      continue;
    }
    r->lane[l] = 2;
    r->ncons[l] = b.n;
    if (!k->next) {
      r->cons[l] = k->v;
    } else {
      wl_lcons *v = wl_arena_alloc(&c->ar, b.n * sizeof *v);
      memcpy(v, b.v, b.n * sizeof *v);
      r->cons[l] = v;
    }
  }
  free(b.v);
  bool full = true;
  smd_memo_set(c, &r->full, &full, sizeof full);
  return r;
}

/* Whether some lane can get past a guard's conditions. */
bool smr_guard_reachable(ctx *c, const guard *g) {
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

/* smr_guard_reachable(c, smd_guard_push(c, g, k)) without making that
 * guard and its lanes: lane by lane, k's constraints followed by those
 * lanes_of keeps for g (the order lanes_of would put them in; a lane g's
 * conditions stop is instantiated from them again, as lanes_of would), up
 * to the first lane that gets past both. drop_contradicted asks this of
 * every pending access at every warp-uniform branch: making and caching a
 * guard each time copied every lane's constraints of the whole chain
 * (cudpp's compress_app.cu: 1.2 GB and 12 s, most of it zeroing memory). */
bool smr_guard_reachable_with(ctx *c, const guard *g, const cond *k) {
  if (k->kind == C_TRUE || (k->kind == C_UNK && k->uni))
    return smr_guard_reachable(c, g);
  const reach *rg = lanes_of(c, g);
  consbuf b = {0};
  bool any = false;
  for (unsigned l = 0; l < WL_LANES && !any; l++) {
    b.n = 0;
    bool ok = inst_cond(c, k, l, &b);
    if (ok && rg->lane[l] == 0) {
      for (const guard *x = g; x && ok; x = x->next)
        ok = inst_cond(c, x->c, l, &b);
    } else if (ok && rg->lane[l] == 2) {
      for (unsigned i = 0; i < rg->ncons[l]; i++)
        cb_push(&b, &rg->cons[l][i]);
    }
    if (ok && b.n && !wl_lcons_feasible(&c->lc, b.v, b.n))
      ok = false;
    any = ok;
  }
  free(b.v);
  return any;
}

static bool same_storage(const acc *a, const acc *b) {
  if (a->dyn != b->dyn || (!a->dyn && a->info.storage != b->info.storage))
    return false;
  /* a whole struct and a scalar member of it (sums[i] and sums[j].x, as a
   * float3 operator+= inlined touches them) overlap at the same element */
  bool fields =
      a->field == b->field || (!a->field && b->field_scalar) || (!b->field && a->field_scalar);
  return a->tag && a->tag == b->tag && fields;
}

/* Races found, by unordered pair of expressions (slots hold index + 1; entries
 * at or beyond nraces are stale after an abandoned unrolling). */
static size_t pair_hash(const wl_expr *x, const wl_expr *y) {
  return sma_hash_ptr(x, false) + sma_hash_ptr(y, false); /* symmetric */
}

/* Whether a race between the accesses x and y (the same expressions reached
 * through the same helper calls, wl_smem_access.site) is already recorded. */
static bool race_known(const wl_smem *sm, const wl_smem_access *x, const wl_smem_access *y) {
  if (!sm->nrslots)
    return false;
  for (size_t i = pair_hash(x->expr, y->expr) & (sm->nrslots - 1);;
       i = (i + 1) & (sm->nrslots - 1)) {
    size_t k = sm->rslots[i];
    if (!k)
      return false;
    if (k - 1 >= sm->nraces)
      continue;
    const wl_smem_race *r = &sm->races[k - 1];
    if ((r->first.expr == x->expr && r->first.site == x->site && r->second.expr == y->expr &&
         r->second.site == y->site) ||
        (r->first.expr == y->expr && r->first.site == y->site && r->second.expr == x->expr &&
         r->second.site == x->site))
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
  smd_memo_set(c, &a->by_value, &s, sizeof s);
  return s;
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

/* Whether lane la's store through a puts back the value it read from the
 * element that lane lb's access through b touches, the element a writes
 * whenever the two meet (mshadow's `if (threadIdx.x >= xmax) s_rec[threadIdx.x]
 * = s_rec[0];`: lane 0 would copy slot 0 onto itself while the other lanes
 * read it): the element keeps its value, so a lane reading it gets the same
 * value before or after. A store by another lane between the read and this
 * store is a pair of its own (with this store, unless that one puts back its
 * value too). */
static bool unchanged_store(const acc *a, unsigned la, const acc *b, unsigned lb) {
  if (!a->info.write || !a->copy_off || !a->off || !b->off)
    return false;
  wl_lin from, to, other, d;
  wl_lin_at(a->copy_off, la, &from);
  wl_lin_at(a->off, la, &to);
  wl_lin_sub(&from, &to, &d);
  if (d.ok && d.n == 0 && d.c == 0) /* s[t] = s[t] */
    return true;
  if (b->width > 1) /* the element met may lie past b->off (meet_at's shift) */
    return false;
  wl_lin_at(b->off, lb, &other);
  wl_lin_sub(&from, &other, &d);
  return d.ok && d.n == 0 && d.c == 0;
}

/* Whether lanes la (a) and lb (b) cannot disagree on the element they meet
 * at: a write that puts back its value and a read, or two such writes. */
static bool unchanged_pair(const acc *a, const acc *b, unsigned la, unsigned lb) {
  bool ua = unchanged_store(a, la, b, lb), ub = unchanged_store(b, lb, a, la);
  if (a->info.write && b->info.write)
    return ua && ub;
  return ua || ub;
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
/* The lock-smx_step tricks with elements chosen by data (the tagged histograms of
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
  if (race_known(c->sm, &a->info, &b->info))
    return;
  const reach *ra = lanes_of(c, a->g), *rb = lanes_of(c, b->g);
  for (unsigned la = 0; la < WL_LANES; la++)
    for (unsigned lb = 0; lb < WL_LANES; lb++)
      if (la != lb && ra->lane[la] && rb->lane[lb] &&
          lanes_meet(c, ra, la, rb, lb, NULL, NULL, 0)) {
        add_race(c, a, b, (int)la, (int)lb, branches);
        return;
      }
}

/* A permutation in place (the CUDA samples' dxtc: `tmp = colors[idx];
 * colors[xrefs[idx]] = tmp;`): lane a reads its own element p[f(a)] (known
 * per lane, different lanes' elements differ) and b then stores a value that
 * may differ between lanes to p[k + d], d read from memory and k the start of
 * the lanes' elements: another lane's store may land on the element this lane
 * has not read yet, unless nothing orders the read first. Two lanes merely
 * storing through such elements, or a scatter to another part of the array
 * (p[256 + d]), are not reported (data_pair). */
static void scatter_pair(ctx *c, acc *a, acc *b, bool branches) {
  if (branches || a->info.write || !b->info.write || !a->off || b->off || !b->dkey || !b->wvary ||
      !b->dbase || !same_storage(a, b) || a->width > 1 || b->width > 1 || wl_lf_uniform(a->off))
    return;
  long long base;
  if (!wl_lf_const_value(b->dbase, &base) || a->off->t[0].k[0] != base)
    return;
  if (race_known(c->sm, &a->info, &b->info))
    return;
  const reach *ra = lanes_of(c, a->g), *rb = lanes_of(c, b->g);
  for (unsigned i = 1; i < a->off->n; i++)
    for (unsigned l = 1; l < WL_LANES; l++)
      if (a->off->t[i].k[l] != a->off->t[i].k[0])
        return; /* the lanes' elements are not a number apart */
  const by_value *sa = by_value_of(c, a);
  for (unsigned i = 1; i < WL_LANES; i++)
    if (sa->v[i] == sa->v[i - 1])
      return; /* two lanes read one element: not each its own */
  for (unsigned la = 0; la < WL_LANES; la++)
    for (unsigned lb = 0; lb < WL_LANES; lb++)
      if (la != lb && ra->lane[la] && rb->lane[lb] &&
          lanes_meet(c, ra, la, rb, lb, NULL, NULL, 0)) {
        add_race(c, a, b, (int)la, (int)lb, branches);
        c->sm->races[c->sm->nraces - 1].scatter = true;
        return;
      }
}

/* Lanes of a and b that touch one element, where b's element is shifted by
 * `shift` (the overlap of accesses that cover several elements, acc.width):
 * records the first such race; true when one was recorded or the work
 * budget ran out. */
static bool meet_at(ctx *c, acc *a, acc *b, long long shift, const reach *ra, const reach *rb,
                    bool branches) {
  if (wl_lf_same_symbolic(a->off, b->off)) {
    /* the elements differ by a number: merge the lanes sorted by element */
    const by_value *sa = by_value_of(c, a), *sb = by_value_of(c, b);
    unsigned i = 0, j = 0;
    while (i < WL_LANES && j < WL_LANES) {
      long long vb = sb->v[j] + shift;
      if (sa->v[i] < vb) {
        i++;
      } else if (sa->v[i] > vb) {
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
            if (la == lb || !ra->lane[la] || !rb->lane[lb] || !stores_may_differ(a, b, la, lb) ||
                unchanged_pair(a, b, la, lb))
              continue;
            if (++c->pairs > c->pair_limit) {
              c->exhausted = true;
              return true;
            }
            if (lanes_meet(c, ra, la, rb, lb, NULL, NULL, 0)) {
              add_race(c, a, b, (int)la, (int)lb, branches);
              return true;
            }
          }
        i = i2;
        j = j2;
      }
    }
    return false;
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
      if (la == lb || !ra->lane[la] || !stores_may_differ(a, b, la, lb) ||
          unchanged_pair(a, b, la, lb))
        continue;
      if (++c->pairs > c->pair_limit) {
        c->exhausted = true;
        return true;
      }
      wl_lin oa;
      wl_lcons d;
      wl_lin_at(a->off, la, &oa);
      wl_lin_sub(&oa, &ob, &d.lin);
      d.lin.c -= shift;
      d.op = WL_C_EQ;
      if (!d.lin.ok || (d.lin.n == 0 && d.lin.c != 0) || wl_lin_has_param(&c->lc, &d.lin))
        continue;
      if (lanes_meet(c, ra, la, rb, lb, d.lin.n ? &d : NULL, nz, nnz)) {
        add_race(c, a, b, (int)la, (int)lb, branches);
        return true;
      }
    }
  }
  return false;
}

/* Memory of unknown space at an element that is the same in every lane
 * (val[0], val[1]) is as likely each thread's own array as shared: two such
 * accesses are compared only when one is a store that part of the warp,
 * chosen by the lane, makes (`if (threadIdx.x == 0) p[1][0] = v;`) and the
 * other a read: a broadcast, which would make no sense in memory of a
 * thread's own. With an access at an element the lane chooses (p[tid]) the
 * memory is shared between the lanes, and the pair is compared as any. */
static bool broadcast_pair(ctx *c, const acc *a, const acc *b) {
  if (a->info.write == b->info.write)
    return false;
  const acc *w = a->info.write ? a : b;
  if (w->g && w->g->unk)
    return false;
  const reach *r = lanes_of(c, w->g);
  bool out = false, in = false;
  for (unsigned l = 0; l < WL_LANES; l++) {
    if (r->lane[l])
      in = true;
    else
      out = true;
  }
  return in && out;
}

void smr_check_pair(ctx *c, acc *a, acc *b, bool branches) {
  if (!a->info.write && !b->info.write)
    return;
  if (!a->off && !b->off && a->dkey && b->dkey) {
    data_pair(c, a, b, branches);
    return;
  }
  if (a->off && !b->off && b->dkey) {
    scatter_pair(c, a, b, branches);
    return;
  }
  if (!a->off || !b->off || !same_storage(a, b))
    return;
  if (a->maybe_own && b->maybe_own && !broadcast_pair(c, a, b))
    return;
  if (a->g && a->g->unk && b->g && b->g->unk)
    return;
  if (race_known(c->sm, &a->info, &b->info))
    return;
  if (a->info.write && b->info.write &&
      (!a->wval || !b->wval || (wl_lf_uniform(a->wval) && wl_lf_equal(a->wval, b->wval))))
    return; /* every lane stores the same value, or one not known to differ (stores_may_differ) */
  const reach *ra = lanes_of(c, a->g), *rb = lanes_of(c, b->g);
  /* a covers [oa, oa + wa) and b [ob, ob + wb): they overlap when
   * oa = ob + s for some s in (-wa, wb) */
  long long wa = a->width ? a->width : 1, wb = b->width ? b->width : 1;
  if (meet_at(c, a, b, 0, ra, rb, branches))
    return;
  for (long long s = -(wa - 1); s < wb; s++)
    if (s && meet_at(c, a, b, s, ra, rb, branches))
      return;
}

static bool memory_lvalue(const wl_expr *x) {
  return x && (x->kind == WL_E_INDEX || x->kind == WL_E_MEMBER ||
               (x->kind == WL_E_UNARY && x->op == WL_U_DEREF));
}

/* A value given to a function: a variable (its parameter), or a member of
 * one (tuple.t0). */
static bool given_value(const wl_expr *v) {
  v = wl_expr_strip(v);
  if (v && v->kind == WL_E_MEMBER && !v->arrow && v->nargs == 1)
    v = wl_expr_strip(v->args[0]);
  return v && v->kind == WL_E_REF;
}

/* A load into a reference parameter: `retval = t0[col]` or `retval =
 * TupleSlice(t0[col])` (one element made into the caller's type). */
static bool load_to_param(const wl_func *f, const wl_expr *x) {
  const wl_expr *l = wl_expr_strip(x->args[0]), *r = wl_expr_strip(x->args[1]);
  if (!l || l->kind != WL_E_REF || !l->var || !(l->var->type & WL_T_REFERENCE) || !r)
    return false;
  bool param = false;
  for (unsigned i = 0; i < f->nparams && !param; i++)
    param = f->params[i] == l->var;
  if (!param)
    return false;
  if ((r->kind == WL_E_CALL || r->kind == WL_E_OTHER) && r->nargs == 1)
    r = wl_expr_strip(r->args[0]);
  return memory_lvalue(r);
}

/* A load or store helper: a function whose body is one statement that loads
 * (`return *(volatile T *)p;`, `retval = T(t0[col]);` into a reference
 * parameter) or stores a value given to it (`*(volatile T *)p = v;`,
 * `t0[row][col] = tuple.t0;`), or that calls such a helper. A helper that
 * computes (`s[tid] += s[tid + 16]`) is not one: its race is its own code's. */
static bool small_helper(const wl_func *f) {
  const wl_stmt *b = f ? f->body : NULL;
  if (!b || (f->flags & (WL_F_GLOBAL | WL_F_LAMBDA)))
    return false;
  if (b->kind == WL_S_COMPOUND) {
    if (b->nkids != 1)
      return false;
    b = b->kids[0];
  }
  if (!b || !b->expr || (b->kind != WL_S_EXPR && b->kind != WL_S_RETURN))
    return false;
  const wl_expr *x = wl_expr_strip(b->expr);
  if (!x)
    return false;
  if (x->kind == WL_E_CALL)
    return true; /* a helper of a helper: the callee decides (access_site) */
  if (b->kind == WL_S_RETURN)
    return memory_lvalue(x);
  if (x->kind != WL_E_BINARY || x->op != WL_B_ASSIGN || x->nargs != 2)
    return false;
  return (memory_lvalue(wl_expr_strip(x->args[0])) && given_value(x->args[1])) ||
         load_to_param(f, x);
}

/* x touches memory only through the function's parameters, at fixed places:
 * `a.x`, `p->y`, `*p`, `p[2]` (not the object of a method: the accesses of
 * a member call's object are not followed). */
static bool param_place(const wl_expr *x) {
  x = wl_expr_strip(x);
  if (!x)
    return false;
  switch (x->kind) {
  case WL_E_REF:
    return x->var && (x->var->flags & WL_V_PARAM);
  case WL_E_MEMBER:
    return x->nargs >= 1 && param_place(x->args[0]);
  case WL_E_INDEX: {
    const wl_expr *i = x->nargs == 2 ? wl_expr_strip(x->args[1]) : NULL;
    return i && i->kind == WL_E_INT && param_place(x->args[0]);
  }
  case WL_E_UNARY:
    return x->op == WL_U_DEREF && x->nargs == 1 && param_place(x->args[0]);
  default:
    return false;
  }
}

/* Every part of x reads or writes only what the parameters give: parameters,
 * constants, fixed places of their memory, calls of functions defined
 * elsewhere (fmaxf); no other variable, no lane id, no index that varies. */
static bool param_expr(const wl_expr *x) {
  if (!x)
    return true;
  switch (x->kind) {
  case WL_E_INT:
  case WL_E_FLOAT:
  case WL_E_BOOL:
    return true;
  case WL_E_REF:
    return !x->var || (x->var->flags & (WL_V_PARAM | WL_V_CONSTEXPR)) || x->var->has_ival;
  case WL_E_MEMBER:
  case WL_E_INDEX:
    return param_place(x);
  case WL_E_UNARY:
    if (x->op == WL_U_DEREF)
      return param_place(x);
    break;
  case WL_E_CALL:
    if (x->callee)
      return false;
    break;
  case WL_E_BINARY:
  case WL_E_COND:
  case WL_E_CAST:
    break;
  default:
    return false;
  }
  for (unsigned i = 0; i < x->nargs; i++)
    if (!param_expr(x->args[i]))
      return false;
  return true;
}

/* A helper that only combines what its parameters give, at fixed places of
 * the memory they point or refer to, in a few statements with no branch
 * (helper_math.h's `operator+=(float3 &a, float3 b) { a.x += b.x; ... }`):
 * which element it touches, and so which lanes meet, is its caller's choice,
 * and the caller's line is where the fix goes. */
static bool param_helper(const wl_func *f) {
  const wl_stmt *b = f ? f->body : NULL;
  if (!b || b->kind != WL_S_COMPOUND || !b->nkids || b->nkids > 8 ||
      (f->flags & (WL_F_GLOBAL | WL_F_LAMBDA)))
    return false;
  for (unsigned i = 0; i < b->nkids; i++) {
    const wl_stmt *k = b->kids[i];
    if (!k || !k->expr || (k->kind != WL_S_EXPR && k->kind != WL_S_RETURN) ||
        !param_expr(k->expr))
      return false;
  }
  return true;
}

/* Where an access made in the functions being run is reported (wl_smem_access.site). */
static const wl_expr *access_site(const ctx *c) {
  const wl_expr *site = NULL;
  for (unsigned k = c->nfns; k-- > 1;) {
    const fnframe *fr = c->fns[k];
    if (!fr->call || !(small_helper(fr->f) || param_helper(fr->f)))
      break;
    site = fr->call;
  }
  return site;
}

/* An element chosen by the warp's index in the block (b40c's
 * warp_comm[warp_id][0], with warp_id = threadIdx.x >> 5): a thread's own
 * array would have no use for a slot per warp, so the memory is shared by
 * the threads of the block, whatever its space. */
static bool per_warp_element(ctx *c, const wl_lform *f) {
  unsigned w = smd_warp_sym(c);
  for (unsigned i = 1; i < f->n; i++) {
    const wl_sym *s = &c->lc.syms[f->t[i].sym];
    if (f->t[i].sym == w || (s->kind == WL_SYM_PRODUCT && (s->a == w || s->b == w)))
      return true;
  }
  return false;
}

void smr_record_access(ctx *c, state *st, const wl_expr *e, const val *p, bool write,
                       const val *stored) {
  if (!c->record || !st->live)
    return;
  /* memory of unknown space at an element not known: not compared */
  if (p->space == WL_MEM_UNKNOWN && !p->f && !p->dkey)
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
  a->info.site = access_site(c);
  a->dyn = p->dyn;
  a->tag = p->tag;
  a->field = p->field;
  a->field_scalar = p->field && p->field_scalar;
  a->off = p->f;
  a->width = p->width > 1 ? p->width : 1;
  a->wval = write && stored ? smd_int_form(stored) : NULL;
  a->maybe_own =
      p->space == WL_MEM_UNKNOWN && p->f && wl_lf_uniform(p->f) && !per_warp_element(c, p->f);
  /* the value the lane's previous access read: nothing of the lane came between */
  const val *src =
      write && stored && stored->kind == V_UNK && stored->from_seq == c->seq ? stored->from : NULL;
  if (src && src->f && p->f && src->root == p->root && src->space == p->space &&
      src->dyn == p->dyn && src->tag == p->tag && src->field == p->field && src->width <= 1 &&
      p->width <= 1)
    a->copy_off = src->f;
  a->wvary =
      write && stored && (stored->vary || stored->data || (a->wval && !wl_lf_uniform(a->wval)));
  a->dkey = p->f ? NULL : p->dkey;
  a->dbase = p->dbase;
  a->g = st->g;
  a->call = c->root_call;
  a->iter = c->iter;
  a->seq = c->seq++;
  sma_note_access(c->sm, &a->info);
  if (write)
    smr_check_pair(c, a, a, false);
  for (unsigned i = 0; i < st->npend; i++)
    smr_check_pair(c, st->pend[i], a, false);
  smd_st_push_pend(c, st, a);
}
