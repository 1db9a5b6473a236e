#!/usr/bin/env python3
"""Admits one blind batch of gathered pastes into tests/fixtures/wild and scores it once.

    scripts/wild-score.py BATCHES_JSON N [--kubewhy PATH]

Batch N of BATCHES_JSON (written by wild-intake.py) is copied into tests/fixtures/wild/ as
NNN-name/ (numbering continues; every NNN that is a multiple of 3 is held out, the corpus's
rule), each expected.json gaining "batch": N and "held_out". Then every case is run as a user
would (`kubewhy scan -o json --now 2026-11-25T00:00:00Z --from input.txt`, and the text report)
and scored: top-1 (the first finding names the thread's cause), among the findings, exit code 2,
`(unknown)` anywhere in the report. The figures go to tests/fixtures/wild/BATCHES.md (the
learning curve: each batch scored once, before any change made for it). Misses are printed for
the developed part only: the held-out third is counted, never shown.
"""
import json, os, re, shutil, subprocess, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
wild = os.path.join(root, "tests", "fixtures", "wild")
NOW = "2026-11-25T00:00:00Z"
args = sys.argv[1:]
kw = os.path.join(root, "target", "debug", "kubewhy")
if "--kubewhy" in args:
    i = args.index("--kubewhy"); kw = args[i + 1]; del args[i:i + 2]
batches, n = json.load(open(args[0]))["batches"], int(args[1])
cases = batches[n - 1]
taken = [int(re.match(r"^(\d+)-", d).group(1)) for d in os.listdir(wild) if re.match(r"^\d{3,}-", d)]
num = max(taken)
admitted = []
for src in cases:
    if any(json.load(open(os.path.join(wild, d, "expected.json"))).get("staged") == src
           for d in os.listdir(wild) if os.path.exists(os.path.join(wild, d, "expected.json"))):
        sys.exit(f"batch {n} was admitted already: scores are taken once")
for src in cases:
    num += 1
    name = re.sub(r"^\d+-", "", os.path.basename(src))[:60].rstrip("-")
    dst = os.path.join(wild, f"{num:03d}-{name}")
    os.makedirs(dst)
    shutil.copy(os.path.join(src, "input.txt"), os.path.join(dst, "input.txt"))
    e = json.load(open(os.path.join(src, "expected.json")))
    e["held_out"] = num % 3 == 0
    e["batch"] = n
    e["staged"] = src
    json.dump(e, open(os.path.join(dst, "expected.json"), "w"), indent=2)
    open(os.path.join(dst, "expected.json"), "a").write("\n")
    admitted.append(dst)

rows, misses = [], []
for d in admitted:
    e = json.load(open(os.path.join(d, "expected.json")))
    inp = os.path.join(d, "input.txt")
    r = subprocess.run([kw, "scan", "-o", "json", "--now", NOW, "--from", inp], capture_output=True, text=True)
    t = subprocess.run([kw, "scan", "--now", NOW, "--from", inp], capture_output=True, text=True)
    try:
        v = json.loads(r.stdout)
        causes = [f["cause"] for f in v["findings"]]
    except Exception:
        causes = []
    top1 = bool(causes) and causes[0] == e["cause"]
    among = e["cause"] in causes
    unknown = "(unknown)" in t.stdout
    rows.append(dict(held=e["held_out"], state=e["state"], top1=top1, among=among, exit2=r.returncode == 2, unknown=unknown))
    if not top1 and not e["held_out"]:
        misses.append(f"  {os.path.basename(d)} [{e['state']}]: want {e['cause']}, got {causes[:3] or 'nothing'}{' (exit 2)' if r.returncode == 2 else ''}")

def fig(rs):
    if not rs:
        return "-"
    return f"{sum(r['top1'] for r in rs)}/{len(rs)} ({100 * sum(r['top1'] for r in rs) // len(rs)} %)"
dev = [r for r in rows if not r["held"]]
held = [r for r in rows if r["held"]]
line = (f"| {n} | {len(rows)} | {fig(rows)} | {fig(dev)} | {fig(held)} | {sum(r['among'] for r in rows)} | "
        f"{sum(r['unknown'] for r in rows)} | {sum(r['exit2'] for r in rows)} |")
md = os.path.join(wild, "BATCHES.md")
if not os.path.exists(md):
    open(md, "w").write(
        "# Blind batches of the wild corpus\n\n"
        "Each batch was gathered by helpers who never saw the code, checked by `scripts/wild-intake.py`,\n"
        "and scored once by `scripts/wild-score.py` before any change was made for it: the figure below\n"
        "is that first score. Top-1: the first finding names the cause the thread established. The\n"
        "held-out third (case numbers divisible by 3) is never looked at when fixing.\n\n"
        "| batch | cases | top-1 | developed part | held-out part | cause among findings | reports with `(unknown)` | exit 2 |\n"
        "|---|---|---|---|---|---|---|---|\n")
open(md, "a").write(line + "\n")
print(line)
print(f"misses in the developed part ({len(misses)}):")
print("\n".join(misses))
