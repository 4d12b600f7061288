/* reporting.c - how a rule reports (rules.h): findings placed in the main
 * file under the running rule's id, notes, fix edits, source text. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rules.h"

void wl_rule_ctx_free(wl_rule_ctx *ctx) {
  free(ctx->fixer); /* plain data, see mask_fix.h */
  ctx->fixer = NULL;
}

static void line_bounds(const wl_tu *tu, unsigned offset, size_t *b, size_t *e) {
  size_t s = offset < tu->source_len ? offset : tu->source_len;
  while (s > 0 && tu->source[s - 1] != '\n')
    s--;
  size_t t = s;
  while (t < tu->source_len && tu->source[t] != '\n' && tu->source[t] != '\r')
    t++;
  *b = s, *e = t;
}

/* The path a finding or note at `loc` carries: the file being reported on,
 * the main file, a reported header, else the file as clang names it. */
const char *wl_rule_shown_path(const wl_rule_ctx *ctx, wl_loc loc) {
  return wl_tu_in_main(ctx->tu, loc) ? ctx->display_path : wl_tu_shown_path(ctx->tu, loc);
}

/* Whether findings at loc are reported when its own file is (the main file
 * or a reported header), loc not being in the file reported on now. */
static bool reported_elsewhere(const wl_tu *tu, wl_loc loc) {
  if (!loc.file || wl_tu_in_main(tu, loc))
    return false;
  if (tu->main_path && (loc.file == tu->main_path || strcmp(loc.file, tu->main_path) == 0))
    return true;
  const wl_tu_file *tf = wl_tu_file_of(tu, loc);
  return tf && tf->report;
}

static wl_finding *report(wl_rule_ctx *ctx, wl_range r, const wl_macro_info *macro,
                          const char *msg) {
  const wl_tu *tu = ctx->tu;
  wl_loc at = r.begin, end = r.end;
  bool note_expansion = false;
  if (macro) {
    if (macro->spelling.file && wl_tu_in_main(tu, macro->spelling)) {
      at = macro->spelling;
      end = at;
      note_expansion = true;
    } else if (reported_elsewhere(tu, macro->spelling)) {
      return NULL; /* reported once, at the macro's definition */
    } else {
      at = macro->expansion;
      end = at;
    }
  }
  if (!at.file || !wl_tu_in_main(tu, at))
    return NULL;
  if (!end.file || end.line < at.line || (end.line == at.line && end.col <= at.col) ||
      !wl_tu_in_main(tu, end))
    end = at, end.col = at.col + 1;
  const wl_rule *ru = ctx->rule;
  wl_finding *fd = wl_findings_add(ctx->out, ru->id, ru->severity, ctx->display_path, at.line,
                                   at.col, end.line, end.col, msg);
  fd->offset = at.offset;
  size_t lb, le;
  line_bounds(tu, at.offset, &lb, &le);
  wl_finding_set_line_text(fd, tu->source + lb, le - lb);
  if (note_expansion && macro->expansion.file &&
      (wl_tu_in_main(tu, macro->expansion) || reported_elsewhere(tu, macro->expansion))) {
    char buf[256];
    snprintf(buf, sizeof buf, "expanded from macro '%s' here", macro->name ? macro->name : "?");
    wl_finding_add_note(fd, wl_rule_shown_path(ctx, macro->expansion), macro->expansion.line,
                        macro->expansion.col, buf);
  } else if (macro && !note_expansion && macro->spelling.file) {
    char buf[512];
    snprintf(buf, sizeof buf, "in the expansion of macro '%s' defined in %s:%u",
             macro->name ? macro->name : "?", wl_rule_shown_path(ctx, macro->spelling),
             macro->spelling.line);
    wl_finding_add_note(fd, ctx->display_path, at.line, at.col, buf);
  }
  return fd;
}

__attribute__((format(printf, 4, 0))) static wl_finding *
vreport(wl_rule_ctx *ctx, wl_range r, const wl_macro_info *macro, const char *fmt, va_list ap) {
  wl_buf b;
  wl_buf_init(&b);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n > 0) {
    char *s = wl_xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap2);
    wl_buf_puts(&b, s);
    free(s);
  }
  va_end(ap2);
  wl_finding *fd = report(ctx, r, macro, wl_buf_str(&b));
  wl_buf_free(&b);
  return fd;
}

wl_finding *wl_report_expr(wl_rule_ctx *ctx, const wl_expr *e, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wl_range r = e->range;
  if (e->kind == WL_E_CALL && e->loc.file)
    r.begin = e->loc;
  wl_finding *fd = vreport(ctx, r, e->macro, fmt, ap);
  va_end(ap);
  return fd;
}

wl_finding *wl_report_range(wl_rule_ctx *ctx, wl_range r, const wl_macro_info *macro,
                            const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  wl_finding *fd = vreport(ctx, r, macro, fmt, ap);
  va_end(ap);
  return fd;
}

void wl_note_at(const wl_rule_ctx *ctx, wl_finding *fd, wl_loc loc, const char *fmt, ...) {
  if (!fd || !loc.file)
    return;
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  /* notes in the file reported on carry its display path; others their own */
  wl_finding_add_note(fd, wl_rule_shown_path(ctx, loc), loc.line, loc.col, buf);
}

const char *wl_source_text(const wl_rule_ctx *ctx, wl_range r) {
  const wl_tu *tu = ctx->tu;
  if (!wl_tu_in_main(tu, r.begin) || !wl_tu_in_main(tu, r.end) || r.end.offset < r.begin.offset ||
      r.end.offset > tu->source_len)
    return NULL;
  return wl_arena_strndup((wl_arena *)&tu->arena, tu->source + r.begin.offset,
                          r.end.offset - r.begin.offset);
}

bool wl_fix_replace(wl_rule_ctx *ctx, wl_finding *fd, wl_range r, const char *text) {
  const wl_tu *tu = ctx->tu;
  if (!fd || !wl_tu_in_main(tu, r.begin) || !wl_tu_in_main(tu, r.end) ||
      r.end.offset < r.begin.offset || r.end.offset > tu->source_len)
    return false;
  for (unsigned i = 0; i < tu->ndiags; i++) {
    const wl_parse_diag *d = &tu->diags[i];
    if (d->loc.file && wl_tu_in_main(tu, d->loc) && d->loc.line + 1 >= r.begin.line &&
        d->loc.line <= r.end.line + 1)
      return false;
  }
  wl_finding_add_edit(fd, ctx->display_path, r.begin.offset, r.end.offset - r.begin.offset, text);
  return true;
}

/* The leading blanks of the line holding offset: [*start, *start + *len). */
static void line_indent(const wl_tu *tu, size_t offset, size_t *start, size_t *len) {
  size_t ls = offset;
  while (ls > 0 && tu->source[ls - 1] != '\n')
    ls--;
  size_t e = ls;
  while (e < tu->source_len && (tu->source[e] == ' ' || tu->source[e] == '\t'))
    e++;
  *start = ls;
  *len = e - ls;
}

/* One indentation level of the file around the line starting at ls with
 * indentation ind (length il): what ind adds to the nearest earlier
 * non-blank line whose indentation is a proper prefix of it; else the
 * indentation of the file's first indented line; else two spaces. */
static void indent_unit(const wl_tu *tu, size_t ls, size_t il, wl_buf *unit) {
  const char *src = tu->source;
  size_t scanned = 0;
  for (size_t p = ls; p > 0 && scanned < 400; scanned++) {
    size_t e = p - 1, b = e; /* the previous line is [b, e) */
    while (b > 0 && src[b - 1] != '\n')
      b--;
    p = b;
    size_t k = b;
    while (k < e && (src[k] == ' ' || src[k] == '\t'))
      k++;
    if (k == e || (k < e && (src[k] == '\r' || src[k] == '#')))
      continue; /* blank, or a preprocessor line */
    size_t pl = k - b;
    if (pl < il && memcmp(src + b, src + ls, pl) == 0) {
      wl_buf_add(unit, src + ls + pl, il - pl);
      return;
    }
  }
  for (size_t p = 0; p < tu->source_len;) {
    size_t k = p;
    while (k < tu->source_len && (src[k] == ' ' || src[k] == '\t'))
      k++;
    if (k > p && k < tu->source_len && src[k] != '\n' && src[k] != '\r') {
      wl_buf_add(unit, src + p, k - p);
      return;
    }
    while (k < tu->source_len && src[k] != '\n')
      k++;
    p = k + 1;
  }
  wl_buf_add(unit, "  ", 2);
}

bool wl_fix_replace_block(wl_rule_ctx *ctx, wl_finding *fd, wl_range r, const char *const *stmts,
                          size_t n) {
  const wl_tu *tu = ctx->tu;
  if (r.begin.offset > tu->source_len)
    return false;
  size_t ls, il;
  line_indent(tu, r.begin.offset, &ls, &il);
  size_t eol = r.begin.offset;
  while (eol < tu->source_len && tu->source[eol] != '\n')
    eol++;
  const char *nl = eol > 0 && eol < tu->source_len && tu->source[eol - 1] == '\r' ? "\r\n" : "\n";
  wl_buf unit, t;
  wl_buf_init(&unit);
  wl_buf_init(&t);
  indent_unit(tu, ls, il, &unit);
  wl_buf_printf(&t, "{%s", nl);
  for (size_t i = 0; i < n; i++) {
    wl_buf_add(&t, tu->source + ls, il);
    wl_buf_printf(&t, "%s%s%s", wl_buf_str(&unit), stmts[i], nl);
  }
  wl_buf_add(&t, tu->source + ls, il);
  wl_buf_add(&t, "}", 1);
  bool ok = wl_fix_replace(ctx, fd, r, wl_buf_str(&t));
  wl_buf_free(&unit);
  wl_buf_free(&t);
  return ok;
}

static bool is_ident_char(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

bool wl_fix_insert_before(wl_rule_ctx *ctx, wl_finding *fd, const wl_stmt *s, const char *text) {
  const wl_tu *tu = ctx->tu;
  if (!s->range.begin.file || !wl_tu_in_main(tu, s->range.begin) || s->macro ||
      s->range.begin.offset > tu->source_len)
    return false;
  size_t b = s->range.begin.offset, ls = b;
  while (ls > 0 && tu->source[ls - 1] != '\n')
    ls--;
  bool starts_line = true;
  for (size_t i = ls; i < b; i++)
    starts_line = starts_line && (tu->source[i] == ' ' || tu->source[i] == '\t');
  /* the same statement just before the insertion point (a fix applied by an
   * earlier run): inserting it again changes nothing but the text, and a
   * second --fix must change nothing */
  size_t tl = strlen(text), prev = starts_line ? ls : b;
  while (prev > 0 && (tu->source[prev - 1] == ' ' || tu->source[prev - 1] == '\t' ||
                      tu->source[prev - 1] == '\n' || tu->source[prev - 1] == '\r'))
    prev--;
  if (tl > 0 && prev >= tl && memcmp(tu->source + prev - tl, text, tl) == 0 &&
      (prev == tl || !is_ident_char(tu->source[prev - tl - 1])))
    return false;
  wl_range at = s->range;
  at.end = at.begin;
  wl_buf t;
  wl_buf_init(&t);
  if (starts_line) {
    size_t eol = b;
    while (eol < tu->source_len && tu->source[eol] != '\n')
      eol++;
    bool crlf = eol > 0 && eol < tu->source_len && tu->source[eol - 1] == '\r';
    wl_buf_add(&t, tu->source + ls, b - ls);
    wl_buf_printf(&t, "%s%s", text, crlf ? "\r\n" : "\n");
    at.begin.offset = at.end.offset = (unsigned)ls;
    at.begin.col = at.end.col = 1;
  } else {
    wl_buf_printf(&t, "%s ", text);
  }
  bool ok = wl_fix_replace(ctx, fd, at, wl_buf_str(&t));
  wl_buf_free(&t);
  return ok;
}

void wl_fix_clear(wl_finding *fd) {
  for (size_t i = 0; i < fd->nedits; i++) {
    free(fd->edits[i].file);
    free(fd->edits[i].text);
  }
  free(fd->edits);
  fd->edits = NULL;
  fd->nedits = 0;
}
