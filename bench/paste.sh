#!/usr/bin/env bash
# Pasted text at size: one paste of COPIES (default 5000) copies of the real scenarios' pasted
# kubectl output (describe of pods, workloads, namespaces and nodes, get events, get pods, from
# kubectl 1.20 and a current kubectl), each copy in its own namespace, as a `$ kubectl -n NS`
# session would show it. Prints its size, wall time and peak RSS, and the objects affected per
# cause, which grow with the copies (every copy is diagnosed like the first).
set -euo pipefail
cd "$(dirname "$0")/.."
COPIES=${COPIES:-5000}
BIN=${BIN:-target/release/kubewhy}
[ -x "$BIN" ] || cargo build --release -p kubewhy
PASTE=$(mktemp --suffix=.txt)
trap 'rm -f "$PASTE" "$PASTE.time" "$PASTE.json"' EXIT
[ -n "${KEEP:-}" ] && trap 'cp "$PASTE" "$KEEP"; rm -f "$PASTE" "$PASTE.time" "$PASTE.json"' EXIT
python3 - "$PASTE" "$COPIES" <<'PY'
import sys, glob, os, json
out, copies = sys.argv[1], int(sys.argv[2])
scenarios = []
for d in sorted(glob.glob("tests/fixtures/real/*/paste")):
    ns = json.load(open(os.path.join(os.path.dirname(d), "expected.json")))["namespace"]
    parts = [open(os.path.join(d, f)).read() for f in ("describe-1.20.txt", "events-new.txt", "pods-1.20.txt")]
    scenarios.append((ns, parts))
with open(out, "w") as f:
    for i in range(copies):
        ns, parts = scenarios[i % len(scenarios)]
        copy = f"{ns}-{i}"
        for p in parts:
            f.write(f"$ kubectl -n {copy} get all\n")
            f.write(p.replace(ns, copy))
PY
NOW=$(python3 -c "import json; print(json.load(open('tests/fixtures/real/cpu/expected.json'))['now'])")
/usr/bin/time -v "$BIN" scan --from "$PASTE" --now "$NOW" -o json --fail-on never \
  2>"$PASTE.time" >"$PASTE.json"
printf 'paste: %s MiB, %s lines\n' "$(( $(stat -c %s "$PASTE") / 1048576 ))" "$(wc -l <"$PASTE")"
grep -E "Elapsed|Maximum resident" "$PASTE.time"
# Peak memory against the paste's size (the target: at most 4x at size), and the process's floor
# (an empty paste) that dominates small pastes.
echo 'x' >"$PASTE.empty"
/usr/bin/time -v "$BIN" scan --from "$PASTE.empty" -o json --fail-on never 2>"$PASTE.floor" >/dev/null || true
python3 -c "
import re,sys,os
rss = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', open(sys.argv[1]).read()).group(1))
floor = int(re.search(r'Maximum resident set size \(kbytes\): (\d+)', open(sys.argv[2]).read()).group(1))
size = os.path.getsize(sys.argv[3]) / 1024
print(f'memory: {rss/size:.2f}x the paste ({(rss-floor)/size:.2f}x above the {floor/1024:.0f} MB floor)')" "$PASTE.time" "$PASTE.floor" "$PASTE"
rm -f "$PASTE.empty" "$PASTE.floor"
python3 -c "
import json,sys
d = json.load(open(sys.argv[1]))
by = {}
for f in d['findings']:
    by[f['cause']] = by.get(f['cause'], 0) + len(f['objects'])
print('objects per cause:', dict(sorted(by.items())), 'unexplained:', d['summary']['unexplained'])" "$PASTE.json"
