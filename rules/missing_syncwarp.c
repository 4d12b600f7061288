/* missing_syncwarp.c - rule missing-syncwarp: two lanes of one warp touch the
 * same shared-memory element, one of them writing, with no barrier between
 * the two accesses. The shared-memory analysis (analyzer/analysis/shared/) finds the
 * pairs; this rule words them, one finding per statement. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"
#include "builtins.h"
#include "hmap.h"
#include "lanes.h"
#include "rules.h"
#include "shared.h"

static void quote(const wl_rule_ctx *ctx, const wl_expr *e, char *buf, size_t n) {
  const char *t = e->macro ? NULL : wl_source_text(ctx, e->range);
  if (!t || !*t || strlen(t) > 60 || strchr(t, '\n'))
    snprintf(buf, n, "the element");
  else
    snprintf(buf, n, "'%s'", t);
}

/* The quoted access, with the helper it is in when it is reported at the
 * helper's call (wl_smem_access.site). */
static void quote_access(const wl_rule_ctx *ctx, const wl_smem_access *x, char *buf, size_t n) {
  char q[96];
  quote(ctx, x->expr, q, sizeof q);
  if (x->site && x->func && x->func->name)
    snprintf(buf, n, "%s in '%s'", q, x->func->name);
  else
    snprintf(buf, n, "%s", q);
}

static void describe(const wl_rule_ctx *ctx, const wl_smem_race *r, char *out, size_t n) {
  char a[160], b[160], elem[64] = "", where[96];
  quote_access(ctx, &r->second, b, sizeof b);
  quote_access(ctx, &r->first, a, sizeof a);
  if (r->element_known)
    snprintf(elem, sizeof elem, " (element %lld)", r->element);
  else if (r->scatter)
    snprintf(elem, sizeof elem, " (an element a value read from memory chooses)");
  else if (r->data_index)
    snprintf(elem, sizeof elem, " (when both lanes' indexes are equal)");
  if (r->first.stmt == r->second.stmt && !r->loop_carried)
    snprintf(where, sizeof where, "in the same statement");
  else
    snprintf(where, sizeof where, "at line %u%s",
             (r->first.site ? r->first.site : r->first.expr)->loc.line,
             r->concurrent_branches ? " in the other arm of a lane-dependent branch"
             : r->loop_carried      ? " in an earlier iteration"
                                    : "");
  if (r->second.write && r->first.write)
    snprintf(out, n,
             "lane %d writes %s%s, which lane %d also writes through %s %s; no __syncwarp() "
             "orders the two stores",
             r->lane_second, b, elem, r->lane_first, a, where);
  else if (r->second.write)
    snprintf(out, n,
             "lane %d writes %s%s while lane %d may still be reading it through %s %s; no "
             "__syncwarp() orders the read before the write",
             r->lane_second, b, elem, r->lane_first, a, where);
  else
    snprintf(out, n,
             "lane %d reads %s%s, which lane %d writes through %s %s; no __syncwarp() orders "
             "the write before the read, so it may see the old value",
             r->lane_second, b, elem, r->lane_first, a, where);
}

/* ---- the fix (Listing 7 -> Listing 8) ----------------------------------- */

/* The barrier for statement s: __syncwarp() when the whole warp runs it. A
 * barrier of part of a warp is not offered: the lane whose value is read may
 * be outside that part (the scans' `if (lane >= d)` steps), see rewrite_if. */
static bool barrier_for(wl_rule_ctx *ctx, const wl_stmt *s, char *out, size_t n) {
  wl_lanes *l = wl_an_lanes(ctx->an);
  wl_lane_reach r;
  if (!l || !wl_lanes_reach_stmt(l, s, &r) || r.partial || r.caller_partial)
    return false;
  snprintf(out, n, "__syncwarp()");
  return true;
}

/* The statement's range with its terminating ';' (a clang expression
 * statement's extent stops before it). */
static bool stmt_with_semicolon(const wl_tu *tu, const wl_stmt *s, wl_range *out) {
  if (!s->range.begin.file || !wl_tu_in_main(tu, s->range.begin) || s->macro)
    return false;
  size_t e = s->range.end.offset;
  while (e < tu->source_len && (tu->source[e] == ' ' || tu->source[e] == '\t'))
    e++;
  if (e >= tu->source_len || tu->source[e] != ';')
    return false;
  *out = s->range;
  out->end.offset = (unsigned)e + 1;
  out->end.col += (unsigned)(e + 1 - s->range.end.offset);
  return true;
}

/* One statement of a rewrite (heap-allocated). */
#if defined(__GNUC__)
__attribute__((format(printf, 1, 2)))
#endif
static char *
stmt_text(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  size_t size = n > 0 ? (size_t)n + 1 : 1;
  char *out = wl_xcalloc(size, 1);
  va_start(ap, fmt);
  vsnprintf(out, size, fmt, ap);
  va_end(ap);
  return out;
}

/* `X op= Y;` (or `X = Y;`) -> `{ auto warp_tmp = Y; __syncwarp(); X op= warp_tmp; __syncwarp(); }`
 * (a block, one statement a line, indented as the code around it): every
 * lane reads the other lanes' elements, all meet, every lane writes its own,
 * all meet again (Listing 8). lead: a barrier first, for a race with an
 * earlier statement. */
static bool rewrite_read_modify_write(wl_rule_ctx *ctx, wl_finding *fd, const wl_stmt *s,
                                      const char *bar, bool lead) {
  const wl_expr *x = s->kind == WL_S_EXPR ? s->expr : NULL;
  if (!x || x->kind != WL_E_BINARY || !wl_binop_is_assign(x->op) || x->nargs != 2)
    return false;
  wl_range whole;
  const char *lhs = wl_source_text(ctx, x->args[0]->range);
  const char *rhs = wl_source_text(ctx, x->args[1]->range);
  if (!lhs || !rhs || x->args[0]->macro || x->args[1]->macro ||
      !stmt_with_semicolon(ctx->tu, s, &whole))
    return false;
  char *st[5];
  size_t n = 0;
  if (lead)
    st[n++] = stmt_text("%s;", bar);
  st[n++] = stmt_text("auto warp_tmp = %s;", rhs);
  st[n++] = stmt_text("%s;", bar);
  st[n++] = stmt_text("%s %s warp_tmp;", lhs, wl_binop_spelling(x->op));
  st[n++] = stmt_text("%s;", bar);
  bool ok = wl_fix_replace_block(ctx, fd, whole, (const char *const *)st, n);
  for (size_t i = 0; i < n; i++)
    free(st[i]);
  return ok;
}

/* `if (c) X op= Y;` run by the whole warp (a scan step) ->
 * `{ bool warp_c = c; decltype(+(Y)) warp_tmp{}; if (warp_c) warp_tmp = Y;
 *    __syncwarp(); if (warp_c) X op= warp_tmp; __syncwarp(); }`:
 * the lanes that take the branch read, every lane meets, they write, every
 * lane meets again. */
static bool rewrite_if(wl_rule_ctx *ctx, wl_finding *fd, const wl_stmt *ifs, const wl_stmt *s,
                       const char *bar, bool lead) {
  const wl_expr *x = s->kind == WL_S_EXPR ? s->expr : NULL;
  if (!x || x->kind != WL_E_BINARY || !wl_binop_is_assign(x->op) || x->nargs != 2 || ifs->else_s ||
      ifs->init || ifs->macro || !ifs->expr || !wl_builtin_pure_expr(ifs->expr))
    return false;
  const char *cond = wl_source_text(ctx, ifs->expr->range);
  const char *lhs = wl_source_text(ctx, x->args[0]->range);
  const char *rhs = wl_source_text(ctx, x->args[1]->range);
  wl_range whole, inner;
  if (!cond || !lhs || !rhs || ifs->expr->macro || x->args[0]->macro || x->args[1]->macro ||
      !stmt_with_semicolon(ctx->tu, s, &inner))
    return false;
  whole = ifs->range;
  whole.end = inner.end;
  char *st[7];
  size_t n = 0;
  if (lead)
    st[n++] = stmt_text("%s;", bar);
  st[n++] = stmt_text("bool warp_c = %s;", cond);
  st[n++] = stmt_text("decltype(+(%s)) warp_tmp{};", rhs);
  st[n++] = stmt_text("if (warp_c) warp_tmp = %s;", rhs);
  st[n++] = stmt_text("%s;", bar);
  st[n++] = stmt_text("if (warp_c) %s %s warp_tmp;", lhs, wl_binop_spelling(x->op));
  st[n++] = stmt_text("%s;", bar);
  bool ok = wl_fix_replace_block(ctx, fd, whole, (const char *const *)st, n);
  for (size_t i = 0; i < n; i++)
    free(st[i]);
  return ok;
}

/* A barrier statement before s. */
static bool barrier_before_stmt(wl_rule_ctx *ctx, wl_finding *fd, const wl_stmt *s,
                                const char *bar) {
  char text[64];
  snprintf(text, sizeof text, "%s;", bar);
  return wl_fix_insert_before(ctx, fd, s, text);
}

/* The races indexed by the statement that reads or clobbers (second.stmt),
 * so that the fix of one statement looks only at its own races. */
typedef struct race_index {
  wl_hmap by_second; /* wl_stmt* -> wl_vec* of race indices + 1 */
  wl_hmap intra;     /* wl_stmt* -> non-NULL when the statement races with itself */
  wl_hmap ends;      /* wl_stmt* -> ENDS_YES / ENDS_NO: ends_with_barrier_after_fix */
  wl_vec lists;      /* the wl_vec*s, to free */
} race_index;

#define ENDS_YES ((void *)1)
#define ENDS_NO ((void *)2)

/* The key of a statement (NULL stands for itself too). */
static const char null_stmt;
static const void *key_of(const wl_stmt *s) {
  return s ? (const void *)s : (const void *)&null_stmt;
}

static void index_races(race_index *x, const wl_smem *sm) {
  wl_hmap_init(&x->by_second, false);
  wl_hmap_init(&x->intra, false);
  wl_hmap_init(&x->ends, false);
  memset(&x->lists, 0, sizeof x->lists);
  for (size_t i = 0, n = wl_smem_nraces(sm); i < n; i++) {
    const wl_smem_race *r = wl_smem_race_at(sm, i);
    void **slot = wl_hmap_slot_of(&x->by_second, key_of(r->second.stmt));
    if (!*slot) {
      *slot = wl_xcalloc(1, sizeof(wl_vec));
      wl_vec_push(&x->lists, *slot);
    }
    wl_vec_push(*slot, (void *)(uintptr_t)(i + 1));
    if (r->first.stmt == r->second.stmt)
      wl_hmap_put(&x->intra, key_of(r->second.stmt), ENDS_YES, false);
  }
}

static void free_index(race_index *x) {
  for (size_t i = 0; i < x->lists.n; i++) {
    wl_vec_free(x->lists.v[i]);
    free(x->lists.v[i]);
  }
  wl_vec_free(&x->lists);
  wl_hmap_free(&x->by_second);
  wl_hmap_free(&x->intra);
  wl_hmap_free(&x->ends);
}

/* Whether statement t races with itself and its own finding gets the
 * Listing 8 rewrite, which ends with a barrier: the rewrite is built here on a
 * scratch finding, since the shape alone does not say it succeeds (an operand
 * from a macro, a statement a macro wrote, a parse error nearby). */
static bool ends_with_barrier_after_fix(wl_rule_ctx *ctx, race_index *x, const wl_stmt *t) {
  const wl_expr *x_ = t->kind == WL_S_EXPR ? t->expr : NULL;
  if (!x_ || x_->kind != WL_E_BINARY || !wl_binop_is_assign(x_->op) || t->macro)
    return false;
  if (!wl_hmap_get(&x->intra, t))
    return false;
  void **memo = wl_hmap_slot_of(&x->ends, t);
  if (!*memo) {
    char bar[48];
    wl_finding scratch;
    memset(&scratch, 0, sizeof scratch);
    bool ends = barrier_for(ctx, t, bar, sizeof bar) &&
                rewrite_read_modify_write(ctx, &scratch, t, bar, false);
    wl_finding_free(&scratch);
    *memo = ends ? ENDS_YES : ENDS_NO;
  }
  return *memo == ENDS_YES;
}

static void fix_statement(wl_rule_ctx *ctx, const wl_smem *sm, race_index *x, wl_finding *fd,
                          const wl_smem_race *r) {
  const wl_stmt *s = r->second.stmt;
  bool intra = false, before = false, lead = false;
  const wl_vec *mine = wl_hmap_get(&x->by_second, key_of(s));
  for (size_t i = 0, n = mine ? mine->n : 0; i < n; i++) {
    const wl_smem_race *o = wl_smem_race_at(sm, (size_t)(uintptr_t)mine->v[i] - 1);
    if (o->first.stmt == s) {
      intra = true; /* also covers the same statement in the next iteration */
    } else {
      before = true;
      /* no barrier of our own is needed first when the earlier statement's
       * own rewrite ends with one */
      if (!lead && !ends_with_barrier_after_fix(ctx, x, o->first.stmt))
        lead = true;
    }
  }
  char bar[48];
  bool done = false;
  const wl_stmt *parent = wl_stmt_parent(r->second.func, s);
  if (barrier_for(ctx, s, bar, sizeof bar)) {
    if (intra)
      done = rewrite_read_modify_write(ctx, fd, s, bar, lead);
    else if (before && parent && parent->kind == WL_S_COMPOUND)
      done = barrier_before_stmt(ctx, fd, s, bar);
  } else if (parent && parent->kind == WL_S_IF && parent->then_s == s &&
             barrier_for(ctx, parent, bar, sizeof bar)) {
    done = rewrite_if(ctx, fd, parent, s, bar, lead);
  }
  if (!done) {
    wl_fix_clear(fd);
    wl_finding_add_note(fd, fd->file, fd->line, fd->col,
                        "no automatic fix for this shape: read into a local, __syncwarp(), "
                        "write, __syncwarp() (Listing 8), with every lane of the mask "
                        "reaching each __syncwarp()");
  }
}

void wl_rule_missing_syncwarp(wl_rule_ctx *ctx) {
  if (!ctx->an)
    return;
  const wl_smem *sm = wl_an_smem(ctx->an);
  for (size_t i = 0; i < wl_smem_nexhausted(sm); i++) {
    const wl_func *f = wl_smem_exhausted_at(sm, i);
    char msg[512];
    snprintf(msg, sizeof msg,
             "missing-syncwarp: the shared-memory analysis of '%s' stopped at its work budget; "
             "races past that point are not reported",
             f->name ? f->name : "");
    wl_findings_add_notice(ctx->out, wl_rule_shown_path(ctx, f->loc), f->loc.line, f->loc.col, msg);
  }
  size_t n = wl_smem_nraces(sm);
  race_index x;
  index_races(&x, sm);
  /* one finding per statement: one barrier fixes every pair in it; the
   * instantiations of a template (WarpScan<5>::Iterate<1, 32>, <2, 32>, ...)
   * are statements of their own at one place of the source, which is the key */
  wl_hmap done;
  wl_hmap_init(&done, true);
  wl_vec keys = {0};
  for (size_t i = 0; i < n; i++) {
    const wl_smem_race *r = wl_smem_race_at(sm, i);
    char key[64];
    const wl_stmt *ks = r->second.stmt;
    const wl_expr *site = r->second.site;
    if (site) /* reported at the call of the helper: one finding per call */
      snprintf(key, sizeof key, "c%p:%u", (const void *)site->range.begin.file,
               site->range.begin.offset);
    else
      snprintf(key, sizeof key, "%p:%u:%p", ks ? (const void *)ks->range.begin.file : NULL,
               ks ? ks->range.begin.offset : 0, ks && ks->range.begin.file ? NULL : key_of(ks));
    if (wl_hmap_get(&done, key))
      continue;
    char msg[700];
    describe(ctx, r, msg, sizeof msg);
    bool vol = r->second.is_volatile || r->first.is_volatile;
    char what[160];
    if (r->second.space == WL_MEM_SHARED)
      snprintf(what, sizeof what, "shared-memory race");
    else
      snprintf(what, sizeof what, "race through parameter '%s' (memory of a space not known here)",
               r->second.storage && r->second.storage->name ? r->second.storage->name : "?");
    wl_finding *fd = wl_report_expr(
        ctx, site ? site : r->second.expr, "%s between lanes of a warp: %s%s", what, msg,
        vol ? "; 'volatile' does not make this safe on sm_70 and later, where the lanes of a "
              "warp are scheduled independently"
            : "");
    if (!fd)
      continue;
    char *kept = wl_xstrdup(key);
    wl_vec_push(&keys, kept);
    wl_hmap_put(&done, kept, ENDS_YES, false);
    if (site)
      wl_note_at(ctx, fd, r->second.expr->loc, "the access, in '%s' called here",
                 r->second.func && r->second.func->name ? r->second.func->name : "the helper");
    wl_note_at(ctx, fd, r->first.site ? r->first.site->loc : r->first.expr->loc,
               "the other access (lane %d)", r->lane_first);
    if (r->first.site)
      wl_note_at(ctx, fd, r->first.expr->loc, "the other access, in '%s' called there",
                 r->first.func && r->first.func->name ? r->first.func->name : "the helper");
    if (site) /* the statement to fix is the caller's, which the analysis does not keep */
      wl_finding_add_note(fd, fd->file, fd->line, fd->col,
                          "no automatic fix for this shape: read into a local, __syncwarp(), "
                          "write, __syncwarp() (Listing 8), with every lane of the mask "
                          "reaching each __syncwarp()");
    else
      fix_statement(ctx, sm, &x, fd, r);
    if (r->call && r->call->loc.file && r->call != site)
      wl_note_at(ctx, fd, r->call->loc, "reached through this call in '%s'",
                 r->root && r->root->name ? r->root->name : "the kernel");
  }
  wl_hmap_free(&done);
  for (size_t i = 0; i < keys.n; i++)
    free(keys.v[i]);
  wl_vec_free(&keys);
  free_index(&x);
}
