/* legacy_intrinsic.c - rule legacy-intrinsic: calls of the pre-CUDA-9 warp
 * intrinsics without a mask, calls of user functions that take their names,
 * and inline PTX shfl/vote without .sync. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"

#define RULE "legacy-intrinsic"

typedef struct legacy_name {
  const char *name;
  const char *replacement;
  bool vote;
} legacy_name;

static const legacy_name legacy[] = {
    {"__shfl", "__shfl_sync", false},
    {"__shfl_up", "__shfl_up_sync", false},
    {"__shfl_down", "__shfl_down_sync", false},
    {"__shfl_xor", "__shfl_xor_sync", false},
    {"__ballot", "__ballot_sync", true},
    {"__any", "__any_sync", true},
    {"__all", "__all_sync", true},
};

static const legacy_name *find_legacy(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
    if (strcmp(legacy[i].name, name) == 0)
      return &legacy[i];
  return NULL;
}

static void report_call(wl_rule_ctx *ctx, const wl_expr *e, const legacy_name *ln) {
  wl_finding *fd;
  if (!e->callee_in_prelude && e->callee_usr && *e->callee_usr) {
    fd = wl_report_expr(ctx, RULE, e,
                        "call of '%s', a hand-made overload of a legacy warp intrinsic: since "
                        "CUDA 9 '%s(mask, ...)' takes double (and 64-bit integers) natively; call "
                        "it and delete the overload",
                        ln->name, ln->replacement);
    wl_note_at(ctx, fd, e->callee_decl, "'%s' is defined here", ln->name);
  } else if (ln->vote) {
    fd = wl_report_expr(ctx, RULE, e,
                        "legacy warp vote '%s' has no mask: use '%s(mask, ...)'; for sm_70+ nvcc "
                        "only warns that it is deprecated, then ptxas rejects 'vote' without "
                        "'.sync' (and CUDA 13 no longer accepts -arch=compute_60)",
                        ln->name, ln->replacement);
  } else {
    fd = wl_report_expr(ctx, RULE, e,
                        "legacy warp shuffle '%s' has no mask: use '%s(mask, ...)'; for sm_70+ "
                        "nvcc 13 fails with 'identifier \"%s\" is undefined' (and CUDA 13 no "
                        "longer accepts -arch=compute_60)",
                        ln->name, ln->replacement, ln->name);
  }
  (void)fd;
}

/* Finds PTX shfl/vote instructions without .sync in an asm template. */
static void check_asm(wl_rule_ctx *ctx, const wl_stmt *s) {
  const char *t = s->asm_text;
  if (!t)
    return;
  for (const char *p = t; *p; p++) {
    /* an instruction starts the text, or follows a separator or an escape such as \n\t */
    bool boundary = p == t || (p - t >= 2 && p[-2] == '\\') ||
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
    wl_report_range(ctx, RULE, r, s->macro,
                    "inline PTX '%s' without '.sync': ptxas rejects it for sm_70 and later; use "
                    "'%.4s.sync' with a member mask (or the %s intrinsic)",
                    insn, insn,
                    kw && insn[0] == 's' ? "__shfl*_sync" : "__ballot_sync/__any_sync/__all_sync");
    p += n > 0 ? n - 1 : 0;
  }
}

static bool visit_expr(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  wl_rule_ctx *ctx = ud;
  if (e->kind != WL_E_CALL)
    return true;
  const legacy_name *ln = find_legacy(e->name);
  if (!ln)
    return true;
  /* obj.__any(...) or a member function of that name is not the intrinsic */
  if (e->callee_is_method || (e->callee_expr && e->callee_expr->kind == WL_E_MEMBER))
    return true;
  report_call(ctx, e, ln);
  return true;
}

static bool visit_stmt(const wl_stmt *s, void *ud) {
  if (s->kind == WL_S_ASM)
    check_asm(ud, s);
  return true;
}

void wl_rule_legacy_intrinsic(wl_rule_ctx *ctx) {
  wl_visitor v = {visit_stmt, visit_expr, ctx, false};
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    wl_walk_stmt(f->body, &v);
    /* default arguments and member initializers are not walked: they hold no calls we report */
  }
}
