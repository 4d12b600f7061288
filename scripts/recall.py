#!/usr/bin/env python3
"""Recall of missing-syncwarp and full-mask-divergent against a hand-made catalog.

Owns the matching of `warplint --format=json` findings to the regions of
tests/recall/catalog.tsv (issue 15) and the report: found/regions per tree,
per rule and per shape, the missed regions, and the findings that are not in
any region (false-positive candidates, listed for manual review).

Usage:
    recall.py CATALOG TREE=FINDINGS.json [TREE=FINDINGS.json ...]
              [--window N] [--inactive] [--rules R1,R2]
    recall.py --check CATALOG      validate the catalog, print its counts
    recall.py --self-test          run the built-in test on a tiny fake catalog

Catalog: tab-separated, `#` lines are comments, the first other line is the
header.  `#tree<TAB>NAME<TAB>REPO<TAB>COMMIT<TAB>DIR<TAB>IFLAGS` comment lines
name the trees (scripts/recall.sh reads them).  Columns:

    kind      region | clean | ignore
    tree      tree name (as in the #tree lines)
    file      path relative to the tree's root
    line      first racing access, or the collective
    end_line  last line of the region (>= line)
    function  kernel or function (informational)
    rule      missing-syncwarp | full-mask-divergent
    shape     short tag (unrolled-reduce, warp-scan, macro, ...)
    active    active | inactive (inside a preprocessor branch not taken)
    reason    one line, in the cataloguer's words
    also      optional: more spans, FILE:A-B[,FILE:A-B...] (helpers the
              region runs through: a call site and the helper's body)

Matching rule (what counts as "found"):
    A finding matches a row when the rule is the same, the finding's primary
    location is in the same file of the same tree, and its line lies within
    [line - W, end_line + W] or within one of the row's `also` spans widened
    by W (W = --window, default 3).  When the primary location matches no
    row, the finding's notes are tried the same way (a race reported inside
    a helper, with the region's line as "the other access" or "reached
    through this call"): such a region counts as found and is also listed
    as "found only through a note".  A region is found when at least one
    finding matches it; a finding may match several rows.
    Findings matching no region row: if they match a `clean` row they are
    reported as findings on clean code; `ignore` rows (real bugs outside the
    two rules' scope, e.g. block-level races) absorb findings silently;
    everything else is "outside any region".  Both lists are the
    false-positive candidates for manual review.
    Inactive regions are left out of the figures unless --inactive.

Exit status: 0 report printed (whatever the recall), 1 self-test or check
failure, 2 bad usage or unreadable input.
"""

import json
import os
import sys
import tempfile

RULES = ("missing-syncwarp", "full-mask-divergent")
KINDS = ("region", "clean", "ignore")
COLUMNS = ("kind", "tree", "file", "line", "end_line", "function", "rule",
           "shape", "active", "reason")


class CatalogError(Exception):
    pass


def norm_path(p):
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return os.path.normpath(p) if p else p


def parse_spans(text, default_file, lineno):
    spans = []
    if not text:
        return spans
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        f, sep, rng = part.rpartition(":")
        if not sep:
            f, rng = default_file, part
        a, sep, b = rng.partition("-")
        try:
            a = int(a)
            b = int(b) if sep else a
        except ValueError:
            raise CatalogError("line %d: bad span %r in 'also'" % (lineno, part))
        if b < a:
            raise CatalogError("line %d: span %r ends before it starts" % (lineno, part))
        spans.append((norm_path(f), a, b))
    return spans


def load_catalog(path):
    """Returns (trees, rows); trees: name -> dict(repo, commit, dir, iflags)."""
    trees = {}
    rows = []
    header = None
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.rstrip("\n")
            if not line.strip():
                continue
            if line.startswith("#"):
                f = line.split("\t")
                if f[0] == "#tree":
                    if len(f) < 5:
                        raise CatalogError("line %d: #tree needs NAME REPO COMMIT DIR [IFLAGS]" % lineno)
                    trees[f[1]] = {"repo": f[2], "commit": f[3], "dir": f[4],
                                   "iflags": f[5] if len(f) > 5 else ""}
                continue
            f = line.split("\t")
            if header is None:
                if tuple(f[:len(COLUMNS)]) != COLUMNS:
                    raise CatalogError("line %d: header must start with %s" % (lineno, "\\t".join(COLUMNS)))
                header = f
                continue
            if len(f) < len(COLUMNS) or len(f) > len(COLUMNS) + 1:
                raise CatalogError("line %d: %d columns, want %d or %d" %
                                   (lineno, len(f), len(COLUMNS), len(COLUMNS) + 1))
            r = dict(zip(COLUMNS, f))
            if r["kind"] not in KINDS:
                raise CatalogError("line %d: kind %r" % (lineno, r["kind"]))
            if r["rule"] not in RULES:
                raise CatalogError("line %d: rule %r" % (lineno, r["rule"]))
            if r["active"] not in ("active", "inactive"):
                raise CatalogError("line %d: active must be active or inactive" % lineno)
            try:
                r["line"] = int(r["line"])
                r["end_line"] = int(r["end_line"])
            except ValueError:
                raise CatalogError("line %d: line/end_line not numbers" % lineno)
            if r["end_line"] < r["line"] or r["line"] < 1:
                raise CatalogError("line %d: end_line before line" % lineno)
            if not r["shape"] or not r["reason"].strip():
                raise CatalogError("line %d: empty shape or reason" % lineno)
            r["file"] = norm_path(r["file"])
            r["spans"] = [(r["file"], r["line"], r["end_line"])] + \
                parse_spans(f[len(COLUMNS)] if len(f) > len(COLUMNS) else "", r["file"], lineno)
            r["lineno"] = lineno
            rows.append(r)
    if header is None:
        raise CatalogError("no header line")
    for r in rows:
        if trees and r["tree"] not in trees:
            raise CatalogError("line %d: tree %r has no #tree line" % (r["lineno"], r["tree"]))
    return trees, rows


def load_findings(path, rules):
    """Returns (findings, n_errors, n_incomplete); findings: list of dicts."""
    with open(path, encoding="utf-8") as fh:
        doc = json.load(fh)
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list):
        raise ValueError("%s: not a warplint JSON report (no 'findings' array)" % path)
    out = []
    for f in doc["findings"]:
        if f.get("rule") not in rules:
            continue
        notes = [(norm_path(str(n.get("file", ""))), int(n.get("line", 0)))
                 for n in (f.get("notes") or []) if isinstance(n, dict) and n.get("file")]
        out.append({"rule": f["rule"], "file": norm_path(str(f.get("file", ""))),
                    "line": int(f.get("line", 0)), "message": str(f.get("message", "")),
                    "notes": notes})
    errors = doc.get("errors") or []
    incomplete = doc.get("incomplete") or []
    return out, len(errors), len(incomplete)


def row_matches(row, finding, window):
    if row["rule"] != finding["rule"]:
        return False
    for f, a, b in row["spans"]:
        if f == finding["file"] and a - window <= finding["line"] <= b + window:
            return True
    return False


def row_matches_note(row, finding, window):
    if row["rule"] != finding["rule"]:
        return False
    for nf, nl in finding.get("notes", ()):
        for f, a, b in row["spans"]:
            if f == nf and a - window <= nl <= b + window:
                return True
    return False


def evaluate(rows, findings_by_tree, window, inactive):
    """Matches findings to rows.  Returns a result dict (see report())."""
    regions = [r for r in rows if r["kind"] == "region" and r["tree"] in findings_by_tree
               and (inactive or r["active"] == "active")]
    found = {id(r): [] for r in regions}
    direct = set()
    on_clean = []
    outside = []
    for tree, findings in sorted(findings_by_tree.items()):
        tree_rows = [r for r in rows if r["tree"] == tree]
        for fd in findings:
            hit = [r for r in tree_rows if row_matches(r, fd, window)]
            regs = [r for r in hit if r["kind"] == "region"]
            for r in regs:
                if id(r) in found:
                    found[id(r)].append(fd)
                    direct.add(id(r))
            if regs:
                continue
            if not hit:
                # Reported elsewhere (a helper, a macro's definition): its
                # notes name the call, expansion or other access.
                hit = [r for r in tree_rows if row_matches_note(r, fd, window)]
                regs = [r for r in hit if r["kind"] == "region"]
                for r in regs:
                    if id(r) in found:
                        found[id(r)].append(fd)
                if regs:
                    continue
            if any(r["kind"] == "ignore" for r in hit):
                continue
            cleans = [r for r in hit if r["kind"] == "clean"]
            if cleans:
                on_clean.append((tree, fd, cleans[0]))
            else:
                outside.append((tree, fd))
    return {"regions": regions, "found": found, "direct": direct, "on_clean": on_clean,
            "outside": outside}


def pct(a, b):
    return "%5.1f%%" % (100.0 * a / b) if b else "    -"


def report(res, trees_run, meta, window, inactive, out=sys.stdout):
    regions, found = res["regions"], res["found"]
    w = out.write
    w("warplint recall: missing-syncwarp and full-mask-divergent against the catalog\n")
    w("matching: same rule and file, line within the region's span(s) +/- %d; %s regions\n\n"
      % (window, "active and inactive" if inactive else "active"))
    hdr = "%-14s %-18s %-20s %-16s %s\n"
    w(hdr % ("tree", "missing-syncwarp", "full-mask-divergent", "total", "findings/errors/incomplete"))
    tot = {ru: [0, 0] for ru in RULES}
    for tree in sorted(trees_run):
        cells = []
        t_found = t_all = 0
        for ru in RULES:
            rr = [r for r in regions if r["tree"] == tree and r["rule"] == ru]
            fnd = sum(1 for r in rr if found[id(r)])
            tot[ru][0] += fnd
            tot[ru][1] += len(rr)
            t_found += fnd
            t_all += len(rr)
            cells.append("%d/%d" % (fnd, len(rr)))
        m = meta.get(tree, {})
        w(hdr % (tree, cells[0], cells[1], "%d/%d %s" % (t_found, t_all, pct(t_found, t_all)),
                 "%d/%d/%d" % (m.get("findings", 0), m.get("errors", 0), m.get("incomplete", 0))))
    all_f = sum(v[0] for v in tot.values())
    all_n = sum(v[1] for v in tot.values())
    w(hdr % ("TOTAL", "%d/%d %s" % (tot[RULES[0]][0], tot[RULES[0]][1], pct(*tot[RULES[0]])),
             "%d/%d %s" % (tot[RULES[1]][0], tot[RULES[1]][1], pct(*tot[RULES[1]])),
             "%d/%d %s" % (all_f, all_n, pct(all_f, all_n)), ""))

    w("\nper shape (found/regions):\n")
    shapes = sorted({(r["rule"], r["shape"]) for r in regions})
    for ru, sh in shapes:
        rr = [r for r in regions if r["rule"] == ru and r["shape"] == sh]
        fnd = sum(1 for r in rr if found[id(r)])
        w("  %-20s %-28s %d/%d\n" % (ru, sh, fnd, len(rr)))

    via = [r for r in regions if found[id(r)] and id(r) not in res["direct"]]
    w("\nfound only through a note (the finding points elsewhere, e.g. into a helper) (%d):\n"
      % len(via))
    for r in sorted(via, key=lambda r: (r["tree"], r["file"], r["line"])):
        fd = found[id(r)][0]
        w("  %s %s:%d %s [%s, %s] reported at %s:%d\n" % (
            r["tree"], r["file"], r["line"], r["function"], r["rule"], r["shape"], fd["file"], fd["line"]))

    missed = [r for r in regions if not found[id(r)]]
    w("\nmissed regions (%d):\n" % len(missed))
    for r in sorted(missed, key=lambda r: (r["tree"], r["file"], r["line"])):
        w("  %s %s:%d-%d %s [%s, %s%s] %s\n" % (
            r["tree"], r["file"], r["line"], r["end_line"], r["function"], r["rule"], r["shape"],
            "" if r["active"] == "active" else ", inactive", r["reason"]))

    by_row = {}
    for tree, fd, row in res["on_clean"]:
        by_row.setdefault(id(row), (row, []))[1].append(fd)
    w("\nfalse-positive candidates, findings on clean rows (%d findings on %d rows):\n"
      % (len(res["on_clean"]), len(by_row)))
    for row, fds in sorted(by_row.values(), key=lambda v: (v[0]["tree"], v[0]["file"], v[0]["line"])):
        w("  %s %s:%d-%d %s [%s, clean: %s] %d finding%s, first at %s:%d: %s\n      row: %s\n" % (
            row["tree"], row["file"], row["line"], row["end_line"], row["function"], row["rule"],
            row["shape"], len(fds), "" if len(fds) == 1 else "s", fds[0]["file"], fds[0]["line"],
            fds[0]["message"][:150], row["reason"]))
    groups = group_findings(res["outside"])
    w("\nfalse-positive candidates, findings outside any region (%d, in %d groups of nearby lines):\n"
      % (len(res["outside"]), len(groups)))
    for tree, f, rule, lo, hi, fds in groups:
        w("  %s %s:%s [%s] %d finding%s: %s\n" % (
            tree, f, str(lo) if lo == hi else "%d-%d" % (lo, hi), rule, len(fds),
            "" if len(fds) == 1 else "s", fds[0]["message"][:150]))
    return all_f, all_n


def group_findings(items, gap=12):
    """Groups (tree, finding) pairs of one file and rule whose lines are at most
    `gap` apart: [(tree, file, rule, first_line, last_line, findings)]."""
    out = []
    for tree, fd in sorted(items, key=lambda t: (t[0], t[1]["file"], t[1]["rule"], t[1]["line"])):
        if out and out[-1][0] == tree and out[-1][1] == fd["file"] and out[-1][2] == fd["rule"] \
                and fd["line"] - out[-1][4] <= gap:
            g = out[-1]
            out[-1] = (g[0], g[1], g[2], g[3], fd["line"], g[5] + [fd])
        else:
            out.append((tree, fd["file"], fd["rule"], fd["line"], fd["line"], [fd]))
    return out


def run(catalog, pairs, window, inactive, rules):
    trees, rows = load_catalog(catalog)
    findings_by_tree = {}
    meta = {}
    for tree, path in pairs:
        if trees and tree not in trees:
            raise CatalogError("tree %r is not in the catalog's #tree lines" % tree)
        fds, nerr, ninc = load_findings(path, rules)
        findings_by_tree.setdefault(tree, []).extend(fds)
        meta[tree] = {"findings": len(fds), "errors": nerr, "incomplete": ninc}
    rows = [r for r in rows if r["rule"] in rules]
    res = evaluate(rows, findings_by_tree, window, inactive)
    report(res, findings_by_tree.keys(), meta, window, inactive)
    return res


def check(catalog):
    trees, rows = load_catalog(catalog)
    print("catalog %s: %d trees, %d rows" % (catalog, len(trees), len(rows)))
    for t in sorted({r["tree"] for r in rows}):
        rr = [r for r in rows if r["tree"] == t]
        print("  %-14s regions %3d (inactive %d)  clean %3d  ignore %d" % (
            t, sum(r["kind"] == "region" and r["active"] == "active" for r in rr),
            sum(r["kind"] == "region" and r["active"] != "active" for r in rr),
            sum(r["kind"] == "clean" for r in rr), sum(r["kind"] == "ignore" for r in rr)))
    seen = {}
    for r in rows:
        key = (r["tree"], r["file"], r["line"], r["rule"], r["kind"])
        if key in seen:
            raise CatalogError("line %d repeats line %d" % (r["lineno"], seen[key]))
        seen[key] = r["lineno"]
    return 0


SELF_CATALOG = "\n".join([
    "# self-test catalog",
    "#tree\tt1\towner/t1\tabc\t.\t-I.",
    "#tree\tt2\towner/t2\tdef\tsrc\t",
    "\t".join(COLUMNS + ("also",)),
    "region\tt1\ta.cu\t10\t14\tk1\tmissing-syncwarp\tunrolled-reduce\tactive\tr1",
    "region\tt1\ta.cu\t40\t40\tk2\tfull-mask-divergent\tmacro\tactive\tr2\th.cuh:5-9",
    "region\tt1\tb.cu\t7\t7\tk3\tmissing-syncwarp\twarp-scan\tactive\tr3",
    "region\tt1\tb.cu\t70\t72\tk4\tmissing-syncwarp\twarp-scan\tinactive\tr4",
    "clean\tt1\tb.cu\t30\t31\tk5\tmissing-syncwarp\tbarrier-present\tactive\tc1",
    "ignore\tt1\tb.cu\t50\t50\tk6\tmissing-syncwarp\tblock-war\tactive\ti1",
    "region\tt2\tsrc/c.cu\t3\t3\tk7\tmissing-syncwarp\tstruct-store\tactive\tr5",
    "",
])


def self_test():
    fails = []

    def expect(cond, what):
        if not cond:
            fails.append(what)

    with tempfile.TemporaryDirectory() as d:
        cat = os.path.join(d, "c.tsv")
        with open(cat, "w", encoding="utf-8") as fh:
            fh.write(SELF_CATALOG)
        f1 = {"version": 1, "findings": [
            {"rule": "missing-syncwarp", "file": "./a.cu", "line": 12, "message": "m"},   # region k1
            {"rule": "missing-syncwarp", "file": "a.cu", "line": 17, "message": "m"},     # k1 via window 3
            {"rule": "full-mask-divergent", "file": "h.cuh", "line": 6, "message": "m"},  # k2 via also
            {"rule": "missing-syncwarp", "file": "b.cu", "line": 31, "message": "m"},     # clean row
            {"rule": "missing-syncwarp", "file": "b.cu", "line": 50, "message": "m"},     # ignore row
            {"rule": "missing-syncwarp", "file": "b.cu", "line": 200, "message": "m"},    # outside
            {"rule": "full-mask-divergent", "file": "b.cu", "line": 7, "message": "m"},   # wrong rule
            {"rule": "missing-syncwarp", "file": "b.cu", "line": 71, "message": "m"},     # inactive region: not a FP
            {"rule": "legacy-intrinsic", "file": "b.cu", "line": 7, "message": "m"},      # other rule
        ], "errors": [{"file": "x.cu", "message": "e"}]}
        f2 = {"version": 1, "findings": [
            {"rule": "missing-syncwarp", "file": "src/helper.h", "line": 9, "message": "m",  # k7 via note
             "notes": [{"file": "./src/c.cu", "line": 3, "message": "the other access"}]},
        ]}
        p1, p2 = os.path.join(d, "t1.json"), os.path.join(d, "t2.json")
        for p, doc in ((p1, f1), (p2, f2)):
            with open(p, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
        trees, rows = load_catalog(cat)
        expect(trees["t1"]["iflags"] == "-I." and trees["t2"]["dir"] == "src", "tree lines")
        expect(len(rows) == 7, "row count %d" % len(rows))
        fa, nerr, _ = load_findings(p1, RULES)
        expect(len(fa) == 8 and nerr == 1, "findings filtered by rule")
        fb, _, _ = load_findings(p2, RULES)
        res = evaluate(rows, {"t1": fa, "t2": fb}, 3, False)
        found = {r["function"]: len(res["found"][id(r)]) for r in res["regions"]}
        expect(found == {"k1": 2, "k2": 1, "k3": 0, "k7": 1}, "found %r" % found)
        direct = sorted(r["function"] for r in res["regions"] if id(r) in res["direct"])
        expect(direct == ["k1", "k2"], "direct %r" % direct)
        expect([fd["line"] for _, fd, _ in res["on_clean"]] == [31], "on clean")
        expect(sorted(fd["line"] for _, fd in res["outside"]) == [7, 200], "outside %r" % res["outside"])
        res2 = evaluate(rows, {"t1": fa, "t2": fb}, 3, True)
        found2 = {r["function"]: len(res2["found"][id(r)]) for r in res2["regions"]}
        expect(found2.get("k4") == 1, "inactive region counted with --inactive")
        res3 = evaluate(rows, {"t1": fa, "t2": fb}, 0, False)
        found3 = {r["function"]: len(res3["found"][id(r)]) for r in res3["regions"]}
        expect(found3["k1"] == 1, "window 0 leaves line 17 out")
        with open(os.devnull, "w") as null:
            a, n = report(res, ["t1", "t2"], {}, 3, False, out=null)
        expect((a, n) == (3, 4), "totals %r" % ((a, n),))
        g = group_findings([("t", {"file": "f", "rule": "r", "line": n}) for n in (5, 1, 30, 9)])
        expect([(x[3], x[4], len(x[5])) for x in g] == [(1, 9, 3), (30, 30, 1)], "groups %r" % g)
        bad = os.path.join(d, "bad.tsv")
        for text in ("kind\tx\n", "\t".join(COLUMNS) + "\nregion\tt\tf\t9\t3\tk\tmissing-syncwarp\ts\tactive\tr\n",
                     "\t".join(COLUMNS) + "\nregion\tt\tf\t3\t3\tk\tno-rule\ts\tactive\tr\n"):
            with open(bad, "w", encoding="utf-8") as fh:
                fh.write(text)
            try:
                load_catalog(bad)
                fails.append("accepted a bad catalog: %r" % text[:40])
            except CatalogError:
                pass
    for f in fails:
        print("recall.py self-test: FAIL: " + f, file=sys.stderr)
    if not fails:
        print("recall.py self-test: ok")
    return 1 if fails else 0


def main(argv):
    window, inactive, rules = 3, False, RULES
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--self-test":
            return self_test()
        if a == "--check":
            if i + 1 >= len(argv):
                print("recall.py: --check needs a catalog", file=sys.stderr)
                return 2
            try:
                return check(argv[i + 1])
            except (OSError, CatalogError) as e:
                print("recall.py: %s" % e, file=sys.stderr)
                return 1
        if a == "--window":
            i += 1
            try:
                window = int(argv[i])
            except (IndexError, ValueError):
                print("recall.py: --window needs a number", file=sys.stderr)
                return 2
        elif a == "--inactive":
            inactive = True
        elif a == "--rules":
            i += 1
            rules = tuple(x for x in argv[i].split(",") if x) if i < len(argv) else ()
            if not rules or any(r not in RULES for r in rules):
                print("recall.py: --rules takes %s" % ",".join(RULES), file=sys.stderr)
                return 2
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            args.append(a)
        i += 1
    if len(args) < 2:
        print("usage: recall.py CATALOG TREE=FINDINGS.json [...] [--window N] [--inactive] "
              "[--rules R1,R2] | --check CATALOG | --self-test", file=sys.stderr)
        return 2
    pairs = []
    for a in args[1:]:
        tree, sep, path = a.partition("=")
        if not sep or not tree or not path:
            print("recall.py: expected TREE=FINDINGS.json, got %r" % a, file=sys.stderr)
            return 2
        pairs.append((tree, path))
    try:
        run(args[0], pairs, window, inactive, rules)
    except (OSError, ValueError, CatalogError) as e:
        print("recall.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
