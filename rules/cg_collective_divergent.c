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
 * under lane-divergent control at all. A tile's sync or vote that only
 * threads which have left the kernel miss is fine (they wait for and count
 * only threads that have not exited). A coalesced_group is by definition
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

/* Whether `target` is the last statement that s runs: after it the
 * function returns. */
static bool tail_of(const wl_stmt *s, const wl_stmt *target) {
  if (!s)
    return false;
  if (s == target)
    return true;
  if (s->kind == WL_S_COMPOUND)
    return s->nkids > 0 && tail_of(s->kids[s->nkids - 1], target);
  if (s->kind == WL_S_IF)
    return tail_of(s->then_s, target) || tail_of(s->else_s, target);
  return false;
}

/* Whether every lane missing at e has left the kernel that holds it: each
 * lane-dependent restriction is a `return` of the kernel, or a loop after
 * which the kernel ends. A tile's sync() and votes wait for and count only
 * the threads that have not exited (as __syncwarp and the *_sync votes do);
 * its shuffles and reductions would read the exited ones. */
static bool missing_lanes_exited(const wl_lanes *l, const wl_expr *e, const wl_builtin *b) {
  if (b->kind != WL_BK_BARRIER && b->kind != WL_BK_VOTE && b->kind != WL_BK_MATCH)
    return false;
  const wl_func *f = wl_lanes_func_of_expr(l, e);
  if (!f || !(f->flags & WL_F_GLOBAL) || !f->body)
    return false;
  wl_lane_reach v[16];
  size_t n = wl_lanes_restrictions(l, e, v, 16);
  if (n == 0 || n >= 16)
    return false;
  for (size_t i = 0; i < n; i++) {
    if (v[i].caller_partial)
      return false;
    if (v[i].kind == WL_LR_EXIT && v[i].exit && v[i].exit->kind == WL_S_RETURN)
      continue;
    if (v[i].kind == WL_LR_LOOP && v[i].stmt && tail_of(f->body, v[i].stmt))
      continue;
    return false;
  }
  return true;
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
  if (gi.size > 0 && !via && missing_lanes_exited(sc->l, e, b))
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
