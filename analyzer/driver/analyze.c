/* analyze.c - runs the registered rules over a lowered translation unit. */
#include "analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyses.h"
#include "buf.h"
#include "fix.h"
#include "rules.h"
#include "suppress.h"

/* The enabled rules over tu's functions with the analyses of an (built as
 * the rules ask), their findings added to local (suppressions not applied). */
static void rules_with(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                       wl_analyses *an, wl_findings *local) {
  wl_rule_ctx ctx = {.tu = tu,
                     .out = local,
                     .display_path = display_path,
                     .an = an,
                     .arch = o && o->parse.arch ? o->parse.arch : WL_DEFAULT_ARCH};
  for (size_t i = 0; i < wl_nrules; i++) {
    if (o && o->enabled && !o->enabled[i])
      continue;
    size_t before = local->n;
    ctx.rule = &wl_rules[i];
    wl_rule_runs[i](&ctx);
    if (o && o->severity)
      for (size_t j = before; j < local->n; j++)
        local->v[j].severity = o->severity[i];
  }
  wl_rule_ctx_free(&ctx);
}

/* The rules over tu viewed as a reported header (tu_view_file), with the
 * analyses of the main file's view (main's, those the rules built there)
 * where they are also this view's: the whole unit's functions were analyzed
 * again for each header it reports, the same work each time (cuda-samples'
 * bisect_large.cu and its 12 headers: 13 shared-memory analyses of 0.55 s
 * each). The lane analysis reads only the unit's functions, the same in
 * every view (its memos of answers, full_warp and bfly, are keyed by what
 * decides them); the shared-memory analysis also reads the text of the file
 * viewed as the main one, and serves the views where that changes nothing
 * (wl_smem_serves_view). main NULL: none. */
static void rules_in_view(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                          const wl_analyses *main, wl_findings *local) {
  wl_analyses an;
  wl_analyses_init(&an, tu, o ? o->analysis : NULL);
  bool smem = main && main->smem && wl_smem_serves_view(main->smem, tu);
  bool lanes = main && main->lanes;
  if (smem)
    an.smem = main->smem;
  if (lanes)
    an.lanes = main->lanes;
  rules_with(tu, display_path, o, &an, local);
  if (smem)
    an.smem = NULL;
  if (lanes)
    an.lanes = NULL;
  wl_analyses_free(&an);
}

/* The rules over tu viewed as its main file; an, set up here, keeps the
 * analyses for the reported headers' views (rules_in_view). */
static void rules_main(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                       wl_analyses *an, wl_findings *local) {
  wl_analyses_init(an, tu, o ? o->analysis : NULL);
  rules_with(tu, display_path, o, an, local);
}

/* Applies the suppression comments of tu's source to local, adds the TU's
 * notices, and moves local to out. */
static void rules_finish(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                         wl_findings *local, wl_findings *out) {
  wl_suppress_apply(tu->source, tu->source_len, display_path, &wl_rule_catalog,
                    o ? o->enabled : NULL, o && o->report_unused_suppressions, local);
  for (unsigned i = 0; i < tu->nnotices; i++) {
    const wl_parse_diag *d = &tu->notices[i];
    bool main = !d->loc.file || wl_tu_in_main(tu, d->loc);
    wl_findings_add_notice(local, main ? display_path : wl_tu_shown_path(tu, d->loc), d->loc.line,
                           d->loc.col, d->message);
  }
  wl_findings_move(out, local);
}

void wl_run_rules(const wl_tu *tu, const char *display_path, const wl_analyze_opts *o,
                  wl_findings *out) {
  wl_findings local;
  wl_findings_init(&local);
  rules_in_view(tu, display_path, o, NULL, &local);
  rules_finish(tu, display_path, o, &local, out);
}

void wl_analyze_info_free(wl_analyze_info *info) {
  for (size_t i = 0; i < info->included.n; i++)
    free(info->included.v[i]);
  wl_vec_free(&info->included);
  for (size_t i = 0; i < info->inferred.n; i++)
    free(info->inferred.v[i]);
  wl_vec_free(&info->inferred);
  for (size_t i = 0; i < info->headers.n; i++) {
    wl_header_seen *h = info->headers.v[i];
    free(h->shown);
    free(h);
  }
  wl_vec_free(&info->headers);
  for (size_t i = 0; i < info->deps.n; i++) {
    wl_tu_dep *d = info->deps.v[i];
    free((char *)d->path);
    free(d);
  }
  wl_vec_free(&info->deps);
  for (size_t i = 0; i < info->missing.n; i++)
    free(info->missing.v[i]);
  wl_vec_free(&info->missing);
  memset(info, 0, sizeof *info);
}

/* `canon` relative to the canonical directory `dir` when it lies under it,
 * else a copy of canon (the way files of a compilation database are shown). */
static char *relative_to(const char *canon, const char *dir) {
  size_t dl = strlen(dir);
  if (strcmp(dir, "/") == 0 && canon[0] == '/' && canon[1])
    return wl_xstrdup(canon + 1);
  if (strncmp(canon, dir, dl) == 0 && canon[dl] == '/' && canon[dl + 1])
    return wl_xstrdup(canon + dl + 1);
  return wl_xstrdup(canon);
}

/* The path a header's findings carry (wl_analyze_opts). */
static const char *header_display(wl_tu *tu, const wl_analyze_opts *o, const char *canon) {
  size_t bl = o->base ? strlen(o->base) : 0;
  wl_buf b;
  wl_buf_init(&b);
  if (o->base && o->base_shown && strncmp(canon, o->base, bl) == 0 && canon[bl] == '/') {
    size_t sl = strlen(o->base_shown);
    wl_buf_printf(&b, "%s%s%s", o->base_shown, sl && o->base_shown[sl - 1] != '/' ? "/" : "",
                  canon + bl + 1);
  } else if (o->cwd) {
    char *r = relative_to(canon, o->cwd);
    wl_buf_puts(&b, r);
    free(r);
  } else {
    wl_buf_puts(&b, canon);
  }
  const char *d = wl_arena_strdup(&tu->arena, wl_buf_str(&b));
  wl_buf_free(&b);
  return d;
}

static bool is_missing_include(const wl_parse_diag *d) {
  return d->message && strstr(d->message, "file not found") != NULL;
}

/* The name of an #include ("..." or <...>) that did not resolve (d is its
 * diagnostic), copied into buf (*angled: spelled <...>); NULL when d is
 * something else or the include is in a file that is not the user's. A project's own headers
 * included with
 * <...> (moderngpu's <moderngpu/kernel_scan.hxx>, cub's <cub/cub.cuh>) need
 * an -I like quoted ones. */
static const char *missing_quoted(const wl_tu *tu, const wl_parse_diag *d, char *buf, size_t n,
                                  bool *angled) {
  if (!is_missing_include(d) || !d->loc.file)
    return NULL;
  const char *src = NULL;
  size_t len = 0;
  if (wl_tu_in_main(tu, d->loc)) {
    src = tu->source, len = tu->source_len;
  } else {
    const wl_tu_file *tf = wl_tu_file_of(tu, d->loc);
    if (tf)
      src = tf->source, len = tf->source_len;
  }
  if (!src || d->loc.offset >= len || (src[d->loc.offset] != '"' && src[d->loc.offset] != '<'))
    return NULL;
  const char *b = src + d->loc.offset + 1;
  const char *e = memchr(b, src[d->loc.offset] == '<' ? '>' : '"', len - d->loc.offset - 1);
  const char *nl = memchr(b, '\n', len - d->loc.offset - 1);
  if (!e || (nl && nl < e) || e == b || (size_t)(e - b) >= n)
    return NULL;
  memcpy(buf, b, (size_t)(e - b));
  buf[e - b] = '\0';
  *angled = src[d->loc.offset] == '<';
  return buf;
}

#define WL_INFER_ROUNDS 4

/* One round of include inference: the include directories that resolve the
 * includes of tu that did not resolve, added to args (and extra, which
 * owns them); false when there is none new. */
static bool infer_round(const wl_tu *tu, const wl_analyze_opts *o, wl_analyze_info *info,
                        wl_vec *args, wl_vec *extra) {
  bool added = false;
  for (unsigned i = 0; i < tu->ndiags; i++) {
    char name[1024];
    bool angled = false;
    const char *nm = missing_quoted(tu, &tu->diags[i], name, sizeof name, &angled);
    char *dir = nm ? o->infer_include(nm, angled, tu->diags[i].loc.file, o->infer_ud) : NULL;
    if (!dir)
      continue;
    wl_buf flag;
    wl_buf_init(&flag);
    wl_buf_printf(&flag, "-I%s", dir);
    bool dup = false;
    for (size_t k = 0; k < extra->n && !dup; k++)
      dup = strcmp(extra->v[k], flag.data) == 0;
    if (!dup) {
      wl_vec_push(extra, wl_buf_detach(&flag));
      wl_vec_push(args, extra->v[extra->n - 1]);
      if (info) { /* the include as spelled: "name" or <name> */
        wl_buf sp;
        wl_buf_init(&sp);
        wl_buf_printf(&sp, angled ? "<%s>" : "\"%s\"", nm);
        wl_vec_push(&info->inferred, wl_buf_detach(&sp));
        wl_vec_push(&info->inferred, wl_xstrdup(dir));
      }
      added = true;
    }
    wl_buf_free(&flag);
    free(dir);
  }
  return added;
}

/* A file analyzed in batches (wl_parse_opts.on_batch): what the batches
 * share. The findings of each batch are collected per file shown ([0] the
 * main file, [1 + i] the TU's user header i), the suppressions applied once
 * at the end. */
typedef struct file_run {
  const wl_analyze_opts *o;
  wl_analyze_info *info;
  const char *path;
  wl_vec *args, *extra; /* include inference (parse_inferring) */
  int round;
  bool again; /* parse again with the include directories inferred */
  wl_findings *found;
  unsigned nfound;
  wl_vec host; /* host_extent*: the function bodies of the batches */
} file_run;

/* Where a function's body is, and whether the function is host-only: a
 * parse error there costs the analysis nothing, the rules read device code. */
typedef struct host_extent {
  char *file;
  unsigned begin, end;
  bool host;
} host_extent;

/* Whether the text of a body may hold a lambda expression: a `]` followed
 * by `(`, `{`, `<` or a word (a specifier, a macro such as __device__). A
 * __device__ lambda whose body has an error is dropped with it, so an error
 * in such a host function may cost device code. */
static bool may_hold_lambda(const wl_tu *tu, wl_range r) {
  const char *src = NULL;
  size_t len = 0;
  if (wl_tu_in_main(tu, r.begin)) {
    src = tu->source, len = tu->source_len;
  } else {
    const wl_tu_file *tf = wl_tu_file_of(tu, r.begin);
    if (tf)
      src = tf->source, len = tf->source_len;
  }
  if (!src || r.end.offset > len || r.begin.offset >= r.end.offset)
    return true;
  for (size_t i = r.begin.offset; i < r.end.offset; i++) {
    if (src[i] != ']')
      continue;
    size_t k = i + 1;
    while (k < r.end.offset && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n'))
      k++;
    char c = k < r.end.offset ? src[k] : ';';
    if (c == '(' || c == '{' || c == '<' || c == '_' || (c >= 'a' && c <= 'z') ||
        (c >= 'A' && c <= 'Z'))
      return true;
  }
  return false;
}

/* A host-only function (neither __device__ nor __global__) whose body holds
 * no lambda: a parse error in it costs no device code. */
static bool host_only(const wl_tu *tu, const wl_func *f) {
  return (f->flags & WL_F_HOST) && !(f->flags & (WL_F_GLOBAL | WL_F_DEVICE)) &&
         !(f->flags & WL_F_LAMBDA) && !may_hold_lambda(tu, f->body->range);
}

/* Narrows *best (the size of the innermost body holding at so far) with one
 * body; *host says whether the innermost one is a host-only function's. */
static void innermost(const char *file, unsigned begin, unsigned end, bool host, const wl_loc *at,
                      unsigned *best, bool *in_host) {
  if (file && (file == at->file || strcmp(file, at->file) == 0) && at->offset >= begin &&
      at->offset < end && end - begin < *best) {
    *best = end - begin;
    *in_host = host;
  }
}

/* Whether parse error d lies in the body of a host-only function without
 * lambdas (host_only): the innermost body that holds it, of the TU's
 * functions or of those its batches held (fr). */
static bool host_only_error(const wl_tu *tu, const file_run *fr, const wl_parse_diag *d) {
  if (!d->loc.file)
    return false;
  unsigned best = ~0u;
  bool in_host = false;
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (f->body)
      innermost(f->body->range.begin.file, f->body->range.begin.offset, f->body->range.end.offset,
                host_only(tu, f), &d->loc, &best, &in_host);
  }
  for (size_t i = 0; fr && i < fr->host.n; i++) {
    const host_extent *h = fr->host.v[i];
    innermost(h->file, h->begin, h->end, h->host, &d->loc, &best, &in_host);
  }
  return in_host;
}

static void record_host_extents(file_run *fr, const wl_tu *tu) {
  for (unsigned i = 0; i < tu->nfuncs; i++) {
    const wl_func *f = tu->funcs[i];
    if (!f->body || !f->body->range.begin.file)
      continue;
    host_extent *h = wl_xcalloc(1, sizeof *h);
    h->file = wl_xstrdup(f->body->range.begin.file);
    h->begin = f->body->range.begin.offset;
    h->end = f->body->range.end.offset;
    h->host = host_only(tu, f);
    wl_vec_push(&fr->host, h);
  }
}

static void free_host_extents(file_run *fr) {
  for (size_t i = 0; i < fr->host.n; i++) {
    host_extent *h = fr->host.v[i];
    free(h->file);
    free(h);
  }
  wl_vec_free(&fr->host);
}

static void prepare_file(wl_tu *tu, const wl_analyze_opts *o, wl_analyze_info *info,
                         const char *path);

static bool run_on_parsed(wl_tu *tu, void *ud) {
  file_run *fr = ud;
  if (fr->o->infer_include && fr->round + 1 < WL_INFER_ROUNDS &&
      infer_round(tu, fr->o, fr->info, fr->args, fr->extra)) {
    fr->again = true; /* nothing analyzed: the next parse will be */
    return false;
  }
  prepare_file(tu, fr->o, fr->info, fr->path);
  fr->nfound = 1 + tu->nfiles;
  fr->found = wl_xcalloc(fr->nfound, sizeof *fr->found);
  for (unsigned i = 0; i < fr->nfound; i++)
    wl_findings_init(&fr->found[i]);
  return true;
}

/* The rules run on a reported header as if it were the file analyzed: the
 * unit's path and text are the header's until tu_view_restore. */
typedef struct {
  const char *path, *source;
  size_t len;
} tu_view;

static tu_view tu_view_file(wl_tu *tu, const wl_tu_file *tf) {
  tu_view saved = {tu->path, tu->source, tu->source_len};
  tu->path = tf->name;
  tu->source = tf->source;
  tu->source_len = tf->source_len;
  return saved;
}

static void tu_view_restore(wl_tu *tu, tu_view saved) {
  tu->path = saved.path;
  tu->source = saved.source;
  tu->source_len = saved.len;
}

static void run_on_batch(wl_tu *tu, void *ud) {
  file_run *fr = ud;
  record_host_extents(fr, tu);
  wl_analyses main;
  rules_main(tu, fr->path, fr->o, &main, &fr->found[0]);
  for (unsigned i = 0; i < tu->nfiles; i++) {
    const wl_tu_file *tf = &tu->files[i];
    if (!tf->report)
      continue;
    tu_view saved = tu_view_file(tu, tf);
    rules_in_view(tu, tf->display, fr->o, &main, &fr->found[1 + i]);
    tu_view_restore(tu, saved);
  }
  wl_analyses_free(&main);
}

/* Parses the file; with include inference, again with the include
 * directories that resolve its includes (new includes may bring new
 * unresolved ones: a few rounds). With fr, a large file is analyzed in
 * batches during the parse (run_on_batch). */
static wl_parse_status parse_inferring(wl_parser *p, const char *path, const char *contents,
                                       const wl_analyze_opts *o, wl_tu **out, wl_analyze_info *info,
                                       wl_buf *err, file_run *fr) {
  wl_parse_opts po = o->parse;
  po.quiet_diags = true; /* what did not resolve is said once, after the last parse */
  wl_vec args = {0}, extra = {0};
  for (size_t i = 0; i < o->parse.nargs; i++)
    wl_vec_push(&args, (void *)o->parse.args[i]);
  if (fr) {
    po.on_parsed = run_on_parsed;
    po.on_batch = run_on_batch;
    po.batch_ud = fr;
    fr->args = &args;
    fr->extra = &extra;
  }
  wl_tu *tu = NULL;
  wl_parse_status st = WL_PARSE_OK;
  for (int round = 0;; round++) {
    po.args = (const char *const *)args.v;
    po.nargs = args.n;
    po.ninferred = o->parse.ninferred + extra.n;
    if (fr) {
      fr->round = round;
      fr->again = false;
    }
    /* a parse that another round may replace need not be exact */
    po.probe_missing = o->infer_include && round + 1 < WL_INFER_ROUNDS;
    st = wl_parse(p, path, contents, &po, &tu, err);
    po.verbose = false; /* the parser's other notes: once */
    if (st != WL_PARSE_OK)
      break;
    if (tu->batched ? !fr->again
                    : !o->infer_include || round + 1 >= WL_INFER_ROUNDS ||
                          !infer_round(tu, o, info, &args, &extra)) {
      if (tu->std_unchecked) {
        /* not replaced after all: as without the standard headers */
        wl_tu_free(tu);
        tu = NULL;
        po.no_std_pch = true;
        po.probe_missing = false;
        st = wl_parse(p, path, contents, &po, &tu, err);
      }
      break;
    }
    wl_tu_free(tu);
    tu = NULL;
  }
  for (size_t i = 0; i < extra.n; i++)
    free(extra.v[i]);
  wl_vec_free(&extra);
  wl_vec_free(&args);
  if (st == WL_PARSE_OK && o->parse.verbose)
    for (unsigned i = 0; i < tu->ndiags; i++) {
      const wl_parse_diag *d = &tu->diags[i];
      fprintf(stderr, "%s:%u:%u: note: could not resolve: %s%s\n", d->loc.file ? d->loc.file : path,
              d->loc.line, d->loc.col, d->message,
              !is_missing_include(d) && host_only_error(tu, fr, d)
                  ? " (in host code: not counted as incomplete)"
                  : "");
    }
  *out = tu;
  return st;
}

/* ---- checking the fixes before they are offered (verify_fixes) -------- */

/* After this many rounds of withdrawing fixes, the file's remaining fixes are
 * withdrawn as a whole. */
#define WL_VERIFY_ROUNDS 4

static void withdraw(wl_finding *fd) {
  wl_fix_clear(fd);
  wl_finding_add_note(fd, fd->file, fd->line, fd->col,
                      "automatic fix withdrawn: in the fixed code warplint would still report "
                      "this or fix it again (a second --fix would change the file); fix it by "
                      "hand");
}

static bool same_edit(const wl_edit *a, const wl_edit *b) {
  return a->offset == b->offset && a->length == b->length && strcmp(a->text, b->text) == 0 &&
         strcmp(a->file, b->file) == 0;
}

/* Whether fd (a finding of the plan) has edit e among its edits. */
static bool has_edit(const wl_finding *fd, const wl_edit *e) {
  for (size_t k = 0; k < fd->nedits; k++)
    if (same_edit(&fd->edits[k], e))
      return true;
  return false;
}

/* The 1-based line of byte offset off, given the sorted line starts. */
static unsigned line_of(const size_t *starts, size_t nlines, size_t off) {
  size_t lo = 0, hi = nlines;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (starts[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return (unsigned)lo + 1;
}

static bool loc_in(const char *file, unsigned line, const char *path, unsigned first,
                   unsigned last) {
  return file && strcmp(file, path) == 0 && line >= first && line <= last;
}

/* Where byte offset off of the text lies after the edits; false when an
 * edit replaces it. */
static bool moved_offset(const wl_file_fix *ff, unsigned off, size_t *out) {
  long long delta = 0;
  for (size_t k = 0; k < ff->nedits; k++) {
    const wl_edit *e = &ff->edits[k];
    if (e->offset > off)
      break;
    if (e->length && off < e->offset + e->length)
      return false;
    delta += (long long)strlen(e->text) - (long long)e->length;
  }
  *out = (size_t)((long long)off + delta);
  return true;
}

/* Whether g (a finding of the fixed text) is one whose fix an earlier round
 * withdrew (gone[j]): the same rule at the same place. Its fix stays withdrawn. */
static bool known_withdrawn(const wl_findings *f, const bool *gone, const wl_file_fix *ff,
                            const wl_finding *g) {
  for (size_t j = 0; j < f->n; j++) {
    size_t at;
    if (gone[j] && strcmp(f->v[j].rule, g->rule) == 0 && moved_offset(ff, f->v[j].offset, &at) &&
        at == g->offset)
      return true;
  }
  return false;
}

/* Whether every edit of g in path lies in [from, to] of the fixed text. */
static bool within(const wl_finding *g, const char *path, size_t from, size_t to) {
  for (size_t m = 0; m < g->nedits; m++) {
    const wl_edit *e = &g->edits[m];
    if (strcmp(e->file, path) != 0 || e->offset < from || (size_t)e->offset + e->length > to)
      return false;
  }
  return g->nedits > 0;
}

static int cmp_edit_ptr(const void *a, const void *b) {
  const wl_edit *x = *(const wl_edit *const *)a, *y = *(const wl_edit *const *)b;
  if (x->offset != y->offset)
    return x->offset < y->offset ? -1 : 1;
  if (x->length != y->length)
    return x->length < y->length ? -1 : 1;
  return strcmp(x->text, y->text);
}

/* fixed[from, to) with the edits applied (offsets in fixed; identical
 * edits once); NULL when two of them overlap. */
static char *absorbed_text(const wl_buf *fixed, size_t from, size_t to, wl_vec *edits) {
  qsort(edits->v, edits->n, sizeof *edits->v, cmp_edit_ptr);
  wl_buf b;
  wl_buf_init(&b);
  size_t pos = from;
  const wl_edit *prev = NULL;
  for (size_t i = 0; i < edits->n; i++) {
    const wl_edit *e = edits->v[i];
    if (prev && prev->offset == e->offset && prev->length == e->length &&
        strcmp(prev->text, e->text) == 0)
      continue;
    if (e->offset < pos) {
      wl_buf_free(&b);
      return NULL;
    }
    wl_buf_add(&b, fixed->data + pos, e->offset - pos);
    wl_buf_puts(&b, e->text);
    pos = (size_t)e->offset + e->length;
    prev = e;
  }
  wl_buf_add(&b, fixed->data + pos, to - pos);
  return b.data ? wl_buf_detach(&b) : wl_xstrdup("");
}

/* One round: applies the fixes of f that lie in `path` and analyzes the
 * result. A fixable finding whose edits lie inside the text an edit wrote is
 * taken into that edit; otherwise the fixes whose code is still reported (a
 * fixable finding, or one of the same rule, on a line the edit wrote) are
 * withdrawn and, for a fixable finding that no edit explains, every fix of
 * that rule. On the last round any of this withdraws every fix. Returns how
 * many fixes changed or were withdrawn, 0 when the fixed text is final, -1
 * when nothing is to fix. */
static int verify_round(wl_parser *p, const char *path, const char *text, size_t len,
                        const wl_analyze_opts *vo, wl_findings *f, bool *gone, bool last) {
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, f);
  const wl_file_fix *ff = NULL;
  for (size_t i = 0; i < plan.nfiles && !ff; i++)
    if (strcmp(plan.files[i].file, path) == 0 && plan.files[i].nedits > 0)
      ff = &plan.files[i];
  if (!ff) {
    wl_fix_plan_free(&plan);
    return -1;
  }
  wl_buf fixed;
  wl_buf_init(&fixed);
  /* a fix that does not apply, or makes text the parser cannot take: none */
  bool all = !wl_fix_apply_text(text, len, ff->edits, ff->nedits, &fixed) ||
             memchr(wl_buf_str(&fixed), '\0', fixed.len);
  wl_findings f2;
  wl_findings_init(&f2);
  if (!all) {
    wl_buf err;
    wl_buf_init(&err);
    all = wl_analyze_file_ex(p, path, wl_buf_str(&fixed), vo, &f2, NULL, &err) != WL_PARSE_OK;
    wl_buf_free(&err);
  }
  bool *bad = wl_xcalloc(ff->nedits + 1, sizeof *bad);
  size_t *nstart = wl_xcalloc(ff->nedits + 1, sizeof *nstart); /* each edit's text in fixed */
  size_t *nend = wl_xcalloc(ff->nedits + 1, sizeof *nend);
  wl_vec *absorb = wl_xcalloc(ff->nedits + 1, sizeof *absorb); /* wl_edit* of f2 */
  bool anybad = false;
  wl_vec rules = {0}; /* rules with a fixable finding that no edit wrote */
  wl_fix_plan plan2;
  if (!all) {
    wl_findings_sort_dedup(&f2);
    /* the lines of the fixed text that each edit wrote */
    size_t nlines = 1, cap = 64;
    size_t *starts = wl_xmalloc(cap * sizeof *starts);
    starts[0] = 0;
    for (size_t i = 0; i < fixed.len; i++)
      if (fixed.data[i] == '\n') {
        if (nlines == cap) {
          cap *= 2;
          starts = wl_xrealloc(starts, cap * sizeof *starts);
        }
        starts[nlines++] = i + 1;
      }
    unsigned *first = wl_xcalloc(ff->nedits + 1, sizeof *first);
    unsigned *lastl = wl_xcalloc(ff->nedits + 1, sizeof *lastl);
    long long delta = 0;
    for (size_t k = 0; k < ff->nedits; k++) {
      const wl_edit *e = &ff->edits[k];
      size_t tl = strlen(e->text);
      size_t ns = (size_t)((long long)e->offset + delta);
      nstart[k] = ns;
      nend[k] = ns + tl;
      first[k] = line_of(starts, nlines, ns);
      /* the last line written; an insertion also reaches the line it precedes */
      lastl[k] = line_of(starts, nlines, tl && e->length ? ns + tl - 1 : ns + tl);
      delta += (long long)tl - (long long)e->length;
    }
    wl_fix_plan_build(&plan2, &f2);
    for (size_t i = 0; i < f2.n; i++) {
      const wl_finding *g = &f2.v[i];
      bool fixable = false;
      for (size_t k = 0; k < g->nedits && plan2.taken[i]; k++)
        fixable |= strcmp(g->edits[k].file, path) == 0;
      bool hit = false;
      for (size_t k = 0; k < ff->nedits; k++) {
        bool in = loc_in(g->file, g->line, path, first[k], lastl[k]);
        for (size_t m = 0; m < g->nnotes && !in; m++)
          in = loc_in(g->notes[m].file, g->notes[m].line, path, first[k], lastl[k]);
        if (!in)
          continue;
        bool same_rule = false;
        for (size_t j = 0; j < f->n && !same_rule && !fixable; j++)
          same_rule = plan.taken[j] && strcmp(f->v[j].rule, g->rule) == 0 &&
                      has_edit(&f->v[j], &ff->edits[k]);
        if (fixable && within(g, path, nstart[k], nend[k])) {
          /* what a second --fix would do inside the text this edit wrote
           * becomes part of it (a legacy call copied into a rewritten
           * statement; a barrier the rewrite needs first) */
          for (size_t m = 0; m < g->nedits; m++)
            wl_vec_push(&absorb[k], &g->edits[m]);
          hit = true;
        } else if (fixable || same_rule) {
          bad[k] = hit = anybad = true;
        }
      }
      if (fixable && !hit && !known_withdrawn(f, gone, ff, g))
        wl_vec_push(&rules, (void *)g->rule);
    }
    free(first);
    free(lastl);
    free(starts);
  }
  /* the edits that take in what a second --fix would do in their text */
  int changed = 0;
  char **grown = wl_xcalloc(ff->nedits + 1, sizeof *grown);
  for (size_t k = 0; k < ff->nedits && !all; k++)
    if (!bad[k] && absorb[k].n) {
      grown[k] = absorbed_text(&fixed, nstart[k], nend[k], &absorb[k]);
      if (!grown[k])
        bad[k] = anybad = true;
    }
  if (!all)
    wl_fix_plan_free(&plan2);
  for (size_t k = 0; k < ff->nedits && !all && !last; k++)
    for (size_t j = 0; grown[k] && j < f->n; j++)
      for (size_t m = 0; plan.taken[j] && m < f->v[j].nedits; m++)
        if (same_edit(&f->v[j].edits[m], &ff->edits[k])) {
          free(f->v[j].edits[m].text);
          f->v[j].edits[m].text = wl_xstrdup(grown[k]);
          changed++;
        }
  bool grew = false;
  for (size_t k = 0; k < ff->nedits; k++) {
    grew |= grown[k] != NULL;
    free(grown[k]);
    wl_vec_free(&absorb[k]);
  }
  free(grown);
  free(absorb);
  free(nstart);
  free(nend);
  if (last && (anybad || rules.n || grew))
    all = true;
  int withdrawn = 0;
  for (size_t j = 0; j < f->n; j++) {
    wl_finding *fd = &f->v[j];
    bool here = false;
    for (size_t k = 0; k < fd->nedits; k++)
      here |= strcmp(fd->edits[k].file, path) == 0;
    if (!plan.taken[j] || !here)
      continue;
    bool drop = all;
    for (size_t k = 0; k < ff->nedits && !drop; k++)
      drop = bad[k] && has_edit(fd, &ff->edits[k]);
    for (size_t r = 0; r < rules.n && !drop; r++)
      drop = strcmp(rules.v[r], fd->rule) == 0;
    if (drop) {
      withdraw(fd);
      gone[j] = true;
      withdrawn++;
    }
  }
  wl_vec_free(&rules);
  free(bad);
  wl_findings_free(&f2);
  wl_buf_free(&fixed);
  wl_fix_plan_free(&plan);
  return withdrawn + changed;
}

/* Withdraws the fixes of f (the file's own findings, sorted) that a second
 * --fix would not leave alone (wl_analyze_opts.verify_fixes). */
static void verify_fixes(wl_parser *p, const char *path, const char *text, size_t len,
                         const wl_analyze_opts *o, wl_findings *f) {
  wl_analyze_opts vo = *o;
  vo.verify_fixes = false;
  vo.report_header = NULL; /* the file's own findings only */
  vo.parse.verbose = false;
  vo.parse.deps = false; /* what the cache records comes from the file's own parse */
  bool *gone = wl_xcalloc(f->n + 1, sizeof *gone);
  for (int round = 0; round <= WL_VERIFY_ROUNDS; round++)
    if (verify_round(p, path, text, len, &vo, f, gone, round == WL_VERIFY_ROUNDS) <= 0)
      break;
  free(gone);
}

/* Which user headers of tu are reported, and what info records of them. */
static void prepare_file(wl_tu *tu, const wl_analyze_opts *o, wl_analyze_info *info,
                         const char *path) {
  for (unsigned i = 0; i < tu->nfiles; i++) {
    wl_tu_file *tf = &tu->files[i];
    tf->report =
        tf->has_code && o->report_header && o->report_header(tf->canon, o->report_header_ud);
    if (tf->report) {
      tf->display = header_display(tu, o, tf->canon);
      if (info) {
        wl_header_seen *h = wl_xcalloc(1, sizeof *h);
        h->shown = wl_xstrdup(tf->display);
        h->hash = wl_content_hash(tf->source, tf->source_len);
        h->len = tf->source_len;
        wl_vec_push(&info->headers, h);
      }
    }
    if (info)
      wl_vec_push(&info->included, wl_xstrdup(tf->canon));
  }
  tu->main_display = path;
}

wl_parse_status wl_analyze_file_ex(wl_parser *p, const char *path, const char *contents,
                                   const wl_analyze_opts *o, wl_findings *out,
                                   wl_analyze_info *info, wl_buf *err) {
  wl_tu *tu = NULL;
  file_run fr;
  memset(&fr, 0, sizeof fr);
  fr.o = o;
  fr.info = info;
  fr.path = path;
  wl_parse_status st = parse_inferring(p, path, contents, o, &tu, info, err, &fr);
  if (st != WL_PARSE_OK) {
    free_host_extents(&fr);
    return st;
  }
  if (!tu->batched)
    prepare_file(tu, o, info, path);
  for (unsigned i = 0; info && i < tu->ndeps; i++) {
    wl_tu_dep *d = wl_xcalloc(1, sizeof *d);
    *d = tu->deps[i];
    d->path = wl_xstrdup(tu->deps[i].path);
    wl_vec_push(&info->deps, d);
  }
  if (info)
    for (unsigned i = 0; i < tu->ndiags; i++) {
      const wl_parse_diag *d = &tu->diags[i];
      bool user = d->loc.file && (wl_tu_in_main(tu, d->loc) || wl_tu_file_of(tu, d->loc));
      if (is_missing_include(d)) {
        info->nunresolved++;
        /* clang says "'name' file not found" */
        const char *q = strchr(d->message, '\'');
        const char *e = q ? strchr(q + 1, '\'') : NULL;
        if (e && e > q + 1) {
          wl_buf name;
          wl_buf_init(&name);
          wl_buf_add(&name, q + 1, (size_t)(e - q - 1));
          wl_vec_push(&info->missing, wl_buf_detach(&name));
        }
      } else if (user && !host_only_error(tu, &fr, d))
        info->nerrors++; /* an error in a host-only function's body costs no device code */
    }
  /* the rules over the whole TU, or the batches' findings (fr.found) */
  wl_findings main_found;
  wl_findings_init(&main_found);
  wl_analyses main;
  memset(&main, 0, sizeof main);
  if (!tu->batched)
    rules_main(tu, path, o, &main, &main_found);
  wl_findings *mf = tu->batched ? &fr.found[0] : &main_found;
  if (o->verify_fixes) {
    wl_findings own;
    wl_findings_init(&own);
    rules_finish(tu, path, o, mf, &own);
    wl_findings_sort_dedup(&own);
    verify_fixes(p, path, tu->source, tu->source_len, o, &own);
    wl_findings_move(out, &own);
  } else {
    rules_finish(tu, path, o, mf, out);
  }
  /* each reported header in turn, as if it were the file analyzed */
  for (unsigned i = 0; i < tu->nfiles; i++) {
    const wl_tu_file *tf = &tu->files[i];
    if (!tf->report)
      continue;
    tu_view saved = tu_view_file(tu, tf);
    if (tu->batched) {
      rules_finish(tu, tf->display, o, &fr.found[1 + i], out);
    } else {
      wl_findings local;
      wl_findings_init(&local);
      rules_in_view(tu, tf->display, o, tu->batched ? NULL : &main, &local);
      rules_finish(tu, tf->display, o, &local, out);
    }
    tu_view_restore(tu, saved);
  }
  for (unsigned i = 0; i < fr.nfound; i++)
    wl_findings_free(&fr.found[i]);
  free(fr.found);
  free_host_extents(&fr);
  wl_findings_free(&main_found);
  wl_analyses_free(&main);
  wl_tu_free(tu);
  return WL_PARSE_OK;
}

wl_parse_status wl_analyze_file(wl_parser *p, const char *path, const char *contents,
                                const wl_analyze_opts *o, wl_findings *out, wl_buf *err) {
  return wl_analyze_file_ex(p, path, contents, o, out, NULL, err);
}
