#!/bin/sh
# Runs warplint on each legacy tree named in a recall catalog and prints the
# recall report of scripts/recall.py (docs/recall.md).
#
# usage: scripts/recall.sh TREES_DIR [CATALOG]
#   TREES_DIR  holds one checkout per tree, named as in the catalog's #tree
#              lines (cudpp, cusplibrary, ...), each at the commit named there
#   CATALOG    default tests/recall/catalog.tsv
# environment:
#   WARPLINT   the binary (default: build/warplint of this checkout)
#   JOBS       -j for warplint (default 2)
#   TIMEOUT    seconds per tree (default 3600)
#   FILE_TIMEOUT  warplint's --file-timeout, seconds per file (default 1200:
#              cusp's graph examples need minutes each on a loaded machine)
#   OUT        keep the JSON reports and stderr there (default: a temp dir,
#              removed at the end)
#   TREES      space-separated subset of the catalog's trees to run
#   RECALL_ARGS  extra arguments for recall.py (--window N, --inactive, ...)
# Each tree runs as
#   cd TREES_DIR/TREE && warplint --format=json -jJOBS --no-cache -q \
#       --file-timeout FILE_TIMEOUT --enable=missing-syncwarp,full-mask-divergent IFLAGS DIR
# A tree missing from TREES_DIR is skipped with a warning; its regions are
# then left out of the figures. Exit status: recall.py's, or 2 on bad usage.
set -u

here=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 TREES_DIR [CATALOG]" >&2
  exit 2
fi
trees_dir=$(cd "$1" 2>/dev/null && pwd) || { echo "$0: no directory $1" >&2; exit 2; }
catalog=${2:-$here/tests/recall/catalog.tsv}
[ -r "$catalog" ] || { echo "$0: cannot read catalog $catalog" >&2; exit 2; }
case $catalog in /*) ;; *) catalog=$(pwd)/$catalog ;; esac
warplint=${WARPLINT:-$here/build/warplint}
[ -x "$warplint" ] || { echo "$0: no warplint binary at $warplint (set WARPLINT)" >&2; exit 2; }
case $warplint in /*) ;; *) warplint=$(pwd)/$warplint ;; esac
jobs=${JOBS:-2}
limit=${TIMEOUT:-3600}
file_limit=${FILE_TIMEOUT:-1200}

if [ -n "${OUT:-}" ]; then
  out=$OUT
  mkdir -p "$out" || exit 2
  keep=1
else
  out=$(mktemp -d "${TMPDIR:-/tmp}/warplint-recall.XXXXXX") || exit 2
  keep=0
fi
cleanup() { [ "$keep" = 1 ] || rm -rf "$out"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# "#tree<TAB>NAME<TAB>REPO<TAB>COMMIT<TAB>DIR<TAB>IFLAGS" lines of the catalog.
tab=$(printf '\t')
grep "^#tree$tab" "$catalog" > "$out/trees.txt"
[ -s "$out/trees.txt" ] || { echo "$0: $catalog has no #tree lines" >&2; exit 2; }

# The TREE=JSON arguments of recall.py are collected as positional parameters
# (the script's own arguments are no longer needed).
set --
while IFS="$tab" read -r _ name repo commit dir iflags; do
  if [ -n "${TREES:-}" ]; then
    case " $TREES " in *" $name "*) ;; *) continue ;; esac
  fi
  if [ ! -d "$trees_dir/$name" ]; then
    echo "recall.sh: $name: not in $trees_dir (expected $repo at $commit); skipped" >&2
    continue
  fi
  start=$(date +%s)
  # IFLAGS is a space-separated list of -I options: split on purpose.
  # shellcheck disable=SC2086
  (cd "$trees_dir/$name" && timeout "$limit" "$warplint" --format=json -j"$jobs" --no-cache -q \
      --file-timeout "$file_limit" --enable=missing-syncwarp,full-mask-divergent $iflags "$dir") \
      > "$out/$name.json" 2> "$out/$name.err"
  rc=$?
  end=$(date +%s)
  case $rc in
    0|1) echo "recall.sh: $name: ran in $((end - start)) s" >&2 ;;
    2) echo "recall.sh: $name: ran in $((end - start)) s; some files were not analyzed (see the" \
         "errors column and $out/$name.err)" >&2 ;;
    124) echo "recall.sh: $name: timed out after $limit s; left out" >&2; continue ;;
    *) echo "recall.sh: $name: warplint exited $rc (see $out/$name.err); left out" >&2; continue ;;
  esac
  set -- "$@" "$name=$out/$name.json"
done < "$out/trees.txt"

if [ $# -eq 0 ]; then
  echo "$0: no tree ran" >&2
  exit 2
fi
[ "$keep" = 1 ] && echo "recall.sh: JSON reports kept in $out" >&2
# RECALL_ARGS is a space-separated list of options: split on purpose.
# shellcheck disable=SC2086
python3 "$here/scripts/recall.py" "$catalog" "$@" ${RECALL_ARGS:-}
