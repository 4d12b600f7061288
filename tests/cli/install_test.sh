#!/bin/sh
# Install and package: `cmake --install` into a temporary DESTDIR gives the
# binary, the man page (generated from --help and the rule docs), the rule
# docs and the bash completion; `cpack -G DEB` builds a .deb whose control
# data (dpkg-deb -I) has the project's version and the Debian runtime
# Depends (which apt-get resolves in a simulated install), and whose contents
# (dpkg-deb -c) are those files.
# Usage: install_test.sh <build-dir> <source-dir>
set -u
BUILD=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
VERSION=$(sed -n 's/^project(warplint VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[ -n "$VERSION" ] && ok || fail "no version in project()"

# --- cmake --install ---------------------------------------------------------
DESTDIR="$T/root" cmake --install "$BUILD" --prefix /usr >"$T/install.log" 2>&1 || {
  fail "cmake --install failed"; tail -5 "$T/install.log"; }
R="$T/root/usr"
[ -x "$R/bin/warplint" ] && ok || fail "no bin/warplint"
"$R/bin/warplint" --version >"$T/v" 2>&1
contains "$T/v" "^warplint $VERSION\$" "the installed binary has the project's version"
[ -f "$R/share/man/man1/warplint.1" ] && ok || fail "no man page"
contains "$R/share/man/man1/warplint.1" "^\.TH WARPLINT 1 .*warplint $VERSION" "man page header and version"
# every long option of --help is in the man page, and every rule doc
"$R/bin/warplint" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u | while read -r o; do
  grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')\|$o" "$R/share/man/man1/warplint.1" || echo "$o"
done >"$T/missing_opts"
[ -s "$T/missing_opts" ] && fail "options missing from the man page: $(tr '\n' ' ' <"$T/missing_opts")" || ok
for md in rules/*.md; do
  id=$(basename "$md" .md)
  [ -f "$R/share/doc/warplint/rules/$id.md" ] && ok || fail "rule doc $id.md not installed"
  grep -q "^\.SS $id\$" "$R/share/man/man1/warplint.1" && ok || fail "man page lacks rule $id"
done
if command -v man >/dev/null 2>&1; then
  MANWIDTH=80 man -l "$R/share/man/man1/warplint.1" >"$T/man.txt" 2>"$T/man.err" && ok || fail "man cannot render the page"
  contains "$T/man.txt" "Exit status" "the rendered man page has the --help text"
  lacks "$T/man.err" "warning" "man warns about the page"
fi
C="$R/share/bash-completion/completions/warplint"
[ -f "$C" ] && ok || fail "no bash completion"
if command -v bash >/dev/null 2>&1; then
  PATH="$R/bin:$PATH" bash -c '. "$1"; complete -p warplint >/dev/null || exit 1
    COMP_WORDS=(warplint --form); COMP_CWORD=1; _warplint; printf "%s\n" "${COMPREPLY[@]}"
    COMP_WORDS=(warplint --format ""); COMP_CWORD=2; _warplint; printf "%s\n" "${COMPREPLY[@]}"
    COMP_WORDS=(warplint --explain leg); COMP_CWORD=2; _warplint; printf "%s\n" "${COMPREPLY[@]}"' _ "$C" >"$T/comp" 2>&1
  contains "$T/comp" "^--format$" "completion of options"
  contains "$T/comp" "^gitlab$" "completion of --format values"
  contains "$T/comp" "^legacy-intrinsic$" "completion of rule ids"
fi

# --- cpack -G DEB ---------------------------------------------------------------
if ! command -v dpkg-deb >/dev/null 2>&1; then
  echo "note: dpkg-deb not found; the .deb is not built"
  finish "install tests"
  exit $?
fi
(cd "$T" && cpack -G DEB --config "$BUILD/CPackConfig.cmake" -B "$T/pkg") >"$T/cpack.log" 2>&1 || {
  fail "cpack failed"; tail -5 "$T/cpack.log"; }
DEB=$(ls "$T"/pkg/warplint_*.deb 2>/dev/null | head -1)
[ -n "$DEB" ] && ok || fail "no .deb built"
if [ -n "$DEB" ]; then
  case $(basename "$DEB") in warplint_${VERSION}_*.deb) ok ;; *) fail "package file name $(basename "$DEB")" ;; esac
  dpkg-deb -I "$DEB" >"$T/info" 2>&1
  contains "$T/info" "^ Package: warplint$" "package name"
  contains "$T/info" "^ Version: $VERSION$" "package version is the project's"
  contains "$T/info" "^ Depends: .*libclang1-19" "Depends on libclang1-19"
  contains "$T/info" "^ Depends: .*libjson-c5" "Depends on libjson-c5"
  contains "$T/info" "^ Depends: .*libgit2-1.5" "Depends on libgit2 (.gitignore)"
  # every library the binary links directly (readelf NEEDED) comes from a
  # package in Depends (or libc)
  for so in $(readelf -d "$BUILD/warplint" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
    ldd "$BUILD/warplint" | sed -n "s/^[[:space:]]*$so => \(\/[^ ]*\).*/\1/p"
  done >"$T/libs"
  while read -r lib; do
    pkg=$(dpkg -S "$(readlink -f "$lib")" 2>/dev/null | head -1 | cut -d: -f1)
    [ -z "$pkg" ] && pkg=$(dpkg -S "$lib" 2>/dev/null | head -1 | cut -d: -f1)
    case $pkg in ""|libc6) continue ;; esac
    grep -q "^ Depends: .*$pkg" "$T/info" || echo "$lib ($pkg)"
  done <"$T/libs" >"$T/undeclared"
  [ -s "$T/undeclared" ] && fail "libraries of packages not in Depends: $(cat "$T/undeclared")" || ok
  dpkg-deb -c "$DEB" >"$T/contents" 2>&1
  for f in ./usr/bin/warplint ./usr/share/man/man1/warplint.1 ./usr/share/doc/warplint/rules/legacy-intrinsic.md \
           ./usr/share/bash-completion/completions/warplint; do
    grep -q " $f\$" "$T/contents" && ok || fail "$f not in the package"
  done
  # apt resolves its Depends on this system (a simulated install: no root
  # needed, nothing changed): every package it needs exists in the release
  if command -v apt-get >/dev/null 2>&1; then
    apt-get install -s "$DEB" >"$T/apt" 2>&1 && ok || { fail "apt-get cannot install the .deb"; tail -5 "$T/apt"; }
    contains "$T/apt" "^Inst warplint " "apt-get would install the package"
    lacks "$T/apt" "unmet dependencies\|Broken" "the package's Depends are satisfiable"
  fi
  # unpacked (not installed: no root needed) it runs
  dpkg-deb -x "$DEB" "$T/unpacked" && "$T/unpacked/usr/bin/warplint" --version >/dev/null 2>&1 && ok || fail "the packaged binary does not run"
fi
finish "install tests"
