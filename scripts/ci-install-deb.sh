#!/bin/sh
# CI only (.ci/run, as root on a fresh machine): builds the .deb from build/
# with cpack, installs it with apt-get (which must resolve its Depends from
# Debian's packages), checks what the package put on the system (the
# binary, the man page, the rule docs, bash completion) and that the
# installed warplint runs on the bundled examples, then removes it again.
# tests/cli/install_test.sh checks the package without root; this is the
# real install that test cannot do.
set -eu
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "ci-install-deb: needs root (apt-get install)" >&2; exit 2; }
if dpkg -s warplint >/dev/null 2>&1; then
  echo "ci-install-deb: a warplint package is installed already; not touching it" >&2
  exit 2
fi
PKG=$(mktemp -d)
trap 'rm -rf "$PKG"' EXIT
(cd "$PKG" && cpack -G DEB --config "$OLDPWD/build/CPackConfig.cmake" -B "$PKG") >"$PKG/cpack.log" 2>&1 ||
  { tail -20 "$PKG/cpack.log" >&2; exit 1; }
DEB=$(ls "$PKG"/warplint_*.deb)
chmod 0755 "$PKG" # apt's sandbox user reads the file
apt-get install -y --no-install-recommends "$DEB"
fail=0
check() { if "$@"; then echo "ci-install-deb: ok: $*"; else echo "ci-install-deb: FAILED: $*" >&2; fail=1; fi; }
check test -x /usr/bin/warplint
check sh -c '/usr/bin/warplint --version | grep -q "^warplint $(sed -n "s/^project(warplint VERSION \([0-9.]*\).*/\1/p" CMakeLists.txt)"'
check sh -c 'dpkg -L warplint | grep -q "/man1/warplint.1"'
check sh -c 'dpkg -L warplint | grep -q "/share/doc/warplint/rules/legacy-intrinsic.md"'
check sh -c 'dpkg -L warplint | grep -q "/bash-completion/completions/warplint"'
# the installed binary finds the legacy code of the bundled examples (exit 1)
set +e
(cd examples && /usr/bin/warplint --no-cache . >"$PKG/out" 2>"$PKG/err")
rc=$?
set -e
check test "$rc" = 1
check grep -q "legacy-intrinsic" "$PKG/out"
apt-get remove -y warplint >/dev/null
check test ! -e /usr/bin/warplint
exit $fail
