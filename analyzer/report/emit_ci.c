/* emit_ci.c - the formats CI systems read: GitHub Actions workflow commands
 * (annotations), GitLab Code Quality JSON and JUnit XML. Paths are written
 * relative to the working directory (the checkout in CI), normalized. */
#include <json-c/json.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "emit.h"
#include "outpath.h"

static char *out_path(const char *file, const wl_emit_info *info) {
  wl_buf b;
  wl_buf_init(&b);
  wl_outpath(file, info ? info->cwd : NULL, &b);
  return wl_buf_detach(&b);
}

/* A finding's message followed by its notes, one per line. */
static void message_with_notes(const wl_finding *fd, const wl_emit_info *info, wl_buf *b) {
  wl_buf_puts(b, fd->message ? fd->message : "");
  for (size_t i = 0; i < fd->nnotes; i++) {
    const wl_note *n = &fd->notes[i];
    char *p = out_path(n->file, info);
    wl_buf_printf(b, "\nnote: %s:%u:%u: %s", p, n->line, n->col, n->message ? n->message : "");
    free(p);
  }
}

static int finish(FILE *out) {
  if (fflush(out) != 0 || ferror(out))
    return -1;
  return 0;
}

/* ---- GitHub Actions ---------------------------------------------------------
 * ::warning file=F,line=L,col=C,endLine=L,endColumn=C,title=T::MESSAGE
 * Escaping as in @actions/core (toCommandValue, escapeData, escapeProperty):
 * data escapes % CR LF; properties also escape ':' and ','. */

static void gh_escape(wl_buf *b, const char *s, bool property) {
  for (; s && *s; s++) {
    switch (*s) {
    case '%': wl_buf_puts(b, "%25"); break;
    case '\r': wl_buf_puts(b, "%0D"); break;
    case '\n': wl_buf_puts(b, "%0A"); break;
    case ':':
      if (property)
        wl_buf_puts(b, "%3A");
      else
        wl_buf_putc(b, ':');
      break;
    case ',':
      if (property)
        wl_buf_puts(b, "%2C");
      else
        wl_buf_putc(b, ',');
      break;
    default: wl_buf_putc(b, *s); break;
    }
  }
}

static const char *gh_level(wl_severity s) {
  return s == WL_SEV_ERROR ? "error" : s == WL_SEV_WARNING ? "warning" : "notice";
}

int wl_emit_github(FILE *out, const wl_findings *f, const wl_emit_info *info) {
  wl_buf b;
  wl_buf_init(&b);
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    char *p = out_path(fd->file, info);
    wl_buf_printf(&b, "::%s file=", gh_level(fd->severity));
    gh_escape(&b, p, true);
    free(p);
    if (fd->line > 0) {
      wl_buf_printf(&b, ",line=%u", fd->line);
      if (fd->col > 0)
        wl_buf_printf(&b, ",col=%u", fd->col);
      if (fd->end_line >= fd->line && fd->end_col > 0) {
        wl_buf_printf(&b, ",endLine=%u", fd->end_line);
        /* GitHub takes endColumn only on a one-line range (inclusive) */
        if (fd->end_line == fd->line && fd->end_col > fd->col)
          wl_buf_printf(&b, ",endColumn=%u", fd->end_col - 1);
      }
    }
    wl_buf_puts(&b, ",title=");
    wl_buf t;
    wl_buf_init(&t);
    wl_buf_printf(&t, "warplint [%s]", fd->rule);
    gh_escape(&b, wl_buf_str(&t), true);
    wl_buf_free(&t);
    wl_buf_puts(&b, "::");
    wl_buf m;
    wl_buf_init(&m);
    message_with_notes(fd, info, &m);
    gh_escape(&b, wl_buf_str(&m), false);
    wl_buf_free(&m);
    wl_buf_putc(&b, '\n');
  }
  for (size_t i = 0; i < f->nnotices; i++) { /* parts of files not analyzed */
    const wl_note *n = &f->notices[i];
    char *p = out_path(n->file, info);
    wl_buf_puts(&b, "::notice file=");
    gh_escape(&b, p, true);
    free(p);
    if (n->line > 0)
      wl_buf_printf(&b, ",line=%u", n->line);
    wl_buf_puts(&b, ",title=warplint::");
    gh_escape(&b, n->message, false);
    wl_buf_putc(&b, '\n');
  }
  for (size_t i = 0; info && i < info->nerrors; i++) {
    const wl_input_error *e = &info->errors[i];
    wl_buf_puts(&b, "::error ");
    if (e->path) {
      char *p = out_path(e->path, info);
      wl_buf_puts(&b, "file=");
      gh_escape(&b, p, true);
      wl_buf_putc(&b, ',');
      free(p);
    }
    wl_buf_puts(&b, "title=warplint::");
    gh_escape(&b, e->message, false);
    wl_buf_putc(&b, '\n');
  }
  int rc = b.len && fwrite(b.data, 1, b.len, out) != b.len ? -1 : 0;
  wl_buf_free(&b);
  return rc ? rc : finish(out);
}

/* ---- GitLab Code Quality ----------------------------------------------------
 * An array of issues (a subset of the Code Climate spec, as GitLab documents
 * it): description, check_name, fingerprint, severity, location.path,
 * location.lines.begin. */

static const char *gl_severity(wl_severity s) {
  return s == WL_SEV_ERROR ? "critical" : s == WL_SEV_WARNING ? "major" : "info";
}

/* FNV-1a, 64 bits, over the parts (NUL-separated): the fingerprint of an
 * input error, which has no line text. */
static void fnv_hex(const char *const *parts, size_t n, char out[33]) {
  uint64_t h1 = 1469598103934665603ULL, h2 = 0x84222325cbf29ce4ULL;
  for (size_t i = 0; i < n; i++) {
    for (const unsigned char *p = (const unsigned char *)(parts[i] ? parts[i] : "");; p++) {
      h1 = (h1 ^ *p) * 1099511628211ULL;
      h2 = (h2 ^ *p) * 1099511628211ULL + 1;
      if (!*p)
        break;
    }
  }
  snprintf(out, 33, "%016llx%016llx", (unsigned long long)h1, (unsigned long long)h2);
}

static struct json_object *gl_location(const char *path, unsigned begin, unsigned end) {
  struct json_object *loc = wl_emit_jobject();
  wl_emit_jset(loc, "path", wl_emit_jstring(path));
  struct json_object *lines = wl_emit_jobject();
  wl_emit_jset(lines, "begin", wl_emit_jint(begin ? begin : 1));
  if (end >= begin && end > 0)
    wl_emit_jset(lines, "end", wl_emit_jint(end));
  wl_emit_jset(loc, "lines", lines);
  return loc;
}

int wl_emit_gitlab(FILE *out, const wl_findings *f, const wl_emit_info *info) {
  struct json_object *root = wl_emit_jarray();
  /* fingerprints of the findings under their normalized paths, so that
   * ./a.cu, a.cu and /abs/a.cu agree: a shallow copy with the paths replaced */
  wl_findings norm;
  memset(&norm, 0, sizeof norm);
  norm.v = wl_xcalloc(f->n ? f->n : 1, sizeof *norm.v);
  norm.n = norm.cap = f->n;
  for (size_t i = 0; i < f->n; i++) {
    norm.v[i] = f->v[i];
    norm.v[i].file = out_path(f->v[i].file, info);
  }
  char(*fps)[17] = wl_xcalloc(f->n ? f->n : 1, sizeof *fps);
  wl_findings_fingerprints(&norm, fps);
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    struct json_object *o = wl_emit_jobject();
    const char *p = norm.v[i].file;
    wl_emit_jset(o, "type", wl_emit_jstring("issue"));
    wl_emit_jset(o, "engine_name", wl_emit_jstring("warplint"));
    wl_emit_jset(o, "check_name", wl_emit_jstring(fd->rule));
    wl_buf m;
    wl_buf_init(&m);
    message_with_notes(fd, info, &m);
    wl_emit_jset(o, "description", wl_emit_jstring(wl_buf_str(&m)));
    wl_buf_free(&m);
    struct json_object *cats = wl_emit_jarray();
    wl_emit_jpush(cats, wl_emit_jstring("Bug Risk"));
    wl_emit_jset(o, "categories", cats);
    /* rule, path, the line's text and its occurrence: survives line shifts */
    const char *parts[] = {"finding", fps[i]};
    char fp[33];
    fnv_hex(parts, 2, fp);
    wl_emit_jset(o, "fingerprint", wl_emit_jstring(fp));
    wl_emit_jset(o, "severity", wl_emit_jstring(gl_severity(fd->severity)));
    wl_emit_jset(o, "location", gl_location(p, fd->line, fd->end_line));
    wl_emit_jpush(root, o);
  }
  free(fps);
  for (size_t i = 0; i < f->n; i++)
    free(norm.v[i].file);
  free(norm.v);
  for (size_t i = 0; info && i < info->nerrors; i++) {
    const wl_input_error *e = &info->errors[i];
    struct json_object *o = wl_emit_jobject();
    char *p = out_path(e->path ? e->path : ".", info);
    wl_emit_jset(o, "type", wl_emit_jstring("issue"));
    wl_emit_jset(o, "engine_name", wl_emit_jstring("warplint"));
    wl_emit_jset(o, "check_name", wl_emit_jstring("warplint-input-error"));
    wl_emit_jset(o, "description", wl_emit_jstring(e->message));
    const char *parts[] = {"input-error", p, e->message};
    char fp[33];
    fnv_hex(parts, 3, fp);
    wl_emit_jset(o, "fingerprint", wl_emit_jstring(fp));
    wl_emit_jset(o, "severity", wl_emit_jstring("blocker"));
    wl_emit_jset(o, "location", gl_location(p, 1, 0));
    free(p);
    wl_emit_jpush(root, o);
  }
  int rc = wl_emit_jwrite(out, root);
  json_object_put(root);
  return rc;
}

/* ---- JUnit XML ----------------------------------------------------------------
 * One testsuite per file with findings, one failing testcase per finding;
 * input errors are testcases with <error>; a run without either is one
 * passing testcase, so that the report is never empty. */

/* XML 1.0 text or attribute value: markup characters as entities, tabs and
 * line breaks as character references in attributes, characters XML cannot
 * carry (other C0 controls) and invalid UTF-8 as U+FFFD. */
static void xml_escape(wl_buf *b, const char *s, bool attr) {
  size_t n = s ? strlen(s) : 0;
  for (size_t i = 0; i < n;) {
    unsigned char c = (unsigned char)s[i];
    switch (c) {
    case '&':
      wl_buf_puts(b, "&amp;");
      i++;
      continue;
    case '<':
      wl_buf_puts(b, "&lt;");
      i++;
      continue;
    case '>':
      wl_buf_puts(b, "&gt;");
      i++;
      continue;
    case '"':
      wl_buf_puts(b, "&quot;");
      i++;
      continue;
    case '\'':
      wl_buf_puts(b, "&apos;");
      i++;
      continue;
    case '\t':
    case '\n':
    case '\r':
      if (attr)
        wl_buf_printf(b, "&#%u;", c);
      else
        wl_buf_putc(b, (char)c);
      i++;
      continue;
    default: break;
    }
    if (c < 0x20) {
      wl_buf_puts(b, "\xEF\xBF\xBD");
      i++;
      continue;
    }
    unsigned long cp = 0;
    size_t k = wl_emit_utf8_seq(s + i, n - i, &cp);
    if (k == 0 || cp == 0xFFFE || cp == 0xFFFF) {
      wl_buf_puts(b, "\xEF\xBF\xBD");
      i += k ? k : 1;
      continue;
    }
    wl_buf_add(b, s + i, k);
    i += k;
  }
}

static void xml_attr(wl_buf *b, const char *name, const char *value) {
  wl_buf_printf(b, " %s=\"", name);
  xml_escape(b, value, true);
  wl_buf_putc(b, '"');
}

int wl_emit_junit(FILE *out, const wl_findings *f, const wl_emit_info *info) {
  size_t nerrors = info ? info->nerrors : 0;
  size_t tests = f->n + nerrors + (f->n == 0 && nerrors == 0 ? 1 : 0);
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
  wl_buf_printf(&b,
                "<testsuites name=\"warplint\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
                tests, f->n, nerrors);
  for (size_t i = 0; i < f->n;) {
    size_t j = i;
    while (j < f->n && strcmp(f->v[j].file, f->v[i].file) == 0)
      j++;
    char *p = out_path(f->v[i].file, info);
    wl_buf_puts(&b, "  <testsuite");
    xml_attr(&b, "name", p);
    wl_buf_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n", j - i, j - i);
    for (size_t k = i; k < j; k++) {
      const wl_finding *fd = &f->v[k];
      wl_buf name;
      wl_buf_init(&name);
      wl_buf_printf(&name, "%s at %s:%u:%u", fd->rule, p, fd->line, fd->col);
      wl_buf_puts(&b, "    <testcase");
      xml_attr(&b, "name", wl_buf_str(&name));
      xml_attr(&b, "classname", p);
      xml_attr(&b, "file", p);
      wl_buf_printf(&b, " line=\"%u\">\n      <failure", fd->line);
      xml_attr(&b, "type", fd->rule);
      xml_attr(&b, "message", fd->message);
      wl_buf_puts(&b, ">");
      wl_buf text;
      wl_buf_init(&text);
      wl_buf_printf(&text, "%s:%u:%u: %s: ", p, fd->line, fd->col, wl_severity_name(fd->severity));
      message_with_notes(fd, info, &text);
      wl_buf_printf(&text, " [%s]", fd->rule);
      xml_escape(&b, wl_buf_str(&text), false);
      wl_buf_free(&text);
      wl_buf_puts(&b, "</failure>\n    </testcase>\n");
      wl_buf_free(&name);
    }
    wl_buf_puts(&b, "  </testsuite>\n");
    free(p);
    i = j;
  }
  if (nerrors > 0) {
    wl_buf_printf(&b,
                  "  <testsuite name=\"warplint: inputs not analyzed\" tests=\"%zu\" "
                  "failures=\"0\" errors=\"%zu\">\n",
                  nerrors, nerrors);
    for (size_t i = 0; i < nerrors; i++) {
      const wl_input_error *e = &info->errors[i];
      char *p = out_path(e->path ? e->path : ".", info);
      wl_buf_puts(&b, "    <testcase");
      xml_attr(&b, "name", p);
      xml_attr(&b, "classname", "warplint");
      wl_buf_puts(&b, ">\n      <error");
      xml_attr(&b, "message", e->message);
      wl_buf_puts(&b, "/>\n    </testcase>\n");
      free(p);
    }
    wl_buf_puts(&b, "  </testsuite>\n");
  }
  if (f->n == 0 && nerrors == 0)
    wl_buf_printf(&b,
                  "  <testsuite name=\"warplint\" tests=\"1\" failures=\"0\" errors=\"0\">\n"
                  "    <testcase name=\"no findings in %zu file%s\" classname=\"warplint\"/>\n"
                  "  </testsuite>\n",
                  info ? info->files_analyzed : 0, info && info->files_analyzed == 1 ? "" : "s");
  wl_buf_puts(&b, "</testsuites>\n");
  int rc = fwrite(b.data, 1, b.len, out) != b.len ? -1 : 0;
  wl_buf_free(&b);
  return rc ? rc : finish(out);
}
