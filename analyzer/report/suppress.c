/* suppress.c - suppression comments: a small C/C++ lexer that finds comments
 * (skipping string, character and raw-string literals), the directive
 * grammar inside them, and the filtering of a file's findings. */
#include "suppress.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "rulecat.h"

const wl_rule wl_pseudo_rules[] = {
    {WL_RULE_INVALID_SUPPRESSION, WL_SEV_WARNING,
     "A warplint suppression comment names an unknown rule or is malformed"},
    {WL_RULE_UNUSED_SUPPRESSION, WL_SEV_WARNING,
     "A suppression comment silences nothing (--report-unused-suppressions)"},
};
const size_t wl_npseudo_rules = sizeof wl_pseudo_rules / sizeof wl_pseudo_rules[0];
#define NPSEUDO wl_npseudo_rules

static bool id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool id_matches(const char *pattern, const char *rule) {
  return fnmatch(pattern, rule, 0) == 0;
}

static bool id_known(const wl_rulecat *rules, const char *id) {
  for (size_t i = 0; rules && i < rules->n; i++)
    if (id_matches(id, rules->rules[i].id))
      return true;
  for (size_t i = 0; i < NPSEUDO; i++)
    if (id_matches(id, wl_pseudo_rules[i].id))
      return true;
  return false;
}

/* ------------------------------------------------------------------------ */
/* Scanning                                                                 */

/* A begin or end of a block, paired with its partner after the scan. */
typedef struct block_mark {
  bool begin, nolint;
  size_t off;
  unsigned width; /* of the directive's name */
  char *key;      /* the rule list as written, ids joined by ',' ("" for none) */
  wl_sup_id *ids; /* a begin's ids, moved into its block */
  size_t nids;
} block_mark;

typedef struct scanner {
  const char *src;
  size_t len;
  size_t *line_starts;
  size_t nlines;
  wl_suppressions *out;
  const wl_rulecat *rules; /* the ids a directive may name */
  block_mark *marks;
  size_t nmarks, capmarks;
} scanner;

static void locate(const scanner *sc, size_t off, unsigned *line, unsigned *col) {
  size_t lo = 0, hi = sc->nlines;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (sc->line_starts[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  *line = (unsigned)lo + 1;
  *col = (unsigned)(off - sc->line_starts[lo]) + 1;
}

static wl_suppression *new_sup(scanner *sc, wl_sup_kind kind, bool nolint, size_t off) {
  wl_suppressions *s = sc->out;
  if (s->n == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 8;
    s->v = wl_xrealloc(s->v, s->cap * sizeof *s->v);
  }
  wl_suppression *d = &s->v[s->n++];
  memset(d, 0, sizeof *d);
  d->kind = kind;
  d->nolint = nolint;
  d->offset = (unsigned)off;
  locate(sc, off, &d->line, &d->col);
  d->target = kind == WL_SUP_FILE ? 0 : kind == WL_SUP_NEXT_LINE ? d->line + 1 : d->line;
  d->target_end = d->target;
  return d;
}

/* The rule ids of one directive, at most WL_SUP_MAX_IDS of them. */
typedef struct idlist {
  wl_sup_id *v;
  size_t n;
  bool too_many;  /* more ids than WL_SUP_MAX_IDS: the directive is ignored */
  bool separator; /* a ',' was seen (an empty list of commas is malformed) */
} idlist;

static void idlist_add(scanner *sc, idlist *l, const char *p, size_t n) {
  if (l->n >= WL_SUP_MAX_IDS) {
    l->too_many = true;
    return;
  }
  if (l->n == 0)
    l->v = wl_xmalloc(WL_SUP_MAX_IDS * sizeof *l->v);
  wl_sup_id *id = &l->v[l->n++];
  id->id = wl_xmalloc(n + 1);
  memcpy(id->id, p, n);
  id->id[n] = '\0';
  unsigned line;
  locate(sc, (size_t)(p - sc->src), &line, &id->col);
  id->known = id_known(sc->rules, id->id);
  id->used = false;
}

static void idlist_free(idlist *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->v[i].id);
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* Moves the ids of l into the suppression d. */
static void give_ids(wl_suppression *d, idlist *l) {
  d->ids = l->v;
  d->nids = l->n;
  memset(l, 0, sizeof *l);
}

static void problem(scanner *sc, size_t off, unsigned width, const char *rule, const char *msg) {
  wl_suppressions *s = sc->out;
  s->problems = wl_xrealloc(s->problems, (s->nproblems + 1) * sizeof *s->problems);
  wl_sup_problem *p = &s->problems[s->nproblems++];
  locate(sc, off, &p->line, &p->col);
  p->offset = (unsigned)off;
  p->width = width;
  p->rule = rule;
  p->message = wl_xstrdup(msg);
}

/* Whether the list is malformed (reported, and then the directive silences
 * nothing): too many ids, or separators and no id. */
static bool bad_list(scanner *sc, const idlist *l, size_t off, unsigned width, const char *name) {
  char msg[256];
  if (l->too_many)
    snprintf(msg, sizeof msg, "more than %d rule ids in %s: it silences nothing", WL_SUP_MAX_IDS,
             name);
  else if (l->n == 0 && l->separator)
    snprintf(msg, sizeof msg, "empty rule list in %s: it silences nothing", name);
  else
    return false;
  problem(sc, off, width, WL_RULE_INVALID_SUPPRESSION, msg);
  return true;
}

static void add_mark(scanner *sc, bool begin, bool nolint, size_t off, unsigned width, idlist *l) {
  if (sc->nmarks == sc->capmarks) {
    sc->capmarks = sc->capmarks ? sc->capmarks * 2 : 8;
    sc->marks = wl_xrealloc(sc->marks, sc->capmarks * sizeof *sc->marks);
  }
  block_mark *m = &sc->marks[sc->nmarks++];
  memset(m, 0, sizeof *m);
  m->begin = begin;
  m->nolint = nolint;
  m->off = off;
  m->width = width;
  wl_buf key;
  wl_buf_init(&key);
  for (size_t i = 0; i < l->n; i++)
    wl_buf_printf(&key, "%s%s", i ? "," : "", l->v[i].id);
  m->key = wl_buf_detach(&key);
  if (!m->key)
    m->key = wl_xstrdup("");
  if (begin) {
    m->ids = l->v;
    m->nids = l->n;
    memset(l, 0, sizeof *l);
  }
}

/* warplint-disable-*: ids separated by commas or blanks, up to the end of
 * the comment's line or "--" (a free-text reason follows). */
static void warplint_directive(scanner *sc, const char *p, const char *end) {
  const char *start = p;
  const char *w = p;
  while (w < end && (id_char(*w) || *w == '-'))
    w++;
  size_t n = (size_t)(w - p);
  enum { D_NEXT, D_LINE, D_FILE, D_BEGIN, D_END } which;
  if (n == 26 && strncmp(p, "warplint-disable-next-line", n) == 0)
    which = D_NEXT;
  else if (n == 21 && strncmp(p, "warplint-disable-line", n) == 0)
    which = D_LINE;
  else if (n == 21 && strncmp(p, "warplint-disable-file", n) == 0)
    which = D_FILE;
  else if (n == 22 && strncmp(p, "warplint-disable-begin", n) == 0)
    which = D_BEGIN;
  else if (n == 20 && strncmp(p, "warplint-disable-end", n) == 0)
    which = D_END;
  else {
    char msg[256];
    snprintf(msg, sizeof msg,
             "unknown suppression directive '%.*s': use warplint-disable-next-line, "
             "warplint-disable-line, warplint-disable-file or warplint-disable-begin/-end",
             (int)(n > 60 ? 60 : n), p);
    problem(sc, (size_t)(start - sc->src), 16, WL_RULE_INVALID_SUPPRESSION, msg);
    return;
  }
  idlist l = {0};
  for (p = w; p < end && *p != '\n';) {
    if (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\\') {
      l.separator |= *p == ',';
      p++; /* a backslash: the line continuation of a macro definition */
      continue;
    }
    if (p[0] == '-' && p + 1 < end && p[1] == '-')
      break;
    const char *t = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != ',' && *p != '\n' && *p != '\r' &&
           *p != '\\')
      p++;
    idlist_add(sc, &l, t, (size_t)(p - t));
  }
  size_t off = (size_t)(start - sc->src);
  char name[32];
  snprintf(name, sizeof name, "%.*s", (int)n, start);
  if (bad_list(sc, &l, off, (unsigned)n, name)) {
    idlist_free(&l);
    return;
  }
  if (which == D_BEGIN || which == D_END) {
    add_mark(sc, which == D_BEGIN, false, off, (unsigned)n, &l);
  } else {
    wl_suppression *d = new_sup(sc,
                                which == D_NEXT   ? WL_SUP_NEXT_LINE
                                : which == D_LINE ? WL_SUP_LINE
                                                  : WL_SUP_FILE,
                                false, off);
    give_ids(d, &l);
  }
  idlist_free(&l);
}

/* NOLINT, NOLINTNEXTLINE, NOLINTBEGIN and NOLINTEND, each with an optional
 * (ids). */
static void nolint_directive(scanner *sc, const char *p, const char *end) {
  static const struct {
    const char *name;
    size_t len;
  } forms[] = {{"NOLINTNEXTLINE", 14}, {"NOLINTBEGIN", 11}, {"NOLINTEND", 9}, {"NOLINT", 6}};
  size_t f = 0;
  while (f < 3 &&
         !((size_t)(end - p) >= forms[f].len && strncmp(p, forms[f].name, forms[f].len) == 0))
    f++;
  const char *w = p + forms[f].len;
  if (w < end && id_char(*w))
    return; /* NOLINTFOO: not a directive */
  size_t off = (size_t)(p - sc->src);
  unsigned width = (unsigned)forms[f].len;
  idlist l = {0};
  if (w < end && *w == '(') {
    for (w++; w < end && *w != ')' && *w != '\n';) {
      if (*w == ' ' || *w == '\t' || *w == ',') {
        l.separator |= *w == ',';
        w++;
        continue;
      }
      const char *t = w;
      while (w < end && *w != ',' && *w != ')' && *w != '\n' && *w != ' ' && *w != '\t')
        w++;
      idlist_add(sc, &l, t, (size_t)(w - t));
    }
    char msg[256];
    if (w >= end || *w != ')') {
      snprintf(msg, sizeof msg, "unclosed '(' in %s: it silences nothing", forms[f].name);
      problem(sc, off, width, WL_RULE_INVALID_SUPPRESSION, msg);
      idlist_free(&l);
      return;
    }
    l.separator = true; /* "()" is an empty list too */
    if (bad_list(sc, &l, off, width, forms[f].name)) {
      idlist_free(&l);
      return;
    }
  }
  if (f == 1 || f == 2) {
    add_mark(sc, f == 1, true, off, width, &l);
  } else {
    wl_suppression *d = new_sup(sc, f == 0 ? WL_SUP_NEXT_LINE : WL_SUP_LINE, true, off);
    give_ids(d, &l);
  }
  idlist_free(&l);
}

/* Pairs block begins and ends: an end closes the latest open begin of its
 * family with the same rule list. What is left unpaired is reported. */
static void pair_blocks(scanner *sc) {
  size_t *open = wl_xmalloc((sc->nmarks ? sc->nmarks : 1) * sizeof *open);
  size_t nopen = 0;
  char msg[512];
  for (size_t i = 0; i < sc->nmarks; i++) {
    block_mark *m = &sc->marks[i];
    if (m->begin) {
      open[nopen++] = i;
      continue;
    }
    size_t k = nopen;
    while (k > 0) {
      const block_mark *b = &sc->marks[open[k - 1]];
      if (b->nolint == m->nolint && strcmp(b->key, m->key) == 0)
        break;
      k--;
    }
    const char *bname = m->nolint ? "NOLINTBEGIN" : "warplint-disable-begin";
    const char *ename = m->nolint ? "NOLINTEND" : "warplint-disable-end";
    if (k == 0) {
      snprintf(msg, sizeof msg, "%s%s%.200s%s without a matching %s before it", ename,
               m->nolint && *m->key ? "("
               : m->nolint          ? ""
                                    : " ",
               m->key, m->nolint && *m->key ? ")" : "", bname);
      problem(sc, m->off, m->width, WL_RULE_UNUSED_SUPPRESSION, msg);
      continue;
    }
    block_mark *b = &sc->marks[open[k - 1]];
    memmove(&open[k - 1], &open[k], (nopen - k) * sizeof *open);
    nopen--;
    wl_suppression *d = new_sup(sc, WL_SUP_BLOCK, b->nolint, b->off);
    unsigned line, col;
    locate(sc, m->off, &line, &col);
    d->target = d->line;
    d->target_end = line;
    d->ids = b->ids;
    d->nids = b->nids;
    b->ids = NULL;
    b->nids = 0;
  }
  for (size_t k = 0; k < nopen; k++) {
    block_mark *b = &sc->marks[open[k]];
    const char *bname = b->nolint ? "NOLINTBEGIN" : "warplint-disable-begin";
    const char *ename = b->nolint ? "NOLINTEND" : "warplint-disable-end";
    snprintf(msg, sizeof msg, "%s%s%.200s%s without a matching %s: it silences nothing", bname,
             b->nolint && *b->key ? "("
             : b->nolint          ? ""
                                  : " ",
             b->key, b->nolint && *b->key ? ")" : "", ename);
    problem(sc, b->off, b->width, WL_RULE_UNUSED_SUPPRESSION, msg);
  }
  free(open);
  for (size_t i = 0; i < sc->nmarks; i++) {
    block_mark *m = &sc->marks[i];
    for (size_t k = 0; k < m->nids; k++)
      free(m->ids[k].id);
    free(m->ids);
    free(m->key);
  }
  free(sc->marks);
}

static void scan_comment(scanner *sc, const char *p, const char *end) {
  for (const char *q = p; q < end; q++) {
    bool boundary = q == p || (!id_char(q[-1]) && q[-1] != '-');
    if (!boundary)
      continue;
    if (*q == 'w' && end - q >= 16 && strncmp(q, "warplint-disable", 16) == 0)
      warplint_directive(sc, q, end);
    else if (*q == 'N' && end - q >= 6 && strncmp(q, "NOLINT", 6) == 0)
      nolint_directive(sc, q, end);
  }
}

static bool raw_prefix(const char *s, size_t n) {
  return (n == 1 && s[0] == 'R') ||
         (n == 2 && (s[0] == 'L' || s[0] == 'u' || s[0] == 'U') && s[1] == 'R') ||
         (n == 3 && strncmp(s, "u8R", 3) == 0);
}

void wl_suppressions_scan(const char *src, size_t len, const wl_rulecat *rules,
                          wl_suppressions *out) {
  memset(out, 0, sizeof *out);
  scanner sc = {src, len, NULL, 0, out, rules, NULL, 0, 0};
  size_t cap = 64;
  sc.line_starts = wl_xmalloc(cap * sizeof *sc.line_starts);
  sc.line_starts[sc.nlines++] = 0;
  for (size_t i = 0; i < len; i++)
    if (src[i] == '\n') {
      if (sc.nlines == cap) {
        cap *= 2;
        sc.line_starts = wl_xrealloc(sc.line_starts, cap * sizeof *sc.line_starts);
      }
      sc.line_starts[sc.nlines++] = i + 1;
    }
  const char *p = src, *end = src + len;
  while (p < end) {
    char c = *p;
    if (c == '/' && p + 1 < end && p[1] == '/') {
      const char *q = p + 2;
      while (q < end && !(*q == '\n' && q[-1] != '\\'))
        q++;
      scan_comment(&sc, p + 2, q);
      p = q;
    } else if (c == '/' && p + 1 < end && p[1] == '*') {
      const char *q = p + 2;
      while (q + 1 < end && !(q[0] == '*' && q[1] == '/'))
        q++;
      const char *stop = q + 1 < end ? q : end;
      scan_comment(&sc, p + 2, stop);
      p = q + 1 < end ? q + 2 : end;
    } else if (c == '"' || c == '\'') {
      const char *q = p + 1;
      while (q < end && *q != c && *q != '\n')
        q += *q == '\\' && q + 1 < end ? 2 : 1;
      p = q < end ? q + 1 : end;
    } else if (id_char(c) && !(c >= '0' && c <= '9')) {
      const char *q = p;
      while (q < end && id_char(*q))
        q++;
      if (q < end && *q == '"' && raw_prefix(p, (size_t)(q - p))) {
        /* R"delim( ... )delim" */
        const char *d = q + 1, *open = d;
        while (open < end && *open != '(' && open - d < 16)
          open++;
        size_t dl = (size_t)(open - d);
        const char *r = open < end ? open + 1 : end;
        while (r < end && !(*r == ')' && (size_t)(end - r) > dl + 1 && strncmp(r + 1, d, dl) == 0 &&
                            r[dl + 1] == '"'))
          r++;
        p = r < end ? r + dl + 2 : end;
      } else {
        p = q;
      }
    } else if (c >= '0' && c <= '9') {
      /* pp-number, digit separators included: 1'000'000, 0x1p-3 */
      const char *q = p + 1;
      while (q < end && (id_char(*q) || *q == '.' || *q == '\'' ||
                         ((*q == '+' || *q == '-') && strchr("eEpP", q[-1]))))
        q++;
      p = q;
    } else {
      p++;
    }
  }
  pair_blocks(&sc);
  free(sc.line_starts);
}

void wl_suppressions_free(wl_suppressions *s) {
  for (size_t i = 0; i < s->n; i++) {
    for (size_t k = 0; k < s->v[i].nids; k++)
      free(s->v[i].ids[k].id);
    free(s->v[i].ids);
  }
  free(s->v);
  for (size_t i = 0; i < s->nproblems; i++)
    free(s->problems[i].message);
  free(s->problems);
  memset(s, 0, sizeof *s);
}

/* Whether the suppression's lines include line. */
static bool covers_line(const wl_suppression *d, unsigned line) {
  if (d->kind == WL_SUP_FILE)
    return true;
  if (d->kind == WL_SUP_BLOCK)
    return d->target <= line && line <= d->target_end;
  return d->target == line;
}

bool wl_suppressions_match(wl_suppressions *s, const char *rule, unsigned line) {
  bool hit = false;
  for (size_t i = 0; i < s->n; i++) {
    wl_suppression *d = &s->v[i];
    if (!covers_line(d, line))
      continue;
    if (d->nids == 0) {
      d->used = true;
      hit = true;
      continue;
    }
    for (size_t k = 0; k < d->nids; k++)
      if (id_matches(d->ids[k].id, rule)) {
        d->ids[k].used = true;
        hit = true;
      }
  }
  return hit;
}

/* ------------------------------------------------------------------------ */
/* Applying                                                                 */

static bool is_pseudo(const char *id) {
  for (size_t i = 0; i < NPSEUDO; i++)
    if (strcmp(id, wl_pseudo_rules[i].id) == 0)
      return true;
  return false;
}

/* Whether the id (a glob) covers a rule that ran. */
static bool covers_enabled_rule(const wl_rulecat *rules, const char *id, const bool *enabled) {
  for (size_t i = 0; rules && i < rules->n; i++)
    if ((!enabled || enabled[i]) && id_matches(id, rules->rules[i].id))
      return true;
  return false;
}

static void add_pseudo(wl_findings *out, const char *rule, const char *file, const char *src,
                       size_t len, unsigned line, unsigned col, unsigned offset, unsigned width,
                       const char *msg) {
  wl_finding *fd =
      wl_findings_add(out, rule, WL_SEV_WARNING, file, line, col, line, col + width, msg);
  fd->offset = offset;
  size_t start = offset <= len ? offset : len;
  while (start > 0 && src[start - 1] != '\n')
    start--;
  size_t stop = start;
  while (stop < len && src[stop] != '\n' && src[stop] != '\r')
    stop++;
  /* a pathological line (megabytes of ids) is not copied into every finding */
  size_t keep = stop - start > 4096 ? 4096 : stop - start;
  wl_finding_set_line_text(fd, src + start, keep);
}

/* Moves *fd (a struct copy) to the end of f. */
static void append(wl_findings *f, const wl_finding *fd) {
  if (f->n == f->cap) {
    f->cap = f->cap ? f->cap * 2 : 16;
    f->v = wl_xrealloc(f->v, f->cap * sizeof *f->v);
  }
  f->v[f->n++] = *fd;
}

static const char *directive_name(const wl_suppression *d) {
  if (d->nolint)
    return d->kind == WL_SUP_NEXT_LINE ? "NOLINTNEXTLINE"
           : d->kind == WL_SUP_BLOCK   ? "NOLINTBEGIN"
                                       : "NOLINT";
  return d->kind == WL_SUP_NEXT_LINE ? "warplint-disable-next-line"
         : d->kind == WL_SUP_LINE    ? "warplint-disable-line"
         : d->kind == WL_SUP_BLOCK   ? "warplint-disable-begin"
                                     : "warplint-disable-file";
}

/* "on line N", "in lines N-M", "in this file" */
static void where(const wl_suppression *d, char *buf, size_t n) {
  if (d->kind == WL_SUP_FILE)
    snprintf(buf, n, "in this file");
  else if (d->kind == WL_SUP_BLOCK)
    snprintf(buf, n, "in lines %u-%u", d->target, d->target_end);
  else
    snprintf(buf, n, "on line %u", d->target);
}

void wl_suppress_apply(const char *src, size_t len, const char *file, const wl_rulecat *rules,
                       const bool *enabled, bool report_unused, wl_findings *f) {
  if (!src)
    return;
  wl_suppressions s;
  wl_suppressions_scan(src, len, rules, &s);
  if (s.n == 0 && s.nproblems == 0) {
    wl_suppressions_free(&s);
    return;
  }
  size_t w = 0;
  for (size_t r = 0; r < f->n; r++) {
    wl_finding *fd = &f->v[r];
    if (strcmp(fd->file, file) == 0 && wl_suppressions_match(&s, fd->rule, fd->line)) {
      wl_finding_free(fd);
      continue;
    }
    if (w != r)
      f->v[w] = *fd;
    w++;
  }
  f->n = w;

  wl_findings extra;
  wl_findings_init(&extra);
  char msg[512];
  for (size_t i = 0; i < s.nproblems; i++) {
    const wl_sup_problem *p = &s.problems[i];
    add_pseudo(&extra, p->rule, file, src, len, p->line, p->col, p->offset, p->width, p->message);
  }
  for (size_t i = 0; i < s.n; i++) {
    const wl_suppression *d = &s.v[i];
    char at[64];
    where(d, at, sizeof at);
    for (size_t k = 0; k < d->nids; k++) {
      const wl_sup_id *id = &d->ids[k];
      unsigned off = d->offset + (id->col - d->col);
      if (!id->known && !d->nolint) {
        snprintf(msg, sizeof msg, "unknown rule '%.200s' in %s (see --list-rules)", id->id,
                 directive_name(d));
        add_pseudo(&extra, WL_RULE_INVALID_SUPPRESSION, file, src, len, d->line, id->col, off,
                   (unsigned)strlen(id->id), msg);
      } else if (report_unused && id->known && !id->used && !is_pseudo(id->id) &&
                 covers_enabled_rule(rules, id->id, enabled)) {
        snprintf(msg, sizeof msg, "unused suppression: no '%.200s' finding %s", id->id, at);
        add_pseudo(&extra, WL_RULE_UNUSED_SUPPRESSION, file, src, len, d->line, id->col, off,
                   (unsigned)strlen(id->id), msg);
      }
    }
    if (report_unused && d->nids == 0 && !d->used && !d->nolint) {
      snprintf(msg, sizeof msg, "unused suppression: no finding %s", at);
      add_pseudo(&extra, WL_RULE_UNUSED_SUPPRESSION, file, src, len, d->line, d->col, d->offset,
                 (unsigned)strlen(directive_name(d)), msg);
    }
  }
  size_t reported = 0, dropped = 0;
  wl_finding first_dropped;
  memset(&first_dropped, 0, sizeof first_dropped);
  /* the pseudo-rules can be silenced too (warplint-disable-file unused-suppression) */
  for (size_t r = 0; r < extra.n; r++) {
    wl_finding *fd = &extra.v[r];
    bool silenced = false;
    for (size_t i = 0; i < s.n && !silenced; i++) {
      const wl_suppression *d = &s.v[i];
      if (!covers_line(d, fd->line))
        continue;
      for (size_t k = 0; k < d->nids && !silenced; k++)
        silenced = strcmp(d->ids[k].id, fd->rule) == 0;
    }
    if (silenced) {
      wl_finding_free(fd);
      continue;
    }
    if (reported == WL_SUP_MAX_REPORTS) {
      if (dropped++ == 0)
        first_dropped = *fd;
      else
        wl_finding_free(fd);
      continue;
    }
    append(f, fd);
    reported++;
  }
  if (dropped > 0) { /* one more finding, at the first one left out, saying how many */
    snprintf(msg, sizeof msg,
             "%zu more suppression problem%s in this file not reported (at most %d a file)",
             dropped, dropped == 1 ? "" : "s", WL_SUP_MAX_REPORTS);
    free(first_dropped.message);
    first_dropped.message = wl_xstrdup(msg);
    append(f, &first_dropped);
  }
  free(extra.v);
  wl_suppressions_free(&s);
}
