#!/bin/sh
# When nvcc is present: every GPU fixture's fixed kernel builds for sm_90 (with
# its harness), the legacy-intrinsic bad kernels fail to build, and every
# fixtures/<rule>/*.fixed golden (--fix output) builds. Skipped
# (exit 77, ctest's SKIP) when nvcc is absent.
# Usage: gpu_build_test.sh <source-dir>
set -u
SRC=$1
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
  echo "SKIP: nvcc not found (set NVCC or install the CUDA toolkit); GPU fixture builds not checked"
  exit 77
fi
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
cd "$SRC/fixtures/gpu" || exit 1
for dir in */; do
  rule=${dir%/}
  [ -f "$rule/fixed.cu" ] || continue
  if "$NVCC" -arch=sm_90 -std=c++17 -I. -I"$rule" -DKERNEL_FILE='"fixed.cu"' -o "$T/$rule.fixed" \
      "$rule/harness.cu" >"$T/$rule.log" 2>&1; then
    echo "ok: $rule/fixed.cu builds for sm_90"
  else
    echo "FAIL: $rule/fixed.cu does not build for sm_90:"; sed 's/^/    /' "$T/$rule.log" | head -10
    fails=$((fails + 1))
  fi
done
for bad in legacy-intrinsic/bad*.cu; do
  if "$NVCC" -arch=sm_90 -c -o "$T/bad.o" "$bad" >"$T/bad.log" 2>&1; then
    echo "FAIL: $bad builds for sm_90, but legacy intrinsics must not"
    fails=$((fails + 1))
  else
    echo "ok: $bad fails to build: $(grep -m1 -E 'error|Instruction' "$T/bad.log")"
  fi
done
# every golden fixed fixture (fixtures/<rule>/*.fixed, the output of --fix) builds for sm_90
cd "$SRC/fixtures" || exit 1
for fixed in */*.fixed; do
  [ -f "$fixed" ] || continue
  cp "$fixed" "$T/fixed.cu"
  if "$NVCC" -arch=sm_90 -std=c++17 -c -o "$T/fixed.o" "$T/fixed.cu" >"$T/fixed.log" 2>&1; then
    echo "ok: $fixed builds for sm_90"
  else
    echo "FAIL: $fixed does not build for sm_90:"; sed 's/^/    /' "$T/fixed.log" | head -10
    fails=$((fails + 1))
  fi
done
[ "$fails" -eq 0 ]
