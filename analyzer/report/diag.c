/* diag.c - the finding list: add, notes, edits, order, de-duplication, fingerprints. */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "paths.h"

const char *wl_severity_name(wl_severity s) {
  switch (s) {
  case WL_SEV_NOTE: return "note";
  case WL_SEV_WARNING: return "warning";
  case WL_SEV_ERROR: return "error";
  }
  return "warning";
}

bool wl_severity_parse(const char *s, wl_severity *out) {
  static const char *names[] = {"note", "warning", "error"};
  for (int i = 0; i < 3; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (wl_severity)i;
      return true;
    }
  return false;
}

void wl_findings_init(wl_findings *f) {
  f->v = NULL, f->n = f->cap = 0;
  f->notices = NULL, f->nnotices = 0;
}

static void free_notes(wl_note *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].file);
    free(v[i].message);
  }
  free(v);
}

void wl_finding_free(wl_finding *fd) {
  free(fd->file);
  free(fd->message);
  free(fd->line_text);
  free(fd->suggestion);
  free_notes(fd->notes, fd->nnotes);
  for (size_t i = 0; i < fd->nedits; i++) {
    free(fd->edits[i].file);
    free(fd->edits[i].text);
  }
  free(fd->edits);
  memset(fd, 0, sizeof *fd);
}

void wl_findings_free(wl_findings *f) {
  for (size_t i = 0; i < f->n; i++)
    wl_finding_free(&f->v[i]);
  free(f->v);
  free_notes(f->notices, f->nnotices);
  wl_findings_init(f);
}

wl_finding *wl_findings_add(wl_findings *f, const char *rule, wl_severity sev, const char *file,
                            unsigned line, unsigned col, unsigned end_line, unsigned end_col,
                            const char *message) {
  if (f->n == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 16;
    f->v = wl_xrealloc(f->v, f->cap * sizeof *f->v);
  }
  wl_finding *fd = &f->v[f->n++];
  memset(fd, 0, sizeof *fd);
  fd->rule = rule;
  fd->severity = sev;
  fd->file = wl_xstrdup(file ? file : "");
  fd->line = line;
  fd->col = col;
  fd->end_line = end_line ? end_line : line;
  fd->end_col = end_col > col || end_line > line ? end_col : col + 1;
  fd->message = wl_xstrdup(message);
  fd->line_text = wl_xstrdup("");
  return fd;
}

void wl_finding_add_note(wl_finding *fd, const char *file, unsigned line, unsigned col,
                         const char *message) {
  for (size_t i = 0; i < fd->nnotes; i++)
    if (fd->notes[i].line == line && fd->notes[i].col == col &&
        strcmp(fd->notes[i].file, file) == 0 && strcmp(fd->notes[i].message, message) == 0)
      return;
  fd->notes = wl_xrealloc(fd->notes, (fd->nnotes + 1) * sizeof *fd->notes);
  wl_note *n = &fd->notes[fd->nnotes++];
  n->file = wl_xstrdup(file);
  n->line = line;
  n->col = col;
  n->message = wl_xstrdup(message);
}

void wl_findings_add_notice(wl_findings *f, const char *file, unsigned line, unsigned col,
                            const char *message) {
  f->notices = wl_xrealloc(f->notices, (f->nnotices + 1) * sizeof *f->notices);
  wl_note *n = &f->notices[f->nnotices++];
  n->file = wl_xstrdup(file ? file : "");
  n->line = line;
  n->col = col;
  n->message = wl_xstrdup(message);
}

void wl_finding_add_edit(wl_finding *fd, const char *file, unsigned offset, unsigned length,
                         const char *text) {
  fd->edits = wl_xrealloc(fd->edits, (fd->nedits + 1) * sizeof *fd->edits);
  wl_edit *e = &fd->edits[fd->nedits++];
  e->file = wl_xstrdup(file);
  e->offset = offset;
  e->length = length;
  e->text = wl_xstrdup(text);
}

void wl_finding_set_line_text(wl_finding *fd, const char *text, size_t len) {
  free(fd->line_text);
  char *s = wl_xmalloc(len + 1);
  memcpy(s, text, len);
  s[len] = '\0';
  fd->line_text = s;
}

void wl_findings_move(wl_findings *dst, wl_findings *src) {
  for (size_t i = 0; i < src->n; i++) {
    if (dst->n == dst->cap) {
      dst->cap = dst->cap ? dst->cap * 2 : 16;
      dst->v = wl_xrealloc(dst->v, dst->cap * sizeof *dst->v);
    }
    dst->v[dst->n++] = src->v[i];
  }
  if (src->nnotices) {
    dst->notices =
        wl_xrealloc(dst->notices, (dst->nnotices + src->nnotices) * sizeof *dst->notices);
    memcpy(dst->notices + dst->nnotices, src->notices, src->nnotices * sizeof *src->notices);
    dst->nnotices += src->nnotices;
  }
  free(src->v);
  free(src->notices);
  wl_findings_init(src);
}

static int cmp_note(const void *a, const void *b) {
  const wl_note *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  return strcmp(x->message, y->message);
}

static int cmp_finding(const void *a, const void *b) {
  const wl_finding *x = a, *y = b;
  int c = strcmp(x->file, y->file);
  if (c)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if (x->col != y->col)
    return x->col < y->col ? -1 : 1;
  c = strcmp(x->rule, y->rule);
  if (c)
    return c;
  return strcmp(x->message, y->message);
}

static void sort_notices(wl_findings *f) {
  if (f->nnotices < 2)
    return;
  qsort(f->notices, f->nnotices, sizeof *f->notices, cmp_note);
  size_t w = 1;
  for (size_t r = 1; r < f->nnotices; r++) {
    if (cmp_note(&f->notices[w - 1], &f->notices[r]) == 0) {
      free(f->notices[r].file);
      free(f->notices[r].message);
      continue;
    }
    f->notices[w++] = f->notices[r];
  }
  f->nnotices = w;
}

static bool same_edits(const wl_finding *a, const wl_finding *b) {
  if (a->nedits != b->nedits)
    return false;
  for (size_t i = 0; i < a->nedits; i++)
    if (strcmp(a->edits[i].file, b->edits[i].file) || a->edits[i].offset != b->edits[i].offset ||
        a->edits[i].length != b->edits[i].length || strcmp(a->edits[i].text, b->edits[i].text))
      return false;
  return true;
}

static void free_note(wl_note *n) {
  free(n->file);
  free(n->message);
}

/* The same note merged from several translation units (a header's finding
 * seen from each file that includes it) is kept once. Notes are sorted. */
static void unique_notes(wl_finding *fd) {
  size_t w = 0;
  for (size_t r = 0; r < fd->nnotes; r++) {
    if (w > 0 && cmp_note(&fd->notes[w - 1], &fd->notes[r]) == 0) {
      free_note(&fd->notes[r]);
      continue;
    }
    fd->notes[w++] = fd->notes[r];
  }
  fd->nnotes = w;
}

#define EXPANSION_NOTE "expanded from macro '"

/* A finding in a macro's definition lists the first few expansion sites
 * (in file and line order) and counts the others in one last note. */
static void cap_expansion_notes(wl_finding *fd) {
  size_t n = 0;
  for (size_t i = 0; i < fd->nnotes; i++)
    n += strncmp(fd->notes[i].message, EXPANSION_NOTE, strlen(EXPANSION_NOTE)) == 0;
  if (n <= WL_MAX_EXPANSION_NOTES)
    return;
  size_t w = 0, seen = 0;
  wl_note last = {0};
  for (size_t r = 0; r < fd->nnotes; r++) {
    wl_note *nt = &fd->notes[r];
    if (strncmp(nt->message, EXPANSION_NOTE, strlen(EXPANSION_NOTE)) == 0 &&
        seen++ >= WL_MAX_EXPANSION_NOTES) {
      if (!last.file) {
        const char *name = nt->message + strlen(EXPANSION_NOTE);
        const char *q = strchr(name, '\'');
        wl_buf b;
        wl_buf_init(&b);
        wl_buf_printf(&b, "and %zu more expansion%s of macro '%.*s'", n - WL_MAX_EXPANSION_NOTES,
                      n - WL_MAX_EXPANSION_NOTES == 1 ? "" : "s",
                      (int)(q ? (size_t)(q - name) : strlen(name)), name);
        last.file = wl_xstrdup(nt->file);
        last.line = nt->line;
        last.col = nt->col;
        last.message = wl_buf_detach(&b);
      }
      free_note(nt);
      continue;
    }
    fd->notes[w++] = *nt;
  }
  fd->notes[w++] = last; /* there is room: at least one note was dropped */
  fd->nnotes = w;
}

void wl_findings_sort_dedup(wl_findings *f) {
  sort_notices(f);
  if (f->n == 0)
    return;
  qsort(f->v, f->n, sizeof *f->v, cmp_finding);
  size_t w = 0;
  for (size_t r = 0; r < f->n; r++) {
    if (w > 0 && cmp_finding(&f->v[w - 1], &f->v[r]) == 0) {
      wl_finding *keep = &f->v[w - 1], *dup = &f->v[r];
      if (!same_edits(keep, dup)) { /* the sites disagree on the fix: none is safe */
        for (size_t i = 0; i < keep->nedits; i++) {
          free(keep->edits[i].file);
          free(keep->edits[i].text);
        }
        free(keep->edits);
        keep->edits = NULL;
        keep->nedits = 0;
        if (!keep->suggestion && dup->suggestion) {
          keep->suggestion = dup->suggestion;
          dup->suggestion = NULL;
        }
      }
      for (size_t i = 0; i < dup->nnotes; i++)
        wl_finding_add_note(keep, dup->notes[i].file, dup->notes[i].line, dup->notes[i].col,
                            dup->notes[i].message);
      wl_finding_free(dup);
      continue;
    }
    if (w != r)
      f->v[w] = f->v[r];
    w++;
  }
  f->n = w;
  for (size_t i = 0; i < f->n; i++)
    if (f->v[i].nnotes > 1) {
      qsort(f->v[i].notes, f->v[i].nnotes, sizeof *f->v[i].notes, cmp_note);
      unique_notes(&f->v[i]);
      cap_expansion_notes(&f->v[i]);
    }
}

/* FNV-1a, 64 bit */
static unsigned long long fnv(unsigned long long h, const char *s) {
  for (; *s; s++) {
    h ^= (unsigned char)*s;
    h *= 1099511628211ULL;
  }
  h ^= 0xff;
  h *= 1099511628211ULL;
  return h;
}

static char *normalize(const char *s) {
  wl_buf b;
  wl_buf_init(&b);
  bool space = false;
  for (; *s; s++) {
    if (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') {
      space = b.len > 0;
      continue;
    }
    if (space)
      wl_buf_putc(&b, ' ');
    space = false;
    wl_buf_putc(&b, *s);
  }
  return wl_buf_detach(&b);
}

/* A finding's key for occurrence counting: rule, file, normalized line text. */
typedef struct fp_key {
  const wl_finding *fd;
  char *norm;
  size_t index;
} fp_key;

static int cmp_fp_key(const void *a, const void *b) {
  const fp_key *x = a, *y = b;
  int c = strcmp(x->fd->rule, y->fd->rule);
  if (!c)
    c = strcmp(x->fd->file, y->fd->file);
  if (!c)
    c = strcmp(x->norm, y->norm);
  if (!c)
    c = x->index < y->index ? -1 : x->index > y->index;
  return c;
}

/* Occurrence indices by sorting (rule, file, text, list order): O(n log n)
 * comparisons of line texts, where comparing every pair was O(n^2) (2,000
 * findings on one long line took minutes). */
void wl_findings_fingerprints(const wl_findings *f, char (*out)[17]) {
  fp_key *keys = wl_xcalloc(f->n ? f->n : 1, sizeof *keys);
  for (size_t i = 0; i < f->n; i++) {
    keys[i].fd = &f->v[i];
    keys[i].norm = normalize(f->v[i].line_text);
    keys[i].index = i;
  }
  qsort(keys, f->n, sizeof *keys, cmp_fp_key);
  unsigned occurrence = 0;
  for (size_t k = 0; k < f->n; k++) {
    const fp_key *key = &keys[k];
    if (k > 0 && strcmp(keys[k - 1].fd->rule, key->fd->rule) == 0 &&
        strcmp(keys[k - 1].fd->file, key->fd->file) == 0 &&
        strcmp(keys[k - 1].norm, key->norm) == 0)
      occurrence++;
    else
      occurrence = 0;
    char occ[16];
    snprintf(occ, sizeof occ, "%u", occurrence);
    unsigned long long h = 14695981039346656037ULL;
    h = fnv(h, key->fd->rule);
    h = fnv(h, key->fd->file);
    h = fnv(h, key->norm);
    h = fnv(h, occ);
    snprintf(out[key->index], 17, "%016llx", h);
  }
  for (size_t k = 0; k < f->n; k++)
    free(keys[k].norm);
  free(keys);
}

void wl_findings_fingerprints_at(const wl_findings *f, const char *root, char (*out)[17]) {
  if (!root) {
    wl_findings_fingerprints(f, out);
    return;
  }
  wl_findings view = *f;
  view.v = wl_xcalloc(f->n ? f->n : 1, sizeof *view.v);
  char **files = wl_xcalloc(f->n ? f->n : 1, sizeof *files);
  for (size_t i = 0; i < f->n; i++) {
    view.v[i] = f->v[i];
    if (i > 0 && f->v[i].file && f->v[i - 1].file && strcmp(f->v[i].file, f->v[i - 1].file) == 0) {
      view.v[i].file = view.v[i - 1].file; /* runs of one file: resolved once */
      continue;
    }
    if (f->v[i].file) {
      char *canon = wl_canonical_path(f->v[i].file);
      files[i] = wl_relative_path(canon, root);
      free(canon);
      view.v[i].file = files[i];
    }
  }
  wl_findings_fingerprints(&view, out);
  for (size_t i = 0; i < f->n; i++)
    free(files[i]);
  free(files);
  free(view.v);
}
