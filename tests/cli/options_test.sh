#!/bin/sh
# Argument parsing (getopt_long): --opt=v and --opt v, unambiguous prefixes,
# ambiguous and unknown options, values given to flags, missing values,
# options after paths, and -- passing the rest to clang.
# Usage: options_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
BAD=fixtures/legacy-intrinsic/shuffles_and_votes.cu

# --opt=v, --opt v and a unique prefix give the same output
"$WL" --format=json "$BAD" >"$T/eq.json" 2>/dev/null
"$WL" --format json "$BAD" >"$T/sp.json" 2>/dev/null
"$WL" --form=json "$BAD" >"$T/ab.json" 2>/dev/null
"$WL" "$BAD" --format json >"$T/after.json" 2>/dev/null
contains "$T/eq.json" '"rule": "legacy-intrinsic"' "--format=json gives JSON"
same "$T/eq.json" "$T/sp.json" "--format json differs from --format=json"
same "$T/eq.json" "$T/ab.json" "--form=json (a prefix) differs from --format=json"
same "$T/eq.json" "$T/after.json" "an option after the path differs"
# --colour and --color are one option: their common prefix is not ambiguous
expect_exit 1 -- "$WL" --col=never "$BAD"
expect_exit 1 -- "$WL" --colour never "$BAD"
# ambiguous prefixes name the candidates
expect_exit 2 -- "$WL" --ex "$BAD"
contains "$T/err" "'--ex' is ambiguous" "ambiguous prefix reported"
contains "$T/err" "--exit-zero" "ambiguous prefix names the candidates"
# unknown options, long and short, and a value given to a flag
expect_exit 2 -- "$WL" --no-such-option "$BAD"
contains "$T/err" "unknown option '--no-such-option'" "unknown long option"
expect_exit 2 -- "$WL" -vx "$BAD"
contains "$T/err" "unknown option '-x'" "unknown short option in a cluster"
expect_exit 2 -- "$WL" --fix=yes "$BAD"
contains "$T/err" "'--fix' takes no value" "value given to a flag"
# missing values keep their messages
expect_exit 2 -- "$WL" "$BAD" --format
contains "$T/err" "--format must be text, json, sarif, github, gitlab or junit" "--format without a value"
expect_exit 2 -- "$WL" "$BAD" -j
contains "$T/err" "-j needs a number" "-j without a value"
expect_exit 2 -- "$WL" "$BAD" -I
contains "$T/err" "-I needs an argument" "-I without a value"
expect_exit 2 -- "$WL" --export-fixes= "$BAD"
contains "$T/err" "--export-fixes needs a file" "empty value"
# short options: -jN, -j N, -vj1, -I DIR and -IDIR
expect_exit 1 -- "$WL" -j1 "$BAD"
expect_exit 1 -- "$WL" -j 1 "$BAD"
expect_exit 1 -- "$WL" -vj1 "$BAD"
expect_exit 2 -- "$WL" -j 0 "$BAD"
# -- passes the rest to clang, even options that look like warplint's
printf '#ifdef LEGACY\n__global__ void k(float *o) { o[0] = __shfl(o[0], 0); }\n#endif\n' >"$T/def.cu"
expect_exit 0 -- "$WL" "$T/def.cu"
expect_exit 1 -- "$WL" "$T/def.cu" -- -DLEGACY
expect_exit 1 -- "$WL" -D LEGACY "$T/def.cu"
expect_exit 1 -- "$WL" -DLEGACY "$T/def.cu"
expect_exit 1 -- "$WL" "$T/def.cu" -- -D LEGACY
# a path after -- is a clang argument, not an input
expect_exit 2 -- "$WL" -- "$T/def.cu"
contains "$T/err" "no input files" "operands after -- are clang arguments"
# --version/--help at any position; --list-rules waits for the other options
expect_exit 0 -- "$WL" "$BAD" --vers
contains "$T/out" "^warplint [0-9]" "--vers (a prefix of --version)"
expect_exit 2 -- "$WL" --list-rules --bogus
finish "options tests"
