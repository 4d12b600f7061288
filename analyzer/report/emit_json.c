/* emit_json.c - warplint's own JSON output (the stable shape documented in
 * docs/output-formats.md), and the json-c helpers that emit_sarif.c shares:
 * checked constructors, UTF-8 clean strings, pretty printing. */
#include <json-c/json.h>
#include <json-c/printbuf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "emit.h"

#define WL_JSON_VERSION 1

/* ---- shared helpers ------------------------------------------------------ */

static struct json_object *checked(struct json_object *o) {
  if (!o) {
    fputs("warplint: out of memory\n", stderr);
    abort();
  }
  return o;
}

struct json_object *wl_emit_jobject(void) {
  return checked(json_object_new_object());
}
struct json_object *wl_emit_jarray(void) {
  return checked(json_object_new_array());
}
struct json_object *wl_emit_jint(long long v) {
  return checked(json_object_new_int64(v));
}
struct json_object *wl_emit_jbool(bool b) {
  return checked(json_object_new_boolean(b));
}

size_t wl_emit_utf8_seq(const char *s, size_t n, unsigned long *cp) {
  const unsigned char *u = (const unsigned char *)s;
  if (n == 0)
    return 0;
  unsigned char c = u[0];
  if (c < 0x80) {
    if (cp)
      *cp = c;
    return 1;
  }
  size_t len;
  unsigned long v, min;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2, v = c & 0x1Fu, min = 0x80;
  else if (c >= 0xE0 && c <= 0xEF)
    len = 3, v = c & 0x0Fu, min = 0x800;
  else if (c >= 0xF0 && c <= 0xF4)
    len = 4, v = c & 0x07u, min = 0x10000;
  else
    return 0;
  if (n < len)
    return 0;
  for (size_t i = 1; i < len; i++) {
    if ((u[i] & 0xC0) != 0x80)
      return 0;
    v = (v << 6) | (u[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  if (cp)
    *cp = v;
  return len;
}

struct json_object *wl_emit_jstring(const char *s) {
  if (!s)
    return NULL; /* json-c's null */
  size_t n = strlen(s), i = 0;
  while (i < n) {
    size_t k = wl_emit_utf8_seq(s + i, n - i, NULL);
    if (k == 0)
      break;
    i += k;
  }
  if (i == n)
    return checked(json_object_new_string_len(s, (int)n));
  /* invalid bytes: each becomes U+FFFD */
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_add(&b, s, i);
  while (i < n) {
    size_t k = wl_emit_utf8_seq(s + i, n - i, NULL);
    if (k == 0) {
      wl_buf_puts(&b, "\xEF\xBF\xBD");
      i++;
    } else {
      wl_buf_add(&b, s + i, k);
      i += k;
    }
  }
  struct json_object *o = checked(json_object_new_string_len(wl_buf_str(&b), (int)b.len));
  wl_buf_free(&b);
  return o;
}

void wl_emit_jset(struct json_object *obj, const char *key, struct json_object *val) {
  if (json_object_object_add(obj, key, val) != 0) {
    json_object_put(val);
    checked(NULL);
  }
}

void wl_emit_jpush(struct json_object *arr, struct json_object *val) {
  if (json_object_array_add(arr, val) != 0) {
    json_object_put(val);
    checked(NULL);
  }
}

/* json-c pretty-prints an empty array as "[" newline indent "]"; print "[]". */
static int empty_array_to_string(struct json_object *jso, struct printbuf *pb, int level,
                                 int flags) {
  (void)jso, (void)level, (void)flags;
  return printbuf_memappend(pb, "[]", 2);
}

static void compact_empty_arrays(struct json_object *o) {
  if (json_object_is_type(o, json_type_array)) {
    size_t n = json_object_array_length(o);
    if (n == 0)
      json_object_set_serializer(o, empty_array_to_string, NULL, NULL);
    for (size_t i = 0; i < n; i++)
      compact_empty_arrays(json_object_array_get_idx(o, i));
  } else if (json_object_is_type(o, json_type_object)) {
    json_object_object_foreach(o, key, val) {
      (void)key;
      compact_empty_arrays(val);
    }
  }
}

int wl_emit_jwrite(FILE *out, struct json_object *root) {
  compact_empty_arrays(root);
  const char *s = json_object_to_json_string_ext(
      root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE);
  if (!s)
    checked(NULL);
  if (fputs(s, out) == EOF || fputc('\n', out) == EOF)
    return -1;
  if (fflush(out) != 0 || ferror(out))
    return -1;
  return 0;
}

char *wl_rule_help_uri(const char *id) {
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s%s.md", WARPLINT_RULE_DOCS_URI, id);
  return wl_buf_detach(&b);
}

/* ---- warplint JSON --------------------------------------------------------- */

static struct json_object *finding_json(const wl_finding *fd, const char *fingerprint) {
  struct json_object *o = wl_emit_jobject();
  wl_emit_jset(o, "rule", wl_emit_jstring(fd->rule));
  wl_emit_jset(o, "severity", wl_emit_jstring(wl_severity_name(fd->severity)));
  wl_emit_jset(o, "file", wl_emit_jstring(fd->file));
  wl_emit_jset(o, "line", wl_emit_jint(fd->line));
  wl_emit_jset(o, "column", wl_emit_jint(fd->col));
  wl_emit_jset(o, "end_line", wl_emit_jint(fd->end_line));
  wl_emit_jset(o, "end_column", wl_emit_jint(fd->end_col));
  wl_emit_jset(o, "message", wl_emit_jstring(fd->message));
  wl_emit_jset(o, "fingerprint", wl_emit_jstring(fingerprint));

  struct json_object *notes = wl_emit_jarray();
  for (size_t i = 0; i < fd->nnotes; i++) {
    const wl_note *n = &fd->notes[i];
    struct json_object *no = wl_emit_jobject();
    wl_emit_jset(no, "file", wl_emit_jstring(n->file));
    wl_emit_jset(no, "line", wl_emit_jint(n->line));
    wl_emit_jset(no, "column", wl_emit_jint(n->col));
    wl_emit_jset(no, "message", wl_emit_jstring(n->message));
    wl_emit_jpush(notes, no);
  }
  wl_emit_jset(o, "notes", notes);

  wl_emit_jset(o, "suggestion", wl_emit_jstring(fd->suggestion));

  struct json_object *fix = NULL;
  if (fd->nedits > 0) {
    fix = wl_emit_jobject();
    struct json_object *edits = wl_emit_jarray();
    for (size_t i = 0; i < fd->nedits; i++) {
      const wl_edit *e = &fd->edits[i];
      struct json_object *eo = wl_emit_jobject();
      wl_emit_jset(eo, "file", wl_emit_jstring(e->file));
      wl_emit_jset(eo, "offset", wl_emit_jint(e->offset));
      wl_emit_jset(eo, "length", wl_emit_jint(e->length));
      wl_emit_jset(eo, "replacement", wl_emit_jstring(e->text ? e->text : ""));
      wl_emit_jpush(edits, eo);
    }
    wl_emit_jset(fix, "edits", edits);
  }
  wl_emit_jset(o, "fix", fix);
  return o;
}

int wl_emit_json(FILE *out, const wl_findings *f, const wl_emit_info *info) {
  const char *version = info && info->tool_version ? info->tool_version : "unknown";
  struct json_object *root = wl_emit_jobject();
  wl_emit_jset(root, "version", wl_emit_jint(WL_JSON_VERSION));
  struct json_object *tool = wl_emit_jobject();
  wl_emit_jset(tool, "name", wl_emit_jstring("warplint"));
  wl_emit_jset(tool, "version", wl_emit_jstring(version));
  wl_emit_jset(root, "tool", tool);

  char(*fps)[17] = wl_xcalloc(f->n ? f->n : 1, sizeof *fps);
  /* under the project root, as SARIF's partialFingerprints: the same for any
   * spelling of the paths */
  wl_findings_fingerprints_at(f, info ? info->project_root : NULL, fps);
  struct json_object *findings = wl_emit_jarray();
  for (size_t i = 0; i < f->n; i++)
    wl_emit_jpush(findings, finding_json(&f->v[i], fps[i]));
  free(fps);
  wl_emit_jset(root, "findings", findings);

  size_t nerrors = info ? info->nerrors : 0;
  struct json_object *errors = wl_emit_jarray();
  for (size_t i = 0; i < nerrors; i++) {
    struct json_object *eo = wl_emit_jobject();
    wl_emit_jset(eo, "file", wl_emit_jstring(info->errors[i].path));
    wl_emit_jset(eo, "message", wl_emit_jstring(info->errors[i].message));
    wl_emit_jpush(errors, eo);
  }
  wl_emit_jset(root, "errors", errors);
  if (f->nnotices) { /* parts of files that were not analyzed (too deep, out of budget) */
    struct json_object *notices = wl_emit_jarray();
    for (size_t i = 0; i < f->nnotices; i++) {
      struct json_object *no = wl_emit_jobject();
      wl_emit_jset(no, "file", wl_emit_jstring(f->notices[i].file));
      wl_emit_jset(no, "line", wl_emit_jint(f->notices[i].line));
      wl_emit_jset(no, "column", wl_emit_jint(f->notices[i].col));
      wl_emit_jset(no, "message", wl_emit_jstring(f->notices[i].message));
      wl_emit_jpush(notices, no);
    }
    wl_emit_jset(root, "notices", notices);
  }
  size_t nincomplete = info ? info->nincomplete : 0;
  if (nincomplete) { /* present only when the analysis was incomplete */
    struct json_object *inc = wl_emit_jarray();
    for (size_t i = 0; i < nincomplete; i++) {
      struct json_object *eo = wl_emit_jobject();
      wl_emit_jset(eo, "file", wl_emit_jstring(info->incomplete[i].path));
      wl_emit_jset(eo, "message", wl_emit_jstring(info->incomplete[i].message));
      wl_emit_jpush(inc, eo);
    }
    wl_emit_jset(root, "incomplete", inc);
  }

  struct json_object *summary = wl_emit_jobject();
  wl_emit_jset(summary, "findings", wl_emit_jint((long long)f->n));
  wl_emit_jset(summary, "files_analyzed", wl_emit_jint(info ? (long long)info->files_analyzed : 0));
  wl_emit_jset(summary, "errors", wl_emit_jint((long long)nerrors));
  if (nincomplete)
    wl_emit_jset(summary, "files_incomplete", wl_emit_jint((long long)nincomplete));
  wl_emit_jset(root, "summary", summary);

  int rc = wl_emit_jwrite(out, root);
  json_object_put(root);
  return rc;
}
