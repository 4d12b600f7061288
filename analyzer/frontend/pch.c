/* pch.c - the run's shared precompiled headers (see pch.h). The directory is
 * made (mkdtemp) by the process that creates the cache, before any worker
 * process is forked; each distinct argument list has one file there, named by
 * a hash of the arguments. The first process or thread that needs it builds
 * it while holding an flock on a lock file beside it, so that the others
 * (threads or forked workers alike) wait and then load it; a process keeps
 * what it learnt in memory.
 * The store keeps built files across runs: an entry is a directory named by
 * the hash of the key (arguments, unsaved files' contents, libclang's
 * version) holding the key, the files the build read (path, size, mtime,
 * hash of the bytes) and the .pch; it is used only when the key and every
 * file are the same, through a hard link (or a copy) in the run's directory,
 * so that a later replacement of the entry never changes a file a run loads.
 * Entries are written under another name and renamed, under an flock of
 * their own, and the oldest are removed beyond WL_PCH_STORE_MAX. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#define _DEFAULT_SOURCE   /* flock, st_mtim */
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
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "fdio.h"
#include "hmap.h"
#include "parse.h"
#include "paths.h"
#include "pch_trim.h"

/* Entries the store keeps (the least recently used are removed): a run in
 * one mode uses up to four (with and without the cooperative groups and the
 * standard headers), a benchmark alternating two modes eight. */
/* A run of a tree with a toolkit may need a dozen or more: the plain
 * header, with the cooperative groups, with the standard headers, with
 * thrust and cub, each for every set of include directories inference
 * gives (cuda-samples: about 20); fewer made later runs rebuild them */
#define WL_PCH_STORE_MAX 32

typedef struct pch_entry {
  char *key;     /* the arguments, one per line */
  char *path;    /* the .pch file; NULL: none for these arguments */
  bool rejected; /* a file could not load it: parse without one */
} pch_entry;

struct wl_pch_cache {
  pthread_mutex_t lock;
  char *dir;   /* NULL when it could not be created */
  char *store; /* the directory kept across runs; NULL: none */
  pid_t owner; /* the process that removes the directory */
  pch_entry *v;
  size_t n, cap;
  unsigned built, failed, reused;
  wl_hmap shadow; /* "pch\ndir" (owned) -> 1: dir shadows a header of pch, 2: it does not */
};

wl_pch_cache *wl_pch_cache_new(const char *store) {
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
  wl_hmap_init(&c->shadow, true);
  if (store && *store == '/' && wl_make_dirs(store))
    c->store = wl_xstrdup(store);
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
  for (size_t i = 0; i < c->shadow.cap; i++)
    free((void *)c->shadow.slots[i].key);
  wl_hmap_free(&c->shadow);
  free(c->dir);
  free(c->store);
  free(c->v);
  pthread_mutex_destroy(&c->lock);
  free(c);
}

void wl_pch_stats(wl_pch_cache *c, unsigned *built, unsigned *failed, unsigned *reused) {
  pthread_mutex_lock(&c->lock);
  *built = c->built;
  *failed = c->failed;
  *reused = c->reused;
  pthread_mutex_unlock(&c->lock);
}

typedef struct dep_list {
  CXTranslationUnit tu;
  wl_buf text;
  wl_hmap dirs; /* the directories of the files and of the search path (owned keys) */
  bool bad;     /* a file that cannot be checked later */
  time_t start; /* when the build began */
} dep_list;

/* A directory whose entries decided a lookup: a file added there later may
 * be found first, so its time is kept ("D sec nsec path"). */
static void add_dir(dep_list *dl, const char *dir, size_t n) {
  char *d = wl_xmalloc(n + 1);
  memcpy(d, dir, n);
  d[n] = '\0';
  struct stat st;
  if (wl_hmap_get(&dl->dirs, d)) {
    free(d);
  } else if (strchr(d, '\n') || stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) {
    wl_hmap_put(&dl->dirs, d, d, false); /* a missing one: created later, it changes its parent */
  } else {
    wl_hmap_put(&dl->dirs, d, d, false);
    wl_buf_printf(&dl->text, "D %lld %ld %s\n", (long long)st.st_mtim.tv_sec,
                  (long)st.st_mtim.tv_nsec, d);
  }
}

/* One line of an entry's list of files: "hash size mtime_s mtime_ns ctime_s
 * ctime_ns dev ino path". A later check reads the file again only when its
 * status change time, device or inode differ (a copy, a restore that kept
 * the time, a write): its own writes change the change time, which no one
 * can set. A file changed in the two seconds before the build began (it may
 * have changed between clang's read and this stat) gets 0 0 0 0: always read
 * again. */
static void dep_line(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data) {
  (void)stack;
  (void)depth;
  dep_list *ud = data;
  CXTranslationUnit tu = ud->tu;
  wl_buf *out = &ud->text;
  CXString s = clang_getFileName(file);
  const char *name = clang_getCString(s);
  size_t np = strlen(WL_PRELUDE_DIR);
  struct stat st;
  size_t size = 0;
  const char *text = name ? clang_getFileContents(tu, file, &size) : NULL;
  if (!name || !*name || (strncmp(name, WL_PRELUDE_DIR, np) == 0 && name[np] == '/')) {
    /* an unsaved file: its contents are part of the key */
  } else if (!text || strchr(name, '\n') || stat(name, &st) != 0) {
    ud->bad = true;
  } else {
    /* 0 0 0 0 for a file changed since shortly before the build */
    long long csec = 0;
    long cnsec = 0;
    unsigned long long dev = 0, ino = 0;
    if (st.st_ctim.tv_sec + 2 < ud->start) {
      csec = (long long)st.st_ctim.tv_sec;
      cnsec = (long)st.st_ctim.tv_nsec;
      dev = (unsigned long long)st.st_dev;
      ino = (unsigned long long)st.st_ino;
    }
    wl_buf_printf(out, "%016llx %zu %lld %ld %lld %ld %llu %llu %s\n",
                  (unsigned long long)wl_fnv1a(WL_FNV_START, text, size), size,
                  (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec, csec, cnsec, dev, ino,
                  name);
    const char *slash = strrchr(name, '/');
    if (slash && slash > name)
      add_dir(ud, name, (size_t)(slash - name));
  }
  clang_disposeString(s);
}

/* The headers that define a macro, each once, with whether it is a system
 * header: "S path" or "U path" (the companion file WL_PCH_COMPANION_SYS). */
typedef struct sys_scan {
  wl_hmap seen; /* CXFile -> itself */
  wl_buf *out;
} sys_scan;

static enum CXChildVisitResult sys_line(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  if (clang_getCursorKind(c) != CXCursor_MacroDefinition)
    return CXChildVisit_Continue;
  sys_scan *s = data;
  CXSourceLocation at = clang_getCursorLocation(c);
  CXFile f = NULL;
  clang_getSpellingLocation(at, &f, NULL, NULL, NULL);
  if (!f || wl_hmap_get(&s->seen, f))
    return CXChildVisit_Continue;
  wl_hmap_put(&s->seen, f, f, false);
  CXString n = clang_getFileName(f);
  const char *name = clang_getCString(n);
  if (name && *name && !strchr(name, '\n'))
    wl_buf_printf(s->out, "%c %s\n", clang_Location_isInSystemHeader(at) ? 'S' : 'U', name);
  clang_disposeString(n);
  return CXChildVisit_Continue;
}

/* Parses `header` with the arguments and saves it to `out`; true when the
 * file is complete. deps (when not NULL) gets the files it read, one
 * dep_line each, and *deps_ok whether all of them could be listed; sys
 * (when not NULL) the headers that define macros (sys_line). */
static bool build(CXIndex index, const char *header, const char *const *args, int nargs,
                  struct CXUnsavedFile *uf, unsigned nuf, unsigned how, const char *out,
                  wl_buf *deps, bool *deps_ok, wl_buf *sys) {
  CXTranslationUnit tu = NULL;
  time_t start = time(NULL);
  /* a complete unit, not CXTranslationUnit_Incomplete: the headers' pending
   * template instantiations are then done here once, not in every file that
   * loads the result (25 ms a file for <cmath> alone) */
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                   CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles |
                   CXTranslationUnit_ForSerialization;
  if (how & WL_PCH_SKIP_BODIES)
    flags |= CXTranslationUnit_SkipFunctionBodies;
  if (clang_parseTranslationUnit2(index, header, args, nargs, uf, nuf, flags, &tu) !=
          CXError_Success ||
      !tu)
    return false;
  /* a fatal error (a header that cannot be read) would freeze a broken
   * state; when strict (WL_PCH_STRICT), so would any error */
  bool ok = true;
  unsigned nd = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < nd && ok; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    ok = clang_getDiagnosticSeverity(d) <
         (how & WL_PCH_STRICT ? CXDiagnostic_Error : CXDiagnostic_Fatal);
    clang_disposeDiagnostic(d);
  }
  /* written under another name, then renamed: a reader never sees half a file */
  wl_buf tmp;
  wl_buf_init(&tmp);
  wl_buf_printf(&tmp, "%s.%ld.tmp", out, (long)getpid());
  ok = ok && clang_saveTranslationUnit(tu, wl_buf_str(&tmp), clang_defaultSaveOptions(tu)) ==
                 CXSaveError_None;
  /* the files that load it do not read all its device functions (pch_trim.h) */
  wl_pch_trim_result trimmed;
  ok = ok && wl_pch_trim_file(wl_buf_str(&tmp), &trimmed);
  if (ok && deps) {
    dep_list dl = {tu, {0}, {0}, false, start};
    wl_buf_init(&dl.text);
    wl_hmap_init(&dl.dirs, true);
    clang_getInclusions(tu, dep_line, &dl);
    /* the search path given in the arguments */
    static const char *const opts[] = {"-isystem", "-idirafter", "-iquote", "-I"};
    for (int i = 0; i < nargs; i++)
      for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        size_t n = strlen(opts[k]);
        if (strncmp(args[i], opts[k], n) != 0)
          continue;
        const char *d = args[i][n] ? args[i] + n : i + 1 < nargs ? args[i + 1] : "";
        if (*d && strncmp(d, WL_PRELUDE_DIR, strlen(WL_PRELUDE_DIR)) != 0)
          add_dir(&dl, d, strlen(d));
        break;
      }
    for (size_t i = 0; i < dl.dirs.cap; i++)
      free((void *)dl.dirs.slots[i].key);
    wl_hmap_free(&dl.dirs);
    *deps_ok = !dl.bad;
    if (!dl.bad && dl.text.len)
      wl_buf_add(deps, dl.text.data, dl.text.len);
    wl_buf_free(&dl.text);
  }
  if (ok && sys) {
    sys_scan sc = {{0}, sys};
    wl_hmap_init(&sc.seen, false);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), sys_line, &sc);
    wl_hmap_free(&sc.seen);
  }
  clang_disposeTranslationUnit(tu);
  ok = ok && rename(wl_buf_str(&tmp), out) == 0;
  if (!ok)
    unlink(wl_buf_str(&tmp));
  wl_buf_free(&tmp);
  return ok;
}

/* ------------------------------------------------------------------------ */
/* The store: precompiled headers kept across runs                         */

/* Copies src to a new file dst; false (dst removed) on failure. */
static bool copy_file(const char *src, const char *dst) {
  int in = open(src, O_RDONLY | O_CLOEXEC);
  if (in < 0)
    return false;
  int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  bool ok = out >= 0;
  char buf[1 << 16];
  ssize_t n;
  while (ok && (n = read(in, buf, sizeof buf)) != 0)
    ok = n > 0 && wl_fd_write_all(out, buf, (size_t)n);
  close(in);
  if (out >= 0 && close(out) != 0)
    ok = false;
  if (!ok && out >= 0)
    unlink(dst);
  return ok;
}

/* dst becomes the same file as src: a hard link, else a copy. */
static bool link_or_copy(const char *src, const char *dst) {
  return link(src, dst) == 0 || copy_file(src, dst);
}

static void buf_reset(wl_buf *b) {
  b->len = 0;
  if (b->data)
    b->data[0] = '\0';
}

static bool write_text(const char *path, const char *text) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return false;
  bool ok = wl_fd_write_all(fd, text, strlen(text));
  return close(fd) == 0 && ok;
}

/* A file's line [l, nl) of an entry's list (dep_line): its fields in *f,
 * and where its path starts; NULL when it is not such a line. */
typedef struct dep_file {
  unsigned long long hash, dev, ino;
  size_t size;
  long long sec, csec;
  long nsec, cnsec;
} dep_file;

static const char *dep_file_of(const char *l, const char *nl, dep_file *f) {
  int used = 0;
  if (sscanf(l, "%llx %zu %lld %ld %lld %ld %llu %llu %n", &f->hash, &f->size, &f->sec, &f->nsec,
             &f->csec, &f->cnsec, &f->dev, &f->ino, &used) != 8 ||
      used <= 0 || l + used >= nl)
    return NULL;
  return l + used;
}

/* Whether every file of an entry's list still has the size, time and bytes
 * it had when the entry was built (the bytes are not read again when the
 * status change time, device and inode are those recorded: dep_line), and
 * every directory its time. */
static bool deps_current(const char *list) {
  for (const char *l = list; *l;) {
    const char *nl = strchr(l, '\n');
    if (!nl)
      return false;
    if (l[0] == 'D' && l[1] == ' ') {
      long long sec = 0;
      long nsec = 0;
      int used = 0;
      if (sscanf(l, "D %lld %ld %n", &sec, &nsec, &used) != 2 || used <= 0 || l + used >= nl)
        return false;
      char *path = wl_xmalloc((size_t)(nl - l - used) + 1);
      memcpy(path, l + used, (size_t)(nl - l - used));
      path[nl - l - used] = '\0';
      struct stat st;
      bool ok = stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
                (long long)st.st_mtim.tv_sec == sec && (long)st.st_mtim.tv_nsec == nsec;
      free(path);
      if (!ok)
        return false;
      l = nl + 1;
      continue;
    }
    dep_file f;
    const char *at = dep_file_of(l, nl, &f);
    if (!at)
      return false;
    char *path = wl_xmalloc((size_t)(nl - at) + 1);
    memcpy(path, at, (size_t)(nl - at));
    path[nl - at] = '\0';
    struct stat st;
    bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == f.size &&
              (long long)st.st_mtim.tv_sec == f.sec && (long)st.st_mtim.tv_nsec == f.nsec;
    bool unchanged = ok && f.ino && (long long)st.st_ctim.tv_sec == f.csec &&
                     (long)st.st_ctim.tv_nsec == f.cnsec &&
                     (unsigned long long)st.st_dev == f.dev &&
                     (unsigned long long)st.st_ino == f.ino;
    if (ok && !unchanged) {
      size_t len = 0;
      char *text = wl_read_file(path, &len);
      ok = text && len == f.size && wl_fnv1a(WL_FNV_START, text, len) == f.hash;
      free(text);
    }
    free(path);
    if (!ok)
      return false;
    l = nl + 1;
  }
  return true;
}

static char *store_path(const wl_pch_cache *c, uint64_t h, const char *tail) {
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s/%016llx%s", c->store, (unsigned long long)h, tail);
  return wl_buf_detach(&b);
}

/* Removes an entry directory and the files in it (its companion files
 * too, those of other versions included). */
static void remove_entry(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *de;
  while (d && (de = readdir(d)) != NULL) {
    if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
      continue;
    wl_buf p;
    wl_buf_init(&p);
    wl_buf_printf(&p, "%s/%s", dir, de->d_name);
    unlink(wl_buf_str(&p));
    wl_buf_free(&p);
  }
  if (d)
    closedir(d);
  rmdir(dir);
}

/* An flock on the entry's lock file; -1 when it cannot be had. */
static int lock_entry(const wl_pch_cache *c, uint64_t h) {
  char *lock = store_path(c, h, ".lock");
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  free(lock);
  if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
    close(fd);
    fd = -1;
  }
  return fd;
}

static void unlock_entry(int fd) {
  if (fd >= 0) {
    flock(fd, LOCK_UN);
    close(fd);
  }
}

/* The text of the file `name` of an entry directory, or NULL. */
static char *entry_part(const char *dir, const char *name) {
  wl_buf p;
  wl_buf_init(&p);
  wl_buf_printf(&p, "%s/%s", dir, name);
  size_t len = 0;
  char *t = wl_read_file(wl_buf_str(&p), &len);
  wl_buf_free(&p);
  return t;
}

/* What names one build of an entry: its key and the list of the files it
 * read, as in the entry (companion files carry it). */
static uint64_t entry_ident(const char *key, const char *deps) {
  uint64_t x = wl_fnv1a(WL_FNV_START, key, strlen(key) + 1);
  return wl_fnv1a(x, deps, strlen(deps));
}

/* The stored file for `key` linked (or copied) to `out` when the entry's key
 * and files are current; *ident: the entry's entry_ident, deps_out its list
 * of files. */
static bool store_fetch(const wl_pch_cache *c, const char *key, uint64_t h, const char *out,
                        uint64_t *ident, wl_buf *deps_out) {
  int fd = lock_entry(c, h);
  if (fd < 0)
    return false;
  char *dir = store_path(c, h, "");
  wl_buf p;
  wl_buf_init(&p);
  char *seen = entry_part(dir, "key");
  bool ok = seen && strcmp(seen, key) == 0;
  free(seen);
  if (ok) {
    char *deps = entry_part(dir, "deps");
    ok = deps && deps_current(deps);
    if (ok) {
      *ident = entry_ident(key, deps);
      wl_buf_puts(deps_out, deps);
    }
    free(deps);
  }
  if (ok) {
    buf_reset(&p);
    wl_buf_printf(&p, "%s/pch", dir);
    ok = link_or_copy(wl_buf_str(&p), out);
    if (ok)
      utimensat(AT_FDCWD, dir, NULL, 0); /* used now: the last to be removed */
  }
  wl_buf_free(&p);
  free(dir);
  unlock_entry(fd);
  return ok;
}

typedef struct aged {
  char *name;
  struct timespec t;
} aged;

static int cmp_aged(const void *a, const void *b) {
  const aged *x = a, *y = b;
  return wl_timespec_cmp(&x->t, &y->t);
}

/* Removes the least recently used entries beyond WL_PCH_STORE_MAX. */
static void store_evict(const wl_pch_cache *c) {
  DIR *d = opendir(c->store);
  if (!d)
    return;
  aged *v = NULL;
  size_t n = 0, cap = 0;
  struct dirent *de;
  while ((de = readdir(d)) != NULL) {
    if (strlen(de->d_name) != 16 || strspn(de->d_name, "0123456789abcdef") != 16)
      continue;
    wl_buf p;
    wl_buf_init(&p);
    wl_buf_printf(&p, "%s/%s", c->store, de->d_name);
    struct stat st;
    if (stat(wl_buf_str(&p), &st) == 0 && S_ISDIR(st.st_mode)) {
      if (n == cap) {
        cap = cap ? 2 * cap : 16;
        v = wl_xrealloc(v, cap * sizeof *v);
      }
      v[n].name = wl_xstrdup(de->d_name);
      v[n].t = st.st_mtim;
      n++;
    }
    wl_buf_free(&p);
  }
  closedir(d);
  if (n > 1)
    qsort(v, n, sizeof *v, cmp_aged);
  for (size_t i = 0; i < n; i++) {
    if (i + WL_PCH_STORE_MAX < n) {
      uint64_t h = strtoull(v[i].name, NULL, 16);
      int fd = lock_entry(c, h);
      if (fd >= 0) {
        char *dir = store_path(c, h, "");
        remove_entry(dir);
        free(dir);
        char *lock = store_path(c, h, ".lock");
        unlink(lock);
        free(lock);
        unlock_entry(fd);
      }
    }
    free(v[i].name);
  }
  free(v);
}

/* Keeps the file just built for `key` in the store (replacing a stale
 * entry), with the list of files it read. */
static void store_put(const wl_pch_cache *c, const char *key, uint64_t h, const char *pch,
                      const char *deps) {
  int fd = lock_entry(c, h);
  if (fd < 0)
    return;
  char *dir = store_path(c, h, "");
  wl_buf tmp;
  wl_buf_init(&tmp);
  wl_buf_printf(&tmp, "%s.%ld.tmp", dir, (long)getpid());
  remove_entry(wl_buf_str(&tmp));
  bool ok = mkdir(wl_buf_str(&tmp), 0700) == 0;
  wl_buf p;
  wl_buf_init(&p);
  static const char *const parts[] = {"key", "deps", "pch"};
  for (size_t i = 0; ok && i < 3; i++) {
    buf_reset(&p);
    wl_buf_printf(&p, "%s/%s", wl_buf_str(&tmp), parts[i]);
    ok = i == 0   ? write_text(wl_buf_str(&p), key)
         : i == 1 ? write_text(wl_buf_str(&p), deps)
                  : link_or_copy(pch, wl_buf_str(&p));
  }
  if (ok) {
    remove_entry(dir);
    ok = rename(wl_buf_str(&tmp), dir) == 0;
  }
  if (!ok)
    remove_entry(wl_buf_str(&tmp));
  wl_buf_free(&p);
  wl_buf_free(&tmp);
  free(dir);
  unlock_entry(fd);
  store_evict(c);
}

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The file for `key` in the shared directory, built there when no process
 * has yet: NULL when it cannot be had. */
static char *shared_file(wl_pch_cache *c, const char *key, CXIndex index, const char *header,
                         const char *const *args, int nargs, struct CXUnsavedFile *uf, unsigned nuf,
                         unsigned how, bool *built, bool *reused) {
  uint64_t h = wl_fnv1a(WL_FNV_START, key, strlen(key));
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b, "%s/%016llx", c->dir, (unsigned long long)h);
  char *base = wl_buf_detach(&b);
  char pch[4200], lock[4200], failed[4200], keyfile[4200], identfile[4200], filesfile[4200];
  snprintf(pch, sizeof pch, "%s.pch", base);
  snprintf(filesfile, sizeof filesfile, "%s.files", base);
  snprintf(identfile, sizeof identfile, "%s.ident", base);
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
      wl_buf deps, sys;
      wl_buf_init(&deps);
      wl_buf_init(&sys);
      bool deps_ok = false;
      uint64_t ident = 0;
      if (wrote && c->store && store_fetch(c, key, h, pch, &ident, &deps)) {
        result = wl_xstrdup(pch);
        *reused = true;
        deps_ok = true;
      } else if (wrote && build(index, header, args, nargs, uf, nuf, how, pch, &deps, &deps_ok,
                                c->store ? &sys : NULL)) {
        result = wl_xstrdup(pch);
        *built = true;
        if (c->store && deps_ok) {
          store_put(c, key, h, pch, wl_buf_str(&deps));
          ident = entry_ident(key, wl_buf_str(&deps));
        }
      } else {
        FILE *ff = fopen(failed, "w");
        if (ff)
          fclose(ff);
      }
      /* the files it read, for the other threads and processes of the run
       * (wl_pch_shadowed); none when they could not all be listed */
      if (result && deps_ok && !write_text(filesfile, wl_buf_str(&deps)))
        unlink(filesfile);
      wl_buf_free(&deps);
      /* which build of the store's entry this file is (companion files) */
      if (result && ident) {
        char hex[32];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)ident);
        if (!write_text(identfile, hex))
          unlink(identfile);
        else if (sys.len) /* kept beside the entry built here */
          wl_pch_companion_write(c, result, WL_PCH_COMPANION_SYS, sys.data, sys.len);
      }
      wl_buf_free(&sys);
    }
    free(seen);
    flock(fd, LOCK_UN);
  }
  close(fd);
  return result;
}

const char *wl_pch_get(wl_pch_cache *c, CXIndex index, const char *header, const char *const *args,
                       int nargs, struct CXUnsavedFile *uf, unsigned nuf, unsigned how) {
  if (!c->dir)
    return NULL;
  wl_buf key;
  wl_buf_init(&key);
  for (int i = 0; i < nargs; i++)
    wl_buf_printf(&key, "%s\n", args[i]);
  /* the unsaved files (the prelude, the header) and the parser: the store's
   * entries are reused by other runs and other builds of warplint */
  for (unsigned i = 0; i < nuf; i++)
    wl_buf_printf(&key, "unsaved %s %lu %016llx\n", uf[i].Filename, uf[i].Length,
                  (unsigned long long)wl_fnv1a(WL_FNV_START, uf[i].Contents, uf[i].Length));
  char cwd[4096]; /* relative directories in the arguments */
  wl_buf_printf(&key, "cwd %s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
  CXString ver = clang_getClangVersion();
  wl_buf_printf(&key, "libclang %s\n", clang_getCString(ver) ? clang_getCString(ver) : "");
  /* built files are edited (pch_trim.h): not those of an earlier warplint */
  wl_buf_printf(&key, "trimmed %d\n", WL_PCH_AST_MAJOR);
  if (how & WL_PCH_STRICT)
    wl_buf_puts(&key, "strict\n");
  if (how & WL_PCH_SKIP_BODIES)
    wl_buf_puts(&key, "skip-function-bodies\n");
  clang_disposeString(ver);
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
  bool built = false, reused = false;
  char *path =
      shared_file(c, wl_buf_str(&key), index, header, args, nargs, uf, nuf, how, &built, &reused);
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
  else if (reused)
    c->reused++;
  else if (!path)
    c->failed++;
  pthread_mutex_unlock(&c->lock);
  return path;
}

/* Whether directory dir holds a file whose path below it ends one of the
 * paths of the list (an entry's deps, dep_file_of): a lookup of that
 * spelling would find it first. Only the suffixes that start with a name
 * dir holds are looked up. */
static bool dir_shadows(const char *dir, const char *list) {
  DIR *d = opendir(dir);
  if (!d)
    return false; /* nothing there to be found */
  wl_hmap top;
  wl_hmap_init(&top, true);
  struct dirent *de;
  while ((de = readdir(d)) != NULL)
    if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
      char *name = wl_xstrdup(de->d_name);
      if (wl_hmap_get(&top, name))
        free(name);
      else
        wl_hmap_put(&top, name, name, false);
    }
  closedir(d);
  bool found = false;
  wl_buf p;
  wl_buf_init(&p);
  for (const char *l = list, *nl; !found && (nl = strchr(l, '\n')) != NULL; l = nl + 1) {
    dep_file f;
    const char *path = l[0] == 'D' && l[1] == ' ' ? NULL : dep_file_of(l, nl, &f);
    /* each suffix of the path that starts with a name dir holds */
    for (const char *c = path ? memchr(path, '/', (size_t)(nl - path)) : NULL; c && !found;) {
      const char *end = memchr(c + 1, '/', (size_t)(nl - c - 1));
      buf_reset(&p);
      wl_buf_add(&p, c + 1, (size_t)((end ? end : nl) - c - 1));
      if (p.len && wl_hmap_get(&top, wl_buf_str(&p))) {
        buf_reset(&p);
        wl_buf_printf(&p, "%s%.*s", strcmp(dir, "/") == 0 ? "" : dir, (int)(nl - c), c);
        struct stat st;
        found = stat(wl_buf_str(&p), &st) == 0;
      }
      c = end;
    }
  }
  wl_buf_free(&p);
  for (size_t i = 0; i < top.cap; i++)
    free((void *)top.slots[i].key);
  wl_hmap_free(&top);
  return found;
}

bool wl_pch_shadowed(wl_pch_cache *c, const char *pch, const char *const *dirs, size_t ndirs) {
  size_t n = strlen(pch);
  if (n < 4 || strcmp(pch + n - 4, ".pch") != 0)
    return true;
  bool shadowed = false;
  pthread_mutex_lock(&c->lock);
  char *list = NULL;
  bool listed = false;
  for (size_t i = 0; i < ndirs && !shadowed; i++) {
    wl_buf k;
    wl_buf_init(&k);
    wl_buf_printf(&k, "%s\n%s", pch, dirs[i]);
    uintptr_t seen = (uintptr_t)wl_hmap_get(&c->shadow, wl_buf_str(&k));
    if (!seen) {
      if (!listed) {
        wl_buf f;
        wl_buf_init(&f);
        wl_buf_add(&f, pch, n - 4);
        wl_buf_puts(&f, ".files");
        size_t len = 0;
        list = wl_read_file(wl_buf_str(&f), &len);
        wl_buf_free(&f);
        listed = true;
      }
      seen = !list || dir_shadows(dirs[i], list) ? 1 : 2;
      wl_hmap_put(&c->shadow, wl_buf_detach(&k), (void *)seen, false); /* key freed with the map */
    }
    shadowed = seen == 1;
    wl_buf_free(&k);
  }
  free(list);
  pthread_mutex_unlock(&c->lock);
  return shadowed;
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

void wl_pch_std_outcome(wl_pch_cache *c, int failed, unsigned *tries, unsigned *fails) {
  *tries = 0;
  *fails = 0;
  if (!c->dir)
    return;
  wl_buf p;
  wl_buf_init(&p);
  wl_buf_printf(&p, "%s/std-outcome", c->dir);
  int fd = open(wl_buf_str(&p), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  wl_buf_free(&p);
  if (fd < 0)
    return;
  /* the threads of this process and the other processes alike */
  pthread_mutex_lock(&c->lock);
  if (flock(fd, LOCK_EX) == 0) {
    uint32_t v[2] = {0, 0};
    if (pread(fd, v, sizeof v, 0) != (ssize_t)sizeof v)
      v[0] = v[1] = 0;
    if (failed >= 0 && v[0] < UINT32_MAX) {
      v[0]++;
      v[1] += failed > 0;
      if (pwrite(fd, v, sizeof v, 0) != (ssize_t)sizeof v)
        v[0] = v[1] = 0;
    }
    *tries = v[0];
    *fails = v[1];
    flock(fd, LOCK_UN);
  }
  pthread_mutex_unlock(&c->lock);
  close(fd);
}

/* The store entry (its hash) and the build (entry_ident) of a file of the
 * run's directory; false when it is not one or came from no entry. */
static bool file_entry(const wl_pch_cache *c, const char *pch, uint64_t *h, uint64_t *ident) {
  size_t nd = c->dir ? strlen(c->dir) : 0;
  size_t n = strlen(pch);
  if (!c->dir || !c->store || n != nd + 1 + 16 + 4 || strncmp(pch, c->dir, nd) != 0 ||
      pch[nd] != '/' || strcmp(pch + n - 4, ".pch") != 0)
    return false;
  char hex[17];
  memcpy(hex, pch + nd + 1, 16);
  hex[16] = '\0';
  if (strspn(hex, "0123456789abcdef") != 16)
    return false;
  *h = strtoull(hex, NULL, 16);
  char identfile[4200];
  snprintf(identfile, sizeof identfile, "%.*s.ident", (int)(n - 4), pch);
  size_t len = 0;
  char *t = wl_read_file_max(identfile, 64, &len, NULL);
  bool ok = t && len == 16 && strspn(t, "0123456789abcdef") == 16;
  if (ok)
    *ident = strtoull(t, NULL, 16);
  free(t);
  return ok;
}

char *wl_pch_companion_read(wl_pch_cache *c, const char *pch, const char *name, size_t *len) {
  uint64_t h, ident;
  *len = 0;
  if (!file_entry(c, pch, &h, &ident))
    return NULL;
  char *dir = store_path(c, h, "");
  wl_buf p;
  wl_buf_init(&p);
  wl_buf_printf(&p, "%s/%s", dir, name);
  free(dir);
  size_t n = 0;
  char *t = wl_read_file_max(wl_buf_str(&p), WL_READ_MAX_DATA, &n, NULL);
  wl_buf_free(&p);
  /* the build it was computed from, in its first line */
  char want[32];
  snprintf(want, sizeof want, "%016llx\n", (unsigned long long)ident);
  if (!t || n < 17 || memcmp(t, want, 17) != 0) {
    free(t);
    return NULL;
  }
  memmove(t, t + 17, n - 17);
  *len = n - 17;
  return t;
}

void wl_pch_companion_write(wl_pch_cache *c, const char *pch, const char *name, const void *data,
                            size_t len) {
  uint64_t h, ident;
  if (!file_entry(c, pch, &h, &ident))
    return;
  int fd = lock_entry(c, h);
  if (fd < 0)
    return;
  char *dir = store_path(c, h, "");
  wl_buf p;
  wl_buf_init(&p);
  /* only beside the build it was computed from */
  char *key = entry_part(dir, "key"), *deps = entry_part(dir, "deps");
  if (key && deps && entry_ident(key, deps) == ident) {
    wl_buf_printf(&p, "%s/%s.%ld.tmp", dir, name, (long)getpid());
    char *tmp = wl_buf_detach(&p);
    wl_buf_printf(&p, "%s/%s", dir, name);
    unlink(tmp);
    int out = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    char head[32];
    snprintf(head, sizeof head, "%016llx\n", (unsigned long long)ident);
    bool ok = out >= 0 && wl_fd_write_all(out, head, 17) && wl_fd_write_all(out, data, len);
    if (out >= 0 && close(out) != 0)
      ok = false;
    if (!ok || rename(tmp, wl_buf_str(&p)) != 0)
      unlink(tmp);
    free(tmp);
  }
  free(key);
  free(deps);
  wl_buf_free(&p);
  free(dir);
  unlock_entry(fd);
}
