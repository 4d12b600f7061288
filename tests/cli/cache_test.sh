#!/bin/sh
# The result cache: a warm run prints exactly what a cold run and a run with
# --no-cache print (text, JSON, SARIF; fixtures/ and examples/); an edited
# header (also one whose directory looks untouched), other flags, another
# .warplint, a header that appears earlier on the include path, or a changed
# include inference make it analyze again; a corrupt or truncated entry is a
# miss; --no-cache neither reads nor writes; the location follows
# WARPLINT_CACHE_DIR, --cache-dir, XDG_CACHE_HOME and HOME; the size bound
# evicts; two runs at once share it.
# Usage: cache_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
C=$T/cache
export WARPLINT_CACHE_DIR="$C"
unset WARPLINT_CACHE_SIZE

# Entries are not stored while a directory they depend on was modified less
# than 2 s before the run: the trees made here are dated back.
settle() { find "$1" -type d -exec touch -d '2001-01-01 00:00:00' {} +; }
# hits FILE: the number of files served from the cache (--cache-stats)
hits() { sed -n 's/.*result cache .*: \([0-9]*\) files\{0,1\} from the cache.*/\1/p' "$1"; }
# run NAME ARGS...: stdout in $T/NAME.out, stderr in $T/NAME.err, exit in $T/NAME.rc
run() {
  n=$1
  shift
  "$WL" "$@" >"$T/$n.out" 2>"$T/$n.err"
  echo $? >"$T/$n.rc"
}
# same_run A B description: same stdout and exit status
same_run() {
  same "$T/$1.out" "$T/$2.out" "$3 (stdout)"
  same "$T/$1.rc" "$T/$2.rc" "$3 (exit status)"
}

# --- cold, warm and --no-cache agree, in every format ----------------------------
rm -rf "$C"
run cold --format=json fixtures examples
# JSON and SARIF carry fixes checked by a second analysis, text does not: the
# text run has entries of its own (filled by its first run), SARIF uses JSON's
for fmt in json text sarif; do
  run ref --no-cache --format=$fmt fixtures examples
  [ "$fmt" = json ] && same_run ref cold "a cold run prints what --no-cache prints"
  if [ "$fmt" = text ]; then
    run tcold --format=text fixtures examples
    same_run ref tcold "text: a cold run prints what --no-cache prints"
  fi
  run warm --cache-stats --format=$fmt fixtures examples
  same_run ref warm "$fmt: a warm run prints what --no-cache prints"
  h=$(hits "$T/warm.err")
  [ "${h:-0}" -gt 50 ] && ok || fail "$fmt: the warm run served ${h:-no} files from the cache"
  contains "$T/warm.err" "examples/scan/scan.cu: unchanged since an earlier run" "$fmt: --cache-stats names a file served from the cache"
  contains "$T/warm.err" ", 0 stored" "$fmt: a warm run stores nothing new"
  if [ "$fmt" = text ]; then # the summary line and the incomplete-analysis notes too
    run warm2 fixtures examples
    same "$T/ref.err" "$T/warm2.err" "a warm run's stderr is the cold run's"
  fi
done
# with a real toolkit (skipped without one): cold and warm agree
if [ -f /usr/local/cuda/include/cuda_runtime.h ]; then
  run tref --no-cache --cuda-path /usr/local/cuda --format=json examples
  run tcold --cuda-path /usr/local/cuda --format=json examples
  run twarm --cache-stats --cuda-path /usr/local/cuda --format=json examples
  same_run tref tcold "toolkit: cold"
  same_run tref twarm "toolkit: warm"
  [ "$(hits "$T/twarm.err")" = 3 ] && ok || fail "toolkit: the warm run was not served from the cache"
  lacks "$T/twarm.err" "result cache not used" "toolkit: the cache is used"
fi

# --- what invalidates ------------------------------------------------------------
P=$T/p
mkdir -p "$P/src" "$P/inc"
cat >"$P/src/k.cu" <<'EOF'
#include "util.cuh"
#include "lib.h"
__global__ void k(int *o) {
  int v = o[threadIdx.x];
  v = util(v);
#ifdef EXTRA
  v += __shfl_down(v, 2);
#endif
  o[threadIdx.x] = lib(v);
}
EOF
cat >"$P/src/util.cuh" <<'EOF'
__device__ int util(int v) { return v + 1; }
EOF
cat >"$P/inc/lib.h" <<'EOF'
__device__ int lib(int v) { return v; }
EOF
touch "$P/CMakeLists.txt" # the project tree: its headers' findings are reported
settle "$P"
rm -rf "$C"
check() { # description, args...: a cached run prints what --no-cache prints
  d=$1
  shift
  run nc --no-cache "$@"
  run c --cache-stats "$@"
  same_run nc c "$d"
}
check "first run" -I "$P/inc" "$P/src"
check "unchanged" -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 1 ] && ok || fail "an unchanged file was analyzed again"
count_is "$T/c.out" "warning:" 0 "no findings yet"
# an included header edited in place (its directory's time put back: only its
# contents tell)
printf '__device__ int util(int v) { return __shfl_xor(v, 1); }\n' >"$P/src/util.cuh"
settle "$P"
check "edited header" -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 0 ] && ok || fail "an edited header was served from the cache"
count_is "$T/c.out" "warning:.*__shfl_xor" 1 "the edited header's finding"
check "edited header, warm" -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 1 ] && ok || fail "the new result was not stored"
# a header in an -I directory edited in place
printf '__device__ int lib(int v) { return __ballot(v); }\n' >"$P/inc/lib.h"
settle "$P"
check "edited -I header" -I "$P/inc" "$P/src"
count_is "$T/c.out" "warning:.*__ballot" 1 "the -I header's finding"
# other flags
check "-DEXTRA" -DEXTRA -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 0 ] && ok || fail "other flags were served the old result"
count_is "$T/c.out" "warning:.*__shfl_down" 1 "-DEXTRA's finding"
check "-DEXTRA warm" -DEXTRA -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 1 ] && ok || fail "-DEXTRA warm"
check "no -DEXTRA again" -I "$P/inc" "$P/src"
count_is "$T/c.out" "warning:.*__shfl_down" 0 "without -DEXTRA"
# options that change the output: --disable, --cuda-arch
check "--disable" --disable legacy-intrinsic -I "$P/inc" "$P/src"
count_is "$T/c.out" "legacy-intrinsic\]" 0 "--disable"
check "--cuda-arch" --cuda-arch sm_90 -I "$P/inc" "$P/src"
[ "$(hits "$T/c.err")" = 0 ] && ok || fail "--cuda-arch was served another architecture's result"
# a .warplint (severity, then rules; outside a repository it is looked up in
# the file's own directory)
printf '[rules]\nlegacy-intrinsic = error\n' >"$P/src/.warplint"
settle "$P"
check ".warplint severity" -I "$P/inc" "$P/src"
contains "$T/c.out" "error:" ".warplint's severity"
printf '[rules]\nlegacy-intrinsic = off\n' >"$P/src/.warplint"
settle "$P"
check ".warplint rules" -I "$P/inc" "$P/src"
count_is "$T/c.out" "legacy-intrinsic\]" 0 ".warplint's rules"
rm "$P/src/.warplint"
settle "$P"
check "no .warplint" -I "$P/inc" "$P/src"
# a header that appears earlier on the include path shadows the one used
printf '__device__ int lib(int v) { return __any(v); }\n' >"$P/src/lib.h"
check "shadowing header" -I "$P/inc" "$P/src"
count_is "$T/c.out" "warning:.*__any" 1 "the shadowing header is the one analyzed"
rm "$P/src/lib.h"
check "shadowing header removed" -I "$P/inc" "$P/src"
count_is "$T/c.out" "warning:.*__any" 0 "the shadowing header is gone"
# an #include that did not resolve, then does (a header appears in an existing
# subdirectory: only that directory's time tells)
mkdir -p "$P/m/gen"
printf '#include "gen/late.h"\n__global__ void m(int *o) { o[0] = late(o[0]); }\n' >"$P/m/m.cu"
settle "$P"
check "unresolved" "$P/m"
contains "$T/c.err" "analysis incomplete" "the include does not resolve"
check "unresolved, warm" "$P/m"
[ "$(hits "$T/c.err")" = 1 ] && ok || fail "a file with an unresolved include was not cached"
printf '__device__ int late(int v) { return __all(v); }\n' >"$P/m/gen/late.h"
check "resolved now" "$P/m"
[ "$(hits "$T/c.err")" = 0 ] && ok || fail "a header that appeared was not seen"
count_is "$T/c.out" "warning:.*__all" 1 "the header that appeared is analyzed"
# include inference: "lib.h" found in the project tree; a second lib.h makes
# the inference ambiguous (nothing inferred) and the result changes
mkdir -p "$P/q/a"
cp "$P/inc/lib.h" "$P/q/a/lib.h"
printf '#include "lib.h"\n__global__ void q(int *o) { o[0] = lib(o[0]); }\n' >"$P/q/q.cu"
touch "$P/q/CMakeLists.txt"
settle "$P"
check "inferred" "$P/q"
contains "$T/c.out" "__ballot" "the inferred header's finding"
check "inferred, warm" "$P/q"
[ "$(hits "$T/c.err")" = 1 ] && ok || fail "an inferred include was not cached"
mkdir -p "$P/q/b"
cp "$P/inc/lib.h" "$P/q/b/lib.h"
settle "$P"
check "inference now ambiguous" "$P/q"
[ "$(hits "$T/c.err")" = 0 ] && ok || fail "an ambiguous inference was served the old result"

# --- corrupt, truncated or foreign entries are misses ----------------------------
run ref --no-cache --format=json examples
run cold --format=json examples
for how in truncate garbage empty flip; do
  for e in $(find "$C/v1" -type f); do
    case $how in
    truncate) head -c 100 "$e" >"$e.x" && mv "$e.x" "$e" ;;
    garbage) head -c 5000 /dev/urandom >"$e" ;;
    empty) : >"$e" ;;
    flip) # one byte changed in the middle: the checksum no longer matches
      size=$(wc -c <"$e")
      printf 'Z' | dd of="$e" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null ;;
    esac
  done
  run bad --cache-stats --format=json examples
  same_run ref bad "$how entries"
  [ "$(hits "$T/bad.err")" = 0 ] && ok || fail "$how entries were served"
  run again --cache-stats --format=json examples
  same_run ref again "$how entries, stored again"
  [ "$(hits "$T/again.err")" = 3 ] && ok || fail "$how entries were not replaced"
done
# -v parses every file (its notes come from the parse) and says so
run v -v --format=json examples
same_run ref v "-v"
contains "$T/v.err" "0 files from the cache (not read with -v)" "-v does not read the cache"

# --- --no-cache, the location, the bound -----------------------------------------
rm -rf "$C"
run nc --no-cache examples
# (the precompiled headers kept in $C/pch are not results: see pch_test.sh)
[ -e "$C/v1" ] && fail "--no-cache wrote the cache" || ok
rm -rf "$C"
run d --cache-dir "$T/other" examples
[ -n "$(find "$T/other/v1" -type f 2>/dev/null)" ] && ok || fail "--cache-dir not used"
[ -e "$C" ] && fail "--cache-dir: WARPLINT_CACHE_DIR written too" || ok
mkdir -p "$T/home"
(unset WARPLINT_CACHE_DIR XDG_CACHE_HOME; HOME=$T/home "$WL" examples >/dev/null 2>&1)
[ -n "$(find "$T/home/.cache/warplint/v1" -type f 2>/dev/null)" ] && ok || fail "not in ~/.cache/warplint"
(unset WARPLINT_CACHE_DIR; HOME=$T/home XDG_CACHE_HOME=$T/xdg "$WL" examples >/dev/null 2>&1)
[ -n "$(find "$T/xdg/warplint/v1" -type f 2>/dev/null)" ] && ok || fail "not in \$XDG_CACHE_HOME/warplint"
# a .warplint cannot name a cache directory (the analyzed tree is untrusted)
mkdir -p "$T/r"
cp examples/scan/scan.cu "$T/r/"
printf 'cache-dir = %s/evil\n' "$T" >"$T/r/.warplint"
run evil "$T/r"
[ -e "$T/evil" ] && fail "a .warplint moved the cache" || ok
# a file where the directory should be: no cache, a warning, the same output
: >"$T/notadir"
run nd --cache-dir "$T/notadir" examples
run ref --no-cache examples
same_run ref nd "an unusable cache directory"
contains "$T/nd.err" "result cache not used" "an unusable cache directory is said"
# WARPLINT_CACHE_SIZE: a bound of 1 MiB keeps the cache under it
rm -rf "$C"
WARPLINT_CACHE_SIZE=1 "$WL" fixtures examples >/dev/null 2>&1
total=$(find "$C/v1" -type f -exec cat {} + | wc -c)
[ "$total" -gt 0 ] && [ "$total" -le 1048576 ] && ok || fail "a 1 MiB cache holds $total bytes"
WARPLINT_CACHE_SIZE=lots "$WL" examples >"$T/sz.out" 2>"$T/sz.err"
contains "$T/sz.err" "WARPLINT_CACHE_SIZE" "a bad WARPLINT_CACHE_SIZE is said"

# --- two runs at once, with workers, share the cache ------------------------------
rm -rf "$C"
run ref --no-cache --format=json fixtures examples
"$WL" -j2 --format=json fixtures examples >"$T/a.out" 2>/dev/null &
"$WL" -j2 --format=json fixtures examples >"$T/b.out" 2>/dev/null
wait
same "$T/ref.out" "$T/a.out" "concurrent run 1"
same "$T/ref.out" "$T/b.out" "concurrent run 2"
run warm --format=json fixtures examples
same_run ref warm "after concurrent runs"
[ -z "$(find "$C" -name '.tmp-*')" ] && ok || fail "temporary files left in the cache"

finish cache
