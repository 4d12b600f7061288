/* parse.h - the only door to libclang: parse one CUDA file with the built-in
 * prelude (or a real toolkit) and lower it to warplint's IR (ir.h). */
#ifndef WARPLINT_PARSE_H
#define WARPLINT_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "ir.h"

/* A file that exists only in memory (the prelude, test inputs). */
typedef struct wl_virtual_file {
  const char *name;
  const char *text;
} wl_virtual_file;
extern const wl_virtual_file
    wl_prelude_files[]; /* generated from analyzer/frontend/prelude/, ends with {0,0} */

#define WL_PRELUDE_DIR "/__warplint_prelude__"

/* The device architecture when neither the compile command, .warplint nor
 * the command line names one: sm_75, the oldest target of CUDA 13 (README,
 * --cuda-arch). */
#define WL_DEFAULT_ARCH 75

typedef struct wl_parse_opts {
  const char *const *args; /* extra clang arguments (-I, -D, after --) */
  size_t nargs;
  /* The last ninferred of args are -I<dir> flags that include inference
   * added (analyze.c): the precompiled header of the arguments before them
   * serves the file too when none of those directories shadows a header it
   * holds (wl_pch_shadowed). */
  size_t ninferred;
  const char *cuda_path;    /* real toolkit headers; NULL: the built-in prelude */
  unsigned cuda_version;    /* its CUDA_VERSION (toolkit.h); 0: read from cuda_path */
  struct wl_pch_cache *pch; /* the run's shared precompiled headers; NULL: none */
  bool no_std_pch;          /* they hold the CUDA headers only (pch_std.h) */
  unsigned arch;            /* compute capability for __CUDA_ARCH__, e.g. 75; 0: WL_DEFAULT_ARCH */
  bool verbose;             /* report unresolved includes/types on stderr */
  bool quiet_diags;         /* verbose, but the caller prints the unresolved (analyze.c) */
  bool deps;                /* list the files read in wl_tu.deps (the result cache) */
  /* The caller parses the file again when one of its includes did not
   * resolve (include inference, analyze.c): a file with such an include
   * that the standard headers may change is not parsed a second time
   * without them here; its unit is marked (wl_tu.std_unchecked) and must
   * not be used as it is. */
  bool probe_missing;
  /* Lowering in batches, for a main file of at least batch_min bytes (0:
   * WL_BATCH_MIN) when on_batch is set: the functions are lowered a batch of
   * about batch_bytes of IR at a time (0: WL_BATCH_BYTES), functions that
   * call or name one another in the same batch, and each batch is handed to
   * on_batch (the TU's funcs are the batch's, its globals all of them) and
   * freed before the next; the TU wl_parse returns then has no functions
   * (wl_tu.batched). on_parsed, when set, is called first with the TU's
   * diagnostics and files (no functions): false skips the batches. */
  bool (*on_parsed)(wl_tu *tu, void *ud);
  void (*on_batch)(wl_tu *tu, void *ud);
  void *batch_ud;
  size_t batch_min, batch_bytes;
} wl_parse_opts;

/* A main file this large is lowered in batches (when the caller takes
 * batches), each of about this much IR. */
#ifndef WL_BATCH_MIN /* a build may lower them (-D), to test the batches on small files */
#define WL_BATCH_MIN (1u << 20)
#endif
#ifndef WL_BATCH_BYTES
#define WL_BATCH_BYTES (16u << 20)
#endif

typedef enum wl_parse_status {
  WL_PARSE_OK = 0,
  WL_PARSE_UNREADABLE, /* the file cannot be read */
  WL_PARSE_BINARY,     /* the file is not text */
  WL_PARSE_FAILED      /* libclang produced no translation unit */
} wl_parse_status;

typedef struct wl_parser wl_parser; /* one per thread: owns a CXIndex */

wl_parser *wl_parser_new(void);
void wl_parser_free(wl_parser *p);

/* Parses `path` (contents: NULL to read it from disk) and lowers it.
 * On success *out is a new TU (free with wl_tu_free). On failure, err holds a
 * one-line reason. */
wl_parse_status wl_parse(wl_parser *p, const char *path, const char *contents,
                         const wl_parse_opts *opts, wl_tu **out, wl_buf *err);
void wl_tu_free(wl_tu *tu);

/* The architecture libclang is run with for `arch`: arch itself when this
 * libclang knows it, else the newest one it knows below it (probed once per
 * parser with an empty file; sm_100 and sm_120 are sm_90 with libclang 19). */
unsigned wl_parser_arch(wl_parser *p, unsigned arch);

/* libclang's version (clang_getClangVersion), malloc'ed: part of the
 * result cache's key. */
char *wl_libclang_version(void);

/* Compute capability from "sm_75", "75", "compute_75", "7.5"; 0 when invalid. */
unsigned wl_parse_arch(const char *s);

#endif
