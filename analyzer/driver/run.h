/* run.h - the state of one run of warplint, shared by cli.c (the run:
 * options, fixes, output), inputs.c (paths, directories, stdin and the
 * compile database into jobs with their settings) and jobs.c (the jobs
 * through the analyzer, in worker threads or processes, and the result
 * cache). Internal to the driver. */
#ifndef WARPLINT_DRIVER_RUN_H
#define WARPLINT_DRIVER_RUN_H

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

/* inputs.c: paths, directories, stdin and the compile database into jobs */
profile *wl_inputs_new_profile(run_ctx *rc, const wl_config *cfg);
void wl_inputs_free_profile(profile *p);
profile *wl_inputs_config_profile(run_ctx *rc, const char *cfg_path);
void wl_inputs_collect_paths(run_ctx *rc);
void wl_inputs_collect_db(run_ctx *rc);
void wl_inputs_collect_db_headers(run_ctx *rc);
void wl_inputs_skip_duplicates(run_ctx *rc);
void wl_inputs_header_roots(run_ctx *rc);
char *wl_inputs_infer_include(const char *name, bool angled, const char *includer, void *ud);
void wl_inputs_prepare_jobs(run_ctx *rc);
void wl_inputs_prepare_headers(run_ctx *rc);

/* jobs.c: the jobs through the analyzer, and the result cache */
void wl_jobs_open_cache(run_ctx *rc);
void wl_jobs_run_all(run_ctx *rc, long nthreads, bool headers);

#endif
