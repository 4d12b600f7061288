/* inputs.c - what a run analyzes: the paths named (files, directories
 * searched with .warplint, exclude globs and .gitignore), stdin, or the
 * files of a compile database, each a job with its profile (the settings
 * of its .warplint), its flags, and the headers reported with it. */
#include "run.h"

profile *wl_inputs_new_profile(run_ctx *rc, const wl_config *cfg) {
  const wl_cli_opts *o = rc->o;
  profile *p = wl_xcalloc(1, sizeof *p);
  p->enabled = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *p->enabled);
  for (size_t i = 0; i < wl_nrules; i++) {
    bool on = true;
    if (cfg && cfg->rules[i] != WL_RULE_UNSET)
      on = cfg->rules[i] == WL_RULE_ON;
    if (o->enable_given)
      on = o->enable[i];
    if (o->disable[i])
      on = false;
    p->enabled[i] = on;
  }
  const wl_vec *exts = o->exts.n ? &o->exts : cfg && cfg->extensions.n ? &cfg->extensions : NULL;
  if (exts) {
    for (size_t i = 0; i < exts->n; i++)
      wl_vec_push(&p->exts, exts->v[i]);
  } else {
    wl_vec_push(&p->exts, "cu");
    wl_vec_push(&p->exts, "cuh");
  }
  wl_vec_push(&rc->profiles, p);
  return p;
}

void wl_inputs_free_profile(profile *p) {
  if (p->has_cfg || p->error)
    wl_config_free(&p->cfg);
  free(p->error);
  free(p->enabled);
  wl_vec_free(&p->exts);
  free(p);
}

static void add_input_error(run_ctx *rc, const char *path, const char *msg) {
  wl_vec_push(&rc->input_errors, wl_xstrdup(path));
  wl_vec_push(&rc->input_errors, wl_xstrdup(msg));
}

static char *dir_of(const char *canon);

/* Where the configuration lookup from a canonical directory stops, and what
 * inherit and extend may reach: the project root (the nearest .git); outside
 * a repository the current directory, or the directory itself when it is not
 * below the current one. */
static char *config_stop(const run_ctx *rc, const char *dir) {
  char *stop = wl_project_root_of(dir);
  if (!stop)
    stop = wl_xstrdup(wl_path_within(dir, rc->cwd) ? rc->cwd : dir);
  return stop;
}

/* The profile of a config file (loaded once, merged with the parents it
 * inherits or extends). */
profile *wl_inputs_config_profile(run_ctx *rc, const char *cfg_path) {
  char *canon = wl_canonical_path(cfg_path);
  for (size_t i = 0; i < rc->cfg_paths.n; i++)
    if (strcmp(rc->cfg_paths.v[i], canon) == 0) {
      free(canon);
      return rc->profiles.v[i + 1];
    }
  wl_config cfg;
  wl_buf err;
  wl_buf_init(&err);
  char *cdir = dir_of(canon);
  char *stop = config_stop(rc, cdir);
  bool ok = wl_config_load_tree(cfg_path, stop, &cfg, &err);
  free(stop);
  free(cdir);
  profile *p = wl_inputs_new_profile(rc, ok ? &cfg : NULL);
  p->cfg = cfg;
  p->has_cfg = ok;
  if (!ok) {
    p->error = wl_buf_detach(&err);
    fprintf(rc->err, "warplint: error: %s\n", p->error);
    add_input_error(rc, cfg_path, p->error);
  }
  wl_buf_free(&err);
  wl_vec_push(&rc->cfg_paths, canon);
  return p;
}

/* The profile of the files in a canonical directory: the nearest .warplint
 * upward, --config, or none. */
static profile *dir_profile(run_ctx *rc, const char *dir) {
  if (rc->o->no_config)
    return rc->profiles.v[0];
  if (rc->o->config)
    return wl_inputs_config_profile(rc, rc->o->config);
  if (rc->last_dir && strcmp(rc->last_dir, dir) == 0)
    return rc->last_prof;
  profile *found = rc->profiles.v[0];
  /* The lookup stops at the project root (the nearest .git; outside a
   * repository the current directory, or the file's own directory when it is
   * not below the current one): a .warplint above the checkout or in /tmp
   * does not change the rules. */
  char *stop = config_stop(rc, dir);
  char *d = wl_xstrdup(dir);
  for (;;) {
    wl_buf p;
    wl_buf_init(&p);
    wl_buf_printf(&p, "%s%s%s", d, strcmp(d, "/") == 0 ? "" : "/", WL_CONFIG_NAME);
    struct stat st;
    bool hit = stat(p.data, &st) == 0 && S_ISREG(st.st_mode);
    if (hit)
      found = wl_inputs_config_profile(rc, p.data);
    wl_buf_free(&p);
    if (hit || strcmp(d, stop) == 0 || strcmp(d, "/") == 0)
      break;
    char *slash = strrchr(d, '/');
    slash[slash == d ? 1 : 0] = '\0';
  }
  free(d);
  free(stop);
  free(rc->last_dir);
  rc->last_dir = wl_xstrdup(dir);
  rc->last_prof = found;
  return found;
}

static char *dir_of(const char *canon) {
  char *d = wl_xstrdup(canon);
  char *slash = strrchr(d, '/');
  if (slash)
    slash[slash == d ? 1 : 0] = '\0';
  return d;
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                   */

static job *add_job(run_ctx *rc, const char *path, const char *canon, const char *error) {
  if (rc->njobs == rc->cap) {
    rc->cap = rc->cap ? rc->cap * 2 : 64;
    rc->jobs = wl_xrealloc(rc->jobs, rc->cap * sizeof *rc->jobs);
  }
  job *j = &rc->jobs[rc->njobs++];
  memset(j, 0, sizeof *j);
  j->rc = rc;
  j->path = wl_xstrdup(path);
  j->canon = wl_xstrdup(canon ? canon : path);
  wl_findings_init(&j->findings);
  j->error = error ? wl_xstrdup(error) : NULL;
  return j;
}

static bool has_ext(const char *name, const wl_vec *exts) {
  const char *slash = strrchr(name, '/');
  const char *dot = strrchr(slash ? slash + 1 : name, '.');
  if (!dot)
    return false;
  for (size_t i = 0; i < exts->n; i++)
    if (strcmp(dot + 1, exts->v[i]) == 0)
      return true;
  return false;
}

/* A file that will be analyzed if its profile allows: excluded files are
 * skipped (noted with --verbose), files of a broken config are not analyzed. */
static bool is_header(const char *name) {
  static const char *const hdr[] = {"h", "hh", "hpp", "hxx", "cuh", "inl", "inc", "tcc", "ipp"};
  const char *slash = strrchr(name, '/');
  const char *dot = strrchr(slash ? slash + 1 : name, '.');
  for (size_t i = 0; dot && i < sizeof hdr / sizeof hdr[0]; i++)
    if (strcmp(dot + 1, hdr[i]) == 0)
      return true;
  return false;
}

static void add_file(run_ctx *rc, const char *path, const char *canon, profile *p) {
  job *j = add_job(rc, path, canon, NULL);
  j->prof = p;
  j->header = is_header(canon);
  if (p->has_cfg && wl_config_excludes(&p->cfg, canon)) {
    j->skip = true;
    if (rc->o->verbose)
      fprintf(rc->err, "warplint: note: %s: excluded by %s\n", path, p->cfg.path);
  } else if (p->error) {
    j->skip = true; /* reported once, with the config */
  }
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Directories below a named one are searched this deep (symbolic links are
 * not followed, so only a real tree this deep gets there); a deeper one is an
 * input error, never skipped silently. */
#define WL_WALK_DEPTH 1024

/* Whether git ignores a canonical path found in a directory walk (a walk
 * of a named directory that is itself ignored does not ask). */
/* libgit2 stopped answering (gitignore.c): said once, whatever -v says. */
static void say_gitignore_warning(run_ctx *rc) {
  char *warning = wl_gitignore_take_warning(rc->gitignore);
  if (warning)
    fprintf(rc->err, "warplint: warning: %s\n", warning);
  free(warning);
}

static bool git_ignores(run_ctx *rc, bool use_ignore, const char *shown, const char *canon) {
  if (!use_ignore || !rc->gitignore)
    return false;
  char *note = NULL;
  bool hit = wl_gitignore_ignored(rc->gitignore, canon, &note);
  if (note && rc->o->verbose)
    fprintf(rc->err, "warplint: note: %s\n", note);
  free(note);
  say_gitignore_warning(rc);
  if (hit && rc->o->verbose)
    fprintf(rc->err, "warplint: note: %s: ignored by git (.gitignore; --no-ignore searches it)\n",
            shown);
  return hit;
}

static void walk_dir(run_ctx *rc, const char *dir, const char *canon_dir, int depth,
                     bool use_ignore) {
  if (depth > WL_WALK_DEPTH) {
    char msg[128];
    snprintf(msg, sizeof msg,
             "directory nested more than %d levels below the path given: not searched",
             WL_WALK_DEPTH);
    add_job(rc, dir, canon_dir, msg);
    return;
  }
  DIR *d = opendir(dir);
  if (!d) {
    char msg[256];
    snprintf(msg, sizeof msg, "cannot open directory: %s", strerror(errno));
    add_job(rc, dir, canon_dir, msg);
    return;
  }
  wl_vec names = {0};
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.')
      continue; /* ., .., and hidden entries such as .git */
    wl_vec_push(&names, wl_xstrdup(de->d_name));
  }
  closedir(d);
  if (names.n > 1) /* qsort of an empty directory's NULL list is undefined */
    qsort(names.v, names.n, sizeof *names.v, cmp_str);
  profile *prof = dir_profile(rc, canon_dir);
  size_t dl = strlen(dir);
  bool slash = dl > 0 && dir[dl - 1] == '/';
  for (size_t i = 0; i < names.n; i++) {
    wl_buf p, c;
    wl_buf_init(&p);
    wl_buf_init(&c);
    wl_buf_printf(&p, "%s%s%s", dir, slash ? "" : "/", (char *)names.v[i]);
    wl_buf_printf(&c, "%s%s%s", canon_dir, strcmp(canon_dir, "/") == 0 ? "" : "/",
                  (char *)names.v[i]);
    struct stat st;
    if (stat(p.data, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        struct stat lst;
        bool excluded = prof->has_cfg && wl_config_excludes(&prof->cfg, c.data);
        if (excluded && rc->o->verbose)
          fprintf(rc->err, "warplint: note: %s: excluded by %s\n", p.data, prof->cfg.path);
        if (!excluded && lstat(p.data, &lst) == 0 && !S_ISLNK(lst.st_mode) && /* no loops */
            !git_ignores(rc, use_ignore, p.data, c.data))
          walk_dir(rc, p.data, c.data, depth + 1, use_ignore);
        prof = dir_profile(rc, canon_dir); /* the cache moved on */
      } else if (S_ISREG(st.st_mode) && has_ext(names.v[i], &prof->exts) &&
                 !git_ignores(rc, use_ignore, p.data, c.data)) {
        char *canon = wl_canonical_path(p.data);
        add_file(rc, p.data, canon, prof);
        free(canon);
      }
    }
    wl_buf_free(&p);
    wl_buf_free(&c);
    free(names.v[i]);
  }
  wl_vec_free(&names);
}

/* Stdin (at most this much) is the source of the input "-". */
#define WL_STDIN_MAX ((size_t)256 << 20)

/* The input "-": the source from stdin, named --stdin-filename (or
 * "<stdin>"), which decides its .warplint and compile command. */
static void collect_stdin(run_ctx *rc) {
  const char *name = rc->o->stdin_filename ? rc->o->stdin_filename : "<stdin>";
  wl_buf text;
  wl_buf_init(&text);
  char chunk[65536];
  size_t n;
  bool too_big = false;
  while ((n = fread(chunk, 1, sizeof chunk, stdin)) > 0) {
    if (text.len + n > WL_STDIN_MAX) {
      too_big = true;
      break;
    }
    wl_buf_add(&text, chunk, n);
  }
  char *canon = wl_canonical_path(name);
  char *dir = dir_of(canon);
  const char *error = ferror(stdin) ? "cannot read stdin"
                      : too_big     ? "stdin is larger than 256 MiB"
                      : text.len && memchr(text.data, '\0', text.len)
                          ? "not a text file (binary content)"
                          : NULL;
  if (error) {
    add_job(rc, name, canon, error);
  } else {
    add_file(rc, name, canon, dir_profile(rc, dir));
    job *j = &rc->jobs[rc->njobs - 1];
    j->stdin_text = text.data ? wl_buf_detach(&text) : wl_xstrdup("");
  }
  wl_buf_free(&text);
  free(dir);
  free(canon);
}

void wl_inputs_collect_paths(run_ctx *rc) {
  const wl_cli_opts *o = rc->o;
  for (size_t i = 0; i < o->paths.n; i++) {
    const char *p = o->paths.v[i];
    if (strcmp(p, "-") == 0) {
      collect_stdin(rc);
      continue;
    }
    struct stat st;
    if (stat(p, &st) != 0) {
      char msg[256];
      snprintf(msg, sizeof msg, "cannot access: %s", strerror(errno));
      add_job(rc, p, NULL, msg);
      continue;
    }
    char *canon = wl_canonical_path(p);
    size_t first = rc->njobs;
    if (S_ISDIR(st.st_mode)) {
      /* a directory named on the command line is searched even when git
       * ignores it (then without .gitignore: everything below is ignored) */
      bool use_ignore = rc->gitignore && !wl_gitignore_ignored(rc->gitignore, canon, NULL);
      if (rc->gitignore)
        say_gitignore_warning(rc);
      if (rc->gitignore && !use_ignore && o->verbose)
        fprintf(rc->err,
                "warplint: note: %s: ignored by git, but named: searched without .gitignore\n", p);
      walk_dir(rc, p, canon, 0, use_ignore);
      for (size_t k = first; k < rc->njobs; k++) {
        rc->jobs[k].root = wl_xstrdup(canon);
        rc->jobs[k].root_shown = wl_xstrdup(p);
      }
    } else if (S_ISREG(st.st_mode)) {
      /* named explicitly: analyzed whatever its extension, and never
       * skipped as a header that another file includes */
      char *dir = dir_of(canon);
      add_file(rc, p, canon, dir_profile(rc, dir));
      rc->jobs[rc->njobs - 1].header = false;
      rc->jobs[rc->njobs - 1].root = dir;
    } else {
      add_job(rc, p, canon, "not a regular file");
    }
    free(canon);
  }
}

/* -p without paths: every CUDA file of the database (a -x cu/-x cuda
 * command, or a file with one of the extensions). */
void wl_inputs_collect_db(run_ctx *rc) {
  for (size_t i = 0; i < rc->db.n; i++) {
    const wl_compdb_entry *e = &rc->db.v[i];
    char *dir = dir_of(e->file);
    profile *p = dir_profile(rc, dir);
    free(dir);
    bool cuda = e->flags.lang == WL_LANG_CUDA ||
                (e->flags.lang == WL_LANG_UNKNOWN && has_ext(e->file, &p->exts));
    if (!cuda)
      continue;
    char *shown = wl_relative_path(e->file, rc->cwd);
    struct stat st;
    if (stat(e->file, &st) != 0) {
      char msg[256];
      snprintf(msg, sizeof msg, "cannot access (listed in the compilation database): %s",
               strerror(errno));
      add_job(rc, shown, e->file, msg);
    } else {
      add_file(rc, shown, e->file, p);
    }
    free(shown);
  }
}

static bool under_dir(const char *canon, const char *dir);

/* The directory holding every path of `dirs` (canonical), or NULL when
 * only "/" does. */
static char *common_dir(const wl_vec *dirs) {
  if (dirs->n == 0)
    return NULL;
  char *c = wl_xstrdup(dirs->v[0]);
  for (size_t i = 1; i < dirs->n; i++) {
    const char *d = dirs->v[i];
    size_t n = 0, last = 0;
    while (c[n] && c[n] == d[n]) {
      if (c[n] == '/')
        last = n;
      n++;
    }
    if (c[n] == '\0' && (d[n] == '\0' || d[n] == '/'))
      continue; /* c holds d */
    if (d[n] == '\0' && c[n] == '/')
      c[n] = '\0'; /* d holds c */
    else
      c[last] = '\0'; /* cut back to the last common component */
  }
  if (c[0] == '\0') {
    free(c);
    return NULL;
  }
  return c;
}

/* -p without paths: the headers of the directory that holds the database's
 * CUDA files (as `warplint DIR` would find them), so that a header no file of
 * the database includes (one included only under `#if 0`, one of a .cu that
 * is not built) is analyzed on its own, as with `warplint DIR`. The .cu files
 * found there that the database does not list are not analyzed (not built),
 * and nothing found there is an input error. */
void wl_inputs_collect_db_headers(run_ctx *rc) {
  wl_vec dirs = {0};
  for (size_t i = 0; i < rc->njobs; i++)
    if (!rc->jobs[i].error) {
      char *d = dir_of(rc->jobs[i].canon);
      wl_vec_push(&dirs, wl_canonical_path(d)); /* a database may say /tree/./src */
      free(d);
    }
  char *top = common_dir(&dirs);
  /* never above the repository of the database's first file (a database
   * listing files of several checkouts) */
  char *repo = dirs.n ? wl_project_root_of(dirs.v[0]) : NULL;
  if (top && repo && !under_dir(top, repo)) {
    free(top);
    top = NULL;
  }
  free(repo);
  for (size_t i = 0; i < dirs.n; i++)
    free(dirs.v[i]);
  wl_vec_free(&dirs);
  if (!top)
    return;
  char *shown = wl_relative_path(top, rc->cwd);
  size_t first = rc->njobs, keep = first;
  bool use_ignore = rc->gitignore && !wl_gitignore_ignored(rc->gitignore, top, NULL);
  walk_dir(rc, shown, top, 0, use_ignore);
  for (size_t k = first; k < rc->njobs; k++) {
    job *j = &rc->jobs[k];
    if (!j->error && is_header(j->canon)) {
      j->root = wl_xstrdup(top);
      j->root_shown = wl_xstrdup(shown);
      if (keep != k)
        rc->jobs[keep] = *j;
      keep++;
      continue;
    }
    free(j->path);
    free(j->canon);
    free(j->error);
    wl_findings_free(&j->findings);
  }
  rc->njobs = keep;
  free(shown);
  free(top);
}

static int cmp_job_canon(const void *a, const void *b) {
  const job *const *x = a, *const *y = b;
  int c = strcmp((*x)->canon, (*y)->canon);
  return c ? c : (*x < *y ? -1 : *x > *y);
}

/* A file reached twice (named and inside a named directory) is analyzed once. */
void wl_inputs_skip_duplicates(run_ctx *rc) {
  job **order = wl_xcalloc(rc->njobs ? rc->njobs : 1, sizeof *order);
  for (size_t i = 0; i < rc->njobs; i++)
    order[i] = &rc->jobs[i];
  qsort(order, rc->njobs, sizeof *order, cmp_job_canon);
  for (size_t i = 1; i < rc->njobs; i++)
    if (!order[i]->error && !order[i - 1]->error &&
        strcmp(order[i]->canon, order[i - 1]->canon) == 0)
      order[i]->skip = true;
  free(order);
}

/* ------------------------------------------------------------------------ */
/* Headers and include inference                                            */

static bool under_dir(const char *canon, const char *dir) {
  size_t n = strlen(dir);
  if (strcmp(dir, "/") == 0)
    return canon[0] == '/';
  return strncmp(canon, dir, n) == 0 && (canon[n] == '/' || canon[n] == '\0');
}

/* Whether the findings located in a header are reported (wl_analyze_opts). */
static bool report_header(const char *canon, void *ud) {
  const run_ctx *rc = ud;
  if (rc->cuda_canon && under_dir(canon, rc->cuda_canon))
    return false;
  if (rc->have_header_re)
    return regexec(&rc->header_re, canon, 0, NULL, 0) == 0;
  for (size_t i = 0; i < rc->roots.n; i++)
    if (under_dir(canon, rc->roots.v[i]))
      return true;
  return false;
}

static void add_root(run_ctx *rc, const char *dir) {
  for (size_t i = 0; i < rc->roots.n; i++)
    if (strcmp(rc->roots.v[i], dir) == 0)
      return;
  wl_vec_push(&rc->roots, wl_xstrdup(dir));
}

/* A directory and its project tree (infer.h) */
static void add_root_and_tree(run_ctx *rc, const char *dir) {
  add_root(rc, dir);
  char *t = wl_project_tree(dir);
  if (t)
    add_root(rc, t);
  free(t);
  char *g = wl_project_root_of(dir); /* the repository */
  if (g)
    add_root(rc, g);
  free(g);
}

/* The directories whose headers are reported by default: the paths analyzed,
 * the compilation database's directory, and their project trees. */
void wl_inputs_header_roots(run_ctx *rc) {
  const wl_cli_opts *o = rc->o;
  for (size_t i = 0; i < o->paths.n; i++) {
    struct stat st;
    if (stat(o->paths.v[i], &st) != 0)
      continue;
    char *canon = wl_canonical_path(o->paths.v[i]);
    if (S_ISDIR(st.st_mode)) {
      add_root_and_tree(rc, canon);
    } else {
      char *d = dir_of(canon);
      add_root_and_tree(rc, d);
      free(d);
    }
    free(canon);
  }
  if (o->compdb) {
    struct stat st;
    char *canon = wl_canonical_path(o->compdb);
    char *d = stat(canon, &st) == 0 && S_ISDIR(st.st_mode) ? wl_xstrdup(canon) : dir_of(canon);
    add_root_and_tree(rc, d);
    free(d);
    free(canon);
  }
  /* the project of the working directory (nearest .git, else the directory) */
  char *cwd_root = wl_project_root();
  add_root(rc, cwd_root);
  free(cwd_root);
  /* the projects of the database's files (a database kept outside the tree) */
  for (size_t i = 0; rc->have_db && i < rc->db.n; i++) {
    char *d = dir_of(rc->db.v[i].file);
    bool known = false;
    for (size_t k = 0; k < rc->roots.n && !known; k++)
      known = under_dir(d, rc->roots.v[k]);
    if (!known)
      add_root_and_tree(rc, d);
    free(d);
  }
  if (o->cuda_path)
    rc->cuda_canon = wl_canonical_path(o->cuda_path);
}

/* Records an inference answer for the result cache: a cached result holds
 * while inference answers the same (jobs.c, cache_fact). */
static void record_inference(job *j, const char *tree, const char *name, const char *found) {
  wl_buf f;
  wl_buf_init(&f);
  wl_wire_put_str(&f, tree);
  wl_wire_put_str(&f, name);
  wl_wire_put_str(&f, found ? found : "");
  char *hex = wl_xmalloc(2 * f.len + 1);
  for (size_t i = 0; i < f.len; i++)
    snprintf(hex + 2 * i, 3, "%02x", (unsigned char)f.data[i]);
  wl_vec_push(&j->facts, hex);
  wl_buf_free(&f);
}

/* Include inference (wl_analyze_opts): the project tree of the including
 * file (else the directory analyzed), then, when it has no match, the top of
 * its chain of build files (moderngpu's tests/CMakeLists.txt: <moderngpu/...>
 * is under src/ beside tests/), then the directory analyzed when it holds the
 * tree (`warplint src` on a checkout of part of kaldi, whose only build file
 * is src/cudamatrix/Makefile: "cudamatrix/cu-common.h" is src's), then the
 * checkout (the nearest .git or .warplint above: ggml's src/ggml-cuda has a
 * CMakeLists.txt, and "ggml.h" is in include/ at the top; when src/ has no
 * build file of its own, the chain stops at src/ggml-cuda). The first place
 * with a match decides (several matches: nothing inferred). */
char *wl_inputs_infer_include(const char *name, bool angled, const char *includer, void *ud) {
  job *j = ud;
  run_ctx *rc = j->rc;
  char *canon = wl_canonical_path(includer);
  char *dir = dir_of(canon);
  char *where[4] = {wl_project_tree(dir), NULL, NULL, NULL};
  if (!where[0])
    where[0] = wl_xstrdup(j->root ? j->root : dir);
  else {
    where[1] = wl_project_top(where[0]);
    if (j->root && under_dir(where[1], j->root) && strcmp(where[1], j->root) != 0)
      where[2] = wl_xstrdup(j->root); /* it holds the whole chain, and more */
    where[3] = wl_project_checkout(where[1]);
  }
  bool ambiguous = false;
  char *found = NULL;
  const char *last = where[0];
  for (int i = 0; i < 4 && !found && !ambiguous; i++) {
    if (!where[i])
      continue;
    bool seen = false; /* searched already (the checkout is often the tree) */
    for (int k = 0; k < i && !seen; k++)
      seen = where[k] && strcmp(where[k], where[i]) == 0;
    if (seen)
      continue;
    last = where[i];
    found = wl_infer_include(rc->infer, where[i], name, &ambiguous);
    if (rc->cache)
      record_inference(j, where[i], name, found);
  }
  if (!found && ambiguous && rc->o->verbose)
    fprintf(rc->err,
            "warplint: note: %s: #include %c%s%c: several files of %s match; nothing inferred\n",
            j->path, angled ? '<' : '"', name, angled ? '>' : '"', last);
  for (int i = 0; i < 4; i++)
    free(where[i]);
  free(dir);
  free(canon);
  return found;
}

static int cmp_strp(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Who includes what among the files of the compilation database: the
 * #include lines of each file resolved against its directory and its -I
 * directories. Read once, for headers that no analyzed file includes. */
static void scan_db_includes(run_ctx *rc) {
  rc->db_incs_done = true;
  for (size_t i = 0; i < rc->db.n; i++) {
    const wl_compdb_entry *e = &rc->db.v[i];
    size_t len = 0;
    char *text = wl_read_file(e->file, &len);
    if (!text)
      continue;
    char *dir = dir_of(e->file);
    for (char *line = text; line && *line;) {
      char *next = strchr(line, '\n');
      if (next)
        *next++ = '\0';
      char *c = line;
      while (*c == ' ' || *c == '\t')
        c++;
      char name[1024];
      if (*c == '#' && sscanf(c + 1, " include %*[\"<]%1023[^\">]", name) == 1) {
        wl_vec cands = {0};
        wl_vec_push(&cands, dir);
        for (size_t k = 0; k < e->flags.args.n; k++) {
          const char *a = e->flags.args.v[k];
          if (strncmp(a, "-I", 2) == 0 && a[2])
            wl_vec_push(&cands, (void *)(a + 2));
        }
        for (size_t k = 0; k < cands.n; k++) {
          wl_buf p;
          wl_buf_init(&p);
          wl_buf_printf(&p, "%s/%s", (char *)cands.v[k], name);
          struct stat st;
          if (stat(p.data, &st) == 0 && S_ISREG(st.st_mode)) {
            wl_vec_push(&rc->db_incs, wl_canonical_path(p.data));
            wl_vec_push(&rc->db_incs, (void *)e);
            wl_buf_free(&p);
            break;
          }
          wl_buf_free(&p);
        }
        wl_vec_free(&cands);
      }
      line = next;
    }
    free(dir);
    free(text);
  }
}

/* A file of the compilation database that includes the header, or NULL. */
static const wl_compdb_entry *db_includer(run_ctx *rc, const char *canon) {
  if (!rc->have_db)
    return NULL;
  if (!rc->db_incs_done)
    scan_db_includes(rc);
  for (size_t i = 0; i + 1 < rc->db_incs.n; i += 2)
    if (strcmp(rc->db_incs.v[i], canon) == 0)
      return rc->db_incs.v[i + 1];
  return NULL;
}

/* For a header that no file of the database includes: the CUDA file of the
 * database nearest to it (the longest common directory prefix, the first
 * listed on a tie) within its project tree, whose flags it gets, as clangd
 * infers a header's command from a nearby file. NULL: none there. */
static const wl_compdb_entry *db_nearest(run_ctx *rc, const char *canon) {
  if (!rc->have_db)
    return NULL;
  char *dir = dir_of(canon);
  char *tree = wl_project_tree(dir);
  free(dir);
  if (!tree)
    return NULL;
  const wl_compdb_entry *best = NULL;
  size_t best_len = 0;
  for (size_t i = 0; i < rc->db.n; i++) {
    const wl_compdb_entry *e = &rc->db.v[i];
    const profile *p0 = rc->profiles.v[0];
    bool cuda = e->flags.lang == WL_LANG_CUDA ||
                (e->flags.lang == WL_LANG_UNKNOWN && has_ext(e->file, &p0->exts));
    if (!cuda)
      continue;
    if (!under_dir(e->file, tree))
      continue;
    size_t n = 0, last = 0;
    while (e->file[n] && e->file[n] == canon[n]) {
      if (e->file[n] == '/')
        last = n;
      n++;
    }
    if (!best || last > best_len) {
      best = e;
      best_len = last;
    }
  }
  free(tree);
  return best;
}

/* The options of a job: compile command (its own, or an includer's for a
 * header), then .warplint, then command line. */
static void prepare_job(run_ctx *rc, job *j) {
  const wl_cli_opts *o = rc->o;
  j->args.n = 0;
  const wl_config *cfg = j->prof && j->prof->has_cfg ? &j->prof->cfg : NULL;
  const wl_compdb_entry *e = j->entry ? j->entry : j->includer;
  unsigned arch = WL_DEFAULT_ARCH;
  if (e) {
    for (size_t k = 0; k < e->flags.args.n; k++)
      wl_vec_push(&j->args, e->flags.args.v[k]);
    if (e->flags.arch)
      arch = e->flags.arch;
    if (o->verbose && j->entry)
      for (size_t k = 0; k < e->flags.notes.n; k++)
        fprintf(rc->err, "warplint: note: %s: compile command: %s\n", j->path,
                (char *)e->flags.notes.v[k]);
    if (o->verbose && !j->entry) {
      char *shown = wl_relative_path(e->file, rc->cwd);
      fprintf(
          rc->err, "warplint: note: %s: not included by the files analyzed; the flags of %s%s\n",
          j->path, shown,
          j->nearest ? " (the nearest file of the compilation database: none includes it)" : "");
      free(shown);
    }
  } else if (rc->have_db && o->verbose) {
    fprintf(rc->err, "warplint: note: %s: not in the compilation database; default flags\n",
            j->path);
  }
  if (cfg) {
    for (size_t k = 0; k < cfg->clang_args.n; k++)
      wl_vec_push(&j->args, cfg->clang_args.v[k]);
    if (cfg->arch)
      arch = cfg->arch;
  }
  for (size_t k = 0; k < o->clang_args.n; k++)
    wl_vec_push(&j->args, o->clang_args.v[k]);
  if (o->arch)
    arch = o->arch;
  j->ao.parse.args = (const char *const *)j->args.v;
  j->ao.parse.nargs = j->args.n;
  j->ao.parse.cuda_path = rc->toolkit.root;
  j->ao.parse.cuda_version = rc->toolkit.version;
  j->ao.parse.pch = rc->pch;
  j->ao.parse.no_std_pch = o->no_std_pch;
  j->ao.parse.arch = arch;
  j->ao.parse.verbose = o->verbose;
  j->ao.enabled = j->prof ? j->prof->enabled : NULL;
  j->ao.severity = cfg ? cfg->severity : NULL;
  j->ao.report_unused_suppressions = o->report_unused;
  /* every output that offers fixes offers only those --fix would apply (JSON
   * and SARIF carry them: ccminer's 40 missing-syncwarp fixes in JSON were all
   * withdrawn by --fix) */
  j->ao.verify_fixes =
      o->fix || o->diff || o->export_fixes || o->format == WL_FMT_JSON || o->format == WL_FMT_SARIF;
  wl_analysis_settings_init(&j->settings);
  if (cfg && cfg->whole_warps >= 0) /* config: -1 unset, 0 false, 1 true */
    j->settings.lanes.whole_warps = cfg->whole_warps;
  if (cfg && cfg->rows_are_warps >= 0)
    j->settings.lanes.rows_are_warps = cfg->rows_are_warps;
  j->ao.analysis = &j->settings;
  j->ao.report_header = report_header;
  j->ao.report_header_ud = rc;
  j->ao.cwd = rc->cwd;
  j->ao.base = j->root_shown ? j->root : NULL;
  j->ao.base_shown = j->root_shown;
  bool infer = rc->infer && !(cfg && cfg->infer_includes == 0);
  j->ao.infer_include = infer ? wl_inputs_infer_include : NULL;
  j->ao.infer_ud = j;
  j->ao.parse.deps = rc->cache && !j->stdin_text;
}

void wl_inputs_prepare_jobs(run_ctx *rc) {
  for (size_t i = 0; i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (j->error || j->skip)
      continue;
    j->entry = rc->have_db ? wl_compdb_find(&rc->db, j->canon) : NULL;
    if (!j->entry && !j->header && is_header(j->canon)) /* a header named on the command line */
      j->includer = db_includer(rc, j->canon);
    prepare_job(rc, j);
  }
}

/* After the files: the headers that one of them includes are done (their
 * findings came with it); the others are analyzed alone, with the flags of
 * a file of the compilation database that includes them when there is one. */
void wl_inputs_prepare_headers(run_ctx *rc) {
  for (size_t i = 0; i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (j->header || j->error || j->skip)
      continue;
    for (size_t k = 0; k < j->info.included.n; k++)
      wl_vec_push(&rc->included, j->info.included.v[k]);
  }
  if (rc->included.n > 1)
    qsort(rc->included.v, rc->included.n, sizeof *rc->included.v, cmp_strp);
  for (size_t i = 0; i < rc->njobs; i++) {
    job *j = &rc->jobs[i];
    if (!j->header || j->error || j->skip)
      continue;
    const char *key = j->canon;
    if (rc->included.n &&
        bsearch(&key, rc->included.v, rc->included.n, sizeof *rc->included.v, cmp_strp)) {
      j->skip = true;
      j->included = true;
      if (rc->o->verbose)
        fprintf(rc->err, "warplint: note: %s: analyzed with the files that include it\n", j->path);
      continue;
    }
    if (j->entry)
      continue;
    if ((j->includer = db_includer(rc, j->canon)) != NULL) {
      prepare_job(rc, j);
    } else if ((j->includer = db_nearest(rc, j->canon)) != NULL) {
      j->nearest = true;
      prepare_job(rc, j);
    }
  }
}
