#!/bin/sh
# The C and C++ standard headers in the shared precompiled header
# (analyzer/frontend/pch_std.c): a file that includes them properly is parsed
# with them (no second parse), and every file, also one whose meaning they
# would change, gets exactly the JSON of a run without them (--no-std-pch):
# its own declaration clashing with theirs, a name or macro used without its
# header or before it, a macro a header reads defined before it, a header
# included inside a namespace; a tree where most files would be parsed
# twice stops trying after a few; include inference. (Each of those inputs has other parse errors
# when the result of the parse with the standard headers is kept.)
# Usage: std_pch_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
export WARPLINT_CACHE_DIR="$T/cache"
D=$T/src
mkdir -p "$D"
printf '#pragma once\nstatic const int local_value = 1;\n' >"$D/local.h"
KERNEL='__global__ void k(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
  if (t < 32) { s[t] += s[t + 16]; s[t] += s[t + 8]; }
  p[t] = __shfl(s[t], 0);
}'
# a file that includes what it uses: parsed once, with them
{ printf '#include <cstdio>\n#include <vector>\n#include <string>\n#include "local.h"\n'
  echo "$KERNEL"
  printf 'int main() { std::vector<int> v(3); std::string s("x"); printf("%%zu %%s\\n", v.size(), s.c_str()); return local_value; }\n'
} >"$D/proper.cu"
# its own puts, which <stdio.h> declares with another return type (the
# prelude brings <stdlib.h>, <string.h> and <math.h>, as nvcc's headers do,
# but not <stdio.h>)
{ printf '#include "local.h"\nfloat puts(const char *s) { return s ? 1.0f : 0.0f; }\n'
  echo "$KERNEL"
} >"$D/own_atof.cu"
# printf and EXIT_FAILURE without <stdio.h> and <stdlib.h> (the prelude
# brings EXIT_FAILURE, not printf's host declaration)
{ printf '#include "local.h"\n'
  echo "$KERNEL"
  printf 'int main() { printf("x\\n"); return EXIT_FAILURE; }\n'
} >"$D/no_header.cu"
# EOF before the header that defines it
{ printf '#include "local.h"\nstatic const int end_of_file = EOF;\n#include <stdio.h>\n'
  echo "$KERNEL"
} >"$D/before_header.cu"
# a function-like min defined before <algorithm>
{ printf '#define min(a, b) ((a) < (b) ? (a) : (b))\n#include <algorithm>\n'
  echo "$KERNEL"
} >"$D/macro_before.cu"
# a standard header included inside a namespace
{ printf '#include "local.h"\nnamespace mine {\n#include <vector>\n}\n'
  echo "$KERNEL"
} >"$D/in_namespace.cu"

# check_std FILE KEPT [WHY]: the JSON equals --no-std-pch's; the file is
# parsed once (KEPT = kept) or again without the standard headers (WHY: a
# pattern of the reason -v gives)
check_std() {
  f=$1
  "$WL" --no-cache --no-std-pch --format=json "$D/$f.cu" >"$T/$f.off" 2>/dev/null
  "$WL" --no-cache -v --format=json "$D/$f.cu" >"$T/$f.on" 2>"$T/$f.err"
  same "$T/$f.off" "$T/$f.on" "$f.cu: JSON with the standard headers differs from --no-std-pch"
  if [ "$2" = kept ]; then
    lacks "$T/$f.err" "parsed again" "$f.cu: parsed a second time"
  else
    contains "$T/$f.err" "$f.cu: parsed again without the standard headers${3:-}" "$f.cu: not parsed again"
  fi
}
check_std proper kept
for f in own_atof no_header before_header macro_before in_namespace; do
  check_std "$f" again
done
grep -q '"incomplete"' "$T/proper.on" && fail "proper.cu: analysis reported incomplete" || ok

# a guard that defines a standard macro when it is not defined, with the
# value the standard header gives it (kaldi's DBL_EPSILON, M_PI): the same
# unit either way, kept; another value, another type or more in the block:
# parsed again
guard() { # name, then the lines of the guards
  n=$1
  shift
  { printf '#include "local.h"\n'
    for l in "$@"; do printf '%s\n' "$l"; done
    echo "$KERNEL"
    printf '__device__ double eps(float x) { return x * DBL_EPSILON + FLT_EPSILON + M_PI; }\n'
    printf '#include <cfloat>\n#include <cmath>\n'
  } >"$D/$n.cu"
}
guard guard_same '#ifndef DBL_EPSILON' '#define DBL_EPSILON 2.2204460492503131e-16' '#endif' \
  '#if !defined(FLT_EPSILON)' '#define FLT_EPSILON 1.19209290e-7f /* float */' '#endif' \
  '#  ifndef M_PI // pi' '#  define M_PI (3.1415926535897932384626433832795)' '#  endif'
guard guard_value '#ifndef DBL_EPSILON' '#define DBL_EPSILON 1e-16' '#endif' \
  '#ifndef FLT_EPSILON' '#define FLT_EPSILON 1.19209290e-7f' '#endif' '#define M_PI 3.14'
guard guard_type '#ifndef DBL_EPSILON' '#define DBL_EPSILON 2.2204460492503131e-16' '#endif' \
  '#ifndef FLT_EPSILON' '#define FLT_EPSILON 1.19209290e-7' '#endif' '#define M_PI 3.14'
guard guard_more '#ifndef DBL_EPSILON' '#define DBL_EPSILON 2.2204460492503131e-16' \
  '#define FLT_EPSILON 1.19209290e-7f' '#endif' '#define M_PI 3.14'
check_std guard_same kept
for f in guard_value guard_type guard_more; do
  check_std "$f" again '.*EPSILON'
done

# a tree whose files are all parsed again (a common header that uses toupper
# without <ctype.h>, which the prelude does not bring): a worker stops
# trying after its first four tries (the header's own analysis may be one),
# and tries one file again after eight more; the JSON is that of --no-std-pch
mkdir -p "$T/tree"
printf '#pragma once\n#include <stdio.h>\nstatic inline int up(int c) { return toupper(c); }\n' >"$T/tree/common.h"
i=0
while [ "$i" -lt 14 ]; do
  { printf '#include "common.h"\n'; echo "$KERNEL" | sed "s/void k(/void k$i(/"; } >"$T/tree/f$i.cu"
  i=$((i + 1))
done
"$WL" --no-cuda-path --no-cache --no-std-pch -j1 --format=json "$T/tree" >"$T/tree.off" 2>/dev/null
"$WL" --no-cuda-path --no-cache -v -j1 --format=json "$T/tree" >"$T/tree.on" 2>"$T/tree.err"
same "$T/tree.off" "$T/tree.on" "tree: JSON with the standard headers differs from --no-std-pch"
n=$(grep -c "parsed again without the standard headers" "$T/tree.err")
[ "$n" -ge 3 ] && [ "$n" -le 5 ] && ok ||
  fail "tree: $n of 14 files parsed again (expected 3-5: four tries, then one after 8 more)"

# include inference: a first parse whose include did not resolve is thrown
# away for one with the inferred -I, so it is not parsed a second time
# without the standard headers (no note, as the later parses say nothing);
# unless a conditional directive of the file reads a macro only they define
# (which includes do not resolve may then depend on them); and a file whose
# include nothing resolves is parsed as without them in the end
for t in inf1 inf2 inf3; do
  mkdir -p "$T/$t/.git" "$T/$t/inc" "$T/$t/src"
  printf '#pragma once\n#include <stdio.h>\nstatic inline int one(void) { return 1; }\n' >"$T/$t/inc/common.h"
done
{ printf '#include "common.h"\n'; echo "$KERNEL"; printf 'int main() { return one() ? EXIT_FAILURE : 0; }\n'; } >"$T/inf1/src/a.cu"
# (2, not time.h's 1000000: a guard giving the standard value keeps the section)
{ printf '#include "common.h"\n#ifndef CLOCKS_PER_SEC\n#define CLOCKS_PER_SEC 2\n#endif\n'; echo "$KERNEL"
  printf 'int main() { return one() ? CLOCKS_PER_SEC : 0; }\n'; } >"$T/inf2/src/b.cu"
{ printf '#include "nowhere.h"\n'; echo "$KERNEL"; printf 'int main() { return EXIT_FAILURE; }\n'; } >"$T/inf3/src/c.cu"
for t in inf1 inf2 inf3; do
  "$WL" --no-cuda-path --no-cache --no-std-pch -j1 --format=json "$T/$t" >"$T/$t.off" 2>/dev/null
  "$WL" --no-cuda-path --no-cache -v -j1 --format=json "$T/$t" >"$T/$t.on" 2>"$T/$t.err"
  same "$T/$t.off" "$T/$t.on" "$t: JSON with the standard headers differs from --no-std-pch"
done
contains "$T/inf1.err" 'found with the inferred -I' "inf1: the include is inferred"
lacks "$T/inf1.err" "parsed again" "inf1: the first parse, thrown away, was parsed again"
contains "$T/inf2.err" "b.cu: parsed again without the standard headers" "inf2: #ifndef CLOCKS_PER_SEC, not parsed again"
lacks "$T/inf3.err" "parsed again" "inf3: parsed again before inference gave up"

# the store: a precompiled header with the standard headers was built and kept
grep -l '^strict$' "$T"/cache/pch/*/key >/dev/null 2>&1 && ok || fail "no stored precompiled header with the standard headers"

# what its section holds (pch_std.h) is kept beside it, as the companion file
# `std` (pch.h), and read from there by the next runs: the same reasons and
# JSON as when it is computed; one that is damaged, or was computed from
# another build of the entry, is not read but computed and written again
rm -rf "$T/cache"
"$WL" --no-cache -v --format=json "$D/before_header.cu" >"$T/bh1.json" 2>"$T/bh1.err"
e=$(dirname "$(grep -l '^strict$' "$T"/cache/pch/*/key)")
[ -d "$e" ] && [ -s "$e/std" ] && ok || fail "no companion file std beside the stored precompiled header"
reasons() { grep -o 'parsed again without the standard headers.*' "$1"; }
ino=$(ls -i "$e/std" | cut -d' ' -f1)
"$WL" --no-cache -v --format=json "$D/before_header.cu" >"$T/bh2.json" 2>"$T/bh2.err"
same "$T/bh1.json" "$T/bh2.json" "before_header.cu: JSON differs with the kept companion"
[ "$(reasons "$T/bh1.err")" = "$(reasons "$T/bh2.err")" ] && [ -n "$(reasons "$T/bh2.err")" ] && ok ||
  fail "before_header.cu: reasons differ with the kept companion: $(reasons "$T/bh2.err")"
[ "$(ls -i "$e/std" | cut -d' ' -f1)" = "$ino" ] && ok || fail "a current companion file was written again"
for damage in truncate garbage ident; do
  if [ "$damage" = truncate ]; then
    head -c 200 "$e/std" >"$T/std.bad"
  elif [ "$damage" = garbage ]; then
    { head -c 17 "$e/std"; head -c 65536 /dev/urandom; } >"$T/std.bad"
  else
    { printf '0000000000000000\n'; tail -c +18 "$e/std"; } >"$T/std.bad"
  fi
  cp "$T/std.bad" "$e/std"
  "$WL" --no-cache -v --format=json "$D/before_header.cu" >"$T/bh3.json" 2>"$T/bh3.err"
  same "$T/bh1.json" "$T/bh3.json" "before_header.cu: JSON differs with a companion ($damage)"
  [ "$(reasons "$T/bh1.err")" = "$(reasons "$T/bh3.err")" ] && ok ||
    fail "before_header.cu: reasons differ with a companion ($damage)"
  cmp -s "$T/std.bad" "$e/std" && fail "a companion ($damage) was kept" || ok
done
"$WL" --no-cache --format=json "$D/proper.cu" >"$T/proper.again" 2>/dev/null
same "$T/proper.on" "$T/proper.again" "proper.cu: JSON differs with the kept companion"
[ "$(ls -i "$e/std" | cut -d' ' -f1)" != "$ino" ] && ok || fail "the companion was not written again"
# --no-std-pch and --no-pch never build one
rm -rf "$T/cache"
"$WL" --no-cache --no-std-pch --format=json "$D/proper.cu" >/dev/null 2>&1
grep -l '^strict$' "$T"/cache/pch/*/key >/dev/null 2>&1 && fail "--no-std-pch built one with the standard headers" || ok
"$WL" --help | grep -q -- '--no-std-pch' && ok || fail "--help lacks --no-std-pch"

# include inference shares the precompiled headers (pch.h, wl_pch_shadowed):
# a file that needs an inferred -I and one that needs none use the entries
# the second builds alone; an inferred directory that holds a header the
# precompiled header read (glibc's features.h, which <stdio.h> includes)
# gets one of its own, built with it, and the same JSON as without them
entries() { find "$T/cache/pch" -mindepth 1 -maxdepth 1 -type d | wc -l; }
S=$T/share
mkdir -p "$S/.git" "$S/inc/lib" "$S/src"
printf '#pragma once\nstatic inline __device__ int one(void) { return 1; }\n' >"$S/inc/lib/one.cuh"
{ printf '#include <stdio.h>\n#include "lib/one.cuh"\n'; echo "$KERNEL"
  printf '#ifdef WL_FROM_INC\n__global__ void g(int *p) { p[0] = __shfl_down(p[0], one()); }\n#endif\n'
} >"$S/src/a.cu"
{ printf '#include <stdio.h>\n'; echo "$KERNEL" | sed 's/void k(/void k2(/'; } >"$S/src/b.cu"
rm -rf "$T/cache"
"$WL" --no-cuda-path --no-cache -j1 --format=json "$S/src/b.cu" >/dev/null 2>&1
alone=$(entries)
rm -rf "$T/cache"
"$WL" --no-cuda-path --no-cache -v -j1 --format=json "$S" >"$T/share.on" 2>"$T/share.err"
contains "$T/share.err" "found with the inferred -I $S/inc" "share: the include is inferred"
[ "$(entries)" -eq "$alone" ] && ok ||
  fail "share: $(entries) precompiled headers for a file with an inferred -I and one without, $alone for the second alone"
"$WL" --no-cuda-path --no-cache --no-std-pch -j1 --format=json "$S" >"$T/share.off" 2>/dev/null
same "$T/share.off" "$T/share.on" "share: JSON with the shared precompiled header differs from --no-std-pch"
printf '#define WL_FROM_INC 1\n#include_next <features.h>\n' >"$S/inc/features.h"
rm -rf "$T/cache"
"$WL" --no-cuda-path --no-cache -j1 --format=json "$S" >"$T/shadow.on" 2>/dev/null
[ "$(entries)" -gt "$alone" ] && ok ||
  fail "shadow: an inferred directory with features.h reused the precompiled header built without it"
"$WL" --no-cuda-path --no-cache --no-std-pch -j1 --format=json "$S" >"$T/shadow.off" 2>/dev/null
same "$T/shadow.off" "$T/shadow.on" "shadow: JSON differs from --no-std-pch"
grep -q '__shfl_down' "$T/shadow.on" && ok || fail "shadow: the kernel that features.h enables was not analyzed"
finish std_pch
