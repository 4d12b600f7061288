#!/usr/bin/env python3
"""check-layers.py - the include graph of the analyzer's stages has no upward arrow.

Usage: scripts/check-layers.py [--list] [ROOT]

Reads every #include "..." of the C sources and headers of the stage folders
(base < frontend < analysis < report < rules < driver), resolves it the way
the build does (the including file's folder, then the stages' include
folders) and fails (exit 1) naming each include of a file of a higher stage,
or one that cannot be resolved to a single file of the tree. --list prints
every resolved include as "FILE -> HEADER (stage -> stage)". ROOT defaults to
the repository this script is in. CMake also enforces the order (each stage
links and sees only the ones below it); this check catches what the build
cannot, such as a relative path into a higher folder."""
import os
import re
import sys

# stage name, rank, folders (their files belong to the stage; the first ones
# are the include folders the build exports)
STAGES = [
    ("base", 0, ["analyzer/base"]),
    ("frontend", 1, ["analyzer/frontend"]),
    ("analysis", 2, ["analyzer/analysis", "analyzer/analysis/shared"]),
    ("report", 3, ["analyzer/report"]),
    ("rules", 4, ["rules", "rules/support"]),
    ("driver", 5, ["analyzer/driver"]),
]
EXPORTED = ["analyzer/base", "analyzer/frontend", "analyzer/analysis", "analyzer/report",
            "rules", "rules/support", "analyzer/driver"]
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def stage_of(rel):
    best = None
    for name, rank, dirs in STAGES:
        for d in dirs:
            if os.path.dirname(rel) == d and (best is None or len(d) > len(best[2])):
                best = (name, rank, d)
    return best


def main(argv):
    listing = "--list" in argv
    args = [a for a in argv if a != "--list"]
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), ".."))
    sources = []
    for _, _, dirs in STAGES:
        for d in dirs:
            full = os.path.join(root, d)
            if not os.path.isdir(full):
                continue
            for f in sorted(os.listdir(full)):
                if f.endswith((".c", ".h", ".def")):
                    sources.append(os.path.join(d, f))
    bad, edges = [], 0
    for rel in sources:
        me = stage_of(rel)
        with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            here = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if os.path.isfile(os.path.join(root, here)):
                hits = [here]
            else:
                hits = [os.path.join(d, inc) for d in EXPORTED
                        if os.path.isfile(os.path.join(root, d, inc))]
            if len(hits) != 1:
                bad.append("%s: #include \"%s\" %s" % (
                    rel, inc, "is not a file of the stages" if not hits
                    else "is ambiguous: " + ", ".join(hits)))
                continue
            them = stage_of(hits[0])
            if them is None:
                bad.append("%s: #include \"%s\" resolves outside the stages (%s)" % (rel, inc, hits[0]))
                continue
            edges += 1
            if listing:
                print("%s -> %s (%s -> %s)" % (rel, hits[0], me[0], them[0]))
            if them[1] > me[1]:
                bad.append("%s: upward include of %s (%s includes %s)" % (rel, hits[0], me[0], them[0]))
    for b in bad:
        print("check-layers: " + b, file=sys.stderr)
    if edges == 0:
        print("check-layers: no includes found under %s" % root, file=sys.stderr)
        return 1
    if not listing:
        print("check-layers: %d includes in %d files, none upward (base < frontend < analysis"
              " < report < rules < driver)" % (edges, len(sources)) if not bad else
              "check-layers: %d bad includes" % len(bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
