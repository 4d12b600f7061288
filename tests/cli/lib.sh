# lib.sh - helpers shared by the CLI test scripts (sourced, POSIX sh).
# Each script: WL=<warplint> SRC=<source dir>; calls the helpers, then `finish`.
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
pass=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { pass=$((pass + 1)); }

# expect_exit CODE -- command...   (stdout in $T/out, stderr in $T/err)
expect_exit() {
  want=$1; shift; shift
  "$@" >"$T/out" 2>"$T/err"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "exit $got (want $want): $*"; sed 's/^/    stderr: /' "$T/err" | head -5
  else
    ok
  fi
}
contains() { # file pattern description
  if grep -q -- "$2" "$1"; then ok; else fail "$3: '$2' not in $(basename "$1")"; sed 's/^/    /' "$1" | head -8; fi
}
lacks() {
  if grep -q -- "$2" "$1"; then fail "$3: '$2' unexpectedly in $(basename "$1")"; sed 's/^/    /' "$1" | head -8; else ok; fi
}
same() { # file1 file2 description
  if cmp -s "$1" "$2"; then ok; else fail "$3"; diff "$1" "$2" | head -10 | sed 's/^/    /'; fi
}
count_is() { # file pattern n description
  n=$(grep -c -- "$2" "$1")
  if [ "$n" -eq "$3" ]; then ok; else fail "$4: $n lines match '$2' (want $3)"; sed 's/^/    /' "$1" | head -8; fi
}
finish() { # name
  echo "$1: $pass passed, $fails failed"
  [ "$fails" -eq 0 ]
}
