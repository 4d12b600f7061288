/* test_pch_trim.c - the edit of a saved precompiled header (pch_trim.h):
 * a CUDA header of device functions built by libclang loses its list of
 * functions to check for deferred diagnostics, and a C++ header of static
 * functions its list of unused file-scoped declarations; each loads
 * afterwards without a complaint and with its functions callable, and a file
 * loading it no longer deserializes every function (less AST memory); a
 * second edit finds no list, a header of inline host functions has none,
 * truncated or foreign bytes are left as they are, and the headers warplint
 * builds (pch.c) come out edited. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#include <check.h>
#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "pch.h"
#include "pch_trim.h"

Suite *wl_suite_pch_trim(void);

#define NFUNCS 400

typedef struct fixture {
  char dir[64], header[128], pch[128], main[128];
} fixture;

static const char *const cuda_args[] = {
    "-x",         "cuda",       "--cuda-device-only",
    "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_70",
    "-std=c++17", "-w",         "-D__device__=__attribute__((device))"};
#define NCUDA_ARGS ((int)(sizeof cuda_args / sizeof cuda_args[0]))

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  ck_assert_ptr_nonnull(f);
  ck_assert_int_ge(fputs(text, f), 0);
  ck_assert_int_eq(fclose(f), 0);
}

typedef enum kind { DEVICE_INLINE, HOST_INLINE, HOST_STATIC } kind;

/* A header of NFUNCS functions (in a header the PCH's main file includes,
 * as the CUDA headers are), saved as a precompiled header. */
static void build(fixture *fx, kind k) {
  bool cuda = k == DEVICE_INLINE;
  snprintf(fx->dir, sizeof fx->dir, "/tmp/wl-pchtrim-XXXXXX");
  ck_assert_ptr_nonnull(mkdtemp(fx->dir));
  snprintf(fx->header, sizeof fx->header, "%s/funcs.h", fx->dir);
  snprintf(fx->pch, sizeof fx->pch, "%s/all.pch", fx->dir);
  snprintf(fx->main, sizeof fx->main, "%s/main.cu", fx->dir);
  wl_buf b;
  wl_buf_init(&b);
  for (int i = 0; i < NFUNCS; i++)
    wl_buf_printf(&b, "static %s float fn%d(float x) { return x * %d.0f + 1.0f; }\n",
                  k == DEVICE_INLINE ? "__device__ inline"
                  : k == HOST_INLINE ? "inline"
                                     : "",
                  i, i);
  write_file(fx->header, wl_buf_str(&b));
  wl_buf_free(&b);
  char top[160];
  snprintf(top, sizeof top, "%s/top.h", fx->dir);
  char inc[200];
  snprintf(inc, sizeof inc, "#include \"%s\"\n", fx->header);
  write_file(top, inc);
  write_file(fx->main, cuda ? "__device__ float use(float v) { return fn7(v); }\n"
                            : "float use(float v) { return fn7(v); }\n");
  const char *cxx[] = {"-x", "c++", "-std=c++17", "-w"};
  CXIndex idx = clang_createIndex(1, 0);
  CXTranslationUnit tu = NULL;
  ck_assert_int_eq(clang_parseTranslationUnit2(idx, top, cuda ? cuda_args : cxx,
                                               cuda ? NCUDA_ARGS : 4, NULL, 0,
                                               CXTranslationUnit_ForSerialization, &tu),
                   CXError_Success);
  ck_assert_int_eq(clang_saveTranslationUnit(tu, fx->pch, clang_defaultSaveOptions(tu)),
                   CXSaveError_None);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
}

static void cleanup(fixture *fx) {
  char path[160];
  const char *const names[] = {"funcs.h", "top.h", "all.pch", "main.cu"};
  for (size_t i = 0; i < 4; i++) {
    snprintf(path, sizeof path, "%s/%s", fx->dir, names[i]);
    unlink(path);
  }
  rmdir(fx->dir);
}

/* Parses the main file with the header; the AST memory of the unit, and
 * whether any diagnostic (an unusable header, an unknown fn7) was given. */
static unsigned long load(const fixture *fx, bool cuda, bool *clean) {
  const char *args[NCUDA_ARGS + 2];
  static const char *const cxx[] = {"-x", "c++", "-std=c++17", "-w"};
  int n = cuda ? NCUDA_ARGS : 4;
  for (int i = 0; i < n; i++)
    args[i] = cuda ? cuda_args[i] : cxx[i];
  args[n] = "-include-pch";
  args[n + 1] = fx->pch;
  CXIndex idx = clang_createIndex(1, 0);
  CXTranslationUnit tu = NULL;
  ck_assert_int_eq(
      clang_parseTranslationUnit2(idx, fx->main, args, n + 2, NULL, 0, CXTranslationUnit_None, &tu),
      CXError_Success);
  *clean = clang_getNumDiagnostics(tu) == 0;
  unsigned long ast = 0;
  CXTUResourceUsage u = clang_getCXTUResourceUsage(tu);
  for (unsigned i = 0; i < u.numEntries; i++)
    if (u.entries[i].kind == CXTUResourceUsage_AST)
      ast = u.entries[i].amount;
  clang_disposeCXTUResourceUsage(u);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return ast;
}

/* Builds, edits, and loads before and after: the edit must be done, the
 * header still usable, and less of it read. */
static void check_trimmed(kind k) {
  fixture fx;
  build(&fx, k);
  bool cuda = k == DEVICE_INLINE, clean = false;
  unsigned long before = load(&fx, cuda, &clean);
  ck_assert(clean);
  wl_pch_trim_result r;
  ck_assert(wl_pch_trim_file(fx.pch, &r));
  ck_assert_int_eq(r, WL_PCH_TRIMMED);
  unsigned long after = load(&fx, cuda, &clean);
  ck_assert_msg(clean, "the edited header must load and declare fn7");
  /* the NFUNCS functions (and their parameters) are no longer read */
  ck_assert_msg(after < before, "AST memory %lu before, %lu after", before, after);
  /* edited once: no list left, and the bytes stay as they are */
  size_t len = 0;
  char *data = wl_read_file(fx.pch, &len);
  ck_assert_ptr_nonnull(data);
  char *copy = wl_xmalloc(len);
  memcpy(copy, data, len);
  ck_assert_int_eq(wl_pch_trim((unsigned char *)data, len), WL_PCH_NO_LIST);
  ck_assert(memcmp(copy, data, len) == 0);
  free(copy);
  free(data);
  cleanup(&fx);
}

/* the device functions to check for deferred diagnostics */
START_TEST(trims_device_functions) { check_trimmed(DEVICE_INLINE); }
END_TEST

/* the unused file-scoped declarations */
START_TEST(trims_unused_statics) { check_trimmed(HOST_STATIC); }
END_TEST

START_TEST(host_header_has_no_list) {
  fixture fx;
  build(&fx, HOST_INLINE);
  wl_pch_trim_result r;
  ck_assert(wl_pch_trim_file(fx.pch, &r));
  ck_assert_int_eq(r, WL_PCH_NO_LIST);
  cleanup(&fx);
}
END_TEST

START_TEST(leaves_other_bytes_alone) {
  fixture fx;
  build(&fx, DEVICE_INLINE);
  size_t len = 0;
  char *data = wl_read_file(fx.pch, &len);
  ck_assert_ptr_nonnull(data);
  char *copy = wl_xmalloc(len);
  memcpy(copy, data, len);
  /* every truncation point of the first blocks, and a cut in the middle */
  size_t cuts[] = {0, 3, 4, 7, 8, 12, 64, 200, 4096, len / 2, len - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
    if (cuts[i] >= len)
      continue;
    ck_assert_int_eq(wl_pch_trim((unsigned char *)data, cuts[i]), WL_PCH_UNKNOWN_FILE);
    ck_assert(memcmp(copy, data, len) == 0);
  }
  /* another magic, and random bytes after a right one */
  data[0] = 'X';
  ck_assert_int_eq(wl_pch_trim((unsigned char *)data, len), WL_PCH_UNKNOWN_FILE);
  unsigned char junk[4096];
  memcpy(junk, "CPCH", 4);
  unsigned s = 12345;
  for (size_t i = 4; i < sizeof junk; i++) {
    s = s * 1103515245u + 12345u;
    junk[i] = (unsigned char)(s >> 16);
  }
  unsigned char junk_copy[sizeof junk];
  memcpy(junk_copy, junk, sizeof junk);
  ck_assert_int_eq(wl_pch_trim(junk, sizeof junk), WL_PCH_UNKNOWN_FILE);
  ck_assert(memcmp(junk, junk_copy, sizeof junk) == 0);
  /* a file that cannot be read is left alone, not an error */
  wl_pch_trim_result r = WL_PCH_TRIMMED;
  ck_assert(wl_pch_trim_file("/nonexistent/wl-pchtrim.pch", &r));
  ck_assert_int_eq(r, WL_PCH_UNKNOWN_FILE);
  free(copy);
  free(data);
  cleanup(&fx);
}
END_TEST

/* pch.c edits what it builds: its file has no list left to drop. */
START_TEST(built_headers_are_trimmed) {
  fixture fx;
  build(&fx, DEVICE_INLINE); /* for its funcs.h */
  char text[200];
  snprintf(text, sizeof text, "#include \"%s\"\n", fx.header);
  struct CXUnsavedFile uf = {"/wl-pchtrim-top.cuh", text, (unsigned long)strlen(text)};
  wl_pch_cache *c = wl_pch_cache_new(NULL);
  CXIndex idx = clang_createIndex(1, 0);
  const char *path = wl_pch_get(c, idx, uf.Filename, cuda_args, NCUDA_ARGS, &uf, 1, 0);
  ck_assert_ptr_nonnull(path);
  size_t len = 0;
  char *data = wl_read_file(path, &len);
  ck_assert_ptr_nonnull(data);
  ck_assert_int_eq(wl_pch_trim((unsigned char *)data, len), WL_PCH_NO_LIST);
  free(data);
  clang_disposeIndex(idx);
  wl_pch_cache_free(c);
  cleanup(&fx);
}
END_TEST

Suite *wl_suite_pch_trim(void) {
  Suite *s = suite_create("pch_trim");
  TCase *tc = tcase_create("trim");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, trims_device_functions);
  tcase_add_test(tc, trims_unused_statics);
  tcase_add_test(tc, host_header_has_no_list);
  tcase_add_test(tc, leaves_other_bytes_alone);
  tcase_add_test(tc, built_headers_are_trimmed);
  suite_add_tcase(s, tc);
  return s;
}
