#!/bin/sh
# The project view (README "Headers, include inference and incomplete
# analysis") on the fixture tree tests/project: findings in headers included
# by several files, once; a race whose accesses are in a .cu file and in a
# header; a macro expanded five times, reported at its definition; a
# suppression and --fix at the definition; a header no file analyzed
# includes, with its includer's flags from the database; include inference;
# the "analysis incomplete" line, --strict, JSON and SARIF; --header-filter.
# Usage: project_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

P="$T/proj"
cp -R "$SRC/tests/project" "$P"
mkdir "$P/.git" # a checkout: --fix may write anywhere in it (headers included)
sed -i "s#@PROJECT_DIR@#$P#g" "$P/build/compile_commands.json"
cd "$P" || exit 1
strip() { grep -E '^[^ ].*: (warning|error|note):' "$1" | grep -v ': note: ' | sort; }

# --- the three ways of running agree -----------------------------------------
expect_exit 1 -- "$WL" -p build
cp "$T/out" "$T/p.txt"
lacks "$T/err" "analysis incomplete" "-p: complete, no summary line"
expect_exit 1 -- "$WL" -I include -I lib src
cp "$T/out" "$T/i.txt"
lacks "$T/err" "analysis incomplete" "-I: complete, no summary line"
expect_exit 1 -- "$WL" -v src
cp "$T/out" "$T/plain.txt"
cp "$T/err" "$T/plain.err"
lacks "$T/plain.err" "analysis incomplete" "inference: complete, no summary line"
strip "$T/p.txt" >"$T/p.s"
strip "$T/i.txt" >"$T/i.s"
strip "$T/plain.txt" >"$T/plain.s"
same "$T/i.s" "$T/plain.s" "src with inferred includes differs from -I include -I lib src"
# -p also analyzes src/c.cu with -DUSE_VOTE: one more finding, in include/unused.cuh
grep -v 'unused.cuh' "$T/p.s" >"$T/p-no-vote.s"
same "$T/i.s" "$T/p-no-vote.s" "-p differs from -I (beyond -DUSE_VOTE)"
contains "$T/p.txt" "^include/unused.cuh:4:.*__ballot" "-p: -DUSE_VOTE of src/c.cu reaches its header"

# a database kept outside the tree: the headers of its files' project are reported
mkdir "$T/elsewhere"
cp build/compile_commands.json "$T/elsewhere/"
expect_exit 1 -- "$WL" -p "$T/elsewhere"
strip "$T/out" >"$T/else.s"
same "$T/p.s" "$T/else.s" "-p with the database outside the tree differs"

# --- headers: reported once, however many files include them ----------------
count_is "$T/p.txt" "^include/reduce.cuh:6:12: warning" 1 "a.cu and b.cu include reduce.cuh: once"
count_is "$T/p.txt" "^src/.*__shfl_down" 0 "the macro is not reported at its expansions"
# the macro: at its definition, the first three expansions, then a count
contains "$T/p.txt" "^src/a.cu:7:3: note: expanded from macro 'WARP_SUM' here" "expansion note 1"
contains "$T/p.txt" "^src/a.cu:8:3: note: expanded from macro 'WARP_SUM' here" "expansion note 2"
contains "$T/p.txt" "^src/b.cu:6:3: note: expanded from macro 'WARP_SUM' here" "expansion note 3"
contains "$T/p.txt" "note: and 2 more expansions of macro 'WARP_SUM'" "the other expansions counted"
count_is "$T/p.txt" "expanded from macro 'WARP_SUM'" 3 "three expansion notes"
# a suppression comment at the definition silences every expansion
lacks "$T/p.txt" "__shfl_xor" "suppressed at WARP_MAX's definition"
# the race: the store in src/a.cu, the read in the header's warp_tail
contains "$T/p.txt" "^include/reduce.cuh:15:13: warning: shared-memory race.*\[missing-syncwarp\]" \
  "race across files"
contains "$T/p.txt" "^src/a.cu:11:5: note: the other access" "the other access is in a.cu"
contains "$T/p.txt" "^src/a.cu:13:5: note: reached through this call in 'sum_a'" "the call in a.cu"
# headers found in the walk are analyzed with the files that include them
expect_exit 1 -- "$WL" -v .
contains "$T/err" "include/reduce.cuh: analyzed with the files that include it" "-v: header with includers"
strip "$T/out" | sed 's#^\./##' >"$T/dot.s"
same "$T/i.s" "$T/dot.s" "warplint . differs from -I include -I lib src"

# --- include inference ---------------------------------------------------------
contains "$T/plain.err" "src/b.cu: #include \"deep/bcast.cuh\" found with the inferred -I $P/lib" \
  "-v lists the inferred directory"
contains "$T/plain.txt" "^lib/deep/bcast.cuh:3:.*__shfl'" "the inferred header's finding"
expect_exit 0 -- "$WL" --no-infer-includes src
lacks "$T/out" "bcast.cuh" "--no-infer-includes: the header is not found"
contains "$T/err" "^warplint: analysis incomplete in 3 of 3 files (4 unresolved #includes, " \
  "--no-infer-includes: the summary line"
printf 'infer-includes = false\n' >"$P/.warplint"
expect_exit 0 -- "$WL" src
lacks "$T/out" "bcast.cuh" "infer-includes = false: the header is not found"
contains "$T/err" "analysis incomplete in 3 of 3 files" "infer-includes = false: the summary line"
rm "$P/.warplint"

# --- a header no file analyzed includes ----------------------------------------
# with the database, analyzed with the flags of src/c.cu (which includes it)
expect_exit 1 -- "$WL" -v -p build include/unused.cuh
contains "$T/out" "^include/unused.cuh:4:.*__ballot" "the includer's -DUSE_VOTE applies"
contains "$T/err" "include/unused.cuh: not included by the files analyzed; the flags of src/c.cu" \
  "-v names the includer"
# without it, default flags: the code behind #ifdef USE_VOTE is inactive
expect_exit 0 -- "$WL" include/unused.cuh

# --- -p without paths: a header that no file of the database includes ------------
# (included only under #if 0, as cudpp's radixsort_kernel.cuh): analyzed on its
# own as with `warplint -I include -I lib src`, with the flags of the nearest
# file of the database (its -I include resolves <reduce.cuh>); a .cu the
# database does not list is not built, so not analyzed
mkdir "$P/src/kernels"
printf '#include <reduce.cuh>\n__device__ float dead_sum(float v) { return v + __shfl_down(v, 1); }\n' \
  >"$P/src/kernels/dead.cuh"
printf '__global__ void notbuilt(int *o) { o[0] = __ballot(o[1]); }\n' >"$P/src/kernels/notbuilt.cu"
expect_exit 1 -- "$WL" -v --no-infer-includes -p build
contains "$T/out" "^src/kernels/dead.cuh:2:.*__shfl_down" "-p: the header no database file includes"
lacks "$T/out" "notbuilt" "-p: a .cu not in the database is not analyzed"
lacks "$T/err" "analysis incomplete" "-p: the header has the nearest file's -I"
contains "$T/err" "src/kernels/dead.cuh: not included by the files analyzed; the flags of src/a.cu (the nearest file of the compilation database: none includes it)" \
  "-v names the nearest file whose flags the header gets"
strip "$T/out" | grep -v 'unused.cuh' >"$T/p-dead.s"
rm "$P/src/kernels/notbuilt.cu"
expect_exit 1 -- "$WL" -I include -I lib src
strip "$T/out" >"$T/i-dead.s"
same "$T/i-dead.s" "$T/p-dead.s" "-p and -I differ with a header no file includes"
rm -r "$P/src/kernels"

# --- the summary line, --strict, JSON and SARIF -----------------------------------
printf '#include "nowhere/missing.h"\n__global__ void k(float *o) { o[0] = __shfl(o[1], 0); }\n' \
  >"$P/src/broken.cu"
expect_exit 1 -- "$WL" -p build src/broken.cu
count_is "$T/err" "^warplint: analysis incomplete in 1 of 1 file (1 unresolved #include, 0 parse errors): findings may be missing; -v lists them, -I DIR or -p BUILD-DIR supplies the include directories$" 1 \
  "one summary line for the incomplete file"
expect_exit 2 -- "$WL" --strict -p build src/broken.cu
expect_exit 1 -- "$WL" --strict -p build src/a.cu
lacks "$T/err" "analysis incomplete" "--strict and complete: no summary line"
expect_exit 1 -- "$WL" --format=json src/broken.cu src/a.cu
contains "$T/out" '"files_incomplete": 1' "JSON summary.files_incomplete"
contains "$T/out" '"incomplete": \[' "JSON incomplete array"
contains "$T/err" "analysis incomplete in 1 of 2 files" "the summary line with --format=json"
expect_exit 1 -- "$WL" --format=sarif src/broken.cu
python3 - "$T/out" <<'EOF' || fail "SARIF: no warning notification for src/broken.cu"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
notes = run["invocations"][0]["toolExecutionNotifications"]
assert any(n["level"] == "warning" and "analysis incomplete" in n["message"]["text"] and
           "broken.cu" in json.dumps(n.get("locations", [])) for n in notes), notes
EOF
expect_exit 1 -- "$WL" --format=json src/a.cu
lacks "$T/out" '"incomplete"' "JSON of a complete run has no incomplete key"
rm "$P/src/broken.cu"

# --- --header-filter ------------------------------------------------------------
expect_exit 1 -- "$WL" --header-filter='^$' -p build
lacks "$T/out" "^include/" "--header-filter='^\$': no header findings"
expect_exit 1 -- "$WL" --header-filter='/lib/' -p build
lacks "$T/out" "^include/" "--header-filter=/lib/: not include/"
contains "$T/out" "^lib/deep/bcast.cuh:3:" "--header-filter=/lib/: lib/"
expect_exit 2 -- "$WL" --header-filter='(' src
contains "$T/err" "invalid regular expression" "a bad --header-filter is a usage error"

# --- --fix edits the macro's definition ------------------------------------------
# what is left after --fix: the race with a.cu's store, which no edit of the
# header alone can order (the barrier belongs in a.cu, between the store and the call)
expect_exit 1 -- "$WL" --fix -I include -I lib src
contains "$T/err" "1 finding in 3 files analyzed" "--fix: the cross-file race is left"
contains "$P/include/reduce.cuh" "(v) += __shfl_down_sync(0xffffffff, (v), o_)" "--fix: at the definition"
contains "$P/lib/deep/bcast.cuh" "__shfl_sync(0xffffffff, v, 0)" "--fix: the inferred header"
expect_exit 1 -- "$WL" -I include -I lib src
lacks "$T/out" "legacy-intrinsic" "after --fix no legacy intrinsic is left"

# --- -p's header search stays in the tree the database's files are in -----------
# A database with a file below the tree's top (spelled /tree/./sub/b.cu, as
# `find .` writes it) that sorts before one at the top (llm.c's dev/ and
# train_gpt2.cu): the headers searched are
# the tree's, never its parent directory's (a sibling checkout's legacy
# header is not reported).
Q="$T/search/tree"
mkdir -p "$Q/.git" "$Q/sub" "$T/search/sibling"
printf '__global__ void z(int *o) { o[0] = 1; }\n' >"$Q/z.cu"
printf '__global__ void b(int *o) { o[0] = 2; }\n' >"$Q/sub/b.cu"
printf '__device__ int mine(int v) { return __shfl(v, 0); }\n' >"$Q/sub/mine.cuh"
printf '__device__ int theirs(int v) { return __shfl(v, 0); }\n' >"$T/search/sibling/theirs.cuh"
printf '[{"directory": "%s", "file": "%s/./sub/b.cu", "arguments": ["nvcc", "-c", "sub/b.cu"]},\n {"directory": "%s", "file": "%s/z.cu", "arguments": ["nvcc", "-c", "z.cu"]}]\n' \
  "$Q" "$Q" "$Q" "$Q" >"$Q/compile_commands.json"
expect_exit 1 -- "$WL" -p "$Q"
contains "$T/out" "sub/mine.cuh:1:.*__shfl" "-p: a header of the tree no file includes"
lacks "$T/out" "theirs.cuh" "-p: the header search does not leave the tree"

# --- inference: <...> includes, and a subdirectory with its own build file -----
# (moderngpu: tests/CMakeLists.txt beside the top one, tests/*.cu include
# <moderngpu/kernel_scan.hxx> from src/): the project tree is the top of the
# chain of build files, and a <...> include of the project's is inferred too
M="$T/angle"
mkdir -p "$M/src/mylib" "$M/tests"
touch "$M/CMakeLists.txt" "$M/tests/CMakeLists.txt"
printf '#pragma once\n__device__ int bcast(int v) { return __shfl(v, 0); }\n' >"$M/src/mylib/bcast.cuh"
printf '#include <mylib/bcast.cuh>\n__global__ void t(int *o) { o[0] = bcast(o[1]); }\n' >"$M/tests/t.cu"
expect_exit 1 -- sh -c "cd '$M' && '$WL' -v tests"
contains "$T/out" "^src/mylib/bcast.cuh:2:.*__shfl" "<...> include inferred from the top of the build-file chain"
contains "$T/err" "tests/t.cu: #include <mylib/bcast.cuh> found with the inferred -I $M/src" "-v lists the inferred <...> include as spelled"
lacks "$T/err" "analysis incomplete" "<...> include inferred: complete"
expect_exit 0 -- sh -c "cd '$M' && '$WL' --no-infer-includes tests"
contains "$T/err" "analysis incomplete in 1 of 1 file (1 unresolved #include" "--no-infer-includes: <...> stays unresolved"
# an ambiguous <...> include: -v names it as spelled, nothing inferred
mkdir -p "$M/src/a/dup" "$M/src/b/dup"
touch "$M/src/a/dup/two.cuh" "$M/src/b/dup/two.cuh"
printf '#include <dup/two.cuh>\n__global__ void u(int *o) { o[0] = 1; }\n' >"$M/tests/u.cu"
expect_exit 0 -- sh -c "cd '$M' && '$WL' -v tests/u.cu"
contains "$T/err" "tests/u.cu: #include <dup/two.cuh>: several files of .* match; nothing inferred" "-v names an ambiguous <...> include as spelled"
rm "$M/tests/u.cu"
# a .git (or .warplint) stops the climb: the parent's headers are not searched
mkdir -p "$M/tests/.git"
expect_exit 0 -- sh -c "cd '$M' && '$WL' tests"
contains "$T/err" "analysis incomplete in 1 of 1 file" "a checkout below: its own tree only"

# --- inference: the checkout, past a gap in the chain of build files ------------
# (ggml without src/CMakeLists.txt: src/ggml-cuda has its own, and "ggml.h"
# is in include/ at the top of the checkout): the chain of build files stops
# at src/cuda, and the checkout above it is searched last
G="$T/gap"
mkdir -p "$G/.git" "$G/include" "$G/src/cuda"
touch "$G/src/cuda/CMakeLists.txt"
printf '#pragma once\n__device__ int top(int v) { return __shfl(v, 0); }\n' >"$G/include/top.h"
printf '#include "top.h"\n__global__ void g(int *o) { o[0] = top(o[1]); }\n' >"$G/src/cuda/g.cu"
expect_exit 1 -- sh -c "cd '$G' && '$WL' -v src/cuda"
contains "$T/out" "^include/top.h:2:.*__shfl" "the checkout is searched past a gap in the chain of build files"
contains "$T/err" "src/cuda/g.cu: #include \"top.h\" found with the inferred -I $G/include" "-v: the include inferred from the checkout"

# --- inference: the directory analyzed holds the project tree -------------------
# (a checkout of part of kaldi: src/cudamatrix/Makefile is the only build file,
# and cu-kernels.cu includes "cudamatrix/cu-common.h", which resolves from src):
# when the tree has no match, the directory analyzed is searched too
K="$T/part"
mkdir -p "$K/src/cudamatrix"
printf 'all:\n' >"$K/src/cudamatrix/Makefile"
printf '#pragma once\n__device__ int bc(int v) { return __shfl(v, 0); }\n' >"$K/src/cudamatrix/common.cuh"
printf '#include "cudamatrix/common.cuh"\n__global__ void k(int *o) { o[0] = bc(o[1]); }\n' >"$K/src/cudamatrix/k.cu"
expect_exit 1 -- sh -c "cd '$K' && '$WL' -v src"
contains "$T/err" "found with the inferred -I $K/src\$" "the directory analyzed is searched when the tree has no match"
lacks "$T/err" "analysis incomplete" "partial checkout: complete"
count_is "$T/out" "warning:" 1 "partial checkout: the header's finding once"
expect_exit 0 -- sh -c "cd '$K/src/cudamatrix' && '$WL' k.cu"
contains "$T/err" "analysis incomplete in 1 of 1 file" "the tree alone (the directory analyzed is in it): unresolved"

finish "project tests"
