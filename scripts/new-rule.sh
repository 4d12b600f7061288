#!/bin/sh
# new-rule.sh ID - scaffolds the rule ID (e.g. missing-mask-check) in this tree:
#   rules/<c_name>.c        the rule: a walk over every call of the file's
#                           functions, reporting under the rule's own id
#   rules/ID.md             its doc, with the sections the meta-test requires
#   rules/rules.def         its registration line, in id order
#   fixtures/ID/fires.cu    a firing fixture (// expect: ID) and its clean twin
#   fixtures/ID/clean.cu
#   fixtures/gpu/ID/        bad.cu, fixed.cu and harness.cu for the GPU evidence,
#                           and the rule in fixtures/gpu/run's list
# Every place to fill in says TODO(new-rule.sh); the fixture meta-test
# (ctest fixtures) fails while one is left, and while the firing fixture does
# not fire, so a scaffold cannot pass for a rule. ID: lower-case letters,
# digits and '-', starting with a letter; c_name is ID with '-' as '_'.
# Run from anywhere; it edits the tree it belongs to (or $WARPLINT_TREE).
# Exit: 0 done, 2 bad usage, bad ID, or a rule or file of that name exists.
set -eu
LC_ALL=C
export LC_ALL
usage() { echo "usage: $0 RULE-ID   (e.g. $0 missing-mask-check)" >&2; exit 2; }
[ $# -eq 1 ] || usage
id=$1
case $id in
  [a-z]*) ;;
  *) echo "new-rule.sh: '$id' must start with a lower-case letter" >&2; exit 2 ;;
esac
if [ -n "$(printf '%s' "$id" | tr -d 'a-z0-9-')" ] || [ "${#id}" -gt 48 ]; then
  echo "new-rule.sh: '$id' may hold only a-z, 0-9 and '-' (at most 48 characters)" >&2
  exit 2
fi
case $id in *-|*--*) echo "new-rule.sh: '$id': no trailing or doubled '-'" >&2; exit 2 ;; esac
c=$(printf '%s' "$id" | tr '-' '_')
root=${WARPLINT_TREE:-$(cd "$(dirname "$0")/.." && pwd)}
def="$root/rules/rules.def"
[ -f "$def" ] || { echo "new-rule.sh: no rules/rules.def under $root" >&2; exit 2; }
if grep -q "^WL_RULE($c," "$def" || grep -q "\"$id\"" "$def"; then
  echo "new-rule.sh: rule $id is already registered in rules/rules.def" >&2
  exit 2
fi
for p in "rules/$c.c" "rules/$id.md" "fixtures/$id" "fixtures/gpu/$id"; do
  if [ -e "$root/$p" ]; then echo "new-rule.sh: $p already exists" >&2; exit 2; fi
done
T="TODO(new-rule.sh)"

# ---- the registration line, in id order ----------------------------------
tmp="$def.new-rule.$$"
awk -v c="$c" -v id="$id" '
  function emit() {
    print "WL_RULE(" c ", \"" id "\", WL_SEV_WARNING,"
    print "        \"TODO(new-rule.sh) one-line summary of " id "\")"
    done = 1
  }
  /^WL_RULE\(/ && !done {
    match($0, /"[^"]*"/); other = substr($0, RSTART + 1, RLENGTH - 2)
    if (other > id) emit()
  }
  { print }
  END { if (!done) emit() }' "$def" >"$tmp"
mv "$tmp" "$def"

# ---- the rule -------------------------------------------------------------
cat >"$root/rules/$c.c" <<EOF
/* $c.c - rule $id.
 * $T: say what the rule finds, what it assumes, and where it
 * keeps quiet rather than guess. */
#include <stdbool.h>

#include "builtins.h"
#include "rules.h"
#include "wording.h"

/* Whether the call e is what $id reports. $T: ask the
 * catalog (wl_builtin_find, builtins.h) and the analyses (wl_an_lanes,
 * wl_an_smem: analyses.h) rather than names. */
static bool offends(const wl_rule_ctx *ctx, const wl_expr *e) {
  (void)ctx;
  (void)e;
  return false;
}

typedef struct scan {
  wl_rule_ctx *ctx;
} scan;

static bool visit(const wl_expr *e, const wl_stmt *in, void *ud) {
  (void)in;
  scan *sc = ud;
  if (e->kind != WL_E_CALL || !offends(sc->ctx, e))
    return true;
  const wl_macro_info *mi;
  wl_range at = wl_wording_site(sc->ctx->tu, e, &mi);
  wl_report_range(sc->ctx, at, mi,
                  "'%s': $T the message (what is wrong, why, what to do)",
                  wl_wording_call_name(e));
  return true;
}

void wl_rule_$c(wl_rule_ctx *ctx) {
  scan sc = {ctx};
  for (unsigned i = 0; i < ctx->tu->nfuncs; i++) {
    const wl_func *f = ctx->tu->funcs[i];
    if (!f->body || !wl_tu_in_main(ctx->tu, f->loc))
      continue;
    wl_visitor v = {NULL, visit, &sc, false};
    wl_walk_stmt(f->body, &v);
  }
}
EOF

# the project's style (.clang-format), where clang-format is installed
if command -v clang-format >/dev/null 2>&1; then
  (cd "$root" && clang-format -i "rules/$c.c") || true
fi

# ---- the doc ---------------------------------------------------------------
cat >"$root/rules/$id.md" <<EOF
# $id

## What it does

$T what the rule finds, in the words of the CUDA Programming Guide.

## Why is this bad

$T what goes wrong on sm_70+ (independent thread scheduling), with the GPU
evidence of fixtures/gpu/$id/.

## Example

\`\`\`cuda
// $T the pattern, as in fixtures/$id/fires.cu
\`\`\`

## Use instead

\`\`\`cuda
// $T the fix, as in fixtures/gpu/$id/fixed.cu
\`\`\`

## Limitations

$T what the rule does not see, and keeps quiet about.
EOF

# ---- fixtures -------------------------------------------------------------
mkdir -p "$root/fixtures/$id" "$root/fixtures/gpu/$id"
cat >"$root/fixtures/$id/fires.cu" <<EOF
// $id: code the rule must report. $T the pattern; annotate
// each offending line as below (column and message too: README, Tests).
__global__ void fires(int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, out[threadIdx.x], 0); // expect: $id
}
EOF
cat >"$root/fixtures/$id/clean.cu" <<EOF
// $id: the clean twin of fires.cu, which the rule must leave alone.
// $T the same kernel, correct.
__global__ void clean(int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, out[threadIdx.x], 0);
}
EOF
cat >"$root/fixtures/gpu/$id/bad.cu" <<EOF
// GPU fixture of $id: the pattern, device code only (fixtures/gpu/README.md).
// $T a kernel whose results show the pattern misbehave on sm_70+.
__global__ void kernel(const int *in, int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, in[threadIdx.x], 0); // expect: $id
}
EOF
cat >"$root/fixtures/gpu/$id/fixed.cu" <<EOF
// GPU fixture of $id: bad.cu fixed as rules/$id.md says.
// $T the same kernel, fixed.
__global__ void kernel(const int *in, int *out)
{
    out[threadIdx.x] = __shfl_sync(0xffffffff, in[threadIdx.x], 0);
}
EOF
cat >"$root/fixtures/gpu/$id/harness.cu" <<EOF
// Harness for rule $id. Build (from this directory):
//   nvcc -arch=sm_90 -DKERNEL_FILE='"bad.cu"'   -o harness_bad   harness.cu
//   nvcc -arch=sm_90 -DKERNEL_FILE='"fixed.cu"' -o harness_fixed harness.cu
// Usage: ./harness [iters] [blocks]   prints RESULT lines (fixtures/gpu/README.md).
#include KERNEL_FILE
#include "../harness_common.h"

#error "$T: launch the kernels, compare with a CPU reference, print RESULT lines"
EOF
run="$root/fixtures/gpu/run"
if [ -f "$run" ]; then # the rule folders it runs: rules=(a b ...) over one or more lines
  awk -v id="$id" '
    /^rules=\(/ { inarr = 1 }
    inarr && /\)$/ { sub(/\)$/, " " id ")"); inarr = 0 }
    { print }' "$run" >"$run.new-rule.$$"
  cat "$run.new-rule.$$" >"$run" && rm -f "$run.new-rule.$$"
fi

echo "new-rule.sh: rule $id scaffolded:"
echo "  rules/rules.def (registration), rules/$c.c, rules/$id.md,"
echo "  fixtures/$id/{fires,clean}.cu, fixtures/gpu/$id/{bad,fixed,harness}.cu"
echo "Fill in every $T; 'ctest -R fixtures' fails until they are gone"
echo "and fixtures/$id/fires.cu fires."
