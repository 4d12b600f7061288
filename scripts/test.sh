#!/bin/sh
# Builds warplint with warnings as errors and runs every test (ctest).
set -eu
cd "$(dirname "$0")/.."
WARPLINT_CMAKE_ARGS="-DWARPLINT_WERROR=ON ${WARPLINT_CMAKE_ARGS:-}" scripts/build.sh --with-test-tools
cd build
ctest --output-on-failure -j "$(nproc)"
