#!/bin/sh
# What --fix must never do: two concurrent runs over 60 files (each file fixed
# exactly once), read-only files, FIFOs, symbolic links inside and outside
# the project, hard links, owners, compilation database entries outside the
# project, --export-fixes pointed at an input, and the outputs (-o,
# --export-fixes, --write-baseline): links, inputs, FIFOs, read-only, owner. (A file changed between
# analysis and write, and the lock, are unit tests of wl_fix_write in
# tests/test_fix.c.)
# Usage: fix_safety_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

ORIG="$SRC/fixtures/legacy-intrinsic/fix_hoisted.cu"
FIXED="$SRC/fixtures/legacy-intrinsic/fix_hoisted.cu.fixed"
P="$T/proj"
mkdir -p "$P/.git" "$P/src" "$T/outside"

# --- two --fix runs at once over 60 files ----------------------------------------
mkdir -p "$P/many"
i=0
while [ $i -lt 60 ]; do cp "$ORIG" "$P/many/f$i.cu"; i=$((i + 1)); done
"$WL" --fix -j2 "$P/many" >"$T/a.out" 2>"$T/a.err" &
pa=$!
"$WL" --fix -j2 "$P/many" >"$T/b.out" 2>"$T/b.err" &
pb=$!
wait $pa; ra=$?
wait $pb; rb=$?
bad=0
for f in "$P"/many/*.cu; do cmp -s "$f" "$FIXED" || bad=$((bad + 1)); done
[ "$bad" -eq 0 ] && ok || fail "concurrent --fix: $bad of 60 files are not the golden"
ls "$P/many" | grep -q warplint- && fail "concurrent --fix: temporary files left" || ok
na=$(sed -n 's/^warplint: fixed [0-9]* findings\{0,1\} in \([0-9]*\) files\{0,1\}$/\1/p' "$T/a.err")
nb=$(sed -n 's/^warplint: fixed [0-9]* findings\{0,1\} in \([0-9]*\) files\{0,1\}$/\1/p' "$T/b.err")
[ "$((${na:-0} + ${nb:-0}))" -eq 60 ] && ok || fail "concurrent --fix: runs fixed $na + $nb files (want 60 in all)"
# a run that lost files to the other says so for each and exits 2; a run that
# lost none exits 0 (every finding of fix_hoisted.cu has an automatic fix)
for r in a b; do
  eval "rc=\$r$r; n=\${n$r:-0}"
  lost=$(grep -c "changed since it was analyzed" "$T/$r.err")
  # a file the other run had already fixed before this run analyzed it has
  # nothing left to fix: it is neither fixed nor refused here
  [ "$((n + lost))" -le 60 ] && ok || fail "concurrent --fix ($r): $n fixed + $lost refused > 60"
  if [ "$lost" -gt 0 ]; then want=2; else want=0; fi
  [ "$rc" -eq "$want" ] && ok || fail "concurrent --fix ($r): exit $rc (want $want)"
  echo "concurrent --fix: run $r fixed $n files, refused $lost, exit $rc"
done
# a third run finds nothing left to fix and changes nothing
cp -r "$P/many" "$T/many.after"
expect_exit 0 -- "$WL" --fix "$P/many"
contains "$T/err" "fixed 0 findings in 0 files" "after the concurrent runs nothing is left to fix"
diff -r "$P/many" "$T/many.after" >/dev/null && ok || fail "a third --fix changed files"

# --- read-only files --------------------------------------------------------------
cp "$ORIG" "$P/src/ro.cu"
chmod 0444 "$P/src/ro.cu"
expect_exit 2 -- "$WL" --fix "$P/src/ro.cu"
contains "$T/err" "ro.cu: the file is read-only; not rewritten" "read-only refused"
same "$P/src/ro.cu" "$ORIG" "read-only file untouched"
[ "$(stat -c %a "$P/src/ro.cu")" = 444 ] && ok || fail "read-only: mode changed"
contains "$T/out" "ro.cu:.*legacy-intrinsic" "read-only: its findings are still reported"

# --- FIFOs: never an input, never written (and warplint does not hang) -----------
mkfifo "$P/src/pipe.cu"
expect_exit 2 -- timeout 20 "$WL" --fix "$P/src/pipe.cu"
[ -p "$P/src/pipe.cu" ] && ok || fail "FIFO replaced"
rm -f "$P/src/pipe.cu"

# --- symbolic links ---------------------------------------------------------------
cp "$ORIG" "$P/src/real.cu"
ln -s real.cu "$P/src/link.cu"
expect_exit 0 -- "$WL" --fix "$P/src/link.cu"
[ -L "$P/src/link.cu" ] && ok || fail "symlink inside the project replaced by a file"
same "$P/src/real.cu" "$FIXED" "symlink inside the project: its target is fixed"
cp "$ORIG" "$T/outside/target.cu"
ln -s "$T/outside/target.cu" "$P/src/out.cu"
expect_exit 2 -- "$WL" --fix "$P/src/out.cu"
contains "$T/err" "out.cu: a symbolic link to .*target.cu, outside the project; not rewritten" "symlink outside refused"
same "$T/outside/target.cu" "$ORIG" "symlink outside: target untouched"
[ -L "$P/src/out.cu" ] && ok || fail "symlink outside the project replaced"
expect_exit 0 -- "$WL" --fix --fix-outside-project "$P/src/out.cu"
same "$T/outside/target.cu" "$FIXED" "--fix-outside-project: the target is fixed"
[ -L "$P/src/out.cu" ] && ok || fail "--fix-outside-project: the link replaced"

# --- hard links -----------------------------------------------------------------------
cp "$ORIG" "$P/src/h1.cu"
ln "$P/src/h1.cu" "$P/src/h2.cu"
expect_exit 2 -- "$WL" --fix "$P/src/h1.cu"
contains "$T/err" "h1.cu: the file has 2 hard links" "hard link refused"
same "$P/src/h1.cu" "$ORIG" "hard link: untouched"
[ "$(stat -c %i "$P/src/h1.cu")" = "$(stat -c %i "$P/src/h2.cu")" ] && ok || fail "hard link broken"

# --- owner and mode -----------------------------------------------------------------
cp "$ORIG" "$P/src/own.cu"
chmod 0604 "$P/src/own.cu"
if [ "$(id -u)" -eq 0 ]; then
  chown 4321:4322 "$P/src/own.cu"
  expect_exit 0 -- "$WL" --fix "$P/src/own.cu"
  same "$P/src/own.cu" "$FIXED" "a file of another owner is fixed (as root)"
  [ "$(stat -c %u:%g:%a "$P/src/own.cu")" = 4321:4322:604 ] && ok || fail "owner or mode changed: $(stat -c %u:%g:%a "$P/src/own.cu")"
  # a user who may write the file and its directory but cannot keep its owner: refused
  if command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    mkdir -p "$T/shared/.git"
    chmod 0755 "$T"
    chmod 0777 "$T/shared"
    cp "$ORIG" "$T/shared/theirs.cu"
    chmod 0666 "$T/shared/theirs.cu"
    chown 4321:4322 "$T/shared/theirs.cu"
    expect_exit 2 -- setpriv --reuid=nobody --regid=nogroup --clear-groups "$WL" --fix "$T/shared/theirs.cu"
    contains "$T/err" "theirs.cu: cannot keep its owner (uid 4321, gid 4322)" "owner cannot be kept: refused"
    same "$T/shared/theirs.cu" "$ORIG" "owner cannot be kept: untouched"
    [ "$(stat -c %u "$T/shared/theirs.cu")" = 4321 ] && ok || fail "owner changed"
    ls "$T/shared" | grep -q warplint- && fail "temporary file left" || ok
  fi
else
  expect_exit 0 -- "$WL" --fix "$P/src/own.cu"
  [ "$(stat -c %a "$P/src/own.cu")" = 604 ] && ok || fail "mode changed"
fi

# --- compilation database entries outside the project ---------------------------------
mkdir -p "$P/build"
cp "$ORIG" "$P/src/in.cu"
cp "$ORIG" "$T/outside/ext.cu"
cat >"$P/build/compile_commands.json" <<EOF
[
  {"directory": "$P/build", "command": "nvcc -c $P/src/in.cu -o in.o", "file": "$P/src/in.cu"},
  {"directory": "$P/build", "command": "nvcc -c $T/outside/ext.cu -o ext.o", "file": "$T/outside/ext.cu"}
]
EOF
expect_exit 2 -- "$WL" --fix -p "$P/build"
same "$P/src/in.cu" "$FIXED" "compdb: the project's entry is fixed"
same "$T/outside/ext.cu" "$ORIG" "compdb: the entry outside the project is not rewritten"
contains "$T/err" "ext.cu: outside the project" "compdb: outside entry named"
contains "$T/out" "ext.cu:.*legacy-intrinsic" "compdb: the outside entry is still reported"

# --- --export-fixes never overwrites an input ---------------------------------------------
cp "$ORIG" "$P/src/e.cu"
expect_exit 2 -- "$WL" --export-fixes "$P/src/e.cu" "$P/src/e.cu"
contains "$T/err" "export-fixes: .*e.cu is one of the inputs; not overwritten" "export-fixes onto an input"
same "$P/src/e.cu" "$ORIG" "export-fixes: the input is untouched"
ln -s e.cu "$P/src/e-link.yaml"
expect_exit 2 -- "$WL" --export-fixes "$P/src/e-link.yaml" "$P/src"
same "$P/src/e.cu" "$ORIG" "export-fixes through a link to an input: untouched"
printf '[rules]\n' >"$P/.warplint"
expect_exit 2 -- "$WL" --export-fixes "$P/.warplint" "$P/src/e.cu"
contains "$T/err" "is one of the inputs" "export-fixes onto the .warplint"
expect_exit 1 -- "$WL" --export-fixes "$T/fixes.yaml" "$P/src/e.cu"
contains "$T/fixes.yaml" "ReplacementText" "export-fixes to a new file still works"

# --- outputs (-o, --export-fixes, --write-baseline): the same mechanism -----------------
Q="$T/outp"
mkdir -p "$Q/.git" "$Q/src" "$Q/reports"
cp "$ORIG" "$Q/src/k.cu"
# never onto an input
expect_exit 2 -- "$WL" -o "$Q/src/k.cu" "$Q/src/k.cu"
contains "$T/err" "error: -o .*k.cu: is one of the inputs; not overwritten" "-o onto an input"
expect_exit 2 -- "$WL" --write-baseline "$Q/src/k.cu" "$Q/src/k.cu"
contains "$T/err" "error: --write-baseline .*k.cu: is one of the inputs; not overwritten" "--write-baseline onto an input"
same "$Q/src/k.cu" "$ORIG" "outputs onto an input: untouched"
# refreshing the baseline that is read is allowed
expect_exit 0 -- "$WL" --write-baseline "$Q/b.json" "$Q/src"
expect_exit 0 -- "$WL" --baseline "$Q/b.json" --write-baseline "$Q/b.json" "$Q/src"
contains "$Q/b.json" '"warplint_baseline"' "--write-baseline refreshes the baseline it reads"
# through a symbolic link inside the project: the target is written, the link
# stays a link, the target's mode is kept
for opt in -o --export-fixes --write-baseline; do
  name=$(echo "$opt" | tr -d -)
  : >"$Q/reports/$name.out"
  chmod 0640 "$Q/reports/$name.out"
  ln -s "reports/$name.out" "$Q/$name-link"
  "$WL" "$opt" "$Q/$name-link" "$Q/src/k.cu" >"$T/out" 2>"$T/err"
  [ -L "$Q/$name-link" ] && ok || fail "$opt through a link: the link was replaced"
  [ -s "$Q/reports/$name.out" ] && ok || fail "$opt through a link: the target was not written"
  [ "$(stat -c %a "$Q/reports/$name.out")" = 640 ] && ok || fail "$opt through a link: mode changed"
  ls "$Q" "$Q/reports" | grep -q warplint- && fail "$opt: temporary file left" || ok
done
contains "$Q/reports/o.out" "legacy-intrinsic" "-o through a link: the report"
contains "$Q/reports/exportfixes.out" "ReplacementText" "--export-fixes through a link: the YAML"
contains "$Q/reports/writebaseline.out" '"warplint_baseline"' "--write-baseline through a link: the baseline"
# a link planted in the checkout that leads outside the project: refused
printf 'precious\n' >"$T/outside/victim"
for opt in -o --export-fixes --write-baseline; do
  ln -sf "$T/outside/victim" "$Q/evil"
  expect_exit 2 -- "$WL" "$opt" "$Q/evil" "$Q/src/k.cu"
  contains "$T/err" "error: $opt: .*evil: a symbolic link to .*victim, outside .*outp; not written" "$opt: a link leading outside the project is refused"
  [ "$(cat "$T/outside/victim")" = precious ] && ok || fail "$opt: the file outside the project was written"
  [ -L "$Q/evil" ] && ok || fail "$opt: the link was replaced"
done
# not a regular file: refused, never opened (no hang)
mkfifo "$Q/fifo.out"
expect_exit 2 -- timeout 60 "$WL" -o "$Q/fifo.out" "$Q/src/k.cu"
contains "$T/err" "fifo.out: a FIFO; -o rewrites only regular files" "-o onto a FIFO refused"
[ -p "$Q/fifo.out" ] && ok || fail "-o replaced the FIFO"
expect_exit 2 -- "$WL" --write-baseline "$Q/reports" "$Q/src/k.cu"
contains "$T/err" "reports: a directory; --write-baseline rewrites only regular files" "--write-baseline onto a directory refused"
# read-only: refused, untouched
printf 'old report\n' >"$Q/ro.out"
chmod 0444 "$Q/ro.out"
expect_exit 2 -- "$WL" --export-fixes "$Q/ro.out" "$Q/src/k.cu"
contains "$T/err" "ro.out: the file is read-only" "--export-fixes onto a read-only file refused"
[ "$(cat "$Q/ro.out")" = "old report" ] && ok || fail "read-only output overwritten"
# owner and mode kept
printf 'old\n' >"$Q/own.out"
chmod 0604 "$Q/own.out"
if [ "$(id -u)" -eq 0 ]; then chown 4321:4322 "$Q/own.out"; fi
own_before=$(stat -c %u:%g:%a "$Q/own.out")
expect_exit 1 -- "$WL" -o "$Q/own.out" "$Q/src/k.cu"
[ "$(stat -c %u:%g:%a "$Q/own.out")" = "$own_before" ] && ok || fail "-o: owner or mode changed: $(stat -c %u:%g:%a "$Q/own.out") (was $own_before)"
contains "$Q/own.out" "legacy-intrinsic" "-o onto a file of another owner: written"

finish "fix safety tests"
