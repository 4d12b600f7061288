#!/bin/sh
# Suppression comments through the command line: what they silence, the
# invalid-suppression and unused-suppression pseudo-rules, exit codes.
# Usage: suppress_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

cat >"$T/k.cu" <<'EOF'
__global__ void k(float *o) {
  float v = o[threadIdx.x];
  // warplint-disable-next-line legacy-intrinsic -- checked on CUDA 8 only
  v += __shfl_down(v, 16);
  v += __shfl_down(v, 8); // NOLINT(legacy-intrinsic)
  v += __shfl_down(v, 4); // NOLINT
  v += __shfl_down(v, 2); /* warplint-disable-line legacy-intrinsic */
  v += __shfl_down(v, 1);
  o[0] = v;
}
EOF
expect_exit 1 -- "$WL" "$T/k.cu"
count_is "$T/out" "warning:.*\[legacy-intrinsic\]" 1 "four of five calls silenced"
contains "$T/out" "k.cu:8:8: warning" "the unsilenced call"

# a misspelt rule: reported, and it silences nothing
cat >"$T/typo.cu" <<'EOF'
__global__ void k(float *o) {
  o[0] = __shfl(o[0], 0); // warplint-disable-line legacy-intrinsics
  o[1] = __shfl(o[1], 0); // warplint-disable-lin legacy-intrinsic
  o[2] = __shfl(o[2], 0); // NOLINT(readability-magic-numbers)
}
EOF
expect_exit 1 -- "$WL" "$T/typo.cu"
contains "$T/out" "typo.cu:2:52: warning: unknown rule 'legacy-intrinsics' in warplint-disable-line (see --list-rules) \[invalid-suppression\]" "unknown rule id"
contains "$T/out" "typo.cu:3:30: warning: unknown suppression directive 'warplint-disable-lin'" "misspelt directive"
count_is "$T/out" "\[legacy-intrinsic\]" 3 "nothing silenced; NOLINT ids of other tools ignored"
expect_exit 1 -- "$WL" --format=json "$T/typo.cu"
contains "$T/out" '"rule": "invalid-suppression"' "JSON carries the pseudo-rule"

# a whole file
printf '// warplint-disable-file legacy-intrinsic\n__global__ void k(int *o) { o[0] = __ballot(o[1]); }\n' >"$T/file.cu"
expect_exit 0 -- "$WL" "$T/file.cu"

# --report-unused-suppressions
cat >"$T/unused.cu" <<'EOF'
__global__ void k(float *o) {
  o[0] = __shfl(o[0], 0); // warplint-disable-line legacy-intrinsic
  o[1] = o[2]; // warplint-disable-line legacy-intrinsic
  o[3] = o[4]; // NOLINT
}
EOF
expect_exit 0 -- "$WL" "$T/unused.cu"
expect_exit 1 -- "$WL" --report-unused-suppressions "$T/unused.cu"
count_is "$T/out" "\[unused-suppression\]" 1 "one unused suppression (a bare NOLINT may be clang-tidy's)"
contains "$T/out" "unused.cu:3:41: warning: unused suppression: no 'legacy-intrinsic' finding on line 3" "unused named"
# a suppression of a rule that was not run is not unused
expect_exit 0 -- "$WL" --report-unused-suppressions --disable legacy-intrinsic "$T/unused.cu"

finish "suppress tests"
