/* instances.c - instantiation scanning: the function-template
 * instantiations a file uses (calls and launches seen while lowering, and
 * explicit instantiations read from its text), given to each template as
 * its wl_tinst list (see lower.h). */
#include "lower.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void inst_note_instantiation(lower_ctx *L, CXCursor spec, CXCursor tmpl) {
  int n = clang_Cursor_getNumTemplateArguments(spec);
  if (n <= 0 || clang_Cursor_isNull(tmpl) || clang_getCursorKind(tmpl) != CXCursor_FunctionTemplate)
    return;
  seen_inst *si = wl_arena_alloc(A(L), sizeof *si);
  memset(si, 0, sizeof *si);
  si->usr = lower_take(L, clang_getCursorUSR(tmpl));
  si->seq = L->seq;
  si->n = n > 16 ? 16 : (unsigned)n;
  bool any = false;
  for (unsigned i = 0; i < si->n; i++)
    if (clang_Cursor_getTemplateArgumentKind(spec, i) == CXTemplateArgumentKind_Integral) {
      si->vals[i] = clang_Cursor_getTemplateArgumentValue(spec, i);
      si->known[i] = 1;
      any = true;
    }
  if (any)
    wl_vec_push(&L->insts, si);
}

/* libclang does not visit explicit instantiations (`template __global__ void
 * reduce<256>(const float *, float *);`): they are read from the main file's
 * text, outside comments, for the templates the file defines. An argument
 * that is not an integer literal (or true/false) is left unknown. */
static bool ident_char(char ch) {
  return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
         (ch >= '0' && ch <= '9');
}

void inst_scan_explicit_instantiations(lower_ctx *L) {
  const char *t = L->main_text;
  size_t n = L->main_len;
  for (size_t i = 0; t && i + 8 < n; i++) {
    if (t[i] == '/' && t[i + 1] == '/') { /* comments */
      while (i < n && t[i] != '\n')
        i++;
      continue;
    }
    if (t[i] == '/' && t[i + 1] == '*') {
      const char *e = strstr(t + i + 2, "*/");
      i = e ? (size_t)(e - t) + 1 : n;
      continue;
    }
    if (strncmp(t + i, "template", 8) != 0 || (i && ident_char(t[i - 1])) || ident_char(t[i + 8]))
      continue;
    size_t j = i + 8;
    while (j < n && (t[j] == ' ' || t[j] == '\t' || t[j] == '\n' || t[j] == '\r'))
      j++;
    if (j >= n || t[j] == '<')
      continue; /* a template declaration, not an instantiation */
    size_t end = j;
    while (end < n && t[end] != ';' && t[end] != '{')
      end++;
    if (end >= n || t[end] != ';')
      continue;
    /* the last `name <args> (` before the ';' */
    for (size_t k = j; k < end; k++) {
      if (t[k] != '<' || k == j)
        continue;
      size_t ne = k;
      while (ne > j && (t[ne - 1] == ' ' || t[ne - 1] == '\t'))
        ne--;
      size_t nb = ne;
      while (nb > j && ident_char(t[nb - 1]))
        nb--;
      if (nb == ne)
        continue;
      size_t close = k + 1;
      int depth = 1;
      while (close < end && depth) {
        if (t[close] == '<')
          depth++;
        else if (t[close] == '>')
          depth--;
        if (depth)
          close++;
      }
      if (close >= end)
        break;
      seen_inst *si = NULL;
      for (size_t f = 0; f < L->funcs.n && !si; f++) {
        const wl_func *fn = L->funcs.v[f];
        if (fn->ntparams && fn->name && strlen(fn->name) == ne - nb &&
            strncmp(fn->name, t + nb, ne - nb) == 0) {
          si = wl_arena_alloc(A(L), sizeof *si);
          memset(si, 0, sizeof *si);
          si->usr = fn->usr;
        }
      }
      if (!si)
        break;
      size_t a = k + 1;
      bool any = false;
      while (a < close && si->n < 16) {
        size_t b = a;
        int d = 0;
        while (b < close && (d || t[b] != ',')) {
          d += t[b] == '(' || t[b] == '<';
          d -= t[b] == ')' || t[b] == '>';
          b++;
        }
        char arg[64];
        size_t len = 0;
        for (size_t x = a; x < b && len + 1 < sizeof arg; x++)
          if (t[x] != ' ' && t[x] != '\t' && t[x] != '\n')
            arg[len++] = t[x];
        arg[len] = 0;
        char *stop = NULL;
        long long v = strtoll(arg, &stop, 0);
        while (stop && (*stop == 'u' || *stop == 'U' || *stop == 'l' || *stop == 'L'))
          stop++;
        if (len && stop && !*stop) {
          si->vals[si->n] = v;
          si->known[si->n] = 1;
          any = true;
        } else if (!strcmp(arg, "true") || !strcmp(arg, "false")) {
          si->vals[si->n] = arg[0] == 't';
          si->known[si->n] = 1;
          any = true;
        }
        si->n++;
        a = b + 1;
      }
      if (any)
        wl_vec_push(&L->insts, si);
      break;
    }
    i = end;
  }
}

/* Gives each function template the distinct instantiations seen. */
void inst_link_instantiations(lower_ctx *L) {
  for (size_t i = 0; i < L->insts.n; i++) {
    const seen_inst *si = L->insts.v[i];
    for (size_t j = 0; j < L->funcs.n; j++) {
      wl_func *f = L->funcs.v[j];
      if (!f->usr || !f->ntparams || strcmp(f->usr, si->usr) != 0)
        continue;
      unsigned n = f->ntparams < si->n ? f->ntparams : si->n;
      bool dup = false;
      for (unsigned t = 0; t < f->ntinsts && !dup; t++) {
        dup = true;
        for (unsigned a = 0; a < n && dup; a++)
          dup = f->tinsts[t].known[a] == si->known[a] &&
                (!si->known[a] || f->tinsts[t].vals[a] == si->vals[a]);
      }
      if (dup || f->ntinsts >= WL_MAX_TINSTS)
        continue;
      wl_tinst *v = wl_arena_alloc(A(L), (f->ntinsts + 1) * sizeof *v);
      if (f->ntinsts)
        memcpy(v, f->tinsts, f->ntinsts * sizeof *v);
      v[f->ntinsts].vals = wl_arena_alloc(A(L), f->ntparams * sizeof(long long));
      v[f->ntinsts].known = wl_arena_alloc(A(L), f->ntparams);
      memset(v[f->ntinsts].known, 0, f->ntparams);
      for (unsigned a = 0; a < n; a++) {
        v[f->ntinsts].vals[a] = si->vals[a];
        v[f->ntinsts].known[a] = si->known[a];
      }
      f->tinsts = v;
      f->ntinsts++;
    }
  }
}
