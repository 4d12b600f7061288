/* pch.c - the run's shared precompiled headers (see pch.h). The directory is
 * made (mkdtemp) by the process that creates the cache, before any worker
 * process is forked; each distinct argument list has one file there, named by
 * a hash of the arguments. The first process or thread that needs it builds
 * it while holding an flock on a lock file beside it, so that the others
 * (threads or forked workers alike) wait and then load it; a process keeps
 * what it learnt in memory. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#define _DEFAULT_SOURCE   /* flock */
#include "pch.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"

typedef struct pch_entry {
  char *key;     /* the arguments, one per line */
  char *path;    /* the .pch file; NULL: none for these arguments */
  bool rejected; /* a file could not load it: parse without one */
} pch_entry;

struct wl_pch_cache {
  pthread_mutex_t lock;
  char *dir;   /* NULL when it could not be created */
  pid_t owner; /* the process that removes the directory */
  pch_entry *v;
  size_t n, cap;
  unsigned built, failed;
};

wl_pch_cache *wl_pch_cache_new(void) {
  wl_pch_cache *c = wl_xcalloc(1, sizeof *c);
  pthread_mutex_init(&c->lock, NULL);
  const char *tmp = getenv("TMPDIR");
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s/warplint-pch-XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
  c->dir = wl_buf_detach(&b);
  if (!mkdtemp(c->dir)) {
    free(c->dir);
    c->dir = NULL;
  }
  c->owner = getpid();
  return c;
}

void wl_pch_cache_free(wl_pch_cache *c) {
  if (!c)
    return;
  if (c->dir && c->owner == getpid()) {
    DIR *d = opendir(c->dir);
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
      if (de->d_name[0] == '.')
        continue;
      wl_buf p;
      wl_buf_init(&p);
      wl_buf_printf(&p, "%s/%s", c->dir, de->d_name);
      unlink(wl_buf_str(&p));
      wl_buf_free(&p);
    }
    if (d)
      closedir(d);
    rmdir(c->dir);
  }
  for (size_t i = 0; i < c->n; i++) {
    free(c->v[i].path);
    free(c->v[i].key);
  }
  free(c->dir);
  free(c->v);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

void wl_pch_stats(wl_pch_cache *c, unsigned *built, unsigned *failed) {
  pthread_mutex_lock(&c->lock);
  *built = c->built;
  *failed = c->failed;
  pthread_mutex_unlock(&c->lock);
}

/* Parses `header` with the arguments and saves it to `out`; true when the
 * file is complete. */
static bool build(CXIndex index, const char *header, const char *const *args, int nargs,
                  struct CXUnsavedFile *uf, unsigned nuf, const char *out) {
  CXTranslationUnit tu = NULL;
  /* a complete unit, not CXTranslationUnit_Incomplete: the headers' pending
   * template instantiations are then done here once, not in every file that
   * loads the result (25 ms a file for <cmath> alone) */
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                   CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles |
                   CXTranslationUnit_ForSerialization;
  if (clang_parseTranslationUnit2(index, header, args, nargs, uf, nuf, flags, &tu) !=
          CXError_Success ||
      !tu)
    return false;
  /* a fatal error (a header that cannot be read) would freeze a broken state */
  bool ok = true;
  unsigned nd = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < nd && ok; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    ok = clang_getDiagnosticSeverity(d) < CXDiagnostic_Fatal;
    clang_disposeDiagnostic(d);
  }
  /* written under another name, then renamed: a reader never sees half a file */
  wl_buf tmp;
  wl_buf_init(&tmp);
  wl_buf_printf(&tmp, "%s.%ld.tmp", out, (long)getpid());
  ok = ok && clang_saveTranslationUnit(tu, wl_buf_str(&tmp), clang_defaultSaveOptions(tu)) ==
                 CXSaveError_None;
  clang_disposeTranslationUnit(tu);
  ok = ok && rename(wl_buf_str(&tmp), out) == 0;
  if (!ok)
    unlink(wl_buf_str(&tmp));
  wl_buf_free(&tmp);
  return ok;
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file for `key` in the shared directory, built there when no process
 * has yet: NULL when it cannot be had. */
static char *shared_file(wl_pch_cache *c, const char *key, CXIndex index, const char *header,
                         const char *const *args, int nargs, struct CXUnsavedFile *uf, unsigned nuf,
                         bool *built) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (const char *s = key; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s/%016llx", c->dir, (unsigned long long)h);
  char *base = wl_buf_detach(&b);
  char pch[4200], lock[4200], failed[4200], keyfile[4200];
  snprintf(pch, sizeof pch, "%s.pch", base);
  snprintf(lock, sizeof lock, "%s.lock", base);
  snprintf(failed, sizeof failed, "%s.failed", base);
  snprintf(keyfile, sizeof keyfile, "%s.args", base);
  free(base);
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    return NULL;
  char *result = NULL;
  if (flock(fd, LOCK_EX) == 0) {
    /* the arguments are kept beside the file: a hash collision is not a match */
    size_t klen = 0;
    char *seen = wl_read_file(keyfile, &klen);
    bool same = seen && strcmp(seen, key) == 0;
    if (exists(pch) && same) {
      result = wl_xstrdup(pch);
    } else if (!exists(failed) && !seen) {
      FILE *kf = fopen(keyfile, "w");
      bool wrote = kf && fputs(key, kf) >= 0;
      if (kf && fclose(kf) != 0)
        wrote = false;
      if (wrote && build(index, header, args, nargs, uf, nuf, pch)) {
        result = wl_xstrdup(pch);
        *built = true;
      } else {
        FILE *ff = fopen(failed, "w");
        if (ff)
          fclose(ff);
      }
    }
    free(seen);
    flock(fd, LOCK_UN);
  }
  close(fd);
  return result;
}

const char *wl_pch_get(wl_pch_cache *c, CXIndex index, const char *header, const char *const *args,
                       int nargs, struct CXUnsavedFile *uf, unsigned nuf) {
  if (!c->dir)
    return NULL;
  wl_buf key;
  wl_buf_init(&key);
  for (int i = 0; i < nargs; i++)
    wl_buf_printf(&key, "%s\n", args[i]);
  /* the lock is held across the build: the other threads of this process
   * need the same file, or wait little for another */
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->n; i++)
    if (strcmp(c->v[i].key, wl_buf_str(&key)) == 0) {
      wl_buf_free(&key);
      const char *path = c->v[i].rejected ? NULL : c->v[i].path;
      pthread_mutex_unlock(&c->lock);
      return path;
    }
  bool built = false;
  char *path = shared_file(c, wl_buf_str(&key), index, header, args, nargs, uf, nuf, &built);
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 4;
    c->v = wl_xrealloc(c->v, c->cap * sizeof *c->v);
  }
  c->v[c->n].key = wl_buf_detach(&key);
  c->v[c->n].path = path;
  c->v[c->n].rejected = false;
  c->n++;
  if (built)
    c->built++;
  else if (!path)
    c->failed++;
  pthread_mutex_unlock(&c->lock);
  return path;
}

void wl_pch_reject(wl_pch_cache *c, const char *path) {
  pthread_mutex_lock(&c->lock);
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].path && strcmp(c->v[i].path, path) == 0 && !c->v[i].rejected) {
      /* the path stays alive: a thread may still be using it */
      c->v[i].rejected = true;
      c->failed++;
    }
  pthread_mutex_unlock(&c->lock);
}
