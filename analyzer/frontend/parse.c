/* parse.c - the libclang invocation: the parser and its architectures,
 * argument set-up for the device-side view of CUDA, the built-in prelude as
 * unsaved files, diagnostics, and wl_parse, which lowers the result
 * (lower.c, instances.c). libclang lives in frontend/ and nowhere else. */
#define _XOPEN_SOURCE 700 /* realpath */
#define _GNU_SOURCE       /* memmem */
#include "parse.h"
#include "batches.h"
#include "lower.h"

#include <clang-c/Index.h>
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "deps.h"
#include "pch.h"
#include "pch_std.h"
#include "toolkit.h"

#include "hmap.h"

/* Architectures libclang may know, newest first (CUDA 13: sm_110, sm_121). */
static const unsigned candidate_archs[] = {121, 120, 110, 103, 101, 100, 90, 89, 87, 86, 80, 75,
                                           72,  70,  62,  61,  60,  53,  52, 50, 37, 35, 32, 30};
#define NCANDIDATES (sizeof candidate_archs / sizeof candidate_archs[0])
#define WL_ARCH_CACHE 8

struct wl_parser {
  CXIndex index;
  unsigned long clang_major; /* libclang's major version; 0: unknown */
  /* architectures probed (asked -> used), so that each is probed once per parser */
  unsigned arch_asked[WL_ARCH_CACHE], arch_used[WL_ARCH_CACHE];
  size_t narch;
  wl_deps_memo deps; /* the files of the precompiled headers loaded */
  /* Whether a header (by name) is a system header, for the arguments of
   * sys_args (a hash of them): learnt once per parser, not once per file
   * (see lower_ctx.system_names). Names and values are owned. */
  wl_hmap system_names;
  uint64_t sys_args;
  /* the precompiled headers whose companion list of macro headers
   * (WL_PCH_COMPANION_SYS) went into system_names (char*, owned) */
  wl_vec sys_pchs;
  /* The precompiled headers with the standard headers this parser loaded
   * (char*, owned) and what each holds (wl_pch_std*; NULL: unreadable). */
  wl_vec std_pch, std_maps;
  /* While the standard headers do not pay (std_worth): files since the
   * last try with them, and how many to let go by before the next. */
  unsigned std_idle, std_backoff;
  /* What the last file parsed ended with: its path (owned), a hash of its
   * options (section_opts), the section its unit was parsed with when not
   * the one it tried first (-1: that one), and whether its lowering asked
   * for clang's instantiations. The parses that check its fixes come right
   * after it and start there (resume_section, wl_parse). */
  struct {
    char *path;
    uint64_t opts;
    int section;
    bool instantiate;
  } last;
  /* libclang's resource directory, for the driver (see find_resource_dir); "" if unknown */
  char resource_dir[PATH_MAX];
  /* The file being parsed is parsed as a complete unit, with clang's
   * instantiations at its end (see parse_once). */
  bool instantiate;
  bool redo; /* its lowering asked for them (lower_ctx.wants_instances) */
};

/* libclang's resource directory (clang/<major> beside the library, as
 * libclang finds its own headers): the driver inside libclang derives it from
 * a program path instead, so that clang's CUDA wrappers of standard headers
 * (cuda_wrappers/: <new>'s device placement new, <complex>, <algorithm>) are
 * left out of the include path unless -resource-dir names it. */
static unsigned long clang_major(void) {
  CXString v = clang_getClangVersion();
  const char *vs = clang_getCString(v);
  const char *at = vs ? strstr(vs, "version ") : NULL;
  unsigned long major = at ? strtoul(at + 8, NULL, 10) : 0;
  clang_disposeString(v);
  return major;
}

static void find_resource_dir(char *out, size_t n, unsigned long major) {
  out[0] = '\0';
  Dl_info info;
  if (!dladdr((void *)(uintptr_t)clang_createIndex, &info) || !info.dli_fname)
    return;
  char lib[PATH_MAX], real[PATH_MAX];
  snprintf(lib, sizeof lib, "%s", info.dli_fname);
  const char *dirs[2] = {lib, realpath(info.dli_fname, real) ? real : NULL};
  for (int d = 0; d < 2 && major; d++) {
    char *slash = dirs[d] ? strrchr(dirs[d], '/') : NULL;
    if (!slash)
      continue;
    *slash = '\0';
    static const char *const forms[] = {"", "/../lib"}; /* <dir>/clang/N, <dir>/../lib/clang/N */
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
      char cand[PATH_MAX + 32], wrappers[PATH_MAX + 64];
      snprintf(cand, sizeof cand, "%s%s/clang/%lu", dirs[d], forms[f], major);
      snprintf(wrappers, sizeof wrappers, "%s/include/cuda_wrappers", cand);
      struct stat st;
      if (stat(wrappers, &st) == 0 && S_ISDIR(st.st_mode) && realpath(cand, real) &&
          strlen(real) < n) {
        snprintf(out, n, "%s", real);
        return;
      }
    }
  }
}

wl_parser *wl_parser_new(void) {
  wl_parser *p = wl_xcalloc(1, sizeof *p);
  /* declarations of a precompiled header are not visited as the file's own */
  p->index = clang_createIndex(1, 0);
  wl_hmap_init(&p->system_names, true);
  p->clang_major = clang_major();
  find_resource_dir(p->resource_dir, sizeof p->resource_dir, p->clang_major);
  return p;
}

static void system_names_clear(wl_parser *p) {
  for (size_t i = 0; i < p->system_names.cap; i++)
    free((void *)p->system_names.slots[i].key);
  wl_hmap_free(&p->system_names);
  wl_hmap_init(&p->system_names, true);
  for (size_t i = 0; i < p->sys_pchs.n; i++)
    free(p->sys_pchs.v[i]);
  wl_vec_free(&p->sys_pchs);
}

/* The system flags the build of `pch` saw for the headers that define
 * macros (its companion file), into system_names, once per parser and
 * arguments: a header the unit meets only as the spelling of a macro's body
 * in another macro (cudpp's CUDA_SAFE_CALL spells <stdio.h>'s stderr)
 * would otherwise be looked up among all the header's source locations. */
static void system_names_of_pch(wl_parser *p, wl_pch_cache *c, const char *pch) {
  if (!c || !pch)
    return;
  for (size_t i = 0; i < p->sys_pchs.n; i++)
    if (strcmp(p->sys_pchs.v[i], pch) == 0)
      return;
  wl_vec_push(&p->sys_pchs, wl_xstrdup(pch));
  size_t len = 0;
  char *t = wl_pch_companion_read(c, pch, WL_PCH_COMPANION_SYS, &len);
  for (char *l = t, *nl; l && l < t + len && (nl = memchr(l, '\n', (size_t)(t + len - l)));
       l = nl + 1) {
    *nl = '\0';
    if ((l[0] == 'S' || l[0] == 'U') && l[1] == ' ' && l[2])
      lower_note_system(&p->system_names, l + 2, l[0] == 'S');
  }
  free(t);
}

void wl_parser_free(wl_parser *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->std_pch.n; i++) {
    free(p->std_pch.v[i]);
    wl_pch_std_free(p->std_maps.v[i]);
  }
  wl_vec_free(&p->std_pch);
  wl_vec_free(&p->std_maps);
  free(p->last.path);
  wl_deps_memo_free(&p->deps);
  system_names_clear(p);
  wl_hmap_free(&p->system_names);
  clang_disposeIndex(p->index);
  free(p);
}

/* Architectures that libclang 19 accepts (checked by the probe below) and
 * that a later release is not expected to drop (sm_75 is the oldest CUDA 13
 * supports): taken as known without the probe, whose parse of an empty file
 * was about 3 ms, 4.5 % of a small file's run. */
static const unsigned listed_archs[] = {75, 80, 86, 87, 89, 90};

/* Whether this libclang accepts --cuda-gpu-arch=sm_<arch>: a parse of an
 * empty file (libclang's driver refuses an unknown architecture with error 4). */
static bool arch_known(wl_parser *p, unsigned arch) {
  for (size_t i = 0; p->clang_major >= 19 && i < sizeof listed_archs / sizeof listed_archs[0]; i++)
    if (listed_archs[i] == arch)
      return true;
  char flag[48];
  snprintf(flag, sizeof flag, "--cuda-gpu-arch=sm_%u", arch);
  const char *args[] = {"-x",         "cuda", "--cuda-device-only",        "-nocudainc",
                        "-nocudalib", "-w",   "-Wno-unknown-cuda-version", flag};
  struct CXUnsavedFile uf = {"/__warplint_arch_probe.cu", "", 0};
  CXTranslationUnit tu = NULL;
  enum CXErrorCode ec =
      clang_parseTranslationUnit2(p->index, uf.Filename, args, (int)(sizeof args / sizeof args[0]),
                                  &uf, 1, CXTranslationUnit_None, &tu);
  if (tu)
    clang_disposeTranslationUnit(tu);
  return ec == CXError_Success && tu;
}

unsigned wl_parser_arch(wl_parser *p, unsigned arch) {
  for (size_t i = 0; i < p->narch; i++)
    if (p->arch_asked[i] == arch)
      return p->arch_used[i];
  unsigned used = arch;
  if (!arch_known(p, arch)) {
    /* the newest known one below it; for an unknown old one, the oldest known above it */
    used = 0;
    for (size_t i = 0; i < NCANDIDATES && !used; i++)
      if (candidate_archs[i] < arch && arch_known(p, candidate_archs[i]))
        used = candidate_archs[i];
    for (size_t i = NCANDIDATES; i-- > 0 && !used;)
      if (candidate_archs[i] > arch && arch_known(p, candidate_archs[i]))
        used = candidate_archs[i];
    if (!used)
      used = arch; /* nothing works: let the parse report it */
  }
  if (p->narch < WL_ARCH_CACHE) {
    p->arch_asked[p->narch] = arch;
    p->arch_used[p->narch++] = used;
  }
  return used;
}

unsigned wl_parse_arch(const char *s) {
  if (!s)
    return 0;
  if (strncmp(s, "sm_", 3) == 0)
    s += 3;
  else if (strncmp(s, "compute_", 8) == 0)
    s += 8;
  unsigned major = 0, minor = 0;
  char tail = 0;
  if (sscanf(s, "%u.%u%c", &major, &minor, &tail) == 2 && major < 100 && minor < 10)
    return major * 10 + minor;
  char *end = NULL;
  unsigned long v = strtoul(s, &end, 10);
  if (end == s || v < 10 || v > 1299)
    return 0;
  while (*end >= 'a' && *end <= 'z') /* sm_90a, sm_100f */
    end++;
  return *end ? 0 : (unsigned)v;
}

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */

static void collect_diags(lower_ctx *L, const wl_parse_opts *opts) {
  unsigned n = clang_getNumDiagnostics(L->ctu);
  wl_parse_diag *v = NULL;
  unsigned nv = 0;
  for (unsigned i = 0; i < n; i++) {
    CXDiagnostic d = clang_getDiagnostic(L->ctu, i);
    enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
    if (sev >= CXDiagnostic_Error) {
      v = wl_xrealloc(v, (nv + 1) * sizeof *v);
      wl_parse_diag *pd = &v[nv++];
      pd->loc = lower_expansion_loc(L, clang_getDiagnosticLocation(d));
      pd->message = lower_take(L, clang_getDiagnosticSpelling(d));
      pd->fatal = sev == CXDiagnostic_Fatal;
      if (opts->verbose && !opts->quiet_diags)
        fprintf(stderr, "%s:%u:%u: note: could not resolve: %s\n",
                pd->loc.file ? pd->loc.file : L->tu->path, pd->loc.line, pd->loc.col, pd->message);
    }
    clang_disposeDiagnostic(d);
  }
  if (nv) {
    L->tu->diags = wl_arena_alloc(A(L), nv * sizeof *v);
    memcpy(L->tu->diags, v, nv * sizeof *v);
    L->tu->ndiags = nv;
  }
  free(v);
}

/* The user headers of the TU (not the main file, the prelude, the toolkit or
 * system headers) with their canonical paths and their text as clang read it. */
static void record_files(lower_ctx *L) {
  unsigned n = 0;
  for (size_t i = 0; i < L->nfiles; i++)
    n += !L->files[i].main && !L->files[i].prelude && !L->files[i].system;
  if (!n)
    return;
  wl_tu_file *v = wl_arena_alloc(A(L), n * sizeof *v);
  unsigned k = 0;
  for (size_t i = 0; i < L->nfiles; i++) {
    const file_name *fn = &L->files[i];
    if (fn->main || fn->prelude || fn->system)
      continue;
    wl_tu_file *tf = &v[k++];
    tf->name = fn->name;
    char resolved[PATH_MAX];
    tf->canon = wl_arena_strdup(A(L), realpath(fn->name, resolved) ? resolved : fn->name);
    size_t size = 0;
    const char *text = lower_file_text(L, fn->file, &size);
    tf->source = wl_arena_strndup(A(L), text ? text : "", text ? size : 0);
    tf->source_len = text ? size : 0;
    tf->has_code = fn->has_code;
  }
  L->tu->files = v;
  L->tu->nfiles = k;
}

/* ------------------------------------------------------------------------ */
/* Entry point                                                              */

/* A NUL byte anywhere: not source text (the whole file is checked, a
 * source with a binary tail is not parsed up to its first NUL). */
static bool looks_binary(const char *s, size_t n) { return memchr(s, '\0', n) != NULL; }

/* Headers a CUDA 13 toolkit no longer ships but clang's wrapper still includes. */
static const char *const removed_headers[] = {
    "texture_fetch_functions.h", "texture_indirect_functions.h", "surface_indirect_functions.h",
    "surface_fetch_functions.h"};

#define PRELUDE_MAIN WL_PRELUDE_DIR "/__warplint_prelude.h"
#define LEGACY_DECLS WL_PRELUDE_DIR "/__warplint_legacy.h"
#define PCH_HEADER WL_PRELUDE_DIR "/__warplint_pch.cuh"
#define REMOVED_DIR WL_PRELUDE_DIR "/removed"

static const char toolkit_pch[] = "#if __has_include(<cooperative_groups.h>)\n"
                                  "#include <cooperative_groups.h>\n"
                                  "#endif\n"
                                  "#if __has_include(<cooperative_groups/reduce.h>)\n"
                                  "#include <cooperative_groups/reduce.h>\n"
                                  "#endif\n"
                                  "#if __has_include(<cooperative_groups/scan.h>)\n"
                                  "#include <cooperative_groups/scan.h>\n"
                                  "#endif\n";

/* What the precompiled header holds besides the CUDA headers: nothing, the
 * C and C++ standard headers (pch_std.h), or those and the CUDA C++ core
 * libraries (with a toolkit); or (SECTION_CCCL_OWN, with a toolkit) only
 * the headers of the core libraries and the toolkit's libraries that the
 * file itself includes, in its order (cccl_own), for a file that the
 * standard headers made parse again; or (SECTION_STD_OWN, with a toolkit)
 * the standard headers and those of the toolkit's libraries the file
 * includes itself, for a file that includes some but none of the core
 * libraries (library_header). */
typedef enum pch_section {
  SECTION_NONE,
  SECTION_STD,
  SECTION_CCCL,
  SECTION_CCCL_OWN,
  SECTION_STD_OWN
} pch_section;

/* Where the cooperative groups go in it (with a toolkit): nowhere; before
 * everything, for a file that names them itself; in the section, for a
 * file whose own headers name them (only with a section). */
typedef enum cg_place { CG_NONE, CG_BASE, CG_SECTION } cg_place;

/* The arguments and unsaved files of a parse, apart from the main file. */
typedef struct invocation {
  wl_vec args; /* const char*, some pointing into the buffers below */
  char arch[64], cudapath[1200], cccl[1200], vmaj[48], vmin[48];
  struct CXUnsavedFile *uf; /* nuf used; room for one more (the main file) */
  char **names;             /* owned names of uf[0 .. nnames) */
  char *pch_text;           /* the precompiled header's main file (owned) */
  unsigned std_line;        /* its line where the standard headers start; 0: none */
  bool with_cccl;           /* the CUDA C++ core libraries follow them */
  unsigned nuf, nnames;
} invocation;

static void add_unsaved(invocation *in, const char *dir, const char *name, const char *text) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *full = wl_xmalloc(n);
  snprintf(full, n, "%s/%s", dir, name);
  in->names[in->nnames++] = full;
  in->uf[in->nuf].Filename = full;
  in->uf[in->nuf].Contents = text;
  in->uf[in->nuf].Length = (unsigned long)strlen(text);
  in->nuf++;
}

/* The device-side view of CUDA: the toolkit's headers through clang's CUDA
 * wrapper with warplint's declarations of the removed legacy intrinsics, or
 * the built-in prelude (-nocudainc). Always as relocatable device code
 * (-fgpu-rdc, nvcc's -rdc=true or -dc): what only separately compiled code
 * may declare, such as NCCL's `extern __shared__ ncclShmemData ncclShmem;`
 * (not an array), is then accepted without a compile database too, instead
 * of being rejected with every use of it; nothing else the analysis reads
 * changes (clang only defines __CLANG_RDC__ besides). With GNU keywords
 * (typeof) whatever the -std, as nvcc's device front end accepts them
 * (NCCL's GPI_ACCESS_ONCE is `*(volatile typeof(x) *)&(x)` under -std=c++17). */
static void invocation_init(invocation *in, const wl_parse_opts *opts, unsigned arch, cg_place cg,
                            pch_section std, const char *own, const char *resource_dir) {
  memset(in, 0, sizeof *in);
  snprintf(in->arch, sizeof in->arch, "--cuda-gpu-arch=sm_%u", arch);
  static const char *const base[] = {"-x",
                                     "cuda",
                                     "--cuda-device-only",
                                     "-std=c++17",
                                     "-w",
                                     "-ferror-limit=0",
                                     "-Wno-unknown-cuda-version",
                                     "-fno-spell-checking",
                                     "-fgpu-rdc",
                                     "-fgnu-keywords",
                                     "-nocudalib"};
  for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
    wl_vec_push(&in->args, (void *)base[i]);
  wl_vec_push(&in->args, in->arch);
  if (opts->cuda_path) {
    snprintf(in->cudapath, sizeof in->cudapath, "--cuda-path=%s", opts->cuda_path);
    wl_vec_push(&in->args, in->cudapath);
    /* clang's CUDA wrappers of standard headers, as clang's own driver adds them */
    if (resource_dir && resource_dir[0]) {
      wl_vec_push(&in->args, "-resource-dir");
      wl_vec_push(&in->args, (void *)resource_dir);
    }
    /* CUDA 12.x and later keep cub, thrust and libcu++ here; nvcc adds it */
    snprintf(in->cccl, sizeof in->cccl, "%s/include/cccl", opts->cuda_path);
    struct stat st;
    if (stat(in->cccl, &st) == 0 && S_ISDIR(st.st_mode)) {
      wl_vec_push(&in->args, "-isystem");
      wl_vec_push(&in->args, in->cccl);
    }
    /* nvcc, not the headers, defines __CUDACC_VER_*__: take them from the toolkit's cuda.h */
    unsigned ver = opts->cuda_version ? opts->cuda_version : wl_toolkit_version(opts->cuda_path);
    if (ver < 9000)
      ver = 9000; /* unreadable: the oldest toolkit with the _sync intrinsics */
    snprintf(in->vmaj, sizeof in->vmaj, "-D__CUDACC_VER_MAJOR__=%u", ver / 1000);
    snprintf(in->vmin, sizeof in->vmin, "-D__CUDACC_VER_MINOR__=%u", ver % 1000 / 10);
    wl_vec_push(&in->args, in->vmaj);
    wl_vec_push(&in->args, in->vmin);
    wl_vec_push(&in->args, "-D__CUDACC_VER_BUILD__=0");
    wl_vec_push(&in->args, "-D__NVCC__=1");
    wl_vec_push(&in->args, "-idirafter");
    wl_vec_push(&in->args, REMOVED_DIR);
    wl_vec_push(&in->args, "-include");
    wl_vec_push(&in->args, LEGACY_DECLS);
  } else {
    wl_vec_push(&in->args, "-nocudainc");
    wl_vec_push(&in->args, "-idirafter");
    wl_vec_push(&in->args, WL_PRELUDE_DIR);
    wl_vec_push(&in->args, "-include");
    wl_vec_push(&in->args, PRELUDE_MAIN);
  }
  for (size_t i = 0; i < opts->nargs; i++)
    wl_vec_push(&in->args, (void *)opts->args[i]);

  /* unsaved files: the prelude (or the removed-header stand-ins and the legacy
   * declarations), the precompiled header's empty main file, and room for the
   * main file */
  size_t nprelude = 0;
  while (wl_prelude_files[nprelude].name)
    nprelude++;
  size_t nremoved = sizeof removed_headers / sizeof removed_headers[0];
  size_t cap = nprelude + nremoved + 3;
  in->uf = wl_xcalloc(cap, sizeof *in->uf);
  in->names = wl_xcalloc(cap, sizeof *in->names);
  if (!opts->cuda_path) {
    for (size_t i = 0; i < nprelude; i++)
      add_unsaved(in, WL_PRELUDE_DIR, wl_prelude_files[i].name, wl_prelude_files[i].text);
  } else {
    for (size_t i = 0; i < nremoved; i++)
      add_unsaved(in, REMOVED_DIR, removed_headers[i], "#pragma once\n");
    for (size_t i = 0; i < nprelude; i++)
      if (strcmp(wl_prelude_files[i].name, "__warplint_legacy.h") == 0)
        add_unsaved(in, WL_PRELUDE_DIR, wl_prelude_files[i].name, wl_prelude_files[i].text);
  }
  /* with a toolkit, the precompiled header of a file that names
   * cooperative_groups also holds them (namespaced, so invisible to code
   * that does not include them): such a file would otherwise parse their
   * 10,000 lines itself, about 1 s; the others get one without them, which
   * costs each file about 40 ms less to load */
  wl_buf t;
  wl_buf_init(&t);
  wl_buf_puts(&t, opts->cuda_path && cg == CG_BASE ? toolkit_pch : "");
  if (std) {
    /* the C and C++ standard headers (pch_std.h): most files include some */
    in->std_line = 1;
    for (size_t i = 0; i < t.len; i++)
      in->std_line += t.data[i] == '\n';
    if (std != SECTION_CCCL_OWN)
      wl_buf_puts(&t, wl_pch_std_text());
    /* a file whose own headers name the cooperative groups: checked as
     * the standard headers are, since it is not the file that includes them */
    if (opts->cuda_path && cg == CG_SECTION)
      wl_buf_puts(&t, toolkit_pch);
    if (std == SECTION_CCCL && opts->cuda_path) {
      wl_pch_cccl_append(&t);
      in->with_cccl = true;
    }
    if ((std == SECTION_CCCL_OWN || std == SECTION_STD_OWN) && opts->cuda_path && own) {
      wl_buf_puts(&t, own);
      in->with_cccl = true;
    }
  }
  in->pch_text = wl_buf_detach(&t);
  add_unsaved(in, WL_PRELUDE_DIR, "__warplint_pch.cuh", in->pch_text);
}

static void invocation_free(invocation *in) {
  for (unsigned i = 0; i < in->nnames; i++)
    free(in->names[i]);
  free(in->names);
  free(in->uf);
  free(in->pch_text);
  wl_vec_free(&in->args);
}

/* Whether the arguments of a file allow the shared precompiled header: a
 * forced include of its own would have to come after it, and a precompiled
 * header of its own cannot be combined with it. */
static bool pch_allowed(const wl_parse_opts *opts) {
  for (size_t i = 0; i < opts->nargs; i++) {
    const char *a = opts->args[i];
    if (strncmp(a, "-include", 8) == 0 || strncmp(a, "-imacros", 8) == 0 ||
        strncmp(a, "--include", 9) == 0 || strncmp(a, "-Xclang", 7) == 0)
      return false;
  }
  return true;
}

/* A diagnostic saying that the precompiled header could not be used. */
static bool pch_failed(CXTranslationUnit tu) {
  bool bad = false;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !bad; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_getDiagnosticSpelling(d);
      const char *t = clang_getCString(s);
      bad = t && (strstr(t, "precompiled header") || strstr(t, "PCH file") ||
                  strstr(t, "AST file") || strstr(t, ".pch"));
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(d);
  }
  return bad;
}

/* One line [l, e) of a source: 0 when it is not an #include; 1 for an
 * #include whose operand is not <...> or "..." (a macro names it); 2 with
 * *name and *n the text after the opening < or " (*open) up to the closing
 * one, or to the line's end (*closed false). */
static int include_line(const char *l, const char *e, const char **name, size_t *n, char *open,
                        bool *closed) {
  const char *c = l;
  while (c < e && (*c == ' ' || *c == '\t'))
    c++;
  if (c >= e || *c != '#')
    return 0;
  c++;
  while (c < e && (*c == ' ' || *c == '\t'))
    c++;
  if (e - c < 7 || strncmp(c, "include", 7) != 0)
    return 0;
  c += 7;
  while (c < e && (*c == ' ' || *c == '\t'))
    c++;
  if (c >= e || (*c != '<' && *c != '"'))
    return 1;
  *open = *c;
  char close = *c == '<' ? '>' : '"';
  const char *b = ++c;
  while (c < e && *c != close)
    c++;
  *name = b;
  *n = (size_t)(c - b);
  *closed = c < e;
  return 2;
}

/* The toolkit's library headers that cost a file including one 0.2-0.4 s
 * to parse for itself (cublas_v2.h 0.3 s, most of it cuda_bf16.h's
 * intrinsics; CUDA 13): a file that includes some with <...> gets them in
 * its precompiled header's section (SECTION_STD_OWN, or SECTION_CCCL_OWN
 * after the core libraries), with their function bodies skipped. Only those
 * the file includes: NVIDIA's helper_cuda.h tests the libraries' include
 * guards (#ifdef _CUFFT_H_), so that a section holding the others would
 * make such a file parse again. Not the cheap ones (cufft.h, curand.h,
 * cuda_fp16.h: 0.01-0.08 s), which would cost a precompiled header of their
 * own (0.7-1 s to build, once) for little. */
static const char *const library_headers[] = {
    "cuda_bf16.h", "cublas_v2.h", "cublas_api.h", "cusparse.h", "cusolverDn.h", "curand_kernel.h",
};

/* A header of thrust, cub or libcu++ as an #include names it. */
static bool cccl_header(const char *b, size_t n) {
  return (n > 7 && strncmp(b, "thrust/", 7) == 0) || (n > 4 && strncmp(b, "cub/", 4) == 0) ||
         (n > 5 && strncmp(b, "cuda/", 5) == 0);
}

static bool library_header(const char *name, size_t n) {
  for (size_t i = 0; i < sizeof library_headers / sizeof library_headers[0]; i++)
    if (strlen(library_headers[i]) == n && memcmp(library_headers[i], name, n) == 0)
      return true;
  return false;
}

/* What the file's #include directives name: INC_OTHER, a header that is
 * not one of the CUDA headers the prelude (or the toolkit, through clang's
 * wrapper) brings anyway: only such a file may include a standard header,
 * directly or through its own headers; the others load the smaller plain
 * precompiled header. INC_CCCL: a header of thrust, cub or libcu++
 * (thrust/..., cub/..., cuda/...). INC_LIB: one of library_headers. */
#define INC_OTHER 1u
#define INC_CCCL 2u
#define INC_LIB 4u
static unsigned includes_of(const char *text, size_t len) {
  unsigned found = 0;
  const char *end = text + len;
  for (const char *l = text; l < end && found != (INC_OTHER | INC_CCCL | INC_LIB);) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    const char *e = nl ? nl : end;
    const char *b = NULL;
    size_t n = 0;
    char open;
    bool closed;
    int k = include_line(l, e, &b, &n, &open, &closed);
    if (k == 1) {
      found |= INC_OTHER; /* a macro names it */
    } else if (k == 2) {
      bool known = false;
      for (size_t i = 0; wl_prelude_files[i].name && !known; i++)
        known =
            strlen(wl_prelude_files[i].name) == n && strncmp(wl_prelude_files[i].name, b, n) == 0;
      if (!known)
        found |= INC_OTHER;
      if (cccl_header(b, n))
        found |= INC_CCCL;
      if (open == '<' && library_header(b, n))
        found |= INC_LIB;
    }
    l = nl ? nl + 1 : end;
  }
  return found;
}

/* The section of SECTION_CCCL_OWN (and SECTION_STD_OWN's after the standard
 * headers): the headers of thrust, cub and libcu++ and library_headers that
 * the file includes itself with <...> (each once, in its order, at most 64),
 * each guarded by __has_include as wl_pch_cccl_append's are; empty when
 * there is none. A name with a character other than letters, digits and
 * `_./+-`, or with "..", is left out (the file is untrusted; the section is
 * a file clang reads). */
static void cccl_own(const char *text, size_t len, wl_buf *out) {
  const char *end = text + len;
  wl_vec seen = {0};
  for (const char *l = text; l < end && seen.n < 64;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    const char *e = nl ? nl : end;
    const char *b = NULL;
    size_t n = 0;
    char open = 0;
    bool closed = false;
    if (include_line(l, e, &b, &n, &open, &closed) == 2 && open == '<' && closed) {
      bool ok = n < 200 && (cccl_header(b, n) || library_header(b, n));
      for (size_t i = 0; ok && i < n; i++)
        ok = (b[i] >= 'a' && b[i] <= 'z') || (b[i] >= 'A' && b[i] <= 'Z') ||
             (b[i] >= '0' && b[i] <= '9') || strchr("_./+-", b[i]) != NULL;
      ok = ok && !memmem(b, n, "..", 2);
      for (size_t i = 0; ok && i < seen.n; i++) {
        const char *o = seen.v[i];
        ok = !(strncmp(o, b, n) == 0 && o[n] == '>');
      }
      if (ok) {
        wl_vec_push(&seen, (void *)b);
        wl_buf_printf(out, "#if __has_include(<%.*s>)\n#include <%.*s>\n#endif\n", (int)n, b,
                      (int)n, b);
      }
    }
    l = nl ? nl + 1 : end;
  }
  wl_vec_free(&seen);
}

/* Whether a header the file includes (found beside the including file or
 * in an -I directory of its arguments, where clang looks first), directly
 * or through others up to a few levels, names cooperative_groups
 * (cuda-samples' fastWalshTransform_kernel.cuh includes them): a plain scan
 * of the #include lines, bounded in files, depth and bytes. */
#define CG_SCAN_FILES 64
#define CG_SCAN_DEPTH 4
#define CG_SCAN_BYTES ((size_t)4 << 20)

typedef struct cg_scan_ctx {
  const wl_parse_opts *opts;
  wl_hmap seen; /* paths read (owned keys) */
  unsigned files;
} cg_scan_ctx;

/* The text of `name` in `dir` when it is a file not read yet (owned). */
static char *cg_open(cg_scan_ctx *x, const char *dir, const char *name, size_t n, char **found,
                     size_t *len) {
  wl_buf p;
  wl_buf_init(&p);
  if (dir && *dir)
    wl_buf_printf(&p, "%s/", dir);
  wl_buf_add(&p, name, n);
  struct stat st;
  char *text = NULL;
  if (stat(wl_buf_str(&p), &st) == 0 && S_ISREG(st.st_mode) &&
      !wl_hmap_get(&x->seen, wl_buf_str(&p)) && x->files < CG_SCAN_FILES) {
    x->files++;
    wl_hmap_put(&x->seen, wl_xstrdup(wl_buf_str(&p)), (void *)1, false);
    wl_buf why;
    wl_buf_init(&why);
    text = wl_read_file_max(wl_buf_str(&p), CG_SCAN_BYTES, len, &why);
    wl_buf_free(&why);
    if (text)
      *found = wl_buf_detach(&p);
  }
  wl_buf_free(&p);
  return text;
}

static bool cg_scan(cg_scan_ctx *x, const char *file, const char *text, size_t len, int depth) {
  if (memmem(text, len, "cooperative_groups", 18))
    return true;
  if (depth >= CG_SCAN_DEPTH)
    return false;
  /* the including file's directory */
  const char *slash = strrchr(file, '/');
  wl_buf db;
  wl_buf_init(&db);
  if (slash)
    wl_buf_add(&db, file, (size_t)(slash - file));
  else
    wl_buf_puts(&db, ".");
  char *dir = wl_buf_detach(&db);
  bool hit = false;
  const char *end = text + len;
  for (const char *l = text; l < end && !hit;) {
    const char *nl = memchr(l, '\n', (size_t)(end - l));
    const char *e = nl ? nl : end;
    const char *b = NULL;
    size_t n = 0;
    char open = 0;
    bool closed = false;
    int k = include_line(l, e, &b, &n, &open, &closed);
    l = nl ? nl + 1 : end;
    if (k != 2 || !closed || n == 0 || b[0] == '/')
      continue;
    char *found = NULL;
    size_t flen = 0;
    char *ft = open == '"' ? cg_open(x, dir, b, n, &found, &flen) : NULL;
    for (size_t i = 0; !ft && i < x->opts->nargs; i++) {
      const char *a = x->opts->args[i];
      const char *d = strncmp(a, "-I", 2) != 0 ? NULL
                      : a[2]                   ? a + 2
                      : i + 1 < x->opts->nargs ? x->opts->args[i + 1]
                                               : NULL;
      if (d)
        ft = cg_open(x, d, b, n, &found, &flen);
    }
    if (ft)
      hit = cg_scan(x, found, ft, flen, depth + 1);
    free(ft);
    free(found);
  }
  free(dir);
  return hit;
}

static bool headers_name_cg(const char *path, const char *text, size_t len,
                            const wl_parse_opts *opts) {
  cg_scan_ctx x = {opts, {0}, 0};
  wl_hmap_init(&x.seen, true);
  bool hit = cg_scan(&x, path, text, len, 0);
  for (size_t i = 0; i < x.seen.cap; i++)
    free((void *)x.seen.slots[i].key);
  wl_hmap_free(&x.seen);
  return hit;
}

/* What the precompiled header `pch` with a section holds
 * (wl_pch_std_load), read once per parser: from the store's companion file
 * when an earlier process kept it (c: the run's precompiled headers, NULL:
 * not looked for), else from the header, and then kept there; NULL when it
 * cannot be read. */
static wl_pch_std *std_map(wl_parser *p, wl_pch_cache *c, const char *pch, unsigned std_line,
                           bool cccl) {
  for (size_t i = 0; i < p->std_pch.n; i++)
    if (strcmp(p->std_pch.v[i], pch) == 0)
      return p->std_maps.v[i];
  size_t len = 0;
  char *kept = c ? wl_pch_companion_read(c, pch, WL_PCH_COMPANION_STD, &len) : NULL;
  wl_pch_std *s = kept ? wl_pch_std_restore(kept, len, std_line, cccl) : NULL;
  free(kept);
  if (!s) {
    s = wl_pch_std_load(p->index, pch, PCH_HEADER, std_line, cccl);
    if (s && c) {
      wl_buf b;
      wl_buf_init(&b);
      wl_pch_std_save(s, std_line, &b);
      wl_pch_companion_write(c, pch, WL_PCH_COMPANION_STD, b.data, b.len);
      wl_buf_free(&b);
    }
  }
  wl_vec_push(&p->std_pch, wl_xstrdup(pch));
  wl_vec_push(&p->std_maps, (void *)s);
  return s;
}

/* The run's precompiled header for the invocation's arguments. Those that
 * include inference added come last (wl_parse_opts.ninferred): the one of
 * the arguments before them serves when none of their directories shadows
 * one of its headers, so that the files of a tree share one whichever
 * directories each needed (a -I searched before the toolkit's and the
 * system's directories could otherwise replace one of their headers). */
static const char *shared_pch(wl_parser *p, const wl_parse_opts *opts, invocation *in,
                              unsigned how) {
  const char *const *args = (const char *const *)in->args.v;
  size_t ninf = opts->ninferred <= opts->nargs ? opts->ninferred : 0;
  const char *dirs[64];
  size_t ndirs = 0;
  for (size_t i = opts->nargs - ninf; i < opts->nargs && ndirs < 64; i++)
    if (strncmp(opts->args[i], "-I", 2) == 0 && opts->args[i][2])
      dirs[ndirs++] = opts->args[i] + 2;
  if (ninf && ndirs == ninf) {
    const char *pch = wl_pch_get(opts->pch, p->index, PCH_HEADER, args, (int)(in->args.n - ninf),
                                 in->uf, in->nuf, how);
    if (!pch || !wl_pch_shadowed(opts->pch, pch, dirs, ndirs))
      return pch;
  }
  return wl_pch_get(opts->pch, p->index, PCH_HEADER, args, (int)in->args.n, in->uf, in->nuf, how);
}

/* Parses the file with the invocation (initialized here, with the section
 * `std` in its precompiled header) and the shared precompiled header of its
 * arguments when there is one; *pch_out: the one loaded, or NULL. A
 * precompiled header with a section that cannot be built (an error in its
 * headers with these arguments) gives the one with the next smaller
 * section. The one with the CUDA C++ core libraries skips the function
 * bodies of every header in it (pch_std.h). */
static enum CXErrorCode parse_once(wl_parser *p, const char *path, const char *text, size_t len,
                                   const wl_parse_opts *opts, unsigned arch, cg_place cg,
                                   pch_section std, const char *own, invocation *in,
                                   const char **pch_out, CXTranslationUnit *ctu) {
  invocation_init(in, opts, arch, cg, std, own, p->resource_dir);
  /* the shared precompiled header of these arguments, built by the first file */
  unsigned how = (std ? WL_PCH_STRICT : 0) | (in->with_cccl ? WL_PCH_SKIP_BODIES : 0);
  const char *pch = opts->pch && pch_allowed(opts) ? shared_pch(p, opts, in, how) : NULL;
  if (std && !pch) {
    invocation_free(in);
    pch_section smaller = std == SECTION_CCCL_OWN  ? SECTION_NONE
                          : std == SECTION_STD_OWN ? SECTION_STD
                                                   : std - 1;
    return parse_once(p, path, text, len, opts, arch, cg, smaller, NULL, in, pch_out, ctu);
  }
  size_t nargs = in->args.n;
  /* what it holds is read before the file is parsed, so that the memory of
   * reading it back is free again when the file's unit loads it */
  if (pch && in->std_line)
    (void)std_map(p, opts->pch, pch, in->std_line, in->with_cccl);
  if (pch) {
    wl_vec_push(&in->args, "-include-pch");
    wl_vec_push(&in->args, (void *)pch);
  }
  in->uf[in->nuf].Filename = path;
  in->uf[in->nuf].Contents = text;
  in->uf[in->nuf].Length = (unsigned long)len;
  *ctu = NULL;
  /* with the standard headers, the notes of an error that lie in them are
   * kept (wl_pch_std_differs reads them); warplint reads errors only.
   * CXTranslationUnit_Incomplete: clang does not instantiate, at the end of
   * the unit, the function templates and the members of class templates the
   * file uses (kernels launched from host templates, library algorithms):
   * cudpp's segmented_scan_app.cu instantiated 960 kernels of each kind with
   * the toolkit. The lowering reads templates as written, and of the
   * instantiations only the members of class template specializations its
   * calls name; when it finds one without its body, the file is parsed
   * again as a complete unit (wl_parse). What is instantiated where it is
   * used (constexpr functions, deduced return types, class templates)
   * still is. A file lowered in batches is parsed complete from the start:
   * its batches are handed on as they are lowered. */
  unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                   (p->instantiate ? 0 : CXTranslationUnit_Incomplete) |
                   (in->std_line ? 0 : CXTranslationUnit_IgnoreNonErrorsFromIncludedFiles);
  enum CXErrorCode ec =
      clang_parseTranslationUnit2(p->index, path, (const char *const *)in->args.v, (int)in->args.n,
                                  in->uf, in->nuf + 1, flags, ctu);
  if (pch && (ec != CXError_Success || !*ctu || pch_failed(*ctu))) {
    /* the precompiled header could not be loaded: never again, and this file without it */
    wl_pch_reject(opts->pch, pch);
    if (*ctu)
      clang_disposeTranslationUnit(*ctu);
    *ctu = NULL;
    pch = NULL;
    in->args.n = nargs;
    in->std_line = 0;
    ec = clang_parseTranslationUnit2(p->index, path, (const char *const *)in->args.v, (int)nargs,
                                     in->uf, in->nuf + 1, flags, ctu);
  }
  *pch_out = pch;
  return ec;
}

/* Tries with the standard headers before their outcome counts, and the
 * longest a parser goes without trying them once they do not pay. */
#define WL_STD_MIN_TRIES 4
#define WL_STD_MAX_BACKOFF 64

/* Whether to parse the next file with the standard headers in its
 * precompiled header. A file that must be parsed again costs that first
 * parse of its own code and headers (0.2-0.3 s of llm.c's or moderngpu's
 * files, whose common headers use memcpy, M_PI or swap without including
 * their standard header) and saves nothing, against the 0.2-0.5 s of
 * standard headers a file that need not saves: once more than two thirds
 * of the run's tries (counted across its workers, after the first few)
 * were parsed again, a parser parses files as without them, trying one
 * again after 8 files, then 16, up to 64. Either way a file's result is
 * that of a parse without them. */
static bool std_worth(wl_parser *p, wl_pch_cache *c) {
  unsigned tries = 0, fails = 0;
  wl_pch_std_outcome(c, -1, &tries, &fails);
  if (tries < WL_STD_MIN_TRIES || fails * 3 <= tries * 2) {
    p->std_backoff = 0;
    return true;
  }
  if (!p->std_backoff) {
    p->std_backoff = 8;
    p->std_idle = 0;
  }
  if (++p->std_idle <= p->std_backoff)
    return false;
  p->std_idle = 0;
  if (p->std_backoff < WL_STD_MAX_BACKOFF)
    p->std_backoff *= 2;
  return true;
}

/* Whether a unit parsed with the standard headers in its precompiled
 * header must be parsed again without them (wl_pch_std_differs). */
static bool std_differs(wl_parser *p, CXTranslationUnit ctu, const char *pch, unsigned std_line,
                        bool cccl, wl_buf *why) {
  wl_pch_std *s = std_map(p, NULL, pch, std_line, cccl);
  if (!s) {
    wl_buf_puts(why, "its precompiled header cannot be read");
    return true;
  }
  return wl_pch_std_differs(s, ctu, why);
}

/* Whether the file would be parsed again with only the headers of the core
 * libraries it includes itself in the section (cccl_own's lines in own):
 * the check of its unit parsed with all of them, restricted to what those
 * headers include (wl_pch_std_differs_within). kaldi's cu-kernels.cu names
 * cuda_fp16.hpp's operator* in a template before it includes cub, which
 * brings it; feature-spectral-cuda.cu reads cub's DBL_EPSILON in an #ifndef
 * before: each such parse cost 0.3 s for nothing. A forecast either way
 * costs time only: every unit kept means what it means without a section. */
static bool own_differs(wl_parser *p, CXTranslationUnit ctu, const char *pch, unsigned std_line,
                        const char *own, wl_buf *why) {
  wl_pch_std *s = std_map(p, NULL, pch, std_line, true);
  if (!s)
    return false;
  wl_vec names = {0};
  char *copy = wl_xstrdup(own);
  for (char *l = copy; l && *l;) {
    char *nl = strchr(l, '\n');
    if (nl)
      *nl = '\0';
    char *gt = strncmp(l, "#include <", 10) == 0 ? strchr(l + 10, '>') : NULL;
    if (gt) {
      *gt = '\0';
      wl_vec_push(&names, l + 10);
    }
    l = nl ? nl + 1 : NULL;
  }
  bool r = wl_pch_std_differs_within(s, ctu, (const char *const *)names.v, names.n, why);
  wl_vec_free(&names);
  free(copy);
  return r;
}

/* Whether the unit's conditional directives read a macro only the standard
 * headers of its precompiled header define (wl_pch_std_conditions_read;
 * true when that cannot be known). */
static bool std_conditions_read(wl_parser *p, CXTranslationUnit ctu, const char *pch) {
  for (size_t i = 0; i < p->std_pch.n; i++)
    if (strcmp(p->std_pch.v[i], pch) == 0)
      return !p->std_maps.v[i] || wl_pch_std_conditions_read(p->std_maps.v[i], ctu);
  return true;
}

/* An #include that did not resolve: an error "file not found". */
static bool missing_include(CXTranslationUnit tu) {
  bool found = false;
  unsigned n = clang_getNumDiagnostics(tu);
  for (unsigned i = 0; i < n && !found; i++) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_getDiagnosticSpelling(d);
      found = clang_getCString(s) && strstr(clang_getCString(s), "file not found");
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(d);
  }
  return found;
}

/* A hash of what decides a file's precompiled header besides its text:
 * its arguments, the headers and the architecture. */
static uint64_t section_opts(const wl_parse_opts *opts) {
  uint64_t h = WL_FNV_START;
  for (size_t i = 0; i < opts->nargs; i++)
    h = wl_fnv1a(h, opts->args[i], strlen(opts->args[i]) + 1);
  const char *cp = opts->cuda_path ? opts->cuda_path : "";
  h = wl_fnv1a(h, cp, strlen(cp) + 1);
  return wl_fnv1a(h, &opts->arch, sizeof opts->arch);
}

static bool is_last(const wl_parser *p, const char *path, uint64_t sopts) {
  return p->last.path && p->last.opts == sopts && strcmp(p->last.path, path) == 0;
}

/* p->last for this file: kept when it is the last one, else started anew. */
static void note_last(wl_parser *p, const char *path, uint64_t sopts) {
  if (is_last(p, path, sopts))
    return;
  free(p->last.path);
  p->last.path = wl_xstrdup(path);
  p->last.opts = sopts;
  p->last.section = -1;
  p->last.instantiate = false;
}

/* Where to start the file at `path` when the parser's last parse of it,
 * with the same options, did not keep the section it tried first (-1: as
 * usual). Its fixes are checked by parsing the fixed text, up to five
 * times, right after it: each parse would try again the sections that
 * failed (kaldi's cu-kernels.cu: 0.3 s each with the toolkit). Every
 * section a unit is kept with means what the unit parsed without one
 * means (pch_std.h), so that where a parse starts changes its time only. */
static int resume_section(const wl_parser *p, const char *path, uint64_t sopts) {
  return is_last(p, path, sopts) ? p->last.section : -1;
}

static void remember_section(wl_parser *p, const char *path, uint64_t sopts, int fell) {
  note_last(p, path, sopts);
  p->last.section = fell;
}

static wl_parse_status parse_lower(wl_parser *p, const char *path, const char *contents,
                                   const wl_parse_opts *opts, wl_tu **out, wl_buf *err);

wl_parse_status wl_parse(wl_parser *p, const char *path, const char *contents,
                         const wl_parse_opts *opts, wl_tu **out, wl_buf *err) {
  /* the file's last parse with these options needed clang's instantiations
   * (its fixed text, checked right after it, names what its text named):
   * complete from the start, as that parse ended; a complete unit is what
   * an incomplete one is kept for only when it means the same */
  uint64_t sopts = section_opts(opts);
  p->instantiate = is_last(p, path, sopts) && p->last.instantiate;
  p->redo = false;
  wl_parse_status st = parse_lower(p, path, contents, opts, out, err);
  if (st == WL_PARSE_OK && p->redo) {
    note_last(p, path, sopts);
    p->last.instantiate = true;
    /* the lowering needs a body only clang's instantiations give */
    wl_tu_free(*out);
    *out = NULL;
    if (opts->verbose)
      fprintf(stderr,
              "warplint: note: %s: parsed again with clang's template instantiations (a call "
              "names a member of a class template specialization)\n",
              path);
    wl_parse_opts o = *opts;
    o.verbose = false; /* its notes were printed by the first parse */
    p->instantiate = true;
    st = parse_lower(p, path, contents, &o, out, err);
    p->instantiate = false;
  }
  return st;
}

static wl_parse_status parse_lower(wl_parser *p, const char *path, const char *contents,
                                   const wl_parse_opts *opts, wl_tu **out, wl_buf *err) {
  *out = NULL;
  size_t len = 0;
  char *text = NULL;
  if (contents) {
    len = strlen(contents);
    text = wl_xmalloc(len + 1);
    memcpy(text, contents, len + 1);
  } else {
    wl_buf why;
    wl_buf_init(&why);
    text = wl_read_file_max(path, WL_READ_MAX, &len, &why);
    if (!text) {
      wl_buf_printf(err, "cannot read file: %s", wl_buf_str(&why));
      wl_buf_free(&why);
      return WL_PARSE_UNREADABLE;
    }
    wl_buf_free(&why);
  }
  if (looks_binary(text, len)) {
    free(text);
    wl_buf_puts(err, "not a text file (binary content)");
    return WL_PARSE_BINARY;
  }
  bool batched = opts->on_batch && len >= (opts->batch_min ? opts->batch_min : WL_BATCH_MIN);
  if (batched)
    p->instantiate = true;

  unsigned asked = opts->arch ? opts->arch : WL_DEFAULT_ARCH;
  /* an architecture newer than this libclang (sm_100, sm_120 with libclang
   * 19) is analyzed as the newest one it knows, __CUDA_ARCH__ included */
  unsigned arch = wl_parser_arch(p, asked);
  if (arch != asked && opts->verbose)
    fprintf(stderr,
            "warplint: note: %s: libclang does not know sm_%u; analyzed as sm_%u "
            "(__CUDA_ARCH__ %u)\n",
            path, asked, arch, arch * 10);
  /* the file itself names them (a project header that includes them is
   * parsed with them, as without a precompiled header) */
  cg_place cg = memmem(text, len, "cooperative_groups", 18) ? CG_BASE : CG_NONE;
  unsigned incs = includes_of(text, len);
  uint64_t sopts = section_opts(opts);
  int resume = resume_section(p, path, sopts);
  pch_section std = resume != SECTION_NONE && opts->pch && !opts->no_std_pch && pch_allowed(opts) &&
                            (incs & INC_OTHER) && std_worth(p, opts->pch)
                        ? (opts->cuda_path && (incs & INC_CCCL)  ? SECTION_CCCL
                           : opts->cuda_path && (incs & INC_LIB) ? SECTION_STD_OWN
                                                                 : SECTION_STD)
                        : SECTION_NONE;
  /* the toolkit's libraries the file includes, after the standard headers
   * (also the section of a SECTION_CCCL_OWN parse below, when one follows) */
  wl_buf own;
  wl_buf_init(&own);
  if (std == SECTION_STD_OWN)
    cccl_own(text, len, &own);
  if (std == SECTION_STD_OWN && !own.len)
    std = SECTION_STD;
  /* (resumed without a section: as the parse that fell there) */
  if (cg == CG_NONE && (std || resume == SECTION_NONE) && opts->cuda_path &&
      headers_name_cg(path, text, len, opts))
    cg = CG_BASE;
  /* where the file's previous parse ended up: straight to the core
   * libraries it includes itself */
  bool resumed = resume == SECTION_CCCL_OWN && (std == SECTION_CCCL || std == SECTION_STD_OWN);
  invocation in;
  memset(&in, 0, sizeof in);
  const char *pch = NULL;
  CXTranslationUnit ctu = NULL;
  enum CXErrorCode ec = CXError_Success;
  wl_buf why;
  wl_buf_init(&why);
  bool again = resumed;
  if (resumed) {
    in.with_cccl = true;
    wl_buf_puts(&why, "as its previous parse");
  } else {
    ec = parse_once(p, path, text, len, opts, arch, cg, std, own.len ? wl_buf_str(&own) : NULL, &in,
                    &pch, &ctu);
    again = std && in.std_line && pch && ec == CXError_Success && ctu &&
            std_differs(p, ctu, pch, in.std_line, in.with_cccl, &why);
    if (std && in.std_line && pch) {
      unsigned tries, fails;
      wl_pch_std_outcome(opts->pch, again, &tries, &fails);
    }
  }
  /* an include that did not resolve: the caller may parse the file again
   * with an include directory it infers, and this parse is then thrown
   * away; when it cannot, it parses it without the standard headers */
  bool unchecked = again && !resumed && opts->probe_missing && !batched && missing_include(ctu) &&
                   !std_conditions_read(p, ctu, pch);
  /* the section the unit is parsed with in the end, when it is not the
   * one tried first (-1) */
  int fell = resume == SECTION_NONE ? SECTION_NONE : -1;
  /* with the core libraries in the section: parsed again with only those of
   * them the file includes itself, checked the same way (kaldi's files
   * include cub and reach std::abs in a template through <cmath>, whose
   * overloads the section's <complex> extends: parsed without a section,
   * each parsed and instantiated all of cub, 1-3 s) */
  if (!(again && !unchecked && in.with_cccl))
    own.len = 0;
  else if (!own.len)
    cccl_own(text, len, &own);
  if (again && !unchecked && own.len && !resumed && ctu && pch) {
    wl_buf why3;
    wl_buf_init(&why3);
    if (own_differs(p, ctu, pch, in.std_line, wl_buf_str(&own), &why3)) {
      /* straight to the parse without a section */
      wl_buf_free(&why);
      why = why3;
      wl_buf_init(&why3);
      wl_buf_puts(&why, "; so do those it includes itself");
      own.len = 0;
    }
    wl_buf_free(&why3);
  }
  if (again && !unchecked && own.len) {
    if (ctu)
      clang_disposeTranslationUnit(ctu);
    invocation_free(&in);
    ec = parse_once(p, path, text, len, opts, arch, cg, SECTION_CCCL_OWN, wl_buf_str(&own), &in,
                    &pch, &ctu);
    wl_buf why2;
    wl_buf_init(&why2);
    bool kept = false;
    if (ec == CXError_Success && ctu && !in.std_line) {
      again = false; /* no such precompiled header: parsed without a section */
      fell = SECTION_NONE;
    } else if (ec == CXError_Success && ctu && pch &&
               !std_differs(p, ctu, pch, in.std_line, true, &why2)) {
      again = false;
      kept = true;
      fell = SECTION_CCCL_OWN;
    }
    if (kept && opts->verbose)
      fprintf(stderr,
              "warplint: note: %s: parsed again with only the CUDA C++ core libraries it includes "
              "in the precompiled header (%s)\n",
              path, wl_buf_str(&why));
    if (again && why2.len) { /* the reason the second check gives */
      wl_buf_free(&why);
      why = why2;
      wl_buf_init(&why2);
    }
    wl_buf_free(&why2);
  }
  wl_buf_free(&own);
  if (again && !unchecked) {
    /* the standard headers loaded before the file may change what it means:
     * parsed again as without them */
    if (opts->verbose)
      fprintf(stderr,
              "warplint: note: %s: parsed again without the standard headers%s "
              "in the precompiled header (%s)\n",
              path, in.with_cccl ? " and the CUDA C++ core libraries" : "", wl_buf_str(&why));
    if (ctu)
      clang_disposeTranslationUnit(ctu);
    invocation_free(&in);
    ec = parse_once(p, path, text, len, opts, arch, cg, SECTION_NONE, NULL, &in, &pch, &ctu);
    fell = SECTION_NONE;
  }
  wl_buf_free(&why);
  if (!unchecked)
    remember_section(p, path, sopts, fell);
  /* (not the precompiled header loaded: which files are system headers
   * depends on the include directories, which are the same for every
   * section; a file's headers are then learnt once, whichever it ends with) */
  uint64_t args_hash = WL_FNV_START;
  for (size_t i = 0; i < in.args.n; i++) {
    if (strcmp(in.args.v[i], "-include-pch") == 0) {
      i++;
      continue;
    }
    args_hash = wl_fnv1a(args_hash, in.args.v[i], strlen(in.args.v[i]) + 1);
  }
  invocation_free(&in);
  if (ec != CXError_Success || !ctu) {
    free(text);
    wl_buf_printf(err, "libclang could not parse the file (error %d)", (int)ec);
    return WL_PARSE_FAILED;
  }

  wl_tu *tu = wl_xcalloc(1, sizeof *tu);
  wl_arena_init(&tu->arena);
  tu->path = wl_arena_strdup(&tu->arena, path);
  tu->source = wl_arena_strndup(&tu->arena, text, len);
  tu->source_len = len;
  tu->main_path = tu->path;
  tu->std_unchecked = unchecked;
  free(text);

  lower_ctx L;
  memset(&L, 0, sizeof L);
  L.tu = tu;
  if (args_hash != p->sys_args) {
    system_names_clear(p);
    p->sys_args = args_hash;
  }
  system_names_of_pch(p, opts->pch, pch);
  L.system_names = &p->system_names;
  wl_hmap_init(&L.names, true);
  wl_hmap_init(&L.texts, false);
  L.ctu = ctu;
  L.main_file = clang_getFile(ctu, path);
  L.main_text = tu->source;
  L.main_len = len;
  /* macro expansions of the main file first, then the declarations */
  clang_visitChildren(clang_getTranslationUnitCursor(ctu), lower_macro_visitor, &L);
  if (L.nmacros > 1)
    qsort(L.macros, L.nmacros, sizeof *L.macros, lower_cmp_macro);
  lower_batches plan;
  memset(&plan, 0, sizeof plan);
  if (batched) {
    /* the functions are recorded, then lowered a batch at a time below */
    L.collect = true;
    lower_decls(&L, clang_getTranslationUnitCursor(ctu), 0);
    L.collect = false;
    lower_plan_batches(&L, opts->batch_bytes ? opts->batch_bytes : WL_BATCH_BYTES, &plan);
  } else {
    lower_decls(&L, clang_getTranslationUnitCursor(ctu), 0);
    lower_link_calls(&L);
    inst_scan_explicit_instantiations(&L);
    inst_link_instantiations(&L);
    p->redo = L.wants_instances && !p->instantiate;
  }
  collect_diags(&L, opts);
  if (L.notices.n) {
    tu->notices = wl_arena_alloc(&tu->arena, L.notices.n * sizeof *tu->notices);
    for (size_t i = 0; i < L.notices.n; i++)
      tu->notices[i] = *(wl_parse_diag *)L.notices.v[i];
    tu->nnotices = (unsigned)L.notices.n;
  }
  wl_vec_free(&L.notices);
  record_files(&L);
  if (L.funcs.n > 1)
    qsort(L.funcs.v, L.funcs.n, sizeof *L.funcs.v, lower_cmp_func);
  tu->funcs = (wl_func **)wl_arena_dup_ptrs(&tu->arena, L.funcs.v, L.funcs.n);
  tu->nfuncs = (unsigned)L.funcs.n;
  tu->globals = (wl_var **)wl_arena_dup_ptrs(&tu->arena, L.globals.v, L.globals.n);
  tu->nglobals = (unsigned)L.globals.n;
  if (batched) {
    tu->batched = true;
    if (!opts->on_parsed || opts->on_parsed(tu, opts->batch_ud))
      lower_run_batches(&L, &plan, opts->on_batch, opts->batch_ud);
    lower_batches_free(&plan);
  }
  for (size_t i = 0; i < L.units.n; i++)
    free(L.units.v[i]);
  wl_vec_free(&L.units);
  for (size_t i = 0; i < L.batch_vars.n; i++)
    free(L.batch_vars.v[i]);
  wl_vec_free(&L.batch_vars);
  wl_vec_free(&L.funcs);
  wl_vec_free(&L.globals);
  wl_vec_free(&L.calls);
  wl_vec_free(&L.insts);
  if (L.skipped)
    clang_disposeSourceRangeList(L.skipped);
  free(L.vars);
  free(L.files);
  wl_hmap_free(&L.file_index);
  wl_hmap_free(&L.seeded);
  for (size_t i = 0; i < L.texts.cap; i++)
    free(L.texts.slots[i].val);
  wl_hmap_free(&L.texts);
  wl_hmap_free(&L.names);
  free(L.macros);
  if (opts->deps)
    wl_deps_collect(tu, ctu, p->index, pch, &p->deps);
  clang_disposeTranslationUnit(ctu);
  *out = tu;
  return WL_PARSE_OK;
}

char *wl_libclang_version(void) {
  CXString s = clang_getClangVersion();
  const char *t = clang_getCString(s);
  char *v = wl_xstrdup(t ? t : "");
  clang_disposeString(s);
  return v;
}

void wl_tu_free(wl_tu *tu) {
  if (!tu)
    return;
  wl_arena_free(&tu->arena);
  free(tu);
}
