#!/bin/sh
# Installs the Debian 12 packages warplint needs to build and test, when they
# are missing. Usage: scripts/setup-debian.sh [--with-test-tools]
set -eu
pkgs="build-essential cmake pkg-config libclang-19-dev libjson-c-dev libgit2-dev check"
if [ "${1:-}" = "--with-test-tools" ]; then
  pkgs="$pkgs python3 python3-jsonschema python3-yaml time clang-tools-14 git pre-commit"
fi
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "warplint: installing Debian packages:$missing" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "warplint: need root (or sudo) to install:$missing" >&2; exit 1; }
  SUDO="sudo"
fi
$SUDO apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
