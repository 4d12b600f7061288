#!/bin/sh
# SARIF validity: warplint's SARIF for several kinds of runs (every fixture
# and example, pseudo-rule findings, input and configuration errors, no
# findings, a compilation database) validated against the SARIF 2.1.0 JSON
# schema (tests/schema/) by a real validator (python3-jsonschema).
# Usage: sarif_schema_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
PY=/usr/bin/python3
SCHEMA=tests/schema/sarif-schema-2.1.0.json
if ! "$PY" -c 'import jsonschema' 2>/dev/null; then
  echo "FAIL: $PY has no jsonschema module (Debian: apt-get install python3-jsonschema;"
  echo "      scripts/setup-debian.sh --with-test-tools installs it)"
  exit 1
fi

"$WL" --format=sarif fixtures examples >"$T/all.sarif" 2>/dev/null
printf '__global__ void k(int *o) {\n  o[0] = __shfl(o[1], 0); // warplint-disable-line no-such-rule\n  o[2] = o[3]; // NOLINT(legacy-intrinsic)\n}\n' >"$T/sup.cu"
"$WL" --format=sarif --report-unused-suppressions "$T/sup.cu" >"$T/pseudo.sarif" 2>/dev/null
printf 'x\0binary' >"$T/blob.cu"
"$WL" --format=sarif "$T/blob.cu" "$T/missing.cu" fixtures/legacy-intrinsic >"$T/errors.sarif" 2>/dev/null
mkdir -p "$T/cfg"
printf 'bogus = 1\n' >"$T/cfg/.warplint"
cp fixtures/legacy-intrinsic/shuffles_and_votes.cu "$T/cfg/"
"$WL" --format=sarif "$T/cfg" >"$T/config.sarif" 2>/dev/null
"$WL" --format=sarif fixtures/legacy-intrinsic/clean_modern.cu >"$T/clean.sarif" 2>/dev/null
P="$T/proj"
cp -R tests/cmake-project "$P"
find "$P" \( -name compile_commands.json -o -name '*.rsp' \) -exec sed -i "s#@PROJECT_DIR@#$P#g" {} +
"$WL" --format=sarif -p "$P/build" >"$T/compdb.sarif" 2>/dev/null

for f in all pseudo errors config clean compdb; do
  [ -s "$T/$f.sarif" ] && ok || fail "no SARIF for $f"
done
contains "$T/pseudo.sarif" '"ruleId": "invalid-suppression"' "pseudo-rule results included"
contains "$T/errors.sarif" 'not a text file' "input errors included"
if "$PY" tests/cli/validate_sarif.py "$SCHEMA" "$T/all.sarif" "$T/pseudo.sarif" "$T/errors.sarif" \
  "$T/config.sarif" "$T/clean.sarif" "$T/compdb.sarif" >"$T/v.log" 2>&1; then
  ok
else
  fail "SARIF does not validate against $SCHEMA:"
  sed 's/^/    /' "$T/v.log" | head -30
fi
# the validator really rejects what is not SARIF
printf '{"version": "2.1.0", "runs": [{"tool": {}}]}' >"$T/broken.sarif"
"$PY" tests/cli/validate_sarif.py "$SCHEMA" "$T/broken.sarif" >/dev/null 2>&1 && fail "the validator accepts invalid SARIF" || ok

finish "sarif schema tests"
