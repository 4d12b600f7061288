/* fix.c - fix plans (non-overlapping edits), text application, unified diffs
 * built from the edits, clang-tidy YAML export (files are written by
 * fixwrite.c). */
#include "fix.h"
#include "paths.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static wl_file_fix *plan_file(wl_fix_plan *plan, const char *file) {
  for (size_t i = 0; i < plan->nfiles; i++)
    if (strcmp(plan->files[i].file, file) == 0)
      return &plan->files[i];
  plan->files = wl_xrealloc(plan->files, (plan->nfiles + 1) * sizeof *plan->files);
  wl_file_fix *ff = &plan->files[plan->nfiles++];
  memset(ff, 0, sizeof *ff);
  ff->file = wl_xstrdup(file);
  return ff;
}

static bool same_edit(const wl_edit *a, const wl_edit *b) {
  return a->offset == b->offset && a->length == b->length && strcmp(a->text, b->text) == 0;
}

/* Whether a (a replacement of length > 0) contains b, b an insertion at one
 * of a's ends excepted (that one is applied beside a). */
static bool contains(const wl_edit *a, const wl_edit *b) {
  if (a->length == 0 || strcmp(a->file, b->file) != 0)
    return false;
  size_t ae = (size_t)a->offset + a->length, be = (size_t)b->offset + b->length;
  if (b->length == 0 && (b->offset == a->offset || b->offset == ae))
    return false;
  return a->offset <= b->offset && be <= ae && !(a->offset == b->offset && ae == be);
}

/* How an edit relates to the edits already chosen for its file. */
enum { E_FREE, E_DUP, E_INSIDE, E_CLASH };

static int classify(const wl_file_fix *ff, const wl_edit *e) {
  int st = E_FREE;
  for (size_t i = 0; i < ff->nedits; i++) {
    const wl_edit *o = &ff->edits[i];
    if (same_edit(o, e)) {
      st = st < E_DUP ? E_DUP : st;
      continue;
    }
    if (o->length == 0 && e->length == 0)
      continue; /* insertions: at one point they are applied one after the other */
    if (contains(o, e)) {
      st = st < E_INSIDE ? E_INSIDE : st;
      continue;
    }
    size_t oe = (size_t)o->offset + o->length, ee = (size_t)e->offset + e->length;
    /* e swallows a chosen edit, or they partly overlap (an insertion at a
     * replacement's end is beside it), or they replace one range differently */
    if (contains(e, o) || (o->offset < ee && e->offset < oe) ||
        (o->offset == e->offset && o->length == e->length))
      return E_CLASH;
  }
  return st;
}

typedef struct edit_ref {
  size_t finding;
  const wl_edit *e;
} edit_ref;

static int cmp_ref(const void *a, const void *b) {
  const edit_ref *x = a, *y = b;
  int c = strcmp(x->e->file, y->e->file);
  if (c)
    return c;
  return x->e->offset < y->e->offset ? -1 : x->e->offset > y->e->offset;
}

/* The findings one of whose replacements contains an edit of another
 * finding (a deleted overload and the calls inside it; a rewritten
 * statement and a fix inside it): they are chosen first, so that the outer
 * fix wins whatever the order of the findings. */
static bool *containers(const wl_findings *f) {
  bool *c = wl_xcalloc(f->n + 1, sizeof *c);
  size_t n = 0;
  for (size_t i = 0; i < f->n; i++)
    n += f->v[i].nedits;
  edit_ref *r = wl_xcalloc(n + 1, sizeof *r);
  n = 0;
  for (size_t i = 0; i < f->n; i++)
    for (size_t k = 0; k < f->v[i].nedits; k++)
      r[n++] = (edit_ref){i, &f->v[i].edits[k]};
  qsort(r, n, sizeof *r, cmp_ref);
  for (size_t a = 0; a < n; a++) {
    const wl_edit *e = r[a].e;
    if (e->length == 0 || c[r[a].finding])
      continue;
    size_t end = (size_t)e->offset + e->length;
    size_t b = a; /* the edits at e's offset sort around a */
    while (b > 0 && r[b - 1].e->offset == e->offset && strcmp(r[b - 1].e->file, e->file) == 0)
      b--;
    for (; b < n && r[b].e->offset <= end && strcmp(r[b].e->file, e->file) == 0; b++)
      if (r[b].finding != r[a].finding && contains(e, r[b].e)) {
        c[r[a].finding] = true;
        break;
      }
  }
  free(r);
  return c;
}

/* One finding's fix: taken whole (its edits not chosen yet added), covered
 * (every edit inside a chosen replacement: nothing to add), or skipped. */
static void plan_finding(wl_fix_plan *plan, const wl_findings *f, size_t i) {
  const wl_finding *fd = &f->v[i];
  bool ok = true, any_inside = false, all_inside = true;
  for (size_t k = 0; k < fd->nedits && ok; k++) {
    const wl_edit *e = &fd->edits[k];
    int st = classify(plan_file(plan, e->file), e);
    ok = st != E_CLASH;
    any_inside = any_inside || st == E_INSIDE;
    all_inside = all_inside && st == E_INSIDE;
    /* edits of the same finding must not overlap each other either */
    for (size_t j = 0; j < k && ok; j++)
      if (strcmp(fd->edits[j].file, e->file) == 0 && !same_edit(&fd->edits[j], e)) {
        const wl_edit *a = &fd->edits[j];
        ok = a->offset + a->length <= e->offset || e->offset + e->length <= a->offset;
      }
  }
  if (!ok || (any_inside && !all_inside)) {
    plan->skipped++; /* all or nothing: left for the next run */
    return;
  }
  plan->taken[i] = true;
  if (all_inside) { /* code another fix replaces as a whole needs no fix of its own */
    plan->covered += fd->nedits;
    return;
  }
  for (size_t k = 0; k < fd->nedits; k++) {
    wl_file_fix *ff = plan_file(plan, fd->edits[k].file);
    if (classify(ff, &fd->edits[k]) == E_DUP)
      continue;
    ff->edits = wl_xrealloc(ff->edits, (ff->nedits + 1) * sizeof *ff->edits);
    ff->owner = wl_xrealloc(ff->owner, (ff->nedits + 1) * sizeof *ff->owner);
    ff->owner[ff->nedits] = i;
    wl_edit *e = &ff->edits[ff->nedits++];
    e->file = wl_xstrdup(fd->edits[k].file);
    e->offset = fd->edits[k].offset;
    e->length = fd->edits[k].length;
    e->text = wl_xstrdup(fd->edits[k].text);
  }
  plan_file(plan, fd->edits[0].file)->nfindings++;
}

static int cmp_edit(const void *a, const void *b) {
  const wl_edit *x = a, *y = b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  /* insertions before replacements at the same offset; then by text, for a stable order */
  if (x->length != y->length)
    return x->length < y->length ? -1 : 1;
  return strcmp(x->text, y->text);
}

/* Sorts a file's edits (cmp_edit) with their owners. */
static void sort_file(wl_file_fix *ff) {
  size_t n = ff->nedits;
  size_t *idx = wl_xcalloc(n + 1, sizeof *idx);
  for (size_t i = 0; i < n; i++)
    idx[i] = i;
  for (size_t a = 1; a < n; a++) /* insertion sort on indices: stable, n is small */
    for (size_t b = a; b > 0 && cmp_edit(&ff->edits[idx[b]], &ff->edits[idx[b - 1]]) < 0; b--) {
      size_t t = idx[b];
      idx[b] = idx[b - 1];
      idx[b - 1] = t;
    }
  wl_edit *e = wl_xcalloc(n + 1, sizeof *e);
  size_t *o = wl_xcalloc(n + 1, sizeof *o);
  for (size_t i = 0; i < n; i++) {
    e[i] = ff->edits[idx[i]];
    o[i] = ff->owner[idx[i]];
  }
  free(ff->edits);
  free(ff->owner);
  ff->edits = e;
  ff->owner = o;
  free(idx);
}

void wl_fix_plan_build(wl_fix_plan *plan, const wl_findings *f) {
  memset(plan, 0, sizeof *plan);
  plan->taken = wl_xcalloc(f->n + 1, sizeof *plan->taken);
  bool *outer = containers(f);
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < f->n; i++)
      if (f->v[i].nedits > 0 && outer[i] == (pass == 0))
        plan_finding(plan, f, i);
  free(outer);
  for (size_t i = 0; i < plan->nfiles; i++)
    if (plan->files[i].nedits > 1)
      sort_file(&plan->files[i]);
}

void wl_fix_plan_free(wl_fix_plan *plan) {
  for (size_t i = 0; i < plan->nfiles; i++) {
    wl_file_fix *ff = &plan->files[i];
    for (size_t k = 0; k < ff->nedits; k++) {
      free(ff->edits[k].file);
      free(ff->edits[k].text);
    }
    free(ff->edits);
    free(ff->owner);
    free(ff->file);
  }
  free(plan->files);
  free(plan->taken);
  memset(plan, 0, sizeof *plan);
}

bool wl_fix_apply_text(const char *text, size_t len, const wl_edit *edits, size_t n, wl_buf *out) {
  size_t pos = 0;
  for (size_t i = 0; i < n; i++) {
    const wl_edit *e = &edits[i];
    if (e->offset < pos || (size_t)e->offset + e->length > len)
      return false;
    wl_buf_add(out, text + pos, e->offset - pos);
    wl_buf_puts(out, e->text);
    pos = (size_t)e->offset + e->length;
  }
  wl_buf_add(out, text + pos, len - pos);
  return true;
}

/* ---- unified diff built from the edits -------------------------------- */

typedef struct lines {
  size_t *start; /* offset of each line; start[n] = len */
  size_t n;
} lines;

static void split_lines(const char *t, size_t len, lines *l) {
  l->n = 0;
  size_t cap = 64;
  l->start = wl_xmalloc(cap * sizeof *l->start);
  size_t pos = 0;
  while (pos < len) {
    if (l->n + 2 > cap) {
      cap *= 2;
      l->start = wl_xrealloc(l->start, cap * sizeof *l->start);
    }
    l->start[l->n++] = pos;
    const char *nl = memchr(t + pos, '\n', len - pos);
    pos = nl ? (size_t)(nl - t) + 1 : len;
  }
  l->start[l->n] = len;
}

static size_t line_of(const lines *l, size_t off) {
  size_t lo = 0, hi = l->n;
  while (lo + 1 < hi) {
    size_t mid = (lo + hi) / 2;
    if (l->start[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

static void emit_lines(wl_buf *out, char mark, const char *t, size_t len) {
  size_t pos = 0;
  while (pos < len) {
    const char *nl = memchr(t + pos, '\n', len - pos);
    size_t end = nl ? (size_t)(nl - t) : len;
    wl_buf_putc(out, mark);
    wl_buf_add(out, t + pos, end - pos);
    wl_buf_putc(out, '\n');
    if (!nl)
      wl_buf_puts(out, "\\ No newline at end of file\n");
    pos = end + 1;
  }
}

static size_t count_lines(const char *t, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    n += t[i] == '\n';
  return n + (len > 0 && t[len - 1] != '\n');
}

/* Lines [first, end) replaced by edits [e0, e1) (edits touching a common line
 * are merged). A whole-line insertion (at a line start, ending in a newline)
 * replaces no line: first == end. */
typedef struct span {
  size_t first, end, e0, e1;
} span;

static bool line_insertion(const lines *L, const wl_edit *e) {
  size_t tl = strlen(e->text);
  return e->length == 0 && tl > 0 && e->text[tl - 1] == '\n' &&
         L->start[line_of(L, e->offset)] == e->offset;
}

bool wl_unified_diff(const char *path, const char *old, size_t oldlen, const wl_edit *edits,
                     size_t n, wl_buf *out) {
  if (n == 0)
    return true;
  lines L;
  split_lines(old, oldlen, &L);
  if (L.n == 0) { /* an empty file: one empty line to hang the edits on */
    L.start[0] = 0;
    L.start[1] = 0;
    L.n = 1;
  }
  span *sp = wl_xmalloc(n * sizeof *sp);
  size_t ns = 0;
  for (size_t i = 0; i < n; i++) {
    size_t first = line_of(&L, edits[i].offset), end;
    if (edits[i].offset >= oldlen && oldlen > 0 && old[oldlen - 1] == '\n')
      first = end = L.n; /* an insertion at the very end */
    else if (line_insertion(&L, &edits[i]))
      end = first;
    else {
      size_t last_off = edits[i].offset + edits[i].length;
      end = line_of(&L, edits[i].length > 0 ? last_off - 1 : edits[i].offset) + 1;
    }
    bool merge = ns && (first < sp[ns - 1].end ||
                        (first == sp[ns - 1].first && first == sp[ns - 1].end && end == first));
    if (merge) {
      if (end > sp[ns - 1].end)
        sp[ns - 1].end = end;
      sp[ns - 1].e1 = i + 1;
    } else {
      sp[ns++] = (span){first, end, i, i + 1};
    }
  }
  const size_t ctx = 3;
  bool ok = true;
  long delta = 0; /* new line numbers minus old ones so far */
  wl_buf_printf(out, "--- a/%s\n+++ b/%s\n", path, path);
  for (size_t h = 0; h < ns && ok;) {
    size_t h1 = h + 1; /* spans [h, h1) form one hunk */
    while (h1 < ns && sp[h1].first <= sp[h1 - 1].end + 2 * ctx)
      h1++;
    size_t ctx_b = sp[h].first >= ctx ? sp[h].first - ctx : 0;
    size_t ctx_e = sp[h1 - 1].end + ctx <= L.n ? sp[h1 - 1].end + ctx : L.n;
    wl_buf body;
    wl_buf_init(&body);
    size_t old_count = ctx_e - ctx_b, new_count = old_count;
    size_t line = ctx_b;
    for (size_t k = h; k < h1 && ok; k++) {
      emit_lines(&body, ' ', old + L.start[line], L.start[sp[k].first] - L.start[line]);
      size_t rb = L.start[sp[k].first], re = L.start[sp[k].end];
      wl_buf nb;
      wl_buf_init(&nb);
      size_t pos = rb;
      for (size_t e = sp[k].e0; e < sp[k].e1; e++) {
        if (edits[e].offset < pos || edits[e].offset + edits[e].length > re) {
          ok = false;
          break;
        }
        wl_buf_add(&nb, old + pos, edits[e].offset - pos);
        wl_buf_puts(&nb, edits[e].text);
        pos = edits[e].offset + edits[e].length;
      }
      wl_buf_add(&nb, old + pos, re - pos);
      emit_lines(&body, '-', old + rb, re - rb);
      emit_lines(&body, '+', wl_buf_str(&nb), nb.len);
      size_t removed = sp[k].end - sp[k].first, added = count_lines(wl_buf_str(&nb), nb.len);
      new_count = new_count - removed + added;
      wl_buf_free(&nb);
      line = sp[k].end;
    }
    emit_lines(&body, ' ', old + L.start[line], L.start[ctx_e] - L.start[line]);
    wl_buf_printf(out, "@@ -%zu,%zu +%ld,%zu @@\n", old_count ? ctx_b + 1 : ctx_b, old_count,
                  (long)(new_count ? ctx_b + 1 : ctx_b) + delta, new_count);
    wl_buf_add(out, wl_buf_str(&body), body.len);
    delta += (long)new_count - (long)old_count;
    wl_buf_free(&body);
    h = h1;
  }
  free(sp);
  free(L.start);
  return ok;
}

/* ---- clang-tidy YAML ----------------------------------------------------- */

/* A YAML double-quoted scalar: JSON's string syntax is a subset of it. */
static void yaml_str(FILE *out, const char *s) {
  json_object *o = json_object_new_string(s ? s : "");
  fputs(json_object_to_json_string_ext(o, JSON_C_TO_STRING_NOSLASHESCAPE), out);
  json_object_put(o);
}

/* One replacement of the export and the finding it is written under. */
typedef struct xedit {
  size_t finding;
  const wl_edit *e; /* file, offset, length */
  char *text;       /* owned: insertions at one offset are merged into one */
} xedit;

static int cmp_xedit(const void *a, const void *b) {
  const xedit *x = a, *y = b;
  if (x->finding != y->finding)
    return x->finding < y->finding ? -1 : 1;
  int c = strcmp(x->e->file, y->e->file);
  if (c)
    return c;
  return x->e->offset < y->e->offset ? -1 : x->e->offset > y->e->offset;
}

/* The plan's edits as clang-apply-replacements takes them: the same edits
 * --fix applies, insertions at one offset merged into one (in the order
 * --fix applies them), written under the first finding that wanted them. */
static xedit *export_edits(const wl_fix_plan *plan, size_t *nout) {
  size_t n = 0;
  for (size_t i = 0; i < plan->nfiles; i++)
    n += plan->files[i].nedits;
  xedit *x = wl_xcalloc(n + 1, sizeof *x);
  size_t nx = 0;
  for (size_t i = 0; i < plan->nfiles; i++) {
    const wl_file_fix *ff = &plan->files[i];
    for (size_t k = 0; k < ff->nedits;) {
      size_t j = k + 1, owner = ff->owner[k];
      wl_buf t;
      wl_buf_init(&t);
      wl_buf_puts(&t, ff->edits[k].text);
      while (ff->edits[k].length == 0 && j < ff->nedits && ff->edits[j].length == 0 &&
             ff->edits[j].offset == ff->edits[k].offset) {
        wl_buf_puts(&t, ff->edits[j].text);
        owner = ff->owner[j] < owner ? ff->owner[j] : owner;
        j++;
      }
      x[nx++] = (xedit){owner, &ff->edits[k], wl_buf_detach(&t)};
      k = j;
    }
  }
  qsort(x, nx, sizeof *x, cmp_xedit);
  *nout = nx;
  return x;
}

/* The file as clang-apply-replacements needs it: absolute (it resolves
 * relative paths against its own working directory). */
static void yaml_path(FILE *out, const char *file) {
  char *abs = file && *file && file[0] != '/' ? wl_canonical_path(file) : NULL;
  yaml_str(out, abs ? abs : file);
  free(abs);
}

bool wl_export_fixes_plan(FILE *out, const wl_findings *f, const wl_fix_plan *plan,
                          const char *main_file_hint, wl_buf *notes) {
  size_t nx;
  xedit *x = export_edits(plan, &nx);
  fputs("---\nMainSourceFile: ", out);
  yaml_str(out, main_file_hint ? main_file_hint : "");
  fputs(nx ? "\nDiagnostics:\n" : "\nDiagnostics: []\n", out);
  for (size_t a = 0; a < nx;) {
    size_t b = a;
    while (b < nx && x[b].finding == x[a].finding)
      b++;
    const wl_finding *fd = &f->v[x[a].finding];
    fputs("  - DiagnosticName: ", out);
    yaml_str(out, fd->rule);
    fputs("\n    DiagnosticMessage:\n      Message: ", out);
    yaml_str(out, fd->message);
    fputs("\n      FilePath: ", out);
    yaml_path(out, fd->file);
    fprintf(out, "\n      FileOffset: %u\n      Replacements:\n", fd->offset);
    for (size_t k = a; k < b; k++) {
      fputs("        - FilePath: ", out);
      yaml_path(out, x[k].e->file);
      fprintf(out, "\n          Offset: %u\n          Length: %u\n          ReplacementText: ",
              x[k].e->offset, x[k].e->length);
      yaml_str(out, x[k].text);
      fputs("\n", out);
    }
    fprintf(out, "    Level: %s\n",
            fd->severity == WL_SEV_ERROR  ? "Error"
            : fd->severity == WL_SEV_NOTE ? "Remark"
                                          : "Warning");
    a = b;
  }
  fputs("...\n", out);
  if (notes && plan->covered)
    wl_buf_printf(notes,
                  "%zu edit%s inside another fix's replaced text left out of --export-fixes "
                  "(the enclosing fix rewrites that text)\n",
                  plan->covered, plan->covered == 1 ? "" : "s");
  if (notes && plan->skipped)
    wl_buf_printf(notes,
                  "%zu fix%s left out of --export-fixes: %s edits overlap another fix's "
                  "(rerun after applying)\n",
                  plan->skipped, plan->skipped == 1 ? "" : "es",
                  plan->skipped == 1 ? "its" : "their");
  for (size_t k = 0; k < nx; k++)
    free(x[k].text);
  free(x);
  return fflush(out) == 0 && !ferror(out);
}

bool wl_export_fixes_yaml_notes(FILE *out, const wl_findings *f, const char *main_file_hint,
                                wl_buf *notes) {
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, f);
  bool ok = wl_export_fixes_plan(out, f, &plan, main_file_hint, notes);
  wl_fix_plan_free(&plan);
  return ok;
}

bool wl_export_fixes_yaml(FILE *out, const wl_findings *f, const char *main_file_hint) {
  return wl_export_fixes_yaml_notes(out, f, main_file_hint, NULL);
}
