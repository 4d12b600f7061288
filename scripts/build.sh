#!/bin/sh
# Configures and builds warplint into build/ (installing missing Debian packages first).
set -eu
cd "$(dirname "$0")/.."
scripts/setup-debian.sh "$@"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo ${WARPLINT_CMAKE_ARGS:-} >/dev/null
cmake --build build -j "$(nproc)"
