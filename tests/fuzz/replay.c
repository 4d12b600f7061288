/* replay.c - runs the fuzz target (fuzz_pipeline.c) over files and
 * directories of inputs without libFuzzer: the regression corpus and the seed
 * corpus in ctest (fuzz_replay), or one crashing input by hand. Exits 0 when
 * every input passed (a failed property aborts). */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Paths (as given) not to run: inputs that violate a property because of an
 * open bug, listed with the bug in tests/fuzz/known-failures.txt. */
typedef struct skip_list {
  wl_vec paths;
} skip_list;

static bool skipped(const skip_list *sk, const char *path) {
  for (size_t i = 0; i < sk->paths.n; i++)
    if (strcmp(sk->paths.v[i], path) == 0)
      return true;
  return false;
}

/* Runs one file, or every file below a directory (in name order). */
static int replay(const char *path, size_t *count, const skip_list *sk) {
  if (skipped(sk, path)) {
    fprintf(stderr, "replay: %s: skipped (tests/fuzz/known-failures.txt)\n", path);
    return 0;
  }
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "replay: %s: cannot access\n", path);
    return 1;
  }
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d)
      return 1;
    wl_vec names = {0};
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
      if (de->d_name[0] != '.')
        wl_vec_push(&names, wl_xstrdup(de->d_name));
    closedir(d);
    qsort(names.v, names.n, sizeof *names.v, cmp_str);
    int rc = 0;
    for (size_t i = 0; i < names.n; i++) {
      wl_buf p;
      wl_buf_init(&p);
      wl_buf_printf(&p, "%s/%s", path, (char *)names.v[i]);
      rc |= replay(p.data, count, sk);
      wl_buf_free(&p);
      free(names.v[i]);
    }
    wl_vec_free(&names);
    return rc;
  }
  if (!S_ISREG(st.st_mode))
    return 0;
  size_t len = 0;
  char *data = wl_read_file(path, &len);
  if (!data) {
    fprintf(stderr, "replay: %s: cannot read\n", path);
    return 1;
  }
  fprintf(stderr, "replay: %s\n", path);
  LLVMFuzzerTestOneInput((const uint8_t *)data, len);
  free(data);
  (*count)++;
  return 0;
}

/* Reads the skip list: one path a line; '#' starts a comment. */
static void read_skips(const char *file, skip_list *sk) {
  size_t len = 0;
  char *text = wl_read_file(file, &len);
  if (!text) {
    fprintf(stderr, "replay: %s: cannot read\n", file);
    exit(2);
  }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    char *hash = strchr(line, '#');
    if (hash)
      *hash = '\0';
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
      line[--n] = '\0';
    if (n)
      wl_vec_push(&sk->paths, wl_xstrdup(line));
  }
  free(text);
}

/* replay [--skip LIST] PATH... */
int main(int argc, char **argv) {
  size_t count = 0;
  int rc = 0;
  skip_list sk = {{0}};
  int i = 1;
  if (argc > 2 && strcmp(argv[1], "--skip") == 0) {
    read_skips(argv[2], &sk);
    i = 3;
  }
  for (; i < argc; i++)
    rc |= replay(argv[i], &count, &sk);
  for (size_t k = 0; k < sk.paths.n; k++)
    free(sk.paths.v[k]);
  wl_vec_free(&sk.paths);
  printf("replay: %zu inputs passed the fuzz target's checks\n", count);
  return rc;
}
