#!/bin/sh
# SARIF identity: the same tree analyzed through different spellings of its
# path (".", "src/..", an absolute path, from a subdirectory, through a
# symlinked working directory) gives the same URIs (relative to the project
# root, under %SRCROOT%) and the same partialFingerprints; --project-root
# moves the root. JSON fingerprints and baseline keys are the same for every
# spelling too.
# Usage: sarif_identity_test.sh <warplint> <source-dir>
set -u
WL=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

R="$T/repo"
mkdir -p "$R/src" "$R/.git"
cp "$SRC/fixtures/legacy-intrinsic/shuffles_and_votes.cu" "$R/src/k.cu"
ln -s "$R" "$T/link"
RREAL=$(cd "$R" && pwd -P)
ids() { # sarif -> "uri fingerprint" lines, sorted, and the %SRCROOT% base
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["originalUriBaseIds"]["%SRCROOT%"]["uri"])
for x in sorted((res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                 res["locations"][0]["physicalLocation"]["artifactLocation"].get("uriBaseId"),
                 res["partialFingerprints"]["warplintLineHash/v1"]) for res in r["results"]):
    print(*x)' "$1"
}
(cd "$R" && "$WL" --format=sarif . >"$T/1.sarif")
(cd "$R" && "$WL" --format=sarif src/.. >"$T/2.sarif")
(cd "$R" && "$WL" --format=sarif "$R" >"$T/3.sarif")
(cd "$R/src" && "$WL" --format=sarif k.cu >"$T/4.sarif")
(cd "$T/link/src" && "$WL" --format=sarif ../src >"$T/5.sarif")
ids "$T/1.sarif" >"$T/1.ids"
contains "$T/1.ids" "^file://$RREAL/\$" "%SRCROOT% is the project root"
contains "$T/1.ids" "^src/k.cu %SRCROOT% " "URIs relative to the project root"
count_is "$T/1.ids" "src/k.cu" 9 "every finding"
for n in 2 3 4 5; do
  ids "$T/$n.sarif" >"$T/$n.ids"
  same "$T/1.ids" "$T/$n.ids" "spelling $n: URIs or fingerprints differ"
done
# --project-root: URIs below it, the same fingerprints' inputs relative to it
(cd "$R" && "$WL" --format=sarif --project-root src . >"$T/6.sarif")
ids "$T/6.sarif" >"$T/6.ids"
contains "$T/6.ids" "^file://$RREAL/src/\$" "--project-root sets %SRCROOT%"
contains "$T/6.ids" "^k.cu %SRCROOT% " "--project-root: relative URIs"
expect_exit 2 -- "$WL" --project-root "$T/nowhere" "$R"
contains "$T/err" "--project-root $T/nowhere: not a directory" "bad --project-root"
# a file outside the root keeps an absolute URI
mkdir -p "$T/elsewhere"
cp "$R/src/k.cu" "$T/elsewhere/o.cu"
(cd "$R" && "$WL" --format=sarif "$T/elsewhere/o.cu" >"$T/7.sarif")
ids "$T/7.sarif" >"$T/7.ids"
contains "$T/7.ids" "^file://.*/elsewhere/o.cu None " "outside the root: an absolute URI"

# JSON fingerprints and baseline keys do not depend on the spelling either
fps() { python3 -c 'import json, sys
for f in sorted(x["fingerprint"] for x in json.load(open(sys.argv[1]))["findings"]):
    print(f)' "$1"; }
(cd "$R" && "$WL" --format=json . >"$T/1.json")
(cd "$R" && "$WL" --format=json src/.. >"$T/2.json")
(cd "$R" && "$WL" --format=json "$R" >"$T/3.json")
(cd "$T/link/src" && "$WL" --format=json .. >"$T/4.json")
fps "$T/1.json" >"$T/1.fps"
count_is "$T/1.fps" "^[0-9a-f]" 9 "JSON: every finding has a fingerprint"
sed 1d "$T/1.ids" | awk '{print $3}' | sort >"$T/sarif.fps"
same "$T/1.fps" "$T/sarif.fps" "JSON fingerprints are SARIF's partialFingerprints"
for n in 2 3 4; do
  fps "$T/$n.json" >"$T/$n.fps"
  same "$T/1.fps" "$T/$n.fps" "JSON spelling $n: fingerprints differ"
done
(cd "$R" && "$WL" --write-baseline "$T/base.json" . >/dev/null 2>&1)
expect_exit 0 -- sh -c "cd '$R' && '$WL' --baseline '$T/base.json' src/.."
expect_exit 0 -- sh -c "cd / && '$WL' --baseline '$T/base.json' '$R'"
expect_exit 0 -- sh -c "cd '$T/link/src' && '$WL' --baseline '$T/base.json' k.cu"
contains "$T/err" "0 findings in .* (9 more in the baseline)" "baseline: every finding matched through another spelling"

finish "SARIF identity tests"
