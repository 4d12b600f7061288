/* config.c - the .warplint parser (a small INI/TOML-like format, see
 * config.h) and the exclude globs. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "argtrust.h"
#include "compdb.h"
#include "parse.h"
#include "rules.h"

/* ------------------------------------------------------------------------ */
/* Globs                                                                    */

static size_t split_segments(char *s, char **seg, size_t max) {
  size_t n = 0;
  for (char *save = NULL, *tok = strtok_r(s, "/", &save); tok && n < max;
       tok = strtok_r(NULL, "/", &save))
    if (strcmp(tok, ".") != 0)
      seg[n++] = tok;
  return n;
}

/* Pattern segments [pi..) against path segments [ri..); leftover path
 * segments are allowed (a matching directory covers what is below it). */
static bool match_segments(char **p, size_t np, size_t pi, char **r, size_t nr, size_t ri) {
  if (pi == np)
    return true;
  if (strcmp(p[pi], "**") == 0)
    return match_segments(p, np, pi + 1, r, nr, ri) ||
           (ri < nr && match_segments(p, np, pi, r, nr, ri + 1));
  if (ri == nr)
    return false;
  return fnmatch(p[pi], r[ri], 0) == 0 && match_segments(p, np, pi + 1, r, nr, ri + 1);
}

bool wl_glob_match(const char *pattern, const char *relpath) {
  enum { MAXSEG = 128 };
  while (pattern[0] == '.' && pattern[1] == '/')
    pattern += 2;
  bool anchored = pattern[0] == '/';
  char *pat = wl_xstrdup(pattern + anchored), *rel = wl_xstrdup(relpath);
  size_t pl = strlen(pat);
  while (pl > 0 && pat[pl - 1] == '/') /* "build/" names a directory like "build" */
    pat[--pl] = '\0';
  anchored = anchored || strchr(pat, '/') != NULL;
  char *pseg[MAXSEG], *rseg[MAXSEG];
  size_t np = split_segments(pat, pseg, MAXSEG);
  size_t nr = split_segments(rel, rseg, MAXSEG);
  bool hit = false;
  if (np > 0 && anchored) {
    hit = match_segments(pseg, np, 0, rseg, nr, 0);
  } else if (np > 0) {
    for (size_t i = 0; i < nr && !hit; i++)
      hit = strcmp(pseg[0], "**") == 0 || fnmatch(pseg[0], rseg[i], 0) == 0;
  }
  free(pat);
  free(rel);
  return hit;
}

bool wl_config_excludes(const wl_config *c, const char *canonical) {
  if (c->exclude.n == 0 || !c->dir)
    return false;
  char *rel = wl_relative_path(canonical, c->dir);
  bool hit = false;
  if (rel[0] != '/' && strcmp(rel, ".") != 0)
    for (size_t i = 0; i < c->exclude.n && !hit; i++)
      hit = wl_glob_match(c->exclude.v[i], rel);
  free(rel);
  return hit;
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                  */

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t')
    s++;
  size_t n = strlen(s);
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
    s[--n] = '\0';
  return s;
}

/* Removes one pair of surrounding quotes; false for an unbalanced quote. */
static bool unquote(char **s) {
  char *v = *s;
  size_t n = strlen(v);
  if (n == 0 || (v[0] != '"' && v[0] != '\''))
    return true;
  if (n < 2 || v[n - 1] != v[0])
    return false;
  v[n - 1] = '\0';
  *s = v + 1;
  return true;
}

/* "a, b" or ["a", "b"]: pointers into value (modified). */
static bool parse_list(char *value, wl_vec *items, bool *array, const char **why) {
  *array = false;
  size_t n = strlen(value);
  if (value[0] == '[') {
    if (n < 2 || value[n - 1] != ']') {
      *why = "a list that starts with '[' must end with ']'";
      return false;
    }
    value[n - 1] = '\0';
    value++;
    *array = true;
  }
  /* split on commas outside quotes */
  char *start = value;
  char quote = 0;
  for (char *p = value;; p++) {
    if (quote) {
      if (*p == quote)
        quote = 0;
      else if (*p == '\0') {
        *why = "unterminated quote";
        return false;
      }
      continue;
    }
    if (*p == '"' || *p == '\'') {
      quote = *p;
      continue;
    }
    if (*p == ',' || *p == '\0') {
      bool last = *p == '\0';
      *p = '\0';
      char *item = trim(start);
      if (!unquote(&item)) {
        *why = "unbalanced quote";
        return false;
      }
      if (*item)
        wl_vec_push(items, item);
      if (last)
        break;
      start = p + 1;
    }
  }
  return true;
}

/* Cuts a '#' comment that starts the line or follows a blank, outside quotes. */
static void strip_comment(char *line) {
  char quote = 0;
  for (char *p = line; *p; p++) {
    if (quote) {
      quote = *p == quote ? 0 : quote;
    } else if (*p == '"' || *p == '\'') {
      quote = *p;
    } else if (*p == '#' && (p == line || p[-1] == ' ' || p[-1] == '\t')) {
      *p = '\0';
      return;
    }
  }
}

static const char *const general_keys[] = {"exclude",       "extensions",  "clang-args",
                                           "cuda-arch",     "whole-warps", "rows-are-warps",
                                           "infer-includes"};
#define NGENERAL (sizeof general_keys / sizeof general_keys[0])

typedef struct cfg_parser {
  const char *path;
  const char *dir;
  wl_config *c;
  wl_buf *err;
  unsigned line;
  unsigned general_line[NGENERAL]; /* where each key was set (duplicates) */
  unsigned *rule_line;
} cfg_parser;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool
fail(cfg_parser *cp, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  wl_buf_printf(cp->err, "%s:%u: %s", cp->path, cp->line, msg);
  return false;
}

/* -Iinc / -I inc / -isystem inc ...: relative directories are relative to
 * the config's directory. */
static void add_clang_args(cfg_parser *cp, wl_vec *words) {
  static const char *const dir_flags[] = {"-I", "-isystem", "-iquote", "-idirafter"};
  for (size_t i = 0; i < words->n; i++) {
    const char *w = words->v[i];
    const char *flag = NULL, *path = NULL;
    for (size_t k = 0; k < 4 && !flag; k++) {
      size_t fl = strlen(dir_flags[k]);
      if (strncmp(w, dir_flags[k], fl) != 0)
        continue;
      if (w[fl] == '\0' && i + 1 < words->n) { /* -I dir: the flag, then the directory */
        wl_vec_push(&cp->c->clang_args, wl_xstrdup(w));
        flag = "";
        path = words->v[++i];
      } else if (w[fl] != '\0') { /* -Idir */
        flag = dir_flags[k];
        path = w + fl;
      }
    }
    if (!flag) {
      wl_vec_push(&cp->c->clang_args, wl_xstrdup(w));
      continue;
    }
    wl_buf b;
    wl_buf_init(&b);
    if (path[0] == '/')
      wl_buf_printf(&b, "%s%s", flag, path);
    else
      wl_buf_printf(&b, "%s%s/%s", flag, cp->dir, path);
    wl_vec_push(&cp->c->clang_args, wl_buf_detach(&b));
  }
}

static bool general_key(cfg_parser *cp, size_t k, char *value) {
  wl_config *c = cp->c;
  wl_vec items = {0};
  bool array = false;
  const char *why = NULL;
  bool ok = true;
  switch (k) {
  case 0: /* exclude */
  case 1: /* extensions */
    if (!parse_list(value, &items, &array, &why)) {
      ok = fail(cp, "%s: %s", general_keys[k], why);
      break;
    }
    for (size_t i = 0; i < items.n && ok; i++) {
      char *it = items.v[i];
      if (k == 0) {
        wl_vec_push(&c->exclude, wl_xstrdup(it));
        continue;
      }
      if (*it == '.')
        it++;
      for (const char *p = it; *p && ok; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '+'))
          ok = fail(cp, "extensions: '%s' is not a file extension (expected e.g. cu, cuh)", it);
      if (ok && *it)
        wl_vec_push(&c->extensions, wl_xstrdup(it));
    }
    if (ok && k == 1 && c->extensions.n == 0)
      ok = fail(cp, "extensions: the list is empty (expected e.g. cu, cuh)");
    break;
  case 2: { /* clang-args */
    wl_vec words = {0};
    if (value[0] == '[') {
      if (!parse_list(value, &items, &array, &why)) {
        ok = fail(cp, "clang-args: %s", why);
        break;
      }
      for (size_t i = 0; i < items.n; i++)
        wl_vec_push(&words, wl_xstrdup(items.v[i]));
    } else {
      wl_buf e;
      wl_buf_init(&e);
      if (!wl_split_args(value, &words, &e))
        ok = fail(cp, "clang-args: %s", wl_buf_str(&e));
      wl_buf_free(&e);
    }
    /* a repository's .warplint is untrusted: only the allow-list of argtrust.h */
    for (size_t i = 0; i < words.n && ok;) {
      const char *reason = NULL;
      size_t n = wl_arg_trusted((const char *const *)words.v, words.n, i, &reason);
      if (n == 0)
        ok = fail(cp,
                  "clang-args: '%s' is not allowed: %s (a .warplint may set include paths, "
                  "macros, language and standard flags; give other flags after -- on the "
                  "command line)",
                  (const char *)words.v[i], reason);
      i += n;
    }
    if (ok)
      add_clang_args(cp, &words);
    for (size_t i = 0; i < words.n; i++)
      free(words.v[i]);
    wl_vec_free(&words);
    break;
  }
  case 3: /* cuda-arch */
    if (!unquote(&value) || !(c->arch = wl_parse_arch(value)))
      ok = fail(cp, "cuda-arch: '%s' is not a GPU architecture (expected e.g. sm_80)", value);
    break;
  case 4: /* whole-warps */
  case 5: /* rows-are-warps */
  case 6: /* infer-includes */ {
    int *dst = k == 4 ? &c->whole_warps : k == 5 ? &c->rows_are_warps : &c->infer_includes;
    if (unquote(&value) && strcmp(value, "true") == 0)
      *dst = 1;
    else if (strcmp(value, "false") == 0)
      *dst = 0;
    else
      ok = fail(cp, "%s: '%s' is not true or false", general_keys[k], value);
    break;
  }
  }
  wl_vec_free(&items);
  return ok;
}

static bool rule_key(cfg_parser *cp, const char *key, char *value) {
  const wl_rule *r = wl_rule_find(key);
  if (!r) {
    for (size_t k = 0; k < NGENERAL; k++)
      if (strcmp(key, general_keys[k]) == 0)
        return fail(cp, "'%s' belongs before the [rules] section", key);
    return fail(cp, "unknown rule '%s' (see warplint --list-rules)", key);
  }
  size_t i = wl_rule_index(r);
  if (cp->rule_line[i])
    return fail(cp, "rule '%s' set twice (first on line %u)", key, cp->rule_line[i]);
  cp->rule_line[i] = cp->line;
  if (!unquote(&value))
    return fail(cp, "%s: unbalanced quote", key);
  wl_severity sev;
  if (strcmp(value, "off") == 0) {
    cp->c->rules[i] = WL_RULE_OFF;
  } else if (strcmp(value, "on") == 0) {
    cp->c->rules[i] = WL_RULE_ON;
  } else if (wl_severity_parse(value, &sev)) {
    cp->c->rules[i] = WL_RULE_ON;
    cp->c->severity[i] = sev;
  } else {
    return fail(cp, "%s: '%s' is not one of off, on, note, warning, error", key, value);
  }
  return true;
}

static void config_init(wl_config *c, const char *path, const char *dir) {
  memset(c, 0, sizeof *c);
  c->path = wl_xstrdup(path);
  c->dir = wl_xstrdup(dir);
  c->whole_warps = c->rows_are_warps = c->infer_includes = -1;
  c->rules = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *c->rules);
  c->severity = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *c->severity);
  for (size_t i = 0; i < wl_nrules; i++)
    c->severity[i] = wl_rules[i].severity;
}

bool wl_config_parse(const char *path, const char *dir, const char *text, wl_config *c,
                     wl_buf *err) {
  config_init(c, path, dir);
  cfg_parser cp;
  memset(&cp, 0, sizeof cp);
  cp.path = path;
  cp.dir = dir;
  cp.c = c;
  cp.err = err;
  cp.rule_line = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *cp.rule_line);
  char *copy = wl_xstrdup(text);
  bool in_rules = false, ok = true;
  char *line = copy;
  while (line && ok) {
    char *nl = strchr(line, '\n');
    if (nl)
      *nl = '\0';
    cp.line++;
    strip_comment(line);
    char *s = trim(line);
    line = nl ? nl + 1 : NULL;
    if (*s == '\0' || *s == '#' || *s == ';')
      continue;
    if (*s == '[') {
      size_t n = strlen(s);
      if (s[n - 1] != ']') {
        ok = fail(&cp, "a section header must end with ']'");
        break;
      }
      s[n - 1] = '\0';
      char *name = trim(s + 1);
      if (strcmp(name, "rules") != 0) {
        ok = fail(&cp, "unknown section '[%s]' (the only section is [rules])", name);
        break;
      }
      in_rules = true;
      continue;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
      ok = fail(&cp, "expected 'key = value', got '%.80s'", s);
      break;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!unquote(&key) || *key == '\0') {
      ok = fail(&cp, "missing key before '='");
      break;
    }
    if (in_rules) {
      ok = rule_key(&cp, key, value);
      continue;
    }
    size_t k = 0;
    while (k < NGENERAL && strcmp(key, general_keys[k]) != 0)
      k++;
    if (k == NGENERAL) {
      ok = wl_rule_find(key)
               ? fail(&cp, "rule '%s' must be set in the [rules] section", key)
               : fail(&cp,
                      "unknown key '%s' (expected exclude, extensions, clang-args, cuda-arch, "
                      "whole-warps, rows-are-warps, or a [rules] section)",
                      key);
      break;
    }
    if (cp.general_line[k]) {
      ok = fail(&cp, "'%s' set twice (first on line %u)", key, cp.general_line[k]);
      break;
    }
    cp.general_line[k] = cp.line;
    ok = general_key(&cp, k, value);
  }
  free(copy);
  free(cp.rule_line);
  return ok;
}

bool wl_config_load(const char *path, wl_config *c, wl_buf *err) {
  char *canon = wl_canonical_path(path);
  char *dir = wl_xstrdup(canon);
  char *slash = strrchr(dir, '/');
  slash[slash == dir ? 1 : 0] = '\0';
  size_t len = 0;
  wl_buf why;
  wl_buf_init(&why);
  char *text = wl_read_file_max(path, WL_READ_MAX_CONFIG, &len, &why);
  bool ok;
  if (!text) {
    config_init(c, path, dir);
    wl_buf_printf(err, "%s: cannot read: %s", path, wl_buf_str(&why));
    ok = false;
  } else if (memchr(text, '\0', len)) {
    config_init(c, path, dir);
    wl_buf_printf(err, "%s: not a text file", path);
    ok = false;
  } else {
    ok = wl_config_parse(path, dir, text, c, err);
  }
  free(text);
  free(dir);
  free(canon);
  wl_buf_free(&why);
  return ok;
}

static void free_strings(wl_vec *v) {
  for (size_t i = 0; i < v->n; i++)
    free(v->v[i]);
  wl_vec_free(v);
}

void wl_config_free(wl_config *c) {
  free(c->path);
  free(c->dir);
  free(c->rules);
  free(c->severity);
  free_strings(&c->exclude);
  free_strings(&c->extensions);
  free_strings(&c->clang_args);
  memset(c, 0, sizeof *c);
}
