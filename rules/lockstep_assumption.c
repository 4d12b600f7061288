/* lockstep_assumption.c - rule lockstep-assumption: device code that tests or
 * waits for the lanes of a warp to be converged, i.e. compares an
 * __activemask() value (directly, through locals, or its __popc) with a
 * constant: `assert(__activemask() == FULL_MASK)` (Listing 14),
 * `if (__activemask() != 0xffffffff)`, `while (__activemask() != FULL_MASK);`.
 * Reported at the comparison; the message says whether it is an assertion,
 * a loop condition (a spin) or a test. */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "consteval.h"
#include "lanes.h"
#include "local_values.h"
#include "rules.h"

typedef struct scan {
  wl_rule_ctx *ctx;
  const wl_func *f;
  const wl_expr *loop_conds[64]; /* conditions of the loops of f */
  unsigned nloops;
} scan;

static bool collect_loops(const wl_stmt *s, void *ud) {
  scan *sc = ud;
  if ((s->kind == WL_S_WHILE || s->kind == WL_S_DO || s->kind == WL_S_FOR) && s->expr &&
      sc->nloops < sizeof sc->loop_conds / sizeof sc->loop_conds[0])
    sc->loop_conds[sc->nloops++] = s->expr;
  return true;
}

static bool within(const wl_expr *outer, const wl_expr *e) {
  return outer->range.begin.file && e->range.begin.file &&
         strcmp(outer->range.begin.file, e->range.begin.file) == 0 &&
         outer->range.begin.offset <= e->range.begin.offset &&
         e->range.end.offset <= outer->range.end.offset;
}

/* An __activemask() value: the call, a local holding it, or __popc of one
 * (*popc set). */
static bool activemask_value(const wl_func *f, const wl_expr *e, bool *popc) {
  e = wl_local_resolve(f, e);
  *popc = false;
  if (e && wl_expr_is_call(e, "__popc") && e->nargs == 1) {
    *popc = true;
    e = wl_local_resolve(f, e->args[0]);
  }
  return wl_builtin_call(e, WL_BK_ACTIVEMASK, WL_BF_INTRINSIC) != NULL;
}

static bool is_assert(const wl_expr *e) {
  return e->macro && e->macro->name &&
         (strcmp(e->macro->name, "assert") == 0 ||
          strcmp(e->macro->name, "CUDA_KERNEL_ASSERT") == 0);
}

static bool check(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  scan *sc = ud;
  if (e->kind != WL_E_BINARY || e->nargs != 2)
    return true;
  if (e->op != WL_B_EQ && e->op != WL_B_NE && e->op != WL_B_LT && e->op != WL_B_GT &&
      e->op != WL_B_LE && e->op != WL_B_GE)
    return true;
  bool popc = false;
  long long c;
  const wl_expr *am = NULL, *k = NULL;
  if (activemask_value(sc->f, e->args[0], &popc))
    am = e->args[0], k = e->args[1];
  else if (activemask_value(sc->f, e->args[1], &popc))
    am = e->args[1], k = e->args[0];
  if (!am || !wl_consteval(k, &c))
    return true;
  bool loop = false;
  for (unsigned i = 0; i < sc->nloops && !loop; i++)
    loop = within(sc->loop_conds[i], e);
  const char *text = wl_source_text(sc->ctx, e->range);
  char what[128];
  if (text && text[0] && strlen(text) < 100)
    snprintf(what, sizeof what, "'%s'", text);
  else
    snprintf(what, sizeof what, "this comparison");
  const char *kind =
      loop ? "this loop waits for the warp to converge, but lanes that took another path are "
             "never guaranteed to come back together with these: it may spin forever (or for "
             "as long as the scheduler pleases)"
      : is_assert(e)
          ? "this assertion assumes the warp runs in lock-step here; even right after "
            "__syncwarp() the lanes need not be converged (Listing 14), so it may fail"
          : "this test assumes that lanes which took the same path run in lock-step; "
            "independent thread scheduling (sm_70+) may show a partial warp here, so the "
            "branch taken depends on scheduling, not on the program";
  wl_report_expr(sc->ctx, e,
                 "%s compares %s__activemask()%s with a constant: __activemask() only says which "
                 "lanes happen to execute together at this instant; %s. Say which lanes must "
                 "take part instead: __syncwarp(mask) to wait for them, a *_sync collective "
                 "with a mask from the program logic, or __all_sync(mask, pred) to agree",
                 what, popc ? "__popc(" : "", popc ? ")" : "", kind);
  return true;
}

void wl_rule_lockstep_assumption(wl_rule_ctx *ctx) {
  const wl_tu *tu = ctx->tu;
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (!f->body || !(f->flags & (WL_F_DEVICE | WL_F_GLOBAL)))
      continue;
    scan sc;
    memset(&sc, 0, sizeof sc);
    sc.ctx = ctx;
    sc.f = f;
    wl_visitor loops = {collect_loops, NULL, &sc, false};
    wl_walk_stmt(f->body, &loops);
    wl_visitor v = {NULL, check, &sc, false};
    wl_walk_stmt(f->body, &v);
  }
}
