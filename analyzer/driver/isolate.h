/* isolate.h - runs each file's analysis in a worker process, so that a crash
 * (a libclang assertion, a stack overflow on an input nested deeper than any
 * stack) loses only that file: the other files' findings are reported and the
 * crashed file becomes an input error. */
#ifndef WARPLINT_ISOLATE_H
#define WARPLINT_ISOLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "diag.h"

/* What a job returns besides its findings: an error (malloc'ed; NULL when
 * the file was analyzed) and a few numbers of the caller's (content hash). */
typedef struct wl_iso_result {
  char *error;
  uint64_t meta[3];
  wl_vec strs; /* char* (malloc'ed): more of the caller's, handed over like error */
} wl_iso_result;

/* Runs job i in a worker process; *state starts NULL in each worker and may
 * hold what the worker keeps between jobs (a parser). */
typedef void (*wl_iso_run_fn)(size_t i, void **state, wl_findings *out, wl_iso_result *res,
                              void *ud);
/* Called in the parent, in no particular order, with job i's findings (to be
 * moved out) and result (its error is handed over). A crashed job has no
 * findings, an error and zero meta. */
typedef void (*wl_iso_done_fn)(size_t i, wl_findings *findings, wl_iso_result *res, void *ud);

typedef struct wl_iso_opts {
  size_t njobs;
  const bool *todo; /* jobs to run */
  long workers;     /* worker processes at a time (>= 1) */
  size_t stack;     /* stack of the thread that runs the jobs in a worker */
  wl_iso_run_fn run;
  wl_iso_done_fn done;
  void *ud;
  wl_vec *rule_ids;  /* char*: rule ids that are not registered rules, kept alive by the caller */
  long timeout_s;    /* a job still running after this many seconds is killed and becomes an
                        input error (a parse that hangs: an #include of a FIFO); 0: no limit */
  size_t memory_mib; /* address space of a worker (setrlimit RLIMIT_AS), so that a job that
                        grows without bound (an #include of /dev/zero) dies early and becomes
                        an input error; 0: no limit */
} wl_iso_opts;

/* A job's findings and result in the byte format of the worker pipes (also
 * what the result cache stores), appended to b. */
void wl_iso_encode(wl_buf *b, const wl_findings *f, const wl_iso_result *res);
/* The reverse: fills f and res (res zeroed by the caller; its error and strs
 * are the caller's to free, also on failure). Rule ids that are not
 * registered rules are kept alive in rule_ids. False when the bytes are
 * malformed or do not end where they should. */
bool wl_iso_decode(const void *data, size_t len, wl_vec *rule_ids, wl_findings *f,
                   wl_iso_result *res);

/* False in sanitizer builds, where no address-space limit is set. */
bool wl_isolate_memory_limit_supported(void);

/* Runs every job to do. False when no worker could be started at all (then
 * nothing ran and the caller runs the jobs itself). */
bool wl_isolate_run(const wl_iso_opts *o);

#endif
