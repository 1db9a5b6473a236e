#!/usr/bin/env python3
"""Live-cluster benchmark of kubewhy on the real cluster of ../shared/realcluster.

For each size (pods created through the API, Pending: they select a node label nobody has; with
`--events N`, the default, no scheduler serves them and each gets exactly N FailedScheduling events
in the scheduler's wording, so that the memory per pod is measured at a known number of events):
  * requests per `kubewhy scan -A`, counted from the API server's audit log (the API server is
    restarted with a policy that records every request of a dedicated service account, and
    restored afterwards);
  * the scan's wall time against `kubectl get pods -A -o json` (same account, median of 3);
  * `kubewhy watch`: resident memory once every watch holds the cluster; the difference between
    sizes divided by the difference in pods is the memory per watched pod.

    bench/live.py [--sizes 500,5000] [--events 2] [--kubewhy target/release/kubewhy] [--out bench/LIVE.md]

Needs a running cluster (../shared/realcluster: build.sh && up.sh) and root (the restart).
Targets (issue 7): requests per scan constant; scan within 1.5x of that kubectl call; under 2 KB
of resident memory per watched pod.
"""

import argparse
import base64
import json
import os
import signal
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SA = "kubewhy-bench"
USER = f"system:serviceaccount:{SA}:{SA}"
NAMESPACES = 10


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


class Api:
    """Plain HTTPS to the API server with the admin's client certificate (no kubectl: 5000
    POSTs through kubectl's client-side rate limit would take minutes)."""

    def __init__(self, kubeconfig):
        cfg = yaml_like(kubeconfig)
        self.server = cfg["server"]
        self.tmp = tempfile.mkdtemp(prefix="kubewhy-bench-")
        files = {}
        for key in ("certificate-authority-data", "client-certificate-data", "client-key-data"):
            path = os.path.join(self.tmp, key)
            with open(path, "wb") as f:
                f.write(base64.b64decode(cfg[key]))
            files[key] = path
        self.ca = files["certificate-authority-data"]
        self.ctx = ssl.create_default_context(cafile=self.ca)
        self.ctx.load_cert_chain(files["client-certificate-data"], files["client-key-data"])

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, context=self.ctx, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()


def yaml_like(path):
    """The few scalar fields of a kubeconfig this script needs (no YAML library needed)."""
    out = {}
    for line in open(path):
        line = line.strip()
        for key in ("server", "certificate-authority-data", "client-certificate-data", "client-key-data"):
            if line.startswith(key + ":"):
                out.setdefault(key, line.split(":", 1)[1].strip())
    return out


def pod(ns, i, scheduler=None):
    """A pod shaped like a Deployment's: owner-like labels, env names, resources, probes."""
    p = {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": f"web-{i:06d}",
            "namespace": ns,
            "labels": {"app": "web", "tier": "frontend", "release": "stable", "pod-template-hash": "5d8f7c9b6"},
            "annotations": {"kubewhy.dev/bench": "true", "prometheus.io/scrape": "true"},
        },
        "spec": {
            "nodeSelector": {"kubewhy-bench": "no-such-node"},
            "containers": [
                {
                    "name": "app",
                    "image": "localhost:5000/tools/busybox:1",
                    "command": ["sleep", "3600"],
                    "env": [{"name": f"SETTING_{k}", "value": "x"} for k in range(8)],
                    "ports": [{"containerPort": 8080, "name": "http"}],
                    "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
                    "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}},
                    "volumeMounts": [{"name": "cache", "mountPath": "/cache"}],
                }
            ],
            "volumes": [{"name": "cache", "emptyDir": {}}],
        },
    }
    if scheduler:
        p["spec"]["schedulerName"] = scheduler
    return p


# The scheduler's own words for these pods (kube-scheduler 1.20, one node).
FAILED_SCHEDULING = "0/1 nodes are available: 1 node(s) didn't match node selector."


def ensure_events(api, per_pod):
    """Gives every bench pod `per_pod` FailedScheduling events as the scheduler writes them
    (names `<pod>.<16 hex digits>`, the pod's uid, source default-scheduler)."""
    t = time.time()
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    work = []
    for n in range(NAMESPACES):
        ns = f"bench-{n}"
        code, body = api.call("GET", f"/api/v1/namespaces/{ns}/pods")
        if code != 200:
            raise RuntimeError(f"listing pods of {ns}: HTTP {code}")
        for item in json.loads(body)["items"]:
            for k in range(per_pod):
                work.append((ns, item["metadata"]["name"], item["metadata"]["uid"], k))

    def create(w):
        ns, name, uid, k = w
        event = {
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": f"{name}.{int(uid.replace('-', '')[-12:], 16) << 4 | k:016x}", "namespace": ns},
            "involvedObject": {"kind": "Pod", "namespace": ns, "name": name, "uid": uid, "apiVersion": "v1"},
            "reason": "FailedScheduling", "message": FAILED_SCHEDULING, "type": "Warning",
            "source": {"component": "default-scheduler"},
            "firstTimestamp": now, "lastTimestamp": now, "count": 1,
        }
        code, body = api.call("POST", f"/api/v1/namespaces/{ns}/events", event)
        if code not in (201, 409):
            raise RuntimeError(f"creating event {w}: HTTP {code} {body[:200]!r}")

    with ThreadPoolExecutor(16) as ex:
        list(ex.map(create, work))
    log(f"{per_pod} events for each pod ({time.time() - t:.0f} s)")


def ensure_pods(api, total, scheduler=None):
    """Creates pods until the bench namespaces hold `total`."""
    per = total // NAMESPACES
    work = []
    for n in range(NAMESPACES):
        ns = f"bench-{n}"
        api.call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
        for i in range(per):
            work.append((ns, i))
    t = time.time()

    def create(w):
        for _ in range(60):
            code, body = api.call("POST", f"/api/v1/namespaces/{w[0]}/pods", pod(*w, scheduler))
            # A new namespace's service account gets its token Secret moments later (1.20).
            if code == 500 and b"No API token found" in body:
                time.sleep(0.5)
                continue
            break
        if code not in (201, 409):
            raise RuntimeError(f"creating pod {w}: HTTP {code} {body[:200]!r}")

    # The namespaces' default service accounts must exist before pods can be admitted.
    for n in range(NAMESPACES):
        for _ in range(100):
            code, _ = api.call("GET", f"/api/v1/namespaces/bench-{n}/serviceaccounts/default")
            if code == 200:
                break
            time.sleep(0.2)
    with ThreadPoolExecutor(16) as ex:
        list(ex.map(create, work))
    log(f"{total} pods present ({time.time() - t:.0f} s to create what was missing)")


def kubectl(args, kubeconfig, kubectl_bin, stdin=None, check=True):
    r = subprocess.run([kubectl_bin, "--kubeconfig", kubeconfig] + args, input=stdin, capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f"kubectl {' '.join(args)}: {r.stderr}")
    return r.stdout


def bench_kubeconfig(admin, kubectl_bin, tmp):
    """A kubeconfig for the bench's own service account (cluster-admin: it reads everything a
    scan reads), so its requests can be told apart in the audit log."""
    kubectl(["apply", "-f", "-"], admin, kubectl_bin, stdin=f"""
apiVersion: v1
kind: Namespace
metadata: {{name: {SA}}}
---
apiVersion: v1
kind: ServiceAccount
metadata: {{name: {SA}, namespace: {SA}}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {{name: {SA}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}}
subjects: [{{kind: ServiceAccount, name: {SA}, namespace: {SA}}}]
""")
    for _ in range(100):
        secret = kubectl(["-n", SA, "get", "sa", SA, "-o", "jsonpath={.secrets[0].name}"], admin, kubectl_bin, check=False)
        if secret:
            break
        time.sleep(0.3)
    token = base64.b64decode(kubectl(["-n", SA, "get", "secret", secret, "-o", "jsonpath={.data.token}"], admin, kubectl_bin)).decode()
    cfg = yaml_like(admin)
    path = os.path.join(tmp, "bench.kubeconfig")
    with open(path, "w") as f:
        f.write(f"""apiVersion: v1
kind: Config
clusters:
- name: bench
  cluster: {{server: "{cfg['server']}", certificate-authority-data: {cfg['certificate-authority-data']}}}
users:
- name: bench
  user: {{token: "{token}"}}
contexts:
- name: bench
  context: {{cluster: bench, user: bench, namespace: default}}
current-context: bench
""")
    return path


class Apiserver:
    """Restarts kube-apiserver with an audit policy that also records every request of the
    bench's account, and restores the original command line afterwards."""

    def __init__(self, state, kubeconfig, kubectl_bin):
        self.state, self.kubeconfig, self.kubectl = state, kubeconfig, kubectl_bin
        self.pidfile = os.path.join(state, "pids", "kube-apiserver.pid")
        self.original = None
        self.audit = os.path.join(state, "logs", "audit.log")

    def _running(self):
        lines = open(self.pidfile).read().split("\n")
        pid = int(lines[0])
        args = [a.decode() for a in open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0") if a]
        return pid, lines[1] if len(lines) > 1 else "", args

    def _restart(self, args):
        pid, exe, _ = self._running()
        os.kill(pid, signal.SIGTERM)
        t = time.time()
        while alive(pid):
            if time.time() - t > 30:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.2)
        logf = open(os.path.join(self.state, "logs", "kube-apiserver.log"), "a")
        child = subprocess.Popen(["setsid"] + args, stdin=subprocess.DEVNULL, stdout=logf, stderr=logf)
        with open(self.pidfile, "w") as f:
            f.write(f"{child.pid}\n{exe}\n")
        t = time.time()
        while kubectl_ok(self.kubectl, self.kubeconfig) is False:
            if time.time() - t > 90:
                raise RuntimeError("the API server is not ready 90 s after its restart")
            time.sleep(0.5)

    def record_bench_account(self):
        _, _, args = self._running()
        self.original = args
        policy = os.path.join(self.state, "audit-policy-bench.yaml")
        with open(policy, "w") as f:
            f.write(f"""apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived"]
rules:
- level: Metadata
  users: ["{USER}"]
- level: Metadata
  verbs: ["delete", "deletecollection"]
  resources:
  - group: ""
    resources: ["pods", "namespaces"]
- level: None
""")
        args = [a for a in args if not a.startswith("--audit-policy-file=")]
        args.append(f"--audit-policy-file={policy}")
        log("restarting kube-apiserver with an audit policy that records the bench account")
        self._restart(args)

    def restore(self):
        if self.original:
            log("restoring kube-apiserver's original flags")
            self._restart(self.original)

    def count(self, since_line):
        """Requests of the bench account logged after `since_line`, by user agent prefix."""
        counts = {}
        with open(self.audit) as f:
            for n, line in enumerate(f):
                if n < since_line:
                    continue
                try:
                    e = json.loads(line)
                except ValueError:
                    continue
                if e.get("user", {}).get("username") != USER or e.get("stage") != "ResponseComplete":
                    continue
                agent = e.get("userAgent", "").split("/")[0]
                counts[agent] = counts.get(agent, 0) + 1
        return counts

    def lines(self):
        with open(self.audit) as f:
            return sum(1 for _ in f)


def alive(pid):
    """Whether `pid` still runs: a zombie (a child of this script after an earlier restart that
    exited) is reaped and counts as gone."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    except ChildProcessError:
        pass
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def kubectl_ok(kubectl_bin, kubeconfig):
    r = subprocess.run([kubectl_bin, "--kubeconfig", kubeconfig, "get", "--raw", "/readyz"], capture_output=True)
    return r.returncode == 0


def timed(cmd, env=None):
    t = time.time()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    took = time.time() - t
    if r.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)}: exit {r.returncode}: {r.stderr.decode()[-500:]}")
    return took


def watch_rss(kubewhy, kubeconfig, pods, record=None):
    """Starts `kubewhy watch` (with the flight recorder when `record` names a database), waits
    until it holds `pods` pods and has evaluated, and returns its resident memory (KiB), the
    events it holds and the size of its page (bytes)."""
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    args = [kubewhy, "watch", "--listen", f"127.0.0.1:{port}", "--kubeconfig", kubeconfig]
    if record:
        args += ["--record", record]
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t = time.time()
        while True:
            time.sleep(1)
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
            except OSError:
                body = ""
            held = [l for l in body.splitlines() if l.startswith('kubewhy_watch_objects{resource="pods"}')]
            if held and int(held[0].split()[-1]) >= pods and "kubewhy_evaluations_total" in body:
                break
            if time.time() - t > 300:
                raise RuntimeError(f"kubewhy watch did not hold {pods} pods within 300 s")
        # Two more evaluations, so what an evaluation allocates is in the figure too.
        time.sleep(12)
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
        events = [l for l in body.splitlines() if l.startswith('kubewhy_watch_objects{resource="events"}')]
        page = len(urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30).read())
        for line in open(f"/proc/{p.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]), int(events[0].split()[-1]) if events else 0, page
    finally:
        p.terminate()
        p.wait()
        if record:
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.remove(record + suffix)
                except OSError:
                    pass


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000,20000")
    ap.add_argument("--kubeconfig", default="/tmp/realcluster/admin.kubeconfig")
    ap.add_argument("--state", default="/tmp/realcluster")
    ap.add_argument("--kubectl", default="/tmp/realcluster-cache/bin/kubectl")
    ap.add_argument("--kubewhy", default=os.path.join(ROOT, "target/release/kubewhy"))
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/LIVE.md"))
    ap.add_argument("--keep", action="store_true", help="leave the bench pods in the cluster")
    ap.add_argument("--events", type=int, default=2,
                    help="FailedScheduling events per pod, written by the benchmark (0: no scheduler "
                         "events but the real scheduler's own, however many it writes)")
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    if not os.path.exists(a.kubewhy):
        sys.exit(f"bench: {a.kubewhy} not found: cargo build --release -p kubewhy (or --kubewhy PATH)")
    if not kubectl_ok(a.kubectl, a.kubeconfig):
        sys.exit("bench: no cluster answers; start one: ../shared/realcluster/up.sh")
    tmp = tempfile.mkdtemp(prefix="kubewhy-bench-")
    api = Api(a.kubeconfig)
    bkc = bench_kubeconfig(a.kubeconfig, a.kubectl, tmp)
    server = Apiserver(a.state, a.kubeconfig, a.kubectl)
    rows = []
    try:
        server.record_bench_account()
        for size in sizes:
            ensure_pods(api, size, "kubewhy-bench" if a.events else None)
            if a.events:
                ensure_events(api, a.events)
            time.sleep(5)
            start = server.lines()
            scan = statistics.median(timed([a.kubewhy, "scan", "-A", "-o", "json", "--kubeconfig", bkc]) for _ in range(3))
            time.sleep(2)
            requests = server.count(start).get("kubewhy", 0) / 3
            kget = statistics.median(timed([a.kubectl, "--kubeconfig", bkc, "get", "pods", "-A", "-o", "json"]) for _ in range(3))
            rss, held_events, page = watch_rss(a.kubewhy, bkc, size)
            rss_rec, _, _ = watch_rss(a.kubewhy, bkc, size, record=os.path.join(tmp, "flight.db"))
            total = int(kubectl(["get", "pods", "-A", "--no-headers"], a.kubeconfig, a.kubectl).count("\n"))
            events = int(kubectl(["get", "events", "-A", "--no-headers"], a.kubeconfig, a.kubectl, check=False).count("\n"))
            rows.append({"size": size, "pods": total, "events": events, "requests": requests,
                         "scan": scan, "kubectl": kget, "rss": rss, "rss_rec": rss_rec,
                         "held_events": held_events, "page": page, "per_pod": a.events})
            log(f"{rows[-1]}")
    finally:
        server.restore()
        if not a.keep:
            for n in range(NAMESPACES):
                api.call("DELETE", f"/api/v1/namespaces/bench-{n}")
    report(rows, a.out, a.events)


def report(rows, out, events_per_pod):
    how = (f"no scheduler serves them, and the benchmark gives each pod {events_per_pod} FailedScheduling "
           "events in the scheduler's words" if events_per_pod else
           "the scheduler adds FailedScheduling events, as many as it writes")
    lines = ["# Live-cluster benchmark", "",
             f"`bench/live.py --events {events_per_pod}` on the real single-node Kubernetes 1.20 cluster of "
             f"../shared/realcluster, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores. Pods are Pending "
             f"(they select a node label nobody has); {how}.", "",
             "| pods in the cluster | events (held by the watch) | requests per `kubewhy scan -A` (audit log) | scan (median of 3) | `kubectl get pods -A -o json` | ratio | `kubewhy watch` RSS | with `--record` | page |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['pods']} | {r['events']} ({r['held_events']}) | {r['requests']:.0f} | {r['scan']:.2f} s | {r['kubectl']:.2f} s | "
                     f"{r['scan'] / r['kubectl']:.2f}x | {r['rss'] / 1024:.1f} MiB | {r['rss_rec'] / 1024:.1f} MiB | {r['page'] / 1024:.1f} KiB |")
    if len(rows) >= 2:
        a, b = rows[0], rows[-1]
        pods = max(1, b["pods"] - a["pods"])
        per_pod = (b["rss"] - a["rss"]) * 1024 / pods
        per_pod_rec = (b["rss_rec"] - a["rss_rec"]) * 1024 / pods
        events_each = f"{events_per_pod} events each" if events_per_pod else "each with its FailedScheduling events"
        lines += ["", f"Watch mode memory per watched pod ({events_each}): "
                  f"({b['rss']} KiB - {a['rss']} KiB) / ({b['pods']} - {a['pods']}) pods = **{per_pod:.0f} bytes** "
                  "(target: under 2 KB); with the flight recorder: "
                  f"**{per_pod_rec:.0f} bytes** per pod.",
                  f"Requests per scan: {a['requests']:.0f} at {a['pods']} pods, {b['requests']:.0f} at {b['pods']} "
                  "(target: constant; a kind with more than 500 objects takes one more page per 500)."]
    text = "\n".join(lines) + "\n"
    with open(out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
