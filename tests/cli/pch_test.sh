#!/bin/sh
# The precompiled headers kept across runs (the cache directory's pch/,
# analyzer/frontend/pch.c): a second run takes the stored file instead of
# building it again (also with --no-cache, which is about results), and its
# findings are those of a run without precompiled headers; an entry whose key,
# listed files or directories changed is never used but built again; the
# store keeps at most 32 entries; --no-pch neither reads nor writes it; a
# store that cannot be made leaves the findings unchanged.
# Usage: pch_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
C=$T/cache
export WARPLINT_CACHE_DIR="$C"
FILES="fixtures/legacy-intrinsic/shuffles_and_votes.cu examples/scan/scan.cu"
for f in $FILES; do [ -f "$f" ] || { echo "pch tests: $f missing"; exit 1; }; done

entries() { find "$C/pch" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp' 2>/dev/null | wc -l; }
# the stored file of the only entry: its inode (the same inode: not built again)
stored() { stat -c %i "$(find "$C/pch" -name pch -type f | head -1)" 2>/dev/null; }

"$WL" --no-pch --no-cache --format=json $FILES >"$T/ref.json" 2>/dev/null
"$WL" --no-cache --format=json $FILES >"$T/one.json" 2>/dev/null
same "$T/ref.json" "$T/one.json" "first run (built) differs from --no-pch"
[ "$(entries)" -eq 1 ] && ok || fail "one entry expected in $C/pch, found $(entries)"
for part in key deps pch; do
  [ -f "$(find "$C/pch" -mindepth 1 -maxdepth 1 -type d | head -1)/$part" ] && ok || fail "entry without $part"
done
first=$(stored)
"$WL" --no-cache --format=json $FILES >"$T/two.json" 2>/dev/null
same "$T/ref.json" "$T/two.json" "second run (stored file) differs from --no-pch"
[ "$(stored)" = "$first" ] && ok || fail "the second run built the precompiled header again"
[ "$(entries)" -eq 1 ] && ok || fail "the second run added an entry"

# a changed key (another build of the prelude, another libclang): built again
E=$(find "$C/pch" -mindepth 1 -maxdepth 1 -type d | head -1)
printf 'something else\n' >"$E/key"
"$WL" --no-cache --format=json $FILES >"$T/three.json" 2>/dev/null
same "$T/ref.json" "$T/three.json" "after a changed key"
[ "$(stored)" != "$first" ] && ok || fail "an entry with another key was used"
grep -q '^-x$' "$E/key" && ok || fail "the entry was not replaced"

# a file the entry read whose bytes (same size and time, but another status
# change time, as a write that kept the time gives) or time changed, a
# directory whose time changed: never used, built again; an unchanged file
# (a copy too: another change time, the same bytes) keeps it
printf 'int x;\n' >"$T/h.h"
# depline FILE HASH_DELTA TIME_DELTA CTIME_DELTA: the entry's line for FILE
# ("hash size mtime_s mtime_ns ctime_s ctime_ns dev ino path"), hash or
# times altered
depline() {
  python3 -c 'import os, sys
p, dh, dt, dc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
h = 14695981039346656037
for b in open(p, "rb").read():
    h = ((h ^ b) * 1099511628211) % (1 << 64)
st = os.stat(p)
print("%016x %d %d %d %d %d %d %d %s" % ((h + dh) % (1 << 64), st.st_size, st.st_mtime_ns // 10**9 + dt,
      st.st_mtime_ns % 10**9, st.st_ctime_ns // 10**9 + dc, st.st_ctime_ns % 10**9, st.st_dev, st.st_ino, p))' "$@"
}
for how in bytes time dir same copy; do
  second=$(stored)
  case $how in
  bytes) depline "$T/h.h" 1 0 -10 >>"$E/deps" ;;
  time) depline "$T/h.h" 0 -10 0 >>"$E/deps" ;;
  dir) printf 'D 1 0 %s\n' "$T" >>"$E/deps" ;;
  same) depline "$T/h.h" 0 0 0 >>"$E/deps" ;;
  copy) depline "$T/h.h" 0 0 -10 >>"$E/deps" ;;
  esac
  "$WL" --no-cache --format=json $FILES >"$T/four.json" 2>/dev/null
  same "$T/ref.json" "$T/four.json" "after a changed $how"
  if [ $how = same ] || [ $how = copy ]; then # the check itself: an unchanged listed file is fine
    [ "$(stored)" = "$second" ] && ok || fail "an entry whose listed file is unchanged ($how) was built again"
  else
    [ "$(stored)" != "$second" ] && ok || fail "an entry whose listed file or directory changed ($how) was used"
  fi
done

# the bound: 34 argument lists, at most 32 entries
i=1
while [ "$i" -le 34 ]; do "$WL" --no-cache -q $FILES -- -DWL_PCH_TEST=$i >/dev/null 2>&1; i=$((i + 1)); done
[ "$(entries)" -le 32 ] && ok || fail "the store keeps $(entries) entries (at most 32)"
[ "$(entries)" -ge 30 ] && ok || fail "the store keeps only $(entries) entries of 34 runs"
[ -z "$(find "$C/pch" -name '*.tmp')" ] && ok || fail "temporary entries left in the store"

# the headers that define macros, with their system flags, are kept beside
# an entry its builder made (companion "sys", first line the build's
# ident): a header met only as the spelling of a macro's body in another
# macro (stderr in CHECK) is not looked up among all the source locations of
# the precompiled header; the findings are those without the list
rm -rf "$C"
mkdir -p "$T/sys"
printf '#include <stdio.h>\n#define CHECK(x) do { if (!(x)) fprintf(stderr, "bad %%d\\n", EOF); } while (0)\n' >"$T/sys/chk.h"
cat >"$T/sys/k.cu" <<'CU'
#include <stdio.h>
#include "chk.h"
__global__ void k(int *o) {
  __shared__ int s[64];
  int lane = threadIdx.x & 31;
  CHECK(o != NULL);
  s[lane] = o[lane];
  o[lane] = s[lane ^ 1] + __shfl(lane, 0);
}
CU
"$WL" --no-cache --format=json "$T/sys/k.cu" >"$T/sys1.json" 2>/dev/null
SYS=$(find "$C/pch" -name sys -type f | head -1)
[ -n "$SYS" ] && ok || fail "no entry keeps the list of macro headers (sys)"
grep -q '^S .*/stdio\.h$' "$SYS" 2>/dev/null && ok || fail "the list does not name stdio.h a system header"
head -1 "$SYS" 2>/dev/null | grep -q '^[0-9a-f]\{16\}$' && ok || fail "the list does not start with its build's ident"
rm -f "$SYS"
"$WL" --no-cache --format=json "$T/sys/k.cu" >"$T/sys2.json" 2>/dev/null
same "$T/sys1.json" "$T/sys2.json" "the findings with and without the list of macro headers"
grep -q '"missing-syncwarp"' "$T/sys1.json" && ok || fail "the race of k is not reported"

# --no-pch: the store is neither read nor written
rm -rf "$C"
"$WL" --no-pch --no-cache -q $FILES >/dev/null 2>&1
[ -e "$C/pch" ] && fail "--no-pch wrote the store" || ok
# a store that cannot be made (the cache directory is a file): same findings
rm -rf "$C"
printf 'x' >"$C"
"$WL" --no-cache --format=json $FILES >"$T/six.json" 2>/dev/null
same "$T/ref.json" "$T/six.json" "without a usable store"
finish "pch tests"
