#!/bin/sh
# The pre-commit hook: reads .pre-commit-hooks.yaml (with PyYAML when the
# system Python has it, otherwise with sed), selects changed files with the
# hook's `files` regex as pre-commit does, and runs `entry args... files...`
# with warplint on PATH; checks the exit codes pre-commit turns into
# Passed/Failed; then runs pre-commit itself (try-repo) with the hook.
# Usage: precommit_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
HOOKS="$SRC/.pre-commit-hooks.yaml"

field() { # the value of a top-level key of the first hook, without quotes
  sed -n "s/^  $1: *//p" "$HOOKS" | head -1 | sed -e "s/^'\(.*\)'$/\1/" -e 's/^"\(.*\)"$/\1/'
}
ID=$(sed -n 's/^- id: *//p' "$HOOKS" | head -1)
ENTRY=$(field entry)
FILES=$(field files)
LANG_=$(field language)
[ "$ID" = warplint ] && ok || fail "hook id is '$ID'"
[ "$LANG_" = system ] && ok || fail "language is '$LANG_'"
[ -n "$ENTRY" ] && ok || fail "no entry"
if /usr/bin/python3 -c 'import yaml' 2>/dev/null; then
  /usr/bin/python3 - "$HOOKS" "$ENTRY" "$FILES" <<'EOF' && ok || fail "PyYAML reads the hook differently"
import sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
h = hooks[0]
assert isinstance(hooks, list) and h["id"] == "warplint", hooks
for key in ("id", "name", "entry", "language"):
    assert key in h, key
assert h["entry"] == sys.argv[2] and h["files"] == sys.argv[3], h
EOF
fi

# A repository with a staged change set: pre-commit passes only the files the
# regex selects, relative to the repository root, as arguments.
R="$T/repo"
mkdir -p "$R/src" "$R/include" "$R/docs"
cp "$SRC/fixtures/legacy-intrinsic/clean_modern.cu" "$R/src/clean.cu"
cp "$SRC/fixtures/legacy-intrinsic/shuffles_and_votes.cu" "$R/src/legacy.cu"
cp "$SRC/fixtures/legacy-intrinsic/header_helpers.cuh" "$R/include/helpers.cuh"
printf 'int host(void) { return __shfl(1, 0); }\n' >"$R/src/host.cpp"
printf 'uses __shfl\n' >"$R/docs/notes.md"
select_files() { # changed files on stdin -> those the hook runs on
  grep -E -- "$FILES"
}
run_hook() { # changed files...
  files=$(printf '%s\n' "$@" | select_files)
  # shellcheck disable=SC2086
  (cd "$R" && PATH="$(dirname "$WL"):$PATH" $ENTRY $files)
}
printf 'src/host.cpp\ndocs/notes.md\n' | select_files >"$T/sel" && fail "non-CUDA files selected" || ok
printf 'src/a.cu\ninclude/b.cuh\nsrc/c.cu.bak\n' | select_files >"$T/sel"
count_is "$T/sel" "." 2 ".cu and .cuh selected, nothing else"

expect_exit 0 -- run_hook src/clean.cu docs/notes.md src/host.cpp
expect_exit 1 -- run_hook src/clean.cu src/legacy.cu
contains "$T/out" "^src/legacy.cu:[0-9]*:[0-9]*: warning" "findings named relative to the repository"
expect_exit 1 -- run_hook include/helpers.cuh
# the repository's settings apply to the files pre-commit passes
printf 'exclude = src/legacy.cu\n' >"$R/.warplint"
expect_exit 0 -- run_hook src/clean.cu src/legacy.cu
rm "$R/.warplint"
# a path that does not exist (a stale file list): an error, never a pass
expect_exit 2 -- run_hook src/gone.cu

# pre-commit itself (Debian package pre-commit): `pre-commit try-repo` of this
# repository with the language: system hook, on a scratch repository holding
# a legacy and a clean file. No network: the hook runs the warplint on PATH.
if ! command -v pre-commit >/dev/null 2>&1; then
  echo "note: pre-commit not installed (Debian: pre-commit); its try-repo run is skipped"
elif ! git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
  echo "note: $SRC is not a git checkout; pre-commit try-repo is skipped"
else
  P="$T/pc"
  S="$T/scratch"
  mkdir -p "$P/bin" "$P/home" "$S"
  ln -s "$WL" "$P/bin/warplint"
  git init -q "$S"
  cp "$SRC/fixtures/legacy-intrinsic/shuffles_and_votes.cu" "$S/legacy.cu"
  cp "$SRC/fixtures/legacy-intrinsic/clean_modern.cu" "$S/clean.cu"
  printf 'not cuda: __shfl\n' >"$S/notes.txt"
  (cd "$S" && git add -A)
  try_repo() { # pre-commit try-repo SRC ARGS..., in the scratch repository
    (cd "$S" && HOME="$P/home" PRE_COMMIT_HOME="$P/home/cache" PATH="$P/bin:$PATH" \
      pre-commit try-repo "$SRC" "$@")
  }
  expect_exit 1 -- try_repo warplint --files legacy.cu clean.cu notes.txt
  contains "$T/out" "^warplint\.*Failed" "try-repo: the hook fails on the legacy file"
  contains "$T/out" "legacy.cu:[0-9]*:[0-9]*: warning: legacy warp" "try-repo: the findings are shown"
  lacks "$T/out" "notes.txt" "try-repo: only CUDA files are passed"
  expect_exit 0 -- try_repo warplint --files clean.cu notes.txt
  contains "$T/out" "^warplint\.*Passed" "try-repo: the hook passes on a clean file"
  # the staged files, as `git commit` runs it
  expect_exit 1 -- try_repo warplint
  contains "$T/out" "^warplint\.*Failed" "try-repo on the staged files"
  (cd "$S" && git rm -q --cached legacy.cu)
  expect_exit 0 -- try_repo warplint
  contains "$T/out" "^warplint\.*Passed" "try-repo on the staged files without the legacy one"
fi

finish "pre-commit tests"
