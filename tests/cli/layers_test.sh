#!/bin/sh
# The include graph of the stages has no upward arrow (scripts/check-layers.py
# on the tree), and the check does fail on one: a copy of the stage folders
# with an upward include added (a relative path into rules/, and a plain
# include of a higher stage's header) is rejected, naming both.
# Usage: layers_test.sh <python3> <source-dir>
set -u
PY=$1
SRC=$2
. "$SRC/tests/cli/lib.sh"

expect_exit 0 -- "$PY" "$SRC/scripts/check-layers.py" "$SRC"
contains "$T/out" "none upward" "the tree's includes"
expect_exit 0 -- "$PY" "$SRC/scripts/check-layers.py" --list "$SRC"
contains "$T/out" "^analyzer/report/suppress.c -> analyzer/report/rulecat.h (report -> report)$" "--list"
contains "$T/out" "^rules/support/registry.c -> rules/rules.def (rules -> rules)$" "--list"
lacks "$T/out" "(rules -> driver)" "--list"

C="$T/copy"
mkdir -p "$C"
cp -R "$SRC/analyzer" "$SRC/rules" "$C/"
printf '#include "../../rules/rules.def"\n' >>"$C/analyzer/report/rulecat.c"
printf '#include "lanes.h"\n' >>"$C/analyzer/base/buf.h"
expect_exit 1 -- "$PY" "$SRC/scripts/check-layers.py" "$C"
contains "$T/err" "analyzer/report/rulecat.c: upward include of rules/rules.def (report includes rules)" "relative path"
contains "$T/err" "analyzer/base/buf.h: upward include of analyzer/analysis/lanes.h (base includes analysis)" "plain include"

rm "$C/analyzer/analysis/lanes.h"
expect_exit 1 -- "$PY" "$SRC/scripts/check-layers.py" "$C"
contains "$T/err" 'analyzer/base/buf.h: #include "lanes.h" is not a file of the stages' "unresolved"
finish layers
