#!/usr/bin/env bash
# Node evidence at size: a kubelet log of SIZE_MB (default 200) made of the real 1.20 kubelet
# lines in tests/fixtures/node (an outage of containerd, a busy mount), read with the busy-mount
# pod's state. Prints wall time, peak RSS and the finding; the answer must not change with size.
set -euo pipefail
cd "$(dirname "$0")/.."
SIZE_MB=${SIZE_MB:-200}
BIN=${BIN:-target/release/kubewhy}
[ -x "$BIN" ] || cargo build --release -p kubewhy
LOG=$(mktemp --suffix=.log)
trap 'rm -f "$LOG"' EXIT
python3 - "$LOG" "$SIZE_MB" <<'PY'
import sys
out, size = sys.argv[1], int(sys.argv[2]) * 1024 * 1024
parts = [open(f"tests/fixtures/node/{p}/kubelet.log").read() for p in ("runtime-down", "busy-mount")]
with open(out, "w") as f:
    while f.tell() < size:
        for p in parts:
            f.write(p)
PY
F=tests/fixtures/node/busy-mount
/usr/bin/time -v "$BIN" scan --from "$F/pods.json" --from "$F/nodes.json" --node-logs "$LOG" \
  -o json --fail-on never 2>"$LOG.time" >"$LOG.json"
printf 'log: %s MiB, %s lines\n' "$(( $(stat -c %s "$LOG") / 1048576 ))" "$(wc -l <"$LOG")"
grep -E "Elapsed|Maximum resident" "$LOG.time"
python3 -c "
import json,sys
d = json.load(open(sys.argv[1]))
print('findings:', [(f['cause'], f['evidence'][0]['source']) for f in d['findings']])" "$LOG.json"
rm -f "$LOG.time" "$LOG.json"
