#!/bin/sh
# SARIF identity: the same tree analyzed through different spellings of its
# path (".", "src/..", an absolute path, from a subdirectory, through a
# symlinked working directory) gives the same URIs (relative to the project
# root, under %SRCROOT%) and the same partialFingerprints; --project-root
# moves the root.
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

finish "SARIF identity tests"
