/* options.c - argv to wl_cli_opts, and the --help text (which, with the
 * README's Options table, documents every option). */
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "parse.h"
#include "rules.h"

static const char usage_text[] =
    "usage: warplint [options] <file-or-directory>... [-- <clang arguments>]\n"
    "       warplint -p <build-dir> [options] [<file-or-directory>...]\n"
    "\n"
    "Finds legacy (pre-CUDA 9) warp-synchronous code in CUDA sources.\n"
    "Directories are searched recursively for .cu and .cuh files.\n"
    "\n"
    "Output:\n"
    "  --format=text|json|sarif   output format (default: text)\n"
    "  --color=auto|always|never  colour in text output (default: auto, only on a terminal);\n"
    "                             --colour is the same\n"
    "  --fail-on=note|warning|error\n"
    "                             exit 1 only for findings of this severity or higher\n"
    "                             (default: note, i.e. any finding)\n"
    "  --exit-zero                exit 0 even when there are findings (2 still means an error)\n"
    "\n"
    "Rules:\n"
    "  --list-rules               list the rules and exit\n"
    "  --explain RULE             print a rule's documentation and exit\n"
    "  --enable RULE[,RULE...]    run only these rules\n"
    "  --disable RULE[,RULE...]   do not run these rules\n"
    "  --report-unused-suppressions\n"
    "                             report suppression comments that silence nothing\n"
    "                             (as unused-suppression findings)\n"
    "\n"
    "Fixes:\n"
    "  --fix                      apply the automatic fixes to the files (atomically), then\n"
    "                             report what is left\n"
    "  --diff                     print the automatic fixes as a unified diff; change nothing\n"
    "                             (exit 1 when there is something to fix)\n"
    "  --export-fixes FILE        write the automatic fixes as clang-tidy YAML replacements\n"
    "                             (for clang-apply-replacements)\n"
    "\n"
    "Configuration and legacy trees:\n"
    "  --config FILE              use FILE for every input instead of the nearest .warplint\n"
    "  --no-config                ignore .warplint files\n"
    "  --baseline FILE            report only findings that are not recorded in FILE\n"
    "  --write-baseline FILE      record the current findings in FILE (JSON) and exit\n"
    "\n"
    "Parsing:\n"
    "  -p DIR|FILE, --compile-commands=DIR|FILE\n"
    "                             read compile_commands.json (in DIR, or FILE itself): its flags\n"
    "                             are used for the files it lists; with no paths, every CUDA\n"
    "                             file it lists is analyzed\n"
    "  -I DIR, -IDIR              add an include directory\n"
    "  -D NAME[=VALUE]            define a macro\n"
    "  -U NAME                    undefine a macro\n"
    "  --cuda-path DIR            use the CUDA toolkit headers in DIR instead of the built-in "
    "prelude\n"
    "  --cuda-arch sm_XY          device architecture for __CUDA_ARCH__ (default: sm_75, or\n"
    "                             the one of the compile command or .warplint); --arch is the "
    "same\n"
    "  --extensions=cu,cuh,...    file extensions searched in directories (default: cu,cuh)\n"
    "  -- ARGS...                 pass the remaining arguments to clang\n"
    "\n"
    "Other:\n"
    "  -j N, --jobs=N             analyze N files in parallel (default: number of cores);\n"
    "                             the output does not depend on N\n"
    "  -v, --verbose              say what could not be resolved while parsing, which\n"
    "                             compile flags were dropped and which files were excluded\n"
    "  --version                  print the version and exit\n"
    "  -h, --help                 print this help and exit\n"
    "\n"
    "Suppression comments (see the README):\n"
    "  // warplint-disable-next-line RULE[, RULE...]   // warplint-disable-line RULE\n"
    "  // warplint-disable-file RULE   // NOLINT(RULE)   // NOLINTNEXTLINE(RULE)   // NOLINT\n"
    "\n"
    "Exit status:\n"
    "  0  no findings (or none at the --fail-on severity, or --exit-zero)\n"
    "  1  findings were reported\n"
    "  2  usage error, bad configuration, compilation database or baseline, or an input\n"
    "     that could not be analyzed; the other inputs are still analyzed and their\n"
    "     findings reported\n";

void wl_cli_opts_free(wl_cli_opts *o) {
  wl_vec_free(&o->paths);
  wl_vec_free(&o->clang_args);
  for (size_t i = 0; i < o->owned.n; i++)
    free(o->owned.v[i]);
  wl_vec_free(&o->owned);
  wl_vec_free(&o->exts);
  free(o->enable);
  free(o->disable);
  memset(o, 0, sizeof *o);
}

static const char *own(wl_cli_opts *o, char *s) {
  wl_vec_push(&o->owned, s);
  return s;
}

/* "--name=value" or "--name value": returns the value, or NULL when the
 * option matched (*matched) without a value. */
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

static bool rule_list(const char *list, bool *set, FILE *err) {
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
    set[wl_rule_index(r)] = true;
  }
  free(copy);
  return ok;
}

/* Options whose value is a path or name; NULL value: a usage error. */
static bool need(const char *v, const char *what, FILE *err) {
  if (v && *v)
    return true;
  fprintf(err, "warplint: %s\n", what);
  return false;
}

wl_parse_result wl_cli_parse(int argc, char **argv, wl_cli_opts *o, FILE *out, FILE *err) {
  memset(o, 0, sizeof *o);
  o->enable = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *o->enable);
  o->disable = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *o->disable);
  o->fail_on = WL_SEV_NOTE;
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
      return WL_ARGS_EXIT_OK;
    }
    if (strcmp(a, "--version") == 0) {
      fprintf(out, "warplint %s\n", WARPLINT_VERSION);
      return WL_ARGS_EXIT_OK;
    }
    if (strcmp(a, "--list-rules") == 0) {
      for (size_t r = 0; r < wl_nrules; r++)
        fprintf(out, "%-22s %-8s %s\n", wl_rules[r].id, wl_severity_name(wl_rules[r].severity),
                wl_rules[r].summary);
      return WL_ARGS_EXIT_OK;
    }
    if (strcmp(a, "--verbose") == 0 || strcmp(a, "-v") == 0) {
      o->verbose = true;
      continue;
    }
    if (strcmp(a, "--exit-zero") == 0) {
      o->exit_zero = true;
      continue;
    }
    if (strcmp(a, "--report-unused-suppressions") == 0) {
      o->report_unused = true;
      continue;
    }
    if (strcmp(a, "--fix") == 0) {
      o->fix = true;
      continue;
    }
    if (strcmp(a, "--diff") == 0) {
      o->diff = true;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--export-fixes", &m)) || m) {
      if (!need(v, "--export-fixes needs a file", err))
        return WL_ARGS_EXIT_USAGE;
      o->export_fixes = v;
      continue;
    }
    if (strcmp(a, "--no-config") == 0) {
      o->no_config = true;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--explain", &m)) || m) {
      if (!need(v, "--explain needs a rule id", err))
        return WL_ARGS_EXIT_USAGE;
      const wl_rule *r = wl_rule_find(v);
      if (!r) {
        fprintf(err, "warplint: unknown rule '%s' (see --list-rules)\n", v);
        return WL_ARGS_EXIT_USAGE;
      }
      const char *doc = wl_rule_doc_text(r->id);
      if (doc)
        fputs(doc, out);
      else
        fprintf(out, "%s: %s\n", r->id, r->summary);
      return WL_ARGS_EXIT_OK;
    }
    if ((v = opt_value(argc, argv, &i, "--format", &m)) || m) {
      if (v && strcmp(v, "text") == 0)
        o->format = WL_FMT_TEXT;
      else if (v && strcmp(v, "json") == 0)
        o->format = WL_FMT_JSON;
      else if (v && strcmp(v, "sarif") == 0)
        o->format = WL_FMT_SARIF;
      else {
        fputs("warplint: --format must be text, json or sarif\n", err);
        return WL_ARGS_EXIT_USAGE;
      }
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--color", &m)) || m ||
        (v = opt_value(argc, argv, &i, "--colour", &m)) || m) {
      if (v && strcmp(v, "auto") == 0)
        o->color = WL_COLOR_AUTO;
      else if (v && strcmp(v, "always") == 0)
        o->color = WL_COLOR_ALWAYS;
      else if (v && strcmp(v, "never") == 0)
        o->color = WL_COLOR_NEVER;
      else {
        fputs("warplint: --color must be auto, always or never\n", err);
        return WL_ARGS_EXIT_USAGE;
      }
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--fail-on", &m)) || m) {
      if (!v || !wl_severity_parse(v, &o->fail_on)) {
        fputs("warplint: --fail-on must be note, warning or error\n", err);
        return WL_ARGS_EXIT_USAGE;
      }
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--cuda-path", &m)) || m) {
      if (!need(v, "--cuda-path needs a directory", err))
        return WL_ARGS_EXIT_USAGE;
      struct stat st;
      if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(err, "warplint: --cuda-path %s: not a directory\n", v);
        return WL_ARGS_EXIT_USAGE;
      }
      o->cuda_path = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--cuda-arch", &m)) || m ||
        (v = opt_value(argc, argv, &i, "--arch", &m)) || m) {
      unsigned arch = wl_parse_arch(v);
      if (!arch) {
        fprintf(err, "warplint: invalid --cuda-arch '%s' (expected e.g. sm_75)\n", v ? v : "");
        return WL_ARGS_EXIT_USAGE;
      }
      o->arch = arch;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--extensions", &m)) || m) {
      if (!need(v, "--extensions needs a list such as cu,cuh", err))
        return WL_ARGS_EXIT_USAGE;
      o->exts.n = 0;
      char *copy = (char *)own(o, wl_xstrdup(v));
      for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
           tok = strtok_r(NULL, ",", &save))
        wl_vec_push(&o->exts, tok[0] == '.' ? tok + 1 : tok);
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--enable", &m)) || m) {
      if (!need(v, "--enable needs a rule list", err) || !rule_list(v, o->enable, err))
        return WL_ARGS_EXIT_USAGE;
      o->enable_given = true;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--disable", &m)) || m) {
      if (!need(v, "--disable needs a rule list", err) || !rule_list(v, o->disable, err))
        return WL_ARGS_EXIT_USAGE;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--config", &m)) || m) {
      if (!need(v, "--config needs a file", err))
        return WL_ARGS_EXIT_USAGE;
      o->config = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--baseline", &m)) || m) {
      if (!need(v, "--baseline needs a file", err))
        return WL_ARGS_EXIT_USAGE;
      o->baseline = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--write-baseline", &m)) || m) {
      if (!need(v, "--write-baseline needs a file", err))
        return WL_ARGS_EXIT_USAGE;
      o->write_baseline = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--compile-commands", &m)) || m ||
        (v = opt_value(argc, argv, &i, "-p", &m)) || m ||
        (strncmp(a, "-p", 2) == 0 && a[2] && a[2] != '=' && (m = true) && (v = a + 2))) {
      if (!need(v, "-p needs a build directory or a compile_commands.json", err))
        return WL_ARGS_EXIT_USAGE;
      o->compdb = v;
      continue;
    }
    if ((v = opt_value(argc, argv, &i, "--jobs", &m)) || m ||
        (strcmp(a, "-j") == 0 && (m = true) && (v = i + 1 < argc ? argv[++i] : NULL)) ||
        (strncmp(a, "-j", 2) == 0 && a[2] && (m = true) && (v = a + 2))) {
      char *end = NULL;
      long n = v ? strtol(v, &end, 10) : 0;
      if (!v || *end || n < 1 || n > 1024) {
        fputs("warplint: -j needs a number of jobs between 1 and 1024\n", err);
        return WL_ARGS_EXIT_USAGE;
      }
      o->jobs = n;
      continue;
    }
    if (a[0] == '-' && (a[1] == 'I' || a[1] == 'D' || a[1] == 'U') && a[2] == '\0') {
      if (i + 1 >= argc) {
        fprintf(err, "warplint: %s needs an argument\n", a);
        return WL_ARGS_EXIT_USAGE;
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
      return WL_ARGS_EXIT_USAGE;
    }
    wl_vec_push(&o->paths, (void *)a);
  }
  if (o->paths.n == 0 && !o->compdb) {
    fputs("warplint: no input files (see --help)\n", err);
    return WL_ARGS_EXIT_USAGE;
  }
  if (o->config && o->no_config) {
    fputs("warplint: --config and --no-config exclude each other\n", err);
    return WL_ARGS_EXIT_USAGE;
  }
  if (o->fix && o->diff) {
    fputs("warplint: --fix and --diff exclude each other (--diff changes nothing)\n", err);
    return WL_ARGS_EXIT_USAGE;
  }
  if ((o->fix || o->diff || o->export_fixes) && o->write_baseline) {
    fputs("warplint: --write-baseline does not combine with --fix, --diff or --export-fixes\n",
          err);
    return WL_ARGS_EXIT_USAGE;
  }
  return WL_ARGS_RUN;
}
