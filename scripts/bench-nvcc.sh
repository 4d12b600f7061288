#!/bin/sh
# Goal 1 of issue 19 (no file is slow): for each file of the benchmark set,
# `warplint FILE` with the built-in prelude and with the detected CUDA toolkit
# against `nvcc -arch=sm_90 -c FILE`, with the same -I flags, in paired runs
# (each round runs the three one after the other, so that the machine's load
# falls on all of them alike); prints the median wall time of each, the
# per-file ratios nvcc/warplint, their worst and their median, and the load
# average. warplint runs with --no-cache (the analysis is timed, not the
# result cache) and with a cache directory of its own, after one untimed run
# of the file in each mode: the precompiled headers of the file's arguments
# are then in the store, as for every run after the first (the first also
# builds them, 1-4 s with the toolkit), and runs of other processes on the
# machine cannot evict them (the store keeps a few entries). The set: 6 files of NVIDIA's cuda-samples (modern, with
# <iostream>/<vector> and the helper headers), 2 of cudpp (a legacy scan
# library) and 2 of ccminer (a legacy miner), under BENCH_TREES (default
# /tmp/rw/trees; its README.txt names the commits). cudpp's generated
# cudpp_config.h is an empty stand-in here.
# Usage: scripts/bench.sh --nvcc [warplint-binary] [rounds (default 3)]
#        BENCH_NVCC (default /usr/local/cuda/bin/nvcc)
set -eu
cd "$(dirname "$0")/.."
# catalog_commit TREE: the commit tests/recall/catalog.tsv names for a tree
# (when BENCH_TREES has no README.txt naming it); empty if none
catalog_commit() { awk -F'\t' -v t="$1" '$1 == "#tree" && $2 == t { print $4 }' tests/recall/catalog.tsv 2>/dev/null || true; }
[ "${1:-}" = --nvcc ] && shift
WL=${1:-build/warplint}
ROUNDS=${2:-3}
NVCC=${BENCH_NVCC:-/usr/local/cuda/bin/nvcc}
TREES=${BENCH_TREES:-/tmp/rw/trees}
[ -x "$WL" ] || { echo "bench: $WL not found; build first (scripts/build.sh)" >&2; exit 2; }
[ -x "$NVCC" ] || { echo "bench: $NVCC not found (BENCH_NVCC)" >&2; exit 2; }
case "$WL" in /*) ;; *) WL="$PWD/$WL" ;; esac
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
export WARPLINT_CACHE_DIR="$D/cache"
mkdir -p "$D/cfg"
echo '/* cudpp_config.h: empty stand-in for the benchmark */' >"$D/cfg/cudpp_config.h"

CS="-I $TREES/cuda-samples/Common"
CU="-I $TREES/cudpp/include -I $TREES/cudpp/src/cudpp -I $TREES/cudpp/src/cudpp/kernel -I $TREES/cudpp/src/cudpp/cta -I $TREES/cudpp/ext/moderngpu/include -I $TREES/cudpp/ext/cub -I $D/cfg"
CM="-I $TREES/ccminer"
S=cuda-samples/Samples
# file|flags
SET="$S/0_Introduction/vectorAdd/vectorAdd.cu|$CS
$S/0_Introduction/UnifiedMemoryStreams/UnifiedMemoryStreams.cu|$CS
$S/2_Concepts_and_Techniques/MC_EstimatePiP/src/piestimator.cu|$CS -I $TREES/$S/2_Concepts_and_Techniques/MC_EstimatePiP/inc
$S/3_CUDA_Features/newdelete/newdelete.cu|$CS
$S/2_Concepts_and_Techniques/reduction/reduction_kernel.cu|$CS
$S/6_Performance/transpose/transpose.cu|$CS
cudpp/src/cudpp/app/scan_app.cu|$CU
cudpp/src/cudpp/app/reduce_app.cu|$CU
ccminer/lyra2/cuda_lyra2.cu|$CM
ccminer/x11/cuda_x11_echo.cu|$CM"

# secs CMD...: wall seconds of the command (output discarded); the
# command's exit status goes to $D/rc; a warplint that exits with 2 or more
# analyzed nothing complete: said, and exit 1 at the end
secs() {
  t0=$(date +%s.%N)
  st=0
  "$@" >/dev/null 2>&1 || st=$?
  t1=$(date +%s.%N)
  echo "$st" >"$D/rc"
  if [ "$1" = "$WL" ] && [ "$st" -ge 2 ]; then
    echo "bench: warplint exited with $st: $*" >&2
    echo fail >"$D/failed"
  fi
  echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }'
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "warplint vs nvcc bench (--nvcc): $("$WL" --version | head -1), $(nproc) cores, load $(load)"
echo "toolkit: $("$WL" --version | sed -n 's/^CUDA headers: //p'); nvcc: $("$NVCC" --version | sed -n 's/.*release \([^,]*\).*/\1/p'); median of $ROUNDS paired rounds"
for t in cuda-samples cudpp ccminer; do
  c=$(awk -v t="$t" '$1 == t { print $3 }' "$TREES/README.txt" 2>/dev/null || true)
  [ -n "$c" ] || c=$(catalog_commit "$t")
  echo "  $t: ${c:-unknown commit}"
done
printf '%-58s %7s %7s %7s %4s %9s %9s\n' file wl_pre_s wl_tk_s nvcc_s rc nvcc/pre nvcc/tk
echo "$SET" | while IFS='|' read -r f flags; do
  p=""
  k=""
  n=""
  r=0
  # untimed: the precompiled headers of these arguments into the store
  # shellcheck disable=SC2086
  "$WL" --no-cache --no-cuda-path $flags "$TREES/$f" >/dev/null 2>&1 || true
  # shellcheck disable=SC2086
  "$WL" --no-cache $flags "$TREES/$f" >/dev/null 2>&1 || true
  while [ "$r" -lt "$ROUNDS" ]; do
    # shellcheck disable=SC2086
    p="$p $(secs "$WL" --no-cache --no-cuda-path $flags "$TREES/$f")"
    # shellcheck disable=SC2086
    k="$k $(secs "$WL" --no-cache $flags "$TREES/$f")"
    # shellcheck disable=SC2086
    n="$n $(secs "$NVCC" -arch=sm_90 -c $flags "$TREES/$f" -o "$D/x.o")"
    r=$((r + 1))
  done
  rc=$(cat "$D/rc") # nvcc's, last round
  mp=$(echo "$p" | median)
  mk=$(echo "$k" | median)
  mn=$(echo "$n" | median)
  printf '%-58s %7.2f %7.2f %7.2f %4s %9.1f %9.1f\n' "$f" "$mp" "$mk" "$mn" "$rc" \
    "$(echo "$mn $mp" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" \
    "$(echo "$mn $mk" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
done >"$D/table"
cat "$D/table"
for col in 6 7; do
  name=$([ $col = 6 ] && echo "prelude" || echo "toolkit")
  worst=$(awk -v c=$col '{ print $c }' "$D/table" | sort -n | head -1)
  med=$(awk -v c=$col '{ print $c }' "$D/table" | median)
  echo "nvcc/warplint with the $name: worst ${worst}x, median ${med}x (goal: worst >= 20x, median >= 50x)"
done
echo "load at the end: $(load)"
[ ! -f "$D/failed" ]
