#!/bin/sh
# Toolkit detection with fake toolkits (no CUDA needed): --cuda-path, then
# CUDA_PATH, CUDA_HOME, the nvcc on PATH; invalid candidates are passed over
# (and named by -v); --no-cuda-path and the last-one-wins rule; --version
# names what was chosen.
# Usage: toolkit_detect_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
CLEAN=fixtures/legacy-intrinsic/clean_modern.cu

fake() { # dir version
  mkdir -p "$1/include" "$1/bin"
  printf '#pragma once\n#define CUDA_VERSION %s\n' "$2" >"$1/include/cuda.h"
  printf '#pragma once\n' >"$1/include/cuda_runtime.h"
  printf '#!/bin/sh\nexit 0\n' >"$1/bin/nvcc"
  chmod +x "$1/bin/nvcc"
}
fake "$T/tk12" 12040
fake "$T/tk8" 8000
mkdir -p "$T/empty"
TK12=$(cd "$T/tk12" && pwd -P)

expect_exit 0 -- env -u CUDA_HOME CUDA_PATH="$T/tk12" "$WL" --version
contains "$T/out" "CUDA headers: CUDA 12.4 toolkit in $TK12 (from CUDA_PATH)" "CUDA_PATH first"
expect_exit 0 -- env CUDA_PATH="$T/empty" CUDA_HOME="$T/tk12" "$WL" --version
contains "$T/out" "(from CUDA_HOME)" "an invalid CUDA_PATH is passed over"
expect_exit 0 -- env -u CUDA_PATH -u CUDA_HOME PATH="$T/tk12/bin:$PATH" "$WL" --version
contains "$T/out" "CUDA 12.4 toolkit in $TK12 (from nvcc on PATH)" "the nvcc on PATH"
# a symlinked nvcc leads to its toolkit
mkdir -p "$T/links"
ln -s "$T/tk12/bin/nvcc" "$T/links/nvcc"
expect_exit 0 -- env -u CUDA_PATH -u CUDA_HOME PATH="$T/links:$PATH" "$WL" --version
contains "$T/out" "in $TK12 (from nvcc on PATH)" "nvcc through a symlink"
# --cuda-path beats the environment; it takes old toolkits, detection does not
expect_exit 0 -- env CUDA_PATH="$T/tk12" "$WL" --cuda-path "$T/tk8" --version
contains "$T/out" "CUDA 8.0 toolkit in .*(from --cuda-path)" "--cuda-path wins"
expect_exit 0 -- env CUDA_PATH="$T/tk8" CUDA_HOME="$T/tk12" "$WL" --version
contains "$T/out" "(from CUDA_HOME)" "a pre-9.0 toolkit is not detected"
# -v says which candidates were passed over and what was used
printf 'int plain;\n' >"$T/plain.cu"
expect_exit 0 -- env CUDA_PATH="$T/tk8" CUDA_HOME="$T/tk12" "$WL" -v "$T/plain.cu"
contains "$T/err" "candidate $T/tk8 (CUDA_PATH): older than CUDA 9.0" "-v names a rejected candidate"
contains "$T/err" "parsing with the CUDA 12.4 toolkit in $TK12 (from CUDA_HOME)" "-v names the toolkit"
# the prelude: --no-cuda-path, and the last of the two options wins
expect_exit 0 -- env CUDA_PATH="$T/tk12" "$WL" --no-cuda-path --version
contains "$T/out" "CUDA headers: built-in CUDA prelude (--no-cuda-path)" "--no-cuda-path"
expect_exit 0 -- "$WL" --cuda-path "$T/tk12" --no-cuda-path --version
contains "$T/out" "built-in CUDA prelude" "--no-cuda-path after --cuda-path"
expect_exit 0 -- "$WL" --no-cuda-path --cuda-path "$T/tk12" --version
contains "$T/out" "12.4 toolkit" "--cuda-path after --no-cuda-path"
# not a toolkit: a usage error that names the problem
expect_exit 2 -- "$WL" --cuda-path "$T/empty" "$CLEAN"
contains "$T/err" "--cuda-path $T/empty: not a CUDA toolkit (no include/cuda_runtime.h and include/cuda.h)" "bad --cuda-path"
expect_exit 2 -- "$WL" --cuda-path "$T/nowhere" "$CLEAN"
contains "$T/err" "not a CUDA toolkit (not a directory)" "missing --cuda-path"

# the built-in prelude declares the cache-hint loads and stores (llm.c's load128cs)
printf '__global__ void k(float *o, const int4 *p, const float *q) {\n  int4 v = __ldcs(p);\n  __stcs(o, v.x + __ldcg(q) + __ldlu(q));\n  __stwt(o + 1, 2.0);\n  o[2] = __shfl(o[3], 0);\n}\n' >"$T/cache_hints.cu"
expect_exit 1 -- "$WL" --no-cuda-path -v "$T/cache_hints.cu"
lacks "$T/err" "could not resolve" "prelude: cache-hint loads and stores resolve"
lacks "$T/err" "analysis incomplete" "prelude: cache-hint loads and stores: complete"
contains "$T/out" "cache_hints.cu:5:.*__shfl" "prelude: the kernel's body is analyzed"

finish "toolkit detection tests"
