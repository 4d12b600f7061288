#!/bin/sh
# The scaling part of the benchmark (issue 19), run as `scripts/bench.sh
# --scaling` or `scripts/bench.sh --smoke`: the pathological shapes of
# scripts/pathological.sh at growing sizes, file size (10k/50k/100k lines of
# distinct kernels), number of files, -j1 against -j2, and the real trees
# under BENCH_TREES (default /tmp/rw/trees, README.txt there names their
# commits). Every ratio printed comes from runs of this invocation. Wall
# times are single runs on a possibly shared machine: the load average is
# printed with them. Peak RSS comes from /usr/bin/time -v (Debian `time`).
#   WL_BEFORE=path  also runs an older warplint binary on the moderate sizes
#                   (capped at BENCH_BEFORE_CAP seconds each, default 60) and
#                   prints the speedup.
#   --smoke         tiny sizes, no real trees: that each case runs and
#                   finishes (CI); nothing is timed or compared.
# Usage: scripts/bench.sh --scaling|--smoke [warplint-binary]
set -eu
# the analysis is timed, not the result cache (bench.sh --cache times that):
# a bound of 0 turns it off, also for a WL_BEFORE that has one
export WARPLINT_CACHE_SIZE=0
cd "$(dirname "$0")/.."
# catalog_commit TREE: the commit tests/recall/catalog.tsv names for a tree
# (when BENCH_TREES has no README.txt naming it); empty if none
catalog_commit() { awk -F'\t' -v t="$1" '$1 == "#tree" && $2 == t { print $4 }' tests/recall/catalog.tsv 2>/dev/null || true; }
MODE=$1
WL=${2:-build/warplint}
[ -x "$WL" ] || { echo "bench: $WL not found; build first (scripts/build.sh)" >&2; exit 2; }
case "$WL" in /*) ;; *) WL="$PWD/$WL" ;; esac
TREES=${BENCH_TREES:-/tmp/rw/trees}
CAP=${BENCH_BEFORE_CAP:-60}
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
have_time=no
[ -x /usr/bin/time ] && /usr/bin/time -v true >/dev/null 2>&1 && have_time=yes

# measure BIN OUT ARGS... -> "wall_s rss_mib exit" (a run capped by timeout: wall ">CAP")
measure() {
  bin=$1 out=$2
  shift 2
  if [ "$have_time" = yes ]; then
    rc=0
    /usr/bin/time -v -o "$D/time" timeout "${TIMEOUT:-0}" "$bin" --color=never "$@" >"$out" 2>"$out.err" || rc=$?
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$D/time" |
      awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }')
    rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$D/time" | awk '{ printf "%.0f", $1 / 1024 }')
  else
    t0=$(date +%s.%N)
    rc=0
    timeout "${TIMEOUT:-0}" "$bin" --color=never "$@" >"$out" 2>"$out.err" || rc=$?
    t1=$(date +%s.%N)
    wall=$(echo "$t0 $t1" | awk '{ printf "%.2f", $2 - $1 }')
    rss=0
  fi
  [ "$rc" -eq 124 ] && wall=">${TIMEOUT}"
  echo "$wall $rss $rc"
}
ratio() { echo "$1 $2" | awk '{ if ($2 > 0 && $1 !~ />/) printf "%.2f", $1 / $2; else printf "-" }'; }
load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo "?"; }

echo "warplint scaling bench ($MODE): $("$WL" --version), $(nproc) cores, load $(load)"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo '?')"

if [ "$MODE" = --smoke ]; then
  status=0
  for k in straight ifelse macrocalls noshared uniform returns kernels; do
    scripts/pathological.sh "$k" 40 >"$D/$k.cu"
    set -- $(TIMEOUT=120 measure "$WL" "$D/$k.out" --format=json "$D/$k.cu")
    if [ "$3" -gt 1 ] || ! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$D/$k.out" 2>/dev/null; then
      echo "FAIL: $k (exit $3)"
      status=1
    else
      echo "ok: $k"
    fi
  done
  exit "$status"
fi

# --- 1. pathological shapes: time per size, t(2n)/t(n) (2.0 = linear) -------------
echo
echo "## pathological shapes (one file each; linear when t(n)/t(n/2) is the file's growth,"
echo "## bytes(n)/bytes(n/2): 2.0 for all but macrocalls, whose N/64 invocations of N terms grow 4x)"
printf '%-11s %6s %9s %8s %11s %11s\n' shape n wall_s rss_MiB "t(n)/t(n/2)" "size_ratio"
for spec in "straight 250 500 1000 2000" "ifelse 256 512 1024 2048" "macrocalls 256 512 1024 2048" \
  "noshared 256 512 1024 2048" "uniform 100 200 400 800" "returns 500 1000 2000 4000"; do
  set -- $spec
  k=$1
  shift
  prev=""
  prevb=""
  for n in "$@"; do
    scripts/pathological.sh "$k" "$n" >"$D/$k$n.cu"
    b=$(wc -c <"$D/$k$n.cu")
    set -- $(measure "$WL" "$D/$k$n.out" "$D/$k$n.cu")
    r=$([ -n "$prev" ] && ratio "$1" "$prev" || echo "")
    g=$([ -n "$prevb" ] && ratio "$b" "$prevb" || echo "")
    printf '%-11s %6s %9s %8s %11s %11s\n' "$k" "$n" "$1" "$2" "$r" "$g"
    prev=$1
    prevb=$b
  done
done
if [ -n "${WL_BEFORE:-}" ]; then
  echo
  echo "## before/after on the moderate sizes (WL_BEFORE=$WL_BEFORE, capped at ${CAP}s)"
  printf '%-11s %6s %10s %10s %8s %s\n' shape n before_s after_s speedup same_output
  for spec in "straight 400" "straight 1000" "ifelse 256" "ifelse 1024" "macrocalls 1024" "noshared 1024" "uniform 200" "returns 400"; do
    set -- $spec
    scripts/pathological.sh "$1" "$2" >"$D/b.cu"
    a=$(measure "$WL" "$D/after.json" --format=json "$D/b.cu" | cut -d' ' -f1)
    b=$(TIMEOUT=$CAP measure "$WL_BEFORE" "$D/before.json" --format=json "$D/b.cu" | cut -d' ' -f1)
    same=$(cmp -s "$D/before.json" "$D/after.json" && echo yes || echo "no/not finished")
    printf '%-11s %6s %10s %10s %8s %s\n' "$1" "$2" "$b" "$a" "$(ratio "$b" "$a")" "$same"
  done
fi

# --- 2. file size: one file of distinct kernels -----------------------------------
echo
echo "## file size (one file of N distinct 10-line kernels; t/t(10k) = lines/10k is linear)"
printf '%8s %9s %8s %10s\n' lines wall_s rss_MiB t/t_10k
base=""
for k in 1000 5000 10000; do
  scripts/pathological.sh kernels "$k" >"$D/k$k.cu"
  set -- $(measure "$WL" "$D/k$k.out" "$D/k$k.cu")
  [ -z "$base" ] && base=$1
  printf '%8s %9s %8s %10s\n' "$(wc -l <"$D/k$k.cu")" "$1" "$2" "$(ratio "$1" "$base")"
done

# --- 3. number of files, -j1 and -j2 ----------------------------------------------
echo
echo "## number of files (each 100 distinct kernels, 1,000 lines), -j1 and -j2"
printf '%6s %9s %9s %9s %9s %10s\n' files j1_s j2_s rss_j2 j1/j2 t/t_first
first=""
for nf in 16 32 64; do
  rm -rf "$D/files"
  mkdir -p "$D/files"
  i=0
  while [ "$i" -lt "$nf" ]; do
    { printf '#define WARPLINT_BENCH_FILE %d\n' "$i"; scripts/pathological.sh kernels 100 | sed "s/void reduce/void f${i}_reduce/"; } >"$D/files/f$i.cu"
    i=$((i + 1))
  done
  j1=$(measure "$WL" "$D/files.1" -j1 "$D/files" | cut -d' ' -f1)
  set -- $(measure "$WL" "$D/files.2" -j2 "$D/files")
  cmp -s "$D/files.1" "$D/files.2" || echo "FAIL: -j2 output differs from -j1"
  [ -z "$first" ] && first=$j1
  printf '%6s %9s %9s %9s %9s %10s\n' "$nf" "$j1" "$1" "$2" "$(ratio "$j1" "$1")" "$(ratio "$j1" "$first")"
done

# --- 4. real trees ----------------------------------------------------------------
if [ -d "$TREES" ]; then
  echo
  echo "## real trees under $TREES (-j2; commits from its README.txt)"
  printf '%-14s %-10s %6s %9s %8s %9s\n' tree commit cu_files wall_s rss_MiB findings
  for t in ${BENCH_TREE_LIST:-cudpp CudaSift llm.c cuda-samples}; do
    [ -d "$TREES/$t" ] || continue
    commit=$(awk -v t="$t" '$1 == t { print $3 }' "$TREES/README.txt" 2>/dev/null || true)
    [ -n "$commit" ] || commit=$(catalog_commit "$t")
    nf=$(find "$TREES/$t" -name '*.cu' | wc -l)
    set -- $(TIMEOUT=${BENCH_TREE_CAP:-300} measure "$WL" "$D/tree.out" -j2 "$TREES/$t")
    printf '%-14s %-10s %6s %9s %8s %9s\n' "$t" "${commit:-?}" "$nf" "$1" "$2" "$(grep -c ': warning: \|: error: ' "$D/tree.out")"
  done
fi
echo
echo "load at the end: $(load)"
