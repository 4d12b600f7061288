#!/bin/sh
# .gitignore in directory walks (libgit2): what git ignores is not searched
# (CMake's build/CMakeFiles/.../CMakeCUDACompilerId.cu), --no-ignore searches
# it, files and directories named on the command line are analyzed anyway,
# and outside a git repository nothing changes.
# Usage: ignore_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
command -v git >/dev/null 2>&1 || { echo "ignore tests: git not installed"; exit 1; }

legacy() { printf '__global__ void k(int *o) { o[0] = __shfl(o[1], 0); }\n' >"$1"; }

R="$T/repo"
ID="$R/build/CMakeFiles/3.25.1/CompilerIdCUDA"
mkdir -p "$ID" "$R/src/gen" "$R/src/keep"
git init -q "$R"
legacy "$ID/CMakeCUDACompilerId.cu"
legacy "$R/src/a.cu"
legacy "$R/src/gen/g.cu"
legacy "$R/src/keep/k.cu"
legacy "$R/src/keep/drop.cu"
legacy "$R/src/local.cu"
printf 'build/\n' >"$R/.gitignore"
printf 'gen/\nkeep/*\n!keep/k.cu\n' >"$R/src/.gitignore"
printf 'local.cu\n' >>"$R/.git/info/exclude"

# by default: what git ignores is not searched
expect_exit 1 -- "$WL" -v "$R"
lacks "$T/out" "CMakeCUDACompilerId.cu" "build/ of .gitignore not searched"
lacks "$T/out" "gen/g.cu" "a nested .gitignore"
lacks "$T/out" "drop.cu" "keep/* ignored"
contains "$T/out" "keep/k.cu" "!keep/k.cu re-includes it"
lacks "$T/out" "local.cu" ".git/info/exclude"
contains "$T/out" "src/a.cu" "the rest is analyzed"
contains "$T/err" "build: ignored by git" "-v says what git ignores"
# the same from inside the tree, with a relative path
(cd "$R/src" && "$WL" .. >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
contains "$T/rc" "^1$" "relative path: exit"
lacks "$T/out" "CMakeCUDACompilerId.cu" "relative path: build/ not searched"

# --no-ignore: everything
expect_exit 1 -- "$WL" --no-ignore "$R"
for f in CMakeCUDACompilerId.cu gen/g.cu keep/drop.cu local.cu src/a.cu; do
  contains "$T/out" "$f" "--no-ignore searches $f"
done

# named on the command line: analyzed even when ignored (like ruff); a named
# ignored directory is searched without .gitignore
expect_exit 1 -- "$WL" "$ID/CMakeCUDACompilerId.cu"
contains "$T/out" "CMakeCUDACompilerId.cu" "a named ignored file is analyzed"
expect_exit 1 -- "$WL" -v "$R/build"
contains "$T/out" "CMakeCUDACompilerId.cu" "a named ignored directory is searched"
contains "$T/err" "ignored by git, but named" "-v says so"
# pre-commit passes the staged files by name
expect_exit 1 -- "$WL" "$R/src/gen/g.cu" "$R/src/a.cu"
contains "$T/out" "gen/g.cu" "named files: analyzed"

# .warplint exclude still applies on top of .gitignore
printf 'exclude = src/keep/**\n' >"$R/.warplint"
expect_exit 1 -- "$WL" "$R"
lacks "$T/out" "keep/k.cu" "exclude and .gitignore both apply"
rm "$R/.warplint"

# outside a git repository a .gitignore means nothing
N="$T/norepo"
mkdir -p "$N/build"
legacy "$N/build/CMakeCUDACompilerId.cu"
printf 'build/\n' >"$N/.gitignore"
expect_exit 1 -- "$WL" "$N"
contains "$T/out" "CMakeCUDACompilerId.cu" "no repository: .gitignore not applied"

# a repository libgit2 cannot open (a .git file pointing nowhere): searched
# as without .gitignore, -v says why
B="$T/broken"
mkdir -p "$B/build"
legacy "$B/build/x.cu"
printf 'build/\n' >"$B/.gitignore"
printf 'gitdir: /nonexistent/.git/worktrees/x\n' >"$B/.git"
expect_exit 1 -- "$WL" -v "$B"
contains "$T/out" "build/x.cu" "unreadable repository: searched"
contains "$T/err" ".gitignore not read" "unreadable repository: -v says why"

# a submodule-like nested repository uses its own .gitignore
S="$R/src/sub"
mkdir -p "$S/out"
git init -q "$S"
legacy "$S/out/o.cu"
legacy "$S/s.cu"
printf 'out/\n' >"$S/.gitignore"
expect_exit 1 -- "$WL" "$R/src"
lacks "$T/out" "sub/out/o.cu" "nested repository: its own .gitignore"
contains "$T/out" "sub/s.cu" "nested repository: the rest is searched"

# a repository's ignore files and configuration are untrusted: a FIFO as a
# .gitignore, or included by .git/config, would block libgit2's open() for
# ever. libgit2 runs in a child that gets 5 s an answer; then the walk goes
# on without .gitignore, with a warning, and the findings are all there.
if command -v mkfifo >/dev/null 2>&1; then
  F="$T/fifo"
  mkdir -p "$F/src"
  git init -q "$F"
  legacy "$F/src/a.cu"
  mkfifo "$F/src/.gitignore"
  expect_exit 1 -- timeout 60 "$WL" "$F"
  contains "$T/out" "src/a.cu" "FIFO .gitignore: the file is still analyzed"
  contains "$T/err" "warning: what git ignores could not be read" "FIFO .gitignore: a warning"
  rm "$F/src/.gitignore"
  mkfifo "$F/cfg"
  printf '[include]\n\tpath = %s\n' "$F/cfg" >>"$F/.git/config"
  expect_exit 1 -- timeout 60 "$WL" "$F/src"
  contains "$T/out" "src/a.cu" "FIFO included by .git/config: analyzed"
  contains "$T/err" "no answer within" "FIFO included by .git/config: a warning"
fi

# libgit2 is loaded only in the child that reads .gitignore: a run that
# searches no directory does not load it (nor the libraries it needs)
L="$T/load"
mkdir -p "$L"
git init -q "$L"
legacy "$L/a.cu"
LD_DEBUG=files "$WL" --no-cache "$L/a.cu" >"$T/out" 2>"$T/err"
lacks "$T/err" "file=libgit2" "a file named: libgit2 not loaded"
LD_DEBUG=files "$WL" --no-cache "$L" >"$T/out" 2>"$T/err"
contains "$T/err" "file=libgit2.*dynamically loaded" "a directory searched: libgit2 loaded to read .gitignore"
contains "$T/out" "a.cu" "a directory searched: the file analyzed"

finish "ignore tests"
