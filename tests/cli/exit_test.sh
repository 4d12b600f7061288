#!/bin/sh
# Exit codes (--fail-on, --exit-zero), --help and the README's Options table
# naming every option, and the progress line (only on a terminal, only for
# many files).
# Usage: exit_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
BAD=fixtures/legacy-intrinsic/shuffles_and_votes.cu
CLEAN=fixtures/legacy-intrinsic/clean_modern.cu

# --- --fail-on and --exit-zero ---------------------------------------------------
printf '[rules]\nlegacy-intrinsic = note\n' >"$T/notes.warplint"
expect_exit 1 -- "$WL" "$BAD"
expect_exit 1 -- "$WL" --fail-on=note "$BAD"
expect_exit 1 -- "$WL" --fail-on=warning "$BAD"
expect_exit 0 -- "$WL" --fail-on=error "$BAD"
contains "$T/out" "warning:" "findings below --fail-on are still printed"
expect_exit 0 -- "$WL" --fail-on=warning --config "$T/notes.warplint" "$BAD"
expect_exit 2 -- "$WL" --fail-on=fatal "$BAD"
expect_exit 0 -- "$WL" --exit-zero "$BAD"
contains "$T/out" "warning:" "--exit-zero still prints"
expect_exit 0 -- "$WL" --exit-zero --format=sarif "$BAD"
expect_exit 2 -- "$WL" --exit-zero "$T/missing.cu" "$BAD"   # errors are not findings
expect_exit 0 -- "$WL" --fail-on=error "$CLEAN"

# --- --help and README name every option, both ways ----------------------------
"$WL" --help >"$T/help" 2>&1
grep -oE -- '--[a-z][a-z-]*' "$T/help" | sort -u >"$T/help.long"
sed -n '/^### Options/,/^### Exit status/p' README.md | grep '^| `' >"$T/readme.table"
grep -oE -- '--[a-z][a-z-]*' "$T/readme.table" | sort -u >"$T/readme.long"
same "$T/help.long" "$T/readme.long" "long options of --help and of the README Options table differ"
for o in -p -I -D -U -j -h -v; do
  grep -qE -- "(^|[ ,])$o( |,|$)" "$T/help" && ok || fail "--help lacks $o"
  grep -qE -- "\`${o}[ \`]" "$T/readme.table" && ok || fail "README Options table lacks $o"
done
for o in $(cat "$T/help.long"); do
  case "$o" in --help|--version|--list-rules) continue ;; esac
  # every option is accepted by the parser (a usage error names no unknown option)
  "$WL" "$o" >"$T/o.out" 2>"$T/o.err" </dev/null
  grep -q "unknown option" "$T/o.err" && fail "--help documents $o but the parser rejects it" || ok
done
grep -q '^| 2 |' README.md && ok || fail "README has no exit status table"

# --- progress: a terminal and more than 20 files ---------------------------------
mkdir -p "$T/many"
i=0
while [ $i -lt 25 ]; do cp "$CLEAN" "$T/many/f$i.cu"; i=$((i + 1)); done
expect_exit 0 -- "$WL" -j2 "$T/many"
[ -s "$T/err" ] && fail "stderr is not a terminal: no progress line" || ok
if command -v script >/dev/null 2>&1; then
  # script(1) gives the command a terminal; stdout goes to a file
  script -qec "'$WL' -j2 '$T/many' >'$T/tty.out'" /dev/null >"$T/tty.log" 2>&1
  contains "$T/tty.log" "\[25/25\]" "progress line on a terminal"
  [ -s "$T/tty.out" ] && fail "progress went to stdout" || ok
  rm "$T/many/f1"*.cu
  script -qec "'$WL' -j2 '$T/many' >'$T/tty.out'" /dev/null >"$T/tty.log" 2>&1
  lacks "$T/tty.log" "\[1/" "no progress line for a few files"
fi

finish "exit tests"
