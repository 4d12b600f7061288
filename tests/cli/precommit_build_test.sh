#!/bin/sh
# The build-from-source pre-commit hook (warplint-build, language: script),
# run by pre-commit on a scratch repository whose .pre-commit-config.yaml
# names this repository: the first run builds warplint from the checkout
# pre-commit made (no network, no warplint on PATH) and fails on a legacy
# file; the next ones reuse the build and pass on a clean file; a build that
# fails says so. (tests/cli/precommit_test.sh runs the system hook with
# pre-commit try-repo.)
# Usage: precommit_build_test.sh <warplint> <source-dir>   (exit 77: skipped)
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
command -v pre-commit >/dev/null 2>&1 || { echo "skipped: pre-commit not installed (Debian: pre-commit)"; exit 77; }
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 || { echo "skipped: $SRC is not a git checkout"; exit 77; }

P="$T/pc"
S="$T/scratch"
mkdir -p "$P/bin" "$P/home" "$S"
git init -q "$S"
cp "$SRC/fixtures/legacy-intrinsic/shuffles_and_votes.cu" "$S/legacy.cu"
cp "$SRC/fixtures/legacy-intrinsic/clean_modern.cu" "$S/clean.cu"
(cd "$S" && git add -A)
# no warplint on PATH: the hook must use the one it builds
PATH_NO_WL=$(printf '%s' "$PATH" | tr ':' '\n' | while read -r d; do
  [ -n "$d" ] && [ ! -x "$d/warplint" ] && printf '%s:' "$d"; done)
# The README's recipe: a .pre-commit-config.yaml naming this repository at a
# commit (its HEAD: a clean checkout in CI) and the hook; pre-commit clones
# it into its store (PRE_COMMIT_HOME, kept between runs), no network needed.
REV=$(git -C "$SRC" rev-parse HEAD)
git -C "$SRC" diff --quiet HEAD 2>/dev/null || echo "note: $SRC has uncommitted changes; its HEAD ($REV) is tested"
printf 'repos:\n  - repo: %s\n    rev: %s\n    hooks:\n      - id: warplint-build\n' "$SRC" "$REV" \
  >"$S/.pre-commit-config.yaml"
(cd "$S" && git add .pre-commit-config.yaml)
run_hook() {
  (cd "$S" && HOME="$P/home" PRE_COMMIT_HOME="$P/home/cache" PATH="${PATH_NO_WL%:}" \
    WARPLINT_BUILD_JOBS="${WARPLINT_BUILD_JOBS:-2}" pre-commit run warplint-build "$@")
}
expect_exit 1 -- run_hook --files legacy.cu clean.cu
contains "$T/out" "^warplint (built from source)\.*Failed" "the built hook fails on the legacy file"
contains "$T/out" "legacy.cu:[0-9]*:[0-9]*: warning: legacy warp" "the findings of the built warplint"
B=$(ls -d "$P"/home/cache/repo*/build-pre-commit 2>/dev/null | head -1)
[ -n "$B" ] && [ -x "$B/warplint" ] && ok || fail "no build in the hook's checkout"
# the second run reuses the build
[ -n "$B" ] && touch -d '2001-01-01' "$B/warplint"
expect_exit 0 -- run_hook --files clean.cu
contains "$T/out" "^warplint (built from source)\.*Passed" "the built hook passes on a clean file"
[ -n "$B" ] && [ "$(stat -c %Y "$B/warplint")" -lt 1000000000 ] && ok || fail "the second run built again"
expect_exit 1 -- run_hook
contains "$T/out" "^warplint (built from source)\.*Failed" "the staged files, as git commit runs it"
# a broken build says why, and fails
if [ -n "$B" ]; then
  rm -rf "$B"
  printf 'this is not CMake(\n' >>"$(dirname "$B")/CMakeLists.txt"
fi
expect_exit 1 -- run_hook --files clean.cu
contains "$T/out" "building warplint from source in .* failed" "a failed build is reported"
finish "pre-commit build-from-source tests"
