/* shared/internal.h - the types of the shared-memory analysis (shared.h)
 * that its files share, its budgets, and what each file exports to the
 * others: domain.c (smd_), races.c (smr_), eval.c (sme_), exec.c (smx_),
 * roots.c and api.c (sma_). Nothing outside analysis/shared/ includes it. */
#ifndef WARPLINT_SHARED_INTERNAL_H
#define WARPLINT_SHARED_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "affine.h"
#include "buf.h"
#include "builtins.h"
#include "hmap.h"
#include "shared.h"

#define MAX_UNROLL 64       /* iterations of a loop with a constant trip count */
#define MAX_CALL_DEPTH 8    /* inlined calls */
#define MAX_LOOP_NEST 64    /* loop and switch frames */
#define STEP_BUDGET 150000  /* statements executed per analyzed function */
#define UNROLL_BUDGET 20000 /* statements one unrolling attempt may take */
/* lane pairs examined per analyzed function (the most seen in a real tree:
 * 80,358, cudpp's crpcrKernel); a loop with no known end took 4 M pairs and,
 * in the fuzz target, 15 s */
#define PAIR_BUDGET 1000000UL
#define UNROLL_PAIR_BUDGET 250000UL /* lane pairs one unrolling attempt may take */
/* IR nodes visited by the scans of loop bodies (assigned variables, update
 * forms) per analyzed function: each loop entry scans its body, so nested
 * loops would cost (depth x body) per entry without it (200 nested for loops
 * took 34 s) */
#define SCAN_BUDGET 20000000UL
/* bytes of analysis state (values, lane constraints, accesses) per analyzed
 * function: the most a real function used is 55 MB (ccminer's
 * lyra2Z_gpu_hash_32_2), but cudpp's mtf_localscan_lists_kernel took 1.2 GB
 * in 10,000 statements */
#define ARENA_BUDGET ((size_t)256 << 20)
#define UNROLL_ARENA_BUDGET ((size_t)32 << 20) /* bytes one unrolling attempt may add */
#define MAX_PENDING 512 /* accesses remembered since the last barrier on a path */

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
  unsigned long pairs;     /* lane pairs examined, every root together */
  size_t arena_peak;       /* the largest arena one root's analysis held */
  size_t arena_given_back; /* bytes failed unrolling attempts gave back (ctx.given_back) */
  wl_vec exhausted;        /* const wl_func*: roots whose analysis ran out of its work budget */
  /* const wl_func* -> wl_vec* of the names of the __shared__ variables its
   * body declares, collected once per file (eval.c, unresolved_on_shared) */
  wl_hmap shared_locals;
  /* The view of the unit it was built in (the rules run on a reported header
   * as if it were the file analyzed: tu->path and tu->source are then the
   * header's, see wl_smem_serves_view): the main file's (main_view); whether
   * a decision read the main file's text where a header's view reads none
   * (main_text); the headers (wl_tu_file.name) whose own view would read
   * their text where this one did not (own_views, const char*). */
  bool main_view, main_text;
  wl_vec own_views;
};

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
  /* nonzero: made by smd_cond_branch, `bsym == 1` with bsym a fresh 0/1
   * symbol standing for an `if` whose condition is the same in every lane
   * but not known; the join of its arms keeps both values (smd_join_vals) */
  unsigned bsym;
};

typedef struct val {
  vkind kind;
  bool uni;          /* V_UNK: known warp-uniform */
  const wl_lform *f; /* V_INT: value; V_PTR: element offset (NULL: unknown); V_COND: 0/1 */
  const cond *c;     /* V_COND */
  /* V_PTR: a pointer into shared memory, or (as an address) an lvalue there */
  const wl_var *root; /* the __shared__ variable, or the parameter (space) */
  wl_mem_space space;
  bool dyn;          /* dynamic shared memory (every extern __shared__ array) */
  const char *tag;   /* element type the offset counts in */
  const char *field; /* member path for accesses of struct members */
  bool field_scalar; /* field is a scalar member: the offset still counts whole structs */
  unsigned shape[4]; /* extents of the pointee (of the object, for an address) */
  unsigned nshape;
  /* V_PTR: elements of tag one access through the pointer covers (a vector
   * load or store through a cast, *(uint4 *)&s[4 * i]: 4 unsigned ints), 0
   * or 1 for one; the pointer's steps count in such groups */
  unsigned width;
  unsigned ebytes; /* V_PTR: sizeof one element of tag, 0 when not known */
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
  /* V_UNK data computed as another data value plus a warp-uniform number (d
   * + 32): that value (never itself such a sum) and the number, so that p[d
   * + 32] is dbase + 32 + d (a part of the array of its own); NULL otherwise */
  const struct val *dorig;
  const wl_lform *dshift;
  /* V_UNK, not uniform, in a kernel with 2-D or 3-D blocks: threadIdx.x, .y
   * or .z, plus or times warp-uniform numbers (a thread's position, such as
   * blockIdx.x * blockDim.x + threadIdx.x): not a lane form, but a value of
   * each lane, so that a bounds test of it against a host-chosen number
   * (`if (j >= n) return;`) lets every lane through for n large enough
   * (sme_compare) */
  bool tpos;
  /* V_UNK data read by a plain load of shared memory: the lvalue it was read
   * from (a V_PTR), and the access count just after the load (ctx.seq), so
   * that storing it back to the same element as the next access is seen as
   * a copy that changes nothing (acc.copy_off) */
  const struct val *from;
  unsigned from_seq;
  /* V_UNK: a struct passed by value to an uncalled root, or a member of one
   * that is a struct itself, copied on (b40c's `WarpscanSoa warpscan_partials`,
   * a tuple of pointers to shared rows, or raking_details.warpscan_partials):
   * the root's parameter and the member path from it ("" for the parameter
   * itself); its pointer members point to memory of unknown space, each
   * member a storage of its own (eval.c, member_storage) */
  const wl_var *obj;
  const char *objpath;
} val;

typedef struct guard guard;
typedef struct reach reach;
struct guard {
  const cond *c;
  const guard *next;
  unsigned depth;
  bool unk; /* some condition here depends on the lane in a way not known (see smr_check_pair) */
  reach *r; /* lanes that get here, once computed */
};

/* Which iteration of which enclosing loops an access happened in. */
typedef struct iteration iteration;
struct iteration {
  const wl_stmt *loop;
  unsigned index;
  const iteration *parent;
};

/* A lane's constraints from a chain of guards (races.c, lanes_of): those of
 * one guard's condition, then those of the guards below it; each guard's are
 * instantiated once, and shared by the guards pushed on top of it. */
typedef struct cons_link cons_link;
struct cons_link {
  const wl_lcons *v;
  unsigned n;
  const cons_link *next;
};

/* The lanes that get past a guard's conditions. */
struct reach {
  unsigned char lane[WL_LANES]; /* 0: never gets here, 1: does, 2: when cons[l] hold */
  const wl_lcons *cons[WL_LANES];
  unsigned ncons[WL_LANES];
  bool full; /* lane, cons and ncons are known; else only stop and link */
  /* a condition of the chain holds for no value of the lane */
  unsigned char stop[WL_LANES];
  const cons_link *link[WL_LANES]; /* the chain's constraints of the lane, NULL: none */
};

typedef struct acc {
  wl_smem_access info;
  bool dyn;
  const char *tag, *field; /* interned: compared by pointer */
  bool field_scalar;       /* val.field_scalar */
  const wl_lform *off;     /* element, NULL when unknown */
  unsigned width;          /* elements covered from off on (val.width), at least 1 */
  const wl_lform *wval;    /* value stored (writes), NULL when unknown */
  /* memory of unknown space at an element that is the same in every lane
   * (val[0]): as likely each thread's own as shared (smr_check_pair) */
  bool maybe_own;
  /* writes of a value read from the same storage by the lane's access just
   * before (s[t] = s[0]): the element it was read from, NULL otherwise; where
   * it is the element written, the lane stores back what is there (races.c,
   * unchanged_store) */
  const wl_lform *copy_off;
  bool wvary;      /* the value stored may differ between lanes (val.vary or .data, or wval) */
  const val *dkey; /* off == NULL: the element is dbase + this value (val.dkey) */
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
  const wl_expr *call; /* the call being run (NULL for the root) */
  bool has_ret;
  state ret;
  const val *retv;
  /* a method's object when it is memory not analyzed: a warp-uniform unknown
   * when every lane calls it on the same object; NULL when not known */
  const val *thisv;
  /* a method's object when it is such a struct (val.obj): its members, named
   * in the method without an object (t0[row][col] = v), are the struct's */
  const val *thisobj;
  /* f's non-type template parameters the call names (warpSegScan<T, traits,
   * false, 5>(...)), evaluated by the caller: [f->ntparams], NULL where not
   * named or not a warp-uniform number; NULL when none */
  const wl_lform **tvals;
  /* the class template's parameters the call's qualifier names
   * (`Iterate<1, WIDTH>::Scan(...)`, wl_expr.ctargs), evaluated by the
   * caller: [call->nctparams], NULL where not named or not a warp-uniform
   * number; NULL when none */
  const wl_lform **ctvals;
} fnframe;

typedef struct ctx {
  wl_smem *sm;
  const wl_tu *tu;
  wl_arena ar;
  wl_lctx lc;
  const wl_func *root;
  bool root_params_uniform;
  bool multi_dim; /* the root (or a function it calls) uses threadIdx.y or .z */
  /* a multi_dim root kernel's block extents (x, y, z) from its launches in
   * the file (wl_launch_block_dims), 0 where not known */
  long long launch[3];
  wl_vec tid_params;     /* integer parameters of an uncalled root taken as thread indices */
  wl_vec array_params;   /* pointer parameters of the root used as arrays (p[i], p + i) */
  const wl_tinst *tinst; /* the root's template arguments, when one instantiation is analyzed */
  wl_vec data_params;    /* (parameter, its val.data value) pairs of an uncalled root */
  const wl_func *fn;
  const wl_stmt *stmt;
  const wl_expr *root_call;
  const iteration *iter;
  bool record;
  unsigned seq;
  unsigned long steps, step_limit, pairs, pair_limit, scanned;
  size_t arena_limit; /* bytes the arena may hold: ARENA_BUDGET, less in an unrolling attempt */
  /* bytes that unrolling attempts which failed gave back (exec.c,
   * try_unroll): still counted against arena_limit (smd_arena_used), so
   * every decision is the one made when they were kept; peak: the most the
   * arena held before giving any back */
  size_t given_back, peak;
  /* unrolling attempts in progress, and the memos set meanwhile on objects
   * that may be older than the innermost one (a guard's lanes, an access's
   * lanes by value: smd_memo_set), with their old values to put back when
   * an attempt's memory is given back */
  unsigned attempts;
  struct memo_undo *undo;
  size_t nundo, capundo;
  /* returns recorded into a function's frame: an attempt that recorded one
   * keeps its memory (the frame outlives it) */
  unsigned long returns;
  bool exhausted;
  frame *loops[MAX_LOOP_NEST];
  unsigned nloops;
  fnframe *fns[MAX_CALL_DEPTH + 1];
  unsigned nfns;
  wl_vec strings; /* interned element types and member paths */
  /* elements of local arrays of pointers (volatile int *s_num_pts[4]), each
   * a variable of its own: elem_var records, see eval.c local_elem */
  wl_vec elem_vars;
} ctx;

typedef enum akind { A_NONE, A_SHARED, A_LOCAL } akind;
typedef struct addr {
  akind kind;
  const val *p;      /* A_SHARED: the object's address; shape = the object's extents */
  const wl_var *var; /* A_LOCAL */
  /* A_NONE: memory that is not analyzed (global, a thread's own object
   * through a reference) at an address known to be the same in every lane
   * (nodes[blockIdx.x], p->n with p such a pointer): a load from it gives
   * every lane the same value */
  bool uni;
} addr;

/* The arena's bytes counted against the budgets: what it holds and what
 * failed unrolling attempts gave back. */
static inline size_t smd_arena_used(const ctx *c) { return wl_arena_size(&c->ar) + c->given_back; }

/* domain.c */
const char *smd_intern(ctx *c, const char *s);
/* *field = the size bytes at value, a memo set on an object the analysis
 * made earlier: inside an unrolling attempt its old value is kept, to be put
 * back if the attempt's memory is given back (exec.c). */
void smd_memo_set(ctx *c, void *field, const void *value, size_t size);
/* Puts back the old values of the memos set since there were n. */
void smd_memo_undo(ctx *c, size_t n);
val *smd_new_val(ctx *c, vkind k);
const val *smd_vunk(bool uni);
/* The unknown condition (the same in every lane when uni), and the true one. */
const cond *smd_cond_unk(bool uni);
const cond *smd_cond_true(void);
const val *smd_vdata(ctx *c);
const val *smd_vvary(ctx *c);
const val *smd_vint(ctx *c, const wl_lform *f, bool uni_if_unknown);
const val *smd_vptr_with(ctx *c, const val *p, const wl_lform *off);
bool smd_val_uniform(const val *v);
const wl_lform *smd_int_form(const val *v);
unsigned long long smd_shape_prod(const unsigned *s, unsigned n);
bool smd_cond_lanes(const cond *k, bool out[WL_LANES]);
int smd_cond_definite(const cond *k);
const cond *smd_cond_cmp(ctx *c, const wl_lform *f, wl_cop op);
const cond *smd_cond_branch(ctx *c);
const cond *smd_cond_and(ctx *c, const cond *a, const cond *b);
const cond *smd_cond_or(ctx *c, const cond *a, const cond *b);
const cond *smd_cond_not(ctx *c, const cond *k);
const val *smd_vcond(ctx *c, const cond *k);
const cond *smd_cond_of(ctx *c, const val *v);
const guard *smd_guard_push(ctx *c, const guard *g, const cond *k);
void smd_st_init(state *s);
void smd_st_free(state *s);
void smd_st_copy(state *dst, const state *src);
void smd_st_move(state *dst, state *src);
const val *smd_st_lookup(const state *s, const wl_var *v);
void smd_st_set(state *s, const wl_var *v, const val *x);
void smd_st_push_pend(ctx *c, state *s, acc *a);
void smd_pend_union(state *dst, const state *src);
const wl_lform *smd_sym_form(ctx *c, const char *name, long long lo, long long hi);
const wl_lform *smd_param_form(ctx *c, const void *key, const char *name, long long lo,
                               long long hi);
unsigned smd_warps_sym(ctx *c);
/* W, the warp's index in the block (threadIdx.x == 32 * W + lane) */
unsigned smd_warp_sym(ctx *c);
const wl_lform *smd_thread_x(ctx *c);
bool smd_is_int_type(unsigned t);
const val *smd_param_storage(ctx *c, const wl_var *v);
const val *smd_var_default(ctx *c, const wl_var *v);
const val *smd_st_get(ctx *c, const state *s, const wl_var *v);
const val *smd_join_vals(ctx *c, const val *a, const val *b, const cond *k);
void smd_join_states(ctx *c, state *out, const state *a, const state *b, const cond *k);
void smd_join_into(ctx *c, state *into, const state *from);

/* races.c */
bool smr_guard_reachable(ctx *c, const guard *g);
bool smr_guard_reachable_with(ctx *c, const guard *g, const cond *k);
void smr_check_pair(ctx *c, acc *a, acc *b, bool branches);
void smr_record_access(ctx *c, state *st, const wl_expr *e, const val *p, bool write,
                       const val *stored);

/* eval.c */
const char *sme_norm_type(ctx *c, const char *s, bool strip_pointer);
const val *sme_ptr_add(ctx *c, const val *p, const wl_lform *k, long long sign);
bool sme_is_builtin_obj(const wl_expr *b, const char *name);
addr sme_eval_addr(ctx *c, state *st, const wl_expr *e);
const val *sme_compare(ctx *c, int op, const val *a, const val *b);
const wl_func *sme_lambda_of(const wl_expr *e);
/* The conversion operator a nullary call with no callee names (by USR), or NULL. */
const wl_func *sme_conversion_operator(const wl_tu *tu, const wl_expr *e);
const val *sme_eval(ctx *c, state *st, const wl_expr *e);
/* `a == b` on dependent types: the built-in operator, whatever overload
 * lowering linked the call to (eval.c) */
bool sme_dependent_builtin_op(const wl_expr *e);
/* Forgets what is known of the elements of a local array of pointers (a loop
 * that stores into them) (eval.c). */
void sme_forget_elems(ctx *c, state *st, const wl_var *arr);

/* exec.c */
bool smx_step(ctx *c);
void smx_exec_stmt(ctx *c, state *st, const wl_stmt *s);

/* api.c */
size_t sma_hash_ptr(const void *p, bool w);
/* A decision of the analysis read a file's text because it lies in the file
 * the unit is viewed as (wl_tu_in_main): the main file's (header NULL, in
 * the main file's view), or, in that view, a header whose own view would read
 * it (wl_smem_serves_view). */
void sma_view_reads(wl_smem *sm, const char *header);
void sma_note_access(wl_smem *sm, const wl_smem_access *a);

#endif
