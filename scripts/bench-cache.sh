#!/bin/sh
# Goal 3 of issue 19 (re-runs are nearly free): for each tree, a cold run of
# `warplint -j2 TREE` with an empty result cache, then warm runs of the same
# command (best of R), in the same invocation; prints both wall times, their
# ratio, the peak RSS (/usr/bin/time, Debian package `time`), the number of
# entries stored, and whether the cold, warm and --no-cache outputs are
# identical (exit 1 if not). Each tree gets a new temporary cache directory.
# Trees: the repository's fixtures/ and examples/, and those of BENCH_TREES
# (default /tmp/rw/trees; README.txt there names the commits) listed in
# BENCH_CACHE_TREES (default: cuda-samples); BENCH_CACHE_MODES says with
# which CUDA headers (default "prelude"; "prelude toolkit" adds the detected
# toolkit).
# Usage: scripts/bench.sh --cache [warplint-binary] [warm runs (default 3)]
set -eu
cd "$(dirname "$0")/.."
# catalog_commit TREE: the commit tests/recall/catalog.tsv names for a tree
# (when BENCH_TREES has no README.txt naming it); empty if none
catalog_commit() { awk -F'\t' -v t="$1" '$1 == "#tree" && $2 == t { print $4 }' tests/recall/catalog.tsv 2>/dev/null || true; }
[ "${1:-}" = --cache ] && shift
WL=${1:-build/warplint}
RUNS=${2:-3}
TREES=${BENCH_TREES:-/tmp/rw/trees}
unset WARPLINT_CACHE_SIZE
[ -x "$WL" ] || { echo "bench: $WL not found; build first (scripts/build.sh)" >&2; exit 2; }
case "$WL" in /*) ;; *) WL="$PWD/$WL" ;; esac
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
have_time=no
[ -x /usr/bin/time ] && /usr/bin/time -f %e true >/dev/null 2>&1 && have_time=yes
load() { cut -d' ' -f1-3 /proc/loadavg; }

# run OUT ARGS...: "wall_s rss_MiB" of warplint ARGS, stdout in OUT
run() {
  out=$1
  shift
  if [ "$have_time" = yes ]; then
    /usr/bin/time -f '%e %M' -o "$D/time" "$WL" "$@" >"$out" 2>"$out.err" || true
    tail -n 1 "$D/time" | awk '{ printf "%.2f %.0f", $1, $2 / 1024 }'
  else
    t0=$(date +%s.%N)
    "$WL" "$@" >"$out" 2>"$out.err" || true
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "%.2f 0", $2 - $1 }'
  fi
}

echo "warplint result-cache bench (--cache): $("$WL" --version | head -1), $(nproc) cores, load $(load)"
printf '%-22s %-8s %6s %8s %8s %9s %8s %8s %7s %s\n' tree headers files cold_s warm_s cold/warm \
  rss_cold rss_warm entries identical
status=0
trees="repo:fixtures+examples"
for t in ${BENCH_CACHE_TREES:-cuda-samples}; do
  [ -d "$TREES/$t" ] && trees="$trees $t"
done
for t in $trees; do
  if [ "$t" = repo:fixtures+examples ]; then
    args="fixtures examples"
    name=fixtures+examples
  else
    args="$TREES/$t"
    name=$t
  fi
  # shellcheck disable=SC2086
  files=$(find $args -name '*.cu' -o -name '*.cuh' | wc -l)
  for mode in ${BENCH_CACHE_MODES:-prelude}; do
    hdr=--no-cuda-path
    [ "$mode" = toolkit ] && hdr=""
    C="$D/cache.$name.$mode"
    export WARPLINT_CACHE_DIR="$C"
    # shellcheck disable=SC2086
    ref=$(run "$D/ref" -j2 --color=never --no-cache $hdr $args)
    # shellcheck disable=SC2086
    cold=$(run "$D/cold" -j2 --color=never $hdr $args)
    best=""
    r=0
    while [ "$r" -lt "$RUNS" ]; do
      # shellcheck disable=SC2086
      w=$(run "$D/warm" -j2 --color=never $hdr $args)
      if [ -z "$best" ] || echo "${w% *} ${best% *}" | awk '{ exit !($1 < $2) }'; then
        best=$w
      fi
      cmp -s "$D/cold" "$D/warm" || status=1
      r=$((r + 1))
    done
    same=yes
    if ! cmp -s "$D/ref" "$D/cold" || ! cmp -s "$D/cold" "$D/warm" ||
      ! cmp -s "$D/ref.err" "$D/warm.err"; then
      same=no
      status=1
    fi
    entries=$(find "$C" -type f ! -name '.tmp-*' 2>/dev/null | wc -l)
    printf '%-22s %-8s %6s %8s %8s %9s %8s %8s %7s %s\n' "$name" "$mode" "$files" "${cold% *}" \
      "${best% *}" "$(echo "${cold% *} ${best% *}" | awk '{ printf "%.0fx", ($2 > 0 ? $1 / $2 : 0) }')" \
      "${cold#* }" "${best#* }" "$entries" "$same (--no-cache: ${ref% *} s)"
  done
done
for t in $trees; do
  [ "$t" = repo:fixtures+examples ] && continue
  c=$(awk -v t="$t" '$1 == t { print $3 }' "$TREES/README.txt" 2>/dev/null || true)
  [ -n "$c" ] || c=$(catalog_commit "$t")
  echo "$t: ${c:-unknown commit}"
done
echo "load at the end: $(load)"
exit "$status"
