/* emit_sarif.c - SARIF 2.1.0 output: the tool's rule metadata (from the
 * registry and rules/<id>.md), results with locations, notes as related
 * locations, fingerprints and fixes, input errors as tool notifications,
 * and the URI and column conversions SARIF asks for. */
#include <ctype.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "emit.h"
#include "paths.h"
#include "rulecat.h"
#include "suppress.h"

#define SARIF_SCHEMA "https://json.schemastore.org/sarif-2.1.0.json"
#define SRCROOT "%SRCROOT%"
#define FINGERPRINT_KEY "warplintLineHash/v1"

/* Percent-encodes everything but RFC 3986 unreserved characters and '/'. */
static void uri_encode(wl_buf *b, const char *s) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (isalnum(*p) || *p == '-' || *p == '.' || *p == '_' || *p == '~' || *p == '/') {
      wl_buf_putc(b, (char)*p);
    } else {
      char e[3] = {'%', hex[*p >> 4], hex[*p & 15]};
      wl_buf_add(b, e, 3);
    }
  }
}

/* A relative path is relative to %SRCROOT% (the working directory); an
 * absolute one becomes a file:// URI of its own. */
static struct json_object *artifact_location(const char *path) {
  if (!path)
    path = "";
  wl_buf b;
  wl_buf_init(&b);
  bool absolute = path[0] == '/';
  if (absolute)
    wl_buf_puts(&b, "file://");
  uri_encode(&b, path);
  struct json_object *o = wl_emit_jobject();
  wl_emit_jset(o, "uri", wl_emit_jstring(wl_buf_str(&b)));
  if (!absolute)
    wl_emit_jset(o, "uriBaseId", wl_emit_jstring(SRCROOT));
  wl_buf_free(&b);
  return o;
}

/* Byte column (1-based, as clang counts) to UTF-16 code units (SARIF's
 * default columnKind), using the text of the line. Bytes past the end of the
 * text, and invalid UTF-8 bytes (U+FFFD), count one unit each. */
static unsigned long utf16_col(const char *text, unsigned col) {
  if (col == 0)
    return 0;
  if (!text)
    text = "";
  size_t target = col - 1, n = strlen(text), i = 0;
  unsigned long units = 0;
  while (i < target) {
    if (i >= n) {
      units += target - i;
      break;
    }
    unsigned long cp = 0;
    size_t k = wl_emit_utf8_seq(text + i, n - i, &cp);
    if (k == 0) {
      units++, i++;
      continue;
    }
    if (i + k > target)
      break; /* inside a character: its first unit */
    units += cp >= 0x10000 ? 2 : 1;
    i += k;
  }
  return units + 1;
}

static struct json_object *message(const char *text) {
  struct json_object *m = wl_emit_jobject();
  wl_emit_jset(m, "text", wl_emit_jstring(text ? text : ""));
  return m;
}

static struct json_object *physical_location(const char *file, struct json_object *region) {
  struct json_object *pl = wl_emit_jobject();
  wl_emit_jset(pl, "artifactLocation", artifact_location(file));
  if (region)
    wl_emit_jset(pl, "region", region);
  struct json_object *loc = wl_emit_jobject();
  wl_emit_jset(loc, "physicalLocation", pl);
  return loc;
}

/* ---- rules ----------------------------------------------------------------- */

static char *camel_case(const char *id) {
  wl_buf b;
  wl_buf_init(&b);
  bool up = true;
  for (const char *p = id; *p; p++) {
    if (*p == '-' || *p == '_' || *p == '.') {
      up = true;
      continue;
    }
    wl_buf_putc(&b, up ? (char)toupper((unsigned char)*p) : *p);
    up = false;
  }
  return wl_buf_detach(&b);
}

static bool blank(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!isspace((unsigned char)s[i]))
      return false;
  return true;
}

/* The first paragraph under "## What it does", its lines joined by single
 * spaces; NULL when the doc has no such paragraph. */
static char *what_it_does(const char *md) {
  static const char heading[] = "## What it does";
  const char *p = md;
  bool found = false;
  while (*p) {
    size_t n = strcspn(p, "\n");
    const char *next = p[n] ? p + n + 1 : p + n;
    size_t hl = sizeof heading - 1;
    if (n >= hl && strncmp(p, heading, hl) == 0 && blank(p + hl, n - hl)) {
      p = next;
      found = true;
      break;
    }
    p = next;
  }
  if (!found)
    return NULL;
  wl_buf b;
  wl_buf_init(&b);
  while (*p) {
    size_t n = strcspn(p, "\n");
    const char *next = p[n] ? p + n + 1 : p + n;
    if (blank(p, n)) {
      if (b.len > 0)
        break;
      p = next;
      continue;
    }
    if (p[0] == '#' || strncmp(p, "```", 3) == 0)
      break;
    size_t s = 0, e = n;
    while (s < e && isspace((unsigned char)p[s]))
      s++;
    while (e > s && isspace((unsigned char)p[e - 1]))
      e--;
    if (b.len > 0)
      wl_buf_putc(&b, ' ');
    wl_buf_add(&b, p + s, e - s);
    p = next;
  }
  if (b.len == 0) {
    wl_buf_free(&b);
    return NULL;
  }
  return wl_buf_detach(&b);
}

static struct json_object *rule_json(const wl_rulecat *cat, const wl_rule *r) {
  struct json_object *o = wl_emit_jobject();
  wl_emit_jset(o, "id", wl_emit_jstring(r->id));
  char *name = camel_case(r->id);
  wl_emit_jset(o, "name", wl_emit_jstring(name));
  free(name);
  wl_emit_jset(o, "shortDescription", message(r->summary));
  const char *md = wl_rulecat_doc(cat, r->id);
  char *full = md ? what_it_does(md) : NULL;
  wl_emit_jset(o, "fullDescription", message(full ? full : r->summary));
  free(full);
  struct json_object *help = wl_emit_jobject();
  wl_emit_jset(help, "text", wl_emit_jstring(md ? md : r->summary));
  if (md)
    wl_emit_jset(help, "markdown", wl_emit_jstring(md));
  wl_emit_jset(o, "help", help);
  char *uri = wl_rule_help_uri(r->id);
  wl_emit_jset(o, "helpUri", wl_emit_jstring(uri));
  free(uri);
  struct json_object *conf = wl_emit_jobject();
  wl_emit_jset(conf, "level", wl_emit_jstring(wl_severity_name(r->severity)));
  wl_emit_jset(o, "defaultConfiguration", conf);
  return o;
}

/* ---- results --------------------------------------------------------------- */

static struct json_object *finding_region(const wl_finding *fd) {
  if (fd->line == 0)
    return NULL;
  struct json_object *r = wl_emit_jobject();
  wl_emit_jset(r, "startLine", wl_emit_jint(fd->line));
  if (fd->col > 0)
    wl_emit_jset(r, "startColumn", wl_emit_jint((long long)utf16_col(fd->line_text, fd->col)));
  if (fd->end_line >= fd->line && fd->end_col > 0) {
    /* only the finding's own line is known: other lines keep byte columns */
    unsigned long ec =
        fd->end_line == fd->line ? utf16_col(fd->line_text, fd->end_col) : fd->end_col;
    wl_emit_jset(r, "endLine", wl_emit_jint(fd->end_line));
    wl_emit_jset(r, "endColumn", wl_emit_jint((long long)ec));
  }
  return r;
}

static struct json_object *note_location(const wl_finding *fd, const wl_note *n) {
  struct json_object *region = NULL;
  if (n->line > 0) {
    region = wl_emit_jobject();
    wl_emit_jset(region, "startLine", wl_emit_jint(n->line));
    if (n->col > 0) {
      bool same_line = n->line == fd->line && strcmp(n->file, fd->file) == 0;
      unsigned long c = same_line ? utf16_col(fd->line_text, n->col) : n->col;
      wl_emit_jset(region, "startColumn", wl_emit_jint((long long)c));
    }
  }
  struct json_object *loc = physical_location(n->file, region);
  wl_emit_jset(loc, "message", message(n->message));
  return loc;
}

/* Edits carry byte offsets, so the deleted region is a binary region
 * (byteOffset/byteLength: exact whatever the encoding). When the edit lies
 * on the finding's own line, whose text is known, the same region is also
 * given in lines and UTF-16 columns for consumers that only read those. */
static struct json_object *deleted_region(const wl_finding *fd, const wl_edit *e) {
  struct json_object *r = wl_emit_jobject();
  size_t len = strlen(fd->line_text ? fd->line_text : "");
  bool offset_known = fd->col > 0 && fd->offset >= fd->col - 1 && (fd->line == 1 || fd->offset > 0);
  if (offset_known && strcmp(e->file, fd->file) == 0) {
    unsigned line_start = fd->offset - (fd->col - 1);
    if (e->offset >= line_start && (size_t)e->offset + e->length <= (size_t)line_start + len) {
      unsigned c0 = e->offset - line_start + 1, c1 = c0 + e->length;
      wl_emit_jset(r, "startLine", wl_emit_jint(fd->line));
      wl_emit_jset(r, "startColumn", wl_emit_jint((long long)utf16_col(fd->line_text, c0)));
      wl_emit_jset(r, "endLine", wl_emit_jint(fd->line));
      wl_emit_jset(r, "endColumn", wl_emit_jint((long long)utf16_col(fd->line_text, c1)));
    }
  }
  wl_emit_jset(r, "byteOffset", wl_emit_jint(e->offset));
  wl_emit_jset(r, "byteLength", wl_emit_jint(e->length));
  return r;
}

/* One fix: the edits grouped into one artifactChange per file, in order of
 * first appearance. */
static struct json_object *fix_json(const wl_finding *fd) {
  struct json_object *changes = wl_emit_jarray();
  bool *done = wl_xcalloc(fd->nedits, sizeof *done);
  for (size_t i = 0; i < fd->nedits; i++) {
    if (done[i])
      continue;
    struct json_object *change = wl_emit_jobject();
    wl_emit_jset(change, "artifactLocation", artifact_location(fd->edits[i].file));
    struct json_object *repl = wl_emit_jarray();
    for (size_t j = i; j < fd->nedits; j++) {
      const wl_edit *e = &fd->edits[j];
      if (done[j] || strcmp(e->file, fd->edits[i].file) != 0)
        continue;
      done[j] = true;
      struct json_object *ro = wl_emit_jobject();
      wl_emit_jset(ro, "deletedRegion", deleted_region(fd, e));
      struct json_object *ins = wl_emit_jobject();
      wl_emit_jset(ins, "text", wl_emit_jstring(e->text ? e->text : ""));
      wl_emit_jset(ro, "insertedContent", ins);
      wl_emit_jpush(repl, ro);
    }
    wl_emit_jset(change, "replacements", repl);
    wl_emit_jpush(changes, change);
  }
  free(done);
  struct json_object *fix = wl_emit_jobject();
  wl_emit_jset(fix, "artifactChanges", changes);
  struct json_object *fixes = wl_emit_jarray();
  wl_emit_jpush(fixes, fix);
  return fixes;
}

/* Findings about suppression comments come from pseudo-rules that are not in
 * the registry (suppress.c); SARIF lists them after the registered rules. */
static long long rule_index_of(const wl_rulecat *cat, const char *id) {
  const wl_rule *r = wl_rulecat_find(cat, id);
  if (r)
    return (long long)wl_rulecat_index(cat, r);
  for (size_t i = 0; i < wl_npseudo_rules; i++)
    if (strcmp(wl_pseudo_rules[i].id, id) == 0)
      return (long long)((cat ? cat->n : 0) + i);
  return -1;
}

static struct json_object *result_json(const wl_rulecat *cat, const wl_finding *fd,
                                       const char *fingerprint) {
  struct json_object *o = wl_emit_jobject();
  wl_emit_jset(o, "ruleId", wl_emit_jstring(fd->rule));
  long long ri = rule_index_of(cat, fd->rule);
  if (ri >= 0)
    wl_emit_jset(o, "ruleIndex", wl_emit_jint(ri));
  wl_emit_jset(o, "level", wl_emit_jstring(wl_severity_name(fd->severity)));
  wl_emit_jset(o, "message", message(fd->message));
  struct json_object *locs = wl_emit_jarray();
  wl_emit_jpush(locs, physical_location(fd->file, finding_region(fd)));
  wl_emit_jset(o, "locations", locs);
  if (fd->nnotes > 0) {
    struct json_object *rel = wl_emit_jarray();
    for (size_t i = 0; i < fd->nnotes; i++)
      wl_emit_jpush(rel, note_location(fd, &fd->notes[i]));
    wl_emit_jset(o, "relatedLocations", rel);
  }
  struct json_object *fp = wl_emit_jobject();
  wl_emit_jset(fp, FINGERPRINT_KEY, wl_emit_jstring(fingerprint));
  wl_emit_jset(o, "partialFingerprints", fp);
  if (fd->nedits > 0)
    wl_emit_jset(o, "fixes", fix_json(fd));
  if (fd->suggestion) {
    struct json_object *props = wl_emit_jobject();
    wl_emit_jset(props, "suggestion", wl_emit_jstring(fd->suggestion));
    wl_emit_jset(o, "properties", props);
  }
  return o;
}

/* One toolExecutionNotification for an input that was not (or only partly) analyzed. */
static void push_input_notification(struct json_object *notes, const char *level,
                                    const wl_input_error *e) {
  struct json_object *n = wl_emit_jobject();
  wl_emit_jset(n, "level", wl_emit_jstring(level));
  wl_emit_jset(n, "message", message(e->message));
  if (e->path) {
    struct json_object *locs = wl_emit_jarray();
    wl_emit_jpush(locs, physical_location(e->path, NULL));
    wl_emit_jset(n, "locations", locs);
  }
  wl_emit_jpush(notes, n);
}

static struct json_object *invocation_json(const wl_findings *f, const wl_emit_info *info) {
  struct json_object *inv = wl_emit_jobject();
  wl_emit_jset(inv, "executionSuccessful", wl_emit_jbool(!(info && info->execution_failed)));
  struct json_object *notes = wl_emit_jarray();
  /* parts of files that were not analyzed (too deep, out of budget) */
  for (size_t i = 0; i < f->nnotices; i++) {
    const wl_note *nt = &f->notices[i];
    struct json_object *n = wl_emit_jobject();
    wl_emit_jset(n, "level", wl_emit_jstring("note"));
    wl_emit_jset(n, "message", message(nt->message));
    struct json_object *region = NULL;
    if (nt->line) {
      region = wl_emit_jobject();
      wl_emit_jset(region, "startLine", wl_emit_jint(nt->line));
      if (nt->col)
        wl_emit_jset(region, "startColumn", wl_emit_jint(nt->col));
    }
    struct json_object *locs = wl_emit_jarray();
    wl_emit_jpush(locs, physical_location(nt->file, region));
    wl_emit_jset(n, "locations", locs);
    wl_emit_jpush(notes, n);
  }
  for (size_t i = 0; info && i < info->nerrors; i++)
    push_input_notification(notes, "error", &info->errors[i]);
  /* files analyzed only in part: a warning each (findings may be missing) */
  for (size_t i = 0; info && i < info->nincomplete; i++)
    push_input_notification(notes, "warning", &info->incomplete[i]);
  wl_emit_jset(inv, "toolExecutionNotifications", notes);
  struct json_object *invs = wl_emit_jarray();
  wl_emit_jpush(invs, inv);
  return invs;
}

/* A path as the project root sees it: canonical (symlinks, '.' and '..'
 * resolved) and relative to the root when it lies below it, else absolute.
 * Kept in `owned`. */
static char *rooted(const char *path, const char *root, wl_vec *owned) {
  if (!path)
    return NULL;
  char *canon = wl_canonical_path(path);
  char *rel = wl_relative_path(canon, root);
  free(canon);
  wl_vec_push(owned, rel);
  return rel;
}

/* The findings with every path (finding, notes, edits) rooted, so that URIs
 * and fingerprints do not depend on how the inputs were spelled. Shallow
 * copies; the arrays and strings are in `owned`. */
static wl_findings rooted_view(const wl_findings *f, const char *root, wl_vec *owned) {
  wl_findings v = *f;
  v.v = wl_xcalloc(f->n ? f->n : 1, sizeof *v.v);
  wl_vec_push(owned, v.v);
  for (size_t i = 0; i < f->n; i++) {
    wl_finding *d = &v.v[i];
    *d = f->v[i];
    d->file = rooted(d->file, root, owned);
    if (d->nnotes) {
      wl_note *notes = wl_xcalloc(d->nnotes, sizeof *notes);
      wl_vec_push(owned, notes);
      for (size_t k = 0; k < d->nnotes; k++) {
        notes[k] = f->v[i].notes[k];
        notes[k].file = rooted(notes[k].file, root, owned);
      }
      d->notes = notes;
    }
    if (d->nedits) {
      wl_edit *edits = wl_xcalloc(d->nedits, sizeof *edits);
      wl_vec_push(owned, edits);
      for (size_t k = 0; k < d->nedits; k++) {
        edits[k] = f->v[i].edits[k];
        edits[k].file = rooted(edits[k].file, root, owned);
      }
      d->edits = edits;
    }
  }
  return v;
}

int wl_emit_sarif(FILE *out, const wl_findings *all, const wl_emit_info *info) {
  wl_vec owned = {0};
  const char *base_dir = info ? info->cwd : NULL;
  wl_findings view;
  const wl_findings *f = all;
  if (info && info->project_root) {
    view = rooted_view(all, info->project_root, &owned);
    f = &view;
    base_dir = info->project_root;
  }
  const char *version = info && info->tool_version ? info->tool_version : "unknown";
  struct json_object *root = wl_emit_jobject();
  wl_emit_jset(root, "$schema", wl_emit_jstring(SARIF_SCHEMA));
  wl_emit_jset(root, "version", wl_emit_jstring("2.1.0"));

  struct json_object *run = wl_emit_jobject();
  struct json_object *driver = wl_emit_jobject();
  wl_emit_jset(driver, "name", wl_emit_jstring("warplint"));
  wl_emit_jset(driver, "version", wl_emit_jstring(version));
  wl_emit_jset(driver, "informationUri", wl_emit_jstring(WARPLINT_INFO_URI));
  struct json_object *rules = wl_emit_jarray();
  const wl_rulecat *cat = info ? info->rules : NULL;
  for (size_t i = 0; cat && i < cat->n; i++)
    wl_emit_jpush(rules, rule_json(cat, &cat->rules[i]));
  for (size_t i = 0; i < wl_npseudo_rules; i++)
    wl_emit_jpush(rules, rule_json(cat, &wl_pseudo_rules[i]));
  wl_emit_jset(driver, "rules", rules);
  struct json_object *tool = wl_emit_jobject();
  wl_emit_jset(tool, "driver", driver);
  wl_emit_jset(run, "tool", tool);

  wl_emit_jset(run, "invocations", invocation_json(f, info));

  if (base_dir && base_dir[0] == '/') {
    wl_buf b;
    wl_buf_init(&b);
    wl_buf_puts(&b, "file://");
    uri_encode(&b, base_dir);
    if (b.data[b.len - 1] != '/')
      wl_buf_putc(&b, '/');
    struct json_object *base = wl_emit_jobject();
    wl_emit_jset(base, "uri", wl_emit_jstring(wl_buf_str(&b)));
    wl_buf_free(&b);
    struct json_object *bases = wl_emit_jobject();
    wl_emit_jset(bases, SRCROOT, base);
    wl_emit_jset(run, "originalUriBaseIds", bases);
  }
  wl_emit_jset(run, "columnKind", wl_emit_jstring("utf16CodeUnits"));

  char(*fps)[17] = wl_xcalloc(f->n ? f->n : 1, sizeof *fps);
  wl_findings_fingerprints(f, fps);
  struct json_object *results = wl_emit_jarray();
  for (size_t i = 0; i < f->n; i++)
    wl_emit_jpush(results, result_json(cat, &f->v[i], fps[i]));
  free(fps);
  wl_emit_jset(run, "results", results);

  struct json_object *runs = wl_emit_jarray();
  wl_emit_jpush(runs, run);
  wl_emit_jset(root, "runs", runs);

  int rc = wl_emit_jwrite(out, root);
  json_object_put(root);
  for (size_t k = 0; k < owned.n; k++)
    free(owned.v[k]);
  wl_vec_free(&owned);
  return rc;
}
