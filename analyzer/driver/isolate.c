/* isolate.c - worker processes for the analysis (isolate.h). The parent forks
 * up to N workers before it starts any thread; it hands each idle worker the
 * index of the next job down a pipe and reads the job's findings back,
 * serialized, from another. A worker that dies (a signal, an exit) while it
 * holds a job turns that job into an input error; a new worker takes over the
 * remaining jobs. Output does not depend on which worker ran which job. */
#define _DEFAULT_SOURCE /* wait4 */
#include "isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdio.h"
#include "rules.h"
#include "suppress.h"
#include "wire.h"

/* A sanitizer build reserves terabytes of address space for its shadow
 * memory: no address-space limit there. */
#if defined(__SANITIZE_ADDRESS__)
#define WL_NO_AS_LIMIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) ||                         \
    __has_feature(thread_sanitizer)
#define WL_NO_AS_LIMIT 1
#endif
#endif

bool wl_isolate_memory_limit_supported(void) {
#ifdef WL_NO_AS_LIMIT
  return false;
#else
  return true;
#endif
}

/* ------------------------------------------------------------------------ */
/* Serialization (wire.h)                                                   */

void wl_iso_encode(wl_buf *b, const wl_findings *f, const wl_iso_result *res) {
  wl_wire_put_str(b, res->error);
  for (int i = 0; i < 3; i++)
    wl_wire_put_u64(b, res->meta[i]);
  wl_wire_put_u64(b, res->strs.n);
  for (size_t i = 0; i < res->strs.n; i++)
    wl_wire_put_str(b, res->strs.v[i]);
  wl_wire_put_u64(b, f->n);
  for (size_t i = 0; i < f->n; i++) {
    const wl_finding *fd = &f->v[i];
    wl_wire_put_str(b, fd->rule);
    wl_wire_put_u64(b, (uint64_t)fd->severity);
    wl_wire_put_str(b, fd->file);
    wl_wire_put_u64(b, fd->line);
    wl_wire_put_u64(b, fd->col);
    wl_wire_put_u64(b, fd->end_line);
    wl_wire_put_u64(b, fd->end_col);
    wl_wire_put_u64(b, fd->offset);
    wl_wire_put_str(b, fd->message);
    wl_wire_put_str(b, fd->line_text);
    wl_wire_put_str(b, fd->suggestion);
    wl_wire_put_u64(b, fd->nnotes);
    for (size_t k = 0; k < fd->nnotes; k++) {
      wl_wire_put_str(b, fd->notes[k].file);
      wl_wire_put_u64(b, fd->notes[k].line);
      wl_wire_put_u64(b, fd->notes[k].col);
      wl_wire_put_str(b, fd->notes[k].message);
    }
    wl_wire_put_u64(b, fd->nedits);
    for (size_t k = 0; k < fd->nedits; k++) {
      wl_wire_put_str(b, fd->edits[k].file);
      wl_wire_put_u64(b, fd->edits[k].offset);
      wl_wire_put_u64(b, fd->edits[k].length);
      wl_wire_put_str(b, fd->edits[k].text);
    }
  }
  wl_wire_put_u64(b, f->nnotices);
  for (size_t k = 0; k < f->nnotices; k++) {
    wl_wire_put_str(b, f->notices[k].file);
    wl_wire_put_u64(b, f->notices[k].line);
    wl_wire_put_u64(b, f->notices[k].col);
    wl_wire_put_str(b, f->notices[k].message);
  }
}

/* The static id of a rule (findings keep rule ids as static strings). */
static const char *rule_id(wl_vec *rule_ids, char *s) {
  const char *known = NULL;
  for (size_t i = 0; i < wl_nrules && !known; i++)
    if (strcmp(wl_rules[i].id, s) == 0)
      known = wl_rules[i].id;
  if (!known && strcmp(s, WL_RULE_INVALID_SUPPRESSION) == 0)
    known = WL_RULE_INVALID_SUPPRESSION;
  if (!known && strcmp(s, WL_RULE_UNUSED_SUPPRESSION) == 0)
    known = WL_RULE_UNUSED_SUPPRESSION;
  if (known) {
    free(s);
    return known;
  }
  wl_vec_push(rule_ids, s);
  return s;
}

static void free_strs(wl_vec *v) {
  for (size_t i = 0; i < v->n; i++)
    free(v->v[i]);
  wl_vec_free(v);
}

static char *or_empty(char *s) { return s ? s : wl_xstrdup(""); }

bool wl_iso_decode(const void *data, size_t len, wl_vec *rule_ids, wl_findings *f,
                   wl_iso_result *res) {
  wl_wire_reader rd;
  wl_wire_reader_init(&rd, data, len);
  wl_wire_reader *r = &rd;
  res->error = wl_wire_get_str(r);
  for (int i = 0; i < 3; i++)
    res->meta[i] = wl_wire_get_u64(r);
  uint64_t ns = wl_wire_get_u64(r);
  for (uint64_t i = 0; i < ns && !r->bad; i++) {
    char *str = wl_wire_get_str(r);
    if (str)
      wl_vec_push(&res->strs, str);
  }
  uint64_t n = wl_wire_get_u64(r);
  for (uint64_t i = 0; i < n && !r->bad; i++) {
    char *rule = wl_wire_get_str(r);
    if (!rule)
      return false;
    unsigned sev = wl_wire_get_u32(r);
    char *file = or_empty(wl_wire_get_str(r));
    unsigned line = wl_wire_get_u32(r), col = wl_wire_get_u32(r), end_line = wl_wire_get_u32(r),
             end_col = wl_wire_get_u32(r);
    wl_finding *fd = wl_findings_add(f, rule_id(rule_ids, rule),
                                     sev <= WL_SEV_ERROR ? (wl_severity)sev : WL_SEV_WARNING, file,
                                     line, col, end_line, end_col, "");
    free(file);
    fd->end_line = end_line;
    fd->end_col = end_col;
    fd->offset = wl_wire_get_u32(r);
    free(fd->message);
    fd->message = or_empty(wl_wire_get_str(r));
    free(fd->line_text);
    fd->line_text = or_empty(wl_wire_get_str(r));
    fd->suggestion = wl_wire_get_str(r);
    uint64_t nn = wl_wire_get_u64(r);
    for (uint64_t k = 0; k < nn && !r->bad; k++) {
      char *nf = or_empty(wl_wire_get_str(r));
      unsigned nl = wl_wire_get_u32(r), nc = wl_wire_get_u32(r);
      char *nm = or_empty(wl_wire_get_str(r));
      wl_finding_add_note(fd, nf, nl, nc, nm);
      free(nf);
      free(nm);
    }
    uint64_t ne = wl_wire_get_u64(r);
    for (uint64_t k = 0; k < ne && !r->bad; k++) {
      char *ef = or_empty(wl_wire_get_str(r));
      unsigned eo = wl_wire_get_u32(r), el = wl_wire_get_u32(r);
      char *et = or_empty(wl_wire_get_str(r));
      wl_finding_add_edit(fd, ef, eo, el, et);
      free(ef);
      free(et);
    }
  }
  uint64_t nn = wl_wire_get_u64(r);
  for (uint64_t k = 0; k < nn && !r->bad; k++) {
    char *nf = or_empty(wl_wire_get_str(r));
    unsigned nl = wl_wire_get_u32(r), nc = wl_wire_get_u32(r);
    char *nm = or_empty(wl_wire_get_str(r));
    wl_findings_add_notice(f, nf, nl, nc, nm);
    free(nf);
    free(nm);
  }
  return !r->bad && r->at == r->n;
}

/* ------------------------------------------------------------------------ */
/* The worker                                                               */

static char *oom_message(const wl_iso_opts *o) {
  char msg[320];
  snprintf(msg, sizeof msg,
           "the analysis of this file ran out of memory (the limit is %zu MiB a worker, "
           "--file-memory) and was stopped; it was not analyzed, the other files were",
           o->memory_mib);
  return wl_xstrdup(msg);
}

/* Whether a process whose resident memory peaked at maxrss_kib came near
 * its address-space limit (an allocation that failed there: libclang
 * recovers from it as from a crash, or aborts). */
static bool near_limit(const wl_iso_opts *o, long maxrss_kib) {
  return o->memory_mib > 0 && wl_isolate_memory_limit_supported() &&
         (long long)maxrss_kib >= (long long)o->memory_mib * 1024 / 2;
}

/* The exit status of a worker that aborted with most of its address space
 * mapped (as_abort): it ran out of memory. */
#define WL_ISO_OOM_EXIT 86

#ifndef WL_NO_AS_LIMIT
/* In a worker under --file-memory: its limit, and its size when it took its
 * first job (with its thread's stack), in pages. */
static long as_limit_pages, as_base_pages;

/* The process's size (VmSize, the first field of /proc/self/statm) in
 * pages; 0 when unknown. open, read and close are async-signal-safe. */
static long vm_pages(void) {
  int fd = open("/proc/self/statm", O_RDONLY);
  if (fd < 0)
    return 0;
  char b[64];
  ssize_t n = read(fd, b, sizeof b - 1);
  close(fd);
  long pages = 0;
  for (ssize_t i = 0; i < n && b[i] >= '0' && b[i] <= '9'; i++)
    pages = pages * 10 + (b[i] - '0');
  return pages;
}

/* SIGABRT in a worker under --file-memory: libclang aborts ("LLVM ERROR: out
 * of memory") when an allocation fails at the limit. How much of it was
 * resident says little (an #include of /dev/zero grows a buffer that is
 * mapped, not touched), so the worker compares its own size with what it
 * had: a buffer of x that fails to double had base + 3x > limit, so grown
 * by a third of the room or more, it ran out of memory, and exits with
 * WL_ISO_OOM_EXIT. Otherwise, or with no /proc, the abort goes on and the
 * parent decides as before (crash_message). */
static bool grew_to_limit(long pages) {
  long room = as_limit_pages - as_base_pages;
  return pages > 0 && as_base_pages > 0 && room > 0 && (pages - as_base_pages) * 3 >= room;
}

static void as_abort(int sig) {
  (void)sig;
  if (grew_to_limit(vm_pages()))
    _exit(WL_ISO_OOM_EXIT);
}

/* The process's largest size so far (VmPeak of /proc/self/status) in pages;
 * 0 when unknown. Not for a signal handler. */
static long vm_peak_pages(void) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f)
    return 0;
  char line[128];
  long kib = 0;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, "VmPeak:", 7) == 0) {
      kib = strtol(line + 7, NULL, 10);
      break;
    }
  fclose(f);
  long page = sysconf(_SC_PAGESIZE);
  return kib > 0 ? kib / ((page > 0 ? page : 4096) / 1024) : 0;
}
#endif

/* Whether a worker whose job failed did so for want of memory: its resident
 * peak came near the limit, or (libclang recovers from a failed allocation
 * as from a crash, "LLVM ERROR: out of memory", and then frees what it can)
 * its size once grew by a third of its room or more, the test of as_abort
 * on the largest size it had: the resident size alone says little of a
 * buffer that is mapped, not touched (an #include of /dev/zero). */
static bool failed_for_memory(const wl_iso_opts *o, long maxrss_kib) {
  if (near_limit(o, maxrss_kib))
    return true;
#ifndef WL_NO_AS_LIMIT
  if (o->memory_mib > 0 && as_limit_pages)
    return grew_to_limit(vm_peak_pages());
#endif
  return false;
}

typedef struct worker_args {
  const wl_iso_opts *o;
  int cmd, res;
} worker_args;

/* Jobs come as 8-byte indices; each result goes back as its length and the
 * serialized result. */
static void *worker_loop(void *arg) {
  worker_args *w = arg;
#ifndef WL_NO_AS_LIMIT
  if (as_limit_pages)
    as_base_pages = vm_pages();
#endif
  void *state = NULL;
  char x[8];
  while (wl_fd_read_all(w->cmd, x, sizeof x)) {
    size_t job = 0;
    for (int i = 0; i < 8; i++)
      job |= (size_t)(unsigned char)x[i] << (8 * i);
    wl_findings f;
    wl_findings_init(&f);
    wl_iso_result res;
    memset(&res, 0, sizeof res);
    w->o->run(job, &state, &f, &res, w->o->ud);
    /* near the memory limit: a failure is for want of memory, and this
     * worker hands its next jobs to a fresh one */
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    bool got = getrusage(RUSAGE_SELF, &ru) == 0;
    bool retire = got && near_limit(w->o, ru.ru_maxrss);
    if (res.error && got && failed_for_memory(w->o, ru.ru_maxrss)) {
      retire = true;
      free(res.error);
      res.error = oom_message(w->o);
    }
    wl_buf b;
    wl_buf_init(&b);
    wl_wire_put_u64(&b, 0); /* length, filled in below */
    wl_wire_put_u64(&b, job);
    wl_iso_encode(&b, &f, &res);
    size_t len = b.len - 8;
    for (int i = 0; i < 8; i++)
      b.data[i] = (char)(unsigned char)((uint64_t)len >> (8 * i));
    bool ok = wl_fd_write_all(w->res, b.data, b.len);
    wl_buf_free(&b);
    wl_findings_free(&f);
    free(res.error);
    free_strs(&res.strs);
    if (!ok || retire)
      break;
  }
  return NULL;
}

static void worker_main(const wl_iso_opts *o, int cmd, int res) {
  worker_args w = {o, cmd, res};
  pthread_attr_t attr;
  pthread_t t;
  bool have_attr = pthread_attr_init(&attr) == 0;
  if (have_attr && pthread_attr_setstacksize(&attr, o->stack) != 0) {
    pthread_attr_destroy(&attr);
    have_attr = false;
  }
  if (pthread_create(&t, have_attr ? &attr : NULL, worker_loop, &w) == 0)
    pthread_join(t, NULL);
  else
    worker_loop(&w);
  if (have_attr)
    pthread_attr_destroy(&attr);
}

/* ------------------------------------------------------------------------ */
/* The parent                                                               */

typedef struct slot {
  pid_t pid; /* 0: no worker */
  int cmd, res;
  bool busy;
  size_t job;
  struct timespec since; /* when the job was sent (CLOCK_MONOTONIC) */
  wl_buf in;             /* bytes read, not yet a whole result */
} slot;

static bool start_worker(const wl_iso_opts *o, slot *s, slot *all, long n) {
  int cmd[2], res[2];
  if (pipe(cmd) != 0)
    return false;
  if (pipe(res) != 0) {
    close(cmd[0]);
    close(cmd[1]);
    return false;
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    close(cmd[0]), close(cmd[1]), close(res[0]), close(res[1]);
    return false;
  }
  if (pid == 0) {
    close(cmd[1]);
    close(res[0]);
#ifndef WL_NO_AS_LIMIT
    if (o->memory_mib > 0) { /* an #include of /dev/zero stops here, not at the timeout */
      struct rlimit rl;
      rl.rlim_cur = rl.rlim_max = (rlim_t)o->memory_mib << 20;
      if (setrlimit(RLIMIT_AS, &rl) == 0) {
        long page = sysconf(_SC_PAGESIZE);
        as_limit_pages = (long)((o->memory_mib << 20) / (size_t)(page > 0 ? page : 4096));
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = as_abort;
        sa.sa_flags = SA_RESETHAND; /* returned: abort() goes on, as with no handler */
        sigemptyset(&sa.sa_mask);
        (void)sigaction(SIGABRT, &sa, NULL);
      }
    }
#endif
    for (long i = 0; i < n; i++) /* the other workers' pipes */
      if (all[i].pid > 0) {
        close(all[i].cmd);
        close(all[i].res);
      }
    worker_main(o, cmd[0], res[1]);
    _exit(0); /* nothing of the parent's (buffers, atexit handlers) runs twice */
  }
  close(cmd[0]);
  close(res[1]);
  s->pid = pid;
  s->cmd = cmd[1];
  s->res = res[0];
  s->busy = false;
  s->in.len = 0;
  return true;
}

/* Reaps the worker; *status and *maxrss_kib (its peak resident memory) when
 * not NULL. */
static void stop_worker(slot *s, int *status, long *maxrss_kib) {
  close(s->cmd);
  close(s->res);
  int st = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  while (wait4(s->pid, &st, 0, &ru) < 0 && errno == EINTR)
    ;
  if (status)
    *status = st;
  if (maxrss_kib)
    *maxrss_kib = ru.ru_maxrss;
  s->pid = 0;
}

static char *crash_message(const wl_iso_opts *o, int status, long maxrss_kib) {
  /* a worker that dies near its address-space limit ran out of memory; so
   * did one that libclang aborted ("LLVM ERROR: out of memory") under a
   * limit with an eighth of it resident: a buffer that doubles (an include
   * of /dev/zero) fails to grow while far less than the limit is touched,
   * how far less depending on what else the worker has mapped */
  if (near_limit(o, maxrss_kib) ||
      (WIFEXITED(status) && WEXITSTATUS(status) == WL_ISO_OOM_EXIT && o->memory_mib > 0 &&
       wl_isolate_memory_limit_supported()) ||
      (WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT && o->memory_mib > 0 &&
       wl_isolate_memory_limit_supported() &&
       (long long)maxrss_kib >= (long long)o->memory_mib * 1024 / 8))
    return oom_message(o);
  char msg[256];
  if (WIFSIGNALED(status))
    snprintf(msg, sizeof msg,
             "the analysis of this file crashed (signal %d, %s); it was not analyzed, the other "
             "files were",
             WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(msg, sizeof msg,
             "the analysis of this file stopped unexpectedly (exit status %d); it was not "
             "analyzed, the other files were",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1);
  return wl_xstrdup(msg);
}

/* Takes every whole result out of s->in. False when one is malformed. */
static bool take_results(const wl_iso_opts *o, slot *s) {
  for (;;) {
    if (s->in.len < 8)
      return true;
    wl_wire_reader hr;
    wl_wire_reader_init(&hr, s->in.data, 8);
    uint64_t len = wl_wire_get_u64(&hr);
    if (len > s->in.len - 8)
      return true;
    wl_wire_reader r;
    wl_wire_reader_init(&r, s->in.data + 8, (size_t)len);
    wl_findings f;
    wl_findings_init(&f);
    size_t job = 0;
    wl_iso_result res;
    memset(&res, 0, sizeof res);
    job = (size_t)wl_wire_get_u64(&r);
    bool ok = !r.bad && wl_iso_decode(r.p + r.at, r.n - r.at, o->rule_ids, &f, &res) && s->busy &&
              job == s->job;
    if (ok) {
      s->busy = false;
      o->done(job, &f, &res, o->ud);
    } else {
      free(res.error);
      free_strs(&res.strs);
    }
    wl_findings_free(&f);
    size_t used = 8 + (size_t)len;
    memmove(s->in.data, s->in.data + used, s->in.len - used);
    s->in.len -= used;
    if (!ok)
      return false;
  }
}

static bool send_job(slot *s, size_t job) {
  char x[8];
  for (int i = 0; i < 8; i++)
    x[i] = (char)(unsigned char)((uint64_t)job >> (8 * i));
  s->busy = true;
  s->job = job;
  clock_gettime(CLOCK_MONOTONIC, &s->since);
  return wl_fd_write_all(s->cmd, x, sizeof x);
}

/* Milliseconds job s has been running. */
static long long busy_ms(const slot *s, const struct timespec *now) {
  return (long long)(now->tv_sec - s->since.tv_sec) * 1000 +
         (now->tv_nsec - s->since.tv_nsec) / 1000000;
}

/* poll's timeout: until the first busy job reaches the limit (-1: none). */
static int poll_timeout(const wl_iso_opts *o, const slot *slots, long n) {
  if (o->timeout_s <= 0)
    return -1;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  long long limit = (long long)o->timeout_s * 1000, wait = -1;
  for (long i = 0; i < n; i++)
    if (slots[i].pid > 0 && slots[i].busy) {
      long long left = limit - busy_ms(&slots[i], &now);
      if (left < 0)
        left = 0;
      if (wait < 0 || left < wait)
        wait = left;
    }
  return wait < 0 ? -1 : (int)(wait > 60000 ? 60000 : wait);
}

/* Kills the workers whose job has run past the limit; their jobs become
 * input errors. Returns how many jobs ended so. */
static size_t expire_jobs(const wl_iso_opts *o, slot *slots, long n) {
  if (o->timeout_s <= 0)
    return 0;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  size_t ended = 0;
  for (long i = 0; i < n; i++) {
    slot *s = &slots[i];
    if (s->pid == 0 || !s->busy || busy_ms(s, &now) < (long long)o->timeout_s * 1000)
      continue;
    kill(s->pid, SIGKILL);
    stop_worker(s, NULL, NULL);
    s->busy = false;
    s->in.len = 0;
    char msg[256];
    snprintf(msg, sizeof msg,
             "the analysis of this file took longer than %ld s (--file-timeout) and was "
             "stopped; it was not analyzed, the other files were",
             o->timeout_s);
    wl_findings none;
    wl_findings_init(&none);
    wl_iso_result res;
    memset(&res, 0, sizeof res);
    res.error = wl_xstrdup(msg);
    o->done(s->job, &none, &res, o->ud);
    ended++;
  }
  return ended;
}

bool wl_isolate_run(const wl_iso_opts *o) {
  long n = o->workers < 1 ? 1 : o->workers;
  slot *slots = wl_xcalloc((size_t)n, sizeof *slots);
  /* a worker that died leaves its job's result pipe closed: no SIGPIPE */
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGPIPE, &sa, &old);
  size_t next = 0, running = 0;
  bool started_any = false;
  struct pollfd *pf = wl_xcalloc((size_t)n, sizeof *pf);
  for (;;) {
    while (next < o->njobs && !o->todo[next])
      next++;
    /* give idle workers a job; start workers as needed */
    for (long i = 0; i < n && next < o->njobs; i++) {
      slot *s = &slots[i];
      if (s->pid == 0 && !start_worker(o, s, slots, n))
        continue;
      started_any = true;
      if (s->busy)
        continue;
      if (!send_job(s, next)) {
        /* the worker is gone: collected below */
      }
      running++;
      next++;
      while (next < o->njobs && !o->todo[next])
        next++;
    }
    if (!started_any)
      break;
    /* no more jobs: let idle workers finish */
    for (long i = 0; i < n && next >= o->njobs; i++)
      if (slots[i].pid > 0 && !slots[i].busy)
        stop_worker(&slots[i], NULL, NULL);
    if (running == 0)
      break;
    nfds_t np = 0;
    for (long i = 0; i < n; i++)
      if (slots[i].pid > 0) {
        pf[np].fd = slots[i].res;
        pf[np].events = POLLIN;
        pf[np].revents = 0;
        np++;
      }
    if (np == 0)
      break;
    int ready = poll(pf, np, poll_timeout(o, slots, n));
    if (ready < 0 && errno != EINTR)
      break;
    size_t expired = expire_jobs(o, slots, n);
    running -= expired;
    if (ready <= 0 || expired)
      continue;
    for (long i = 0; i < n; i++) {
      slot *s = &slots[i];
      if (s->pid == 0)
        continue;
      nfds_t k = 0;
      while (k < np && pf[k].fd != s->res)
        k++;
      if (k == np || !(pf[k].revents & (POLLIN | POLLHUP | POLLERR)))
        continue;
      char chunk[65536];
      ssize_t got = read(s->res, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR)
        continue;
      bool dead = got <= 0;
      if (!dead) {
        wl_buf_add(&s->in, chunk, (size_t)got);
        bool was_busy = s->busy;
        dead = !take_results(o, s);
        if (was_busy && !s->busy)
          running--;
      }
      if (dead) {
        bool was_busy = s->busy;
        size_t job = s->job;
        int status = 0;
        kill(s->pid, SIGKILL); /* a malformed result: the worker cannot be trusted */
        long maxrss = 0;
        stop_worker(s, &status, &maxrss);
        if (was_busy) {
          wl_findings none;
          wl_findings_init(&none);
          wl_iso_result res;
          memset(&res, 0, sizeof res);
          res.error = crash_message(o, status, maxrss);
          o->done(job, &none, &res, o->ud);
          running--;
        }
        s->busy = false;
      }
    }
  }
  for (long i = 0; i < n; i++) {
    if (slots[i].pid > 0)
      stop_worker(&slots[i], NULL, NULL);
    wl_buf_free(&slots[i].in);
  }
  /* jobs no worker could be started for are not skipped silently */
  for (; started_any && next < o->njobs; next++)
    if (o->todo[next]) {
      wl_findings none;
      wl_findings_init(&none);
      wl_iso_result res;
      memset(&res, 0, sizeof res);
      res.error = wl_xstrdup("not analyzed: no worker process could be started");
      o->done(next, &none, &res, o->ud);
    }
  sigaction(SIGPIPE, &old, NULL);
  free(pf);
  free(slots);
  return started_any;
}
