/* fixture_util.c - annotation parsing and two-way matching for fixture tests. */
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

typedef struct expect {
  unsigned line;
  int count;
} expect;

/* Parses every "expect: <id>[ xN]" on each line of the file for `rule`. */
static expect *read_expectations(const char *path, const char *rule, size_t *n, int *total_any) {
  size_t len = 0;
  char *text = wl_read_file(path, &len);
  *n = 0;
  if (total_any)
    *total_any = text ? 0 : -1;
  if (!text)
    return NULL;
  expect *v = NULL;
  unsigned line = 1;
  char *p = text;
  while (*p) {
    char *eol = strchr(p, '\n');
    size_t ll = eol ? (size_t)(eol - p) : strlen(p);
    char *l = wl_xmalloc(ll + 1);
    memcpy(l, p, ll);
    l[ll] = '\0';
    for (char *q = strstr(l, "expect: "); q; q = strstr(q + 1, "expect: ")) {
      char id[128];
      int cnt = 1;
      if (sscanf(q + 8, "%127[a-z0-9-]", id) != 1)
        continue;
      const char *after = q + 8 + strlen(id);
      if (after[0] == ' ' && after[1] == 'x')
        sscanf(after + 2, "%d", &cnt);
      if (total_any)
        *total_any += cnt;
      if (strcmp(id, rule) != 0)
        continue;
      v = wl_xrealloc(v, (*n + 1) * sizeof *v);
      v[*n].line = line;
      v[*n].count = cnt;
      (*n)++;
    }
    free(l);
    if (!eol)
      break;
    p = eol + 1;
    line++;
  }
  free(text);
  return v;
}

int wl_fixture_count_expectations(const char *path) {
  size_t n = 0;
  int total = 0;
  free(read_expectations(path, "", &n, &total));
  return total;
}

int wl_fixture_compare(const char *path, const char *rule, const wl_findings *f, wl_buf *report) {
  size_t n = 0;
  expect *ex = read_expectations(path, rule, &n, NULL);
  int mismatches = 0;
  /* count findings per line */
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    if (strcmp(fd->rule, rule) != 0)
      continue;
    bool matched = false;
    for (size_t j = 0; j < n; j++)
      if (ex[j].line == fd->line && ex[j].count > 0) {
        ex[j].count--;
        matched = true;
        break;
      }
    if (!matched) {
      wl_buf_printf(report, "%s:%u:%u: unexpected finding [%s]: %s\n", path, fd->line, fd->col,
                    rule, fd->message);
      mismatches++;
    }
  }
  for (size_t j = 0; j < n; j++)
    if (ex[j].count > 0) {
      wl_buf_printf(report, "%s:%u: expected %d more finding(s) of [%s], got none\n", path,
                    ex[j].line, ex[j].count, rule);
      mismatches++;
    }
  free(ex);
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
