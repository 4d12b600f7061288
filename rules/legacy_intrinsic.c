/* legacy_intrinsic.c - rule legacy-intrinsic: calls of the pre-CUDA-9 warp
 * intrinsics without a mask, calls of user functions that take their names,
 * and inline PTX shfl/vote without .sync. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"
#include "builtins.h"
#include "lanes.h"
#include "mask_fix.h"
#include "rules.h"

/* A legacy warp intrinsic of the catalog (__shfl*, __ballot, __any, __all). */
static const wl_builtin *find_legacy(const char *name) {
  const wl_builtin *b = wl_builtin_find(name);
  return b && b->legacy ? b : NULL;
}

/* Whether the _sync forms take a value of these WL_T_* flags: every integer
 * and floating type; a struct such as uint4 only through a hand-made
 * overload. */
static bool sync_takes(unsigned t) {
  return (t & (WL_T_INTEGER | WL_T_FLOATING)) && !(t & (WL_T_POINTER | WL_T_ARRAY));
}

/* A user function with a legacy name for a struct (ccminer's `uint4
 * __shfl(const uint4, unsigned, unsigned)`): not the intrinsic, which took
 * no struct in CUDA 8 and takes none now, but a function of the user's that
 * CUDA 9+ builds as it is; the intrinsics its body calls are the findings
 * (and are fixed). A call is one of its calls when it resolves to a user
 * declaration whose value parameter (or, declared only, whose value
 * argument) is not arithmetic. */
static bool is_struct_overload(const wl_func *f) {
  if (f->nparams == 0)
    return false;
  unsigned t = f->params[0]->type;
  return !(t & (WL_T_DEPENDENT | WL_T_INVALID)) && !sync_takes(t);
}

static bool calls_struct_overload(const wl_expr *e) {
  if (e->callee_in_prelude || !e->callee_usr || !*e->callee_usr)
    return false;
  if (e->callee)
    return is_struct_overload(e->callee);
  if (e->nargs == 0 || !e->args[0])
    return false;
  unsigned t = e->args[0]->type;
  return !(t & (WL_T_DEPENDENT | WL_T_INVALID)) && !sync_takes(t);
}

/* The value type of a hand-made overload as written, without const,
 * volatile or a reference ("double", "long long"); "" when unknown. */
static void overload_type(const wl_func *f, char *out, size_t cap) {
  out[0] = '\0';
  const char *s = f && f->nparams > 0 ? f->params[0]->type_spelling : NULL;
  if (!s)
    return;
  for (;;) {
    if (strncmp(s, "const ", 6) == 0)
      s += 6;
    else if (strncmp(s, "volatile ", 9) == 0)
      s += 9;
    else
      break;
  }
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == '&' || s[n - 1] == ' '))
    n--;
  if (n >= 6 && strncmp(s + n - 6, " const", 6) == 0)
    n -= 6;
  snprintf(out, cap, "%.*s", (int)n, s);
}

/* Whether call e lies in a hand-made overload of a legacy name all of whose
 * calls get a fix: --fix rewrites them to the _sync form, after which nothing
 * calls the overload, so the full mask cannot be wrong for the calls inside it
 * (and a second --fix finds nothing new to do). */
static bool in_overload_fixed_away(wl_mask_fixer *mf, const wl_expr *e) {
  const wl_lanes *l = wl_an_lanes(mf->ctx->an);
  const wl_func *f = l ? wl_lanes_func_of_expr(l, e) : NULL;
  if (!f || !f->name || !find_legacy(f->name) || (f->flags & (WL_F_METHOD | WL_F_LAMBDA)))
    return false;
  const wl_expr *const *calls;
  size_t n = wl_lanes_calls_of(l, f, &calls);
  if (n == 0)
    return false;
  for (size_t i = 0; i < n; i++) {
    const wl_expr *c = calls[i];
    if (c->kind != WL_E_CALL || !c->name || strcmp(c->name, f->name) != 0 || c->macro ||
        wl_lanes_func_of_expr(l, c) == f)
      return false;
    char mask[64];
    const wl_stmt *at = NULL;
    char *hoist = NULL;
    const char *why = NULL;
    wl_mask_choice ch = wl_choose_mask(mf, c, mask, sizeof mask, &at, &hoist, &why);
    free(hoist);
    if (ch == WL_MASK_NONE)
      return false;
  }
  return true;
}

/* The fix: `__shfl_down(v, d)` becomes `__shfl_down_sync(MASK, v, d)` with the
 * mask the lane analysis proves right (mask_fix.c); otherwise a suggestion. */
static bool fix_call(wl_mask_fixer *mf, wl_finding *fd, const wl_expr *e, const wl_builtin *ln) {
  wl_rule_ctx *ctx = mf->ctx;
  const wl_tu *tu = ctx->tu;
  const char *why = NULL;
  size_t nl = strlen(ln->name);
  /* a call written in a macro's definition is fixed there, when the
   * definition is the file reported on (every expansion must then agree on
   * the fix: diag.c drops a fix that the expansions disagree on) */
  bool in_def = e->macro && e->macro->spelling.file && wl_tu_in_main(tu, e->macro->spelling);
  wl_loc loc = in_def ? e->macro->spelling : e->loc;
  size_t at = loc.offset, paren = at + nl;
  while (paren < tu->source_len && (tu->source[paren] == ' ' || tu->source[paren] == '\t'))
    paren++;
  char mask[64] = "mask";
  const wl_stmt *hoist_before = NULL;
  char *hoist = NULL;
  wl_mask_choice c = WL_MASK_NONE;
  if (e->macro && !in_def)
    why = "the call comes from a macro";
  else if (!wl_tu_in_main(tu, loc) || at + nl > tu->source_len ||
           strncmp(tu->source + at, ln->name, nl) != 0 || paren >= tu->source_len ||
           tu->source[paren] != '(')
    why = "the call is not spelled plainly in this file";
  else {
    mf->no_hoist = in_def; /* a mask computed before a branch would go at the expansion */
    c = wl_choose_mask(mf, e, mask, sizeof mask, &hoist_before, &hoist, &why);
    mf->no_hoist = false;
    if (c == WL_MASK_NONE && in_overload_fixed_away(mf, e)) {
      snprintf(mask, sizeof mask, "0xffffffff");
      snprintf(mf->tail_note, sizeof mf->tail_note,
               "full mask: every call of this hand-made overload is rewritten to the _sync form "
               "by --fix, after which nothing calls it");
      c = WL_MASK_FULL_NOTED;
      why = NULL;
    }
  }
  if (c != WL_MASK_NONE) {
    wl_range name = {loc, loc}, open = {loc, loc};
    name.end.offset = (unsigned)(at + nl);
    name.end.col = loc.col + (unsigned)nl;
    open.begin.offset = open.end.offset = (unsigned)(paren + 1);
    char repl[64], ins[80];
    snprintf(repl, sizeof repl, "%s", ln->replacement);
    snprintf(ins, sizeof ins, "%s, ", mask);
    bool ok = (!hoist || wl_fix_insert_before(ctx, fd, hoist_before, hoist)) &&
              wl_fix_replace(ctx, fd, name, repl) && wl_fix_replace(ctx, fd, open, ins);
    if (!ok) {
      wl_fix_clear(fd);
      why = "the parser reported errors where the edit would go";
    } else if (c == WL_MASK_FULL_NOTED && fd)
      wl_finding_add_note(fd, fd->file, fd->line, fd->col, mf->tail_note);
  }
  free(hoist);
  if (why && fd) {
    wl_buf b;
    wl_buf_init(&b);
    wl_buf_printf(&b,
                  "unsigned mask = __ballot_sync(0xffffffff, <condition under which lanes get "
                  "here>); // before the branch\n%s(mask, ...)",
                  ln->replacement);
    fd->suggestion = wl_buf_detach(&b);
    char note[256];
    snprintf(note, sizeof note,
             "no automatic fix: %s; compute the mask before the branch (see --explain %s)", why,
             ctx->rule->id);
    wl_finding_add_note(fd, fd->file, fd->line, fd->col, note); /* once for all expansions */
  }
  return fd && fd->nedits > 0;
}

static bool report_call(wl_mask_fixer *mf, const wl_expr *e, const wl_builtin *ln) {
  wl_rule_ctx *ctx = mf->ctx;
  wl_finding *fd;
  if (!e->callee_in_prelude && e->callee_usr && *e->callee_usr) {
    char ty[64];
    overload_type(e->callee, ty, sizeof ty);
    if (ty[0])
      fd = wl_report_expr(ctx, e,
                          "call of '%s', a hand-made %s overload of a legacy warp intrinsic: "
                          "since CUDA 9 '%s(mask, ...)' takes %s itself; call it and delete the "
                          "overload",
                          ln->name, ty, ln->replacement, ty);
    else
      fd = wl_report_expr(ctx, e,
                          "call of '%s', a hand-made overload of a legacy warp intrinsic: since "
                          "CUDA 9 '%s(mask, ...)' takes every integer and floating type itself; "
                          "call it and delete the overload",
                          ln->name, ln->replacement);
    wl_note_at(ctx, fd, e->callee_decl, "'%s' is defined here", ln->name);
  } else if (ln->kind == WL_BK_VOTE) {
    fd = wl_report_expr(ctx, e,
                        "legacy warp vote '%s' has no mask: use '%s(mask, ...)'; for sm_70+ nvcc "
                        "only warns that it is deprecated, then ptxas rejects 'vote' without "
                        "'.sync' (and CUDA 13 no longer accepts -arch=compute_60)",
                        ln->name, ln->replacement);
  } else {
    fd = wl_report_expr(ctx, e,
                        "legacy warp shuffle '%s' has no mask: use '%s(mask, ...)'; for sm_70+ "
                        "nvcc 13 fails with 'identifier \"%s\" is undefined' (and CUDA 13 no "
                        "longer accepts -arch=compute_60)",
                        ln->name, ln->replacement, ln->name);
  }
  return fd && fix_call(mf, fd, e, ln);
}

/* Finds PTX shfl/vote instructions without .sync in an asm template. */
static void check_asm(wl_rule_ctx *ctx, const wl_stmt *s) {
  const char *t = s->asm_text;
  if (!t)
    return;
  for (const char *p = t; *p; p++) {
    /* an instruction starts the text, or follows a separator or an escape such as \n\t */
    bool boundary =
        p == t || (p - t >= 2 && p[-2] == '\\') ||
        !(isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.' || p[-1] == '%');
    if (!boundary)
      continue;
    size_t kw = strncmp(p, "shfl.", 5) == 0 ? 4 : strncmp(p, "vote.", 5) == 0 ? 4 : 0;
    if (!kw)
      continue;
    size_t n = 0;
    while (p[n] && !isspace((unsigned char)p[n]) && p[n] != ';' && p[n] != '\\')
      n++;
    char insn[64];
    snprintf(insn, sizeof insn, "%.*s", (int)(n < 63 ? n : 63), p);
    if (strstr(insn, ".sync"))
      continue;
    wl_range r = s->asm_range.begin.file ? s->asm_range : s->range;
    for (unsigned k = 0; k < s->nasm_pieces; k++) /* the string literal holding the instruction */
      if (s->asm_piece_start[k] <= (unsigned)(p - t))
        r = s->asm_pieces[k];
    wl_report_range(ctx, r, s->macro,
                    "inline PTX '%s' without '.sync': ptxas rejects it for sm_70 and later; use "
                    "'%.4s.sync' with a member mask (or the %s intrinsic)",
                    insn, insn,
                    kw && insn[0] == 's' ? "__shfl*_sync" : "__ballot_sync/__any_sync/__all_sync");
    p += n > 0 ? n - 1 : 0;
  }
}

typedef struct li_state {
  wl_mask_fixer *mf;
  wl_vec unfixed_callees;    /* user functions with a legacy name that have a call left unfixed */
  wl_vec unfixed_unresolved; /* names of unfixed legacy-named calls clang did not resolve */
  wl_vec overload_calls;     /* calls resolved to a user overload of a legacy name */
} li_state;

/* A call node resolved to a user overload; an unresolved node of the same
 * call (the lowering may give one call two nodes) is then not the intrinsic. */
static bool collect_overload_call(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  li_state *st = ud;
  if (e->kind == WL_E_CALL && e->callee && !e->callee_in_prelude && find_legacy(e->name))
    wl_vec_push(&st->overload_calls, (void *)e);
  return true;
}

static bool is_overload_call_site(const li_state *st, const wl_expr *e) {
  for (size_t i = 0; i < st->overload_calls.n; i++) {
    const wl_expr *o = st->overload_calls.v[i];
    if (o != e && o->loc.offset == e->loc.offset && o->loc.file && e->loc.file &&
        strcmp(o->loc.file, e->loc.file) == 0)
      return true;
  }
  return false;
}

static bool visit_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  li_state *st = ud;
  if (e->kind != WL_E_CALL)
    return true;
  const wl_builtin *ln = find_legacy(e->name);
  if (!ln)
    return true;
  /* obj.__any(...) or a member function of that name is not the intrinsic */
  if (e->callee_is_method || (e->callee_expr && e->callee_expr->kind == WL_E_MEMBER))
    return true;
  if (!e->callee && is_overload_call_site(st, e))
    return true;
  if (calls_struct_overload(e))
    return true;
  if (!report_call(st->mf, e, ln)) {
    if (e->callee)
      wl_vec_push(&st->unfixed_callees, e->callee);
    else /* an ambiguous call may be one of the overload's: keep the overload */
      wl_vec_push(&st->unfixed_unresolved, (void *)e->name);
  }
  return true;
}

static bool visit_stmt(const wl_stmt *s, void *ud) {
  if (s->kind == WL_S_ASM)
    check_asm(((li_state *)ud)->mf->ctx, s);
  return true;
}

/* Full lines [first, last] holding the range when nothing else shares them. */
static bool whole_lines(const wl_tu *tu, wl_range r, wl_range *out) {
  size_t b = r.begin.offset, e = r.end.offset;
  if (e > tu->source_len || b > e)
    return false;
  while (b > 0 && (tu->source[b - 1] == ' ' || tu->source[b - 1] == '\t'))
    b--;
  if (b > 0 && tu->source[b - 1] != '\n')
    return false;
  while (e < tu->source_len &&
         (tu->source[e] == ' ' || tu->source[e] == '\t' || tu->source[e] == '\r'))
    e++;
  if (e < tu->source_len && tu->source[e] != '\n')
    return false;
  if (e < tu->source_len)
    e++;
  *out = r;
  out->begin.offset = (unsigned)b;
  out->end.offset = (unsigned)e;
  return true;
}

/* A user definition of a legacy name for an arithmetic type (the hand-made
 * double overload): CUDA 9+ headers define these names themselves for the
 * built-in types, so nvcc rejects one such as `double __shfl_down(double,
 * unsigned, int)` as a redefinition, and the _sync forms take every integer
 * and floating type. Overloads for structs are the user's own functions
 * (is_struct_overload) and are not reported. */
static void report_definition(li_state *st, const wl_func *f, const wl_builtin *ln) {
  wl_rule_ctx *ctx = st->mf->ctx;
  if (is_struct_overload(f))
    return;
  char ty[64];
  overload_type(f, ty, sizeof ty);
  wl_range at = {f->loc, f->loc};
  wl_finding *fd;
  if (ty[0])
    fd = wl_report_range(ctx, at, NULL,
                         "'%s' defined here: a hand-made %s overload of a legacy warp intrinsic, "
                         "which nvcc 9+ rejects as a redefinition where its headers define the "
                         "same one (they define the legacy names for the built-in types); "
                         "'%s(mask, ...)' takes %s itself: delete this overload and call it",
                         ln->name, ty, ln->replacement, ty);
  else
    fd = wl_report_range(ctx, at, NULL,
                         "'%s' defined here: a hand-made overload of a legacy warp intrinsic, "
                         "which nvcc 9+ rejects as a redefinition where its headers define the "
                         "same one (they define the legacy names for the built-in types); "
                         "'%s(mask, ...)' takes every integer and floating type itself: delete "
                         "this overload and call it",
                         ln->name, ln->replacement);
  if (!fd)
    return;
  bool unfixed = false;
  for (size_t i = 0; i < st->unfixed_callees.n; i++)
    unfixed = unfixed || st->unfixed_callees.v[i] == f;
  for (size_t i = 0; i < st->unfixed_unresolved.n; i++)
    unfixed = unfixed || strcmp((const char *)st->unfixed_unresolved.v[i], f->name) == 0;
  wl_range del;
  if (unfixed)
    wl_note_at(ctx, fd, f->loc,
               "no automatic fix: some calls of it could not be fixed automatically");
  else if (!whole_lines(ctx->tu, f->range, &del) || !wl_fix_replace(ctx, fd, del, ""))
    wl_note_at(ctx, fd, f->loc,
               "no automatic fix: the definition shares its lines with other code");
}

void wl_rule_legacy_intrinsic(wl_rule_ctx *ctx) {
  li_state *st = wl_xcalloc(1, sizeof *st);
  st->mf = wl_mask_fixer_of(ctx);
  wl_visitor pre = {NULL, collect_overload_call, st, false};
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++)
    wl_walk_stmt(ctx->tu->funcs[i]->body, &pre);
  wl_visitor v = {visit_stmt, visit_expr, st, false};
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    wl_walk_stmt(f->body, &v);
    /* default arguments and member initializers are not walked: they hold no calls we report */
  }
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    const wl_builtin *ln = find_legacy(f->name);
    if (ln && !(f->flags & (WL_F_METHOD | WL_F_LAMBDA)) && f->body)
      report_definition(st, f, ln);
  }
  wl_vec_free(&st->unfixed_callees);
  wl_vec_free(&st->unfixed_unresolved);
  wl_vec_free(&st->overload_calls);
  free(st);
}
