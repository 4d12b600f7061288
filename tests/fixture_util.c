/* fixture_util.c - annotation parsing and two-way matching for fixture
 * tests (the grammar is in fixture_util.h). */
#include "fixture_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analyze.h"
#include "rules.h"

bool wl_fixture_analyze(const char *path, const char *rule, wl_findings *out, wl_buf *err) {
  bool *enabled = wl_xcalloc(wl_nrules, sizeof *enabled);
  for (size_t i = 0; i < wl_nrules; i++)
    enabled[i] = !rule || strcmp(wl_rules[i].id, rule) == 0;
  wl_analyze_opts o;
  memset(&o, 0, sizeof o);
  o.parse.arch = 75;
  o.enabled = enabled;
  wl_parser *p = wl_parser_new();
  wl_parse_status st = wl_analyze_file(p, path, NULL, &o, out, err);
  wl_parser_free(p);
  free(enabled);
  wl_findings_sort_dedup(out);
  return st == WL_PARSE_OK;
}

/* One annotation (fixture_util.h gives the grammar). */
typedef struct expect {
  unsigned line; /* the line it is about */
  unsigned at;   /* the line it is written on */
  int count;     /* findings still expected */
  unsigned col;  /* 0: any column */
  char *msg;     /* NULL: any message; else the full message */
  bool missed;   /* expect-missed: a known false negative */
} expect;

typedef struct expects {
  expect *v;
  size_t n;
} expects;

static void expects_free(expects *e) {
  for (size_t i = 0; i < e->n; i++)
    free(e->v[i].msg);
  free(e->v);
}

/* Reads a "..." string with \" and \\ escapes at p; NULL when unterminated. */
static char *read_quoted(const char *p, const char **end) {
  wl_buf b;
  wl_buf_init(&b);
  for (p++; *p && *p != '"'; p++) {
    if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
      p++;
    wl_buf_add(&b, p, 1);
  }
  if (*p != '"') {
    wl_buf_free(&b);
    return NULL;
  }
  *end = p + 1;
  char *s = wl_xstrdup(wl_buf_str(&b));
  wl_buf_free(&b);
  return s;
}

/* Parses the annotation starting at q ("expect..."); false when q is not
 * one (prose that contains the word). Sets *next past what was read. */
static bool parse_annotation(const char *q, unsigned line, expect *out, char *id, size_t idsize,
                             const char **next) {
  const char *p = q + 6; /* "expect" */
  memset(out, 0, sizeof *out);
  out->count = 1;
  out->at = out->line = line;
  if (strncmp(p, "-missed", 7) == 0) {
    out->missed = true;
    p += 7;
  }
  if (*p == '@') { /* expect@-1: the line above; expect@+2: two below */
    char *e;
    long off = strtol(p + 1, &e, 10);
    if (e == p + 1 || (p[1] != '-' && p[1] != '+') || (long)line + off < 1)
      return false;
    out->line = (unsigned)((long)line + off);
    p = e;
  }
  if (p[0] != ':' || p[1] != ' ')
    return false;
  p += 2;
  size_t n = 0;
  while (n + 1 < idsize &&
         ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= '0' && p[n] <= '9') || p[n] == '-'))
    n++;
  if (n == 0)
    return false;
  memcpy(id, p, n);
  id[n] = '\0';
  p += n;
  for (;;) {
    if (p[0] == ' ' && p[1] == 'x' && p[2] >= '0' && p[2] <= '9') {
      out->count = (int)strtol(p + 2, (char **)&p, 10);
    } else if (strncmp(p, " col=", 5) == 0 && p[5] >= '0' && p[5] <= '9') {
      out->col = (unsigned)strtoul(p + 5, (char **)&p, 10);
    } else if (strncmp(p, " msg=\"", 6) == 0) {
      const char *e = NULL;
      char *m = read_quoted(p + 5, &e);
      if (!m)
        break; /* unterminated: no message constraint, the rest is prose */
      free(out->msg);
      out->msg = m;
      p = e;
    } else {
      break;
    }
  }
  *next = p;
  return true;
}

/* Every annotation of the file for `rule` ("" for none, only counting);
 * *total_any: the findings expected of any rule (expect: only), -1 when the
 * file cannot be read. */
static expects read_expectations(const char *path, const char *rule, int *total_any) {
  expects ex = {NULL, 0};
  size_t len = 0;
  char *text = wl_read_file(path, &len);
  if (total_any)
    *total_any = text ? 0 : -1;
  if (!text)
    return ex;
  unsigned line = 1;
  char *p = text;
  while (*p) {
    char *eol = strchr(p, '\n');
    size_t ll = eol ? (size_t)(eol - p) : strlen(p);
    char *l = wl_xmalloc(ll + 1);
    memcpy(l, p, ll);
    l[ll] = '\0';
    const char *q = strstr(l, "expect");
    while (q) {
      char id[128];
      expect e;
      const char *next = q + 6;
      if (parse_annotation(q, line, &e, id, sizeof id, &next)) {
        if (total_any && !e.missed)
          *total_any += e.count;
        if (strcmp(id, rule) == 0) {
          ex.v = wl_xrealloc(ex.v, (ex.n + 1) * sizeof *ex.v);
          ex.v[ex.n++] = e;
        } else {
          free(e.msg);
        }
      }
      q = strstr(next, "expect");
    }
    free(l);
    if (!eol)
      break;
    p = eol + 1;
    line++;
  }
  free(text);
  return ex;
}

int wl_fixture_count_expectations(const char *path) {
  int total = 0;
  expects ex = read_expectations(path, "", &total);
  expects_free(&ex);
  return total;
}

static bool constrained(const expect *e) { return e->col || e->msg; }

static bool fits(const expect *e, const wl_finding *fd) {
  return e->line == fd->line && (!e->col || e->col == fd->col) &&
         (!e->msg || strcmp(e->msg, fd->message) == 0);
}

static void describe(wl_buf *b, const expect *e) {
  if (e->col)
    wl_buf_printf(b, " at column %u", e->col);
  if (e->msg)
    wl_buf_printf(b, " with the message \"%s\"", e->msg);
}

int wl_fixture_compare(const char *path, const char *rule, const wl_findings *f, wl_buf *report,
                       wl_buf *missed) {
  expects ex = read_expectations(path, rule, NULL);
  int mismatches = 0;
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    if (strcmp(fd->rule, rule) != 0)
      continue;
    /* the most specific expectation first: one with a column or message */
    expect *hit = NULL;
    for (int pass = 0; pass < 2 && !hit; pass++)
      for (size_t j = 0; j < ex.n && !hit; j++)
        if (!ex.v[j].missed && ex.v[j].count > 0 && constrained(&ex.v[j]) == (pass == 0) &&
            fits(&ex.v[j], fd))
          hit = &ex.v[j];
    if (hit) {
      hit->count--;
      continue;
    }
    for (size_t j = 0; j < ex.n && !hit; j++)
      if (ex.v[j].missed && ex.v[j].count > 0 && fits(&ex.v[j], fd))
        hit = &ex.v[j];
    if (hit) {
      hit->count--;
      wl_buf_printf(report,
                    "%s:%u:%u: known miss found [%s]: promote the 'expect-missed:' of line %u to "
                    "'expect:': %s\n",
                    path, fd->line, fd->col, rule, hit->at, fd->message);
      mismatches++;
      continue;
    }
    wl_buf_printf(report, "%s:%u:%u: unexpected finding [%s]: %s\n", path, fd->line, fd->col, rule,
                  fd->message);
    mismatches++;
  }
  for (size_t j = 0; j < ex.n; j++) {
    const expect *e = &ex.v[j];
    if (e->count <= 0)
      continue;
    wl_buf *to = e->missed ? missed : report;
    if (e->missed && !to)
      continue;
    wl_buf_printf(to, "%s:%u: %s %d finding(s) of [%s]", path, e->line,
                  e->missed ? "known miss:" : "expected", e->count, rule);
    describe(to, e);
    wl_buf_puts(to, e->missed ? " (expect-missed)\n" : ", got none\n");
    mismatches += !e->missed;
  }
  expects_free(&ex);
  return mismatches;
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t wl_fixture_list(const char *dir, char ***names) {
  *names = NULL;
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  size_t n = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    const char *dot = strrchr(de->d_name, '.');
    if (de->d_name[0] == '.' || !dot || (strcmp(dot, ".cu") != 0 && strcmp(dot, ".cuh") != 0))
      continue;
    *names = wl_xrealloc(*names, (n + 1) * sizeof **names);
    (*names)[n++] = wl_xstrdup(de->d_name);
  }
  closedir(d);
  qsort(*names, n, sizeof **names, cmp_name);
  return n;
}
