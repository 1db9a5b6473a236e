#!/usr/bin/env bash
# Support bundles at size (issue 28): a generated cluster (kubewhy-bench gen) laid out as a
# troubleshoot.sh bundle — cluster-resources/<kind>/<ns>.json, nodes.json, each sampled pod's
# container log under cluster-resources/pods/logs/<ns>/<pod>/<container>.log, the node's
# journal, and what a bundle holds beside (another collector's logs, RBAC rules) — about 1 GB
# uncompressed, packed as a .tar.gz, a .tar.xz and a .tar.zst (CODECS). Measures, median of RUNS
# interleaved runs after one warm-up, for each codec:
#   tar xzf / tar xJf / tar --zstd -xf   the floor a support engineer pays before any tool runs
#   kubewhy scan --from .tar.*           straight from the archive
# and kubewhy scan --from DIR, the same bundle extracted; wall time and peak RSS
# (/usr/bin/time -v), and checks that every archive and the directory give the same findings.
# Results: bench/BUNDLE.md.
#
#   bash bench/bundle.sh                          # ~1 GB (PODS=40000 LOGS=20000)
#   PODS=2000 LOGS=500 RUNS=1 bash bench/bundle.sh
set -euo pipefail
cd "$(dirname "$0")/.."
PODS=${PODS:-40000}
NODES=${NODES:-$((PODS / 30))}
EVENTS=${EVENTS:-$((PODS * 2))}
LOGS=${LOGS:-20000}
RUNS=${RUNS:-3}
DATA=${DATA:-target/bench-bundle}
CODECS=${CODECS:-gz xz zst}
cargo build --release --quiet -p kubewhy -p kubewhy-bench
BIN=$PWD/target/release/kubewhy
rm -rf "$DATA" && mkdir -p "$DATA"
target/release/kubewhy-bench gen --nodes "$NODES" --pods "$PODS" --events "$EVENTS" --out "$DATA/gen" >/dev/null
# Collected at the generated cluster's own moment.
TOP=support-bundle-$(cut -c1-19 "$DATA/gen/now.txt" | tr : _)
python3 - "$DATA/gen/dump" "$DATA/$TOP" "$LOGS" <<'PY'
import json, os, random, sys
src, dst, logs = sys.argv[1], sys.argv[2], int(sys.argv[3])
cr = os.path.join(dst, "cluster-resources")
def put(rel, data):
    p = os.path.join(dst, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w" if isinstance(data, str) else "wb") as f:
        f.write(data)
put("version.yaml", "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nspec:\n  versionNumber: 0.62.1\n")
put("cluster-info/cluster_version.json", json.dumps({"info": {"major": "1", "minor": "20", "gitVersion": "v1.20.2"}, "string": "v1.20.2"}))
with open(os.path.join(src, "nodes.json"), "rb") as f:
    put("cluster-resources/nodes.json", f.read())
pods = []
for ns in sorted(os.listdir(src)):
    d = os.path.join(src, ns)
    if not os.path.isdir(d):
        continue
    for kind, name in [("pods", "pods.json"), ("events", "events.json"), ("pvcs", "pvcs.json")]:
        p = os.path.join(d, name)
        if os.path.exists(p):
            with open(p, "rb") as f:
                data = f.read()
            put(f"cluster-resources/{kind}/{ns}.json", data)
            if kind == "pods":
                for item in json.loads(data)["items"]:
                    c = item["spec"]["containers"][0]["name"]
                    pods.append((ns, item["metadata"]["name"], c))
    put(f"cluster-resources/auth-cani-list/{ns}.json", '[{"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}]\n')
random.seed(1)
line = '{"level":"info","ts":"2026-11-26T05:59:%02d.%03dZ","msg":"handled request","path":"/api/v1/items/%d","status":200,"duration_ms":%d}\n'
for i, (ns, pod, c) in enumerate(random.sample(pods, min(logs, len(pods)))):
    text = "".join(line % (j % 60, j % 1000, random.randrange(10**6), random.randrange(500)) for j in range(120))
    put(f"cluster-resources/pods/logs/{ns}/{pod}/{c}.log", text)
    if i % 10 == 0:
        put(f"app-logs/{pod}/{c}.log", text)
put("host-collectors/journald/kubelet.txt", "".join(
    f"Nov 26 05:59:{j % 60:02d} node-0 kubelet[812]: I1126 05:59:{j % 60:02d}.000000     812 kubelet.go:1{j % 1000:03d}] SyncLoop (PLEG): event for pod\n"
    for j in range(20000)))
PY
SIZE=$(du -sb "$DATA/$TOP" | cut -f1)
# tar's flag for each codec (xz with its default preset; zstd through the zstd program).
flag() { case $1 in gz) echo -z ;; xz) echo -J ;; zst) echo --zstd ;; bz2) echo -j ;; esac; }
for c in $CODECS; do
  tar -c "$(flag "$c")" -f "$DATA/bundle.tar.$c" -C "$DATA" "$TOP"
done
# The first codec's archive is the one the others and the directory are compared with.
FIRST=${CODECS%% *}
PACKED=$(stat -c %s "$DATA/bundle.tar.$FIRST")
FILES=$(find "$DATA/$TOP" -type f | wc -l)
rm -rf "$DATA/gen"

# measure LABEL CMD…: "label seconds rss_kb" on stdout.
measure() {
  local label=$1 t
  shift
  t=$(mktemp)
  local rc=0
  /usr/bin/time -v "$@" >/dev/null 2>"$t" || rc=$?
  # kubewhy exits 1 when it has findings.
  [ "$rc" -le 1 ] || { echo "$label failed ($rc):"; tail -5 "$t"; exit 1; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$t" | awk -F: '{ if (NF == 3) print $1*3600+$2*60+$3; else print $1*60+$2 }')
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$t")
  rm -f "$t"
  echo "$label $wall $rss"
}
untar() { rm -rf "$DATA/x" && mkdir -p "$DATA/x" && tar -x "$(flag "$1")" -f "$DATA/bundle.tar.$1" -C "$DATA/x"; }
cat "$DATA"/bundle.tar.* >/dev/null
measure warmup "$BIN" scan --from "$DATA/bundle.tar.$FIRST" -A -o json >/dev/null
RESULTS=$(mktemp)
for _ in $(seq "$RUNS"); do
  for c in $CODECS; do
    measure "untar-$c" bash -c "$(declare -f flag untar); DATA=$DATA untar $c" >>"$RESULTS"
    measure "scan-tar.$c" "$BIN" scan --from "$DATA/bundle.tar.$c" -A -o json >>"$RESULTS"
  done
  measure "scan-directory" "$BIN" scan --from "$DATA/x/$TOP" -A -o json >>"$RESULTS"
done
for c in $CODECS; do
  { "$BIN" scan --from "$DATA/bundle.tar.$c" -A -o json 2>/dev/null || true; } | python3 -c 'import json,sys; [print(c, n) for c, n in sorted((f["cause"], len(f["objects"])) for f in json.load(sys.stdin)["findings"])]' >"$DATA/archive-$c.causes"
  cmp -s "$DATA/archive-$FIRST.causes" "$DATA/archive-$c.causes" || { echo "the .tar.$c and the .tar.$FIRST disagree"; exit 1; }
  echo "tar.$c: $(( $(stat -c %s "$DATA/bundle.tar.$c") / 1048576 )) MiB"
done
{ "$BIN" scan --from "$DATA/bundle.tar.$FIRST" -A -o json 2>"$DATA/archive.err" || true; } | python3 -c 'import json,sys; [print(c, n) for c, n in sorted((f["cause"], len(f["objects"])) for f in json.load(sys.stdin)["findings"])]' >"$DATA/archive.causes"
{ "$BIN" scan --from "$DATA/x/$TOP" -A -o json 2>/dev/null || true; } | python3 -c 'import json,sys; [print(c, n) for c, n in sorted((f["cause"], len(f["objects"])) for f in json.load(sys.stdin)["findings"])]' >"$DATA/dir.causes"
cmp -s "$DATA/archive.causes" "$DATA/dir.causes" || { echo "the archive and the directory disagree"; diff "$DATA/archive.causes" "$DATA/dir.causes" | head; exit 1; }
echo "bundle: $FILES files, $((SIZE / 1048576)) MiB uncompressed, $((PACKED / 1048576)) MiB as .tar.$FIRST; $(grep -c . "$DATA/archive.causes") findings, the same from the archive and the directory"
head -1 "$DATA/archive.err"
echo "| what | median s | median peak RSS MiB |"
echo "|---|---:|---:|"
for l in $(for c in $CODECS; do echo "untar-$c scan-tar.$c"; done) scan-directory; do
  grep "^$l " "$RESULTS" | sort -k2 -n | awk -v n="$RUNS" -v l="$l" '{w[NR]=$2; r[NR]=$3} END {m=int((n+1)/2); printf "| %s | %.2f | %d |\n", l, w[m], r[m]/1024}'
done
rm -f "$RESULTS"
