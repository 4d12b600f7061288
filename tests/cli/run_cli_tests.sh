#!/bin/sh
# CLI tests: exit codes, bad inputs, and golden output of the three formats.
# Usage: run_cli_tests.sh <warplint> <source-dir>   (WARPLINT_UPDATE_GOLDEN=1 rewrites goldens)
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

cd "$SRC" || exit 1
FIX=fixtures/legacy-intrinsic
CLEAN=$FIX/clean_modern.cu
BAD=$FIX/shuffles_and_votes.cu

# --- exit codes ---------------------------------------------------------------
expect_exit 0 -- "$WL" "$CLEAN"
expect_exit 1 -- "$WL" "$BAD"
expect_exit 1 -- "$WL" "$FIX"                    # a directory, recursively
expect_exit 2 -- "$WL"                           # no inputs
expect_exit 2 -- "$WL" --no-such-option "$BAD"
expect_exit 2 -- "$WL" --format=xml "$BAD"
expect_exit 2 -- "$WL" --color=sometimes "$BAD"
expect_exit 2 -- "$WL" --cuda-arch=banana "$BAD"
expect_exit 2 -- "$WL" --explain no-such-rule
expect_exit 2 -- "$WL" --enable no-such-rule "$BAD"
expect_exit 2 -- "$WL" -j 0 "$BAD"
expect_exit 0 -- "$WL" --help
contains "$T/out" "Exit status" "--help documents exit codes"
expect_exit 0 -- "$WL" --version
contains "$T/out" "^warplint [0-9]" "--version"
expect_exit 0 -- "$WL" --list-rules
contains "$T/out" "^legacy-intrinsic " "--list-rules"
expect_exit 0 -- "$WL" --explain legacy-intrinsic
contains "$T/out" "## Why is this bad" "--explain prints the doc"
expect_exit 0 -- "$WL" --disable legacy-intrinsic "$BAD"

# --- bad inputs: reported by name, the rest still analyzed -----------------------
printf 'int x;\0\1\2binary' > "$T/blob.cu"
expect_exit 2 -- "$WL" "$T/blob.cu" "$BAD"
contains "$T/err" "blob.cu: not a text file" "binary file named on stderr"
contains "$T/out" "shuffles_and_votes.cu:6:10: warning" "other files still analyzed"
expect_exit 2 -- "$WL" "$T/missing.cu" "$BAD"
contains "$T/err" "missing.cu: cannot access" "missing file named on stderr"
contains "$T/out" "legacy-intrinsic" "findings of the other file still reported"
cp "$BAD" "$T/unreadable.cu"; chmod 000 "$T/unreadable.cu"
if [ "$(id -u)" -ne 0 ]; then
  expect_exit 2 -- "$WL" "$T/unreadable.cu" "$CLEAN"
  contains "$T/err" "unreadable.cu: cannot read file" "unreadable file named"
fi
mkfifo "$T/fifo.cu" 2>/dev/null && { expect_exit 0 -- "$WL" "$T" --extensions=none; }
mkdir -p "$T/tree/sub" "$T/tree/.git"
cp "$BAD" "$T/tree/sub/a.cu"; cp "$BAD" "$T/tree/.git/hidden.cu"; cp "$BAD" "$T/tree/b.cuda"
expect_exit 1 -- "$WL" "$T/tree"
contains "$T/out" "sub/a.cu" "recursive search"
lacks "$T/out" "hidden.cu" "hidden directories skipped"
lacks "$T/out" "b.cuda" "other extensions skipped by default"
expect_exit 1 -- "$WL" --extensions=cuda "$T/tree"
contains "$T/out" "b.cuda" "--extensions"
expect_exit 1 -- "$WL" "$T/tree/b.cuda"        # named explicitly: analyzed
# missing include and unknown types: the rest of the file is analyzed
printf '#include "nope.h"\n__global__ void k(Unknown *u, float *o) { o[0] = __shfl(o[0], 0); }\n' > "$T/broken.cu"
expect_exit 1 -- "$WL" --verbose "$T/broken.cu"
contains "$T/err" "could not resolve" "--verbose says what was not resolved"
contains "$T/out" "broken.cu:2:50: warning" "analysis goes on after errors"
# -D and -- pass-through reach the parser
printf '#ifdef LEGACY\n__global__ void k(float *o) { o[0] = __shfl(o[0], 0); }\n#endif\n' > "$T/def.cu"
expect_exit 0 -- "$WL" "$T/def.cu"
expect_exit 1 -- "$WL" -D LEGACY "$T/def.cu"
expect_exit 1 -- "$WL" "$T/def.cu" -- -DLEGACY
# --cuda-path with the real toolkit headers (CUDA 13 removed headers clang includes)
if [ -d /usr/local/cuda/include ]; then
  expect_exit 1 -- "$WL" --cuda-path /usr/local/cuda "$BAD"
  contains "$T/out" "shuffles_and_votes.cu:6:10" "--cuda-path finds the same findings"
  # branches inactive under CUDA 9+ (__CUDACC_VER_MAJOR__ < 9) stay inactive with real headers
  expect_exit 0 -- "$WL" --cuda-path /usr/local/cuda --enable legacy-intrinsic "$CLEAN"
fi

# --- colour --------------------------------------------------------------------
"$WL" --color=always "$BAD" >"$T/c.txt" 2>/dev/null
contains "$T/c.txt" "$(printf '\033')\[" "--color=always colours"
"$WL" "$BAD" >"$T/nc.txt" 2>/dev/null
lacks "$T/nc.txt" "$(printf '\033')" "no colour when not a terminal"

# --- determinism: -j1 and -j4 give identical output ------------------------------
"$WL" -j1 fixtures examples >"$T/j1" 2>/dev/null
"$WL" -j4 fixtures examples >"$T/j4" 2>/dev/null
if cmp -s "$T/j1" "$T/j4"; then ok; else fail "-j1 and -j4 outputs differ"; fi

# --- golden outputs --------------------------------------------------------------
golden() { # name format
  "$WL" --format="$2" --color=never --enable legacy-intrinsic "$BAD" "$FIX/macros.cu" >"$T/g" 2>/dev/null
  sed -e "s#file://$(pwd)/#file://SRCROOT/#g" -e 's/"version": "[0-9.]*"/"version": "VERSION"/g' \
    -e 's/"semanticVersion": "[0-9.]*"/"semanticVersion": "VERSION"/g' "$T/g" >"$T/g.norm"
  gf=tests/golden/cli.$1
  if [ "${WARPLINT_UPDATE_GOLDEN:-}" = 1 ]; then cp "$T/g.norm" "$gf"; fi
  if cmp -s "$T/g.norm" "$gf"; then ok; else fail "golden $gf differs:"; diff "$gf" "$T/g.norm" | head -20; fi
}
golden txt text
golden json json
golden sarif sarif

finish "cli tests"
