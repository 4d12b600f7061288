/* test_fix.c - the fix engine: plans without overlaps, text application,
 * atomic writes that keep permissions, diffs and clang-tidy YAML. */
#define _DEFAULT_SOURCE   /* flock, usleep */
#define _XOPEN_SOURCE 700 /* realpath */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "buf.h"

#include "fix.h"

Suite *wl_suite_fix(void);

static wl_finding *fixable(wl_findings *f, unsigned line, unsigned off, unsigned len,
                           const char *text) {
  wl_finding *fd =
      wl_findings_add(f, "legacy-intrinsic", WL_SEV_WARNING, "k.cu", line, 1, line, 2, "m");
  wl_finding_add_edit(fd, "k.cu", off, len, text);
  return fd;
}

START_TEST(test_plan_skips_overlaps_and_merges_duplicates) {
  wl_findings f;
  wl_findings_init(&f);
  fixable(&f, 1, 10, 5, "AAAAA");
  fixable(&f, 1, 12, 5, "B");    /* overlaps the first and goes past it: skipped */
  fixable(&f, 2, 30, 0, "ins");  /* insertion */
  fixable(&f, 2, 30, 0, "ins");  /* identical edit from another finding: taken once */
  fixable(&f, 2, 30, 0, "ins2"); /* another insertion at the same point: kept */
  fixable(&f, 1, 11, 0, "in");   /* inside code the first one replaces: covered by it */
  wl_finding *two = fixable(&f, 3, 40, 1, "x");
  wl_finding_add_edit(two, "k.cu", 5, 0, "y"); /* a finding with two edits, unsorted */
  wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "k.cu", 4, 1, 4, 2, "no fix");
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, &f);
  ck_assert_uint_eq(plan.nfiles, 1);
  ck_assert_uint_eq(plan.skipped, 1);
  ck_assert(plan.taken[0] && !plan.taken[1] && plan.taken[5] && !plan.taken[8]);
  ck_assert_uint_eq(plan.files[0].nfindings, 5);
  ck_assert_uint_eq(plan.files[0].nedits, 5);
  ck_assert_uint_eq(plan.files[0].edits[0].offset, 5);
  ck_assert_uint_eq(plan.files[0].edits[1].offset, 10);
  ck_assert_uint_eq(plan.files[0].edits[2].offset, 30);
  ck_assert_str_eq(plan.files[0].edits[2].text, "ins");
  ck_assert_str_eq(plan.files[0].edits[3].text, "ins2");
  ck_assert_uint_eq(plan.files[0].edits[4].offset, 40);
  wl_fix_plan_free(&plan);
  wl_findings_free(&f);
}
END_TEST

START_TEST(test_apply_text) {
  const char *src = "v += __shfl_down(v, 1);\n";
  wl_edit e[2] = {{"k.cu", 5, 11, "__shfl_down_sync"}, {"k.cu", 17, 0, "0xffffffff, "}};
  wl_buf out;
  wl_buf_init(&out);
  ck_assert(wl_fix_apply_text(src, strlen(src), e, 2, &out));
  ck_assert_str_eq(wl_buf_str(&out), "v += __shfl_down_sync(0xffffffff, v, 1);\n");
  wl_buf_free(&out);
  wl_edit bad = {"k.cu", 100, 1, "x"};
  wl_buf_init(&out);
  ck_assert(!wl_fix_apply_text(src, strlen(src), &bad, 1, &out));
  wl_buf_free(&out);
}
END_TEST

/* wl_fix_write: the contents analyzed, the kind of file, links, roots. */
static char *write_tmp(const char *dir, const char *name, const char *text) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  ck_assert_ptr_nonnull(f);
  fputs(text, f);
  fclose(f);
  return p;
}

static bool fix_one(const char *path, const char *analyzed, const char *root, wl_buf *err) {
  wl_edit e = {(char *)path, 0, 6, (char *)"__shfl_sync"}; /* "__shfl" -> "__shfl_sync" */
  const char *roots[] = {root};
  wl_fix_target t = {path,
                     analyzed != NULL,
                     analyzed ? wl_content_hash(analyzed, strlen(analyzed)) : 0,
                     analyzed ? strlen(analyzed) : 0,
                     roots,
                     root ? 1 : 0};
  wl_buf_free(err);
  return wl_fix_write(&t, &e, 1, err);
}

static void assert_contents(const char *path, const char *want) {
  size_t len = 0;
  char *back = wl_read_file(path, &len);
  ck_assert_ptr_nonnull(back);
  ck_assert_str_eq(back, want);
  free(back);
}

/* wl_write_output (-o, --export-fixes, --write-baseline): the mechanism of
 * --fix for outputs. */
START_TEST(test_write_output) {
  char dir[] = "/tmp/warplint-out-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char *real = realpath(dir, NULL);
  wl_buf err;
  wl_buf_init(&err);
  /* an existing file: replaced, its mode kept, no temporary file left */
  char *path = write_tmp(real, "r.json", "old\n");
  ck_assert_int_eq(chmod(path, 0751), 0);
  ck_assert(wl_write_output(path, "-o", real, "new contents\n", 13, &err));
  struct stat st;
  ck_assert_int_eq(stat(path, &st), 0);
  ck_assert_uint_eq(st.st_mode & 07777, 0751);
  assert_contents(path, "new contents\n");
  /* a new file: 0666 less the umask */
  char newp[512];
  snprintf(newp, sizeof newp, "%s/new.json", real);
  mode_t um = umask(022);
  ck_assert(wl_write_output(newp, "-o", real, "x", 1, &err));
  umask(um);
  ck_assert_int_eq(stat(newp, &st), 0);
  ck_assert_uint_eq(st.st_mode & 07777, 0644);
  /* a directory that does not exist: an error naming the file */
  ck_assert(!wl_write_output("/nonexistent-dir/x.json", "-o", NULL, "x", 1, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "/nonexistent-dir/x.json"));
  /* a symbolic link inside the root: written through, still a link */
  char lnk[512];
  snprintf(lnk, sizeof lnk, "%s/link.json", real);
  ck_assert_int_eq(symlink("r.json", lnk), 0);
  ck_assert(wl_write_output(lnk, "-o", real, "via link\n", 9, &err));
  ck_assert_int_eq(lstat(lnk, &st), 0);
  ck_assert(S_ISLNK(st.st_mode));
  assert_contents(path, "via link\n");
  /* ... leading outside the root: refused, the target untouched */
  wl_buf_free(&err);
  char sub[512], out[512];
  snprintf(sub, sizeof sub, "%s/sub", real);
  ck_assert_int_eq(mkdir(sub, 0755), 0);
  snprintf(out, sizeof out, "%s/sub/out.json", real);
  ck_assert_int_eq(symlink("../r.json", out), 0);
  ck_assert(!wl_write_output(out, "-o", sub, "no\n", 3, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "a symbolic link to"));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "not written"));
  assert_contents(path, "via link\n");
  ck_assert_int_eq(lstat(out, &st), 0);
  ck_assert(S_ISLNK(st.st_mode));
  /* a dangling link: refused */
  wl_buf_free(&err);
  char dang[512];
  snprintf(dang, sizeof dang, "%s/dangling.json", real);
  ck_assert_int_eq(symlink("missing.json", dang), 0);
  ck_assert(!wl_write_output(dang, "-o", real, "no\n", 3, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "does not lead to a file"));
  /* a FIFO: refused, never opened (no hang), still a FIFO */
  wl_buf_free(&err);
  char fifo[512];
  snprintf(fifo, sizeof fifo, "%s/fifo", real);
  ck_assert_int_eq(mkfifo(fifo, 0644), 0);
  ck_assert(!wl_write_output(fifo, "--export-fixes", real, "no\n", 3, &err));
  ck_assert_ptr_nonnull(
      strstr(wl_buf_str(&err), "a FIFO; --export-fixes rewrites only regular files"));
  ck_assert_int_eq(lstat(fifo, &st), 0);
  ck_assert(S_ISFIFO(st.st_mode));
  /* a directory: refused */
  wl_buf_free(&err);
  ck_assert(!wl_write_output(sub, "-o", real, "no\n", 3, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "a directory"));
  /* a read-only file: refused, untouched */
  wl_buf_free(&err);
  char *ro = write_tmp(real, "ro.json", "keep\n");
  ck_assert_int_eq(chmod(ro, 0444), 0);
  ck_assert(!wl_write_output(ro, "--write-baseline", real, "no\n", 3, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "read-only"));
  assert_contents(ro, "keep\n");
  /* a file with two hard links: refused, the links kept */
  wl_buf_free(&err);
  char *h1 = write_tmp(real, "h1.json", "linked\n");
  char h2[512];
  snprintf(h2, sizeof h2, "%s/h2.json", real);
  ck_assert_int_eq(link(h1, h2), 0);
  ck_assert(!wl_write_output(h1, "-o", real, "no\n", 3, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "hard links"));
  assert_contents(h2, "linked\n");
  wl_buf_free(&err);
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", real);
  ck_assert_int_eq(system(cmd), 0);
  free(h1);
  free(ro);
  free(path);
  free(real);
}
END_TEST

START_TEST(test_fix_write_refusals) {
  char dir[] = "/tmp/warplint-fixw-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char *real = realpath(dir, NULL);
  const char *src = "__shfl(v, 0);\n";
  wl_buf err;
  wl_buf_init(&err);
  char *a = write_tmp(real, "a.cu", src);
  /* the file changed after it was analyzed: refused, untouched */
  ck_assert(!fix_one(a, "__shfl(w, 0);\n", real, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "changed since it was analyzed"));
  assert_contents(a, src);
  /* analyzed contents unknown: refused */
  ck_assert(!fix_one(a, NULL, real, &err));
  assert_contents(a, src);
  /* outside the roots: refused */
  ck_assert(!fix_one(a, src, "/nonexistent-root", &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "outside the project"));
  assert_contents(a, src);
  /* read-only (even for root) */
  ck_assert_int_eq(chmod(a, 0444), 0);
  ck_assert(!fix_one(a, src, real, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "read-only"));
  assert_contents(a, src);
  ck_assert_int_eq(chmod(a, 0640), 0);
  /* a second hard link: refused, both names keep the one inode */
  char *b = write_tmp(real, "b.cu", "");
  ck_assert_int_eq(unlink(b), 0);
  ck_assert_int_eq(link(a, b), 0);
  ck_assert(!fix_one(a, src, real, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "hard links"));
  struct stat sa, sb;
  ck_assert_int_eq(stat(a, &sa), 0);
  ck_assert_int_eq(stat(b, &sb), 0);
  ck_assert(sa.st_ino == sb.st_ino);
  ck_assert_int_eq(unlink(b), 0);
  /* a FIFO and a device are never opened or replaced */
  char *fifo = write_tmp(real, "f.cu", "");
  ck_assert_int_eq(unlink(fifo), 0);
  ck_assert_int_eq(mkfifo(fifo, 0644), 0);
  ck_assert(!fix_one(fifo, src, real, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "a FIFO"));
  struct stat sf;
  ck_assert_int_eq(lstat(fifo, &sf), 0);
  ck_assert(S_ISFIFO(sf.st_mode));
  ck_assert(!fix_one("/dev/null", src, NULL, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "a character device"));
  /* the right contents: rewritten, mode kept, no temporary file left */
  ck_assert(fix_one(a, src, real, &err));
  assert_contents(a, "__shfl_sync(v, 0);\n");
  ck_assert_int_eq(stat(a, &sa), 0);
  ck_assert_uint_eq(sa.st_mode & 07777, 0640);
  /* a symbolic link is written through; the link stays a link */
  char *l = write_tmp(real, "l.cu", "");
  ck_assert_int_eq(unlink(l), 0);
  char *c = write_tmp(real, "c.cu", src);
  ck_assert_int_eq(symlink("c.cu", l), 0);
  ck_assert(fix_one(l, src, real, &err));
  struct stat sl;
  ck_assert_int_eq(lstat(l, &sl), 0);
  ck_assert(S_ISLNK(sl.st_mode));
  assert_contents(c, "__shfl_sync(v, 0);\n");
  /* a link whose target is outside the roots: refused */
  ck_assert(!fix_one(l, src, "/nonexistent-root", &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "symbolic link"));
  wl_buf_free(&err);
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", real);
  ck_assert_int_eq(system(cmd), 0);
  free(a);
  free(b);
  free(c);
  free(l);
  free(fifo);
  free(real);
}
END_TEST

/* A run that waits for the lock while another replaces the file re-opens
 * the new file, sees that it changed, and refuses: the fix happens once. */
START_TEST(test_fix_write_waits_for_the_lock) {
  char dir[] = "/tmp/warplint-fixl-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char *real = realpath(dir, NULL);
  const char *src = "__shfl(v, 0);\n";
  char *a = write_tmp(real, "a.cu", src);
  int fd = open(a, O_RDONLY);
  ck_assert_int_ge(fd, 0);
  ck_assert_int_eq(flock(fd, LOCK_EX), 0);
  pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    close(fd); /* the lock belongs to the parent's open file */
    wl_buf err;
    wl_buf_init(&err);
    bool ok = fix_one(a, src, real, &err);
    bool refused = !ok && strstr(wl_buf_str(&err), "changed since it was analyzed");
    _exit(refused ? 0 : 1);
  }
  /* the other run, holding the lock, fixes the file by rename */
  usleep(200 * 1000);
  char *tmp = write_tmp(real, "a.cu.new", "__shfl_sync(v, 0);\n");
  ck_assert_int_eq(rename(tmp, a), 0);
  int status = 0;
  ck_assert_int_eq(waitpid(pid, &status, WNOHANG), 0); /* still waiting for the lock */
  close(fd);                                           /* releases it */
  ck_assert_int_eq(waitpid(pid, &status, 0), pid);
  ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  assert_contents(a, "__shfl_sync(v, 0);\n");
  char cmd[256];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", real);
  ck_assert_int_eq(system(cmd), 0);
  free(tmp);
  free(a);
  free(real);
}
END_TEST

START_TEST(test_unified_diff) {
  const char *src = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\no\np\n";
  /* line 2 (b) replaced, line 15 (o) gets an inserted line before it */
  wl_edit e[2] = {{"k.cu", 2, 1, "B"}, {"k.cu", 28, 0, "new\n"}};
  wl_buf out;
  wl_buf_init(&out);
  ck_assert(wl_unified_diff("k.cu", src, strlen(src), e, 2, &out));
  ck_assert_str_eq(wl_buf_str(&out), "--- a/k.cu\n+++ b/k.cu\n"
                                     "@@ -1,5 +1,5 @@\n a\n-b\n+B\n c\n d\n e\n"
                                     "@@ -12,5 +12,6 @@\n l\n m\n n\n+new\n o\n p\n");
  wl_buf_free(&out);
}
END_TEST

START_TEST(test_export_yaml) {
  wl_findings f;
  wl_findings_init(&f);
  fixable(&f, 1, 10, 5, "a \"quoted\"\nline");
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml(m, &f, "k.cu"));
  fclose(m);
  ck_assert_ptr_nonnull(strstr(buf, "MainSourceFile: \"k.cu\""));
  ck_assert_ptr_nonnull(strstr(buf, "DiagnosticName: \"legacy-intrinsic\""));
  ck_assert_ptr_nonnull(strstr(buf, "Offset: 10\n          Length: 5\n"));
  ck_assert_ptr_nonnull(strstr(buf, "ReplacementText: \"a \\\"quoted\\\"\\nline\""));
  free(buf);
  wl_findings_free(&f);
  wl_findings_init(&f);
  m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml(m, &f, "k.cu"));
  fclose(m);
  ck_assert_ptr_nonnull(strstr(buf, "Diagnostics: []"));
  free(buf);
}
END_TEST

/* clang-apply-replacements rejects overlapping edits and two insertions at
 * one offset: the export takes the plan's edits (an outer replacement wins,
 * a fix partly inside it or partly overlapping it is left out whole),
 * merges insertions and says what it left out. */
START_TEST(test_export_yaml_no_overlaps) {
  wl_findings f;
  wl_findings_init(&f);
  wl_finding *a = wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 2, 1, 2, 2, "a");
  wl_finding_add_edit(a, "/k.cu", 20, 5, "X");        /* inside the deletion below */
  wl_finding_add_edit(a, "/k.cu", 100, 0, "zero;\n"); /* and outside it: all or nothing */
  wl_finding *b = wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 1, 1, 1, 2, "b");
  wl_finding_add_edit(b, "/k.cu", 10, 50, ""); /* deletes [10, 60) */
  wl_finding *c = wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 3, 1, 3, 2, "c");
  wl_finding_add_edit(c, "/k.cu", 100, 0, "two;\n");
  wl_finding *c2 =
      wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 3, 1, 3, 2, "c");
  wl_finding_add_edit(c2, "/k.cu", 100, 0, "one;\n"); /* the same place as c's insertion */
  wl_finding *d = wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 4, 1, 4, 2, "d");
  wl_finding_add_edit(d, "/k.cu", 55, 10, "Y"); /* partly over the deletion: left out */
  wl_finding *e = wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "/k.cu", 2, 1, 2, 2, "e");
  wl_finding_add_edit(e, "/k.cu", 30, 2, "Z"); /* wholly inside the deletion: covered */
  char *buf = NULL;
  size_t len = 0;
  wl_buf notes;
  wl_buf_init(&notes);
  FILE *m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml_notes(m, &f, "k.cu", &notes));
  fclose(m);
  ck_assert_ptr_null(strstr(buf, "Offset: 20\n"));
  ck_assert_ptr_null(strstr(buf, "Offset: 30\n"));
  ck_assert_ptr_null(strstr(buf, "Offset: 55\n"));
  ck_assert_ptr_null(strstr(buf, "zero;"));
  ck_assert_ptr_nonnull(strstr(buf, "Offset: 10\n          Length: 50\n"));
  /* merged in the order --fix applies them (cmp_edit: by text) */
  ck_assert_ptr_nonnull(strstr(buf, "ReplacementText: \"one;\\ntwo;\\n\""));
  const char *p = strstr(buf, "Offset: 100\n");
  ck_assert_ptr_nonnull(p);
  ck_assert_ptr_null(strstr(p + 1, "Offset: 100\n"));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&notes), "1 edit inside another fix"));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&notes), "2 fixes left out"));
  free(buf);
  wl_buf_free(&notes);
  wl_findings_free(&f);
}
END_TEST

static int cmp_line(const void *a, const void *b) {
  unsigned x = (unsigned)strtoul(*(char *const *)a, NULL, 10);
  unsigned y = (unsigned)strtoul(*(char *const *)b, NULL, 10);
  return x < y ? -1 : x > y;
}

/* The lines of b sorted by their leading number (an offset). */
static void sort_lines(wl_buf *b) {
  char *copy = wl_xstrdup(wl_buf_str(b));
  char *lines[64];
  size_t n = 0;
  for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l && n < 64;
       l = strtok_r(NULL, "\n", &save))
    lines[n++] = l;
  qsort(lines, n, sizeof *lines, cmp_line);
  wl_buf_free(b);
  wl_buf_init(b);
  for (size_t i = 0; i < n; i++)
    wl_buf_printf(b, "%s\n", lines[i]);
  free(copy);
}

/* The replacements of an export: (offset, length, text) per line, sorted. */
static void export_reps(const wl_findings *f, wl_buf *out) {
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  ck_assert(wl_export_fixes_yaml(m, f, "k.cu"));
  fclose(m);
  for (const char *p = buf; (p = strstr(p, "\n          Offset: ")) != NULL; p++) {
    unsigned off, n;
    ck_assert_int_eq(sscanf(p, "\n          Offset: %u\n          Length: %u", &off, &n), 2);
    const char *t = strstr(p, "ReplacementText: ");
    const char *nl = strchr(t, '\n');
    wl_buf_printf(out, "%u %u %.*s\n", off, n, (int)(nl - t - 17), t + 17);
  }
  free(buf);
}

/* The plan's edits in the same form (insertions at one offset merged). */
static void plan_reps(const wl_findings *f, wl_buf *out) {
  wl_fix_plan plan;
  wl_fix_plan_build(&plan, f);
  for (size_t i = 0; i < plan.nfiles; i++) {
    const wl_file_fix *ff = &plan.files[i];
    for (size_t k = 0; k < ff->nedits;) {
      size_t j = k + 1;
      wl_buf t;
      wl_buf_init(&t);
      wl_buf_puts(&t, ff->edits[k].text);
      while (ff->edits[k].length == 0 && j < ff->nedits && ff->edits[j].length == 0 &&
             ff->edits[j].offset == ff->edits[k].offset)
        wl_buf_puts(&t, ff->edits[j++].text);
      wl_buf_printf(out, "%u %u \"", ff->edits[k].offset, ff->edits[k].length);
      for (const char *c = wl_buf_str(&t); *c; c++) /* as the YAML (JSON) string writes it */
        wl_buf_puts(out, *c == '\n' ? "\\n" : *c == '"' ? "\\\"" : (char[2]){*c, 0});
      wl_buf_puts(out, "\"\n");
      wl_buf_free(&t);
      k = j;
    }
  }
  wl_fix_plan_free(&plan);
}

/* --fix (the plan) and --export-fixes choose the same edits, and an outer
 * replacement wins whatever the order of the findings: a deleted overload
 * with the fixes of the calls inside it, reported before or after it. */
START_TEST(test_fix_and_export_choose_alike) {
  static const unsigned order[][3] = {{0, 1, 2}, {1, 0, 2}, {1, 2, 0}, {2, 1, 0}};
  for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
    wl_findings f;
    wl_findings_init(&f);
    for (unsigned k = 0; k < 3; k++) {
      wl_finding *fd =
          wl_findings_add(&f, "legacy-intrinsic", WL_SEV_WARNING, "k.cu", 1, 1, 1, 2, "m");
      switch (order[o][k]) {
      case 0: wl_finding_add_edit(fd, "k.cu", 10, 90, ""); break; /* the overload, deleted */
      case 1:                                                     /* a call inside it */
        wl_finding_add_edit(fd, "k.cu", 40, 11, "__shfl_down_sync");
        wl_finding_add_edit(fd, "k.cu", 52, 0, "0xffffffff, ");
        break;
      default: /* a call elsewhere, with a hoisted mask */
        wl_finding_add_edit(fd, "k.cu", 200, 0, "unsigned warp_mask = 0;\n");
        wl_finding_add_edit(fd, "k.cu", 230, 4, "__shfl_sync");
        break;
      }
    }
    wl_buf x, pl;
    wl_buf_init(&x);
    wl_buf_init(&pl);
    export_reps(&f, &x);
    sort_lines(&x);
    plan_reps(&f, &pl);
    ck_assert_str_eq(wl_buf_str(&x), wl_buf_str(&pl));
    ck_assert_str_eq(wl_buf_str(&pl), "10 90 \"\"\n200 0 \"unsigned warp_mask = 0;\\n\"\n"
                                      "230 4 \"__shfl_sync\"\n");
    wl_buf_free(&x);
    wl_buf_free(&pl);
    wl_findings_free(&f);
  }
}
END_TEST

Suite *wl_suite_fix(void) {
  Suite *s = suite_create("fix");
  TCase *tc = tcase_create("engine");
  tcase_add_test(tc, test_plan_skips_overlaps_and_merges_duplicates);
  tcase_add_test(tc, test_apply_text);
  tcase_add_test(tc, test_write_output);
  tcase_add_test(tc, test_fix_write_refusals);
  tcase_add_test(tc, test_fix_write_waits_for_the_lock);
  tcase_add_test(tc, test_unified_diff);
  tcase_add_test(tc, test_export_yaml);
  tcase_add_test(tc, test_export_yaml_no_overlaps);
  tcase_add_test(tc, test_fix_and_export_choose_alike);
  suite_add_tcase(s, tc);
  return s;
}
