/* fixwrite.c - every file warplint writes goes through here: the write path
 * of --fix (a file is rewritten only when it is a regular, writable, singly
 * linked file inside the allowed roots that still has the contents that were
 * analyzed, under an exclusive lock held from the re-read to the rename, with
 * its owner and mode kept; a symbolic link is written through to its target
 * and never replaced) and of the outputs -o, --export-fixes and
 * --write-baseline (the same checks and the same temporary file and rename,
 * see fix.h). */
#define _XOPEN_SOURCE 700 /* realpath */
#define _DEFAULT_SOURCE   /* flock */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix.h"

/* Tries to take the lock again when another run replaced the file meanwhile. */
#define WL_FIX_LOCK_TRIES 16

uint64_t wl_content_hash(const char *data, size_t len) {
  /* FNV-1a, 64 bits: detects a change, not an adversary (who could write
   * the file directly anyway) */
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < len; i++) {
    h ^= (unsigned char)data[i];
    h *= 1099511628211ull;
  }
  return h;
}

static const char *kind_of(mode_t m) {
  return S_ISFIFO(m)   ? "a FIFO"
         : S_ISCHR(m)  ? "a character device"
         : S_ISBLK(m)  ? "a block device"
         : S_ISSOCK(m) ? "a socket"
         : S_ISDIR(m)  ? "a directory"
                       : "not a regular file";
}

/* Reads what fd holds (a regular file) from its start. */
static char *read_fd(int fd, size_t *len) {
  wl_buf b;
  wl_buf_init(&b);
  char tmp[65536];
  off_t pos = 0;
  for (;;) {
    ssize_t n = pread(fd, tmp, sizeof tmp, pos);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      wl_buf_free(&b);
      errno = e;
      return NULL;
    }
    if (n == 0)
      break;
    wl_buf_add(&b, tmp, (size_t)n);
    pos += n;
  }
  *len = b.len;
  if (!b.data)
    return wl_xcalloc(1, 1);
  return wl_buf_detach(&b);
}

char *wl_fix_read(const char *path, size_t *len, wl_buf *err) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    wl_buf_printf(err, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  char *text = NULL;
  if (fstat(fd, &st) != 0)
    wl_buf_printf(err, "%s: cannot stat: %s", path, strerror(errno));
  else if (!S_ISREG(st.st_mode))
    wl_buf_printf(err, "%s: %s, not a regular file", path, kind_of(st.st_mode));
  else if (!(text = read_fd(fd, len)))
    wl_buf_printf(err, "%s: cannot read: %s", path, strerror(errno));
  close(fd);
  return text;
}

/* Writes data to a new temporary file beside target with target's owner and
 * mode (st; NULL: a new file, mode 0666 less the umask, the creator's owner),
 * then renames it over target. */
static bool replace_file(const char *shown, const char *target, const struct stat *st,
                         const char *data, size_t len, wl_buf *err) {
  struct stat fresh;
  bool keep_owner = st != NULL;
  if (!st) {
    mode_t um = umask(0);
    umask(um);
    memset(&fresh, 0, sizeof fresh);
    fresh.st_mode = S_IFREG | (0666 & ~um);
    st = &fresh;
  }
  size_t n = strlen(target) + 32;
  char *tmp = wl_xmalloc(n);
  snprintf(tmp, n, "%s.warplint-XXXXXX", target);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    wl_buf_printf(err, "%s: cannot create a temporary file beside %s: %s", shown, target,
                  strerror(errno));
    free(tmp);
    return false;
  }
  bool ok = true;
  for (size_t done = 0; ok && done < len;) {
    ssize_t w = write(fd, data + done, len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      wl_buf_printf(err, "%s: cannot write %s: %s", shown, tmp, strerror(errno));
      ok = false;
    } else {
      done += (size_t)w;
    }
  }
  /* the owner first (changing it clears set-id bits), then the mode */
  if (ok && keep_owner && (st->st_uid != geteuid() || st->st_gid != getegid()) &&
      fchown(fd, st->st_uid, st->st_gid) != 0) {
    wl_buf_printf(err,
                  "%s: cannot keep its owner (uid %ld, gid %ld) in a rewritten copy: %s; not "
                  "rewritten",
                  shown, (long)st->st_uid, (long)st->st_gid, strerror(errno));
    ok = false;
  }
  if (ok && fchmod(fd, st->st_mode & 07777) != 0) {
    wl_buf_printf(err, "%s: cannot keep its permissions: %s", shown, strerror(errno));
    ok = false;
  }
  if (ok && fsync(fd) != 0) {
    wl_buf_printf(err, "%s: cannot sync %s: %s", shown, tmp, strerror(errno));
    ok = false;
  }
  if (close(fd) != 0 && ok) {
    wl_buf_printf(err, "%s: cannot close %s: %s", shown, tmp, strerror(errno));
    ok = false;
  }
  if (ok && rename(tmp, target) != 0) {
    wl_buf_printf(err, "%s: cannot replace %s: %s", shown, target, strerror(errno));
    ok = false;
  }
  if (!ok)
    unlink(tmp);
  free(tmp);
  return ok;
}

/* Whether the canonical target is one of the roots or lies below one. */
static bool allowed(const wl_fix_target *t, const char *target) {
  if (t->nroots == 0)
    return true;
  for (size_t i = 0; i < t->nroots; i++) {
    const char *r = t->roots[i];
    size_t rl = strlen(r);
    if (strcmp(r, "/") == 0 || (strncmp(target, r, rl) == 0 && (!target[rl] || target[rl] == '/')))
      return true;
  }
  return false;
}

/* Checks what the file is; false (err set) when it must not be rewritten.
 * who: what rewrites it, for the messages ("--fix", "-o"). */
static bool check_file(const char *p, const char *who, const char *target, const struct stat *st,
                       wl_buf *err) {
  if (!S_ISREG(st->st_mode)) {
    wl_buf_printf(err, "%s: %s; %s rewrites only regular files", p, kind_of(st->st_mode), who);
    return false;
  }
  if ((st->st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || access(target, W_OK) != 0) {
    wl_buf_printf(err, "%s: the file is read-only; not rewritten", p);
    return false;
  }
  if (st->st_nlink > 1) {
    wl_buf_printf(err,
                  "%s: the file has %lu hard links and rewriting it would break them; not "
                  "rewritten (apply `warplint --diff` with patch instead)",
                  p, (unsigned long)st->st_nlink);
    return false;
  }
  return true;
}

bool wl_fix_write(const wl_fix_target *t, const wl_edit *edits, size_t n, wl_buf *err) {
  const char *p = t->path;
  struct stat lst;
  if (lstat(p, &lst) != 0) {
    wl_buf_printf(err, "%s: cannot stat: %s", p, strerror(errno));
    return false;
  }
  char *target = realpath(p, NULL);
  if (!target) {
    wl_buf_printf(err, "%s: cannot resolve: %s", p, strerror(errno));
    return false;
  }
  if (!allowed(t, target)) {
    if (S_ISLNK(lst.st_mode))
      wl_buf_printf(err,
                    "%s: a symbolic link to %s, outside the project; not rewritten "
                    "(--fix-outside-project allows it)",
                    p, target);
    else
      wl_buf_printf(err,
                    "%s: outside the project (%s); not rewritten (--fix-outside-project "
                    "allows it)",
                    p, t->roots[0]);
    free(target);
    return false;
  }
  int fd = -1;
  struct stat st;
  bool ok = true;
  for (int tries = 0; ok; tries++) {
    /* what the name is before opening it: a FIFO or a device is never opened */
    if (lstat(target, &st) != 0) {
      wl_buf_printf(err, "%s: cannot stat: %s", p, strerror(errno));
      ok = false;
      break;
    }
    if (!check_file(p, "--fix", target, &st, err)) {
      ok = false;
      break;
    }
    fd = open(target, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
      wl_buf_printf(err, "%s: cannot open: %s", p, strerror(errno));
      ok = false;
      break;
    }
    int r;
    while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
      ;
    if (r != 0) {
      wl_buf_printf(err, "%s: cannot lock: %s", p, strerror(errno));
      ok = false;
      break;
    }
    /* locked: the name must still lead to the inode that is locked (another
     * run may have renamed a new file over it while this one waited) */
    struct stat now, fst;
    if (fstat(fd, &fst) == 0 && lstat(target, &now) == 0 && now.st_dev == fst.st_dev &&
        now.st_ino == fst.st_ino) {
      st = fst;
      if (!check_file(p, "--fix", target, &st, err))
        ok = false;
      break;
    }
    close(fd);
    fd = -1;
    if (tries + 1 >= WL_FIX_LOCK_TRIES) {
      wl_buf_printf(err, "%s: replaced again and again while waiting for its lock; not rewritten",
                    p);
      ok = false;
    }
  }
  size_t len = 0;
  char *text = NULL;
  if (ok && !(text = read_fd(fd, &len))) {
    wl_buf_printf(err, "%s: cannot read: %s", p, strerror(errno));
    ok = false;
  }
  if (ok && (!t->have_hash || len != t->len || wl_content_hash(text, len) != t->hash)) {
    wl_buf_printf(
        err, "%s: the file changed since it was analyzed; not rewritten (run warplint again)", p);
    ok = false;
  }
  wl_buf next;
  wl_buf_init(&next);
  if (ok && !wl_fix_apply_text(text, len, edits, n, &next)) {
    wl_buf_printf(err, "%s: an edit lies outside the file; not rewritten", p);
    ok = false;
  }
  if (ok)
    ok = replace_file(p, target, &st, next.data ? next.data : "", next.len, err);
  /* the lock goes with the descriptor, after the rename */
  if (fd >= 0)
    close(fd);
  wl_buf_free(&next);
  free(text);
  free(target);
  return ok;
}

bool wl_write_output(const char *path, const char *who, const char *root, const char *data,
                     size_t len, wl_buf *err) {
  struct stat lst;
  if (lstat(path, &lst) != 0) {
    if (errno != ENOENT) {
      wl_buf_printf(err, "%s: cannot stat: %s", path, strerror(errno));
      return false;
    }
    return replace_file(path, path, NULL, data, len, err); /* a new file */
  }
  char *target = NULL;
  if (S_ISLNK(lst.st_mode)) {
    target = realpath(path, NULL);
    if (!target) {
      wl_buf_printf(err, "%s: a symbolic link that does not lead to a file (%s); not written", path,
                    strerror(errno));
      return false;
    }
    /* a link planted in a checkout must not redirect the output elsewhere */
    wl_fix_target t = {.path = path, .roots = &root, .nroots = root ? 1 : 0};
    if (!allowed(&t, target)) {
      wl_buf_printf(err,
                    "%s: a symbolic link to %s, outside %s; not written (name the target "
                    "itself to write it)",
                    path, target, root);
      free(target);
      return false;
    }
  }
  const char *dest = target ? target : path;
  struct stat st;
  bool ok = lstat(dest, &st) == 0;
  if (!ok)
    wl_buf_printf(err, "%s: cannot stat: %s", path, strerror(errno));
  else
    ok = check_file(path, who, dest, &st, err) && replace_file(path, dest, &st, data, len, err);
  free(target);
  return ok;
}
