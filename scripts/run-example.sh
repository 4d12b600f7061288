#!/bin/sh
# Builds warplint and runs it on the bundled legacy example tree (examples/).
# Exit status is warplint's: 1 because the examples are full of findings.
set -eu
cd "$(dirname "$0")/.."
scripts/build.sh >&2
exec build/warplint examples/ "$@"
