#!/usr/bin/env bash
# Rebuilds demo/cluster-dump.json from a REAL cluster: the single-node Kubernetes 1.20 of
# ../shared/realcluster (build.sh, then up.sh). It creates a small shop with healthy workloads
# and planted failures, waits until each failure has shown itself, then captures:
#   kubectl cluster-info dump --all-namespaces        (nodes, events, workloads, pods, logs)
#   kubectl get namespaces,configmaps,secrets,serviceaccounts,persistentvolumeclaims -A -o json
#                                                     (kinds the dump lacks; Secret values blanked)
# and the same state as tests/fixtures/real/shop-dump/ (--output-directory) and shop-get.yaml.
# Usage: KUBECONFIG=/tmp/realcluster/admin.kubeconfig demo/build-demo.sh
set -euo pipefail
cd "$(dirname "$0")"
KUBECTL=${KUBECTL:-/tmp/realcluster-cache/bin/kubectl}
: "${KUBECONFIG:=/tmp/realcluster/admin.kubeconfig}"
export KUBECONFIG
k() { "$KUBECTL" "$@"; }
REG=localhost:5000
BB=$REG/tools/busybox:1
FIN=shop.example.com/protect

k create namespace shop --dry-run=client -o yaml | k apply -f - >/dev/null
until k -n shop get sa default >/dev/null 2>&1; do sleep 1; done

k -n shop apply -f - <<YAML
# --- healthy: a web front end and its config
apiVersion: v1
kind: ConfigMap
metadata: {name: web-settings}
data: {LISTEN: ":8080"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: frontend}}
    spec:
      terminationGracePeriodSeconds: 5
      containers:
      - name: web
        image: $BB
        command: [sh, -c, 'echo "listening on \$LISTEN"; exec sleep 100000']
        envFrom: [{configMapRef: {name: web-settings}}]
        readinessProbe: {exec: {command: ["true"]}, periodSeconds: 5}
---
# --- insufficient-resources: a batch deployment asking for 1000 CPUs (3 replicas, one finding)
apiVersion: apps/v1
kind: Deployment
metadata: {name: report-builder}
spec:
  replicas: 3
  selector: {matchLabels: {app: report-builder}}
  template:
    metadata: {labels: {app: report-builder, tier: batch}}
    spec:
      containers:
      - {name: builder, image: $BB, command: [sleep, "100000"], resources: {requests: {cpu: "1000"}}}
---
# --- node-selector-mismatch: wants an SSD node nobody labelled
apiVersion: v1
kind: Pod
metadata: {name: search-indexer, labels: {app: search-indexer}}
spec:
  nodeSelector: {disktype: ssd}
  containers:
  - {name: indexer, image: $BB, command: [sleep, "100000"]}
---
# --- host-port-conflict: two exporters on the same host port of a one-node cluster
apiVersion: v1
kind: Pod
metadata: {name: metrics-exporter-a, labels: {app: metrics-exporter}}
spec:
  terminationGracePeriodSeconds: 5
  containers:
  - {name: exporter, image: $BB, command: [sleep, "100000"], ports: [{containerPort: 9100, hostPort: 9100}]}
---
apiVersion: v1
kind: Pod
metadata: {name: metrics-exporter-b, labels: {app: metrics-exporter}}
spec:
  containers:
  - {name: exporter, image: $BB, command: [sleep, "100000"], ports: [{containerPort: 9100, hostPort: 9100}]}
---
# --- image-not-found: a tag that was never pushed
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout}
spec:
  replicas: 1
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      containers:
      - {name: checkout, image: "$REG/shop/checkout:2.3.1", command: [sleep, "100000"]}
---
# --- image-pull-auth: private registry, no pull secret
apiVersion: v1
kind: Pod
metadata: {name: payments, labels: {app: payments}}
spec:
  containers:
  - {name: payments, image: "127.0.0.1:5443/private/busybox:1", imagePullPolicy: Always, command: [sleep, "100000"]}
---
# --- image-registry-tls: registry with a certificate the node does not trust
apiVersion: v1
kind: Pod
metadata: {name: recommendations, labels: {app: recommendations}}
spec:
  containers:
  - {name: recommendations, image: "localhost:5443/private/busybox:1", imagePullPolicy: Always, command: [sleep, "100000"]}
---
# --- configmap-missing: env from a ConfigMap that was never created
apiVersion: v1
kind: Pod
metadata: {name: cart, labels: {app: cart}}
spec:
  containers:
  - name: cart
    image: $BB
    command: [sleep, "100000"]
    env:
    - name: REDIS_URL
      valueFrom: {configMapKeyRef: {name: cart-config, key: redis-url}}
---
# --- app-exit-error: cannot reach its database and exits 1
apiVersion: apps/v1
kind: Deployment
metadata: {name: orders}
spec:
  replicas: 1
  selector: {matchLabels: {app: orders}}
  template:
    metadata: {labels: {app: orders}}
    spec:
      containers:
      - name: orders
        image: $BB
        command: [sh, -c, 'echo "orders 1.8.0 starting"; echo "connecting to postgres at orders-db:5432"; echo "FATAL: could not connect to database: connection refused" >&2; exit 1']
---
# --- oom-killed: a cache that grows past its 32Mi limit
apiVersion: v1
kind: Pod
metadata: {name: image-cache, labels: {app: image-cache}}
spec:
  containers:
  - {name: cache, image: $BB, command: [tail, /dev/zero], resources: {limits: {memory: 32Mi}, requests: {memory: 32Mi}}}
---
# --- finalizer-pending: deleted, but a finalizer nobody handles
apiVersion: v1
kind: Pod
metadata: {name: legacy-billing, labels: {app: legacy-billing}, finalizers: ["$FIN"]}
spec:
  terminationGracePeriodSeconds: 5
  containers:
  - {name: billing, image: $BB, command: [sleep, "100000"]}
---
# --- healthy: a finished one-off job pod
apiVersion: v1
kind: Pod
metadata: {name: db-migrate, labels: {app: db-migrate}}
spec:
  restartPolicy: Never
  containers:
  - {name: migrate, image: $BB, command: [sh, -c, 'echo "migrations applied"']}
YAML

# --- ns-finalizer-pending: a team namespace deleted while a ConfigMap still carries a finalizer
k create namespace legacy-team --dry-run=client -o yaml | k apply -f - >/dev/null
until k -n legacy-team get sa default >/dev/null 2>&1; do sleep 1; done
k -n legacy-team apply -f - >/dev/null <<YAML
apiVersion: v1
kind: ConfigMap
metadata: {name: feature-flags, finalizers: ["$FIN"]}
data: {dark-mode: "on"}
YAML

wait_until() { # DESCRIPTION SECONDS COMMAND...
  local what=$1 t=$2; shift 2
  for _ in $(seq "$t"); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  echo "timed out waiting for $what" >&2; return 1
}
phase() { k -n shop get pod "$1" -o jsonpath='{.status.phase}'; }
waiting() { k -n shop get pods -l "app=$1" -o jsonpath='{.items[*].status.containerStatuses[*].state.waiting.reason}' | grep -q "$2"; }
restarts_ge() { [ "$(k -n shop get pods -l "app=$1" -o jsonpath='{.items[0].status.containerStatuses[0].restartCount}')" -ge "$2" ]; }

wait_until "legacy-billing Running" 120 sh -c "[ \"\$($KUBECTL -n shop get pod legacy-billing -o jsonpath='{.status.phase}')\" = Running ]"
k -n shop delete pod legacy-billing --wait=false
k delete namespace legacy-team --wait=false
wait_until "checkout ImagePullBackOff" 120 waiting checkout ImagePullBackOff
wait_until "payments ImagePullBackOff" 120 waiting payments ImagePullBackOff
wait_until "recommendations ImagePullBackOff" 120 waiting recommendations ImagePullBackOff
wait_until "cart CreateContainerConfigError" 120 waiting cart CreateContainerConfigError
wait_until "orders restarted twice" 180 restarts_ge orders 2
wait_until "image-cache restarted twice" 180 restarts_ge image-cache 2
wait_until "db-migrate Succeeded" 120 sh -c "[ \"\$($KUBECTL -n shop get pod db-migrate -o jsonpath='{.status.phase}')\" = Succeeded ]"
# Let the stuck states age past their grace periods.
sleep 150

{
  k cluster-info dump --all-namespaces
  k get namespaces,configmaps,serviceaccounts,persistentvolumeclaims -A -o json
  # Secret names and key names matter; their values never go into the repository.
  k get secrets -A -o json | jq '.items[] |= (.data |= (if . then map_values("") else . end))'
} > cluster-dump.json
echo "wrote demo/cluster-dump.json ($(wc -c < cluster-dump.json) bytes)"

# The same state in the other offline formats, for tests/fixtures/real/.
rm -rf ../tests/fixtures/real && mkdir -p ../tests/fixtures/real
k cluster-info dump --namespaces shop,legacy-team --output-directory ../tests/fixtures/real/shop-dump >/dev/null
k get pods,events -n shop -o yaml > ../tests/fixtures/real/shop-get.yaml
echo "wrote tests/fixtures/real/{shop-dump/,shop-get.yaml}"
