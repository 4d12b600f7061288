/* gitignore.c - .gitignore rules through libgit2 (git_ignore_path_is_ignored:
 * the rules of git check-ignore --no-index, parent directories included),
 * with the repositories of a run opened once and cached by work tree.
 *
 * A repository's .gitignore files, .git/config (and the files it includes)
 * and info/exclude are untrusted input: a FIFO there blocks libgit2's open()
 * for ever, a huge file costs memory. So libgit2 runs in a child process
 * (forked at the first question, libgit2 initialised only there, memory
 * bounded) that answers one question at a time over a socket; the parent
 * waits for each answer at most WL_GITIGNORE_TIMEOUT_S seconds. When the
 * child stops answering, it is killed and the rest of the run searches
 * directories without .gitignore, with a warning saying why.
 *
 * libgit2 is loaded (dlopen, by the name the build linked against:
 * WL_LIBGIT2_SONAME) in that child only: a run that searches no directory
 * does not pay for loading it and the libraries it needs (3-4 ms, a twentieth
 * of a small file's run). */
#include "gitignore.h"

#include <dlfcn.h>
#include <errno.h>
#include <git2.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "paths.h"
#include "project.h"

/* How long one answer may take (reading a repository's ignore files). */
#define WL_GITIGNORE_TIMEOUT_S 5
/* The child's address-space bound (not under the sanitizers, whose shadow
 * memory needs terabytes of address space). */
#define WL_GITIGNORE_AS_LIMIT ((rlim_t)2 << 30)
/* A question (a path) or a note longer than this is a protocol error. */
#define WL_GITIGNORE_MSG_MAX ((uint32_t)1 << 20)

#if defined(__SANITIZE_ADDRESS__)
#define WL_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WL_UNDER_ASAN 1
#endif
#endif
#ifndef WL_UNDER_ASAN
#define WL_UNDER_ASAN 0
#endif

/* The functions of libgit2 used here, loaded in the child (git_load). */
typedef struct git_api {
  int (*init)(void);
  int (*shutdown)(void);
  int (*open_ext)(git_repository **, const char *, unsigned int, const char *);
  int (*is_bare)(const git_repository *);
  void (*free_repo)(git_repository *);
  const git_error *(*error_last)(void);
  int (*is_ignored)(int *, git_repository *, const char *);
} git_api;

static git_api git;

/* Loads libgit2; NULL, or why it could not be loaded. */
static const char *git_load(void) {
  void *h = dlopen(WL_LIBGIT2_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (!h)
    return dlerror();
  /* (a function pointer from dlsym: POSIX's way, through a data pointer) */
  *(void **)&git.init = dlsym(h, "git_libgit2_init");
  *(void **)&git.shutdown = dlsym(h, "git_libgit2_shutdown");
  *(void **)&git.open_ext = dlsym(h, "git_repository_open_ext");
  *(void **)&git.is_bare = dlsym(h, "git_repository_is_bare");
  *(void **)&git.free_repo = dlsym(h, "git_repository_free");
  *(void **)&git.error_last = dlsym(h, "git_error_last");
  *(void **)&git.is_ignored = dlsym(h, "git_ignore_path_is_ignored");
  if (!git.init || !git.shutdown || !git.open_ext || !git.is_bare || !git.free_repo ||
      !git.error_last || !git.is_ignored)
    return "a function of " WL_LIBGIT2_SONAME " is missing";
  return NULL;
}

typedef struct repo_entry {
  char *root;           /* canonical work tree */
  git_repository *repo; /* NULL: it could not be opened */
} repo_entry;

/* The child's state: libgit2's repositories. */
typedef struct oracle {
  wl_vec repos;          /* repo_entry* */
  char *last_dir;        /* one-entry cache: directory -> repository */
  repo_entry *last_repo; /* NULL: the directory is in no repository */
} oracle;

/* The parent's state: the child and its socket. */
struct wl_gitignore {
  pid_t child;   /* 0: not started yet; -1: given up */
  int fd;        /* the parent's end of the socket */
  char *gave_up; /* why the child was given up, until taken */
};

static void oracle_free(oracle *g) {
  for (size_t i = 0; i < g->repos.n; i++) {
    repo_entry *e = g->repos.v[i];
    if (e->repo)
      git.free_repo(e->repo);
    free(e->root);
    free(e);
  }
  wl_vec_free(&g->repos);
  free(g->last_dir);
}

/* The repository whose work tree holds the canonical directory dir. */
static repo_entry *repo_of(oracle *g, const char *dir, char **note) {
  if (g->last_dir && strcmp(g->last_dir, dir) == 0)
    return g->last_repo;
  repo_entry *found = NULL;
  char *root = wl_project_root_of(dir);
  if (root) {
    for (size_t i = 0; i < g->repos.n && !found; i++)
      if (strcmp(((repo_entry *)g->repos.v[i])->root, root) == 0)
        found = g->repos.v[i];
    if (!found) {
      found = wl_xcalloc(1, sizeof *found);
      found->root = wl_xstrdup(root);
      /* the work tree itself, not a search upward: the same root as the
       * configuration lookup and --fix */
      if (git.open_ext(&found->repo, root, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
        found->repo = NULL;
        const git_error *e = git.error_last();
        if (note) {
          wl_buf b;
          wl_buf_init(&b);
          wl_buf_printf(&b, "%s: .gitignore not read: %s", root,
                        e && e->message ? e->message : "not a git repository");
          *note = wl_buf_detach(&b);
        }
      } else if (git.is_bare(found->repo)) {
        git.free_repo(found->repo);
        found->repo = NULL;
      }
      wl_vec_push(&g->repos, found);
    }
    free(root);
  }
  free(g->last_dir);
  g->last_dir = wl_xstrdup(dir);
  g->last_repo = found;
  return found;
}

static bool oracle_ignored(oracle *g, const char *canonical, char **note) {
  char *dir = wl_xstrdup(canonical);
  char *slash = strrchr(dir, '/');
  if (!slash || slash == dir) {
    free(dir);
    return false;
  }
  *slash = '\0';
  repo_entry *e = repo_of(g, dir, note);
  free(dir);
  if (!e || !e->repo)
    return false;
  char *rel = wl_relative_path(canonical, e->root);
  int ignored = 0;
  bool hit = rel[0] != '/' && strcmp(rel, ".") != 0 &&
             git.is_ignored(&ignored, e->repo, rel) == 0 && ignored;
  free(rel);
  return hit;
}

/* Whole reads and writes on the socket (the child's side blocks). */
static bool write_all(int fd, const void *p, size_t n) {
  const char *c = p;
  while (n > 0) {
    ssize_t w = send(fd, c, n, MSG_NOSIGNAL);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    c += w;
    n -= (size_t)w;
  }
  return true;
}

/* Reads n bytes; the parent (deadline != NULL) waits until *deadline at
 * most. */
static bool read_all(int fd, void *p, size_t n, const struct timespec *deadline) {
  char *c = p;
  while (n > 0) {
    if (deadline) {
      struct timespec now;
      clock_gettime(CLOCK_MONOTONIC, &now);
      long ms = (long)(deadline->tv_sec - now.tv_sec) * 1000 +
                (deadline->tv_nsec - now.tv_nsec) / 1000000;
      if (ms <= 0)
        return false;
      struct pollfd pf = {.fd = fd, .events = POLLIN};
      int r = poll(&pf, 1, (int)ms);
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return false;
    }
    ssize_t got = read(fd, c, n);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      return false;
    c += got;
    n -= (size_t)got;
  }
  return true;
}

static bool write_str(int fd, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  return write_all(fd, &n, sizeof n) && (n == 0 || write_all(fd, s, n));
}

/* A length-prefixed string (NULL for the empty one); false on a protocol
 * error or a timeout. */
static bool read_str(int fd, char **out, const struct timespec *deadline) {
  uint32_t n;
  *out = NULL;
  if (!read_all(fd, &n, sizeof n, deadline) || n > WL_GITIGNORE_MSG_MAX)
    return false;
  if (n == 0)
    return true;
  char *s = wl_xmalloc((size_t)n + 1);
  if (!read_all(fd, s, n, deadline)) {
    free(s);
    return false;
  }
  s[n] = '\0';
  *out = s;
  return true;
}

/* The child: answers "is this canonical path ignored?" until the parent
 * closes its end. An answer is one byte (0 or 1) and a note (maybe empty);
 * when libgit2 cannot be loaded, the first answer is 2 and the reason. */
static void serve(int fd) {
  if (!WL_UNDER_ASAN) {
    struct rlimit rl = {WL_GITIGNORE_AS_LIMIT, WL_GITIGNORE_AS_LIMIT};
    setrlimit(RLIMIT_AS, &rl);
  }
  const char *unloaded = git_load();
  if (unloaded) {
    char *path = NULL;
    unsigned char no = 2;
    if (read_str(fd, &path, NULL) && path)
      (void)(write_all(fd, &no, 1) && write_str(fd, unloaded));
    free(path);
    return;
  }
  git.init();
  oracle g = {0};
  for (;;) {
    char *path = NULL;
    if (!read_str(fd, &path, NULL) || !path)
      break;
    char *note = NULL;
    unsigned char hit = oracle_ignored(&g, path, &note) ? 1 : 0;
    bool ok = write_all(fd, &hit, 1) && write_str(fd, note);
    free(note);
    free(path);
    if (!ok)
      break;
  }
  oracle_free(&g);
  git.shutdown();
}

wl_gitignore *wl_gitignore_new(void) {
  wl_gitignore *g = wl_xcalloc(1, sizeof(wl_gitignore));
  g->fd = -1;
  return g;
}

static void stop_child(wl_gitignore *g, bool kill_it) {
  if (g->fd >= 0)
    close(g->fd); /* the child's read sees the end and it exits */
  g->fd = -1;
  if (g->child > 0) {
    if (kill_it)
      kill(g->child, SIGKILL);
    while (waitpid(g->child, NULL, 0) < 0 && errno == EINTR)
      ;
  }
  g->child = -1;
}

void wl_gitignore_free(wl_gitignore *g) {
  if (!g)
    return;
  stop_child(g, false);
  free(g->gave_up);
  free(g);
}

static void give_up(wl_gitignore *g, const char *why) {
  stop_child(g, true);
  wl_buf b;
  wl_buf_init(&b);
  wl_buf_printf(&b,
                "what git ignores could not be read (%s): directories are searched "
                "without .gitignore from here on",
                why);
  g->gave_up = wl_buf_detach(&b);
}

static bool start_child(wl_gitignore *g) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
    give_up(g, strerror(errno));
    return false;
  }
  fflush(NULL); /* nothing buffered twice */
  pid_t pid = fork();
  if (pid < 0) {
    close(sv[0]);
    close(sv[1]);
    give_up(g, strerror(errno));
    return false;
  }
  if (pid == 0) {
    close(sv[0]);
    serve(sv[1]);
    _exit(0);
  }
  close(sv[1]);
  g->child = pid;
  g->fd = sv[0];
  return true;
}

bool wl_gitignore_ignored(wl_gitignore *g, const char *canonical, char **note) {
  if (g->child == 0 && !start_child(g))
    g->child = -1;
  if (g->child < 0)
    return false;
  struct timespec deadline;
  clock_gettime(CLOCK_MONOTONIC, &deadline);
  deadline.tv_sec += WL_GITIGNORE_TIMEOUT_S;
  unsigned char hit = 0;
  char *said = NULL;
  if (!write_str(g->fd, canonical) || !read_all(g->fd, &hit, 1, &deadline) ||
      !read_str(g->fd, &said, &deadline) || hit > 1) {
    if (hit == 2 && said) { /* libgit2 could not be loaded */
      char why[320];
      snprintf(why, sizeof why, "libgit2: %s", said);
      free(said);
      give_up(g, why);
      return false;
    }
    free(said);
    char why[160];
    snprintf(why, sizeof why, "no answer within %d s for %s", WL_GITIGNORE_TIMEOUT_S, canonical);
    give_up(g, why);
    return wl_gitignore_ignored(g, canonical, note);
  }
  if (note)
    *note = said;
  else
    free(said);
  return hit == 1;
}

char *wl_gitignore_take_warning(wl_gitignore *g) {
  char *w = g->gave_up;
  g->gave_up = NULL;
  return w;
}
