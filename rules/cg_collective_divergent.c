/* cg_collective_divergent.c - rule cg-collective-divergent: a cooperative
 * groups collective reached by only part of its group. The collectives: a
 * group's shfl, shfl_up, shfl_down, shfl_xor, any, all, ballot, match_any,
 * match_all and sync(); cg::reduce, cg::inclusive_scan, cg::exclusive_scan
 * and cg::sync of a group; cg::tiled_partition of a parent group (every
 * thread of the parent must call it, except that a partition into tiles of
 * at most 32 threads only needs whole tiles). The groups: thread_block_tile<N> (N
 * from the type or the tiled_partition call that made it: lanes in aligned
 * segments of N), thread_block (the whole block) and a dynamic
 * tiled_partition(parent, n). A tile collective is fine when the lanes that
 * reach it, known exactly (conditions of the lane id, or of thread ids warp
 * by warp), are whole segments of N lanes; a block collective must not be
 * under lane-divergent control at all. A tile's sync or vote, or a block
 * barrier, that only threads which have left the kernel miss is fine (they
 * wait for and count only threads that have not exited). A coalesced_group is by definition
 * made of the threads that reach its collectives: never reported.
 * The caller's divergence counts, through calls a few levels up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "builtins.h"
#include "consteval.h"
#include "lanes.h"
#include "local_values.h"
#include "rules.h"
#include "wording.h"

typedef struct group_info {
  unsigned size; /* lanes of a tile (1..32); 0: the whole block (or unknown, larger) */
  const char *kind;
} group_info;

/* N of "thread_block_tile<N" or "tiled_partition<N" in text; 0 when absent. */
static unsigned angle_size(const char *text, const char *word) {
  const char *p = text ? strstr(text, word) : NULL;
  if (!p)
    return 0;
  p += strlen(word);
  while (*p == ' ')
    p++;
  if (*p != '<')
    return 0;
  char *end;
  unsigned long n = strtoul(p + 1, &end, 10);
  return end != p + 1 && n > 0 && n <= 1024 ? (unsigned)n : 0;
}

/* What group an expression denotes; false when it is not a group this rule
 * judges (a coalesced group, something unknown). */
static bool group_of(const wl_rule_ctx *ctx, const wl_func *f, const wl_expr *g, group_info *gi) {
  g = wl_expr_strip(g);
  if (!g)
    return false;
  const char *ts = g->kind == WL_E_REF && g->var ? g->var->type_spelling : NULL;
  if (ts && strstr(ts, "coalesced_group"))
    return false;
  unsigned n = angle_size(ts, "thread_block_tile");
  if (n) {
    *gi = (group_info){n, "thread_block_tile"};
    return true;
  }
  if (ts && strstr(ts, "thread_block") && !strstr(ts, "tile")) {
    *gi = (group_info){0, "thread_block"};
    return true;
  }
  const wl_expr *made = wl_local_resolve(f, g);
  if (!made || made->kind != WL_E_CALL || !made->name)
    return false;
  const wl_builtin *b = wl_builtin_find(made->name);
  if (b && b->kind == WL_BK_GROUP_THIS) {
    *gi = (group_info){0, wl_builtin_group_type(b)};
    return true;
  }
  if (b && b->kind == WL_BK_GROUP_PARTITION) {
    long long k;
    n = angle_size(wl_source_text(ctx, made->range), "tiled_partition");
    if (!n && made->nargs >= 2 && wl_consteval(made->args[1], &k) && k > 0 && k <= 1024)
      n = (unsigned)k;
    if (!n)
      return false;
    *gi = (group_info){n <= 32 ? n : 0, made->nargs >= 2 ? "thread_group" : "thread_block_tile"};
    return true;
  }
  return false;
}

/* Whether the lanes in `set` are whole aligned segments of `size` lanes. */
static bool whole_segments(unsigned set, unsigned size) {
  if (size == 0 || size > 32 || (size & (size - 1)))
    return set == ~0u;
  unsigned seg = size == 32 ? ~0u : (1u << size) - 1;
  for (unsigned b = 0; b < 32; b += size) {
    unsigned part = (set >> b) & seg;
    if (part != 0 && part != seg)
      return false;
  }
  return true;
}

/* The warps of a block worth trying for thread-id conditions: the first 64
 * (blocks of up to 2048 threads), and those around every constant of the
 * conditions (`gid < 100005` changes within warp 3125). */
typedef struct warp_list {
  unsigned v[160];
  size_t n;
} warp_list;

static void warp_add(warp_list *w, long long k) {
  if (k < 64 || k > (1LL << 26))
    return;
  for (size_t i = 0; i < w->n; i++)
    if (w->v[i] == (unsigned)k)
      return;
  if (w->n < sizeof w->v / sizeof w->v[0])
    w->v[w->n++] = (unsigned)k;
}

static bool cond_constants(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  long long k;
  if (wl_consteval(e, &k) && k >= 0) {
    warp_add(ud, k / 32 - 1);
    warp_add(ud, k / 32);
    warp_add(ud, k / 32 + 1);
    return false;
  }
  return true;
}

/* Whether the lanes that reach e are whole aligned segments of `size` lanes
 * in every warp: conditions of the lane id alone, or of thread ids
 * (`threadIdx.x < 16` keeps the first 16-thread tile of the block whole and
 * no thread of the others). */
static bool whole_tiles_reach(const wl_lanes *l, const wl_expr *e, unsigned size) {
  unsigned set;
  if (wl_lanes_reaching_lanes(l, e, &set))
    return whole_segments(set, size);
  warp_list w = {.n = 0};
  for (unsigned i = 0; i < 64; i++)
    w.v[w.n++] = i;
  wl_lane_reach v[16];
  size_t n = wl_lanes_restrictions(l, e, v, 16);
  wl_visitor vis = {NULL, cond_constants, &w, false};
  for (size_t i = 0; i < n && i < 16; i++)
    if (v[i].cond)
      wl_walk_expr(v[i].cond, NULL, &vis);
  for (size_t i = 0; i < w.n; i++)
    if (!wl_lanes_reaching_lanes_in_warp(l, e, w.v[i], &set) || !whole_segments(set, size))
      return false;
  return true;
}

/* Whether only part of a group of `size` lanes (0: a block) may reach e;
 * *via is set to the divergent call when that happens in a caller. */
static bool part_of_group(const wl_lanes *l, const wl_expr *e, unsigned size, int depth,
                          const wl_expr **via) {
  wl_lane_reach r;
  if (!wl_lanes_reach_expr(l, e, &r))
    return false;
  if (r.partial && !(size > 0 && whole_tiles_reach(l, e, size)))
    return true;
  if (!r.caller_partial || depth > 4)
    return false;
  const wl_expr *const *calls;
  size_t nc = wl_lanes_calls_of(l, wl_lanes_func_of_expr(l, e), &calls);
  for (size_t i = 0; i < nc; i++)
    if (part_of_group(l, calls[i], size, depth + 1, via)) {
      if (!*via)
        *via = calls[i];
      return true;
    }
  return false;
}

/* Whether s runs nothing (absent, `;` or `{}`). */
static bool empty_stmt(const wl_stmt *s) {
  return !s || s->kind == WL_S_NULL || (s->kind == WL_S_COMPOUND && s->nkids == 0);
}

/* The last statement of a compound that runs something (imageDenoising's
 * `if (...) { ... };` ends with a `;`), or NULL. */
static const wl_stmt *last_kid(const wl_stmt *s) {
  for (unsigned i = s->nkids; i > 0; i--)
    if (!empty_stmt(s->kids[i - 1]))
      return s->kids[i - 1];
  return NULL;
}

/* Whether s ends with `target` (a statement), or with `call` as a
 * statement (`f(...);` or `return f(...);`): the last thing s runs, after
 * which the function returns. */
static bool ends_with(const wl_stmt *s, const wl_stmt *target, const wl_expr *call) {
  if (!s)
    return false;
  if (s == target || (call && (s->kind == WL_S_EXPR || s->kind == WL_S_RETURN) && s->expr == call))
    return true;
  if (s->kind == WL_S_COMPOUND)
    return ends_with(last_kid(s), target, call);
  if (s->kind == WL_S_IF)
    return ends_with(s->then_s, target, call) || ends_with(s->else_s, target, call);
  return false;
}

static bool tail_of(const wl_stmt *s, const wl_stmt *target) { return ends_with(s, target, NULL); }

/* Whether leaving f leaves the kernel: f is a kernel, or every call of f
 * (there is at least one) is the last thing a function runs whose leaving
 * leaves the kernel (cdpAdvancedQuicksort's big_bitonicsort kernel ends
 * with its call of the device function big_bitonicsort_kernel). */
static bool leaving_ends_kernel(const wl_lanes *l, const wl_func *f, int depth) {
  if (f->flags & WL_F_GLOBAL)
    return true;
  const wl_expr *const *calls;
  size_t n = wl_lanes_calls_of(l, f, &calls);
  if (n == 0 || depth > 8)
    return false;
  for (size_t i = 0; i < n; i++) {
    const wl_func *g = wl_lanes_func_of_expr(l, calls[i]);
    if (!g || g == f || !g->body || !ends_with(g->body, NULL, calls[i]) ||
        !leaving_ends_kernel(l, g, depth + 1))
      return false;
  }
  return true;
}

/* Whether every lane that may be missing at e (a call or a collective) has
 * left the kernel: each lane-dependent restriction of e in its function f
 * is a `return`, a loop after which f ends, or an `if` after which f ends
 * whose other branch runs nothing (imageDenoising's NLM2: the whole kernel
 * under `if (ix < imageW && iy < imageH)`), and leaving f ends the
 * kernel; where f is called from partial-warp code, the same holds at each
 * of its calls (nbody's integrateBodies returns early, then calls the
 * function whose block barriers its threads meet). */
static bool only_exits_miss(const wl_lanes *l, const wl_expr *e, int depth) {
  const wl_func *f = wl_lanes_func_of_expr(l, e);
  wl_lane_reach r;
  if (!f || !f->body || depth > 4 || !wl_lanes_reach_expr(l, e, &r))
    return false;
  wl_lane_reach v[16];
  size_t n = wl_lanes_restrictions(l, e, v, 16);
  if (n >= 16 || (n > 0 && !leaving_ends_kernel(l, f, 0)))
    return false;
  for (size_t i = 0; i < n; i++) {
    if (v[i].kind == WL_LR_EXIT && v[i].exit && v[i].exit->kind == WL_S_RETURN)
      continue;
    if (v[i].kind == WL_LR_LOOP && v[i].stmt && tail_of(f->body, v[i].stmt))
      continue;
    if (v[i].kind == WL_LR_IF && v[i].stmt && v[i].stmt->kind == WL_S_IF &&
        ((v[i].side == 1 && empty_stmt(v[i].stmt->else_s)) ||
         (v[i].side == 0 && empty_stmt(v[i].stmt->then_s))) &&
        tail_of(f->body, v[i].stmt))
      continue;
    return false;
  }
  if (!r.caller_partial)
    return true;
  const wl_expr *const *calls;
  size_t nc = wl_lanes_calls_of(l, f, &calls);
  for (size_t i = 0; i < nc; i++)
    if (!only_exits_miss(l, calls[i], depth + 1))
      return false;
  return nc > 0;
}

/* Whether the collective e of a group may be missed by lanes that have left
 * the kernel only. A tile's sync() and votes wait for and count only the
 * threads that have not exited (as __syncwarp and the *_sync votes do); its
 * shuffles and reductions would read the exited ones. A thread_block
 * barrier (`cg::sync(cta)`, `cta.sync()`) waits for the non-exited threads
 * of the block too: fixtures/gpu/probes/exited_barrier.cu splits warps by an
 * early return before block barriers on an H200 with no wrong value and no
 * synccheck error, while the same exchange without the barrier goes wrong. */
static bool missing_lanes_exited(const wl_lanes *l, const wl_expr *e, const wl_builtin *b,
                                 const group_info *gi) {
  if (b->kind != WL_BK_BARRIER && b->kind != WL_BK_VOTE && b->kind != WL_BK_MATCH)
    return false;
  /* a dynamic partition larger than a warp synchronizes through block
   * memory, counting arrivals: only tiles and the block itself */
  if (gi->size == 0 && (b->kind != WL_BK_BARRIER || strcmp(gi->kind, "thread_block") != 0))
    return false;
  return only_exits_miss(l, e, 0);
}

/* The tile size of a tiled_partition call (<N> or a constant second
 * argument); 0 when unknown. A tile of at most 32 threads is made from the
 * calling thread's rank alone, without waiting for the parent group (CUDA's
 * thread_block::_get_tiled_threads and __single_warp_thread_block_tile):
 * what must be whole is each tile that is made, not the parent. Larger
 * tiles share block scratch memory and synchronize the parent. */
static unsigned partition_size(const wl_rule_ctx *ctx, const wl_expr *e) {
  long long k;
  unsigned n = angle_size(wl_source_text(ctx, e->range), "tiled_partition");
  /* <ROWS_PER_CTA>: the specialization's USR spells the value,
   * "tiled_partition<#Vi8#..." */
  const char *u = e->callee_spec_usr ? strstr(e->callee_spec_usr, "tiled_partition<#V") : NULL;
  if (!n && u) {
    u += strlen("tiled_partition<#V");
    while ((*u >= 'a' && *u <= 'z') || (*u >= 'A' && *u <= 'Z'))
      u++;
    char *end;
    unsigned long v = strtoul(u, &end, 10);
    if (end != u && *end == '#' && v > 0 && v <= 1024)
      n = (unsigned)v;
  }
  if (!n && e->nargs >= 2 && wl_consteval(e->args[1], &k) && k > 0 && k <= 1024)
    n = (unsigned)k;
  return n;
}

typedef struct cg_scan {
  wl_rule_ctx *ctx;
  const wl_lanes *l;
  const wl_func *f;
} cg_scan;

/* The group a call is a collective of (catalog: cooperative-groups
 * collectives and barriers, called on a group or given it first), or NULL. */
static const wl_expr *collective_group(const wl_expr *e, const wl_builtin **bo) {
  const wl_builtin *b = wl_builtin_find(e->name);
  *bo = b;
  if (!b || b->form != WL_BF_CG || (b->orders == WL_BO_NONE && b->kind != WL_BK_GROUP_PARTITION))
    return NULL;
  const wl_expr *c = e->callee_expr;
  if (e->callee_is_method || (c && c->kind == WL_E_MEMBER))
    return c && c->kind == WL_E_MEMBER && c->nargs >= 1 && b->kind != WL_BK_GROUP_PARTITION
               ? c->args[0]
               : NULL;
  bool free_fn = b->kind == WL_BK_REDUCE || b->kind == WL_BK_SCAN || b->kind == WL_BK_BARRIER ||
                 b->kind == WL_BK_GROUP_PARTITION;
  return free_fn && e->nargs >= 1 ? e->args[0] : NULL;
}

static bool check(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  cg_scan *sc = ud;
  if (e->kind != WL_E_CALL || !e->name)
    return true;
  const wl_builtin *b;
  const wl_expr *group = collective_group(e, &b);
  group_info gi;
  if (!group || !group_of(sc->ctx, sc->f, group, &gi))
    return true;
  bool partition = b->kind == WL_BK_GROUP_PARTITION;
  unsigned need = gi.size;
  unsigned tile = partition ? partition_size(sc->ctx, e) : 0;
  if (tile > 0 && tile <= 32 && !(tile & (tile - 1)))
    need = tile;
  const wl_expr *via = NULL;
  if (!part_of_group(sc->l, e, need, 0, &via))
    return true;
  if (missing_lanes_exited(sc->l, e, b, &gi))
    return true;
  wl_lane_reach r;
  char why[256] = "";
  if (wl_lanes_reach_expr(sc->l, via ? via : e, &r))
    wl_wording_reach(sc->ctx->tu, &r, why, sizeof why);
  const char *gname = group->kind == WL_E_REF && group->name ? group->name : "its group";
  char size[48];
  if (gi.size)
    snprintf(size, sizeof size, "%u threads", gi.size);
  else
    snprintf(size, sizeof size, "the whole block");
  /* After an early return (nbody's `if (index >= n) return;` before a
   * block barrier), say what the finding rests on: safe launches would have
   * to keep every thread of every block from returning, which the kernel
   * does not show. */
  bool early_return =
      !partition && r.kind == WL_LR_EXIT && r.exit && r.exit->kind == WL_S_RETURN && why[0];
  const wl_macro_info *m;
  wl_range at = wl_wording_site(sc->ctx->tu, e, &m);
  wl_finding *fd = wl_report_range(
      sc->ctx, at, m,
      "'%s' is a collective of %s '%s' (%s): every thread of the group must call it, but only "
      "part of the group may get here (%s%s); that is undefined behaviour on sm_70+ (a hang, "
      "or values from threads that are not there)%s. %s",
      e->name, partition ? "the parent group" : gi.kind, gname, size,
      via ? "its function is called " : "", why[0] ? why : "divergent control flow",
      early_return ? " in any launched block where a thread takes that return, and nothing in "
                     "the kernel rules that out (launch configurations are not checked: it is "
                     "safe only while every launch keeps all threads of each block from "
                     "returning there)"
                   : "",
      partition ? "Partition where the whole parent group is (before the branch), and use the "
                  "tiles inside it"
      : early_return
          ? "Keep every thread to the collective: guard the work with the opposite test "
            "instead of returning early, or return only after the last collective"
          : "Call it where the whole group is (move it out of the branch, make only the "
            "use of the result conditional, let idle threads contribute a neutral value), "
            "or make the group from the threads that get here (cg::coalesced_threads(), "
            "cg::binary_partition)");
  if (via)
    wl_note_at(sc->ctx, fd, via->loc, "the divergent call is here");
  return true;
}

void wl_rule_cg_collective_divergent(wl_rule_ctx *ctx) {
  const wl_lanes *l = wl_an_lanes(ctx->an);
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    if (!f->body || !(f->flags & (WL_F_DEVICE | WL_F_GLOBAL)))
      continue;
    cg_scan sc = {ctx, l, f};
    wl_visitor v = {NULL, check, &sc, false};
    wl_walk_stmt(f->body, &v);
  }
}
