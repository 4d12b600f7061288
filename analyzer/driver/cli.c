/* cli.c - one run of warplint: options (options.c) and configuration
 * (.warplint, config.c) into per-file settings, inputs (paths or
 * compile_commands.json, compdb.c) into jobs, jobs through the analyzer in
 * parallel (output independent of -j), then baseline, emitters and the exit
 * code. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <json-c/json.h>
#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "baseline.h"
#include "buf.h"
#include "cache.h"
#include "compdb.h"
#include "config.h"
#include "diag.h"
#include "emit.h"
#include "fix.h"
#include "gitignore.h"
#include "hmap.h"
#include "infer.h"
#include "isolate.h"
#include "options.h"
#include "outpath.h"
#include "pch.h"
#include "project.h"
#include "rules.h"
#include "suppress.h"
#include "toolkit.h"
#include "wire.h"

/* More files than this, and stderr a terminal: a progress line. */
#define WL_PROGRESS_MIN_FILES 20
/* Stack of each analysis thread. libclang parses on the calling thread
 * (LIBCLANG_NOTHREADS, set in wl_cli_main) and its parser and semantic
 * analysis recurse as deep as the input nests (a sum of 65,536 terms
 * overflows libclang's own 8 MiB parse thread); warplint's own recursion is
 * bounded by WL_MAX_NESTING. The memory is reserved, and only what is used is
 * committed. */
#define WL_THREAD_STACK ((size_t)1 << 30)

/* ------------------------------------------------------------------------ */
/* Profiles: the settings of every file governed by one .warplint (or none) */

typedef struct profile {
  wl_config cfg; /* empty when there is no config */
  bool has_cfg;
  char *error;   /* the config could not be read: its files are not analyzed */
  bool *enabled; /* per rule, command line applied */
  wl_vec exts;   /* const char*: extensions searched in directories */
} profile;

struct run_ctx;

typedef struct job {
  struct run_ctx *rc;
  char *path;  /* as displayed */
  char *canon; /* canonical */
  char *error; /* NULL when it can be analyzed */
  bool skip;   /* excluded, or a duplicate */
  const profile *prof;
  const wl_compdb_entry *entry;
  wl_vec args; /* const char*, borrowed */
  wl_analyze_opts ao;
  wl_analysis_settings settings; /* ao.analysis points here */
  wl_findings findings;
  bool hashed;   /* --fix/--diff: the analyzed contents are known */
  uint64_t hash; /* wl_content_hash of them */
  size_t len;
  wl_analyze_info info;
  bool header;      /* a header: analyzed alone only when no analyzed file includes it */
  bool included;    /* a header analyzed with the files that include it */
  char *root;       /* the analyzed path (directory) it was found under, canonical */
  char *root_shown; /* the same as the user spelled it */
  const wl_compdb_entry *includer; /* a header's includer in the compilation database */
  bool nearest;                    /* includer is not one: the nearest file of the database */
  char *stdin_text; /* the input "-": its contents, read from stdin (NUL-terminated) */
  bool cached;      /* its findings came from the result cache */
  wl_vec facts;     /* char*: the include inferences its analysis made (cache_fact) */
} job;

typedef struct run_ctx {
  const wl_cli_opts *o;
  FILE *err;
  char *cwd;          /* canonical */
  wl_toolkit toolkit; /* the CUDA headers of the run */
  wl_pch_cache *pch;  /* their precompiled headers, shared by the workers; NULL: --no-pch */
  wl_compdb db;
  bool have_db;
  wl_vec profiles;  /* profile*: [0] is the no-config profile */
  wl_vec cfg_paths; /* char*: canonical config path of profiles[i + 1] */
  char *last_dir;   /* one-entry cache of dir -> profile */
  profile *last_prof;
  job *jobs;
  size_t njobs, cap;
  wl_vec input_errors; /* char*: path, message, path, ...: config errors for the emitters */
  wl_vec rule_ids;     /* char*: rule ids from worker processes that are not registered rules */
  regex_t header_re;   /* --header-filter */
  bool have_header_re;
  wl_vec roots;            /* char*: canonical directories whose headers are reported by default */
  char *cuda_canon;        /* canonical --cuda-path: its headers are never reported */
  wl_infer *infer;         /* include inference; NULL when off */
  wl_gitignore *gitignore; /* what git ignores in directory walks; NULL: --no-ignore */
  wl_vec included;         /* char*: canonical headers included by the files analyzed, sorted */
  wl_vec db_incs; /* canonical header, wl_compdb_entry*, ...: who includes what in the database */
  bool db_incs_done;
  wl_cache *cache; /* the result cache; NULL: not used (--no-cache, --fix, --diff) */
  wl_buf run_key;  /* the part of every cache key that is the run's */
} run_ctx;

static profile *new_profile(run_ctx *rc, const wl_config *cfg) {
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

static void free_profile(profile *p) {
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
static profile *config_profile(run_ctx *rc, const char *cfg_path) {
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
  profile *p = new_profile(rc, ok ? &cfg : NULL);
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
    return config_profile(rc, rc->o->config);
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
      found = config_profile(rc, p.data);
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

static void collect_paths(run_ctx *rc) {
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
static void collect_db(run_ctx *rc) {
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
static void collect_db_headers(run_ctx *rc) {
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
static void skip_duplicates(run_ctx *rc) {
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
static void header_roots(run_ctx *rc) {
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

/* Include inference (wl_analyze_opts): the project tree of the including
 * file, else the directory analyzed. */
static char *infer_include(const char *name, const char *includer, void *ud) {
  job *j = ud;
  run_ctx *rc = j->rc;
  char *canon = wl_canonical_path(includer);
  char *dir = dir_of(canon);
  char *tree = wl_project_tree(dir);
  if (!tree)
    tree = wl_xstrdup(j->root ? j->root : dir);
  bool ambiguous = false;
  char *found = wl_infer_include(rc->infer, tree, name, &ambiguous);
  if (rc->cache) { /* a cached result holds while inference answers the same */
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
  if (!found && ambiguous && rc->o->verbose)
    fprintf(rc->err,
            "warplint: note: %s: #include \"%s\": several files of %s match; nothing inferred\n",
            j->path, name, tree);
  free(tree);
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
      fprintf(rc->err, "warplint: note: %s: not included by the files analyzed; the flags of %s%s\n",
              j->path, shown,
              j->nearest ? " (the nearest file of the compilation database: none includes it)"
                         : "");
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
  j->ao.parse.arch = arch;
  j->ao.parse.verbose = o->verbose;
  j->ao.enabled = j->prof ? j->prof->enabled : NULL;
  j->ao.severity = cfg ? cfg->severity : NULL;
  j->ao.report_unused_suppressions = o->report_unused;
  j->ao.verify_fixes = o->fix || o->diff || o->export_fixes;
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
  j->ao.infer_include = infer ? infer_include : NULL;
  j->ao.infer_ud = j;
  j->ao.parse.deps = rc->cache && !j->stdin_text;
}

static void prepare_jobs(run_ctx *rc) {
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
static void prepare_headers(run_ctx *rc) {
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
  wl_buf_printf(k, "cuda %u pch %d unused %d infer %d\n", rc->toolkit.version, rc->pch != NULL,
                o->report_unused, rc->infer != NULL);
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
static void open_cache(run_ctx *rc) {
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

/* Whether an include inference recorded by infer_include still gives the
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
static void run_all(run_ctx *rc, long nthreads, bool headers) {
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
  wl_iso_opts io = {rc->njobs,           todo,
                    nthreads,            WL_THREAD_STACK,
                    iso_run,             iso_done,
                    &rs,                 &rc->rule_ids,
                    rc->o->file_timeout, (size_t)rc->o->file_memory};
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
    free_profile(rc->profiles.v[i]);
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
  if (!o->no_pch)
    rc->pch = wl_pch_cache_new();
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
    profile *p = config_profile(rc, o->config);
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
  new_profile(&rc, NULL);
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
  header_roots(&rc);
  if (!o.no_infer_includes)
    rc.infer = wl_infer_new();
  if (!o.no_ignore)
    rc.gitignore = wl_gitignore_new(); /* directory walks: the paths, or the database's headers */
  open_cache(&rc);
  if (o.paths.n == 0) {
    collect_db(&rc);
    collect_db_headers(&rc);
  } else
    collect_paths(&rc);
  skip_duplicates(&rc);
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
  prepare_jobs(&rc);
  run_all(&rc, o.jobs, false);
  prepare_headers(&rc);
  run_all(&rc, o.jobs, true);
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
      fprintf(err, "warplint: note: %s: #include \"%s\" found with the inferred -I %s\n", j->path,
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
    wl_emit_info info = {WARPLINT_VERSION, rc.cwd,      errors, nerrors, analyzed, false, false,
                         incomplete,       nincomplete, NULL,    &wl_rule_catalog};
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
      run_all(&rc, o.jobs, false);
      run_all(&rc, o.jobs, true);
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
