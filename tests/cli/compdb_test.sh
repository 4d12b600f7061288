#!/bin/sh
# compile_commands.json (-p): the sample CMake project tests/cmake-project,
# whose databases are what CMake writes for it with nvcc (build/: Ninja,
# flags inline; build-make/: Makefiles, include paths in --options-file), gives
# the same findings through -p as file by file with the same flags; plus
# database variants and errors.
# Usage: compdb_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

# The project with "@PROJECT_DIR@" made real, as CMake would have written it here.
P="$T/proj"
cp -R "$SRC/tests/cmake-project" "$P"
find "$P" \( -name compile_commands.json -o -name '*.rsp' \) -exec sed -i "s#@PROJECT_DIR@#$P#g" {} +
cd "$P" || exit 1

# --- -p: every CUDA file of the database, with its flags -----------------------
expect_exit 1 -- "$WL" -p build
cp "$T/out" "$T/p.txt"
# a macro of include/ (the project's own header) is reported at its definition
contains "$T/p.txt" "^include/warp_helpers.cuh:8:.*__shfl_down" "-I include: a macro of include/ expands"
contains "$T/p.txt" "^src/reduce.cu:7:3: note: expanded from macro 'WARP_REDUCE_SUM'" "the expansion is a note"
contains "$T/p.txt" "^src/reduce.cu:8:.*__shfl'" "-isystem: a macro of the vendor header expands"
contains "$T/p.txt" "^src/reduce.cu:16:.*__any" "-DWARP_SAMPLE_VERSION=2 of the first entry"
contains "$T/p.txt" "^src/scan.cu:8:.*__shfl_up" "-DFOO reaches the parser"
contains "$T/p.txt" "^src/vote.cu:7:.*__ballot" "--generate-code compute_86: __CUDA_ARCH__ 860"
lacks "$T/p.txt" "host.cpp" "a C++ file of the database is not analyzed"
count_is "$T/p.txt" "^src/reduce.cu:16:[0-9]*: warning" 1 "a file listed twice is analyzed once"

# the same findings file by file, with the flags by hand
{
  "$WL" -D FOO -D WARP_SAMPLE_VERSION=2 -I "$P/include" src/reduce.cu -- -isystem "$P/third_party/vendor" -std=c++17
  "$WL" -D FOO -D WARP_SAMPLE_VERSION=2 -I "$P/include" src/scan.cu -- -isystem "$P/third_party/vendor" -std=c++17
  "$WL" --cuda-arch sm_86 -I "$P/include" src/vote.cu
} >"$T/f.txt" 2>/dev/null
same "$T/p.txt" "$T/f.txt" "-p and file by file with the same flags differ"

# without the database the flags are missing: fewer findings
"$WL" src >"$T/plain.txt" 2>/dev/null
lacks "$T/plain.txt" "^src/scan.cu:8:" "without -p, no -DFOO"
lacks "$T/plain.txt" "^src/vote.cu:7:" "without -p, sm_75"

# the Makefile generator's form (--options-file includes_CUDA.rsp) gives the same
expect_exit 1 -- "$WL" -p build-make
same "$T/p.txt" "$T/out" "-p build-make (--options-file) differs from -p build"
# the JSON file itself, under any name; -p=DIR; --compile-commands
expect_exit 1 -- "$WL" -p build/compile_commands.json
same "$T/p.txt" "$T/out" "-p FILE"
cp build/compile_commands.json "$T/other-name.json"
expect_exit 1 -- "$WL" -p "$T/other-name.json"
same "$T/p.txt" "$T/out" "-p with a file of another name"
expect_exit 1 -- "$WL" -p=build
same "$T/p.txt" "$T/out" "-p=DIR"
expect_exit 1 -- "$WL" --compile-commands build
same "$T/p.txt" "$T/out" "--compile-commands DIR"
# -j does not change the output
expect_exit 1 -- "$WL" -j1 -p build
same "$T/p.txt" "$T/out" "-j1 -p"
expect_exit 1 -- "$WL" -j3 -p build
same "$T/p.txt" "$T/out" "-j3 -p"

# --- -p with paths: the database's flags for those files --------------------------
expect_exit 1 -- "$WL" -p build src/scan.cu
contains "$T/out" "^src/scan.cu:8:" "a named file gets its database flags"
lacks "$T/out" "reduce.cu" "only the named file"
expect_exit 1 -- "$WL" -p build src
same "$T/p.txt" "$T/out" "-p with a directory"
# a header that is not in the database: the flags of a file that includes it
expect_exit 0 -- "$WL" --verbose -p build include/warp_helpers.cuh
contains "$T/err" "warp_helpers.cuh: not included by the files analyzed; the flags of src/reduce.cu" \
  "--verbose names the includer whose flags a header gets"
# a file that is not in the database and that no file includes: default flags
printf '__global__ void k(int *o) { o[0] = 1; }\n' >"$T/alone.cu"
expect_exit 0 -- "$WL" --verbose -p build "$T/alone.cu"
contains "$T/err" "alone.cu: not in the compilation database" "--verbose names files without an entry"
expect_exit 0 -- "$WL" -p build src/host.cpp  # named explicitly: analyzed, but it has no CUDA code

# from another directory: paths relative to it (absolute outside it), the same findings
(cd "$T" && "$WL" -p "$P/build") >"$T/up.txt" 2>/dev/null
sed "s#^proj/##" "$T/up.txt" >"$T/up-rel.txt"
same "$T/p.txt" "$T/up-rel.txt" "run from the parent directory"
mkdir -p "$T/elsewhere"
(cd "$T/elsewhere" && "$WL" -p "$P/build") >"$T/abs.txt" 2>/dev/null
sed "s#^$P/##" "$T/abs.txt" >"$T/abs-rel.txt"
same "$T/p.txt" "$T/abs-rel.txt" "run from a directory outside the project: absolute paths"

# --verbose: duplicates and dropped flags
expect_exit 1 -- "$WL" --verbose -p build
contains "$T/err" "1 entry for files listed earlier ignored" "--verbose notes duplicates"
lacks "$T/err" "unknown flag" "every flag CMake writes is understood"

# --- database variants ------------------------------------------------------------
mkdir -p "$T/v"
cat >"$T/v/compile_commands.json" <<EOF
[
 {"directory": "../proj", "command": "nvcc -DFOO -Iinclude --bogus-flag -c src/scan.cu", "file": "src/scan.cu"},
 {"directory": "$P", "arguments": ["nvcc", "-c", "src/missing.cu"], "file": "src/missing.cu"}
]
EOF
expect_exit 2 -- "$WL" -p "$T/v"
contains "$T/out" "scan.cu:8:" "relative \"directory\" (relative to the database) and relative -I"
contains "$T/err" "missing.cu: cannot access (listed in the compilation database)" "missing file named"
lacks "$T/err" "bogus" "unknown flags are silent without --verbose"
expect_exit 2 -- "$WL" --verbose -p "$T/v"
contains "$T/err" "unknown flag '--bogus-flag' dropped" "--verbose notes unknown flags"

# --- bad databases: exit 2, a clear message -------------------------------------
expect_exit 2 -- "$WL" -p "$T/nowhere"
contains "$T/err" "nowhere: cannot access" "missing -p"
mkdir -p "$T/empty"
expect_exit 2 -- "$WL" -p "$T/empty"
contains "$T/err" "no compile_commands.json" "-p without a database"
printf '[{"directory": "/x", "file": ' >"$T/empty/compile_commands.json"
expect_exit 2 -- "$WL" -p "$T/empty"
contains "$T/err" "compile_commands.json: not valid JSON" "invalid JSON"
printf '[{"directory": "/x", "command": "nvcc -c a.cu"}]' >"$T/empty/compile_commands.json"
expect_exit 2 -- "$WL" -p "$T/empty"
contains "$T/err" "entry 1 has no \"file\"" "entry without file"
lacks "$T/err" "LIBCLANG" "libclang's own complaint stays out"
printf '[]' >"$T/empty/compile_commands.json"
expect_exit 0 -- "$WL" -p "$T/empty"
contains "$T/err" "no CUDA files in the compilation database" "empty database"
expect_exit 2 -- "$WL" -p
contains "$T/err" "-p needs" "-p without a value"

finish "compdb tests"
