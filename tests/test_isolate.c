/* test_isolate.c - worker processes (isolate.h): every job's findings come
 * back whole (notes, edits, notices, a NULL suggestion), a job whose worker
 * crashes (SIGSEGV, abort, exit) becomes an error naming the signal while the
 * other jobs keep their findings, a job past --file-timeout is stopped, and
 * the jobs not to do are never run. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "isolate.h"
#include "rules.h"

Suite *wl_suite_isolate(void);

#define NJOBS 7

typedef struct results {
  wl_findings f[NJOBS];
  char *error[NJOBS];
  int calls[NJOBS];
} results;

/* job 2 dies of SIGSEGV, job 4 aborts, job 5 exits; the others report. */
static void run(size_t i, void **state, wl_findings *out, wl_iso_result *res, void *ud) {
  (void)ud;
  if (!*state)
    *state = (void *)1;
  if (i == 2)
    raise(SIGSEGV);
  if (i == 4)
    abort();
  if (i == 5)
    _exit(3);
  if (i == 6) {
    res->error = strdup("cannot read file");
    return;
  }
  res->meta[0] = 1;
  res->meta[1] = 0xfedcba9876543210ULL;
  res->meta[2] = i;
  char msg[64];
  snprintf(msg, sizeof msg, "finding of job %zu", i);
  wl_finding *fd = wl_findings_add(out, wl_rules[0].id, WL_SEV_ERROR, "a.cu", (unsigned)i + 1, 3,
                                   (unsigned)i + 1, 9, msg);
  fd->offset = 1000 + (unsigned)i;
  wl_finding_set_line_text(fd, "  x = __shfl(x, 1);", 19);
  wl_finding_add_note(fd, "b.cuh", 7, 2, "declared here");
  wl_finding_add_edit(fd, "a.cu", 12, 6, "__shfl_sync(0xffffffff, ");
  wl_findings_add(out, "invalid-suppression", WL_SEV_WARNING, "a.cu", 1, 1, 0, 0, "bad comment");
  wl_findings_add_notice(out, "a.cu", 40, 5, "function 'k' not analyzed");
}

static void done(size_t i, wl_findings *f, wl_iso_result *res, void *ud) {
  results *r = ud;
  ck_assert_uint_lt(i, NJOBS);
  r->calls[i]++;
  wl_findings_move(&r->f[i], f);
  r->error[i] = res->error;
  if (!res->error) {
    ck_assert(res->meta[0] == 1 && res->meta[1] == 0xfedcba9876543210ULL && res->meta[2] == i);
  }
}

START_TEST(test_crashes_lose_one_job) {
  results r;
  memset(&r, 0, sizeof r);
  for (size_t i = 0; i < NJOBS; i++)
    wl_findings_init(&r.f[i]);
  bool todo[NJOBS] = {true, false, true, true, true, true, true};
  wl_vec ids = {0};
  wl_iso_opts o = {NJOBS, todo, _i + 1, (size_t)64 << 20, run, done, &r, &ids, 0, 0};
  ck_assert(wl_isolate_run(&o));
  ck_assert_int_eq(r.calls[1], 0); /* not to do */
  for (size_t i = 0; i < NJOBS; i++) {
    if (i == 1)
      continue;
    ck_assert_int_eq(r.calls[i], 1);
    if (i == 2 || i == 4 || i == 5) {
      ck_assert_ptr_nonnull(r.error[i]);
      ck_assert_uint_eq(r.f[i].n, 0);
      ck_assert_ptr_nonnull(strstr(r.error[i], i == 5 ? "exit status 3" : "crashed (signal"));
    } else if (i == 6) {
      ck_assert_str_eq(r.error[i], "cannot read file");
    } else {
      ck_assert_ptr_null(r.error[i]);
      ck_assert_uint_eq(r.f[i].n, 2);
      const wl_finding *fd = &r.f[i].v[0];
      ck_assert_ptr_eq(fd->rule, wl_rules[0].id); /* the static id */
      ck_assert_int_eq(fd->severity, WL_SEV_ERROR);
      ck_assert_uint_eq(fd->line, i + 1);
      ck_assert_uint_eq(fd->end_col, 9);
      ck_assert_uint_eq(fd->offset, 1000 + i);
      ck_assert_str_eq(fd->line_text, "  x = __shfl(x, 1);");
      ck_assert_ptr_null(fd->suggestion);
      ck_assert_uint_eq(fd->nnotes, 1);
      ck_assert_str_eq(fd->notes[0].message, "declared here");
      ck_assert_uint_eq(fd->nedits, 1);
      ck_assert_str_eq(fd->edits[0].text, "__shfl_sync(0xffffffff, ");
      ck_assert_uint_eq(fd->edits[0].length, 6);
      ck_assert_str_eq(r.f[i].v[1].rule, "invalid-suppression");
      ck_assert_uint_eq(r.f[i].nnotices, 1);
      ck_assert_uint_eq(r.f[i].notices[0].line, 40);
    }
  }
  ck_assert_uint_eq(ids.n, 0);
  for (size_t i = 0; i < NJOBS; i++) {
    wl_findings_free(&r.f[i]);
    free(r.error[i]);
  }
  wl_vec_free(&ids);
}
END_TEST

/* job 1 never ends (a parse blocked on a FIFO); the others report at once. */
static void run_hang(size_t i, void **state, wl_findings *out, wl_iso_result *res, void *ud) {
  (void)state, (void)ud;
  if (i == 1)
    for (;;)
      pause();
  res->meta[0] = 1;
  res->meta[1] = 0xfedcba9876543210ULL;
  res->meta[2] = i;
  wl_findings_add(out, wl_rules[0].id, WL_SEV_ERROR, "a.cu", (unsigned)i + 1, 1, 0, 0, "x");
}

/* --file-timeout: the job past the limit is killed and becomes an error; the
 * other jobs (before and after it, on the same or another worker) report. */
START_TEST(test_timeout_stops_one_job) {
  results r;
  memset(&r, 0, sizeof r);
  for (size_t i = 0; i < NJOBS; i++)
    wl_findings_init(&r.f[i]);
  bool todo[NJOBS] = {true, true, true, true, false, false, false};
  wl_vec ids = {0};
  wl_iso_opts o = {NJOBS, todo, _i + 1, (size_t)64 << 20, run_hang, done, &r, &ids, 1, 0};
  ck_assert(wl_isolate_run(&o));
  for (size_t i = 0; i < 4; i++) {
    ck_assert_int_eq(r.calls[i], 1);
    if (i == 1) {
      ck_assert_ptr_nonnull(r.error[i]);
      ck_assert_ptr_nonnull(strstr(r.error[i], "took longer than 1 s (--file-timeout)"));
      ck_assert_uint_eq(r.f[i].n, 0);
    } else {
      ck_assert_ptr_null(r.error[i]);
      ck_assert_uint_eq(r.f[i].n, 1);
    }
  }
  for (size_t i = 0; i < NJOBS; i++) {
    wl_findings_free(&r.f[i]);
    free(r.error[i]);
  }
  wl_vec_free(&ids);
}
END_TEST

/* job 0 maps address space it never touches until the worker's limit
 * (--file-memory) refuses more, then aborts, as libclang does when a buffer
 * that doubles (an #include of /dev/zero) cannot grow: it ran out of memory,
 * whatever little was resident; job 1 aborts with nothing mapped: a crash. */
static void run_map(size_t i, void **state, wl_findings *out, wl_iso_result *res, void *ud) {
  (void)state, (void)out, (void)res, (void)ud;
  if (i == 0)
    while (mmap(NULL, (size_t)16 << 20, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
                0) != MAP_FAILED)
      ;
  abort();
}

START_TEST(test_abort_at_memory_limit) {
  if (!wl_isolate_memory_limit_supported())
    return; /* a sanitizer build: no address-space limit */
  results r;
  memset(&r, 0, sizeof r);
  for (size_t i = 0; i < NJOBS; i++)
    wl_findings_init(&r.f[i]);
  bool todo[NJOBS] = {true, true, false, false, false, false, false};
  wl_vec ids = {0};
  wl_iso_opts o = {NJOBS, todo, 1, (size_t)64 << 20, run_map, done, &r, &ids, 0, 512};
  ck_assert(wl_isolate_run(&o));
  ck_assert_ptr_nonnull(r.error[0]);
  ck_assert_ptr_nonnull(strstr(r.error[0], "ran out of memory (the limit is 512 MiB"));
  ck_assert_ptr_nonnull(r.error[1]);
  ck_assert_ptr_nonnull(strstr(r.error[1], "crashed (signal"));
  for (size_t i = 0; i < NJOBS; i++) {
    wl_findings_free(&r.f[i]);
    free(r.error[i]);
  }
  wl_vec_free(&ids);
}
END_TEST

Suite *wl_suite_isolate(void) {
  Suite *s = suite_create("isolate");
  TCase *tc = tcase_create("isolate");
  tcase_add_loop_test(tc, test_crashes_lose_one_job, 0, 3);  /* 1, 2 and 3 workers */
  tcase_add_loop_test(tc, test_timeout_stops_one_job, 0, 2); /* 1 and 2 workers */
  tcase_add_test(tc, test_abort_at_memory_limit);
  suite_add_tcase(s, tc);
  return s;
}
