/* emit_text.c - clang-style text output: the diagnostic line, the source
 * line with its caret and tildes, notes and suggested replacements, in
 * clang's colours when asked for. Nothing else goes to the stream. */
#include <stdio.h>
#include <string.h>

#include "emit.h"

/* clang's TextDiagnostic scheme */
#define C_RESET "\033[0m"
#define C_BOLD "\033[1m"
#define C_WARNING "\033[0;1;35m" /* bold magenta */
#define C_ERROR "\033[0;1;31m"   /* bold red */
#define C_NOTE "\033[0;1;36m"    /* bold cyan */
#define C_CARET "\033[0;1;32m"   /* bold green */
#define C_FIXIT "\033[0;32m"     /* green */

static const char *severity_color(wl_severity s) {
  switch (s) {
  case WL_SEV_NOTE: return C_NOTE;
  case WL_SEV_WARNING: return C_WARNING;
  case WL_SEV_ERROR: return C_ERROR;
  }
  return C_WARNING;
}

static bool utf8_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

/* "path:line:col: sev: message[ [rule]]" */
static void head(FILE *out, bool color, const char *file, unsigned line, unsigned col,
                 wl_severity sev, const char *message, const char *rule) {
  if (color)
    fputs(C_BOLD, out);
  if (line > 0)
    fprintf(out, "%s:%u:%u: ", file, line, col);
  else
    fprintf(out, "%s: ", file);
  if (color)
    fprintf(out, C_RESET "%s", severity_color(sev));
  fprintf(out, "%s: ", wl_severity_name(sev));
  if (color)
    fputs(C_RESET C_BOLD, out);
  fputs(message, out);
  if (rule)
    fprintf(out, " [%s]", rule);
  if (color)
    fputs(C_RESET, out);
  fputc('\n', out);
}

/* The source line as is, then '^' under col and '~' to end_col-1 when the
 * range ends on the same line. Tabs before the caret are kept so that the
 * caret lines up however the terminal expands them; UTF-8 continuation
 * bytes take no column. */
static void snippet(FILE *out, bool color, const wl_finding *fd) {
  const char *lt = fd->line_text ? fd->line_text : "";
  size_t len = strlen(lt);
  if (len == 0 || fd->col == 0)
    return;
  fputs(lt, out);
  fputc('\n', out);
  size_t c0 = fd->col - 1;
  for (size_t i = 0; i < c0; i++) {
    if (i < len && lt[i] == '\t')
      fputc('\t', out);
    else if (!(i < len && utf8_continuation(lt[i])))
      fputc(' ', out);
  }
  if (color)
    fputs(C_CARET, out);
  fputc('^', out);
  if (fd->end_line == fd->line && fd->end_col > fd->col + 1) {
    size_t end = fd->end_col - 1; /* one past the last flagged byte, 0-based */
    if (end > len)
      end = len;
    for (size_t i = c0 + 1; i < end; i++)
      if (!utf8_continuation(lt[i]))
        fputc('~', out);
  }
  if (color)
    fputs(C_RESET, out);
  fputc('\n', out);
}

static void suggestion(FILE *out, bool color, const char *s) {
  if (color)
    fputs(C_NOTE, out);
  fputs("note: ", out);
  if (color)
    fputs(C_RESET C_BOLD, out);
  fputs("suggested replacement:", out);
  if (color)
    fputs(C_RESET, out);
  fputc('\n', out);
  while (*s) {
    size_t n = strcspn(s, "\n");
    fputs("    ", out);
    if (color)
      fputs(C_FIXIT, out);
    fwrite(s, 1, n, out);
    if (color)
      fputs(C_RESET, out);
    fputc('\n', out);
    s += n;
    if (*s == '\n')
      s++;
  }
}

int wl_emit_text(FILE *out, const wl_findings *f, const wl_emit_info *info) {
  bool color = info && info->color;
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    head(out, color, fd->file, fd->line, fd->col, fd->severity, fd->message, fd->rule);
    snippet(out, color, fd);
    for (size_t k = 0; k < fd->nnotes; k++) {
      const wl_note *n = &fd->notes[k];
      head(out, color, n->file, n->line, n->col, WL_SEV_NOTE, n->message, NULL);
    }
    if (fd->suggestion && *fd->suggestion)
      suggestion(out, color, fd->suggestion);
  }
  if (fflush(out) != 0 || ferror(out))
    return -1;
  return 0;
}
