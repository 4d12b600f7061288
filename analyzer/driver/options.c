/* options.c - argv to wl_cli_opts, and the --help text (which, with the
 * README's Options table, documents every option). */
#include "options.h"

#include <getopt.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "emit.h"
#include "parse.h"
#include "rules.h"
#include "suppress.h"
#include "toolkit.h"

static const char usage_text[] =
    "usage: warplint [options] <file-or-directory>... [-- <clang arguments>]\n"
    "       warplint -p <build-dir> [options] [<file-or-directory>...]\n"
    "\n"
    "Finds legacy (pre-CUDA 9) warp-synchronous code in CUDA sources.\n"
    "Directories are searched recursively for .cu and .cuh files.\n"
    "\n"
    "Output:\n"
    "  --format=FORMAT            output format: text (default), json, sarif, github\n"
    "                             (Actions annotations), gitlab (Code Quality) or junit\n"
    "  -o FILE, --output=FILE     write the report to FILE (atomically) instead of stdout;\n"
    "                             FILE must not be one of the inputs\n"
    "  --color=auto|always|never  colour in text output (default: auto, only on a terminal);\n"
    "                             --colour is the same\n"
    "  --fail-on=note|warning|error\n"
    "                             exit 1 only for findings of this severity or higher\n"
    "                             (default: note, i.e. any finding)\n"
    "  --exit-zero                exit 0 even when there are findings (2 still means an error)\n"
    "  -q, --quiet                print the findings only: no summary line, progress or\n"
    "                             fix summary (errors are still reported)\n"
    "  --statistics               print the number of findings of each rule instead of the\n"
    "                             findings (text or JSON)\n"
    "\n"
    "Rules:\n"
    "  --list-rules               list the rules and exit (as JSON with --format=json)\n"
    "  --explain RULE             print a rule's documentation and exit\n"
    "  --enable RULE[,RULE...]    run only these rules\n"
    "  --disable RULE[,RULE...]   do not run these rules\n"
    "  --report-unused-suppressions\n"
    "                             report suppression comments that silence nothing\n"
    "                             (as unused-suppression findings)\n"
    "\n"
    "Fixes:\n"
    "  --fix                      apply the automatic fixes to the files (atomically), then\n"
    "                             report what is left; only regular, writable files of the\n"
    "                             project that still hold what was analyzed are rewritten\n"
    "  --fix-outside-project      let --fix rewrite files outside the project (the nearest\n"
    "                             directory holding .git above each input)\n"
    "  --diff                     print the automatic fixes as a unified diff; change nothing\n"
    "                             (exit 1 when there is something to fix)\n"
    "  --export-fixes FILE        write the automatic fixes as clang-tidy YAML replacements\n"
    "                             (for clang-apply-replacements)\n"
    "\n"
    "Configuration and legacy trees:\n"
    "  --config FILE              use FILE for every input instead of the nearest .warplint\n"
    "  --no-config                ignore .warplint files\n"
    "  --no-ignore                also search what .gitignore excludes in directories\n"
    "                             (files named on the command line are always analyzed)\n"
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
    "  --cuda-path DIR            parse with the CUDA toolkit in DIR (default: the one found\n"
    "                             through CUDA_PATH, CUDA_HOME, the nvcc on PATH or\n"
    "                             /usr/local/cuda; --version and -v say which)\n"
    "  --no-cuda-path             parse with the built-in CUDA prelude, whatever is installed\n"
    "                             (the last of --cuda-path and --no-cuda-path counts)\n"
    "  --project-root DIR         SARIF URIs and fingerprints are relative to DIR (default: the\n"
    "                             nearest directory above holding .git, else the current one)\n"
    "  --no-pch                   parse the CUDA headers again for every file instead of once\n"
    "                             per run, and do not keep them in the cache directory\n"
    "                             (slower; the findings are the same)\n"
    "  --no-std-pch               keep the C and C++ standard headers (<cstdio>, <vector>,\n"
    "                             <iostream>...) and, with a toolkit, thrust, cub and libcu++\n"
    "                             out of the shared precompiled header: every file parses\n"
    "                             those it includes itself (slower; the findings are the same)\n"
    "  --no-cache                 analyze every file again: do not read or write the result\n"
    "                             cache (an unchanged file's findings are otherwise served\n"
    "                             from it without parsing; see the README)\n"
    "  --cache-dir DIR            keep the result cache in DIR (default: $WARPLINT_CACHE_DIR,\n"
    "                             else $XDG_CACHE_HOME/warplint, else ~/.cache/warplint;\n"
    "                             bounded to $WARPLINT_CACHE_SIZE MiB, default 256)\n"
    "  --cache-stats              say on stderr which files came from the result cache and\n"
    "                             how many were analyzed and stored\n"
    "  --cuda-arch sm_XY          device architecture for __CUDA_ARCH__ (default: sm_75, or\n"
    "                             the one of the compile command or .warplint); --arch is the "
    "same;\n"
    "                             one newer than libclang knows is analyzed as the newest it\n"
    "                             knows (-v says so)\n"
    "  --extensions=cu,cuh,...    file extensions searched in directories (default: cu,cuh)\n"
    "  --stdin-filename NAME      read the source from stdin (also the input '-'), as the\n"
    "                             file NAME: its .warplint, compile command and the name\n"
    "                             in the output (for editors; not with --fix)\n"
    "  --header-filter=REGEX      report the findings located in included headers whose\n"
    "                             canonical path matches REGEX (POSIX extended); default:\n"
    "                             the headers under the paths analyzed, the compilation\n"
    "                             database's directory or the project root, never system\n"
    "                             or toolkit headers\n"
    "  --no-infer-includes        do not search the project for #includes that do\n"
    "                             not resolve (see the README)\n"
    "  --strict                   exit 2 when the analysis was incomplete (unresolved\n"
    "                             includes, or parse errors outside host-only code)\n"
    "  -- ARGS...                 pass the remaining arguments to clang\n"
    "\n"
    "Long options may be abbreviated to a unique prefix; a value follows after '=' or a\n"
    "space.\n"
    "\n"
    "Other:\n"
    "  -j N, --jobs=N             analyze N files in parallel (default: number of cores);\n"
    "                             the output does not depend on N\n"
    "  --file-timeout=SECONDS     stop the analysis of a file that takes longer (it is\n"
    "                             reported as not analyzed, exit 2; default 300, 0: no limit)\n"
    "  --file-memory=MIB          address space of each worker process analyzing a file; a\n"
    "                             file that needs more is reported as not analyzed, exit 2\n"
    "                             (default 4096, 0: no limit)\n"
    "  -v, --verbose              say what could not be resolved while parsing, which\n"
    "                             include directories were inferred, which compile flags\n"
    "                             were dropped and which files were excluded\n"
    "  --version                  print the version and the CUDA headers used, and exit\n"
    "  -h, --help                 print this help and exit\n"
    "\n"
    "Suppression comments (see the README):\n"
    "  // warplint-disable-next-line RULE[, RULE...]   // warplint-disable-line RULE\n"
    "  // warplint-disable-file RULE   // NOLINT(RULE)   // NOLINTNEXTLINE(RULE)   // NOLINT\n"
    "  // warplint-disable-begin RULE ... // warplint-disable-end RULE\n"
    "  // NOLINTBEGIN(RULE) ... // NOLINTEND(RULE)\n"
    "\n"
    "Exit status:\n"
    "  0  no findings (or none at the --fail-on severity, or --exit-zero)\n"
    "  1  findings were reported\n"
    "  2  usage error, bad configuration, compilation database or baseline, or an input\n"
    "     that could not be analyzed; the other inputs are still analyzed and their\n"
    "     findings reported; with --strict, also an incomplete analysis; a file that\n"
    "     --fix refused to rewrite (changed since analyzed, read-only, not regular,\n"
    "     hard-linked, outside the project)\n";

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

/* Options whose value is a path or name; NULL or empty value: a usage error. */
static bool need(const char *v, const char *what, FILE *err) {
  if (v && *v)
    return true;
  fprintf(err, "warplint: %s\n", what);
  return false;
}

/* ------------------------------------------------------------------------ */
/* The option table (getopt_long: --opt=v, --opt v, unambiguous prefixes,  */
/* -- ends the options and passes the rest to clang)                       */

enum {
  OPT_VERSION = 256,
  OPT_LIST_RULES,
  OPT_EXPLAIN,
  OPT_FORMAT,
  OPT_COLOR,
  OPT_FAIL_ON,
  OPT_EXIT_ZERO,
  OPT_REPORT_UNUSED,
  OPT_FIX,
  OPT_FIX_OUTSIDE,
  OPT_DIFF,
  OPT_EXPORT_FIXES,
  OPT_CONFIG,
  OPT_NO_CONFIG,
  OPT_NO_IGNORE,
  OPT_BASELINE,
  OPT_WRITE_BASELINE,
  OPT_CUDA_PATH,
  OPT_NO_CUDA_PATH,
  OPT_NO_PCH,
  OPT_NO_STD_PCH,
  OPT_NO_CACHE,
  OPT_CACHE_DIR,
  OPT_CACHE_STATS,
  OPT_PROJECT_ROOT,
  OPT_CUDA_ARCH,
  OPT_EXTENSIONS,
  OPT_ENABLE,
  OPT_DISABLE,
  OPT_HEADER_FILTER,
  OPT_NO_INFER_INCLUDES,
  OPT_STRICT,
  OPT_STATISTICS,
  OPT_STDIN_FILENAME,
  OPT_FILE_TIMEOUT,
  OPT_FILE_MEMORY,
};

/* --format's names, in the order of wl_out_format */
static const char *const format_names[] = {"text", "json", "sarif", "github", "gitlab", "junit"};

/* Aliases (--colour, --arch) share the value of the option they spell, so
 * that getopt_long does not call their common prefixes ambiguous. */
static const struct option long_opts[] = {
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {"verbose", no_argument, NULL, 'v'},
    {"list-rules", no_argument, NULL, OPT_LIST_RULES},
    {"explain", required_argument, NULL, OPT_EXPLAIN},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"color", required_argument, NULL, OPT_COLOR},
    {"colour", required_argument, NULL, OPT_COLOR},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"exit-zero", no_argument, NULL, OPT_EXIT_ZERO},
    {"report-unused-suppressions", no_argument, NULL, OPT_REPORT_UNUSED},
    {"fix", no_argument, NULL, OPT_FIX},
    {"fix-outside-project", no_argument, NULL, OPT_FIX_OUTSIDE},
    {"diff", no_argument, NULL, OPT_DIFF},
    {"export-fixes", required_argument, NULL, OPT_EXPORT_FIXES},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"no-config", no_argument, NULL, OPT_NO_CONFIG},
    {"no-ignore", no_argument, NULL, OPT_NO_IGNORE},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"write-baseline", required_argument, NULL, OPT_WRITE_BASELINE},
    {"compile-commands", required_argument, NULL, 'p'},
    {"cuda-path", required_argument, NULL, OPT_CUDA_PATH},
    {"no-cuda-path", no_argument, NULL, OPT_NO_CUDA_PATH},
    {"no-pch", no_argument, NULL, OPT_NO_PCH},
    {"no-std-pch", no_argument, NULL, OPT_NO_STD_PCH},
    {"no-cache", no_argument, NULL, OPT_NO_CACHE},
    {"cache-dir", required_argument, NULL, OPT_CACHE_DIR},
    {"cache-stats", no_argument, NULL, OPT_CACHE_STATS},
    {"project-root", required_argument, NULL, OPT_PROJECT_ROOT},
    {"cuda-arch", required_argument, NULL, OPT_CUDA_ARCH},
    {"arch", required_argument, NULL, OPT_CUDA_ARCH},
    {"extensions", required_argument, NULL, OPT_EXTENSIONS},
    {"enable", required_argument, NULL, OPT_ENABLE},
    {"disable", required_argument, NULL, OPT_DISABLE},
    {"jobs", required_argument, NULL, 'j'},
    {"file-timeout", required_argument, NULL, OPT_FILE_TIMEOUT},
    {"file-memory", required_argument, NULL, OPT_FILE_MEMORY},
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"statistics", no_argument, NULL, OPT_STATISTICS},
    {"stdin-filename", required_argument, NULL, OPT_STDIN_FILENAME},
    {"header-filter", required_argument, NULL, OPT_HEADER_FILTER},
    {"no-infer-includes", no_argument, NULL, OPT_NO_INFER_INCLUDES},
    {"strict", no_argument, NULL, OPT_STRICT},
    {NULL, 0, NULL, 0},
};

/* '-': operands come back in order as option 1 (so that paths and options
 * mix, and what follows -- stays apart); ':': no messages from getopt. */
static const char short_opts[] = "-:hvqj:p:o:I:D:U:";

static void bad_format(FILE *err) {
  fputs("warplint: --format must be text, json, sarif, github, gitlab or junit\n", err);
}

/* The message for an option given without its value. */
static void missing_value(int opt, const char *arg, FILE *err) {
  switch (opt) {
  case OPT_FORMAT: bad_format(err); break;
  case OPT_COLOR: fputs("warplint: --color must be auto, always or never\n", err); break;
  case OPT_FAIL_ON: fputs("warplint: --fail-on must be note, warning or error\n", err); break;
  case OPT_CUDA_ARCH: fputs("warplint: invalid --cuda-arch '' (expected e.g. sm_75)\n", err); break;
  case OPT_EXPLAIN: fputs("warplint: --explain needs a rule id\n", err); break;
  case OPT_EXPORT_FIXES: fputs("warplint: --export-fixes needs a file\n", err); break;
  case OPT_CONFIG: fputs("warplint: --config needs a file\n", err); break;
  case OPT_BASELINE: fputs("warplint: --baseline needs a file\n", err); break;
  case OPT_WRITE_BASELINE: fputs("warplint: --write-baseline needs a file\n", err); break;
  case OPT_CUDA_PATH: fputs("warplint: --cuda-path needs a directory\n", err); break;
  case OPT_EXTENSIONS: fputs("warplint: --extensions needs a list such as cu,cuh\n", err); break;
  case OPT_ENABLE: fputs("warplint: --enable needs a rule list\n", err); break;
  case OPT_DISABLE: fputs("warplint: --disable needs a rule list\n", err); break;
  case 'p': fputs("warplint: -p needs a build directory or a compile_commands.json\n", err); break;
  case 'j': fputs("warplint: -j needs a number of jobs between 1 and 1024\n", err); break;
  case 'o': fputs("warplint: -o needs a file\n", err); break;
  case OPT_STDIN_FILENAME: fputs("warplint: --stdin-filename needs a file name\n", err); break;
  case OPT_FILE_TIMEOUT:
    fputs("warplint: --file-timeout needs a number of seconds (0: no limit)\n", err);
    break;
  case OPT_FILE_MEMORY:
    fputs("warplint: --file-memory needs a number of MiB (0: no limit)\n", err);
    break;
  default: fprintf(err, "warplint: %s needs an argument\n", arg); break;
  }
}

/* getopt_long said '?': an unknown option, an ambiguous prefix, or a value
 * given to an option that takes none. */
static void bad_option(const char *arg, int optopt_value, FILE *err) {
  /* optopt: 0 for an unknown or ambiguous long option, the option's value
   * for a long option given a value it does not take, the character for an
   * unknown short option */
  bool is_long = arg && strncmp(arg, "--", 2) == 0 &&
                 (optopt_value == 0 || optopt_value >= 256 || strchr(arg, '='));
  if (!is_long) {
    fprintf(err, "warplint: unknown option '-%c' (see --help)\n",
            optopt_value > 0 && optopt_value < 256 ? optopt_value : '?');
    return;
  }
  const char *name = arg + 2;
  size_t n = strcspn(name, "=");
  if (optopt_value != 0) {
    fprintf(err, "warplint: option '--%.*s' takes no value\n", (int)n, name);
    return;
  }
  wl_buf cands;
  wl_buf_init(&cands);
  size_t hits = 0;
  for (const struct option *lo = long_opts; lo->name; lo++)
    if (strncmp(lo->name, name, n) == 0) {
      wl_buf_printf(&cands, "%s--%s", hits ? ", " : "", lo->name);
      hits++;
    }
  if (hits > 1)
    fprintf(err, "warplint: option '--%.*s' is ambiguous: %s (see --help)\n", (int)n, name,
            wl_buf_str(&cands));
  else
    fprintf(err, "warplint: unknown option '--%.*s' (see --help)\n", (int)n, name);
  wl_buf_free(&cands);
}

/* A registered rule, or a pseudo-rule of the suppression comments. */
static const wl_rule *any_rule(const char *id) {
  const wl_rule *r = wl_rule_find(id);
  for (size_t i = 0; !r && i < wl_npseudo_rules; i++)
    if (strcmp(wl_pseudo_rules[i].id, id) == 0)
      r = &wl_pseudo_rules[i];
  return r;
}

/* Text: one rule a line (the registered rules). JSON: every rule and
 * pseudo-rule with its severity, summary and documentation URI. */
static int list_rules(FILE *out, wl_out_format format) {
  if (format != WL_FMT_JSON) {
    for (size_t r = 0; r < wl_nrules; r++)
      fprintf(out, "%-22s %-8s %s\n", wl_rules[r].id, wl_severity_name(wl_rules[r].severity),
              wl_rules[r].summary);
    return fflush(out) == 0 && !ferror(out) ? 0 : -1;
  }
  struct json_object *root = wl_emit_jobject();
  wl_emit_jset(root, "version", wl_emit_jint(1));
  struct json_object *rules = wl_emit_jarray();
  for (size_t k = 0; k < wl_nrules + wl_npseudo_rules; k++) {
    bool pseudo = k >= wl_nrules;
    const wl_rule *r = pseudo ? &wl_pseudo_rules[k - wl_nrules] : &wl_rules[k];
    struct json_object *o = wl_emit_jobject();
    wl_emit_jset(o, "id", wl_emit_jstring(r->id));
    wl_emit_jset(o, "severity", wl_emit_jstring(wl_severity_name(r->severity)));
    wl_emit_jset(o, "summary", wl_emit_jstring(r->summary));
    /* pseudo-rules are reported about suppression comments, not code */
    wl_emit_jset(o, "kind", wl_emit_jstring(pseudo ? "suppression" : "code"));
    char *uri = wl_rule_help_uri(r->id);
    wl_emit_jset(o, "help_uri", wl_emit_jstring(uri));
    free(uri);
    wl_emit_jpush(rules, o);
  }
  wl_emit_jset(root, "rules", rules);
  int rc = wl_emit_jwrite(out, root);
  json_object_put(root);
  return rc;
}

static wl_parse_result explain(const char *v, FILE *out, FILE *err) {
  if (!need(v, "--explain needs a rule id", err))
    return WL_ARGS_EXIT_USAGE;
  const wl_rule *r = any_rule(v);
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

/* One option and its value (v: optarg). Returns WL_ARGS_RUN to go on. */
static wl_parse_result take_option(wl_cli_opts *o, int opt, const char *v, bool *list, FILE *out,
                                   FILE *err) {
  switch (opt) {
  case 'h': fputs(usage_text, out); return WL_ARGS_EXIT_OK;
  case OPT_VERSION: o->version = true; break;
  case OPT_NO_CUDA_PATH: /* the last of --cuda-path and --no-cuda-path wins */
    o->no_cuda_path = true;
    o->cuda_path = NULL;
    break;
  case OPT_NO_PCH: o->no_pch = true; break;
  case OPT_NO_STD_PCH: o->no_std_pch = true; break;
  case OPT_NO_CACHE: o->no_cache = true; break;
  case OPT_CACHE_STATS: o->cache_stats = true; break;
  case OPT_CACHE_DIR:
    if (!need(v, "--cache-dir needs a directory", err))
      return WL_ARGS_EXIT_USAGE;
    o->cache_dir = v;
    break;
  case OPT_PROJECT_ROOT: {
    struct stat st;
    if (!need(v, "--project-root needs a directory", err))
      return WL_ARGS_EXIT_USAGE;
    if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(err, "warplint: --project-root %s: not a directory\n", v);
      return WL_ARGS_EXIT_USAGE;
    }
    o->project_root = v;
    break;
  }
  case OPT_LIST_RULES: *list = true; break;
  case OPT_EXPLAIN: return explain(v, out, err);
  case 'v': o->verbose = true; break;
  case OPT_EXIT_ZERO: o->exit_zero = true; break;
  case OPT_REPORT_UNUSED: o->report_unused = true; break;
  case OPT_FIX: o->fix = true; break;
  case OPT_FIX_OUTSIDE: o->fix_outside_project = true; break;
  case OPT_DIFF: o->diff = true; break;
  case OPT_NO_CONFIG: o->no_config = true; break;
  case OPT_NO_IGNORE: o->no_ignore = true; break;
  case OPT_STRICT: o->strict = true; break;
  case 'q': o->quiet = true; break;
  case OPT_STATISTICS: o->statistics = true; break;
  case OPT_STDIN_FILENAME:
    if (!need(v, "--stdin-filename needs a file name", err))
      return WL_ARGS_EXIT_USAGE;
    o->stdin_filename = v;
    break;
  case OPT_NO_INFER_INCLUDES: o->no_infer_includes = true; break;
  case OPT_HEADER_FILTER: {
    regex_t re;
    if (regcomp(&re, v, REG_EXTENDED | REG_NOSUB) != 0) {
      fprintf(err, "warplint: --header-filter: invalid regular expression '%s'\n", v);
      return WL_ARGS_EXIT_USAGE;
    }
    regfree(&re);
    o->header_filter = v;
    break;
  }
  case OPT_EXPORT_FIXES:
    if (!need(v, "--export-fixes needs a file", err))
      return WL_ARGS_EXIT_USAGE;
    o->export_fixes = v;
    break;
  case OPT_FORMAT: {
    size_t k = 0, nf = sizeof format_names / sizeof format_names[0];
    while (k < nf && strcmp(v, format_names[k]) != 0)
      k++;
    if (k == nf) {
      bad_format(err);
      return WL_ARGS_EXIT_USAGE;
    }
    o->format = (wl_out_format)k;
    break;
  }
  case 'o':
    if (!need(v, "-o needs a file", err))
      return WL_ARGS_EXIT_USAGE;
    o->output = v;
    break;
  case OPT_COLOR:
    if (strcmp(v, "auto") == 0)
      o->color = WL_COLOR_AUTO;
    else if (strcmp(v, "always") == 0)
      o->color = WL_COLOR_ALWAYS;
    else if (strcmp(v, "never") == 0)
      o->color = WL_COLOR_NEVER;
    else {
      fputs("warplint: --color must be auto, always or never\n", err);
      return WL_ARGS_EXIT_USAGE;
    }
    break;
  case OPT_FAIL_ON:
    if (!wl_severity_parse(v, &o->fail_on)) {
      fputs("warplint: --fail-on must be note, warning or error\n", err);
      return WL_ARGS_EXIT_USAGE;
    }
    break;
  case OPT_CUDA_PATH:
    if (!need(v, "--cuda-path needs a directory", err))
      return WL_ARGS_EXIT_USAGE;
    o->cuda_path = v; /* checked with the toolkit (wl_toolkit_find) */
    o->no_cuda_path = false;
    break;
  case OPT_CUDA_ARCH: {
    unsigned arch = wl_parse_arch(v);
    if (!arch) {
      fprintf(err, "warplint: invalid --cuda-arch '%s' (expected e.g. sm_75)\n", v);
      return WL_ARGS_EXIT_USAGE;
    }
    o->arch = arch;
    break;
  }
  case OPT_EXTENSIONS: {
    if (!need(v, "--extensions needs a list such as cu,cuh", err))
      return WL_ARGS_EXIT_USAGE;
    o->exts.n = 0;
    char *copy = (char *)own(o, wl_xstrdup(v));
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save))
      wl_vec_push(&o->exts, tok[0] == '.' ? tok + 1 : tok);
    break;
  }
  case OPT_ENABLE:
    if (!need(v, "--enable needs a rule list", err) || !rule_list(v, o->enable, err))
      return WL_ARGS_EXIT_USAGE;
    o->enable_given = true;
    break;
  case OPT_DISABLE:
    if (!need(v, "--disable needs a rule list", err) || !rule_list(v, o->disable, err))
      return WL_ARGS_EXIT_USAGE;
    break;
  case OPT_CONFIG:
    if (!need(v, "--config needs a file", err))
      return WL_ARGS_EXIT_USAGE;
    o->config = v;
    break;
  case OPT_BASELINE:
    if (!need(v, "--baseline needs a file", err))
      return WL_ARGS_EXIT_USAGE;
    o->baseline = v;
    break;
  case OPT_WRITE_BASELINE:
    if (!need(v, "--write-baseline needs a file", err))
      return WL_ARGS_EXIT_USAGE;
    o->write_baseline = v;
    break;
  case 'p':
    if (v[0] == '=') /* -p=DIR, as clang-tidy spells it */
      v++;
    if (!need(v, "-p needs a build directory or a compile_commands.json", err))
      return WL_ARGS_EXIT_USAGE;
    o->compdb = v;
    break;
  case 'j': {
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 1 || n > 1024) {
      fputs("warplint: -j needs a number of jobs between 1 and 1024\n", err);
      return WL_ARGS_EXIT_USAGE;
    }
    o->jobs = n;
    break;
  }
  case OPT_FILE_TIMEOUT: {
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 0 || n > 86400) {
      fputs("warplint: --file-timeout needs a number of seconds between 0 (no limit) and 86400\n",
            err);
      return WL_ARGS_EXIT_USAGE;
    }
    o->file_timeout = n;
    break;
  }
  case OPT_FILE_MEMORY: {
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < 0 || (n > 0 && n < 256) || n > (1L << 22)) {
      fputs("warplint: --file-memory needs a number of MiB between 256 and 4194304, or 0 (no "
            "limit)\n",
            err);
      return WL_ARGS_EXIT_USAGE;
    }
    o->file_memory = n;
    break;
  }
  case 'I':
  case 'D':
  case 'U': {
    size_t n = strlen(v) + 3;
    char *s = wl_xmalloc(n);
    snprintf(s, n, "-%c%s", opt, v);
    wl_vec_push(&o->clang_args, (void *)own(o, s));
    break;
  }
  default: /* an option of the table without a case: a bug */
    fprintf(err, "warplint: internal error: option %d not handled\n", opt);
    return WL_ARGS_EXIT_USAGE;
  }
  return WL_ARGS_RUN;
}

wl_parse_result wl_cli_parse(int argc, char **argv, wl_cli_opts *o, FILE *out, FILE *err) {
  memset(o, 0, sizeof *o);
  o->enable = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *o->enable);
  o->disable = wl_xcalloc(wl_nrules ? wl_nrules : 1, sizeof *o->disable);
  o->fail_on = WL_SEV_NOTE;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  o->jobs = ncpu > 0 ? ncpu : 1;
  o->file_timeout = WL_DEFAULT_FILE_TIMEOUT;
  o->file_memory = WL_DEFAULT_FILE_MEMORY;
  bool list = false;
  /* getopt_long keeps its state in libc's optind/optarg/optopt: 0 makes it
   * start over, so that a second parse in one process works too. */
  optind = 0;
  for (;;) {
    int opt = getopt_long(argc, argv, short_opts, long_opts, NULL);
    if (opt == -1)
      break;
    if (opt == 1) { /* an operand: a path */
      wl_vec_push(&o->paths, optarg);
      continue;
    }
    if (opt == ':') {
      missing_value(optopt, argv[optind - 1], err);
      return WL_ARGS_EXIT_USAGE;
    }
    if (opt == '?') {
      bad_option(optind > 0 && optind <= argc ? argv[optind - 1] : NULL, optopt, err);
      return WL_ARGS_EXIT_USAGE;
    }
    wl_parse_result r = take_option(o, opt, optarg, &list, out, err);
    if (r != WL_ARGS_RUN)
      return r;
  }
  /* after --: clang arguments */
  for (int i = optind; i < argc; i++)
    wl_vec_push(&o->clang_args, argv[i]);
  if (o->version) {
    fprintf(out, "warplint %s\n", WARPLINT_VERSION);
    wl_toolkit tk;
    wl_buf e, d;
    wl_buf_init(&e);
    wl_buf_init(&d);
    bool ok = wl_toolkit_find(o->cuda_path, o->no_cuda_path, &tk, NULL, &e);
    if (ok) {
      wl_toolkit_describe(&tk, &d);
      fprintf(out, "CUDA headers: %s\n", wl_buf_str(&d));
    } else {
      fprintf(err, "warplint: %s\n", wl_buf_str(&e));
    }
    wl_toolkit_free(&tk);
    wl_buf_free(&e);
    wl_buf_free(&d);
    return ok ? WL_ARGS_EXIT_OK : WL_ARGS_EXIT_USAGE;
  }
  if (list) {
    if (list_rules(out, o->format) != 0) {
      fputs("warplint: error: could not write the output\n", err);
      return WL_ARGS_EXIT_USAGE;
    }
    return WL_ARGS_EXIT_OK;
  }
  size_t dashes = 0;
  for (size_t i = 0; i < o->paths.n; i++)
    dashes += strcmp(o->paths.v[i], "-") == 0;
  if (o->stdin_filename && dashes == 0)
    wl_vec_push(&o->paths, "-"); /* --stdin-filename alone: read stdin */
  if (dashes > 1) {
    fputs("warplint: '-' (stdin) may be given once\n", err);
    return WL_ARGS_EXIT_USAGE;
  }
  if ((dashes || o->stdin_filename) && (o->fix || o->diff || o->export_fixes)) {
    fputs("warplint: --fix, --diff and --export-fixes need files, not stdin\n", err);
    return WL_ARGS_EXIT_USAGE;
  }
  if (o->statistics && o->format != WL_FMT_TEXT && o->format != WL_FMT_JSON) {
    fputs("warplint: --statistics prints text or JSON (--format=text or json)\n", err);
    return WL_ARGS_EXIT_USAGE;
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
