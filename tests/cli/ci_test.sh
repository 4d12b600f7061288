#!/bin/sh
# The CI examples of docs/ci/: both files parse as YAML (python3-yaml; also
# yamllint when installed), have the shape their CI system needs, and their
# warplint commands, run on a small tree, write what the upload steps read:
# SARIF valid against the 2.1.0 schema, Code Quality valid against
# tests/schema/gitlab-codequality.json, JUnit that python3's xml parses.
# Usage: ci_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
PY=/usr/bin/python3
GH=docs/ci/github-workflow.yml
GL=docs/ci/gitlab-ci.yml
if ! "$PY" -c 'import yaml' 2>/dev/null; then
  echo "FAIL: python3-yaml missing (scripts/setup-debian.sh --with-test-tools installs it)"; exit 1
fi
if command -v yamllint >/dev/null 2>&1; then
  yamllint -d relaxed "$GH" "$GL" >"$T/yl" 2>&1 && ok || { fail "yamllint"; head "$T/yl"; }
fi
# the warplint commands, one a line, and the files the uploads read
"$PY" - "$GH" "$GL" "$T/cmds" <<'PYEOF' && ok || fail "CI examples do not have the expected shape"
import sys, yaml
gh = yaml.safe_load(open(sys.argv[1]))
gl = yaml.safe_load(open(sys.argv[2]))
steps = gh['jobs']['warplint']['steps']
assert gh['permissions']['security-events'] == 'write'
upload = [s for s in steps if s.get('uses', '').startswith('github/codeql-action/upload-sarif')]
assert upload and upload[0]['with']['sarif_file'] == 'warplint.sarif'
cmds = [s['run'] for s in steps if 'run' in s and s['run'].startswith('warplint ')]
job = gl['warplint']
reports = job['artifacts']['reports']
cmds += [c for c in job['script'] if c.startswith('warplint ')]
assert reports['codequality'] == 'gl-code-quality-report.json' and reports['junit'] == 'warplint-junit.xml'
assert len(cmds) == 4, cmds
open(sys.argv[3], 'w').write('\n'.join(cmds) + '\n')
PYEOF
# run them in a checkout with findings, warplint on PATH
W="$T/checkout"
mkdir -p "$W/src" "$T/bin"
cp fixtures/legacy-intrinsic/shuffles_and_votes.cu fixtures/legacy-intrinsic/macros.cu "$W/src/"
ln -s "$WL" "$T/bin/warplint"
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  (cd "$W" && PATH="$T/bin:$PATH" sh -c "$cmd") >"$T/c$n.out" 2>"$T/c$n.err"
  echo "$?" >"$T/c$n.rc"
done <"$T/cmds"
[ "$(cat "$T/c1.rc")" = 0 ] && ok || fail "SARIF step failed (--exit-zero)"
[ "$(cat "$T/c2.rc")" = 1 ] && ok || fail "annotation step does not fail on warnings"
contains "$T/c2.out" "^::warning file=src/shuffles_and_votes.cu,line=6," "annotations in the job log"
[ "$(cat "$T/c3.rc")" = 0 ] && ok || fail "Code Quality step failed (--exit-zero)"
[ "$(cat "$T/c4.rc")" = 1 ] && ok || fail "JUnit step does not fail on warnings"
"$PY" tests/cli/validate_sarif.py tests/schema/sarif-schema-2.1.0.json "$W/warplint.sarif" >"$T/v1" 2>&1 && ok || { fail "SARIF invalid"; head "$T/v1"; }
"$PY" tests/cli/validate_sarif.py tests/schema/gitlab-codequality.json "$W/gl-code-quality-report.json" >"$T/v2" 2>&1 && ok || { fail "Code Quality invalid"; head "$T/v2"; }
"$PY" -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); assert r.tag == "testsuites" and int(r.get("failures")) == 12' "$W/warplint-junit.xml" && ok || fail "JUnit report"
finish "ci tests"
