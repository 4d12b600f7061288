/* toolkit.h - which CUDA headers a run parses with: a CUDA toolkit found by
 * itself (--cuda-path, CUDA_PATH, CUDA_HOME, the nvcc on PATH,
 * /usr/local/cuda) or, without one (or with --no-cuda-path), warplint's
 * built-in prelude. */
#ifndef WARPLINT_TOOLKIT_H
#define WARPLINT_TOOLKIT_H

#include <stdbool.h>

#include "buf.h"

/* Toolkits older than this are not picked up by detection (their headers
 * predate the _sync intrinsics); --cuda-path still takes them. */
#define WL_TOOLKIT_MIN_VERSION 9000

typedef struct wl_toolkit {
  char *root;         /* canonical toolkit directory; NULL: the built-in prelude */
  unsigned version;   /* CUDA_VERSION of its include/cuda.h (e.g. 13000); 0: unknown */
  const char *source; /* how it was chosen (static text): "--cuda-path", "CUDA_PATH",
                         "CUDA_HOME", "nvcc on PATH", "/usr/local/cuda"; for the prelude
                         "--no-cuda-path" or "no CUDA toolkit found" */
} wl_toolkit;

/* Chooses the headers: `explicit_path` (--cuda-path) when given, nothing
 * when `disabled` (--no-cuda-path), otherwise the first valid toolkit of
 * CUDA_PATH, CUDA_HOME, the nvcc on PATH and /usr/local/cuda (a toolkit is
 * valid when it has include/cuda_runtime.h and include/cuda.h of CUDA 9.0 or
 * newer). Candidates passed over are described in `notes` (one line each,
 * may be NULL). False, with a reason in err, only when `explicit_path` is
 * not a toolkit. */
bool wl_toolkit_find(const char *explicit_path, bool disabled, wl_toolkit *tk, wl_buf *notes,
                     wl_buf *err);
void wl_toolkit_free(wl_toolkit *tk);

/* CUDA_VERSION from DIR/include/cuda.h; 0 when it cannot be read. */
unsigned wl_toolkit_version(const char *dir);

/* One line for --version and -v: "CUDA 13.0 toolkit in /usr/local/cuda
 * (from nvcc on PATH)" or "built-in CUDA prelude (no CUDA toolkit found)". */
void wl_toolkit_describe(const wl_toolkit *tk, wl_buf *out);

#endif
