#!/bin/sh
# The entry of the pre-commit hook `warplint-build` (language: script, see
# .pre-commit-hooks.yaml): builds warplint from the hook repository's own
# checkout on first use, into build-pre-commit/ beside this script's
# directory (pre-commit keeps one checkout per rev, so each revision is built
# once), then runs it on the files pre-commit passes. Needs the build
# dependencies of scripts/setup-debian.sh (cmake, a C compiler, pkg-config,
# libclang-19-dev, libjson-c-dev, libgit2-dev); nothing is downloaded.
# WARPLINT_BUILD_JOBS sets the parallel jobs of the build (default: nproc).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build="$here/build-pre-commit"
exe="$build/warplint"
if [ ! -x "$exe" ]; then
  log="$here/build-pre-commit.log"
  jobs=${WARPLINT_BUILD_JOBS:-$(nproc 2>/dev/null || echo 2)}
  # one build at a time when several repositories share this checkout
  if ! (
    command -v flock >/dev/null 2>&1 && flock 9
    [ -x "$exe" ] || {
      cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DWARPLINT_TESTS=OFF &&
        cmake --build "$build" --target warplint -j "$jobs"
    }
  ) 9>"$here/.build-pre-commit.lock" >"$log" 2>&1; then
    echo "warplint: building warplint from source in $build failed (scripts/setup-debian.sh" \
      "installs what it needs); the end of $log:" >&2
    tail -n 20 "$log" >&2
    exit 2
  fi
fi
exec "$exe" "$@"
