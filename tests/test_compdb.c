/* test_compdb.c - nvcc/clang command-line translation (a table of command
 * lines and the clang arguments they must give), shell-like word splitting,
 * the architecture choice, and compile_commands.json loading through
 * libclang (relative directories, duplicates, bad databases). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compdb.h"

Suite *wl_suite_compdb(void);

/* Translates a command written as one string (split on blanks) and returns
 * its clang arguments joined by '|'. */
static char *translate(const char *cmd, const char *dir, wl_compile_flags *f) {
  wl_vec words = {0};
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_split_args(cmd, &words, &err));
  wl_compile_flags_init(f);
  wl_translate_command((const char *const *)words.v, words.n, dir, f);
  wl_buf b;
  wl_buf_init(&b);
  for (size_t i = 0; i < f->args.n; i++)
    wl_buf_printf(&b, "%s%s", i ? "|" : "", (char *)f->args.v[i]);
  for (size_t i = 0; i < words.n; i++)
    free(words.v[i]);
  wl_vec_free(&words);
  wl_buf_free(&err);
  return wl_buf_detach(&b);
}

static const struct {
  const char *cmd;
  const char *args; /* expected clang arguments, '|'-joined */
  unsigned arch;
  wl_lang lang;
  size_t notes; /* unknown flags */
} cases[] = {
    /* what CMake 3.25 writes for a CUDA source */
    {"/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DFOO -DBAR=2 -I/p/include "
     "-isystem /p/third_party -O3 -DNDEBUG "
     "--generate-code=arch=compute_75,code=[compute_75,sm_75] -Xcompiler=-fPIC -std=c++17 "
     "-x cu -c /p/src/a.cu -o CMakeFiles/a.dir/src/a.cu.o",
     "-DFOO|-DBAR=2|-I/p/include|-isystem|/p/third_party|-DNDEBUG|-std=c++17", 75, WL_LANG_CUDA, 0},
    /* relative include paths are relative to the entry's directory */
    {"nvcc -Iinclude -I ../common -isystem=ext -c x.cu",
     "-I/b/include|-I/b/../common|-isystem|/b/ext", 0, WL_LANG_UNKNOWN, 0},
    /* several gencodes: the lowest sm_70+ one */
    {"nvcc -gencode arch=compute_90,code=sm_90 -gencode arch=compute_60,code=sm_60 "
     "-gencode=arch=compute_80,code=sm_80 -c x.cu",
     "", 80, WL_LANG_UNKNOWN, 0},
    /* only pre-Volta targets: the first */
    {"nvcc -arch=sm_60 -gencode arch=compute_52,code=sm_52 -c x.cu", "", 60, WL_LANG_UNKNOWN, 0},
    {"nvcc -arch sm_86 -c x.cu", "", 86, WL_LANG_UNKNOWN, 0},
    {"nvcc --gpu-architecture=compute_72 --gpu-code=sm_72,compute_72 -c x.cu", "", 72,
     WL_LANG_UNKNOWN, 0},
    {"nvcc -arch=native -c x.cu", "", 0, WL_LANG_UNKNOWN, 0},
    /* what only matters to code generation, the host compiler or linking is dropped */
    {"nvcc --expt-relaxed-constexpr --expt-extended-lambda -rdc=false -lineinfo -G --use_fast_math "
     "-Wno-deprecated-gpu-targets -ccbin /usr/bin/g++-12 -Xcompiler -fopenmp,-Wall -Xptxas -v "
     "-maxrregcount=64 --default-stream per-thread -c x.cu -o x.o",
     "", 0, WL_LANG_UNKNOWN, 0},
    /* relocatable device code becomes clang's -fgpu-rdc, once (NCCL's -dc builds declare
     * `extern __shared__ T x;`, which clang rejects without it) */
    {"nvcc -rdc=true -c x.cu", "-fgpu-rdc", 0, WL_LANG_UNKNOWN, 0},
    {"nvcc -DA -dc x.cu -o x.o", "-DA|-fgpu-rdc", 0, WL_LANG_UNKNOWN, 0},
    {"nvcc --relocatable-device-code true --device-c -rdc=true -c x.cu", "-fgpu-rdc", 0,
     WL_LANG_UNKNOWN, 0},
    {"nvcc --relocatable-device-code=false -c x.cu", "", 0, WL_LANG_UNKNOWN, 0},
    {"clang++ -x cuda -fgpu-rdc -c x.cu", "-fgpu-rdc", 0, WL_LANG_CUDA, 0},
    /* macros and includes inside -Xcompiler reach the preprocessor */
    {"nvcc -Xcompiler -DHOST_MACRO,-fPIC -Xcompiler=-I/h -c x.cu", "-DHOST_MACRO|-I/h", 0,
     WL_LANG_UNKNOWN, 0},
    /* long forms */
    {"nvcc --define-macro=A --undefine-macro B --include-path /i --system-include=/s "
     "--pre-include pre.h --std c++14 --x cu -c x.cu",
     "-DA|-UB|-I/i|-isystem|/s|-include|pre.h|-std=c++14", 0, WL_LANG_CUDA, 0},
    /* nvcc lists */
    {"nvcc -I a,b -c x.cu", "-I/b/a|-I/b/b", 0, WL_LANG_UNKNOWN, 0},
    /* a C++ file compiled by nvcc without -x cu is not CUDA when -x says so */
    {"nvcc -x c++ -c host.cpp", "", 0, WL_LANG_OTHER, 0},
    /* clang as the CUDA compiler */
    {"/usr/bin/clang++ --driver-mode=g++ -x cuda --cuda-gpu-arch=sm_80 --cuda-path=/usr/local/cuda "
     "-DX -Iinc -MD -MT x.o -MF x.d -c x.cu",
     "-DX|-I/b/inc", 80, WL_LANG_CUDA, 0},
    {"clang++ --offload-arch=sm_90,sm_75 -c x.cu", "", 75, WL_LANG_UNKNOWN, 0},
    /* a C standard (a C file's entry, analyzed because it was named) is not passed */
    {"gcc -std=gnu11 -DC_FILE -c x.c", "-DC_FILE", 0, WL_LANG_UNKNOWN, 0},
    /* launchers */
    {"ccache /usr/local/cuda/bin/nvcc -DLAUNCHED -c x.cu", "-DLAUNCHED", 0, WL_LANG_UNKNOWN, 0},
    /* unknown flags never abort: dropped with a note */
    {"nvcc --some-future-flag -DKEEP -c x.cu", "-DKEEP", 0, WL_LANG_UNKNOWN, 1},
    /* a value missing at the end of the command */
    {"nvcc -c x.cu -I", "", 0, WL_LANG_UNKNOWN, 1},
    /* hostile entries: nothing that writes files or loads code reaches libclang */
    {"nvcc -Xclang -load -Xclang /tmp/evil.so -fplugin=/tmp/evil.so -fpass-plugin=/tmp/e.so -H "
     "-MD -MF /tmp/dep --serialize-diagnostics /tmp/d -o /tmp/out -Wp,-MD,/tmp/x -save-temps "
     "-Xclang -header-include-file -Xclang /tmp/h -mllvm -x -DOK -c x.cu",
     "-DOK", 0, WL_LANG_UNKNOWN, 3},
    {"nvcc -Xcompiler=-fplugin=/tmp/e.so,-MD,-MF,/tmp/dep,-H,-DHOST -c x.cu", "-DHOST", 0,
     WL_LANG_UNKNOWN, 0},
    /* a macro definition stays one line */
    {"nvcc \"-DA=1\n#pragma clang system_header\" -DB -c x.cu", "-DB", 0, WL_LANG_UNKNOWN, 1},
};

START_TEST(test_translate_table) {
  wl_compile_flags f;
  char *got = translate(cases[_i].cmd, "/b", &f);
  ck_assert_msg(strcmp(got, cases[_i].args) == 0, "case %d: got '%s', want '%s'", _i, got,
                cases[_i].args);
  ck_assert_msg(f.arch == cases[_i].arch, "case %d: arch %u, want %u", _i, f.arch, cases[_i].arch);
  ck_assert_msg(f.lang == cases[_i].lang, "case %d: lang %d", _i, (int)f.lang);
  ck_assert_msg(f.notes.n == cases[_i].notes, "case %d: %zu notes (%s)", _i, f.notes.n,
                f.notes.n ? (char *)f.notes.v[0] : "");
  free(got);
  wl_compile_flags_free(&f);
}
END_TEST

START_TEST(test_options_file) {
  char dir[] = "/tmp/wl-optf-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/includes_CUDA.rsp", dir);
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs("-I\"inc dir\" -isystem /sys\n-DFROM_FILE='a b'\n", fp);
  fclose(fp);
  wl_compile_flags f;
  char cmd[512];
  snprintf(cmd, sizeof cmd, "nvcc --options-file includes_CUDA.rsp -c x.cu");
  char *got = translate(cmd, dir, &f);
  char want[512];
  snprintf(want, sizeof want, "-I%s/inc dir|-isystem|/sys|-DFROM_FILE=a b", dir);
  ck_assert_str_eq(got, want);
  free(got);
  wl_compile_flags_free(&f);
  /* a missing options file is a note, not a failure */
  got = translate("nvcc -optf missing.rsp -DSTILL -c x.cu", dir, &f);
  ck_assert_str_eq(got, "-DSTILL");
  ck_assert_uint_eq(f.notes.n, 1);
  free(got);
  wl_compile_flags_free(&f);
  unlink(path);
  rmdir(dir);
}
END_TEST

START_TEST(test_split_args) {
  wl_vec w = {0};
  wl_buf err;
  wl_buf_init(&err);
  ck_assert(wl_split_args("  a 'b c' \"d \\\"e\\\"\" f\\ g \"\" ", &w, &err));
  ck_assert_uint_eq(w.n, 5);
  ck_assert_str_eq(w.v[0], "a");
  ck_assert_str_eq(w.v[1], "b c");
  ck_assert_str_eq(w.v[2], "d \"e\"");
  ck_assert_str_eq(w.v[3], "f g");
  ck_assert_str_eq(w.v[4], "");
  for (size_t i = 0; i < w.n; i++)
    free(w.v[i]);
  w.n = 0;
  ck_assert(!wl_split_args("x 'unterminated", &w, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "unterminated"));
  for (size_t i = 0; i < w.n; i++)
    free(w.v[i]);
  wl_vec_free(&w);
  wl_buf_free(&err);
}
END_TEST

START_TEST(test_pick_arch) {
  unsigned a[] = {90, 52, 80, 75};
  ck_assert_uint_eq(wl_pick_arch(a, 4), 75);
  unsigned b[] = {61, 52};
  ck_assert_uint_eq(wl_pick_arch(b, 2), 61);
  ck_assert_uint_eq(wl_pick_arch(NULL, 0), 0);
}
END_TEST

START_TEST(test_paths) {
  char *r = wl_relative_path("/a/b/c.cu", "/a");
  ck_assert_str_eq(r, "b/c.cu");
  free(r);
  r = wl_relative_path("/ab/c.cu", "/a");
  ck_assert_str_eq(r, "/ab/c.cu");
  free(r);
  r = wl_canonical_path("/no/such/dir/../x/./y.cu");
  ck_assert_str_eq(r, "/no/such/x/y.cu");
  free(r);
}
END_TEST

static void write_text(const char *path, const char *text) {
  FILE *fp = fopen(path, "w");
  ck_assert_ptr_nonnull(fp);
  fputs(text, fp);
  fclose(fp);
}

START_TEST(test_load_database) {
  char dir[] = "/tmp/wl-cdb-XXXXXX";
  ck_assert_ptr_nonnull(mkdtemp(dir));
  char path[256], src[256], sub[256];
  snprintf(sub, sizeof sub, "%s/src", dir);
  mkdir(sub, 0755);
  snprintf(src, sizeof src, "%s/src/k.cu", dir);
  write_text(src, "__global__ void k() {}\n");
  /* relative "directory" (relative to the database), the same file twice */
  snprintf(path, sizeof path, "%s/db.json", dir);
  write_text(path, "[\n"
                   " {\"directory\": \".\", \"command\": \"nvcc -DFIRST -arch=sm_80 -x cu -c "
                   "src/k.cu\", \"file\": \"src/k.cu\"},\n"
                   " {\"directory\": \"src\", \"arguments\": [\"nvcc\", \"-DSECOND\", \"-c\", "
                   "\"k.cu\"], \"file\": \"k.cu\"},\n"
                   " {\"directory\": \"/elsewhere\", \"command\": \"g++ -c a.cpp\", \"file\": "
                   "\"a.cpp\"}\n"
                   "]\n");
  wl_compdb db;
  wl_buf err;
  wl_buf_init(&err);
  ck_assert_msg(wl_compdb_load(path, &db, &err), "%s", wl_buf_str(&err));
  ck_assert_uint_eq(db.n, 2);
  ck_assert_uint_eq(db.duplicates, 1);
  char *canon = wl_canonical_path(src);
  const wl_compdb_entry *e = wl_compdb_find(&db, canon);
  ck_assert_ptr_nonnull(e);
  ck_assert_uint_eq(e->flags.args.n, 1);
  ck_assert_str_eq(e->flags.args.v[0], "-DFIRST"); /* the first entry wins */
  ck_assert_uint_eq(e->flags.arch, 80);
  ck_assert_int_eq(e->flags.lang, WL_LANG_CUDA);
  ck_assert_ptr_null(wl_compdb_find(&db, "/nowhere/x.cu"));
  wl_compdb_free(&db);

  /* a directory without compile_commands.json; invalid JSON; an entry without "file" */
  wl_buf_free(&err);
  ck_assert(!wl_compdb_load(sub, &db, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "no compile_commands.json"));
  snprintf(path, sizeof path, "%s/compile_commands.json", dir);
  write_text(path, "[ {\"directory\": \"/x\", ");
  wl_buf_free(&err);
  ck_assert(!wl_compdb_load(dir, &db, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "not valid JSON"));
  write_text(path, "[ {\"directory\": \"/x\", \"command\": \"nvcc -c a.cu\"} ]");
  wl_buf_free(&err);
  ck_assert(!wl_compdb_load(path, &db, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "entry 1 has no \"file\""));
  wl_buf_free(&err);
  ck_assert(!wl_compdb_load("/no/such/build", &db, &err));
  ck_assert_ptr_nonnull(strstr(wl_buf_str(&err), "cannot access"));
  wl_buf_free(&err);

  unlink(path);
  snprintf(path, sizeof path, "%s/db.json", dir);
  unlink(path);
  unlink(src);
  rmdir(sub);
  rmdir(dir);
  free(canon);
}
END_TEST

Suite *wl_suite_compdb(void) {
  Suite *s = suite_create("compdb");
  TCase *tc = tcase_create("translate");
  tcase_add_loop_test(tc, test_translate_table, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(tc, test_options_file);
  tcase_add_test(tc, test_split_args);
  tcase_add_test(tc, test_pick_arch);
  tcase_add_test(tc, test_paths);
  suite_add_tcase(s, tc);
  tc = tcase_create("database");
  tcase_add_test(tc, test_load_database);
  suite_add_tcase(s, tc);
  return s;
}
