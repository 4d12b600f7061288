#!/bin/sh
# The pre-commit hook: reads .pre-commit-hooks.yaml (with PyYAML when the
# system Python has it, otherwise with sed), selects changed files with the
# hook's `files` regex as pre-commit does, and runs `entry args... files...`
# with warplint on PATH; checks the exit codes pre-commit turns into
# Passed/Failed.
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

finish "pre-commit tests"
