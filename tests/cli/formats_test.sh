#!/bin/sh
# CI formats: GitHub Actions annotations (escaping), GitLab Code Quality
# (validated against tests/schema/gitlab-codequality.json, stable
# fingerprints), JUnit XML (parsed by python3's xml module, escaping); -o
# (atomic, never over an input); --list-rules --format=json; --explain of
# the pseudo-rules; SARIF's helpUri and executionSuccessful.
# Usage: formats_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"
cd "$SRC" || exit 1
PY=/usr/bin/python3
BAD=fixtures/legacy-intrinsic/shuffles_and_votes.cu
MAC=fixtures/legacy-intrinsic/macros.cu
CLEAN=fixtures/legacy-intrinsic/clean_modern.cu

# --- github -------------------------------------------------------------------
expect_exit 1 -- "$WL" --format=github "$BAD"
count_is "$T/out" '^::warning ' 9 "one annotation per finding"
contains "$T/out" '^::warning file=fixtures/legacy-intrinsic/shuffles_and_votes.cu,line=6,col=10,endLine=6,endColumn=31,title=warplint \[legacy-intrinsic\]::legacy warp shuffle' "annotation with its location"
# paths normalized; ':' ',' '%' in properties and newlines in messages escaped
mkdir -p "$T/w"
cp "$MAC" "$T/w/a,b:c%d.cu"
(cd "$T" && "$WL" --format=github ./w/../w//a,b:c%d.cu) >"$T/gh" 2>/dev/null
contains "$T/gh" '^::warning file=w/a%2Cb%3Ac%25d.cu,line=' "property escaping and a normalized path"
contains "$T/gh" '%0Anote: w/a,b:c%25d.cu:' "notes on escaped new lines, data escaping"
lacks "$T/gh" '^note' "no raw new line in an annotation"
# the same unescaped by @actions/core's rules gives the file name back
"$PY" - "$T/gh" <<'PYEOF' && ok || fail "github annotations do not round-trip"
import re, sys
def unprop(s): return s.replace('%3A', ':').replace('%2C', ',').replace('%0A', '\n').replace('%0D', '\r').replace('%25', '%')
for line in open(sys.argv[1], encoding='utf-8'):
    m = re.match(r'^::(warning|error|notice) (.*?)::(.*)$', line.rstrip('\n'))
    assert m, line
    props = dict(p.split('=', 1) for p in m.group(2).split(','))
    assert unprop(props['file']) == 'w/a,b:c%d.cu', props
    assert int(props['line']) > 0 and props['title'].startswith('warplint')
PYEOF
# input errors are error annotations
printf 'x\0binary' >"$T/blob.cu"
expect_exit 2 -- "$WL" --format=github "$T/blob.cu" "$BAD"
contains "$T/out" '^::error file=.*blob.cu,title=warplint::not a text file' "input error annotation"

# --- gitlab -------------------------------------------------------------------
expect_exit 1 -- "$WL" --format=gitlab fixtures examples
cp "$T/out" "$T/all.gl.json"
expect_exit 2 -- "$WL" --format=gitlab "$T/blob.cu" "$BAD"
cp "$T/out" "$T/err.gl.json"
expect_exit 0 -- "$WL" --format=gitlab "$CLEAN"
cp "$T/out" "$T/clean.gl.json"
contains "$T/clean.gl.json" '^\[\]$' "no findings: an empty array"
if "$PY" tests/cli/validate_sarif.py tests/schema/gitlab-codequality.json "$T/all.gl.json" "$T/clean.gl.json" >"$T/v" 2>&1; then ok; else fail "Code Quality invalid:"; head -20 "$T/v"; fi
# the error report has an absolute path (outside the working directory): only its shape is checked
"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any(i["check_name"]=="warplint-input-error" and i["severity"]=="blocker" for i in d)' "$T/err.gl.json" && ok || fail "input errors in Code Quality"
# fingerprints: unique, and stable across spellings of the path and line shifts
mkdir -p "$T/fp"
cp "$BAD" "$T/fp/k.cu"
(cd "$T/fp" && "$WL" --format=gitlab k.cu) >"$T/fp1" 2>/dev/null
(cd "$T/fp" && "$WL" --format=gitlab ./k.cu) >"$T/fp2" 2>/dev/null
(cd "$T/fp" && "$WL" --format=gitlab "$T/fp/k.cu") >"$T/fp3" 2>/dev/null
{ printf '// a new first line\n\n'; cat "$BAD"; } >"$T/fp/k.cu"
(cd "$T/fp" && "$WL" --format=gitlab k.cu) >"$T/fp4" 2>/dev/null
"$PY" - "$T/fp1" "$T/fp2" "$T/fp3" "$T/fp4" <<'PYEOF' && ok || fail "Code Quality fingerprints not unique or not stable"
import json, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
fps = [[i['fingerprint'] for i in r] for r in runs]
assert len(fps[0]) == 9 and len(set(fps[0])) == 9, fps[0]
assert all(f == fps[0] for f in fps), fps
assert [i['location']['lines']['begin'] for i in runs[3]] == [i['location']['lines']['begin'] + 2 for i in runs[0]]
assert all(i['location']['path'] == 'k.cu' for r in runs for i in r)
PYEOF

# --- junit --------------------------------------------------------------------
expect_exit 1 -- "$WL" --format=junit "$BAD" "$MAC"
cp "$T/out" "$T/j.xml"
mkdir -p "$T/x"
cp "$BAD" "$T/x/q&<\"'.cu"
(cd "$T/x" && "$WL" --format=junit "q&<\"'.cu" "$T/blob.cu") >"$T/jx.xml" 2>/dev/null
"$WL" --format=junit "$CLEAN" >"$T/jc.xml" 2>/dev/null
"$PY" - "$T/j.xml" "$T/jx.xml" "$T/jc.xml" <<'PYEOF' && ok || fail "JUnit XML wrong"
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == 'testsuites' and r.get('tests') == '12' and r.get('failures') == '12', r.attrib
suites = r.findall('testsuite')
assert [s.get('name') for s in suites] == ['fixtures/legacy-intrinsic/macros.cu', 'fixtures/legacy-intrinsic/shuffles_and_votes.cu']
cases = r.findall('./testsuite/testcase')
assert len(cases) == 12 and all(c.find('failure') is not None for c in cases)
f = cases[0].find('failure')
assert f.get('type') == 'legacy-intrinsic' and "'__shfl_xor'" in f.get('message'), f.attrib
assert 'expanded from macro' in f.text
x = ET.parse(sys.argv[2]).getroot()
names = [s.get('name') for s in x.findall('testsuite')]
assert 'q&<"\'.cu' in names, names
errs = x.findall('.//error')
assert len(errs) == 1 and 'not a text file' in errs[0].get('message')
assert x.get('errors') == '1'
c = ET.parse(sys.argv[3]).getroot()
assert c.get('tests') == '1' and c.get('failures') == '0' and len(c.findall('.//testcase')) == 1
PYEOF

# --- -o -----------------------------------------------------------------------
expect_exit 1 -- "$WL" --format=json -o "$T/o.json" "$BAD"
[ -s "$T/out" ] && fail "-o: stdout not empty" || ok
"$WL" --format=json "$BAD" >"$T/stdout.json" 2>/dev/null
same "$T/stdout.json" "$T/o.json" "-o differs from stdout"
chmod 640 "$T/o.json"
expect_exit 1 -- "$WL" --output "$T/o.json" "$BAD"
contains "$T/o.json" "shuffles_and_votes.cu:6:10: warning" "-o overwrites an older report"
[ "$(stat -c %a "$T/o.json")" = 640 ] && ok || fail "-o changed the report's mode"
lacks "$T/o.json" "$(printf '\033')" "no colour in a file"
ls "$T" | grep -q warplint- && fail "-o left a temporary file" || ok
# never over an input, whatever the spelling
cp "$BAD" "$T/in.cu"
cp "$T/in.cu" "$T/in.keep"
ln -s in.cu "$T/link.cu"
expect_exit 2 -- "$WL" -o "$T/in.cu" "$T/in.cu"
contains "$T/err" "is one of the inputs" "-o over an input refused"
expect_exit 2 -- "$WL" -o "$T/link.cu" "$T"
expect_exit 2 -- "$WL" -o "$T/./in.cu" --config "$T/in.cu" "$CLEAN"
same "$T/in.cu" "$T/in.keep" "an input was overwritten by -o"
expect_exit 2 -- "$WL" -o "$T/no/such/dir/r.txt" "$BAD"
contains "$T/err" "error: -o" "-o into a missing directory"
expect_exit 2 -- "$WL" -o "" "$BAD"

# --- --list-rules --format=json, --explain of pseudo-rules ------------------------
expect_exit 0 -- "$WL" --list-rules --format=json
"$PY" -c '
import json, sys
d = json.load(open(sys.argv[1]))
ids = [r["id"] for r in d["rules"]]
assert "legacy-intrinsic" in ids and "unused-suppression" in ids and "invalid-suppression" in ids, ids
assert all(r["help_uri"].endswith("/" + r["id"] + ".md") for r in d["rules"])
' "$T/out" && ok || fail "--list-rules --format=json"
expect_exit 0 -- "$WL" --format json --list-rules
contains "$T/out" '"rules"' "--list-rules after --format"
expect_exit 0 -- "$WL" --explain unused-suppression
contains "$T/out" "## What it does" "--explain unused-suppression prints its doc"
expect_exit 0 -- "$WL" --explain invalid-suppression
contains "$T/out" "## What it does" "--explain invalid-suppression prints its doc"

# --- SARIF: helpUri, executionSuccessful -----------------------------------------
expect_exit 1 -- "$WL" --format=sarif "$BAD"
cp "$T/out" "$T/ok.sarif"
expect_exit 2 -- "$WL" --format=sarif "$T/blob.cu" "$BAD"
cp "$T/out" "$T/bad.sarif"
"$PY" - "$T/ok.sarif" "$T/bad.sarif" <<'PYEOF' && ok || fail "SARIF helpUri / executionSuccessful"
import json, os, sys
ok, bad = (json.load(open(p)) for p in sys.argv[1:])
rules = ok['runs'][0]['tool']['driver']['rules']
for r in rules:
    assert r['helpUri'].endswith('rules/' + r['id'] + '.md'), r['helpUri']
    assert r['helpUri'].startswith(('https://', 'file://'))
assert ok['runs'][0]['invocations'][0]['executionSuccessful'] is True
assert bad['runs'][0]['invocations'][0]['executionSuccessful'] is False
PYEOF
# every helpUri names a doc of the repository
for id in $("$WL" --list-rules --format=json | "$PY" -c 'import json,sys; print(" ".join(r["id"] for r in json.load(sys.stdin)["rules"]))'); do
  [ -f "rules/$id.md" ] && ok || fail "no rules/$id.md for helpUri"
done
if "$PY" tests/cli/validate_sarif.py tests/schema/sarif-schema-2.1.0.json "$T/ok.sarif" "$T/bad.sarif" >"$T/v" 2>&1; then ok; else fail "SARIF invalid:"; head "$T/v"; fi

finish "formats tests"
