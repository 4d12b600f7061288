#!/bin/sh
# Builds warplint with warnings as errors and runs every test (ctest), then
# builds the ASan+UBSan configuration in build-asan/ and runs the whole suite
# again under it (the fuzz target's replay over tests/fuzz/regressions/,
# fixtures/ and examples/ included). WARPLINT_SKIP_SANITIZE=1 skips the second
# pass. The result cache is a temporary directory. LeakSanitizer ignores only libclang's own leaks
# (tests/sanitizers/lsan.supp).
set -eu
cd "$(dirname "$0")/.."
# The result cache of anything run here goes to a temporary directory, never
# the user's ~/.cache (ctest also gives each test build/test-cache).
WARPLINT_CACHE_DIR=$(mktemp -d)
export WARPLINT_CACHE_DIR
trap 'rm -rf "$WARPLINT_CACHE_DIR"' EXIT
WARPLINT_CMAKE_ARGS="-DWARPLINT_WERROR=ON ${WARPLINT_CMAKE_ARGS:-}" scripts/build.sh --with-test-tools
(cd build && ctest --output-on-failure -j "$(nproc)")
[ "${WARPLINT_SKIP_SANITIZE:-0}" = 1 ] && exit 0
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWARPLINT_WERROR=ON -DWARPLINT_SANITIZE=ON >/dev/null
cmake --build build-asan -j "$(nproc)"
cd build-asan
# use_sigaltstack=0: libclang (LLVM's crash recovery) replaces a thread's
# alternate signal stack with one of its own, which ASan then fails to unmap
# when the thread exits ("unable to unmap", a CHECK failure on stderr).
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:use_sigaltstack=0 \
  LSAN_OPTIONS="suppressions=$(cd .. && pwd)/tests/sanitizers/lsan.supp:print_suppressions=0" \
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j "$(nproc)"
