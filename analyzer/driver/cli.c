/* cli.c - one run of warplint: options (options.c) and configuration
 * (.warplint, config.c) into per-file settings; the inputs into jobs
 * (inputs.c); the jobs through the analyzer in parallel, output independent
 * of -j (jobs.c); then per-file ignores, baseline, fixes, emitters and the
 * exit code. The run's state (run_ctx, job, profile) is in run.h. */
#include "cli.h"
#include "run.h"

/* [per-file-ignores]: the findings of a job located in a file that an entry
 * of the job's configuration matches (its own file, or a header reported
 * with it), for a rule that entry names, are dropped before anything else
 * sees them (baseline, fixes, output). */
static void drop_ignored(run_ctx *rc) {
  for (size_t i = 0; i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (!j->prof || !j->prof->has_cfg || j->prof->cfg.file_ignores.n == 0)
      continue;
    wl_findings *f = &j->findings;
    char *last = NULL, *canon = NULL;
    size_t w = 0;
    for (size_t k = 0; k < f->n; k++) {
      if (!last || strcmp(last, f->v[k].file) != 0) {
        free(canon);
        free(last);
        canon = wl_canonical_path(f->v[k].file);
        last = wl_xstrdup(f->v[k].file);
      }
      if (wl_config_ignores(&j->prof->cfg, canon, f->v[k].rule)) {
        if (rc->o->verbose)
          fprintf(rc->err, "warplint: note: %s:%u:%u: [%s] ignored by the per-file-ignores of %s\n",
                  f->v[k].file, f->v[k].line, f->v[k].col, f->v[k].rule, j->prof->cfg.path);
        wl_finding_free(&f->v[k]);
        continue;
      }
      f->v[w++] = f->v[k];
    }
    f->n = w;
    free(canon);
    free(last);
  }
}

static bool want_color(wl_color_mode m, FILE *out) {
  if (m == WL_COLOR_ALWAYS)
    return true;
  if (m == WL_COLOR_NEVER)
    return false;
  const char *term = getenv("TERM");
  if (getenv("NO_COLOR") || (term && strcmp(term, "dumb") == 0))
    return false;
  return isatty(fileno(out)) != 0;
}

static void free_ctx(run_ctx *rc) {
  for (size_t i = 0; i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    free(j->path);
    free(j->canon);
    free(j->stdin_text);
    free(j->error);
    wl_vec_free(&j->args);
    wl_findings_free(&j->findings);
    wl_analyze_info_free(&j->info);
    free(j->root);
    free(j->root_shown);
    for (size_t k = 0; k < j->facts.n; k++)
      free(j->facts.v[k]);
    wl_vec_free(&j->facts);
  }
  free(rc->jobs);
  wl_cache_close(rc->cache);
  wl_buf_free(&rc->run_key);
  if (rc->have_header_re)
    regfree(&rc->header_re);
  for (size_t i = 0; i < rc->roots.n; i++)
    free(rc->roots.v[i]);
  wl_vec_free(&rc->roots);
  free(rc->cuda_canon);
  wl_infer_free(rc->infer);
  wl_gitignore_free(rc->gitignore);
  wl_vec_free(&rc->included); /* borrowed from the jobs */
  for (size_t i = 0; i < rc->db_incs.n; i += 2)
    free(rc->db_incs.v[i]);
  wl_vec_free(&rc->db_incs);
  for (size_t i = 0; i < rc->profiles.n; i++)
    wl_inputs_free_profile(rc->profiles.v[i]);
  wl_vec_free(&rc->profiles);
  for (size_t i = 0; i < rc->cfg_paths.n; i++)
    free(rc->cfg_paths.v[i]);
  wl_vec_free(&rc->cfg_paths);
  for (size_t i = 0; i < rc->input_errors.n; i++)
    free(rc->input_errors.v[i]);
  wl_vec_free(&rc->input_errors);
  for (size_t i = 0; i < rc->rule_ids.n; i++)
    free(rc->rule_ids.v[i]);
  wl_vec_free(&rc->rule_ids);
  free(rc->last_dir);
  free(rc->cwd);
  wl_toolkit_free(&rc->toolkit);
  wl_pch_cache_free(rc->pch);
  if (rc->have_db)
    wl_compdb_free(&rc->db);
}

/* Loads what must be valid before anything is analyzed: the compilation
 * database, --config and --baseline. False: reported, exit 2. */
static bool load_inputs(run_ctx *rc, wl_baseline *bl, bool *have_bl) {
  const wl_cli_opts *o = rc->o;
  wl_buf err;
  wl_buf_init(&err);
  bool ok = true;
  wl_buf notes;
  wl_buf_init(&notes);
  if (!wl_toolkit_find(o->cuda_path, o->no_cuda_path, &rc->toolkit, &notes, &err)) {
    fprintf(rc->err, "warplint: error: %s\n", wl_buf_str(&err));
    ok = false;
  } else if (o->verbose) {
    for (const char *l = wl_buf_str(&notes); *l;) {
      size_t n = strcspn(l, "\n");
      fprintf(rc->err, "warplint: note: %.*s\n", (int)n, l);
      l += n + (l[n] == '\n');
    }
    wl_buf d;
    wl_buf_init(&d);
    wl_toolkit_describe(&rc->toolkit, &d);
    fprintf(rc->err, "warplint: note: parsing with the %s\n", wl_buf_str(&d));
    wl_buf_free(&d);
  }
  wl_buf_free(&notes);
  if (!o->no_pch) {
    /* built precompiled headers are kept beside the result cache (also with
     * --no-cache, which is about results) */
    char *cache = o->cache_dir ? wl_xstrdup(o->cache_dir) : wl_cache_default_dir();
    char *store = NULL;
    if (cache && *cache) {
      char *abs = cache[0] == '/' ? wl_xstrdup(cache) : wl_join_path(rc->cwd, cache);
      store = wl_join_path(abs, "pch");
      free(abs);
    }
    rc->pch = wl_pch_cache_new(store);
    free(store);
    free(cache);
  }
  if (ok && o->compdb) {
    rc->have_db = wl_compdb_load(o->compdb, &rc->db, &err);
    if (!rc->have_db) {
      fprintf(rc->err, "warplint: error: %s\n", wl_buf_str(&err));
      ok = false;
    } else if (o->verbose && rc->db.duplicates) {
      fprintf(rc->err,
              "warplint: note: %s: %zu entr%s for files listed earlier ignored "
              "(the first entry of each file is used)\n",
              o->compdb, rc->db.duplicates, rc->db.duplicates == 1 ? "y" : "ies");
    }
  }
  if (ok && o->config) {
    profile *p = wl_inputs_config_profile(rc, o->config);
    ok = p->error == NULL;
  }
  if (ok && o->baseline) {
    wl_buf_free(&err);
    *have_bl = wl_baseline_load(o->baseline, bl, &err);
    if (!*have_bl) {
      fprintf(rc->err, "warplint: error: %s\n", wl_buf_str(&err));
      ok = false;
    }
  }
  wl_buf_free(&err);
  return ok;
}

/* --fix, --diff and --export-fixes: the automatic fixes of the reported
 * findings. --fix rewrites the files (atomically) and drops the findings it
 * fixed from `all`; --diff prints what --fix would change. Returns false when
 * something could not be written; *changed says whether any file has edits. */
/* Whether the output file `path` is one of the run's inputs (an analyzed
 * file, a config, the baseline, the compile database): outputs (--export-fixes,
 * -o, --write-baseline) never overwrite one. The baseline being refreshed
 * (--baseline F --write-baseline F) is not an input when baseline_ok. */
static bool output_is_input(const run_ctx *rc, const char *path, bool baseline_ok) {
  const wl_cli_opts *o = rc->o;
  wl_vec in = {0};
  for (size_t i = 0; i < rc->njobs; i++)
    wl_vec_push(&in, rc->jobs[i].canon);
  for (size_t i = 0; i < o->paths.n; i++)
    wl_vec_push(&in, o->paths.v[i]);
  for (size_t i = 0; i < rc->cfg_paths.n; i++)
    wl_vec_push(&in, rc->cfg_paths.v[i]);
  for (size_t i = 1; i < rc->profiles.n; i++) { /* the parents they inherit or extend */
    const profile *p = rc->profiles.v[i];
    for (size_t k = 0; p->has_cfg && k < p->cfg.sources.n; k++)
      wl_vec_push(&in, p->cfg.sources.v[k]);
  }
  const char *more[] = {o->config, baseline_ok ? NULL : o->baseline, o->compdb};
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
    if (more[i])
      wl_vec_push(&in, (void *)more[i]);
  bool hit = wl_path_is_one_of(path, (const char *const *)in.v, in.n);
  wl_vec_free(&in);
  return hit;
}

/* Writes an output file (-o, --export-fixes, --write-baseline) through
 * wl_write_output; a symbolic link may lead only inside the project root of
 * the link's directory. On failure, "who: why" on stderr. */
static bool write_output(const run_ctx *rc, const char *path, const char *who, const char *data,
                         size_t len) {
  char *root = wl_fix_root_of_input(path);
  wl_buf e;
  wl_buf_init(&e);
  bool ok = wl_write_output(path, who, root, data, len, &e);
  if (!ok)
    fprintf(rc->err, "warplint: error: %s: %s\n", who, wl_buf_str(&e));
  wl_buf_free(&e);
  free(root);
  return ok;
}

/* The directories --fix may write in: the project of each input named on
 * the command line, or of the compile database (else of the current
 * directory). None with --fix-outside-project (anywhere). */
static void fix_roots(const run_ctx *rc, wl_vec *roots) {
  const wl_cli_opts *o = rc->o;
  if (o->fix_outside_project)
    return;
  for (size_t i = 0; i < o->paths.n; i++)
    wl_vec_push(roots, wl_fix_root_of_input(o->paths.v[i]));
  if (o->paths.n == 0) {
    char *r = o->compdb ? wl_project_root_of(o->compdb) : NULL;
    wl_vec_push(roots, r ? r : wl_project_root());
  }
}

static int cmp_job_path(const void *a, const void *b) {
  const job *x = *(const job *const *)a, *y = *(const job *const *)b;
  int c = strcmp(x->path, y->path);
  return c ? c : (x->skip || x->error) - (y->skip || y->error);
}

/* The analyzed job whose findings carry this path (edits name the path as displayed). */
static const job *job_of(job *const *sorted, size_t n, const char *path) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(sorted[mid]->path, path) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && strcmp(sorted[lo]->path, path) == 0 ? sorted[lo] : NULL;
}

/* A header's fixes: the text that the files including it analyzed, when they
 * all saw the same (else it is not rewritten). */
static void header_hash(const run_ctx *rc, wl_fix_target *t) {
  bool seen = false, same = true;
  for (size_t i = 0; i < rc->njobs && same; i++)
    for (size_t k = 0; k < rc->jobs[i].info.headers.n; k++) {
      const wl_header_seen *h = rc->jobs[i].info.headers.v[k];
      if (strcmp(h->shown, t->path) != 0)
        continue;
      if (seen && (h->hash != t->hash || h->len != t->len))
        same = false;
      t->hash = h->hash;
      t->len = h->len;
      seen = true;
    }
  t->have_hash = seen && same;
}

static bool do_fixes(run_ctx *rc, wl_findings *all, FILE *out, bool *changed) {
  const wl_cli_opts *o = rc->o;
  FILE *err = rc->err;
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, all);
  bool ok = true;
  *changed = false;
  if (o->export_fixes && output_is_input(rc, o->export_fixes, false)) {
    fprintf(err, "warplint: error: --export-fixes: %s is one of the inputs; not overwritten\n",
            o->export_fixes);
    ok = false;
  } else if (o->export_fixes) {
    char *yaml = NULL;
    size_t ylen = 0;
    FILE *m = open_memstream(&yaml, &ylen);
    wl_buf xnotes;
    wl_buf_init(&xnotes);
    /* the plan --fix and --diff use: the same edits */
    bool wrote = m && wl_export_fixes_plan(m, all, &plan, o->paths.n ? o->paths.v[0] : "", &xnotes);
    for (const char *p = xnotes.data; p && *p;) { /* one note a line */
      size_t n = strcspn(p, "\n");
      fprintf(err, "warplint: note: %.*s\n", (int)n, p);
      p += n + (p[n] != '\0');
    }
    wl_buf_free(&xnotes);
    if (m)
      fclose(m);
    if (!wrote) {
      fprintf(err, "warplint: error: --export-fixes: %s: cannot write\n", o->export_fixes);
      ok = false;
    } else if (!write_output(rc, o->export_fixes, "--export-fixes", yaml, ylen)) {
      ok = false;
    }
    free(yaml);
  }
  wl_vec roots = {0};
  fix_roots(rc, &roots);
  job **sorted = wl_xcalloc(rc->njobs + 1, sizeof *sorted);
  for (size_t i = 0; i < rc->njobs; i++)
    sorted[i] = &rc->jobs[i];
  qsort(sorted, rc->njobs, sizeof *sorted, cmp_job_path);
  size_t nfixed = 0, nfiles = 0;
  for (size_t i = 0; i < plan.nfiles && (o->fix || o->diff); i++) {
    const wl_file_fix *ff = &plan.files[i];
    if (ff->nedits == 0)
      continue;
    const job *j = job_of(sorted, rc->njobs, ff->file);
    wl_fix_target t = {
        ff->file, j && j->hashed, j ? j->hash : 0, j ? j->len : 0, (const char *const *)roots.v,
        roots.n};
    if (!t.have_hash)
      header_hash(rc, &t);
    size_t len = 0;
    char *text = NULL;
    wl_buf next, e;
    wl_buf_init(&next);
    wl_buf_init(&e);
    if (o->diff) {
      text = wl_fix_read(ff->file, &len, &e);
      if (text && (!t.have_hash || len != t.len || wl_content_hash(text, len) != t.hash))
        wl_buf_printf(&e, "%s: the file changed since it was analyzed (run warplint again)",
                      ff->file);
    }
    if (e.len || (o->diff && !wl_fix_apply_text(text, len, ff->edits, ff->nedits, &next))) {
      fprintf(err, "warplint: error: %s\n", e.len ? wl_buf_str(&e) : ff->file);
      ok = false;
    } else if (o->diff) {
      wl_buf d;
      wl_buf_init(&d);
      /* a/x and b/x relative to the working directory, however the input was
       * spelt (., ./x, src/.., absolute): what git apply and patch -p1 take */
      wl_buf shown;
      wl_buf_init(&shown);
      wl_outpath_relative(ff->file, rc->cwd, &shown);
      wl_unified_diff(wl_buf_str(&shown), text, len, ff->edits, ff->nedits, &d);
      wl_buf_free(&shown);
      fputs(wl_buf_str(&d), out);
      wl_buf_free(&d);
      *changed = true;
      nfixed += ff->nfindings;
      nfiles++;
    } else {
      if (wl_fix_write(&t, ff->edits, ff->nedits, &e)) {
        *changed = true;
        nfixed += ff->nfindings;
        nfiles++;
      } else {
        fprintf(err, "warplint: error: %s\n", wl_buf_str(&e));
        ok = false;
        /* nothing of this file was changed: keep its findings */
        for (size_t k = 0; k < all->n; k++)
          if (plan.taken[k] && strcmp(all->v[k].file, ff->file) == 0)
            plan.taken[k] = false;
      }
    }
    wl_buf_free(&e);
    wl_buf_free(&next);
    free(text);
  }
  free(sorted);
  for (size_t i = 0; i < roots.n; i++)
    free(roots.v[i]);
  wl_vec_free(&roots);
  if (o->fix) {
    size_t w = 0;
    for (size_t k = 0; k < all->n; k++) {
      if (plan.taken[k]) {
        wl_finding_free(&all->v[k]);
        continue;
      }
      all->v[w++] = all->v[k];
    }
    all->n = w;
    if (!o->quiet)
      fprintf(err, "warplint: fixed %zu finding%s in %zu file%s\n", nfixed, nfixed == 1 ? "" : "s",
              nfiles, nfiles == 1 ? "" : "s");
  } else if (o->diff && !o->quiet) {
    fprintf(err, "warplint: %zu finding%s fixable in %zu file%s (--diff changes nothing)\n", nfixed,
            nfixed == 1 ? "" : "s", nfiles, nfiles == 1 ? "" : "s");
  }
  wl_fix_plan_free(&plan);
  return ok;
}

/* --statistics: the findings of each rule (like ruff's), most frequent
 * first; text or JSON. */
static int emit_statistics(const wl_cli_opts *o, FILE *dest, const wl_findings *all) {
  size_t nr = wl_nrules + wl_npseudo_rules;
  size_t *count = wl_xcalloc(nr, sizeof *count), *fixable = wl_xcalloc(nr, sizeof *fixable);
  const wl_rule **rule = wl_xcalloc(nr, sizeof *rule);
  for (size_t k = 0; k < nr; k++)
    rule[k] = k < wl_nrules ? &wl_rules[k] : &wl_pseudo_rules[k - wl_nrules];
  for (size_t i = 0; i < all->n; i++)
    for (size_t k = 0; k < nr; k++)
      if (strcmp(rule[k]->id, all->v[i].rule) == 0) {
        count[k]++;
        fixable[k] += all->v[i].nedits > 0;
        break;
      }
  size_t *order = wl_xcalloc(nr, sizeof *order);
  for (size_t k = 0; k < nr; k++)
    order[k] = k;
  for (size_t a = 1; a < nr; a++) /* stable insertion sort: count down, registry order */
    for (size_t b = a; b > 0 && count[order[b]] > count[order[b - 1]]; b--) {
      size_t t = order[b];
      order[b] = order[b - 1];
      order[b - 1] = t;
    }
  int rc = 0;
  if (o->format == WL_FMT_JSON) {
    struct json_object *root = wl_emit_jobject();
    wl_emit_jset(root, "version", wl_emit_jint(1));
    struct json_object *arr = wl_emit_jarray();
    for (size_t a = 0; a < nr && count[order[a]]; a++) {
      size_t k = order[a];
      struct json_object *e = wl_emit_jobject();
      wl_emit_jset(e, "rule", wl_emit_jstring(rule[k]->id));
      wl_emit_jset(e, "count", wl_emit_jint((long long)count[k]));
      wl_emit_jset(e, "fixable", wl_emit_jint((long long)fixable[k]));
      wl_emit_jset(e, "summary", wl_emit_jstring(rule[k]->summary));
      wl_emit_jpush(arr, e);
    }
    wl_emit_jset(root, "statistics", arr);
    wl_emit_jset(root, "findings", wl_emit_jint((long long)all->n));
    rc = wl_emit_jwrite(dest, root);
    json_object_put(root);
  } else {
    for (size_t a = 0; a < nr && count[order[a]]; a++) {
      size_t k = order[a];
      fprintf(dest, "%6zu  %-28s %s%s\n", count[k], rule[k]->id,
              fixable[k] == count[k] ? "[*] "
              : fixable[k]           ? "[-] "
                                     : "    ",
              rule[k]->summary);
    }
    rc = fflush(dest) == 0 && !ferror(dest) ? 0 : -1;
  }
  free(count);
  free(fixable);
  free(rule);
  free(order);
  return rc;
}

/* The report in the chosen format. 0, or -1 when writing failed. */
static int emit_report(const wl_cli_opts *o, FILE *dest, const wl_findings *all,
                       wl_emit_info *info) {
  if (o->statistics)
    return emit_statistics(o, dest, all);
  switch (o->format) {
  case WL_FMT_JSON: return wl_emit_json(dest, all, info);
  case WL_FMT_SARIF: return wl_emit_sarif(dest, all, info);
  case WL_FMT_GITHUB: return wl_emit_github(dest, all, info);
  case WL_FMT_GITLAB: return wl_emit_gitlab(dest, all, info);
  case WL_FMT_JUNIT: return wl_emit_junit(dest, all, info);
  case WL_FMT_TEXT: break;
  }
  info->color = !o->output && want_color(o->color, dest);
  return wl_emit_text(dest, all, info);
}

int wl_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  /* libclang parses on the analysis thread, whose stack is large
   * (WL_THREAD_STACK), instead of a thread of its own with 8 MiB */
  setenv("LIBCLANG_NOTHREADS", "1", 1);
  wl_cli_opts o;
  wl_parse_result pr = wl_cli_parse(argc, argv, &o, out, err);
  if (pr != WL_ARGS_RUN) {
    wl_cli_opts_free(&o);
    return pr == WL_ARGS_EXIT_OK ? WL_EXIT_CLEAN : WL_EXIT_ERROR;
  }

  run_ctx rc;
  memset(&rc, 0, sizeof rc);
  rc.o = &o;
  rc.err = err;
  rc.cwd = wl_canonical_path(".");
  wl_inputs_new_profile(&rc, NULL);
  wl_baseline bl;
  memset(&bl, 0, sizeof bl);
  bool have_bl = false;
  if (!load_inputs(&rc, &bl, &have_bl)) {
    free_ctx(&rc);
    wl_cli_opts_free(&o);
    return WL_EXIT_ERROR;
  }

  if (o.header_filter) /* checked by the option parser */
    rc.have_header_re = regcomp(&rc.header_re, o.header_filter, REG_EXTENDED | REG_NOSUB) == 0;
  wl_inputs_header_roots(&rc);
  if (!o.no_infer_includes)
    rc.infer = wl_infer_new();
  if (!o.no_ignore)
    rc.gitignore = wl_gitignore_new(); /* directory walks: the paths, or the database's headers */
  wl_jobs_open_cache(&rc);
  if (o.paths.n == 0) {
    wl_inputs_collect_db(&rc);
    wl_inputs_collect_db_headers(&rc);
  } else
    wl_inputs_collect_paths(&rc);
  wl_inputs_skip_duplicates(&rc);
  /* an output never overwrites an input (the baseline being refreshed aside) */
  const char *out_opt = NULL, *out_path = NULL;
  if (o.output && output_is_input(&rc, o.output, false)) {
    out_opt = "-o";
    out_path = o.output;
  } else if (o.write_baseline && output_is_input(&rc, o.write_baseline, true)) {
    out_opt = "--write-baseline";
    out_path = o.write_baseline;
  }
  if (out_opt) {
    fprintf(err, "warplint: error: %s %s: is one of the inputs; not overwritten\n", out_opt,
            out_path);
    free_ctx(&rc);
    if (have_bl)
      wl_baseline_free(&bl);
    wl_cli_opts_free(&o);
    return WL_EXIT_ERROR;
  }
  wl_inputs_prepare_jobs(&rc);
  wl_jobs_run_all(&rc, o.jobs, false);
  wl_inputs_prepare_headers(&rc);
  wl_jobs_run_all(&rc, o.jobs, true);
  drop_ignored(&rc);
  if (rc.cache && (o.cache_stats || o.verbose)) {
    size_t hits = 0, misses = 0, stored = 0;
    wl_cache_stats(rc.cache, &hits, &misses, &stored);
    fprintf(err, "warplint: note: result cache %s: %zu file%s from the cache%s, %zu stored\n",
            wl_cache_dir(rc.cache), hits, hits == 1 ? "" : "s",
            o.verbose ? " (not read with -v)" : "", stored);
  }
  size_t nincomplete = 0, nunresolved = 0, nparse_errors = 0;
  wl_input_error *incomplete = wl_xcalloc(rc.njobs + 1, sizeof *incomplete);
  wl_vec incomplete_msgs = {0};
  for (size_t i = 0; i < rc.njobs; i++) {
    job *j = &rc.jobs[i];
    if (j->skip || j->error)
      continue;
    for (size_t k = 0; o.verbose && k + 1 < j->info.inferred.n; k += 2)
      fprintf(err, "warplint: note: %s: #include %s found with the inferred -I %s\n", j->path,
              (char *)j->info.inferred.v[k], (char *)j->info.inferred.v[k + 1]);
    if (j->info.nunresolved == 0 && j->info.nerrors == 0)
      continue;
    nunresolved += j->info.nunresolved;
    nparse_errors += j->info.nerrors;
    wl_buf m;
    wl_buf_init(&m);
    wl_buf_printf(&m, "analysis incomplete: %zu unresolved #include%s, %zu parse error%s",
                  j->info.nunresolved, j->info.nunresolved == 1 ? "" : "s", j->info.nerrors,
                  j->info.nerrors == 1 ? "" : "s");
    char *msg = wl_buf_detach(&m);
    wl_vec_push(&incomplete_msgs, msg);
    incomplete[nincomplete].path = j->path;
    incomplete[nincomplete].message = msg;
    nincomplete++;
  }

  wl_findings all;
  wl_findings_init(&all);
  size_t nerr_cfg = rc.input_errors.n / 2;
  wl_input_error *errors = wl_xcalloc(rc.njobs + nerr_cfg + 1, sizeof *errors);
  size_t nerrors = 0, analyzed = 0;
  for (size_t i = 0; i < nerr_cfg; i++) {
    errors[nerrors].path = rc.input_errors.v[2 * i];
    errors[nerrors].message = rc.input_errors.v[2 * i + 1];
    nerrors++;
  }
  for (size_t i = 0; i < rc.njobs; i++) {
    job *j = &rc.jobs[i];
    if (j->error) {
      fprintf(err, "warplint: error: %s: %s\n", j->path, j->error);
      errors[nerrors].path = j->path;
      errors[nerrors].message = j->error;
      nerrors++;
    } else if (!j->skip) {
      analyzed++;
    }
    wl_findings_move(&all, &j->findings);
  }
  wl_findings_sort_dedup(&all);
  for (size_t i = 0; i < all.nnotices; i++)
    fprintf(err, "warplint: note: %s:%u:%u: %s\n", all.notices[i].file, all.notices[i].line,
            all.notices[i].col, all.notices[i].message);

  int code;
  if (o.write_baseline) {
    wl_buf berr;
    wl_buf_init(&berr);
    char *link_root = wl_fix_root_of_input(o.write_baseline);
    bool ok = wl_baseline_write(o.write_baseline, link_root, &all, &berr);
    free(link_root);
    if (ok)
      fprintf(err, "warplint: %s: %zu finding%s recorded (%zu file%s analyzed)\n", o.write_baseline,
              all.n, all.n == 1 ? "" : "s", analyzed, analyzed == 1 ? "" : "s");
    else
      fprintf(err, "warplint: error: --write-baseline: %s\n", wl_buf_str(&berr));
    wl_buf_free(&berr);
    code = ok && nerrors == 0 ? WL_EXIT_CLEAN : WL_EXIT_ERROR;
  } else {
    size_t in_baseline = have_bl ? wl_baseline_filter(&bl, &all) : 0;
    wl_emit_info info = {WARPLINT_VERSION, rc.cwd, errors,          nerrors,
                         analyzed,         false,  false,           incomplete,
                         nincomplete,      NULL,   &wl_rule_catalog};
    /* SARIF: URIs and fingerprints relative to the project root */
    char *project_root = o.project_root ? wl_canonical_path(o.project_root) : wl_project_root();
    info.project_root = project_root;
    int wr = 0;
    bool fixes_ok = true, changed = false;
    /* -o: the report is built in memory and written atomically at the end */
    char *report = NULL;
    size_t report_len = 0;
    FILE *dest = o.output ? open_memstream(&report, &report_len) : out;
    if (!dest) {
      fprintf(err, "warplint: error: -o %s: out of memory\n", o.output);
      dest = out = stdout;
      wr = -1;
    }
    if (o.fix || o.diff || o.export_fixes)
      fixes_ok = do_fixes(&rc, &all, dest, &changed);
    if (o.fix && changed) {
      /* what is left is what a new run finds in the written files (a fix can
       * uncover or create findings): every file is analyzed again */
      wl_findings_free(&all);
      wl_findings_init(&all);
      for (size_t i = 0; i < rc.njobs; i++) {
        wl_findings_free(&rc.jobs[i].findings);
        wl_findings_init(&rc.jobs[i].findings);
        wl_analyze_info_free(&rc.jobs[i].info);
        memset(&rc.jobs[i].info, 0, sizeof rc.jobs[i].info);
      }
      wl_jobs_run_all(&rc, o.jobs, false);
      wl_jobs_run_all(&rc, o.jobs, true);
      drop_ignored(&rc);
      for (size_t i = 0; i < rc.njobs; i++) {
        job *j = &rc.jobs[i];
        bool known = false;
        for (size_t k = 0; k < nerrors && !known; k++)
          known = errors[k].message == j->error;
        if (j->error && !known) { /* it could be analyzed before the fix */
          fprintf(err, "warplint: error: %s: after --fix: %s\n", j->path, j->error);
          errors[nerrors].path = j->path;
          errors[nerrors].message = j->error;
          nerrors++;
          info.nerrors = nerrors;
        }
        wl_findings_move(&all, &j->findings);
      }
      wl_findings_sort_dedup(&all);
      in_baseline = have_bl ? wl_baseline_filter(&bl, &all) : 0;
    }
    info.execution_failed = nerrors > 0 || !fixes_ok || (o.strict && nincomplete > 0);
    if (!o.diff) /* else the diff is the output */
      wr |= emit_report(&o, dest, &all, &info);
    if (o.output && dest != out) {
      wr |= fclose(dest) != 0 ? -1 : 0;
      if (wr == 0 && !write_output(&rc, o.output, "-o", report ? report : "", report_len))
        wr = 1; /* reported */
      free(report);
    }
    if (o.format == WL_FMT_TEXT && !o.diff && !o.quiet && !o.statistics &&
        (all.n > 0 || in_baseline > 0)) {
      fprintf(err, "%zu finding%s in %zu file%s analyzed", all.n, all.n == 1 ? "" : "s", analyzed,
              analyzed == 1 ? "" : "s");
      if (have_bl)
        fprintf(err, " (%zu more in the baseline)", in_baseline);
      fputc('\n', err);
    }
    if (wr < 0)
      fputs("warplint: error: could not write the output\n", err);
    bool failing = false;
    for (size_t i = 0; i < all.n && !failing; i++)
      failing = all.v[i].severity >= o.fail_on;
    if (o.diff)
      failing = changed;
    code = nerrors > 0 || wr != 0 || !fixes_ok || (o.strict && nincomplete > 0) ? WL_EXIT_ERROR
           : failing && !o.exit_zero                                            ? WL_EXIT_FINDINGS
                                                                                : WL_EXIT_CLEAN;
    free(project_root);
  }
  if (nincomplete > 0 && !o.quiet)
    fprintf(err,
            "warplint: analysis incomplete in %zu of %zu file%s (%zu unresolved #include%s, %zu "
            "parse error%s): findings may be missing; -v lists them, -I DIR or -p BUILD-DIR "
            "supplies the include directories\n",
            nincomplete, analyzed, analyzed == 1 ? "" : "s", nunresolved,
            nunresolved == 1 ? "" : "s", nparse_errors, nparse_errors == 1 ? "" : "s");
  if (rc.njobs == 0)
    fputs(o.paths.n ? "warplint: warning: no CUDA files found in the given paths\n"
                    : "warplint: warning: no CUDA files in the compilation database\n",
          err);

  free(errors);
  free(incomplete);
  for (size_t i = 0; i < incomplete_msgs.n; i++)
    free(incomplete_msgs.v[i]);
  wl_vec_free(&incomplete_msgs);
  wl_findings_free(&all);
  if (have_bl)
    wl_baseline_free(&bl);
  free_ctx(&rc);
  wl_cli_opts_free(&o);
  return code;
}
