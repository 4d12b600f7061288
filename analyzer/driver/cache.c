/* cache.c - the result cache (cache.h). An entry file holds: a magic
 * number; the key; the files depended on (path, length, hash); the
 * directories (path, whether it exists, device, inode, modification time);
 * the facts; the
 * payload; and an FNV-1a checksum of everything before it. Within a run the
 * hash of each file and the state of each directory are taken once (a tree's
 * files share most of their headers). */
#define _XOPEN_SOURCE 700 /* mkstemp */
#include "cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fdio.h"
#include "hmap.h"
#include "paths.h"
#include "wire.h"

#define MAGIC "WLCACHE1"
#define LAYOUT "v1" /* the subdirectory of this entry format */
/* An entry larger than this is not read (a corrupt or foreign file). */
#define MAX_ENTRY ((size_t)64 << 20)
/* A directory modified less than this many seconds before the run began may
 * have changed during a parse of this run: its entries are not stored. */
#define SETTLE_S 2
/* Eviction goes down to this share of the bound, so that it does not run
 * again at once. */
#define EVICT_TO_PERCENT 80

typedef struct file_state {
  bool ok; /* readable */
  uint64_t hash;
  size_t len;
} file_state;

typedef struct dir_state {
  bool ok;
  uint64_t dev, ino, sec, nsec;
} dir_state;

struct wl_cache {
  char *dir;
  uint64_t max_bytes;
  time_t start;
  wl_hmap files; /* path -> file_state* (keys owned) */
  wl_hmap dirs;  /* path -> dir_state* */
  size_t hits, misses, stored;
};

/* ------------------------------------------------------------------------ */
/* Location                                                                 */

char *wl_cache_default_dir(void) {
  const char *env = getenv("WARPLINT_CACHE_DIR");
  if (env && *env)
    return wl_xstrdup(env);
  wl_buf b;
  wl_buf_init(&b);
  const char *xdg = getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') { /* the XDG spec: a relative value is ignored */
    wl_buf_printf(&b, "%s/warplint", xdg);
    return wl_buf_detach(&b);
  }
  const char *home = getenv("HOME");
  if (!home || home[0] != '/') {
    struct passwd *pw = getpwuid(geteuid());
    home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
  }
  if (!home) {
    wl_buf_free(&b);
    return NULL;
  }
  wl_buf_printf(&b, "%s/.cache/warplint", strcmp(home, "/") == 0 ? "" : home);
  return wl_buf_detach(&b);
}

bool wl_cache_size_from_env(uint64_t *bytes, wl_buf *why) {
  *bytes = (uint64_t)WL_CACHE_DEFAULT_MIB << 20;
  const char *env = getenv("WARPLINT_CACHE_SIZE");
  if (!env || !*env)
    return true;
  char *end = NULL;
  errno = 0;
  unsigned long long mib = strtoull(env, &end, 10);
  if (errno || !end || *end || env[0] == '-' || mib > ((uint64_t)1 << 40)) {
    wl_buf_printf(why, "WARPLINT_CACHE_SIZE='%s' is not a size in MiB", env);
    return false;
  }
  *bytes = (uint64_t)mib << 20;
  return true;
}

/* mkdir -p with mode 0700 for what it makes. */
wl_cache *wl_cache_open(const char *dir, uint64_t max_bytes, wl_buf *why) {
  if (!dir || !*dir) {
    wl_buf_puts(why, "no cache directory (no home directory; use --cache-dir)");
    return NULL;
  }
  wl_buf abs;
  wl_buf_init(&abs);
  if (dir[0] != '/') {
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd)) {
      wl_buf_printf(why, "%s: cannot resolve the cache directory", dir);
      wl_buf_free(&abs);
      return NULL;
    }
    wl_buf_printf(&abs, "%s/", cwd);
  }
  wl_buf_puts(&abs, dir);
  struct stat st;
  if (!wl_make_dirs(abs.data) || stat(abs.data, &st) != 0) {
    wl_buf_printf(why, "%s: cannot create the cache directory: %s", abs.data, strerror(errno));
    wl_buf_free(&abs);
    return NULL;
  }
  if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() || access(abs.data, W_OK | X_OK) != 0) {
    wl_buf_printf(why, "%s: %s", abs.data,
                  !S_ISDIR(st.st_mode)     ? "not a directory"
                  : st.st_uid != geteuid() ? "owned by another user; not used as the cache"
                                           : "not writable");
    wl_buf_free(&abs);
    return NULL;
  }
  wl_cache *c = wl_xcalloc(1, sizeof *c);
  c->dir = wl_buf_detach(&abs);
  c->max_bytes = max_bytes;
  c->start = time(NULL);
  wl_hmap_init(&c->files, true);
  wl_hmap_init(&c->dirs, true);
  return c;
}

const char *wl_cache_dir(const wl_cache *c) { return c->dir; }

void wl_cache_stats(const wl_cache *c, size_t *hits, size_t *misses, size_t *stored) {
  *hits = c->hits;
  *misses = c->misses;
  *stored = c->stored;
}

/* ------------------------------------------------------------------------ */
/* What entries depend on, taken once per run                               */

static const file_state *file_of(wl_cache *c, const char *path) {
  file_state *f = wl_hmap_get(&c->files, path);
  if (f)
    return f;
  f = wl_xcalloc(1, sizeof *f);
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat st;
  if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    uint64_t h = WL_FNV_START;
    size_t len = 0;
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0 || (got < 0 && errno == EINTR))
      if (got > 0) {
        h = wl_fnv1a(h, chunk, (size_t)got);
        len += (size_t)got;
      }
    f->ok = got == 0;
    f->hash = h;
    f->len = len;
  }
  if (fd >= 0)
    close(fd);
  wl_hmap_put(&c->files, wl_xstrdup(path), f, false);
  return f;
}

static const dir_state *dir_of(wl_cache *c, const char *path) {
  dir_state *d = wl_hmap_get(&c->dirs, path);
  if (d)
    return d;
  d = wl_xcalloc(1, sizeof *d);
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    d->ok = true;
    d->dev = (uint64_t)st.st_dev;
    d->ino = (uint64_t)st.st_ino;
    d->sec = (uint64_t)st.st_mtim.tv_sec;
    d->nsec = (uint64_t)st.st_mtim.tv_nsec;
  }
  wl_hmap_put(&c->dirs, wl_xstrdup(path), d, false);
  return d;
}

/* ------------------------------------------------------------------------ */
/* Entries                                                                  */

static uint64_t key_hash(const char *key, size_t keylen) {
  return wl_fnv1a(WL_FNV_START, key, keylen);
}

/* DIR/v1/XX/YYYYYYYYYYYYYY (sub: DIR/v1/XX only). */
static char *entry_path(const wl_cache *c, uint64_t h, bool sub) {
  wl_buf b;
  wl_buf_init(&b);
  char hex[17];
  snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
  wl_buf_printf(&b, "%s/%s/%.2s", c->dir, LAYOUT, hex);
  if (!sub)
    wl_buf_printf(&b, "/%s", hex + 2);
  return wl_buf_detach(&b);
}

/* The whole file, when it is a regular file of a sane size. */
static char *read_entry(const char *path, size_t *len) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0)
    return NULL;
  struct stat st;
  char *data = NULL;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
      (uint64_t)st.st_size <= MAX_ENTRY) {
    size_t n = (size_t)st.st_size, at = 0;
    data = wl_xmalloc(n);
    while (at < n) {
      ssize_t got = read(fd, data + at, n - at);
      if (got < 0 && errno == EINTR)
        continue;
      if (got <= 0)
        break;
      at += (size_t)got;
    }
    if (at != n) {
      free(data);
      data = NULL;
    }
    *len = n;
  }
  close(fd);
  return data;
}

char *wl_cache_get(wl_cache *c, const char *key, size_t keylen, wl_cache_fact_fn check, void *ud,
                   size_t *len) {
  char *path = entry_path(c, key_hash(key, keylen), false);
  size_t n = 0;
  char *data = read_entry(path, &n);
  char *payload = NULL;
  bool ok = data && n >= sizeof MAGIC - 1 + 8 && memcmp(data, MAGIC, sizeof MAGIC - 1) == 0;
  wl_wire_reader r;
  if (ok) {
    wl_wire_reader sum;
    wl_wire_reader_init(&sum, data + n - 8, 8);
    ok = wl_wire_get_u64(&sum) == wl_fnv1a(WL_FNV_START, data, n - 8);
    wl_wire_reader_init(&r, data + sizeof MAGIC - 1, n - 8 - (sizeof MAGIC - 1));
  }
  /* the key itself, not only its hash */
  if (ok) {
    uint64_t kl = wl_wire_get_u64(&r);
    ok = !r.bad && kl == keylen && r.n - r.at >= kl && memcmp(r.p + r.at, key, keylen) == 0;
    r.at += ok ? keylen : 0;
  }
  uint64_t nd = ok ? wl_wire_get_u64(&r) : 0;
  for (uint64_t i = 0; ok && i < nd; i++) {
    char *p = wl_wire_get_str(&r);
    uint64_t l = wl_wire_get_u64(&r), h = wl_wire_get_u64(&r);
    const file_state *f = p && !r.bad ? file_of(c, p) : NULL;
    ok = f && f->ok && f->len == l && f->hash == h;
    free(p);
  }
  uint64_t ndir = ok ? wl_wire_get_u64(&r) : 0;
  for (uint64_t i = 0; ok && i < ndir; i++) {
    char *p = wl_wire_get_str(&r);
    uint64_t there = wl_wire_get_u64(&r), dev = wl_wire_get_u64(&r), ino = wl_wire_get_u64(&r);
    uint64_t sec = wl_wire_get_u64(&r), nsec = wl_wire_get_u64(&r);
    const dir_state *d = p && !r.bad ? dir_of(c, p) : NULL;
    /* absent then and now, or the same directory unmodified */
    ok = d && d->ok == (there != 0) &&
         (!d->ok || (d->dev == dev && d->ino == ino && d->sec == sec && d->nsec == nsec));
    free(p);
  }
  uint64_t nf = ok ? wl_wire_get_u64(&r) : 0;
  for (uint64_t i = 0; ok && i < nf; i++) {
    char *fact = wl_wire_get_str(&r);
    ok = fact && !r.bad && check && check(fact, ud);
    free(fact);
  }
  if (ok) {
    uint64_t pl = wl_wire_get_u64(&r);
    ok = !r.bad && pl == r.n - r.at;
    if (ok) {
      payload = wl_xmalloc((size_t)pl + 1);
      memcpy(payload, r.p + r.at, (size_t)pl);
      payload[pl] = '\0';
      *len = (size_t)pl;
    }
  }
  if (payload) {
    c->hits++;
    utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW); /* recently used */
  } else {
    c->misses++;
  }
  free(data);
  free(path);
  return payload;
}

void wl_cache_put(wl_cache *c, const char *key, size_t keylen, const wl_vec *deps,
                  const wl_vec *dirs, const wl_vec *facts, const char *payload, size_t len) {
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_add(&b, MAGIC, sizeof MAGIC - 1);
  wl_wire_put_u64(&b, keylen);
  wl_buf_add(&b, key, keylen);
  wl_wire_put_u64(&b, deps->n);
  for (size_t i = 0; i < deps->n; i++) {
    const wl_cache_dep *d = deps->v[i];
    wl_wire_put_str(&b, d->path);
    wl_wire_put_u64(&b, d->len);
    wl_wire_put_u64(&b, d->hash);
  }
  bool settled = true;
  wl_wire_put_u64(&b, dirs->n);
  for (size_t i = 0; i < dirs->n && settled; i++) {
    const dir_state *d = dir_of(c, dirs->v[i]);
    settled = !d->ok || (time_t)d->sec < c->start - SETTLE_S;
    wl_wire_put_str(&b, dirs->v[i]);
    wl_wire_put_u64(&b, d->ok);
    wl_wire_put_u64(&b, d->dev);
    wl_wire_put_u64(&b, d->ino);
    wl_wire_put_u64(&b, d->sec);
    wl_wire_put_u64(&b, d->nsec);
  }
  wl_wire_put_u64(&b, facts ? facts->n : 0);
  for (size_t i = 0; facts && i < facts->n; i++)
    wl_wire_put_str(&b, facts->v[i]);
  wl_wire_put_u64(&b, len);
  wl_buf_add(&b, payload, len);
  wl_wire_put_u64(&b, wl_fnv1a(WL_FNV_START, b.data, b.len));
  uint64_t h = key_hash(key, keylen);
  char *sub = entry_path(c, h, true);
  char *path = entry_path(c, h, false);
  wl_buf tmp;
  wl_buf_init(&tmp);
  wl_buf_printf(&tmp, "%s/.tmp-XXXXXX", sub);
  int fd = -1;
  if (settled && b.len <= MAX_ENTRY && wl_make_dirs(sub))
    fd = mkstemp(tmp.data);
  if (fd >= 0) {
    bool ok = wl_fd_write_all(fd, b.data, b.len);
    ok = close(fd) == 0 && ok;
    /* rename replaces an entry of another run atomically */
    if (ok && rename(tmp.data, path) == 0)
      c->stored++;
    else
      unlink(tmp.data);
  }
  wl_buf_free(&tmp);
  free(sub);
  free(path);
  wl_buf_free(&b);
}

/* ------------------------------------------------------------------------ */
/* The size bound                                                           */

typedef struct entry_file {
  char *path;
  uint64_t size;
  struct timespec used;
} entry_file;

static int cmp_used(const void *a, const void *b) {
  const entry_file *x = a, *y = b;
  int c = wl_timespec_cmp(&x->used, &y->used);
  return c ? c : strcmp(x->path, y->path);
}

/* Removes the least recently used entries while the total is over the
 * bound; temporary files of runs that died an hour ago or more go too. */
static void evict(wl_cache *c) {
  wl_buf top;
  wl_buf_init(&top);
  wl_buf_printf(&top, "%s/%s", c->dir, LAYOUT);
  DIR *d = opendir(top.data);
  entry_file *v = NULL;
  size_t n = 0, cap = 0;
  uint64_t total = 0;
  struct dirent *de;
  while (d && (de = readdir(d)) != NULL) {
    if (de->d_name[0] == '.' || strlen(de->d_name) != 2)
      continue;
    wl_buf sub;
    wl_buf_init(&sub);
    wl_buf_printf(&sub, "%s/%s", top.data, de->d_name);
    DIR *s = opendir(sub.data);
    struct dirent *fe;
    while (s && (fe = readdir(s)) != NULL) {
      if (strcmp(fe->d_name, ".") == 0 || strcmp(fe->d_name, "..") == 0)
        continue;
      wl_buf p;
      wl_buf_init(&p);
      wl_buf_printf(&p, "%s/%s", sub.data, fe->d_name);
      struct stat st;
      if (lstat(p.data, &st) != 0 || !S_ISREG(st.st_mode)) {
        wl_buf_free(&p);
        continue;
      }
      if (strncmp(fe->d_name, ".tmp-", 5) == 0) {
        if (st.st_mtim.tv_sec < c->start - 3600)
          unlink(p.data);
        wl_buf_free(&p);
        continue;
      }
      if (n == cap) {
        cap = cap ? 2 * cap : 256;
        v = wl_xrealloc(v, cap * sizeof *v);
      }
      v[n].path = wl_buf_detach(&p);
      v[n].size = (uint64_t)st.st_size;
      v[n].used = st.st_mtim;
      total += v[n].size;
      n++;
    }
    if (s)
      closedir(s);
    wl_buf_free(&sub);
  }
  if (d)
    closedir(d);
  if (total > c->max_bytes) {
    uint64_t goal = c->max_bytes / 100 * EVICT_TO_PERCENT;
    qsort(v, n, sizeof *v, cmp_used);
    for (size_t i = 0; i < n && total > goal; i++)
      if (unlink(v[i].path) == 0 || errno == ENOENT)
        total -= v[i].size;
  }
  for (size_t i = 0; i < n; i++)
    free(v[i].path);
  free(v);
  wl_buf_free(&top);
}

static void free_map(wl_hmap *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key) {
      free((void *)m->slots[i].key);
      free(m->slots[i].val);
    }
  wl_hmap_free(m);
}

void wl_cache_close(wl_cache *c) {
  if (!c)
    return;
  if (c->stored)
    evict(c);
  free_map(&c->files);
  free_map(&c->dirs);
  free(c->dir);
  free(c);
}
