#!/usr/bin/env python3
"""Checks gathered cases and deals them into blind batches, without showing their content.

    scripts/wild-intake.py STAGING_DIR... --out batches.json [--size 46] [--drop DIR ...]

Each STAGING_DIR holds case directories (NN-name/ with input.txt and expected.json, as
tests/fixtures/wild-staged/GATHERING.md asks gatherers to write them). Every case is checked by script:
the two files and nothing else, the fields, a state of the seven, a cause slug of
docs/CAUSES.md, the key line inside input.txt, a source not already in tests/fixtures/wild
with the same key, no input seen twice. Cases that fail are listed with the reason (not their
text) and left out. The rest are shuffled by a hash of their source (fixed, not chosen) and
dealt into batches of SIZE, written to --out; nothing of their inputs is printed, so the first
score of each batch is blind. `wild-score.py` scores a batch, `wild-add.py`-style numbering
happens when a batch is admitted (`wild-score.py --admit`).
"""
import argparse, hashlib, json, os, re, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
wild = os.path.join(root, "tests", "fixtures", "wild")
states = {"pending", "not-starting", "crashing", "terminating", "namespace", "gone", "node"}
slugs = set(re.findall(r"^\| `([a-z0-9-]+)`", open(os.path.join(root, "docs", "CAUSES.md")).read(), re.M))

ap = argparse.ArgumentParser()
ap.add_argument("staging", nargs="+")
ap.add_argument("--out", required=True)
ap.add_argument("--size", type=int, default=46)
ap.add_argument("--drop", action="append", default=[], help="a case directory to leave out, with the reason after '='")
a = ap.parse_args()

known = set()
for d in os.listdir(wild):
    p = os.path.join(wild, d, "expected.json")
    if os.path.exists(p):
        e = json.load(open(p))
        known.add((e["source"], e["key"]))
dropped = dict(x.split("=", 1) if "=" in x else (x, "left out by hand") for x in a.drop)
cases, refused, inputs = [], [], set()
for s in a.staging:
    for d in sorted(os.listdir(s)):
        path = os.path.join(s, d)
        if not os.path.isdir(path):
            continue
        why = None
        files = sorted(os.listdir(path))
        rel = os.path.relpath(path, os.path.dirname(os.path.abspath(s)))
        if rel in dropped:
            refused.append((rel, dropped[rel]))
            continue
        if files != ["expected.json", "input.txt"]:
            why = f"files {files}"
        else:
            try:
                e = json.load(open(os.path.join(path, "expected.json")))
                text = open(os.path.join(path, "input.txt"), encoding="utf-8").read()
            except Exception as x:
                why = f"unreadable: {x}"
            else:
                for k in ("source", "state", "cause", "key", "established"):
                    if not isinstance(e.get(k), str) or not e[k].strip():
                        why = why or f"field {k} missing"
                if why is None:
                    if e["state"] not in states:
                        why = f"state {e['state']!r}"
                    elif e["cause"] not in slugs:
                        why = f"cause {e['cause']!r} is no slug"
                    elif any(x not in slugs for x in e.get("also", [])):
                        why = f"also {e.get('also')} has no slug"
                    elif not any(e["key"] in line for line in text.split("\n")):
                        why = "key not in one line of input.txt"
                    elif (e["source"], e["key"]) in known:
                        why = "already in the corpus"
                    elif hashlib.sha256(text.strip().encode()).hexdigest() in inputs:
                        why = "the same input twice"
                    elif not re.match(r"^https?://", e["source"]):
                        why = "source is no URL"
        if why:
            refused.append((rel, why))
            continue
        inputs.add(hashlib.sha256(text.strip().encode()).hexdigest())
        known.add((e["source"], e["key"]))
        cases.append(os.path.abspath(path))

cases.sort(key=lambda p: hashlib.sha256(json.load(open(os.path.join(p, "expected.json")))["source"].encode() + p.encode()).hexdigest())
batches = [cases[i:i + a.size] for i in range(0, len(cases), a.size)]
if len(batches) > 1 and len(batches[-1]) < a.size * 0.87:
    batches[-2].extend(batches.pop())
json.dump({"batches": batches, "refused": refused}, open(a.out, "w"), indent=1)
print(f"{len(cases)} cases in {len(batches)} batches of {[len(b) for b in batches]}; {len(refused)} left out:")
for r, why in refused:
    print(f"  {r}: {why}")
