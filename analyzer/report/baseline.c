/* baseline.c - reading, matching and writing baseline files (written as
 * every output is: wl_write_output). */
#include "baseline.h"

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "fix.h"
#include "paths.h"

char *wl_baseline_dir(const char *path) {
  char *copy = wl_xstrdup(path);
  char *slash = strrchr(copy, '/');
  char *dir;
  if (!slash)
    dir = wl_canonical_path(".");
  else {
    slash[slash == copy ? 1 : 0] = '\0';
    dir = wl_canonical_path(copy);
  }
  free(copy);
  return dir;
}

static bool is_fingerprint(const char *s) {
  if (strlen(s) != 16)
    return false;
  for (; *s; s++)
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
      return false;
  return true;
}

static int cmp_fp(const void *a, const void *b) { return strcmp(a, b); }

bool wl_baseline_load(const char *path, wl_baseline *b, wl_buf *err) {
  memset(b, 0, sizeof *b);
  size_t len = 0;
  wl_buf why;
  wl_buf_init(&why);
  char *text = wl_read_file_max(path, WL_READ_MAX_DATA, &len, &why);
  if (!text) {
    wl_buf_printf(err, "%s: cannot read the baseline: %s", path, wl_buf_str(&why));
    wl_buf_free(&why);
    return false;
  }
  wl_buf_free(&why);
  json_tokener *tok = json_tokener_new();
  json_object *root = json_tokener_parse_ex(tok, text, (int)len);
  enum json_tokener_error je = json_tokener_get_error(tok);
  json_object *version = NULL, *arr = NULL;
  bool ok = false;
  if (!root || je != json_tokener_success)
    wl_buf_printf(err, "%s: not a baseline (invalid JSON: %s)", path, json_tokener_error_desc(je));
  else if (!json_object_is_type(root, json_type_object) ||
           !json_object_object_get_ex(root, "warplint_baseline", &version) ||
           !json_object_object_get_ex(root, "findings", &arr) ||
           !json_object_is_type(arr, json_type_array))
    wl_buf_printf(err, "%s: not a warplint baseline (write one with --write-baseline)", path);
  else if (json_object_get_int(version) != WL_BASELINE_VERSION)
    wl_buf_printf(err, "%s: baseline version %d is not supported (expected %d)", path,
                  json_object_get_int(version), WL_BASELINE_VERSION);
  else
    ok = true;
  if (ok) {
    size_t n = json_object_array_length(arr);
    b->fps = wl_xcalloc(n ? n : 1, sizeof *b->fps);
    for (size_t i = 0; i < n && ok; i++) {
      json_object *e = json_object_array_get_idx(arr, i), *fp = NULL;
      const char *s = NULL;
      if (json_object_is_type(e, json_type_object) &&
          json_object_object_get_ex(e, "fingerprint", &fp) &&
          json_object_is_type(fp, json_type_string))
        s = json_object_get_string(fp);
      if (!s || !is_fingerprint(s)) {
        wl_buf_printf(err, "%s: finding %zu has no valid \"fingerprint\"", path, i + 1);
        ok = false;
        break;
      }
      memcpy(b->fps[b->n++], s, 17);
    }
    qsort(b->fps, b->n, sizeof *b->fps, cmp_fp);
    b->dir = wl_baseline_dir(path);
  }
  json_object_put(root);
  json_tokener_free(tok);
  free(text);
  if (!ok)
    wl_baseline_free(b);
  return ok;
}

void wl_baseline_free(wl_baseline *b) {
  free(b->dir);
  free(b->fps);
  memset(b, 0, sizeof *b);
}

void wl_baseline_fingerprints(const wl_findings *f, const char *dir, char (*out)[17]) {
  /* Occurrences count within one file, so each file's run of findings is
   * fingerprinted on its own (keeps the quadratic part per file). */
  size_t i = 0;
  while (i < f->n) {
    size_t j = i + 1;
    while (j < f->n && strcmp(f->v[j].file, f->v[i].file) == 0)
      j++;
    char *canon = wl_canonical_path(f->v[i].file);
    char *rel = wl_relative_path(canon, dir);
    wl_finding *copy = wl_xcalloc(j - i, sizeof *copy);
    for (size_t k = i; k < j; k++) {
      copy[k - i] = f->v[k];
      copy[k - i].file = rel;
    }
    wl_findings view = {copy, j - i, j - i, NULL, 0};
    wl_findings_fingerprints(&view, out + i);
    free(copy);
    free(rel);
    free(canon);
    i = j;
  }
}

size_t wl_baseline_filter(const wl_baseline *b, wl_findings *f) {
  if (f->n == 0)
    return 0;
  char(*fps)[17] = wl_xcalloc(f->n, sizeof *fps);
  wl_baseline_fingerprints(f, b->dir, fps);
  size_t w = 0, removed = 0;
  for (size_t r = 0; r < f->n; r++) {
    if (bsearch(fps[r], b->fps, b->n, sizeof *b->fps, cmp_fp)) {
      wl_finding_free(&f->v[r]);
      removed++;
      continue;
    }
    if (w != r)
      f->v[w] = f->v[r];
    w++;
  }
  f->n = w;
  free(fps);
  return removed;
}

bool wl_baseline_write(const char *path, const char *link_root, const wl_findings *f, wl_buf *err) {
  char *dir = wl_baseline_dir(path);
  char(*fps)[17] = wl_xcalloc(f->n ? f->n : 1, sizeof *fps);
  wl_baseline_fingerprints(f, dir, fps);

  struct json_object *root = wl_emit_jobject();
  wl_emit_jset(root, "warplint_baseline", wl_emit_jint(WL_BASELINE_VERSION));
  wl_emit_jset(root, "comment",
               wl_emit_jstring("Findings accepted by 'warplint --write-baseline'; "
                               "'warplint --baseline FILE' reports only findings not listed "
                               "here. Matching uses the fingerprint alone; the other fields "
                               "are for reviewers."));
  struct json_object *arr = wl_emit_jarray();
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    struct json_object *o = wl_emit_jobject();
    char *canon = wl_canonical_path(fd->file);
    char *rel = wl_relative_path(canon, dir);
    wl_emit_jset(o, "fingerprint", wl_emit_jstring(fps[i]));
    wl_emit_jset(o, "rule", wl_emit_jstring(fd->rule));
    wl_emit_jset(o, "file", wl_emit_jstring(rel));
    wl_emit_jset(o, "line", wl_emit_jint(fd->line));
    wl_emit_jset(o, "text", wl_emit_jstring(fd->line_text));
    wl_emit_jpush(arr, o);
    free(rel);
    free(canon);
  }
  wl_emit_jset(root, "findings", arr);

  /* written as every output is (fixwrite.c): temporary file, then rename */
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  bool ok = false;
  if (!m) {
    wl_buf_printf(err, "%s: cannot write: %s", path, strerror(errno));
  } else {
    bool write_failed = wl_emit_jwrite(m, root) != 0;
    bool close_failed = fclose(m) != 0; /* closed whether or not the write failed */
    if (write_failed || close_failed)
      wl_buf_printf(err, "%s: cannot write: out of memory", path);
    else
      ok = wl_write_output(path, "--write-baseline", link_root, text, len, err);
  }
  free(text);
  json_object_put(root);
  free(fps);
  free(dir);
  return ok;
}
