/* jobs.c - the jobs of a run through the analyzer: worker threads, or
 * forked worker processes (isolate.c) whose results come back in the
 * wire format, and the result cache (cache.c) that serves an unchanged
 * file without parsing. Output does not depend on -j. */
#include "run.h"

/* ------------------------------------------------------------------------ */
/* The run                                                                  */

typedef struct run_state {
  run_ctx *rc;
  bool headers; /* the phase: the headers, else the other files */
  pthread_mutex_t lock;
  size_t next;
  size_t done, total;
  bool progress;
} run_state;

static void run_job(wl_parser *p, job *j, bool fixing) {
  if (j->error || j->skip)
    return;
  wl_buf err;
  wl_buf_init(&err);
  /* --fix and --diff: the bytes analyzed are the bytes hashed, so that a
   * file changed since is never rewritten from stale offsets */
  char *text = NULL;
  size_t len = 0;
  if (fixing) {
    wl_buf rerr;
    wl_buf_init(&rerr);
    text = wl_fix_read(j->path, &len, &rerr);
    wl_buf_free(&rerr);
    if (text && memchr(text, '\0', len)) {
      free(text);
      text = NULL;
    }
    if (text) {
      j->hashed = true;
      j->hash = wl_content_hash(text, len);
      j->len = len;
    }
  }
  wl_parse_status st = wl_analyze_file_ex(p, j->path, text ? text : j->stdin_text, &j->ao,
                                          &j->findings, &j->info, &err);
  free(text);
  if (st != WL_PARSE_OK)
    j->error = wl_buf_detach(&err);
  wl_buf_free(&err);
}

static void *worker(void *arg) {
  run_state *rs = arg;
  wl_parser *p = wl_parser_new();
  for (;;) {
    pthread_mutex_lock(&rs->lock);
    size_t i = rs->next++;
    pthread_mutex_unlock(&rs->lock);
    if (i >= rs->rc->njobs)
      break;
    job *j = &rs->rc->jobs[i];
    if (j->header != rs->headers)
      continue;
    bool counted = !j->skip && !j->error;
    run_job(p, j, rs->rc->o->fix || rs->rc->o->diff);
    if (rs->progress && counted) {
      pthread_mutex_lock(&rs->lock);
      rs->done++;
      fprintf(rs->rc->err, "\r\033[K[%zu/%zu] %s", rs->done, rs->total, j->path);
      fflush(rs->rc->err);
      pthread_mutex_unlock(&rs->lock);
    }
  }
  wl_parser_free(p);
  return NULL;
}

/* A job's wl_analyze_info as strings, to come back from a worker process:
 * "I<canonical header>", "U<unresolved> <errors>", "F<name>", "D<dir>",
 * "H<hash> <len> <shown>". */
static void info_to_strs(const wl_analyze_info *in, wl_vec *out) {
  wl_buf b;
  for (size_t i = 0; i < in->included.n; i++) {
    wl_buf_init(&b);
    wl_buf_printf(&b, "I%s", (char *)in->included.v[i]);
    wl_vec_push(out, wl_buf_detach(&b));
  }
  wl_buf_init(&b);
  wl_buf_printf(&b, "U%zu %zu", in->nunresolved, in->nerrors);
  wl_vec_push(out, wl_buf_detach(&b));
  for (size_t i = 0; i < in->inferred.n; i++) {
    wl_buf_init(&b);
    wl_buf_printf(&b, "%c%s", i % 2 ? 'D' : 'F', (char *)in->inferred.v[i]);
    wl_vec_push(out, wl_buf_detach(&b));
  }
  for (size_t i = 0; i < in->headers.n; i++) {
    const wl_header_seen *h = in->headers.v[i];
    wl_buf_init(&b);
    wl_buf_printf(&b, "H%llu %zu %s", (unsigned long long)h->hash, h->len, h->shown);
    wl_vec_push(out, wl_buf_detach(&b));
  }
}

/* What only the result cache needs from a worker: the files read,
 * "R<hash> <len> <path>", the inferences made, "Q<fact>", and the includes
 * that did not resolve, "M<name>". */
static void cache_to_strs(const job *j, wl_vec *out) {
  wl_buf b;
  for (size_t i = 0; i < j->info.deps.n; i++) {
    const wl_tu_dep *d = j->info.deps.v[i];
    wl_buf_init(&b);
    wl_buf_printf(&b, "R%llu %zu %s", (unsigned long long)d->hash, d->len, d->path);
    wl_vec_push(out, wl_buf_detach(&b));
  }
  for (size_t i = 0; i < j->facts.n; i++) {
    wl_buf_init(&b);
    wl_buf_printf(&b, "Q%s", (char *)j->facts.v[i]);
    wl_vec_push(out, wl_buf_detach(&b));
  }
  for (size_t i = 0; i < j->info.missing.n; i++) {
    wl_buf_init(&b);
    wl_buf_printf(&b, "M%s", (char *)j->info.missing.v[i]);
    wl_vec_push(out, wl_buf_detach(&b));
  }
}

/* The reverse of info_to_strs and cache_to_strs, in the parent; the strings
 * are consumed. */
static void info_from_strs(job *j, wl_vec *strs) {
  wl_analyze_info *in = &j->info;
  for (size_t i = 0; i < strs->n; i++) {
    char *s = strs->v[i];
    unsigned long long hash = 0;
    size_t len = 0;
    int used = 0;
    switch (s[0]) {
    case 'I': wl_vec_push(&in->included, wl_xstrdup(s + 1)); break;
    case 'U': (void)sscanf(s + 1, "%zu %zu", &in->nunresolved, &in->nerrors); break;
    case 'F':
    case 'D': wl_vec_push(&in->inferred, wl_xstrdup(s + 1)); break;
    case 'H':
      if (sscanf(s + 1, "%llu %zu %n", &hash, &len, &used) == 2 && used > 0) {
        wl_header_seen *h = wl_xcalloc(1, sizeof *h);
        h->hash = hash;
        h->len = len;
        h->shown = wl_xstrdup(s + 1 + used);
        wl_vec_push(&in->headers, h);
      }
      break;
    case 'R':
      if (sscanf(s + 1, "%llu %zu %n", &hash, &len, &used) == 2 && used > 0) {
        wl_tu_dep *d = wl_xcalloc(1, sizeof *d);
        d->hash = hash;
        d->len = len;
        d->path = wl_xstrdup(s + 1 + used);
        wl_vec_push(&in->deps, d);
      }
      break;
    case 'Q': wl_vec_push(&j->facts, wl_xstrdup(s + 1)); break;
    case 'M': wl_vec_push(&in->missing, wl_xstrdup(s + 1)); break;
    default: break;
    }
    free(s);
  }
  wl_vec_free(strs);
}

/* In a worker process (isolate.h): one job, with the worker's parser. */
static void iso_run(size_t i, void **state, wl_findings *out, wl_iso_result *res, void *ud) {
  run_state *rs = ud;
  if (!*state)
    *state = wl_parser_new();
  job *j = &rs->rc->jobs[i];
  run_job(*state, j, rs->rc->o->fix || rs->rc->o->diff);
  wl_findings_move(out, &j->findings);
  res->error = j->error;
  j->error = NULL;
  res->meta[0] = j->hashed;
  res->meta[1] = j->hash;
  res->meta[2] = j->len;
  info_to_strs(&j->info, &res->strs);
  cache_to_strs(j, &res->strs);
}

/* Back in the parent: the job's findings, or why it failed. */
static void iso_done(size_t i, wl_findings *findings, wl_iso_result *res, void *ud) {
  run_state *rs = ud;
  job *j = &rs->rc->jobs[i];
  wl_findings_move(&j->findings, findings);
  free(j->error);
  j->error = res->error;
  j->hashed = res->meta[0] != 0;
  j->hash = res->meta[1];
  j->len = (size_t)res->meta[2];
  info_from_strs(j, &res->strs);
  if (rs->progress) {
    rs->done++;
    fprintf(rs->rc->err, "\r\033[K[%zu/%zu] %s", rs->done, rs->total, j->path);
    fflush(rs->rc->err);
  }
}

/* ------------------------------------------------------------------------ */
/* The result cache (cache.h)                                               */

/* A string of a key: its length first, so that no two keys run together. */
static void key_str(wl_buf *k, const char *what, const char *s) {
  wl_buf_printf(k, "%s %zu:%s\n", what, s ? strlen(s) : (size_t)0, s ? s : "");
}

/* The part of every key that is the run's: warplint itself (its version and
 * the bytes of its executable: a rebuild is another warplint), libclang, the
 * environment clang reads include paths from, the working directory (paths
 * in findings are relative to it), the CUDA headers, and the options that
 * decide which headers' findings are reported. False when warplint's own
 * executable cannot be read (then there is no cache). */
static bool make_run_key(run_ctx *rc, wl_buf *k) {
  const wl_cli_opts *o = rc->o;
  size_t len = 0;
  char *exe = wl_read_file_max("/proc/self/exe", WL_READ_MAX, &len, NULL);
  if (!exe)
    return false;
  wl_buf_printf(k, "warplint result cache 1\nversion %s\nexe %016llx %zu\n", WARPLINT_VERSION,
                (unsigned long long)wl_fnv1a(WL_FNV_START, exe, len), len);
  free(exe);
  char *clang = wl_libclang_version();
  key_str(k, "libclang", clang);
  free(clang);
  static const char *const env[] = {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH"};
  for (size_t i = 0; i < sizeof env / sizeof env[0]; i++)
    key_str(k, env[i], getenv(env[i]));
  key_str(k, "cwd", rc->cwd);
  key_str(k, "toolkit", rc->toolkit.root);
  wl_buf_printf(k, "cuda %u pch %d std-pch %d unused %d infer %d\n", rc->toolkit.version,
                rc->pch != NULL, rc->pch && !o->no_std_pch, o->report_unused, rc->infer != NULL);
  key_str(k, "cuda-canon", rc->cuda_canon);
  key_str(k, "header-filter", rc->have_header_re ? o->header_filter : NULL);
  for (size_t i = 0; i < rc->roots.n; i++)
    key_str(k, "root", rc->roots.v[i]);
  return true;
}

/* Opens the cache unless --no-cache, --fix or --diff (whose analyses read
 * the bytes they rewrite) or a bound of 0. Said on stderr when one was asked
 * for by name (--cache-dir, WARPLINT_CACHE_DIR) and cannot be used; with -v
 * in any case. */
void wl_jobs_open_cache(run_ctx *rc) {
  const wl_cli_opts *o = rc->o;
  if (o->no_cache || o->fix || o->diff)
    return;
  const char *named = o->cache_dir ? o->cache_dir : getenv("WARPLINT_CACHE_DIR");
  bool asked = named && *named;
  char *dir = o->cache_dir ? wl_xstrdup(o->cache_dir) : wl_cache_default_dir();
  wl_buf why;
  wl_buf_init(&why);
  uint64_t bound = 0;
  if (wl_cache_size_from_env(&bound, &why) && bound > 0) {
    wl_buf_init(&rc->run_key);
    if (!make_run_key(rc, &rc->run_key))
      wl_buf_puts(&why, "warplint's executable cannot be read (/proc/self/exe)");
    else
      rc->cache = wl_cache_open(dir, bound, &why);
  }
  if (!rc->cache && why.len && (asked || o->verbose))
    fprintf(rc->err, "warplint: %s: result cache not used: %s\n", asked ? "warning" : "note",
            why.data);
  wl_buf_free(&why);
  free(dir);
}

/* The key of a job: the run's part, then the file (as shown and canonical),
 * its flags and every setting of its analysis. */
static void job_key(const run_ctx *rc, const job *j, wl_buf *k) {
  wl_buf_add(k, rc->run_key.data, rc->run_key.len);
  key_str(k, "path", j->path);
  key_str(k, "canon", j->canon);
  key_str(k, "base", j->ao.base);
  key_str(k, "base-shown", j->ao.base_shown);
  wl_buf_printf(k,
                "header %d arch %u infer %d unused %d whole-warps %d rows-are-warps %d "
                "verify-fixes %d\n",
                j->header, j->ao.parse.arch, j->ao.infer_include != NULL,
                j->ao.report_unused_suppressions, j->settings.lanes.whole_warps,
                j->settings.lanes.rows_are_warps, j->ao.verify_fixes);
  for (size_t i = 0; i < j->args.n; i++)
    key_str(k, "arg", j->args.v[i]);
  wl_buf_puts(k, "rules ");
  for (size_t i = 0; i < wl_nrules; i++)
    wl_buf_printf(k, "%d%d", j->ao.enabled ? j->ao.enabled[i] : 1,
                  j->ao.severity ? (int)j->ao.severity[i] : -1);
  wl_buf_putc(k, '\n');
}

static int hexval(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Whether an include inference recorded by wl_inputs_infer_include still gives the
 * same answer (the project tree may have new files). */
static bool cache_fact(const char *fact, void *ud) {
  run_ctx *rc = ud;
  size_t n = strlen(fact);
  if (!rc->infer || n % 2)
    return false;
  char *raw = wl_xmalloc(n / 2 + 1);
  bool ok = true;
  for (size_t i = 0; i < n / 2 && ok; i++) {
    int hi = hexval(fact[2 * i]), lo = hexval(fact[2 * i + 1]);
    ok = hi >= 0 && lo >= 0;
    raw[i] = (char)(hi * 16 + lo);
  }
  wl_wire_reader r;
  wl_wire_reader_init(&r, raw, ok ? n / 2 : 0);
  char *tree = wl_wire_get_str(&r), *name = wl_wire_get_str(&r), *was = wl_wire_get_str(&r);
  ok = ok && !r.bad && tree && name && was;
  if (ok) {
    bool ambiguous = false;
    char *now = wl_infer_include(rc->infer, tree, name, &ambiguous);
    ok = strcmp(now ? now : "", was) == 0;
    free(now);
  }
  free(tree);
  free(name);
  free(was);
  free(raw);
  return ok;
}

/* The findings of each job to run that the cache has for it. Not with -v:
 * the notes it prints come from the parse, so every file is parsed. */
static void cache_lookup(run_ctx *rc, bool headers) {
  for (size_t i = 0; rc->cache && !rc->o->verbose && i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (j->skip || j->error || j->cached || j->header != headers || !j->ao.parse.deps)
      continue;
    wl_buf k;
    wl_buf_init(&k);
    job_key(rc, j, &k);
    size_t len = 0;
    char *payload = wl_cache_get(rc->cache, k.data, k.len, cache_fact, rc, &len);
    wl_buf_free(&k);
    if (!payload)
      continue;
    wl_findings f;
    wl_findings_init(&f);
    wl_iso_result res;
    memset(&res, 0, sizeof res);
    if (wl_iso_decode(payload, len, &rc->rule_ids, &f, &res) && !res.error) {
      j->cached = true;
      wl_findings_move(&j->findings, &f);
      info_from_strs(j, &res.strs);
      if (rc->o->cache_stats)
        fprintf(rc->err,
                "warplint: note: %s: unchanged since an earlier run: findings from the "
                "result cache (--no-cache analyzes it again)\n",
                j->path);
    } else {
      for (size_t s = 0; s < res.strs.n; s++)
        free(res.strs.v[s]);
      wl_vec_free(&res.strs);
    }
    free(res.error);
    wl_findings_free(&f);
    free(payload);
  }
}

/* The directories whose entries decided what the parse of j found: those of
 * the files it read, those its flags name (-I and the like), those inferred
 * and the usual system ones; a file that appears in one of them may shadow a
 * header. For an #include "sub/name.h" that did not resolve, also sub/ (and
 * each directory on the way) under each of them, present or not: that is
 * where the file would appear. */
static void job_dirs(const job *j, wl_vec *out) {
  wl_hmap seen;
  wl_hmap_init(&seen, true);
  wl_vec cand = {0};
  for (size_t i = 0; i < j->info.deps.n; i++) {
    const wl_tu_dep *d = j->info.deps.v[i];
    const char *slash = strrchr(d->path, '/');
    wl_buf b;
    wl_buf_init(&b);
    if (!slash)
      wl_buf_puts(&b, ".");
    else
      wl_buf_add(&b, d->path, slash == d->path ? 1 : (size_t)(slash - d->path));
    wl_vec_push(&cand, wl_buf_detach(&b));
  }
  static const char *const flags[] = {"-I", "-isystem", "-iquote", "-idirafter",
                                      "--include-directory="};
  for (size_t i = 0; i < j->args.n; i++) {
    const char *a = j->args.v[i];
    for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
      size_t n = strlen(flags[f]);
      if (strncmp(a, flags[f], n) != 0)
        continue;
      const char *dir = a[n] ? a + n : i + 1 < j->args.n ? j->args.v[i + 1] : NULL;
      if (dir && *dir)
        wl_vec_push(&cand, wl_xstrdup(dir));
      break;
    }
  }
  for (size_t i = 1; i < j->info.inferred.n; i += 2)
    wl_vec_push(&cand, wl_xstrdup(j->info.inferred.v[i]));
  wl_vec_push(&cand, wl_xstrdup("/usr/local/include"));
  wl_vec_push(&cand, wl_xstrdup("/usr/include"));
  for (size_t i = 0; i < cand.n; i++) {
    if (wl_hmap_get(&seen, cand.v[i])) {
      free(cand.v[i]);
      continue;
    }
    wl_hmap_put(&seen, cand.v[i], cand.v[i], false);
    wl_vec_push(out, cand.v[i]);
  }
  wl_vec_free(&cand);
  size_t nsearch = out->n;
  for (size_t m = 0; m < j->info.missing.n; m++) {
    const char *name = j->info.missing.v[m];
    for (const char *sl = strchr(name, '/'); sl; sl = strchr(sl + 1, '/'))
      for (size_t i = 0; i < nsearch; i++) {
        wl_buf b;
        wl_buf_init(&b);
        wl_buf_printf(&b, "%s/%.*s", (char *)out->v[i], (int)(sl - name), name);
        if (wl_hmap_get(&seen, b.data)) {
          wl_buf_free(&b);
          continue;
        }
        char *p = wl_buf_detach(&b);
        wl_hmap_put(&seen, p, p, false);
        wl_vec_push(out, p);
      }
  }
  wl_hmap_free(&seen);
}

/* Stores the findings of each job analyzed now whose parse listed every
 * file it read. */
static void cache_store(run_ctx *rc, bool headers) {
  for (size_t i = 0; rc->cache && i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (j->skip || j->error || j->cached || j->header != headers || !j->ao.parse.deps ||
        j->info.deps.n == 0)
      continue;
    wl_iso_result res;
    memset(&res, 0, sizeof res);
    info_to_strs(&j->info, &res.strs);
    wl_buf payload;
    wl_buf_init(&payload);
    wl_iso_encode(&payload, &j->findings, &res);
    wl_vec deps = {0}, dirs = {0};
    wl_cache_dep *dv = wl_xcalloc(j->info.deps.n, sizeof *dv);
    for (size_t k = 0; k < j->info.deps.n; k++) {
      const wl_tu_dep *d = j->info.deps.v[k];
      dv[k].path = d->path;
      dv[k].hash = d->hash;
      dv[k].len = d->len;
      wl_vec_push(&deps, &dv[k]);
    }
    job_dirs(j, &dirs);
    wl_buf k;
    wl_buf_init(&k);
    job_key(rc, j, &k);
    wl_cache_put(rc->cache, k.data, k.len, &deps, &dirs, &j->facts, payload.data, payload.len);
    wl_buf_free(&k);
    for (size_t d = 0; d < dirs.n; d++)
      free(dirs.v[d]);
    wl_vec_free(&dirs);
    wl_vec_free(&deps);
    free(dv);
    wl_buf_free(&payload);
    for (size_t s = 0; s < res.strs.n; s++)
      free(res.strs.v[s]);
    wl_vec_free(&res.strs);
  }
}

static void run_jobs(run_ctx *rc, long nthreads, bool headers);

/* The jobs of a phase: those the cache has, then the others, which are then
 * stored. */
void wl_jobs_run_all(run_ctx *rc, long nthreads, bool headers) {
  cache_lookup(rc, headers);
  run_jobs(rc, nthreads, headers);
  cache_store(rc, headers);
}

/* Every job, each file's parse and analysis in a worker process, so that a
 * crash on one file loses only that file (isolate.h); with no process to be
 * had, in threads of this one. */
static void run_jobs(run_ctx *rc, long nthreads, bool headers) {
  run_state rs;
  memset(&rs, 0, sizeof rs);
  rs.rc = rc;
  rs.headers = headers;
  pthread_mutex_init(&rs.lock, NULL);
  bool *todo = wl_xcalloc(rc->njobs ? rc->njobs : 1, sizeof *todo);
  for (size_t i = 0; i < rc->njobs; i++) {
    todo[i] = !rc->jobs[i].skip && !rc->jobs[i].error && !rc->jobs[i].cached &&
              rc->jobs[i].header == headers;
    rs.total += todo[i];
  }
  rs.progress = rs.total > WL_PROGRESS_MIN_FILES && !rc->o->quiet && isatty(fileno(rc->err));
  if (nthreads > (long)rs.total)
    nthreads = (long)rs.total;
  if (nthreads < 1)
    nthreads = 1;
  wl_iso_opts io = {
      rc->njobs, todo, nthreads,      WL_THREAD_STACK,     iso_run,
      iso_done,  &rs,  &rc->rule_ids, rc->o->file_timeout, (size_t)rc->o->file_memory};
  if (rs.total == 0 || wl_isolate_run(&io)) {
    free(todo);
    if (rs.progress)
      fputs("\r\033[K", rc->err);
    pthread_mutex_destroy(&rs.lock);
    return;
  }
  free(todo);
  pthread_attr_t attr;
  bool have_attr = pthread_attr_init(&attr) == 0;
  if (have_attr && pthread_attr_setstacksize(&attr, WL_THREAD_STACK) != 0) {
    pthread_attr_destroy(&attr);
    have_attr = false;
  }
  pthread_t *t = wl_xcalloc((size_t)nthreads, sizeof *t);
  long started = 0;
  for (long i = 0; i < nthreads; i++)
    if (pthread_create(&t[i], have_attr ? &attr : NULL, worker, &rs) == 0)
      started++;
    else
      break;
  if (started == 0)
    worker(&rs);
  for (long i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  free(t);
  if (have_attr)
    pthread_attr_destroy(&attr);
  if (rs.progress)
    fputs("\r\033[K", rc->err);
  pthread_mutex_destroy(&rs.lock);
}
