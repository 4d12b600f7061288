#!/bin/sh
# Benchmarks warplint's parallel run: generates a tree of at least N CUDA files
# (copies of fixtures/ and examples/, each copy a variant with its own macro
# line) in a temporary directory, runs warplint on it with -j1, -j2 and -jN
# (N = cores), and prints the best wall time of R runs, the CPU time (user +
# system) of that run and the peak RSS (/usr/bin/time -v, Debian package
# `time`); on a shared machine wall times vary with the other load. Checks
# that the output does not depend on -j and that -j2 is faster than -j1 (on 2+
# cores); exit 1 if not.
# With a CUDA toolkit found (see --version), it then times toolkit mode against
# the built-in prelude (--no-cuda-path) at -j2 in R pairs of back-to-back runs
# and prints each pair's ratio and their median (the issue's goal: 1.5x or
# less), twice: with the precompiled headers kept in the cache directory
# from an untimed run of each mode just before ("store warm", what a second
# run of a tree costs) and
# with an empty cache directory for every run ("store cold": each run builds
# them). Every run passes --no-cache: the result cache would serve the files.
# BENCH_TREE=DIR (with BENCH_FLAGS, e.g. "-I Common") runs those pairs on a
# real tree instead (relative paths in BENCH_FLAGS are taken in DIR). A run
# that exits with 2 or more (warplint could not analyze an input) is said on
# stderr and makes the bench exit 1: its time is not an analysis's.
# Usage: scripts/bench.sh [warplint-binary] [min-files (default 240)] [runs (default 3)]
#        scripts/bench.sh --scaling|--smoke [warplint-binary]   (scripts/bench-scaling.sh)
#        scripts/bench.sh --cache [warplint-binary] [runs]      (scripts/bench-cache.sh)
#        scripts/bench.sh --nvcc [warplint-binary] [rounds]     (scripts/bench-nvcc.sh)
set -eu
cd "$(dirname "$0")/.."
# --- issue 19: scaling curves and pathological shapes, a separate script ---------
case "${1:-}" in --scaling | --smoke) exec scripts/bench-scaling.sh "$@" ;; esac
# --- issue 19: the result cache (cold/warm) and nvcc ratios, separate scripts -----
case "${1:-}" in --cache) exec scripts/bench-cache.sh "$@" ;; --nvcc) exec scripts/bench-nvcc.sh "$@" ;; esac
# the analysis is timed, not the result cache: a bound of 0 turns it off
export WARPLINT_CACHE_SIZE=0
WL=${1:-build/warplint}
MIN=${2:-240}
RUNS=${3:-3}
[ -x "$WL" ] || { echo "bench: $WL not found; build first (scripts/build.sh)" >&2; exit 2; }
case "$WL" in /*) ;; *) WL="$PWD/$WL" ;; esac
NPROC=$(nproc)
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# --- the tree ---------------------------------------------------------------------
SOURCES=$(find fixtures examples \( -name '*.cu' -o -name '*.cuh' -o -name '*.h' \) | sort)
per_copy=$(printf '%s\n' "$SOURCES" | grep -c '\.cuh\?$')
copies=$(( (MIN + per_copy - 1) / per_copy ))
c=0
while [ "$c" -lt "$copies" ]; do
  for f in $SOURCES; do
    mkdir -p "$D/tree/v$c/$(dirname "$f")"
    { printf '#define WARPLINT_BENCH_VARIANT %d\n' "$c"; cat "$f"; } >"$D/tree/v$c/$f"
  done
  c=$((c + 1))
done
nfiles=$(find "$D/tree" -name '*.cu' -o -name '*.cuh' | wc -l)
nlines=$(find "$D/tree" \( -name '*.cu' -o -name '*.cuh' \) -exec cat {} + | wc -l)

# --- the runs -----------------------------------------------------------------------
# run JOBS -> "wall_s max_rss_kib cpu_s", output in $D/out.JOBS
have_time=no
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 && have_time=yes
run() {
  tree=$D/tree
  flags=
  if [ -n "${PAIR_TREE:-}" ]; then
    tree=$PAIR_TREE
    flags=${BENCH_FLAGS:-}
  fi
  if [ "${STORE:-warm}" = cold ]; then
    rm -rf "$D/cold"
    export WARPLINT_CACHE_DIR="$D/cold"
  else
    export WARPLINT_CACHE_DIR="$D/warm"
  fi
  if [ "$have_time" = yes ]; then
    # shellcheck disable=SC2086
    (cd "$tree" && /usr/bin/time -v -o "$D/time" "$WL" --no-cache -j"$1" --color=never $MODE $flags . >"$D/out.$1$MODE" 2>/dev/null) || true
    code=$(sed -n 's/.*Exit status: //p' "$D/time")
    if [ "${code:-0}" -ge 2 ]; then
      echo "bench: warplint exited with $code (-j$1 $MODE in $tree): not a complete analysis" >&2
      echo fail >"$D/failed"
    fi
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$D/time" |
      awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$D/time")
    cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$D/time" | awk '{ s += $1 } END { printf "%.2f", s }')
  else
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    (cd "$tree" && "$WL" --no-cache -j"$1" --color=never $MODE $flags . >"$D/out.$1$MODE" 2>/dev/null) || true
    t1=$(date +%s.%N)
    wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
    rss=0
    cpu=0
  fi
  echo "$wall $rss $cpu"
}

MODE= # the CUDA headers: the run's default (a toolkit when one is found)
wall_1=0
wall_2=0
jobs_list="1 2"
[ "$NPROC" -gt 2 ] && jobs_list="$jobs_list $NPROC"
echo "warplint bench: $nfiles files ($nlines lines, $copies copies of fixtures/ and examples/)"
echo "binary: $WL ($("$WL" --version)), $NPROC cores, best of $RUNS runs"
[ "$have_time" = yes ] || echo "(no /usr/bin/time: install Debian package 'time' for peak RSS)"
run 1 >/dev/null # warm the page cache
printf '%-6s %10s %10s %14s\n' jobs wall_s cpu_s max_rss_MiB
for j in $jobs_list; do
  best=""
  best_cpu=0
  peak=0
  r=0
  while [ "$r" -lt "$RUNS" ]; do
    # shellcheck disable=SC2046
    set -- $(run "$j")
    if [ -z "$best" ] || echo "$1 $best" | awk '{ exit !($1 < $2) }'; then
      best=$1
      best_cpu=$3
    fi
    peak=$(echo "$peak $2" | awk '{ print ($2 > $1 ? $2 : $1) }')
    r=$((r + 1))
  done
  eval "wall_$j=$best"
  printf '%-6s %10s %10s %14s\n' "-j$j" "$best" "$best_cpu" "$(echo "$peak" | awk '{ printf "%.1f", $1 / 1024 }')"
done

status=0
for j in $jobs_list; do
  cmp -s "$D/out.1" "$D/out.$j" || { echo "FAIL: -j$j output differs from -j1"; status=1; }
done
[ "$status" -eq 0 ] && echo "output identical for $(echo "$jobs_list" | sed 's/\([0-9][0-9]*\)/-j\1/g'): yes ($(grep -c ': warning:\|: error:\|: note:' "$D/out.1") diagnostics)"
speedup=$(echo "$wall_1 $wall_2" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }')
echo "speedup -j2 over -j1: ${speedup}x"
if [ "$NPROC" -ge 2 ] && ! echo "$wall_1 $wall_2" | awk '{ exit !($2 < $1) }'; then
  echo "FAIL: -j2 is not faster than -j1"
  status=1
fi
# --- toolkit mode against the prelude, paired runs -----------------------------------
if "$WL" --version | grep -q "built-in CUDA prelude"; then
  echo "toolkit/prelude: no CUDA toolkit found (only the prelude): not compared"
else
  pj=2
  [ "$NPROC" -lt 2 ] && pj=1
  PAIR_TREE=${BENCH_TREE:-}
  [ -n "$PAIR_TREE" ] && echo "pairs on $PAIR_TREE ($(find "$PAIR_TREE" -name '*.cu' -o -name '*.cuh' | wc -l) .cu/.cuh files), flags: ${BENCH_FLAGS:-none}"
  for STORE in warm cold; do
    echo "toolkit/prelude at -j$pj, precompiled-header store $STORE, $RUNS pairs (prelude run, then toolkit run):"
    if [ "$STORE" = warm ]; then
      # one untimed run of each mode on this tree first: the store then holds
      # its precompiled headers (else the first warm pair builds them)
      for MODE in --no-cuda-path ""; do run "$pj" >/dev/null; done
    fi
    ratios=""
    r=0
    while [ "$r" -lt "$RUNS" ]; do
      MODE=--no-cuda-path
      # shellcheck disable=SC2046
      set -- $(run "$pj")
      p=$1
      MODE=
      # shellcheck disable=SC2046
      set -- $(run "$pj")
      t=$1
      trss=$2
      ratio=$(echo "$t $p" | awk '{ printf "%.2f", ($2 > 0 ? $1 / $2 : 0) }')
      printf '  pair %d: prelude %ss, toolkit %ss (%s MiB), ratio %sx\n' $((r + 1)) "$p" "$t" "$(echo "$trss" | awk '{ printf "%.1f", $1 / 1024 }')" "$ratio"
      ratios="$ratios $ratio"
      r=$((r + 1))
    done
    median=$(echo "$ratios" | tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    echo "toolkit/prelude ratio (median of $RUNS pairs, -j$pj, store $STORE): ${median}x"
  done
  STORE=warm
fi
[ -f "$D/failed" ] && status=1
exit "$status"
