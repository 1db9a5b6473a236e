#!/usr/bin/env python3
"""Adds cases to the corpus of real pastes (tests/fixtures/wild/).

Reads blocks from standard input:

    === short-name
    source: https://github.com/owner/repo/issues/N
    state: pending|not-starting|crashing|terminating|namespace|gone|node
    cause: <slug from ../shared/CAUSES.md>
    key: <the line of the paste that shows the cause>
    kubernetes: <version the thread gives, or "">
    established: <who established the cause in the thread, and how>
    --- input
    <what the user pasted, verbatim>

Each case becomes NNN-short-name/ with input.txt and expected.json; NNN continues the
numbering. Every case whose NNN is a multiple of 3 is held out (the rule was fixed before the
first case was collected), so a third of the corpus is measured only at the end.
"""
import json, os, re, sys

root = os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures", "wild")
os.makedirs(root, exist_ok=True)
taken = [int(re.match(r"^(\d+)-", d).group(1)) for d in os.listdir(root) if re.match(r"^\d{3,}-", d)]
n = max(taken, default=0)
text = sys.stdin.read()
for block in re.split(r"^=== ", text, flags=re.M)[1:]:
    head, _, body = block.partition("\n--- input\n")
    lines = head.split("\n")
    name = lines[0].strip()
    meta = {}
    for l in lines[1:]:
        if ":" in l:
            k, _, v = l.partition(":")
            meta[k.strip()] = v.strip()
    for k in ("source", "state", "cause", "key"):
        assert meta.get(k), f"{name}: {k} missing"
    assert meta["key"] in body, f"{name}: key line not in input: {meta['key']!r}"
    if any(meta["source"] == json.load(open(os.path.join(root, d, "expected.json")))["source"]
           and json.load(open(os.path.join(root, d, "expected.json")))["key"] == meta["key"]
           for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))):
        print(f"skip duplicate {name}", file=sys.stderr)
        continue
    n += 1
    d = os.path.join(root, f"{n:03}-{name}")
    os.makedirs(d)
    with open(os.path.join(d, "input.txt"), "w") as f:
        f.write(body.rstrip("\n") + "\n")
    exp = {
        "source": meta["source"],
        "state": meta["state"],
        "cause": meta["cause"],
        "key": meta["key"],
        "kubernetes": meta.get("kubernetes", ""),
        "established": meta.get("established", ""),
        "held_out": n % 3 == 0,
    }
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(exp, f, indent=2, ensure_ascii=False)
        f.write("\n")
    print(d)
