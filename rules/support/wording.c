/* wording.c - phrases the rules' messages share (wording.h). */
#include "wording.h"

#include <stdio.h>
#include <string.h>

void wl_wording_lanes(unsigned set, char *buf, size_t size) {
  size_t o = 0;
  buf[0] = '\0';
  for (unsigned i = 0; i < 32 && o + 12 < size; i++) {
    if (!(set & (1u << i)))
      continue;
    unsigned j = i;
    while (j + 1 < 32 && (set & (1u << (j + 1))))
      j++;
    int n = j > i ? snprintf(buf + o, size - o, "%s%u-%u", o ? ", " : "", i, j)
                  : snprintf(buf + o, size - o, "%s%u", o ? ", " : "", i);
    o += n > 0 ? (size_t)n : 0;
    i = j;
  }
}

const char *wl_wording_call_name(const wl_expr *call) {
  if (call->name && strcmp(call->name, "operator()") == 0 && call->nargs >= 1) {
    const wl_expr *o = wl_expr_strip(call->args[0]);
    if (o && o->kind == WL_E_REF && o->name)
      return o->name;
  }
  return call->name ? call->name : "?";
}

wl_range wl_wording_site(const wl_tu *tu, const wl_expr *e, const wl_macro_info **macro) {
  wl_range r = e->range;
  *macro = e->macro;
  if (e->kind == WL_E_CALL && e->loc.file)
    r.begin = e->loc;
  if (e->macro && e->macro->name && wl_tu_in_main(tu, e->macro->expansion)) {
    r.begin = r.end = e->macro->expansion;
    *macro = NULL;
  }
  return r;
}

/* The source text of a main-file expression, shortened to fit. */
static void expr_text(const wl_tu *tu, const wl_expr *e, char *buf, size_t size) {
  buf[0] = '\0';
  if (!e || !wl_tu_in_main(tu, e->range.begin) || !wl_tu_in_main(tu, e->range.end) ||
      e->range.end.offset <= e->range.begin.offset || e->range.end.offset > tu->source_len)
    return;
  size_t n = e->range.end.offset - e->range.begin.offset, o = 0;
  const char *t = tu->source + e->range.begin.offset;
  for (size_t i = 0; i < n && o + 4 < size; i++) {
    char ch = t[i] == '\n' || t[i] == '\t' || t[i] == '\r' ? ' ' : t[i];
    if (ch == ' ' && o > 0 && buf[o - 1] == ' ')
      continue;
    buf[o++] = ch;
  }
  if (o + 4 >= size && n > o)
    memcpy(buf + o, "...", 3), o += 3;
  buf[o] = '\0';
}

void wl_wording_reach(const wl_tu *tu, const wl_lane_reach *r, char *buf, size_t size) {
  char cond[72];
  expr_text(tu, r->cond, cond, sizeof cond);
  unsigned line = r->cond ? r->cond->range.begin.line : r->stmt ? r->stmt->range.begin.line : 0;
  const char *what = "condition";
  switch (r->kind) {
  case WL_LR_LOOP:
    snprintf(buf, size, "in a loop whose trip count is lane-dependent%s%s%s (line %u)",
             *cond ? " ('" : "", cond, *cond ? "')" : "", line);
    return;
  case WL_LR_SWITCH: what = "switch"; break;
  case WL_LR_EXIT: {
    wl_stmt_kind ek = r->exit ? r->exit->kind : WL_S_RETURN;
    const char *k = ek == WL_S_BREAK      ? "break"
                    : ek == WL_S_CONTINUE ? "continue"
                    : ek == WL_S_GOTO     ? "goto"
                                          : "return";
    unsigned el = r->exit ? r->exit->range.begin.line : 0;
    if (*cond)
      snprintf(buf, size, "after the '%s' at line %u that the lanes where '%s' %s take", k, el,
               cond,
               r->side == 0   ? "holds"
               : r->side == 1 ? "does not hold"
                              : "varies");
    else
      snprintf(buf, size, "after the '%s' at line %u that only some lanes take", k, el);
    return;
  }
  case WL_LR_SELECT: what = "?: condition"; break;
  case WL_LR_LOGICAL: what = "&&/|| operand"; break;
  default: break;
  }
  if (*cond)
    snprintf(buf, size, "under the lane-dependent %s '%s' (line %u)", what, cond, line);
  else
    snprintf(buf, size, "under a lane-dependent %s (line %u)", what, line);
}
