/* config.c - the .warplint parser (a small INI/TOML-like format, see
 * config.h), inheritance (inherit, extend), the exclude globs and the
 * per-file ignores. */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "argtrust.h"
#include "compdb.h"
#include "parse.h"
#include "project.h"
#include "rules.h"
#include "suppress.h"

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

/* Whether the canonical path matches glob, relative to base (a path that is
 * base itself or not below it never matches). */
static bool glob_below(const char *glob, const char *base, const char *canonical) {
  char *rel = wl_relative_path(canonical, base);
  bool hit = rel[0] != '/' && strcmp(rel, ".") != 0 && wl_glob_match(glob, rel);
  free(rel);
  return hit;
}

bool wl_config_excludes(const wl_config *c, const char *canonical) {
  for (size_t i = 0; i < c->exclude.n; i++)
    if (glob_below(c->exclude.v[i], c->exclude_base.v[i], canonical))
      return true;
  return false;
}

bool wl_config_ignores(const wl_config *c, const char *canonical, const char *rule) {
  for (size_t i = 0; i < c->file_ignores.n; i++) {
    const wl_file_ignore *fi = c->file_ignores.v[i];
    bool names = false;
    for (size_t k = 0; k < fi->rules.n && !names; k++)
      names = fnmatch(fi->rules.v[k], rule, 0) == 0;
    if (names && glob_below(fi->glob, fi->base, canonical))
      return true;
  }
  return false;
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

static const char *const general_keys[] = {"exclude",        "extensions",  "clang-args",
                                           "cuda-arch",      "whole-warps", "rows-are-warps",
                                           "infer-includes", "inherit",     "extend"};
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
        wl_vec_push(&c->exclude_base, wl_xstrdup(cp->dir));
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
  case 6: /* infer-includes */
  case 7: /* inherit */ {
    int flag = -1;
    if (unquote(&value) && strcmp(value, "true") == 0)
      flag = 1;
    else if (strcmp(value, "false") == 0)
      flag = 0;
    else
      ok = fail(cp, "%s: '%s' is not true or false", general_keys[k], value);
    if (k == 4)
      c->whole_warps = flag;
    else if (k == 5)
      c->rows_are_warps = flag;
    else if (k == 6)
      c->infer_includes = flag;
    else if (flag >= 0) {
      c->inherit = flag == 1;
      c->extend_line = cp->line;
    }
    break;
  }
  case 8: /* extend */
    if (!unquote(&value) || *value == '\0')
      ok = fail(cp, "extend: expected the path of a configuration file");
    else {
      c->extend = wl_xstrdup(value);
      c->extend_line = cp->line;
    }
    break;
  }
  if (ok && c->inherit && c->extend)
    ok = fail(cp, "inherit and extend cannot both be given (extend names the parent)");
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
    cp->c->severity_set[i] = true;
  } else {
    return fail(cp, "%s: '%s' is not one of off, on, note, warning, error", key, value);
  }
  return true;
}

/* A rule id or a glob of ids (legacy-*): it must name a rule or pseudo-rule. */
static bool rule_pattern_known(const char *pat) {
  for (size_t i = 0; i < wl_nrules; i++)
    if (fnmatch(pat, wl_rules[i].id, 0) == 0)
      return true;
  for (size_t i = 0; i < wl_npseudo_rules; i++)
    if (fnmatch(pat, wl_pseudo_rules[i].id, 0) == 0)
      return true;
  return false;
}

/* [per-file-ignores]: "glob" = rule, rule, ... */
static bool ignore_key(cfg_parser *cp, const char *glob, char *value) {
  for (size_t i = 0; i < cp->c->file_ignores.n; i++)
    if (strcmp(((wl_file_ignore *)cp->c->file_ignores.v[i])->glob, glob) == 0)
      return fail(cp, "per-file-ignores: '%s' given twice", glob);
  wl_vec items = {0};
  bool array = false;
  const char *why = NULL;
  if (!parse_list(value, &items, &array, &why)) {
    wl_vec_free(&items);
    return fail(cp, "per-file-ignores: %s: %s", glob, why);
  }
  bool ok = true;
  if (items.n == 0)
    ok = fail(cp, "per-file-ignores: %s: no rule given (expected e.g. legacy-intrinsic)", glob);
  for (size_t i = 0; i < items.n && ok; i++)
    if (!rule_pattern_known(items.v[i]))
      ok = fail(cp, "per-file-ignores: %s: unknown rule '%s' (see warplint --list-rules)", glob,
                (const char *)items.v[i]);
  if (ok) {
    wl_file_ignore *fi = wl_xcalloc(1, sizeof *fi);
    fi->glob = wl_xstrdup(glob);
    fi->base = wl_xstrdup(cp->dir);
    for (size_t i = 0; i < items.n; i++)
      wl_vec_push(&fi->rules, wl_xstrdup(items.v[i]));
    wl_vec_push(&cp->c->file_ignores, fi);
  }
  wl_vec_free(&items);
  return ok;
}

static void config_init(wl_config *c, const char *path, const char *dir) {
  memset(c, 0, sizeof *c);
  c->path = wl_xstrdup(path);
  c->dir = wl_xstrdup(dir);
  c->whole_warps = c->rows_are_warps = c->infer_includes = -1;
  c->rules = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *c->rules);
  c->severity = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *c->severity);
  c->severity_set = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *c->severity_set);
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
  enum { SEC_GENERAL, SEC_RULES, SEC_IGNORES } section = SEC_GENERAL;
  bool ok = true;
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
      if (strcmp(name, "rules") == 0) {
        section = SEC_RULES;
      } else if (strcmp(name, "per-file-ignores") == 0) {
        section = SEC_IGNORES;
      } else {
        ok = fail(&cp, "unknown section '[%s]' (the sections are [rules] and [per-file-ignores])",
                  name);
        break;
      }
      continue;
    }
    /* a quoted key may hold '=' (a glob of [per-file-ignores]) */
    char *eq = NULL;
    if (*s == '"' || *s == '\'') {
      char *close = strchr(s + 1, *s);
      eq = close ? strchr(close + 1, '=') : NULL;
    } else {
      eq = strchr(s, '=');
    }
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
    if (section == SEC_RULES) {
      ok = rule_key(&cp, key, value);
      continue;
    }
    if (section == SEC_IGNORES) {
      ok = ignore_key(&cp, key, value);
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
                      "whole-warps, rows-are-warps, infer-includes, inherit, extend, or a "
                      "[rules] or [per-file-ignores] section)",
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
  wl_vec_push(&c->sources, wl_xstrdup(canon));
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

static void copy_strings(wl_vec *dst, const wl_vec *src) {
  for (size_t i = 0; i < src->n; i++)
    wl_vec_push(dst, wl_xstrdup(src->v[i]));
}

void wl_config_merge_parent(wl_config *c, const wl_config *parent) {
  for (size_t i = 0; i < wl_nrules; i++) {
    if (c->rules[i] == WL_RULE_UNSET)
      c->rules[i] = parent->rules[i];
    if (!c->severity_set[i] && parent->severity_set[i]) { /* "on" keeps the parent's severity */
      c->severity[i] = parent->severity[i];
      c->severity_set[i] = true;
    }
  }
  copy_strings(&c->exclude, &parent->exclude);
  copy_strings(&c->exclude_base, &parent->exclude_base);
  for (size_t i = 0; i < parent->file_ignores.n; i++) {
    const wl_file_ignore *pf = parent->file_ignores.v[i];
    wl_file_ignore *fi = wl_xcalloc(1, sizeof *fi);
    fi->glob = wl_xstrdup(pf->glob);
    fi->base = wl_xstrdup(pf->base);
    copy_strings(&fi->rules, &pf->rules);
    wl_vec_push(&c->file_ignores, fi);
  }
  if (c->extensions.n == 0)
    copy_strings(&c->extensions, &parent->extensions);
  /* the parent's clang-args first: a later -D or -U of the child wins */
  wl_vec args = {0};
  copy_strings(&args, &parent->clang_args);
  for (size_t i = 0; i < c->clang_args.n; i++)
    wl_vec_push(&args, c->clang_args.v[i]);
  wl_vec_free(&c->clang_args);
  c->clang_args = args;
  if (!c->arch)
    c->arch = parent->arch;
  if (c->whole_warps < 0)
    c->whole_warps = parent->whole_warps;
  if (c->rows_are_warps < 0)
    c->rows_are_warps = parent->rows_are_warps;
  if (c->infer_includes < 0)
    c->infer_includes = parent->infer_includes;
  copy_strings(&c->sources, &parent->sources);
}

/* The parent of c: the file extend names, or with inherit the nearest
 * other .warplint at or above c's directory up to root. NULL with err empty:
 * there is none; NULL with err set: an error. */
static char *config_parent(const wl_config *c, const char *canon, const char *root, wl_buf *err) {
  if (c->extend) {
    char *full = wl_join_path(c->dir, c->extend);
    struct stat st;
    char *parent = NULL;
    if (stat(full, &st) != 0) {
      wl_buf_printf(err, "%s:%u: extend: cannot read '%s': %s", c->path, c->extend_line, c->extend,
                    strerror(errno));
    } else {
      parent = wl_canonical_path(full);
      if (!wl_path_within(parent, root)) {
        wl_buf_printf(err,
                      "%s:%u: extend: '%s' lies outside the project root %s (a .warplint may "
                      "only extend a file of its project)",
                      c->path, c->extend_line, c->extend, root);
        free(parent);
        parent = NULL;
      } else if (!S_ISREG(st.st_mode)) {
        wl_buf_printf(err, "%s:%u: extend: '%s' is not a regular file", c->path, c->extend_line,
                      c->extend);
        free(parent);
        parent = NULL;
      }
    }
    free(full);
    return parent;
  }
  if (!c->inherit || !wl_path_within(c->dir, root))
    return NULL;
  char *d = wl_xstrdup(c->dir);
  char *found = NULL;
  for (;;) {
    char *p = wl_join_path(d, WL_CONFIG_NAME);
    struct stat st;
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
      char *pc = wl_canonical_path(p);
      if (strcmp(pc, canon) != 0)
        found = pc;
      else
        free(pc);
    }
    free(p);
    if (found || strcmp(d, root) == 0 || strcmp(d, "/") == 0)
      break;
    char *slash = strrchr(d, '/');
    slash[slash == d ? 1 : 0] = '\0';
  }
  free(d);
  return found;
}

static bool load_tree(const char *path, const char *root, wl_vec *chain, wl_config *c,
                      wl_buf *err) {
  char *canon = wl_canonical_path(path);
  for (size_t i = 0; i < chain->n; i++)
    if (strcmp(chain->v[i], canon) == 0) {
      config_init(c, path, root);
      wl_buf_printf(err, "%s: inherit/extend cycle: it is its own parent through %s", path,
                    (const char *)chain->v[chain->n - 1]);
      free(canon);
      return false;
    }
  if (chain->n >= WL_CONFIG_MAX_CHAIN) {
    config_init(c, path, root);
    wl_buf_printf(err, "%s: more than %d configuration files inherit from one another", path,
                  WL_CONFIG_MAX_CHAIN);
    free(canon);
    return false;
  }
  wl_vec_push(chain, canon);
  if (!wl_config_load(path, c, err))
    return false;
  char *parent = config_parent(c, canon, root, err);
  if (!parent)
    return err->len == 0;
  wl_config pc;
  bool ok = load_tree(parent, root, chain, &pc, err);
  if (ok)
    wl_config_merge_parent(c, &pc);
  wl_config_free(&pc);
  free(parent);
  return ok;
}

bool wl_config_load_tree(const char *path, const char *root, wl_config *c, wl_buf *err) {
  wl_vec chain = {0};
  bool ok = load_tree(path, root, &chain, c, err);
  free_strings(&chain);
  return ok;
}

void wl_config_free(wl_config *c) {
  free(c->path);
  free(c->dir);
  free(c->rules);
  free(c->severity);
  free(c->severity_set);
  free(c->extend);
  free_strings(&c->exclude);
  free_strings(&c->exclude_base);
  for (size_t i = 0; i < c->file_ignores.n; i++) {
    wl_file_ignore *fi = c->file_ignores.v[i];
    free(fi->glob);
    free(fi->base);
    free_strings(&fi->rules);
    free(fi);
  }
  wl_vec_free(&c->file_ignores);
  free_strings(&c->extensions);
  free_strings(&c->clang_args);
  free_strings(&c->sources);
  memset(c, 0, sizeof *c);
}
