/* batches.c - lowering a large file in batches (wl_parse_opts.on_batch).
 *
 * The functions with a body are first recorded (lower_decl in collect mode),
 * then each is lowered once, alone, to learn what it names: the callees of
 * its calls (USR and name), the functions it refers to by name, and the
 * global variables it uses; its IR is freed at once. Functions that name one
 * another, or a function of the same name or USR, or the same global, are
 * grouped (union-find): no analysis looks from one group into another. The
 * groups are packed in source order into batches of about batch_bytes of IR,
 * and each batch is lowered again, linked (calls, template instantiations),
 * handed to the caller and freed before the next one. A file then costs the
 * memory of its largest batch, not of all its functions at once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "batches.h"

enum { KEY_NAME, KEY_USR, KEY_VAR };

typedef struct key_ref {
  unsigned node;
  unsigned char kind;
  const char *key; /* interned (lower_intern): compared by address */
} key_ref;

typedef struct plan_ctx {
  lower_ctx *L;
  unsigned *parent; /* union-find over the nodes: units, then globals with an initializer */
  wl_hmap defs[3];  /* key -> node + 1 that defines it (KEY_*) */
  key_ref *refs;
  size_t nrefs, caprefs;
  unsigned node; /* the node being scanned */
} plan_ctx;

static unsigned find(unsigned *p, unsigned x) {
  while (p[x] != x) {
    p[x] = p[p[x]];
    x = p[x];
  }
  return x;
}

static void unite(unsigned *p, unsigned a, unsigned b) {
  a = find(p, a);
  b = find(p, b);
  if (a != b) /* the smaller index stays the root: components keep their first unit */
    p[a > b ? a : b] = a < b ? a : b;
}

/* The node defines key (a function's name or USR, a global it uses first):
 * every node defining the same key joins it. */
static void define(plan_ctx *pc, unsigned kind, const char *key, unsigned node) {
  if (!key || !*key)
    return;
  key = lower_intern(pc->L, key);
  uintptr_t at = (uintptr_t)wl_hmap_get(&pc->defs[kind], key);
  if (at)
    unite(pc->parent, (unsigned)(at - 1), node);
  else
    wl_hmap_put(&pc->defs[kind], key, (void *)(uintptr_t)(node + 1), false);
}

/* The node names key: joined with its definition once every node is scanned. */
static void refer(plan_ctx *pc, unsigned kind, const char *key) {
  if (!key || !*key)
    return;
  if (pc->nrefs == pc->caprefs) {
    pc->caprefs = pc->caprefs ? pc->caprefs * 2 : 1024;
    pc->refs = wl_xrealloc(pc->refs, pc->caprefs * sizeof *pc->refs);
  }
  pc->refs[pc->nrefs++] = (key_ref){pc->node, (unsigned char)kind, lower_intern(pc->L, key)};
}

static bool scan_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  plan_ctx *pc = ud;
  if (e->kind == WL_E_CALL) {
    refer(pc, KEY_NAME, e->name);
    refer(pc, KEY_USR, e->callee_usr);
    /* functions passed as template arguments (blockReduce<warpReduceSum>):
     * the shared-memory analysis runs them through the template's body */
    const char *a = e->callee_spec_usr ? strchr(e->callee_spec_usr, '<') : NULL;
    for (const char *p = a ? strstr(a, "@F@") : NULL; p; p = strstr(p + 3, "@F@")) {
      char nm[256];
      size_t k = 0;
      for (const char *q = p + 3; *q && *q != '#' && *q != '<' && *q != '>' && k + 1 < sizeof nm;)
        nm[k++] = *q++;
      nm[k] = 0;
      refer(pc, KEY_NAME, nm);
    }
  } else if (e->kind == WL_E_REF || e->kind == WL_E_MEMBER) {
    /* a global joins only through its initializer's calls (globals_linking):
     * the analyses take no other fact from one function to another by way
     * of a global */
    if (e->var && (e->var->flags & WL_V_GLOBAL))
      refer(pc, KEY_VAR, e->var->usr && *e->var->usr ? e->var->usr : e->var->name);
    else if (!e->var)
      refer(pc, KEY_NAME, e->name);
    /* a member of a dependent type (`GROUP::size`, lower.c): the lane
     * analysis reads the file's member functions of that name */
    const char *m = e->kind == WL_E_REF && !e->var && e->name ? strstr(e->name, "::") : NULL;
    if (m)
      refer(pc, KEY_NAME, m + 2);
  }
  return true;
}

/* Whether an initializer calls or names a function. */
static bool links(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  if (e->kind == WL_E_CALL || ((e->kind == WL_E_REF || e->kind == WL_E_MEMBER) && !e->var))
    *(bool *)ud = true;
  return !*(bool *)ud;
}

static bool init_links(const wl_var *v) {
  bool any = false;
  wl_visitor lv = {NULL, links, &any, false};
  wl_walk_expr(v->init, NULL, &lv);
  return any;
}

/* A method's class name, from its USR ("c:@S@Name@F@m#", "c:@ST>1#T@Name@F@m#"),
 * into buf; NULL when the USR does not say. */
static const char *class_of(const char *usr, char *buf, size_t n) {
  const char *m = usr ? strstr(usr, "@F@") : NULL;
  const char *mt = usr ? strstr(usr, "@FT@") : NULL;
  if (!m || (mt && mt < m))
    m = mt;
  if (!m)
    return NULL;
  const char *b = m;
  while (b > usr && b[-1] != '@')
    b--;
  if (b == m || (size_t)(m - b) >= n)
    return NULL;
  memcpy(buf, b, (size_t)(m - b));
  buf[m - b] = '\0';
  return buf;
}

static void scan_func(plan_ctx *pc, const wl_func *f) {
  define(pc, KEY_NAME, f->name, pc->node);
  define(pc, KEY_USR, f->usr, pc->node);
  /* a method also answers to its class's name: the analyses find a class's
   * conversion operator or getter from a call naming the class or method */
  char cls[256];
  if (f->flags & WL_F_METHOD)
    define(pc, KEY_NAME, class_of(f->usr, cls, sizeof cls), pc->node);
  wl_visitor v = {NULL, scan_expr, pc, false};
  for (unsigned i = 0; i < f->nparams; i++)
    wl_walk_expr(f->params[i]->init, NULL, &v);
  wl_walk_stmt(f->body, &v);
}

/* Frees what the lowering of a batch (or of one unit) left in L: the
 * functions, calls, instantiations and static locals it added, and the
 * variables in its arena. */
static void drop_batch(lower_ctx *L, const lower_batches *b) {
  for (size_t i = 0; i < b->ncalls; i++) /* the globals' initializers: linked again per batch */
    ((wl_expr *)L->calls.v[i])->callee = NULL;
  L->calls.n = b->ncalls;
  if (b->ninsts)
    memcpy(L->insts.v, b->insts, b->ninsts * sizeof *b->insts);
  L->insts.n = b->ninsts;
  L->funcs.n = b->nfuncs;
  L->globals.n = b->nglobals;
  lower_forget_batch_vars(L);
}

void lower_plan_batches(lower_ctx *L, size_t batch_bytes, lower_batches *b) {
  memset(b, 0, sizeof *b);
  size_t nu = L->units.n, ng = 0;
  for (size_t i = 0; i < L->globals.n; i++)
    ng += init_links(L->globals.v[i]);
  b->nunits = nu;
  b->ncalls = L->calls.n;
  b->nfuncs = L->funcs.n;
  b->nglobals = L->globals.n;
  b->ninsts = L->insts.n;
  b->insts = wl_xmalloc((L->insts.n + 1) * sizeof *b->insts);
  if (L->insts.n)
    memcpy(b->insts, L->insts.v, L->insts.n * sizeof *b->insts);
  plan_ctx pc;
  memset(&pc, 0, sizeof pc);
  pc.L = L;
  pc.parent = wl_xmalloc((nu + ng + 1) * sizeof *pc.parent);
  for (size_t i = 0; i < nu + ng; i++)
    pc.parent[i] = (unsigned)i;
  for (int k = 0; k < 3; k++)
    wl_hmap_init(&pc.defs[k], false);
  /* a global's initializer joins the global to what it calls */
  wl_visitor gv = {NULL, scan_expr, &pc, false};
  pc.node = (unsigned)nu;
  for (size_t i = 0; i < L->globals.n; i++) {
    const wl_var *v = L->globals.v[i];
    if (!init_links(v))
      continue;
    define(&pc, KEY_VAR, v->usr && *v->usr ? v->usr : v->name, pc.node);
    wl_walk_expr(v->init, NULL, &gv);
    pc.node++;
  }
  size_t *bytes = wl_xcalloc(nu + 1, sizeof *bytes);
  for (size_t u = 0; u < nu; u++) {
    wl_arena scratch;
    wl_arena_init(&scratch);
    L->cur = &scratch;
    size_t f0 = L->funcs.n;
    lower_unit_now(L, L->units.v[u]);
    pc.node = (unsigned)u;
    for (size_t k = f0; k < L->funcs.n; k++)
      scan_func(&pc, L->funcs.v[k]);
    bytes[u] = wl_arena_size(&scratch);
    drop_batch(L, b);
    wl_arena_free(&scratch);
    L->cur = NULL;
  }
  for (size_t i = 0; i < pc.nrefs; i++) {
    uintptr_t at = (uintptr_t)wl_hmap_get(&pc.defs[pc.refs[i].kind], pc.refs[i].key);
    if (at)
      unite(pc.parent, pc.refs[i].node, (unsigned)(at - 1));
  }
  /* groups in the order of their first unit, packed into batches */
  b->batch = wl_xmalloc((nu + 1) * sizeof *b->batch);
  size_t *gbytes = wl_xcalloc(nu + ng + 1, sizeof *gbytes);
  unsigned *gbatch = wl_xmalloc((nu + ng + 1) * sizeof *gbatch);
  for (size_t u = 0; u < nu; u++)
    gbytes[find(pc.parent, (unsigned)u)] += bytes[u];
  for (size_t i = 0; i < nu + ng; i++)
    gbatch[i] = UINT32_MAX;
  size_t in_batch = 0;
  for (size_t u = 0; u < nu; u++) {
    unsigned g = find(pc.parent, (unsigned)u);
    if (gbatch[g] == UINT32_MAX) {
      if (b->nbatches == 0 || (in_batch > 0 && in_batch + gbytes[g] > batch_bytes)) {
        b->nbatches++;
        in_batch = 0;
      }
      gbatch[g] = b->nbatches - 1;
      in_batch += gbytes[g];
    }
    b->batch[u] = gbatch[g];
  }
  free(gbatch);
  free(gbytes);
  free(bytes);
  free(pc.refs);
  for (int k = 0; k < 3; k++)
    wl_hmap_free(&pc.defs[k]);
  free(pc.parent);
}

static int cmp_inst_seq(const void *a, const void *b) {
  const seen_inst *x = *(const seen_inst *const *)a, *y = *(const seen_inst *const *)b;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void lower_run_batches(lower_ctx *L, const lower_batches *b, void (*on_batch)(wl_tu *, void *),
                       void *ud) {
  wl_tu *tu = L->tu;
  wl_var **globals = tu->globals;
  unsigned nglobals = tu->nglobals;
  for (unsigned k = 0; k < b->nbatches; k++) {
    wl_arena arena;
    wl_arena_init(&arena);
    L->cur = &arena;
    L->quiet = true; /* the notices were added when the units were first lowered */
    for (size_t u = 0; u < b->nunits; u++)
      if (b->batch[u] == k)
        lower_unit_now(L, L->units.v[u]);
    lower_link_calls(L);
    /* the instantiations in the order a whole lowering sees them: those of
     * the declarations (recorded first) merged by position with the batch's
     * own; the stable sort keeps a declaration's before its body's */
    if (L->insts.n > b->ninsts) {
      seen_inst **v = (seen_inst **)L->insts.v;
      size_t n = L->insts.n, i = 0, j = b->ninsts, o = 0;
      seen_inst **m = wl_xmalloc(n * sizeof *m);
      while (i < b->ninsts || j < n)
        m[o++] = j >= n || (i < b->ninsts && cmp_inst_seq(&v[i], &v[j]) <= 0) ? v[i++] : v[j++];
      memcpy(v, m, n * sizeof *m);
      free(m);
    }
    inst_scan_explicit_instantiations(L);
    inst_link_instantiations(L);
    if (L->funcs.n > 1)
      qsort(L->funcs.v, L->funcs.n, sizeof *L->funcs.v, lower_cmp_func);
    tu->funcs = (wl_func **)wl_arena_dup_ptrs(&arena, L->funcs.v, L->funcs.n);
    tu->nfuncs = (unsigned)L->funcs.n;
    tu->globals = (wl_var **)wl_arena_dup_ptrs(&arena, L->globals.v, L->globals.n);
    tu->nglobals = (unsigned)L->globals.n;
    on_batch(tu, ud);
    tu->funcs = NULL;
    tu->nfuncs = 0;
    tu->globals = globals;
    tu->nglobals = nglobals;
    drop_batch(L, b);
    L->funcs.n =
        0; /* the functions lowered before the units (lambdas of globals): the first batch's */
    L->quiet = false;
    L->cur = NULL;
    wl_arena_free(&arena);
  }
}

void lower_batches_free(lower_batches *b) {
  free(b->batch);
  free(b->insts);
  memset(b, 0, sizeof *b);
}
