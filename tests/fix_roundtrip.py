#!/usr/bin/env python3
"""fix_roundtrip.py - a mutation loop over fixtures/ and examples/ that checks
two properties of the automatic fixes on every mutant:

  1. `--fix` writes exactly what `--diff` printed (the diff applied with
     `patch -p1` equals the file after --fix);
  2. a second `--fix` changes nothing.

Mutations are deterministic (seeded): legacy intrinsics put back in place of
their _sync forms, one intrinsic swapped for another, a line deleted,
duplicated or joined with the next, indentation changed, Windows line ends,
no newline at the end of the file. Each mutant is run in
its own directory; a failing mutant is kept (with --keep DIR) for a
regression test.

Usage: fix_roundtrip.py WARPLINT SOURCE_DIR [--cases N] [--seed S] [--keep DIR]
Exit status: 0 when every mutant has both properties, 1 otherwise.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

LEGACY = ["__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any", "__all"]
SYNC = re.compile(r"\b(__shfl(?:_up|_down|_xor)?|__ballot|__any|__all)_sync\(\s*[^,()]+,\s*")


def sources(src):
    out = []
    for top in ("fixtures", "examples"):
        for dirpath, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if f.endswith((".cu", ".cuh")):
                    out.append(os.path.join(dirpath, f))
    return sorted(out)


def mutate(text, rng):
    lines = text.split("\n")
    kind = rng.randrange(10)
    if kind == 7:  # Windows line ends
        return text.replace("\n", "\r\n"), "crlf"
    if kind == 8:  # no newline at the end of the file
        return text.rstrip("\n"), "noeol"
    if kind == 9 and SYNC.search(text):  # legacy forms, then no newline at the end
        return SYNC.sub(lambda m: m.group(1) + "(", text).rstrip("\n"), "unsync-noeol"
    if kind == 0 and SYNC.search(text):  # back to the legacy form
        return SYNC.sub(lambda m: m.group(1) + "(", text, count=rng.randrange(1, 4)), "unsync"
    if kind == 1:  # one intrinsic for another
        hits = [m for m in re.finditer(r"\b__(shfl(_up|_down|_xor)?|ballot|any|all)\b", text)]
        if hits:
            m = rng.choice(hits)
            return text[: m.start()] + rng.choice(LEGACY) + text[m.end():], "swap"
    if len(lines) < 3:
        return text + "\n", "newline"
    i = rng.randrange(len(lines) - 1)
    if kind == 2:
        del lines[i]
        return "\n".join(lines), "delete"
    if kind == 3:
        lines.insert(i, lines[i])
        return "\n".join(lines), "duplicate"
    if kind == 4:
        lines[i] = lines[i] + " " + lines[i + 1].lstrip()
        del lines[i + 1]
        return "\n".join(lines), "join"
    if kind == 5:
        lines = [("\t" + l.lstrip()) if l.startswith("  ") and rng.random() < 0.5 else l for l in lines]
        return "\n".join(lines), "tabs"
    # an intrinsic call under a lane-dependent branch
    lines.insert(i, "if (threadIdx.x & 1) { int q_ = __shfl_xor(0, 1); (void)q_; }")
    return "\n".join(lines), "branch"


def run(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=60)


def check(wl, name, text, work):
    """Returns None when both properties hold, else what failed."""
    d = os.path.join(work, "m")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    fixed_dir = os.path.join(d, "fixed")
    patched_dir = os.path.join(d, "patched")
    for sub in (fixed_dir, patched_dir):
        os.makedirs(sub)
        with open(os.path.join(sub, name), "w", newline="") as f:
            f.write(text)
    # bytes: the diff of a file with Windows line ends keeps its '\r's
    diff = subprocess.run([wl, "--diff", name], cwd=patched_dir, capture_output=True, timeout=60)
    if diff.returncode not in (0, 1):
        return None  # not fixable input (parse error, ...): nothing to compare
    if diff.stdout:
        p = subprocess.run(["patch", "-s", "-p1"], cwd=patched_dir, input=diff.stdout,
                           capture_output=True)
        if p.returncode != 0:
            return "the --diff output does not apply: " + (p.stdout + p.stderr).decode(errors="replace")[:300]
    fix1 = run([wl, "--fix", name], fixed_dir)
    if fix1.returncode == 2 and "error" in fix1.stderr:
        return "--fix failed: " + fix1.stderr[:300]
    with open(os.path.join(fixed_dir, name), newline="") as f:
        after1 = f.read()
    with open(os.path.join(patched_dir, name), newline="") as f:
        patched = f.read()
    if after1 != patched:
        return "--fix and --diff disagree"
    fix2 = run([wl, "--fix", name], fixed_dir)
    with open(os.path.join(fixed_dir, name), newline="") as f:
        after2 = f.read()
    if after2 != after1:
        return "a second --fix changed the file: " + fix2.stderr[:200]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("warplint")
    ap.add_argument("source_dir")
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--keep", default=None)
    a = ap.parse_args()
    wl = os.path.abspath(a.warplint)
    if not shutil.which("patch"):
        print("fix_roundtrip: patch not found; skipped")
        return 77
    files = sources(a.source_dir)
    rng = random.Random(a.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        for n in range(a.cases):
            path = files[n % len(files)] if n < len(files) else rng.choice(files)
            with open(path) as f:
                text = f.read()
            text, kind = mutate(text, rng)
            name = os.path.basename(path)
            why = check(wl, name, text, work)
            if why:
                failures += 1
                rel = os.path.relpath(path, a.source_dir)
                print(f"FAIL: case {n} ({rel}, {kind}): {why}")
                if a.keep:
                    os.makedirs(a.keep, exist_ok=True)
                    with open(os.path.join(a.keep, f"case{n}_{kind}_{name}"), "w", newline="") as f:
                        f.write(text)
    print(f"fix_roundtrip: {a.cases} mutants, {failures} failing")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
