/* cli.c - argv to options, inputs to jobs, jobs through the analyzer (in
 * parallel, with output independent of -j), findings to the chosen format. */
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze.h"
#include "buf.h"
#include "diag.h"
#include "emit.h"
#include "rules.h"

typedef enum { FMT_TEXT, FMT_JSON, FMT_SARIF } out_format;
typedef enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;

typedef struct cli_opts {
  out_format format;
  color_mode color;
  wl_vec paths;      /* const char* as given */
  wl_vec clang_args; /* const char* (owned strings in owned) */
  wl_vec owned;      /* char* to free */
  wl_vec exts;       /* const char* without the dot */
  const char *cuda_path;
  unsigned arch;
  bool verbose;
  long jobs;
  bool *enabled; /* per rule */
} cli_opts;

static const char usage_text[] =
    "usage: warplint [options] <file-or-directory>... [-- <clang arguments>]\n"
    "\n"
    "Finds legacy (pre-CUDA 9) warp-synchronous code in CUDA sources.\n"
    "Directories are searched recursively for .cu and .cuh files.\n"
    "\n"
    "Output:\n"
    "  --format=text|json|sarif   output format (default: text)\n"
    "  --color=auto|always|never  colour in text output (default: auto, only on a terminal)\n"
    "\n"
    "Rules:\n"
    "  --list-rules               list the rules and exit\n"
    "  --explain RULE             print a rule's documentation and exit\n"
    "  --enable RULE[,RULE...]    run only these rules\n"
    "  --disable RULE[,RULE...]   do not run these rules\n"
    "\n"
    "Parsing:\n"
    "  -I DIR, -IDIR              add an include directory\n"
    "  -D NAME[=VALUE]            define a macro\n"
    "  -U NAME                    undefine a macro\n"
    "  --cuda-path DIR            use the CUDA toolkit headers in DIR instead of the built-in "
    "prelude\n"
    "  --cuda-arch sm_XY          device architecture for __CUDA_ARCH__ (default: sm_75)\n"
    "  --extensions=cu,cuh,...    file extensions searched in directories (default: cu,cuh)\n"
    "  -- ARGS...                 pass the remaining arguments to clang\n"
    "\n"
    "Other:\n"
    "  -j N, --jobs=N             analyze N files in parallel (default: number of cores)\n"
    "  --verbose                  say what could not be resolved while parsing\n"
    "  --version                  print the version and exit\n"
    "  -h, --help                 print this help and exit\n"
    "\n"
    "Exit status:\n"
    "  0  no findings\n"
    "  1  findings were reported\n"
    "  2  usage error, or an input that could not be analyzed (unreadable, binary, missing);\n"
    "     the other inputs are still analyzed and their findings reported\n";

static void opts_free(cli_opts *o) {
  wl_vec_free(&o->paths);
  wl_vec_free(&o->clang_args);
  for (size_t i = 0; i < o->owned.n; i++)
    free(o->owned.v[i]);
  wl_vec_free(&o->owned);
  wl_vec_free(&o->exts);
  free(o->enabled);
}

static const char *own(cli_opts *o, char *s) {
  wl_vec_push(&o->owned, s);
  return s;
}

/* "--name=value" or "--name value": returns the value or NULL (and sets *bad). */
static const char *opt_value(int argc, char **argv, int *i, const char *name, bool *matched) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  *matched = false;
  if (strncmp(a, name, n) != 0)
    return NULL;
  if (a[n] == '=') {
    *matched = true;
    return a + n + 1;
  }
  if (a[n] != '\0')
    return NULL;
  *matched = true;
  if (*i + 1 >= argc)
    return NULL;
  return argv[++*i];
}

static bool set_rules(cli_opts *o, const char *list, bool value, bool only, FILE *err) {
  if (only)
    for (size_t i = 0; i < wl_nrules; i++)
      o->enabled[i] = false;
  char *copy = wl_xstrdup(list);
  bool ok = true;
  for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
       tok = strtok_r(NULL, ",", &save)) {
    const wl_rule *r = wl_rule_find(tok);
    if (!r) {
      fprintf(err, "warplint: unknown rule '%s' (see --list-rules)\n", tok);
      ok = false;
      continue;
    }
    o->enabled[wl_rule_index(r)] = value;
  }
  free(copy);
  return ok;
}

typedef enum { PARSE_RUN, PARSE_EXIT_OK, PARSE_EXIT_USAGE } parse_result;

static parse_result parse_args(int argc, char **argv, cli_opts *o, FILE *out, FILE *err) {
  o->enabled = wl_xcalloc(wl_nrules, sizeof *o->enabled);
  for (size_t i = 0; i < wl_nrules; i++)
    o->enabled[i] = true;
  o->arch = 75;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = ncpu > 0 ? ncpu : 1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool m = false;
    const char *v;
    if (strcmp(a, "--") == 0) {
      for (i++; i < argc; i++)
        wl_vec_push(&o->clang_args, argv[i]);
      break;
    }
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      fputs(usage_text, out);
      return PARSE_EXIT_OK;
    }
    if (strcmp(a, "--version") == 0) {
      fprintf(out, "warplint %s\n", WARPLINT_VERSION);
      return PARSE_EXIT_OK;
    }
    if (strcmp(a, "--list-rules") == 0) {
      for (size_t r = 0; r < wl_nrules; r++)
        fprintf(out, "%-22s %-8s %s\n", wl_rules[r].id, wl_severity_name(wl_rules[r].severity),
                wl_rules[r].summary);
      return PARSE_EXIT_OK;
    }
    if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
      o->verbose = true;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--explain", &m)) || m) {
      if (!v) {
        fputs("warplint: --explain needs a rule id\n", err);
        return PARSE_EXIT_USAGE;
      }
      const wl_rule *r = wl_rule_find(v);
      const char *doc = r ? wl_rule_doc_text(r->id) : NULL;
      if (!r) {
        fprintf(err, "warplint: unknown rule '%s' (see --list-rules)\n", v);
        return PARSE_EXIT_USAGE;
      }
      if (doc)
        fputs(doc, out);
      else
        fprintf(out, "%s: %s\n", r->id, r->summary);
      return PARSE_EXIT_OK;
    }
    if ((v = opt_value(argc, argv, &i, "--format", &m)) || m) {
      if (v && strcmp(v, "text") == 0)
        o->format = FMT_TEXT;
      else if (v && strcmp(v, "json") == 0)
        o->format = FMT_JSON;
      else if (v && strcmp(v, "sarif") == 0)
        o->format = FMT_SARIF;
      else {
        fprintf(err, "warplint: --format must be text, json or sarif\n");
        return PARSE_EXIT_USAGE;
      }
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--color", &m)) || m ||
        (v = opt_value(argc, argv, &i, "--colour", &m)) || m) {
      if (v && strcmp(v, "auto") == 0)
        o->color = COLOR_AUTO;
      else if (v && strcmp(v, "always") == 0)
        o->color = COLOR_ALWAYS;
      else if (v && strcmp(v, "never") == 0)
        o->color = COLOR_NEVER;
      else {
        fprintf(err, "warplint: --color must be auto, always or never\n");
        return PARSE_EXIT_USAGE;
      }
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--cuda-path", &m)) || m) {
      if (!v) {
        fputs("warplint: --cuda-path needs a directory\n", err);
        return PARSE_EXIT_USAGE;
      }
      struct stat st;
      if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(err, "warplint: --cuda-path %s: not a directory\n", v);
        return PARSE_EXIT_USAGE;
      }
      o->cuda_path = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--cuda-arch", &m)) || m ||
        (v = opt_value(argc, argv, &i, "--arch", &m)) || m) {
      unsigned arch = wl_parse_arch(v);
      if (!arch) {
        fprintf(err, "warplint: invalid --cuda-arch '%s' (expected e.g. sm_75)\n", v ? v : "");
        return PARSE_EXIT_USAGE;
      }
      o->arch = arch;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--extensions", &m)) || m) {
      if (!v || !*v) {
        fputs("warplint: --extensions needs a list such as cu,cuh\n", err);
        return PARSE_EXIT_USAGE;
      }
      o->exts.n = 0;
      char *copy = (char *)own(o, wl_xstrdup(v));
      for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
           tok = strtok_r(NULL, ",", &save))
        wl_vec_push(&o->exts, tok[0] == '.' ? tok + 1 : tok);
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--enable", &m)) || m) {
      if (!v || !set_rules(o, v, true, true, err))
        return PARSE_EXIT_USAGE;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--disable", &m)) || m) {
      if (!v || !set_rules(o, v, false, false, err))
        return PARSE_EXIT_USAGE;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--jobs", &m)) || m ||
        (strcmp(a, "-j") == 0 && (m = true) && (v = i + 1 < argc ? argv[++i] : NULL)) ||
        (strncmp(a, "-j", 2) == 0 && a[2] && (m = true) && (v = a + 2))) {
      char *end = NULL;
      long n = v ? strtol(v, &end, 10) : 0;
      if (!v || *end || n < 1 || n > 1024) {
        fprintf(err, "warplint: -j needs a number of jobs between 1 and 1024\n");
        return PARSE_EXIT_USAGE;
      }
      o->jobs = n;
      continue;
    }
    if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U') && a[2] == '\0') {
      if (i + 1 >= argc) {
        fprintf(err, "warplint: %s needs an argument\n", a);
        return PARSE_EXIT_USAGE;
      }
      size_t n = strlen(argv[i + 1]) + 3;
      char *s = wl_xmalloc(n);
      snprintf(s, n, "-%c%s", a[1], argv[i + 1]);
      wl_vec_push(&o->clang_args, (void *)own(o, s));
      i++;
      continue;
    }
    if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U')) {
      wl_vec_push(&o->clang_args, (void *)a);
      continue;
    }
    if (a[0] == '-' && a[1] != '\0') {
      fprintf(err, "warplint: unknown option '%s' (see --help)\n", a);
      return PARSE_EXIT_USAGE;
    }
    wl_vec_push(&o->paths, (void *)a);
  }
  if (o->exts.n == 0) {
    wl_vec_push(&o->exts, "cu");
    wl_vec_push(&o->exts, "cuh");
  }
  if (o->paths.n == 0) {
    fputs("warplint: no input files (see --help)\n", err);
    return PARSE_EXIT_USAGE;
  }
  return PARSE_RUN;
}

/* ------------------------------------------------------------------------ */
/* Inputs                                                                   */

typedef struct job {
  char *path;
  wl_findings findings;
  char *error; /* NULL when analyzed */
} job;

typedef struct job_list {
  job *v;
  size_t n, cap;
} job_list;

static void add_job(job_list *jl, const char *path, const char *error) {
  if (jl->n == jl->cap) {
    jl->cap = jl->cap ? jl->cap * 2 : 64;
    jl->v = wl_xrealloc(jl->v, jl->cap * sizeof *jl->v);
  }
  job *j = &jl->v[jl->n++];
  memset(j, 0, sizeof *j);
  j->path = wl_xstrdup(path);
  wl_findings_init(&j->findings);
  j->error = error ? wl_xstrdup(error) : NULL;
}

static bool has_ext(const char *name, const wl_vec *exts) {
  const char *dot = strrchr(name, '.');
  if (!dot)
    return false;
  for (size_t i = 0; i < exts->n; i++)
    if (strcmp(dot + 1, exts->v[i]) == 0)
      return true;
  return false;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(const char *dir, const cli_opts *o, job_list *jl, int depth) {
  if (depth > 64)
    return;
  DIR *d = opendir(dir);
  if (!d) {
    char msg[256];
    snprintf(msg, sizeof msg, "cannot open directory: %s", strerror(errno));
    add_job(jl, dir, msg);
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
  qsort(names.v, names.n, sizeof *names.v, cmp_str);
  size_t dl = strlen(dir);
  bool slash = dl > 0 && dir[dl - 1] == '/';
  for (size_t i = 0; i < names.n; i++) {
    wl_buf p;
    wl_buf_init(&p);
    wl_buf_printf(&p, "%s%s%s", dir, slash ? "" : "/", (char *)names.v[i]);
    struct stat st;
    if (stat(p.data, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        struct stat lst;
        if (lstat(p.data, &lst) == 0 && !S_ISLNK(lst.st_mode)) /* no symlink loops */
          walk_dir(p.data, o, jl, depth + 1);
      } else if (S_ISREG(st.st_mode) && has_ext(names.v[i], &o->exts)) {
        add_job(jl, p.data, NULL);
      }
    }
    wl_buf_free(&p);
    free(names.v[i]);
  }
  wl_vec_free(&names);
}

static void collect_inputs(const cli_opts *o, job_list *jl) {
  for (size_t i = 0; i < o->paths.n; i++) {
    const char *p = o->paths.v[i];
    struct stat st;
    if (stat(p, &st) != 0) {
      char msg[256];
      snprintf(msg, sizeof msg, "cannot access: %s", strerror(errno));
      add_job(jl, p, msg);
    } else if (S_ISDIR(st.st_mode)) {
      walk_dir(p, o, jl, 0);
    } else if (S_ISREG(st.st_mode)) {
      add_job(jl, p, NULL); /* named explicitly: analyzed whatever its extension */
    } else {
      add_job(jl, p, "not a regular file");
    }
  }
}

/* ------------------------------------------------------------------------ */
/* The run                                                                  */

typedef struct run_state {
  job_list *jobs;
  const wl_analyze_opts *aopts;
  pthread_mutex_t lock;
  size_t next;
} run_state;

static void run_job(wl_parser *p, job *j, const wl_analyze_opts *ao) {
  if (j->error)
    return;
  wl_buf err;
  wl_buf_init(&err);
  wl_parse_status st = wl_analyze_file(p, j->path, NULL, ao, &j->findings, &err);
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
    if (i >= rs->jobs->n)
      break;
    run_job(p, &rs->jobs->v[i], rs->aopts);
  }
  wl_parser_free(p);
  return NULL;
}

static void run_all(job_list *jl, const wl_analyze_opts *ao, long nthreads) {
  if (nthreads > (long)jl->n)
    nthreads = (long)jl->n;
  if (nthreads <= 1) {
    wl_parser *p = wl_parser_new();
    for (size_t i = 0; i < jl->n; i++)
      run_job(p, &jl->v[i], ao);
    wl_parser_free(p);
    return;
  }
  run_state rs = {jl, ao, PTHREAD_MUTEX_INITIALIZER, 0};
  pthread_t *t = wl_xcalloc((size_t)nthreads, sizeof *t);
  long started = 0;
  for (long i = 0; i < nthreads; i++)
    if (pthread_create(&t[i], NULL, worker, &rs) == 0)
      started++;
    else
      break;
  if (started == 0)
    worker(&rs);
  for (long i = 0; i < started; i++)
    pthread_join(t[i], NULL);
  free(t);
}

static bool want_color(color_mode m, FILE *out) {
  if (m == COLOR_ALWAYS)
    return true;
  if (m == COLOR_NEVER)
    return false;
  const char *term = getenv("TERM");
  if (getenv("NO_COLOR") || (term && strcmp(term, "dumb") == 0))
    return false;
  return isatty(fileno(out)) != 0;
}

int wl_cli_main(int argc, char **argv, FILE *out, FILE *err) {
  cli_opts o;
  memset(&o, 0, sizeof o);
  parse_result pr = parse_args(argc, argv, &o, out, err);
  if (pr != PARSE_RUN) {
    opts_free(&o);
    return pr == PARSE_EXIT_OK ? WL_EXIT_CLEAN : WL_EXIT_ERROR;
  }

  job_list jl = {0};
  collect_inputs(&o, &jl);

  wl_analyze_opts ao;
  memset(&ao, 0, sizeof ao);
  ao.parse.args = (const char *const *)o.clang_args.v;
  ao.parse.nargs = o.clang_args.n;
  ao.parse.cuda_path = o.cuda_path;
  ao.parse.arch = o.arch;
  ao.parse.verbose = o.verbose;
  ao.enabled = o.enabled;
  run_all(&jl, &ao, o.jobs);

  wl_findings all;
  wl_findings_init(&all);
  wl_input_error *errors = wl_xcalloc(jl.n + 1, sizeof *errors);
  size_t nerrors = 0, analyzed = 0;
  for (size_t i = 0; i < jl.n; i++) {
    job *j = &jl.v[i];
    if (j->error) {
      fprintf(err, "warplint: error: %s: %s\n", j->path, j->error);
      errors[nerrors].path = j->path;
      errors[nerrors].message = j->error;
      nerrors++;
    } else {
      analyzed++;
    }
    wl_findings_move(&all, &j->findings);
  }
  wl_findings_sort_dedup(&all);

  char cwd[4096];
  wl_emit_info info = {
      WARPLINT_VERSION, getcwd(cwd, sizeof cwd) ? cwd : NULL, errors, nerrors, analyzed, false};
  int wr;
  switch (o.format) {
  case FMT_JSON: wr = wl_emit_json(out, &all, &info); break;
  case FMT_SARIF: wr = wl_emit_sarif(out, &all, &info); break;
  default:
    info.color = want_color(o.color, out);
    wr = wl_emit_text(out, &all, &info);
    break;
  }
  if (o.format == FMT_TEXT && all.n > 0)
    fprintf(err, "%zu finding%s in %zu file%s analyzed\n", all.n, all.n == 1 ? "" : "s", analyzed,
            analyzed == 1 ? "" : "s");
  if (jl.n == 0)
    fputs("warplint: warning: no CUDA files found in the given paths\n", err);

  int code = nerrors > 0 || wr != 0 ? WL_EXIT_ERROR : all.n > 0 ? WL_EXIT_FINDINGS : WL_EXIT_CLEAN;
  if (wr != 0)
    fputs("warplint: error: could not write the output\n", err);
  for (size_t i = 0; i < jl.n; i++) {
    free(jl.v[i].path);
    free(jl.v[i].error);
    wl_findings_free(&jl.v[i].findings);
  }
  free(jl.v);
  free(errors);
  wl_findings_free(&all);
  opts_free(&o);
  return code;
}
