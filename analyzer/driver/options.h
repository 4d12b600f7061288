/* options.h - the command line: every option, its parsing and the --help
 * text. No I/O beyond printing help, versions, rule lists and usage errors. */
#ifndef WARPLINT_OPTIONS_H
#define WARPLINT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

#include "buf.h"
#include "diag.h"

typedef enum wl_out_format {
  WL_FMT_TEXT,
  WL_FMT_JSON,
  WL_FMT_SARIF,
  WL_FMT_GITHUB, /* GitHub Actions annotations */
  WL_FMT_GITLAB, /* GitLab Code Quality */
  WL_FMT_JUNIT,
} wl_out_format;
/* --file-timeout's default: a file whose parse and analysis take longer is
 * stopped and reported as not analyzed (exit 2), so no input hangs a run. */
#define WL_DEFAULT_FILE_TIMEOUT 300
/* --file-memory: MiB of address space a worker process may use */
#define WL_DEFAULT_FILE_MEMORY 4096

typedef enum wl_color_mode { WL_COLOR_AUTO, WL_COLOR_ALWAYS, WL_COLOR_NEVER } wl_color_mode;

typedef struct wl_cli_opts {
  wl_out_format format;
  wl_color_mode color;
  wl_vec paths;             /* const char* as given */
  wl_vec clang_args;        /* const char*: -I/-D/-U and everything after -- */
  wl_vec owned;             /* char* to free */
  wl_vec exts;              /* const char* without the dot; empty: not given */
  const char *cuda_path;    /* --cuda-path */
  bool no_cuda_path;        /* --no-cuda-path: the built-in prelude */
  bool no_pch;              /* --no-pch: no shared precompiled headers */
  bool no_std_pch;          /* --no-std-pch: no standard headers in them */
  bool no_cache;            /* --no-cache: neither read nor write the result cache */
  const char *cache_dir;    /* --cache-dir; NULL: wl_cache_default_dir() */
  bool cache_stats;         /* --cache-stats: say which files came from the cache */
  const char *project_root; /* --project-root; NULL: wl_project_root() */
  bool version;             /* --version */
  unsigned arch;            /* 0: not given */
  bool verbose;
  long jobs;
  long file_timeout;          /* --file-timeout seconds per file (0: none) */
  long file_memory;           /* --file-memory MiB per worker process (0: none) */
  bool enable_given;          /* --enable: only the rules in enable[] */
  bool *enable;               /* per rule */
  bool *disable;              /* per rule */
  const char *compdb;         /* -p */
  const char *config;         /* --config */
  bool no_config;             /* --no-config */
  bool no_ignore;             /* --no-ignore: directories are walked without .gitignore */
  const char *baseline;       /* --baseline */
  const char *write_baseline; /* --write-baseline */
  bool report_unused;         /* --report-unused-suppressions */
  wl_severity fail_on;        /* --fail-on (default: note, i.e. any finding) */
  bool exit_zero;             /* --exit-zero */
  bool fix;                   /* --fix: apply automatic fixes in place */
  bool fix_outside_project;   /* --fix-outside-project: --fix may write anywhere */
  bool diff;                  /* --diff: print the fixes as a unified diff, change nothing */
  const char *export_fixes;   /* --export-fixes FILE: clang-tidy YAML replacements */
  const char *output;         /* -o FILE: the report goes there (atomically), not stdout */
  bool quiet;                 /* -q, --quiet: findings only (no summary, progress or notes) */
  bool statistics;            /* --statistics: counts per rule instead of the findings */
  const char *stdin_filename; /* --stdin-filename NAME: the source "-" (stdin) is NAME */
  const char *header_filter;  /* --header-filter=REGEX: headers whose findings are reported */
  bool strict;                /* --strict: exit 2 when the analysis was incomplete */
  bool no_infer_includes;     /* --no-infer-includes */
} wl_cli_opts;

typedef enum wl_parse_result {
  WL_ARGS_RUN,       /* analyze */
  WL_ARGS_EXIT_OK,   /* --help, --version, --list-rules, --explain: done */
  WL_ARGS_EXIT_USAGE /* a usage error, already reported on err */
} wl_parse_result;

/* Fills o (always; free it with wl_cli_opts_free). */
wl_parse_result wl_cli_parse(int argc, char **argv, wl_cli_opts *o, FILE *out, FILE *err);
void wl_cli_opts_free(wl_cli_opts *o);

#endif
